#pragma once
// Where the panels go: fixed panels filling the window (Dear ImGui 1.86 from Debian has no docking):
// Hierarchy on the left, Properties on the right, Output along the bottom, the Viewport in between.
// Side panels and the output take a share of the window within limits, so small windows keep a
// usable viewport.

#include "mf/core/math/vec2.hpp"
#include "rig_view.hpp"

namespace mf::editor {

struct PanelLayout {
  ScreenRect hierarchy, viewport, properties, output;
};

PanelLayout layout_panels(Vec2 display);

}  // namespace mf::editor
