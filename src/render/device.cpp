#include "mf/render/device.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "mf/render/vulkan_error.hpp"

namespace mf::render {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

Unexpected fail(const std::string& what, VkResult result) { return Unexpected{vulkan_error(what, result)}; }
Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

bool has_layer(const char* name) {
  std::uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& layer : layers)
    if (std::strcmp(layer.layerName, name) == 0) return true;
  return false;
}

// Higher is better when nothing is asked for.
int device_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

// A queue family that does graphics and compute (which implies transfer) and, with a surface,
// presents to it.
int universal_family(VkPhysicalDevice device, VkSurfaceKHR surface) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (std::uint32_t i = 0; i < count; ++i) {
    const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if ((families[i].queueFlags & need) != need) continue;
    if (surface != VK_NULL_HANDLE) {
      VkBool32 presents = VK_FALSE;
      if (vkGetPhysicalDeviceSurfaceSupportKHR(device, i, surface, &presents) != VK_SUCCESS || !presents) continue;
    }
    return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

VKAPI_ATTR VkBool32 VKAPI_CALL Device::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT, const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                  void* self) {
  auto* device = static_cast<Device*>(self);
  const char* level = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
  std::lock_guard lock(device->messages_mutex_);
  device->messages_.push_back(std::string("validation ") + level + ": " + (data && data->pMessage ? data->pMessage : "?"));
  return VK_FALSE;
}

Expected<std::unique_ptr<Device>> Device::create(const DeviceOptions& options) {
  std::unique_ptr<Device> self(new Device());

  if (options.validation && !has_layer(kValidationLayer))
    return fail(std::string("validation was asked for but ") + kValidationLayer +
                " is not installed (Debian: vulkan-validationlayers)");

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  for (const auto& e : options.instance_extensions) extensions.push_back(e.c_str());
  if (options.validation) {
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "mfskeleton";
  app.pEngineName = "mfskeleton";
  app.apiVersion = VK_API_VERSION_1_2;

  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &Device::on_message;
  messenger_info.pUserData = self.get();

  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  instance_info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  instance_info.ppEnabledLayerNames = layers.data();
  instance_info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  instance_info.ppEnabledExtensionNames = extensions.data();
  // Messages during instance creation and destruction are caught too.
  if (options.validation) instance_info.pNext = &messenger_info;
  if (VkResult r = vkCreateInstance(&instance_info, nullptr, &self->instance_); r != VK_SUCCESS)
    return fail("cannot create a Vulkan instance (is a Vulkan driver installed? Debian: mesa-vulkan-drivers)", r);

  if (options.validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(self->instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (!create) return fail("vkCreateDebugUtilsMessengerEXT is missing");
    if (VkResult r = create(self->instance_, &messenger_info, nullptr, &self->messenger_); r != VK_SUCCESS)
      return fail("cannot create the validation messenger", r);
  }

  if (options.create_surface) {
    auto surface = options.create_surface(self->instance_);
    if (!surface) return Unexpected{surface.error()};
    self->surface_ = *surface;
  }

  std::uint32_t count = 0;
  vkEnumeratePhysicalDevices(self->instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(self->instance_, &count, devices.data());

  std::string wanted = options.prefer_device;
  if (wanted.empty()) {
    if (const char* env = std::getenv("MF_VULKAN_DEVICE")) wanted = env;
  }
  int best_rank = -1;
  std::string names;
  for (VkPhysicalDevice candidate : devices) {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(candidate, &props);
    names += names.empty() ? "" : ", ";
    names += props.deviceName;
    if (universal_family(candidate, self->surface_) < 0 || props.apiVersion < VK_API_VERSION_1_2) continue;
    int rank = device_rank(props.deviceType);
    if (!wanted.empty()) rank = std::string_view(props.deviceName).find(wanted) != std::string_view::npos ? 10 : -1;
    if (rank > best_rank) {
      best_rank = rank;
      self->physical_ = candidate;
    }
  }
  if (self->physical_ == VK_NULL_HANDLE || best_rank < 0) {
    if (!wanted.empty()) return fail("no Vulkan device named like \"" + wanted + "\" (found: " + names + ")");
    return fail(std::string("no Vulkan 1.2 device with a graphics and compute queue") +
                (self->surface_ != VK_NULL_HANDLE ? " that presents to the window" : "") +
                " (found: " + (names.empty() ? "none" : names) + ")");
  }
  vkGetPhysicalDeviceProperties(self->physical_, &self->properties_);
  vkGetPhysicalDeviceMemoryProperties(self->physical_, &self->memory_properties_);
  self->queue_family_ = static_cast<std::uint32_t>(universal_family(self->physical_, self->surface_));
  {
    std::uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(self->physical_, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(self->physical_, &family_count, families.data());
    if (families[self->queue_family_].timestampValidBits > 0)
      self->timestamp_period_ns_ = static_cast<double>(self->properties_.limits.timestampPeriod);
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = self->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  std::vector<const char*> device_extensions;
  for (const auto& e : options.device_extensions) device_extensions.push_back(e.c_str());
  const bool asked_swapchain = std::any_of(options.device_extensions.begin(), options.device_extensions.end(),
                                           [](const std::string& e) { return e == VK_KHR_SWAPCHAIN_EXTENSION_NAME; });
  if (self->surface_ != VK_NULL_HANDLE && !asked_swapchain) device_extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = static_cast<std::uint32_t>(device_extensions.size());
  device_info.ppEnabledExtensionNames = device_extensions.data();
  if (VkResult r = vkCreateDevice(self->physical_, &device_info, nullptr, &self->device_); r != VK_SUCCESS)
    return fail(std::string("cannot create a logical device on ") + self->properties_.deviceName, r);
  vkGetDeviceQueue(self->device_, self->queue_family_, 0, &self->queue_);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = self->queue_family_;
  if (VkResult r = vkCreateCommandPool(self->device_, &pool_info, nullptr, &self->once_pool_); r != VK_SUCCESS)
    return fail("cannot create a command pool", r);
  return self;
}

Device::~Device() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    if (once_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, once_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (surface_ != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, surface_, nullptr);
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

int Device::find_memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const {
  int fallback = -1;
  for (std::uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    const VkMemoryPropertyFlags flags = memory_properties_.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return static_cast<int>(i);
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  return fallback;
}

Expected<VkCommandBuffer> Device::begin_once() {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = once_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (VkResult r = vkAllocateCommandBuffers(device_, &alloc, &cmd); r != VK_SUCCESS)
    return fail("cannot allocate a command buffer", r);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(cmd, &begin);
  return cmd;
}

Status Device::end_once(VkCommandBuffer cmd) {
  vkEndCommandBuffer(cmd);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  VkResult r = vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE);
  if (r == VK_SUCCESS) r = vkQueueWaitIdle(queue_);
  vkFreeCommandBuffers(device_, once_pool_, 1, &cmd);
  if (r != VK_SUCCESS) return fail("one-time submit failed", r);
  return {};
}

std::vector<std::string> Device::validation_messages() const {
  std::lock_guard lock(messages_mutex_);
  return messages_;
}

void Device::clear_validation_messages() {
  std::lock_guard lock(messages_mutex_);
  messages_.clear();
}

}  // namespace mf::render
