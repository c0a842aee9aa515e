#pragma once
// Layered documents made in code for the art import's tests: solid rectangles in groups, with the
// visibility, opacity, fill and blend mode a test needs.

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mf/imaging/psd.hpp"

namespace mf::offline::test {

using Rgba = std::array<std::uint8_t, 4>;

// A pixel layer of size w × h at (x, y) on the canvas, filled with `color`. With `margin`, the layer's
// pixels reach `margin` transparent pixels further on every side (as GIMP's canvas-sized layers do),
// so the import has to trim them.
inline imaging::PsdLayer pixel_layer(std::string name, int x, int y, int w, int h, Rgba color = {200, 100, 50, 255},
                                     int margin = 0) {
  imaging::PsdLayer l;
  l.name = std::move(name);
  l.bounds = {x - margin, y - margin, w + 2 * margin, h + 2 * margin};
  l.pixels = imaging::Image::blank(l.bounds.width, l.bounds.height);
  for (int py = margin; py < margin + h; ++py)
    for (int px = margin; px < margin + w; ++px)
      for (int c = 0; c < 4; ++c) l.pixels.pixel(px, py)[c] = color[static_cast<std::size_t>(c)];
  return l;
}

inline imaging::PsdLayer group_layer(std::string name, std::vector<imaging::PsdLayer> children) {
  imaging::PsdLayer g;
  g.kind = imaging::PsdLayer::Kind::Group;
  g.name = std::move(name);
  g.blend[0] = 'p', g.blend[1] = 'a', g.blend[2] = 's', g.blend[3] = 's';
  g.children = std::move(children);
  for (const imaging::PsdLayer& c : g.children) {
    if (c.bounds.empty()) continue;
    if (g.bounds.empty()) {
      g.bounds = c.bounds;
      continue;
    }
    const int x0 = std::min(g.bounds.x, c.bounds.x), y0 = std::min(g.bounds.y, c.bounds.y);
    const int x1 = std::max(g.bounds.x + g.bounds.width, c.bounds.x + c.bounds.width);
    const int y1 = std::max(g.bounds.y + g.bounds.height, c.bounds.y + c.bounds.height);
    g.bounds = {x0, y0, x1 - x0, y1 - y0};
  }
  return g;
}

inline imaging::PsdLayer hidden(imaging::PsdLayer l) {
  l.visible = false;
  return l;
}

inline imaging::PsdLayer with_opacity(imaging::PsdLayer l, std::uint8_t opacity, std::uint8_t fill = 255) {
  l.opacity = opacity;
  l.fill = fill;
  return l;
}

inline imaging::PsdLayer with_blend(imaging::PsdLayer l, const char (&key)[5]) {
  for (int i = 0; i < 4; ++i) l.blend[i] = key[i];
  return l;
}

inline imaging::PsdDocument document(int width, int height, std::vector<imaging::PsdLayer> layers) {
  imaging::PsdDocument d;
  d.width = width;
  d.height = height;
  d.layers = std::move(layers);
  int record = 0;
  // Records count from the bottom, through the tree, as a file lists them.
  auto number = [&](auto&& self, std::vector<imaging::PsdLayer>& ls) -> void {
    for (imaging::PsdLayer& l : ls) {
      l.record = record++;
      self(self, l.children);
    }
  };
  number(number, d.layers);
  return d;
}

}  // namespace mf::offline::test
