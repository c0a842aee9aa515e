#pragma once
// Layer compositing: drawing one straight-alpha image over another with the "normal" blend mode
// (Porter–Duff source-over), the way a painting program flattens a group of normal layers.

#include "mf/imaging/image.hpp"

namespace mf::imaging {

// Draws `layer` over `target` with its top-left corner at (x, y), its alpha scaled by `opacity`
// (0 to 1, clamped). Both images hold straight alpha; the result is straight alpha, each channel
// rounded to nearest. Pixels that fall outside `target` are dropped.
void composite_over(Image& target, const Image& layer, int x, int y, double opacity = 1);

}  // namespace mf::imaging
