// check_rig on the fixtures under tests/data/rigs: the clean rig gives no findings, and each broken
// variant gives the expected finding with its severity, file, JSON path and line.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "mf/offline/check/rig_check.hpp"

namespace mf::offline {
namespace {

std::string rig_path(const std::string& name) { return std::string(MF_TEST_DATA_DIR) + "/rigs/" + name; }

Rig load(const std::string& name) {
  auto rig = load_rig(rig_path(name));
  EXPECT_TRUE(rig.ok()) << rig.error().to_string();
  return rig.ok() ? *rig : Rig{};
}

std::vector<Finding> check(const std::string& name, std::optional<std::string> clip = std::nullopt) {
  return check_rig(load(name), CheckOptions{std::move(clip)});
}

std::string dump(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings)
    out += std::string(f.severity == Severity::Error ? "error: " : "warning: ") + f.error.to_string() + "\n";
  return out;
}

// The one finding at `path`; fails the test when there is not exactly one.
const Finding* at(const std::vector<Finding>& findings, const std::string& path) {
  const auto n = std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.error.path == path; });
  EXPECT_EQ(n, 1) << "findings at " << path << " in:\n" << dump(findings);
  auto it = std::find_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.error.path == path; });
  return it == findings.end() ? nullptr : &*it;
}

void expect_finding(const std::vector<Finding>& findings, const std::string& path, Severity severity,
                    const std::string& file, int line, const std::string& words) {
  const Finding* f = at(findings, path);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, severity) << f->error.to_string();
  EXPECT_EQ(std::filesystem::path(f->error.file).lexically_normal(),
            std::filesystem::path(rig_path(file)).lexically_normal());
  EXPECT_EQ(f->error.position.line, line) << f->error.to_string();
  EXPECT_GT(f->error.position.column, 0) << f->error.to_string();
  EXPECT_NE(f->error.message.find(words), std::string::npos) << f->error.to_string();
}

TEST(RigCheck, CleanRigHasNoFindings) {
  const auto findings = check("tiny/tiny.mskel");
  EXPECT_TRUE(findings.empty()) << dump(findings);
  EXPECT_FALSE(has_errors(findings));
}

TEST(RigCheck, WeightsThatDoNotSumToOneAreErrors) {
  const auto findings = check("broken/weights.mskel");
  expect_finding(findings, "skins[0].attachments[0].weights.v[1]", Severity::Error, "broken/weights.mskel", 42,
                 "sum to 0.9");
  expect_finding(findings, "skins[0].attachments[1].weights.v[1]", Severity::Error, "broken/weights.mskel", 56,
                 "sum to 1.2");
  EXPECT_TRUE(has_errors(findings));
}

TEST(RigCheck, MoreThanEightInfluencesIsAWarning) {
  const auto findings = check("broken/weights.mskel");
  // Vertex 2 has nine influences whose weights sum to exactly 1: only the influence count is reported.
  expect_finding(findings, "skins[0].attachments[0].weights.v[2]", Severity::Warning, "broken/weights.mskel", 43,
                 "9 influences");
  EXPECT_EQ(findings.size(), 3u) << dump(findings);
}

TEST(RigCheck, MissingImagesAreErrors) {
  const auto findings = check("broken/images.mskel");
  // A region without `image` uses its name; the path points at the name.
  expect_finding(findings, "skins[0].attachments[0].name", Severity::Error, "broken/images.mskel", 24,
                 "missing_region.png");
  // Sequence frames blink01..blink03 exist, blink04 does not.
  expect_finding(findings, "skins[0].attachments[1].sequence", Severity::Error, "broken/images.mskel", 25,
                 "blink04.png");
  // A linked mesh with its own image.
  expect_finding(findings, "skins[0].attachments[3].image", Severity::Error, "broken/images.mskel", 35, "nope.png");
  EXPECT_EQ(findings.size(), 3u) << dump(findings);  // the mesh "arm" and region "head" have their images
}

TEST(RigCheck, IkShearAndUnreachableTargetsAreWarnings) {
  const auto findings = check("broken/ik.mskel");
  expect_finding(findings, "ik[0].bones[0]", Severity::Warning, "broken/ik.mskel", 15, "shear");
  // upper (40) + lower (30) reach 70 px; the target is sqrt(100² + 50²) ≈ 111.8 px away.
  expect_finding(findings, "ik[0].target", Severity::Warning, "broken/ik.mskel", 15, "reach of 70 px");
  EXPECT_EQ(findings.size(), 2u) << dump(findings);
  EXPECT_FALSE(has_errors(findings));
}

TEST(RigCheck, IkTargetsOutOfReachDuringAClipAreWarnings) {
  // leg: thigh 50 + shin 45 px from the hip at (0, −100); the foot target at (0, −10) is 90 px away in
  // the setup pose. "reach" is out of reach from the start but stretches, so it is never reported.
  const auto findings = check("broken/ik_reach.mskel");
  // drop: the foot is keyed down by 40 px at 0.5 s; sampled at 0, 0.25, 0.5, 0.75 and 1 s, it is out of
  // reach at the three middle times (110, 130 and 110 px). The clip has no ik timeline: the finding
  // points at the target's timelines.
  expect_finding(findings, "bones.foot", Severity::Warning, "broken/ik_reach.clips/drop.manim", 10,
                 "ik constraint \"leg\" cannot reach its target \"foot\" and does not stretch: at 0.5 s the target "
                 "is 130 px from the chain's root, beyond its reach of 95 px (out of reach at 3 of 5 sampled times, "
                 "first at 0.25 s)");
  // lift: the hip is raised by 20 px (110 px from the foot) while the clip's ik timeline keeps the mix
  // above 0: the finding points at that timeline.
  expect_finding(findings, "ik.leg", Severity::Warning, "broken/ik_reach.clips/lift.manim", 15,
                 "at 0 s the target is 110 px from the chain's root, beyond its reach of 95 px (out of reach at 3 "
                 "of 3 sampled times");
  // mix_off keys the mix to 0 and stretch keys stretch on: the same unreachable foot is not reported.
  EXPECT_EQ(findings.size(), 2u) << dump(findings);
  EXPECT_FALSE(has_errors(findings));
  // With a clip option only that clip is sampled.
  EXPECT_EQ(check("broken/ik_reach.mskel", "stretch").size(), 0u);
  EXPECT_EQ(check("broken/ik_reach.mskel", "lift").size(), 1u);
}

TEST(RigCheck, KeysPastTheClipLengthAreErrors) {
  const auto findings = check("broken/clips.mskel", "past_length");
  expect_finding(findings, "bones.arm_l.rotate.t[2]", Severity::Error, "broken/clips.clips/past_length.manim", 11,
                 "1.25 s is past the clip's length of 1 s");
  expect_finding(findings, "events.t[0]", Severity::Error, "broken/clips.clips/past_length.manim", 15, "1.5 s");
  EXPECT_EQ(findings.size(), 2u) << dump(findings);
}

TEST(RigCheck, BezierXOutsideUnitRangeIsAnErrorButYIsFree) {
  const auto findings = check("broken/clips.mskel", "bad_curve");
  expect_finding(findings, "bones.arm_l.rotate.curve[0]", Severity::Error, "broken/clips.clips/bad_curve.manim", 11,
                 "1.5");
  // A per-component curve list: the path names the component.
  expect_finding(findings, "bones.hip.translate.curve[0][1]", Severity::Error, "broken/clips.clips/bad_curve.manim",
                 14, "-0.1");
  // curve[1] of the rotate timeline has y values -2 and 3: allowed.
  EXPECT_EQ(findings.size(), 2u) << dump(findings);
}

TEST(RigCheck, JointFlipsAndShearOnIkBonesAreWarnings) {
  const auto findings = check("broken/clips.mskel", "flip");
  // 170 → -170 turns 340° the long way; 190 would turn 20°.
  expect_finding(findings, "bones.arm_l.rotate.v[2]", Severity::Warning, "broken/clips.clips/flip.manim", 11, "190");
  expect_finding(findings, "bones.arm_l.shear", Severity::Warning, "broken/clips.clips/flip.manim", 12, "arm_ik");
  // torso jumps 300° over a stepped segment: no in-between frames, so no flip. But at t = 1 that turn
  // (to 210° in the world) carries the arm's root to (−43.3, −65), 83.45 px from hand_target at
  // (40, −60), beyond the arm's reach of 30 + 25 px (55.33 with the arm's shear): the runtime check
  // reports it at the clip, which keys neither the constraint nor the target.
  expect_finding(findings, "", Severity::Warning, "broken/clips.clips/flip.manim", 1,
                 "cannot reach its target \"hand_target\" and does not stretch: at 1 s the target is 83.45 px");
  EXPECT_EQ(findings.size(), 3u) << dump(findings);
  EXPECT_FALSE(has_errors(findings));
}

TEST(RigCheck, ClipReaderErrorsBecomeErrorFindings) {
  const auto findings = check("broken/clips.mskel", "unreadable");
  expect_finding(findings, "bones.tail", Severity::Error, "broken/clips.clips/unreadable.manim", 10, "tail");
  EXPECT_EQ(findings.size(), 1u) << dump(findings);
}

TEST(RigCheck, AClipOfAnotherSkeletonIsAnError) {
  const auto findings = check("broken/clips.mskel", "foreign");
  expect_finding(findings, "skeleton.uid", Severity::Error, "broken/clips.clips/foreign.manim", 5, "skl_ffffffffffff");
  EXPECT_EQ(findings.size(), 1u) << dump(findings);
}

TEST(RigCheck, AnUnknownClipOptionIsAnErrorListingTheClips) {
  const auto findings = check("broken/clips.mskel", "nosuch");
  ASSERT_EQ(findings.size(), 1u) << dump(findings);
  EXPECT_EQ(findings[0].severity, Severity::Error);
  EXPECT_NE(findings[0].error.message.find("nosuch"), std::string::npos);
  EXPECT_NE(findings[0].error.message.find("bad_curve, flip, foreign, past_length, unreadable"), std::string::npos)
      << findings[0].error.message;
}

TEST(RigCheck, WithoutAClipOptionEveryClipIsChecked) {
  const auto findings = check("broken/clips.mskel");
  // 2 (bad_curve) + 3 (flip) + 1 (foreign) + 2 (past_length) + 1 (unreadable), clips in name order.
  ASSERT_EQ(findings.size(), 9u) << dump(findings);
  EXPECT_EQ(std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Warning; }),
            3);
  EXPECT_NE(findings.front().error.file.find("bad_curve.manim"), std::string::npos);
  EXPECT_NE(findings.back().error.file.find("unreadable.manim"), std::string::npos);
}

TEST(RigCheck, HasErrorsIgnoresWarnings) {
  std::vector<Finding> findings{{Severity::Warning, Error{"a.mskel", "bones[0]", {}, "w"}}};
  EXPECT_FALSE(has_errors(findings));
  findings.push_back({Severity::Error, Error{"a.mskel", "bones[1]", {}, "e"}});
  EXPECT_TRUE(has_errors(findings));
  EXPECT_FALSE(has_errors({}));
}

}  // namespace
}  // namespace mf::offline
