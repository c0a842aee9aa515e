#pragma once
// Shared by the build step's files (skeleton_builder*.cpp, clip_builder.cpp): the internal error
// channel and the rules that the skeleton and clip builds must agree on (which influences a capped
// vertex keeps, how deform floats move with them, image names of sequences).

#include <cstddef>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "mf/core/error.hpp"
#include "mf/offline/build/atlas_build.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::offline::build_detail {

// Thrown inside the build and turned into Unexpected at the public functions.
struct BuildFailure {
  Error error;
};

[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& message);

// An image by name: its size, and its pixels and normal map when the build has them (see AtlasSource;
// the trim fields are the build's to fill), or why there is none (the message names what was looked
// for). Called once per image name.
using ImageLookup = std::function<std::variant<AtlasSource, std::string>(const std::string& image)>;

// Compiles a skeleton; build_skeleton and build_rig both end here. Throws BuildFailure.
BuildResult compile_skeleton(const SkeletonSource& skeleton, const ImageLookup& images, const std::string& name,
                             const std::string& file);

// Fills the attachment tables of `data` (records, geometry, regions, atlas pages and normal pages,
// skins' entries, slot deform sizes) and `atlas` with the pages' occupancy. The attachment names must
// already be interned and data.name set (pages are named after it). Throws BuildFailure; warnings go
// to `warnings`.
void build_attachments(const SkeletonSource& skeleton, const ImageLookup& images, const std::string& file,
                       skel::SkeletonData& data, std::vector<Error>& warnings, AtlasOccupancy& atlas);

// The influences of a vertex the build keeps, as indices into `influences` in their original order:
// all of them within the cap, else the kMaxInfluences largest weights (earlier first on ties).
std::vector<std::size_t> kept_influences(const std::vector<InfluenceSource>& influences);

// For each source deform float of `vertices` (2 per vertex, or 2 per influence when weighted), its
// float index in the built attachment, or −1 when its influence was dropped by the cap. Empty when the
// two layouts are the same.
std::vector<long> deform_float_map(const Vertices& vertices);

// The image an attachment shows: its `image`, or its name when that is empty.
const std::string& image_or_name(const std::string& image, const std::string& name);

// The image of sequence frame `frame` (0-based): the base name and start + frame, zero-padded.
std::string sequence_frame_image(const std::string& base, const Sequence& sequence, int frame);

// "skins[s].attachments[a]".
std::string attachment_path(std::size_t skin, std::size_t attachment);

}  // namespace mf::offline::build_detail
