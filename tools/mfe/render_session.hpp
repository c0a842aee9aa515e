#pragma once
// The GPU side of the commands that draw one rig (render, view): a device, the skeleton renderer with
// the rig's data, one instance and a target, released in the right order.

#include <memory>

#include "mf/core/expected.hpp"
#include "mf/render/device.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/render/skeleton_renderer.hpp"

namespace mf::tools {

struct RenderSession {
  std::unique_ptr<render::Device> device;
  std::unique_ptr<render::GpuMemory> memory;
  std::unique_ptr<render::SkeletonRenderer> renderer;
  std::unique_ptr<render::RenderTarget> target;
  render::InstanceHandle instance;

  // `device_options` is empty for headless rendering, or a window's (SdlWindow::device_options).
  // MF_VULKAN_VALIDATION=1 in the environment turns the Khronos validation layer on (tests do).
  static Expected<std::unique_ptr<RenderSession>> start(const skel::SkeletonData& data, const render::DeviceOptions& device_options,
                                                        int width, int height);
  ~RenderSession();
  // Replaces the target by one of the given size (after the GPU is done with the old one).
  Status resize_target(int width, int height);
  // With validation on: prints every validation message so far to stderr and turns a successful
  // exit code into 2 when there was one. Commands return through it.
  int finish(int exit_code) const;
};

}  // namespace mf::tools
