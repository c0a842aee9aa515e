#include "mf/parallel/crowd_updater.hpp"

#include <algorithm>
#include <cassert>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

namespace mf::parallel {

namespace {

// Ranges per thread when no grain is given: enough for a thread that finishes early to take work
// from a slower one, few enough that the per-range cost (one TBB task) stays small next to a range's
// work (one spineboy's tick with CPU vertices takes about 10 µs on one core: docs/performance.md).
constexpr std::size_t kRangesPerThread = 4;

// One range of a crowd, in order: each skeleton's tick, then its CPU vertices.
template <class ContextOf>
void tick(std::span<skel::AnimatedSkeleton* const> skeletons, float delta, ContextOf context_of,
          CpuVerticesStage vertices) {
  for (std::size_t i = 0; i < skeletons.size(); ++i) {
    skel::AnimatedSkeleton& s = *skeletons[i];
    s.update(delta, context_of(i));
    if (vertices == CpuVerticesStage::Compute) s.instance().vertices();
  }
}

}  // namespace

struct CrowdUpdater::Arena {
  explicit Arena(int concurrency) : arena(concurrency) {}
  tbb::task_arena arena;
};

CrowdUpdater::CrowdUpdater(int threads, std::size_t grain) : threads_(std::max(threads, 1)), grain_(grain) {
  assert(threads >= 1);
  if (threads_ > 1) {
    // TBB's limit (the hardware's concurrency unless the host changed it): an arena asking for more
    // would get no more threads, only a warning on stderr.
    const auto allowed = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
    concurrency_ = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads_), std::max<std::size_t>(allowed, 1)));
    arena_ = std::make_unique<Arena>(concurrency_);
    arena_->arena.initialize();  // the arena's slots now, not at the first frame
  }
}

CrowdUpdater::~CrowdUpdater() = default;

void CrowdUpdater::run_ranges(std::size_t count, RangeFn fn) {
  const auto threads = static_cast<std::size_t>(threads_);
  const std::size_t grain = grain_ > 0 ? grain_ : std::max<std::size_t>(1, (count + kRangesPerThread * threads - 1) /
                                                                              (kRangesPerThread * threads));
  // simple_partitioner: ranges are split until they hold at most `grain` items, so the cut depends
  // on count and grain alone; threads steal whole ranges.
  arena_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, count, grain),
        [fn](const tbb::blocked_range<std::size_t>& r) { fn.call(fn.object, r.begin(), r.end()); },
        tbb::simple_partitioner());
  });
}

void CrowdUpdater::update(std::span<skel::AnimatedSkeleton* const> skeletons, float delta,
                          const skel::FrameContext& context, CpuVerticesStage vertices) {
  for_each_range(skeletons.size(), [&](std::size_t begin, std::size_t end) {
    tick(skeletons.subspan(begin, end - begin), delta, [&](std::size_t) -> const skel::FrameContext& { return context; },
         vertices);
  });
}

void CrowdUpdater::update_per_skeleton(std::span<skel::AnimatedSkeleton* const> skeletons, float delta,
                                       std::span<const skel::FrameContext> contexts, CpuVerticesStage vertices) {
  assert(contexts.size() == skeletons.size());
  for_each_range(std::min(skeletons.size(), contexts.size()), [&](std::size_t begin, std::size_t end) {
    tick(skeletons.subspan(begin, end - begin), delta,
         [&](std::size_t i) -> const skel::FrameContext& { return contexts[begin + i]; }, vertices);
  });
}

}  // namespace mf::parallel
