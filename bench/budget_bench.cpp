// The proposal's frame budget for 200 skeletons on one thread (docs/performance.md, "The proposal's
// budget: where we stand"), one benchmark per budget line, each timing a frame of all 200:
//
//   BM_Budget_Playback/200       tracks + sampling, budget 1.0 ms: the mid-complexity rig (40 bones, 30
//                                slots, 800 skinned vertices), track 0 crossfading (0.5 s) between two
//                                clips, a new crossfade starting as soon as one completes, and track 1
//                                playing additively at alpha 0.5: AnimationTracks::update, the samples,
//                                the sampler applying them and the signals cleared.
//   BM_Budget_UpdateOrder/200    update order + constraints, budget 1.2 ms: the constraint rig (the
//                                mid-complexity rig with two IK chains, a transform, a path and two
//                                physics constraints) after its clip is applied (untimed).
//   BM_Budget_SpineboyFrame/200  the CPU side of a frame with compute skinning, budget 1 ms: 200
//                                spineboys (Spine's example, imported at run time) playing "run":
//                                runtime update (sampling, update order with spineboy's IK and
//                                transform constraints) + SkeletonRenderer::draw (palette, slot records,
//                                canvas append) + end_frame (recording, submission); thread CPU time
//                                per frame in the counters (cpu_ms = update_ms + draw_ms + record_ms):
//                                GPU work and the driver's threads are excluded.
//
//   MF_VULKAN_DEVICE=llvmpipe build/release/bin/budget_bench --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true   (one line)
//
// Spineboy is under Spine's licence and never part of the repository: MF_SPINE_EXAMPLES_DIR names the
// folder holding spineboy/spineboy-pro.json and its atlas (default: ../shared/spine-examples beside the
// repository); without it the spineboy benchmark is skipped with a message saying so.

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include <benchmark/benchmark.h>

#include "mf/anim/animation_tracks.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/import/spine/spine_import.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "render_crowd.hpp"
#include "synthetic_rig.hpp"

namespace {

namespace fs = std::filesystem;
using namespace mf;

constexpr float kFrame = 1.0f / 60;

// The mid-complexity rig with a second clip for the crossfade: "alt", "move" with every rotation
// mirrored.
const skel::SkeletonData& two_clip_rig() {
  static const offline::BuildResult built = [] {
    testing::SyntheticRig rig = testing::make_mid_complexity_rig();
    offline::ClipSource alt = rig.clips[0].second;
    alt.uid = "anm_00000000b0d9";
    for (offline::CurveTimeline& t : alt.curves)
      if (t.kind == offline::CurveKind::Rotate)
        for (float& v : t.values) v = -v;
    rig.clips.emplace_back("alt", std::move(alt));
    return testing::build_synthetic(rig);
  }();
  return *built.data;
}

void BM_Budget_Playback(benchmark::State& state) {
  const skel::SkeletonData& data = two_clip_rig();
  const int clips[2] = {data.find_clip("move"), data.find_clip("alt")};
  const std::vector<float> lengths{data.clips[0].length, data.clips[1].length};
  struct Character {
    skel::SkeletonPose pose;
    anim::AnimationTracks tracks;
    int playing = 0;
  };
  std::vector<std::unique_ptr<Character>> crowd;
  for (int i = 0; i < state.range(0); ++i) {
    auto& c = *crowd.emplace_back(new Character{skel::SkeletonPose(data), anim::AnimationTracks(lengths, static_cast<int>(data.bones.size()))});
    c.tracks.set_default_mix(0.5f);
    c.tracks.set_clip(0, clips[0], true);
    anim::TrackEntry* layer = c.tracks.entry(c.tracks.set_clip(1, clips[0], true));
    layer->set_blend(anim::ClipBlend::Additive);
    layer->set_alpha(0.5f);
    c.tracks.update(static_cast<float>(i) * 0.0137f);  // each character at its own phase
    // Sampled once before the loop: set_clip replaces a current entry never sampled instead of mixing
    // from it, and the replacement's mix fraction would then stay 0, so no crossfade would ever start.
    (void)c.tracks.samples();
    c.tracks.clear_signals();
  }
  skel::ClipSampler sampler(data);
  skel::EventBuffer events;
  std::size_t samples = 0;
  for (auto _ : state) {
    for (auto& c : crowd) {
      const anim::TrackEntry* current = c->tracks.entry(c->tracks.current(0));
      if (current && current->mix_fraction() >= 1) c->tracks.set_clip(0, clips[c->playing ^= 1], true);
      c->tracks.update(kFrame);
      events.clear();
      sampler.apply(c->pose, c->tracks.samples(), events);
      samples += c->tracks.samples().size();
      c->tracks.clear_signals();
    }
  }
  state.counters["samples_per_skeleton"] =
      static_cast<double>(samples) / static_cast<double>(state.iterations() * static_cast<std::size_t>(state.range(0)));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_Budget_UpdateOrder(benchmark::State& state) {
  static const offline::BuildResult built = testing::build_synthetic(testing::make_constraint_rig());
  const skel::SkeletonData& data = *built.data;
  const int clip = data.find_clip("move");
  std::vector<skel::SkeletonInstance> crowd;
  for (int i = 0; i < state.range(0); ++i) crowd.emplace_back(data);
  const skel::FrameContext context{.delta = kFrame};
  int frame = 0;
  for (auto _ : state) {
    state.PauseTiming();
    for (std::size_t i = 0; i < crowd.size(); ++i) {
      const float t = static_cast<float>(i) * 0.0137f + static_cast<float>(frame) * kFrame;
      const anim::ClipSample sample = skel::loop_sample(data, clip, t - kFrame, t);
      crowd[i].apply({&sample, 1});
    }
    ++frame;
    state.ResumeTiming();
    for (skel::SkeletonInstance& skeleton : crowd) skel::update_skeleton(skeleton.pose(), context);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Spineboy imported into a temporary folder and built (pages as PNG, as a game's build has them);
// null with `why` set when the export is not there.
std::shared_ptr<skel::SkeletonData> spineboy(std::string& why) {
  const char* env = std::getenv("MF_SPINE_EXAMPLES_DIR");
  const fs::path json = fs::path(env && *env ? env : MF_SPINE_EXAMPLES_DEFAULT) / "spineboy" / "spineboy-pro.json";
  if (!fs::is_regular_file(json)) {
    why = json.string() + " not found: set MF_SPINE_EXAMPLES_DIR to the folder holding Spine's spineboy/ export";
    return nullptr;
  }
  auto imported = offline::import_spine({json.string(), {}});
  if (!imported) return why = imported.error().to_string(), nullptr;
  const fs::path dir = fs::temp_directory_path() / ("mf_budget_bench_" + std::to_string(::getpid()));
  auto written = offline::write_spine_import(*imported, dir.string());
  auto built = written ? offline::build_rig_file((dir / (imported->name + ".mskel")).string())
                       : Expected<offline::BuildResult>(Unexpected{written.error()});
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  if (!built) return why = built.error().to_string(), nullptr;
  return built->data;
}

void BM_Budget_SpineboyFrame(benchmark::State& state) {
  static std::string why;
  static const std::shared_ptr<skel::SkeletonData> data = spineboy(why);
  if (!data) return state.SkipWithError(("spineboy: " + why).c_str());
  const int clip = data->find_clip("run");
  const int count = static_cast<int>(state.range(0));
  const skel::ClipData* clip_data = data->clip(clip);
  bench::RenderCrowd crowd;
  // 20 × 10 spineboys about 45 px tall in the 512 × 512 target, culled by the clip's bounds.
  if (const std::string error = crowd.create(*data, count, {.x0 = 14, .y0 = 50, .dx = 25, .dy = 50, .scale = 0.065f},
                                             clip_data ? std::optional{clip_data->bounds} : std::nullopt);
      !error.empty())
    return state.SkipWithError(error.c_str());
  std::vector<skel::SkeletonInstance> skeletons;
  std::vector<const skel::SkeletonPose*> poses;
  skeletons.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) poses.push_back(&skeletons.emplace_back(*data).pose());
  const float length = data->clips[static_cast<std::size_t>(clip)].length;
  const skel::FrameContext context{.delta = kFrame};
  int frame = 0;
  const auto update = [&] {
    for (int i = 0; i < count; ++i) {
      const float t = length * static_cast<float>(i) / static_cast<float>(count) + static_cast<float>(frame) * kFrame;
      const anim::ClipSample sample = skel::loop_sample(*data, clip, t - kFrame, t);
      skeletons[static_cast<std::size_t>(i)].update({&sample, 1}, context);
    }
    ++frame;
  };
  const bench::FrameTimes times = crowd.run(state, update, poses);
  state.counters["cpu_ms"] = times.update_ms + times.draw_ms + times.record_ms;
}

BENCHMARK(BM_Budget_Playback)->Arg(200)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Budget_UpdateOrder)->Arg(200)->Unit(benchmark::kMillisecond);
// Lavapipe takes about 0.1 s to rasterise a frame here: 3 s gives each repetition some 30 frames.
BENCHMARK(BM_Budget_SpineboyFrame)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3);

}  // namespace

BENCHMARK_MAIN();
