#include "mf/offline/json/json.hpp"

#include <gtest/gtest.h>

#include "mf/offline/json/json_path.hpp"

namespace mf::json {
namespace {

Value parse_ok(std::string_view text) {
  auto v = parse(text, "t.json");
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().to_string());
  return v.ok() ? std::move(v).value() : Value{};
}

Error parse_error(std::string_view text) {
  auto v = parse(text, "t.json");
  EXPECT_FALSE(v.ok());
  return v.ok() ? Error{} : v.error();
}

TEST(Json, ParsesEveryType) {
  const Value v = parse_ok(R"({"a": null, "b": true, "c": -2.5, "d": "x\"y", "e": [1, 2], "f": {}})");
  ASSERT_TRUE(v.is_object());
  ASSERT_EQ(v.members.size(), 6u);
  EXPECT_TRUE(v.find("a")->is_null());
  EXPECT_TRUE(v.find("b")->boolean);
  EXPECT_DOUBLE_EQ(v.find("c")->number, -2.5);
  EXPECT_FALSE(v.find("c")->integer);
  EXPECT_EQ(v.find("d")->string, "x\"y");
  EXPECT_EQ(v.find("e")->items.size(), 2u);
  EXPECT_TRUE(v.find("e")->items[0].integer);
  EXPECT_TRUE(v.find("f")->is_object());
}

TEST(Json, KeepsMemberOrder) {
  const Value v = parse_ok(R"({"z": 1, "a": 2, "m": 3})");
  EXPECT_EQ(v.members[0].first, "z");
  EXPECT_EQ(v.members[1].first, "a");
  EXPECT_EQ(v.members[2].first, "m");
}

TEST(Json, RecordsWhereEachValueStarts) {
  const std::string text =
      "{\n"
      "  \"name\": \"hips\",\n"
      "  \"n\": 12.5,\n"
      "  \"arr\": [true, null, -3],\n"
      "  \"esc\": \"a\\\"b\", \"o\": {\"k\": 1}\n"
      "}";
  const Value v = parse_ok(text);
  EXPECT_EQ(v.position.line, 1);
  EXPECT_EQ(v.position.column, 1);
  EXPECT_EQ(v.find("name")->position.line, 2);
  EXPECT_EQ(v.find("name")->position.column, 11);
  EXPECT_EQ(v.find("n")->position.line, 3);
  EXPECT_EQ(v.find("n")->position.column, 8);
  const Value& arr = *v.find("arr");
  EXPECT_EQ(arr.position.column, 10);
  EXPECT_EQ(arr.items[0].position.column, 11);
  EXPECT_EQ(arr.items[1].position.column, 17);
  EXPECT_EQ(arr.items[2].position.column, 23);
  EXPECT_EQ(v.find("esc")->position.line, 5);
  EXPECT_EQ(v.find("esc")->position.column, 10);
  EXPECT_EQ(v.find("o")->position.column, 23);
  EXPECT_EQ(v.find("o")->find("k")->position.column, 29);
}

TEST(Json, NumberAtEndOfLineStaysOnItsLine) {
  const Value v = parse_ok("[\n1,\n22\n]");
  EXPECT_EQ(v.items[0].position.line, 2);
  EXPECT_EQ(v.items[1].position.line, 3);
  EXPECT_EQ(v.items[1].position.column, 1);
  const Value bare = parse_ok("  7");
  EXPECT_EQ(bare.position.column, 3);
}

TEST(Json, SyntaxErrorsGiveLineAndColumn) {
  const Error e = parse_error("{\n  \"a\": 1,\n  \"b\" 2\n}");
  EXPECT_EQ(e.file, "t.json");
  EXPECT_EQ(e.position.line, 3);
  EXPECT_GT(e.position.column, 0);
  EXPECT_NE(e.message.find("syntax error"), std::string::npos) << e.message;
}

TEST(Json, TruncatedInputIsAnError) {
  const std::string text = R"({"bones": [{"name": "root", "x": 1.5}, {"name": "b"}], "s": "text"})";
  for (std::size_t cut = 0; cut < text.size(); ++cut) {
    auto v = parse(std::string_view(text).substr(0, cut), "t.json");
    EXPECT_FALSE(v.ok()) << "cut at " << cut;
  }
}

TEST(Json, RejectsDuplicateKeys) {
  const Error e = parse_error("{\"a\": 1,\n \"a\": 2}");
  EXPECT_NE(e.message.find("duplicate key \"a\""), std::string::npos);
  EXPECT_EQ(e.position.line, 2);
  EXPECT_EQ(e.position.column, 2);
}

TEST(Json, RejectsInvalidUtf8) {
  const Error e = parse_error("{\"a\": \"\xff\xfe\"}");
  EXPECT_NE(e.message.find("UTF-8"), std::string::npos) << e.message;
  EXPECT_FALSE(parse("{\"a\": \"\xc3\"}", "t.json").ok());  // truncated sequence
  EXPECT_TRUE(parse("{\"a\": \"\xc3\xa9\"}", "t.json").ok());
}

TEST(Json, RejectsNumbersOutOfRange) {
  const Error e = parse_error("[1e999]");
  EXPECT_NE(e.message.find("out of range"), std::string::npos) << e.message;
}

TEST(Json, RejectsDeepNesting) {
  const std::string deep(kMaxDepth + 1, '[');
  const Error e = parse_error(deep + std::string(kMaxDepth + 1, ']'));
  EXPECT_NE(e.message.find("nesting"), std::string::npos) << e.message;
  std::string ok(kMaxDepth, '[');
  ok += std::string(kMaxDepth, ']');
  EXPECT_TRUE(parse(ok, "t.json").ok());
}

TEST(Json, RejectsEmptyAndTrailingInput) {
  EXPECT_FALSE(parse("", "t.json").ok());
  EXPECT_FALSE(parse("   \n", "t.json").ok());
  EXPECT_FALSE(parse("{} {}", "t.json").ok());
  EXPECT_FALSE(parse("{} x", "t.json").ok());
}

TEST(JsonPath, BuildsAndFollowsPaths) {
  EXPECT_EQ(path_key("", "bones"), "bones");
  EXPECT_EQ(path_index("bones", 4), "bones[4]");
  EXPECT_EQ(path_key("bones[4]", "parent"), "bones[4].parent");
  EXPECT_EQ(path_key("bones", "thigh l"), "bones[\"thigh l\"]");
  EXPECT_EQ(path_key("x", "a\"b"), "x[\"a\\\"b\"]");

  const Value v = parse_ok(R"({"bones": {"thigh l": {"rotate": {"t": [0, 1]}}}, "list": [{"a": 5}]})");
  const Value* t1 = find_path(v, "bones[\"thigh l\"].rotate.t[1]");
  ASSERT_NE(t1, nullptr);
  EXPECT_DOUBLE_EQ(t1->number, 1);
  ASSERT_NE(find_path(v, "list[0].a"), nullptr);
  EXPECT_EQ(find_path(v, "list[1].a"), nullptr);
  EXPECT_EQ(find_path(v, "list.a"), nullptr);
  EXPECT_EQ(find_path(v, "nope"), nullptr);
}

}  // namespace
}  // namespace mf::json
