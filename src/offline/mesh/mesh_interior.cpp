#include "mesh_interior.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace mf::offline {

Vec2d closest_point_on_segment(Vec2d p, Vec2d a, Vec2d b) {
  const Vec2d ab = b - a;
  const double len2 = dot(ab, ab);
  if (!(len2 > 0)) return a;
  const double t = std::clamp(dot(p - a, ab) / len2, 0.0, 1.0);
  return a + ab * t;
}

namespace {

// Signed distance of p from the line through a and b (positive on the left of a→b, y up); 0 when
// a and b coincide.
double side(Vec2d p, Vec2d a, Vec2d b) {
  const double len = length(b - a);
  return len > 0 ? cross(b - a, p - a) / len : 0.0;
}

}  // namespace

MeshInterior::MeshInterior(std::span<const Vec2d> positions, std::span<const std::array<int, 3>> triangles,
                           const std::vector<bool>& proper, double tolerance)
    : tolerance_(tolerance) {
  std::map<std::pair<int, int>, int> edge_uses;
  for (const std::array<int, 3>& t : triangles)
    for (int k = 0; k < 3; ++k) {
      const int i = t[static_cast<std::size_t>(k)], j = t[static_cast<std::size_t>((k + 1) % 3)];
      if (i != j) ++edge_uses[{std::min(i, j), std::max(i, j)}];
    }
  for (const auto& [edge, uses] : edge_uses)
    if (uses == 1)
      boundary_.push_back({positions[static_cast<std::size_t>(edge.first)], positions[static_cast<std::size_t>(edge.second)]});

  Vec2d lo{HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL};
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    if (!proper[t]) continue;
    std::array<Vec2d, 3> c;
    for (std::size_t k = 0; k < 3; ++k) {
      c[k] = positions[static_cast<std::size_t>(triangles[t][k])];
      lo = {std::min(lo.x, c[k].x), std::min(lo.y, c[k].y)};
      hi = {std::max(hi.x, c[k].x), std::max(hi.y, c[k].y)};
    }
    // Counter-clockwise (y up), so that the inside is on the left of every edge.
    if (cross(c[1] - c[0], c[2] - c[0]) < 0) std::swap(c[1], c[2]);
    covering_.push_back(c);
  }
  if (covering_.empty()) return;

  // About one triangle per cell.
  const int side_cells = std::clamp(static_cast<int>(std::ceil(std::sqrt(static_cast<double>(covering_.size())))), 1, 1024);
  columns_ = rows_ = side_cells;
  grid_min_ = lo - Vec2d{tolerance, tolerance};
  const Vec2d extent = hi - lo + Vec2d{2 * tolerance, 2 * tolerance};
  cell_ = {std::max(extent.x / columns_, 1e-300), std::max(extent.y / rows_, 1e-300)};
  cells_.assign(static_cast<std::size_t>(columns_ * rows_), {});
  const auto column_of = [&](double x) { return std::clamp(static_cast<int>(std::floor((x - grid_min_.x) / cell_.x)), 0, columns_ - 1); };
  const auto row_of = [&](double y) { return std::clamp(static_cast<int>(std::floor((y - grid_min_.y) / cell_.y)), 0, rows_ - 1); };
  for (std::size_t t = 0; t < covering_.size(); ++t) {
    const std::array<Vec2d, 3>& c = covering_[t];
    const double x0 = std::min({c[0].x, c[1].x, c[2].x}) - tolerance, x1 = std::max({c[0].x, c[1].x, c[2].x}) + tolerance;
    const double y0 = std::min({c[0].y, c[1].y, c[2].y}) - tolerance, y1 = std::max({c[0].y, c[1].y, c[2].y}) + tolerance;
    for (int row = row_of(y0); row <= row_of(y1); ++row)
      for (int column = column_of(x0); column <= column_of(x1); ++column)
        cells_[static_cast<std::size_t>(cell_index(column, row))].push_back(static_cast<int>(t));
  }
}

bool MeshInterior::covers(Vec2d p) const {
  if (cells_.empty()) return false;
  const double cx = std::floor((p.x - grid_min_.x) / cell_.x), cy = std::floor((p.y - grid_min_.y) / cell_.y);
  if (!(cx >= 0 && cx < columns_ && cy >= 0 && cy < rows_)) return false;
  for (int t : cells_[static_cast<std::size_t>(cell_index(static_cast<int>(cx), static_cast<int>(cy)))]) {
    const std::array<Vec2d, 3>& c = covering_[static_cast<std::size_t>(t)];
    if (side(p, c[0], c[1]) >= -tolerance_ && side(p, c[1], c[2]) >= -tolerance_ && side(p, c[2], c[0]) >= -tolerance_)
      return true;
  }
  return false;
}

bool MeshInterior::segment_inside(Vec2d from, Vec2d to) const {
  const double len = length(to - from);
  if (!(len > tolerance_)) return covers(from);
  std::vector<double> stops{0.0, 1.0};
  const auto opposite = [&](double s, double t) {
    return (s > tolerance_ && t < -tolerance_) || (s < -tolerance_ && t > tolerance_);
  };
  for (const std::array<Vec2d, 2>& e : boundary_) {
    const double sa = side(e[0], from, to), sb = side(e[1], from, to);
    if (opposite(sa, sb) && opposite(side(from, e[0], e[1]), side(to, e[0], e[1]))) return false;
    // A boundary vertex on the segment: the segment may leave or enter the mesh there.
    for (const Vec2d& v : e) {
      const double t = dot(v - from, to - from) / (len * len);
      if (t > 0 && t < 1 && length(closest_point_on_segment(v, from, to) - v) <= tolerance_) stops.push_back(t);
    }
  }
  std::sort(stops.begin(), stops.end());
  for (std::size_t i = 0; i + 1 < stops.size(); ++i) {
    if ((stops[i + 1] - stops[i]) * len <= tolerance_) continue;
    if (!covers(lerp(from, to, 0.5 * (stops[i] + stops[i + 1])))) return false;
  }
  return true;
}

}  // namespace mf::offline
