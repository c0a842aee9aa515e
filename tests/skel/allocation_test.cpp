// The runtime allocates nothing per frame. Global operator new and delete are replaced by counting
// versions; after load and a warm-up, thousands of frames with every runtime feature in use (two
// layers with crossfading weights, skins switching among combinations already composed, sequences,
// attachment and draw-order keys, deform, events, clipping, code-set attachments) must allocate zero
// times.

#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"
#include "synthetic_rig.hpp"

namespace {
std::atomic<std::size_t> g_allocations{0};
}  // namespace

// The replacements below pair malloc with free on purpose; g++ cannot see that operator new is ours.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace mf::skel {
namespace {

TEST(Allocation, SteadyFramesAllocateNothing) {
  const auto built = testing::build_synthetic(testing::make_feature_rig());
  const SkeletonData& data = *built.data;
  SkeletonInstance instance(data);
  SkinCache skins(data);
  const std::int32_t outfit_a[] = {0, 1}, outfit_b[] = {0, 2}, plain[] = {0};
  const ComposedSkin* outfits[] = {&skins.compose(outfit_a), &skins.compose(outfit_b), &skins.compose(plain)};
  const int move = data.find_clip("move"), alt = data.find_clip("alt");
  const int region3 = data.find_slot("region3");

  std::size_t events = 0, clipped_runs = 0;
  auto frame = [&](int f) {
    if (f % 50 == 0) apply_skin(instance.pose(), *outfits[(f / 50) % 3]);
    if (f % 70 == 0) set_slot_attachment(instance.pose(), region3, f % 140 == 0 ? "" : "region3");
    const float t = static_cast<float>(f) / 60, prev = static_cast<float>(f - 1) / 60;
    anim::ClipSample samples[3] = {loop_sample(data, move, prev, t), loop_sample(data, alt, prev, t),
                                   loop_sample(data, alt, prev * 0.5f, t * 0.5f)};
    samples[0].weight = static_cast<float>(f % 90) / 90;
    samples[1].weight = 1 - samples[0].weight;
    samples[2].layer = 1;
    samples[2].blend = anim::ClipBlend::Additive;
    samples[2].weight = 0.3f;
    instance.update(samples);
    events += instance.events().size();
    for (const DrawRun& run : instance.vertices().runs()) clipped_runs += run.clipped ? 1 : 0;
  };

  for (int f = 0; f < 200; ++f) frame(f);  // warm-up: every skin, key and loop seen once
  const std::size_t before = g_allocations.load();
  for (int f = 200; f < 5200; ++f) frame(f);
  const std::size_t during = g_allocations.load() - before;

  EXPECT_EQ(during, 0u) << "allocations in 5000 steady frames";
  EXPECT_GT(events, 0u) << "the frames fired events";
  EXPECT_GT(clipped_runs, 0u) << "the frames clipped slots";
}

}  // namespace
}  // namespace mf::skel
