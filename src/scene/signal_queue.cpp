#include "mf/scene/signal_queue.hpp"

#include <algorithm>

namespace mf::scene {

SignalQueue::~SignalQueue() {
  for (DeferredSource* s : sources_)
    if (s) s->detach_queue();
}

void SignalQueue::remove_source(DeferredSource* source) {
  const auto it = std::find(sources_.begin(), sources_.end(), source);
  if (it == sources_.end()) return;
  // During a round the list is being walked by index: leave a hole that the round's end removes.
  if (delivering_)
    *it = nullptr;
  else
    sources_.erase(it);
}

void SignalQueue::deliver() {
  if (sources_.empty() || delivering_) return;
  delivering_ = true;
  // Emissions numbered from here on were queued by this round's slots: they wait for the next round.
  const std::uint64_t cutoff = next_sequence_;
  for (;;) {
    // The smallest pending sequence number among the sources: a k-way merge, k being the number of
    // signals with pending emissions (few), so a linear scan is the cheapest.
    DeferredSource* next = nullptr;
    std::uint64_t next_sequence = cutoff;
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      DeferredSource* s = sources_[i];
      if (!s) continue;
      const std::uint64_t q = s->next_pending_sequence();
      if (q < next_sequence) next = s, next_sequence = q;
    }
    if (!next) break;
    next->deliver_next();
  }
  // Keep the sources that still hold emissions (queued during the round) for the next one.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    DeferredSource* s = sources_[i];
    if (s && s->finish_round()) sources_[kept++] = s;
  }
  sources_.resize(kept);
  delivering_ = false;
}

}  // namespace mf::scene
