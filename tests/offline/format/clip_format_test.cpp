// `.manim` reader and canonical writer: round trips, canonical rewriting, model fidelity and the
// checks against a skeleton that succeed.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "support/model_builders.hpp"

namespace mf::offline {
namespace {

constexpr float kColorTolerance = 1e-6f;  // byte / 255 stored as float

std::string fixture(const std::string& name) {
  Expected<std::string> text = read_file(std::string(MF_TEST_DATA_DIR) + "/manim/" + name);
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().to_string());
  return text.ok() ? *text : std::string();
}

ClipSource read_ok(const std::string& text, const SkeletonSource* skeleton = nullptr) {
  Expected<ClipSource> clip = read_clip(text, "test.manim", skeleton);
  EXPECT_TRUE(clip.ok()) << (clip.ok() ? "" : clip.error().to_string());
  return clip.ok() ? *clip : ClipSource{};
}

MeshAttachment square_mesh() {
  MeshAttachment mesh;
  mesh.uvs = {0, 0, 1, 0, 1, 1, 0, 1};
  mesh.triangles = {0, 1, 2, 0, 2, 3};
  mesh.hull = 4;
  mesh.vertices.positions = {0, 0, 10, 0, 10, 10, 0, 10};  // 8 deformable floats
  return mesh;
}

using testing::attachment;
using testing::named;
using testing::slot;

Bone bone(const std::string& name, int parent) {
  Bone b = named<Bone>(name);
  b.parent = parent;
  return b;
}

EventKeySource event_key(const std::string& name) { return named<EventKeySource>(name); }

// The rig the rich fixture animates: every name it uses exists with the right kind.
SkeletonSource test_skeleton() {
  SkeletonSource s;
  s.uid = "skl_00aa11bb22cc";
  s.bones = {bone("root", -1), bone("hip", 0), bone("arm", 1)};
  s.slots = {slot("body", 1, "body"), slot("glow", 2), slot("back", 0)};
  s.ik = {named<IkConstraint>("aim"), named<IkConstraint>("legs")};
  s.transform = {named<TransformConstraint>("follow")};
  s.path = {named<PathConstraint>("rail")};
  s.physics = {named<PhysicsConstraint>("hair")};
  s.events = {named<EventDef>("step"), named<EventDef>("shout")};

  MeshAttachment weighted;
  weighted.uvs = {0, 0, 1, 0, 1, 1};
  weighted.triangles = {0, 1, 2};
  weighted.hull = 3;
  // 2 + 1 + 1 influences: 8 deformable floats.
  weighted.vertices.weights = {{InfluenceSource{1, 0.5f, 0, 0}, InfluenceSource{2, 0.5f, 1, 1}},
                               {InfluenceSource{1, 1, 5, 0}},
                               {InfluenceSource{2, 1, 0, 5}}};
  LinkedMeshAttachment linked;
  linked.parent = "body";
  Skin skin = named<Skin>("default");
  skin.attachments = {
      attachment(0, "body", square_mesh()),
      attachment(0, "body-alt", RegionAttachment{}),
      attachment(0, "linked", linked),
      attachment(1, "weighted", weighted),
  };
  s.skins = {skin};
  return s;
}

TEST(ClipFormat, RichFixtureRoundTripsByteForByte) {
  const std::string text = fixture("rich.manim");
  const ClipSource clip = read_ok(text);
  EXPECT_EQ(write_clip(clip), text);
}

TEST(ClipFormat, RichFixtureReadsAgainstItsSkeleton) {
  const std::string text = fixture("rich.manim");
  const SkeletonSource skeleton = test_skeleton();
  const ClipSource with = read_ok(text, &skeleton);
  const ClipSource without = read_ok(text);
  EXPECT_EQ(with, without);
  EXPECT_EQ(write_clip(with), text);
}

TEST(ClipFormat, RichFixtureValues) {
  const ClipSource clip = read_ok(fixture("rich.manim"));
  EXPECT_EQ(clip.uid, "anm_0123456789ab");
  EXPECT_EQ(clip.skeleton_uid, "skl_00aa11bb22cc");
  EXPECT_EQ(clip.skeleton_path, "rigs/hero.mskel");
  EXPECT_EQ(clip.length, 2.0f);
  EXPECT_EQ(clip.fps, 24);
  EXPECT_EQ(clip.loop, LoopMode::PingPong);

  // 6 arm + 4 hip + 5 slot colour + 2 ik + transform + path + 7 physics.
  ASSERT_EQ(clip.curves.size(), 26u);
  // Sorted: bones (arm before hip, kinds in CurveKind order), slots, ik, transform, path, physics.
  EXPECT_EQ(clip.curves[0].target, "arm");
  EXPECT_EQ(clip.curves[0].kind, CurveKind::TranslateX);
  EXPECT_EQ(clip.curves[5].kind, CurveKind::ShearY);
  const CurveTimeline& rotate = clip.curves[6];
  EXPECT_EQ(rotate.target, "hip");
  EXPECT_EQ(rotate.kind, CurveKind::Rotate);
  EXPECT_EQ(rotate.times, (std::vector<float>{0, 0.4f, 1}));
  EXPECT_EQ(rotate.values, (std::vector<float>{0, 35, -20.5f}));
  EXPECT_EQ(rotate.curves, (std::vector<Curve>{Curve::bezier(0.25f, 0, 0.75f, 1), Curve::linear()}));

  // Per-component then shared curve on a two-component value: segment-major, stride 2.
  const CurveTimeline& translate = clip.curves[7];
  EXPECT_EQ(translate.kind, CurveKind::Translate);
  EXPECT_EQ(translate.values, (std::vector<float>{0, 0, 10, -4, 0, 0}));
  EXPECT_EQ(translate.curves, (std::vector<Curve>{Curve::bezier(0.25f, 0, 0.75f, 1), Curve::linear(),
                                                  Curve::stepped(), Curve::stepped()}));

  const CurveTimeline& rgba = clip.curves[10];
  EXPECT_EQ(rgba.target, "body");
  EXPECT_EQ(rgba.kind, CurveKind::Rgba);
  ASSERT_EQ(rgba.values.size(), 8u);
  EXPECT_NEAR(rgba.values[4], 1.0f, kColorTolerance);
  EXPECT_NEAR(rgba.values[5], 0.0f, kColorTolerance);
  EXPECT_NEAR(rgba.values[7], 128.0f / 255.0f, kColorTolerance);
  ASSERT_EQ(rgba.curves.size(), 4u);
  EXPECT_EQ(rgba.curves[0], Curve::stepped());
  EXPECT_EQ(rgba.curves[3], Curve::bezier(0.3f, 0, 0.6f, 1));

  const CurveTimeline& rgba2 = clip.curves[13];
  EXPECT_EQ(rgba2.kind, CurveKind::Rgba2);
  ASSERT_EQ(rgba2.values.size(), 14u);
  EXPECT_NEAR(rgba2.values[7 + 1], 128.0f / 255.0f, kColorTolerance);  // light green of key 1
  EXPECT_NEAR(rgba2.values[7 + 3], 204.0f / 255.0f, kColorTolerance);  // light alpha
  EXPECT_NEAR(rgba2.values[7 + 4], 32.0f / 255.0f, kColorTolerance);   // dark red
  EXPECT_EQ(rgba2.curves.size(), 7u);  // the shared curve repeated per component

  // ik "aim": mix, bend and stretch keyed; softness and compress are not.
  const CurveTimeline& aim = clip.curves[15];
  EXPECT_EQ(aim.kind, CurveKind::Ik);
  EXPECT_EQ(aim.target, "aim");
  EXPECT_EQ(aim.channels, 0b10101u);
  EXPECT_TRUE(aim.keyed(0));
  EXPECT_FALSE(aim.keyed(1));
  EXPECT_EQ(aim.values, (std::vector<float>{1, 0, 1, 0, 0, 0.5f, 0, -1, 0, 1}));
  EXPECT_EQ(aim.curves, (std::vector<Curve>{Curve::bezier(0.25f, 0, 0.75f, 1), Curve::linear()}));
  const CurveTimeline& legs = clip.curves[16];
  EXPECT_EQ(legs.channels, ~0u);
  EXPECT_EQ(legs.values, (std::vector<float>{0, 0, 1, 0, 1, 1, 8, 1, 1, 0}));
  EXPECT_EQ(legs.curves, (std::vector<Curve>{Curve::linear(), Curve::stepped()}));

  const CurveTimeline& rail = clip.curves[18];
  EXPECT_EQ(rail.kind, CurveKind::Path);
  EXPECT_EQ(rail.channels, 0b00011u);
  EXPECT_EQ(clip.curves[19].kind, CurveKind::PhysicsInertia);
  EXPECT_EQ(clip.curves[25].kind, CurveKind::PhysicsMix);

  ASSERT_EQ(clip.inherits.size(), 1u);
  EXPECT_EQ(clip.inherits[0].values, (std::vector<Inherit>{Inherit::Normal, Inherit::NoScale}));
  ASSERT_EQ(clip.attachments.size(), 1u);
  EXPECT_EQ(clip.attachments[0].names,
            (std::vector<std::optional<std::string>>{"body", std::nullopt, "body-alt"}));
  ASSERT_EQ(clip.sequences.size(), 1u);
  EXPECT_EQ(clip.sequences[0].keys, (std::vector<SequenceKey>{{}, {SequenceMode::Loop, 2, 0.1f},
                                                               {SequenceMode::PingPongReverse, 0, 0}}));
  ASSERT_EQ(clip.physics_resets.size(), 1u);
  EXPECT_EQ(clip.physics_resets[0].times, (std::vector<float>{0.5f, 1.5f}));

  ASSERT_EQ(clip.deforms.size(), 3u);
  EXPECT_EQ(clip.deforms[0].attachment, "body");
  EXPECT_EQ(clip.deforms[1].attachment, "linked");
  EXPECT_EQ(clip.deforms[2].slot, "glow");
  EXPECT_EQ(clip.deforms[0].keys[1], (DeformKeySource{2, {1.5f, -2, 0.25f, 4}}));
  EXPECT_TRUE(clip.deforms[0].keys[0].values.empty());

  EXPECT_EQ(clip.draw_order.keys,
            (std::vector<std::vector<DrawOrderMove>>{{{"glow", -1}, {"body", 1}}, {}}));
  ASSERT_EQ(clip.events.keys.size(), 3u);
  EXPECT_EQ(clip.events.times, (std::vector<float>{0.25f, 0.25f, 1}));
  EXPECT_EQ(clip.events.keys[0], event_key("step"));
  EXPECT_EQ(clip.events.keys[1], (EventKeySource{"shout", 3, 0.5f, "hey", 0.8f, -0.5f}));
  EventKeySource step = event_key("step");
  step.float_value = 1.5f;
  EXPECT_EQ(clip.events.keys[2], step);
}

// Valid input in another key order, with defaults spelt out, equal curves per component, colours in
// capitals and whitespace of its own: rewritten canonically, and the canonical text reads back equal.
TEST(ClipFormat, NonCanonicalInputRewritesCanonically) {
  const std::string messy = R"({"type":"SkeletonClip","length":1.0,"format":1,"uid":"anm_aaaaaaaaaaaa",
    "skeleton":{"path":"x.mskel","uid":"skl_bbbbbbbbbbbb"},
    "events": {"v": [{"string": "s", "name": "e"}], "t": [0.5]},
    "slots": {"s": {"sequence": {"v": [{"mode": "hold", "index": 0, "delay": 0}], "t": [0]},
                    "rgba": {"curve": ["linear"], "v": ["#FF0000", "#00ff00ff"], "t": [0, 1]}},
              "empty": {}},
    "bones": {"b": {"translate": {"curve": [["stepped", "stepped"]], "v": [[1.50, 2], [3, 4e0]], "t": [0, 1]},
                    "rotate": {"v": [1], "t": [0]},
                    "shearX": {"t": [0, 1], "v": [0, 1], "curve": [["linear"]]}},
              "a": {"scaleY": {"t": [0, 1], "v": [1, 2], "curve": [[0.25, 0, 0.75, 1]]}}},
    "ik": {"k": {"t": [0, 1], "compress": [true, false]}},
    "fps": 30, "loop": "Linear"
  })";
  const std::string canonical = R"({
  "format": 1,
  "uid": "anm_aaaaaaaaaaaa",
  "type": "SkeletonClip",
  "skeleton": { "uid": "skl_bbbbbbbbbbbb", "path": "x.mskel" },
  "length": 1,
  "fps": 30,
  "loop": "Linear",
  "bones": {
    "a": {
      "scaleY": { "t": [0, 1], "v": [1, 2], "curve": [[0.25, 0, 0.75, 1]] }
    },
    "b": {
      "rotate": { "t": [0], "v": [1] },
      "translate": { "t": [0, 1], "v": [[1.5, 2], [3, 4]], "curve": ["stepped"] },
      "shearX": { "t": [0, 1], "v": [0, 1] }
    }
  },
  "slots": {
    "s": {
      "rgba": { "t": [0, 1], "v": ["#ff0000ff", "#00ff00ff"] },
      "sequence": { "t": [0], "v": [{}] }
    }
  },
  "ik": {
    "k": { "t": [0, 1], "compress": [true, false] }
  },
  "events": {
    "t": [0.5],
    "v": [
      { "name": "e", "string": "s" }
    ]
  }
}
)";
  const ClipSource clip = read_ok(messy);
  EXPECT_EQ(write_clip(clip), canonical);
  EXPECT_EQ(read_ok(canonical), clip);
}

// A model built in code, with timelines out of canonical order, survives write then read.
TEST(ClipFormat, ModelWriteReadIsEqual) {
  ClipSource clip;
  clip.uid = "anm_0000000000ff";
  clip.skeleton_uid = "skl_0000000000ee";
  clip.skeleton_path = "dir with space/rig.mskel";
  clip.length = 3.25f;
  clip.fps = 60;
  clip.loop = LoopMode::None;

  const Curve bez = Curve::bezier(0.1f, -0.5f, 0.9f, 1.75f);
  clip.curves.push_back({CurveKind::PhysicsGravity, "phys", ~0u, {0, 1}, {-1, 1}, {bez}});
  clip.curves.push_back({CurveKind::Scale, "zeta", ~0u, {0, 1, 2}, {1, 1, 2, 0.5f, 1, 1},
                         {Curve::stepped(), bez, Curve::linear(), Curve::linear()}});
  clip.curves.push_back({CurveKind::Rotate, "zeta", ~0u, {0.1f}, {-90}, {}});
  clip.curves.push_back({CurveKind::Rotate, "alpha bone", ~0u, {0, 0.5f}, {0, 360}, {Curve::stepped()}});
  // Colours as the model stores them: bytes / 255.
  auto c = [](int byte) { return static_cast<float>(byte) / 255.0f; };
  clip.curves.push_back({CurveKind::Rgb2, "slot", ~0u, {0, 1},
                         {c(1), c(2), c(3), c(4), c(5), c(6), c(250), c(251), c(252), c(253), c(254), c(255)},
                         {bez, bez, bez, Curve::linear(), bez, bez}});
  clip.curves.push_back({CurveKind::Alpha, "slot", ~0u, {0, 1}, {0, 1}, {Curve::linear()}});
  // Transform with mixX and mixShearY keyed; unkeyed channels hold 0 and Linear curves.
  clip.curves.push_back({CurveKind::Transform, "tc", 0b100010u, {0, 1}, {0, 0.25f, 0, 0, 0, 1, 0, 0.75f, 0, 0, 0, 0},
                         {Curve::linear(), Curve::stepped(), Curve::linear(), Curve::linear(), Curve::linear(), bez}});
  // Ik keying only bend (no interpolated channel): curves stay Linear.
  clip.curves.push_back({CurveKind::Ik, "ik1", 0b00100u, {0, 1}, {0, 0, -1, 0, 0, 0, 0, 1, 0, 0},
                         {Curve::linear(), Curve::linear()}});
  clip.inherits.push_back({"zeta", {0}, {Inherit::NoScaleOrReflection}});
  clip.attachments.push_back({"slot", {0, 1}, {std::nullopt, "a \"quoted\" name"}});
  clip.sequences.push_back({"slot", {0}, {{SequenceMode::OnceReverse, 7, 0.04f}}});
  clip.deforms.push_back({"skin2", "slot", "mesh", {0}, {{3, {0.5f}}}, {}});
  clip.deforms.push_back({"skin1", "slot", "z", {0, 1}, {{0, {1, 2}}, {1, {}}}, {Curve::stepped()}});
  clip.deforms.push_back({"skin1", "slot", "a", {0}, {{0, {}}}, {}});
  clip.deforms.push_back({"skin1", "other", "m", {2}, {{0, {1e-7f}}}, {}});
  clip.physics_resets.push_back({"phys", {0, 0.5f}});
  clip.draw_order = {{0, 0.5f, 1}, {{{"slot", 2}}, {}, {{"b", -1}, {"a", 1}}}};
  EventKeySource x = event_key("x");
  x.int_value = -4;
  EventKeySource y = event_key("y");
  y.volume = 0.25f;
  clip.events = {{0, 0, 2}, {x, y, event_key("x")}};

  const std::string text = write_clip(clip);
  ClipSource expected = clip;
  sort_timelines(expected);
  const ClipSource back = read_ok(text);
  EXPECT_EQ(back, expected) << text;
  EXPECT_EQ(write_clip(back), text);
}

TEST(ClipFormat, EmptyClipWritesOnlyTheHeader) {
  ClipSource clip;
  clip.uid = "anm_123456789abc";
  clip.skeleton_uid = "skl_123456789abc";
  const std::string text = write_clip(clip);
  EXPECT_EQ(text, R"({
  "format": 1,
  "uid": "anm_123456789abc",
  "type": "SkeletonClip",
  "skeleton": { "uid": "skl_123456789abc", "path": "" },
  "length": 0,
  "fps": 30,
  "loop": "Linear"
}
)");
  EXPECT_EQ(read_ok(text), clip);
}

TEST(ClipFormat, SkeletonPathDefaultsToEmpty) {
  const ClipSource clip = read_ok(R"({ "format": 1, "uid": "anm_123456789abc", "type": "SkeletonClip",
    "skeleton": { "uid": "skl_123456789abc" }, "length": 0.5 })");
  EXPECT_EQ(clip.skeleton_path, "");
  EXPECT_EQ(clip.fps, 30);
  EXPECT_EQ(clip.loop, LoopMode::Linear);
}

TEST(ClipFormat, ColoursRoundTripEveryByte) {
  ClipSource clip;
  clip.uid = "anm_123456789abc";
  clip.skeleton_uid = "skl_123456789abc";
  CurveTimeline rgba{CurveKind::Rgba, "s", ~0u, {}, {}, {}};
  for (int b = 0; b < 256; ++b) {
    rgba.times.push_back(static_cast<float>(b));
    for (int k = 0; k < 4; ++k) rgba.values.push_back(static_cast<float>((b + k * 64) % 256) / 255.0f);
  }
  rgba.curves.assign(255 * 4, Curve::linear());
  clip.curves.push_back(rgba);
  const std::string text = write_clip(clip);
  EXPECT_NE(text.find("\"#004080c0\""), std::string::npos);  // key 0
  EXPECT_EQ(read_ok(text), clip);
}

TEST(ClipFormat, ValidEdgeCasesAgainstTheSkeleton) {
  const SkeletonSource skeleton = test_skeleton();
  // Deform up to the last float of an unweighted mesh, of a weighted mesh (2 per influence) and of a
  // linked mesh that shares its parent's deform; a move to each end of the draw order.
  const std::string text = R"({ "format": 1, "uid": "anm_123456789abc", "type": "SkeletonClip",
    "skeleton": { "uid": "skl_00aa11bb22cc", "path": "" }, "length": 1,
    "slots": { "body": { "attachment": { "t": [0], "v": ["linked"] } } },
    "deform": { "default": {
      "body": { "body": { "t": [0], "offset": [0], "v": [[1, 2, 3, 4, 5, 6, 7, 8]] },
                "linked": { "t": [0], "offset": [7], "v": [[1]] } },
      "glow": { "weighted": { "t": [0], "offset": [1], "v": [[1, 2, 3, 4, 5, 6, 7]] } } } },
    "drawOrder": { "t": [0, 1], "v": [[["back", -2], ["body", 2]], [["glow", 1], ["back", -1]]] },
    "events": { "t": [0], "v": [{ "name": "shout" }] } })";
  const ClipSource clip = read_ok(text, &skeleton);
  EXPECT_EQ(clip.deforms.size(), 3u);
  EXPECT_EQ(clip.draw_order.keys.size(), 2u);
}

// Single-byte damage anywhere in a rich file: either a valid clip (then also checked against the
// skeleton) or an error with a position, never a crash.
TEST(ClipFormat, DamagedFixtureNeverCrashes) {
  const std::string text = fixture("rich.manim");
  const SkeletonSource skeleton = test_skeleton();
  std::size_t accepted = 0;
  const char replacements[] = {'1', '"', ']', '-', 'x'};
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string damaged = text;
    damaged[i] = replacements[i % std::size(replacements)];
    Expected<ClipSource> clip = read_clip(damaged, "test.manim");
    if (!clip.ok()) {
      const std::string message = clip.error().to_string();
      ASSERT_EQ(message.rfind("test.manim:", 0), 0u) << message;
      ASSERT_TRUE(clip.error().position.known()) << message;
      continue;
    }
    ++accepted;
    // Whatever was accepted writes canonically and reads back equal, and survives the skeleton checks.
    EXPECT_EQ(read_ok(write_clip(*clip)), *clip);
    Expected<ClipSource> checked = read_clip(damaged, "test.manim", &skeleton);
    if (!checked.ok()) {
      ASSERT_TRUE(checked.error().position.known()) << checked.error().to_string();
    }
  }
  EXPECT_GT(accepted, 0u);  // e.g. a digit changed in a value
}

TEST(ClipFormat, SaveAndReadFile) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mf_clip_format_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "walk.manim").string();
  const std::string text = fixture("rich.manim");
  const ClipSource clip = read_ok(text);
  ASSERT_TRUE(save_clip(clip, path).ok());
  Expected<std::string> saved = read_file(path);
  ASSERT_TRUE(saved.ok());
  EXPECT_EQ(*saved, text);
  const SkeletonSource skeleton = test_skeleton();
  Expected<ClipSource> back = read_clip_file(path, &skeleton);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(*back, clip);

  Expected<ClipSource> missing = read_clip_file((dir / "missing.manim").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().to_string().find("missing.manim"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mf::offline
