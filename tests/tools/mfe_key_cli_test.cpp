// Runs `mfe skel key` as a user would on a copy of the example mannequin in a temporary folder: slot,
// ik and event keys checked against the rig; transform, path and physics keys on a clip outside a rig;
// --delete; repeated --t/--v pairs; --keys files, applied whole or not at all, with errors that name
// the file, line:column, array index and field; describe --clip --json's keys fed back as --keys; and
// clips that stay byte-identical when not edited.
// (The bone keys of the original syntax are tested in mfe_cli_test.cpp.)

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/json/json.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;
using Result = mf::testing::CommandResult;
using mf::testing::read_text;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }
Result mfe(const std::string& args) { return mf::testing::run_shell(quote(MF_MFE_PATH) + " " + args); }

class MfeKeyCli : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(std::string(MF_EXAMPLES_DIR) + "/mannequin", dir_.path(), fs::copy_options::recursive);
    for (const char* c : {"idle", "jump", "run", "walk"}) originals_[c] = read_text(clip(c));
  }
  std::string path(const std::string& relative) const { return dir_.file(relative); }
  std::string clip(const std::string& name) const { return path("mannequin.clips/" + name + ".manim"); }
  // `mfe skel key <rig> --clip walk ...`
  Result key_walk(const std::string& args) const {
    return mfe("skel key " + quote(path("mannequin.mskel")) + " --clip walk " + args);
  }
  ClipSource walk() const {
    auto rig = load_rig(path("mannequin.mskel"));
    EXPECT_TRUE(rig.ok());
    auto c = load_clip(*rig, "walk");
    EXPECT_TRUE(c.ok()) << c.error().to_string();
    return c.ok() ? *c : ClipSource{};
  }
  void expect_others_unchanged() const {
    for (const auto& [name, bytes] : originals_)
      if (name != "walk") {
        EXPECT_EQ(read_text(clip(name)), bytes) << name;
      }
  }
  void expect_walk_unchanged() const { EXPECT_EQ(read_text(clip("walk")), originals_.at("walk")); }
  void write(const std::string& name, const std::string& text) const { dir_.write(name, text); }

  mf::testing::TempDir dir_{"mf_key_cli"};
  std::map<std::string, std::string> originals_;
};

const CurveTimeline* curve(const ClipSource& c, const std::string& target, CurveKind kind) {
  for (const CurveTimeline& tl : c.curves)
    if (tl.target == target && tl.kind == kind) return &tl;
  return nullptr;
}

void expect_floats_near(const std::vector<float>& got, const std::vector<float>& want, float tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tolerance) << "at " << i;
}

// ---- slots --------------------------------------------------------------------------------------

TEST_F(MfeKeyCli, SlotAttachmentAndColourKeys) {
  Result r = key_walk("--slot helmet --timeline attachment --t 0.25 --v null --t 0.75 --v helmet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("slots.helmet.attachment: added key at 0.25 = null (1 key)"), std::string::npos) << r.output;
  r = key_walk("--slot torso --timeline rgba --t 0 --v '#ff000080' --t 1 --v '#00ff00' --curve ease");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = key_walk("--slot torso --timeline alpha --t 0.5 --v 0.25");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = key_walk("--slot torso --timeline rgba2 --t 0.5 --v '#ffffffff,#202020'");
  ASSERT_EQ(r.exit_code, 0) << r.output;

  const ClipSource c = walk();
  ASSERT_EQ(c.attachments.size(), 1u);
  EXPECT_EQ(c.attachments[0].slot, "helmet");
  EXPECT_EQ(c.attachments[0].times, (std::vector<float>{0.25f, 0.75f}));
  EXPECT_EQ(c.attachments[0].names, (std::vector<std::optional<std::string>>{std::nullopt, "helmet"}));
  const CurveTimeline* rgba = curve(c, "torso", CurveKind::Rgba);
  ASSERT_NE(rgba, nullptr);
  expect_floats_near(rgba->values, {1, 0, 0, 128 / 255.0f, 0, 1, 0, 1}, 1e-6f);
  ASSERT_EQ(rgba->curves.size(), 4u);
  EXPECT_EQ(rgba->curves[0], Curve::bezier(0.25f, 0.1f, 0.25f, 1));
  ASSERT_NE(curve(c, "torso", CurveKind::Alpha), nullptr);
  const CurveTimeline* two = curve(c, "torso", CurveKind::Rgba2);
  ASSERT_NE(two, nullptr);
  expect_floats_near(two->values, {1, 1, 1, 1, 32 / 255.0f, 32 / 255.0f, 32 / 255.0f}, 1e-6f);
  EXPECT_EQ(mfe("skel fmt --check " + quote(clip("walk"))).exit_code, 0);
  EXPECT_EQ(mfe("skel check " + quote(path("mannequin.mskel"))).exit_code, 0);
  expect_others_unchanged();
}

TEST_F(MfeKeyCli, SlotKeysAreCheckedAgainstTheRig) {
  const Result hat = key_walk("--slot helmet --timeline attachment --t 0.5 --v hat");
  EXPECT_EQ(hat.exit_code, 1) << hat.output;
  EXPECT_NE(hat.output.find("slots.helmet.attachment: no skin has an attachment \"hat\" for slot \"helmet\"; its "
                            "attachments are: helmet (or null for none) (--v); nothing was written"),
            std::string::npos)
      << hat.output;
  const Result slot = key_walk("--slot cape --timeline alpha --t 0.5 --v 1");
  EXPECT_EQ(slot.exit_code, 1) << slot.output;
  EXPECT_NE(slot.output.find("no slot named \"cape\" in " + path("mannequin.mskel") + "; the slots are: shadow, scarf,"),
            std::string::npos)
      << slot.output;
  const Result alpha = key_walk("--slot torso --timeline alpha --t 0.5 --v 1.5");
  EXPECT_EQ(alpha.exit_code, 1) << alpha.output;
  EXPECT_NE(alpha.output.find("alpha must be from 0 to 1, found 1.5"), std::string::npos) << alpha.output;
  const Result colour = key_walk("--slot torso --timeline rgb --t 0.5 --v red");
  EXPECT_EQ(colour.exit_code, 2) << colour.output;
  EXPECT_NE(colour.output.find("--v red: expected a colour \"#rrggbb\""), std::string::npos) << colour.output;
  const Result stepped = key_walk("--slot helmet --timeline attachment --t 0.5 --v null --curve ease");
  EXPECT_EQ(stepped.exit_code, 1) << stepped.output;
  EXPECT_NE(stepped.output.find("attachment keys are stepped: they take no curve (--curve)"), std::string::npos)
      << stepped.output;
  expect_walk_unchanged();
}

// ---- constraints --------------------------------------------------------------------------------

// The walk keys no ik timeline. mix first; bend then joins at a new time: mix keeps its value there
// (the timeline's value at 0.2) and bend takes the setup value (1) at the key that was there before.
TEST_F(MfeKeyCli, IkChannelsShareOneTimeline) {
  ASSERT_EQ(key_walk("--ik leg_l_ik --timeline mix --t 0 --v 1 --t 1 --v 0.5 --curve ease").exit_code, 0);
  Result r = key_walk("--ik leg_l_ik --timeline bend --t 0.2 --v -1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ik.leg_l_ik.bend: added key at 0.2 = -1 (3 keys)"), std::string::npos) << r.output;
  r = key_walk("--ik leg_l_ik --timeline stretch --t 1 --v true");
  ASSERT_EQ(r.exit_code, 0) << r.output;

  const ClipSource c = walk();
  const CurveTimeline* ik = curve(c, "leg_l_ik", CurveKind::Ik);
  ASSERT_NE(ik, nullptr);
  EXPECT_EQ(ik->times, (std::vector<float>{0, 0.2f, 1}));
  EXPECT_TRUE(ik->keyed(0) && !ik->keyed(1) && ik->keyed(2) && !ik->keyed(3) && ik->keyed(4));
  // mix, softness, bend, compress, stretch per key.
  EXPECT_EQ(ik->values[0], 1);
  EXPECT_EQ(ik->values[2], 1);  // bend at 0: the setup bend
  EXPECT_EQ(ik->values[5 + 2], -1);
  EXPECT_EQ(ik->values[10 + 4], 1);  // stretch at 1
  EXPECT_EQ(ik->values[5 + 4], 0);   // stretch elsewhere: the setup value (false)
  // The eased mix at 0.2, exactly as before the bend key split its segment.
  const Curve ease = Curve::bezier(0.25f, 0.1f, 0.25f, 1);
  double lo = 0, hi = 1;
  for (int i = 0; i < 100; ++i) {
    const double s = 0.5 * (lo + hi), u = 1 - s;
    (3 * u * u * s * ease.cx1 + 3 * u * s * s * ease.cx2 + s * s * s < 0.2 ? lo : hi) = s;
  }
  const double s = lo, u = 1 - s;
  const double y = 3 * u * u * s * ease.cy1 + 3 * u * s * s * ease.cy2 + s * s * s;
  EXPECT_NEAR(ik->values[5], 1 - 0.5 * y, 1e-4);

  const Result stepped = key_walk("--ik leg_l_ik --timeline compress --t 0.5 --v true --curve ease");
  EXPECT_EQ(stepped.exit_code, 1) << stepped.output;
  const Result bend = key_walk("--ik leg_l_ik --timeline bend --t 0.5 --v 2");
  EXPECT_EQ(bend.exit_code, 1) << bend.output;
  EXPECT_NE(bend.output.find("bend must be 1 or -1, found 2"), std::string::npos) << bend.output;
  const Result unknown = key_walk("--transform leg_l_ik --timeline mixX --t 0.5 --v 1");
  EXPECT_EQ(unknown.exit_code, 1) << unknown.output;
  EXPECT_NE(unknown.output.find("no transform constraint named \"leg_l_ik\" in " + path("mannequin.mskel") +
                                "; the rig has no transform constraints"),
            std::string::npos)
      << unknown.output;
  const Result timeline = key_walk("--ik leg_l_ik --timeline rotate --t 0.5 --v 1");
  EXPECT_EQ(timeline.exit_code, 2) << timeline.output;
  EXPECT_NE(timeline.output.find("its timelines are: mix, softness, bend, compress, stretch"), std::string::npos)
      << timeline.output;
  EXPECT_EQ(mfe("skel check " + quote(path("mannequin.mskel"))).exit_code, 0);
}

// A clip outside a rig is read on its own: any constraint name goes.
TEST_F(MfeKeyCli, TransformPathAndPhysicsKeysOnAClipOutsideARig) {
  fs::copy_file(clip("idle"), path("loose.manim"));
  const std::string loose = quote(path("loose.manim"));
  ASSERT_EQ(mfe("skel key " + loose + " --transform follow --timeline mixX --t 0 --v 0.5").exit_code, 0);
  ASSERT_EQ(mfe("skel key " + loose + " --transform follow --timeline mixRotate --t 1 --v 1").exit_code, 0);
  ASSERT_EQ(mfe("skel key " + loose + " --path rail --timeline position --t 0 --v 0 --t 1 --v 1").exit_code, 0);
  ASSERT_EQ(mfe("skel key " + loose + " --physics hair --timeline wind --t 0.5 --v 3").exit_code, 0);
  const Result reset = mfe("skel key " + loose + " --physics hair --timeline reset --t 0.5");
  ASSERT_EQ(reset.exit_code, 0) << reset.output;
  EXPECT_NE(reset.output.find("physics.hair.reset: added key at 0.5 = reset (1 key)"), std::string::npos) << reset.output;
  EXPECT_EQ(mfe("skel key " + loose + " --physics hair --timeline reset --t 0.5 --v 1").exit_code, 2);

  auto c = read_clip_file(path("loose.manim"));
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  const CurveTimeline* follow = curve(*c, "follow", CurveKind::Transform);
  ASSERT_NE(follow, nullptr);
  EXPECT_EQ(follow->times, (std::vector<float>{0, 1}));
  EXPECT_EQ(follow->channels, 0b11u);  // mixRotate, mixX
  // Without a rig, a channel keyed late takes its new value at the other keys.
  EXPECT_EQ(follow->values[0], 1);    // mixRotate at 0
  EXPECT_EQ(follow->values[1], 0.5f); // mixX at 0
  EXPECT_EQ(follow->values[6 + 1], 0.5f);
  ASSERT_NE(curve(*c, "rail", CurveKind::Path), nullptr);
  ASSERT_NE(curve(*c, "hair", CurveKind::PhysicsWind), nullptr);
  ASSERT_EQ(c->physics_resets.size(), 1u);
  EXPECT_EQ(c->physics_resets[0].times, (std::vector<float>{0.5f}));
}

// ---- events -------------------------------------------------------------------------------------

TEST_F(MfeKeyCli, EventKeysWithTheirPayload) {
  Result r = key_walk("--event land --t 0.5 --int 3 --string thud --volume 0.5 --balance -0.25");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("events: added key at 0.5 = land(int=3,string=thud,volume=0.5,balance=-0.25) (1 key)"),
            std::string::npos)
      << r.output;
  ClipSource c = walk();
  ASSERT_EQ(c.events.times, (std::vector<float>{0, 0.5f, 0.5f}));
  EXPECT_EQ(c.events.keys[1].name, "footstep");  // at one time, in the order keyed
  EXPECT_EQ(c.events.keys[2].name, "land");
  EXPECT_EQ(c.events.keys[2].int_value, 3);
  EXPECT_EQ(c.events.keys[2].string_value, "thud");
  EXPECT_EQ(c.events.keys[2].volume, 0.5f);
  EXPECT_EQ(c.events.keys[2].balance, -0.25f);

  // The same event at the same time is replaced; --delete removes one event's key only.
  r = key_walk("--event land --t 0.5 --float 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("replaced key at 0.5"), std::string::npos) << r.output;
  c = walk();
  EXPECT_EQ(c.events.keys[2], (EventKeySource{"land", std::nullopt, 2.0f, std::nullopt, std::nullopt, std::nullopt}));
  r = key_walk("--event footstep --t 0.5 --delete");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  c = walk();
  ASSERT_EQ(c.events.keys.size(), 2u);
  EXPECT_EQ(c.events.keys[1].name, "land");

  const Result unknown = key_walk("--event jump --t 0.5");
  EXPECT_EQ(unknown.exit_code, 1) << unknown.output;
  EXPECT_NE(unknown.output.find("no event named \"jump\" in " + path("mannequin.mskel") + "; the events are: footstep, land"),
            std::string::npos)
      << unknown.output;
  EXPECT_EQ(key_walk("--event land --t 0.5 --volume 2").exit_code, 1);
  EXPECT_EQ(key_walk("--event land --timeline rotate --t 0.5").exit_code, 2);
  EXPECT_EQ(key_walk("--event land --t 0.5 --v 1").exit_code, 2);
  EXPECT_EQ(key_walk("--bone chest --timeline rotate --t 0.5 --v 1 --int 2").exit_code, 2);
}

// ---- delete -------------------------------------------------------------------------------------

// Removing a middle key joins its two segments under the curve of the earlier one.
TEST_F(MfeKeyCli, DeleteRemovesTheKeyAtT) {
  const CurveTimeline before = *curve(walk(), "chest", CurveKind::Rotate);
  const Result r = key_walk("--bone chest --timeline rotate --t 0.37505 --delete");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("bones.chest.rotate: removed key at 0.37505 (8 keys left)"), std::string::npos) << r.output;
  const CurveTimeline after = *curve(walk(), "chest", CurveKind::Rotate);
  EXPECT_EQ(after.times, (std::vector<float>{0, 0.125f, 0.25f, 0.5f, 0.625f, 0.75f, 0.875f, 1}));
  ASSERT_EQ(after.curves.size(), 7u);
  EXPECT_EQ(after.curves[2], before.curves[2]);
  EXPECT_EQ(after.curves[3], before.curves[4]);

  const Result none = key_walk("--bone chest --timeline rotate --t 0.3 --delete");
  EXPECT_EQ(none.exit_code, 1) << none.output;
  EXPECT_NE(none.output.find("no bones.chest.rotate key within 0.0001 s of 0.3; its keys are at [0, 0.125, 0.25, 0.5, "
                             "0.625, 0.75, 0.875, 1] (--t)"),
            std::string::npos)
      << none.output;
  const Result missing = key_walk("--bone chest --timeline scale --t 0 --delete");
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("the clip has no bones.chest.scale keys to remove"), std::string::npos) << missing.output;
  EXPECT_EQ(key_walk("--bone chest --timeline rotate --t 0.5 --delete --v 1").exit_code, 2);

  // The last key of a timeline takes the timeline with it.
  ASSERT_EQ(key_walk("--bone head --timeline shearX --t 0.5 --v 3").exit_code, 0);
  ASSERT_EQ(key_walk("--bone head --timeline shearX --t 0.5 --delete").exit_code, 0);
  EXPECT_EQ(curve(walk(), "head", CurveKind::ShearX), nullptr);
  expect_others_unchanged();
}

// ---- several keys -------------------------------------------------------------------------------

TEST_F(MfeKeyCli, RepeatedPairsKeyOneTimelineInOneCall) {
  const Result r =
      key_walk("--bone head --timeline translate --t 0 --v 0,0 --t 0.5 --v 2,-3 --t 1 --v 0,0 --curve ease --curve linear --curve linear");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const ClipSource c = walk();
  const CurveTimeline* tl = curve(c, "head", CurveKind::Translate);
  ASSERT_NE(tl, nullptr);
  EXPECT_EQ(tl->values, (std::vector<float>{0, 0, 2, -3, 0, 0}));
  EXPECT_EQ(tl->curves[0], Curve::bezier(0.25f, 0.1f, 0.25f, 1));
  EXPECT_EQ(tl->curves[2], Curve::linear());

  const std::string before = read_text(clip("walk"));
  EXPECT_EQ(key_walk("--bone head --timeline rotate --t 0 --v 1 --t 0.5").exit_code, 2);
  EXPECT_EQ(key_walk("--bone head --timeline rotate --t 0 --v 1 --t 0.5 --v 2 --curve ease --curve ease --curve ease")
                .exit_code,
            2);
  // The second pair fails: the first is not written either.
  const Result late = key_walk("--bone head --timeline rotate --t 0 --v 1 --t 2 --v 2");
  EXPECT_EQ(late.exit_code, 1) << late.output;
  EXPECT_NE(late.output.find("(--t, key 2); nothing was written"), std::string::npos) << late.output;
  EXPECT_EQ(read_text(clip("walk")), before);
}

TEST_F(MfeKeyCli, KeysFileAppliesEveryKey) {
  write("keys.json", R"([
  {"bone": "neck", "timeline": "rotate", "t": 0.5, "v": -10},
  {"bone": "neck", "timeline": "rotate", "t": 0, "v": 0, "curve": "ease"},
  {"bone": "head", "timeline": "scale", "t": 0.5, "v": [1.1, 0.9], "curve": [[0.25, 0, 0.75, 1], "stepped"]},
  {"slot": "helmet", "timeline": "attachment", "t": 0.5, "v": null},
  {"slot": "torso", "timeline": "rgb", "t": 0.25, "v": "#808080"},
  {"ik": "leg_r_ik", "timeline": "softness", "t": 0.5, "v": 4},
  {"event": "land", "t": 1, "string": "soft", "volume": 0.2},
  {"bone": "chest", "timeline": "rotate", "t": 0.125, "delete": true}
])");
  const Result r = key_walk("--keys " + quote(path("keys.json")));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("bones.chest.rotate: removed key at 0.125 (8 keys left), checked against"), std::string::npos)
      << r.output;
  const ClipSource c = walk();
  const CurveTimeline* rotate = curve(c, "neck", CurveKind::Rotate);
  ASSERT_NE(rotate, nullptr);
  EXPECT_EQ(rotate->values, (std::vector<float>{0, -10}));
  EXPECT_EQ(rotate->curves, (std::vector<Curve>{Curve::bezier(0.25f, 0.1f, 0.25f, 1)}));
  const CurveTimeline* scale = curve(c, "head", CurveKind::Scale);
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->values, (std::vector<float>{1.1f, 0.9f}));
  ASSERT_EQ(c.attachments.size(), 1u);
  ASSERT_NE(curve(c, "torso", CurveKind::Rgb), nullptr);
  const CurveTimeline* ik = curve(c, "leg_r_ik", CurveKind::Ik);
  ASSERT_NE(ik, nullptr);
  EXPECT_EQ(ik->channels, 0b10u);
  EXPECT_EQ(c.events.keys.back().name, "land");
  EXPECT_EQ(curve(c, "chest", CurveKind::Rotate)->times.size(), 8u);
  EXPECT_EQ(mfe("skel fmt --check " + quote(clip("walk"))).exit_code, 0);
  expect_others_unchanged();
}

// One bad key and nothing is written; the error names the file, line:column, index and field.
TEST_F(MfeKeyCli, KeysFileWithAnErrorChangesNothing) {
  const std::string keys = quote(path("keys.json"));
  auto expect_error = [&](const std::string& text, const std::string& message, int code = 1) {
    write("keys.json", text);
    const Result r = key_walk("--keys " + keys);
    EXPECT_EQ(r.exit_code, code) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << "expected \"" << message << "\" in:\n" << r.output;
    EXPECT_NE(r.output.find("nothing was written"), std::string::npos) << r.output;
    expect_walk_unchanged();
  };
  const std::string good = R"({"bone": "neck", "timeline": "rotate", "t": 0.5, "v": 5},)";
  expect_error("[\n  " + good + "\n  {\"bone\": \"arm_x\", \"timeline\": \"rotate\", \"t\": 0.5, \"v\": 5}\n]",
               path("keys.json") + ":3:12: keys[1].bone: no bone named \"arm_x\" in " + path("mannequin.mskel") +
                   "; the bones are: root, shadow, hips,");
  expect_error("[\n  " + good + "\n  {\"bone\": \"head\", \"timeline\": \"rotate\", \"t\": 1.5, \"v\": 5}\n]",
               path("keys.json") + ":3:47: keys[1].t: the key time 1.5 is past the clip's length 1 s (bones.head.rotate of " +
                   clip("walk") + ")");
  expect_error("[\n  " + good + "\n  {\"bone\": \"head\", \"timeline\": \"translate\", \"t\": 0.5, \"v\": 5}\n]",
               ":3:60: keys[1].v: a translate key takes 2 values, found 1");
  expect_error("[\n  " + good + "\n  {\"bone\": \"head\", \"timeline\": \"spin\", \"t\": 0.5, \"v\": 5}\n]",
               ":3:32: keys[1].timeline: a bone has no timeline \"spin\"; its timelines are: rotate, translate,");
  expect_error("[\n  " + good + "\n  {\"bone\": \"head\", \"timelime\": \"rotate\", \"t\": 0.5, \"v\": 5}\n]",
               ":3:32: keys[1].timelime: unknown key \"timelime\"");
  expect_error("[\n  " + good + "\n  {\"slot\": \"torso\", \"timeline\": \"rgba\", \"t\": 0.5, \"v\": \"red\"}\n]",
               ":3:56: keys[1].v: expected a colour");
  expect_error("[\n  " + good + "\n  {\"bone\": \"head\", \"timeline\": \"rotate\", \"t\": 0.5, \"v\": 1, \"curve\": \"wobbly\"}\n]",
               ":3:69: keys[1].curve: unknown curve \"wobbly\"");
  expect_error("[\n  " + good + "\n  {\"bone\": \"head\", \"slot\": \"torso\", \"timeline\": \"rotate\", \"t\": 0.5}\n]",
               ":3:3: keys[1]: a key needs exactly one of bone, slot, ik, transform, path, physics, event");
  expect_error("[\n  " + good + "\n  {\"bone\": \"neck\", \"timeline\": \"rotate\", \"t\": 0.3, \"delete\": true}\n]",
               ":3:47: keys[1].t: no bones.neck.rotate key within 0.0001 s of 0.3; its keys are at [0.5]");
  expect_error("[\n  " + good, path("keys.json") + ":2:");  // truncated
  expect_error("{\"bone\": \"head\"}", ":1:1: keys: a keys file is a JSON array");
}

// The text of a parsed JSON value (for turning describe's output into a --keys file).
void write_value(json::Writer& w, const json::Value& v) {
  switch (v.type) {
    case json::Type::Null: w.null(); break;
    case json::Type::Bool: w.boolean(v.boolean); break;
    case json::Type::Number: w.number(static_cast<float>(v.number)); break;
    case json::Type::String: w.string(v.string); break;
    case json::Type::Array:
      w.begin_array();
      for (const json::Value& item : v.items) write_value(w, item);
      w.end_array();
      break;
    case json::Type::Object:
      w.begin_object();
      for (const json::Member& m : v.members) {
        w.key(m.first);
        write_value(w, m.second);
      }
      w.end_object();
      break;
  }
}

// describe --clip --json lists every key as a --keys item: fed to an empty clip of the same length,
// they rebuild each example clip exactly.
TEST_F(MfeKeyCli, DescribedKeysRebuildEveryExampleClip) {
  const std::string rig = quote(path("mannequin.mskel"));
  for (const char* name : {"idle", "jump", "run", "walk"}) {
    const Result described = mfe("skel describe " + rig + " --clip " + name + " --json");
    ASSERT_EQ(described.exit_code, 0) << described.output;
    auto doc = json::parse(described.output, "describe output");
    ASSERT_TRUE(doc.ok()) << doc.error().to_string();
    json::Writer w;
    w.begin_array();
    for (const json::Value& timeline : json::find_path(*doc, "clips[0].timelines")->items)
      for (const json::Value& key : timeline.find("keys")->items) write_value(w, key);
    w.end_array();
    write(std::string(name) + ".json", w.finish());

    const ClipSource original = read_clip_file(clip(name)).value();
    const std::string copy = std::string("copy_") + name;
    ASSERT_EQ(mfe("skel clip new " + rig + " " + copy + " --length " + json::format_float(original.length) +
                  (original.loop == LoopMode::Linear ? " --loop" : ""))
                  .exit_code,
              0);
    const Result keyed = mfe("skel key " + rig + " --clip " + copy + " --keys " + quote(path(std::string(name) + ".json")));
    ASSERT_EQ(keyed.exit_code, 0) << keyed.output;
    ClipSource rebuilt = read_clip_file(clip(copy)).value();
    rebuilt.uid = original.uid;
    EXPECT_EQ(write_clip(rebuilt), write_clip(original)) << name;
  }
}

TEST_F(MfeKeyCli, UsageErrors) {
  const std::string rig = quote(path("mannequin.mskel"));
  EXPECT_EQ(mfe("skel key " + rig + " --bone chest --timeline rotate --t 0 --v 1").exit_code, 2);  // no --clip
  EXPECT_EQ(mfe("skel key " + quote(clip("walk")) + " --clip walk --bone chest --timeline rotate --t 0 --v 1").exit_code, 2);
  EXPECT_EQ(key_walk("--timeline rotate --t 0 --v 1").exit_code, 2);                    // no target
  EXPECT_EQ(key_walk("--bone chest --slot torso --timeline rotate --t 0 --v 1").exit_code, 2);
  EXPECT_EQ(key_walk("--bone chest --t 0 --v 1").exit_code, 2);                          // no --timeline
  EXPECT_EQ(key_walk("--bone chest --timeline rotate --v 1").exit_code, 2);              // no --t
  write("keys.json", "[]");
  EXPECT_EQ(key_walk("--keys " + quote(path("keys.json")) + " --bone chest").exit_code, 2);
  EXPECT_EQ(key_walk("--keys " + quote(path("missing.json"))).exit_code, 2);
  const Result clip_missing = mfe("skel key " + rig + " --clip stroll --bone chest --timeline rotate --t 0 --v 1");
  EXPECT_EQ(clip_missing.exit_code, 1) << clip_missing.output;
  EXPECT_NE(clip_missing.output.find("no clip named \"stroll\"; the clips are: idle, jump, run, walk"), std::string::npos)
      << clip_missing.output;
  expect_walk_unchanged();
  expect_others_unchanged();
}

}  // namespace
}  // namespace mf::offline
