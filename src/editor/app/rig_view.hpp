#pragma once
// RigView: how the viewport shows the rig. Rig coordinates are the skeleton's own (pixels, Y down);
// screen coordinates are the window's, in ImGui's units. A point p of the rig is shown at
// origin + p · scale: a uniform zoom and a pan, nothing else, so the mapping is exact both ways.

#include "mf/core/math/bounds.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf::editor {

// A rectangle on the screen: its top-left corner and size.
struct ScreenRect {
  Vec2 min, size;

  Vec2 max() const { return min + size; }
  Vec2 center() const { return min + size * 0.5f; }
  bool contains(Vec2 p) const { return p.x >= min.x && p.y >= min.y && p.x < min.x + size.x && p.y < min.y + size.y; }
  bool empty() const { return size.x <= 0 || size.y <= 0; }
};

class RigView {
 public:
  static constexpr float kMinScale = 0.01f;
  static constexpr float kMaxScale = 100.0f;
  // One wheel notch zooms by this factor.
  static constexpr float kWheelFactor = 1.15f;
  // Frame all leaves this fraction of the viewport's smaller side as a margin on each side.
  static constexpr float kFrameMargin = 0.06f;

  Vec2 to_screen(Vec2 rig) const { return origin_ + rig * scale_; }
  Vec2 to_rig(Vec2 screen) const { return (screen - origin_) / scale_; }
  float scale() const { return scale_; }
  Vec2 origin() const { return origin_; }

  // Moves the picture by `delta` screen units.
  void pan(Vec2 delta) { origin_ += delta; }
  // Multiplies the scale by `factor` (clamped to [kMinScale, kMaxScale]), keeping the rig point
  // under `anchor` (a screen point) where it is.
  void zoom_about(Vec2 anchor, float factor);
  // One wheel movement: `notches` > 0 zooms in.
  void wheel(Vec2 anchor, float notches);
  // Shows `bounds` (rig coordinates) centred in `viewport`, as large as fits with the margin. Empty
  // bounds centre the rig's origin at scale 1.
  void frame(const Bounds& bounds, const ScreenRect& viewport);

 private:
  Vec2 origin_{0, 0};
  float scale_ = 1;
};

}  // namespace mf::editor
