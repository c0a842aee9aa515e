// The parallel update allocates nothing through the global operator new per frame: after a warm-up,
// 300 frames of a crowd of the feature rig ticked with 4 threads (tracks, crossfades, constraints,
// CPU vertices, events drained in parallel) must count zero. TBB's own task objects come from its
// allocator (tbbmalloc or malloc), which this count does not see: docs/performance.md says what was
// measured there.

#include <gtest/gtest.h>

#include "counting_new.hpp"
#include "crowd.hpp"
#include "mf/parallel/crowd_updater.hpp"
#include "synthetic_rig.hpp"

namespace mf::parallel {
namespace {

TEST(ParallelAllocation, SteadyFramesAllocateNothingThroughOperatorNew) {
  const auto built = testing::build_synthetic(testing::make_feature_rig());
  testing::Crowd crowd(*built.data, 32);
  for (int threads : {1, 4}) {
    CrowdUpdater updater(threads);
    auto frame = [&](int f) {
      crowd.prepare(f);
      updater.update_per_skeleton(crowd.skeletons(), testing::Crowd::kDelta, crowd.contexts(), CpuVerticesStage::Compute);
      updater.for_each(crowd.skeletons().size(), [&](std::size_t i) {
        crowd.skeletons()[i]->drain([](const skel::FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
      });
    };
    for (int f = 0; f < 100; ++f) frame(f);  // warm-up: the crossfade, every key and loop seen once
    const std::size_t before = mf::testing::allocation_count();
    for (int f = 100; f < 400; ++f) frame(f);
    EXPECT_EQ(mf::testing::allocation_count() - before, 0u) << "operator new calls in 300 frames, " << threads << " threads";
  }
}

}  // namespace
}  // namespace mf::parallel
