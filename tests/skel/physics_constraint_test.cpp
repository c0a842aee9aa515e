#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "mf/core/math/angle.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/world_transform.hpp"
#include "test_rig.hpp"

namespace mf::skel {
namespace {

constexpr float kStep = 1.0f / 60.0f;
// Settled: what "back at rest" means for the chain (pixels and degrees).
constexpr float kRestPixels = 0.01f;
constexpr float kRestDegrees = 0.01f;
// Equilibria reached after many seconds of damped motion: float rounding of a few hundred steps.
constexpr float kEquilibrium = 1e-3f;
// A handful of float operations from exact.
constexpr float kTolerance = 1e-4f;

// Damping 0.9 per step (a constraint's default, 1, never settles), strength 100, mass 1.
PhysicsData physics_on(int bone) {
  PhysicsData c;
  c.name = "physics";
  c.bone = bone;
  c.damping = 0.9f;
  return c;
}

float tip_x(const SkeletonPose& p, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  return p.world_x[i] + p.a[i] * p.data().bones.length[i];
}
float tip_y(const SkeletonPose& p, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  return p.world_y[i] + p.c[i] * p.data().bones.length[i];
}

// At rest: no offsets, no velocities, no steps since the reset (the reset update's time is kept).
// The rest angle (radians) of a bone of `length` pushed across by a force that would move a free
// point `sag` pixels against the spring: the direction spring balances the force's part across the
// turned bone, θ = (sag / length)·cos θ.
float rest_angle(float sag, float length) {
  float theta = 0;
  for (int i = 0; i < 50; ++i) theta = sag / length * std::cos(theta);
  return theta;
}

bool at_rest(const PhysicsState& s) {
  return s.offset_x == 0 && s.offset_y == 0 && s.velocity_x == 0 && s.velocity_y == 0 && s.angle == 0 &&
         s.spin == 0 && s.stretch == 0 && s.stretch_rate == 0 && s.steps == 0;
}

void expect_same_state(const PhysicsState& a, const PhysicsState& b) {
  EXPECT_EQ(a.reset, b.reset);
  EXPECT_EQ(a.reset_seen, b.reset_seen);
  EXPECT_EQ(a.steps, b.steps);
  const float PhysicsState::*fields[] = {
      &PhysicsState::remaining,  &PhysicsState::skeleton_x, &PhysicsState::skeleton_y,
      &PhysicsState::origin_x,   &PhysicsState::origin_y,   &PhysicsState::tip_x,      &PhysicsState::tip_y,
      &PhysicsState::offset_x,   &PhysicsState::offset_y,   &PhysicsState::velocity_x, &PhysicsState::velocity_y,
      &PhysicsState::angle,      &PhysicsState::spin,       &PhysicsState::stretch,    &PhysicsState::stretch_rate};
  for (const auto field : fields)
    EXPECT_EQ(std::bit_cast<std::uint32_t>(a.*field), std::bit_cast<std::uint32_t>(b.*field));
}

// Bit-identical local and world transforms.
void expect_same_bones(const SkeletonPose& a, const SkeletonPose& b) {
  const std::vector<float> SkeletonPose::*arrays[] = {
      &SkeletonPose::x, &SkeletonPose::y, &SkeletonPose::rotation, &SkeletonPose::scale_x, &SkeletonPose::shear_x,
      &SkeletonPose::a, &SkeletonPose::b, &SkeletonPose::c,        &SkeletonPose::d,       &SkeletonPose::world_x,
      &SkeletonPose::world_y};
  for (const auto array : arrays) {
    const std::vector<float>& va = a.*array;
    const std::vector<float>& vb = b.*array;
    ASSERT_EQ(va.size(), vb.size());
    for (std::size_t i = 0; i < va.size(); ++i)
      EXPECT_EQ(std::bit_cast<std::uint32_t>(va[i]), std::bit_cast<std::uint32_t>(vb[i])) << "bone " << i;
  }
}

class PhysicsConstraint : public ::testing::Test {
 protected:
  // Adds a physics constraint; the caller lays out the update order.
  int add(const PhysicsData& c) {
    data_.physics.push_back(c);
    const auto index = static_cast<std::int32_t>(data_.physics.size() - 1);
    data_.constraint_steps.push_back({UpdateKind::Physics, index});
    return index;
  }
  void set_length(int bone, float length) { data_.bones.length[static_cast<std::size_t>(bone)] = length; }

  // Walks the update order: bone steps compute world transforms, physics steps solve.
  static void walk(SkeletonPose& pose, const FrameContext& context) {
    for (const UpdateStep& step : pose.data().update_order) {
      if (step.kind == UpdateKind::Bone) update_world_transform(pose, step.index);
      else if (step.kind == UpdateKind::Physics) solve_physics(pose, step.index, context);
    }
  }
  // One frame: the animated pose (the setup pose with the root bone at root_x), then the update order.
  static void frame(SkeletonPose& pose, const FrameContext& context, float root_x = 0) {
    pose.set_to_setup();
    pose.x[0] = root_x;
    walk(pose, context);
  }
  static FrameContext context(float delta, float skeleton_x = 0, PhysicsMode mode = PhysicsMode::Update) {
    FrameContext c;
    c.delta = delta;
    c.skeleton_x = skeleton_x;
    c.physics = mode;
    return c;
  }

  // A root bone and one bone under it (index 1), at the given setup rotation, 100 px long, with a
  // physics constraint `c` on it: update order root, bone, constraint.
  int single_bone(PhysicsData c, float rotation = 0, float parent_scale_x = 1) {
    test::add_bone(data_, "root", -1, 0, 0, 0, parent_scale_x);
    const int bone = test::add_bone(data_, "bone", 0, 0, 0, rotation);
    set_length(bone, 100);
    c.bone = bone;
    add(c);
    data_.update_order.push_back({UpdateKind::Physics, 0});
    return bone;
  }

  // Runs `seconds` of 60 Hz frames with everything still.
  static void settle(SkeletonPose& pose, const FrameContext& context, float seconds) {
    const int frames = static_cast<int>(std::lround(seconds * 60));
    for (int f = 0; f < frames; ++f) frame(pose, context);
  }

  // The chain: root at the origin, three 40 px bones hanging straight down (b1 rotated 90°, b2 and b3
  // continuing it), each with a rotate physics constraint. The update order recomputes each bone after
  // its parent's constraint has moved it.
  void chain() {
    test::add_bone(data_, "root", -1);
    bones_[0] = test::add_bone(data_, "b1", 0, 0, 0, 90);
    bones_[1] = test::add_bone(data_, "b2", bones_[0], 40, 0);
    bones_[2] = test::add_bone(data_, "b3", bones_[1], 40, 0);
    data_.update_order.clear();
    data_.update_order.push_back({UpdateKind::Bone, 0});
    for (int k = 0; k < 3; ++k) {
      set_length(bones_[k], 40);
      PhysicsData c = physics_on(bones_[k]);
      c.rotate = 1;
      add(c);
      data_.update_order.push_back({UpdateKind::Bone, bones_[k]});
      data_.update_order.push_back({UpdateKind::Physics, k});
    }
  }

  SkeletonData data_;
  int bones_[3] = {};  // the chain's bones
};

TEST_F(PhysicsConstraint, AChainSwingsWhenItsRootMovesAndSettlesBackToRest) {
  chain();
  SkeletonPose pose(data_), animated(data_);
  const FrameContext update = context(kStep), none = context(kStep, 0, PhysicsMode::None);
  // The root slides 200 px to the right in half a second (smoothstep), then holds still.
  float largest_lag = 0;
  float end_of_motion_dx = 0;
  for (int f = 0; f <= 30; ++f) {
    const float t = static_cast<float>(f) / 30;
    const float root_x = 200 * t * t * (3 - 2 * t);
    frame(pose, update, root_x);
    frame(animated, none, root_x);
    const float dx = tip_x(pose, bones_[2]) - tip_x(animated, bones_[2]);
    largest_lag = std::max(largest_lag, -dx);
    end_of_motion_dx = dx;
  }
  // Moving right, the tail trails to the left, by a visible amount.
  EXPECT_GT(largest_lag, 20.0f);
  EXPECT_LT(end_of_motion_dx, 0.0f);

  // Holding still, the tail swings past its rest position (a pendulum), then the damping settles it.
  bool overshot = false;
  for (int f = 0; f < 60; ++f) {
    frame(pose, update, 200);
    overshot = overshot || tip_x(pose, bones_[2]) > tip_x(animated, bones_[2]) + 1;
  }
  EXPECT_TRUE(overshot);
  for (int f = 0; f < 60 * 6; ++f) frame(pose, update, 200);  // 7 s after the root stopped
  frame(animated, none, 200);
  for (const int bone : bones_) {
    const auto i = static_cast<std::size_t>(bone);
    EXPECT_NEAR(tip_x(pose, bone), tip_x(animated, bone), kRestPixels) << "bone " << bone;
    EXPECT_NEAR(tip_y(pose, bone), tip_y(animated, bone), kRestPixels) << "bone " << bone;
    EXPECT_NEAR(pose.rotation[i], animated.rotation[i], kRestDegrees) << "bone " << bone;
  }
  for (const PhysicsState& s : pose.physics_state) {
    EXPECT_LT(std::abs(s.angle) * 40, kRestPixels);  // the tip's distance from rest, 40 px bones
    EXPECT_LT(std::abs(s.spin) * 40, kRestPixels);
  }
}

TEST_F(PhysicsConstraint, TwoPosesFedTheSameUnevenFramesAreBitIdentical) {
  chain();
  // Every channel, with gravity and wind, the root and the skeleton moving, uneven deltas (some over
  // the step cap).
  for (PhysicsData& c : data_.physics) {
    c.x = 0.5f;
    c.y = 0.8f;
    c.scale_x = 0.3f;
    c.shear_x = 0.2f;
    c.gravity = 1.5f;
    c.wind = -0.4f;
  }
  SkeletonPose a(data_), b(data_), still(data_);
  std::uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / static_cast<float>(1u << 24);
  };
  float largest = 0;
  float time = 0;
  for (int f = 0; f < 300; ++f) {
    FrameContext c = context(f % 50 == 49 ? 0.2f : 0.004f + 0.04f * next());
    time += c.delta;
    c.skeleton_x = 80 * std::sin(time * 3);
    c.skeleton_y = 30 * std::sin(time * 5);
    c.wind = 0.2f * std::cos(time);
    const float root_x = 40 * std::sin(time * 7);
    frame(a, c, root_x);
    frame(b, c, root_x);
    frame(still, context(c.delta, c.skeleton_x, PhysicsMode::None), root_x);
    largest = std::max(largest, std::abs(tip_x(a, bones_[2]) - tip_x(still, bones_[2])));
  }
  EXPECT_GT(largest, 5.0f);  // the physics did move the chain
  expect_same_bones(a, b);
  for (std::size_t k = 0; k < a.physics_state.size(); ++k) expect_same_state(a.physics_state[k], b.physics_state[k]);
}

TEST_F(PhysicsConstraint, ADeltaOverTheCapMakesFourStepsAndDropsTheRest) {
  PhysicsData c = physics_on(0);
  c.x = c.y = 1;
  c.step = 1.0f / 64;  // a power of two: the float clock adds these steps exactly
  single_bone(c);
  SkeletonPose pose(data_);
  frame(pose, context(0));           // records the rest position
  frame(pose, context(c.step, 30));  // the skeleton moves: an offset, then one step
  ASSERT_EQ(pose.physics_state[0].steps, 1u);

  SkeletonPose one_second = pose, four_steps = pose, four_and_a_half = pose;
  frame(one_second, context(1.0f, 30));
  for (int f = 0; f < 4; ++f) frame(four_steps, context(c.step, 30));
  frame(four_and_a_half, context(4.5f * c.step, 30));

  const PhysicsState& s = one_second.physics_state[0];
  EXPECT_EQ(s.steps, 5u);
  EXPECT_EQ(s.remaining, 0.0f);  // 60 steps' worth dropped
  // Exactly the state four single steps reach.
  expect_same_state(s, four_steps.physics_state[0]);
  expect_same_bones(one_second, four_steps);
  EXPECT_GT(s.offset_x, -30.0f);  // the spring did pull

  // Under the cap, the leftover time is kept for the next frame.
  EXPECT_EQ(four_and_a_half.physics_state[0].steps, 5u);
  EXPECT_NEAR(four_and_a_half.physics_state[0].remaining, 0.5f * c.step, 1e-6f);
}

TEST_F(PhysicsConstraint, AStepShorterThanTheFrameStepsSeveralTimes) {
  PhysicsData c = physics_on(0);
  c.y = 1;
  c.step = 1.0f / 120;
  single_bone(c);
  SkeletonPose pose(data_);
  frame(pose, context(0));
  frame(pose, context(kStep));
  frame(pose, context(kStep));
  EXPECT_EQ(pose.physics_state[0].steps, 4u);  // two 1/120 s steps per 1/60 s frame
}

// The next two take one step per second, so the 1/60 s frames below move the bone without a step.
TEST_F(PhysicsConstraint, InertiaIsTheShareOfMovementTheBoneLagsBy) {
  PhysicsData c = physics_on(0);
  c.x = c.y = 1;
  c.inertia = 0.25f;
  c.step = 1;
  const int bone = single_bone(c);
  SkeletonPose pose(data_);
  frame(pose, context(0));
  frame(pose, context(kStep, 40));  // the skeleton moves 40 px right
  EXPECT_NEAR(pose.physics_state[0].offset_x, -10, kTolerance);
  // The bone is drawn 10 px behind where the animation puts it (skeleton space).
  EXPECT_NEAR(pose.world_x[static_cast<std::size_t>(bone)], -10, kTolerance);
  frame(pose, context(kStep, 40), 20);  // the animation moves the bone 20 px right in the skeleton
  EXPECT_NEAR(pose.physics_state[0].offset_x, -15, kTolerance);
  EXPECT_NEAR(pose.world_x[static_cast<std::size_t>(bone)], 5, kTolerance);
}

// `limit` is a speed (pixels per second): in an update of Δt the lag grows by at most limit·Δt on
// each axis, so a teleport does not fling the bone, and an update without time adds no lag.
TEST_F(PhysicsConstraint, MovementBeyondTheLimitHasNoGreaterEffect) {
  PhysicsData c = physics_on(0);
  c.x = c.y = 1;
  c.limit = 100 / kStep;  // 100 px in one 1/60 s frame
  c.step = 1;
  const int bone = single_bone(c);
  SkeletonPose start(data_);
  frame(start, context(0));

  SkeletonPose far = start, farther = start, near = start, timeless = start, diagonal = start;
  frame(far, context(kStep, 100));
  frame(farther, context(kStep, 400));  // a teleport: fed to the simulation as a move of 100 px
  frame(near, context(kStep, 60));
  frame(timeless, context(0, 60));
  EXPECT_NEAR(far.physics_state[0].offset_x, -100, kTolerance);
  expect_same_state(farther.physics_state[0], [&] {
    PhysicsState s = far.physics_state[0];
    s.skeleton_x = 400;
    return s;
  }());
  EXPECT_NEAR(near.physics_state[0].offset_x, -60, kTolerance);
  EXPECT_EQ(timeless.physics_state[0].offset_x, 0.0f);
  // The bone lags the skeleton by the limited movement.
  EXPECT_NEAR(farther.world_x[static_cast<std::size_t>(bone)], -100, kTolerance);
  // Each axis is limited on its own: a move of (400, 50) lags by (100, 50).
  FrameContext moved = context(kStep, 400);
  moved.skeleton_y = 50;
  frame(diagonal, moved);
  EXPECT_NEAR(diagonal.physics_state[0].offset_x, -100, kTolerance);
  EXPECT_NEAR(diagonal.physics_state[0].offset_y, -50, kTolerance);
}

TEST_F(PhysicsConstraint, StepsFollowTheFloatClockOfTheUpdates) {
  // 1/60 s updates: the clock's advances are not all exactly one step in float, so some updates take
  // no step and a later one takes two; every update's time is consumed, none is lost.
  PhysicsData c = physics_on(0);
  c.y = 1;
  single_bone(c);
  SkeletonPose pose(data_);
  frame(pose, context(0));
  float clock = 0, remaining = 0;
  std::uint32_t expected = 0;
  for (int f = 1; f <= 120; ++f) {
    const float before = clock;
    clock += kStep;
    remaining += clock - before;
    while (remaining >= data_.physics[0].step) {
      remaining -= data_.physics[0].step;
      ++expected;
    }
    frame(pose, context(kStep));
    EXPECT_EQ(pose.physics_state[0].steps, expected) << "update " << f;
  }
  EXPECT_GE(expected, 119u);
  EXPECT_LE(expected, 120u);
}

TEST_F(PhysicsConstraint, GravityAcceleratesAnUndampedFreeBone) {
  // Strength 0, damping 1: a falling drop. Gravity 70 is 7000 px/s²; after n steps of dt the drop has
  // fallen 7000·dt²·n(n+1)/2.
  PhysicsData c = physics_on(0);
  c.x = c.y = 1;
  c.strength = 0;
  c.damping = 1;
  c.gravity = 70;
  const int bone = single_bone(c);
  SkeletonPose pose(data_);
  frame(pose, context(0));
  for (int f = 0; f < 30; ++f) frame(pose, context(kStep));
  const float n = static_cast<float>(pose.physics_state[0].steps);
  const float dt = data_.physics[0].step;
  EXPECT_NEAR(pose.world_y[static_cast<std::size_t>(bone)], 7000 * dt * dt * n * (n + 1) / 2, 1e-2f);
}

TEST_F(PhysicsConstraint, ResetKeysAndResetPhysicsRestoreTheSetupState) {
  PhysicsData c = physics_on(0);
  c.x = c.y = c.rotate = 1;
  single_bone(c);
  SkeletonPose pose(data_), animated(data_);
  frame(pose, context(kStep));
  frame(pose, context(kStep, 30));
  ASSERT_FALSE(at_rest(pose.physics_state[0]));

  // A reset key (the sampler bumps reset_count; set_to_setup keeps it).
  ++pose.physics[0].reset_count;
  frame(pose, context(kStep, 60));
  frame(animated, context(kStep, 60, PhysicsMode::None));
  EXPECT_TRUE(at_rest(pose.physics_state[0]));
  expect_same_bones(pose, animated);
  frame(pose, context(kStep, 60));  // nothing moved since the reset: still at rest
  EXPECT_EQ(pose.physics_state[0].offset_x, 0.0f);

  frame(pose, context(kStep, 90));
  ASSERT_FALSE(at_rest(pose.physics_state[0]));
  reset_physics(pose);
  EXPECT_TRUE(at_rest(pose.physics_state[0]));
  // The next update records the positions afresh: the move since the last update is no kick.
  frame(pose, context(kStep, 150));
  EXPECT_TRUE(at_rest(pose.physics_state[0]));
  frame(animated, context(kStep, 150, PhysicsMode::None));
  expect_same_bones(pose, animated);
}

TEST_F(PhysicsConstraint, PoseModeAppliesTheStateWithoutAdvancingIt) {
  PhysicsData c = physics_on(0);
  c.x = c.y = 1;
  const int bone = single_bone(c);
  SkeletonPose pose(data_);
  frame(pose, context(kStep));
  frame(pose, context(kStep, 30));
  const PhysicsState before = pose.physics_state[0];
  ASSERT_NE(before.offset_x, 0.0f);

  // Scrubbing: another animated pose (root at 50), time passing, the skeleton moving.
  for (int f = 0; f < 10; ++f) frame(pose, context(0.1f, 70, PhysicsMode::Pose), 50);
  expect_same_state(pose.physics_state[0], before);
  // The current offsets on the current animated pose.
  EXPECT_NEAR(pose.world_x[static_cast<std::size_t>(bone)], 50 + before.offset_x, kTolerance);
  EXPECT_NEAR(pose.world_y[static_cast<std::size_t>(bone)], before.offset_y, kTolerance);
}

TEST_F(PhysicsConstraint, NoneModeLeavesPoseAndStateAlone) {
  PhysicsData c = physics_on(0);
  c.x = c.y = c.rotate = c.scale_x = c.shear_x = 1;
  single_bone(c);
  SkeletonPose pose(data_), plain(data_);
  frame(pose, context(kStep));
  frame(pose, context(kStep, 30));
  const PhysicsState before = pose.physics_state[0];
  ASSERT_FALSE(at_rest(before));
  const FrameContext none = context(kStep, 80, PhysicsMode::None);
  frame(pose, none, 20);
  expect_same_state(pose.physics_state[0], before);
  // The animated pose, as a pose never touched by physics shows it.
  plain.x[0] = 20;
  update_world_transform(plain, 0);
  update_world_transform(plain, 1);
  expect_same_bones(pose, plain);
}

TEST_F(PhysicsConstraint, MixBlendsTheSimulationWithTheAnimatedPose) {
  PhysicsData c = physics_on(0);
  c.y = 1;
  c.gravity = 5;  // at rest the origin sags 100 · 5 / 100 = 5 px
  const int bone = single_bone(c);
  const auto i = static_cast<std::size_t>(bone);
  SkeletonPose pose(data_), animated(data_);
  settle(pose, context(kStep), 10);
  EXPECT_NEAR(pose.world_y[i], 5, kEquilibrium);

  // Global mix 0: the animated pose, while the simulation still runs.
  FrameContext off = context(kStep);
  off.physics_mix = 0;
  const std::uint32_t steps = pose.physics_state[0].steps;
  frame(pose, off);
  frame(animated, context(kStep, 0, PhysicsMode::None));
  expect_same_bones(pose, animated);
  EXPECT_EQ(pose.physics_state[0].steps, steps + 1);

  // Per-constraint mix 0 (animated by clips: set after the frame's setup pose).
  pose.set_to_setup();
  pose.physics[0].mix = 0;
  walk(pose, context(kStep));
  expect_same_bones(pose, animated);

  // Half of each: a quarter of the offset.
  FrameContext half = context(kStep);
  half.physics_mix = 0.5f;
  pose.set_to_setup();
  pose.physics[0].mix = 0.5f;
  walk(pose, half);
  EXPECT_NEAR(pose.world_y[i], 1.25f, kEquilibrium);
}

TEST_F(PhysicsConstraint, TranslationChannelsAreSeparateAndInSkeletonSpace) {
  // The bone sits under a parent turned 90°: its offsets still follow the skeleton's axes.
  test::add_bone(data_, "root", -1);
  const int parent = test::add_bone(data_, "parent", 0, 10, 20, 90);
  const int bone = test::add_bone(data_, "bone", parent, 5, 0);
  PhysicsData c = physics_on(bone);
  c.x = 0.5f;
  c.y = 1;
  c.gravity = 3;  // at rest: 100 · (wind, gravity) / strength = (2, 3) px
  c.wind = 2;
  add(c);
  data_.update_order.push_back({UpdateKind::Physics, 0});
  SkeletonPose pose(data_);
  settle(pose, context(kStep), 10);
  EXPECT_NEAR(pose.physics_state[0].offset_x, 2, kEquilibrium);
  EXPECT_NEAR(pose.physics_state[0].offset_y, 3, kEquilibrium);
  const auto i = static_cast<std::size_t>(bone);
  EXPECT_NEAR(pose.world_x[i], 10 + 2 * 0.5f, kEquilibrium);
  EXPECT_NEAR(pose.world_y[i], 25 + 3, kEquilibrium);

  // FrameContext gravity adds to the constraint's. Gravity is a force like the spring's, so mass
  // scales both: a heavier bone swings slower but sags as far.
  FrameContext heavier = context(kStep);
  heavier.gravity = 1;
  data_.physics[0].mass_inverse = 0.5f;
  SkeletonPose second(data_);
  settle(second, heavier, 20);
  EXPECT_NEAR(second.physics_state[0].offset_y, 100 * (3 + 1) / 100.0f, kEquilibrium * 10);
}

TEST_F(PhysicsConstraint, GravityPullsAFreeHangingBoneDown) {
  PhysicsData c = physics_on(0);
  c.rotate = 1;
  const int bone = single_bone(c);  // pointing right (+X), 100 px
  const auto i = static_cast<std::size_t>(bone);
  FrameContext gravity = context(kStep);
  gravity.gravity = 5;
  SkeletonPose pose(data_);
  settle(pose, gravity, 10);
  // A free tip would sag 100 · 5 / 100 = 5 px: the bone turns clockwise until the spring holds it.
  const float expected = rest_angle(5, 100) * kRadToDeg;
  EXPECT_NEAR(pose.rotation[i], expected, kEquilibrium);
  EXPECT_GT(tip_y(pose, bone), 4.9f);
  EXPECT_NEAR(std::hypot(pose.a[i], pose.c[i]), 1, kTolerance);  // rotate alone: no stretch

  // The constraint's own gravity adds to the world's.
  data_.physics[0].gravity = 7;
  gravity.gravity = 3;
  SkeletonPose heavier(data_);
  settle(heavier, gravity, 20);
  EXPECT_NEAR(heavier.rotation[i], rest_angle(10, 100) * kRadToDeg, kEquilibrium);
}

TEST_F(PhysicsConstraint, GravityDoesNotTurnABoneHangingStraightDown) {
  PhysicsData c = physics_on(0);
  c.rotate = 1;
  const int bone = single_bone(c, 90);
  FrameContext gravity = context(kStep);
  gravity.gravity = 5;
  SkeletonPose pose(data_);
  settle(pose, gravity, 10);
  EXPECT_NEAR(pose.rotation[static_cast<std::size_t>(bone)], 90, kTolerance);
}

TEST_F(PhysicsConstraint, UnderAMirroredParentTheBoneStillFallsDown) {
  PhysicsData c = physics_on(0);
  c.rotate = 1;
  const int bone = single_bone(c, 0, -1);  // root scale X −1: the bone points left
  const auto i = static_cast<std::size_t>(bone);
  FrameContext gravity = context(kStep);
  gravity.gravity = 5;
  SkeletonPose pose(data_);
  settle(pose, gravity, 10);
  // In the world the bone turns anticlockwise, down towards the gravity.
  const float angle = rest_angle(5, 100);
  EXPECT_NEAR(tip_x(pose, bone), -100 * std::cos(angle), kEquilibrium * 10);
  EXPECT_NEAR(tip_y(pose, bone), 100 * std::sin(angle), kEquilibrium * 10);
  EXPECT_GT(pose.c[i], 0.0f);
}

TEST_F(PhysicsConstraint, ScaleStretchesAndShearSkewsTowardsTheSimulatedTip) {
  PhysicsData c = physics_on(0);
  c.scale_x = 1;
  const int bone = single_bone(c);
  const auto i = static_cast<std::size_t>(bone);
  FrameContext wind = context(kStep);
  wind.wind = 5;  // along the bone: the tip trails 5 px further out
  SkeletonPose stretched(data_);
  settle(stretched, wind, 10);
  EXPECT_NEAR(stretched.scale_x[i], 1.05f, kEquilibrium);
  EXPECT_EQ(stretched.rotation[i], 0.0f);

  data_.physics[0].scale_x = 0;
  data_.physics[0].shear_x = 1;
  FrameContext gravity = context(kStep);
  gravity.gravity = 5;  // across the bone: the X axis skews towards the sagging tip
  SkeletonPose sheared(data_);
  settle(sheared, gravity, 10);
  // The X axis turns towards the sagging tip and keeps its length; the Y axis keeps its direction.
  const float sag = rest_angle(5, 100);
  EXPECT_NEAR(sheared.a[i], std::cos(sag), kEquilibrium);
  EXPECT_NEAR(sheared.c[i], std::sin(sag), kEquilibrium);
  EXPECT_NEAR(sheared.b[i], 0, kTolerance);
  EXPECT_NEAR(sheared.d[i], 1, kTolerance);
}

// The direction channels: when the bone's origin moves, the bone turns by inertia × the angle at which
// its old tip is seen from the new origin; the origin's movement is limited like the translation
// channels', the bone's own change of direction is not.
TEST_F(PhysicsConstraint, TheBoneTurnsTowardsWhereItsTipWas) {
  PhysicsData c = physics_on(0);
  c.rotate = 1;
  c.inertia = 0.5f;
  c.step = 1;  // no step in these frames: the turn is the inertia alone
  c.limit = 1e6f;
  const int bone = single_bone(c, 90);  // pointing down (+Y), 100 px long
  const auto i = static_cast<std::size_t>(bone);
  auto direction = [&](const SkeletonPose& p) { return std::atan2(p.c[i], p.a[i]) * kRadToDeg; };
  SkeletonPose pose(data_);
  frame(pose, context(0));
  SkeletonPose limited = pose;
  frame(pose, context(kStep), 100);  // the root moves 100 px right: the old tip is at (−100, 100)
  EXPECT_NEAR(direction(pose), 90 + 0.5f * 45, 1e-3f);

  data_.physics[0].limit = 50 / kStep;  // 50 px in this frame: the old tip is seen at (−50, 100)
  frame(limited, context(kStep), 100);
  EXPECT_NEAR(direction(limited), 90 + 0.5f * std::atan2(50.0f, 100.0f) * kRadToDeg, 1e-3f);
}

TEST_F(PhysicsConstraint, AZeroLengthBoneOnlyTranslates) {
  PhysicsData c = physics_on(0);
  c.rotate = c.scale_x = c.shear_x = 1;
  const int bone = single_bone(c);
  set_length(bone, 0);
  FrameContext gravity = context(kStep);
  gravity.gravity = 5;
  SkeletonPose pose(data_), animated(data_);
  settle(pose, gravity, 2);
  frame(animated, context(kStep, 0, PhysicsMode::None));
  expect_same_bones(pose, animated);
}

// Through the clip sampler and update_skeleton: a gravity timeline bends the bone, a reset key puts
// it back at rest.
TEST_F(PhysicsConstraint, ClipTimelinesDriveGravityAndReset) {
  PhysicsData c = physics_on(0);
  c.rotate = 1;
  const int bone = single_bone(c);
  const auto i = static_cast<std::size_t>(bone);
  auto clip = std::make_shared<ClipData>();
  clip->name = "sway";
  clip->length = 2;
  test::add_timeline(*clip, TimelineKind::PhysicsGravity, 0, 1, {0}, {5});
  test::add_timeline(*clip, TimelineKind::PhysicsReset, 0, 0, {1.0f}, {}, 0);
  const int id = test::add_clip(data_, clip);
  SkeletonPose pose(data_);
  ClipSampler sampler(data_);
  EventBuffer events;
  const FrameContext update = context(kStep);
  float previous = 0;
  bool was_reset = false;
  for (int f = 1; f <= 90; ++f) {
    const float now = static_cast<float>(f) * kStep;
    const anim::ClipSample s = loop_sample(data_, id, previous, now, false);
    previous = now;
    const float before = pose.rotation[i];
    sampler.apply(pose, std::span(&s, 1), events);
    update_skeleton(pose, update);
    if (pose.physics[0].reset_count == 1 && !was_reset) {  // the frame that passes the key at 1 s
      EXPECT_NEAR(now, 1.0f, kStep);
      EXPECT_GT(before, 1.0f);  // bent by the keyed gravity until then
      EXPECT_TRUE(at_rest(pose.physics_state[0]));
      EXPECT_EQ(pose.rotation[i], 0.0f);
      was_reset = true;
    }
  }
  EXPECT_TRUE(was_reset);
  EXPECT_GT(pose.rotation[i], 1.0f);  // bending again after the reset
}

}  // namespace
}  // namespace mf::skel
