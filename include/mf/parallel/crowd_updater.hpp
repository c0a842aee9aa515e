#pragma once
// CrowdUpdater: updates many independent skeletons across threads. The runtime keeps no shared mutable
// state, so each skeleton's tick reads only its own instance and its (read-only, shared) SkeletonData;
// this layer splits a crowd into contiguous chunks and runs the chunks on a oneTBB task arena of a
// fixed number of threads. Skeletons are never split across threads and each is ticked exactly as
// AnimatedSkeleton::update ticks it alone, so poses are bit-identical for every thread count.
//
// Threads. An updater made with 1 thread has no arena: every call runs inline, in order, on the
// calling thread, with no TBB code on the path. With N > 1 the calling thread joins an arena of
// concurrency() slots (itself and TBB's workers), waits until every range has run, and returns; each
// call is a barrier. concurrency() is N capped by TBB's limit at construction,
// tbb::global_control::max_allowed_parallelism (the hardware's concurrency unless the host changed
// it): on a 2-core machine an updater of 16 threads runs on 2. The arena is made at construction; its
// workers come from TBB's shared pool.
//
// Ranges. A call over `count` items cuts [0, count) into contiguous ranges of at most `grain` items
// (by default about four ranges per requested thread: ceil(count / (4 · threads()))); threads take
// whole ranges from each other when one finishes early. Which thread runs a range never changes a
// result: each item is processed whole by one thread.
//
// Allocation. The updater allocates at construction only (with 1 thread, never again: no TBB code
// runs). Per call with more threads, TBB makes its task objects from its own per-thread pools, backed
// by tbbmalloc when libtbbmalloc is present, else by malloc; none of it goes through the global
// operator new, so a counting operator new cannot see it. Measured with malloc as the backing: no
// calls in steady frames with 2 threads, a few per thousand frames with 8 and 16 (docs/performance.md,
// "Many skeletons across threads").
//
// Not thread-safe itself: one call at a time per updater. The callbacks of for_each must not call
// back into the same updater.

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>

#include "mf/skel/animated_skeleton.hpp"
#include "mf/skel/constraints.hpp"

namespace mf::parallel {

// Whether update() also computes each skeleton's CPU vertices (SkeletonInstance::vertices()) after
// its tick, on the same thread.
enum class CpuVerticesStage : bool { Skip, Compute };

class CrowdUpdater {
 public:
  // `threads` ≥ 1 (values below 1 are taken as 1). `grain`: the most items of one range; 0 chooses
  // ceil(count / (4 · threads)) for each call.
  explicit CrowdUpdater(int threads, std::size_t grain = 0);
  ~CrowdUpdater();
  CrowdUpdater(const CrowdUpdater&) = delete;
  CrowdUpdater& operator=(const CrowdUpdater&) = delete;

  // The threads asked for (at least 1) and the arena's slots (threads() capped by TBB's limit; 1 with
  // one thread).
  int threads() const { return threads_; }
  int concurrency() const { return concurrency_; }
  std::size_t grain() const { return grain_; }

  // Ticks every skeleton: skeleton->update(delta, context) (tracks advance, clips apply, overrides,
  // update order; see mf/skel/animated_skeleton.hpp), then its CPU vertices when asked. Every
  // skeleton gets the same context here; its delta is replaced by `delta` as in update().
  // Events and track signals stay in each skeleton for the host to drain afterwards (for_each can
  // drain them in parallel when the handlers allow it). Null pointers are not allowed.
  void update(std::span<skel::AnimatedSkeleton* const> skeletons, float delta, const skel::FrameContext& context = {},
              CpuVerticesStage vertices = CpuVerticesStage::Skip);
  // The same with one context per skeleton (its position in the world, physics settings):
  // contexts[i] for skeletons[i]; contexts.size() must equal skeletons.size().
  void update_per_skeleton(std::span<skel::AnimatedSkeleton* const> skeletons, float delta,
                           std::span<const skel::FrameContext> contexts,
                           CpuVerticesStage vertices = CpuVerticesStage::Skip);

  // Calls fn(i) for every i in [0, count), each exactly once, and returns when all have returned:
  // with 1 thread in order on the calling thread, else range by range across the arena. For a host's
  // own per-skeleton stages (draining events, culling, writing render data). fn must be safe to run
  // concurrently for different i.
  template <class Fn>
  void for_each(std::size_t count, Fn&& fn) {
    if (threads_ == 1) {
      for (std::size_t i = 0; i < count; ++i) fn(i);
      return;
    }
    for_each_range(count, [&fn](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) fn(i);
    });
  }

  // Calls fn(begin, end) for contiguous ranges that together cover [0, count) once; with 1 thread,
  // once with (0, count) on the calling thread (nothing when count is 0).
  template <class Fn>
  void for_each_range(std::size_t count, Fn&& fn) {
    if (count == 0) return;
    if (threads_ == 1) {
      fn(std::size_t{0}, count);
      return;
    }
    using F = std::remove_reference_t<Fn>;
    run_ranges(count, RangeFn{const_cast<void*>(static_cast<const void*>(&fn)), [](void* f, std::size_t b, std::size_t e) {
                                (*static_cast<F*>(f))(b, e);
                              }});
  }

 private:
  // A borrowed callable (no allocation): the object and a function that calls it.
  struct RangeFn {
    void* object;
    void (*call)(void*, std::size_t, std::size_t);
  };
  struct Arena;

  // Runs fn over ranges of [0, count) in the arena (threads_ > 1, count > 0).
  void run_ranges(std::size_t count, RangeFn fn);

  int threads_;
  int concurrency_ = 1;
  std::size_t grain_;
  std::unique_ptr<Arena> arena_;  // null with 1 thread
};

}  // namespace mf::parallel
