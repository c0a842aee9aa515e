#include "mf/offline/mesh/distance_transform.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace mf::offline {
namespace {

TEST(DistanceTransform, MatchesTheNearestMarkedCellFoundByBruteForce) {
  const int w = 23, h = 17;
  std::mt19937 rng(7);
  std::vector<std::uint8_t> marked(w * h, 0);
  for (int k = 0; k < 9; ++k) marked[rng() % marked.size()] = 1;
  const std::vector<double> d = distance_to_marked(w, h, marked);
  ASSERT_EQ(d.size(), marked.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double best = INFINITY;
      for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i)
          if (marked[j * w + i]) best = std::min(best, std::hypot(x - i, y - j));
      EXPECT_NEAR(d[y * w + x], best, 1e-12) << x << ", " << y;
    }
}

TEST(DistanceTransform, OneMarkedCellAndNone) {
  std::vector<std::uint8_t> marked(5 * 4, 0);
  marked[0] = 1;
  const std::vector<double> d = distance_to_marked(5, 4, marked);
  EXPECT_EQ(d[0], 0);
  EXPECT_NEAR(d[3 * 5 + 4], 5, 1e-12);  // (4, 3) from (0, 0)
  marked[0] = 0;
  for (double v : distance_to_marked(5, 4, marked)) EXPECT_TRUE(std::isinf(v));
}

TEST(DistanceTransform, SingleRowsAndColumns) {
  const std::vector<std::uint8_t> row{0, 0, 1, 0, 0, 0, 1};
  const std::vector<double> d = distance_to_marked(7, 1, row);
  const std::vector<double> expected{2, 1, 0, 1, 2, 1, 0};
  for (std::size_t i = 0; i < d.size(); ++i) EXPECT_EQ(d[i], expected[i]) << i;
  const std::vector<double> column = distance_to_marked(1, 7, row);
  for (std::size_t i = 0; i < column.size(); ++i) EXPECT_EQ(column[i], expected[i]) << i;
}

}  // namespace
}  // namespace mf::offline
