// `mfe skel import-images <folder> --out <dir> [--name rig]`: a folder of PNGs (sub-folders as groups,
// the PSD import's tags in file and folder names) becomes a rig, or is merged into the rig an earlier
// import made there (docs/import-art.md). Prints a one-line summary. Exit 1 when the folder cannot be
// imported, 2 on usage errors, when the rig in <dir> does not read or when writing fails.

#include <memory>
#include <string>

#include "art_import_run.hpp"
#include "commands.hpp"

namespace mf::tools {
namespace {

struct ImportImagesCommandOptions {
  std::string folder;
  std::string out;
  std::string name;
};

}  // namespace

void add_skel_import_images(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<ImportImagesCommandOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "import-images",
      "Import a folder of PNGs: each PNG becomes an image and a slot with a region, sub-folders become bones, and "
      "the PSD import's tags apply to file and folder names. Entries are drawn in name order, the first at the back. "
      "PNGs that all have one size are placed as layers of that canvas; otherwise each is centred on the origin. "
      "Writes <out>/<name>.mskel, PNGs under <out>/images/ and <out>/import-report.txt, merging into an existing "
      "<out>/<name>.mskel as import-psd does. Exit 1 when the folder cannot be imported, 2 on usage errors, when the "
      "rig in <out> does not read or when writing fails.");
  cmd->add_option("folder", options->folder, "The folder of PNGs")->required()->check(CLI::ExistingDirectory);
  cmd->add_option("--out", options->out, "Output folder")->required();
  cmd->add_option("--name", options->name, "The rig's name (default: the folder's name)");
  cmd->callback([options, &exit_code] {
    exit_code = write_art_import_and_report(offline::import_png_folder(options->folder, {options->name}), options->out);
  });
}

}  // namespace mf::tools
