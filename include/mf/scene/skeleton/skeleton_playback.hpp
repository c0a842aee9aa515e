#pragma once
// SkeletonPlayback: what Skeleton2D and SkeletonSprite3D share: the bound data, graph, skins and clip,
// the runtime skeleton, the playback properties and the tick in the proposal's order. The node owns
// one and supplies what depends on its kind of space through SkeletonTickHooks (where it is for
// physics inertia and teleports, its attachments, its signals).
//
// One tick(delta), delta × time_scale:
//   off screen (was_culled) and Pause: nothing; TimeOnly: graph and tracks advance and the events fire
//   (hooks.emit_event / emit_track), the pose stays;
//   otherwise: teleport check, hooks.before_pose (attachment overrides), AnimatedSkeleton::update with
//   the frame context, events and track signals, hooks.after_pose (attachment sync), the pose version
//   changes, hooks.emit_pose_updated.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mf/anim/animation_graph.hpp"
#include "mf/anim/animation_graph_player.hpp"
#include "mf/core/expected.hpp"
#include "mf/core/math/bounds.hpp"
#include "mf/core/math/affine2.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/core/math/vec3.hpp"
#include "mf/scene/skeleton/event_audio_service.hpp"
#include "mf/scene/skeleton/skeleton_event.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skin_composer.hpp"

namespace mf::scene {

class Node;

enum class SkeletonUpdateMode : std::uint8_t { Process, Physics, Manual };
enum class OffscreenUpdate : std::uint8_t { Full, TimeOnly, Pause };

class SkeletonTickHooks {
 public:
  // The node: its path names it in errors.
  virtual const Node& owner() const = 0;
  // The node's position in skeleton units (its movement between ticks is what physics constraints
  // feel), and in its parent space's units for the teleport distance.
  virtual Vec2 physics_position() const = 0;
  virtual Vec3 teleport_position() const = 0;
  // −1 on an axis the skeleton is mirrored along (gravity and wind turn with it).
  virtual Vec2 physics_axes() const { return {1, 1}; }
  // After set_data bound new data (the setup pose is computed): attachments look their bones up again.
  virtual void data_changed() {}
  virtual void before_pose() {}
  virtual void after_pose() {}
  virtual void emit_event(const SkeletonEvent& event) = 0;
  virtual void emit_track(const TrackEvent& event) = 0;
  virtual void emit_pose_updated() = 0;

 protected:
  ~SkeletonTickHooks() = default;
};

// Moves a player's state from the skeleton (and graph player) made from the old data onto the one made
// from the new data (live_reload::carry_playback and carry_graph do it by name). The players are null
// without a graph.
using PlaybackCarry = std::function<void(const skel::AnimatedSkeleton& from, skel::AnimatedSkeleton& to,
                                         const anim::AnimationGraphPlayer* from_player, anim::AnimationGraphPlayer* to_player)>;

class SkeletonPlayback {
 public:
  explicit SkeletonPlayback(SkeletonTickHooks& hooks) : hooks_(&hooks) {}

  // A number no earlier call returned (thread-safe): skeleton nodes' serials.
  static std::uint64_t next_serial();

  // See Skeleton2D for the meaning of each.
  Status set_data(std::shared_ptr<const skel::SkeletonData> data);
  const std::shared_ptr<const skel::SkeletonData>& data() const { return data_; }
  Status set_graph(std::shared_ptr<const anim::AnimationGraph> graph);
  const std::shared_ptr<const anim::AnimationGraph>& graph() const { return graph_; }
  Status set_skins(std::vector<std::string> skins);
  const std::vector<std::string>& skins() const { return skins_; }
  Status set_clip(std::string clip);
  const std::string& clip() const { return clip_; }
  // Moves onto a new build of the data (and its graph; null for none) keeping the playback: the new
  // runtime skeleton and graph player take the old ones' state through `carry`, the skins and the
  // clip are applied again by name, and the carried pose is computed (no events fire for it; physics
  // constraints start again from the setup pose). Only between ticks: inside one of the tree's ticks
  // it is an error, as is a skin, clip or graph the new data lacks; on any error the old data, graph
  // and playback stay. It allocates: a development tool's step, not the frame loop's.
  Status replace_data(std::shared_ptr<const skel::SkeletonData> data, std::shared_ptr<const anim::AnimationGraph> graph,
                      const PlaybackCarry& carry);

  SkeletonUpdateMode update_mode = SkeletonUpdateMode::Process;
  OffscreenUpdate offscreen = OffscreenUpdate::TimeOnly;
  skel::PhysicsMode physics_mode = skel::PhysicsMode::Update;
  float time_scale = 1;
  Vec2 physics_gravity{0, 0}, physics_wind{0, 0};
  float teleport_distance = std::numeric_limits<float>::infinity();
  std::string event_audio_bus = "SFX";
  bool was_culled = false;

  skel::AnimatedSkeleton* skeleton() { return skeleton_.get(); }
  const skel::AnimatedSkeleton* skeleton() const { return skeleton_.get(); }
  anim::AnimationGraphPlayer* graph_player() { return player_.get(); }

  int find_bone(std::string_view name) const { return data_ ? data_->find_bone(name) : -1; }
  int find_slot(std::string_view name) const { return data_ ? data_->find_slot(name) : -1; }
  // A bone's world transform in skeleton space; identity for an unknown bone.
  Affine2 bone_transform(int bone) const;
  Status set_slot_attachment(int slot, std::string_view attachment);
  void reset_physics();
  Bounds pose_bounds() const;
  Bounds cull_bounds() const;

  // One tick (see above); also what advance() runs for UpdateMode Manual.
  void tick(float delta);
  // advance() for Manual mode: an error in the other modes or from inside one of its own signals.
  Status advance(float delta);
  // Forgets the last position, so the next tick feels no movement (a node entering a tree).
  void forget_position() { last_position_.reset(); }
  // Where events with audio are played (the nearest EventAudioService above the node, found when it
  // enters the tree); null: silent.
  // The node leaves the previous service (its sounds stop).
  void set_audio(EventAudioService* audio) {
    if (audio_ && audio_ != audio) audio_->node_left(hooks_->owner());
    audio_ = audio;
  }

  std::uint64_t pose_version() const { return pose_version_; }
  std::uint64_t full_ticks() const { return full_ticks_; }
  std::uint64_t time_only_ticks() const { return time_only_ticks_; }
  std::uint64_t paused_ticks() const { return paused_ticks_; }

 private:
  Status apply_skins();
  Status apply_clip();
  Status bind_graph();
  skel::FrameContext frame_context(float delta) const;
  void emit_events();
  Error error(std::string message) const;

  SkeletonTickHooks* hooks_;
  EventAudioService* audio_ = nullptr;
  std::shared_ptr<const skel::SkeletonData> data_;
  std::shared_ptr<const anim::AnimationGraph> graph_;
  std::unique_ptr<skel::SkinCache> skin_cache_;
  std::unique_ptr<skel::AnimatedSkeleton> skeleton_;
  std::unique_ptr<anim::GraphBinding> binding_;
  std::unique_ptr<anim::AnimationGraphPlayer> player_;
  std::vector<std::string> skins_;
  std::string clip_;
  std::optional<Vec3> last_position_;
  bool in_advance_ = false;
  std::uint64_t pose_version_ = 0;
  std::uint64_t full_ticks_ = 0, time_only_ticks_ = 0, paused_ticks_ = 0;
};

}  // namespace mf::scene
