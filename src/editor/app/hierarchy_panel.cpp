// The Hierarchy panel: bones as a tree, each bone's slots under it (in a colour of their own). A
// click selects; a selection made elsewhere opens the tree down to it and scrolls it into view.

#include <algorithm>
#include <cstdint>

#include "panels.hpp"
#include "ui_widgets.hpp"

namespace mf::editor {
namespace {

const ImVec4 kSlotText{0.62f, 0.85f, 0.62f, 1};

struct HierarchyBuilder {
  EditorState& state;
  const offline::SkeletonSource& skeleton;
  std::vector<int> reveal_path;  // bones to open so the selection shows

  void scroll_here() {
    ImGui::SetScrollHereY(0.5f);
    ImGui::SetScrollFromPosX(ImGui::GetItemRectMin().x - ImGui::GetWindowPos().x, 0.1f);
    state.registry.note_scroll();
  }

  void slot(int s) {
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen | ImGuiTreeNodeFlags_SpanAvailWidth;
    if (state.selection.is_slot(s)) flags |= ImGuiTreeNodeFlags_Selected;
    ImGui::PushStyleColor(ImGuiCol_Text, kSlotText);
    // Ids: bones are 2i, slots 2i + 1, so a slot never shares a bone's id.
    const ui::TreeNodeResult r = ui::tree_node(state.registry, reinterpret_cast<const void*>(static_cast<std::intptr_t>(2 * s + 1)),
                                               skeleton.slots[static_cast<std::size_t>(s)].name, flags);
    ImGui::PopStyleColor();
    if (state.selection.is_slot(s) && state.reveal_in_hierarchy) scroll_here();
    if (r.clicked) state.select(Selection::slot(s), true);
  }

  void bone(int b) {
    const auto i = static_cast<std::size_t>(b);
    const bool leaf = state.outline.child_bones[i].empty() && state.outline.bone_slots[i].empty();
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_OpenOnDoubleClick | ImGuiTreeNodeFlags_SpanAvailWidth |
                               ImGuiTreeNodeFlags_DefaultOpen;
    if (leaf) flags |= ImGuiTreeNodeFlags_Leaf;
    if (state.selection.is_bone(b)) flags |= ImGuiTreeNodeFlags_Selected;
    if (std::find(reveal_path.begin(), reveal_path.end(), b) != reveal_path.end()) ImGui::SetNextItemOpen(true);
    const ui::TreeNodeResult r =
        ui::tree_node(state.registry, reinterpret_cast<const void*>(static_cast<std::intptr_t>(2 * b)), skeleton.bones[i].name, flags);
    if (state.selection.is_bone(b) && state.reveal_in_hierarchy) scroll_here();
    if (r.clicked) state.select(Selection::bone(b), true);
    if (!r.open) return;
    for (const int s : state.outline.bone_slots[i]) slot(s);
    for (const int c : state.outline.child_bones[i]) bone(c);
    ui::tree_pop(state.registry);
  }
};

}  // namespace

void hierarchy_panel(EditorState& state, const ScreenRect& rect) {
  // A deep rig (spineboy nests 12 bones) stays readable with a small indent and a horizontal scroll.
  ImGui::PushStyleVar(ImGuiStyleVar_IndentSpacing, 12.0f);
  if (ui::begin_panel(state.registry, "Hierarchy", rect, ImGuiWindowFlags_HorizontalScrollbar)) {
    if (const offline::SkeletonSource* skeleton = state.source()) {
      HierarchyBuilder builder{state, *skeleton, {}};
      if (state.reveal_in_hierarchy) {
        int bone = -1;
        if (state.selection.kind == ObjectKind::Bone) bone = skeleton->bones[static_cast<std::size_t>(state.selection.index)].parent;
        if (state.selection.kind == ObjectKind::Slot) bone = skeleton->slots[static_cast<std::size_t>(state.selection.index)].bone;
        builder.reveal_path = RigOutline::ancestry(*skeleton, bone);
      }
      for (const int root : state.outline.roots) builder.bone(root);
    } else {
      ImGui::TextDisabled("No rig open");
    }
    state.reveal_in_hierarchy = false;
  }
  ui::end_panel(state.registry);
  ImGui::PopStyleVar();
}

}  // namespace mf::editor
