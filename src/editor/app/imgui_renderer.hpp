#pragma once
// ImguiRenderer: Dear ImGui's Vulkan backend (1.86, Debian's libimgui) drawing the UI over the
// rig's finished frame through mf_render's OverlayPass, in command buffers of its own submitted after
// the renderer's frame on the same queue (two in flight, each with its fence).
//
// The 1.86 backend binds its font atlas for every draw and cannot show a texture of ours (no user
// textures), so the viewport is not an image inside the UI: the skeleton renderer draws the rig into
// the window-sized target first, where the viewport panel is, and the UI is drawn over it with the
// viewport panel left without a background.

#include <vulkan/vulkan.h>

#include <array>
#include <memory>

#include "mf/core/expected.hpp"
#include "mf/render/device.hpp"
#include "mf/render/overlay_pass.hpp"
#include "mf/render/skeleton_renderer.hpp"

struct ImDrawData;

namespace mf::editor {

class ImguiRenderer {
 public:
  // Needs ImGui's context; uploads the font atlas (waits for the GPU).
  static Expected<std::unique_ptr<ImguiRenderer>> create(render::Device& device);
  ~ImguiRenderer();
  ImguiRenderer(const ImguiRenderer&) = delete;
  ImguiRenderer& operator=(const ImguiRenderer&) = delete;

  // Records ImGui's draw data over the target's finished frame and submits it.
  Status draw(ImDrawData* data, render::RenderTarget& target);
  // Waits for every submitted UI pass (before the target is replaced).
  Status wait_idle();

 private:
  ImguiRenderer() = default;
  static constexpr int kSlots = 2;
  render::Device* device_ = nullptr;
  std::unique_ptr<render::OverlayPass> pass_;
  VkDescriptorPool descriptors_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::array<VkCommandBuffer, kSlots> commands_{};
  std::array<VkFence, kSlots> fences_{};
  std::uint64_t frame_ = 0;
  bool backend_ = false;
};

}  // namespace mf::editor
