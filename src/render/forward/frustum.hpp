#pragma once
// Internal: the view frustum as six planes taken from a view-projection matrix (Vulkan clip space:
// −w ≤ x, y ≤ w, 0 ≤ z ≤ w), and the conservative box test both meshes and sprites are culled by.

#include <array>

#include "mf/core/math/mat4.hpp"
#include "mf/core/math/vec3.hpp"

namespace mf::render::detail {

struct Frustum {
  // Plane i: dot(normal, p) + d ≥ 0 inside.
  std::array<Vec4, 6> planes{};

  static Frustum from(const Mat4& view_projection) {
    auto row = [&](int r) { return Vec4{view_projection.at(r, 0), view_projection.at(r, 1), view_projection.at(r, 2), view_projection.at(r, 3)}; };
    const Vec4 r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
    auto add = [](Vec4 a, Vec4 b) { return Vec4{a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; };
    auto sub = [](Vec4 a, Vec4 b) { return Vec4{a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w}; };
    Frustum f;
    f.planes = {add(r3, r0), sub(r3, r0), add(r3, r1), sub(r3, r1), r2, sub(r3, r2)};
    return f;
  }

  // Whether the box of `corners` (any eight points, e.g. a local box through a model matrix) lies
  // entirely outside one plane: then nothing of it can be seen. Conservative: may keep boxes that
  // are outside near a frustum corner.
  bool outside(const std::array<Vec3, 8>& corners) const {
    for (const Vec4& p : planes) {
      bool all_out = true;
      for (const Vec3& c : corners)
        if (p.x * c.x + p.y * c.y + p.z * c.z + p.w >= 0) {
          all_out = false;
          break;
        }
      if (all_out) return true;
    }
    return false;
  }
};

// The eight corners of the box [lo, hi] through `model`.
inline std::array<Vec3, 8> box_corners(const Mat4& model, Vec3 lo, Vec3 hi) {
  std::array<Vec3, 8> out{};
  for (int i = 0; i < 8; ++i)
    out[static_cast<std::size_t>(i)] = model.transform_point({i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z});
  return out;
}

}  // namespace mf::render::detail
