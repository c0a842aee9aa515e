#pragma once
// WidgetRegistry: where each widget of the last frame was on the screen, by its label path, so that
// scripts can aim at "Hierarchy/hips" (Dear ImGui 1.86 has no test engine to ask). The UI records
// every widget it builds through the helpers of ui_widgets.hpp; a path is the window's name, the
// labels of the enclosing tree nodes and the widget's own label, joined by '/':
// "Hierarchy/root/hips/spine". A lookup takes the full path or any shorter one that keeps the window
// and ends with the widget's label ("Hierarchy/spine", "Hierarchy/hips/spine"), as long as exactly one
// widget matches.
//
// One frame is recorded while the previous one is looked up: begin_frame() starts a recording,
// end_frame() makes it the frame lookups see.

#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "rig_view.hpp"

namespace mf::editor {

struct WidgetEntry {
  std::string path;
  ScreenRect rect;     // the widget's whole rectangle
  ScreenRect visible;  // the part not clipped by its window (empty when scrolled out of view)
};

class WidgetRegistry {
 public:
  void begin_frame();
  void end_frame();

  // Scopes: a window, then each open tree node inside it.
  void push(std::string_view label);
  void pop();
  // Records a widget of the current scope. Returns its full path.
  const std::string& add(std::string_view label, const ScreenRect& rect, const ScreenRect& visible);

  // The widget `path` names in the last recorded frame; an error names the path and says why
  // (none, or which ones when several match).
  Expected<WidgetEntry> find(std::string_view path) const;

  // Asks the UI to scroll the widget with this full path into view while it builds the next frame.
  void request_reveal(std::string full_path) { reveal_ = std::move(full_path); }
  // Whether the widget just recorded under `full_path` is the one to scroll into view (once).
  bool take_reveal(std::string_view full_path);

  // The UI scrolled a window while it built the frame (the scroll shows from the next frame on):
  // widgets of that frame are about to move, so scripts aim only after a frame without one.
  void note_scroll() { recording_scrolled_ = true; }
  bool last_frame_scrolled() const { return last_scrolled_; }

  const std::vector<WidgetEntry>& last_frame() const { return last_; }

 private:
  std::vector<std::string> scope_;
  std::vector<WidgetEntry> recording_, last_;
  std::string reveal_;
  bool recording_scrolled_ = false, last_scrolled_ = false;
};

// `path` split at '/'.
std::vector<std::string_view> split_widget_path(std::string_view path);

}  // namespace mf::editor
