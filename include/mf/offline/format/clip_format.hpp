#pragma once
// SkeletonFormat for `.manim` clips: reader and canonical writer. docs/format-manim.md lists every key.

#include <string>
#include <string_view>

#include "mf/core/expected.hpp"
#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/json/json_writer.hpp"

namespace mf::offline {

// Parses and validates `.manim` text. With a skeleton, every bone, slot, constraint, skin, attachment
// and event the clip names must exist in it; without one, only the file's own consistency is
// checked (types, time order, t/v/curve lengths, known timeline kinds, format version).
Expected<ClipSource> read_clip(std::string_view text, const std::string& file, const SkeletonSource* skeleton = nullptr);
Expected<ClipSource> read_clip_file(const std::string& path, const SkeletonSource* skeleton = nullptr);

// The canonical text. Writing what read_clip returned for canonical text gives the same bytes.
std::string write_clip(const ClipSource& clip);
// An event key's payload overrides (int, float, string, volume, balance: those it sets) as members of
// the JSON object being written, in the order the clip writer writes them.
void write_event_payload(json::Writer& w, const EventKeySource& key);

// Writes the canonical text through a temporary file and a rename.
Status save_clip(const ClipSource& clip, const std::string& path);

}  // namespace mf::offline
