#pragma once
// Art import: a layered image (a PSD, or a folder of PNGs read as one) becomes a rig. Each pixel
// layer becomes an image and a slot with a Region attachment where the layer sits on the canvas;
// groups become bones; the tags of Spine's Photoshop script (layer_tags.hpp) say otherwise where an
// artist wants it. docs/import-art.md describes every rule; the conversion here is pure (no files),
// psd_import_write.hpp writes the result or merges it into an earlier import (reimport.hpp).
//
// The rig is in canvas pixels, Y down: its origin (the root bone) is the canvas's bottom centre, or
// the bounds centre of a top-level layer or group tagged [origin]. Draw order follows the layers,
// bottom first.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/imaging/image.hpp"
#include "mf/imaging/psd.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "mf/offline/import/import_note.hpp"

namespace mf::offline {

struct ArtImportOptions {
  std::string name;  // the rig's name; empty: the source's base name ("art.psd" gives "art")
};

struct ArtImport {
  std::string name;    // the rig's name: <out>/<name>.mskel
  std::string source;  // the source's file or folder name, the part of images[].source before ':'
  // The rig. Every image of an imported layer is listed in `skeleton.images` with its source
  // ("art.psd:Body/Torso", the layer's path of tag-free names) and its rectangle on the canvas.
  SkeletonSource skeleton;
  // The files to write under the images folder: image name → pixels, the normal maps
  // ("<image><normal suffix>") included.
  std::vector<std::pair<std::string, imaging::Image>> images;
  std::map<std::string, std::string> normal_maps;  // a normal map's name in `images` → the image it belongs to
  // The attachments of layers tagged [mesh]: made auto meshes of their images (mesh_from_region.hpp,
  // default options) by the conversion; one that could not be meshed is a Region, reported.
  struct MeshRequest {
    std::string slot, attachment, skin;
    std::string where;  // the layer's path
  };
  std::vector<MeshRequest> meshes;
  std::vector<ImportNote> notes;
};

// Converts a decoded document. `source` is the file (or folder) name the images' sources start
// with; it also names the rig when the options do not. An error when nothing can be imported.
Expected<ArtImport> convert_art(const imaging::PsdDocument& document, const std::string& source,
                                const ArtImportOptions& options = {});

// Reads a PSD and converts it.
Expected<ArtImport> import_psd(const std::string& path, const ArtImportOptions& options = {});

// Reads a folder of PNGs (png_folder.hpp) and converts it.
Expected<ArtImport> import_png_folder(const std::string& folder, const ArtImportOptions& options = {});

}  // namespace mf::offline
