#pragma once
// Rigs made in code for benchmarks and tests, so they need no files and no art.
//
// The mid-complexity rig is the proposal's reference for performance: 40 bones, 30 slots and 800
// skinned vertices in weighted meshes with 2–4 influences each, with a clip that keys every bone.
// The feature rig adds everything else the runtime does: skins, sequences, deform, draw order,
// events, a clipping attachment.

#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::testing {

struct SyntheticRig {
  offline::SkeletonSource skeleton;
  std::vector<std::pair<std::string, offline::ClipSource>> clips;
};

// 40 bones, 30 slots (10 weighted meshes of 80 vertices, 20 regions), clip "move" (2 s) keying rotate
// on every bone with bezier curves, translate and scale on some, slot colours, two deform timelines.
SyntheticRig make_mid_complexity_rig();

// The mid-complexity rig with constraints on its bones: two two-bone IK chains (one soft and
// stretching), a transform constraint, a path constraint placing four bones along an S curve, and two
// physics constraints.
SyntheticRig make_constraint_rig();

// The constraint rig plus two more skins, a sequence attachment with sequence keys, attachment
// and draw-order keys, IK parameter and physics reset keys, events, and a clipping attachment over
// three slots; clips "move" and "alt".
SyntheticRig make_feature_rig();

// Builds the rig with every image 64 × 64 pixels and every clip loaded.
offline::BuildResult build_synthetic(const SyntheticRig& rig);

}  // namespace mf::testing
