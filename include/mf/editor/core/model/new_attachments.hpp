#pragma once
// New attachments of each type, ready for AddAttachment: plain values in the slot bone's space
// (pixels, Y down), unweighted.

#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

// A Region showing image `image` (stored empty when it is the attachment's name, as the format
// reads it) at the bone's origin; width and height 0 take the image's size at build time.
offline::Attachment make_region(int slot, std::string name, std::string image, float width = 0, float height = 0);

// A Mesh over the quad `region` draws: four vertices at the corners of the region's rectangle (its
// position, rotation, scale and size; `image_width` × `image_height` where the region's size is 0),
// UVs over the whole image, two triangles, hull 4, the region's image, colour and sequence. Fails for
// a region of zero size.
Expected<offline::Attachment> make_mesh_from_region(const offline::Attachment& region, std::string name,
                                                    float image_width, float image_height);

// A BoundingBox or Clipping polygon (at least 3 points); `end_slot` -1 clips to the end of the draw
// order.
offline::Attachment make_bounding_box(int slot, std::string name, const std::vector<Vec2>& polygon);
offline::Attachment make_clipping(int slot, std::string name, const std::vector<Vec2>& polygon, int end_slot = -1);

offline::Attachment make_point(int slot, std::string name, float x = 0, float y = 0, float rotation = 0);

// A Path through `points`, three control points per knot (in-handle, point, out-handle), with the
// cumulative segment lengths the format stores (path_lengths).
offline::Attachment make_path(int slot, std::string name, const std::vector<Vec2>& points, bool closed);

// The cumulative arc length at the end of each segment of a bezier path (x, y per control point,
// three per knot): each segment measured as a 64-chord polyline.
std::vector<float> path_lengths(const std::vector<float>& xy, bool closed);

}  // namespace mf::editor
