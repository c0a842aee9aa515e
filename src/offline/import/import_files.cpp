#include "mf/offline/import/import_files.hpp"

#include <filesystem>
#include <system_error>

#include "mf/core/file_io.hpp"
#include "mf/imaging/png.hpp"

namespace mf::offline {
namespace fs = std::filesystem;

Expected<bool> write_file_if_changed(const std::string& path, std::string_view bytes) {
  std::error_code ec;
  const fs::path file(path);
  if (fs::is_regular_file(file, ec)) {
    // A file that cannot be read is rewritten, never left half-compared.
    if (Expected<std::string> old = read_file(path); old && *old == bytes) return false;
  }
  if (file.has_parent_path()) {
    fs::create_directories(file.parent_path(), ec);
    if (ec) return Unexpected{Error{file.parent_path().string(), {}, {}, "cannot create the folder: " + ec.message()}};
  }
  if (Status s = write_file_atomic(path, bytes); !s) return Unexpected{s.error()};
  return true;
}

Expected<std::vector<std::string>> write_images(const std::string& folder,
                                                std::span<const std::pair<std::string, imaging::Image>> images) {
  std::vector<std::string> written;
  for (const auto& [name, image] : images) {
    const std::string path = (fs::path(folder) / (name + ".png")).string();
    Expected<std::vector<std::uint8_t>> png = imaging::encode_png(image);
    if (!png) return Unexpected{Error{path, {}, {}, png.error().message}};
    Expected<bool> changed =
        write_file_if_changed(path, std::string_view(reinterpret_cast<const char*>(png->data()), png->size()));
    if (!changed) return Unexpected{changed.error()};
    if (*changed) written.push_back(name);
  }
  return written;
}

std::string import_report_text(std::string_view header, std::span<const ImportNote> notes, std::string_view when_empty) {
  std::string report(header);
  report += "\n";
  if (notes.empty()) report += std::string(when_empty) + "\n";
  for (const ImportNote& n : notes) report += n.where + ": " + n.message + "\n";
  return report;
}

}  // namespace mf::offline
