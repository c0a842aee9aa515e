#include "forward_recording.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "../skinning_pass.hpp"
#include "forward_pipelines.hpp"
#include "forward_targets.hpp"

namespace mf::render::detail {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

void copy_matrix(float out[16], const Mat4& m) { std::memcpy(out, m.m.data(), sizeof(float) * 16); }

// The pipeline cull mode of an item: a mirrored model matrix turns its front faces clockwise.
Cull cull_of(const DrawItem& item, const DrawRecord& record) {
  if (!item.key.cull_back) return Cull::None;
  Mat4 model;
  std::memcpy(model.m.data(), record.model, sizeof(record.model));
  return model.determinant3() < 0 ? Cull::Front : Cull::Back;
}

// Where the frame's data went in the slot's upload ring.
struct FrameUploads {
  UploadSpan block, records, indices, cpu_vertices;
  std::optional<StagedSkinning> skinning;
};

// What an item draws from, bound only when it changes.
class Binder {
 public:
  Binder(VkCommandBuffer cmd, const ForwardPipelines& pipelines, const FrameUploads& uploads)
      : cmd_(cmd), pipelines_(pipelines), uploads_(uploads) {}

  void draw(VkPipeline pipeline, const DrawItem& item) {
    if (pipeline != pipeline_) {
      vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      pipeline_ = pipeline;
    }
    if (item.material != material_) {
      vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines_.layout(), 0, 1, &item.material, 0, nullptr);
      material_ = item.material;
    }
    if (item.vertices != vertices_ || item.vertex_offset != vertex_offset_) {
      vkCmdBindVertexBuffers(cmd_, 0, 1, &item.vertices, &item.vertex_offset);
      vertices_ = item.vertices;
      vertex_offset_ = item.vertex_offset;
    }
    // Sprite items index the frame's sprite index list, copied into the upload ring.
    const VkBuffer indices = item.indices != VK_NULL_HANDLE ? item.indices : uploads_.indices.buffer;
    const VkDeviceSize offset = item.indices != VK_NULL_HANDLE ? item.index_offset : uploads_.indices.offset + item.index_offset;
    if (indices != indices_ || offset != index_offset_) {
      vkCmdBindIndexBuffer(cmd_, indices, offset, VK_INDEX_TYPE_UINT32);
      indices_ = indices;
      index_offset_ = offset;
    }
    vkCmdPushConstants(cmd_, pipelines_.layout(), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(std::uint32_t),
                       &item.record);
    vkCmdDrawIndexed(cmd_, item.index_count, 1, 0, item.base_vertex, 0);
  }

 private:
  VkCommandBuffer cmd_;
  const ForwardPipelines& pipelines_;
  const FrameUploads& uploads_;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorSet material_ = VK_NULL_HANDLE;
  VkBuffer vertices_ = VK_NULL_HANDLE, indices_ = VK_NULL_HANDLE;
  VkDeviceSize vertex_offset_ = ~VkDeviceSize{0}, index_offset_ = ~VkDeviceSize{0};
};

void set_viewport(VkCommandBuffer cmd, std::uint32_t width, std::uint32_t height) {
  VkViewport viewport{0, 0, static_cast<float>(width), static_cast<float>(height), 0, 1};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  VkRect2D scissor{{0, 0}, {width, height}};
  vkCmdSetScissor(cmd, 0, 1, &scissor);
}

void timestamp(const FrameRecording& frame, VkPipelineStageFlagBits stage, std::uint32_t query) {
  if (frame.timestamps) vkCmdWriteTimestamp(frame.slot->commands, stage, frame.timestamps, query);
}

std::optional<FrameUploads> allocate_uploads(const FrameRecording& frame, const ForwardDraws& draws, VkDeviceSize uniform_align,
                                             VkDeviceSize storage_align) {
  UploadRing& ring = frame.slot->uploads;
  FrameUploads out;
  auto block = ring.allocate(sizeof(ForwardFrameBlock), uniform_align);
  const VkDeviceSize record_bytes = std::max<std::size_t>(draws.records.size(), 1) * sizeof(DrawRecord);
  auto records = ring.allocate(record_bytes, storage_align);
  const auto indices_in = frame.sprites.indices;
  auto indices = ring.allocate(std::max<VkDeviceSize>(indices_in.size_bytes(), 16), 16);
  const auto cpu = frame.sprites.cpu_vertices;
  auto cpu_vertices = ring.allocate(std::max<VkDeviceSize>(cpu.size_bytes(), 16), 16);
  if (!block || !records || !indices || !cpu_vertices) return std::nullopt;
  std::memcpy(block->data, frame.block, sizeof(ForwardFrameBlock));
  if (!draws.records.empty()) std::memcpy(records->data, draws.records.data(), draws.records.size() * sizeof(DrawRecord));
  if (!indices_in.empty()) std::memcpy(indices->data, indices_in.data(), indices_in.size_bytes());
  if (!cpu.empty()) std::memcpy(cpu_vertices->data, cpu.data(), cpu.size_bytes());
  out.block = *block;
  out.records = *records;
  out.records.size = record_bytes;
  out.indices = *indices;
  out.cpu_vertices = *cpu_vertices;
  if (frame.sprites.skinning && frame.sprites.inputs) {
    out.skinning = frame.sprites.skinning->stage(ring, *frame.sprites.inputs);
    if (!out.skinning) return std::nullopt;
  }
  return out;
}

// Step 1.
void record_vertices(const FrameRecording& frame, const FrameUploads& uploads, ForwardStats& stats) {
  const VkCommandBuffer cmd = frame.slot->commands;
  // The last frame's vertex shaders read this slot's buffer as their previous vertices.
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       0, 0, nullptr, 0, nullptr, 0, nullptr);
  const auto cpu = frame.sprites.cpu_vertices;
  if (!cpu.empty()) {
    VkBufferCopy copy{uploads.cpu_vertices.offset, VkDeviceSize{frame.sprites.cpu_vertex_offset} * sizeof(MeshVertex), cpu.size_bytes()};
    vkCmdCopyBuffer(cmd, uploads.cpu_vertices.buffer, frame.vertex_buffer, 1, &copy);
  }
  if (uploads.skinning && frame.sprites.skinning->record(cmd, frame.slot->index, *uploads.skinning, frame.vertex_buffer))
    ++stats.dispatches;
  // Always: it also orders the last frame's writes of the other slot's buffer before this frame's
  // previous-vertex reads.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace

void WorldBox::grow(const std::array<Vec3, 8>& corners) {
  for (const Vec3& c : corners) {
    if (empty) {
      lo = hi = c;
      empty = false;
    }
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
}

SunFit fit_sun_projection(Vec3 direction, const WorldBox& casters, const WorldBox& everything) {
  const Vec3 d = normalize(direction, {0, -1, 0});
  const Vec3 centre = (casters.lo + casters.hi) * 0.5f;
  const float radius = std::max(length(casters.hi - casters.lo) * 0.5f, 1e-3f);
  const Vec3 up = std::abs(d.y) > 0.99f ? Vec3{0, 0, -1} : Vec3{0, 1, 0};
  const Mat4 view = Mat4::look_at(centre - d * (2 * radius), centre, up);
  // A box's corners in light view space.
  const auto bound = [&](const WorldBox& box, Vec3& vlo, Vec3& vhi) {
    vlo = {1e30f, 1e30f, 1e30f};
    vhi = {-1e30f, -1e30f, -1e30f};
    for (int i = 0; i < 8; ++i) {
      const Vec3 p = view.transform_point({i & 1 ? box.hi.x : box.lo.x, i & 2 ? box.hi.y : box.lo.y, i & 4 ? box.hi.z : box.lo.z});
      vlo = {std::min(vlo.x, p.x), std::min(vlo.y, p.y), std::min(vlo.z, p.z)};
      vhi = {std::max(vhi.x, p.x), std::max(vhi.y, p.y), std::max(vhi.z, p.z)};
    }
  };
  Vec3 clo, chi, elo, ehi;
  bound(casters, clo, chi);
  bound(everything.empty ? casters : everything, elo, ehi);
  const float pad = radius * 0.01f + 1e-3f;
  // Nothing nearer the sun than every caster can be shadowed: the casters' near side starts the range.
  const float z_near = -chi.z - pad, z_far = -std::min(elo.z, clo.z) + pad;
  const Mat4 projection = Mat4::orthographic(clo.x - pad, chi.x + pad, clo.y - pad, chi.y + pad, z_near, z_far);
  const float caster_depth = chi.z - clo.z + 2 * pad;
  // 0.002 of the casters' depth: what the casters' slope bias leaves.
  return {projection * view, 0.002f * caster_depth / (z_far - z_near)};
}

ForwardFrameBlock make_frame_block(const ForwardFrame& frame, std::span<const PointLight3D> points, const Mat4& view_projection,
                                   const Mat4& previous_view_projection, const SunFit& sun_fit, bool shadows, int width,
                                   int height, std::uint32_t shadow_map_size) {
  ForwardFrameBlock b{};
  copy_matrix(b.view_projection, view_projection);
  copy_matrix(b.previous_view_projection, previous_view_projection);
  copy_matrix(b.light_view_projection, sun_fit.view_projection);
  const Camera& camera = frame.camera;
  const Vec3 forward = camera.forward();
  b.camera_position[0] = camera.position.x;
  b.camera_position[1] = camera.position.y;
  b.camera_position[2] = camera.position.z;
  b.camera_position[3] = camera.projection == Camera::Projection::Perspective ? 1.0f : 0.0f;
  b.camera_forward[0] = forward.x;
  b.camera_forward[1] = forward.y;
  b.camera_forward[2] = forward.z;
  b.ambient[0] = frame.lights.ambient.r;
  b.ambient[1] = frame.lights.ambient.g;
  b.ambient[2] = frame.lights.ambient.b;
  if (frame.lights.sun) {
    const DirectionalLight& sun = *frame.lights.sun;
    const Vec3 towards = normalize(-sun.direction, {0, 1, 0});
    b.sun_direction[0] = towards.x;
    b.sun_direction[1] = towards.y;
    b.sun_direction[2] = towards.z;
    b.sun_color[0] = sun.color.r * sun.energy;
    b.sun_color[1] = sun.color.g * sun.energy;
    b.sun_color[2] = sun.color.b * sun.energy;
  }
  b.target_size[0] = static_cast<float>(width);
  b.target_size[1] = static_cast<float>(height);
  b.target_size[2] = 1.0f / static_cast<float>(std::max<std::uint32_t>(shadow_map_size, 1));
  b.target_size[3] = sun_fit.depth_bias;
  b.flags[0] = static_cast<std::int32_t>(std::min<std::size_t>(points.size(), kMaxPointLights3D));
  b.flags[1] = frame.lights.sun ? 1 : 0;
  b.flags[2] = shadows ? 1 : 0;
  b.flags[3] = frame.tonemap ? 1 : 0;
  for (std::size_t i = 0; i < points.size() && i < kMaxPointLights3D; ++i) {
    const PointLight3D& p = points[i];
    b.points[i] = {{p.position.x, p.position.y, p.position.z, p.range}, {p.color.r * p.energy, p.color.g * p.energy, p.color.b * p.energy, 0}};
  }
  return b;
}

Status ForwardRecorder::record(const FrameRecording& frame, const ForwardDraws& draws, ForwardStats& stats) {
  const VkCommandBuffer cmd = frame.slot->commands;
  const ForwardPipelines& pipelines = *frame.pipelines;
  const TargetImages& images = *frame.images;
  auto uploads = allocate_uploads(frame, draws, frame.uniform_align, frame.storage_align);
  if (!uploads) return fail("end_frame: the frame's uploads exceed ForwardOptions::upload_bytes_per_slot");
  pipelines.write_frame(frame.slot->index, uploads->block, uploads->records);

  if (frame.timestamps) vkCmdResetQueryPool(cmd, frame.timestamps, 0, kTimestampsPerFrame);
  timestamp(frame, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0);
  record_vertices(frame, *uploads, stats);
  timestamp(frame, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 1);

  const VkDescriptorSet frame_set = pipelines.frame_set(frame.slot->index);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout(), 1, 1, &frame_set, 0, nullptr);
  const std::size_t item_count = draws.items.size();
  const DrawItem* items = draws.items.data();
  const DrawRecord* records = draws.records.data();

  // 2. Shadow pass.
  timestamp(frame, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 2);
  if (frame.shadow_pass) {
    VkClearValue clear{};
    clear.depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pipelines.shadow_pass();
    begin.framebuffer = frame.shadow->framebuffer;
    begin.renderArea.extent = {frame.shadow->size, frame.shadow->size};
    begin.clearValueCount = 1;
    begin.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    set_viewport(cmd, frame.shadow->size, frame.shadow->size);
    Binder binder(cmd, pipelines, *uploads);
    for (std::size_t i = 0; i < item_count; ++i) {
      const DrawItem& item = items[i];
      if (!item.casts_shadow) continue;
      binder.draw(pipelines.shadow(item.key.alpha != AlphaMode::Opaque, cull_of(item, records[item.record])), item);
      ++stats.shadow_draws;
    }
    vkCmdEndRenderPass(cmd);
  }
  timestamp(frame, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 3);

  const auto width = static_cast<std::uint32_t>(images.width), height = static_cast<std::uint32_t>(images.height);
  // 3. Prepass.
  timestamp(frame, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 4);
  {
    VkClearValue clear[3] = {};
    clear[0].depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pipelines.prepass_pass();
    begin.framebuffer = images.prepass;
    begin.renderArea.extent = {width, height};
    begin.clearValueCount = 3;
    begin.pClearValues = clear;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    set_viewport(cmd, width, height);
    Binder binder(cmd, pipelines, *uploads);
    for (std::size_t i = 0; i < item_count; ++i) {
      const DrawItem& item = items[i];
      if (!item.in_depth_passes) continue;
      const Cull cull = cull_of(item, records[item.record]);
      binder.draw(item.sprite ? pipelines.sprite_prepass(cull) : pipelines.prepass(item.key.alpha != AlphaMode::Opaque, cull), item);
      ++stats.prepass_draws;
    }
    vkCmdEndRenderPass(cmd);
  }
  timestamp(frame, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 5);

  // 4. Main pass: opaque and cutout grouped by pipeline and material, then Blend back to front.
  opaque_.clear();
  blend_.clear();
  std::size_t blend_count = 0;
  for (std::size_t i = 0; i < item_count; ++i) blend_count += items[i].key.alpha == AlphaMode::Blend ? 1 : 0;
  std::uint32_t* opaque = opaque_.append(item_count - blend_count);
  BlendEntry* blend = blend_.append(blend_count);
  const Vec3 eye = frame.camera.position, forward = frame.camera.forward();
  const auto main_pipeline = [&](const DrawItem& item) {
    return pipelines.main(item.key.alpha, item.key.blend, item.key.normal_map, cull_of(item, records[item.record]));
  };
  {
    std::size_t o = 0, b = 0;
    for (std::size_t i = 0; i < item_count; ++i) {
      const DrawItem& item = items[i];
      if (item.key.alpha == AlphaMode::Blend)
        blend[b++] = {dot(item.sort_point - eye, forward), item.order, static_cast<std::uint32_t>(i)};
      else
        opaque[o++] = static_cast<std::uint32_t>(i);
    }
  }
  // std::sort with a total order (the draw order breaks ties): stable without stable_sort's buffer.
  std::sort(opaque, opaque + (item_count - blend_count), [&](std::uint32_t a, std::uint32_t b) {
    const VkPipeline pa = main_pipeline(items[a]), pb = main_pipeline(items[b]);
    if (pa != pb) return pa < pb;
    if (items[a].material != items[b].material) return items[a].material < items[b].material;
    return a < b;
  });
  std::sort(blend, blend + blend_count, [](const BlendEntry& a, const BlendEntry& b) {
    if (a.depth != b.depth) return a.depth > b.depth;
    return a.order < b.order;
  });
  timestamp(frame, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 6);
  {
    const ColorF c = frame.clear;
    VkClearValue clear[2] = {};
    clear[0].color.float32[0] = c.r * c.a;
    clear[0].color.float32[1] = c.g * c.a;
    clear[0].color.float32[2] = c.b * c.a;
    clear[0].color.float32[3] = c.a;
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pipelines.main_pass();
    begin.framebuffer = images.main;
    begin.renderArea.extent = {width, height};
    begin.clearValueCount = 2;
    begin.pClearValues = clear;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    set_viewport(cmd, width, height);
    Binder binder(cmd, pipelines, *uploads);
    for (std::size_t i = 0; i < item_count - blend_count; ++i) {
      binder.draw(main_pipeline(items[opaque[i]]), items[opaque[i]]);
      ++stats.main_draws;
    }
    for (std::size_t i = 0; i < blend_count; ++i) {
      binder.draw(main_pipeline(items[blend[i].item]), items[blend[i].item]);
      ++stats.main_draws;
    }
    vkCmdEndRenderPass(cmd);
  }
  timestamp(frame, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 7);
  return {};
}

}  // namespace mf::render::detail
