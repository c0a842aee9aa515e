#include "mf/render/vulkan_error.hpp"

namespace mf::render {

const char* result_name(VkResult result) {
  switch (result) {
#define MF_CASE(r) \
  case r:          \
    return #r;
    MF_CASE(VK_SUCCESS)
    MF_CASE(VK_NOT_READY)
    MF_CASE(VK_TIMEOUT)
    MF_CASE(VK_EVENT_SET)
    MF_CASE(VK_EVENT_RESET)
    MF_CASE(VK_INCOMPLETE)
    MF_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    MF_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    MF_CASE(VK_ERROR_INITIALIZATION_FAILED)
    MF_CASE(VK_ERROR_DEVICE_LOST)
    MF_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    MF_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    MF_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    MF_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    MF_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    MF_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    MF_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    MF_CASE(VK_ERROR_FRAGMENTED_POOL)
    MF_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    MF_CASE(VK_ERROR_SURFACE_LOST_KHR)
    MF_CASE(VK_ERROR_OUT_OF_DATE_KHR)
    MF_CASE(VK_SUBOPTIMAL_KHR)
#undef MF_CASE
    default:
      return "VK_ERROR_UNKNOWN";
  }
}

Error vulkan_error(const std::string& what, VkResult result) {
  return Error{{}, {}, {}, what + ": " + result_name(result)};
}

}  // namespace mf::render
