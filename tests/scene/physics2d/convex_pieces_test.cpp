#include "mf/scene/physics2d/convex_pieces.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace mf::scene {
namespace {

using Pieces = std::vector<std::vector<Vec2>>;

double area(std::span<const Vec2> polygon) { return signed_area2(polygon) / 2; }

// Every piece: 3 to max points, counter-clockwise (Y up) and convex, no straight corners left in;
// the areas add up to the polygon's.
void expect_partition(const Pieces& pieces, std::span<const Vec2> polygon, int max_vertices, double tolerance = 1e-4) {
  double sum = 0;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const auto& piece = pieces[p];
    ASSERT_GE(piece.size(), 3u) << "piece " << p;
    EXPECT_LE(piece.size(), static_cast<std::size_t>(max_vertices)) << "piece " << p;
    const double a = area(piece);
    EXPECT_GT(a, 0) << "piece " << p << " is not counter-clockwise";
    for (std::size_t i = 0; i < piece.size(); ++i) {
      const Vec2d a0{piece[i].x, piece[i].y};
      const Vec2d a1{piece[(i + 1) % piece.size()].x, piece[(i + 1) % piece.size()].y};
      const Vec2d a2{piece[(i + 2) % piece.size()].x, piece[(i + 2) % piece.size()].y};
      EXPECT_GE(cross(a1 - a0, a2 - a1), -1e-6 * length(a1 - a0) * length(a2 - a1)) << "piece " << p << " corner " << i;
    }
    sum += a;
  }
  const double total = std::abs(area(polygon));
  EXPECT_NEAR(sum, total, tolerance * std::max(1.0, total));
}

TEST(ConvexPieces, SquareIsOnePiece) {
  const std::vector<Vec2> square{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  auto pieces = convex_pieces(square);
  ASSERT_TRUE(pieces) << pieces.error().message;
  ASSERT_EQ(pieces->size(), 1u);
  EXPECT_EQ((*pieces)[0].size(), 4u);
  expect_partition(*pieces, square, 8);
}

TEST(ConvexPieces, LShapeIsTwoPieces) {
  const std::vector<Vec2> l{{0, 0}, {20, 0}, {20, 10}, {10, 10}, {10, 30}, {0, 30}};
  auto pieces = convex_pieces(l);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_EQ(pieces->size(), 2u);
  expect_partition(*pieces, l, 8);
}

std::vector<Vec2> star(int points, float outer, float inner) {
  std::vector<Vec2> out;
  for (int i = 0; i < 2 * points; ++i) {
    const double a = std::numbers::pi * i / points;
    const float r = i % 2 == 0 ? outer : inner;
    out.push_back({static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))});
  }
  return out;
}

TEST(ConvexPieces, StarPiecesAreConvexAndTileIt) {
  const std::vector<Vec2> s = star(5, 100, 40);
  auto pieces = convex_pieces(s);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_GE(pieces->size(), 3u);  // 5 points need at least 3 convex pieces
  expect_partition(*pieces, s, 8);
}

TEST(ConvexPieces, ConvexTwentyGonIsCutToEightPointPieces) {
  std::vector<Vec2> gon;
  for (int i = 0; i < 20; ++i) {
    const double a = 2 * std::numbers::pi * i / 20;
    gon.push_back({static_cast<float>(50 * std::cos(a)), static_cast<float>(50 * std::sin(a))});
  }
  auto pieces = convex_pieces(gon, 8);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_GE(pieces->size(), 3u);
  expect_partition(*pieces, gon, 8);
  // Without the cap, it stays whole.
  auto whole = convex_pieces(gon, 20);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->size(), 1u);
}

TEST(ConvexPieces, ClockwiseInputGivesCounterClockwisePieces) {
  const std::vector<Vec2> l_cw{{0, 30}, {10, 30}, {10, 10}, {20, 10}, {20, 0}, {0, 0}};
  ASSERT_LT(signed_area2(l_cw), 0);
  auto pieces = convex_pieces(l_cw);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_EQ(pieces->size(), 2u);
  expect_partition(*pieces, l_cw, 8);
}

TEST(ConvexPieces, CollinearPointsAreLeftOut) {
  // A square with extra points along every side: one 4-point piece.
  const std::vector<Vec2> square{{0, 0}, {5, 0}, {10, 0}, {10, 3}, {10, 10}, {5, 10}, {2, 10}, {0, 10}, {0, 5}};
  auto pieces = convex_pieces(square, 4);
  ASSERT_TRUE(pieces) << pieces.error().message;
  ASSERT_EQ(pieces->size(), 1u);
  EXPECT_EQ((*pieces)[0].size(), 4u);
  expect_partition(*pieces, square, 4);
}

TEST(ConvexPieces, DuplicateConsecutivePointsAreLeftOut) {
  const std::vector<Vec2> l{{0, 0}, {0, 0}, {20, 0}, {20, 10}, {20, 10}, {10, 10}, {10, 30}, {0, 30}, {0, 0}};
  auto pieces = convex_pieces(l);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_EQ(pieces->size(), 2u);
  expect_partition(*pieces, l, 8);
}

TEST(ConvexPieces, BowTieIsAnErrorNamingTheEdges) {
  const std::vector<Vec2> bow{{0, 0}, {10, 10}, {10, 0}, {0, 10}};
  auto pieces = convex_pieces(bow);
  ASSERT_FALSE(pieces);
  EXPECT_NE(pieces.error().message.find("not simple"), std::string::npos) << pieces.error().message;
  EXPECT_NE(pieces.error().message.find("the edge from vertex 0 to vertex 1"), std::string::npos) << pieces.error().message;
}

TEST(ConvexPieces, FewerThanThreePointsIsAnError) {
  const std::vector<Vec2> two{{0, 0}, {1, 0}};
  auto pieces = convex_pieces(two);
  ASSERT_FALSE(pieces);
  EXPECT_NE(pieces.error().message.find("has 2"), std::string::npos) << pieces.error().message;
  const std::vector<Vec2> none;
  EXPECT_FALSE(convex_pieces(none));
}

TEST(ConvexPieces, ZeroAreaIsAnError) {
  const std::vector<Vec2> line{{0, 0}, {5, 0}, {10, 0}, {3, 0}};
  auto pieces = convex_pieces(line);
  ASSERT_FALSE(pieces);
  EXPECT_NE(pieces.error().message.find("zero area"), std::string::npos) << pieces.error().message;
}

TEST(ConvexPieces, MaxVerticesBelowThreeIsAnError) {
  const std::vector<Vec2> square{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  EXPECT_FALSE(convex_pieces(square, 2));
}

TEST(ConvexPieces, ThinPiecesAreWeldedOrDroppedWithANote) {
  // A convex pentagon whose last two points are 0.0064 apart: the one piece loses one of them.
  const std::vector<Vec2> shape{{0, 0}, {10, 0}, {10, 10}, {0.005f, 10.004f}, {0, 10}};
  std::vector<std::string> notes;
  auto pieces = convex_pieces(shape, ConvexPiecesOptions{.min_vertex_distance = 0.01f, .min_area = 1e-4f}, &notes);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_FALSE(notes.empty());
  for (const auto& piece : *pieces) {
    for (std::size_t i = 0; i < piece.size(); ++i) {
      const Vec2 d = piece[(i + 1) % piece.size()] - piece[i];
      EXPECT_GE(length(d), 0.01f);
    }
  }
  expect_partition(*pieces, shape, 8, 1e-3);
}

TEST(ConvexPieces, ThinPieceThatCannotMergeIsDroppedWithANote) {
  // With triangles only, the first ear is a 0.0025-unit sliver along the left edge.
  const std::vector<Vec2> quad{{0, 0}, {10, 0}, {10, 10}, {0, 0.0005f}};
  std::vector<std::string> notes;
  auto pieces = convex_pieces(quad, ConvexPiecesOptions{.max_vertices = 3, .min_area = 0.01f}, &notes);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_EQ(pieces->size(), 1u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("dropped"), std::string::npos) << notes[0];
  expect_partition(*pieces, quad, 3, 1e-3);
}

TEST(ConvexPieces, CombIsCutAtEveryTooth) {
  // Teeth 20 high standing on a 20 × 4 base, Y up: four 2 wide and, on the left, one 4 wide whose top
  // holds a collinear point (2, 24).
  std::vector<Vec2> comb{{0, 0}, {20, 0}};
  for (int t = 4; t >= 0; --t) {
    const float x = 4.0f * t;
    comb.push_back({x + 4, 24});
    comb.push_back({x + 2, 24});
    if (t > 0) {
      comb.push_back({x + 2, 4});
      comb.push_back({x, 4});
    }
  }
  comb.push_back({0, 24});
  auto pieces = convex_pieces(comb);
  ASSERT_TRUE(pieces) << pieces.error().message;
  EXPECT_GE(pieces->size(), 5u);
  expect_partition(*pieces, comb, 8);
}

TEST(ConvexPieces, NearlyCollinearFloatPointsOnARotatedSquare) {
  // Points along the sides of a square turned by 30°, rounded to float: still one 4-point piece.
  std::vector<Vec2> square;
  const Vec2d corners[4] = {{0, 0}, {100, 0}, {100, 100}, {0, 100}};
  const double c = std::cos(0.5236), s = std::sin(0.5236);
  for (int side = 0; side < 4; ++side) {
    for (int k = 0; k < 5; ++k) {
      const Vec2d p = lerp(corners[side], corners[(side + 1) % 4], k / 5.0);
      square.push_back({static_cast<float>(c * p.x - s * p.y), static_cast<float>(s * p.x + c * p.y)});
    }
  }
  auto pieces = convex_pieces(square);
  ASSERT_TRUE(pieces) << pieces.error().message;
  ASSERT_EQ(pieces->size(), 1u);
  EXPECT_EQ((*pieces)[0].size(), 4u);
  expect_partition(*pieces, square, 8);
}

// Star-shaped polygons around the origin with random radii: always simple, often far from convex.
TEST(ConvexPieces, RandomStarShapedPolygons) {
  for (unsigned seed = 0; seed < 100; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> count(3, 40);
    std::uniform_real_distribution<float> radius(5, 100);
    std::uniform_int_distribution<int> max_pick(3, 8);
    const int n = count(rng);
    const int max_vertices = max_pick(rng);
    std::vector<Vec2> polygon;
    for (int i = 0; i < n; ++i) {
      const double a = 2 * std::numbers::pi * i / n;
      const float r = radius(rng);
      polygon.push_back({static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))});
    }
    if (seed % 2 == 1) std::reverse(polygon.begin(), polygon.end());
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto pieces = convex_pieces(polygon, max_vertices);
    ASSERT_TRUE(pieces) << pieces.error().message;
    expect_partition(*pieces, polygon, max_vertices);
  }
}

}  // namespace
}  // namespace mf::scene
