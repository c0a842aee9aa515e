#pragma once
// A crowd of AnimatedSkeletons of one synthetic rig for the parallel tests: staggered start times, a
// crossfade to a second clip for every third skeleton partway through, a skin combination on every
// fifth (when the rig has more than one skin), and a skeleton position per skeleton and frame so the
// physics constraints have inertia to work with. Pose hashes read every bone's world transform, every
// slot's colours and the CPU vertex positions, bit for bit.

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "mf/skel/animated_skeleton.hpp"
#include "mf/skel/skin_composer.hpp"

namespace mf::testing {

// FNV-1a over bytes.
class Fnv1a {
 public:
  void add_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      h_ ^= b[i];
      h_ *= 0x100000001b3ull;
    }
  }
  template <class T>
  void add(const std::vector<T>& v) {
    add_bytes(v.data(), v.size() * sizeof(T));
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

// World a, b, c, d, x, y of every bone, slot colours (light and dark), and the x, y of every CPU
// vertex of the last vertices() call.
inline std::uint64_t pose_hash(skel::AnimatedSkeleton& s) {
  const skel::SkeletonPose& p = s.pose();
  Fnv1a h;
  for (const auto* v : {&p.a, &p.b, &p.c, &p.d, &p.world_x, &p.world_y}) h.add(*v);
  h.add(p.color);
  h.add(p.dark);
  for (const skel::CpuVertex& v : s.instance().vertices().vertices()) {
    h.add_bytes(&v.x, sizeof v.x);
    h.add_bytes(&v.y, sizeof v.y);
  }
  return h.value();
}

class Crowd {
 public:
  static constexpr float kDelta = 1.0f / 60;
  // The frame at which every third skeleton crossfades to the second clip.
  static constexpr int kCrossfadeFrame = 30;

  Crowd(const skel::SkeletonData& data, int count) : skins_(data), contexts_(static_cast<std::size_t>(count)) {
    const int first = data.find_clip("move");
    const int alt = data.find_clip("alt");
    second_ = alt >= 0 ? alt : first;
    const std::int32_t outfit[] = {0, static_cast<std::int32_t>(data.skins.size()) - 1};
    const skel::ComposedSkin* dressed = data.skins.size() > 1 ? &skins_.compose(outfit) : nullptr;
    for (int i = 0; i < count; ++i) {
      skeletons_.push_back(std::make_unique<skel::AnimatedSkeleton>(data));
      skel::AnimatedSkeleton& s = *skeletons_.back();
      if (dressed && i % 5 == 0) skel::apply_skin(s.pose(), *dressed);
      s.tracks().set_default_mix(0.4f);
      if (auto* entry = s.tracks().entry(s.tracks().set_clip(0, first, true)))
        entry->set_track_time(0.0137f * static_cast<float>(i));  // staggered start times
      pointers_.push_back(&s);
    }
  }

  std::span<skel::AnimatedSkeleton* const> skeletons() const { return pointers_; }
  std::span<const skel::FrameContext> contexts() const { return contexts_; }

  // What the host does before frame f's tick: the crossfades and each skeleton's position.
  void prepare(int f) {
    for (std::size_t i = 0; i < pointers_.size(); ++i) {
      if (f == kCrossfadeFrame && i % 3 == 0) pointers_[i]->tracks().set_clip(0, second_, true);
      skel::FrameContext& c = contexts_[i];
      c.skeleton_x = static_cast<float>((f * 3 + static_cast<int>(i)) % 90);
      c.skeleton_y = static_cast<float>(i % 7);
    }
  }

  // Every skeleton's pose hash, combined in crowd order.
  std::uint64_t hash() const {
    Fnv1a h;
    for (skel::AnimatedSkeleton* s : pointers_) {
      const std::uint64_t one = pose_hash(*s);
      h.add_bytes(&one, sizeof one);
    }
    return h.value();
  }

 private:
  skel::SkinCache skins_;
  int second_ = 0;
  std::vector<std::unique_ptr<skel::AnimatedSkeleton>> skeletons_;
  std::vector<skel::AnimatedSkeleton*> pointers_;
  std::vector<skel::FrameContext> contexts_;
};

}  // namespace mf::testing
