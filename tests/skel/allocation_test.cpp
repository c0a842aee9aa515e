// The runtime allocates nothing per frame. Global operator new and delete are replaced by counting
// versions; after load and a warm-up, thousands of frames with every runtime feature in use (two
// layers with crossfading weights, skins switching among combinations already composed, sequences,
// attachment and draw-order keys, deform, events, clipping, code-set attachments, and IK, transform,
// path and physics constraints with IK and reset keys, deform on paths, clipping polygons and bounding
// boxes) must allocate zero times.

#include <gtest/gtest.h>

#include "counting_new.hpp"

#include "mf/skel/animated_skeleton.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"
#include "spine_fixture_rig.hpp"
#include "synthetic_rig.hpp"


namespace mf::skel {
namespace {

TEST(Allocation, SteadyFramesAllocateNothing) {
  const auto built = testing::build_synthetic(testing::make_feature_rig());
  const SkeletonData& data = *built.data;
  SkeletonInstance instance(data);
  SkinCache skins(data);
  const std::int32_t outfit_a[] = {0, 1}, outfit_b[] = {0, 2}, plain[] = {0};
  const ComposedSkin* outfits[] = {&skins.compose(outfit_a), &skins.compose(outfit_b), &skins.compose(plain)};
  const int move = data.find_clip("move"), alt = data.find_clip("alt");
  const int region3 = data.find_slot("region3");

  std::size_t events = 0, clipped_runs = 0, positions = 0;
  auto frame = [&](int f) {
    if (f % 50 == 0) apply_skin(instance.pose(), *outfits[(f / 50) % 3]);
    if (f % 70 == 0) set_slot_attachment(instance.pose(), region3, f % 140 == 0 ? "" : "region3");
    const float t = static_cast<float>(f) / 60, prev = static_cast<float>(f - 1) / 60;
    anim::ClipSample samples[3] = {loop_sample(data, move, prev, t), loop_sample(data, alt, prev, t),
                                   loop_sample(data, alt, prev * 0.5f, t * 0.5f)};
    samples[0].weight = static_cast<float>(f % 90) / 90;
    samples[1].weight = 1 - samples[0].weight;
    samples[2].layer = 1;
    samples[2].blend = anim::ClipBlend::Additive;
    samples[2].weight = 0.3f;
    FrameContext context;  // physics steps at 60 Hz; the skeleton drifts so inertia has work
    context.delta = 1.0f / 60;
    context.skeleton_x = static_cast<float>(f % 120);
    instance.update(samples, context);
    events += instance.events().size();
    for (const DrawRun& run : instance.vertices().runs()) clipped_runs += run.clipped ? 1 : 0;
    positions += instance.world_positions().vertex_count();
  };

  for (int f = 0; f < 200; ++f) frame(f);  // warm-up: every skin, key and loop seen once
  const std::size_t before = testing::allocation_count();
  for (int f = 200; f < 5200; ++f) frame(f);
  const std::size_t during = testing::allocation_count() - before;

  EXPECT_EQ(during, 0u) << "allocations in 5000 steady frames";
  EXPECT_GT(events, 0u) << "the frames fired events";
  EXPECT_GT(clipped_runs, 0u) << "the frames clipped slots";
  EXPECT_GT(positions, 0u) << "the frames computed world positions";
}

// An AnimatedSkeleton ticking with tracks that crossfade, queue and fade a layer out, bone overrides
// set and cleared in both spaces, and events and signals drained every frame, allocates nothing once
// its pool has held the most entries the pattern needs.
// Deform on vertex attachments other than meshes: a path constraint on a deformed path, a deformed
// clipping polygon and a deformed weighted bounding box read back every frame.
TEST(Allocation, DeformedPathClippingAndBoundingBoxAllocateNothing) {
  test::SpineFixtureRig rig;
  ASSERT_TRUE(test::load_spine_fixture("vertex-deform.json", rig));
  const SkeletonData& data = *rig.data;
  SkeletonInstance instance(data);
  const int clip = data.find_clip("deform");
  const std::int32_t hit = data.find_slot("hit");
  float box[6] = {};
  std::size_t clipped_runs = 0;
  auto frame = [&](int f) {
    anim::ClipSample sample = loop_sample(data, clip, 0, 0, false);
    sample.weight = static_cast<float>(f % 90) / 90;  // the deform varies from frame to frame
    instance.update({&sample, 1});
    compute_world_vertices(instance.pose(), hit, instance.pose().attachment[static_cast<std::size_t>(hit)], box);
    for (const DrawRun& run : instance.vertices().runs()) clipped_runs += run.clipped ? 1 : 0;
  };
  for (int f = 0; f < 100; ++f) frame(f);
  const std::size_t before = testing::allocation_count();
  for (int f = 100; f < 2100; ++f) frame(f);
  EXPECT_EQ(testing::allocation_count() - before, 0u) << "allocations in 2000 steady frames";
  EXPECT_GT(clipped_runs, 0u) << "the frames clipped slots";
}

TEST(Allocation, AnimatedSkeletonTicksAllocateNothing) {
  const auto built = testing::build_synthetic(testing::make_feature_rig());
  const SkeletonData& data = *built.data;
  AnimatedSkeleton skeleton(data);
  const int move = data.find_clip("move"), alt = data.find_clip("alt");
  skeleton.tracks().set_default_mix(0.25f);

  std::size_t events = 0, signals = 0;
  auto frame = [&](int f) {
    anim::AnimationTracks& tracks = skeleton.tracks();
    if (f % 40 == 0) tracks.set_clip(0, (f / 40) % 2 ? alt : move, true);
    if (f % 120 == 0) tracks.add_clip(0, move, false, 0);
    if (f % 100 == 0) {
      const anim::TrackEntryHandle h = tracks.set_clip(1, alt, true);
      if (anim::TrackEntry* e = tracks.entry(h)) e->set_blend(anim::ClipBlend::Additive);
    }
    if (f % 100 == 60) tracks.set_empty(1, 0.2f);
    if (f % 30 == 0) skeleton.set_bone_override(3, {BoneOverrideSpace::World, 5, 6, 20, 1, 1, 0.5f, kOverrideAll});
    if (f % 30 == 15) skeleton.set_bone_override(2, {BoneOverrideSpace::Local, 1, 2, 10, 1.2f, 1, 1, kOverrideRotation});
    if (f % 60 == 45) skeleton.clear_bone_overrides();
    skeleton.update(1.0f / 60);
    skeleton.drain([&](const FiredEvent&, int) { ++events; }, [&](const anim::TrackSignal&) { ++signals; });
  };

  for (int f = 0; f < 600; ++f) frame(f);  // warm-up: the pool holds the longest chain
  const std::size_t before = testing::allocation_count();
  for (int f = 600; f < 5600; ++f) frame(f);
  const std::size_t during = testing::allocation_count() - before;

  EXPECT_EQ(during, 0u) << "allocations in 5000 steady ticks";
  EXPECT_GT(events, 0u);
  EXPECT_GT(signals, 0u);
}

}  // namespace
}  // namespace mf::skel
