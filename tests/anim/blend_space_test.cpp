// Blend-space weights against hand computation: 1D neighbours, 2D barycentric weights in a
// triangulated square with a centre point, the nearest-edge projection outside the hull. Weights
// sum to 1 within 1e-6, are exact at the members' positions, and are continuous across triangle
// edges and the hull.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "mf/anim/animation_graph_player.hpp"

namespace mf::anim {
namespace {

constexpr float kTol = 1e-6f;

std::vector<float> weights_1d(const std::vector<BlendMember>& m, float x) {
  std::vector<float> w(m.size());
  blend_weights_1d(m, x, w);
  return w;
}

TEST(BlendSpace1D, NeighboursWeightLinearly) {
  const std::vector<BlendMember> m{{"a", 0}, {"b", 1}, {"c", 3}};
  auto expect = [&](float x, std::array<float, 3> want) {
    const auto w = weights_1d(m, x);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(w[i], want[i], kTol) << "x=" << x << " member " << i;
  };
  expect(-1, {1, 0, 0});        // before the first: the first takes all
  expect(0.25f, {0.75f, 0.25f, 0});
  expect(2, {0, 0.5f, 0.5f});   // (2 − 1) / (3 − 1)
  expect(2.5f, {0, 0.25f, 0.75f});
  expect(5, {0, 0, 1});         // beyond the last
}

TEST(BlendSpace1D, ExactAtMembersAndContinuous) {
  const std::vector<BlendMember> m{{"a", -1}, {"b", 0.5f}, {"c", 0.5f}, {"d", 2}};
  for (std::size_t i : {0u, 1u, 3u}) {
    const auto w = weights_1d(m, m[i].x);
    for (std::size_t j = 0; j < m.size(); ++j) EXPECT_EQ(w[j], j == i ? 1.0f : 0.0f) << i << " " << j;
  }
  // Sweep: sums are 1 and no step jumps by more than the slope allows (1 / 1.5 per unit here, plus
  // the switch between equal positions b and c, which both sit at 0.5).
  std::vector<float> last = weights_1d(m, -2);
  for (int k = 1; k <= 4000; ++k) {
    const float x = -2 + static_cast<float>(k) * 1e-3f;
    const auto w = weights_1d(m, x);
    float sum = 0;
    for (float v : w) sum += v;
    EXPECT_NEAR(sum, 1.0f, kTol);
    const float b_or_c_now = w[1] + w[2], b_or_c_last = last[1] + last[2];
    EXPECT_NEAR(b_or_c_now, b_or_c_last, 2e-3f) << x;
    EXPECT_NEAR(w[0], last[0], 2e-3f) << x;
    EXPECT_NEAR(w[3], last[3], 2e-3f) << x;
    last = w;
  }
}

// A square (−1 … 1) with its centre: four triangles fanning around the centre.
struct Square {
  std::vector<BlendMember> members{{"sw", -1, -1}, {"se", 1, -1}, {"ne", 1, 1}, {"nw", -1, 1}, {"c", 0, 0}};
  std::vector<Triangle> triangles{{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
  std::vector<HullEdge> hull{{0, 1}, {1, 2}, {2, 3}, {3, 0}};

  std::vector<float> at(float x, float y) const {
    std::vector<float> w(members.size());
    blend_weights_2d(members, triangles, hull, x, y, w);
    return w;
  }
};

void expect_weights(const std::vector<float>& w, std::array<float, 5> want, float tol, const char* where) {
  for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(w[i], want[i], tol) << where << " member " << i;
}

TEST(BlendSpace2D, ExactAtEveryMember) {
  const Square sq;
  for (std::size_t i = 0; i < sq.members.size(); ++i) {
    const auto w = sq.at(sq.members[i].x, sq.members[i].y);
    for (std::size_t j = 0; j < w.size(); ++j) EXPECT_EQ(w[j], i == j ? 1.0f : 0.0f) << i << " " << j;
  }
}

TEST(BlendSpace2D, BarycentricInsideTriangles) {
  const Square sq;
  // (0.5, 0) in triangle se, ne, c: x = w_se + w_ne = 0.5, y = −w_se + w_ne = 0.
  expect_weights(sq.at(0.5f, 0), {0, 0.25f, 0.25f, 0, 0.5f}, kTol, "(0.5, 0)");
  // (0.25, −0.5) in triangle sw, se, c: w_se − w_sw = 0.25, w_sw + w_se = 0.5.
  expect_weights(sq.at(0.25f, -0.5f), {0.125f, 0.375f, 0, 0, 0.5f}, kTol, "(0.25, -0.5)");
  // On the shared edge c–ne at (0.5, 0.5): half the centre, half the corner from either triangle.
  expect_weights(sq.at(0.5f, 0.5f), {0, 0, 0.5f, 0, 0.5f}, kTol, "(0.5, 0.5)");
  // Midpoint of a hull edge, from inside.
  expect_weights(sq.at(0, 1), {0, 0, 0.5f, 0.5f, 0}, kTol, "(0, 1)");
}

TEST(BlendSpace2D, NearestHullEdgeOutside) {
  const Square sq;
  // (2, 0.5) projects onto se–ne at (1, 0.5): t = 0.75 from se.
  expect_weights(sq.at(2, 0.5f), {0, 0.25f, 0.75f, 0, 0}, kTol, "(2, 0.5)");
  // (−3, −0.5) projects onto nw–sw at (−1, −0.5): t = 0.25 from nw towards sw.
  expect_weights(sq.at(-3, -0.5f), {0.75f, 0, 0, 0.25f, 0}, kTol, "(-3, -0.5)");
  // Beyond a corner: the corner alone.
  expect_weights(sq.at(4, 3), {0, 0, 1, 0, 0}, kTol, "(4, 3)");
}

TEST(BlendSpace2D, SumToOneAndContinuousEverywhere) {
  const Square sq;
  // A grid over (−2 … 2)²: sums and signs.
  for (int i = 0; i <= 80; ++i) {
    for (int j = 0; j <= 80; ++j) {
      const float x = -2 + 0.05f * static_cast<float>(i), y = -2 + 0.05f * static_cast<float>(j);
      const auto w = sq.at(x, y);
      float sum = 0;
      for (float v : w) {
        EXPECT_GE(v, 0.0f);
        sum += v;
      }
      EXPECT_NEAR(sum, 1.0f, kTol) << x << ", " << y;
    }
  }
  // Lines crossing every triangle edge and the hull in small steps: no weight jumps more than the
  // steepest slope allows (the weights change at most 1 per unit inside, 0.5 per unit outside, so a
  // step of 1e-3 moves a weight by at most ~1.5e-3).
  const std::array<std::array<float, 4>, 4> lines{{{-2, -1.7f, 2, 1.9f}, {-1.9f, 2, 1.8f, -2}, {0.3f, -2, -0.2f, 2}, {-2, 0.01f, 2, 0.02f}}};
  for (const auto& l : lines) {
    std::vector<float> last = sq.at(l[0], l[1]);
    for (int k = 1; k <= 4000; ++k) {
      const float f = static_cast<float>(k) / 4000;
      const float x = l[0] + (l[2] - l[0]) * f, y = l[1] + (l[3] - l[1]) * f;
      const auto w = sq.at(x, y);
      for (std::size_t i = 0; i < w.size(); ++i) ASSERT_NEAR(w[i], last[i], 3e-3f) << x << ", " << y << " member " << i;
      last = w;
    }
  }
}

TEST(BlendSpace2D, AcrossATriangleEdgeBothSidesAgree) {
  const Square sq;
  // The edge sw–c (y = x) between triangles (sw, se, c) and (nw, sw, c); points 1e-4 either side.
  const float e = 1e-4f;
  const auto below = sq.at(-0.4f + e, -0.4f - e), above = sq.at(-0.4f - e, -0.4f + e), on = sq.at(-0.4f, -0.4f);
  expect_weights(on, {0.4f, 0, 0, 0, 0.6f}, kTol, "on the edge");
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(below[i], on[i], 2e-4f) << i;
    EXPECT_NEAR(above[i], on[i], 2e-4f) << i;
  }
}

TEST(BlendSpace2D, DegenerateSpaces) {
  // One member: always it.
  const std::vector<BlendMember> one{{"a", 3, 4}};
  std::vector<float> w1(1);
  blend_weights_2d(one, {}, {}, -5, 2, w1);
  EXPECT_EQ(w1[0], 1.0f);
  // Collinear members: no triangles, the hull is the segment both ways.
  const std::vector<BlendMember> line{{"a", 0, 0}, {"b", 2, 0}};
  const std::vector<HullEdge> hull{{0, 1}, {1, 0}};
  std::vector<float> w2(2);
  blend_weights_2d(line, {}, hull, 0.5f, 3, w2);
  EXPECT_NEAR(w2[0], 0.75f, kTol);
  EXPECT_NEAR(w2[1], 0.25f, kTol);
  // No hull either: the nearest member.
  blend_weights_2d(line, {}, {}, 1.5f, -1, w2);
  EXPECT_EQ(w2[0], 0.0f);
  EXPECT_EQ(w2[1], 1.0f);
}

}  // namespace
}  // namespace mf::anim
