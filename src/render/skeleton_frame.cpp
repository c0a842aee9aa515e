#include "skeleton_frame.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace mf::render::detail {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

std::uint32_t pack_tangent(float x, float y) {
  const float len = std::sqrt(x * x + y * y);
  if (!(len > 1e-20f)) {
    x = 1;
    y = 0;
  } else {
    x /= len;
    y /= len;
  }
  auto snorm = [](float v) { return static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f))); };
  return static_cast<std::uint32_t>(snorm(x)) | static_cast<std::uint32_t>(snorm(y)) << 16;
}

// The CPU path's tangent: the vertex's static tangent through its first influence's bone and `t`.
std::uint32_t tangent_of(const SkeletonGpuData& data, const skel::SkeletonPose& pose, const Affine2& t, std::uint32_t vertex) {
  const skel::SkeletonData& d = *data.data;
  const auto bone = static_cast<std::size_t>(d.influences[d.vertices[vertex].first].bone);
  const float lx = data.tangents[2 * vertex], ly = data.tangents[2 * vertex + 1];
  const float wx = pose.a[bone] * lx + pose.b[bone] * ly, wy = pose.c[bone] * lx + pose.d[bone] * ly;
  return pack_tangent(t.a * wx + t.b * wy, t.c * wx + t.d * wy);
}

}  // namespace

void SkeletonFrame::begin(FrameSlot& slot, std::uint64_t slot_use, RenderTarget& target, const View& view, Color clear,
                          std::span<const PointLight> lights, Color ambient, VkDeviceSize uniform_align) {
  slot_ = &slot;
  slot_use_ = slot_use;
  target_ = &target;
  view_ = view;
  if (view_.width <= 0) view_.width = static_cast<float>(target.width());
  if (view_.height <= 0) view_.height = static_cast<float>(target.height());
  clear_ = clear;
  FrameBlock block{};
  block.view[0] = view_.x;
  block.view[1] = view_.y;
  block.view[2] = 2.0f / view_.width;
  block.view[3] = 2.0f / view_.height;
  block.ambient[0] = ambient.r;
  block.ambient[1] = ambient.g;
  block.ambient[2] = ambient.b;
  block.ambient[3] = 1;
  block.counts[0] = static_cast<std::int32_t>(lights.size());
  for (std::size_t i = 0; i < lights.size(); ++i) {
    const PointLight& l = lights[i];
    block.lights[i] = {l.x, l.y, l.height, l.range, l.color.r * l.energy, l.color.g * l.energy, l.color.b * l.energy, 0};
  }
  // The frame block first, then the indices as draw() writes them (end_frame allocates them and the
  // rest after).
  frame_block_ = slot.uploads.allocate(sizeof(block), uniform_align);
  if (frame_block_) std::memcpy(frame_block_->data, &block, sizeof(block));
  batches_.begin(slot.uploads.free_space(16));
  palette_.clear();
  slot_records_.clear();
  deform_.clear();
  jobs_.clear();
  cpu_vertices_.clear();
  gpu_vertex_count_ = 0;
}

SkinningInputs SkeletonFrame::skinning_inputs() const {
  return {{palette_.data(), palette_.size()},
          {slot_records_.data(), slot_records_.size()},
          {deform_.data(), deform_.size()},
          {jobs_.data(), jobs_.size()}};
}

// The bone palette: instance transform ∘ world, 2×3 per bone. Returns the first entry's index.
std::uint32_t SkeletonFrame::append_palette(const skel::SkeletonPose& pose, const Affine2& t) {
  const std::size_t bones = pose.data().bones.size();
  const auto offset = static_cast<std::uint32_t>(palette_.size() / 6);
  float* palette = palette_.append(6 * bones);
  for (std::size_t b = 0; b < bones; ++b, palette += 6) {
    const Affine2 world{pose.a[b], pose.b[b], pose.c[b], pose.d[b], pose.world_x[b], pose.world_y[b]};
    const Affine2 m = t * world;
    palette[0] = m.a;
    palette[1] = m.b;
    palette[2] = m.c;
    palette[3] = m.d;
    palette[4] = m.x;
    palette[5] = m.y;
  }
  return offset;
}

Status SkeletonFrame::queue_gpu(InstanceRuns& instance, const skel::SkeletonPose& pose, const DrawOptions& options,
                                const RendererOptions& limits, RenderStats& stats) {
  if (refresh_runs(instance, pose)) ++stats.run_rebuilds;
  if (gpu_vertex_count_ + instance.gpu_vertices > limits.max_gpu_vertices)
    return fail("draw: the frame's skinned vertices exceed RendererOptions::max_gpu_vertices (" +
                std::to_string(limits.max_gpu_vertices) + ")");
  const SkeletonGpuData& entry = *instance.data;
  const skel::SkeletonData& data = *entry.data;
  const std::uint32_t palette_offset = append_palette(pose, options.transform);
  const std::uint32_t base = gpu_vertex_count_;
  // Indices the previous frame on this slot left in place (see InstanceRuns::written).
  const std::uint32_t* const where = batches_.next();
  InstanceRuns::WrittenIndices& written = instance.written[static_cast<std::size_t>(slot_->index)];
  const bool in_place = !instance.has_clipped && written.slot_use != 0 && written.slot_use + 1 == slot_use_ &&
                        written.where == where && written.base == base && written.version == instance.version;
  GpuDraw draw{instance, pose, options, palette_offset, base, in_place};
  const Color tint = options.tint;
  for (const CachedItem& item : instance.items) {
    if (item.set == VK_NULL_HANDLE) continue;  // a page without a descriptor set: not drawn
    const auto s = static_cast<std::size_t>(item.slot);
    const skel::ColorF& slot_color = pose.color[s];
    const skel::ColorF& att_color = item.color;
    const std::uint32_t light = pack_rgba8(slot_color.r * att_color.r * tint.r, slot_color.g * att_color.g * tint.g,
                                          slot_color.b * att_color.b * tint.b, slot_color.a * att_color.a * tint.a);
    const std::uint32_t dark = data.slots.has_dark[s] ? pack_rgba8(pose.dark[s].r, pose.dark[s].g, pose.dark[s].b, 1) : 0u;
    if (!item.clipped) {
      queue_skinned(draw, item, light, dark);
    } else if (limits.allow_cpu_vertices) {
      if (Status queued = queue_clipped(draw, item, light, dark, limits, stats); !queued) return queued;
    }
  }
  if (!instance.has_clipped && batches_.fits())
    written = {slot_use_, where, base, instance.version};
  else
    written = {};
  gpu_vertex_count_ += instance.gpu_vertices;
  stats.gpu_vertices += instance.gpu_vertices;
  return {};
}

// GPU-skinned: a slot record, the deform floats, and jobs of ≤ 64 vertices.
void SkeletonFrame::queue_skinned(GpuDraw& draw, const CachedItem& item, std::uint32_t light, std::uint32_t dark) {
  const SkeletonGpuData& entry = *draw.instance.data;
  const skel::SkeletonData& data = *entry.data;
  const skel::SkeletonPose& pose = draw.pose;
  const auto s = static_cast<std::size_t>(item.slot);
  const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(item.attachment)];
  const skel::Region* region = region_for(data, pose, s, att);
  const auto slot_index = static_cast<std::uint32_t>(slot_records_.size());
  slot_records_.push_back({region->u0, region->v0, region->u1 - region->u0, region->v1 - region->v0, light, dark, 0, 0});
  const std::uint32_t influence_first = entry.range.influence_base + data.vertices[att.vertex_start].first;
  std::int32_t deform_base = 0;
  std::uint32_t has_deform = 0;
  if (att.deform_source >= 0 && pose.deform_attachment[s] == att.deform_source &&
      pose.deform_start[s] + 2 * static_cast<std::size_t>(att.influence_count) <= pose.deform.size() && att.influence_count > 0) {
    const auto offset = static_cast<std::int32_t>(deform_.size());
    const std::size_t floats = 2 * static_cast<std::size_t>(att.influence_count);
    std::memcpy(deform_.append(floats), pose.deform.data() + pose.deform_start[s], floats * sizeof(float));
    deform_base = offset - 2 * static_cast<std::int32_t>(influence_first);
    has_deform = 1;
  }
  const std::uint32_t job_count = (att.vertex_count + kSkinChunk - 1) / kSkinChunk;
  SkinJob* job = jobs_.append(job_count);
  for (std::uint32_t start = 0; start < att.vertex_count; start += kSkinChunk, ++job) {
    *job = {draw.palette_offset, entry.range.vertex_base + att.vertex_start + start, std::min(kSkinChunk, att.vertex_count - start),
            draw.base + item.local_vertex + start, slot_index, deform_base, influence_first, has_deform};
  }
  batches_.draw_indices(entry.indices.data() + item.index_start, item.index_count, draw.base + item.local_vertex,
                        static_cast<std::int32_t>(item.blend), entry.variant, item.set, !draw.in_place);
}

// Clipped slots: the CPU clipping path, in draw order between the GPU runs.
Status SkeletonFrame::queue_clipped(GpuDraw& draw, const CachedItem& item, std::uint32_t light, std::uint32_t dark,
                                    const RendererOptions& limits, RenderStats& stats) {
  skel::CpuVertices& cpu = *draw.instance.cpu;
  const SkeletonGpuData& entry = *draw.instance.data;
  if (!draw.cpu_updated) {
    cpu.update(draw.pose);
    draw.cpu_updated = true;
  }
  const auto drawn = cpu.drawn();
  std::size_t& cursor = draw.clipped_cursor;
  while (cursor < drawn.size() && !(drawn[cursor].clipped && drawn[cursor].slot == item.slot)) ++cursor;
  if (cursor == drawn.size()) return {};
  const skel::DrawnAttachment& d = drawn[cursor++];
  const auto cpu_base = static_cast<std::uint32_t>(cpu_vertices_.size());
  if (cpu_base + d.vertex_count > limits.max_cpu_vertices)
    return fail("draw: the frame's CPU vertices exceed RendererOptions::max_cpu_vertices");
  const Affine2& t = draw.options.transform;
  const skel::AttachmentRecord& att = entry.data->attachments[static_cast<std::size_t>(item.attachment)];
  const std::uint32_t tangent = tangent_of(entry, draw.pose, t, att.vertex_start);
  CanvasVertex* out = cpu_vertices_.append(d.vertex_count);
  for (std::uint32_t i = 0; i < d.vertex_count; ++i) {
    const skel::CpuVertex& v = cpu.vertices()[d.vertex_start + i];
    out[i] = {t.apply_x(v.x, v.y), t.apply_y(v.x, v.y), v.u, v.v, light, dark, tangent};
  }
  stats.cpu_vertices += d.vertex_count;
  // CPU vertices follow the skinned ones in the frame's vertex buffer.
  const std::uint32_t global = limits.max_gpu_vertices + cpu_base - d.vertex_start;
  batches_.draw_indices(cpu.indices().data() + d.index_start, d.index_count, global, static_cast<std::int32_t>(item.blend),
                        entry.variant, item.set);
  return {};
}

Status SkeletonFrame::queue_cpu(InstanceRuns& instance, const skel::SkeletonPose& pose, const DrawOptions& options,
                                const RendererOptions& limits, RenderStats& stats) {
  skel::CpuVertices& cpu = *instance.cpu;
  cpu.update(pose);
  const SkeletonGpuData& entry = *instance.data;
  const skel::SkeletonData& data = *entry.data;
  const auto base = static_cast<std::uint32_t>(cpu_vertices_.size());
  if (base + cpu.vertices().size() > limits.max_cpu_vertices)
    return fail("draw: the frame's CPU vertices exceed RendererOptions::max_cpu_vertices");
  const Affine2& t = options.transform;
  const Color tint = options.tint;
  for (const skel::DrawnAttachment& drawn : cpu.drawn()) {
    const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(drawn.attachment)];
    const std::uint32_t first_tangent = tangent_of(entry, pose, t, att.vertex_start);
    for (std::uint32_t i = 0; i < drawn.vertex_count; ++i) {
      const skel::CpuVertex& v = cpu.vertices()[drawn.vertex_start + i];
      CanvasVertex out;
      out.x = t.apply_x(v.x, v.y);
      out.y = t.apply_y(v.x, v.y);
      out.u = v.u;
      out.v = v.v;
      out.light = pack_rgba8(v.light.r * tint.r, v.light.g * tint.g, v.light.b * tint.b, v.light.a * tint.a);
      out.dark = pack_rgba8(v.dark.r, v.dark.g, v.dark.b, v.dark.a);
      out.tangent = drawn.clipped || i >= att.vertex_count ? first_tangent : tangent_of(entry, pose, t, att.vertex_start + i);
      cpu_vertices_.push_back(out);
    }
  }
  stats.cpu_vertices += static_cast<std::uint32_t>(cpu.vertices().size());
  const std::uint32_t global_base = limits.max_gpu_vertices + base;
  for (const skel::DrawRun& run : cpu.runs()) {
    const VkDescriptorSet set = entry.page_set(run.page);
    if (set == VK_NULL_HANDLE) continue;
    batches_.draw_indices(cpu.indices().data() + run.index_start, run.index_count, global_base, static_cast<std::int32_t>(run.blend),
                          entry.variant, set);
  }
  return {};
}

}  // namespace mf::render::detail
