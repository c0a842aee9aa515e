// The layer → rig conversion on documents made in code: where slots, bones and regions land, what
// each tag does, hidden layers, opacity, fill and blend modes, and the names the rig needs unique.
// Positions are compared within 1e-4 pixels (floats of a few hundred pixels).

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "mf/offline/format/setup_world.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/import/psd/art_import.hpp"
#include "psd_documents.hpp"

namespace mf::offline {
namespace {

using test::document;
using test::group_layer;
using test::hidden;
using test::pixel_layer;
using test::with_blend;
using test::with_opacity;

constexpr double kTolerance = 1e-4;

ArtImport convert(const imaging::PsdDocument& doc) {
  Expected<ArtImport> import = convert_art(doc, "/some/where/art.psd");
  EXPECT_TRUE(import.ok()) << (import.ok() ? "" : import.error().to_string());
  if (!import.ok()) return {};
  // Every rig the conversion makes is one the .mskel reader accepts.
  Expected<SkeletonSource> back = read_skeleton(write_skeleton(import->skeleton), "art.mskel");
  EXPECT_TRUE(back.ok()) << (back.ok() ? "" : back.error().to_string());
  return std::move(*import);
}

const Slot* slot(const ArtImport& a, std::string_view name) {
  const int i = a.skeleton.find_slot(name);
  return i < 0 ? nullptr : &a.skeleton.slots[static_cast<std::size_t>(i)];
}

const Bone* bone(const ArtImport& a, std::string_view name) {
  const int i = a.skeleton.find_bone(name);
  return i < 0 ? nullptr : &a.skeleton.bones[static_cast<std::size_t>(i)];
}

const Attachment* attachment(const ArtImport& a, std::string_view skin, std::string_view slot_name,
                             std::string_view name) {
  const int s = a.skeleton.find_skin(skin), sl = a.skeleton.find_slot(slot_name);
  if (s < 0 || sl < 0) return nullptr;
  for (const Attachment& at : a.skeleton.skins[static_cast<std::size_t>(s)].attachments)
    if (at.slot == sl && at.name == name) return &at;
  return nullptr;
}

const imaging::Image* image(const ArtImport& a, std::string_view name) {
  for (const auto& [n, pixels] : a.images)
    if (n == name) return &pixels;
  return nullptr;
}

const ImageEntry* image_entry(const ArtImport& a, std::string_view name) {
  for (const ImageEntry& e : a.skeleton.images)
    if (e.name == name) return &e;
  return nullptr;
}

// Where a region's centre is in the rig, through its slot's bone's setup world transform.
Vec2d region_centre(const ArtImport& a, const Attachment& at) {
  const auto& r = std::get<RegionAttachment>(at.data);
  const int b = a.skeleton.slots[static_cast<std::size_t>(at.slot)].bone;
  const auto world = setup_world_transforms(a.skeleton);
  return world[static_cast<std::size_t>(b)]->apply({r.x, r.y});
}

bool has_note(const ArtImport& a, std::string_view where, std::string_view words) {
  for (const ImportNote& n : a.notes)
    if (n.where == where && n.message.find(words) != std::string::npos) return true;
  return false;
}

std::string notes_text(const ArtImport& a) {
  std::string s;
  for (const ImportNote& n : a.notes) s += n.where + ": " + n.message + "\n";
  return s;
}

#define EXPECT_AT(a, at, cx, cy)                          \
  do {                                                    \
    const Vec2d c_ = region_centre(a, at);                \
    EXPECT_NEAR(c_.x, (cx), kTolerance);                  \
    EXPECT_NEAR(c_.y, (cy), kTolerance);                  \
  } while (0)

// Canvas 200 × 300: the default origin is its bottom centre, (100, 300).
TEST(ArtConvert, PixelLayersBecomeSlotsWithRegionsWhereTheLayersSit) {
  const ArtImport a = convert(document(200, 300, {
                                                     pixel_layer("Back", 10, 20, 40, 30),
                                                     pixel_layer("Front", 100, 150, 21, 11, {1, 2, 3, 255}, 7),
                                                 }));
  EXPECT_EQ(a.name, "art");
  EXPECT_EQ(a.source, "art.psd");
  EXPECT_EQ(a.skeleton.uid.rfind("skl_", 0), 0u);
  ASSERT_EQ(a.skeleton.bones.size(), 1u);
  EXPECT_EQ(a.skeleton.bones[0].name, "root");
  ASSERT_EQ(a.skeleton.slots.size(), 2u);
  EXPECT_EQ(a.skeleton.slots[0].name, "Back");  // bottom first
  EXPECT_EQ(a.skeleton.slots[1].name, "Front");
  EXPECT_EQ(a.skeleton.slots[1].attachment, "Front");
  EXPECT_EQ(a.skeleton.slots[1].color, Rgba8::white());
  ASSERT_EQ(a.skeleton.skins.size(), 1u);
  EXPECT_EQ(a.skeleton.skins[0].name, "default");
  // The layer with 7 transparent pixels around its art is trimmed to the art.
  const imaging::Image* front = image(a, "Front");
  ASSERT_NE(front, nullptr);
  EXPECT_EQ(front->width, 21);
  EXPECT_EQ(front->height, 11);
  EXPECT_EQ(front->pixel(0, 0)[2], 3);
  ASSERT_NE(image_entry(a, "Front"), nullptr);
  EXPECT_EQ(*image_entry(a, "Front"), (ImageEntry{"Front", "art.psd:Front", CanvasRect{100, 150, 21, 11}}));
  const Attachment* at = attachment(a, "default", "Front", "Front");
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(std::get<RegionAttachment>(at->data).image, "");  // the attachment's name is the image's
  EXPECT_AT(a, *at, 100 + 10.5 - 100, 150 + 5.5 - 300);
  EXPECT_AT(a, *attachment(a, "default", "Back", "Back"), 10 + 20 - 100, 20 + 15 - 300);
  EXPECT_TRUE(a.notes.empty()) << notes_text(a);
}

TEST(ArtConvert, RigNameComesFromTheOptionsWhenGiven) {
  Expected<ArtImport> a = convert_art(document(10, 10, {pixel_layer("A", 0, 0, 2, 2)}), "art.psd", {"hero"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->name, "hero");
  EXPECT_EQ(a->skeleton.images[0].source, "art.psd:A");
}

TEST(ArtConvert, GroupsBecomeNestedBonesAtTheirLayersCentre) {
  const ArtImport a = convert(document(
      200, 300,
      {group_layer("Body", {pixel_layer("Torso", 60, 100, 80, 100),
                            group_layer("Arm", {pixel_layer("Upper", 140, 100, 20, 40), pixel_layer("Lower", 140, 140, 20, 40)})}),
       pixel_layer("Head", 80, 40, 40, 40)}));
  ASSERT_EQ(a.skeleton.bones.size(), 3u);
  const Bone* body = bone(a, "Body");
  const Bone* arm = bone(a, "Arm");
  ASSERT_TRUE(body && arm);
  EXPECT_EQ(body->parent, 0);
  EXPECT_EQ(arm->parent, a.skeleton.find_bone("Body"));
  // Body's layers span x 60..160, y 100..200: centre (110, 150), (10, -150) from the origin.
  EXPECT_FLOAT_EQ(body->x, 10);
  EXPECT_FLOAT_EQ(body->y, -150);
  // Arm's span x 140..160, y 100..180: centre (150, 140), relative to Body's (110, 150).
  EXPECT_FLOAT_EQ(arm->x, 40);
  EXPECT_FLOAT_EQ(arm->y, -10);
  ASSERT_EQ(a.skeleton.slots.size(), 4u);
  EXPECT_EQ(a.skeleton.slots[0].name, "Torso");
  EXPECT_EQ(a.skeleton.slots[1].name, "Upper");
  EXPECT_EQ(a.skeleton.slots[2].name, "Lower");
  EXPECT_EQ(a.skeleton.slots[3].name, "Head");
  EXPECT_EQ(a.skeleton.slots[1].bone, a.skeleton.find_bone("Arm"));
  EXPECT_EQ(a.skeleton.slots[3].bone, 0);
  EXPECT_AT(a, *attachment(a, "default", "Lower", "Lower"), 150 - 100, 160 - 300);
  EXPECT_AT(a, *attachment(a, "default", "Torso", "Torso"), 100 - 100, 150 - 300);
  // Images in folders by group; sources by the layer's path.
  EXPECT_NE(image(a, "Body/Arm/Lower"), nullptr);
  EXPECT_EQ(image_entry(a, "Body/Arm/Lower")->source, "art.psd:Body/Arm/Lower");
  EXPECT_EQ(std::get<RegionAttachment>(attachment(a, "default", "Lower", "Lower")->data).image, "Body/Arm/Lower");
}

TEST(ArtConvert, OriginLayerAtTheTopLevelGivesTheRigsOrigin) {
  const ArtImport a = convert(document(200, 300, {pixel_layer("A", 10, 10, 10, 10), pixel_layer("[origin]", 49, 59, 2, 2)}));
  EXPECT_EQ(a.skeleton.slots.size(), 1u);  // the marker is no art
  EXPECT_EQ(a.images.size(), 1u);
  EXPECT_AT(a, *attachment(a, "default", "A", "A"), 15 - 50, 15 - 60);

  // A group named [origin]: its layers' bounds centre.
  const ArtImport g = convert(document(
      200, 300, {pixel_layer("A", 10, 10, 10, 10), group_layer("[origin]", {pixel_layer("x", 0, 0, 4, 4), pixel_layer("y", 96, 96, 4, 4)})}));
  EXPECT_EQ(g.skeleton.slots.size(), 1u);
  EXPECT_AT(g, *attachment(g, "default", "A", "A"), 15 - 50, 15 - 50);
}

TEST(ArtConvert, OriginLayerInsideAGroupPlacesItsBone) {
  const ArtImport a = convert(document(200, 300, {group_layer("Arm", {pixel_layer("Hand", 10, 10, 20, 20), pixel_layer("[origin]", 40, 50, 1, 1)})}));
  const Bone* arm = bone(a, "Arm");
  ASSERT_NE(arm, nullptr);
  EXPECT_FLOAT_EQ(arm->x, 40.5f - 100);
  EXPECT_FLOAT_EQ(arm->y, 50.5f - 300);
  EXPECT_EQ(a.skeleton.slots.size(), 1u);
  EXPECT_AT(a, *attachment(a, "default", "Hand", "Hand"), 20 - 100, 20 - 300);
}

TEST(ArtConvert, IgnoreSkipsTheLayerAndEverythingInIt) {
  const ArtImport a = convert(document(
      100, 100, {pixel_layer("Sketch [ignore]", 0, 0, 100, 100),
                 group_layer("[ignore] Refs", {pixel_layer("Photo [bogus:tag] [trim]", 0, 0, 5, 5)}), pixel_layer("A", 1, 1, 2, 2)}));
  EXPECT_EQ(a.skeleton.slots.size(), 1u);
  EXPECT_EQ(a.skeleton.bones.size(), 1u);
  EXPECT_EQ(a.images.size(), 1u);
  EXPECT_TRUE(a.notes.empty()) << notes_text(a);  // nothing about what was ignored
}

TEST(ArtConvert, HiddenLayersAreImportedWithNothingShownInTheSetupPose) {
  const ArtImport a = convert(document(
      100, 100, {hidden(pixel_layer("Shadow", 0, 90, 100, 10)),
                 hidden(group_layer("Alt", {pixel_layer("Pose2", 10, 10, 10, 10)})), pixel_layer("Body", 40, 40, 20, 20)}));
  ASSERT_NE(slot(a, "Shadow"), nullptr);
  EXPECT_EQ(slot(a, "Shadow")->attachment, "");
  EXPECT_NE(attachment(a, "default", "Shadow", "Shadow"), nullptr);
  EXPECT_NE(image(a, "Shadow"), nullptr);
  // A hidden group hides its layers; the group is still a bone.
  ASSERT_NE(slot(a, "Pose2"), nullptr);
  EXPECT_EQ(slot(a, "Pose2")->attachment, "");
  EXPECT_NE(bone(a, "Alt"), nullptr);
  EXPECT_EQ(slot(a, "Body")->attachment, "Body");
}

TEST(ArtConvert, OpacityFillAndGroupOpacityMultiplyIntoTheSlotAlpha) {
  const ArtImport a = convert(document(
      100, 100,
      {with_opacity(group_layer("G", {with_opacity(pixel_layer("A", 0, 0, 4, 4), 128, 200),
                                      with_opacity(group_layer("H", {pixel_layer("B", 10, 10, 4, 4)}), 51)}),
                    204),
       with_opacity(pixel_layer("C", 20, 20, 4, 4), 255, 0)}));
  const auto alpha = [](double a) { return static_cast<int>(std::lround(a * 255)); };
  EXPECT_EQ(slot(a, "A")->color.a, alpha(204 / 255.0 * 128 / 255.0 * 200 / 255.0));
  EXPECT_EQ(slot(a, "B")->color.a, alpha(204 / 255.0 * 51 / 255.0));
  EXPECT_EQ(slot(a, "C")->color.a, 0);  // fill 0: the layer's pixels are not shown
  EXPECT_EQ(slot(a, "A")->color.r, 255);
}

TEST(ArtConvert, BlendModesTheRigHasBecomeTheSlotsBlendOthersAreReported) {
  const ArtImport a = convert(document(100, 100,
                                       {with_blend(pixel_layer("N", 0, 0, 2, 2), "norm"),
                                        with_blend(pixel_layer("M", 0, 0, 2, 2), "mul "),
                                        with_blend(pixel_layer("S", 0, 0, 2, 2), "scrn"),
                                        with_blend(pixel_layer("L", 0, 0, 2, 2), "lddg"),
                                        with_blend(pixel_layer("O", 0, 0, 2, 2), "over"),
                                        with_blend(group_layer("G", {pixel_layer("in", 0, 0, 2, 2)}), "diff")}));
  EXPECT_EQ(slot(a, "N")->blend, BlendMode::Normal);
  EXPECT_EQ(slot(a, "M")->blend, BlendMode::Multiply);
  EXPECT_EQ(slot(a, "S")->blend, BlendMode::Screen);
  EXPECT_EQ(slot(a, "L")->blend, BlendMode::Additive);
  EXPECT_EQ(slot(a, "O")->blend, BlendMode::Normal);
  EXPECT_TRUE(has_note(a, "art.psd:O", "blend mode overlay is not in the rig's blend modes")) << notes_text(a);
  EXPECT_TRUE(has_note(a, "art.psd:G", "group blend mode difference is not applied")) << notes_text(a);
  EXPECT_EQ(a.notes.size(), 2u) << notes_text(a);
}

TEST(ArtConvert, ClippingMasksAndTheReadersWarningsAreReported) {
  imaging::PsdLayer clipped = pixel_layer("Shade", 0, 0, 2, 2);
  clipped.clipping = true;
  imaging::PsdDocument doc = document(100, 100, {pixel_layer("Base", 0, 0, 2, 2), clipped});
  doc.warnings.push_back({"Fx layer", "layer effects are skipped"});
  doc.warnings.push_back({"", "the file's resolution info is not read"});
  const ArtImport a = convert(doc);
  EXPECT_TRUE(has_note(a, "art.psd:Shade", "clipping mask")) << notes_text(a);
  EXPECT_TRUE(has_note(a, "art.psd:Fx layer", "layer effects are skipped")) << notes_text(a);
  EXPECT_TRUE(has_note(a, "art.psd", "resolution info")) << notes_text(a);
  EXPECT_NE(slot(a, "Shade"), nullptr);  // imported whole
}

TEST(ArtConvert, SlotGroupMakesOneSlotShowingItsTopMostVisibleLayer) {
  const ArtImport a = convert(document(
      200, 300,
      {group_layer("Head", {pixel_layer("Face", 80, 40, 40, 40),
                            with_opacity(group_layer("[slot] Eyes", {hidden(pixel_layer("Closed", 90, 50, 20, 4)),
                                                                     with_opacity(pixel_layer("Open", 90, 48, 20, 8), 128),
                                                                     pixel_layer("Half", 90, 49, 20, 6)}),
                                         102)})}));
  EXPECT_EQ(bone(a, "Eyes"), nullptr);  // a [slot] group is no bone
  const Slot* eyes = slot(a, "Eyes");
  ASSERT_NE(eyes, nullptr);
  EXPECT_EQ(eyes->bone, a.skeleton.find_bone("Head"));
  EXPECT_EQ(eyes->attachment, "Half");
  EXPECT_EQ(eyes->color.a, 102);  // the group's opacity
  ASSERT_NE(attachment(a, "default", "Eyes", "Closed"), nullptr);
  ASSERT_NE(attachment(a, "default", "Eyes", "Open"), nullptr);
  // A layer's own opacity goes to its attachment's colour: one slot alpha serves them all.
  EXPECT_EQ(std::get<RegionAttachment>(attachment(a, "default", "Eyes", "Open")->data).color.a, 128);
  EXPECT_EQ(std::get<RegionAttachment>(attachment(a, "default", "Eyes", "Half")->data).color.a, 255);
  EXPECT_AT(a, *attachment(a, "default", "Eyes", "Closed"), 100 - 100, 52 - 300);
  EXPECT_EQ(a.skeleton.slots.size(), 2u);
  EXPECT_NE(image(a, "Head/Eyes/Open"), nullptr);
  EXPECT_TRUE(has_note(a, "art.psd:Head/Eyes/Half", "shows more than one layer")) << notes_text(a);
}

TEST(ArtConvert, SkinGroupsGiveTheirSlotsAttachmentsInThatSkin) {
  const ArtImport a = convert(document(
      200, 300,
      {pixel_layer("Shirt", 60, 100, 80, 60),
       hidden(group_layer("[skin] red", {pixel_layer("Shirt", 62, 100, 76, 60, {255, 0, 0, 255}), pixel_layer("Hat", 70, 10, 60, 30)})),
       group_layer("[skin:blue] Outfit blue", {hidden(pixel_layer("Shirt", 60, 98, 80, 64, {0, 0, 255, 255})),
                                              with_opacity(pixel_layer("Hat", 72, 12, 56, 26), 51)})}));
  ASSERT_EQ(a.skeleton.skins.size(), 3u);
  EXPECT_EQ(a.skeleton.skins[0].name, "default");
  EXPECT_EQ(a.skeleton.skins[1].name, "red");
  EXPECT_EQ(a.skeleton.skins[2].name, "blue");
  EXPECT_EQ(a.skeleton.bones.size(), 1u);  // skins are no bones
  ASSERT_EQ(a.skeleton.slots.size(), 2u);
  // The skins' shirts share the default shirt's slot and the name it shows, whatever their visibility.
  EXPECT_EQ(slot(a, "Shirt")->attachment, "Shirt");
  const Attachment* red = attachment(a, "red", "Shirt", "Shirt");
  const Attachment* blue = attachment(a, "blue", "Shirt", "Shirt");
  ASSERT_TRUE(red && blue);
  EXPECT_EQ(std::get<RegionAttachment>(red->data).image, "red/Shirt");
  EXPECT_EQ(std::get<RegionAttachment>(blue->data).image, "blue/Shirt");
  EXPECT_AT(a, *red, 100 - 100, 130 - 300);
  EXPECT_AT(a, *blue, 100 - 100, 130 - 300);
  // A layer no slot is named after: one new slot for the skins, showing their attachment.
  const Slot* hat = slot(a, "Hat");
  ASSERT_NE(hat, nullptr);
  EXPECT_EQ(hat->attachment, "Hat");
  EXPECT_NE(attachment(a, "red", "Hat", "Hat"), nullptr);
  EXPECT_NE(attachment(a, "blue", "Hat", "Hat"), nullptr);
  EXPECT_EQ(attachment(a, "default", "Hat", "Hat"), nullptr);
  EXPECT_EQ(std::get<RegionAttachment>(attachment(a, "blue", "Hat", "Hat")->data).color.a, 51);
  EXPECT_AT(a, *attachment(a, "blue", "Hat", "Hat"), 100 - 100, 25 - 300);
  EXPECT_EQ(image_entry(a, "blue/Hat")->source, "art.psd:Outfit blue/Hat");
}

TEST(ArtConvert, SkinLayersMatchTheirSlotWithoutGimpsDuplicateSuffix) {
  // GIMP keeps layer names unique: a second "Torso" is saved as "Torso #1".
  const ArtImport a = convert(document(100, 100, {pixel_layer("Torso", 10, 10, 20, 20),
                                                  hidden(group_layer("[skin] red", {pixel_layer("Torso #1", 10, 10, 20, 20)}))}));
  EXPECT_EQ(a.skeleton.slots.size(), 1u);
  ASSERT_NE(attachment(a, "red", "Torso", "Torso"), nullptr);
  EXPECT_EQ(std::get<RegionAttachment>(attachment(a, "red", "Torso", "Torso")->data).image, "red/Torso");
  EXPECT_EQ(image_entry(a, "red/Torso")->source, "art.psd:red/Torso #1");
}

TEST(ArtConvert, MergeGroupIsFlattenedIntoOneImage) {
  const ArtImport a = convert(document(
      100, 100,
      {group_layer("[merge] Hair", {with_opacity(pixel_layer("Back", 10, 10, 20, 10, {0, 0, 0, 255}), 255),
                                    with_opacity(pixel_layer("Front", 20, 10, 20, 10, {255, 255, 255, 255}), 128),
                                    hidden(pixel_layer("Extra", 0, 0, 100, 100)),
                                    with_blend(pixel_layer("Shine", 39, 19, 1, 1, {10, 10, 10, 255}), "scrn")})}));
  EXPECT_EQ(bone(a, "Hair"), nullptr);
  ASSERT_EQ(a.skeleton.slots.size(), 1u);
  EXPECT_EQ(a.skeleton.slots[0].name, "Hair");
  ASSERT_EQ(a.images.size(), 1u);
  const imaging::Image* hair = image(a, "Hair");
  ASSERT_NE(hair, nullptr);
  // The visible layers span x 10..40, y 10..20; the hidden one is left out.
  EXPECT_EQ(hair->width, 30);
  EXPECT_EQ(hair->height, 10);
  EXPECT_EQ(image_entry(a, "Hair")->rect, (CanvasRect{10, 10, 30, 10}));
  const auto px = [&](int x, int y) { return std::array<int, 4>{hair->pixel(x, y)[0], hair->pixel(x, y)[1], hair->pixel(x, y)[2], hair->pixel(x, y)[3]}; };
  EXPECT_EQ(px(0, 0), (std::array<int, 4>{0, 0, 0, 255}));          // Back alone
  EXPECT_EQ(px(15, 5), (std::array<int, 4>{128, 128, 128, 255}));   // Front at 128/255 over black
  EXPECT_EQ(px(25, 5), (std::array<int, 4>{255, 255, 255, 128}));   // Front alone
  EXPECT_EQ(px(29, 9), (std::array<int, 4>{10, 10, 10, 255}));      // Shine, composited as normal
  EXPECT_TRUE(has_note(a, "art.psd:Hair/Shine", "composited as normal")) << notes_text(a);
  EXPECT_AT(a, *attachment(a, "default", "Hair", "Hair"), 25 - 50, 15 - 100);
}

TEST(ArtConvert, BoneTagGivesALayerABoneOfItsOwn) {
  const ArtImport a = convert(document(200, 300, {group_layer("Body", {pixel_layer("Torso", 80, 100, 40, 100), pixel_layer("[bone] Arm", 120, 100, 10, 40)})}));
  const Bone* arm = bone(a, "Arm");
  ASSERT_NE(arm, nullptr);
  EXPECT_EQ(arm->parent, a.skeleton.find_bone("Body"));
  EXPECT_EQ(slot(a, "Arm")->bone, a.skeleton.find_bone("Arm"));
  const auto& r = std::get<RegionAttachment>(attachment(a, "default", "Arm", "Arm")->data);
  EXPECT_FLOAT_EQ(r.x, 0);
  EXPECT_FLOAT_EQ(r.y, 0);
  EXPECT_AT(a, *attachment(a, "default", "Arm", "Arm"), 125 - 100, 120 - 300);
}

TEST(ArtConvert, NormalLayerBecomesTheNormalMapOfTheLayerOfTheSameName) {
  const ArtImport a = convert(document(100, 100, {group_layer("Body", {pixel_layer("Torso", 10, 10, 20, 20),
                                                                       pixel_layer("[normal] Torso", 10, 10, 10, 20, {100, 150, 200, 255})}),
                                                  pixel_layer("Lonely [normal]", 0, 0, 5, 5)}));
  EXPECT_EQ(a.skeleton.slots.size(), 1u);
  EXPECT_EQ(a.skeleton.images.size(), 1u);  // normal maps are found by name, not listed
  const imaging::Image* map = image(a, "Body/Torso_n");
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(map->width, 20);
  EXPECT_EQ(map->height, 20);
  EXPECT_EQ(map->pixel(0, 0)[0], 100);
  EXPECT_EQ(map->pixel(0, 0)[2], 200);
  EXPECT_EQ(map->pixel(15, 5)[0], 128);  // outside the normal layer: flat
  EXPECT_EQ(map->pixel(15, 5)[2], 255);
  EXPECT_EQ(a.normal_maps.at("Body/Torso_n"), "Body/Torso");
  EXPECT_TRUE(has_note(a, "art.psd:Lonely", "no layer named \"Lonely\"")) << notes_text(a);
}

TEST(ArtConvert, MeshTagMakesTheAttachmentAnAutoMeshWhereTheLayerSits) {
  // A 20 × 20 square with a 10 × 10 notch cut out of its top-right corner: an L the mesh follows.
  imaging::PsdLayer cape = pixel_layer("Cape [mesh]", 30, 40, 20, 20, {200, 100, 50, 255}, 4);
  for (int y = 4; y < 14; ++y)
    for (int x = 14; x < 24; ++x) cape.pixels.pixel(x, y)[3] = 0;
  const ArtImport a = convert(document(100, 100, {cape, group_layer("[mesh] Hair", {pixel_layer("Strand", 0, 0, 8, 8)})}));
  ASSERT_EQ(a.meshes.size(), 2u);
  EXPECT_EQ(a.meshes[0].slot, "Cape");
  EXPECT_EQ(a.meshes[0].attachment, "Cape");
  EXPECT_EQ(a.meshes[0].skin, "default");
  EXPECT_EQ(a.meshes[1].slot, "Strand");  // a [mesh] group meshes every layer in it
  EXPECT_TRUE(a.notes.empty()) << notes_text(a);
  const Attachment* at = attachment(a, "default", "Cape", "Cape");
  ASSERT_NE(at, nullptr);
  ASSERT_EQ(at->type(), AttachmentType::Mesh);
  const auto& mesh = std::get<MeshAttachment>(at->data);
  EXPECT_EQ(mesh.image, "");  // the attachment's name
  ASSERT_FALSE(mesh.vertices.weighted());
  const std::size_t count = mesh.vertices.count();
  ASSERT_GE(count, 5u);  // an L has at least six corners, the hull at least five after simplification
  EXPECT_EQ(mesh.uvs.size(), count * 2);
  EXPECT_FALSE(mesh.triangles.empty());
  // Every vertex shows the pixel the layer has there: (image pixel + the image's corner) − origin.
  const int bone = a.skeleton.slots[static_cast<std::size_t>(at->slot)].bone;
  const auto world = setup_world_transforms(a.skeleton);
  for (std::size_t v = 0; v < count; ++v) {
    const Vec2d p = world[static_cast<std::size_t>(bone)]->apply({mesh.vertices.positions[2 * v], mesh.vertices.positions[2 * v + 1]});
    EXPECT_NEAR(p.x, 30 + mesh.uvs[2 * v] * 20 - 50, kTolerance) << v;
    EXPECT_NEAR(p.y, 40 + mesh.uvs[2 * v + 1] * 20 - 100, kTolerance) << v;
  }
  // No triangle covers the notch's centre.
  const auto inside = [&](int t, Vec2d q) {
    const auto uv = [&](int i) { return Vec2d{mesh.uvs[2 * static_cast<std::size_t>(i)] * 20.0, mesh.uvs[2 * static_cast<std::size_t>(i) + 1] * 20.0}; };
    const Vec2d p0 = uv(mesh.triangles[3 * t]), p1 = uv(mesh.triangles[3 * t + 1]), p2 = uv(mesh.triangles[3 * t + 2]);
    const auto side = [](Vec2d a0, Vec2d a1, Vec2d b) { return (a1.x - a0.x) * (b.y - a0.y) - (a1.y - a0.y) * (b.x - a0.x); };
    const double s0 = side(p0, p1, q), s1 = side(p1, p2, q), s2 = side(p2, p0, q);
    return (s0 > 0 && s1 > 0 && s2 > 0) || (s0 < 0 && s1 < 0 && s2 < 0);
  };
  for (int t = 0; t < static_cast<int>(mesh.triangles.size() / 3); ++t) EXPECT_FALSE(inside(t, {15, 5})) << t;
  EXPECT_EQ(attachment(a, "default", "Strand", "Strand")->type(), AttachmentType::Mesh);
}

TEST(ArtConvert, NamesAreMadeUniqueWhereTheRigNeedsThemAndReported) {
  const ArtImport a = convert(document(
      100, 100, {pixel_layer("Arm", 0, 0, 2, 2), pixel_layer("Arm", 10, 10, 2, 2), pixel_layer("arm", 20, 20, 2, 2),
                 group_layer("root", {pixel_layer("a/b:c", 30, 30, 2, 2)}), pixel_layer("[bone]", 40, 40, 2, 2)}));
  ASSERT_EQ(a.skeleton.slots.size(), 5u);
  EXPECT_EQ(a.skeleton.slots[0].name, "Arm");
  EXPECT_EQ(a.skeleton.slots[1].name, "Arm-2");
  EXPECT_EQ(a.skeleton.slots[2].name, "arm");  // slot names may differ by case
  // Image names are file paths: unique whatever their case, without characters file systems refuse.
  EXPECT_EQ(a.skeleton.images[0].name, "Arm");
  EXPECT_EQ(a.skeleton.images[1].name, "Arm-2");
  EXPECT_EQ(a.skeleton.images[2].name, "arm-3");
  EXPECT_EQ(a.skeleton.images[1].source, "art.psd:Arm#2");
  EXPECT_EQ(a.skeleton.images[2].source, "art.psd:arm");
  EXPECT_NE(bone(a, "root-2"), nullptr);
  EXPECT_EQ(a.skeleton.images[3].name, "root/a_b_c");
  EXPECT_EQ(a.skeleton.images[3].source, "art.psd:root/a/b:c");
  EXPECT_TRUE(has_note(a, "art.psd:Arm#2", "slot \"Arm\" is taken: named \"Arm-2\"")) << notes_text(a);
  EXPECT_TRUE(has_note(a, "art.psd:arm", "image \"arm\" is taken: named \"arm-3\"")) << notes_text(a);
  EXPECT_TRUE(has_note(a, "art.psd:root", "bone \"root\" is taken: named \"root-2\"")) << notes_text(a);
  // A name that is only tags gets one from its record.
  EXPECT_NE(bone(a, "Layer 5"), nullptr);
  EXPECT_TRUE(has_note(a, "art.psd:Layer 5", "is empty without its tags")) << notes_text(a);
}

TEST(ArtConvert, UnsupportedTagsAndEmptyLayersAreReported) {
  const ArtImport a = convert(document(100, 100, {pixel_layer("Hand [folder]", 0, 0, 2, 2), pixel_layer("Nothing", 0, 0, 0, 0)}));
  EXPECT_TRUE(has_note(a, "art.psd:Hand", "tag [folder] is not supported")) << notes_text(a);
  EXPECT_TRUE(has_note(a, "art.psd:Nothing", "no visible pixels")) << notes_text(a);
  EXPECT_EQ(a.skeleton.slots.size(), 1u);
}

TEST(ArtConvert, ADocumentWithoutLayersIsAnError) {
  Expected<ArtImport> a = convert_art(document(10, 10, {}), "flat.psd");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().file, "flat.psd");
  EXPECT_NE(a.error().message.find("no layers"), std::string::npos);
}

TEST(ArtConvert, SameDocumentGivesTheSameRig) {
  const auto doc = document(100, 100, {group_layer("G", {pixel_layer("A", 0, 0, 2, 2)})});
  const ArtImport a = convert(doc), b = convert(doc);
  EXPECT_EQ(a.skeleton, b.skeleton);
  EXPECT_EQ(a.images, b.images);
}

}  // namespace
}  // namespace mf::offline
