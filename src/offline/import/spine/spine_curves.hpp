#pragma once
// Spine 4.x curves turned into ours. Spine stores a bezier per key and per interpolated component as
// absolute control points (time, value); ours are normalised to the segment (x = time fraction,
// y = value fraction). A segment that cannot be normalised as Spine reads it (handles outside the
// segment in time; equal key values with handles that leave that value) is re-expressed as Spine's
// polyline reading of it (reexpress_as_polylines). Not installed.

#include <cstddef>
#include <vector>

#include "mf/offline/format/clip_model.hpp"

namespace mf::offline::spine {

// One segment's interpolation as Spine stores it: control points in absolute time and value.
struct SpineCurve {
  CurveType type = CurveType::Linear;
  double cx1 = 0, cy1 = 0, cx2 = 0, cy2 = 0;  // Bezier only

  static SpineCurve linear() { return {}; }
  static SpineCurve stepped() { return {CurveType::Stepped}; }
  static SpineCurve bezier(double x1, double y1, double x2, double y2) { return {CurveType::Bezier, x1, y1, x2, y2}; }
};

// A numeric timeline in Spine's terms, being converted. Components [0, curved) interpolate along their
// own curve per segment; components [curved, components) hold their value to the next key.
struct KeyTrack {
  int components = 1;
  int curved = 1;
  std::vector<double> times;
  std::vector<double> values;       // times.size() × components, key-major
  std::vector<SpineCurve> curves;   // (times.size() − 1) × curved, segment-major

  std::size_t key_count() const { return times.size(); }
  double value(std::size_t key, int component) const { return values[key * components + component]; }
  SpineCurve& curve(std::size_t segment, int component) { return curves[segment * curved + component]; }
  const SpineCurve& curve(std::size_t segment, int component) const { return curves[segment * curved + component]; }
};

// Negates a component: its key values and its bezier y control values (an axis flip). The normalised
// curve is unchanged by this, as numerator and denominator both change sign.
void negate_component(KeyTrack& track, int component);

// Rounds times and values to the floats the clip model keeps, so that every later step (splitting,
// normalising) works on exactly the numbers that will be stored.
void round_to_float(KeyTrack& track);

// The value of `component` at time `t` (exact: beziers are solved, not sampled). Before the first key
// the first value, after the last the last.
double evaluate(const KeyTrack& track, int component, double t);

// Inserts a key at time `t` inside segment `segment` (t strictly between its keys). Every curved
// component's segment is split there exactly: a bezier by de Casteljau at the parameter whose time is
// `t`, a linear segment into two linear ones, a stepped one into two stepped ones; held components
// keep their value. The new key's time and values are rounded to float.
void insert_key(KeyTrack& track, std::size_t segment, double t);

// Splits every segment whose curved component has equal key values but a bezier whose handles leave
// that value, at the curve's extrema in time, so that no overshoot is lost when normalising (exact
// for the curve; the import uses reexpress_as_polylines instead, which matches Spine's reading).
// Returns the number of keys inserted.
int split_flat_overshoots(KeyTrack& track);

// Spine's evaluation of a bezier segment, measured against its runtime: the curve is sampled at
// kSpineBezierSteps equal steps of its parameter (points i = 0 … steps, u = i / steps), and the value
// at a time t in (t0, t1) is read off that polyline in time: the first point i ≥ 1 whose time is ≥ t,
// interpolated linearly from point i − 1. When the handles keep x(u) monotonic this is within a hair
// of the exact curve; when a handle reaches outside the segment in time it is what Spine shows.
inline constexpr int kSpineBezierSteps = 10;
double spine_bezier_value(double t0, double v0, const SpineCurve& curve, double t1, double v1, double t);

// Re-expresses every segment our normalised bezier cannot carry as Spine reads it: one whose bezier
// handles reach outside it in time, by any amount (our curves keep x in [0, 1]; even a handle just
// past the end by the export's rounding of handle times changes Spine's polyline), or one whose key
// values are equal while its handles leave that value (no value span to normalise by; splitting it
// into beziers would change the polyline Spine reads). Every bezier component of such a segment
// becomes the polyline Spine reads
// (spine_bezier_value), as linear pieces, with a stepped piece one float step long where the
// polyline's reading jumps (the key before it at the last float not past the jump); keys are inserted
// at the pieces' ends, and linear and stepped components are split there exactly (insert_key).
// Returns the number of segments re-expressed.
int reexpress_as_polylines(KeyTrack& track);

// What normalising lost, for the import report.
struct NormaliseReport {
  int clamped_x = 0;   // beziers with x control values outside the segment (beyond export rounding), clamped
  int flattened = 0;   // flat segments whose handles left the value and could not be split
};

// The normalised curves of the track, (key_count() − 1) × curved, segment-major, as CurveTimeline
// holds them: x = (cx − t0) / (t1 − t0), y = (cy − v0) / (v1 − v0). A segment whose value span is zero
// is linear (its value is constant; reexpress_as_polylines has already taken out any overshoot).
std::vector<Curve> normalised_curves(const KeyTrack& track, NormaliseReport& report);

}  // namespace mf::offline::spine
