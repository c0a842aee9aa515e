#include "imgui_renderer.hpp"

#include <imgui.h>
#include <backends/imgui_impl_vulkan.h>

#include <atomic>
#include <limits>

#include "mf/render/vulkan_error.hpp"

namespace mf::editor {
namespace {

// The backend reports Vulkan failures through a callback with no context: the first failure is kept
// and turned into an error by the next draw.
std::atomic<int> g_backend_result{VK_SUCCESS};

void on_backend_result(VkResult r) {
  if (r < 0) {
    int expected = VK_SUCCESS;
    g_backend_result.compare_exchange_strong(expected, r);
  }
}

Status backend_status() {
  const auto r = static_cast<VkResult>(g_backend_result.load());
  if (r == VK_SUCCESS) return {};
  return Unexpected{render::vulkan_error("Dear ImGui's Vulkan backend failed", r)};
}

}  // namespace

Expected<std::unique_ptr<ImguiRenderer>> ImguiRenderer::create(render::Device& device) {
  std::unique_ptr<ImguiRenderer> self(new ImguiRenderer());
  self->device_ = &device;
  VkDevice vk = device.device();
  auto pass = render::OverlayPass::create(device);
  if (!pass) return Unexpected{pass.error()};
  self->pass_ = std::move(*pass);

  // One combined image sampler set: the font atlas.
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  if (VkResult r = vkCreateDescriptorPool(vk, &pool_info, nullptr, &self->descriptors_); r != VK_SUCCESS)
    return Unexpected{render::vulkan_error("cannot create the UI's descriptor pool", r)};

  VkCommandPoolCreateInfo command_pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  command_pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  command_pool.queueFamilyIndex = device.queue_family();
  if (VkResult r = vkCreateCommandPool(vk, &command_pool, nullptr, &self->pool_); r != VK_SUCCESS)
    return Unexpected{render::vulkan_error("cannot create the UI's command pool", r)};
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = self->pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = kSlots;
  if (VkResult r = vkAllocateCommandBuffers(vk, &alloc, self->commands_.data()); r != VK_SUCCESS)
    return Unexpected{render::vulkan_error("cannot allocate the UI's command buffers", r)};
  for (VkFence& fence : self->fences_) {
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    if (VkResult r = vkCreateFence(vk, &fence_info, nullptr, &fence); r != VK_SUCCESS)
      return Unexpected{render::vulkan_error("cannot create a UI fence", r)};
  }

  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = device.instance();
  info.PhysicalDevice = device.physical_device();
  info.Device = vk;
  info.QueueFamily = device.queue_family();
  info.Queue = device.queue();
  info.DescriptorPool = self->descriptors_;
  info.Subpass = 0;
  // The backend keeps a vertex and index buffer per "image" and moves to the next one every draw: one
  // more than the command buffer slots, so a buffer is reused only after the fence of a later draw.
  info.MinImageCount = kSlots;
  info.ImageCount = kSlots + 1;
  info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  info.CheckVkResultFn = on_backend_result;
  if (!ImGui_ImplVulkan_Init(&info, self->pass_->render_pass()))
    return Unexpected{Error{{}, {}, {}, "Dear ImGui's Vulkan backend did not start"}};
  self->backend_ = true;
  if (Status s = device.run_once([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); }); !s)
    return Unexpected{s.error()};
  ImGui_ImplVulkan_DestroyFontUploadObjects();
  if (Status s = backend_status(); !s) return Unexpected{s.error()};
  return self;
}

ImguiRenderer::~ImguiRenderer() {
  if (!device_) return;
  (void)wait_idle();
  if (backend_) ImGui_ImplVulkan_Shutdown();
  VkDevice vk = device_->device();
  for (VkFence f : fences_)
    if (f != VK_NULL_HANDLE) vkDestroyFence(vk, f, nullptr);
  if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(vk, pool_, nullptr);
  if (descriptors_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(vk, descriptors_, nullptr);
  pass_.reset();
}

Status ImguiRenderer::wait_idle() {
  for (VkFence fence : fences_) {
    if (fence == VK_NULL_HANDLE) continue;
    if (VkResult r = vkWaitForFences(device_->device(), 1, &fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max()); r != VK_SUCCESS)
      return Unexpected{render::vulkan_error("waiting for the UI pass failed", r)};
  }
  return {};
}

Status ImguiRenderer::draw(ImDrawData* data, render::RenderTarget& target) {
  VkDevice vk = device_->device();
  const auto slot = static_cast<std::size_t>(frame_ % kSlots);
  VkFence fence = fences_[slot];
  if (VkResult r = vkWaitForFences(vk, 1, &fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max()); r != VK_SUCCESS)
    return Unexpected{render::vulkan_error("waiting for a UI slot failed", r)};
  vkResetFences(vk, 1, &fence);
  VkCommandBuffer cmd = commands_[slot];
  vkResetCommandBuffer(cmd, 0);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = vkBeginCommandBuffer(cmd, &begin); r != VK_SUCCESS) return Unexpected{render::vulkan_error("cannot begin the UI commands", r)};
  Status began = pass_->begin(cmd, target);
  if (began) {
    ImGui_ImplVulkan_RenderDrawData(data, cmd);
    pass_->end(cmd);
  }
  if (VkResult r = vkEndCommandBuffer(cmd); r != VK_SUCCESS) return Unexpected{render::vulkan_error("cannot end the UI commands", r)};
  // Submitted even when the pass did not begin, so the slot's fence is signalled again.
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  if (VkResult r = vkQueueSubmit(device_->queue(), 1, &submit, fence); r != VK_SUCCESS)
    return Unexpected{render::vulkan_error("UI submit failed", r)};
  ++frame_;
  if (!began) return began;
  return backend_status();
}

}  // namespace mf::editor
