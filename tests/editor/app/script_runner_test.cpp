// The script runner: which SDL events each frame's step pushes (positions through the view or the
// widget registry, buttons, keys, the wheel), how many frames an action takes, expectations, and the
// errors that end a script. SDL's event queue runs without a window (SDL_INIT_EVENTS).

#include <gtest/gtest.h>

#include <SDL2/SDL.h>

#include <vector>

#include "script_runner.hpp"

namespace mf::editor {
namespace {

constexpr std::uint32_t kWindow = 7;

class ScriptRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(SDL_Init(SDL_INIT_EVENTS), 0) << SDL_GetError();
    SDL_FlushEvents(SDL_FIRSTEVENT, SDL_LASTEVENT);
    state.viewport.canvas = {{100, 0}, {400, 300}};
    state.viewport.view.frame({-100, -100, 100, 100}, state.viewport.canvas);
  }
  void TearDown() override { SDL_Quit(); }

  std::vector<SDL_Event> events() {
    std::vector<SDL_Event> out;
    SDL_Event e;
    while (SDL_PollEvent(&e)) out.push_back(e);
    return out;
  }

  ScriptRunner runner(const std::string& json) {
    auto actions = parse_script(json, "t.json");
    EXPECT_TRUE(actions) << actions.error().to_string();
    return ScriptRunner(actions ? *actions : std::vector<Action>{}, kWindow);
  }

  EditorState state;
  FrameRequests requests;
};

TEST_F(ScriptRunnerTest, AClickOnTheRigIsAMoveAPressAndARelease) {
  ScriptRunner r = runner(R"([{"click_rig": [50, -25]}])");
  const Vec2 at = state.viewport.view.to_screen({50, -25});
  ASSERT_TRUE(r.step(state, requests));
  auto e = events();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].type, SDL_MOUSEMOTION);
  EXPECT_EQ(e[0].motion.windowID, kWindow);
  EXPECT_EQ(e[0].motion.x, static_cast<int>(std::lround(at.x)));
  EXPECT_EQ(e[0].motion.y, static_cast<int>(std::lround(at.y)));
  ASSERT_TRUE(r.step(state, requests));
  e = events();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].type, SDL_MOUSEBUTTONDOWN);
  EXPECT_EQ(e[0].button.button, SDL_BUTTON_LEFT);
  ASSERT_TRUE(r.step(state, requests));
  e = events();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].type, SDL_MOUSEBUTTONUP);
  EXPECT_FALSE(r.finished());
  ASSERT_TRUE(r.step(state, requests));  // the frame that settles
  EXPECT_TRUE(events().empty());
  EXPECT_TRUE(r.finished());
}

TEST_F(ScriptRunnerTest, ADragMovesInStepsWithTheButtonHeld) {
  ScriptRunner r = runner(R"([{"drag_rig": {"from": [0, 0], "to": [80, 0], "button": "middle"}}])");
  std::vector<SDL_Event> all;
  int frames = 0;
  while (!r.finished()) {
    ASSERT_TRUE(r.step(state, requests));
    for (const SDL_Event& e : events()) all.push_back(e);
    ASSERT_LT(++frames, 100);
  }
  EXPECT_EQ(frames, 3 + ScriptRunner::kDragSteps + 1);
  ASSERT_EQ(all.size(), 3u + ScriptRunner::kDragSteps);
  EXPECT_EQ(all[1].type, SDL_MOUSEBUTTONDOWN);
  EXPECT_EQ(all[1].button.button, SDL_BUTTON_MIDDLE);
  const SDL_Event& last_motion = all[all.size() - 2];
  EXPECT_EQ(last_motion.type, SDL_MOUSEMOTION);
  EXPECT_TRUE(last_motion.motion.state & SDL_BUTTON(SDL_BUTTON_MIDDLE));
  EXPECT_EQ(last_motion.motion.x, static_cast<int>(std::lround(state.viewport.view.to_screen({80, 0}).x)));
  EXPECT_EQ(all.back().type, SDL_MOUSEBUTTONUP);
}

TEST_F(ScriptRunnerTest, KeysWheelWaitScreenshotAndQuit) {
  ScriptRunner r = runner(R"([{"key": "F"}, {"wheel_rig": {"at": [0, 0], "notches": 2}}, {"wait": 2},
                              {"screenshot": "s.png"}, {"quit": true}])");
  std::vector<SDL_Event> all;
  int frames = 0;
  std::string shot;
  while (!r.finished() && !requests.quit) {
    requests = {};
    ASSERT_TRUE(r.step(state, requests));
    if (!requests.screenshot.empty()) shot = requests.screenshot;
    for (const SDL_Event& e : events()) all.push_back(e);
    ++frames;
  }
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[0].type, SDL_KEYDOWN);
  EXPECT_EQ(all[0].key.keysym.scancode, SDL_SCANCODE_F);
  EXPECT_EQ(all[1].type, SDL_KEYUP);
  EXPECT_EQ(all[2].type, SDL_MOUSEMOTION);
  for (const std::size_t i : {3u, 4u}) {  // one event per notch, as ImGui 1.86's backend counts them
    EXPECT_EQ(all[i].type, SDL_MOUSEWHEEL);
    EXPECT_EQ(all[i].wheel.y, 1);
    EXPECT_EQ(all[i].wheel.which, kScriptMouseId);
  }
  EXPECT_EQ(shot, "s.png");
  EXPECT_TRUE(requests.quit);
  EXPECT_EQ(frames, 3 + 3 + 2 + 1 + 1);
}

TEST_F(ScriptRunnerTest, AWidgetIsAimedAtItsVisibleMiddle) {
  state.registry.begin_frame();
  state.registry.push("Hierarchy");
  state.registry.add("hips", {{10, 100}, {200, 20}}, {{10, 100}, {100, 20}});
  state.registry.end_frame();
  ScriptRunner r = runner(R"([{"click": "Hierarchy/hips"}])");
  ASSERT_TRUE(r.step(state, requests));
  auto e = events();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].motion.x, 60);
  EXPECT_EQ(e[0].motion.y, 110);
}

TEST_F(ScriptRunnerTest, FailuresNameTheAction) {
  {
    ScriptRunner r = runner("[\n{\"expect_selected\": \"hips\"}]");
    const Status s = r.step(state, requests);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().to_string(), "t.json:2:21: [0].expect_selected: expected \"hips\" selected, found no rig open");
  }
  {
    ScriptRunner r = runner(R"([{"click_rig": [5000, 0]}])");
    const Status s = r.step(state, requests);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("outside the viewport"), std::string::npos) << s.error().message;
  }
  {
    ScriptRunner r = runner(R"([{"click": "Hierarchy/nobody"}])");
    Status s;
    for (int frame = 0; frame <= ScriptRunner::kWidgetTries && s; ++frame) {
      state.registry.begin_frame();
      state.registry.end_frame();
      s = r.step(state, requests);
    }
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("no window \"Hierarchy\""), std::string::npos) << s.error().message;
  }
}

}  // namespace
}  // namespace mf::editor
