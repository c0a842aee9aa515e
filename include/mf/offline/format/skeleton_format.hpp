#pragma once
// SkeletonFormat for `.mskel`: the reader, which validates everything a rig needs to be
// well-formed, and the canonical writer. docs/format-mskel.md lists every key.

#include <string>
#include <string_view>

#include "mf/core/expected.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::offline {

// Parses and validates `.mskel` text. `file` names the source in error messages. Rejects syntax
// errors, wrong types, unknown keys, duplicate names, unknown references, parents after children,
// malformed weights and geometry, and unsupported format versions, naming the JSON path.
Expected<SkeletonSource> read_skeleton(std::string_view text, const std::string& file);
Expected<SkeletonSource> read_skeleton_file(const std::string& path);

// The canonical text: fixed key order, defaults left out, compact arrays. Writing what
// read_skeleton returned for canonical text gives the same bytes.
std::string write_skeleton(const SkeletonSource& skeleton);

// Writes the canonical text through a temporary file and a rename.
Status save_skeleton(const SkeletonSource& skeleton, const std::string& path);

}  // namespace mf::offline
