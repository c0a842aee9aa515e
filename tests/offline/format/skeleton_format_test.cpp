// The `.mskel` reader and canonical writer on valid input: byte-identical round trips, canonical
// rewriting of hand-edited files, model round trips, left-out defaults and the weights' bone order.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "mf/core/file_io.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::offline {
namespace {

std::string data_path(const std::string& name) { return std::string(MF_TEST_DATA_DIR) + "/mskel/" + name; }

std::string load(const std::string& name) {
  auto text = read_file(data_path(name));
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().to_string());
  return text.ok() ? *text : std::string();
}

SkeletonSource read_ok(std::string_view text, const std::string& file = "test.mskel") {
  auto s = read_skeleton(text, file);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
  return s.ok() ? *s : SkeletonSource{};
}

// A folder under the system temp folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("mf_skeleton_format_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Builders for model types whose designated initialisers would leave members without initialisers.
SkeletonSource skeleton_with_uid(const std::string& uid) {
  SkeletonSource s;
  s.uid = uid;
  return s;
}
Skin skin_named(const std::string& name) {
  Skin s;
  s.name = name;
  return s;
}
EventDef event_named(const std::string& name) {
  EventDef e;
  e.name = name;
  return e;
}
Slot slot_on(const std::string& name, int bone) {
  Slot s;
  s.name = name;
  s.bone = bone;
  return s;
}
LinkedMeshAttachment linked_to(const std::string& parent, const std::string& skin = "") {
  LinkedMeshAttachment a;
  a.parent = parent;
  a.skin = skin;
  return a;
}

template <class T>
const T& data_of(const Attachment& a) {
  return std::get<T>(a.data);
}

TEST(SkeletonFormat, RichFixtureRoundTripsByteForByte) {
  const std::string text = load("rich.mskel");
  const SkeletonSource s = read_ok(text);
  EXPECT_EQ(write_skeleton(s), text);
}

TEST(SkeletonFormat, MinimalFixtureRoundTripsByteForByte) {
  const std::string text = load("minimal.mskel");
  const SkeletonSource s = read_ok(text);
  EXPECT_EQ(s, skeleton_with_uid("skl_000000000000"));
  EXPECT_EQ(write_skeleton(s), text);
}

// import.trim is written only when off, and reads back.
TEST(SkeletonFormat, TrimIsWrittenOnlyWhenOff) {
  SkeletonSource s = read_ok(load("minimal.mskel"));
  EXPECT_TRUE(s.import.trim);
  EXPECT_EQ(write_skeleton(s).find("\"trim\""), std::string::npos);
  s.import.trim = false;
  const std::string text = write_skeleton(s);
  EXPECT_NE(text.find("\"trim\": false"), std::string::npos) << text;
  EXPECT_EQ(read_ok(text), s);
}

// The rich fixture read key by key: guards against a reader and writer that agree on a wrong key.
TEST(SkeletonFormat, ImageRectsAreWrittenOnlyWhenPresent) {
  SkeletonSource s;
  s.uid = "skl_a1b2c3d4e5f6";
  s.images = {{"torso", "art.psd:Body/Torso", CanvasRect{-12, 40, 64, 128}}, {"head", "art.psd:Head"}};
  const std::string text = write_skeleton(s);
  EXPECT_NE(text.find("{ \"name\": \"torso\", \"source\": \"art.psd:Body/Torso\", \"rect\": [-12, 40, 64, 128] }"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("{ \"name\": \"head\", \"source\": \"art.psd:Head\" }"), std::string::npos) << text;
  auto back = read_skeleton(text, "rect.mskel");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->images, s.images);
  EXPECT_EQ(write_skeleton(*back), text);
}

TEST(SkeletonFormat, RichFixtureReadsEveryKey) {
  const SkeletonSource s = read_ok(load("rich.mskel"));
  EXPECT_EQ(s.format, 1);
  EXPECT_EQ(s.uid, "skl_0123456789ab");
  EXPECT_EQ(s.fps, 24);
  EXPECT_EQ(s.import, (ImportSettings{"art/", 1024, 4, 0.5f, TextureFilter::Nearest, true, "_normal"}));
  EXPECT_EQ(s.clips, "anims/");
  ASSERT_EQ(s.images.size(), 3u);
  EXPECT_EQ(s.images[0], (ImageEntry{"torso", "art.psd:Body/Torso"}));
  EXPECT_EQ(s.images[1], (ImageEntry{"head", ""}));

  ASSERT_EQ(s.bones.size(), 10u);
  EXPECT_EQ(s.bones[0], Bone{.name = "root"});
  const Bone hip{.name = "hip", .parent = 0, .x = 10, .y = -20.5f, .rotation = 15, .scale_x = 1.5f, .scale_y = 0.75f,
                 .shear_x = 5, .shear_y = -5, .length = 40, .inherit = Inherit::NoScale, .color = {255, 0, 0, 255}};
  EXPECT_EQ(s.bones[1], hip);
  EXPECT_EQ(s.bones[3].parent, 2);
  EXPECT_EQ(s.bones[5].inherit, Inherit::OnlyTranslation);
  EXPECT_TRUE(s.bones[5].skin_required);
  EXPECT_EQ(s.bones[6].inherit, Inherit::NoRotationOrReflection);
  EXPECT_EQ(s.bones[7].inherit, Inherit::NoScaleOrReflection);
  EXPECT_EQ(s.bones[8].color, (Rgba8{0, 0, 0, 0x80}));
  EXPECT_EQ(s.bones[9].name, "bone with spaces");
  EXPECT_EQ(s.bones[9].y, 1e-7f);

  ASSERT_EQ(s.slots.size(), 6u);
  EXPECT_EQ(s.slots[0], (Slot{"body", 1, "body", Rgba8::white(), std::nullopt, BlendMode::Normal}));
  EXPECT_EQ(s.slots[1],
            (Slot{"head", 0, "head", {0xff, 0x80, 0x80, 0x80}, Rgba8{0x10, 0x20, 0x30, 0xff}, BlendMode::Additive}));
  EXPECT_EQ(s.slots[2].blend, BlendMode::Multiply);
  EXPECT_EQ(s.slots[3].blend, BlendMode::Screen);
  EXPECT_EQ(s.slots[5].bone, 8);
  EXPECT_TRUE(s.slots[5].attachment.empty());

  ASSERT_EQ(s.ik.size(), 2u);
  EXPECT_EQ(s.ik[0], (IkConstraint{"leg_ik", 0, false, {2, 3}, 4, 0.5f, 2, -1, true, true, true}));
  EXPECT_EQ(s.ik[1], (IkConstraint{"arm_ik", std::nullopt, true, {7}, 4}));  // last in the update order: no order
  ASSERT_EQ(s.transform.size(), 1u);
  TransformConstraint tc{"tail_follow", 1, false, {6, 8}, 1};
  tc.mix_rotate = 0.5f, tc.mix_x = 0.25f, tc.mix_y = 0, tc.mix_scale_x = 0.75f, tc.mix_scale_y = 0.125f;
  tc.mix_shear_y = 0.3f, tc.offset_rotation = 10, tc.offset_x = 1, tc.offset_y = 2, tc.offset_scale_x = 0.1f;
  tc.offset_scale_y = -0.2f, tc.offset_shear_y = 3, tc.local = true, tc.relative = true;
  EXPECT_EQ(s.transform[0], tc);
  ASSERT_EQ(s.path.size(), 1u);
  EXPECT_EQ(s.path[0], (PathConstraint{"tail_path", 2, false, {6}, 4, PositionMode::Fixed, SpacingMode::Proportional,
                                       RotateMode::ChainScale, 45, 10, 5, 0.5f, 0.5f, 0.25f}));
  ASSERT_EQ(s.physics.size(), 2u);
  EXPECT_EQ(s.physics[0], (PhysicsConstraint{"cape_physics", 3, true, 5, 0.5f, 0.25f, 1, 0.1f, 0.2f, 1000, 30, 0.5f,
                                             200, 0.9f, 2, 1.5f, -9.8f, 0.75f}));
  EXPECT_EQ(s.physics[1], (PhysicsConstraint{.name = "tail_physics", .bone = 6}));

  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events[0], (EventDef{"footstep", -3, 0.5f, "left \"heel\"", "sfx/step.ogg", 0.8f, -0.5f}));
  EXPECT_EQ(s.events[1], event_named("hit"));

  ASSERT_EQ(s.skins.size(), 3u);
  const Skin& def = s.skins[0];
  EXPECT_EQ(def.name, "default");
  EXPECT_TRUE(def.bones.empty());
  EXPECT_TRUE(def.constraints.empty());
  ASSERT_EQ(def.attachments.size(), 10u);

  const auto& region = data_of<RegionAttachment>(def.attachments[0]);
  EXPECT_EQ(def.attachments[0].slot, 0);
  EXPECT_EQ(def.attachments[0].name, "body");
  EXPECT_EQ(region, (RegionAttachment{"torso", 1, 2, 30, 0.5f, 2, 64, 128, {0x80, 0xff, 0x80, 0xff},
                                      Sequence{8, 0, 2, 3}}));
  EXPECT_EQ(data_of<RegionAttachment>(def.attachments[1]), RegionAttachment{});

  const auto& mesh = data_of<MeshAttachment>(def.attachments[2]);
  EXPECT_EQ(mesh.image, "cloth");
  EXPECT_EQ(mesh.color, (Rgba8{255, 255, 255, 0x80}));
  EXPECT_EQ(mesh.width, 100);
  EXPECT_EQ(mesh.height, 50);
  EXPECT_EQ(mesh.hull, 4);
  EXPECT_EQ(mesh.uvs, (std::vector<float>{0, 0, 1, 0, 1, 1, 0, 1}));
  EXPECT_EQ(mesh.triangles, (std::vector<int>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(mesh.edges, (std::vector<int>{0, 1, 1, 2, 2, 3, 3, 0}));
  EXPECT_EQ(mesh.sequence, (Sequence{2, 1, 0, 0}));
  // Local bone indices resolve to skeleton bones: thigh = 2, hip = 1, shin = 3.
  ASSERT_TRUE(mesh.vertices.weighted());
  const std::vector<std::vector<InfluenceSource>> weights = {
      {{2, 1, 0, 0}},
      {{1, 0.5f, 10, 0}, {2, 0.5f, 5, 0}},
      {{3, 0.25f, 1, 2}, {1, 0.75f, 3, 4}},
      {{1, 1, 0, 10}},
  };
  EXPECT_EQ(mesh.vertices.weights, weights);
  EXPECT_TRUE(mesh.vertices.positions.empty());

  const auto& plain = data_of<MeshAttachment>(def.attachments[3]);
  EXPECT_FALSE(plain.vertices.weighted());
  EXPECT_EQ(plain.vertices.positions, (std::vector<float>{-10, 0, 10, 0, 0, 20.5f}));
  EXPECT_EQ(plain.vertices.count(), 3u);
  EXPECT_FALSE(plain.sequence.has_value());

  EXPECT_EQ(data_of<LinkedMeshAttachment>(def.attachments[4]),
            (LinkedMeshAttachment{"skin_mesh", "", "cloth2", {0, 255, 0, 255}, false, Sequence{3, 1, 0, 2}}));
  const auto& box = data_of<BoundingBoxAttachment>(def.attachments[5]);
  EXPECT_EQ(box.vertices.positions, (std::vector<float>{0, 0, 10, 0, 10, 10, 0, 10}));
  EXPECT_EQ(box.color, (Rgba8{0x11, 0x22, 0x33, 0xff}));
  const auto& clip = data_of<ClippingAttachment>(def.attachments[6]);
  EXPECT_EQ(clip.end_slot, 2);
  EXPECT_EQ(clip.vertices.weights[2], (std::vector<InfluenceSource>{{0, 0.5f, 5, 5}, {1, 0.5f, 5, 5}}));
  EXPECT_EQ(clip.color, (Rgba8{0xab, 0xcd, 0xef, 0xff}));
  EXPECT_EQ(data_of<PointAttachment>(def.attachments[7]), (PointAttachment{3, -4, 90, {1, 2, 3, 255}}));
  EXPECT_EQ(def.attachments[8].name, "hitbox");  // same name as the bounding box, other slot
  EXPECT_EQ(data_of<PointAttachment>(def.attachments[8]), PointAttachment{});
  const auto& path = data_of<PathAttachment>(def.attachments[9]);
  EXPECT_TRUE(path.closed);
  EXPECT_FALSE(path.constant_speed);
  EXPECT_EQ(path.lengths, (std::vector<float>{10, 25.5f}));
  EXPECT_EQ(path.vertices.count(), 6u);
  EXPECT_EQ(path.color, (Rgba8{255, 0, 255, 255}));

  const Skin& armored = s.skins[1];
  EXPECT_EQ(armored.bones, std::vector<int>{5});
  EXPECT_EQ(armored.constraints, (std::vector<ConstraintRef>{{ConstraintKind::Ik, 1}, {ConstraintKind::Physics, 0}}));
  ASSERT_EQ(armored.attachments.size(), 5u);
  EXPECT_EQ(data_of<LinkedMeshAttachment>(armored.attachments[0]),
            linked_to("skin_mesh", "default"));
  EXPECT_EQ(data_of<BoundingBoxAttachment>(armored.attachments[2]).vertices.weights[2],
            (std::vector<InfluenceSource>{{7, 1, 5, 5}}));
  EXPECT_EQ(data_of<ClippingAttachment>(armored.attachments[3]).end_slot, -1);
  const auto& open_path = data_of<PathAttachment>(armored.attachments[4]);
  EXPECT_FALSE(open_path.closed);
  EXPECT_TRUE(open_path.constant_speed);
  EXPECT_EQ(open_path.lengths, std::vector<float>{7.25f});
  EXPECT_EQ(open_path.vertices.weights.size(), 6u);

  EXPECT_EQ(s.skins[2], skin_named("empty"));
}

TEST(SkeletonFormat, NonCanonicalFileRewritesCanonically) {
  const SkeletonSource s = read_ok(load("noncanonical.mskel"));
  const std::string canonical = write_skeleton(s);
  EXPECT_EQ(canonical, load("noncanonical.expected.mskel"));
  SkeletonSource without_default_orders = s;  // the writer leaves out the orders the default gives
  without_default_orders.canonicalize_orders();
  EXPECT_EQ(read_ok(canonical), without_default_orders);
  EXPECT_EQ(read_ok(canonical).update_order(), s.update_order());
  // The canonical text is a fixed point.
  EXPECT_EQ(write_skeleton(read_ok(canonical)), canonical);
}

TEST(SkeletonFormat, NonCanonicalValuesReadAsTheirCanonicalEquivalents) {
  const SkeletonSource s = read_ok(load("noncanonical.mskel"));
  ASSERT_EQ(s.bones.size(), 3u);
  EXPECT_EQ(s.bones[0].color, kDefaultBoneColor);  // "#989898" reads with alpha ff
  EXPECT_EQ(s.bones[1].x, 10.0f);                  // 1.0e1
  EXPECT_EQ(s.bones[1].y, -0.5f);                  // -0.50
  EXPECT_EQ(s.bones[2].rotation, 0.0f);            // -0.0 equals the default and is left out
  ASSERT_EQ(s.skins.size(), 1u);
  const auto& box = data_of<BoundingBoxAttachment>(s.skins[0].attachments[4]);
  // The file's local list is ["b", "a"]; the model holds skeleton bone indices.
  EXPECT_EQ(box.vertices.weights,
            (std::vector<std::vector<InfluenceSource>>{{{0, 1, 0, 0}}, {{1, 0.5f, 1, 1}, {0, 0.5f, 2, 2}}, {{1, 1, 3, 3}}}));
}

TEST(SkeletonFormat, WhitespaceAndLineEndingsDoNotMatter) {
  const std::string text = load("rich.mskel");
  std::string crlf;
  for (char c : text) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  // Whitespace outside strings becomes tabs and blank lines; strings keep their spaces.
  std::string tabs;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      tabs += c;
      if (c == '\\') tabs += text[++i];
      else if (c == '"') in_string = false;
    } else if (c == ' ') {
      tabs += "\t ";
    } else {
      if (c == '\n') tabs += "\n";
      if (c == '"') in_string = true;
      tabs += c;
    }
  }
  const SkeletonSource s = read_ok(text);
  EXPECT_EQ(read_ok(crlf), s);
  EXPECT_EQ(read_ok(tabs), s);
  EXPECT_NE(tabs.find("\"bone with spaces\""), std::string::npos);
}

// A model with every field away from its default.
SkeletonSource make_model() {
  SkeletonSource s;
  s.uid = "skl_a1b2c3d4e5f6";
  s.fps = 60;
  s.import = {"img/", 4096, 0, 2, TextureFilter::Nearest, true, "-normal"};
  s.clips = "clips/";
  s.images = {{"a", "src.psd:A", CanvasRect{-3, 4, 50, 0}}, {"b", ""}};
  s.bones = {
      {.name = "root", .color = {1, 2, 3, 4}},
      {"spine", 0, 1.25f, -2, 33.3f, 0.9f, 1.1f, 3, -4, 12, Inherit::NoScaleOrReflection, {9, 8, 7, 6}, true},
      {.name = "neck", .parent = 1, .rotation = -0.001f, .length = 7},
      {.name = "head", .parent = 2, .x = 1e-6f, .y = 123456.78f},
  };
  s.slots = {
      {"s0", 1, "box", {10, 20, 30, 40}, Rgba8{50, 60, 70, 255}, BlendMode::Screen},
      {"s1", 3, "", Rgba8::white(), std::nullopt, BlendMode::Normal},
  };
  s.ik = {{"ik", std::nullopt, true, {1, 2}, 0, 0.3f, 4, -1, true, false, true}};  // after the others
  TransformConstraint tc{"tc", 0, false, {3}, 1};
  tc.mix_rotate = 0, tc.mix_x = 0.1f, tc.mix_y = 0.2f, tc.mix_scale_x = 0.3f, tc.mix_scale_y = 0.4f, tc.mix_shear_y = 0.5f;
  tc.offset_rotation = 1, tc.offset_x = 2, tc.offset_y = 3, tc.offset_scale_x = 4, tc.offset_scale_y = 5;
  tc.offset_shear_y = 6, tc.local = true, tc.relative = true;
  s.transform = {tc};
  s.path = {{"pc", 1, true, {2, 3}, 1, PositionMode::Fixed, SpacingMode::Percent, RotateMode::Chain, 5, 6, 7, 0.1f,
             0.2f, 0.3f}};
  s.physics = {{"ph", 2, false, 3, 1, 2, 3, 4, 5, 100, 120, 0.1f, 50, 0.5f, 3, -1, 10, 0.25f}};
  s.events = {{"e", 7, -1.5f, "str", "a.ogg", 0.5f, 1}, {"f", 0, 0, "", "", 1, 0}};

  Skin skin = skin_named("main");
  skin.bones = {1};
  skin.constraints = {{ConstraintKind::Ik, 0}, {ConstraintKind::Path, 0}};
  skin.attachments.push_back({0, "r", RegionAttachment{"img", 1, 2, 3, 4, 5, 6, 7, {1, 1, 1, 1}, Sequence{5, 3, 4, 2}}});
  MeshAttachment mesh;
  mesh.image = "m";
  mesh.color = {2, 3, 4, 5};
  mesh.uvs = {0, 0, 1, 0, 1, 1, 0, 1};
  mesh.triangles = {0, 1, 2, 2, 3, 0};
  mesh.hull = 4;
  mesh.edges = {0, 2};
  mesh.vertices.weights = {{{3, 1, 0, 0}}, {{1, 0.5f, 1, 2}, {3, 0.5f, 3, 4}}, {{0, 1, 5, 6}}, {{2, 0.2f, 7, 8}, {0, 0.8f, 9, 10}}};
  mesh.width = 32;
  mesh.height = 16;
  mesh.sequence = Sequence{};
  skin.attachments.push_back({1, "mesh", mesh});
  skin.attachments.push_back({1, "linked", LinkedMeshAttachment{"mesh", "main", "other", {5, 5, 5, 5}, false, Sequence{2, 0, 1, 1}}});
  skin.attachments.push_back({0, "box", BoundingBoxAttachment{{{0, 0, 1, 0, 1, 1}, {}}, {1, 2, 3, 255}}});
  skin.attachments.push_back({1, "clip", ClippingAttachment{{{}, {{{0, 1, 1, 1}}, {{1, 1, 2, 2}}, {{2, 1, 3, 3}}}}, 0, {0, 0, 0, 0}}});
  skin.attachments.push_back({1, "point", PointAttachment{1, 2, 3, {4, 5, 6, 7}}});
  PathAttachment path;
  path.vertices.positions = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8};
  path.closed = false;
  path.constant_speed = false;
  path.lengths = {3, 3};
  path.color = {9, 9, 9, 9};
  skin.attachments.push_back({0, "path", path});
  s.skins = {skin, skin_named("second")};
  return s;
}

TEST(SkeletonFormat, ModelWriteReadGivesEqualData) {
  const SkeletonSource model = make_model();
  const std::string text = write_skeleton(model);
  const SkeletonSource back = read_ok(text);
  EXPECT_EQ(back, model);
  EXPECT_EQ(write_skeleton(back), text);
}

TEST(SkeletonFormat, RichFixtureModelWriteReadGivesEqualData) {
  SkeletonSource s = read_ok(load("rich.mskel"));
  // Edit the model as a tool would, then round-trip it.
  s.bones[2].rotation = 91.5f;
  s.slots[5].attachment = "muzzle";
  s.skins[2].attachments.push_back({5, "muzzle", PointAttachment{}});
  EXPECT_EQ(read_ok(write_skeleton(s)), s);
}

TEST(SkeletonFormat, DefaultValuesAreLeftOut) {
  SkeletonSource s;
  s.uid = "skl_00000000000f";
  s.bones = {{.name = "root"}, {.name = "child", .parent = 0}};
  s.slots = {slot_on("slot", 0)};
  s.ik = {{.name = "ik", .order = 0, .bones = {1}, .target = 0}};
  s.transform = {{.name = "tc", .order = 1, .bones = {1}, .target = 0}};
  s.path = {{.name = "pc", .order = 2, .bones = {0}, .target = 0}};
  s.physics = {{.name = "ph", .order = 3, .bone = 0}};
  s.events = {event_named("ev")};
  Skin skin = skin_named("skin");
  skin.attachments.push_back({0, "region", RegionAttachment{}});
  skin.attachments.push_back({0, "linked", linked_to("mesh")});
  skin.attachments.push_back({0, "point", PointAttachment{}});
  MeshAttachment mesh;
  mesh.uvs = {0, 0, 1, 0, 0, 1};
  mesh.triangles = {0, 1, 2};
  mesh.hull = 3;
  mesh.vertices.positions = {0, 0, 1, 0, 0, 1};
  skin.attachments.push_back({0, "mesh", mesh});
  skin.attachments.push_back({0, "box", BoundingBoxAttachment{{{0, 0, 1, 0, 0, 1}, {}}}});
  skin.attachments.push_back({0, "clip", ClippingAttachment{{{0, 0, 1, 0, 0, 1}, {}}}});
  PathAttachment path;
  path.vertices.positions = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
  path.lengths = {1};
  skin.attachments.push_back({0, "path", path});
  s.skins = {skin};

  const std::string expected = R"({
  "format": 1,
  "uid": "skl_00000000000f",
  "type": "Skeleton",
  "fps": 30,
  "import": { "images": "images/", "pageSize": 2048, "padding": 2, "scale": 1, "filter": "Linear", "mipmaps": false, "normalSuffix": "_n" },
  "bones": [
    { "name": "root" },
    { "name": "child", "parent": "root" }
  ],
  "slots": [
    { "name": "slot", "bone": "root" }
  ],
  "ik": [
    { "name": "ik", "bones": ["child"], "target": "root" }
  ],
  "transform": [
    { "name": "tc", "bones": ["child"], "target": "root" }
  ],
  "path": [
    { "name": "pc", "bones": ["root"], "target": "slot" }
  ],
  "physics": [
    { "name": "ph", "bone": "root" }
  ],
  "events": [
    { "name": "ev" }
  ],
  "skins": [
    {
      "name": "skin",
      "attachments": [
        { "slot": "slot", "name": "region", "type": "Region" },
        { "slot": "slot", "name": "linked", "type": "LinkedMesh", "parent": "mesh" },
        { "slot": "slot", "name": "point", "type": "Point" },
        {
          "slot": "slot",
          "name": "mesh",
          "type": "Mesh",
          "hull": 3,
          "uvs": [0, 0, 1, 0, 0, 1],
          "triangles": [0, 1, 2],
          "vertices": [0, 0, 1, 0, 0, 1]
        },
        {
          "slot": "slot",
          "name": "box",
          "type": "BoundingBox",
          "vertices": [0, 0, 1, 0, 0, 1]
        },
        {
          "slot": "slot",
          "name": "clip",
          "type": "Clipping",
          "vertices": [0, 0, 1, 0, 0, 1]
        },
        {
          "slot": "slot",
          "name": "path",
          "type": "Path",
          "lengths": [1],
          "vertices": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
        }
      ]
    }
  ]
}
)";
  EXPECT_EQ(write_skeleton(s), expected);
  s.canonicalize_orders();  // 0, 1, 2, 3 is the default order: no constraint needs one
  EXPECT_EQ(s.ik[0].order, std::nullopt);
  EXPECT_EQ(read_ok(expected), s);
}

TEST(SkeletonFormat, WeightsBoneListIsWrittenInFirstUseOrder) {
  SkeletonSource s;
  s.uid = "skl_000000000001";
  for (const char* name : {"a", "b", "c", "d", "e", "f"}) s.bones.push_back({.name = name});
  s.slots = {slot_on("slot", 0)};
  BoundingBoxAttachment box;
  // Bones by skeleton index: 5 (f) first, then 2 (c), then 0 (a); 1, 3 and 4 are unused.
  box.vertices.weights = {{{5, 1, 1, 2}}, {{2, 0.25f, 3, 4}, {5, 0.75f, 5, 6}}, {{0, 0.5f, 7, 8}, {2, 0.5f, 9, 10}}};
  s.skins = {skin_named("skin")};
  s.skins[0].attachments = {{0, "box", box}};

  const std::string text = write_skeleton(s);
  const std::string expected_weights = R"(          "weights": {
            "bones": ["f", "c", "a"],
            "v": [
              [0, 1, 1, 2],
              [1, 0.25, 3, 4, 0, 0.75, 5, 6],
              [2, 0.5, 7, 8, 1, 0.5, 9, 10]
            ]
          }
)";
  EXPECT_NE(text.find(expected_weights), std::string::npos) << text;
  EXPECT_EQ(read_ok(text), s);
}

TEST(SkeletonFormat, NumbersUseTheShortestTextThatReadsBack) {
  SkeletonSource s;
  s.uid = "skl_000000000002";
  s.bones = {{.name = "b", .x = 0.1f, .y = 1e-7f, .rotation = -2.5f, .scale_x = 1.0f / 3.0f, .shear_x = 16777216.0f}};
  const std::string text = write_skeleton(s);
  EXPECT_NE(text.find(R"({ "name": "b", "x": 0.1, "y": 1e-07, "rot": -2.5, "sx": 0.33333334, "shx": 16777216 })"),
            std::string::npos)
      << text;
  const SkeletonSource back = read_ok(text);
  ASSERT_EQ(back.bones.size(), 1u);
  // Exact: the shortest text still names the same float.
  EXPECT_EQ(back.bones[0].x, 0.1f);
  EXPECT_EQ(back.bones[0].y, 1e-7f);
  EXPECT_EQ(back.bones[0].scale_x, 1.0f / 3.0f);
}

// "-0" would read back as the integer 0, so the writer writes negative zero as 0 and stays a fixed point.
TEST(SkeletonFormat, NegativeZeroIsWrittenAsZero) {
  SkeletonSource s = skeleton_with_uid("skl_000000000005");
  s.bones = {{.name = "b", .x = -0.0f, .scale_x = -0.0f}};
  s.slots = {slot_on("slot", 0)};
  BoundingBoxAttachment box;
  box.vertices.positions = {-0.0f, 1, 2, -0.0f, 3, 3};
  s.skins = {skin_named("skin")};
  s.skins[0].attachments = {{0, "box", box}};
  const std::string text = write_skeleton(s);
  EXPECT_NE(text.find(R"({ "name": "b", "sx": 0 })"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("vertices": [0, 1, 2, 0, 3, 3])"), std::string::npos) << text;
  EXPECT_EQ(text.find("-0"), std::string::npos) << text;
  EXPECT_EQ(write_skeleton(read_ok(text)), text);
}

TEST(SkeletonFormat, StringsWithQuotesAndControlCharactersRoundTrip) {
  SkeletonSource s;
  s.uid = "skl_000000000003";
  s.bones = {{.name = "tab\there \"quoted\" back\\slash \xc3\xa9"}};
  s.events = {event_named("line\nbreak")};
  s.events[0].string_value = "\x01";
  const std::string text = write_skeleton(s);
  EXPECT_EQ(read_ok(text), s);
  EXPECT_NE(text.find(R"("tab\there \"quoted\" back\\slash )"), std::string::npos) << text;
}

TEST(SkeletonFormat, SaveAndReadFile) {
  TempDir dir;
  const SkeletonSource model = make_model();
  const std::string path = dir.file("rig.mskel");
  const Status saved = save_skeleton(model, path);
  ASSERT_TRUE(saved.ok()) << saved.error().to_string();
  auto bytes = read_file(path);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, write_skeleton(model));
  auto back = read_skeleton_file(path);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(*back, model);
  // Saving again replaces the file in place and leaves no temporary files beside it.
  ASSERT_TRUE(save_skeleton(skeleton_with_uid("skl_000000000004"), path).ok());
  EXPECT_EQ(read_skeleton_file(path)->uid, "skl_000000000004");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.file("")), std::filesystem::directory_iterator{}), 1);
}

TEST(SkeletonFormat, SaveIntoMissingFolderFailsNamingThePath) {
  TempDir dir;
  const std::string path = dir.file("missing/rig.mskel");
  const Status saved = save_skeleton(make_model(), path);
  ASSERT_FALSE(saved.ok());
  EXPECT_EQ(saved.error().file, path);
}

TEST(SkeletonFormat, ReadingAMissingFileNamesThePath) {
  const std::string path = data_path("does-not-exist.mskel");
  auto s = read_skeleton_file(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().file, path);
  EXPECT_NE(s.error().to_string().find(path), std::string::npos);
}

// ---- constraint names per kind, skins' per-kind lists, optional orders ---------------------------

// Three bones, a transform and a physics constraint both called "face", and a skin activating both.
SkeletonSource shared_name_model() {
  SkeletonSource s;
  s.uid = "skl_00000000abcd";
  s.bones = {{.name = "root"}, {.name = "head", .parent = 0}, {.name = "face", .parent = 1}};
  s.transform = {{.name = "face", .skin_required = true, .bones = {2}, .target = 0}};
  s.physics = {{.name = "face", .skin_required = true, .bone = 2}};
  s.ik = {{.name = "aim", .bones = {1}, .target = 0}};
  Skin skin = skin_named("girl");
  skin.constraints = {{ConstraintKind::Transform, 0}, {ConstraintKind::Physics, 0}};
  s.skins = {skin};
  return s;
}

TEST(SkeletonFormat, SameConstraintNameInTwoKindsIsAccepted) {
  const SkeletonSource model = shared_name_model();
  const std::string text = write_skeleton(model);
  const SkeletonSource back = read_ok(text);
  EXPECT_EQ(back, model);
  EXPECT_EQ(back.find_constraint(ConstraintKind::Transform, "face"), 0);
  EXPECT_EQ(back.find_constraint(ConstraintKind::Physics, "face"), 0);
  EXPECT_EQ(back.find_constraint(ConstraintKind::Ik, "face"), -1);
  EXPECT_EQ(back.find_constraint(ConstraintKind::Path, "face"), -1);
}

TEST(SkeletonFormat, SkinListsConstraintsPerKindAndRoundTrips) {
  SkeletonSource model = shared_name_model();
  model.skins[0].constraints = {{ConstraintKind::Physics, 0}, {ConstraintKind::Ik, 0}, {ConstraintKind::Transform, 0}};
  model.ik[0].skin_required = true;
  const std::string text = write_skeleton(model);
  // One array per kind, in kind order, each left out when empty.
  EXPECT_NE(text.find("      \"ik\": [\"aim\"],\n      \"transform\": [\"face\"],\n      \"physics\": [\"face\"],\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("\"path\": [\""), std::string::npos) << text;
  const SkeletonSource back = read_ok(text);
  EXPECT_EQ(back.skins[0].constraints,
            (std::vector<ConstraintRef>{{ConstraintKind::Ik, 0}, {ConstraintKind::Transform, 0}, {ConstraintKind::Physics, 0}}));
  EXPECT_EQ(write_skeleton(back), text);
}

TEST(SkeletonFormat, WithoutOrdersConstraintsRunInTheDefaultOrder) {
  // Explicit orders first (sorted), then the rest: ik, transform, path, physics, each in file order.
  const SkeletonSource s = read_ok(R"({"format": 1, "uid": "skl_00000000abcd", "type": "Skeleton",
    "bones": [{"name": "root"}, {"name": "a", "parent": "root"}, {"name": "b", "parent": "a"}],
    "slots": [{"name": "s", "bone": "root"}],
    "ik": [{"name": "i0", "bones": ["b"], "target": "root"}, {"name": "i1", "order": 7, "bones": ["a"], "target": "root"}],
    "transform": [{"name": "t0", "bones": ["a"], "target": "root"}],
    "path": [{"name": "p0", "bones": ["a"], "target": "s"}],
    "physics": [{"name": "t0", "order": 2, "bone": "b"}, {"name": "f1", "bone": "a"}]})");
  using K = ConstraintKind;
  EXPECT_EQ(s.ik[0].order, std::nullopt);
  EXPECT_EQ(s.update_order(), (std::vector<ConstraintRef>{{K::Physics, 0}, {K::Ik, 1}, {K::Ik, 0}, {K::Transform, 0},
                                                          {K::Path, 0}, {K::Physics, 1}}));
}

TEST(SkeletonFormat, WriterLeavesOutDefaultOrdersAndRoundTrips) {
  SkeletonSource s = shared_name_model();
  s.path = {{.name = "rail", .bones = {1}, .target = 0}};
  s.slots = {slot_on("s", 0)};
  // All explicit and already the default order (ik, transform, path, physics): no order is written.
  s.ik[0].order = 10, s.transform[0].order = 11, s.path[0].order = 12, s.physics[0].order = 13;
  std::string text = write_skeleton(s);
  EXPECT_EQ(text.find("\"order\""), std::string::npos) << text;
  SkeletonSource back = read_ok(text);
  EXPECT_EQ(back.update_order(), s.update_order());
  EXPECT_EQ(write_skeleton(back), text);

  // Physics first, then path, then the others in the default order: only the two that move keep an
  // order, renumbered 0 and 1 (their place in the update order).
  s.ik[0].order = 5, s.transform[0].order = 6, s.path[0].order = 1, s.physics[0].order = 0;
  text = write_skeleton(s);
  back = read_ok(text);
  EXPECT_EQ(back.update_order(), s.update_order());
  EXPECT_EQ(back.physics[0].order, 0);
  EXPECT_EQ(back.path[0].order, 1);
  EXPECT_EQ(back.ik[0].order, std::nullopt);
  EXPECT_EQ(back.transform[0].order, std::nullopt);
  EXPECT_EQ(write_skeleton(back), text);  // a second write gives the same bytes

  // The last constraint of the default order moved first: it alone has an order.
  s.ik[0].order = std::nullopt, s.transform[0].order = std::nullopt, s.path[0].order = std::nullopt;
  s.physics[0].order = 3;
  text = write_skeleton(s);
  back = read_ok(text);
  EXPECT_EQ(back.update_order(), (std::vector<ConstraintRef>{{ConstraintKind::Physics, 0}, {ConstraintKind::Ik, 0},
                                                             {ConstraintKind::Transform, 0}, {ConstraintKind::Path, 0}}));
  EXPECT_EQ(back.physics[0].order, 0);
  EXPECT_EQ(write_skeleton(back), text);
  SkeletonSource canonical = s;
  canonical.canonicalize_orders();
  EXPECT_EQ(canonical, back);
}

}  // namespace
}  // namespace mf::offline
