#include "editor_gpu.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace mf::editor {

Expected<std::unique_ptr<EditorGpu>> EditorGpu::open(const std::string& title, int width, int height, bool vsync,
                                                     const skel::SkeletonData* data) {
  auto gpu = std::make_unique<EditorGpu>();
  auto window = render::SdlWindow::create({title, width, height, true});
  if (!window) return Unexpected{window.error()};
  gpu->window = std::move(*window);
  render::DeviceOptions options = gpu->window->device_options();
  if (const char* v = std::getenv("MF_VULKAN_VALIDATION"); v && std::string(v) == "1") options.validation = true;
  auto device = render::Device::create(options);
  if (!device) return Unexpected{device.error()};
  gpu->device = std::move(*device);
  gpu->memory = std::make_unique<render::GpuMemory>(*gpu->device);
  auto renderer = render::SkeletonRenderer::create(*gpu->device, *gpu->memory);
  if (!renderer) return Unexpected{renderer.error()};
  gpu->renderer = std::move(*renderer);
  if (data) {
    auto handle = gpu->renderer->add_data(*data);
    if (!handle) return Unexpected{handle.error()};
    auto instance = gpu->renderer->add_instance(*handle);
    if (!instance) return Unexpected{instance.error()};
    gpu->instance = *instance;
    gpu->has_instance = true;
  }
  if (Status s = gpu->fit_target(); !s) return Unexpected{s.error()};
  render::SwapchainOptions swap;
  swap.vsync = vsync;
  auto swapchain = render::Swapchain::create(*gpu->device, gpu->window->drawable_size(), swap);
  if (!swapchain) return Unexpected{swapchain.error()};
  gpu->swapchain = std::move(*swapchain);
  return gpu;
}

EditorGpu::~EditorGpu() {
  (void)wait_idle();
  ui.reset();
  swapchain.reset();
  target.reset();
  renderer.reset();
  memory.reset();
  device.reset();
  window.reset();
}

Status EditorGpu::start_ui() {
  auto created = ImguiRenderer::create(*device);
  if (!created) return Unexpected{created.error()};
  ui = std::move(*created);
  return {};
}

Status EditorGpu::wait_idle() {
  if (ui) {
    if (Status s = ui->wait_idle(); !s) return s;
  }
  if (swapchain) {
    if (Status s = swapchain->wait_idle(); !s) return s;
  }
  if (renderer) return renderer->wait_idle();
  return {};
}

Status EditorGpu::fit_target() {
  const VkExtent2D size = window->drawable_size();
  const int w = std::max(1, static_cast<int>(size.width)), h = std::max(1, static_cast<int>(size.height));
  if (target && target->width() == w && target->height() == h) return {};
  if (Status s = wait_idle(); !s) return s;
  target.reset();
  auto created = render::RenderTarget::create(*device, *memory, w, h);
  if (!created) return Unexpected{created.error()};
  target = std::move(*created);
  return {};
}

Status EditorGpu::follow_window() {
  if (Status s = fit_target(); !s) return s;
  return swapchain->resize(window->drawable_size());
}

}  // namespace mf::editor
