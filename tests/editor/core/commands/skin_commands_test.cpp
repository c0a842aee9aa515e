// Skin commands: add, duplicate (with deform keys), rename (linked meshes and deform keys follow),
// remove (with the references it leaves), and the skin's bones and constraints.

#include <gtest/gtest.h>

#include "editor_fixture.hpp"
#include "mf/editor/core/commands/skin_commands.hpp"

namespace mf::editor {
namespace {

using test::check_command;
using test::check_refused;
using test::RigFixture;

TEST(SkinCommands, AddAndDuplicate) {
  RigFixture f(true);
  check_command(f.doc, f.history, std::make_unique<AddSkin>("winter"));
  EXPECT_EQ(f.history.names().back(), "Add skin \"winter\"");
  check_command(f.doc, f.history, std::make_unique<AddSkin>(""));
  EXPECT_EQ(f.s().skins.back().name, "skin");
  check_refused(f.doc, f.history, std::make_unique<AddSkin>("armored"));

  const std::size_t deforms = f.clip_model("rich").deforms.size();
  check_command(f.doc, f.history, std::make_unique<DuplicateSkin>(f.skin("default"), ""));
  EXPECT_EQ(f.history.names().back(), "Duplicate skin \"default\"");
  const int copy = f.skin("default2");
  ASSERT_GE(copy, 0);
  EXPECT_EQ(f.s().skins[static_cast<std::size_t>(copy)].attachments.size(), f.s().skins[0].attachments.size());
  EXPECT_EQ(f.clip_model("rich").deforms.size(), deforms + 2);  // default's two deform timelines, copied
}

TEST(SkinCommands, RenameFollowsLinkedMeshesAndDeformKeys) {
  RigFixture f(true);
  check_command(f.doc, f.history, std::make_unique<RenameSkin>(f.skin("default"), "base"));
  EXPECT_EQ(f.history.names().back(), "Rename skin \"default\" to \"base\"");
  EXPECT_EQ(f.doc.skeleton_text().find("\"skin\": \"default\""), std::string::npos);  // armored's linked mesh
  EXPECT_EQ(f.clip("rich").find("\"default\""), std::string::npos);
  check_refused(f.doc, f.history, std::make_unique<RenameSkin>(f.skin("base"), "armored"));
}

TEST(SkinCommands, RemoveTakesItsAttachmentsAndWhatNamedThem) {
  RigFixture f(true);
  // armored's linked mesh borrows from default: default cannot go first.
  EXPECT_NE(check_refused(f.doc, f.history, std::make_unique<RemoveSkin>(f.skin("default"))).message.find("armored/linked_default"),
            std::string::npos);
  check_command(f.doc, f.history, std::make_unique<RemoveSkin>(f.skin("armored")));
  EXPECT_EQ(f.history.names().back(), "Remove skin \"armored\"");
  EXPECT_EQ(f.clip("rich").find("open_path"), std::string::npos);
  EXPECT_EQ(f.clip("rich").find("linked_default"), std::string::npos);  // an attachment key of the mesh slot
  check_command(f.doc, f.history, std::make_unique<RemoveSkin>(f.skin("default")));
  for (const offline::Slot& s : f.s().slots) EXPECT_TRUE(s.attachment.empty()) << s.name;
  // Keys that hide the slot (null) name nothing and stay.
  for (const offline::AttachmentTimeline& tl : f.clip_model("rich").attachments)
    for (const auto& name : tl.names) EXPECT_FALSE(name.has_value()) << tl.slot;
  EXPECT_TRUE(f.clip_model("rich").deforms.empty());
}

TEST(SkinCommands, BonesAndConstraints) {
  RigFixture f(true);
  const int empty = f.skin("empty");
  check_command(f.doc, f.history, std::make_unique<SetSkinBones>(empty, std::vector<int>{f.bone("cape"), f.bone("tail")}));
  EXPECT_EQ(f.history.names().back(), "Set bones of skin \"empty\"");
  check_refused(f.doc, f.history, std::make_unique<SetSkinBones>(empty, std::vector<int>{f.bone("cape"), f.bone("cape")}));
  check_refused(f.doc, f.history, std::make_unique<SetSkinBones>(empty, std::vector<int>{99}));
  // Given across kinds, stored grouped by kind as the file lists them.
  const std::vector<offline::ConstraintRef> refs = {{offline::ConstraintKind::Physics, 0}, {offline::ConstraintKind::Ik, 1}};
  check_command(f.doc, f.history, std::make_unique<SetSkinConstraints>(empty, refs));
  EXPECT_EQ(f.s().skins[static_cast<std::size_t>(empty)].constraints,
            (std::vector<offline::ConstraintRef>{{offline::ConstraintKind::Ik, 1}, {offline::ConstraintKind::Physics, 0}}));
  EXPECT_EQ(f.history.names().back(), "Set constraints of skin \"empty\"");
  check_refused(f.doc, f.history,
                std::make_unique<SetSkinConstraints>(empty, std::vector<offline::ConstraintRef>{{offline::ConstraintKind::Path, 5}}));
}

}  // namespace
}  // namespace mf::editor
