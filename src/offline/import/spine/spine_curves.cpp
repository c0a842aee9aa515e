#include "spine_curves.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

// One key of a component's re-expression: its time (a float), its value, and whether the piece
// that follows it is stepped (a jump) rather than linear.
struct PieceKey {
  double t = 0;
  double v = 0;
  bool stepped_after = false;
};

double next_float_up(double t) {
  return static_cast<double>(std::nextafter(static_cast<float>(t), std::numeric_limits<float>::infinity()));
}
// The largest float at or below t.
double float_at_or_below(double t) {
  const auto f = static_cast<float>(t);
  return static_cast<double>(f) <= t ? static_cast<double>(f)
                                     : static_cast<double>(std::nextafter(f, -std::numeric_limits<float>::infinity()));
}
double next_float_down(double t) {
  return static_cast<double>(std::nextafter(static_cast<float>(t), -std::numeric_limits<float>::infinity()));
}

// The polyline of spine_bezier_value over [t0, t1] as keys (t0 and t1 included, t1 with value v1).
std::vector<PieceKey> polyline_keys(double t0, double v0, const SpineCurve& c, double t1, double v1) {
  constexpr int n = kSpineBezierSteps;
  double x[n + 1], y[n + 1];
  for (int i = 0; i <= n; ++i) {
    const double u = static_cast<double>(i) / n;
    x[i] = cubic(t0, c.cx1, c.cx2, t1, u);
    y[i] = cubic(v0, c.cy1, c.cy2, v1, u);
  }
  x[0] = t0;
  y[0] = v0;
  x[n] = t1;
  y[n] = v1;
  const double tolerance = 1e-6 * std::max({1.0, std::fabs(v0), std::fabs(v1), std::fabs(c.cy1), std::fabs(c.cy2)});
  std::vector<PieceKey> keys{{t0, v0, false}};
  auto add = [&](double t, double v) {
    const double tf = round_float(t);
    if (tf <= keys.back().t || tf >= t1) return false;
    keys.push_back({tf, v, false});
    return true;
  };
  double reached = t0, value_there = v0;  // the latest time the polyline has covered, and its value
  int covering = 0;                         // the point whose piece covered it (0: the key at t0)
  for (int i = 1; i <= n; ++i) {
    if (!(x[i] > reached)) continue;  // a point at or behind what earlier points covered is never read
    const double xa = x[i - 1], ya = y[i - 1], xb = x[i], yb = y[i];
    auto line = [&](double t) { return ya + (yb - ya) * (t - xa) / (xb - xa); };
    if (std::fabs(line(reached) - value_there) > tolerance) {  // the reading jumps just after `reached`
      // The key before the jump at the last float not past it, so that every float time after the
      // jump's key reads the new piece, as the rule does.
      PieceKey& before = keys.back();
      const double at = float_at_or_below(reached);
      if (covering > 0 && at > keys[keys.size() - 2].t) {
        const int p = covering;
        before.t = at;
        before.v = y[p - 1] + (y[p] - y[p - 1]) * (at - x[p - 1]) / (x[p] - x[p - 1]);
      }
      before.stepped_after = true;
      const double after = next_float_up(before.t);
      if (!add(after, line(after))) before.stepped_after = false;
    }
    covering = i;
    if (xb < t1) {
      add(xb, line(round_float(xb)));
      reached = xb;
      value_there = line(xb);
      continue;
    }
    // This piece reaches the segment's end: at t1 the next key's value takes over.
    if (std::fabs(line(t1) - v1) > tolerance) {
      const double before = next_float_down(t1);
      if (add(before, line(before))) keys.back().stepped_after = true;
    }
    break;
  }
  keys.push_back({t1, v1, false});
  return keys;
}

// The value of a re-expression at time t within its span.
double piece_value(const std::vector<PieceKey>& keys, double t) {
  for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
    const PieceKey& a = keys[k];
    const PieceKey& b = keys[k + 1];
    if (t == a.t) return a.v;
    if (t < b.t) return a.stepped_after ? a.v : a.v + (b.v - a.v) * (t - a.t) / (b.t - a.t);
  }
  return keys.back().v;
}

// Whether the piece of a re-expression that holds the time span starting at t is stepped.
bool piece_stepped(const std::vector<PieceKey>& keys, double t) {
  for (std::size_t k = 0; k + 1 < keys.size(); ++k)
    if (t >= keys[k].t && t < keys[k + 1].t) return keys[k].stepped_after;
  return false;
}

bool reaches_outside(const KeyTrack& track, std::size_t segment, int component) {
  const SpineCurve& c = track.curve(segment, component);
  const double t0 = track.times[segment], t1 = track.times[segment + 1];
  return c.type == CurveType::Bezier && (std::min(c.cx1, c.cx2) < t0 || std::max(c.cx1, c.cx2) > t1);
}

}  // namespace

double spine_bezier_value(double t0, double v0, const SpineCurve& c, double t1, double v1, double t) {
  if (c.type == CurveType::Stepped) return t < t1 ? v0 : v1;
  if (t <= t0) return v0;
  if (t >= t1) return v1;
  if (c.type == CurveType::Linear) return v0 + (v1 - v0) * (t - t0) / (t1 - t0);
  constexpr int n = kSpineBezierSteps;
  double xa = t0, ya = v0;
  for (int i = 1; i <= n; ++i) {
    const double u = static_cast<double>(i) / n;
    const double xb = i == n ? t1 : cubic(t0, c.cx1, c.cx2, t1, u), yb = i == n ? v1 : cubic(v0, c.cy1, c.cy2, v1, u);
    if (xb >= t) return xb == xa ? yb : ya + (yb - ya) * (t - xa) / (xb - xa);
    xa = xb;
    ya = yb;
  }
  return v1;
}

int reexpress_as_polylines(KeyTrack& track) {
  int reexpressed = 0;
  for (std::size_t seg = 0; seg + 1 < track.key_count();) {
    bool outside = false;
    for (int c = 0; c < track.curved; ++c)
      outside = outside || reaches_outside(track, seg, c) || is_flat_overshoot(track, seg, c);
    if (!outside) {
      ++seg;
      continue;
    }
    // Every bezier component of the segment takes Spine's reading, so that all of them match it;
    // linear and stepped ones are split exactly by insert_key.
    std::vector<int> components;
    for (int c = 0; c < track.curved; ++c)
      if (track.curve(seg, c).type == CurveType::Bezier) components.push_back(c);
    ++reexpressed;
    const double t0 = track.times[seg], t1 = track.times[seg + 1];
    std::vector<std::vector<PieceKey>> pieces;
    std::vector<double> cuts;
    for (int c : components) {
      pieces.push_back(polyline_keys(t0, track.value(seg, c), track.curve(seg, c), t1, track.value(seg + 1, c)));
      for (std::size_t k = 1; k + 1 < pieces.back().size(); ++k) cuts.push_back(pieces.back()[k].t);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::size_t at = seg;
    for (double cut : cuts) {
      if (cut <= track.times[at] || cut >= t1) continue;
      insert_key(track, at, cut);
      ++at;
    }
    // Keys seg … at + 1 now span the old segment: the re-expressed components take their pieces.
    for (std::size_t i = 0; i < components.size(); ++i) {
      const int c = components[i];
      for (std::size_t k = seg; k <= at; ++k) {
        if (k > seg) track.values[k * static_cast<std::size_t>(track.components) + static_cast<std::size_t>(c)] =
            round_float(piece_value(pieces[i], track.times[k]));
        track.curve(k, c) = piece_stepped(pieces[i], track.times[k]) ? SpineCurve::stepped() : SpineCurve::linear();
      }
    }
    seg = at + 1;
  }
  return reexpressed;
}

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
