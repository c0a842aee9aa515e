// Marching squares over the pixel-centre samples and a ring of virtual samples around them (the
// negated mirror of their neighbour inside the image), so every contour closes. Each cell links the
// edge where the contour leaves the cell's inside corners to the edge where it enters them (walking
// the cell's corners clockwise on screen); following the links from edge to edge gives the loops.

#include "mf/offline/mesh/marching_squares.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>

namespace mf::offline {
namespace {

constexpr double kMinFraction = 1.0 / 64;  // how near a crossing may come to a sample

class Tracer {
 public:
  explicit Tracer(const PixelField& field) : f_(field), w_(field.width), h_(field.height) {}

  std::vector<std::vector<Vec2d>> run() {
    for (int cj = -1; cj < h_; ++cj)
      for (int ci = -1; ci < w_; ++ci) link_cell(ci, cj);
    std::sort(links_.begin(), links_.end(), [](const Link& a, const Link& b) { return a.from < b.from; });
    std::vector<std::uint8_t> used(links_.size(), 0);
    std::vector<std::vector<Vec2d>> loops;
    for (std::size_t start = 0; start < links_.size(); ++start) {
      if (used[start]) continue;
      std::vector<Vec2d> loop;
      std::size_t at = start;
      while (!used[at]) {
        used[at] = 1;
        const Link& link = links_[at];
        loop.push_back(link.point);
        if (link.corner) loop.push_back(*link.corner);
        at = find(link.to);
      }
      loops.push_back(std::move(loop));
    }
    return loops;
  }

 private:
  // An edge between two neighbouring samples, named by its first sample (the left or upper one)
  // and its direction; samples run from -1 to width (height) with the virtual ring.
  struct Edge {
    int i = 0, j = 0;
    bool vertical = false;
    std::int64_t id(int w, int h) const {
      const std::int64_t horizontal_count = std::int64_t{w + 1} * (h + 2);
      return vertical ? horizontal_count + std::int64_t{j + 1} * (w + 2) + (i + 1)
                      : std::int64_t{j + 1} * (w + 1) + (i + 1);
    }
  };

  struct Link {
    std::int64_t from = 0, to = 0;  // edge ids
    Vec2d point;                    // the crossing on `from`
    std::optional<Vec2d> corner;    // the image corner the contour turns at after `point`
  };

  double value(int i, int j) const {
    if (i >= 0 && i < w_ && j >= 0 && j < h_) return f_.at(i, j);
    return -std::fabs(f_.at(std::clamp(i, 0, w_ - 1), std::clamp(j, 0, h_ - 1)));
  }
  bool inside(int i, int j) const { return value(i, j) > 0; }

  Vec2d crossing(const Edge& e) const {
    const int i2 = e.vertical ? e.i : e.i + 1, j2 = e.vertical ? e.j + 1 : e.j;
    double a = value(e.i, e.j), b = value(i2, j2);
    Vec2d pa{e.i + 0.5, e.j + 0.5}, pb{i2 + 0.5, j2 + 0.5};
    if (!(a > 0)) {
      std::swap(a, b);
      std::swap(pa, pb);
    }
    const double t = std::clamp(a / (a - b), kMinFraction, 1 - kMinFraction);
    return lerp(pa, pb, t);
  }

  void link_cell(int ci, int cj) {
    const std::array<std::array<int, 2>, 4> corner{{{ci, cj}, {ci + 1, cj}, {ci + 1, cj + 1}, {ci, cj + 1}}};
    const std::array<Edge, 4> edge{{{ci, cj, false}, {ci + 1, cj, true}, {ci, cj + 1, false}, {ci, cj, true}}};
    std::array<bool, 4> in{};
    for (int k = 0; k < 4; ++k) in[k] = inside(corner[k][0], corner[k][1]);
    const bool saddle = in[0] == in[2] && in[1] == in[3] && in[0] != in[1];
    int leaving = -1, entering = -1;
    for (int k = 0; k < 4; ++k) {
      const bool here = in[k], next = in[(k + 1) % 4];
      if (here && !next) {
        if (saddle) {
          add(edge[k], edge[(k + 1) % 4], ci, cj);  // joins the inside corners: cuts off corner k + 1
          continue;
        }
        leaving = k;
      }
      if (!here && next) entering = k;
    }
    if (!saddle && leaving >= 0) add(edge[leaving], edge[entering], ci, cj);
  }

  void add(const Edge& from, const Edge& to, int ci, int cj) {
    Link link{from.id(w_, h_), to.id(w_, h_), crossing(from), std::nullopt};
    // The ring's corner cells hold one image sample: the contour turns at the image's corner there.
    const bool left = ci == -1, right = ci == w_ - 1, top = cj == -1, bottom = cj == h_ - 1;
    if ((left || right) && (top || bottom))
      link.corner = Vec2d{left ? 0.0 : static_cast<double>(w_), top ? 0.0 : static_cast<double>(h_)};
    links_.push_back(link);
  }

  std::size_t find(std::int64_t edge) const {
    const auto it = std::lower_bound(links_.begin(), links_.end(), edge,
                                     [](const Link& l, std::int64_t id) { return l.from < id; });
    return static_cast<std::size_t>(it - links_.begin());
  }

  const PixelField& f_;
  const int w_, h_;
  std::vector<Link> links_;
};

}  // namespace

std::vector<std::vector<Vec2d>> trace_contours(const PixelField& field) {
  if (field.width <= 0 || field.height <= 0) return {};
  return Tracer(field).run();
}

int count_pieces(const PixelField& field) {
  const int w = field.width, h = field.height;
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  std::vector<std::array<int, 2>> stack;
  int pieces = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t at = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
      if (seen[at] || !field.inside(x, y)) continue;
      ++pieces;
      seen[at] = 1;
      stack.push_back({x, y});
      while (!stack.empty()) {
        const auto [px, py] = stack.back();
        stack.pop_back();
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = px + dx, ny = py + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            const std::size_t n = static_cast<std::size_t>(ny) * static_cast<std::size_t>(w) + static_cast<std::size_t>(nx);
            if (seen[n] || !field.inside(nx, ny)) continue;
            seen[n] = 1;
            stack.push_back({nx, ny});
          }
      }
    }
  return pieces;
}

double signed_area(std::span<const Vec2d> loop) {
  double twice = 0;
  for (std::size_t i = 0; i < loop.size(); ++i) twice += cross(loop[i], loop[(i + 1) % loop.size()]);
  return twice / 2;
}

}  // namespace mf::offline
