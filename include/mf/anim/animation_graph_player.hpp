#pragma once
// AnimationGraphPlayer: plays an AnimationGraph bound to one skeleton's clips and bones, producing
// the frame's ClipSamples (the same contract as AnimationTracks). Per frame: set parameters,
// update(delta), then samples() for the pose backend, then drain_signals().
//
// Nothing allocates after construction: every table (samples, latches, travel paths, signals) is
// sized from the graph. Deterministic: the same parameter changes and deltas give the same samples.
//
// The rules where DESIGN.md leaves room (Godot's AnimationTree and Unity's Animator as anchors):
//
// Playback. Each layer keeps a crossfade chain of playing leaf states (Clip or blend space), oldest
// first, at most kMaxMixChain long, mixed exactly as AnimationTracks mixes a track's entries: the
// newest takes its mix fraction m of the layer, the one before takes its fraction of the rest, and so
// on; the oldest takes what remains. A transition, a forced state or a travel hop at any nesting
// level appends the new leaf; the pose blended so far mixes out. A full chain drops its oldest
// entry; once an entry's mix completes, every older one ends. A leaf that was never sampled (two
// force_state calls before an update) is replaced instead of mixed from.
//
// Time. Every leaf has a normalised time: 0 … 1 over one pass, its integer part counting loops. It
// advances by delta × speed × (speed parameter) / L, where L is the clip's length or, for a blend
// space, the weight-averaged length of its members, Σ wᵢ·lengthᵢ/speedᵢ (member speeds shorten their
// length). Members share the normalised time, so they stay synchronised: member i plays its clip at
// frac(t)·lengthᵢ (looping) or min(t, 1)·lengthᵢ. A leaf of length 0 completes a pass every update.
// Playback with a negative speed is allowed; it fires no clip events.
//
// Transitions. Each update the layer's machines are evaluated outermost first (root machine, then
// the machine of the current Machine state, …); at each level the any-state transitions and the
// current state's transitions are tested in order of priority (lower first, ties in file order).
// The first that passes fires and ends the evaluation: one transition per layer per update. A
// transition passes when its exit time (if it has one) is reached and its condition (if any) holds;
// with neither it passes at once (auto-advance). Any-state transitions never fire into the state
// that is already current at their level.
// - Exit time e, in passes of the source state: a looping leaf reaches it when its normalised time
//   crosses it during the update, on every loop when e < 1 (k + e for every k) and once when e ≥ 1;
//   a non-looping leaf reaches it once its normalised time is ≥ e and stays there (the conditions
//   are re-tested every update, as Godot's at-end switch). A Machine state reaches its exit time
//   when its sub-machine has exited (the value of e is not used).
// - Triggers: when a transition fires, every Trigger parameter its condition tree tests is reset.
//   Triggers of a transition that does not fire stay set.
// - Interruption: while the newest chain entry's transition still mixes in (fraction < 1) and that
//   transition is not interruptible, no transition of the layer is evaluated (neither travel hops).
//   Otherwise the current state's transitions (the destination's) and any-state ones may fire.
// - Nested machines: entering a Machine state enters its machine's entry state, recursively. A
//   transition to kExitState marks its machine exited: the machine keeps playing its current state
//   and its own transitions are no longer evaluated, and the parent's transitions from the Machine
//   state are evaluated at once with the exit time reached (the parent's conditional transitions
//   from the Machine state may fire at any time before that). kExitState in a layer's root machine
//   re-enters the root's entry state (Unity's rule), crossfading over the transition's duration.
//
// Output. Graph layer g writes ClipSample::layer = g, blend and mask from the layer; a sample's
// weight is (member weight) × (chain share) × (layer weight), clamped to [0, 1]. layer_count() is the
// number of graph layers, so code tracks' layers start there. Within a blend space only the
// highest-weight member fires clip events (the first on ties), so two footsteps never fire twice;
// a mixing-out leaf fires events while its successor's mix fraction is below 0.5, as the tracks do.
// Members with zero blend weight write no sample. Rotation latches (one per chain slot, member and
// bone) are filled with NaN when a leaf starts and whenever the layer's first weighted sample (the
// shortest-arc reference) changes.
//
// Signals. StateEntered / StateExited for every state entered or left at any level (exits innermost
// first, then TransitionStarted, then entries outermost first); force_state and travel hops signal the
// same way (TransitionStarted with transition −1 for force_state). The construction and reset()
// signal the entry of each layer's initial states.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mf/anim/animation_graph.hpp"
#include "mf/anim/animation_tracks.hpp"
#include "mf/anim/clip_sample.hpp"
#include "mf/core/expected.hpp"

namespace mf::anim {

// The graph's names resolved against one skeleton: clip indices and lengths, bone masks.
struct GraphBinding {
  std::vector<std::int32_t> state_clip;   // per state: clip index (Clip states), −1 otherwise
  std::vector<std::int32_t> member_clip;  // per blend member: clip index
  std::vector<float> clip_lengths;        // per clip of the skeleton
  std::vector<std::vector<std::uint8_t>> layer_masks;  // per layer: one byte per bone, empty = all
  int bone_count = 0;
};

// Validates the graph (AnimationGraph::validate) and resolves clip and bone names. An unknown clip or
// bone is an error naming it and the state, member or layer. clip_lengths has one entry per clip name.
Expected<GraphBinding> bind_graph(const AnimationGraph& graph, std::span<const std::string> clip_names,
                                  std::span<const float> clip_lengths, std::span<const std::string> bone_names);

// Blend-space weights (the player's maths, exposed for tools and tests). `weights` receives one value
// per member; they are ≥ 0 and sum to 1.
// 1D: members sorted by x; a point between two neighbours weights them linearly, beyond the ends the
// end member takes everything; at a member's x (the first of equal ones) that member takes 1.
void blend_weights_1d(std::span<const BlendMember> members, float x, std::span<float> weights);
// 2D: inside the triangulation, the barycentric weights of the triangle containing the point (the
// one it is deepest inside when on an edge); outside, the point is projected onto the nearest hull
// edge and its two ends are weighted linearly. Without triangles or hull edges, the nearest member.
void blend_weights_2d(std::span<const BlendMember> members, std::span<const Triangle> triangles,
                      std::span<const HullEdge> hull, float x, float y, std::span<float> weights);

enum class GraphSignalKind : std::uint8_t { StateEntered, StateExited, TransitionStarted };

struct GraphSignal {
  GraphSignalKind kind;
  std::int32_t layer;
  std::int32_t state;       // the state entered or exited; the target for TransitionStarted
  std::int32_t transition;  // TransitionStarted: index into AnimationGraph::transitions, −1 for
                            // force_state; −1 for the other kinds
};

class AnimationGraphPlayer {
 public:
  // Both must outlive the player; `binding` comes from bind_graph(graph, …) (so the graph is valid).
  AnimationGraphPlayer(const AnimationGraph& graph, const GraphBinding& binding, int signal_capacity = 64);

  const AnimationGraph& graph() const { return *graph_; }

  // ---- parameters (index from find_param, looked up once outside the frame loop) ----------------
  // Setters convert to the parameter's type: Int rounds, Bool and Trigger test ≠ 0. Out-of-range
  // indices and non-finite floats are ignored.
  int find_param(std::string_view name) const { return graph_->find_param(name); }
  void set_float(int param, float value);
  void set_int(int param, std::int32_t value);
  void set_bool(int param, bool value);
  void set_trigger(int param);     // stays set until a transition consumes it
  void reset_trigger(int param);
  float get_float(int param) const;
  std::int32_t get_int(int param) const;
  bool get_bool(int param) const;  // also: whether a trigger is set
  // By name: a convenience for tools; false when no parameter has that name.
  bool set_param(std::string_view name, float value);
  bool set_trigger(std::string_view name);

  // ---- playback --------------------------------------------------------------------------------
  void update(float delta);
  // The samples of the last update (empty before the first), grouped by layer, lowest first.
  std::span<const ClipSample> samples() const { return {samples_.data(), sample_count_}; }
  // Number of ClipSample layers the graph uses (code tracks go above: their layers start here).
  int layer_count() const { return static_cast<int>(graph_->layers.size()); }
  // The most samples one update writes.
  std::size_t max_samples() const { return samples_.size(); }

  // ---- queries ---------------------------------------------------------------------------------
  // The innermost current state of a layer (inside nested machines), and of the top machine; −1 for
  // a bad layer.
  int current_state(int layer) const;
  int current_top_state(int layer) const;
  // The current states from the top machine inward (valid until the next change).
  std::span<const std::int32_t> current_path(int layer) const;
  // The running transition of a layer (index into AnimationGraph::transitions): the one that started
  // the newest leaf while its mix is below 1; −1 when none (or a forced state is mixing in).
  int current_transition(int layer) const;
  // Normalised time of the current state (0 … 1 per loop, growing past 1 for later loops).
  float normalized_time(int layer) const;
  // Blend weights of the current leaf's members (one 1 for a Clip state), as of the last update.
  std::span<const float> blend_weights(int layer) const;
  // Whether a travel() of the layer is still under way.
  bool travelling(int layer) const;

  // ---- gameplay control ------------------------------------------------------------------------
  // Crossfades straight to `state` (any state of the layer, nested ones included) over `duration`.
  // False (nothing changes) when the state is not reachable in the layer's machines.
  bool force_state(int layer, int state, float duration = 0);
  // Walks the transition graph to `state` along the shortest path of transitions (conditions
  // ignored, exit times and interruption respected, each hop's own duration; into nested machines
  // through their entry states), as Godot's travel(). One hop per update. False (nothing changes)
  // when no path exists; true at once when the state is already current. Forcing a state cancels it.
  bool travel(int layer, int state);
  void reset();  // back to every layer's entry state, parameters to their defaults
  // Seeks the current state of a layer (the newest leaf) to normalised time `time` (≥ 0, finite; the
  // integer part counts loops): the next update plays on from there, and the span skipped fires no
  // clip events and reaches no exit time. False (nothing changes) for a bad layer or time.
  bool set_normalized_time(int layer, float time);

  // Signals since the last drain, in the order they happened (valid until the next drain).
  std::span<const GraphSignal> drain_signals();
  // Signals that did not fit since the last drain.
  std::size_t dropped_signals() const { return dropped_signals_; }

 private:
  // One leaf state playing in a layer's crossfade chain.
  struct Leaf {
    std::int32_t state = -1;
    std::int32_t transition = -1;  // the transition that started it; −1 when forced or entered
    float time = 0;                // normalised time
    float last_time = 0;           // normalised time at the previous update's samples
    float mix_time = 0, mix_duration = 0;
    std::uint32_t serial = 0;      // identifies the leaf for rotation-latch references
    std::int32_t slot = 0;         // its chain slot: weights and latches
    bool sampled = false;
    bool advanced = false;         // its time moved at least once (exit-time windows include 0)
    float mix_fraction() const;
  };
  struct Layer {
    Leaf chain[kMaxMixChain];  // oldest first
    int chain_count = 0;
    int depth = 0;             // states on the current path
    int travel_count = 0, travel_next = 0;
  };

  std::size_t layer_index(int layer) const { return static_cast<std::size_t>(layer); }
  bool valid_layer(int layer) const { return layer >= 0 && layer < layer_count(); }
  std::int32_t* path(int layer) { return path_.data() + layer_index(layer) * max_depth_; }
  const std::int32_t* path(int layer) const { return path_.data() + layer_index(layer) * max_depth_; }
  std::uint8_t* exited(int layer) { return exited_.data() + layer_index(layer) * max_depth_; }
  float* slot_weights(int layer, int slot) {
    return weights_.data() + (layer_index(layer) * kMaxMixChain + static_cast<std::size_t>(slot)) * max_members_;
  }
  const float* slot_weights(int layer, int slot) const {
    return weights_.data() + (layer_index(layer) * kMaxMixChain + static_cast<std::size_t>(slot)) * max_members_;
  }
  std::int32_t machine_at(int layer, int level) const;

  bool evaluate(std::int32_t node) const;
  void consume_triggers(std::int32_t node);
  void signal(GraphSignalKind kind, int layer, std::int32_t state, std::int32_t transition);

  float leaf_length(const Leaf& leaf, const float* weights) const;
  void compute_weights(int layer, Leaf& leaf);
  bool evaluate_layer(int layer, float before, float after, bool fresh);
  bool evaluate_level(int layer, int level, float before, float after, bool fresh);
  void fire(int layer, int level, std::int32_t transition, bool from_travel);
  // Replaces the path from `level` on with `states` (levels level …), enters Machine states down to
  // a leaf, and starts that leaf over `duration`.
  void change_path(int layer, int level, std::span<const std::int32_t> states, std::int32_t transition, float duration);
  void start_leaf(int layer, std::int32_t state, std::int32_t transition, float duration);
  bool target_path(int layer, int state, int& levels);  // into path_scratch_
  void enter_initial(int layer);
  void advance_travel(int layer, float before, float after, bool fresh);
  int write_layer(int layer, std::size_t first_sample);

  const AnimationGraph* graph_;
  const GraphBinding* binding_;
  std::size_t max_depth_ = 1, max_members_ = 1, bone_count_ = 0;
  std::vector<double> values_;                         // per parameter
  std::vector<std::int32_t> state_machine_;            // per state: the machine holding it
  std::vector<std::int32_t> machine_parent_;           // per machine: the first Machine state using it, −1
  std::vector<std::uint32_t> machine_order_;           // per machine, a run of transition indices by priority
  std::vector<std::uint32_t> order_first_;             // per machine: where its run starts
  std::vector<BoneMask> masks_;                        // per layer
  std::vector<Layer> layers_;
  std::vector<std::int32_t> path_;                     // layers × max_depth_
  std::vector<std::uint8_t> exited_;                   // layers × max_depth_: the machine at that level exited
  std::vector<float> weights_;                         // layers × kMaxMixChain × max_members_
  std::vector<float> latches_;                         // … × bone_count_
  std::vector<std::uint64_t> latch_reference_;         // layers × kMaxMixChain × max_members_
  std::vector<std::int32_t> travel_;                   // layers × states: transition hops
  std::vector<std::int32_t> path_scratch_;             // max_depth_
  std::vector<std::int32_t> bfs_queue_, bfs_via_, bfs_from_;  // per state: travel's search
  std::vector<ClipSample> samples_;
  std::size_t sample_count_ = 0;
  std::vector<GraphSignal> signals_, drained_;
  std::size_t signal_capacity_;
  std::size_t dropped_signals_ = 0;
  std::uint32_t next_serial_ = 1;
};

}  // namespace mf::anim
