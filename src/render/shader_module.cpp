#include "mf/render/shader_module.hpp"

#include <utility>

#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render {

Expected<ShaderModule> ShaderModule::create(Device& device, std::span<const std::uint32_t> spirv) {
  ShaderModule out;
  out.device_ = &device;
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = spirv.size_bytes();
  info.pCode = spirv.data();
  if (VkResult r = vkCreateShaderModule(device.device(), &info, nullptr, &out.module_); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create a shader module", r)};
  return out;
}

ShaderModule::~ShaderModule() {
  if (module_ != VK_NULL_HANDLE) vkDestroyShaderModule(device_->device(), module_, nullptr);
}

ShaderModule::ShaderModule(ShaderModule&& other) noexcept { *this = std::move(other); }

ShaderModule& ShaderModule::operator=(ShaderModule&& other) noexcept {
  if (this != &other) {
    if (module_ != VK_NULL_HANDLE) vkDestroyShaderModule(device_->device(), module_, nullptr);
    device_ = std::exchange(other.device_, nullptr);
    module_ = std::exchange(other.module_, VK_NULL_HANDLE);
  }
  return *this;
}

}  // namespace mf::render
