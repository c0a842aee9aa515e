// make_example_art <out_dir>: draws every image of the mannequin example rig
// (examples/mannequin/images) procedurally and writes them as RGBA PNGs with straight alpha.
//
// The drawing uses anti-aliased signed-distance shapes with a darker outline and a soft
// pseudo-3D shading. Only +, -, *, / and sqrt touch pixel values (no sin, cos or pow), and the
// target is built with -ffp-contract=off, so the output bytes are the same on every run.
//
// Every canvas knows the drawing coordinate of its top-left pixel, so shapes are given in the rig's
// own space: limb images in their bone's space (x along the bone from its origin), upright images
// (head, neck, torso, pelvis, helmet) in the setup pose's world space (Y down, the feet on y = 0,
// the character facing +x), and the scarf's tail as a straight strip that a weighted mesh bends.
// examples/mannequin/mannequin.mskel places each attachment with the same numbers, so the parts
// line up into the character in the setup pose.

#include <spng.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "mf/core/math/color.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf::tools {
namespace {

// ---- small math --------------------------------------------------------------------------------

float clamp01(float v) { return std::clamp(v, 0.0f, 1.0f); }
float smoothstep(float e0, float e1, float v) {
  const float t = clamp01((v - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}

// ---- signed distances (negative inside, in pixels) -----------------------------------------------

using Sdf = std::function<float(Vec2)>;

Sdf circle(Vec2 c, float r) {
  return [=](Vec2 p) { return length(p - c) - r; };
}

// A first-order distance estimate, good enough for a one-pixel anti-aliased edge.
Sdf ellipse(Vec2 c, float rx, float ry) {
  return [=](Vec2 p) {
    const Vec2 q = p - c;
    const float k0 = length(Vec2{q.x / rx, q.y / ry});
    const float k1 = length(Vec2{q.x / (rx * rx), q.y / (ry * ry)});
    if (k1 == 0) return -std::min(rx, ry);
    return k0 * (k0 - 1) / k1;
  };
}

// A capsule from a (radius ra) to b (radius rb): a limb that tapers.
Sdf capsule(Vec2 a, Vec2 b, float ra, float rb) {
  const Vec2 axis = b - a;
  const float h = length(axis);
  const Vec2 u = axis * (1 / h);  // along the capsule
  const Vec2 n = {-u.y, u.x};     // across it
  return [=](Vec2 p) {
    const Vec2 w = p - a;
    const Vec2 q = {std::abs(dot(w, n)), dot(w, u)};
    const float s = (ra - rb) / h;
    const float c = std::sqrt(1 - s * s);
    const float k = dot(q, {-s, c});
    if (k < 0) return length(q) - ra;
    if (k > c * h) return length(q - Vec2{0, h}) - rb;
    return dot(q, {c, s}) - ra;
  };
}

Sdf round_box(Vec2 center, Vec2 half, float r) {
  return [=](Vec2 p) {
    const Vec2 q = {std::abs(p.x - center.x) - half.x + r, std::abs(p.y - center.y) - half.y + r};
    const Vec2 outside = {std::max(q.x, 0.0f), std::max(q.y, 0.0f)};
    return length(outside) + std::min(std::max(q.x, q.y), 0.0f) - r;
  };
}

// Convex or concave polygon (even-odd inside test).
Sdf polygon(std::vector<Vec2> v) {
  return [v = std::move(v)](Vec2 p) {
    float d = dot(p - v[0], p - v[0]);
    bool inside = false;
    for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
      const Vec2 e = v[j] - v[i];
      const Vec2 w = p - v[i];
      const Vec2 b = w - e * clamp01(dot(w, e) / dot(e, e));
      d = std::min(d, dot(b, b));
      const bool c1 = p.y >= v[i].y, c2 = p.y < v[j].y, c3 = e.x * w.y > e.y * w.x;
      if ((c1 && c2 && c3) || (!c1 && !c2 && !c3)) inside = !inside;
    }
    return (inside ? -1.0f : 1.0f) * std::sqrt(d);
  };
}

Sdf unite(Sdf a, Sdf b) {
  return [=](Vec2 p) { return std::min(a(p), b(p)); };
}
Sdf intersect(Sdf a, Sdf b) {
  return [=](Vec2 p) { return std::max(a(p), b(p)); };
}
Sdf subtract(Sdf a, Sdf b) {
  return [=](Vec2 p) { return std::max(a(p), -b(p)); };
}
// Moves a shape's outline outwards by r pixels.
Sdf grow(Sdf a, float r) {
  return [=](Vec2 p) { return a(p) - r; };
}
// Half plane: inside where dot(p - point, normal) < 0 (normal need not be unit length).
Sdf half_plane(Vec2 point, Vec2 normal) {
  const float k = 1 / length(normal);
  return [=](Vec2 p) { return dot(p - point, normal) * k; };
}

// ---- colour -------------------------------------------------------------------------------------

// Colours are mf::ColorF: straight alpha, 0..1.

ColorF rgb(std::uint32_t hex, float a = 1) {
  return {static_cast<float>((hex >> 16) & 0xff) / 255, static_cast<float>((hex >> 8) & 0xff) / 255,
          static_cast<float>(hex & 0xff) / 255, a};
}
ColorF scaled(ColorF c, float k) { return {clamp01(c.r * k), clamp01(c.g * k), clamp01(c.b * k), c.a}; }
ColorF mix(ColorF a, ColorF b, float t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t};
}
ColorF outline_of(ColorF c) { return scaled(c, 0.42f); }

// ---- canvas -------------------------------------------------------------------------------------

using Paint = std::function<ColorF(Vec2 p, float d)>;

class Canvas {
 public:
  // `origin` is the drawing coordinate of the image's top-left corner: shapes are given in the
  // space of the rig (bone space for limbs, setup world space for upright parts).
  Canvas(int width, int height, Vec2 origin) : width_(width), height_(height), origin_(origin), pixels_(static_cast<std::size_t>(width * height), ColorF{0, 0, 0, 0}) {}

  int width() const { return width_; }
  int height() const { return height_; }

  // Fills a shape: coverage from the distance at each pixel centre (one-pixel anti-aliased edge).
  void fill(const Sdf& sdf, const Paint& paint) {
    for (int y = 0; y < height_; ++y) {
      for (int x = 0; x < width_; ++x) {
        const Vec2 p = {origin_.x + static_cast<float>(x) + 0.5f, origin_.y + static_cast<float>(y) + 0.5f};
        const float d = sdf(p);
        const float coverage = clamp01(0.5f - d);
        if (coverage <= 0) continue;
        blend(x, y, paint(p, d), coverage);
      }
    }
  }
  void fill(const Sdf& sdf, ColorF color) {
    fill(sdf, [color](Vec2, float) { return color; });
  }

  // A shape with a darker outline `width` pixels wide around the shaded inside.
  void outlined(const Sdf& sdf, const Paint& inside, ColorF outline, float width = 1.6f) {
    fill(sdf, [&](Vec2 p, float d) { return mix(outline, inside(p, d), clamp01(0.5f - (d + width))); });
  }

  // Straight-alpha RGBA8, rounded to nearest.
  std::vector<std::uint8_t> rgba8() const {
    std::vector<std::uint8_t> out(pixels_.size() * 4);
    auto to8 = [](float v) { return static_cast<std::uint8_t>(clamp01(v) * 255 + 0.5f); };
    for (std::size_t i = 0; i < pixels_.size(); ++i) {
      const ColorF& c = pixels_[i];  // premultiplied
      const float a = c.a;
      const bool empty = a <= 0;
      out[i * 4 + 0] = empty ? 0 : to8(c.r / a);
      out[i * 4 + 1] = empty ? 0 : to8(c.g / a);
      out[i * 4 + 2] = empty ? 0 : to8(c.b / a);
      out[i * 4 + 3] = to8(a);
    }
    return out;
  }

 private:
  // "Over" in premultiplied space.
  void blend(int x, int y, ColorF c, float coverage) {
    ColorF& dst = pixels_[static_cast<std::size_t>(y) * width_ + x];
    const float a = clamp01(c.a * coverage);
    dst.r = c.r * a + dst.r * (1 - a);
    dst.g = c.g * a + dst.g * (1 - a);
    dst.b = c.b * a + dst.b * (1 - a);
    dst.a = a + dst.a * (1 - a);
  }

  int width_, height_;
  Vec2 origin_;
  std::vector<ColorF> pixels_;
};

// ---- shading ------------------------------------------------------------------------------------

// Lights a flat shape as if it were a rounded body `thickness` pixels deep at its middle: the normal
// leans outwards along the distance gradient near the outline and faces the viewer inside. `light`
// is the direction towards the light in image space (the viewer is +z).
Paint rounded(const Sdf& sdf, ColorF base, float thickness, Vec2 light = {-0.45f, -0.6f}) {
  const float lz = 0.66f;
  const float ln = std::sqrt(light.x * light.x + light.y * light.y + lz * lz);
  return [=](Vec2 p, float d) {
    const float e = 0.5f;
    Vec2 g = {sdf({p.x + e, p.y}) - sdf({p.x - e, p.y}), sdf({p.x, p.y + e}) - sdf({p.x, p.y - e})};
    const float gl = length(g);
    g = gl > 0 ? g * (1 / gl) : Vec2{0, 0};
    const float depth = clamp01(-d / thickness);
    const float side = 1 - depth;                 // how far the normal leans outwards
    const float nz = std::sqrt(1 - side * side);  // cylinder profile
    const float lambert = std::max(0.0f, (g.x * side * light.x + g.y * side * light.y + nz * lz) / ln);
    return scaled(base, 0.62f + 0.5f * lambert);
  };
}

// ---- palette ------------------------------------------------------------------------------------

const ColorF kSkin = rgb(0xf2c29b);
const ColorF kHair = rgb(0x6b4127);
const ColorF kShirt = rgb(0x3f7fd1);
const ColorF kPants = rgb(0x3c4260);
const ColorF kShoe = rgb(0x8a5530);
const ColorF kSole = rgb(0x3a2a22);
const ColorF kBelt = rgb(0x5a3a22);
const ColorF kBuckle = rgb(0xe0b040);
const ColorF kScarf = rgb(0xd83a3a);
const ColorF kScarfStripe = rgb(0xf3d36b);
const ColorF kEye = rgb(0x2a2030);
const ColorF kSteel = rgb(0xb8c4d0);
const ColorF kSteelDark = rgb(0x7d8a98);
const ColorF kGold = rgb(0xd9a935);
const ColorF kTabard = rgb(0xb02a3a);
const ColorF kLeather = rgb(0x6a4228);

// ---- the images ---------------------------------------------------------------------------------

// A limb: a tapered capsule along the bone from x = 0 to x = len.
void limb(Canvas& c, float len, float r0, float r1, ColorF base) {
  const Sdf s = capsule({0, 0}, {len, 0}, r0, r1);
  c.outlined(s, rounded(s, base, std::max(r0, r1), {0, -0.9f}), outline_of(base));
}

Canvas upper_arm() {
  Canvas c(84, 30, {-15, -15});
  limb(c, 54, 12, 10, kShirt);
  // Cuff seam near the elbow.
  const Sdf seam = intersect(capsule({0, 0}, {54, 0}, 10.5f, 8.5f), round_box({44, 0}, {1.2f, 14}, 0));
  c.fill(seam, scaled(kShirt, 0.7f));
  return c;
}

Canvas upper_arm_knight() {
  Canvas c(84, 32, {-15, -16});
  limb(c, 54, 12, 10, kShirt);
  // Rerebrace plate over the arm, and a pauldron over the shoulder.
  const Sdf plate = capsule({10, 0}, {46, 0}, 11.5f, 10);
  c.outlined(plate, rounded(plate, kSteel, 10, {0, -0.9f}), outline_of(kSteelDark));
  const Sdf pauldron = intersect(ellipse({4, 0}, 20, 15), half_plane({16, 0}, {1, 0}));
  c.outlined(pauldron, rounded(pauldron, kSteel, 12, {-0.3f, -0.9f}), outline_of(kSteelDark));
  const Sdf trim = subtract(intersect(ellipse({4, 0}, 20, 15), half_plane({16, 0}, {1, 0})),
                            half_plane({12.5f, 0}, {1, 0}));
  c.fill(trim, kGold);
  const Sdf rivet = unite(circle({6, -8}, 1.6f), circle({6, 8}, 1.6f));
  c.fill(rivet, kSteelDark);
  return c;
}

Canvas forearm() {
  Canvas c(72, 24, {-12, -12});
  limb(c, 48, 9, 8, kSkin);
  return c;
}

Canvas hand() {
  Canvas c(44, 28, {-10, -14});
  // A mitten: palm and fingers as one rounded shape, the thumb on the forward side.
  const Sdf palm = unite(ellipse({11, 0}, 11, 8.5f), capsule({0, 0}, {8, 0}, 7, 8));
  const Sdf thumb = capsule({5, -6}, {13, -9}, 3.6f, 3.2f);
  const Sdf all = unite(palm, thumb);
  c.outlined(all, rounded(all, kSkin, 8, {0, -0.9f}), outline_of(kSkin));
  // Finger creases.
  for (float y : {-2.5f, 2.5f}) c.fill(capsule({15, y}, {21, y * 1.1f}, 0.6f, 0.6f), scaled(kSkin, 0.62f));
  return c;
}

Canvas thigh() {
  Canvas c(108, 38, {-19, -19});
  limb(c, 70, 16, 12, kPants);
  return c;
}

Canvas shin() {
  Canvas c(97, 30, {-15, -15});
  limb(c, 67, 12, 9.5f, kPants);
  // Trouser hem above the shoe.
  const Sdf hem = intersect(capsule({0, 0}, {67, 0}, 12, 10.5f), round_box({69, 0}, {2, 14}, 0));
  c.fill(hem, scaled(kPants, 0.7f));
  return c;
}

// Foot space: the ankle at the origin, toes towards +x, the sole's bottom at y = 12 (the ground
// when the foot is flat).
Sdf shoe_shape() {
  return unite(unite(ellipse({-3, 3}, 11, 9), capsule({2, 4}, {26, 6.5f}, 7.5f, 5.5f)),
               round_box({10, 9}, {22, 3}, 3));
}

Canvas foot() {
  Canvas c(56, 28, {-18, -12});
  const Sdf shoe = shoe_shape();
  c.outlined(shoe, rounded(shoe, kShoe, 8), outline_of(kShoe));
  const Sdf sole = intersect(grow(shoe, -1.6f), half_plane({0, 9.5f}, {0, -1}));
  c.fill(sole, kSole);
  // Laces.
  for (float x : {6.0f, 11.0f}) c.fill(capsule({x, -1.5f}, {x + 3, 0.5f}, 0.8f, 0.8f), rgb(0xf0e0c8));
  return c;
}

Canvas boot() {
  Canvas c(56, 44, {-18, -28});
  const Sdf shaft = round_box({-1, -10}, {11, 16}, 5);
  const Sdf body = unite(shoe_shape(), shaft);
  c.outlined(body, rounded(body, kLeather, 9), outline_of(kLeather));
  const Sdf cuff = intersect(grow(body, -1.6f), half_plane({0, -19}, {0, 1}));
  c.fill(cuff, scaled(kLeather, 0.8f));
  const Sdf toe_cap = intersect(capsule({12, 5}, {26, 6.5f}, 7.5f, 5.5f), half_plane({12, 0}, {-1, 0}));
  c.outlined(toe_cap, rounded(toe_cap, kSteel, 6), outline_of(kSteelDark), 1.2f);
  const Sdf sole = intersect(grow(body, -1.6f), half_plane({0, 9.5f}, {0, -1}));
  c.fill(sole, kSole);
  c.fill(round_box({-1, -6}, {11.5f, 1.6f}, 0.8f), kBuckle);
  return c;
}

// Upright images are drawn in the setup pose's world space (pixels, Y down, feet on y = 0).
Canvas neck() {
  Canvas c(20, 28, {-10, -262});
  const Sdf s = round_box({0, -249}, {7, 13}, 5);
  c.outlined(s, rounded(s, scaled(kSkin, 0.92f), 7, {1, 0}), outline_of(kSkin));
  return c;
}

Canvas pelvis() {
  Canvas c(52, 40, {-26, -164});
  const Sdf s = round_box({0, -145}, {22, 17}, 12);
  c.outlined(s, rounded(s, kPants, 14), outline_of(kPants));
  return c;
}

// The torso's side silhouette (facing +x): straight back, chest forward, a little belly; also the
// armour's outline.
Sdf torso_shape() {
  return polygon({{-11, -252}, {-19, -247}, {-23, -238}, {-24.5f, -222}, {-23.5f, -204}, {-21.5f, -186},
                  {-21.5f, -168}, {-22.5f, -152}, {-20, -143}, {-12, -139}, {0, -138.5f}, {12, -139},
                  {19.5f, -143}, {21, -152}, {21, -166}, {22.5f, -182}, {25, -198}, {26.5f, -214},
                  {25.5f, -229}, {20, -241}, {11, -249.5f}, {0, -253}});
}

Sdf collar_shape() { return ellipse({3, -247}, 17, 8); }

void scarf_wrap(Canvas& c) {
  const Sdf collar = collar_shape();
  c.outlined(collar, rounded(collar, kScarf, 7), outline_of(kScarf));
  const Sdf stripe = intersect(grow(collar, -1.6f), half_plane({0, -247}, {0, -1}));
  c.fill(intersect(stripe, half_plane({0, -244.5f}, {0, 1})), kScarfStripe);
}

void belt(Canvas& c, const Sdf& body) {
  const Sdf band = intersect(grow(body, -1.6f), round_box({0, -152}, {40, 4}, 0));
  c.fill(band, kBelt);
  c.outlined(round_box({17, -152}, {4, 4.5f}, 1.5f), [](Vec2, float) { return kBuckle; }, outline_of(kBuckle), 1.2f);
}

Canvas torso() {
  Canvas c(60, 112, {-30, -256});
  const Sdf body = torso_shape();
  c.outlined(body, rounded(body, kShirt, 12), outline_of(kShirt));
  // Buttons down the front.
  for (float y : {-226.0f, -206.0f, -186.0f, -166.0f}) {
    const float x = y > -200 ? 15.5f : 18.5f;
    c.outlined(circle({x, y}, 1.9f), [](Vec2, float) { return rgb(0xe8eef8); }, scaled(kShirt, 0.5f), 0.8f);
  }
  belt(c, body);
  scarf_wrap(c);
  return c;
}

Canvas torso_knight() {
  Canvas c(60, 112, {-30, -256});
  const Sdf body = torso_shape();
  // Mail under a steel breastplate, a tabard down the front.
  c.outlined(body, rounded(body, kSteelDark, 12), outline_of(kSteelDark));
  const Sdf plate = intersect(grow(body, -1.5f), half_plane({0, -166}, {0, 1}));
  c.outlined(plate, rounded(plate, kSteel, 12), outline_of(kSteelDark), 1.2f);
  for (float y : {-172.0f, -160.0f, -148.0f}) {
    c.fill(intersect(grow(body, -2), capsule({-30, y}, {30, y}, 0.6f, 0.6f)), scaled(kSteelDark, 0.7f));
  }
  const Sdf tabard = intersect(grow(body, -1.6f), round_box({5, -186}, {11, 44}, 3));
  c.outlined(tabard, rounded(tabard, kTabard, 6), outline_of(kTabard), 1.2f);
  c.fill(intersect(tabard, polygon({{6, -212}, {11, -204}, {6, -196}, {1, -204}})), kGold);
  belt(c, body);
  scarf_wrap(c);
  return c;
}

Canvas head() {
  Canvas c(72, 80, {-36, -328});
  const Sdf cranium = ellipse({0, -291}, 27, 29);
  const Sdf jaw = ellipse({9, -276}, 19, 16);
  const Sdf nose = ellipse({27, -285}, 5, 5.5f);
  const Sdf face = unite(unite(cranium, jaw), nose);
  c.outlined(face, rounded(face, kSkin, 22), outline_of(kSkin));
  // Ear.
  const Sdf ear = ellipse({-4, -284}, 5.5f, 7.5f);
  c.outlined(ear, rounded(ear, kSkin, 5), outline_of(kSkin), 1.3f);
  c.fill(ellipse({-3.5f, -284}, 2, 4), scaled(kSkin, 0.75f));
  // Hair: a cap over the top and back, leaving the face free, with a fringe over the forehead.
  const Sdf cap = unite(ellipse({-3, -297}, 29.5f, 23.5f), ellipse({-13, -287}, 18, 20));
  const Sdf face_cut = intersect(half_plane({4, -296}, {-0.55f, -1}), half_plane({-8, -270}, {-1, 0.2f}));
  const Sdf fringe = ellipse({14, -305}, 13, 7);
  const Sdf hair = subtract(unite(subtract(cap, face_cut), fringe), ellipse({-4, -284}, 7, 9.5f));
  c.outlined(hair, rounded(hair, kHair, 12), outline_of(kHair));
  // A few strands.
  c.fill(capsule({-20, -300}, {-8, -313}, 0.7f, 0.7f), scaled(kHair, 0.65f));
  c.fill(capsule({-22, -290}, {-14, -306}, 0.7f, 0.7f), scaled(kHair, 0.65f));
  // Cheek.
  c.fill(ellipse({8, -277}, 6, 4), rgb(0xf08a80, 0.45f));
  // Eyes: the near one large, the far one smaller near the nose (three-quarter view).
  for (const auto& [centre, rx, ry] : {std::tuple{Vec2{13, -290}, 3.6f, 5.2f}, std::tuple{Vec2{24.5f, -291}, 2.6f, 4.6f}}) {
    c.fill(ellipse(centre, rx, ry), kEye);
    c.fill(circle(centre + Vec2{0.9f, -1.6f}, rx * 0.38f), rgb(0xffffff));
  }
  // Brows and mouth.
  c.fill(capsule({9, -299}, {17, -300.5f}, 1.2f, 1.0f), scaled(kHair, 0.8f));
  c.fill(capsule({22, -300.5f}, {27, -300}, 1.0f, 0.9f), scaled(kHair, 0.8f));
  const Sdf smile = intersect(subtract(circle({19, -276}, 6), circle({19, -278.2f}, 5.8f)),
                              half_plane({0, -275}, {0, -1}));
  c.fill(smile, rgb(0x8a3a32));
  return c;
}

Canvas helmet() {
  Canvas c(76, 70, {-38, -340});
  // An open-faced helm: a dome over the crown and the back of the head whose rim runs from above the
  // brow down to the nape, a gold trim along the rim, and a crest.
  const Vec2 rim = {0, -292};
  const Vec2 rim_normal = {0.42f, 1};  // the rim rises towards the face
  const Sdf dome = ellipse({-2, -298}, 31, 26);
  const Sdf shell = intersect(dome, half_plane(rim, rim_normal));
  const Sdf crest = intersect(ellipse({-5, -318}, 25, 16), half_plane({0, -318}, {0.25f, 1}));
  c.outlined(crest, rounded(crest, kTabard, 6), outline_of(kTabard));
  c.outlined(shell, rounded(shell, kSteel, 14), outline_of(kSteelDark));
  const Sdf trim = intersect(grow(shell, -1.5f), half_plane(rim + Vec2{0, -5}, rim_normal * -1));
  c.fill(trim, kGold);
  const Sdf band = intersect(grow(shell, -1.5f), capsule({-2, -330}, {-10, -280}, 2.2f, 2.2f));
  c.fill(band, kGold);
  for (float x : {-24.0f, -16.0f, 10.0f, 19.0f}) c.fill(circle({x, -292 - 0.42f * x - 8}, 1.3f), kSteelDark);
  return c;
}

// The scarf's tail, drawn straight along +x; the rig bends it with a weighted mesh.
Canvas scarf() {
  Canvas c(72, 24, {0, 0});
  const Sdf tail = capsule({6, 12}, {62, 12}, 8, 6);
  c.outlined(tail, rounded(tail, kScarf, 8, {0, -0.9f}), outline_of(kScarf));
  for (float x : {22.0f, 40.0f}) {
    const Sdf stripe = intersect(grow(tail, -1.6f), round_box({x, 12}, {2.5f, 12}, 0));
    c.fill(stripe, kScarfStripe);
  }
  // Fringe at the end.
  for (int i = 0; i < 4; ++i) {
    const float y = 7.5f + 3 * static_cast<float>(i);
    c.outlined(capsule({62, y}, {69, y + 0.5f}, 1.3f, 1.1f), [](Vec2, float) { return kScarf; },
               outline_of(kScarf), 0.8f);
  }
  return c;
}

Canvas shadow() {
  Canvas c(120, 24, {-60, -12});
  const Sdf s = ellipse({0, 0}, 56, 9);
  c.fill(s, [](Vec2 p, float) {
    const float k = length(Vec2{p.x / 56, p.y / 9});
    return ColorF{0.08f, 0.06f, 0.1f, 0.38f * (1 - smoothstep(0.35f, 1.0f, k))};
  });
  return c;
}

// ---- PNG ----------------------------------------------------------------------------------------

bool write_png(const std::filesystem::path& path, const Canvas& canvas) {
  const std::vector<std::uint8_t> pixels = canvas.rgba8();
  spng_ctx* ctx = spng_ctx_new(SPNG_CTX_ENCODER);
  if (ctx == nullptr) return false;
  spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
  // Fixed settings, so a change of libspng's defaults does not change the bytes.
  spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, 9);
  spng_set_option(ctx, SPNG_FILTER_CHOICE, SPNG_FILTER_CHOICE_ALL);
  spng_ihdr ihdr{};
  ihdr.width = static_cast<std::uint32_t>(canvas.width());
  ihdr.height = static_cast<std::uint32_t>(canvas.height());
  ihdr.bit_depth = 8;
  ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
  int err = spng_set_ihdr(ctx, &ihdr);
  if (err == 0) err = spng_encode_image(ctx, pixels.data(), pixels.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
  std::size_t size = 0;
  void* png = err == 0 ? spng_get_png_buffer(ctx, &size, &err) : nullptr;
  spng_ctx_free(ctx);
  if (png == nullptr) {
    std::fprintf(stderr, "make_example_art: cannot encode %s: %s\n", path.string().c_str(), spng_strerror(err));
    return false;
  }
  std::FILE* file = std::fopen(path.string().c_str(), "wb");
  const bool ok = file != nullptr && std::fwrite(png, 1, size, file) == size;
  if (file != nullptr && std::fclose(file) != 0) {
    std::free(png);
    return false;
  }
  std::free(png);
  if (!ok) std::fprintf(stderr, "make_example_art: cannot write %s\n", path.string().c_str());
  return ok;
}

struct Image {
  const char* name;
  Canvas (*draw)();
};

const Image kImages[] = {
    {"boot", boot},
    {"foot", foot},
    {"forearm", forearm},
    {"hand", hand},
    {"head", head},
    {"helmet", helmet},
    {"neck", neck},
    {"pelvis", pelvis},
    {"scarf", scarf},
    {"shadow", shadow},
    {"shin", shin},
    {"thigh", thigh},
    {"torso", torso},
    {"torso_knight", torso_knight},
    {"upper_arm", upper_arm},
    {"upper_arm_knight", upper_arm_knight},
};

}  // namespace
}  // namespace mf::tools

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_example_art <out_dir>\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) {
    std::fprintf(stderr, "make_example_art: cannot create %s: %s\n", out.string().c_str(), ec.message().c_str());
    return 1;
  }
  for (const auto& image : mf::tools::kImages) {
    if (!mf::tools::write_png(out / (std::string(image.name) + ".png"), image.draw())) return 1;
  }
  return 0;
}
