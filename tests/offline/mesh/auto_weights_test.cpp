// heat_weights on small meshes made in code: the blend between two bones along a strip, the sums,
// the influence cap and the prune threshold, visibility (a bone outside the mesh, a bone hidden by
// a notch), degenerate triangles, scale invariance, determinism and the errors.

#include "mf/offline/mesh/auto_weights.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

namespace mf::offline {
namespace {

struct Mesh {
  std::vector<Vec2d> positions;
  std::vector<std::array<int, 3>> triangles;
};

// A grid of (columns + 1) × (rows + 1) vertices from `origin` with square cells of `step`, each cell
// split into two triangles; `keep(x, y)` (the cell's centre) drops cells for holes and notches.
// Vertices of dropped cells stay in the list only when some kept cell uses them.
Mesh grid(Vec2d origin, int columns, int rows, double step,
          const std::function<bool(double, double)>& keep = [](double, double) { return true; }) {
  Mesh m;
  std::map<std::pair<int, int>, int> index;
  const auto vertex = [&](int i, int j) {
    auto [it, added] = index.try_emplace({i, j}, static_cast<int>(m.positions.size()));
    if (added) m.positions.push_back(origin + Vec2d{i * step, j * step});
    return it->second;
  };
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < columns; ++i) {
      if (!keep(origin.x + (i + 0.5) * step, origin.y + (j + 0.5) * step)) continue;
      const int a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1), d = vertex(i, j + 1);
      m.triangles.push_back({a, b, c});
      m.triangles.push_back({a, c, d});
    }
  return m;
}

using Weights = std::vector<std::vector<VertexWeight>>;

Weights solve(const Mesh& m, const std::vector<BoneSegment>& bones, AutoWeightsOptions options = {}) {
  Expected<Weights> w = heat_weights(m.positions, m.triangles, bones, options);
  EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().to_string());
  return w.ok() ? std::move(w).value() : Weights{};
}

double weight_of(const std::vector<VertexWeight>& influences, int bone) {
  for (const VertexWeight& w : influences)
    if (w.bone == bone) return w.weight;
  return 0;
}

int find_vertex(const Mesh& m, Vec2d p) {
  for (std::size_t v = 0; v < m.positions.size(); ++v)
    if (length(m.positions[v] - p) < 1e-9) return static_cast<int>(v);
  ADD_FAILURE() << "no vertex at " << p.x << ", " << p.y;
  return 0;
}

// Every vertex's weights, converted to float as a rig stores them, sum to 1 within 1e-5; each is
// positive, sorted largest first, and names each bone once.
void expect_normalised(const Weights& weights, int max_influences) {
  for (std::size_t v = 0; v < weights.size(); ++v) {
    ASSERT_FALSE(weights[v].empty()) << v;
    EXPECT_LE(static_cast<int>(weights[v].size()), max_influences) << v;
    double sum = 0;
    for (std::size_t k = 0; k < weights[v].size(); ++k) {
      sum += static_cast<float>(weights[v][k].weight);
      EXPECT_GT(weights[v][k].weight, 0) << v;
      if (k > 0) {
        EXPECT_LE(weights[v][k].weight, weights[v][k - 1].weight) << v;
      }
      for (std::size_t o = 0; o < k; ++o) EXPECT_NE(weights[v][k].bone, weights[v][o].bone) << v;
    }
    EXPECT_NEAR(sum, 1.0, 1e-5) << "vertex " << v;
  }
}

// A strip 200 × 20 px along two bones end to end: (0, 0) → (100, 0) and (100, 0) → (200, 0).
Mesh strip() { return grid({0, -10}, 40, 4, 5); }
const std::vector<BoneSegment> kTwoBones = {{7, {0, 0}, {100, 0}}, {9, {100, 0}, {200, 0}}};

TEST(HeatWeights, StripBlendsSmoothlyFromOneBoneToTheNext) {
  const Mesh m = strip();
  const Weights w = solve(m, kTwoBones);
  ASSERT_EQ(w.size(), m.positions.size());
  expect_normalised(w, 4);
  // Near each bone's middle, that bone has (almost) all the weight, on every row of the strip.
  for (double y : {-10.0, -5.0, 0.0, 5.0, 10.0}) {
    EXPECT_GT(weight_of(w[static_cast<std::size_t>(find_vertex(m, {50, y}))], 7), 0.99) << y;
    EXPECT_GT(weight_of(w[static_cast<std::size_t>(find_vertex(m, {150, y}))], 9), 0.99) << y;
    // At the joint the two bones share the vertex equally (the strip is symmetric about x = 100).
    EXPECT_NEAR(weight_of(w[static_cast<std::size_t>(find_vertex(m, {100, y}))], 7), 0.5, 1e-6) << y;
    // Along each row the first bone's weight never rises, and the second's never falls.
    double previous_first = 2, previous_second = -1;
    for (int i = 0; i <= 40; ++i) {
      const std::vector<VertexWeight>& here = w[static_cast<std::size_t>(find_vertex(m, {5.0 * i, y}))];
      EXPECT_LE(weight_of(here, 7), previous_first + 1e-12) << "x " << 5 * i << " y " << y;
      EXPECT_GE(weight_of(here, 9), previous_second - 1e-12) << "x " << 5 * i << " y " << y;
      previous_first = weight_of(here, 7);
      previous_second = weight_of(here, 9);
    }
  }
  // The blend is gradual off the bones' line: on the strip's edge, 10 px before the joint, the second
  // bone already has a share, and the first still has the larger one.
  const double before_joint = weight_of(w[static_cast<std::size_t>(find_vertex(m, {90, 10}))], 9);
  EXPECT_GT(before_joint, 0.02);
  EXPECT_LT(before_joint, 0.5);
}

TEST(HeatWeights, ASingleBoneWeighsEveryVertexFully) {
  const Mesh m = grid({-30, -20}, 12, 8, 5);
  const Weights w = solve(m, {{3, {-10, 0}, {20, 5}}});
  ASSERT_EQ(w.size(), m.positions.size());
  for (const std::vector<VertexWeight>& v : w) {
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].bone, 3);
    EXPECT_EQ(v[0].weight, 1.0);
  }
}

// Six bones from the centre of a square, like the spokes of a wheel, give vertices near the centre
// many influences to cap and small weights to prune.
Mesh wheel() { return grid({-50, -50}, 20, 20, 5); }
std::vector<BoneSegment> spokes() {
  std::vector<BoneSegment> bones;
  for (int k = 0; k < 6; ++k) {
    const double a = k * M_PI / 3 + 0.1;
    bones.push_back({k, {8 * std::cos(a), 8 * std::sin(a)}, {40 * std::cos(a), 40 * std::sin(a)}});
  }
  return bones;
}

TEST(HeatWeights, CapKeepsTheLargestInfluencesAndRenormalises) {
  const Mesh m = wheel();
  const Weights all = solve(m, spokes(), {.max_influences = 8, .prune = 0});
  expect_normalised(all, 8);
  const std::size_t most = std::max_element(all.begin(), all.end(), [](const auto& a, const auto& b) {
                             return a.size() < b.size();
                           })->size();
  ASSERT_GT(most, 2u) << "the wheel should give some vertex more than two influences";

  const Weights capped = solve(m, spokes(), {.max_influences = 2, .prune = 0});
  expect_normalised(capped, 2);
  for (std::size_t v = 0; v < all.size(); ++v) {
    ASSERT_EQ(capped[v].size(), std::min<std::size_t>(2, all[v].size())) << v;
    // The same two bones as the uncapped weights' largest, in the same proportion.
    for (std::size_t k = 0; k < capped[v].size(); ++k) EXPECT_EQ(capped[v][k].bone, all[v][k].bone) << v;
    if (capped[v].size() == 2) {
      EXPECT_NEAR(capped[v][0].weight / capped[v][1].weight, all[v][0].weight / all[v][1].weight,
                  1e-9 * all[v][0].weight / all[v][1].weight) << v;
    }
  }
}

TEST(HeatWeights, PruneDropsSmallWeights) {
  const Mesh m = wheel();
  const Weights all = solve(m, spokes(), {.max_influences = 8, .prune = 0});
  bool some_small = false;
  for (const auto& v : all)
    for (const VertexWeight& w : v) some_small |= w.weight < 0.2;
  ASSERT_TRUE(some_small);

  const Weights pruned = solve(m, spokes(), {.max_influences = 8, .prune = 0.2});
  expect_normalised(pruned, 8);
  for (std::size_t v = 0; v < all.size(); ++v) {
    std::size_t expected = 0;
    for (const VertexWeight& w : all[v]) expected += w.weight >= 0.2 ? 1 : 0;
    EXPECT_EQ(pruned[v].size(), std::max<std::size_t>(expected, 1)) << v;
    for (const VertexWeight& w : pruned[v]) EXPECT_GE(w.weight, 0.2) << v;
  }
  // The default threshold, 0.01, leaves no weight below it.
  for (const auto& v : solve(m, spokes()))
    for (const VertexWeight& w : v) EXPECT_GE(w.weight, 0.01);
}

TEST(HeatWeights, ABoneOutsideTheMeshGetsNoWeight) {
  // The strip's top edge is at y = 10; the second bone runs 2 px above it, nearer to the top row than
  // the first bone is, but no segment from a vertex to it stays inside the mesh.
  const Mesh m = strip();
  const Weights w = solve(m, {{0, {0, 0}, {200, 0}}, {1, {0, 12}, {200, 12}}}, {.prune = 0});
  for (std::size_t v = 0; v < w.size(); ++v) {
    ASSERT_EQ(w[v].size(), 1u) << v;
    EXPECT_EQ(w[v][0].bone, 0);
    EXPECT_EQ(w[v][0].weight, 1.0);
  }
}

TEST(HeatWeights, EveryBoneOutsideFallsBackToTheNearest) {
  // No vertex sees any bone: the mesh takes its heat from the nearest bones as if visible.
  const Mesh m = grid({0, 0}, 10, 4, 5);
  const Weights w = solve(m, {{0, {-20, 10}, {-5, 10}}, {1, {55, 10}, {70, 10}}});
  expect_normalised(w, 4);
  EXPECT_GT(weight_of(w[static_cast<std::size_t>(find_vertex(m, {0, 10}))], 0), 0.85);
  EXPECT_GT(weight_of(w[static_cast<std::size_t>(find_vertex(m, {50, 10}))], 1), 0.85);
  EXPECT_NEAR(weight_of(w[static_cast<std::size_t>(find_vertex(m, {25, 10}))], 1), 0.5, 1e-6);
}

// A square 100 × 100 with a notch 20 wide from its bottom edge up to y = 70: two legs joined at the
// top. Bone "left" runs up the left leg 5 px from the notch; bone "top" lies along the top bar. A
// vertex low in the right leg is much nearer "left" (35 px) than "top" (65 px), but the notch hides
// "left" from it.
const std::vector<BoneSegment> kNotchBones = {{0, {35, 10}, {35, 60}}, {1, {20, 85}, {80, 85}}};
bool outside_notch(double x, double y) { return !(x > 40 && x < 60 && y < 70); }

TEST(HeatWeights, ANotchHidesABoneFromTheOtherSide) {
  const Mesh notched = grid({0, 0}, 20, 20, 5, outside_notch);
  const Weights w = solve(notched, kNotchBones);
  expect_normalised(w, 4);
  for (double y : {0.0, 10.0, 20.0, 30.0}) {
    EXPECT_LT(weight_of(w[static_cast<std::size_t>(find_vertex(notched, {65, y}))], 0), 0.05) << y;
    EXPECT_GT(weight_of(w[static_cast<std::size_t>(find_vertex(notched, {35, y}))], 0), 0.95) << y;
  }
  // The same vertices in the square without the notch see "left" and take it mostly.
  const Mesh square = grid({0, 0}, 20, 20, 5);
  const Weights open = solve(square, kNotchBones);
  for (double y : {10.0, 20.0, 30.0})
    EXPECT_GT(weight_of(open[static_cast<std::size_t>(find_vertex(square, {65, y}))], 0), 0.75) << y;
}

TEST(HeatWeights, DegenerateTrianglesGiveFiniteWeights) {
  Mesh m = strip();
  const int n = static_cast<int>(m.positions.size());
  // A zero-area triangle along the bottom edge to a new vertex on it, a triangle with a repeated
  // corner, a vertex in no triangle at all, and a vertex whose only triangle has no area.
  m.positions.push_back({2.5, -10});
  m.triangles.push_back({find_vertex(m, {0, -10}), find_vertex(m, {5, -10}), n});
  m.triangles.push_back({0, 0, 1});
  m.positions.push_back({150, 30});
  m.positions.push_back({140, 40});
  m.positions.push_back({160, 40});
  m.triangles.push_back({n + 2, n + 2, n + 3});
  m.positions.push_back({180, 5});  // inside the strip, in no triangle
  const Weights w = solve(m, kTwoBones);
  ASSERT_EQ(w.size(), m.positions.size());
  expect_normalised(w, 4);
  for (const auto& v : w)
    for (const VertexWeight& x : v) EXPECT_TRUE(std::isfinite(x.weight));
  // The vertex on the bottom edge averages its neighbours, both on the first bone's side.
  EXPECT_GT(weight_of(w[static_cast<std::size_t>(n)], 7), 0.99);
  // Loose vertices take their nearest bone.
  EXPECT_EQ(weight_of(w[static_cast<std::size_t>(n + 1)], 9), 1.0);
  EXPECT_EQ(weight_of(w.back(), 9), 1.0);
}

TEST(HeatWeights, ObtuseTrianglesStillGiveWeightsBetweenZeroAndOne) {
  // The notched square with its inner vertices moved by up to 2 px of 5 (a fixed pseudo-random
  // sequence): many triangles are obtuse, where cotangent weights go negative and the raw solution
  // may dip below 0; the weights are clamped and renormalised.
  Mesh m = grid({0, 0}, 20, 20, 5, outside_notch);
  std::uint32_t state = 12345;
  const auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<double>(state >> 8) / static_cast<double>(1u << 24) - 0.5;
  };
  for (Vec2d& p : m.positions) {
    const double dx = 4 * next(), dy = 4 * next();
    const bool edge = p.x == 0 || p.x == 100 || p.y == 0 || p.y == 100 || (p.y <= 70 && (p.x == 40 || p.x == 60));
    if (!edge) p += Vec2d{dx, dy};
  }
  const Weights w = solve(m, kNotchBones, {.max_influences = 8, .prune = 0});
  expect_normalised(w, 8);
  for (const auto& v : w)
    for (const VertexWeight& x : v) EXPECT_LE(x.weight, 1.0);
  EXPECT_GT(weight_of(w[0], 0), 0.95) << "the bottom-left corner belongs to the left leg's bone";
}

TEST(HeatWeights, ScalingTheMeshAndBonesChangesNothing) {
  const Mesh m = grid({0, 0}, 20, 20, 5, outside_notch);
  Mesh big = m;
  for (Vec2d& p : big.positions) p = p * 8.0;
  std::vector<BoneSegment> big_bones = kNotchBones;
  for (BoneSegment& b : big_bones) b.start = b.start * 8.0, b.end = b.end * 8.0;
  const Weights w = solve(m, kNotchBones), scaled = solve(big, big_bones);
  ASSERT_EQ(w.size(), scaled.size());
  for (std::size_t v = 0; v < w.size(); ++v) {
    ASSERT_EQ(w[v].size(), scaled[v].size()) << v;
    for (std::size_t k = 0; k < w[v].size(); ++k) {
      EXPECT_EQ(w[v][k].bone, scaled[v][k].bone);
      EXPECT_NEAR(w[v][k].weight, scaled[v][k].weight, 1e-9) << v;
    }
  }
}

TEST(HeatWeights, SameInputSameWeightsBitForBit) {
  const Mesh m = wheel();
  const Weights a = solve(m, spokes()), b = solve(m, spokes());
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t v = 0; v < a.size(); ++v) {
    ASSERT_EQ(a[v].size(), b[v].size());
    for (std::size_t k = 0; k < a[v].size(); ++k) {
      EXPECT_EQ(a[v][k].bone, b[v][k].bone);
      EXPECT_EQ(a[v][k].weight, b[v][k].weight);
    }
  }
}

std::string error_of(const Mesh& m, const std::vector<BoneSegment>& bones, AutoWeightsOptions options = {}) {
  Expected<Weights> w = heat_weights(m.positions, m.triangles, bones, options);
  return w.ok() ? "no error" : w.error().message;
}

TEST(HeatWeights, BadInputIsAnErrorSayingWhat) {
  const Mesh m = strip();
  EXPECT_EQ(error_of(m, kTwoBones, {.max_influences = 0}), "max influences 0 is outside 1 to 8");
  EXPECT_EQ(error_of(m, kTwoBones, {.max_influences = 9}), "max influences 9 is outside 1 to 8");
  EXPECT_NE(error_of(m, kTwoBones, {.prune = -0.1}).find("prune threshold"), std::string::npos);
  EXPECT_NE(error_of(m, kTwoBones, {.prune = 1}).find("outside [0, 1)"), std::string::npos);
  EXPECT_NE(error_of(m, kTwoBones, {.prune = NAN}).find("prune threshold"), std::string::npos);
  EXPECT_EQ(error_of(m, {}), "no bones to weight the mesh to");
  EXPECT_EQ(error_of(m, {{4, {0, 0}, {1, 0}}, {4, {2, 0}, {3, 0}}}), "bone 4 is listed twice");
  EXPECT_EQ(error_of(m, {{4, {0, 0}, {INFINITY, 0}}}), "bone 4 has a coordinate that is not a finite number");
  Mesh bad = m;
  bad.positions[3].y = NAN;
  EXPECT_EQ(error_of(bad, kTwoBones), "vertex 3 has a coordinate that is not a finite number");
  bad = m;
  bad.triangles[2][1] = static_cast<int>(m.positions.size());
  EXPECT_EQ(error_of(bad, kTwoBones),
            "triangle 2 uses vertex " + std::to_string(m.positions.size()) + ", but the mesh has " +
                std::to_string(m.positions.size()) + " vertices");
  bad.triangles[2][1] = -1;
  EXPECT_NE(error_of(bad, kTwoBones).find("uses vertex -1"), std::string::npos);
}

TEST(HeatWeights, AnEmptyMeshHasNoWeights) {
  Expected<Weights> w = heat_weights({}, {}, kTwoBones);
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE(w->empty());
}

}  // namespace
}  // namespace mf::offline
