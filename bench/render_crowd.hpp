#pragma once
// A crowd of one skeleton data drawn by a SkeletonRenderer into a 512 × 512 offscreen target, for the
// benchmarks that measure a whole frame (render_bench, budget_bench): the device (MF_VULKAN_DEVICE
// picks it, e.g. "llvmpipe"), the renderer, the target, one renderer instance per skeleton laid out in
// a grid, and the frame loop with the thread CPU time of each part.

#include <benchmark/benchmark.h>

#include <ctime>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mf/render/device.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/bounds.hpp"
#include "mf/skel/skeleton_instance.hpp"

namespace mf::bench {

// CPU time of the calling thread in milliseconds: a loaded machine's descheduling, the GPU and the
// driver's own threads (lavapipe rasterises on worker threads) do not count.
inline double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// Skeleton i is drawn at (x0 + (i % columns)·dx, y0 + (i / columns)·dy), scaled by `scale`.
struct Grid {
  float x0 = 0, y0 = 0, dx = 0, dy = 0, scale = 1;
  int columns = 20;
};

// Thread CPU time per part, summed over the frames run.
struct FrameTimes {
  double update_ms = 0;  // the caller's runtime update of every skeleton
  double draw_ms = 0;    // SkeletonRenderer::draw of every skeleton: palette, slot records, deform, canvas append
  double record_ms = 0;  // end_frame: command recording and submission
  double gpu_ms = 0;     // the skinning dispatch's GPU time (timestamps), summed over gpu_samples frames
  int gpu_samples = 0;
  int frames = 0;
};

class RenderCrowd {
 public:
  // Creates everything for `count` skeletons of `data`, culled by `cull` (skeleton-space bounds, e.g. the
  // playing clip's ClipData::bounds) when given. Empty on success, else what failed.
  std::string create(const skel::SkeletonData& data, int count, const Grid& grid, const std::optional<skel::Bounds>& cull,
                     const render::RendererOptions& options = {}) {
    auto device = render::Device::create({});
    if (!device) return device.error().to_string();
    device_ = std::move(device).value();
    memory_ = std::make_unique<render::GpuMemory>(*device_);
    auto renderer = render::SkeletonRenderer::create(*device_, *memory_, options);
    auto target = render::RenderTarget::create(*device_, *memory_, 512, 512);
    if (!renderer || !target) return "cannot create the renderer or its target";
    renderer_ = std::move(renderer).value();
    target_ = std::move(target).value();
    auto handle = renderer_->add_data(data);
    if (!handle) return handle.error().to_string();
    for (int i = 0; i < count; ++i) {
      auto instance = renderer_->add_instance(*handle);
      if (!instance) return instance.error().to_string();
      instances_.push_back(*instance);
      render::DrawOptions placement;
      placement.transform = render::Affine2::translation(grid.x0 + static_cast<float>(i % grid.columns) * grid.dx,
                                                         grid.y0 + static_cast<float>(i / grid.columns) * grid.dy) *
                            render::Affine2::scale(grid.scale, grid.scale);
      if (cull && !cull->empty()) placement.cull_bounds = *cull;
      placements_.push_back(placement);
    }
    return {};
  }

  // One frame: `update` (the caller's runtime update of every skeleton), begin_frame, draw of every
  // pose (poses[i] is instance i's), end_frame; adds each part's thread CPU time to `times`. The wait
  // for a free frame slot in begin_frame is left out: on lavapipe it is the CPU rasterising an earlier
  // frame. Empty on success, else what failed.
  std::string frame(const std::function<void()>& update, std::span<const skel::SkeletonPose* const> poses, FrameTimes& times) {
    const double t0 = thread_cpu_ms();
    update();
    times.update_ms += thread_cpu_ms() - t0;
    if (!renderer_->begin_frame(*target_, {}, {0, 0, 0, 1})) return "begin_frame failed";
    const double t1 = thread_cpu_ms();
    for (std::size_t i = 0; i < poses.size(); ++i)
      if (!renderer_->draw(instances_[i], *poses[i], placements_[i])) return "draw failed";
    times.draw_ms += thread_cpu_ms() - t1;
    const double t2 = thread_cpu_ms();
    if (!renderer_->end_frame()) return "end_frame failed";
    times.record_ms += thread_cpu_ms() - t2;
    if (auto gpu = renderer_->last_skinning_gpu_ms(); gpu && times.frames > 2) {
      times.gpu_ms += *gpu;
      ++times.gpu_samples;
    }
    ++times.frames;
    return {};
  }

  // The benchmark's loop: a few untimed frames first (two rounds of the frame ring: every instance's
  // cached runs built, each frame slot's upload memory touched, the per-frame lists grown), then one
  // frame per iteration. Sets the counters (thread CPU time per frame: update_ms, draw_ms, record_ms;
  // skinning_gpu_ms with RendererOptions::timestamps; the last frame's drawn, draw_calls, run_rebuilds
  // (0 once warm), gpu_vertices, cpu_vertices) and the device's name as the label. Returns the times
  // per frame; on failure the state is skipped with the error.
  FrameTimes run(benchmark::State& state, const std::function<void()>& update, std::span<const skel::SkeletonPose* const> poses) {
    constexpr int kWarmUpFrames = 4;
    FrameTimes times;
    for (int i = 0; i < kWarmUpFrames; ++i)
      if (const std::string error = frame(update, poses, times); !error.empty()) {
        state.SkipWithError(error.c_str());
        return times;
      }
    times = {.frames = times.frames};
    for (auto _ : state)
      if (const std::string error = frame(update, poses, times); !error.empty()) {
        state.SkipWithError(error.c_str());
        return times;
      }
    (void)renderer_->wait_idle();
    const double frames = static_cast<double>(state.iterations());
    times.update_ms /= frames;
    times.draw_ms /= frames;
    times.record_ms /= frames;
    state.counters["update_ms"] = times.update_ms;
    state.counters["draw_ms"] = times.draw_ms;
    state.counters["record_ms"] = times.record_ms;
    if (times.gpu_samples > 0) state.counters["skinning_gpu_ms"] = times.gpu_ms / times.gpu_samples;
    const render::RenderStats& stats = renderer_->stats();
    state.counters["drawn"] = stats.skeletons_drawn;
    state.counters["draw_calls"] = stats.draw_calls;
    state.counters["run_rebuilds"] = stats.run_rebuilds;
    state.counters["gpu_vertices"] = stats.gpu_vertices;
    state.counters["cpu_vertices"] = stats.cpu_vertices;
    state.SetLabel(device_->name());
    return times;
  }

 private:
  std::unique_ptr<render::Device> device_;
  std::unique_ptr<render::GpuMemory> memory_;
  std::unique_ptr<render::SkeletonRenderer> renderer_;
  std::unique_ptr<render::RenderTarget> target_;
  std::vector<render::InstanceHandle> instances_;
  std::vector<render::DrawOptions> placements_;
};

}  // namespace mf::bench
