// make_psd_character_art <out_dir>: draws the layers of the PSD example character
// (examples/psd-character): a small lizard standing on its hind legs, facing +x, with a long tail,
// two-segment arms and legs, horns, and two faces (one hidden). Every part is drawn in canvas
// coordinates (256 × 256 pixels, Y down, the feet on y = 237), trimmed to its pixels and written as
// an RGBA PNG with straight alpha; layout.json lists the layers and groups in draw order (bottom-most
// first) with each layer's PNG and its place on the canvas. examples/psd-character/make-psd.js turns
// them into the PSD with ag-psd.
//
// The drawing is shared with the mannequin's (drawing.hpp); the output bytes are the same on every
// run. `make_psd_character_art --check <psd>` reads the PSD back with our reader and checks that
// its layers are exactly what this program draws.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "drawing.hpp"
#include "mf/imaging/psd.hpp"

namespace mf::tools {
namespace {

using namespace art;

constexpr int kCanvas = 256;

// ---- palette ------------------------------------------------------------------------------------

const ColorF kScale = rgb(0x5fae5a);
const ColorF kScaleBack = scaled(kScale, 0.8f);  // limbs on the far side, in shadow
const ColorF kBelly = rgb(0xf1e3a6);
const ColorF kSpot = rgb(0x3f7d3c);
const ColorF kHorn = rgb(0xe8dcc8);
const ColorF kClaw = rgb(0xf4efe4);
const ColorF kEyeWhite = rgb(0xfdfbf2);
const ColorF kPupil = rgb(0x2a2030);
const ColorF kMouth = rgb(0x7a2f2a);
const ColorF kTongue = rgb(0xe0707a);

// ---- joints (canvas pixels) -----------------------------------------------------------------------

const Vec2 kHipBack = {121, 150}, kKneeBack = {112, 189}, kAnkleBack = {108, 224};
const Vec2 kHipFront = {134, 150}, kKneeFront = {144, 190}, kAnkleFront = {146, 224};
const Vec2 kShoulderBack = {125, 102}, kElbowBack = {138, 128}, kWristBack = {160, 134};
const Vec2 kShoulderFront = {140, 102}, kElbowFront = {151, 130}, kWristFront = {169, 149};

// ---- parts --------------------------------------------------------------------------------------

void limb(Canvas& c, Vec2 a, Vec2 b, float ra, float rb, ColorF base) {
  const Sdf s = capsule(a, b, ra, rb);
  c.outlined(s, rounded(s, base, std::max(ra, rb)), outline_of(base));
}

// A foot: the ankle's end of the shin, toes forward (+x) with three claws, the sole on y = 237.
void foot(Canvas& c, Vec2 ankle, ColorF base) {
  const Sdf s = unite(capsule(ankle, ankle + Vec2{4, 6}, 7, 7), ellipse(ankle + Vec2{11, 7}, 15, 6));
  c.outlined(s, rounded(s, base, 6), outline_of(base));
  for (float dy : {-3.0f, 0.0f, 3.0f}) {
    const Vec2 tip = ankle + Vec2{29, 8 + dy};
    c.outlined(capsule(tip - Vec2{4, 0.5f}, tip, 1.8f, 0.8f), [](Vec2, float) { return kClaw; }, outline_of(kHorn), 0.8f);
  }
}

// A hand at the wrist: a mitten with two claws, turned along the forearm.
void hand(Canvas& c, Vec2 elbow, Vec2 wrist, float r, ColorF base) {
  const Vec2 u = (wrist - elbow) * (1 / length(wrist - elbow));
  const Sdf s = unite(circle(wrist + u * (r * 0.6f), r), capsule(wrist, wrist + u * (r * 1.5f), r * 0.7f, r * 0.55f));
  c.outlined(s, rounded(s, base, r), outline_of(base));
  const Vec2 n = {-u.y, u.x};
  for (float k : {-0.45f, 0.45f}) {
    const Vec2 root = wrist + u * (r * 2.0f) + n * (r * k);
    c.outlined(capsule(root, root + u * 4.5f, 1.5f, 0.7f), [](Vec2, float) { return kClaw; }, outline_of(kHorn), 0.8f);
  }
}

Canvas shadow() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  c.fill(ellipse({132, 238}, 64, 8), [](Vec2 p, float) {
    const float k = length(Vec2{(p.x - 132) / 64, (p.y - 238) / 8});
    return ColorF{0.08f, 0.1f, 0.06f, 0.4f * (1 - smoothstep(0.3f, 1.0f, k))};
  });
  return c;
}

// The tail: tapered segments from the hip to the tip, lying along the ground behind the lizard.
Canvas tail() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  const Vec2 p[] = {{118, 156}, {90, 178}, {60, 192}, {32, 197}, {10, 191}};
  const float r[] = {13, 10.5f, 8, 5.5f, 3};
  Sdf s = capsule(p[0], p[1], r[0], r[1]);
  for (int i = 1; i < 4; ++i) s = unite(s, capsule(p[i], p[i + 1], r[i], r[i + 1]));
  c.outlined(s, rounded(s, kScale, 10, {-0.2f, -0.9f}), outline_of(kScale));
  // Spots along the top of the tail.
  const Vec2 spots[] = {{98, 168}, {74, 181}, {50, 188}, {28, 191}};
  const float spot_r[] = {3.2f, 2.8f, 2.2f, 1.6f};
  for (int i = 0; i < 4; ++i) c.fill(intersect(grow(s, -1.6f), circle(spots[i], spot_r[i])), kSpot);
  return c;
}

Canvas thigh_back() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  limb(c, kHipBack, kKneeBack, 12, 9, kScaleBack);
  return c;
}
Canvas shin_back() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  foot(c, kAnkleBack, kScaleBack);
  limb(c, kKneeBack, kAnkleBack, 9, 7, kScaleBack);
  return c;
}
Canvas thigh_front() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  limb(c, kHipFront, kKneeFront, 12.5f, 9.5f, kScale);
  return c;
}
Canvas shin_front() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  foot(c, kAnkleFront, kScale);
  limb(c, kKneeFront, kAnkleFront, 9.5f, 7, kScale);
  return c;
}

Canvas upper_arm_back() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  limb(c, kShoulderBack, kElbowBack, 8, 6.5f, kScaleBack);
  return c;
}
Canvas forearm_back() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  hand(c, kElbowBack, kWristBack, 5.5f, kScaleBack);
  limb(c, kElbowBack, kWristBack, 6.5f, 5.5f, kScaleBack);
  return c;
}
Canvas upper_arm_front() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  limb(c, kShoulderFront, kElbowFront, 8.5f, 7, kScale);
  return c;
}
Canvas forearm_front() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  hand(c, kElbowFront, kWristFront, 6, kScale);
  limb(c, kElbowFront, kWristFront, 7, 6, kScale);
  return c;
}

Canvas pelvis() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  const Sdf s = ellipse({128, 152}, 22, 15);
  c.outlined(s, rounded(s, kScale, 12), outline_of(kScale));
  return c;
}

Canvas torso() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  const Sdf body = unite(ellipse({129, 122}, 23, 33), ellipse({128, 145}, 22, 14));
  c.outlined(body, rounded(body, kScale, 16), outline_of(kScale));
  // The belly: a lighter plate down the front, with scale lines across it.
  const Sdf belly = intersect(grow(body, -2.5f), ellipse({140, 126}, 13, 30));
  c.outlined(belly, rounded(belly, kBelly, 8), scaled(kBelly, 0.7f), 1.0f);
  for (float y : {104.0f, 114.0f, 124.0f, 134.0f, 144.0f}) {
    c.fill(intersect(grow(belly, -1.5f), capsule({120, y}, {160, y + 2}, 0.6f, 0.6f)), scaled(kBelly, 0.72f));
  }
  // Spots on the back.
  for (const Vec2 spot : {Vec2{114, 108}, Vec2{112, 126}, Vec2{116, 142}}) {
    c.fill(intersect(grow(body, -1.6f), circle(spot, 3)), kSpot);
  }
  return c;
}

// The head without its face: skull, snout, neck and two horns.
Sdf head_shape() {
  return unite(unite(ellipse({134, 66}, 27, 25), ellipse({157, 74}, 17, 12)), capsule({128, 98}, {132, 82}, 11, 12));
}

Canvas head() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  for (const auto& horn : {std::vector<Vec2>{{114, 52}, {124, 45}, {108, 26}}, std::vector<Vec2>{{128, 43}, {139, 42}, {134, 20}}}) {
    const Sdf s = polygon(horn);
    c.outlined(s, rounded(s, kHorn, 4), outline_of(kHorn), 1.2f);
  }
  const Sdf s = head_shape();
  c.outlined(s, rounded(s, kScale, 18), outline_of(kScale));
  // Nostril and a spot on the crown.
  c.fill(ellipse({169, 69}, 1.8f, 1.2f), outline_of(kScale));
  c.fill(intersect(grow(s, -1.6f), circle({122, 58}, 3.5f)), kSpot);
  return c;
}

Canvas face_happy() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  const Sdf eye = ellipse({146, 58}, 7, 8);
  c.outlined(eye, [](Vec2, float) { return kEyeWhite; }, outline_of(kScale), 1.2f);
  c.fill(circle({148.5f, 59}, 3.8f), kPupil);
  c.fill(circle({150, 57}, 1.3f), kEyeWhite);
  // A wide smile along the snout.
  const Sdf smile = intersect(subtract(circle({158, 70}, 12), circle({158, 68}, 11)), half_plane({0, 74}, {0, -1}));
  c.fill(intersect(smile, half_plane({150, 0}, {-1, 0})), kMouth);
  return c;
}

Canvas face_surprised() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  const Sdf eye = ellipse({146, 56}, 8, 10);
  c.outlined(eye, [](Vec2, float) { return kEyeWhite; }, outline_of(kScale), 1.2f);
  c.fill(circle({148, 56}, 2.2f), kPupil);
  const Sdf mouth = ellipse({163, 81}, 4.5f, 5);
  c.outlined(mouth, [](Vec2, float) { return kTongue; }, kMouth, 1.4f);
  return c;
}

// A small cross at the feet between the two soles: where the rig's origin goes.
Canvas origin() {
  Canvas c(kCanvas, kCanvas, {0, 0});
  c.fill(unite(round_box({132, 237}, {5, 1}, 0.5f), round_box({132, 237}, {1, 5}, 0.5f)), rgb(0xff00ff));
  return c;
}

// ---- the layer tree -----------------------------------------------------------------------------

struct Node {
  std::string name;                      // the PSD layer or group name
  std::string file;                      // layers: the PNG's file name without ".png"
  Canvas (*draw)() = nullptr;            // layers
  bool visible = true;
  std::vector<Node> children;            // groups: bottom-most first
};

Node layer(std::string name, std::string file, Canvas (*draw)(), bool visible = true) {
  return {std::move(name), std::move(file), draw, visible, {}};
}
Node group(std::string name, std::vector<Node> children) {
  return {std::move(name), "", nullptr, true, std::move(children)};
}

// Groups are bones, nested as the skeleton is; within a group, draw order from the bottom.
std::vector<Node> character() {
  return {
      layer("[origin]", "origin", origin, false),
      layer("shadow", "shadow", shadow),
      group("hips", {
          group("tail", {layer("tail [mesh]", "tail", tail)}),
          group("thigh-back", {
              group("shin-back", {layer("shin-back [mesh]", "shin-back", shin_back)}),
              layer("thigh-back [mesh]", "thigh-back", thigh_back),
          }),
          layer("pelvis", "pelvis", pelvis),
          group("torso", {
              group("upper-arm-back", {
                  group("forearm-back", {layer("forearm-back [mesh]", "forearm-back", forearm_back)}),
                  layer("upper-arm-back [mesh]", "upper-arm-back", upper_arm_back),
              }),
              layer("torso [mesh]", "torso", torso),
              group("head", {
                  layer("head", "head", head),
                  group("[slot] face", {
                      layer("face-surprised", "face-surprised", face_surprised, false),
                      layer("face-happy", "face-happy", face_happy),
                  }),
              }),
              group("upper-arm-front", {
                  group("forearm-front", {layer("forearm-front [mesh]", "forearm-front", forearm_front)}),
                  layer("upper-arm-front [mesh]", "upper-arm-front", upper_arm_front),
              }),
          }),
          group("thigh-front", {
              group("shin-front", {layer("shin-front [mesh]", "shin-front", shin_front)}),
              layer("thigh-front [mesh]", "thigh-front", thigh_front),
          }),
      }),
  };
}

// ---- output -------------------------------------------------------------------------------------

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// A layer's pixels trimmed to alpha > 0, and where they sit on the canvas.
struct Trimmed {
  int x = 0, y = 0, width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
};

Trimmed trimmed(const Node& node) {
  const Canvas canvas = node.draw();
  const std::vector<std::uint8_t> full = canvas.rgba8();
  int x0 = kCanvas, y0 = kCanvas, x1 = -1, y1 = -1;
  for (int y = 0; y < kCanvas; ++y) {
    for (int x = 0; x < kCanvas; ++x) {
      if (full[(static_cast<std::size_t>(y) * kCanvas + x) * 4 + 3] == 0) continue;
      x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
    }
  }
  if (x1 < 0) return {};
  Trimmed out{x0, y0, x1 - x0 + 1, y1 - y0 + 1, {}};
  out.rgba.resize(static_cast<std::size_t>(out.width) * out.height * 4);
  for (int y = 0; y < out.height; ++y) {
    std::copy_n(full.begin() + static_cast<std::ptrdiff_t>(((y0 + y) * kCanvas + x0) * 4), out.width * 4,
                out.rgba.begin() + static_cast<std::ptrdiff_t>(y * out.width * 4));
  }
  return out;
}

// Writes a layer's PNG, trimmed to its pixels, and its entry in the layout.
bool write_layer(const std::filesystem::path& out, const Node& node, std::string& json, const std::string& indent) {
  const Trimmed t = trimmed(node);
  if (t.rgba.empty()) {
    std::fprintf(stderr, "make_psd_character_art: layer %s is empty\n", node.name.c_str());
    return false;
  }
  const std::string png = node.file + ".png";
  if (!write_png(out / png, t.width, t.height, t.rgba)) return false;
  json += indent + "{\"name\": " + json_string(node.name) + ", \"png\": " + json_string(png) +
          ", \"left\": " + std::to_string(t.x) + ", \"top\": " + std::to_string(t.y) + ", \"width\": " +
          std::to_string(t.width) + ", \"height\": " + std::to_string(t.height) +
          (node.visible ? "" : ", \"hidden\": true") + "}";
  return true;
}

bool write_nodes(const std::filesystem::path& out, const std::vector<Node>& nodes, std::string& json, const std::string& indent) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& node = nodes[i];
    if (node.draw != nullptr) {
      if (!write_layer(out, node, json, indent)) return false;
    } else {
      json += indent + "{\"name\": " + json_string(node.name) + ", \"children\": [\n";
      if (!write_nodes(out, node.children, json, indent + "  ")) return false;
      json += "\n" + indent + "]}";
    }
    json += i + 1 < nodes.size() ? ",\n" : "";
  }
  return true;
}

// --check: the PSD's tree, names, visibility, bounds and pixels are what the nodes draw. Prints
// the first difference and returns false.
bool check_nodes(const std::vector<Node>& nodes, const std::vector<imaging::PsdLayer>& layers, const std::string& parent) {
  if (nodes.size() != layers.size()) {
    std::fprintf(stderr, "%s: %zu layers in the PSD, %zu drawn\n", parent.empty() ? "the canvas" : parent.c_str(),
                 layers.size(), nodes.size());
    return false;
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& node = nodes[i];
    const imaging::PsdLayer& layer = layers[i];
    const std::string path = parent.empty() ? node.name : parent + "/" + node.name;
    const char* what = nullptr;
    if (layer.name != node.name) what = "another name";
    else if (layer.is_group() != (node.draw == nullptr)) what = "another kind (group or layer)";
    else if (layer.visible != node.visible) what = "another visibility";
    if (what == nullptr && node.draw != nullptr) {
      const Trimmed t = trimmed(node);
      if (!(layer.bounds == imaging::Rect{t.x, t.y, t.width, t.height})) what = "other bounds";
      else if (layer.pixels.rgba != t.rgba) what = "other pixels";
    }
    if (what != nullptr) {
      std::fprintf(stderr, "layer %zu of %s (%s): the PSD has %s than the generator draws\n", i,
                   parent.empty() ? "the canvas" : parent.c_str(), path.c_str(), what);
      return false;
    }
    if (node.draw == nullptr && !check_nodes(node.children, layer.children, path)) return false;
  }
  return true;
}

int check(const std::string& psd_path) {
  const auto doc = imaging::read_psd(psd_path);
  if (!doc) {
    std::fprintf(stderr, "make_psd_character_art: %s\n", doc.error().to_string().c_str());
    return 1;
  }
  if (doc->width != kCanvas || doc->height != kCanvas || doc->bits_per_channel != 8) {
    std::fprintf(stderr, "%s: %dx%d at %d bits instead of %dx%d at 8 bits\n", psd_path.c_str(), doc->width,
                 doc->height, doc->bits_per_channel, kCanvas, kCanvas);
    return 1;
  }
  if (!check_nodes(character(), doc->layers, "")) {
    std::fprintf(stderr, "%s differs from what make_psd_character_art draws: make it again (README.md)\n",
                 psd_path.c_str());
    return 1;
  }
  std::printf("%s: every layer is what make_psd_character_art draws\n", psd_path.c_str());
  return 0;
}

}  // namespace
}  // namespace mf::tools

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--check") return mf::tools::check(argv[2]);
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_psd_character_art <out_dir>\n"
                         "       make_psd_character_art --check <psd>\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) {
    std::fprintf(stderr, "make_psd_character_art: cannot create %s: %s\n", out.string().c_str(), ec.message().c_str());
    return 1;
  }
  std::string json = "{\"width\": " + std::to_string(mf::tools::kCanvas) + ", \"height\": " +
                     std::to_string(mf::tools::kCanvas) + ", \"layers\": [\n";
  if (!mf::tools::write_nodes(out, mf::tools::character(), json, "  ")) return 1;
  json += "\n]}\n";
  std::ofstream file(out / "layout.json", std::ios::binary);
  file << json;
  if (!file.flush()) {
    std::fprintf(stderr, "make_psd_character_art: cannot write %s\n", (out / "layout.json").string().c_str());
    return 1;
  }
  return 0;
}
