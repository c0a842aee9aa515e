// Re-import: art imported, the rig worked on, the art edited and imported again. What the user
// added is kept; moved layers move their attachments by as much in the rig (world positions within
// 1e-3 pixels, through rotated and scaled bones); repainted layers update their PNGs; new layers
// become slots; removed ones are reported and kept; unchanged art changes no byte of any file.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/format/setup_world.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/import/psd/art_import.hpp"
#include "mf/offline/import/psd/art_import_write.hpp"
#include "mf/offline/import/psd/reimport.hpp"
#include "psd_documents.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;
using test::document;
using test::group_layer;
using test::hidden;
using test::pixel_layer;

constexpr double kTolerance = 1e-3;

struct Art {
  int torso_x = 60, torso_y = 100, torso_w = 80, torso_h = 100;
  Rgba8 torso_color{200, 30, 30, 255};
  bool shadow = true;
  bool hat = false;
  bool tail = false;
};

// A character: Body { Torso, Arm { Hand } }, Head, Shadow (hidden); with a hat or a tail on request.
imaging::PsdDocument art(const Art& a = {}) {
  std::vector<imaging::PsdLayer> head = {pixel_layer("Face", 80, 40, 40, 40)};
  if (a.hat) head.push_back(pixel_layer("Hat", 75, 20, 50, 25, {0, 0, 0, 255}));
  std::vector<imaging::PsdLayer> top = {
      group_layer("Body", {pixel_layer("Torso", a.torso_x, a.torso_y, a.torso_w, a.torso_h,
                                       {a.torso_color.r, a.torso_color.g, a.torso_color.b, 255}, 3),
                           group_layer("Arm", {pixel_layer("Hand", 140, 150, 20, 20)})}),
      group_layer("Head", std::move(head))};
  if (a.tail) top.push_back(group_layer("Tail", {pixel_layer("Tip", 150, 200, 30, 10)}));
  if (a.shadow) top.insert(top.begin(), hidden(pixel_layer("Shadow", 50, 280, 100, 10)));
  return document(200, 300, std::move(top));
}

ArtImport convert(const imaging::PsdDocument& doc) {
  Expected<ArtImport> a = convert_art(doc, "hero.psd");
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().to_string());
  return a.ok() ? std::move(*a) : ArtImport{};
}

// Every file under a folder with its bytes.
std::map<std::string, std::string> snapshot(const fs::path& folder) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(folder))
    if (e.is_regular_file()) files[fs::relative(e.path(), folder).string()] = *read_file(e.path().string());
  return files;
}

int find_attachment(const SkeletonSource& s, std::string_view skin, std::string_view name) {
  const auto& list = s.skins[static_cast<std::size_t>(s.find_skin(skin))].attachments;
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name) return static_cast<int>(i);
  return -1;
}

Attachment& attachment(SkeletonSource& s, std::string_view name) {
  return s.skins[0].attachments[static_cast<std::size_t>(find_attachment(s, "default", name))];
}

// Where a region's centre, or a mesh's vertices, are in the setup pose.
std::vector<Vec2d> world_points(const SkeletonSource& s, const Attachment& a) {
  const auto world = setup_world_transforms(s);
  const auto& slot_world = *world[static_cast<std::size_t>(s.slots[static_cast<std::size_t>(a.slot)].bone)];
  if (const auto* r = std::get_if<RegionAttachment>(&a.data)) return {slot_world.apply({r->x, r->y})};
  const auto& m = std::get<MeshAttachment>(a.data);
  std::vector<Vec2d> out;
  if (!m.vertices.weighted()) {
    for (std::size_t i = 0; i < m.vertices.positions.size(); i += 2)
      out.push_back(slot_world.apply({m.vertices.positions[i], m.vertices.positions[i + 1]}));
    return out;
  }
  for (const auto& influences : m.vertices.weights) {
    Vec2d p;
    for (const InfluenceSource& in : influences)
      p += world[static_cast<std::size_t>(in.bone)]->apply({in.x, in.y}) * static_cast<double>(in.weight);
    out.push_back(p);
  }
  return out;
}

void expect_moved_by(const std::vector<Vec2d>& before, const std::vector<Vec2d>& after, const std::vector<Vec2d>& by) {
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    const Vec2d d = by.size() == 1 ? by[0] : by[i];
    EXPECT_NEAR(after[i].x - before[i].x, d.x, kTolerance) << "point " << i;
    EXPECT_NEAR(after[i].y - before[i].y, d.y, kTolerance) << "point " << i;
  }
}

class Reimporting : public ::testing::Test {
 protected:
  mf::testing::TempDir dir_{"mf_art_reimport"};
  std::string out() const { return dir_.file("out"); }
  std::string mskel() const { return dir_.file("out/hero.mskel"); }

  ArtImportResult import(const imaging::PsdDocument& doc) {
    Expected<ArtImportResult> r = write_art_import(convert(doc), out());
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
    return r.ok() ? *r : ArtImportResult{};
  }
  SkeletonSource rig() const {
    Expected<SkeletonSource> s = read_skeleton_file(mskel());
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
    return s.ok() ? *s : SkeletonSource{};
  }
  void save(const SkeletonSource& s) const { ASSERT_TRUE(save_skeleton(s, mskel())); }

  // What a user does after the first import: turns the Body, scales the Arm, makes the torso a
  // mesh weighted to Body and Arm, adds a bone, an IK constraint, a skin, a slot colour and a clip.
  void work_on_the_rig() {
    SkeletonSource s = rig();
    s.bones[static_cast<std::size_t>(s.find_bone("Body"))].rotation = 30;
    Bone& arm = s.bones[static_cast<std::size_t>(s.find_bone("Arm"))];
    arm.rotation = -50;
    arm.scale_x = 1.5f;
    arm.scale_y = 0.8f;
    s.bones.push_back(Bone{.name = "target", .parent = 0, .x = 40, .y = -60});
    s.ik.push_back(IkConstraint{.name = "reach", .bones = {s.find_bone("Arm")}, .target = s.find_bone("target")});
    s.slots[static_cast<std::size_t>(s.find_slot("Face"))].color = {250, 200, 200, 255};
    // The torso as a 4-vertex mesh over its image, weighted half to Body, half to Arm.
    Attachment& torso = attachment(s, "Torso");
    const std::vector<Vec2d> corners = world_points(s, torso);  // the region's centre only
    const Vec2d c = corners[0];
    const auto world = setup_world_transforms(s);
    const int body = s.find_bone("Body"), arm_bone = s.find_bone("Arm");
    MeshAttachment mesh;
    mesh.image = std::get<RegionAttachment>(torso.data).image;
    mesh.uvs = {0, 0, 1, 0, 1, 1, 0, 1};
    mesh.triangles = {0, 1, 2, 0, 2, 3};
    mesh.hull = 4;
    mesh.width = 80;
    mesh.height = 100;
    for (std::size_t v = 0; v < 4; ++v) {
      const Vec2d p = c + Vec2d{(mesh.uvs[2 * v] - 0.5) * 80, (mesh.uvs[2 * v + 1] - 0.5) * 100};
      std::vector<InfluenceSource> influences;
      for (int b : {body, arm_bone}) {
        const Vec2d local = world[static_cast<std::size_t>(b)]->inverse()->apply(p);
        influences.push_back({b, 0.5f, static_cast<float>(local.x), static_cast<float>(local.y)});
      }
      mesh.vertices.weights.push_back(influences);
    }
    torso.data = mesh;
    // The hand as an unweighted mesh on its (rotated, scaled) Arm bone.
    Attachment& hand = attachment(s, "Hand");
    const auto& r = std::get<RegionAttachment>(hand.data);
    MeshAttachment hand_mesh;
    hand_mesh.image = r.image;
    hand_mesh.uvs = {0, 0, 1, 0, 0.5f, 1};
    hand_mesh.triangles = {0, 1, 2};
    hand_mesh.hull = 3;
    hand_mesh.vertices.positions = {r.x - 10, r.y - 10, r.x + 10, r.y - 10, r.x, r.y + 10};
    hand.data = hand_mesh;
    Skin extra{.name = "extra"};
    extra.attachments.push_back(Attachment{s.find_slot("Face"), "Face", RegionAttachment{.image = "Head/Face", .x = 1}});
    s.skins.push_back(extra);
    save(s);
    dir_.write("out/hero.clips/wave.manim", "a clip the import never reads\n");
  }
};

TEST_F(Reimporting, UnchangedArtChangesNoByteOfAnyFile) {
  import(art());
  const auto first = snapshot(out());
  EXPECT_TRUE(first.count("import-report.txt"));
  EXPECT_TRUE(first.count("images/Body/Torso.png"));
  const ArtImportResult again = import(art());
  EXPECT_TRUE(again.reimport);
  EXPECT_FALSE(again.rig_written);
  EXPECT_TRUE(again.images_written.empty());
  EXPECT_EQ(snapshot(out()), first);

  // And so on a rig the user has worked on.
  work_on_the_rig();
  const auto worked = snapshot(out());
  const ArtImportResult third = import(art());
  EXPECT_FALSE(third.rig_written);
  EXPECT_TRUE(third.moved.empty() && third.added.empty() && third.missing.empty());
  EXPECT_EQ(snapshot(out()), worked);
}

TEST_F(Reimporting, MovedLayerShiftsItsRegionByTheDelta) {
  import(art());
  SkeletonSource before = rig();
  const std::vector<Vec2d> at = world_points(before, attachment(before, "Torso"));
  const ArtImportResult r = import(art({.torso_x = 67, .torso_y = 96}));
  EXPECT_EQ(r.moved, (std::vector<std::string>{"hero.psd:Body/Torso"}));
  SkeletonSource after = rig();
  expect_moved_by(at, world_points(after, attachment(after, "Torso")), {{7, -4}});
  const auto& region = std::get<RegionAttachment>(attachment(after, "Torso").data);
  EXPECT_FLOAT_EQ(region.x, std::get<RegionAttachment>(attachment(before, "Torso").data).x + 7);
  EXPECT_EQ(after.images[static_cast<std::size_t>(0)].name, before.images[0].name);
  for (const ImageEntry& e : after.images) {
    if (e.name == "Body/Torso") {
      EXPECT_EQ(e.rect, (CanvasRect{67, 96, 80, 100}));
    }
  }
  // Only the torso moved: the rest of the rig is as it was.
  before.images = after.images;
  attachment(before, "Torso") = attachment(after, "Torso");
  EXPECT_EQ(after, before);
}

TEST_F(Reimporting, MovedLayerShiftsRegionsMeshesAndWeightsThroughTurnedBones) {
  import(art());
  work_on_the_rig();
  SkeletonSource before = rig();
  const std::vector<Vec2d> torso = world_points(before, attachment(before, "Torso"));
  const std::vector<Vec2d> hand = world_points(before, attachment(before, "Hand"));
  // Torso moved by (7, −4); the hand's layer is unchanged.
  import(art({.torso_x = 67, .torso_y = 96}));
  SkeletonSource after = rig();
  expect_moved_by(torso, world_points(after, attachment(after, "Torso")), {{7, -4}});
  expect_moved_by(hand, world_points(after, attachment(after, "Hand")), {{0, 0}});
  // Weighted: every influence's bind position moved, each in its own bone's space.
  const auto& mb = std::get<MeshAttachment>(attachment(before, "Torso").data);
  const auto& ma = std::get<MeshAttachment>(attachment(after, "Torso").data);
  EXPECT_NE(ma.vertices.weights[0][0].x, mb.vertices.weights[0][0].x);
  EXPECT_NE(ma.vertices.weights[0][1].x, mb.vertices.weights[0][1].x);
  EXPECT_EQ(ma.triangles, mb.triangles);
  EXPECT_EQ(ma.uvs, mb.uvs);
  // Everything else the user made is kept.
  EXPECT_EQ(after.bones, before.bones);
  EXPECT_EQ(after.ik, before.ik);
  EXPECT_EQ(after.slots, before.slots);
  EXPECT_EQ(after.skins[1], before.skins[1]);
  EXPECT_EQ(read_file(dir_.file("out/hero.clips/wave.manim")).value(), "a clip the import never reads\n");

  // The hand's layer moves by (−5, 12): its unweighted mesh on the turned, scaled Arm follows.
  Art moved_hand{.torso_x = 67, .torso_y = 96};
  imaging::PsdDocument doc = art(moved_hand);
  imaging::PsdLayer& hand_layer = doc.layers[1].children[1].children[0];
  hand_layer.bounds.x -= 5;
  hand_layer.bounds.y += 12;
  import(doc);
  SkeletonSource third = rig();
  expect_moved_by(hand, world_points(third, attachment(third, "Hand")), {{-5, 12}});
}

TEST_F(Reimporting, ARegionOnATurnedBoneMovesByTheCanvasDelta) {
  import(art());
  SkeletonSource s = rig();
  s.bones[static_cast<std::size_t>(s.find_bone("Head"))].rotation = 90;
  s.bones[static_cast<std::size_t>(s.find_bone("Head"))].scale_x = 2;
  save(s);
  const std::vector<Vec2d> face = world_points(s, attachment(s, "Face"));
  imaging::PsdDocument doc = art();
  doc.layers[2].children[0].bounds.x += 10;  // Face
  import(doc);
  SkeletonSource after = rig();
  expect_moved_by(face, world_points(after, attachment(after, "Face")), {{10, 0}});
}

TEST_F(Reimporting, ResizedLayerMovesEachVertexWithTheCanvasPointUnderIt) {
  import(art());
  work_on_the_rig();
  SkeletonSource before = rig();
  const std::vector<Vec2d> torso = world_points(before, attachment(before, "Torso"));
  // Repainted 10 pixels wider to the left and 20 taller at the bottom: corner (−10, 0), size (+10, +20).
  import(art({.torso_x = 50, .torso_w = 90, .torso_h = 120}));
  SkeletonSource after = rig();
  const std::vector<Vec2d> uv_delta = {{-10, 0}, {0, 0}, {0, 20}, {-10, 20}};  // uvs (0,0) (1,0) (1,1) (0,1)
  expect_moved_by(torso, world_points(after, attachment(after, "Torso")), uv_delta);
  const auto& m = std::get<MeshAttachment>(attachment(after, "Torso").data);
  EXPECT_FLOAT_EQ(m.width, 90);
  EXPECT_FLOAT_EQ(m.height, 120);
}

TEST_F(Reimporting, ResizedLayerMovesItsRegionsCentre) {
  import(art());
  SkeletonSource before = rig();
  const std::vector<Vec2d> at = world_points(before, attachment(before, "Torso"));
  import(art({.torso_x = 50, .torso_w = 90, .torso_h = 120}));
  SkeletonSource after = rig();
  expect_moved_by(at, world_points(after, attachment(after, "Torso")), {{-10 + 5, 10}});
}

TEST_F(Reimporting, RepaintedLayerUpdatesItsPngAndKeepsTheRig) {
  import(art());
  work_on_the_rig();
  const auto before = snapshot(out());
  const ArtImportResult r = import(art({.torso_color = {10, 200, 10, 255}}));
  EXPECT_FALSE(r.rig_written);
  EXPECT_EQ(r.images_written, (std::vector<std::string>{"Body/Torso"}));
  const auto after = snapshot(out());
  for (const auto& [file, bytes] : before) {
    if (file == "images/Body/Torso.png") {
      EXPECT_NE(after.at(file), bytes);
    } else {
      EXPECT_EQ(after.at(file), bytes) << file;
    }
  }
  Expected<imaging::Image> png = imaging::read_png(dir_.file("out/images/Body/Torso.png"));
  ASSERT_TRUE(png.ok());
  EXPECT_EQ(png->pixel(0, 0)[1], 200);
}

TEST_F(Reimporting, NewLayersBecomeNewSlotsAndBones) {
  import(art());
  work_on_the_rig();
  SkeletonSource before = rig();
  const ArtImportResult r = import(art({.hat = true, .tail = true}));
  EXPECT_EQ(r.added, (std::vector<std::string>{"hero.psd:Head/Hat", "hero.psd:Tail/Tip"}));
  SkeletonSource after = rig();
  // The hat: a slot on the Head bone, right above the face in draw order.
  const int hat = after.find_slot("Hat");
  ASSERT_GE(hat, 0);
  EXPECT_EQ(hat, after.find_slot("Face") + 1);
  EXPECT_EQ(after.slots[static_cast<std::size_t>(hat)].bone, after.find_bone("Head"));
  EXPECT_EQ(after.slots[static_cast<std::size_t>(hat)].attachment, "Hat");
  // The tail: a new bone (its group) under the root, its slot on it, drawn last.
  const int tail = after.find_bone("Tail");
  ASSERT_GE(tail, 0);
  EXPECT_EQ(after.bones[static_cast<std::size_t>(tail)].parent, 0);
  EXPECT_EQ(after.slots.back().name, "Tip");
  EXPECT_EQ(after.slots.back().bone, tail);
  // Placed where the art puts them, relative to their groups' bones.
  const std::vector<Vec2d> tip = world_points(after, attachment(after, "Tip"));
  EXPECT_NEAR(tip[0].x, 165 - 100, kTolerance);
  EXPECT_NEAR(tip[0].y, 205 - 300, kTolerance);
  EXPECT_TRUE(fs::exists(dir_.file("out/images/Head/Hat.png")));
  EXPECT_TRUE(fs::exists(dir_.file("out/images/Tail/Tip.png")));
  // Attachments' slot indices moved with the inserted slot; the user's rig is otherwise as it was.
  EXPECT_EQ(after.ik, before.ik);
  EXPECT_EQ(after.skins[1].attachments[0].slot, after.find_slot("Face"));
  EXPECT_EQ(after.slots[static_cast<std::size_t>(after.find_slot("Face"))].color, (Rgba8{250, 200, 200, 255}));
  for (const Bone& b : before.bones) EXPECT_EQ(after.bones[static_cast<std::size_t>(after.find_bone(b.name))], b);
  // Importing the same art again changes nothing more.
  const auto files = snapshot(out());
  const ArtImportResult again = import(art({.hat = true, .tail = true}));
  EXPECT_TRUE(again.added.empty());
  EXPECT_EQ(snapshot(out()), files);
}

TEST_F(Reimporting, RemovedLayersAreReportedAndKept) {
  import(art());
  SkeletonSource before = rig();
  const ArtImportResult r = import(art({.shadow = false}));
  EXPECT_EQ(r.missing, (std::vector<std::string>{"hero.psd:Shadow"}));
  EXPECT_EQ(rig(), before);  // nothing deleted
  EXPECT_TRUE(fs::exists(dir_.file("out/images/Shadow.png")));
  const std::string report = read_file(dir_.file("out/import-report.txt")).value();
  EXPECT_NE(report.find("hero.psd:Shadow: the layer is no longer in hero.psd: image \"Shadow\" and the attachments "
                        "showing it are kept\n"),
            std::string::npos)
      << report;
  // The report describes the state: importing the same art again leaves it, and every file, as it is.
  const auto files = snapshot(out());
  import(art({.shadow = false}));
  EXPECT_EQ(snapshot(out()), files);
}

TEST_F(Reimporting, ArtSavedUnderANewNameIsTheSameArt) {
  import(art());
  imaging::PsdDocument doc = art({.torso_x = 61});
  Expected<ArtImport> renamed = convert_art(doc, "hero_v2.psd", {"hero"});
  ASSERT_TRUE(renamed.ok());
  Expected<ArtImportResult> r = write_art_import(*renamed, out());
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->renamed_from, "hero.psd");
  EXPECT_EQ(r->moved, (std::vector<std::string>{"hero_v2.psd:Body/Torso"}));
  EXPECT_TRUE(r->added.empty());
  for (const ImageEntry& e : rig().images) EXPECT_EQ(e.source.rfind("hero_v2.psd:", 0), 0u) << e.source;
  // A layer missing from the renamed art stays reported on the next import, which changes nothing.
  Expected<ArtImport> without_shadow = convert_art(art({.shadow = false}), "hero_v3.psd", {"hero"});
  ASSERT_TRUE(without_shadow.ok());
  r = write_art_import(*without_shadow, out());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->missing, (std::vector<std::string>{"hero_v3.psd:Shadow"}));
  const auto files = snapshot(out());
  r = write_art_import(*without_shadow, out());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->missing, (std::vector<std::string>{"hero_v3.psd:Shadow"}));
  EXPECT_TRUE(r->renamed_from.empty());
  EXPECT_EQ(snapshot(out()), files);
}

TEST_F(Reimporting, MeshTagsOnNewAndOldLayers) {
  import(art());
  SkeletonSource before = rig();
  imaging::PsdDocument doc = art({.hat = true});
  doc.layers[2].children[0].name = "Face [mesh]";  // tagged after the first import
  doc.layers[2].children[1].name = "Hat [mesh]";   // new, tagged
  import(doc);
  SkeletonSource after = rig();
  // The face keeps its region; the report says how to mesh it.
  EXPECT_EQ(attachment(after, "Face").type(), AttachmentType::Region);
  const std::string report = read_file(dir_.file("out/import-report.txt")).value();
  EXPECT_NE(report.find("hero.psd:Head/Face: tagged [mesh] but the rig's attachment is a region: mesh it with mfe skel "
                        "automesh --slot \"Face\" --attachment \"Face\""),
            std::string::npos)
      << report;
  // The new hat is an auto mesh, each vertex where its pixel is on the canvas (origin (100, 300)).
  const Attachment& hat = attachment(after, "Hat");
  ASSERT_EQ(hat.type(), AttachmentType::Mesh);
  const auto& mesh = std::get<MeshAttachment>(hat.data);
  const std::vector<Vec2d> points = world_points(after, hat);
  for (std::size_t v = 0; v < points.size(); ++v) {
    EXPECT_NEAR(points[v].x, 75 + mesh.uvs[2 * v] * 50 - 100, kTolerance) << v;
    EXPECT_NEAR(points[v].y, 20 + mesh.uvs[2 * v + 1] * 25 - 300, kTolerance) << v;
  }
}

TEST_F(Reimporting, SlotSettingsTheRigKeepsAreNoted) {
  import(art());
  SkeletonSource s = rig();
  s.slots[static_cast<std::size_t>(s.find_slot("Face"))].blend = BlendMode::Screen;
  Expected<Reimport> merged = merge_reimport(s, convert(art()));
  ASSERT_TRUE(merged.ok());
  ASSERT_EQ(merged->notes.size(), 1u);
  EXPECT_EQ(merged->notes[0].where, "slot \"Face\"");
  EXPECT_EQ(merged->notes[0].message, "the art gives alpha 255 and blend Normal; the rig keeps alpha 255 and blend Screen");
  EXPECT_EQ(merged->skeleton, s);
}

TEST_F(Reimporting, AnUnreadableRigIsLeftAloneAndReported) {
  import(art());
  dir_.write("out/hero.mskel", "{ not json");
  Expected<ArtImportResult> r = write_art_import(convert(art()), out());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not re-imported into"), std::string::npos) << r.error().to_string();
  EXPECT_EQ(read_file(mskel()).value(), "{ not json");
}

}  // namespace
}  // namespace mf::offline
