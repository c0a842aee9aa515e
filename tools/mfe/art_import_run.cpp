#include "art_import_run.hpp"

#include <cstdio>

#include "mf/offline/import/psd/art_import_write.hpp"

namespace mf::tools {

int write_art_import_and_report(const Expected<offline::ArtImport>& import, const std::string& out) {
  if (!import) {
    std::fprintf(stderr, "error: %s\n", import.error().to_string().c_str());
    return 1;
  }
  Expected<offline::ArtImportResult> result = offline::write_art_import(*import, out);
  if (!result) {
    std::fprintf(stderr, "error: %s\n", result.error().to_string().c_str());
    return 2;
  }
  for (const std::string& w : result->not_shifted) std::fprintf(stderr, "warning: %s\n", w.c_str());
  std::printf("%s (report: %s/import-report.txt)\n", offline::art_import_summary(*import, *result).c_str(), out.c_str());
  return 0;
}

}  // namespace mf::tools
