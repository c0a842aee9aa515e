#include "mf/offline/import/psd/art_import_write.hpp"

#include <filesystem>
#include <system_error>

#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/import/import_files.hpp"
#include "mf/offline/import/psd/reimport.hpp"

namespace mf::offline {
namespace fs = std::filesystem;
namespace {

std::string count(std::size_t n, const char* word, const char* plural = nullptr) {
  return std::to_string(n) + " " + (n == 1 ? std::string(word) : plural ? std::string(plural) : std::string(word) + "s");
}

}  // namespace

Expected<ArtImportResult> write_art_import(const ArtImport& import, const std::string& out_dir) {
  ArtImportResult result;
  const fs::path out(out_dir);
  result.mskel = (out / (import.name + ".mskel")).string();
  std::error_code ec;
  SkeletonSource rig = import.skeleton;
  std::vector<ImportNote> notes = import.notes;
  std::vector<std::pair<std::string, imaging::Image>> images;
  if (fs::exists(result.mskel, ec)) {
    Expected<SkeletonSource> existing = read_skeleton_file(result.mskel);
    if (!existing)
      return Unexpected{Error{existing.error().file, existing.error().path, existing.error().position,
                              existing.error().message + " (the rig is not re-imported into; fix it or import elsewhere)"}};
    Expected<Reimport> merged = merge_reimport(*existing, import);
    if (!merged) return Unexpected{merged.error()};
    result.reimport = true;
    result.rig_written = !(merged->skeleton == *existing);
    rig = std::move(merged->skeleton);
    notes.insert(notes.end(), merged->notes.begin(), merged->notes.end());
    for (const auto& [name, pixels] : import.images) {
      const auto renamed = merged->image_names.find(name);
      images.emplace_back(renamed == merged->image_names.end() ? name : renamed->second, pixels);
    }
    result.moved = std::move(merged->moved);
    result.added = std::move(merged->added);
    result.missing = std::move(merged->missing);
    result.not_shifted = std::move(merged->not_shifted);
    result.renamed_from = std::move(merged->renamed_from);
  } else {
    images = import.images;
    result.rig_written = true;
  }
  Expected<std::vector<std::string>> written = write_images((out / rig.import.images).string(), images);
  if (!written) return Unexpected{written.error()};
  result.images_written = std::move(*written);
  // A rig the merge left as it was keeps its file as it is, canonical or not.
  if (result.rig_written) {
    Expected<bool> saved = write_file_if_changed(result.mskel, write_skeleton(rig));
    if (!saved) return Unexpected{saved.error()};
    result.rig_written = *saved;
  }
  const std::string header = "Art import report: " + import.name + " (" + import.source + ")";
  Expected<bool> report =
      write_file_if_changed((out / "import-report.txt").string(),
                            import_report_text(header, notes, "Every layer was imported as it is."));
  if (!report) return Unexpected{report.error()};
  result.notes = notes.size();
  return result;
}

std::string art_import_summary(const ArtImport& import, const ArtImportResult& r) {
  const std::string notes = count(r.notes, "report note");
  if (r.reimport) {
    std::string line = "re-imported " + import.source +
                       (r.renamed_from.empty() ? std::string() : " (was " + r.renamed_from + ")") + " into " +
                       import.name + ": " +
                       count(r.images_written.size(), "image") + " written, " + count(r.moved.size(), "layer") +
                       " moved, " + count(r.added.size(), "new layer") + ", " +
                       count(r.missing.size(), "layer") + " missing from the art (kept)";
    line += r.rig_written ? "; rig updated" : "; rig unchanged";
    return line + "; " + notes;
  }
  std::size_t attachments = 0;
  for (const Skin& s : import.skeleton.skins) attachments += s.attachments.size();
  return "imported " + import.source + " as " + import.name + ": " + count(import.skeleton.bones.size(), "bone") + ", " +
         count(import.skeleton.slots.size(), "slot") + ", " + count(import.skeleton.skins.size(), "skin") + ", " +
         count(attachments, "attachment") + ", " + count(import.images.size(), "image") + "; " + notes;
}

}  // namespace mf::offline
