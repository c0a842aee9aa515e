// The scene host's per-frame cost for 200 Skeleton2D nodes on the mid-complexity rig (40 bones, 30
// slots, 800 skinned vertices; tests/support/synthetic_rig.hpp) playing its "move" clip with
// staggered start times, next to the same 200 skeletons updated bare (AnimatedSkeleton::update in a
// loop). The difference is what the host adds: the tree walk, the node's tick (time scale, the frame
// context from its global transform, teleport check), deferred signals and their delivery. Neither
// side computes vertices (drawing is the renderer's; see render_bench).
//
// Counter: ns_per_skeleton, CPU time per skeleton-frame.

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "synthetic_rig.hpp"

namespace {

using namespace mf;

constexpr int kCount = 200;
constexpr float kDelta = 1.0f / 60.0f;

std::shared_ptr<const skel::SkeletonData> rig() {
  static const offline::BuildResult built = testing::build_synthetic(testing::make_mid_complexity_rig());
  return built.data;
}

void BM_BareAnimatedSkeletons(benchmark::State& state) {
  const auto data = rig();
  const int clip = data->find_clip("move");
  std::vector<std::unique_ptr<skel::AnimatedSkeleton>> skeletons;
  for (int i = 0; i < kCount; ++i) {
    skeletons.push_back(std::make_unique<skel::AnimatedSkeleton>(*data));
    skeletons.back()->tracks().set_clip(0, clip, true);
    skeletons.back()->update(static_cast<float>(i) * 0.0137f);
  }
  long events = 0;
  for (auto _ : state) {
    for (auto& s : skeletons) {
      s->update(kDelta);
      s->drain([&](const skel::FiredEvent&, int) { ++events; }, [&](const anim::TrackSignal&) { ++events; });
    }
  }
  benchmark::DoNotOptimize(events);
  state.counters["ns_per_skeleton"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kCount, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_Skeleton2DNodes(benchmark::State& state) {
  const auto data = rig();
  scene::SceneTree tree;
  std::vector<scene::Skeleton2D*> nodes;
  long poses = 0;
  for (int i = 0; i < kCount; ++i) {
    auto node = std::make_unique<scene::Skeleton2D>("s" + std::to_string(i));
    if (!node->set_clip("move") || !node->set_data(data)) {
      state.SkipWithError("cannot bind the rig");
      return;
    }
    node->set_position({static_cast<float>(i % 20) * 60.0f, static_cast<float>(i / 20) * 80.0f});
    node->pose_updated.connect([&](scene::Skeleton2D*) { ++poses; });
    scene::Skeleton2D* added = *tree.root().add_child(std::move(node));
    added->animated()->update(static_cast<float>(i) * 0.0137f);  // staggered like the bare crowd
    nodes.push_back(added);
  }
  tree.advance(kDelta);  // warm-up: deferred lists reach their size
  for (auto _ : state) tree.advance(kDelta);
  benchmark::DoNotOptimize(poses);
  state.counters["ns_per_skeleton"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kCount, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_BareAnimatedSkeletons)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Skeleton2DNodes)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
