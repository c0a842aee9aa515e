#pragma once
// Device: the Vulkan instance, the chosen physical device and a logical device with one queue
// that does graphics, compute and transfer. Works headless (no surface: Mesa's lavapipe on the CPU,
// or any GPU) and with a window: DeviceOptions then carries the window's instance extensions and a
// function that makes its surface once the instance exists; the device chosen must present to that
// surface from its queue, VK_KHR_swapchain is enabled and the Device owns the surface.
//
// With validation on, every message of the Khronos validation layer (warnings and errors) is kept:
// tests fail on any of them.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"

namespace mf::render {

struct DeviceOptions {
  bool validation = false;  // requires VK_LAYER_KHRONOS_validation; an error when it is missing
  // Picks the first device whose name contains this text (e.g. "llvmpipe"); empty: the environment
  // variable MF_VULKAN_DEVICE, else the best device (discrete, integrated, virtual, then CPU).
  std::string prefer_device;
  std::vector<std::string> instance_extensions;  // e.g. SDL2's surface extensions
  std::vector<std::string> device_extensions;    // more device extensions (VK_KHR_swapchain comes with a surface)
  // Makes the window's surface from the new instance (e.g. SDL_Vulkan_CreateSurface); empty: headless.
  std::function<Expected<VkSurfaceKHR>(VkInstance)> create_surface;
};

class Device {
 public:
  static Expected<std::unique_ptr<Device>> create(const DeviceOptions& options);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  // The window's surface (owned: destroyed with the device), or VK_NULL_HANDLE when headless.
  VkSurfaceKHR surface() const { return surface_; }
  std::uint32_t queue_family() const { return queue_family_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }
  std::string name() const { return properties_.deviceName; }
  bool is_cpu() const { return properties_.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU; }
  // Nanoseconds per timestamp tick; 0 when the queue has no timestamps.
  double timestamp_period_ns() const { return timestamp_period_ns_; }

  // The index of a memory type allowed by `type_bits` with all of `required` (and, when possible,
  // all of `preferred`); −1 when none.
  int find_memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred = 0) const;

  // Runs `record` on a one-time command buffer, submits it and waits. For uploads at load time and
  // tests, never in the frame loop.
  template <typename Record>
  Status run_once(Record&& record) {
    auto cmd = begin_once();
    if (!cmd) return Unexpected{cmd.error()};
    record(*cmd);
    return end_once(*cmd);
  }

  // Validation messages so far (warnings and errors), and forgetting them.
  std::vector<std::string> validation_messages() const;
  void clear_validation_messages();

 private:
  Device() = default;
  Expected<VkCommandBuffer> begin_once();
  Status end_once(VkCommandBuffer cmd);
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* self);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  VkCommandPool once_pool_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  double timestamp_period_ns_ = 0;

  mutable std::mutex messages_mutex_;
  std::vector<std::string> messages_;
};

}  // namespace mf::render
