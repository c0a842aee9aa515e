// Bone commands on the mannequin and the rich rig: each command's do, undo and redo compared as
// saved bytes; renames reaching the clips; reparenting and moving without children keeping world
// transforms (within 1e-4 px, against offline::setup_world_transforms); the cascade of deletes.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>

#include "editor_test_rigs.hpp"
#include "mf/editor/core/commands/bone_commands.hpp"
#include "mf/editor/core/model/bone_hierarchy.hpp"
#include "mf/editor/core/tools/bone_world.hpp"
#include "mf/offline/format/setup_world.hpp"

namespace mf::editor {
namespace {

using offline::Bone;
using test::check_command;
using test::check_refused;

// World positions and axes agree within this many pixels (axes are compared as the points one
// pixel along each, so a rotation error shows at that scale; bones are compared at their own tips too).
constexpr double kWorldTolerance = 1e-4;

struct Fixture {
  mf::testing::TempDir temp{"mf_editor_bones"};
  Document doc;
  History history;

  explicit Fixture(bool rich = false) : doc(open(rich ? test::write_rich_rig(temp) : test::copy_mannequin(temp))) {}
  static Document open(const std::string& path) {
    Expected<Document> d = Document::open(path);
    EXPECT_TRUE(d) << d.error().to_string();
    return std::move(d).value();
  }
  int bone(const std::string& name) const { return doc.skeleton().find_bone(name); }
};

// Each bone's world transform, by name, from the offline rule (Normal chains) or bone_worlds.
std::map<std::string, Affine2d> worlds_by_name(const offline::SkeletonSource& s) {
  const std::vector<std::optional<Affine2d>> normal = offline::setup_world_transforms(s);
  const std::vector<Affine2d> all = bone_worlds(s);
  std::map<std::string, Affine2d> out;
  for (std::size_t i = 0; i < s.bones.size(); ++i) out[s.bones[i].name] = normal[i] ? *normal[i] : all[i];
  return out;
}

void expect_same_world(const Affine2d& a, const Affine2d& b, double length, const std::string& what) {
  const double l = std::max(length, 1.0);
  const Vec2d points[] = {{0, 0}, {l, 0}, {0, l}, {l, l}};
  for (const Vec2d& p : points) {
    const Vec2d pa = a.apply(p), pb = b.apply(p);
    EXPECT_NEAR(pa.x, pb.x, kWorldTolerance) << what << " at (" << p.x << ", " << p.y << ")";
    EXPECT_NEAR(pa.y, pb.y, kWorldTolerance) << what << " at (" << p.x << ", " << p.y << ")";
  }
}

void expect_worlds_kept(const std::map<std::string, Affine2d>& before, const offline::SkeletonSource& s,
                        const std::string& context) {
  const std::map<std::string, Affine2d> after = worlds_by_name(s);
  for (const Bone& b : s.bones) expect_same_world(before.at(b.name), after.at(b.name), b.length, context + ": " + b.name);
}

TEST(BoneCommands, SetEachFieldGroupNamesTheChange) {
  Fixture f;
  const int chest = f.bone("chest");
  const std::vector<std::pair<std::function<void(Bone&)>, std::string>> edits = {
      {[](Bone& b) { b.x += 3, b.y -= 2; }, "Move bone \"chest\""},
      {[](Bone& b) { b.rotation = 12.5f; }, "Rotate bone \"chest\""},
      {[](Bone& b) { b.scale_x = 1.5f; }, "Scale bone \"chest\""},
      {[](Bone& b) { b.shear_y = 4; }, "Shear bone \"chest\""},
      {[](Bone& b) { b.length = 60; }, "Set length of bone \"chest\""},
      {[](Bone& b) { b.inherit = offline::Inherit::NoScale; }, "Set inherit mode of bone \"chest\""},
      {[](Bone& b) { b.color = Rgba8{1, 2, 3, 4}; }, "Set colour of bone \"chest\""},
      {[](Bone& b) { b.skin_required = true; }, "Set skin requirement of bone \"chest\""},
      {[](Bone& b) { b.x = 1, b.rotation = 2; }, "Edit bone \"chest\""},
  };
  for (const auto& [edit, name] : edits) {
    Bone b = f.doc.skeleton().bones[static_cast<std::size_t>(chest)];
    edit(b);
    check_command(f.doc, f.history, std::make_unique<SetBone>(chest, b));
    EXPECT_EQ(f.history.names().back(), name);
  }
  // Unchanged values leave no history entry; the name and parent are not fields.
  check_command(f.doc, f.history, std::make_unique<SetBone>(chest, f.doc.skeleton().bones[static_cast<std::size_t>(chest)]), false);
  Bone renamed = f.doc.skeleton().bones[static_cast<std::size_t>(chest)];
  renamed.name = "other";
  check_refused(f.doc, f.history, std::make_unique<SetBone>(chest, renamed));
  Bone negative = f.doc.skeleton().bones[static_cast<std::size_t>(chest)];
  negative.length = -1;
  EXPECT_NE(check_refused(f.doc, f.history, std::make_unique<SetBone>(chest, negative)).message.find("negative"), std::string::npos);
  Bone nan = f.doc.skeleton().bones[static_cast<std::size_t>(chest)];
  nan.x = std::nanf("");
  check_refused(f.doc, f.history, std::make_unique<SetBone>(chest, nan));
}

TEST(BoneCommands, CreateListsTheBoneAfterItsParentsSubtree) {
  Fixture f;
  Bone b;
  b.parent = f.bone("neck");
  b.x = 5;
  auto create = std::make_unique<CreateBone>(b);
  CreateBone* raw = create.get();
  check_command(f.doc, f.history, std::move(create));
  EXPECT_EQ(f.history.names().back(), "Create bone \"bone\"");
  const offline::SkeletonSource& s = f.doc.skeleton();
  EXPECT_EQ(s.bones[static_cast<std::size_t>(raw->index())].name, "bone");
  EXPECT_EQ(raw->index(), f.bone("scarf_3") + 1);  // the neck's sub-tree ends with the scarf
  EXPECT_EQ(s.bones[static_cast<std::size_t>(raw->index())].parent, f.bone("neck"));
  // The references after it moved with it.
  EXPECT_EQ(s.slots[static_cast<std::size_t>(s.find_slot("hand_r"))].bone, f.bone("hand_r"));
  EXPECT_EQ(s.ik[0].target, f.bone("foot_l_target"));

  Bone root;
  root.name = "extra_root";
  check_command(f.doc, f.history, std::make_unique<CreateBone>(root));
  EXPECT_EQ(f.doc.skeleton().bones.back().name, "extra_root");
  Bone taken;
  taken.name = "chest";
  check_refused(f.doc, f.history, std::make_unique<CreateBone>(taken));
}

TEST(BoneCommands, RenameReachesEveryClip) {
  Fixture f;
  const std::size_t before_count = [&] {
    std::size_t n = 0;
    for (std::size_t i = 0; i < f.doc.clips().size(); ++i) n += f.doc.clip_text(i).find("\"forearm_l\"") != std::string::npos;
    return n;
  }();
  ASSERT_GE(before_count, 3u);
  check_command(f.doc, f.history, std::make_unique<RenameBone>(f.bone("forearm_l"), "lower_arm_l"));
  EXPECT_EQ(f.history.names().back(), "Rename bone \"forearm_l\" to \"lower_arm_l\"");
  for (std::size_t i = 0; i < f.doc.clips().size(); ++i) {
    const std::string text = f.doc.clip_text(i);
    EXPECT_EQ(text.find("\"forearm_l\""), std::string::npos) << f.doc.clips()[i].name;
  }
  std::size_t renamed = 0;
  for (std::size_t i = 0; i < f.doc.clips().size(); ++i) renamed += f.doc.clip_text(i).find("\"lower_arm_l\"") != std::string::npos;
  EXPECT_EQ(renamed, before_count);
  // The slot, the ik chain and the weights name it by index, so the file names it everywhere.
  EXPECT_NE(f.doc.skeleton_text().find("\"bone\": \"lower_arm_l\""), std::string::npos);
  check_refused(f.doc, f.history, std::make_unique<RenameBone>(f.bone("lower_arm_l"), "hips"));
  check_refused(f.doc, f.history, std::make_unique<RenameBone>(f.bone("lower_arm_l"), ""));
}

TEST(BoneCommands, RenameKeepsTimelinesInCanonicalOrder) {
  Fixture f;
  // "chest" sorts before "foot_l_target"; renamed "zz_chest" it sorts last, and the clip must say so.
  check_command(f.doc, f.history, std::make_unique<RenameBone>(f.bone("chest"), "zz_chest"));
  const std::string walk = f.doc.clip_text(static_cast<std::size_t>(f.doc.find_clip("walk") - f.doc.clips().data()));
  EXPECT_GT(walk.find("\"zz_chest\""), walk.find("\"upper_arm_r\""));
}

TEST(BoneCommands, ReparentKeepsEveryWorldTransform) {
  Fixture f;
  const std::vector<std::pair<std::string, std::string>> moves = {
      {"head", "hips"},          {"upper_arm_r", "root"},   {"scarf_2", "head"},        {"hips", "shadow"},
      {"foot_r_target", "hand_l"}, {"scarf_1", "upper_arm_r"}, {"upper_arm_l", "scarf_3"}, {"neck", ""},
  };
  for (const auto& [bone, parent] : moves) {
    const auto before = worlds_by_name(f.doc.skeleton());
    check_command(f.doc, f.history,
                  std::make_unique<ReparentBone>(f.bone(bone), parent.empty() ? -1 : f.bone(parent)));
    const offline::SkeletonSource& s = f.doc.skeleton();
    const Bone& moved = s.bones[static_cast<std::size_t>(f.bone(bone))];
    EXPECT_EQ(moved.parent, parent.empty() ? -1 : f.bone(parent)) << bone;
    for (std::size_t i = 0; i < s.bones.size(); ++i)
      EXPECT_LT(s.bones[i].parent, static_cast<int>(i)) << "parents come first";
    expect_worlds_kept(before, s, "reparent " + bone + " to " + parent);
  }
  EXPECT_EQ(f.history.names()[0], "Reparent bone \"head\" to \"hips\"");
  EXPECT_EQ(f.history.names().back(), "Reparent bone \"neck\" to the root");
}

TEST(BoneCommands, ReparentKeepsWorldTransformsUnderInheritModesAndShear) {
  Fixture f(true);  // hip: scaled, sheared, NoScale; cape: OnlyTranslation; arm: NoScaleOrReflection
  const std::vector<std::pair<std::string, std::string>> moves = {
      {"thigh", "root"}, {"hand", "hip"}, {"cape", "tail"}, {"bone with spaces", "hand"}, {"tail", "bone with spaces"},
  };
  for (const auto& [bone, parent] : moves) {
    const std::vector<Affine2d> before_all = bone_worlds(f.doc.skeleton());
    std::map<std::string, Affine2d> before;
    for (std::size_t i = 0; i < before_all.size(); ++i) before[f.doc.skeleton().bones[i].name] = before_all[i];
    check_command(f.doc, f.history, std::make_unique<ReparentBone>(f.bone(bone), f.bone(parent)));
    const std::vector<Affine2d> after_all = bone_worlds(f.doc.skeleton());
    for (std::size_t i = 0; i < after_all.size(); ++i) {
      const Bone& b = f.doc.skeleton().bones[i];
      expect_same_world(before.at(b.name), after_all[i], b.length, "reparent " + bone + ": " + b.name);
    }
  }
}

TEST(BoneCommands, ReparentRefusals) {
  Fixture f;
  check_refused(f.doc, f.history, std::make_unique<ReparentBone>(f.bone("chest"), f.bone("head")));  // own descendant
  check_refused(f.doc, f.history, std::make_unique<ReparentBone>(f.bone("chest"), f.bone("chest")));
  // shin_l is the second bone of leg_l_ik: it must stay thigh_l's child.
  const Error e = check_refused(f.doc, f.history, std::make_unique<ReparentBone>(f.bone("shin_l"), f.bone("hips")));
  EXPECT_NE(e.message.find("leg_l_ik"), std::string::npos);
  // The target under the chain would be inside it.
  check_refused(f.doc, f.history, std::make_unique<ReparentBone>(f.bone("foot_l_target"), f.bone("shin_l")));
}

TEST(BoneCommands, ReparentWithoutKeepingTheWorldKeepsLocalValues) {
  Fixture f;
  const Bone before = f.doc.skeleton().bones[static_cast<std::size_t>(f.bone("head"))];
  check_command(f.doc, f.history, std::make_unique<ReparentBone>(f.bone("head"), f.bone("root"), false));
  Bone after = f.doc.skeleton().bones[static_cast<std::size_t>(f.bone("head"))];
  after.parent = before.parent;
  EXPECT_TRUE(after == before);
}

TEST(BoneCommands, MoveWithoutChildrenKeepsTheChildrenInPlace) {
  Fixture f;
  const int chest = f.bone("chest");
  const auto before = worlds_by_name(f.doc.skeleton());
  Bone b = f.doc.skeleton().bones[static_cast<std::size_t>(chest)];
  b.x += 7;
  b.rotation += 25;
  b.scale_x = 1.3f;
  check_command(f.doc, f.history, std::make_unique<SetBoneKeepChildren>(chest, b));
  EXPECT_EQ(f.history.names().back(), "Edit bone \"chest\" without its children");
  const auto after = worlds_by_name(f.doc.skeleton());
  for (const Bone& bone : f.doc.skeleton().bones) {
    if (bone.name == "chest") continue;
    expect_same_world(before.at(bone.name), after.at(bone.name), bone.length, bone.name);
  }
  EXPECT_GT(std::abs(after.at("chest").x - before.at("chest").x) + std::abs(after.at("chest").y - before.at("chest").y), 1.0);
}

TEST(BoneCommands, DuplicateCopiesTheBoneOrItsSubtree) {
  Fixture f;
  auto one = std::make_unique<DuplicateBone>(f.bone("hand_l"), false);
  DuplicateBone* raw = one.get();
  check_command(f.doc, f.history, std::move(one));
  EXPECT_EQ(f.doc.skeleton().bones[static_cast<std::size_t>(raw->index())].name, "hand_l2");
  EXPECT_EQ(f.history.names().back(), "Duplicate bone \"hand_l\"");
  const std::size_t count = f.doc.skeleton().bones.size();
  check_command(f.doc, f.history, std::make_unique<DuplicateBone>(f.bone("neck"), true));
  const offline::SkeletonSource& s = f.doc.skeleton();
  EXPECT_EQ(s.bones.size(), count + 5);  // neck, head, scarf_1, scarf_2, scarf_3
  // Free names: a trailing number counts on ("scarf_1" → "scarf_4", the first free one).
  const int neck2 = s.find_bone("neck2"), head2 = s.find_bone("head2"), scarf_3b = s.find_bone("scarf_6");
  ASSERT_GE(neck2, 0);
  ASSERT_GE(head2, 0);
  ASSERT_GE(scarf_3b, 0);
  EXPECT_EQ(s.bones[static_cast<std::size_t>(neck2)].parent, f.bone("chest"));
  EXPECT_EQ(s.bones[static_cast<std::size_t>(head2)].parent, neck2);
  const auto worlds = worlds_by_name(s);
  expect_same_world(worlds.at("head"), worlds.at("head2"), 58, "a copy sits on its original");
}

TEST(BoneCommands, DeleteCascades) {
  Fixture f;
  // The left leg's thigh: the shin goes with it, their slots and attachments, the ik chain, and the
  // clips' timelines of all of them.
  check_command(f.doc, f.history, std::make_unique<DeleteBone>(f.bone("thigh_l")));
  EXPECT_EQ(f.history.names().back(), "Delete bone \"thigh_l\"");
  const offline::SkeletonSource& s = f.doc.skeleton();
  EXPECT_LT(s.find_bone("thigh_l"), 0);
  EXPECT_LT(s.find_bone("shin_l"), 0);
  EXPECT_LT(s.find_slot("thigh_l"), 0);
  EXPECT_LT(s.find_slot("shin_l"), 0);
  EXPECT_LT(s.find_constraint(offline::ConstraintKind::Ik, "leg_l_ik"), 0);
  EXPECT_GE(s.find_constraint(offline::ConstraintKind::Ik, "leg_r_ik"), 0);
  for (std::size_t i = 0; i < f.doc.clips().size(); ++i) EXPECT_EQ(f.doc.clip_text(i).find("\"thigh_l\""), std::string::npos);

  // The neck takes the head, the scarf (a mesh weighted by the scarf bones, which go too), the
  // helmet and the head's hitbox.
  check_command(f.doc, f.history, std::make_unique<DeleteBone>(f.bone("neck")));
  EXPECT_LT(f.doc.skeleton().find_slot("helmet"), 0);
  EXPECT_LT(f.doc.skeleton().find_slot("hitbox_head"), 0);
  EXPECT_LT(f.doc.skeleton().find_slot("scarf"), 0);
}

TEST(BoneCommands, DeleteInTheRichRigDropsConstraintsSkinEntriesAndTimelines) {
  Fixture f(true);
  // "tail" weights the open path of skin "armored", whose slot stays: refused.
  const Error e = check_refused(f.doc, f.history, std::make_unique<DeleteBone>(f.bone("tail")));
  EXPECT_NE(e.message.find("weights vertices of attachment \"open_path\""), std::string::npos);

  // "hand" is one of the two bones tail_follow drives, and slot "fx" (two skins' attachments) is on it.
  check_command(f.doc, f.history, std::make_unique<DeleteBone>(f.bone("hand")));
  const offline::SkeletonSource& s = f.doc.skeleton();
  const int follow = s.find_constraint(offline::ConstraintKind::Transform, "tail_follow");
  ASSERT_GE(follow, 0);
  EXPECT_EQ(s.transform[static_cast<std::size_t>(follow)].bones, std::vector<int>{s.find_bone("tail")});
  EXPECT_LT(s.find_slot("fx"), 0);
  // "cape" is listed in a skin's bones and has a physics constraint listed in a skin.
  check_command(f.doc, f.history, std::make_unique<DeleteBone>(f.bone("cape")));
  EXPECT_LT(f.doc.skeleton().find_constraint(offline::ConstraintKind::Physics, "cape_physics"), 0);
  for (const offline::Skin& skin : f.doc.skeleton().skins) {
    for (const offline::ConstraintRef& r : skin.constraints) EXPECT_NE(r.kind, offline::ConstraintKind::Physics);
    for (int b : skin.bones) EXPECT_NE(f.doc.skeleton().bones[static_cast<std::size_t>(b)].name, "cape");
  }
}

}  // namespace
}  // namespace mf::editor
