#pragma once
// Writing an art import: <out>/<name>.mskel, the images (and normal maps) under the rig's images
// folder and <out>/import-report.txt. When <out>/<name>.mskel exists, the import is merged into it
// (reimport.hpp) rather than replacing it. Every file is written atomically and only when its bytes
// change: importing the same art again leaves every byte as it was.

#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/import/psd/art_import.hpp"

namespace mf::offline {

struct ArtImportResult {
  bool reimport = false;
  std::string mskel;                        // the rig's path
  bool rig_written = false;                 // false: the .mskel already held these bytes
  std::vector<std::string> images_written;  // image names whose PNG was new or changed
  std::size_t notes = 0;                    // lines in import-report.txt after its header
  // Re-import only: layer sources moved, added and missing, and attachments that could not follow.
  std::vector<std::string> moved, added, missing, not_shifted;
  std::string renamed_from;  // the art's earlier file name, when it was re-imported under a new one
};

// Errors: an existing .mskel that does not read (it is left as it is), a folder or file that cannot be
// written.
Expected<ArtImportResult> write_art_import(const ArtImport& import, const std::string& out_dir);

// One line: "imported art.psd as art: 3 bones, 5 slots, 1 skin, 6 attachments, 6 images; 2 report
// notes", or for a re-import "re-imported art.psd into art: 1 image updated, 1 layer moved, ...".
std::string art_import_summary(const ArtImport& import, const ArtImportResult& result);

}  // namespace mf::offline
