// mfe skel bench: measures any rig the way bench/runtime_bench measures the reference rig, so users
// can measure their own: N instances with staggered start times on one thread, nanoseconds per
// skeleton-frame for each stage, median of 3 repetitions.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/constraints.hpp"
#include "runtime_setup.hpp"

namespace mf::tools {
namespace {

struct BenchOptions {
  std::string rig;
  std::string clip;
  std::string skins;
  int instances = 200;
  int frames = 600;
};

struct StageTimes {
  double sampling = 0, update_order = 0, vertices = 0;
  double total() const { return sampling + update_order + vertices; }
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

StageTimes run_once(const RuntimeSetup& rt, int clip, const BenchOptions& o) {
  const skel::SkeletonData& data = *rt.data;
  std::vector<std::unique_ptr<skel::SkeletonInstance>> crowd;
  std::vector<skel::ClipSampler> samplers;
  std::vector<skel::EventBuffer> events(static_cast<std::size_t>(o.instances));
  for (int i = 0; i < o.instances; ++i) {
    crowd.push_back(std::make_unique<skel::SkeletonInstance>(data));
    rt.apply_skin(crowd.back()->pose());
    samplers.emplace_back(data);
  }
  const float length = std::max(data.clips[static_cast<std::size_t>(clip)].length, 1e-3f);
  const bool loop = data.clip(clip)->loop != skel::LoopMode::None;
  StageTimes t;
  for (int f = 0; f < o.frames; ++f) {
    const float now = static_cast<float>(f) / 60;
    auto start = Clock::now();
    for (int i = 0; i < o.instances; ++i) {
      const float offset = length * static_cast<float>(i) / static_cast<float>(o.instances);
      const anim::ClipSample s = skel::loop_sample(data, clip, offset + now - 1.0f / 60, offset + now, loop);
      auto& buffer = events[static_cast<std::size_t>(i)];
      buffer.clear();
      samplers[static_cast<std::size_t>(i)].apply(crowd[static_cast<std::size_t>(i)]->pose(), {&s, 1}, buffer);
    }
    t.sampling += seconds_since(start);
    start = Clock::now();
    // Bones and constraints, with physics stepping by the frame's time.
    const skel::FrameContext context{.delta = 1.0f / 60};
    for (auto& instance : crowd) skel::update_skeleton(instance->pose(), context);
    t.update_order += seconds_since(start);
    start = Clock::now();
    for (auto& instance : crowd) instance->vertices();
    t.vertices += seconds_since(start);
  }
  const double per = 1e9 / (static_cast<double>(o.frames) * o.instances);
  return {t.sampling * per, t.update_order * per, t.vertices * per};
}

int run_bench(const BenchOptions& o) {
  if (o.instances < 1 || o.frames < 1) {
    std::fprintf(stderr, "--instances and --frames must be at least 1\n");
    return 2;
  }
  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return 1;
  }
  const int clip = loaded->data->find_clip(o.clip);
  if (clip < 0) {
    std::fprintf(stderr, "%s: no clip \"%s\"; the rig has: %s\n", o.rig.c_str(), o.clip.c_str(),
                 clip_list(*loaded->data).c_str());
    return 1;
  }
  std::vector<StageTimes> runs;
  for (int r = 0; r < 3; ++r) runs.push_back(run_once(*loaded, clip, o));
  auto median = [&](double StageTimes::*stage) {
    std::vector<double> v;
    for (const StageTimes& t : runs) v.push_back(t.*stage);
    std::sort(v.begin(), v.end());
    return v[1];
  };
  std::vector<double> totals;
  for (const StageTimes& t : runs) totals.push_back(t.total());
  std::sort(totals.begin(), totals.end());
  std::printf("%s, clip %s: %d instances x %d frames, one thread, median of 3 runs\n", o.rig.c_str(), o.clip.c_str(),
              o.instances, o.frames);
  std::printf("  clip application  %9.0f ns per skeleton-frame\n", median(&StageTimes::sampling));
  std::printf("  update order      %9.0f ns per skeleton-frame\n", median(&StageTimes::update_order));
  std::printf("  CPU vertices      %9.0f ns per skeleton-frame\n", median(&StageTimes::vertices));
  std::printf("  total             %9.0f ns per skeleton-frame (%.3f ms per frame for all instances)\n", totals[1],
              totals[1] * o.instances / 1e6);
  return 0;
}

}  // namespace

void add_skel_bench(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* cmd = skel.add_subcommand("bench", "Measure the runtime cost per skeleton-frame of a rig's clip");
  cmd->add_option("mskel", options->rig, "The rig (.mskel)")->required();
  cmd->add_option("--clip", options->clip, "Clip name")->required();
  cmd->add_option("--skin", options->skins, "Skins to compose, comma-separated, in order");
  cmd->add_option("--instances", options->instances, "Skeletons animated together (default 200)");
  cmd->add_option("--frames", options->frames, "Frames per run (default 600)");
  cmd->callback([options, &exit_code] { exit_code = run_bench(*options); });
}

}  // namespace mf::tools
