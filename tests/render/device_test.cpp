#include <gtest/gtest.h>

#include <cstdlib>

#include "test_device.hpp"

namespace mf::render {
namespace {

using testing::RenderTest;

TEST_F(RenderTest, CreatesAHeadlessDeviceWithOneUniversalQueue) {
  EXPECT_NE(device->device(), VK_NULL_HANDLE);
  EXPECT_NE(device->queue(), VK_NULL_HANDLE);
  EXPECT_FALSE(device->name().empty());
  std::printf("device: %s%s\n", device->name().c_str(), device->is_cpu() ? " (CPU)" : "");
}

TEST_F(RenderTest, FindsHostVisibleAndDeviceLocalMemory) {
  EXPECT_GE(device->find_memory_type(~0u, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT), 0);
  EXPECT_GE(device->find_memory_type(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT), 0);
  EXPECT_EQ(device->find_memory_type(0u, 0), -1);  // no type allowed at all
}

TEST(DeviceSelection, AnUnknownDeviceNameIsAClearError) {
  DeviceOptions options;
  options.prefer_device = "no such device 42";
  auto created = Device::create(options);
  ASSERT_FALSE(created);
  EXPECT_NE(created.error().message.find("no Vulkan device named like \"no such device 42\""), std::string::npos)
      << created.error().message;
  EXPECT_NE(created.error().message.find("found:"), std::string::npos);
}

TEST(DeviceSelection, ThePreferredNamePicksThatDevice) {
  DeviceOptions options;
  auto any = Device::create(options);
  ASSERT_TRUE(any) << any.error().to_string();
  const std::string name = (*any)->name();
  any->reset();
  options.prefer_device = name.substr(0, 6);
  auto picked = Device::create(options);
  ASSERT_TRUE(picked) << picked.error().to_string();
  EXPECT_EQ((*picked)->name().substr(0, 6), name.substr(0, 6));
}

TEST_F(RenderTest, ValidationMessagesAreCaught) {
  // A deliberate misuse: a buffer of size 0 is invalid usage, so the layer must report it.
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 0;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  const VkResult r = vkCreateBuffer(device->device(), &info, nullptr, &buffer);
  if (r == VK_SUCCESS && buffer != VK_NULL_HANDLE) vkDestroyBuffer(device->device(), buffer, nullptr);
  const auto messages = device->validation_messages();
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.front().find("validation error"), std::string::npos) << messages.front();
  device->clear_validation_messages();  // expected here: do not fail the test on them
}

}  // namespace
}  // namespace mf::render
