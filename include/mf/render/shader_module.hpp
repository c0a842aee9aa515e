#pragma once
// Shaders are GLSL under src/render/shaders (and tests/render/shaders), compiled to SPIR-V by glslc
// at build time and embedded as words (cmake/MfShaders.cmake); this wraps them in a VkShaderModule.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "mf/core/expected.hpp"

namespace mf::render {

class Device;

class ShaderModule {
 public:
  static Expected<ShaderModule> create(Device& device, std::span<const std::uint32_t> spirv);
  ShaderModule() = default;
  ~ShaderModule();
  ShaderModule(ShaderModule&& other) noexcept;
  ShaderModule& operator=(ShaderModule&& other) noexcept;
  ShaderModule(const ShaderModule&) = delete;
  ShaderModule& operator=(const ShaderModule&) = delete;

  VkShaderModule handle() const { return module_; }

 private:
  Device* device_ = nullptr;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

}  // namespace mf::render
