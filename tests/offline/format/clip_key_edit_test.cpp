// Key edits addressed by target and timeline (apply_key_edit, apply_key_edits) and their reader
// (read_key_edits): every timeline kind keyed and removed, constraint channels that join a timeline
// late, curves set once every key is placed, failures that name the field and change nothing, and
// --v / --curve text read as the JSON a --keys file holds.

#include <gtest/gtest.h>

#include <vector>

#include "mf/offline/format/clip_edit.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/clip_key_edit.hpp"
#include "mf/offline/format/clip_key_reader.hpp"

namespace mf::offline {
namespace {

SkeletonSource make_skeleton() {
  SkeletonSource s;
  s.uid = "skl_0123456789ab";
  s.bones = {Bone{.name = "root"}, Bone{.name = "hips", .parent = 0}, Bone{.name = "arm", .parent = 1}};
  s.slots = {Slot{.name = "body", .bone = 1}, Slot{.name = "arm", .bone = 2}};
  Skin skin;
  skin.name = "default";
  skin.attachments.push_back(Attachment{0, "body", RegionAttachment{}});
  s.skins.push_back(skin);
  s.ik.push_back(IkConstraint{.name = "leg_ik", .bones = {1, 2}, .target = 0, .mix = 0.75f, .softness = 3});
  s.transform.push_back(TransformConstraint{.name = "follow", .bones = {2}, .target = 1});
  s.events = {EventDef{.name = "footstep"}, EventDef{.name = "land"}};
  return s;
}

ClipSource make_clip() {
  ClipSource c;
  c.uid = "anm_0123456789ab";
  c.skeleton_uid = "skl_0123456789ab";
  c.length = 2;
  return c;
}

KeyEdit edit(KeyTarget target, std::string name, std::string_view timeline, float t) {
  KeyEdit e;
  e.name = std::move(name);
  e.timeline = *find_key_timeline(target, timeline);
  e.t = t;
  return e;
}

KeyEdit numbers(KeyTarget target, std::string name, std::string_view timeline, float t, std::vector<float> v,
                std::vector<Curve> curve = {}) {
  KeyEdit e = edit(target, std::move(name), timeline, t);
  e.values = std::move(v);
  e.curve = std::move(curve);
  return e;
}

const CurveTimeline* find(const ClipSource& c, const std::string& target, CurveKind kind) {
  for (const CurveTimeline& tl : c.curves)
    if (tl.target == target && tl.kind == kind) return &tl;
  return nullptr;
}

// The clip reads back against the skeleton, canonically.
void expect_valid(const ClipSource& clip, const SkeletonSource& sk) {
  const std::string text = write_clip(clip);
  auto again = read_clip(text, "edited.manim", &sk);
  ASSERT_TRUE(again.ok()) << again.error().to_string() << "\n" << text;
  EXPECT_EQ(*again, clip);
}

TEST(KeyTimelines, NamesFollowTheFormat) {
  EXPECT_EQ(key_timeline_names(KeyTarget::Slot),
            (std::vector<std::string_view>{"attachment", "rgba", "rgb", "alpha", "rgba2", "rgb2", "sequence"}));
  EXPECT_EQ(key_timeline_names(KeyTarget::Ik),
            (std::vector<std::string_view>{"mix", "softness", "bend", "compress", "stretch"}));
  EXPECT_EQ(key_timeline_names(KeyTarget::Physics).back(), "reset");
  EXPECT_EQ(key_timeline_names(KeyTarget::Bone).back(), "inherit");
  EXPECT_TRUE(key_timeline_names(KeyTarget::Event).empty());
  EXPECT_FALSE(find_key_timeline(KeyTarget::Ik, "rotate"));
  EXPECT_FALSE(find_key_timeline(KeyTarget::Event, "rotate"));
  const KeyTimeline bend = *find_key_timeline(KeyTarget::Ik, "bend");
  EXPECT_EQ(bend.kind, KeyKind::Channel);
  EXPECT_EQ(bend.channel, 2);
  EXPECT_FALSE(bend.curved());
  EXPECT_TRUE(find_key_timeline(KeyTarget::Ik, "softness")->curved());
  EXPECT_FALSE(find_key_timeline(KeyTarget::Slot, "attachment")->curved());
}

TEST(ApplyKeyEdit, EveryKindKeysAndReadsBack) {
  const SkeletonSource sk = make_skeleton();
  ClipSource clip = make_clip();
  std::vector<KeyEdit> edits;
  edits.push_back(numbers(KeyTarget::Bone, "arm", "rotate", 0, {10}));
  edits.push_back(numbers(KeyTarget::Bone, "arm", "translate", 1, {1, 2}));
  KeyEdit inherit = edit(KeyTarget::Bone, "hips", "inherit", 0.5f);
  inherit.inherit = Inherit::NoScale;
  edits.push_back(inherit);
  KeyEdit hide = edit(KeyTarget::Slot, "body", "attachment", 0.25f);
  edits.push_back(hide);
  KeyEdit show = edit(KeyTarget::Slot, "body", "attachment", 0.75f);
  show.attachment = "body";
  edits.push_back(show);
  edits.push_back(numbers(KeyTarget::Slot, "arm", "rgb2", 0, {1, 0, 0, 0, 0, 1}));
  KeyEdit sequence = edit(KeyTarget::Slot, "arm", "sequence", 0);
  sequence.sequence = {SequenceMode::Loop, 1, 0.1f};
  edits.push_back(sequence);
  edits.push_back(numbers(KeyTarget::Transform, "follow", "mixY", 1, {0.5f}));
  edits.push_back(edit(KeyTarget::Physics, "hair", "reset", 0.5f));  // no such constraint
  std::vector<KeyEditResult> results = apply_key_edits(clip, edits, &sk);
  ASSERT_EQ(results.size(), edits.size());
  ASSERT_TRUE(results.back().failure);
  EXPECT_EQ(results.back().failure->field, KeyField::Target);
  EXPECT_EQ(results.back().failure->message,
            "no physics constraint named \"hair\"; the rig has no physics constraints");

  edits.pop_back();
  KeyEdit event = edit(KeyTarget::Event, "land", "", 1);
  event.event.int_value = 3;
  edits.push_back(event);
  clip = make_clip();
  results = apply_key_edits(clip, edits, &sk);
  ASSERT_EQ(results.size(), edits.size());
  for (const KeyEditResult& r : results) EXPECT_FALSE(r.failure) << r.failure->message;
  EXPECT_EQ(results[4].outcome.change, KeyChange::Added);
  EXPECT_EQ(results[4].outcome.keys, 2u);
  ASSERT_EQ(clip.attachments.size(), 1u);
  EXPECT_EQ(clip.attachments[0].names, (std::vector<std::optional<std::string>>{std::nullopt, "body"}));
  EXPECT_EQ(clip.inherits.at(0).values, (std::vector<Inherit>{Inherit::NoScale}));
  EXPECT_EQ(clip.sequences.at(0).keys, (std::vector<SequenceKey>{{SequenceMode::Loop, 1, 0.1f}}));
  const CurveTimeline* follow = find(clip, "follow", CurveKind::Transform);
  ASSERT_NE(follow, nullptr);
  EXPECT_EQ(follow->channels, 0b100u);
  EXPECT_EQ(clip.events.keys.at(0).int_value, 3);
  expect_valid(clip, sk);

  // Removing each key again leaves no timeline behind.
  for (KeyEdit e : edits) {
    e.remove = true;
    const KeyEditResult r = apply_key_edit(clip, e, &sk);
    EXPECT_FALSE(r.failure) << key_timeline_path(e) << ": " << r.failure->message;
  }
  EXPECT_TRUE(clip.curves.empty() && clip.attachments.empty() && clip.inherits.empty() && clip.sequences.empty() &&
              clip.events.empty());
}

// A channel keyed for the first time takes the constraint's setup value at the keys already there; a
// new key takes the other channels' values at its time.
TEST(ApplyKeyEdit, ConstraintChannelsJoinWithSetupValues) {
  const SkeletonSource sk = make_skeleton();
  ClipSource clip = make_clip();
  ASSERT_FALSE(apply_key_edit(clip, numbers(KeyTarget::Ik, "leg_ik", "mix", 0, {0}), &sk).failure);
  ASSERT_FALSE(apply_key_edit(clip, numbers(KeyTarget::Ik, "leg_ik", "mix", 2, {1}), &sk).failure);
  ASSERT_FALSE(apply_key_edit(clip, numbers(KeyTarget::Ik, "leg_ik", "softness", 1, {8}), &sk).failure);
  const CurveTimeline* ik = find(clip, "leg_ik", CurveKind::Ik);
  ASSERT_NE(ik, nullptr);
  EXPECT_EQ(ik->times, (std::vector<float>{0, 1, 2}));
  EXPECT_EQ(ik->channels, 0b11u);
  // mix: 0, 0.5 (linear at 1 s), 1; softness: setup 3, 8, setup 3.
  EXPECT_EQ(ik->values, (std::vector<float>{0, 3, 0, 0, 0, 0.5f, 8, 0, 0, 0, 1, 3, 0, 0, 0}));
  expect_valid(clip, sk);

  // A channel the timeline does not key has no keys to remove, even at a time the others key.
  KeyEdit bend = numbers(KeyTarget::Ik, "leg_ik", "bend", 1, {});
  bend.remove = true;
  const KeyEditResult none = apply_key_edit(clip, bend, &sk);
  ASSERT_TRUE(none.failure);
  EXPECT_EQ(none.failure->message, "the clip has no ik.leg_ik.bend keys to remove");
  EXPECT_EQ(find(clip, "leg_ik", CurveKind::Ik)->times.size(), 3u);

  // Without a skeleton the new value fills in.
  ClipSource loose = make_clip();
  ASSERT_FALSE(apply_key_edit(loose, numbers(KeyTarget::Ik, "any", "mix", 0, {0.25f}), nullptr).failure);
  ASSERT_FALSE(apply_key_edit(loose, numbers(KeyTarget::Ik, "any", "softness", 0, {5}), nullptr).failure);
  EXPECT_EQ(find(loose, "any", CurveKind::Ik)->values, (std::vector<float>{0.25f, 5, 0, 0, 0}));
}

// Keys given latest first, each with its curve: after the call every key's curve shapes the segment
// that follows it, as one key at a time in time order would.
TEST(ApplyKeyEdits, CurvesAreSetOnceEveryKeyIsPlaced) {
  const SkeletonSource sk = make_skeleton();
  const Curve a = Curve::bezier(0.1f, 0, 0.9f, 1), b = Curve::bezier(0.2f, 0, 0.8f, 1);
  ClipSource clip = make_clip();
  const std::vector<KeyEdit> edits = {numbers(KeyTarget::Bone, "arm", "rotate", 2, {0}, {Curve::stepped()}),
                                      numbers(KeyTarget::Bone, "arm", "rotate", 1, {20}, {b}),
                                      numbers(KeyTarget::Bone, "arm", "rotate", 0, {0}, {a})};
  for (const KeyEditResult& r : apply_key_edits(clip, edits, &sk)) ASSERT_FALSE(r.failure);
  const CurveTimeline* rotate = find(clip, "arm", CurveKind::Rotate);
  ASSERT_NE(rotate, nullptr);
  EXPECT_EQ(rotate->curves, (std::vector<Curve>{a, b}));  // the last key's "stepped" loses to the key before it

  // A curve per component, and a channel's curve alone.
  ASSERT_FALSE(apply_key_edit(clip, numbers(KeyTarget::Bone, "arm", "scale", 0, {1, 1}), &sk).failure);
  ASSERT_FALSE(apply_key_edit(clip, numbers(KeyTarget::Bone, "arm", "scale", 1, {2, 2}, {a, Curve::stepped()}), &sk).failure);
  EXPECT_EQ(find(clip, "arm", CurveKind::Scale)->curves, (std::vector<Curve>{a, Curve::stepped()}));
  expect_valid(clip, sk);
}

TEST(ApplyKeyEdit, FailuresNameTheFieldAndChangeNothing) {
  const SkeletonSource sk = make_skeleton();
  ClipSource clip = make_clip();
  ASSERT_FALSE(apply_key_edit(clip, numbers(KeyTarget::Bone, "arm", "rotate", 1, {5}), &sk).failure);
  const ClipSource before = clip;
  auto failure = [&](const KeyEdit& e) {
    const KeyEditResult r = apply_key_edit(clip, e, &sk, "rig.mskel");
    EXPECT_EQ(clip, before);
    return r.failure.value_or(KeyEditFailure{KeyField::Target, "(no failure)"});
  };
  KeyEditFailure f = failure(numbers(KeyTarget::Bone, "tail", "rotate", 1, {5}));
  EXPECT_EQ(f.field, KeyField::Target);
  EXPECT_EQ(f.message, "no bone named \"tail\" in rig.mskel; the bones are: root, hips, arm");
  f = failure(numbers(KeyTarget::Bone, "arm", "rotate", 2.5f, {5}));
  EXPECT_EQ(f.field, KeyField::Time);
  f = failure(numbers(KeyTarget::Bone, "arm", "translate", 1, {5}));
  EXPECT_EQ(f.field, KeyField::Value);
  EXPECT_EQ(f.message, "a translate key takes 2 values, found 1");
  f = failure(numbers(KeyTarget::Slot, "arm", "alpha", 1, {2}));
  EXPECT_EQ(f.message, "alpha must be from 0 to 1, found 2");
  f = failure(numbers(KeyTarget::Ik, "leg_ik", "bend", 1, {0}));
  EXPECT_EQ(f.message, "bend must be 1 or -1, found 0");
  f = failure(numbers(KeyTarget::Ik, "leg_ik", "bend", 1, {1}, {Curve::linear()}));
  EXPECT_EQ(f.field, KeyField::Curve);
  EXPECT_EQ(f.message, "bend keys are stepped: they take no curve");
  f = failure(numbers(KeyTarget::Bone, "arm", "rotate", 1, {5}, {Curve::bezier(1.5f, 0, 1, 1)}));
  EXPECT_EQ(f.message, "bezier x control value 1.5 is outside [0, 1]");
  KeyEdit attachment = edit(KeyTarget::Slot, "arm", "attachment", 1);
  attachment.attachment = "body";
  f = failure(attachment);
  EXPECT_EQ(f.message, "no skin has an attachment \"body\" for slot \"arm\"; its attachments are: (none) (or null for none)");
  KeyEdit remove = numbers(KeyTarget::Bone, "arm", "rotate", 0.5f, {});
  remove.remove = true;
  f = failure(remove);
  EXPECT_EQ(f.field, KeyField::Time);
  EXPECT_EQ(f.message, "no bones.arm.rotate key within 0.0001 s of 0.5; its keys are at [1]");
  remove.t = 1.00005f;  // within 1e-4 s
  EXPECT_FALSE(apply_key_edit(clip, remove, &sk).failure);
  EXPECT_TRUE(clip.curves.empty());
}

TEST(ReadKeyEdits, ReadsEveryFieldWithItsPosition) {
  const std::string text = R"([
  {"slot": "body", "timeline": "rgba2", "t": 0.5, "v": ["#ff000080", "#00ff00"], "curve": "ease"},
  {"event": "land", "t": 1, "float": 2.5, "balance": -0.5},
  {"ik": "leg_ik", "timeline": "compress", "t": 0, "v": true},
  {"bone": "arm", "timeline": "shear", "t": 0.25, "delete": true}
])";
  auto items = read_key_edits(text, "keys.json");
  ASSERT_TRUE(items.ok()) << items.error().to_string();
  ASSERT_EQ(items->size(), 4u);
  const KeyEditSource& first = (*items)[0];
  EXPECT_EQ(first.edit.values.size(), 7u);
  EXPECT_EQ(first.edit.curve, (std::vector<Curve>{kEaseCurve}));
  EXPECT_EQ(first.field_path(KeyField::Value), "keys[0].v");
  EXPECT_EQ(first.positions[static_cast<std::size_t>(KeyField::Value)].line, 2);
  EXPECT_EQ(first.positions[static_cast<std::size_t>(KeyField::Value)].column, 56);
  EXPECT_EQ((*items)[1].edit.event.float_value, 2.5f);
  EXPECT_EQ((*items)[1].edit.event.balance, -0.5f);
  EXPECT_EQ((*items)[1].field_path(KeyField::Target), "keys[1].event");
  EXPECT_EQ((*items)[2].edit.values, (std::vector<float>{1}));
  EXPECT_TRUE((*items)[3].edit.remove);

  auto error = [](const std::string& text) {
    auto r = read_key_edits(text, "keys.json");
    return r.ok() ? std::string("(read)") : r.error().to_string();
  };
  EXPECT_EQ(error(R"([{"bone": "arm", "timeline": "rotate", "t": 0, "v": 1, "cruve": "ease"}])"),
            "keys.json:1:65: keys[0].cruve: unknown key \"cruve\"; a key takes bone, slot, ik, transform, path, physics, "
            "event, timeline, t, v, curve, delete, and for events int, float, string, volume, balance");
  EXPECT_EQ(error(R"([{"bone": "arm", "timeline": "rotate", "t": 0}])"),
            "keys.json:1:2: keys[0]: missing required key \"v\" (the key's value)");
  EXPECT_EQ(error(R"([{"event": "land", "t": 0, "v": 1}])"),
            "keys.json:1:33: keys[0].v: an event key takes no \"v\"; its payload is \"int\", \"float\", \"string\", "
            "\"volume\" and \"balance\"");
  EXPECT_EQ(error(R"([{"bone": "arm", "timeline": "rotate", "t": 0, "v": 1, "int": 2}])"),
            "keys.json:1:63: keys[0].int: unknown key \"int\"");
  EXPECT_EQ(error(R"([{"slot": "arm", "timeline": "sequence", "t": 0, "v": {"mode": "spin"}}])"),
            "keys.json:1:64: keys[0].v.mode: unknown sequence mode \"spin\"; the modes are: hold, once, loop, pingpong, "
            "onceReverse, loopReverse, pingpongReverse");
}

// The command line's text goes through the same reader.
TEST(KeyValueText, ReadsAsTheJsonOfAKeysFile) {
  auto read = [](KeyTarget target, std::string_view timeline, std::string_view text) {
    KeyEdit e = edit(target, "x", timeline, 0);
    const Status s = read_key_value(key_value_from_text(text, e.timeline), "", "--v", e);
    EXPECT_TRUE(s.ok()) << s.error().to_string();
    return e;
  };
  EXPECT_EQ(read(KeyTarget::Bone, "translate", "10, -4").values, (std::vector<float>{10, -4}));
  EXPECT_EQ(read(KeyTarget::Slot, "rgb", "#ff0000").values, (std::vector<float>{1, 0, 0}));
  EXPECT_EQ(read(KeyTarget::Slot, "rgba2", "#ffffffff,#000000").values.size(), 7u);
  EXPECT_EQ(read(KeyTarget::Slot, "attachment", "null").attachment, std::nullopt);
  EXPECT_EQ(read(KeyTarget::Slot, "attachment", "a, b").attachment, "a, b");
  EXPECT_EQ(read(KeyTarget::Bone, "inherit", "OnlyTranslation").inherit, Inherit::OnlyTranslation);
  EXPECT_EQ(read(KeyTarget::Ik, "stretch", "1").values, (std::vector<float>{1}));
  EXPECT_EQ(read(KeyTarget::Slot, "sequence", "pingpong,2,0.5").sequence, (SequenceKey{SequenceMode::PingPong, 2, 0.5f}));

  KeyEdit bad = edit(KeyTarget::Bone, "x", "rotate", 0);
  const Status s = read_key_value(key_value_from_text("abc", bad.timeline), "", "--v", bad);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().to_string(), "--v: expected a number, found a string");

  auto curve = read_key_curve(key_curve_from_text("ease|0.5,0,0.5,1"), "", "--curve");
  ASSERT_TRUE(curve.ok());
  EXPECT_EQ(*curve, (std::vector<Curve>{kEaseCurve, Curve::bezier(0.5f, 0, 0.5f, 1)}));
  EXPECT_FALSE(read_key_curve(key_curve_from_text("0.5,0,2,1"), "", "--curve").ok());
}

}  // namespace
}  // namespace mf::offline
