#pragma once
// Turning Vulkan results into the project's errors.

#include <vulkan/vulkan.h>

#include <string>

#include "mf/core/error.hpp"

namespace mf::render {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and friends.
const char* result_name(VkResult result);

// An Error for a failed Vulkan call: "<what>: <result name>".
Error vulkan_error(const std::string& what, VkResult result);

}  // namespace mf::render
