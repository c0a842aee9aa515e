// Skeleton2D nodes allocate nothing through the global operator new per tick once warm: a crowd of
// the example walking and running through the tree (Process and Physics modes, one culled in
// TimeOnly, one paused), with bone attachments and slots connected to every signal.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "counting_new.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/bone_attachment_2d.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"

namespace mf::scene {
namespace {

TEST(SceneSkeletonAllocation, TicksOfSkeletonNodesAllocateNothing) {
  auto built = offline::build_rig_file(MF_EXAMPLES_DIR "/mannequin/mannequin.mskel");
  ASSERT_TRUE(built) << built.error().to_string();
  std::shared_ptr<const skel::SkeletonData> data = built->data;
  SceneTree tree;
  long events = 0;
  for (int i = 0; i < 8; ++i) {
    auto node = std::make_unique<Skeleton2D>("s" + std::to_string(i));
    ASSERT_TRUE(node->set_clip(i % 2 ? "run" : "walk"));
    ASSERT_TRUE(node->set_data(data));
    node->set_position({100.0f * static_cast<float>(i), 0});
    if (i == 3) node->set_update_mode(SkeletonUpdateMode::Physics);
    if (i == 5) node->set_was_culled(true);  // TimeOnly
    if (i == 6) {
      node->set_was_culled(true);
      node->set_offscreen(OffscreenUpdate::Pause);
    }
    node->animation_event.connect([&](Skeleton2D*, const SkeletonEvent& e) { events += e.int_value + 1; });
    node->track_started.connect([&](Skeleton2D*, const TrackEvent&) { ++events; });
    node->track_completed.connect([&](Skeleton2D*, const TrackEvent&) { ++events; });
    node->pose_updated.connect([&](Skeleton2D*) { ++events; });
    Skeleton2D* s = *tree.root().add_child(std::move(node));
    ASSERT_TRUE(s->make_child<BoneAttachment2D>("mount", "hand_r"));
    BoneAttachment2D* handle = *s->make_child<BoneAttachment2D>("handle", "foot_l_target");
    handle->set_override_pose(i == 2);
  }
  for (int f = 0; f < 120; ++f) tree.advance(1 / 60.0f);  // warm-up: a full loop of each clip
  const std::size_t before = mf::testing::allocation_count();
  for (int f = 0; f < 600; ++f) tree.advance(f % 3 ? 1 / 60.0f : 1 / 45.0f);
  EXPECT_EQ(mf::testing::allocation_count() - before, 0u) << "operator new calls in 600 advances";
  EXPECT_GT(events, 600);
}

}  // namespace
}  // namespace mf::scene
