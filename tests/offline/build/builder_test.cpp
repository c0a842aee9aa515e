// The build step: source rigs (constructed here, or on disk) compiled into SkeletonData and ClipData.

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <unistd.h>

#include "mf/anim/curve.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/build/png_info.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

constexpr float kPx = 1e-4f;  // positional tolerance, pixels

// Every image is 40 × 20 unless listed.
ImageSizeFn sizes(std::map<std::string, ImageSize> known = {}, bool others = true) {
  return [known, others](const std::string& image) -> std::optional<ImageSize> {
    if (auto it = known.find(image); it != known.end()) return it->second;
    if (others) return ImageSize{40, 20};
    return std::nullopt;
  };
}

Bone bone(std::string name, int parent, float x = 0, float y = 0, float length = 0) {
  Bone b;
  b.name = std::move(name);
  b.parent = parent;
  b.x = x;
  b.y = y;
  b.length = length;
  return b;
}

Slot slot(std::string name, int bone_index, std::string attachment = "") {
  Slot s;
  s.name = std::move(name);
  s.bone = bone_index;
  s.attachment = std::move(attachment);
  return s;
}

Attachment attachment(int slot_index, std::string name, AttachmentData data) {
  return Attachment{slot_index, std::move(name), std::move(data)};
}

MeshAttachment triangle_mesh() {
  MeshAttachment m;
  m.uvs = {0, 0, 1, 0, 0.5f, 1};
  m.triangles = {0, 1, 2};
  m.hull = 3;
  m.vertices.positions = {-10, 0, 10, 0, 0, 20};
  return m;
}

// root ─ hip ─ arm; two slots.
SkeletonSource small_rig() {
  SkeletonSource s;
  s.uid = "skl_0123456789ab";
  s.bones = {bone("root", -1), bone("hip", 0, 10, -20, 40), bone("arm", 1, 30, 0, 25)};
  s.bones[1].rotation = 15;
  s.bones[1].scale_x = 1.5f;
  s.bones[1].shear_y = -5;
  s.bones[1].inherit = Inherit::NoScale;
  s.slots = {slot("body", 1, "body"), slot("hand", 2)};
  s.slots[1].dark = Rgba8{0x10, 0x20, 0x30, 0xff};
  s.slots[1].blend = BlendMode::Additive;
  Skin skin;
  skin.name = "default";
  skin.attachments.push_back(attachment(0, "body", RegionAttachment{}));
  s.skins.push_back(skin);
  return s;
}

BuildResult build(const SkeletonSource& s, const ImageSizeFn& images = sizes()) {
  Expected<BuildResult> r = build_skeleton(s, images, "test", "test.mskel");
  if (!r) ADD_FAILURE() << r.error().to_string();
  return r ? std::move(r).value() : BuildResult{std::make_shared<skel::SkeletonData>(), {}};
}

std::array<float, 2> vertex(const skel::SkeletonData& d, const skel::AttachmentRecord& a, std::uint32_t v) {
  const skel::VertexInfluences& vi = d.vertices[a.vertex_start + v];
  EXPECT_EQ(vi.count, 1u);
  return {d.influences[vi.first].x, d.influences[vi.first].y};
}

// ---- PNG headers ----

std::uint32_t crc32(const std::string& bytes) {
  std::uint32_t c = 0xffffffffu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return c ^ 0xffffffffu;
}

std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

std::string chunk(const std::string& type, const std::string& body) {
  return be32(static_cast<std::uint32_t>(body.size())) + type + body + be32(crc32(type + body));
}

// A PNG's signature, IHDR and IEND: all the build reads.
std::string png_header(std::uint32_t w, std::uint32_t h) {
  const std::string ihdr = be32(w) + be32(h) + std::string("\x08\x06\x00\x00\x00", 5);
  return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IEND", "");
}

// A real PNG: w × h opaque grey pixels, what build_rig decodes.
std::string png_image(int w, int h) {
  imaging::Image image = imaging::Image::blank(w, h);
  for (std::size_t i = 0; i < image.rgba.size(); ++i) image.rgba[i] = i % 4 == 3 ? 255 : 90;
  Expected<std::vector<std::uint8_t>> bytes = imaging::encode_png(image);
  if (!bytes) ADD_FAILURE() << bytes.error().to_string();
  return bytes ? std::string(bytes->begin(), bytes->end()) : std::string();
}

// Where a region's whole image lies on its page, in pixels: x, y, width, height.
std::array<long, 4> on_page(const skel::SkeletonData& d, const skel::Region& r) {
  const skel::Page& page = d.pages[static_cast<std::size_t>(r.page)];
  const auto px = [](float uv, int size) { return std::lround(static_cast<double>(uv) * size); };
  return {px(r.u0, page.width), px(r.v0, page.height), px(r.u1, page.width) - px(r.u0, page.width),
          px(r.v1, page.height) - px(r.v0, page.height)};
}

// A folder for one test, removed when it ends.
class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("mf_builder") {}
};

TEST(BuilderPng, ReadsTheSizeFromTheHeader) {
  Expected<PngSize> s = parse_png_size(png_header(300, 7), "a.png");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->width, 300);
  EXPECT_EQ(s->height, 7);
}

TEST(BuilderPng, RejectsWhatIsNotAPngNamingTheFile) {
  Expected<PngSize> text = parse_png_size("hello, this is not an image at all", "notes.png");
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().file, "notes.png");
  EXPECT_NE(text.error().message.find("not a PNG"), std::string::npos);

  Expected<PngSize> truncated = parse_png_size(png_header(4, 4).substr(0, 20), "cut.png");
  ASSERT_FALSE(truncated);
  EXPECT_EQ(truncated.error().file, "cut.png");
  EXPECT_NE(truncated.error().message.find("truncated"), std::string::npos);

  std::string other_chunk = png_header(4, 4);
  other_chunk.replace(12, 4, "gAMA");
  EXPECT_FALSE(parse_png_size(other_chunk, "x.png"));
  EXPECT_FALSE(parse_png_size(png_header(0, 4), "x.png"));
}

TEST(BuilderPng, ReadsFilesAndNamesMissingOnes) {
  TempDir dir;
  dir.write("a.png", png_header(64, 32));
  Expected<PngSize> s = read_png_size(dir.file("a.png"));
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->width, 64);
  EXPECT_EQ(s->height, 32);
  Expected<PngSize> missing = read_png_size(dir.file("b.png"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().file, dir.file("b.png"));
}

// ---- tables ----

TEST(Builder, CopiesBonesAndSlotsWithIndices) {
  const BuildResult r = build(small_rig());
  const skel::SkeletonData& d = *r.data;
  EXPECT_EQ(d.name, "test");
  ASSERT_EQ(d.bones.size(), 3u);
  EXPECT_EQ(d.bones.names, (std::vector<std::string>{"root", "hip", "arm"}));
  EXPECT_EQ(d.bones.parent, (std::vector<std::int32_t>{-1, 0, 1}));
  EXPECT_FLOAT_EQ(d.bones.x[1], 10);
  EXPECT_FLOAT_EQ(d.bones.y[1], -20);
  EXPECT_FLOAT_EQ(d.bones.rotation[1], 15);
  EXPECT_FLOAT_EQ(d.bones.scale_x[1], 1.5f);
  EXPECT_FLOAT_EQ(d.bones.shear_y[1], -5);
  EXPECT_FLOAT_EQ(d.bones.length[2], 25);
  EXPECT_EQ(d.bones.inherit[1], skel::Inherit::NoScale);

  ASSERT_EQ(d.slots.size(), 2u);
  EXPECT_EQ(d.slots.bone, (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(d.slots.setup_attachment[0], d.attachment_names.find("body"));
  EXPECT_EQ(d.slots.setup_attachment[1], -1);
  EXPECT_EQ(d.slots.has_dark, (std::vector<std::uint8_t>{0, 1}));
  EXPECT_EQ(d.slots.dark[1], (Rgba8{0x10, 0x20, 0x30, 0xff}));
  EXPECT_EQ(d.slots.blend[1], skel::BlendMode::Additive);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Builder, RegionCornersAreScaledRotatedAndOffsetInTheSlotBonesSpace) {
  SkeletonSource s = small_rig();
  RegionAttachment quarter;  // 90° makes the corners easy to compute by hand
  quarter.x = 5;
  quarter.y = -3;
  quarter.rotation = 90;
  quarter.scale_x = 2;
  quarter.scale_y = 0.5f;
  quarter.width = 40;
  quarter.height = 20;
  RegionAttachment tilted = quarter;  // 30°, image size from the image
  tilted.rotation = 30;
  tilted.width = tilted.height = 0;
  tilted.image = "wide";
  s.skins[0].attachments = {attachment(0, "quarter", quarter), attachment(0, "tilted", tilted)};
  s.slots[0].attachment = "";
  const BuildResult r = build(s, sizes({{"wide", {60, 30}}}));
  const skel::SkeletonData& d = *r.data;
  ASSERT_EQ(d.attachments.size(), 2u);

  // 40 × 20 scaled (2, 0.5) is 80 × 10: corners (∓40, ∓5). Rotating 90° clockwise (Y down) maps
  // (x, y) to (−y, x); then + (5, −3).
  const skel::AttachmentRecord& q = d.attachments[0];
  EXPECT_EQ(q.kind, skel::AttachmentKind::Region);
  ASSERT_EQ(q.vertex_count, 4u);
  // Spine's corner order: the picture's bottom right, bottom left, top left, top right.
  const float expected[4][2] = {{5 - 5, -3 + 40}, {5 - 5, -3 - 40}, {5 + 5, -3 - 40}, {5 + 5, -3 + 40}};
  for (std::uint32_t v = 0; v < 4; ++v) {
    const auto p = vertex(d, q, v);
    EXPECT_NEAR(p[0], expected[v][0], kPx) << "corner " << v;
    EXPECT_NEAR(p[1], expected[v][1], kPx) << "corner " << v;
    EXPECT_EQ(d.influences[d.vertices[q.vertex_start + v].first].bone, 1);  // the slot's bone
    EXPECT_EQ(d.influences[d.vertices[q.vertex_start + v].first].weight, 1.0f);
  }
  const float uvs[8] = {1, 1, 0, 1, 0, 0, 1, 0};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(d.uvs[2 * q.vertex_start + static_cast<std::uint32_t>(i)], uvs[i]);
  ASSERT_EQ(q.index_count, 6u);
  const std::uint16_t tris[6] = {0, 1, 2, 2, 3, 0};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(d.indices[q.index_start + static_cast<std::uint32_t>(i)], tris[i]);

  // 60 × 30 image scaled (2, 0.5): half extents (60, 7.5); rotated 30° clockwise; offset.
  const skel::AttachmentRecord& t = d.attachments[1];
  const double c = std::cos(std::numbers::pi / 6), sn = std::sin(std::numbers::pi / 6);
  const double local[4][2] = {{60, 7.5}, {-60, 7.5}, {-60, -7.5}, {60, -7.5}};
  for (std::uint32_t v = 0; v < 4; ++v) {
    const auto p = vertex(d, t, v);
    EXPECT_NEAR(p[0], c * local[v][0] - sn * local[v][1] + 5, kPx) << "corner " << v;
    EXPECT_NEAR(p[1], sn * local[v][0] + c * local[v][1] - 3, kPx) << "corner " << v;
  }
  // TL of the tilted region by hand: x = −60·0.8660254 + 7.5·0.5 + 5, y = −60·0.5 − 7.5·0.8660254 − 3.
  EXPECT_NEAR(vertex(d, t, 2)[0], -43.211524f, kPx);
  EXPECT_NEAR(vertex(d, t, 2)[1], -39.495191f, kPx);
}

TEST(Builder, UnweightedMeshVerticesBecomeSingleInfluencesOnTheSlotBone) {
  SkeletonSource s = small_rig();
  s.skins[0].attachments.push_back(attachment(1, "tri", triangle_mesh()));
  const BuildResult r = build(s);
  const skel::SkeletonData& d = *r.data;
  const skel::AttachmentRecord& m = d.attachments[1];
  EXPECT_EQ(m.kind, skel::AttachmentKind::Mesh);
  ASSERT_EQ(m.vertex_count, 3u);
  EXPECT_EQ(m.influence_count, 3u);
  const float xy[3][2] = {{-10, 0}, {10, 0}, {0, 20}};
  for (std::uint32_t v = 0; v < 3; ++v) {
    const skel::VertexInfluences& vi = d.vertices[m.vertex_start + v];
    ASSERT_EQ(vi.count, 1u);
    const skel::Influence& in = d.influences[vi.first];
    EXPECT_EQ(in.bone, 2);
    EXPECT_EQ(in.weight, 1.0f);
    EXPECT_EQ(in.x, xy[v][0]);
    EXPECT_EQ(in.y, xy[v][1]);
  }
  EXPECT_EQ(std::vector<float>(d.uvs.begin() + 2 * m.vertex_start, d.uvs.begin() + 2 * (m.vertex_start + 3)),
            (std::vector<float>{0, 0, 1, 0, 0.5f, 1}));
  ASSERT_EQ(m.index_count, 3u);
  EXPECT_EQ(d.indices[m.index_start + 2], 2);
  EXPECT_EQ(m.deform_source, 1);
  EXPECT_EQ(d.slot_deform_floats, (std::vector<std::uint32_t>{0, 6}));
}

// Vertex 1 of a mesh has 10 influences with weights 1…10 (normalised); vertex 0 and 2 have one.
MeshAttachment overweight_mesh() {
  MeshAttachment m = triangle_mesh();
  m.vertices.positions.clear();
  m.vertices.weights = {{{0, 1, 1, 2}}, {}, {{2, 1, 5, 6}}};
  for (int i = 0; i < 10; ++i)
    m.vertices.weights[1].push_back({i % 3, static_cast<float>(i + 1) / 55.0f, static_cast<float>(i), -1});
  return m;
}

TEST(Builder, CapsInfluencesAtTheEightLargestRenormalisedWithAWarning) {
  SkeletonSource s = small_rig();
  s.skins[0].attachments.push_back(attachment(1, "heavy", overweight_mesh()));
  const BuildResult r = build(s);
  const skel::SkeletonData& d = *r.data;
  const skel::AttachmentRecord& m = d.attachments[1];
  ASSERT_EQ(m.vertex_count, 3u);
  EXPECT_EQ(m.influence_count, 1u + 8u + 1u);
  const skel::VertexInfluences& vi = d.vertices[m.vertex_start + 1];
  ASSERT_EQ(vi.count, 8u);
  // Weights 3…10 of 55 stay (in source order), renormalised by their sum 52.
  float sum = 0;
  for (std::uint32_t k = 0; k < 8; ++k) {
    const skel::Influence& in = d.influences[vi.first + k];
    EXPECT_NEAR(in.weight, static_cast<float>(k + 3) / 52.0f, 1e-6f) << k;
    EXPECT_EQ(in.x, static_cast<float>(k + 2));
    EXPECT_EQ(in.bone, static_cast<std::int32_t>((k + 2) % 3));
    sum += in.weight;
  }
  EXPECT_NEAR(sum, 1.0f, 1e-6f);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].file, "test.mskel");
  EXPECT_EQ(r.warnings[0].path, "skins[0].attachments[1].weights.v[1]");
  EXPECT_NE(r.warnings[0].message.find("10 influences"), std::string::npos);
  EXPECT_EQ(d.slot_deform_floats[1], 20u);
}

TEST(Builder, ImportScaleMultipliesEveryPixelQuantity) {
  SkeletonSource s = small_rig();
  s.import.scale = 0.5f;
  RegionAttachment region;
  region.x = 10;
  region.y = 4;
  s.skins[0].attachments[0].data = region;  // 40 × 20 image
  MeshAttachment weighted = triangle_mesh();
  weighted.vertices.positions.clear();
  weighted.vertices.weights = {{{0, 0.5f, 2, 4}, {1, 0.5f, 6, 8}}, {{2, 1, -4, 0}}, {{2, 1, 0, 10}}};
  s.skins[0].attachments.push_back(attachment(1, "weighted", weighted));
  s.skins[0].attachments.push_back(attachment(1, "plain", triangle_mesh()));
  PointAttachment point;
  point.x = 8;
  point.y = -6;
  point.rotation = 45;
  s.skins[0].attachments.push_back(attachment(1, "tip", point));
  PathAttachment path;
  path.vertices.positions = {0, 0, 2, 0, 4, 0, 6, 0, 8, 0, 10, 0};
  path.lengths = {12};
  s.skins[0].attachments.push_back(attachment(1, "rail", path));
  IkConstraint ik;
  ik.name = "ik";
  ik.bones = {2};
  ik.target = 0;
  ik.softness = 8;
  s.ik.push_back(ik);
  PathConstraint fixed;
  fixed.name = "fixed";
  fixed.order = 1;
  fixed.bones = {2};
  fixed.target = 1;
  fixed.position_mode = PositionMode::Fixed;
  fixed.spacing_mode = SpacingMode::Fixed;
  fixed.position = 10;
  fixed.spacing = 6;
  PathConstraint percent = fixed;
  percent.name = "percent";
  percent.order = 2;
  percent.position_mode = PositionMode::Percent;
  percent.spacing_mode = SpacingMode::Proportional;
  percent.position = 0.5f;
  percent.spacing = 0.25f;
  s.path = {fixed, percent};
  PhysicsConstraint physics;
  physics.name = "physics";
  physics.order = 3;
  physics.bone = 2;
  physics.limit = 1000;
  physics.fps = 30;
  physics.mass = 4;
  s.physics.push_back(physics);

  const BuildResult r = build(s);
  const skel::SkeletonData& d = *r.data;
  EXPECT_FLOAT_EQ(d.bones.x[1], 5);
  EXPECT_FLOAT_EQ(d.bones.y[1], -10);
  EXPECT_FLOAT_EQ(d.bones.length[1], 20);
  EXPECT_FLOAT_EQ(d.bones.rotation[1], 15);  // angles and scales are not pixels
  EXPECT_FLOAT_EQ(d.bones.scale_x[1], 1.5f);

  // Region: 40 × 20 → 20 × 10 around (5, 2); the texture region keeps the image's pixel size.
  const skel::AttachmentRecord& reg = d.attachments[0];
  EXPECT_NEAR(vertex(d, reg, 2)[0], -5, kPx);  // top left
  EXPECT_NEAR(vertex(d, reg, 2)[1], -3, kPx);
  EXPECT_NEAR(vertex(d, reg, 0)[0], 15, kPx);  // bottom right
  EXPECT_NEAR(vertex(d, reg, 0)[1], 7, kPx);
  EXPECT_EQ(d.regions[reg.region_start].width, 40);

  const skel::AttachmentRecord& w = d.attachments[1];
  const skel::Influence& first = d.influences[d.vertices[w.vertex_start].first];
  EXPECT_FLOAT_EQ(first.x, 1);
  EXPECT_FLOAT_EQ(first.y, 2);
  EXPECT_FLOAT_EQ(first.weight, 0.5f);
  EXPECT_FLOAT_EQ(vertex(d, d.attachments[2], 2)[1], 10);

  const skel::AttachmentRecord& tip = d.attachments[3];
  EXPECT_FLOAT_EQ(tip.x, 4);
  EXPECT_FLOAT_EQ(tip.y, -3);
  EXPECT_FLOAT_EQ(tip.rotation, 45);
  const skel::AttachmentRecord& rail = d.attachments[4];
  EXPECT_EQ(rail.kind, skel::AttachmentKind::Path);
  EXPECT_FLOAT_EQ(vertex(d, rail, 5)[0], 5);
  ASSERT_EQ(rail.lengths_count, 1u);
  EXPECT_FLOAT_EQ(d.path_lengths[rail.lengths_start], 6);

  EXPECT_FLOAT_EQ(d.ik[0].softness, 4);
  EXPECT_FLOAT_EQ(d.path[0].position, 5);
  EXPECT_FLOAT_EQ(d.path[0].spacing, 3);
  EXPECT_FLOAT_EQ(d.path[1].position, 0.5f);  // percent and proportional are not pixels
  EXPECT_FLOAT_EQ(d.path[1].spacing, 0.25f);
  EXPECT_FLOAT_EQ(d.physics[0].limit, 500);
  EXPECT_FLOAT_EQ(d.physics[0].step, 1.0f / 30);
  EXPECT_FLOAT_EQ(d.physics[0].mass_inverse, 0.25f);
}

TEST(Builder, SequencesHaveOneRegionPerFrameAndOneAtlasPlacePerImage) {
  SkeletonSource s = small_rig();
  RegionAttachment flame;
  flame.image = "fire";
  flame.sequence = Sequence{4, 8, 2, 2};  // fire08, fire09, fire10, fire11; setup frame fire10
  s.skins[0].attachments.push_back(attachment(1, "flame", flame));
  RegionAttachment again;  // the same image again: a region of its own, the same page
  again.image = "fire09";
  s.skins[0].attachments.push_back(attachment(1, "still", again));
  const BuildResult r = build(s, sizes({{"fire10", {16, 8}}}));
  const skel::SkeletonData& d = *r.data;

  const skel::AttachmentRecord& f = d.attachments[1];
  ASSERT_EQ(f.region_count, 4u);
  EXPECT_EQ(f.sequence_setup, 2);
  // Each frame has its own place on the page, as large as its image (sizes only: nothing trimmed).
  std::set<std::array<long, 4>> places;
  for (std::uint32_t i = 0; i < 4; ++i) {
    const skel::Region& reg = d.regions[f.region_start + i];
    EXPECT_EQ(reg.page, 0);
    const std::array<long, 4> place = on_page(d, reg);
    EXPECT_EQ(place[2], static_cast<long>(reg.width));
    EXPECT_EQ(place[3], static_cast<long>(reg.height));
    EXPECT_GE(place[0], 0);
    EXPECT_GE(place[1], 0);
    EXPECT_LE(place[0] + place[2], d.pages[0].width);
    EXPECT_LE(place[1] + place[3], d.pages[0].height);
    places.insert(place);
  }
  EXPECT_EQ(places.size(), 4u);
  EXPECT_EQ(d.regions[f.region_start + 2].width, 16);
  EXPECT_EQ(d.regions[f.region_start + 2].height, 8);
  // The quad takes the setup frame's size: 16 × 8.
  EXPECT_NEAR(vertex(d, f, 0)[0], 8, kPx);  // bottom right
  EXPECT_NEAR(vertex(d, f, 0)[1], 4, kPx);

  // The same image again: a region of its own at the same place.
  const skel::AttachmentRecord& still = d.attachments[2];
  ASSERT_EQ(still.region_count, 1u);
  EXPECT_NE(still.region_start, f.region_start + 1);
  EXPECT_EQ(on_page(d, d.regions[still.region_start]), on_page(d, d.regions[f.region_start + 1]));
  // "body" and the four frames share one page, laid out from sizes alone (no pixels).
  ASSERT_EQ(d.pages.size(), 1u);
  EXPECT_EQ(d.pages[0].name, "test_0");
  EXPECT_TRUE(d.pages[0].bytes.empty());
  EXPECT_TRUE(d.normal_pages.empty());
  const skel::Region& body = d.regions[d.attachments[0].region_start];
  EXPECT_EQ(body.page, 0);
  EXPECT_EQ(body.width, 40);
  EXPECT_EQ(body.height, 20);
  EXPECT_EQ(places.count(on_page(d, body)), 0u);
  EXPECT_GT(r.atlas.occupancy(), 0.0);
}

TEST(Builder, LinkedMeshesShareTheirParentsGeometry) {
  SkeletonSource s = small_rig();
  LinkedMeshAttachment shared;
  shared.parent = "cloth";
  shared.skin = "default";
  shared.image = "cloth_red";
  shared.color = Rgba8{255, 0, 0, 255};
  LinkedMeshAttachment own = shared;
  own.deform = false;
  own.sequence = Sequence{2, 1, 0, 1};
  Skin red;
  red.name = "red";
  red.attachments = {attachment(1, "cloth", shared), attachment(1, "patch", own)};
  s.skins.push_back(red);
  MeshAttachment cloth = overweight_mesh();
  cloth.image = "cloth_base";
  s.skins[0].attachments.push_back(attachment(1, "cloth", cloth));
  const BuildResult r = build(s);
  const skel::SkeletonData& d = *r.data;
  ASSERT_EQ(d.attachments.size(), 4u);
  const skel::AttachmentRecord& parent = d.attachments[1];
  for (std::size_t i : {2u, 3u}) {
    const skel::AttachmentRecord& l = d.attachments[i];
    EXPECT_EQ(l.kind, skel::AttachmentKind::Mesh);
    EXPECT_EQ(l.vertex_start, parent.vertex_start);
    EXPECT_EQ(l.vertex_count, parent.vertex_count);
    EXPECT_EQ(l.influence_count, parent.influence_count);
    EXPECT_EQ(l.index_start, parent.index_start);
    EXPECT_EQ(l.index_count, parent.index_count);
    EXPECT_NE(l.region_start, parent.region_start);
  }
  EXPECT_EQ(d.attachments[2].deform_source, 1);
  EXPECT_EQ(d.attachments[3].deform_source, 3);
  EXPECT_EQ(d.attachments[2].color, (Rgba8{255, 0, 0, 255}));
  // cloth_base, cloth_red, cloth_red1 and cloth_red2: four images, four places.
  ASSERT_EQ(d.attachments[3].region_count, 2u);
  const std::set<std::array<long, 4>> places = {
      on_page(d, d.regions[parent.region_start]), on_page(d, d.regions[d.attachments[2].region_start]),
      on_page(d, d.regions[d.attachments[3].region_start]), on_page(d, d.regions[d.attachments[3].region_start + 1])};
  EXPECT_EQ(places.size(), 4u);
  // One range per slot, sized for its largest mesh (10 influences).
  EXPECT_EQ(d.slot_deform_floats[1], 20u);
  // The geometry exists once.
  EXPECT_EQ(d.vertices.size(), 4u + 3u);
}

TEST(Builder, SkinTablesAreSortedBySlotThenName) {
  SkeletonSource s = small_rig();
  s.slots.push_back(slot("back", 0));
  Skin skin;
  skin.name = "extra";
  skin.bones = {2};
  skin.attachments = {attachment(2, "zeta", RegionAttachment{}), attachment(1, "beta", RegionAttachment{}),
                      attachment(0, "alpha", RegionAttachment{}), attachment(2, "alpha", RegionAttachment{}),
                      attachment(1, "alpha", RegionAttachment{})};
  s.skins.push_back(skin);
  const BuildResult r = build(s);
  const skel::SkeletonData& d = *r.data;
  ASSERT_EQ(d.skins.size(), 2u);
  EXPECT_EQ(d.skins[0].name, "default");
  EXPECT_EQ(d.skins[1].name, "extra");
  EXPECT_EQ(d.skins[1].bones, (std::vector<std::int32_t>{2}));
  const std::vector<skel::SkinEntry>& e = d.skins[1].entries;
  ASSERT_EQ(e.size(), 5u);
  for (std::size_t i = 1; i < e.size(); ++i)
    EXPECT_TRUE(std::tie(e[i - 1].slot, e[i - 1].name) < std::tie(e[i].slot, e[i].name)) << i;
  for (const skel::SkinEntry& entry : e) {
    const skel::AttachmentRecord& a = d.attachments[static_cast<std::size_t>(entry.attachment)];
    EXPECT_EQ(a.slot, entry.slot);
    EXPECT_EQ(a.name, entry.name);
  }
  // Names are interned once: body, zeta, beta, alpha.
  EXPECT_EQ(d.attachment_names.names, (std::vector<std::string>{"body", "zeta", "beta", "alpha"}));
  EXPECT_EQ(e[0].slot, 0);
  EXPECT_EQ(e[0].name, d.attachment_names.find("alpha"));
}

// root(0) ─ hip(1) ─ thigh(2) ─ shin(3) ─ foot(4); target(5) and other(6) under root.
SkeletonSource leg_rig() {
  SkeletonSource s;
  s.bones = {bone("root", -1), bone("hip", 0),    bone("thigh", 1, 0, 0, 50), bone("shin", 2, 50, 0, 45),
             bone("foot", 3, 45), bone("target", 0, 20, 100), bone("other", 0)};
  return s;
}

std::vector<std::pair<skel::UpdateKind, std::int32_t>> steps(const std::vector<skel::UpdateStep>& order) {
  std::vector<std::pair<skel::UpdateKind, std::int32_t>> out;
  for (const skel::UpdateStep& s : order) out.emplace_back(s.kind, s.index);
  return out;
}

TEST(Builder, UpdateOrderPutsIkTargetsBeforeAndDescendantsAfterTheConstraint) {
  SkeletonSource s = leg_rig();
  IkConstraint ik;
  ik.name = "leg";
  ik.bones = {2, 3};
  ik.target = 5;
  s.ik.push_back(ik);
  const BuildResult r = build(s);
  const skel::SkeletonData& d = *r.data;
  using K = skel::UpdateKind;
  const std::vector<std::pair<K, std::int32_t>> expected = {
      {K::Bone, 0}, {K::Bone, 5}, {K::Bone, 1}, {K::Bone, 2}, {K::Bone, 3},  // what the solve reads
      {K::Ik, 0},                                                            // the solve
      {K::Bone, 2}, {K::Bone, 3}, {K::Bone, 4}, {K::Bone, 6}};               // changed bones, the rest
  EXPECT_EQ(steps(d.update_order), expected);
  ASSERT_EQ(d.constraint_steps.size(), 1u);
  EXPECT_EQ(d.constraint_steps[0].kind, K::Ik);

  // The properties the order guarantees, independent of the exact sequence.
  const auto at = [&](K kind, std::int32_t index) {
    return std::find_if(d.update_order.begin(), d.update_order.end(),
                        [&](const skel::UpdateStep& u) { return u.kind == kind && u.index == index; }) -
           d.update_order.begin();
  };
  const auto last = [&](std::int32_t b) {
    std::ptrdiff_t p = -1;
    for (std::size_t i = 0; i < d.update_order.size(); ++i)
      if (d.update_order[i].kind == K::Bone && d.update_order[i].index == b) p = static_cast<std::ptrdiff_t>(i);
    return p;
  };
  EXPECT_LT(at(K::Bone, 5), at(K::Ik, 0));
  for (std::int32_t b : {2, 3, 4}) EXPECT_GT(last(b), at(K::Ik, 0)) << b;
  for (std::int32_t b = 0; b < 7; ++b) EXPECT_GE(last(b), 0) << b;
}

// Constraints without `order` run after those with one, in the default order: ik, transform, path,
// physics, each list in file order.
TEST(Builder, ConstraintsWithoutOrderRunInTheDefaultOrder) {
  SkeletonSource s = leg_rig();
  IkConstraint ik;
  ik.name = "leg";
  ik.bones = {3};
  ik.target = 5;
  TransformConstraint follow;
  follow.name = "leg";  // names are unique per kind only
  follow.bones = {6};
  follow.target = 4;
  PhysicsConstraint sway, late;
  sway.name = "sway";
  sway.bone = 4;
  late.name = "late";
  late.order = 0;
  late.bone = 6;
  s.ik.push_back(ik);
  s.transform.push_back(follow);
  s.physics = {sway, late};
  const BuildResult r = build(s);
  using K = skel::UpdateKind;
  EXPECT_EQ(steps(r.data->constraint_steps),
            (std::vector<std::pair<K, std::int32_t>>{{K::Physics, 1}, {K::Ik, 0}, {K::Transform, 0}, {K::Physics, 0}}));
}

TEST(Builder, ConstraintsRunInTheirOrderAndSkinsListTheirIds) {
  SkeletonSource s = leg_rig();
  IkConstraint ik;
  ik.name = "leg";
  ik.order = 2;
  ik.bones = {3};
  ik.target = 5;
  ik.skin_required = true;
  TransformConstraint follow;
  follow.name = "follow";
  follow.order = 0;
  follow.bones = {6};
  follow.target = 4;
  PhysicsConstraint sway;
  sway.name = "sway";
  sway.order = 1;
  sway.bone = 4;
  s.ik.push_back(ik);
  s.transform.push_back(follow);
  s.physics.push_back(sway);
  Skin skin;
  skin.name = "gear";
  skin.constraints = {{ConstraintKind::Ik, 0}, {ConstraintKind::Physics, 0}};
  s.skins.push_back(skin);
  const BuildResult r = build(s);
  const skel::SkeletonData& d = *r.data;
  using K = skel::UpdateKind;
  EXPECT_EQ(steps(d.constraint_steps),
            (std::vector<std::pair<K, std::int32_t>>{{K::Transform, 0}, {K::Physics, 0}, {K::Ik, 0}}));
  EXPECT_EQ(d.skins[0].constraints, (std::vector<std::int32_t>{1, 2}));  // ids, sorted
  EXPECT_TRUE(d.ik[0].skin_required);
  // follow reads foot (4) through its ancestors and other (6); sway changes foot, which the ik does
  // not read, so foot is emitted again only at the end.
  const std::vector<std::pair<K, std::int32_t>> expected = {
      {K::Bone, 0}, {K::Bone, 1}, {K::Bone, 2}, {K::Bone, 3}, {K::Bone, 4}, {K::Bone, 6}, {K::Transform, 0},
      {K::Physics, 0}, {K::Bone, 5}, {K::Ik, 0}, {K::Bone, 3}, {K::Bone, 4}, {K::Bone, 6}};
  EXPECT_EQ(steps(d.update_order), expected);
}

TEST(Builder, PathConstraintsWaitForTheBonesThatWeightTheirPath) {
  SkeletonSource s = leg_rig();
  s.slots = {slot("rail", 0, "rail")};
  PathAttachment rail;
  rail.vertices.weights.assign(6, {{6, 1, 0, 0}});  // weighted to "other"
  rail.lengths = {10};
  Skin skin;
  skin.name = "default";
  skin.attachments = {attachment(0, "rail", rail)};
  s.skins.push_back(skin);
  PathConstraint follow;
  follow.name = "follow";
  follow.bones = {4};
  follow.target = 0;
  s.path.push_back(follow);
  const BuildResult r = build(s);
  using K = skel::UpdateKind;
  const std::vector<std::pair<K, std::int32_t>> expected = {
      {K::Bone, 0}, {K::Bone, 6}, {K::Bone, 1}, {K::Bone, 2}, {K::Bone, 3}, {K::Bone, 4}, {K::Path, 0},
      {K::Bone, 4}, {K::Bone, 5}};
  EXPECT_EQ(steps(r.data->update_order), expected);
}

TEST(Builder, AMissingImageIsAnErrorNamingItAndTheAttachment) {
  SkeletonSource s = small_rig();
  RegionAttachment r;
  r.image = "ghost";
  s.skins[0].attachments.push_back(attachment(1, "spooky", r));
  Expected<BuildResult> result = build_skeleton(s, sizes({{"body", {8, 8}}}, false), "test", "rig.mskel");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().file, "rig.mskel");
  EXPECT_EQ(result.error().path, "skins[0].attachments[1]");
  EXPECT_NE(result.error().message.find("\"ghost\""), std::string::npos) << result.error().message;

  RegionAttachment seq;
  seq.image = "run";
  seq.sequence = Sequence{3, 1, 0, 0};
  s.skins[0].attachments[1].data = seq;
  result = build_skeleton(s, sizes({{"body", {8, 8}}, {"run1", {8, 8}}, {"run2", {8, 8}}}, false), "test", "rig.mskel");
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("\"run3\""), std::string::npos) << result.error().message;
}

TEST(Builder, BadReferencesAreErrorsNotCrashes) {
  SkeletonSource s = small_rig();
  s.slots[1].bone = 7;
  Expected<BuildResult> r = build_skeleton(s, sizes(), "t", "t.mskel");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "slots[1].bone");

  s = small_rig();
  MeshAttachment m = triangle_mesh();
  m.triangles = {0, 1, 3};
  s.skins[0].attachments.push_back(attachment(1, "bad", m));
  r = build_skeleton(s, sizes(), "t", "t.mskel");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "skins[0].attachments[1].triangles[2]");

  s = small_rig();
  LinkedMeshAttachment orphan;
  orphan.parent = "nothing";
  s.skins[0].attachments.push_back(attachment(1, "orphan", orphan));
  r = build_skeleton(s, sizes(), "t", "t.mskel");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "skins[0].attachments[1].parent");
}

TEST(Builder, BuildsEveryAttachmentKindOfTheRichTestRig) {
  Expected<SkeletonSource> s = read_skeleton_file(MF_TEST_DATA_DIR "/mskel/rich.mskel");
  ASSERT_TRUE(s) << s.error().to_string();
  const BuildResult r = build(*s);
  const skel::SkeletonData& d = *r.data;
  EXPECT_FLOAT_EQ(d.bones.x[1], 5);  // import.scale 0.5
  ASSERT_EQ(d.attachments.size(), 15u);
  using K = skel::AttachmentKind;
  const std::vector<K> kinds = {K::Region, K::Region,      K::Mesh,     K::Mesh,     K::Mesh,
                                K::BoundingBox, K::Clipping, K::Point,    K::Point,    K::Path,
                                K::Mesh,   K::Point,       K::BoundingBox, K::Clipping, K::Path};
  for (std::size_t i = 0; i < kinds.size(); ++i) EXPECT_EQ(d.attachments[i].kind, kinds[i]) << i;
  // body: an 8-frame sequence torso00…torso07 with setup frame 3.
  EXPECT_EQ(d.attachments[0].region_count, 8u);
  EXPECT_EQ(d.attachments[0].sequence_setup, 3);
  std::set<std::array<long, 4>> frames;
  for (std::uint32_t i = 0; i < 8; ++i) frames.insert(on_page(d, d.regions[d.attachments[0].region_start + i]));
  EXPECT_EQ(frames.size(), 8u);
  // The clipping polygon ends at slot "mesh" (2); the weighted path in "armored" is on bone tail.
  EXPECT_EQ(d.attachments[6].end_slot, 2);
  EXPECT_EQ(d.attachments[6].vertex_count, 3u);
  EXPECT_EQ(d.attachments[6].influence_count, 4u);
  EXPECT_TRUE(d.attachments[9].closed);
  EXPECT_FALSE(d.attachments[9].constant_speed);
  EXPECT_FLOAT_EQ(d.path_lengths[d.attachments[9].lengths_start + 1], 12.75f);
  // Linked meshes: one in its own skin (deform false), one across skins (deform shared).
  EXPECT_EQ(d.attachments[4].vertex_start, d.attachments[2].vertex_start);
  EXPECT_EQ(d.attachments[4].deform_source, 4);
  EXPECT_EQ(d.attachments[10].vertex_start, d.attachments[2].vertex_start);
  EXPECT_EQ(d.attachments[10].deform_source, 2);
  // Constraint ids follow `order`: leg_ik, tail_follow, tail_path, cape_physics, arm_ik, tail_physics.
  ASSERT_EQ(d.constraint_steps.size(), 6u);
  EXPECT_EQ(d.skins[1].constraints, (std::vector<std::int32_t>{3, 4}));
  EXPECT_EQ(d.skins[1].bones, (std::vector<std::int32_t>{d.find_bone("cape")}));
  // tail_follow changes tail, which tail_path moves along its path: tail is updated again between them.
  const std::int32_t tail = d.find_bone("tail");
  bool after_follow = false, tail_between = false;
  for (const skel::UpdateStep& u : d.update_order) {
    if (u.kind == skel::UpdateKind::Path) break;
    after_follow = after_follow || u.kind == skel::UpdateKind::Transform;
    tail_between = tail_between || (after_follow && u.kind == skel::UpdateKind::Bone && u.index == tail);
  }
  EXPECT_TRUE(tail_between);
  EXPECT_EQ(d.slot_deform_floats[2], 2 * d.attachments[2].influence_count);
}

// ---- clips ----

struct Built {
  SkeletonSource skeleton;
  BuildResult result;
  const skel::SkeletonData& data() const { return *result.data; }
};

Built built(SkeletonSource s) {
  Built b{std::move(s), {}};
  b.result = build(b.skeleton);
  return b;
}

skel::ClipData compile(const ClipSource& clip, const Built& b) {
  Expected<skel::ClipData> c = compile_clip(clip, b.skeleton, b.data(), "clip", "clip.manim");
  if (!c) ADD_FAILURE() << c.error().to_string();
  return c ? std::move(c).value() : skel::ClipData{};
}

const skel::Timeline* find(const skel::ClipData& c, skel::TimelineKind kind, std::int32_t target) {
  for (const skel::Timeline& t : c.timelines)
    if (t.kind == kind && t.target == target) return &t;
  return nullptr;
}

CurveTimeline curve_timeline(CurveKind kind, std::string target, std::vector<float> times, std::vector<float> values,
                             std::vector<Curve> curves = {}) {
  CurveTimeline t;
  t.kind = kind;
  t.target = std::move(target);
  t.times = std::move(times);
  t.values = std::move(values);
  t.curves = std::move(curves);
  return t;
}

TEST(Builder, CurvesBecomeCodesWithBeziersPreSampled) {
  const Built b = built(small_rig());
  ClipSource clip;
  clip.length = 2;
  const Curve ease = Curve::bezier(0.25f, 0.1f, 0.75f, 0.9f);
  const Curve wild = Curve::bezier(-0.5f, 2, 1.5f, -1);  // x outside [0, 1] is clamped
  clip.curves.push_back(curve_timeline(CurveKind::Rotate, "hip", {0, 1, 1.5f, 2}, {0, 90, 45, 0},
                                       {ease, Curve::stepped(), Curve::linear()}));
  clip.curves.push_back(curve_timeline(CurveKind::Scale, "arm", {0, 1, 2}, {1, 1, 2, 0.5f, 1, 1}, {wild, ease, ease, wild}));
  const skel::ClipData c = compile(clip, b);
  EXPECT_EQ(c.name, "clip");
  EXPECT_EQ(c.length, 2);

  const skel::Timeline* rot = find(c, skel::TimelineKind::Rotate, 1);
  ASSERT_NE(rot, nullptr);
  EXPECT_EQ(rot->key_count, 4u);
  EXPECT_EQ(rot->components, 1);
  EXPECT_EQ(rot->curved, 1);
  ASSERT_EQ(c.beziers.size(), 2u);  // identical curves share one table entry
  EXPECT_EQ(c.curves[rot->curve_start], anim::kCurveBezierBase + 0);
  EXPECT_EQ(c.curves[rot->curve_start + 1], anim::kCurveStepped);
  EXPECT_EQ(c.curves[rot->curve_start + 2], anim::kCurveLinear);
  EXPECT_EQ(std::vector<float>(c.times.begin() + rot->key_start, c.times.begin() + rot->key_start + 4),
            (std::vector<float>{0, 1, 1.5f, 2}));
  EXPECT_EQ(c.values[rot->value_start + 1], 90);

  const skel::Timeline* scale = find(c, skel::TimelineKind::Scale, 2);
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->components, 2);
  EXPECT_EQ(scale->curved, 2);
  const std::uint32_t wild_code = anim::kCurveBezierBase + 1;
  EXPECT_EQ(std::vector<std::uint32_t>(c.curves.begin() + scale->curve_start, c.curves.begin() + scale->curve_start + 4),
            (std::vector<std::uint32_t>{wild_code, anim::kCurveBezierBase, anim::kCurveBezierBase, wild_code}));

  const anim::BezierSamples e = anim::sample_bezier(0.25f, 0.1f, 0.75f, 0.9f);
  EXPECT_EQ(c.beziers[0].x, e.x);
  EXPECT_EQ(c.beziers[0].y, e.y);
  const anim::BezierSamples w = anim::sample_bezier(0, 2, 1, -1);
  EXPECT_EQ(c.beziers[1].x, w.x);
  EXPECT_EQ(c.beziers[1].y, w.y);
  // The pre-sampled ease stays within 0.01 of the exact curve.
  for (float x : {0.1f, 0.3f, 0.5f, 0.77f})
    EXPECT_NEAR(anim::evaluate(c.beziers[0], x), anim::evaluate_bezier_exact(0.25f, 0.1f, 0.75f, 0.9f, x), 1e-2f) << x;
}

TEST(Builder, ConstraintAndSlotTimelinesKeepLayoutAndChannels) {
  SkeletonSource s = leg_rig();
  s.slots = {slot("a", 0)};
  IkConstraint ik;
  ik.name = "leg";
  ik.bones = {2, 3};
  ik.target = 5;
  s.ik.push_back(ik);
  PhysicsConstraint p;
  p.name = "sway";
  p.order = 1;
  p.bone = 4;
  s.physics.push_back(p);
  s.import.scale = 2;
  const Built b = built(s);
  ClipSource clip;
  clip.length = 1;
  CurveTimeline ikt = curve_timeline(CurveKind::Ik, "leg", {0, 1}, {1, 3, -1, 1, 0, 0.5f, 0, 1, 0, 1},
                                     {Curve::linear(), Curve::stepped()});
  ikt.channels = 0b00111;  // mix, softness, bend
  clip.curves.push_back(ikt);
  clip.curves.push_back(curve_timeline(CurveKind::Rgba, "a", {0}, {1, 0.5f, 0.25f, 1}));
  clip.curves.push_back(curve_timeline(CurveKind::PhysicsMass, "sway", {0}, {4}));
  clip.physics_resets.push_back({"sway", {0.25f, 0.75f}});
  clip.inherits.push_back({"thigh", {0, 0.5f}, {Inherit::Normal, Inherit::NoScale}});
  clip.sequences.push_back({"a", {0}, {SequenceKey{SequenceMode::PingPong, 2, 0.1f}}});
  const skel::ClipData c = compile(clip, b);

  const skel::Timeline* t = find(c, skel::TimelineKind::Ik, 0);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->components, 5);
  EXPECT_EQ(t->curved, 2);
  EXPECT_EQ(t->channels, 0b00111);
  // Softness is pixels (× 2); bend, compress and stretch are stepped floats.
  EXPECT_EQ(std::vector<float>(c.values.begin() + t->value_start, c.values.begin() + t->value_start + 10),
            (std::vector<float>{1, 6, -1, 1, 0, 0.5f, 0, 1, 0, 1}));
  EXPECT_EQ(c.curves[t->curve_start + 1], anim::kCurveStepped);

  const skel::Timeline* rgba = find(c, skel::TimelineKind::Rgba, 0);
  ASSERT_NE(rgba, nullptr);
  EXPECT_EQ(rgba->components, 4);
  EXPECT_EQ(c.values[rgba->value_start + 2], 0.25f);
  const skel::Timeline* mass = find(c, skel::TimelineKind::PhysicsMass, 0);
  ASSERT_NE(mass, nullptr);
  EXPECT_EQ(c.values[mass->value_start], 4);
  const skel::Timeline* reset = find(c, skel::TimelineKind::PhysicsReset, 0);
  ASSERT_NE(reset, nullptr);
  EXPECT_EQ(reset->components, 0);
  EXPECT_EQ(reset->key_count, 2u);
  const skel::Timeline* inherit = find(c, skel::TimelineKind::Inherit, 2);
  ASSERT_NE(inherit, nullptr);
  EXPECT_EQ(c.values[inherit->value_start + 1], static_cast<float>(skel::Inherit::NoScale));
  const skel::Timeline* seq = find(c, skel::TimelineKind::Sequence, 0);
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->components, 3);
  EXPECT_EQ(std::vector<float>(c.values.begin() + seq->value_start, c.values.begin() + seq->value_start + 3),
            (std::vector<float>{static_cast<float>(skel::SequenceMode::PingPong), 2, 0.1f}));
  // Deterministic order: by kind, then target.
  for (std::size_t i = 1; i < c.timelines.size(); ++i)
    EXPECT_LE(c.timelines[i - 1].kind, c.timelines[i].kind);
}

TEST(Builder, ImportScaleAppliesToTranslateKeysAndDeformOffsets) {
  SkeletonSource s = small_rig();
  s.import.scale = 0.5f;
  s.skins[0].attachments.push_back(attachment(1, "tri", triangle_mesh()));
  PathConstraint rail;
  rail.name = "rail";
  rail.bones = {2};
  rail.target = 1;
  rail.position_mode = PositionMode::Fixed;
  rail.spacing_mode = SpacingMode::Percent;
  s.path.push_back(rail);
  const Built b = built(s);
  ClipSource clip;
  clip.length = 1;
  clip.curves.push_back(curve_timeline(CurveKind::Translate, "hip", {0, 1}, {0, 0, 10, -4}, {Curve::linear(), Curve::linear()}));
  clip.curves.push_back(curve_timeline(CurveKind::TranslateY, "arm", {0}, {8}));
  clip.curves.push_back(curve_timeline(CurveKind::Rotate, "arm", {0}, {8}));
  clip.curves.push_back(curve_timeline(CurveKind::Path, "rail", {0}, {10, 0.5f, 1, 1, 1}));
  DeformTimeline deform{"default", "hand", "tri", {0, 1}, {{0, {}}, {2, {4, -2, 6}}}, {Curve::linear()}};
  clip.deforms.push_back(deform);
  const skel::ClipData c = compile(clip, b);

  const skel::Timeline* tr = find(c, skel::TimelineKind::Translate, 1);
  ASSERT_NE(tr, nullptr);
  EXPECT_EQ(std::vector<float>(c.values.begin() + tr->value_start, c.values.begin() + tr->value_start + 4),
            (std::vector<float>{0, 0, 5, -2}));
  EXPECT_EQ(c.values[find(c, skel::TimelineKind::TranslateY, 2)->value_start], 4);
  EXPECT_EQ(c.values[find(c, skel::TimelineKind::Rotate, 2)->value_start], 8);
  const skel::Timeline* path = find(c, skel::TimelineKind::Path, 0);
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(c.values[path->value_start], 5);        // fixed position: pixels
  EXPECT_EQ(c.values[path->value_start + 1], 0.5f);  // percent spacing: not

  const skel::Timeline* d = find(c, skel::TimelineKind::Deform, 1);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->key_count, 2u);
  EXPECT_EQ(d->curved, 1);
  const skel::DeformKey& k0 = c.deform_keys[d->value_start];
  const skel::DeformKey& k1 = c.deform_keys[d->value_start + 1];
  EXPECT_EQ(k0.count, 0u);
  EXPECT_EQ(k1.offset, 2u);
  ASSERT_EQ(k1.count, 3u);
  EXPECT_EQ(std::vector<float>(c.values.begin() + k1.value_start, c.values.begin() + k1.value_start + 3),
            (std::vector<float>{2, -1, 3}));
}

TEST(Builder, DeformKeysFollowTheInfluencesTheCapKept) {
  SkeletonSource s = small_rig();
  s.skins[0].attachments.push_back(attachment(1, "heavy", overweight_mesh()));
  LinkedMeshAttachment linked;
  linked.parent = "heavy";
  s.skins[0].attachments.push_back(attachment(1, "copy", linked));
  const Built b = built(s);
  ClipSource clip;
  clip.length = 1;
  // Source floats: vertex 0 → 0, 1; vertex 1 → 2…21 (influences 0…9); vertex 2 → 22, 23. The cap drops
  // influences 0 and 1 of vertex 1 (floats 2…5).
  std::vector<float> values;
  for (int i = 0; i < 24; ++i) values.push_back(static_cast<float>(i));
  clip.deforms.push_back({"default", "hand", "copy", {0}, {{0, values}}, {}});
  const skel::ClipData c = compile(clip, b);
  const skel::Timeline* d = find(c, skel::TimelineKind::Deform, 1);  // a linked mesh's keys are its parent's
  ASSERT_NE(d, nullptr);
  const skel::DeformKey& k = c.deform_keys[d->value_start];
  EXPECT_EQ(k.offset, 0u);
  ASSERT_EQ(k.count, 20u);
  EXPECT_EQ(k.count, 2 * b.data().attachments[1].influence_count);
  std::vector<float> expected = {0, 1};
  for (int i = 6; i < 24; ++i) expected.push_back(static_cast<float>(i));
  EXPECT_EQ(std::vector<float>(c.values.begin() + k.value_start, c.values.begin() + k.value_start + 20), expected);
}

TEST(Builder, AttachmentDrawOrderAndEventTimelinesCompile) {
  SkeletonSource s = small_rig();
  s.slots = {slot("a", 0, "body"), slot("b", 0), slot("c", 0), slot("d", 0)};
  s.skins[0].attachments.push_back(attachment(1, "flash", RegionAttachment{}));
  EventDef step;
  step.name = "step";
  step.int_value = 7;
  step.float_value = 0.5f;
  step.string_value = "left";
  step.volume = 0.8f;
  step.balance = -0.25f;
  EventDef hit;
  hit.name = "hit";
  s.events = {step, hit};
  const Built b = built(s);
  ClipSource clip;
  clip.length = 1;
  clip.attachments.push_back({"b", {0, 0.5f}, {std::string("flash"), std::nullopt}});
  clip.draw_order.times = {0, 0.25f, 0.5f};
  clip.draw_order.keys = {{{"c", -2}}, {{"a", 3}, {"d", -3}}, {}};
  clip.events.times = {0.1f, 0.1f, 0.9f};
  EventKeySource plain{"step", {}, {}, {}, {}, {}};
  EventKeySource loud{"step", 3, {}, std::string("right"), 1.0f, {}};
  EventKeySource other{"hit", {}, 2.5f, std::string("right"), {}, 0.5f};
  clip.events.keys = {plain, loud, other};
  const skel::ClipData c = compile(clip, b);

  const skel::Timeline* att = find(c, skel::TimelineKind::Attachment, 1);
  ASSERT_NE(att, nullptr);
  EXPECT_EQ(c.values[att->value_start], static_cast<float>(b.data().attachment_names.find("flash")));
  EXPECT_EQ(c.values[att->value_start + 1], -1);

  const skel::Timeline* order = find(c, skel::TimelineKind::DrawOrder, -1);
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->key_count, 3u);
  EXPECT_EQ(std::vector<std::int32_t>(c.draw_orders.begin() + order->value_start,
                                      c.draw_orders.begin() + order->value_start + 12),
            (std::vector<std::int32_t>{2, 0, 1, 3, 3, 1, 2, 0, 0, 1, 2, 3}));

  ASSERT_EQ(c.events.size(), 3u);
  EXPECT_EQ(c.events[0].event, 0);
  EXPECT_EQ(c.events[0].int_value, 7);
  EXPECT_EQ(c.events[0].float_value, 0.5f);
  EXPECT_EQ(c.events[0].string_value, -1);
  EXPECT_EQ(c.events[0].volume, 0.8f);
  EXPECT_EQ(c.events[0].balance, -0.25f);
  EXPECT_EQ(c.events[1].int_value, 3);
  EXPECT_EQ(c.events[1].volume, 1.0f);
  ASSERT_GE(c.events[1].string_value, 0);
  EXPECT_EQ(c.strings[static_cast<std::size_t>(c.events[1].string_value)], "right");
  EXPECT_EQ(c.events[2].event, 1);
  EXPECT_EQ(c.events[2].time, 0.9f);
  EXPECT_EQ(c.events[2].float_value, 2.5f);
  EXPECT_EQ(c.events[2].balance, 0.5f);
  EXPECT_EQ(c.events[2].string_value, c.events[1].string_value);  // strings are stored once
  EXPECT_EQ(c.strings.size(), 1u);
}

TEST(Builder, ClipErrorsNameTheTimeline) {
  const Built b = built(small_rig());
  ClipSource clip;
  clip.curves.push_back(curve_timeline(CurveKind::Rotate, "nobody", {0}, {1}));
  Expected<skel::ClipData> c = compile_clip(clip, b.skeleton, b.data(), "x", "x.manim");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().file, "x.manim");
  EXPECT_EQ(c.error().path, "bones.nobody.rotate");

  clip.curves = {curve_timeline(CurveKind::Translate, "hip", {0, 1}, {1, 2, 3})};
  c = compile_clip(clip, b.skeleton, b.data(), "x", "x.manim");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().path, "bones.hip.translate");

  clip.curves.clear();
  clip.draw_order.times = {0};
  clip.draw_order.keys = {{{"body", 5}}};
  c = compile_clip(clip, b.skeleton, b.data(), "x", "x.manim");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().path, "drawOrder.v[0][0]");
}

// ---- rigs on disk ----

TEST(Builder, BuildsARigFromDiskWithItsImagesAndClips) {
  TempDir dir;
  SkeletonSource s = small_rig();
  s.import.scale = 2;
  s.skins[0].attachments.push_back(attachment(1, "tri", triangle_mesh()));
  ASSERT_TRUE(save_skeleton(s, dir.file("hero.mskel")));
  dir.write("images/body.png", png_image(30, 10));
  dir.write("images/tri.png", png_image(8, 8));
  ClipSource walk;
  walk.uid = "anm_00000000000a";
  walk.skeleton_uid = s.uid;
  walk.length = 1.5f;
  walk.curves.push_back(curve_timeline(CurveKind::TranslateX, "hip", {0, 1}, {0, 3}, {Curve::linear()}));
  fs::create_directories(dir.file("hero.clips"));
  ASSERT_TRUE(save_clip(walk, dir.file("hero.clips/walk.manim")));
  ClipSource idle = walk;
  idle.uid = "anm_00000000000b";
  idle.length = 0.5f;
  ASSERT_TRUE(save_clip(idle, dir.file("hero.clips/idle.manim")));

  Expected<BuildResult> r = build_rig_file(dir.file("hero.mskel"));
  ASSERT_TRUE(r) << r.error().to_string();
  const skel::SkeletonData& d = *r->data;
  EXPECT_EQ(d.name, "hero");
  // One atlas page holding both images, encoded as PNG.
  ASSERT_EQ(d.pages.size(), 1u);
  EXPECT_EQ(d.pages[0].name, "hero_0");
  EXPECT_EQ(d.pages[0].encoding, skel::PageEncoding::Png);
  EXPECT_FALSE(d.pages[0].bytes.empty());
  EXPECT_EQ(d.regions[d.attachments[0].region_start].width, 30);
  EXPECT_EQ(d.regions[d.attachments[0].region_start].height, 10);
  EXPECT_NEAR(vertex(d, d.attachments[0], 0)[0], 30, kPx);  // 30 px × scale 2, centred: bottom right
  ASSERT_EQ(d.clips.size(), 2u);
  EXPECT_EQ(d.clips[0].name, "idle");
  EXPECT_EQ(d.clips[1].name, "walk");
  EXPECT_EQ(d.clips[1].length, 1.5f);
  const skel::ClipData* c = d.clip(1);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->name, "walk");
  const skel::Timeline* t = find(*c, skel::TimelineKind::TranslateX, 1);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(c->values[t->value_start + 1], 6);
  EXPECT_FALSE(c->bounds.empty());
}

TEST(Builder, BuildRigListsClipsAndCompilesThemOnDemand) {
  TempDir dir;
  const SkeletonSource s = small_rig();
  ASSERT_TRUE(save_skeleton(s, dir.file("hero.mskel")));
  dir.write("images/body.png", png_image(30, 10));
  ClipSource walk;
  walk.uid = "anm_00000000000a";
  walk.skeleton_uid = s.uid;
  walk.length = 2;
  fs::create_directories(dir.file("hero.clips"));
  ASSERT_TRUE(save_clip(walk, dir.file("hero.clips/walk.manim")));
  std::shared_ptr<skel::SkeletonData> data;
  {
    Expected<Rig> rig = load_rig(dir.file("hero.mskel"));
    ASSERT_TRUE(rig) << rig.error().to_string();
    Expected<BuildResult> r = build_rig(*rig);
    ASSERT_TRUE(r) << r.error().to_string();
    data = r->data;
  }  // the loader keeps what it needs
  skel::SkeletonData& d = *data;
  ASSERT_EQ(d.clips.size(), 1u);
  EXPECT_EQ(d.clips[0].length, 2);
  EXPECT_EQ(d.clip(0), nullptr);
  Expected<const skel::ClipData*> c = d.load_clip(0);
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ((*c)->length, 2);
  EXPECT_EQ(d.clip(0), *c);
}

TEST(Builder, RigErrorsNameTheImageAndTheBrokenClip) {
  TempDir dir;
  SkeletonSource s = small_rig();
  ASSERT_TRUE(save_skeleton(s, dir.file("hero.mskel")));
  Expected<BuildResult> r = build_rig_file(dir.file("hero.mskel"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, dir.file("hero.mskel"));
  EXPECT_EQ(r.error().path, "skins[0].attachments[0]");
  EXPECT_TRUE(r.error().position.known());
  EXPECT_NE(r.error().message.find("\"body\""), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("body.png"), std::string::npos) << r.error().message;

  dir.write("images/body.png", "GIF89a not a png");
  r = build_rig_file(dir.file("hero.mskel"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not a PNG"), std::string::npos) << r.error().message;

  dir.write("images/body.png", png_image(4, 4));
  dir.write("hero.clips/broken.manim", "{ \"format\": 1,");
  r = build_rig_file(dir.file("hero.mskel"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, dir.file("hero.clips/broken.manim"));
}

TEST(Builder, BuildsTheMannequinExample) {
  const std::string path = MF_EXAMPLES_DIR "/mannequin/mannequin.mskel";
  if (!fs::exists(path)) GTEST_SKIP() << "example rig not present: " << path;
  Expected<BuildResult> r = build_rig_file(path);
  ASSERT_TRUE(r) << r.error().to_string();
  const skel::SkeletonData& d = *r->data;
  EXPECT_GT(d.bones.size(), 0u);
  EXPECT_GT(d.attachments.size(), 0u);
  EXPECT_GE(d.pages.size(), 1u);
  for (std::size_t i = 0; i < d.clips.size(); ++i) {
    ASSERT_NE(d.clip(static_cast<int>(i)), nullptr) << d.clips[i].name;
    EXPECT_EQ(d.clip(static_cast<int>(i))->length, d.clips[i].length);
  }
  // Every bone appears in the update order, parents before children at their first appearance.
  std::vector<int> first(d.bones.size(), -1);
  for (std::size_t i = 0; i < d.update_order.size(); ++i)
    if (d.update_order[i].kind == skel::UpdateKind::Bone && first[static_cast<std::size_t>(d.update_order[i].index)] < 0)
      first[static_cast<std::size_t>(d.update_order[i].index)] = static_cast<int>(i);
  for (std::size_t b = 0; b < d.bones.size(); ++b) {
    ASSERT_GE(first[b], 0) << d.bones.names[b];
    if (d.bones.parent[b] >= 0) {
      EXPECT_LT(first[static_cast<std::size_t>(d.bones.parent[b])], first[b]);
    }
  }
}

}  // namespace
}  // namespace mf::offline
