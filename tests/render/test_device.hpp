#pragma once
// A validated device for render tests: every test fails on any validation message.

#include <gtest/gtest.h>

#include <memory>

#include "mf/render/device.hpp"
#include "mf/render/gpu_memory.hpp"

namespace mf::render::testing {

class RenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DeviceOptions options;
    options.validation = true;
    auto created = Device::create(options);
    ASSERT_TRUE(created) << created.error().to_string();
    device = std::move(*created);
    memory = std::make_unique<GpuMemory>(*device, VkDeviceSize{4} << 20);
  }
  void TearDown() override {
    memory.reset();
    if (device) {
      for (const auto& message : device->validation_messages()) ADD_FAILURE() << message;
    }
  }

  std::unique_ptr<Device> device;
  std::unique_ptr<GpuMemory> memory;
};

}  // namespace mf::render::testing
