#include "mf/scene/signal_queue.hpp"

#include <algorithm>

namespace mf::scene {

SignalQueue::~SignalQueue() {
  for (DeferredSource* s : sources_)
    if (s) s->detach_queue();
}

void SignalQueue::remove_source(DeferredSource* source) {
  for (DeferredSource*& entry : order_)
    if (entry == source) entry = nullptr;
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
  // Emissions queued from here on came from this round's slots: they wait for the next round.
  const std::size_t cutoff = order_.size();
  for (std::size_t i = 0; i < cutoff; ++i) {
    // Read again each time: a slot's emission may reallocate the list, a removal null an entry.
    if (DeferredSource* s = order_[i]) s->deliver_next();
  }
  order_.erase(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(cutoff));
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
