#pragma once
// The contact sheet of `mfe skel render`: frames of a clip in a grid, each cell with its label
// ("t=0.267"), the rendered art over faint onion silhouettes of its neighbours, the ground line and
// origin, the pose bounds, the bones, and a timeline strip with the clip's events and the frame's
// playhead. The art comes from the renderer; everything else is drawn here on CPU images, so the
// layout and overlays are testable without a GPU.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/color.hpp"
#include "mf/core/math/bounds.hpp"
#include "mf/imaging/image.hpp"
#include "mf/skel/clip_data.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::tools {

// ---- drawing on straight-alpha images (every call blends "over" and clips to the image) ----------

// Blends `color` over one pixel with coverage 0…1.
void blend_pixel(imaging::Image& image, int x, int y, Rgba8 color, float coverage = 1);
void fill_rect(imaging::Image& image, const imaging::Rect& rect, Rgba8 color);
// An anti-aliased line `width` pixels wide with round caps, in pixel coordinates (pixel centres at +0.5).
void draw_line(imaging::Image& image, float x0, float y0, float x1, float y1, float width, Rgba8 color);
void draw_disc(imaging::Image& image, float cx, float cy, float radius, Rgba8 color);
// The outline of the rectangle [x0, x1] × [y0, y1], dashes `dash` pixels long (0: solid).
void draw_rect_outline(imaging::Image& image, float x0, float y0, float x1, float y1, Rgba8 color, float dash = 0);
// Composites `src` over `dst` with its top-left at (x, y); `opacity` scales its alpha.
void composite(imaging::Image& dst, const imaging::Image& src, int x, int y, float opacity = 1);
// Composites the shape of `src` (its alpha) in one flat colour: the onion skins.
void composite_silhouette(imaging::Image& dst, const imaging::Image& src, int x, int y, Rgba8 color);

// ---- text: a built-in 5×7 pixel font for printable ASCII; other bytes draw as '?' ----------------

inline constexpr int kGlyphWidth = 5, kGlyphHeight = 7, kGlyphAdvance = 6;
// Width in pixels of `text` drawn at `scale` (no trailing gap).
int text_width(std::string_view text, int scale = 1);
// Draws `text` with its top-left at (x, y), each font pixel a scale × scale block.
void draw_text(imaging::Image& image, int x, int y, std::string_view text, Rgba8 color, int scale = 1);
// Text with a one-pixel dark outline, readable over art of any colour.
void draw_text_outlined(imaging::Image& image, int x, int y, std::string_view text, Rgba8 color, int scale = 1);

// ---- layout --------------------------------------------------------------------------------------

// Where everything of the sheet goes. The sheet is a title bar over a grid of cells, left to right
// then top to bottom; a cell is a label row, the art (frame_width × frame_height) and the timeline strip.
struct SheetLayout {
  int frames = 0, columns = 0, rows = 0;
  int frame_width = 0, frame_height = 0;
  int text_scale = 1;  // 2 when frames are wide enough for large text
  int padding = 0;     // around the grid and between cells
  int title_height = 0, label_height = 0, strip_height = 0;

  int cell_width() const { return frame_width; }
  int cell_height() const { return label_height + frame_height + strip_height; }
  int width() const { return padding + columns * (cell_width() + padding); }
  int height() const { return title_height + padding + rows * (cell_height() + padding); }

  imaging::Rect cell(int frame) const;
  imaging::Rect label(int frame) const;
  imaging::Rect art(int frame) const;
  imaging::Rect strip(int frame) const;
};

// Up to `max_columns` cells a row (fewer frames: one row); text at scale 2 when frames are at least
// 160 pixels wide. The title bar is as tall as `title` needs (see title_lines).
SheetLayout layout_sheet(int frames, int frame_width, int frame_height, int max_columns = 4, std::string_view title = {});

// The title as drawn on a sheet `width` pixels wide: one line at the layout's text scale when it fits,
// else lines broken at " | " at scale 1 (`scale` is set to the scale used).
std::vector<std::string> title_lines(std::string_view title, int width, int padding, int& scale);

// Skeleton space → frame pixels: pixel = skeleton × scale + offset (Y down in both).
struct SheetView {
  float scale = 1, offset_x = 0, offset_y = 0;
  float x(float skeleton_x) const { return skeleton_x * scale + offset_x; }
  float y(float skeleton_y) const { return skeleton_y * scale + offset_y; }
};

// The largest uniform scale that fits `bounds` into width × height less `margin` pixels on every
// side, centred. Empty or degenerate bounds are treated as a 1-pixel box around their centre.
SheetView fit_view(const Bounds& bounds, int width, int height, float margin);

// Timeline x of `time` in a strip: the bar runs from strip.x + inset to strip.x + width − inset.
float strip_x(const imaging::Rect& strip, float time, float length);

// ---- content -------------------------------------------------------------------------------------

// A bone as the overlay draws it, in skeleton space: from its world origin along its x axis for its
// length (a zero-length bone is a dot at its origin).
struct BoneSegment {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  Rgba8 color;
};

// The active bones of a pose with up-to-date world transforms; `colors` per bone (empty or short: a
// default colour).
std::vector<BoneSegment> bone_segments(const skel::SkeletonPose& pose, std::span<const Rgba8> colors);

struct SheetEvent {
  float time = 0;
  std::string name;
};

struct SheetFrame {
  float time = 0;
  imaging::Image art;  // frame_width × frame_height, straight alpha, transparent background
  std::vector<BoneSegment> bones;
  Bounds bounds;  // the pose's bounds, skeleton space
  // Neighbouring frames drawn as faint silhouettes under the art (null: none). Frame-sized images.
  const imaging::Image* onion_before = nullptr;
  const imaging::Image* onion_after = nullptr;
  // Events fired since the previous frame, highlighted on this frame's strip (indices into
  // SheetContent::events).
  std::vector<int> fired;
};

struct SheetContent {
  std::string title;   // the title bar's text
  float length = 0;    // the clip's length (the strip's span); 0 draws a strip without a time scale
  std::vector<SheetEvent> events;  // sorted by time
  SheetView view;      // the same for every frame, so motion reads at its true size
  bool bones = true, bounds = true, onion = true;
};

// Colours of the overlays, so tests and the help text agree on them.
namespace sheet_colors {
inline constexpr Rgba8 kBackground{24, 26, 30, 255};
inline constexpr Rgba8 kCell{58, 62, 70, 255};
inline constexpr Rgba8 kGround{150, 160, 175, 200};
inline constexpr Rgba8 kOrigin{255, 255, 255, 230};
inline constexpr Rgba8 kBounds{255, 214, 64, 190};
inline constexpr Rgba8 kOnionBefore{255, 70, 70, 80};
inline constexpr Rgba8 kOnionAfter{60, 220, 120, 80};
inline constexpr Rgba8 kStrip{34, 37, 43, 255};
inline constexpr Rgba8 kBar{100, 106, 118, 255};
inline constexpr Rgba8 kEvent{255, 150, 40, 255};
inline constexpr Rgba8 kEventFired{255, 235, 80, 255};
inline constexpr Rgba8 kPlayhead{90, 200, 255, 255};
inline constexpr Rgba8 kText{235, 238, 242, 255};
inline constexpr Rgba8 kDimText{160, 166, 176, 255};
inline constexpr Rgba8 kBone{230, 230, 230, 255};
}  // namespace sheet_colors

// Draws the whole sheet: one cell per frame (frames.size() must equal layout.frames).
imaging::Image compose_sheet(const SheetLayout& layout, const SheetContent& content, std::span<const SheetFrame> frames);

// "t=0.267": the frame label.
std::string time_label(float time);

}  // namespace mf::tools
