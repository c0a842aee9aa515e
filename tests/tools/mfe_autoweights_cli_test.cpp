// Runs `mfe skel autoweights` as a user would, on a copy of the example mannequin in a temporary
// folder: the re-weighted rig passes `mfe skel check` and its setup pose draws every vertex where it
// was; refused meshes, names and options leave the file as it was.

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

class MfeAutoweightsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<testing::TempDir>("mf_mfe_autoweights_cli");
    fs::copy(std::string(MF_EXAMPLES_DIR) + "/mannequin", dir_->path() / "mannequin", fs::copy_options::recursive);
    mskel_ = dir_->file("mannequin/mannequin.mskel");
  }
  Result mfe(const std::string& args) const { return mf::testing::run_shell(quote(MF_MFE_PATH) + " " + args); }
  Result autoweights(const std::string& args) const { return mfe("skel autoweights " + quote(mskel_) + " " + args); }
  std::string text() const { return mf::testing::read_text(mskel_); }

  std::unique_ptr<testing::TempDir> dir_;
  std::string mskel_;
};

// Every shown vertex of the rig's setup pose, in draw order.
std::vector<float> setup_vertices(const std::string& mskel) {
  Expected<BuildResult> built = build_rig_file(mskel);
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().to_string());
  if (!built) return {};
  skel::SkeletonInstance instance(*built->data);
  instance.update({});
  const auto p = instance.world_positions().positions();
  return {p.begin(), p.end()};
}

const MeshAttachment* mesh_named(const SkeletonSource& s, const std::string& skin, const std::string& name) {
  for (const Attachment& a : s.skins[static_cast<std::size_t>(s.find_skin(skin))].attachments)
    if (a.name == name) return std::get_if<MeshAttachment>(&a.data);
  return nullptr;
}

TEST_F(MfeAutoweightsCli, WeightsTheTorsoKeepsTheSetupPoseAndChecksClean) {
  const std::vector<float> before = setup_vertices(mskel_);
  const Result r = autoweights("--slot torso --skin default --bones chest,spine,hips --max-influences 3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("default/torso/torso: 15 vertices, max |weight sum - 1| "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bones [hips, spine, chest]"), std::string::npos) << r.output;

  const Result check = mfe("skel check " + quote(mskel_));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("0 errors, 0 warnings"), std::string::npos) << check.output;

  Expected<SkeletonSource> s = read_skeleton_file(mskel_);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  const MeshAttachment* torso = mesh_named(*s, "default", "torso");
  ASSERT_NE(torso, nullptr);
  ASSERT_EQ(torso->vertices.weights.size(), 15u);
  for (const std::vector<InfluenceSource>& v : torso->vertices.weights) {
    ASSERT_LE(v.size(), 3u);
    double sum = 0;
    for (const InfluenceSource& in : v) {
      sum += in.weight;
      EXPECT_TRUE(in.bone == s->find_bone("chest") || in.bone == s->find_bone("spine") || in.bone == s->find_bone("hips"));
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  // The written file is canonical: fmt finds nothing to change.
  EXPECT_EQ(write_skeleton(*s), text());

  const std::vector<float> after = setup_vertices(mskel_);
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(before[i], after[i], 1e-3) << "float " << i;
}

TEST_F(MfeAutoweightsCli, AllWeightsEveryMesh) {
  const std::vector<float> before = setup_vertices(mskel_);
  // The default bones: all but the root (it has bones below it) and the feet's IK targets.
  const Result r = autoweights("--all --prune 0.05");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("weighted 2 meshes to [shadow, hips, spine, "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("root"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("_target"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("default/scarf/scarf: 14 vertices"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("default/torso/torso: 15 vertices"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("weighted 2 meshes"), std::string::npos) << r.output;
  const Result check = mfe("skel check " + quote(mskel_));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  const std::vector<float> after = setup_vertices(mskel_);
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(before[i], after[i], 1e-3) << "float " << i;
}

TEST_F(MfeAutoweightsCli, RefusalsLeaveTheFileAsItWas) {
  const std::string original = text();
  struct Case {
    std::string args;
    int exit_code;
    std::string message;
  };
  const Case cases[] = {
      {"--slot torso", 1, "attachment \"torso\" of slot \"torso\" is in skins \"default\", \"knight\"; choose one with --skin"},
      {"--slot head --skin default", 1, "is a Region, not a Mesh"},
      {"--slot torso --skin default --bones chest,elbow", 1, "no bone named \"elbow\" (bones: [root, shadow, hips"},
      {"--slot torso --skin default --max-influences 9", 2, "--max-influences"},
      {"--slot torso --skin default --prune 1", 2, "expected a number from 0 to just under 1"},
      {"--skin default", 2, "name the mesh's slot with --slot, or weight every mesh with --all"},
      {"--all --slot torso", 2, "excludes"},
  };
  for (const Case& c : cases) {
    const Result r = autoweights(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(text(), original) << c.args;
  }
}

TEST_F(MfeAutoweightsCli, AMeshWithDeformKeysIsRefusedNamingTheClip) {
  Expected<SkeletonSource> s = read_skeleton_file(mskel_);
  ASSERT_TRUE(s.ok());
  ClipSource clip;
  clip.uid = "anm_00000000d3f0";
  clip.skeleton_uid = s->uid;
  clip.length = 1;
  clip.deforms.push_back({.skin = "default", .slot = "torso", .attachment = "torso", .times = {0},
                          .keys = {{.offset = 0, .values = {1, 2}}}, .curves = {}});
  ASSERT_TRUE(write_file_atomic(dir_->file("mannequin/mannequin.clips/breathe.manim"), write_clip(clip)).ok());
  const std::string original = text();
  const Result r = autoweights("--slot torso --skin default --bones chest,spine,hips");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("mannequin.mskel:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("has deform keys in clip \"breathe\""), std::string::npos) << r.output;
  EXPECT_EQ(text(), original);
  // The scarf has no deform keys: weighting it is fine.
  EXPECT_EQ(autoweights("--slot scarf --bones scarf_1,scarf_2,scarf_3").exit_code, 0);
}

}  // namespace
}  // namespace mf::offline
