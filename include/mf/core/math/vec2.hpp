#pragma once
// 2D vectors: a point or a direction, in float (Vec2) or double (Vec2d). Plain aggregates with the
// usual component-wise operators; every operation is the textbook formula, written once. Scalars
// convert to the vector's type (v * 2 is a Vec2 for a Vec2 v); a braced argument needs its type named
// (length(Vec2{x, y})), since the functions are templates.

#include <cmath>
#include <type_traits>

namespace mf {

template <class T>
struct BasicVec2 {
  T x = 0, y = 0;

  friend constexpr bool operator==(const BasicVec2&, const BasicVec2&) = default;

  constexpr BasicVec2 operator-() const { return {-x, -y}; }
  constexpr BasicVec2& operator+=(BasicVec2 o) { return x += o.x, y += o.y, *this; }
  constexpr BasicVec2& operator-=(BasicVec2 o) { return x -= o.x, y -= o.y, *this; }
  constexpr BasicVec2& operator*=(T s) { return x *= s, y *= s, *this; }
};

using Vec2 = BasicVec2<float>;
using Vec2d = BasicVec2<double>;

template <class T>
constexpr BasicVec2<T> operator+(BasicVec2<T> a, BasicVec2<T> b) { return {a.x + b.x, a.y + b.y}; }
template <class T>
constexpr BasicVec2<T> operator-(BasicVec2<T> a, BasicVec2<T> b) { return {a.x - b.x, a.y - b.y}; }
template <class T>
constexpr BasicVec2<T> operator*(BasicVec2<T> a, std::type_identity_t<T> s) { return {a.x * s, a.y * s}; }
template <class T>
constexpr BasicVec2<T> operator*(std::type_identity_t<T> s, BasicVec2<T> a) { return {s * a.x, s * a.y}; }
template <class T>
constexpr BasicVec2<T> operator/(BasicVec2<T> a, std::type_identity_t<T> s) { return {a.x / s, a.y / s}; }

template <class T>
constexpr T dot(BasicVec2<T> a, BasicVec2<T> b) { return a.x * b.x + a.y * b.y; }
// The z of the 3D cross product: positive when b is counter-clockwise from a in a y-up frame.
template <class T>
constexpr T cross(BasicVec2<T> a, BasicVec2<T> b) { return a.x * b.y - a.y * b.x; }
// √(a·a): the fast length.
template <class T>
T length(BasicVec2<T> a) { return std::sqrt(dot(a, a)); }
// std::hypot(x, y): the length without overflow or underflow in the squares, for solvers that
// work near degenerate geometry.
template <class T>
T hypot_length(BasicVec2<T> a) { return std::hypot(a.x, a.y); }
// Direction in radians, std::atan2(y, x).
template <class T>
T direction(BasicVec2<T> a) { return std::atan2(a.y, a.x); }
// a + (b − a)·s.
template <class T>
constexpr BasicVec2<T> lerp(BasicVec2<T> a, BasicVec2<T> b, std::type_identity_t<T> s) { return {a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s}; }
// a turned by +90° (counter-clockwise in a y-up frame).
template <class T>
constexpr BasicVec2<T> perpendicular(BasicVec2<T> a) { return {-a.y, a.x}; }

}  // namespace mf
