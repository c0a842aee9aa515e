// The .atlas reader: 4.x and 3.x keys, several pages, rotation, trims, pma and scale, and errors that
// name the line.

#include <gtest/gtest.h>

#include <string>

#include "mf/offline/import/spine/spine_atlas.hpp"

namespace mf::offline {
namespace {

TEST(SpineAtlas, ReadsPagesAndRegionsOfTheCurrentLayout) {
  const std::string text =
      "\npage1.png\n\tsize: 640, 480\n\tformat: RGBA8888\n\tfilter: Linear, Nearest\n\trepeat: none\n\tpma: true\n"
      "\tscale: 0.5\n"
      "dagger\n\tbounds: 372, 100, 26, 108\n"
      "head\n\tindex: 0\n\tbounds: 2, 21, 103, 81\n\trotate: 90\n"
      "\npage2.png\n\tsize: 64, 32\n"
      "bg-dialog\n\tindex: -1\n\trotate: false\n\tbounds: 19, 3, 17, 18\n\toffsets: 2, 3, 21, 42\n"
      "\tsplit: 10, 10, 29, 10\n\tpad: -1, -1, 28, 10\n";
  Expected<SpineAtlas> atlas = parse_atlas(text, "two.atlas");
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  ASSERT_EQ(atlas->pages.size(), 2u);
  const SpineAtlasPage& p1 = atlas->pages[0];
  EXPECT_EQ(p1.file, "page1.png");
  EXPECT_EQ(p1.line, 2);
  EXPECT_EQ(p1.width, 640);
  EXPECT_EQ(p1.height, 480);
  EXPECT_TRUE(p1.pma);
  EXPECT_FLOAT_EQ(p1.scale, 0.5f);
  EXPECT_EQ(p1.filter_min, "Linear");
  EXPECT_EQ(p1.filter_mag, "Nearest");
  ASSERT_EQ(p1.regions.size(), 2u);
  const SpineAtlasRegion& dagger = p1.regions[0];
  EXPECT_EQ(dagger.name, "dagger");
  EXPECT_EQ(dagger.index, -1);
  EXPECT_EQ(dagger.x, 372);
  EXPECT_EQ(dagger.y, 100);
  EXPECT_EQ(dagger.width, 26);
  EXPECT_EQ(dagger.height, 108);
  EXPECT_EQ(dagger.original_width, 26);  // untrimmed: the original is the packed size
  EXPECT_EQ(dagger.original_height, 108);
  EXPECT_EQ(dagger.degrees, 0);
  EXPECT_EQ(dagger.line, 9);
  EXPECT_EQ(p1.regions[1].index, 0);
  EXPECT_EQ(p1.regions[1].degrees, 90);
  const SpineAtlasPage& p2 = atlas->pages[1];
  EXPECT_FALSE(p2.pma);
  EXPECT_FLOAT_EQ(p2.scale, 1.0f);
  ASSERT_EQ(p2.regions.size(), 1u);
  const SpineAtlasRegion& bg = p2.regions[0];
  EXPECT_EQ(bg.offset_x, 2);
  EXPECT_EQ(bg.offset_y, 3);
  EXPECT_EQ(bg.original_width, 21);
  EXPECT_EQ(bg.original_height, 42);
  ASSERT_EQ(bg.values.size(), 2u);
  EXPECT_EQ(bg.values[0].first, "split");
  EXPECT_EQ(bg.values[1].second, "-1, -1, 28, 10");

  const SpineAtlasPage* page = nullptr;
  EXPECT_EQ(atlas->find("head", 0, &page), &p1.regions[1]);
  EXPECT_EQ(page, &p1);
  EXPECT_EQ(atlas->find("head"), nullptr);  // it has an index
  EXPECT_EQ(atlas->find("bg-dialog", -1, &page), &bg);
  EXPECT_EQ(page, &p2);
}

TEST(SpineAtlas, ReadsTheOlderLayout) {
  const std::string text =
      "old.png\nsize: 128,64\nformat: RGBA8888\nfilter: Linear,Linear\nrepeat: none\n"
      "arm\n  rotate: true\n  xy: 2, 4\n  size: 10, 20\n  orig: 12, 24\n  offset: 1, 3\n  index: -1\n"
      "leg\n  rotate: false\n  xy: 40, 4\n  size: 5, 6\n  orig: 5, 6\n  offset: 0, 0\n  index: 2\n";
  Expected<SpineAtlas> atlas = parse_atlas(text, "old.atlas");
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  ASSERT_EQ(atlas->pages.size(), 1u);
  EXPECT_EQ(atlas->pages[0].width, 128);
  const SpineAtlasRegion* arm = atlas->find("arm");
  ASSERT_NE(arm, nullptr);
  EXPECT_EQ(arm->degrees, 90);
  EXPECT_EQ(arm->x, 2);
  EXPECT_EQ(arm->y, 4);
  EXPECT_EQ(arm->width, 10);
  EXPECT_EQ(arm->height, 20);
  EXPECT_EQ(arm->original_width, 12);
  EXPECT_EQ(arm->original_height, 24);
  EXPECT_EQ(arm->offset_x, 1);
  EXPECT_EQ(arm->offset_y, 3);
  ASSERT_NE(atlas->find("leg", 2), nullptr);
}

TEST(SpineAtlas, ReadsRotationAsDegrees) {
  Expected<SpineAtlas> atlas = parse_atlas("p.png\na\n bounds: 0,0,1,2\n rotate: 270\nb\n bounds: 0,0,1,2\n rotate: 180\n", "r.atlas");
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  EXPECT_EQ(atlas->find("a")->degrees, 270);
  EXPECT_EQ(atlas->find("b")->degrees, 180);
}

struct BadAtlas {
  const char* text;
  int line;
  const char* message;
};

TEST(SpineAtlas, RejectsMalformedInputNamingTheLine) {
  const BadAtlas cases[] = {
      {"", 0, "no pages"},
      {"size: 1, 2\n", 1, "expected a page image file name"},
      {"p.png\nsize: 1\n", 2, "takes 2 numbers"},
      {"p.png\nsize: 1, x\n", 2, "expected an integer"},
      {"p.png\npma: maybe\n", 2, "pma"},
      {"p.png\nscale: -1\n", 2, "scale"},
      {"p.png\nwhat: 3\n", 2, "unknown page key"},
      {"p.png\na\n bounds: 1, 2, 3\n", 3, "takes 4 numbers"},
      {"p.png\na\n rotate: 45\n", 3, "rotate"},
      {"p.png\na\n index: 1\n", 2, "has no bounds"},
      {"p.png\na\n bounds: 0, 0, -1, 2\n", 2, "negative size"},
      {"p.png\na\n bounds: 0, 0, 10, 10\n offsets: 2, 0, 11, 10\n", 2, "does not fit"},
      {"p.png\na\n bounds: 0, 0, 4, 4\nb\n", 4, "has no bounds"},
      {"p.png\na\n bounds: 99999999999, 0, 4, 4\n", 3, "expected an integer"},
  };
  for (const BadAtlas& c : cases) {
    Expected<SpineAtlas> atlas = parse_atlas(c.text, "bad.atlas");
    ASSERT_FALSE(atlas) << c.text;
    EXPECT_EQ(atlas.error().file, "bad.atlas");
    if (c.line > 0) {
      EXPECT_EQ(atlas.error().position.line, c.line) << c.text;
    }
    EXPECT_NE(atlas.error().message.find(c.message), std::string::npos) << c.text << " → " << atlas.error().message;
  }
}

TEST(SpineAtlas, TruncatedAtlasNeverCrashes) {
  const std::string text = "p.png\n\tsize: 64, 32\n\tpma: true\nhead\n\tbounds: 0, 0, 8, 6\n\toffsets: 1, 1, 10, 8\n";
  for (std::size_t n = 0; n <= text.size(); ++n) {
    Expected<SpineAtlas> atlas = parse_atlas(text.substr(0, n), "cut.atlas");
    if (!atlas) {
      EXPECT_FALSE(atlas.error().message.empty());
    }
  }
}

}  // namespace
}  // namespace mf::offline
