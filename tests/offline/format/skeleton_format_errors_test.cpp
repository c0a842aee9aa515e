// The `.mskel` reader on bad input: every kind of problem is an error naming the file, the JSON path
// and the line:column of the offending value, never a crash or a silent default.
//
// Most cases edit one spot of tests/data/mskel/errors_base.mskel, a small valid rig that uses every
// kind of reference.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::offline {
namespace {

constexpr const char* kFile = "rig.mskel";

std::string data_path(const std::string& name) { return std::string(MF_TEST_DATA_DIR) + "/mskel/" + name; }

std::string load(const std::string& name) {
  auto text = read_file(data_path(name));
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().to_string());
  return text.ok() ? *text : std::string();
}

const std::string& base() {
  static const std::string text = load("errors_base.mskel");
  return text;
}

// `text` with its one occurrence of `from` replaced by `to`.
std::string edit(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "not in the text: " << from;
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "more than once in the text: " << from;
  text.replace(at, from.size(), to);
  return text;
}

std::string edit(std::string_view from, std::string_view to) { return edit(base(), from, to); }

// The 1-based line and byte column where `marker` first occurs in `text`.
TextPosition position_of(std::string_view text, std::string_view marker) {
  const auto at = text.find(marker);
  EXPECT_NE(at, std::string::npos) << "marker not in the text: " << marker;
  if (at == std::string::npos) return {};
  TextPosition p{1, 1};
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

Error read_error(std::string_view text) {
  auto s = read_skeleton(text, kFile);
  EXPECT_FALSE(s.ok()) << "the text was accepted";
  return s.ok() ? Error{} : s.error();
}

// The reader rejects `text` with an error at JSON path `path` whose message contains `words`. With a
// `marker`, the error's line:column is where `marker` first occurs in `text` (the offending value).
void expect_error(const std::string& text, const std::string& path, const std::string& words,
                  std::string_view marker = {}) {
  const Error e = read_error(text);
  EXPECT_EQ(e.file, kFile);
  EXPECT_EQ(e.path, path) << e.to_string();
  EXPECT_NE(e.message.find(words), std::string::npos) << "message: " << e.message << "\nexpected: " << words;
  EXPECT_TRUE(e.position.known()) << e.to_string();
  if (!marker.empty()) {
    const TextPosition want = position_of(text, marker);
    EXPECT_EQ(e.position.line, want.line) << e.to_string();
    EXPECT_EQ(e.position.column, want.column) << e.to_string();
  }
  // The printed form carries all of it.
  const std::string printed = e.to_string();
  EXPECT_EQ(printed.rfind(std::string(kFile) + ":" + std::to_string(e.position.line) + ":", 0), 0u) << printed;
  if (!path.empty()) {
    EXPECT_NE(printed.find(": " + path + ": "), std::string::npos) << printed;
  }
}

// A syntax error: no JSON path, and the line the parser stopped on.
void expect_syntax_error(const std::string& text, int line, const std::string& words) {
  const Error e = read_error(text);
  EXPECT_EQ(e.file, kFile);
  EXPECT_TRUE(e.path.empty()) << e.to_string();
  EXPECT_EQ(e.position.line, line) << e.to_string();
  EXPECT_GT(e.position.column, 0) << e.to_string();
  EXPECT_NE(e.message.find(words), std::string::npos) << "message: " << e.message << "\nexpected: " << words;
}

#define EXPECT_MSKEL_ERROR(...)                     \
  do {                                              \
    SCOPED_TRACE("expect_error(" #__VA_ARGS__ ")"); \
    expect_error(__VA_ARGS__);                      \
  } while (0)

#define EXPECT_MSKEL_SYNTAX_ERROR(...)                     \
  do {                                                     \
    SCOPED_TRACE("expect_syntax_error(" #__VA_ARGS__ ")"); \
    expect_syntax_error(__VA_ARGS__);                      \
  } while (0)

constexpr const char* kImportLine =
    "\"import\": { \"images\": \"images/\", \"pageSize\": 2048, \"padding\": 2, \"scale\": 1, \"filter\": \"Linear\", "
    "\"mipmaps\": false, \"normalSuffix\": \"_n\" }";
constexpr const char* kMeshPath = "skins[0].attachments[1]";
constexpr const char* kWeightsPath = "skins[0].attachments[1].weights";

TEST(SkeletonFormatErrors, BaseFixtureIsValid) {
  auto s = read_skeleton(base(), kFile);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->bones.size(), 5u);
  EXPECT_EQ(s->skins.size(), 2u);
  // Canonical but for its orders: they are the default order, which the writer leaves out.
  std::string without_orders = base();
  for (const char* order : {"\"order\": 0, ", "\"order\": 1, ", "\"order\": 2, ", "\"order\": 3, "})
    without_orders = edit(without_orders, order, "");
  EXPECT_EQ(write_skeleton(*s), without_orders);
}

TEST(SkeletonFormatErrors, SyntaxErrors) {
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "\"fps\": 30,,"), 5, "unexpected ','");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "\"fps\": 30"), 6, "syntax error");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "fps: 30,"), 5, "syntax error");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "'fps': 30,"), 5, "syntax error");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("{ \"name\": \"head\" }\n", "{ \"name\": \"head\" },\n"), 10, "syntax error");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "\"fps\": 30, // editor rate"), 5, "syntax error");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "\"fps\": NaN,"), 5, "syntax error");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "\"fps\": 030,"), 5, "syntax error");
  const int lines = static_cast<int>(std::count(base().begin(), base().end(), '\n'));
  EXPECT_MSKEL_SYNTAX_ERROR(base() + "{}", lines + 1, "syntax error");
}

TEST(SkeletonFormatErrors, TruncatedFilesAreAlwaysErrors) {
  // Every cut of the small fixture; every seventh cut of the rich one, which has every attachment type.
  for (const auto& [name, step] : {std::pair{"errors_base.mskel", 1}, std::pair{"rich.mskel", 7}}) {
    const std::string text = load(name);
    const std::size_t end = text.rfind('}');  // any shorter prefix is incomplete
    ASSERT_NE(end, std::string::npos);
    for (std::size_t cut = 0; cut <= end; cut += static_cast<std::size_t>(step)) {
      auto s = read_skeleton(std::string_view(text).substr(0, cut), kFile);
      ASSERT_FALSE(s.ok()) << name << " cut at byte " << cut << " was accepted";
      EXPECT_EQ(s.error().file, kFile);
      EXPECT_TRUE(s.error().position.known()) << name << " cut at " << cut << ": " << s.error().to_string();
      EXPECT_FALSE(s.error().message.empty());
    }
  }
}

// Random byte damage must give a clean result either way: a skeleton or an error with a position.
TEST(SkeletonFormatErrors, DamagedBytesNeverCrash) {
  std::mt19937 rng(12345);
  const std::string text = base();
  const char bytes[] = {'{', '}', '[', ']', '"', ',', ':', '0', '9', '-', 'e', '.', ' ', '\\', '\xff', '\x01'};
  int rejected = 0;
  for (int round = 0; round < 1500; ++round) {
    std::string damaged = text;
    const int changes = 1 + static_cast<int>(rng() % 3);
    for (int c = 0; c < changes; ++c) damaged[rng() % damaged.size()] = bytes[rng() % sizeof bytes];
    auto s = read_skeleton(damaged, kFile);
    if (!s.ok()) {
      ++rejected;
      EXPECT_TRUE(s.error().position.known()) << s.error().to_string();
    }
  }
  EXPECT_GT(rejected, 1250);  // nearly every random change breaks something
}

TEST(SkeletonFormatErrors, EmptyFile) {
  for (const char* text : {"", "   \n\t\n"}) {
    const Error e = read_error(text);
    EXPECT_EQ(e.file, kFile);
    EXPECT_TRUE(e.position.known());
    EXPECT_FALSE(e.message.empty());
  }
  EXPECT_MSKEL_ERROR("null", "", "expected an object, found null", "null");
  EXPECT_MSKEL_ERROR("\n  []", "", "expected an object, found an array", "[]");
  EXPECT_MSKEL_ERROR("{}", "", "missing required key \"format\"", "{}");
}

TEST(SkeletonFormatErrors, WrongTypes) {
  EXPECT_MSKEL_ERROR(edit("\"fps\": 30", "\"fps\": \"30\""), "fps", "expected an integer, found a string", "\"30\"");
  EXPECT_MSKEL_ERROR(edit("\"fps\": 30", "\"fps\": 29.97"), "fps", "expected an integer, found a number", "29.97");
  EXPECT_MSKEL_ERROR(edit("\"y\": -40", "\"y\": \"-40\""), "bones[1].y", "expected a number, found a string",
                     "\"-40\"");
  EXPECT_MSKEL_ERROR(edit("\"y\": -40", "\"y\": null"), "bones[1].y", "expected a number, found null", "null");
  EXPECT_MSKEL_ERROR(edit("\"events\": [\n    { \"name\": \"step\" }\n  ],", "\"events\": { \"name\": \"step\" },"), "events",
                     "expected an array, found an object", "{ \"name\": \"step\" },");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"root\" }", "\"root\""), "bones[0]", "expected an object, found a string",
                     "\"root\"");
  EXPECT_MSKEL_ERROR(edit("\"bone\": \"hip\", \"attachment\": \"body\"", "\"bone\": 1, \"attachment\": \"body\""),
                     "slots[0].bone", "expected a string, found an integer", "1, \"attachment\": \"body\"");
  EXPECT_MSKEL_ERROR(edit("\"mipmaps\": false", "\"mipmaps\": 0"), "import.mipmaps", "expected true or false", "0, \"normalSuffix\"");
  EXPECT_MSKEL_ERROR(edit("[0, 1, 2, 0, 2, 3]", "[0, 1, 2.5, 0, 2, 3]"), std::string(kMeshPath) + ".triangles[2]",
                     "expected an integer, found a number", "2.5");
  EXPECT_MSKEL_ERROR(edit("[1, 1, 10, 10]", "[\"1\", 1, 10, 10]"), std::string(kWeightsPath) + ".v[2][0]",
                     "expected an integer, found a string", "\"1\"");
  EXPECT_MSKEL_ERROR(edit("\"count\": 4", "\"count\": 4.5"), "skins[0].attachments[0].sequence.count",
                     "expected an integer", "4.5");
  EXPECT_MSKEL_ERROR(edit(kImportLine, "\"import\": 7"), "import", "expected an object, found an integer", "7,");
  EXPECT_MSKEL_ERROR(edit("\"uvs\": [0, 0, 1, 0, 1, 1, 0, 1]", "\"uvs\": \"01\""), std::string(kMeshPath) + ".uvs",
                     "expected an array, found a string", "\"01\"");
}

TEST(SkeletonFormatErrors, MalformedImageRects) {
  const std::string_view body = "{ \"name\": \"body\" }";
  EXPECT_MSKEL_ERROR(edit(body, "{ \"name\": \"body\", \"rect\": [1, 2, 3] }"), "images[0].rect",
                     "expected [x, y, width, height]: 4 integers, found 3", "[1, 2, 3]");
  EXPECT_MSKEL_ERROR(edit(body, "{ \"name\": \"body\", \"rect\": [1, 2, -3, 4] }"), "images[0].rect[2]", "-3",
                     "-3, 4]");
  EXPECT_MSKEL_ERROR(edit(body, "{ \"name\": \"body\", \"rect\": [1.5, 2, 3, 4] }"), "images[0].rect[0]",
                     "expected an integer, found a number", "1.5");
  EXPECT_MSKEL_ERROR(edit(body, "{ \"name\": \"body\", \"rect\": \"0 0 1 1\" }"), "images[0].rect",
                     "expected an array, found a string", "\"0 0 1 1\"");
}

TEST(SkeletonFormatErrors, UnknownKeys) {
  EXPECT_MSKEL_ERROR(edit("\"fps\": 30,", "\"fps\": 30, \"bone\": [],"), "bone", "unknown key \"bone\"", "[],");
  EXPECT_MSKEL_ERROR(edit("\"y\": -40", "\"y\": -40, \"rotation\": 3"), "bones[1].rotation",
                     "unknown key \"rotation\"", "3 }");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"root\" }", "{ \"name\": \"root\", \"my key\": 1 }"), "bones[0][\"my key\"]",
                     "unknown key \"my key\"", "1 }");
  EXPECT_MSKEL_ERROR(edit("\"scale\": 1,", "\"scale\": 1, \"imageFolder\": \"x\","), "import.imageFolder",
                     "unknown key \"imageFolder\"", "\"x\"");
  EXPECT_MSKEL_ERROR(edit("{ \"count\": 4 }", "{ \"count\": 4, \"frames\": 4 }"),
                     "skins[0].attachments[0].sequence.frames", "unknown key \"frames\"", "4 } }");
  EXPECT_MSKEL_ERROR(edit("\"bones\": [\"hip\", \"thigh\"],", "\"bone\": [\"hip\", \"thigh\"],"), kWeightsPath,
                     "missing required key \"bones\"", "{\n            \"bone\"");
  // A key of another attachment type is unknown here.
  EXPECT_MSKEL_ERROR(edit("\"type\": \"Region\",", "\"type\": \"Region\", \"hull\": 3,"),
                     "skins[0].attachments[0].hull", "unknown key \"hull\"", "3, \"sequence\"");
  EXPECT_MSKEL_ERROR(edit("\"order\": 3, \"bone\": \"hip\"", "\"order\": 3, \"bone\": \"hip\", \"target\": \"hip\""),
                     "physics[0].target", "unknown key \"target\"", "\"hip\", \"x\"");
}

TEST(SkeletonFormatErrors, MissingRequiredKeys) {
  EXPECT_MSKEL_ERROR(edit("  \"format\": 1,\n", ""), "", "missing required key \"format\"", "{");
  EXPECT_MSKEL_ERROR(edit("  \"uid\": \"skl_0123456789ab\",\n", ""), "", "missing required key \"uid\"", "{");
  EXPECT_MSKEL_ERROR(edit("  \"type\": \"Skeleton\",\n", ""), "", "missing required key \"type\"", "{");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"root\" }", "{ }"), "bones[0]", "missing required key \"name\"", "{ }");
  EXPECT_MSKEL_ERROR(edit("\"bone\": \"hip\", \"attachment\": \"body\"", "\"attachment\": \"body\""), "slots[0]",
                     "missing required key \"bone\"", "{ \"name\": \"body\", \"attachment\"");
  EXPECT_MSKEL_ERROR(edit("\"bones\": [\"thigh\", \"shin\"], \"target\": \"target\"", "\"bones\": [\"thigh\", \"shin\"]"),
                     "ik[0]", "missing required key \"target\"", "{ \"name\": \"leg\"");
  EXPECT_MSKEL_ERROR(edit("\"hull\": 4,", ""), kMeshPath, "missing required key \"hull\"");
  EXPECT_MSKEL_ERROR(edit("\"triangles\": [0, 1, 2, 0, 2, 3],", ""), kMeshPath, "missing required key \"triangles\"");
  EXPECT_MSKEL_ERROR(edit("\"lengths\": [10],", ""), "skins[0].attachments[3]", "missing required key \"lengths\"");
  EXPECT_MSKEL_ERROR(edit("{ \"count\": 4 }", "{ \"setup\": 0 }"), "skins[0].attachments[0].sequence",
                     "missing required key \"count\"", "{ \"setup\"");
  EXPECT_MSKEL_ERROR(edit("{ \"slot\": \"body\", \"name\": \"body\", \"type\": \"Region\",",
                          "{ \"slot\": \"body\", \"name\": \"body\","),
                     "skins[0].attachments[0]", "missing required key \"type\"", "{ \"slot\": \"body\"");
  EXPECT_MSKEL_ERROR(edit("\"parent\": \"mesh\", \"skin\": \"default\"", "\"skin\": \"default\""),
                     "skins[1].attachments[0]", "missing required key \"parent\"", "{ \"slot\": \"mesh\", \"name\": \"linked\"");
}

TEST(SkeletonFormatErrors, UnsupportedFormatVersion) {
  EXPECT_MSKEL_ERROR(edit("\"format\": 1", "\"format\": 2"), "format", "unsupported format version 2", "2,");
  EXPECT_MSKEL_ERROR(edit("\"format\": 1", "\"format\": 0"), "format", "this build reads 1", "0,");
  // The version is checked before anything a newer version may have changed.
  EXPECT_MSKEL_ERROR(edit(edit("\"format\": 1", "\"format\": 2"), "\"fps\": 30,", "\"fps\": 30, \"future\": true,"),
                     "format", "unsupported format version 2", "2,");
  EXPECT_MSKEL_ERROR(edit("\"format\": 1", "\"format\": \"1\""), "format", "expected an integer", "\"1\"");
}

TEST(SkeletonFormatErrors, WrongType) {
  EXPECT_MSKEL_ERROR(edit("\"type\": \"Skeleton\"", "\"type\": \"SkeletonClip\""), "type",
                     "expected type \"Skeleton\", found \"SkeletonClip\"", "\"SkeletonClip\"");
  EXPECT_MSKEL_ERROR(edit("\"type\": \"Skeleton\"", "\"type\": \"skeleton\""), "type", "expected type \"Skeleton\"",
                     "\"skeleton\"");
  EXPECT_MSKEL_ERROR(edit("\"type\": \"Skeleton\"", "\"type\": 1"), "type", "expected a string", "1,\n  \"fps\"");
}

TEST(SkeletonFormatErrors, MalformedUid) {
  for (const char* uid : {"skl_0123456789AB", "skl_0123456789a", "skl_0123456789abc", "anm_0123456789ab",
                          "0123456789ab", "skl_01234567890g", ""}) {
    const std::string value = "\"" + std::string(uid) + "\"";
    EXPECT_MSKEL_ERROR(edit("\"skl_0123456789ab\"", value), "uid", "malformed uid \"" + std::string(uid) + "\"",
                       value + ",");
  }
}

TEST(SkeletonFormatErrors, DuplicateNames) {
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"target\"", "{ \"name\": \"hip\""), "bones[4].name",
                     "duplicate bone name \"hip\" (first at bones[1].name)", "\"hip\", \"parent\": \"root\", \"y\": 60");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"path\", \"bone\": \"root\" }", "{ \"name\": \"clip\", \"bone\": \"root\" }"),
                     "slots[3].name", "duplicate slot name \"clip\" (first at slots[2].name)",
                     "\"clip\", \"bone\": \"root\" }\n  ]");
  EXPECT_MSKEL_ERROR(edit("\"name\": \"alt\"", "\"name\": \"default\""), "skins[1].name",
                     "duplicate skin name \"default\"", "\"default\",\n      \"attachments\": [\n        { \"slot\": \"mesh\"");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"step\" }", "{ \"name\": \"step\" },\n    { \"name\": \"step\", \"int\": 1 }"),
                     "events[1].name", "duplicate event name \"step\" (first at events[0].name)", "\"step\", \"int\"");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"head\" }", "{ \"name\": \"body\" }"), "images[1].name",
                     "duplicate image name \"body\"", "\"body\" }\n  ],\n  \"bones\"");
  // Constraint names are unique within each kind (ConstraintNamesAreUniquePerKind below).
  // Attachment names are unique within one skin and slot.
  const std::string twice = edit("{ \"slot\": \"body\", \"name\": \"body\", \"type\": \"Region\",",
                                 "{ \"slot\": \"body\", \"name\": \"body\", \"type\": \"Point\" },\n"
                                 "        { \"slot\": \"body\", \"name\": \"body\", \"type\": \"Region\",");
  EXPECT_MSKEL_ERROR(twice, "skins[0].attachments[1].name",
                     "duplicate attachment \"body\" for slot \"body\" in this skin (first at skins[0].attachments[0].name)",
                     "\"body\", \"type\": \"Region\"");
}

TEST(SkeletonFormatErrors, NamesListedTwice) {
  EXPECT_MSKEL_ERROR(edit("\"bones\": [\"hip\", \"thigh\"]", "\"bones\": [\"hip\", \"hip\"]"),
                     std::string(kWeightsPath) + ".bones[1]", "bone \"hip\" is listed twice", "\"hip\"],\n            \"v\"");
  EXPECT_MSKEL_ERROR(edit("\"bones\": [\"shin\"]", "\"bones\": [\"shin\", \"shin\"]"), "transform[0].bones[1]",
                     "bone \"shin\" is listed twice", "\"shin\"], \"target\": \"hip\"");
  EXPECT_MSKEL_ERROR(edit("\"bones\": [\"hip\"],", "\"bones\": [\"hip\", \"hip\"],"), "skins[0].bones[1]",
                     "bone \"hip\" is listed twice", "\"hip\"],\n      \"physics\"");
  EXPECT_MSKEL_ERROR(edit("\"physics\": [\"wobble\"]", "\"physics\": [\"wobble\", \"wobble\"]"),
                     "skins[0].physics[1]", "physics constraint \"wobble\" is listed twice", "\"wobble\"],");
}

TEST(SkeletonFormatErrors, UnknownReferences) {
  EXPECT_MSKEL_ERROR(edit("\"bone\": \"hip\", \"attachment\": \"body\"", "\"bone\": \"hips\", \"attachment\": \"body\""),
                     "slots[0].bone", "unknown bone \"hips\"", "\"hips\"");
  EXPECT_MSKEL_ERROR(edit("\"attachment\": \"body\"", "\"attachment\": \"bodyy\""), "slots[0].attachment",
                     "unknown attachment \"bodyy\": no skin has it for slot \"body\"", "\"bodyy\"");
  // "body" exists, but only for slot "body".
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"clip\", \"bone\": \"root\" }",
                          "{ \"name\": \"clip\", \"bone\": \"root\", \"attachment\": \"body\" }"),
                     "slots[2].attachment", "unknown attachment \"body\"", "\"body\" },\n    { \"name\": \"path\"");
  EXPECT_MSKEL_ERROR(edit("[\"thigh\", \"shin\"]", "[\"thighs\", \"shin\"]"), "ik[0].bones[0]",
                     "unknown bone \"thighs\"", "\"thighs\"");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"target\"", "\"target\": \"nowhere\""), "ik[0].target",
                     "unknown bone \"nowhere\"", "\"nowhere\"");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"hip\"", "\"target\": \"hipbone\""), "transform[0].target",
                     "unknown bone \"hipbone\"", "\"hipbone\"");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"path\"", "\"target\": \"paths\""), "path[0].target",
                     "unknown slot \"paths\"", "\"paths\"");
  EXPECT_MSKEL_ERROR(edit("\"bone\": \"hip\", \"x\": 1", "\"bone\": \"nohip\", \"x\": 1"), "physics[0].bone",
                     "unknown bone \"nohip\"", "\"nohip\"");
  EXPECT_MSKEL_ERROR(edit("\"parent\": \"mesh\"", "\"parent\": \"meshes\""), "skins[1].attachments[0].parent",
                     "unknown parent mesh \"meshes\": skin \"default\" has no such attachment for slot \"mesh\"",
                     "\"meshes\"");
  EXPECT_MSKEL_ERROR(edit("\"skin\": \"default\"", "\"skin\": \"nope\""), "skins[1].attachments[0].skin",
                     "unknown skin \"nope\"", "\"nope\"");
  // Without "skin", the parent is looked up in the linked mesh's own skin.
  EXPECT_MSKEL_ERROR(edit(", \"skin\": \"default\" }", " }"), "skins[1].attachments[0].parent",
                     "skin \"alt\" has no such attachment", "\"mesh\" }\n      ]");
  EXPECT_MSKEL_ERROR(edit("\"end\": \"mesh\"", "\"end\": \"meshy\""), "skins[0].attachments[2].end",
                     "unknown slot \"meshy\"", "\"meshy\"");
  EXPECT_MSKEL_ERROR(edit("\"bones\": [\"hip\"],", "\"bones\": [\"hipp\"],"), "skins[0].bones[0]",
                     "unknown bone \"hipp\"", "\"hipp\"");
  EXPECT_MSKEL_ERROR(edit("\"physics\": [\"wobble\"]", "\"physics\": [\"wobbly\"]"), "skins[0].physics[0]",
                     "unknown physics constraint \"wobbly\"", "\"wobbly\"");
  EXPECT_MSKEL_ERROR(edit("[\"hip\", \"thigh\"]", "[\"hip\", \"thighs\"]"), std::string(kWeightsPath) + ".bones[1]",
                     "unknown bone \"thighs\"", "\"thighs\"");
  EXPECT_MSKEL_ERROR(edit("{ \"slot\": \"body\", \"name\": \"body\"", "{ \"slot\": \"torso\", \"name\": \"body\""),
                     "skins[0].attachments[0].slot", "unknown slot \"torso\"", "\"torso\"");
}

TEST(SkeletonFormatErrors, LinkedMeshParentMustBeAMesh) {
  const std::string text = edit("{ \"slot\": \"mesh\", \"name\": \"linked\", \"type\": \"LinkedMesh\", \"parent\": \"mesh\"",
                                "{ \"slot\": \"body\", \"name\": \"linked\", \"type\": \"LinkedMesh\", \"parent\": \"body\"");
  EXPECT_MSKEL_ERROR(text, "skins[1].attachments[0].parent", "is a Region attachment; a linked mesh's parent must be a Mesh",
                     "\"body\", \"skin\"");
}

TEST(SkeletonFormatErrors, ParentListedAfterChild) {
  EXPECT_MSKEL_ERROR(edit("\"parent\": \"root\", \"y\": -40", "\"parent\": \"thigh\", \"y\": -40"), "bones[1].parent",
                     "parent \"thigh\" is listed after this bone (at bones[2])", "\"thigh\", \"y\"");
  // The same through a file: the message names the file path.
  const std::string path = data_path("bad_parent_order.mskel");
  auto s = read_skeleton_file(path);
  ASSERT_FALSE(s.ok());
  const TextPosition at = position_of(load("bad_parent_order.mskel"), "\"thigh\", \"y\"");
  const std::string where = path + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
  EXPECT_EQ(s.error().to_string().rfind(where + ": bones[1].parent: parent \"thigh\" is listed after", 0), 0u)
      << s.error().to_string();
}

TEST(SkeletonFormatErrors, BoneIsItsOwnParent) {
  EXPECT_MSKEL_ERROR(edit("\"parent\": \"root\", \"y\": -40", "\"parent\": \"hip\", \"y\": -40"), "bones[1].parent",
                     "a bone cannot be its own parent", "\"hip\", \"y\"");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"root\" }", "{ \"name\": \"root\", \"parent\": \"root\" }"), "bones[0].parent",
                     "a bone cannot be its own parent", "\"root\" }");
}

TEST(SkeletonFormatErrors, TwoBoneIkSecondBoneMustBeChildOfFirst) {
  EXPECT_MSKEL_ERROR(edit("[\"thigh\", \"shin\"]", "[\"hip\", \"shin\"]"), "ik[0].bones[1]",
                     "the second bone \"shin\" must be a child of the first, \"hip\"", "\"shin\"], \"target\"");
  EXPECT_MSKEL_ERROR(edit("[\"thigh\", \"shin\"]", "[\"shin\", \"thigh\"]"), "ik[0].bones[1]",
                     "must be a child of the first", "\"thigh\"], \"target\"");
  EXPECT_MSKEL_ERROR(edit("[\"thigh\", \"shin\"]", "[\"thigh\", \"shin\", \"target\"]"), "ik[0].bones",
                     "expected 1 or 2 bones, found 3", "[\"thigh\"");
  EXPECT_MSKEL_ERROR(edit("[\"thigh\", \"shin\"]", "[]"), "ik[0].bones", "expected at least one bone", "[]");
}

TEST(SkeletonFormatErrors, IkTargetInsideItsOwnChain) {
  EXPECT_MSKEL_ERROR(edit("\"target\": \"target\"", "\"target\": \"shin\""), "ik[0].target",
                     "the target \"shin\" is inside its own chain", "\"shin\" }");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"target\"", "\"target\": \"thigh\""), "ik[0].target",
                     "is inside its own chain", "\"thigh\" }");
  // A descendant of the chain moves with it too.
  const std::string toe = edit("{ \"name\": \"target\", \"parent\": \"root\"", "{ \"name\": \"target\", \"parent\": \"shin\"");
  EXPECT_MSKEL_ERROR(toe, "ik[0].target", "is inside its own chain (\"thigh\" or one of its descendants)",
                     "\"target\" }");
  // A transform constraint's target may not be one of its bones.
  EXPECT_MSKEL_ERROR(edit("\"target\": \"hip\"", "\"target\": \"shin\""), "transform[0].target",
                     "the target \"shin\" is one of the constrained bones", "\"shin\" }");
}

TEST(SkeletonFormatErrors, MalformedWeights) {
  const std::string v = std::string(kWeightsPath) + ".v";
  EXPECT_MSKEL_ERROR(edit("[0, 1, 0, 0],", "[0, 1, 0],"), v + "[0]",
                     "expected 4 numbers per influence [bone, weight, x, y], found 3 numbers", "[0, 1, 0],");
  EXPECT_MSKEL_ERROR(edit("[0, 0.5, 10, 0, 1, 0.5, 0, 0]", "[0, 0.5, 10, 0, 1, 0.5]"), v + "[1]",
                     "found 6 numbers", "[0, 0.5, 10, 0, 1, 0.5]");
  EXPECT_MSKEL_ERROR(edit("[1, 1, 10, 10]", "[2, 1, 10, 10]"), v + "[2][0]",
                     "bone index 2 is out of range: \"bones\" lists 2 bones", "2, 1, 10, 10");
  EXPECT_MSKEL_ERROR(edit("[1, 1, 10, 10]", "[-1, 1, 10, 10]"), v + "[2][0]", "bone index -1 is out of range",
                     "-1, 1, 10");
  EXPECT_MSKEL_ERROR(edit("[1, 1, 10, 10]", "[]"), v + "[2]", "a weighted vertex needs at least one influence",
                     "[],\n");
  EXPECT_MSKEL_ERROR(edit("[0, 0.5, 10, 0, 1, 0.5, 0, 0]", "[0, 0.5, 10, 0, 0, 0.5, 0, 0]"), v + "[1][4]",
                     "bone \"hip\" influences this vertex twice", "0, 0.5, 0, 0]");
  EXPECT_MSKEL_ERROR(edit("[0, 1, 0, 0],", "7,"), v + "[0]", "expected an array, found an integer", "7,");
}

TEST(SkeletonFormatErrors, MeshGeometryMismatches) {
  const std::string mesh = kMeshPath;
  EXPECT_MSKEL_ERROR(edit("[0, 0, 1, 0, 1, 1, 0, 1]", "[0, 0, 1, 0, 1, 1]"), mesh + ".uvs",
                     "expected 2 numbers per vertex (8 for 4 vertices), found 6", "[0, 0, 1, 0, 1, 1]");
  EXPECT_MSKEL_ERROR(edit("[0, 1, 2, 0, 2, 3]", "[0, 1, 2, 0, 2]"), mesh + ".triangles",
                     "expected 3 vertex indices per triangle, found 5 indices", "[0, 1, 2, 0, 2]");
  EXPECT_MSKEL_ERROR(edit("[0, 1, 2, 0, 2, 3]", "[]"), mesh + ".triangles", "at least one triangle", "[],\n");
  EXPECT_MSKEL_ERROR(edit("\"hull\": 4", "\"hull\": 5"), mesh + ".hull",
                     "hull must be from 3 to the vertex count (4), found 5", "5,\n          \"uvs\"");
  EXPECT_MSKEL_ERROR(edit("\"hull\": 4", "\"hull\": 2"), mesh + ".hull", "hull must be from 3", "2,\n          \"uvs\"");
  EXPECT_MSKEL_ERROR(edit("\"edges\": [0, 1]", "\"edges\": [0, 1, 2]"), mesh + ".edges",
                     "expected pairs of vertex indices, found 3 indices", "[0, 1, 2],\n");
  // Too few vertices for a polygon, and an odd count of plain coordinates.
  EXPECT_MSKEL_ERROR(edit("\"vertices\": [0, 0, 10, 0, 10, 10]", "\"vertices\": [0, 0, 10, 0]"),
                     "skins[0].attachments[2].vertices", "a clipping polygon needs at least 3 vertices, found 2",
                     "[0, 0, 10, 0]");
  EXPECT_MSKEL_ERROR(edit("\"vertices\": [0, 0, 10, 0, 10, 10]", "\"vertices\": [0, 0, 10, 0, 10]"),
                     "skins[0].attachments[2].vertices", "expected x, y pairs, found an odd count of 5 numbers",
                     "[0, 0, 10, 0, 10]");
}

TEST(SkeletonFormatErrors, VertexIndexOutOfRange) {
  const std::string mesh = kMeshPath;
  EXPECT_MSKEL_ERROR(edit("[0, 1, 2, 0, 2, 3]", "[0, 1, 2, 0, 2, 4]"), mesh + ".triangles[5]",
                     "vertex index 4 is out of range: the mesh has 4 vertices", "4],");
  EXPECT_MSKEL_ERROR(edit("[0, 1, 2, 0, 2, 3]", "[0, -1, 2, 0, 2, 3]"), mesh + ".triangles[1]",
                     "vertex index -1 is out of range", "-1,");
  EXPECT_MSKEL_ERROR(edit("\"edges\": [0, 1]", "\"edges\": [0, 9]"), mesh + ".edges[1]",
                     "vertex index 9 is out of range", "9]");
}

TEST(SkeletonFormatErrors, PathGeometry) {
  const std::string path = "skins[0].attachments[3]";
  EXPECT_MSKEL_ERROR(edit("[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]", "[0, 0, 1, 1, 2, 2, 3, 3, 4, 4]"), path + ".vertices",
                     "path control points come 3 per knot (in, point, out), found 5 points", "[0, 0, 1, 1, 2, 2, 3, 3, 4, 4]");
  EXPECT_MSKEL_ERROR(edit("[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]", "[0, 0, 1, 1, 2, 2]"), path + ".vertices",
                     "a path needs at least 2 knots", "[0, 0, 1, 1, 2, 2]");
  EXPECT_MSKEL_ERROR(edit("\"lengths\": [10]", "\"lengths\": [10, 20]"), path + ".lengths",
                     "expected one length per segment (1 for 2 knots, open), found 2", "[10, 20]");
  EXPECT_MSKEL_ERROR(edit("\"lengths\": [10]", "\"closed\": true, \"lengths\": [10]"), path + ".lengths",
                     "(2 for 2 knots, closed), found 1", "[10]");
  EXPECT_MSKEL_ERROR(edit("\"lengths\": [10]", "\"closed\": true, \"lengths\": [10, 5]"), path + ".lengths[1]",
                     "lengths are cumulative and must not decrease (5 after 10)", "5]");
  EXPECT_MSKEL_ERROR(edit("\"lengths\": [10]", "\"lengths\": [-1]"), path + ".lengths[0]",
                     "must not decrease (-1 after 0)", "-1]");
}

TEST(SkeletonFormatErrors, VerticesAndWeightsTogetherOrNeither) {
  EXPECT_MSKEL_ERROR(edit("\"edges\": [0, 1],", "\"edges\": [0, 1], \"vertices\": [0, 0, 1, 0, 1, 1, 0, 1],"),
                     kWeightsPath, "either \"vertices\" or \"weights\", not both", "{\n            \"bones\"");
  EXPECT_MSKEL_ERROR(edit(",\n          \"vertices\": [0, 0, 10, 0, 10, 10]", ""), "skins[0].attachments[2]",
                     "missing required key \"vertices\" or \"weights\"", "{\n          \"slot\": \"clip\"");
}

TEST(SkeletonFormatErrors, BadColours) {
  for (const char* colour : {"#12345", "#gg0000ff", "red", "#1234567", "98989800", "#98989800ff"}) {
    const std::string value = "\"" + std::string(colour) + "\"";
    EXPECT_MSKEL_ERROR(edit("{ \"name\": \"root\" }", "{ \"name\": \"root\", \"color\": " + value + " }"),
                       "bones[0].color", "expected a colour \"#rrggbbaa\" or \"#rrggbb\", found " + value, value);
  }
  // The dark colour of a slot is RGB only.
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"clip\", \"bone\": \"root\" }",
                          "{ \"name\": \"clip\", \"bone\": \"root\", \"dark\": \"#102030ff\" }"),
                     "slots[2].dark",
                     "expected a colour \"#rrggbb\", found \"#102030ff\"", "\"#102030ff\"");
  EXPECT_MSKEL_ERROR(edit("\"type\": \"Clipping\",", "\"type\": \"Clipping\", \"color\": 255,"),
                     "skins[0].attachments[2].color", "expected a string, found an integer", "255,");
}

TEST(SkeletonFormatErrors, BadEnumNames) {
  EXPECT_MSKEL_ERROR(edit("\"y\": -40", "\"y\": -40, \"inherit\": \"normal\""), "bones[1].inherit",
                     "unknown inherit mode \"normal\"; expected one of \"Normal\", \"OnlyTranslation\", "
                     "\"NoRotationOrReflection\", \"NoScale\", \"NoScaleOrReflection\"",
                     "\"normal\"");
  EXPECT_MSKEL_ERROR(edit("\"attachment\": \"body\"", "\"attachment\": \"body\", \"blend\": \"Add\""), "slots[0].blend",
                     "unknown blend mode \"Add\"; expected one of \"Normal\", \"Additive\", \"Multiply\", \"Screen\"",
                     "\"Add\"");
  EXPECT_MSKEL_ERROR(edit("\"type\": \"Region\"", "\"type\": \"Sprite\""), "skins[0].attachments[0].type",
                     "unknown attachment type \"Sprite\"", "\"Sprite\"");
  EXPECT_MSKEL_ERROR(edit("\"filter\": \"Linear\"", "\"filter\": \"Bilinear\""), "import.filter",
                     "unknown texture filter \"Bilinear\"; expected one of \"Linear\", \"Nearest\"", "\"Bilinear\"");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"path\"", "\"target\": \"path\", \"positionMode\": \"Absolute\""),
                     "path[0].positionMode", "unknown position mode \"Absolute\"", "\"Absolute\"");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"path\"", "\"target\": \"path\", \"spacingMode\": \"length\""),
                     "path[0].spacingMode", "unknown spacing mode \"length\"", "\"length\" }");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"path\"", "\"target\": \"path\", \"rotateMode\": \"Free\""), "path[0].rotateMode",
                     "unknown rotate mode \"Free\"", "\"Free\"");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"target\"", "\"target\": \"target\", \"bend\": 0"), "ik[0].bend",
                     "expected 1 or -1, found 0", "0 }\n  ],\n  \"transform\"");
}

TEST(SkeletonFormatErrors, InvalidUtf8InAString) {
  for (const char* bad : {"r\xffoot", "r\xc0\xafoot", "ro\xe2\x82", "\xed\xa0\x80root"}) {
    const std::string text = edit("{ \"name\": \"root\" }", "{ \"name\": \"" + std::string(bad) + "\" }");
    EXPECT_MSKEL_SYNTAX_ERROR(text, 12, "UTF-8");
  }
}

TEST(SkeletonFormatErrors, DuplicateJsonKeys) {
  const std::string text = edit("{ \"name\": \"root\" }", "{ \"name\": \"root\", \"name\": \"base\" }");
  const Error e = read_error(text);
  EXPECT_NE(e.message.find("duplicate key \"name\""), std::string::npos) << e.to_string();
  const TextPosition want = position_of(text, "\"name\": \"base\"");
  EXPECT_EQ(e.position.line, want.line);
  EXPECT_EQ(e.position.column, want.column);
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "\"fps\": 30, \"fps\": 24,"), 5, "duplicate key \"fps\"");
}

TEST(SkeletonFormatErrors, NestingTooDeep) {
  const auto nested = [](int depth) {
    return "\"clips\": " + std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']') + ",";
  };
  // The root object is one level: 63 nested arrays still parse (and are the wrong type), 64 do not.
  EXPECT_MSKEL_ERROR(edit("\"fps\": 30,", "\"fps\": 30, " + nested(63)), "clips", "expected a string, found an array");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "\"fps\": 30, " + nested(64)), 5, "nesting deeper than 64 levels");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"fps\": 30,", "\"fps\": 30, " + nested(100000)), 5, "nesting deeper");
}

TEST(SkeletonFormatErrors, NumbersOutOfFloatRange) {
  EXPECT_MSKEL_ERROR(edit("\"y\": -40", "\"y\": 1e39"), "bones[1].y", "number out of range", "1e39");
  EXPECT_MSKEL_ERROR(edit("\"y\": -40", "\"y\": -3.5e38"), "bones[1].y", "number out of range", "-3.5e38");
  EXPECT_MSKEL_ERROR(edit("[0, 0, 10, 0, 10, 10]", "[0, 0, 10, 0, 1e300, 10]"), "skins[0].attachments[2].vertices[4]",
                     "number out of range", "1e300");
  EXPECT_MSKEL_SYNTAX_ERROR(edit("\"y\": -40", "\"y\": 1e400"), 13, "number out of range");
  EXPECT_MSKEL_ERROR(edit("\"fps\": 30", "\"fps\": 99999999999"), "fps", "expected an integer from", "99999999999");
}

TEST(SkeletonFormatErrors, DuplicateConstraintOrders) {
  EXPECT_MSKEL_ERROR(edit("\"name\": \"follow\", \"order\": 1", "\"name\": \"follow\", \"order\": 0"),
                     "transform[0].order", "duplicate constraint order 0 (also at ik[0].order)", "0, \"bones\": [\"shin\"]");
  EXPECT_MSKEL_ERROR(edit("\"order\": 3", "\"order\": 2"), "physics[0].order",
                     "duplicate constraint order 2 (also at path[0].order)", "2, \"bone\"");
  EXPECT_MSKEL_ERROR(edit("\"order\": 3", "\"order\": -3"), "physics[0].order", "expected an integer >= 0, found -3",
                     "-3");
  // Without an order a constraint takes its default place: no order is required, and leaving one out
  // cannot clash.
  EXPECT_TRUE(read_skeleton(edit("\"name\": \"follow\", \"order\": 1,", "\"name\": \"follow\","), kFile).ok());
}

TEST(SkeletonFormatErrors, ConstraintNamesAreUniquePerKind) {
  // The same name in two kinds is fine: a transform and a physics constraint called "leg".
  auto shared = read_skeleton(edit("\"name\": \"follow\"", "\"name\": \"leg\""), kFile);
  ASSERT_TRUE(shared.ok()) << shared.error().to_string();
  EXPECT_EQ(shared->find_constraint(ConstraintKind::Ik, "leg"), 0);
  EXPECT_EQ(shared->find_constraint(ConstraintKind::Transform, "leg"), 0);
  EXPECT_TRUE(read_skeleton(edit("\"name\": \"along\"", "\"name\": \"leg\""), kFile).ok());
  // Twice in one kind is an error naming both places.
  const std::string two_ik = edit("{ \"name\": \"leg\", \"order\": 0, \"bones\": [\"thigh\", \"shin\"], \"target\": \"target\" }",
                                  "{ \"name\": \"leg\", \"order\": 0, \"bones\": [\"thigh\", \"shin\"], \"target\": \"target\" },\n"
                                  "    { \"name\": \"leg\", \"bones\": [\"shin\"], \"target\": \"target\" }");
  EXPECT_MSKEL_ERROR(two_ik, "ik[1].name", "duplicate ik constraint name \"leg\" (first at ik[0].name)",
                     "\"leg\", \"bones\": [\"shin\"]");
  // A skin names each constraint with its kind: "wobble" is a physics constraint, not an ik one.
  EXPECT_MSKEL_ERROR(edit("\"physics\": [\"wobble\"]", "\"ik\": [\"wobble\"]"), "skins[0].ik[0]",
                     "unknown ik constraint \"wobble\"", "\"wobble\"],");
  // The former any-kind list says what to write instead.
  EXPECT_MSKEL_ERROR(edit("\"physics\": [\"wobble\"]", "\"constraints\": [\"wobble\"]"), "skins[0].constraints",
                     "skin-required constraints are listed per kind", "[\"wobble\"]");
}

TEST(SkeletonFormatErrors, SequenceOutOfRange) {
  const std::string seq = "skins[0].attachments[0].sequence";
  EXPECT_MSKEL_ERROR(edit("{ \"count\": 4 }", "{ \"count\": 4, \"setup\": 4 }"), seq + ".setup",
                     "setup frame 4 is out of range: the sequence has 4 frames (0 to 3)", "4 } }");
  EXPECT_MSKEL_ERROR(edit("{ \"count\": 4 }", "{ \"count\": 4, \"setup\": -1 }"), seq + ".setup",
                     "setup frame -1 is out of range", "-1 }");
  EXPECT_MSKEL_ERROR(edit("{ \"count\": 4 }", "{ \"count\": 0 }"), seq + ".count", "expected an integer >= 1, found 0",
                     "0 } }");
  EXPECT_MSKEL_ERROR(edit("{ \"count\": 4 }", "{ \"count\": 4, \"start\": -1 }"), seq + ".start",
                     "expected an integer >= 0", "-1 }");
  EXPECT_MSKEL_ERROR(edit("{ \"count\": 4 }", "{ \"count\": 4, \"digits\": 11 }"), seq + ".digits",
                     "expected an integer from 0 to 10, found 11", "11 }");
}

TEST(SkeletonFormatErrors, ValuesOutOfRange) {
  EXPECT_MSKEL_ERROR(edit("\"fps\": 30", "\"fps\": 0"), "fps", "expected an integer >= 1, found 0", "0,");
  EXPECT_MSKEL_ERROR(edit("\"pageSize\": 2048", "\"pageSize\": 32"), "import.pageSize",
                     "expected an integer from 64 to 16384, found 32", "32");
  EXPECT_MSKEL_ERROR(edit("\"padding\": 2", "\"padding\": 65"), "import.padding", "from 0 to 64, found 65", "65");
  EXPECT_MSKEL_ERROR(edit("\"scale\": 1", "\"scale\": 0"), "import.scale", "expected a number > 0, found 0", "0, \"filter\"");
  EXPECT_MSKEL_ERROR(edit("\"x\": 30, \"length\": 30", "\"x\": 30, \"length\": -1"), "bones[3].length",
                     "expected a number >= 0, found -1", "-1");
  EXPECT_MSKEL_ERROR(edit("\"target\": \"target\"", "\"target\": \"target\", \"softness\": -2"), "ik[0].softness",
                     "expected a number >= 0, found -2", "-2");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"step\" }", "{ \"name\": \"step\", \"volume\": 1.5 }"), "events[0].volume",
                     "expected a number from 0 to 1, found 1.5", "1.5");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"step\" }", "{ \"name\": \"step\", \"balance\": -2 }"), "events[0].balance",
                     "expected a number from -1 to 1, found -2", "-2");
  EXPECT_MSKEL_ERROR(edit("\"x\": 1 }", "\"x\": 1, \"mass\": 0 }"), "physics[0].mass", "expected a number > 0",
                     "0 }\n  ],\n  \"events\"");
  EXPECT_MSKEL_ERROR(edit("\"x\": 1 }", "\"x\": 1, \"fps\": -60 }"), "physics[0].fps", "expected a number > 0",
                     "-60 }");
  EXPECT_MSKEL_ERROR(edit("\"x\": 1 }", "\"x\": 1, \"limit\": 0 }"), "physics[0].limit", "expected a number > 0",
                     "0 }\n  ],\n  \"events\"");
  EXPECT_MSKEL_ERROR(edit("\"type\": \"Region\",", "\"type\": \"Region\", \"width\": -5,"),
                     "skins[0].attachments[0].width", "expected a number >= 0", "-5");
  EXPECT_MSKEL_ERROR(edit("{ \"name\": \"root\" }", "{ \"name\": \"\" }"), "bones[0].name", "must not be empty", "\"\" }");
}

TEST(SkeletonFormatErrors, ReadFileErrorsNameThePath) {
  const std::string path = data_path("missing.mskel");
  auto s = read_skeleton_file(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().file, path);
}

}  // namespace
}  // namespace mf::offline
