#pragma once
// SkeletonSprite3D: the 3D variant of Skeleton2D: the same data, playback, properties, signals and
// tick (SkeletonPlayback, SkeletonSignals), on a Node3D whose skeleton is drawn as a lit mesh by the
// forward renderer (ForwardDrawer queues it; render::SpriteDrawOptions says how).
//
// Spaces. The sprite's plane is the node's local XY plane, facing +Z. skeleton_transform() =
// global_transform() × scale(pixel_size, −pixel_size, pixel_size) × flips: skeleton pixels (Y down)
// become metres (Y up) with one Y mirror, as the renderer's model matrix does for Billboard None.
// With Billboard Y or Full the drawn plane turns towards the camera at draw time; bone transforms and
// BoneAttachment3D stay in the unturned plane.
//
// Physics inertia: the node's movement in its sprite plane, in skeleton pixels. The teleport distance
// is in the parent space's units (metres).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mf/core/math/mat4.hpp"
#include "mf/render/forward/sprite_draw.hpp"
#include "mf/scene/node_3d.hpp"
#include "mf/scene/skeleton/skeleton_node.hpp"
#include "mf/scene/skeleton/skeleton_playback.hpp"
#include "mf/scene/skeleton/skeleton_signals.hpp"

namespace mf::scene {

class BoneAttachment3D;

class SkeletonSprite3D : public Node3D,
                         public SkeletonNode,
                         public SkeletonSignals<SkeletonSprite3D>,
                         private SkeletonTickHooks {
 public:
  explicit SkeletonSprite3D(std::string name);
  ~SkeletonSprite3D() override;

  // ---- data and playback: as Skeleton2D ----------------------------------------------------------
  Status set_data(std::shared_ptr<const skel::SkeletonData> data) { return playback_.set_data(std::move(data)); }
  const std::shared_ptr<const skel::SkeletonData>& data() const { return playback_.data(); }
  Status set_graph(std::shared_ptr<const anim::AnimationGraph> graph) { return playback_.set_graph(std::move(graph)); }
  Status set_skins(std::vector<std::string> skins) { return playback_.set_skins(std::move(skins)); }
  Status set_clip(std::string clip) { return playback_.set_clip(std::move(clip)); }
  const std::string& clip() const { return playback_.clip(); }
  // The playback properties (update and off-screen modes, time scale, physics settings in skeleton
  // pixels/s², teleport distance in metres, event audio bus), shared with Skeleton2D.
  SkeletonPlayback& playback() override { return playback_; }
  const SkeletonPlayback& playback() const override { return playback_; }
  anim::AnimationTracks* tracks() { return playback_.skeleton() ? &playback_.skeleton()->tracks() : nullptr; }
  anim::AnimationGraphPlayer* graph_player() { return playback_.graph_player(); }
  const skel::SkeletonPose* pose() const { return playback_.skeleton() ? &playback_.skeleton()->pose() : nullptr; }
  int find_bone(std::string_view name) const { return playback_.find_bone(name); }
  int find_slot(std::string_view name) const { return playback_.find_slot(name); }
  void set_bone_override(int bone, const skel::BoneOverride& value) {
    if (playback_.skeleton()) playback_.skeleton()->set_bone_override(bone, value);
  }
  void clear_bone_override(int bone) {
    if (playback_.skeleton()) playback_.skeleton()->clear_bone_override(bone);
  }
  Status set_slot_attachment(int slot, std::string_view attachment) { return playback_.set_slot_attachment(slot, attachment); }
  void reset_physics() { playback_.reset_physics(); }
  Status advance(float delta) { return playback_.advance(delta); }
  Bounds pose_bounds() const { return playback_.pose_bounds(); }
  Bounds cull_bounds() const { return playback_.cull_bounds(); }
  void set_flip_h(bool flip) { set_flip(flip, flip_v_); }
  void set_flip_v(bool flip) { set_flip(flip_h_, flip); }
  bool flip_h() const { return flip_h_; }
  bool flip_v() const { return flip_v_; }

  // ---- the sprite ---------------------------------------------------------------------------------
  // Metres per skeleton pixel (positive; default 0.01).
  void set_pixel_size(float metres);
  float pixel_size() const { return pixel_size_; }
  void set_billboard(render::SkeletonBillboard billboard) { billboard_ = billboard; }
  render::SkeletonBillboard billboard() const { return billboard_; }
  void set_shaded(bool shaded) { shaded_ = shaded; }
  bool shaded() const { return shaded_; }
  void set_double_sided(bool double_sided) { double_sided_ = double_sided; }
  bool double_sided() const { return double_sided_; }
  // Shadows, the depth prepass and picking test the art's alpha against it (0 … 1, default 0.5).
  void set_alpha_cutoff(float cutoff) { alpha_cutoff_ = cutoff; }
  float alpha_cutoff() const { return alpha_cutoff_; }
  // Opt-in layering: the n-th drawn attachment sits n × offset skeleton pixels towards +Z (default 0).
  void set_slot_depth_offset(float offset) { slot_depth_offset_ = offset; }
  float slot_depth_offset() const { return slot_depth_offset_; }
  void set_casts_shadows(bool casts) { casts_shadows_ = casts; }
  // What ForwardRenderer::pick returns on this sprite's pixels; 0: not pickable.
  void set_object_id(std::uint32_t id) { object_id_ = id; }
  std::uint32_t object_id() const { return object_id_; }
  // The draw options of this frame (transform, sprite settings, cull bounds).
  render::SpriteDrawOptions sprite_options() const;

  // ---- spaces -------------------------------------------------------------------------------------
  // Skeleton pixels → world.
  Mat4 skeleton_transform() const;
  // A bone's world transform in skeleton space (2D), and in the world.
  Affine2 bone_transform(int bone) const { return playback_.bone_transform(bone); }
  Mat4 bone_global_transform(int bone) const;

  // ---- drawing step -------------------------------------------------------------------------------
  std::uint64_t serial() const { return serial_; }
  void set_was_culled(bool culled) { playback_.was_culled = culled; }
  bool was_culled() const { return playback_.was_culled; }
  std::uint64_t pose_version() const { return playback_.pose_version(); }

 protected:
  void on_enter_tree() override;
  void on_exit_tree() override;
  void on_process(float delta) override;
  void on_physics_process(float step) override;

 private:
  friend class BoneAttachment3D;

  const Node& owner() const override { return *this; }
  Vec2 physics_position() const override;
  Vec3 teleport_position() const override { return global_transform().column3(3); }
  Vec2 physics_axes() const override { return {flip_h_ ? -1.0f : 1.0f, flip_v_ ? -1.0f : 1.0f}; }
  void data_changed() override;
  void before_pose() override;
  void after_pose() override;
  void emit_event(const SkeletonEvent& event) override { emit_event_signal(this, event); }
  void emit_track(const TrackEvent& event) override { emit_track_signal(this, event); }
  void emit_pose_updated() override { emit_pose_signal(this); }

  void set_flip(bool h, bool v);
  // Skeleton pixels → the node's local space: the pixel size, the Y mirror and the flips.
  Mat4 sprite_scale() const;
  void attach(BoneAttachment3D* attachment);
  void detach(BoneAttachment3D* attachment);
  void sync_attachments();

  SkeletonPlayback playback_{*this};
  std::vector<BoneAttachment3D*> attachments_;
  float pixel_size_ = 0.01f;
  render::SkeletonBillboard billboard_ = render::SkeletonBillboard::None;
  bool shaded_ = true, double_sided_ = true, casts_shadows_ = true;
  float alpha_cutoff_ = 0.5f;
  float slot_depth_offset_ = 0;
  std::uint32_t object_id_ = 0;
  bool flip_h_ = false, flip_v_ = false;
  std::uint64_t serial_;
};

}  // namespace mf::scene
