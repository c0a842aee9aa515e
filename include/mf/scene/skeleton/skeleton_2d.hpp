#pragma once
// Skeleton2D: a skeleton on the 2D canvas as a node. It plays its data with AnimationTracks (and an
// animation graph when one is set), updates itself in the tree's ticks and hands its bones to
// BoneAttachment2D children.
//
// One tick (on_process with UpdateMode::Process, on_physics_process with Physics, advance() with
// Manual), delta × time_scale:
//   1. graph or tracks advance;            ┐
//   2. clips applied over the setup pose;  │ skel::AnimatedSkeleton::update; overrides include those of
//   3. bone overrides;                     │ BoneAttachment2D children in OverridePose mode
//   4. the update order (constraints, with the node's movement feeding physics inertia);
//   5. slots and deform;                   ┘
//   6. AnimationEvent and the track signals are emitted;
//   7. BoneAttachment2D children in follow mode take their bones' transforms;
//   8. PoseUpdated is emitted; the pose's version changes (a drawing step redraws).
// Signals are deferred: the tree delivers them after the physics step or process tick that caused
// them (so a slot sees the whole tick's result, attachments synced); an advance() outside a tick
// delivers them before it returns.
//
// Off screen. A drawing step reports each frame whether it drew the node (set_was_culled). When the
// last frame culled it, Offscreen decides: Full ticks as usual; TimeOnly (the default) runs step 1 and
// the events of step 6 only (time, graph and events go on, the pose keeps its last values, no
// attachment sync, no PoseUpdated); Pause skips the tick. cull_bounds() is the union of the playing
// clips' conservative bounds, so a skeleton walking back on screen is drawn on its first visible frame
// although its pose was not updated while off screen.
//
// Spaces. Skeleton space is the pose's (pixels, Y down). The node's FlipH / FlipV mirror the skeleton,
// not the node: skeleton_transform() = global_transform() × scale(±1, ±1), and children other than
// bone attachments are not mirrored.
//
// Binding. set_data makes the runtime skeleton at once (it allocates: call it outside the frame loop)
// and applies the stored skins, clip and graph; a skin, clip or graph the data lacks is an error
// returned by the setter that met it. A tick allocates nothing once warm (the deferred signals reuse
// their capacity).

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mf/anim/animation_graph.hpp"
#include "mf/anim/animation_graph_player.hpp"
#include "mf/anim/animation_tracks.hpp"
#include "mf/core/math/bounds.hpp"
#include "mf/scene/node_2d.hpp"
#include "mf/scene/signal.hpp"
#include "mf/scene/skeleton/skeleton_event.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skin_composer.hpp"

namespace mf::scene {

class BoneAttachment2D;

enum class SkeletonUpdateMode : std::uint8_t { Process, Physics, Manual };
enum class OffscreenUpdate : std::uint8_t { Full, TimeOnly, Pause };

class Skeleton2D : public Node2D {
 public:
  explicit Skeleton2D(std::string name);
  ~Skeleton2D() override;

  // ---- data ----------------------------------------------------------------------------------
  // Binds `data` (null unbinds): a new runtime skeleton in its setup pose, the stored skins, clip and
  // graph applied. On an error the node keeps its previous data.
  Status set_data(std::shared_ptr<const skel::SkeletonData> data);
  const std::shared_ptr<const skel::SkeletonData>& data() const { return data_; }
  // The graph plays under the tracks (code tracks layer above it); null removes it. Clip is not played
  // while a graph is set. An error when the graph names clips or bones the data lacks.
  Status set_graph(std::shared_ptr<const anim::AnimationGraph> graph);
  const std::shared_ptr<const anim::AnimationGraph>& graph() const { return graph_; }
  // Skins composed in order over the data's default skin ({"default"} or {}: the default alone). An
  // unknown name is an error naming it.
  Status set_skins(std::vector<std::string> skins);
  const std::vector<std::string>& skins() const { return skins_; }
  // Without a graph, track 0 plays this clip looping (mixing from what played); "" leaves the tracks
  // alone. An unknown clip is an error naming it.
  Status set_clip(std::string clip);
  const std::string& clip() const { return clip_; }

  // ---- properties ------------------------------------------------------------------------------
  void set_update_mode(SkeletonUpdateMode mode) { update_mode_ = mode; }
  SkeletonUpdateMode update_mode() const { return update_mode_; }
  void set_offscreen(OffscreenUpdate mode) { offscreen_ = mode; }
  OffscreenUpdate offscreen() const { return offscreen_; }
  // Multiplies every tick's delta; negative or non-finite values count as 0.
  void set_time_scale(float scale) { time_scale_ = scale; }
  float time_scale() const { return time_scale_; }
  void set_physics_mode(skel::PhysicsMode mode) { physics_mode_ = mode; }
  skel::PhysicsMode physics_mode() const { return physics_mode_; }
  // Added to every physics constraint's gravity and wind, in canvas pixels/s² (Y down): the rig's own
  // values are its world's. Y parts push along the constraints' gravity, X parts along their wind
  // (mirrored with the skeleton).
  void set_physics_gravity(Vec2 gravity) { physics_gravity_ = gravity; }
  Vec2 physics_gravity() const { return physics_gravity_; }
  void set_physics_wind(Vec2 wind) { physics_wind_ = wind; }
  Vec2 physics_wind() const { return physics_wind_; }
  // A move of the node's global position longer than this (canvas pixels) in one tick is a teleport:
  // the physics constraints are reset instead of swinging from the jump. Infinity (default): never.
  // Not the same as a physics constraint's own `limit`, which caps the movement it feels.
  void set_physics_teleport_distance(float pixels) { teleport_distance_ = pixels; }
  float physics_teleport_distance() const { return teleport_distance_; }
  void set_flip_h(bool flip) { set_flip(flip, flip_v_); }
  void set_flip_v(bool flip) { set_flip(flip_h_, flip); }
  bool flip_h() const { return flip_h_; }
  bool flip_v() const { return flip_v_; }
  // The mixer bus event sounds play on (the audio player is the host's; see EventSoundPlayer).
  void set_event_audio_bus(std::string bus) { event_audio_bus_ = std::move(bus); }
  const std::string& event_audio_bus() const { return event_audio_bus_; }

  // ---- playback and pose -----------------------------------------------------------------------
  // Null before data is bound.
  anim::AnimationTracks* tracks() { return skeleton_ ? &skeleton_->tracks() : nullptr; }
  anim::AnimationGraphPlayer* graph_player() { return player_.get(); }
  skel::AnimatedSkeleton* animated() { return skeleton_.get(); }
  const skel::SkeletonPose* pose() const { return skeleton_ ? &skeleton_->pose() : nullptr; }

  // −1 when there is no such bone (or no data).
  int find_bone(std::string_view name) const;
  int find_slot(std::string_view name) const;
  // A bone's world transform in skeleton space; identity for an unknown bone.
  Affine2 bone_transform(int bone) const;
  // The same on the canvas: skeleton_transform() × bone_transform(bone).
  Affine2 bone_global_transform(int bone) const;
  // Skeleton space → canvas: the node's global transform with the flips.
  Affine2 skeleton_transform() const;

  // Bone overrides (skel::BoneOverride): after the clips, before the constraints. Ignored for an
  // unknown bone.
  void set_bone_override(int bone, const skel::BoneOverride& value);
  void clear_bone_override(int bone);
  // Shows `attachment` ("" for none) on a slot until the next attachment key or skin change. An error
  // naming the slot and the attachment when the active skins have no such attachment for it.
  Status set_slot_attachment(int slot, std::string_view attachment);
  void reset_physics();

  // One tick of `delta` seconds, for UpdateMode::Manual (an error in the other modes, which tick
  // themselves).
  Status advance(float delta);

  // Bounds of the visible attachments of the current pose, in skeleton space (empty without data).
  Bounds pose_bounds() const;
  // The union of the bounds of the clips sampled by the last tick (ClipData::bounds, conservative
  // over each clip and skin), and of the current pose; skeleton space. What culling should test.
  Bounds cull_bounds() const;
  // Bounds (skeleton space) on the canvas: the axis-aligned box around its transformed corners.
  Bounds to_canvas(const Bounds& skeleton_bounds) const;

  // ---- drawing step ------------------------------------------------------------------------------
  // A number no other Skeleton2D of the process carries (addresses are reused after a node is freed),
  // for drawing steps that keep per-node state.
  std::uint64_t serial() const { return serial_; }
  // Whether the last drawn frame culled this node (the drawing step sets it every frame).
  void set_was_culled(bool culled) { was_culled_ = culled; }
  bool was_culled() const { return was_culled_; }
  // Changes whenever the pose is recomputed (step 8), so a drawing step can tell a new pose.
  std::uint64_t pose_version() const { return pose_version_; }
  // Ticks that ran, and those that ran step 1 alone (TimeOnly off screen) or were skipped (Pause).
  std::uint64_t full_ticks() const { return full_ticks_; }
  std::uint64_t time_only_ticks() const { return time_only_ticks_; }
  std::uint64_t paused_ticks() const { return paused_ticks_; }

  // ---- signals ---------------------------------------------------------------------------------
  Signal<Skeleton2D*, SkeletonEvent> animation_event;
  Signal<Skeleton2D*, TrackEvent> track_started;
  Signal<Skeleton2D*, TrackEvent> track_interrupted;
  Signal<Skeleton2D*, TrackEvent> track_ended;
  Signal<Skeleton2D*, TrackEvent> track_completed;
  Signal<Skeleton2D*, TrackEvent> track_disposed;
  Signal<Skeleton2D*> pose_updated;

 protected:
  void on_enter_tree() override;
  void on_process(float delta) override;
  void on_physics_process(float step) override;

 private:
  friend class BoneAttachment2D;

  void tick(float delta);
  void emit_events();
  template <class... Args>
  void emit(Signal<Skeleton2D*, Args...>& signal, const Args&... args);
  void emit_pose_updated();
  skel::FrameContext frame_context(float delta);
  Status apply_skins();
  Status apply_clip();
  Status bind_graph();
  void set_flip(bool h, bool v);
  Affine2 flip() const { return Affine2::scale(flip_h_ ? -1.0f : 1.0f, flip_v_ ? -1.0f : 1.0f); }

  // BoneAttachment2D children, registered while they are inside the tree under this node.
  void attach(BoneAttachment2D* attachment);
  void detach(BoneAttachment2D* attachment);
  void apply_attachment_overrides();
  void sync_attachments();

  std::shared_ptr<const skel::SkeletonData> data_;
  std::shared_ptr<const anim::AnimationGraph> graph_;
  std::unique_ptr<skel::SkinCache> skin_cache_;
  std::unique_ptr<skel::AnimatedSkeleton> skeleton_;
  std::unique_ptr<anim::GraphBinding> binding_;
  std::unique_ptr<anim::AnimationGraphPlayer> player_;
  std::vector<std::string> skins_;
  std::string clip_;
  std::string event_audio_bus_ = "SFX";
  std::vector<BoneAttachment2D*> attachments_;

  SkeletonUpdateMode update_mode_ = SkeletonUpdateMode::Process;
  OffscreenUpdate offscreen_ = OffscreenUpdate::TimeOnly;
  skel::PhysicsMode physics_mode_ = skel::PhysicsMode::Update;
  float time_scale_ = 1;
  Vec2 physics_gravity_{0, 0}, physics_wind_{0, 0};
  float teleport_distance_ = std::numeric_limits<float>::infinity();
  bool flip_h_ = false, flip_v_ = false;
  bool was_culled_ = false;
  bool in_advance_ = false;
  std::optional<Vec2> last_position_;  // canvas position at the last posing tick, for teleports
  std::uint64_t pose_version_ = 0;
  std::uint64_t serial_;
  std::uint64_t full_ticks_ = 0, time_only_ticks_ = 0, paused_ticks_ = 0;
};

}  // namespace mf::scene
