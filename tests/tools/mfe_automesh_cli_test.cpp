// Runs `mfe skel automesh` as a user would on a copy of the example rig in a temporary folder, then
// `mfe skel check` and `mfe skel build` on the result.

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/json/json.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

class MfeAutomeshCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<testing::TempDir>("mf_mfe_automesh_cli");
    fs::copy(std::string(MF_EXAMPLES_DIR) + "/mannequin", dir_->path() / "mannequin", fs::copy_options::recursive);
    fs::copy(std::string(MF_TEST_DATA_DIR) + "/rigs/tiny", dir_->path() / "tiny", fs::copy_options::recursive);
    mskel_ = dir_->file("mannequin/mannequin.mskel");
  }

  Result mfe(const std::string& args) const {
    return mf::testing::run_shell("MF_SKELETON_BAKE_CACHE_DIR=off " + quote(MF_MFE_PATH) + " " + args);
  }

  const Attachment* find(const SkeletonSource& s, const std::string& skin, const std::string& slot,
                         const std::string& name) const {
    const int k = s.find_skin(skin), sl = s.find_slot(slot);
    if (k < 0 || sl < 0) return nullptr;
    for (const Attachment& a : s.skins[static_cast<std::size_t>(k)].attachments)
      if (a.slot == sl && a.name == name) return &a;
    return nullptr;
  }

  std::unique_ptr<testing::TempDir> dir_;
  std::string mskel_;
};

TEST_F(MfeAutomeshCli, MeshesTheSlotsSetupAttachmentAndTheRigStillChecksAndBuilds) {
  const Result r = mfe("skel automesh " + quote(mskel_) + " --slot head");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* expected : {"skin \"default\", slot \"head\", attachment \"head\" (image \"head\")", "auto mesh",
                               "ear clipping", "1 Region attachment replaced by meshes"})
    EXPECT_NE(r.output.find(expected), std::string::npos) << "missing \"" << expected << "\" in:\n" << r.output;

  const Expected<SkeletonSource> s = read_skeleton_file(mskel_);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  const Attachment* head = find(*s, "default", "head", "head");
  ASSERT_NE(head, nullptr);
  ASSERT_EQ(head->type(), AttachmentType::Mesh);
  const MeshAttachment& mesh = std::get<MeshAttachment>(head->data);
  EXPECT_EQ(mesh.width, 72);
  EXPECT_EQ(mesh.height, 80);
  EXPECT_GE(mesh.hull, 3);
  EXPECT_FALSE(mesh.edges.empty());
  // Other attachments are untouched.
  EXPECT_EQ(find(*s, "default", "neck", "neck")->type(), AttachmentType::Region);

  const Result check = mfe("skel check " + quote(mskel_));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  const Result build = mfe("skel build " + quote(mskel_) + " --out " + quote(dir_->file("mannequin.mbuild")));
  EXPECT_EQ(build.exit_code, 0) << build.output;
  EXPECT_TRUE(fs::exists(dir_->file("mannequin.mbuild")));
}

TEST_F(MfeAutomeshCli, AllRegionsWithAJsonReport) {
  const Result r = mfe("skel automesh " + quote(mskel_) + " --all --density 1.5 --padding 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "automesh output");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string() << "\n" << r.output;
  const json::Value* attachments = json::find_path(*doc, "attachments");
  ASSERT_NE(attachments, nullptr);
  EXPECT_EQ(attachments->items.size(), 21u);  // every Region of both skins
  for (std::size_t i = 0; i < attachments->items.size(); ++i) {
    const std::string at = "attachments[" + std::to_string(i) + "]";
    const double triangles = json::find_path(*doc, at + ".triangles")->number;
    double counted = 0;
    for (const json::Value& c : json::find_path(*doc, at + ".angles.counts")->items) counted += c.number;
    EXPECT_EQ(counted, triangles) << at;
    EXPECT_GT(json::find_path(*doc, at + ".earClipTriangles")->number, 0) << at;
    // The refined mesh's worst triangle is no worse than ear clipping's of the same outline.
    EXPECT_GE(json::find_path(*doc, at + ".angles.smallest")->number,
              json::find_path(*doc, at + ".earClipAngles.smallest")->number)
        << at;
  }
  const Expected<SkeletonSource> s = read_skeleton_file(mskel_);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  for (const Skin& skin : s->skins)
    for (const Attachment& a : skin.attachments) EXPECT_NE(a.type(), AttachmentType::Region) << a.name;
  EXPECT_EQ(mfe("skel check " + quote(mskel_)).exit_code, 0);
  const Result build = mfe("skel build " + quote(mskel_));
  EXPECT_EQ(build.exit_code, 0) << build.output;
}

TEST_F(MfeAutomeshCli, ChoosesTheSkinAndAttachment) {
  const Result r = mfe("skel automesh " + quote(mskel_) + " --slot foot_l --skin knight --attachment foot");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("skin \"knight\", slot \"foot_l\", attachment \"foot\" (image \"boot\")"), std::string::npos)
      << r.output;
  const Expected<SkeletonSource> s = read_skeleton_file(mskel_);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(find(*s, "knight", "foot_l", "foot")->type(), AttachmentType::Mesh);
  EXPECT_EQ(std::get<MeshAttachment>(find(*s, "knight", "foot_l", "foot")->data).image, "boot");
  EXPECT_EQ(find(*s, "default", "foot_l", "foot")->type(), AttachmentType::Region);
}

TEST_F(MfeAutomeshCli, SequencesAreSkippedByAllAndRefusedByName) {
  const std::string tiny = dir_->file("tiny/tiny.mskel");
  const Result one = mfe("skel automesh " + quote(tiny) + " --slot eye");
  EXPECT_EQ(one.exit_code, 1) << one.output;
  EXPECT_NE(one.output.find("skin \"default\", slot \"eye\", attachment \"blink\": shows a sequence of 3 images"),
            std::string::npos)
      << one.output;
  const Result all = mfe("skel automesh " + quote(tiny) + " --all");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  EXPECT_NE(all.output.find("skipped skin \"default\", slot \"eye\", attachment \"blink\": shows a sequence"),
            std::string::npos)
      << all.output;
  EXPECT_NE(all.output.find("2 Region attachments replaced by meshes"), std::string::npos) << all.output;
  EXPECT_EQ(mfe("skel check " + quote(tiny)).exit_code, 0);
}

TEST_F(MfeAutomeshCli, ErrorsLeaveTheFileAlone) {
  const Expected<std::string> before = read_file(mskel_);
  ASSERT_TRUE(before.ok());
  const Result mesh = mfe("skel automesh " + quote(mskel_) + " --slot scarf");
  EXPECT_EQ(mesh.exit_code, 1) << mesh.output;
  EXPECT_NE(mesh.output.find("skin \"default\", slot \"scarf\", attachment \"scarf\": is a Mesh, not a Region"),
            std::string::npos)
      << mesh.output;
  const Result slot = mfe("skel automesh " + quote(mskel_) + " --slot tail");
  EXPECT_EQ(slot.exit_code, 1) << slot.output;
  EXPECT_NE(slot.output.find("no slot named \"tail\" (slots: shadow,"), std::string::npos) << slot.output;
  const Result skin = mfe("skel automesh " + quote(mskel_) + " --slot head --skin robe");
  EXPECT_EQ(skin.exit_code, 1) << skin.output;
  EXPECT_NE(skin.output.find("no skin named \"robe\" (skins: default, knight)"), std::string::npos) << skin.output;
  fs::remove(dir_->file("mannequin/images/neck.png"));
  const Result image = mfe("skel automesh " + quote(mskel_) + " --slot neck");
  EXPECT_EQ(image.exit_code, 1) << image.output;
  EXPECT_NE(image.output.find("image \"neck\""), std::string::npos) << image.output;
  EXPECT_EQ(mfe("skel automesh " + quote(mskel_)).exit_code, 2);
  EXPECT_EQ(mfe("skel automesh " + quote(mskel_) + " --slot head --density 20").exit_code, 2);
  EXPECT_EQ(mfe("skel automesh " + quote(mskel_) + " --slot head --all").exit_code, 2);
  EXPECT_EQ(read_file(mskel_).value(), before.value());
}

}  // namespace
}  // namespace mf::offline
