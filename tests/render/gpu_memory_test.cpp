#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "mf/render/gpu_buffer.hpp"
#include "test_device.hpp"

namespace mf::render {
namespace {

using testing::RenderTest;

TEST_F(RenderTest, BuffersShareBlocksWithoutOverlapping) {
  std::vector<GpuBuffer> buffers;
  std::mt19937 random(7);
  for (int i = 0; i < 64; ++i) {
    const VkDeviceSize size = 256 + random() % 20000;
    auto buffer = GpuBuffer::create(*device, *memory, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload);
    ASSERT_TRUE(buffer) << buffer.error().to_string();
    buffers.push_back(std::move(*buffer));
  }
  // 64 buffers of at most ~20 KB fit in one 4 MiB block.
  EXPECT_EQ(memory->block_count(), 1u);
  // Mapped ranges never overlap: write a distinct byte pattern to each, then check all of them.
  for (std::size_t i = 0; i < buffers.size(); ++i) std::fill(buffers[i].mapped().begin(), buffers[i].mapped().end(), static_cast<std::uint8_t>(i + 1));
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const auto bytes = buffers[i].mapped();
    EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(), [&](std::uint8_t b) { return b == i + 1; })) << "buffer " << i;
  }
}

TEST_F(RenderTest, FreedRangesMergeAndEmptyBlocksAreReturned) {
  GpuMemory small(*device, VkDeviceSize{1} << 20);  // ten 100 000-byte buffers nearly fill a block
  {
    std::vector<GpuBuffer> buffers;
    for (int i = 0; i < 10; ++i) {
      auto buffer = GpuBuffer::create(*device, small, 100000, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::DeviceLocal);
      ASSERT_TRUE(buffer) << buffer.error().to_string();
      buffers.push_back(std::move(*buffer));
    }
    ASSERT_EQ(small.block_count(), 1u);
    EXPECT_GE(small.bytes_in_use(), 10u * 100000u);
    // Free three neighbours in an order that needs merging on both sides; only the merged hole can
    // hold 290 000 bytes, so fitting without a new block proves the merge.
    buffers[3] = GpuBuffer();
    buffers[1] = GpuBuffer();
    buffers[2] = GpuBuffer();
    auto big = GpuBuffer::create(*device, small, 290000, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::DeviceLocal);
    ASSERT_TRUE(big) << big.error().to_string();
    EXPECT_EQ(small.block_count(), 1u);
  }
  EXPECT_EQ(small.bytes_in_use(), 0u);
  EXPECT_EQ(small.block_count(), 0u);  // the empty block went back to the driver
}

TEST_F(RenderTest, AResourceLargerThanABlockGetsItsOwnBlock) {
  auto buffer = GpuBuffer::create(*device, *memory, VkDeviceSize{9} << 20, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::DeviceLocal);
  ASSERT_TRUE(buffer) << buffer.error().to_string();
  EXPECT_EQ(buffer->size(), VkDeviceSize{9} << 20);
  EXPECT_EQ(memory->block_count(), 1u);
}

}  // namespace
}  // namespace mf::render
