#pragma once
// The widgets the editor's panels use, each recorded in the WidgetRegistry under its label path as it
// is built (widget_registry.hpp), so scripts can click them. A panel is a fixed window; tree nodes
// open a scope of their own.

#include <imgui.h>

#include <string_view>

#include "rig_view.hpp"
#include "widget_registry.hpp"

namespace mf::editor::ui {

ScreenRect to_rect(ImVec2 min, ImVec2 max);

// A panel: a window placed at `rect`, not movable or resizable. Always call end_panel.
bool begin_panel(WidgetRegistry& registry, const char* name, const ScreenRect& rect, ImGuiWindowFlags extra = 0);
void end_panel(WidgetRegistry& registry);

// Records the last widget ImGui submitted under `label`, and scrolls it into view when a script asked.
// `skip_x` leaves out the widget's first units (a tree node's arrow): a click lands after them.
void record_item(WidgetRegistry& registry, std::string_view label, float skip_x = 0);

struct TreeNodeResult {
  bool open = false;     // the caller draws its children and calls tree_pop
  bool clicked = false;  // clicked on its label (not on the arrow that opens it)
};
// A tree node with an id of its own (`id` unique within the panel) showing `label`. Leaves are built
// with ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen and never need tree_pop.
TreeNodeResult tree_node(WidgetRegistry& registry, const void* id, std::string_view label, ImGuiTreeNodeFlags flags);
void tree_pop(WidgetRegistry& registry);

// A selectable row showing `text`, recorded as `label`.
bool selectable(WidgetRegistry& registry, const char* id, std::string_view text, std::string_view label, bool selected);

}  // namespace mf::editor::ui
