#pragma once
// SignalQueue: the deferred emissions of every signal of one SceneTree, delivered in the order they
// were queued.
//
// Each signal keeps its own pending arguments (with a sequence number each, from this queue) and
// registers itself here once per delivery round; every emission also appends its signal to the
// queue's order list, so deliver() walks that list once and each entry delivers its signal's oldest
// pending emission: emissions reach their slots in global queue order whatever signal they belong
// to, in time linear in the emissions (however many signals hold some). Emissions queued while a round delivers (a slot that
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

  // Records an emission of `source` in the delivery order; its sequence number.
  std::uint64_t enqueue(DeferredSource* source) {
    order_.push_back(source);
    return next_sequence_++;
  }
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
  std::vector<DeferredSource*> order_;    // one entry per pending emission, in queue order; null: its
                                          // source left
  std::uint64_t next_sequence_ = 0;
  bool delivering_ = false;
};

}  // namespace mf::scene
