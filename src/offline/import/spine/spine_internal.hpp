#pragma once
// Shared between the parts of the Spine importer: the skeleton part (spine_skeleton.cpp,
// spine_attachments.cpp) and the animation part (spine_animations.cpp). Not installed.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/json/json.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "mf/offline/import/spine/spine_import.hpp"

namespace mf::offline::spine {

// The JSON's Spine version, parsed from "skeleton.spine" ("4.2.22" → 4, 2).
struct Version {
  int major = 4, minor = 2;
  bool at_least(int mj, int mn) const { return major > mj || (major == mj && minor >= mn); }
};

// Spine's inherit mode names (bone "inherit", 4.2+, and inherit keys), camelCase where ours are not.
inline std::optional<Inherit> parse_spine_inherit(std::string_view s) {
  if (s == "normal") return Inherit::Normal;
  if (s == "onlyTranslation") return Inherit::OnlyTranslation;
  if (s == "noRotationOrReflection") return Inherit::NoRotationOrReflection;
  if (s == "noScale") return Inherit::NoScale;
  if (s == "noScaleOrReflection") return Inherit::NoScaleOrReflection;
  return std::nullopt;
}

struct Context {
  std::string file;        // the JSON path as the user named it, for errors
  Version version;
  std::vector<ImportNote>* notes = nullptr;
  void note(std::string where, std::string message) const { notes->push_back({std::move(where), std::move(message)}); }
};

// Converts every entry of the JSON's "animations" object into a clip for `skeleton` (already
// converted, names as in Spine). Errors name the file and the JSON path; anything that does not
// map exactly becomes a note.
Expected<std::vector<std::pair<std::string, ClipSource>>> convert_animations(const json::Value& root, const SkeletonSource& skeleton,
                                                                        const Context& context);

// ---- the skeleton part ----------------------------------------------------------------------

// Reads "skeleton.spine" ("4.2.22"); a missing version is read as 4.2 with a note, a 3.x export
// is an error (its curves and skins have another layout).
Expected<Version> read_version(const json::Value& root, const std::string& file, std::vector<ImportNote>& notes);

// Everything but the animations: bones, slots, constraints, events and skins with their
// attachments, flipped to Y-down. `skeleton.images` lists every image the attachments use.
Expected<SkeletonSource> convert_skeleton(const json::Value& root, const Context& context);

}  // namespace mf::offline::spine
