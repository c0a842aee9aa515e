#include "mf/imaging/png.hpp"

#include <spng.h>

#include <cstdlib>
#include <memory>
#include <string_view>

#include "mf/core/file_io.hpp"

namespace mf::imaging {

namespace {

struct ContextDeleter {
  void operator()(spng_ctx* ctx) const { spng_ctx_free(ctx); }
};
using Context = std::unique_ptr<spng_ctx, ContextDeleter>;

Unexpected png_error(const std::string& file, std::string message) {
  return Unexpected{Error{file, {}, {}, std::move(message)}};
}

// Ancillary chunks (text, ICC profiles, ...) are skipped past this size, so a hostile file cannot
// make the decoder hold on to large buffers.
constexpr std::size_t kChunkSizeLimit = 8u << 20;
constexpr std::size_t kChunkCacheLimit = 32u << 20;

// Deflate expands at most about 1032:1, so a file of n bytes cannot hold more than this many bytes of
// image data. Checking it before allocating the output keeps a few hostile bytes that claim a
// 16384 × 16384 image from costing a gigabyte.
constexpr std::uint64_t kMaxDeflateRatio = 1032;

int channels_of(std::uint8_t color_type) {
  switch (color_type) {
    case SPNG_COLOR_TYPE_GRAYSCALE: return 1;
    case SPNG_COLOR_TYPE_TRUECOLOR: return 3;
    case SPNG_COLOR_TYPE_INDEXED: return 1;
    case SPNG_COLOR_TYPE_GRAYSCALE_ALPHA: return 2;
    default: return 4;
  }
}

}  // namespace

Expected<Image> decode_png(std::span<const std::uint8_t> bytes, const std::string& file) {
  Context ctx(spng_ctx_new(0));
  if (!ctx) return png_error(file, "cannot create a PNG decoder");
  // CRC errors are errors (the default), including in ancillary chunks.
  spng_set_crc_action(ctx.get(), SPNG_CRC_ERROR, SPNG_CRC_ERROR);
  spng_set_image_limits(ctx.get(), kMaxImageSide, kMaxImageSide);
  spng_set_chunk_limits(ctx.get(), kChunkSizeLimit, kChunkCacheLimit);
  if (int err = spng_set_png_buffer(ctx.get(), bytes.data(), bytes.size()); err != 0)
    return png_error(file, std::string("not a readable PNG: ") + spng_strerror(err));

  spng_ihdr ihdr{};
  if (int err = spng_get_ihdr(ctx.get(), &ihdr); err != 0) {
    if (err == SPNG_EWIDTH || err == SPNG_EHEIGHT || err == SPNG_EUSER_WIDTH || err == SPNG_EUSER_HEIGHT)
      return png_error(file, "image is larger than " + std::to_string(kMaxImageSide) + "×" +
                                 std::to_string(kMaxImageSide) + " pixels");
    return png_error(file, std::string("not a PNG image: ") + spng_strerror(err));
  }

  const std::uint64_t pixel_bits = static_cast<std::uint64_t>(ihdr.width) * ihdr.height *
                                   static_cast<std::uint64_t>(channels_of(ihdr.color_type)) * ihdr.bit_depth;
  if (pixel_bits / 8 > static_cast<std::uint64_t>(bytes.size()) * kMaxDeflateRatio)
    return png_error(file, "truncated PNG: " + std::to_string(bytes.size()) + " bytes cannot hold a " +
                               std::to_string(ihdr.width) + "×" + std::to_string(ihdr.height) + " image");

  std::size_t size = 0;
  if (int err = spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size); err != 0)
    return png_error(file, std::string("cannot decode PNG: ") + spng_strerror(err));

  Image image;
  image.width = static_cast<int>(ihdr.width);
  image.height = static_cast<int>(ihdr.height);
  image.rgba.resize(size);
  if (int err = spng_decode_image(ctx.get(), image.rgba.data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS); err != 0)
    return png_error(file, std::string("corrupt or truncated PNG: ") + spng_strerror(err));
  return image;
}

Expected<Image> read_png(const std::string& path) {
  auto bytes = read_file(path);
  if (!bytes) return Unexpected{bytes.error()};
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes->data());
  return decode_png(std::span<const std::uint8_t>(data, bytes->size()), path);
}

Expected<std::vector<std::uint8_t>> encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4)
    return png_error({}, "cannot encode an image of " + std::to_string(image.width) + "×" +
                             std::to_string(image.height) + " pixels with " + std::to_string(image.rgba.size()) +
                             " bytes");
  Context ctx(spng_ctx_new(SPNG_CTX_ENCODER));
  if (!ctx) return png_error({}, "cannot create a PNG encoder");
  spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1);

  spng_ihdr ihdr{};
  ihdr.width = static_cast<std::uint32_t>(image.width);
  ihdr.height = static_cast<std::uint32_t>(image.height);
  ihdr.bit_depth = 8;
  ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
  int err = spng_set_ihdr(ctx.get(), &ihdr);
  if (err == 0)
    err = spng_encode_image(ctx.get(), image.rgba.data(), image.rgba.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
  if (err != 0) return png_error({}, std::string("cannot encode PNG: ") + spng_strerror(err));

  std::size_t length = 0;
  void* buffer = spng_get_png_buffer(ctx.get(), &length, &err);
  if (buffer == nullptr) return png_error({}, std::string("cannot encode PNG: ") + spng_strerror(err));
  const auto* begin = static_cast<const std::uint8_t*>(buffer);
  std::vector<std::uint8_t> out(begin, begin + length);
  std::free(buffer);  // the encoder's buffer is ours to free
  return out;
}

Status write_png(const std::string& path, const Image& image) {
  auto bytes = encode_png(image);
  if (!bytes) {
    Error error = bytes.error();
    error.file = path;
    return Unexpected{std::move(error)};
  }
  return write_file_atomic(path, std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
}

}  // namespace mf::imaging
