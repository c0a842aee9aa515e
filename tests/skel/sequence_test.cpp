#include "mf/skel/sequence.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mf::skel {
namespace {

// Frames shown at elapsed = 0, delay, 2·delay, … (sampled mid-frame so rounding plays no part).
std::vector<int> frames(SequenceMode mode, int start, int count, int steps, float delay = 0.1f) {
  std::vector<int> out;
  for (int i = 0; i < steps; ++i) out.push_back(sequence_frame(mode, start, delay, (i + 0.5f) * delay, count));
  return out;
}

using V = std::vector<int>;

TEST(Sequence, HoldShowsTheStartFrame) {
  EXPECT_EQ(frames(SequenceMode::Hold, 2, 5, 6), (V{2, 2, 2, 2, 2, 2}));
}

TEST(Sequence, OnceStopsAtTheLastFrame) {
  EXPECT_EQ(frames(SequenceMode::Once, 0, 4, 7), (V{0, 1, 2, 3, 3, 3, 3}));
  EXPECT_EQ(frames(SequenceMode::Once, 2, 4, 4), (V{2, 3, 3, 3}));
}

TEST(Sequence, LoopWraps) {
  EXPECT_EQ(frames(SequenceMode::Loop, 0, 3, 8), (V{0, 1, 2, 0, 1, 2, 0, 1}));
  EXPECT_EQ(frames(SequenceMode::Loop, 2, 3, 4), (V{2, 0, 1, 2}));
}

TEST(Sequence, PingPongBouncesWithoutRepeatingTheEnds) {
  EXPECT_EQ(frames(SequenceMode::PingPong, 0, 4, 10), (V{0, 1, 2, 3, 2, 1, 0, 1, 2, 3}));
  EXPECT_EQ(frames(SequenceMode::PingPong, 3, 4, 5), (V{3, 2, 1, 0, 1}));
  EXPECT_EQ(frames(SequenceMode::PingPong, 1, 2, 5), (V{1, 0, 1, 0, 1}));
}

TEST(Sequence, OnceReverseRunsDownAndStopsAtZero) {
  EXPECT_EQ(frames(SequenceMode::OnceReverse, 3, 4, 6), (V{3, 2, 1, 0, 0, 0}));
  EXPECT_EQ(frames(SequenceMode::OnceReverse, 1, 4, 3), (V{1, 0, 0}));
}

TEST(Sequence, LoopReverseWrapsToTheLastFrame) {
  EXPECT_EQ(frames(SequenceMode::LoopReverse, 3, 4, 9), (V{3, 2, 1, 0, 3, 2, 1, 0, 3}));
  EXPECT_EQ(frames(SequenceMode::LoopReverse, 0, 3, 4), (V{0, 2, 1, 0}));
}

TEST(Sequence, PingPongReverseRunsDownFirst) {
  EXPECT_EQ(frames(SequenceMode::PingPongReverse, 3, 4, 10), (V{3, 2, 1, 0, 1, 2, 3, 2, 1, 0}));
  EXPECT_EQ(frames(SequenceMode::PingPongReverse, 1, 4, 6), (V{1, 0, 1, 2, 3, 2}));
  EXPECT_EQ(frames(SequenceMode::PingPongReverse, 0, 3, 5), (V{0, 1, 2, 1, 0}));
}

TEST(Sequence, DelaySetsTheFrameDuration) {
  // The same key with 0.25 s per frame advances a frame every quarter second.
  EXPECT_EQ(sequence_frame(SequenceMode::Loop, 0, 0.25f, 0.24f, 8), 0);
  EXPECT_EQ(sequence_frame(SequenceMode::Loop, 0, 0.25f, 0.26f, 8), 1);
  EXPECT_EQ(sequence_frame(SequenceMode::Loop, 0, 0.25f, 1.1f, 8), 4);
  EXPECT_EQ(frames(SequenceMode::Loop, 0, 8, 4, 0.5f), (V{0, 1, 2, 3}));
  // Exactly on a frame boundary counts as the later frame despite float rounding (0.3 / 0.1 < 3).
  EXPECT_EQ(sequence_frame(SequenceMode::Once, 0, 0.1f, 0.3f, 8), 3);
  EXPECT_EQ(sequence_frame(SequenceMode::Once, 0, 0.1f, 0.7f, 8), 7);
}

TEST(Sequence, NoDelayOrNoTimeHoldsTheStart) {
  for (SequenceMode m : {SequenceMode::Once, SequenceMode::Loop, SequenceMode::PingPong, SequenceMode::OnceReverse,
                         SequenceMode::LoopReverse, SequenceMode::PingPongReverse}) {
    EXPECT_EQ(sequence_frame(m, 2, 0.0f, 5.0f, 5), 2);
    EXPECT_EQ(sequence_frame(m, 2, -1.0f, 5.0f, 5), 2);
    EXPECT_EQ(sequence_frame(m, 2, 0.1f, 0.0f, 5), 2);
    EXPECT_EQ(sequence_frame(m, 2, 0.1f, -3.0f, 5), 2);
  }
}

TEST(Sequence, CountOneAlwaysShowsFrameZero) {
  for (SequenceMode m : {SequenceMode::Hold, SequenceMode::Once, SequenceMode::Loop, SequenceMode::PingPong,
                         SequenceMode::OnceReverse, SequenceMode::LoopReverse, SequenceMode::PingPongReverse}) {
    for (float t : {0.0f, 0.05f, 0.15f, 1.0f, 100.0f}) EXPECT_EQ(sequence_frame(m, 0, 0.1f, t, 1), 0);
  }
}

TEST(Sequence, StartOutsideTheSequenceIsClamped) {
  EXPECT_EQ(sequence_frame(SequenceMode::Hold, 9, 0.1f, 0.0f, 4), 3);
  EXPECT_EQ(sequence_frame(SequenceMode::Hold, -2, 0.1f, 0.0f, 4), 0);
  EXPECT_EQ(sequence_frame(SequenceMode::Loop, 9, 0.1f, 0.15f, 4), 0);
}

TEST(Sequence, LongTimesStayInRange) {
  for (SequenceMode m : {SequenceMode::Loop, SequenceMode::PingPong, SequenceMode::LoopReverse,
                         SequenceMode::PingPongReverse}) {
    const int f = sequence_frame(m, 1, 1e-3f, 1e9f, 7);
    EXPECT_GE(f, 0);
    EXPECT_LT(f, 7);
  }
}

}  // namespace
}  // namespace mf::skel
