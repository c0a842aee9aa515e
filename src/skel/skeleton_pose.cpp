#include "mf/skel/skeleton_pose.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mf::skel {
namespace {

bool listed(const std::vector<std::int32_t>& list, std::int32_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Bones a constraint writes: they and their descendants are recomputed every frame.
void mark_constrained(const SkeletonData& data, std::vector<std::uint8_t>& out) {
  auto mark = [&](std::int32_t bone) { out[static_cast<std::size_t>(bone)] = 1; };
  for (const IkData& c : data.ik) std::for_each(c.bones.begin(), c.bones.end(), mark);
  for (const TransformData& c : data.transform) std::for_each(c.bones.begin(), c.bones.end(), mark);
  for (const PathData& c : data.path) std::for_each(c.bones.begin(), c.bones.end(), mark);
  for (const PhysicsData& c : data.physics) mark(c.bone);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int parent = data.bones.parent[i];
    if (parent >= 0 && out[static_cast<std::size_t>(parent)]) out[i] = 1;
  }
}

// Whether the update order recomputes the bones of the IK step at `position` in bone steps after it
// before anything reads their world transforms: each of its bones gets a bone step later, no bone
// step of a child of a bone still waiting for its own comes first, and no constraint step in
// between reads a waiting bone (its bones, their parents, its target; a path's bones cannot be
// known here, so a path step in between is a read). Then the solver need not recompute them itself.
bool ik_world_left_to_bone_steps(const SkeletonData& data, std::size_t position) {
  const IkData& ik = data.ik[static_cast<std::size_t>(data.update_order[position].index)];
  std::vector<std::int32_t> waiting(ik.bones.begin(), ik.bones.end());
  auto is_waiting = [&](std::int32_t bone) {
    return bone >= 0 && std::find(waiting.begin(), waiting.end(), bone) != waiting.end();
  };
  auto parent_of = [&](std::int32_t bone) { return data.bones.parent[static_cast<std::size_t>(bone)]; };
  auto reads_waiting = [&](const std::vector<std::int32_t>& bones, std::int32_t target) {
    if (is_waiting(target)) return true;
    for (const std::int32_t b : bones)
      if (is_waiting(b) || is_waiting(parent_of(b))) return true;
    return false;
  };
  for (std::size_t k = position + 1; k < data.update_order.size() && !waiting.empty(); ++k) {
    const UpdateStep& step = data.update_order[k];
    const auto index = static_cast<std::size_t>(step.index);
    switch (step.kind) {
      case UpdateKind::Bone:
        if (is_waiting(parent_of(step.index))) return false;
        waiting.erase(std::remove(waiting.begin(), waiting.end(), step.index), waiting.end());
        break;
      case UpdateKind::Ik:
        if (reads_waiting(data.ik[index].bones, data.ik[index].target)) return false;
        break;
      case UpdateKind::Transform:
        if (reads_waiting(data.transform[index].bones, data.transform[index].target)) return false;
        break;
      case UpdateKind::Physics:
        if (reads_waiting({data.physics[index].bone}, -1)) return false;
        break;
      case UpdateKind::Path: return false;
    }
  }
  return waiting.empty();
}

}  // namespace

SkeletonPose::SkeletonPose(const SkeletonData& data) : data_(&data) {
  const std::size_t bones = data.bones.size();
  const std::size_t slots = data.slots.size();
  for (auto* v : {&x, &y, &rotation, &scale_x, &scale_y, &shear_x, &shear_y, &a, &b, &c, &d, &world_x, &world_y})
    v->assign(bones, 0.0f);
  a.assign(bones, 1.0f);
  d.assign(bones, 1.0f);
  inherit.assign(bones, Inherit::Normal);
  active.assign(bones, 1);
  world_changed.assign(bones, 0);
  always_update.assign(bones, 0);
  mark_constrained(data, always_update);
  previous_local.assign(bones * kLocalFloats, std::numeric_limits<float>::quiet_NaN());
  previous_inherit.assign(bones, Inherit::Normal);

  color.assign(slots, ColorF{});
  dark.assign(slots, ColorF{0, 0, 0, 0});
  attachment.assign(slots, -1);
  attachment_override.assign(slots, kNoOverride);
  sequence_index.assign(slots, -1);
  draw_order.resize(slots);

  deform_start.resize(slots);
  std::uint32_t deform_floats = 0;
  for (std::size_t s = 0; s < slots; ++s) {
    deform_start[s] = deform_floats;
    deform_floats += s < data.slot_deform_floats.size() ? data.slot_deform_floats[s] : 0;
  }
  deform.assign(deform_floats, 0.0f);
  deform_attachment.assign(slots, -1);

  ik.resize(data.ik.size());
  transform.resize(data.transform.size());
  path.resize(data.path.size());
  physics.resize(data.physics.size());
  for (PhysicsPose& p : physics) p.reset_count = 0;
  constraint_active.assign(data.constraint_steps.size(), 1);

  if (!data.skins.empty()) {
    // Until a skin is applied, the default skin is active (the first skin when none is named so).
    const int initial = data.default_skin();
    const SkinData& first = data.skins[initial >= 0 ? static_cast<std::size_t>(initial) : 0];
    skin = &first.entries;
    for (std::size_t i = 0; i < bones; ++i) {
      const int parent = data.bones.parent[i];
      const bool parent_active = parent < 0 || active[static_cast<std::size_t>(parent)];
      active[i] = parent_active && (!data.bones.skin_required[i] || listed(first.bones, static_cast<std::int32_t>(i)));
    }
    for (std::size_t i = 0; i < constraint_active.size(); ++i) {
      const UpdateStep& step = data.constraint_steps[i];
      bool required = false;
      const auto k = static_cast<std::size_t>(step.index);
      switch (step.kind) {
        case UpdateKind::Ik: required = data.ik[k].skin_required; break;
        case UpdateKind::Transform: required = data.transform[k].skin_required; break;
        case UpdateKind::Path: required = data.path[k].skin_required; break;
        case UpdateKind::Physics: required = data.physics[k].skin_required; break;
        case UpdateKind::Bone: break;
      }
      constraint_active[i] = !required || listed(first.constraints, static_cast<std::int32_t>(i));
    }
  } else {
    for (std::size_t i = 0; i < bones; ++i) active[i] = !data.bones.skin_required[i];
  }
  setup_draw_order_.resize(slots);
  for (std::size_t s = 0; s < slots; ++s) setup_draw_order_[s] = static_cast<std::uint16_t>(s);
  ik_world_deferred.assign(data.constraint_steps.size(), 0);
  for (std::size_t k = 0, id = 0; k < data.update_order.size(); ++k) {
    if (data.update_order[k].kind == UpdateKind::Bone) continue;
    if (data.update_order[k].kind == UpdateKind::Ik && id < ik_world_deferred.size())
      ik_world_deferred[id] = ik_world_left_to_bone_steps(data, k) ? 1 : 0;
    ++id;
  }
  init_path_scratch(*this);
  init_physics_state(*this);
  reserve_cursors();
  set_to_setup();
}

void SkeletonPose::reserve_cursors() {
  if (cursors.size() < data_->cursor_count) cursors.resize(data_->cursor_count, 0);
}

void SkeletonPose::set_to_setup() {
  const SkeletonData& data = *data_;
  const BoneTable& bt = data.bones;
  std::copy(bt.x.begin(), bt.x.end(), x.begin());
  std::copy(bt.y.begin(), bt.y.end(), y.begin());
  std::copy(bt.rotation.begin(), bt.rotation.end(), rotation.begin());
  std::copy(bt.scale_x.begin(), bt.scale_x.end(), scale_x.begin());
  std::copy(bt.scale_y.begin(), bt.scale_y.end(), scale_y.begin());
  std::copy(bt.shear_x.begin(), bt.shear_x.end(), shear_x.begin());
  std::copy(bt.shear_y.begin(), bt.shear_y.end(), shear_y.begin());
  std::copy(bt.inherit.begin(), bt.inherit.end(), inherit.begin());

  const SlotTable& st = data.slots;
  if (setup_color_.size() != st.size()) {
    setup_color_.resize(st.size());
    setup_dark_.resize(st.size());
    for (std::size_t s = 0; s < st.size(); ++s) {
      setup_color_[s] = to_color_f(st.color[s]);
      setup_dark_[s] = st.has_dark[s] ? to_color_f(st.dark[s]) : ColorF{0, 0, 0, 0};
    }
  }
  if (setup_attachment_.size() != st.size() || setup_skin_ != skin) {
    setup_attachment_.resize(st.size());
    setup_skin_ = skin;
    for (std::size_t s = 0; s < st.size(); ++s) {
      const std::int32_t name = st.setup_attachment[s];
      setup_attachment_[s] = name >= 0 && skin ? find_skin_attachment(*skin, static_cast<std::int32_t>(s), name) : -1;
    }
  }
  std::copy(setup_color_.begin(), setup_color_.end(), color.begin());
  std::copy(setup_dark_.begin(), setup_dark_.end(), dark.begin());
  std::copy(setup_attachment_.begin(), setup_attachment_.end(), attachment.begin());
  for (std::size_t s = 0; s < st.size(); ++s)
    if (attachment_override[s] != kNoOverride) attachment[s] = attachment_override[s];
  std::fill(sequence_index.begin(), sequence_index.end(), -1);
  std::copy(setup_draw_order_.begin(), setup_draw_order_.end(), draw_order.begin());
  // No deform: the slots' floats are not read, so they are not cleared.
  std::fill(deform_attachment.begin(), deform_attachment.end(), -1);

  // Constraint parameters are read from the data every time: the data's values are the setup.
  for (std::size_t i = 0; i < ik.size(); ++i) {
    const IkData& c = data.ik[i];
    ik[i] = {c.mix, c.softness, c.bend, c.compress, c.stretch};
  }
  for (std::size_t i = 0; i < transform.size(); ++i) {
    const TransformData& c = data.transform[i];
    transform[i] = {c.mix_rotate, c.mix_x, c.mix_y, c.mix_scale_x, c.mix_scale_y, c.mix_shear_y};
  }
  for (std::size_t i = 0; i < path.size(); ++i) {
    const PathData& c = data.path[i];
    path[i] = {c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y};
  }
  for (std::size_t i = 0; i < physics.size(); ++i) {
    const PhysicsData& c = data.physics[i];
    const std::uint32_t resets = physics[i].reset_count;
    physics[i] = {c.inertia, c.strength, c.damping, c.mass_inverse, c.wind, c.gravity, c.mix, resets};
  }
}

}  // namespace mf::skel
