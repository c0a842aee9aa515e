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

#include <ctime>
#include <cstdio>
#include <memory>
#include <vector>

#include "mf/render/device.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/world_transform.hpp"
#include "synthetic_rig.hpp"

namespace {

using namespace mf;
// Thread CPU time, so a loaded machine's descheduling does not count.
struct Clock {
  static double now() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
  }
};
double ms_since(double start) { return Clock::now() - start; }

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
  render::DeviceOptions device_options;
  auto device = render::Device::create(device_options);
  if (!device) {
    state.SkipWithError(device.error().to_string().c_str());
    return;
  }
  render::GpuMemory memory(**device);
  render::RendererOptions options;
  options.timestamps = true;
  auto renderer = render::SkeletonRenderer::create(**device, memory, options);
  auto target = render::RenderTarget::create(**device, memory, 512, 512);
  if (!renderer || !target) {
    state.SkipWithError("cannot create the renderer or its target");
    return;
  }
  auto handle = (*renderer)->add_data(data);
  if (!handle) {
    state.SkipWithError(handle.error().to_string().c_str());
    return;
  }
  std::vector<skel::SkeletonInstance> skeletons;
  std::vector<render::InstanceHandle> instances;
  std::vector<render::DrawOptions> placements;
  skeletons.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    skeletons.emplace_back(data);
    instances.push_back(*(*renderer)->add_instance(*handle));
    render::DrawOptions placement;
    placement.transform = render::Affine2::translation(static_cast<float>(40 + (i % 20) * 22), static_cast<float>(60 + (i / 20) * 45)) *
                          render::Affine2::scale(0.25f, 0.25f);
    placements.push_back(placement);
  }
  const int clip = data.find_clip("move");
  // Culling by the playing clip's conservative bounds (ClipData::bounds), as a game would: pose
  // bounds cost a CPU pass over every vertex.
  if (const skel::ClipData* clip_data = data.clip(clip); clip_data && !clip_data->bounds.empty())
    for (render::DrawOptions& placement : placements) placement.cull_bounds = clip_data->bounds;
  skel::ClipSampler sampler(data);
  skel::EventBuffer events;
  double update_ms = 0, draw_ms = 0, record_ms = 0, gpu_ms = 0;
  int gpu_samples = 0;
  int frame = 0;
  // One frame; false when it failed (the state then says why).
  auto run_frame = [&]() -> bool {
    auto t0 = Clock::now();
    for (int i = 0; i < count; ++i) {
      const float t = static_cast<float>(i) * 0.0137f + static_cast<float>(frame) / 60;
      const anim::ClipSample s = skel::loop_sample(data, clip, t - 1.0f / 60, t);
      events.clear();
      skel::SkeletonPose& pose = skeletons[static_cast<std::size_t>(i)].pose();
      sampler.apply(pose, {&s, 1}, events);
      skel::update_world_transforms(pose);
    }
    update_ms += ms_since(t0);
    if (!(*renderer)->begin_frame(**target, {}, {0, 0, 0, 1})) {
      state.SkipWithError("begin_frame failed");
      return false;
    }
    auto t1 = Clock::now();
    for (int i = 0; i < count; ++i)
      if (!(*renderer)->draw(instances[static_cast<std::size_t>(i)], skeletons[static_cast<std::size_t>(i)].pose(),
                             placements[static_cast<std::size_t>(i)])) {
        state.SkipWithError("draw failed");
        return false;
      }
    draw_ms += ms_since(t1);
    auto t2 = Clock::now();
    if (!(*renderer)->end_frame()) {
      state.SkipWithError("end_frame failed");
      return false;
    }
    record_ms += ms_since(t2);
    if (auto gpu = (*renderer)->last_skinning_gpu_ms(); gpu && frame > 2) {
      gpu_ms += *gpu;
      ++gpu_samples;
    }
    ++frame;
    return true;
  };
  constexpr int kWarmUpFrames = 4;  // two rounds of the frame ring
  for (int i = 0; i < kWarmUpFrames; ++i)
    if (!run_frame()) return;
  update_ms = draw_ms = record_ms = gpu_ms = 0;
  gpu_samples = 0;
  for (auto _ : state)
    if (!run_frame()) return;
  (void)(*renderer)->wait_idle();
  const double frames = static_cast<double>(state.iterations());
  state.counters["update_ms"] = update_ms / frames;
  state.counters["draw_ms"] = draw_ms / frames;
  state.counters["record_ms"] = record_ms / frames;
  if (gpu_samples > 0) state.counters["skinning_gpu_ms"] = gpu_ms / gpu_samples;
  state.counters["drawn"] = (*renderer)->stats().skeletons_drawn;
  state.counters["draw_calls"] = (*renderer)->stats().draw_calls;
  state.counters["run_rebuilds"] = (*renderer)->stats().run_rebuilds;  // of the last frame: 0 once warm
  state.counters["gpu_vertices"] = (*renderer)->stats().gpu_vertices;
  state.SetLabel((*device)->name());
}
BENCHMARK(BM_RenderFrame)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
