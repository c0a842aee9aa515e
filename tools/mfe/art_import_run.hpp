#pragma once
// What `mfe skel import-psd` and `mfe skel import-images` share once their source is read: writing
// (or merging into) the rig, and the lines they print.

#include <string>

#include "mf/core/expected.hpp"
#include "mf/offline/import/psd/art_import.hpp"

namespace mf::tools {

// Prints an error and returns 1 when the import failed; writes it to `out` and prints its summary
// (and a warning per attachment a re-import could not shift), returning 0, or 2 when writing fails.
int write_art_import_and_report(const Expected<offline::ArtImport>& import, const std::string& out);

}  // namespace mf::tools
