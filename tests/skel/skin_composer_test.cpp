#include "mf/skel/skin_composer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mf/skel/skeleton_pose.hpp"
#include "test_attachments.hpp"

namespace mf::skel {
namespace {

using test::add_bone;
using test::add_box_region;
using test::add_skin;
using test::add_slot;

// A small outfit rig:
//   bones: root; hair (skin-required) ← hair_tip (skin-required); sword (skin-required)
//   slots: body, head, hand (on sword)
//   skins: default {body: body, head: head, head: hat}; armor {body: body (plated), hand: sword,
//          bone sword, IK constraint}; hair {head: hat (long), bones hair and hair_tip};
//          tip_only {bone hair_tip only}; bare {body: shirt}
//   constraints: 0 = IK (skin-required), 1 = transform (always)
struct OutfitRig {
  SkeletonData data;
  int root, hair, hair_tip, sword;
  int body, head, hand;
  std::int32_t body_default, head_default, hat_default, body_armor, sword_armor, hat_hair, shirt_bare;
  int skin_default, skin_armor, skin_hair, skin_tip, skin_bare;

  OutfitRig() {
    root = add_bone(data, "root", -1);
    hair = add_bone(data, "hair", root);
    hair_tip = add_bone(data, "hair_tip", hair);
    sword = add_bone(data, "sword", root);
    data.bones.skin_required[static_cast<std::size_t>(hair)] = 1;
    data.bones.skin_required[static_cast<std::size_t>(hair_tip)] = 1;
    data.bones.skin_required[static_cast<std::size_t>(sword)] = 1;
    body = add_slot(data, "body", root);
    head = add_slot(data, "head", root);
    hand = add_slot(data, "hand", sword);

    body_default = add_box_region(data, body, "body", root, 0, 0, 10, 10);
    head_default = add_box_region(data, head, "head", root, 0, -10, 8, 8);
    hat_default = add_box_region(data, head, "hat", root, 0, -15, 8, 4);
    body_armor = add_box_region(data, body, "body", root, 0, 0, 12, 12);
    sword_armor = add_box_region(data, hand, "sword", sword, 10, 0, 20, 2);
    hat_hair = add_box_region(data, head, "hat", root, 0, -15, 8, 20);
    shirt_bare = add_box_region(data, body, "shirt", root, 0, 0, 9, 9);
    test::set_setup_attachment(data, body, "body");
    test::set_setup_attachment(data, head, "head");
    test::set_setup_attachment(data, hand, "sword");

    IkData ik;
    ik.name = "arm";
    ik.bones = {sword};
    ik.target = root;
    ik.skin_required = true;
    data.ik.push_back(ik);
    TransformData tc;
    tc.name = "follow";
    tc.bones = {sword};
    data.transform.push_back(tc);
    data.constraint_steps = {{UpdateKind::Ik, 0}, {UpdateKind::Transform, 0}};

    skin_default = add_skin(data, "default", {body_default, head_default, hat_default});
    skin_armor = add_skin(data, "armor", {body_armor, sword_armor}, {sword}, {0});
    skin_hair = add_skin(data, "hair", {hat_hair}, {hair, hair_tip});
    skin_tip = add_skin(data, "tip_only", {}, {hair_tip});
    skin_bare = add_skin(data, "bare", {shirt_bare});
  }

  std::int32_t name(const std::string& n) const { return data.attachment_names.find(n); }
};

using Ids = std::vector<std::int32_t>;
using Flags = std::vector<std::uint8_t>;

TEST(Skins, LaterSkinsWinPerSlotAndName) {
  OutfitRig rig;
  SkinCache cache(rig.data);
  const ComposedSkin& dressed = cache.compose(Ids{rig.skin_default, rig.skin_armor});
  EXPECT_EQ(dressed.skins, (Ids{rig.skin_default, rig.skin_armor}));
  EXPECT_EQ(dressed.find(rig.body, rig.name("body")), rig.body_armor);
  EXPECT_EQ(dressed.find(rig.head, rig.name("head")), rig.head_default);
  EXPECT_EQ(dressed.find(rig.head, rig.name("hat")), rig.hat_default);
  EXPECT_EQ(dressed.find(rig.hand, rig.name("sword")), rig.sword_armor);
  EXPECT_EQ(dressed.find(rig.hand, rig.name("body")), -1);
  EXPECT_EQ(dressed.entries.size(), 4u);
  for (std::size_t i = 1; i < dressed.entries.size(); ++i) {
    const SkinEntry& a = dressed.entries[i - 1];
    const SkinEntry& b = dressed.entries[i];
    EXPECT_TRUE(a.slot < b.slot || (a.slot == b.slot && a.name < b.name)) << "entries sorted by (slot, name)";
  }

  // The other order: the default body wins.
  const ComposedSkin& reversed = cache.compose(Ids{rig.skin_armor, rig.skin_default});
  EXPECT_EQ(reversed.find(rig.body, rig.name("body")), rig.body_default);
  // Three skins: hair's hat replaces the default hat, armor's body stays.
  const ComposedSkin& three = cache.compose(Ids{rig.skin_default, rig.skin_armor, rig.skin_hair});
  EXPECT_EQ(three.find(rig.head, rig.name("hat")), rig.hat_hair);
  EXPECT_EQ(three.find(rig.body, rig.name("body")), rig.body_armor);
}

TEST(Skins, EachCombinationIsComposedOnceAndShared) {
  OutfitRig rig;
  SkinCache cache(rig.data);
  const ComposedSkin* first = &cache.compose(Ids{rig.skin_default, rig.skin_armor});
  const ComposedSkin* again = &cache.compose(Ids{rig.skin_default, rig.skin_armor});
  EXPECT_EQ(first, again);
  EXPECT_EQ(cache.size(), 1u);

  const std::vector<std::string> names = {"default", "armor"};
  auto by_name = cache.compose(names);
  ASSERT_TRUE(by_name.ok());
  EXPECT_EQ(*by_name, first);
  EXPECT_EQ(cache.size(), 1u);

  EXPECT_NE(&cache.compose(Ids{rig.skin_armor, rig.skin_default}), first) << "order is part of the key";
  EXPECT_EQ(cache.size(), 2u);

  // Two poses (two orcs) with the same outfit point at one table.
  SkeletonPose a(rig.data), b(rig.data);
  apply_skin(a, *first);
  apply_skin(b, cache.compose(Ids{rig.skin_default, rig.skin_armor}));
  EXPECT_EQ(a.skin, b.skin);
  EXPECT_EQ(a.skin, &first->entries);
}

TEST(Skins, UnknownSkinNameIsAnErrorNamingIt) {
  OutfitRig rig;
  SkinCache cache(rig.data);
  const std::vector<std::string> names = {"default", "wizard"};
  auto composed = cache.compose(names);
  ASSERT_FALSE(composed.ok());
  EXPECT_NE(composed.error().message.find("\"wizard\""), std::string::npos) << composed.error().message;
  EXPECT_EQ(cache.size(), 0u);
}

TEST(Skins, SkinRequiredBonesAndConstraintsFollowTheSkins) {
  OutfitRig rig;
  SkinCache cache(rig.data);
  // root, hair, hair_tip, sword
  EXPECT_EQ(cache.compose(Ids{rig.skin_default}).bone_active, (Flags{1, 0, 0, 0}));
  EXPECT_EQ(cache.compose(Ids{rig.skin_default}).constraint_active, (Flags{0, 1}));
  EXPECT_EQ(cache.compose(Ids{rig.skin_default, rig.skin_armor}).bone_active, (Flags{1, 0, 0, 1}));
  EXPECT_EQ(cache.compose(Ids{rig.skin_default, rig.skin_armor}).constraint_active, (Flags{1, 1}));
  EXPECT_EQ(cache.compose(Ids{rig.skin_hair}).bone_active, (Flags{1, 1, 1, 0}));
  // hair_tip is listed but its parent is not: a child of an inactive bone stays inactive.
  EXPECT_EQ(cache.compose(Ids{rig.skin_tip}).bone_active, (Flags{1, 0, 0, 0}));
  EXPECT_EQ(cache.compose(Ids{rig.skin_tip, rig.skin_hair}).bone_active, (Flags{1, 1, 1, 0}));
  // No skin listed (the default skin alone): only bones that need none.
  EXPECT_EQ(cache.compose(Ids{}).bone_active, (Flags{1, 0, 0, 0}));

  // A non-skin-required child of an inactive bone is inactive too.
  rig.data.bones.skin_required[static_cast<std::size_t>(rig.hair_tip)] = 0;
  SkinCache fresh(rig.data);
  EXPECT_EQ(fresh.compose(Ids{rig.skin_default}).bone_active, (Flags{1, 0, 0, 0}));

  SkeletonPose pose(rig.data);
  apply_skin(pose, cache.compose(Ids{rig.skin_default, rig.skin_armor}));
  EXPECT_EQ(pose.active, (Flags{1, 0, 0, 1}));
  EXPECT_EQ(pose.constraint_active, (Flags{1, 1}));
  apply_skin(pose, cache.compose(Ids{rig.skin_default}));
  EXPECT_EQ(pose.active, (Flags{1, 0, 0, 0}));
  EXPECT_EQ(pose.constraint_active, (Flags{0, 1}));
}

TEST(Skins, ChangingSkinsReResolvesAttachmentsByName) {
  OutfitRig rig;
  SkinCache cache(rig.data);
  SkeletonPose pose(rig.data);
  apply_skin(pose, cache.compose(Ids{rig.skin_default}));
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.body)], rig.body_default);
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.head)], rig.head_default);
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.hand)], -1) << "the default skin has no sword";

  // The body shows "body": armor's "body" replaces it. The hand shows nothing and stays empty until
  // the next reset to the setup pose.
  apply_skin(pose, cache.compose(Ids{rig.skin_default, rig.skin_armor}));
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.body)], rig.body_armor);
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.head)], rig.head_default);
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.hand)], -1);
  pose.set_to_setup();
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.hand)], rig.sword_armor);

  // The head shows "hat" (a key or code put it there): the hair skin's hat replaces it by name.
  pose.attachment[static_cast<std::size_t>(rig.head)] = rig.hat_default;
  apply_skin(pose, cache.compose(Ids{rig.skin_default, rig.skin_hair}));
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.head)], rig.hat_hair);
}

TEST(Skins, MissingAttachmentFallsBackToTheSetupAttachment) {
  OutfitRig rig;
  SkinCache cache(rig.data);
  SkeletonPose pose(rig.data);
  apply_skin(pose, cache.compose(Ids{rig.skin_default}));
  // The body shows "shirt" from the bare skin; the default skin has no shirt but has the setup "body".
  apply_skin(pose, cache.compose(Ids{rig.skin_bare}));
  pose.attachment[static_cast<std::size_t>(rig.body)] = rig.shirt_bare;
  pose.sequence_index[static_cast<std::size_t>(rig.body)] = 3;
  apply_skin(pose, cache.compose(Ids{rig.skin_default}));
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.body)], rig.body_default);
  EXPECT_EQ(pose.sequence_index[static_cast<std::size_t>(rig.body)], -1) << "a new attachment restarts its sequence";
}

TEST(Skins, MissingAttachmentWithoutSetupGoesEmpty) {
  OutfitRig rig;
  // Without a skin named "default" nothing is composed under the listed skins.
  rig.data.skins[static_cast<std::size_t>(rig.skin_default)].name = "base";
  SkinCache cache(rig.data);
  SkeletonPose pose(rig.data);
  apply_skin(pose, cache.compose(Ids{rig.skin_default}));
  ASSERT_EQ(pose.attachment[static_cast<std::size_t>(rig.head)], rig.head_default);
  // The bare skin has neither "head" nor anything for the head slot.
  apply_skin(pose, cache.compose(Ids{rig.skin_bare}));
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.head)], -1);
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.body)], -1) << "no \"body\" and no setup \"body\"";

  // The empty composition empties every slot.
  apply_skin(pose, cache.compose(Ids{rig.skin_default}));
  apply_skin(pose, cache.compose(Ids{}));
  for (std::int32_t a : pose.attachment) EXPECT_EQ(a, -1);
  EXPECT_TRUE(pose.skin->empty());
}

TEST(Skins, SetSlotAttachmentShowsANamedAttachmentOfTheActiveSkin) {
  OutfitRig rig;
  SkinCache cache(rig.data);
  SkeletonPose pose(rig.data);
  apply_skin(pose, cache.compose(Ids{rig.skin_default}));
  const auto head = static_cast<std::size_t>(rig.head);

  EXPECT_TRUE(set_slot_attachment(pose, rig.head, "hat"));
  EXPECT_EQ(pose.attachment[head], rig.hat_default);
  pose.set_to_setup();
  EXPECT_EQ(pose.attachment[head], rig.hat_default) << "survives the reset to the setup pose";

  // Not in the active skin (or not an attachment name at all): refused, nothing changes.
  EXPECT_FALSE(set_slot_attachment(pose, rig.head, "sword"));
  EXPECT_FALSE(set_slot_attachment(pose, rig.head, "no such name"));
  EXPECT_FALSE(set_slot_attachment(pose, 99, "hat"));
  EXPECT_FALSE(set_slot_attachment(pose, -1, "hat"));
  EXPECT_EQ(pose.attachment[head], rig.hat_default);

  // A skin change re-resolves the code-set attachment by name, and it keeps surviving resets.
  apply_skin(pose, cache.compose(Ids{rig.skin_default, rig.skin_hair}));
  EXPECT_EQ(pose.attachment[head], rig.hat_hair);
  pose.set_to_setup();
  EXPECT_EQ(pose.attachment[head], rig.hat_hair);
  // A skin without it drops the code-set attachment: the setup attachment comes back.
  apply_skin(pose, cache.compose(Ids{rig.skin_armor, rig.skin_default}));
  pose.set_to_setup();
  EXPECT_EQ(pose.attachment[head], rig.hat_default) << "the default skin has a hat too";
  apply_skin(pose, cache.compose(Ids{rig.skin_bare, rig.skin_default}));
  EXPECT_TRUE(set_slot_attachment(pose, rig.body, "shirt"));
  apply_skin(pose, cache.compose(Ids{rig.skin_default}));
  pose.set_to_setup();
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.body)], rig.body_default);

  // An empty name hides the slot, also across resets.
  EXPECT_TRUE(set_slot_attachment(pose, rig.head, ""));
  EXPECT_EQ(pose.attachment[head], -1);
  pose.set_to_setup();
  EXPECT_EQ(pose.attachment[head], -1);
}

TEST(Skins, TheDefaultSkinIsTheBaseOfEveryComposition) {
  OutfitRig rig;
  SkinCache cache(rig.data);
  // The hair skin alone: the default skin comes first, so its body and head show; hair's hat wins.
  const ComposedSkin& hair = cache.compose(Ids{rig.skin_hair});
  EXPECT_EQ(hair.skins, (Ids{rig.skin_default, rig.skin_hair}));
  EXPECT_EQ(hair.find(rig.body, rig.name("body")), rig.body_default);
  EXPECT_EQ(hair.find(rig.head, rig.name("head")), rig.head_default);
  EXPECT_EQ(hair.find(rig.head, rig.name("hat")), rig.hat_hair) << "a skin's own entry wins over the default's";
  // Not prepended twice when the list starts with it; a later default still wins over earlier skins.
  EXPECT_EQ(cache.compose(Ids{rig.skin_default, rig.skin_hair}).skins, (Ids{rig.skin_default, rig.skin_hair}));
  const ComposedSkin& after = cache.compose(Ids{rig.skin_hair, rig.skin_default});
  EXPECT_EQ(after.skins, (Ids{rig.skin_default, rig.skin_hair, rig.skin_default}));
  EXPECT_EQ(after.find(rig.head, rig.name("hat")), rig.hat_default);
  // The empty list is the default skin alone.
  EXPECT_EQ(cache.compose(Ids{}).skins, (Ids{rig.skin_default}));

  SkeletonPose pose(rig.data);
  const std::vector<std::string> names{"bare"};
  auto bare = cache.compose(names);
  ASSERT_TRUE(bare.ok());
  apply_skin(pose, **bare);
  // The head slot has attachments in the default skin only: it shows the default's setup "head".
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.head)], rig.head_default);
  EXPECT_EQ(pose.attachment[static_cast<std::size_t>(rig.body)], rig.body_default);
}

TEST(Skins, TheDefaultSkinsRequiredBonesAndConstraintsCount) {
  OutfitRig rig;
  // Give the default skin the sword bone and the IK constraint: any composition activates them.
  rig.data.skins[static_cast<std::size_t>(rig.skin_default)].bones = {rig.sword};
  rig.data.skins[static_cast<std::size_t>(rig.skin_default)].constraints = {0};
  SkinCache cache(rig.data);
  EXPECT_EQ(cache.compose(Ids{rig.skin_bare}).bone_active, (Flags{1, 0, 0, 1}));
  EXPECT_EQ(cache.compose(Ids{rig.skin_bare}).constraint_active, (Flags{1, 1}));
}

}  // namespace
}  // namespace mf::skel
