#pragma once
// Each `mfe skel` command registers itself on the `skel` group. Its body runs after parsing and
// stores the process exit code: 0 success, 1 the input has errors, 2 usage or I/O failure.

#include <CLI/CLI.hpp>

namespace mf::tools {

void add_skel_describe(CLI::App& skel, int& exit_code);
void add_skel_check(CLI::App& skel, int& exit_code);
void add_skel_fmt(CLI::App& skel, int& exit_code);
void add_skel_key(CLI::App& skel, int& exit_code);
void add_skel_clip(CLI::App& skel, int& exit_code);
void add_skel_pose(CLI::App& skel, int& exit_code);
void add_skel_bench(CLI::App& skel, int& exit_code);
void add_skel_play(CLI::App& skel, int& exit_code);
void add_skel_build(CLI::App& skel, int& exit_code);
void add_skel_cook(CLI::App& skel, int& exit_code);
void add_skel_graph(CLI::App& skel, int& exit_code);
void add_skel_import_spine(CLI::App& skel, int& exit_code);
void add_skel_autoweights(CLI::App& skel, int& exit_code);
void add_skel_import_psd(CLI::App& skel, int& exit_code);
void add_skel_import_images(CLI::App& skel, int& exit_code);
void add_skel_render(CLI::App& skel, int& exit_code);
void add_skel_render_setup(CLI::App& skel, int& exit_code);
void add_skel_view(CLI::App& skel, int& exit_code);
void add_skel_automesh(CLI::App& skel, int& exit_code);

}  // namespace mf::tools
