#pragma once
// Scenes for ForwardRenderer tests: the renderer with a small target, pages drawn in code (a ring,
// solid colours), one frame drawn and read back, and the projections the tests predict pixels with
// (world → target pixel, target pixel → world ray), computed here from the camera's matrices and
// not from the renderer.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mf/core/math/mat4.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/core/math/vec3.hpp"
#include "mf/imaging/image.hpp"
#include "mf/render/forward_renderer.hpp"
#include "render_scene.hpp"

namespace mf::render::testing {

// Small per-frame limits: lavapipe, a few sprites and meshes.
inline ForwardOptions small_forward_options() {
  ForwardOptions options;
  options.max_gpu_vertices = 4096;
  options.max_cpu_vertices = 4096;
  options.max_static_vertices = 4096;
  options.max_static_influences = 8192;
  options.max_draws = 256;
  options.upload_bytes_per_slot = VkDeviceSize{1} << 20;
  options.shadow_map_size = 1024;
  return options;
}

struct ForwardRig {
  std::unique_ptr<ForwardRenderer> renderer;
  std::unique_ptr<RenderTarget> target;
  int width = 0, height = 0;

  float aspect() const { return static_cast<float>(width) / static_cast<float>(height); }
};

inline ForwardRig make_forward_rig(Device& device, GpuMemory& memory, int width, int height,
                                   const ForwardOptions& options = small_forward_options()) {
  ForwardRig rig;
  auto renderer = ForwardRenderer::create(device, memory, options);
  EXPECT_TRUE(renderer) << renderer.error().to_string();
  if (renderer) rig.renderer = std::move(*renderer);
  auto target = RenderTarget::create(device, memory, width, height);
  EXPECT_TRUE(target) << target.error().to_string();
  if (target) rig.target = std::move(*target);
  rig.width = width;
  rig.height = height;
  return rig;
}

// One frame: begin_frame, `queue()` (the draw_mesh / draw_sprite calls), end_frame, and the target
// read back with straight alpha.
template <class Queue>
imaging::Image render_forward(ForwardRig& rig, const ForwardFrame& frame, Queue&& queue) {
  const Status begun = rig.renderer->begin_frame(*rig.target, frame);
  EXPECT_TRUE(begun) << begun.error().to_string();
  queue();
  const Status ended = rig.renderer->end_frame();
  EXPECT_TRUE(ended) << ended.error().to_string();
  auto image = rig.target->read_back();
  EXPECT_TRUE(image) << image.error().to_string();
  return image ? std::move(*image) : imaging::Image::blank(rig.width, rig.height);
}

// Adds the data and `count` instances of it.
inline std::vector<InstanceHandle> add_sprites(ForwardRenderer& renderer, const skel::SkeletonData& data, int count = 1) {
  std::vector<InstanceHandle> instances;
  auto handle = renderer.add_data(data);
  EXPECT_TRUE(handle) << handle.error().to_string();
  if (!handle) return instances;
  for (int i = 0; i < count; ++i) {
    auto instance = renderer.add_instance(*handle);
    EXPECT_TRUE(instance) << instance.error().to_string();
    if (instance) instances.push_back(*instance);
  }
  return instances;
}

inline void expect_drawn(const Status& status) { EXPECT_TRUE(status) << status.error().to_string(); }

// A `size` × `size` page: `colour` where the distance from the page's centre is between `inner` and
// `outer` pixels, transparent black elsewhere (hard edges).
inline int add_ring_page(skel::SkeletonData& d, int size, float inner, float outer, Rgba8 colour) {
  const float centre = static_cast<float>(size) * 0.5f;
  return add_page(d, size, size, [&](int x, int y, std::uint8_t* p) {
    const float r = std::hypot(static_cast<float>(x) + 0.5f - centre, static_cast<float>(y) + 0.5f - centre);
    const bool in = r >= inner && r <= outer;
    p[0] = in ? colour.r : 0;
    p[1] = in ? colour.g : 0;
    p[2] = in ? colour.b : 0;
    p[3] = in ? colour.a : 0;
  });
}

// The page's alpha (0…1) at texture coordinates (u, v), filtered bilinearly with clamped edges, as a
// linear sampler at mip level 0 reads it.
inline float page_alpha(const skel::Page& page, float u, float v) {
  const float x = u * static_cast<float>(page.width) - 0.5f, y = v * static_cast<float>(page.height) - 0.5f;
  const float fx = std::floor(x), fy = std::floor(y);
  const float tx = x - fx, ty = y - fy;
  auto at = [&](int px, int py) {
    px = std::clamp(px, 0, page.width - 1);
    py = std::clamp(py, 0, page.height - 1);
    return unit(page.bytes[(static_cast<std::size_t>(py) * static_cast<std::size_t>(page.width) + static_cast<std::size_t>(px)) * 4 + 3]);
  };
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
  const float top = at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx;
  const float bottom = at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx;
  return top * (1 - ty) + bottom * ty;
}

// ---- projections (Vulkan clip space: x right, y down, depth 0…1) ----

// A world point's position on a width × height target, in pixels (pixel (i, j) spans [i, i+1) × [j, j+1),
// its centre at (i + 0.5, j + 0.5)).
inline Vec2 project_to_pixel(const Mat4& view_projection, Vec3 world, int width, int height) {
  const Vec3 ndc = view_projection.transform_point(world);
  return {(ndc.x + 1) * 0.5f * static_cast<float>(width), (ndc.y + 1) * 0.5f * static_cast<float>(height)};
}

struct Ray {
  Vec3 origin, direction;  // direction: unit length
};

// The world ray through target point (px, py) (pixel coordinates as project_to_pixel's).
inline Ray pixel_ray(const Mat4& inverse_view_projection, float px, float py, int width, int height) {
  const float x = px / static_cast<float>(width) * 2 - 1, y = py / static_cast<float>(height) * 2 - 1;
  const Vec3 near_point = inverse_view_projection.transform_point({x, y, 0});
  const Vec3 far_point = inverse_view_projection.transform_point({x, y, 1});
  return {near_point, normalize(far_point - near_point)};
}

// Where the line through `origin` along `direction` meets the plane through `point` with `normal`.
inline std::optional<Vec3> intersect_plane(Vec3 origin, Vec3 direction, Vec3 point, Vec3 normal) {
  const float denominator = dot(direction, normal);
  if (std::abs(denominator) < 1e-8f) return std::nullopt;
  const float t = dot(point - origin, normal) / denominator;
  return origin + direction * t;
}

// The skeleton-space point of a sprite under target point (px, py): the pixel's ray meets the sprite's
// plane (its model's local z = 0), taken back through the inverse model matrix.
inline std::optional<Vec2> sprite_point_under(const Mat4& model, const Mat4& view_projection, float px, float py, int width,
                                              int height) {
  const Ray ray = pixel_ray(view_projection.inverse(), px, py, width, height);
  const Vec3 origin = model.transform_point({0, 0, 0});
  const Vec3 normal = normalize(model.transform_vector({0, 0, 1}));
  const auto hit = intersect_plane(ray.origin, ray.direction, origin, normal);
  if (!hit) return std::nullopt;
  const Vec3 local = model.inverse().transform_point(*hit);
  return Vec2{local.x, local.y};
}

// An orthographic camera looking along −Z at `centre` that shows `height` × `pixel_size` world units
// from the bottom to the top of a `height`-pixel target: one skeleton pixel of a sprite drawn with
// `pixel_size` (in the XY plane, billboard None, no rotation) covers one target pixel.
inline Camera pixel_exact_camera(Vec3 centre, int height, float pixel_size) {
  Camera camera;
  camera.projection = Camera::Projection::Orthographic;
  camera.position = centre + Vec3{0, 0, 10};
  camera.target = centre;
  camera.up = {0, 1, 0};
  camera.ortho_height = static_cast<float>(height) * pixel_size;
  camera.near_plane = 0.1f;
  camera.far_plane = 50;
  return camera;
}

// ---- masks over a target ----

struct Mask {
  int width = 0, height = 0;
  std::vector<std::uint8_t> bits;

  Mask(int w, int h) : width(w), height(h), bits(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0) {}
  bool at(int x, int y) const {
    return x >= 0 && y >= 0 && x < width && y < height && bits[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] != 0;
  }
  void set(int x, int y, bool on) { bits[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] = on ? 1 : 0; }
  int count() const { return static_cast<int>(std::count(bits.begin(), bits.end(), std::uint8_t{1})); }

  // Pixels whose value differs from one of their 8 neighbours' (inside the target): the mask's edges.
  Mask edges() const {
    Mask out(width, height);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        bool edge = false;
        for (int dy = -1; dy <= 1 && !edge; ++dy)
          for (int dx = -1; dx <= 1 && !edge; ++dx) {
            const int nx = x + dx, ny = y + dy;
            if (nx >= 0 && ny >= 0 && nx < width && ny < height && at(nx, ny) != at(x, y)) edge = true;
          }
        out.set(x, y, edge);
      }
    return out;
  }
  // Pixels within `radius` (Chebyshev distance) of a set pixel.
  Mask dilated(int radius) const {
    Mask out(width, height);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        bool on = false;
        for (int dy = -radius; dy <= radius && !on; ++dy)
          for (int dx = -radius; dx <= radius && !on; ++dx) on = at(x + dx, y + dy);
        out.set(x, y, on);
      }
    return out;
  }
  // Set pixels whose every pixel within `radius` is set (outside the target counts as unset).
  Mask eroded(int radius) const {
    Mask out(width, height);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        bool on = true;
        for (int dy = -radius; dy <= radius && on; ++dy)
          for (int dx = -radius; dx <= radius && on; ++dx) on = at(x + dx, y + dy);
        out.set(x, y, on);
      }
    return out;
  }
};

// Intersection over union of two masks over the pixels `ignore` leaves in; 1 when both are empty there.
inline double iou(const Mask& a, const Mask& b, const Mask& ignore) {
  int both = 0, either = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      if (ignore.at(x, y)) continue;
      both += a.at(x, y) && b.at(x, y);
      either += a.at(x, y) || b.at(x, y);
    }
  return either == 0 ? 1.0 : static_cast<double>(both) / static_cast<double>(either);
}

// Pixels of `image` whose alpha is at least `min_alpha`.
inline Mask covered(const imaging::Image& image, std::uint8_t min_alpha = 128) {
  Mask out(image.width, image.height);
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) out.set(x, y, image.pixel(x, y)[3] >= min_alpha);
  return out;
}

// The median of `values` (0 when there are none).
inline float median(std::vector<float> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// 8-bit channel difference, as an int (0…255).
inline int channel_difference(std::uint8_t a, std::uint8_t b) { return std::abs(int(a) - int(b)); }

}  // namespace mf::render::testing
