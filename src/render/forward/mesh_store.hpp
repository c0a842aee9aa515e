#pragma once
// Internal: what the ForwardRenderer keeps of an added mesh (its vertex and index buffers and its
// object-space bounds, which culling and the shadow fit use) and of an added material (its
// parameters, albedo and normal map textures, sampler and set 0). Destroying one frees all of it
// at once, so the renderer keeps a removed one until no frame in flight uses it.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec3.hpp"
#include "mf/render/forward/material.hpp"
#include "mf/render/forward/mesh_data.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/gpu_texture.hpp"

namespace mf::render {
class Device;
class GpuMemory;
}  // namespace mf::render

namespace mf::render::detail {

struct GpuMesh {
  GpuBuffer vertices;  // MeshVertex
  GpuBuffer indices;   // uint32
  std::uint32_t index_count = 0;
  Vec3 lo, hi;         // object-space bounds of the vertices
};

struct GpuMaterial {
  Material params;     // as added, without the image pointers
  GpuTexture albedo, normal_map;  // 1×1 white and flat (128, 128, 255) when the material has none
  bool has_normal_map = false;
  VkSampler sampler = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;  // set 0: albedo, normal map
  Device* device = nullptr;

  GpuMaterial() = default;
  GpuMaterial(const GpuMaterial&) = delete;
  GpuMaterial& operator=(const GpuMaterial&) = delete;
  ~GpuMaterial();
};

// Checks the mesh (vertices, whole triangles, indices in range) and uploads it (waits for the GPU).
// Errors start with "add_mesh: ".
Expected<std::unique_ptr<GpuMesh>> upload_mesh(Device& device, GpuMemory& memory, const MeshData& mesh);
// Checks the material and uploads its textures (waits for the GPU); `set_layout` is the material set
// layout. Errors start with "add_material: ".
Expected<std::unique_ptr<GpuMaterial>> upload_material(Device& device, GpuMemory& memory, VkDescriptorSetLayout set_layout,
                                                       const Material& material);

}  // namespace mf::render::detail
