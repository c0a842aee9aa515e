// AnimationTracks allocates nothing per frame once its pool is warm. Global operator new and delete
// are replaced by counting versions; after a warm-up, thousands of frames of switching, queueing,
// crossfading chains, empty fades, layered additive tracks and signal draining allocate zero times.

#include <gtest/gtest.h>

#include "counting_new.hpp"

#include "mf/anim/animation_tracks.hpp"


namespace mf::anim {
namespace {

TEST(TracksAllocation, SteadyFramesAllocateNothing) {
  const float lengths[] = {1.0f, 0.8f, 1.3f, 0.5f};
  const std::uint8_t bits[] = {1, 0, 1, 1};
  const BoneMask mask{bits};
  const std::size_t at_start = testing::allocation_count();
  AnimationTracks tracks(lengths, 4);
  EXPECT_GT(testing::allocation_count(), at_start);  // the counter sees the load-time allocations
  tracks.set_default_mix(0.25f);
  tracks.set_mix(0, 1, 0.4f);
  tracks.set_mix(1, 2, 0.1f);
  // Create the tracks up front: a new track index is a load-time cost.
  tracks.set_clip(0, 0, true);
  tracks.set_clip(1, 3, true);
  tracks.clear_signals();

  std::size_t samples = 0, signals = 0;
  auto frame = [&](int f) {
    if (f % 23 == 0) tracks.set_clip(0, f % 3, true);  // switches mid-mix: chains up to the cap
    if (f % 61 == 0) {
      const TrackEntryHandle h = tracks.set_clip(0, 1, false);
      if (TrackEntry* e = tracks.entry(h)) e->set_hold_previous(true);
      tracks.add_clip(0, 2, true, 0);
    }
    if (f % 97 == 0) {
      const TrackEntryHandle h = tracks.set_clip(1, 3, true);
      if (TrackEntry* e = tracks.entry(h)) {
        e->set_blend(ClipBlend::Additive);
        e->set_mask(&mask);
        e->set_reverse(f % 2 == 0);
        e->set_animation_start(0.1f);
        e->set_animation_end(0.4f);
      }
    }
    if (f % 97 == 50) tracks.set_empty(1, 0.3f);
    if (f % 131 == 0) tracks.add_empty(0, 0.2f, 0);
    tracks.update(1.0f / 60);
    samples += tracks.samples().size();
    tracks.drain_signals([&](const TrackSignal&) { ++signals; });
  };

  for (int f = 0; f < 600; ++f) frame(f);
  const std::size_t before = testing::allocation_count();
  for (int f = 600; f < 6600; ++f) frame(f);
  EXPECT_EQ(testing::allocation_count() - before, 0u);
  EXPECT_GT(samples, 6000u);  // the frames did produce samples and signals
  EXPECT_GT(signals, 100u);
}

}  // namespace
}  // namespace mf::anim
