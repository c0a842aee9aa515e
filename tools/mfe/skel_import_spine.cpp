// `mfe skel import-spine <json> [--atlas <atlas>] --out <dir>`: a Spine 4.x JSON export and its atlas
// become a rig: <dir>/<name>.mskel, <dir>/<name>.clips/*.manim, PNGs under <dir>/images/ and
// <dir>/import-report.txt. Prints a one-line summary. Exit 1 when the input cannot be imported
// (bad JSON or atlas, a binary .skel, a missing page), 2 on usage errors or when writing fails.

#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "mf/offline/import/spine/spine_import.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;

struct ImportSpineCommandOptions {
  std::string json;
  std::string atlas;
  std::string out;
};

int run_import_spine(const ImportSpineCommandOptions& options) {
  Expected<SpineImport> import = import_spine({options.json, options.atlas});
  if (!import) {
    std::fprintf(stderr, "error: %s\n", import.error().to_string().c_str());
    return 1;
  }
  if (Status written = write_spine_import(*import, options.out); !written) {
    std::fprintf(stderr, "error: %s\n", written.error().to_string().c_str());
    return 2;
  }
  std::printf("%s (report: %s/import-report.txt)\n", import_summary(*import).c_str(), options.out.c_str());
  return 0;
}

}  // namespace

void add_skel_import_spine(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<ImportSpineCommandOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "import-spine",
      "Import a Spine 4.0-4.3 JSON export and its .atlas: writes <out>/<name>.mskel, one .manim per animation in "
      "<out>/<name>.clips/, one PNG per image under <out>/images/ and <out>/import-report.txt listing everything "
      "that did not map exactly. Binary .skel exports are not read. Exit 1 when the input cannot be imported, 2 on "
      "usage errors or when writing fails.");
  cmd->add_option("json", options->json, "The Spine JSON export")->required()->check(CLI::ExistingFile);
  cmd->add_option("--atlas", options->atlas,
                  "The .atlas (default: <json name>.atlas beside the JSON, else the only .atlas in its folder)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", options->out, "Output folder")->required();
  cmd->callback([options, &exit_code] { exit_code = run_import_spine(*options); });
}

}  // namespace mf::tools
