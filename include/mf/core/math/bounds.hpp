#pragma once
// An axis-aligned box in skeleton space (pixels, Y down): the bounds of a pose or of a clip.

namespace mf {

struct Bounds {
  float min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  bool empty() const { return max_x < min_x || max_y < min_y; }
};

}  // namespace mf
