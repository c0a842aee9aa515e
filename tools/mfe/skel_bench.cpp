// mfe skel bench: measures any rig the way bench/runtime_bench measures the reference rig, so users
// can measure their own: N instances with staggered start times, nanoseconds per skeleton-frame for
// each stage, median of 3 repetitions, as text or one JSON object (--json).
//
// Each instance is an AnimatedSkeleton playing the clip on track 0 (looping when the clip loops).
// Stages, each over the whole crowd before the next (a barrier between stages, so each stage's figure
// is its own): clip application (the tracks advance by 1/60 s, their samples, ClipSampler::apply, the
// signals drained), update order (skel::update_skeleton, physics stepping by 1/60 s), CPU vertices
// (SkeletonInstance::world_positions: the world position of every vertex of every visible region
// and mesh). The total is these three. Measured apart, outside the total: the CPU vertex buffers
// (SkeletonInstance::vertices: positions again, with UVs, colours, triangles, draw runs and
// clipping). With --threads 1 (the default) every stage is a plain loop on the calling thread
// (CrowdUpdater::for_each with one thread), so instruction counts of these calls (callgrind) are
// single-thread figures; wall time and the calling thread's CPU time are reported. With --threads N >
// 1 each stage runs across N threads (mf_parallel) and the figures are wall time: per skeleton-frame =
// a stage's wall time / (frames × instances).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/parallel/crowd_updater.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "runtime_setup.hpp"

namespace mf::tools {
namespace {

struct BenchOptions {
  std::string rig;
  std::string clip;
  std::string skins;
  int instances = 200;
  int frames = 600;
  int threads = 1;
  bool json = false;
};

// Seconds spent in each stage over a run's frames.
struct StageTimes {
  double sampling = 0, update_order = 0, vertices = 0;
  double buffers = 0;  // the CPU vertex buffers, apart from the total
  double total() const { return sampling + update_order + vertices; }
};

// One run: wall time, the calling thread's CPU time, and the vertices the CPU path wrote per
// skeleton after the last frame (the mean over the crowd, whose start times cover the clip).
struct RunResult {
  StageTimes wall, cpu;
  double vertices_per_skeleton = 0;
};

using Clock = std::chrono::steady_clock;

// Wall and calling-thread CPU clocks read together.
struct Stamp {
  Clock::time_point wall;
  timespec cpu;
  static Stamp now() {
    Stamp s;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &s.cpu);
    s.wall = Clock::now();
    return s;
  }
};

// Adds the time since `start` to `wall` and `cpu`; returns now, the next stage's start.
Stamp lap(const Stamp& start, double& wall, double& cpu) {
  const Stamp end = Stamp::now();
  wall += std::chrono::duration<double>(end.wall - start.wall).count();
  cpu += static_cast<double>(end.cpu.tv_sec - start.cpu.tv_sec) + 1e-9 * static_cast<double>(end.cpu.tv_nsec - start.cpu.tv_nsec);
  return end;
}

RunResult run_once(const RuntimeSetup& rt, int clip, const BenchOptions& o, parallel::CrowdUpdater& updater) {
  const skel::SkeletonData& data = *rt.data;
  constexpr float kStep = 1.0f / 60;
  const float length = std::max(data.clips[static_cast<std::size_t>(clip)].length, 1e-3f);
  const bool loop = data.clip(clip)->loop != skel::LoopMode::None;
  std::vector<std::unique_ptr<skel::AnimatedSkeleton>> crowd;
  for (int i = 0; i < o.instances; ++i) {
    crowd.push_back(std::make_unique<skel::AnimatedSkeleton>(data));
    skel::AnimatedSkeleton& s = *crowd.back();
    rt.apply_skin(s.pose());
    s.tracks().set_clip(0, clip, loop);
    // Staggered start times over the clip, set up outside the timed frames.
    s.tracks().update(length * static_cast<float>(i) / static_cast<float>(o.instances));
    s.instance().apply(s.tracks().samples());
    s.tracks().drain_signals([](const anim::TrackSignal&) {});
  }
  const std::size_t count = crowd.size();
  const skel::FrameContext context{.delta = kStep};
  auto apply_clip = [&](std::size_t i) {
    skel::AnimatedSkeleton& s = *crowd[i];
    s.tracks().update(kStep);
    s.instance().apply(s.tracks().samples());
    s.tracks().drain_signals([](const anim::TrackSignal&) {});
  };
  auto update_order = [&](std::size_t i) { skel::update_skeleton(crowd[i]->pose(), context); };
  // The CPU vertices stage: its one call per instance.
  auto cpu_vertices = [&](std::size_t i) { crowd[i]->instance().world_positions(); };
  auto vertex_buffers = [&](std::size_t i) { crowd[i]->instance().vertices(); };

  RunResult r;
  for (int f = 0; f < o.frames; ++f) {
    Stamp start = Stamp::now();
    updater.for_each(count, apply_clip);
    start = lap(start, r.wall.sampling, r.cpu.sampling);
    updater.for_each(count, update_order);
    start = lap(start, r.wall.update_order, r.cpu.update_order);
    updater.for_each(count, cpu_vertices);
    start = lap(start, r.wall.vertices, r.cpu.vertices);
    updater.for_each(count, vertex_buffers);
    lap(start, r.wall.buffers, r.cpu.buffers);
  }
  std::size_t vertices = 0;
  for (auto& s : crowd) vertices += s->instance().world_positions().vertex_count();
  r.vertices_per_skeleton = static_cast<double>(vertices) / static_cast<double>(count);
  return r;
}

double median3(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[1];
}

// Nanoseconds per skeleton-frame of each stage and of the total, each the median over the runs.
struct Figures {
  StageTimes stages;
  double total = 0;
};

Figures medians(const std::vector<RunResult>& runs, StageTimes RunResult::*clock, const BenchOptions& o) {
  const double per = 1e9 / (static_cast<double>(o.frames) * o.instances);
  auto median_of = [&](auto seconds) {
    std::vector<double> v;
    for (const RunResult& r : runs) v.push_back(seconds(r.*clock) * per);
    return median3(v);
  };
  return {{median_of([](const StageTimes& t) { return t.sampling; }),
           median_of([](const StageTimes& t) { return t.update_order; }),
           median_of([](const StageTimes& t) { return t.vertices; }),
           median_of([](const StageTimes& t) { return t.buffers; })},
          median_of([](const StageTimes& t) { return t.total(); })};
}

// `"key": value` pairs for the JSON output.
struct Fields {
  json::Writer& w;
  void put(const char* key, const std::string& v) {
    w.key(key);
    w.string(v);
  }
  void put(const char* key, std::int64_t v) {
    w.key(key);
    w.integer(v);
  }
  void put(const char* key, double v) {
    w.key(key);
    w.number(static_cast<float>(v));
  }
  // The stages and the total in nanoseconds per skeleton-frame, then the frame of all instances in ms.
  void put(const char* key, const char* frame_key, const Figures& f, int instances) {
    w.key(key);
    w.begin_object(json::Layout::Inline);
    put("clipApplication", f.stages.sampling);
    put("updateOrder", f.stages.update_order);
    put("cpuVertices", f.stages.vertices);
    put("total", f.total);
    put("cpuVertexBuffers", f.stages.buffers);
    w.end_object();
    put(frame_key, f.total * instances / 1e6);
  }
};

int run_bench(const BenchOptions& o) {
  if (o.instances < 1 || o.frames < 1) {
    std::fprintf(stderr, "--instances and --frames must be at least 1\n");
    return 2;
  }
  if (o.threads < 1) {
    std::fprintf(stderr, "--threads must be at least 1\n");
    return 2;
  }
  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return 1;
  }
  const skel::SkeletonData& data = *loaded->data;
  const int clip = data.find_clip(o.clip);
  if (clip < 0) {
    std::fprintf(stderr, "%s: no clip \"%s\"; the rig has: %s\n", o.rig.c_str(), o.clip.c_str(), clip_list(data).c_str());
    return 1;
  }
  parallel::CrowdUpdater updater(o.threads);
  std::vector<RunResult> runs;
  for (int r = 0; r < 3; ++r) runs.push_back(run_once(*loaded, clip, o, updater));

  const Figures wall = medians(runs, &RunResult::wall, o);
  const Figures cpu = medians(runs, &RunResult::cpu, o);
  const bool one_thread = o.threads == 1;
  const auto bones = static_cast<std::int64_t>(data.bones.size());
  const auto slots = static_cast<std::int64_t>(data.slots.size());
  const double vertices = runs[0].vertices_per_skeleton;

  if (o.json) {
    json::Writer w;
    Fields f{w};
    w.begin_object();
    f.put("rig", o.rig);
    f.put("clip", o.clip);
    f.put("skin", o.skins);
    f.put("instances", std::int64_t{o.instances});
    f.put("frames", std::int64_t{o.frames});
    f.put("threads", std::int64_t{o.threads});
    f.put("threadsUsed", std::int64_t{updater.concurrency()});
    f.put("repetitions", static_cast<std::int64_t>(runs.size()));
    w.key("counts");
    w.begin_object(json::Layout::Inline);
    f.put("bones", bones);
    f.put("slots", slots);
    f.put("verticesPerFrame", vertices);
    w.end_object();
    f.put("nsPerSkeletonFrame", "msPerFrame", wall, o.instances);
    if (one_thread) f.put("cpuNsPerSkeletonFrame", "cpuMsPerFrame", cpu, o.instances);
    w.end_object();
    std::fputs(w.finish().c_str(), stdout);
    return 0;
  }

  std::string threads = "one thread";
  if (!one_thread) {
    threads = std::to_string(o.threads) + " threads";
    if (updater.concurrency() < o.threads) threads += " (" + std::to_string(updater.concurrency()) + " available)";
    threads += ", wall time";
  }
  std::printf("%s, clip %s: %d instances x %d frames, %s, median of 3 runs\n", o.rig.c_str(), o.clip.c_str(), o.instances,
              o.frames, threads.c_str());
  std::printf("  rig               %lld bones, %lld slots, %.0f region and mesh vertices per skeleton-frame\n",
              static_cast<long long>(bones), static_cast<long long>(slots), vertices);
  auto row = [&](const char* name, double w, double c) {
    if (one_thread)
      std::printf("  %-17s %9.0f ns per skeleton-frame (CPU %.0f ns)\n", name, w, c);
    else
      std::printf("  %-17s %9.0f ns per skeleton-frame\n", name, w);
  };
  row("clip application", wall.stages.sampling, cpu.stages.sampling);
  row("update order", wall.stages.update_order, cpu.stages.update_order);
  row("CPU vertices", wall.stages.vertices, cpu.stages.vertices);
  row("total", wall.total, cpu.total);
  row("(vertex buffers)", wall.stages.buffers, cpu.stages.buffers);
  std::printf("  %.3f ms per frame for all instances", wall.total * o.instances / 1e6);
  if (one_thread) std::printf(" (CPU %.3f ms)", cpu.total * o.instances / 1e6);
  std::printf("\n");
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
  cmd->add_option("--threads", options->threads,
                  "Threads each stage runs on (default 1: the calling thread alone; more: wall time across threads)");
  cmd->add_flag("--json", options->json, "Print one JSON object instead of text");
  cmd->callback([options, &exit_code] { exit_code = run_bench(*options); });
}

}  // namespace mf::tools
