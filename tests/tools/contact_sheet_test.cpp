// The contact sheet of `mfe skel render` without a GPU: layout maths, the view fit, the drawing
// primitives and font, and that each overlay puts its pixels where the layout says.

#include "contact_sheet.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace mf::tools {
namespace {

using imaging::Image;
using imaging::Rect;

// Channel tolerance for blending results: one step of 8-bit rounding.
constexpr int kRounding = 1;

Rgba8 at(const Image& image, int x, int y) {
  const std::uint8_t* p = image.pixel(x, y);
  return {p[0], p[1], p[2], p[3]};
}

bool near(Rgba8 a, Rgba8 b, int tolerance) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance &&
         std::abs(a.a - b.a) <= tolerance;
}

bool inside(const Rect& inner, const Rect& outer) {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width &&
         inner.y + inner.height <= outer.y + outer.height;
}

bool overlap(const Rect& a, const Rect& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

// Counts pixels of `rect` within `tolerance` of `color`.
int count_color(const Image& image, const Rect& rect, Rgba8 color, int tolerance) {
  int n = 0;
  for (int y = rect.y; y < rect.y + rect.height; ++y)
    for (int x = rect.x; x < rect.x + rect.width; ++x)
      if (near(at(image, x, y), color, tolerance)) ++n;
  return n;
}

// ---- layout --------------------------------------------------------------------------------------

TEST(SheetLayout, EightFramesMakeFourColumnsOfTwoRows) {
  const SheetLayout l = layout_sheet(8, 256, 320);
  EXPECT_EQ(l.columns, 4);
  EXPECT_EQ(l.rows, 2);
  EXPECT_EQ(l.text_scale, 2);
  EXPECT_EQ(l.width(), l.padding + 4 * (256 + l.padding));
  EXPECT_EQ(l.height(), l.title_height + l.padding + 2 * (l.cell_height() + l.padding));
  const Rect sheet{0, 0, l.width(), l.height()};
  for (int i = 0; i < 8; ++i) {
    const Rect cell = l.cell(i), label = l.label(i), art = l.art(i), strip = l.strip(i);
    EXPECT_TRUE(inside(cell, sheet)) << i;
    EXPECT_TRUE(inside(label, cell) && inside(art, cell) && inside(strip, cell)) << i;
    EXPECT_EQ(art.width, 256);
    EXPECT_EQ(art.height, 320);
    // Label, art and strip stack without gaps or overlap.
    EXPECT_EQ(label.y + label.height, art.y);
    EXPECT_EQ(art.y + art.height, strip.y);
    EXPECT_EQ(strip.y + strip.height, cell.y + cell.height);
    EXPECT_GE(cell.y, l.title_height);
    for (int j = 0; j < i; ++j) EXPECT_FALSE(overlap(cell, l.cell(j))) << i << " " << j;
  }
  // Row-major: frame 5 is the second cell of the second row.
  EXPECT_EQ(l.cell(5).x, l.cell(1).x);
  EXPECT_EQ(l.cell(5).y, l.cell(1).y + l.cell_height() + l.padding);
}

TEST(SheetLayout, FewFramesMakeOneRowAndSmallFramesSmallText) {
  const SheetLayout three = layout_sheet(3, 100, 120);
  EXPECT_EQ(three.columns, 3);
  EXPECT_EQ(three.rows, 1);
  EXPECT_EQ(three.text_scale, 1);
  const SheetLayout one = layout_sheet(1, 64, 64);
  EXPECT_EQ(one.columns, 1);
  EXPECT_EQ(one.rows, 1);
  EXPECT_EQ(one.width(), 64 + 2 * one.padding);
  const SheetLayout nine = layout_sheet(9, 64, 64, 4);
  EXPECT_EQ(nine.rows, 3);
}

TEST(SheetLayout, StripHoldsTwoRowsOfNamesTheBarAndTheScale) {
  for (int scale_width : {100, 256}) {
    const SheetLayout l = layout_sheet(4, scale_width, 100);
    const int line = kGlyphHeight * l.text_scale;
    EXPECT_GE(l.strip_height, 3 * line + 3 * l.text_scale) << scale_width;
    EXPECT_GE(l.label_height, line + 2) << scale_width;
  }
}

TEST(SheetLayout, LongTitlesBreakAtBarsIntoMoreLines) {
  const std::string title = "mannequin | walk 1.000s loop | skin default | compute skinning, llvmpipe";
  const SheetLayout wide = layout_sheet(8, 256, 320, 4, title);
  int scale = wide.text_scale;
  EXPECT_EQ(title_lines(title, wide.width(), wide.padding, scale).size(), 1u);
  EXPECT_EQ(scale, 2);
  const SheetLayout narrow = layout_sheet(1, 256, 320, 4, title);
  scale = narrow.text_scale;
  const std::vector<std::string> lines = title_lines(title, narrow.width(), narrow.padding, scale);
  EXPECT_EQ(scale, 1);
  ASSERT_EQ(lines.size(), 2u);
  // 248 pixels of room at scale 1 hold 41 characters.
  EXPECT_EQ(lines[0], "mannequin | walk 1.000s loop");
  EXPECT_EQ(lines[1], "skin default | compute skinning, llvmpipe");
  for (const std::string& line : lines) EXPECT_LE(text_width(line, 1), narrow.width() - 2 * narrow.padding);
  // The title bar grows with the lines; the cells move down with it.
  EXPECT_GT(narrow.title_height, layout_sheet(1, 256, 320).title_height);
  EXPECT_EQ(narrow.cell(0).y, narrow.title_height + narrow.padding);
}

// ---- view ----------------------------------------------------------------------------------------

TEST(SheetView, FitsBoundsUniformlyWithTheMargin) {
  // 100 × 300 into 256 × 320 less 10 on each side: the height limits, scale = 300 / 300 = 1.
  const SheetView v = fit_view({-50, -300, 50, 0}, 256, 320, 10);
  EXPECT_NEAR(v.scale, 1.0f, 1e-6f);
  EXPECT_NEAR(v.x(0), 128.0f, 1e-4f);      // centred horizontally
  EXPECT_NEAR(v.y(-150), 160.0f, 1e-4f);   // and vertically
  EXPECT_NEAR(v.y(-300), 10.0f, 1e-4f);    // the top at the margin
  EXPECT_NEAR(v.y(0), 310.0f, 1e-4f);      // the bottom at the margin
  // Width-limited: 400 wide into 236 of room.
  const SheetView w = fit_view({0, 0, 400, 10}, 256, 320, 10);
  EXPECT_NEAR(w.scale, 236.0f / 400.0f, 1e-6f);
  EXPECT_NEAR(w.x(0), 10.0f, 1e-4f);
  EXPECT_NEAR(w.x(400), 246.0f, 1e-4f);
}

TEST(SheetView, EmptyBoundsGiveAFiniteViewAroundTheOrigin) {
  const SheetView v = fit_view(Bounds{1, 1, 0, 0}, 64, 64, 4);
  EXPECT_TRUE(std::isfinite(v.scale) && v.scale > 0);
  EXPECT_NEAR(v.x(0), 32.0f, 1e-4f);
  EXPECT_NEAR(v.y(0), 32.0f, 1e-4f);
}

TEST(SheetView, StripMapsTheClipOntoTheBar) {
  const Rect strip{100, 0, 200, 40};
  EXPECT_FLOAT_EQ(strip_x(strip, 0, 2), 108.0f);
  EXPECT_FLOAT_EQ(strip_x(strip, 2, 2), 292.0f);
  EXPECT_FLOAT_EQ(strip_x(strip, 1, 2), 200.0f);
  EXPECT_FLOAT_EQ(strip_x(strip, 5, 2), 292.0f);  // clamped
  EXPECT_FLOAT_EQ(strip_x(strip, 1, 0), 108.0f);  // no length: the left end
}

// ---- drawing -------------------------------------------------------------------------------------

TEST(SheetDrawing, CompositeBlendsOverWithStraightAlpha) {
  Image dst = Image::blank(2, 1);
  fill_rect(dst, {0, 0, 2, 1}, Rgba8{0, 0, 255, 255});
  Image src = Image::blank(2, 1);
  fill_rect(src, {0, 0, 1, 1}, Rgba8{255, 0, 0, 128});
  composite(dst, src, 0, 0);
  EXPECT_TRUE(near(at(dst, 0, 0), Rgba8{128, 0, 127, 255}, kRounding));
  EXPECT_TRUE(near(at(dst, 1, 0), Rgba8{0, 0, 255, 255}, 0));  // transparent source leaves it
  // Over a transparent pixel the colour stays straight: the source itself.
  Image clear = Image::blank(1, 1);
  composite(clear, src, 0, 0);
  EXPECT_TRUE(near(at(clear, 0, 0), Rgba8{255, 0, 0, 128}, kRounding));
  // A silhouette keeps the shape and takes the colour; its alpha scales the shape's.
  Image sil = Image::blank(2, 1);
  composite_silhouette(sil, src, 0, 0, Rgba8{0, 255, 0, 255});
  EXPECT_TRUE(near(at(sil, 0, 0), Rgba8{0, 255, 0, 128}, kRounding));
  EXPECT_EQ(at(sil, 1, 0).a, 0);
}

TEST(SheetDrawing, LinesCoverTheirPixelsWithSoftEdges) {
  Image img = Image::blank(32, 32);
  const Rgba8 white{255, 255, 255, 255};
  draw_line(img, 4, 10.5f, 28, 10.5f, 1, white);  // exactly pixel row 10
  EXPECT_EQ(at(img, 16, 10).a, 255);
  EXPECT_EQ(at(img, 16, 8).a, 0);
  EXPECT_EQ(at(img, 16, 12).a, 0);
  EXPECT_EQ(at(img, 1, 10).a, 0);  // past the round cap
  // A diagonal line has partly covered pixels along its edges (anti-aliasing) and full ones on it.
  Image diag = Image::blank(32, 32);
  draw_line(diag, 2, 2, 30, 20, 2, white);
  int partial = 0, full = 0;
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) {
      const int a = at(diag, x, y).a;
      partial += a > 0 && a < 255;
      full += a == 255;
    }
  EXPECT_GT(partial, 20);
  EXPECT_GT(full, 20);
  // Drawing past the image is clipped, not a crash.
  draw_line(img, -50, -50, 100, 100, 3, white);
  draw_disc(img, 40, 40, 5, white);
}

TEST(SheetDrawing, DiscsAreRound) {
  Image img = Image::blank(21, 21);
  draw_disc(img, 10.5f, 10.5f, 5, Rgba8{255, 255, 255, 255});
  EXPECT_EQ(at(img, 10, 10).a, 255);
  EXPECT_EQ(at(img, 13, 13).a, 255);  // distance 4.2 < 5
  EXPECT_EQ(at(img, 14, 14).a, 0);    // distance 5.7 > 5.5
  EXPECT_EQ(at(img, 10, 4).a, 0);     // distance 6
}

TEST(SheetDrawing, DashedRectangleLeavesGaps) {
  Image img = Image::blank(40, 20);
  draw_rect_outline(img, 2.5f, 2.5f, 37.5f, 17.5f, Rgba8{255, 255, 0, 255}, 4);
  int on = 0, off = 0;
  for (int x = 4; x < 36; ++x) (at(img, x, 2).a > 128 ? on : off)++;
  EXPECT_GT(on, 10);
  EXPECT_GT(off, 8);
  EXPECT_EQ(at(img, 20, 10).a, 0);  // the inside stays empty
}

TEST(SheetDrawing, FontDrawsGlyphPixels) {
  EXPECT_EQ(text_width("", 1), 0);
  EXPECT_EQ(text_width("1", 1), kGlyphWidth);
  EXPECT_EQ(text_width("t=0.267", 2), (7 * kGlyphAdvance - 1) * 2);
  Image img = Image::blank(12, 7);
  draw_text(img, 0, 0, "1-", Rgba8{255, 255, 255, 255});
  // '1': the stem in column 2 of every row but the last, which is the base .###.
  for (int row = 0; row < 6; ++row) EXPECT_EQ(at(img, 2, row).a, 255) << row;
  EXPECT_EQ(at(img, 0, 0).a, 0);
  EXPECT_EQ(at(img, 1, 6).a, 255);
  EXPECT_EQ(at(img, 3, 6).a, 255);
  // '-': the middle row only, starting one advance later.
  for (int col = 0; col < kGlyphWidth; ++col) {
    EXPECT_EQ(at(img, kGlyphAdvance + col, 3).a, 255) << col;
    EXPECT_EQ(at(img, kGlyphAdvance + col, 2).a, 0) << col;
  }
  // Scale 2 doubles every font pixel; an unknown byte draws as '?', not nothing.
  Image big = Image::blank(10, 14);
  draw_text(big, 0, 0, "1", Rgba8{255, 255, 255, 255}, 2);
  EXPECT_EQ(at(big, 4, 0).a, 255);
  EXPECT_EQ(at(big, 5, 1).a, 255);
  EXPECT_EQ(at(big, 3, 0).a, 0);    // row 0 of '1' is ..#..
  EXPECT_EQ(at(big, 3, 2).a, 255);  // row 1 is .##..
  Image odd = Image::blank(5, 7);
  draw_text(odd, 0, 0, "\x01", Rgba8{255, 255, 255, 255});
  EXPECT_GT(count_color(odd, {0, 0, 5, 7}, Rgba8{255, 255, 255, 255}, 0), 5);
}

TEST(SheetDrawing, TimeLabelsHaveThreeDecimals) {
  EXPECT_EQ(time_label(0), "t=0.000");
  EXPECT_EQ(time_label(0.26666f), "t=0.267");
  EXPECT_EQ(time_label(1.5f), "t=1.500");
}

// ---- bones ---------------------------------------------------------------------------------------

TEST(SheetBones, SegmentsRunAlongEachBonesXAxisForItsLength) {
  skel::SkeletonData data;
  data.bones.names = {"root", "arm"};
  data.bones.parent = {-1, 0};
  data.bones.x = {0, 0};
  data.bones.y = {0, 0};
  data.bones.rotation = {0, 0};
  data.bones.scale_x = {1, 1};
  data.bones.scale_y = {1, 1};
  data.bones.shear_x = {0, 0};
  data.bones.shear_y = {0, 0};
  data.bones.length = {0, 50};
  data.bones.inherit = {skel::Inherit::Normal, skel::Inherit::Normal};
  data.bones.skin_required = {0, 0};
  skel::SkeletonPose pose(data);
  // The arm at (10, 20), turned 90° clockwise on screen (its x axis points down, +Y).
  pose.world_x = {0, 10};
  pose.world_y = {0, 20};
  pose.a = {1, 0};
  pose.b = {0, -1};
  pose.c = {0, 1};
  pose.d = {1, 0};
  pose.active = {1, 1};
  const Rgba8 red{255, 0, 0, 255};
  const std::vector<BoneSegment> segments = bone_segments(pose, std::vector<Rgba8>{Rgba8{1, 2, 3, 255}, red});
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_FLOAT_EQ(segments[0].x1, 0);  // the root has no length: a dot
  EXPECT_FLOAT_EQ(segments[0].y1, 0);
  EXPECT_FLOAT_EQ(segments[1].x0, 10);
  EXPECT_FLOAT_EQ(segments[1].y0, 20);
  EXPECT_FLOAT_EQ(segments[1].x1, 10);
  EXPECT_FLOAT_EQ(segments[1].y1, 70);
  EXPECT_EQ(segments[1].color, red);
  // Inactive bones are left out; missing colours fall back to the default.
  pose.active = {1, 0};
  const std::vector<BoneSegment> one = bone_segments(pose, {});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].color, sheet_colors::kBone);
}

// ---- the whole sheet -----------------------------------------------------------------------------

// Two 128 × 160 frames of an opaque magenta box standing on the ground, the second moved right;
// one bone up the box's middle; an event at 0.25 s of a 1 s clip.
class ComposedSheet : public ::testing::Test {
 protected:
  static constexpr Rgba8 kArt{200, 0, 200, 255};
  static constexpr Rgba8 kBoneColor{0, 255, 255, 255};

  void SetUp() override {
    layout_ = layout_sheet(2, 128, 160);
    content_.title = "box walk";
    content_.length = 1;
    content_.events = {{0.25f, "step"}};
    content_.view = fit_view({-60, -120, 60, 0}, 128, 160, 8);
    frames_.resize(2);
    for (int i = 0; i < 2; ++i) {
      SheetFrame& f = frames_[static_cast<std::size_t>(i)];
      f.time = 0.5f * static_cast<float>(i);
      f.art = Image::blank(128, 160);
      const float left = -40.0f + 40.0f * static_cast<float>(i);  // skeleton x of the box's left side
      box_[i] = {static_cast<int>(content_.view.x(left)), static_cast<int>(content_.view.y(-100)),
                 static_cast<int>(20 * content_.view.scale), static_cast<int>(100 * content_.view.scale)};
      fill_rect(f.art, box_[i], kArt);
      f.bounds = {left, -100, left + 20, 0};
      f.bones = {{left + 10, 0, left + 10, -100, kBoneColor}};
    }
    frames_[0].onion_after = &frames_[1].art;
    frames_[1].onion_before = &frames_[0].art;
    frames_[1].fired = {0};  // the event at 0.25 fired between the frames
    sheet_ = compose_sheet(layout_, content_, frames_);
  }

  // A pixel of frame `i`'s art area, in frame pixels.
  Rgba8 art_pixel(int i, int x, int y) const {
    const Rect r = layout_.art(i);
    return at(sheet_, r.x + x, r.y + y);
  }

  SheetLayout layout_;
  SheetContent content_;
  std::vector<SheetFrame> frames_;
  Rect box_[2];
  Image sheet_;
};

TEST_F(ComposedSheet, HasTheLayoutsSize) {
  EXPECT_EQ(sheet_.width, layout_.width());
  EXPECT_EQ(sheet_.height, layout_.height());
  EXPECT_EQ(at(sheet_, 0, sheet_.height - 1), sheet_colors::kBackground);
}

TEST_F(ComposedSheet, ArtShowsAwayFromTheOverlays) {
  // A quarter into the box, clear of the bone in its middle and of the dashed bounds at its edges.
  for (int i = 0; i < 2; ++i) {
    const Rect& b = box_[i];
    EXPECT_TRUE(near(art_pixel(i, b.x + b.width / 4, b.y + b.height / 2), kArt, 0)) << i;
  }
  // Outside the art, the cell colour.
  EXPECT_TRUE(near(art_pixel(0, 2, 2), sheet_colors::kCell, 0));
}

TEST_F(ComposedSheet, BonesAreDrawnOverTheArt) {
  for (int i = 0; i < 2; ++i) {
    const SheetView& v = content_.view;
    const BoneSegment& b = frames_[static_cast<std::size_t>(i)].bones[0];
    const Rgba8 mid = art_pixel(i, static_cast<int>(v.x(b.x0)), static_cast<int>(v.y(-50)));
    // Mostly the bone colour (drawn at 90% opacity, anti-aliased, over the magenta box).
    EXPECT_LT(mid.r, 100) << i;
    EXPECT_GT(mid.g, 150) << i;
    // The joint at the bone's origin is a light dot.
    const Rgba8 joint = art_pixel(i, static_cast<int>(v.x(b.x0)), static_cast<int>(v.y(b.y0)));
    EXPECT_GT(joint.r, 200);
    EXPECT_GT(joint.g, 200);
    EXPECT_GT(joint.b, 200);
  }
}

TEST_F(ComposedSheet, OnionSilhouettesShowTheNeighbours) {
  // Frame 0 shows frame 1's box (only there) tinted green; frame 1 shows frame 0's tinted red.
  const Rgba8 cell = sheet_colors::kCell;
  const Rect& b1 = box_[1];
  const Rgba8 after = art_pixel(0, b1.x + b1.width - 4, b1.y + b1.height / 3);
  EXPECT_GT(after.g, cell.g + 20);
  EXPECT_LT(after.r, cell.r + 5);
  const Rect& b0 = box_[0];
  const Rgba8 before = art_pixel(1, b0.x + 4, b0.y + b0.height / 3);
  EXPECT_GT(before.r, cell.r + 20);
  EXPECT_LT(before.g, cell.g + 5);
  // Faint: the cell still shows through.
  EXPECT_LT(before.r, 150);
}

TEST_F(ComposedSheet, GroundOriginAndBoundsAreWhereTheViewPutsThem) {
  const SheetView& v = content_.view;
  const int ground = static_cast<int>(std::floor(v.y(0)));  // drawn on the pixel row holding y = 0
  // The ground line runs across the whole frame, far from the origin too.
  EXPECT_GT(art_pixel(0, 3, ground).g, sheet_colors::kCell.g + 40);
  EXPECT_GT(art_pixel(0, layout_.frame_width - 3, ground).g, sheet_colors::kCell.g + 40);
  EXPECT_TRUE(near(art_pixel(0, 3, ground - 4), sheet_colors::kCell, 0));
  // The origin cross reaches above the ground.
  const Rgba8 cross = art_pixel(0, static_cast<int>(std::floor(v.x(0))), ground - 3);
  EXPECT_GT(cross.r, 200);
  EXPECT_GT(cross.b, 200);
  // The bounds' top edge starts with a dash in the bounds colour (yellow: red and green, little blue).
  const Rgba8 top = art_pixel(0, static_cast<int>(std::floor(v.x(frames_[0].bounds.min_x))) + 1,
                              static_cast<int>(std::floor(v.y(frames_[0].bounds.min_y))));
  EXPECT_GT(top.r, 180);
  EXPECT_GT(top.g, 150);
  EXPECT_LT(top.b, 120);
}

TEST_F(ComposedSheet, LabelsShowEachFramesTime) {
  for (int i = 0; i < 2; ++i) {
    const Rect label = layout_.label(i);
    // The text's pixels, and only within the label's left part for "t=0.x00".
    const int text = count_color(sheet_, label, sheet_colors::kText, 0);
    EXPECT_GT(text, 40) << i;
    // The label renders exactly the time text: redraw it alone and compare pixel counts.
    Image alone = Image::blank(label.width, label.height);
    draw_text(alone, 0, 0, time_label(frames_[static_cast<std::size_t>(i)].time), sheet_colors::kText, layout_.text_scale);
    EXPECT_EQ(text, count_color(alone, {0, 0, alone.width, alone.height}, sheet_colors::kText, 0)) << i;
  }
}

TEST_F(ComposedSheet, StripMarksThePlayheadAndTheEvent) {
  for (int i = 0; i < 2; ++i) {
    const Rect strip = layout_.strip(i);
    const int head = static_cast<int>(std::floor(strip_x(strip, frames_[static_cast<std::size_t>(i)].time, 1)));
    EXPECT_GT(count_color(sheet_, {head, strip.y, 1, strip.height}, sheet_colors::kPlayhead, 8), 4) << i;
    const int tick = static_cast<int>(std::floor(strip_x(strip, 0.25f, 1)));
    // Frame 1 fired the event (bright); frame 0 did not (the plain event colour).
    const Rgba8 color = i == 1 ? sheet_colors::kEventFired : sheet_colors::kEvent;
    EXPECT_GT(count_color(sheet_, {tick, strip.y, 1, strip.height}, color, 8), 4) << i;
    // The name "step" is written in the event's colour.
    EXPECT_GT(count_color(sheet_, strip, color, 0), 30) << i;
  }
}

}  // namespace
}  // namespace mf::tools
