#include "mf/offline/mesh/alpha_region.hpp"

#include <algorithm>
#include <cmath>

#include "mf/offline/mesh/distance_transform.hpp"

namespace mf::offline {
namespace {

constexpr int kBisections = 5;        // of the closing radius
constexpr int kGrowthBisections = 16;  // of the growth that joins the islands

// The grown field, closed with a disc of radius `radius`. The grow and the shrink run on the image
// with a margin around it, so that the shrink also works from beyond the image's border (else
// art near a border would be stuck to it); the margin is at most the image's longest side.
PixelField closed(const PixelField& grown, const std::vector<std::uint8_t>& opaque, double reach, double radius) {
  const int w = grown.width, h = grown.height;
  const int margin = std::min(static_cast<int>(std::ceil(reach + radius)) + 1, std::max(w, h));
  const int ew = w + 2 * margin, eh = h + 2 * margin;
  const auto at = [&](int x, int y) { return static_cast<std::size_t>(y) * static_cast<std::size_t>(ew) + static_cast<std::size_t>(x); };
  std::vector<std::uint8_t> marks(static_cast<std::size_t>(ew) * static_cast<std::size_t>(eh), 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      marks[at(x + margin, y + margin)] = opaque[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
  const std::vector<double> distance = distance_to_marked(ew, eh, marks);
  for (std::size_t i = 0; i < marks.size(); ++i) marks[i] = distance[i] > reach + radius ? 1 : 0;
  const std::vector<double> to_outside = distance_to_marked(ew, eh, marks);
  const double limit = reach + std::hypot(ew, eh);  // stands in for "no outside at all"
  PixelField out = grown;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double& v = out.values[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
      v = std::max(v, std::min(to_outside[at(x + margin, y + margin)] - radius, limit));
    }
  return out;
}

}  // namespace

AlphaRegion alpha_region(const imaging::Image& image, int alpha_threshold, double padding) {
  AlphaRegion region;
  const std::size_t count = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
  region.opaque.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    region.opaque[i] = image.rgba[i * 4 + 3] >= alpha_threshold ? 1 : 0;
    region.opaque_count += region.opaque[i];
  }
  region.field.width = image.width;
  region.field.height = image.height;
  region.field.values.assign(count, -1.0);
  if (region.opaque_count == 0) return region;

  // `reach`: the distance from an opaque pixel centre at which the outline runs.
  const double reach = padding + 0.5;
  const std::vector<double> distance = distance_to_marked(image.width, image.height, region.opaque);
  for (std::size_t i = 0; i < count; ++i) region.field.values[i] = reach - distance[i];
  if (count_pieces(region.field) == 1) return region;

  // A closing of radius R lies inside the growth by reach + R, so R is at least the growth that
  // first makes one piece, less the reach: found by bisection on the distances, which is cheap.
  const double across = std::hypot(image.width, image.height);
  PixelField grown = region.field;
  double apart = 0, together = across + 1;
  for (int step = 0; step < kGrowthBisections; ++step) {
    const double mid = (apart + together) / 2;
    for (std::size_t i = 0; i < count; ++i) grown.values[i] = mid - distance[i];
    (count_pieces(grown) == 1 ? together : apart) = mid;
  }
  double lo = std::max(0.0, apart - reach), hi = std::max(1.0, 1.25 * (together - reach));
  PixelField joined = closed(region.field, region.opaque, reach, hi);
  while (count_pieces(joined) != 1) {
    lo = hi;
    hi *= 1.5;
    if (hi > 2 * across) {
      // A disc that large closes to (nearly) the islands' convex hull; should the grid still
      // leave pieces apart, the whole image is the region.
      joined.values.assign(count, reach + across);
      break;
    }
    joined = closed(region.field, region.opaque, reach, hi);
  }
  for (int step = 0; step < kBisections; ++step) {
    const double mid = (lo + hi) / 2;
    PixelField candidate = closed(region.field, region.opaque, reach, mid);
    if (count_pieces(candidate) == 1) {
      hi = mid;
      joined = std::move(candidate);
    } else {
      lo = mid;
    }
  }
  region.field = std::move(joined);
  region.join_radius = hi;
  return region;
}

}  // namespace mf::offline
