#pragma once
// The action script of `mfe-editor --script actions.json`: a JSON array of actions, each an object
// with one key, run one after another as real input (script_runner.hpp):
//
//   {"click": "Hierarchy/hips"}                      a widget by its label path (widget_registry.hpp)
//   {"click_rig": [x, y]}                            the viewport at a point of the rig
//   {"drag_rig": {"from": [x, y], "to": [x, y], "button": "middle"}}   button: left (default), middle, right
//   {"wheel_rig": {"at": [x, y], "notches": 2}}      the wheel over a point of the rig (> 0 zooms in)
//   {"key": "F"}                                     a key by its SDL name
//   {"wait": 3}                                      frames
//   {"screenshot": "file.png"}                       the composed frame
//   {"expect_selected": "hips"}                      the selection's name ("" for nothing); else exit 1
//   {"quit": true}
//
// Errors name the file, the action's JSON path and line:column.

#include <string>
#include <string_view>
#include <vector>

#include "mf/core/error.hpp"
#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf::editor {

enum class ActionKind : unsigned char { Click, ClickRig, DragRig, WheelRig, Key, Wait, Screenshot, ExpectSelected, Quit };
enum class MouseButton : unsigned char { Left, Middle, Right };

struct Action {
  ActionKind kind = ActionKind::Wait;
  std::string text;      // Click: the widget path; Key: the key name; Screenshot: the file; ExpectSelected: the name
  Vec2 from, to;         // ClickRig, WheelRig: from; DragRig: from → to (rig coordinates)
  MouseButton button = MouseButton::Left;
  int count = 0;         // Wait: frames; WheelRig: notches
  int scancode = 0;      // Key: the SDL scancode of `text`
  Error where;           // file, JSON path and position of the action, for messages at run time
};

// The script's name for an action kind ("click_rig"), as messages print it.
const char* to_string(ActionKind kind);

Expected<std::vector<Action>> parse_script(std::string_view text, const std::string& file);
Expected<std::vector<Action>> read_script(const std::string& path);

}  // namespace mf::editor
