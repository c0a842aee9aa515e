#include "mf/editor/core/tools/gizmo_math.hpp"

#include <cmath>
#include <optional>

#include "mf/core/math/angle.hpp"
#include "mf/editor/core/tools/bone_tools.hpp"
#include "mf/editor/core/tools/bone_world.hpp"

namespace mf::editor {

using offline::Bone;

namespace {

std::optional<Affine2d> parent_of(const GizmoDrag& d) {
  if (d.start.parent < 0) return std::nullopt;
  return d.parent_world;
}

Vec2d to_local_position(const GizmoDrag& d, Vec2d world_point) {
  const std::optional<Affine2d> inv = d.parent_world.inverse();
  return inv ? inv->apply(world_point) : Vec2d{d.start.x, d.start.y};
}

Vec2d unit(Vec2d v) {
  const double l = std::hypot(v.x, v.y);
  return l > 1e-12 ? v / l : Vec2d{1, 0};
}

// The frame the bone's local matrix is taken in (its parent's, reduced by its inherit mode).
Matrix2d frame_of(const GizmoDrag& d) {
  if (d.start.parent < 0) return Matrix2d::identity();
  return inherited_frame_of(d.parent_world.linear(), d.start.inherit);
}

Bone with_position(const GizmoDrag& d, Vec2d local) {
  Bone b = d.start;
  b.x = static_cast<float>(local.x);
  b.y = static_cast<float>(local.y);
  return b;
}

// The bone with world 2×2 `linear` at its start origin (its start pose when that cannot be had).
Bone with_linear(const GizmoDrag& d, const Matrix2d& linear) {
  const Affine2d w = Affine2d::from(linear, d.world.x, d.world.y);
  Expected<Bone> b = bone_for_world(d.start, parent_of(d), w);
  if (!b) return d.start;
  Bone out = std::move(b).value();
  out.x = d.start.x;  // the origin did not move: keep the stored values exactly
  out.y = d.start.y;
  return out;
}

}  // namespace

GizmoDrag begin_drag(const offline::SkeletonSource& s, int bone) {
  const std::vector<Affine2d> worlds = bone_worlds(s);
  GizmoDrag d;
  d.bone = bone;
  d.start = s.bones[static_cast<std::size_t>(bone)];
  d.world = worlds[static_cast<std::size_t>(bone)];
  if (d.start.parent >= 0) d.parent_world = worlds[static_cast<std::size_t>(d.start.parent)];
  return d;
}

double snap(double value, double step) { return step > 0 ? std::round(value / step) * step : value; }

double pointer_angle(Vec2d pivot, Vec2d point) { return std::atan2(point.y - pivot.y, point.x - pivot.x) * kRadToDegD; }

double angle_between(double from, double to) {
  double d = std::remainder(to - from, 360.0);
  if (d <= -180.0) d += 360.0;
  return d;
}

Bone translate(const GizmoDrag& d, Vec2d delta, GizmoSpace space, unsigned axes, double grid) {
  const bool ax = (axes & kAxisX) != 0, ay = (axes & kAxisY) != 0;
  const Vec2d origin = d.world.origin();
  switch (space) {
    case GizmoSpace::World: {
      Vec2d p = origin + Vec2d{ax ? delta.x : 0, ay ? delta.y : 0};
      if (ax) p.x = snap(p.x, grid);
      if (ay) p.y = snap(p.y, grid);
      return with_position(d, to_local_position(d, p));
    }
    case GizmoSpace::Parent: {
      // The parent's axes, as the stored x and y measure them.
      const Matrix2d p = d.start.parent < 0 ? Matrix2d::identity() : d.parent_world.linear();
      const double det = p.det();
      Vec2d dl = std::abs(det) > 1e-12 ? Vec2d{(p.d * delta.x - p.b * delta.y) / det, (p.a * delta.y - p.c * delta.x) / det}
                                       : Vec2d{0, 0};
      Vec2d local{d.start.x + (ax ? dl.x : 0), d.start.y + (ay ? dl.y : 0)};
      if (ax) local.x = snap(local.x, grid);
      if (ay) local.y = snap(local.y, grid);
      return with_position(d, local);
    }
    case GizmoSpace::Local: {
      // Distances along the bone's own unit axes.
      const Vec2d ex = unit(d.world.linear().x_axis()), ey = unit(d.world.linear().y_axis());
      const double det = ex.x * ey.y - ey.x * ex.y;
      double u = 0, v = 0;
      if (std::abs(det) > 1e-12) {
        u = (delta.x * ey.y - ey.x * delta.y) / det;
        v = (ex.x * delta.y - delta.x * ex.y) / det;
      }
      u = ax ? snap(u, grid) : 0;
      v = ay ? snap(v, grid) : 0;
      return with_position(d, to_local_position(d, origin + ex * u + ey * v));
    }
  }
  return d.start;
}

Bone rotate(const GizmoDrag& d, double degrees, GizmoSpace space, double step) {
  Bone b = d.start;
  const Matrix2d frame = frame_of(d);
  if (space == GizmoSpace::World) {
    // The wanted world direction of the X axis, expressed in the frame: exact under any parent.
    const Matrix2d w = d.world.linear();
    const double start_angle = std::atan2(w.c, w.a) * kRadToDegD;
    const double target = snap(start_angle + degrees, step) * kDegToRadD;
    const double det = frame.det();
    if (!(std::abs(det) > 1e-12)) return b;
    const Vec2d dir{std::cos(target), std::sin(target)};
    const Vec2d dl{(frame.d * dir.x - frame.b * dir.y) / det, (frame.a * dir.y - frame.c * dir.x) / det};
    const double s1 = d.start.scale_x < 0 ? -1.0 : 1.0;
    const double x_angle = std::atan2(s1 * dl.y, s1 * dl.x) * kRadToDegD;
    b.rotation = static_cast<float>(d.start.rotation + angle_between(d.start.rotation, x_angle - d.start.shear_x));
    return b;
  }
  const double sign = frame.det() < 0 ? -1.0 : 1.0;
  b.rotation = static_cast<float>(snap(d.start.rotation + sign * degrees, step));
  return b;
}

Bone scale(const GizmoDrag& d, Vec2d factor, GizmoSpace space, double step) {
  if (space == GizmoSpace::Local) {
    Bone b = d.start;
    b.scale_x = static_cast<float>(snap(d.start.scale_x * factor.x, step));
    b.scale_y = static_cast<float>(snap(d.start.scale_y * factor.y, step));
    return b;
  }
  const Matrix2d s{snap(factor.x, step), 0, 0, snap(factor.y, step)};
  if (space == GizmoSpace::World) return with_linear(d, s * d.world.linear());
  const Matrix2d frame = frame_of(d);
  return with_linear(d, frame * (s * local_matrix(d.start)));
}

double scale_factor(Vec2d pivot, Vec2d start_pointer, Vec2d pointer, Vec2d axis) {
  const Vec2d u = unit(axis);
  const double from = dot(start_pointer - pivot, u);
  if (std::abs(from) < 1e-9) return 1;
  return dot(pointer - pivot, u) / from;
}

}  // namespace mf::editor
