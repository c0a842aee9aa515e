#include "mf/scene/skeleton/skeleton_2d.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <utility>

#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/bone_attachment_2d.hpp"
#include "mf/skel/bounds.hpp"

namespace mf::scene {
namespace {

Error node_error(const Node& node, std::string message) { return Error{{}, {}, {}, node.path() + ": " + std::move(message)}; }

void include(Bounds& into, const Bounds& b) {
  if (b.empty()) return;
  if (into.empty()) {
    into = b;
    return;
  }
  into.min_x = std::min(into.min_x, b.min_x);
  into.min_y = std::min(into.min_y, b.min_y);
  into.max_x = std::max(into.max_x, b.max_x);
  into.max_y = std::max(into.max_y, b.max_y);
}

constexpr Bounds kEmptyBounds{0, 0, -1, -1};

}  // namespace

Skeleton2D::Skeleton2D(std::string name) : Node2D(std::move(name)) {
  static std::uint64_t next_serial = 0;  // nodes belong to one thread, but trees may be on several
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  serial_ = ++next_serial;
}

Skeleton2D::~Skeleton2D() {
  for (BoneAttachment2D* a : attachments_) a->skeleton_ = nullptr;
}

// ---- data ----------------------------------------------------------------------------------------

Status Skeleton2D::set_data(std::shared_ptr<const skel::SkeletonData> data) {
  if (!data) {
    player_.reset();
    binding_.reset();
    skeleton_.reset();
    skin_cache_.reset();
    data_.reset();
    last_position_.reset();
    return {};
  }
  // Build the new state aside, so an error leaves the node as it was.
  auto old_data = std::move(data_);
  auto old_cache = std::move(skin_cache_);
  auto old_skeleton = std::move(skeleton_);
  auto old_binding = std::move(binding_);
  auto old_player = std::move(player_);
  data_ = std::move(data);
  skin_cache_ = std::make_unique<skel::SkinCache>(*data_);
  skeleton_ = std::make_unique<skel::AnimatedSkeleton>(*data_);
  Status s = apply_skins();
  if (s) s = bind_graph();
  if (s && !graph_) s = apply_clip();
  if (!s) {
    data_ = std::move(old_data);
    skin_cache_ = std::move(old_cache);
    skeleton_ = std::move(old_skeleton);
    binding_ = std::move(old_binding);
    player_ = std::move(old_player);
    return s;
  }
  last_position_.reset();
  // The setup pose (with the skins) is visible before the first tick; the tracks are not advanced,
  // so the first tick still fires the clips' events at time 0.
  skeleton_->instance().update({}, frame_context(0));
  for (BoneAttachment2D* a : attachments_) {
    a->overridden_bone_ = -1;  // the overrides belonged to the previous skeleton
    a->resolve_bone();
  }
  sync_attachments();
  ++pose_version_;
  return {};
}

Status Skeleton2D::set_graph(std::shared_ptr<const anim::AnimationGraph> graph) {
  auto old = std::move(graph_);
  graph_ = std::move(graph);
  if (!data_) return {};
  if (Status s = bind_graph(); !s) {
    graph_ = std::move(old);
    return s;
  }
  return {};
}

Status Skeleton2D::bind_graph() {
  if (!graph_) {
    if (skeleton_) skeleton_->set_graph(nullptr);
    player_.reset();
    binding_.reset();
    return {};
  }
  auto binding = skel::bind_graph(*graph_, *data_);
  if (!binding) return Unexpected{node_error(*this, "graph: " + binding.error().to_string())};
  auto new_binding = std::make_unique<anim::GraphBinding>(std::move(*binding));
  auto new_player = std::make_unique<anim::AnimationGraphPlayer>(*graph_, *new_binding);
  skeleton_->set_graph(new_player.get());
  binding_ = std::move(new_binding);
  player_ = std::move(new_player);
  return {};
}

Status Skeleton2D::set_skins(std::vector<std::string> skins) {
  auto old = std::move(skins_);
  skins_ = std::move(skins);
  if (!data_) return {};
  if (Status s = apply_skins(); !s) {
    skins_ = std::move(old);
    return s;
  }
  return {};
}

Status Skeleton2D::apply_skins() {
  auto composed = skin_cache_->compose(std::span<const std::string>(skins_));
  if (!composed) return Unexpected{node_error(*this, "skins: " + composed.error().to_string())};
  skel::apply_skin(skeleton_->pose(), **composed);
  return {};
}

Status Skeleton2D::set_clip(std::string clip) {
  auto old = std::move(clip_);
  clip_ = std::move(clip);
  if (!data_ || graph_) return {};
  if (Status s = apply_clip(); !s) {
    clip_ = std::move(old);
    return s;
  }
  return {};
}

Status Skeleton2D::apply_clip() {
  if (clip_.empty()) return {};
  const int clip = data_->find_clip(clip_);
  if (clip < 0) return Unexpected{node_error(*this, "clip \"" + clip_ + "\": the skeleton data \"" + data_->name + "\" has no such clip")};
  if (!data_->clip(clip))
    return Unexpected{node_error(*this, "clip \"" + clip_ + "\" is not loaded (load the data's clips before binding it)")};
  anim::AnimationTracks& tracks = skeleton_->tracks();
  const anim::TrackEntry* current = tracks.entry(tracks.current(0));
  if (!current || current->clip() != clip) tracks.set_clip(0, clip, true);
  return {};
}

// ---- pose ----------------------------------------------------------------------------------------

int Skeleton2D::find_bone(std::string_view name) const { return data_ ? data_->find_bone(name) : -1; }
int Skeleton2D::find_slot(std::string_view name) const { return data_ ? data_->find_slot(name) : -1; }

Affine2 Skeleton2D::bone_transform(int bone) const {
  if (!skeleton_ || bone < 0 || static_cast<std::size_t>(bone) >= data_->bones.parent.size()) return Affine2::identity();
  const skel::SkeletonPose& p = skeleton_->pose();
  const auto i = static_cast<std::size_t>(bone);
  return Affine2{p.a[i], p.b[i], p.c[i], p.d[i], p.world_x[i], p.world_y[i]};
}

Affine2 Skeleton2D::skeleton_transform() const { return global_transform() * flip(); }

Affine2 Skeleton2D::bone_global_transform(int bone) const { return skeleton_transform() * bone_transform(bone); }

void Skeleton2D::set_bone_override(int bone, const skel::BoneOverride& value) {
  if (skeleton_) skeleton_->set_bone_override(bone, value);
}

void Skeleton2D::clear_bone_override(int bone) {
  if (skeleton_) skeleton_->clear_bone_override(bone);
}

Status Skeleton2D::set_slot_attachment(int slot, std::string_view attachment) {
  if (!skeleton_) return Unexpected{node_error(*this, "set_slot_attachment: no skeleton data is bound")};
  if (!skel::set_slot_attachment(skeleton_->pose(), slot, attachment)) {
    const bool known = slot >= 0 && static_cast<std::size_t>(slot) < data_->slots.names.size();
    return Unexpected{node_error(*this, known ? "slot \"" + data_->slots.names[static_cast<std::size_t>(slot)] +
                                                    "\": the active skins have no attachment \"" + std::string(attachment) + "\" for it"
                                              : "set_slot_attachment: slot " + std::to_string(slot) + " is out of range")};
  }
  return {};
}

void Skeleton2D::reset_physics() {
  if (skeleton_) skel::reset_physics(skeleton_->pose());
}

Bounds Skeleton2D::pose_bounds() const { return skeleton_ ? skel::pose_bounds(skeleton_->pose()) : kEmptyBounds; }

Bounds Skeleton2D::cull_bounds() const {
  if (!skeleton_) return kEmptyBounds;
  Bounds out = pose_bounds();
  for (const anim::ClipSample& s : skeleton_->samples()) {
    if (s.clip < 0 || static_cast<std::size_t>(s.clip) >= data_->clips.size()) continue;
    if (const skel::ClipData* clip = data_->clip(s.clip)) include(out, clip->bounds);
  }
  return out;
}

Bounds Skeleton2D::to_canvas(const Bounds& b) const {
  if (b.empty()) return b;
  const Affine2 t = skeleton_transform();
  const Vec2 corners[4] = {t.apply({b.min_x, b.min_y}), t.apply({b.max_x, b.min_y}), t.apply({b.min_x, b.max_y}),
                           t.apply({b.max_x, b.max_y})};
  Bounds out{corners[0].x, corners[0].y, corners[0].x, corners[0].y};
  for (const Vec2& c : corners) include(out, Bounds{c.x, c.y, c.x, c.y});
  return out;
}

void Skeleton2D::set_flip(bool h, bool v) {
  if (h == flip_h_ && v == flip_v_) return;
  flip_h_ = h;
  flip_v_ = v;
  // The attachments' transforms are relative to this node and include the mirror.
  if (skeleton_) sync_attachments();
}

// ---- the tick ------------------------------------------------------------------------------------

void Skeleton2D::on_enter_tree() { last_position_.reset(); }

void Skeleton2D::on_process(float delta) {
  if (update_mode_ == SkeletonUpdateMode::Process) tick(delta);
}

void Skeleton2D::on_physics_process(float step) {
  if (update_mode_ == SkeletonUpdateMode::Physics) tick(step);
}

Status Skeleton2D::advance(float delta) {
  if (update_mode_ != SkeletonUpdateMode::Manual)
    return Unexpected{node_error(*this, "advance() is for UpdateMode Manual; this node ticks itself")};
  if (in_advance_) return Unexpected{node_error(*this, "advance() called from one of its own signals")};
  in_advance_ = true;
  tick(delta);
  in_advance_ = false;
  return {};
}

skel::FrameContext Skeleton2D::frame_context(float delta) {
  skel::FrameContext c;
  c.delta = delta;
  c.physics = physics_mode_;
  // Gravity and wind in skeleton space: a mirror turns them round.
  const float gx = physics_gravity_.x + physics_wind_.x, gy = physics_gravity_.y + physics_wind_.y;
  c.wind = flip_h_ ? -gx : gx;
  c.gravity = flip_v_ ? -gy : gy;
  // The node's position expressed in skeleton units, so that its movement between ticks is the
  // movement the constraints feel (scale and mirror included).
  const Affine2 t = skeleton_transform();
  const Affine2 linear{t.a, t.b, t.c, t.d, 0, 0};
  const std::optional<Affine2> inverse = linear.inverse();
  const Vec2 p = inverse ? inverse->apply(t.origin()) : t.origin();
  c.skeleton_x = p.x;
  c.skeleton_y = p.y;
  return c;
}

void Skeleton2D::tick(float delta) {
  if (!skeleton_) return;
  float d = delta * time_scale_;
  if (!(d > 0) || !std::isfinite(d)) d = 0;
  if (was_culled_ && offscreen_ == OffscreenUpdate::Pause) {
    ++paused_ticks_;
    return;
  }
  if (was_culled_ && offscreen_ == OffscreenUpdate::TimeOnly) {
    ++time_only_ticks_;
    skeleton_->advance_time(d);
    emit_events();
    return;
  }
  ++full_ticks_;
  const Vec2 position = global_transform().origin();
  if (last_position_ && std::hypot(position.x - last_position_->x, position.y - last_position_->y) > teleport_distance_)
    skel::reset_physics(skeleton_->pose());
  last_position_ = position;
  apply_attachment_overrides();
  skeleton_->update(d, frame_context(d));
  emit_events();
  sync_attachments();
  ++pose_version_;
  emit_pose_updated();
}

template <class... Args>
void Skeleton2D::emit(Signal<Skeleton2D*, Args...>& signal, const Args&... args) {
  SceneTree* t = tree();
  if (t && t->in_tick()) signal.emit_deferred(*t, this, args...);
  else signal.emit(this, args...);
}

void Skeleton2D::emit_pose_updated() {
  SceneTree* t = tree();
  if (t && t->in_tick()) pose_updated.emit_deferred(*t, this);
  else pose_updated.emit(this);
}

void Skeleton2D::emit_events() {
  const skel::SkeletonData& data = *data_;
  skeleton_->drain(
      [&](const skel::FiredEvent& e, int track) {
        SkeletonEvent out;
        out.event = e.event;
        out.name = &data.events[static_cast<std::size_t>(e.event)].name;
        out.int_value = e.int_value;
        out.float_value = e.float_value;
        out.string_value = e.string_value;
        out.volume = e.volume;
        out.balance = e.balance;
        out.clip = e.clip;
        out.time = e.time;
        out.track = track;
        emit(animation_event, out);
      },
      [&](const anim::TrackSignal& s) {
        const TrackEvent out{s.kind, s.track, s.clip, s.entry};
        switch (s.kind) {
          case anim::TrackSignalKind::Started: emit(track_started, out); break;
          case anim::TrackSignalKind::Interrupted: emit(track_interrupted, out); break;
          case anim::TrackSignalKind::Ended: emit(track_ended, out); break;
          case anim::TrackSignalKind::Completed: emit(track_completed, out); break;
          case anim::TrackSignalKind::Disposed: emit(track_disposed, out); break;
        }
      });
}

// ---- bone attachments ----------------------------------------------------------------------------

void Skeleton2D::attach(BoneAttachment2D* attachment) {
  if (std::find(attachments_.begin(), attachments_.end(), attachment) == attachments_.end()) attachments_.push_back(attachment);
  attachment->resolve_bone();
  if (skeleton_) attachment->sync();
}

void Skeleton2D::detach(BoneAttachment2D* attachment) {
  auto it = std::find(attachments_.begin(), attachments_.end(), attachment);
  if (it == attachments_.end()) return;
  attachment->release_override();
  attachments_.erase(it);
}

void Skeleton2D::apply_attachment_overrides() {
  for (BoneAttachment2D* a : attachments_) a->push_override();
}

void Skeleton2D::sync_attachments() {
  for (BoneAttachment2D* a : attachments_) a->sync();
}

}  // namespace mf::scene
