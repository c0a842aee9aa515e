#include "mf/anim/animation_tracks.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

namespace mf::anim {
namespace {

// Float sums of a few products: exact to within this.
constexpr float kEps = 1e-5f;

// Clips: 0 "a" 1 s, 1 "b" 2 s, 2 "c" 0.5 s, 3 "d" 1 s, 4 "e" 1 s.
constexpr float kLengths[] = {1.0f, 2.0f, 0.5f, 1.0f, 1.0f};
constexpr int kA = 0, kB = 1, kC = 2, kD = 3, kE = 4;
constexpr int kBones = 3;

struct Frame {
  std::vector<ClipSample> samples;
  // The pose sample of `clip` (an entry's pose sample precedes its event-only samples).
  const ClipSample* find(int clip) const {
    for (const ClipSample& s : samples)
      if (s.clip == clip) return &s;
    return nullptr;
  }
  float weight_sum(int layer) const {
    float sum = 0;
    for (const ClipSample& s : samples)
      if (s.layer == layer) sum += s.weight;
    return sum;
  }
};

Frame sample(AnimationTracks& tracks) {
  const auto span = tracks.samples();
  return {std::vector<ClipSample>(span.begin(), span.end())};
}

std::vector<TrackSignal> take_signals(AnimationTracks& tracks) {
  std::vector<TrackSignal> out;
  tracks.drain_signals([&](const TrackSignal& s) { out.push_back(s); });
  return out;
}

TEST(TracksMixing, CrossfadeWeightsFollowTheMixFraction) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_mix(kA, kB, 0.4f);
  const TrackEntryHandle a = tracks.set_clip(0, kA, true);
  tracks.update(0.1f);
  Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 1u);
  EXPECT_EQ(f.samples[0].clip, kA);
  EXPECT_FLOAT_EQ(f.samples[0].weight, 1);

  const TrackEntryHandle b = tracks.set_clip(0, kB, true);
  EXPECT_FLOAT_EQ(tracks.entry(b)->mix_duration(), 0.4f);
  tracks.entry(b)->set_alpha(0.8f);
  tracks.entry(a)->set_alpha(0.5f);
  for (int step = 1; step <= 3; ++step) {
    tracks.update(0.1f);
    f = sample(tracks);
    const float m = 0.25f * static_cast<float>(step);
    ASSERT_EQ(f.samples.size(), 2u) << step;
    EXPECT_EQ(f.samples[0].clip, kA);  // oldest first
    EXPECT_EQ(f.samples[1].clip, kB);
    EXPECT_NEAR(f.samples[0].weight, (1 - m) * 0.5f, kEps) << step;
    EXPECT_NEAR(f.samples[1].weight, m * 0.8f, kEps) << step;
    EXPECT_EQ(f.samples[0].layer, 0);
    EXPECT_EQ(f.samples[1].layer, 0);
  }
  tracks.update(0.15f);  // the mix completes: A is sampled once more, with no share
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  EXPECT_EQ(f.samples[0].clip, kA);
  EXPECT_EQ(f.samples[0].weight, 0.0f);
  tracks.update(0);  // then dropped
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 1u);
  EXPECT_EQ(f.samples[0].clip, kB);
  EXPECT_NEAR(f.samples[0].weight, 0.8f, kEps);
  EXPECT_EQ(tracks.current(0), b);
}

TEST(TracksMixing, DefaultMixAndTimeScale) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_default_mix(0.5f);
  tracks.set_time_scale(2);
  tracks.set_clip(0, kA, true);
  tracks.update(0.1f);
  sample(tracks);
  const TrackEntryHandle b = tracks.set_clip(0, kB, true);
  tracks.entry(b)->set_time_scale(0.5f);
  tracks.update(0.1f);  // 0.2 s of global time; B's own time advances 0.1
  EXPECT_NEAR(tracks.entry(b)->mix_time(), 0.2f, kEps);
  EXPECT_NEAR(tracks.entry(b)->track_time(), 0.1f, kEps);
  const Frame f = sample(tracks);
  EXPECT_NEAR(f.find(kB)->weight, 0.4f, kEps);
  EXPECT_NEAR(f.find(kA)->weight, 0.6f, kEps);
  EXPECT_NEAR(f.find(kA)->time, 0.4f, kEps);  // A kept playing at the global scale
}

TEST(TracksQueue, PositiveDelayCountsFromThePreviousStart) {
  AnimationTracks tracks(kLengths, kBones);
  const TrackEntryHandle a = tracks.set_clip(0, kA, false);
  const TrackEntryHandle b = tracks.add_clip(0, kB, true, 0.5f);
  EXPECT_FLOAT_EQ(tracks.entry(b)->delay(), 0.5f);
  tracks.update(0.3f);
  sample(tracks);
  EXPECT_EQ(tracks.current(0), a);
  tracks.update(0.3f);  // A reaches 0.6: B starts with the 0.1 s overshoot; no mix, so A has no share
  EXPECT_EQ(tracks.current(0), b);
  EXPECT_NEAR(tracks.entry(b)->track_time(), 0.1f, kEps);
  Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  EXPECT_EQ(f.find(kA)->weight, 0.0f);
  EXPECT_NEAR(f.find(kB)->time, 0.1f, kEps);
  EXPECT_TRUE(f.find(kB)->first);
  tracks.update(0);  // and ends
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 1u);
  EXPECT_EQ(f.samples[0].clip, kB);
}

TEST(TracksQueue, NonPositiveDelayIsRelativeToTheEndMinusTheMix) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_default_mix(0.2f);
  tracks.set_clip(0, kA, false);
  const TrackEntryHandle b = tracks.add_clip(0, kB, false, 0);
  EXPECT_NEAR(tracks.entry(b)->delay(), 1.0f - 0.2f, kEps);  // the mix ends as A ends
  tracks.set_mix(kB, kC, 0.3f);
  const TrackEntryHandle c = tracks.add_clip(0, kC, false, -0.1f);
  EXPECT_NEAR(tracks.entry(c)->delay(), 2.0f - 0.3f - 0.1f, kEps);

  tracks.update(0.5f);
  sample(tracks);
  tracks.update(0.31f);  // A at 0.81: B started mixing in 0.01 s ago
  EXPECT_EQ(tracks.current(0), b);
  sample(tracks);
  tracks.update(0.09f);
  Frame f = sample(tracks);
  EXPECT_NEAR(f.find(kB)->weight, 0.5f, kEps);
  EXPECT_NEAR(f.find(kA)->weight, 0.5f, kEps);
  EXPECT_NEAR(f.find(kA)->time, 0.9f, kEps);
  tracks.update(0.15f);  // the mix completes: A's last sample has no share
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  EXPECT_EQ(f.find(kA)->weight, 0.0f);
  EXPECT_NEAR(f.find(kB)->weight, 1, kEps);
  tracks.update(0);
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 1u);
}

TEST(TracksQueue, LoopingPreviousUsesItsNextLoopEnd) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_default_mix(0.2f);
  tracks.set_clip(0, kA, true);
  tracks.update(1.3f);
  const TrackEntryHandle b = tracks.add_clip(0, kB, true, 0);
  EXPECT_NEAR(tracks.entry(b)->delay(), 2.0f - 0.2f, kEps);
  // Entries queued behind a queued one count from its first loop.
  const TrackEntryHandle c = tracks.add_clip(0, kC, true, 0);
  EXPECT_NEAR(tracks.entry(c)->delay(), 2.0f - 0.2f, kEps);
}

TEST(TracksQueue, AddOnAnEmptyTrackWaitsForItsDelay) {
  AnimationTracks tracks(kLengths, kBones);
  const TrackEntryHandle a = tracks.add_clip(2, kA, true, 0.25f);
  EXPECT_EQ(tracks.current(2), a);
  tracks.update(0.2f);
  EXPECT_TRUE(sample(tracks).samples.empty());  // still waiting
  tracks.update(0.1f);
  const Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 1u);
  EXPECT_NEAR(f.samples[0].time, 0.05f, kEps);
  EXPECT_EQ(f.samples[0].layer, 2 * kLayersPerTrack);
}

TEST(TracksEmpty, SetEmptyFadesALayerOutAndEnds) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_clip(0, kA, true);
  const TrackEntryHandle b = tracks.set_clip(1, kB, true);
  tracks.update(0.1f);
  sample(tracks);
  take_signals(tracks);
  const TrackEntryHandle empty = tracks.set_empty(1, 0.5f);
  EXPECT_TRUE(tracks.entry(empty)->is_empty());
  take_signals(tracks);
  tracks.update(0.25f);
  Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  EXPECT_EQ(f.samples[1].clip, kB);
  EXPECT_EQ(AnimationTracks::track_of_layer(f.samples[1].layer), 1);
  EXPECT_NEAR(f.samples[1].weight, 0.5f, kEps);  // the other half keeps the pose below
  tracks.update(0.25f);  // the fade completes: B's last sample has no share
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  EXPECT_EQ(f.samples[1].weight, 0.0f);
  tracks.update(0);  // then B and the empty entry end
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 1u);
  EXPECT_EQ(f.samples[0].clip, kA);
  EXPECT_TRUE(tracks.current(1).is_null());
  const auto signals = take_signals(tracks);
  ASSERT_EQ(signals.size(), 4u);
  EXPECT_EQ(signals[0].kind, TrackSignalKind::Ended);
  EXPECT_EQ(signals[0].entry, b);
  EXPECT_EQ(signals[1].kind, TrackSignalKind::Disposed);
  EXPECT_EQ(signals[2].kind, TrackSignalKind::Ended);
  EXPECT_EQ(signals[2].entry, empty);
  EXPECT_EQ(signals[3].kind, TrackSignalKind::Disposed);
}

TEST(TracksEmpty, AddEmptyMixesOutBeforeTheEnd) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_clip(0, kA, false);
  const TrackEntryHandle empty = tracks.add_empty(0, 0.4f, 0);
  EXPECT_NEAR(tracks.entry(empty)->delay(), 0.6f, kEps);
  tracks.update(0.6f);
  sample(tracks);
  tracks.update(0.2f);
  const Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 1u);
  EXPECT_NEAR(f.samples[0].weight, 0.5f, kEps);
  tracks.update(0.2f);  // the fade completes; A is sampled once more with no share
  EXPECT_FALSE(tracks.current(0).is_null());
  tracks.update(0);
  EXPECT_TRUE(tracks.current(0).is_null());
}

TEST(TracksChain, FourEntriesAtMostAndTheOldestFoldsIntoTheNext) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_default_mix(1.0f);
  const int clips[] = {kA, kB, kC, kD};
  TrackEntryHandle handles[4];
  for (int k = 0; k < 4; ++k) {
    handles[k] = tracks.set_clip(0, clips[k], true);
    tracks.update(0.1f);
    sample(tracks);
  }
  Frame before = sample(tracks);
  ASSERT_EQ(before.samples.size(), 4u);
  EXPECT_NEAR(before.weight_sum(0), 1, kEps);
  // D: 0.1, C: 0.2 × 0.9, B: 0.3 × 0.9 × 0.8, A: the rest.
  EXPECT_NEAR(before.find(kD)->weight, 0.1f, kEps);
  EXPECT_NEAR(before.find(kC)->weight, 0.18f, kEps);
  EXPECT_NEAR(before.find(kB)->weight, 0.216f, kEps);
  EXPECT_NEAR(before.find(kA)->weight, 1 - 0.1f - 0.18f - 0.216f, kEps);
  take_signals(tracks);

  const TrackEntryHandle e = tracks.set_clip(0, kE, true);
  const Frame after = sample(tracks);
  ASSERT_EQ(after.samples.size(), 4u);
  EXPECT_EQ(after.find(kA), nullptr);
  EXPECT_NEAR(after.find(kE)->weight, 0, kEps);
  EXPECT_NEAR(after.find(kD)->weight, before.find(kD)->weight, kEps);
  EXPECT_NEAR(after.find(kC)->weight, before.find(kC)->weight, kEps);
  EXPECT_NEAR(after.find(kB)->weight, before.find(kB)->weight + before.find(kA)->weight, kEps);
  EXPECT_NEAR(after.weight_sum(0), 1, kEps);

  const auto signals = take_signals(tracks);
  ASSERT_EQ(signals.size(), 4u);
  EXPECT_EQ(signals[0].kind, TrackSignalKind::Interrupted);
  EXPECT_EQ(signals[0].entry, handles[3]);
  EXPECT_EQ(signals[1].kind, TrackSignalKind::Ended);
  EXPECT_EQ(signals[1].entry, handles[0]);
  EXPECT_EQ(signals[2].kind, TrackSignalKind::Disposed);
  EXPECT_EQ(signals[3].kind, TrackSignalKind::Started);
  EXPECT_EQ(signals[3].entry, e);
  EXPECT_EQ(tracks.entry(handles[0]), nullptr);
}

TEST(TracksLatch, NaNWhenTheMixStartsAndTheSameStorageDuringIt) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_default_mix(0.4f);
  tracks.set_clip(0, kA, true);
  tracks.update(0.1f);
  Frame f = sample(tracks);
  EXPECT_EQ(f.samples[0].rotation_latch, nullptr);  // nothing to pair with

  const TrackEntryHandle b = tracks.set_clip(0, kB, true);
  tracks.update(0.1f);
  f = sample(tracks);
  EXPECT_EQ(f.find(kA)->rotation_latch, nullptr);  // the layer's first sample is the reference
  float* latch = f.find(kB)->rotation_latch;
  ASSERT_NE(latch, nullptr);
  EXPECT_EQ(latch, tracks.rotation_latch(b).data());
  for (int bone = 0; bone < kBones; ++bone) EXPECT_TRUE(std::isnan(latch[bone])) << bone;
  latch[1] = 178;  // what the sampler does on the first mixed frame

  tracks.update(0.1f);
  f = sample(tracks);
  EXPECT_EQ(f.find(kB)->rotation_latch, latch);
  EXPECT_FLOAT_EQ(latch[1], 178);

  // A third entry: a new pair with a fresh latch; B still pairs with A, so its latch stays.
  const TrackEntryHandle c = tracks.set_clip(0, kC, true);
  f = sample(tracks);
  float* latch_c = f.find(kC)->rotation_latch;
  ASSERT_NE(latch_c, nullptr);
  EXPECT_NE(latch_c, latch);
  EXPECT_TRUE(std::isnan(latch_c[1]));
  EXPECT_FLOAT_EQ(latch[1], 178);
  latch_c[1] = -90;

  // B's mix completes and A is dropped: C now pairs with B, so its latch starts again.
  tracks.update(0.25f);
  sample(tracks);
  tracks.update(0);
  f = sample(tracks);
  ASSERT_EQ(f.find(kA), nullptr);
  EXPECT_EQ(f.find(kB)->rotation_latch, nullptr);
  EXPECT_EQ(f.find(kC)->rotation_latch, latch_c);
  EXPECT_TRUE(std::isnan(latch_c[1]));
  EXPECT_EQ(tracks.rotation_latch(c).data(), latch_c);
}

TEST(TracksHoldPrevious, TheOutgoingEntryKeepsItsFullShareBelow) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_default_mix(0.4f);
  const TrackEntryHandle a = tracks.set_clip(0, kA, true);
  tracks.entry(a)->set_alpha(0.9f);
  tracks.update(0.1f);
  sample(tracks);
  const TrackEntryHandle b = tracks.set_clip(0, kB, true);
  tracks.entry(b)->set_hold_previous(true);
  tracks.update(0.1f);
  const Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  EXPECT_EQ(f.samples[0].clip, kA);
  EXPECT_NEAR(f.samples[0].weight, 0.9f, kEps);  // not 1 − m
  EXPECT_EQ(f.samples[1].clip, kB);
  EXPECT_NEAR(f.samples[1].weight, 0.25f, kEps);
  EXPECT_LT(f.samples[0].layer, f.samples[1].layer);  // B mixes in over A's full pose
  EXPECT_EQ(AnimationTracks::track_of_layer(f.samples[0].layer), 0);
  EXPECT_EQ(AnimationTracks::track_of_layer(f.samples[1].layer), 0);
  EXPECT_EQ(f.samples[1].rotation_latch, nullptr);  // first of its sub-layer
  // Each sub-layer sums to at most 1.
  EXPECT_LE(f.weight_sum(f.samples[0].layer), 1 + kEps);
  EXPECT_LE(f.weight_sum(f.samples[1].layer), 1 + kEps);
}

TEST(TracksLayers, AdditiveLayersAndMasksArePassedThrough) {
  AnimationTracks tracks(kLengths, kBones);
  const std::uint8_t bits[kBones] = {0, 1, 1};
  const BoneMask mask{bits};
  tracks.set_clip(0, kA, true);
  const TrackEntryHandle c = tracks.set_clip(1, kC, true);
  tracks.entry(c)->set_blend(ClipBlend::Additive);
  tracks.entry(c)->set_mask(&mask);
  tracks.entry(c)->set_alpha(0.3f);
  tracks.entry(c)->set_attachment_threshold(0.2f);
  tracks.entry(c)->set_draw_order_threshold(0.7f);
  tracks.update(0.1f);
  const Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  EXPECT_EQ(f.samples[0].clip, kA);
  EXPECT_EQ(f.samples[0].blend, ClipBlend::Replace);
  EXPECT_EQ(f.samples[0].mask, nullptr);
  EXPECT_EQ(f.samples[1].clip, kC);
  EXPECT_GT(f.samples[1].layer, f.samples[0].layer);
  EXPECT_EQ(f.samples[1].blend, ClipBlend::Additive);
  EXPECT_EQ(f.samples[1].mask, &mask);
  EXPECT_NEAR(f.samples[1].weight, 0.3f, kEps);
  EXPECT_FLOAT_EQ(f.samples[1].attachment_threshold, 0.2f);
  EXPECT_FLOAT_EQ(f.samples[1].draw_order_threshold, 0.7f);
}

TEST(TracksTime, LoopingWrapsAndCountsPasses) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_clip(0, kA, true);
  Frame f = sample(tracks);  // evaluated before any update: time 0, first
  ASSERT_EQ(f.samples.size(), 1u);
  EXPECT_TRUE(f.samples[0].first);
  EXPECT_FLOAT_EQ(f.samples[0].time, 0);
  tracks.update(2.5f);
  f = sample(tracks);
  EXPECT_FALSE(f.samples[0].first);
  EXPECT_NEAR(f.samples[0].time, 0.5f, kEps);
  EXPECT_NEAR(f.samples[0].previous_time, 0, kEps);
  EXPECT_EQ(f.samples[0].loops, 2);
  EXPECT_EQ(f.samples[0].event_threshold, 0);  // a whole-clip wrap is the sampler's own window
  int completed = 0;
  for (const TrackSignal& s : take_signals(tracks)) completed += s.kind == TrackSignalKind::Completed;
  EXPECT_EQ(completed, 2);
  tracks.update(0.25f);
  f = sample(tracks);
  EXPECT_NEAR(f.samples[0].time, 0.75f, kEps);
  EXPECT_NEAR(f.samples[0].previous_time, 0.5f, kEps);
  EXPECT_EQ(f.samples[0].loops, 0);
}

TEST(TracksTime, ALoopThatReachesExactlyItsLengthShowsTheEnd) {
  AnimationTracks tracks(kLengths, kBones);
  const TrackEntryHandle a = tracks.set_clip(0, kA, true);
  sample(tracks);
  tracks.update(1.0f);
  Frame f = sample(tracks);
  EXPECT_FLOAT_EQ(f.samples[0].time, 1);  // the last keys, not the first frame
  EXPECT_EQ(f.samples[0].loops, 0);
  int completed = 0;
  for (const TrackSignal& s : take_signals(tracks)) completed += s.kind == TrackSignalKind::Completed;
  EXPECT_EQ(completed, 1) << "the pass is complete when the end is reached";
  // Only time past the end wraps: the wrap is counted once, on the next update.
  tracks.update(0.25f);
  f = sample(tracks);
  EXPECT_NEAR(f.samples[0].time, 0.25f, kEps);
  EXPECT_FLOAT_EQ(f.samples[0].previous_time, 1);
  EXPECT_EQ(f.samples[0].loops, 1);
  // Two whole passes: the end again.
  tracks.update(0.75f);
  f = sample(tracks);
  EXPECT_FLOAT_EQ(f.samples[0].time, 1);
  EXPECT_EQ(f.samples[0].loops, 0);
  EXPECT_FLOAT_EQ(tracks.entry(a)->clip_time(2.0f), 1);
  EXPECT_FLOAT_EQ(tracks.entry(a)->clip_time(0.0f), 0);
  // Reversed, a whole pass ends at the clip's start.
  tracks.entry(a)->set_reverse(true);
  EXPECT_FLOAT_EQ(tracks.entry(a)->clip_time(1.0f), 0);
  EXPECT_FLOAT_EQ(tracks.entry(a)->clip_time(1.25f), 0.75f);
}

TEST(TracksTime, NonLoopingHoldsTheLastFrameAndCompletesOnce) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_clip(0, kA, false);
  tracks.update(0.6f);
  sample(tracks);
  tracks.update(0.6f);
  Frame f = sample(tracks);
  EXPECT_FLOAT_EQ(f.samples[0].time, 1);
  EXPECT_NEAR(f.samples[0].previous_time, 0.6f, kEps);
  EXPECT_EQ(f.samples[0].loops, 0);
  tracks.update(0.6f);
  f = sample(tracks);
  EXPECT_FLOAT_EQ(f.samples[0].time, 1);
  int completed = 0;
  for (const TrackSignal& s : take_signals(tracks)) completed += s.kind == TrackSignalKind::Completed;
  EXPECT_EQ(completed, 1);
}

TEST(TracksTime, ReversePlaysBackwardsWithEventWindows) {
  AnimationTracks tracks(kLengths, kBones);
  const TrackEntryHandle a = tracks.set_clip(0, kA, true);
  tracks.entry(a)->set_reverse(true);
  tracks.update(0.25f);
  Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  const ClipSample& pose = f.samples[0];
  EXPECT_NEAR(pose.time, 0.75f, kEps);
  EXPECT_NEAR(pose.previous_time, 1.0f, kEps);
  EXPECT_GT(pose.event_threshold, 1);  // the pose sample never fires: its window runs backwards
  const ClipSample& events = f.samples[1];
  EXPECT_EQ(events.weight, 0);
  EXPECT_EQ(events.event_threshold, 0);
  EXPECT_NEAR(events.previous_time, 0.75f, kEps);
  EXPECT_NEAR(events.time, 1.0f, kEps);
  EXPECT_EQ(events.layer, pose.layer);

  tracks.update(1.0f);  // across the wrap: 0.75 → 0 → 1 → 0.75
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 3u);
  EXPECT_NEAR(f.samples[0].time, 0.75f, kEps);
  EXPECT_EQ(f.samples[0].loops, 1);
  EXPECT_NEAR(f.samples[1].previous_time, 0, kEps);  // [0, 0.75]
  EXPECT_TRUE(f.samples[1].first);
  EXPECT_NEAR(f.samples[1].time, 0.75f, kEps);
  EXPECT_NEAR(f.samples[2].previous_time, 0.75f, kEps);  // (0.75, 1]
  EXPECT_NEAR(f.samples[2].time, 1.0f, kEps);
}

TEST(TracksTime, AnimationRangeLoopsWithinStartAndEnd) {
  AnimationTracks tracks(kLengths, kBones);
  const TrackEntryHandle b = tracks.set_clip(0, kB, true);
  tracks.entry(b)->set_animation_start(0.5f);
  tracks.entry(b)->set_animation_end(1.5f);
  Frame f = sample(tracks);
  EXPECT_NEAR(f.samples[0].time, 0.5f, kEps);
  tracks.update(0.4f);
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 1u);
  EXPECT_NEAR(f.samples[0].time, 0.9f, kEps);
  EXPECT_EQ(f.samples[0].event_threshold, 0);
  tracks.update(0.8f);  // 1.2 s into a 1 s range
  f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 3u);
  EXPECT_NEAR(f.samples[0].time, 0.7f, kEps);
  EXPECT_NEAR(f.samples[0].previous_time, 0.9f, kEps);
  EXPECT_EQ(f.samples[0].loops, 1);
  EXPECT_GT(f.samples[0].event_threshold, 1);
  // (0.9, 1.5] then [0.5, 0.7]: never the parts of the clip outside the range.
  EXPECT_NEAR(f.samples[1].previous_time, 0.9f, kEps);
  EXPECT_NEAR(f.samples[1].time, 1.5f, kEps);
  EXPECT_FALSE(f.samples[1].first);
  EXPECT_NEAR(f.samples[2].previous_time, 0.5f, kEps);
  EXPECT_TRUE(f.samples[2].first);
  EXPECT_NEAR(f.samples[2].time, 0.7f, kEps);
  for (const ClipSample& s : f.samples) EXPECT_EQ(s.loops, &s == &f.samples[0] ? 1 : 0);

  // Not looping: clamped to the end of the range.
  tracks.entry(b)->set_loop(false);
  tracks.update(0.5f);
  f = sample(tracks);
  EXPECT_NEAR(f.samples[0].time, 1.5f, kEps);
}

TEST(TracksEvents, FirstFlagOnlyOnTheFirstEvaluation) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_clip(0, kA, true);
  tracks.update(0.1f);
  Frame f = sample(tracks);
  EXPECT_TRUE(f.samples[0].first);
  EXPECT_NEAR(f.samples[0].previous_time, 0, kEps);
  tracks.update(0.1f);
  f = sample(tracks);
  EXPECT_FALSE(f.samples[0].first);
  EXPECT_NEAR(f.samples[0].previous_time, 0.1f, kEps);
}

TEST(TracksEvents, MixingOutEntriesFireWhileBelowTheirThreshold) {
  for (const float threshold : {0.45f, 0.75f}) {
    AnimationTracks tracks(kLengths, kBones);
    tracks.set_default_mix(1.0f);
    const TrackEntryHandle a = tracks.set_clip(0, kA, true);
    tracks.entry(a)->set_event_threshold(threshold);
    tracks.update(0.1f);
    sample(tracks);
    tracks.set_clip(0, kB, true);
    for (int step = 1; step <= 9; ++step) {
      tracks.update(0.1f);
      const Frame f = sample(tracks);
      const float m = 0.1f * static_cast<float>(step);
      const ClipSample* out = f.find(kA);
      ASSERT_NE(out, nullptr);
      const bool fires = out->weight >= out->event_threshold;  // the sampler's rule
      EXPECT_EQ(fires, m < threshold) << threshold << " " << m;
      EXPECT_EQ(f.find(kB)->event_threshold, 0);  // the current entry always fires
    }
  }
}

TEST(TracksHandles, StaleHandlesAreDetected) {
  AnimationTracks tracks(kLengths, kBones);
  EXPECT_TRUE(tracks.set_clip(0, 99, true).is_null());
  EXPECT_TRUE(tracks.set_clip(-1, kA, true).is_null());
  const TrackEntryHandle a = tracks.set_clip(0, kA, true);
  tracks.update(0.1f);
  sample(tracks);
  tracks.set_clip(0, kB, true);  // no mix: A ends at the next update
  tracks.update(0.1f);
  // Still readable while its signals wait to be delivered...
  bool seen_disposed = false;
  tracks.drain_signals([&](const TrackSignal& s) {
    if (s.kind == TrackSignalKind::Disposed && s.entry == a) {
      seen_disposed = true;
      EXPECT_NE(tracks.entry(a), nullptr);
      EXPECT_EQ(tracks.entry(a)->clip(), kA);
    }
  });
  EXPECT_TRUE(seen_disposed);
  // ...stale after.
  EXPECT_EQ(tracks.entry(a), nullptr);
  const TrackEntryHandle reused = tracks.set_clip(1, kC, true);
  EXPECT_EQ(reused.index, a.index);  // the freed slot comes back with a new generation
  EXPECT_NE(reused.generation, a.generation);
  EXPECT_EQ(tracks.entry(a), nullptr);
  EXPECT_NE(tracks.entry(reused), nullptr);
}

TEST(TracksHandles, QueueAndMixChainAreWalkedFromTheCurrentEntry) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_default_mix(0.5f);
  const TrackEntryHandle a = tracks.set_clip(0, kA, true);
  tracks.update(0.1f);
  sample(tracks);
  const TrackEntryHandle b = tracks.set_clip(0, kB, true);  // mixes from A
  const TrackEntryHandle c = tracks.add_clip(0, kC, false, 1.0f);
  const TrackEntryHandle d = tracks.add_clip(0, kD, true, 0.5f);

  EXPECT_EQ(tracks.current(0), b);
  EXPECT_EQ(tracks.mixing_from(b), a);
  EXPECT_TRUE(tracks.mixing_from(a).is_null());
  EXPECT_EQ(tracks.queued_after(b), c);
  EXPECT_EQ(tracks.queued_after(c), d);
  EXPECT_TRUE(tracks.queued_after(d).is_null());
  EXPECT_TRUE(tracks.mixing_from(c).is_null());  // queued entries mix from nothing yet
  EXPECT_TRUE(tracks.queued_after(TrackEntryHandle{}).is_null());

  // Stale handles give null handles.
  tracks.clear_track(0);
  take_signals(tracks);
  EXPECT_TRUE(tracks.mixing_from(b).is_null());
  EXPECT_TRUE(tracks.queued_after(b).is_null());
}

TEST(TracksMixing, SetMixTimeMovesTheCrossfade) {
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_mix(kA, kB, 0.4f);
  tracks.set_clip(0, kA, true);
  tracks.update(0.1f);
  sample(tracks);
  const TrackEntryHandle b = tracks.set_clip(0, kB, true);
  tracks.entry(b)->set_mix_time(0.3f);
  EXPECT_FLOAT_EQ(tracks.entry(b)->mix_time(), 0.3f);
  EXPECT_NEAR(tracks.entry(b)->mix_fraction(), 0.75f, kEps);
  tracks.update(0);
  const Frame f = sample(tracks);
  ASSERT_EQ(f.samples.size(), 2u);
  EXPECT_NEAR(f.find(kB)->weight, 0.75f, kEps);
  EXPECT_NEAR(f.find(kA)->weight, 0.25f, kEps);
}

TEST(TracksHandles, ThePoolGrowsOnlyWhenMoreAreQueued) {
  AnimationTracks tracks(kLengths, kBones, 2);
  EXPECT_EQ(tracks.pool_capacity(), 2u);
  std::vector<TrackEntryHandle> handles{tracks.set_clip(0, kA, false)};
  for (int k = 0; k < 4; ++k) handles.push_back(tracks.add_clip(0, kB, false, 0));
  EXPECT_GE(tracks.pool_capacity(), 5u);
  EXPECT_EQ(tracks.pool_in_use(), 5u);
  for (const TrackEntryHandle& h : handles) EXPECT_NE(tracks.entry(h), nullptr);
  tracks.clear_tracks();
  tracks.clear_signals();
  EXPECT_EQ(tracks.pool_in_use(), 0u);
  for (const TrackEntryHandle& h : handles) EXPECT_EQ(tracks.entry(h), nullptr);
}

TEST(TracksSignals, DeliveredInOrder) {
  using K = TrackSignalKind;
  AnimationTracks tracks(kLengths, kBones);
  tracks.set_default_mix(0.2f);
  const TrackEntryHandle a = tracks.set_clip(0, kA, false);
  tracks.update(0.1f);
  sample(tracks);
  const TrackEntryHandle b = tracks.set_clip(0, kB, false);
  const TrackEntryHandle q1 = tracks.add_clip(0, kC, false, 5);
  const TrackEntryHandle q2 = tracks.add_clip(0, kD, false, 5);
  tracks.update(0.1f);
  sample(tracks);
  tracks.update(0.1f);  // B's mix completes
  sample(tracks);
  tracks.update(1.9f);  // B reaches its end
  sample(tracks);
  const TrackEntryHandle e = tracks.set_clip(0, kE, false);  // the queued C and D never started
  tracks.update(0.1f);
  sample(tracks);
  tracks.clear_track(0);

  struct Expected {
    K kind;
    TrackEntryHandle entry;
  };
  const Expected expected[] = {
      {K::Started, a},     {K::Interrupted, a}, {K::Started, b},     {K::Ended, a},       {K::Disposed, a},
      {K::Completed, b},   {K::Disposed, q1},   {K::Disposed, q2},   {K::Interrupted, b}, {K::Started, e},
      {K::Ended, e},       {K::Disposed, e},    {K::Ended, b},       {K::Disposed, b},
  };
  const auto signals = take_signals(tracks);
  ASSERT_EQ(signals.size(), std::size(expected));
  for (std::size_t k = 0; k < signals.size(); ++k) {
    EXPECT_EQ(signals[k].kind, expected[k].kind) << k;
    EXPECT_EQ(signals[k].entry, expected[k].entry) << k;
    EXPECT_EQ(signals[k].track, 0) << k;
  }
}

TEST(TracksSignals, AFullBufferCountsWhatItDrops) {
  AnimationTracks tracks(kLengths, kBones, 8, 2);
  tracks.set_clip(0, kA, true);
  tracks.set_clip(1, kA, true);
  tracks.set_clip(2, kA, true);
  EXPECT_EQ(tracks.signals().size(), 2u);
  EXPECT_EQ(tracks.dropped_signals(), 1u);
  tracks.clear_signals();
  EXPECT_EQ(tracks.dropped_signals(), 0u);
}

}  // namespace
}  // namespace mf::anim
