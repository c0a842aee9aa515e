// The script format: every action read with its values, and bad scripts refused with the file, the
// action's JSON path, line:column and what is wrong.

#include <gtest/gtest.h>

#include <SDL2/SDL.h>

#include "script.hpp"

namespace mf::editor {
namespace {

TEST(Script, ReadsEveryAction) {
  auto script = parse_script(R"([
    {"click": "Hierarchy/hips"},
    {"click_rig": [10, -20.5]},
    {"drag_rig": {"from": [0, 0], "to": [30, 40], "button": "middle"}},
    {"drag_rig": {"from": [1, 2], "to": [3, 4]}},
    {"wheel_rig": {"at": [5, 6], "notches": -2}},
    {"key": "F"},
    {"wait": 3},
    {"screenshot": "shot.png"},
    {"expect_selected": "hips"},
    {"expect_selected": ""},
    {"quit": true}
  ])", "a.json");
  ASSERT_TRUE(script) << script.error().to_string();
  const std::vector<Action>& a = *script;
  ASSERT_EQ(a.size(), 11u);
  EXPECT_EQ(a[0].kind, ActionKind::Click);
  EXPECT_EQ(a[0].text, "Hierarchy/hips");
  EXPECT_EQ(a[1].kind, ActionKind::ClickRig);
  EXPECT_FLOAT_EQ(a[1].from.y, -20.5f);
  EXPECT_EQ(a[2].kind, ActionKind::DragRig);
  EXPECT_EQ(a[2].button, MouseButton::Middle);
  EXPECT_FLOAT_EQ(a[2].to.x, 30);
  EXPECT_FLOAT_EQ(a[2].to.y, 40);
  EXPECT_EQ(a[3].button, MouseButton::Left);
  EXPECT_EQ(a[4].kind, ActionKind::WheelRig);
  EXPECT_EQ(a[4].count, -2);
  EXPECT_FLOAT_EQ(a[4].from.x, 5);
  EXPECT_EQ(a[5].kind, ActionKind::Key);
  EXPECT_EQ(a[5].scancode, SDL_SCANCODE_F);
  EXPECT_EQ(a[6].count, 3);
  EXPECT_EQ(a[7].text, "shot.png");
  EXPECT_EQ(a[8].text, "hips");
  EXPECT_EQ(a[9].text, "");
  EXPECT_EQ(a[10].kind, ActionKind::Quit);
  EXPECT_EQ(a[1].where.path, "[1].click_rig");
  EXPECT_EQ(a[1].where.position.line, 3);
}

std::string error_of(const std::string& text) {
  auto script = parse_script(text, "bad.json");
  return script ? std::string("(no error)") : script.error().to_string();
}

TEST(Script, RefusesBadScriptsSayingWhere) {
  EXPECT_EQ(error_of(R"({"click": "x"})"),
            "bad.json:1:1: a script is an array of actions, e.g. [{\"click\": \"Hierarchy/hips\"}, {\"quit\": true}]");
  EXPECT_NE(error_of("[\n {\"jump\": 1}]").find("bad.json:2:11: [0].jump: unknown action \"jump\""), std::string::npos)
      << error_of("[\n {\"jump\": 1}]");
  EXPECT_NE(error_of(R"([{"wait": 1, "quit": true}])").find("exactly one key"), std::string::npos);
  EXPECT_NE(error_of(R"([{"click_rig": [1]}])").find("[0].click_rig: expected a point [x, y]"), std::string::npos);
  EXPECT_NE(error_of(R"([{"drag_rig": {"from": [0, 0], "to": [1, 1], "button": "thumb"}}])").find("[0].drag_rig.button"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"drag_rig": {"from": [0, 0]}}])").find("to"), std::string::npos);
  EXPECT_NE(error_of(R"([{"drag_rig": {"from": [0, 0], "to": [1, 1], "speed": 2}}])").find("unknown key \"speed\""), std::string::npos);
  EXPECT_NE(error_of(R"([{"key": "NoSuchKey"}])").find("unknown key \"NoSuchKey\""), std::string::npos);
  EXPECT_NE(error_of(R"([{"wait": -1}])").find("[0].wait"), std::string::npos);
  EXPECT_NE(error_of(R"([{"quit": false}])").find("quit takes true"), std::string::npos);
  EXPECT_NE(error_of(R"([{"click": ""}])").find("must not be empty"), std::string::npos);
  EXPECT_NE(error_of("[").find("bad.json:"), std::string::npos);
}

TEST(Script, AMissingFileIsAnError) {
  auto script = read_script("/nonexistent/actions.json");
  ASSERT_FALSE(script);
  EXPECT_NE(script.error().to_string().find("/nonexistent/actions.json"), std::string::npos);
}

}  // namespace
}  // namespace mf::editor
