#pragma once
// PSD bytes for tests, written field by field after Adobe's file format specification: a canvas, layer
// records (names, Unicode names, bounds, channels raw or RLE at 8 or 16 bits, blend key, opacity,
// clipping, visibility, section dividers, fill, any additional block) and the merged image. Each field
// can be set to what a damaged or unusual file holds, and the writer reports where the main fields
// landed so tests can damage them.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mf/imaging/image.hpp"

namespace mf::testing {

using PsdByteVector = std::vector<std::uint8_t>;

struct PsdTestLayer {
  std::string name;          // the Pascal name, stored as given (one byte a character)
  std::string unicode_name;  // UTF-8; written as a `luni` block when not empty
  int top = 0, left = 0, bottom = 0, right = 0;
  // Channels in record order: id (0 red, 1 green, 2 blue, -1 alpha, -2 user mask) and samples,
  // big-endian at the file's depth, row by row over the layer's bounds (or stored as given: `stored`).
  std::vector<std::pair<std::int16_t, PsdByteVector>> channels;
  std::uint16_t compression = 1;  // 0 raw, 1 RLE (PackBits); other values are written with the samples as given
  std::string blend = "norm";
  std::uint8_t opacity = 255;
  bool clipping = false;
  bool hidden = false;
  int section = -1;            // `lsct` type (0..3) when >= 0
  std::string section_blend;   // `lsct` blend key, when not empty
  int fill = -1;               // `iOpa` when >= 0
  PsdByteVector mask_data;     // the layer mask data (0, 20 or more bytes)
  std::vector<std::pair<std::string, PsdByteVector>> blocks;  // further additional information: key, data
};

struct PsdTestFile {
  int width = 1, height = 1;
  int depth = 8;
  int channels = 4;
  int version = 1;
  int colour_mode = 3;
  std::vector<PsdTestLayer> layers;  // bottom-most first
  bool write_layer_info = true;      // false: no layer info at all (a flat file)
  bool negative_layer_count = true;  // the merged image's first alpha channel is its transparency
  bool layers_in_lr16 = false;       // Photoshop's 16-bit layout: empty layer info, layers in an Lr16 block
  std::uint16_t composite_compression = 0;
  std::vector<PsdByteVector> composite;  // planes at the file's depth; none: no merged image section
};

// Where the writer put things: offsets in the file.
struct PsdTestBytes {
  PsdByteVector bytes;
  std::size_t layer_and_mask_length_at = 0;
  std::size_t layer_count_at = 0;
  std::vector<std::size_t> record_at;        // each layer record's start (its bounds)
  std::vector<std::size_t> channel_data_at;  // each layer's first channel data (its compression field)
  std::size_t composite_at = 0;              // the merged image's compression field
};

namespace psd_detail {

inline void put8(PsdByteVector& out, unsigned v) { out.push_back(static_cast<std::uint8_t>(v)); }
inline void put16(PsdByteVector& out, unsigned v) {
  put8(out, v >> 8);
  put8(out, v);
}
inline void put32(PsdByteVector& out, std::uint32_t v) {
  put16(out, v >> 16);
  put16(out, v & 0xffff);
}
inline void put_text(PsdByteVector& out, const std::string& s) { out.insert(out.end(), s.begin(), s.end()); }
inline void put_bytes(PsdByteVector& out, const PsdByteVector& b) { out.insert(out.end(), b.begin(), b.end()); }
inline void patch32(PsdByteVector& out, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

// UTF-8 to UTF-16 code units (valid input assumed).
inline std::vector<std::uint16_t> utf16(const std::string& s) {
  std::vector<std::uint16_t> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<std::uint8_t>(s[i]);
    std::uint32_t cp = c;
    std::size_t n = 1;
    if (c >= 0xf0) { cp = c & 0x07u; n = 4; }
    else if (c >= 0xe0) { cp = c & 0x0fu; n = 3; }
    else if (c >= 0xc0) { cp = c & 0x1fu; n = 2; }
    for (std::size_t k = 1; k < n; ++k) cp = cp << 6 | (static_cast<std::uint8_t>(s[i + k]) & 0x3fu);
    i += n;
    if (cp >= 0x10000) {
      out.push_back(static_cast<std::uint16_t>(0xd800 + ((cp - 0x10000) >> 10)));
      out.push_back(static_cast<std::uint16_t>(0xdc00 + ((cp - 0x10000) & 0x3ff)));
    } else {
      out.push_back(static_cast<std::uint16_t>(cp));
    }
  }
  return out;
}

}  // namespace psd_detail

// PackBits: runs of 3 or more equal bytes as repeats, the rest as literals of at most 128 bytes.
inline PsdByteVector packbits(std::span<const std::uint8_t> row) {
  PsdByteVector out;
  std::size_t i = 0;
  while (i < row.size()) {
    std::size_t run = 1;
    while (i + run < row.size() && run < 128 && row[i + run] == row[i]) ++run;
    if (run >= 3) {
      out.push_back(static_cast<std::uint8_t>(257 - run));
      out.push_back(row[i]);
      i += run;
      continue;
    }
    std::size_t j = i;
    while (j < row.size() && j - i < 128) {
      if (j + 2 < row.size() && row[j] == row[j + 1] && row[j] == row[j + 2]) break;
      ++j;
    }
    out.push_back(static_cast<std::uint8_t>(j - i - 1));
    out.insert(out.end(), row.begin() + static_cast<std::ptrdiff_t>(i), row.begin() + static_cast<std::ptrdiff_t>(j));
    i = j;
  }
  return out;
}

// One channel's stored bytes after the compression field: raw samples, or RLE row counts and rows.
// Samples that do not fill the rows (a file whose depth field was changed to one the reader refuses)
// are stored as given.
inline PsdByteVector encode_plane(const PsdByteVector& samples, std::uint16_t compression, std::size_t rows,
                                  std::size_t row_bytes) {
  if (compression != 1 || rows == 0 || row_bytes == 0 || samples.size() != rows * row_bytes) return samples;
  PsdByteVector counts, data;
  for (std::size_t y = 0; y < rows; ++y) {
    const auto packed = packbits(std::span<const std::uint8_t>(samples).subspan(y * row_bytes, row_bytes));
    psd_detail::put16(counts, static_cast<unsigned>(packed.size()));
    data.insert(data.end(), packed.begin(), packed.end());
  }
  counts.insert(counts.end(), data.begin(), data.end());
  return counts;
}

// Red, green, blue and alpha channels without samples, as an empty layer has.
inline std::vector<std::pair<std::int16_t, PsdByteVector>> empty_channels() {
  std::vector<std::pair<std::int16_t, PsdByteVector>> out(4);
  out[0].first = 0;
  out[1].first = 1;
  out[2].first = 2;
  out[3].first = -1;
  return out;
}

// The planes of an RGBA8 image (red, green, blue, alpha), 8-bit samples.
inline std::vector<std::pair<std::int16_t, PsdByteVector>> rgba_channels(const imaging::Image& image) {
  std::vector<std::pair<std::int16_t, PsdByteVector>> out = empty_channels();
  for (std::size_t i = 0; i < image.rgba.size(); ++i) out[i % 4].second.push_back(image.rgba[i]);
  return out;
}

// A pixel layer at (left, top) holding an RGBA8 image.
inline PsdTestLayer pixel_layer(const std::string& name, int left, int top, const imaging::Image& image) {
  PsdTestLayer layer;
  layer.name = name;
  layer.left = left;
  layer.top = top;
  layer.right = left + image.width;
  layer.bottom = top + image.height;
  layer.channels = rgba_channels(image);
  return layer;
}

// A group's two records: the divider (below its layers) and the folder (above them).
inline PsdTestLayer section_divider() {
  PsdTestLayer layer;
  layer.name = "</Layer group>";
  layer.section = 3;
  layer.channels = empty_channels();
  return layer;
}
inline PsdTestLayer folder(const std::string& name, bool open = true) {
  PsdTestLayer layer;
  layer.name = name;
  layer.section = open ? 1 : 2;
  layer.section_blend = "pass";
  layer.channels = empty_channels();
  return layer;
}

inline PsdTestBytes psd_bytes(const PsdTestFile& file) {
  using namespace psd_detail;
  PsdTestBytes result;
  PsdByteVector& out = result.bytes;
  put_text(out, "8BPS");
  put16(out, static_cast<unsigned>(file.version));
  out.insert(out.end(), 6, 0);
  put16(out, static_cast<unsigned>(file.channels));
  put32(out, static_cast<std::uint32_t>(file.height));
  put32(out, static_cast<std::uint32_t>(file.width));
  put16(out, static_cast<unsigned>(file.depth));
  put16(out, static_cast<unsigned>(file.colour_mode));
  put32(out, 0);  // colour mode data
  put32(out, 0);  // image resources

  const std::size_t bytes_per_sample = static_cast<std::size_t>(file.depth / 8);
  result.layer_and_mask_length_at = out.size();
  put32(out, 0);
  if (file.write_layer_info) {
    // The layer info body: count, records, channel data.
    PsdByteVector body;
    std::vector<std::size_t> record_at, channel_at;
    put16(body, static_cast<unsigned>(static_cast<std::int16_t>(
                    (file.negative_layer_count ? -1 : 1) * static_cast<int>(file.layers.size()))));
    std::vector<std::vector<PsdByteVector>> stored(file.layers.size());
    for (std::size_t l = 0; l < file.layers.size(); ++l) {
      const PsdTestLayer& layer = file.layers[l];
      const auto w = static_cast<std::size_t>(layer.right - layer.left), h = static_cast<std::size_t>(layer.bottom - layer.top);
      record_at.push_back(body.size());
      put32(body, static_cast<std::uint32_t>(layer.top));
      put32(body, static_cast<std::uint32_t>(layer.left));
      put32(body, static_cast<std::uint32_t>(layer.bottom));
      put32(body, static_cast<std::uint32_t>(layer.right));
      put16(body, static_cast<unsigned>(layer.channels.size()));
      for (const auto& [id, samples] : layer.channels) {
        PsdByteVector data;
        if (!(w == 0 || h == 0) || !samples.empty()) {
          put16(data, layer.compression);
          put_bytes(data, encode_plane(samples, layer.compression, h, w * bytes_per_sample));
        } else {
          put16(data, 0);
        }
        put16(body, static_cast<unsigned>(static_cast<std::uint16_t>(id)));
        put32(body, static_cast<std::uint32_t>(data.size()));
        stored[l].push_back(std::move(data));
      }
      put_text(body, "8BIM");
      put_text(body, layer.blend);
      put8(body, layer.opacity);
      put8(body, layer.clipping ? 1 : 0);
      put8(body, layer.hidden ? 0x0a : 0x08);
      put8(body, 0);
      PsdByteVector extra;
      put32(extra, static_cast<std::uint32_t>(layer.mask_data.size()));
      put_bytes(extra, layer.mask_data);
      put32(extra, 0);  // blending ranges
      put8(extra, static_cast<unsigned>(layer.name.size()));
      put_text(extra, layer.name);
      for (std::size_t n = 1 + layer.name.size(); n % 4 != 0; ++n) put8(extra, 0);  // name padded to 4
      auto block = [&](const std::string& key, const PsdByteVector& data) {
        put_text(extra, "8BIM");
        put_text(extra, key);
        put32(extra, static_cast<std::uint32_t>(data.size()));
        put_bytes(extra, data);
      };
      if (!layer.unicode_name.empty()) {
        const auto units = utf16(layer.unicode_name);
        PsdByteVector data;
        put32(data, static_cast<std::uint32_t>(units.size()));
        for (std::uint16_t u : units) put16(data, u);
        if (data.size() % 4 != 0) put16(data, 0);
        block("luni", data);
      }
      if (layer.section >= 0) {
        PsdByteVector data;
        put32(data, static_cast<std::uint32_t>(layer.section));
        if (!layer.section_blend.empty()) {
          put_text(data, "8BIM");
          put_text(data, layer.section_blend);
        }
        block("lsct", data);
      }
      if (layer.fill >= 0) block("iOpa", PsdByteVector{static_cast<std::uint8_t>(layer.fill), 0, 0, 0});
      for (const auto& [key, data] : layer.blocks) block(key, data);
      put32(body, static_cast<std::uint32_t>(extra.size()));
      put_bytes(body, extra);
    }
    for (std::size_t l = 0; l < file.layers.size(); ++l) {
      channel_at.push_back(body.size());
      for (const auto& data : stored[l]) put_bytes(body, data);
    }
    if (body.size() % 2 != 0) put8(body, 0);

    if (file.layers_in_lr16) {
      put32(out, 0);  // empty layer info
      put32(out, 0);  // global layer mask info
      put_text(out, "8BIMLr16");
      while (body.size() % 4 != 0) put8(body, 0);
      put32(out, static_cast<std::uint32_t>(body.size()));
      put_bytes(out, body);
    } else {
      put32(out, static_cast<std::uint32_t>(body.size()));
      put_bytes(out, body);
      put32(out, 0);  // global layer mask info
    }
    // Where the body landed: after the layer info length, or inside the Lr16 block.
    result.layer_count_at = file.layers_in_lr16 ? result.layer_and_mask_length_at + 4 + 4 + 4 + 12
                                                : result.layer_and_mask_length_at + 4 + 4;
    for (std::size_t at : record_at) result.record_at.push_back(result.layer_count_at + at);
    for (std::size_t at : channel_at) result.channel_data_at.push_back(result.layer_count_at + at);
    patch32(out, result.layer_and_mask_length_at,
            static_cast<std::uint32_t>(out.size() - result.layer_and_mask_length_at - 4));
  }

  result.composite_at = out.size();
  if (!file.composite.empty()) {
    put16(out, file.composite_compression);
    const std::size_t rows = static_cast<std::size_t>(file.height);
    const std::size_t row_bytes = static_cast<std::size_t>(file.width) * bytes_per_sample;
    if (file.composite_compression == 1) {
      PsdByteVector counts, data;
      for (const auto& plane : file.composite) {
        if (plane.size() != rows * row_bytes) {  // a depth the reader refuses: stored as given
          put_bytes(data, plane);
          continue;
        }
        for (std::size_t y = 0; y < rows; ++y) {
          const auto packed = packbits(std::span<const std::uint8_t>(plane).subspan(y * row_bytes, row_bytes));
          put16(counts, static_cast<unsigned>(packed.size()));
          put_bytes(data, packed);
        }
      }
      put_bytes(out, counts);
      put_bytes(out, data);
    } else {
      for (const auto& plane : file.composite) put_bytes(out, plane);
    }
  }
  return result;
}

}  // namespace mf::testing
