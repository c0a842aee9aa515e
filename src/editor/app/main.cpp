// mfe-editor: the skeleton editor's application. `mfe-editor [rig.mskel | folder]`.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "editor_app.hpp"

namespace {

constexpr const char* kHelp = R"help(Opens a rig (a .mskel, or a folder holding one) in the editor: Hierarchy (bones and
their slots), Viewport (the rig, its bones and a grid), Properties (the selected bone or slot) and
Output (what `mfe skel check` finds). In the viewport: left click selects the nearest bone, middle
drag pans, the wheel zooms about the cursor, F frames the whole rig.
--script plays a list of actions as real input (docs/editor.md); --frames stops after that many
frames. Exit codes: 0 ok, 1 a script action failed, 2 usage, no display or device, or (with
MF_VULKAN_VALIDATION=1) any Vulkan validation message.)help";

bool parse_size(const std::string& text, int& width, int& height) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 >= text.size() || x > 5 || text.size() - x - 1 > 5) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (i != x && (text[i] < '0' || text[i] > '9')) return false;
  width = std::stoi(text.substr(0, x));
  height = std::stoi(text.substr(x + 1));
  return width >= 320 && width <= 8192 && height >= 240 && height <= 8192;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mfe-editor: the skeleton editor"};
  app.footer(kHelp);
  mf::editor::EditorOptions options;
  std::string size = "1280x800";
  bool no_vsync = false;
  app.add_option("rig", options.rig, "The rig: a .mskel file or a folder holding one");
  app.add_option("--script", options.script, "Play these actions (JSON) as real input")->check(CLI::ExistingFile);
  app.add_option("--frames", options.frames, "Stop after this many frames")->check(CLI::Range(1, 100000000));
  app.add_option("--size", size, "Window size in pixels, WIDTHxHEIGHT")->capture_default_str();
  app.add_flag("--no-vsync", no_vsync, "Present without waiting for the display (mailbox or immediate when offered)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (!parse_size(size, options.width, options.height)) {
    std::fprintf(stderr, "--size \"%s\": expected WIDTHxHEIGHT in pixels, 320x240 to 8192x8192 (e.g. 1280x800)\n", size.c_str());
    return 2;
  }
  options.vsync = !no_vsync;
  const int code = mf::editor::run_editor(options);
  std::fflush(stdout);
  return code;
}
