#include "mf/offline/mesh/mesh_from_region.hpp"

#include <gtest/gtest.h>

#include "mf/offline/build/skeleton_builder.hpp"
#include "offline/mesh/alpha_images.hpp"
#include "offline/mesh/mesh_checks.hpp"
#include "support/model_builders.hpp"

namespace mf::offline {
namespace {

using mf::testing::attachment;
using mf::testing::named;

// A root bone, an arm bone, a slot "arm" with a Region "arm" showing image "arm".
SkeletonSource rig_with_region(const RegionAttachment& region) {
  SkeletonSource s;
  s.bones.push_back(named<Bone>("root"));
  Bone arm = named<Bone>("arm");
  arm.parent = 0;
  arm.rotation = 40;
  s.bones.push_back(arm);
  s.slots.push_back(mf::testing::slot("body", 0, ""));
  s.slots.push_back(mf::testing::slot("arm", 1, "arm"));
  Skin skin = named<Skin>("default");
  skin.attachments.push_back(attachment(0, "body", PointAttachment{}));
  skin.attachments.push_back(attachment(1, "arm", region));
  s.skins.push_back(skin);
  return s;
}

ImageSource one_image(const std::string& name, imaging::Image image) {
  return [name, image](const std::string& wanted) -> Expected<imaging::Image> {
    if (wanted != name) return Unexpected{Error{wanted + ".png", "", {}, "no such file"}};
    return image;
  };
}

// The region's four corners as the build places them (sizes only: no trim), as an affine map from
// the image's (u, v) to the bone's space.
struct QuadMap {
  Vec2d origin, du, dv;
  Vec2d at(double u, double v) const { return origin + du * u + dv * v; }
};
QuadMap built_quad(const SkeletonSource& s, int width, int height) {
  const Expected<BuildResult> built = build_skeleton(
      s, [&](const std::string&) { return std::optional<ImageSize>(ImageSize{width, height}); }, "test", "test.mskel");
  EXPECT_TRUE(built.ok()) << built.error().to_string();
  const skel::SkeletonData& data = *built->data;
  for (const skel::AttachmentRecord& rec : data.attachments) {
    if (rec.kind != skel::AttachmentKind::Region) continue;
    Vec2d p[4], uv[4];
    for (std::uint32_t k = 0; k < 4; ++k) {
      const skel::Influence& in = data.influences[data.vertices[rec.vertex_start + k].first];
      p[k] = {in.x, in.y};
      uv[k] = {data.uvs[2 * (rec.vertex_start + k)], data.uvs[2 * (rec.vertex_start + k) + 1]};
    }
    // Corners: (1,1), (0,1), (0,0), (1,0) in (u, v).
    EXPECT_EQ(uv[2], (Vec2d{0, 0}));
    return {p[2], p[3] - p[2], p[1] - p[2]};
  }
  ADD_FAILURE() << "no region was built";
  return {};
}

TEST(MeshFromRegion, TheMeshSitsWhereTheRegionDrewItsImage) {
  const imaging::Image image = mf::testing::shape_image(48, 30, [](double x, double y) {
    return mf::testing::in_disc(x, y, 16, 15, 12) || (x > 30 && x < 44 && y > 4 && y < 26);
  });
  for (const RegionAttachment& region :
       {RegionAttachment{"", 10, -5, 30, 1.5f, 0.8f, 0, 0, Rgba8{10, 20, 30, 200}, std::nullopt},
        RegionAttachment{"", -3, 7, -120, -1, 2, 96, 15, Rgba8::white(), std::nullopt},
        RegionAttachment{"", 0, 0, 0, 1, 1, 0, 0, Rgba8::white(), std::nullopt}}) {
    SkeletonSource s = rig_with_region(region);
    const QuadMap quad = built_quad(s, image.width, image.height);
    const Expected<RegionMesh> made = mesh_region(s, 0, 1, "arm", one_image("arm", image));
    ASSERT_TRUE(made.ok()) << made.error().to_string();
    EXPECT_EQ(made->image, "arm");
    const Attachment& att = s.skins[0].attachments[1];
    EXPECT_EQ(att.slot, 1);
    EXPECT_EQ(att.name, "arm");
    ASSERT_EQ(att.type(), AttachmentType::Mesh);
    const MeshAttachment& mesh = std::get<MeshAttachment>(att.data);
    EXPECT_EQ(mesh.color, region.color);
    EXPECT_EQ(mesh.image, "");
    EXPECT_EQ(mesh.width, 48);
    EXPECT_EQ(mesh.height, 30);
    EXPECT_FALSE(mesh.vertices.weighted());
    const std::size_t n = made->mesh.positions.size();
    ASSERT_EQ(mesh.vertices.positions.size(), 2 * n);
    ASSERT_EQ(mesh.uvs.size(), 2 * n);
    EXPECT_EQ(mesh.hull, made->mesh.hull);
    EXPECT_EQ(mesh.triangles.size(), 3 * made->mesh.triangles.size());
    EXPECT_EQ(mesh.edges.size(), 2 * made->mesh.edges.size());
    for (std::size_t i = 0; i < n; ++i) {
      const double u = mesh.uvs[2 * i], v = mesh.uvs[2 * i + 1];
      EXPECT_NEAR(u, made->mesh.positions[i].x / 48, 1e-6);
      EXPECT_NEAR(v, made->mesh.positions[i].y / 30, 1e-6);
      EXPECT_TRUE(u >= 0 && u <= 1 && v >= 0 && v <= 1) << u << ", " << v;
      // Where the region's quad puts this (u, v), within float rounding.
      const Vec2d expected = quad.at(u, v);
      EXPECT_NEAR(mesh.vertices.positions[2 * i], expected.x, 1e-3);
      EXPECT_NEAR(mesh.vertices.positions[2 * i + 1], expected.y, 1e-3);
    }
    // Every opaque pixel's centre is inside a triangle in the bone's space too.
    std::vector<Vec2d> bone_positions;
    for (std::size_t i = 0; i < n; ++i) bone_positions.push_back({mesh.vertices.positions[2 * i], mesh.vertices.positions[2 * i + 1]});
    std::vector<std::array<int, 3>> triangles;
    for (std::size_t t = 0; t < mesh.triangles.size(); t += 3) triangles.push_back({mesh.triangles[t], mesh.triangles[t + 1], mesh.triangles[t + 2]});
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x) {
        if (image.pixel(x, y)[3] == 0) continue;
        EXPECT_TRUE(mf::testing::covered(bone_positions, triangles, quad.at((x + 0.5) / 48, (y + 0.5) / 30), 1e-4))
            << x << ", " << y;
      }
    // The rig still builds.
    EXPECT_TRUE(build_skeleton(s, [](const std::string&) { return std::optional<ImageSize>(ImageSize{48, 30}); }, "t", "t")
                    .ok());
  }
}

TEST(MeshFromRegion, AFullyOpaqueImageCoversTheWholeQuad) {
  const imaging::Image full = mf::testing::shape_image(40, 24, [](double, double) { return true; });
  SkeletonSource s = rig_with_region({"", 5, 5, 75, 2, 0.5f, 0, 0, Rgba8::white(), std::nullopt});
  const QuadMap quad = built_quad(s, 40, 24);
  const Expected<RegionMesh> made = mesh_region(s, 0, 1, "arm", one_image("arm", full));
  ASSERT_TRUE(made.ok()) << made.error().to_string();
  const MeshAttachment& mesh = std::get<MeshAttachment>(s.skins[0].attachments[1].data);
  double area = 0;
  for (std::size_t t = 0; t < mesh.triangles.size(); t += 3) {
    const auto at = [&](int i) { return Vec2d{mesh.vertices.positions[2 * i], mesh.vertices.positions[2 * i + 1]}; };
    area += std::fabs(mf::testing::signed_triangle_area(at(mesh.triangles[t]), at(mesh.triangles[t + 1]), at(mesh.triangles[t + 2])));
  }
  EXPECT_NEAR(area, std::fabs(cross(quad.du, quad.dv)), 1e-3 * std::fabs(cross(quad.du, quad.dv)));
}

TEST(MeshFromRegion, ErrorsNameTheAttachment) {
  const imaging::Image image = mf::testing::disc_image(20, 8);
  SkeletonSource s = rig_with_region({});
  const SkeletonSource before = s;
  const auto message = [&](int skin, int slot, std::string_view name, const ImageSource& images) {
    const Expected<RegionMesh> made = mesh_region(s, skin, slot, name, images);
    EXPECT_FALSE(made.ok());
    return made.ok() ? std::string() : made.error().path + ": " + made.error().message;
  };
  EXPECT_NE(message(0, 0, "body", one_image("arm", image)).find("skins[0].attachments[0]: skin \"default\", slot \"body\", attachment \"body\": is a Point, not a Region"), std::string::npos);
  EXPECT_NE(message(0, 1, "leg", one_image("arm", image)).find("there is no such attachment"), std::string::npos);
  EXPECT_NE(message(1, 1, "arm", one_image("arm", image)).find("skin index 1 is out of range"), std::string::npos);
  EXPECT_NE(message(0, 5, "arm", one_image("arm", image)).find("slot index 5 is out of range"), std::string::npos);
  EXPECT_NE(message(0, 1, "arm", one_image("other", image)).find("image \"arm\": arm.png: no such file"), std::string::npos);
  EXPECT_NE(message(0, 1, "arm", one_image("arm", imaging::Image::blank(8, 8))).find("has alpha at or above 1"), std::string::npos);
  std::get<RegionAttachment>(s.skins[0].attachments[1].data).sequence = Sequence{4, 1, 2, 0};
  EXPECT_NE(message(0, 1, "arm", one_image("arm", image)).find("shows a sequence of 4 images"), std::string::npos);
  std::get<RegionAttachment>(s.skins[0].attachments[1].data).sequence.reset();
  EXPECT_EQ(s, before);  // failures change nothing
}

}  // namespace
}  // namespace mf::offline
