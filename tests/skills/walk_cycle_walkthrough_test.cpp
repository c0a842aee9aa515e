// The skeleton skill's walk-cycle recipe (.claude/skills/skeleton/SKILL.md), followed with the CLI
// alone on a copy of the mannequin: a new clip, its keys from a --keys file and two events, a check
// with 0 errors, a rendered sheet; then the result is held to what the recipe promises. The loop is
// seamless (the pose at 0 and at the clip's length agree within 0.01 px), each foot sits on its IK
// target within 1 px while it is planted, and the rig's existing clips are byte-identical afterwards.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "mf/core/file_io.hpp"
#include "mf/offline/json/json.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::skills {
namespace {

namespace fs = std::filesystem;
using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

// The recipe's keys, as SKILL.md lists them.
constexpr const char* kWalkKeys = R"([
  { "bone": "foot_l_target", "timeline": "translate", "t": 0, "v": [40, 0], "curve": "linear" },
  { "bone": "foot_l_target", "timeline": "translate", "t": 0.25, "v": [0, 0], "curve": "linear" },
  { "bone": "foot_l_target", "timeline": "translate", "t": 0.5, "v": [-40, 0], "curve": "ease" },
  { "bone": "foot_l_target", "timeline": "translate", "t": 0.75, "v": [0, -30], "curve": "ease" },
  { "bone": "foot_l_target", "timeline": "translate", "t": 1, "v": [40, 0] },
  { "bone": "foot_r_target", "timeline": "translate", "t": 0, "v": [-40, 0], "curve": "ease" },
  { "bone": "foot_r_target", "timeline": "translate", "t": 0.25, "v": [0, -30], "curve": "ease" },
  { "bone": "foot_r_target", "timeline": "translate", "t": 0.5, "v": [40, 0], "curve": "linear" },
  { "bone": "foot_r_target", "timeline": "translate", "t": 0.75, "v": [0, 0], "curve": "linear" },
  { "bone": "foot_r_target", "timeline": "translate", "t": 1, "v": [-40, 0] },
  { "bone": "hips", "timeline": "translateY", "t": 0, "v": 10, "curve": "ease" },
  { "bone": "hips", "timeline": "translateY", "t": 0.25, "v": 2, "curve": "ease" },
  { "bone": "hips", "timeline": "translateY", "t": 0.5, "v": 10, "curve": "ease" },
  { "bone": "hips", "timeline": "translateY", "t": 0.75, "v": 2, "curve": "ease" },
  { "bone": "hips", "timeline": "translateY", "t": 1, "v": 10 },
  { "bone": "upper_arm_l", "timeline": "rotate", "t": 0, "v": -20, "curve": "ease" },
  { "bone": "upper_arm_l", "timeline": "rotate", "t": 0.5, "v": 20, "curve": "ease" },
  { "bone": "upper_arm_l", "timeline": "rotate", "t": 1, "v": -20 },
  { "bone": "upper_arm_r", "timeline": "rotate", "t": 0, "v": 20, "curve": "ease" },
  { "bone": "upper_arm_r", "timeline": "rotate", "t": 0.5, "v": -20, "curve": "ease" },
  { "bone": "upper_arm_r", "timeline": "rotate", "t": 1, "v": 20 }
])";

constexpr double kLoopTolPx = 0.01;
constexpr double kFootTolPx = 1.0;

struct BoneWorld {
  double a = 1, b = 0, c = 0, d = 1, x = 0, y = 0;
};

class WalkCycleWalkthrough : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<mf::testing::TempDir>("mf_skill_walk");
    fs::copy(std::string(MF_EXAMPLES_DIR) + "/mannequin", dir_->path() / "mannequin", fs::copy_options::recursive);
    rig_ = dir_->file("mannequin/mannequin.mskel");
  }

  Result mfe(const std::string& args) const {
    return mf::testing::run_shell("MF_SKELETON_BAKE_CACHE_DIR=" + quote(dir_->file("cache")) + " " + quote(MF_MFE_PATH) + " " + args);
  }

  // Every bone's world transform at `t` of `clip`, from `mfe skel pose --json`.
  std::map<std::string, BoneWorld> pose(const std::string& clip, double t) const {
    const Result r = mfe("skel pose " + quote(rig_) + " --clip " + clip + " --t " + std::to_string(t) + " --json");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    auto doc = json::parse(r.output, "pose");
    EXPECT_TRUE(doc) << (doc ? "" : doc.error().to_string());
    std::map<std::string, BoneWorld> out;
    if (!doc) return out;
    const json::Value* bones = doc->find("bones");
    if (!bones) return out;
    for (const json::Value& bone : bones->items) {
      const auto n = [&](const char* key) { return bone.find(key) ? bone.find(key)->number : 0.0; };
      out[bone.find("name")->string] = BoneWorld{n("a"), n("b"), n("c"), n("d"), n("x"), n("y")};
    }
    return out;
  }

  std::unique_ptr<mf::testing::TempDir> dir_;
  std::string rig_;
};

// Setup lengths of the two-bone legs (from the rig).
constexpr double kShinLength = 67;

// The distance from the shin's tip to its IK target's origin.
double foot_gap(const std::map<std::string, BoneWorld>& pose, const std::string& side) {
  const BoneWorld& shin = pose.at("shin_" + side);
  const BoneWorld& target = pose.at("foot_" + side + "_target");
  const double tip_x = shin.x + shin.a * kShinLength, tip_y = shin.y + shin.c * kShinLength;
  return std::hypot(tip_x - target.x, tip_y - target.y);
}

TEST_F(WalkCycleWalkthrough, TheRecipeMakesASeamlessWalkWithPlantedFeetAndLeavesOtherClipsAlone) {
  // The clips an artist made, byte for byte.
  std::map<std::string, std::string> before;
  for (const auto& e : fs::directory_iterator(dir_->path() / "mannequin" / "mannequin.clips"))
    before[e.path().filename().string()] = read_file(e.path().string()).value();
  const std::string graph_before = read_file(dir_->file("mannequin/locomotion.mgraph")).value();

  ASSERT_TRUE(write_file_atomic(dir_->file("walk-keys.json"), kWalkKeys));
  Result r = mfe("skel clip new " + quote(rig_) + " stroll --length 1 --fps 30 --loop");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = mfe("skel key " + quote(rig_) + " --clip stroll --keys " + quote(dir_->file("walk-keys.json")));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = mfe("skel key " + quote(rig_) + " --clip stroll --event footstep --t 0 --string left");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = mfe("skel key " + quote(rig_) + " --clip stroll --event footstep --t 0.5 --string right");
  ASSERT_EQ(r.exit_code, 0) << r.output;

  r = mfe("skel check " + quote(rig_) + " --clip stroll");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("0 errors"), std::string::npos) << r.output;

  const std::string sheet = dir_->file("stroll.png");
  r = mfe("skel render " + quote(rig_) + " --clip stroll --frames 8 --out " + quote(sheet) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(sheet));
  ASSERT_NE(r.output.find('{'), std::string::npos) << r.output;
  auto drawn = json::parse(r.output.substr(r.output.find('{')), "render --json");
  ASSERT_TRUE(drawn) << r.output;
  ASSERT_TRUE(drawn->find("clip") && drawn->find("frames")) << r.output;
  EXPECT_EQ(drawn->find("clip")->string, "stroll");
  EXPECT_EQ(drawn->find("frames")->items.size(), 8u);

  // Seamless: the pose at the length is the pose at 0.
  const auto start = pose("stroll", 0), end = pose("stroll", 1);
  ASSERT_FALSE(start.empty());
  for (const auto& [name, w] : start) {
    SCOPED_TRACE(name);
    const BoneWorld& e = end.at(name);
    EXPECT_NEAR(w.x, e.x, kLoopTolPx);
    EXPECT_NEAR(w.y, e.y, kLoopTolPx);
    // A bone 100 px long moves its tip by 100 × the change of its axes.
    EXPECT_NEAR(w.a * 100, e.a * 100, kLoopTolPx);
    EXPECT_NEAR(w.c * 100, e.c * 100, kLoopTolPx);
  }

  // Planted feet: the left from 0 to 0.5 s, the right from 0.5 to 1 s (and both at the contacts).
  for (int frame = 0; frame <= 30; ++frame) {
    const double t = frame / 30.0;
    const auto p = pose("stroll", t);
    SCOPED_TRACE("t = " + std::to_string(t));
    if (t <= 0.5) {
      EXPECT_LE(foot_gap(p, "l"), kFootTolPx);
    }
    if (t >= 0.5 || t == 0) {
      EXPECT_LE(foot_gap(p, "r"), kFootTolPx);
    }
  }

  // Nothing else changed.
  for (const auto& [name, bytes] : before)
    EXPECT_EQ(read_file(dir_->file("mannequin/mannequin.clips/" + name)).value(), bytes) << name;
  EXPECT_EQ(read_file(dir_->file("mannequin/locomotion.mgraph")).value(), graph_before);
  EXPECT_TRUE(fs::exists(dir_->file("mannequin/mannequin.clips/stroll.manim")));
}

}  // namespace
}  // namespace mf::skills
