#include "script.hpp"

#include <SDL2/SDL.h>

#include "mf/core/file_io.hpp"
#include "mf/offline/json/json.hpp"
#include "mf/offline/json/json_reader.hpp"

namespace mf::editor {
namespace {

constexpr int kMaxWaitFrames = 1000000;
constexpr int kMaxNotches = 100;

Vec2 read_point(const json::Node& node) {
  if (node.size() != 2) node.fail("expected a point [x, y]");
  return {node[0].as_float(), node[1].as_float()};
}

MouseButton read_button(const json::Node& node) {
  const std::string& name = node.as_string();
  if (name == "left") return MouseButton::Left;
  if (name == "middle") return MouseButton::Middle;
  if (name == "right") return MouseButton::Right;
  node.fail("expected \"left\", \"middle\" or \"right\", found \"" + name + "\"");
}

Action read_action(const json::Node& node) {
  const auto members = node.members();
  if (members.size() != 1)
    node.fail("an action is an object with exactly one key (click, click_rig, drag_rig, wheel_rig, key, wait, screenshot, "
              "expect_selected, quit)");
  const auto& [key, value] = members.front();
  Action a;
  a.where = value.error("");
  if (key == "click") {
    a.kind = ActionKind::Click;
    a.text = value.as_nonempty_string();
  } else if (key == "click_rig") {
    a.kind = ActionKind::ClickRig;
    a.from = read_point(value);
  } else if (key == "drag_rig") {
    a.kind = ActionKind::DragRig;
    json::ObjectReader r(value);
    a.from = read_point(r.required("from"));
    a.to = read_point(r.required("to"));
    if (auto b = r.optional("button")) a.button = read_button(*b);
    r.finish();
  } else if (key == "wheel_rig") {
    a.kind = ActionKind::WheelRig;
    json::ObjectReader r(value);
    a.from = read_point(r.required("at"));
    a.count = r.required("notches").as_int(-kMaxNotches, kMaxNotches);
    r.finish();
  } else if (key == "key") {
    a.kind = ActionKind::Key;
    a.text = value.as_nonempty_string();
    a.scancode = SDL_GetScancodeFromName(a.text.c_str());
    if (a.scancode == SDL_SCANCODE_UNKNOWN) value.fail("unknown key \"" + a.text + "\" (SDL key names: \"F\", \"Escape\", \"Space\", …)");
  } else if (key == "wait") {
    a.kind = ActionKind::Wait;
    a.count = value.as_int(0, kMaxWaitFrames);
  } else if (key == "screenshot") {
    a.kind = ActionKind::Screenshot;
    a.text = value.as_nonempty_string();
  } else if (key == "expect_selected") {
    a.kind = ActionKind::ExpectSelected;
    a.text = value.as_string();
  } else if (key == "quit") {
    a.kind = ActionKind::Quit;
    if (!value.as_bool()) value.fail("quit takes true");
  } else {
    value.fail("unknown action \"" + key + "\"");
  }
  return a;
}

}  // namespace

const char* to_string(ActionKind kind) {
  switch (kind) {
    case ActionKind::Click: return "click";
    case ActionKind::ClickRig: return "click_rig";
    case ActionKind::DragRig: return "drag_rig";
    case ActionKind::WheelRig: return "wheel_rig";
    case ActionKind::Key: return "key";
    case ActionKind::Wait: return "wait";
    case ActionKind::Screenshot: return "screenshot";
    case ActionKind::ExpectSelected: return "expect_selected";
    case ActionKind::Quit: return "quit";
  }
  return "?";
}

Expected<std::vector<Action>> parse_script(std::string_view text, const std::string& file) {
  Expected<json::Value> doc = json::parse(text, file);
  if (!doc) return Unexpected{doc.error()};
  try {
    const json::Node root(*doc, "", file);
    if (!root.is_array()) root.fail("a script is an array of actions, e.g. [{\"click\": \"Hierarchy/hips\"}, {\"quit\": true}]");
    std::vector<Action> actions;
    for (const json::Node& item : root.items()) actions.push_back(read_action(item));
    return actions;
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
}

Expected<std::vector<Action>> read_script(const std::string& path) {
  Expected<std::string> text = read_file(path);
  if (!text) return Unexpected{text.error()};
  return parse_script(*text, path);
}

}  // namespace mf::editor
