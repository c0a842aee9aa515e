// Selection and Workspace: typed ids by name, the primary, renames followed through execute, undo
// and redo (attachments follow their slot's and skin's renames), deleted objects dropped, and saving.

#include <gtest/gtest.h>

#include "editor_fixture.hpp"
#include "mf/editor/core/commands/attachment_commands.hpp"
#include "mf/editor/core/commands/bone_commands.hpp"
#include "mf/editor/core/commands/constraint_commands.hpp"
#include "mf/editor/core/commands/skin_commands.hpp"
#include "mf/editor/core/commands/slot_commands.hpp"
#include "mf/editor/core/workspace.hpp"

namespace mf::editor {
namespace {

TEST(Selection, SetOperationsAndPrimary) {
  Selection s;
  EXPECT_EQ(s.primary(), nullptr);
  s.select(BoneId{"a"});
  s.add(SlotId{"b"});
  s.add(BoneId{"a"});  // moves to the end: the primary
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(*s.primary(), ObjectId(BoneId{"a"}));
  s.toggle(SlotId{"b"});
  EXPECT_FALSE(s.contains(SlotId{"b"}));
  s.toggle(EventId{"e"});
  EXPECT_EQ(s.of_kind<BoneId>(), std::vector<BoneId>{BoneId{"a"}});
  EXPECT_EQ(s.of_kind<EventId>(), std::vector<EventId>{EventId{"e"}});
  s.remove(BoneId{"a"});
  s.select(SkinId{"x"});
  EXPECT_EQ(s.size(), 1u);
  // A bone and a slot of one name are different objects.
  EXPECT_NE(ObjectId(BoneId{"n"}), ObjectId(SlotId{"n"}));
  EXPECT_NE(ObjectId(ConstraintId{offline::ConstraintKind::Ik, "n"}), ObjectId(ConstraintId{offline::ConstraintKind::Path, "n"}));
}

TEST(ObjectIds, FindAndDescribe) {
  test::RigFixture f(true);
  EXPECT_EQ(find(f.s(), BoneId{"hip"}), 1);
  EXPECT_EQ(find(f.s(), SlotId{"nothing"}), -1);
  const auto muzzle = find(f.s(), AttachmentId{"armored", "fx", "muzzle"});
  ASSERT_TRUE(muzzle);
  EXPECT_EQ(attachment_id(f.s(), *muzzle), (AttachmentId{"armored", "fx", "muzzle"}));
  EXPECT_TRUE(exists(f.s(), ConstraintId{offline::ConstraintKind::Physics, "tail_physics"}));
  EXPECT_FALSE(exists(f.s(), ConstraintId{offline::ConstraintKind::Ik, "tail_physics"}));
  EXPECT_EQ(describe(AttachmentId{"armored", "fx", "muzzle"}), "attachment \"muzzle\" (skin \"armored\", slot \"fx\")");
  EXPECT_EQ(describe(ConstraintId{offline::ConstraintKind::Transform, "t"}), "transform constraint \"t\"");
}

struct WorkspaceFixture {
  mf::testing::TempDir temp{"mf_editor_workspace"};
  Workspace ws;
  explicit WorkspaceFixture(bool rich = true)
      : ws(test::RigFixture::open(rich ? test::write_rich_rig(temp) : test::copy_mannequin(temp))) {}
  int bone(const std::string& n) const { return ws.document().skeleton().find_bone(n); }
  int slot(const std::string& n) const { return ws.document().skeleton().find_slot(n); }
};

TEST(Workspace, SelectionFollowsRenamesThroughUndoAndRedo) {
  WorkspaceFixture w;
  w.ws.selection().select(BoneId{"hip"});
  w.ws.selection().add(AttachmentId{"armored", "fx", "muzzle"});
  w.ws.selection().add(ConstraintId{offline::ConstraintKind::Ik, "leg_ik"});
  ASSERT_TRUE(w.ws.execute(std::make_unique<RenameBone>(w.bone("hip"), "pelvis")));
  ASSERT_TRUE(w.ws.execute(std::make_unique<RenameSlot>(w.slot("fx"), "effects")));
  ASSERT_TRUE(w.ws.execute(std::make_unique<RenameSkin>(w.ws.document().skeleton().find_skin("armored"), "plate")));
  const Selection renamed = w.ws.selection();
  EXPECT_TRUE(renamed.contains(BoneId{"pelvis"}));
  EXPECT_TRUE(renamed.contains(AttachmentId{"plate", "effects", "muzzle"}));
  EXPECT_TRUE(renamed.contains(ConstraintId{offline::ConstraintKind::Ik, "leg_ik"}));
  EXPECT_EQ(renamed.size(), 3u);

  while (w.ws.undo()) {
  }
  EXPECT_TRUE(w.ws.selection().contains(BoneId{"hip"}));
  EXPECT_TRUE(w.ws.selection().contains(AttachmentId{"armored", "fx", "muzzle"}));
  EXPECT_EQ(w.ws.selection().size(), 3u);
  while (w.ws.redo()) {
  }
  EXPECT_EQ(w.ws.selection(), renamed);
}

TEST(Workspace, DeletedObjectsLeaveTheSelection) {
  WorkspaceFixture w;
  w.ws.selection().select(SlotId{"fx"});
  w.ws.selection().add(AttachmentId{"default", "fx", "muzzle"});
  w.ws.selection().add(BoneId{"hand"});
  w.ws.selection().add(BoneId{"root"});
  ASSERT_TRUE(w.ws.execute(std::make_unique<DeleteBone>(w.bone("hand"))));  // takes slot fx and its attachments
  EXPECT_EQ(w.ws.selection().items(), std::vector<ObjectId>{BoneId{"root"}});
  // Undo brings the objects back; the selection keeps what exists, and does not reselect.
  ASSERT_TRUE(w.ws.undo());
  EXPECT_EQ(w.ws.selection().items(), std::vector<ObjectId>{BoneId{"root"}});
  EXPECT_GE(w.bone("hand"), 0);
  // Ids are names: other deletions and reorders do not change what an id names.
  w.ws.selection().add(SlotId{"path"});
  ASSERT_TRUE(w.ws.execute(std::make_unique<MoveSlot>(w.slot("path"), 0)));
  ASSERT_TRUE(w.ws.execute(std::make_unique<DeleteSlot>(w.slot("body"))));
  EXPECT_TRUE(w.ws.selection().contains(SlotId{"path"}));
  EXPECT_EQ(find(w.ws.document().skeleton(), SlotId{"path"}), 0);
}

TEST(Workspace, GesturesMergeAndSavesMarkTheHistory) {
  WorkspaceFixture w(false);
  const int chest = w.bone("chest");
  const GestureId drag = w.ws.begin_gesture();
  for (int i = 0; i < 30; ++i) {
    offline::Bone b = w.ws.document().skeleton().bones[static_cast<std::size_t>(chest)];
    b.x += 1;
    ASSERT_TRUE(w.ws.execute(std::make_unique<SetBone>(chest, b), drag));
  }
  w.ws.end_gesture();
  EXPECT_EQ(w.ws.history().size(), 1u);
  EXPECT_TRUE(w.ws.dirty());
  ASSERT_TRUE(w.ws.save());
  EXPECT_FALSE(w.ws.dirty());
  EXPECT_TRUE(w.ws.history().at_saved_point());
  EXPECT_NE(w.ws.begin_gesture(), drag);
  ASSERT_TRUE(w.ws.undo());
  EXPECT_TRUE(w.ws.dirty());
}

}  // namespace
}  // namespace mf::editor
