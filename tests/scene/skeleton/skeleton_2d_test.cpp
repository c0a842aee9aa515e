// Skeleton2D on the scene host: binding errors, the three update modes, time scale, the off-screen
// modes with a culled node, flips, overrides, slot attachments, signals (deferred to the end of the
// tick that caused them, in the proposal's order), teleports resetting physics, cull bounds.

#include "mf/scene/skeleton/skeleton_2d.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/scene_tree.hpp"
#include "skel/test_rig.hpp"

namespace mf::scene {
namespace {

// Pixels: float world transforms composed from a few products.
constexpr float kPx = 1e-3f;
constexpr float kStep = 1.0f / 60.0f;

std::shared_ptr<const skel::SkeletonData> mannequin() {
  static std::shared_ptr<const skel::SkeletonData> data = [] {
    auto built = offline::build_rig_file(MF_EXAMPLES_DIR "/mannequin/mannequin.mskel");
    EXPECT_TRUE(built) << built.error().to_string();
    return built ? std::shared_ptr<const skel::SkeletonData>(built->data) : nullptr;
  }();
  return data;
}

// A node with the example bound, playing `clip`, added under the tree's root.
Skeleton2D* add_mannequin(SceneTree& tree, const std::string& clip = "walk", std::string name = "hero") {
  auto node = std::make_unique<Skeleton2D>(std::move(name));
  EXPECT_TRUE(node->set_clip(clip));
  EXPECT_TRUE(node->set_data(mannequin()));
  auto added = tree.root().add_child(std::move(node));
  EXPECT_TRUE(added);
  return *added;
}

float track_time(Skeleton2D& s) {
  const anim::TrackEntry* e = s.tracks()->entry(s.tracks()->current(0));
  return e ? e->track_time() : -1.0f;
}

void expect_near(const Affine2& a, const Affine2& b, float tol) {
  EXPECT_NEAR(a.a, b.a, tol);
  EXPECT_NEAR(a.b, b.b, tol);
  EXPECT_NEAR(a.c, b.c, tol);
  EXPECT_NEAR(a.d, b.d, tol);
  EXPECT_NEAR(a.x, b.x, tol * 100);
  EXPECT_NEAR(a.y, b.y, tol * 100);
}

TEST(Skeleton2D, BindingErrorsNameTheClipOrSkinAndKeepThePreviousState) {
  ASSERT_TRUE(mannequin());
  Skeleton2D s("hero");
  ASSERT_TRUE(s.set_clip("walk"));
  ASSERT_TRUE(s.set_data(mannequin()));
  const Status bad_clip = s.set_clip("moonwalk");
  ASSERT_FALSE(bad_clip);
  EXPECT_NE(bad_clip.error().to_string().find("moonwalk"), std::string::npos);
  EXPECT_EQ(s.clip(), "walk");
  const Status bad_skin = s.set_skins({"pirate"});
  ASSERT_FALSE(bad_skin);
  EXPECT_NE(bad_skin.error().to_string().find("pirate"), std::string::npos);
  EXPECT_TRUE(s.skins().empty());
  // Skins are composed in order over the default skin: the knight's helmet shows from the next tick
  // (slots return to their setup attachments through the new skin).
  ASSERT_TRUE(s.set_skins({"knight"}));
  s.set_update_mode(SkeletonUpdateMode::Manual);
  ASSERT_TRUE(s.advance(0));
  const int helmet = s.find_slot("helmet");
  ASSERT_GE(helmet, 0);
  EXPECT_GE(s.pose()->attachment[static_cast<std::size_t>(helmet)], 0);
}

TEST(Skeleton2D, ProcessModeAdvancesByEachFrameScaledByTimeScale) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree);
  s->set_time_scale(0.5f);
  for (int i = 0; i < 10; ++i) tree.advance(0.02f);
  EXPECT_NEAR(track_time(*s), 0.1f, 1e-5f);
  EXPECT_EQ(s->full_ticks(), 10u);
}

TEST(Skeleton2D, PhysicsModeTicksOnFixedStepsOnly) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree);
  s->set_update_mode(SkeletonUpdateMode::Physics);
  tree.advance(kStep * 0.5f);  // no whole step yet
  EXPECT_EQ(s->full_ticks(), 0u);
  tree.advance(kStep * 2.0f);  // 2.5 steps of time: two steps
  EXPECT_EQ(s->full_ticks(), 2u);
  EXPECT_NEAR(track_time(*s), 2 * kStep, 1e-5f);
}

TEST(Skeleton2D, ManualModeMovesOnlyThroughAdvance) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree);
  s->set_update_mode(SkeletonUpdateMode::Manual);
  tree.advance(0.1f);
  EXPECT_EQ(s->full_ticks(), 0u);
  ASSERT_TRUE(s->advance(0.25f));
  EXPECT_NEAR(track_time(*s), 0.25f, 1e-6f);
  s->set_update_mode(SkeletonUpdateMode::Process);
  const Status refused = s->advance(0.1f);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().to_string().find("Manual"), std::string::npos);
}

// A culled node in each off-screen mode: Full poses, TimeOnly keeps time and events going but not the
// pose, Pause stops.
TEST(Skeleton2D, OffscreenModesWithACulledNode) {
  SceneTree tree;
  Skeleton2D* full = add_mannequin(tree, "walk", "full");
  Skeleton2D* time_only = add_mannequin(tree, "walk", "time_only");
  Skeleton2D* paused = add_mannequin(tree, "walk", "paused");
  full->set_offscreen(OffscreenUpdate::Full);
  paused->set_offscreen(OffscreenUpdate::Pause);
  EXPECT_EQ(time_only->offscreen(), OffscreenUpdate::TimeOnly);  // the default
  tree.advance(0.1f);
  for (Skeleton2D* s : {full, time_only, paused}) s->set_was_culled(true);
  const int hand = full->find_bone("hand_r");
  const Affine2 hand_before = time_only->bone_transform(hand);
  const std::uint64_t version_before = time_only->pose_version();
  int footsteps = 0, poses = 0;
  time_only->animation_event.connect([&](Skeleton2D*, const SkeletonEvent& e) { footsteps += *e.name == "footstep"; });
  time_only->pose_updated.connect([&](Skeleton2D*) { ++poses; });
  for (int i = 0; i < 30; ++i) tree.advance(0.02f);  // 0.6 s: through the footstep at 0.5 s

  EXPECT_NEAR(track_time(*full), 0.7f, 1e-4f);
  EXPECT_NEAR(track_time(*time_only), 0.7f, 1e-4f);
  EXPECT_NEAR(track_time(*paused), 0.1f, 1e-6f);
  EXPECT_EQ(footsteps, 1);
  EXPECT_EQ(poses, 0);
  EXPECT_EQ(time_only->pose_version(), version_before);
  EXPECT_EQ(time_only->bone_transform(hand), hand_before);
  EXPECT_EQ(time_only->time_only_ticks(), 30u);
  EXPECT_EQ(paused->paused_ticks(), 30u);
  // Full posed: its hand is where the clip puts it at 0.7 s, not where the TimeOnly one stayed.
  const Affine2 moved = full->bone_transform(hand);
  EXPECT_GT(std::hypot(moved.x - hand_before.x, moved.y - hand_before.y), 1.0f);

  // Back on screen: the next tick poses again, at the time that went on.
  time_only->set_was_culled(false);
  tree.advance(0.02f);
  EXPECT_EQ(poses, 1);
  expect_near(time_only->bone_transform(hand), full->bone_transform(hand), 1e-4f);
}

// The clips' conservative bounds contain every pose of the clip, so a culler that tests them draws a
// skeleton walking back on screen on its first visible frame.
TEST(Skeleton2D, CullBoundsContainThePoseOverTheWholeClip) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "run");
  for (int i = 0; i < 90; ++i) {
    tree.advance(1 / 60.0f);
    const Bounds pose = s->pose_bounds(), cull = s->cull_bounds();
    ASSERT_FALSE(pose.empty());
    EXPECT_LE(cull.min_x, pose.min_x + kPx);
    EXPECT_LE(cull.min_y, pose.min_y + kPx);
    EXPECT_GE(cull.max_x, pose.max_x - kPx);
    EXPECT_GE(cull.max_y, pose.max_y - kPx);
  }
}

TEST(Skeleton2D, FlipsMirrorTheSkeletonNotTheNode) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "idle");
  s->set_position({400, 300});
  tree.advance(0.0f);
  const int hand = s->find_bone("hand_r");
  const Affine2 bone = s->bone_transform(hand);
  const Affine2 plain = s->bone_global_transform(hand);
  EXPECT_NEAR(plain.x, 400 + bone.x, kPx);
  s->set_flip_h(true);
  const Affine2 mirrored = s->bone_global_transform(hand);
  EXPECT_NEAR(mirrored.x, 400 - bone.x, kPx);
  EXPECT_NEAR(mirrored.y, plain.y, kPx);
  s->set_flip_v(true);
  EXPECT_NEAR(s->bone_global_transform(hand).y, 300 - bone.y, kPx);
  // The node's own transform is not mirrored: a plain child sits where its position says.
  auto child = s->make_child<Node2D>("label");
  ASSERT_TRUE(child);
  (*child)->set_position({10, 0});
  EXPECT_NEAR((*child)->global_transform().x, 410, kPx);
  // The bounds on the canvas follow the mirror.
  const Bounds local = s->pose_bounds(), canvas = s->to_canvas(local);
  EXPECT_NEAR(canvas.min_x, 400 - local.max_x, kPx);
  EXPECT_NEAR(canvas.max_y, 300 - local.min_y, kPx);
}

TEST(Skeleton2D, BoneOverrideAppliesBeforeConstraintsAndClears) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "idle");
  tree.advance(kStep);
  const int target = s->find_bone("foot_l_target"), shin = s->find_bone("shin_l");
  const Affine2 shin_before = s->bone_transform(shin);
  skel::BoneOverride o;
  o.space = skel::BoneOverrideSpace::World;
  o.x = s->bone_transform(target).x + 30;
  o.y = s->bone_transform(target).y - 40;
  o.channels = skel::kOverrideTranslation;
  s->set_bone_override(target, o);
  tree.advance(kStep);
  EXPECT_NEAR(s->bone_transform(target).x, o.x, kPx);
  EXPECT_NEAR(s->bone_transform(target).y, o.y, kPx);
  // The leg's IK ran after the override: the shin moved with its target.
  EXPECT_GT(std::hypot(s->bone_transform(shin).x - shin_before.x, s->bone_transform(shin).y - shin_before.y), 1.0f);
  s->clear_bone_override(target);
  tree.advance(kStep);
  EXPECT_GT(std::abs(s->bone_transform(target).x - o.x), 1.0f);
}

TEST(Skeleton2D, SetSlotAttachmentShowsItAndRefusesUnknownNames) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "idle");
  const int helmet = s->find_slot("helmet");
  ASSERT_TRUE(s->set_slot_attachment(helmet, ""));
  tree.advance(kStep);
  EXPECT_EQ(s->pose()->attachment[static_cast<std::size_t>(helmet)], -1);
  const Status bad = s->set_slot_attachment(helmet, "crown");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().to_string().find("crown"), std::string::npos);
  EXPECT_NE(bad.error().to_string().find("helmet"), std::string::npos);
}

// Signals are delivered after the tick, in order: the clip events and track signals first, then
// PoseUpdated; each with this node.
TEST(Skeleton2D, SignalsComeAfterTheTickInTheProposalsOrder) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "walk");
  std::vector<std::string> log;
  s->animation_event.connect([&](Skeleton2D* node, const SkeletonEvent& e) {
    EXPECT_EQ(node, s);
    log.push_back("event " + *e.name + " " + *e.string_value + " track " + std::to_string(e.track));
    EXPECT_FLOAT_EQ(e.volume, 0.6f);
  });
  s->track_started.connect([&](Skeleton2D*, const TrackEvent& e) { log.push_back("started " + std::to_string(e.clip)); });
  s->track_completed.connect([&](Skeleton2D*, const TrackEvent&) { log.push_back("completed"); });
  s->pose_updated.connect([&](Skeleton2D*) { log.push_back("pose"); });
  tree.advance(kStep);
  const int walk = mannequin()->find_clip("walk");
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], "event footstep left track 0");
  EXPECT_EQ(log[1], "started " + std::to_string(walk));
  EXPECT_EQ(log[2], "pose");
  log.clear();
  for (int i = 0; i < 60; ++i) tree.advance(kStep);  // through 1 s: the right step, the loop's end
  EXPECT_NE(std::find(log.begin(), log.end(), "event footstep right track 0"), log.end());
  EXPECT_NE(std::find(log.begin(), log.end(), "completed"), log.end());
}

// A Manual advance outside a tick delivers its signals before it returns.
TEST(Skeleton2D, ManualAdvanceOutsideATickDeliversAtOnce) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "walk");
  s->set_update_mode(SkeletonUpdateMode::Manual);
  int poses = 0;
  s->pose_updated.connect([&](Skeleton2D*) { ++poses; });
  ASSERT_TRUE(s->advance(kStep));
  EXPECT_EQ(poses, 1);
}

// A physics constraint on a rig: moving the node swings it; a move beyond the teleport distance
// resets it instead.
TEST(Skeleton2D, TeleportDistanceResetsPhysicsInsteadOfSwinging) {
  auto data = std::make_shared<skel::SkeletonData>();
  data->name = "pendulum";
  skel::test::add_bone(*data, "root", -1);
  const int bob = skel::test::add_bone(*data, "bob", 0, 0, 0, 90);
  data->bones.length[static_cast<std::size_t>(bob)] = 100;
  skel::PhysicsData c;
  c.name = "swing";
  c.bone = bob;
  c.rotate = 1;
  c.x = 1;
  c.damping = 0.9f;
  data->physics.push_back(c);
  data->constraint_steps.push_back({skel::UpdateKind::Physics, 0});
  data->update_order.push_back({skel::UpdateKind::Physics, 0});

  const auto swing_after_jump = [&](float teleport) {
    SceneTree tree;
    auto node = std::make_unique<Skeleton2D>("pendulum");
    EXPECT_TRUE(node->set_data(data));
    node->set_physics_teleport_distance(teleport);
    Skeleton2D* s = *tree.root().add_child(std::move(node));
    for (int i = 0; i < 30; ++i) tree.advance(kStep);
    const Affine2 rest = s->bone_transform(bob);
    s->set_position({500, 0});
    tree.advance(kStep);
    tree.advance(kStep);
    const Affine2 after = s->bone_transform(bob);
    return std::hypot(after.a - rest.a, after.c - rest.c) + std::hypot(after.x - rest.x, after.y - rest.y);
  };
  EXPECT_GT(swing_after_jump(std::numeric_limits<float>::infinity()), 0.01f);
  EXPECT_LT(swing_after_jump(100.0f), 1e-4f);
}


// A clip change: the old entry is interrupted, ends when its mix is over, and is disposed; the new
// one starts. Each signal names the node and the entry's clip.
TEST(Skeleton2D, TrackSignalsFollowAnEntrysLife) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "walk");
  tree.advance(kStep);
  const int walk = mannequin()->find_clip("walk"), run = mannequin()->find_clip("run");
  std::vector<std::string> log;
  const auto record = [&](const char* what) {
    return [&log, what](Skeleton2D*, const TrackEvent& e) { log.push_back(std::string(what) + " " + std::to_string(e.clip)); };
  };
  s->track_started.connect(record("started"));
  s->track_interrupted.connect(record("interrupted"));
  s->track_ended.connect(record("ended"));
  s->track_disposed.connect(record("disposed"));
  s->tracks()->set_default_mix(0.1f);
  ASSERT_TRUE(s->set_clip("run"));
  for (int i = 0; i < 12; ++i) tree.advance(kStep);  // past the 0.1 s mix
  const std::vector<std::string> expected{"interrupted " + std::to_string(walk), "started " + std::to_string(run),
                                          "ended " + std::to_string(walk), "disposed " + std::to_string(walk)};
  EXPECT_EQ(log, expected);
}

// PhysicsGravity adds to the rig's own: a physics constraint with none of its own sags under it, and
// a flip turns it round in skeleton space.
TEST(Skeleton2D, PhysicsGravityPullsAPhysicsConstraint) {
  auto data = std::make_shared<skel::SkeletonData>();
  data->name = "rope";
  skel::test::add_bone(*data, "root", -1);
  const int rope = skel::test::add_bone(*data, "rope", 0, 0, 0, 0);  // pointing along +X
  data->bones.length[static_cast<std::size_t>(rope)] = 100;
  skel::PhysicsData c;
  c.name = "sway";
  c.bone = rope;
  c.rotate = 1;
  c.damping = 0.9f;
  data->physics.push_back(c);
  data->constraint_steps.push_back({skel::UpdateKind::Physics, 0});
  data->update_order.push_back({skel::UpdateKind::Physics, 0});
  const auto tip_y = [&](Vec2 gravity, bool flip_v) {
    SceneTree tree;
    auto node = std::make_unique<Skeleton2D>("rope");
    EXPECT_TRUE(node->set_data(data));
    node->set_physics_gravity(gravity);
    node->set_flip_v(flip_v);
    Skeleton2D* s = *tree.root().add_child(std::move(node));
    for (int i = 0; i < 120; ++i) tree.advance(kStep);
    const Affine2 t = s->bone_global_transform(rope);
    return t.apply({100, 0}).y;
  };
  EXPECT_NEAR(tip_y({0, 0}, false), 0, 1e-3f);
  const float sag = tip_y({0, 2000}, false);
  EXPECT_GT(sag, 1.0f);                                  // down on the canvas (+Y)
  EXPECT_NEAR(tip_y({0, 2000}, true), sag, 1e-2f);      // still down on the canvas when mirrored
}

}  // namespace
}  // namespace mf::scene
