// The Viewport panel. The rig itself is drawn by the skeleton renderer under the UI (see
// imgui_renderer.hpp); this panel has no background, takes the mouse over its canvas, and draws the
// grid, the bones and the joints over the rig with ImGui's draw list, in rig coordinates mapped
// through the view.

#include <algorithm>
#include <cmath>

#include "panels.hpp"
#include "ui_widgets.hpp"

namespace mf::editor {
namespace {

// Grid lines are at least this far apart on the screen.
constexpr float kGridMinSpacing = 16.0f;
constexpr int kGridMaxLines = 400;

ImVec2 im(Vec2 v) { return {v.x, v.y}; }
ImU32 selection_colour(int alpha = 255) { return IM_COL32(kSelectionRgb[0], kSelectionRgb[1], kSelectionRgb[2], alpha); }

// The grid step in rig pixels: 1, 2 or 5 times a power of ten, the smallest at least kGridMinSpacing
// apart on the screen.
float grid_step(float scale) {
  const float wanted = kGridMinSpacing / scale;
  const float power = std::pow(10.0f, std::floor(std::log10(wanted)));
  for (const float m : {1.0f, 2.0f, 5.0f, 10.0f})
    if (power * m >= wanted) return power * m;
  return power * 10;
}

void draw_grid(ImDrawList* dl, const RigView& view, const ScreenRect& canvas) {
  const float step = grid_step(view.scale());
  const Vec2 lo = view.to_rig(canvas.min), hi = view.to_rig(canvas.max());
  const auto line_colour = [](float value, float step_size, bool axis_x) {
    if (std::fabs(value) < step_size * 0.01f) return axis_x ? IM_COL32(220, 90, 90, 120) : IM_COL32(90, 200, 110, 120);
    const bool major = std::fabs(std::remainder(value, step_size * 5)) < step_size * 0.01f;
    return major ? IM_COL32(255, 255, 255, 34) : IM_COL32(255, 255, 255, 14);
  };
  int lines = 0;
  for (float x = std::ceil(lo.x / step) * step; x <= hi.x && lines < kGridMaxLines; x += step, ++lines) {
    const float sx = view.to_screen({x, 0}).x;
    dl->AddLine(ImVec2(sx, canvas.min.y), ImVec2(sx, canvas.max().y), line_colour(x, step, false));
  }
  for (float y = std::ceil(lo.y / step) * step; y <= hi.y && lines < 2 * kGridMaxLines; y += step, ++lines) {
    const float sy = view.to_screen({0, y}).y;
    dl->AddLine(ImVec2(canvas.min.x, sy), ImVec2(canvas.max().x, sy), line_colour(y, step, true));
  }
}

// A bone: a thin diamond from its joint to its tip (a dot for a bone without length) and its joint.
void draw_bone(ImDrawList* dl, const BoneSegment& seg, Rgba8 colour, bool selected) {
  const ImU32 fill = selected ? selection_colour() : IM_COL32(colour.r, colour.g, colour.b, 150);
  const ImU32 edge = selected ? selection_colour() : IM_COL32(colour.r, colour.g, colour.b, 255);
  const Vec2 along = seg.tip - seg.joint;
  const float len = length(along);
  if (len > 3) {
    const Vec2 d = along / len, n = perpendicular(d);
    const float width = std::clamp(len * 0.1f, 2.0f, 7.0f);
    const Vec2 waist = seg.joint + d * std::min(len * 0.25f, 4 * width);
    dl->AddQuadFilled(im(seg.joint), im(waist + n * width), im(seg.tip), im(waist - n * width), fill);
    dl->AddQuad(im(seg.joint), im(waist + n * width), im(seg.tip), im(waist - n * width), edge, selected ? 2.0f : 1.0f);
  }
  const float radius = selected ? 5.0f : 3.5f;
  dl->AddCircleFilled(im(seg.joint), radius, selected ? selection_colour() : IM_COL32(colour.r, colour.g, colour.b, 230));
  dl->AddCircle(im(seg.joint), radius, IM_COL32(20, 20, 24, 200));
}

void draw_bones(ImDrawList* dl, const EditorState& state) {
  const offline::SkeletonSource* s = state.source();
  if (!s) return;
  const std::vector<BoneSegment>& segments = state.viewport.segments;
  // Unselected bones first, the selected one last so it is never hidden.
  int selected_runtime = -1;
  for (std::size_t r = 0; r < segments.size(); ++r) {
    const int source = state.rig.source_bone[r];
    if (source < 0 || !segments[r].shown) continue;
    if (state.selection.is_bone(source)) {
      selected_runtime = static_cast<int>(r);
      continue;
    }
    draw_bone(dl, segments[r], s->bones[static_cast<std::size_t>(source)].color, false);
  }
  if (selected_runtime >= 0) {
    const auto r = static_cast<std::size_t>(selected_runtime);
    draw_bone(dl, segments[r], s->bones[static_cast<std::size_t>(state.rig.source_bone[r])].color, true);
  }
}

void handle_input(EditorState& state, bool hovered) {
  ViewportState& vp = state.viewport;
  const ImGuiIO& io = ImGui::GetIO();
  const Vec2 mouse{io.MousePos.x, io.MousePos.y};
  if (hovered && io.MouseWheel != 0) vp.view.wheel(mouse, io.MouseWheel);
  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Middle)) vp.panning = true;
  if (vp.panning) {
    if (ImGui::IsMouseDown(ImGuiMouseButton_Middle)) vp.view.pan({io.MouseDelta.x, io.MouseDelta.y});
    else vp.panning = false;
  }
  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && state.rig.has_pose()) {
    bone_segments(*state.rig.pose(), vp.view, vp.segments);
    const int picked = pick_bone(vp.segments, mouse);
    state.select(picked >= 0 ? Selection::bone(state.rig.source_bone[static_cast<std::size_t>(picked)]) : Selection{}, false);
  }
}

}  // namespace

void viewport_panel(EditorState& state, const ScreenRect& rect) {
  ViewportState& vp = state.viewport;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  const bool open = ui::begin_panel(state.registry, "Viewport", rect,
                                    ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar();
  if (open) {
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImVec2 size = ImGui::GetContentRegionAvail();
    size.x = std::max(size.x, 1.0f);
    size.y = std::max(size.y, 1.0f);
    ImGui::InvisibleButton("canvas", size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
    ui::record_item(state.registry, "canvas");
    const bool hovered = ImGui::IsItemHovered();
    vp.canvas = {{origin.x, origin.y}, {size.x, size.y}};
    if (!vp.framed || vp.frame_requested) {
      vp.view.frame(state.rig.bounds(), vp.canvas);
      vp.framed = true;
      vp.frame_requested = false;
    }
    handle_input(state, hovered);
    if (state.rig.has_pose()) bone_segments(*state.rig.pose(), vp.view, vp.segments);
    else vp.segments.clear();

    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
    draw_grid(dl, vp.view, vp.canvas);
    draw_bones(dl, state);
    if (!state.rig.has_pose()) {
      const char* text = state.rig.path.empty() ? "No rig open" : "The rig did not build: see Output";
      const ImVec2 t = ImGui::CalcTextSize(text);
      dl->AddText(ImVec2(origin.x + (size.x - t.x) / 2, origin.y + (size.y - t.y) / 2), IM_COL32(200, 200, 200, 200), text);
    }
    dl->PopClipRect();
  }
  ui::end_panel(state.registry);
}

}  // namespace mf::editor
