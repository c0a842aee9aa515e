#pragma once
// PNG read and write through libspng. Every PNG colour type and bit depth decodes to RGBA8 with
// straight alpha (tRNS applied, 16-bit reduced to 8); images are written as 8-bit RGBA.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/imaging/image.hpp"

namespace mf::imaging {

// Decodes PNG bytes. `file` names the source in errors ("not a PNG", "truncated", a size over the
// limit, a CRC error, ...). Images wider or taller than kMaxImageSide are refused before decoding.
inline constexpr int kMaxImageSide = 16384;
Expected<Image> decode_png(std::span<const std::uint8_t> bytes, const std::string& file);
Expected<Image> read_png(const std::string& path);

// Encodes as 8-bit RGBA. Deterministic: the same image gives the same bytes.
Expected<std::vector<std::uint8_t>> encode_png(const Image& image);
// Writes atomically (temporary file, then rename): a failed write never leaves a damaged file.
Status write_png(const std::string& path, const Image& image);

}  // namespace mf::imaging
