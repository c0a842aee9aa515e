// Constraint commands of the four kinds: create, delete (skins and clips follow), rename, set fields
// with the reader's rules, and moving a constraint in the update order.

#include <gtest/gtest.h>

#include "editor_fixture.hpp"
#include "mf/editor/core/commands/constraint_commands.hpp"

namespace mf::editor {
namespace {

using offline::ConstraintKind;
using offline::ConstraintRef;
using test::check_command;
using test::check_refused;
using test::RigFixture;

TEST(ConstraintCommands, CreateEachKind) {
  RigFixture f;
  offline::IkConstraint ik;
  ik.bones = {f.bone("upper_arm_l"), f.bone("forearm_l")};
  ik.target = f.bone("foot_l_target");
  check_command(f.doc, f.history, std::make_unique<CreateConstraint>(ik));
  EXPECT_EQ(f.history.names().back(), "Create ik constraint \"ik\"");
  offline::TransformConstraint t;
  t.name = "copy_head";
  t.bones = {f.bone("helmet") >= 0 ? f.bone("helmet") : f.bone("neck")};
  t.target = f.bone("head");
  t.mix_x = 0.5f;
  check_command(f.doc, f.history, std::make_unique<CreateConstraint>(t));
  offline::PathConstraint p;
  p.bones = {f.bone("scarf_1")};
  p.target = f.slot("scarf");
  check_command(f.doc, f.history, std::make_unique<CreateConstraint>(p));
  offline::PhysicsConstraint ph;
  ph.bone = f.bone("scarf_2");
  ph.rotate = 1;
  ph.order = 0;  // ignored: new constraints run in the default order
  check_command(f.doc, f.history, std::make_unique<CreateConstraint>(ph));
  EXPECT_EQ(f.s().physics[0].name, "physics");
  EXPECT_FALSE(f.s().physics[0].order.has_value());

  // The reader's rules.
  offline::IkConstraint bad_chain;
  bad_chain.bones = {f.bone("upper_arm_l"), f.bone("hand_l")};  // not parent and child
  bad_chain.target = f.bone("root");
  EXPECT_NE(check_refused(f.doc, f.history, std::make_unique<CreateConstraint>(bad_chain)).message.find("child"), std::string::npos);
  offline::IkConstraint inside;
  inside.bones = {f.bone("upper_arm_l")};
  inside.target = f.bone("hand_l");
  check_refused(f.doc, f.history, std::make_unique<CreateConstraint>(inside));
  offline::TransformConstraint self;
  self.bones = {f.bone("head")};
  self.target = f.bone("head");
  check_refused(f.doc, f.history, std::make_unique<CreateConstraint>(self));
  offline::PhysicsConstraint massless;
  massless.bone = 0;
  massless.mass = 0;
  check_refused(f.doc, f.history, std::make_unique<CreateConstraint>(massless));
  offline::IkConstraint taken = ik;
  taken.name = "leg_l_ik";
  check_refused(f.doc, f.history, std::make_unique<CreateConstraint>(taken));
}

TEST(ConstraintCommands, DeleteDropsSkinEntriesAndTimelines) {
  RigFixture f(true);
  const int leg = f.s().find_constraint(ConstraintKind::Ik, "leg_ik");
  check_command(f.doc, f.history, std::make_unique<DeleteConstraint>(ConstraintRef{ConstraintKind::Ik, leg}));
  EXPECT_EQ(f.history.names().back(), "Delete ik constraint \"leg_ik\"");
  EXPECT_EQ(f.clip("rich").find("leg_ik"), std::string::npos);
  // cape_physics is listed in skin armored and has a reset timeline.
  const int cape = f.s().find_constraint(ConstraintKind::Physics, "cape_physics");
  check_command(f.doc, f.history, std::make_unique<DeleteConstraint>(ConstraintRef{ConstraintKind::Physics, cape}));
  EXPECT_EQ(f.doc.skeleton_text().find("cape_physics"), std::string::npos);
  EXPECT_EQ(f.clip("rich").find("cape_physics"), std::string::npos);
  check_refused(f.doc, f.history, std::make_unique<DeleteConstraint>(ConstraintRef{ConstraintKind::Path, 3}));
}

TEST(ConstraintCommands, RenameReachesClipsAndSkins) {
  RigFixture f(true);
  const ConstraintRef follow{ConstraintKind::Transform, f.s().find_constraint(ConstraintKind::Transform, "tail_follow")};
  check_command(f.doc, f.history, std::make_unique<RenameConstraint>(follow, "tail_copy"));
  EXPECT_EQ(f.history.names().back(), "Rename transform constraint \"tail_follow\" to \"tail_copy\"");
  EXPECT_EQ(f.clip("rich").find("tail_follow"), std::string::npos);
  EXPECT_NE(f.clip("rich").find("tail_copy"), std::string::npos);
  // Names are unique per kind: a transform constraint may share a name with an ik constraint.
  check_command(f.doc, f.history, std::make_unique<RenameConstraint>(follow, "leg_ik"));
  check_refused(f.doc, f.history,
                std::make_unique<RenameConstraint>(ConstraintRef{ConstraintKind::Ik, 1}, "leg_ik"));
  const ConstraintRef cape{ConstraintKind::Physics, f.s().find_constraint(ConstraintKind::Physics, "cape_physics")};
  check_command(f.doc, f.history, std::make_unique<RenameConstraint>(cape, "cloak"));
  EXPECT_NE(f.doc.skeleton_text().find("\"physics\": [\"cloak\"]"), std::string::npos);  // the skin's list
}

TEST(ConstraintCommands, SetFieldsOfEachKind) {
  RigFixture f(true);
  offline::IkConstraint ik = f.s().ik[0];
  ik.mix = 0.25f;
  check_command(f.doc, f.history, std::make_unique<SetIkConstraint>(0, ik));
  EXPECT_EQ(f.history.names().back(), "Set mix of ik constraint \"leg_ik\"");
  ik.bend = 1;
  check_command(f.doc, f.history, std::make_unique<SetIkConstraint>(0, ik));
  EXPECT_EQ(f.history.names().back(), "Set bend direction of ik constraint \"leg_ik\"");
  ik.bend = 2;
  check_refused(f.doc, f.history, std::make_unique<SetIkConstraint>(0, ik));
  ik.bend = 1;
  ik.order.reset();
  EXPECT_NE(check_refused(f.doc, f.history, std::make_unique<SetIkConstraint>(0, ik)).message.find("ReorderConstraint"),
            std::string::npos);

  offline::TransformConstraint t = f.s().transform[0];
  t.offset_x = 12;
  t.offset_rotation = 3;
  check_command(f.doc, f.history, std::make_unique<SetTransformConstraint>(0, t));
  EXPECT_EQ(f.history.names().back(), "Set offsets of transform constraint \"tail_follow\"");
  t.target = t.bones[0];
  check_refused(f.doc, f.history, std::make_unique<SetTransformConstraint>(0, t));

  offline::PathConstraint p = f.s().path[0];
  p.spacing_mode = offline::SpacingMode::Fixed;
  check_command(f.doc, f.history, std::make_unique<SetPathConstraint>(0, p));
  EXPECT_EQ(f.history.names().back(), "Set modes of path constraint \"tail_path\"");
  p.target = 42;
  check_refused(f.doc, f.history, std::make_unique<SetPathConstraint>(0, p));

  offline::PhysicsConstraint ph = f.s().physics[1];
  ph.strength = 300;
  check_command(f.doc, f.history, std::make_unique<SetPhysicsConstraint>(1, ph));
  EXPECT_EQ(f.history.names().back(), "Set strength of physics constraint \"tail_physics\"");
  ph.fps = 0;
  check_refused(f.doc, f.history, std::make_unique<SetPhysicsConstraint>(1, ph));
}

TEST(ConstraintCommands, ReorderMovesOneConstraintInTheUpdateOrder) {
  RigFixture f(true);
  const std::vector<ConstraintRef> before = f.s().update_order();
  ASSERT_EQ(before.size(), 6u);
  const ConstraintRef last = before.back();
  check_command(f.doc, f.history, std::make_unique<ReorderConstraint>(last, 0));
  std::vector<ConstraintRef> expected = before;
  expected.pop_back();
  expected.insert(expected.begin(), last);
  EXPECT_EQ(f.s().update_order(), expected);
  EXPECT_EQ(f.history.names().back(), "Move physics constraint \"tail_physics\" in the update order");
  // Moving every constraint back to the default order leaves no explicit order in the file.
  RigFixture g;
  check_command(g.doc, g.history, std::make_unique<ReorderConstraint>(ConstraintRef{ConstraintKind::Ik, 1}, 0));
  EXPECT_NE(g.doc.skeleton_text().find("\"order\": 0"), std::string::npos);
  check_command(g.doc, g.history, std::make_unique<ReorderConstraint>(ConstraintRef{ConstraintKind::Ik, 1}, 1));
  EXPECT_EQ(g.doc.skeleton_text().find("\"order\""), std::string::npos);
  check_refused(g.doc, g.history, std::make_unique<ReorderConstraint>(ConstraintRef{ConstraintKind::Ik, 0}, 2));
}

}  // namespace
}  // namespace mf::editor
