// Unpacking atlas regions: rotated regions turned upright, trims restored to the original size at
// their offset, premultiplied pages un-premultiplied, sequence frames found, missing regions noted.

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/imaging/image_ops.hpp"
#include "mf/offline/import/spine/spine_atlas.hpp"
#include "mf/offline/import/spine/spine_import.hpp"

namespace mf::offline {
namespace {

using imaging::Image;

const std::string kDir = std::string(MF_TEST_DATA_DIR) + "/spine/";

// A page whose every pixel is unique: r = x, g = y, b = 7, a = 255.
Image gradient_page(int w, int h) {
  Image page = Image::blank(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = page.pixel(x, y);
      p[0] = static_cast<std::uint8_t>(x), p[1] = static_cast<std::uint8_t>(y), p[2] = 7, p[3] = 255;
    }
  return page;
}

std::array<int, 4> at(const Image& im, int x, int y) {
  const std::uint8_t* p = im.pixel(x, y);
  return {p[0], p[1], p[2], p[3]};
}

SpineAtlasRegion region(int x, int y, int w, int h, int degrees = 0) {
  SpineAtlasRegion r;
  r.name = "r";
  r.x = x, r.y = y, r.width = w, r.height = h;
  r.original_width = w, r.original_height = h;
  r.degrees = degrees;
  return r;
}

TEST(SpineImages, PlainRegionIsACrop) {
  const Image page = gradient_page(32, 16);
  Expected<Image> im = unpack_region(page, SpineAtlasPage{}, region(3, 4, 5, 6), "a.atlas");
  ASSERT_TRUE(im) << im.error().to_string();
  EXPECT_EQ(im->width, 5);
  EXPECT_EQ(im->height, 6);
  EXPECT_EQ(at(*im, 0, 0), (std::array<int, 4>{3, 4, 7, 255}));
  EXPECT_EQ(at(*im, 4, 5), (std::array<int, 4>{7, 9, 7, 255}));
}

TEST(SpineImages, RotatedRegionIsTurnedUpright) {
  // A 4×2 image packed with rotate: 90 occupies 2×4 on the page, turned a quarter counter-clockwise:
  // its top row runs up the footprint's left column, so its top-left pixel is the footprint's
  // bottom-left one and its top-right pixel the footprint's top-left one.
  const Image page = gradient_page(16, 16);
  Expected<Image> im = unpack_region(page, SpineAtlasPage{}, region(5, 6, 4, 2, 90), "a.atlas");
  ASSERT_TRUE(im) << im.error().to_string();
  EXPECT_EQ(im->width, 4);
  EXPECT_EQ(im->height, 2);
  EXPECT_EQ(at(*im, 0, 0), (std::array<int, 4>{5, 9, 7, 255}));
  EXPECT_EQ(at(*im, 3, 0), (std::array<int, 4>{5, 6, 7, 255}));
  EXPECT_EQ(at(*im, 0, 1), (std::array<int, 4>{6, 9, 7, 255}));
  // 180 and 270 (numeric rotate values) turn further the same way.
  Expected<Image> half = unpack_region(page, SpineAtlasPage{}, region(5, 6, 4, 2, 180), "a.atlas");
  ASSERT_TRUE(half);
  EXPECT_EQ(at(*half, 0, 0), (std::array<int, 4>{8, 7, 7, 255}));
  Expected<Image> three = unpack_region(page, SpineAtlasPage{}, region(5, 6, 4, 2, 270), "a.atlas");
  ASSERT_TRUE(three);
  EXPECT_EQ(three->width, 4);
  EXPECT_EQ(at(*three, 0, 0), (std::array<int, 4>{6, 6, 7, 255}));
}

TEST(SpineImages, TrimmedRegionIsRestoredAtItsOffset) {
  // Packed 3×2, original 7×6, offset (1, 3) from the bottom-left: rows 1–2 from the top (6 − 3 − 2),
  // columns 1–3; everything else transparent.
  const Image page = gradient_page(16, 16);
  SpineAtlasRegion r = region(10, 2, 3, 2);
  r.offset_x = 1, r.offset_y = 3, r.original_width = 7, r.original_height = 6;
  Expected<Image> im = unpack_region(page, SpineAtlasPage{}, r, "a.atlas");
  ASSERT_TRUE(im) << im.error().to_string();
  EXPECT_EQ(im->width, 7);
  EXPECT_EQ(im->height, 6);
  EXPECT_EQ(at(*im, 1, 1), (std::array<int, 4>{10, 2, 7, 255}));
  EXPECT_EQ(at(*im, 3, 2), (std::array<int, 4>{12, 3, 7, 255}));
  EXPECT_EQ(at(*im, 0, 0)[3], 0);
  EXPECT_EQ(at(*im, 1, 0)[3], 0);
  EXPECT_EQ(at(*im, 1, 3)[3], 0);
  EXPECT_EQ(at(*im, 4, 1)[3], 0);
  EXPECT_EQ(imaging::alpha_bounds(*im), (imaging::Rect{1, 1, 3, 2}));
}

TEST(SpineImages, PremultipliedPagesAreUnpremultiplied) {
  Image page = Image::blank(2, 1);
  std::uint8_t* p = page.pixel(0, 0);
  p[0] = 64, p[1] = 32, p[2] = 0, p[3] = 128;
  SpineAtlasPage pma;
  pma.pma = true;
  Expected<Image> im = unpack_region(page, pma, region(0, 0, 2, 1), "a.atlas");
  ASSERT_TRUE(im);
  // 64 / (128 / 255) = 127.5 → 128 (rounding to nearest, ±1 for the rounding rule).
  EXPECT_NEAR(at(*im, 0, 0)[0], 128, 1);
  EXPECT_NEAR(at(*im, 0, 0)[1], 64, 1);
  EXPECT_EQ(at(*im, 0, 0)[3], 128);
  Expected<Image> straight = unpack_region(page, SpineAtlasPage{}, region(0, 0, 2, 1), "a.atlas");
  EXPECT_EQ(at(*straight, 0, 0)[0], 64);
}

TEST(SpineImages, RegionOutsideThePageIsAnError) {
  SpineAtlasRegion r = region(10, 10, 8, 8, 90);
  r.line = 12;
  SpineAtlasPage page;
  page.file = "p.png";
  Expected<Image> im = unpack_region(gradient_page(16, 16), page, r, "a.atlas");
  ASSERT_FALSE(im);
  EXPECT_EQ(im.error().file, "a.atlas");
  EXPECT_EQ(im.error().position.line, 12);
  EXPECT_NE(im.error().message.find("does not lie inside page \"p.png\""), std::string::npos);
}

TEST(SpineImages, HeroImagesComeFromBothPages) {
  Expected<std::string> json = read_file(kDir + "hero.json");
  Expected<std::string> atlas_text = read_file(kDir + "hero.atlas");
  ASSERT_TRUE(json && atlas_text);
  Expected<SpineImport> im = convert_spine(*json, "hero.json");
  ASSERT_TRUE(im) << im.error().to_string();
  Expected<SpineAtlas> atlas = parse_atlas(*atlas_text, "hero.atlas");
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  std::map<std::string, int> loads;
  Status s = unpack_spine_images(*im, *atlas, "hero.atlas", [&](const SpineAtlasPage& page) -> Expected<Image> {
    ++loads[page.file];
    return gradient_page(page.width, page.height);
  });
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(loads, (std::map<std::string, int>{{"hero.png", 1}, {"hero-fx.png", 1}}));  // each page once
  std::map<std::string, const Image*> images;
  for (const auto& [name, image] : im->images) images[name] = &image;
  ASSERT_EQ(images.size(), 7u);
  EXPECT_EQ(images["arm"]->width, 8);  // rotated on the page, upright here
  EXPECT_EQ(images["arm"]->height, 16);
  EXPECT_TRUE(im->skeleton.import.trim);  // the packer stripped whitespace (torso): the build trims too
  EXPECT_EQ(images["torso"]->width, 9);  // trimmed 6×6, restored to 9×10
  EXPECT_EQ(images["torso"]->height, 10);
  EXPECT_EQ(images["fx02"]->width, 4);
  for (const ImageEntry& e : im->skeleton.images)
    if (e.name == "fx02") {
      EXPECT_EQ(e.source, "hero.atlas:fx02");
    }
}

// A one-slot rig showing `attachment` (4 × 4), converted, with its images unpacked from `atlas_text`
// (every page a blank 4 × 4 image).
Expected<SpineImport> unpack_one(const std::string& attachment, const std::string& atlas_text) {
  Expected<SpineImport> im = convert_spine(R"({"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"root","attachment":")" +
                                               attachment + R"("}],"skins":[{"name":"default","attachments":{"s":{")" +
                                               attachment + R"(":{"width":4,"height":4}}}}]})",
                                           attachment + ".json");
  if (!im) return im;
  Expected<SpineAtlas> atlas = parse_atlas(atlas_text, attachment + ".atlas");
  if (!atlas) return Unexpected{atlas.error()};
  Status s = unpack_spine_images(*im, *atlas, attachment + ".atlas",
                                 [](const SpineAtlasPage&) -> Expected<Image> { return Image::blank(4, 4); });
  if (!s) return Unexpected{s.error()};
  return im;
}

// An atlas packed without whitespace stripping: Spine draws each region over its whole image, so the
// imported rig does not trim either.
TEST(SpineImages, AnAtlasWithoutStrippedRegionsTurnsTrimOff) {
  Expected<SpineImport> im = unpack_one("box", "p.png\nbox\n bounds: 0, 0, 4, 4\n");
  ASSERT_TRUE(im) << im.error().to_string();
  EXPECT_FALSE(im->skeleton.import.trim);
}

TEST(SpineImages, MissingRegionsAreNoted) {
  Expected<SpineImport> im = unpack_one("ghost", "p.png\nother\n bounds: 0, 0, 1, 1\n");
  ASSERT_TRUE(im) << im.error().to_string();
  EXPECT_TRUE(im->images.empty());
  EXPECT_TRUE(im->skeleton.import.trim);  // nothing unpacked: the default stays
  ASSERT_FALSE(im->notes.empty());
  EXPECT_NE(im->notes.back().message.find("no region \"ghost\""), std::string::npos);
}

}  // namespace
}  // namespace mf::offline
