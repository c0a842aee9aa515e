// The Properties panel: every field of the selected bone or slot as the .mskel holds it, read-only,
// with its unit; for a bone also its world transform in the setup pose (constraints applied), for a
// slot the attachments it has in each skin.

#include <cmath>
#include <cstdio>
#include <string>

#include "mf/core/color.hpp"
#include "panels.hpp"
#include "ui_widgets.hpp"

namespace mf::editor {
namespace {

constexpr float kDegrees = 57.29577951308232f;

std::string number(float v, const char* format = "%.3f") {
  char text[64];
  std::snprintf(text, sizeof text, format, static_cast<double>(v));
  return text;
}

void row(const char* field, const std::string& value, const char* unit = "") {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted(field);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextUnformatted(value.c_str());
  ImGui::TableSetColumnIndex(2);
  ImGui::TextDisabled("%s", unit);
}

void heading(const char* text) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextDisabled("%s", text);
}

bool begin_fields() {
  if (!ImGui::BeginTable("fields", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp))
    return false;
  ImGui::TableSetupColumn("Field", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("Value", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn("Unit", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  ImGui::TableHeadersRow();
  return true;
}

void bone_fields(const EditorState& state, const offline::SkeletonSource& s, int index) {
  const offline::Bone& b = s.bones[static_cast<std::size_t>(index)];
  ImGui::Text("Bone %s", b.name.c_str());
  if (!begin_fields()) return;
  row("name", b.name);
  row("parent", b.parent >= 0 ? s.bones[static_cast<std::size_t>(b.parent)].name : std::string("(none: a root)"));
  row("x", number(b.x), "px");
  row("y", number(b.y), "px");
  row("rotation", number(b.rotation), "°");
  row("scale x", number(b.scale_x), "×");
  row("scale y", number(b.scale_y), "×");
  row("shear x", number(b.shear_x), "°");
  row("shear y", number(b.shear_y), "°");
  row("length", number(b.length), "px");
  row("inherit", offline::to_string(b.inherit));
  row("colour", to_hex_rgba(b.color), "RGBA");
  row("skin required", b.skin_required ? "yes" : "no");
  const int r = static_cast<std::size_t>(index) < state.rig.runtime_bone.size() ? state.rig.runtime_bone[static_cast<std::size_t>(index)] : -1;
  if (const skel::SkeletonPose* pose = state.rig.pose(); pose && r >= 0) {
    const auto i = static_cast<std::size_t>(r);
    heading("setup pose, world");
    row("world x", number(pose->world_x[i]), "px");
    row("world y", number(pose->world_y[i]), "px");
    row("world rotation", number(std::atan2(pose->c[i], pose->a[i]) * kDegrees), "°");
    row("world scale x", number(std::hypot(pose->a[i], pose->c[i])), "×");
    row("world scale y", number(std::hypot(pose->b[i], pose->d[i])), "×");
    row("active", pose->active[i] ? "yes" : "no (skin)");
  }
  ImGui::EndTable();
}

void slot_fields(const offline::SkeletonSource& s, int index) {
  const offline::Slot& sl = s.slots[static_cast<std::size_t>(index)];
  ImGui::Text("Slot %s", sl.name.c_str());
  if (!begin_fields()) return;
  row("name", sl.name);
  row("bone", s.bones[static_cast<std::size_t>(sl.bone)].name);
  row("draw order", std::to_string(index) + " (0: back)");
  row("setup attachment", sl.attachment.empty() ? std::string("(none)") : sl.attachment);
  row("colour", to_hex_rgba(sl.color), "RGBA");
  row("dark colour", sl.dark ? to_hex_rgb(*sl.dark) : std::string("(none)"), "RGB");
  row("blend", offline::to_string(sl.blend));
  heading("attachments");
  for (const offline::Skin& skin : s.skins)
    for (const offline::Attachment& a : skin.attachments)
      if (a.slot == index) row((skin.name + " / " + a.name).c_str(), offline::to_string(a.type()));
  ImGui::EndTable();
}

}  // namespace

void properties_panel(EditorState& state, const ScreenRect& rect) {
  if (ui::begin_panel(state.registry, "Properties", rect)) {
    const offline::SkeletonSource* s = state.source();
    if (!s || state.selection.empty()) ImGui::TextDisabled("Select a bone or a slot");
    else if (state.selection.kind == ObjectKind::Bone) bone_fields(state, *s, state.selection.index);
    else slot_fields(*s, state.selection.index);
    if (s && !state.selection.empty()) ImGui::TextDisabled("Pixels with Y down; degrees clockwise on screen.");
  }
  ui::end_panel(state.registry);
}

}  // namespace mf::editor
