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

// Synthetic rigs of the shapes of two of Spine's example rigs that are not in ../shared, for comparing
// instruction counts with the peer figures (docs/performance.md). Only the counts are theirs: bones,
// slots, constraints of each kind and mesh vertices (over non-linked meshes) match the figures file;
// the skeletons, meshes, weights and clips are made up here (MIT, no art: images are named, not drawn).
//
// Of raptor walk's shape: 76 bones (a dinosaur with a saddle), 36 slots (12 weighted meshes with 1–4
// influences per vertex, 583 vertices; 24 regions), 9 IK constraints (two-bone legs that bend back,
// soften and stretch, one-bone feet, two-bone arms, a two-bone neck, one-bone head and tail), and a
// looping 1 s clip "walk" keying rotate with bezier curves on 64 bones, translate on the hip and the
// IK targets (stepping feet), scale on one bone and the mix of four IK constraints.
SyntheticRig make_raptor_shaped_rig();

// Of celestial-circus swing's shape: 60 bones (a girl on a swing), 70 slots (19 weighted meshes, 699
// vertices; 51 regions), 3 transform constraints, 30 physics constraints (every bone of four hair
// strands, three skirt panels and two ribbons, and a bow: rotate, translate on each chain's first
// bone, inertia, strength, damping, mass, wind and gravity), and a looping 2 s clip "swing" keying
// rotate on 24 bones, translate on 3, alpha on 6 slots and a blink.
SyntheticRig make_celestial_circus_shaped_rig();

// Builds the rig with every image 64 × 64 pixels and every clip loaded.
offline::BuildResult build_synthetic(const SyntheticRig& rig);

}  // namespace mf::testing
