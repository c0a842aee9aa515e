// PSD reader: the file's sections in order (header, colour mode data, image resources, layer and mask
// information, merged image), after Adobe's "Photoshop File Formats Specification".

#include "mf/imaging/psd.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

#include "mf/core/file_io.hpp"
#include "psd_channels.hpp"
#include "psd_cursor.hpp"
#include "psd_layer_tree.hpp"

namespace mf::imaging {

namespace {

using psd::Compression;
using psd::fail_at;
using psd::FlatRecord;
using psd::PsdCursor;
using psd::SectionType;

constexpr std::int64_t kMaxLayerSide = kMaxPsdLayerSide;

struct ChannelInfo {
  std::int16_t id = 0;
  std::uint32_t length = 0;
};

struct Record {
  FlatRecord flat;
  std::vector<ChannelInfo> channels;
  std::size_t offset = 0;  // where the record starts, for messages
};

struct LayerSection {
  std::vector<Record> records;
  bool merged_alpha = false;  // a negative layer count: the merged image's first alpha channel is its transparency
  bool present = false;
};

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string printable_tag(const std::string& tag) {
  std::string out;
  for (char c : tag) out += (c >= 32 && c < 127) ? c : '?';
  return out;
}

// ---- text ----

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

// Pascal names are in the system's code page; Windows-1252 is Latin-1 except for 0x80–0x9f.
std::string windows1252_to_utf8(std::span<const std::uint8_t> bytes) {
  static constexpr std::array<std::uint16_t, 32> kHigh = {
      0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160,
      0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd, 0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
      0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178};
  std::string out;
  for (std::uint8_t b : bytes) append_utf8(out, b >= 0x80 && b < 0xa0 ? kHigh[b - 0x80] : b);
  return out;
}

// UTF-16BE code units to UTF-8; unpaired surrogates become U+FFFD, a trailing NUL is dropped.
std::string utf16_to_utf8(const std::vector<std::uint16_t>& units) {
  std::string out;
  std::size_t n = units.size();
  while (n > 0 && units[n - 1] == 0) --n;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t u = units[i];
    if (u >= 0xd800 && u < 0xdc00 && i + 1 < n && units[i + 1] >= 0xdc00 && units[i + 1] < 0xe000) {
      u = 0x10000 + ((u - 0xd800) << 10) + (units[i + 1] - 0xdc00u);
      ++i;
    } else if (u >= 0xd800 && u < 0xe000) {
      u = 0xfffd;
    }
    append_utf8(out, u);
  }
  return out;
}

// ---- header ----

struct Header {
  int channels = 0;
  int width = 0, height = 0;
  int depth = 8;
};

const char* colour_mode_name(std::uint16_t mode) {
  switch (mode) {
    case 0: return "bitmap";
    case 1: return "grayscale";
    case 2: return "indexed colour";
    case 3: return "RGB";
    case 4: return "CMYK";
    case 7: return "multichannel";
    case 8: return "duotone";
    case 9: return "Lab colour";
    default: return nullptr;
  }
}

Header read_header(PsdCursor& in) {
  Header h;
  if (in.remaining() < 4 || in.tag("signature") != "8BPS") fail_at(0, "not a PSD file (no 8BPS signature)");
  const std::size_t version_at = in.offset();
  const std::uint16_t version = in.u16("version");
  if (version == 2)
    fail_at(version_at, "this is a PSB (large document format) file, which is not read; save it as PSD");
  if (version != 1) fail_at(version_at, "unknown PSD version " + std::to_string(version));
  in.skip(6, "reserved bytes");
  const std::size_t channels_at = in.offset();
  h.channels = in.u16("channel count");
  const std::size_t height_at = in.offset();
  const std::uint32_t height = in.u32("height");
  const std::size_t width_at = in.offset();
  const std::uint32_t width = in.u32("width");
  const std::size_t depth_at = in.offset();
  h.depth = in.u16("depth");
  const std::size_t mode_at = in.offset();
  const std::uint16_t mode = in.u16("colour mode");

  if (height == 0 || height > static_cast<std::uint32_t>(kMaxPsdSide))
    fail_at(height_at, "canvas height " + std::to_string(height) + " is outside 1.." + std::to_string(kMaxPsdSide));
  if (width == 0 || width > static_cast<std::uint32_t>(kMaxPsdSide))
    fail_at(width_at, "canvas width " + std::to_string(width) + " is outside 1.." + std::to_string(kMaxPsdSide));
  if (mode != 3) {
    const char* name = colour_mode_name(mode);
    fail_at(mode_at, name ? std::string("this is a ") + name + " PSD file; only RGB files are read"
                          : "unknown colour mode " + std::to_string(mode) + "; only RGB files are read");
  }
  if (h.depth == 1 || h.depth == 32)
    fail_at(depth_at, "this is a " + std::to_string(h.depth) + "-bit-per-channel PSD file; only 8- and 16-bit files are read");
  if (h.depth != 8 && h.depth != 16) fail_at(depth_at, "unknown channel depth " + std::to_string(h.depth));
  if (h.channels < 3 || h.channels > 56)
    fail_at(channels_at, "an RGB file needs 3 to 56 channels, this one has " + std::to_string(h.channels));
  h.width = static_cast<int>(width);
  h.height = static_cast<int>(height);
  return h;
}

// ---- layer records ----

constexpr std::array<std::string_view, 16> kAdjustmentKeys = {"levl", "curv", "brit", "blnc", "hue2", "hue ",
                                                              "selc", "mixr", "grdm", "phfl", "expA", "vibA",
                                                              "thrs", "post", "nvrt", "blwh"};
constexpr std::array<std::string_view, 4> kFillKeys = {"clrL", "SoCo", "GdFl", "PtFl"};
constexpr std::array<std::string_view, 4> kSmartObjectKeys = {"SoLd", "SoLE", "PlLd", "plLd"};
constexpr std::array<std::string_view, 3> kEffectKeys = {"lfx2", "lrFX", "lmfx"};

template <std::size_t N>
bool is_one_of(const std::string& key, const std::array<std::string_view, N>& keys) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

void read_mask_data(PsdCursor& mask, FlatRecord& flat) {
  if (mask.remaining() < 16) return;
  const std::int32_t top = mask.i32("mask top"), left = mask.i32("mask left");
  const std::int32_t bottom = mask.i32("mask bottom"), right = mask.i32("mask right");
  if (bottom > top && right > left) flat.notes.push_back("layer mask ignored");
}

void read_tagged_block(PsdCursor& block, const std::string& key, Record& record, std::string& unicode_name,
                       bool& skip_noted) {
  FlatRecord& flat = record.flat;
  if (key == "luni") {
    const std::size_t at = block.offset();
    const std::uint32_t count = block.u32("Unicode name length");
    if (static_cast<std::uint64_t>(count) * 2 > block.remaining())
      fail_at(at, "Unicode name length " + std::to_string(count) + " runs past the end of its block (" +
                      std::to_string(block.remaining()) + " bytes left)");
    std::vector<std::uint16_t> units(count);
    for (auto& u : units) u = block.u16("Unicode name");
    unicode_name = utf16_to_utf8(units);
  } else if (key == "lsct" || key == "lsdk") {
    const std::size_t at = block.offset();
    const std::uint32_t type = block.u32("section divider type");
    if (type > 3) fail_at(at, "unknown section divider type " + std::to_string(type));
    flat.section = static_cast<SectionType>(type);
    if (block.remaining() >= 8) {
      const std::size_t sig_at = block.offset();
      if (block.tag("section blend signature") != "8BIM")
        fail_at(sig_at, "the section divider's blend mode has no 8BIM signature");
      const std::string blend = block.tag("section blend mode");
      std::memcpy(flat.layer.blend, blend.data(), 4);
    }
  } else if (key == "iOpa") {
    flat.layer.fill = block.u8("fill opacity");
  } else if (is_one_of(key, kAdjustmentKeys) || is_one_of(key, kFillKeys)) {
    flat.skipped = true;
    if (!skip_noted)
      flat.notes.push_back((is_one_of(key, kFillKeys) ? "fill layer (" : "adjustment layer (") + key + ") skipped");
    skip_noted = true;
  } else if (is_one_of(key, kSmartObjectKeys)) {
    flat.skipped = true;
    if (!skip_noted) flat.notes.push_back("smart object (" + key + ") skipped; rasterize it to import its pixels");
    skip_noted = true;
  } else if (is_one_of(key, kEffectKeys)) {
    // Writers often store the same effects twice (lrFX and lfx2): one warning.
    const bool noted = std::any_of(flat.notes.begin(), flat.notes.end(),
                                   [](const std::string& n) { return n.rfind("layer effects", 0) == 0; });
    if (!noted) flat.notes.push_back("layer effects (" + key + ") ignored");
  } else if (key == "vmsk" || key == "vsms") {
    flat.notes.push_back("vector mask ignored");
  }
}

Record read_layer_record(PsdCursor& in, int index) {
  Record record;
  record.offset = in.offset();
  FlatRecord& flat = record.flat;
  PsdLayer& layer = flat.layer;
  layer.record = index;

  const std::size_t bounds_at = in.offset();
  const std::int64_t top = in.i32("layer top"), left = in.i32("layer left");
  const std::int64_t bottom = in.i32("layer bottom"), right = in.i32("layer right");
  if (bottom < top || right < left)
    fail_at(bounds_at, "layer " + std::to_string(index) + " has inverted bounds (top " + std::to_string(top) +
                           ", left " + std::to_string(left) + ", bottom " + std::to_string(bottom) + ", right " +
                           std::to_string(right) + ")");
  if (bottom - top > kMaxLayerSide || right - left > kMaxLayerSide)
    fail_at(bounds_at, "layer " + std::to_string(index) + " is " + std::to_string(right - left) + "×" +
                           std::to_string(bottom - top) + " pixels, larger than " + std::to_string(kMaxLayerSide) +
                           " on a side");
  if (top < -kMaxLayerSide || left < -kMaxLayerSide || bottom > kMaxPsdSide + kMaxLayerSide ||
      right > kMaxPsdSide + kMaxLayerSide)
    fail_at(bounds_at, "layer " + std::to_string(index) + " lies more than " + std::to_string(kMaxLayerSide) +
                           " pixels outside the canvas (top " + std::to_string(top) + ", left " + std::to_string(left) +
                           ")");
  layer.bounds = Rect{static_cast<int>(left), static_cast<int>(top), static_cast<int>(right - left),
                      static_cast<int>(bottom - top)};

  const std::size_t count_at = in.offset();
  const std::uint16_t channel_count = in.u16("channel count");
  if (static_cast<std::size_t>(channel_count) * 6 > in.remaining())
    fail_at(count_at, "layer channel count " + std::to_string(channel_count) + " runs past the end of the " +
                          in.section());
  record.channels.resize(channel_count);
  for (auto& channel : record.channels) {
    channel.id = in.i16("channel id");
    channel.length = in.u32("channel length");
  }

  const std::size_t sig_at = in.offset();
  const std::string signature = in.tag("blend mode signature");
  if (signature != "8BIM")
    fail_at(sig_at, "layer " + std::to_string(index) + "'s blend mode signature is '" + printable_tag(signature) +
                        "' instead of '8BIM'");
  const std::string blend = in.tag("blend mode key");
  std::memcpy(layer.blend, blend.data(), 4);
  layer.opacity = in.u8("opacity");
  layer.clipping = in.u8("clipping") != 0;
  const std::uint8_t flags = in.u8("flags");
  layer.visible = (flags & 0x02) == 0;
  in.u8("filler");

  PsdCursor extra = in.section_u32("layer extra data");
  PsdCursor mask = extra.section_u32("layer mask data");
  read_mask_data(mask, flat);
  extra.section_u32("layer blending ranges");
  const std::uint8_t name_length = extra.u8("layer name length");
  layer.name = windows1252_to_utf8(extra.bytes(name_length, "layer name"));
  extra.skip_padding((4 - (1 + name_length) % 4) % 4);

  std::string unicode_name;
  bool skip_noted = false;
  while (extra.remaining() >= 12) {
    const std::size_t block_at = extra.offset();
    const std::string block_signature = extra.tag("additional layer information signature");
    if (block_signature != "8BIM" && block_signature != "8B64")
      fail_at(block_at, "layer " + quoted(layer.name) + " has additional information with signature '" +
                            printable_tag(block_signature) + "' instead of '8BIM'");
    const std::string key = extra.tag("additional layer information key");
    PsdCursor block = extra.section_u32("additional layer information");
    read_tagged_block(block, key, record, unicode_name, skip_noted);
  }
  if (!unicode_name.empty()) layer.name = unicode_name;
  // A user mask channel with pixels is a mask too, even where the mask data above was left empty.
  const bool noted = std::find(flat.notes.begin(), flat.notes.end(), "layer mask ignored") != flat.notes.end();
  const bool mask_channel = std::any_of(record.channels.begin(), record.channels.end(),
                                        [](const ChannelInfo& c) { return c.id == -2 && c.length > 2; });
  if (flat.section != SectionType::Divider && mask_channel && !noted) flat.notes.push_back("layer mask ignored");
  return record;
}

// ---- channel image data ----

// One layer's channels, in record order; pixel layers get their RGBA pixels.
void read_layer_channels(PsdCursor& in, Record& record, int depth, const psd::RecordPaths& paths) {
  PsdLayer& layer = record.flat.layer;
  const bool decode = record.flat.section == SectionType::Layer && !record.flat.skipped && !layer.bounds.empty();
  // The layer's name for messages, made only when one is needed.
  auto who = [&] { return "layer " + quoted(paths(static_cast<std::size_t>(layer.record))); };

  struct Slice {
    int sample = -1;  // byte within the RGBA pixel, or -1: not decoded
    Compression compression = Compression::Raw;
    PsdCursor data;
  };
  std::vector<Slice> slices;
  slices.reserve(record.channels.size());
  bool has[3] = {false, false, false};
  for (const ChannelInfo& channel : record.channels) {
    const std::size_t at = in.offset();
    if (channel.length > in.remaining())
      fail_at(at, "channel " + std::to_string(channel.id) + " of " + who() + " declares " +
                      std::to_string(channel.length) + " bytes but only " + std::to_string(in.remaining()) +
                      " are left in the " + in.section());
    PsdCursor data = in.take(channel.length, at, "channel data");
    const int sample = channel.id >= 0 && channel.id <= 2 ? channel.id : channel.id == -1 ? 3 : -1;
    if (!decode || sample < 0 || channel.length == 0) {
      slices.push_back(Slice{-1, Compression::Raw, data});
      continue;
    }
    const std::uint16_t compression = data.u16("channel compression");
    if (compression == 2 || compression == 3)
      fail_at(at, who() + " has ZIP-compressed channels, which are not read; save the file with RLE compression "
                          "(Photoshop writes ZIP for 16-bit layers: convert the file to 8 bits per channel first)");
    if (compression > 3) fail_at(at, who() + " has unknown channel compression " + std::to_string(compression));
    check_plane_fits(static_cast<Compression>(compression), data.remaining(),
                     static_cast<std::uint64_t>(layer.bounds.width), static_cast<std::uint64_t>(layer.bounds.height),
                     depth, at, [&] { return "channel " + std::to_string(channel.id) + " of " + who(); });
    if (sample < 3) has[sample] = true;
    slices.push_back(Slice{sample, static_cast<Compression>(compression), data});
  }
  if (!decode) return;
  for (int c = 0; c < 3; ++c)
    if (!has[c])
      fail_at(record.offset, who() + " has no " + (c == 0 ? "red" : c == 1 ? "green" : "blue") + " channel data");

  layer.pixels = Image::blank(layer.bounds.width, layer.bounds.height);
  bool has_alpha = false;
  for (Slice& slice : slices) {
    if (slice.sample < 0) continue;
    has_alpha |= slice.sample == 3;
    const psd::PlaneTarget target{layer.pixels.rgba.data() + slice.sample, 4};
    if (slice.compression == Compression::Raw)
      psd::read_raw_plane(slice.data, layer.bounds.width, layer.bounds.height, depth, target);
    else
      psd::read_rle_planes(slice.data, layer.bounds.width, layer.bounds.height, depth, {&target, 1},
                           [&] { return "channel of " + who(); });
  }
  if (!has_alpha)
    for (std::size_t i = 3; i < layer.pixels.rgba.size(); i += 4) layer.pixels.rgba[i] = 255;
}

LayerSection read_layer_info(PsdCursor& in, int depth) {
  LayerSection section;
  section.present = true;
  const std::size_t count_at = in.offset();
  const std::int16_t count = in.i16("layer count");
  section.merged_alpha = count < 0;
  const int layers = count < 0 ? -static_cast<int>(count) : count;
  // A layer record takes at least 34 bytes.
  if (static_cast<std::size_t>(layers) * 34 > in.remaining())
    fail_at(count_at, "layer count " + std::to_string(layers) + " runs past the end of the " + in.section());
  section.records.reserve(static_cast<std::size_t>(layers));
  int depth_now = 0;
  for (int i = 0; i < layers; ++i) {
    section.records.push_back(read_layer_record(in, i));
    const SectionType type = section.records.back().flat.section;
    if (type == SectionType::Divider && ++depth_now > kMaxPsdGroupDepth)
      fail_at(section.records.back().offset, "groups are nested more than " + std::to_string(kMaxPsdGroupDepth) + " deep");
    if ((type == SectionType::OpenFolder || type == SectionType::ClosedFolder) && depth_now > 0) --depth_now;
  }

  std::vector<FlatRecord> flats;
  flats.reserve(section.records.size());
  for (const Record& r : section.records) {
    FlatRecord f;
    f.layer.name = r.flat.layer.name;
    f.section = r.flat.section;
    flats.push_back(std::move(f));
  }
  const psd::RecordPaths paths(flats);
  for (Record& record : section.records) read_layer_channels(in, record, depth, paths);
  return section;
}

// ---- merged image ----

Image read_composite(PsdCursor& in, const Header& header, bool merged_alpha) {
  if (in.at_end()) return Image{};
  const std::size_t at = in.offset();
  const std::uint16_t compression = in.u16("merged image compression");
  if (compression == 2 || compression == 3)
    fail_at(at, "the merged image is ZIP-compressed, which is not read");
  if (compression > 3) fail_at(at, "unknown merged image compression " + std::to_string(compression));
  const int planes = header.channels >= 4 && merged_alpha ? 4 : 3;
  const auto w = static_cast<std::uint64_t>(header.width), h = static_cast<std::uint64_t>(header.height);
  const std::uint64_t plane_bytes = w * h * static_cast<std::uint64_t>(header.depth / 8);
  if (compression == 0 && plane_bytes * static_cast<std::uint64_t>(planes) > in.remaining())
    fail_at(at, "the merged image needs " + std::to_string(plane_bytes * static_cast<std::uint64_t>(planes)) +
                    " bytes of raw samples but " + std::to_string(in.remaining()) + " are left");
  if (compression == 1) {
    const std::uint64_t counts = 2 * h * static_cast<std::uint64_t>(header.channels);
    if (counts > in.remaining() ||
        plane_bytes * static_cast<std::uint64_t>(planes) > (in.remaining() - counts) * psd::kMaxRleExpansion)
      fail_at(at, "the merged image's " + std::to_string(in.remaining()) + " bytes of RLE data are too few for " +
                      std::to_string(header.channels) + " channels of " + std::to_string(w) + "×" +
                      std::to_string(h) + " pixels");
  }
  Image image = Image::blank(header.width, header.height);
  std::vector<psd::PlaneTarget> targets(static_cast<std::size_t>(header.channels));
  for (int c = 0; c < planes; ++c) targets[static_cast<std::size_t>(c)] = psd::PlaneTarget{image.rgba.data() + c, 4};
  if (compression == 0) {
    for (int c = 0; c < planes; ++c)
      psd::read_raw_plane(in, header.width, header.height, header.depth, targets[static_cast<std::size_t>(c)]);
  } else {
    // The rows of every channel come first, so the planes not kept are unpacked too (and checked).
    psd::read_rle_planes(in, header.width, header.height, header.depth, targets,
                         [] { return std::string("the merged image"); });
  }
  if (planes == 3) {
    for (std::size_t i = 3; i < image.rgba.size(); i += 4) image.rgba[i] = 255;
  } else {
    // Writers store a transparent merged image blended over white (Photoshop and GIMP do):
    // x = c·a + 255·(1 − a), so c = (x + a − 255) / a, with a in [0, 1].
    for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
      const std::uint32_t a = image.rgba[i + 3];
      if (a == 255) continue;
      for (std::size_t c = 0; c < 3; ++c) {
        const std::uint32_t x = image.rgba[i + c];
        const std::uint32_t over = x + a > 255 ? x + a - 255 : 0;
        image.rgba[i + c] = a == 0 ? 0 : static_cast<std::uint8_t>(std::min<std::uint32_t>(255, (over * 255 + a / 2) / a));
      }
    }
  }
  return image;
}

PsdDocument decode(std::span<const std::uint8_t> bytes) {
  PsdCursor in(bytes, 0, "file");
  const Header header = read_header(in);
  PsdDocument doc;
  doc.width = header.width;
  doc.height = header.height;
  doc.bits_per_channel = header.depth;

  in.section_u32("colour mode data");
  in.section_u32("image resources");

  LayerSection layers;
  PsdCursor info = in.section_u32("layer and mask information");
  if (info.remaining() >= 4) {
    PsdCursor layer_info = info.section_u32("layer info");
    if (!layer_info.at_end()) layers = read_layer_info(layer_info, header.depth);
  }
  if (info.remaining() >= 4) info.section_u32("global layer mask info");
  while (info.remaining() >= 12) {
    const std::size_t block_at = info.offset();
    const std::string signature = info.tag("additional information signature");
    if (signature != "8BIM" && signature != "8B64")
      fail_at(block_at, "additional information with signature '" + printable_tag(signature) +
                            "' instead of '8BIM' in the layer and mask section");
    const std::string key = info.tag("additional information key");
    PsdCursor block = info.section_u32("additional information");
    // Saving merged transparency: the merged image's fourth channel is its alpha.
    if (key == "Mtrn" || key == "Mt16" || key == "Mt32") layers.merged_alpha = true;
    // Photoshop keeps the layers of 16-bit files here, with an empty layer info above.
    if ((key == "Lr16" || key == "Lr32" || key == "Layr") && !layers.present && !block.at_end()) {
      const bool merged_alpha = layers.merged_alpha;
      layers = read_layer_info(block, header.depth);
      layers.merged_alpha |= merged_alpha;
    }
    // These top-level blocks are padded to 4 bytes.
    const std::size_t length = static_cast<std::size_t>(block.offset() - block_at);
    info.skip_padding((4 - length % 4) % 4);
  }

  // The merged image's fourth channel is its transparency when the layer count is negative or an
  // `Mtrn` block says so, and in a file without layer info (as psd-tools reads it too).
  doc.composite = read_composite(in, header, layers.merged_alpha || !layers.present);

  std::vector<FlatRecord> flats;
  flats.reserve(layers.records.size());
  for (Record& r : layers.records) flats.push_back(std::move(r.flat));
  psd::build_layer_tree(std::move(flats), doc.layers, doc.warnings);
  return doc;
}

}  // namespace

Expected<PsdDocument> decode_psd(std::span<const std::uint8_t> bytes, const std::string& file) {
  try {
    return decode(bytes);
  } catch (const psd::PsdFormatError& e) {
    return Unexpected{Error{file, {}, {}, "at byte " + std::to_string(e.offset) + ": " + e.message}};
  }
}

Expected<PsdDocument> read_psd(const std::string& path) {
  auto bytes = read_file(path);
  if (!bytes) return Unexpected{bytes.error()};
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes->data());
  return decode_psd(std::span<const std::uint8_t>(data, bytes->size()), path);
}

}  // namespace mf::imaging
