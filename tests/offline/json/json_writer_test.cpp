#include "mf/offline/json/json_writer.hpp"

#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "mf/offline/json/json.hpp"

namespace mf::json {
namespace {

TEST(JsonWriter, BlockAndInlineLayout) {
  Writer w;
  w.begin_object();
  w.key("format");
  w.integer(1);
  w.key("bones");
  w.begin_array();
  w.begin_object(Layout::Inline);
  w.key("name");
  w.string("root");
  w.end_object();
  w.begin_object(Layout::Inline);
  w.key("name");
  w.string("hips");
  w.key("t");
  w.begin_array();  // inline because its parent is
  w.number(0.5f);
  w.number(1.0f);
  w.end_array();
  w.end_object();
  w.end_array();
  w.key("empty");
  w.begin_array(Layout::Inline);
  w.end_array();
  w.key("none");
  w.begin_object();
  w.end_object();
  w.end_object();
  EXPECT_EQ(w.finish(),
            "{\n"
            "  \"format\": 1,\n"
            "  \"bones\": [\n"
            "    { \"name\": \"root\" },\n"
            "    { \"name\": \"hips\", \"t\": [0.5, 1] }\n"
            "  ],\n"
            "  \"empty\": [],\n"
            "  \"none\": {}\n"
            "}\n");
}

TEST(JsonWriter, EscapesOnlyWhatJsonNeeds) {
  Writer w;
  w.begin_array(Layout::Inline);
  w.string("a\"b\\c\n\t\x01 \xc3\xa9");
  w.null();
  w.boolean(false);
  w.end_array();
  EXPECT_EQ(w.finish(), "[\"a\\\"b\\\\c\\n\\t\\u0001 \xc3\xa9\", null, false]\n");
}

TEST(JsonWriter, ShortestFloatText) {
  EXPECT_EQ(format_float(0.1f), "0.1");
  EXPECT_EQ(format_float(1.0f), "1");
  EXPECT_EQ(format_float(-2.5f), "-2.5");
  EXPECT_EQ(format_float(100.0f), "100");
  EXPECT_EQ(format_float(0.0f), "0");
}

// Every float written reads back (through our JSON reader, as double, then narrowed) bit for bit.
TEST(JsonWriter, FloatsRoundTripExactly) {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<std::uint32_t> bits;
  int tested = 0;
  while (tested < 20000) {
    const std::uint32_t b = bits(rng);
    float f;
    std::memcpy(&f, &b, sizeof f);
    if (!std::isfinite(f)) continue;
    ++tested;
    const std::string text = "[" + format_float(f) + "]";
    auto v = parse(text, "t.json");
    ASSERT_TRUE(v.ok()) << text;
    const float back = static_cast<float>(v->items[0].number);
    std::uint32_t back_bits;
    std::memcpy(&back_bits, &back, sizeof back);
    ASSERT_EQ(back_bits, b) << text;
  }
}

}  // namespace
}  // namespace mf::json
