#pragma once
// Drawing for the example art generators (make_example_art, make_psd_character_art): anti-aliased
// signed-distance shapes with a darker outline and a soft pseudo-3D shading, on canvases whose
// top-left pixel sits at a chosen drawing coordinate, written as RGBA PNGs with straight alpha.
//
// Only +, -, *, / and sqrt touch pixel values (no sin, cos or pow); built with -ffp-contract=off,
// the output bytes are the same on every run and machine.

#include <spng.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <utility>
#include <vector>

#include "mf/core/math/color.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf::tools::art {

// ---- small math --------------------------------------------------------------------------------

inline float clamp01(float v) { return std::clamp(v, 0.0f, 1.0f); }
inline float smoothstep(float e0, float e1, float v) {
  const float t = clamp01((v - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}

// ---- signed distances (negative inside, in pixels) -----------------------------------------------

using Sdf = std::function<float(Vec2)>;

inline Sdf circle(Vec2 c, float r) {
  return [=](Vec2 p) { return length(p - c) - r; };
}

// A first-order distance estimate, good enough for a one-pixel anti-aliased edge.
inline Sdf ellipse(Vec2 c, float rx, float ry) {
  return [=](Vec2 p) {
    const Vec2 q = p - c;
    const float k0 = length(Vec2{q.x / rx, q.y / ry});
    const float k1 = length(Vec2{q.x / (rx * rx), q.y / (ry * ry)});
    if (k1 == 0) return -std::min(rx, ry);
    return k0 * (k0 - 1) / k1;
  };
}

// A capsule from a (radius ra) to b (radius rb): a limb that tapers.
inline Sdf capsule(Vec2 a, Vec2 b, float ra, float rb) {
  const Vec2 axis = b - a;
  const float h = length(axis);
  const Vec2 u = axis * (1 / h);  // along the capsule
  const Vec2 n = {-u.y, u.x};     // across it
  return [=](Vec2 p) {
    const Vec2 w = p - a;
    const Vec2 q = {std::abs(dot(w, n)), dot(w, u)};
    const float s = (ra - rb) / h;
    const float c = std::sqrt(1 - s * s);
    const float k = dot(q, {-s, c});
    if (k < 0) return length(q) - ra;
    if (k > c * h) return length(q - Vec2{0, h}) - rb;
    return dot(q, {c, s}) - ra;
  };
}

inline Sdf round_box(Vec2 center, Vec2 half, float r) {
  return [=](Vec2 p) {
    const Vec2 q = {std::abs(p.x - center.x) - half.x + r, std::abs(p.y - center.y) - half.y + r};
    const Vec2 outside = {std::max(q.x, 0.0f), std::max(q.y, 0.0f)};
    return length(outside) + std::min(std::max(q.x, q.y), 0.0f) - r;
  };
}

// Convex or concave polygon (even-odd inside test).
inline Sdf polygon(std::vector<Vec2> v) {
  return [v = std::move(v)](Vec2 p) {
    float d = dot(p - v[0], p - v[0]);
    bool inside = false;
    for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
      const Vec2 e = v[j] - v[i];
      const Vec2 w = p - v[i];
      const Vec2 b = w - e * clamp01(dot(w, e) / dot(e, e));
      d = std::min(d, dot(b, b));
      const bool c1 = p.y >= v[i].y, c2 = p.y < v[j].y, c3 = e.x * w.y > e.y * w.x;
      if ((c1 && c2 && c3) || (!c1 && !c2 && !c3)) inside = !inside;
    }
    return (inside ? -1.0f : 1.0f) * std::sqrt(d);
  };
}

inline Sdf unite(Sdf a, Sdf b) {
  return [=](Vec2 p) { return std::min(a(p), b(p)); };
}
inline Sdf intersect(Sdf a, Sdf b) {
  return [=](Vec2 p) { return std::max(a(p), b(p)); };
}
inline Sdf subtract(Sdf a, Sdf b) {
  return [=](Vec2 p) { return std::max(a(p), -b(p)); };
}
// Moves a shape's outline outwards by r pixels.
inline Sdf grow(Sdf a, float r) {
  return [=](Vec2 p) { return a(p) - r; };
}
// Half plane: inside where dot(p - point, normal) < 0 (normal need not be unit length).
inline Sdf half_plane(Vec2 point, Vec2 normal) {
  const float k = 1 / length(normal);
  return [=](Vec2 p) { return dot(p - point, normal) * k; };
}

// ---- colour -------------------------------------------------------------------------------------

// Colours are mf::ColorF: straight alpha, 0..1.

inline ColorF rgb(std::uint32_t hex, float a = 1) {
  return {static_cast<float>((hex >> 16) & 0xff) / 255, static_cast<float>((hex >> 8) & 0xff) / 255,
          static_cast<float>(hex & 0xff) / 255, a};
}
inline ColorF scaled(ColorF c, float k) { return {clamp01(c.r * k), clamp01(c.g * k), clamp01(c.b * k), c.a}; }
inline ColorF mix(ColorF a, ColorF b, float t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t};
}
inline ColorF outline_of(ColorF c) { return scaled(c, 0.42f); }

// ---- canvas -------------------------------------------------------------------------------------

using Paint = std::function<ColorF(Vec2 p, float d)>;

class Canvas {
 public:
  // `origin` is the drawing coordinate of the image's top-left corner: shapes are given in the
  // space of the rig (bone space for limbs, setup world space for upright parts).
  Canvas(int width, int height, Vec2 origin) : width_(width), height_(height), origin_(origin), pixels_(static_cast<std::size_t>(width * height), ColorF{0, 0, 0, 0}) {}

  int width() const { return width_; }
  int height() const { return height_; }
  Vec2 origin() const { return origin_; }

  // Fills a shape: coverage from the distance at each pixel centre (one-pixel anti-aliased edge).
  void fill(const Sdf& sdf, const Paint& paint) {
    for (int y = 0; y < height_; ++y) {
      for (int x = 0; x < width_; ++x) {
        const Vec2 p = {origin_.x + static_cast<float>(x) + 0.5f, origin_.y + static_cast<float>(y) + 0.5f};
        const float d = sdf(p);
        const float coverage = clamp01(0.5f - d);
        if (coverage <= 0) continue;
        blend(x, y, paint(p, d), coverage);
      }
    }
  }
  void fill(const Sdf& sdf, ColorF color) {
    fill(sdf, [color](Vec2, float) { return color; });
  }

  // A shape with a darker outline `width` pixels wide around the shaded inside.
  void outlined(const Sdf& sdf, const Paint& inside, ColorF outline, float width = 1.6f) {
    fill(sdf, [&](Vec2 p, float d) { return mix(outline, inside(p, d), clamp01(0.5f - (d + width))); });
  }

  // Straight-alpha RGBA8, rounded to nearest.
  std::vector<std::uint8_t> rgba8() const {
    std::vector<std::uint8_t> out(pixels_.size() * 4);
    auto to8 = [](float v) { return static_cast<std::uint8_t>(clamp01(v) * 255 + 0.5f); };
    for (std::size_t i = 0; i < pixels_.size(); ++i) {
      const ColorF& c = pixels_[i];  // premultiplied
      const float a = c.a;
      const bool empty = a <= 0;
      out[i * 4 + 0] = empty ? 0 : to8(c.r / a);
      out[i * 4 + 1] = empty ? 0 : to8(c.g / a);
      out[i * 4 + 2] = empty ? 0 : to8(c.b / a);
      out[i * 4 + 3] = to8(a);
    }
    return out;
  }

 private:
  // "Over" in premultiplied space.
  void blend(int x, int y, ColorF c, float coverage) {
    ColorF& dst = pixels_[static_cast<std::size_t>(y) * width_ + x];
    const float a = clamp01(c.a * coverage);
    dst.r = c.r * a + dst.r * (1 - a);
    dst.g = c.g * a + dst.g * (1 - a);
    dst.b = c.b * a + dst.b * (1 - a);
    dst.a = a + dst.a * (1 - a);
  }

  int width_, height_;
  Vec2 origin_;
  std::vector<ColorF> pixels_;
};

// ---- shading ------------------------------------------------------------------------------------

// Lights a flat shape as if it were a rounded body `thickness` pixels deep at its middle: the normal
// leans outwards along the distance gradient near the outline and faces the viewer inside. `light`
// is the direction towards the light in image space (the viewer is +z).
inline Paint rounded(const Sdf& sdf, ColorF base, float thickness, Vec2 light = {-0.45f, -0.6f}) {
  const float lz = 0.66f;
  const float ln = std::sqrt(light.x * light.x + light.y * light.y + lz * lz);
  return [=](Vec2 p, float d) {
    const float e = 0.5f;
    Vec2 g = {sdf({p.x + e, p.y}) - sdf({p.x - e, p.y}), sdf({p.x, p.y + e}) - sdf({p.x, p.y - e})};
    const float gl = length(g);
    g = gl > 0 ? g * (1 / gl) : Vec2{0, 0};
    const float depth = clamp01(-d / thickness);
    const float side = 1 - depth;                 // how far the normal leans outwards
    const float nz = std::sqrt(1 - side * side);  // cylinder profile
    const float lambert = std::max(0.0f, (g.x * side * light.x + g.y * side * light.y + nz * lz) / ln);
    return scaled(base, 0.62f + 0.5f * lambert);
  };
}

// ---- PNG ----------------------------------------------------------------------------------------

// Writes straight-alpha RGBA8 pixels, width × height, as a PNG.
inline bool write_png(const std::filesystem::path& path, int width, int height, const std::vector<std::uint8_t>& pixels) {
  spng_ctx* ctx = spng_ctx_new(SPNG_CTX_ENCODER);
  if (ctx == nullptr) return false;
  spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
  // Fixed settings, so a change of libspng's defaults does not change the bytes.
  spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, 9);
  spng_set_option(ctx, SPNG_FILTER_CHOICE, SPNG_FILTER_CHOICE_ALL);
  spng_ihdr ihdr{};
  ihdr.width = static_cast<std::uint32_t>(width);
  ihdr.height = static_cast<std::uint32_t>(height);
  ihdr.bit_depth = 8;
  ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
  int err = spng_set_ihdr(ctx, &ihdr);
  if (err == 0) err = spng_encode_image(ctx, pixels.data(), pixels.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
  std::size_t size = 0;
  void* png = err == 0 ? spng_get_png_buffer(ctx, &size, &err) : nullptr;
  spng_ctx_free(ctx);
  if (png == nullptr) {
    std::fprintf(stderr, "cannot encode %s: %s\n", path.string().c_str(), spng_strerror(err));
    return false;
  }
  std::FILE* file = std::fopen(path.string().c_str(), "wb");
  const bool ok = file != nullptr && std::fwrite(png, 1, size, file) == size;
  if (file != nullptr && std::fclose(file) != 0) {
    std::free(png);
    return false;
  }
  std::free(png);
  if (!ok) std::fprintf(stderr, "cannot write %s\n", path.string().c_str());
  return ok;
}

inline bool write_png(const std::filesystem::path& path, const Canvas& canvas) {
  return write_png(path, canvas.width(), canvas.height(), canvas.rgba8());
}

}  // namespace mf::tools::art
