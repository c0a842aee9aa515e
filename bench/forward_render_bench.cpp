// The forward 3D renderer's cost per frame for 200 mid-complexity skeleton sprites (40 bones, 30
// slots, 800 skinned vertices each; tests/support/synthetic_rig.hpp) standing on a grid on a ground
// plane, lit by a sun with shadows, into a 1280 × 720 target: skinning, shadow map, depth prepass
// (always on) and main pass.
//
// Counters, per frame:
//   frame_ms   thread CPU time of the frame: every draw_sprite call (and the ground's draw_mesh) plus
//              end_frame (recording and submission); draw_ms and record_ms are its two parts;
//   update_ms  thread CPU time of the runtime update (clip sampling, world transforms), apart;
//   skinning_ms, shadow_ms, prepass_ms, main_ms  GPU time of each pass (last_pass_timings, timestamp
//              queries), averaged over the frames that had them;
//   shadow_draws, prepass_draws, main_draws  draw calls per pass; pipelines_per_frame (0: every
//              pipeline was made by create); sprites_drawn, sprites_culled, gpu_vertices, run_rebuilds.
// The wait for a free frame slot (begin_frame) is left out, and a few untimed frames come first, as
// in render_bench (bench/render_crowd.hpp). MF_VULKAN_DEVICE picks the device (e.g. "llvmpipe": there
// the GPU times measure the CPU rasteriser and mean nothing).

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "mf/render/device.hpp"
#include "mf/render/forward_renderer.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/world_transform.hpp"
#include "render_crowd.hpp"
#include "synthetic_rig.hpp"

namespace {

using namespace mf;

constexpr int kWidth = 1280, kHeight = 720;
constexpr int kColumns = 20;
constexpr float kSpacingX = 1.2f, kSpacingZ = 1.5f;  // metres between sprites on the grid
constexpr float kSpriteHeight = 1.6f;                // metres from the clip bounds' top to bottom

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

// The scene: device, renderer, target, the ground and one sprite instance per skeleton with its
// placement on the grid.
struct ForwardCrowd {
  std::unique_ptr<render::Device> device;
  std::unique_ptr<render::GpuMemory> memory;
  std::unique_ptr<render::ForwardRenderer> renderer;
  std::unique_ptr<render::RenderTarget> target;
  render::MeshHandle ground;
  render::MaterialHandle ground_material;
  std::vector<render::InstanceHandle> instances;
  std::vector<render::SpriteDrawOptions> placements;
  render::ForwardFrame frame;

  // Empty on success, else what failed.
  std::string create(const skel::SkeletonData& data, int count, const Bounds& bounds) {
    auto created = render::Device::create({});
    if (!created) return created.error().to_string();
    device = std::move(created).value();
    memory = std::make_unique<render::GpuMemory>(*device);
    render::ForwardOptions options;
    options.timestamps = true;
    auto made = render::ForwardRenderer::create(*device, *memory, options);
    if (!made) return made.error().to_string();
    renderer = std::move(made).value();
    auto made_target = render::RenderTarget::create(*device, *memory, kWidth, kHeight);
    if (!made_target) return made_target.error().to_string();
    target = std::move(made_target).value();

    const int rows = (count + kColumns - 1) / kColumns;
    const float width = static_cast<float>(kColumns - 1) * kSpacingX, depth = static_cast<float>(rows - 1) * kSpacingZ;
    auto plane = renderer->add_mesh(render::make_plane(width + 8, depth + 8, 8));
    if (!plane) return plane.error().to_string();
    ground = *plane;
    render::Material material;
    material.base_color = {0.55f, 0.6f, 0.5f, 1};
    material.specular = 0.05f;
    auto added_material = renderer->add_material(material);
    if (!added_material) return added_material.error().to_string();
    ground_material = *added_material;

    auto handle = renderer->add_data(data);
    if (!handle) return handle.error().to_string();
    // Skeleton space is Y down: the bounds' max_y is the feet, lifted onto the ground (y = 0).
    const float pixel_size = kSpriteHeight / (bounds.max_y - bounds.min_y);
    for (int i = 0; i < count; ++i) {
      auto instance = renderer->add_instance(*handle);
      if (!instance) return instance.error().to_string();
      instances.push_back(*instance);
      render::SpriteDrawOptions placement;
      placement.pixel_size = pixel_size;
      placement.billboard = render::SkeletonBillboard::Y;
      placement.cull_bounds = bounds;
      placement.object_id = static_cast<std::uint32_t>(i + 1);
      placement.transform = Mat4::translation({static_cast<float>(i % kColumns) * kSpacingX - width / 2, bounds.max_y * pixel_size,
                                               static_cast<float>(i / kColumns) * kSpacingZ - depth / 2});
      placements.push_back(placement);
    }

    frame.camera = render::Camera::orbit({0, 0.8f, 0}, 0, 30, 20);
    frame.lights.ambient = {0.35f, 0.35f, 0.4f, 1};
    frame.lights.sun = render::DirectionalLight{};
    frame.clear = {0.5f, 0.6f, 0.75f, 1};
    return {};
  }
};

struct FrameTimes {
  double update_ms = 0, draw_ms = 0, record_ms = 0;
  render::PassTimings gpu;
  int gpu_samples = 0;
  double pipelines_created = 0;
};

void BM_ForwardFrame(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  const skel::SkeletonData& data = rig_with_pixels();
  const int clip = data.find_clip("move");
  const skel::ClipData* clip_data = clip >= 0 ? data.clip(clip) : nullptr;
  if (!clip_data || clip_data->bounds.empty()) {
    state.SkipWithError("the synthetic rig has no clip \"move\" with bounds");
    return;
  }
  ForwardCrowd crowd;
  if (const std::string error = crowd.create(data, count, clip_data->bounds); !error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  std::vector<skel::SkeletonInstance> skeletons;
  skeletons.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) skeletons.emplace_back(data);
  skel::ClipSampler sampler(data);
  skel::EventBuffer events;
  int frame_number = 0;

  FrameTimes times;
  // One frame; empty on success, else what failed.
  const auto frame = [&]() -> std::string {
    const double t0 = bench::thread_cpu_ms();
    for (int i = 0; i < count; ++i) {
      const float t = static_cast<float>(i) * 0.0137f + static_cast<float>(frame_number) / 60;
      const anim::ClipSample s = skel::loop_sample(data, clip, t - 1.0f / 60, t);
      events.clear();
      skel::SkeletonPose& pose = skeletons[static_cast<std::size_t>(i)].pose();
      sampler.apply(pose, {&s, 1}, events);
      skel::update_world_transforms(pose);
    }
    ++frame_number;
    times.update_ms += bench::thread_cpu_ms() - t0;
    if (const Status begun = crowd.renderer->begin_frame(*crowd.target, crowd.frame); !begun) return begun.error().to_string();
    const double t1 = bench::thread_cpu_ms();
    for (int i = 0; i < count; ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (const Status drawn = crowd.renderer->draw_sprite(crowd.instances[u], skeletons[u].pose(), crowd.placements[u]); !drawn)
        return drawn.error().to_string();
    }
    if (const Status drawn = crowd.renderer->draw_mesh(crowd.ground, crowd.ground_material, Mat4::identity()); !drawn)
      return drawn.error().to_string();
    const double t2 = bench::thread_cpu_ms();
    if (const Status ended = crowd.renderer->end_frame(); !ended) return ended.error().to_string();
    times.draw_ms += t2 - t1;
    times.record_ms += bench::thread_cpu_ms() - t2;
    times.pipelines_created += crowd.renderer->stats().pipelines_created_this_frame;
    if (const auto gpu = crowd.renderer->last_pass_timings()) {
      times.gpu.skinning_ms += gpu->skinning_ms;
      times.gpu.shadow_ms += gpu->shadow_ms;
      times.gpu.prepass_ms += gpu->prepass_ms;
      times.gpu.main_ms += gpu->main_ms;
      ++times.gpu_samples;
    }
    return {};
  };

  // Untimed frames: two rounds of the frame ring (cached runs built, upload memory touched, lists grown).
  constexpr int kWarmUpFrames = 4;
  for (int i = 0; i < kWarmUpFrames; ++i)
    if (const std::string error = frame(); !error.empty()) {
      state.SkipWithError(error.c_str());
      return;
    }
  times = {};
  for (auto _ : state)
    if (const std::string error = frame(); !error.empty()) {
      state.SkipWithError(error.c_str());
      return;
    }
  (void)crowd.renderer->wait_idle();

  const double frames = static_cast<double>(state.iterations());
  state.counters["frame_ms"] = (times.draw_ms + times.record_ms) / frames;
  state.counters["draw_ms"] = times.draw_ms / frames;
  state.counters["record_ms"] = times.record_ms / frames;
  state.counters["update_ms"] = times.update_ms / frames;
  if (times.gpu_samples > 0) {
    const double samples = times.gpu_samples;
    state.counters["skinning_ms"] = times.gpu.skinning_ms / samples;
    state.counters["shadow_ms"] = times.gpu.shadow_ms / samples;
    state.counters["prepass_ms"] = times.gpu.prepass_ms / samples;
    state.counters["main_ms"] = times.gpu.main_ms / samples;
  }
  const render::ForwardStats& stats = crowd.renderer->stats();
  state.counters["shadow_draws"] = stats.shadow_draws;
  state.counters["prepass_draws"] = stats.prepass_draws;
  state.counters["main_draws"] = stats.main_draws;
  state.counters["pipelines_per_frame"] = times.pipelines_created / frames;
  state.counters["sprites_drawn"] = stats.sprites_drawn;
  state.counters["sprites_culled"] = stats.sprites_culled;
  state.counters["gpu_vertices"] = stats.gpu_vertices;
  state.counters["run_rebuilds"] = stats.run_rebuilds;
  state.SetLabel(crowd.device->name());
}
BENCHMARK(BM_ForwardFrame)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
