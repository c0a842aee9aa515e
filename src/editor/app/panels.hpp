#pragma once
// The editor's panels, each built once per frame into its rectangle of the layout (panel_layout.hpp):
//   Hierarchy   the bones as a tree with their slots; a click selects
//   Viewport    the rig (drawn by the skeleton renderer under the UI), grid, bones and joints; click
//               selects the nearest bone, middle drag pans, the wheel zooms about the cursor
//   Properties  every field of the selected bone or slot, read-only, with units
//   Output      `mfe skel check`'s findings; a click selects the bone or slot one names

#include "editor_state.hpp"

namespace mf::editor {

void hierarchy_panel(EditorState& state, const ScreenRect& rect);
void viewport_panel(EditorState& state, const ScreenRect& rect);
void properties_panel(EditorState& state, const ScreenRect& rect);
void output_panel(EditorState& state, const ScreenRect& rect);

// The colour the selected bone is drawn in over the rig (RGBA).
inline constexpr unsigned char kSelectionRgb[3] = {64, 255, 208};

}  // namespace mf::editor
