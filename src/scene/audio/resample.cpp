#include "mf/scene/audio/resample.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace mf::scene {

std::vector<float> resample_stereo_linear(std::span<const float> in, int from, int to) {
  const std::size_t frames = in.size() / 2;
  if (from == to || frames == 0) return std::vector<float>(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(frames * 2));
  const double ratio = static_cast<double>(from) / to;
  auto out_frames = static_cast<std::size_t>(std::llround(static_cast<double>(frames) * to / from));
  if (out_frames == 0) out_frames = 1;
  std::vector<float> out(out_frames * 2);
  for (std::size_t i = 0; i < out_frames; ++i) {
    const double position = static_cast<double>(i) * ratio;
    std::size_t i0 = static_cast<std::size_t>(position);
    if (i0 >= frames) i0 = frames - 1;
    const std::size_t i1 = i0 + 1 < frames ? i0 + 1 : i0;
    const auto t = static_cast<float>(position - static_cast<double>(i0));
    for (std::size_t c = 0; c < 2; ++c)
      out[2 * i + c] = in[2 * i0 + c] + (in[2 * i1 + c] - in[2 * i0 + c]) * t;
  }
  return out;
}

}  // namespace mf::scene
