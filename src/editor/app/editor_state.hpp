#pragma once
// What the editor's panels share: the open rig and its outline, the selection, the viewport's view
// and the widget registry scripts aim through. The panels (panels.hpp) read and change it while the
// UI is built; the frame loop (editor_app.hpp) draws the rig through the viewport's view afterwards.

#include <vector>

#include "bone_picking.hpp"
#include "open_rig.hpp"
#include "rig_outline.hpp"
#include "rig_view.hpp"
#include "selection.hpp"
#include "widget_registry.hpp"

namespace mf::editor {

struct ViewportState {
  RigView view;
  ScreenRect canvas;             // where the rig is shown this frame (screen)
  bool framed = false;           // the view was fitted to the rig once the canvas was known
  bool frame_requested = false;  // frame all on the next frame (the F key)
  bool panning = false;          // a middle-button drag started over the canvas
  std::vector<BoneSegment> segments;  // this frame's bones on the screen, by runtime bone index
};

struct EditorState {
  OpenRig rig;
  RigOutline outline;
  Selection selection;
  // The Hierarchy scrolls to the selection and opens its parents on the next frame (set when the
  // selection was made elsewhere).
  bool reveal_in_hierarchy = false;
  ViewportState viewport;
  WidgetRegistry registry;

  void select(Selection s, bool from_hierarchy) {
    if (!(s == selection) && !from_hierarchy) reveal_in_hierarchy = true;
    selection = s;
  }
  const offline::SkeletonSource* source() const { return rig.source ? &rig.source->skeleton : nullptr; }
};

}  // namespace mf::editor
