// auto_weight_mesh on rigs made in code: the runtime's setup pose draws every vertex where it was
// before weighting (within 1e-3 px), whatever the bones' transforms; the choice of mesh and bones,
// and the errors for attachments, bones and clips it refuses.

#include "mf/offline/mesh/mesh_weights.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "support/model_builders.hpp"

namespace mf::offline {
namespace {

using testing::attachment;
using testing::named;
using testing::slot;

Bone bone(const std::string& name, int parent, float x, float y, float rotation, float length) {
  Bone b = named<Bone>(name);
  b.parent = parent;
  b.x = x, b.y = y, b.rotation = rotation, b.length = length;
  return b;
}

// A root turned, scaled unevenly and moved; an arm of two bones on it ("upper" then "lower", which is
// sheared); a slot on "upper" with a strip mesh along the arm in upper's space, a region on another
// slot, and a second skin.
SkeletonSource arm_rig() {
  SkeletonSource s;
  s.uid = "skl_0123456789ab";
  Bone root = bone("root", -1, 20, 30, 15, 0);
  root.scale_x = 1.25f, root.scale_y = 0.8f;
  s.bones.push_back(root);
  s.bones.push_back(bone("upper", 0, 10, 5, 10, 100));
  Bone lower = bone("lower", 1, 100, 0, 25, 80);
  lower.shear_y = 8;
  s.bones.push_back(lower);
  s.slots.push_back(slot("arm", 1, "arm"));
  s.slots.push_back(slot("badge", 0, "badge"));

  MeshAttachment mesh;
  mesh.image = "arm";
  const int columns = 20, rows = 3;
  for (int j = 0; j <= rows; ++j)
    for (int i = 0; i <= columns; ++i) {
      const float x = -10 + 10.0f * static_cast<float>(i), y = -15 + 10.0f * static_cast<float>(j);
      mesh.vertices.positions.insert(mesh.vertices.positions.end(), {x, y});
      mesh.uvs.insert(mesh.uvs.end(), {static_cast<float>(i) / columns, static_cast<float>(j) / rows});
    }
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < columns; ++i) {
      const int a = j * (columns + 1) + i, b = a + 1, c = b + columns + 1, d = a + columns + 1;
      mesh.triangles.insert(mesh.triangles.end(), {a, b, c, a, c, d});
    }
  mesh.hull = 4;  // not used by the weights
  RegionAttachment region;
  region.width = 10, region.height = 10;

  Skin skin = named<Skin>("default");
  skin.attachments.push_back(attachment(0, "arm", mesh));
  skin.attachments.push_back(attachment(1, "badge", region));
  s.skins.push_back(skin);
  Skin other = named<Skin>("sleeve");
  other.attachments.push_back(attachment(0, "arm", mesh));
  s.skins.push_back(other);
  return s;
}

// The mesh's vertices as the runtime's setup pose draws them.
std::vector<float> setup_vertices(const SkeletonSource& s) {
  auto built = build_skeleton(s, [](const std::string&) { return std::optional<ImageSize>{ImageSize{64, 64}}; }, "arm",
                              "arm.mskel");
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().to_string());
  if (!built) return {};
  skel::SkeletonInstance instance(*built->data);
  instance.update({});
  const skel::WorldPositions& wp = instance.world_positions();
  for (const skel::PositionRange& r : wp.ranges())
    if (r.slot == 0) {
      const auto p = wp.positions().subspan(2 * r.first, 2 * r.count);
      return {p.begin(), p.end()};
    }
  ADD_FAILURE() << "the arm slot shows nothing";
  return {};
}

void expect_same_vertices(const std::vector<float>& before, const std::vector<float>& after) {
  ASSERT_EQ(before.size(), after.size());
  ASSERT_FALSE(before.empty());
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(before[i], after[i], 1e-3) << "float " << i;
}

const MeshAttachment& arm_mesh(const SkeletonSource& s, int skin = 0) {
  return std::get<MeshAttachment>(s.skins[static_cast<std::size_t>(skin)].attachments[0].data);
}

TEST(MeshWeights, SetupPoseKeepsEveryVertexInPlace) {
  SkeletonSource s = arm_rig();
  const std::vector<float> before = setup_vertices(s);
  Expected<MeshRef> mesh = find_mesh(s, "default", "arm", "");
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  const std::vector<int> bones = {1, 2};
  Expected<MeshWeightsResult> result = auto_weight_mesh(s, *mesh, bones, {});
  ASSERT_TRUE(result.ok()) << result.error().to_string();

  const Vertices& v = arm_mesh(s).vertices;
  ASSERT_TRUE(v.weighted());
  EXPECT_TRUE(v.positions.empty());
  EXPECT_EQ(v.weights.size(), 84u);
  EXPECT_EQ(result->vertices, 84u);
  EXPECT_EQ(result->bones_used, (std::vector<int>{1, 2}));
  EXPECT_LE(result->max_influences_used, 4);
  EXPECT_GE(result->max_influences_used, 2);
  EXPECT_LE(result->max_sum_deviation, 1e-5);
  for (const std::vector<InfluenceSource>& influences : v.weights) {
    double sum = 0;
    for (const InfluenceSource& in : influences) sum += in.weight;
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  expect_same_vertices(before, setup_vertices(s));
  // The other skin's mesh of the same name is left as it was.
  EXPECT_FALSE(arm_mesh(s, 1).vertices.weighted());

  // The weighted mesh writes and reads back as it is.
  Expected<SkeletonSource> reread = read_skeleton(write_skeleton(s), "arm.mskel");
  ASSERT_TRUE(reread.ok()) << reread.error().to_string();
  EXPECT_EQ(arm_mesh(*reread).vertices, v);
}

TEST(MeshWeights, ReweightingAWeightedMeshKeepsItInPlace) {
  SkeletonSource s = arm_rig();
  const std::vector<float> before = setup_vertices(s);
  const std::vector<int> two = {1, 2}, three = {0, 1, 2};
  ASSERT_TRUE(auto_weight_mesh(s, {0, 0}, two, {}).ok());
  Expected<MeshWeightsResult> again = auto_weight_mesh(s, {0, 0}, three, {}, {.max_influences = 3, .prune = 0.05});
  ASSERT_TRUE(again.ok()) << again.error().to_string();
  EXPECT_LE(again->max_influences_used, 3);
  expect_same_vertices(before, setup_vertices(s));
}

TEST(MeshWeights, DefaultBonesLeaveOutARootWithChildrenAndIkTargets) {
  SkeletonSource s = arm_rig();
  EXPECT_EQ(default_weight_bones(s), (std::vector<int>{1, 2}));
  s.bones.push_back(bone("hand_target", 0, 200, 0, 0, 0));
  IkConstraint ik = named<IkConstraint>("reach");
  ik.bones = {1, 2};
  ik.target = 3;
  s.ik.push_back(ik);
  EXPECT_EQ(default_weight_bones(s), (std::vector<int>{1, 2}));
  SkeletonSource lone;
  lone.bones.push_back(bone("only", -1, 0, 0, 0, 10));
  EXPECT_EQ(default_weight_bones(lone), (std::vector<int>{0}));
  SkeletonSource inheriting = arm_rig();
  inheriting.bones[1].inherit = Inherit::NoScale;
  EXPECT_TRUE(default_weight_bones(inheriting).empty()) << "upper and its child lower have no setup transform";
}

TEST(MeshWeights, AllMeshesListsEveryMeshOfEverySkin) {
  const std::vector<MeshRef> meshes = all_meshes(arm_rig());
  ASSERT_EQ(meshes.size(), 2u);
  EXPECT_EQ(meshes[0].skin, 0);
  EXPECT_EQ(meshes[1].skin, 1);
  EXPECT_EQ(mesh_path(meshes[1]), "skins[1].attachments[0]");
}

std::string find_error(const SkeletonSource& s, std::string_view skin, std::string_view slot_name,
                       std::string_view name) {
  Expected<MeshRef> m = find_mesh(s, skin, slot_name, name);
  return m.ok() ? "no error" : m.error().to_string();
}

TEST(MeshWeights, FindMeshNamesWhatIsWrong) {
  SkeletonSource s = arm_rig();
  EXPECT_EQ(find_error(s, "", "arm", ""),
            "attachment \"arm\" of slot \"arm\" is in skins \"default\", \"sleeve\"; choose one with --skin");
  Expected<MeshRef> sleeve = find_mesh(s, "sleeve", "arm", "arm");
  ASSERT_TRUE(sleeve.ok());
  EXPECT_EQ(sleeve->skin, 1);
  EXPECT_EQ(find_error(s, "", "badge", ""), "skins[0].attachments[1]: attachment \"badge\" is a Region, not a Mesh");
  EXPECT_EQ(find_error(s, "", "leg", ""), "no slot named \"leg\"");
  EXPECT_EQ(find_error(s, "hat", "arm", ""), "no skin named \"hat\"");
  EXPECT_EQ(find_error(s, "default", "arm", "hand"), "no attachment named \"hand\" in slot \"arm\" of skin \"default\"");
  s.slots[1].attachment.clear();
  EXPECT_EQ(find_error(s, "", "badge", ""), "slot \"badge\" has no setup attachment; name one");
  LinkedMeshAttachment linked;
  linked.parent = "arm";
  s.skins[1].attachments[0] = attachment(0, "arm", linked);
  EXPECT_EQ(find_error(s, "sleeve", "arm", ""),
            "skins[1].attachments[0]: attachment \"arm\" is a LinkedMesh: it shares the weights of its parent mesh "
            "\"arm\", weight that one");
}

TEST(MeshWeights, MeshesWithDeformKeysAreRefusedNamingTheClips) {
  SkeletonSource s = arm_rig();
  // A linked mesh in the second skin shares the default skin's mesh and its deform keys.
  LinkedMeshAttachment linked;
  linked.parent = "arm";
  linked.skin = "default";
  s.skins[1].attachments[0] = attachment(0, "arm", linked);
  ClipSource wave, idle, swing;
  DeformTimeline direct{.skin = "default", .slot = "arm", .attachment = "arm", .times = {0}, .keys = {{}}, .curves = {}};
  DeformTimeline through_linked = direct;
  through_linked.skin = "sleeve";
  wave.deforms.push_back(direct);
  swing.deforms.push_back(through_linked);
  const std::vector<NamedClip> clips = {{"idle", &idle}, {"swing", &swing}, {"wave", &wave}};
  const SkeletonSource unchanged = s;
  const std::vector<int> bones = {1, 2};
  Expected<MeshWeightsResult> r = auto_weight_mesh(s, {0, 0}, bones, clips);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "skins[0].attachments[0]");
  EXPECT_NE(r.error().message.find("has deform keys in clips \"swing\", \"wave\""), std::string::npos) << r.error().message;
  EXPECT_EQ(s, unchanged);
  // Without the clips that deform it, the mesh is weighted.
  const std::vector<NamedClip> only_idle = {{"idle", &idle}};
  EXPECT_TRUE(auto_weight_mesh(s, {0, 0}, bones, only_idle).ok());
}

TEST(MeshWeights, BonesWithoutASetupTransformAreRefusedByName) {
  SkeletonSource s = arm_rig();
  s.bones[2].inherit = Inherit::OnlyTranslation;
  const SkeletonSource unchanged = s;
  const std::vector<int> bones = {0, 1, 2};
  Expected<MeshWeightsResult> r = auto_weight_mesh(s, {0, 0}, bones, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("bones \"lower\" have no setup world transform"), std::string::npos) << r.error().message;
  EXPECT_EQ(s, unchanged);

  const std::vector<int> twice = {1, 1};
  r = auto_weight_mesh(s, {0, 0}, twice, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "bone \"upper\" is listed twice");

  s.bones[1].scale_y = 0;
  const std::vector<int> flat = {1};
  r = auto_weight_mesh(s, {0, 0}, flat, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("cannot be inverted"), std::string::npos) << r.error().message;

  r = auto_weight_mesh(s, {0, 1}, flat, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(), "skins[0].attachments[1]: attachment \"badge\" is a Region, not a Mesh");
}

TEST(MeshWeights, HeatWeightErrorsNameTheMesh) {
  SkeletonSource s = arm_rig();
  const std::vector<int> bones = {1, 2};
  Expected<MeshWeightsResult> r = auto_weight_mesh(s, {0, 0}, bones, {}, {.max_influences = 12});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(),
            "skins[0].attachments[0]: mesh \"arm\" (skin \"default\", slot \"arm\"): max influences 12 is outside 1 to 8");
}

}  // namespace
}  // namespace mf::offline
