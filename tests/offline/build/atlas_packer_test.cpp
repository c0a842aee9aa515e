// AtlasPacker: MaxRects placement, pages, determinism and errors.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "mf/offline/build/atlas_packer.hpp"

namespace mf::offline {
namespace {

std::vector<PackInput> random_inputs(std::uint32_t seed, std::size_t count, int max_side) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> side(1, max_side);
  std::vector<PackInput> inputs;
  for (std::size_t i = 0; i < count; ++i) inputs.push_back({side(rng), side(rng), "r" + std::to_string(i)});
  return inputs;
}

bool overlaps(const PackedRect& a, const PackedRect& b) {
  return a.page == b.page && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height &&
         b.y < a.y + a.height;
}

// Every input placed at its own size, inside its page, overlapping nothing on that page.
void expect_valid(const std::vector<PackInput>& inputs, const PackLayout& layout, const PackerSettings& settings) {
  ASSERT_EQ(layout.rects.size(), inputs.size());
  std::vector<std::int64_t> used(layout.pages.size(), 0);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const PackedRect& r = layout.rects[i];
    ASSERT_GE(r.page, 0);
    ASSERT_LT(static_cast<std::size_t>(r.page), layout.pages.size());
    const PackedPage& page = layout.pages[static_cast<std::size_t>(r.page)];
    EXPECT_LE(page.width, settings.page_width);
    EXPECT_LE(page.height, settings.page_height);
    EXPECT_EQ(r.width, inputs[i].width) << inputs[i].name;
    EXPECT_EQ(r.height, inputs[i].height) << inputs[i].name;
    EXPECT_GE(r.x, 0);
    EXPECT_GE(r.y, 0);
    EXPECT_LE(r.x + r.width, page.width) << inputs[i].name;
    EXPECT_LE(r.y + r.height, page.height) << inputs[i].name;
    used[static_cast<std::size_t>(r.page)] += static_cast<std::int64_t>(r.width) * r.height;
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_FALSE(overlaps(r, layout.rects[j])) << inputs[i].name << " overlaps " << inputs[j].name;
  }
  for (std::size_t p = 0; p < layout.pages.size(); ++p) {
    EXPECT_EQ(layout.pages[p].used_pixels, used[p]);
    EXPECT_GT(used[p], 0) << "page " << p << " is empty";
  }
}

bool same_layout(const PackLayout& a, const PackLayout& b) {
  if (a.rects.size() != b.rects.size() || a.pages.size() != b.pages.size()) return false;
  for (std::size_t i = 0; i < a.rects.size(); ++i) {
    const PackedRect &x = a.rects[i], &y = b.rects[i];
    if (x.page != y.page || x.x != y.x || x.y != y.y || x.width != y.width || x.height != y.height) return false;
  }
  for (std::size_t p = 0; p < a.pages.size(); ++p)
    if (a.pages[p].width != b.pages[p].width || a.pages[p].height != b.pages[p].height ||
        a.pages[p].used_pixels != b.pages[p].used_pixels)
      return false;
  return true;
}

TEST(AtlasPacker, RandomRectanglesNeverOverlapAndStayInsideTheirPages) {
  for (std::uint32_t seed : {1u, 2u, 3u, 42u, 1234u}) {
    const PackerSettings settings{256, 256, true};
    const std::vector<PackInput> inputs = random_inputs(seed, 150, 90);
    Expected<PackLayout> layout = AtlasPacker(settings).pack(inputs);
    ASSERT_TRUE(layout) << layout.error().to_string();
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_valid(inputs, *layout, settings);
    // 150 rectangles of up to 90×90 do not fit one 256×256 page.
    EXPECT_GT(layout->pages.size(), 1u);
  }
}

TEST(AtlasPacker, RandomRectanglesOnNonSquarePagesWithoutShrinking) {
  for (std::uint32_t seed : {7u, 99u}) {
    const PackerSettings settings{300, 170, false};
    const std::vector<PackInput> inputs = random_inputs(seed, 80, 120);
    Expected<PackLayout> layout = AtlasPacker(settings).pack(inputs);
    ASSERT_TRUE(layout) << layout.error().to_string();
    expect_valid(inputs, *layout, settings);
    for (const PackedPage& p : layout->pages) {
      EXPECT_EQ(p.width, 300);
      EXPECT_EQ(p.height, 170);
    }
  }
}

TEST(AtlasPacker, IsDeterministic) {
  const std::vector<PackInput> inputs = random_inputs(5, 200, 64);
  const AtlasPacker packer({512, 512, true});
  Expected<PackLayout> a = packer.pack(inputs);
  Expected<PackLayout> b = packer.pack(inputs);
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(same_layout(*a, *b));
  // A fresh packer and a copy of the inputs (other addresses) give the same layout too.
  const std::vector<PackInput> copy = inputs;
  Expected<PackLayout> c = AtlasPacker({512, 512, true}).pack(copy);
  ASSERT_TRUE(c);
  EXPECT_TRUE(same_layout(*a, *c));
  // Names play no part in placement.
  std::vector<PackInput> renamed = inputs;
  for (PackInput& in : renamed) in.name = "x" + in.name + "y";
  Expected<PackLayout> d = packer.pack(renamed);
  ASSERT_TRUE(d);
  EXPECT_TRUE(same_layout(*a, *d));
}

TEST(AtlasPacker, PlacesLargestFirstAtTheTopLeft) {
  // Sorted by height, then width, then index: the 30×40 goes first to (0, 0).
  const std::vector<PackInput> inputs = {{10, 10, "small"}, {30, 40, "tall"}, {40, 30, "wide"}};
  Expected<PackLayout> layout = AtlasPacker({96, 96, false}).pack(inputs);
  ASSERT_TRUE(layout);
  ASSERT_EQ(layout->pages.size(), 1u);
  EXPECT_EQ(layout->rects[1].x, 0);
  EXPECT_EQ(layout->rects[1].y, 0);
  // Then the wide one: of the two free strips (right of it: 66 × 96, below it: 96 × 56) both leave a
  // short side of 26; the strip below leaves the smaller long side (56 < 66).
  EXPECT_EQ(layout->rects[2].x, 0);
  EXPECT_EQ(layout->rects[2].y, 40);
  expect_valid(inputs, *layout, {96, 96, false});
}

TEST(AtlasPacker, FillsAPageExactlyWithTiles) {
  // Sixteen 16×16 tiles fill a 64×64 page with no gap.
  std::vector<PackInput> inputs(16, PackInput{16, 16, "tile"});
  Expected<PackLayout> layout = AtlasPacker({64, 64, true}).pack(inputs);
  ASSERT_TRUE(layout);
  ASSERT_EQ(layout->pages.size(), 1u);
  EXPECT_EQ(layout->pages[0].width, 64);
  EXPECT_EQ(layout->pages[0].height, 64);
  EXPECT_DOUBLE_EQ(layout->occupancy(), 1.0);
  expect_valid(inputs, *layout, {64, 64, true});
}

TEST(AtlasPacker, OpensMorePagesWhenNeeded) {
  // Five 40×40 squares on 64×64 pages: one per page.
  std::vector<PackInput> inputs(5, PackInput{40, 40, "square"});
  Expected<PackLayout> layout = AtlasPacker({64, 64, false}).pack(inputs);
  ASSERT_TRUE(layout);
  ASSERT_EQ(layout->pages.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(layout->rects[i].page, static_cast<std::int32_t>(i));
  EXPECT_NEAR(layout->occupancy(), 1600.0 / 4096.0, 1e-12);
  EXPECT_EQ(layout->used_pixels(), 5 * 1600);
  EXPECT_EQ(layout->page_pixels(), 5 * 4096);
}

TEST(AtlasPacker, ShrinksTheLastPageToTheSmallestThatHolds) {
  // Two 20×10: 32×16 has the area but not the shape; of the 1024-pixel sizes the squarer 32×32 wins.
  const std::vector<PackInput> inputs = {{20, 10, "a"}, {20, 10, "b"}};
  Expected<PackLayout> layout = AtlasPacker({64, 64, true}).pack(inputs);
  ASSERT_TRUE(layout);
  ASSERT_EQ(layout->pages.size(), 1u);
  EXPECT_EQ(layout->pages[0].width, 32);
  EXPECT_EQ(layout->pages[0].height, 32);
  EXPECT_NEAR(layout->pages[0].occupancy(), 400.0 / 1024.0, 1e-12);
  expect_valid(inputs, *layout, {64, 64, true});
  // Only the last page shrinks: with three 40×40 squares, pages 0 and 1 keep the full size.
  std::vector<PackInput> squares(3, PackInput{40, 40, "square"});
  Expected<PackLayout> three = AtlasPacker({64, 64, true}).pack(squares);
  ASSERT_TRUE(three);
  ASSERT_EQ(three->pages.size(), 3u);
  EXPECT_EQ(three->pages[0].width, 64);
  EXPECT_EQ(three->pages[1].width, 64);
  EXPECT_EQ(three->pages[2].width, 64);  // 40 does not fit in 32
}

TEST(AtlasPacker, AnInputLargerThanAPageIsAnErrorNamingIt) {
  const std::vector<PackInput> inputs = {{10, 10, "fine"}, {65, 10, "banner"}};
  Expected<PackLayout> layout = AtlasPacker({64, 64, true}).pack(inputs);
  ASSERT_FALSE(layout);
  const std::string message = layout.error().to_string();
  EXPECT_NE(message.find("\"banner\""), std::string::npos) << message;
  EXPECT_NE(message.find("65×10"), std::string::npos) << message;
  EXPECT_NE(message.find("64×64"), std::string::npos) << message;
  EXPECT_EQ(message.find("fine"), std::string::npos) << message;
}

TEST(AtlasPacker, EmptyInputsAndBadPagesAreErrors) {
  const std::vector<PackInput> empty = {{0, 10, "nothing"}};
  Expected<PackLayout> layout = AtlasPacker({64, 64, true}).pack(empty);
  ASSERT_FALSE(layout);
  EXPECT_NE(layout.error().message.find("\"nothing\""), std::string::npos);
  const std::vector<PackInput> one = {{1, 1, "dot"}};
  EXPECT_FALSE(AtlasPacker({0, 64, true}).pack(one));
  // No inputs: no pages.
  Expected<PackLayout> none = AtlasPacker({64, 64, true}).pack({});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->pages.empty());
  EXPECT_EQ(none->occupancy(), 0.0);
}

}  // namespace
}  // namespace mf::offline
