// The runtime allocates nothing per frame. Global operator new and delete are replaced by counting
// versions; after load and a warm-up, thousands of frames with every runtime feature in use (two
// layers with crossfading weights, skins switching among combinations already composed, sequences,
// attachment and draw-order keys, deform, events, clipping, code-set attachments, and IK, transform,
// path and physics constraints with IK and reset keys) must allocate zero times.

#include <gtest/gtest.h>

#include "counting_new.hpp"

#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"
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

  std::size_t events = 0, clipped_runs = 0;
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
  };

  for (int f = 0; f < 200; ++f) frame(f);  // warm-up: every skin, key and loop seen once
  const std::size_t before = testing::allocation_count();
  for (int f = 200; f < 5200; ++f) frame(f);
  const std::size_t during = testing::allocation_count() - before;

  EXPECT_EQ(during, 0u) << "allocations in 5000 steady frames";
  EXPECT_GT(events, 0u) << "the frames fired events";
  EXPECT_GT(clipped_runs, 0u) << "the frames clipped slots";
}

}  // namespace
}  // namespace mf::skel
