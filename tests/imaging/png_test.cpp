// PNG read and write: every colour type and bit depth decodes to straight RGBA8, images round-trip,
// and damaged files are errors naming the file.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdint>
#include <string>
#include <vector>

#include "mf/imaging/png.hpp"
#include "support/temp_dir.hpp"

namespace mf::imaging {
namespace {

using Bytes = std::vector<std::uint8_t>;

// ---- a small PNG writer for test inputs: any colour type, stored (uncompressed) deflate blocks ----

std::uint32_t crc32(const Bytes& bytes, std::size_t from) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = from; i < bytes.size(); ++i) {
    c ^= bytes[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return c ^ 0xffffffffu;
}

void put32(Bytes& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}

void chunk(Bytes& png, const char* type, const Bytes& body) {
  put32(png, static_cast<std::uint32_t>(body.size()));
  const std::size_t start = png.size();
  png.insert(png.end(), type, type + 4);
  png.insert(png.end(), body.begin(), body.end());
  put32(png, crc32(png, start));
}

// A zlib stream of stored blocks.
Bytes zlib_stored(const Bytes& data) {
  Bytes out = {0x78, 0x01};
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(65535, data.size() - at);
    out.push_back(at + n == data.size() ? 1 : 0);
    out.push_back(static_cast<std::uint8_t>(n));
    out.push_back(static_cast<std::uint8_t>(n >> 8));
    out.push_back(static_cast<std::uint8_t>(~n));
    out.push_back(static_cast<std::uint8_t>(~n >> 8));
    out.insert(out.end(), data.begin() + static_cast<std::ptrdiff_t>(at), data.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  } while (at < data.size());
  std::uint32_t a = 1, b = 0;
  for (std::uint8_t v : data) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  put32(out, (b << 16) | a);
  return out;
}

// A PNG with the given header and scanlines (each row's filter byte 0 is added here).
Bytes make_png(std::uint32_t w, std::uint32_t h, std::uint8_t depth, std::uint8_t color_type,
               const std::vector<Bytes>& rows, const std::vector<std::pair<const char*, Bytes>>& extra = {},
               std::uint8_t interlace = 0) {
  Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr;
  put32(ihdr, w);
  put32(ihdr, h);
  ihdr.insert(ihdr.end(), {depth, color_type, 0, 0, interlace});
  chunk(png, "IHDR", ihdr);
  for (const auto& [type, body] : extra) chunk(png, type, body);
  Bytes raw;
  for (const Bytes& row : rows) {
    raw.push_back(0);
    raw.insert(raw.end(), row.begin(), row.end());
  }
  chunk(png, "IDAT", zlib_stored(raw));
  chunk(png, "IEND", {});
  return png;
}

Image image_of(int w, int h, const Bytes& rgba) {
  Image image;
  image.width = w;
  image.height = h;
  image.rgba = rgba;
  return image;
}

void expect_decodes_to(const Bytes& png, const Image& want, const char* what) {
  Expected<Image> got = decode_png(png, what);
  ASSERT_TRUE(got) << what << ": " << got.error().to_string();
  EXPECT_EQ(got->width, want.width) << what;
  EXPECT_EQ(got->height, want.height) << what;
  EXPECT_EQ(got->rgba, want.rgba) << what;
  // And back: encoded as 8-bit RGBA, it decodes to the same pixels.
  Expected<Bytes> encoded = encode_png(*got);
  ASSERT_TRUE(encoded) << encoded.error().to_string();
  Expected<Image> again = decode_png(*encoded, "again.png");
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(*again, *got) << what;
}

TEST(Png, DecodesEveryColourTypeToStraightRgba8) {
  expect_decodes_to(make_png(3, 1, 8, 0, {{0, 128, 255}}), image_of(3, 1, {0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255}),
                    "gray8");
  // 1-bit grey: 1 → 255, 0 → 0, most significant bit first.
  expect_decodes_to(make_png(4, 1, 1, 0, {{0b10100000}}),
                    image_of(4, 1, {255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255}), "gray1");
  expect_decodes_to(make_png(2, 1, 8, 4, {{50, 255, 60, 0}}), image_of(2, 1, {50, 50, 50, 255, 60, 60, 60, 0}), "gray+alpha");
  expect_decodes_to(make_png(2, 1, 8, 2, {{255, 0, 0, 9, 8, 7}}), image_of(2, 1, {255, 0, 0, 255, 9, 8, 7, 255}), "rgb");
  expect_decodes_to(make_png(2, 1, 8, 6, {{1, 2, 3, 4, 5, 6, 7, 8}}), image_of(2, 1, {1, 2, 3, 4, 5, 6, 7, 8}), "rgba");
  // Palette with tRNS: entries beyond the tRNS list are opaque.
  expect_decodes_to(make_png(3, 1, 8, 3, {{0, 1, 2}}, {{"PLTE", {255, 0, 0, 0, 255, 0, 0, 0, 255}}, {"tRNS", {0, 128}}}),
                    image_of(3, 1, {255, 0, 0, 0, 0, 255, 0, 128, 0, 0, 255, 255}), "palette+tRNS");
  // Grey with a tRNS colour key: that grey becomes transparent.
  expect_decodes_to(make_png(2, 1, 8, 0, {{7, 8}}, {{"tRNS", {0, 7}}}), image_of(2, 1, {7, 7, 7, 0, 8, 8, 8, 255}),
                    "gray+tRNS");
  // 16 bits per channel reduce to their high byte.
  expect_decodes_to(make_png(1, 2, 16, 6, {{0xff, 0xff, 0x80, 0x00, 0x00, 0x01, 0xff, 0xff}, {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0}}),
                    image_of(1, 2, {0xff, 0x80, 0x00, 0xff, 0x12, 0x56, 0x9a, 0xde}), "rgba16");
  expect_decodes_to(make_png(2, 1, 16, 0, {{0xab, 0xcd, 0x01, 0x02}}), image_of(2, 1, {0xab, 0xab, 0xab, 255, 1, 1, 1, 255}),
                    "gray16");
}

TEST(Png, DecodesInterlacedImages) {
  // A 3 × 3 Adam7 image: pass 1 holds (0, 0), pass 4 (2, 0), pass 5 (0, 2) and (2, 2), pass 6 the
  // odd columns of rows 0 and 2, pass 7 all of row 1. Grey values 10 × (y × 3 + x).
  auto v = [](int x, int y) { return static_cast<std::uint8_t>(10 * (y * 3 + x)); };
  const std::vector<Bytes> passes = {{v(0, 0)}, {v(2, 0)}, {v(0, 2), v(2, 2)}, {v(1, 0)}, {v(1, 2)}, {v(0, 1), v(1, 1), v(2, 1)}};
  Bytes want;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) want.insert(want.end(), {v(x, y), v(x, y), v(x, y), 255});
  expect_decodes_to(make_png(3, 3, 8, 0, passes, {}, 1), image_of(3, 3, want), "interlaced");
}

TEST(Png, EncodesDeterministicallyAndWritesAtomically) {
  Image image = Image::blank(5, 3);
  for (std::size_t i = 0; i < image.rgba.size(); ++i) image.rgba[i] = static_cast<std::uint8_t>(i * 7);
  Expected<Bytes> a = encode_png(image);
  Expected<Bytes> b = encode_png(image);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);

  testing::TempDir dir("mf_png");
  ASSERT_TRUE(write_png(dir.file("out.png"), image));
  Expected<Image> back = read_png(dir.file("out.png"));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, image);
  // Only the file itself is left: the temporary is renamed over it.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1);

  Expected<Bytes> empty = encode_png(Image{});
  EXPECT_FALSE(empty);
  Image inconsistent = Image::blank(2, 2);
  inconsistent.rgba.resize(3);
  EXPECT_FALSE(encode_png(inconsistent));
  EXPECT_FALSE(write_png(dir.file("bad.png"), Image{}));
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.png")));
}

TEST(Png, DamagedFilesAreErrorsNamingTheFile) {
  const Bytes good = make_png(4, 4, 8, 6, std::vector<Bytes>(4, Bytes(16, 200)));
  Expected<Image> whole = decode_png(good, "good.png");
  ASSERT_TRUE(whole);
  // Cut anywhere: never accepted, never a crash, always the file name.
  for (std::size_t n = 0; n + 1 < good.size(); ++n) {
    const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    Expected<Image> image = decode_png(cut, "cut.png");
    if (image) {
      // spng stops reading once the image data is complete, so a file cut after it (in the last
      // IDAT's CRC or in IEND) still gives the whole image.
      EXPECT_GE(n, good.size() - 16) << n;
      EXPECT_EQ(*image, *whole) << n;
      continue;
    }
    EXPECT_EQ(image.error().file, "cut.png");
    EXPECT_FALSE(image.error().message.empty());
  }
  // A flipped bit in the image data fails its CRC.
  Bytes corrupt = good;
  corrupt[45] ^= 0x10;
  Expected<Image> bad = decode_png(corrupt, "flip.png");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().to_string().rfind("flip.png", 0), 0u) << bad.error().to_string();
  // Not a PNG at all.
  const std::string text = "GIF89a, not a PNG";
  Expected<Image> gif = decode_png(Bytes(text.begin(), text.end()), "pic.gif");
  ASSERT_FALSE(gif);
  EXPECT_EQ(gif.error().file, "pic.gif");
  // A missing file names its path.
  Expected<Image> missing = read_png("/nonexistent/folder/none.png");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().to_string().find("none.png"), std::string::npos);
}

TEST(Png, HugeSizesAreRefusedBeforeAllocating) {
  // Over the side limit.
  Expected<Image> wide = decode_png(make_png(kMaxImageSide + 1, 1, 8, 0, {Bytes(kMaxImageSide + 1, 0)}), "wide.png");
  ASSERT_FALSE(wide);
  EXPECT_NE(wide.error().message.find("larger than"), std::string::npos) << wide.error().message;
  // Within the limit but claiming far more pixels than its bytes can hold: refused at once (a decoder
  // that allocated 16384 × 16384 × 4 bytes first would take much longer and a gigabyte).
  const auto start = std::chrono::steady_clock::now();
  Expected<Image> claim = decode_png(make_png(16000, 16000, 8, 6, {Bytes(4, 0)}), "claim.png");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(claim);
  EXPECT_NE(claim.error().message.find("16000×16000"), std::string::npos) << claim.error().message;
  EXPECT_LT(seconds, 0.5);
}

}  // namespace
}  // namespace mf::imaging
