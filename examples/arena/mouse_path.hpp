#pragma once
// The mouse of runs without a user (--frames, or before the mouse first moves over the window): a
// fixed Lissajous path over the crowd, a function of the simulated time alone, so runs repeat exactly.

#include <cmath>

#include "mf/core/math/vec2.hpp"

namespace arena {

inline mf::Vec2 simulated_mouse(float seconds, float width, float height) {
  return {width * (0.55f + 0.38f * std::sin(0.9f * seconds)), height * (0.52f + 0.2f * std::sin(1.7f * seconds + 0.6f))};
}

}  // namespace arena
