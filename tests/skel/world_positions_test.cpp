#include "mf/skel/world_positions.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "mf/skel/cpu_vertices.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"
#include "synthetic_rig.hpp"

namespace mf::skel {
namespace {

// The feature rig has regions, weighted meshes with deform keys, a clipping range and skins. At every
// frame, WorldPositions gives exactly the floats compute_world_vertices gives for each shown
// attachment, and CpuVertices the same for those it draws unclipped.
TEST(WorldPositions, EqualsComputeWorldVerticesAndCpuVerticesExactly) {
  const auto built = testing::build_synthetic(testing::make_feature_rig());
  const SkeletonData& data = *built.data;
  SkeletonInstance instance(data);
  SkinCache skins(data);
  const std::int32_t outfit[] = {0, 1};
  apply_skin(instance.pose(), skins.compose(outfit));
  const int move = data.find_clip("move");
  std::vector<float> expected;
  std::size_t checked = 0, deformed = 0, compared_with_cpu = 0;
  for (int f = 0; f < 120; ++f) {
    const float t = static_cast<float>(f) / 60;
    const anim::ClipSample s = loop_sample(data, move, t - 1.0f / 60, t);
    instance.update({&s, 1}, FrameContext{.delta = 1.0f / 60});
    const WorldPositions& wp = instance.world_positions();
    ASSERT_GT(wp.ranges().size(), 0u);
    for (const PositionRange& r : wp.ranges()) {
      expected.assign(2 * r.count, 0.0f);
      compute_world_vertices(instance.pose(), r.slot, r.attachment, expected);
      for (std::uint32_t i = 0; i < 2 * r.count; ++i) ASSERT_EQ(wp.positions()[2 * r.first + i], expected[i]) << r.slot << " " << i;
      checked += r.count;
      if (instance.pose().deform_attachment[static_cast<std::size_t>(r.slot)] >= 0) ++deformed;
    }
    const CpuVertices& cv = instance.vertices();
    std::size_t next = 0;
    for (const DrawnAttachment& d : cv.drawn()) {
      while (next < wp.ranges().size() && wp.ranges()[next].slot != d.slot) ++next;
      ASSERT_LT(next, wp.ranges().size());
      const PositionRange& r = wp.ranges()[next++];
      EXPECT_EQ(r.attachment, d.attachment);
      if (d.clipped) continue;
      ASSERT_EQ(r.count, d.vertex_count);
      for (std::uint32_t i = 0; i < r.count; ++i) {
        EXPECT_EQ(cv.vertices()[d.vertex_start + i].x, wp.positions()[2 * (r.first + i)]);
        EXPECT_EQ(cv.vertices()[d.vertex_start + i].y, wp.positions()[2 * (r.first + i) + 1]);
      }
      ++compared_with_cpu;
    }
  }
  EXPECT_GT(checked, 0u);
  EXPECT_GT(deformed, 0u) << "some shown attachments were deformed";
  EXPECT_GT(compared_with_cpu, 0u);
}

// Attachments on inactive bones and slots without a region or mesh give no positions.
TEST(WorldPositions, SkipsInactiveBonesAndNonDrawingAttachments) {
  const auto built = testing::build_synthetic(testing::make_feature_rig());
  const SkeletonData& data = *built.data;
  SkeletonInstance instance(data);
  instance.update({});
  const std::size_t all = instance.world_positions().vertex_count();
  ASSERT_GT(all, 0u);
  const PositionRange first = instance.world_positions().ranges()[0];
  instance.pose().active[static_cast<std::size_t>(data.slots.bone[static_cast<std::size_t>(first.slot)])] = 0;
  const std::size_t fewer = instance.world_positions().vertex_count();
  EXPECT_LE(fewer + first.count, all);
  for (const PositionRange& r : instance.world_positions().ranges()) {
    const AttachmentRecord& a = data.attachments[static_cast<std::size_t>(r.attachment)];
    EXPECT_TRUE(a.kind == AttachmentKind::Region || a.kind == AttachmentKind::Mesh);
  }
}

}  // namespace
}  // namespace mf::skel
