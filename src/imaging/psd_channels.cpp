#include "psd_channels.hpp"

#include <vector>

namespace mf::imaging::psd {

namespace {

void put_row(const std::uint8_t* row, int width, int depth, PlaneTarget target, std::size_t first_sample) {
  if (target.first == nullptr) return;
  std::uint8_t* out = target.first + first_sample * target.step;
  if (depth == 8) {
    for (int x = 0; x < width; ++x, out += target.step) *out = row[x];
  } else {
    for (int x = 0; x < width; ++x, out += target.step)
      *out = reduce16(static_cast<std::uint32_t>(row[2 * x] << 8 | row[2 * x + 1]));
  }
}

// Unpacks one PackBits row of exactly `packed.size()` bytes into exactly `row.size()` bytes.
void unpack_row(std::span<const std::uint8_t> packed, std::span<std::uint8_t> row, std::size_t offset,
                const ChannelName& what, int row_index) {
  std::size_t in = 0, out = 0;
  auto bad = [&](const std::string& why) {
    fail_at(offset + in, "RLE row " + std::to_string(row_index) + " of " + what() + " is damaged: " + why);
  };
  while (in < packed.size()) {
    const auto header = static_cast<std::int8_t>(packed[in]);
    if (header >= 0) {
      const std::size_t n = static_cast<std::size_t>(header) + 1;
      if (in + 1 + n > packed.size()) bad("a literal run reaches past the row's byte count");
      if (out + n > row.size()) bad("it unpacks to more than " + std::to_string(row.size()) + " bytes");
      for (std::size_t k = 0; k < n; ++k) row[out + k] = packed[in + 1 + k];
      in += 1 + n;
      out += n;
    } else if (header != -128) {
      const std::size_t n = static_cast<std::size_t>(1 - header);
      if (in + 2 > packed.size()) bad("a repeat run reaches past the row's byte count");
      if (out + n > row.size()) bad("it unpacks to more than " + std::to_string(row.size()) + " bytes");
      for (std::size_t k = 0; k < n; ++k) row[out + k] = packed[in + 1];
      in += 2;
      out += n;
    } else {
      in += 1;  // -128: no operation
    }
  }
  if (out != row.size())
    fail_at(offset, "RLE row " + std::to_string(row_index) + " of " + what() + " unpacks to " + std::to_string(out) +
                        " bytes instead of " + std::to_string(row.size()));
}

}  // namespace

void check_plane_fits(Compression compression, std::uint64_t data_bytes, std::uint64_t width, std::uint64_t height,
                      int depth, std::size_t offset, const ChannelName& what) {
  const std::uint64_t bytes = width * height * static_cast<std::uint64_t>(depth / 8);
  if (compression == Compression::Raw && bytes > data_bytes)
    fail_at(offset, what() + " needs " + std::to_string(bytes) + " bytes of raw samples for " + std::to_string(width) +
                        "×" + std::to_string(height) + " pixels but has " + std::to_string(data_bytes));
  if (compression == Compression::Rle && (height * 2 > data_bytes || bytes > data_bytes * kMaxRleExpansion))
    fail_at(offset, what() + " has " + std::to_string(data_bytes) + " bytes of RLE data, too few for " +
                        std::to_string(width) + "×" + std::to_string(height) + " pixels");
}

void read_raw_plane(PsdCursor& data, int width, int height, int depth, PlaneTarget target) {
  const std::size_t row_bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(depth / 8);
  for (int y = 0; y < height; ++y) {
    const auto row = data.bytes(row_bytes, "a row of raw samples");
    put_row(row.data(), width, depth, target, static_cast<std::size_t>(y) * static_cast<std::size_t>(width));
  }
}

void read_rle_planes(PsdCursor& data, int width, int height, int depth, std::span<const PlaneTarget> planes,
                     const ChannelName& what) {
  const std::size_t rows = planes.size() * static_cast<std::size_t>(height);
  if (rows * 2 > data.remaining())
    data.fail("the RLE row byte counts of " + what() + " (" + std::to_string(rows * 2) + " bytes) run past the end of the " +
              data.section() + " (" + std::to_string(data.remaining()) + " bytes left)");
  std::vector<std::uint16_t> counts(rows);
  for (auto& count : counts) count = data.u16("an RLE row byte count");

  std::vector<std::uint8_t> row(static_cast<std::size_t>(width) * static_cast<std::size_t>(depth / 8));
  std::size_t r = 0;
  for (const PlaneTarget& target : planes) {
    for (int y = 0; y < height; ++y, ++r) {
      const std::size_t at = data.offset();
      const auto packed = data.bytes(counts[r], "an RLE row");
      unpack_row(packed, row, at, what, y);
      put_row(row.data(), width, depth, target, static_cast<std::size_t>(y) * static_cast<std::size_t>(width));
    }
  }
}

}  // namespace mf::imaging::psd
