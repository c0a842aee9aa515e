#pragma once
// 2D affine transforms in the skeleton pose's world convention:
//   x' = a·x + b·y + x0,   y' = c·x + d·y + y0
// (columns of [a b; c d] are the axes, (x0, y0) the origin), in float (Affine2) or double (Affine2d).

#include <optional>

#include "mf/core/math/matrix2.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf {

template <class T>
struct BasicAffine2 {
  T a = 1, b = 0, c = 0, d = 1, x = 0, y = 0;

  friend constexpr bool operator==(const BasicAffine2&, const BasicAffine2&) = default;

  static constexpr BasicAffine2 identity() { return {}; }
  static constexpr BasicAffine2 translation(T tx, T ty) { return {1, 0, 0, 1, tx, ty}; }
  static constexpr BasicAffine2 scale(T sx, T sy) { return {sx, 0, 0, sy, 0, 0}; }
  static constexpr BasicAffine2 from(const BasicMatrix2<T>& m, T tx, T ty) { return {m.a, m.b, m.c, m.d, tx, ty}; }

  constexpr BasicMatrix2<T> linear() const { return {a, b, c, d}; }
  constexpr BasicVec2<T> origin() const { return {x, y}; }
  constexpr T det() const { return a * d - b * c; }

  // this ∘ o: applies `o` first.
  constexpr BasicAffine2 operator*(const BasicAffine2& o) const {
    return {a * o.a + b * o.c, a * o.b + b * o.d, c * o.a + d * o.c, c * o.b + d * o.d, a * o.x + b * o.y + x,
            c * o.x + d * o.y + y};
  }
  constexpr T apply_x(T px, T py) const { return a * px + b * py + x; }
  constexpr T apply_y(T px, T py) const { return c * px + d * py + y; }
  constexpr BasicVec2<T> apply(BasicVec2<T> p) const { return {apply_x(p.x, p.y), apply_y(p.x, p.y)}; }
  // The linear part only: a direction, not a point.
  constexpr BasicVec2<T> apply_vector(BasicVec2<T> v) const { return {a * v.x + b * v.y, c * v.x + d * v.y}; }

  // The transform that undoes this one; empty when the determinant is zero or not finite.
  constexpr std::optional<BasicAffine2> inverse() const {
    const T det_ = det();
    if (!(det_ != 0) || !(det_ - det_ == 0)) return std::nullopt;
    const T ia = d / det_, ib = -b / det_, ic = -c / det_, id = a / det_;
    return BasicAffine2{ia, ib, ic, id, -(ia * x + ib * y), -(ic * x + id * y)};
  }
};

using Affine2 = BasicAffine2<float>;
using Affine2d = BasicAffine2<double>;

}  // namespace mf
