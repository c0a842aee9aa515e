// Skeleton sprites for the forward 3D renderer: the model matrix and its billboards, the skinning
// pass's MeshVertex output against CPU skinning (and the canvas output's tangent), and SpriteFrame:
// culling, draw items per page and blend run, draw records' flags and the previous-vertex motion.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "canvas_pipelines.hpp"
#include "forward/sprite_frame.hpp"
#include "mf/render/canvas_vertex.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/skel/cpu_vertices.hpp"
#include "render_scene.hpp"
#include "skeleton_gpu_data.hpp"
#include "test_device.hpp"

namespace mf::render {
namespace {

using detail::DrawItem;
using detail::DrawRecord;
using skel::SkeletonData;
using skel::SkeletonPose;
using testing::RenderTest;

constexpr float kEps = 1e-5f;

void expect_near(Vec3 a, Vec3 b, float eps, const char* what) {
  EXPECT_NEAR(a.x, b.x, eps) << what;
  EXPECT_NEAR(a.y, b.y, eps) << what;
  EXPECT_NEAR(a.z, b.z, eps) << what;
}

// A sprite plane's facing (its local +Z) and its up (local −Y in skeleton pixels, Y down) in world space.
Vec3 plane_normal(const Mat4& model) { return normalize(model.column3(2)); }
Vec3 plane_up(const Mat4& model) { return normalize(-model.column3(1)); }

std::vector<Camera> cameras() {
  std::vector<Camera> list;
  for (float yaw : {0.0f, 50.0f, 135.0f, -100.0f})
    for (float pitch : {0.0f, 30.0f, -60.0f}) list.push_back(Camera::orbit({0.5f, 1, -1}, yaw, pitch, 7));
  Camera ortho = Camera::orbit({0, 0, 0}, 30, 20, 5);
  ortho.projection = Camera::Projection::Orthographic;
  list.push_back(ortho);
  Camera tilted;  // a rolled camera: its up is not the world's
  tilted.position = {3, 2, 4};
  tilted.target = {0, 0, 0};
  tilted.up = normalize(Vec3{0.4f, 1, 0.1f});
  list.push_back(tilted);
  return list;
}

// ---------------------------------------------------------------------------------------------
// sprite_model_matrix

TEST(SpriteModelMatrix, PixelSizeAndTheYMirror) {
  SpriteDrawOptions options;
  const Mat4 model = sprite_model_matrix(options, Camera{});
  expect_near(model.transform_point({10, 20, 0}), {0.1f, -0.2f, 0}, kEps, "(10, 20) px");
  expect_near(model.transform_point({0, 0, 5}), {0, 0, 0.05f}, kEps, "depth towards +Z");
  options.pixel_size = 0.5f;
  options.transform = Mat4::translation({1, 2, 3});
  expect_near(sprite_model_matrix(options, Camera{}).transform_point({4, 6, 2}), {3, -1, 4}, kEps, "pixel_size 0.5");
}

TEST(SpriteModelMatrix, NoBillboardKeepsTheTransform) {
  SpriteDrawOptions options;
  options.transform = Mat4::translation({1, -2, 0.5f}) * Mat4::rotation({0.3f, 1, 0.2f}, 1.1f) * Mat4::scale({2, 2, 2});
  for (const Camera& camera : cameras()) {
    const Mat4 model = sprite_model_matrix(options, camera);
    const Mat4 expected = options.transform * Mat4::scale({0.01f, -0.01f, 0.01f});
    for (std::size_t i = 0; i < 16; ++i) EXPECT_NEAR(model.m[i], expected.m[i], kEps) << i;
  }
}

TEST(SpriteModelMatrix, YBillboardTurnsAboutTheUpAxisTowardsTheCamera) {
  SpriteDrawOptions options;
  options.billboard = SkeletonBillboard::Y;
  for (const Mat4& transform : {Mat4::translation({1, 0, -2}), Mat4::translation({1, 0, -2}) * Mat4::rotation({0, 0, 1}, 0.3f),
                                Mat4::translation({-1, 1, 0}) * Mat4::rotation({1, 0, 0.5f}, -0.4f) * Mat4::scale({3, 3, 3})}) {
    options.transform = transform;
    const Vec3 axis = normalize(transform.column3(1));
    const Vec3 origin = transform.transform_point({0, 0, 0});
    for (const Camera& camera : cameras()) {
      const Mat4 model = sprite_model_matrix(options, camera);
      expect_near(plane_up(model), axis, kEps, "the up axis is kept");
      const Vec3 towards = camera.projection == Camera::Projection::Orthographic ? -camera.forward() : camera.position - origin;
      const Vec3 horizontal = normalize(towards - axis * dot(towards, axis));
      expect_near(plane_normal(model), horizontal, 1e-4f, "the normal points at the camera about the axis");
      expect_near(model.transform_point({0, 0, 0}), origin, kEps, "the origin stays");
      EXPECT_NEAR(length(model.column3(0)), 0.01f * length(transform.column3(0)), kEps);
    }
  }
}

TEST(SpriteModelMatrix, FullBillboardFacesTheCamera) {
  SpriteDrawOptions options;
  options.billboard = SkeletonBillboard::Full;
  options.transform = Mat4::translation({1, 2, 3}) * Mat4::rotation({1, 1, 0}, 0.8f) * Mat4::scale({2, 2, 2});
  for (const Camera& camera : cameras()) {
    const Mat4 model = sprite_model_matrix(options, camera);
    expect_near(plane_normal(model), -camera.forward(), kEps, "normal = -forward");
    const Vec3 n = -camera.forward();
    expect_near(plane_up(model), normalize(camera.up - n * dot(camera.up, n)), kEps, "the camera's up, orthogonalised");
    expect_near(model.transform_point({0, 0, 0}), {1, 2, 3}, kEps, "translation kept");
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(length(model.column3(c)), 0.02f, kEps) << "scale kept, column " << c;
    EXPECT_GT(model.determinant3() * -1, 0) << "a rotation, then the one Y mirror";
  }
}

TEST(SpriteModelMatrix, FlipsMirrorTheSkeletonInItsPlaneAfterEveryBillboard) {
  for (SkeletonBillboard billboard : {SkeletonBillboard::None, SkeletonBillboard::Y, SkeletonBillboard::Full}) {
    SpriteDrawOptions options;
    options.billboard = billboard;
    options.transform = Mat4::translation({1, 0, -2}) * Mat4::rotation({0, 1, 0}, 0.4f);
    for (const Camera& camera : cameras()) {
      const Mat4 plain = sprite_model_matrix(options, camera);
      SpriteDrawOptions flipped = options;
      flipped.flip_h = true;
      const Mat4 h = sprite_model_matrix(flipped, camera);
      expect_near(h.column3(0), plain.column3(0) * -1.0f, kEps, "FlipH: the skeleton's X reversed");
      expect_near(h.column3(1), plain.column3(1), kEps, "FlipH: Y kept");
      expect_near(plane_normal(h), plane_normal(plain), kEps, "FlipH: still facing the same way");
      flipped.flip_h = false;
      flipped.flip_v = true;
      const Mat4 v = sprite_model_matrix(flipped, camera);
      expect_near(v.column3(0), plain.column3(0), kEps, "FlipV: X kept");
      expect_near(v.column3(1), plain.column3(1) * -1.0f, kEps, "FlipV: the skeleton's Y reversed");
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Scenes

// A weighted 8-vertex mesh over two bones with deform (a region rectangle that is not the whole
// page), a region on the turned arm with a slot colour, a weighted 80-vertex strip (two jobs) on the
// hand's page, and (optionally) a region clipped by a triangle.
struct SpriteScene {
  SkeletonData data;
  int root = 0, arm = 0;
  int body_slot = 0, hand_slot = 0, strip_slot = 0, mask_slot = 0, clipped_slot = 0;
  std::int32_t body = -1, hand = -1, strip = -1, mask = -1, clipped = -1;

  // A grid mesh of `columns` × 2 vertices from (x0, y0), `step` apart along x and 20 down, column c
  // weighted c / (columns − 1) to the arm.
  std::int32_t add_grid(int slot, const std::string& name, int columns, float x0, float y0, float step) {
    using namespace skel::test;
    std::vector<TestVertex> vertices;
    std::vector<float> uvs;
    const float last = static_cast<float>(columns - 1);
    for (int row = 0; row < 2; ++row)
      for (int col = 0; col < columns; ++col) {
        const float x = x0 + step * static_cast<float>(col), y = y0 + 20.0f * static_cast<float>(row);
        const float w = static_cast<float>(col) / last;
        TestVertex v;
        if (w < 1) v.push_back({root, 1 - w, x, y});
        if (w > 0) v.push_back({arm, w, x - 24, y});
        vertices.push_back(v);
        uvs.push_back(static_cast<float>(col) / last);
        uvs.push_back(static_cast<float>(row));
      }
    std::vector<std::uint16_t> triangles;
    for (int c = 0; c + 1 < columns; ++c) {
      const auto a = static_cast<std::uint16_t>(c), b = static_cast<std::uint16_t>(c + 1),
                 d = static_cast<std::uint16_t>(c + columns), e = static_cast<std::uint16_t>(c + columns + 1);
      triangles.insert(triangles.end(), {a, b, e, e, d, a});
    }
    return add_geometry(data, skel::AttachmentKind::Mesh, slot, name, vertices, uvs, triangles);
  }

  explicit SpriteScene(bool with_clipping) {
    using namespace skel::test;
    root = add_bone(data, "root", -1, 10, 14);
    arm = add_bone(data, "arm", root, 24, 0);
    body_slot = add_slot(data, "body", root);
    hand_slot = add_slot(data, "hand", arm, {255, 220, 160, 200});
    strip_slot = add_slot(data, "strip", root);
    mask_slot = add_slot(data, "mask", root);
    clipped_slot = add_slot(data, "clipped", root);
    const int page0 = testing::add_solid_page(data, {200, 100, 50, 255});
    const int page1 = testing::add_solid_page(data, {50, 100, 200, 255});
    body = add_grid(body_slot, "body", 4, 0, 0, 8);
    data.attachments[static_cast<std::size_t>(body)].region_start = add_region_frame(data, 0.25f, 0.5f, 0.75f, 1, page0);
    data.attachments[static_cast<std::size_t>(body)].region_count = 1;
    hand = add_box_region(data, hand_slot, "hand", arm, 2, 8, 14, 14, page1);
    strip = add_grid(strip_slot, "strip", 40, -10, 30, 1.5f);
    data.attachments[static_cast<std::size_t>(strip)].region_start = add_region_frame(data, 0, 0, 1, 1, page1);
    data.attachments[static_cast<std::size_t>(strip)].region_count = 1;
    if (with_clipping) {
      mask = add_clipping(data, mask_slot, "mask", root, {20, 24, 44, 24, 20, 48}, clipped_slot);
      clipped = add_box_region(data, clipped_slot, "clipped", root, 30, 36, 22, 22, page0);
    }
  }

  std::unique_ptr<SkeletonPose> pose() const {
    auto p = std::make_unique<SkeletonPose>(data);
    for (std::int32_t a : {body, hand, strip, mask, clipped})
      if (a >= 0) testing::show(*p, a);
    p->rotation[static_cast<std::size_t>(arm)] = 25;
    const auto s = static_cast<std::size_t>(body_slot);
    p->deform_attachment[s] = body;
    for (std::uint32_t i = 0; i < data.slot_deform_floats[s]; ++i) p->deform[p->deform_start[s] + i] = (i % 3 == 0) ? 1.5f : -0.5f;
    skel::update_world_transforms(*p);
    return p;
  }
};

// Five 10 × 10 regions side by side: pages 0, 0, 1, 1 (additive), 0.
struct RunScene {
  SkeletonData data;
  std::vector<std::int32_t> regions;
  int page0 = 0, page1 = 0;

  RunScene() {
    using namespace skel::test;
    const int root = add_bone(data, "root", -1);
    page0 = testing::add_solid_page(data, {255, 0, 0, 255});
    page1 = testing::add_solid_page(data, {0, 0, 255, 255});
    const int pages[5] = {page0, page0, page1, page1, page0};
    for (int i = 0; i < 5; ++i) {
      const int slot = add_slot(data, "s" + std::to_string(i), root);
      if (i == 3) data.slots.blend[static_cast<std::size_t>(slot)] = skel::BlendMode::Additive;
      regions.push_back(add_box_region(data, slot, "r" + std::to_string(i), root, 12.0f * static_cast<float>(i), 0, 10, 10, pages[i]));
    }
  }
  std::unique_ptr<SkeletonPose> pose() const {
    auto p = std::make_unique<SkeletonPose>(data);
    for (std::int32_t a : regions) testing::show(*p, a);
    skel::update_world_transforms(*p);
    return p;
  }
};

ForwardOptions small_limits() {
  ForwardOptions limits;
  limits.max_gpu_vertices = 256;
  limits.max_cpu_vertices = 256;
  limits.max_static_vertices = 1024;
  limits.max_static_influences = 2048;
  limits.max_draws = 64;
  return limits;
}

// What the sprite side of a ForwardRenderer holds for one data: the skinning pass (MeshVertex or
// CanvasVertex output) and the uploaded data with its page sets.
struct SpriteRig {
  std::unique_ptr<detail::CanvasPipelines> pipelines;  // for its page set layout
  std::unique_ptr<detail::SkinningPass> pass;
  std::unique_ptr<detail::SkeletonGpuData> gpu;

  detail::SpriteInstance instance() const {
    detail::SpriteInstance sprite;
    sprite.runs = detail::make_instance_runs(*gpu);
    return sprite;
  }
};

SpriteRig make_rig(Device& device, GpuMemory& memory, const SkeletonData& data,
                   detail::SkinningPass::Options::VertexOutput output = detail::SkinningPass::Options::VertexOutput::Mesh) {
  SpriteRig rig;
  const ForwardOptions limits = small_limits();
  auto pipelines = detail::CanvasPipelines::create(device);
  EXPECT_TRUE(pipelines) << pipelines.error().to_string();
  rig.pipelines = std::move(*pipelines);
  auto pass = detail::SkinningPass::create(device, memory, {limits.max_static_influences, limits.max_static_vertices, false, output});
  EXPECT_TRUE(pass) << pass.error().to_string();
  rig.pass = std::move(*pass);
  auto gpu = detail::upload_skeleton_data(device, memory, *rig.pass, rig.pipelines->page_set_layout(), data);
  EXPECT_TRUE(gpu) << gpu.error().to_string();
  rig.gpu = std::move(*gpu);
  return rig;
}

// Stages the inputs and dispatches the pass into a host-visible buffer of `words` 32-bit words.
std::vector<std::uint32_t> dispatch(Device& device, GpuMemory& memory, detail::SkinningPass& pass, const detail::SkinningInputs& inputs,
                                    std::size_t words) {
  constexpr VkDeviceSize kUploadBytes = 1 << 16;
  auto upload = GpuBuffer::create(device, memory, kUploadBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload);
  EXPECT_TRUE(upload) << upload.error().to_string();
  UploadRing ring(upload->handle(), 0, kUploadBytes, upload->mapped().data());
  const auto staged = pass.stage(ring, inputs);
  EXPECT_TRUE(staged.has_value());
  auto output = GpuBuffer::create(device, memory, words * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Readback);
  EXPECT_TRUE(output) << output.error().to_string();
  std::memset(output->mapped().data(), 0xff, words * 4);
  const Status ran = device.run_once([&](VkCommandBuffer cmd) {
    EXPECT_TRUE(pass.record(cmd, 0, *staged, output->handle()));
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  });
  EXPECT_TRUE(ran) << ran.error().to_string();
  std::vector<std::uint32_t> out(words);
  std::memcpy(out.data(), output->mapped().data(), words * 4);
  return out;
}

Vec2 decode_snorm2x16(std::uint32_t packed) {
  auto one = [](std::uint16_t bits) { return std::max(static_cast<float>(static_cast<std::int16_t>(bits)) / 32767.0f, -1.0f); };
  return {one(static_cast<std::uint16_t>(packed & 0xffffu)), one(static_cast<std::uint16_t>(packed >> 16))};
}

// ---------------------------------------------------------------------------------------------
// The skinning pass's 3D output

using SpriteSkinning = RenderTest;

TEST_F(SpriteSkinning, MeshOutputMatchesCpuSkinning) {
  const SpriteScene scene(/*with_clipping=*/true);
  const auto pose = scene.pose();
  const ForwardOptions limits = small_limits();
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  SpriteRig canvas = make_rig(*device, *memory, scene.data, detail::SkinningPass::Options::VertexOutput::Canvas);
  ASSERT_EQ(rig.gpu->range.vertex_base, canvas.gpu->range.vertex_base);  // the same jobs serve both passes
  ASSERT_EQ(rig.gpu->range.influence_base, canvas.gpu->range.influence_base);

  detail::SpriteInstance sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  frame.begin(0, Camera{}, 1, {});
  SpriteDrawOptions options;
  options.slot_depth_offset = 2.5f;
  ASSERT_TRUE(frame.queue(sprite, *pose, options, limits, draws, stats));
  ASSERT_EQ(stats.sprites_drawn, 1u);

  const std::size_t vertices = limits.max_gpu_vertices + limits.max_cpu_vertices;
  const auto mesh_words = dispatch(*device, *memory, *rig.pass, frame.skinning_inputs(), 10 * vertices);
  const auto canvas_words = dispatch(*device, *memory, *canvas.pass, frame.skinning_inputs(), 7 * vertices);
  std::vector<MeshVertex> out(vertices);
  std::memcpy(out.data(), mesh_words.data(), vertices * sizeof(MeshVertex));

  skel::CpuVertices cpu(scene.data);
  cpu.update(*pose);
  const auto& runs = *sprite.runs;
  ASSERT_EQ(runs.items.size(), 4u);  // body, hand, strip (skinned), clipped (CPU path)
  EXPECT_EQ(frame.skinning_inputs().jobs.size(), 4u);  // the strip's 80 vertices in two
  std::size_t checked = 0;
  std::uint32_t position = 0;
  for (const detail::CachedItem& item : runs.items) {
    const float z = 2.5f * static_cast<float>(position++);
    const skel::DrawnAttachment* drawn = nullptr;
    for (const skel::DrawnAttachment& d : cpu.drawn())
      if (d.slot == item.slot && d.clipped == item.clipped) drawn = &d;
    ASSERT_NE(drawn, nullptr);
    const auto s = static_cast<std::size_t>(item.slot);
    const std::uint32_t light = detail::pack_rgba8(pose->color[s].r * item.color.r, pose->color[s].g * item.color.g,
                                                   pose->color[s].b * item.color.b, pose->color[s].a * item.color.a);
    if (item.clipped) {
      // The CPU path: the clipped output as is, in skeleton pixels, at the slot's depth.
      ASSERT_EQ(frame.cpu_vertices().size(), drawn->vertex_count);
      for (std::uint32_t i = 0; i < drawn->vertex_count; ++i) {
        const MeshVertex& v = frame.cpu_vertices()[i];
        const skel::CpuVertex& c = cpu.vertices()[drawn->vertex_start + i];
        EXPECT_EQ(v.x, c.x);
        EXPECT_EQ(v.y, c.y);
        EXPECT_EQ(v.z, z);
        EXPECT_EQ(v.u, c.u);
        EXPECT_EQ(v.v, c.v);
        EXPECT_EQ(v.normal, encode_octahedral({0, 0, 1}));
        EXPECT_EQ(v.light, light);
        EXPECT_EQ(v.flags, 0u);
        ++checked;
      }
      continue;
    }
    ASSERT_EQ(drawn->vertex_count, scene.data.attachments[static_cast<std::size_t>(item.attachment)].vertex_count);
    for (std::uint32_t i = 0; i < drawn->vertex_count; ++i) {
      const std::uint32_t index = item.local_vertex + i;
      const MeshVertex& v = out[index];
      const skel::CpuVertex& c = cpu.vertices()[drawn->vertex_start + i];
      EXPECT_NEAR(v.x, c.x, 1e-3f) << "slot " << item.slot << " vertex " << i;
      EXPECT_NEAR(v.y, c.y, 1e-3f) << "slot " << item.slot << " vertex " << i;
      EXPECT_EQ(v.z, z) << "the slot record's depth";
      EXPECT_NEAR(v.u, c.u, 1e-6f);
      EXPECT_NEAR(v.v, c.v, 1e-6f);
      EXPECT_EQ(v.normal, encode_octahedral({0, 0, 1}));
      EXPECT_EQ(v.light, light);
      EXPECT_EQ(v.dark, 0u);
      EXPECT_EQ(v.flags, 0u);
      // The tangent: the canvas output's (+u in canvas space, no instance transform here), octahedral.
      const Vec3 tangent = decode_octahedral(v.tangent);
      const Vec2 canvas_tangent = decode_snorm2x16(canvas_words[7 * index + 6]);
      EXPECT_NEAR(tangent.x, canvas_tangent.x, 1e-3f);
      EXPECT_NEAR(tangent.y, canvas_tangent.y, 1e-3f);
      EXPECT_NEAR(tangent.z, 0, 1e-6f);
      // The canvas output of the same vertex: the same position and UV.
      EXPECT_EQ(std::bit_cast<float>(canvas_words[7 * index]), v.x);
      EXPECT_EQ(std::bit_cast<float>(canvas_words[7 * index + 2]), v.u);
      ++checked;
    }
  }
  EXPECT_GT(checked, 92u);
  EXPECT_EQ(stats.gpu_vertices, runs.gpu_vertices);
  EXPECT_EQ(stats.cpu_vertices, frame.cpu_vertices().size());
}

// ---------------------------------------------------------------------------------------------
// SpriteFrame::queue

using SpriteFrameTest = RenderTest;

TEST_F(SpriteFrameTest, OneItemPerPageAndBlendRun) {
  const RunScene scene;
  const auto pose = scene.pose();
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  detail::SpriteInstance sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  auto vertex_buffer = GpuBuffer::create(*device, *memory, 1024, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, MemoryUse::DeviceLocal);
  ASSERT_TRUE(vertex_buffer);
  frame.begin(0, Camera{}, 1, {vertex_buffer->handle(), 256, 256});
  SpriteDrawOptions options;
  options.transform = Mat4::translation({0.2f, 0.5f, -1});
  options.casts_shadows = false;
  ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));

  ASSERT_EQ(draws.records.size(), 1u);
  // s0 + s1 (page 0, normal) merged, s2 (page 1), s3 (page 1, additive), s4 (page 0).
  ASSERT_EQ(draws.items.size(), 4u);
  const VkDescriptorSet p0 = rig.gpu->page_set(scene.page0), p1 = rig.gpu->page_set(scene.page1);
  const VkDescriptorSet sets[4] = {p0, p1, p1, p0};
  const skel::BlendMode blends[4] = {skel::BlendMode::Normal, skel::BlendMode::Normal, skel::BlendMode::Additive, skel::BlendMode::Normal};
  const std::uint32_t counts[4] = {12, 6, 6, 6};
  VkDeviceSize offset = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const DrawItem& item = draws.items.data()[i];
    EXPECT_EQ(item.material, sets[i]) << i;
    EXPECT_EQ(item.key, (detail::DrawKey{AlphaMode::Blend, blends[i], false, false})) << i;
    EXPECT_EQ(item.index_count, counts[i]) << i;
    EXPECT_EQ(item.index_offset, offset) << i;
    EXPECT_EQ(item.record, 0u);
    EXPECT_EQ(item.vertices, vertex_buffer->handle());
    EXPECT_EQ(item.vertex_offset, 0u);
    EXPECT_EQ(item.indices, VK_NULL_HANDLE);
    EXPECT_EQ(item.base_vertex, 0);
    EXPECT_EQ(item.order, i);
    EXPECT_FALSE(item.casts_shadow);
    EXPECT_TRUE(item.in_depth_passes);
    expect_near(item.sort_point, {0.2f, 0.5f, -1}, kEps, "the sprite's origin");
    offset += VkDeviceSize{counts[i]} * 4;
  }
  // Absolute indices: each region's quad on its own four vertices, in draw order.
  ASSERT_EQ(frame.indices().size(), 30u);
  for (std::size_t r = 0; r < 5; ++r)
    for (std::size_t k = 0; k < 6; ++k) {
      const std::uint32_t local[6] = {0, 1, 2, 2, 3, 0};
      EXPECT_EQ(frame.indices()[6 * r + k], 4 * r + local[k]);
    }
  // One job and one slot record per region; the slot records' depth is 0 without an offset.
  const auto inputs = frame.skinning_inputs();
  EXPECT_EQ(inputs.jobs.size(), 5u);
  ASSERT_EQ(inputs.slots.size(), 5u);
  for (const detail::SlotRecord& record : inputs.slots) EXPECT_EQ(std::bit_cast<float>(record.pad0), 0.0f);
  EXPECT_EQ(inputs.palette.size(), 6u);
  EXPECT_EQ(stats.gpu_vertices, 20u);
  EXPECT_EQ(stats.run_rebuilds, 1u);

  // A second sprite in the same frame: its indices follow the first one's vertices.
  detail::SpriteInstance second = rig.instance();
  ASSERT_TRUE(frame.queue(second, *pose, options, small_limits(), draws, stats));
  EXPECT_EQ(draws.records.size(), 2u);
  EXPECT_EQ(draws.items.size(), 8u);
  EXPECT_EQ(frame.indices()[30], 20u);
  EXPECT_EQ(draws.items.data()[4].record, 1u);
  EXPECT_EQ(draws.items.data()[4].index_offset, 30u * 4);
  EXPECT_EQ(frame.skinning_inputs().jobs[5].out_start, 20u);
  EXPECT_EQ(frame.skinning_inputs().jobs[5].palette, 1u);
}

TEST_F(SpriteFrameTest, NormalPagesSelectTheNormalMappedVariant) {
  RunScene scene;
  auto flat_normal = [](int, int, std::uint8_t* p) {
    p[0] = 128;
    p[1] = 128;
    p[2] = 255;
    p[3] = 255;
  };
  for (int p = 0; p < 2; ++p) testing::add_page(scene.data, 4, 4, flat_normal, &scene.data.normal_pages);
  const auto pose = scene.pose();
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  EXPECT_EQ(rig.gpu->variant, 1);
  detail::SpriteInstance sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  frame.begin(0, Camera{}, 1, {});
  ASSERT_TRUE(frame.queue(sprite, *pose, {}, small_limits(), draws, stats));
  ASSERT_EQ(draws.items.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_TRUE(draws.items.data()[i].key.normal_map) << i;
}

TEST_F(SpriteFrameTest, SlotDepthAndColours) {
  RunScene scene;
  scene.data.slots.has_dark[2] = 1;
  auto pose = scene.pose();
  pose->dark[2] = {0.2f, 0.4f, 0.6f, 1};
  pose->color[1] = {0.5f, 1, 1, 0.8f};
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  detail::SpriteInstance sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  frame.begin(0, Camera{}, 1, {});
  SpriteDrawOptions options;
  options.slot_depth_offset = -0.5f;
  options.tint = {1, 0.5f, 1, 1};
  ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));
  const auto slots = frame.skinning_inputs().slots;
  ASSERT_EQ(slots.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(std::bit_cast<float>(slots[i].pad0), -0.5f * static_cast<float>(i)) << i;
  EXPECT_EQ(slots[0].light, detail::pack_rgba8(1, 0.5f, 1, 1));
  EXPECT_EQ(slots[1].light, detail::pack_rgba8(0.5f, 0.5f, 1, 0.8f));
  EXPECT_EQ(slots[2].dark, detail::pack_rgba8(0.2f, 0.4f, 0.6f, 1));
  EXPECT_EQ(slots[0].dark, 0u);
}

TEST_F(SpriteFrameTest, RecordFlagsAndMatrices) {
  const RunScene scene;
  const auto pose = scene.pose();
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  detail::SpriteInstance sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  frame.begin(0, Camera{}, 1, {});
  SpriteDrawOptions options;
  options.object_id = 7;
  options.alpha_cutoff = 0.25f;
  ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));
  options.shaded = false;
  options.double_sided = false;
  ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));
  ASSERT_EQ(draws.records.size(), 2u);
  const DrawRecord& lit = draws.records.data()[0];
  const DrawRecord& flat = draws.records.data()[1];
  EXPECT_EQ(lit.flags, detail::kDrawSpritePlane | detail::kDrawReceivesShadows | detail::kDrawShaded | detail::kDrawDoubleSided);
  EXPECT_EQ(flat.flags, detail::kDrawSpritePlane | detail::kDrawReceivesShadows);
  EXPECT_EQ(lit.object_id, 7u);
  EXPECT_EQ(lit.alpha_cutoff, 0.25f);
  EXPECT_EQ(lit.specular, 0.1f);
  EXPECT_EQ(lit.shininess, 16.0f);
  for (float c : lit.base_color) EXPECT_EQ(c, 1.0f);
  // model = scale(0.01, -0.01, 0.01); its normal matrix: the inverse-transpose, diag(100, -100, 100).
  const Mat4 model = sprite_model_matrix(options, Camera{});
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(lit.model[i], model.m[i]);
    EXPECT_EQ(lit.previous_model[i], model.m[i]) << "first frame: no previous";
  }
  const float normal[12] = {100, 0, 0, 0, 0, -100, 0, 0, 0, 0, 100, 0};
  for (std::size_t i = 0; i < 12; ++i) EXPECT_NEAR(lit.normal_matrix[i], normal[i], 1e-3f) << i;
  EXPECT_EQ(lit.previous_vertex_delta, 0);
}

TEST_F(SpriteFrameTest, SpritesOutsideTheFrustumAreCulled) {
  const RunScene scene;
  const auto pose = scene.pose();
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  detail::SpriteInstance sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  frame.begin(0, Camera{}, 1, {});
  SpriteDrawOptions options;
  for (const Vec3 where : {Vec3{0, 0, 20}, Vec3{40, 1, 0}, Vec3{0, -30, 0}, Vec3{0, 1, -500}}) {
    options.transform = Mat4::translation(where);
    ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));
  }
  EXPECT_EQ(stats.sprites_culled, 4u);
  EXPECT_EQ(stats.sprites_drawn, 0u);
  EXPECT_EQ(stats.run_rebuilds, 0u) << "culled sprites do not refresh their runs";
  EXPECT_TRUE(draws.records.empty());
  EXPECT_TRUE(draws.items.empty());
  EXPECT_TRUE(frame.skinning_inputs().jobs.empty());

  // cull_bounds replaces the pose's: bounds far to the side cull a sprite in view, and bounds
  // reaching into the view keep one whose pose is outside.
  options.transform = Mat4::identity();
  options.cull_bounds = Bounds{5000, 0, 5100, 10};
  ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));
  EXPECT_EQ(stats.sprites_culled, 5u);
  options.transform = Mat4::translation({40, 1, 0});
  options.cull_bounds = Bounds{-4000, -100, 0, 100};
  ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));
  EXPECT_EQ(stats.sprites_drawn, 1u);
  // The depth offset counts: a sprite just behind the near side of the view kept by its slots' depth.
  options.cull_bounds.reset();
  options.transform = Mat4::translation({0, 1, 5.99f});  // the camera is at z = 6 looking towards −Z
  options.slot_depth_offset = 0;
  const std::uint32_t culled = stats.sprites_culled;
  ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));
  EXPECT_EQ(stats.sprites_culled, culled + 1) << "in front of the near plane";
  options.slot_depth_offset = -50;  // the slots go back 5 × 0.5 m
  ASSERT_TRUE(frame.queue(sprite, *pose, options, small_limits(), draws, stats));
  EXPECT_EQ(stats.sprites_culled, culled + 1);
  EXPECT_EQ(stats.sprites_drawn, 2u);
}

TEST_F(SpriteFrameTest, PreviousVerticesOnConsecutiveFramesWithTheSameRuns) {
  const RunScene scene;
  auto pose = scene.pose();
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  detail::SpriteInstance first = rig.instance(), sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  const ForwardOptions limits = small_limits();
  SpriteDrawOptions options;
  auto record_of_last = [&] { return draws.records.data()[draws.records.size() - 1]; };
  auto queue = [&](std::uint64_t number, bool with_first, Vec3 where) {
    draws.clear();
    stats = {};
    frame.begin(number, Camera{}, 1, {});
    if (with_first) {
      EXPECT_TRUE(frame.queue(first, *pose, {}, limits, draws, stats));
    }
    options.transform = Mat4::translation(where);
    EXPECT_TRUE(frame.queue(sprite, *pose, options, limits, draws, stats));
    return record_of_last();
  };

  // Frame 0: after another sprite (base 20). No previous frame.
  DrawRecord r = queue(0, true, {0, 0, 0});
  EXPECT_FALSE(r.flags & detail::kDrawPreviousVertices);
  EXPECT_EQ(r.previous_vertex_delta, 0);
  // Frame 1: alone (base 0): last frame's vertices were 20 further on.
  r = queue(1, false, {0.5f, 0, 0});
  EXPECT_TRUE(r.flags & detail::kDrawPreviousVertices);
  EXPECT_EQ(r.previous_vertex_delta, 20);
  EXPECT_EQ(r.previous_model[12], 0.0f) << "last frame's model";
  EXPECT_EQ(r.model[12], 0.5f);
  // Frame 2: behind the other again.
  r = queue(2, true, {0.5f, 0, 0});
  EXPECT_TRUE(r.flags & detail::kDrawPreviousVertices);
  EXPECT_EQ(r.previous_vertex_delta, -20);
  EXPECT_EQ(r.previous_model[12], 0.5f);
  // Frame 3: an attachment hidden: the runs are rebuilt, the vertex layout changed.
  pose->attachment[1] = -1;
  r = queue(3, true, {0.5f, 0, 0});
  EXPECT_EQ(stats.run_rebuilds, 2u);  // both instances
  EXPECT_FALSE(r.flags & detail::kDrawPreviousVertices);
  EXPECT_EQ(r.previous_vertex_delta, 0);
  EXPECT_EQ(r.previous_model[12], 0.5f) << "the model's motion still counts";
  // Frame 4: the same runs again.
  r = queue(4, true, {0.5f, 0, 0});
  EXPECT_TRUE(r.flags & detail::kDrawPreviousVertices);
  EXPECT_EQ(r.previous_vertex_delta, 0);
  // Frame 6: frame 5 skipped.
  r = queue(6, true, {1, 0, 0});
  EXPECT_FALSE(r.flags & detail::kDrawPreviousVertices);
  EXPECT_EQ(r.previous_model[12], 1.0f) << "no previous frame: the model itself";
  // Frame 7: frame 6 drew it; a culled frame 8 breaks the chain for frame 9.
  r = queue(7, true, {1, 0, 0});
  EXPECT_TRUE(r.flags & detail::kDrawPreviousVertices);
  draws.clear();
  frame.begin(8, Camera{}, 1, {});
  options.transform = Mat4::translation({0, 0, 50});
  ASSERT_TRUE(frame.queue(sprite, *pose, options, limits, draws, stats));
  EXPECT_TRUE(draws.records.empty());
  r = queue(9, true, {1, 0, 0});
  EXPECT_FALSE(r.flags & detail::kDrawPreviousVertices);
}

TEST_F(SpriteFrameTest, ClippedSlotsTakeTheCpuPathWithoutPreviousVertices) {
  const SpriteScene scene(/*with_clipping=*/true);
  const auto pose = scene.pose();
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  detail::SpriteInstance sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  const ForwardOptions limits = small_limits();
  for (std::uint64_t f = 0; f < 2; ++f) {
    draws.clear();
    stats = {};
    frame.begin(f, Camera{}, 1, {});
    ASSERT_TRUE(frame.queue(sprite, *pose, {}, limits, draws, stats));
    ASSERT_EQ(draws.records.size(), 1u);
    EXPECT_FALSE(draws.records.data()[0].flags & detail::kDrawPreviousVertices) << "frame " << f;
  }
  // body (page 0), hand and strip (page 1), clipped (page 0, CPU): three items.
  ASSERT_EQ(draws.items.size(), 3u);
  const DrawItem& clipped = draws.items.data()[2];
  ASSERT_GT(clipped.index_count, 0u);
  EXPECT_EQ(stats.cpu_vertices, frame.cpu_vertices().size());
  const auto indices = frame.indices();
  const auto first = static_cast<std::size_t>(clipped.index_offset / 4);
  for (std::size_t i = first; i < first + clipped.index_count; ++i) {
    EXPECT_GE(indices[i], limits.max_gpu_vertices);
    EXPECT_LT(indices[i], limits.max_gpu_vertices + frame.cpu_vertices().size());
  }
  for (std::size_t i = 0; i < first; ++i) EXPECT_LT(indices[i], stats.gpu_vertices);
  // The CPU path's tangent: the region's +u (the root's x axis, unturned), octahedral.
  const Vec3 tangent = decode_octahedral(frame.cpu_vertices()[0].tangent);
  expect_near(tangent, {1, 0, 0}, 1e-4f, "tangent");
}

TEST_F(SpriteFrameTest, LimitsAreErrorsNamingThem) {
  const SpriteScene scene(/*with_clipping=*/true);
  const auto pose = scene.pose();
  SpriteRig rig = make_rig(*device, *memory, scene.data);
  detail::SpriteInstance sprite = rig.instance();
  detail::SpriteFrame frame;
  detail::ForwardDraws draws;
  ForwardStats stats;
  ForwardOptions limits = small_limits();
  limits.max_gpu_vertices = 8;
  frame.begin(0, Camera{}, 1, {});
  Status queued = frame.queue(sprite, *pose, {}, limits, draws, stats);
  ASSERT_FALSE(queued);
  EXPECT_NE(queued.error().to_string().find("ForwardOptions::max_gpu_vertices (8)"), std::string::npos) << queued.error().to_string();
  limits = small_limits();
  limits.max_cpu_vertices = 2;
  queued = frame.queue(sprite, *pose, {}, limits, draws, stats);
  ASSERT_FALSE(queued);
  EXPECT_NE(queued.error().to_string().find("ForwardOptions::max_cpu_vertices"), std::string::npos) << queued.error().to_string();
  EXPECT_TRUE(draws.records.empty()) << "nothing appended";
  EXPECT_TRUE(frame.skinning_inputs().jobs.empty());
  limits = small_limits();
  limits.max_draws = 1;
  ASSERT_TRUE(frame.queue(sprite, *pose, {}, limits, draws, stats));
  queued = frame.queue(sprite, *pose, {}, limits, draws, stats);
  ASSERT_FALSE(queued);
  EXPECT_NE(queued.error().to_string().find("ForwardOptions::max_draws"), std::string::npos);
}

}  // namespace
}  // namespace mf::render
