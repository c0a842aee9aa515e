#pragma once
// SignalQueue: the deferred emissions of every signal of one SceneTree, delivered in the order they
// were queued.
//
// Each signal keeps its own pending arguments (with a sequence number each, from this queue) and
// registers itself here once per delivery round; deliver() repeatedly takes the pending emission with
// the smallest sequence number among the registered signals, so emissions reach their slots in global
// queue order whatever signal they belong to. Emissions queued while a round delivers (a slot that
// emits deferred) get later numbers and wait for the next round. Nothing allocates once the lists have
// grown to their working size: both keep their capacity.

#include <cstdint>
#include <limits>
#include <vector>

namespace mf::scene {

// The type-erased side of a Signal that the queue sees.
class DeferredSource {
 public:
  static constexpr std::uint64_t kNoPending = std::numeric_limits<std::uint64_t>::max();

 protected:
  ~DeferredSource() = default;

 private:
  friend class SignalQueue;
  // The sequence number of the next emission to deliver this round, or kNoPending.
  virtual std::uint64_t next_pending_sequence() const = 0;
  // Delivers that emission to the slots.
  virtual void deliver_next() = 0;
  // Drops what this round delivered; whether emissions remain for a later round.
  virtual bool finish_round() = 0;
  // The queue is going away: forget it and drop every pending emission.
  virtual void detach_queue() = 0;
};

class SignalQueue {
 public:
  SignalQueue() = default;
  ~SignalQueue();
  SignalQueue(const SignalQueue&) = delete;
  SignalQueue& operator=(const SignalQueue&) = delete;

  // The next emission's sequence number.
  std::uint64_t take_sequence() { return next_sequence_++; }
  // Adds a source with pending emissions; a source registers once until finish_round says it is empty.
  void add_source(DeferredSource* source) { sources_.push_back(source); }
  // Forgets a source (being destroyed) together with its pending emissions.
  void remove_source(DeferredSource* source);

  // Delivers every emission queued before this call, in queue order.
  void deliver();
  // Emissions waiting for the next deliver().
  bool has_pending() const { return !sources_.empty(); }

 private:
  std::vector<DeferredSource*> sources_;  // null where a source left during a round
  std::uint64_t next_sequence_ = 0;
  bool delivering_ = false;
};

}  // namespace mf::scene
