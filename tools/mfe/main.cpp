// mfe: the command-line tool for rigs and clips.

#include <cstdio>

#include <CLI/CLI.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mfe: 2D skeletal animation tools"};
  app.require_subcommand(1);
  CLI::App* skel = app.add_subcommand("skel", "Rigs (.mskel) and clips (.manim)");
  skel->require_subcommand(1);

  int exit_code = 0;
  mf::tools::add_skel_describe(*skel, exit_code);
  mf::tools::add_skel_check(*skel, exit_code);
  mf::tools::add_skel_fmt(*skel, exit_code);
  mf::tools::add_skel_key(*skel, exit_code);
  mf::tools::add_skel_clip(*skel, exit_code);
  mf::tools::add_skel_pose(*skel, exit_code);
  mf::tools::add_skel_bench(*skel, exit_code);
  mf::tools::add_skel_play(*skel, exit_code);
  mf::tools::add_skel_build(*skel, exit_code);
  mf::tools::add_skel_cook(*skel, exit_code);
  mf::tools::add_skel_graph(*skel, exit_code);
  mf::tools::add_skel_import_spine(*skel, exit_code);
  mf::tools::add_skel_autoweights(*skel, exit_code);
  mf::tools::add_skel_import_psd(*skel, exit_code);
  mf::tools::add_skel_import_images(*skel, exit_code);
  mf::tools::add_skel_render(*skel, exit_code);
  mf::tools::add_skel_render_setup(*skel, exit_code);
  mf::tools::add_skel_view(*skel, exit_code);
  mf::tools::add_skel_automesh(*skel, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  std::fflush(stdout);
  return exit_code;
}
