#include "script_runner.hpp"

#include <cmath>
#include <cstdlib>
#include <cstdio>

namespace mf::editor {
namespace {

std::uint8_t sdl_button(MouseButton b) {
  switch (b) {
    case MouseButton::Left: return SDL_BUTTON_LEFT;
    case MouseButton::Middle: return SDL_BUTTON_MIDDLE;
    case MouseButton::Right: return SDL_BUTTON_RIGHT;
  }
  return SDL_BUTTON_LEFT;
}

std::string point_text(Vec2 p) {
  char text[64];
  std::snprintf(text, sizeof text, "(%.1f, %.1f)", static_cast<double>(p.x), static_cast<double>(p.y));
  return text;
}

}  // namespace

ScriptRunner::ScriptRunner(std::vector<Action> actions, std::uint32_t window_id) : actions_(std::move(actions)), window_id_(window_id) {}

Status ScriptRunner::fail(const Action& a, const std::string& message) const {
  return Unexpected{Error{a.where.file, a.where.path, a.where.position, message}};
}

void ScriptRunner::push_motion(Vec2 p) {
  SDL_Event e{};
  e.type = SDL_MOUSEMOTION;
  e.motion.timestamp = SDL_GetTicks();
  e.motion.windowID = window_id_;
  e.motion.which = kScriptMouseId;
  e.motion.state = buttons_;
  e.motion.x = static_cast<Sint32>(std::lround(p.x));
  e.motion.y = static_cast<Sint32>(std::lround(p.y));
  e.motion.xrel = e.motion.x - static_cast<Sint32>(std::lround(last_motion_.x));
  e.motion.yrel = e.motion.y - static_cast<Sint32>(std::lround(last_motion_.y));
  last_motion_ = p;
  SDL_PushEvent(&e);
}

void ScriptRunner::push_button(MouseButton b, bool down, Vec2 p) {
  SDL_Event e{};
  e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
  e.button.timestamp = SDL_GetTicks();
  e.button.windowID = window_id_;
  e.button.which = kScriptMouseId;
  e.button.button = sdl_button(b);
  e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
  e.button.clicks = 1;
  e.button.x = static_cast<Sint32>(std::lround(p.x));
  e.button.y = static_cast<Sint32>(std::lround(p.y));
  if (down) buttons_ |= SDL_BUTTON(e.button.button);
  else buttons_ &= ~SDL_BUTTON(e.button.button);
  SDL_PushEvent(&e);
}

void ScriptRunner::push_wheel(Vec2, int notches) {
  // One event per notch: ImGui 1.86's SDL2 backend counts each wheel event as one notch.
  for (int i = 0; i < std::abs(notches); ++i) {
    SDL_Event e{};
    e.type = SDL_MOUSEWHEEL;
    e.wheel.timestamp = SDL_GetTicks();
    e.wheel.windowID = window_id_;
    e.wheel.which = kScriptMouseId;
    e.wheel.y = notches > 0 ? 1 : -1;
    e.wheel.preciseY = static_cast<float>(e.wheel.y);
    e.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
    SDL_PushEvent(&e);
  }
}

void ScriptRunner::push_key(int scancode, bool down) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.timestamp = SDL_GetTicks();
  e.key.windowID = window_id_;
  e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
  e.key.keysym.scancode = static_cast<SDL_Scancode>(scancode);
  e.key.keysym.sym = SDL_GetKeyFromScancode(static_cast<SDL_Scancode>(scancode));
  SDL_PushEvent(&e);
}

Status ScriptRunner::step(EditorState& state, FrameRequests& out) {
  while (!finished()) {
    const Action& a = actions_[next_];
    switch (a.kind) {
      case ActionKind::ExpectSelected: {
        const std::string name = state.source() ? selection_name(state.selection, *state.source()) : std::string();
        if (name != a.text)
          return fail(a, "expected \"" + a.text + "\" selected, found " +
                             (state.source() ? describe(state.selection, *state.source()) : std::string("no rig open")));
        advance();
        continue;
      }
      case ActionKind::Quit:
        out.quit = true;
        advance();
        return {};
      case ActionKind::Screenshot:
        out.screenshot = a.text;
        advance();
        return {};
      case ActionKind::Wait:
        if (phase_++ < a.count) return {};
        advance();
        continue;
      case ActionKind::Key:
        if (phase_ == 0) push_key(a.scancode, true);
        else if (phase_ == 1) push_key(a.scancode, false);
        if (phase_++ < 3) return {};
        advance();
        continue;
      case ActionKind::WheelRig:
        if (phase_ == 0) {
          point_ = state.viewport.view.to_screen(a.from);
          if (!state.viewport.canvas.contains(point_))
            return fail(a, "the rig point " + point_text(a.from) + " is outside the viewport at the current view (screen " + point_text(point_) + ")");
          push_motion(point_);
        } else if (phase_ == 1) {
          push_wheel(point_, a.count);
        }
        if (phase_++ < 3) return {};
        advance();
        continue;
      case ActionKind::Click:
      case ActionKind::ClickRig:
      case ActionKind::DragRig: {
        if (phase_ == 0) {
          if (a.kind == ActionKind::Click) {
            // A window that scrolls moves its widgets from the next frame on: aim after it settled.
            if (state.registry.last_frame_scrolled() || state.reveal_in_hierarchy) {
              if (++tries_ > kWidgetTries) return fail(a, "the panels keep scrolling");
              return {};
            }
            Expected<WidgetEntry> widget = state.registry.find(a.text);
            if (!widget || widget->visible.empty()) {
              if (++tries_ > kWidgetTries)
                return fail(a, widget ? "widget \"" + widget->path + "\" stays out of view" : widget.error().message);
              if (widget) state.registry.request_reveal(widget->path);
              return {};  // the next frame may show it
            }
            point_ = widget->visible.center();
          } else {
            // A drag's path is fixed on the screen at its start: the view may move under it (a pan).
            point_ = state.viewport.view.to_screen(a.from);
            drag_end_ = state.viewport.view.to_screen(a.to);
            if (!state.viewport.canvas.contains(point_))
              return fail(a, "the rig point " + point_text(a.from) + " is outside the viewport at the current view (screen " +
                                 point_text(point_) + ")");
          }
          push_motion(point_);
          ++phase_;
          return {};
        }
        const int drag_steps = a.kind == ActionKind::DragRig ? kDragSteps : 0;
        if (phase_ == 1) {
          push_button(a.button, true, point_);
        } else if (phase_ < 2 + drag_steps) {
          const float t = static_cast<float>(phase_ - 1) / static_cast<float>(drag_steps);
          push_motion(lerp(point_, drag_end_, t));
        } else if (phase_ == 2 + drag_steps) {
          push_button(a.button, false, drag_steps ? drag_end_ : point_);
        }
        if (phase_++ < 3 + drag_steps) return {};
        advance();
        continue;
      }
    }
  }
  return {};
}

}  // namespace mf::editor
