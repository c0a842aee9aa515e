#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mf/core/math/angle.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/world_transform.hpp"
#include "test_attachments.hpp"
#include "test_rig.hpp"

namespace mf::skel {
namespace {

// Places on paths whose parameterisation is exact (straight lines with evenly spread control points):
// a few float operations from exact.
constexpr float kExact = 1e-3f;
// Spacing along curves measured with 10 chord samples per segment: within half a pixel.
constexpr float kSpacingTolerance = 0.5f;
// Angles along curves, degrees.
constexpr float kAngleTolerance = 0.5f;

// Adds a Path attachment whose control points (x, y pairs, three per knot: in, point, out) are in
// `bone`'s space.
std::int32_t add_path(SkeletonData& d, int slot, const std::string& name, int bone, const std::vector<float>& points,
                      bool closed, bool constant_speed = true, const std::vector<float>& lengths = {}) {
  std::vector<test::TestVertex> v;
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) v.push_back({{bone, 1.0f, points[i], points[i + 1]}});
  const std::int32_t a = test::add_geometry(d, AttachmentKind::Path, slot, name, v, {}, {});
  AttachmentRecord& r = d.attachments[static_cast<std::size_t>(a)];
  r.closed = closed;
  r.constant_speed = constant_speed;
  r.lengths_start = static_cast<std::uint32_t>(d.path_lengths.size());
  r.lengths_count = static_cast<std::uint32_t>(lengths.size());
  d.path_lengths.insert(d.path_lengths.end(), lengths.begin(), lengths.end());
  return a;
}

// A straight open path from (0, 0) to (300, 0) whose control points are evenly spread, so the curve's
// parameter is proportional to distance: x = 300·t.
std::vector<float> straight_path() { return {-100, 0, 0, 0, 100, 0, 200, 0, 300, 0, 400, 0}; }

// A closed four-knot bezier circle of radius r about the origin, travelled clockwise on screen
// (increasing angle, Y down) starting at (r, 0).
std::vector<float> circle_path(float r) {
  const float k = 0.5522847498f * r;
  std::vector<float> p;
  for (int i = 0; i < 4; ++i) {
    const float angle = static_cast<float>(i) * kPi / 2;
    const float px = r * std::cos(angle), py = r * std::sin(angle);
    const float tx = -std::sin(angle), ty = std::cos(angle);
    p.insert(p.end(), {px - k * tx, py - k * ty, px, py, px + k * tx, py + k * ty});
  }
  return p;
}

class PathConstraint : public ::testing::Test {
 protected:
  // Root at the origin holding the path slot, and `count` constrained bones of `length` each: a chain
  // (each a child of the previous one, at its tip) or, with `chain` false, all children of the root
  // at (10·i, 40).
  void make_bones(int count, float length = 20, bool chain = true) {
    root_ = test::add_bone(data_, "root", -1);
    slot_ = test::add_slot(data_, "path", root_);
    for (int i = 0; i < count; ++i) {
      const bool first = i == 0 || !chain;
      const int bone = test::add_bone(data_, "b" + std::to_string(i), first ? root_ : bones_.back(),
                                      chain ? (first ? 0 : length) : 10.0f * static_cast<float>(i), chain ? 0 : 40);
      data_.bones.length[static_cast<std::size_t>(bone)] = length;
      bones_.push_back(bone);
    }
  }

  // The constraint on all bones, targeting the path slot, after the bones in the update order.
  PathData& add_constraint(SpacingMode spacing_mode, float spacing, PositionMode position_mode = PositionMode::Percent,
                           float position = 0, RotateMode rotate_mode = RotateMode::Tangent) {
    PathData c;
    c.name = "pc";
    c.bones = bones_;
    c.target_slot = slot_;
    c.spacing_mode = spacing_mode;
    c.spacing = spacing;
    c.position_mode = position_mode;
    c.position = position;
    c.rotate_mode = rotate_mode;
    data_.path.push_back(c);
    data_.update_order.push_back({UpdateKind::Path, 0});
    for (const int b : bones_) data_.update_order.push_back({UpdateKind::Bone, b});
    data_.constraint_steps.push_back({UpdateKind::Path, 0});
    return data_.path.back();
  }

  // Shows `points` as the slot's only path (through a skin and the setup attachment).
  void show_path(const std::vector<float>& points, bool closed, bool constant_speed = true,
                 const std::vector<float>& lengths = {}) {
    path_ = add_path(data_, slot_, "path", root_, points, closed, constant_speed, lengths);
    test::add_skin(data_, "default", {path_});
    test::set_setup_attachment(data_, slot_, "path");
  }

  std::unique_ptr<SkeletonPose> make_pose() { return std::make_unique<SkeletonPose>(data_); }

  // One walk of the update order: the bones, the constraint, then the constrained bones again from
  // their new local poses.
  static void solve(SkeletonPose& pose) { update_skeleton(pose, FrameContext{}); }
  std::unique_ptr<SkeletonPose> solved() {
    auto pose = make_pose();
    solve(*pose);
    return pose;
  }
  // The pose the bones have without the constraint.
  std::unique_ptr<SkeletonPose> unconstrained() {
    auto pose = make_pose();
    pose->constraint_active[0] = 0;
    solve(*pose);
    return pose;
  }

  float wx(const SkeletonPose& p, int i) const { return p.world_x[static_cast<std::size_t>(bones_[static_cast<std::size_t>(i)])]; }
  float wy(const SkeletonPose& p, int i) const { return p.world_y[static_cast<std::size_t>(bones_[static_cast<std::size_t>(i)])]; }
  float world_rotation(const SkeletonPose& p, int i) const {
    const auto b = static_cast<std::size_t>(bones_[static_cast<std::size_t>(i)]);
    return std::atan2(p.c[b], p.a[b]) * kRadToDeg;
  }
  float world_length(const SkeletonPose& p, int i) const {
    const auto b = static_cast<std::size_t>(bones_[static_cast<std::size_t>(i)]);
    return data_.bones.length[b] * std::hypot(p.a[b], p.c[b]);
  }

  // Bones on the straight path: at x = first + step·i, y = 0, pointing along +X.
  void expect_on_line(const SkeletonPose& p, float first, float step) const {
    for (int i = 0; i < static_cast<int>(bones_.size()); ++i) {
      EXPECT_NEAR(wx(p, i), first + step * static_cast<float>(i), kExact) << "bone " << i;
      EXPECT_NEAR(wy(p, i), 0, kExact) << "bone " << i;
      EXPECT_NEAR(world_rotation(p, i), 0, kExact) << "bone " << i;
    }
  }

  // Bones on the circle of radius r: each on the circle, consecutive ones `step` apart along it.
  void expect_on_circle(const SkeletonPose& p, float r, float first_angle, float step) const {
    float previous = first_angle;
    for (int i = 0; i < static_cast<int>(bones_.size()); ++i) {
      EXPECT_NEAR(std::hypot(wx(p, i), wy(p, i)), r, kSpacingTolerance) << "bone " << i;
      const float angle = std::atan2(wy(p, i), wx(p, i));
      const float expected = i == 0 ? 0 : step;
      EXPECT_NEAR(r * std::remainder(angle - previous, 2 * kPi), expected, kSpacingTolerance) << "bone " << i;
      previous = angle;
    }
  }

  SkeletonData data_;
  int root_ = -1, slot_ = -1;
  std::int32_t path_ = -1;
  std::vector<std::int32_t> bones_;
};

// ---- spacing modes on a straight path ----

TEST_F(PathConstraint, StraightLengthSpacing) {
  make_bones(4, 20);
  add_constraint(SpacingMode::Length, 10);
  show_path(straight_path(), false);
  expect_on_line(*solved(), 0, 30);  // bone length 20 + spacing 10
}

TEST_F(PathConstraint, StraightLengthSpacingUsesWorldLength) {
  make_bones(4, 20);
  data_.bones.scale_x[0] = 1.5f;  // the root: every bone is 30 long in world space
  add_constraint(SpacingMode::Length, 0);
  show_path(straight_path(), false);
  auto p = solved();
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(wx(*p, i), 30.0f * static_cast<float>(i), kExact);
}

TEST_F(PathConstraint, StraightFixedSpacing) {
  make_bones(4);
  add_constraint(SpacingMode::Fixed, 50);
  show_path(straight_path(), false);
  expect_on_line(*solved(), 0, 50);
}

TEST_F(PathConstraint, StraightPercentSpacing) {
  make_bones(4);
  add_constraint(SpacingMode::Percent, 0.25f);
  show_path(straight_path(), false);
  expect_on_line(*solved(), 0, 75);
}

TEST_F(PathConstraint, StraightProportionalSpacingFillsThePath) {
  make_bones(4, 20);
  add_constraint(SpacingMode::Proportional, 1);
  show_path(straight_path(), false);
  expect_on_line(*solved(), 0, 75);
}

TEST_F(PathConstraint, ProportionalSpacingFollowsBoneLengths) {
  make_bones(4, 20, false);
  const float lengths[] = {10, 20, 30, 40};
  for (int i = 0; i < 4; ++i) data_.bones.length[static_cast<std::size_t>(bones_[static_cast<std::size_t>(i)])] = lengths[i];
  add_constraint(SpacingMode::Proportional, 1);
  show_path(straight_path(), false);
  auto p = solved();
  // Shares of 300: 30, 60, 90, 120; the last bone ends at the path's end.
  const float expected[] = {0, 30, 90, 180};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(wx(*p, i), expected[i], kExact);
}

// ---- positions ----

TEST_F(PathConstraint, PercentAndFixedPositions) {
  make_bones(2);
  PathData& c = add_constraint(SpacingMode::Fixed, 50, PositionMode::Percent, 0.5f);
  show_path(straight_path(), false);
  expect_on_line(*solved(), 150, 50);
  c.position_mode = PositionMode::Fixed;
  c.position = 40;
  expect_on_line(*solved(), 40, 50);
}

// Open paths continue straight along their end tangents.
TEST_F(PathConstraint, OpenPathExtendsAlongTheEndTangents) {
  make_bones(2);
  PathData& c = add_constraint(SpacingMode::Fixed, 360, PositionMode::Fixed, -20);
  show_path(straight_path(), false);
  expect_on_line(*solved(), -20, 360);  // −20 and 340

  // A bent path: from (0, 0) leaving along +X to (100, 100) arriving along +Y (out-handle (50, 0),
  // in-handle (100, 50)). Stored setup length 150 (constant speed off), so the ends are exact.
  data_.attachments[static_cast<std::size_t>(path_)].constant_speed = false;
  data_.path_lengths.push_back(150);
  data_.attachments[static_cast<std::size_t>(path_)].lengths_start = static_cast<std::uint32_t>(data_.path_lengths.size() - 1);
  data_.attachments[static_cast<std::size_t>(path_)].lengths_count = 1;
  const float bent[] = {-50, 0, 0, 0, 50, 0, 100, 50, 100, 100, 100, 150};
  for (int i = 0; i < 6; ++i) {
    Influence& in = data_.influences[data_.vertices[data_.attachments[static_cast<std::size_t>(path_)].vertex_start + static_cast<std::uint32_t>(i)].first];
    in.x = bent[2 * i];
    in.y = bent[2 * i + 1];
  }
  c.position = -30;
  c.spacing = 210;  // 150 + 30 past the end
  auto p = solved();
  EXPECT_NEAR(wx(*p, 0), -30, kExact);
  EXPECT_NEAR(wy(*p, 0), 0, kExact);
  EXPECT_NEAR(world_rotation(*p, 0), 0, kExact);
  EXPECT_NEAR(wx(*p, 1), 100, kExact);
  EXPECT_NEAR(wy(*p, 1), 130, kExact);
  EXPECT_NEAR(world_rotation(*p, 1), 90, kExact);
}

// ---- the circle: spacing from the 10-sample arc-length table ----

TEST_F(PathConstraint, CircleLengthSpacing) {
  make_bones(8, 30);
  add_constraint(SpacingMode::Length, 20);
  show_path(circle_path(100), true);
  auto p = solved();
  expect_on_circle(*p, 100, 0, 50);
  EXPECT_NEAR(wx(*p, 0), 100, kExact);
  EXPECT_NEAR(wy(*p, 0), 0, kExact);
}

TEST_F(PathConstraint, CircleFixedSpacing) {
  make_bones(8);
  add_constraint(SpacingMode::Fixed, 70);
  show_path(circle_path(100), true);
  expect_on_circle(*solved(), 100, 0, 70);
}

TEST_F(PathConstraint, CirclePercentSpacing) {
  make_bones(8);
  add_constraint(SpacingMode::Percent, 0.125f);
  show_path(circle_path(100), true);
  expect_on_circle(*solved(), 100, 0, 2 * kPi * 100 / 8);
}

TEST_F(PathConstraint, CircleProportionalSpacing) {
  make_bones(8, 5);
  add_constraint(SpacingMode::Proportional, 1);
  show_path(circle_path(100), true);
  expect_on_circle(*solved(), 100, 0, 2 * kPi * 100 / 8);
}

TEST_F(PathConstraint, ClosedPathWrapsPositions) {
  make_bones(2);
  add_constraint(SpacingMode::Percent, 0.5f, PositionMode::Percent, 1.25f);
  show_path(circle_path(100), true);
  auto p = solved();
  // 1.25 of the way round is a quarter: (0, 100); the next bone half a turn on: (0, −100).
  EXPECT_NEAR(wx(*p, 0), 0, kExact);
  EXPECT_NEAR(wy(*p, 0), 100, kExact);
  EXPECT_NEAR(wx(*p, 1), 0, kExact);
  EXPECT_NEAR(wy(*p, 1), -100, kExact);
}

TEST_F(PathConstraint, TangentRotationAlongTheCircle) {
  make_bones(12, 10);
  PathData& c = add_constraint(SpacingMode::Fixed, 45, PositionMode::Fixed, 10);
  show_path(circle_path(100), true);
  auto p = solved();
  for (int i = 0; i < 12; ++i) {
    // Travelling clockwise on screen, the tangent is 90° past the radius.
    const float tangent = std::atan2(wy(*p, i), wx(*p, i)) * kRadToDeg + 90;
    EXPECT_NEAR(std::remainder(world_rotation(*p, i) - tangent, 360.0f), 0, kAngleTolerance) << "bone " << i;
  }
  c.offset_rotation = 30;
  p = solved();
  for (int i = 0; i < 12; ++i) {
    const float tangent = std::atan2(wy(*p, i), wx(*p, i)) * kRadToDeg + 90;
    EXPECT_NEAR(std::remainder(world_rotation(*p, i) - tangent - 30, 360.0f), 0, kAngleTolerance) << "bone " << i;
  }
}

// ---- rotate modes ----

TEST_F(PathConstraint, ChainPointsEachBoneAtTheNext) {
  make_bones(6, 20);
  add_constraint(SpacingMode::Fixed, 60, PositionMode::Percent, 0, RotateMode::Chain);
  show_path(circle_path(100), true);
  auto p = solved();
  expect_on_circle(*p, 100, 0, 60);
  for (int i = 0; i + 1 < 6; ++i) {
    const float toward = std::atan2(wy(*p, i + 1) - wy(*p, i), wx(*p, i + 1) - wx(*p, i)) * kRadToDeg;
    EXPECT_NEAR(std::remainder(world_rotation(*p, i) - toward, 360.0f), 0, 1e-2f) << "bone " << i;
    EXPECT_NEAR(world_length(*p, i), 20, kExact) << "chain keeps the bone's length";
  }
  // The last bone points at the place one spacing further, 60 px = 0.6 rad round the circle: the chord
  // there leaves 0.3 rad (17.19°) past the tangent.
  const float angle = std::atan2(wy(*p, 5), wx(*p, 5));
  EXPECT_NEAR(std::remainder(world_rotation(*p, 5) - (angle * kRadToDeg + 90 + 0.3f * kRadToDeg), 360.0f), 0,
              kAngleTolerance);
}

TEST_F(PathConstraint, ChainScaleStretchesEachBoneToTheNext) {
  make_bones(6, 20);
  add_constraint(SpacingMode::Fixed, 60, PositionMode::Percent, 0, RotateMode::ChainScale);
  show_path(circle_path(100), true);
  auto p = solved();
  expect_on_circle(*p, 100, 0, 60);
  for (int i = 0; i + 1 < 6; ++i) {
    const float dx = wx(*p, i + 1) - wx(*p, i), dy = wy(*p, i + 1) - wy(*p, i);
    EXPECT_NEAR(std::remainder(world_rotation(*p, i) - std::atan2(dy, dx) * kRadToDeg, 360.0f), 0, 1e-2f) << "bone " << i;
    EXPECT_NEAR(world_length(*p, i), std::hypot(dx, dy), 1e-2f) << "bone " << i;
  }
  // The last one reaches the place a 60 px arc further: a chord of 2·100·sin(0.3).
  EXPECT_NEAR(world_length(*p, 5), 200 * std::sin(0.3f), kSpacingTolerance);
}

TEST_F(PathConstraint, ChainScaleOnAStraightPath) {
  make_bones(3, 20);
  add_constraint(SpacingMode::Fixed, 50, PositionMode::Fixed, 0, RotateMode::ChainScale);
  show_path(straight_path(), false);
  auto p = solved();
  expect_on_line(*p, 0, 50);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(world_length(*p, i), 50, kExact);
  // The first bone carries the stretch; its children inherit it and keep their own scale 1.
  EXPECT_NEAR(p->scale_x[static_cast<std::size_t>(bones_[0])], 2.5f, kExact);
  EXPECT_NEAR(p->scale_x[static_cast<std::size_t>(bones_[1])], 1, kExact);
}

// ---- the order of the constraint's bones ----

TEST_F(PathConstraint, BonesListedChildFirstEachReachTheirPlace) {
  // A chain b0 → b1 → b2 listed b2, b1, b0: b2 takes the first place, b0 the last. Moving b0 last must
  // not carry its already placed descendants along.
  make_bones(3, 20);
  std::vector<std::int32_t> chain = bones_;
  bones_ = {chain[2], chain[1], chain[0]};
  add_constraint(SpacingMode::Fixed, 50, PositionMode::Fixed, 25, RotateMode::ChainScale);
  show_path(straight_path(), false);
  auto p = solved();
  expect_on_line(*p, 25, 50);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(world_length(*p, i), 50, kExact) << "bone " << i;
}

TEST_F(PathConstraint, BonesListedOutOfOrderOnACurve) {
  // The chain b0 → … → b4 listed b0, b3, b1, b4, b2 on a circle: each bone, whatever its place in the
  // hierarchy, sits on the circle at its place in the list and points at the next place.
  make_bones(5, 20);
  std::vector<std::int32_t> chain = bones_;
  bones_ = {chain[0], chain[3], chain[1], chain[4], chain[2]};
  add_constraint(SpacingMode::Fixed, 60, PositionMode::Percent, 0, RotateMode::Chain);
  show_path(circle_path(100), true);
  auto p = solved();
  expect_on_circle(*p, 100, 0, 60);
  for (int i = 0; i + 1 < 5; ++i) {
    const float toward = std::atan2(wy(*p, i + 1) - wy(*p, i), wx(*p, i + 1) - wx(*p, i)) * kRadToDeg;
    EXPECT_NEAR(std::remainder(world_rotation(*p, i) - toward, 360.0f), 0, 1e-2f) << "bone " << i;
  }
}

TEST_F(PathConstraint, ChildOfAStretchedBoneStartsFromItsOwnWorldTransform) {
  // ChainScale stretches each bone's X axis only. A child whose parent the constraint stretched starts
  // from its world transform before the constraint, not one recomputed under the stretched parent, so
  // its Y axis stays a unit vector perpendicular to its X axis (no shear, scale Y 1). Each child is
  // turned 30° from its parent, so a frame recomputed under the stretched parent would be sheared.
  make_bones(5, 20);
  for (std::size_t i = 1; i < bones_.size(); ++i) data_.bones.rotation[static_cast<std::size_t>(bones_[i])] = 30;
  add_constraint(SpacingMode::Fixed, 40, PositionMode::Percent, 0, RotateMode::ChainScale);
  show_path(circle_path(100), true);
  auto p = solved();
  for (int i = 0; i < 5; ++i) {
    const auto b = static_cast<std::size_t>(bones_[static_cast<std::size_t>(i)]);
    EXPECT_NEAR(std::hypot(p->b[b], p->d[b]), 1, 1e-4f) << "bone " << i;
    const float cosine = (p->a[b] * p->b[b] + p->c[b] * p->d[b]) / std::hypot(p->a[b], p->c[b]);
    EXPECT_NEAR(cosine, 0, 1e-4f) << "bone " << i;
    EXPECT_NEAR(world_length(*p, i) / 20, 2 * 100 * std::sin(0.2f) / 20, 1e-2f) << "bone " << i;
  }
}

TEST_F(PathConstraint, InactiveBoneTakesItsPlaceAsItsWorldTransform) {
  // Three children of the root, the middle one skin-required and listed by no skin: inactive, yet
  // placed like the others; its local pose stays as it was.
  make_bones(3, 20, false);
  data_.bones.skin_required[static_cast<std::size_t>(bones_[1])] = 1;
  add_constraint(SpacingMode::Fixed, 50, PositionMode::Fixed, 0, RotateMode::Tangent);
  show_path(straight_path(), false);
  auto p = make_pose();
  ASSERT_EQ(p->active[static_cast<std::size_t>(bones_[1])], 0);
  solve(*p);
  expect_on_line(*p, 0, 50);
  EXPECT_NEAR(p->x[static_cast<std::size_t>(bones_[1])], 10, kExact);
  EXPECT_NEAR(p->y[static_cast<std::size_t>(bones_[1])], 40, kExact);
}

// ---- mixes ----

TEST_F(PathConstraint, MixZeroLeavesThePoseUnchanged) {
  make_bones(4, 20, false);
  PathData& c = add_constraint(SpacingMode::Fixed, 50);
  c.mix_rotate = c.mix_x = c.mix_y = 0;
  show_path(circle_path(100), true);
  auto reference = unconstrained();
  auto p = solved();
  for (std::size_t i = 0; i < data_.bones.size(); ++i) {
    EXPECT_EQ(p->x[i], reference->x[i]);
    EXPECT_EQ(p->y[i], reference->y[i]);
    EXPECT_EQ(p->rotation[i], reference->rotation[i]);
    EXPECT_EQ(p->scale_x[i], reference->scale_x[i]);
    EXPECT_EQ(p->world_x[i], reference->world_x[i]);
    EXPECT_EQ(p->world_y[i], reference->world_y[i]);
    EXPECT_EQ(p->a[i], reference->a[i]);
  }
}

TEST_F(PathConstraint, HalfMixesGoHalfway) {
  // Bones beside each other at (10·i, 40), rotation 0; a vertical path x = 0 from (0, 0) to (0, 300).
  make_bones(3, 20, false);
  PathData& c = add_constraint(SpacingMode::Fixed, 100);
  c.mix_rotate = c.mix_x = c.mix_y = 0.5f;
  show_path({0, -100, 0, 0, 0, 100, 0, 200, 0, 300, 0, 400}, false);
  auto p = solved();
  for (int i = 0; i < 3; ++i) {
    const float fi = static_cast<float>(i);
    EXPECT_NEAR(wx(*p, i), 10 * fi / 2, kExact);                // from 10·i towards 0
    EXPECT_NEAR(wy(*p, i), (40 + 100 * fi) / 2, kExact);         // from 40 towards 100·i
    EXPECT_NEAR(world_rotation(*p, i), 45, kExact);              // from 0° towards the tangent, 90°
  }
  // Translation only.
  c.mix_rotate = 0;
  c.mix_x = c.mix_y = 1;
  p = solved();
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(wx(*p, i), 0, kExact);
    EXPECT_NEAR(wy(*p, i), 100 * static_cast<float>(i), kExact);
    EXPECT_EQ(p->rotation[static_cast<std::size_t>(bones_[static_cast<std::size_t>(i)])], 0);
  }
}

// The clip sampler writes position, spacing and mixes into pose.path; the solver reads them there.
TEST_F(PathConstraint, ParametersAnimatedThroughThePose) {
  make_bones(2);
  add_constraint(SpacingMode::Fixed, 10);
  show_path(straight_path(), false);
  auto clip = std::make_shared<ClipData>();
  clip->name = "slide";
  clip->length = 1;
  // position 0 → 1 and spacing 0 → 100 over the clip; mixes not keyed.
  test::add_timeline(*clip, TimelineKind::Path, 0, 5, {0, 1}, {0, 0, 1, 1, 1, 1, 100, 1, 1, 1}, 5, 0b00011);
  const int id = test::add_clip(data_, clip);
  SkeletonPose pose(data_);
  ClipSampler sampler(data_);
  EventBuffer events;
  anim::ClipSample s;
  s.clip = id;
  s.time = s.previous_time = 0.5f;
  sampler.apply(pose, {&s, 1}, events);
  EXPECT_NEAR(pose.path[0].position, 0.5f, kExact);
  solve(pose);
  EXPECT_NEAR(wx(pose, 0), 150, kExact);  // 0.5 of 300
  EXPECT_NEAR(wx(pose, 1), 200, kExact);  // spacing 50
  pose.path[0].mix_x = 0;                 // written from code
  solve(pose);
  EXPECT_NEAR(wx(pose, 0), 150, kExact);  // already there
  pose.set_to_setup();
  pose.path[0].mix_x = 0;
  solve(pose);
  EXPECT_NEAR(wx(pose, 0), 0, kExact);  // the setup chain stays at x = 0, 20
  EXPECT_NEAR(wx(pose, 1), 20, kExact);
}

// ---- weighted paths ----

// Control points weighted to two bones A (at the origin) and B (at (300, 0)): the first knot to A, the
// last to B, the two inner handles half to each. Moving B bends the path and the bones follow.
TEST_F(PathConstraint, WeightedPathFollowsItsBones) {
  make_bones(2);
  const int a = test::add_bone(data_, "A", root_);
  const int b = test::add_bone(data_, "B", root_, 300, 0);
  PathData& c = add_constraint(SpacingMode::Percent, 0.5f);
  c.bones = bones_;
  const std::vector<test::TestVertex> v = {
      {{a, 1, -100, 0}},
      {{a, 1, 0, 0}},
      {{a, 0.5f, 100, 0}, {b, 0.5f, -200, 0}},
      {{a, 0.5f, 200, 0}, {b, 0.5f, -100, 0}},
      {{b, 1, 0, 0}},
      {{b, 1, 100, 0}},
  };
  path_ = test::add_geometry(data_, AttachmentKind::Path, slot_, "path", v, {}, {});
  test::add_skin(data_, "default", {path_});
  test::set_setup_attachment(data_, slot_, "path");

  auto p = solved();
  EXPECT_NEAR(wx(*p, 1), 150, kExact);
  EXPECT_NEAR(wy(*p, 1), 0, kExact);

  // B moves down 120: control points (0, 0), (100, 60), (200, 60), (300, 120). The curve is symmetric
  // about (150, 60), so half its length is at t = 0.5: (150, 60), direction (100, 30).
  p->y[static_cast<std::size_t>(b)] = 120;
  solve(*p);
  EXPECT_NEAR(wx(*p, 0), 0, kExact);
  EXPECT_NEAR(wy(*p, 0), 0, kExact);
  EXPECT_NEAR(world_rotation(*p, 0), std::atan2(60.0f, 100.0f) * kRadToDeg, kExact);
  EXPECT_NEAR(wx(*p, 1), 150, kExact);
  EXPECT_NEAR(wy(*p, 1), 60, kExact);
  EXPECT_NEAR(world_rotation(*p, 1), std::atan2(30.0f, 100.0f) * kRadToDeg, kExact);
}

// ---- constant speed ----

// A straight path from (0, 0) to (300, 0) whose handles bunch at the start (x control values 0, 10,
// 20, 300): x(t) = 30t(1 − t)² + 60t²(1 − t) + 300t³, so the parameter is far from proportional to
// distance.
TEST_F(PathConstraint, ConstantSpeedPlacesByArcLength) {
  make_bones(4);
  add_constraint(SpacingMode::Fixed, 40, PositionMode::Percent, 0.1f);
  show_path({-10, 0, 0, 0, 10, 0, 20, 0, 300, 0, 310, 0}, false, true, {300});
  auto p = solved();
  // The curve x(t) sampled at t = 0, 0.1, … 1: a distance finds its sample in the cumulative chord
  // lengths and maps linearly to t within it. The chords of a straight line are exact, so the table
  // is x(t) itself.
  auto x = [](float t) { return 30 * t * (1 - t) * (1 - t) + 60 * t * t * (1 - t) + 300 * t * t * t; };
  for (int i = 0; i < 4; ++i) {
    const float distance = 30 + 40 * static_cast<float>(i);
    int j = 1;
    while (x(static_cast<float>(j) / 10) < distance) ++j;
    const float before = x(static_cast<float>(j - 1) / 10), after = x(static_cast<float>(j) / 10);
    const float t = (static_cast<float>(j - 1) + (distance - before) / (after - before)) / 10;
    EXPECT_NEAR(wx(*p, i), x(t), kExact) << "bone " << i;
    // Linear in t within a sample is not linear in distance: the place strays from the exact arc
    // length where the curve's speed changes within the sample, by under 2 px with these handles.
    EXPECT_NEAR(wx(*p, i), distance, 2.0f) << "bone " << i;
  }
}

TEST_F(PathConstraint, WithoutConstantSpeedDistanceMapsToTheParameter) {
  make_bones(4);
  add_constraint(SpacingMode::Fixed, 40, PositionMode::Percent, 0.1f);
  show_path({-10, 0, 0, 0, 10, 0, 20, 0, 300, 0, 310, 0}, false, false, {300});
  auto p = solved();
  // Distance d of the stored length 300 is the parameter t = d / 300.
  auto x = [](float t) { return 30 * t * (1 - t) * (1 - t) + 60 * t * t * (1 - t) + 300 * t * t * t; };
  for (int i = 0; i < 4; ++i) {
    const float t = (30 + 40 * static_cast<float>(i)) / 300;
    EXPECT_NEAR(wx(*p, i), x(t), kExact) << "bone " << i;
  }
  EXPECT_LT(wx(*p, 3), 60);  // far behind the constant-speed place, 150
}

// ---- target slot and scratch ----

TEST_F(PathConstraint, NothingHappensWithoutAPathAttachment) {
  make_bones(2, 20, false);
  add_constraint(SpacingMode::Fixed, 50);
  show_path(straight_path(), false);
  const std::int32_t box = test::add_box_region(data_, slot_, "box", root_, 0, 0, 10, 10);
  auto reference = unconstrained();
  auto p = make_pose();
  p->attachment[static_cast<std::size_t>(slot_)] = -1;
  solve(*p);
  p->attachment[static_cast<std::size_t>(slot_)] = box;
  solve(*p);
  for (std::size_t i = 0; i < data_.bones.size(); ++i) {
    EXPECT_EQ(p->world_x[i], reference->world_x[i]);
    EXPECT_EQ(p->world_y[i], reference->world_y[i]);
  }
}

// The scratch is sized for the largest path any skin can show in the slot; switching to it works.
TEST_F(PathConstraint, ScratchFitsTheLargestPathOfAnySkin) {
  make_bones(3);
  add_constraint(SpacingMode::Fixed, 50);
  const std::int32_t small = add_path(data_, slot_, "line", root_, straight_path(), false);
  const std::int32_t large = add_path(data_, slot_, "circle", root_, circle_path(100), true);
  test::add_skin(data_, "plain", {small});
  test::add_skin(data_, "round", {large});
  test::set_setup_attachment(data_, slot_, "line");
  auto p = make_pose();
  EXPECT_EQ(p->path_scratch.point_capacity[0], 12u);
  // Control points, 10 samples per segment, 3 floats per place (bones + 1), a world transform per bone.
  EXPECT_EQ(p->path_scratch.floats.size(), 2u * 12 + 10u * 4 + 3u * 4 + 6u * 3);
  solve(*p);
  expect_on_line(*p, 0, 50);
  p->attachment[static_cast<std::size_t>(slot_)] = large;
  solve(*p);
  expect_on_circle(*p, 100, 0, 50);
}

TEST_F(PathConstraint, ScratchRangesPerConstraint) {
  make_bones(2);
  add_constraint(SpacingMode::Fixed, 50);
  show_path(straight_path(), false);
  PathData second = data_.path[0];
  second.bones = {bones_[0]};
  data_.path.push_back(second);
  auto p = make_pose();
  ASSERT_EQ(p->path_scratch.start.size(), 2u);
  EXPECT_EQ(p->path_scratch.start[0], 0u);
  EXPECT_EQ(p->path_scratch.start[1], 2u * 6 + 10u * 2 + 3u * 3 + 6u * 2);
  EXPECT_EQ(p->path_scratch.floats.size(), p->path_scratch.start[1] + 2u * 6 + 10u * 2 + 3u * 2 + 6u * 1);
}

}  // namespace
}  // namespace mf::skel
