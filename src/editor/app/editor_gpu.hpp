#pragma once
// Everything the editor draws with, torn down in the right order: the window, the device on its
// surface, the skeleton renderer with the open rig's data, the window-sized target, the swapchain and
// the UI's Vulkan backend.

#include <memory>

#include "imgui_renderer.hpp"
#include "mf/core/expected.hpp"
#include "mf/render/device.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/render/sdl_window.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/render/swapchain.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::editor {

struct EditorGpu {
  std::unique_ptr<render::SdlWindow> window;
  std::unique_ptr<render::Device> device;
  std::unique_ptr<render::GpuMemory> memory;
  std::unique_ptr<render::SkeletonRenderer> renderer;
  std::unique_ptr<render::RenderTarget> target;
  std::unique_ptr<render::Swapchain> swapchain;
  std::unique_ptr<ImguiRenderer> ui;  // made once ImGui's context exists (start_ui)
  render::InstanceHandle instance;
  bool has_instance = false;

  // Opens the window and the device (MF_VULKAN_VALIDATION=1 turns validation on), adds `data` when
  // given. A missing display is an error that says so.
  static Expected<std::unique_ptr<EditorGpu>> open(const std::string& title, int width, int height, bool vsync,
                                                   const skel::SkeletonData* data);
  ~EditorGpu();
  Status start_ui();
  // A target and swapchain images of the window's drawable size (after the GPU is done with the old).
  Status follow_window();
  Status wait_idle();

 private:
  Status fit_target();
};

}  // namespace mf::editor
