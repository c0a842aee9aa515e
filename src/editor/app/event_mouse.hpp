#pragma once
// EventMouse: the mouse as SDL's events tell it, for ImGui. Dear ImGui 1.86's SDL2 backend reads the
// pointer's position and buttons by polling (SDL_GetGlobalMouseState, SDL_GetMouseState) and only
// for a focused or hovered window, so events pushed with SDL_PushEvent (the editor's scripts) never
// reach it. This follows motion and button events instead (real and pushed alike) and overrides what
// the backend set, after its NewFrame. The wheel, keys and text still go through the backend, which
// reads those from events.

#include <SDL2/SDL.h>

#include <array>
#include <cstdint>
#include <optional>

struct ImGuiIO;

namespace mf::editor {

class EventMouse {
 public:
  // While on, only events of this mouse id count (a script's: kScriptMouseId); off: all.
  void only_from(std::optional<Uint32> mouse_id) { only_ = mouse_id; }
  void handle(const SDL_Event& event);
  // Sets io.MousePos and io.MouseDown. A button pressed and released within one frame shows as down
  // for that frame, so no click is lost.
  void apply(ImGuiIO& io);

 private:
  std::optional<Uint32> only_;
  float x_ = 0, y_ = 0;
  bool inside_ = false;
  std::array<bool, 3> held_{}, pressed_{};  // ImGui's order: left, right, middle
};

}  // namespace mf::editor
