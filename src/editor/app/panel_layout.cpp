#include "panel_layout.hpp"

#include <algorithm>

namespace mf::editor {

PanelLayout layout_panels(Vec2 display) {
  const float w = std::max(display.x, 1.0f), h = std::max(display.y, 1.0f);
  // Shares of the window, within limits, and never more than a third of it each.
  const float left = std::min(std::clamp(w * 0.2f, 160.0f, 320.0f), w / 3);
  const float right = std::min(std::clamp(w * 0.24f, 200.0f, 360.0f), w / 3);
  const float bottom = std::min(std::clamp(h * 0.2f, 90.0f, 220.0f), h / 3);
  const float top_height = h - bottom;
  PanelLayout out;
  out.hierarchy = {{0, 0}, {left, top_height}};
  out.viewport = {{left, 0}, {w - left - right, top_height}};
  out.properties = {{w - right, 0}, {right, top_height}};
  out.output = {{0, top_height}, {w, bottom}};
  return out;
}

}  // namespace mf::editor
