#pragma once
// Writing an importer's output, shared by every importer: files are written atomically and only
// when their bytes change, so that importing the same source again leaves every file as it was; the
// images as PNGs under the rig's images folder; the report (import-report.txt).

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/imaging/image.hpp"
#include "mf/offline/import/import_note.hpp"

namespace mf::offline {

// Writes `bytes` to `path` (creating missing folders) unless the file already holds exactly these
// bytes. True when it wrote.
Expected<bool> write_file_if_changed(const std::string& path, std::string_view bytes);

// Writes each image as <folder>/<name>.png ('/' in a name makes sub-folders) through
// write_file_if_changed. Returns the names of the images it wrote.
Expected<std::vector<std::string>> write_images(const std::string& folder,
                                                std::span<const std::pair<std::string, imaging::Image>> images);

// The report: the header line, then "where: message" per note, or `when_empty` when there are none.
std::string import_report_text(std::string_view header, std::span<const ImportNote> notes,
                               std::string_view when_empty = "Everything mapped exactly.");

}  // namespace mf::offline
