// History: undo and redo order, the redo tail dropped by a new command, merging within a gesture (a
// 30-step drag is one undo step), what closes merging, the saved point, and the entry limit.

#include <gtest/gtest.h>

#include "editor_fixture.hpp"
#include "mf/editor/core/commands/bone_commands.hpp"
#include "mf/editor/core/commands/command_group.hpp"
#include "mf/editor/core/commands/event_commands.hpp"
#include "mf/editor/core/commands/patch_command.hpp"
#include "mf/editor/core/model/names.hpp"

namespace mf::editor {
namespace {

using test::bytes_of;
using test::RigFixture;

std::unique_ptr<Command> rotate(const Document& doc, int bone, float degrees, GestureId gesture) {
  offline::Bone b = doc.skeleton().bones[static_cast<std::size_t>(bone)];
  b.rotation = degrees;
  auto c = std::make_unique<SetBone>(bone, b);
  c->set_gesture(gesture);
  return c;
}

TEST(History, ADragOfThirtyStepsIsOneUndoStep) {
  RigFixture f;
  const int chest = f.bone("chest");
  const test::RigBytes start = bytes_of(f.doc);
  for (int i = 1; i <= 30; ++i) ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, chest, static_cast<float>(i), 7)));
  EXPECT_EQ(f.history.size(), 1u);
  EXPECT_EQ(f.history.names(), std::vector<std::string>{"Rotate bone \"chest\""});
  EXPECT_EQ(f.s().bones[static_cast<std::size_t>(chest)].rotation, 30.0f);
  const test::RigBytes end = bytes_of(f.doc);
  ASSERT_TRUE(f.history.undo(f.doc));
  EXPECT_TRUE(bytes_of(f.doc) == start);
  EXPECT_FALSE(f.history.can_undo());
  ASSERT_TRUE(f.history.redo(f.doc));
  EXPECT_TRUE(bytes_of(f.doc) == end);
}

TEST(History, MergingStopsAtAnotherGesturePropertyObjectOrEndGesture) {
  RigFixture f;
  const int chest = f.bone("chest"), head = f.bone("head");
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, chest, 1, 1)));
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, chest, 2, 1)));
  EXPECT_EQ(f.history.size(), 1u);
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, chest, 3, 2)));  // another gesture
  EXPECT_EQ(f.history.size(), 2u);
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, head, 3, 2)));  // another object
  EXPECT_EQ(f.history.size(), 3u);
  offline::Bone moved = f.s().bones[static_cast<std::size_t>(head)];
  moved.x += 1;
  auto move = std::make_unique<SetBone>(head, moved);
  move->set_gesture(2);
  ASSERT_TRUE(f.history.execute(f.doc, std::move(move)));  // another property
  EXPECT_EQ(f.history.size(), 4u);
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, head, 4, 0)));  // no gesture: never merges
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, head, 5, 0)));
  EXPECT_EQ(f.history.size(), 6u);
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, head, 6, 3)));
  f.history.end_gesture();
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, head, 7, 3)));  // same gesture id, but closed
  EXPECT_EQ(f.history.size(), 8u);
  // Undo closes merging too: the next step of the gesture is a new entry.
  f.history.undo(f.doc);
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, head, 8, 3)));
  EXPECT_EQ(f.history.size(), 8u);
  EXPECT_EQ(f.history.position(), 8u);
}

TEST(History, ANewCommandDropsTheRedoTail) {
  RigFixture f;
  ASSERT_TRUE(f.history.execute(f.doc, std::make_unique<CreateEvent>(offline::EventDef{"a"})));
  ASSERT_TRUE(f.history.execute(f.doc, std::make_unique<CreateEvent>(offline::EventDef{"b"})));
  f.history.undo(f.doc);
  EXPECT_TRUE(f.history.can_redo());
  ASSERT_TRUE(f.history.execute(f.doc, std::make_unique<CreateEvent>(offline::EventDef{"c"})));
  EXPECT_FALSE(f.history.can_redo());
  EXPECT_EQ(f.history.names(), (std::vector<std::string>{"Create event \"a\"", "Create event \"c\""}));
  EXPECT_FALSE(f.history.redo(f.doc));
}

TEST(History, SavedPointFollowsUndoRedoAndIsLostWhenItsStateIs) {
  RigFixture f;
  EXPECT_TRUE(f.history.at_saved_point());
  ASSERT_TRUE(f.history.execute(f.doc, std::make_unique<CreateEvent>(offline::EventDef{"a"})));
  ASSERT_TRUE(f.history.execute(f.doc, std::make_unique<CreateEvent>(offline::EventDef{"b"})));
  ASSERT_TRUE(f.doc.save());
  f.history.mark_saved();
  EXPECT_TRUE(f.history.at_saved_point());
  f.history.undo(f.doc);
  EXPECT_FALSE(f.history.at_saved_point());
  EXPECT_TRUE(f.doc.dirty());
  f.history.redo(f.doc);
  EXPECT_TRUE(f.history.at_saved_point());
  EXPECT_FALSE(f.doc.dirty());
  // Undo past the save, then branch: the saved state can no longer be reached.
  f.history.undo(f.doc);
  ASSERT_TRUE(f.history.execute(f.doc, std::make_unique<CreateEvent>(offline::EventDef{"c"})));
  EXPECT_FALSE(f.history.at_saved_point());
  f.history.undo(f.doc);
  EXPECT_FALSE(f.history.at_saved_point());
  EXPECT_TRUE(f.doc.dirty());
  // A drag right after a save does not merge into the saved step.
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, 1, 5, 9)));
  ASSERT_TRUE(f.doc.save());
  f.history.mark_saved();
  ASSERT_TRUE(f.history.execute(f.doc, rotate(f.doc, 1, 6, 9)));
  EXPECT_FALSE(f.history.at_saved_point());
  f.history.undo(f.doc);
  EXPECT_TRUE(f.history.at_saved_point());
  EXPECT_FALSE(f.doc.dirty());
}

TEST(History, FailedAndEmptyCommandsLeaveNoEntry) {
  RigFixture f;
  EXPECT_FALSE(f.history.execute(f.doc, std::make_unique<RenameBone>(0, "")));
  EXPECT_TRUE(f.history.execute(f.doc, std::make_unique<SetBone>(0, f.s().bones[0])));
  EXPECT_EQ(f.history.size(), 0u);
  EXPECT_FALSE(f.doc.dirty());
  EXPECT_EQ(f.doc.revision(), 0u);
}

TEST(History, LimitDropsTheOldest) {
  RigFixture f;
  History h(3);
  for (const char* n : {"a", "b", "c", "d", "e"}) ASSERT_TRUE(h.execute(f.doc, std::make_unique<CreateEvent>(offline::EventDef{n})));
  EXPECT_EQ(h.names(), (std::vector<std::string>{"Create event \"c\"", "Create event \"d\"", "Create event \"e\""}));
  while (h.undo(f.doc)) {
  }
  EXPECT_GE(f.s().find_event("b"), 0);  // what was dropped stays done
  EXPECT_LT(f.s().find_event("c"), 0);
  EXPECT_FALSE(h.at_saved_point());  // the saved state was dropped with the oldest entries
}

TEST(History, ClearKeepsTheDocument) {
  RigFixture f;
  ASSERT_TRUE(f.history.execute(f.doc, std::make_unique<CreateEvent>(offline::EventDef{"a"})));
  f.history.clear();
  EXPECT_EQ(f.history.size(), 0u);
  EXPECT_FALSE(f.history.can_undo());
  EXPECT_GE(f.s().find_event("a"), 0);
  EXPECT_FALSE(f.history.at_saved_point());
}

TEST(History, GroupsAreOneStepAndUndoTheirPartsOnFailure) {
  RigFixture f;
  const test::RigBytes start = bytes_of(f.doc);
  auto group = std::make_unique<CommandGroup>("Add two events");
  group->add(std::make_unique<CreateEvent>(offline::EventDef{"x"})).add(std::make_unique<CreateEvent>(offline::EventDef{"y"}));
  ASSERT_TRUE(f.history.execute(f.doc, std::move(group)));
  EXPECT_EQ(f.history.names(), std::vector<std::string>{"Add two events"});
  f.history.undo(f.doc);
  EXPECT_TRUE(bytes_of(f.doc) == start);
  f.history.redo(f.doc);
  EXPECT_GE(f.s().find_event("y"), 0);
  auto failing = std::make_unique<CommandGroup>("Half");
  failing->add(std::make_unique<CreateEvent>(offline::EventDef{"z"})).add(std::make_unique<CreateEvent>(offline::EventDef{"x"}));
  const test::RigBytes before = bytes_of(f.doc);
  EXPECT_FALSE(f.history.execute(f.doc, std::move(failing)));
  EXPECT_TRUE(bytes_of(f.doc) == before);
  EXPECT_EQ(f.history.size(), 1u);
}

TEST(History, RigEditCommandRunsAnyEdit) {
  RigFixture f;
  test::check_command(f.doc, f.history, std::make_unique<RigEditCommand>("Set the frame rate", false, [](RigModel& m) {
                        m.skeleton.fps = 24;
                        return Status{};
                      }));
  EXPECT_EQ(f.s().fps, 24);
  test::check_refused(f.doc, f.history, std::make_unique<RigEditCommand>("Fail", true, [](RigModel& m) -> Status {
                        m.skeleton.fps = 12;  // a failed edit's copy is dropped
                        return edit_error("no");
                      }));
}

}  // namespace
}  // namespace mf::editor
