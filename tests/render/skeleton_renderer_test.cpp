// The skeleton renderer end to end on a validated device: GPU skinning against the CPU path, proof
// that the compute path ran, pipeline prebuild, run caching, culling, batching, sampling options,
// golden images (tests/data/render/*.png, ≤ 2/255 per channel; MF_UPDATE_GOLDENS=1 rewrites them)
// and the example rig when its pages carry pixels.

#include "mf/render/skeleton_renderer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/skel/skin_composer.hpp"
#include "render_scene.hpp"
#include "test_device.hpp"

namespace mf::render {
namespace {

using skel::BlendMode;
using skel::SkeletonData;
using skel::SkeletonPose;
using testing::RenderTest;

constexpr int kGoldenTolerance = 2;  // per channel, in 1/255
constexpr int kPathTolerance = 2;    // GPU- against CPU-skinned image of the same pose

// A 64 × 64 scene with every geometry path: a weighted 8-vertex mesh over two bones with deform,
// an additive region on the second bone, a two-frame sequence, and a region clipped by a triangle.
struct FeatureScene {
  SkeletonData data;
  int root = 0, arm = 0;
  int body_slot = 0, hand_slot = 0, seq_slot = 0, mask_slot = 0, clipped_slot = 0;
  std::int32_t body = -1, hand = -1, seq = -1, mask = -1, clipped = -1;

  explicit FeatureScene(bool with_clipping = true) {
    using namespace skel::test;
    root = add_bone(data, "root", -1, 10, 14);
    arm = add_bone(data, "arm", root, 24, 0);
    body_slot = add_slot(data, "body", root);
    hand_slot = add_slot(data, "hand", arm, {255, 220, 160, 200});
    seq_slot = add_slot(data, "seq", root);
    mask_slot = add_slot(data, "mask", root);
    clipped_slot = add_slot(data, "clipped", root, {180, 255, 200, 255});
    data.slots.blend[static_cast<std::size_t>(hand_slot)] = BlendMode::Additive;
    // Page 0: a colour gradient, so UVs matter; page 1: two frames (red | blue).
    const int gradient = testing::add_page(data, 8, 8, [](int x, int y, std::uint8_t* p) {
      p[0] = static_cast<std::uint8_t>(32 * x);
      p[1] = static_cast<std::uint8_t>(32 * y);
      p[2] = 200;
      p[3] = 255;
    });
    const int frames = testing::add_page(data, 8, 4, [](int x, int, std::uint8_t* p) {
      p[0] = x < 4 ? 230 : 30;
      p[1] = 40;
      p[2] = x < 4 ? 30 : 230;
      p[3] = 255;
    });
    // The weighted mesh: 4 columns × 2 rows in root space (x 0…24, y 0…20), column c weighted c/3
    // to the arm (arm-space positions are the root-space ones minus the arm's offset).
    std::vector<TestVertex> vertices;
    std::vector<float> uvs;
    for (int row = 0; row < 2; ++row)
      for (int col = 0; col < 4; ++col) {
        const float x = 8.0f * static_cast<float>(col), y = 20.0f * static_cast<float>(row);
        const float w = static_cast<float>(col) / 3.0f;
        TestVertex v;
        if (w < 1) v.push_back({root, 1 - w, x, y});
        if (w > 0) v.push_back({arm, w, x - 24, y});
        vertices.push_back(v);
        uvs.push_back(static_cast<float>(col) / 3.0f);
        uvs.push_back(static_cast<float>(row));
      }
    std::vector<std::uint16_t> triangles;
    for (std::uint16_t c = 0; c < 3; ++c) {
      const std::uint16_t a = c, b = static_cast<std::uint16_t>(c + 1), d = static_cast<std::uint16_t>(c + 4),
                          e = static_cast<std::uint16_t>(c + 5);
      triangles.insert(triangles.end(), {a, b, e, e, d, a});
    }
    body = add_geometry(data, skel::AttachmentKind::Mesh, body_slot, "body", vertices, uvs, triangles);
    data.regions.push_back({gradient, 0, 0, 1, 1, 8, 8});
    data.attachments[static_cast<std::size_t>(body)].region_start = static_cast<std::uint32_t>(data.regions.size() - 1);
    data.attachments[static_cast<std::size_t>(body)].region_count = 1;
    hand = add_box_region(data, hand_slot, "hand", arm, 2, 8, 14, 14, gradient);
    const std::uint32_t frame0 = add_region_frame(data, 0, 0, 0.5f, 1, frames);
    add_region_frame(data, 0.5f, 0, 1, 1, frames);
    seq = add_region(data, seq_slot, "seq", root, {-8, 28, 4, 28, 4, 40, -8, 40}, frame0, 2);
    if (with_clipping) {
      mask = add_clipping(data, mask_slot, "mask", root, {20, 24, 44, 24, 20, 48}, clipped_slot);
      clipped = add_box_region(data, clipped_slot, "clipped", root, 30, 36, 22, 22, gradient);
    }
  }

  // The pose: the arm turned 25°, deform on the mesh, sequence frame 1.
  std::unique_ptr<SkeletonPose> pose() const {
    auto p = std::make_unique<SkeletonPose>(data);
    for (std::int32_t a : {body, hand, seq, mask, clipped})
      if (a >= 0) testing::show(*p, a);
    p->rotation[static_cast<std::size_t>(arm)] = 25;
    const auto s = static_cast<std::size_t>(body_slot);
    p->deform_attachment[s] = body;
    for (std::uint32_t i = 0; i < data.slot_deform_floats[s]; ++i)
      p->deform[p->deform_start[s] + i] = (i % 3 == 0) ? 1.5f : -0.5f;
    p->sequence_index[static_cast<std::size_t>(seq_slot)] = 1;
    skel::update_world_transforms(*p);
    return p;
  }
};

RendererOptions small_options() {
  RendererOptions options;
  options.max_gpu_vertices = 4096;
  options.max_cpu_vertices = 4096;
  options.max_static_vertices = 4096;
  options.max_static_influences = 8192;
  options.upload_bytes_per_slot = 1 << 18;
  return options;
}

struct Rig {
  std::unique_ptr<SkeletonRenderer> renderer;
  std::unique_ptr<RenderTarget> target;
  DataHandle data;
  std::vector<InstanceHandle> instances;
};

Rig make_rig(Device& device, GpuMemory& memory, const SkeletonData& data, int instances = 1, int size = 64,
             RendererOptions options = small_options()) {
  Rig rig;
  auto renderer = SkeletonRenderer::create(device, memory, options);
  EXPECT_TRUE(renderer) << renderer.error().to_string();
  rig.renderer = std::move(*renderer);
  auto target = RenderTarget::create(device, memory, size, size);
  EXPECT_TRUE(target) << target.error().to_string();
  rig.target = std::move(*target);
  auto handle = rig.renderer->add_data(data);
  EXPECT_TRUE(handle) << handle.error().to_string();
  rig.data = *handle;
  for (int i = 0; i < instances; ++i) {
    auto instance = rig.renderer->add_instance(rig.data);
    EXPECT_TRUE(instance);
    rig.instances.push_back(*instance);
  }
  return rig;
}

imaging::Image render(Rig& rig, const SkeletonPose& pose, const DrawOptions& options = {},
                      skel::ColorF clear = {0.1f, 0.1f, 0.15f, 1}) {
  EXPECT_TRUE(rig.renderer->begin_frame(*rig.target, {}, clear));
  auto drawn = rig.renderer->draw(rig.instances.at(0), pose, options);
  EXPECT_TRUE(drawn) << drawn.error().to_string();
  EXPECT_TRUE(rig.renderer->end_frame());
  auto image = rig.target->read_back();
  EXPECT_TRUE(image) << image.error().to_string();
  return *image;
}

TEST_F(RenderTest, GpuAndCpuSkinnedImagesOfOnePoseMatch) {
  FeatureScene scene;
  auto pose = scene.pose();
  Rig rig = make_rig(*device, *memory, scene.data);
  const imaging::Image gpu = render(rig, *pose);
  const RenderStats gpu_stats = rig.renderer->stats();
  DrawOptions cpu_options;
  cpu_options.cpu_skinning = true;
  const imaging::Image cpu = render(rig, *pose, cpu_options);
  EXPECT_LE(testing::max_difference(gpu, cpu), kPathTolerance);
  // The GPU frame skinned the unclipped attachments (8 + 4 + 4 vertices) and clipped one slot on the CPU.
  EXPECT_EQ(gpu_stats.gpu_vertices, 16u);
  EXPECT_GT(gpu_stats.cpu_vertices, 0u);
  EXPECT_EQ(gpu_stats.dispatches, 1u);
  EXPECT_EQ(rig.renderer->stats().dispatches, 0u);
  testing::expect_matches_golden(gpu, "feature_scene", kGoldenTolerance);
}

// With the CPU path switched off entirely, the image still equals the CPU-only renderer's: the
// compute path produced it.
TEST_F(RenderTest, TheComputePathAloneDrawsTheRightImage) {
  FeatureScene scene(/*with_clipping=*/false);
  auto pose = scene.pose();
  RendererOptions gpu_only = small_options();
  gpu_only.allow_cpu_vertices = false;
  Rig gpu_rig = make_rig(*device, *memory, scene.data, 1, 64, gpu_only);
  const imaging::Image gpu = render(gpu_rig, *pose);
  EXPECT_EQ(gpu_rig.renderer->stats().cpu_vertices, 0u);
  EXPECT_EQ(gpu_rig.renderer->stats().gpu_vertices, 16u);
  EXPECT_EQ(gpu_rig.renderer->stats().dispatches, 1u);

  RendererOptions cpu_only = small_options();
  cpu_only.allow_gpu_skinning = false;
  Rig cpu_rig = make_rig(*device, *memory, scene.data, 1, 64, cpu_only);
  const imaging::Image cpu = render(cpu_rig, *pose);
  EXPECT_EQ(cpu_rig.renderer->stats().gpu_vertices, 0u);
  EXPECT_EQ(cpu_rig.renderer->stats().dispatches, 0u);
  EXPECT_LE(testing::max_difference(gpu, cpu), kPathTolerance);
  // Something was drawn: the mesh's gradient covers the pixel at (20, 24).
  EXPECT_NE(gpu.pixel(20, 24)[0], gpu.pixel(0, 0)[0]);
}

TEST_F(RenderTest, PipelinesAreBuiltWhenDataIsAddedAndNeverInAFrame) {
  FeatureScene scene;
  auto pose = scene.pose();
  Rig rig = make_rig(*device, *memory, scene.data);
  render(rig, *pose);
  EXPECT_EQ(rig.renderer->stats().pipelines_created_this_frame, 2u);  // Normal and Additive, built by add_data
  for (int frame = 0; frame < 3; ++frame) {
    render(rig, *pose);
    EXPECT_EQ(rig.renderer->stats().pipelines_created_this_frame, 0u);
  }
  EXPECT_EQ(rig.renderer->stats().pipelines_created_total, 3u);  // with the skinning pipeline
}

TEST_F(RenderTest, RunsAreRebuiltOnlyWhenTheDrawOrderOrAttachmentsChange) {
  FeatureScene scene;
  auto pose = scene.pose();
  Rig rig = make_rig(*device, *memory, scene.data);
  const imaging::Image before = render(rig, *pose);
  EXPECT_EQ(rig.renderer->stats().run_rebuilds, 1u);
  pose->rotation[static_cast<std::size_t>(scene.arm)] = 40;  // the pose alone changes
  skel::update_world_transforms(*pose);
  render(rig, *pose);
  EXPECT_EQ(rig.renderer->stats().run_rebuilds, 0u);
  pose->rotation[static_cast<std::size_t>(scene.arm)] = 25;
  skel::update_world_transforms(*pose);
  // The hand behind the body: a new draw order, a rebuild, and the image the CPU path gives for it.
  std::swap(pose->draw_order[0], pose->draw_order[1]);
  const imaging::Image swapped = render(rig, *pose);
  EXPECT_EQ(rig.renderer->stats().run_rebuilds, 1u);
  EXPECT_GT(testing::max_difference(before, swapped), 20);
  DrawOptions cpu;
  cpu.cpu_skinning = true;
  EXPECT_LE(testing::max_difference(swapped, render(rig, *pose, cpu)), kPathTolerance);
  testing::expect_matches_golden(swapped, "draw_order_swapped", kGoldenTolerance);
  // A sequence frame change moves UVs only: no rebuild, and the frame's colour shows.
  pose->sequence_index[static_cast<std::size_t>(scene.seq_slot)] = 0;
  const imaging::Image frame0 = render(rig, *pose);
  EXPECT_EQ(rig.renderer->stats().run_rebuilds, 0u);
  const std::uint8_t* red = frame0.pixel(8, 48);
  const std::uint8_t* blue = swapped.pixel(8, 48);
  EXPECT_GT(red[0], 200);
  EXPECT_LT(red[2], 60);
  EXPECT_GT(blue[2], 200);
  EXPECT_LT(blue[0], 60);
}

TEST_F(RenderTest, ClippedSlotsAreCutByTheClipPolygon) {
  FeatureScene scene;
  auto pose = scene.pose();
  Rig rig = make_rig(*device, *memory, scene.data);
  const imaging::Image image = render(rig, *pose);
  // The clip triangle is (30, 38), (54, 38), (30, 62) in canvas pixels; the clipped box spans 29…51 × 39…61.
  const std::uint8_t* inside = image.pixel(33, 42);
  const std::uint8_t* outside = image.pixel(48, 58);  // in the box, beyond the hypotenuse
  EXPECT_GT(inside[2], 150);                          // the gradient page's blue
  EXPECT_LT(outside[2], 60);                          // the background
}

// Three skeletons of one data on one page with one blend: one dispatch and one draw.
TEST_F(RenderTest, SkeletonsSharingPageAndBlendBatchIntoOneDraw) {
  SkeletonData data;
  using namespace skel::test;
  const int bone = add_bone(data, "root", -1);
  const int slot = add_slot(data, "quad", bone);
  const int page = testing::add_page(data, 4, 4, [](int x, int y, std::uint8_t* p) {
    p[0] = static_cast<std::uint8_t>(60 * x);
    p[1] = static_cast<std::uint8_t>(60 * y);
    p[2] = 128;
    p[3] = 255;
  });
  const std::int32_t quad = add_box_region(data, slot, "quad", bone, 0, 0, 12, 12, page);
  Rig rig = make_rig(*device, *memory, data, 4);
  SkeletonPose pose(data);
  testing::show(pose, quad);
  skel::update_world_transforms(pose);
  ASSERT_TRUE(rig.renderer->begin_frame(*rig.target, {}, {0, 0, 0, 1}));
  for (int i = 0; i < 3; ++i) {
    DrawOptions options;
    options.transform = Affine2::translation(12.0f + 20.0f * static_cast<float>(i), 32) * Affine2::scale(1, 1.0f + 0.5f * static_cast<float>(i));
    options.tint = {1, 1.0f - 0.3f * static_cast<float>(i), 1, 1};
    ASSERT_TRUE(rig.renderer->draw(rig.instances[static_cast<std::size_t>(i)], pose, options));
  }
  DrawOptions away;
  away.transform = Affine2::translation(500, 500);  // outside the view: culled
  ASSERT_TRUE(rig.renderer->draw(rig.instances[3], pose, away));
  ASSERT_TRUE(rig.renderer->end_frame());
  const RenderStats& stats = rig.renderer->stats();
  EXPECT_EQ(stats.skeletons_drawn, 3u);
  EXPECT_EQ(stats.skeletons_culled, 1u);
  EXPECT_EQ(stats.draw_calls, 1u);
  EXPECT_EQ(stats.dispatches, 1u);
  EXPECT_EQ(stats.gpu_vertices, 12u);
  auto image = rig.target->read_back();
  ASSERT_TRUE(image);
  testing::expect_matches_golden(*image, "batching", kGoldenTolerance);
}

TEST_F(RenderTest, CullBoundsOverrideThePoseBounds) {
  FeatureScene scene;
  auto pose = scene.pose();
  Rig rig = make_rig(*device, *memory, scene.data);
  DrawOptions options;
  options.cull_bounds = skel::Bounds{1000, 1000, 1100, 1100};  // e.g. a clip's bounds far away
  render(rig, *pose, options);
  EXPECT_EQ(rig.renderer->stats().skeletons_culled, 1u);
  EXPECT_EQ(rig.renderer->stats().draw_calls, 0u);
  options.cull_bounds = skel::Bounds{0, 0, 10, 10};
  render(rig, *pose, options);
  EXPECT_EQ(rig.renderer->stats().skeletons_drawn, 1u);
  // A view scrolled away from the skeleton culls it by its pose bounds.
  ASSERT_TRUE(rig.renderer->begin_frame(*rig.target, {200, 200, 64, 64}, {0, 0, 0, 1}));
  ASSERT_TRUE(rig.renderer->draw(rig.instances[0], *pose));
  ASSERT_TRUE(rig.renderer->end_frame());
  EXPECT_EQ(rig.renderer->stats().skeletons_culled, 1u);
}

// import.filter: a 2 × 1 black | white page stretched over 16 pixels.
TEST_F(RenderTest, NearestAndLinearFiltersAreHonoured) {
  for (skel::TextureFilter filter : {skel::TextureFilter::Nearest, skel::TextureFilter::Linear}) {
    SkeletonData data;
    using namespace skel::test;
    const int bone = add_bone(data, "root", -1);
    const int slot = add_slot(data, "quad", bone);
    const int page = testing::add_page(data, 2, 1, [](int x, int, std::uint8_t* p) {
      p[0] = p[1] = p[2] = x == 0 ? 0 : 255;
      p[3] = 255;
    });
    data.filter = filter;
    const std::int32_t quad = add_box_region(data, slot, "quad", bone, 8, 8, 16, 16, page);
    Rig rig = make_rig(*device, *memory, data, 1, 16);
    SkeletonPose pose(data);
    testing::show(pose, quad);
    skel::update_world_transforms(pose);
    const imaging::Image image = render(rig, pose, {}, {1, 0, 0, 1});
    // Pixel 6's centre is at u = 6.5/16: linear gives 0.3 grey ((6.5/16)·2 − 0.5 = 0.3125), nearest black.
    const int v = image.pixel(6, 8)[0];
    if (filter == skel::TextureFilter::Nearest) {
      EXPECT_EQ(v, 0);
      EXPECT_EQ(image.pixel(9, 8)[0], 255);
    } else {
      EXPECT_NEAR(v, 0.3125 * 255, 3);
    }
  }
}

// import.mipmaps: a 1-pixel black/white checker of 16 × 16 drawn at 4 × 4 averages to grey.
TEST_F(RenderTest, MipmapsAverageAMinifiedPage) {
  SkeletonData data;
  using namespace skel::test;
  const int bone = add_bone(data, "root", -1);
  const int slot = add_slot(data, "quad", bone);
  const int page = testing::add_page(data, 16, 16, [](int x, int y, std::uint8_t* p) {
    p[0] = p[1] = p[2] = ((x + y) % 2) ? 255 : 0;
    p[3] = 255;
  });
  data.mipmaps = true;
  const std::int32_t quad = add_box_region(data, slot, "quad", bone, 8, 8, 4, 4, page);
  Rig rig = make_rig(*device, *memory, data, 1, 16);
  SkeletonPose pose(data);
  testing::show(pose, quad);
  skel::update_world_transforms(pose);
  const imaging::Image image = render(rig, pose, {}, {1, 0, 0, 1});
  for (int y = 7; y <= 8; ++y)
    for (int x = 7; x <= 8; ++x) EXPECT_NEAR(image.pixel(x, y)[0], 128, 12) << x << ", " << y;
}

// Goldens for every blend mode and two-colour tint: four overlapping translucent quads over an
// opaque base, and a two-colour-tinted one.
TEST_F(RenderTest, BlendModesAndTwoColourTintGoldens) {
  SkeletonData data;
  using namespace skel::test;
  const int bone = add_bone(data, "root", -1);
  const int base_slot = add_slot(data, "base", bone, {90, 140, 200, 255});
  const int page = testing::add_page(data, 8, 8, [](int x, int y, std::uint8_t* p) {
    p[0] = static_cast<std::uint8_t>(100 + 20 * x);
    p[1] = static_cast<std::uint8_t>(60 + 24 * y);
    p[2] = 180;
    p[3] = static_cast<std::uint8_t>(180 + 10 * x);
  });
  std::vector<std::int32_t> shown = {add_box_region(data, base_slot, "base", bone, 32, 24, 60, 40, page)};
  const char* names[] = {"normal", "additive", "multiply", "screen"};
  for (int mode = 0; mode < 4; ++mode) {
    const int slot = add_slot(data, names[mode], bone, {255, 200, 150, 220});
    data.slots.blend[static_cast<std::size_t>(slot)] = static_cast<BlendMode>(mode);
    shown.push_back(add_box_region(data, slot, names[mode], bone, 10.0f + 14.0f * static_cast<float>(mode), 20, 12, 24, page));
  }
  const int tinted = add_slot(data, "tinted", bone, {255, 230, 120, 255});
  data.slots.dark[static_cast<std::size_t>(tinted)] = {40, 0, 120, 255};
  data.slots.has_dark[static_cast<std::size_t>(tinted)] = 1;
  shown.push_back(add_box_region(data, tinted, "tinted", bone, 32, 52, 40, 16, page));
  Rig rig = make_rig(*device, *memory, data);
  SkeletonPose pose(data);
  for (std::int32_t a : shown) testing::show(pose, a);
  skel::update_world_transforms(pose);
  const imaging::Image image = render(rig, pose, {}, {0.2f, 0.2f, 0.2f, 1});
  testing::expect_matches_golden(image, "blend_modes_two_colour", kGoldenTolerance);
  EXPECT_EQ(rig.renderer->stats().pipelines_created_total, 5u);  // four blends and the skinning pipeline
}

TEST_F(RenderTest, NormalMappedAttachmentUnderAPointLightGolden) {
  SkeletonData data;
  using namespace skel::test;
  const int bone = add_bone(data, "root", -1, 32, 32, 30);
  const int slot = add_slot(data, "disc", bone);
  const int page = testing::add_solid_page(data, {220, 220, 220, 255}, 16);
  // A dome: normals pointing away from the page centre.
  testing::add_page(data, 16, 16, [](int x, int y, std::uint8_t* p) {
    const float nx = (static_cast<float>(x) - 7.5f) / 9.0f, ny = -(static_cast<float>(y) - 7.5f) / 9.0f;
    const float nz = std::sqrt(std::max(0.0f, 1 - nx * nx - ny * ny));
    p[0] = static_cast<std::uint8_t>(std::lround((nx * 0.5f + 0.5f) * 255));
    p[1] = static_cast<std::uint8_t>(std::lround((ny * 0.5f + 0.5f) * 255));
    p[2] = static_cast<std::uint8_t>(std::lround((nz * 0.5f + 0.5f) * 255));
    p[3] = 255;
  }, &data.normal_pages);
  const std::int32_t disc = add_box_region(data, slot, "disc", bone, 0, 0, 40, 40, page);
  Rig rig = make_rig(*device, *memory, data);
  SkeletonPose pose(data);
  testing::show(pose, disc);
  skel::update_world_transforms(pose);
  PointLight light;
  light.x = 14;
  light.y = 12;
  light.height = 16;
  light.range = 80;
  light.energy = 1.2f;
  light.color = {1, 0.9f, 0.7f, 1};
  ASSERT_TRUE(rig.renderer->begin_frame(*rig.target, {}, {0, 0, 0, 1}, std::span<const PointLight>(&light, 1), {0.15f, 0.15f, 0.2f, 1}));
  ASSERT_TRUE(rig.renderer->draw(rig.instances[0], pose));
  ASSERT_TRUE(rig.renderer->end_frame());
  auto image = rig.target->read_back();
  ASSERT_TRUE(image);
  // The side facing the light is brighter than the far side.
  EXPECT_GT(image->pixel(22, 22)[0], image->pixel(44, 44)[0] + 40);
  testing::expect_matches_golden(*image, "normal_map_point_light", kGoldenTolerance);
}

TEST_F(RenderTest, APageWithoutPixelsIsAClearError) {
  SkeletonData data;
  data.name = "nopix";
  using namespace skel::test;
  const int bone = add_bone(data, "root", -1);
  const int slot = add_slot(data, "quad", bone);
  add_box_region(data, slot, "quad", bone, 0, 0, 4, 4);  // a page with a size and no bytes
  auto renderer = SkeletonRenderer::create(*device, *memory, small_options());
  ASSERT_TRUE(renderer);
  auto added = (*renderer)->add_data(data);
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message.find("nopix: page page0: the page has no pixels"), std::string::npos) << added.error().message;
}

// The example rig, once its build packs pages with pixels.
TEST_F(RenderTest, TheMannequinRendersTheSameThroughBothPaths) {
  auto built = offline::build_rig_file(std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel");
  ASSERT_TRUE(built) << built.error().to_string();
  const SkeletonData& data = *built->data;
  bool pixels = !data.pages.empty();
  for (const skel::Page& page : data.pages) pixels = pixels && !page.bytes.empty();
  if (!pixels) GTEST_SKIP() << "the mannequin's pages carry no pixels yet";
  RendererOptions options = small_options();
  options.max_static_vertices = 1 << 16;
  options.max_static_influences = 1 << 16;
  Rig rig = make_rig(*device, *memory, data, 1, 128, options);
  SkeletonPose pose(data);
  skel::update_world_transforms(pose);
  DrawOptions draw;
  draw.transform = Affine2::translation(64, 120) * Affine2::scale(0.5f, 0.5f);
  const imaging::Image gpu = render(rig, pose, draw);
  draw.cpu_skinning = true;
  const imaging::Image cpu = render(rig, pose, draw);
  EXPECT_LE(testing::max_difference(gpu, cpu), kPathTolerance);
  EXPECT_GT(rig.renderer->stats().cpu_vertices, 0u);
}

}  // namespace
}  // namespace mf::render
