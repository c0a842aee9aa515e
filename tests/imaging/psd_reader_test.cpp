// PSD reader: files built field by field (tests/support/psd_bytes.hpp) decode to the layers, groups,
// properties and pixels they hold; unsupported files are refused saying what they are; damaged files
// are errors with the byte offset, never a crash.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mf/imaging/psd.hpp"
#include "support/psd_bytes.hpp"
#include "support/temp_dir.hpp"

namespace mf::imaging {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using mf::testing::PsdTestFile;
using mf::testing::PsdTestLayer;
using mf::testing::psd_bytes;

// An image whose every pixel differs, with some transparency.
Image pattern(int width, int height, int seed = 0) {
  Image image = Image::blank(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = image.pixel(x, y);
      p[0] = static_cast<std::uint8_t>(x * 17 + seed);
      p[1] = static_cast<std::uint8_t>(y * 31 + seed);
      p[2] = static_cast<std::uint8_t>((x + y) * 7);
      p[3] = static_cast<std::uint8_t>(x == 0 ? 0 : 255 - y);
    }
  return image;
}

std::vector<std::vector<std::uint8_t>> planes_of(const Image& image, int count) {
  std::vector<std::vector<std::uint8_t>> planes(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < image.rgba.size(); ++i)
    if (static_cast<int>(i % 4) < count) planes[i % 4].push_back(image.rgba[i]);
  return planes;
}

// A transparent image as a merged image is stored: blended over white, x = c·a + 255·(1 − a).
std::vector<std::vector<std::uint8_t>> over_white(const Image& image) {
  auto planes = planes_of(image, 4);
  for (std::size_t i = 0; i < planes[3].size(); ++i) {
    const int a = planes[3][i];
    for (std::size_t c = 0; c < 3; ++c)
      planes[c][i] = static_cast<std::uint8_t>((planes[c][i] * a + 255 * (255 - a) + 127) / 255);
  }
  return planes;
}

// The merged image read back from over_white(image): alpha exact, colours within 1 where alpha is
// 246 or more (the rounding of blending and unblending), black where alpha is 0.
void expect_unblended(const Image& read, const Image& image) {
  ASSERT_EQ(read.width, image.width);
  ASSERT_EQ(read.height, image.height);
  for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
    const int a = image.rgba[i + 3];
    ASSERT_GE(a == 0 || a >= 246, true) << "pattern alpha out of the tested range";
    EXPECT_EQ(read.rgba[i + 3], a);
    for (std::size_t c = 0; c < 3; ++c) {
      if (a == 0)
        EXPECT_EQ(read.rgba[i + c], 0);
      else
        EXPECT_NEAR(read.rgba[i + c], image.rgba[i + c], 1) << "byte " << i + c;
    }
  }
}

Expected<PsdDocument> decode(const PsdTestFile& file) { return decode_psd(psd_bytes(file).bytes, "art.psd"); }

std::string message_of(const std::vector<std::uint8_t>& bytes) {
  auto doc = decode_psd(bytes, "art.psd");
  EXPECT_FALSE(doc.ok());
  return doc.ok() ? std::string() : doc.error().to_string();
}

// A file with one layer of `image` at (left, top), and the same image as the merged image when it fits.
PsdTestFile one_layer_file(const Image& image, int left = 0, int top = 0, std::uint16_t compression = 1) {
  PsdTestFile file;
  file.width = image.width;
  file.height = image.height;
  auto layer = mf::testing::pixel_layer("Layer 1", left, top, image);
  layer.compression = compression;
  file.layers = {layer};
  file.composite_compression = compression;
  file.composite = over_white(image);
  return file;
}

TEST(PsdReader, EightBitRleLayerAndMergedImageDecodeExactly) {
  const Image image = pattern(13, 9);
  auto doc = decode(one_layer_file(image));
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->width, 13);
  EXPECT_EQ(doc->height, 9);
  EXPECT_EQ(doc->bits_per_channel, 8);
  ASSERT_EQ(doc->layers.size(), 1u);
  const PsdLayer& layer = doc->layers[0];
  EXPECT_FALSE(layer.is_group());
  EXPECT_EQ(layer.name, "Layer 1");
  EXPECT_EQ(layer.record, 0);
  EXPECT_EQ(layer.bounds, (Rect{0, 0, 13, 9}));
  EXPECT_EQ(layer.pixels, image);
  expect_unblended(doc->composite, image);
  EXPECT_TRUE(doc->warnings.empty());
}

TEST(PsdReader, RawChannelsDecodeLikeRle) {
  const Image image = pattern(7, 5, 40);
  auto doc = decode(one_layer_file(image, 0, 0, 0));
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers.at(0).pixels, image);
  expect_unblended(doc->composite, image);
}

TEST(PsdReader, LongRunsAndLiteralsInRleRows) {
  // 300-pixel rows: repeat runs longer than 128 and literal runs longer than 128.
  Image image = Image::blank(300, 2);
  for (int x = 0; x < 300; ++x) {
    image.pixel(x, 0)[0] = 9;
    image.pixel(x, 1)[0] = static_cast<std::uint8_t>(x * 13);
    image.pixel(x, 0)[3] = image.pixel(x, 1)[3] = 255;
  }
  auto doc = decode(one_layer_file(image));
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers.at(0).pixels, image);
}

// 16-bit samples and the 8-bit values (v × 255 + 32767) / 65535 gives them.
const std::vector<std::uint16_t> k16 = {0, 65535, 128, 129, 257, 32767, 32768, 65280, 1000};
const std::vector<std::uint8_t> k16to8 = {0, 255, 0, 1, 1, 127, 128, 254, 4};

std::vector<std::uint8_t> big_endian(const std::vector<std::uint16_t>& v) {
  std::vector<std::uint8_t> out;
  for (std::uint16_t s : v) {
    out.push_back(static_cast<std::uint8_t>(s >> 8));
    out.push_back(static_cast<std::uint8_t>(s));
  }
  return out;
}

PsdTestFile sixteen_bit_file(std::uint16_t compression, bool in_lr16) {
  PsdTestFile file;
  file.width = static_cast<int>(k16.size());
  file.height = 1;
  file.depth = 16;
  file.layers_in_lr16 = in_lr16;
  PsdTestLayer layer;
  layer.name = "Deep";
  layer.right = file.width;
  layer.bottom = 1;
  layer.compression = compression;
  std::vector<std::uint16_t> reversed(k16.rbegin(), k16.rend());
  layer.channels = {{-1, big_endian(std::vector<std::uint16_t>(k16.size(), 65535))},
                    {0, big_endian(k16)},
                    {1, big_endian(reversed)},
                    {2, big_endian(k16)}};
  file.layers = {layer};
  file.composite_compression = compression;
  file.composite = {big_endian(k16), big_endian(reversed), big_endian(k16),
                    big_endian(std::vector<std::uint16_t>(k16.size(), 65535))};
  return file;
}

void expect_sixteen_bit_pixels(const Image& image) {
  ASSERT_EQ(image.width, static_cast<int>(k16.size()));
  for (int x = 0; x < image.width; ++x) {
    const std::uint8_t* p = image.pixel(x, 0);
    EXPECT_EQ(p[0], k16to8[static_cast<std::size_t>(x)]) << "sample " << k16[static_cast<std::size_t>(x)];
    EXPECT_EQ(p[1], k16to8[k16.size() - 1 - static_cast<std::size_t>(x)]);
    EXPECT_EQ(p[2], k16to8[static_cast<std::size_t>(x)]);
  }
}

TEST(PsdReader, SixteenBitSamplesAreRoundedToEightBits) {
  for (std::uint16_t compression : {0, 1}) {
    SCOPED_TRACE(compression);
    auto doc = decode(sixteen_bit_file(compression, false));
    ASSERT_TRUE(doc.ok()) << doc.error().to_string();
    EXPECT_EQ(doc->bits_per_channel, 16);
    expect_sixteen_bit_pixels(doc->layers.at(0).pixels);
    EXPECT_EQ(doc->layers.at(0).pixels.pixel(0, 0)[3], 255);
    expect_sixteen_bit_pixels(doc->composite);
  }
}

TEST(PsdReader, SixteenBitLayersInAnLr16BlockAreRead) {
  auto doc = decode(sixteen_bit_file(1, true));
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  ASSERT_EQ(doc->layers.size(), 1u);
  EXPECT_EQ(doc->layers[0].name, "Deep");
  expect_sixteen_bit_pixels(doc->layers[0].pixels);
}

TEST(PsdReader, UnicodeNamesWinOverPascalNames) {
  PsdTestFile file = one_layer_file(pattern(2, 2));
  file.layers[0].name = "Arm";
  file.layers[0].unicode_name = "Ärmel 腕 \xF0\x9F\x98\x80";  // with a character outside the BMP
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers.at(0).name, "Ärmel 腕 \xF0\x9F\x98\x80");
}

TEST(PsdReader, PascalNamesAreWindows1252) {
  PsdTestFile file = one_layer_file(pattern(2, 2));
  file.layers[0].name = std::string("Caf\xE9 \x80");
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers.at(0).name, "Café €");
}

TEST(PsdReader, LayerPropertiesAreKept) {
  PsdTestFile file = one_layer_file(pattern(4, 4));
  file.layers.push_back(mf::testing::pixel_layer("Shade", 1, 1, pattern(2, 2)));
  PsdTestLayer& shade = file.layers.back();
  shade.blend = "mul ";
  shade.opacity = 128;
  shade.fill = 51;
  shade.clipping = true;
  shade.hidden = true;
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  ASSERT_EQ(doc->layers.size(), 2u);
  const PsdLayer& base = doc->layers[0];
  EXPECT_TRUE(base.visible);
  EXPECT_EQ(base.opacity, 255);
  EXPECT_EQ(base.fill, 255);
  EXPECT_EQ(base.blend_key(), "norm");
  EXPECT_FALSE(base.clipping);
  const PsdLayer& layer = doc->layers[1];
  EXPECT_EQ(layer.name, "Shade");
  EXPECT_EQ(layer.record, 1);
  EXPECT_FALSE(layer.visible);
  EXPECT_EQ(layer.opacity, 128);
  EXPECT_EQ(layer.fill, 51);
  EXPECT_EQ(layer.blend_key(), "mul ");
  EXPECT_TRUE(layer.clipping);
  EXPECT_EQ(layer.pixels, pattern(2, 2));
}

TEST(PsdReader, LayersMayReachPastTheCanvas) {
  PsdTestFile file = one_layer_file(pattern(4, 4));
  file.layers.push_back(mf::testing::pixel_layer("Out", -3, 2, pattern(6, 5, 9)));
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers.at(1).bounds, (Rect{-3, 2, 6, 5}));
  EXPECT_EQ(doc->layers.at(1).pixels, pattern(6, 5, 9));
}

TEST(PsdReader, EmptyLayersHaveNoPixels) {
  PsdTestFile file = one_layer_file(pattern(4, 4));
  PsdTestLayer empty;
  empty.name = "Empty";
  empty.channels = mf::testing::empty_channels();
  file.layers.push_back(empty);
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  ASSERT_EQ(doc->layers.size(), 2u);
  EXPECT_TRUE(doc->layers[1].bounds.empty());
  EXPECT_TRUE(doc->layers[1].pixels.empty());
  EXPECT_TRUE(doc->layers[1].pixels.rgba.empty());
}

TEST(PsdReader, ALayerWithoutAlphaIsOpaque) {
  PsdTestFile file = one_layer_file(pattern(3, 3));
  file.layers[0].channels.pop_back();  // the alpha channel
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  const Image& pixels = doc->layers.at(0).pixels;
  for (std::size_t i = 0; i < pixels.rgba.size(); ++i)
    EXPECT_EQ(pixels.rgba[i], i % 4 == 3 ? 255 : pattern(3, 3).rgba[i]);
}

TEST(PsdReader, TheMergedImageIsUnblendedFromWhite) {
  // GIMP stores red (200, 40, 0) at alpha 128 as (227, 147, 127).
  PsdTestFile file;
  file.width = 1;
  file.height = 1;
  file.layers = {mf::testing::pixel_layer("Half", 0, 0, pattern(1, 1))};
  file.composite = {{227}, {147}, {127}, {128}};
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  const std::uint8_t* p = doc->composite.pixel(0, 0);
  EXPECT_EQ(p[0], 199);  // (227 + 128 − 255) · 255 / 128 = 199.2
  EXPECT_EQ(p[1], 40);   // (147 + 128 − 255) · 255 / 128 = 39.8
  EXPECT_EQ(p[2], 0);
  EXPECT_EQ(p[3], 128);
}

TEST(PsdReader, MergedImageWithoutTransparencyIsOpaque) {
  PsdTestFile file = one_layer_file(pattern(3, 3));
  file.negative_layer_count = false;  // the fourth channel is some other alpha channel
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  for (std::size_t i = 3; i < doc->composite.rgba.size(); i += 4) EXPECT_EQ(doc->composite.rgba[i], 255);
}

TEST(PsdReader, AFileWithoutLayersHasOnlyItsMergedImage) {
  PsdTestFile file;
  file.width = 5;
  file.height = 4;
  file.channels = 3;
  file.write_layer_info = false;
  file.composite_compression = 1;
  file.composite = planes_of(pattern(5, 4), 3);
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_TRUE(doc->layers.empty());
  Image opaque = pattern(5, 4);
  for (std::size_t i = 3; i < opaque.rgba.size(); i += 4) opaque.rgba[i] = 255;
  EXPECT_EQ(doc->composite, opaque);
}

TEST(PsdReader, AFileWithoutMergedImageHasAnEmptyComposite) {
  PsdTestFile file = one_layer_file(pattern(3, 3));
  file.composite.clear();
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_TRUE(doc->composite.empty());
  EXPECT_EQ(doc->layers.at(0).pixels, pattern(3, 3));
}

// Background, Body{ Arm, Legs{ Left, Right (hidden) } (closed) }, Hat — bottom-most first.
PsdTestFile grouped_file() {
  using mf::testing::folder;
  using mf::testing::pixel_layer;
  using mf::testing::section_divider;
  PsdTestFile file;
  file.width = 20;
  file.height = 20;
  file.layers.push_back(pixel_layer("Background", 0, 0, pattern(20, 20)));
  file.layers.push_back(section_divider());
  file.layers.push_back(pixel_layer("Arm", 2, 3, pattern(4, 2)));
  file.layers.push_back(section_divider());
  file.layers.push_back(pixel_layer("Left", 5, 10, pattern(3, 6)));
  file.layers.push_back(pixel_layer("Right", 12, 11, pattern(3, 7)));
  file.layers.back().hidden = true;
  file.layers.push_back(folder("Legs", false));
  file.layers.back().opacity = 200;
  file.layers.push_back(folder("Body", true));
  file.layers.back().unicode_name = "Körper";
  file.layers.back().hidden = true;
  file.layers.push_back(pixel_layer("Hat", 6, 0, pattern(5, 3)));
  file.composite = planes_of(pattern(20, 20), 4);
  return file;
}

TEST(PsdReader, GroupsNestAsTheirDividersSay) {
  auto doc = decode(grouped_file());
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  ASSERT_EQ(doc->layers.size(), 3u);
  EXPECT_EQ(doc->layers[0].name, "Background");
  EXPECT_EQ(doc->layers[2].name, "Hat");
  const PsdLayer& body = doc->layers[1];
  EXPECT_TRUE(body.is_group());
  EXPECT_EQ(body.name, "Körper");
  EXPECT_EQ(body.record, 7);
  EXPECT_TRUE(body.group_open);
  EXPECT_FALSE(body.visible);
  EXPECT_EQ(body.blend_key(), "pass");  // the section divider's blend key
  EXPECT_TRUE(body.pixels.empty());
  ASSERT_EQ(body.children.size(), 2u);
  EXPECT_EQ(body.children[0].name, "Arm");
  const PsdLayer& legs = body.children[1];
  EXPECT_TRUE(legs.is_group());
  EXPECT_EQ(legs.name, "Legs");
  EXPECT_FALSE(legs.group_open);
  EXPECT_EQ(legs.opacity, 200);
  ASSERT_EQ(legs.children.size(), 2u);
  EXPECT_EQ(legs.children[0].name, "Left");
  EXPECT_EQ(legs.children[1].name, "Right");
  EXPECT_FALSE(legs.children[1].visible);
  EXPECT_EQ(legs.children[1].pixels, pattern(3, 7));
  // Group bounds: the union of their children's.
  EXPECT_EQ(legs.bounds, (Rect{5, 10, 10, 8}));
  EXPECT_EQ(body.bounds, (Rect{2, 3, 13, 15}));
  EXPECT_TRUE(doc->warnings.empty());
}

TEST(PsdReader, AFolderWithoutItsDividerIsAnEmptyGroupWithAWarning) {
  PsdTestFile file = grouped_file();
  file.layers.erase(file.layers.begin() + 1);  // Body's divider
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  // Background, Arm, Legs{Left, Right}, Body{}, Hat.
  ASSERT_EQ(doc->layers.size(), 5u);
  EXPECT_EQ(doc->layers[1].name, "Arm");
  EXPECT_EQ(doc->layers[2].name, "Legs");
  EXPECT_EQ(doc->layers[2].children.size(), 2u);
  EXPECT_EQ(doc->layers[3].name, "Körper");
  EXPECT_TRUE(doc->layers[3].children.empty());
  ASSERT_EQ(doc->warnings.size(), 1u);
  EXPECT_EQ(doc->warnings[0].layer, "Körper");
  EXPECT_THAT(doc->warnings[0].message, HasSubstr("without its end marker"));
}

TEST(PsdReader, ADividerWithoutItsFolderKeepsItsLayersWithAWarning) {
  PsdTestFile file = grouped_file();
  file.layers.erase(file.layers.begin() + 7);  // Body's folder
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  // Background, Arm, Legs{Left, Right}, Hat.
  ASSERT_EQ(doc->layers.size(), 4u);
  EXPECT_EQ(doc->layers[1].name, "Arm");
  EXPECT_EQ(doc->layers[2].name, "Legs");
  EXPECT_EQ(doc->layers[3].name, "Hat");
  ASSERT_EQ(doc->warnings.size(), 1u);
  EXPECT_THAT(doc->warnings[0].message, HasSubstr("without its group"));
}

TEST(PsdReader, GroupsNestedTooDeepAreAnError) {
  PsdTestFile file;
  file.width = file.height = 1;
  for (int i = 0; i < 300; ++i) file.layers.push_back(mf::testing::section_divider());
  for (int i = 0; i < 300; ++i) file.layers.push_back(mf::testing::folder("G"));
  EXPECT_THAT(message_of(psd_bytes(file).bytes), HasSubstr("nested more than 256 deep"));
  file.layers.erase(file.layers.begin(), file.layers.begin() + 50);
  file.layers.erase(file.layers.end() - 50, file.layers.end());
  EXPECT_TRUE(decode(file).ok());
}

TEST(PsdReader, MasksAreIgnoredWithAWarningNamingTheLayer) {
  PsdTestFile file = grouped_file();
  PsdTestLayer& arm = file.layers[2];
  arm.mask_data = {0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 6, 255, 0, 0, 0};
  arm.channels.push_back({-2, std::vector<std::uint8_t>(3 * 4, 128)});
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers[1].children[0].pixels, pattern(4, 2));  // unmasked
  ASSERT_EQ(doc->warnings.size(), 1u);
  EXPECT_EQ(doc->warnings[0].layer, "Körper/Arm");
  EXPECT_EQ(doc->warnings[0].message, "layer mask ignored");
}

PsdTestLayer masked_layer(const std::string& name) {
  PsdTestLayer layer = mf::testing::pixel_layer(name, 0, 0, pattern(1, 1));
  layer.mask_data = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 255, 0, 0, 0};
  return layer;
}

TEST(PsdReader, WarningsAreCappedByCount) {
  PsdTestFile file;
  for (int i = 0; i < 1200; ++i) file.layers.push_back(masked_layer("L" + std::to_string(i)));
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers.size(), 1200u);
  ASSERT_EQ(doc->warnings.size(), 1001u);
  EXPECT_EQ(doc->warnings[999].layer, "L999");
  EXPECT_EQ(doc->warnings.back().layer, "");
  EXPECT_EQ(doc->warnings.back().message, "200 more warnings not listed");
}

TEST(PsdReader, WarningsAreCappedByTheSizeOfTheirPaths) {
  // 200 groups deep, each name 250 bytes: each warning's path is 50 kB.
  PsdTestFile file;
  for (int i = 0; i < 200; ++i) file.layers.push_back(mf::testing::section_divider());
  for (int i = 0; i < 100; ++i) file.layers.push_back(masked_layer("L"));
  for (int i = 0; i < 200; ++i) file.layers.push_back(mf::testing::folder(std::string(250, 'g')));
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  ASSERT_GE(doc->warnings.size(), 2u);
  EXPECT_LE(doc->warnings.size(), 22u);  // 1 MB / 50 kB, and the last one
  EXPECT_EQ(doc->warnings[0].layer.size(), 200u * 251u + 1u);
  EXPECT_THAT(doc->warnings.back().message, HasSubstr("more warnings not listed"));
}

TEST(PsdReader, AdjustmentFillAndSmartObjectLayersAreSkippedWithAWarning) {
  PsdTestFile file = grouped_file();
  PsdTestLayer curves = mf::testing::pixel_layer("Curves 1", 0, 0, pattern(2, 2));
  curves.blocks = {{"curv", std::vector<std::uint8_t>(8, 0)}};
  PsdTestLayer colour = mf::testing::pixel_layer("Colour Fill", 0, 0, pattern(2, 2));
  colour.blocks = {{"SoCo", std::vector<std::uint8_t>(8, 0)}};
  PsdTestLayer placed = mf::testing::pixel_layer("Logo", 0, 0, pattern(2, 2));
  placed.blocks = {{"SoLd", std::vector<std::uint8_t>(12, 0)}, {"PlLd", std::vector<std::uint8_t>(4, 0)}};
  file.layers.insert(file.layers.begin() + 4, {curves, colour, placed});  // inside Legs
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  const PsdLayer& legs = doc->layers.at(1).children.at(1);
  ASSERT_EQ(legs.children.size(), 2u);  // Left and Right only
  ASSERT_EQ(doc->warnings.size(), 3u);
  EXPECT_EQ(doc->warnings[0].layer, "Körper/Legs/Curves 1");
  EXPECT_EQ(doc->warnings[0].message, "adjustment layer (curv) skipped");
  EXPECT_EQ(doc->warnings[1].layer, "Körper/Legs/Colour Fill");
  EXPECT_EQ(doc->warnings[1].message, "fill layer (SoCo) skipped");
  EXPECT_EQ(doc->warnings[2].layer, "Körper/Legs/Logo");
  EXPECT_THAT(doc->warnings[2].message, StartsWith("smart object (SoLd) skipped"));
}

TEST(PsdReader, LayerEffectsAreIgnoredAndTheLayerKept) {
  PsdTestFile file = one_layer_file(pattern(3, 3));
  file.layers[0].blocks = {{"lfx2", std::vector<std::uint8_t>(16, 0)}, {"lrFX", std::vector<std::uint8_t>(8, 0)}};
  auto doc = decode(file);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers.at(0).pixels, pattern(3, 3));
  ASSERT_EQ(doc->warnings.size(), 1u);
  EXPECT_EQ(doc->warnings[0].layer, "Layer 1");
  EXPECT_EQ(doc->warnings[0].message, "layer effects (lfx2) ignored");
}

TEST(PsdReader, ZipChannelsAreAnErrorNamingTheLayer) {
  PsdTestFile file = grouped_file();
  file.layers[4].compression = 3;  // Left
  const auto written = psd_bytes(file);
  const std::string message = message_of(written.bytes);
  EXPECT_THAT(message, StartsWith("art.psd: at byte " + std::to_string(written.channel_data_at[4]) + ": "));
  EXPECT_THAT(message, HasSubstr("layer 'Körper/Legs/Left' has ZIP-compressed channels"));
}

TEST(PsdReader, UnsupportedFilesAreRefusedSayingWhatTheyAre) {
  auto refused = [](auto change) {
    PsdTestFile file = one_layer_file(pattern(2, 2));
    change(file);
    return message_of(psd_bytes(file).bytes);
  };
  EXPECT_THAT(refused([](PsdTestFile& f) { f.version = 2; }), HasSubstr("PSB (large document format) file, which is not read; save it as PSD"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.colour_mode = 1; }), HasSubstr("this is a grayscale PSD file; only RGB files are read"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.colour_mode = 4; }), HasSubstr("this is a CMYK PSD file"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.colour_mode = 2; }), HasSubstr("this is a indexed colour PSD file"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.colour_mode = 0; }), HasSubstr("this is a bitmap PSD file"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.colour_mode = 9; }), HasSubstr("this is a Lab colour PSD file"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.colour_mode = 8; }), HasSubstr("this is a duotone PSD file"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.colour_mode = 7; }), HasSubstr("this is a multichannel PSD file"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.depth = 32; }), HasSubstr("this is a 32-bit-per-channel PSD file; only 8- and 16-bit files are read"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.depth = 1; }), HasSubstr("this is a 1-bit-per-channel PSD file"));
  EXPECT_EQ(refused([](PsdTestFile& f) { f.version = 2; }),
            "art.psd: at byte 4: this is a PSB (large document format) file, which is not read; save it as PSD");
  EXPECT_THAT(message_of({'G', 'I', 'F', '8', '9', 'a'}), HasSubstr("not a PSD file"));
  EXPECT_THAT(refused([](PsdTestFile& f) { f.width = kMaxPsdSide + 1; }), HasSubstr("at byte 18: canvas width 30001 is outside 1..30000"));
}

TEST(PsdReader, EveryTruncationIsAnErrorWithAnOffset) {
  for (const PsdTestFile& file : {grouped_file(), sixteen_bit_file(1, true), sixteen_bit_file(0, false)}) {
    const auto bytes = psd_bytes(file).bytes;
    ASSERT_TRUE(decode_psd(bytes, "art.psd").ok());
    const std::size_t composite_at = psd_bytes(file).composite_at;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      auto doc = decode_psd(std::span<const std::uint8_t>(bytes.data(), n), "art.psd");
      if (n == composite_at) {
        // Cut just before the merged image: a file without one.
        ASSERT_TRUE(doc.ok()) << doc.error().to_string();
        EXPECT_TRUE(doc->composite.empty());
        continue;
      }
      ASSERT_FALSE(doc.ok()) << "prefix of " << n << " bytes";
      EXPECT_EQ(doc.error().file, "art.psd");
      EXPECT_THAT(doc.error().message, StartsWith("at byte ")) << n;
    }
  }
}

void put32_at(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

TEST(PsdReader, AbsurdLengthsAreErrorsAtTheirOffset) {
  const auto written = psd_bytes(grouped_file());
  {
    auto bytes = written.bytes;
    put32_at(bytes, written.layer_and_mask_length_at, 0x7fffffff);
    EXPECT_EQ(message_of(bytes), "art.psd: at byte " + std::to_string(written.layer_and_mask_length_at) +
                                     ": layer and mask information length 2147483647 runs past the end of the file (" +
                                     std::to_string(bytes.size() - written.layer_and_mask_length_at - 4) + " bytes left)");
  }
  {
    auto bytes = written.bytes;
    put32_at(bytes, 26, 0xfffffff0);  // colour mode data length
    EXPECT_THAT(message_of(bytes), StartsWith("art.psd: at byte 26: colour mode data length 4294967280 runs past"));
  }
  {
    auto bytes = written.bytes;
    bytes[written.layer_count_at] = 0x7f;  // 32 000-odd layers
    EXPECT_THAT(message_of(bytes), StartsWith("art.psd: at byte " + std::to_string(written.layer_count_at) + ": layer count"));
  }
  {
    // The Arm layer's first channel claims a gigabyte.
    auto bytes = written.bytes;
    const std::size_t length_at = written.record_at[2] + 16 + 2 + 2;
    put32_at(bytes, length_at, 1u << 30);
    const std::string message = message_of(bytes);
    EXPECT_THAT(message, HasSubstr("channel 0 of layer 'Körper/Arm' declares 1073741824 bytes"));
    EXPECT_THAT(message, StartsWith("art.psd: at byte " + std::to_string(written.channel_data_at[2]) + ": "));
  }
  {
    // Bounds of a huge layer whose channels hold a few bytes: refused before any allocation.
    auto bytes = written.bytes;
    put32_at(bytes, written.record_at[2] + 8, 200000);  // bottom
    put32_at(bytes, written.record_at[2] + 12, 200000);  // right
    EXPECT_THAT(message_of(bytes), HasSubstr("larger than 120000 on a side"));
    put32_at(bytes, written.record_at[2] + 8, 20000);
    put32_at(bytes, written.record_at[2] + 12, 20000);
    EXPECT_THAT(message_of(bytes), HasSubstr("too few for 19998×19997 pixels"));
    put32_at(bytes, written.record_at[2] + 4, static_cast<std::uint32_t>(-200000));  // left
    put32_at(bytes, written.record_at[2] + 12, static_cast<std::uint32_t>(-199990));  // right
    EXPECT_EQ(message_of(bytes), "art.psd: at byte " + std::to_string(written.record_at[2]) +
                                     ": layer 2 lies more than 120000 pixels outside the canvas (top 3, left -200000)");
  }
  {
    // A merged image claiming more raw samples than the file holds.
    PsdTestFile file = grouped_file();
    file.composite[3].resize(10);
    EXPECT_THAT(message_of(psd_bytes(file).bytes),
                HasSubstr("the merged image needs 1600 bytes of raw samples but 1210 are left"));
  }
}

TEST(PsdReader, DamagedRleRowsAreErrors) {
  const auto written = psd_bytes(one_layer_file(pattern(4, 2)));
  auto bytes = written.bytes;
  // Red: compression (2), two row counts (4), then the first row; its header byte now asks for 100 literals.
  bytes[written.channel_data_at[0] + 6] = 99;
  EXPECT_THAT(message_of(bytes), HasSubstr("RLE row 0 of channel of layer 'Layer 1' is damaged"));
}

TEST(PsdReader, BadSignaturesAreErrors) {
  const auto written = psd_bytes(one_layer_file(pattern(2, 2)));
  auto bytes = written.bytes;
  const std::size_t blend_at = written.record_at[0] + 16 + 2 + 4 * 6;
  bytes[blend_at] = 'M';  // ImageMagick 6.9 writes "MIB8"
  EXPECT_EQ(message_of(bytes), "art.psd: at byte " + std::to_string(blend_at) +
                                   ": layer 0's blend mode signature is 'MBIM' instead of '8BIM'");
}

TEST(PsdReader, ReadPsdReadsAFileAndNamesMissingOnes) {
  mf::testing::TempDir dir("psd_reader");
  const auto path = (dir.path() / "art.psd").string();
  const auto bytes = psd_bytes(grouped_file()).bytes;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  auto doc = read_psd(path);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->layers.size(), 3u);
  auto missing = read_psd((dir.path() / "none.psd").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().to_string(), HasSubstr("none.psd"));
}

}  // namespace
}  // namespace mf::imaging
