#include "mf/offline/mesh/auto_mesh.hpp"

#include <gtest/gtest.h>

#include "mf/offline/mesh/marching_squares.hpp"
#include "offline/mesh/alpha_images.hpp"
#include "offline/mesh/loop_checks.hpp"
#include "offline/mesh/mesh_checks.hpp"

namespace mf::offline {
namespace {

using mf::testing::covers_the_art;
using mf::testing::meets_the_angle_rule;
using mf::testing::shape_image;

double hull_area(const AutoMesh& mesh) {
  double area = 0;
  for (int i = 0; i < mesh.hull; ++i) area += cross(mesh.positions[i], mesh.positions[(i + 1) % mesh.hull]) / 2;
  return area;
}

double mesh_area(const AutoMesh& mesh) {
  double area = 0;
  for (const auto& t : mesh.triangles)
    area += mf::testing::signed_triangle_area(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]]);
  return area;
}

TEST(AutoMesh, ADiscIsCoveredByWellShapedTriangles) {
  const imaging::Image disc = mf::testing::disc_image(64, 20);
  const Expected<AutoMesh> mesh = auto_mesh(disc);
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  EXPECT_TRUE(covers_the_art(*mesh, disc));
  EXPECT_TRUE(meets_the_angle_rule(*mesh));
  EXPECT_GE(mesh->hull, 8);
  EXPECT_GT(mesh->positions.size(), static_cast<std::size_t>(mesh->hull));  // interior points
  EXPECT_EQ(mf::testing::mesh_loops(*mesh).size(), 1u);
  // The hull runs the padding (2) outside the disc's edge (radius about 20), within the one-sided
  // tolerances (outward 1.33 at this size) and a pixel of tracing.
  const AutoMeshScale scale = auto_mesh_scale(64, 64, {});
  for (int i = 0; i < mesh->hull; ++i) {
    const double r = length(mesh->positions[i] - Vec2d{32, 32});
    EXPECT_GE(r, 20 + 2 - scale.inward_tolerance - 1) << i;
    EXPECT_LE(r, 20.5 + 2 + scale.outward_tolerance + 1) << i;
  }
  // The triangles tile the hull: no overlaps, no gaps.
  EXPECT_NEAR(mesh_area(*mesh), hull_area(*mesh), 1e-6 * hull_area(*mesh));
  // The hull's edges are the first constrained edges, in order.
  ASSERT_GE(mesh->edges.size(), static_cast<std::size_t>(mesh->hull));
  for (int i = 0; i < mesh->hull; ++i) EXPECT_EQ(mesh->edges[i], (std::array<int, 2>{i, (i + 1) % mesh->hull}));
}

TEST(AutoMesh, ARingsHoleIsALoopWithNoTriangleInside) {
  const imaging::Image ring = mf::testing::ring_image(96, 40, 20);
  const Expected<AutoMesh> mesh = auto_mesh(ring);
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  EXPECT_TRUE(covers_the_art(*mesh, ring));
  EXPECT_TRUE(meets_the_angle_rule(*mesh));
  const auto loops = mf::testing::mesh_loops(*mesh);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_LT(signed_area(loops[1]), 0);  // holes run counter-clockwise on screen
  // No triangle reaches into the hole: nothing covers points nearer the centre than the hole's
  // outline (the hole's radius, 20, less the padding and tolerances).
  for (double r = 0; r < 20 - 2 - 2; r += 1)
    for (double a = 0; a < 6.28; a += 0.2)
      EXPECT_FALSE(mf::testing::covered(mesh->positions, mesh->triangles, {48 + r * std::cos(a), 48 + r * std::sin(a)}))
          << r << ", " << a;
  EXPECT_NEAR(mesh_area(*mesh), hull_area(*mesh) + signed_area(loops[1]), 1e-6 * hull_area(*mesh));
  // Each hole edge is constrained and on the hole's loop.
  EXPECT_EQ(mesh->edges.size(), loops[0].size() + loops[1].size());
}

TEST(AutoMesh, SeparateIslandsShareOneHull) {
  const imaging::Image islands = shape_image(160, 80, [](double x, double y) {
    return mf::testing::in_disc(x, y, 25, 40, 15) || mf::testing::in_disc(x, y, 130, 30, 12) ||
           (x > 60 && x < 80 && y > 66 && y < 74);
  });
  const Expected<AutoMesh> mesh = auto_mesh(islands);
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  EXPECT_GT(mesh->join_radius, 0);
  EXPECT_TRUE(covers_the_art(*mesh, islands));
  EXPECT_TRUE(meets_the_angle_rule(*mesh));
  // One hull encloses all three.
  const auto loops = mf::testing::mesh_loops(*mesh);
  const std::vector<std::vector<Vec2d>> hull{loops[0]};
  for (Vec2d p : {Vec2d{25, 40}, Vec2d{130, 30}, Vec2d{70, 70}}) EXPECT_TRUE(inside_loops(hull, p)) << p.x << ", " << p.y;
}

TEST(AutoMesh, ThinShapes) {
  const std::vector<imaging::Image> thin{
      shape_image(120, 9, [](double, double y) { return y > 4 && y < 5; }),                  // a 1-pixel line
      shape_image(60, 60, [](double x, double y) { return std::fabs(x - y) < 1; }),          // a diagonal
      shape_image(80, 80, [](double x, double y) { return std::fabs(x - 40) < 1 || std::fabs(y - 40) < 1; }),  // a cross
      shape_image(3, 50, [](double, double) { return true; }),                                // a narrow full image
  };
  for (std::size_t i = 0; i < thin.size(); ++i)
    for (double padding : {0.0, 2.0}) {
      AutoMeshOptions options;
      options.padding = padding;
      const Expected<AutoMesh> mesh = auto_mesh(thin[i], options);
      ASSERT_TRUE(mesh.ok()) << i << ": " << mesh.error().to_string();
      EXPECT_TRUE(covers_the_art(*mesh, thin[i])) << "shape " << i << ", padding " << padding;
      EXPECT_TRUE(meets_the_angle_rule(*mesh)) << "shape " << i << ", padding " << padding;
    }
}

TEST(AutoMesh, TheThresholdAndThePaddingMoveTheOutline) {
  // A disc whose alpha falls from 255 at the centre to 0 at radius 30.
  imaging::Image soft = imaging::Image::blank(80, 80);
  for (int y = 0; y < 80; ++y)
    for (int x = 0; x < 80; ++x) {
      const double r = std::hypot(x + 0.5 - 40, y + 0.5 - 40);
      soft.pixel(x, y)[3] = static_cast<std::uint8_t>(std::clamp(255 * (1 - r / 30), 0.0, 255.0));
    }
  double previous = INFINITY;
  for (int threshold : {1, 64, 128, 200}) {
    AutoMeshOptions options;
    options.alpha_threshold = threshold;
    const Expected<AutoMesh> mesh = auto_mesh(soft, options);
    ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
    EXPECT_TRUE(covers_the_art(*mesh, soft, threshold)) << threshold;
    EXPECT_LT(hull_area(*mesh), previous) << threshold;
    previous = hull_area(*mesh);
    // Radius of the pixels kept: 30 · (1 − threshold / 255); the hull is about the padding outside.
    const double radius = 30 * (1 - threshold / 255.0);
    EXPECT_NEAR(std::sqrt(hull_area(*mesh) / std::numbers::pi), radius + 2, 2.0) << threshold;
  }
  const imaging::Image disc = mf::testing::disc_image(80, 20);
  double smaller = 0;
  for (double padding : {0.0, 3.0, 8.0}) {
    AutoMeshOptions options;
    options.padding = padding;
    const Expected<AutoMesh> mesh = auto_mesh(disc, options);
    ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
    EXPECT_TRUE(covers_the_art(*mesh, disc));
    EXPECT_NEAR(std::sqrt(hull_area(*mesh) / std::numbers::pi), 20.3 + padding, 1.5) << padding;
    EXPECT_GT(hull_area(*mesh), smaller);
    smaller = hull_area(*mesh);
  }
}

TEST(AutoMesh, DensitySetsHowManyVertices) {
  const imaging::Image disc = mf::testing::disc_image(128, 50);
  std::size_t previous = 0;
  for (double density : {0.5, 1.0, 2.0, 4.0}) {
    AutoMeshOptions options;
    options.density = density;
    const Expected<AutoMesh> mesh = auto_mesh(disc, options);
    ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
    EXPECT_GT(mesh->positions.size(), previous) << density;
    previous = mesh->positions.size();
    EXPECT_TRUE(meets_the_angle_rule(*mesh)) << density;
  }
  EXPECT_DOUBLE_EQ(auto_mesh_scale(128, 60, {}).spacing, 128.0 / 6);
  EXPECT_DOUBLE_EQ(auto_mesh_scale(10, 6, {}).spacing, 4.0);  // the smallest spacing
  AutoMeshOptions padded;
  padded.padding = 0.5;
  EXPECT_DOUBLE_EQ(auto_mesh_scale(128, 60, padded).inward_tolerance, 0.5);
}

TEST(AutoMesh, SharpCornersKeepTheirTrianglesAndTheRestIsGood) {
  // A thin wedge: its tip is an input corner far sharper than 40°.
  const imaging::Image wedge = shape_image(120, 40, [](double x, double y) { return x > 5 && std::fabs(y - 20) < (x - 5) * 0.12; });
  AutoMeshOptions options;
  options.padding = 0;
  const Expected<AutoMesh> mesh = auto_mesh(wedge, options);
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  EXPECT_TRUE(covers_the_art(*mesh, wedge));
  EXPECT_TRUE(meets_the_angle_rule(*mesh));
}

TEST(AutoMesh, IsDeterministic) {
  const imaging::Image ring = mf::testing::ring_image(90, 40, 12);
  const Expected<AutoMesh> a = auto_mesh(ring), b = auto_mesh(ring);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->positions, b->positions);
  EXPECT_EQ(a->triangles, b->triangles);
  EXPECT_EQ(a->edges, b->edges);
  EXPECT_EQ(a->hull, b->hull);
}

TEST(AutoMesh, RefusesEmptyImagesAndBadOptions) {
  const Expected<AutoMesh> clear = auto_mesh(imaging::Image::blank(16, 16));
  ASSERT_FALSE(clear.ok());
  EXPECT_NE(clear.error().message.find("no pixel of the 16x16 image has alpha at or above 1"), std::string::npos)
      << clear.error().message;
  EXPECT_FALSE(auto_mesh(imaging::Image{}).ok());
  imaging::Image faint = imaging::Image::blank(8, 8);
  faint.pixel(3, 3)[3] = 10;
  EXPECT_TRUE(auto_mesh(faint).ok());
  AutoMeshOptions strict;
  strict.alpha_threshold = 11;
  EXPECT_FALSE(auto_mesh(faint, strict).ok());
  const imaging::Image disc = mf::testing::disc_image(32, 10);
  for (const AutoMeshOptions& bad : {AutoMeshOptions{0.05, 1, 2}, AutoMeshOptions{11, 1, 2}, AutoMeshOptions{1, 0, 2},
                                     AutoMeshOptions{1, 256, 2}, AutoMeshOptions{1, 1, -1}, AutoMeshOptions{1, 1, NAN}}) {
    const Expected<AutoMesh> mesh = auto_mesh(disc, bad);
    EXPECT_FALSE(mesh.ok()) << bad.density << " " << bad.alpha_threshold << " " << bad.padding;
  }
}

TEST(AutoMesh, OnePixelAndAFullImage) {
  imaging::Image dot = imaging::Image::blank(1, 1);
  dot.pixel(0, 0)[3] = 255;
  const Expected<AutoMesh> one = auto_mesh(dot);
  ASSERT_TRUE(one.ok()) << one.error().to_string();
  EXPECT_TRUE(covers_the_art(*one, dot));
  const imaging::Image full = shape_image(50, 30, [](double, double) { return true; });
  const Expected<AutoMesh> mesh = auto_mesh(full);
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  EXPECT_TRUE(covers_the_art(*mesh, full));
  EXPECT_TRUE(meets_the_angle_rule(*mesh));
  EXPECT_NEAR(mesh_area(*mesh), 50.0 * 30.0, 1e-6);  // the whole image, corners included
}

}  // namespace
}  // namespace mf::offline
