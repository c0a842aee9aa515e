// Attachment commands: adding every type (a region from an image, a mesh over a region's quad,
// bounding box, point, clipping with an end slot, path), deleting and renaming with the names shared
// across skins, and setting fields with the deform keys that depend on the geometry.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "editor_fixture.hpp"
#include "mf/core/named.hpp"
#include "mf/editor/core/commands/attachment_commands.hpp"
#include "mf/editor/core/model/new_attachments.hpp"

namespace mf::editor {
namespace {

using offline::Attachment;
using test::check_command;
using test::check_refused;
using test::RigFixture;

AttachmentIndex find_attachment(const RigFixture& f, const std::string& skin, const std::string& slot,
                                const std::string& name) {
  const std::optional<AttachmentIndex> at = find(f.s(), AttachmentId{skin, slot, name});
  EXPECT_TRUE(at) << skin << "/" << slot << "/" << name;
  return at.value_or(AttachmentIndex{});
}

TEST(AttachmentCommands, AddEveryType) {
  RigFixture f;
  const int skin = f.skin("default"), helmet = f.slot("helmet");
  check_command(f.doc, f.history, std::make_unique<AddAttachment>(skin, make_region(helmet, "visor", "visor", 40, 20)));
  EXPECT_EQ(f.history.names().back(), "Add Region \"visor\" to slot \"helmet\"");
  EXPECT_GE(find_named(f.s().images, "visor"), 0);  // listed, in name order
  EXPECT_TRUE(std::is_sorted(f.s().images.begin(), f.s().images.end(),
                             [](const offline::ImageEntry& a, const offline::ImageEntry& b) { return a.name < b.name; }));
  check_command(f.doc, f.history, std::make_unique<AddAttachment>(skin, make_bounding_box(helmet, "box", {{0, 0}, {10, 0}, {5, 8}})));
  check_command(f.doc, f.history, std::make_unique<AddAttachment>(skin, make_point(helmet, "tip", 3, 4, 45)));
  check_command(f.doc, f.history,
                std::make_unique<AddAttachment>(skin, make_clipping(helmet, "mask", {{0, 0}, {10, 0}, {5, 8}}, f.slot("head"))));
  check_command(f.doc, f.history,
                std::make_unique<AddAttachment>(
                    skin, make_path(helmet, "curve", {{-1, 0}, {0, 0}, {1, 0}, {9, 0}, {10, 0}, {11, 0}}, false)));
  const auto& path = std::get<offline::PathAttachment>(
      f.s().skins[static_cast<std::size_t>(skin)].attachments.back().data);
  ASSERT_EQ(path.lengths.size(), 1u);
  EXPECT_NEAR(path.lengths[0], 10.0f, 1e-4f);  // a straight segment from (0, 0) to (10, 0)

  // Taken names and broken geometry are refused.
  check_refused(f.doc, f.history, std::make_unique<AddAttachment>(skin, make_point(helmet, "tip")));
  check_refused(f.doc, f.history, std::make_unique<AddAttachment>(skin, make_bounding_box(helmet, "flat", {{0, 0}, {1, 1}})));
  check_refused(f.doc, f.history, std::make_unique<AddAttachment>(7, make_point(helmet, "elsewhere")));
}

TEST(AttachmentCommands, MeshFromARegionCoversItsQuad) {
  RigFixture f;
  Attachment region = make_region(f.slot("helmet"), "plate", "helmet", 40, 20);
  auto& r = std::get<offline::RegionAttachment>(region.data);
  r.x = 10;
  r.y = 5;
  r.rotation = 90;
  r.scale_x = 2;
  Expected<Attachment> mesh = make_mesh_from_region(region, "plate_mesh", 0, 0);
  ASSERT_TRUE(mesh) << mesh.error().to_string();
  const auto& m = std::get<offline::MeshAttachment>(mesh->data);
  // Quad 80 × 20 (scale 2 on x), turned 90° clockwise about (0, 0), then moved to (10, 5): the corner
  // (−40, −10) lands at (10 + 10, 5 − 40).
  const float expected[] = {20, -35, 20, 45, 0, 45, 0, -35};
  ASSERT_EQ(m.vertices.positions.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_NEAR(m.vertices.positions[i], expected[i], 1e-4f) << i;
  EXPECT_EQ(m.uvs, (std::vector<float>{0, 0, 1, 0, 1, 1, 0, 1}));
  EXPECT_EQ(m.hull, 4);
  EXPECT_EQ(m.image, "helmet");
  check_command(f.doc, f.history, std::make_unique<AddAttachment>(f.skin("default"), *mesh));
  // A region without a size needs the image's.
  EXPECT_FALSE(make_mesh_from_region(make_region(0, "x", "x"), "m", 0, 0));
  Expected<Attachment> sized = make_mesh_from_region(make_region(0, "x", "x"), "m", 16, 8);
  ASSERT_TRUE(sized);
  EXPECT_EQ(std::get<offline::MeshAttachment>(sized->data).vertices.positions[0], -8);
}

TEST(AttachmentCommands, DeleteFollowsSharedNames) {
  RigFixture f(true);
  // Borrowed by linked meshes: refused.
  const Error e = check_refused(f.doc, f.history,
                                std::make_unique<DeleteAttachment>(find_attachment(f, "default", "mesh", "skin_mesh")));
  EXPECT_NE(e.message.find("linked meshes"), std::string::npos);
  // "muzzle" is in both skins: deleting one keeps the keys.
  check_command(f.doc, f.history, std::make_unique<DeleteAttachment>(find_attachment(f, "armored", "fx", "muzzle")));
  EXPECT_NE(f.clip("rich").find("\"muzzle\""), std::string::npos);
  // The fx slot's "hitbox" point is only in the default skin: its keys go, the others stay.
  check_command(f.doc, f.history, std::make_unique<DeleteAttachment>(find_attachment(f, "default", "fx", "hitbox")));
  const auto& keys = f.clip_model("rich").attachments;
  const auto fx = std::find_if(keys.begin(), keys.end(), [](const auto& tl) { return tl.slot == "fx"; });
  ASSERT_NE(fx, keys.end());
  EXPECT_EQ(fx->names.size(), 2u);
  EXPECT_EQ(f.history.names().back(), "Delete attachment \"hitbox\" of slot \"fx\"");
  // A slot's setup attachment goes with the last attachment of that name.
  check_command(f.doc, f.history, std::make_unique<DeleteAttachment>(find_attachment(f, "default", "head", "head")));
  EXPECT_TRUE(f.s().slots[static_cast<std::size_t>(f.slot("head"))].attachment.empty());
  // Its deform keys go with a mesh.
  check_command(f.doc, f.history, std::make_unique<DeleteAttachment>(find_attachment(f, "default", "clip", "clip")));
  for (const offline::DeformTimeline& tl : f.clip_model("rich").deforms) EXPECT_NE(tl.attachment, "clip");
}

TEST(AttachmentCommands, RenameFollowsLinkedMeshesDeformKeysAndSharedNames) {
  RigFixture f(true);
  check_command(f.doc, f.history,
                std::make_unique<RenameAttachment>(find_attachment(f, "default", "mesh", "skin_mesh"), "cloth_mesh"));
  EXPECT_EQ(f.history.names().back(), "Rename attachment \"skin_mesh\" to \"cloth_mesh\"");
  const std::string rig = f.doc.skeleton_text();
  EXPECT_EQ(rig.find("skin_mesh"), std::string::npos);  // the slot's setup attachment, both linked meshes
  EXPECT_EQ(f.clip("rich").find("skin_mesh"), std::string::npos);  // the deform timeline
  // Shared: renaming default's "muzzle" leaves the keys, which armored's "muzzle" still answers.
  check_command(f.doc, f.history, std::make_unique<RenameAttachment>(find_attachment(f, "default", "fx", "muzzle"), "flash"));
  EXPECT_NE(f.clip("rich").find("\"muzzle\""), std::string::npos);
  // Not shared: "plain_mesh" keys follow.
  check_command(f.doc, f.history,
                std::make_unique<RenameAttachment>(find_attachment(f, "default", "mesh", "plain_mesh"), "plain"));
  EXPECT_EQ(f.clip("rich").find("plain_mesh"), std::string::npos);
  EXPECT_NE(f.clip("rich").find("\"plain\""), std::string::npos);
  check_refused(f.doc, f.history, std::make_unique<RenameAttachment>(find_attachment(f, "default", "mesh", "plain"), "cloth_mesh"));
  check_refused(f.doc, f.history, std::make_unique<RenameAttachment>(find_attachment(f, "default", "mesh", "plain"), ""));
}

TEST(AttachmentCommands, SetFieldsAndGeometry) {
  RigFixture f(true);
  const AttachmentIndex body = find_attachment(f, "default", "body", "body");
  const std::vector<std::pair<std::function<void(offline::RegionAttachment&)>, std::string>> edits = {
      {[](auto& r) { r.x = 7, r.y = 8; }, "Move Region \"body\""},
      {[](auto& r) { r.rotation = 12; }, "Rotate Region \"body\""},
      {[](auto& r) { r.scale_x = 3; }, "Scale Region \"body\""},
      {[](auto& r) { r.width = 5; }, "Set size of Region \"body\""},
      {[](auto& r) { r.image = "head"; }, "Set image of Region \"body\""},
      {[](auto& r) { r.color = Rgba8{1, 1, 1, 1}; }, "Set colour of Region \"body\""},
      {[](auto& r) { r.sequence.reset(); }, "Set sequence of Region \"body\""},
  };
  for (const auto& [edit, name] : edits) {
    Attachment a = f.s().skins[0].attachments[static_cast<std::size_t>(body.index)];
    edit(std::get<offline::RegionAttachment>(a.data));
    check_command(f.doc, f.history, std::make_unique<SetAttachment>(body, a));
    EXPECT_EQ(f.history.names().back(), name);
  }
  const AttachmentIndex mesh = find_attachment(f, "default", "mesh", "skin_mesh");
  Attachment a = f.s().skins[0].attachments[static_cast<std::size_t>(mesh.index)];
  std::get<offline::MeshAttachment>(a.data).vertices.weights[0][0].x = 4;
  check_command(f.doc, f.history, std::make_unique<SetAttachment>(mesh, a));
  EXPECT_EQ(f.history.names().back(), "Edit the geometry of Mesh \"skin_mesh\"");
  // Three plain vertices give 6 deform floats; the clip keys floats 8 and 9 of this mesh: refused.
  auto& m = std::get<offline::MeshAttachment>(a.data);
  m.vertices = offline::Vertices{{0, 0, 1, 0, 0, 1}, {}};
  m.uvs = {0, 0, 1, 0, 0, 1};
  m.triangles = {0, 1, 2};
  m.hull = 3;
  m.edges.clear();
  EXPECT_NE(check_refused(f.doc, f.history, std::make_unique<SetAttachment>(mesh, a)).message.find("deform"), std::string::npos);
  // Identity fields are not fields.
  Attachment renamed = f.s().skins[0].attachments[static_cast<std::size_t>(mesh.index)];
  renamed.name = "other";
  check_refused(f.doc, f.history, std::make_unique<SetAttachment>(mesh, renamed));
  Attachment retyped = f.s().skins[0].attachments[static_cast<std::size_t>(mesh.index)];
  retyped.data = offline::PointAttachment{};
  check_refused(f.doc, f.history, std::make_unique<SetAttachment>(mesh, retyped));
  // A clipping's end slot.
  const AttachmentIndex clip = find_attachment(f, "default", "clip", "clip");
  Attachment c = f.s().skins[0].attachments[static_cast<std::size_t>(clip.index)];
  std::get<offline::ClippingAttachment>(c.data).end_slot = f.slot("fx");
  check_command(f.doc, f.history, std::make_unique<SetAttachment>(clip, c));
  EXPECT_EQ(f.history.names().back(), "Set end slot of Clipping \"clip\"");
}

}  // namespace
}  // namespace mf::editor
