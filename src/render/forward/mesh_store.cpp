#include "mesh_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render::detail {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

// A device-local buffer holding `bytes`, copied through a staging buffer; the copy is made
// visible to `dst_access` at `dst_stage`.
Expected<GpuBuffer> upload_buffer(Device& device, GpuMemory& memory, const void* bytes, VkDeviceSize size, VkBufferUsageFlags usage,
                                  VkAccessFlags dst_access) {
  auto buffer = GpuBuffer::create(device, memory, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::DeviceLocal);
  if (!buffer) return Unexpected{buffer.error()};
  auto staging = GpuBuffer::create(device, memory, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload);
  if (!staging) return Unexpected{staging.error()};
  std::memcpy(staging->mapped().data(), bytes, static_cast<std::size_t>(size));
  Status copied = device.run_once([&](VkCommandBuffer cmd) {
    VkBufferCopy copy{0, 0, size};
    vkCmdCopyBuffer(cmd, staging->handle(), buffer->handle(), 1, &copy);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  });
  if (!copied) return Unexpected{copied.error()};
  return std::move(*buffer);
}

Expected<GpuTexture> texture_of(Device& device, GpuMemory& memory, const imaging::Image* image, const std::uint8_t fallback[4],
                                bool mipmaps, const char* what) {
  if (!image) return GpuTexture::create(device, memory, 1, 1, std::span<const std::uint8_t>(fallback, 4), false);
  auto texture = GpuTexture::create(device, memory, image->width, image->height, image->rgba, mipmaps);
  if (!texture) return fail(std::string("add_material: the ") + what + ": " + texture.error().message);
  return texture;
}

}  // namespace

GpuMaterial::~GpuMaterial() {
  if (!device) return;
  VkDevice vk = device->device();
  if (pool) vkDestroyDescriptorPool(vk, pool, nullptr);
  if (sampler) vkDestroySampler(vk, sampler, nullptr);
}

Expected<std::unique_ptr<GpuMesh>> upload_mesh(Device& device, GpuMemory& memory, const MeshData& mesh) {
  if (mesh.vertices.empty()) return fail("add_mesh: the mesh has no vertices");
  if (mesh.indices.empty() || mesh.indices.size() % 3 != 0)
    return fail("add_mesh: " + std::to_string(mesh.indices.size()) + " indices are not a whole number of triangles (at least one)");
  for (std::size_t i = 0; i < mesh.indices.size(); ++i)
    if (mesh.indices[i] >= mesh.vertices.size())
      return fail("add_mesh: index " + std::to_string(i) + " is " + std::to_string(mesh.indices[i]) + ", out of range: the mesh has " +
                  std::to_string(mesh.vertices.size()) + " vertices");
  auto out = std::make_unique<GpuMesh>();
  out->lo = out->hi = Vec3{mesh.vertices[0].x, mesh.vertices[0].y, mesh.vertices[0].z};
  for (const MeshVertex& v : mesh.vertices) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
      return fail("add_mesh: vertex " + std::to_string(&v - mesh.vertices.data()) + " has a position that is not finite");
    out->lo = {std::min(out->lo.x, v.x), std::min(out->lo.y, v.y), std::min(out->lo.z, v.z)};
    out->hi = {std::max(out->hi.x, v.x), std::max(out->hi.y, v.y), std::max(out->hi.z, v.z)};
  }
  auto vertices = upload_buffer(device, memory, mesh.vertices.data(), mesh.vertices.size() * sizeof(MeshVertex),
                                VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT);
  if (!vertices) return Unexpected{vertices.error()};
  auto indices = upload_buffer(device, memory, mesh.indices.data(), mesh.indices.size() * sizeof(std::uint32_t),
                               VK_BUFFER_USAGE_INDEX_BUFFER_BIT, VK_ACCESS_INDEX_READ_BIT);
  if (!indices) return Unexpected{indices.error()};
  out->vertices = std::move(*vertices);
  out->indices = std::move(*indices);
  out->index_count = static_cast<std::uint32_t>(mesh.indices.size());
  return out;
}

Expected<std::unique_ptr<GpuMaterial>> upload_material(Device& device, GpuMemory& memory, VkDescriptorSetLayout set_layout,
                                                       const Material& material) {
  if (static_cast<int>(material.alpha_mode) > static_cast<int>(AlphaMode::Blend))
    return fail("add_material: alpha mode " + std::to_string(static_cast<int>(material.alpha_mode)) + " is not Opaque, Cutout or Blend");
  if (static_cast<int>(material.blend) > static_cast<int>(skel::BlendMode::Screen))
    return fail("add_material: blend mode " + std::to_string(static_cast<int>(material.blend)) +
                " is not Normal, Additive, Multiply or Screen");
  if (!std::isfinite(material.alpha_cutoff) || !std::isfinite(material.specular) || !std::isfinite(material.shininess) ||
      material.shininess < 0)
    return fail("add_material: the alpha cutoff, specular and shininess must be finite, and the shininess not negative");
  VkDevice vk = device.device();
  auto out = std::make_unique<GpuMaterial>();
  out->device = &device;
  out->params = material;
  out->params.albedo = nullptr;
  out->params.normal_map = nullptr;
  out->has_normal_map = material.normal_map != nullptr;
  static constexpr std::uint8_t kWhite[4] = {255, 255, 255, 255};
  static constexpr std::uint8_t kFlat[4] = {128, 128, 255, 255};
  auto albedo = texture_of(device, memory, material.albedo, kWhite, material.mipmaps, "albedo texture");
  if (!albedo) return Unexpected{albedo.error()};
  out->albedo = std::move(*albedo);
  auto normal = texture_of(device, memory, material.normal_map, kFlat, material.mipmaps, "normal map");
  if (!normal) return Unexpected{normal.error()};
  out->normal_map = std::move(*normal);

  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler.magFilter = sampler.minFilter = VK_FILTER_LINEAR;
  sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sampler.maxLod = VK_LOD_CLAMP_NONE;
  if (VkResult r = vkCreateSampler(vk, &sampler, nullptr, &out->sampler); r != VK_SUCCESS)
    return Unexpected{vulkan_error("add_material: cannot create the sampler", r)};
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2};
  VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool.maxSets = 1;
  pool.poolSizeCount = 1;
  pool.pPoolSizes = &size;
  if (VkResult r = vkCreateDescriptorPool(vk, &pool, nullptr, &out->pool); r != VK_SUCCESS)
    return Unexpected{vulkan_error("add_material: cannot create the descriptor pool", r)};
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = out->pool;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &set_layout;
  if (VkResult r = vkAllocateDescriptorSets(vk, &alloc, &out->set); r != VK_SUCCESS)
    return Unexpected{vulkan_error("add_material: cannot allocate the descriptor set", r)};
  VkDescriptorImageInfo images[2] = {{out->sampler, out->albedo.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                                     {out->sampler, out->normal_map.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = out->set;
  write.dstBinding = 0;
  write.descriptorCount = 2;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = images;
  vkUpdateDescriptorSets(vk, 1, &write, 0, nullptr);
  return out;
}

}  // namespace mf::render::detail
