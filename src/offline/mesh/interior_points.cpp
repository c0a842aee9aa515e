#include "mf/offline/mesh/interior_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mf/offline/mesh/outline_simplify.hpp"
#include "mf/offline/mesh/segment_distance.hpp"

namespace mf::offline {

std::vector<Vec2d> interior_lattice(const std::vector<std::vector<Vec2d>>& loops, double spacing, double clearance) {
  std::vector<Vec2d> out;
  if (!(spacing > 0)) return out;
  double x0 = std::numeric_limits<double>::infinity(), y0 = x0, x1 = -x0, y1 = -x0;
  for (const std::vector<Vec2d>& loop : loops)
    for (Vec2d p : loop) {
      x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
      y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    }
  if (!(x0 <= x1)) return out;
  const double row = spacing * std::sqrt(3.0) / 2;
  const Vec2d centre{(x0 + x1) / 2, (y0 + y1) / 2};
  const int rows = static_cast<int>(std::ceil((y1 - y0) / 2 / row)) + 1;
  const int columns = static_cast<int>(std::ceil((x1 - x0) / 2 / spacing)) + 1;
  for (int j = -rows; j <= rows; ++j) {
    const double shift = (j % 2 != 0) ? spacing / 2 : 0.0;
    for (int i = -columns; i <= columns; ++i) {
      const Vec2d p{centre.x + i * spacing + shift, centre.y + j * row};
      if (p.x < x0 || p.x > x1 || p.y < y0 || p.y > y1 || !inside_loops(loops, p)) continue;
      bool clear = true;
      for (const std::vector<Vec2d>& loop : loops) {
        for (std::size_t k = 0; k < loop.size() && clear; ++k)
          clear = segment_distance(p, loop[k], loop[(k + 1) % loop.size()]) >= clearance;
        if (!clear) break;
      }
      if (clear) out.push_back(p);
    }
  }
  return out;
}

}  // namespace mf::offline
