// Pixel tests whose expected values come from the formulas, not from the renderer:
//   tint:  c = s × light.rgb + (1 − s) × dark.rgb, premultiplied output P = (c × a × light.a, a × light.a)
//   blend: Normal P + D(1 − Pa), Additive P + D, Multiply P·D + D(1 − Pa), Screen P + D(1 − P);
//          alpha always Pa + Da(1 − Pa)
//   light: c × (ambient + Σ colour × energy × clamp(1 − d/range) × max(N·L, 0))
// Tolerance: 2/255 per channel (8-bit page, colour and target quantisation; the expected values use
// the same quantised inputs the GPU sees).

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "render_scene.hpp"
#include "test_device.hpp"

namespace mf::render {
namespace {

using skel::BlendMode;
using skel::SkeletonData;
using skel::SkeletonPose;
using testing::RenderTest;

constexpr int kSize = 16;
constexpr float kTolerance = 2.0f / 255.0f;

struct Rgba {
  float r, g, b, a;
};

// One skeleton: a 12 × 12 quad at (2, 2) showing a solid page of `texel`, on a slot with `blend`,
// colour `light` and optionally a dark colour.
struct QuadScene {
  SkeletonData data;
  std::int32_t attachment = -1;
  QuadScene(Rgba8 texel, BlendMode blend, Rgba8 light, const Rgba8* dark = nullptr, const Rgba8* normal = nullptr) {
    using namespace skel::test;
    const int bone = add_bone(data, "root", -1);
    const int slot = add_slot(data, "quad", bone, light);
    data.slots.blend[0] = blend;
    if (dark) {
      data.slots.dark[0] = *dark;
      data.slots.has_dark[0] = 1;
    }
    const int page = testing::add_solid_page(data, texel);
    if (normal) testing::add_page(data, 4, 4, [&](int, int, std::uint8_t* p) { p[0] = normal->r, p[1] = normal->g, p[2] = normal->b, p[3] = 255; }, &data.normal_pages);
    attachment = add_box_region(data, slot, "quad", bone, 8, 8, 12, 12, page);
  }
};

struct Rendered {
  std::array<float, 4> pixel;  // premultiplied, at the quad's centre
};

// Renders the scene over `clear` and returns the premultiplied pixel at (x, y).
std::array<float, 4> render_pixel(Device& device, GpuMemory& memory, QuadScene& scene, skel::ColorF clear,
                                  std::span<const PointLight> lights = {}, skel::ColorF ambient = {1, 1, 1, 1}, int x = 8,
                                  int y = 8) {
  RendererOptions options;
  options.max_gpu_vertices = 1024;
  options.max_cpu_vertices = 1024;
  options.upload_bytes_per_slot = 1 << 16;
  auto renderer = SkeletonRenderer::create(device, memory, options);
  EXPECT_TRUE(renderer) << renderer.error().to_string();
  auto target = RenderTarget::create(device, memory, kSize, kSize);
  EXPECT_TRUE(target) << target.error().to_string();
  auto data = (*renderer)->add_data(scene.data);
  EXPECT_TRUE(data) << data.error().to_string();
  auto instance = (*renderer)->add_instance(*data);
  EXPECT_TRUE(instance);
  SkeletonPose pose(scene.data);
  testing::show(pose, scene.attachment);
  skel::update_world_transforms(pose);
  EXPECT_TRUE((*renderer)->begin_frame(**target, {}, clear, lights, ambient));
  EXPECT_TRUE((*renderer)->draw(*instance, pose));
  EXPECT_TRUE((*renderer)->end_frame());
  EXPECT_EQ((*renderer)->stats().dispatches, 1u);
  auto image = (*target)->read_back(RenderTarget::Alpha::Premultiplied);
  EXPECT_TRUE(image);
  const std::uint8_t* p = image->pixel(x, y);
  return {testing::unit(p[0]), testing::unit(p[1]), testing::unit(p[2]), testing::unit(p[3])};
}

// The premultiplied source colour the shader outputs (before blending), from the formulas.
Rgba source(Rgba8 texel, Rgba8 light, const Rgba8* dark, float lit = 1.0f) {
  const float s[3] = {testing::unit(texel.r), testing::unit(texel.g), testing::unit(texel.b)};
  const float l[3] = {testing::unit(light.r), testing::unit(light.g), testing::unit(light.b)};
  float d[3] = {0, 0, 0};
  if (dark) d[0] = testing::unit(dark->r), d[1] = testing::unit(dark->g), d[2] = testing::unit(dark->b);
  const float a = testing::unit(texel.a) * testing::unit(light.a);
  float c[3];
  for (int i = 0; i < 3; ++i) c[i] = (s[i] * l[i] + (1 - s[i]) * d[i]) * lit * a;
  return {c[0], c[1], c[2], a};
}

Rgba blend(BlendMode mode, Rgba p, Rgba d) {
  auto channel = [&](float ps, float ds) {
    switch (mode) {
      case BlendMode::Normal: return ps + ds * (1 - p.a);
      case BlendMode::Additive: return ps + ds;
      case BlendMode::Multiply: return ps * ds + ds * (1 - p.a);
      case BlendMode::Screen: return ps + ds * (1 - ps);
    }
    return 0.0f;
  };
  return {std::min(1.0f, channel(p.r, d.r)), std::min(1.0f, channel(p.g, d.g)), std::min(1.0f, channel(p.b, d.b)),
          p.a + d.a * (1 - p.a)};
}

void expect_pixel(const std::array<float, 4>& got, Rgba want, const std::string& what) {
  EXPECT_NEAR(got[0], want.r, kTolerance) << what << " red";
  EXPECT_NEAR(got[1], want.g, kTolerance) << what << " green";
  EXPECT_NEAR(got[2], want.b, kTolerance) << what << " blue";
  EXPECT_NEAR(got[3], want.a, kTolerance) << what << " alpha";
}

class BlendTest : public RenderTest {};

TEST_F(BlendTest, EveryBlendModeMatchesItsFormula) {
  const Rgba8 texel{204, 102, 51, 153};  // s = (0.8, 0.4, 0.2), a = 0.6
  const Rgba8 light{255, 128, 230, 204};
  const skel::ColorF clear{0.2f, 0.6f, 0.4f, 1.0f};
  const Rgba background{testing::quantize(0.2f), testing::quantize(0.6f), testing::quantize(0.4f), 1.0f};
  const char* names[] = {"Normal", "Additive", "Multiply", "Screen"};
  for (int mode = 0; mode < 4; ++mode) {
    QuadScene scene(texel, static_cast<BlendMode>(mode), light);
    const auto got = render_pixel(*device, *memory, scene, clear);
    expect_pixel(got, blend(static_cast<BlendMode>(mode), source(texel, light, nullptr), background), names[mode]);
  }
}

TEST_F(BlendTest, BlendModesOverATranslucentBackground) {
  const Rgba8 texel{40, 220, 180, 255};
  const Rgba8 light{255, 255, 255, 128};
  const skel::ColorF clear{0.8f, 0.3f, 0.1f, 0.5f};  // straight; the target stores it premultiplied
  const Rgba background{testing::quantize(0.4f), testing::quantize(0.15f), testing::quantize(0.05f), 0.5f};
  for (int mode = 0; mode < 4; ++mode) {
    QuadScene scene(texel, static_cast<BlendMode>(mode), light);
    const auto got = render_pixel(*device, *memory, scene, clear);
    expect_pixel(got, blend(static_cast<BlendMode>(mode), source(texel, light, nullptr), background),
                 "mode " + std::to_string(mode));
  }
}

TEST_F(BlendTest, TwoColourTintMatchesItsFormula) {
  const Rgba8 texel{230, 128, 26, 255};
  const Rgba8 light{200, 180, 255, 255};
  const Rgba8 dark{77, 26, 128, 255};
  const skel::ColorF clear{0, 0, 0, 1};
  const Rgba background{0, 0, 0, 1};
  for (int mode = 0; mode < 4; ++mode) {
    QuadScene scene(texel, static_cast<BlendMode>(mode), light, &dark);
    const auto got = render_pixel(*device, *memory, scene, clear);
    expect_pixel(got, blend(static_cast<BlendMode>(mode), source(texel, light, &dark), background),
                 "two-colour, mode " + std::to_string(mode));
  }
  // Translucent: the dark colour is premultiplied by the texel alpha too.
  const Rgba8 translucent{230, 128, 26, 102};
  QuadScene scene(translucent, BlendMode::Normal, light, &dark);
  const auto got = render_pixel(*device, *memory, scene, {1, 1, 1, 1});
  expect_pixel(got, blend(BlendMode::Normal, source(translucent, light, &dark), {1, 1, 1, 1}), "translucent two-colour");
}

TEST_F(BlendTest, WithoutADarkColourTheTintIsOrdinary) {
  const Rgba8 texel{100, 150, 200, 255};
  const Rgba8 light{128, 255, 64, 255};
  QuadScene scene(texel, BlendMode::Normal, light);
  const auto got = render_pixel(*device, *memory, scene, {0, 0, 0, 1});
  expect_pixel(got, {testing::unit(100) * testing::unit(128), testing::unit(150), testing::unit(200) * testing::unit(64), 1},
               "ordinary tint");
}

// Flat-lit: N = (0, 0, 1). Light at (8, 8 − 6) with height 8 over the pixel centre (8.5, 8.5).
TEST_F(BlendTest, PointLightOnAFlatSkeletonFollowsNDotL) {
  const Rgba8 texel{200, 200, 200, 255};
  const Rgba8 light{255, 255, 255, 255};
  QuadScene scene(texel, BlendMode::Normal, light);
  PointLight point;
  point.x = 8.5f;
  point.y = 2.5f;
  point.height = 8;
  point.range = 20;
  point.energy = 1.5f;
  point.color = {1.0f, 0.5f, 0.25f, 1};
  const skel::ColorF ambient{0.1f, 0.2f, 0.3f, 1};
  const auto got = render_pixel(*device, *memory, scene, {0, 0, 0, 1}, std::span<const PointLight>(&point, 1), ambient);
  const float distance = 6.0f, n_dot_l = 8.0f / std::sqrt(36.0f + 64.0f), attenuation = 1.0f - distance / 20.0f;
  const float k = 1.5f * attenuation * n_dot_l;
  const float s = testing::unit(200);
  expect_pixel(got, {std::min(1.0f, s * (0.1f + 1.0f * k)), std::min(1.0f, s * (0.2f + 0.5f * k)), std::min(1.0f, s * (0.3f + 0.25f * k)), 1},
               "flat N·L");
}

// A normal map tilting the surface towards +u (canvas +x for this unrotated quad): n = (0.6, 0, 0.8)
// encoded as n × 0.5 + 0.5. A light to the right lights it more than the flat formula would.
TEST_F(BlendTest, NormalMappedAttachmentUnderAPointLight) {
  const Rgba8 texel{255, 255, 255, 255};
  const Rgba8 light{255, 255, 255, 255};
  const Rgba8 normal{204, 128, 230, 255};  // (0.6, 0.0039, 0.8) after decoding
  QuadScene scene(texel, BlendMode::Normal, light, nullptr, &normal);
  PointLight point;
  point.x = 12.5f;
  point.y = 8.5f;
  point.height = 4;
  point.range = 100;
  point.energy = 1;
  const auto got = render_pixel(*device, *memory, scene, {0, 0, 0, 1}, std::span<const PointLight>(&point, 1), {0, 0, 0, 1});
  float n[3] = {testing::unit(204) * 2 - 1, -(testing::unit(128) * 2 - 1), testing::unit(230) * 2 - 1};  // y up on the image is −y on the canvas
  const float nl = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (float& c : n) c /= nl;
  const float lx = 4, ly = 0, lz = 4, ll = std::sqrt(lx * lx + ly * ly + lz * lz);
  const float n_dot_l = (n[0] * lx + n[1] * ly + n[2] * lz) / ll;
  const float value = std::min(1.0f, (1 - 4.0f / 100.0f) * n_dot_l);
  expect_pixel(got, {value, value, value, 1}, "normal-mapped N·L");
  // The same light on the flat quad gives less: the map really was sampled.
  QuadScene flat(texel, BlendMode::Normal, light);
  const auto flat_got = render_pixel(*device, *memory, flat, {0, 0, 0, 1}, std::span<const PointLight>(&point, 1), {0, 0, 0, 1});
  EXPECT_LT(flat_got[0] + 0.1f, got[0]);
}

}  // namespace
}  // namespace mf::render
