// `mfe skel import-psd <psd> --out <dir> [--name rig]`: a layered PSD becomes a rig, or is merged into
// the rig an earlier import made there: <dir>/<name>.mskel, PNGs under its images folder and
// <dir>/import-report.txt (docs/import-art.md). Prints a one-line summary. Exit 1 when the PSD cannot
// be imported, 2 on usage errors, when the rig in <dir> does not read or when writing fails.

#include <memory>
#include <string>

#include "art_import_run.hpp"
#include "commands.hpp"

namespace mf::tools {
namespace {

struct ImportPsdCommandOptions {
  std::string psd;
  std::string out;
  std::string name;
};

}  // namespace

void add_skel_import_psd(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<ImportPsdCommandOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "import-psd",
      "Import a layered PSD (RGB, 8 or 16 bits): each pixel layer becomes an image and a slot with a region where "
      "the layer sits, groups become bones, and Spine's layer tags ([ignore], [slot], [skin], [merge], [bone], "
      "[mesh], [normal], [origin]) apply. Writes <out>/<name>.mskel, PNGs under <out>/images/ and "
      "<out>/import-report.txt. When <out>/<name>.mskel exists, the PSD is merged into it: changed layers update "
      "their images, moved layers shift their attachments, new layers become slots, and everything else in the rig "
      "is kept. Exit 1 when the PSD cannot be imported, 2 on usage errors, when the rig in <out> does not read (it "
      "is left as it is) or when writing fails.");
  cmd->add_option("psd", options->psd, "The PSD file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", options->out, "Output folder")->required();
  cmd->add_option("--name", options->name, "The rig's name (default: the PSD's base name)");
  cmd->callback([options, &exit_code] {
    exit_code = write_art_import_and_report(offline::import_psd(options->psd, {options->name}), options->out);
  });
}

}  // namespace mf::tools
