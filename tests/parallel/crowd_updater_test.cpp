// CrowdUpdater: a crowd of 64 skeletons of the constraint and feature rigs (IK, transform, path and
// physics constraints, staggered start times, crossfades, a second skin) updated for 120 frames gives
// bit-identical poses and CPU vertices with 1, 2, 4 and 16 threads; with 1 thread the updater is
// plain sequential AnimatedSkeleton::update on the calling thread; for_each visits every index once.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "crowd.hpp"
#include "mf/parallel/crowd_updater.hpp"
#include "synthetic_rig.hpp"

namespace mf::parallel {
namespace {

using testing::Crowd;

constexpr int kSkeletons = 64;
constexpr int kFrames = 120;

const offline::BuildResult& constraint_rig() {
  static const offline::BuildResult built = testing::build_synthetic(testing::make_constraint_rig());
  return built;
}

const offline::BuildResult& feature_rig() {
  static const offline::BuildResult built = testing::build_synthetic(testing::make_feature_rig());
  return built;
}

// Frame by frame hashes of the whole crowd, ticked by an updater of `threads` threads, events and
// signals drained in parallel after each tick.
std::vector<std::uint64_t> run(const skel::SkeletonData& data, int threads) {
  Crowd crowd(data, kSkeletons);
  CrowdUpdater updater(threads);
  std::vector<std::uint64_t> hashes;
  for (int f = 0; f < kFrames; ++f) {
    crowd.prepare(f);
    updater.update_per_skeleton(crowd.skeletons(), Crowd::kDelta, crowd.contexts(), CpuVerticesStage::Compute);
    updater.for_each(crowd.skeletons().size(), [&](std::size_t i) {
      crowd.skeletons()[i]->drain([](const skel::FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
    });
    hashes.push_back(crowd.hash());
  }
  return hashes;
}

// The same frames with no updater: each skeleton's update and vertices in a plain loop.
std::vector<std::uint64_t> run_sequential(const skel::SkeletonData& data) {
  Crowd crowd(data, kSkeletons);
  std::vector<std::uint64_t> hashes;
  for (int f = 0; f < kFrames; ++f) {
    crowd.prepare(f);
    for (std::size_t i = 0; i < crowd.skeletons().size(); ++i) {
      skel::AnimatedSkeleton& s = *crowd.skeletons()[i];
      s.update(Crowd::kDelta, crowd.contexts()[i]);
      s.instance().vertices();
      s.drain([](const skel::FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
    }
    hashes.push_back(crowd.hash());
  }
  return hashes;
}

void expect_same_for_every_thread_count(const skel::SkeletonData& data) {
  const std::vector<std::uint64_t> one = run(data, 1);
  ASSERT_EQ(one.size(), static_cast<std::size_t>(kFrames));
  EXPECT_NE(one.front(), one.back()) << "the crowd moved";
  for (int threads : {2, 4, 16}) {
    const std::vector<std::uint64_t> many = run(data, threads);
    for (int f = 0; f < kFrames; ++f)
      ASSERT_EQ(many[static_cast<std::size_t>(f)], one[static_cast<std::size_t>(f)])
          << threads << " threads differ from 1 at frame " << f;
  }
}

TEST(CrowdUpdater, ConstraintRigIsBitIdenticalForEveryThreadCount) {
  expect_same_for_every_thread_count(*constraint_rig().data);
}

TEST(CrowdUpdater, FeatureRigIsBitIdenticalForEveryThreadCount) {
  expect_same_for_every_thread_count(*feature_rig().data);
}

TEST(CrowdUpdater, OneThreadIsSequentialUpdate) {
  for (const offline::BuildResult* built : {&constraint_rig(), &feature_rig()})
    EXPECT_EQ(run(*built->data, 1), run_sequential(*built->data));
}

TEST(CrowdUpdater, SharedContextEqualsOneContextPerSkeleton) {
  const skel::SkeletonData& data = *constraint_rig().data;
  Crowd a(data, 8), b(data, 8);
  CrowdUpdater updater(4);
  const std::vector<skel::FrameContext> same(8);
  for (int f = 0; f < 20; ++f) {
    updater.update(a.skeletons(), Crowd::kDelta, skel::FrameContext{}, CpuVerticesStage::Compute);
    updater.update_per_skeleton(b.skeletons(), Crowd::kDelta, same, CpuVerticesStage::Compute);
  }
  EXPECT_EQ(a.hash(), b.hash());
}

TEST(CrowdUpdater, OneThreadRunsInOrderOnTheCallingThread) {
  CrowdUpdater updater(1);
  EXPECT_EQ(updater.threads(), 1);
  EXPECT_EQ(updater.concurrency(), 1);
  std::vector<std::size_t> order;
  bool elsewhere = false;
  const std::thread::id caller = std::this_thread::get_id();
  updater.for_each(100, [&](std::size_t i) {
    order.push_back(i);
    elsewhere = elsewhere || std::this_thread::get_id() != caller;
  });
  ASSERT_EQ(order.size(), 100u);
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i);
  EXPECT_FALSE(elsewhere);
  EXPECT_EQ(CrowdUpdater(0).threads(), 1) << "below 1 is taken as 1";
}

TEST(CrowdUpdater, ForEachVisitsEveryIndexOnce) {
  for (int threads : {2, 4, 16}) {
    for (std::size_t grain : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
      CrowdUpdater updater(threads, grain);
      EXPECT_GE(updater.concurrency(), 1);
      EXPECT_LE(updater.concurrency(), threads);
      for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{1000}}) {
        std::vector<std::atomic<int>> visits(count);
        updater.for_each(count, [&](std::size_t i) { visits[i].fetch_add(1, std::memory_order_relaxed); });
        for (std::size_t i = 0; i < count; ++i)
          ASSERT_EQ(visits[i].load(), 1) << threads << " threads, grain " << grain << ", count " << count << ", index " << i;
      }
    }
  }
}

TEST(CrowdUpdater, RangesAreContiguousAndAtMostTheGrain) {
  CrowdUpdater updater(4, 10);
  std::vector<std::atomic<int>> covered(1000);
  std::atomic<bool> too_long{false};
  updater.for_each_range(covered.size(), [&](std::size_t begin, std::size_t end) {
    if (end - begin > 10 || end <= begin) too_long = true;
    for (std::size_t i = begin; i < end; ++i) covered[i].fetch_add(1, std::memory_order_relaxed);
  });
  EXPECT_FALSE(too_long.load());
  for (std::size_t i = 0; i < covered.size(); ++i) ASSERT_EQ(covered[i].load(), 1) << i;
}

}  // namespace
}  // namespace mf::parallel
