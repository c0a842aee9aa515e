#pragma once
// The maths of the translate, rotate and scale gizmos, headless. A drag is computed from the bone's
// state when it began (GizmoDrag) and the pointer's total movement since, never step by step, so
// a long drag does not drift; each result is the bone's new value, which the application sends as a
// SetBone command carrying the drag's gesture id (one undo step per drag).
//
// Spaces: World moves along the skeleton's axes; Parent along the parent's axes (the frame the
// bone's x, y, rotation and scale are stored in); Local along the bone's own axes. Snapping happens
// in the gizmo's space: positions to multiples of `grid` (world coordinates, the stored x and y, or
// the distance moved along the bone's axes), angles to multiples of `step` degrees (the world angle,
// or the stored rotation), scales to multiples of `step`.

#include "mf/core/math/affine2.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

enum class GizmoSpace { Local, Parent, World };

// The axes a handle moves along, in the gizmo's space.
enum GizmoAxes : unsigned { kAxisX = 1u, kAxisY = 2u, kAxesXY = 3u };

// The bone as it was when the drag began.
struct GizmoDrag {
  int bone = -1;
  offline::Bone start;       // its values
  Affine2d world;            // its world transform (setup pose)
  Affine2d parent_world;     // its parent's, or the identity for a root
};

GizmoDrag begin_drag(const offline::SkeletonSource& s, int bone);

// `value` rounded to the nearest multiple of `step`; `value` itself when step <= 0.
double snap(double value, double step);
// The direction from `pivot` to `point` in degrees, clockwise on screen (Y down).
double pointer_angle(Vec2d pivot, Vec2d point);
// `to - from` brought into (−180, 180].
double angle_between(double from, double to);

// The bone moved by the pointer's movement `delta` (skeleton space), kept to `axes` of `space`, with
// the result snapped to `grid` (<= 0: no snapping). Only x and y change.
offline::Bone translate(const GizmoDrag& drag, Vec2d delta, GizmoSpace space, unsigned axes = kAxesXY,
                        double grid = 0);

// The bone turned by `degrees` (clockwise on screen) about its origin. Local and Parent snap the
// stored rotation to `step`; World snaps the world direction of the bone's X axis. A parent that
// mirrors its children turns the stored rotation the other way, so the bone turns as the pointer does.
offline::Bone rotate(const GizmoDrag& drag, double degrees, GizmoSpace space, double step = 0);

// The bone scaled by `factor` along the gizmo's axes. Local multiplies the stored scale (then snapped
// to `step`); Parent scales along the parent's axes, which for a bone turned against its parent
// also changes its rotation and shear (the factors are snapped to `step`); World is Parent's rule
// with the skeleton's axes.
offline::Bone scale(const GizmoDrag& drag, Vec2d factor, GizmoSpace space, double step = 0);

// The scale factor a pointer gives along direction `axis` (any length) from `pivot`: the ratio of
// the pointer's distance along the axis now to when the drag began. 1 when the drag began on the pivot.
double scale_factor(Vec2d pivot, Vec2d start_pointer, Vec2d pointer, Vec2d axis);

}  // namespace mf::editor
