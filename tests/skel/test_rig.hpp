#pragma once
// Hand-built runtime data for unit tests of the runtime alone (no build step involved).

#include <memory>
#include <string>

#include "mf/skel/skeleton_data.hpp"

namespace mf::skel::test {

// Appends a bone with a setup pose; returns its index.
inline int add_bone(SkeletonData& d, const std::string& name, int parent, float x = 0, float y = 0, float rot = 0,
                    float sx = 1, float sy = 1, float shx = 0, float shy = 0, Inherit inherit = Inherit::Normal) {
  BoneTable& b = d.bones;
  b.names.push_back(name);
  b.parent.push_back(parent);
  b.x.push_back(x);
  b.y.push_back(y);
  b.rotation.push_back(rot);
  b.scale_x.push_back(sx);
  b.scale_y.push_back(sy);
  b.shear_x.push_back(shx);
  b.shear_y.push_back(shy);
  b.length.push_back(0);
  b.inherit.push_back(inherit);
  b.skin_required.push_back(0);
  d.update_order.push_back({UpdateKind::Bone, static_cast<std::int32_t>(b.names.size() - 1)});
  return static_cast<int>(b.names.size() - 1);
}

// Appends a slot; returns its index.
inline int add_slot(SkeletonData& d, const std::string& name, int bone, Rgba8 color = Rgba8::white()) {
  SlotTable& s = d.slots;
  s.names.push_back(name);
  s.bone.push_back(bone);
  s.setup_attachment.push_back(-1);
  s.color.push_back(color);
  s.dark.push_back({0, 0, 0, 0});
  s.has_dark.push_back(0);
  s.blend.push_back(BlendMode::Normal);
  d.slot_deform_floats.push_back(0);
  return static_cast<int>(s.names.size() - 1);
}

inline std::int32_t intern(SkeletonData& d, const std::string& name) {
  const std::int32_t found = d.attachment_names.find(name);
  if (found >= 0) return found;
  d.attachment_names.names.push_back(name);
  return static_cast<std::int32_t>(d.attachment_names.names.size() - 1);
}

// Adds a clip (already loaded) and gives it cursors.
inline int add_clip(SkeletonData& d, std::shared_ptr<ClipData> clip) {
  clip->cursor_base = d.cursor_count;
  d.cursor_count += static_cast<std::uint32_t>(clip->timelines.size());
  clip->keys_each_property_once = keys_each_property_once(*clip, d);  // as SkeletonData::load_clip does
  d.clips.push_back({clip->name, clip->length, clip});
  return static_cast<int>(d.clips.size() - 1);
}

// Appends a curve timeline with linear segments; returns its index.
inline std::size_t add_timeline(ClipData& c, TimelineKind kind, int target, int components,
                                std::initializer_list<float> times, std::initializer_list<float> values,
                                int curved = -1, std::uint8_t channels = 0xff) {
  Timeline t{};
  t.kind = kind;
  t.components = static_cast<std::uint8_t>(components);
  t.curved = static_cast<std::uint8_t>(curved < 0 ? components : curved);
  t.channels = channels;
  t.target = target;
  t.key_start = static_cast<std::uint32_t>(c.times.size());
  t.key_count = static_cast<std::uint32_t>(times.size());
  t.value_start = static_cast<std::uint32_t>(c.values.size());
  t.curve_start = static_cast<std::uint32_t>(c.curves.size());
  c.times.insert(c.times.end(), times);
  c.values.insert(c.values.end(), values);
  if (t.key_count > 1) c.curves.insert(c.curves.end(), (t.key_count - 1) * t.curved, anim::kCurveLinear);
  c.timelines.push_back(t);
  return c.timelines.size() - 1;
}

}  // namespace mf::skel::test
