// Spine curves to ours: exact normalisation, and exact splitting of flat segments whose handles leave
// their value, checked against hand computation and against the original Spine bezier.

#include <gtest/gtest.h>

#include <cmath>

#include "../../../../src/offline/import/spine/spine_curves.hpp"
#include "mf/anim/curve.hpp"

namespace mf::offline::spine {
namespace {

// Normalised control values are computed in double and stored as float.
constexpr float kNormalisedTolerance = 1e-6f;
// Inserted key times and values against the closed-form extremum.
constexpr double kKeyTolerance = 1e-5;
// Our curve (exact bezier solve) against Spine's at sample times, in value units.
constexpr double kCurveTolerance = 1e-3;

double cubic(double p0, double p1, double p2, double p3, double s) {
  const double u = 1 - s;
  return u * u * u * p0 + 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s * p3;
}

// Spine's segment at time t, solved independently of the code under test (Newton from a bisection
// start would do as well; plain bisection keeps it obvious).
double spine_bezier(double t0, double v0, double cx1, double cy1, double cx2, double cy2, double t1, double v1,
                    double t) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    (cubic(t0, cx1, cx2, t1, mid) < t ? lo : hi) = mid;
  }
  return cubic(v0, cy1, cy2, v1, (lo + hi) / 2);
}

// Our representation at time t: the segment's normalised curve, evaluated with the runtime's exact
// evaluator, scaled to the key values.
double ours(const KeyTrack& track, const std::vector<Curve>& curves, int component, double t) {
  std::size_t seg = 0;
  while (seg + 2 < track.key_count() && t >= track.times[seg + 1]) ++seg;
  const double t0 = track.times[seg], t1 = track.times[seg + 1];
  const double v0 = track.value(seg, component), v1 = track.value(seg + 1, component);
  const Curve& c = curves[seg * static_cast<std::size_t>(track.curved) + static_cast<std::size_t>(component)];
  const float x = static_cast<float>((t - t0) / (t1 - t0));
  double f = x;
  if (c.type == CurveType::Stepped) f = x < 1 ? 0 : 1;
  if (c.type == CurveType::Bezier) f = anim::evaluate_bezier_exact(c.cx1, c.cy1, c.cx2, c.cy2, x);
  return v0 + (v1 - v0) * f;
}

KeyTrack one_segment(double t0, double v0, SpineCurve curve, double t1, double v1) {
  KeyTrack track;
  track.times = {t0, t1};
  track.values = {v0, v1};
  track.curves = {curve};
  return track;
}

TEST(SpineCurves, NormalisesAbsoluteControlPointsPerSegment) {
  // Segment (1, 10) → (3, 30); handles (1.5, 12) and (2.5, 40): x = (cx − 1) / 2, y = (cy − 10) / 20.
  KeyTrack track = one_segment(1, 10, SpineCurve::bezier(1.5, 12, 2.5, 40), 3, 30);
  NormaliseReport report;
  const auto curves = normalised_curves(track, report);
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].type, CurveType::Bezier);
  EXPECT_NEAR(curves[0].cx1, 0.25f, kNormalisedTolerance);
  EXPECT_NEAR(curves[0].cy1, 0.1f, kNormalisedTolerance);
  EXPECT_NEAR(curves[0].cx2, 0.75f, kNormalisedTolerance);
  EXPECT_NEAR(curves[0].cy2, 1.5f, kNormalisedTolerance);
  EXPECT_EQ(report.clamped_x, 0);
  EXPECT_EQ(report.flattened, 0);
}

TEST(SpineCurves, NegatingAComponentKeepsItsNormalisedCurve) {
  KeyTrack track = one_segment(0, 30, SpineCurve::bezier(0.2, 45, 0.6, -5), 0.8, 10);
  NormaliseReport report;
  const auto before = normalised_curves(track, report);
  negate_component(track, 0);
  EXPECT_EQ(track.values, (std::vector<double>{-30, -10}));
  EXPECT_EQ(track.curves[0].cy1, -45);
  EXPECT_EQ(track.curves[0].cy2, 5);
  const auto after = normalised_curves(track, report);
  EXPECT_NEAR(after[0].cy1, before[0].cy1, kNormalisedTolerance);
  EXPECT_NEAR(after[0].cy2, before[0].cy2, kNormalisedTolerance);
  EXPECT_EQ(after[0].cx1, before[0].cx1);
}

TEST(SpineCurves, LinearAndSteppedStayWhatTheyAre) {
  KeyTrack track;
  track.times = {0, 1, 2};
  track.values = {0, 5, 5};
  track.curves = {SpineCurve::stepped(), SpineCurve::linear()};
  NormaliseReport report;
  EXPECT_EQ(normalised_curves(track, report), (std::vector<Curve>{Curve::stepped(), Curve::linear()}));
}

TEST(SpineCurves, SymmetricFlatOvershootSplitsAtItsMiddle) {
  // v0 = v1 = 0, handles at +10 over [0, 1]: by symmetry the extremum is at s = 0.5, where
  // t = 3·0.25·0.5·0.25 + 3·0.5·0.25·0.75 + 0.125 = 0.5 and v = 3·0.125·10 + 3·0.125·10 = 7.5.
  const SpineCurve spine = SpineCurve::bezier(0.25, 10, 0.75, 10);
  KeyTrack track = one_segment(0, 0, spine, 1, 0);
  EXPECT_EQ(split_flat_overshoots(track), 1);
  ASSERT_EQ(track.key_count(), 3u);
  EXPECT_NEAR(track.times[1], 0.5, kKeyTolerance);
  EXPECT_NEAR(track.values[1], 7.5, kKeyTolerance);
  NormaliseReport report;
  const auto curves = normalised_curves(track, report);
  ASSERT_EQ(curves.size(), 2u);
  EXPECT_EQ(report.flattened, 0);
  for (int i = 0; i <= 50; ++i) {
    const double t = i / 50.0;
    EXPECT_NEAR(ours(track, curves, 0, t), spine_bezier(0, 0, 0.25, 10, 0.75, 10, 1, 0, t), kCurveTolerance) << t;
  }
}

TEST(SpineCurves, AsymmetricFlatOvershootSplitsAtTheExtremumOfTheValueCurve) {
  // Segment (2, 4) → (3, 4), handles (2.1, 14) and (2.9, 7). Value control differences 10, −7, −3:
  // dy/ds ∝ 21 s² − 34 s + 10, whose root in (0, 1) is s = (34 − √316) / 42.
  const double s = (34 - std::sqrt(316.0)) / 42;
  const double t_expected = cubic(2, 2.1, 2.9, 3, s), v_expected = cubic(4, 14, 7, 4, s);
  KeyTrack track = one_segment(2, 4, SpineCurve::bezier(2.1, 14, 2.9, 7), 3, 4);
  EXPECT_EQ(split_flat_overshoots(track), 1);
  ASSERT_EQ(track.key_count(), 3u);
  EXPECT_NEAR(track.times[1], t_expected, kKeyTolerance);
  EXPECT_NEAR(track.values[1], v_expected, kKeyTolerance);
  NormaliseReport report;
  const auto curves = normalised_curves(track, report);
  for (int i = 0; i <= 50; ++i) {
    const double t = 2 + i / 50.0;
    EXPECT_NEAR(ours(track, curves, 0, t), spine_bezier(2, 4, 2.1, 14, 2.9, 7, 3, 4, t), kCurveTolerance) << t;
  }
}

TEST(SpineCurves, FlatSegmentWithTwoExtremaGetsTwoKeys) {
  const SpineCurve spine = SpineCurve::bezier(0.4, 10, 0.8, -10);
  KeyTrack track = one_segment(0, 0, spine, 1.2, 0);
  EXPECT_EQ(split_flat_overshoots(track), 2);
  ASSERT_EQ(track.key_count(), 4u);
  EXPECT_GT(track.values[1], 0);
  EXPECT_LT(track.values[2], 0);
  NormaliseReport report;
  const auto curves = normalised_curves(track, report);
  for (int i = 0; i <= 50; ++i) {
    const double t = 1.2 * i / 50.0;
    EXPECT_NEAR(ours(track, curves, 0, t), spine_bezier(0, 0, 0.4, 10, 0.8, -10, 1.2, 0, t), kCurveTolerance) << t;
  }
}

TEST(SpineCurves, FlatSegmentWhoseHandlesStayIsNotSplit) {
  KeyTrack track = one_segment(0, 3, SpineCurve::bezier(0.3, 3, 0.6, 3), 1, 3);
  EXPECT_EQ(split_flat_overshoots(track), 0);
  NormaliseReport report;
  EXPECT_EQ(normalised_curves(track, report), std::vector<Curve>{Curve::linear()});
  EXPECT_EQ(report.flattened, 0);
}

TEST(SpineCurves, SplitInsertsTheKeyForEveryComponentAtTheSameTime) {
  // Two components: x eases 0 → 100 with its own handles, y is flat at 0 with handles at −8.
  KeyTrack track;
  track.components = track.curved = 2;
  track.times = {0, 2};
  track.values = {0, 0, 100, 0};
  const SpineCurve x = SpineCurve::bezier(0.5, 0, 1.5, 100), y = SpineCurve::bezier(0.2, -8, 1.0, -8);
  track.curves = {x, y};
  EXPECT_EQ(split_flat_overshoots(track), 1);
  ASSERT_EQ(track.key_count(), 3u);
  ASSERT_EQ(track.values.size(), 6u);
  ASSERT_EQ(track.curves.size(), 4u);
  const double tk = track.times[1];
  EXPECT_NEAR(track.value(1, 0), spine_bezier(0, 0, 0.5, 0, 1.5, 100, 2, 100, tk), kKeyTolerance);
  NormaliseReport report;
  const auto curves = normalised_curves(track, report);
  for (int i = 0; i <= 50; ++i) {
    const double t = 2 * i / 50.0;
    EXPECT_NEAR(ours(track, curves, 0, t), spine_bezier(0, 0, 0.5, 0, 1.5, 100, 2, 100, t), kCurveTolerance) << t;
    EXPECT_NEAR(ours(track, curves, 1, t), spine_bezier(0, 0, 0.2, -8, 1.0, -8, 2, 0, t), kCurveTolerance) << t;
  }
}

TEST(SpineCurves, InsertKeySplitsLinearSteppedAndHeldComponents) {
  KeyTrack track;
  track.components = 3;
  track.curved = 2;
  track.times = {0, 1};
  track.values = {0, 10, -1, 4, 20, 1};
  track.curves = {SpineCurve::linear(), SpineCurve::stepped()};
  insert_key(track, 0, 0.25);
  ASSERT_EQ(track.key_count(), 3u);
  EXPECT_EQ(track.times[1], 0.25);
  EXPECT_DOUBLE_EQ(track.value(1, 0), 1);   // linear: a quarter of the way
  EXPECT_DOUBLE_EQ(track.value(1, 1), 10);  // stepped: holds
  EXPECT_DOUBLE_EQ(track.value(1, 2), -1);  // held component
  EXPECT_EQ(track.curve(1, 1).type, CurveType::Stepped);
  EXPECT_EQ(track.curve(0, 0).type, CurveType::Linear);
}

TEST(SpineCurves, HandlesOutsideTheSegmentAreClampedAndReported) {
  KeyTrack track = one_segment(0, 0, SpineCurve::bezier(-0.5, 1, 0.5, 1), 1, 1);
  NormaliseReport report;
  const auto curves = normalised_curves(track, report);
  EXPECT_EQ(report.clamped_x, 1);
  EXPECT_EQ(curves[0].cx1, 0);
}

TEST(SpineCurves, HandlesPastTheEndByExportRoundingAreClampedQuietly) {
  // Key times are written with 4 decimals and handles with 3: 0.467 on a segment ending at 0.4667.
  KeyTrack track = one_segment(0.2667, 0, SpineCurve::bezier(0.42, 1, 0.467, 1), 0.4667, 1);
  NormaliseReport report;
  const auto curves = normalised_curves(track, report);
  EXPECT_EQ(report.clamped_x, 0);
  EXPECT_EQ(curves[0].cx2, 1);
}

TEST(SpineCurves, EvaluateMatchesTheBezierAndHoldsOutsideTheKeys) {
  KeyTrack track = one_segment(1, 2, SpineCurve::bezier(1.2, 5, 1.8, -3), 2, 6);
  EXPECT_EQ(evaluate(track, 0, 0), 2);
  EXPECT_EQ(evaluate(track, 0, 3), 6);
  EXPECT_NEAR(evaluate(track, 0, 1.37), spine_bezier(1, 2, 1.2, 5, 1.8, -3, 2, 6, 1.37), 1e-9);
}

TEST(SpineCurves, SegmentsWithHandlesInsideAreNotReexpressed) {
  KeyTrack track = one_segment(0, 0, SpineCurve::bezier(0.25, 1, 0.75, 2), 1, 3);
  const KeyTrack before = track;
  EXPECT_EQ(reexpress_as_polylines(track), 0);
  EXPECT_EQ(track.times, before.times);
  EXPECT_EQ(track.values, before.values);
}

// A handle behind the segment's start: x(u) turns back in time. The component becomes linear and
// stepped pieces that give Spine's polyline reading; so does the segment's other bezier component
// (handles inside), which then reads as Spine reads it too.
TEST(SpineCurves, HandlesOutsideBecomePiecesOfSpinesPolyline) {
  KeyTrack track;
  track.components = track.curved = 2;
  track.times = {1, 2};
  track.values = {0, 10, 8, 30};
  track.curves = {SpineCurve::bezier(1.05, 0, 0.2, 8), SpineCurve::bezier(1.3, 12, 1.6, 25)};
  const KeyTrack original = track;
  round_to_float(track);
  EXPECT_EQ(reexpress_as_polylines(track), 1);
  ASSERT_GT(track.key_count(), 3u);
  bool stepped = false;
  for (std::size_t s = 0; s + 1 < track.key_count(); ++s) {
    EXPECT_NE(track.curve(s, 0).type, CurveType::Bezier) << s;
    stepped = stepped || track.curve(s, 0).type == CurveType::Stepped;
    EXPECT_EQ(track.curve(s, 1).type, CurveType::Linear) << s;
  }
  EXPECT_TRUE(stepped) << "the reading jumps where the polyline turns back";
  NormaliseReport report;
  const std::vector<Curve> curves = normalised_curves(track, report);
  EXPECT_EQ(report.clamped_x, 0);
  for (int i = 0; i < 400; ++i) {
    const double t = 1 + (i + 0.37) / 400.0;
    const double expected0 = spine_bezier_value(1, 0, original.curve(0, 0), 2, 8, t);
    EXPECT_NEAR(evaluate(track, 0, t), expected0, 1e-4) << t;
    EXPECT_NEAR(ours(track, curves, 0, t), expected0, 1e-4) << t;
    EXPECT_NEAR(evaluate(track, 1, t), spine_bezier_value(1, 10, original.curve(0, 1), 2, 30, t), 1e-4) << t;
    EXPECT_NEAR(evaluate(track, 1, t), evaluate(original, 1, t), 0.2) << t << ": the polyline is near the curve (1 % of the span)";
  }
}

// The polyline rule itself, by hand: ten steps of u, read at the first point whose time is ≥ t.
TEST(SpineCurves, SpinesPolylineReadingByHand) {
  // A linear bezier (handles at thirds): x(u) = u, y(u) = u, so the polyline is the line itself.
  const SpineCurve straight = SpineCurve::bezier(1 / 3.0, 1 / 3.0, 2 / 3.0, 2 / 3.0);
  EXPECT_NEAR(spine_bezier_value(0, 0, straight, 1, 1, 0.55), 0.55, 1e-12);
  // Handles that send x(u) back: x(0.1) = 0.729·0 + 0.243·0.5 + 0.027·(−0.5) + 0.001 = 0.109 and
  // x(0.2) = 0.384·0.5 − 0.096·0.5 + 0.008 = 0.152 …; t = 0.05 is read between points 0 and 1.
  const SpineCurve back = SpineCurve::bezier(0.5, 0, -0.5, 1);
  const double y1 = 0.243 * 0 + 0.027 * 1 + 0.001 * 1;
  EXPECT_NEAR(spine_bezier_value(0, 0, back, 1, 1, 0.05), y1 * 0.05 / 0.109, 1e-9);
  EXPECT_EQ(spine_bezier_value(0, 0, back, 1, 1, 0), 0);
  EXPECT_EQ(spine_bezier_value(0, 0, back, 1, 1, 1), 1);
}

}  // namespace
}  // namespace mf::offline::spine
