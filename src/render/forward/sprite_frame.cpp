#include "sprite_frame.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "mf/skel/bounds.hpp"

namespace mf::render::detail {

namespace {

constexpr std::uint64_t kNever = ~std::uint64_t{0};  // SpriteInstance::last_frame before its first draw
constexpr float kSpriteSpecular = 0.1f, kSpriteShininess = 16;

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

// The next entry of `drawn` from `cursor` that is the clipped output of `slot` (the cached items and
// the CPU path walk the draw order alike); drawn.size() when there is none.
std::size_t next_clipped(std::span<const skel::DrawnAttachment> drawn, std::size_t cursor, std::int32_t slot) {
  while (cursor < drawn.size() && !(drawn[cursor].clipped && drawn[cursor].slot == slot)) ++cursor;
  return cursor;
}

// The CPU path's tangent, as the canvas takes it: the attachment's first vertex's +u direction
// through its first influence's bone, octahedral with z = 0 (the sprite's plane).
std::uint32_t clipped_tangent(const SkeletonGpuData& data, const skel::SkeletonPose& pose, std::uint32_t vertex) {
  const skel::SkeletonData& d = *data.data;
  const auto bone = static_cast<std::size_t>(d.influences[d.vertices[vertex].first].bone);
  const float lx = data.tangents[2 * vertex], ly = data.tangents[2 * vertex + 1];
  float x = pose.a[bone] * lx + pose.b[bone] * ly, y = pose.c[bone] * lx + pose.d[bone] * ly;
  if (!(std::sqrt(x * x + y * y) > 1e-20f)) {
    x = 1;
    y = 0;
  }
  return encode_octahedral({x, y, 0});
}

// The inverse-transpose of the model's 3×3 as three vec4 columns (w unused): normals through a
// scaled model stay perpendicular to the plane.
void write_normal_matrix(const Mat4& model, float (&out)[12]) {
  const Mat4 inverse = model.inverse();
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) out[4 * c + r] = inverse.at(c, r);
    out[4 * c + 3] = 0;
  }
}

}  // namespace

void SpriteFrame::begin(std::uint64_t frame, const Camera& camera, float aspect, const SpriteTargets& targets) {
  frame_ = frame;
  camera_ = camera;
  aspect_ = aspect;
  view_projection_ = camera.view_projection(aspect);
  frustum_ = Frustum::from(view_projection_);
  targets_ = targets;
  palette_.clear();
  slot_records_.clear();
  deform_.clear();
  jobs_.clear();
  cpu_vertices_.clear();
  indices_.clear();
  gpu_vertex_count_ = 0;
}

SkinningInputs SpriteFrame::skinning_inputs() const {
  return {{palette_.data(), palette_.size()},
          {slot_records_.data(), slot_records_.size()},
          {deform_.data(), deform_.size()},
          {jobs_.data(), jobs_.size()}};
}

// The sprite's box: its bounds in skeleton pixels, deep enough for every slot's depth offset (the
// data's slot count bounds the drawn items before the runs are refreshed).
bool SpriteFrame::culled(const skel::SkeletonPose& pose, const SpriteDrawOptions& options, const Mat4& model) const {
  const Bounds bounds = options.cull_bounds ? *options.cull_bounds : skel::pose_bounds(pose);
  if (bounds.empty()) return true;
  const float depth = static_cast<float>(pose.data().slots.size()) * options.slot_depth_offset;
  const Vec3 lo{bounds.min_x, bounds.min_y, std::min(0.0f, depth)}, hi{bounds.max_x, bounds.max_y, std::max(0.0f, depth)};
  return frustum_.outside(box_corners(model, lo, hi));
}

// The bone palette: the pose's world transforms, 2×3 per bone (vertices stay in skeleton pixels).
// Returns the first entry's index.
std::uint32_t SpriteFrame::append_palette(const skel::SkeletonPose& pose) {
  const std::size_t bones = pose.data().bones.size();
  const auto offset = static_cast<std::uint32_t>(palette_.size() / 6);
  float* palette = palette_.append(6 * bones);
  for (std::size_t b = 0; b < bones; ++b, palette += 6) {
    palette[0] = pose.a[b];
    palette[1] = pose.b[b];
    palette[2] = pose.c[b];
    palette[3] = pose.d[b];
    palette[4] = pose.world_x[b];
    palette[5] = pose.world_y[b];
  }
  return offset;
}

Status SpriteFrame::queue(SpriteInstance& instance, const skel::SkeletonPose& pose, const SpriteDrawOptions& options,
                          const ForwardOptions& limits, ForwardDraws& draws, ForwardStats& stats) {
  const Mat4 model = sprite_model_matrix(options, camera_);
  if (culled(pose, options, model)) {
    ++stats.sprites_culled;
    return {};
  }
  InstanceRuns& runs = *instance.runs;
  if (refresh_runs(runs, pose)) ++stats.run_rebuilds;
  if (gpu_vertex_count_ + runs.gpu_vertices > limits.max_gpu_vertices)
    return fail("draw_sprite: the frame's skinned sprite vertices exceed ForwardOptions::max_gpu_vertices (" +
                std::to_string(limits.max_gpu_vertices) + ")");
  if (draws.records.size() >= limits.max_draws)
    return fail("draw_sprite: the frame's draws exceed ForwardOptions::max_draws (" + std::to_string(limits.max_draws) + ")");
  // Clipped items: the CPU path's output, counted before anything is appended, so that a sprite
  // over the limit leaves the frame's lists as they were.
  const auto cpu_base = static_cast<std::uint32_t>(cpu_vertices_.size());
  std::uint32_t cpu_count = 0;
  if (runs.has_clipped) {
    runs.cpu->update(pose);
    const auto drawn = runs.cpu->drawn();
    std::size_t cursor = 0;
    for (const CachedItem& item : runs.items) {
      if (!item.clipped || item.set == VK_NULL_HANDLE) continue;
      cursor = next_clipped(drawn, cursor, item.slot);
      if (cursor == drawn.size()) break;
      cpu_count += drawn[cursor++].vertex_count;
    }
    if (cpu_base + cpu_count > limits.max_cpu_vertices)
      return fail("draw_sprite: the frame's CPU-path sprite vertices (clipped slots) exceed ForwardOptions::max_cpu_vertices (" +
                  std::to_string(limits.max_cpu_vertices) + ")");
  }

  const SkeletonGpuData& entry = *runs.data;
  const skel::SkeletonData& data = *entry.data;
  const std::uint32_t base = gpu_vertex_count_;
  const bool drawn_last_frame = instance.last_frame != kNever && instance.last_frame + 1 == frame_;

  DrawRecord record{};
  std::memcpy(record.model, model.m.data(), sizeof(record.model));
  std::memcpy(record.previous_model, (drawn_last_frame ? instance.last_model : model).m.data(), sizeof(record.previous_model));
  write_normal_matrix(model, record.normal_matrix);
  record.base_color[0] = record.base_color[1] = record.base_color[2] = record.base_color[3] = 1;
  record.alpha_cutoff = options.alpha_cutoff;
  record.specular = kSpriteSpecular;
  record.shininess = kSpriteShininess;
  record.object_id = options.object_id;
  record.flags = kDrawSpritePlane | kDrawReceivesShadows | (options.shaded ? kDrawShaded : 0u) |
                 (options.double_sided ? kDrawDoubleSided : 0u);
  // Last frame's vertices are this frame's counterparts only with the same runs (the same vertex
  // layout) and no clipped items (their vertex counts change with the pose).
  if (drawn_last_frame && instance.last_version == runs.version && !runs.has_clipped) {
    record.flags |= kDrawPreviousVertices;
    record.previous_vertex_delta = static_cast<std::int32_t>(instance.last_base) - static_cast<std::int32_t>(base);
  }
  const std::uint32_t record_index = draws.add_record(record);

  SpriteDraw draw{runs, pose, append_palette(pose), base};
  const Vec3 origin = model.transform_point({0, 0, 0});
  const ColorF tint = options.tint;
  DrawItem pending{};
  bool has_pending = false;
  std::uint32_t position = 0;  // draw position of the next drawn item: its depth
  for (const CachedItem& item : runs.items) {
    if (item.set == VK_NULL_HANDLE) continue;  // a page without a descriptor set: not drawn
    const auto s = static_cast<std::size_t>(item.slot);
    const skel::ColorF& slot_color = pose.color[s];
    const skel::ColorF& att_color = item.color;
    const std::uint32_t light = pack_rgba8(slot_color.r * att_color.r * tint.r, slot_color.g * att_color.g * tint.g,
                                           slot_color.b * att_color.b * tint.b, slot_color.a * att_color.a * tint.a);
    const std::uint32_t dark = data.slots.has_dark[s] ? pack_rgba8(pose.dark[s].r, pose.dark[s].g, pose.dark[s].b, 1) : 0u;
    const float z = static_cast<float>(position++) * options.slot_depth_offset;
    const auto index_start = static_cast<std::uint32_t>(indices_.size());
    if (!item.clipped)
      queue_skinned(draw, item, light, dark, z);
    else
      queue_clipped(draw, item, light, dark, z, limits);
    const auto index_count = static_cast<std::uint32_t>(indices_.size()) - index_start;
    if (index_count == 0) continue;
    // Consecutive items of one page and blend mode: one draw over their contiguous indices.
    if (has_pending && pending.material == item.set && pending.key.blend == item.blend) {
      pending.index_count += index_count;
      continue;
    }
    if (has_pending) draws.add_item(pending);
    pending = {};
    pending.key = {AlphaMode::Blend, item.blend, entry.variant == 1, false};
    pending.record = record_index;
    pending.material = item.set;
    pending.vertices = targets_.vertex_buffer;
    pending.vertex_offset = 0;
    pending.indices = VK_NULL_HANDLE;  // end_frame points sprite items at its copy of indices()
    pending.index_offset = VkDeviceSize{index_start} * sizeof(std::uint32_t);
    pending.index_count = index_count;
    pending.base_vertex = 0;  // the indices are absolute
    pending.sort_point = origin;
    pending.casts_shadow = options.casts_shadows;
    pending.in_depth_passes = true;
    pending.sprite = true;
    has_pending = true;
  }
  if (has_pending) draws.add_item(pending);

  instance.last_frame = frame_;
  instance.last_base = base;
  instance.last_version = runs.version;
  instance.last_model = model;
  gpu_vertex_count_ += runs.gpu_vertices;
  ++stats.sprites_drawn;
  stats.gpu_vertices += runs.gpu_vertices;
  stats.cpu_vertices += cpu_count;
  return {};
}

// GPU-skinned: a slot record (z in pad0), the deform floats, jobs of ≤ 64 vertices, and the item's
// triangles rebased onto its vertices in the frame's vertex buffer.
void SpriteFrame::queue_skinned(SpriteDraw& draw, const CachedItem& item, std::uint32_t light, std::uint32_t dark, float z) {
  const SkeletonGpuData& entry = *draw.runs.data;
  const skel::SkeletonData& data = *entry.data;
  const skel::SkeletonPose& pose = draw.pose;
  const auto s = static_cast<std::size_t>(item.slot);
  const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(item.attachment)];
  const skel::Region* region = region_for(data, pose, s, att);
  const auto slot_index = static_cast<std::uint32_t>(slot_records_.size());
  slot_records_.push_back({region->u0, region->v0, region->u1 - region->u0, region->v1 - region->v0, light, dark,
                           std::bit_cast<std::uint32_t>(z), 0});
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
  const std::uint32_t first = draw.base + item.local_vertex;
  const std::uint32_t job_count = (att.vertex_count + kSkinChunk - 1) / kSkinChunk;
  SkinJob* job = jobs_.append(job_count);
  for (std::uint32_t start = 0; start < att.vertex_count; start += kSkinChunk, ++job) {
    *job = {draw.palette_offset, entry.range.vertex_base + att.vertex_start + start, std::min(kSkinChunk, att.vertex_count - start),
            first + start, slot_index, deform_base, influence_first, has_deform};
  }
  const std::uint16_t* local = entry.indices.data() + item.index_start;
  std::uint32_t* out = indices_.append(item.index_count);
  for (std::uint32_t i = 0; i < item.index_count; ++i) out[i] = first + local[i];
}

// Clipped slots: the instance's CPU clipping output (updated by queue), in draw order between the
// skinned items, after every skinned vertex of the frame's vertex buffer.
void SpriteFrame::queue_clipped(SpriteDraw& draw, const CachedItem& item, std::uint32_t light, std::uint32_t dark, float z,
                                const ForwardOptions& limits) {
  const skel::CpuVertices& cpu = *draw.runs.cpu;
  const SkeletonGpuData& entry = *draw.runs.data;
  const auto drawn = cpu.drawn();
  std::size_t& cursor = draw.clipped_cursor;
  cursor = next_clipped(drawn, cursor, item.slot);
  if (cursor == drawn.size()) return;
  const skel::DrawnAttachment& d = drawn[cursor++];
  const skel::AttachmentRecord& att = entry.data->attachments[static_cast<std::size_t>(item.attachment)];
  const std::uint32_t normal = encode_octahedral({0, 0, 1});
  const std::uint32_t tangent = clipped_tangent(entry, draw.pose, att.vertex_start);
  const auto cpu_first = static_cast<std::uint32_t>(cpu_vertices_.size());
  MeshVertex* out = cpu_vertices_.append(d.vertex_count);
  for (std::uint32_t i = 0; i < d.vertex_count; ++i) {
    const skel::CpuVertex& v = cpu.vertices()[d.vertex_start + i];
    out[i] = {v.x, v.y, z, v.u, v.v, normal, tangent, light, dark, 0};
  }
  // CPU indices are absolute into the instance's CPU vertices; the frame's CPU vertices follow the
  // skinned ones in the vertex buffer.
  const std::uint32_t rebase = limits.max_gpu_vertices + cpu_first - d.vertex_start;
  const std::uint32_t* local = cpu.indices().data() + d.index_start;
  std::uint32_t* indices = indices_.append(d.index_count);
  for (std::uint32_t i = 0; i < d.index_count; ++i) indices[i] = local[i] + rebase;
}

}  // namespace mf::render::detail
