#include "mf/offline/format/clip_edit.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "mf/core/math/vec2.hpp"
#include "mf/offline/json/json_path.hpp"
#include "mf/offline/json/json_writer.hpp"

namespace mf::offline {
namespace {

double bezier_x(const Curve& c, double s) {
  const double u = 1 - s;
  return 3 * u * u * s * c.cx1 + 3 * u * s * s * c.cx2 + s * s * s;
}

// The curve parameter whose x is `fraction`. x(0) = 0 and x(1) = 1, so bisection always finds a root;
// for a valid curve (x controls in [0, 1]) x is monotonic and the root is the only one.
double solve_parameter(const Curve& c, double fraction) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 64; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (bezier_x(c, mid) < fraction)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

// Control points p1, p2 of a cubic from `from` to `to`, renormalised to the unit square. A zero value
// span makes every y shape flat, so y then follows x.
Curve normalised(Vec2d from, Vec2d p1, Vec2d p2, Vec2d to) {
  const double w = to.x - from.x, h = to.y - from.y;
  const double x1 = (p1.x - from.x) / w, x2 = (p2.x - from.x) / w;
  double y1 = x1, y2 = x2;
  if (std::fabs(h) > 1e-9) {
    y1 = (p1.y - from.y) / h;
    y2 = (p2.y - from.y) / h;
  }
  auto clamp01 = [](double x) { return static_cast<float>(std::clamp(x, 0.0, 1.0)); };
  return Curve::bezier(clamp01(x1), static_cast<float>(y1), clamp01(x2), static_cast<float>(y2));
}

// Splits a normalised segment curve at time fraction `fraction` in (0, 1) into the curves of the two
// halves, each normalised to its own half.
std::pair<Curve, Curve> split(const Curve& c, double fraction) {
  if (c.type != CurveType::Bezier) return {c, c};
  const double s = solve_parameter(c, fraction);
  const Vec2d p0{0, 0}, p1{c.cx1, c.cy1}, p2{c.cx2, c.cy2}, p3{1, 1};
  const Vec2d p01 = lerp(p0, p1, s), p12 = lerp(p1, p2, s), p23 = lerp(p2, p3, s);
  const Vec2d p012 = lerp(p01, p12, s), p123 = lerp(p12, p23, s);
  const Vec2d mid = lerp(p012, p123, s);
  return {normalised(p0, p01, p012, mid), normalised(mid, p123, p23, p3)};
}

std::string describe_curve_problem(const Curve& c) {
  for (float v : {c.cx1, c.cy1, c.cx2, c.cy2})
    if (!std::isfinite(v)) return "bezier control values must be finite";
  for (float x : {c.cx1, c.cx2})
    if (x < 0 || x > 1) return "bezier x control value " + json::format_float(x) + " is outside [0, 1]";
  return {};
}

}  // namespace

Status set_bone_key(ClipSource& clip, std::string_view bone, CurveKind kind, float t, std::span<const float> values,
                    std::optional<Curve> curve) {
  const CurveLayout& lay = layout(kind);
  const std::string path = json::path_key(json::path_key("bones", bone), lay.name);
  auto fail = [&](const std::string& message) { return Unexpected{Error{{}, path, {}, message}}; };

  if (lay.target != TimelineTarget::Bone) return fail("\"" + std::string(lay.name) + "\" is not a bone timeline");
  if (bone.empty()) return fail("the bone name is empty");
  if (values.size() != static_cast<std::size_t>(lay.components))
    return fail("a " + std::string(lay.name) + " key takes " + std::to_string(lay.components) + " value" +
                (lay.components == 1 ? "" : "s") + ", found " + std::to_string(values.size()));
  for (float v : values)
    if (!std::isfinite(v)) return fail("key values must be finite");
  if (!std::isfinite(t) || t < 0) return fail("the key time must be a number >= 0");
  if (t > clip.length)
    return fail("the key time " + json::format_float(t) + " is past the clip's length " +
                json::format_float(clip.length));
  if (curve && curve->type == CurveType::Bezier)
    if (std::string problem = describe_curve_problem(*curve); !problem.empty()) return fail(problem);

  const std::size_t comps = static_cast<std::size_t>(lay.components);
  const std::size_t curved = static_cast<std::size_t>(lay.curved);

  auto found = std::find_if(clip.curves.begin(), clip.curves.end(),
                            [&](const CurveTimeline& tl) { return tl.kind == kind && tl.target == bone; });
  if (found == clip.curves.end()) {
    CurveTimeline tl;
    tl.kind = kind;
    tl.target = std::string(bone);
    tl.times = {t};
    tl.values.assign(values.begin(), values.end());
    clip.curves.push_back(std::move(tl));
    sort_timelines(clip);
    return {};
  }

  CurveTimeline& tl = *found;
  const std::size_t n = tl.times.size();
  auto set_segment = [&](std::size_t segment, const Curve& c) {
    std::fill_n(tl.curves.begin() + static_cast<std::ptrdiff_t>(segment * curved), curved, c);
  };

  // Replace the key at t.
  for (std::size_t i = 0; i < n; ++i) {
    if (std::fabs(tl.times[i] - t) > kKeyTimeEpsilon) continue;
    std::copy(values.begin(), values.end(), tl.values.begin() + static_cast<std::ptrdiff_t>(i * comps));
    if (curve && n > 1) set_segment(i + 1 < n ? i : i - 1, *curve);
    return {};
  }

  // Insert a new key before index `at`.
  const std::size_t at =
      static_cast<std::size_t>(std::upper_bound(tl.times.begin(), tl.times.end(), t) - tl.times.begin());
  tl.times.insert(tl.times.begin() + static_cast<std::ptrdiff_t>(at), t);
  tl.values.insert(tl.values.begin() + static_cast<std::ptrdiff_t>(at * comps), values.begin(), values.end());
  if (n == 0) return {};

  std::vector<Curve> halves;  // the curves of the segment that starts at the new key
  if (at == 0 || at == n) {
    // Before the first key the new segment starts at the new key; after the last it ends there.
    halves.assign(curved, curve.value_or(Curve::linear()));
    const std::size_t segment = at == 0 ? 0 : n - 1;
    tl.curves.insert(tl.curves.begin() + static_cast<std::ptrdiff_t>(segment * curved), halves.begin(), halves.end());
  } else {
    const std::size_t segment = at - 1;
    const double t0 = tl.times[segment], t1 = tl.times[at + 1];
    const double fraction = (static_cast<double>(t) - t0) / (t1 - t0);
    for (std::size_t c = 0; c < curved; ++c) {
      Curve& old = tl.curves[segment * curved + c];
      auto [left, right] = split(old, fraction);
      old = left;
      halves.push_back(curve.value_or(right));
    }
    tl.curves.insert(tl.curves.begin() + static_cast<std::ptrdiff_t>(at * curved), halves.begin(), halves.end());
  }
  sort_timelines(clip);
  return {};
}

}  // namespace mf::offline
