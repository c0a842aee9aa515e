#include "mf/anim/animation_graph_player.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "crossfade.hpp"
#include "mf/anim/loop_time.hpp"

namespace mf::anim {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kNever = std::numeric_limits<float>::infinity();  // an event threshold no weight reaches
constexpr float kEventFraction = 0.5f;  // a mixing-out leaf fires events below this successor fraction
constexpr std::size_t kMaxSamplesPerLeaf = 3;  // a 2D triangle; 1D and hull edges use two, clips one
constexpr std::uint64_t kNoReference = std::numeric_limits<std::uint64_t>::max();

Error bind_error(std::string path, std::string message) {
  Error e;
  e.path = std::move(path);
  e.message = std::move(message);
  return e;
}

int find_name(std::span<const std::string> names, std::string_view name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

// Machine nesting depth below machine m (1 for a machine without Machine states). The graph is valid,
// so the recursion ends.
std::size_t machine_depth(const AnimationGraph& g, std::int32_t m) {
  const StateMachine& sm = g.machines[static_cast<std::size_t>(m)];
  std::size_t deepest = 0;
  for (std::uint32_t s = sm.state_first; s < sm.state_first + sm.state_count; ++s)
    if (g.states[s].kind == StateKind::Machine) deepest = std::max(deepest, machine_depth(g, g.states[s].machine));
  return deepest + 1;
}

}  // namespace

Expected<GraphBinding> bind_graph(const AnimationGraph& graph, std::span<const std::string> clip_names,
                                  std::span<const float> clip_lengths, std::span<const std::string> bone_names) {
  if (std::string problem = graph.validate(); !problem.empty()) return Unexpected{bind_error({}, problem)};
  if (clip_lengths.size() != clip_names.size())
    return Unexpected{bind_error({}, "clip lengths and clip names differ in count")};
  GraphBinding b;
  b.clip_lengths.assign(clip_lengths.begin(), clip_lengths.end());
  b.bone_count = static_cast<int>(bone_names.size());
  b.state_clip.assign(graph.states.size(), -1);
  for (std::size_t s = 0; s < graph.states.size(); ++s) {
    const GraphState& st = graph.states[s];
    if (st.kind != StateKind::Clip) continue;
    const int clip = find_name(clip_names, st.clip);
    if (clip < 0)
      return Unexpected{bind_error("states[" + std::to_string(s) + "].clip",
                                   "state '" + st.name + "': unknown clip '" + st.clip + "'")};
    b.state_clip[s] = clip;
  }
  b.member_clip.assign(graph.members.size(), -1);
  for (std::size_t s = 0; s < graph.states.size(); ++s) {
    const GraphState& st = graph.states[s];
    if (st.kind != StateKind::BlendSpace1D && st.kind != StateKind::BlendSpace2D) continue;
    for (std::uint32_t m = st.member_first; m < st.member_first + st.member_count; ++m) {
      const int clip = find_name(clip_names, graph.members[m].clip);
      if (clip < 0)
        return Unexpected{bind_error("members[" + std::to_string(m) + "].clip", "blend space '" + st.name +
                                                                                    "': unknown clip '" +
                                                                                    graph.members[m].clip + "'")};
      b.member_clip[m] = clip;
    }
  }
  b.layer_masks.resize(graph.layers.size());
  for (std::size_t l = 0; l < graph.layers.size(); ++l) {
    const GraphLayer& layer = graph.layers[l];
    if (layer.mask_bones.empty()) continue;
    b.layer_masks[l].assign(bone_names.size(), 0);
    for (std::size_t k = 0; k < layer.mask_bones.size(); ++k) {
      const int bone = find_name(bone_names, layer.mask_bones[k]);
      if (bone < 0)
        return Unexpected{bind_error("layers[" + std::to_string(l) + "].mask_bones[" + std::to_string(k) + "]",
                                     "layer '" + layer.name + "': unknown bone '" + layer.mask_bones[k] + "'")};
      b.layer_masks[l][static_cast<std::size_t>(bone)] = 1;
    }
  }
  return b;
}

constexpr float kMaxPassesPerUpdate = 1e6f;

float AnimationGraphPlayer::Leaf::mix_fraction() const {
  return crossfade_fraction(mix_time, mix_duration);
}

AnimationGraphPlayer::AnimationGraphPlayer(const AnimationGraph& graph, const GraphBinding& binding, int signal_capacity)
    : graph_(&graph),
      binding_(&binding),
      signal_capacity_(static_cast<std::size_t>(std::max(signal_capacity, 1))) {
  const AnimationGraph& g = graph;
  const std::size_t layer_n = g.layers.size();
  bone_count_ = static_cast<std::size_t>(std::max(binding.bone_count, 0));
  for (const GraphLayer& l : g.layers) max_depth_ = std::max(max_depth_, machine_depth(g, l.machine));
  // Only blend spaces have members: validate() checks their ranges, not a count left on other states.
  for (const GraphState& s : g.states)
    if (s.kind == StateKind::BlendSpace1D || s.kind == StateKind::BlendSpace2D)
      max_members_ = std::max<std::size_t>(max_members_, s.member_count);

  values_.resize(g.params.size());
  for (std::size_t p = 0; p < g.params.size(); ++p) values_[p] = g.params[p].default_value;

  state_machine_.assign(g.states.size(), -1);
  machine_parent_.assign(g.machines.size(), -1);
  order_first_.resize(g.machines.size());
  for (std::size_t m = 0; m < g.machines.size(); ++m) {
    const StateMachine& sm = g.machines[m];
    for (std::uint32_t s = sm.state_first; s < sm.state_first + sm.state_count; ++s)
      state_machine_[s] = static_cast<std::int32_t>(m);
    // Transitions by priority, ties in file order.
    order_first_[m] = static_cast<std::uint32_t>(machine_order_.size());
    for (std::uint32_t t = sm.transition_first; t < sm.transition_first + sm.transition_count; ++t) machine_order_.push_back(t);
    std::stable_sort(machine_order_.begin() + order_first_[m], machine_order_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return g.transitions[a].priority < g.transitions[b].priority;
    });
  }
  for (std::size_t s = g.states.size(); s-- > 0;)
    if (g.states[s].kind == StateKind::Machine) machine_parent_[static_cast<std::size_t>(g.states[s].machine)] = static_cast<std::int32_t>(s);

  masks_.resize(layer_n);
  for (std::size_t l = 0; l < layer_n && l < binding.layer_masks.size(); ++l) masks_[l].bones = binding.layer_masks[l];
  layers_.resize(layer_n);
  path_.assign(layer_n * max_depth_, -1);
  exited_.assign(layer_n * max_depth_, 0);
  const std::size_t slots = layer_n * kMaxMixChain * max_members_;
  weights_.assign(slots, 0.0f);
  latches_.assign(slots * bone_count_, kNaN);
  latch_reference_.assign(slots, kNoReference);
  travel_.assign(layer_n * std::max<std::size_t>(g.states.size(), 1), -1);
  path_scratch_.assign(max_depth_, -1);
  bfs_queue_.assign(g.states.size(), -1);
  bfs_via_.assign(g.states.size(), -1);
  bfs_from_.assign(g.states.size(), -1);
  samples_.resize(layer_n * kMaxMixChain * kMaxSamplesPerLeaf);
  signals_.reserve(signal_capacity_);
  drained_.reserve(signal_capacity_);

  for (int l = 0; l < layer_count(); ++l) enter_initial(l);
}

// ---- parameters ------------------------------------------------------------------------------------

void AnimationGraphPlayer::set_float(int param, float value) {
  if (param < 0 || static_cast<std::size_t>(param) >= values_.size() || !std::isfinite(value)) return;
  const auto p = static_cast<std::size_t>(param);
  switch (graph_->params[p].type) {
    case ParamType::Float: values_[p] = value; break;
    case ParamType::Int: values_[p] = std::round(static_cast<double>(value)); break;
    case ParamType::Bool:
    case ParamType::Trigger: values_[p] = value != 0 ? 1 : 0; break;
  }
}

void AnimationGraphPlayer::set_int(int param, std::int32_t value) {
  if (param < 0 || static_cast<std::size_t>(param) >= values_.size()) return;
  const auto p = static_cast<std::size_t>(param);
  const ParamType type = graph_->params[p].type;
  if (type == ParamType::Float) values_[p] = static_cast<float>(value);
  else if (type == ParamType::Int) values_[p] = value;
  else values_[p] = value != 0 ? 1 : 0;
}

void AnimationGraphPlayer::set_bool(int param, bool value) {
  if (param < 0 || static_cast<std::size_t>(param) >= values_.size()) return;
  values_[static_cast<std::size_t>(param)] = value ? 1 : 0;
}

void AnimationGraphPlayer::set_trigger(int param) { set_bool(param, true); }
void AnimationGraphPlayer::reset_trigger(int param) { set_bool(param, false); }

float AnimationGraphPlayer::get_float(int param) const {
  if (param < 0 || static_cast<std::size_t>(param) >= values_.size()) return 0;
  return static_cast<float>(values_[static_cast<std::size_t>(param)]);
}

std::int32_t AnimationGraphPlayer::get_int(int param) const {
  if (param < 0 || static_cast<std::size_t>(param) >= values_.size()) return 0;
  const double v = std::clamp(values_[static_cast<std::size_t>(param)], -2147483648.0, 2147483647.0);
  return static_cast<std::int32_t>(std::round(v));
}

bool AnimationGraphPlayer::get_bool(int param) const {
  if (param < 0 || static_cast<std::size_t>(param) >= values_.size()) return false;
  return values_[static_cast<std::size_t>(param)] != 0;
}

bool AnimationGraphPlayer::set_param(std::string_view name, float value) {
  const int p = find_param(name);
  if (p < 0) return false;
  set_float(p, value);
  return true;
}

bool AnimationGraphPlayer::set_trigger(std::string_view name) {
  const int p = find_param(name);
  if (p < 0) return false;
  set_trigger(p);
  return true;
}

// ---- conditions ------------------------------------------------------------------------------------

bool AnimationGraphPlayer::evaluate(std::int32_t node) const {
  const ConditionNode& c = graph_->conditions[static_cast<std::size_t>(node)];
  if (c.kind == ConditionKind::And || c.kind == ConditionKind::Or) {
    const bool all = c.kind == ConditionKind::And;
    for (std::uint32_t k = 0; k < c.child_count; ++k) {
      const bool v = evaluate(static_cast<std::int32_t>(graph_->condition_children[c.first_child + k]));
      if (v != all) return v;  // And stops at the first false, Or at the first true
    }
    return all;  // an empty And holds, an empty Or does not
  }
  const double v = values_[static_cast<std::size_t>(c.param)];
  const double ref = c.value;
  switch (c.op) {
    case ConditionOp::Greater: return v > ref;
    case ConditionOp::Less: return v < ref;
    case ConditionOp::GreaterEqual: return v >= ref;
    case ConditionOp::LessEqual: return v <= ref;
    case ConditionOp::Equal: return v == ref;
    case ConditionOp::NotEqual: return v != ref;
    case ConditionOp::IsTrue:
    case ConditionOp::IsSet: return v != 0;
    case ConditionOp::IsFalse: return v == 0;
  }
  return false;
}

void AnimationGraphPlayer::consume_triggers(std::int32_t node) {
  const ConditionNode& c = graph_->conditions[static_cast<std::size_t>(node)];
  if (c.kind == ConditionKind::Leaf) {
    if (graph_->params[static_cast<std::size_t>(c.param)].type == ParamType::Trigger) values_[static_cast<std::size_t>(c.param)] = 0;
    return;
  }
  for (std::uint32_t k = 0; k < c.child_count; ++k)
    consume_triggers(static_cast<std::int32_t>(graph_->condition_children[c.first_child + k]));
}

// ---- signals ---------------------------------------------------------------------------------------

void AnimationGraphPlayer::signal(GraphSignalKind kind, int layer, std::int32_t state, std::int32_t transition) {
  if (signals_.size() >= signal_capacity_) {
    ++dropped_signals_;
    return;
  }
  signals_.push_back({kind, layer, state, transition});
}

std::span<const GraphSignal> AnimationGraphPlayer::drain_signals() {
  drained_.clear();
  std::swap(signals_, drained_);  // both keep their reserved capacity
  dropped_signals_ = 0;
  return drained_;
}

// ---- queries ---------------------------------------------------------------------------------------

std::int32_t AnimationGraphPlayer::machine_at(int layer, int level) const {
  if (level == 0) return graph_->layers[layer_index(layer)].machine;
  return graph_->states[static_cast<std::size_t>(path(layer)[level - 1])].machine;
}

int AnimationGraphPlayer::current_state(int layer) const {
  if (!valid_layer(layer)) return -1;
  const Layer& L = layers_[layer_index(layer)];
  return L.depth > 0 ? path(layer)[L.depth - 1] : -1;
}

int AnimationGraphPlayer::current_top_state(int layer) const {
  if (!valid_layer(layer)) return -1;
  return layers_[layer_index(layer)].depth > 0 ? path(layer)[0] : -1;
}

std::span<const std::int32_t> AnimationGraphPlayer::current_path(int layer) const {
  if (!valid_layer(layer)) return {};
  return {path(layer), static_cast<std::size_t>(layers_[layer_index(layer)].depth)};
}

int AnimationGraphPlayer::current_transition(int layer) const {
  if (!valid_layer(layer)) return -1;
  const Layer& L = layers_[layer_index(layer)];
  if (L.chain_count == 0) return -1;
  const Leaf& newest = L.chain[L.chain_count - 1];
  return newest.mix_fraction() < 1 ? newest.transition : -1;
}

float AnimationGraphPlayer::normalized_time(int layer) const {
  if (!valid_layer(layer)) return 0;
  const Layer& L = layers_[layer_index(layer)];
  return L.chain_count > 0 ? L.chain[L.chain_count - 1].time : 0.0f;
}

std::span<const float> AnimationGraphPlayer::blend_weights(int layer) const {
  if (!valid_layer(layer)) return {};
  const Layer& L = layers_[layer_index(layer)];
  if (L.chain_count == 0) return {};
  const Leaf& newest = L.chain[L.chain_count - 1];
  const GraphState& s = graph_->states[static_cast<std::size_t>(newest.state)];
  const std::size_t n = s.kind == StateKind::Clip ? 1 : s.member_count;
  return {slot_weights(layer, newest.slot), n};
}

bool AnimationGraphPlayer::travelling(int layer) const {
  if (!valid_layer(layer)) return false;
  const Layer& L = layers_[layer_index(layer)];
  return L.travel_next < L.travel_count;
}

// ---- leaves ----------------------------------------------------------------------------------------

void AnimationGraphPlayer::compute_weights(int layer, Leaf& leaf) {
  const GraphState& s = graph_->states[static_cast<std::size_t>(leaf.state)];
  float* w = slot_weights(layer, leaf.slot);
  if (s.kind == StateKind::Clip) {
    w[0] = 1;
    return;
  }
  const std::span<const BlendMember> members(graph_->members.data() + s.member_first, s.member_count);
  const float x = static_cast<float>(values_[static_cast<std::size_t>(s.param_x)]);
  if (s.kind == StateKind::BlendSpace1D) {
    blend_weights_1d(members, x, {w, s.member_count});
    return;
  }
  const float y = static_cast<float>(values_[static_cast<std::size_t>(s.param_y)]);
  blend_weights_2d(members, {graph_->triangles.data() + s.triangle_first, s.triangle_count},
                   {graph_->hull_edges.data() + s.hull_first, s.hull_count}, x, y, {w, s.member_count});
}

float AnimationGraphPlayer::leaf_length(const Leaf& leaf, const float* weights) const {
  const GraphState& s = graph_->states[static_cast<std::size_t>(leaf.state)];
  const auto clip_length = [&](std::int32_t clip) {
    return clip >= 0 && static_cast<std::size_t>(clip) < binding_->clip_lengths.size()
               ? std::max(binding_->clip_lengths[static_cast<std::size_t>(clip)], 0.0f)
               : 0.0f;
  };
  if (s.kind == StateKind::Clip) return clip_length(binding_->state_clip[static_cast<std::size_t>(leaf.state)]);
  float length = 0;
  for (std::uint32_t m = 0; m < s.member_count; ++m) {
    if (weights[m] == 0) continue;
    const std::uint32_t member = s.member_first + m;
    length += weights[m] * clip_length(binding_->member_clip[member]) / graph_->members[member].speed;
  }
  return length;
}

void AnimationGraphPlayer::start_leaf(int layer, std::int32_t state, std::int32_t transition, float duration) {
  Layer& L = layers_[layer_index(layer)];
  if (L.chain_count > 0 && !L.chain[L.chain_count - 1].sampled) {
    --L.chain_count;  // never shown: nothing to mix from, the new leaf takes its place
  } else if (L.chain_count == kMaxMixChain) {
    std::rotate(L.chain, L.chain + 1, L.chain + kMaxMixChain);  // drop the oldest
    --L.chain_count;
  }
  // A chain slot no remaining leaf uses.
  int slot = 0;
  for (bool used = true; used; ++slot) {
    used = false;
    for (int k = 0; k < L.chain_count; ++k) used = used || L.chain[k].slot == slot;
    if (!used) break;
  }
  Leaf& leaf = L.chain[L.chain_count++];
  leaf = Leaf{};
  leaf.state = state;
  leaf.transition = transition;
  leaf.mix_duration = std::max(duration, 0.0f);
  leaf.serial = next_serial_++;
  leaf.slot = slot;
  const std::size_t first = (layer_index(layer) * kMaxMixChain + static_cast<std::size_t>(slot)) * max_members_;
  std::fill_n(latch_reference_.begin() + static_cast<std::ptrdiff_t>(first), max_members_, kNoReference);
  compute_weights(layer, leaf);
}

// ---- paths -----------------------------------------------------------------------------------------

void AnimationGraphPlayer::change_path(int layer, int level, std::span<const std::int32_t> states,
                                       std::int32_t transition, float duration) {
  Layer& L = layers_[layer_index(layer)];
  std::int32_t* p = path(layer);
  for (int k = L.depth; k-- > level;) signal(GraphSignalKind::StateExited, layer, p[k], -1);
  int depth = level;
  for (std::int32_t s : states) p[depth++] = s;
  // Machine states enter their entry state, down to a leaf.
  while (graph_->states[static_cast<std::size_t>(p[depth - 1])].kind == StateKind::Machine && static_cast<std::size_t>(depth) < max_depth_) {
    const StateMachine& sm = graph_->machines[static_cast<std::size_t>(graph_->states[static_cast<std::size_t>(p[depth - 1])].machine)];
    p[depth++] = sm.entry;
  }
  std::fill(exited(layer) + level + 1, exited(layer) + max_depth_, std::uint8_t{0});
  L.depth = depth;
  signal(GraphSignalKind::TransitionStarted, layer, states.empty() ? p[level] : states.back(), transition);
  for (int k = level; k < depth; ++k) signal(GraphSignalKind::StateEntered, layer, p[k], -1);
  start_leaf(layer, p[depth - 1], transition, duration);
}

void AnimationGraphPlayer::enter_initial(int layer) {
  Layer& L = layers_[layer_index(layer)];
  L.chain_count = 0;
  L.depth = 0;
  L.travel_count = L.travel_next = 0;
  std::int32_t* p = path(layer);
  std::fill(exited(layer), exited(layer) + max_depth_, std::uint8_t{0});
  int depth = 0;
  std::int32_t machine = graph_->layers[layer_index(layer)].machine;
  for (;;) {
    const std::int32_t s = graph_->machines[static_cast<std::size_t>(machine)].entry;
    p[depth++] = s;
    signal(GraphSignalKind::StateEntered, layer, s, -1);
    const GraphState& st = graph_->states[static_cast<std::size_t>(s)];
    if (st.kind != StateKind::Machine || static_cast<std::size_t>(depth) >= max_depth_) break;
    machine = st.machine;
  }
  L.depth = depth;
  start_leaf(layer, p[depth - 1], -1, 0);
}

// The path from the layer's root machine to `state`, into path_scratch_[0 … levels). A machine used
// by several Machine states is reached through the one on the current path, else the first.
bool AnimationGraphPlayer::target_path(int layer, int state, int& levels) {
  const std::int32_t root = graph_->layers[layer_index(layer)].machine;
  const Layer& L = layers_[layer_index(layer)];
  std::int32_t s = state;
  levels = 0;
  for (std::size_t guard = 0; guard < max_depth_; ++guard) {
    path_scratch_[static_cast<std::size_t>(levels++)] = s;
    const std::int32_t m = state_machine_[static_cast<std::size_t>(s)];
    if (m == root) {
      std::reverse(path_scratch_.begin(), path_scratch_.begin() + levels);
      return true;
    }
    std::int32_t parent = machine_parent_[static_cast<std::size_t>(m)];
    for (int k = 0; k < L.depth; ++k) {
      const std::int32_t ps = path(layer)[k];
      if (graph_->states[static_cast<std::size_t>(ps)].kind == StateKind::Machine && graph_->states[static_cast<std::size_t>(ps)].machine == m) parent = ps;
    }
    if (parent < 0) return false;
    s = parent;
  }
  return false;
}

bool AnimationGraphPlayer::force_state(int layer, int state, float duration) {
  if (!valid_layer(layer) || state < 0 || static_cast<std::size_t>(state) >= graph_->states.size()) return false;
  int levels = 0;
  if (!target_path(layer, state, levels)) return false;
  Layer& L = layers_[layer_index(layer)];
  // The first level where the paths differ; forcing a state already on the path restarts it.
  int level = 0;
  while (level < levels - 1 && level < L.depth && path(layer)[level] == path_scratch_[static_cast<std::size_t>(level)]) ++level;
  L.travel_count = L.travel_next = 0;
  change_path(layer, level, {path_scratch_.data() + level, static_cast<std::size_t>(levels - level)}, -1,
              std::isfinite(duration) ? duration : 0.0f);
  return true;
}

bool AnimationGraphPlayer::set_normalized_time(int layer, float time) {
  if (!valid_layer(layer) || !std::isfinite(time) || time < 0) return false;
  Layer& L = layers_[layer_index(layer)];
  if (L.chain_count == 0) return false;
  Leaf& leaf = L.chain[L.chain_count - 1];
  // The event window and the exit-time test both start at the leaf's times: moving both skips the span.
  leaf.time = time;
  leaf.last_time = time;
  return true;
}

void AnimationGraphPlayer::reset() {
  for (std::size_t p = 0; p < values_.size(); ++p) values_[p] = graph_->params[p].default_value;
  for (int l = 0; l < layer_count(); ++l) {
    const Layer& L = layers_[layer_index(l)];
    for (int k = L.depth; k-- > 0;) signal(GraphSignalKind::StateExited, l, path(l)[k], -1);
    enter_initial(l);
  }
  sample_count_ = 0;
}

// ---- transitions -----------------------------------------------------------------------------------

namespace {

// Whether normalised time moving from `before` to `after` reaches exit time e (see the header).
bool crosses(float before, float after, float e, bool loop, bool fresh) {
  if (!loop) return after >= e;
  if (!(after > before) && !(fresh && after == before)) return false;
  const double lo = before, hi = after;
  if (e >= 1) return (fresh ? lo <= e : lo < e) && e <= hi;
  // Any k + e in (lo, hi] (or [lo, hi] on the first update).
  const double k_hi = std::floor(hi - e);
  if (k_hi < 0) return false;
  const double mark = k_hi + e;
  return fresh ? mark >= lo : mark > lo;
}

}  // namespace

bool AnimationGraphPlayer::evaluate_level(int layer, int level, float before, float after, bool fresh) {
  const Layer& L = layers_[layer_index(layer)];
  const std::int32_t m = machine_at(layer, level);
  const std::int32_t current = path(layer)[level];
  const GraphState& cs = graph_->states[static_cast<std::size_t>(current)];
  const StateMachine& sm = graph_->machines[static_cast<std::size_t>(m)];
  const std::uint32_t* order = machine_order_.data() + order_first_[static_cast<std::size_t>(m)];
  for (std::uint32_t k = 0; k < sm.transition_count; ++k) {
    const std::int32_t t = static_cast<std::int32_t>(order[k]);
    const Transition& tr = graph_->transitions[static_cast<std::size_t>(t)];
    if (tr.from != kAnyState && tr.from != current) continue;
    if (tr.from == kAnyState && tr.to == current) continue;
    if (tr.has_exit_time) {
      if (cs.kind == StateKind::Machine) {
        if (level + 1 >= L.depth || !exited(layer)[level + 1]) continue;
      } else if (!crosses(before, after, tr.exit_time, cs.loop, fresh)) {
        continue;
      }
    }
    if (tr.condition >= 0 && !evaluate(tr.condition)) continue;
    fire(layer, level, t, false);
    if (tr.to == kExitState && level > 0) evaluate_level(layer, level - 1, before, after, fresh);
    return true;
  }
  return false;
}

void AnimationGraphPlayer::fire(int layer, int level, std::int32_t transition, bool from_travel) {
  const Transition& tr = graph_->transitions[static_cast<std::size_t>(transition)];
  if (!from_travel && tr.condition >= 0) consume_triggers(tr.condition);
  if (tr.to == kExitState) {
    if (level > 0) {
      exited(layer)[level] = 1;  // the parent takes over from its Machine state
      return;
    }
    // The root machine has no parent: it starts again at its entry (Unity's rule).
    const std::int32_t entry = graph_->machines[static_cast<std::size_t>(machine_at(layer, 0))].entry;
    change_path(layer, 0, {&entry, 1}, transition, tr.duration);
    return;
  }
  const std::int32_t to = tr.to;
  change_path(layer, level, {&to, 1}, transition, tr.duration);
}

bool AnimationGraphPlayer::evaluate_layer(int layer, float before, float after, bool fresh) {
  const Layer& L = layers_[layer_index(layer)];
  for (int level = 0; level < L.depth; ++level) {
    if (level > 0 && exited(layer)[level]) break;  // an exited machine waits for its parent
    if (evaluate_level(layer, level, before, after, fresh)) return true;
  }
  return false;
}

bool AnimationGraphPlayer::travel(int layer, int state) {
  if (!valid_layer(layer) || state < 0 || static_cast<std::size_t>(state) >= graph_->states.size()) return false;
  int levels = 0;
  if (!target_path(layer, state, levels)) return false;
  Layer& L = layers_[layer_index(layer)];
  const std::int32_t* cur = path(layer);
  int level = 0;
  while (level < levels && level < L.depth && cur[level] == path_scratch_[static_cast<std::size_t>(level)]) ++level;
  if (level == levels) {  // already there
    L.travel_count = L.travel_next = 0;
    return true;
  }
  std::int32_t* hops = travel_.data() + layer_index(layer) * std::max<std::size_t>(graph_->states.size(), 1);
  int count = 0;
  // Breadth-first search per level: from the current state (or the entry of a machine entered on the
  // way) to the target's state at that level.
  for (int k = level; k < levels; ++k) {
    const std::int32_t m = state_machine_[static_cast<std::size_t>(path_scratch_[static_cast<std::size_t>(k)])];
    const StateMachine& sm = graph_->machines[static_cast<std::size_t>(m)];
    const std::int32_t from = k == level ? cur[k] : sm.entry;
    const std::int32_t goal = path_scratch_[static_cast<std::size_t>(k)];
    if (from == goal) continue;
    std::fill(bfs_via_.begin(), bfs_via_.end(), -1);
    std::size_t head = 0, tail = 0;
    bfs_queue_[tail++] = from;
    bfs_via_[static_cast<std::size_t>(from)] = std::numeric_limits<std::int32_t>::max();  // visited, no hop
    const std::uint32_t* order = machine_order_.data() + order_first_[static_cast<std::size_t>(m)];
    while (head < tail && bfs_via_[static_cast<std::size_t>(goal)] < 0) {
      const std::int32_t s = bfs_queue_[head++];
      for (std::uint32_t i = 0; i < sm.transition_count; ++i) {
        const Transition& tr = graph_->transitions[order[i]];
        if (tr.to == kExitState || (tr.from != kAnyState && tr.from != s) || tr.to == s) continue;
        if (bfs_via_[static_cast<std::size_t>(tr.to)] >= 0) continue;
        bfs_via_[static_cast<std::size_t>(tr.to)] = static_cast<std::int32_t>(order[i]);
        bfs_from_[static_cast<std::size_t>(tr.to)] = s;
        bfs_queue_[tail++] = tr.to;
      }
    }
    if (bfs_via_[static_cast<std::size_t>(goal)] < 0) return false;
    // Walk back from the goal, then reverse this level's hops in place.
    const int level_first = count;
    for (std::int32_t s = goal; s != from; s = bfs_from_[static_cast<std::size_t>(s)]) hops[count++] = bfs_via_[static_cast<std::size_t>(s)];
    std::reverse(hops + level_first, hops + count);
  }
  L.travel_count = count;
  L.travel_next = 0;
  return true;
}

void AnimationGraphPlayer::advance_travel(int layer, float before, float after, bool fresh) {
  Layer& L = layers_[layer_index(layer)];
  const std::int32_t t = travel_[layer_index(layer) * std::max<std::size_t>(graph_->states.size(), 1) +
                                 static_cast<std::size_t>(L.travel_next)];
  const Transition& tr = graph_->transitions[static_cast<std::size_t>(t)];
  // The level whose machine holds the hop, with its source current there.
  int level = -1;
  for (int k = 0; k < L.depth; ++k)
    if (state_machine_[static_cast<std::size_t>(path(layer)[k])] == state_machine_[static_cast<std::size_t>(tr.to)] &&
        (tr.from == kAnyState || tr.from == path(layer)[k]))
      level = k;
  if (level < 0) {  // the path moved under the travel: give up
    L.travel_count = L.travel_next = 0;
    return;
  }
  if (tr.has_exit_time) {
    const GraphState& cs = graph_->states[static_cast<std::size_t>(path(layer)[level])];
    if (cs.kind == StateKind::Machine || level != L.depth - 1) {
      if (!(level + 1 < L.depth && exited(layer)[level + 1])) return;
    } else if (!crosses(before, after, tr.exit_time, cs.loop, fresh)) {
      return;
    }
  }
  ++L.travel_next;
  if (L.travel_next == L.travel_count) L.travel_count = L.travel_next = 0;
  fire(layer, level, t, true);
}

// ---- update ----------------------------------------------------------------------------------------

void AnimationGraphPlayer::update(float delta) {
  if (!std::isfinite(delta)) delta = 0;
  sample_count_ = 0;
  for (int l = 0; l < layer_count(); ++l) {
    Layer& L = layers_[layer_index(l)];
    if (L.chain_count == 0) continue;

    // Times: every leaf plays on while it mixes; its weights follow the parameters.
    float before = 0, after = 0;
    bool fresh = false;
    for (int k = 0; k < L.chain_count; ++k) {
      Leaf& leaf = L.chain[k];
      compute_weights(l, leaf);
      const GraphState& s = graph_->states[static_cast<std::size_t>(leaf.state)];
      float speed = s.speed;
      if (s.speed_param >= 0) speed *= static_cast<float>(values_[static_cast<std::size_t>(s.speed_param)]);
      const float length = leaf_length(leaf, slot_weights(l, leaf.slot));
      const float step = delta * speed;
      before = leaf.time;
      fresh = !leaf.advanced;
      leaf.advanced = true;
      float advance = length > 1e-6f ? step / length : (step > 0 ? 1.0f : 0.0f);  // no length: a pass per update
      // An overflowing speed × parameter holds the leaf still; absurd speeds are capped at a million
      // passes per update, so the time stays finite however long it runs.
      if (!std::isfinite(advance)) advance = 0;
      leaf.time += std::clamp(advance, -kMaxPassesPerUpdate, kMaxPassesPerUpdate);
      after = leaf.time;
      leaf.mix_time += delta;
    }

    // At most one transition (or travel hop) per update, unless a non-interruptible one runs.
    const Leaf& newest = L.chain[L.chain_count - 1];
    const bool blocked = newest.transition >= 0 && newest.mix_fraction() < 1 &&
                         !graph_->transitions[static_cast<std::size_t>(newest.transition)].interruptible;
    if (!blocked) {
      if (L.travel_next < L.travel_count) advance_travel(l, before, after, fresh);
      else evaluate_layer(l, before, after, fresh);
    }

    // Once a leaf's mix completes, the older ones have mixed out.
    for (int k = L.chain_count - 1; k > 0; --k) {
      if (L.chain[k].mix_fraction() >= 1) {
        std::rotate(L.chain, L.chain + k, L.chain + L.chain_count);
        L.chain_count -= k;
        break;
      }
    }
    sample_count_ += static_cast<std::size_t>(write_layer(l, sample_count_));
  }
}

int AnimationGraphPlayer::write_layer(int layer, std::size_t first_sample) {
  Layer& L = layers_[layer_index(layer)];
  const GraphLayer& gl = graph_->layers[layer_index(layer)];
  const float layer_weight = std::clamp(gl.weight, 0.0f, 1.0f);
  const BoneMask* mask = masks_[layer_index(layer)].bones.empty() ? nullptr : &masks_[layer_index(layer)];

  // Shares, newest first, as the tracks mix a chain.
  float share[kMaxMixChain] = {};
  crossfade_shares(L.chain_count, share, [&](int k) { return L.chain[k].mix_fraction(); });

  std::size_t n = first_sample;
  std::uint64_t reference = kNoReference;
  for (int k = 0; k < L.chain_count; ++k) {
    Leaf& leaf = L.chain[k];
    const GraphState& s = graph_->states[static_cast<std::size_t>(leaf.state)];
    const float* w = slot_weights(layer, leaf.slot);
    const std::uint32_t count = s.kind == StateKind::Clip ? 1 : s.member_count;
    const bool events = k == L.chain_count - 1 || L.chain[k + 1].mix_fraction() < kEventFraction;
    const bool forward = leaf.time >= leaf.last_time;
    // The member that fires events: the highest weight, the first on ties.
    std::uint32_t loudest = 0;
    for (std::uint32_t m = 1; m < count; ++m)
      if (w[m] > w[loudest]) loudest = m;

    // 0 until the leaf is first sampled, unless set_normalized_time moved it.
    const float last = leaf.last_time;
    // Normalised time in passes of 1 (loop_time.hpp: exactly a whole pass shows the end).
    const LoopPosition at_now = loop_position(leaf.time, 1.0f), at_last = loop_position(last, 1.0f);
    const double pass_now = at_now.wraps, pass_last = at_last.wraps;
    const float frac_now = at_now.time, frac_last = at_last.time;
    for (std::uint32_t m = 0; m < count; ++m) {
      if (w[m] == 0 || n >= samples_.size()) continue;
      const std::int32_t clip = s.kind == StateKind::Clip ? binding_->state_clip[static_cast<std::size_t>(leaf.state)]
                                                          : binding_->member_clip[s.member_first + m];
      const float length = clip >= 0 && static_cast<std::size_t>(clip) < binding_->clip_lengths.size()
                               ? std::max(binding_->clip_lengths[static_cast<std::size_t>(clip)], 0.0f)
                               : 0.0f;
      ClipSample out;
      out.clip = clip;
      if (s.loop) {
        out.time = std::min(frac_now * length, length);
        out.previous_time = std::min(frac_last * length, length);
        out.loops = forward ? static_cast<std::int32_t>(std::clamp(pass_now - pass_last, 0.0, 1e6)) : 0;
      } else {
        out.time = std::clamp(leaf.time, 0.0f, 1.0f) * length;
        out.previous_time = std::clamp(last, 0.0f, 1.0f) * length;
      }
      out.first = !leaf.sampled;
      out.weight = std::clamp(share[k] * w[m] * layer_weight, 0.0f, 1.0f);
      out.layer = layer;
      out.blend = gl.blend;
      out.mask = mask;
      out.event_threshold = events && forward && m == loudest ? 0.0f : kNever;

      // Rotation latch against the layer's first weighted sample.
      if (out.weight > 0) {
        const std::uint64_t id = (static_cast<std::uint64_t>(leaf.serial) << 32) | m;
        if (reference == kNoReference) {
          reference = id;
        } else if (bone_count_ > 0) {
          const std::size_t at = (layer_index(layer) * kMaxMixChain + static_cast<std::size_t>(leaf.slot)) * max_members_ + m;
          float* latch = latches_.data() + at * bone_count_;
          if (latch_reference_[at] != reference) {
            std::fill_n(latch, bone_count_, kNaN);
            latch_reference_[at] = reference;
          }
          out.rotation_latch = latch;
        }
      }
      samples_[n++] = out;
    }
    leaf.last_time = leaf.time;
    leaf.sampled = true;
  }
  return static_cast<int>(n - first_sample);
}

}  // namespace mf::anim
