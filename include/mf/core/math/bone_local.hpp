#pragma once
// A bone's local 2×2 from its local pose, angles in degrees clockwise on screen (Y down); the columns
// are the bone's axes:
//   [a b]   [cos(r + shx)·sx   cos(r + 90 + shy)·sy]
//   [c d] = [sin(r + shx)·sx   sin(r + 90 + shy)·sy]
// The one place this formula is written: the runtime's world transforms, its world-space constraints
// and IK, and the offline rig checks all use it.

#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/core/math/matrix2.hpp"

namespace mf {

// The 2×2 whose X axis points at `x_degrees` with length `scale_x` and whose Y axis points at
// `y_degrees` with length `scale_y`; everything in T.
template <class T>
BasicMatrix2<T> bone_axes(T x_degrees, T y_degrees, T scale_x, T scale_y) {
  const T rx = x_degrees * kDegToRadOf<T>;
  const T ry = y_degrees * kDegToRadOf<T>;
  return {std::cos(rx) * scale_x, std::cos(ry) * scale_y, std::sin(rx) * scale_x, std::sin(ry) * scale_y};
}

// The local matrix of a bone with rotation r, scale (sx, sy) and shear (shx, shy). The axis angles
// r + shx and r + 90 + shy are summed in float, as the pose stores them; the radians, sines, cosines
// and products are computed in T (float for the runtime, double for tools that check in double).
// Without shear (most bones) the Y axis is the X axis turned by 90°: one sine and cosine, not two.
template <class T = float>
BasicMatrix2<T> bone_local_matrix(float rotation, float scale_x, float scale_y, float shear_x, float shear_y) {
  if (shear_x == 0 && shear_y == 0) {
    const T r = rotation * kDegToRadOf<T>;
    const T c = std::cos(r), s = std::sin(r);
    return {c * scale_x, -s * scale_y, s * scale_x, c * scale_y};
  }
  return bone_axes<T>(rotation + shear_x, rotation + 90.0f + shear_y, scale_x, scale_y);
}

}  // namespace mf
