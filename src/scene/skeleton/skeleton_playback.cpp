#include "mf/scene/skeleton/skeleton_playback.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>

#include "mf/scene/node.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/skel/bounds.hpp"

namespace mf::scene {
namespace {

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

std::uint64_t SkeletonPlayback::next_serial() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

Error SkeletonPlayback::error(std::string message) const { return Error{{}, {}, {}, hooks_->owner().path() + ": " + std::move(message)}; }

// ---- binding -------------------------------------------------------------------------------------

Status SkeletonPlayback::set_data(std::shared_ptr<const skel::SkeletonData> data) {
  if (!data) {
    player_.reset();
    binding_.reset();
    skeleton_.reset();
    skin_cache_.reset();
    data_.reset();
    last_position_.reset();
    hooks_->data_changed();
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
  hooks_->data_changed();
  ++pose_version_;
  return {};
}

Status SkeletonPlayback::replace_data(std::shared_ptr<const skel::SkeletonData> data,
                                      std::shared_ptr<const anim::AnimationGraph> graph, const PlaybackCarry& carry) {
  if (!data) return Unexpected{error("replace_data: no data given (set_data(nullptr) unbinds)")};
  if (const SceneTree* tree = hooks_->owner().tree(); tree && tree->in_tick())
    return Unexpected{error("replace_data: called during a tick; new data is taken between ticks")};
  if (!skeleton_) {
    graph_ = std::move(graph);
    return set_data(std::move(data));
  }
  // The new state is built aside; the old objects are released after it is in place (declared in
  // this order, the players go before the data they read).
  auto old_data = std::move(data_);
  auto old_graph = std::move(graph_);
  auto old_cache = std::move(skin_cache_);
  auto old_skeleton = std::move(skeleton_);
  auto old_binding = std::move(binding_);
  auto old_player = std::move(player_);
  data_ = std::move(data);
  graph_ = std::move(graph);
  skin_cache_ = std::make_unique<skel::SkinCache>(*data_);
  // The pool as large as the old one grew, so the carried entries fit without growing again.
  skeleton_ = std::make_unique<skel::AnimatedSkeleton>(*data_, static_cast<int>(old_skeleton->tracks().pool_capacity()));
  Status s = apply_skins();
  if (s) s = bind_graph();
  if (s) {
    carry(*old_skeleton, *skeleton_, old_player.get(), player_.get());
    if (!graph_) s = apply_clip();
  }
  if (!s) {
    player_ = std::move(old_player);
    binding_ = std::move(old_binding);
    skeleton_ = std::move(old_skeleton);
    skin_cache_ = std::move(old_cache);
    graph_ = std::move(old_graph);
    data_ = std::move(old_data);
    return s;
  }
  // The carried state posed at once; whatever the zero-length update reports was already reported
  // by the old skeleton.
  skeleton_->update(0, frame_context(0));
  skeleton_->drain([](const skel::FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
  hooks_->data_changed();
  ++pose_version_;
  return {};
}

Status SkeletonPlayback::set_graph(std::shared_ptr<const anim::AnimationGraph> graph) {
  auto old = std::move(graph_);
  graph_ = std::move(graph);
  if (!data_) return {};
  if (Status s = bind_graph(); !s) {
    graph_ = std::move(old);
    return s;
  }
  return {};
}

Status SkeletonPlayback::bind_graph() {
  if (!graph_) {
    if (skeleton_) skeleton_->set_graph(nullptr);
    player_.reset();
    binding_.reset();
    return {};
  }
  auto binding = skel::bind_graph(*graph_, *data_);
  if (!binding) return Unexpected{error("graph: " + binding.error().to_string())};
  auto new_binding = std::make_unique<anim::GraphBinding>(std::move(*binding));
  auto new_player = std::make_unique<anim::AnimationGraphPlayer>(*graph_, *new_binding);
  skeleton_->set_graph(new_player.get());
  binding_ = std::move(new_binding);
  player_ = std::move(new_player);
  return {};
}

Status SkeletonPlayback::set_skins(std::vector<std::string> skins) {
  auto old = std::move(skins_);
  skins_ = std::move(skins);
  if (!data_) return {};
  if (Status s = apply_skins(); !s) {
    skins_ = std::move(old);
    return s;
  }
  return {};
}

Status SkeletonPlayback::apply_skins() {
  auto composed = skin_cache_->compose(std::span<const std::string>(skins_));
  if (!composed) return Unexpected{error("skins: " + composed.error().to_string())};
  skel::apply_skin(skeleton_->pose(), **composed);
  return {};
}

Status SkeletonPlayback::set_clip(std::string clip) {
  auto old = std::move(clip_);
  clip_ = std::move(clip);
  if (!data_ || graph_) return {};
  if (Status s = apply_clip(); !s) {
    clip_ = std::move(old);
    return s;
  }
  return {};
}

Status SkeletonPlayback::apply_clip() {
  if (clip_.empty()) return {};
  const int clip = data_->find_clip(clip_);
  if (clip < 0) return Unexpected{error("clip \"" + clip_ + "\": the skeleton data \"" + data_->name + "\" has no such clip")};
  if (!data_->clip(clip)) return Unexpected{error("clip \"" + clip_ + "\" is not loaded (load the data's clips before binding it)")};
  anim::AnimationTracks& tracks = skeleton_->tracks();
  const anim::TrackEntry* current = tracks.entry(tracks.current(0));
  if (!current || current->clip() != clip) tracks.set_clip(0, clip, true);
  return {};
}

// ---- pose ----------------------------------------------------------------------------------------

Affine2 SkeletonPlayback::bone_transform(int bone) const {
  if (!skeleton_ || bone < 0 || static_cast<std::size_t>(bone) >= data_->bones.parent.size()) return Affine2::identity();
  const skel::SkeletonPose& p = skeleton_->pose();
  const auto i = static_cast<std::size_t>(bone);
  return Affine2{p.a[i], p.b[i], p.c[i], p.d[i], p.world_x[i], p.world_y[i]};
}

Status SkeletonPlayback::set_slot_attachment(int slot, std::string_view attachment) {
  if (!skeleton_) return Unexpected{error("set_slot_attachment: no skeleton data is bound")};
  if (!skel::set_slot_attachment(skeleton_->pose(), slot, attachment)) {
    const bool known = slot >= 0 && static_cast<std::size_t>(slot) < data_->slots.names.size();
    return Unexpected{error(known ? "slot \"" + data_->slots.names[static_cast<std::size_t>(slot)] +
                                        "\": the active skins have no attachment \"" + std::string(attachment) + "\" for it"
                                  : "set_slot_attachment: slot " + std::to_string(slot) + " is out of range")};
  }
  return {};
}

void SkeletonPlayback::reset_physics() {
  if (skeleton_) skel::reset_physics(skeleton_->pose());
}

Bounds SkeletonPlayback::pose_bounds() const { return skeleton_ ? skel::pose_bounds(skeleton_->pose()) : kEmptyBounds; }

Bounds SkeletonPlayback::cull_bounds() const {
  if (!skeleton_) return kEmptyBounds;
  Bounds out = pose_bounds();
  for (const anim::ClipSample& s : skeleton_->samples()) {
    if (s.clip < 0 || static_cast<std::size_t>(s.clip) >= data_->clips.size()) continue;
    if (const skel::ClipData* clip = data_->clip(s.clip)) include(out, clip->bounds);
  }
  return out;
}

// ---- the tick ------------------------------------------------------------------------------------

Status SkeletonPlayback::advance(float delta) {
  if (update_mode != SkeletonUpdateMode::Manual)
    return Unexpected{error("advance() is for UpdateMode Manual; this node ticks itself")};
  if (in_advance_) return Unexpected{error("advance() called from one of its own signals")};
  in_advance_ = true;
  tick(delta);
  in_advance_ = false;
  return {};
}

skel::FrameContext SkeletonPlayback::frame_context(float delta) const {
  skel::FrameContext c;
  c.delta = delta;
  c.physics = physics_mode;
  // Gravity and wind in skeleton space: a mirror turns them round.
  const Vec2 axes = hooks_->physics_axes();
  c.wind = (physics_gravity.x + physics_wind.x) * axes.x;
  c.gravity = (physics_gravity.y + physics_wind.y) * axes.y;
  const Vec2 p = hooks_->physics_position();
  c.skeleton_x = p.x;
  c.skeleton_y = p.y;
  return c;
}

void SkeletonPlayback::tick(float delta) {
  if (!skeleton_) return;
  float d = delta * time_scale;
  if (!(d > 0) || !std::isfinite(d)) d = 0;
  if (was_culled && offscreen == OffscreenUpdate::Pause) {
    ++paused_ticks_;
    return;
  }
  if (was_culled && offscreen == OffscreenUpdate::TimeOnly) {
    ++time_only_ticks_;
    skeleton_->advance_time(d);
    emit_events();
    return;
  }
  ++full_ticks_;
  const Vec3 position = hooks_->teleport_position();
  if (last_position_ && length(position - *last_position_) > teleport_distance)
    skel::reset_physics(skeleton_->pose());
  last_position_ = position;
  hooks_->before_pose();
  skeleton_->update(d, frame_context(d));
  emit_events();
  hooks_->after_pose();
  ++pose_version_;
  hooks_->emit_pose_updated();
}

void SkeletonPlayback::emit_events() {
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
        if (audio_ && !data.events[static_cast<std::size_t>(e.event)].audio.empty())
          audio_->play_event_sound(hooks_->owner(), data, out, event_audio_bus);
        hooks_->emit_event(out);
      },
      [&](const anim::TrackSignal& s) { hooks_->emit_track(TrackEvent{s.kind, s.track, s.clip, s.entry}); });
}

}  // namespace mf::scene
