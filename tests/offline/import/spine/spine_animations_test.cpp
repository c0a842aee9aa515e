// Spine animations to clips: every timeline kind from small Spine-format fixtures of our own, the
// coordinate flips, version variants, errors with JSON paths and report notes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <string>

#include "../../../../src/offline/import/spine/spine_internal.hpp"
#include "mf/anim/curve.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/json/json.hpp"
#include "mf/offline/json/json_path.hpp"
#include "mf/offline/import/spine/spine_import.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/uid.hpp"
#include "support/model_builders.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline::spine {
namespace {

using ::testing::HasSubstr;
using testing::attachment;
using testing::named;
using testing::slot;

// Values are stored as float; colours as byte / 255.
constexpr float kValueTolerance = 1e-6f;
// Our curve (exact bezier solve) against Spine's at sample times, in value units.
constexpr double kCurveTolerance = 1e-3;

SkeletonSource rig() {
  SkeletonSource s;
  s.uid = "skl_0123456789ab";
  s.bones = {named<Bone>("root"), named<Bone>("arm")};
  s.bones[1].parent = 0;
  s.slots = {slot("body", 0, "body"), slot("glow", 1), slot("front", 1), slot("rail-path", 0)};

  MeshAttachment mesh;
  mesh.vertices.positions = {0, 0, 10, 0, 10, 10, 0, 10};
  RegionAttachment sparkle;
  sparkle.sequence = Sequence{4, 1, 2, 0};
  Skin def = named<Skin>("default");
  def.attachments = {attachment(0, "body", RegionAttachment{}), attachment(0, "body-hurt", RegionAttachment{}),
                     attachment(0, "blob", mesh), attachment(1, "sparkle", sparkle)};
  LinkedMeshAttachment shares;
  shares.parent = "blob";
  shares.skin = "default";
  LinkedMeshAttachment own = shares;
  own.deform = false;
  Skin alt = named<Skin>("alt");
  alt.attachments = {attachment(0, "blob-shares", shares), attachment(0, "blob-own", own)};
  s.skins = {def, alt};

  IkConstraint ik = named<IkConstraint>("aim");
  ik.bones = {1};
  s.ik = {ik};
  TransformConstraint tc = named<TransformConstraint>("follow");
  tc.bones = {1};
  s.transform = {tc};
  PathConstraint pc = named<PathConstraint>("rail");
  pc.bones = {1};
  pc.target = 3;
  pc.position = 5;
  pc.spacing = 2;
  s.path = {pc};
  PhysicsConstraint hair = named<PhysicsConstraint>("hair"), tail = named<PhysicsConstraint>("tail");
  hair.bone = tail.bone = 1;
  s.physics = {hair, tail};
  s.events = {named<EventDef>("step")};
  return s;
}

struct Converted {
  Expected<std::vector<std::pair<std::string, ClipSource>>> clips = std::vector<std::pair<std::string, ClipSource>>{};
  std::vector<ImportNote> notes;
};

// Converts `{ <root_extra> "animations": <animations> }`.
Converted convert(const std::string& animations, Version version = {4, 2}, const std::string& root_extra = "") {
  Converted out;
  auto root = json::parse("{" + root_extra + "\"animations\": " + animations + "}", "anim.json");
  EXPECT_TRUE(root.ok()) << root.error().to_string();
  if (!root.ok()) return out;
  Context context{"anim.json", version, &out.notes};
  const SkeletonSource skeleton = rig();
  out.clips = convert_animations(*root, skeleton, context);
  return out;
}

// The one clip of `{"a": <body>}`, which must convert.
ClipSource clip_of(const std::string& body, std::vector<ImportNote>* notes = nullptr, Version version = {4, 2},
             const std::string& root_extra = "") {
  Converted c = convert("{\"a\": " + body + "}", version, root_extra);
  EXPECT_TRUE(c.clips.ok()) << c.clips.error().to_string();
  if (notes) *notes = c.notes;
  if (!c.clips.ok() || c.clips->size() != 1) return {};
  return c.clips->front().second;
}

// The error of `{"a": <body>}`, which must fail.
Error error_of(const std::string& body, const std::string& root_extra = "") {
  Converted c = convert("{\"a\": " + body + "}", {4, 2}, root_extra);
  EXPECT_FALSE(c.clips.ok());
  return c.clips.ok() ? Error{} : c.clips.error();
}

const CurveTimeline* find(const ClipSource& clip, CurveKind kind, const std::string& target) {
  for (const CurveTimeline& tl : clip.curves)
    if (tl.kind == kind && tl.target == target) return &tl;
  return nullptr;
}

void expect_values(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], kValueTolerance) << "value " << i;
}

void expect_curve(const Curve& actual, const Curve& expected) {
  EXPECT_EQ(actual.type, expected.type);
  EXPECT_NEAR(actual.cx1, expected.cx1, kValueTolerance);
  EXPECT_NEAR(actual.cy1, expected.cy1, kValueTolerance);
  EXPECT_NEAR(actual.cx2, expected.cx2, kValueTolerance);
  EXPECT_NEAR(actual.cy2, expected.cy2, kValueTolerance);
}

bool has_note(const std::vector<ImportNote>& notes, const std::string& where, const std::string& text) {
  for (const ImportNote& n : notes)
    if (n.where == where && n.message.find(text) != std::string::npos) return true;
  return false;
}

// ---- bones ------------------------------------------------------------------------------------

TEST(SpineAnimations, RotateKeysFlipSignAndCurvesNormalise) {
  const ClipSource clip = clip_of(R"({"bones": {"arm": {"rotate": [
      {"value": 30, "curve": [0.1, 30, 0.3, 60]}, {"time": 0.4, "value": 60}]}}})");
  const CurveTimeline* tl = find(clip, CurveKind::Rotate, "arm");
  ASSERT_NE(tl, nullptr);
  expect_values(tl->times, {0, 0.4f});
  expect_values(tl->values, {-30, -60});
  ASSERT_EQ(tl->curves.size(), 1u);
  expect_curve(tl->curves[0], Curve::bezier(0.25f, 0, 0.75f, 1));
  EXPECT_FLOAT_EQ(clip.length, 0.4f);
  EXPECT_EQ(clip.loop, LoopMode::Linear);
  EXPECT_EQ(clip.skeleton_uid, "skl_0123456789ab");
  EXPECT_TRUE(is_valid_uid(clip.uid, kClipUidPrefix));
}

TEST(SpineAnimations, TranslateFlipsYOnly) {
  const ClipSource clip = clip_of(R"({"bones": {"arm": {
      "translate": [{"x": 5, "y": 10}, {"time": 1, "x": -5}],
      "translatex": [{"value": 3}], "translatey": [{"value": 4}]}}})");
  ASSERT_NE(find(clip, CurveKind::Translate, "arm"), nullptr);
  expect_values(find(clip, CurveKind::Translate, "arm")->values, {5, -10, -5, 0});
  EXPECT_FALSE(std::signbit(find(clip, CurveKind::Translate, "arm")->values[3]));  // 0 flips to 0, not -0
  expect_values(find(clip, CurveKind::TranslateX, "arm")->values, {3});
  expect_values(find(clip, CurveKind::TranslateY, "arm")->values, {-4});
}

TEST(SpineAnimations, ScaleDefaultsToOneAndKeepsItsSign) {
  const ClipSource clip = clip_of(R"({"bones": {"arm": {
      "scale": [{"x": 2}, {"time": 0.5, "y": 0.5}], "scalex": [{}], "scaley": [{"value": -1}]}}})");
  expect_values(find(clip, CurveKind::Scale, "arm")->values, {2, 1, 1, 0.5f});
  expect_values(find(clip, CurveKind::ScaleX, "arm")->values, {1});
  expect_values(find(clip, CurveKind::ScaleY, "arm")->values, {-1});
}

TEST(SpineAnimations, ShearFlipsBothAngles) {
  const ClipSource clip = clip_of(R"({"bones": {"arm": {
      "shear": [{"x": 10, "y": 20}], "shearx": [{"value": 5}], "sheary": [{"value": 6}]}}})");
  expect_values(find(clip, CurveKind::Shear, "arm")->values, {-10, -20});
  expect_values(find(clip, CurveKind::ShearX, "arm")->values, {-5});
  expect_values(find(clip, CurveKind::ShearY, "arm")->values, {-6});
}

TEST(SpineAnimations, EachComponentKeepsItsOwnCurve) {
  const ClipSource clip = clip_of(R"({"bones": {"arm": {"translate": [
      {"curve": [0.25, 0, 0.75, 10, 0.5, 0, 0.5, 20]}, {"time": 1, "x": 10, "y": 20}]}}})");
  const CurveTimeline* tl = find(clip, CurveKind::Translate, "arm");
  ASSERT_NE(tl, nullptr);
  ASSERT_EQ(tl->curves.size(), 2u);
  expect_curve(tl->curves[0], Curve::bezier(0.25f, 0, 0.75f, 1));
  expect_curve(tl->curves[1], Curve::bezier(0.5f, 0, 0.5f, 1));  // y flipped: values and handles alike
  expect_values(tl->values, {0, 0, 10, -20});
}

TEST(SpineAnimations, SteppedCurveAndMissingCurve) {
  const ClipSource clip = clip_of(R"({"bones": {"arm": {"rotate": [
      {"value": 5, "curve": "stepped"}, {"time": 1, "value": 9}, {"time": 2}]}}})");
  const CurveTimeline* tl = find(clip, CurveKind::Rotate, "arm");
  EXPECT_EQ(tl->curves, (std::vector<Curve>{Curve::stepped(), Curve::linear()}));
  expect_values(tl->values, {-5, -9, 0});
}

double spine_polyline(double t0, double v0, double cx1, double cy1, double cx2, double cy2, double t1, double v1,
                      double t);

TEST(SpineAnimations, FlatSegmentWithOvershootTakesSpinesReading) {
  // Spine: rotate 0 → 0 over [0, 1] with both handles at +10: the value rises to 7.5 at t = 0.5 and
  // falls back. No value span to normalise by: the segment becomes Spine's polyline reading (flipped).
  const ClipSource clip = clip_of(R"({"bones": {"arm": {"rotate": [
      {"curve": [0.25, 10, 0.75, 10]}, {"time": 1}]}}})");
  const CurveTimeline* tl = find(clip, CurveKind::Rotate, "arm");
  ASSERT_NE(tl, nullptr);
  ASSERT_GT(tl->times.size(), 3u);
  for (const Curve& c : tl->curves) EXPECT_EQ(c.type, CurveType::Linear);
  for (int i = 0; i <= 50; ++i) {
    const double t = i / 50.0;
    const std::size_t seg =
        static_cast<std::size_t>(std::upper_bound(tl->times.begin(), tl->times.end(), static_cast<float>(t)) - tl->times.begin()) - 1;
    const std::size_t s = std::min(seg, tl->times.size() - 2);
    const double x = (t - tl->times[s]) / (tl->times[s + 1] - tl->times[s]);
    const double ours = tl->values[s] + (tl->values[s + 1] - tl->values[s]) * std::clamp(x, 0.0, 1.0);
    EXPECT_NEAR(ours, -spine_polyline(0, 0, 0.25, 10, 0.75, 10, 1, 0, t), 1e-4) << t;
  }
  // The overshoot is kept: 7.5 at the middle (a polyline point, u = 0.5).
  EXPECT_NEAR(-spine_polyline(0, 0, 0.25, 10, 0.75, 10, 1, 0, 0.5), -7.5, 1e-9);
}

TEST(SpineAnimations, InheritKeysNeedSpine42AndReadItsNames) {
  const ClipSource clip = clip_of(R"({"bones": {"arm": {"inherit": [
      {"time": 0.2, "inherit": "noScale"}, {"time": 0.4}]}}})");
  ASSERT_EQ(clip.inherits.size(), 1u);
  EXPECT_EQ(clip.inherits[0].bone, "arm");
  EXPECT_EQ(clip.inherits[0].values, (std::vector<Inherit>{Inherit::NoScale, Inherit::Normal}));
  const Error e = error_of(R"({"bones": {"arm": {"inherit": [{"inherit": "sideways"}]}}})");
  EXPECT_EQ(e.path, "animations.a.bones.arm.inherit[0].inherit");
  EXPECT_THAT(e.message, HasSubstr("sideways"));
}

// ---- slots ------------------------------------------------------------------------------------

TEST(SpineAnimations, SlotAttachmentAndColourTimelines) {
  const ClipSource clip = clip_of(R"({"slots": {
      "body": {"attachment": [{"name": "body-hurt"}, {"time": 0.5, "name": null}, {"time": 0.6}]},
      "glow": {"rgba": [{"color": "ff000080"}], "rgb": [{"color": "00FF00"}], "alpha": [{"value": 0.5}],
               "rgba2": [{"light": "ffffffff", "dark": "102030"}], "rgb2": [{"light": "ffffff", "dark": "000000"}]}}})");
  ASSERT_EQ(clip.attachments.size(), 1u);
  EXPECT_EQ(clip.attachments[0].names,
            (std::vector<std::optional<std::string>>{"body-hurt", std::nullopt, std::nullopt}));
  expect_values(find(clip, CurveKind::Rgba, "glow")->values, {1, 0, 0, 128 / 255.0f});
  expect_values(find(clip, CurveKind::Rgb, "glow")->values, {0, 1, 0});
  expect_values(find(clip, CurveKind::Alpha, "glow")->values, {0.5f});
  expect_values(find(clip, CurveKind::Rgba2, "glow")->values, {1, 1, 1, 1, 16 / 255.0f, 32 / 255.0f, 48 / 255.0f});
  expect_values(find(clip, CurveKind::Rgb2, "glow")->values, {1, 1, 1, 0, 0, 0});
}

TEST(SpineAnimations, ColourCurvesNormaliseInColourSpace) {
  // Alpha 0 → 1 (byte 255) with handles (0.5, 0.25) and (1, 1): y = 0.25 and 1.
  const ClipSource clip = clip_of(R"({"slots": {"glow": {"rgba": [
      {"color": "ffffff00", "curve": [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0.5, 0.25, 1, 1]},
      {"time": 2, "color": "ffffffff"}]}}})");
  const CurveTimeline* tl = find(clip, CurveKind::Rgba, "glow");
  ASSERT_EQ(tl->curves.size(), 4u);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(tl->curves[static_cast<std::size_t>(c)], Curve::linear()) << c;  // flat, handles on it
  expect_curve(tl->curves[3], Curve::bezier(0.25f, 0.25f, 0.5f, 1));
}

// ---- constraints ------------------------------------------------------------------------------

TEST(SpineAnimations, IkKeysWithBendNegated) {
  const ClipSource clip = clip_of(R"({"ik": {"aim": [
      {"mix": 0.5, "softness": 4, "curve": [0.1, 0.5, 0.2, 1, 0.1, 4, 0.2, 8]},
      {"time": 0.5, "softness": 8, "bendPositive": false, "compress": true, "stretch": true}]}})");
  const CurveTimeline* tl = find(clip, CurveKind::Ik, "aim");
  ASSERT_NE(tl, nullptr);
  EXPECT_EQ(tl->channels, ~0u);
  // mix, softness, bend (Spine's positive bend is our −1), compress, stretch.
  expect_values(tl->values, {0.5f, 4, -1, 0, 0, 1, 8, 1, 1, 1});
  ASSERT_EQ(tl->curves.size(), 2u);
  expect_curve(tl->curves[0], Curve::bezier(0.2f, 0, 0.4f, 1));
  expect_curve(tl->curves[1], Curve::bezier(0.2f, 0, 0.4f, 1));
}

TEST(SpineAnimations, TransformMixYAndScaleYDefaultToTheirX) {
  const ClipSource clip = clip_of(R"({"transform": {"follow": [{"mixRotate": 0.5, "mixX": 0.25, "mixScaleX": 0.75}, {"time": 1}]}})");
  const CurveTimeline* tl = find(clip, CurveKind::Transform, "follow");
  ASSERT_NE(tl, nullptr);
  expect_values(tl->values, {0.5f, 0.25f, 0.25f, 0.75f, 0.75f, 1, 1, 1, 1, 1, 1, 1});
}

TEST(SpineAnimations, TransformChannelsMappedOntoOtherPropertiesStayOff) {
  // Spine 4.3: rotate maps onto itself (imported); x maps onto y (not imported); the rest is unmapped.
  std::vector<ImportNote> notes;
  const ClipSource clip = clip_of(R"({"transform": {"follow": [{"mixRotate": 0.5}]}})", &notes, {4, 3},
                            R"("constraints": [{"type": "transform", "name": "follow", "properties": {
                                 "rotate": {"to": {"rotate": {}}}, "x": {"to": {"y": {"scale": 2}}}}}], )");
  expect_values(find(clip, CurveKind::Transform, "follow")->values, {0.5f, 0, 0, 0, 0, 0});
  EXPECT_TRUE(has_note(notes, "animations.a.transform.follow", "5 channel(s)"));
}

TEST(SpineAnimations, PathTimelinesMergeOntoOneTimeArrayExactly) {
  std::vector<ImportNote> notes;
  const ClipSource clip = clip_of(R"({"path": {"rail": {
      "position": [{"value": 10, "curve": [0.5, 10, 1.5, 40]}, {"time": 2, "value": 30}],
      "spacing": [{"time": 1, "value": 4}],
      "mix": [{"mixRotate": 0.5}]}}})",
                            &notes);
  const CurveTimeline* tl = find(clip, CurveKind::Path, "rail");
  ASSERT_NE(tl, nullptr);
  EXPECT_EQ(tl->channels, ~0u);
  expect_values(tl->times, {0, 1, 2});
  ASSERT_EQ(tl->values.size(), 15u);
  // position at t = 1 lies on the Spine bezier: x(s) = 1 at s = 0.5 by symmetry of the time handles
  // (0.5 and 1.5 about 1), where the value is 0.125·10 + 0.375·10 + 0.375·40 + 0.125·30 = 23.75.
  EXPECT_NEAR(tl->values[5], 23.75, 1e-4);
  // spacing: setup value (2) before its first key, stepped to 4, then held.
  EXPECT_EQ(tl->values[1], 2);
  EXPECT_EQ(tl->values[6], 4);
  EXPECT_EQ(tl->values[11], 4);
  EXPECT_EQ(tl->curves[1], Curve::stepped());
  // mixes held after their only key; mixY defaults to mixX.
  expect_values({tl->values[12], tl->values[13], tl->values[14]}, {0.5f, 1, 1});
  EXPECT_TRUE(has_note(notes, "animations.a.path.rail.spacing", "setup value"));
}

TEST(SpineAnimations, PathChannelsListOnlyTheTimelinesPresent) {
  const ClipSource clip = clip_of(R"({"path": {"rail": {"spacing": [{"value": 3}]}}})");
  const CurveTimeline* tl = find(clip, CurveKind::Path, "rail");
  ASSERT_NE(tl, nullptr);
  EXPECT_EQ(tl->channels, 0b10u);
  expect_values(tl->values, {0, 3, 0, 0, 0});
}

TEST(SpineAnimations, PhysicsTimelinesOwnAndOfAllConstraints) {
  std::vector<ImportNote> notes;
  const ClipSource clip = clip_of(R"({"physics": {
      "hair": {"strength": [{"value": 50}, {"time": 1, "value": 80}], "reset": [{"time": 0.5}]},
      "": {"wind": [{"value": 3}], "gravity": [{"value": 9}], "reset": [{"time": 0.25}]}}})",
                            &notes, {4, 2}, R"("physics": [{"name": "hair", "bone": "arm", "windGlobal": true},
                                                          {"name": "tail", "bone": "arm"}], )");
  expect_values(find(clip, CurveKind::PhysicsStrength, "hair")->values, {50, 80});
  ASSERT_NE(find(clip, CurveKind::PhysicsWind, "hair"), nullptr);
  expect_values(find(clip, CurveKind::PhysicsWind, "hair")->values, {3});
  EXPECT_EQ(find(clip, CurveKind::PhysicsWind, "tail"), nullptr);
  EXPECT_EQ(find(clip, CurveKind::PhysicsGravity, "hair"), nullptr);
  EXPECT_TRUE(has_note(notes, "animations.a.physics[\"\"].gravity", "gravityGlobal"));
  ASSERT_EQ(clip.physics_resets.size(), 2u);
  EXPECT_EQ(clip.physics_resets[0].constraint, "hair");
  expect_values(clip.physics_resets[0].times, {0.25f, 0.5f});
  EXPECT_EQ(clip.physics_resets[1].constraint, "tail");
  expect_values(clip.physics_resets[1].times, {0.25f});
}

// ---- attachments ------------------------------------------------------------------------------

constexpr const char* kDeformKeys =
    R"([{"offset": 1, "vertices": [1, 2, 3], "curve": [0.25, 0, 0.75, 1]}, {"time": 1}])";

TEST(SpineAnimations, DeformKeysFlipYOffsetsIn40And41Forms) {
  const ClipSource v40 = clip_of(std::string(R"({"deform": {"default": {"body": {"blob": )") + kDeformKeys + "}}}}", nullptr,
                           {4, 0});
  const ClipSource v41 = clip_of(std::string(R"({"attachments": {"default": {"body": {"blob": {"deform": )") + kDeformKeys +
                               "}}}}}",
                           nullptr, {4, 1});
  ASSERT_EQ(v40.deforms.size(), 1u);
  EXPECT_EQ(v40, v41);
  const DeformTimeline& d = v40.deforms[0];
  EXPECT_EQ(d.skin, "default");
  EXPECT_EQ(d.slot, "body");
  EXPECT_EQ(d.attachment, "blob");
  ASSERT_EQ(d.keys.size(), 2u);
  EXPECT_EQ(d.keys[0].offset, 1);
  // Floats 1 and 3 are y values (odd index): negated; float 2 is an x.
  EXPECT_EQ(d.keys[0].values, (std::vector<float>{-1, 2, -3}));
  EXPECT_TRUE(d.keys[1].values.empty());
  ASSERT_EQ(d.curves.size(), 1u);
  expect_curve(d.curves[0], Curve::bezier(0.25f, 0, 0.75f, 1));
}

// A deform curve whose handle leaves its segment: keys of its own, the vertices interpolated by
// Spine's polyline reading of the curve (fraction 0 → 1).
TEST(SpineAnimations, DeformHandlesOutsideTheSegmentBecomeKeys) {
  std::vector<ImportNote> notes;
  const ClipSource clip = clip_of(R"({"attachments": {"default": {"body": {"blob": {"deform": [
      {"vertices": [0, 0, 10, 0, 0, 0, 0, 0], "curve": [0.2, 0, -0.3, 1]},
      {"time": 0.5, "vertices": [0, 0, 20, 4, 0, 0, 0, 0]}]}}}}})",
                                  &notes);
  for (const ImportNote& n : notes) EXPECT_EQ(n.where.find("deform"), std::string::npos) << n.where << ": " << n.message;
  ASSERT_EQ(clip.deforms.size(), 1u);
  const DeformTimeline& d = clip.deforms[0];
  ASSERT_GT(d.keys.size(), 2u);
  ASSERT_EQ(d.curves.size(), d.keys.size() - 1);
  for (const Curve& c : d.curves) EXPECT_NE(c.type, CurveType::Bezier);
  // Each inserted key: float 2 (an x) runs 10 → 20 and float 3 (a y, negated) 0 → −4 by the same
  // fraction, Spine's reading at the key's time.
  for (std::size_t k = 1; k + 1 < d.keys.size(); ++k) {
    const double f = spine_polyline(0, 0, 0.2, 0, -0.3, 1, 0.5, 1, d.times[k]);
    ASSERT_EQ(d.keys[k].offset, 2) << k;
    ASSERT_EQ(d.keys[k].values.size(), 2u) << k;
    EXPECT_NEAR(d.keys[k].values[0], 10 + 10 * f, 1e-4) << k;
    EXPECT_NEAR(d.keys[k].values[1], -4 * f, 1e-4) << k;
  }
}

TEST(SpineAnimations, DeformOnLinkedMeshes) {
  std::vector<ImportNote> notes;
  const ClipSource clip = clip_of(R"({"attachments": {"alt": {"body": {
      "blob-shares": {"deform": [{"vertices": [1, 1]}]},
      "blob-own": {"deform": [{"vertices": [1, 1]}]}}}}})",
                            &notes);
  ASSERT_EQ(clip.deforms.size(), 1u);
  EXPECT_EQ(clip.deforms[0].attachment, "blob-shares");
  EXPECT_TRUE(has_note(notes, "animations.a.attachments.alt.body[\"blob-own\"].deform", "linked mesh"));
}

TEST(SpineAnimations, DeformErrors) {
  Error e = error_of(R"({"attachments": {"default": {"body": {"body": {"deform": [{}]}}}}})");
  EXPECT_EQ(e.path, "animations.a.attachments.default.body.body.deform");
  EXPECT_THAT(e.message, HasSubstr("needs a vertex attachment"));
  e = error_of(R"({"attachments": {"default": {"body": {"blob": {"deform": [{"offset": 4, "vertices": [1, 2, 3, 4, 5]}]}}}}})");
  EXPECT_EQ(e.path, "animations.a.attachments.default.body.blob.deform[0].vertices");
  EXPECT_THAT(e.message, HasSubstr("8 vertex floats"));
  e = error_of(R"({"deform": {"summer": {"body": {"blob": []}}}})");
  EXPECT_EQ(e.path, "animations.a.deform.summer");
  e = error_of(R"({"deform": {"default": {"body": {"ghost": [{}]}}}})");
  EXPECT_EQ(e.path, "animations.a.deform.default.body.ghost");
}

TEST(SpineAnimations, SequenceKeys) {
  const ClipSource clip = clip_of(R"({"attachments": {"default": {"glow": {"sparkle": {"sequence": [
      {"mode": "loop", "index": 2, "delay": 0.1}, {"time": 1, "mode": "pingpongReverse"}]}}}}})",
                            nullptr, {4, 1});
  ASSERT_EQ(clip.sequences.size(), 1u);
  EXPECT_EQ(clip.sequences[0].slot, "glow");
  ASSERT_EQ(clip.sequences[0].keys.size(), 2u);
  EXPECT_EQ(clip.sequences[0].keys[0], (SequenceKey{SequenceMode::Loop, 2, 0.1f}));
  EXPECT_EQ(clip.sequences[0].keys[1], (SequenceKey{SequenceMode::PingPongReverse, 0, 0}));
  const Error e = error_of(R"({"attachments": {"default": {"glow": {"sparkle": {"sequence": [{"mode": "bounce"}]}}}}})");
  EXPECT_EQ(e.path, "animations.a.attachments.default.glow.sparkle.sequence[0].mode");
}

// ---- draw order and events ----------------------------------------------------------------------

TEST(SpineAnimations, DrawOrderOffsets) {
  const ClipSource clip = clip_of(R"({"drawOrder": [
      {"time": 0.5, "offsets": [{"slot": "body", "offset": 2}, {"slot": "front", "offset": -1}]}, {"time": 1}]})");
  expect_values(clip.draw_order.times, {0.5f, 1});
  ASSERT_EQ(clip.draw_order.keys.size(), 2u);
  EXPECT_EQ(clip.draw_order.keys[0], (std::vector<DrawOrderMove>{{"body", 2}, {"front", -1}}));
  EXPECT_TRUE(clip.draw_order.keys[1].empty());
  Error e = error_of(R"({"drawOrder": [{"offsets": [{"slot": "front", "offset": 5}]}]})");
  EXPECT_EQ(e.path, "animations.a.drawOrder[0].offsets[0]");
  EXPECT_THAT(e.message, HasSubstr("leaves the draw order"));
  e = error_of(R"({"drawOrder": [{"offsets": [{"slot": "body", "offset": 2}, {"slot": "glow", "offset": 1}]}]})");
  EXPECT_THAT(e.message, HasSubstr("another moved slot"));
}

TEST(SpineAnimations, EventKeysKeepTheirPayload) {
  std::vector<ImportNote> notes;
  const ClipSource clip = clip_of(R"({"events": [
      {"time": 0.2, "name": "step", "int": 3, "float": 0.5, "string": "left", "volume": 0.5, "balance": -0.25},
      {"time": 0.2, "name": "step", "volume": 2}, {"time": 1.5, "name": "step"}]})",
                            &notes);
  expect_values(clip.events.times, {0.2f, 0.2f, 1.5f});
  ASSERT_EQ(clip.events.keys.size(), 3u);
  const EventKeySource& k = clip.events.keys[0];
  EXPECT_EQ(k.name, "step");
  EXPECT_EQ(k.int_value, 3);
  EXPECT_EQ(k.float_value, 0.5f);
  EXPECT_EQ(k.string_value, "left");
  EXPECT_EQ(k.volume, 0.5f);
  EXPECT_EQ(k.balance, -0.25f);
  EXPECT_EQ(clip.events.keys[1].volume, 1.0f);
  EXPECT_TRUE(has_note(notes, "animations.a.events[1].volume", "clamped"));
  EXPECT_EQ(clip.events.keys[2], named<EventKeySource>("step"));
  EXPECT_FLOAT_EQ(clip.length, 1.5f);
  const Error e = error_of(R"({"events": [{"name": "jump"}]})");
  EXPECT_EQ(e.path, "animations.a.events[0].name");
}

// ---- errors and notes -------------------------------------------------------------------------

TEST(SpineAnimations, ErrorsNameFileJsonPathAndLine) {
  Converted c = convert("{\"a\": {\n\"bones\": {\n\"ghost\": {\"rotate\": [{}]}}}}");
  ASSERT_FALSE(c.clips.ok());
  EXPECT_EQ(c.clips.error().file, "anim.json");
  EXPECT_EQ(c.clips.error().path, "animations.a.bones.ghost");
  EXPECT_EQ(c.clips.error().position.line, 3);
  EXPECT_THAT(c.clips.error().message, HasSubstr("unknown bone \"ghost\""));

  struct Case {
    const char* body;
    const char* path;
    const char* message;
  };
  const Case cases[] = {
      {R"({"slots": {"nope": {}}})", "animations.a.slots.nope", "unknown slot"},
      {R"({"slots": {"body": {"attachment": [{"name": "hat"}]}}})", "animations.a.slots.body.attachment[0].name",
       "no skin has an attachment"},
      {R"({"bones": {"arm": {"rotate": [{"curve": [1, 2, 3]}, {"time": 1}]}}})",
       "animations.a.bones.arm.rotate[0].curve", "expected 4 bezier control values"},
      {R"({"bones": {"arm": {"translate": [{"curve": [1, 2, 3, 4]}, {"time": 1}]}}})",
       "animations.a.bones.arm.translate[0].curve", "expected 8"},
      {R"({"bones": {"arm": {"rotate": [{"curve": "smooth"}, {"time": 1}]}}})",
       "animations.a.bones.arm.rotate[0].curve", "stepped"},
      {R"({"bones": {"arm": {"rotate": [{"time": 1}, {"time": 0.5}]}}})", "animations.a.bones.arm.rotate[1].time",
       "must increase"},
      {R"({"bones": {"arm": {"rotate": [{"time": -1}]}}})", "animations.a.bones.arm.rotate[0].time", ">= 0"},
      {R"({"bones": {"arm": {"rotate": [{"value": "ten"}]}}})", "animations.a.bones.arm.rotate[0].value",
       "expected a number"},
      {R"({"slots": {"glow": {"rgba": [{"color": "ff0000"}]}}})", "animations.a.slots.glow.rgba[0].color",
       "8 hex digits"},
      {R"({"slots": {"glow": {"rgba": [{}]}}})", "animations.a.slots.glow.rgba[0]", "needs \"color\""},
      {R"({"slots": {"glow": {"alpha": [{"value": 2}]}}})", "animations.a.slots.glow.alpha[0].value", "from 0 to 1"},
      {R"({"ik": {"follow": [{}]}})", "animations.a.ik.follow", "unknown ik constraint \"follow\" (there is a transform constraint"},
      {R"({"transform": {"nope": [{}]}})", "animations.a.transform.nope", "unknown transform constraint"},
      {R"({"physics": {"aim": {}}})", "animations.a.physics.aim", "unknown physics constraint \"aim\" (there is an ik constraint"},
      {R"({"bones": {"arm": {"rotate": {}}}})", "animations.a.bones.arm.rotate", "expected an array"},
  };
  for (const Case& k : cases) {
    const Error e = error_of(k.body);
    EXPECT_EQ(e.path, k.path) << k.body;
    EXPECT_THAT(e.message, HasSubstr(k.message)) << k.body;
    EXPECT_GT(e.position.line, 0) << k.body;
  }
}

TEST(SpineAnimations, WhatDoesNotMapBecomesANote) {
  std::vector<ImportNote> notes;
  const ClipSource clip = clip_of(R"({"bones": {"arm": {"wiggle": [{}], "rotate": [{"value": 1, "ease": 2}, {"time": 1, "ease": 3}]}},
                                "slider": {"knob": [{"time": 0}]}})",
                            &notes, {4, 3});
  EXPECT_NE(find(clip, CurveKind::Rotate, "arm"), nullptr);
  EXPECT_TRUE(has_note(notes, "animations.a.bones.arm.wiggle", "unknown bone timeline"));
  EXPECT_TRUE(has_note(notes, "animations.a.bones.arm.rotate[0].ease", "not known"));
  EXPECT_FALSE(has_note(notes, "animations.a.bones.arm.rotate[1].ease", "not known"));  // once per timeline
  EXPECT_TRUE(has_note(notes, "animations.a.slider", "slider"));
}

TEST(SpineAnimations, SeveralAnimationsKeepFileOrderAndOwnLengths) {
  Converted c = convert(R"({"walk": {"bones": {"arm": {"rotate": [{"time": 0.8}]}}}, "idle": {}})");
  ASSERT_TRUE(c.clips.ok()) << c.clips.error().to_string();
  ASSERT_EQ(c.clips->size(), 2u);
  EXPECT_EQ((*c.clips)[0].first, "walk");
  EXPECT_FLOAT_EQ((*c.clips)[0].second.length, 0.8f);
  EXPECT_EQ((*c.clips)[1].first, "idle");
  EXPECT_EQ((*c.clips)[1].second.length, 0);
  EXPECT_NE((*c.clips)[0].second.uid, (*c.clips)[1].second.uid);
}

// The converted clip is a valid .manim for the skeleton: written and read back against it, unchanged.
TEST(SpineAnimations, ConvertedClipReadsBackAgainstTheSkeleton) {
  const ClipSource clip = clip_of(R"({
      "bones": {"arm": {"rotate": [{"curve": [0.25, 10, 0.75, 10]}, {"time": 1}],
                        "translate": [{"x": 1, "y": 2, "curve": "stepped"}, {"time": 0.5}], "inherit": [{"inherit": "noScale"}]}},
      "slots": {"body": {"attachment": [{"name": "blob"}]}, "glow": {"rgba2": [{"light": "ff00ff80", "dark": "00ff00"}]}},
      "ik": {"aim": [{"mix": 0.5}, {"time": 0.5, "bendPositive": false}]},
      "transform": {"follow": [{}]},
      "path": {"rail": {"position": [{"value": 1}], "mix": [{"time": 0.2}]}},
      "physics": {"hair": {"mass": [{"value": 2}], "reset": [{}]}},
      "attachments": {"default": {"body": {"blob": {"deform": [{"offset": 2, "vertices": [1, 1]}]}},
                                  "glow": {"sparkle": {"sequence": [{"mode": "once"}]}}}},
      "drawOrder": [{"offsets": [{"slot": "front", "offset": -2}]}],
      "events": [{"time": 1.25, "name": "step", "string": "x"}]})");
  const SkeletonSource skeleton = rig();
  const std::string text = write_clip(clip);
  auto back = read_clip(text, "a.manim", &skeleton);
  ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
  EXPECT_EQ(*back, clip) << text;
}

// ---- end to end ---------------------------------------------------------------------------------

// A whole Spine export of our own through the importer: skeleton and animations together.
TEST(SpineAnimationsImport, FixtureFlipsThroughTheWholeImporter) {
  auto imported = import_spine({std::string(MF_TEST_DATA_DIR) + "/spine/timelines/flips.json", ""});
  ASSERT_TRUE(imported.ok()) << imported.error().to_string();
  ASSERT_EQ(imported->clips.size(), 1u);
  const auto& [name, clip] = imported->clips[0];
  EXPECT_EQ(name, "wave");
  EXPECT_EQ(clip.skeleton_uid, imported->skeleton.uid);
  EXPECT_FLOAT_EQ(clip.length, 1);
  expect_values(find(clip, CurveKind::Rotate, "upper")->values, {-30, 0});
  expect_curve(find(clip, CurveKind::Rotate, "upper")->curves[0], Curve::bezier(1 / 3.0f, 0, 2 / 3.0f, 1));
  expect_values(find(clip, CurveKind::Translate, "upper")->values, {5, -10});
  expect_values(find(clip, CurveKind::Shear, "upper")->values, {-4, 6});
  EXPECT_GT(find(clip, CurveKind::Rotate, "lower")->times.size(), 2u);  // the flat overshoot's polyline
  expect_values(find(clip, CurveKind::Ik, "reach")->values, {0.5f, 0, -1, 0, 0, 1, 0, 1, 0, 0});
  ASSERT_EQ(clip.events.keys.size(), 1u);
  for (const ImportNote& n : imported->notes)
    EXPECT_EQ(n.where.rfind("animations", 0), std::string::npos) << n.where << ": " << n.message;
  auto back = read_clip(write_clip(clip), "wave.manim", &imported->skeleton);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(*back, clip);
}

// Spine's reading of a bezier segment whose handles may leave it in time (measured against Spine's
// runtime, docs/spine-import.md): the curve sampled at u = i / 10 as a polyline, read at the first
// point i ≥ 1 whose time is ≥ t, linearly from point i − 1.
double spine_polyline(double t0, double v0, double cx1, double cy1, double cx2, double cy2, double t1, double v1,
                      double t) {
  const auto cubic = [](double p0, double p1, double p2, double p3, double s) {
    const double u = 1 - s;
    return u * u * u * p0 + 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s * p3;
  };
  double xa = t0, ya = v0;
  for (int i = 1; i <= 10; ++i) {
    const double xb = cubic(t0, cx1, cx2, t1, i / 10.0), yb = cubic(v0, cy1, cy2, v1, i / 10.0);
    if (xb >= t) return ya + (yb - ya) * (t - xa) / (xb - xa);
    xa = xb;
    ya = yb;
  }
  return v1;
}

// Our clip's value of `component` at time t, as the runtime reads it: beziers by their 10 pieces.
double runtime_value(const CurveTimeline& tl, int components, int component, double t) {
  const std::size_t n = tl.times.size();
  std::size_t seg = 0;
  while (seg + 1 < n && t >= tl.times[seg + 1]) ++seg;
  const auto at = [&](std::size_t k) { return static_cast<double>(tl.values[k * static_cast<std::size_t>(components) + static_cast<std::size_t>(component)]); };
  if (seg + 1 >= n) return at(n - 1);
  const Curve& c = tl.curves[seg * static_cast<std::size_t>(components) + static_cast<std::size_t>(component)];
  const float x = static_cast<float>((t - tl.times[seg]) / (tl.times[seg + 1] - tl.times[seg]));
  double f = x;
  if (c.type == CurveType::Stepped) f = 0;
  if (c.type == CurveType::Bezier) f = anim::evaluate(anim::sample_bezier(c.cx1, c.cy1, c.cx2, c.cy2), x);
  return at(seg) + (at(seg + 1) - at(seg)) * f;
}

// A fixture of our own whose bezier handles leave their segments in time (a first handle behind the
// start, a curve that runs past the end and back, a translate y that turns back in the middle): the
// importer's clip, read as the runtime reads it, gives Spine's polyline values, with x in [0, 1].
TEST(SpineAnimationsImport, HandlesOutsideTheirSegmentGiveSpinesValues) {
  auto imported = import_spine({std::string(MF_TEST_DATA_DIR) + "/spine/handles-outside.json", ""});
  ASSERT_TRUE(imported.ok()) << imported.error().to_string();
  ASSERT_EQ(imported->clips.size(), 1u);
  const ClipSource& clip = imported->clips[0].second;
  for (const ImportNote& n : imported->notes)
    EXPECT_EQ(n.where.rfind("animations", 0), std::string::npos) << n.where << ": " << n.message;
  const CurveTimeline* rotate = find(clip, CurveKind::Rotate, "arm");
  const CurveTimeline* translate = find(clip, CurveKind::Translate, "arm");
  ASSERT_NE(rotate, nullptr);
  ASSERT_NE(translate, nullptr);
  for (const CurveTimeline* tl : {rotate, translate})
    for (const Curve& c : tl->curves)
      if (c.type == CurveType::Bezier) {
        EXPECT_TRUE(c.cx1 >= 0 && c.cx1 <= 1 && c.cx2 >= 0 && c.cx2 <= 1) << c.cx1 << " " << c.cx2;
      }
  EXPECT_GT(rotate->times.size(), 4u) << "the outside segments are re-expressed with keys of their own";

  // The fixture's segments (Spine's numbers: time, value, then the curve of the segment after).
  struct Segment {
    double t0, v0, cx1, cy1, cx2, cy2, t1, v1;
  };
  const Segment rotate_segments[] = {{0, 0, 0.1, 0, 0.15, 20, 0.2, 20},
                                     {0.2, 20, 0.23, 20, -0.1, 80, 0.5, 80},
                                     {0.5, 80, 0.9, 60, 0.7, 10, 0.75, 10}};
  const Segment translate_x = {0, 0, 0.1, 5, 0.2, 10, 0.3, 10}, translate_y = {0, 0, 0.1, -4, -0.2, 12, 0.3, 12};
  const auto spine = [](const Segment& s, double t) {
    return spine_polyline(s.t0, s.v0, s.cx1, s.cy1, s.cx2, s.cy2, s.t1, s.v1, t);
  };
  // Value units: degrees and pixels. Within a float step of a jump the two may disagree; the sample
  // times stay off them.
  constexpr double kTolerance = 1e-3;
  for (int i = 0; i < 750; ++i) {
    const double t = (i + 0.37) / 1000.0;
    const Segment& s = rotate_segments[t < 0.2 ? 0 : t < 0.5 ? 1 : 2];
    EXPECT_NEAR(runtime_value(*rotate, 1, 0, t), -spine(s, t), kTolerance) << "rotate t=" << t;
    if (t < 0.3) {
      EXPECT_NEAR(runtime_value(*translate, 2, 0, t), spine(translate_x, t), kTolerance) << "x t=" << t;
      EXPECT_NEAR(runtime_value(*translate, 2, 1, t), -spine(translate_y, t), kTolerance) << "y t=" << t;
    }
  }
  // At the keys: the keys' values (the segment that starts there).
  EXPECT_NEAR(runtime_value(*rotate, 1, 0, 0.2), -20, kTolerance);
  EXPECT_NEAR(runtime_value(*rotate, 1, 0, 0.5), -80, kTolerance);
  EXPECT_NEAR(runtime_value(*rotate, 1, 0, 0.75), -10, kTolerance);
  // Just after 0.2 the polyline reads far along the curve: the jump is kept.
  EXPECT_NEAR(runtime_value(*rotate, 1, 0, 0.2001), -spine(rotate_segments[1], 0.2001), kTolerance);
  EXPECT_GT(std::fabs(runtime_value(*rotate, 1, 0, 0.2001) + 20), 10.0);

  auto back = read_clip(write_clip(clip), "swing.manim", &imported->skeleton);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(*back, clip);
}

// Clips keep their animations' names, folders included, and are written in sub-folders.
TEST(SpineAnimationsImport, AnimationFoldersBecomeClipPaths) {
  auto imported = import_spine({std::string(MF_TEST_DATA_DIR) + "/spine/clip-folders.json", ""});
  ASSERT_TRUE(imported.ok()) << imported.error().to_string();
  std::vector<std::string> names;
  for (const auto& [name, clip] : imported->clips) names.push_back(name);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"emotes/angry", "emotes/happy/big", "idle", "what?/a:b"}));
  for (const ImportNote& n : imported->notes)
    EXPECT_EQ(n.where.rfind("animations", 0), std::string::npos) << n.where << ": " << n.message;

  // Written in sub-folders, escaped where needed, and read back under the same names.
  mf::testing::TempDir dir("mf_spine_clip_folders");
  ASSERT_TRUE(write_spine_import(*imported, dir.file("out")).ok());
  for (const char* f : {"out/clip-folders.clips/emotes/angry.manim", "out/clip-folders.clips/emotes/happy/big.manim",
                        "out/clip-folders.clips/idle.manim", "out/clip-folders.clips/what%3F/a%3Ab.manim"})
    EXPECT_TRUE(std::filesystem::is_regular_file(dir.file(f))) << f;
  auto rig = load_rig(dir.file("out/clip-folders.mskel"));
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  std::vector<std::string> read_back;
  for (const ClipFile& c : rig->clips) read_back.push_back(c.name);
  EXPECT_EQ(read_back, names);
  auto angry = load_clip(*rig, "emotes/angry");
  ASSERT_TRUE(angry.ok()) << angry.error().to_string();
}

TEST(SpineAnimationsImport, AnimationNamesThatDifferOnlyByCaseAreAnError) {
  const std::string json = R"({"skeleton": {"spine": "4.2.40"}, "bones": [{"name": "root"}],
      "animations": {"Run": {}, "run": {}}})";
  auto imported = convert_spine(json, "cases.json");
  ASSERT_FALSE(imported.ok());
  EXPECT_EQ(imported.error().file, "cases.json");
  EXPECT_THAT(imported.error().message, HasSubstr("differ only by case"));
  EXPECT_THAT(imported.error().message, HasSubstr("\"Run\""));
}

// Spine's value of a bone timeline component at time t, straight from the JSON keys.
double spine_value(const json::Value& keys, const char* member, double fallback, int component, double t) {
  const auto number = [](const json::Value& key, const char* m, double dflt) {
    const json::Value* v = key.find(m);
    return v ? v->number : dflt;
  };
  const std::size_t n = keys.items.size();
  std::size_t seg = 0;
  while (seg + 1 < n && t >= number(keys.items[seg + 1], "time", 0)) ++seg;
  const json::Value& k0 = keys.items[seg];
  const double v0 = number(k0, member, fallback);
  if (seg + 1 >= n) return v0;
  const json::Value& k1 = keys.items[seg + 1];
  const double t0 = number(k0, "time", 0), t1 = number(k1, "time", 0), v1 = number(k1, member, fallback);
  const json::Value* curve = k0.find("curve");
  if (!curve) return v0 + (v1 - v0) * (t - t0) / (t1 - t0);
  if (curve->is_string()) return v0;
  const auto cv = [&](int i) { return curve->items[static_cast<std::size_t>(4 * component + i)].number; };
  // Spine reads every bezier as its 10-step polyline (docs/spine-import.md), handles outside the
  // segment and flat overshoots included.
  return spine_polyline(t0, v0, cv(0), cv(1), cv(2), cv(3), t1, v1, t);
}

std::string examples_dir() {
  const char* env = std::getenv("MF_SPINE_EXAMPLES_DIR");
  return env && *env ? env : MF_SPINE_EXAMPLES_DEFAULT;
}

// Spine's own example exports (not in the repository): every animation converts, every clip is a
// valid .manim for the imported skeleton, and the animation notes are listed for the record.
TEST(SpineAnimationsImport, ExampleExportsConvertEveryAnimation) {
  const char* files[] = {"spineboy/spineboy-pro.json", "mix-and-match/mix-and-match-pro.json"};
  int found = 0;
  for (const char* file : files) {
    const std::string path = examples_dir() + "/" + file;
    if (!std::filesystem::exists(path)) continue;
    ++found;
    auto imported = import_spine({path, ""});
    ASSERT_TRUE(imported.ok()) << imported.error().to_string();
    auto text = json::parse(std::string(std::istreambuf_iterator<char>(*std::make_unique<std::ifstream>(path)), {}),
                            path);
    ASSERT_TRUE(text.ok());
    EXPECT_EQ(imported->clips.size(), text->find("animations")->members.size()) << file;
    for (const auto& [name, clip] : imported->clips) {
      auto back = read_clip(write_clip(clip), name + ".manim", &imported->skeleton);
      EXPECT_TRUE(back.ok()) << file << " " << name << ": " << back.error().to_string();
      EXPECT_GE(clip.length, 0) << name;  // a pose (every key at 0) has length 0, as in Spine
    }
    // Bone timelines, read as our runtime reads them, sampled against Spine's reading of its curves.
    const json::Value& animations = *text->find("animations");
    double worst = 0;
    for (const json::Member& animation : animations.members) {
      const ClipSource* clip = nullptr;
      for (const auto& [name, c] : imported->clips)
        if (name == animation.first) clip = &c;
      ASSERT_NE(clip, nullptr);
      const json::Value* bones = animation.second.find("bones");
      if (!bones) continue;
      for (const json::Member& bone : bones->members) {
        struct Kind {
          const char* spine;
          CurveKind ours;
          const char* members[2];
          double fallback;
          double sign[2];
        };
        const Kind kinds[] = {{"rotate", CurveKind::Rotate, {"value", nullptr}, 0, {-1, 1}},
                              {"translate", CurveKind::Translate, {"x", "y"}, 0, {1, -1}},
                              {"scale", CurveKind::Scale, {"x", "y"}, 1, {1, 1}},
                              {"shear", CurveKind::Shear, {"x", "y"}, 0, {-1, -1}}};
        for (const Kind& kind : kinds) {
          const json::Value* keys = bone.second.find(kind.spine);
          if (!keys) continue;
          const std::string where = json::path_key(json::path_key(json::path_key(json::path_key("animations", animation.first), "bones"), bone.first), kind.spine);
          if (std::any_of(imported->notes.begin(), imported->notes.end(), [&](const ImportNote& n) { return n.where == where; }))
            continue;
          const CurveTimeline* tl = find(*clip, kind.ours, bone.first);
          ASSERT_NE(tl, nullptr) << where;
          const int comps = kind.members[1] ? 2 : 1;
          for (int c = 0; c < comps; ++c)
            for (int i = 0; i < 200; ++i) {
              const double t = clip->length * (i + 0.37) / 200.0;  // off the key times (float vs double)
              if (t < tl->times.front()) continue;  // neither applies before its first key
              const double expected = kind.sign[c] * spine_value(*keys, kind.members[c], kind.fallback, c, t);
              const double error = std::fabs(runtime_value(*tl, comps, c, t) - expected);
              worst = std::max(worst, error / std::max(1.0, std::fabs(expected)));
              EXPECT_LT(error, kCurveTolerance * std::max(1.0, std::fabs(expected))) << where << " t=" << t;
            }
        }
      }
    }
    std::cout << file << ": worst relative error of bone timelines against Spine's curves " << worst << "\n";
    int animation_notes = 0;
    for (const ImportNote& n : imported->notes) {
      if (n.where.rfind("animations", 0) != 0) continue;
      ++animation_notes;
      std::cout << file << ": " << n.where << ": " << n.message << "\n";
    }
    EXPECT_LE(animation_notes, 10) << file;
  }
  if (found == 0) GTEST_SKIP() << "Spine examples not found under " << examples_dir() << " (set MF_SPINE_EXAMPLES_DIR)";
}

// Spine deforms every vertex attachment: a path, a clipping polygon and a weighted bounding box of
// tests/data/spine/vertex-deform.json import with their deform keys (y offsets negated), read back
// against the skeleton and compile.
TEST(SpineAnimationsImport, DeformKeysOnPathClippingAndBoundingBox) {
  const std::string file = std::string(MF_TEST_DATA_DIR) + "/spine/vertex-deform.json";
  Expected<std::string> json_text = read_file(file);
  ASSERT_TRUE(json_text) << json_text.error().to_string();
  Expected<SpineImport> im = convert_spine(*json_text, file);
  ASSERT_TRUE(im) << im.error().to_string();
  ASSERT_EQ(im->clips.size(), 1u);
  const ClipSource& clip = im->clips[0].second;
  ASSERT_EQ(clip.deforms.size(), 3u);
  std::map<std::string, const DeformTimeline*> by_attachment;
  for (const DeformTimeline& d : clip.deforms) by_attachment[d.attachment] = &d;
  ASSERT_TRUE(by_attachment.count("track") && by_attachment.count("mask") && by_attachment.count("hitbox"));

  const DeformTimeline& track = *by_attachment["track"];
  ASSERT_EQ(track.keys.size(), 1u);
  EXPECT_EQ(track.keys[0].offset, 4);
  const std::vector<float> track_offsets = {-33.333f, 33.333f, -66.667f, 66.667f, -100, 100, -133.333f, 133.333f};
  ASSERT_EQ(track.keys[0].values.size(), track_offsets.size());
  for (std::size_t i = 0; i < track_offsets.size(); ++i)
    EXPECT_NEAR(track.keys[0].values[i], track_offsets[i], kValueTolerance) << i;
  EXPECT_EQ(by_attachment["mask"]->keys[0].values, (std::vector<float>{100, -100, -20, -100, -20, 40, 100, 40}));
  // Weighted: two floats per influence (4 influences), in each influence bone's space.
  EXPECT_EQ(by_attachment["hitbox"]->keys[0].values, (std::vector<float>{10, 0, 0, 0, 0, 0, 0, -5}));

  const std::string text = write_clip(clip);
  auto back = read_clip(text, "deform.manim", &im->skeleton);
  ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
  EXPECT_EQ(*back, clip);

  auto image_size = [](const std::string&) -> std::optional<ImageSize> { return ImageSize{64, 64}; };
  auto built = build_skeleton(im->skeleton, image_size, "vertex-deform", "vertex-deform.mskel");
  ASSERT_TRUE(built.ok()) << built.error().to_string();
  auto compiled = compile_clip(clip, im->skeleton, *built->data, "deform", "deform.manim");
  ASSERT_TRUE(compiled.ok()) << compiled.error().to_string();
  EXPECT_EQ(compiled->deform_keys.size(), 3u);
}

}  // namespace
}  // namespace mf::offline::spine
