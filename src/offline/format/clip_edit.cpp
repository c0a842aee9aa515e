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

double bezier_y(const Curve& c, double s) {
  const double u = 1 - s;
  return 3 * u * u * s * c.cy1 + 3 * u * s * s * c.cy2 + s * s * s;
}

// The value fraction of a segment curve at time fraction `fraction`.
double curve_fraction(const Curve& c, double fraction) {
  switch (c.type) {
    case CurveType::Linear: return fraction;
    case CurveType::Stepped: return 0;
    case CurveType::Bezier: return bezier_y(c, solve_parameter(c, fraction));
  }
  return fraction;
}

CurveTimeline* find_timeline(ClipSource& clip, CurveKind kind, std::string_view target) {
  for (CurveTimeline& tl : clip.curves)
    if (tl.kind == kind && tl.target == target) return &tl;
  return nullptr;
}

bool masked(std::uint32_t mask, std::size_t c) { return c < 32 && ((mask >> c) & 1u); }

}  // namespace

std::string curve_problem(const Curve& curve) {
  return curve.type == CurveType::Bezier ? describe_curve_problem(curve) : std::string();
}

float curve_value_at(const CurveTimeline& tl, int component, float t) {
  const CurveLayout& lay = layout(tl.kind);
  const std::size_t comps = static_cast<std::size_t>(lay.components), curved = static_cast<std::size_t>(lay.curved);
  const std::size_t c = static_cast<std::size_t>(component);
  const std::size_t n = tl.times.size();
  if (n == 0) return 0;
  if (t <= tl.times[0]) return tl.values[c];
  if (t >= tl.times[n - 1]) return tl.values[(n - 1) * comps + c];
  const std::size_t k =
      static_cast<std::size_t>(std::upper_bound(tl.times.begin(), tl.times.end(), t) - tl.times.begin()) - 1;
  const float v0 = tl.values[k * comps + c], v1 = tl.values[(k + 1) * comps + c];
  if (c >= curved) return v0;
  const double fraction = (static_cast<double>(t) - tl.times[k]) / (static_cast<double>(tl.times[k + 1]) - tl.times[k]);
  return static_cast<float>(v0 + curve_fraction(tl.curves[k * curved + c], fraction) * (static_cast<double>(v1) - v0));
}

bool set_curve_key(ClipSource& clip, CurveKind kind, std::string_view target, std::uint32_t components, float t,
                   std::span<const float> values, std::span<const Curve> curves, std::span<const float> fill) {
  const CurveLayout& lay = layout(kind);
  const std::size_t comps = static_cast<std::size_t>(lay.components);
  const std::size_t curved = static_cast<std::size_t>(lay.curved);
  const bool channels = !lay.channel_names.empty();
  const std::uint32_t all = comps >= 32 ? ~0u : (1u << comps) - 1;
  if (!channels) components = all;
  auto curve_for = [&](std::size_t c) -> std::optional<Curve> {
    if (curves.empty() || !masked(components, c)) return std::nullopt;
    return curves[c];
  };

  CurveTimeline* found = find_timeline(clip, kind, target);
  if (!found) {
    CurveTimeline tl;
    tl.kind = kind;
    tl.target = std::string(target);
    tl.channels = channels ? (components & all) : ~0u;
    tl.times = {t};
    tl.values.assign(comps, 0.0f);
    for (std::size_t c = 0; c < comps; ++c)
      if (masked(components, c)) tl.values[c] = values[c];
    clip.curves.push_back(std::move(tl));
    sort_timelines(clip);
    return true;
  }

  CurveTimeline& tl = *found;
  const std::size_t n = tl.times.size();

  // Components keyed for the first time take `fill` at every existing key; their curves are linear.
  if (channels) {
    for (std::size_t c = 0; c < comps; ++c) {
      if (!masked(components, c) || tl.keyed(static_cast<int>(c))) continue;
      for (std::size_t k = 0; k < n; ++k) tl.values[k * comps + c] = fill[c];
      if (c < curved)
        for (std::size_t s = 0; s + 1 < n; ++s) tl.curves[s * curved + c] = Curve::linear();
      tl.channels |= 1u << c;
    }
  }

  // Replace the key at t.
  for (std::size_t i = 0; i < n; ++i) {
    if (std::fabs(tl.times[i] - t) > kKeyTimeEpsilon) continue;
    for (std::size_t c = 0; c < comps; ++c)
      if (masked(components, c)) tl.values[i * comps + c] = values[c];
    if (n > 1) {
      const std::size_t segment = i + 1 < n ? i : i - 1;
      for (std::size_t c = 0; c < curved; ++c)
        if (const std::optional<Curve> cv = curve_for(c)) tl.curves[segment * curved + c] = *cv;
    }
    return false;
  }

  // Insert a new key before index `at`; unmasked components take the timeline's value at t.
  const std::size_t at =
      static_cast<std::size_t>(std::upper_bound(tl.times.begin(), tl.times.end(), t) - tl.times.begin());
  std::vector<float> key(comps, 0.0f);
  for (std::size_t c = 0; c < comps; ++c) {
    if (masked(components, c))
      key[c] = values[c];
    else if (tl.keyed(static_cast<int>(c)))
      key[c] = curve_value_at(tl, static_cast<int>(c), t);
  }
  tl.times.insert(tl.times.begin() + static_cast<std::ptrdiff_t>(at), t);
  tl.values.insert(tl.values.begin() + static_cast<std::ptrdiff_t>(at * comps), key.begin(), key.end());

  std::vector<Curve> halves(curved);  // the curves of the segment that starts at the new key
  if (at == 0 || at == n) {
    // Before the first key the new segment starts at the new key; after the last it ends there.
    for (std::size_t c = 0; c < curved; ++c) halves[c] = curve_for(c).value_or(Curve::linear());
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
      halves[c] = curve_for(c).value_or(right);
    }
    tl.curves.insert(tl.curves.begin() + static_cast<std::ptrdiff_t>(at * curved), halves.begin(), halves.end());
  }
  return true;
}

bool set_key_curve(ClipSource& clip, CurveKind kind, std::string_view target, std::uint32_t components, float t,
                   std::span<const Curve> curves, KeySegment which) {
  CurveTimeline* tl = find_timeline(clip, kind, target);
  if (!tl || tl->times.size() < 2) return false;
  const std::size_t n = tl->times.size();
  const auto at = std::find_if(tl->times.begin(), tl->times.end(), [&](float k) { return std::fabs(k - t) <= kKeyTimeEpsilon; });
  if (at == tl->times.end()) return false;
  const std::size_t i = static_cast<std::size_t>(at - tl->times.begin());
  const bool last = i + 1 == n;
  if (last != (which == KeySegment::BeforeLast)) return false;
  const std::size_t segment = last ? i - 1 : i;
  const std::size_t curved = static_cast<std::size_t>(layout(kind).curved);
  if (layout(kind).channel_names.empty()) components = ~0u;
  for (std::size_t c = 0; c < curved; ++c)
    if (masked(components, c)) tl->curves[segment * curved + c] = curves[c];
  return true;
}

std::optional<std::size_t> remove_curve_key(ClipSource& clip, CurveKind kind, std::string_view target, float t) {
  CurveTimeline* tl = find_timeline(clip, kind, target);
  if (!tl) return std::nullopt;
  const std::size_t n = tl->times.size();
  const auto at = std::find_if(tl->times.begin(), tl->times.end(), [&](float k) { return std::fabs(k - t) <= kKeyTimeEpsilon; });
  if (at == tl->times.end()) return std::nullopt;
  const std::size_t i = static_cast<std::size_t>(at - tl->times.begin());
  if (n == 1) {
    clip.curves.erase(clip.curves.begin() + (tl - clip.curves.data()));
    return 0;
  }
  const std::size_t comps = static_cast<std::size_t>(layout(kind).components);
  const std::size_t curved = static_cast<std::size_t>(layout(kind).curved);
  tl->times.erase(at);
  tl->values.erase(tl->values.begin() + static_cast<std::ptrdiff_t>(i * comps),
                   tl->values.begin() + static_cast<std::ptrdiff_t>((i + 1) * comps));
  // The last key ends segment n − 2; any other key starts segment i, which goes.
  const std::size_t segment = i + 1 < n ? i : i - 1;
  tl->curves.erase(tl->curves.begin() + static_cast<std::ptrdiff_t>(segment * curved),
                   tl->curves.begin() + static_cast<std::ptrdiff_t>((segment + 1) * curved));
  return n - 1;
}

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

  std::vector<Curve> curves;
  if (curve) curves.assign(static_cast<std::size_t>(lay.curved), *curve);
  set_curve_key(clip, kind, bone, ~0u, t, values, curves, {});
  return {};
}

}  // namespace mf::offline
