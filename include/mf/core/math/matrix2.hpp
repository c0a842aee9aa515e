#pragma once
// 2×2 linear maps whose columns are axes: x' = a·x + b·y, y' = c·x + d·y, in float (Matrix2) or
// double (Matrix2d). The linear part of an Affine2; a bone's local and world 2×2.

#include <cmath>

#include "mf/core/math/vec2.hpp"

namespace mf {

template <class T>
struct BasicMatrix2 {
  T a = 1, b = 0, c = 0, d = 1;

  friend constexpr bool operator==(const BasicMatrix2&, const BasicMatrix2&) = default;

  static constexpr BasicMatrix2 identity() { return {1, 0, 0, 1}; }
  // Turns by `radians` (clockwise on screen with Y down, counter-clockwise with Y up).
  static BasicMatrix2 rotation(T radians) {
    const T cs = std::cos(radians), sn = std::sin(radians);
    return {cs, -sn, sn, cs};
  }

  constexpr T det() const { return a * d - b * c; }
  constexpr BasicVec2<T> x_axis() const { return {a, c}; }
  constexpr BasicVec2<T> y_axis() const { return {b, d}; }
  // adj(M) = M⁻¹·det(M): the inverse up to a factor, defined for every matrix.
  constexpr BasicMatrix2 adjugate() const { return {d, -b, -c, a}; }

  constexpr BasicVec2<T> operator*(BasicVec2<T> v) const { return {a * v.x + b * v.y, c * v.x + d * v.y}; }
  // this · o: applies `o` first.
  constexpr BasicMatrix2 operator*(const BasicMatrix2& o) const {
    return {a * o.a + b * o.c, a * o.b + b * o.d, c * o.a + d * o.c, c * o.b + d * o.d};
  }
};

using Matrix2 = BasicMatrix2<float>;
using Matrix2d = BasicMatrix2<double>;

}  // namespace mf
