// AnimationTracks driving the runtime's ClipSampler: the samples the tracks write are the ones the
// 2D pose backend consumes, so rotation latches and event windows are checked end to end.

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "skel/test_rig.hpp"
#include "mf/anim/animation_tracks.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::anim {
namespace {

using skel::ClipData;
using skel::TimelineKind;

constexpr float kDt = 1.0f / 60;

class TracksSamplerTest : public ::testing::Test {
 protected:
  TracksSamplerTest() {
    root_ = skel::test::add_bone(data_, "root", -1);
    leg_ = skel::test::add_bone(data_, "leg", root_);
    data_.events.push_back({"step", 0, 0, "", "", 1, 0});
  }

  static std::shared_ptr<ClipData> clip(const char* name, float length) {
    auto c = std::make_shared<ClipData>();
    c->name = name;
    c->length = length;
    return c;
  }
  int add(std::shared_ptr<ClipData> c) { return skel::test::add_clip(data_, std::move(c)); }
  // A 1 s clip with "step" keys at 0.1, 0.5 and 0.9.
  int add_stepping(const char* name) {
    auto c = clip(name, 1);
    for (const float t : {0.1f, 0.5f, 0.9f}) c->events.push_back({t, 0, 0, 0, -1, 1, 0});
    return add(c);
  }
  std::vector<float> lengths() const {
    std::vector<float> out;
    for (const auto& c : data_.clips) out.push_back(c.length);
    return out;
  }

  // Applies the tracks' samples; returns the key times of the events fired by `clip_index`.
  std::vector<float> apply(AnimationTracks& tracks, skel::SkeletonPose& pose, int clip_index) {
    events_.clear();
    skel::ClipSampler(data_).apply(pose, tracks.samples(), events_);
    std::vector<float> times;
    for (const skel::FiredEvent& e : events_.events())
      if (e.clip == clip_index) times.push_back(e.time);
    return times;
  }

  // Plays `clip_index` for `seconds` in 60 fps steps; returns the event key times in firing order.
  std::vector<float> play(AnimationTracks& tracks, int clip_index, float seconds) {
    skel::SkeletonPose pose(data_);
    std::vector<float> all = apply(tracks, pose, clip_index);
    for (int f = 0; f < static_cast<int>(std::lround(seconds / kDt)); ++f) {
      tracks.update(kDt);
      const auto fired = apply(tracks, pose, clip_index);
      all.insert(all.end(), fired.begin(), fired.end());
    }
    return all;
  }

  skel::SkeletonData data_;
  skel::EventBuffer events_;
  int root_ = 0, leg_ = 0;
};

// A mix between 179° and −179° where the incoming clip keeps turning (to 10°, so the difference
// passes 180° late in the mix): the arc is latched when the mix starts, so the pose keeps moving
// the way it started and never flips.
TEST_F(TracksSamplerTest, LatchedMixBetween179AndMinus179NeverFlips) {
  auto a = clip("a", 1), b = clip("b", 1);
  skel::test::add_timeline(*a, TimelineKind::Rotate, leg_, 1, {0}, {179});
  skel::test::add_timeline(*b, TimelineKind::Rotate, leg_, 1, {0, 1}, {-179, 10});
  const int ia = add(a), ib = add(b);
  const auto lens = lengths();
  AnimationTracks tracks(lens, static_cast<int>(data_.bones.size()));
  tracks.set_mix(ia, ib, 1.0f);
  tracks.set_clip(0, ia, true);
  skel::SkeletonPose pose(data_);
  apply(tracks, pose, ia);
  EXPECT_NEAR(pose.rotation[1], 179, 1e-4f);

  tracks.set_clip(0, ib, false);
  float previous = pose.rotation[1];
  for (int f = 0; f < 70; ++f) {  // the mix and a few frames after it
    tracks.update(kDt);
    apply(tracks, pose, ia);
    const float step = std::remainder(pose.rotation[1] - previous, 360.0f);
    // The blend m·(B − A) moves at most (2 + 2 × 189)° per second, 6.3° a frame; a flip late in the
    // mix jumps by m × 360° ≈ 340°, a step of about −20° modulo 360°.
    EXPECT_LT(std::fabs(step), 10.0f) << "frame " << f;
    EXPECT_GE(step, -1e-3f) << "frame " << f;          // always turning the same way
    previous = pose.rotation[1];
  }
  EXPECT_NEAR(std::remainder(pose.rotation[1] - 10.0f, 360.0f), 0, 1e-3f);
}

// A turnaround crossfade: the parent's scale X goes from −1 (A) to 1 (B) over 0.2 s. The character
// keeps its size through the mix and shows B's side from the first mixed frame on.
TEST_F(TracksSamplerTest, ScaleSignFlipMixKeepsTheSizeAndTakesTheIncomingSign) {
  auto a = clip("left", 1), b = clip("right", 1);
  skel::test::add_timeline(*a, TimelineKind::ScaleX, root_, 1, {0}, {-1});
  skel::test::add_timeline(*b, TimelineKind::ScaleX, root_, 1, {0}, {1});
  const int ia = add(a), ib = add(b);
  data_.bones.x[static_cast<std::size_t>(leg_)] = 10;
  const auto lens = lengths();
  AnimationTracks tracks(lens, static_cast<int>(data_.bones.size()));
  tracks.set_mix(ia, ib, 0.2f);
  tracks.set_clip(0, ia, true);
  skel::SkeletonPose pose(data_);
  for (int f = 0; f < 18; ++f) {
    tracks.update(kDt);
    apply(tracks, pose, ia);
  }
  EXPECT_NEAR(pose.scale_x[0], -1, 1e-5f);

  tracks.set_clip(0, ib, true);
  apply(tracks, pose, ia);  // mix time 0: B has no weight yet
  EXPECT_NEAR(pose.scale_x[0], -1, 1e-5f);
  for (int f = 1; f <= 15; ++f) {  // 12 frames of mix, then B alone
    tracks.update(kDt);
    apply(tracks, pose, ia);
    EXPECT_NEAR(pose.scale_x[0], 1, 1e-5f) << "frame " << f;
    skel::update_world_transforms(pose);
    EXPECT_NEAR(pose.world_x[static_cast<std::size_t>(leg_)], 10, 1e-4f) << "frame " << f;  // full size
  }
}

TEST_F(TracksSamplerTest, LoopingEventsFireOncePerPass) {
  const int c = add_stepping("c");
  const auto lens = lengths();
  AnimationTracks tracks(lens, static_cast<int>(data_.bones.size()));
  tracks.set_clip(0, c, true);
  const auto fired = play(tracks, c, 2.3f);
  const std::vector<float> expected = {0.1f, 0.5f, 0.9f, 0.1f, 0.5f, 0.9f, 0.1f};
  EXPECT_EQ(fired, expected);
}

TEST_F(TracksSamplerTest, ReversedEventsFireOncePerPassBackwards) {
  const int c = add_stepping("c");
  const auto lens = lengths();
  AnimationTracks tracks(lens, static_cast<int>(data_.bones.size()));
  const TrackEntryHandle h = tracks.set_clip(0, c, true);
  tracks.entry(h)->set_reverse(true);
  const auto fired = play(tracks, c, 2.3f);
  const std::vector<float> expected = {0.9f, 0.5f, 0.1f, 0.9f, 0.5f, 0.1f, 0.9f};
  EXPECT_EQ(fired, expected);
}

TEST_F(TracksSamplerTest, AnimationRangeFiresOnlyItsOwnEvents) {
  const int c = add_stepping("c");
  const auto lens = lengths();
  AnimationTracks tracks(lens, static_cast<int>(data_.bones.size()));
  const TrackEntryHandle h = tracks.set_clip(0, c, true);
  tracks.entry(h)->set_animation_start(0.3f);
  tracks.entry(h)->set_animation_end(0.8f);
  const auto fired = play(tracks, c, 2.3f);  // 0.5 s passes: the key at 0.5 at 0.2, 0.7, 1.2, 1.7, 2.2 s
  const std::vector<float> expected(5, 0.5f);
  EXPECT_EQ(fired, expected);
}

TEST_F(TracksSamplerTest, MixingOutEventsStopAtTheThreshold) {
  for (const float threshold : {0.5f, 1.0f}) {
    data_.clips.clear();
    data_.cursor_count = 0;
    const int c = add_stepping("c"), d = add(clip("d", 1));
    const auto lens = lengths();
    AnimationTracks tracks(lens, static_cast<int>(data_.bones.size()));
    tracks.set_default_mix(1.0f);
    const TrackEntryHandle h = tracks.set_clip(0, c, true);
    tracks.entry(h)->set_event_threshold(threshold);
    skel::SkeletonPose pose(data_);
    apply(tracks, pose, c);
    tracks.update(0.05f);
    apply(tracks, pose, c);
    tracks.set_clip(0, d, true);
    // C mixes out over 1 s while its time runs 0.05 → 1.05: keys at 0.1 (m ≈ 0.05), 0.5 (m ≈ 0.45),
    // 0.9 (m ≈ 0.85).
    const auto fired = play(tracks, c, 1.0f);
    const std::vector<float> expected = threshold < 0.8f ? std::vector<float>{0.1f, 0.5f} : std::vector<float>{0.1f, 0.5f, 0.9f};
    EXPECT_EQ(fired, expected) << threshold;
  }
}

}  // namespace
}  // namespace mf::anim
