#pragma once
// PSD reader: the layered Photoshop files 2D artists' tools write (Photoshop, GIMP, Krita, Affinity,
// ag-psd), read into a tree of pixel layers and groups. Written from Adobe's published file format
// specification.
//
// Read: PSD version 1 in RGB colour mode at 8 or 16 bits per channel (16 reduced to 8 with rounding);
// the layer records with their Unicode names (`luni`), groups and their nesting (`lsct`: open and
// closed folders and the section dividers that end them), visibility, opacity, fill (`iOpa`), blend
// mode key, clipping flag and bounds; channel data raw or RLE (PackBits); the merged composite image.
// Refused with an error saying what the file is: PSB (version 2), grayscale, CMYK, indexed, bitmap,
// multichannel, Lab and duotone colour modes, 1- and 32-bit channels, ZIP-compressed channels (the
// error names the layer). Skipped with a warning naming the layer: adjustment and fill layers, smart
// objects (placed layers), layer effects (the layer itself is kept, without them), layer masks (the
// layer is kept unmasked; vector masks too).
//
// Every length and count is checked against the bytes left before it is used: a damaged file is an
// error with the byte offset of the value that is wrong, never a crash or an allocation larger than
// the file can fill (RLE data is checked to be able to hold the pixels it claims, at most 64 bytes out
// per byte in, before a layer's pixels are allocated).
//
// Groups: records are stored bottom-most first; a section divider (`lsct` type 3) below a group's
// layers and the group's folder record (type 1 open, 2 closed) above them pair like brackets, and the
// folder record gives the group its name and properties. Unbalanced ones are read with a warning: a
// divider without its folder is dropped and its layers kept at the level above; a folder without its
// divider becomes an empty group. Groups nested deeper than kMaxPsdGroupDepth are an error.
//
// The merged image's fourth channel is its transparency when the layer count is negative, when an
// `Mtrn`/`Mt16` block says so, or in a file without layer information; otherwise the image is opaque.
// A transparent merged image is stored blended over white (Photoshop and GIMP write it so): the reader
// takes the white out, giving straight alpha like every Image (for 16-bit files after the reduction to
// 8 bits, so colours of nearly transparent pixels are approximate); fully transparent pixels are black.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/imaging/image.hpp"

namespace mf::imaging {

// The largest canvas side accepted (Photoshop's own limit for PSD version 1).
inline constexpr int kMaxPsdSide = 30000;
// A layer may reach past the canvas, but its sides are at most this long and it lies at most this
// far outside the canvas.
inline constexpr int kMaxPsdLayerSide = 4 * kMaxPsdSide;
// Groups nest at most this deep, so that every walk over the tree stays shallow.
inline constexpr int kMaxPsdGroupDepth = 256;

struct PsdLayer {
  enum class Kind : std::uint8_t { Pixel, Group };

  Kind kind = Kind::Pixel;
  std::string name;     // UTF-8: the `luni` name when present, else the Pascal name (Windows-1252)
  int record = 0;       // index of the layer record in the file (0 = bottom-most), for messages
  bool visible = true;
  bool group_open = true;  // groups: an open folder in the Layers panel (closed folders are still read)
  std::uint8_t opacity = 255;
  std::uint8_t fill = 255;  // fill opacity (`iOpa`); 255 when absent
  // Blend mode key as stored: "norm", "mul ", "scrn", "lddg", ...; for groups the section divider's
  // key when it has one ("pass" for pass through), else the record's.
  char blend[4] = {'n', 'o', 'r', 'm'};
  bool clipping = false;    // clipped to the layer below (a clipping mask)

  // Pixel layers: the layer's rectangle on the canvas (it may reach past the canvas edges) and its
  // pixels, RGBA8 straight alpha, `bounds.width × bounds.height`. Empty for an empty layer.
  // Groups: the union of their children's bounds; no pixels.
  Rect bounds;
  Image pixels;

  // Groups: their layers and groups, bottom-most first (draw order).
  std::vector<PsdLayer> children;

  bool is_group() const { return kind == Kind::Group; }
  std::string blend_key() const { return std::string(blend, 4); }
};

// Something read but not carried into the tree, or carried without part of it.
struct PsdWarning {
  std::string layer;    // the layer's path, group names joined by '/', e.g. "Body/Torso"; empty: the file
  std::string message;
};

struct PsdDocument {
  int width = 0, height = 0;
  int bits_per_channel = 8;          // as stored (8 or 16); every Image here is 8-bit
  std::vector<PsdLayer> layers;      // top-level layers and groups, bottom-most first (draw order);
                                     // skipped layers (adjustment, fill, smart object) are not here
  Image composite;                   // the file's merged image, straight alpha (empty when the file has none)
  // In file order. At most 1000 (and 1 MB of text), then one more, with an empty layer, saying how
  // many were left out.
  std::vector<PsdWarning> warnings;
};

// Decodes PSD bytes. `file` names the source in errors; error messages say what is wrong and at
// which byte offset ("art.psd: at byte 1234: channel length 99999 runs past the end of the file").
Expected<PsdDocument> decode_psd(std::span<const std::uint8_t> bytes, const std::string& file);
Expected<PsdDocument> read_psd(const std::string& path);

}  // namespace mf::imaging
