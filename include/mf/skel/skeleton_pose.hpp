#pragma once
// SkeletonPose: the state of one skeleton instance, structure of arrays, allocated once from its
// SkeletonData and never grown by frames. Hot loops walk these arrays in update order with no
// per-bone objects and no virtual calls.

#include <cstdint>
#include <vector>

#include "mf/core/math/color.hpp"
#include "mf/skel/constraint_state.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::skel {

// Slot colours are mf::ColorF (mf/core/math/color.hpp); the renderer names them skel::ColorF.
using mf::ColorF;
using mf::to_color_f;

// Animated constraint parameters (the constraints module reads them; clips and code write them).
struct IkPose {
  float mix, softness;
  std::int8_t bend;
  bool compress, stretch;
};
struct TransformPose {
  float mix_rotate, mix_x, mix_y, mix_scale_x, mix_scale_y, mix_shear_y;
};
struct PathPose {
  float position, spacing, mix_rotate, mix_x, mix_y;
};
struct PhysicsPose {
  float inertia, strength, damping, mass_inverse, wind, gravity, mix;
  std::uint32_t reset_count;  // bumped by reset keys; the solver resets when it changes
};

class SkeletonPose {
 public:
  explicit SkeletonPose(const SkeletonData& data);

  const SkeletonData& data() const { return *data_; }

  // Resets bones, slots, draw order, deform and constraint parameters to the setup pose (attachments
  // through the active skin).
  void set_to_setup();

  // ---- bones (index = bone) ----
  std::vector<float> x, y, rotation, scale_x, scale_y, shear_x, shear_y;  // local pose
  std::vector<Inherit> inherit;
  std::vector<float> a, b, c, d, world_x, world_y;  // world 2×3 in skeleton space: x' = a·x + b·y + world_x
  std::vector<std::uint8_t> active;                 // skinRequired bones of the current skin

  // ---- slots (index = slot) ----
  std::vector<ColorF> color;
  std::vector<ColorF> dark;                 // alpha unused
  std::vector<std::int32_t> attachment;     // attachment index, −1 for none
  std::vector<std::int32_t> sequence_index; // frame of a sequence attachment, −1: the attachment's setup frame
  std::vector<std::uint16_t> draw_order;    // slot indices, back to front
  // Attachment set from code (set_slot_attachment), kept over the per-frame reset until an attachment
  // key or a skin change replaces it; kNoOverride when none.
  static constexpr std::int32_t kNoOverride = -2;
  std::vector<std::int32_t> attachment_override;

  // ---- deform: per slot a range of floats (2 per influence of the slot's largest deformable attachment)
  std::vector<float> deform;
  std::vector<std::uint32_t> deform_start;  // per slot, into deform
  std::vector<std::int32_t> deform_attachment;  // per slot: the attachment the floats belong to, −1 none
                                                // (then the slot's floats are stale and never read)

  // ---- constraints ----
  std::vector<IkPose> ik;
  std::vector<TransformPose> transform;
  std::vector<PathPose> path;
  std::vector<PhysicsPose> physics;
  std::vector<std::uint8_t> constraint_active;  // per constraint id (SkeletonData::constraint_steps)
  // Per constraint id: an IK step whose bones the update order's later bone steps recompute before
  // anything reads them (checked once, here), so the walk lets the solver skip recomputing them.
  std::vector<std::uint8_t> ik_world_deferred;
  PathScratch path_scratch;                     // path_constraint.cpp
  std::vector<PhysicsState> physics_state;      // physics_constraint.cpp

  // ---- timeline cursors ----
  std::vector<std::uint32_t> cursors;      // timeline key hints, per loaded clip's cursor range

  // Makes room for the cursors of every clip loaded so far (allocates only when a clip was loaded
  // after the pose was made; call it outside the frame loop).
  void reserve_cursors();

  // The active skin table, sorted by (slot, name). apply_skin (skin_composer.hpp) sets it; a new pose
  // uses the data's default skin, or its first skin when none is named "default".
  const std::vector<SkinEntry>* skin = nullptr;

  // ---- world-transform bookkeeping (update_order.cpp) ----
  std::vector<std::uint8_t> world_changed;  // per bone: recomputed in the last update
  std::vector<std::uint8_t> always_update;  // per bone: never skipped (constrained bones and descendants)
  // Each bone's local pose (x, y, rotation, scale x/y, shear x/y, and an unused 0) and inherit mode
  // when its world transform was last computed, for the next comparison; NaN before the first update
  // (and after the bone was inactive), so the first comparison always sees a change.
  static constexpr int kLocalFloats = 8;
  std::vector<float> previous_local;
  std::vector<Inherit> previous_inherit;

 private:
  const SkeletonData* data_;
  // The slots' setup state, resolved once: colours, and setup attachments in setup_skin_ (looked up
  // again when the skin pointer changes).
  std::vector<ColorF> setup_color_, setup_dark_;
  std::vector<std::int32_t> setup_attachment_;
  const std::vector<SkinEntry>* setup_skin_ = nullptr;
  std::vector<std::uint16_t> setup_draw_order_;  // 0, 1, 2, …: copied in whole by set_to_setup
};

}  // namespace mf::skel
