// The loop rule every producer of clip samples shares: exactly k lengths shows the end.

#include "mf/anim/loop_time.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace mf::anim {
namespace {

TEST(LoopTime, ExactlyAWholePassShowsTheEnd) {
  EXPECT_FLOAT_EQ(loop_position(0.0f, 0.5f).time, 0);
  EXPECT_EQ(loop_position(0.0f, 0.5f).wraps, 0);
  EXPECT_FLOAT_EQ(loop_position(0.25f, 0.5f).time, 0.25f);
  EXPECT_FLOAT_EQ(loop_position(0.5f, 0.5f).time, 0.5f);
  EXPECT_EQ(loop_position(0.5f, 0.5f).wraps, 0);
  EXPECT_FLOAT_EQ(loop_position(1.5f, 0.5f).time, 0.5f);
  EXPECT_EQ(loop_position(1.5f, 0.5f).wraps, 2);
  // A length that is not exact in binary: the float length itself is the end.
  const float length = 0.2667f;
  EXPECT_FLOAT_EQ(loop_position(length, length).time, length);
  EXPECT_EQ(loop_position(length, length).wraps, 0);
}

TEST(LoopTime, TimePastTheEndWraps) {
  const LoopPosition p = loop_position(0.625f, 0.5f);
  EXPECT_FLOAT_EQ(p.time, 0.125f);
  EXPECT_EQ(p.wraps, 1);
  const LoopPosition q = loop_position(std::nextafter(1.0f, 2.0f), 1.0f);
  EXPECT_LT(q.time, 1e-6f);
  EXPECT_EQ(q.wraps, 1);
  EXPECT_EQ(loop_position(10.25f, 1.0f).wraps, 10);
  EXPECT_FLOAT_EQ(loop_position(10.25f, 1.0f).time, 0.25f);
}

TEST(LoopTime, NegativeTimeMirrorsTheRule) {
  EXPECT_FLOAT_EQ(loop_position(-0.25f, 1.0f).time, 0.75f);
  EXPECT_EQ(loop_position(-0.25f, 1.0f).wraps, -1);
  EXPECT_FLOAT_EQ(loop_position(-1.0f, 1.0f).time, 0);  // a whole pass backwards ends at the start
  EXPECT_EQ(loop_position(-1.0f, 1.0f).wraps, -1);
}

TEST(LoopTime, DegenerateInputs) {
  EXPECT_FLOAT_EQ(loop_position(3.0f, 0.0f).time, 0);
  EXPECT_EQ(loop_position(3.0f, -1.0f).wraps, 0);
  EXPECT_FLOAT_EQ(loop_position(std::numeric_limits<float>::quiet_NaN(), 1.0f).time, 0);
  EXPECT_FLOAT_EQ(loop_position(std::numeric_limits<float>::infinity(), 1.0f).time, 1);
  EXPECT_EQ(loop_position(std::numeric_limits<float>::infinity(), 1.0f).wraps, 1000000000);
  EXPECT_EQ(loop_position(1e30f, 1e-3f).wraps, 1000000000);
}

}  // namespace
}  // namespace mf::anim
