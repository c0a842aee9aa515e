#pragma once
// Hand-built attachments and skins for runtime tests (regions, meshes, clipping polygons), on top of
// test_rig.hpp's bones and slots.

#include <algorithm>
#include <string>
#include <vector>

#include "mf/skel/skeleton_data.hpp"
#include "test_rig.hpp"

namespace mf::skel::test {

// Adds an atlas page with one region covering [u0, u1] × [v0, v1]; returns the region index.
inline std::uint32_t add_region_frame(SkeletonData& d, float u0, float v0, float u1, float v1, int page = -1) {
  if (page < 0) {
    d.pages.push_back({"page" + std::to_string(d.pages.size()), 64, 64});
    page = static_cast<int>(d.pages.size() - 1);
  }
  d.regions.push_back({page, u0, v0, u1, v1, 64, 64});
  return static_cast<std::uint32_t>(d.regions.size() - 1);
}

// One vertex: its influences (bone, weight, x, y).
using TestVertex = std::vector<Influence>;

// Appends an attachment with the given geometry. `uv` has 2 floats per vertex, `triangles` 3 local
// indices per triangle. Returns the attachment index.
inline std::int32_t add_geometry(SkeletonData& d, AttachmentKind kind, int slot, const std::string& name,
                                 const std::vector<TestVertex>& vertices, const std::vector<float>& uv,
                                 const std::vector<std::uint16_t>& triangles) {
  AttachmentRecord a;
  a.kind = kind;
  a.name = intern(d, name);
  a.slot = slot;
  a.vertex_start = static_cast<std::uint32_t>(d.vertices.size());
  a.vertex_count = static_cast<std::uint32_t>(vertices.size());
  for (const TestVertex& v : vertices) {
    d.vertices.push_back({static_cast<std::uint32_t>(d.influences.size()), static_cast<std::uint32_t>(v.size())});
    d.influences.insert(d.influences.end(), v.begin(), v.end());
    a.influence_count += static_cast<std::uint32_t>(v.size());
  }
  d.uvs.insert(d.uvs.end(), uv.begin(), uv.end());
  d.uvs.resize(2 * d.vertices.size(), 0.0f);
  a.index_start = static_cast<std::uint32_t>(d.indices.size());
  a.index_count = static_cast<std::uint32_t>(triangles.size());
  d.indices.insert(d.indices.end(), triangles.begin(), triangles.end());
  const auto index = static_cast<std::int32_t>(d.attachments.size());
  a.deform_source = index;
  d.attachments.push_back(a);
  // The pose keeps one deform range per slot, sized for its largest deformable attachment.
  auto& floats = d.slot_deform_floats[static_cast<std::size_t>(slot)];
  floats = std::max(floats, 2 * a.influence_count);
  return index;
}

// A region: corners (top-left, top-right, bottom-right, bottom-left) in `bone`'s space, showing
// `region` (a frame from add_region_frame), or `frames` consecutive regions for a sequence.
inline std::int32_t add_region(SkeletonData& d, int slot, const std::string& name, int bone,
                               const std::vector<float>& corners, std::uint32_t region, std::uint32_t frames = 1) {
  std::vector<TestVertex> v;
  for (int i = 0; i < 4; ++i) v.push_back({{bone, 1.0f, corners[2 * i], corners[2 * i + 1]}});
  const std::int32_t a = add_geometry(d, AttachmentKind::Region, slot, name, v, {0, 0, 1, 0, 1, 1, 0, 1}, {0, 1, 2, 2, 3, 0});
  d.attachments[static_cast<std::size_t>(a)].region_start = region;
  d.attachments[static_cast<std::size_t>(a)].region_count = frames;
  return a;
}

// An axis-aligned w × h region centred on (cx, cy) in `bone`'s space, on its own page.
inline std::int32_t add_box_region(SkeletonData& d, int slot, const std::string& name, int bone, float cx, float cy,
                                   float w, float h, int page = -1) {
  const std::uint32_t region = add_region_frame(d, 0, 0, 1, 1, page);
  const float l = cx - w / 2, r = cx + w / 2, t = cy - h / 2, b = cy + h / 2;
  return add_region(d, slot, name, bone, {l, t, r, t, r, b, l, b}, region);
}

// A clipping polygon (x, y pairs in `bone`'s space) clipping up to `end_slot` (−1: to the end).
inline std::int32_t add_clipping(SkeletonData& d, int slot, const std::string& name, int bone,
                                 const std::vector<float>& polygon, int end_slot = -1) {
  std::vector<TestVertex> v;
  for (std::size_t i = 0; i + 1 < polygon.size(); i += 2) v.push_back({{bone, 1.0f, polygon[i], polygon[i + 1]}});
  const std::int32_t a = add_geometry(d, AttachmentKind::Clipping, slot, name, v, {}, {});
  d.attachments[static_cast<std::size_t>(a)].end_slot = end_slot;
  return a;
}

// Adds a skin listing the given attachments under their own slot and name; returns its index.
inline int add_skin(SkeletonData& d, const std::string& name, const std::vector<std::int32_t>& attachments,
                    std::vector<std::int32_t> bones = {}, std::vector<std::int32_t> constraints = {}) {
  SkinData skin;
  skin.name = name;
  for (std::int32_t a : attachments) {
    const AttachmentRecord& r = d.attachments[static_cast<std::size_t>(a)];
    skin.entries.push_back({r.slot, r.name, a});
  }
  std::sort(skin.entries.begin(), skin.entries.end(),
            [](const SkinEntry& x, const SkinEntry& y) { return x.slot < y.slot || (x.slot == y.slot && x.name < y.name); });
  skin.bones = std::move(bones);
  skin.constraints = std::move(constraints);
  d.skins.push_back(std::move(skin));
  return static_cast<int>(d.skins.size() - 1);
}

// Makes `name` the slot's setup attachment.
inline void set_setup_attachment(SkeletonData& d, int slot, const std::string& name) {
  d.slots.setup_attachment[static_cast<std::size_t>(slot)] = intern(d, name);
}

}  // namespace mf::skel::test
