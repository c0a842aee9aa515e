// The skeleton part of the Spine importer on fixtures of our own (tests/data/spine): every bone,
// slot, constraint, event and attachment field, the flips of y, rotation and shear, Spine's
// defaults made explicit, the 4.0 / 4.1 / 4.3 differences, and errors with JSON paths.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/import/spine/spine_import.hpp"
#include "mf/offline/format/uid.hpp"

namespace mf::offline {
namespace {

const std::string kDir = std::string(MF_TEST_DATA_DIR) + "/spine/";

SpineImport convert_fixture(const std::string& name) {
  Expected<std::string> text = read_file(kDir + name);
  EXPECT_TRUE(text) << text.error().to_string();
  if (!text) return {};
  Expected<SpineImport> import = convert_spine(*text, kDir + name);
  EXPECT_TRUE(import) << import.error().to_string();
  return import ? std::move(*import) : SpineImport{};
}

bool has_note(const SpineImport& import, const std::string& where, const std::string& text) {
  for (const ImportNote& n : import.notes)
    if (n.where == where && n.message.find(text) != std::string::npos) return true;
  return false;
}

const Attachment& attachment(const SkeletonSource& s, const std::string& skin, const std::string& slot, const std::string& name) {
  const Skin& k = s.skins.at(static_cast<std::size_t>(s.find_skin(skin)));
  for (const Attachment& a : k.attachments)
    if (a.slot == s.find_slot(slot) && a.name == name) return a;
  ADD_FAILURE() << "no attachment " << skin << "/" << slot << "/" << name;
  static Attachment none;
  return none;
}

// World position of a bone's tip from translation and rotation only, with the usual rotation matrix.
// In Spine's Y-up space that matrix turns counter-clockwise on screen; in ours (Y down) clockwise.
struct Pos {
  double x, y;
};
Pos tip(const SkeletonSource& s, int bone) {
  std::vector<int> chain;
  for (int b = bone; b >= 0; b = s.bones[static_cast<std::size_t>(b)].parent) chain.insert(chain.begin(), b);
  double x = 0, y = 0, angle = 0;
  for (int b : chain) {
    const Bone& bn = s.bones[static_cast<std::size_t>(b)];
    const double a = angle * M_PI / 180;
    x += std::cos(a) * bn.x - std::sin(a) * bn.y;
    y += std::sin(a) * bn.x + std::cos(a) * bn.y;
    angle += bn.rotation;
  }
  const double a = angle * M_PI / 180;
  const double len = s.bones[static_cast<std::size_t>(bone)].length;
  return {x + std::cos(a) * len, y + std::sin(a) * len};
}

// A constraint's place in the update order (the importer keeps Spine's sequence; the model writes
// `order` only where the default order differs).
int place(const SkeletonSource& s, ConstraintKind kind, int index) {
  const std::vector<ConstraintRef> order = s.update_order();
  const auto it = std::find(order.begin(), order.end(), ConstraintRef{kind, index});
  return it == order.end() ? -1 : static_cast<int>(it - order.begin());
}

TEST(SpineSkeleton, BonesFlipYRotationAndShear) {
  const SpineImport im = convert_fixture("hero.json");
  const SkeletonSource& s = im.skeleton;
  EXPECT_EQ(im.name, "hero");
  EXPECT_EQ(im.spine_version, "4.2.40");
  EXPECT_EQ(s.fps, 24);
  EXPECT_EQ(s.uid, derive_uid("skl_", "hero.json"));
  ASSERT_EQ(s.bones.size(), 9u);
  const Bone& hips = s.bones[1];
  EXPECT_EQ(hips.parent, 0);
  EXPECT_FLOAT_EQ(hips.x, 2);
  EXPECT_FLOAT_EQ(hips.y, -40);
  EXPECT_FLOAT_EQ(hips.rotation, -90);
  EXPECT_EQ(hips.color, (Rgba8{255, 0, 0, 255}));
  const Bone& torso = s.bones[2];
  EXPECT_FLOAT_EQ(torso.x, 5);
  EXPECT_FLOAT_EQ(torso.y, 3);
  EXPECT_FLOAT_EQ(torso.rotation, -10);
  EXPECT_FLOAT_EQ(torso.scale_x, 1.5f);
  EXPECT_FLOAT_EQ(torso.scale_y, 0.5f);
  EXPECT_FLOAT_EQ(torso.shear_x, -4);
  EXPECT_FLOAT_EQ(torso.shear_y, 6);
  EXPECT_FLOAT_EQ(torso.length, 30);
  EXPECT_EQ(torso.color, kDefaultBoneColor);
  EXPECT_EQ(s.bones[3].inherit, Inherit::NoScale);
  EXPECT_EQ(s.bones[6].inherit, Inherit::OnlyTranslation);
  EXPECT_EQ(s.bones[7].inherit, Inherit::NoScaleOrReflection);
  EXPECT_TRUE(s.bones[7].skin_required);
  EXPECT_EQ(s.bones[8].inherit, Inherit::NoRotationOrReflection);
  EXPECT_EQ(s.bones[1].inherit, Inherit::Normal);
  EXPECT_TRUE(has_note(im, "bones[1].icon", "editor-only \"icon\""));
  EXPECT_TRUE(has_note(im, "skeleton.images", "image folder"));
}

TEST(SpineSkeleton, WorldPositionsAreMirroredInY) {
  // Spine's hips (2, 40) turned 90° counter-clockwise, thigh 170°, shin −20° at x 20: the shin's tip
  // is where Spine puts it, with y negated (tolerance 1e-4 px, float rounding of the inputs).
  const SkeletonSource& s = convert_fixture("hero.json").skeleton;
  const Pos ours = tip(s, s.find_bone("shin"));
  const double a1 = 90 * M_PI / 180, a2 = (90 + 170) * M_PI / 180, a3 = (90 + 170 - 20) * M_PI / 180;
  const double sx = 2 + 0 + std::cos(a2) * 20 + std::cos(a3) * 18;
  const double sy = 40 + 0 + std::sin(a2) * 20 + std::sin(a3) * 18;
  (void)a1;
  EXPECT_NEAR(ours.x, sx, 1e-4);
  EXPECT_NEAR(ours.y, -sy, 1e-4);
}

TEST(SpineSkeleton, SlotsKeepColoursBlendAndDark) {
  const SkeletonSource& s = convert_fixture("hero.json").skeleton;
  ASSERT_EQ(s.slots.size(), 10u);
  EXPECT_EQ(s.slots[0].color, (Rgba8{255, 255, 255, 0x80}));
  EXPECT_EQ(s.slots[0].blend, BlendMode::Additive);
  EXPECT_EQ(s.slots[0].attachment, "torso");
  EXPECT_EQ(s.slots[1].blend, BlendMode::Multiply);
  ASSERT_TRUE(s.slots[1].dark.has_value());
  EXPECT_EQ(*s.slots[1].dark, (Rgba8{0x10, 0x20, 0x30, 255}));
  EXPECT_EQ(s.slots[2].blend, BlendMode::Screen);
  EXPECT_FALSE(s.slots[2].dark.has_value());
  EXPECT_EQ(s.slots[4].bone, s.find_bone("head"));
}

TEST(SpineSkeleton, ConstraintsFlipAndMakeDefaultsExplicit) {
  const SkeletonSource& s = convert_fixture("hero.json").skeleton;
  ASSERT_EQ(s.ik.size(), 2u);
  const IkConstraint& leg = s.ik[0];
  EXPECT_EQ(leg.bones, (std::vector<int>{s.find_bone("thigh"), s.find_bone("shin")}));
  EXPECT_EQ(leg.target, s.find_bone("foot-target"));
  EXPECT_EQ(leg.bend, 1);  // bendPositive false: Spine bends clockwise on screen, our +1
  EXPECT_FLOAT_EQ(leg.mix, 0.75f);
  EXPECT_FLOAT_EQ(leg.softness, 3);
  EXPECT_EQ(place(s, ConstraintKind::Ik, 0), 2);
  const IkConstraint& look = s.ik[1];
  EXPECT_EQ(look.bend, -1);  // Spine's default bendPositive: true
  EXPECT_TRUE(look.compress && look.stretch && look.uniform);
  EXPECT_EQ(place(s, ConstraintKind::Ik, 1), 0);

  ASSERT_EQ(s.transform.size(), 1u);
  const TransformConstraint& t = s.transform[0];
  EXPECT_EQ(place(s, ConstraintKind::Transform, 0), 1);
  EXPECT_TRUE(t.skin_required && t.local && t.relative);
  EXPECT_FLOAT_EQ(t.offset_rotation, -30);
  EXPECT_FLOAT_EQ(t.offset_x, 4);
  EXPECT_FLOAT_EQ(t.offset_y, -5);
  EXPECT_FLOAT_EQ(t.offset_shear_y, -7);
  EXPECT_FLOAT_EQ(t.offset_scale_x, 0.1f);
  EXPECT_FLOAT_EQ(t.mix_rotate, 0.5f);
  EXPECT_FLOAT_EQ(t.mix_x, 0.25f);
  EXPECT_FLOAT_EQ(t.mix_y, 0.25f);  // Spine: mixY defaults to mixX
  EXPECT_FLOAT_EQ(t.mix_scale_x, 0.2f);
  EXPECT_FLOAT_EQ(t.mix_scale_y, 0.2f);  // and mixScaleY to mixScaleX
  EXPECT_FLOAT_EQ(t.mix_shear_y, 0);

  ASSERT_EQ(s.path.size(), 1u);
  const PathConstraint& p = s.path[0];
  EXPECT_EQ(place(s, ConstraintKind::Path, 0), 3);
  EXPECT_EQ(p.target, s.find_slot("rail"));
  EXPECT_EQ(p.position_mode, PositionMode::Fixed);
  EXPECT_EQ(p.spacing_mode, SpacingMode::Proportional);
  EXPECT_EQ(p.rotate_mode, RotateMode::ChainScale);
  EXPECT_FLOAT_EQ(p.offset_rotation, -15);
  EXPECT_FLOAT_EQ(p.position, 12);
  EXPECT_FLOAT_EQ(p.spacing, 2);
  EXPECT_FLOAT_EQ(p.mix_rotate, 0.5f);
  EXPECT_FLOAT_EQ(p.mix_x, 0.3f);
  EXPECT_FLOAT_EQ(p.mix_y, 0.3f);

  ASSERT_EQ(s.physics.size(), 1u);
  const PhysicsConstraint& ph = s.physics[0];
  EXPECT_EQ(place(s, ConstraintKind::Physics, 0), 4);
  EXPECT_EQ(ph.bone, s.find_bone("cape"));
  EXPECT_FLOAT_EQ(ph.x, 0.5f);
  EXPECT_FLOAT_EQ(ph.y, 0);
  EXPECT_FLOAT_EQ(ph.rotate, 1);
  EXPECT_FLOAT_EQ(ph.inertia, 0.5f);
  EXPECT_FLOAT_EQ(ph.strength, 80);
  EXPECT_FLOAT_EQ(ph.damping, 0.9f);
  EXPECT_FLOAT_EQ(ph.mass, 2);
  EXPECT_FLOAT_EQ(ph.wind, 1);
  EXPECT_FLOAT_EQ(ph.gravity, 30);  // downwards in both
  EXPECT_FLOAT_EQ(ph.limit, 400);
  EXPECT_FLOAT_EQ(ph.fps, 30);
  EXPECT_FLOAT_EQ(ph.mix, 1);
}

TEST(SpineSkeleton, PhysicsDirectionChannelsAreReportedAsDifferingInMotion) {
  // hero.json's cape constraint turns under wind and gravity: the report says that plays by our model.
  const SpineImport import = convert_fixture("hero.json");
  EXPECT_TRUE(has_note(import, "physics[0]", "1 physics constraint(s) simulate scale X, or wind or gravity turning"));
  EXPECT_TRUE(has_note(import, "physics[0]", "physics[0]"));
}

TEST(SpineSkeleton, EventsKeepAudio) {
  const SkeletonSource& s = convert_fixture("hero.json").skeleton;
  ASSERT_EQ(s.events.size(), 2u);
  const EventDef& step = s.events[static_cast<std::size_t>(s.find_event("step"))];
  EXPECT_EQ(step.int_value, 3);
  EXPECT_FLOAT_EQ(step.float_value, 0.5f);
  EXPECT_EQ(step.string_value, "left");
  EXPECT_EQ(step.audio, "sfx/step.ogg");
  EXPECT_FLOAT_EQ(step.volume, 0.8f);
  EXPECT_FLOAT_EQ(step.balance, -0.25f);
  const EventDef& blink = s.events[static_cast<std::size_t>(s.find_event("blink"))];
  EXPECT_FLOAT_EQ(blink.volume, 1);
  EXPECT_TRUE(blink.audio.empty());
}

TEST(SpineSkeleton, RegionAndPointAttachmentsFlip) {
  const SkeletonSource& s = convert_fixture("hero.json").skeleton;
  const auto& torso = std::get<RegionAttachment>(attachment(s, "default", "back", "torso").data);
  EXPECT_TRUE(torso.image.empty());  // the attachment's own name
  EXPECT_FLOAT_EQ(torso.x, 12);
  EXPECT_FLOAT_EQ(torso.y, -3);
  EXPECT_FLOAT_EQ(torso.rotation, 90);
  EXPECT_FLOAT_EQ(torso.scale_x, 0.9f);
  EXPECT_FLOAT_EQ(torso.scale_y, 1.1f);
  EXPECT_FLOAT_EQ(torso.width, 18);
  EXPECT_FLOAT_EQ(torso.height, 20);
  EXPECT_EQ(torso.color, (Rgba8{255, 0x80, 0, 255}));
  const auto& arm = std::get<RegionAttachment>(attachment(s, "default", "arm", "arm").data);
  EXPECT_FLOAT_EQ(arm.y, 2);
  EXPECT_FLOAT_EQ(arm.rotation, -30);
  const auto& fx = std::get<RegionAttachment>(attachment(s, "default", "fx", "fx").data);
  ASSERT_TRUE(fx.sequence.has_value());
  EXPECT_EQ(*fx.sequence, (Sequence{2, 1, 2, 1}));
  const auto& muzzle = std::get<PointAttachment>(attachment(s, "default", "muzzle", "muzzle").data);
  EXPECT_FLOAT_EQ(muzzle.x, 7);
  EXPECT_FLOAT_EQ(muzzle.y, -2);
  EXPECT_FLOAT_EQ(muzzle.rotation, -45);
}

TEST(SpineSkeleton, MeshesFlipVerticesAndKeepUvs) {
  const SkeletonSource& s = convert_fixture("hero.json").skeleton;
  const auto& body = std::get<MeshAttachment>(attachment(s, "default", "body", "body").data);
  EXPECT_EQ(body.image, "body_mesh");
  EXPECT_EQ(body.uvs, (std::vector<float>{0, 0, 1, 0, 1, 1, 0, 1}));  // both v-down image space
  EXPECT_EQ(body.triangles, (std::vector<int>{0, 1, 2, 2, 3, 0}));
  EXPECT_EQ(body.vertices.positions, (std::vector<float>{-8, -8, 8, -8, 8, 8, -8, 8}));
  EXPECT_EQ(body.hull, 4);
  EXPECT_EQ(body.edges, (std::vector<int>{0, 1, 1, 2, 2, 3, 3, 0}));  // Spine doubles edge indices
  EXPECT_FLOAT_EQ(body.width, 16);
  EXPECT_EQ(body.color.a, 0xc0);

  const auto& skinned = std::get<MeshAttachment>(attachment(s, "default", "skin-mesh", "skinned").data);
  ASSERT_TRUE(skinned.vertices.weighted());
  const int torso = s.find_bone("torso"), head = s.find_bone("head");
  const std::vector<std::vector<InfluenceSource>> expected = {
      {{torso, 1, 10, -5}}, {{torso, 0.75f, 20, -5}, {head, 0.25f, 10, 5}}, {{head, 1, 0, 7}}};
  EXPECT_EQ(skinned.vertices.weights, expected);
}

TEST(SpineSkeleton, OutlinesFlipAndPathsKeepTheirSegments) {
  const SkeletonSource& s = convert_fixture("hero.json").skeleton;
  const auto& hit = std::get<BoundingBoxAttachment>(attachment(s, "default", "hitbox", "hitbox").data);
  EXPECT_EQ(hit.vertices.positions, (std::vector<float>{0, 0, 10, 0, 0, -10}));
  EXPECT_EQ(hit.color, (Rgba8{0, 255, 0, 255}));
  const auto& clip = std::get<ClippingAttachment>(attachment(s, "default", "clip", "clip").data);
  EXPECT_EQ(clip.end_slot, s.find_slot("head"));
  EXPECT_EQ(clip.vertices.positions, (std::vector<float>{-20, 20, 20, 20, 0, -30}));
  const auto& rail = std::get<PathAttachment>(attachment(s, "default", "rail", "rail").data);
  EXPECT_FALSE(rail.closed);
  EXPECT_FALSE(rail.constant_speed);
  EXPECT_EQ(rail.lengths, (std::vector<float>{50}));  // open, 2 knots: one segment
  EXPECT_EQ(rail.vertices.positions, (std::vector<float>{-10, 0, 0, 0, 10, -5, 40, -5, 50, 0, 60, 5}));
}

TEST(SpineSkeleton, SkinsCarryLinkedMeshesAndRequiredBonesAndConstraints) {
  const SkeletonSource& s = convert_fixture("hero.json").skeleton;
  ASSERT_EQ(s.skins.size(), 2u);
  EXPECT_EQ(s.skins[0].attachments.size(), 10u);
  const Skin& armored = s.skins[1];
  EXPECT_EQ(armored.bones, (std::vector<int>{s.find_bone("cape")}));
  EXPECT_EQ(armored.constraints,
            (std::vector<ConstraintRef>{{ConstraintKind::Transform, 0}, {ConstraintKind::Physics, 0}}));
  const auto& link = std::get<LinkedMeshAttachment>(attachment(s, "armored", "body", "body").data);
  EXPECT_EQ(link.parent, "body");
  EXPECT_EQ(link.skin, "default");
  EXPECT_EQ(link.image, "armor");
  EXPECT_FALSE(link.deform);  // "timelines": false
  std::vector<std::string> images;
  for (const ImageEntry& e : s.images) images.push_back(e.name);
  EXPECT_EQ(images, (std::vector<std::string>{"arm", "armor", "body_mesh", "fx01", "fx02", "head", "torso"}));
}

TEST(SpineSkeleton, ConvertedRigReadsBackAndIsStable) {
  const SpineImport a = convert_fixture("hero.json");
  const SpineImport b = convert_fixture("hero.json");
  const std::string text = write_skeleton(a.skeleton);
  EXPECT_EQ(text, write_skeleton(b.skeleton));  // importing twice gives identical files
  Expected<SkeletonSource> back = read_skeleton(text, "hero.mskel");
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, a.skeleton);
  ASSERT_EQ(a.clips.size(), 1u);
  EXPECT_EQ(a.clips[0].first, "nod");
  EXPECT_EQ(a.clips[0].second.skeleton_uid, a.skeleton.uid);
  EXPECT_EQ(a.clips[0].second.uid, derive_uid("anm_", "hero.json/animations/nod"));
}

TEST(SpineSkeleton, Version40And41UseTransformForInherit) {
  const SpineImport v40 = convert_fixture("hero-4.0.json");
  const SkeletonSource& s = v40.skeleton;
  EXPECT_EQ(s.bones[1].inherit, Inherit::NoScale);
  EXPECT_EQ(s.bones[2].inherit, Inherit::OnlyTranslation);
  EXPECT_EQ(s.bones[3].inherit, Inherit::NoRotationOrReflection);
  ASSERT_EQ(s.ik.size(), 1u);
  EXPECT_EQ(place(s, ConstraintKind::Ik, 0), 0);  // no order: 0, before the transform constraint's 1
  EXPECT_EQ(place(s, ConstraintKind::Transform, 0), 1);
  const auto& link = std::get<LinkedMeshAttachment>(attachment(s, "default", "arm", "arm-link").data);
  EXPECT_FALSE(link.deform);  // 3.x-style "deform" is read too
  EXPECT_TRUE(link.skin.empty());  // the default skin is its own
  EXPECT_EQ(link.image, "head");
  EXPECT_TRUE(v40.notes.empty()) << v40.notes[0].where << ": " << v40.notes[0].message;

  const SpineImport v41 = convert_fixture("hero-4.1.json");
  const SkeletonSource& t = v41.skeleton;
  EXPECT_EQ(t.bones[1].inherit, Inherit::NoScaleOrReflection);
  EXPECT_FLOAT_EQ(t.bones[1].y, 40);
  EXPECT_FLOAT_EQ(t.bones[1].rotation, 30);
  EXPECT_FLOAT_EQ(t.bones[1].shear_y, -12);
  EXPECT_EQ(*t.slots[0].dark, (Rgba8{255, 0, 255, 255}));
  const auto& head = std::get<RegionAttachment>(attachment(t, "default", "hips", "head").data);
  EXPECT_EQ(*head.sequence, (Sequence{3, 0, 1, 0}));
  std::vector<std::string> images;
  for (const ImageEntry& e : t.images) images.push_back(e.name);
  EXPECT_EQ(images, (std::vector<std::string>{"head0", "head1", "head2"}));
}

TEST(SpineSkeleton, Version43ConstraintsListAndReportedAdditions) {
  const SpineImport im = convert_fixture("hero-4.3.json");
  const SkeletonSource& s = im.skeleton;
  ASSERT_EQ(s.ik.size(), 1u);
  EXPECT_EQ(s.ik[0].bend, 1);
  EXPECT_EQ(place(s, ConstraintKind::Ik, 0), 0);
  ASSERT_EQ(s.transform.size(), 1u);
  const TransformConstraint& t = s.transform[0];
  EXPECT_EQ(place(s, ConstraintKind::Transform, 0), 1);
  EXPECT_EQ(t.target, s.find_bone("hips"));
  EXPECT_TRUE(t.relative);
  EXPECT_FLOAT_EQ(t.mix_rotate, 1);
  EXPECT_FLOAT_EQ(t.offset_rotation, -20);
  EXPECT_FLOAT_EQ(t.mix_y, 1);
  EXPECT_FLOAT_EQ(t.offset_y, -3);
  EXPECT_FLOAT_EQ(t.mix_x, 0);  // x drives rotation in Spine: reported, channel off
  EXPECT_FLOAT_EQ(t.mix_scale_x, 0);
  ASSERT_EQ(s.physics.size(), 1u);
  EXPECT_EQ(place(s, ConstraintKind::Physics, 0), 2);
  EXPECT_TRUE(has_note(im, "constraints[1].properties.x.to.rotate", "maps x to rotate"));
  EXPECT_TRUE(has_note(im, "constraints[2].mixGlobal", "mixGlobal"));
  EXPECT_TRUE(has_note(im, "constraints[3]", "slider constraint \"dial-slider\""));
}

TEST(SpineSkeleton, UnknownKeysAreReportedNotDropped) {
  const std::string json = R"({"skeleton":{"spine":"4.2.1"},"bones":[{"name":"root","wobble":1}],
    "slots":[{"name":"s","bone":"root","glow":true}],"skins":[{"name":"default","attachments":{"s":{"a":{"width":2,"height":2,"sparkle":3}}}}],
    "extra":{}})";
  Expected<SpineImport> im = convert_spine(json, "keys.json");
  ASSERT_TRUE(im) << im.error().to_string();
  EXPECT_TRUE(has_note(*im, "bones[0].wobble", "unknown key"));
  EXPECT_TRUE(has_note(*im, "slots[0].glow", "unknown key"));
  EXPECT_TRUE(has_note(*im, "skins[0].attachments.s.a.sparkle", "unknown key"));
  EXPECT_TRUE(has_note(*im, "extra", "unknown key"));
}

struct BadJson {
  const char* json;
  const char* path;
  const char* message;
};

TEST(SpineSkeleton, BadInputGetsPathAndLine) {
  const BadJson cases[] = {
      {R"({"skeleton":{"spine":"3.8.99"},"bones":[{"name":"root"}]})", "skeleton.spine", "not supported"},
      {R"({"bones":[{"name":"root"},{"name":"a","parent":"nope"}]})", "bones[1].parent", "unknown parent"},
      {R"({"bones":[{"name":"root","rotation":"x"}]})", "bones[0].rotation", "expected a number"},
      {R"({"bones":[{"name":"root","inherit":"sideways"}]})", "bones[0].inherit", "unknown inherit"},
      {R"({"bones":[]})", "bones", "no bones"},
      {R"({"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"b"}]})", "slots[0].bone", "unknown bone"},
      {R"({"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"root","blend":"overlay"}]})", "slots[0].blend", "unknown blend"},
      {R"({"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"root","color":"red"}]})", "slots[0].color", "colour"},
      {R"({"bones":[{"name":"root"}],"ik":[{"name":"k","bones":["root"],"target":"x"}]})", "ik[0].target", "unknown bone"},
      {R"({"bones":[{"name":"root"}],"skins":{"default":{}}})", "skins", "Spine 3.7"},
      {R"({"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"root"}],"skins":[{"name":"default","attachments":{"s":{"m":{"type":"mesh","uvs":[0,0,1,0,1,1],"triangles":[0,1,5],"vertices":[0,0,1,0,1,1]}}}}]})",
       "skins[0].attachments.s.m.triangles[2]", "out of range"},
      {R"({"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"root"}],"skins":[{"name":"default","attachments":{"s":{"m":{"type":"mesh","uvs":[0,0,1,0,1,1],"triangles":[0,1,2],"vertices":[1,9,0,0,1,1,0,0,0,1,1,0,0,0,1]}}}}]})",
       "skins[0].attachments.s.m.vertices[1]", "out of range"},
      {R"({"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"root"}],"skins":[{"name":"default","attachments":{"s":{"l":{"type":"linkedmesh","parent":"missing"}}}}]})",
       "skins[0].attachments.s.l.parent", "has no attachment"},
      {R"({"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"root"}],"skins":[{"name":"default","attachments":{"s":{"x":{"type":"blob"}}}}]})",
       "skins[0].attachments.s.x.type", "unknown attachment type"},
  };
  for (const BadJson& c : cases) {
    Expected<SpineImport> im = convert_spine(c.json, "bad.json");
    ASSERT_FALSE(im) << c.json;
    EXPECT_EQ(im.error().file, "bad.json");
    EXPECT_EQ(im.error().path, c.path) << c.json << " → " << im.error().to_string();
    EXPECT_NE(im.error().message.find(c.message), std::string::npos) << im.error().to_string();
    EXPECT_GT(im.error().position.line, 0) << im.error().to_string();
  }
}

TEST(SpineSkeleton, TruncatedJsonGivesLineAndColumn) {
  Expected<std::string> text = read_file(kDir + "hero.json");
  ASSERT_TRUE(text);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, text->size() / 3, text->size() / 2, text->size() - 2}) {
    Expected<SpineImport> im = convert_spine(text->substr(0, n), "cut.json");
    ASSERT_FALSE(im) << n;
    EXPECT_EQ(im.error().file, "cut.json");
    EXPECT_GT(im.error().position.line, 0) << im.error().to_string();
  }
}

// ---- constraint names unique per kind (tests/data/spine/shared-names.json) -------------------------

TEST(SpineSkeleton, ConstraintNamesAreUniquePerKindAsInSpine) {
  const SpineImport im = convert_fixture("shared-names.json");
  const SkeletonSource& s = im.skeleton;
  ASSERT_EQ(s.transform.size(), 1u);
  ASSERT_EQ(s.physics.size(), 2u);
  ASSERT_EQ(s.ik.size(), 1u);
  EXPECT_EQ(s.find_constraint(ConstraintKind::Transform, "girl/face-control"), 0);
  EXPECT_EQ(s.find_constraint(ConstraintKind::Physics, "girl/face-control"), 0);
  EXPECT_EQ(s.find_constraint(ConstraintKind::Ik, "aim"), 0);
  EXPECT_EQ(s.find_constraint(ConstraintKind::Physics, "aim"), 1);
  EXPECT_EQ(s.find_constraint(ConstraintKind::Ik, "girl/face-control"), -1);
  // Spine's orders: physics face-control 0, transform 1, ik 2, physics aim 3.
  EXPECT_EQ(s.update_order(), (std::vector<ConstraintRef>{{ConstraintKind::Physics, 0}, {ConstraintKind::Transform, 0},
                                                          {ConstraintKind::Ik, 0}, {ConstraintKind::Physics, 1}}));
  // The skin's per-kind lists name the constraint of each kind.
  const Skin& girl = s.skins.at(static_cast<std::size_t>(s.find_skin("girl")));
  EXPECT_EQ(girl.constraints, (std::vector<ConstraintRef>{{ConstraintKind::Transform, 0}, {ConstraintKind::Physics, 0}}));

  // The .mskel keeps both, and the skin lists them per kind.
  const std::string text = write_skeleton(s);
  EXPECT_NE(text.find("\"transform\": [\"girl/face-control\"],\n      \"physics\": [\"girl/face-control\"],"),
            std::string::npos)
      << text;
  // Only the orders the default order would not give are kept: physics face-control and transform
  // face-control run first; ik aim and physics aim follow in the default order.
  EXPECT_EQ(s.physics[0].order, 0);
  EXPECT_EQ(s.transform[0].order, 1);
  EXPECT_EQ(s.ik[0].order, std::nullopt);
  EXPECT_EQ(s.physics[1].order, std::nullopt);
  Expected<SkeletonSource> back = read_skeleton(text, "shared-names.mskel");
  ASSERT_TRUE(back) << back.error().to_string() << "\n" << text;
  EXPECT_EQ(*back, s);
  EXPECT_EQ(write_skeleton(*back), text);

  // Its clip keys the transform and the physics constraint of one name, and reads back against it.
  ASSERT_EQ(im.clips.size(), 1u);
  const ClipSource& look = im.clips[0].second;
  const std::string clip_text = write_clip(look);
  std::vector<TimelineTarget> keyed;  // the kinds of constraint keyed under the shared name
  for (const CurveTimeline& tl : look.curves)
    if (tl.target == "girl/face-control") keyed.push_back(layout(tl.kind).target);
  EXPECT_NE(std::find(keyed.begin(), keyed.end(), TimelineTarget::Transform), keyed.end()) << clip_text;
  EXPECT_NE(std::find(keyed.begin(), keyed.end(), TimelineTarget::Physics), keyed.end()) << clip_text;
  ASSERT_EQ(look.physics_resets.size(), 1u);
  EXPECT_EQ(look.physics_resets[0].constraint, "girl/face-control");
  Expected<ClipSource> clip_back = read_clip(clip_text, "look.manim", &*back);
  ASSERT_TRUE(clip_back) << clip_back.error().to_string() << "\n" << clip_text;
  EXPECT_EQ(*clip_back, look);
}

TEST(SpineSkeleton, ConstraintNameTwiceInOneKindIsAnError) {
  Expected<std::string> text = read_file(kDir + "shared-names.json");
  ASSERT_TRUE(text);
  std::string twice = *text;
  const std::string from = "{ \"name\": \"aim\", \"order\": 3";
  ASSERT_NE(twice.find(from), std::string::npos);
  twice.replace(twice.find(from), from.size(), "{ \"name\": \"girl/face-control\", \"order\": 3");
  Expected<SpineImport> im = convert_spine(twice, kDir + "twice.json");
  ASSERT_FALSE(im);
  EXPECT_EQ(im.error().file, kDir + "twice.json");
  EXPECT_EQ(im.error().path, "physics[1].name");
  EXPECT_NE(im.error().message.find("duplicate physics constraint name \"girl/face-control\""), std::string::npos)
      << im.error().message;
}

}  // namespace
}  // namespace mf::offline
