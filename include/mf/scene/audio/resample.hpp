#pragma once
// Linear resampling of interleaved stereo, the one rate conversion every loader uses.
//
// The output has round(frames × to / from) frames (at least one when the input has any), so the
// duration is kept to within half an output frame. Output frame i is read at input position
// i × from / to, interpolated linearly between its two neighbours (the last input frame repeats past
// the end). Linear interpolation is cheap and fine for upsampling (the usual 22050 / 44100 → 48000);
// downsampling aliases what lies above the new Nyquist frequency.

#include <span>
#include <vector>

namespace mf::scene {

// `from` and `to` positive. Returns the input unchanged when the rates are equal.
std::vector<float> resample_stereo_linear(std::span<const float> interleaved, int from, int to);

}  // namespace mf::scene
