#pragma once
// Image operations of the asset pipeline: trimming to the alpha bounds, padding with edge
// extrusion, alpha bleeding, premultiplication, rotation and copying. Pure functions over Image.

#include "mf/imaging/image.hpp"

namespace mf::imaging {

// The smallest rectangle holding every pixel with alpha > 0; empty when the image is fully transparent.
Rect alpha_bounds(const Image& image);

// The pixels of `rect` (which must lie inside the image) as a new image.
Image crop(const Image& image, Rect rect);

// Copies `source` into `target` with its top-left corner at (x, y); pixels outside `target` are dropped.
void blit(Image& target, const Image& source, int x, int y);

// A copy grown by `amount` pixels on every side, the new border filled by repeating the edge
// pixels outwards (corners take the corner pixel), so bilinear filtering at the edge of a packed
// image never reads its neighbour on the page.
Image extrude(const Image& image, int amount);

// Gives every fully transparent pixel the colour of its nearest pixel with alpha > 0 (alpha stays 0),
// so filtering at silhouettes does not pull in black. Distance is measured in pixel steps
// (8-neighbourhood), ties broken deterministically. A fully transparent image is left unchanged.
void alpha_bleed(Image& image);

// Straight ↔ premultiplied alpha, rounding to nearest. unpremultiply leaves alpha-0 pixels black.
void premultiply(Image& image);
void unpremultiply(Image& image);

// Rotations by a quarter turn.
Image rotate_clockwise(const Image& image);
Image rotate_counterclockwise(const Image& image);

}  // namespace mf::imaging
