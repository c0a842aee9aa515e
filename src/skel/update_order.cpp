// The update order: one walk over SkeletonData::update_order per frame. Bone steps compute world
// transforms, constraint steps call their solver. The build emits every bone a constraint reads before
// the constraint and every bone it changes again after it, so this walk needs no bookkeeping of its
// own beyond skipping idle bones.

#include <cassert>
#include <limits>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "mf/core/math/bone_local.hpp"
#include "solver_steps.hpp"

#include "mf/skel/constraints.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::skel {
namespace {

// The arrays the bone steps read and write, fetched once per walk.
struct BoneArrays {
  explicit BoneArrays(SkeletonPose& p)
      : parent(p.data().bones.parent.data()), active(p.active.data()), always(p.always_update.data()),
        changed(p.world_changed.data()), inherit(p.inherit.data()), previous_inherit(p.previous_inherit.data()),
        previous(p.previous_local.data()), x(p.x.data()), y(p.y.data()), rotation(p.rotation.data()),
        scale_x(p.scale_x.data()), scale_y(p.scale_y.data()), shear_x(p.shear_x.data()), shear_y(p.shear_y.data()),
        a(p.a.data()), b(p.b.data()), c(p.c.data()), d(p.d.data()), world_x(p.world_x.data()),
        world_y(p.world_y.data()) {}
  const std::int32_t* parent;
  const std::uint8_t *active, *always;
  std::uint8_t* changed;
  const Inherit* inherit;
  Inherit* previous_inherit;
  float* previous;
  const float *x, *y, *rotation, *scale_x, *scale_y, *shear_x, *shear_y;
  float *a, *b, *c, *d, *world_x, *world_y;
};

// Stores the bone's local pose for the next comparison; true when it differs from the stored one
// (NaN never compares equal, so the NaN an inactive bone leaves always differs).
bool remember_local(const BoneArrays& p, std::size_t i) {
  float* prev = p.previous + i * SkeletonPose::kLocalFloats;
  bool changed = p.previous_inherit[i] != p.inherit[i];
  p.previous_inherit[i] = p.inherit[i];
#if defined(__SSE2__)
  const __m128 now0 = _mm_setr_ps(p.x[i], p.y[i], p.rotation[i], p.scale_x[i]);
  const __m128 now1 = _mm_setr_ps(p.scale_y[i], p.shear_x[i], p.shear_y[i], 0.0f);
  const __m128 differs = _mm_or_ps(_mm_cmpneq_ps(now0, _mm_loadu_ps(prev)), _mm_cmpneq_ps(now1, _mm_loadu_ps(prev + 4)));
  _mm_storeu_ps(prev, now0);
  _mm_storeu_ps(prev + 4, now1);
  return changed || _mm_movemask_ps(differs) != 0;
#else
  const float now[SkeletonPose::kLocalFloats] = {p.x[i],       p.y[i],       p.rotation[i], p.scale_x[i],
                                                 p.scale_y[i], p.shear_x[i], p.shear_y[i], 0.0f};
  for (int k = 0; k < SkeletonPose::kLocalFloats; ++k) {
    changed |= !(prev[k] == now[k]);
    prev[k] = now[k];
  }
  return changed;
#endif
}

// A bone step. An inactive bone (skin-required, not in the skin) is skipped and recomputed when it
// comes back. An active bone keeps last frame's world transform when its local pose did not change,
// its parent was not recomputed in this walk, and no constraint writes it or an ancestor
// (always_update: a constrained bone's local pose is rewritten by its solver every frame, so the
// comparison would see a change anyway, and its descendants must follow the solved pose; such a bone
// stores nothing for comparing).
void bone_step(SkeletonPose& pose, const BoneArrays& p, std::size_t i) {
  if (!p.active[i]) {
    p.previous[i * SkeletonPose::kLocalFloats] = std::numeric_limits<float>::quiet_NaN();
    p.changed[i] = 1;
    return;
  }
  const std::int32_t parent = p.parent[i];
  if (!p.always[i]) {
    const bool parent_moved = parent >= 0 && p.changed[parent];
    if (!remember_local(p, i) && !parent_moved) {
      p.changed[i] = 0;
      return;
    }
  }
  p.changed[i] = 1;
  if (parent < 0 || p.inherit[i] != Inherit::Normal) {
    update_world_transform(pose, static_cast<int>(i));
    return;
  }
  // Normal inherit under a parent (most bones): P · L, the parent's transform applied to (x, y).
  const auto q = static_cast<std::size_t>(parent);
  const Matrix2 pm{p.a[q], p.b[q], p.c[q], p.d[q]};
  p.world_x[i] = pm.a * p.x[i] + pm.b * p.y[i] + p.world_x[q];
  p.world_y[i] = pm.c * p.x[i] + pm.d * p.y[i] + p.world_y[q];
  const Matrix2 world = pm * bone_local_matrix(p.rotation[i], p.scale_x[i], p.scale_y[i], p.shear_x[i], p.shear_y[i]);
  p.a[i] = world.a;
  p.b[i] = world.b;
  p.c[i] = world.c;
  p.d[i] = world.d;
}

}  // namespace

void update_skeleton(SkeletonPose& pose, const FrameContext& context) {
  const SkeletonData& data = pose.data();
  const BoneArrays bones(pose);
  // Constraint ids number the constraint steps in update order (SkeletonData::constraint_steps lists
  // them in that order), so the id of each step is a running count: no lookup per frame.
  std::size_t id = 0;
  for (const UpdateStep& step : data.update_order) {
    if (step.kind == UpdateKind::Bone) {
      bone_step(pose, bones, static_cast<std::size_t>(step.index));
      continue;
    }
    const std::size_t constraint = id++;
    assert(constraint < data.constraint_steps.size() && data.constraint_steps[constraint].kind == step.kind &&
           data.constraint_steps[constraint].index == step.index);
    if (!pose.constraint_active[constraint]) continue;
    switch (step.kind) {
      case UpdateKind::Ik: detail::solve_ik(pose, step.index, !pose.ik_world_deferred[constraint]); break;
      case UpdateKind::Transform: solve_transform(pose, step.index); break;
      case UpdateKind::Path: solve_path(pose, step.index); break;
      case UpdateKind::Physics: solve_physics(pose, step.index, context); break;
      case UpdateKind::Bone: break;
    }
  }
}

}  // namespace mf::skel
