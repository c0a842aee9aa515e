#pragma once
// A rig's Region attachment becomes a Mesh attachment made by auto_mesh from its image, in place:
// what `mfe skel automesh` does on request and the PSD import does for layers tagged [mesh].

#include <functional>
#include <string>
#include <string_view>

#include "mf/core/expected.hpp"
#include "mf/imaging/image.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "mf/offline/mesh/auto_mesh.hpp"

namespace mf::offline {

// The pixels of a rig's image by its name (as attachments name images: no folder, no ".png").
using ImageSource = std::function<Expected<imaging::Image>(const std::string& image)>;

// Images read from "<folder>/<name>.png".
ImageSource images_in_folder(std::string folder);

struct RegionMesh {
  AutoMesh mesh;      // in the image's pixels
  std::string image;  // the image that was meshed
};

// Replaces the Region attachment named `attachment` of slot `slot` in skin `skin` (indices into
// the skeleton's skins and slots) with a Mesh made by auto_mesh from the region's image:
//   - uvs: the mesh's positions / the image's size (v down), over the whole image. (The build's
//     import.trim cuts region quads to the opaque pixels; it keeps a mesh's UV box instead, so the
//     mesh shows the same pixels.)
//   - vertices, unweighted, in the slot bone's space, where the region put its image: pixel (px, py)
//     of a W × H image goes to R(rotation) · ((px / W − ½) · width · scale_x, (py / H − ½) · height ·
//     scale_y) + (x, y), with the region's width and height (0: the image's), R turning clockwise on
//     screen. These are the corners of the build's region quad (skeleton_builder_attachments.cpp)
//     continued over the image, so every pixel stays where the region drew it.
//   - triangles, hull and edges from the auto mesh; width and height: the image's size.
//   - the attachment keeps its slot, name, place in the skin, image and colour.
// A region showing a sequence is refused: one mesh is made per image, and a sequence's frames are
// separate images. Errors name the skin, slot and attachment (Error::path is the attachment's JSON
// path): an index out of range, no such attachment, one that is not a Region, an image that cannot
// be read, and auto_mesh's errors.
Expected<RegionMesh> mesh_region(SkeletonSource& skeleton, int skin, int slot, std::string_view attachment,
                                 const ImageSource& images, const AutoMeshOptions& options = {});

}  // namespace mf::offline
