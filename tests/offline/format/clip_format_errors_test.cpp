// `.manim` reader errors: every kind of bad input is rejected with the file, the JSON path and the
// line:column of the offending value.
//
// Inputs mark the expected error position with '@', which is removed before reading.

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "support/model_builders.hpp"

namespace mf::offline {
namespace {

const std::string kFile = "bad.manim";

using testing::attachment;
using testing::named;
using testing::slot;

// bones root, hip; slots a, b, c, d (setup draw order); one constraint of each kind; events.
SkeletonSource test_skeleton() {
  SkeletonSource s;
  s.uid = "skl_00aa11bb22cc";
  Bone hip = named<Bone>("hip");
  hip.parent = 0;
  s.bones = {named<Bone>("root"), hip};
  s.slots = {slot("a", 0), slot("b", 1), slot("c", 1), slot("d", 0)};
  s.ik = {named<IkConstraint>("aim")};
  s.transform = {named<TransformConstraint>("follow")};
  s.path = {named<PathConstraint>("rail")};
  s.physics = {named<PhysicsConstraint>("hair")};
  s.events = {named<EventDef>("step")};

  MeshAttachment mesh;  // 3 unweighted vertices: 6 floats
  mesh.uvs = {0, 0, 1, 0, 1, 1};
  mesh.triangles = {0, 1, 2};
  mesh.hull = 3;
  mesh.vertices.positions = {0, 0, 10, 0, 10, 10};
  MeshAttachment weighted = mesh;  // 2 + 1 + 1 influences: 8 floats
  weighted.vertices.positions.clear();
  weighted.vertices.weights = {{InfluenceSource{0, 0.5f, 0, 0}, InfluenceSource{1, 0.5f, 1, 1}},
                               {InfluenceSource{0, 1, 10, 0}},
                               {InfluenceSource{1, 1, 10, 10}}};
  LinkedMeshAttachment frozen;
  frozen.parent = "mesh";
  frozen.deform = false;
  Skin skin = named<Skin>("default");
  skin.attachments = {attachment(0, "mesh", mesh), attachment(0, "weighted", weighted),
                      attachment(0, "frozen", frozen), attachment(0, "region", RegionAttachment{}),
                      attachment(1, "mesh", mesh)};
  s.skins = {skin, named<Skin>("other")};
  return s;
}

// A valid clip header followed by `body` (which starts with a comma when not empty).
std::string clip(const std::string& body) {
  return "{\n"
         "  \"format\": 1,\n"
         "  \"uid\": \"anm_0123456789ab\",\n"
         "  \"type\": \"SkeletonClip\",\n"
         "  \"skeleton\": { \"uid\": \"skl_00aa11bb22cc\", \"path\": \"\" },\n"
         "  \"length\": 2" +
         body + "\n}\n";
}

// The header with the value of `key` replaced by `marked_value`.
std::string header_with(const std::string& key, const std::string& marked_value) {
  std::string text = clip("");
  const std::size_t at = text.find("\"" + key + "\": ") + key.size() + 4;
  std::size_t end = text.find('\n', at);
  if (text[end - 1] == ',') --end;
  return text.replace(at, end - at, marked_value);
}

// "line:column" of the '@' in `marked`.
std::string marker_position(const std::string& marked) {
  const std::size_t at = marked.find('@');
  if (at == std::string::npos) return "?";
  const std::size_t line_start = marked.rfind('\n', at) == std::string::npos ? 0 : marked.rfind('\n', at) + 1;
  const auto line = 1 + std::count(marked.begin(), marked.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

std::string unmarked(std::string marked) {
  const std::size_t at = marked.find('@');
  if (at != std::string::npos) marked.erase(at, 1);
  return marked;
}

// Reads `marked` (without its '@') and expects an error whose text starts with
// "bad.manim:<line:column of '@'>: <path>: " and contains `words`.
::testing::AssertionResult fails(const std::string& marked, const std::string& path, const std::string& words,
                                 const SkeletonSource* skeleton = nullptr) {
  const std::string text = unmarked(marked);
  const Expected<ClipSource> result = read_clip(text, kFile, skeleton);
  if (result.ok()) return ::testing::AssertionFailure() << "accepted:\n" << text;
  const std::string message = result.error().to_string();
  std::string prefix = kFile + ":" + marker_position(marked) + ": ";
  if (!path.empty()) prefix += path + ": ";
  if (message.rfind(prefix, 0) != 0)
    return ::testing::AssertionFailure() << "error \"" << message << "\" does not start with \"" << prefix << "\"";
  if (message.find(words) == std::string::npos)
    return ::testing::AssertionFailure() << "error \"" << message << "\" does not mention \"" << words << "\"";
  return ::testing::AssertionSuccess();
}

// The same body must be valid without a skeleton and fail with one.
::testing::AssertionResult fails_with_skeleton(const std::string& marked, const std::string& path,
                                               const std::string& words) {
  const Expected<ClipSource> plain = read_clip(unmarked(marked), kFile);
  if (!plain.ok()) return ::testing::AssertionFailure() << "invalid without a skeleton: " << plain.error().to_string();
  const SkeletonSource skeleton = test_skeleton();
  return fails(marked, path, words, &skeleton);
}

std::string bone_timeline(const std::string& kind, const std::string& timeline) {
  return clip(",\n  \"bones\": {\n    \"hip\": {\n      \"" + kind + "\": " + timeline + "\n    }\n  }");
}

std::string slot_timeline(const std::string& kind, const std::string& timeline) {
  return clip(",\n  \"slots\": {\n    \"a\": {\n      \"" + kind + "\": " + timeline + "\n    }\n  }");
}

// True when `message` starts with "bad.manim:<line>:<column>: " for some column >= 1 (syntax errors
// take their column from the JSON parser).
bool starts_at_line(const std::string& message, int line) {
  const std::string prefix = kFile + ":" + std::to_string(line) + ":";
  if (message.rfind(prefix, 0) != 0) return false;
  std::size_t i = prefix.size();
  const std::size_t digits = i;
  while (i < message.size() && std::isdigit(static_cast<unsigned char>(message[i]))) ++i;
  return i > digits && message[digits] != '0' && message.compare(i, 2, ": ") == 0;
}

// ---- syntax -----------------------------------------------------------------------------------

TEST(ClipFormatErrors, SyntaxErrorGivesLineAndColumn) {
  const std::string text = "{\n  \"format\": 1\n  \"uid\": \"anm_0123456789ab\"\n}\n";  // missing comma
  const Expected<ClipSource> result = read_clip(text, kFile);
  ASSERT_FALSE(result.ok());
  const std::string message = result.error().to_string();
  EXPECT_TRUE(starts_at_line(message, 3)) << message;
  EXPECT_NE(message.find("syntax error"), std::string::npos) << message;
}

TEST(ClipFormatErrors, TruncatedFileIsAnErrorAtEveryOffset) {
  Expected<std::string> text = read_file(std::string(MF_TEST_DATA_DIR) + "/manim/rich.manim");
  ASSERT_TRUE(text.ok());
  ASSERT_GT(text->size(), 1000u);
  // Every prefix that stops before the closing brace.
  const std::size_t end = text->rfind('}');
  for (std::size_t n = 0; n < end; ++n) {
    const Expected<ClipSource> result = read_clip(std::string_view(*text).substr(0, n), kFile);
    ASSERT_FALSE(result.ok()) << "prefix of " << n << " bytes was accepted";
    const Error& e = result.error();
    ASSERT_EQ(e.file, kFile);
    ASSERT_TRUE(e.position.known() && e.position.column > 0) << e.to_string();
  }
}

TEST(ClipFormatErrors, InvalidUtf8) {
  const Expected<ClipSource> result = read_clip(clip(",\n  \"events\": { \"t\": [0], \"v\": [{ \"name\": \"a\xff\" }] }"), kFile);
  ASSERT_FALSE(result.ok());
  const std::string message = result.error().to_string();
  EXPECT_TRUE(starts_at_line(message, 7)) << message;
  EXPECT_NE(message.find("UTF-8"), std::string::npos) << message;
}

TEST(ClipFormatErrors, DuplicateKey) {
  EXPECT_TRUE(fails(clip(",\n  \"bones\": { \"hip\": {}, @\"hip\": {} }"), "", "duplicate key \"hip\""));
}

// ---- types and keys ---------------------------------------------------------------------------

TEST(ClipFormatErrors, RootMustBeAnObject) { EXPECT_TRUE(fails("@[1, 2]", "", "expected an object")); }

TEST(ClipFormatErrors, WrongTypes) {
  EXPECT_TRUE(fails(header_with("length", "@\"2\""), "length", "expected a number, found a string"));
  EXPECT_TRUE(fails(clip(",\n  \"bones\": @[]"), "bones", "expected an object, found an array"));
  EXPECT_TRUE(fails(clip(",\n  \"bones\": { \"hip\": @7 }"), "bones.hip", "expected an object, found an integer"));
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": [0], \"v\": [@\"10\"] }"), "bones.hip.rotate.v[0]",
                    "expected a number, found a string"));
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": @0, \"v\": [0] }"), "bones.hip.rotate.t",
                    "expected an array, found an integer"));
  EXPECT_TRUE(fails(bone_timeline("translate", "{ \"t\": [0], \"v\": [@3] }"), "bones.hip.translate.v[0]",
                    "expected [x, y], found an integer"));
  EXPECT_TRUE(fails(bone_timeline("scale", "{ \"t\": [0], \"v\": [@[1, 2, 3]] }"), "bones.hip.scale.v[0]",
                    "expected [sx, sy], found an array of 3 entries"));
  EXPECT_TRUE(fails(slot_timeline("attachment", "{ \"t\": [0], \"v\": [@5] }"), "slots.a.attachment.v[0]",
                    "expected an attachment name or null, found an integer"));
  EXPECT_TRUE(fails(slot_timeline("attachment", "{ \"t\": [0], \"v\": [@\"\"] }"), "slots.a.attachment.v[0]",
                    "must not be empty"));
  EXPECT_TRUE(fails(clip(",\n  \"deform\": { \"s\": { \"a\": { \"m\": { \"t\": [0], \"offset\": [0], \"v\": [[@\"x\"]] } } } }"),
                    "deform.s.a.m.v[0][0]", "expected a number, found a string"));
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0], \"v\": [@\"step\"] }"), "events.v[0]",
                    "expected an object, found a string"));
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0], \"v\": [{ \"name\": \"e\", \"int\": @1.5 }] }"),
                    "events.v[0].int", "expected an integer, found a number"));
  EXPECT_TRUE(fails(clip(",\n  \"ik\": { \"aim\": { \"t\": [0], \"compress\": [@1] } }"), "ik.aim.compress[0]",
                    "expected true or false, found an integer"));
}

TEST(ClipFormatErrors, UnknownKeys) {
  EXPECT_TRUE(fails(clip(",\n  \"colour\": @1"), "colour", "unknown key \"colour\""));
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": [0], \"v\": [0], \"ease\": @1 }"), "bones.hip.rotate.ease",
                    "unknown key \"ease\""));
  EXPECT_TRUE(fails(bone_timeline("inherit", "{ \"t\": [0, 1], \"v\": [\"Normal\", \"NoScale\"], \"curve\": @[\"linear\"] }"),
                    "bones.hip.inherit.curve", "unknown key \"curve\""));
  EXPECT_TRUE(fails(slot_timeline("sequence", "{ \"t\": [0], \"v\": [{ \"frame\": @2 }] }"), "slots.a.sequence.v[0].frame",
                    "unknown key \"frame\""));
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0], \"v\": [{ \"name\": \"e\", \"audio\": @\"x.ogg\" }] }"),
                    "events.v[0].audio", "unknown key \"audio\""));
  EXPECT_TRUE(fails(clip(",\n  \"ik\": { \"aim\": { \"t\": [0], \"v\": @[1] } }"), "ik.aim.v", "unknown key \"v\""));
  EXPECT_TRUE(fails(clip(",\n  \"physics\": { \"hair\": { \"reset\": { \"t\": [0], \"v\": @[1] } } }"),
                    "physics.hair.reset.v", "unknown key \"v\""));
  EXPECT_TRUE(fails(header_with("skeleton", "{ \"uid\": \"skl_00aa11bb22cc\", \"path\": \"\", \"name\": @\"x\" }"),
                    "skeleton.name", "unknown key \"name\""));
}

TEST(ClipFormatErrors, UnknownTimelineKinds) {
  EXPECT_TRUE(fails(bone_timeline("spin", "@{ \"t\": [0], \"v\": [0] }"), "bones.hip.spin",
                    "unknown bone timeline \"spin\"; known: rotate, translate, translateX, translateY, scale, scaleX, "
                    "scaleY, shear, shearX, shearY, inherit"));
  EXPECT_TRUE(fails(slot_timeline("color", "@{ \"t\": [0], \"v\": [\"#ffffffff\"] }"), "slots.a.color",
                    "unknown slot timeline \"color\"; known: attachment, rgba, rgb, alpha, rgba2, rgb2, sequence"));
  EXPECT_TRUE(fails(clip(",\n  \"physics\": { \"hair\": { \"spring\": @{ \"t\": [0], \"v\": [0] } } }"),
                    "physics.hair.spring",
                    "unknown physics timeline \"spring\"; known: inertia, strength, damping, mass, wind, gravity, mix, reset"));
}

TEST(ClipFormatErrors, MissingRequiredKeys) {
  EXPECT_TRUE(fails("@{ \"format\": 1, \"uid\": \"anm_0123456789ab\", \"type\": \"SkeletonClip\", "
                    "\"skeleton\": { \"uid\": \"skl_00aa11bb22cc\" } }",
                    "", "missing required key \"length\""));
  EXPECT_TRUE(fails("@{ \"uid\": \"anm_0123456789ab\" }", "", "missing required key \"format\""));
  EXPECT_TRUE(fails("{ \"format\": 1, \"uid\": \"anm_0123456789ab\", \"type\": \"SkeletonClip\", \"skeleton\": @{}, "
                    "\"length\": 1 }",
                    "skeleton", "missing required key \"uid\""));
  EXPECT_TRUE(fails(bone_timeline("rotate", "@{ \"t\": [0] }"), "bones.hip.rotate", "missing required key \"v\""));
  EXPECT_TRUE(fails(bone_timeline("rotate", "@{ \"v\": [0] }"), "bones.hip.rotate", "missing required key \"t\""));
  EXPECT_TRUE(fails(clip(",\n  \"deform\": { \"s\": { \"a\": { \"m\": @{ \"t\": [0], \"v\": [[]] } } } }"), "deform.s.a.m",
                    "missing required key \"offset\""));
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0], \"v\": [@{ \"int\": 1 }] }"), "events.v[0]",
                    "missing required key \"name\""));
  EXPECT_TRUE(fails(clip(",\n  \"drawOrder\": @{ \"t\": [0] }"), "drawOrder", "missing required key \"v\""));
}

// ---- header values ----------------------------------------------------------------------------

TEST(ClipFormatErrors, UnsupportedFormatVersion) {
  EXPECT_TRUE(fails(header_with("format", "@2"), "format", "unsupported format version 2; this build reads 1"));
  EXPECT_TRUE(fails(header_with("format", "@\"1\""), "format", "expected an integer, found a string"));
}

TEST(ClipFormatErrors, WrongDocumentType) {
  EXPECT_TRUE(fails(header_with("type", "@\"Skeleton\""), "type", "expected type \"SkeletonClip\", found \"Skeleton\""));
}

TEST(ClipFormatErrors, MalformedUids) {
  EXPECT_TRUE(fails(header_with("uid", "@\"anm_12345\""), "uid", "malformed uid \"anm_12345\""));
  EXPECT_TRUE(fails(header_with("uid", "@\"anm_0123456789AB\""), "uid", "malformed uid"));
  EXPECT_TRUE(fails(header_with("uid", "@\"skl_0123456789ab\""), "uid", "expected \"anm_\""));
  EXPECT_TRUE(fails(header_with("skeleton", "{ \"uid\": @\"anm_0123456789ab\" }"), "skeleton.uid", "expected \"skl_\""));
}

TEST(ClipFormatErrors, BadHeaderValues) {
  EXPECT_TRUE(fails(header_with("length", "@-1"), "length", "length must be >= 0"));
  EXPECT_TRUE(fails(clip(",\n  \"fps\": @0"), "fps", "expected an integer from 1"));
  EXPECT_TRUE(fails(clip(",\n  \"loop\": @\"Bounce\""), "loop", "unknown loop mode \"Bounce\"; expected None, Linear or PingPong"));
}

TEST(ClipFormatErrors, EmptyNames) {
  EXPECT_TRUE(fails(clip(",\n  \"bones\": { \"\": @{} }"), "bones[\"\"]", "bone name must not be empty"));
  EXPECT_TRUE(fails(clip(",\n  \"deform\": { \"s\": { \"a\": { \"\": @{} } } }"), "deform.s.a[\"\"]",
                    "attachment name must not be empty"));
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0], \"v\": [{ \"name\": @\"\" }] }"), "events.v[0].name",
                    "must not be empty"));
}

// ---- times ------------------------------------------------------------------------------------

TEST(ClipFormatErrors, NegativeTime) {
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": [@-0.5, 1], \"v\": [0, 1] }"), "bones.hip.rotate.t[0]",
                    "key time must be >= 0, found -0.5"));
}

TEST(ClipFormatErrors, DecreasingTime) {
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": [0, 1, @0.5], \"v\": [0, 1, 2] }"), "bones.hip.rotate.t[2]",
                    "key time 0.5 is not after the previous key's 1"));
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0, 1, @0.5], \"v\": [{ \"name\": \"e\" }, { \"name\": \"e\" }, { \"name\": \"e\" }] }"),
                    "events.t[2]", "key time 0.5 is before the previous key's 1"));
}

TEST(ClipFormatErrors, DuplicateTime) {
  EXPECT_TRUE(fails(slot_timeline("alpha", "{ \"t\": [0, 0.5, @0.5], \"v\": [0, 1, 1] }"), "slots.a.alpha.t[2]",
                    "key time 0.5 is not after the previous key's 0.5"));
  EXPECT_TRUE(fails(clip(",\n  \"drawOrder\": { \"t\": [1, @1], \"v\": [[], []] }"), "drawOrder.t[1]", "is not after"));
  // Events may share a time.
  EXPECT_TRUE(read_clip(clip(",\n  \"events\": { \"t\": [1, 1], \"v\": [{ \"name\": \"a\" }, { \"name\": \"b\" }] }"), kFile).ok());
}

TEST(ClipFormatErrors, TimelineWithoutKeys) {
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": @[], \"v\": [] }"), "bones.hip.rotate.t",
                    "a timeline needs at least one key"));
  EXPECT_TRUE(fails(clip(",\n  \"physics\": { \"hair\": { \"reset\": { \"t\": @[] } } }"), "physics.hair.reset.t",
                    "at least one key"));
}

// ---- lengths ----------------------------------------------------------------------------------

TEST(ClipFormatErrors, TimesAndValuesMismatch) {
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": [0, 1], \"v\": @[0] }"), "bones.hip.rotate.v",
                    "has 1 values but \"t\" has 2 keys"));
  EXPECT_TRUE(fails(clip(",\n  \"ik\": { \"aim\": { \"t\": [0, 1], \"mix\": [0, 1], \"softness\": @[0, 1, 2] } }"),
                    "ik.aim.softness", "has 3 values but \"t\" has 2 keys"));
  EXPECT_TRUE(fails(clip(",\n  \"deform\": { \"s\": { \"a\": { \"m\": { \"t\": [0, 1], \"offset\": @[0], \"v\": [[], []] } } } }"),
                    "deform.s.a.m.offset", "has 1 offsets but \"t\" has 2 keys"));
  EXPECT_TRUE(fails(clip(",\n  \"drawOrder\": { \"t\": [0, 1], \"v\": @[[]] }"), "drawOrder.v", "has 1 keys but \"t\" has 2"));
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0], \"v\": @[] }"), "events.v", "has 0 events but \"t\" has 1 keys"));
}

TEST(ClipFormatErrors, CurveCountMismatch) {
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": [0, 1, 2], \"v\": [0, 1, 2], \"curve\": @[\"stepped\"] }"),
                    "bones.hip.rotate.curve", "has 1 curves but the 3 keys make 2 segments"));
  EXPECT_TRUE(fails(bone_timeline("rotate", "{ \"t\": [0], \"v\": [0], \"curve\": @[\"stepped\"] }"),
                    "bones.hip.rotate.curve", "has 1 curves but the 1 keys make 0 segments"));
}

TEST(ClipFormatErrors, PerComponentCurveCountMismatch) {
  EXPECT_TRUE(fails(bone_timeline("translate", "{ \"t\": [0, 1], \"v\": [[0, 0], [1, 1]], \"curve\": [@[\"linear\", \"stepped\", \"linear\"]] }"),
                    "bones.hip.translate.curve[0]", "one curve per interpolated property keyed (2), found 3"));
  // ik with only mix keyed has one interpolated property.
  EXPECT_TRUE(fails(clip(",\n  \"ik\": { \"aim\": { \"t\": [0, 1], \"mix\": [0, 1], \"curve\": [@[\"linear\", \"stepped\"]] } }"),
                    "ik.aim.curve[0]", "(1), found 2"));
}

TEST(ClipFormatErrors, CurveWithoutInterpolatedProperty) {
  EXPECT_TRUE(fails(clip(",\n  \"ik\": { \"aim\": { \"t\": [0, 1], \"bend\": [1, -1], \"curve\": @[\"stepped\"] } }"),
                    "ik.aim.curve", "no interpolated property is keyed"));
}

TEST(ClipFormatErrors, MalformedCurves) {
  const auto rotate = [](const std::string& curve) {
    return bone_timeline("rotate", "{ \"t\": [0, 1], \"v\": [0, 1], \"curve\": [" + curve + "] }");
  };
  EXPECT_TRUE(fails(rotate("@[0.25, 0, 0.75]"), "bones.hip.rotate.curve[0]",
                    "a bezier curve is [cx1, cy1, cx2, cy2], found an array of 3 entries"));
  EXPECT_TRUE(fails(rotate("[0.25, 0, @\"x\", 1]"), "bones.hip.rotate.curve[0][2]", "expected a number, found a string"));
  EXPECT_TRUE(fails(rotate("@\"ease\""), "bones.hip.rotate.curve[0]", "unknown curve \"ease\""));
  EXPECT_TRUE(fails(rotate("@{}"), "bones.hip.rotate.curve[0]", "expected a curve"));
  EXPECT_TRUE(fails(rotate("@[]"), "bones.hip.rotate.curve[0]", "found an array of 0 entries"));
  EXPECT_TRUE(fails(rotate("[0.25, 0, 0.75, @1e39]"), "bones.hip.rotate.curve[0][3]", "number out of range"));
  EXPECT_TRUE(fails(rotate("[@[0.25, 0, 0.75, 1, 1]]"), "bones.hip.rotate.curve[0][0]", "found an array of 5 entries"));
}

// ---- values -----------------------------------------------------------------------------------

TEST(ClipFormatErrors, BadColours) {
  EXPECT_TRUE(fails(slot_timeline("rgba", "{ \"t\": [0], \"v\": [@\"#ff00\"] }"), "slots.a.rgba.v[0]",
                    "expected a colour \"#rrggbbaa\" or \"#rrggbb\", found \"#ff00\""));
  EXPECT_TRUE(fails(slot_timeline("rgba", "{ \"t\": [0], \"v\": [@\"#gg0000ff\"] }"), "slots.a.rgba.v[0]",
                    "expected a colour"));
  EXPECT_TRUE(fails(slot_timeline("rgb", "{ \"t\": [0], \"v\": [@\"#ff0000ff\"] }"), "slots.a.rgb.v[0]",
                    "expected a colour \"#rrggbb\""));
  EXPECT_TRUE(fails(slot_timeline("rgba2", "{ \"t\": [0], \"v\": [[\"#ffffffff\", @\"#000000ff\"]] }"),
                    "slots.a.rgba2.v[0][1]", "expected a colour \"#rrggbb\""));
  EXPECT_TRUE(fails(slot_timeline("rgba2", "{ \"t\": [0], \"v\": [@\"#ffffffff\"] }"), "slots.a.rgba2.v[0]",
                    "expected [\"#rrggbbaa\", \"#rrggbb\"] (light, dark), found a string"));
  EXPECT_TRUE(fails(slot_timeline("rgb2", "{ \"t\": [0], \"v\": [@[\"#ffffff\"]] }"), "slots.a.rgb2.v[0]",
                    "found an array of 1 entries"));
  EXPECT_TRUE(fails(slot_timeline("alpha", "{ \"t\": [0], \"v\": [@1.5] }"), "slots.a.alpha.v[0]",
                    "alpha must be from 0 to 1, found 1.5"));
}

TEST(ClipFormatErrors, BadSequenceKeys) {
  EXPECT_TRUE(fails(slot_timeline("sequence", "{ \"t\": [0], \"v\": [{ \"mode\": @\"bounce\" }] }"),
                    "slots.a.sequence.v[0].mode", "unknown sequence mode \"bounce\"; expected hold, once, loop"));
  EXPECT_TRUE(fails(slot_timeline("sequence", "{ \"t\": [0], \"v\": [{ \"index\": @-1 }] }"),
                    "slots.a.sequence.v[0].index", "expected an integer from 0"));
  EXPECT_TRUE(fails(slot_timeline("sequence", "{ \"t\": [0], \"v\": [{ \"delay\": @-0.1 }] }"),
                    "slots.a.sequence.v[0].delay", "delay must be >= 0"));
}

TEST(ClipFormatErrors, BadInheritMode) {
  EXPECT_TRUE(fails(bone_timeline("inherit", "{ \"t\": [0], \"v\": [@\"noScale\"] }"), "bones.hip.inherit.v[0]",
                    "unknown inherit mode \"noScale\""));
}

TEST(ClipFormatErrors, IkValues) {
  EXPECT_TRUE(fails(clip(",\n  \"ik\": { \"aim\": { \"t\": [0, 1], \"bend\": [1, @0] } }"), "ik.aim.bend[1]",
                    "bend must be 1 or -1, found 0"));
  EXPECT_TRUE(fails(clip(",\n  \"ik\": { \"aim\": { \"t\": [0], \"bend\": [@1.0] } }"), "ik.aim.bend[0]",
                    "expected an integer"));
  EXPECT_TRUE(fails(clip(",\n  \"ik\": { \"aim\": @{ \"t\": [0, 1] } }"), "ik.aim",
                    "keys none of its properties; give at least one of mix, softness, bend, compress, stretch"));
  EXPECT_TRUE(fails(clip(",\n  \"transform\": { \"follow\": @{ \"t\": [0] } }"), "transform.follow",
                    "mixRotate, mixX, mixY, mixScaleX, mixScaleY, mixShearY"));
}

TEST(ClipFormatErrors, EventPayloadRanges) {
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0], \"v\": [{ \"name\": \"e\", \"volume\": @2 }] }"), "events.v[0].volume",
                    "volume must be from 0 to 1, found 2"));
  EXPECT_TRUE(fails(clip(",\n  \"events\": { \"t\": [0], \"v\": [{ \"name\": \"e\", \"balance\": @-1.5 }] }"),
                    "events.v[0].balance", "balance must be from -1 to 1, found -1.5"));
}

TEST(ClipFormatErrors, BadDeformOffset) {
  EXPECT_TRUE(fails(clip(",\n  \"deform\": { \"s\": { \"a\": { \"m\": { \"t\": [0], \"offset\": [@-2], \"v\": [[1]] } } } }"),
                    "deform.s.a.m.offset[0]", "expected an integer from 0"));
}

TEST(ClipFormatErrors, MalformedDrawOrderMoves) {
  EXPECT_TRUE(fails(clip(",\n  \"drawOrder\": { \"t\": [0], \"v\": [[@[\"a\"]]] }"), "drawOrder.v[0][0]",
                    "expected a move [slot, offset], found an array of 1 entries"));
  EXPECT_TRUE(fails(clip(",\n  \"drawOrder\": { \"t\": [0], \"v\": [[@\"a\"]] }"), "drawOrder.v[0][0]",
                    "expected a move [slot, offset], found a string"));
  EXPECT_TRUE(fails(clip(",\n  \"drawOrder\": { \"t\": [0], \"v\": [[[\"a\", @0.5]]] }"), "drawOrder.v[0][0][1]",
                    "expected an integer"));
  EXPECT_TRUE(fails(clip(",\n  \"drawOrder\": { \"t\": [0], \"v\": [@{}] }"), "drawOrder.v[0]", "expected an array"));
}

// ---- against a skeleton -----------------------------------------------------------------------

TEST(ClipFormatErrors, UnknownBone) {
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"bones\": { \"ghost\": @{ \"rotate\": { \"t\": [0], \"v\": [0] } } }"),
                                  "bones.ghost", "unknown bone \"ghost\""));
}

TEST(ClipFormatErrors, UnknownSlot) {
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"slots\": { \"ghost\": @{ \"alpha\": { \"t\": [0], \"v\": [0] } } }"),
                                  "slots.ghost", "unknown slot \"ghost\""));
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"deform\": { \"default\": { \"ghost\": @{ \"mesh\": { \"t\": [0], \"offset\": [0], \"v\": [[]] } } } }"),
                                  "deform.default.ghost", "unknown slot \"ghost\""));
}

TEST(ClipFormatErrors, UnknownConstraint) {
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"ik\": { \"ghost\": @{ \"t\": [0], \"mix\": [0] } }"), "ik.ghost",
                                  "unknown ik constraint \"ghost\""));
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"physics\": { \"ghost\": @{ \"reset\": { \"t\": [0] } } }"), "physics.ghost",
                                  "unknown physics constraint \"ghost\""));
}

// Names are unique per kind only, so a name of another kind is unknown in this one; the message says
// which kind has it.
TEST(ClipFormatErrors, ConstraintOfTheWrongKind) {
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"ik\": { \"follow\": @{ \"t\": [0], \"mix\": [0] } }"), "ik.follow",
                                  "unknown ik constraint \"follow\" (there is a transform constraint of that name)"));
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"path\": { \"aim\": @{ \"t\": [0], \"position\": [0] } }"), "path.aim",
                                  "unknown path constraint \"aim\" (there is an ik constraint of that name)"));
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"physics\": { \"rail\": @{ \"mix\": { \"t\": [0], \"v\": [0] } } }"),
                                  "physics.rail", "unknown physics constraint \"rail\" (there is a path constraint"));
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"transform\": { \"hair\": @{ \"t\": [0], \"mixX\": [0] } }"),
                                  "transform.hair", "unknown transform constraint \"hair\" (there is a physics constraint"));
}

TEST(ClipFormatErrors, UnknownSkin) {
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"deform\": { \"ghost\": @{ \"a\": { \"mesh\": { \"t\": [0], \"offset\": [0], \"v\": [[]] } } } }"),
                                  "deform.ghost", "unknown skin \"ghost\""));
}

TEST(ClipFormatErrors, UnknownAttachment) {
  // In the attachment timeline: no skin has it for that slot (slot "b" has only "mesh").
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"slots\": { \"b\": { \"attachment\": { \"t\": [0, 1], \"v\": [\"mesh\", @\"region\"] } } }"),
                                  "slots.b.attachment.v[1]", "no skin has an attachment \"region\" for slot \"b\""));
  // In a deform timeline: the skin must have it for that slot.
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"deform\": { \"other\": { \"a\": { \"mesh\": @{ \"t\": [0], \"offset\": [0], \"v\": [[]] } } } }"),
                                  "deform.other.a.mesh", "skin \"other\" has no attachment \"mesh\" for slot \"a\""));
}

TEST(ClipFormatErrors, UnknownEvent) {
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"events\": { \"t\": [0, 1], \"v\": [{ \"name\": \"step\" }, { \"name\": @\"jump\" }] }"),
                                  "events.v[1].name", "unknown event \"jump\""));
}

TEST(ClipFormatErrors, DeformPastTheVertexCount) {
  // "mesh" has 3 unweighted vertices: 6 floats.
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"deform\": { \"default\": { \"a\": { \"mesh\": { \"t\": [0, 1], \"offset\": [0, 4], \"v\": [[1, 2, 3, 4, 5, 6], @[1, 2, 3]] } } } }"),
                                  "deform.default.a.mesh.v[1]", "offset 4 + 3 values pass the 6 vertex floats of \"mesh\""));
  // "weighted" has 3 vertices with 4 influences: 8 floats, not 6.
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"deform\": { \"default\": { \"a\": { \"weighted\": { \"t\": [0], \"offset\": [7], \"v\": [@[1, 2]] } } } }"),
                                  "deform.default.a.weighted.v[0]", "offset 7 + 2 values pass the 8 vertex floats"));
}

TEST(ClipFormatErrors, DeformOnANonVertexAttachment) {
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"deform\": { \"default\": { \"a\": { \"region\": @{ \"t\": [0], \"offset\": [0], \"v\": [[]] } } } }"),
                                  "deform.default.a.region", "deform needs a vertex attachment (Mesh, LinkedMesh, BoundingBox, Clipping or Path), but \"region\" is a Region"));
  EXPECT_TRUE(fails_with_skeleton(clip(",\n  \"deform\": { \"default\": { \"a\": { \"frozen\": @{ \"t\": [0], \"offset\": [0], \"v\": [[]] } } } }"),
                                  "deform.default.a.frozen", "linked mesh \"frozen\" does not share deform keys"));
}

std::string draw_order(const std::string& key) {
  return clip(",\n  \"drawOrder\": { \"t\": [0, 1], \"v\": [[], [" + key + "]] }");
}

TEST(ClipFormatErrors, InvalidDrawOrders) {
  // Setup order: a b c d.
  EXPECT_TRUE(fails_with_skeleton(draw_order("[@\"ghost\", 1]"), "drawOrder.v[1][0][0]", "unknown slot \"ghost\""));
  EXPECT_TRUE(fails_with_skeleton(draw_order("[\"b\", 1], @[\"b\", 2]"), "drawOrder.v[1][1]",
                                  "slot \"b\" moves twice in one key"));
  EXPECT_TRUE(fails_with_skeleton(draw_order("@[\"c\", 2]"), "drawOrder.v[1][0]",
                                  "moves slot \"c\" to place 4, outside the draw order of 4 slots"));
  EXPECT_TRUE(fails_with_skeleton(draw_order("@[\"a\", -1]"), "drawOrder.v[1][0]", "to place -1, outside"));
  EXPECT_TRUE(fails_with_skeleton(draw_order("[\"a\", 2], @[\"d\", -1]"), "drawOrder.v[1][1]",
                                  "slots \"a\" and \"d\" both move to place 2"));
}

}  // namespace
}  // namespace mf::offline
