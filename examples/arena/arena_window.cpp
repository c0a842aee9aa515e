#include "arena_window.hpp"

#include <algorithm>
#include <cstdlib>

namespace arena {

mf::Expected<std::unique_ptr<ArenaWindow>> ArenaWindow::open(const std::string& title, int width, int height) {
  std::unique_ptr<ArenaWindow> self(new ArenaWindow());
  auto window = mf::render::SdlWindow::create({title, width, height, true});
  if (!window) return mf::Unexpected{window.error()};
  self->window_ = std::move(*window);
  mf::render::DeviceOptions options = self->window_->device_options();
  if (const char* v = std::getenv("MF_VULKAN_VALIDATION"); v && std::string(v) == "1") options.validation = true;
  auto device = mf::render::Device::create(options);
  if (!device) return mf::Unexpected{device.error()};
  self->device_ = std::move(*device);
  self->memory_ = std::make_unique<mf::render::GpuMemory>(*self->device_);
  auto renderer = mf::render::SkeletonRenderer::create(*self->device_, *self->memory_);
  if (!renderer) return mf::Unexpected{renderer.error()};
  self->renderer_ = std::move(*renderer);
  const VkExtent2D size = self->window_->drawable_size();
  if (mf::Status s = self->make_target(static_cast<int>(size.width), static_cast<int>(size.height)); !s) return mf::Unexpected{s.error()};
  auto swapchain = mf::render::Swapchain::create(*self->device_, size);
  if (!swapchain) return mf::Unexpected{swapchain.error()};
  self->swapchain_ = std::move(*swapchain);
  return self;
}

ArenaWindow::~ArenaWindow() {
  if (swapchain_) (void)swapchain_->wait_idle();
  swapchain_.reset();
  if (renderer_) (void)renderer_->wait_idle();
  target_.reset();
  renderer_.reset();
  memory_.reset();
  device_.reset();
  window_.reset();
}

mf::Status ArenaWindow::make_target(int width, int height) {
  width = std::max(1, width);
  height = std::max(1, height);
  if (target_ && target_->width() == width && target_->height() == height) return {};
  if (mf::Status s = renderer_->wait_idle(); !s) return s;
  target_.reset();
  auto target = mf::render::RenderTarget::create(*device_, *memory_, width, height);
  if (!target) return mf::Unexpected{target.error()};
  target_ = std::move(*target);
  return {};
}

mf::Status ArenaWindow::follow_window() {
  const VkExtent2D size = window_->drawable_size();
  if (mf::Status s = swapchain_->wait_idle(); !s) return s;
  if (mf::Status s = make_target(static_cast<int>(size.width), static_cast<int>(size.height)); !s) return s;
  return swapchain_->resize(size);
}

}  // namespace arena
