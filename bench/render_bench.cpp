// The renderer's cost per frame for 200 mid-complexity skeletons (40 bones, 30 slots, 800 skinned
// vertices each; tests/support/synthetic_rig.hpp) through the whole path: runtime update (clip
// sampling and world transforms), uploads and canvas append (SkeletonRenderer::draw: palette, slot
// records, deform, jobs, rebased indices), and command recording and submission (end_frame). The
// GPU time of the skinning dispatch comes from timestamp queries.
//
// Counters (per frame, milliseconds of thread CPU time unless named gpu): update_ms, draw_ms (uploads +
// canvas append for all skeletons), record_ms (end_frame), skinning_gpu_ms. The wait for a free
// frame slot (begin_frame) is left out: on lavapipe it is the CPU rasterising the previous frame.
// A few untimed frames come first, so the figures are the steady state: the first frame builds every
// instance's cached runs and the first use of each frame slot touches fresh upload memory and grows
// the per-frame lists, costs a frame loop pays once (a run takes only a handful of frames on lavapipe).
// MF_VULKAN_DEVICE picks the device (e.g. "llvmpipe" or a GPU's name).

#include <benchmark/benchmark.h>

#include <vector>

#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/world_transform.hpp"
#include "render_crowd.hpp"
#include "synthetic_rig.hpp"

namespace {

using namespace mf;

// The mid-complexity rig with white 64 × 64 RGBA8 pixels on every page (the synthetic build has
// sizes only).
const skel::SkeletonData& rig_with_pixels() {
  static const offline::BuildResult built = testing::build_synthetic(testing::make_mid_complexity_rig());
  static skel::SkeletonData data = [] {
    skel::SkeletonData copy = *built.data;
    for (skel::Page& page : copy.pages) {
      page.encoding = skel::PageEncoding::Rgba8;
      page.bytes.assign(static_cast<std::size_t>(page.width) * static_cast<std::size_t>(page.height) * 4, 255);
    }
    return copy;
  }();
  return data;
}

void BM_RenderFrame(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  const skel::SkeletonData& data = rig_with_pixels();
  const int clip = data.find_clip("move");
  // Culling by the playing clip's conservative bounds (ClipData::bounds), as a game would: pose
  // bounds cost a CPU pass over every vertex.
  const skel::ClipData* clip_data = data.clip(clip);
  render::RendererOptions options;
  options.timestamps = true;
  bench::RenderCrowd crowd;
  if (const std::string error = crowd.create(data, count, {.x0 = 40, .y0 = 60, .dx = 22, .dy = 45, .scale = 0.25f},
                                             clip_data ? std::optional{clip_data->bounds} : std::nullopt, options);
      !error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  std::vector<skel::SkeletonInstance> skeletons;
  std::vector<const skel::SkeletonPose*> poses;
  skeletons.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) poses.push_back(&skeletons.emplace_back(data).pose());
  skel::ClipSampler sampler(data);
  skel::EventBuffer events;
  int frame = 0;
  const auto update = [&] {
    for (int i = 0; i < count; ++i) {
      const float t = static_cast<float>(i) * 0.0137f + static_cast<float>(frame) / 60;
      const anim::ClipSample s = skel::loop_sample(data, clip, t - 1.0f / 60, t);
      events.clear();
      skel::SkeletonPose& pose = skeletons[static_cast<std::size_t>(i)].pose();
      sampler.apply(pose, {&s, 1}, events);
      skel::update_world_transforms(pose);
    }
    ++frame;
  };
  crowd.run(state, update, poses);
}
BENCHMARK(BM_RenderFrame)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
