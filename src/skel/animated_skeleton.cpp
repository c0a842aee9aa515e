#include "mf/skel/animated_skeleton.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "bone_world_edit.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::skel {
namespace {

std::vector<float> clip_lengths(const SkeletonData& data) {
  std::vector<float> lengths;
  lengths.reserve(data.clips.size());
  for (const auto& clip : data.clips) lengths.push_back(clip.length);
  return lengths;
}

float lerp(float from, float to, float mix) { return from + (to - from) * mix; }
float lerp_degrees(float from, float to, float mix) { return from + detail::wrap_degrees(to - from) * mix; }

}  // namespace

AnimatedSkeleton::AnimatedSkeleton(const SkeletonData& data, int pool_size, int signal_capacity)
    : instance_(data),
      tracks_(clip_lengths(data), static_cast<int>(data.bones.size()), pool_size, signal_capacity),
      overrides_(data.bones.size()),
      overridden_(data.bones.size(), 0),
      chain_(data.bones.size()) {}

Expected<anim::GraphBinding> bind_graph(const anim::AnimationGraph& graph, const SkeletonData& data) {
  std::vector<std::string> clip_names;
  std::vector<float> lengths;
  clip_names.reserve(data.clips.size());
  lengths.reserve(data.clips.size());
  for (const auto& clip : data.clips) {
    clip_names.push_back(clip.name);
    lengths.push_back(clip.length);
  }
  return anim::bind_graph(graph, clip_names, lengths, data.bones.names);
}

void AnimatedSkeleton::set_graph(anim::AnimationGraphPlayer* graph) {
  graph_ = graph;
  graph_layers_ = graph ? graph->layer_count() : 0;
  if (graph) combined_.resize(graph->max_samples() + tracks_.max_samples());
}

void AnimatedSkeleton::advance(float delta) {
  if (graph_) graph_->update(delta);
  tracks_.update(delta);
  if (graph_) {
    const std::span<const anim::ClipSample> graph_samples = graph_->samples();
    // Sized at set_graph; grows only after a new track index was first used.
    const std::size_t needed = graph_samples.size() + tracks_.max_samples();
    if (combined_.size() < needed) combined_.resize(needed);
    std::copy(graph_samples.begin(), graph_samples.end(), combined_.begin());
    const std::size_t n = tracks_.write_samples(std::span<anim::ClipSample>(combined_).subspan(graph_samples.size()));
    for (std::size_t i = graph_samples.size(); i < graph_samples.size() + n; ++i) combined_[i].layer += graph_layers_;
    samples_ = std::span<const anim::ClipSample>(combined_.data(), graph_samples.size() + n);
  } else {
    samples_ = tracks_.samples();
  }
}

void AnimatedSkeleton::update(float delta, FrameContext context) {
  advance(delta);
  instance_.apply(samples_);
  apply_overrides();
  context.delta = delta;
  instance_.solve(context);
  events_drained_ = false;
}

void AnimatedSkeleton::advance_time(float delta) {
  advance(delta);
  instance_.fire_events(samples_);
  events_drained_ = false;
}

void AnimatedSkeleton::set_bone_override(int bone, const BoneOverride& o) {
  if (bone < 0 || static_cast<std::size_t>(bone) >= overrides_.size()) return;
  const auto i = static_cast<std::size_t>(bone);
  if (!overridden_[i]) ++override_count_;
  overridden_[i] = 1;
  overrides_[i] = o;
}

void AnimatedSkeleton::clear_bone_override(int bone) {
  if (bone < 0 || static_cast<std::size_t>(bone) >= overrides_.size()) return;
  const auto i = static_cast<std::size_t>(bone);
  if (overridden_[i]) --override_count_;
  overridden_[i] = 0;
}

void AnimatedSkeleton::clear_bone_overrides() {
  for (auto& flag : overridden_) flag = 0;
  override_count_ = 0;
}

const BoneOverride* AnimatedSkeleton::bone_override(int bone) const {
  if (bone < 0 || static_cast<std::size_t>(bone) >= overrides_.size()) return nullptr;
  const auto i = static_cast<std::size_t>(bone);
  return overridden_[i] ? &overrides_[i] : nullptr;
}

// Bone order is parents first, so a world override of a child sees its overridden parent.
void AnimatedSkeleton::apply_overrides() {
  if (override_count_ == 0) return;
  for (std::size_t i = 0; i < overrides_.size(); ++i) {
    if (!overridden_[i]) continue;
    const int bone = static_cast<int>(i);
    if (overrides_[i].space == BoneOverrideSpace::Local) apply_local(bone, overrides_[i]);
    else apply_world(bone, overrides_[i]);
  }
}

void AnimatedSkeleton::apply_local(int bone, const BoneOverride& o) {
  SkeletonPose& p = instance_.pose();
  const auto i = static_cast<std::size_t>(bone);
  if (o.channels & kOverrideTranslation) {
    p.x[i] = lerp(p.x[i], o.x, o.mix);
    p.y[i] = lerp(p.y[i], o.y, o.mix);
  }
  if (o.channels & kOverrideRotation) p.rotation[i] = lerp_degrees(p.rotation[i], o.rotation, o.mix);
  if (o.channels & kOverrideScale) {
    p.scale_x[i] = lerp(p.scale_x[i], o.scale_x, o.mix);
    p.scale_y[i] = lerp(p.scale_y[i], o.scale_y, o.mix);
  }
}

// The world transform asked for is built from the bone's current one (its world transform from the
// animated local pose), then expressed as a local pose through the parent's inherited frame
// (set_bone_world), and the local values are blended by the mix.
void AnimatedSkeleton::apply_world(int bone, const BoneOverride& o) {
  SkeletonPose& p = instance_.pose();
  const SkeletonData& data = p.data();
  // The ancestors' world transforms from this frame's local pose, root first (no constraints yet).
  std::size_t depth = 0;
  for (int b = data.bones.parent[static_cast<std::size_t>(bone)]; b >= 0; b = data.bones.parent[static_cast<std::size_t>(b)])
    chain_[depth++] = b;
  while (depth > 0) update_world_transform(p, chain_[--depth]);
  update_world_transform(p, bone);

  const auto i = static_cast<std::size_t>(bone);
  const float x0 = p.x[i], y0 = p.y[i], r0 = p.rotation[i], sx0 = p.scale_x[i], sy0 = p.scale_y[i], shy0 = p.shear_y[i];
  detail::BoneWorld w = detail::bone_world(p, bone);
  if (o.channels & kOverrideRotation) w.rotate(o.rotation - w.rotation());
  if (o.channels & kOverrideScale) {
    const float sx = w.scale_x(), sy = w.scale_y();
    if (sx > 0) {
      w.a *= o.scale_x / sx;
      w.c *= o.scale_x / sx;
    }
    if (sy > 0) {
      w.b *= o.scale_y / sy;
      w.d *= o.scale_y / sy;
    }
  }
  if (o.channels & kOverrideTranslation) {
    w.x = o.x;
    w.y = o.y;
  }
  const bool matrix = (o.channels & (kOverrideRotation | kOverrideScale)) != 0;
  detail::set_bone_world(p, bone, w, (o.channels & kOverrideTranslation) != 0, matrix);
  p.x[i] = lerp(x0, p.x[i], o.mix);
  p.y[i] = lerp(y0, p.y[i], o.mix);
  p.rotation[i] = lerp_degrees(r0, p.rotation[i], o.mix);
  p.scale_x[i] = lerp(sx0, p.scale_x[i], o.mix);
  p.scale_y[i] = lerp(sy0, p.scale_y[i], o.mix);
  p.shear_y[i] = lerp_degrees(shy0, p.shear_y[i], o.mix);
  update_world_transform(p, bone);
}

}  // namespace mf::skel
