#include "event_mouse.hpp"

#include <imgui.h>

#include <cfloat>

namespace mf::editor {
namespace {

int imgui_button(std::uint8_t sdl_button) {
  switch (sdl_button) {
    case SDL_BUTTON_LEFT: return 0;
    case SDL_BUTTON_RIGHT: return 1;
    case SDL_BUTTON_MIDDLE: return 2;
    default: return -1;
  }
}

}  // namespace

void EventMouse::handle(const SDL_Event& event) {
  if (only_) {
    const bool mouse = event.type == SDL_MOUSEMOTION || event.type == SDL_MOUSEBUTTONDOWN || event.type == SDL_MOUSEBUTTONUP;
    const Uint32 which = event.type == SDL_MOUSEMOTION ? event.motion.which : event.button.which;
    if (mouse && which != *only_) return;
    if (event.type == SDL_WINDOWEVENT) return;          // the real pointer leaving or entering
  }
  switch (event.type) {
    case SDL_MOUSEMOTION:
      x_ = static_cast<float>(event.motion.x);
      y_ = static_cast<float>(event.motion.y);
      inside_ = true;
      break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
      x_ = static_cast<float>(event.button.x);
      y_ = static_cast<float>(event.button.y);
      inside_ = true;
      const int b = imgui_button(event.button.button);
      if (b < 0) break;
      const bool down = event.type == SDL_MOUSEBUTTONDOWN;
      held_[static_cast<std::size_t>(b)] = down;
      if (down) pressed_[static_cast<std::size_t>(b)] = true;
      break;
    }
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_LEAVE) inside_ = false;
      break;
    default: break;
  }
}

void EventMouse::apply(ImGuiIO& io) {
  const bool dragging = held_[0] || held_[1] || held_[2];
  io.MousePos = inside_ || dragging ? ImVec2(x_, y_) : ImVec2(-FLT_MAX, -FLT_MAX);
  for (std::size_t i = 0; i < held_.size(); ++i) {
    io.MouseDown[i] = held_[i] || pressed_[i];
    pressed_[i] = false;
  }
}

}  // namespace mf::editor
