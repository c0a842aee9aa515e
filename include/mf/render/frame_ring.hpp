#pragma once
// FrameRing: kFrameSlots frames in flight. Each slot has its command buffer, a fence and its range
// of the upload buffer; begin_frame() waits for the slot's previous submission, so the CPU records
// frame N+1 while the GPU runs frame N, and never writes memory the GPU still reads.

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>

#include "mf/core/expected.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/upload_ring.hpp"

namespace mf::render {

class Device;
class GpuMemory;

inline constexpr int kFrameSlots = 2;

struct FrameSlot {
  int index = 0;
  std::uint64_t frame = 0;  // frame number, counting from 0
  VkCommandBuffer commands = VK_NULL_HANDLE;
  UploadRing uploads;
};

class FrameRing {
 public:
  static Expected<FrameRing> create(Device& device, GpuMemory& memory, VkDeviceSize upload_bytes_per_slot);
  FrameRing() = default;
  ~FrameRing();
  FrameRing(FrameRing&& other) noexcept;
  FrameRing& operator=(FrameRing&& other) noexcept;
  FrameRing(const FrameRing&) = delete;
  FrameRing& operator=(const FrameRing&) = delete;

  // Waits for the next slot to be free, resets its commands and uploads, and begins recording.
  Expected<FrameSlot*> begin_frame();
  // Ends recording and submits the current slot.
  Status submit();
  // Waits for every slot.
  Status wait_idle();

 private:
  void release();
  Device* device_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  GpuBuffer upload_buffer_;
  std::array<FrameSlot, kFrameSlots> slots_{};
  std::array<VkFence, kFrameSlots> fences_{};
  std::uint64_t next_frame_ = 0;
  int current_ = -1;
};

}  // namespace mf::render
