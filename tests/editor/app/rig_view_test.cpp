// RigView: the rig ↔ screen mapping both ways, zoom about a point (the point under the cursor stays),
// the scale limits, and frame all (centred, fitted with the margin, on the tighter axis).

#include <gtest/gtest.h>

#include "rig_view.hpp"

namespace mf::editor {
namespace {

constexpr float kTol = 1e-3f;

TEST(RigView, MapsBothWays) {
  RigView view;
  view.frame({-10, -20, 30, 20}, {{100, 50}, {400, 300}});
  for (const Vec2 p : {Vec2{0, 0}, Vec2{-10, 20}, Vec2{123.5f, -77}}) {
    const Vec2 back = view.to_rig(view.to_screen(p));
    EXPECT_NEAR(back.x, p.x, kTol);
    EXPECT_NEAR(back.y, p.y, kTol);
  }
}

TEST(RigView, ZoomKeepsThePointUnderTheCursor) {
  RigView view;
  view.frame({0, 0, 100, 100}, {{0, 0}, {200, 200}});
  const Vec2 cursor{37, 121};
  const Vec2 under = view.to_rig(cursor);
  const float before = view.scale();
  view.wheel(cursor, 2);
  EXPECT_NEAR(view.scale(), before * RigView::kWheelFactor * RigView::kWheelFactor, kTol);
  const Vec2 after = view.to_screen(under);
  EXPECT_NEAR(after.x, cursor.x, kTol);
  EXPECT_NEAR(after.y, cursor.y, kTol);
  view.wheel(cursor, -2);
  EXPECT_NEAR(view.scale(), before, kTol);
}

TEST(RigView, ScaleStaysWithinItsLimits) {
  RigView view;
  view.zoom_about({0, 0}, 1e9f);
  EXPECT_FLOAT_EQ(view.scale(), RigView::kMaxScale);
  view.zoom_about({0, 0}, 1e-12f);
  EXPECT_FLOAT_EQ(view.scale(), RigView::kMinScale);
  view.zoom_about({0, 0}, -3);  // ignored
  EXPECT_FLOAT_EQ(view.scale(), RigView::kMinScale);
}

TEST(RigView, PanMovesThePicture) {
  RigView view;
  const Vec2 before = view.to_screen({5, 5});
  view.pan({12, -3});
  const Vec2 after = view.to_screen({5, 5});
  EXPECT_NEAR(after.x - before.x, 12, kTol);
  EXPECT_NEAR(after.y - before.y, -3, kTol);
}

TEST(RigView, FrameCentresAndFitsTheTighterAxis) {
  RigView view;
  const ScreenRect viewport{{100, 40}, {400, 200}};
  // 100 × 200 rig pixels in 400 × 200: the height limits, with the margin on each side.
  view.frame({-50, -200, 50, 0}, viewport);
  const float margin = RigView::kFrameMargin * 200;
  EXPECT_NEAR(view.scale(), (200 - 2 * margin) / 200, kTol);
  const Vec2 centre = view.to_screen({0, -100});
  EXPECT_NEAR(centre.x, 300, kTol);
  EXPECT_NEAR(centre.y, 140, kTol);
  const Vec2 top = view.to_screen({0, -200});
  EXPECT_NEAR(top.y, 40 + margin, kTol);
}

TEST(RigView, FramingNothingCentresTheOrigin) {
  RigView view;
  view.zoom_about({0, 0}, 3);
  view.frame({1, 1, 0, 0}, {{0, 0}, {300, 100}});
  EXPECT_FLOAT_EQ(view.scale(), 1);
  EXPECT_NEAR(view.to_screen({0, 0}).x, 150, kTol);
  EXPECT_NEAR(view.to_screen({0, 0}).y, 50, kTol);
}

}  // namespace
}  // namespace mf::editor
