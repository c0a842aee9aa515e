#pragma once
// What SkeletonHitboxes2D and SkeletonHitboxes3D share: the 16-bit layer and mask check, and finding
// a convex piece's points among the outline's vertices (convex_pieces keeps input points as they are).

#include <cmath>
#include <span>
#include <string>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/scene/physics_shared.hpp"

namespace mf::scene::detail {

inline Status check_collision_bits(const char* what, std::uint32_t value) {
  if (value <= kMaxCollisionBits) return {};
  return Unexpected{Error{.message = std::string("collision ") + what + " " + std::to_string(value) +
                                     " has bits above bit 15 set: layers and masks are 16 bits (0 to 65535)"}};
}

// The index of `p` among `polygon`'s points; −1 when none is within 1e-4.
inline int vertex_index(std::span<const Vec2> polygon, Vec2 p) {
  int best = -1;
  float best_d = 1e-4f;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const float d = std::abs(polygon[i].x - p.x) + std::abs(polygon[i].y - p.y);
    if (d < best_d || (d == 0 && best < 0)) {
      best = static_cast<int>(i);
      best_d = d;
      if (d == 0) break;
    }
  }
  return best;
}

}  // namespace mf::scene::detail
