#pragma once
// Spine's .atlas text format (the 4.x layout and the older 3.x one Spine still reads): pages with
// their size, format, filter, repeat, pma and scale, and regions with bounds, offsets, rotation,
// index, split/pad and custom values.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/imaging/image.hpp"

namespace mf::offline {

struct SpineAtlasRegion {
  std::string name;
  int index = -1;              // sequence frame number, −1 when none
  int x = 0, y = 0;            // top-left of the region's footprint on the page
  int width = 0, height = 0;   // packed size as the image shows it unrotated (the footprint is
                               // height × width when `degrees` is 90 or 270)
  int offset_x = 0, offset_y = 0;           // trim offset in the original image, from its bottom-left
  int original_width = 0, original_height = 0;
  int degrees = 0;             // 0, 90 (rotate: true), 180 or 270
  std::vector<std::pair<std::string, std::string>> values;  // split, pad and custom keys, as written
  int line = 0;                // where the region starts in the atlas, for messages
};

struct SpineAtlasPage {
  std::string file;            // image file name, relative to the atlas
  int width = 0, height = 0;   // 0 when the atlas does not say
  bool pma = false;            // premultiplied alpha
  float scale = 1;             // the packer's scale (images at this fraction of skeleton units)
  std::string filter_min, filter_mag;
  std::vector<SpineAtlasRegion> regions;
  int line = 0;
};

struct SpineAtlas {
  std::vector<SpineAtlasPage> pages;
  // The region with this name (and sequence index), or nullptr.
  const SpineAtlasRegion* find(std::string_view name, int index = -1, const SpineAtlasPage** page = nullptr) const;
};

// Parses atlas text; errors name `file` and the line.
Expected<SpineAtlas> parse_atlas(std::string_view text, const std::string& file);

// The region's image as it was before packing: cut from the decoded page, turned back upright,
// un-premultiplied when the page is premultiplied, and placed at its offset in a transparent image
// of the original size. A region that does not lie inside the page is an error naming `atlas_file`
// and the region's line.
Expected<imaging::Image> unpack_region(const imaging::Image& page_image, const SpineAtlasPage& page,
                                       const SpineAtlasRegion& region, const std::string& atlas_file);

}  // namespace mf::offline
