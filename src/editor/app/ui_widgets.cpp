#include "ui_widgets.hpp"

#include <algorithm>
#include <string>

namespace mf::editor::ui {

ScreenRect to_rect(ImVec2 min, ImVec2 max) { return {{min.x, min.y}, {max.x - min.x, max.y - min.y}}; }

bool begin_panel(WidgetRegistry& registry, const char* name, const ScreenRect& rect, ImGuiWindowFlags extra) {
  ImGui::SetNextWindowPos(ImVec2(rect.min.x, rect.min.y));
  ImGui::SetNextWindowSize(ImVec2(rect.size.x, rect.size.y));
  registry.push(name);
  return ImGui::Begin(name, nullptr,
                      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus | extra);
}

void end_panel(WidgetRegistry& registry) {
  ImGui::End();
  registry.pop();
}

void record_item(WidgetRegistry& registry, std::string_view label, float skip_x) {
  ImVec2 min = ImGui::GetItemRectMin();
  const ImVec2 max = ImGui::GetItemRectMax();
  min.x = std::min(min.x + skip_x, max.x);
  const ScreenRect rect = to_rect(min, max);
  // The window's clip rectangle while its contents are built: what of the item can be seen.
  const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin();
  const ImVec2 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
  const ImVec2 lo(std::max(rect.min.x, clip_min.x), std::max(rect.min.y, clip_min.y));
  const ImVec2 hi(std::min(rect.max().x, clip_max.x), std::min(rect.max().y, clip_max.y));
  // Less than a few units showing is not enough to aim at.
  constexpr float kAimable = 4;
  const ScreenRect visible = hi.x - lo.x >= kAimable && hi.y - lo.y >= 1 ? to_rect(lo, hi) : ScreenRect{};
  const std::string& path = registry.add(label, rect, visible);
  if (registry.take_reveal(path)) {
    ImGui::SetScrollHereY(0.5f);
    // The label's start, a little in from the left edge (deep tree nodes sit far to the right).
    ImGui::SetScrollFromPosX(min.x - ImGui::GetWindowPos().x, 0.1f);
    registry.note_scroll();
  }
}

TreeNodeResult tree_node(WidgetRegistry& registry, const void* id, std::string_view label, ImGuiTreeNodeFlags flags) {
  const std::string text(label);
  TreeNodeResult result;
  result.open = ImGui::TreeNodeEx(id, flags, "%s", text.c_str());
  result.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left) && !ImGui::IsItemToggledOpen();
  record_item(registry, label, ImGui::GetTreeNodeToLabelSpacing());
  if (result.open && !(flags & ImGuiTreeNodeFlags_NoTreePushOnOpen)) registry.push(label);
  return result;
}

void tree_pop(WidgetRegistry& registry) {
  ImGui::TreePop();
  registry.pop();
}

bool selectable(WidgetRegistry& registry, const char* id, std::string_view text, std::string_view label, bool selected) {
  ImGui::PushID(id);
  const std::string shown(text);
  const bool clicked = ImGui::Selectable(shown.c_str(), selected);
  ImGui::PopID();
  record_item(registry, label);
  return clicked;
}

}  // namespace mf::editor::ui
