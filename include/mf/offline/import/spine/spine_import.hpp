#pragma once
// The Spine 4.x JSON importer: a Spine export (skeleton JSON 4.0 … 4.3 and its .atlas) becomes a
// native rig: a .mskel, one .manim per animation, one PNG per attachment image and an import report
// listing everything that did not map exactly. Written from Spine's published JSON format
// reference and user guide. Y, rotation and shear are flipped once here (Spine is Y-up,
// counter-clockwise; we are Y-down, clockwise).

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/imaging/image.hpp"
#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "mf/offline/import/import_note.hpp"
#include "mf/offline/import/spine/spine_atlas.hpp"

namespace mf::offline {

struct SpineImport {
  std::string name;      // rig name: the JSON's base name
  SkeletonSource skeleton;
  std::vector<std::pair<std::string, ClipSource>> clips;             // animation name → clip
  std::vector<std::pair<std::string, imaging::Image>> images;  // image name (path without .png) → pixels
  std::vector<ImportNote> notes;
  std::string spine_version;  // as the JSON states it, e.g. "4.2.22"
};

struct SpineImportOptions {
  std::string json_path;
  std::string atlas_path;  // empty: <json base name>.atlas beside it, else the only .atlas in its folder
};

// Converts the JSON text alone: skeleton, clips and notes, no images (`skeleton.images` lists the
// images the attachments use). `file` names the source in errors and gives the rig its name.
Expected<SpineImport> convert_spine(std::string_view json_text, const std::string& file);

// Unpacks every image of `import.skeleton.images` from the atlas into `import.images`, loading each
// page it needs once through `load_page`. A region the atlas lacks becomes a note.
Status unpack_spine_images(SpineImport& import, const SpineAtlas& atlas, const std::string& atlas_file,
                           const std::function<Expected<imaging::Image>(const SpineAtlasPage&)>& load_page);

// Reads and converts. A `.skel` (binary export) is refused with "export JSON from Spine".
Expected<SpineImport> import_spine(const SpineImportOptions& options);

// Writes <out>/<name>.mskel, <out>/<name>.clips/*.manim, the PNGs under the rig's images folder and
// <out>/import-report.txt; every file atomically.
Status write_spine_import(const SpineImport& import, const std::string& out_dir);

// "imported <name>: N bones, N slots, N skins, N attachments, N clips, N images; N report notes"
std::string import_summary(const SpineImport& import);

}  // namespace mf::offline
