#include "mf/render/sdl_window.hpp"

#include <SDL2/SDL_vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace mf::render {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

// Said when SDL cannot open a window and nothing names a display: SDL then falls back to drivers
// (offscreen, dummy) that cannot present, and its own message does not say why.
std::string display_hint() {
  if (std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY")) return "";
  return " (no DISPLAY or WAYLAND_DISPLAY is set: a window needs a display; Xvfb gives a virtual one, "
         "and `mfe skel render` renders without one)";
}

}  // namespace

Expected<std::unique_ptr<SdlWindow>> SdlWindow::create(const WindowOptions& options) {
  if (options.width <= 0 || options.height <= 0)
    return fail("window size " + std::to_string(options.width) + " × " + std::to_string(options.height) + " must be positive");
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) return fail(std::string("cannot start SDL's video: ") + SDL_GetError() + display_hint());
  std::unique_ptr<SdlWindow> self(new SdlWindow());
  Uint32 flags = SDL_WINDOW_VULKAN | SDL_WINDOW_ALLOW_HIGHDPI;
  if (options.resizable) flags |= SDL_WINDOW_RESIZABLE;
  self->window_ = SDL_CreateWindow(options.title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, options.width,
                                   options.height, flags);
  if (!self->window_) {
    std::string message = std::string("cannot open a Vulkan window: ") + SDL_GetError() + display_hint();
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return fail(std::move(message));
  }
  return self;
}

SdlWindow::~SdlWindow() {
  if (window_) SDL_DestroyWindow(window_);
  SDL_QuitSubSystem(SDL_INIT_VIDEO);
}

DeviceOptions SdlWindow::device_options(DeviceOptions base) const {
  unsigned count = 0;
  SDL_Vulkan_GetInstanceExtensions(window_, &count, nullptr);
  std::vector<const char*> names(count);
  SDL_Vulkan_GetInstanceExtensions(window_, &count, names.data());
  for (const char* name : names) base.instance_extensions.emplace_back(name);
  SDL_Window* window = window_;
  base.create_surface = [window](VkInstance instance) -> Expected<VkSurfaceKHR> {
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    if (!SDL_Vulkan_CreateSurface(window, instance, &surface))
      return fail(std::string("cannot make the window's Vulkan surface: ") + SDL_GetError());
    return surface;
  };
  return base;
}

VkExtent2D SdlWindow::drawable_size() const {
  int width = 0, height = 0;
  SDL_Vulkan_GetDrawableSize(window_, &width, &height);
  return {static_cast<std::uint32_t>(std::max(width, 0)), static_cast<std::uint32_t>(std::max(height, 0))};
}

void SdlWindow::set_title(const std::string& title) { SDL_SetWindowTitle(window_, title.c_str()); }

}  // namespace mf::render
