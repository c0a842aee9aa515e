#include "mf/offline/build/png_info.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace mf::offline {
namespace {

// Signature (8) + IHDR length (4) + type (4) + width (4) + height (4).
constexpr std::size_t kHeaderBytes = 24;
constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
constexpr std::uint32_t kMaxDimension = 0x7fffffffu;  // the PNG specification's limit

std::uint32_t read_u32(std::string_view bytes, std::size_t at) {
  auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])); };
  return (b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3);
}

Unexpected fail(const std::string& file, const std::string& message) { return Unexpected{Error{file, {}, {}, message}}; }

}  // namespace

Expected<PngSize> parse_png_size(std::string_view bytes, const std::string& file) {
  if (bytes.size() < sizeof kSignature || std::memcmp(bytes.data(), kSignature, sizeof kSignature) != 0)
    return fail(file, "not a PNG file (the PNG signature is missing)");
  if (bytes.size() < kHeaderBytes)
    return fail(file, "truncated PNG: the file ends inside its header (" + std::to_string(bytes.size()) + " bytes)");
  if (bytes.substr(12, 4) != "IHDR") return fail(file, "malformed PNG: the first chunk is not IHDR");
  if (read_u32(bytes, 8) != 13)
    return fail(file, "malformed PNG: IHDR has length " + std::to_string(read_u32(bytes, 8)) + ", expected 13");
  const std::uint32_t width = read_u32(bytes, 16), height = read_u32(bytes, 20);
  if (width == 0 || height == 0 || width > kMaxDimension || height > kMaxDimension)
    return fail(file, "malformed PNG: invalid image size " + std::to_string(width) + "x" + std::to_string(height));
  return PngSize{static_cast<int>(width), static_cast<int>(height)};
}

Expected<PngSize> read_png_size(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail(path, "is a directory, not a PNG file");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return fail(path, std::string("cannot open: ") + std::strerror(errno));
  // Only the header is needed: the image data is never decoded here.
  char buffer[kHeaderBytes];
  const std::size_t n = std::fread(buffer, 1, sizeof buffer, f);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return fail(path, "read error");
  return parse_png_size(std::string_view(buffer, n), path);
}

}  // namespace mf::offline
