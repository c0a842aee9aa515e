// Squared distances along each column first, then along each row over those: the squared distance
// to the nearest marked cell is min over rows j of (y − j)² + column_distance², a lower envelope of
// parabolas found in one left-to-right pass per line.

#include "mf/offline/mesh/distance_transform.hpp"

#include <cmath>
#include <algorithm>
#include <cstddef>
#include <limits>

namespace mf::offline {
namespace {

constexpr double kFar = 1e20;  // "no marked cell" as a squared distance: larger than any real one

// One line: out[q] = min over p of (q − p)² + f[p]. v holds the parabolas of the lower envelope,
// z the boundaries between them.
void transform_line(const std::vector<double>& f, std::vector<double>& out, std::vector<std::size_t>& v,
                    std::vector<double>& z) {
  const std::size_t n = f.size();
  const auto meet = [&](std::size_t q, std::size_t p) {
    const double dq = static_cast<double>(q), dp = static_cast<double>(p);
    return ((f[q] + dq * dq) - (f[p] + dp * dp)) / (2 * (dq - dp));
  };
  std::size_t k = 0;
  v[0] = 0;
  z[0] = -std::numeric_limits<double>::infinity();
  z[1] = std::numeric_limits<double>::infinity();
  for (std::size_t q = 1; q < n; ++q) {
    double s = meet(q, v[k]);
    while (s <= z[k]) s = meet(q, v[--k]);  // z[0] is −∞: stops at k = 0
    ++k;
    v[k] = q;
    z[k] = s;
    z[k + 1] = std::numeric_limits<double>::infinity();
  }
  k = 0;
  for (std::size_t q = 0; q < n; ++q) {
    while (z[k + 1] < static_cast<double>(q)) ++k;
    const double d = static_cast<double>(q) - static_cast<double>(v[k]);
    out[q] = d * d + f[v[k]];
  }
}

}  // namespace

std::vector<double> distance_to_marked(int width, int height, std::span<const std::uint8_t> marked) {
  const std::size_t w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
  std::vector<double> d(w * h);
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = marked[i] ? 0.0 : kFar;
  const std::size_t longest = std::max(w, h);
  std::vector<double> f(longest), out(longest), z(longest + 1);
  std::vector<std::size_t> v(longest);
  f.resize(h);
  out.resize(h);
  for (std::size_t x = 0; x < w; ++x) {
    for (std::size_t y = 0; y < h; ++y) f[y] = d[y * w + x];
    transform_line(f, out, v, z);
    for (std::size_t y = 0; y < h; ++y) d[y * w + x] = out[y];
  }
  f.resize(w);
  out.resize(w);
  for (std::size_t y = 0; y < h; ++y) {
    for (std::size_t x = 0; x < w; ++x) f[x] = d[y * w + x];
    transform_line(f, out, v, z);
    for (std::size_t x = 0; x < w; ++x) d[y * w + x] = out[x];
  }
  for (double& value : d) value = value >= kFar / 2 ? std::numeric_limits<double>::infinity() : std::sqrt(value);
  return d;
}

}  // namespace mf::offline
