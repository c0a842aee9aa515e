// Runtime cost per frame on the proposal's mid-complexity rig (40 bones, 30 slots, 800 skinned
// vertices with 2–4 influences): clip sampling, world transforms (the update order), and CPU vertices,
// for one skeleton and for 200 with staggered start times; and the update order of the same rig with
// constraints.

#include <vector>

#include <benchmark/benchmark.h>

#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/world_transform.hpp"
#include "synthetic_rig.hpp"

namespace {

using namespace mf;

const offline::BuildResult& rig() {
  static const offline::BuildResult built = testing::build_synthetic(testing::make_mid_complexity_rig());
  return built;
}

const offline::BuildResult& constraint_rig() {
  static const offline::BuildResult built = testing::build_synthetic(testing::make_constraint_rig());
  return built;
}

struct Crowd {
  explicit Crowd(int count, const skel::SkeletonData& rig_data = *rig().data) : data(rig_data), clip(data.find_clip("move")) {
    for (int i = 0; i < count; ++i) {
      instances.emplace_back(data);
      offsets.push_back(static_cast<float>(i) * 0.0137f);
    }
  }
  anim::ClipSample sample(int i, int frame) const {
    const float t = offsets[static_cast<std::size_t>(i)] + static_cast<float>(frame) / 60;
    return skel::loop_sample(data, clip, t - 1.0f / 60, t);
  }
  const skel::SkeletonData& data;
  int clip;
  std::vector<skel::SkeletonInstance> instances;
  std::vector<float> offsets;
};

void BM_Sampling(benchmark::State& state) {
  Crowd crowd(static_cast<int>(state.range(0)));
  skel::ClipSampler sampler(crowd.data);
  skel::EventBuffer events;
  int frame = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < crowd.instances.size(); ++i) {
      const anim::ClipSample s = crowd.sample(static_cast<int>(i), frame);
      events.clear();
      sampler.apply(crowd.instances[i].pose(), {&s, 1}, events);
    }
    ++frame;
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_WorldTransforms(benchmark::State& state) {
  Crowd crowd(static_cast<int>(state.range(0)));
  skel::ClipSampler sampler(crowd.data);
  skel::EventBuffer events;
  int frame = 0;
  for (auto _ : state) {
    state.PauseTiming();
    for (std::size_t i = 0; i < crowd.instances.size(); ++i) {
      const anim::ClipSample s = crowd.sample(static_cast<int>(i), frame);
      events.clear();
      sampler.apply(crowd.instances[i].pose(), {&s, 1}, events);
    }
    ++frame;
    state.ResumeTiming();
    for (auto& instance : crowd.instances) skel::update_world_transforms(instance.pose());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_CpuVertices(benchmark::State& state) {
  Crowd crowd(static_cast<int>(state.range(0)));
  int frame = 0;
  for (auto& instance : crowd.instances) {
    const anim::ClipSample s = crowd.sample(0, frame);
    instance.update({&s, 1});
  }
  for (auto _ : state) {
    for (auto& instance : crowd.instances) benchmark::DoNotOptimize(instance.vertices().vertices().data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_WholeFrame(benchmark::State& state) {
  Crowd crowd(static_cast<int>(state.range(0)));
  int frame = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < crowd.instances.size(); ++i) {
      const anim::ClipSample s = crowd.sample(static_cast<int>(i), frame);
      crowd.instances[i].update({&s, 1});
      benchmark::DoNotOptimize(crowd.instances[i].vertices().vertices().data());
    }
    ++frame;
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The update order of the constraint rig: bones plus two two-bone IK chains, a transform, a path
// (four bones) and two physics constraints stepping at 60 Hz.
void BM_UpdateOrderWithConstraints(benchmark::State& state) {
  Crowd crowd(static_cast<int>(state.range(0)), *constraint_rig().data);
  skel::ClipSampler sampler(crowd.data);
  skel::EventBuffer events;
  skel::FrameContext context;
  context.delta = 1.0f / 60;
  int frame = 0;
  for (auto _ : state) {
    state.PauseTiming();
    for (std::size_t i = 0; i < crowd.instances.size(); ++i) {
      const anim::ClipSample s = crowd.sample(static_cast<int>(i), frame);
      events.clear();
      sampler.apply(crowd.instances[i].pose(), {&s, 1}, events);
    }
    ++frame;
    state.ResumeTiming();
    for (auto& instance : crowd.instances) skel::update_skeleton(instance.pose(), context);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_UpdateOrderWithConstraints)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sampling)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WorldTransforms)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CpuVertices)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WholeFrame)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
