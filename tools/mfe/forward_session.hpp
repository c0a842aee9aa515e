#pragma once
// The GPU side of the commands that show one rig on the 3D stage (render --3d, view --3d): a device,
// the forward renderer with the rig's data, one sprite instance, the stage and a target, released
// in the right order. RenderSession's counterpart for the 3D renderer.

#include <memory>
#include <optional>

#include "mf/core/expected.hpp"
#include "mf/render/device.hpp"
#include "mf/render/forward_renderer.hpp"
#include "mf/render/gpu_memory.hpp"
#include "stage_3d.hpp"

namespace mf::tools {

struct ForwardSession {
  std::unique_ptr<render::Device> device;
  std::unique_ptr<render::GpuMemory> memory;
  std::unique_ptr<render::ForwardRenderer> renderer;
  std::unique_ptr<render::RenderTarget> target;
  render::InstanceHandle instance;
  std::optional<Stage3D> stage;

  // `device_options` is empty for headless rendering, or a window's (SdlWindow::device_options).
  // MF_VULKAN_VALIDATION=1 in the environment turns the Khronos validation layer on (tests do).
  // `character`: the skeleton-space bounds the stage places the sprite by (character_bounds).
  static Expected<std::unique_ptr<ForwardSession>> start(const skel::SkeletonData& data, const render::DeviceOptions& device_options,
                                                         int width, int height, Bounds character, const StageSettings& settings);
  ~ForwardSession();
  // Replaces the target by one of the given size (after the GPU is done with the old one).
  Status resize_target(int width, int height);
  // Draws one frame of the pose on the stage into the target.
  Status draw(const skel::SkeletonPose& pose);
  // With validation on: prints every validation message so far to stderr and turns a successful
  // exit code into 2 when there was one. Commands return through it.
  int finish(int exit_code) const;
};

}  // namespace mf::tools
