// `mfe skel check <mskel> [--clip name]`: every finding of check_rig, one per line, then a summary.
// Exit 1 when there are errors (or the rig does not read), 0 otherwise: warnings alone pass.

#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "findings_print.hpp"
#include "mf/offline/check/rig_check.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;

struct CheckCommandOptions {
  std::string mskel;
  std::string clip;
};

int run_check(const CheckCommandOptions& options) {
  std::vector<Finding> findings;
  if (Expected<Rig> rig = load_rig(options.mskel)) {
    CheckOptions check;
    if (!options.clip.empty()) check.clip = options.clip;
    findings = check_rig(*rig, check);
  } else {
    findings.push_back({Severity::Error, rig.error()});
  }
  return print_findings(findings);
}

}  // namespace

void add_skel_check(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<CheckCommandOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "check",
      "Check a rig and its clips beyond what the readers reject: weight sums, influence counts, keys past a "
      "clip's length, bezier x values, joint flips, missing images, IK shear and reach, clip/rig uid. Prints "
      "\"error: file:line:col: path: message\" or \"warning: ...\" per finding and a summary. Exit 1 on errors, "
      "0 when there are none (warnings pass), 2 on usage errors, including a missing file.");
  cmd->add_option("mskel", options->mskel, "The .mskel file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--clip", options->clip, "Check only this clip (its file name without .manim)");
  cmd->callback([options, &exit_code] { exit_code = run_check(*options); });
}

}  // namespace mf::tools
