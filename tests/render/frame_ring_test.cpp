#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "mf/render/frame_ring.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/shader_module.hpp"
#include "test_device.hpp"

namespace mf::render {
namespace {

using testing::RenderTest;

constexpr std::uint32_t kScaleAdd[] = {
#include "shaders/scale_add.comp.inc"
};

TEST(UploadRingTest, AlignsAndRefusesWhenFull) {
  std::vector<std::uint8_t> bytes(1000);
  UploadRing ring(VK_NULL_HANDLE, 4096, 1000, bytes.data());
  auto a = ring.allocate(10, 16);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->offset, 4096u);
  EXPECT_EQ(a->data, bytes.data());
  auto b = ring.allocate(100, 256);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->offset, 4096u + 256u);
  EXPECT_EQ(b->data, bytes.data() + 256);
  EXPECT_FALSE(ring.allocate(700, 16));  // 356 + 700 > 1000
  auto c = ring.allocate(644, 4);        // exactly fills it
  ASSERT_TRUE(c);
  EXPECT_EQ(ring.used(), 1000u);
  EXPECT_FALSE(ring.allocate(1, 1));
  ring.reset();
  EXPECT_TRUE(ring.allocate(1000, 1));
}

TEST(UploadRingTest, FreeSpaceIsWhereTheNextAllocationOfItsAlignmentLands) {
  std::vector<std::uint8_t> bytes(1000);
  UploadRing ring(VK_NULL_HANDLE, 4096, 1000, bytes.data());
  ASSERT_TRUE(ring.allocate(10, 16));
  const UploadSpan space = ring.free_space(64);
  EXPECT_EQ(space.offset, 4096u + 64u);
  EXPECT_EQ(space.data, bytes.data() + 64);
  EXPECT_EQ(space.size, 1000u - 64u);
  // Writing into the free space, then allocating what was written, gives that same place back.
  auto written = ring.allocate(100, 64);
  ASSERT_TRUE(written);
  EXPECT_EQ(written->offset, space.offset);
  EXPECT_EQ(written->data, space.data);
  ASSERT_TRUE(ring.allocate(1000 - 164, 1));  // full
  EXPECT_EQ(ring.free_space(16).size, 0u);
}

// Uploads through the frame ring reach a compute shader, and the results come back, across more
// frames than there are slots (so slots are reused after their fences).
TEST_F(RenderTest, FrameRingFeedsAComputeShader) {
  constexpr std::uint32_t kCount = 1000;
  auto ring = FrameRing::create(*device, *memory, 64 * 1024);
  ASSERT_TRUE(ring) << ring.error().to_string();
  auto output = GpuBuffer::create(*device, *memory, kCount * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  MemoryUse::DeviceLocal);
  auto readback = GpuBuffer::create(*device, *memory, kCount * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback);
  ASSERT_TRUE(output && readback);
  auto shader = ShaderModule::create(*device, kScaleAdd);
  ASSERT_TRUE(shader) << shader.error().to_string();

  VkDevice vk = device->device();
  VkDescriptorSetLayoutBinding bindings[2] = {};
  for (std::uint32_t i = 0; i < 2; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 2;
  set_info.pBindings = bindings;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorSetLayout(vk, &set_info, nullptr, &set_layout), VK_SUCCESS);
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(vk, &layout_info, nullptr, &layout), VK_SUCCESS);
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = shader->handle();
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateComputePipelines(vk, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline), VK_SUCCESS);
  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * kFrameSlots};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = kFrameSlots;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorPool(vk, &pool_info, nullptr, &pool), VK_SUCCESS);
  VkDescriptorSet sets[kFrameSlots] = {};
  VkDescriptorSetLayout layouts[kFrameSlots] = {set_layout, set_layout};
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool;
  alloc.descriptorSetCount = kFrameSlots;
  alloc.pSetLayouts = layouts;
  ASSERT_EQ(vkAllocateDescriptorSets(vk, &alloc, sets), VK_SUCCESS);

  for (int frame = 0; frame < 5; ++frame) {
    auto slot = ring->begin_frame();
    ASSERT_TRUE(slot) << slot.error().to_string();
    auto input = (*slot)->uploads.allocate(kCount * 4, device->properties().limits.minStorageBufferOffsetAlignment);
    ASSERT_TRUE(input);
    for (std::uint32_t i = 0; i < kCount; ++i) {
      const float v = static_cast<float>(frame * 1000 + static_cast<int>(i));
      std::memcpy(input->data + i * 4, &v, 4);
    }
    VkDescriptorBufferInfo in_info{input->buffer, input->offset, input->size};
    VkDescriptorBufferInfo out_info{output->handle(), 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
    const VkDescriptorSet set = sets[(*slot)->index];
    for (std::uint32_t i = 0; i < 2; ++i) {
      writes[i].dstSet = set;
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = i == 0 ? &in_info : &out_info;
    }
    vkUpdateDescriptorSets(vk, 2, writes, 0, nullptr);

    VkCommandBuffer cmd = (*slot)->commands;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    struct {
      float scale;
      std::uint32_t count;
    } constants{2.0f, kCount};
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, &constants);
    vkCmdDispatch(cmd, (kCount + 63) / 64, 1, 1);
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    VkBufferCopy copy{0, 0, kCount * 4};
    vkCmdCopyBuffer(cmd, output->handle(), readback->handle(), 1, &copy);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
    ASSERT_TRUE(ring->submit());
    ASSERT_TRUE(ring->wait_idle());

    const auto result = readback->mapped();
    for (std::uint32_t i = 0; i < kCount; i += 97) {
      float v = 0;
      std::memcpy(&v, result.data() + i * 4, 4);
      EXPECT_FLOAT_EQ(v, static_cast<float>(frame * 1000 + static_cast<int>(i)) * 2.0f + static_cast<float>(i)) << "frame " << frame << " i " << i;
    }
  }

  vkDestroyDescriptorPool(vk, pool, nullptr);
  vkDestroyPipeline(vk, pipeline, nullptr);
  vkDestroyPipelineLayout(vk, layout, nullptr);
  vkDestroyDescriptorSetLayout(vk, set_layout, nullptr);
}

}  // namespace
}  // namespace mf::render
