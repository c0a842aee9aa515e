// The same inputs give bit-identical poses: two instances fed the same frames agree bit for bit, and
// a rebuilt data set gives the same hash.

#include <bit>
#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"
#include "synthetic_rig.hpp"

namespace mf::skel {
namespace {

// FNV-1a over the bytes of every pose array and the CPU vertices.
class PoseHash {
 public:
  template <class T>
  void add(const std::vector<T>& v) {
    add_bytes(v.data(), v.size() * sizeof(T));
  }
  void add_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      h_ ^= b[i];
      h_ *= 0x100000001b3ull;
    }
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

std::uint64_t hash_pose(SkeletonInstance& instance) {
  const SkeletonPose& p = instance.pose();
  PoseHash h;
  for (const auto* v : {&p.x, &p.y, &p.rotation, &p.scale_x, &p.scale_y, &p.shear_x, &p.shear_y, &p.a, &p.b, &p.c, &p.d,
                        &p.world_x, &p.world_y, &p.deform})
    h.add(*v);
  h.add(p.color);
  h.add(p.dark);
  h.add(p.attachment);
  h.add(p.sequence_index);
  h.add(p.draw_order);
  const CpuVertices& vertices = instance.vertices();
  h.add_bytes(vertices.vertices().data(), vertices.vertices().size_bytes());
  h.add_bytes(vertices.indices().data(), vertices.indices().size_bytes());
  for (const FiredEvent& e : instance.events()) h.add_bytes(&e.time, sizeof e.time);
  return h.value();
}

std::uint64_t run(const SkeletonData& data, int frames) {
  SkeletonInstance instance(data);
  SkinCache skins(data);
  const std::int32_t outfits[2][2] = {{0, 1}, {0, 2}};
  PoseHash total;
  const int move = data.find_clip("move"), alt = data.find_clip("alt");
  for (int f = 0; f < frames; ++f) {
    if (f % 100 == 0) apply_skin(instance.pose(), skins.compose(outfits[(f / 100) % 2]));
    const float t = static_cast<float>(f) / 60, prev = static_cast<float>(f - 1) / 60;
    anim::ClipSample samples[2] = {loop_sample(data, move, prev, t), loop_sample(data, alt, prev, t)};
    samples[0].weight = 0.5f + 0.5f * static_cast<float>(f % 60) / 60;
    samples[1].weight = 1 - samples[0].weight;
    FrameContext context;  // physics steps at 60 Hz; the skeleton drifts so inertia has work
    context.delta = 1.0f / 60;
    context.skeleton_x = static_cast<float>(f % 120);
    instance.update(samples, context);
    const std::uint64_t h = hash_pose(instance);
    total.add_bytes(&h, sizeof h);
  }
  return total.value();
}

TEST(Determinism, SameFramesGiveBitIdenticalPoses) {
  const auto built = testing::build_synthetic(testing::make_feature_rig());
  const std::uint64_t first = run(*built.data, 600);
  const std::uint64_t second = run(*built.data, 600);
  EXPECT_EQ(first, second);
}

TEST(Determinism, RebuiltDataGivesTheSamePoses) {
  const auto a = testing::build_synthetic(testing::make_feature_rig());
  const auto b = testing::build_synthetic(testing::make_feature_rig());
  EXPECT_EQ(run(*a.data, 300), run(*b.data, 300));
}

}  // namespace
}  // namespace mf::skel
