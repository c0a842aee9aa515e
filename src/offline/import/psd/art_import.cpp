// The art import's entry points: read a PSD or a folder of PNGs, then convert.

#include <filesystem>
#include <system_error>

#include "mf/offline/import/psd/art_import.hpp"
#include "mf/offline/import/psd/png_folder.hpp"

namespace mf::offline {

Expected<ArtImport> import_psd(const std::string& path, const ArtImportOptions& options) {
  Expected<imaging::PsdDocument> document = imaging::read_psd(path);
  if (!document) return Unexpected{document.error()};
  return convert_art(*document, path, options);
}

Expected<ArtImport> import_png_folder(const std::string& folder, const ArtImportOptions& options) {
  Expected<imaging::PsdDocument> document = read_png_folder(folder);
  if (!document) return Unexpected{document.error()};
  // "parts/" and "." are named by the folder they mean.
  std::error_code ec;
  const std::filesystem::path full = std::filesystem::weakly_canonical(folder, ec);
  return convert_art(*document, ec ? folder : full.string(), options);
}

}  // namespace mf::offline
