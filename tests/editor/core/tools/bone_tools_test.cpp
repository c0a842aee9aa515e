// Bone tools: world transforms for every inherit mode, a local pose for a wanted world transform,
// new bones placed at world points, reparenting and moving without children, all within 1e-4 px.

#include <gtest/gtest.h>

#include <cmath>

#include "editor_fixture.hpp"
#include "mf/core/math/angle.hpp"
#include "mf/core/math/bone_local.hpp"
#include "mf/editor/core/tools/bone_tools.hpp"
#include "mf/editor/core/tools/bone_world.hpp"
#include "mf/offline/format/setup_world.hpp"

namespace mf::editor {
namespace {

using offline::Bone;
constexpr double kTolerance = 1e-4;  // px

void expect_near(Vec2d a, Vec2d b, const std::string& what) {
  EXPECT_NEAR(a.x, b.x, kTolerance) << what;
  EXPECT_NEAR(a.y, b.y, kTolerance) << what;
}

void expect_same(const Affine2d& a, const Affine2d& b, const std::string& what) {
  for (const Vec2d p : {Vec2d{0, 0}, Vec2d{100, 0}, Vec2d{0, 100}}) expect_near(a.apply(p), b.apply(p), what);
}

TEST(BoneWorld, NormalChainsAreTheOfflineRuleExactly) {
  test::RigFixture f(true);
  const std::vector<std::optional<Affine2d>> normal = offline::setup_world_transforms(f.s());
  const std::vector<Affine2d> all = bone_worlds(f.s());
  int compared = 0, others = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (normal[i]) {
      EXPECT_EQ(all[i], *normal[i]) << f.s().bones[i].name;
      ++compared;
    } else {
      ++others;
    }
  }
  EXPECT_GE(compared, 3);
  EXPECT_GE(others, 4);  // hip (NoScale) and what hangs from it, cape, tail, arm
  // OnlyTranslation: the cape has no rotation or scale from its parent, but sits where the parent puts it.
  const int cape = f.bone("cape"), hip = f.bone("hip");
  EXPECT_NEAR(all[static_cast<std::size_t>(cape)].a, 1, 1e-12);
  EXPECT_NEAR(all[static_cast<std::size_t>(cape)].c, 0, 1e-12);
  expect_near(all[static_cast<std::size_t>(cape)].origin(), all[static_cast<std::size_t>(hip)].origin(), "cape at the hip");
}

TEST(BoneTools, BoneForWorldInvertsWorldOf) {
  const Affine2d parent = Affine2d::from(Matrix2d{1.5, -0.4, 0.3, 0.8}, 40, -12);  // scaled, sheared
  Bone b;
  b.parent = 0;
  b.shear_x = 5;
  b.scale_x = -1;  // kept negative
  for (offline::Inherit mode : {offline::Inherit::Normal, offline::Inherit::OnlyTranslation, offline::Inherit::NoRotationOrReflection,
                                offline::Inherit::NoScale, offline::Inherit::NoScaleOrReflection}) {
    b.inherit = mode;
    const Affine2d wanted = Affine2d::from(bone_local_matrix<double>(33, 1.25f, -0.75f, 10, -7), 17, 23);
    Expected<Bone> local = bone_for_world(b, parent, wanted);
    ASSERT_TRUE(local) << local.error().to_string();
    EXPECT_EQ(local->shear_x, 5);
    EXPECT_LT(local->scale_x, 0);
    expect_same(world_of(*local, parent), wanted, offline::to_string(mode));
  }
  // A parent with no scale has no inverse.
  EXPECT_FALSE(bone_for_world(b, Affine2d::scale(0, 1), Affine2d{}));
}

TEST(BoneTools, BoneAtAWorldPointWithATip) {
  test::RigFixture f;
  const int forearm = f.bone("forearm_l");
  const Vec2d origin{12, -150}, tip{40, -100};
  Expected<Bone> b = bone_at(f.s(), forearm, origin, tip);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_EQ(b->parent, forearm);
  EXPECT_EQ(b->scale_x, 1);
  EXPECT_EQ(b->shear_y, 0);
  const Affine2d world = world_of(*b, bone_worlds(f.s())[static_cast<std::size_t>(forearm)]);
  expect_near(world.origin(), origin, "origin");
  expect_near(world.apply(Vec2d{b->length, 0}), tip, "tip");
  // A root: its local pose is the world pose.
  Expected<Bone> root = bone_at(f.s(), -1, {5, 6}, std::nullopt);
  ASSERT_TRUE(root);
  EXPECT_EQ(root->x, 5);
  EXPECT_EQ(root->y, 6);
  EXPECT_EQ(root->rotation, 0);
  EXPECT_EQ(root->length, 0);
}

TEST(BoneTools, ReparentedAndMoveWithoutChildrenKeepWorlds) {
  test::RigFixture f(true);
  const std::vector<Affine2d> before = bone_worlds(f.s());
  for (std::size_t i = 1; i < f.s().bones.size(); ++i)
    for (int parent = -1; parent < static_cast<int>(f.s().bones.size()); ++parent) {
      if (parent == static_cast<int>(i)) continue;
      Expected<Bone> b = reparented(f.s(), static_cast<int>(i), parent);
      ASSERT_TRUE(b) << b.error().to_string();
      const Affine2d world =
          world_of(*b, parent < 0 ? std::nullopt : std::optional<Affine2d>(before[static_cast<std::size_t>(parent)]));
      expect_same(world, before[i], f.s().bones[i].name + " under " + std::to_string(parent));
    }
  // The hip (scaled, sheared, NoScale) turned: its children (thigh, cape) keep their worlds.
  const int hip = f.bone("hip");
  Bone turned = f.s().bones[static_cast<std::size_t>(hip)];
  turned.rotation += 40;
  turned.x -= 3;
  Expected<std::vector<std::pair<int, Bone>>> moved = move_without_children(f.s(), hip, turned);
  ASSERT_TRUE(moved);
  offline::SkeletonSource s = f.s();
  for (const auto& [i, b] : *moved) s.bones[static_cast<std::size_t>(i)] = b;
  const std::vector<Affine2d> after = bone_worlds(s);
  for (std::size_t i = 0; i < s.bones.size(); ++i)
    if (static_cast<int>(i) != hip) expect_same(after[i], before[i], s.bones[i].name);
}

}  // namespace
}  // namespace mf::editor
