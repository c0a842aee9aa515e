// Image → region field → traced loops → simplified loops → lattice → refined constrained Delaunay
// triangulation, then the outline's vertices moved to the front (auto_mesh.hpp lists the steps).

#include "mf/offline/mesh/auto_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "mf/offline/mesh/alpha_region.hpp"
#include "mf/offline/mesh/interior_points.hpp"
#include "mf/offline/mesh/marching_squares.hpp"
#include "mf/offline/mesh/outline_simplify.hpp"

namespace mf::offline {
namespace {

constexpr double kMinSpacing = 4;
constexpr double kMinAngle = 20;
constexpr int kBudgetPerPoint = 4;

Unexpected fail(std::string message) { return Unexpected{Error{"", "", {}, std::move(message)}}; }

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Each edge longer than `spacing` split into equal pieces no longer than it.
std::vector<Vec2d> split_long_edges(const std::vector<Vec2d>& loop, double spacing) {
  std::vector<Vec2d> out;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const Vec2d a = loop[i], b = loop[(i + 1) % loop.size()];
    const int pieces = std::max(1, static_cast<int>(std::ceil(length(b - a) / spacing - 1e-9)));
    for (int k = 0; k < pieces; ++k) out.push_back(lerp(a, b, static_cast<double>(k) / pieces));
  }
  return out;
}

// The closed cycle of constrained edges through `start`, in either direction.
std::vector<std::uint32_t> cycle_through(std::uint32_t start, const std::multimap<std::uint32_t, std::uint32_t>& next) {
  std::vector<std::uint32_t> cycle{start};
  std::uint32_t previous = start, at = start;
  while (true) {
    std::uint32_t step = at;
    for (auto [it, end] = next.equal_range(at); it != end; ++it)
      if (it->second != previous || cycle.size() == 1) {
        step = it->second;
        break;
      }
    if (step == start || step == at) break;
    cycle.push_back(step);
    previous = at;
    at = step;
  }
  return cycle;
}

std::multimap<std::uint32_t, std::uint32_t> neighbours(const std::vector<std::array<std::uint32_t, 2>>& edges) {
  std::multimap<std::uint32_t, std::uint32_t> next;
  for (const auto& e : edges) {
    next.emplace(e[0], e[1]);
    next.emplace(e[1], e[0]);
  }
  return next;
}

double cycle_area(const std::vector<Vec2d>& points, const std::vector<std::uint32_t>& cycle) {
  std::vector<Vec2d> loop;
  for (std::uint32_t i : cycle) loop.push_back(points[i]);
  return signed_area(loop);
}

}  // namespace

AutoMeshScale auto_mesh_scale(int width, int height, const AutoMeshOptions& options) {
  AutoMeshScale s;
  s.spacing = std::max(static_cast<double>(std::max(width, height)) / (6 * options.density), kMinSpacing);
  s.outward_tolerance = std::max(s.spacing / 8, 0.5);
  s.inward_tolerance = std::min(s.outward_tolerance, options.padding);
  return s;
}

Expected<AutoMesh> auto_mesh(const imaging::Image& image, const AutoMeshOptions& options) {
  if (image.empty()) return fail("the image is empty (" + std::to_string(image.width) + "x" + std::to_string(image.height) + ")");
  if (image.rgba.size() != static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4)
    return fail("the image's pixel data holds " + std::to_string(image.rgba.size()) + " bytes, not 4 per pixel");
  if (!(options.density >= 0.1 && options.density <= 10))
    return fail("density must be from 0.1 to 10, found " + number(options.density));
  if (options.alpha_threshold < 1 || options.alpha_threshold > 255)
    return fail("alpha threshold must be from 1 to 255, found " + std::to_string(options.alpha_threshold));
  if (!(options.padding >= 0 && std::isfinite(options.padding)))
    return fail("padding must be a number >= 0, found " + number(options.padding));
  const AutoMeshScale scale = auto_mesh_scale(image.width, image.height, options);

  const AlphaRegion region = alpha_region(image, options.alpha_threshold, options.padding);
  if (region.opaque_count == 0)
    return fail("no pixel of the " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                " image has alpha at or above " + std::to_string(options.alpha_threshold));

  // One outline (the region is one piece) and its holes, small holes filled.
  std::vector<std::vector<Vec2d>> loops(1);
  int outlines = 0;
  for (std::vector<Vec2d>& loop : trace_contours(region.field)) {
    if (signed_area(loop) > 0) {
      ++outlines;
      loops[0] = std::move(loop);
      continue;
    }
    double x0 = loop[0].x, x1 = x0, y0 = loop[0].y, y1 = y0;
    for (Vec2d p : loop) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    if (x1 - x0 >= scale.spacing || y1 - y0 >= scale.spacing) loops.push_back(std::move(loop));
  }
  if (outlines != 1)
    return fail("the alpha region traced as " + std::to_string(outlines) + " outlines instead of one");

  std::vector<Vec2d> opaque_centres;
  opaque_centres.reserve(region.opaque_count);
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (region.opaque[static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x)])
        opaque_centres.push_back({x + 0.5, y + 0.5});
  std::vector<std::vector<Vec2d>> outline =
      simplify_outline(loops, {scale.outward_tolerance, scale.inward_tolerance, Vec2d{double(image.width), double(image.height)}},
                       opaque_centres);
  for (std::vector<Vec2d>& loop : outline) loop = split_long_edges(loop, scale.spacing);
  const std::vector<Vec2d> interior = interior_lattice(outline, scale.spacing, scale.spacing / 2);

  PlanarDomain domain;
  for (const std::vector<Vec2d>& loop : outline) {
    std::vector<std::uint32_t> indices;
    for (Vec2d p : loop) {
      indices.push_back(static_cast<std::uint32_t>(domain.points.size()));
      domain.points.push_back(p);
    }
    domain.loops.push_back(std::move(indices));
  }
  domain.points.insert(domain.points.end(), interior.begin(), interior.end());
  RefineOptions refine;
  refine.min_angle = kMinAngle;
  double outline_length = 0;
  for (const std::vector<Vec2d>& loop : outline)
    for (std::size_t i = 0; i < loop.size(); ++i) outline_length += length(loop[(i + 1) % loop.size()] - loop[i]);
  refine.max_points = kBudgetPerPoint * static_cast<int>(domain.points.size()) + static_cast<int>(std::ceil(outline_length));
  Expected<ConstrainedTriangulation> triangulated = triangulate_domain(domain, refine);
  if (!triangulated) return fail("triangulating the outline: " + triangulated.error().message);
  const ConstrainedTriangulation& t = *triangulated;

  // The hull: the constrained cycle through the outline's first point, clockwise on screen.
  const std::multimap<std::uint32_t, std::uint32_t> next = neighbours(t.constrained);
  std::vector<std::uint32_t> hull = cycle_through(0, next);
  if (cycle_area(t.points, hull) < 0) std::reverse(hull.begin() + 1, hull.end());
  std::vector<int> new_index(t.points.size(), -1);
  AutoMesh mesh;
  for (std::uint32_t i : hull) {
    new_index[i] = static_cast<int>(mesh.positions.size());
    mesh.positions.push_back(t.points[i]);
  }
  mesh.hull = static_cast<int>(hull.size());
  for (std::size_t i = 0; i < t.points.size(); ++i)
    if (new_index[i] < 0) {
      new_index[i] = static_cast<int>(mesh.positions.size());
      mesh.positions.push_back(t.points[i]);
    }
  for (const auto& tri : t.triangles) mesh.triangles.push_back({new_index[tri[0]], new_index[tri[1]], new_index[tri[2]]});
  for (int i = 0; i < mesh.hull; ++i) mesh.edges.push_back({i, (i + 1) % mesh.hull});
  // Hole loops in cycle order, each from its lowest-numbered input point.
  std::vector<std::uint8_t> done(t.points.size(), 0);
  for (std::uint32_t i : hull) done[i] = 1;
  for (std::size_t l = 1; l < domain.loops.size(); ++l) {
    const std::uint32_t start = domain.loops[l][0];
    if (done[start]) continue;
    std::vector<std::uint32_t> cycle = cycle_through(start, next);
    if (cycle_area(t.points, cycle) > 0) std::reverse(cycle.begin() + 1, cycle.end());
    for (std::size_t k = 0; k < cycle.size(); ++k) {
      done[cycle[k]] = 1;
      mesh.edges.push_back({new_index[cycle[k]], new_index[cycle[(k + 1) % cycle.size()]]});
    }
  }
  mesh.join_radius = region.join_radius;
  return mesh;
}

PlanarDomain outline_domain(const AutoMesh& mesh) {
  PlanarDomain domain;
  domain.points = mesh.positions;
  std::vector<std::uint32_t> hull;
  for (int i = 0; i < mesh.hull; ++i) hull.push_back(static_cast<std::uint32_t>(i));
  domain.loops.push_back(std::move(hull));
  // The holes' edges follow the hull's, each loop's edges in cycle order.
  std::vector<std::uint32_t> loop;
  for (std::size_t e = static_cast<std::size_t>(mesh.hull); e < mesh.edges.size(); ++e) {
    loop.push_back(static_cast<std::uint32_t>(mesh.edges[e][0]));
    if (mesh.edges[e][1] == static_cast<int>(loop.front())) {
      domain.loops.push_back(std::move(loop));
      loop.clear();
    }
  }
  return domain;
}

}  // namespace mf::offline
