// The shared object reader (which keys were read, and what finish() does with the rest) and the
// positions a read document leaves behind (SourceMap).

#include "mf/offline/json/json_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "mf/offline/json/source_location.hpp"

namespace mf::json {
namespace {

const std::string kFile = "t.json";

Value parse_ok(std::string_view text) {
  auto v = parse(text, kFile);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().to_string());
  return v.ok() ? std::move(v).value() : Value{};
}

// Runs `read` and returns the ReadError it throws (an empty Error when it throws none).
template <class F>
Error read_error(F&& read) {
  try {
    read();
  } catch (const ReadError& e) {
    return e.error;
  }
  ADD_FAILURE() << "no ReadError";
  return {};
}

TEST(ObjectReader, AnUnreadKeyIsAnErrorAtTheMember) {
  const Value v = parse_ok("{\"a\": 1,\n \"colour\": 2}");
  ObjectReader r(Node(v, "bones[0]", kFile));
  EXPECT_EQ(r.get("a", 0), 1);
  const Error e = read_error([&] { r.finish(); });
  EXPECT_EQ(e.file, kFile);
  EXPECT_EQ(e.path, "bones[0].colour");
  EXPECT_EQ(e.position.line, 2);
  EXPECT_EQ(e.position.column, 12);
  EXPECT_EQ(e.message, "unknown key \"colour\"");
}

TEST(ObjectReader, ListsTheKeysNotReadInFileOrder) {
  const Value v = parse_ok(R"({"z": 1, "a": 2, "m": 3})");
  ObjectReader r(Node(v, "", kFile));
  EXPECT_TRUE(r.has("m"));
  EXPECT_FALSE(r.has("q"));
  r.skip("a");
  EXPECT_EQ(r.unread(), (std::vector<std::string>{"z", "m"}));  // has() does not mark a key as read
  r.optional("z");
  r.optional("m");
  EXPECT_TRUE(r.unread().empty());
  r.finish();  // nothing left: no error
}

TEST(ObjectReader, IgnoredKeysAndUnknownKeysGoToTheirHandlers) {
  const Value v = parse_ok(R"({"name": "x", "icon": "bone", "visible": false, "extra": 1, "more": [2]})");
  ObjectReader r(Node(v, "bones[2]", kFile));
  EXPECT_EQ(r.get("name", ""), "x");
  std::vector<std::string> ignored, unknown;
  UnreadMembers policy;
  policy.ignore = {"icon", "visible"};
  policy.ignored = [&](const std::string& key, const Node& member) { ignored.push_back(key + "@" + member.path()); };
  policy.unknown = [&](const std::string& key, const Node& member) { unknown.push_back(key + "@" + member.path()); };
  r.finish(policy);
  EXPECT_EQ(ignored, (std::vector<std::string>{"icon@bones[2].icon", "visible@bones[2].visible"}));
  EXPECT_EQ(unknown, (std::vector<std::string>{"extra@bones[2].extra", "more@bones[2].more"}));
}

TEST(ObjectReader, IgnoredKeysWithoutAHandlerAreLikeAnyOther) {
  const Value v = parse_ok(R"({"icon": "bone", "extra": 1})");
  std::vector<std::string> unknown;
  UnreadMembers policy;
  policy.ignore = {"icon"};
  policy.unknown = [&](const std::string& key, const Node&) { unknown.push_back(key); };
  ObjectReader(Node(v, "", kFile)).finish(policy);
  EXPECT_EQ(unknown, (std::vector<std::string>{"icon", "extra"}));

  // Without an `unknown` handler an unread key that is not ignored is still an error.
  UnreadMembers quiet;
  quiet.ignore = {"icon"};
  quiet.ignored = [](const std::string&, const Node&) {};
  const Error e = read_error([&] { ObjectReader(Node(v, "", kFile)).finish(quiet); });
  EXPECT_EQ(e.path, "extra");
  EXPECT_EQ(e.message, "unknown key \"extra\"");
}

TEST(ObjectReader, RejectsAValueThatIsNotAnObject) {
  const Value v = parse_ok("[1]");
  const Error e = read_error([&] { ObjectReader r(Node(v, "skins", kFile)); });
  EXPECT_EQ(e.path, "skins");
  EXPECT_EQ(e.message, "expected an object, found an array");
}

TEST(SourceMap, KeepsThePositionOfEveryValueByPath) {
  const Value v = parse_ok("{\"bones\": [\n  {\"name\": \"root\"},\n  {\"name\": \"hip\", \"parent\": \"root\"}\n],\n"
                           " \"thigh l\": {\"t\": [0, 1]}}");
  const SourceMap map(v);
  EXPECT_FALSE(map.empty());
  for (const char* path : {"bones", "bones[1]", "bones[1].parent", "[\"thigh l\"].t[1]", ""}) {
    const Value* value = find_path(v, path);
    ASSERT_NE(value, nullptr) << path;
    const SourceMap::Entry* entry = map.find(path);
    ASSERT_NE(entry, nullptr) << path;
    EXPECT_EQ(entry->type, value->type) << path;
    EXPECT_EQ(map.position(path).line, value->position.line) << path;
    EXPECT_EQ(map.position(path).column, value->position.column) << path;
  }
  EXPECT_EQ(map.position("bones[1].parent").line, 3);
  EXPECT_EQ(map.find("bones[2]"), nullptr);
  EXPECT_EQ(map.find("bones.name"), nullptr);
  EXPECT_FALSE(map.position("nope").known());
  ASSERT_NE(map.find("bones[0]"), nullptr);
  EXPECT_NE(map.find("bones[0]")->member("name"), nullptr);
  EXPECT_EQ(map.find("bones[0]")->member("parent"), nullptr);

  // nearest(): the deepest part of the path that exists.
  EXPECT_EQ(map.nearest("bones[1].rotate.t[3]").line, 3);
  EXPECT_EQ(map.nearest("bones[1].rotate.t[3]").column, map.position("bones[1]").column);
  EXPECT_EQ(map.nearest("missing").line, 1);
}

TEST(SourceMap, AnEmptyMapKnowsNoPositionAndMapsNeverDecideEquality) {
  const SourceMap empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.find(""), nullptr);
  EXPECT_FALSE(empty.position("bones").known());
  EXPECT_FALSE(empty.nearest("bones").known());
  const Value v = parse_ok(R"({"a": 1})");
  EXPECT_TRUE(SourceMap(v) == empty);
  const SourceMap copy = SourceMap(v);
  EXPECT_EQ(copy.position("a").column, 7);
}

}  // namespace
}  // namespace mf::json
