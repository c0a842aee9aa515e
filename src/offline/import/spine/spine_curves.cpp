#include "spine_curves.hpp"

#include <algorithm>
#include <cmath>

#include "mf/core/math/vec2.hpp"

namespace mf::offline::spine {
namespace {

double cubic(double p0, double p1, double p2, double p3, double s) {
  const double u = 1 - s;
  return u * u * u * p0 + 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s * p3;
}

double round_float(double v) { return static_cast<double>(static_cast<float>(v)); }

// The parameter at which the bezier's time is `t`, for t0 ≤ t ≤ t1. Bisection: x(0) = t0 and x(1) = t1,
// so a root exists even when the handles leave the segment in time (then x is not monotonic and this
// finds one of the roots, as any evaluator would have to choose).
double solve_parameter(double t0, double cx1, double cx2, double t1, double t) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (cubic(t0, cx1, cx2, t1, mid) < t)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

// Parameters in (0, 1) where the cubic with control values p0..p3 has a zero derivative.
std::vector<double> extremum_parameters(double p0, double p1, double p2, double p3) {
  const double d0 = p1 - p0, d1 = p2 - p1, d2 = p3 - p2;
  // The derivative is 3 (a s² + b s + c).
  const double a = d0 - 2 * d1 + d2, b = 2 * (d1 - d0), c = d0;
  const double scale = std::max({std::fabs(d0), std::fabs(d1), std::fabs(d2)});
  std::vector<double> roots;
  if (scale == 0) return roots;
  if (std::fabs(a) <= 1e-12 * scale) {
    if (b != 0) roots.push_back(-c / b);
  } else {
    const double disc = b * b - 4 * a * c;
    if (disc >= 0) {
      // The stable form of the quadratic formula.
      const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
      roots.push_back(q / a);
      if (q != 0) roots.push_back(c / q);
    }
  }
  constexpr double kEdge = 1e-9;
  std::vector<double> inside;
  for (double s : roots)
    if (s > kEdge && s < 1 - kEdge) inside.push_back(s);
  std::sort(inside.begin(), inside.end());
  return inside;
}

bool is_flat_overshoot(const KeyTrack& track, std::size_t segment, int component) {
  const SpineCurve& c = track.curve(segment, component);
  const double v0 = track.value(segment, component), v1 = track.value(segment + 1, component);
  return c.type == CurveType::Bezier && v0 == v1 && (c.cy1 != v0 || c.cy2 != v0);
}

}  // namespace

void negate_component(KeyTrack& track, int component) {
  auto negate = [](double& v) { v = v == 0 ? 0 : -v; };  // no negative zeros in the clip
  for (std::size_t k = 0; k < track.key_count(); ++k) negate(track.values[k * track.components + component]);
  if (component >= track.curved) return;
  for (std::size_t s = 0; s + 1 < track.key_count(); ++s) {
    SpineCurve& c = track.curve(s, component);
    negate(c.cy1);
    negate(c.cy2);
  }
}

void round_to_float(KeyTrack& track) {
  for (double& t : track.times) t = round_float(t);
  for (double& v : track.values) v = round_float(v);
}

double evaluate(const KeyTrack& track, int component, double t) {
  const std::size_t n = track.key_count();
  if (t <= track.times.front()) return track.value(0, component);
  if (t >= track.times.back()) return track.value(n - 1, component);
  const std::size_t seg =
      static_cast<std::size_t>(std::upper_bound(track.times.begin(), track.times.end(), t) - track.times.begin()) - 1;
  const double t0 = track.times[seg], t1 = track.times[seg + 1];
  const double v0 = track.value(seg, component), v1 = track.value(seg + 1, component);
  if (component >= track.curved) return v0;
  const SpineCurve& c = track.curve(seg, component);
  switch (c.type) {
    case CurveType::Linear: return v0 + (v1 - v0) * (t - t0) / (t1 - t0);
    case CurveType::Stepped: return v0;
    case CurveType::Bezier: break;
  }
  return cubic(v0, c.cy1, c.cy2, v1, solve_parameter(t0, c.cx1, c.cx2, t1, t));
}

void insert_key(KeyTrack& track, std::size_t segment, double t) {
  const int comps = track.components, curved = track.curved;
  const double tf = round_float(t);
  const double t0 = track.times[segment], t1 = track.times[segment + 1];
  std::vector<double> values(static_cast<std::size_t>(comps));
  std::vector<SpineCurve> left(static_cast<std::size_t>(curved)), right(static_cast<std::size_t>(curved));
  for (int c = 0; c < comps; ++c) {
    const double v0 = track.value(segment, c), v1 = track.value(segment + 1, c);
    double& v = values[static_cast<std::size_t>(c)];
    if (c >= curved) {
      v = v0;
      continue;
    }
    const SpineCurve& sc = track.curve(segment, c);
    SpineCurve& l = left[static_cast<std::size_t>(c)];
    SpineCurve& r = right[static_cast<std::size_t>(c)];
    switch (sc.type) {
      case CurveType::Linear:
        v = v0 + (v1 - v0) * (tf - t0) / (t1 - t0);
        l = r = SpineCurve::linear();
        break;
      case CurveType::Stepped:
        v = v0;
        l = r = SpineCurve::stepped();
        break;
      case CurveType::Bezier: {
        const double s = solve_parameter(t0, sc.cx1, sc.cx2, t1, tf);
        const Vec2d p0{t0, v0}, p1{sc.cx1, sc.cy1}, p2{sc.cx2, sc.cy2}, p3{t1, v1};
        const Vec2d p01 = lerp(p0, p1, s), p12 = lerp(p1, p2, s), p23 = lerp(p2, p3, s);
        const Vec2d p012 = lerp(p01, p12, s), p123 = lerp(p12, p23, s);
        const Vec2d mid = lerp(p012, p123, s);
        v = mid.y;
        l = SpineCurve::bezier(p01.x, p01.y, p012.x, p012.y);
        r = SpineCurve::bezier(p123.x, p123.y, p23.x, p23.y);
        break;
      }
    }
    v = round_float(v);
  }
  const auto at = static_cast<std::ptrdiff_t>(segment + 1);
  track.times.insert(track.times.begin() + at, tf);
  track.values.insert(track.values.begin() + at * comps, values.begin(), values.end());
  const auto first = track.curves.begin() + static_cast<std::ptrdiff_t>(segment) * curved;
  std::copy(left.begin(), left.end(), first);
  track.curves.insert(first + curved, right.begin(), right.end());
}

int split_flat_overshoots(KeyTrack& track) {
  int inserted = 0;
  for (std::size_t seg = 0; seg + 1 < track.key_count();) {
    const double t0 = track.times[seg], t1 = track.times[seg + 1];
    std::vector<double> cuts;
    for (int c = 0; c < track.curved; ++c) {
      if (!is_flat_overshoot(track, seg, c)) continue;
      const SpineCurve& sc = track.curve(seg, c);
      const double v = track.value(seg, c);
      for (double s : extremum_parameters(v, sc.cy1, sc.cy2, v)) cuts.push_back(cubic(t0, sc.cx1, sc.cx2, t1, s));
    }
    std::sort(cuts.begin(), cuts.end());
    // Each cut splits the segment that now ends at t1, so the cuts go in increasing time; cuts that
    // round onto a key time (or onto each other) are dropped.
    std::size_t at = seg;
    for (double cut : cuts) {
      const double tf = round_float(cut);
      if (tf <= track.times[at] || tf >= t1) continue;
      insert_key(track, at, tf);
      ++at;
      ++inserted;
    }
    seg = at + 1;
  }
  return inserted;
}

std::vector<Curve> normalised_curves(const KeyTrack& track, NormaliseReport& report) {
  std::vector<Curve> out;
  if (track.key_count() < 2) return out;
  out.reserve((track.key_count() - 1) * static_cast<std::size_t>(track.curved));
  // Spine writes key times with 4 decimals and handle times with 3, so a handle on its segment's end
  // can read a little past it: that much is clamped without a report.
  constexpr double kSlack = 1.5e-3;  // seconds
  for (std::size_t seg = 0; seg + 1 < track.key_count(); ++seg) {
    const double t0 = track.times[seg], dt = track.times[seg + 1] - t0;
    for (int c = 0; c < track.curved; ++c) {
      const SpineCurve& sc = track.curve(seg, c);
      if (sc.type != CurveType::Bezier) {
        out.push_back(sc.type == CurveType::Stepped ? Curve::stepped() : Curve::linear());
        continue;
      }
      const double v0 = track.value(seg, c), dv = track.value(seg + 1, c) - v0;
      if (dv == 0) {
        if (sc.cy1 != v0 || sc.cy2 != v0) ++report.flattened;
        out.push_back(Curve::linear());
        continue;
      }
      double x1 = (sc.cx1 - t0) / dt, x2 = (sc.cx2 - t0) / dt;
      const double t1 = t0 + dt;
      if (std::min(sc.cx1, sc.cx2) < t0 - kSlack || std::max(sc.cx1, sc.cx2) > t1 + kSlack) ++report.clamped_x;
      x1 = std::clamp(x1, 0.0, 1.0);
      x2 = std::clamp(x2, 0.0, 1.0);
      out.push_back(Curve::bezier(static_cast<float>(x1), static_cast<float>((sc.cy1 - v0) / dv),
                                  static_cast<float>(x2), static_cast<float>((sc.cy2 - v0) / dv)));
    }
  }
  return out;
}

}  // namespace mf::offline::spine
