// The synthetic rigs of the peer figures' shapes (tests/support/synthetic_rig.hpp) have the counts of
// the rigs they stand in for, and play: 120 frames of their clip give finite poses and vertices that
// move, with the constraints at work.

#include <cmath>
#include <ostream>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "synthetic_rig.hpp"

namespace mf::skel {
namespace {

using offline::MeshAttachment;
using offline::SkeletonSource;

// What the figures file counts of a rig; mesh vertices over every mesh of every skin (linked meshes
// share their parent's).
struct Shape {
  std::size_t bones = 0, slots = 0, ik = 0, transform = 0, path = 0, physics = 0, mesh_vertices = 0;
  friend bool operator==(const Shape&, const Shape&) = default;
  friend std::ostream& operator<<(std::ostream& out, const Shape& s) {
    return out << s.bones << " bones, " << s.slots << " slots, " << s.ik << " ik, " << s.transform << " transform, "
               << s.path << " path, " << s.physics << " physics, " << s.mesh_vertices << " mesh vertices";
  }
};

Shape shape_of(const SkeletonSource& s) {
  Shape shape{s.bones.size(), s.slots.size(), s.ik.size(), s.transform.size(), s.path.size(), s.physics.size(), 0};
  for (const offline::Skin& skin : s.skins)
    for (const offline::Attachment& a : skin.attachments)
      if (const auto* mesh = std::get_if<MeshAttachment>(&a.data)) shape.mesh_vertices += mesh->vertices.count();
  return shape;
}

// How many influences the meshes' vertices have: every count that occurs.
std::set<std::size_t> influence_counts(const SkeletonSource& s) {
  std::set<std::size_t> counts;
  for (const offline::Attachment& a : s.skins[0].attachments)
    if (const auto* mesh = std::get_if<MeshAttachment>(&a.data)) {
      EXPECT_TRUE(mesh->vertices.weighted()) << a.name;
      for (const auto& influences : mesh->vertices.weights) counts.insert(influences.size());
    }
  return counts;
}

struct Played {
  std::vector<float> first, middle, last;  // world x, y of every bone after frames 1, 30 and 120
  bool finite = true;
  std::size_t vertices = 0;
};

// Plays the clip for 120 frames of 1/60 s with the given physics mode; checks every world transform and
// CPU vertex for finite values after every frame.
Played play(const SkeletonData& data, const std::string& clip_name, PhysicsMode physics = PhysicsMode::Update) {
  SkeletonInstance instance(data);
  const int clip = data.find_clip(clip_name);
  EXPECT_GE(clip, 0) << clip_name;
  Played out;
  FrameContext context;
  context.delta = 1.0f / 60;
  context.physics = physics;
  for (int f = 1; f <= 120; ++f) {
    const anim::ClipSample sample = loop_sample(data, clip, static_cast<float>(f - 1) / 60, static_cast<float>(f) / 60);
    instance.update({&sample, 1}, context);
    const SkeletonPose& p = instance.pose();
    for (std::size_t b = 0; b < data.bones.size(); ++b)
      for (float v : {p.a[b], p.b[b], p.c[b], p.d[b], p.world_x[b], p.world_y[b]}) out.finite &= std::isfinite(v);
    const auto vertices = instance.vertices().vertices();
    for (const CpuVertex& v : vertices) out.finite &= std::isfinite(v.x) && std::isfinite(v.y);
    out.vertices = vertices.size();
    if (f == 1 || f == 30 || f == 120) {
      std::vector<float>& xy = f == 1 ? out.first : f == 30 ? out.middle : out.last;
      for (std::size_t b = 0; b < data.bones.size(); ++b) xy.insert(xy.end(), {p.world_x[b], p.world_y[b]});
    }
  }
  return out;
}

// The largest distance a bone is apart between two sets of world positions.
float farthest(const std::vector<float>& a, const std::vector<float>& b) {
  float most = 0;
  for (std::size_t k = 0; k + 1 < a.size(); k += 2) most = std::max(most, std::hypot(a[k] - b[k], a[k + 1] - b[k + 1]));
  return most;
}

TEST(SyntheticRigs, RaptorShapedRigHasRaptorWalksCounts) {
  const testing::SyntheticRig rig = testing::make_raptor_shaped_rig();
  const SkeletonSource& s = rig.skeleton;
  EXPECT_EQ(shape_of(s), (Shape{.bones = 76, .slots = 36, .ik = 9, .mesh_vertices = 583}));
  EXPECT_EQ(influence_counts(s), (std::set<std::size_t>{1, 2, 3, 4}));
  int one_bone = 0, two_bone = 0, bent_back_and_stretching = 0;
  for (const offline::IkConstraint& ik : s.ik) {
    (ik.bones.size() == 1 ? one_bone : two_bone) += 1;
    bent_back_and_stretching += ik.bend < 0 && ik.stretch ? 1 : 0;
  }
  EXPECT_EQ(one_bone, 4);
  EXPECT_EQ(two_bone, 5);
  EXPECT_EQ(bent_back_and_stretching, 2) << "the legs";
  ASSERT_EQ(rig.clips.size(), 1u);
  EXPECT_EQ(rig.clips[0].first, "walk");
  EXPECT_EQ(rig.clips[0].second.loop, LoopMode::Linear);
  std::set<offline::CurveKind> kinds;
  std::size_t rotated = 0;
  for (const offline::CurveTimeline& t : rig.clips[0].second.curves) {
    kinds.insert(t.kind);
    rotated += t.kind == offline::CurveKind::Rotate ? 1 : 0;
  }
  EXPECT_GE(rotated * 4, s.bones.size() * 3) << "rotate keys on most bones";
  EXPECT_TRUE(kinds.count(offline::CurveKind::Translate) && kinds.count(offline::CurveKind::Ik));
}

TEST(SyntheticRigs, CelestialCircusShapedRigHasCelestialCircusSwingsCounts) {
  const testing::SyntheticRig rig = testing::make_celestial_circus_shaped_rig();
  const SkeletonSource& s = rig.skeleton;
  EXPECT_EQ(shape_of(s), (Shape{.bones = 60, .slots = 70, .transform = 3, .physics = 30, .mesh_vertices = 699}));
  EXPECT_EQ(influence_counts(s), (std::set<std::size_t>{1, 2, 3, 4}));
  int translating = 0;
  for (const offline::PhysicsConstraint& p : s.physics) {
    EXPECT_GT(p.rotate, 0) << p.name;
    EXPECT_GT(p.gravity, 0) << p.name;
    EXPECT_GT(p.wind, 0) << p.name;
    translating += p.x > 0 && p.y > 0 ? 1 : 0;
  }
  EXPECT_EQ(translating, 10) << "the first bone of each of the ten chains";
  ASSERT_EQ(rig.clips.size(), 1u);
  EXPECT_EQ(rig.clips[0].first, "swing");
  EXPECT_EQ(rig.clips[0].second.loop, LoopMode::Linear);
}

// Plays the rig's one clip: finite poses, more vertices than the meshes alone (regions too), bones that
// move over the first half second. Returns the run.
Played expect_plays(const SkeletonData& data, const testing::SyntheticRig& rig, PhysicsMode physics = PhysicsMode::Update) {
  const Played played = play(data, rig.clips[0].first, physics);
  EXPECT_TRUE(played.finite);
  EXPECT_GT(played.vertices, shape_of(rig.skeleton).mesh_vertices) << "meshes and regions";
  EXPECT_GT(farthest(played.first, played.middle), 10) << "the clip moves the bones";
  return played;
}

TEST(SyntheticRigs, RaptorShapedRigWalksWithFinitePoses) {
  const testing::SyntheticRig rig = testing::make_raptor_shaped_rig();
  expect_plays(*testing::build_synthetic(rig).data, rig);
}

TEST(SyntheticRigs, CelestialCircusShapedRigSwingsWithFinitePosesAndPhysics) {
  const testing::SyntheticRig rig = testing::make_celestial_circus_shaped_rig();
  const auto built = testing::build_synthetic(rig);
  const Played played = expect_plays(*built.data, rig);
  const Played still = expect_plays(*built.data, rig, PhysicsMode::None);
  EXPECT_GT(farthest(played.last, still.last), 1) << "physics moves the hair, skirt and ribbons";
}

}  // namespace
}  // namespace mf::skel
