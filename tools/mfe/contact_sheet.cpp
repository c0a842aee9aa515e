// The contact sheet's drawing: lines, discs, text and compositing on straight-alpha images, the
// layout of cells, and the overlays of each frame.

#include "contact_sheet.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace mf::tools {
namespace {

// Printable ASCII from ' ' (32) to '~' (126); each glyph is 7 rows, bit 4 the leftmost column.
constexpr std::array<std::array<std::uint8_t, kGlyphHeight>, 95> kFont = {{
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},  //  
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04},  // !
    {0x0a, 0x0a, 0x0a, 0x00, 0x00, 0x00, 0x00},  // "
    {0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a},  // #
    {0x04, 0x0f, 0x14, 0x0e, 0x05, 0x1e, 0x04},  // $
    {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03},  // %
    {0x0c, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0d},  // &
    {0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00},  // '
    {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02},  // (
    {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08},  // )
    {0x00, 0x04, 0x15, 0x0e, 0x15, 0x04, 0x00},  // *
    {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00},  // +
    {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08},  // ,
    {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00},  // -
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c},  // .
    {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00},  // /
    {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e},  // 0
    {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e},  // 1
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f},  // 2
    {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e},  // 3
    {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02},  // 4
    {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e},  // 5
    {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e},  // 6
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},  // 7
    {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e},  // 8
    {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c},  // 9
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00},  // :
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x04, 0x08},  // ;
    {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02},  // <
    {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00},  // =
    {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08},  // >
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04},  // ?
    {0x0e, 0x11, 0x17, 0x15, 0x17, 0x10, 0x0e},  // @
    {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11},  // A
    {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e},  // B
    {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e},  // C
    {0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c},  // D
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f},  // E
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10},  // F
    {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f},  // G
    {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11},  // H
    {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e},  // I
    {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c},  // J
    {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11},  // K
    {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f},  // L
    {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11},  // M
    {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11},  // N
    {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e},  // O
    {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10},  // P
    {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d},  // Q
    {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11},  // R
    {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e},  // S
    {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04},  // T
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e},  // U
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04},  // V
    {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a},  // W
    {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11},  // X
    {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04},  // Y
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f},  // Z
    {0x0e, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0e},  // [
    {0x00, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00},  // backslash
    {0x0e, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0e},  // ]
    {0x04, 0x0a, 0x11, 0x00, 0x00, 0x00, 0x00},  // ^
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f},  // _
    {0x08, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00},  // `
    {0x00, 0x00, 0x0e, 0x01, 0x0f, 0x11, 0x0f},  // a
    {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1e},  // b
    {0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e},  // c
    {0x01, 0x01, 0x0d, 0x13, 0x11, 0x11, 0x0f},  // d
    {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e},  // e
    {0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08},  // f
    {0x00, 0x0f, 0x11, 0x11, 0x0f, 0x01, 0x0e},  // g
    {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11},  // h
    {0x04, 0x00, 0x0c, 0x04, 0x04, 0x04, 0x0e},  // i
    {0x02, 0x00, 0x06, 0x02, 0x02, 0x12, 0x0c},  // j
    {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12},  // k
    {0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e},  // l
    {0x00, 0x00, 0x1a, 0x15, 0x15, 0x11, 0x11},  // m
    {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11},  // n
    {0x00, 0x00, 0x0e, 0x11, 0x11, 0x11, 0x0e},  // o
    {0x00, 0x00, 0x1e, 0x11, 0x1e, 0x10, 0x10},  // p
    {0x00, 0x00, 0x0d, 0x13, 0x0f, 0x01, 0x01},  // q
    {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10},  // r
    {0x00, 0x00, 0x0e, 0x10, 0x0e, 0x01, 0x1e},  // s
    {0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06},  // t
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0d},  // u
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x0a, 0x04},  // v
    {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0a},  // w
    {0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11},  // x
    {0x00, 0x00, 0x11, 0x11, 0x0f, 0x01, 0x0e},  // y
    {0x00, 0x00, 0x1f, 0x02, 0x04, 0x08, 0x1f},  // z
    {0x02, 0x04, 0x04, 0x08, 0x04, 0x04, 0x02},  // {
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04},  // |
    {0x08, 0x04, 0x04, 0x02, 0x04, 0x04, 0x08},  // }
    {0x00, 0x00, 0x08, 0x15, 0x02, 0x00, 0x00},  // ~
}};

float clamp01(float v) { return v < 0 ? 0 : (v > 1 ? 1 : v); }

// Distance from (px, py) to the segment (x0, y0)–(x1, y1).
float segment_distance(float px, float py, float x0, float y0, float x1, float y1) {
  const float dx = x1 - x0, dy = y1 - y0;
  const float len2 = dx * dx + dy * dy;
  float t = len2 > 0 ? ((px - x0) * dx + (py - y0) * dy) / len2 : 0;
  t = clamp01(t);
  const float ex = px - (x0 + t * dx), ey = py - (y0 + t * dy);
  return std::sqrt(ex * ex + ey * ey);
}

// Blends a straight-alpha source colour (channels 0…255, alpha 0…1) over a pixel.
void blend_over(std::uint8_t* d, float r, float g, float b, float a) {
  if (a <= 0) return;
  const float da = static_cast<float>(d[3]) / 255.0f;
  const float out_a = a + da * (1 - a);
  const float keep = da * (1 - a);
  d[0] = static_cast<std::uint8_t>(std::lround((r * a + static_cast<float>(d[0]) * keep) / out_a));
  d[1] = static_cast<std::uint8_t>(std::lround((g * a + static_cast<float>(d[1]) * keep) / out_a));
  d[2] = static_cast<std::uint8_t>(std::lround((b * a + static_cast<float>(d[2]) * keep) / out_a));
  d[3] = static_cast<std::uint8_t>(std::lround(out_a * 255.0f));
}

Rgba8 with_alpha(Rgba8 c, std::uint8_t a) { return {c.r, c.g, c.b, a}; }

constexpr Rgba8 kShadow{0, 0, 0, 170};  // outlines under overlays and text

}  // namespace

// ---- drawing -------------------------------------------------------------------------------------

void blend_pixel(imaging::Image& image, int x, int y, Rgba8 color, float coverage) {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
  blend_over(image.pixel(x, y), color.r, color.g, color.b, static_cast<float>(color.a) / 255.0f * clamp01(coverage));
}

void fill_rect(imaging::Image& image, const imaging::Rect& rect, Rgba8 color) {
  const int x0 = std::max(rect.x, 0), y0 = std::max(rect.y, 0);
  const int x1 = std::min(rect.x + rect.width, image.width), y1 = std::min(rect.y + rect.height, image.height);
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) blend_pixel(image, x, y, color);
}

void draw_line(imaging::Image& image, float x0, float y0, float x1, float y1, float width, Rgba8 color) {
  const float half = width * 0.5f;
  const int left = static_cast<int>(std::floor(std::min(x0, x1) - half - 1));
  const int right = static_cast<int>(std::ceil(std::max(x0, x1) + half + 1));
  const int top = static_cast<int>(std::floor(std::min(y0, y1) - half - 1));
  const int bottom = static_cast<int>(std::ceil(std::max(y0, y1) + half + 1));
  for (int y = std::max(top, 0); y <= std::min(bottom, image.height - 1); ++y)
    for (int x = std::max(left, 0); x <= std::min(right, image.width - 1); ++x) {
      const float d = segment_distance(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f, x0, y0, x1, y1);
      const float coverage = clamp01(half + 0.5f - d);
      if (coverage > 0) blend_pixel(image, x, y, color, coverage);
    }
}

void draw_disc(imaging::Image& image, float cx, float cy, float radius, Rgba8 color) {
  draw_line(image, cx, cy, cx, cy, radius * 2, color);
}

void draw_rect_outline(imaging::Image& image, float x0, float y0, float x1, float y1, Rgba8 color, float dash) {
  auto edge = [&](float ax, float ay, float bx, float by) {
    if (dash <= 0) {
      draw_line(image, ax, ay, bx, by, 1, color);
      return;
    }
    const float len = std::hypot(bx - ax, by - ay);
    for (float s = 0; s < len; s += dash * 2) {
      const float e = std::min(s + dash, len);
      const float t0 = len > 0 ? s / len : 0, t1 = len > 0 ? e / len : 0;
      draw_line(image, ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1, 1, color);
    }
  };
  edge(x0, y0, x1, y0);
  edge(x1, y0, x1, y1);
  edge(x1, y1, x0, y1);
  edge(x0, y1, x0, y0);
}

void composite(imaging::Image& dst, const imaging::Image& src, int x, int y, float opacity) {
  for (int sy = 0; sy < src.height; ++sy) {
    const int dy = y + sy;
    if (dy < 0 || dy >= dst.height) continue;
    for (int sx = 0; sx < src.width; ++sx) {
      const int dx = x + sx;
      if (dx < 0 || dx >= dst.width) continue;
      const std::uint8_t* s = src.pixel(sx, sy);
      blend_over(dst.pixel(dx, dy), s[0], s[1], s[2], static_cast<float>(s[3]) / 255.0f * clamp01(opacity));
    }
  }
}

void composite_silhouette(imaging::Image& dst, const imaging::Image& src, int x, int y, Rgba8 color) {
  const float alpha = static_cast<float>(color.a) / 255.0f;
  for (int sy = 0; sy < src.height; ++sy) {
    const int dy = y + sy;
    if (dy < 0 || dy >= dst.height) continue;
    for (int sx = 0; sx < src.width; ++sx) {
      const int dx = x + sx;
      if (dx < 0 || dx >= dst.width) continue;
      const float a = static_cast<float>(src.pixel(sx, sy)[3]) / 255.0f * alpha;
      blend_over(dst.pixel(dx, dy), color.r, color.g, color.b, a);
    }
  }
}

// ---- text ----------------------------------------------------------------------------------------

int text_width(std::string_view text, int scale) {
  if (text.empty()) return 0;
  return (static_cast<int>(text.size()) * kGlyphAdvance - (kGlyphAdvance - kGlyphWidth)) * scale;
}

void draw_text(imaging::Image& image, int x, int y, std::string_view text, Rgba8 color, int scale) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(text[i]);
    const auto& glyph = kFont[ch >= 32 && ch <= 126 ? ch - 32 : '?' - 32];
    const int gx = x + static_cast<int>(i) * kGlyphAdvance * scale;
    for (int row = 0; row < kGlyphHeight; ++row)
      for (int col = 0; col < kGlyphWidth; ++col)
        if (glyph[static_cast<std::size_t>(row)] & (0x10 >> col))
          fill_rect(image, {gx + col * scale, y + row * scale, scale, scale}, color);
  }
}

void draw_text_outlined(imaging::Image& image, int x, int y, std::string_view text, Rgba8 color, int scale) {
  // The outline is drawn as the text's shape offset in eight directions, into a mask first so that
  // overlapping offsets do not darken each other.
  const int w = text_width(text, scale) + 2, h = kGlyphHeight * scale + 2;
  imaging::Image mask = imaging::Image::blank(w, h);
  for (int oy = 0; oy <= 2; ++oy)
    for (int ox = 0; ox <= 2; ++ox) draw_text(mask, ox, oy, text, Rgba8{0, 0, 0, 255}, scale);
  composite_silhouette(image, mask, x - 1, y - 1, kShadow);
  draw_text(image, x, y, text, color, scale);
}

// ---- layout --------------------------------------------------------------------------------------

imaging::Rect SheetLayout::cell(int frame) const {
  const int column = frame % std::max(columns, 1), row = frame / std::max(columns, 1);
  return {padding + column * (cell_width() + padding), title_height + padding + row * (cell_height() + padding),
          cell_width(), cell_height()};
}

imaging::Rect SheetLayout::label(int frame) const {
  const imaging::Rect c = cell(frame);
  return {c.x, c.y, c.width, label_height};
}

imaging::Rect SheetLayout::art(int frame) const {
  const imaging::Rect c = cell(frame);
  return {c.x, c.y + label_height, frame_width, frame_height};
}

imaging::Rect SheetLayout::strip(int frame) const {
  const imaging::Rect c = cell(frame);
  return {c.x, c.y + label_height + frame_height, c.width, strip_height};
}

std::vector<std::string> title_lines(std::string_view title, int width, int padding, int& scale) {
  const int room = width - 2 * padding;
  if (text_width(title, scale) <= room) return {std::string(title)};
  scale = 1;
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start <= title.size()) {
    const std::size_t bar = title.find(" | ", start);
    const std::string_view part = title.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start);
    if (!line.empty() && text_width(line + " | " + std::string(part), scale) > room) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " | ") + std::string(part);
    if (bar == std::string_view::npos) break;
    start = bar + 3;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

SheetLayout layout_sheet(int frames, int frame_width, int frame_height, int max_columns, std::string_view title) {
  SheetLayout l;
  l.frames = std::max(frames, 1);
  l.columns = std::min(l.frames, std::max(max_columns, 1));
  l.rows = (l.frames + l.columns - 1) / l.columns;
  l.frame_width = frame_width;
  l.frame_height = frame_height;
  l.text_scale = frame_width >= 160 ? 2 : 1;
  const int line = kGlyphHeight * l.text_scale;
  l.padding = 4 * l.text_scale;
  int title_scale = l.text_scale;
  const std::size_t lines = title_lines(title, l.width(), l.padding, title_scale).size();
  l.title_height = static_cast<int>(lines) * (kGlyphHeight + 2) * title_scale + 4 * l.text_scale - 2 * title_scale;
  l.label_height = line + 3 * l.text_scale;
  // Two rows of event names, the bar, and the time scale under it.
  l.strip_height = 2 * (line + 2 * l.text_scale) + 6 * l.text_scale + line + 3 * l.text_scale;
  return l;
}

SheetView fit_view(const Bounds& bounds, int width, int height, float margin) {
  float min_x = bounds.min_x, min_y = bounds.min_y, max_x = bounds.max_x, max_y = bounds.max_y;
  if (bounds.empty()) min_x = max_x = min_y = max_y = 0;
  const float cx = (min_x + max_x) * 0.5f, cy = (min_y + max_y) * 0.5f;
  const float bw = std::max(max_x - min_x, 1.0f), bh = std::max(max_y - min_y, 1.0f);
  const float room_w = std::max(static_cast<float>(width) - 2 * margin, 1.0f);
  const float room_h = std::max(static_cast<float>(height) - 2 * margin, 1.0f);
  SheetView v;
  v.scale = std::min(room_w / bw, room_h / bh);
  v.offset_x = static_cast<float>(width) * 0.5f - cx * v.scale;
  v.offset_y = static_cast<float>(height) * 0.5f - cy * v.scale;
  return v;
}

namespace {
// The strip's bar and labels keep this far from its left and right edges (in text-scale units).
constexpr int kStripInset = 8;
}  // namespace

float strip_x(const imaging::Rect& strip, float time, float length) {
  const float left = static_cast<float>(strip.x + kStripInset), right = static_cast<float>(strip.x + strip.width - kStripInset);
  if (!(length > 0)) return left;
  return left + (right - left) * clamp01(time / length);
}

// ---- content -------------------------------------------------------------------------------------

std::vector<BoneSegment> bone_segments(const skel::SkeletonPose& pose, std::span<const Rgba8> colors) {
  const skel::SkeletonData& data = pose.data();
  std::vector<BoneSegment> out;
  out.reserve(data.bones.size());
  for (std::size_t b = 0; b < data.bones.size(); ++b) {
    if (!pose.active[b]) continue;
    const float len = data.bones.length[b];
    BoneSegment s;
    s.x0 = pose.world_x[b];
    s.y0 = pose.world_y[b];
    s.x1 = s.x0 + pose.a[b] * len;
    s.y1 = s.y0 + pose.c[b] * len;
    s.color = b < colors.size() ? colors[b] : sheet_colors::kBone;
    out.push_back(s);
  }
  return out;
}

std::string time_label(float time) {
  char text[32];
  std::snprintf(text, sizeof text, "t=%.3f", static_cast<double>(time));
  return text;
}

namespace {

// The art area of one frame: background, ground and origin, onion skins, art, bounds, bones.
imaging::Image draw_frame(const SheetLayout& layout, const SheetContent& content, const SheetFrame& frame) {
  imaging::Image img = imaging::Image::blank(layout.frame_width, layout.frame_height);
  fill_rect(img, {0, 0, img.width, img.height}, sheet_colors::kCell);
  const SheetView& v = content.view;
  const float s = static_cast<float>(layout.text_scale);

  // Ground (skeleton y = 0) across the frame under everything; on pixel centres, so crisp.
  const float gx = std::floor(v.x(0)) + 0.5f, gy = std::floor(v.y(0)) + 0.5f;
  draw_line(img, 0, gy, static_cast<float>(img.width), gy, 1, sheet_colors::kGround);

  if (content.onion) {
    if (frame.onion_before) composite_silhouette(img, *frame.onion_before, 0, 0, sheet_colors::kOnionBefore);
    if (frame.onion_after) composite_silhouette(img, *frame.onion_after, 0, 0, sheet_colors::kOnionAfter);
  }
  composite(img, frame.art, 0, 0);

  // The origin over the art, where the feet meet it.
  const float arm = 5 * s;
  draw_line(img, gx - arm, gy, gx + arm, gy, 1.5f, sheet_colors::kOrigin);
  draw_line(img, gx, gy - arm, gx, gy + arm, 1.5f, sheet_colors::kOrigin);

  if (content.bounds && !frame.bounds.empty())
    draw_rect_outline(img, std::floor(v.x(frame.bounds.min_x)) + 0.5f, std::floor(v.y(frame.bounds.min_y)) + 0.5f,
                      std::floor(v.x(frame.bounds.max_x)) + 0.5f, std::floor(v.y(frame.bounds.max_y)) + 0.5f,
                      sheet_colors::kBounds, 4);

  if (content.bones) {
    // Dark outlines first, so each bone reads over art of any colour; then the bones; joints on top.
    const float width = 1.5f, joint = 2.2f;
    for (const BoneSegment& b : frame.bones)
      draw_line(img, v.x(b.x0), v.y(b.y0), v.x(b.x1), v.y(b.y1), width + 2, with_alpha(kShadow, 120));
    for (const BoneSegment& b : frame.bones)
      draw_line(img, v.x(b.x0), v.y(b.y0), v.x(b.x1), v.y(b.y1), width, with_alpha(b.color, 230));
    for (const BoneSegment& b : frame.bones) {
      draw_disc(img, v.x(b.x0), v.y(b.y0), joint + 1, with_alpha(kShadow, 150));
      draw_disc(img, v.x(b.x0), v.y(b.y0), joint, Rgba8{255, 255, 255, 235});
    }
  }
  return img;
}

void draw_label(imaging::Image& sheet, const SheetLayout& layout, int index, const SheetFrame& frame) {
  const imaging::Rect r = layout.label(index);
  const int s = layout.text_scale;
  fill_rect(sheet, r, sheet_colors::kStrip);
  const int ty = r.y + (r.height - kGlyphHeight * s) / 2;
  draw_text(sheet, r.x + 3 * s, ty, time_label(frame.time), sheet_colors::kText, s);
  const std::string number = "#" + std::to_string(index);
  draw_text(sheet, r.x + r.width - 3 * s - text_width(number, s), ty, number, sheet_colors::kDimText, s);
}

void draw_strip(imaging::Image& sheet, const SheetLayout& layout, const SheetContent& content, std::span<const SheetFrame> frames,
                int index) {
  const imaging::Rect r = layout.strip(index);
  const int s = layout.text_scale;
  const int line = kGlyphHeight * s;
  const int name_row = line + 2 * s;
  fill_rect(sheet, r, sheet_colors::kStrip);
  const int bar_top = r.y + 2 * name_row + 2 * s, bar_height = 3 * s;
  const float left = strip_x(r, 0, content.length), right = strip_x(r, content.length, content.length);
  const SheetFrame& frame = frames[static_cast<std::size_t>(index)];
  const float head = strip_x(r, frame.time, content.length);

  // The bar, filled up to the playhead.
  fill_rect(sheet, {static_cast<int>(left), bar_top, static_cast<int>(right - left) + 1, bar_height}, sheet_colors::kBar);
  fill_rect(sheet, {static_cast<int>(left), bar_top, static_cast<int>(head - left) + 1, bar_height},
            with_alpha(sheet_colors::kPlayhead, 110));
  // Every frame's time as a small tick under the bar.
  for (const SheetFrame& f : frames) {
    const float x = std::floor(strip_x(r, f.time, content.length)) + 0.5f;
    draw_line(sheet, x, static_cast<float>(bar_top + bar_height), x, static_cast<float>(bar_top + bar_height + 2 * s), 1,
              sheet_colors::kDimText);
  }

  // Events: a tick through the bar and the name above it, on the first of two rows where it fits.
  std::array<int, 2> row_end = {r.x, r.x};
  for (std::size_t e = 0; e < content.events.size(); ++e) {
    const SheetEvent& ev = content.events[e];
    const bool fired = std::find(frame.fired.begin(), frame.fired.end(), static_cast<int>(e)) != frame.fired.end();
    const Rgba8 color = fired ? sheet_colors::kEventFired : sheet_colors::kEvent;
    const float x = std::floor(strip_x(r, ev.time, content.length)) + 0.5f;
    const int w = text_width(ev.name, s);
    int tx = static_cast<int>(x) - w / 2;
    tx = std::clamp(tx, r.x + 2 * s, std::max(r.x + 2 * s, r.x + r.width - 2 * s - w));
    int row = -1;
    for (int candidate = 0; candidate < 2 && row < 0; ++candidate)
      if (tx >= row_end[static_cast<std::size_t>(candidate)]) row = candidate;
    const int row_y = r.y + s + (row < 0 ? 1 : row) * name_row;
    draw_line(sheet, x, static_cast<float>(row < 0 ? bar_top - 2 * s : row_y + line + s), x,
              static_cast<float>(bar_top + bar_height + s), fired ? 2.0f * static_cast<float>(s) : static_cast<float>(s), color);
    if (row >= 0) {
      draw_text(sheet, tx, row_y, ev.name, color, s);
      row_end[static_cast<std::size_t>(row)] = tx + w + 3 * s;
    }
  }

  // The playhead over everything: a line across the bar with a small cap.
  const float hx = std::floor(head) + 0.5f;
  draw_line(sheet, hx, static_cast<float>(bar_top - 2 * s), hx, static_cast<float>(bar_top + bar_height + 2 * s),
            1.5f * static_cast<float>(s), sheet_colors::kPlayhead);

  // The time scale: 0 at the left end, the length at the right.
  const int scale_y = bar_top + bar_height + 3 * s;
  char length_text[32];
  std::snprintf(length_text, sizeof length_text, "%.3fs", static_cast<double>(content.length));
  draw_text(sheet, static_cast<int>(left), scale_y, "0", sheet_colors::kDimText, s);
  draw_text(sheet, static_cast<int>(right) + 1 - text_width(length_text, s), scale_y, length_text, sheet_colors::kDimText, s);
}

}  // namespace

imaging::Image compose_sheet(const SheetLayout& layout, const SheetContent& content, std::span<const SheetFrame> frames) {
  imaging::Image sheet = imaging::Image::blank(layout.width(), layout.height());
  fill_rect(sheet, {0, 0, sheet.width, sheet.height}, sheet_colors::kBackground);
  int title_scale = layout.text_scale;
  const std::vector<std::string> lines = title_lines(content.title, sheet.width, layout.padding, title_scale);
  const int line_height = (kGlyphHeight + 2) * title_scale;
  int y = (layout.title_height + layout.padding - static_cast<int>(lines.size()) * line_height + 2 * title_scale) / 2;
  for (const std::string& line : lines) {
    draw_text(sheet, layout.padding, y, line, sheet_colors::kText, title_scale);
    y += line_height;
  }
  const int count = std::min(static_cast<int>(frames.size()), layout.frames);
  for (int i = 0; i < count; ++i) {
    const SheetFrame& frame = frames[static_cast<std::size_t>(i)];
    draw_label(sheet, layout, i, frame);
    const imaging::Rect art = layout.art(i);
    composite(sheet, draw_frame(layout, content, frame), art.x, art.y);
    draw_strip(sheet, layout, content, frames.subspan(0, static_cast<std::size_t>(count)), i);
  }
  return sheet;
}

}  // namespace mf::tools
