#pragma once
// π and conversions between degrees and radians. Files and poses store angles in degrees, clockwise on
// screen (Y down); the trigonometry works in radians. Float for the runtime's poses, double (the D
// suffix) for solvers and tools that compute in double. A conversion is one multiplication by the
// constant, so callers that write `degrees * kDegToRad` and those that call radians() agree exactly.

#include <numbers>

namespace mf {

template <class T>
inline constexpr T kPiOf = std::numbers::pi_v<T>;
template <class T>
inline constexpr T kDegToRadOf = kPiOf<T> / T(180);
template <class T>
inline constexpr T kRadToDegOf = T(180) / kPiOf<T>;

inline constexpr float kPi = kPiOf<float>;
inline constexpr float kDegToRad = kDegToRadOf<float>;
inline constexpr float kRadToDeg = kRadToDegOf<float>;

inline constexpr double kPiD = kPiOf<double>;
inline constexpr double kDegToRadD = kDegToRadOf<double>;
inline constexpr double kRadToDegD = kRadToDegOf<double>;

constexpr float radians(float degrees) { return degrees * kDegToRad; }
constexpr double radians(double degrees) { return degrees * kDegToRadD; }
constexpr float degrees(float radians) { return radians * kRadToDeg; }
constexpr double degrees(double radians) { return radians * kRadToDegD; }

}  // namespace mf
