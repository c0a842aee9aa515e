// ForwardRenderer's mesh path on lavapipe with validation on: coverage and colour of an unshaded
// box, the sun's lighting of a plane, back-face culling (also of mirrored transforms), the shadow
// map and its fit to the casters, picking (with a cut-out texture), motion vectors, frustum culling,
// premultiplied blending (Blend materials out of the prepass) and normal maps' orientation.
// Every frame must create no pipeline.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mf/render/forward_renderer.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "render_scene.hpp"
#include "test_device.hpp"

namespace mf::render::testing {
namespace {

constexpr int kSize = 64;

ForwardOptions small_options() {
  ForwardOptions options;
  options.max_gpu_vertices = 1024;
  options.max_cpu_vertices = 256;
  options.max_static_vertices = 1024;
  options.max_static_influences = 1024;
  options.max_draws = 64;
  options.upload_bytes_per_slot = 1 << 18;
  options.shadow_map_size = 256;
  return options;
}

// An orthographic camera on +Z looking at the origin: 4 world units across the 64-pixel target.
Camera front_camera() {
  Camera camera;
  camera.projection = Camera::Projection::Orthographic;
  camera.position = {0, 0, 10};
  camera.target = {0, 0, 0};
  camera.ortho_height = 4;
  camera.near_plane = 0.1f;
  camera.far_plane = 100;
  return camera;
}

ForwardFrame unlit_frame(Camera camera) {
  ForwardFrame frame;
  frame.camera = camera;
  frame.clear = {0, 0, 0, 0};
  frame.tonemap = false;
  return frame;
}

std::uint8_t byte(float v) { return static_cast<std::uint8_t>(std::lround(std::fmin(std::fmax(v, 0.0f), 1.0f) * 255.0f)); }

// The pixel a world point lands on.
struct Pixel {
  int x, y;
};
Pixel project(const Camera& camera, Vec3 p) {
  const Vec4 clip = camera.view_projection(1.0f) * Vec4{p.x, p.y, p.z, 1};
  return {static_cast<int>(std::floor((clip.x / clip.w * 0.5f + 0.5f) * kSize)),
          static_cast<int>(std::floor((clip.y / clip.w * 0.5f + 0.5f) * kSize))};
}

class ForwardMeshTest : public RenderTest {
 protected:
  void SetUp() override {
    RenderTest::SetUp();
    auto created = ForwardRenderer::create(*device, *memory, small_options());
    ASSERT_TRUE(created) << created.error().to_string();
    renderer = std::move(*created);
    auto made = RenderTarget::create(*device, *memory, kSize, kSize);
    ASSERT_TRUE(made) << made.error().to_string();
    target = std::move(*made);
  }
  void TearDown() override {
    renderer.reset();
    target.reset();
    RenderTest::TearDown();
  }

  MeshHandle mesh(const MeshData& data) {
    auto handle = renderer->add_mesh(data);
    EXPECT_TRUE(handle) << handle.error().to_string();
    return handle ? *handle : MeshHandle{};
  }
  MaterialHandle material(const Material& m) {
    auto handle = renderer->add_material(m);
    EXPECT_TRUE(handle) << handle.error().to_string();
    return handle ? *handle : MaterialHandle{};
  }
  static Material unshaded(ColorF colour) {
    Material m;
    m.base_color = colour;
    m.shaded = false;
    m.mipmaps = false;
    return m;
  }
  void begin(const ForwardFrame& frame) {
    ASSERT_TRUE(renderer->begin_frame(*target, frame));
    EXPECT_EQ(renderer->stats().pipelines_created_this_frame, 0u);
  }
  imaging::Image end_and_read() {
    Status ended = renderer->end_frame();
    EXPECT_TRUE(ended) << ended.error().to_string();
    EXPECT_EQ(renderer->stats().pipelines_created_this_frame, 0u);
    auto image = target->read_back(RenderTarget::Alpha::Premultiplied);
    EXPECT_TRUE(image) << image.error().to_string();
    return image ? std::move(*image) : imaging::Image{};
  }
  static void expect_pixel(const imaging::Image& image, int x, int y, std::array<std::uint8_t, 4> want, int tolerance) {
    const std::uint8_t* p = image.pixel(x, y);
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(p[c], want[static_cast<std::size_t>(c)], tolerance) << "pixel (" << x << ", " << y << ") channel " << c;
  }

  std::unique_ptr<ForwardRenderer> renderer;
  std::unique_ptr<RenderTarget> target;
};

TEST_F(ForwardMeshTest, UnshadedOpaqueBoxFillsItsRectangleWithItsColour) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  const MaterialHandle colour = material(unshaded({0.8f, 0.4f, 0.2f, 1}));
  EXPECT_GT(renderer->stats().pipelines_created_total, 0u);
  begin(unlit_frame(front_camera()));
  ASSERT_TRUE(renderer->draw_mesh(box, colour, Mat4::identity()));
  const imaging::Image image = end_and_read();
  EXPECT_EQ(renderer->stats().meshes_drawn, 1u);
  EXPECT_EQ(renderer->stats().main_draws, 1u);
  EXPECT_EQ(renderer->stats().prepass_draws, 1u);
  // 16 pixels per world unit: the front face covers [24, 40)².
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const bool inside = x >= 24 && x < 40 && y >= 24 && y < 40;
      if (inside)
        expect_pixel(image, x, y, {204, 102, 51, 255}, 1);
      else
        expect_pixel(image, x, y, {0, 0, 0, 0}, 0);
    }
}

TEST_F(ForwardMeshTest, MirroredTransformStillShowsItsFrontFaces) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  const MaterialHandle colour = material(unshaded({0.2f, 0.8f, 0.4f, 1}));
  begin(unlit_frame(front_camera()));
  ASSERT_TRUE(renderer->draw_mesh(box, colour, Mat4::scale({-1, 1, 1})));
  const imaging::Image image = end_and_read();
  expect_pixel(image, 32, 32, {51, 204, 102, 255}, 1);
  expect_pixel(image, 24, 24, {51, 204, 102, 255}, 1);
  expect_pixel(image, 23, 32, {0, 0, 0, 0}, 0);
}

TEST_F(ForwardMeshTest, SunStraightDownLightsAPlaneByAmbientPlusEnergy) {
  const MeshHandle plane = mesh(make_plane(10, 10));
  Material m;
  m.base_color = {0.5f, 0.6f, 0.4f, 1};
  m.specular = 0;
  m.mipmaps = false;
  const MaterialHandle lit = material(m);
  Camera camera = front_camera();
  camera.position = {0, 10, 0};
  camera.up = {0, 0, -1};
  ForwardFrame frame = unlit_frame(camera);
  frame.lights.ambient = {0.2f, 0.2f, 0.2f, 1};
  frame.lights.sun = DirectionalLight{{0, -1, 0}, {1, 1, 1, 1}, 0.5f, true};
  begin(frame);
  ASSERT_TRUE(renderer->draw_mesh(plane, lit, Mat4::identity()));
  const imaging::Image image = end_and_read();
  EXPECT_EQ(renderer->stats().shadow_draws, 1u);
  for (int y = 4; y < kSize; y += 9)
    for (int x = 4; x < kSize; x += 9) expect_pixel(image, x, y, {byte(0.5f * 0.7f), byte(0.6f * 0.7f), byte(0.4f * 0.7f), 255}, 2);
}

TEST_F(ForwardMeshTest, SingleSidedPlaneSeenFromBelowIsCulledDoubleSidedIsDrawn) {
  const MeshHandle plane = mesh(make_plane(2, 2));
  Material single = unshaded({1, 1, 0, 1});
  Material both = single;
  both.double_sided = true;
  const MaterialHandle single_sided = material(single), double_sided = material(both);
  Camera camera = front_camera();
  camera.position = {0, -10, 0};
  camera.up = {0, 0, 1};

  begin(unlit_frame(camera));
  ASSERT_TRUE(renderer->draw_mesh(plane, single_sided, Mat4::identity()));
  imaging::Image image = end_and_read();
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) expect_pixel(image, x, y, {0, 0, 0, 0}, 0);

  begin(unlit_frame(camera));
  ASSERT_TRUE(renderer->draw_mesh(plane, double_sided, Mat4::identity()));
  image = end_and_read();
  expect_pixel(image, 32, 32, {255, 255, 0, 255}, 1);
  expect_pixel(image, 2, 2, {0, 0, 0, 0}, 0);
}

TEST_F(ForwardMeshTest, BoxAboveAPlaneShadowsItUnderASunStraightDown) {
  const MeshHandle plane = mesh(make_plane(10, 10)), box = mesh(make_box({2, 2, 2}));
  Material m;
  m.base_color = {0.6f, 0.6f, 0.6f, 1};
  m.specular = 0;
  m.mipmaps = false;
  const MaterialHandle grey = material(m);
  Camera camera = front_camera();
  camera.position = {0, 10, 10};
  camera.ortho_height = 12;
  ForwardFrame frame = unlit_frame(camera);
  frame.lights.ambient = {0.25f, 0.25f, 0.25f, 1};
  frame.lights.sun = DirectionalLight{{0, -1, 0}, {1, 1, 1, 1}, 1, true};
  begin(frame);
  ASSERT_TRUE(renderer->draw_mesh(plane, grey, Mat4::identity(), 1));
  ASSERT_TRUE(renderer->draw_mesh(box, grey, Mat4::translation({0, 4, 0}), 2));
  const imaging::Image image = end_and_read();
  EXPECT_EQ(renderer->stats().shadow_draws, 2u);
  const std::uint8_t shadowed = byte(0.6f * 0.25f), lit = byte(0.6f * 1.25f);
  for (Vec3 p : {Vec3{0, 0, 0}, Vec3{0.5f, 0, 0.4f}, Vec3{-0.5f, 0, -0.4f}}) {
    const Pixel px = project(camera, p);
    auto id = renderer->pick(px.x, px.y);
    ASSERT_TRUE(id) << id.error().to_string();
    EXPECT_EQ(*id, std::optional<std::uint32_t>{1}) << "the plane is seen at (" << px.x << ", " << px.y << ")";
    expect_pixel(image, px.x, px.y, {shadowed, shadowed, shadowed, 255}, 2);
  }
  for (Vec3 p : {Vec3{3, 0, 3}, Vec3{-3, 0, 2}, Vec3{3, 0, -3}}) {
    const Pixel px = project(camera, p);
    expect_pixel(image, px.x, px.y, {std::uint8_t(lit), lit, lit, 255}, 2);
  }
}

TEST_F(ForwardMeshTest, PickFindsTheFrontSurfaceAndNothingWhereACutoutIsTransparent) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  const MaterialHandle red = material(unshaded({1, 0, 0, 1})), blue = material(unshaded({0, 0, 1, 1}));
  // A cut-out texture: the left half transparent.
  imaging::Image texture = imaging::Image::blank(4, 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      std::uint8_t* p = texture.pixel(x, y);
      p[0] = p[1] = p[2] = 255;
      p[3] = x < 2 ? 0 : 255;
    }
  Material cut = unshaded({0, 1, 0, 1});
  cut.albedo = &texture;
  cut.alpha_mode = AlphaMode::Cutout;
  const MaterialHandle cutout = material(cut);

  begin(unlit_frame(front_camera()));
  ASSERT_TRUE(renderer->draw_mesh(box, red, Mat4::translation({-0.25f, 0, 1}), 7));   // x −0.75 … 0.25, in front
  ASSERT_TRUE(renderer->draw_mesh(box, blue, Mat4::translation({0.5f, 0, -1}), 9));   // x 0 … 1, behind
  ASSERT_TRUE(renderer->draw_mesh(box, cutout, Mat4::translation({0, 1.25f, 0}), 11));  // y 0.75 … 1.75
  const imaging::Image image = end_and_read();
  const auto pick = [&](int x, int y) {
    auto id = renderer->pick(x, y);
    EXPECT_TRUE(id) << id.error().to_string();
    return id ? *id : std::optional<std::uint32_t>{12345};
  };
  EXPECT_EQ(pick(34, 32), std::optional<std::uint32_t>{7});   // both: the front one
  EXPECT_EQ(pick(44, 32), std::optional<std::uint32_t>{9});   // the back one alone
  EXPECT_EQ(pick(20, 32), std::optional<std::uint32_t>{7});
  EXPECT_EQ(pick(3, 60), std::nullopt);                       // background
  EXPECT_EQ(pick(37, 8), std::optional<std::uint32_t>{11});   // the cutout's opaque half (u ≈ 0.8)
  EXPECT_EQ(pick(27, 8), std::nullopt);                       // its transparent half (u ≈ 0.2)
  expect_pixel(image, 27, 8, {0, 0, 0, 0}, 0);
  expect_pixel(image, 37, 8, {0, 255, 0, 255}, 1);
  expect_pixel(image, 34, 32, {255, 0, 0, 255}, 1);
  expect_pixel(image, 44, 32, {0, 0, 255, 255}, 1);
  EXPECT_FALSE(renderer->pick(kSize, 0));
  EXPECT_FALSE(renderer->pick(0, -1));
}

TEST_F(ForwardMeshTest, PickBeforeAnyFrameIsAnError) {
  auto id = renderer->pick(0, 0);
  ASSERT_FALSE(id);
  EXPECT_NE(id.error().message.find("pick:"), std::string::npos);
}

TEST_F(ForwardMeshTest, MotionVectorsAreZeroForAStillSceneAndTheProjectedDisplacementForAMovedBox) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  const MaterialHandle grey = material(unshaded({0.5f, 0.5f, 0.5f, 1}));
  for (int frame = 0; frame < 2; ++frame) {
    begin(unlit_frame(front_camera()));
    ASSERT_TRUE(renderer->draw_mesh(box, grey, Mat4::identity()));
    end_and_read();
  }
  auto still = renderer->read_motion_vectors();
  ASSERT_TRUE(still) << still.error().to_string();
  ASSERT_EQ(still->size(), static_cast<std::size_t>(kSize * kSize * 2));
  for (float v : *still) ASSERT_NEAR(v, 0.0f, 1e-3f);

  // Moved by (0.5, 0.25) world units since the last frame: (8, −4) pixels.
  begin(unlit_frame(front_camera()));
  ASSERT_TRUE(renderer->draw_mesh(box, grey, Mat4::translation({0.5f, 0.25f, 0}), 0, Mat4::identity()));
  end_and_read();
  auto moved = renderer->read_motion_vectors();
  ASSERT_TRUE(moved) << moved.error().to_string();
  // The box now covers x [32, 48), y [20, 36).
  for (int y = 22; y < 34; y += 3)
    for (int x = 34; x < 46; x += 3) {
      const std::size_t i = (static_cast<std::size_t>(y) * kSize + static_cast<std::size_t>(x)) * 2;
      EXPECT_NEAR((*moved)[i], 8.0f, 0.5f) << x << ", " << y;
      EXPECT_NEAR((*moved)[i + 1], -4.0f, 0.5f) << x << ", " << y;
    }
  EXPECT_EQ((*moved)[(5 * kSize + 5) * 2], 0.0f);
}

TEST_F(ForwardMeshTest, MeshBehindTheCameraIsCulled) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  const MaterialHandle white = material(unshaded({1, 1, 1, 1}));
  begin(unlit_frame(front_camera()));
  ASSERT_TRUE(renderer->draw_mesh(box, white, Mat4::translation({0, 0, 20})));
  const imaging::Image image = end_and_read();
  EXPECT_EQ(renderer->stats().meshes_culled, 1u);
  EXPECT_EQ(renderer->stats().meshes_drawn, 0u);
  EXPECT_EQ(renderer->stats().main_draws, 0u);
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) expect_pixel(image, x, y, {0, 0, 0, 0}, 0);
}

TEST_F(ForwardMeshTest, BlendBoxInFrontOfAnOpaqueOneBlendsPremultipliedAndIsNotPicked) {
  const MeshHandle box = mesh(make_box({1, 1, 1})), big = mesh(make_box({2, 2, 2}));
  const MaterialHandle red = material(unshaded({1, 0, 0, 1}));
  Material glass = unshaded({0, 1, 0, 0.5f});
  glass.alpha_mode = AlphaMode::Blend;  // the default cutoff (0.5): Blend materials stay out of the prepass all the same
  const MaterialHandle green = material(glass);
  ForwardFrame frame = unlit_frame(front_camera());
  frame.clear = {0, 0, 1, 1};
  begin(frame);
  // Queued first, drawn after the opaque box all the same.
  ASSERT_TRUE(renderer->draw_mesh(box, green, Mat4::translation({0, 0, 1}), 7));
  ASSERT_TRUE(renderer->draw_mesh(big, red, Mat4::translation({0, 0, -2}), 3));
  const imaging::Image image = end_and_read();
  EXPECT_EQ(renderer->stats().prepass_draws, 1u);
  expect_pixel(image, 32, 32, {128, 128, 0, 255}, 1);  // 0.5 green + 0.5 × red
  expect_pixel(image, 18, 32, {255, 0, 0, 255}, 1);    // red alone
  expect_pixel(image, 2, 2, {0, 0, 255, 255}, 0);      // the clear colour
  auto id = renderer->pick(32, 32);
  ASSERT_TRUE(id) << id.error().to_string();
  EXPECT_EQ(*id, std::optional<std::uint32_t>{3}) << "the Blend box is not pickable: the opaque box behind it is";
}

TEST_F(ForwardMeshTest, BlendItemsAreDrawnBackToFrontWhateverTheirQueueOrder) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  Material red = unshaded({1, 0, 0, 0.5f}), green = unshaded({0, 1, 0, 0.5f});
  for (Material* m : {&red, &green}) m->alpha_mode = AlphaMode::Blend;
  const MaterialHandle front = material(red), back = material(green);
  begin(unlit_frame(front_camera()));
  ASSERT_TRUE(renderer->draw_mesh(box, front, Mat4::translation({0, 0, 1})));
  ASSERT_TRUE(renderer->draw_mesh(box, back, Mat4::translation({0, 0, -1})));
  const imaging::Image image = end_and_read();
  // Green over nothing, then red over it: (0.5, 0.25, 0, 0.75) premultiplied.
  expect_pixel(image, 32, 32, {128, 64, 0, 191}, 1);
}

TEST_F(ForwardMeshTest, StaleAndForeignHandlesAreErrors) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  const MaterialHandle white = material(unshaded({1, 1, 1, 1}));
  ASSERT_TRUE(renderer->remove_mesh(box));
  EXPECT_FALSE(renderer->remove_mesh(box));
  begin(unlit_frame(front_camera()));
  auto drawn = renderer->draw_mesh(box, white, Mat4::identity());
  ASSERT_FALSE(drawn);
  EXPECT_NE(drawn.error().message.find("stale"), std::string::npos) << drawn.error().message;
  EXPECT_FALSE(renderer->draw_mesh(MeshHandle{5, 1}, white, Mat4::identity()));
  end_and_read();
  MeshData broken = make_box({1, 1, 1});
  broken.indices.back() = 99;
  auto added = renderer->add_mesh(broken);
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message.find("out of range"), std::string::npos) << added.error().message;
}

TEST_F(ForwardMeshTest, EveryPipelineIsMadeByCreate) {
  // Main: {Opaque, Cutout, Blend × 4} × normal map × 3 cull modes; prepass and shadow: alpha test ×
  // 3 cull modes; the sprites' biased prepass: 3 cull modes; and the skinning pass.
  EXPECT_EQ(renderer->stats().pipelines_created_total, 6u * 2 * 3 + 2 * 3 + 3 + 2 * 3 + 1);
}

TEST_F(ForwardMeshTest, PointLightLightsAPlaneWithSquaredAttenuation) {
  const MeshHandle plane = mesh(make_plane(10, 10));
  Material m;
  m.base_color = {0.8f, 0.8f, 0.8f, 1};
  m.specular = 0;
  m.mipmaps = false;
  const MaterialHandle lit = material(m);
  Camera camera = front_camera();
  camera.position = {0, 10, 0};
  camera.up = {0, 0, -1};
  ForwardFrame frame = unlit_frame(camera);
  frame.lights.ambient = {0.1f, 0.1f, 0.1f, 1};
  const PointLight3D points[1] = {{{0, 1, 0}, 4, {1, 1, 1, 1}, 1}};
  frame.lights.points = points;
  begin(frame);
  ASSERT_TRUE(renderer->draw_mesh(plane, lit, Mat4::identity()));
  const imaging::Image image = end_and_read();
  EXPECT_EQ(renderer->stats().shadow_draws, 0u);  // no sun
  for (int px : {32, 40, 50}) {
    // The pixel's centre on the plane (16 pixels per unit; the image's up is −Z).
    const float x = ((static_cast<float>(px) + 0.5f) / kSize * 2 - 1) * 2, z = ((32.5f) / kSize * 2 - 1) * 2;
    const float d = std::sqrt(x * x + 1 + z * z);
    const float fall = std::fmax(1 - d / 4, 0.0f);
    const std::uint8_t want = byte(0.8f * (0.1f + (1 / d) * fall * fall));
    expect_pixel(image, px, 32, {want, want, want, 255}, 2);
  }
}

TEST_F(ForwardMeshTest, FlatNormalMapShadesAsTheVertexNormal) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  imaging::Image flat = imaging::Image::blank(2, 2);
  for (int i = 0; i < 4; ++i) {
    flat.rgba[static_cast<std::size_t>(i) * 4 + 0] = 128;
    flat.rgba[static_cast<std::size_t>(i) * 4 + 1] = 128;
    flat.rgba[static_cast<std::size_t>(i) * 4 + 2] = 255;
    flat.rgba[static_cast<std::size_t>(i) * 4 + 3] = 255;
  }
  Material plain;
  plain.base_color = {0.7f, 0.5f, 0.3f, 1};
  plain.mipmaps = false;
  Material mapped = plain;
  mapped.normal_map = &flat;
  const MaterialHandle a = material(plain), b = material(mapped);
  Camera camera = Camera::orbit({0, 0, 0}, 30, 25, 5);
  ForwardFrame frame = unlit_frame(camera);
  frame.tonemap = true;
  frame.lights.sun = DirectionalLight{};
  imaging::Image images[2];
  for (int i = 0; i < 2; ++i) {
    begin(frame);
    ASSERT_TRUE(renderer->draw_mesh(box, i == 0 ? a : b, Mat4::rotation({0, 1, 0}, 0.3f)));
    images[i] = end_and_read();
  }
  EXPECT_LE(max_difference(images[0], images[1]), 2);
  expect_pixel(images[0], 2, 2, {0, 0, 0, 0}, 0);
  EXPECT_GT(images[0].pixel(32, 32)[3], 0);
}

// make_plane's image is upright seen from above (its top towards −Z): a normal map whose normals
// lean towards the image's top turns the plane towards a light beyond its top edge.
TEST_F(ForwardMeshTest, NormalMapLeaningTowardsTheImagesTopFacesALightBeyondItsTopEdge) {
  const MeshHandle plane = mesh(make_plane(4, 4));
  imaging::Image lean = imaging::Image::blank(2, 2);
  for (int i = 0; i < 4; ++i) {
    // (0, 0.6, 0.8): y is up the image.
    lean.rgba[static_cast<std::size_t>(i) * 4 + 0] = 128;
    lean.rgba[static_cast<std::size_t>(i) * 4 + 1] = 204;
    lean.rgba[static_cast<std::size_t>(i) * 4 + 2] = 230;
    lean.rgba[static_cast<std::size_t>(i) * 4 + 3] = 255;
  }
  Material m;
  m.base_color = {0.8f, 0.8f, 0.8f, 1};
  m.specular = 0;
  m.mipmaps = false;
  m.normal_map = &lean;
  const MaterialHandle mapped = material(m);
  Camera camera = front_camera();
  camera.position = {0, 10, 0};
  camera.up = {0, 0, -1};
  ForwardFrame frame = unlit_frame(camera);
  frame.lights.ambient = {0.05f, 0.05f, 0.05f, 1};
  int brightness[2] = {};
  for (int i = 0; i < 2; ++i) {
    const PointLight3D points[1] = {{{0, 1, i == 0 ? -3.0f : 3.0f}, 10, {1, 1, 1, 1}, 1}};  // beyond the top edge, the bottom edge
    frame.lights.points = points;
    begin(frame);
    ASSERT_TRUE(renderer->draw_mesh(plane, mapped, Mat4::identity()));
    const imaging::Image image = end_and_read();
    brightness[i] = image.pixel(32, 32)[1];
  }
  EXPECT_GT(brightness[0], brightness[1] + 20) << "lit from beyond the top: " << brightness[0] << ", from beyond the bottom: " << brightness[1];
}

// A 1 m plate 1 m above the ground, the sun at 45°: its shadow's area on the ground is the plate's
// projection (1.01 m² visible beside the plate, seen from above) on a 200 m ground as on a 6 m one:
// the shadow map is fitted to the casters, not to the ground that only receives.
TEST_F(ForwardMeshTest, ShadowFootprintOnAHugeGroundMatchesTheCastersProjection) {
  constexpr int kTarget = 128;
  constexpr float kHeight = 3;
  for (const float ground_size : {6.0f, 200.0f}) {
    auto created = ForwardRenderer::create(*device, *memory, small_options());
    ASSERT_TRUE(created) << created.error().to_string();
    auto& renderer = **created;
    auto target = RenderTarget::create(*device, *memory, kTarget, kTarget);
    ASSERT_TRUE(target) << target.error().to_string();
    auto plane = renderer.add_mesh(make_plane(ground_size, ground_size));
    auto plate = renderer.add_mesh(make_box({1, 0.02f, 1}));
    ASSERT_TRUE(plane && plate);
    Material ground;
    ground.base_color = {0.5f, 0.5f, 0.5f, 1};
    ground.specular = 0;
    ground.mipmaps = false;
    ground.casts_shadows = false;
    Material red;
    red.base_color = {1, 0, 0, 1};
    red.shaded = false;
    red.mipmaps = false;
    auto ground_material = renderer.add_material(ground), red_material = renderer.add_material(red);
    ASSERT_TRUE(ground_material && red_material);
    Camera camera = front_camera();
    camera.position = {0.5f, 10, 0};
    camera.target = {0.5f, 0, 0};
    camera.up = {0, 0, -1};
    camera.ortho_height = kHeight;
    ForwardFrame frame = unlit_frame(camera);
    frame.lights.ambient = {0.2f, 0.2f, 0.2f, 1};
    frame.lights.sun = DirectionalLight{{1, -1, 0}, {1, 1, 1, 1}, 1, true};
    ASSERT_TRUE(renderer.begin_frame(**target, frame));
    ASSERT_TRUE(renderer.draw_mesh(*plane, *ground_material, Mat4::identity()));
    ASSERT_TRUE(renderer.draw_mesh(*plate, *red_material, Mat4::translation({0, 1, 0})));
    ASSERT_TRUE(renderer.end_frame());
    auto image = (*target)->read_back(RenderTarget::Alpha::Premultiplied);
    ASSERT_TRUE(image) << image.error().to_string();
    // Shadowed ground: 0.5 × 0.2 (26); lit: 0.5 × (0.2 + cos 45°) (116); the plate: red.
    int shadowed = 0;
    for (int y = 0; y < kTarget; ++y)
      for (int x = 0; x < kTarget; ++x) {
        const std::uint8_t* p = image->pixel(x, y);
        if (p[0] == p[1] && p[1] < 71) ++shadowed;
      }
    const float pixels_per_metre = kTarget / kHeight;
    const float want = 1.01f * pixels_per_metre * pixels_per_metre;
    EXPECT_NEAR(static_cast<float>(shadowed), want, want * 0.04f) << "a " << ground_size << " m ground";
  }
}

TEST_F(ForwardMeshTest, MeshAndMaterialRemovedInsideAFrameStillDrawInIt) {
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  const MaterialHandle colour = material(unshaded({1, 1, 1, 1}));
  begin(unlit_frame(front_camera()));
  ASSERT_TRUE(renderer->draw_mesh(box, colour, Mat4::identity()));
  ASSERT_TRUE(renderer->remove_mesh(box));
  ASSERT_TRUE(renderer->remove_material(colour));
  const imaging::Image image = end_and_read();
  expect_pixel(image, 32, 32, {255, 255, 255, 255}, 0);
  for (int frame = 0; frame < 3; ++frame) {  // the retired resources are freed along the way
    begin(unlit_frame(front_camera()));
    EXPECT_FALSE(renderer->draw_mesh(box, colour, Mat4::identity()));
    end_and_read();
  }
  ASSERT_TRUE(renderer->wait_idle());
}

TEST_F(ForwardMeshTest, FramesAlternatingBetweenTwoTargetsDrawIntoEach) {
  auto second = RenderTarget::create(*device, *memory, 32, 48);
  ASSERT_TRUE(second) << second.error().to_string();
  const MeshHandle box = mesh(make_box({1, 1, 1}));
  const MaterialHandle red = material(unshaded({1, 0, 0, 1})), green = material(unshaded({0, 1, 0, 1}));
  for (int frame = 0; frame < 4; ++frame) {
    RenderTarget& into = frame % 2 == 0 ? *target : **second;
    ASSERT_TRUE(renderer->begin_frame(into, unlit_frame(front_camera())));
    ASSERT_TRUE(renderer->draw_mesh(box, frame % 2 == 0 ? red : green, Mat4::identity(), static_cast<std::uint32_t>(frame + 1)));
    ASSERT_TRUE(renderer->end_frame());
    auto image = into.read_back();
    ASSERT_TRUE(image) << image.error().to_string();
    const std::uint8_t* centre = image->pixel(into.width() / 2, into.height() / 2);
    EXPECT_EQ(centre[0], frame % 2 == 0 ? 255 : 0);
    EXPECT_EQ(centre[1], frame % 2 == 0 ? 0 : 255);
    auto id = renderer->pick(into.width() / 2, into.height() / 2);
    ASSERT_TRUE(id) << id.error().to_string();
    EXPECT_EQ(*id, std::optional<std::uint32_t>{static_cast<std::uint32_t>(frame + 1)});
    EXPECT_FALSE(renderer->pick(into.width(), 0));
  }
  renderer.reset();  // before the second target: frames in flight may still use it
}

TEST(ForwardTimestampsTest, EveryPassIsTimedOnceAFrameHasFinished) {
  DeviceOptions device_options;
  device_options.validation = true;
  auto device = Device::create(device_options);
  ASSERT_TRUE(device) << device.error().to_string();
  {
    GpuMemory memory(**device, VkDeviceSize{4} << 20);
    ForwardOptions options = small_options();
    options.timestamps = true;
    auto renderer = ForwardRenderer::create(**device, memory, options);
    ASSERT_TRUE(renderer) << renderer.error().to_string();
    auto target = RenderTarget::create(**device, memory, kSize, kSize);
    ASSERT_TRUE(target) << target.error().to_string();
    auto box = (*renderer)->add_mesh(make_box({1, 1, 1}));
    auto colour = (*renderer)->add_material(Material{});
    ASSERT_TRUE(box && colour);
    EXPECT_FALSE((*renderer)->last_pass_timings());
    ForwardFrame frame;
    frame.camera = front_camera();
    frame.lights.sun = DirectionalLight{};
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE((*renderer)->begin_frame(**target, frame));
      ASSERT_TRUE((*renderer)->draw_mesh(*box, *colour, Mat4::identity()));
      ASSERT_TRUE((*renderer)->end_frame());
    }
    if ((*device)->timestamp_period_ns() > 0) {
      const auto timings = (*renderer)->last_pass_timings();
      ASSERT_TRUE(timings);
      EXPECT_GE(timings->skinning_ms, 0);
      EXPECT_GT(timings->main_ms + timings->prepass_ms + timings->shadow_ms, 0);
    }
  }
  for (const auto& message : (*device)->validation_messages()) ADD_FAILURE() << message;
}

// A skeleton sprite goes through the same passes: its box (100 skeleton pixels, 0.01 m each) covers
// the pixels a 1 m mesh box would, in its page's colour, and is pickable.
TEST_F(ForwardMeshTest, SkeletonSpriteDrawsItsBoxAndIsPickable) {
  using namespace skel::test;
  skel::SkeletonData data;
  data.name = "sprite";
  const int bone = add_bone(data, "root", -1, 0, 0);
  const int slot = add_slot(data, "box", bone);
  const int page = add_solid_page(data, {51, 102, 204, 255});
  const std::int32_t box = add_box_region(data, slot, "box", bone, 0, 0, 100, 100, page);
  skel::SkeletonPose pose(data);
  show(pose, box);
  skel::update_world_transforms(pose);
  auto added = renderer->add_data(data);
  ASSERT_TRUE(added) << added.error().to_string();
  auto instance = renderer->add_instance(*added);
  ASSERT_TRUE(instance) << instance.error().to_string();
  SpriteDrawOptions options;
  options.shaded = false;
  options.object_id = 5;
  for (int frame = 0; frame < 2; ++frame) {
    begin(unlit_frame(front_camera()));
    ASSERT_TRUE(renderer->draw_sprite(*instance, pose, options));
    const imaging::Image image = end_and_read();
    EXPECT_EQ(renderer->stats().sprites_drawn, 1u);
    EXPECT_EQ(renderer->stats().dispatches, 1u);
    EXPECT_EQ(renderer->stats().gpu_vertices, 4u);
    expect_pixel(image, 32, 32, {51, 102, 204, 255}, 1);
    expect_pixel(image, 24, 24, {51, 102, 204, 255}, 1);
    expect_pixel(image, 39, 39, {51, 102, 204, 255}, 1);
    expect_pixel(image, 23, 32, {0, 0, 0, 0}, 0);
    expect_pixel(image, 40, 32, {0, 0, 0, 0}, 0);
    auto id = renderer->pick(32, 32);
    ASSERT_TRUE(id) << id.error().to_string();
    EXPECT_EQ(*id, std::optional<std::uint32_t>{5});
  }
  auto motion = renderer->read_motion_vectors();
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_EQ((*motion)[(32 * kSize + 32) * 2], 0.0f);
  EXPECT_FALSE(renderer->remove_data(*added));  // it still has an instance
  ASSERT_TRUE(renderer->remove_instance(*instance));
  ASSERT_TRUE(renderer->remove_data(*added));
  ASSERT_TRUE(renderer->wait_idle());
}

// A clipped slot takes the CPU path: its vertices are copied after the skinned ones.
TEST_F(ForwardMeshTest, SkeletonSpriteClippedSlotDrawsThroughTheCpuPath) {
  using namespace skel::test;
  skel::SkeletonData data;
  data.name = "clipped";
  const int bone = add_bone(data, "root", -1, 0, 0);
  const int mask_slot = add_slot(data, "mask", bone);
  const int slot = add_slot(data, "box", bone);
  const int page = add_solid_page(data, {255, 255, 255, 255});
  const std::int32_t mask = add_clipping(data, mask_slot, "mask", bone, {-60, -60, 0, -60, 0, 60, -60, 60}, slot);
  const std::int32_t box = add_box_region(data, slot, "box", bone, 0, 0, 100, 100, page);
  skel::SkeletonPose pose(data);
  show(pose, mask);
  show(pose, box);
  skel::update_world_transforms(pose);
  auto added = renderer->add_data(data);
  ASSERT_TRUE(added) << added.error().to_string();
  auto instance = renderer->add_instance(*added);
  ASSERT_TRUE(instance) << instance.error().to_string();
  SpriteDrawOptions options;
  options.shaded = false;
  begin(unlit_frame(front_camera()));
  ASSERT_TRUE(renderer->draw_sprite(*instance, pose, options));
  const imaging::Image image = end_and_read();
  EXPECT_GT(renderer->stats().cpu_vertices, 0u);
  expect_pixel(image, 26, 32, {255, 255, 255, 255}, 1);  // the kept left half
  expect_pixel(image, 30, 26, {255, 255, 255, 255}, 1);
  expect_pixel(image, 34, 32, {0, 0, 0, 0}, 0);          // the clipped right half
  expect_pixel(image, 38, 38, {0, 0, 0, 0}, 0);
}

}  // namespace
}  // namespace mf::render::testing
