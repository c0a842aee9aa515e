#include "mf/anim/animation_tracks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "crossfade.hpp"

namespace mf::anim {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kNever = std::numeric_limits<float>::infinity();  // an event threshold no weight reaches
// Completed signals per entry per update: a huge step over a short loop must not flood the buffer.
constexpr std::int32_t kMaxCompletedPerUpdate = 4;

}  // namespace

AnimationTracks::AnimationTracks(std::span<const float> clip_lengths, int bone_count, int pool_size, int signal_capacity)
    : lengths_(clip_lengths.begin(), clip_lengths.end()),
      bone_count_(std::max(bone_count, 0)),
      signal_capacity_(static_cast<std::size_t>(std::max(signal_capacity, 1))) {
  const auto size = static_cast<std::size_t>(std::max(pool_size, 1));
  pool_.resize(size);
  latches_.assign(size * static_cast<std::size_t>(bone_count_), kNaN);
  free_.reserve(size);
  pending_free_.reserve(size);
  for (std::size_t i = size; i-- > 0;) free_.push_back(static_cast<std::uint32_t>(i));
  signals_.reserve(signal_capacity_);
}

float AnimationTracks::length_of(int clip) const {
  return clip >= 0 && clip < clip_count() ? std::max(lengths_[static_cast<std::size_t>(clip)], 0.0f) : 0.0f;
}

TrackEntry* AnimationTracks::entry(TrackEntryHandle handle) {
  if (handle.index >= pool_.size()) return nullptr;
  TrackEntry& e = pool_[handle.index];
  return e.in_use_ && e.generation_ == handle.generation ? &e : nullptr;
}

const TrackEntry* AnimationTracks::entry(TrackEntryHandle handle) const {
  return const_cast<AnimationTracks*>(this)->entry(handle);
}

TrackEntryHandle AnimationTracks::current(int track) const {
  if (track < 0 || track >= track_count()) return {};
  const std::uint32_t i = tracks_[static_cast<std::size_t>(track)].current;
  return i == kNone ? TrackEntryHandle{} : handle_of(i);
}

TrackEntryHandle AnimationTracks::queued_after(TrackEntryHandle handle) const {
  const TrackEntry* e = entry(handle);
  return e && e->next_ != kNone ? handle_of(e->next_) : TrackEntryHandle{};
}

TrackEntryHandle AnimationTracks::mixing_from(TrackEntryHandle handle) const {
  const TrackEntry* e = entry(handle);
  return e && e->mixing_from_ != kNone ? handle_of(e->mixing_from_) : TrackEntryHandle{};
}

std::span<const float> AnimationTracks::rotation_latch(TrackEntryHandle handle) const {
  if (!entry(handle)) return {};
  return {latches_.data() + static_cast<std::size_t>(handle.index) * static_cast<std::size_t>(bone_count_),
          static_cast<std::size_t>(bone_count_)};
}

void AnimationTracks::set_mix(int from, int to, float duration) {
  const auto less = [](const MixPair& a, const MixPair& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; };
  const MixPair pair{from, to, duration};
  auto it = std::lower_bound(mixes_.begin(), mixes_.end(), pair, less);
  if (it != mixes_.end() && it->from == from && it->to == to) it->duration = duration;
  else mixes_.insert(it, pair);
}

float AnimationTracks::mix(int from, int to) const {
  const auto less = [](const MixPair& a, const MixPair& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; };
  auto it = std::lower_bound(mixes_.begin(), mixes_.end(), MixPair{from, to, 0}, less);
  return it != mixes_.end() && it->from == from && it->to == to ? it->duration : default_mix_;
}

AnimationTracks::Track& AnimationTracks::ensure_track(int track) {
  if (static_cast<std::size_t>(track) >= tracks_.size()) {
    tracks_.resize(static_cast<std::size_t>(track) + 1);
    sample_buffer_.resize(max_samples());
  }
  return tracks_[static_cast<std::size_t>(track)];
}

std::uint32_t AnimationTracks::acquire(int track, int clip, bool loop) {
  if (free_.empty()) {
    // Growth happens only when a game queues more entries than the pool holds.
    const std::size_t old_size = pool_.size(), new_size = old_size * 2;
    pool_.resize(new_size);
    latches_.resize(new_size * static_cast<std::size_t>(bone_count_), kNaN);
    free_.reserve(new_size);
    pending_free_.reserve(new_size);
    for (std::size_t i = new_size; i-- > old_size;) free_.push_back(static_cast<std::uint32_t>(i));
  }
  const std::uint32_t i = free_.back();
  free_.pop_back();
  at(i).reset(clip, track, loop, length_of(clip));
  return i;
}

void AnimationTracks::signal(TrackSignalKind kind, std::uint32_t i) {
  if (signals_.size() >= signal_capacity_) {
    ++dropped_signals_;
    return;
  }
  const TrackEntry& e = at(i);
  signals_.push_back({kind, e.track_, e.clip_, handle_of(i)});
}

void AnimationTracks::dispose(std::uint32_t i) {
  TrackEntry& e = at(i);
  if (e.disposed_) return;
  signal(TrackSignalKind::Disposed, i);
  e.disposed_ = true;
  e.next_ = kNone;
  e.mixing_from_ = kNone;
  pending_free_.push_back(i);
}

void AnimationTracks::end_and_dispose(std::uint32_t i) {
  signal(TrackSignalKind::Ended, i);
  dispose(i);
}

void AnimationTracks::dispose_queue(std::uint32_t first) {
  for (std::uint32_t j = first; j != kNone;) {
    const std::uint32_t next = at(j).next_;
    dispose(j);
    j = next;
  }
}

void AnimationTracks::end_mixing_chain(std::uint32_t from) {
  for (std::uint32_t j = from; j != kNone;) {
    const std::uint32_t next = at(j).mixing_from_;
    end_and_dispose(j);
    j = next;
  }
}

void AnimationTracks::free_disposed() {
  for (std::uint32_t i : pending_free_) {
    TrackEntry& e = at(i);
    e.in_use_ = false;
    e.disposed_ = false;
    ++e.generation_;
    free_.push_back(i);
  }
  pending_free_.clear();
}

void AnimationTracks::clear_signals() {
  signals_.clear();
  dropped_signals_ = 0;
  free_disposed();
}

void AnimationTracks::reset_latch(std::uint32_t i) {
  std::fill_n(latch(i), bone_count_, kNaN);
  at(i).latch_reference_ = kNone;
}

void AnimationTracks::set_current(int track, std::uint32_t i, bool replace_unsampled) {
  Track& t = tracks_[static_cast<std::size_t>(track)];
  const std::uint32_t from = t.current;
  t.current = i;
  TrackEntry& e = at(i);
  e.mixing_from_ = kNone;
  e.mix_time_ = 0;
  reset_latch(i);  // a new mixing pair starts
  if (from != kNone) {
    signal(TrackSignalKind::Interrupted, from);
    at(from).next_ = kNone;
    if (replace_unsampled && !at(from).sampled_) {
      // Set over an entry never evaluated: nothing to mix from, so the new one takes its place.
      at(i).mixing_from_ = at(from).mixing_from_;
      at(from).mixing_from_ = kNone;
      end_and_dispose(from);
    } else {
      at(i).mixing_from_ = from;
    }
    // Cap the chain: drop the oldest entries; the oldest remaining takes their share.
    for (;;) {
      int length = 1;
      std::uint32_t newer = i, oldest = i;
      while (at(oldest).mixing_from_ != kNone) {
        newer = oldest;
        oldest = at(oldest).mixing_from_;
        ++length;
      }
      if (length <= kMaxMixChain) break;
      at(newer).mixing_from_ = kNone;
      end_and_dispose(oldest);
    }
  }
  signal(TrackSignalKind::Started, i);
}

TrackEntryHandle AnimationTracks::set_clip(int track, int clip, bool loop) {
  if (track < 0 || clip < 0 || clip >= clip_count()) return {};
  const std::uint32_t i = acquire(track, clip, loop);
  Track& t = ensure_track(track);
  if (t.current != kNone) {
    dispose_queue(at(t.current).next_);
    at(t.current).next_ = kNone;
    at(i).mix_duration_ = mix(at(t.current).clip_, clip);
  }
  set_current(track, i, true);
  return handle_of(i);
}

TrackEntryHandle AnimationTracks::set_empty(int track, float mix_duration) {
  if (track < 0) return {};
  const std::uint32_t i = acquire(track, kEmptyClip, false);
  Track& t = ensure_track(track);
  if (t.current != kNone) {
    dispose_queue(at(t.current).next_);
    at(t.current).next_ = kNone;
  }
  at(i).mix_duration_ = std::max(mix_duration, 0.0f);
  at(i).track_end_ = at(i).mix_duration_;
  set_current(track, i, true);
  return handle_of(i);
}

std::uint32_t AnimationTracks::last_of(const Track& t) const {
  std::uint32_t last = t.current;
  if (last == kNone) return kNone;
  while (at(last).next_ != kNone) last = at(last).next_;
  return last;
}

TrackEntryHandle AnimationTracks::queue(int track, std::uint32_t i, float delay) {
  Track& t = ensure_track(track);
  const std::uint32_t last = last_of(t);
  TrackEntry& e = at(i);
  if (last == kNone) {
    e.delay_ = std::max(delay, 0.0f);
    set_current(track, i, true);
    return handle_of(i);
  }
  const TrackEntry& l = at(last);
  if (!e.is_empty()) e.mix_duration_ = mix(l.clip_, e.clip_);
  if (delay <= 0) {
    // Relative to the end of the last entry (its next loop end if it is playing and looping), so the
    // mix finishes `−delay` before it. The mix runs in global-scaled seconds; the delay counts the
    // last entry's track time, which runs `time_scale` faster.
    const float duration = l.range_end() - l.range_start();
    float end = duration;
    if (l.loop_ && duration > 0 && last == t.current) end = duration * std::max(1.0f, std::ceil(l.track_time_ / duration));
    delay = std::max(end - e.mix_duration_ * l.time_scale_ + delay, 0.0f);
  }
  e.delay_ = delay;
  at(last).next_ = i;
  return handle_of(i);
}

TrackEntryHandle AnimationTracks::add_clip(int track, int clip, bool loop, float delay) {
  if (track < 0 || clip < 0 || clip >= clip_count()) return {};
  return queue(track, acquire(track, clip, loop), delay);
}

TrackEntryHandle AnimationTracks::add_empty(int track, float mix_duration, float delay) {
  if (track < 0) return {};
  const std::uint32_t i = acquire(track, kEmptyClip, false);
  at(i).mix_duration_ = std::max(mix_duration, 0.0f);
  at(i).track_end_ = at(i).mix_duration_;
  return queue(track, i, delay);
}

void AnimationTracks::clear_track(int track) {
  if (track < 0 || track >= track_count()) return;
  Track& t = tracks_[static_cast<std::size_t>(track)];
  if (t.current == kNone) return;
  const std::uint32_t current = t.current;
  t.current = kNone;
  dispose_queue(at(current).next_);
  end_mixing_chain(current);
}

void AnimationTracks::clear_tracks() {
  for (int track = 0; track < track_count(); ++track) clear_track(track);
}

void AnimationTracks::advance(std::uint32_t i, float delta) {
  TrackEntry& e = at(i);
  const float old_time = e.track_time_, new_time = old_time + delta;
  e.track_time_ = new_time;
  if (e.is_empty() || !(delta > 0)) return;
  const float duration = e.range_end() - e.range_start();
  if (!(duration > 0)) return;
  if (e.loop_) {
    const auto passes = static_cast<std::int32_t>(
        std::min(std::floor(new_time / duration) - std::floor(std::max(old_time, 0.0f) / duration), 1e6f));
    for (std::int32_t k = 0; k < std::min(passes, kMaxCompletedPerUpdate); ++k) signal(TrackSignalKind::Completed, i);
  } else if (old_time < duration && new_time >= duration) {
    signal(TrackSignalKind::Completed, i);
  }
}

void AnimationTracks::update(float delta) {
  free_disposed();
  const float d = delta * time_scale_;
  for (std::size_t ti = 0; ti < tracks_.size(); ++ti) {
    const std::uint32_t cur = tracks_[ti].current;
    if (cur == kNone) continue;
    // Entries are fully mixed out once a newer entry's mix completed on an earlier update: the
    // update that completes a mix still samples the older entries (with no share of the pose), so
    // their instant keys up to that moment (physics resets) take effect.
    for (std::uint32_t j = cur; at(j).mixing_from_ != kNone; j = at(j).mixing_from_) {
      if (at(j).mix_fraction() >= 1) {
        end_mixing_chain(at(j).mixing_from_);
        at(j).mixing_from_ = kNone;
        break;
      }
    }
    float current_delta = d * at(cur).time_scale_;
    if (at(cur).delay_ > 0) {
      at(cur).delay_ -= current_delta;
      if (at(cur).delay_ > 0) continue;
      current_delta = -at(cur).delay_;
      at(cur).delay_ = 0;
    }
    advance(cur, current_delta);
    // Entries mixing out keep playing; every pair's mix time moves on.
    for (std::uint32_t j = cur; at(j).mixing_from_ != kNone; j = at(j).mixing_from_) {
      const std::uint32_t from = at(j).mixing_from_;
      advance(from, d * at(from).time_scale_);
      at(j).mix_time_ += d;
    }

    std::uint32_t now = cur;
    const std::uint32_t next = at(cur).next_;
    if (next != kNone && at(cur).track_time_ >= at(next).delay_) {
      // The queued entry starts where its delay ran out, carrying the overshoot.
      const float overshoot = at(cur).time_scale_ > 0 ? (at(cur).track_time_ - at(next).delay_) / at(cur).time_scale_ : 0.0f;
      at(cur).next_ = kNone;
      at(next).delay_ = 0;
      set_current(static_cast<int>(ti), next, false);
      at(next).track_time_ = overshoot * at(next).time_scale_;
      at(next).mix_time_ = overshoot;
      now = next;
    }

    const TrackEntry& e = at(now);
    if (e.next_ == kNone && e.mixing_from_ == kNone && e.track_time_ >= e.track_end_) {
      tracks_[ti].current = kNone;
      end_and_dispose(now);
    }
  }
}

std::size_t AnimationTracks::write_track(const Track& t, int track, std::span<ClipSample> out) {
  if (t.current == kNone || at(t.current).delay_ > 0) return 0;
  std::array<std::uint32_t, kMaxMixChain> chain{};
  int count = 0;
  for (std::uint32_t j = t.current; j != kNone && count < kMaxMixChain; j = at(j).mixing_from_) chain[static_cast<std::size_t>(count++)] = j;
  std::reverse(chain.begin(), chain.begin() + count);  // oldest first

  // Shares, newest first: each entry takes its mix fraction of what the newer ones left; the oldest
  // takes the rest. hold_previous starts a lower sub-layer where the older entries keep full share.
  const auto entry = [&](int k) -> const TrackEntry& { return at(chain[static_cast<std::size_t>(k)]); };
  std::array<float, kMaxMixChain> share{};
  crossfade_shares(count, share.data(), [&](int k) { return entry(k).mix_fraction(); },
                   [&](int k) { return entry(k).hold_previous_; });
  std::array<int, kMaxMixChain> sub{};
  int sub_layer = 0;
  for (int k = 1; k < count; ++k) sub_layer += entry(k).hold_previous_ ? 1 : 0;
  for (int k = count - 1; k >= 0; --k) {
    sub[static_cast<std::size_t>(k)] = sub_layer;
    if (k > 0 && entry(k).hold_previous_) --sub_layer;
  }

  std::size_t n = 0;
  auto push = [&](const ClipSample& s) {
    if (n < out.size()) out[n] = s;
    ++n;
  };
  std::uint32_t reference = kNone;  // first sampled entry of the current sub-layer
  int reference_sub = -1;
  for (int k = 0; k < count; ++k) {
    const auto uk = static_cast<std::size_t>(k);
    const std::uint32_t i = chain[uk];
    TrackEntry& e = at(i);
    const bool first = !e.sampled_;
    const float last_time = e.track_last_;
    e.sampled_ = true;
    e.track_last_ = e.track_time_;
    if (e.is_empty()) continue;

    ClipSample s;
    s.clip = e.clip_;
    std::int32_t loops_now = 0, loops_last = 0;
    s.time = e.clip_time(e.track_time_, &loops_now);
    s.previous_time = e.clip_time(last_time, &loops_last);
    s.loops = std::max(loops_now - loops_last, 0);
    s.first = first;
    s.weight = std::clamp(share[uk] * std::clamp(e.alpha_, 0.0f, 1.0f), 0.0f, 1.0f);
    s.layer = track * kLayersPerTrack + sub[uk];
    s.blend = e.blend_;
    s.mask = e.mask_;
    s.attachment_threshold = e.attachment_threshold_;
    s.draw_order_threshold = e.draw_order_threshold_;

    // Rotation latch: one per pair (this entry, the sub-layer's first entry); fresh when that pair
    // changes (a mix starts, or older entries were dropped).
    if (reference == kNone || reference_sub != sub[uk]) {
      reference = i;
      reference_sub = sub[uk];
      s.rotation_latch = nullptr;
    } else {
      if (e.latch_reference_ != reference) {
        std::fill_n(latch(i), bone_count_, std::numeric_limits<float>::quiet_NaN());
        e.latch_reference_ = reference;
      }
      s.rotation_latch = latch(i);
    }

    // Events: the current entry always; a mixing-out one while its successor's fraction is below
    // its threshold.
    const bool events = k == count - 1 || at(chain[uk + 1]).mix_fraction() < e.event_threshold_;
    const float start = e.range_start(), end = e.range_end();
    const bool whole = start == 0 && end == e.length_;
    const bool direct = !e.reverse_ && (s.loops == 0 || whole);
    s.event_threshold = events && direct ? 0.0f : kNever;
    push(s);
    if (!events || direct) continue;

    // Windows one sample cannot express, as weight-0 samples that only fire events.
    ClipSample ev = s;
    ev.weight = 0;
    ev.event_threshold = 0;
    ev.rotation_latch = nullptr;
    ev.loops = 0;
    auto window = [&](float from, bool include_from, float to) {
      ev.previous_time = from;
      ev.first = include_from;
      ev.time = to;
      push(ev);
    };
    if (!e.reverse_) {  // a wrap inside a sub-range: (previous, end], then [start, time]
      window(s.previous_time, first, end);
      window(start, true, s.time);
    } else if (s.loops == 0) {  // backwards: the keys between time and previous
      window(s.time, false, s.previous_time);
    } else {  // backwards across a wrap: [start, previous], then (time, end]
      window(start, true, s.previous_time);
      window(s.time, false, end);
    }
  }
  return std::min(n, out.size());
}

std::size_t AnimationTracks::write_samples(std::span<ClipSample> out) {
  std::size_t n = 0;
  for (std::size_t ti = 0; ti < tracks_.size(); ++ti) n += write_track(tracks_[ti], static_cast<int>(ti), out.subspan(n));
  return n;
}

std::span<const ClipSample> AnimationTracks::samples() {
  const std::size_t n = write_samples(sample_buffer_);
  return {sample_buffer_.data(), n};
}

}  // namespace mf::anim
