// The forward renderer's frame loop allocates nothing on the CPU once warm: the example rig walking
// as a sprite on a ground plane under a shadow-casting sun, frame after frame, with a moving camera.
// Its own executable, because it replaces global operator new; validation is off for the same
// reason as render_allocation_test.cpp (the layer allocates through operator new).

#include <gtest/gtest.h>

#include <string>

#include "counting_new.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/render/device.hpp"
#include "mf/render/forward_renderer.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/skel/skeleton_instance.hpp"

namespace mf::render {
namespace {

TEST(ForwardAllocation, FramesAllocateNothingAfterWarmUp) {
  auto built = offline::build_rig_file(std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel");
  ASSERT_TRUE(built) << built.error().to_string();
  const skel::SkeletonData& data = *built->data;
  const int walk = data.find_clip("walk");
  ASSERT_GE(walk, 0);

  auto device = Device::create({});
  ASSERT_TRUE(device) << device.error().to_string();
  GpuMemory memory(**device, VkDeviceSize{16} << 20);
  ForwardOptions options;
  options.max_gpu_vertices = 1 << 14;
  options.max_cpu_vertices = 1 << 12;
  options.max_static_vertices = 1 << 14;
  options.max_static_influences = 1 << 15;
  options.upload_bytes_per_slot = VkDeviceSize{2} << 20;
  options.shadow_map_size = 256;
  auto renderer = ForwardRenderer::create(**device, memory, options);
  ASSERT_TRUE(renderer) << renderer.error().to_string();
  ForwardRenderer& r = **renderer;
  auto data_handle = r.add_data(data);
  ASSERT_TRUE(data_handle) << data_handle.error().to_string();
  auto near_sprite = r.add_instance(*data_handle);
  auto far_sprite = r.add_instance(*data_handle);
  ASSERT_TRUE(near_sprite && far_sprite);
  Material ground_material;
  ground_material.base_color = {0.5f, 0.55f, 0.5f, 1};
  auto ground = r.add_mesh(make_plane(20, 20));
  auto ground_look = r.add_material(ground_material);
  ASSERT_TRUE(ground && ground_look);
  auto target = RenderTarget::create(**device, memory, 96, 96);
  ASSERT_TRUE(target) << target.error().to_string();

  skel::SkeletonInstance skeleton(data);
  SpriteDrawOptions near_draw, far_draw;
  near_draw.object_id = 1;
  far_draw.object_id = 2;
  far_draw.transform = Mat4::translation({1.5f, 0, -2});
  far_draw.billboard = SkeletonBillboard::Y;
  const std::array<PointLight3D, 1> points{{{Vec3{0, 2, 1}, 4, {1, 0.8f, 0.6f, 1}, 1}}};

  const float dt = 1.0f / 60;
  std::size_t before = 0;
  for (int frame = 0; frame < 240; ++frame) {
    if (frame == 60) before = testing::allocation_count();  // after a full walk cycle of warm-up
    const float t = static_cast<float>(frame) * dt;
    const anim::ClipSample sample = skel::loop_sample(data, walk, t - dt, t);
    skeleton.update({&sample, 1});
    ForwardFrame view;
    view.camera = Camera::orbit({0, 1, 0}, 20 + static_cast<float>(frame) * 0.25f, 15, 6);
    view.lights.sun = DirectionalLight{};
    view.lights.points = points;
    ASSERT_TRUE(r.begin_frame(**target, view));
    ASSERT_TRUE(r.draw_mesh(*ground, *ground_look, Mat4::identity()));
    ASSERT_TRUE(r.draw_sprite(*near_sprite, skeleton.pose(), near_draw));
    ASSERT_TRUE(r.draw_sprite(*far_sprite, skeleton.pose(), far_draw));
    ASSERT_TRUE(r.end_frame());
  }
  const std::size_t allocations = testing::allocation_count() - before;
  EXPECT_EQ(allocations, 0u) << "allocations in 180 frames after warm-up";
  EXPECT_EQ(r.stats().sprites_drawn, 2u);
  EXPECT_EQ(r.stats().meshes_drawn, 1u);
  EXPECT_GT(r.stats().gpu_vertices, 0u);
  EXPECT_EQ(r.stats().pipelines_created_this_frame, 0u);
}

}  // namespace
}  // namespace mf::render
