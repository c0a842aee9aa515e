#pragma once
// ScriptRunner: plays a script (script.hpp) as real input. At the start of every frame, before the
// frame polls SDL's events, step() pushes that frame's events with SDL_PushEvent (mouse motion,
// buttons, wheel, keys), so the editor handles them exactly as a user's. Points come from the last
// frame: a widget's rectangle in the WidgetRegistry, a rig point through the viewport's view.
//
// A click takes four frames (move, press, release, one to settle), a key three, a drag eleven; a
// screenshot is taken of the frame step() asked for it in, and ends that frame's step.

#include <SDL2/SDL.h>

#include <cstdint>
#include <string>
#include <vector>

#include "editor_state.hpp"
#include "mf/core/expected.hpp"
#include "script.hpp"

namespace mf::editor {

// The mouse id of the events a script pushes. While a script plays, the editor takes mouse input from
// these alone: the real pointer of the display (under Xvfb, wherever it was left) must not move the
// script's pointer when the window grabs the mouse during a drag.
inline constexpr Uint32 kScriptMouseId = 0x5C21;

struct FrameRequests {
  std::string screenshot;  // write this frame, once drawn, to this PNG
  bool quit = false;
};

class ScriptRunner {
 public:
  static constexpr int kDragSteps = 8;
  // Frames a widget may take to appear (or to scroll into view) before a click on it fails.
  static constexpr int kWidgetTries = 8;

  ScriptRunner(std::vector<Action> actions, std::uint32_t window_id);

  bool finished() const { return next_ >= actions_.size(); }
  // Pushes this frame's events and runs the actions that need no frame of their own
  // (expect_selected, quit). An error ends the script: a failed expectation or a target that cannot
  // be found, naming the action.
  Status step(EditorState& state, FrameRequests& out);

 private:
  Status fail(const Action& a, const std::string& message) const;
  void push_motion(Vec2 p);
  void push_button(MouseButton b, bool down, Vec2 p);
  void push_wheel(Vec2 p, int notches);
  void push_key(int scancode, bool down);
  void advance() {
    ++next_;
    phase_ = 0;
    tries_ = 0;
  }

  std::vector<Action> actions_;
  std::uint32_t window_id_;
  std::size_t next_ = 0;
  int phase_ = 0;
  int tries_ = 0;
  Vec2 point_{}, drag_end_{}, last_motion_{};
  std::uint32_t buttons_ = 0;  // SDL button mask held down by the script
};

}  // namespace mf::editor
