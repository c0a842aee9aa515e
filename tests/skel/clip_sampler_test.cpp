#include "mf/skel/clip_sampler.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "test_rig.hpp"

namespace mf::skel {
namespace {

using anim::ClipBlend;
using anim::ClipSample;

// Sampled values are a few float operations from exact: compare to this.
constexpr float kTolerance = 1e-4f;

class ClipSamplerTest : public ::testing::Test {
 protected:
  ClipSamplerTest() {
    root_ = test::add_bone(data_, "root", -1);
    arm_ = test::add_bone(data_, "arm", root_, 10, 0, 10, 2, 1, 0, 0);
    leg_ = test::add_bone(data_, "leg", root_, 0, 5);
    body_ = test::add_slot(data_, "body", arm_, {255, 255, 255, 255});
    glow_ = test::add_slot(data_, "glow", leg_, {255, 0, 0, 255});
    data_.slots.has_dark[1] = 1;
    data_.slots.dark[1] = {0, 0, 0, 255};
    data_.events.push_back({"step", 7, 0.5f, "left", "", 1, 0});
  }

  int add(std::shared_ptr<ClipData> clip) { return test::add_clip(data_, std::move(clip)); }

  static std::shared_ptr<ClipData> clip(const char* name, float length) {
    auto c = std::make_shared<ClipData>();
    c->name = name;
    c->length = length;
    return c;
  }

  static ClipSample sample(int clip, float time, float weight = 1, int layer = 0, ClipBlend blend = ClipBlend::Replace) {
    ClipSample s;
    s.clip = clip;
    s.time = time;
    s.previous_time = time;
    s.weight = weight;
    s.layer = layer;
    s.blend = blend;
    return s;
  }

  void apply(SkeletonPose& pose, std::vector<ClipSample> samples) {
    ClipSampler sampler(data_);
    events_.clear();
    sampler.apply(pose, samples, events_);
  }

  SkeletonData data_;
  EventBuffer events_;
  int root_, arm_, leg_, body_, glow_;
};

TEST_F(ClipSamplerTest, BoneKeysAreRelativeToTheSetupPose) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::Rotate, arm_, 1, {0}, {35});
  test::add_timeline(*c, TimelineKind::Translate, arm_, 2, {0}, {3, -4});
  test::add_timeline(*c, TimelineKind::Scale, arm_, 2, {0}, {1.5f, 2});
  test::add_timeline(*c, TimelineKind::ShearY, arm_, 1, {0}, {12});
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.5f)});
  EXPECT_NEAR(pose.rotation[1], 45, kTolerance);  // 10 + 35
  EXPECT_NEAR(pose.x[1], 13, kTolerance);         // 10 + 3
  EXPECT_NEAR(pose.y[1], -4, kTolerance);
  EXPECT_NEAR(pose.scale_x[1], 3, kTolerance);    // 2 × 1.5
  EXPECT_NEAR(pose.scale_y[1], 2, kTolerance);
  EXPECT_NEAR(pose.shear_y[1], 12, kTolerance);
  EXPECT_NEAR(pose.shear_x[1], 0, kTolerance);
}

TEST_F(ClipSamplerTest, SingleComponentTimelines) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::TranslateY, arm_, 1, {0}, {6});
  test::add_timeline(*c, TimelineKind::ScaleX, arm_, 1, {0}, {0.5f});
  test::add_timeline(*c, TimelineKind::ShearX, arm_, 1, {0}, {-7});
  test::add_timeline(*c, TimelineKind::TranslateX, leg_, 1, {0}, {2});
  test::add_timeline(*c, TimelineKind::ScaleY, leg_, 1, {0}, {3});
  test::add_timeline(*c, TimelineKind::Shear, leg_, 2, {0}, {4, 5});
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0)});
  EXPECT_NEAR(pose.x[1], 10, kTolerance);
  EXPECT_NEAR(pose.y[1], 6, kTolerance);
  EXPECT_NEAR(pose.scale_x[1], 1, kTolerance);
  EXPECT_NEAR(pose.shear_x[1], -7, kTolerance);
  EXPECT_NEAR(pose.x[2], 2, kTolerance);
  EXPECT_NEAR(pose.scale_y[2], 3, kTolerance);
  EXPECT_NEAR(pose.shear_x[2], 4, kTolerance);
  EXPECT_NEAR(pose.shear_y[2], 5, kTolerance);
}

TEST_F(ClipSamplerTest, InterpolatesLinearSteppedAndBezierSegments) {
  auto c = clip("c", 2);
  test::add_timeline(*c, TimelineKind::TranslateX, arm_, 1, {0, 1, 2}, {0, 10, 20});
  c->curves[1] = anim::kCurveStepped;
  const std::size_t bez = test::add_timeline(*c, TimelineKind::TranslateX, leg_, 1, {0, 1}, {0, 100});
  c->beziers.push_back(anim::sample_bezier(0.25f, 0.1f, 0.25f, 1));
  c->curves[c->timelines[bez].curve_start] = anim::kCurveBezierBase;
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.25f)});
  EXPECT_NEAR(pose.x[1], 10 + 2.5f, kTolerance);  // linear quarter way
  apply(pose, {sample(id, 1.5f)});
  EXPECT_NEAR(pose.x[1], 10 + 10, kTolerance);  // stepped holds the key value
  apply(pose, {sample(id, 2.5f)});
  EXPECT_NEAR(pose.x[1], 10 + 20, kTolerance);  // past the last key
  apply(pose, {sample(id, 0.5f)});
  const float exact = 100 * anim::evaluate_bezier_exact(0.25f, 0.1f, 0.25f, 1, 0.5f);
  EXPECT_NEAR(pose.x[2], exact, 2.0f);  // ten pieces: within 2% of the value range
}

TEST_F(ClipSamplerTest, BeforeTheFirstKeyTheTimelineDoesNotApply) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::Rotate, arm_, 1, {0.5f, 1}, {90, 90});
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.25f)});
  EXPECT_NEAR(pose.rotation[1], 10, kTolerance);
}

TEST_F(ClipSamplerTest, ReplaceWeightMixesTowardsThePoseBelow) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::TranslateX, arm_, 1, {0}, {20});
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0, 0.25f)});
  EXPECT_NEAR(pose.x[1], 10 + 0.25f * 20, kTolerance);
}

TEST_F(ClipSamplerTest, CrossfadeIsAWeightedAverageWithoutDip) {
  auto a = clip("a", 1), b = clip("b", 1);
  test::add_timeline(*a, TimelineKind::TranslateX, arm_, 1, {0}, {20});
  test::add_timeline(*b, TimelineKind::TranslateX, arm_, 1, {0}, {40});
  test::add_timeline(*a, TimelineKind::TranslateY, arm_, 1, {0}, {8});  // only A keys y
  const int ia = add(a), ib = add(b);
  SkeletonPose pose(data_);
  apply(pose, {sample(ia, 0, 0.7f), sample(ib, 0, 0.3f)});
  EXPECT_NEAR(pose.x[1], 0.7f * 30 + 0.3f * 50, kTolerance);  // (1 − m)·A + m·B
  EXPECT_NEAR(pose.y[1], 0.7f * 8, kTolerance);               // A mixes out towards the setup pose
}

// Scale in a crossfade: magnitudes average, the sign is the newest sample's that keys it.
constexpr float kScaleTolerance = 1e-5f;

TEST_F(ClipSamplerTest, ScaleCrossfadeKeepsTheMagnitudeAndTakesTheIncomingSign) {
  // The parent (root, setup scale 1) turns around: A keys scale X −1, B keys 1; scale Y stays 1.
  auto a = clip("a", 1), b = clip("b", 1);
  test::add_timeline(*a, TimelineKind::Scale, root_, 2, {0}, {-1, 1});
  test::add_timeline(*b, TimelineKind::Scale, root_, 2, {0}, {1, 1});
  const int ia = add(a), ib = add(b);
  SkeletonPose pose(data_);
  // The mix's start: B has no weight yet, A shows.
  apply(pose, {sample(ia, 0, 1), sample(ib, 0, 0)});
  EXPECT_NEAR(pose.scale_x[0], -1, kScaleTolerance);
  // From the first mixed frame on: full size, B's sign.
  for (float m : {0.01f, 0.25f, 0.5f, 0.75f, 1.0f}) {
    apply(pose, {sample(ia, 0, 1 - m), sample(ib, 0, m)});
    EXPECT_NEAR(pose.scale_x[0], 1, kScaleTolerance) << m;
    EXPECT_NEAR(pose.scale_y[0], 1, kScaleTolerance) << m;
  }
  // The other way round the incoming sign is negative.
  apply(pose, {sample(ib, 0, 0.75f), sample(ia, 0, 0.25f)});
  EXPECT_NEAR(pose.scale_x[0], -1, kScaleTolerance);
}

TEST_F(ClipSamplerTest, ScaleMagnitudesAverageLinearly) {
  // arm: setup scale X 2. A keys ×(−1.5) (−3), B ×0.5 (1): the magnitude moves from 3 to 1 linearly.
  auto a = clip("a", 1), b = clip("b", 1);
  test::add_timeline(*a, TimelineKind::ScaleX, arm_, 1, {0}, {-1.5f});
  test::add_timeline(*b, TimelineKind::ScaleX, arm_, 1, {0}, {0.5f});
  const int ia = add(a), ib = add(b);
  SkeletonPose pose(data_);
  for (float m : {0.25f, 0.5f, 0.9f}) {
    apply(pose, {sample(ia, 0, 1 - m), sample(ib, 0, m)});
    EXPECT_NEAR(pose.scale_x[1], (1 - m) * 3 + m * 1, kTolerance) << m;
  }
  // Same signs: the ordinary weighted average.
  apply(pose, {sample(ib, 0, 0.5f), sample(ia, 0, 0.5f)});
  EXPECT_NEAR(pose.scale_x[1], -2, kTolerance);
}

TEST_F(ClipSamplerTest, ScaleSignOfManySamplesAndOfThePoseBelow) {
  auto neg = clip("neg", 1), pos = clip("pos", 1);
  test::add_timeline(*neg, TimelineKind::ScaleX, root_, 1, {0}, {-1});
  test::add_timeline(*pos, TimelineKind::ScaleX, root_, 1, {0}, {1});
  const int in = add(neg), ip = add(pos);
  SkeletonPose pose(data_);
  // Three samples (a crossfade interrupted by another): the newest's sign, whatever the weights.
  apply(pose, {sample(in, 0, 0.5f), sample(ip, 0, 0.4f), sample(in, 0, 0.1f)});
  EXPECT_NEAR(pose.scale_x[0], -1, kScaleTolerance);
  apply(pose, {sample(ip, 0, 0.1f), sample(in, 0, 0.3f), sample(ip, 0, 0.6f)});
  EXPECT_NEAR(pose.scale_x[0], 1, kScaleTolerance);
  // Only the outgoing clip keys it (mixing out towards the setup pose's 1): the pose below adds its
  // magnitude, the sign stays the sample's until the sample is gone.
  apply(pose, {sample(in, 0, 0.3f)});
  EXPECT_NEAR(pose.scale_x[0], -1, kScaleTolerance);
  // A layer above, at weight 0.25 over layer 0's 1: full size, the layer's sign.
  apply(pose, {sample(ip, 0), sample(in, 0, 0.25f, 1)});
  EXPECT_NEAR(pose.scale_x[0], -1, kScaleTolerance);
  // An additive sample adds (sampled − setup) × weight: no sign of its own, it passes through 0.
  apply(pose, {sample(ip, 0), sample(in, 0, 0.25f, 1, ClipBlend::Additive)});
  EXPECT_NEAR(pose.scale_x[0], 1 + 0.25f * (-1 - 1), kScaleTolerance);
  apply(pose, {sample(ip, 0), sample(in, 0, 0.5f, 1, ClipBlend::Additive)});
  EXPECT_NEAR(pose.scale_x[0], 0, kScaleTolerance);
}

TEST_F(ClipSamplerTest, RotationAveragesAlongTheShortestArc) {
  auto a = clip("a", 1), b = clip("b", 1);
  test::add_timeline(*a, TimelineKind::Rotate, leg_, 1, {0}, {170});
  test::add_timeline(*b, TimelineKind::Rotate, leg_, 1, {0}, {-170});
  const int ia = add(a), ib = add(b);
  SkeletonPose pose(data_);
  apply(pose, {sample(ia, 0, 0.5f), sample(ib, 0, 0.5f)});
  EXPECT_NEAR(std::fabs(pose.rotation[2]), 180, kTolerance);
  apply(pose, {sample(ia, 0, 0.75f), sample(ib, 0, 0.25f)});
  EXPECT_NEAR(pose.rotation[2], 175, kTolerance);
}

// A mix between 179° and −179° where B turns further: without a latch the short way flips when the
// difference passes 180°; with a latch the arc stays continuous.
TEST_F(ClipSamplerTest, LatchedRotationNeverFlipsMidMix) {
  auto a = clip("a", 1), b = clip("b", 1);
  test::add_timeline(*a, TimelineKind::Rotate, leg_, 1, {0}, {179});
  test::add_timeline(*b, TimelineKind::Rotate, leg_, 1, {0, 1}, {-179, -150});
  const int ia = add(a), ib = add(b);
  std::vector<float> latch(data_.bones.size(), std::numeric_limits<float>::quiet_NaN());
  SkeletonPose pose(data_);
  float previous = 0;
  for (int frame = 0; frame <= 10; ++frame) {
    const float t = frame / 10.0f;
    ClipSample sa = sample(ia, 0, 0.5f), sb = sample(ib, t, 0.5f);
    sb.rotation_latch = latch.data();
    apply(pose, {sa, sb});
    const float r = pose.rotation[2];
    if (frame > 0) {
      EXPECT_LT(std::fabs(std::remainder(r - previous, 360.0f)), 5.0f) << "frame " << frame;
    }
    previous = r;
  }
  // B went from −179 (2° past A the short way) to −150 (31° past A): the average keeps going that way.
  EXPECT_NEAR(std::remainder(previous - (179 + 31.0f / 2), 360.0f), 0, kTolerance);
}

TEST_F(ClipSamplerTest, AdditiveAddsTheDifferenceFromSetup) {
  auto base = clip("base", 1), add_clip = clip("add", 1);
  test::add_timeline(*base, TimelineKind::Rotate, arm_, 1, {0}, {20});
  test::add_timeline(*add_clip, TimelineKind::Rotate, arm_, 1, {0}, {10});
  test::add_timeline(*add_clip, TimelineKind::Scale, arm_, 2, {0}, {2, 1});
  const int ib = add(base), ia = add(add_clip);
  SkeletonPose pose(data_);
  apply(pose, {sample(ib, 0), sample(ia, 0, 0.5f, 1, ClipBlend::Additive)});
  EXPECT_NEAR(pose.rotation[1], 10 + 20 + 0.5f * 10, kTolerance);
  EXPECT_NEAR(pose.scale_x[1], 2 + 0.5f * (4 - 2), kTolerance);  // (setup × 2 − setup) × 0.5 added
}

TEST_F(ClipSamplerTest, HigherLayersReplaceByTheirWeight) {
  auto base = clip("base", 1), top = clip("top", 1);
  test::add_timeline(*base, TimelineKind::TranslateX, leg_, 1, {0}, {10});
  test::add_timeline(*top, TimelineKind::TranslateX, leg_, 1, {0}, {30});
  const int ib = add(base), it = add(top);
  SkeletonPose pose(data_);
  apply(pose, {sample(ib, 0), sample(it, 0, 0.25f, 1)});
  EXPECT_NEAR(pose.x[2], 10 + 0.25f * 20, kTolerance);
}

TEST_F(ClipSamplerTest, BoneMasksKeepBonesOutside) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::TranslateX, arm_, 1, {0}, {5});
  test::add_timeline(*c, TimelineKind::TranslateX, leg_, 1, {0}, {5});
  test::add_timeline(*c, TimelineKind::Alpha, glow_, 1, {0}, {0.5f});  // glow is on the leg
  const int id = add(c);
  const std::vector<std::uint8_t> arm_only = {0, 1, 0};
  anim::BoneMask mask{arm_only};
  ClipSample s = sample(id, 0);
  s.mask = &mask;
  SkeletonPose pose(data_);
  apply(pose, {s});
  EXPECT_NEAR(pose.x[1], 15, kTolerance);
  EXPECT_NEAR(pose.x[2], 0, kTolerance);
  EXPECT_NEAR(pose.color[1].a, 1, kTolerance);
}

TEST_F(ClipSamplerTest, SlotColoursAndTwoColourTint) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::Rgba, body_, 4, {0, 1}, {1, 1, 1, 1, 0, 0.5f, 1, 0});
  test::add_timeline(*c, TimelineKind::Rgb2, glow_, 6, {0}, {0.2f, 0.4f, 0.6f, 0.1f, 0.2f, 0.3f});
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.5f)});
  EXPECT_NEAR(pose.color[0].r, 0.5f, kTolerance);
  EXPECT_NEAR(pose.color[0].g, 0.75f, kTolerance);
  EXPECT_NEAR(pose.color[0].b, 1, kTolerance);
  EXPECT_NEAR(pose.color[0].a, 0.5f, kTolerance);
  EXPECT_NEAR(pose.color[1].g, 0.4f, kTolerance);
  EXPECT_NEAR(pose.color[1].a, 1, kTolerance);  // rgb2 leaves alpha alone
  EXPECT_NEAR(pose.dark[1].b, 0.3f, kTolerance);
}

TEST_F(ClipSamplerTest, AlphaAndRgbAndRgba2) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::Alpha, body_, 1, {0}, {0.25f});
  test::add_timeline(*c, TimelineKind::Rgb, body_, 3, {0}, {0, 0.5f, 0});
  test::add_timeline(*c, TimelineKind::Rgba2, glow_, 7, {0}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f});
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0)});
  EXPECT_NEAR(pose.color[0].a, 0.25f, kTolerance);
  EXPECT_NEAR(pose.color[0].g, 0.5f, kTolerance);
  EXPECT_NEAR(pose.color[1].a, 0.4f, kTolerance);
  EXPECT_NEAR(pose.dark[1].r, 0.5f, kTolerance);
  EXPECT_NEAR(pose.dark[1].b, 0.7f, kTolerance);
}

class DiscreteTest : public ClipSamplerTest {
 protected:
  DiscreteTest() {
    open_ = test::intern(data_, "open");
    closed_ = test::intern(data_, "closed");
    data_.attachments.resize(2);
    data_.attachments[0].slot = body_;
    data_.attachments[0].name = open_;
    data_.attachments[1].slot = body_;
    data_.attachments[1].name = closed_;
    data_.slots.setup_attachment[0] = open_;
    data_.skins.push_back({"default", {{body_, open_, 0}, {body_, closed_, 1}}, {}, {}});
  }
  std::int32_t open_, closed_;
};

TEST_F(DiscreteTest, AttachmentKeysTakeTheHeaviestSampleAboveItsThreshold) {
  auto a = clip("a", 1), b = clip("b", 1);
  test::add_timeline(*a, TimelineKind::Attachment, body_, 1, {0}, {static_cast<float>(closed_)}, 0);
  test::add_timeline(*b, TimelineKind::Attachment, body_, 1, {0}, {-1.0f}, 0);
  const int ia = add(a), ib = add(b);
  SkeletonPose pose(data_);
  EXPECT_EQ(pose.attachment[0], 0);  // setup
  apply(pose, {sample(ia, 0, 0.6f), sample(ib, 0, 0.4f)});
  EXPECT_EQ(pose.attachment[0], 1);
  apply(pose, {sample(ia, 0, 0.3f), sample(ib, 0, 0.7f)});
  EXPECT_EQ(pose.attachment[0], -1);
  apply(pose, {sample(ia, 0, 0.4f)});  // below the threshold: left alone
  EXPECT_EQ(pose.attachment[0], 0);
}

TEST_F(DiscreteTest, DrawOrderKeys) {
  auto c = clip("c", 1);
  const std::size_t t = test::add_timeline(*c, TimelineKind::DrawOrder, -1, 0, {0.5f}, {}, 0);
  c->timelines[t].value_start = 0;
  c->draw_orders = {1, 0};
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.2f)});
  EXPECT_EQ(pose.draw_order[0], 0);
  apply(pose, {sample(id, 0.6f)});
  EXPECT_EQ(pose.draw_order[0], 1);
  EXPECT_EQ(pose.draw_order[1], 0);
  ClipSample light = sample(id, 0.6f, 0.3f);
  apply(pose, {light});
  EXPECT_EQ(pose.draw_order[0], 0);  // below the draw-order threshold
}

TEST_F(DiscreteTest, SequenceKeysPickTheFrame) {
  data_.attachments[0].region_count = 4;  // "open" is a four-frame sequence
  auto c = clip("c", 2);
  const std::size_t t = test::add_timeline(*c, TimelineKind::Sequence, body_, 3, {0, 1},
                                           {static_cast<float>(SequenceMode::Loop), 0, 0.1f,
                                            static_cast<float>(SequenceMode::Hold), 3, 0}, 0);
  (void)t;
  const int id = add(c);
  SkeletonPose pose(data_);
  EXPECT_EQ(pose.sequence_index[0], -1);  // the setup frame
  apply(pose, {sample(id, 0.25f)});
  EXPECT_EQ(pose.sequence_index[0], 2);  // 0.25 s at 0.1 s per frame
  apply(pose, {sample(id, 0.55f)});
  EXPECT_EQ(pose.sequence_index[0], 1);  // frame 5 wraps to 1
  apply(pose, {sample(id, 1.5f)});
  EXPECT_EQ(pose.sequence_index[0], 3);  // held at the second key's start frame
}

TEST_F(ClipSamplerTest, InheritKeys) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::Inherit, leg_, 1, {0, 0.5f}, {0, static_cast<float>(Inherit::NoScale)}, 0);
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.7f)});
  EXPECT_EQ(pose.inherit[2], Inherit::NoScale);
  apply(pose, {sample(id, 0.2f)});
  EXPECT_EQ(pose.inherit[2], Inherit::Normal);
}

TEST_F(ClipSamplerTest, EventsFireInTheWindowIncludingLoopWraps) {
  auto c = clip("c", 1);
  c->events = {{0, 0, 7, 0.5f, -1, 1, 0}, {0.5f, 0, 9, 1.5f, 0, 1, 0}};
  c->strings = {"right"};
  const int id = add(c);
  SkeletonPose pose(data_);

  ClipSample s = sample(id, 0.5f);
  s.previous_time = 0;
  apply(pose, {s});
  ASSERT_EQ(events_.events().size(), 1u);  // (0, 0.5]: the key at 0 is excluded
  EXPECT_EQ(events_.events()[0].int_value, 9);
  EXPECT_EQ(*events_.events()[0].string_value, "right");

  s.first = true;  // the first evaluation includes its start time
  apply(pose, {s});
  ASSERT_EQ(events_.events().size(), 2u);
  EXPECT_EQ(*events_.events()[0].string_value, "left");

  ClipSample wrap = sample(id, 0.2f);
  wrap.previous_time = 0.8f;
  wrap.loops = 1;  // (0.8, 1] then [0, 0.2]
  apply(pose, {wrap});
  ASSERT_EQ(events_.events().size(), 1u);
  EXPECT_EQ(events_.events()[0].time, 0);

  wrap.previous_time = 0.4f;
  wrap.loops = 2;  // (0.4, 1], [0, 1], [0, 0.2]
  apply(pose, {wrap});
  EXPECT_EQ(events_.events().size(), 4u);

  ClipSample gated = s;
  gated.first = false;
  gated.weight = 0.3f;
  gated.event_threshold = 0.5f;
  apply(pose, {gated});
  EXPECT_EQ(events_.events().size(), 0u);
}

TEST_F(ClipSamplerTest, ConstraintTimelinesWriteTheirParameters) {
  data_.ik.push_back({"ik", {1}, 2, 1, 0, 1, false, false, false, false});
  data_.transform.push_back({"tc", {1}, 2});
  data_.path.push_back({"pc", {1}, 0});
  data_.physics.push_back({"ph", 1});
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::Ik, 0, 5, {0}, {0.5f, 4, -1, 1, 0}, 2, 0b00101);  // mix and bend keyed
  test::add_timeline(*c, TimelineKind::Transform, 0, 6, {0}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f});
  test::add_timeline(*c, TimelineKind::Path, 0, 5, {0}, {7, 8, 0.1f, 0.2f, 0.3f}, 5, 0b00011);
  test::add_timeline(*c, TimelineKind::PhysicsMass, 0, 1, {0}, {4});
  test::add_timeline(*c, TimelineKind::PhysicsWind, 0, 1, {0}, {2});
  test::add_timeline(*c, TimelineKind::PhysicsReset, 0, 0, {0.5f}, {}, 0);
  const int id = add(c);
  SkeletonPose pose(data_);
  ClipSample s = sample(id, 0.6f);
  s.previous_time = 0.4f;
  apply(pose, {s});
  EXPECT_NEAR(pose.ik[0].mix, 0.5f, kTolerance);
  EXPECT_NEAR(pose.ik[0].softness, 0, kTolerance);  // not keyed: setup
  EXPECT_EQ(pose.ik[0].bend, -1);
  EXPECT_FALSE(pose.ik[0].compress);
  EXPECT_NEAR(pose.transform[0].mix_y, 0.3f, kTolerance);
  EXPECT_NEAR(pose.transform[0].mix_shear_y, 0.6f, kTolerance);
  EXPECT_NEAR(pose.path[0].position, 7, kTolerance);
  EXPECT_NEAR(pose.path[0].spacing, 8, kTolerance);
  EXPECT_NEAR(pose.path[0].mix_rotate, 1, kTolerance);  // not keyed
  EXPECT_NEAR(pose.physics[0].mass_inverse, 0.25f, kTolerance);
  EXPECT_NEAR(pose.physics[0].wind, 2, kTolerance);
  EXPECT_EQ(pose.physics[0].reset_count, 1u);
  apply(pose, {s});
  EXPECT_EQ(pose.physics[0].reset_count, 2u);  // each pass over the key resets again
  s.previous_time = 0.55f;
  apply(pose, {s});
  EXPECT_EQ(pose.physics[0].reset_count, 2u);
}

// A lone full-weight Replace sample is written straight into the pose; the result must be what the
// weighted average of that one sample gives. A second sample of weight 0 in the same layer forces the
// averaging path without changing the average.
TEST_F(ClipSamplerTest, ALoneFullWeightSampleEqualsItsAverage) {
  data_.ik.push_back({"ik", {1}, 2, 1, 0, 1, false, false, false, false});
  data_.transform.push_back({"tc", {1}, 2});
  data_.path.push_back({"pc", {1}, 0});
  data_.physics.push_back({"ph", 1});
  data_.slot_deform_floats[0] = 8;
  data_.attachments.resize(1);
  data_.attachments[0].kind = AttachmentKind::Mesh;
  data_.attachments[0].slot = body_;
  data_.attachments[0].deform_source = 0;
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::Rotate, arm_, 1, {0, 1}, {-30, 250});
  test::add_timeline(*c, TimelineKind::Translate, arm_, 2, {0, 1}, {3, -4, 7, 9});
  test::add_timeline(*c, TimelineKind::Scale, leg_, 2, {0, 1}, {-1.5f, 2, 0.5f, -3});
  test::add_timeline(*c, TimelineKind::ShearX, leg_, 1, {0, 1}, {5, -5});
  test::add_timeline(*c, TimelineKind::Rgba2, glow_, 7, {0, 1}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 1, 1, 1, 1, 0, 0, 0});
  test::add_timeline(*c, TimelineKind::Alpha, body_, 1, {0, 1}, {1.5f, -0.5f});  // clamped
  test::add_timeline(*c, TimelineKind::Ik, 0, 5, {0, 1}, {0.5f, 4, -1, 1, 0, 1, 8, 1, 0, 1}, 2);
  test::add_timeline(*c, TimelineKind::Transform, 0, 6, {0}, {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f});
  test::add_timeline(*c, TimelineKind::Path, 0, 5, {0}, {7, 8, 0.1f, 0.2f, 0.3f}, 5, 0b00011);
  test::add_timeline(*c, TimelineKind::PhysicsMass, 0, 1, {0, 1}, {4, 2});
  const std::size_t t = test::add_timeline(*c, TimelineKind::Deform, 0, 0, {0, 1}, {}, 1);
  c->timelines[t].value_start = 0;
  c->curves.push_back(anim::kCurveLinear);
  c->timelines[t].curve_start = static_cast<std::uint32_t>(c->curves.size() - 1);
  c->values.insert(c->values.end(), {2, 4, 10, 20, 30});
  c->deform_keys = {{2, 2, static_cast<std::uint32_t>(c->values.size() - 5)},
                    {4, 3, static_cast<std::uint32_t>(c->values.size() - 3)}};
  const int id = add(c);
  ASSERT_TRUE(data_.clip(id)->keys_each_property_once);
  const int empty = add(clip("empty", 1));

  for (float time : {0.0f, 0.3f, 0.75f, 1.0f}) {
    SkeletonPose direct(data_), averaged(data_);
    apply(direct, {sample(id, time)});
    apply(averaged, {sample(id, time), sample(empty, time, 0)});
    for (std::size_t b = 0; b < data_.bones.size(); ++b) {
      EXPECT_EQ(direct.rotation[b], averaged.rotation[b]) << b;
      EXPECT_EQ(direct.x[b], averaged.x[b]) << b;
      EXPECT_EQ(direct.y[b], averaged.y[b]) << b;
      EXPECT_EQ(direct.scale_x[b], averaged.scale_x[b]) << b;
      EXPECT_EQ(direct.scale_y[b], averaged.scale_y[b]) << b;
      EXPECT_EQ(direct.shear_x[b], averaged.shear_x[b]) << b;
    }
    for (std::size_t s = 0; s < data_.slots.size(); ++s) {
      EXPECT_EQ(direct.color[s].r, averaged.color[s].r) << s;
      EXPECT_EQ(direct.color[s].a, averaged.color[s].a) << s;
      EXPECT_EQ(direct.dark[s].b, averaged.dark[s].b) << s;
    }
    EXPECT_EQ(direct.deform_attachment[0], averaged.deform_attachment[0]);
    for (std::size_t k = 0; k < 8; ++k) EXPECT_EQ(direct.deform[k], averaged.deform[k]) << k;
    EXPECT_EQ(direct.ik[0].mix, averaged.ik[0].mix);
    EXPECT_EQ(direct.ik[0].bend, averaged.ik[0].bend);
    EXPECT_EQ(direct.ik[0].compress, averaged.ik[0].compress);
    EXPECT_EQ(direct.transform[0].mix_scale_y, averaged.transform[0].mix_scale_y);
    EXPECT_EQ(direct.path[0].spacing, averaged.path[0].spacing);
    EXPECT_EQ(direct.physics[0].mass_inverse, averaged.physics[0].mass_inverse);
  }
}

// Two timelines keying one property average, so such a clip is never written directly.
TEST_F(ClipSamplerTest, APropertyKeyedTwiceAverages) {
  auto c = clip("c", 1);
  test::add_timeline(*c, TimelineKind::Translate, arm_, 2, {0}, {4, 6});
  test::add_timeline(*c, TimelineKind::TranslateX, arm_, 1, {0}, {8});
  const int id = add(c);
  EXPECT_FALSE(data_.clip(id)->keys_each_property_once);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.5f)});
  EXPECT_NEAR(pose.x[1], 16, kTolerance);  // 10 + (4 + 8) / 2
  EXPECT_NEAR(pose.y[1], 6, kTolerance);

  auto other = clip("other", 1);
  test::add_timeline(*other, TimelineKind::TranslateX, arm_, 1, {0}, {8});
  test::add_timeline(*other, TimelineKind::TranslateY, arm_, 1, {0}, {8});
  test::add_timeline(*other, TimelineKind::TranslateX, leg_, 1, {0}, {8});
  EXPECT_TRUE(data_.clip(add(other))->keys_each_property_once);
}

TEST_F(ClipSamplerTest, EveryPhysicsParameterTimeline) {
  data_.physics.push_back({"ph", 1});
  auto c = clip("c", 1);
  const TimelineKind kinds[] = {TimelineKind::PhysicsInertia, TimelineKind::PhysicsStrength, TimelineKind::PhysicsDamping,
                                TimelineKind::PhysicsMass, TimelineKind::PhysicsWind, TimelineKind::PhysicsGravity,
                                TimelineKind::PhysicsMix};
  for (int k = 0; k < 7; ++k) test::add_timeline(*c, kinds[k], 0, 1, {0, 1}, {0, static_cast<float>(2 * (k + 1))});
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.5f)});
  const PhysicsPose& p = pose.physics[0];
  EXPECT_NEAR(p.inertia, 1, kTolerance);
  EXPECT_NEAR(p.strength, 2, kTolerance);
  EXPECT_NEAR(p.damping, 3, kTolerance);
  EXPECT_NEAR(p.mass_inverse, 1 / 4.0f, kTolerance);
  EXPECT_NEAR(p.wind, 5, kTolerance);
  EXPECT_NEAR(p.gravity, 6, kTolerance);
  EXPECT_NEAR(p.mix, 7, kTolerance);
}

TEST_F(ClipSamplerTest, DeformKeysInterpolateSparseOffsets) {
  data_.slot_deform_floats[0] = 8;
  data_.attachments.resize(1);
  data_.attachments[0].kind = AttachmentKind::Mesh;
  data_.attachments[0].slot = body_;
  data_.attachments[0].deform_source = 0;
  auto c = clip("c", 1);
  const std::size_t t = test::add_timeline(*c, TimelineKind::Deform, 0, 0, {0, 1}, {}, 1);
  c->timelines[t].value_start = 0;
  c->curves.push_back(anim::kCurveLinear);
  c->timelines[t].curve_start = static_cast<std::uint32_t>(c->curves.size() - 1);
  c->values = {2, 4, 10, 20, 30};
  c->deform_keys = {{2, 2, 0}, {4, 3, 2}};  // key 0: floats 2..3; key 1: floats 4..6
  const int id = add(c);
  SkeletonPose pose(data_);
  apply(pose, {sample(id, 0.5f)});
  EXPECT_EQ(pose.deform_attachment[0], 0);
  const float* d = pose.deform.data() + pose.deform_start[0];
  const float expected[8] = {0, 0, 1, 2, 5, 10, 15, 0};
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(d[i], expected[i], kTolerance) << i;
  apply(pose, {sample(id, 0.5f, 0.5f)});
  EXPECT_NEAR(d[5], 5, kTolerance);  // half weight over zero offsets
}

TEST_F(ClipSamplerTest, ForwardPlaySeekAndFreshEvaluationAgree) {
  auto c = clip("c", 4);
  std::vector<float> times, values;
  for (int k = 0; k <= 40; ++k) {
    times.push_back(k * 0.1f);
    values.push_back(std::sin(k * 0.7f) * 30);
  }
  Timeline tl{TimelineKind::Rotate, 1, 1, 0xff, arm_, 0, static_cast<std::uint32_t>(times.size()), 0, 0};
  c->times = times;
  c->values = values;
  c->curves.assign(times.size() - 1, anim::kCurveLinear);
  c->timelines.push_back(tl);
  const int id = add(c);
  SkeletonPose played(data_);
  ClipSampler sampler(data_);
  EventBuffer events;
  const float probe[] = {0.05f, 0.1f, 0.17f, 0.33f, 1.2f, 3.99f, 4.5f, 0.01f, 2.0f, 2.05f, 0.0f};
  for (float t : probe) {
    ClipSample s = sample(id, t);
    sampler.apply(played, {&s, 1}, events);
    SkeletonPose fresh(data_);
    ClipSampler(data_).apply(fresh, {&s, 1}, events);
    EXPECT_EQ(played.rotation[1], fresh.rotation[1]) << t;
  }
}

TEST_F(ClipSamplerTest, UnloadedClipsAreSkipped) {
  data_.clips.push_back({"later", 1, nullptr});
  SkeletonPose pose(data_);
  apply(pose, {sample(0, 0.5f)});
  EXPECT_NEAR(pose.x[1], 10, kTolerance);
}

}  // namespace
}  // namespace mf::skel
