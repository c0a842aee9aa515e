#include "skinning_pass.hpp"

#include <algorithm>
#include <cstring>

#include "mf/render/canvas_vertex.hpp"
#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render::detail {

namespace {

constexpr std::uint32_t kSkinSpirv[] = {
#include "shaders/skin.comp.inc"
};
constexpr std::uint32_t kMaxGroupsX = 65535;
// Bindings of the skinning set: 0 influences, 1 static vertices (the arenas, written once), 2 palette,
// 3 slot records, 4 deform, 5 jobs (per frame), 6 output vertices (when the consumer's buffer changes).
constexpr std::uint32_t kBindings = 7;

Unexpected fail(const std::string& what, VkResult r) { return Unexpected{vulkan_error(what, r)}; }

}  // namespace

SkinningPass::~SkinningPass() {
  if (!device_) return;
  VkDevice vk = device_->device();
  if (pipeline_) vkDestroyPipeline(vk, pipeline_, nullptr);
  if (queries_) vkDestroyQueryPool(vk, queries_, nullptr);
  if (pool_) vkDestroyDescriptorPool(vk, pool_, nullptr);
  if (layout_) vkDestroyPipelineLayout(vk, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(vk, set_layout_, nullptr);
}

Expected<std::unique_ptr<SkinningPass>> SkinningPass::create(Device& device, GpuMemory& memory, const Options& options) {
  std::unique_ptr<SkinningPass> self(new SkinningPass());
  self->device_ = &device;
  self->memory_ = &memory;
  auto influences = GpuBuffer::create(device, memory, VkDeviceSize{options.max_static_influences} * sizeof(GpuInfluence),
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::DeviceLocal);
  if (!influences) return Unexpected{influences.error()};
  self->influence_arena_ = std::move(*influences);
  auto vertices = GpuBuffer::create(device, memory, VkDeviceSize{options.max_static_vertices} * sizeof(GpuVertex),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::DeviceLocal);
  if (!vertices) return Unexpected{vertices.error()};
  self->vertex_arena_ = std::move(*vertices);
  self->influence_ranges_ = RangeAllocator(options.max_static_influences);
  self->vertex_ranges_ = RangeAllocator(options.max_static_vertices);

  if (Status s = self->create_layouts(); !s) return Unexpected{s.error()};
  if (Status s = self->create_pipeline(options.output); !s) return Unexpected{s.error()};
  if (Status s = self->create_sets(); !s) return Unexpected{s.error()};
  if (options.timestamps && device.timestamp_period_ns() > 0) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2 * kFrameSlots;
    if (VkResult r = vkCreateQueryPool(device.device(), &info, nullptr, &self->queries_); r != VK_SUCCESS)
      return fail("cannot create the timestamp query pool", r);
  }
  return self;
}

Status SkinningPass::create_layouts() {
  VkDevice vk = device_->device();
  VkDescriptorSetLayoutBinding bindings[kBindings] = {};
  for (std::uint32_t i = 0; i < kBindings; ++i)
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = kBindings;
  info.pBindings = bindings;
  if (VkResult r = vkCreateDescriptorSetLayout(vk, &info, nullptr, &set_layout_); r != VK_SUCCESS)
    return fail("cannot create the skinning set layout", r);
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};  // job count, groups along x
  VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout.setLayoutCount = 1;
  layout.pSetLayouts = &set_layout_;
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &push;
  if (VkResult r = vkCreatePipelineLayout(vk, &layout, nullptr, &layout_); r != VK_SUCCESS)
    return fail("cannot create the skinning pipeline layout", r);
  return {};
}

// The vertex layout is the shader's specialization constant 0 (MESH_OUTPUT).
Status SkinningPass::create_pipeline(Options::VertexOutput output) {
  auto shader = ShaderModule::create(*device_, kSkinSpirv);
  if (!shader) return Unexpected{shader.error()};
  shader_ = std::move(*shader);
  const VkBool32 mesh_output = output == Options::VertexOutput::Mesh ? VK_TRUE : VK_FALSE;
  const VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
  const VkSpecializationInfo specialization{1, &entry, sizeof(mesh_output), &mesh_output};
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = shader_.handle();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = layout_;
  if (VkResult r = vkCreateComputePipelines(device_->device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_); r != VK_SUCCESS)
    return fail("cannot create the skinning pipeline", r);
  return {};
}

// One set per frame slot; the arenas never move, so their bindings are written once here.
Status SkinningPass::create_sets() {
  VkDevice vk = device_->device();
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kBindings * kFrameSlots};
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = kFrameSlots;
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  if (VkResult r = vkCreateDescriptorPool(vk, &info, nullptr, &pool_); r != VK_SUCCESS)
    return fail("cannot create the skinning descriptor pool", r);
  std::array<VkDescriptorSetLayout, kFrameSlots> layouts;
  layouts.fill(set_layout_);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool_;
  alloc.descriptorSetCount = kFrameSlots;
  alloc.pSetLayouts = layouts.data();
  if (VkResult r = vkAllocateDescriptorSets(vk, &alloc, sets_.data()); r != VK_SUCCESS)
    return fail("cannot allocate the skinning descriptor sets", r);
  for (VkDescriptorSet set : sets_) {
    VkDescriptorBufferInfo infos[2] = {{influence_arena_.handle(), 0, VK_WHOLE_SIZE}, {vertex_arena_.handle(), 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2] = {};
    for (std::uint32_t i = 0; i < 2; ++i) {
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = set;
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(vk, 2, writes, 0, nullptr);
  }
  return {};
}

std::optional<StaticRange> SkinningPass::allocate_static(std::uint32_t influences, std::uint32_t vertices) {
  const auto influence_base = influence_ranges_.allocate(influences);
  if (!influence_base) return std::nullopt;
  const auto vertex_base = vertex_ranges_.allocate(vertices);
  if (!vertex_base) {
    influence_ranges_.free(*influence_base, influences);
    return std::nullopt;
  }
  return StaticRange{*influence_base, influences, *vertex_base, vertices};
}

void SkinningPass::free_static(const StaticRange& range) {
  influence_ranges_.free(range.influence_base, range.influence_count);
  vertex_ranges_.free(range.vertex_base, range.vertex_count);
}

Status SkinningPass::upload_static(const StaticRange& range, std::span<const GpuInfluence> influences,
                                   std::span<const GpuVertex> vertices) {
  const VkDeviceSize influence_bytes = influences.size_bytes(), vertex_bytes = vertices.size_bytes();
  if (influence_bytes + vertex_bytes == 0) return {};
  // One staging buffer for both arrays.
  auto staging = GpuBuffer::create(*device_, *memory_, influence_bytes + vertex_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                   MemoryUse::Upload);
  if (!staging) return Unexpected{staging.error()};
  if (influence_bytes > 0) std::memcpy(staging->mapped().data(), influences.data(), influence_bytes);
  if (vertex_bytes > 0) std::memcpy(staging->mapped().data() + influence_bytes, vertices.data(), vertex_bytes);
  return device_->run_once([&](VkCommandBuffer cmd) {
    if (influence_bytes > 0) {
      VkBufferCopy copy{0, range.influence_base * sizeof(GpuInfluence), influence_bytes};
      vkCmdCopyBuffer(cmd, staging->handle(), influence_arena_.handle(), 1, &copy);
    }
    if (vertex_bytes > 0) {
      VkBufferCopy copy{influence_bytes, range.vertex_base * sizeof(GpuVertex), vertex_bytes};
      vkCmdCopyBuffer(cmd, staging->handle(), vertex_arena_.handle(), 1, &copy);
    }
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr,
                         0, nullptr);
  });
}

std::optional<StagedSkinning> SkinningPass::stage(UploadRing& uploads, const SkinningInputs& inputs) const {
  const VkDeviceSize align =
      std::max<VkDeviceSize>(device_->properties().limits.minStorageBufferOffsetAlignment, 16);
  auto upload = [&](const void* bytes, VkDeviceSize size) -> std::optional<UploadSpan> {
    auto span = uploads.allocate(std::max<VkDeviceSize>(size, 16), align);  // empty lists still bind 16 bytes
    if (span && size > 0) std::memcpy(span->data, bytes, size);
    return span;
  };
  const auto palette = upload(inputs.palette.data(), inputs.palette.size_bytes());
  const auto slots = upload(inputs.slots.data(), inputs.slots.size_bytes());
  const auto deform = upload(inputs.deform.data(), inputs.deform.size_bytes());
  const auto jobs = upload(inputs.jobs.data(), inputs.jobs.size_bytes());
  if (!palette || !slots || !deform || !jobs) return std::nullopt;
  return StagedSkinning{*palette, *slots, *deform, *jobs, static_cast<std::uint32_t>(inputs.jobs.size())};
}

// The per-frame bindings (2…5), and the output (6) when the consumer's buffer is not the one bound.
// The set of a frame slot is written only after that slot's fence, so no frame in flight reads it.
void SkinningPass::write_inputs(int frame_slot, const StagedSkinning& staged, VkBuffer output) {
  const auto s = static_cast<std::size_t>(frame_slot);
  const UploadSpan* spans[4] = {&staged.palette, &staged.slots, &staged.deform, &staged.jobs};
  VkDescriptorBufferInfo infos[5];
  VkWriteDescriptorSet writes[5] = {};
  std::uint32_t count = 0;
  for (std::uint32_t i = 0; i < 4; ++i, ++count) infos[i] = {spans[i]->buffer, spans[i]->offset, spans[i]->size};
  if (bound_output_[s] != output) {
    infos[count++] = {output, 0, VK_WHOLE_SIZE};
    bound_output_[s] = output;
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = sets_[s];
    writes[i].dstBinding = 2 + i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(device_->device(), count, writes, 0, nullptr);
}

bool SkinningPass::record(VkCommandBuffer cmd, int frame_slot, const StagedSkinning& staged, VkBuffer output) {
  write_inputs(frame_slot, staged, output);
  if (staged.job_count == 0) return false;
  const auto query = static_cast<std::uint32_t>(2 * frame_slot);
  if (queries_) {
    vkCmdResetQueryPool(cmd, queries_, query, 2);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries_, query);
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets_[static_cast<std::size_t>(frame_slot)], 0,
                          nullptr);
  // More jobs than a dimension holds wrap into rows; the shader skips the tail of the last row.
  const std::uint32_t groups_x = std::min(staged.job_count, kMaxGroupsX);
  const std::uint32_t push[2] = {staged.job_count, groups_x};
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
  vkCmdDispatch(cmd, groups_x, (staged.job_count + groups_x - 1) / groups_x, 1);
  if (queries_) {
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, queries_, query + 1);
    queries_written_[static_cast<std::size_t>(frame_slot)] = true;
  }
  return true;
}

void SkinningPass::collect_timing(int frame_slot) {
  const auto s = static_cast<std::size_t>(frame_slot);
  if (queries_ && queries_written_[s]) {
    std::uint64_t ticks[2] = {};
    if (vkGetQueryPoolResults(device_->device(), queries_, static_cast<std::uint32_t>(2 * s), 2, sizeof(ticks), ticks,
                              sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
      gpu_ms_ = static_cast<double>(ticks[1] - ticks[0]) * device_->timestamp_period_ns() * 1e-6;
  }
  queries_written_[s] = false;
}

}  // namespace mf::render::detail
