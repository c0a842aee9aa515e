#pragma once
// SdlWindow: an SDL2 window the renderer can present to (library mf_render_sdl, so headless users of
// mf_render never link SDL2). It gives the Device what a window needs: SDL's Vulkan instance
// extensions and a function that makes the window's surface (DeviceOptions::create_surface).
//
//   auto window = SdlWindow::create({"viewer", 960, 640});
//   auto device = Device::create((*window)->device_options());
//   auto swapchain = Swapchain::create(**device, (*window)->drawable_size());
//   ... renderer.end_frame(); swapchain->present(target);
//
// The window must outlive the Device (the Device owns the surface made on it). Events are the
// application's: it polls SDL itself and calls Swapchain::resize on SDL_WINDOWEVENT_SIZE_CHANGED.

#include <SDL2/SDL.h>
#include <vulkan/vulkan.h>

#include <memory>
#include <string>

#include "mf/core/expected.hpp"
#include "mf/render/device.hpp"

namespace mf::render {

struct WindowOptions {
  std::string title = "mfskeleton";
  int width = 960, height = 640;  // in screen coordinates
  bool resizable = true;
};

class SdlWindow {
 public:
  // Starts SDL's video subsystem and opens the window. With no display the error says so.
  static Expected<std::unique_ptr<SdlWindow>> create(const WindowOptions& options);
  ~SdlWindow();
  SdlWindow(const SdlWindow&) = delete;
  SdlWindow& operator=(const SdlWindow&) = delete;

  SDL_Window* handle() const { return window_; }
  std::uint32_t id() const { return SDL_GetWindowID(window_); }
  // `base` with this window's instance extensions added and its surface maker set.
  DeviceOptions device_options(DeviceOptions base = {}) const;
  // The size in pixels a swapchain should have (differs from the window size on high-DPI screens).
  VkExtent2D drawable_size() const;
  void set_title(const std::string& title);

 private:
  SdlWindow() = default;
  SDL_Window* window_ = nullptr;
};

}  // namespace mf::render
