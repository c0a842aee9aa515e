// Thread scaling of the whole frame for crowds of one cooked rig: 200, 2,000 and 20,000 skeletons
// playing a looping clip from staggered start times, updated by mf::parallel::CrowdUpdater with 1, 2,
// 4, 8 and 16 threads. One benchmark iteration is one frame: every skeleton's tick (tracks advance,
// clip application, update order) and CPU vertices (CrowdUpdater::update), then a second pass that
// drains each skeleton's events and track signals. Wall time (UseRealTime).
//
// Links only the runtime, mf_parallel and Google Benchmark, so it runs on a machine with nothing but
// the build (.mbuild, from `mfe skel cook`):
//
//   parallel_bench [benchmark flags] <rig.mbuild> [clip]
//
// or with the path in MF_PARALLEL_BENCH_BUILD (and the clip in MF_PARALLEL_BENCH_CLIP). The clip
// defaults to "run", else the build's first clip. Results: docs/performance.md.

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "mf/parallel/crowd_updater.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "mf/skel/build_file.hpp"

namespace {

using namespace mf;

constexpr float kDelta = 1.0f / 60;
// Untimed frames before each measurement: the first frames fill every instance's caches.
constexpr int kWarmUpFrames = 3;

std::shared_ptr<skel::SkeletonData> g_data;
int g_clip = -1;

// One crowd per size, made at its first use and kept for every thread count (it plays on).
struct Crowd {
  std::vector<std::unique_ptr<skel::AnimatedSkeleton>> owned;
  std::vector<skel::AnimatedSkeleton*> skeletons;
};

Crowd& crowd_of(int count) {
  static std::map<int, Crowd> crowds;
  Crowd& c = crowds[count];
  if (c.skeletons.empty()) {
    const float length = g_data->clips[static_cast<std::size_t>(g_clip)].length;
    for (int i = 0; i < count; ++i) {
      c.owned.push_back(std::make_unique<skel::AnimatedSkeleton>(*g_data));
      skel::AnimatedSkeleton& s = *c.owned.back();
      if (auto* entry = s.tracks().entry(s.tracks().set_clip(0, g_clip, true)))
        entry->set_track_time(length * static_cast<float>(i) / static_cast<float>(count));
      c.skeletons.push_back(&s);
    }
  }
  return c;
}

void frame(parallel::CrowdUpdater& updater, Crowd& crowd) {
  updater.update(crowd.skeletons, kDelta, skel::FrameContext{}, parallel::CpuVerticesStage::Compute);
  updater.for_each(crowd.skeletons.size(), [&](std::size_t i) {
    crowd.skeletons[i]->drain([](const skel::FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
  });
}

// range(0): skeletons, range(1): threads.
void BM_CrowdFrame(benchmark::State& state) {
  Crowd& crowd = crowd_of(static_cast<int>(state.range(0)));
  parallel::CrowdUpdater updater(static_cast<int>(state.range(1)));
  for (int f = 0; f < kWarmUpFrames; ++f) frame(updater, crowd);
  for (auto _ : state) frame(updater, crowd);
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["threads_used"] = static_cast<double>(updater.concurrency());  // capped by TBB's limit
}

BENCHMARK(BM_CrowdFrame)
    ->ArgNames({"skeletons", "threads"})
    ->ArgsProduct({{200, 2000, 20000}, {1, 2, 4, 8, 16}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const char* env_path = std::getenv("MF_PARALLEL_BENCH_BUILD");
  const char* env_clip = std::getenv("MF_PARALLEL_BENCH_CLIP");
  const std::string path = argc > 1 ? argv[1] : env_path ? env_path : "";
  std::string clip = argc > 2 ? argv[2] : env_clip ? env_clip : "";
  if (path.empty()) {
    std::fprintf(stderr, "usage: %s [benchmark flags] <rig.mbuild> [clip]   (or MF_PARALLEL_BENCH_BUILD)\n", argv[0]);
    return 2;
  }
  auto loaded = skel::load_build_file(path);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return 1;
  }
  g_data = *loaded;
  if (g_data->clips.empty()) {
    std::fprintf(stderr, "%s: the build has no clips\n", path.c_str());
    return 1;
  }
  if (clip.empty()) clip = g_data->find_clip("run") >= 0 ? "run" : g_data->clips.front().name;
  g_clip = g_data->find_clip(clip);
  if (g_clip < 0 || !g_data->load_clip(g_clip).ok()) {
    std::fprintf(stderr, "%s: no loadable clip \"%s\"\n", path.c_str(), clip.c_str());
    return 1;
  }
  benchmark::AddCustomContext("rig", path);
  benchmark::AddCustomContext("clip", clip);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
