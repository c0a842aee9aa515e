#pragma once
// The build step: a source rig (.mskel model and its clips) compiled into runtime SkeletonData.
// Names become indices, geometry becomes influence records, beziers are pre-sampled, import.scale is
// applied to every pixel quantity, and clips compile on demand.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/build/atlas_build.hpp"
#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::offline {

struct ImageSize {
  int width = 0, height = 0;
};

// The pixel size of an image by name (without ".png"), or nothing when there is no such image.
using ImageSizeFn = std::function<std::optional<ImageSize>(const std::string& image)>;

struct BuildResult {
  std::shared_ptr<skel::SkeletonData> data;
  std::vector<Error> warnings;  // e.g. vertices with more than 8 influences (renormalised)
  AtlasOccupancy atlas;         // how full the atlas pages are
};

// Compiles a skeleton from image sizes alone (tests, tools without pixels). `name` becomes
// SkeletonData::name; `file` names the source in messages. Images are needed for their size
// (regions without a size, the atlas layout); a missing one is an error naming it. The atlas is laid
// out as in build_rig but nothing is trimmed, and pages carry sizes without bytes. The data has no
// clips: add them with compile_clip.
Expected<BuildResult> build_skeleton(const SkeletonSource& skeleton, const ImageSizeFn& image_size, const std::string& name,
                                     const std::string& file);

// Compiles a clip against data built from `skeleton` (names are resolved through both).
Expected<skel::ClipData> compile_clip(const ClipSource& clip, const SkeletonSource& skeleton, const skel::SkeletonData& data,
                                      const std::string& name, const std::string& file);

// Builds a rig from disk: the images of its images folder (with `<image><normalSuffix>.png` beside an
// image as its normal map) trimmed, bled, extruded and packed into PNG atlas pages (see
// atlas_build.hpp), region quads cut to the trimmed pixels so every picture stays where it was, and
// every clip of its clips folder listed by name and length, compiled when first loaded
// (SkeletonData::load_clip). An image that is not a readable PNG, or larger than a page, is an error
// naming it.
Expected<BuildResult> build_rig(const Rig& rig);

// Convenience for tools and tests: load_rig + build_rig + load every clip.
Expected<BuildResult> build_rig_file(const std::string& mskel_path);

}  // namespace mf::offline
