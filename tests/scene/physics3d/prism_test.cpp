#include "mf/scene/physics3d/prism.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace mf::scene {
namespace {

constexpr float kTolerance = 1e-5f;  // float arithmetic on values of a few units

void expect_near(Vec3 got, Vec3 want, float tolerance = kTolerance) {
  EXPECT_NEAR(got.x, want.x, tolerance);
  EXPECT_NEAR(got.y, want.y, tolerance);
  EXPECT_NEAR(got.z, want.z, tolerance);
}

const std::vector<Vec2> kSquare{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

TEST(Prism, IdentityFrameExtrudesAlongZ) {
  auto prism = make_prism(kSquare);  // the default depth: 0.1 m
  ASSERT_TRUE(prism) << prism.error().message;
  ASSERT_EQ(prism->size(), 8u);
  for (std::size_t i = 0; i < 4; ++i) {
    expect_near((*prism)[i], {kSquare[i].x, kSquare[i].y, -0.05f});
    expect_near((*prism)[4 + i], {kSquare[i].x, kSquare[i].y, 0.05f});
  }
}

TEST(Prism, SpriteFrameScalesThePolygonNotTheDepth) {
  // A sprite's model matrix: 100 px per metre, Y mirrored (pixels run down), turned a quarter turn
  // about +Y and moved. The polygon is in pixels; the depth stays 0.1 m.
  const Mat4 frame = Mat4::translation({2, 1, -3}) * Mat4::rotation({0, 1, 0}, std::numbers::pi_v<float> / 2) *
                     Mat4::scale({0.01f, -0.01f, 0.01f});
  const std::vector<Vec2> px{{0, 0}, {50, 0}, {50, 80}, {0, 80}};
  auto prism = make_prism(px, 0.1f, frame);
  ASSERT_TRUE(prism) << prism.error().message;
  // The plane's normal: X × Y of the frame; the rotation takes +Z to +X, the mirror flips it: −X.
  const Vec3 normal = normalize(cross(frame.column3(0), frame.column3(1)));
  expect_near(normal, {-1, 0, 0});
  for (std::size_t i = 0; i < px.size(); ++i) {
    const Vec3 on_plane = frame.transform_point({px[i].x, px[i].y, 0});
    expect_near((*prism)[i], on_plane - normal * 0.05f);
    expect_near((*prism)[4 + i], on_plane + normal * 0.05f);
    EXPECT_NEAR(length((*prism)[4 + i] - (*prism)[i]), 0.1f, kTolerance);
  }
  // The 50 × 80 px polygon is 0.5 × 0.8 m: Z spans 0.5 m (the turned X), Y spans 0.8 m (downwards).
  expect_near((*prism)[2], {2.05f, 1 - 0.8f, -3 - 0.5f});
}

TEST(Prism, WritesIntoACallersArray) {
  std::vector<Vec3> out(8);
  ASSERT_TRUE(make_prism(kSquare, 0.2f, Mat4::translation({0, 0, 1}), out));
  expect_near(out[0], {-1, -1, 0.9f});
  expect_near(out[7], {-1, 1, 1.1f});
  std::vector<Vec3> short_out(7);
  Status st = make_prism(kSquare, 0.2f, Mat4::identity(), short_out);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("holds 7"), std::string::npos) << st.error().message;
}

TEST(Prism, BadInputIsAnError) {
  const std::vector<Vec2> two{{0, 0}, {1, 0}};
  auto st = make_prism(two);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("has 2"), std::string::npos) << st.error().message;

  const std::vector<Vec2> line{{0, 0}, {1, 1}, {2, 2}};
  st = make_prism(line);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("zero area"), std::string::npos) << st.error().message;

  const std::vector<Vec2> nan_point{{0, 0}, {1, 0}, {0, NAN}};
  st = make_prism(nan_point);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("point 2"), std::string::npos) << st.error().message;

  EXPECT_FALSE(make_prism(kSquare, 0));
  EXPECT_FALSE(make_prism(kSquare, -0.1f));
  EXPECT_FALSE(make_prism(kSquare, INFINITY));
  st = make_prism(kSquare, 0.1f, Mat4::scale({1, 0, 1}));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("no normal"), std::string::npos) << st.error().message;
}

}  // namespace
}  // namespace mf::scene
