#pragma once
// The editor's frame loop: a window, the rig drawn by the skeleton renderer where the viewport is,
// the UI over it (imgui_renderer.hpp), presented through the swapchain. When nothing changes (no
// input, no script, no fixed frame count) the loop sleeps in SDL_WaitEventTimeout instead of drawing.

#include <string>

namespace mf::editor {

struct EditorOptions {
  std::string rig;      // a .mskel or a folder holding one; empty: no rig
  std::string script;   // actions to play (script.hpp); empty: none
  int frames = 0;       // stop after this many frames (0: run until closed or the script quits)
  int width = 1280, height = 800;
  bool vsync = true;
};

// Exit codes: 0 ok; 1 a script action failed (an expectation, a widget or point not found);
// 2 usage, a rig path that does not exist, no display or device, or any Vulkan validation message
// with MF_VULKAN_VALIDATION=1.
int run_editor(const EditorOptions& options);

}  // namespace mf::editor
