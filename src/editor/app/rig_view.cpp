#include "rig_view.hpp"

#include <algorithm>
#include <cmath>

namespace mf::editor {

void RigView::zoom_about(Vec2 anchor, float factor) {
  if (!(factor > 0) || !std::isfinite(factor)) return;
  const Vec2 under = to_rig(anchor);
  scale_ = std::clamp(scale_ * factor, kMinScale, kMaxScale);
  origin_ = anchor - under * scale_;
}

void RigView::wheel(Vec2 anchor, float notches) { zoom_about(anchor, std::pow(kWheelFactor, notches)); }

void RigView::frame(const Bounds& bounds, const ScreenRect& viewport) {
  if (viewport.empty()) return;
  if (bounds.empty()) {
    scale_ = 1;
    origin_ = viewport.center();
    return;
  }
  const float margin = kFrameMargin * std::min(viewport.size.x, viewport.size.y);
  const float room_x = std::max(1.0f, viewport.size.x - 2 * margin);
  const float room_y = std::max(1.0f, viewport.size.y - 2 * margin);
  // A point or a line has no extent on an axis: that axis does not limit the scale.
  const float width = bounds.max_x - bounds.min_x, height = bounds.max_y - bounds.min_y;
  float scale = kMaxScale;
  if (width > 0) scale = std::min(scale, room_x / width);
  if (height > 0) scale = std::min(scale, room_y / height);
  if (width <= 0 && height <= 0) scale = 1;
  scale_ = std::clamp(scale, kMinScale, kMaxScale);
  const Vec2 middle{(bounds.min_x + bounds.max_x) * 0.5f, (bounds.min_y + bounds.max_y) * 0.5f};
  origin_ = viewport.center() - middle * scale_;
}

}  // namespace mf::editor
