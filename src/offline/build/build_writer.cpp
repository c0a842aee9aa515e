#include "mf/offline/build/build_writer.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

#include "mf/core/byte_writer.hpp"
#include "mf/core/file_io.hpp"
#include "mf/skel/build_file.hpp"

// The field order here is the reader's (src/skel/build_file.cpp) and docs/format-build.md's. The
// records below are plain structs: when one grows a field its size changes and these asserts stop the
// build until the field is written, read, documented and kBuildVersion is bumped.

namespace mf::offline {
namespace {

static_assert(sizeof(skel::AttachmentRecord) == 80, "AttachmentRecord changed: serialise the new field");
static_assert(sizeof(skel::Influence) == 16, "Influence changed: serialise the new field");
static_assert(sizeof(skel::VertexInfluences) == 8, "VertexInfluences changed: serialise the new field");
static_assert(sizeof(skel::Region) == 28, "Region changed: serialise the new field");
static_assert(sizeof(skel::SkinEntry) == 12, "SkinEntry changed: serialise the new field");
static_assert(sizeof(skel::UpdateStep) == 8, "UpdateStep changed: serialise the new field");
static_assert(sizeof(skel::Timeline) == 24, "Timeline changed: serialise the new field");
static_assert(sizeof(skel::DeformKey) == 12, "DeformKey changed: serialise the new field");
static_assert(sizeof(skel::EventKey) == 28, "EventKey changed: serialise the new field");
static_assert(sizeof(Bounds) == 16, "Bounds changed: serialise the new field");

void write_color(ByteWriter& w, Rgba8 c) {
  w.u8(c.r);
  w.u8(c.g);
  w.u8(c.b);
  w.u8(c.a);
}

void write_indices(ByteWriter& w, const std::vector<std::int32_t>& v) {
  w.count(v.size());
  for (std::int32_t i : v) w.i32(i);
}

void write_step(ByteWriter& w, skel::UpdateStep s) {
  w.enumeration(s.kind);
  w.i32(s.index);
}

void write_skeleton_section(ByteWriter& w, const skel::SkeletonData& d) {
  w.str(d.name);

  const skel::BoneTable& b = d.bones;
  w.count(b.size());
  for (const std::string& n : b.names) w.str(n);
  for (std::int32_t p : b.parent) w.i32(p);
  for (const auto* column : {&b.x, &b.y, &b.rotation, &b.scale_x, &b.scale_y, &b.shear_x, &b.shear_y, &b.length})
    for (float v : *column) w.f32(v);
  for (skel::Inherit v : b.inherit) w.enumeration(v);
  for (std::uint8_t v : b.skin_required) w.flag(v != 0);

  const skel::SlotTable& s = d.slots;
  w.count(s.size());
  for (const std::string& n : s.names) w.str(n);
  for (std::int32_t v : s.bone) w.i32(v);
  for (std::int32_t v : s.setup_attachment) w.i32(v);
  for (Rgba8 c : s.color) write_color(w, c);
  for (Rgba8 c : s.dark) write_color(w, c);
  for (std::uint8_t v : s.has_dark) w.flag(v != 0);
  for (skel::BlendMode v : s.blend) w.enumeration(v);

  w.count(d.attachment_names.names.size());
  for (const std::string& n : d.attachment_names.names) w.str(n);

  w.count(d.attachments.size());
  for (const skel::AttachmentRecord& a : d.attachments) {
    w.enumeration(a.kind);
    w.i32(a.name);
    w.i32(a.slot);
    write_color(w, a.color);
    w.u32(a.vertex_start);
    w.u32(a.vertex_count);
    w.u32(a.influence_count);
    w.u32(a.index_start);
    w.u32(a.index_count);
    w.u32(a.region_start);
    w.u32(a.region_count);
    w.i32(a.sequence_setup);
    w.i32(a.deform_source);
    w.i32(a.end_slot);
    w.f32(a.x);
    w.f32(a.y);
    w.f32(a.rotation);
    w.flag(a.closed);
    w.flag(a.constant_speed);
    w.u32(a.lengths_start);
    w.u32(a.lengths_count);
  }
  w.count(d.influences.size());
  for (const skel::Influence& in : d.influences) {
    w.i32(in.bone);
    w.f32(in.weight);
    w.f32(in.x);
    w.f32(in.y);
  }
  w.count(d.vertices.size());
  for (const skel::VertexInfluences& v : d.vertices) {
    w.u32(v.first);
    w.u32(v.count);
  }
  w.count(d.uvs.size());
  for (float v : d.uvs) w.f32(v);
  w.count(d.indices.size());
  for (std::uint16_t v : d.indices) w.u16(v);
  w.count(d.regions.size());
  for (const skel::Region& g : d.regions) {
    w.i32(g.page);
    for (float v : {g.u0, g.v0, g.u1, g.v1, g.width, g.height}) w.f32(v);
  }
  w.enumeration(d.filter);
  w.flag(d.mipmaps);
  w.count(d.path_lengths.size());
  for (float v : d.path_lengths) w.f32(v);

  w.count(d.skins.size());
  for (const skel::SkinData& skin : d.skins) {
    w.str(skin.name);
    w.count(skin.entries.size());
    for (const skel::SkinEntry& e : skin.entries) {
      w.i32(e.slot);
      w.i32(e.name);
      w.i32(e.attachment);
    }
    write_indices(w, skin.bones);
    write_indices(w, skin.constraints);
  }
  w.count(d.events.size());
  for (const skel::EventData& e : d.events) {
    w.str(e.name);
    w.i32(e.int_value);
    w.f32(e.float_value);
    w.str(e.string_value);
    w.str(e.audio);
    w.f32(e.volume);
    w.f32(e.balance);
  }
  w.count(d.ik.size());
  for (const skel::IkData& c : d.ik) {
    w.str(c.name);
    write_indices(w, c.bones);
    w.i32(c.target);
    w.f32(c.mix);
    w.f32(c.softness);
    w.i8(c.bend);
    w.flag(c.compress);
    w.flag(c.stretch);
    w.flag(c.uniform);
    w.flag(c.skin_required);
  }
  w.count(d.transform.size());
  for (const skel::TransformData& c : d.transform) {
    w.str(c.name);
    write_indices(w, c.bones);
    w.i32(c.target);
    for (float v : {c.mix_rotate, c.mix_x, c.mix_y, c.mix_scale_x, c.mix_scale_y, c.mix_shear_y, c.offset_rotation, c.offset_x,
                    c.offset_y, c.offset_scale_x, c.offset_scale_y, c.offset_shear_y})
      w.f32(v);
    w.flag(c.local);
    w.flag(c.relative);
    w.flag(c.skin_required);
  }
  w.count(d.path.size());
  for (const skel::PathData& c : d.path) {
    w.str(c.name);
    write_indices(w, c.bones);
    w.i32(c.target_slot);
    w.enumeration(c.position_mode);
    w.enumeration(c.spacing_mode);
    w.enumeration(c.rotate_mode);
    for (float v : {c.offset_rotation, c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y}) w.f32(v);
    w.flag(c.skin_required);
  }
  w.count(d.physics.size());
  for (const skel::PhysicsData& c : d.physics) {
    w.str(c.name);
    w.i32(c.bone);
    for (float v : {c.x, c.y, c.rotate, c.scale_x, c.shear_x, c.limit, c.step, c.inertia, c.strength, c.damping, c.mass_inverse,
                    c.wind, c.gravity, c.mix})
      w.f32(v);
    w.flag(c.skin_required);
  }
  w.count(d.update_order.size());
  for (skel::UpdateStep step : d.update_order) write_step(w, step);
  w.count(d.constraint_steps.size());
  for (skel::UpdateStep step : d.constraint_steps) write_step(w, step);
  w.count(d.slot_deform_floats.size());
  for (std::uint32_t v : d.slot_deform_floats) w.u32(v);
}

void write_pages(ByteWriter& w, const std::vector<skel::Page>& pages) {
  w.count(pages.size());
  for (const skel::Page& p : pages) {
    w.str(p.name);
    w.i32(p.width);
    w.i32(p.height);
    w.enumeration(p.encoding);
    w.u64(p.bytes.size());
    w.bytes(std::string_view(reinterpret_cast<const char*>(p.bytes.data()), p.bytes.size()));
  }
}

// The header: magic, version, section count, file size; then one table entry per section.
std::string assemble(const std::vector<std::pair<std::uint32_t, std::string>>& sections) {
  constexpr std::size_t kHeaderBytes = 24, kEntryBytes = 24;
  std::uint64_t offset = kHeaderBytes + kEntryBytes * sections.size();
  std::uint64_t total = offset;
  for (const auto& s : sections) total += s.second.size();
  ByteWriter w;
  w.bytes(std::string_view(skel::kBuildMagic, sizeof skel::kBuildMagic));
  w.u32(skel::kBuildVersion);
  w.count(sections.size());
  w.u64(total);
  for (const auto& [tag, bytes] : sections) {
    w.u32(tag);
    w.u32(0);  // flags
    w.u64(offset);
    w.u64(bytes.size());
    offset += bytes.size();
  }
  for (const auto& s : sections) w.bytes(s.second);
  return w.take();
}

}  // namespace

std::string encode_clip(const skel::ClipData& c) {
  ByteWriter w;
  w.str(c.name);
  w.f32(c.length);
  w.enumeration(c.loop);
  w.count(c.timelines.size());
  for (const skel::Timeline& t : c.timelines) {
    w.enumeration(t.kind);
    w.u8(t.components);
    w.u8(t.curved);
    w.u8(t.channels);
    w.i32(t.target);
    w.u32(t.key_start);
    w.u32(t.key_count);
    w.u32(t.value_start);
    w.u32(t.curve_start);
  }
  w.count(c.times.size());
  for (float v : c.times) w.f32(v);
  w.count(c.values.size());
  for (float v : c.values) w.f32(v);
  w.count(c.curves.size());
  for (std::uint32_t v : c.curves) w.u32(v);
  w.count(c.beziers.size());
  for (const anim::BezierSamples& b : c.beziers) {
    for (float v : b.x) w.f32(v);
    for (float v : b.y) w.f32(v);
  }
  w.count(c.deform_keys.size());
  for (const skel::DeformKey& k : c.deform_keys) {
    w.u32(k.offset);
    w.u32(k.count);
    w.u32(k.value_start);
  }
  w.count(c.draw_orders.size());
  for (std::int32_t v : c.draw_orders) w.i32(v);
  w.count(c.events.size());
  for (const skel::EventKey& e : c.events) {
    w.f32(e.time);
    w.i32(e.event);
    w.i32(e.int_value);
    w.f32(e.float_value);
    w.i32(e.string_value);
    w.f32(e.volume);
    w.f32(e.balance);
  }
  w.count(c.strings.size());
  for (const std::string& s : c.strings) w.str(s);
  for (float v : {c.bounds.min_x, c.bounds.min_y, c.bounds.max_x, c.bounds.max_y}) w.f32(v);
  return w.take();
}

Expected<std::string> encode_build(const skel::SkeletonData& data, const std::string& file, BuildClips clips) {
  if (Status valid = skel::validate_skeleton_data(data, file); !valid) return Unexpected{valid.error()};

  ByteWriter clip_section;
  clip_section.count(data.clips.size());
  for (std::size_t i = 0; i < data.clips.size(); ++i) {
    const skel::SkeletonData::ClipEntry& entry = data.clips[i];
    std::string blob;
    float length = entry.length;
    if (clips == BuildClips::All) {
      // A clip the data has not loaded yet is loaded through its loader for this call only: the data
      // stays as it is.
      std::shared_ptr<const skel::ClipData> clip = entry.data;
      if (!clip) {
        if (!data.loader)
          return Unexpected{Error{data.name, {}, {}, "clip \"" + entry.name + "\" is not loaded and the data has no loader"}};
        Expected<std::shared_ptr<skel::ClipData>> loaded = data.loader(data, static_cast<int>(i));
        if (!loaded) return Unexpected{loaded.error()};
        clip = std::move(loaded).value();
        length = clip->length;  // as load_clip would record it
      }
      if (Status valid = skel::validate_clip_data(*clip, data, file); !valid) return Unexpected{valid.error()};
      blob = encode_clip(*clip);
    }
    clip_section.str(entry.name);
    clip_section.f32(length);
    clip_section.u64(blob.size());
    clip_section.bytes(blob);
  }

  ByteWriter skeleton, pages;
  write_skeleton_section(skeleton, data);
  write_pages(pages, data.pages);
  write_pages(pages, data.normal_pages);
  return assemble({{skel::kSkeletonSection, skeleton.take()},
                   {skel::kPagesSection, pages.take()},
                   {skel::kClipsSection, clip_section.take()}});
}

Status write_build_file(const skel::SkeletonData& data, const std::string& path, const std::string& source_file) {
  Expected<std::string> bytes = encode_build(data, source_file, BuildClips::All);
  if (!bytes) return Unexpected{bytes.error()};
  return write_file_atomic(path, *bytes);
}

}  // namespace mf::offline
