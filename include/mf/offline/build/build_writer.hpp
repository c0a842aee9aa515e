#pragma once
// Writes the build file (.mbuild) that mf/skel/build_file.hpp loads: every field of SkeletonData and of
// each ClipData, little-endian, byte by byte (never a struct's memory), in the layout of
// docs/format-build.md. The data is validated the way the loader validates it before anything is
// written, so a build that would not load is never produced.

#include <string>

#include "mf/core/expected.hpp"
#include "mf/skel/clip_data.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::offline {

enum class BuildClips {
  All,       // every clip is loaded (through SkeletonData::load_clip) and stored
  ListOnly,  // names and lengths only; the clips' data lives elsewhere (the bake cache stores each apart)
};

// The whole build as bytes. `file` names the data in messages (usually the source .mskel). For
// BuildClips::All, clips the data has already loaded are written as they are and the others are loaded
// through data.loader for this call only (the data is not changed).
Expected<std::string> encode_build(const skel::SkeletonData& data, const std::string& file, BuildClips clips = BuildClips::All);

// One clip's blob: what the build's clip section holds per clip and what the bake cache stores per
// clip; skel::decode_clip reads it back. cursor_base is not stored (it depends on load order).
std::string encode_clip(const skel::ClipData& clip);

// encode_build with every clip, written atomically to `path`.
Status write_build_file(const skel::SkeletonData& data, const std::string& path, const std::string& source_file);

}  // namespace mf::offline
