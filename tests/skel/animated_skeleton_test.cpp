// AnimatedSkeleton: bone overrides from code (local and world space, each channel, a half mix, before
// the constraints so an overridden IK target moves the chain), the order of a tick (events and signals
// delivered after the pose is complete) and a crossfade on the example rig keeping its leg IK solved.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "test_rig.hpp"

namespace mf::skel {
namespace {

// Float world transforms against hand-computed values (pixels, unit axes).
constexpr double kTol = 1e-3;
// A reachable IK target is reached to this (pixels).
constexpr double kReach = 1e-3;

double world_rotation(const SkeletonPose& p, int b) {
  const auto i = static_cast<std::size_t>(b);
  return std::atan2(p.c[i], p.a[i]) * 180 / std::numbers::pi;
}
double world_scale_x(const SkeletonPose& p, int b) {
  const auto i = static_cast<std::size_t>(b);
  return std::hypot(p.a[i], p.c[i]);
}
double world_scale_y(const SkeletonPose& p, int b) {
  const auto i = static_cast<std::size_t>(b);
  return std::hypot(p.b[i], p.d[i]);
}

// parent: root at (10, 5) turned 90° and scaled 2; child: at (5, 0) in the parent; free: a root bone;
// upper/lower: a two-bone IK chain (40 px, 30 px) aiming at `target`, a root bone.
struct Rig {
  std::shared_ptr<SkeletonData> data = std::make_shared<SkeletonData>();
  int parent, child, free_bone, upper, lower, target;
  int clip_a, clip_b;

  explicit Rig(Inherit child_inherit = Inherit::Normal) {
    SkeletonData& d = *data;
    parent = test::add_bone(d, "parent", -1, 10, 5, 90, 2, 2);
    child = test::add_bone(d, "child", parent, 5, 0, 0, 1, 1, 0, 0, child_inherit);
    free_bone = test::add_bone(d, "free", -1, 10, 5, 30);
    upper = test::add_bone(d, "upper", -1, 0, 0, 0);
    lower = test::add_bone(d, "lower", upper, 40, 0, 0);
    target = test::add_bone(d, "target", -1, 60, 20);
    d.bones.length[static_cast<std::size_t>(upper)] = 40;
    d.bones.length[static_cast<std::size_t>(lower)] = 30;
    IkData ik;
    ik.name = "arm";
    ik.bones = {upper, lower};
    ik.target = target;
    d.ik.push_back(ik);
    d.update_order.push_back({UpdateKind::Ik, 0});
    d.constraint_steps.push_back({UpdateKind::Ik, 0});
    d.update_order.push_back({UpdateKind::Bone, lower});
    d.events.push_back({"beat", 3, 0, "", "", 1, 0});

    // a: 1 s, turns `free` from +0° to +90° and moves the target by (0, 10); an event at 0.5 s.
    auto a = std::make_shared<ClipData>();
    a->name = "a";
    a->length = 1;
    test::add_timeline(*a, TimelineKind::Rotate, free_bone, 1, {0, 1}, {0, 90});
    test::add_timeline(*a, TimelineKind::Translate, target, 2, {0, 1}, {0, 0, 0, 10});
    a->events = {{0.5f, 0, 3, 0, -1, 1, 0}};
    clip_a = test::add_clip(d, a);
    // b: 1 s, holds `free` at −30°.
    auto b = std::make_shared<ClipData>();
    b->name = "b";
    b->length = 1;
    test::add_timeline(*b, TimelineKind::Rotate, free_bone, 1, {0}, {-30});
    clip_b = test::add_clip(d, b);
  }
};

double tip_miss(const SkeletonPose& p, int bone, int target) {
  const auto i = static_cast<std::size_t>(bone), t = static_cast<std::size_t>(target);
  const double len = p.data().bones.length[i];
  return std::hypot(p.world_x[i] + p.a[i] * len - p.world_x[t], p.world_y[i] + p.c[i] * len - p.world_y[t]);
}

TEST(AnimatedSkeleton, LocalOverrideEachChannelAndHalfMix) {
  Rig rig;
  AnimatedSkeleton s(*rig.data);
  const auto f = static_cast<std::size_t>(rig.free_bone);

  // Rotation only, full mix: the local rotation is replaced, translation and scale are not.
  s.set_bone_override(rig.free_bone, {BoneOverrideSpace::Local, 99, 99, 120, 5, 5, 1, kOverrideRotation});
  s.update(0);
  EXPECT_NEAR(s.pose().rotation[f], 120, kTol);
  EXPECT_NEAR(world_rotation(s.pose(), rig.free_bone), 120, kTol);
  EXPECT_NEAR(s.pose().x[f], 10, kTol);
  EXPECT_NEAR(s.pose().scale_x[f], 1, kTol);

  // Half mix: halfway from the setup 30° to 120°, along the shorter arc.
  s.set_bone_override(rig.free_bone, {BoneOverrideSpace::Local, 0, 0, 120, 1, 1, 0.5f, kOverrideRotation});
  s.update(0);
  EXPECT_NEAR(s.pose().rotation[f], 75, kTol);
  s.set_bone_override(rig.free_bone, {BoneOverrideSpace::Local, 0, 0, -170, 1, 1, 0.5f, kOverrideRotation});
  s.update(0);
  EXPECT_NEAR(std::remainder(s.pose().rotation[f], 360.0), 110, kTol);  // 30° → −170° (190°) is +160° the short way

  // Translation only, half mix: (10, 5) → (30, −15) gives (20, −5).
  s.set_bone_override(rig.free_bone, {BoneOverrideSpace::Local, 30, -15, 0, 9, 9, 0.5f, kOverrideTranslation});
  s.update(0);
  EXPECT_NEAR(s.pose().world_x[f], 20, kTol);
  EXPECT_NEAR(s.pose().world_y[f], -5, kTol);
  EXPECT_NEAR(world_rotation(s.pose(), rig.free_bone), 30, kTol);

  // Scale only, half mix: (1, 1) → (2, 3) gives (1.5, 2).
  s.set_bone_override(rig.free_bone, {BoneOverrideSpace::Local, 0, 0, 0, 2, 3, 0.5f, kOverrideScale});
  s.update(0);
  EXPECT_NEAR(world_scale_x(s.pose(), rig.free_bone), 1.5, kTol);
  EXPECT_NEAR(world_scale_y(s.pose(), rig.free_bone), 2, kTol);
  EXPECT_NEAR(s.pose().world_x[f], 10, kTol);

  // Cleared: the setup pose again.
  s.clear_bone_override(rig.free_bone);
  EXPECT_EQ(s.bone_override(rig.free_bone), nullptr);
  s.update(0);
  EXPECT_NEAR(world_scale_x(s.pose(), rig.free_bone), 1, kTol);
}

TEST(AnimatedSkeleton, LocalOverrideAppliesOverTheClip) {
  Rig rig;
  AnimatedSkeleton s(*rig.data);
  s.tracks().set_clip(0, rig.clip_a, true);
  s.update(0.5f);  // the clip turns `free` to 30 + 45°
  EXPECT_NEAR(world_rotation(s.pose(), rig.free_bone), 75, kTol);
  s.set_bone_override(rig.free_bone, {BoneOverrideSpace::Local, 0, 0, 15, 1, 1, 0.5f, kOverrideRotation});
  s.update(0);
  EXPECT_NEAR(world_rotation(s.pose(), rig.free_bone), 45, kTol);  // halfway between 75° and 15°
}

TEST(AnimatedSkeleton, WorldOverrideEachChannelThroughARotatedScaledParent) {
  for (Inherit inherit : {Inherit::Normal, Inherit::NoRotationOrReflection, Inherit::NoScale, Inherit::OnlyTranslation}) {
    Rig rig(inherit);
    AnimatedSkeleton s(*rig.data);
    const int c = rig.child;
    s.update(0);
    const double rotation0 = world_rotation(s.pose(), c), sx0 = world_scale_x(s.pose(), c);
    const double x0 = s.pose().world_x[static_cast<std::size_t>(c)], y0 = s.pose().world_y[static_cast<std::size_t>(c)];

    s.set_bone_override(c, {BoneOverrideSpace::World, 0, 0, -20, 1, 1, 1, kOverrideRotation});
    s.update(0);
    EXPECT_NEAR(world_rotation(s.pose(), c), -20, kTol) << static_cast<int>(inherit);
    EXPECT_NEAR(world_scale_x(s.pose(), c), sx0, kTol);
    EXPECT_NEAR(s.pose().world_x[static_cast<std::size_t>(c)], x0, kTol);

    s.set_bone_override(c, {BoneOverrideSpace::World, 100, 50, 0, 1, 1, 1, kOverrideTranslation});
    s.update(0);
    EXPECT_NEAR(s.pose().world_x[static_cast<std::size_t>(c)], 100, kTol);
    EXPECT_NEAR(s.pose().world_y[static_cast<std::size_t>(c)], 50, kTol);
    EXPECT_NEAR(world_rotation(s.pose(), c), rotation0, kTol);

    s.set_bone_override(c, {BoneOverrideSpace::World, 0, 0, 0, 3, 0.5f, 1, kOverrideScale});
    s.update(0);
    EXPECT_NEAR(world_scale_x(s.pose(), c), 3, kTol) << static_cast<int>(inherit);
    EXPECT_NEAR(world_scale_y(s.pose(), c), 0.5, kTol) << static_cast<int>(inherit);
    EXPECT_NEAR(world_rotation(s.pose(), c), rotation0, kTol);

    // All channels at full mix, then at half: the local values land halfway between the animated
    // ones and the full override's (translation is linear in the local values, so the world position
    // is halfway too).
    const BoneOverride all{BoneOverrideSpace::World, 100, 50, -20, 3, 0.5f, 1, kOverrideAll};
    s.set_bone_override(c, all);
    s.update(0);
    const auto i = static_cast<std::size_t>(c);
    EXPECT_NEAR(world_rotation(s.pose(), c), -20, kTol);
    EXPECT_NEAR(s.pose().world_x[i], 100, kTol);
    const float full_x = s.pose().x[i], full_rotation = s.pose().rotation[i], full_sx = s.pose().scale_x[i];
    BoneOverride half = all;
    half.mix = 0.5f;
    s.set_bone_override(c, half);
    s.update(0);
    EXPECT_NEAR(s.pose().x[i], (5 + full_x) / 2, kTol);
    EXPECT_NEAR(s.pose().rotation[i], std::remainder(full_rotation, 360.0f) / 2, kTol);
    EXPECT_NEAR(s.pose().scale_x[i], (1 + full_sx) / 2, kTol);
    EXPECT_NEAR(s.pose().world_x[i], (x0 + 100) / 2, kTol);
    EXPECT_NEAR(s.pose().world_y[i], (y0 + 50) / 2, kTol);
  }
}

TEST(AnimatedSkeleton, OverriddenIkTargetMovesTheChain) {
  Rig rig;
  AnimatedSkeleton s(*rig.data);
  s.tracks().set_clip(0, rig.clip_a, true);
  s.update(0.25f);
  EXPECT_LT(tip_miss(s.pose(), rig.lower, rig.target), kReach);
  // World space: the target goes to (30, 40); the constraint runs after and reaches it.
  s.set_bone_override(rig.target, {BoneOverrideSpace::World, 30, 40, 0, 1, 1, 1, kOverrideTranslation});
  s.update(0.25f);
  EXPECT_NEAR(s.pose().world_x[static_cast<std::size_t>(rig.target)], 30, kTol);
  EXPECT_NEAR(s.pose().world_y[static_cast<std::size_t>(rig.target)], 40, kTol);
  EXPECT_LT(tip_miss(s.pose(), rig.lower, rig.target), kReach);
  // Local space, half mix over the clip's (60, 20 + 10·t) at t = 0.5: (−20, 40) gives (20, 32.5).
  s.set_bone_override(rig.target, {BoneOverrideSpace::Local, -20, 40, 0, 1, 1, 0.5f, kOverrideTranslation});
  s.update(0);
  EXPECT_NEAR(s.pose().world_x[static_cast<std::size_t>(rig.target)], 20, kTol);
  EXPECT_NEAR(s.pose().world_y[static_cast<std::size_t>(rig.target)], 32.5, kTol);
  EXPECT_LT(tip_miss(s.pose(), rig.lower, rig.target), kReach);
}

TEST(AnimatedSkeleton, EventsAndSignalsAreDeliveredAfterTheFrame) {
  Rig rig;
  AnimatedSkeleton s(*rig.data);
  s.set_bone_override(rig.target, {BoneOverrideSpace::World, 30, 40, 0, 1, 1, 1, kOverrideTranslation});
  s.tracks().set_clip(0, rig.clip_a, false);

  struct Seen {
    std::string what;
    int track;
    double miss;  // IK error when delivered: the frame is complete
  };
  std::vector<Seen> seen;
  auto drain = [&] {
    s.drain(
        [&](const FiredEvent& e, int track) {
          seen.push_back({"event " + rig.data->events[static_cast<std::size_t>(e.event)].name, track,
                          tip_miss(s.pose(), rig.lower, rig.target)});
        },
        [&](const anim::TrackSignal& sig) {
          static const char* kNames[] = {"started", "interrupted", "ended", "completed", "disposed"};
          seen.push_back({std::string(kNames[static_cast<int>(sig.kind)]) + " " +
                              (sig.clip < 0 ? std::string("empty") : rig.data->clips[static_cast<std::size_t>(sig.clip)].name),
                          sig.track, tip_miss(s.pose(), rig.lower, rig.target)});
        });
  };

  s.update(0.4f);
  drain();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].what, "started a");
  EXPECT_TRUE(s.events().empty());

  s.update(0.2f);  // crosses the event at 0.5 s
  ASSERT_EQ(s.events().size(), 1u);
  EXPECT_EQ(s.event_track(s.events()[0]), 0);
  drain();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].what, "event beat");
  EXPECT_EQ(seen[1].track, 0);
  EXPECT_LT(seen[1].miss, kReach);
  drain();  // each event is delivered once
  EXPECT_EQ(seen.size(), 2u);

  // b queued after a's end with a 0.2 s mix, then an empty entry on track 1 that ends by itself.
  s.tracks().set_default_mix(0.2f);
  s.tracks().add_clip(0, rig.clip_b, false, 0);
  s.tracks().set_clip(1, rig.clip_b, false);
  s.update(0.3f);  // a at 0.9 s: b has started mixing in at 0.8 s
  drain();
  s.tracks().set_empty(1, 0.1f);
  for (int i = 0; i < 4; ++i) {
    s.update(0.1f);
    drain();
  }
  std::vector<std::string> order;
  for (std::size_t i = 2; i < seen.size(); ++i) order.push_back(seen[i].what + "@" + std::to_string(seen[i].track));
  const std::vector<std::string> expected = {
      "started b@1", "interrupted a@0", "started b@0",  // frame 3
      "interrupted b@1", "started empty@1",             // set_empty, first tick
      "completed a@0",                                   // a reaches 1 s while mixing out
      "ended b@1", "disposed b@1",                       // b on track 1 fully mixed out
      "ended a@0", "disposed a@0",                       // b on track 0 fully mixed in
      "ended empty@1", "disposed empty@1",              // the empty entry ends itself
  };
  for (const Seen& x : seen) EXPECT_LT(x.miss, kReach) << x.what;
  // Every expected signal, in order within its entry; print the whole sequence on failure.
  std::string all;
  for (const std::string& o : order) all += o + " ";
  for (const std::string& e : expected) EXPECT_NE(std::find(order.begin(), order.end(), e), order.end()) << e << " in " << all;
  auto before = [&](const std::string& x, const std::string& y) {
    return std::find(order.begin(), order.end(), x) < std::find(order.begin(), order.end(), y);
  };
  EXPECT_TRUE(before("started b@1", "interrupted b@1")) << all;
  EXPECT_TRUE(before("interrupted a@0", "started b@0")) << all;
  EXPECT_TRUE(before("interrupted a@0", "ended a@0")) << all;
  EXPECT_TRUE(before("ended a@0", "disposed a@0")) << all;
  EXPECT_TRUE(before("started empty@1", "ended empty@1")) << all;
  EXPECT_EQ(s.tracks().dropped_signals(), 0u);
}

TEST(AnimatedSkeleton, WalkToRunCrossfadeKeepsTheExampleLegsSolved) {
  const std::string path = MF_EXAMPLES_DIR "/mannequin/mannequin.mskel";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "example rig not present: " << path;
  auto built = offline::build_rig_file(path);
  ASSERT_TRUE(built) << built.error().to_string();
  const SkeletonData& d = *built->data;
  const int walk = d.find_clip("walk"), run = d.find_clip("run");
  ASSERT_GE(walk, 0);
  ASSERT_GE(run, 0);
  AnimatedSkeleton s(d);
  s.tracks().set_mix(walk, run, 0.3f);
  s.tracks().set_clip(0, walk, true);
  for (int i = 0; i < 24; ++i) s.update(1 / 60.0f);
  const anim::TrackEntryHandle entry = s.tracks().set_clip(0, run, true);
  for (int frame = 0; frame < 18; ++frame) {
    s.update(1 / 60.0f);
    const anim::TrackEntry* e = s.tracks().entry(entry);
    ASSERT_NE(e, nullptr);
    if (e->mix_fraction() <= 0.1f || e->mix_fraction() >= 0.9f) continue;  // mid-mix frames only
    for (const std::string side : {"l", "r"}) {
      const int shin = d.find_bone("shin_" + side), target = d.find_bone("foot_" + side + "_target");
      ASSERT_GE(shin, 0);
      ASSERT_GE(target, 0);
      EXPECT_LT(tip_miss(s.pose(), shin, target), 1e-2) << "frame " << frame << " shin_" << side;
    }
    s.drain([](const FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
  }
}

}  // namespace
}  // namespace mf::skel

namespace mf::skel {
namespace {

// advance_time: the tracks and the events go on exactly as with update(), the pose stays.
TEST(AnimatedSkeleton, AdvanceTimeFiresTheSameEventsAndLeavesThePose) {
  const std::string path = MF_EXAMPLES_DIR "/mannequin/mannequin.mskel";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "example rig not present: " << path;
  auto built = offline::build_rig_file(path);
  ASSERT_TRUE(built) << built.error().to_string();
  const SkeletonData& d = *built->data;
  AnimatedSkeleton posed(d), timed(d);
  posed.tracks().set_clip(0, d.find_clip("walk"), true);
  timed.tracks().set_clip(0, d.find_clip("walk"), true);
  timed.update(0.01f);
  posed.update(0.01f);
  const std::vector<float> hips_x = timed.pose().world_x;
  int fired = 0;
  for (int f = 0; f < 150; ++f) {
    posed.update(1 / 60.0f);
    timed.advance_time(1 / 60.0f);
    ASSERT_EQ(posed.events().size(), timed.events().size()) << "frame " << f;
    for (std::size_t i = 0; i < posed.events().size(); ++i) {
      EXPECT_EQ(posed.events()[i].event, timed.events()[i].event);
      EXPECT_EQ(posed.events()[i].time, timed.events()[i].time);
      ++fired;
    }
    posed.drain([](const FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
    timed.drain([](const FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
  }
  EXPECT_GE(fired, 4);  // two footsteps a second over 2.5 s
  EXPECT_EQ(timed.pose().world_x, hips_x);
}

}  // namespace
}  // namespace mf::skel
