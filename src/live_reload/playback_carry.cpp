#include "mf/live_reload/playback_carry.hpp"

#include <algorithm>
#include <cstddef>

namespace mf::live_reload {
namespace {

using anim::AnimationTracks;
using anim::TrackEntry;
using anim::TrackEntryHandle;

constexpr int kMissing = -2;  // a clip the new data lacks (kEmptyClip, −1, stays empty)

struct TrackPlan {
  int track = 0;
  std::vector<TrackEntryHandle> chain;  // oldest first; the last is the current entry
  std::vector<TrackEntryHandle> queue;  // in order
  bool restart_queue = false;           // the current entry was dropped: the queue's first starts now
};

struct Carry {
  const skel::SkeletonData& old_data;
  const skel::SkeletonData& new_data;
  const AnimationTracks& src;
  AnimationTracks& dst;
  std::vector<int> clip_map;  // old clip index → new, or kMissing
  bool keep_masks = false;
  CarryReport& report;

  int map_clip(int clip) const {
    if (clip == anim::kEmptyClip) return anim::kEmptyClip;
    return clip >= 0 && static_cast<std::size_t>(clip) < clip_map.size() ? clip_map[static_cast<std::size_t>(clip)] : kMissing;
  }
  std::string clip_name(int clip) const {
    return clip >= 0 && static_cast<std::size_t>(clip) < old_data.clips.size() ? old_data.clips[static_cast<std::size_t>(clip)].name
                                                                               : std::string();
  }
  float old_length(int clip) const {
    return clip >= 0 && static_cast<std::size_t>(clip) < old_data.clips.size() ? old_data.clips[static_cast<std::size_t>(clip)].length : 0.0f;
  }
  float new_length(int clip) const {
    return clip >= 0 && static_cast<std::size_t>(clip) < new_data.clips.size() ? new_data.clips[static_cast<std::size_t>(clip)].length : 0.0f;
  }
  void drop(int track, const TrackEntry& e, DropReason reason) {
    report.dropped_entries.push_back({track, clip_name(e.clip()), reason});
  }

  // Every setting of `s` onto `d` (the entry made for it from the new data).
  void copy(const TrackEntry& s, TrackEntry& d) const {
    d.set_loop(s.loop());
    d.set_track_time(s.track_time());
    d.set_time_scale(s.time_scale());
    d.set_alpha(s.alpha());
    d.set_mix_duration(s.mix_duration());
    d.set_mix_time(s.mix_time());
    d.set_blend(s.blend());
    d.set_event_threshold(s.event_threshold());
    d.set_attachment_threshold(s.attachment_threshold());
    d.set_draw_order_threshold(s.draw_order_threshold());
    d.set_hold_previous(s.hold_previous());
    d.set_reverse(s.reverse());
    d.set_animation_start(s.animation_start());
    // A range to the old clip's end plays to the new clip's end (set_clip's default).
    const float old_end = old_length(s.clip());
    d.set_animation_end(s.animation_end() >= old_end ? new_length(d.clip()) : s.animation_end());
    d.set_mask(keep_masks ? s.mask() : nullptr);
    d.set_delay(s.delay());
    d.set_track_end(s.track_end());
  }

  TrackEntryHandle place_current(int track, const TrackEntry& s) {
    const int clip = map_clip(s.clip());
    return clip == anim::kEmptyClip ? dst.set_empty(track, s.mix_duration()) : dst.set_clip(track, clip, s.loop());
  }
  TrackEntryHandle place_queued(int track, const TrackEntry& s) {
    const int clip = map_clip(s.clip());
    // Any delay: copy() sets the exact one after.
    return clip == anim::kEmptyClip ? dst.add_empty(track, s.mix_duration(), 1) : dst.add_clip(track, clip, s.loop(), 1);
  }
};

TrackPlan plan_track(Carry& c, int track) {
  TrackPlan plan;
  plan.track = track;
  const TrackEntryHandle current = c.src.current(track);
  if (current.is_null()) return plan;
  std::vector<TrackEntryHandle> chain;  // newest first
  for (TrackEntryHandle h = current; !h.is_null(); h = c.src.mixing_from(h)) chain.push_back(h);
  const bool current_missing = c.map_clip(c.src.entry(current)->clip()) == kMissing;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const TrackEntry& e = *c.src.entry(*it);
    if (c.map_clip(e.clip()) == kMissing) c.drop(track, e, DropReason::ClipMissing);
    else if (current_missing) c.drop(track, e, DropReason::CurrentDropped);
    else plan.chain.push_back(*it);
  }
  plan.restart_queue = current_missing;
  for (TrackEntryHandle h = c.src.queued_after(current); !h.is_null(); h = c.src.queued_after(h)) {
    const TrackEntry& e = *c.src.entry(h);
    if (c.map_clip(e.clip()) == kMissing) c.drop(track, e, DropReason::ClipMissing);
    else plan.queue.push_back(h);
  }
  return plan;
}

void carry_tracks(Carry& c) {
  c.dst.clear_tracks();
  c.dst.set_default_mix(c.src.default_mix());
  c.dst.set_time_scale(c.src.time_scale());
  // The mix table is not listed, only looked up: every pair that differs from the default.
  const int old_clips = static_cast<int>(c.old_data.clips.size());
  for (int from = anim::kEmptyClip; from < old_clips; ++from) {
    for (int to = 0; to < old_clips; ++to) {
      const float d = c.src.mix(from, to);
      if (d == c.src.default_mix()) continue;
      const int f = c.map_clip(from), t = c.map_clip(to);
      if (f != kMissing && t != kMissing) c.dst.set_mix(f, t, d);
    }
  }

  std::vector<TrackPlan> plans;
  std::size_t longest = 0;
  for (int track = 0; track < c.src.track_count(); ++track) {
    plans.push_back(plan_track(c, track));
    longest = std::max(longest, plans.back().chain.size());
  }

  // Crossfade chains, oldest entries first, the newest of every track aligned on the last step. Each
  // step ends with one sampling, so the entries placed count as shown: the next set_clip mixes from
  // them rather than replacing them, and their event windows start at the carried times. An older
  // entry's delay would keep it from being sampled: it is restored once the chain stands.
  std::vector<std::pair<TrackEntryHandle, TrackEntryHandle>> delayed;  // (old, new)
  for (std::size_t step = 0; step < longest; ++step) {
    for (TrackPlan& plan : plans) {
      const std::size_t first_step = longest - plan.chain.size();
      if (step < first_step) continue;
      const TrackEntryHandle old = plan.chain[step - first_step];
      const TrackEntry& s = *c.src.entry(old);
      const TrackEntryHandle placed = c.place_current(plan.track, s);
      TrackEntry& d = *c.dst.entry(placed);
      c.copy(s, d);
      if (step + 1 < longest && s.delay() > 0) {
        d.set_delay(0);
        delayed.emplace_back(old, placed);
      }
      c.report.handles.emplace_back(old, placed);
    }
    (void)c.dst.samples();
  }
  for (const auto& [old, placed] : delayed) c.dst.entry(placed)->set_delay(c.src.entry(old)->delay());

  for (TrackPlan& plan : plans) {
    for (std::size_t k = 0; k < plan.queue.size(); ++k) {
      const TrackEntry& s = *c.src.entry(plan.queue[k]);
      const TrackEntryHandle placed = c.place_queued(plan.track, s);
      TrackEntry& d = *c.dst.entry(placed);
      c.copy(s, d);
      if (k == 0 && plan.restart_queue) {
        d.set_delay(0);  // current now: starts at once
        d.set_track_time(0);
      }
      c.report.handles.emplace_back(plan.queue[k], placed);
    }
  }
  c.dst.clear_signals();  // Started / Interrupted of the rebuild: nothing new happened
}

void carry_overrides(const skel::AnimatedSkeleton& from, skel::AnimatedSkeleton& to, CarryReport& report) {
  to.clear_bone_overrides();
  const skel::SkeletonData& old_data = from.data();
  for (std::size_t b = 0; b < old_data.bones.size(); ++b) {
    const skel::BoneOverride* o = from.bone_override(static_cast<int>(b));
    if (!o) continue;
    const int bone = to.data().find_bone(old_data.bones.names[b]);
    if (bone < 0) report.dropped_overrides.push_back(old_data.bones.names[b]);
    else to.set_bone_override(bone, *o);
  }
}

// The state named like `name` among a machine's states, or −1.
int state_in(const anim::AnimationGraph& g, int machine, const std::string& name) {
  const anim::StateMachine& m = g.machines[static_cast<std::size_t>(machine)];
  for (std::uint32_t s = m.state_first; s < m.state_first + m.state_count; ++s)
    if (g.states[s].name == name) return static_cast<int>(s);
  return -1;
}

int layer_named(const anim::AnimationGraph& g, const std::string& name) {
  for (std::size_t l = 0; l < g.layers.size(); ++l)
    if (g.layers[l].name == name) return static_cast<int>(l);
  return -1;
}

}  // namespace

anim::TrackEntryHandle CarryReport::handle(anim::TrackEntryHandle old) const {
  for (const auto& [from, to] : handles)
    if (from == old) return to;
  return {};
}

CarryReport carry_playback(const skel::AnimatedSkeleton& from, skel::AnimatedSkeleton& to) {
  CarryReport report;
  Carry c{from.data(), to.data(), from.tracks(), to.tracks(), {}, false, report};
  c.clip_map.resize(c.old_data.clips.size());
  for (std::size_t i = 0; i < c.old_data.clips.size(); ++i) {
    const int found = c.new_data.find_clip(c.old_data.clips[i].name);
    c.clip_map[i] = found >= 0 ? found : kMissing;
  }
  c.keep_masks = c.old_data.bones.names == c.new_data.bones.names;
  if (!c.keep_masks) {
    for (int track = 0; track < c.src.track_count() && !report.dropped_masks; ++track) {
      const TrackEntryHandle current = c.src.current(track);
      for (TrackEntryHandle h = current; !h.is_null(); h = c.src.mixing_from(h))
        report.dropped_masks = report.dropped_masks || c.src.entry(h)->mask();
      for (TrackEntryHandle h = c.src.queued_after(current); !h.is_null(); h = c.src.queued_after(h))
        report.dropped_masks = report.dropped_masks || c.src.entry(h)->mask();
    }
  }
  carry_tracks(c);
  carry_overrides(from, to, report);
  return report;
}

void carry_graph(const anim::AnimationGraphPlayer& from, anim::AnimationGraphPlayer& to, CarryReport& report) {
  const anim::AnimationGraph& old_graph = from.graph();
  const anim::AnimationGraph& new_graph = to.graph();

  for (std::size_t p = 0; p < old_graph.params.size(); ++p) {
    const anim::GraphParam& param = old_graph.params[p];
    const int q = to.find_param(param.name);
    if (q < 0) {
      report.dropped_params.push_back(param.name);
      continue;
    }
    const auto type = new_graph.params[static_cast<std::size_t>(q)].type;
    if (type == anim::ParamType::Float || type == anim::ParamType::Int) to.set_float(q, from.get_float(static_cast<int>(p)));
    else to.set_bool(q, from.get_bool(static_cast<int>(p)));
  }

  for (int l = 0; l < from.layer_count(); ++l) {
    const std::string& layer_name = old_graph.layers[static_cast<std::size_t>(l)].name;
    const int layer = layer_named(new_graph, layer_name);
    std::string old_path;
    for (std::int32_t s : from.current_path(l))
      old_path += (old_path.empty() ? "" : "/") + old_graph.states[static_cast<std::size_t>(s)].name;
    if (layer < 0) {
      report.dropped_states.push_back(layer_name + ": " + old_path);
      continue;
    }
    // Down the old path by names, as deep as the new graph has them.
    int machine = new_graph.layers[static_cast<std::size_t>(layer)].machine;
    int deepest = -1;
    std::size_t matched = 0;
    const std::span<const std::int32_t> path = from.current_path(l);
    for (std::int32_t s : path) {
      const int state = machine >= 0 ? state_in(new_graph, machine, old_graph.states[static_cast<std::size_t>(s)].name) : -1;
      if (state < 0) break;
      deepest = state;
      ++matched;
      const anim::GraphState& gs = new_graph.states[static_cast<std::size_t>(state)];
      machine = gs.kind == anim::StateKind::Machine ? gs.machine : -1;
    }
    if (matched < path.size()) report.dropped_states.push_back(layer_name + ": " + old_path);
    if (deepest < 0) continue;
    to.force_state(layer, deepest, 0);
    // The same leaf: its time goes on (a Machine state reached by a shorter path restarts at its entry).
    const bool same_leaf = matched == path.size() && new_graph.states[static_cast<std::size_t>(deepest)].kind != anim::StateKind::Machine;
    if (same_leaf) to.set_normalized_time(layer, from.normalized_time(l));
  }
  (void)to.drain_signals();
}

}  // namespace mf::live_reload
