// Unpacking atlas regions into one image each, so imported art is editable like native art.

#include <string>

#include "mf/imaging/image_ops.hpp"
#include "mf/offline/import/spine/spine_atlas.hpp"

namespace mf::offline {

Expected<imaging::Image> unpack_region(const imaging::Image& page_image, const SpineAtlasPage& page,
                                       const SpineAtlasRegion& region, const std::string& atlas_file) {
  const bool sideways = region.degrees == 90 || region.degrees == 270;
  const imaging::Rect footprint{region.x, region.y, sideways ? region.height : region.width,
                                sideways ? region.width : region.height};
  if (footprint.x < 0 || footprint.y < 0 || footprint.x + footprint.width > page_image.width ||
      footprint.y + footprint.height > page_image.height)
    return Unexpected{Error{atlas_file, {}, TextPosition{region.line, 1},
                            "region \"" + region.name + "\" (" + std::to_string(footprint.width) + "x" +
                                std::to_string(footprint.height) + " at " + std::to_string(footprint.x) + "," +
                                std::to_string(footprint.y) + ") does not lie inside page \"" + page.file + "\" (" +
                                std::to_string(page_image.width) + "x" + std::to_string(page_image.height) + ")"}};
  // An empty region (a fully transparent image the packer stripped to nothing) has no pixels to cut.
  if (footprint.empty()) return imaging::Image::blank(region.original_width, region.original_height);
  imaging::Image image = imaging::crop(page_image, footprint);
  // The packer turned the region counter-clockwise by `degrees` (90: its top faces left on the page);
  // turning it clockwise undoes that.
  for (int turn = 0; turn < region.degrees / 90; ++turn) image = imaging::rotate_clockwise(image);
  if (page.pma) imaging::unpremultiply(image);
  if (region.original_width == region.width && region.original_height == region.height) return image;
  // Offsets count from the bottom-left of the original image (Y up); our rows run top to bottom.
  imaging::Image full = imaging::Image::blank(region.original_width, region.original_height);
  imaging::blit(full, image, region.offset_x, region.original_height - region.offset_y - region.height);
  return full;
}

}  // namespace mf::offline
