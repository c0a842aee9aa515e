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
#include "mf/core/math/color.hpp"
#include "mf/scene/node_2d.hpp"
#include "mf/scene/skeleton/skeleton_node.hpp"
#include "mf/scene/skeleton/skeleton_playback.hpp"
#include "mf/scene/skeleton/skeleton_signals.hpp"

namespace mf::scene {

class BoneAttachment2D;

class Skeleton2D : public Node2D, public SkeletonNode, public SkeletonSignals<Skeleton2D>, private SkeletonTickHooks {
 public:
  explicit Skeleton2D(std::string name);
  ~Skeleton2D() override;

  // ---- data ----------------------------------------------------------------------------------
  // Binds `data` (null unbinds): a new runtime skeleton in its setup pose, the stored skins, clip and
  // graph applied. On an error the node keeps its previous data.
  Status set_data(std::shared_ptr<const skel::SkeletonData> data) { return playback_.set_data(std::move(data)); }
  const std::shared_ptr<const skel::SkeletonData>& data() const { return playback_.data(); }
  // The graph plays under the tracks (code tracks layer above it); null removes it. Clip is not played
  // while a graph is set. An error when the graph names clips or bones the data lacks.
  Status set_graph(std::shared_ptr<const anim::AnimationGraph> graph) { return playback_.set_graph(std::move(graph)); }
  const std::shared_ptr<const anim::AnimationGraph>& graph() const { return playback_.graph(); }
  // Skins composed in order over the data's default skin ({"default"} or {}: the default alone). An
  // unknown name is an error naming it. Slots show the new skin's setup attachments from the next tick.
  Status set_skins(std::vector<std::string> skins) { return playback_.set_skins(std::move(skins)); }
  const std::vector<std::string>& skins() const { return playback_.skins(); }
  // Without a graph, track 0 plays this clip looping (mixing from what played); "" leaves the tracks
  // alone. An unknown clip is an error naming it.
  Status set_clip(std::string clip) { return playback_.set_clip(std::move(clip)); }
  const std::string& clip() const { return playback_.clip(); }
  // A new build of the data (live reload), keeping the playback: see SkeletonPlayback::replace_data.
  Status replace_data(std::shared_ptr<const skel::SkeletonData> data, std::shared_ptr<const anim::AnimationGraph> graph,
                      const PlaybackCarry& carry) {
    return playback_.replace_data(std::move(data), std::move(graph), carry);
  }
  // The playback the node shares with SkeletonSprite3D (its properties, binding and tick).
  SkeletonPlayback& playback() override { return playback_; }
  const SkeletonPlayback& playback() const override { return playback_; }

  // ---- properties ------------------------------------------------------------------------------
  void set_update_mode(SkeletonUpdateMode mode) { playback_.update_mode = mode; }
  SkeletonUpdateMode update_mode() const { return playback_.update_mode; }
  void set_offscreen(OffscreenUpdate mode) { playback_.offscreen = mode; }
  OffscreenUpdate offscreen() const { return playback_.offscreen; }
  // Multiplies every tick's delta; negative or non-finite values count as 0.
  void set_time_scale(float scale) { playback_.time_scale = scale; }
  float time_scale() const { return playback_.time_scale; }
  void set_physics_mode(skel::PhysicsMode mode) { playback_.physics_mode = mode; }
  skel::PhysicsMode physics_mode() const { return playback_.physics_mode; }
  // Added to every physics constraint's gravity and wind, in canvas pixels/s² (Y down): the rig's own
  // values are its world's. Y parts push along the constraints' gravity, X parts along their wind
  // (mirrored with the skeleton).
  void set_physics_gravity(Vec2 gravity) { playback_.physics_gravity = gravity; }
  Vec2 physics_gravity() const { return playback_.physics_gravity; }
  void set_physics_wind(Vec2 wind) { playback_.physics_wind = wind; }
  Vec2 physics_wind() const { return playback_.physics_wind; }
  // A move of the node's global position longer than this (canvas pixels) in one tick is a teleport:
  // the physics constraints are reset instead of swinging from the jump. Infinity (default): never.
  // Not the same as a physics constraint's own `limit`, which caps the movement it feels.
  void set_physics_teleport_distance(float pixels) { playback_.teleport_distance = pixels; }
  float physics_teleport_distance() const { return playback_.teleport_distance; }
  void set_flip_h(bool flip) { set_flip(flip, flip_v_); }
  void set_flip_v(bool flip) { set_flip(flip_h_, flip); }
  bool flip_h() const { return flip_h_; }
  bool flip_v() const { return flip_v_; }
  // Multiplies the colour of every slot when drawn (CanvasDrawer passes it as the draw's tint):
  // straight alpha, white (the default) leaves the art as it is. A flash, a fade, a team colour.
  void set_modulate(ColorF modulate) { modulate_ = modulate; }
  ColorF modulate() const { return modulate_; }
  // The mixer bus event sounds play on (see EventSoundPlayer).
  void set_event_audio_bus(std::string bus) { playback_.event_audio_bus = std::move(bus); }
  const std::string& event_audio_bus() const { return playback_.event_audio_bus; }

  // ---- playback and pose -----------------------------------------------------------------------
  // Null before data is bound.
  anim::AnimationTracks* tracks() { return animated() ? &animated()->tracks() : nullptr; }
  anim::AnimationGraphPlayer* graph_player() { return playback_.graph_player(); }
  skel::AnimatedSkeleton* animated() { return playback_.skeleton(); }
  const skel::SkeletonPose* pose() const { return playback_.skeleton() ? &playback_.skeleton()->pose() : nullptr; }

  // −1 when there is no such bone (or no data).
  int find_bone(std::string_view name) const { return playback_.find_bone(name); }
  int find_slot(std::string_view name) const { return playback_.find_slot(name); }
  // A bone's world transform in skeleton space; identity for an unknown bone.
  Affine2 bone_transform(int bone) const { return playback_.bone_transform(bone); }
  // The same on the canvas: skeleton_transform() × bone_transform(bone).
  Affine2 bone_global_transform(int bone) const { return skeleton_transform() * bone_transform(bone); }
  // Skeleton space → canvas: the node's global transform with the flips.
  Affine2 skeleton_transform() const { return global_transform() * flip(); }

  // Bone overrides (skel::BoneOverride): after the clips, before the constraints. Ignored for an
  // unknown bone.
  void set_bone_override(int bone, const skel::BoneOverride& value) {
    if (animated()) animated()->set_bone_override(bone, value);
  }
  void clear_bone_override(int bone) {
    if (animated()) animated()->clear_bone_override(bone);
  }
  // Shows `attachment` ("" for none) on a slot until the next attachment key or skin change. An error
  // naming the slot and the attachment when the active skins have no such attachment for it.
  Status set_slot_attachment(int slot, std::string_view attachment) { return playback_.set_slot_attachment(slot, attachment); }
  void reset_physics() { playback_.reset_physics(); }

  // One tick of `delta` seconds, for UpdateMode::Manual (an error in the other modes, which tick
  // themselves).
  Status advance(float delta) { return playback_.advance(delta); }

  // Bounds of the visible attachments of the current pose, in skeleton space (empty without data).
  Bounds pose_bounds() const { return playback_.pose_bounds(); }
  // The union of the bounds of the clips sampled by the last tick (ClipData::bounds, conservative
  // over each clip and skin), and of the current pose; skeleton space. What culling should test.
  Bounds cull_bounds() const { return playback_.cull_bounds(); }
  // Bounds (skeleton space) on the canvas: the axis-aligned box around its transformed corners.
  Bounds to_canvas(const Bounds& skeleton_bounds) const;

  // ---- drawing step ------------------------------------------------------------------------------
  // A number no other skeleton node of the process carries (addresses are reused after a node is
  // freed), for drawing steps that keep per-node state.
  std::uint64_t serial() const { return serial_; }
  // Whether the last drawn frame culled this node (the drawing step sets it every frame).
  void set_was_culled(bool culled) { playback_.was_culled = culled; }
  bool was_culled() const { return playback_.was_culled; }
  // Changes whenever the pose is recomputed (step 8), so a drawing step can tell a new pose.
  std::uint64_t pose_version() const { return playback_.pose_version(); }
  // Ticks that ran, and those that ran step 1 alone (TimeOnly off screen) or were skipped (Pause).
  std::uint64_t full_ticks() const { return playback_.full_ticks(); }
  std::uint64_t time_only_ticks() const { return playback_.time_only_ticks(); }
  std::uint64_t paused_ticks() const { return playback_.paused_ticks(); }

 protected:
  void on_enter_tree() override;
  void on_exit_tree() override;
  void on_process(float delta) override;
  void on_physics_process(float step) override;

 private:
  friend class BoneAttachment2D;

  // SkeletonTickHooks
  const Node& owner() const override { return *this; }
  Vec2 physics_position() const override;
  Vec3 teleport_position() const override {
    const Vec2 p = global_transform().origin();
    return {p.x, p.y, 0};
  }
  Vec2 physics_axes() const override { return {flip_h_ ? -1.0f : 1.0f, flip_v_ ? -1.0f : 1.0f}; }
  void data_changed() override;
  void before_pose() override;
  void after_pose() override;
  void emit_event(const SkeletonEvent& event) override { emit_event_signal(this, event); }
  void emit_track(const TrackEvent& event) override { emit_track_signal(this, event); }
  void emit_pose_updated() override { emit_pose_signal(this); }

  void set_flip(bool h, bool v);
  Affine2 flip() const { return Affine2::scale(flip_h_ ? -1.0f : 1.0f, flip_v_ ? -1.0f : 1.0f); }

  // BoneAttachment2D children, registered while they are inside the tree under this node.
  void attach(BoneAttachment2D* attachment);
  void detach(BoneAttachment2D* attachment);
  void sync_attachments();

  SkeletonPlayback playback_{*this};
  std::vector<BoneAttachment2D*> attachments_;
  ColorF modulate_{1, 1, 1, 1};
  bool flip_h_ = false, flip_v_ = false;
  std::uint64_t serial_;
};

}  // namespace mf::scene
