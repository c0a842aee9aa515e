// The renderer's frame loop allocates nothing on the CPU once warm: the example rig walking, drawn
// through compute skinning and through the CPU path, frame after frame. Its own executable, because
// it replaces global operator new. Validation is off here: the validation layer allocates through
// operator new on its own behalf (the other render tests run with it on).

#include <gtest/gtest.h>

#include <string>

#include "counting_new.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/render/device.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/skeleton_instance.hpp"

namespace mf::render {
namespace {

TEST(RenderAllocation, FramesAllocateNothingAfterWarmUp) {
  auto built = offline::build_rig_file(std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel");
  ASSERT_TRUE(built) << built.error().to_string();
  const skel::SkeletonData& data = *built->data;
  const int walk = data.find_clip("walk");
  ASSERT_GE(walk, 0);

  auto device = Device::create({});
  ASSERT_TRUE(device) << device.error().to_string();
  GpuMemory memory(**device, VkDeviceSize{16} << 20);
  RendererOptions options;
  options.max_gpu_vertices = 1 << 14;
  options.max_cpu_vertices = 1 << 14;
  options.max_static_vertices = 1 << 14;
  options.max_static_influences = 1 << 15;
  options.upload_bytes_per_slot = VkDeviceSize{2} << 20;
  auto renderer = SkeletonRenderer::create(**device, memory, options);
  ASSERT_TRUE(renderer) << renderer.error().to_string();
  auto handle = (*renderer)->add_data(data);
  ASSERT_TRUE(handle) << handle.error().to_string();
  auto gpu_instance = (*renderer)->add_instance(*handle);
  auto cpu_instance = (*renderer)->add_instance(*handle);
  ASSERT_TRUE(gpu_instance && cpu_instance);
  auto target = RenderTarget::create(**device, memory, 128, 128);
  ASSERT_TRUE(target) << target.error().to_string();

  skel::SkeletonInstance skeleton(data);
  DrawOptions gpu_draw, cpu_draw;
  gpu_draw.transform = Affine2::translation(40, 120) * Affine2::scale(0.4f, 0.4f);
  cpu_draw.transform = Affine2::translation(90, 120) * Affine2::scale(0.4f, 0.4f);
  cpu_draw.cpu_skinning = true;

  const float dt = 1.0f / 60;
  std::size_t before = 0;
  for (int frame = 0; frame < 240; ++frame) {
    if (frame == 60) before = testing::allocation_count();  // after a full walk cycle of warm-up
    const float t = static_cast<float>(frame) * dt;
    const anim::ClipSample sample = skel::loop_sample(data, walk, t - dt, t);
    skeleton.update({&sample, 1});
    ASSERT_TRUE((*renderer)->begin_frame(**target, {}, {0.2f, 0.2f, 0.25f, 1}));
    ASSERT_TRUE((*renderer)->draw(*gpu_instance, skeleton.pose(), gpu_draw));
    ASSERT_TRUE((*renderer)->draw(*cpu_instance, skeleton.pose(), cpu_draw));
    ASSERT_TRUE((*renderer)->end_frame());
  }
  const std::size_t allocations = testing::allocation_count() - before;
  EXPECT_EQ(allocations, 0u) << "allocations in 180 frames after warm-up";
  EXPECT_EQ((*renderer)->stats().skeletons_drawn, 2u);
  EXPECT_GT((*renderer)->stats().gpu_vertices, 0u);
  EXPECT_GT((*renderer)->stats().cpu_vertices, 0u);
}

}  // namespace
}  // namespace mf::render
