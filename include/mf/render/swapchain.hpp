#pragma once
// Swapchain: shows RenderTargets in a window. It presents to the Device's surface (see
// DeviceOptions::create_surface), so it knows nothing of the windowing library.
//
// present(target) acquires the next image, blits the target into it (scaled to fit and centred,
// the rest filled with a border colour; 1:1 when the sizes match), and queues it for presentation.
// It records into its own command buffers, submitted after the renderer's frame on the same queue:
// submission order and the canvas render pass's external dependencies order the blit after the
// frame's drawing and before the next frame's clear, so the renderer needs no change for a window.
//
// Two frames in flight, like the FrameRing: each slot has its command buffer, its fence and the
// semaphore its acquire signals; every swapchain image has the semaphore its presentation waits on.
// Images are recreated when the window's size changes (resize()) or the surface reports them out of
// date; a window of zero size (minimised) skips presentation.
//
// Decisions:
// - A UNORM surface format is preferred: the canvas holds gamma-space colour and is copied as it is.
//   When the surface offers only sRGB formats the blit encodes the colour a second time (too
//   bright); present_format_is_srgb() says so.
// - FIFO (vsync) unless `vsync` is off and MAILBOX or IMMEDIATE is offered.
// - The target holds premultiplied colour; the window is opaque, so the border colour should be the
//   colour the frame was cleared to.

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/render/skeleton_renderer.hpp"

namespace mf::render {

class Device;

struct SwapchainOptions {
  bool vsync = true;
};

enum class PresentResult : std::uint8_t {
  Presented,  // the target is on its way to the screen
  Skipped,    // the window has no area (minimised); nothing was shown
};

class Swapchain {
 public:
  // `window_size` is the drawable size in pixels (the surface's current extent wins when it has one).
  static Expected<std::unique_ptr<Swapchain>> create(Device& device, VkExtent2D window_size,
                                                     const SwapchainOptions& options = {});
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  // Shows the target's last frame (drawn and ended by the SkeletonRenderer). `border` is straight
  // alpha, composited as opaque.
  Expected<PresentResult> present(RenderTarget& target, Color border = {0, 0, 0, 1});
  // Recreates the images for a new drawable size (call on the window's resize event).
  Status resize(VkExtent2D window_size);
  // Waits until every presentation submitted has finished its blit.
  Status wait_idle();

  VkExtent2D extent() const { return extent_; }
  VkFormat format() const { return format_; }
  bool present_format_is_srgb() const;
  std::uint32_t image_count() const { return static_cast<std::uint32_t>(images_.size()); }
  std::uint64_t presented() const { return presented_; }   // images queued for presentation so far
  std::uint32_t recreated() const { return recreated_; }   // times the images were recreated

 private:
  Swapchain() = default;
  Status build(VkExtent2D window_size);
  void destroy_images();
  void record_blit(VkCommandBuffer cmd, RenderTarget& target, VkImage image, Color border) const;

  static constexpr int kSlots = 2;
  Device* device_ = nullptr;
  SwapchainOptions options_;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkColorSpaceKHR color_space_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  VkExtent2D extent_{0, 0};
  std::vector<VkImage> images_;
  std::vector<VkSemaphore> presentable_;  // per image: its blit finished, presentation may start
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::array<VkCommandBuffer, kSlots> commands_{};
  std::array<VkFence, kSlots> fences_{};
  std::array<VkSemaphore, kSlots> acquired_{};
  std::uint64_t frame_ = 0;
  std::uint64_t presented_ = 0;
  std::uint32_t recreated_ = 0;
  bool needs_rebuild_ = false;
  VkExtent2D wanted_{0, 0};
};

}  // namespace mf::render
