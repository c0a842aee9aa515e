// Runs the mfe binary as a user would, on copies of the fixtures under tests/data/rigs in a temporary
// folder: describe (text and --json), check, fmt and key, with their exit codes.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "mf/offline/format/clip_edit.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/json/json.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "support/run_command.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

using Result = mf::testing::CommandResult;
using mf::testing::read_text;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

Result mfe(const std::string& args) { return mf::testing::run_shell(quote(MF_MFE_PATH) + " " + args); }

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// A copy of tests/data/rigs in a temporary folder, removed at the end of the test.
class MfeCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() / ("mf_mfe_cli_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    fs::copy(std::string(MF_TEST_DATA_DIR) + "/rigs", root_, fs::copy_options::recursive);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  std::string path(const std::string& relative) const { return (root_ / relative).string(); }
  std::string arg(const std::string& relative) const { return quote(path(relative)); }

  fs::path root_;
};

// ---- describe -----------------------------------------------------------------------------------

TEST_F(MfeCli, DescribePrintsTheRigAndItsClips) {
  const Result r = mfe("skel describe " + arg("tiny/tiny.mskel"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* expected : {
           "uid=skl_7d1c40e2a9b3",
           "bones (6)",
           "arm_l  parent=torso  x=50  y=0  rot=90  sx=1  sy=1  shx=0  shy=0  length=30  inherit=Normal",
           "slots (4)",
           "arm  bone=arm_l  attachment=arm  color=#ffffffff  dark=#102030  blend=Normal",
           "arm/arm  Mesh  image=arm  vertices=4  weighted=true  bones=[arm_l, forearm_l]",
           "eye/blink  Region  image=blink  sequenceCount=3",
           "ik arm_ik  order=0  bones=[arm_l, forearm_l]  target=hand_target",
           "step  int=1",
           "clips (2)",
           "idle  length=2  fps=30  loop=Linear",
           "bones.arm_l.rotate  t=[0, 0.5, 1]",
           "slots.eye.attachment  t=[0, 0.8]",
           "events  t=[0.5]  names=[step]",
       })
    EXPECT_NE(r.output.find(expected), std::string::npos) << "missing \"" << expected << "\" in:\n" << r.output;
}

TEST_F(MfeCli, DescribeJsonHoldsTheSameContent) {
  const Result r = mfe("skel describe --json " + arg("tiny/tiny.mskel"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "describe output");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string() << "\n" << r.output;
  EXPECT_EQ(json::find_path(*doc, "uid")->string, "skl_7d1c40e2a9b3");
  ASSERT_EQ(json::find_path(*doc, "bones")->items.size(), 6u);
  EXPECT_EQ(json::find_path(*doc, "bones[3].name")->string, "arm_l");
  EXPECT_EQ(json::find_path(*doc, "bones[3].parent")->string, "torso");
  EXPECT_EQ(json::find_path(*doc, "bones[3].x")->number, 50);
  EXPECT_EQ(json::find_path(*doc, "bones[3].rot")->number, 90);
  EXPECT_EQ(json::find_path(*doc, "bones[3].inherit")->string, "Normal");
  EXPECT_TRUE(json::find_path(*doc, "bones[0].parent")->is_null());
  EXPECT_EQ(json::find_path(*doc, "slots[1].dark")->string, "#102030");
  EXPECT_EQ(json::find_path(*doc, "skins[0].attachments[1].type")->string, "Mesh");
  EXPECT_TRUE(json::find_path(*doc, "skins[0].attachments[1].weighted")->boolean);
  EXPECT_EQ(json::find_path(*doc, "skins[0].attachments[1].vertices")->number, 4);
  EXPECT_EQ(json::find_path(*doc, "constraints[0].kind")->string, "ik");
  EXPECT_EQ(json::find_path(*doc, "constraints[0].target")->string, "hand_target");
  EXPECT_EQ(json::find_path(*doc, "events[0].name")->string, "step");
  ASSERT_EQ(json::find_path(*doc, "clips")->items.size(), 2u);
  EXPECT_EQ(json::find_path(*doc, "clips[1].name")->string, "wave");
  EXPECT_EQ(json::find_path(*doc, "clips[1].length")->number, 1);
  EXPECT_EQ(json::find_path(*doc, "clips[1].timelines[0].path")->string, "bones.arm_l.rotate");
  EXPECT_EQ(json::find_path(*doc, "clips[1].timelines[0].t")->items.size(), 3u);
  EXPECT_EQ(json::find_path(*doc, "clips[1].timelines[0].t[1]")->number, 0.5);
}

TEST_F(MfeCli, DescribeOneClip) {
  const Result r = mfe("skel describe " + arg("tiny/tiny.mskel") + " --clip idle --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "describe output");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  ASSERT_EQ(json::find_path(*doc, "clips")->items.size(), 1u);
  EXPECT_EQ(json::find_path(*doc, "clips[0].name")->string, "idle");
  EXPECT_EQ(json::find_path(*doc, "clips[0].timelines[1].path")->string, "bones.torso.scaleY");

  const Result missing = mfe("skel describe " + arg("tiny/tiny.mskel") + " --clip dance");
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("idle, wave"), std::string::npos) << missing.output;
}

// One clip: every key, one line per timeline, in the syntax `mfe skel key` reads (t=value[curve]).
TEST_F(MfeCli, DescribeOneClipListsEveryKey) {
  const Result r = mfe("skel describe " + arg("tiny/tiny.mskel") + " --clip wave");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string expected =
      "clip:\n"
      "  wave  length=1  fps=30  loop=Linear\n"
      "    bone arm_l rotate  0=0[ease] 0.5=40 1=0\n"
      "    bone hip translate  0=0,0[stepped] 1=0,-4\n"
      "    slot eye attachment  0=blink 0.8=null\n"
      "    events  0.5=step\n";
  ASSERT_NE(r.output.find("clip:\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.substr(r.output.find("clip:\n")), expected);

  // Constraint channels, colours, curves per component and event payloads.
  const std::string wave = arg("tiny/tiny.clips/wave.manim");
  ASSERT_EQ(mfe("skel key " + wave + " --ik arm_ik --timeline mix --t 0 --v 1 --t 1 --v 0.5 --curve 0.5,0,0.5,1").exit_code, 0);
  ASSERT_EQ(mfe("skel key " + wave + " --ik arm_ik --timeline bend --t 1 --v -1").exit_code, 0);
  ASSERT_EQ(mfe("skel key " + wave + " --slot body --timeline rgba --t 0.25 --v '#ff000080'").exit_code, 0);
  ASSERT_EQ(mfe("skel key " + wave + " --bone torso --timeline scale --t 0 --v 1,1 --t 1 --v 2,2 --curve 'ease|stepped'").exit_code, 0);
  ASSERT_EQ(mfe("skel key " + wave + " --event step --t 0.5 --int 2 --string 'left foot'").exit_code, 0);
  const Result more = mfe("skel describe " + arg("tiny/tiny.mskel") + " --clip wave");
  ASSERT_EQ(more.exit_code, 0) << more.output;
  for (const char* line : {"    bone torso scale  0=1,1[ease|stepped] 1=2,2\n", "    slot body rgba  0.25=#ff000080\n",
                           "    ik arm_ik mix  0=1[0.5,0,0.5,1] 1=0.5\n", "    ik arm_ik bend  0=1 1=-1\n",
                           "    events  0.5=step(int=2,string=\"left foot\")\n"})
    EXPECT_NE(more.output.find(line), std::string::npos) << line << "\n" << more.output;
}

// --clip --json: each key is an item of a --keys file.
TEST_F(MfeCli, DescribeOneClipJsonKeysAreKeysItems) {
  ASSERT_EQ(mfe("skel key " + arg("tiny/tiny.clips/wave.manim") + " --ik arm_ik --timeline bend --t 1 --v -1").exit_code, 0);
  const Result r = mfe("skel describe " + arg("tiny/tiny.mskel") + " --clip wave --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "describe output");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string() << "\n" << r.output;
  const json::Value& rotate = *json::find_path(*doc, "clips[0].timelines[0]");
  EXPECT_EQ(json::find_path(rotate, "path")->string, "bones.arm_l.rotate");
  EXPECT_EQ(json::find_path(rotate, "bone")->string, "arm_l");
  EXPECT_EQ(json::find_path(rotate, "timeline")->string, "rotate");
  EXPECT_EQ(json::find_path(rotate, "t")->items.size(), 3u);
  EXPECT_EQ(json::find_path(rotate, "keys[0].bone")->string, "arm_l");
  EXPECT_EQ(json::find_path(rotate, "keys[0].curve")->string, "ease");
  EXPECT_EQ(json::find_path(rotate, "keys[1].v")->number, 40);
  EXPECT_EQ(json::find_path(rotate, "keys[1].curve"), nullptr);  // linear
  EXPECT_EQ(json::find_path(*doc, "clips[0].timelines[1].keys[0].v")->items.size(), 2u);
  EXPECT_EQ(json::find_path(*doc, "clips[0].timelines[1].keys[0].curve")->string, "stepped");
  EXPECT_EQ(json::find_path(*doc, "clips[0].timelines[2].keys[1].v")->type, json::Type::Null);
  EXPECT_EQ(json::find_path(*doc, "clips[0].timelines[3].path")->string, "ik.arm_ik.bend");
  EXPECT_EQ(json::find_path(*doc, "clips[0].timelines[3].keys[0].v")->number, -1);
  EXPECT_EQ(json::find_path(*doc, "clips[0].timelines[4].keys[0].event")->string, "step");
  EXPECT_EQ(json::find_path(*doc, "clips[0].timelines[4].keys[0].t")->number, 0.5);
}

// ---- check --------------------------------------------------------------------------------------

TEST_F(MfeCli, CheckPassesACleanRig) {
  const Result r = mfe("skel check " + arg("tiny/tiny.mskel"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "0 errors, 0 warnings\n");
}

TEST_F(MfeCli, CheckFailsBrokenRigsNamingFileLineAndPath) {
  const Result weights = mfe("skel check " + arg("broken/weights.mskel"));
  EXPECT_EQ(weights.exit_code, 1) << weights.output;
  EXPECT_NE(weights.output.find("error: " + path("broken/weights.mskel") +
                                ":42:15: skins[0].attachments[0].weights.v[1]: the weights of this vertex sum to 0.9"),
            std::string::npos)
      << weights.output;
  EXPECT_NE(weights.output.find("warning: " + path("broken/weights.mskel") + ":43:15: skins[0].attachments[0].weights.v[2]"),
            std::string::npos)
      << weights.output;
  EXPECT_NE(weights.output.find("2 errors, 1 warning\n"), std::string::npos) << weights.output;

  const Result images = mfe("skel check " + arg("broken/images.mskel"));
  EXPECT_EQ(images.exit_code, 1) << images.output;
  EXPECT_NE(images.output.find("skins[0].attachments[1].sequence: image \"blink04\" is missing"), std::string::npos)
      << images.output;

  const Result clip = mfe("skel check " + arg("broken/clips.mskel") + " --clip past_length");
  EXPECT_EQ(clip.exit_code, 1) << clip.output;
  EXPECT_NE(clip.output.find("past_length.manim:11:33: bones.arm_l.rotate.t[2]: key at 1.25 s"), std::string::npos)
      << clip.output;
  EXPECT_EQ(clip.output.find("bad_curve.manim"), std::string::npos) << clip.output;  // only the clip asked for
}

TEST_F(MfeCli, CheckPassesWithWarningsAlone) {
  const Result ik = mfe("skel check " + arg("broken/ik.mskel"));
  EXPECT_EQ(ik.exit_code, 0) << ik.output;
  EXPECT_NE(ik.output.find("warning: "), std::string::npos) << ik.output;
  EXPECT_NE(ik.output.find("0 errors, 2 warnings\n"), std::string::npos) << ik.output;

  const Result flip = mfe("skel check " + arg("broken/clips.mskel") + " --clip flip");
  EXPECT_EQ(flip.exit_code, 0) << flip.output;
  EXPECT_NE(flip.output.find("bones.arm_l.rotate.v[2]"), std::string::npos) << flip.output;
}

TEST_F(MfeCli, CheckReportsARigThatDoesNotRead) {
  std::string text = read_text(path("tiny/tiny.mskel"));
  text.resize(text.size() / 2);  // truncated
  write_text(path("tiny/tiny.mskel"), text);
  const Result r = mfe("skel check " + arg("tiny/tiny.mskel"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("error: " + path("tiny/tiny.mskel") + ":"), std::string::npos) << r.output;
}

TEST_F(MfeCli, CheckPassesTheExampleRig) {
  const std::string example = std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel";
  if (!fs::exists(example)) GTEST_SKIP() << "no example rig at " << example;
  const Result r = mfe("skel check " + quote(example));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

// ---- fmt ----------------------------------------------------------------------------------------

// The same JSON with every line indented one more space: valid, but not canonical.
std::string reindented(const std::string& text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out += ' ';
  }
  return out;
}

TEST_F(MfeCli, FmtCheckListsFilesThatAreNotCanonical) {
  const Result clean = mfe("skel fmt --check " + arg("tiny"));
  EXPECT_EQ(clean.exit_code, 0) << clean.output;
  EXPECT_EQ(clean.output, "");

  const std::string canonical = read_text(path("tiny/tiny.clips/wave.manim"));
  write_text(path("tiny/tiny.clips/wave.manim"), reindented(canonical));
  const Result dirty = mfe("skel fmt --check " + arg("tiny"));
  EXPECT_EQ(dirty.exit_code, 1) << dirty.output;
  EXPECT_EQ(dirty.output, path("tiny/tiny.clips/wave.manim") + "\n");
  EXPECT_EQ(read_text(path("tiny/tiny.clips/wave.manim")), reindented(canonical));  // nothing written
}

TEST_F(MfeCli, FmtRewritesOnlyFilesThatAreNotCanonical) {
  const std::string mskel = read_text(path("tiny/tiny.mskel"));
  const std::string manim = read_text(path("tiny/tiny.clips/wave.manim"));
  write_text(path("tiny/tiny.mskel"), reindented(mskel));
  write_text(path("tiny/tiny.clips/wave.manim"), reindented(manim));
  const fs::path untouched = path("tiny/tiny.clips/idle.manim");
  const auto old_time = fs::last_write_time(untouched) - std::chrono::hours(1);
  fs::last_write_time(untouched, old_time);

  const Result r = mfe("skel fmt " + arg("tiny/tiny.mskel") + " " + arg("tiny/tiny.clips"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_text(path("tiny/tiny.mskel")), mskel);
  EXPECT_EQ(read_text(path("tiny/tiny.clips/wave.manim")), manim);
  EXPECT_EQ(fs::last_write_time(untouched), old_time);
  EXPECT_NE(r.output.find("formatted " + path("tiny/tiny.mskel")), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("idle.manim"), std::string::npos) << r.output;

  const Result again = mfe("skel fmt --check " + arg("tiny"));
  EXPECT_EQ(again.exit_code, 0) << again.output;
}

TEST_F(MfeCli, FmtReportsFilesThatDoNotRead) {
  write_text(path("tiny/tiny.clips/bad.manim"), "{\n  \"format\": 1,\n  \"uid\": \n}\n");
  const std::string before = read_text(path("tiny/tiny.clips/bad.manim"));
  const Result r = mfe("skel fmt " + arg("tiny/tiny.clips/bad.manim"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("error: " + path("tiny/tiny.clips/bad.manim") + ":4:"), std::string::npos) << r.output;
  EXPECT_EQ(read_text(path("tiny/tiny.clips/bad.manim")), before);

  const Result missing = mfe("skel fmt " + arg("tiny/nothing_here.mskel"));
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
}

// ---- key ----------------------------------------------------------------------------------------

ClipSource read_clip_ok(const std::string& file) {
  auto clip = read_clip_file(file);
  EXPECT_TRUE(clip.ok()) << clip.error().to_string();
  return clip.ok() ? *clip : ClipSource{};
}

const CurveTimeline* find_timeline(const ClipSource& clip, const std::string& bone, CurveKind kind) {
  for (const CurveTimeline& tl : clip.curves)
    if (tl.target == bone && tl.kind == kind) return &tl;
  return nullptr;
}

TEST_F(MfeCli, KeyAddsAndReplacesKeysKeepingTheFileCanonical) {
  const std::string wave = path("tiny/tiny.clips/wave.manim");
  const Result add = mfe("skel key " + quote(wave) + " --bone arm_l --timeline rotate --t 0.25 --v -35");
  ASSERT_EQ(add.exit_code, 0) << add.output;
  EXPECT_NE(add.output.find("added key at 0.25"), std::string::npos) << add.output;
  ClipSource clip = read_clip_ok(wave);
  const CurveTimeline* rotate = find_timeline(clip, "arm_l", CurveKind::Rotate);
  ASSERT_NE(rotate, nullptr);
  EXPECT_EQ(rotate->times, (std::vector<float>{0, 0.25f, 0.5f, 1}));
  EXPECT_EQ(rotate->values, (std::vector<float>{0, -35, 40, 0}));

  const Result replace = mfe("skel key " + quote(wave) + " --bone arm_l --timeline rotate --t 0.5 --v 45");
  ASSERT_EQ(replace.exit_code, 0) << replace.output;
  EXPECT_NE(replace.output.find("replaced key at 0.5"), std::string::npos) << replace.output;
  clip = read_clip_ok(wave);
  rotate = find_timeline(clip, "arm_l", CurveKind::Rotate);
  ASSERT_NE(rotate, nullptr);
  EXPECT_EQ(rotate->values, (std::vector<float>{0, -35, 45, 0}));

  // Two components and the CSS ease curve on a new timeline's second key.
  ASSERT_EQ(mfe("skel key " + quote(wave) + " --bone torso --timeline scale --t 0 --v 1,1").exit_code, 0);
  const Result scale = mfe("skel key " + quote(wave) + " --bone torso --timeline scale --t 1 --v 1.2,0.8 --curve ease");
  ASSERT_EQ(scale.exit_code, 0) << scale.output;
  clip = read_clip_ok(wave);
  const CurveTimeline* s = find_timeline(clip, "torso", CurveKind::Scale);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->values, (std::vector<float>{1, 1, 1.2f, 0.8f}));
  EXPECT_EQ(s->curves, (std::vector<Curve>{kEaseCurve, kEaseCurve}));

  const Result canonical = mfe("skel fmt --check " + quote(wave));
  EXPECT_EQ(canonical.exit_code, 0) << canonical.output;
  EXPECT_EQ(mfe("skel check " + arg("tiny/tiny.mskel")).exit_code, 0);
}

TEST_F(MfeCli, KeyChecksTheBoneAgainstTheRigAndLeavesTheFileOnError) {
  const std::string wave = path("tiny/tiny.clips/wave.manim");
  const std::string before = read_text(wave);
  const Result bone = mfe("skel key " + quote(wave) + " --bone tail --timeline rotate --t 0.25 --v 10");
  EXPECT_EQ(bone.exit_code, 1) << bone.output;
  EXPECT_NE(bone.output.find("no bone named \"tail\""), std::string::npos) << bone.output;

  const Result count = mfe("skel key " + quote(wave) + " --bone hip --timeline translate --t 0.25 --v 10");
  EXPECT_EQ(count.exit_code, 1) << count.output;
  EXPECT_NE(count.output.find("bones.hip.translate: a translate key takes 2 values, found 1"), std::string::npos)
      << count.output;

  const Result late = mfe("skel key " + quote(wave) + " --bone hip --timeline rotate --t 1.5 --v 10");
  EXPECT_EQ(late.exit_code, 1) << late.output;
  EXPECT_NE(late.output.find("past the clip's length"), std::string::npos) << late.output;

  EXPECT_EQ(read_text(wave), before);
}

TEST_F(MfeCli, KeyReadsAClipOutsideARigOnItsOwn) {
  fs::copy_file(path("tiny/tiny.clips/wave.manim"), path("loose.manim"));
  const Result r = mfe("skel key " + arg("loose.manim") + " --bone anything --timeline shearX --t 0.5 --v 5");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const ClipSource clip = read_clip_ok(path("loose.manim"));
  const CurveTimeline* shear = find_timeline(clip, "anything", CurveKind::ShearX);
  ASSERT_NE(shear, nullptr);
  EXPECT_EQ(shear->values, (std::vector<float>{5}));
}

// ---- usage errors -------------------------------------------------------------------------------

TEST_F(MfeCli, UsageErrorsExitTwo) {
  const std::string wave = arg("tiny/tiny.clips/wave.manim");
  const std::string before = read_text(path("tiny/tiny.clips/wave.manim"));
  EXPECT_EQ(mfe("").exit_code, 2);
  EXPECT_EQ(mfe("skel").exit_code, 2);
  EXPECT_EQ(mfe("skel nosuch").exit_code, 2);
  EXPECT_EQ(mfe("skel check").exit_code, 2);
  EXPECT_EQ(mfe("skel check " + arg("tiny/tiny.mskel") + " --bogus").exit_code, 2);
  EXPECT_EQ(mfe("skel check " + arg("tiny/missing.mskel")).exit_code, 2);
  EXPECT_EQ(mfe("skel key " + wave + " --bone arm_l --timeline bogus --t 0 --v 1").exit_code, 2);
  EXPECT_EQ(mfe("skel key " + wave + " --bone arm_l --timeline attachment --t 0 --v 1").exit_code, 2);
  EXPECT_EQ(mfe("skel key " + wave + " --bone arm_l --timeline rotate --t 0 --v abc").exit_code, 2);
  EXPECT_EQ(mfe("skel key " + wave + " --bone arm_l --timeline rotate --t 0 --v 1 --curve wobbly").exit_code, 2);
  EXPECT_EQ(mfe("skel key " + wave + " --bone arm_l --timeline rotate --t 0 --v 1 --curve 1.5,0,0.5,1").exit_code, 2);
  EXPECT_EQ(mfe("skel key " + wave + " --bone arm_l --timeline rotate --v 1").exit_code, 2);  // no --t
  EXPECT_EQ(read_text(path("tiny/tiny.clips/wave.manim")), before);
  EXPECT_EQ(mfe("--help").exit_code, 0);
}


// ---- pose and bench -----------------------------------------------------------------------------

namespace pose_json {

const json::Value& member(const json::Value& v, const char* key) {
  const json::Value* m = v.find(key);
  EXPECT_NE(m, nullptr) << key;
  static const json::Value none;
  return m ? *m : none;
}

}  // namespace pose_json

// World positions in the tiny rig's setup pose, by hand: hip at (0, −40); the torso turned −90°
// points up, so arm_l, 50 px along it, is at (0, −90). The body region (20 × 60, centred 30 px along
// the torso's Y axis, which points right) has corners (0, −30), (0, −50), (60, −50), (60, −30).
TEST_F(MfeCli, PoseJsonGivesWorldTransformsSlotsAndVertices) {
  const Result r = mfe("skel pose " + arg("tiny/tiny.mskel") + " --clip idle --t 0 --json --vertices");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "stdout");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  using pose_json::member;
  const json::Value& bones = member(*doc, "bones");
  ASSERT_EQ(bones.items.size(), 6u);
  EXPECT_EQ(member(bones.items[1], "name").string, "hip");
  EXPECT_NEAR(member(bones.items[1], "y").number, -40, 1e-3);
  EXPECT_EQ(member(bones.items[3], "name").string, "arm_l");
  EXPECT_NEAR(member(bones.items[3], "x").number, 0, 1e-3);
  EXPECT_NEAR(member(bones.items[3], "y").number, -90, 1e-3);
  EXPECT_NEAR(member(bones.items[2], "c").number, -1, 1e-6);  // torso's X axis points up

  const json::Value& slots = member(*doc, "slots");
  ASSERT_EQ(slots.items.size(), 4u);
  EXPECT_EQ(member(slots.items[0], "attachment").string, "body");
  EXPECT_EQ(member(slots.items[1], "dark").string, "#102030");
  EXPECT_TRUE(member(slots.items[0], "dark").is_null());
  EXPECT_EQ(member(*doc, "drawOrder").items.size(), 4u);

  const json::Value& vertices = member(*doc, "vertices");
  ASSERT_FALSE(vertices.items.empty());
  const json::Value& body = vertices.items[0];
  EXPECT_EQ(member(body, "slot").string, "body");
  const std::vector<json::Value>& xy = member(body, "xy").items;
  const double expected[] = {60, -50, 60, -30, 0, -30, 0, -50};  // Spine's corner order
  ASSERT_EQ(xy.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_NEAR(xy[i].number, expected[i], 1e-3) << i;
}

TEST_F(MfeCli, PoseFollowsTheClip) {
  // At t = 1 the idle clip turns the torso by +3° (to −87°): its X axis (a, c) = (cos −87°, sin −87°).
  const Result r = mfe("skel pose " + arg("tiny/tiny.mskel") + " --clip idle --t 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "stdout");
  ASSERT_TRUE(doc.ok());
  const json::Value& torso = pose_json::member(*doc, "bones").items[2];
  EXPECT_NEAR(pose_json::member(torso, "a").number, 0.0523360, 1e-5);
  EXPECT_NEAR(pose_json::member(torso, "c").number, -0.9986295, 1e-5);
}

TEST_F(MfeCli, PoseTextAndUnknownClip) {
  const Result text = mfe("skel pose " + arg("tiny/tiny.mskel") + " --clip wave --t 0.5");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("bones (world: a b c d x y)"), std::string::npos);
  EXPECT_NE(text.output.find("draw order: body arm head eye"), std::string::npos) << text.output;
  const Result missing = mfe("skel pose " + arg("tiny/tiny.mskel") + " --clip nope --t 0");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.output.find("no clip \"nope\"; the rig has: idle, wave"), std::string::npos) << missing.output;
}

// A pose at a clip's length is its end: wave's stepped hip key at 1 s (y −4) and its eye key at 0.8 s
// (no attachment) show at --t 1; only time past the length wraps the looping clip to its start.
TEST_F(MfeCli, PoseAtTheClipsLengthIsItsEnd) {
  const auto pose_at = [&](const char* t) {
    const Result r = mfe("skel pose " + arg("tiny/tiny.mskel") + " --clip wave --t " + t + " --json");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    auto doc = json::parse(r.output, "stdout");
    EXPECT_TRUE(doc.ok()) << r.output;
    return doc.ok() ? std::move(doc).value() : json::Value{};
  };
  using pose_json::member;
  const json::Value end = pose_at("1");
  EXPECT_NEAR(member(member(end, "bones").items[1], "y").number, -44, 1e-3);
  EXPECT_TRUE(member(member(end, "slots").items[3], "attachment").is_null());
  const json::Value start = pose_at("0");
  EXPECT_NEAR(member(member(start, "bones").items[1], "y").number, -40, 1e-3);
  EXPECT_EQ(member(member(start, "slots").items[3], "attachment").string, "blink");
  const json::Value wrapped = pose_at("1.25");
  EXPECT_NEAR(member(member(wrapped, "bones").items[1], "y").number, -40, 1e-3);
}

// A clip in a sub-folder of the clips folder is named by its path.
TEST_F(MfeCli, PoseOfANestedClipByItsPath) {
  fs::create_directories(path("tiny/tiny.clips/emotes"));
  write_text(path("tiny/tiny.clips/emotes/nod.manim"), R"({
  "format": 1,
  "uid": "anm_5e5e5e5e5e5e",
  "type": "SkeletonClip",
  "skeleton": { "uid": "skl_7d1c40e2a9b3", "path": "tiny.mskel" },
  "length": 1,
  "bones": {
    "hip": {
      "translate": { "t": [0, 1], "v": [[0, 0], [0, -10]] }
    }
  }
}
)");
  const Result r = mfe("skel pose " + arg("tiny/tiny.mskel") + " --clip emotes/nod --t 0.5 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "stdout");
  ASSERT_TRUE(doc.ok()) << r.output;
  EXPECT_NEAR(pose_json::member(pose_json::member(*doc, "bones").items[1], "y").number, -45, 1e-3);
  const Result missing = mfe("skel pose " + arg("tiny/tiny.mskel") + " --clip nope --t 0");
  EXPECT_NE(missing.output.find("the rig has: emotes/nod, idle, wave"), std::string::npos) << missing.output;
  const Result check = mfe("skel check " + arg("tiny/tiny.mskel") + " --clip emotes/nod");
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

// --skin goblin composes default, goblin: the slots goblin leaves empty show the default skin's
// attachments, and goblin's own head wins over the default's.
TEST_F(MfeCli, PoseSkinsComposeOverTheDefaultSkin) {
  std::string text = read_text(path("tiny/tiny.mskel"));
  const std::string end = "    }\n  ]\n}";
  const std::size_t at = text.rfind(end);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, end.size(),
               "    },\n    { \"name\": \"goblin\", \"attachments\": [\n"
               "      { \"slot\": \"head\", \"name\": \"head\", \"type\": \"Region\", \"x\": 75, \"width\": 40, \"height\": 40 }\n"
               "    ] }\n  ]\n}");
  write_text(path("tiny/tiny.mskel"), text);
  const Result r = mfe("skel pose " + arg("tiny/tiny.mskel") + " --clip idle --t 0 --skin goblin --json --vertices");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "stdout");
  ASSERT_TRUE(doc.ok()) << r.output;
  using pose_json::member;
  const json::Value& slots = member(*doc, "slots");
  ASSERT_EQ(slots.items.size(), 4u);
  EXPECT_EQ(member(slots.items[0], "attachment").string, "body");  // only in default
  EXPECT_EQ(member(slots.items[1], "attachment").string, "arm");
  EXPECT_EQ(member(slots.items[2], "attachment").string, "head");
  EXPECT_EQ(member(slots.items[3], "attachment").string, "blink");
  // The head shown is goblin's 40 × 40 region, not the default's 24 × 24.
  bool found = false;
  for (const json::Value& v : member(*doc, "vertices").items) {
    if (member(v, "slot").string != "head") continue;
    found = true;
    const std::vector<json::Value>& xy = member(v, "xy").items;
    ASSERT_EQ(xy.size(), 8u);
    double min_x = 1e9, max_x = -1e9;
    for (std::size_t i = 0; i < 8; i += 2) {
      min_x = std::min(min_x, xy[i].number);
      max_x = std::max(max_x, xy[i].number);
    }
    EXPECT_NEAR(max_x - min_x, 40, 1e-3);
  }
  EXPECT_TRUE(found) << r.output;
}

TEST_F(MfeCli, BenchMeasuresEachStage) {
  const Result r = mfe("skel bench " + arg("tiny/tiny.mskel") + " --clip idle --instances 3 --frames 5");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* stage : {"clip application", "update order", "CPU vertices", "total"})
    EXPECT_NE(r.output.find(stage), std::string::npos) << stage;
  EXPECT_EQ(mfe("skel bench " + arg("tiny/tiny.mskel") + " --clip idle --instances 0").exit_code, 2);
}


// ---- pose of the example rig: constraints solved ------------------------------------------------

namespace example_pose {

std::string mannequin() { return std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel"; }

struct World {
  double a, c, x, y;
};

// The world transform of a bone in `mfe skel pose --json` output.
World bone(const json::Value& doc, const std::string& name) {
  for (const json::Value& b : pose_json::member(doc, "bones").items)
    if (pose_json::member(b, "name").string == name)
      return {pose_json::member(b, "a").number, pose_json::member(b, "c").number, pose_json::member(b, "x").number,
              pose_json::member(b, "y").number};
  ADD_FAILURE() << "no bone " << name;
  return {};
}

}  // namespace example_pose

// The mannequin's legs are two-bone IK chains (thigh, shin) whose targets carry the feet. Walking, the
// pose shows the solved legs: each shin's tip (origin + X axis × length) is on its target, and the
// foot, hanging from the target, is where the target is: the soles rest where the clip puts them.
TEST_F(MfeCli, PoseSolvesTheExampleRigsLegIk) {
  using namespace example_pose;
  if (!fs::exists(mannequin())) GTEST_SKIP() << "no example rig at " << mannequin();
  auto rig = load_rig(mannequin());
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  for (const char* t : {"0", "0.5"}) {
    const Result r = mfe("skel pose " + quote(mannequin()) + " --clip walk --t " + t + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    auto doc = json::parse(r.output, "stdout");
    ASSERT_TRUE(doc.ok()) << doc.error().to_string();
    for (const std::string side : {"l", "r"}) {
      const World target = bone(*doc, "foot_" + side + "_target");
      const World foot = bone(*doc, "foot_" + side);
      EXPECT_NEAR(foot.x, target.x, 0.5) << "t " << t << " foot_" << side;
      EXPECT_NEAR(foot.y, target.y, 0.5) << "t " << t << " foot_" << side;
      const int shin_index = rig->skeleton.find_bone("shin_" + side);
      ASSERT_GE(shin_index, 0);
      const double length = rig->skeleton.bones[static_cast<std::size_t>(shin_index)].length;
      const World shin = bone(*doc, "shin_" + side);
      const double miss = std::hypot(shin.x + shin.a * length - target.x, shin.y + shin.c * length - target.y);
      EXPECT_LT(miss, 1e-2) << "t " << t << " shin_" << side << " tip misses its target by " << miss << " px";
    }
  }
}

// Bend +1 on the legs turns each shin clockwise from its thigh: for the right-facing mannequin the knees
// bend forward.
TEST_F(MfeCli, PoseOfTheExampleWalkBendsTheKneesForward) {
  using namespace example_pose;
  if (!fs::exists(mannequin())) GTEST_SKIP() << "no example rig at " << mannequin();
  for (const char* t : {"0", "0.25", "0.5", "0.75"}) {
    const Result r = mfe("skel pose " + quote(mannequin()) + " --clip walk --t " + t + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    auto doc = json::parse(r.output, "stdout");
    ASSERT_TRUE(doc.ok()) << doc.error().to_string();
    for (const std::string side : {"l", "r"}) {
      const World thigh = bone(*doc, "thigh_" + side), shin = bone(*doc, "shin_" + side);
      // The shin's rotation relative to the thigh, in degrees (clockwise on screen is positive).
      const double knee =
          std::remainder(std::atan2(shin.c, shin.a) - std::atan2(thigh.c, thigh.a), 2 * 3.14159265358979323846) *
          180 / 3.14159265358979323846;
      EXPECT_GT(knee, 1) << "t " << t << " knee_" << side;
    }
  }
}

// ---- play ----------------------------------------------------------------------------------------

namespace play {

// idle plays 1 s, then wave replaces it with a 0.5 s crossfade (from the mix table); "mid" is taken a
// quarter second into the mix (fraction 0.5) and the script runs on until wave's event at 0.5 s.
const char* kCrossfade = R"([
  {"defaultMix": 0.1},
  {"mix": ["idle", "wave", 0.5]},
  {"set": "idle", "track": 0, "loop": true},
  {"advance": 1, "fps": 60},
  {"set": "wave", "track": 0, "loop": true},
  {"advance": 0.25, "fps": 60},
  {"pose": "mid"},
  {"advance": 0.3, "fps": 60}
])";

}  // namespace play

// Mid-mix, idle (torso +2.25° at 1.25 s) has weight 0.5 and wave does not key the torso, so the torso
// is turned halfway from its setup −90°: −88.875°, and its X axis is (cos, sin)(−88.875°).
TEST_F(MfeCli, PlayCrossfadesPrintsThePoseAndTheSignals) {
  write_text(path("cross.json"), play::kCrossfade);
  const Result r = mfe("skel play " + arg("tiny/tiny.mskel") + " --script " + arg("cross.json") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "stdout");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string() << "\n" << r.output;
  using pose_json::member;
  std::vector<std::string> signals;
  const json::Value* mid = nullptr;
  double event_time = -1;
  for (const json::Value& item : member(*doc, "output").items) {
    if (const json::Value* s = item.find("signal"))
      signals.push_back(s->string + " " + std::to_string(static_cast<int>(member(item, "track").number)) + " " +
                        (member(item, "clip").is_null() ? "-" : member(item, "clip").string));
    if (const json::Value* e = item.find("event")) {
      EXPECT_EQ(e->string, "step");
      EXPECT_EQ(member(item, "clip").string, "wave");
      EXPECT_EQ(member(item, "int").number, 1);
      event_time = member(item, "time").number;
    }
    if (const json::Value* p = item.find("pose")) {
      EXPECT_EQ(p->string, "mid");
      EXPECT_NEAR(member(item, "time").number, 1.25, 1e-4);
      mid = &item;
    }
  }
  const std::vector<std::string> expected = {"started 0 idle", "interrupted 0 idle", "started 0 wave",
                                             "ended 0 idle", "disposed 0 idle"};
  EXPECT_EQ(signals, expected) << r.output;
  EXPECT_NEAR(event_time, 1.5, 1.0 / 60 + 1e-4);  // wave's event at its 0.5 s, within one step
  ASSERT_NE(mid, nullptr);
  const json::Value& torso = member(*mid, "bones").items[2];
  EXPECT_EQ(member(torso, "name").string, "torso");
  const double angle = -88.875 * 3.14159265358979323846 / 180;
  EXPECT_NEAR(member(torso, "a").number, std::cos(angle), 1e-4);
  EXPECT_NEAR(member(torso, "c").number, std::sin(angle), 1e-4);

  // The text form prints the same signals, the event and the labelled pose.
  const Result text = mfe("skel play " + arg("tiny/tiny.mskel") + " --script " + arg("cross.json"));
  ASSERT_EQ(text.exit_code, 0) << text.output;
  for (const char* line : {"0.0167 started track 0 idle", "1.0167 interrupted track 0 idle", "1.0167 started track 0 wave",
                           "event step track 0 wave (int 1", "pose mid at 1.2500", "bones (world: a b c d x y)",
                           "draw order: body arm head eye", "ended track 0 idle"})
    EXPECT_NE(text.output.find(line), std::string::npos) << line << "\n" << text.output;
}

// A set step's own "mix" (seconds) replaces the mix table and the default: the same mid-mix torso as
// the table's 0.5 s above.
TEST_F(MfeCli, PlaySetStepTakesItsOwnMix) {
  write_text(path("own.json"), R"([
    {"defaultMix": 0.1},
    {"set": "idle", "track": 0, "loop": true},
    {"advance": 1, "fps": 60},
    {"set": "wave", "track": 0, "loop": true, "mix": 0.5},
    {"advance": 0.25, "fps": 60},
    {"pose": "mid"}
  ])");
  const Result r = mfe("skel play " + arg("tiny/tiny.mskel") + " --script " + arg("own.json") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "stdout");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string() << "\n" << r.output;
  using pose_json::member;
  const json::Value* mid = nullptr;
  for (const json::Value& item : member(*doc, "output").items)
    if (item.find("pose")) mid = &item;
  ASSERT_NE(mid, nullptr) << r.output;
  const json::Value& torso = member(*mid, "bones").items[2];
  const double angle = -88.875 * 3.14159265358979323846 / 180;
  EXPECT_NEAR(member(torso, "a").number, std::cos(angle), 1e-4);
  EXPECT_NEAR(member(torso, "c").number, std::sin(angle), 1e-4);
}

TEST_F(MfeCli, PlayReportsScriptErrorsWithPathAndPosition) {
  write_text(path("bad.json"), "[\n  {\"set\": \"idle\", \"track\": 0, \"loop\": true},\n  {\"set\": \"nope\", \"track\": 0, \"loop\": true}\n]");
  const Result r = mfe("skel play " + arg("tiny/tiny.mskel") + " --script " + arg("bad.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find(path("bad.json") + ":3:11: steps[1].set: no clip \"nope\"; the rig has: idle, wave"),
            std::string::npos)
      << r.output;
  write_text(path("typo.json"), "[{\"advance\": 1, \"fsp\": 30}]");
  const Result typo = mfe("skel play " + arg("tiny/tiny.mskel") + " --script " + arg("typo.json"));
  EXPECT_EQ(typo.exit_code, 1);
  EXPECT_NE(typo.output.find("steps[0].fsp"), std::string::npos) << typo.output;
  write_text(path("two.json"), "[{\"advance\": 1, \"pose\": \"x\"}]");
  const Result two = mfe("skel play " + arg("tiny/tiny.mskel") + " --script " + arg("two.json"));
  EXPECT_EQ(two.exit_code, 1);
  EXPECT_NE(two.output.find(path("two.json") + ":1:2: steps[0]: a step needs exactly one of"), std::string::npos)
      << two.output;
  EXPECT_EQ(mfe("skel play " + arg("tiny/tiny.mskel")).exit_code, 2);  // no --script
}

}  // namespace
}  // namespace mf::offline
