#include "mf/skel/cpu_vertices.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>

#include "slot_attachments.hpp"
#include "vertex_kernel.hpp"
#include "world_vertices.hpp"

namespace mf::skel {
namespace {

// The vertex loop writes positions into CpuVertex records as floats with this stride.
static_assert(sizeof(CpuVertex) == 12 * sizeof(float) && offsetof(CpuVertex, x) == 0 && offsetof(CpuVertex, y) == 4);
constexpr std::size_t kFloatsPerVertex = sizeof(CpuVertex) / sizeof(float);

using detail::draws;

// The largest clip polygon of the data, 0 without clipping attachments.
std::size_t max_clip_vertices(const SkeletonData& data) {
  std::size_t most = 0;
  for (const AttachmentRecord& a : data.attachments)
    if (a.kind == AttachmentKind::Clipping) most = std::max<std::size_t>(most, a.vertex_count);
  return most;
}

Bounds empty_bounds() {
  constexpr float inf = std::numeric_limits<float>::infinity();
  return {inf, inf, -inf, -inf};
}

// The atlas region an attachment shows on a slot: the slot's sequence frame, else the setup frame.
const Region* region_for(const SkeletonData& data, const SkeletonPose& pose, std::size_t slot, const AttachmentRecord& att) {
  if (att.region_count == 0) return nullptr;
  std::int32_t frame = att.sequence_setup;
  if (att.region_count > 1 && pose.sequence_index[slot] >= 0) frame = pose.sequence_index[slot];
  frame = std::clamp<std::int32_t>(frame, 0, static_cast<std::int32_t>(att.region_count) - 1);
  return &data.regions[att.region_start + static_cast<std::uint32_t>(frame)];
}

}  // namespace

CpuVertices::CpuVertices(const SkeletonData& data, std::size_t max_clipped_vertices)
    : data_(&data), clipper_(std::max<std::size_t>(3, max_clip_vertices(data))) {
  const std::size_t slots = data.slots.size();
  // Per slot, the largest region or mesh it can show: its own attachments and any a skin maps to it.
  std::vector<std::size_t> slot_vertices(slots, 0), slot_indices(slots, 0);
  std::size_t largest = 0;
  detail::for_each_slot_attachment(data, [&](std::size_t s, const AttachmentRecord& a) {
    if (!draws(a.kind)) return;
    slot_vertices[s] = std::max<std::size_t>(slot_vertices[s], a.vertex_count);
    slot_indices[s] = std::max<std::size_t>(slot_indices[s], a.index_count);
    largest = std::max<std::size_t>(largest, a.vertex_count);
  });

  std::size_t vertex_room = 0, index_room = 0;
  for (std::size_t s = 0; s < slots; ++s) {
    vertex_room += slot_vertices[s];
    index_room += slot_indices[s];
  }
  const std::size_t clip_vertices = max_clip_vertices(data);
  if (clip_vertices >= 3) {
    const std::size_t per_triangle = 6 * (clip_vertices - 2);
    clipped_vertex_room_ = std::min(index_room / 3 * per_triangle, max_clipped_vertices);
    clipped_index_room_ = 3 * clipped_vertex_room_;
    vertex_room += clipped_vertex_room_;
    index_room += clipped_index_room_;
  }
  vertices_.resize(vertex_room);
  indices_.resize(index_room);
  runs_.resize(slots);
  drawn_.resize(slots);
  written_.resize(slots);
  bones_.resize(detail::kPackedBoneFloats * data.bones.size());
  rigid_bones_ = detail::rigid_bones(data);
  scratch_.resize(4 * largest);
  clip_polygon_.resize(2 * clip_vertices);
  bounds_ = empty_bounds();
}

Bounds CpuVertices::bounds() const {
  if (!bounds_current_) {
    Bounds b = empty_bounds();
    for (std::size_t i = 0; i < vertex_count_; ++i) {
      b.min_x = std::min(b.min_x, vertices_[i].x);
      b.min_y = std::min(b.min_y, vertices_[i].y);
      b.max_x = std::max(b.max_x, vertices_[i].x);
      b.max_y = std::max(b.max_y, vertices_[i].y);
    }
    bounds_ = b;
    bounds_current_ = true;
  }
  return bounds_;
}

void CpuVertices::update(const SkeletonPose& pose) {
  const SkeletonData& data = *data_;
  vertex_count_ = index_count_ = run_count_ = drawn_count_ = 0;
  dropped_triangles_ = 0;
  clipped_vertices_ = clipped_indices_ = 0;
  bounds_current_ = false;  // bounds() computes them from the vertices when asked

  // The vertex loop reads a bone's transform floats together: pack them once per update.
  detail::pack_bones(pose, bones_.data());

  const std::size_t slot_count = data.slots.size();
  bool clipping = false;
  std::int32_t clip_end = -1;
  for (std::size_t position = 0; position < pose.draw_order.size(); ++position) {
    const std::size_t slot = pose.draw_order[position];
    if (slot >= slot_count) continue;
    const auto bone = static_cast<std::size_t>(data.slots.bone[slot]);
    const std::int32_t index = pose.attachment[slot];
    if (pose.active[bone] && index >= 0 && static_cast<std::size_t>(index) < data.attachments.size()) {
      const AttachmentRecord& att = data.attachments[static_cast<std::size_t>(index)];
      if (att.kind == AttachmentKind::Clipping) {
        if (!clipping) {
          clipping = true;
          clip_end = att.end_slot;
          const std::size_t floats = 2 * static_cast<std::size_t>(att.vertex_count);
          compute_world_vertices(pose, static_cast<std::int32_t>(slot), index, clip_polygon_);
          clip_valid_ = clipper_.set_polygon(std::span<const float>(clip_polygon_.data(), floats));
        }
      } else if (draws(att.kind)) {
        draw(pose, static_cast<std::int32_t>(slot), index, static_cast<std::int32_t>(position), clipping);
      }
    }
    if (clipping && static_cast<std::int32_t>(slot) == clip_end) clipping = false;
  }

  written_count_ = drawn_count_;

  if (vertex_count_ == 0) {
    Bounds b = empty_bounds();
    for (std::size_t i = 0; i < pose.active.size(); ++i) {
      if (!pose.active[i]) continue;
      b.min_x = std::min(b.min_x, pose.world_x[i]);
      b.min_y = std::min(b.min_y, pose.world_y[i]);
      b.max_x = std::max(b.max_x, pose.world_x[i]);
      b.max_y = std::max(b.max_y, pose.world_y[i]);
    }
    bounds_ = b;
    bounds_current_ = true;
  }
}

void CpuVertices::add_triangles(const DrawRun& key, std::uint32_t index_start, std::uint32_t index_count,
                                std::int32_t position) {
  if (index_count == 0) return;
  if (run_count_ > 0) {
    DrawRun& last = runs_[run_count_ - 1];
    if (last.page == key.page && last.blend == key.blend && last.clipped == key.clipped &&
        last.index_start + last.index_count == index_start) {
      last.index_count += index_count;
      return;
    }
  }
  if (run_count_ == runs_.size()) {  // only a draw order listing a slot twice gets here
    dropped_triangles_ += index_count / 3;
    index_count_ -= index_count;
    return;
  }
  runs_[run_count_++] = {key.page, key.blend, key.clipped, index_start, index_count, position};
}

void CpuVertices::draw(const SkeletonPose& pose, std::int32_t slot, std::int32_t attachment, std::int32_t position,
                       bool clipped) {
  const SkeletonData& data = *data_;
  const auto s = static_cast<std::size_t>(slot);
  const AttachmentRecord& att = data.attachments[static_cast<std::size_t>(attachment)];
  const Region* region = region_for(data, pose, s, att);
  const float u0 = region ? region->u0 : 0, v0 = region ? region->v0 : 0;
  const float du = region ? region->u1 - region->u0 : 1, dv = region ? region->v1 - region->v0 : 1;
  const ColorF& slot_color = pose.color[s];
  const ColorF att_color = to_color_f(att.color);
  const ColorF light{slot_color.r * att_color.r, slot_color.g * att_color.g, slot_color.b * att_color.b,
                     slot_color.a * att_color.a};
  const ColorF dark = data.slots.has_dark[s] ? ColorF{pose.dark[s].r, pose.dark[s].g, pose.dark[s].b, 1}
                                             : ColorF{0, 0, 0, 0};
  const DrawRun key{region ? region->page : -1, data.slots.blend[s], clipped, 0, 0, position};
  const float* uvs = data.uvs.data() + 2 * static_cast<std::size_t>(att.vertex_start);
  const std::uint16_t* tris = data.indices.data() + att.index_start;
  const std::uint32_t triangles = att.index_count / 3;

  DrawnAttachment record{slot, attachment, clipped, static_cast<std::uint32_t>(vertex_count_), 0,
                         static_cast<std::uint32_t>(index_count_), 0};
  Written* written = drawn_count_ < written_.size() ? &written_[drawn_count_] : nullptr;
  const Written now{attachment, region, light, dark, static_cast<std::uint32_t>(vertex_count_),
                    static_cast<std::uint32_t>(index_count_)};
  const bool reuse = written && drawn_count_ < written_count_ && *written == now;
  if (written) *written = Written{};  // until this draw is known to be complete and unclipped
  if (!clipped) {
    if (vertex_count_ + att.vertex_count > vertices_.size() || index_count_ + 3 * triangles > indices_.size()) {
      dropped_triangles_ += triangles;
    } else {
      const auto base = static_cast<std::uint32_t>(vertex_count_);
      CpuVertex* out = vertices_.data() + vertex_count_;
      detail::write_world_vertices(pose, slot, att, rigid_bones_[static_cast<std::size_t>(attachment)], bones_.data(),
                                   &out->x, kFloatsPerVertex);
      if (!reuse) {
        for (std::uint32_t i = 0; i < att.vertex_count; ++i) {
          out[i].u = u0 + uvs[2 * i] * du;
          out[i].v = v0 + uvs[2 * i + 1] * dv;
          out[i].light = light;
          out[i].dark = dark;
        }
      }
      vertex_count_ += att.vertex_count;
      // Every index is one of the attachment's vertices: the builder and the build loader check it.
      const auto index_start = static_cast<std::uint32_t>(index_count_);
      const std::uint32_t count = 3 * triangles;
      if (!reuse) {
        std::uint32_t* dst = indices_.data() + index_count_;
        for (std::uint32_t k = 0; k < count; ++k) dst[k] = base + tris[k];
      }
      index_count_ += count;
      add_triangles(key, index_start, count, position);
      if (written) *written = now;
    }
  } else if (clip_valid_) {
    // World positions and page UVs first, then every triangle against every convex piece; each output
    // polygon is fanned from its first vertex.
    float* world = scratch_.data();
    detail::for_each_world_vertex(pose, slot, att, [&](std::uint32_t i, float x, float y) {
      world[4 * i] = x;
      world[4 * i + 1] = y;
      world[4 * i + 2] = u0 + uvs[2 * i] * du;
      world[4 * i + 3] = v0 + uvs[2 * i + 1] * dv;
    });
    const auto index_start = static_cast<std::uint32_t>(index_count_);
    for (std::uint32_t t = 0; t < triangles; ++t) {
      const std::uint16_t i0 = tris[3 * t], i1 = tris[3 * t + 1], i2 = tris[3 * t + 2];
      if (i0 >= att.vertex_count || i1 >= att.vertex_count || i2 >= att.vertex_count) continue;
      const float* a = world + 4 * i0;
      const float* b = world + 4 * i1;
      const float* c = world + 4 * i2;
      for (std::size_t p = 0; p < clipper_.piece_count(); ++p) {
        const std::span<const ClippedVertex> poly = clipper_.clip_triangle(p, a, b, c);
        if (poly.empty()) continue;
        const std::size_t n = poly.size();
        // Clipped output has its own share of the buffers, so it never crowds out unclipped slots.
        if (clipped_vertices_ + n > clipped_vertex_room_ || clipped_indices_ + 3 * (n - 2) > clipped_index_room_ ||
            vertex_count_ + n > vertices_.size() || index_count_ + 3 * (n - 2) > indices_.size()) {
          dropped_triangles_ += 1;
          continue;
        }
        clipped_vertices_ += n;
        clipped_indices_ += 3 * (n - 2);
        const auto base = static_cast<std::uint32_t>(vertex_count_);
        for (const ClippedVertex& v : poly) {
          const float u = v.wa * a[2] + v.wb * b[2] + v.wc * c[2];
          const float w = v.wa * a[3] + v.wb * b[3] + v.wc * c[3];
          vertices_[vertex_count_++] = {v.x, v.y, u, w, light, dark};
        }
        for (std::uint32_t k = 1; k + 1 < n; ++k) {
          indices_[index_count_++] = base;
          indices_[index_count_++] = base + k;
          indices_[index_count_++] = base + k + 1;
        }
      }
    }
    add_triangles(key, index_start, static_cast<std::uint32_t>(index_count_) - index_start, position);
  }
  record.vertex_count = static_cast<std::uint32_t>(vertex_count_) - record.vertex_start;
  record.index_count = static_cast<std::uint32_t>(index_count_) - record.index_start;
  if (drawn_count_ < drawn_.size()) drawn_[drawn_count_++] = record;
}

std::uint32_t world_vertex_count(const AttachmentRecord& attachment) {
  return attachment.kind == AttachmentKind::Point ? 1 : attachment.vertex_count;
}

void compute_world_vertices(const SkeletonPose& pose, std::int32_t slot, std::int32_t attachment, std::span<float> out) {
  const SkeletonData& data = pose.data();
  if (slot < 0 || static_cast<std::size_t>(slot) >= data.slots.size() || attachment < 0 ||
      static_cast<std::size_t>(attachment) >= data.attachments.size())
    return;
  const AttachmentRecord& att = data.attachments[static_cast<std::size_t>(attachment)];
  if (att.kind == AttachmentKind::Point) {
    if (out.size() < 2) return;
    const auto bone = static_cast<std::size_t>(data.slots.bone[static_cast<std::size_t>(slot)]);
    out[0] = pose.a[bone] * att.x + pose.b[bone] * att.y + pose.world_x[bone];
    out[1] = pose.c[bone] * att.x + pose.d[bone] * att.y + pose.world_y[bone];
    return;
  }
  const std::size_t room = out.size() / 2;
  detail::for_each_world_vertex(pose, slot, att, [&](std::uint32_t i, float x, float y) {
    if (i >= room) return;
    out[2 * i] = x;
    out[2 * i + 1] = y;
  });
}

}  // namespace mf::skel
