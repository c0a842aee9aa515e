// set_bone_key: inserting a key with the value the clip already had leaves the motion unchanged
// (linear, stepped and bezier segments, bezier split exactly); replacing keeps the key count; the
// result stays sorted and canonical; invalid edits fail and leave the clip as it was.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "mf/offline/format/clip_edit.hpp"
#include "mf/offline/format/clip_format.hpp"

namespace mf::offline {
namespace {

// ---- a reference evaluator, independent of the code under test --------------------------------

double bezier(double p1, double p2, double s) {
  const double u = 1 - s;
  return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s;
}

// The value fraction of a normalised segment curve at time fraction f.
double curve_fraction(const Curve& c, double f) {
  switch (c.type) {
    case CurveType::Linear: return f;
    case CurveType::Stepped: return 0;
    case CurveType::Bezier: {
      double lo = 0, hi = 1;
      for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (lo + hi);
        (bezier(c.cx1, c.cx2, mid) < f ? lo : hi) = mid;
      }
      return bezier(c.cy1, c.cy2, 0.5 * (lo + hi));
    }
  }
  return 0;
}

double sample(const CurveTimeline& tl, int component, double t) {
  const CurveLayout& lay = layout(tl.kind);
  const std::size_t comps = static_cast<std::size_t>(lay.components), curved = static_cast<std::size_t>(lay.curved);
  const std::size_t c = static_cast<std::size_t>(component);
  const std::size_t n = tl.times.size();
  if (t <= tl.times[0]) return tl.values[c];
  if (t >= tl.times[n - 1]) return tl.values[(n - 1) * comps + c];
  std::size_t k = 0;
  while (!(t < tl.times[k + 1])) ++k;
  const double f = (t - tl.times[k]) / (static_cast<double>(tl.times[k + 1]) - tl.times[k]);
  const double v0 = tl.values[k * comps + c], v1 = tl.values[(k + 1) * comps + c];
  return v0 + curve_fraction(tl.curves[k * curved + c], f) * (v1 - v0);
}

// ---- helpers -----------------------------------------------------------------------------------

ClipSource make_clip() {
  ClipSource clip;
  clip.uid = "anm_00000000c0de";
  clip.skeleton_uid = "skl_00000000c0de";
  clip.length = 2;
  return clip;
}

CurveTimeline timeline(CurveKind kind, std::string bone, std::vector<float> times, std::vector<float> values,
                       std::vector<Curve> curves) {
  CurveTimeline tl;
  tl.kind = kind;
  tl.target = std::move(bone);
  tl.times = std::move(times);
  tl.values = std::move(values);
  tl.curves = std::move(curves);
  return tl;
}

const CurveTimeline& find(const ClipSource& clip, const std::string& bone, CurveKind kind) {
  auto it = std::find_if(clip.curves.begin(), clip.curves.end(),
                         [&](const CurveTimeline& tl) { return tl.target == bone && tl.kind == kind; });
  EXPECT_NE(it, clip.curves.end());
  return *it;
}

// The largest difference between the two timelines' values over [0, length].
double max_motion_change(const CurveTimeline& a, const CurveTimeline& b, float length) {
  double worst = 0;
  for (int c = 0; c < layout(a.kind).components; ++c)
    for (int i = 0; i <= 2000; ++i) {
      const double t = length * i / 2000.0;
      worst = std::max(worst, std::fabs(sample(a, c, t) - sample(b, c, t)));
    }
  return worst;
}

// Inserts a key at t with the values the timeline already has there.
ClipSource insert_sampled(const ClipSource& clip, const std::string& bone, CurveKind kind, float t) {
  const CurveTimeline& tl = find(clip, bone, kind);
  std::vector<float> values;
  for (int c = 0; c < layout(kind).components; ++c) values.push_back(static_cast<float>(sample(tl, c, t)));
  ClipSource edited = clip;
  const Status s = set_bone_key(edited, bone, kind, t, values, std::nullopt);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
  return edited;
}

void expect_valid_curves(const CurveTimeline& tl) {
  const std::size_t curved = static_cast<std::size_t>(layout(tl.kind).curved);
  ASSERT_EQ(tl.curves.size(), (tl.times.size() - 1) * curved);
  ASSERT_EQ(tl.values.size(), tl.times.size() * static_cast<std::size_t>(layout(tl.kind).components));
  EXPECT_TRUE(std::is_sorted(tl.times.begin(), tl.times.end()));
  EXPECT_EQ(std::adjacent_find(tl.times.begin(), tl.times.end()), tl.times.end());
  for (const Curve& c : tl.curves) {
    if (c.type != CurveType::Bezier) continue;
    EXPECT_GE(c.cx1, 0);
    EXPECT_LE(c.cx1, 1);
    EXPECT_GE(c.cx2, 0);
    EXPECT_LE(c.cx2, 1);
    EXPECT_TRUE(std::isfinite(c.cy1) && std::isfinite(c.cy2));
  }
}

// The clip written, read back on its own and written again: same clip, same bytes.
void expect_canonical(const ClipSource& clip) {
  const std::string text = write_clip(clip);
  auto back = read_clip(text, "edited.manim");
  ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
  EXPECT_EQ(*back, clip) << text;
  EXPECT_EQ(write_clip(*back), text);
}

constexpr double kMotionTolerance = 1e-4;

// ---- inserting keeps the motion ----------------------------------------------------------------

TEST(ClipEdit, InsertingTheSampledValueLeavesTheMotionUnchanged) {
  struct Case {
    const char* name;
    Curve curve;
    float t;
  };
  const Case cases[] = {
      {"linear", Curve::linear(), 0.3f},
      {"stepped", Curve::stepped(), 0.6f},
      {"ease, early", kEaseCurve, 0.1f},
      {"ease, middle", kEaseCurve, 0.5f},
      {"ease, late", kEaseCurve, 0.9f},
      {"ease in-out", Curve::bezier(0.42f, 0, 0.58f, 1), 0.37f},
      {"overshoot both ways", Curve::bezier(0.3f, -0.5f, 0.7f, 1.5f), 0.45f},
      {"fast start", Curve::bezier(0.1f, 0.8f, 0.2f, 1), 0.05f},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClipSource clip = make_clip();
    clip.curves.push_back(timeline(CurveKind::Rotate, "arm", {0, 1, 2}, {0, 90, 30}, {c.curve, Curve::linear()}));
    const ClipSource edited = insert_sampled(clip, "arm", CurveKind::Rotate, c.t);
    const CurveTimeline& before = find(clip, "arm", CurveKind::Rotate);
    const CurveTimeline& after = find(edited, "arm", CurveKind::Rotate);
    ASSERT_EQ(after.key_count(), 4u);
    EXPECT_FLOAT_EQ(after.times[1], c.t);
    expect_valid_curves(after);
    EXPECT_EQ(after.curves[0].type, c.curve.type);
    EXPECT_EQ(after.curves[1].type, c.curve.type);
    EXPECT_EQ(after.curves[2], Curve::linear());  // the untouched segment
    EXPECT_LT(max_motion_change(before, after, clip.length), kMotionTolerance);
    expect_canonical(edited);
  }
}

TEST(ClipEdit, SplitsEachComponentsCurveOfATwoComponentTimeline) {
  ClipSource clip = make_clip();
  // Per-component curves: x eases, y is linear.
  clip.curves.push_back(timeline(CurveKind::Translate, "hip", {0, 2}, {0, 0, 40, -20}, {kEaseCurve, Curve::linear()}));
  const ClipSource edited = insert_sampled(clip, "hip", CurveKind::Translate, 0.7f);
  const CurveTimeline& after = find(edited, "hip", CurveKind::Translate);
  ASSERT_EQ(after.key_count(), 3u);
  expect_valid_curves(after);
  EXPECT_EQ(after.curves[0].type, CurveType::Bezier);
  EXPECT_EQ(after.curves[1], Curve::linear());
  EXPECT_EQ(after.curves[2].type, CurveType::Bezier);
  EXPECT_EQ(after.curves[3], Curve::linear());
  EXPECT_LT(max_motion_change(find(clip, "hip", CurveKind::Translate), after, clip.length), kMotionTolerance);
  expect_canonical(edited);
}

TEST(ClipEdit, ASharedCurveStaysSharedAfterASplit) {
  ClipSource clip = make_clip();
  const Curve shared = Curve::bezier(0.2f, 0.1f, 0.6f, 1.2f);
  clip.curves.push_back(timeline(CurveKind::Scale, "hip", {0, 1}, {1, 1, 1.5f, 0.5f}, {shared, shared}));
  const ClipSource edited = insert_sampled(clip, "hip", CurveKind::Scale, 0.25f);
  const CurveTimeline& after = find(edited, "hip", CurveKind::Scale);
  ASSERT_EQ(after.curves.size(), 4u);
  EXPECT_EQ(after.curves[0], after.curves[1]);
  EXPECT_EQ(after.curves[2], after.curves[3]);
  EXPECT_LT(max_motion_change(find(clip, "hip", CurveKind::Scale), after, clip.length), kMotionTolerance);
  expect_canonical(edited);
}

TEST(ClipEdit, ASplitThatWouldNeedXOutsideTheUnitRangeStaysValid) {
  // x controls at opposite ends: the exact left half of this curve needs x > 1, which is clamped.
  ClipSource clip = make_clip();
  clip.curves.push_back(
      timeline(CurveKind::Rotate, "arm", {0, 1, 2}, {0, 50, 80}, {Curve::bezier(1, 0.3f, 0, 0.7f), Curve::linear()}));
  const ClipSource edited = insert_sampled(clip, "arm", CurveKind::Rotate, 0.9f);
  const CurveTimeline& after = find(edited, "arm", CurveKind::Rotate);
  expect_valid_curves(after);
  // The key itself and the untouched segment keep the motion exactly.
  const CurveTimeline& before = find(clip, "arm", CurveKind::Rotate);
  EXPECT_NEAR(sample(after, 0, 0.9), sample(before, 0, 0.9), kMotionTolerance);
  for (double t = 1; t <= 2; t += 0.05) EXPECT_NEAR(sample(after, 0, t), sample(before, 0, t), kMotionTolerance);
  expect_canonical(edited);
}

// ---- replacing, appending, prepending -----------------------------------------------------------

TEST(ClipEdit, ReplacingAKeyKeepsTheCountTimeAndCurves) {
  ClipSource clip = make_clip();
  clip.curves.push_back(timeline(CurveKind::Rotate, "arm", {0, 0.5f, 1}, {0, 35, 0}, {kEaseCurve, Curve::stepped()}));
  const float value = 42;
  ASSERT_TRUE(set_bone_key(clip, "arm", CurveKind::Rotate, 0.50005f, {&value, 1}, std::nullopt).ok());
  const CurveTimeline& tl = find(clip, "arm", CurveKind::Rotate);
  EXPECT_EQ(tl.times, (std::vector<float>{0, 0.5f, 1}));  // within kKeyTimeEpsilon: the same key
  EXPECT_EQ(tl.values, (std::vector<float>{0, 42, 0}));
  EXPECT_EQ(tl.curves, (std::vector<Curve>{kEaseCurve, Curve::stepped()}));
  expect_canonical(clip);
}

TEST(ClipEdit, ACurveOnAReplacedKeyShapesTheSegmentItStarts) {
  ClipSource clip = make_clip();
  clip.curves.push_back(timeline(CurveKind::Rotate, "arm", {0, 0.5f, 1}, {0, 35, 0}, {kEaseCurve, Curve::linear()}));
  const float value = 35;
  ASSERT_TRUE(set_bone_key(clip, "arm", CurveKind::Rotate, 0.5f, {&value, 1}, Curve::stepped()).ok());
  EXPECT_EQ(find(clip, "arm", CurveKind::Rotate).curves, (std::vector<Curve>{kEaseCurve, Curve::stepped()}));
  // The last key starts no segment: its curve shapes the one that ends at it.
  ASSERT_TRUE(set_bone_key(clip, "arm", CurveKind::Rotate, 1, {&value, 1}, Curve::linear()).ok());
  EXPECT_EQ(find(clip, "arm", CurveKind::Rotate).curves, (std::vector<Curve>{kEaseCurve, Curve::linear()}));
  expect_canonical(clip);
}

TEST(ClipEdit, ANewKeyWithACurveSplitsExactlyBeforeItAndUsesTheCurveAfter) {
  ClipSource clip = make_clip();
  clip.curves.push_back(timeline(CurveKind::Rotate, "arm", {0, 2}, {0, 100}, {kEaseCurve}));
  const CurveTimeline before = find(clip, "arm", CurveKind::Rotate);
  const float value = static_cast<float>(sample(before, 0, 0.8));
  ASSERT_TRUE(set_bone_key(clip, "arm", CurveKind::Rotate, 0.8f, {&value, 1}, Curve::stepped()).ok());
  const CurveTimeline& after = find(clip, "arm", CurveKind::Rotate);
  ASSERT_EQ(after.curves.size(), 2u);
  EXPECT_EQ(after.curves[0].type, CurveType::Bezier);
  EXPECT_EQ(after.curves[1], Curve::stepped());
  for (double t = 0; t <= 0.8; t += 0.01) EXPECT_NEAR(sample(after, 0, t), sample(before, 0, t), kMotionTolerance);
}

TEST(ClipEdit, KeysAfterTheLastOrBeforeTheFirstGetALinearSegmentUnlessACurveIsGiven) {
  ClipSource clip = make_clip();
  clip.curves.push_back(timeline(CurveKind::Rotate, "arm", {0.5f, 1}, {10, 20}, {kEaseCurve}));
  float value = 30;
  ASSERT_TRUE(set_bone_key(clip, "arm", CurveKind::Rotate, 1.5f, {&value, 1}, std::nullopt).ok());
  value = 0;
  ASSERT_TRUE(set_bone_key(clip, "arm", CurveKind::Rotate, 0, {&value, 1}, std::nullopt).ok());
  CurveTimeline tl = find(clip, "arm", CurveKind::Rotate);
  EXPECT_EQ(tl.times, (std::vector<float>{0, 0.5f, 1, 1.5f}));
  EXPECT_EQ(tl.values, (std::vector<float>{0, 10, 20, 30}));
  EXPECT_EQ(tl.curves, (std::vector<Curve>{Curve::linear(), kEaseCurve, Curve::linear()}));

  // With a curve: appended, it shapes the way into the new last key; prepended, the way out of it.
  value = 40;
  ASSERT_TRUE(set_bone_key(clip, "arm", CurveKind::Rotate, 2, {&value, 1}, Curve::stepped()).ok());
  ClipSource second = make_clip();
  second.curves.push_back(timeline(CurveKind::Rotate, "arm", {1}, {5}, {}));
  value = 0;
  ASSERT_TRUE(set_bone_key(second, "arm", CurveKind::Rotate, 0, {&value, 1}, kEaseCurve).ok());
  tl = find(clip, "arm", CurveKind::Rotate);
  EXPECT_EQ(tl.curves.back(), Curve::stepped());
  EXPECT_EQ(find(second, "arm", CurveKind::Rotate).curves, (std::vector<Curve>{kEaseCurve}));
  expect_canonical(clip);
  expect_canonical(second);
}

TEST(ClipEdit, ANewTimelineIsCreatedAndTheTimelinesStaySorted) {
  ClipSource clip = make_clip();
  clip.curves.push_back(timeline(CurveKind::Rotate, "b", {0}, {1}, {}));
  CurveTimeline alpha = timeline(CurveKind::Alpha, "glow", {0}, {1}, {});
  clip.curves.push_back(alpha);
  const float xy[] = {3, 4};
  const float lone = 1.25f;
  ASSERT_TRUE(set_bone_key(clip, "a", CurveKind::Translate, 0.25f, xy, kEaseCurve).ok());  // a lone key: no segment
  ASSERT_TRUE(set_bone_key(clip, "b", CurveKind::ScaleX, 0, {&lone, 1}, std::nullopt).ok());
  ASSERT_EQ(clip.curves.size(), 4u);
  EXPECT_EQ(clip.curves[0].target, "a");
  EXPECT_EQ(clip.curves[0].kind, CurveKind::Translate);
  EXPECT_EQ(clip.curves[0].times, (std::vector<float>{0.25f}));
  EXPECT_EQ(clip.curves[0].values, (std::vector<float>{3, 4}));
  EXPECT_TRUE(clip.curves[0].curves.empty());
  EXPECT_EQ(clip.curves[1].kind, CurveKind::Rotate);
  EXPECT_EQ(clip.curves[2].kind, CurveKind::ScaleX);
  EXPECT_EQ(clip.curves[3], alpha);  // slots after bones
  ClipSource sorted = clip;
  sort_timelines(sorted);
  EXPECT_EQ(sorted, clip);
  expect_canonical(clip);
}

// ---- invalid edits ----------------------------------------------------------------------------

TEST(ClipEdit, InvalidEditsFailAndLeaveTheClipUnchanged) {
  ClipSource clip = make_clip();
  clip.curves.push_back(timeline(CurveKind::Rotate, "arm", {0, 1}, {0, 10}, {Curve::linear()}));
  const ClipSource original = clip;
  const float one[] = {1};
  const float two[] = {1, 2};
  const float nan[] = {std::numeric_limits<float>::quiet_NaN()};

  auto expect_failure = [&](Status s, const std::string& words) {
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find(words), std::string::npos) << s.error().to_string();
    EXPECT_EQ(clip, original);
  };
  expect_failure(set_bone_key(clip, "arm", CurveKind::Rotate, 0.5f, two, std::nullopt), "takes 1 value");
  expect_failure(set_bone_key(clip, "arm", CurveKind::Translate, 0.5f, one, std::nullopt), "takes 2 values");
  expect_failure(set_bone_key(clip, "arm", CurveKind::Alpha, 0.5f, one, std::nullopt), "not a bone timeline");
  expect_failure(set_bone_key(clip, "arm", CurveKind::Rotate, 2.5f, one, std::nullopt), "past the clip's length");
  expect_failure(set_bone_key(clip, "arm", CurveKind::Rotate, -0.1f, one, std::nullopt), ">= 0");
  expect_failure(set_bone_key(clip, "arm", CurveKind::Rotate, 0.5f, nan, std::nullopt), "finite");
  expect_failure(set_bone_key(clip, "arm", CurveKind::Rotate, 0.5f, one, Curve::bezier(1.5f, 0, 0.5f, 1)),
                 "outside [0, 1]");
  expect_failure(set_bone_key(clip, "", CurveKind::Rotate, 0.5f, one, std::nullopt), "empty");

  const Status s = set_bone_key(clip, "arm", CurveKind::Rotate, 3, one, std::nullopt);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().path, "bones.arm.rotate");
}

}  // namespace
}  // namespace mf::offline
