// Fuzzes the PNG reader (libspng underneath). Beyond "no crash": an accepted image has a positive
// size within the limit and exactly width × height × 4 bytes, encodes, and decodes back to the same
// pixels; a refused one has a message naming the file.
//
// Each input is decoded twice: as it is, and with every chunk's CRC recomputed, since almost every
// mutation of a PNG breaks a CRC and would otherwise never get past the chunk reader.

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "mf/imaging/png.hpp"

namespace {

std::uint32_t crc32(const std::uint8_t* data, std::size_t size) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = 0; i < size; ++i) {
    c ^= data[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return c ^ 0xffffffffu;
}

// The input with the CRC of every whole chunk after the signature rewritten to match.
std::vector<std::uint8_t> with_fixed_crcs(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> out(data, data + size);
  std::size_t at = 8;
  while (at + 12 <= out.size()) {
    const std::uint64_t length = (std::uint64_t{out[at]} << 24) | (std::uint64_t{out[at + 1]} << 16) |
                                 (std::uint64_t{out[at + 2]} << 8) | out[at + 3];
    if (length > out.size() - at - 12) break;
    const auto body = static_cast<std::size_t>(length);
    const std::uint32_t crc = crc32(&out[at + 4], body + 4);
    for (int b = 0; b < 4; ++b) out[at + 8 + body + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(crc >> (24 - 8 * b));
    at += 12 + body;
  }
  return out;
}

void check(std::span<const std::uint8_t> bytes) {
  using namespace mf::imaging;
  auto image = decode_png(bytes, "fuzz.png");
  if (!image.ok()) {
    if (image.error().file != "fuzz.png" || image.error().message.empty()) std::abort();
    return;
  }
  if (image->width <= 0 || image->height <= 0 || image->width > kMaxImageSide || image->height > kMaxImageSide)
    std::abort();
  if (image->rgba.size() != static_cast<std::size_t>(image->width) * static_cast<std::size_t>(image->height) * 4)
    std::abort();
  auto encoded = encode_png(*image);
  if (!encoded.ok()) std::abort();
  auto again = decode_png(*encoded, "again.png");
  if (!again.ok() || !(*again == *image)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check(std::span<const std::uint8_t>(data, size));
  const std::vector<std::uint8_t> fixed = with_fixed_crcs(data, size);
  check(fixed);
  return 0;
}
