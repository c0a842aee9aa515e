#include "mf/imaging/image_ops.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace mf::imaging {

namespace {

void copy_pixel(std::uint8_t* to, const std::uint8_t* from) { std::memcpy(to, from, 4); }

}  // namespace

Rect alpha_bounds(const Image& image) {
  int min_x = image.width, min_y = image.height, max_x = -1, max_y = -1;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (image.pixel(x, y)[3] == 0) continue;
      min_x = std::min(min_x, x);
      max_x = std::max(max_x, x);
      min_y = std::min(min_y, y);
      max_y = std::max(max_y, y);
    }
  }
  if (max_x < 0) return {};
  return {min_x, min_y, max_x - min_x + 1, max_y - min_y + 1};
}

Image crop(const Image& image, Rect rect) {
  if (rect.empty()) return {};
  Image out = Image::blank(rect.width, rect.height);
  for (int y = 0; y < out.height; ++y)
    std::memcpy(out.pixel(0, y), image.pixel(rect.x, rect.y + y), static_cast<std::size_t>(out.width) * 4);
  return out;
}

void blit(Image& target, const Image& source, int x, int y) {
  const int x0 = std::max(0, x), x1 = std::min(target.width, x + source.width);
  const int y0 = std::max(0, y), y1 = std::min(target.height, y + source.height);
  if (x0 >= x1) return;
  for (int ty = y0; ty < y1; ++ty)
    std::memcpy(target.pixel(x0, ty), source.pixel(x0 - x, ty - y), static_cast<std::size_t>(x1 - x0) * 4);
}

Image extrude(const Image& image, int amount) {
  if (image.empty()) return image;
  amount = std::max(amount, 0);
  Image out = Image::blank(image.width + 2 * amount, image.height + 2 * amount);
  for (int y = 0; y < out.height; ++y) {
    const int sy = std::clamp(y - amount, 0, image.height - 1);
    for (int x = 0; x < out.width; ++x) {
      const int sx = std::clamp(x - amount, 0, image.width - 1);
      copy_pixel(out.pixel(x, y), image.pixel(sx, sy));
    }
  }
  return out;
}

void alpha_bleed(Image& image) {
  // Multi-source breadth-first search from every visible pixel: each transparent pixel takes the
  // colour of the first visible pixel whose wave reaches it. The queue is seeded in row-major order
  // and neighbours are visited in a fixed order, so ties always resolve the same way.
  const std::size_t count = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
  std::vector<std::uint8_t> done(count, 0);
  std::vector<std::uint32_t> queue;
  queue.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (image.rgba[i * 4 + 3] != 0) {
      done[i] = 1;
      queue.push_back(static_cast<std::uint32_t>(i));
    }
  }
  if (queue.empty()) return;
  static constexpr int kDx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
  static constexpr int kDy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t i = queue[head];
    const int x = static_cast<int>(i % static_cast<std::uint32_t>(image.width));
    const int y = static_cast<int>(i / static_cast<std::uint32_t>(image.width));
    for (int k = 0; k < 8; ++k) {
      const int nx = x + kDx[k], ny = y + kDy[k];
      if (nx < 0 || ny < 0 || nx >= image.width || ny >= image.height) continue;
      const std::size_t n = static_cast<std::size_t>(ny) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(nx);
      if (done[n]) continue;
      done[n] = 1;
      std::memcpy(&image.rgba[n * 4], &image.rgba[static_cast<std::size_t>(i) * 4], 3);  // colour only; alpha stays 0
      queue.push_back(static_cast<std::uint32_t>(n));
    }
  }
}

void premultiply(Image& image) {
  for (std::size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    const unsigned a = image.rgba[i + 3];
    for (int c = 0; c < 3; ++c)
      image.rgba[i + static_cast<std::size_t>(c)] = static_cast<std::uint8_t>((image.rgba[i + static_cast<std::size_t>(c)] * a + 127) / 255);
  }
}

void unpremultiply(Image& image) {
  for (std::size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    const unsigned a = image.rgba[i + 3];
    for (int c = 0; c < 3; ++c) {
      std::uint8_t& v = image.rgba[i + static_cast<std::size_t>(c)];
      v = a == 0 ? 0 : static_cast<std::uint8_t>(std::min(255u, (v * 255u + a / 2) / a));
    }
  }
}

Image rotate_clockwise(const Image& image) {
  Image out = Image::blank(image.height, image.width);
  // The source's left column becomes the top row, read bottom to top.
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) copy_pixel(out.pixel(x, y), image.pixel(y, image.height - 1 - x));
  return out;
}

Image rotate_counterclockwise(const Image& image) {
  Image out = Image::blank(image.height, image.width);
  // The source's right column becomes the top row, read top to bottom.
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) copy_pixel(out.pixel(x, y), image.pixel(image.width - 1 - y, x));
  return out;
}

}  // namespace mf::imaging
