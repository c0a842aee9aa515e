#include "skeleton_gpu_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render::detail {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }
Unexpected fail(const std::string& what, VkResult r) { return Unexpected{vulkan_error(what, r)}; }

// Adds the UV gradient of each of the attachment's triangles to its three vertices' tangents.
void accumulate_tangents(const skel::SkeletonData& data, const skel::AttachmentRecord& att, std::vector<float>& tangents) {
  auto position = [&](std::uint32_t local, float& x, float& y) {
    const skel::Influence& in = data.influences[data.vertices[att.vertex_start + local].first];
    x = in.x;
    y = in.y;
  };
  for (std::uint32_t t = 0; t + 2 < att.index_count; t += 3) {
    const std::uint32_t i[3] = {data.indices[att.index_start + t], data.indices[att.index_start + t + 1],
                                data.indices[att.index_start + t + 2]};
    if (i[0] >= att.vertex_count || i[1] >= att.vertex_count || i[2] >= att.vertex_count) continue;
    float px[3], py[3], u[3], v[3];
    for (int k = 0; k < 3; ++k) {
      position(i[k], px[k], py[k]);
      u[k] = data.uvs[2 * (att.vertex_start + i[k])];
      v[k] = data.uvs[2 * (att.vertex_start + i[k]) + 1];
    }
    const float e1x = px[1] - px[0], e1y = py[1] - py[0], e2x = px[2] - px[0], e2y = py[2] - py[0];
    const float du1 = u[1] - u[0], dv1 = v[1] - v[0], du2 = u[2] - u[0], dv2 = v[2] - v[0];
    const float det = du1 * dv2 - du2 * dv1;
    if (std::fabs(det) < 1e-12f) continue;
    const float tx = (e1x * dv2 - e2x * dv1) / det, ty = (e1y * dv2 - e2y * dv1) / det;
    for (int k = 0; k < 3; ++k) {
      tangents[2 * (att.vertex_start + i[k])] += tx;
      tangents[2 * (att.vertex_start + i[k]) + 1] += ty;
    }
  }
}

void drawn_triangles(const skel::SkeletonData& data, std::vector<std::uint16_t>& indices, std::vector<std::uint32_t>& starts) {
  indices.clear();
  starts.assign(data.attachments.size() + 1, 0);
  for (std::size_t a = 0; a < data.attachments.size(); ++a) {
    const skel::AttachmentRecord& att = data.attachments[a];
    starts[a] = static_cast<std::uint32_t>(indices.size());
    if (!is_drawn_kind(att.kind)) continue;
    for (std::uint32_t t = 0; t + 2 < att.index_count; t += 3) {
      const std::uint16_t* tri = data.indices.data() + att.index_start + t;
      if (tri[0] >= att.vertex_count || tri[1] >= att.vertex_count || tri[2] >= att.vertex_count) continue;
      indices.insert(indices.end(), tri, tri + 3);
    }
  }
  starts.back() = static_cast<std::uint32_t>(indices.size());
}

Status check(const skel::SkeletonData& data, const std::string& name) {
  if (!data.normal_pages.empty() && data.normal_pages.size() != data.pages.size())
    return fail(name + ": " + std::to_string(data.normal_pages.size()) + " normal pages for " +
                std::to_string(data.pages.size()) + " pages (there must be one per page, or none)");
  for (const skel::Influence& in : data.influences)
    if (in.bone < 0 || static_cast<std::size_t>(in.bone) >= data.bones.size())
      return fail(name + ": an influence names bone " + std::to_string(in.bone) + " of " + std::to_string(data.bones.size()));
  return {};
}

// The arena records: influences as they are, vertices pointing at their influences' arena place.
Status upload_geometry(SkinningPass& pass, SkeletonGpuData& entry) {
  const skel::SkeletonData& data = *entry.data;
  std::vector<GpuInfluence> influences(data.influences.size());
  for (std::size_t i = 0; i < data.influences.size(); ++i) {
    const skel::Influence& in = data.influences[i];
    influences[i] = {in.bone, in.weight, in.x, in.y};
  }
  std::vector<GpuVertex> vertices(data.vertices.size());
  for (std::size_t v = 0; v < data.vertices.size(); ++v) {
    const skel::VertexInfluences& vi = data.vertices[v];
    const bool has_uv = 2 * v + 1 < data.uvs.size();
    vertices[v] = {entry.range.influence_base + vi.first, vi.count, has_uv ? data.uvs[2 * v] : 0.0f,
                   has_uv ? data.uvs[2 * v + 1] : 0.0f, entry.tangents[2 * v], entry.tangents[2 * v + 1]};
  }
  return pass.upload_static(entry.range, influences, vertices);
}

Status upload_pages(Device& device, GpuMemory& memory, const std::string& name, SkeletonGpuData& entry) {
  const skel::SkeletonData& data = *entry.data;
  for (const skel::Page& page : data.pages) {
    auto texture = GpuTexture::from_page(device, memory, page, data.mipmaps, name + ": page " + page.name);
    if (!texture) return Unexpected{texture.error()};
    entry.pages.push_back(std::move(*texture));
  }
  for (const skel::Page& page : data.normal_pages) {
    auto texture = GpuTexture::from_page(device, memory, page, data.mipmaps, name + ": normal page " + page.name);
    if (!texture) return Unexpected{texture.error()};
    entry.normal_pages.push_back(std::move(*texture));
  }
  return {};
}

// import.filter and import.mipmaps: the data's sampler.
Status create_sampler(VkDevice vk, SkeletonGpuData& entry) {
  const skel::SkeletonData& data = *entry.data;
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  const VkFilter filter = data.filter == skel::TextureFilter::Nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
  sampler.magFilter = filter;
  sampler.minFilter = filter;
  sampler.mipmapMode = data.filter == skel::TextureFilter::Nearest ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sampler.minLod = 0;
  sampler.maxLod = data.mipmaps ? VK_LOD_CLAMP_NONE : 0.0f;
  if (VkResult r = vkCreateSampler(vk, &sampler, nullptr, &entry.sampler); r != VK_SUCCESS) return fail("cannot create a sampler", r);
  return {};
}

Status create_page_sets(VkDevice vk, VkDescriptorSetLayout layout, SkeletonGpuData& entry) {
  if (entry.pages.empty()) return {};
  const auto count = static_cast<std::uint32_t>(entry.pages.size());
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * count};
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = count;
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  if (VkResult r = vkCreateDescriptorPool(vk, &info, nullptr, &entry.pool); r != VK_SUCCESS)
    return fail("cannot create a page descriptor pool", r);
  std::vector<VkDescriptorSetLayout> layouts(count, layout);
  entry.page_sets.resize(count);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = entry.pool;
  alloc.descriptorSetCount = count;
  alloc.pSetLayouts = layouts.data();
  if (VkResult r = vkAllocateDescriptorSets(vk, &alloc, entry.page_sets.data()); r != VK_SUCCESS)
    return fail("cannot allocate page descriptor sets", r);
  for (std::uint32_t p = 0; p < count; ++p) {
    // Without normal pages the flat variant never samples binding 1; it holds the page itself.
    const GpuTexture& normal = entry.normal_pages.empty() ? entry.pages[p] : entry.normal_pages[p];
    VkDescriptorImageInfo images[2] = {{entry.sampler, entry.pages[p].view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                                       {entry.sampler, normal.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = entry.page_sets[p];
    write.dstBinding = 0;
    write.descriptorCount = 2;
    write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    write.pImageInfo = images;
    vkUpdateDescriptorSets(vk, 1, &write, 0, nullptr);
  }
  return {};
}

}  // namespace

const skel::Region* region_for(const skel::SkeletonData& data, const skel::SkeletonPose& pose, std::size_t slot,
                               const skel::AttachmentRecord& att) {
  if (att.region_count == 0) return nullptr;
  std::int32_t frame = att.sequence_setup;
  if (att.region_count > 1 && pose.sequence_index[slot] >= 0) frame = pose.sequence_index[slot];
  frame = std::clamp<std::int32_t>(frame, 0, static_cast<std::int32_t>(att.region_count) - 1);
  return &data.regions[att.region_start + static_cast<std::uint32_t>(frame)];
}

std::vector<float> vertex_tangents(const skel::SkeletonData& data) {
  std::vector<float> tangents(2 * data.vertices.size(), 0.0f);
  for (const skel::AttachmentRecord& att : data.attachments)
    if (is_drawn_kind(att.kind)) accumulate_tangents(data, att, tangents);
  for (std::size_t v = 0; v < data.vertices.size(); ++v) {
    const float x = tangents[2 * v], y = tangents[2 * v + 1];
    const float len = std::sqrt(x * x + y * y);
    if (len > 1e-20f) {
      tangents[2 * v] = x / len;
      tangents[2 * v + 1] = y / len;
    } else {
      tangents[2 * v] = 1;
      tangents[2 * v + 1] = 0;
    }
  }
  return tangents;
}

SkeletonGpuData::~SkeletonGpuData() {
  if (pass) pass->free_static(range);
  if (!device) return;
  VkDevice vk = device->device();
  if (pool) vkDestroyDescriptorPool(vk, pool, nullptr);
  if (sampler) vkDestroySampler(vk, sampler, nullptr);
}

Expected<std::unique_ptr<SkeletonGpuData>> upload_skeleton_data(Device& device, GpuMemory& memory, SkinningPass& pass,
                                                                VkDescriptorSetLayout page_set_layout,
                                                                const skel::SkeletonData& data) {
  const std::string name = data.name.empty() ? "skeleton" : data.name;
  if (Status s = check(data, name); !s) return Unexpected{s.error()};
  auto entry = std::make_unique<SkeletonGpuData>();
  entry->device = &device;
  entry->data = &data;
  entry->variant = data.normal_pages.empty() ? 0 : 1;
  const bool countable = data.influences.size() <= UINT32_MAX && data.vertices.size() <= UINT32_MAX;
  const auto range = countable ? pass.allocate_static(static_cast<std::uint32_t>(data.influences.size()),
                                                      static_cast<std::uint32_t>(data.vertices.size()))
                               : std::nullopt;
  if (!range)
    return fail(name + ": " + std::to_string(data.vertices.size()) + " vertices and " + std::to_string(data.influences.size()) +
                " influences do not fit the renderer's static arenas (its options' max_static_vertices, max_static_influences)");
  entry->range = *range;
  entry->pass = &pass;
  entry->tangents = vertex_tangents(data);
  drawn_triangles(data, entry->indices, entry->index_starts);

  if (Status s = upload_geometry(pass, *entry); !s) return Unexpected{s.error()};
  if (Status s = upload_pages(device, memory, name, *entry); !s) return Unexpected{s.error()};
  if (Status s = create_sampler(device.device(), *entry); !s) return Unexpected{s.error()};
  if (Status s = create_page_sets(device.device(), page_set_layout, *entry); !s) return Unexpected{s.error()};
  return entry;
}

}  // namespace mf::render::detail
