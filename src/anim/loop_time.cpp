#include "mf/anim/loop_time.hpp"

#include <algorithm>
#include <cmath>

namespace mf::anim {

LoopPosition loop_position(float elapsed, float duration) {
  LoopPosition out;
  if (!(duration > 0) || elapsed == 0 || std::isnan(elapsed)) return out;
  constexpr double kCap = 1e9;
  if (!std::isfinite(elapsed)) {
    out.time = elapsed > 0 ? duration : 0.0f;
    out.wraps = static_cast<std::int32_t>(elapsed > 0 ? kCap : -kCap);
    return out;
  }
  // In double, so that a float time of a whole number of passes stays one.
  const double t = elapsed, d = duration;
  double k, in;
  if (t > 0) {  // passes (k·d, (k+1)·d]
    k = std::max(std::ceil(t / d) - 1.0, 0.0);
    in = t - k * d;
    if (in > d) {
      k += 1;
      in -= d;
    } else if (in <= 0 && k > 0) {
      k -= 1;
      in += d;
    }
  } else {  // passes [k·d, (k+1)·d)
    k = std::floor(t / d);
    in = t - k * d;
    if (in >= d) {
      k += 1;
      in -= d;
    } else if (in < 0) {
      k -= 1;
      in += d;
    }
  }
  out.time = std::clamp(static_cast<float>(in), 0.0f, duration);
  out.wraps = static_cast<std::int32_t>(std::clamp(k, -kCap, kCap));
  return out;
}

}  // namespace mf::anim
