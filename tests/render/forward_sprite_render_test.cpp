// Skeleton sprites in ForwardRenderer on a validated device, checked against predictions made here
// from the camera's matrices and the documented model matrix (transform × billboard ×
// scale(pixel_size, −pixel_size, pixel_size)), not from the renderer: the shadow has the art's
// silhouette (not its quad), picking, motion vectors, billboards, 2D equivalence with
// SkeletonRenderer, culling and draw order (also of coplanar slots seen at an angle). Targets are small (lavapipe).

#include "mf/render/forward_renderer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "forward_scene.hpp"
#include "render_scene.hpp"
#include "test_device.hpp"

namespace mf::render {
namespace {

using skel::BlendMode;
using skel::SkeletonData;
using skel::SkeletonPose;
using testing::ForwardRig;
using testing::Mask;
using testing::RenderTest;

// The model matrix of a sprite without billboard: transform × scale(p, −p, p).
Mat4 plain_model(const Mat4& transform, float pixel_size) { return transform * Mat4::scale({pixel_size, -pixel_size, pixel_size}); }

std::unique_ptr<SkeletonPose> posed(const SkeletonData& data, std::initializer_list<std::int32_t> shown) {
  auto pose = std::make_unique<SkeletonPose>(data);
  for (std::int32_t a : shown) testing::show(*pose, a);
  skel::update_world_transforms(*pose);
  return pose;
}

// A solid-colour skeleton: one bone, one slot, a w × h box centred on (cx, cy).
struct BoxSkeleton {
  SkeletonData data;
  std::int32_t box = -1;
  BoxSkeleton(Rgba8 colour, float cx, float cy, float w, float h) {
    using namespace skel::test;
    const int bone = add_bone(data, "root", -1);
    const int slot = add_slot(data, "box", bone);
    box = add_box_region(data, slot, "box", bone, cx, cy, w, h, testing::add_solid_page(data, colour));
  }
};

bool near_colour(const std::uint8_t* p, Rgba8 c, int tolerance = 3) {
  return testing::channel_difference(p[0], c.r) <= tolerance && testing::channel_difference(p[1], c.g) <= tolerance &&
         testing::channel_difference(p[2], c.b) <= tolerance;
}

std::string describe(const std::uint8_t* p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) + ", " + std::to_string(p[3]) + ")";
}

// ---- 1. shadows ----

// A ring standing on a lit ground plane (its foot line at z = 0, its plane XY), the sun behind and to
// the side of it, seen from straight above with an orthographic camera: the sprite is edge-on and
// hides nothing but its foot line. The shadow must be the ring's silhouette: each ground pixel under
// the camera, moved back along the light to the sprite's plane, lands on the art where its alpha is
// at least the cutoff.
TEST_F(RenderTest, SpriteShadowHasTheArtsSilhouetteNotItsQuad) {
  constexpr int kSize = 128;
  constexpr float kPixel = 0.01f;
  constexpr int kPage = 96;
  constexpr float kRingCentreY = -56;  // the ring's bottom 8 skeleton pixels above the foot
  SkeletonData data;
  std::int32_t ring = -1;
  {
    using namespace skel::test;
    const int bone = add_bone(data, "root", -1);
    const int slot = add_slot(data, "ring", bone);
    const int page = testing::add_ring_page(data, kPage, 22, 46, {220, 200, 180, 255});
    ring = add_box_region(data, slot, "ring", bone, 0, kRingCentreY, kPage, kPage, page);
  }
  auto pose = posed(data, {ring});

  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto sprites = testing::add_sprites(*rig.renderer, data);
  ASSERT_EQ(sprites.size(), 1u);
  auto plane = rig.renderer->add_mesh(make_plane(6, 6));
  ASSERT_TRUE(plane) << plane.error().to_string();
  Material ground;
  ground.base_color = {0.8f, 0.8f, 0.8f, 1};
  ground.specular = 0;
  ground.casts_shadows = false;
  ground.receives_shadows = true;
  auto material = rig.renderer->add_material(ground);
  ASSERT_TRUE(material) << material.error().to_string();

  const Vec3 light_direction{0.3f, -1, -1};  // the shadow falls towards −Z, sheared towards +X
  ForwardFrame frame;
  frame.camera.projection = Camera::Projection::Orthographic;
  frame.camera.position = {0.15f, 10, -0.55f};
  frame.camera.target = {0.15f, 0, -0.55f};
  frame.camera.up = {0, 0, -1};  // −Z (where the shadow falls) is up on the target
  frame.camera.ortho_height = 1.6f;
  frame.camera.near_plane = 0.1f;
  frame.camera.far_plane = 50;
  frame.lights.ambient = {0.2f, 0.2f, 0.2f, 1};
  DirectionalLight sun;
  sun.direction = light_direction;
  sun.shadows = true;
  frame.lights.sun = sun;
  frame.tonemap = false;

  SpriteDrawOptions options;
  options.pixel_size = kPixel;
  options.alpha_cutoff = 0.5f;
  const imaging::Image image = testing::render_forward(rig, frame, [&] {
    testing::expect_drawn(rig.renderer->draw_mesh(*plane, *material, Mat4::identity()));
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, options));
  });
  EXPECT_EQ(rig.renderer->stats().sprites_drawn, 1u);
  EXPECT_EQ(rig.renderer->stats().meshes_drawn, 1u);

  // Expected masks: the ring (alpha ≥ cutoff) and its quad, through the light onto the ground.
  const Mat4 view_projection = frame.camera.view_projection(rig.aspect());
  const Mat4 inverse_vp = view_projection.inverse();
  const Mat4 to_skeleton = plain_model(Mat4::identity(), kPixel).inverse();
  const skel::Page& page = data.pages[0];
  const float left = -kPage / 2.0f, top = kRingCentreY - kPage / 2.0f;
  Mask expected(kSize, kSize), quad(kSize, kSize), foot(kSize, kSize);
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const testing::Ray ray = testing::pixel_ray(inverse_vp, static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f, kSize, kSize);
      const auto ground_point = testing::intersect_plane(ray.origin, ray.direction, {0, 0, 0}, {0, 1, 0});
      ASSERT_TRUE(ground_point);
      foot.set(x, y, std::abs(ground_point->z) < 0.05f);  // the edge-on sprite's foot line
      // Back along the light to the sprite's plane (z = 0).
      const float t = ground_point->z / light_direction.z;
      if (t <= 0) continue;
      const Vec3 on_sprite = *ground_point - light_direction * t;
      const Vec3 s = to_skeleton.transform_point(on_sprite);
      const float u = (s.x - left) / kPage, v = (s.y - top) / kPage;
      if (u < 0 || v < 0 || u > 1 || v > 1) continue;
      quad.set(x, y, true);
      expected.set(x, y, testing::page_alpha(page, u, v) >= options.alpha_cutoff);
    }
  ASSERT_GT(expected.eroded(3).count(), 200) << "the scene does not show the shadow";

  // Measured mask: darker than halfway between the lit ground and the full shadow.
  auto level = [&](int x, int y) { return static_cast<float>(image.pixel(x, y)[1]); };
  const Mask near_quad = quad.dilated(3), deep = expected.eroded(3);
  std::vector<float> lit_samples, shadow_samples;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      if (!near_quad.at(x, y) && !foot.at(x, y)) lit_samples.push_back(level(x, y));
      if (deep.at(x, y) && !foot.at(x, y)) shadow_samples.push_back(level(x, y));
    }
  const float lit = testing::median(lit_samples), shadowed = testing::median(shadow_samples);
  ASSERT_GT(lit - shadowed, 40) << "lit ground " << lit << ", inside the shadow " << shadowed << ": no shadow";
  const float threshold = lit - 0.5f * (lit - shadowed);
  Mask measured(kSize, kSize);
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) measured.set(x, y, level(x, y) < threshold);

  Mask ignore = expected.edges();
  Mask ignore_quad = quad.edges();
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x)
      if (foot.at(x, y)) ignore.set(x, y, true), ignore_quad.set(x, y, true);
  const double silhouette_iou = testing::iou(measured, expected, ignore);
  const double quad_iou = testing::iou(measured, quad, ignore_quad);
  EXPECT_GE(silhouette_iou, 0.9) << "the shadow does not match the ring's silhouette (lit " << lit << ", shadowed "
                                 << shadowed << ", measured " << measured.count() << " px, expected " << expected.count() << " px)";
  EXPECT_LE(quad_iou, 0.8) << "the shadow is the sprite's quad, not its art";
}

// ---- 2. picking ----

// A ring (object 7) in front of a solid square (object 11) that overlaps the ring's right side.
TEST_F(RenderTest, PickReturnsTheFrontSpriteWhereItsArtIsOpaque) {
  constexpr int kSize = 128;
  constexpr float kPixel = 0.01f;
  SkeletonData front;
  std::int32_t ring = -1;
  {
    using namespace skel::test;
    const int bone = add_bone(front, "root", -1);
    const int slot = add_slot(front, "ring", bone);
    ring = add_box_region(front, slot, "ring", bone, 0, 0, 64, 64, testing::add_ring_page(front, 64, 14, 30, {200, 60, 60, 255}));
  }
  BoxSkeleton back({60, 60, 200, 255}, 38, 0, 40, 40);  // x 18…58, y −20…20
  auto front_pose = posed(front, {ring});
  auto back_pose = posed(back.data, {back.box});

  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto front_sprite = testing::add_sprites(*rig.renderer, front);
  const auto back_sprite = testing::add_sprites(*rig.renderer, back.data);
  ASSERT_EQ(front_sprite.size() + back_sprite.size(), 2u);

  ForwardFrame frame;
  frame.camera = testing::pixel_exact_camera({0, 0, 0}, kSize, kPixel);
  frame.tonemap = false;
  SpriteDrawOptions front_options, back_options;
  front_options.pixel_size = back_options.pixel_size = kPixel;
  front_options.shaded = back_options.shaded = false;
  front_options.object_id = 7;
  back_options.object_id = 11;
  back_options.transform = Mat4::translation({0, 0, -1});
  // The front one first: the depth test, not the call order, decides.
  (void)testing::render_forward(rig, frame, [&] {
    testing::expect_drawn(rig.renderer->draw_sprite(front_sprite[0], *front_pose, front_options));
    testing::expect_drawn(rig.renderer->draw_sprite(back_sprite[0], *back_pose, back_options));
  });

  // The target pixel whose centre shows skeleton point (sx + 0.5, sy + 0.5): (64 + sx, 64 + sy).
  const Mat4 view_projection = frame.camera.view_projection(rig.aspect());
  auto pick_at = [&](float sx, float sy) -> std::optional<std::uint32_t> {
    const Vec2 p = testing::project_to_pixel(view_projection, plain_model(Mat4::identity(), kPixel).transform_point({sx + 0.5f, sy + 0.5f, 0}), kSize, kSize);
    auto picked = rig.renderer->pick(static_cast<int>(p.x), static_cast<int>(p.y));
    EXPECT_TRUE(picked) << picked.error().to_string();
    return picked ? *picked : std::nullopt;
  };
  EXPECT_EQ(pick_at(24, 0), std::optional<std::uint32_t>(7)) << "the ring's body over the square";
  EXPECT_EQ(pick_at(-24, 0), std::optional<std::uint32_t>(7)) << "the ring's body alone";
  EXPECT_EQ(pick_at(46, 0), std::optional<std::uint32_t>(11)) << "the square alone";
  EXPECT_EQ(pick_at(38, 16), std::optional<std::uint32_t>(11)) << "the square below the ring's quad";
  EXPECT_EQ(pick_at(0, 0), std::nullopt) << "the ring's hole: transparent, nothing behind";
  EXPECT_EQ(pick_at(-28, -28), std::nullopt) << "the ring quad's transparent corner";
  EXPECT_EQ(pick_at(-55, 50), std::nullopt) << "background";
}

// ---- 3. motion vectors ----

TEST_F(RenderTest, MotionVectorsAreZeroWhenStillAndFollowAMovedBone) {
  constexpr int kSize = 128;
  constexpr float kPixel = 0.01f;
  constexpr float kMoveX = 6, kMoveY = -4;  // skeleton pixels
  SkeletonData data;
  int still_bone = 0, moving_bone = 0;
  std::int32_t still_box = -1, moving_box = -1;
  {
    using namespace skel::test;
    const int root = add_bone(data, "root", -1);
    still_bone = add_bone(data, "still", root, -25, 0);
    moving_bone = add_bone(data, "moving", root, 25, 0);
    const int page = testing::add_solid_page(data, {200, 180, 160, 255});
    still_box = add_box_region(data, add_slot(data, "still", still_bone), "still", still_bone, 0, 0, 30, 30, page);
    moving_box = add_box_region(data, add_slot(data, "moving", moving_bone), "moving", moving_bone, 0, 0, 30, 30, page);
  }
  auto pose = posed(data, {still_box, moving_box});

  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto sprites = testing::add_sprites(*rig.renderer, data);
  ASSERT_EQ(sprites.size(), 1u);
  ForwardFrame frame;
  frame.camera = Camera::orbit({0, 0, 0}, 20, 10, 1.6f);  // perspective, at an angle to the sprite
  frame.tonemap = false;
  SpriteDrawOptions options;
  options.pixel_size = kPixel;
  options.shaded = false;
  options.object_id = 1;
  auto draw = [&] { testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, options)); };
  const std::size_t floats = static_cast<std::size_t>(kSize) * kSize * 2;

  for (int still_frame = 1; still_frame <= 2; ++still_frame) {
    (void)testing::render_forward(rig, frame, draw);
    auto vectors = rig.renderer->read_motion_vectors();
    ASSERT_TRUE(vectors) << vectors.error().to_string();
    ASSERT_EQ(vectors->size(), floats);
    int moving = 0;
    for (float v : *vectors) moving += std::abs(v) >= 1e-3f;
    EXPECT_EQ(moving, 0) << "still frame " << still_frame << ": " << moving << " motion components are not 0";
  }

  pose->x[static_cast<std::size_t>(moving_bone)] += kMoveX;
  pose->y[static_cast<std::size_t>(moving_bone)] += kMoveY;
  skel::update_world_transforms(*pose);
  (void)testing::render_forward(rig, frame, draw);
  auto vectors = rig.renderer->read_motion_vectors();
  ASSERT_TRUE(vectors) << vectors.error().to_string();
  ASSERT_EQ(vectors->size(), floats);

  // Each pixel's surface point (skeleton space, this frame) and where it was in the last frame.
  const Mat4 model = plain_model(Mat4::identity(), kPixel);
  const Mat4 view_projection = frame.camera.view_projection(rig.aspect());
  const float moved_x = 25 + kMoveX, moved_y = kMoveY;
  constexpr float kHalf = 15 - 3;  // interior: 3 skeleton pixels in from the box's edges
  int moving_checked = 0, moving_wrong = 0, still_checked = 0, still_wrong = 0;
  std::string first_wrong;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const float px = static_cast<float>(x) + 0.5f, py = static_cast<float>(y) + 0.5f;
      const auto s = testing::sprite_point_under(model, view_projection, px, py, kSize, kSize);
      if (!s) continue;
      const std::size_t i = (static_cast<std::size_t>(y) * kSize + static_cast<std::size_t>(x)) * 2;
      const float vx = (*vectors)[i], vy = (*vectors)[i + 1];
      if (std::abs(s->x - moved_x) <= kHalf && std::abs(s->y - moved_y) <= kHalf) {
        const Vec2 before = testing::project_to_pixel(view_projection, model.transform_point({s->x - kMoveX, s->y - kMoveY, 0}), kSize, kSize);
        const float ex = px - before.x, ey = py - before.y;
        ++moving_checked;
        if (std::abs(vx - ex) > 0.5f || std::abs(vy - ey) > 0.5f) {
          if (moving_wrong++ == 0)
            first_wrong = "pixel (" + std::to_string(x) + ", " + std::to_string(y) + "): expected (" + std::to_string(ex) + ", " +
                          std::to_string(ey) + "), got (" + std::to_string(vx) + ", " + std::to_string(vy) + ")";
        }
      } else if (std::abs(s->x + 25) <= kHalf && std::abs(s->y) <= kHalf) {
        ++still_checked;
        still_wrong += std::abs(vx) >= 1e-3f || std::abs(vy) >= 1e-3f;
      }
    }
  ASSERT_GT(moving_checked, 200);
  ASSERT_GT(still_checked, 200);
  EXPECT_EQ(moving_wrong, 0) << moving_wrong << " of " << moving_checked << " pixels of the moved box; first: " << first_wrong;
  EXPECT_EQ(still_wrong, 0) << still_wrong << " of " << still_checked << " pixels of the still box moved";
}

// ---- 4. billboards ----

TEST_F(RenderTest, BillboardsTurnTheSpriteTowardsTheCamera) {
  constexpr int kSize = 96;
  BoxSkeleton box({255, 255, 255, 255}, 0, 0, 64, 64);  // centred on the sprite's origin
  auto pose = posed(box.data, {box.box});
  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto sprites = testing::add_sprites(*rig.renderer, box.data);
  ASSERT_EQ(sprites.size(), 1u);

  auto covered_pixels = [&](const Camera& camera, SkeletonBillboard billboard) {
    ForwardFrame frame;
    frame.camera = camera;
    frame.clear = {0, 0, 0, 0};
    frame.tonemap = false;
    SpriteDrawOptions options;
    options.pixel_size = 0.02f;
    options.shaded = false;
    options.billboard = billboard;
    const imaging::Image image = testing::render_forward(rig, frame, [&] {
      testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, options));
    });
    return testing::covered(image).count();
  };
  const Camera head_on = Camera::orbit({0, 0, 0}, 0, 0, 3);
  const Camera side = Camera::orbit({0, 0, 0}, 90, 0, 3);      // on +X, looking along −X
  const Camera above = Camera::orbit({0, 0, 0}, 90, 60, 3);    // on +X, pitched 60°
  const int facing = covered_pixels(head_on, SkeletonBillboard::None);
  ASSERT_GT(facing, 1000);
  EXPECT_LE(covered_pixels(side, SkeletonBillboard::None), facing / 50) << "without billboard the sprite is edge-on";
  EXPECT_NEAR(covered_pixels(side, SkeletonBillboard::Y), facing, facing * 0.05) << "Y billboard";
  EXPECT_NEAR(covered_pixels(above, SkeletonBillboard::Full), facing, facing * 0.05) << "Full billboard";

  // The plane's normal (local +Z through the model matrix) points at the camera.
  auto normal_of = [](SkeletonBillboard billboard, const Camera& camera) {
    SpriteDrawOptions options;
    options.billboard = billboard;
    return normalize(sprite_model_matrix(options, camera).transform_vector({0, 0, 1}));
  };
  const Vec3 y_normal = normal_of(SkeletonBillboard::Y, side);
  EXPECT_GT(dot(y_normal, normalize(side.position)), 0.999f);
  const Vec3 y_normal_above = normal_of(SkeletonBillboard::Y, above);
  EXPECT_NEAR(y_normal_above.y, 0, 1e-4f) << "Y billboards stay upright";
  EXPECT_GT(dot(y_normal_above, normalize(Vec3{above.position.x, 0, above.position.z})), 0.999f);
  EXPECT_GT(dot(normal_of(SkeletonBillboard::Full, above), normalize(above.position)), 0.999f);
  EXPECT_GT(dot(normal_of(SkeletonBillboard::None, side), Vec3{0, 0, 1}), 0.999f);
}

// ---- 5. the same pixels as the canvas ----

// Two overlapping slots (slot colours, one with a dark colour and a translucent light colour) and an
// additive slot over them, drawn unshaded by an orthographic camera at one skeleton pixel per target
// pixel: every pixel equals SkeletonRenderer's canvas render of the same pose, but at silhouette edges.
TEST_F(RenderTest, AnUnshadedSpriteFacingAnOrthographicCameraMatchesTheCanvas) {
  constexpr int kSize = 96;
  constexpr float kPixel = 0.01f;
  SkeletonData data;
  std::int32_t back = -1, front = -1, glow = -1;
  {
    using namespace skel::test;
    const int root = add_bone(data, "root", -1);
    const int arm = add_bone(data, "arm", root, 4, 2);
    const int back_slot = add_slot(data, "back", root, {255, 200, 150, 255});
    const int front_slot = add_slot(data, "front", arm, {200, 255, 220, 230});
    const int glow_slot = add_slot(data, "glow", root, {255, 180, 120, 255});
    data.slots.dark[static_cast<std::size_t>(front_slot)] = {40, 0, 120, 255};
    data.slots.has_dark[static_cast<std::size_t>(front_slot)] = 1;
    data.slots.blend[static_cast<std::size_t>(glow_slot)] = BlendMode::Additive;
    // 32 × 32 gradients: one texel per target pixel, so the sampling is exact on both paths.
    const int gradient = testing::add_page(data, 32, 32, [](int x, int y, std::uint8_t* p) {
      p[0] = static_cast<std::uint8_t>(8 * x);
      p[1] = static_cast<std::uint8_t>(8 * y);
      p[2] = 200;
      p[3] = 255;
    });
    const int diagonal = testing::add_page(data, 32, 32, [](int x, int y, std::uint8_t* p) {
      p[0] = static_cast<std::uint8_t>(255 - 4 * (x + y));
      p[1] = 90;
      p[2] = static_cast<std::uint8_t>(4 * (x + y));
      p[3] = 255;
    });
    back = add_box_region(data, back_slot, "back", root, -8, -4, 32, 32, gradient);
    front = add_box_region(data, front_slot, "front", arm, 4, 4, 32, 32, diagonal);
    glow = add_box_region(data, glow_slot, "glow", root, 0, 16, 32, 16, gradient);
  }
  auto pose = posed(data, {back, front, glow});
  const ColorF clear{0.1f, 0.12f, 0.15f, 1};
  const ColorF tint{0.9f, 1, 0.8f, 1};

  // The canvas: the view's top-left at (−48, −48), so the skeleton's origin is the target's centre.
  const View view{-kSize / 2.0f, -kSize / 2.0f, 0, 0};
  imaging::Image canvas, canvas_alpha;
  {
    RendererOptions options;
    options.max_gpu_vertices = 1024;
    options.max_cpu_vertices = 1024;
    options.upload_bytes_per_slot = 1 << 18;
    auto renderer = SkeletonRenderer::create(*device, *memory, options);
    ASSERT_TRUE(renderer) << renderer.error().to_string();
    auto target = RenderTarget::create(*device, *memory, kSize, kSize);
    ASSERT_TRUE(target) << target.error().to_string();
    auto handle = (*renderer)->add_data(data);
    ASSERT_TRUE(handle) << handle.error().to_string();
    auto instance = (*renderer)->add_instance(*handle);
    ASSERT_TRUE(instance);
    DrawOptions draw;
    draw.tint = tint;
    for (const ColorF background : {clear, ColorF{0, 0, 0, 0}}) {
      ASSERT_TRUE((*renderer)->begin_frame(**target, view, background));
      ASSERT_TRUE((*renderer)->draw(*instance, *pose, draw));
      ASSERT_TRUE((*renderer)->end_frame());
      auto image = (*target)->read_back();
      ASSERT_TRUE(image) << image.error().to_string();
      (background.a > 0 ? canvas : canvas_alpha) = std::move(*image);
    }
  }

  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto sprites = testing::add_sprites(*rig.renderer, data);
  ASSERT_EQ(sprites.size(), 1u);
  ForwardFrame frame;
  frame.camera = testing::pixel_exact_camera({0, 0, 0}, kSize, kPixel);
  frame.clear = clear;
  frame.tonemap = false;
  SpriteDrawOptions options;
  options.pixel_size = kPixel;
  options.shaded = false;
  options.tint = tint;
  const imaging::Image forward = testing::render_forward(rig, frame, [&] {
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, options));
  });
  ASSERT_EQ(forward.width, canvas.width);
  ASSERT_EQ(forward.height, canvas.height);

  // Silhouette edges: pixels the art covers partly (canvas alpha over a transparent clear neither 0
  // nor 255) and their 8 neighbours.
  Mask partial(kSize, kSize);
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const std::uint8_t a = canvas_alpha.pixel(x, y)[3];
      partial.set(x, y, a != 0 && a != 255);
    }
  const Mask edge = partial.dilated(1);
  int compared = 0, differing = 0, worst = 0;
  std::string first;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      if (edge.at(x, y)) continue;
      ++compared;
      const std::uint8_t *a = forward.pixel(x, y), *b = canvas.pixel(x, y);
      int most = 0;
      for (int c = 0; c < 4; ++c) most = std::max(most, testing::channel_difference(a[c], b[c]));
      worst = std::max(worst, most);
      if (most > 2 && differing++ == 0)
        first = "pixel (" + std::to_string(x) + ", " + std::to_string(y) + "): forward " + describe(a) + ", canvas " + describe(b);
    }
  EXPECT_GT(compared, kSize * kSize / 2);
  EXPECT_EQ(differing, 0) << differing << " of " << compared << " pixels differ by more than 2/255 (worst " << worst
                          << "); first: " << first;
}

// ---- 6. culling ----

TEST_F(RenderTest, SpritesOutsideTheFrustumAreCulledAndDrawNothing) {
  constexpr int kSize = 64;
  BoxSkeleton box({230, 120, 40, 255}, 0, 0, 40, 40);
  auto pose = posed(box.data, {box.box});
  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto sprites = testing::add_sprites(*rig.renderer, box.data, 3);
  ASSERT_EQ(sprites.size(), 3u);
  ForwardFrame frame;
  frame.camera = Camera::orbit({0, 0, 0}, 0, 0, 3);  // at z = 3 looking along −Z
  frame.clear = {0.1f, 0.1f, 0.2f, 1};
  frame.tonemap = false;
  SpriteDrawOptions visible, behind, aside;
  for (SpriteDrawOptions* o : {&visible, &behind, &aside}) o->shaded = false;
  behind.transform = Mat4::translation({0, 0, 8});
  aside.transform = Mat4::translation({40, 0, 0});

  const imaging::Image alone = testing::render_forward(rig, frame, [&] {
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, visible));
  });
  const ForwardStats alone_stats = rig.renderer->stats();
  EXPECT_EQ(alone_stats.sprites_drawn, 1u);
  EXPECT_EQ(alone_stats.sprites_culled, 0u);
  EXPECT_GT(alone_stats.main_draws, 0u);

  const imaging::Image all = testing::render_forward(rig, frame, [&] {
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[1], *pose, behind));
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, visible));
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[2], *pose, aside));
  });
  const ForwardStats all_stats = rig.renderer->stats();
  EXPECT_EQ(all_stats.sprites_drawn, 1u);
  EXPECT_EQ(all_stats.sprites_culled, 2u);
  EXPECT_EQ(all_stats.main_draws, alone_stats.main_draws);
  EXPECT_EQ(all_stats.prepass_draws, alone_stats.prepass_draws);
  EXPECT_EQ(all_stats.shadow_draws, alone_stats.shadow_draws);
  EXPECT_EQ(testing::max_difference(all, alone), 0);

  const imaging::Image none = testing::render_forward(rig, frame, [&] {
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[1], *pose, behind));
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[2], *pose, aside));
  });
  const ForwardStats none_stats = rig.renderer->stats();
  EXPECT_EQ(none_stats.sprites_drawn, 0u);
  EXPECT_EQ(none_stats.sprites_culled, 2u);
  EXPECT_EQ(none_stats.main_draws, 0u);
  EXPECT_EQ(none_stats.prepass_draws, 0u);
  EXPECT_EQ(none_stats.gpu_vertices, 0u);
  int drawn = 0;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) drawn += !near_colour(none.pixel(x, y), {26, 26, 51, 255}, 1);
  EXPECT_EQ(drawn, 0) << "culled sprites drew pixels";
}

// ---- 7. draw order ----

// Two slots of one sprite on one plane: the later in draw order is on top, whichever it is.
TEST_F(RenderTest, LaterSlotsInDrawOrderAreDrawnOverEarlierOnes) {
  constexpr int kSize = 64;
  constexpr float kPixel = 0.01f;
  const Rgba8 red{220, 30, 30, 255}, blue{30, 40, 220, 255};
  SkeletonData data;
  std::int32_t first = -1, second = -1;
  {
    using namespace skel::test;
    const int bone = add_bone(data, "root", -1);
    first = add_box_region(data, add_slot(data, "first", bone), "first", bone, -6, 0, 24, 24, testing::add_solid_page(data, red));
    second = add_box_region(data, add_slot(data, "second", bone), "second", bone, 6, 0, 24, 24, testing::add_solid_page(data, blue));
  }
  auto pose = posed(data, {first, second});
  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto sprites = testing::add_sprites(*rig.renderer, data);
  ASSERT_EQ(sprites.size(), 1u);
  ForwardFrame frame;
  frame.camera = testing::pixel_exact_camera({0, 0, 0}, kSize, kPixel);
  frame.tonemap = false;
  SpriteDrawOptions options;
  options.pixel_size = kPixel;
  options.shaded = false;
  options.slot_depth_offset = 0;
  // Skeleton (sx, sy) is at target pixel (32 + sx, 32 + sy): the overlap is x −6…6.
  const int overlap = 32, first_only = 32 - 14, second_only = 32 + 14;
  for (const bool swapped : {false, true}) {
    pose->draw_order = swapped ? std::vector<std::uint16_t>{1, 0} : std::vector<std::uint16_t>{0, 1};
    const imaging::Image image = testing::render_forward(rig, frame, [&] {
      testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, options));
    });
    const Rgba8 top = swapped ? red : blue;
    EXPECT_TRUE(near_colour(image.pixel(overlap, 32), top)) << (swapped ? "swapped" : "setup") << " draw order: the overlap is "
                                                            << describe(image.pixel(overlap, 32));
    EXPECT_TRUE(near_colour(image.pixel(first_only, 32), red)) << describe(image.pixel(first_only, 32));
    EXPECT_TRUE(near_colour(image.pixel(second_only, 32), blue)) << describe(image.pixel(second_only, 32));
  }
}

// Two overlapping slots of one sprite on one plane (slot_depth_offset 0) seen at an angle through a
// perspective camera: the later slot covers the earlier at every pixel of the overlap (coplanar
// triangles interpolate slightly different depths; the sprite's prepass depth must not make its own
// later slot fail the depth test); a box 2 cm in front of the sprite still hides it.
TEST_F(RenderTest, CoplanarSlotsSeenAtAnAngleDrawTheLaterSlotAtEveryOverlapPixel) {
  constexpr int kSize = 128;
  constexpr float kPixel = 0.01f;
  const Rgba8 red{220, 30, 30, 255}, blue{30, 40, 220, 255};
  SkeletonData data;
  std::int32_t first = -1, second = -1;
  {
    using namespace skel::test;
    const int bone = add_bone(data, "root", -1);
    first = add_box_region(data, add_slot(data, "first", bone), "first", bone, -20, 0, 80, 80, testing::add_solid_page(data, red));
    second = add_box_region(data, add_slot(data, "second", bone), "second", bone, 20, 0, 80, 80, testing::add_solid_page(data, blue));
  }
  auto pose = posed(data, {first, second});
  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto sprites = testing::add_sprites(*rig.renderer, data);
  ASSERT_EQ(sprites.size(), 1u);
  auto box_mesh = rig.renderer->add_mesh(make_box({0.2f, 0.2f, 0.02f}));
  ASSERT_TRUE(box_mesh) << box_mesh.error().to_string();
  Material green_material;
  green_material.base_color = {0, 1, 0, 1};
  green_material.shaded = false;
  green_material.mipmaps = false;
  auto green = rig.renderer->add_material(green_material);
  ASSERT_TRUE(green) << green.error().to_string();

  ForwardFrame frame;
  frame.camera = Camera::orbit({0, 0, 0}, 30, 30, 2.2f);
  frame.clear = {0, 0, 0, 1};
  frame.tonemap = false;
  SpriteDrawOptions options;
  options.pixel_size = kPixel;
  options.shaded = false;
  options.slot_depth_offset = 0;
  const Mat4 model = plain_model(options.transform, kPixel);
  const Mat4 view_projection = frame.camera.view_projection(1.0f);
  // The box's back face 2 cm in front of the sprite's plane (z 0.02 … 0.04), at (0.2, −0.2).
  const Vec3 box_centre{0.2f, -0.2f, 0.03f};
  const imaging::Image image = testing::render_forward(rig, frame, [&] {
    testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, options));
    testing::expect_drawn(rig.renderer->draw_mesh(*box_mesh, *green, Mat4::translation(box_centre)));
  });
  // Inside the overlap (skeleton x −20…20, y −40…40) at the pixel's centre and at its four
  // neighbours' centres: away from the overlap's edges by a pixel.
  const auto in_overlap = [&](float px, float py) {
    const auto p = testing::sprite_point_under(model, view_projection, px, py, kSize, kSize);
    return p && p->x > -20 && p->x < 20 && p->y > -40 && p->y < 40;
  };
  const Vec2 box_pixel = testing::project_to_pixel(view_projection, box_centre + Vec3{0, 0, 0.01f}, kSize, kSize);
  int checked = 0, wrong = 0;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const float cx = static_cast<float>(x) + 0.5f, cy = static_cast<float>(y) + 0.5f;
      if (!in_overlap(cx, cy) || !in_overlap(cx - 1, cy) || !in_overlap(cx + 1, cy) || !in_overlap(cx, cy - 1) || !in_overlap(cx, cy + 1))
        continue;
      if (std::abs(cx - box_pixel.x) < 16 && std::abs(cy - box_pixel.y) < 16) continue;  // near the box
      ++checked;
      if (!near_colour(image.pixel(x, y), blue)) {
        if (wrong < 5) ADD_FAILURE() << "overlap pixel (" << x << ", " << y << ") is " << describe(image.pixel(x, y));
        ++wrong;
      }
    }
  EXPECT_GT(checked, 300);
  EXPECT_EQ(wrong, 0) << "of " << checked << " overlap pixels";
  EXPECT_TRUE(near_colour(image.pixel(static_cast<int>(box_pixel.x), static_cast<int>(box_pixel.y)), {0, 255, 0, 255}))
      << "the box in front of the sprite: " << describe(image.pixel(static_cast<int>(box_pixel.x), static_cast<int>(box_pixel.y)));
}

// Two sprites at different distances: the nearer one covers the farther one in either call order.
TEST_F(RenderTest, TheNearerSpriteIsDrawnOverTheFartherOneInEitherCallOrder) {
  constexpr int kSize = 96;
  BoxSkeleton box({255, 255, 255, 255}, 0, 0, 40, 40);
  auto pose = posed(box.data, {box.box});
  ForwardRig rig = testing::make_forward_rig(*device, *memory, kSize, kSize);
  ASSERT_TRUE(rig.renderer && rig.target);
  const auto sprites = testing::add_sprites(*rig.renderer, box.data, 2);
  ASSERT_EQ(sprites.size(), 2u);
  ForwardFrame frame;
  frame.camera = Camera::orbit({0, 0, 0}, 0, 0, 3);
  frame.clear = {0, 0, 0, 1};
  frame.tonemap = false;
  SpriteDrawOptions near_sprite, far_sprite;
  near_sprite.shaded = far_sprite.shaded = false;
  near_sprite.tint = {0, 1, 0, 1};
  far_sprite.tint = {1, 0, 0, 1};
  near_sprite.transform = Mat4::translation({-0.1f, 0, 0});  // x −0.3…0.1 at z = 0
  far_sprite.transform = Mat4::translation({0.1f, 0, -1});   // x −0.1…0.3 at z = −1
  const Mat4 view_projection = frame.camera.view_projection(static_cast<float>(kSize) / static_cast<float>(kSize));
  auto pixel_of = [&](Vec3 world) {
    const Vec2 p = testing::project_to_pixel(view_projection, world, kSize, kSize);
    return std::pair{static_cast<int>(p.x), static_cast<int>(p.y)};
  };
  const auto both = pixel_of({0, 0, 0});       // inside the near quad, and in front of the far one
  const auto far_only = pixel_of({0.25f, 0, -1});
  const auto near_only = pixel_of({-0.25f, 0, 0});
  const Rgba8 green{0, 255, 0, 255}, red{255, 0, 0, 255};
  for (const bool near_first : {true, false}) {
    const imaging::Image image = testing::render_forward(rig, frame, [&] {
      if (near_first) testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, near_sprite));
      testing::expect_drawn(rig.renderer->draw_sprite(sprites[1], *pose, far_sprite));
      if (!near_first) testing::expect_drawn(rig.renderer->draw_sprite(sprites[0], *pose, near_sprite));
    });
    const char* order = near_first ? "near drawn first" : "far drawn first";
    EXPECT_TRUE(near_colour(image.pixel(both.first, both.second), green)) << order << ": the overlap is "
                                                                          << describe(image.pixel(both.first, both.second));
    EXPECT_TRUE(near_colour(image.pixel(far_only.first, far_only.second), red)) << order;
    EXPECT_TRUE(near_colour(image.pixel(near_only.first, near_only.second), green)) << order;
  }
}

}  // namespace
}  // namespace mf::render
