#pragma once
// The atlas of a build: images prepared and packed into pages, with a normal page set in the same
// layout when any image has a normal map.
//
// Preparation of each image, in this order:
//   1. Trim to its alpha bounds (pixels with alpha > 0), grown to hold the source's `keep` rectangle.
//      Sources of one trim group share one rectangle, the union of their bounds, so the frames of a
//      sequence keep one quad. A group whose members differ in size, or any member with trim off, is
//      not trimmed. A fully transparent image (with nothing to keep) becomes its top-left pixel, 1×1.
//   2. Alpha bleed: fully transparent pixels take the colour of their nearest pixel with alpha > 0,
//      so filtering at silhouettes does not pull in black.
//   3. Extrude by `padding` pixels on every side: the border repeats the edge pixels, so bilinear
//      filtering at the edge of an image never reads its neighbour.
// The padded images are packed by AtlasPacker (MaxRects, best short-side fit, no rotation) into
// pages of page_size × page_size, the last page shrunk to the smallest (page_size >> i) ×
// (page_size >> j) that holds its images. Gaps between images are transparent black on colour pages
// and the flat normal (128, 128, 255, 255) on normal pages; an image without a normal map gets a
// flat normal area. Image sizes are never scaled (import.scale scales geometry only).
//
// Deterministic: the same sources and settings give the same pages, byte for byte.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/imaging/image.hpp"
#include "mf/offline/build/atlas_packer.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::offline {

struct AtlasSettings {
  int page_size = 2048;  // page edge in pixels (import.pageSize)
  int padding = 2;       // pixels of extrusion on each side of every image (import.padding), >= 0
  // Pages are named "<page_name>_<i>", normal pages "<page_name>_<i>_n".
  std::string page_name = "atlas";
};

// One image to place.
struct AtlasSource {
  std::string name;                      // names the image in errors
  int width = 0, height = 0;             // untrimmed size; the pixels' size when there are pixels
  std::optional<imaging::Image> pixels;  // straight-alpha RGBA8; none: sizes only (never trimmed)
  std::optional<imaging::Image> normal;  // its normal map, the same size as the image
  bool trim = true;
  imaging::Rect keep;            // pixels the trim keeps however transparent (e.g. a mesh's UV box); may be empty
  std::int32_t trim_group = -1;  // sources with the same group >= 0 share one trim rectangle
};

// Where one source went.
struct AtlasPlacement {
  std::int32_t page = 0;
  imaging::Rect packed;       // the trimmed pixels on the page (padding excluded)
  imaging::Rect trim;         // the same pixels within the source image
  int width = 0, height = 0;  // the untrimmed size
};

// How full the pages are, for benchmarks and tools.
struct AtlasOccupancy {
  std::vector<PackedPage> pages;  // per page: its size and the pixels its packed rectangles cover (padding included)
  std::int64_t image_pixels = 0;  // trimmed image pixels over all pages (padding excluded)

  std::int64_t page_pixels() const;
  std::int64_t packed_pixels() const;
  // packed_pixels / page_pixels and image_pixels / page_pixels, in [0, 1]; 0 without pages.
  double occupancy() const;
  double image_occupancy() const;
};

struct Atlas {
  // Straight-alpha RGBA8 pages encoded as PNG (PageEncoding::Png). Pages carry bytes only when every
  // source has pixels; otherwise only their sizes (a sizes-only build).
  std::vector<skel::Page> pages;
  std::vector<skel::Page> normal_pages;  // empty, or one per page when any source has a normal map
  std::vector<AtlasPlacement> placements;  // one per source, in source order
  AtlasOccupancy occupancy;

  // The region of source `index`: its page and the rectangle the whole untrimmed image covers on the
  // page in page UV (0…1), which reaches past the packed pixels where the image was trimmed.
  skel::Region region(std::size_t index) const;
};

// Prepares and packs the sources. Errors have no file (callers add theirs) and name the image: a
// padding below 0, a source without a positive size, pixels or a normal map of another size than
// the source's, an image larger than a page after trimming and padding.
Expected<Atlas> build_atlas(std::span<const AtlasSource> sources, const AtlasSettings& settings);

}  // namespace mf::offline
