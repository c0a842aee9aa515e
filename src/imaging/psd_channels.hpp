#pragma once
// Channel image data of PSD files: raw or PackBits (RLE) planes of 8- or 16-bit samples, written as
// 8-bit samples into one byte of each RGBA pixel. Private to the PSD reader.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "psd_cursor.hpp"

namespace mf::imaging::psd {

enum class Compression : std::uint16_t { Raw = 0, Rle = 1, Zip = 2, ZipPrediction = 3 };

// PackBits turns 2 bytes into at most 128, so n bytes of RLE data cannot hold more than 64 × n.
inline constexpr std::uint64_t kMaxRleExpansion = 64;

// Where one plane's samples go: sample i of the plane (row-major) lands at first[i × step].
struct PlaneTarget {
  std::uint8_t* first = nullptr;
  std::size_t step = 4;
};

// A 16-bit sample reduced to 8 bits, rounded to nearest.
inline std::uint8_t reduce16(std::uint32_t v) { return static_cast<std::uint8_t>((v * 255u + 32767u) / 65535u); }

// What a channel is, for messages ("channel 0 of layer 'Body/Arm'"); called only when one is needed.
using ChannelName = std::function<std::string()>;

// Checks that `data_bytes` of channel data in this compression can hold a plane of this size, so the
// caller can allocate the plane safely; throws naming `what` at `offset` when it cannot.
void check_plane_fits(Compression compression, std::uint64_t data_bytes, std::uint64_t width, std::uint64_t height,
                      int depth, std::size_t offset, const ChannelName& what);

// A raw plane: width × height samples of depth bits, big-endian.
void read_raw_plane(PsdCursor& data, int width, int height, int depth, PlaneTarget target);

// RLE planes stored together, as in the merged image: first the byte counts of every row of every plane
// (2 bytes each), then the rows. A layer channel is the case of one plane. `planes` may have null
// targets for planes that are read and dropped.
void read_rle_planes(PsdCursor& data, int width, int height, int depth, std::span<const PlaneTarget> planes,
                     const ChannelName& what);

}  // namespace mf::imaging::psd
