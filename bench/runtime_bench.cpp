// Runtime cost per frame on the proposal's mid-complexity rig (40 bones, 30 slots, 800 skinned
// vertices with 2–4 influences): clip sampling, world transforms (the update order), and CPU vertices,
// for one skeleton and for 200 with staggered start times; and the update order of the same rig with
// constraints.

#include <vector>

#include <benchmark/benchmark.h>

#include "mf/anim/animation_tracks.hpp"
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

const offline::BuildResult& feature_rig() {
  static const offline::BuildResult built = testing::build_synthetic(testing::make_feature_rig());
  return built;
}

struct Crowd {
  explicit Crowd(int count, const skel::SkeletonData& rig_data = *rig().data) : data(rig_data), clip(data.find_clip("move")) {
    for (int i = 0; i < count; ++i) {
      instances.emplace_back(data);
      offsets.push_back(static_cast<float>(i) * 0.0137f);
    }
  }
  // Applies every skeleton's clip sample for `frame` through one sampler.
  void apply_frame(skel::ClipSampler& sampler, skel::EventBuffer& events, int frame) {
    for (std::size_t i = 0; i < instances.size(); ++i) {
      const anim::ClipSample s = sample(static_cast<int>(i), frame);
      events.clear();
      sampler.apply(instances[i].pose(), {&s, 1}, events);
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
    crowd.apply_frame(sampler, events, frame++);
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
    crowd.apply_frame(sampler, events, frame++);
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
    crowd.apply_frame(sampler, events, frame++);
    state.ResumeTiming();
    for (auto& instance : crowd.instances) skel::update_skeleton(instance.pose(), context);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Playback through AnimationTracks on the feature rig (the mid-complexity rig's bones, slots and
// clip "move", plus clip "alt"): track 0 switches between "move" and "alt" with a 0.5 s crossfade as
// soon as the previous crossfade completes, so nearly every frame mixes two entries; track 1 plays
// "move" additively at alpha 0.5. Timed: tracks.update, the samples, the sampler applying them and
// clearing the signals; not the update order.
void BM_TwoTrackMix(benchmark::State& state) {
  const skel::SkeletonData& data = *feature_rig().data;
  const int clips[2] = {data.find_clip("move"), data.find_clip("alt")};
  std::vector<float> lengths;
  for (const auto& clip : data.clips) lengths.push_back(clip.length);
  const int count = static_cast<int>(state.range(0));
  std::vector<skel::SkeletonPose> poses;
  std::vector<anim::AnimationTracks> tracks;
  std::vector<int> playing(static_cast<std::size_t>(count), 0);
  for (int i = 0; i < count; ++i) {
    poses.emplace_back(data);
    tracks.emplace_back(lengths, static_cast<int>(data.bones.size()));
    anim::AnimationTracks& t = tracks.back();
    t.set_default_mix(0.5f);
    t.set_clip(0, clips[0], true);
    const anim::TrackEntryHandle add = t.set_clip(1, clips[0], true);
    t.entry(add)->set_blend(anim::ClipBlend::Additive);
    t.entry(add)->set_alpha(0.5f);
    t.update(static_cast<float>(i) * 0.0137f);  // staggered phases
    t.clear_signals();
  }
  skel::ClipSampler sampler(data);
  skel::EventBuffer events;
  for (auto _ : state) {
    for (std::size_t i = 0; i < poses.size(); ++i) {
      anim::AnimationTracks& t = tracks[i];
      const anim::TrackEntry* current = t.entry(t.current(0));
      if (current && current->mix_fraction() >= 1) {
        playing[i] ^= 1;
        t.set_clip(0, clips[playing[i]], true);
      }
      t.update(1.0f / 60);
      events.clear();
      sampler.apply(poses[i], t.samples(), events);
      t.clear_signals();
    }
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_UpdateOrderWithConstraints)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sampling)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WorldTransforms)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CpuVertices)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WholeFrame)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwoTrackMix)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
