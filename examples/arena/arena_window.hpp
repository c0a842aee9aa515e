#pragma once
// The window side of the arena: an SDL2 window, the Vulkan device made with the window's options, the
// skeleton renderer, the render target the frame is drawn into and the swapchain that presents it.
// Torn down in the right order (the swapchain, then the renderer and target, then the device, which
// owns the window's surface, then the window).

#include <memory>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/render/device.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/render/sdl_window.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/render/swapchain.hpp"

namespace arena {

class ArenaWindow {
 public:
  // Opens a window of width × height screen units. MF_VULKAN_VALIDATION=1 in the environment turns
  // the Khronos validation layer on. Errors say which step failed (no display, no device).
  static mf::Expected<std::unique_ptr<ArenaWindow>> open(const std::string& title, int width, int height);
  ~ArenaWindow();

  mf::render::SdlWindow& window() { return *window_; }
  mf::render::Device& device() { return *device_; }
  mf::render::SkeletonRenderer& renderer() { return *renderer_; }
  mf::render::RenderTarget& target() { return *target_; }
  mf::render::Swapchain& swapchain() { return *swapchain_; }

  // After the window changed size: a target of the new drawable size, swapchain images to match.
  mf::Status follow_window();
  // Validation messages so far (empty without the layer).
  std::vector<std::string> validation_messages() const { return device_->validation_messages(); }

 private:
  ArenaWindow() = default;
  mf::Status make_target(int width, int height);

  std::unique_ptr<mf::render::SdlWindow> window_;
  std::unique_ptr<mf::render::Device> device_;
  std::unique_ptr<mf::render::GpuMemory> memory_;
  std::unique_ptr<mf::render::SkeletonRenderer> renderer_;
  std::unique_ptr<mf::render::RenderTarget> target_;
  std::unique_ptr<mf::render::Swapchain> swapchain_;
};

}  // namespace arena
