#pragma once
// What `mfe skel view` draws each frame into the target it presents: the 2D canvas (the skeleton
// renderer, fitted to the playing clip) or the 3D stage (the forward renderer, stage_3d.hpp, with a
// mouse-driven orbit camera). The viewer's loop, playback and keys are the same for both.

#include <SDL2/SDL.h>

#include <memory>

#include "mf/core/expected.hpp"
#include "mf/render/device.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "runtime_setup.hpp"
#include "stage_3d.hpp"

namespace mf::tools {

class ViewScene {
 public:
  virtual ~ViewScene() = default;
  virtual render::Device& device() = 0;
  virtual render::RenderTarget& target() = 0;
  // A target of the window's new drawable size (after the GPU is done with the old one).
  virtual Status resize_target(int width, int height) = 0;
  // The clip now playing (the 2D view fits its bounds).
  virtual void show_clip(int clip) = 0;
  // Called after the skin is applied to the pose the viewer plays (the 3D stage hides slots).
  virtual void prepare_pose(skel::SkeletonPose& pose) const = 0;
  virtual Status draw(const skel::SkeletonPose& pose) = 0;
  // Mouse input the scene uses (the 3D orbit); true when it took the event.
  virtual bool handle_event(const SDL_Event& event) = 0;
  // The background presented around the target.
  virtual render::Color background() const = 0;
  // Validation messages, as RenderSession::finish.
  virtual int finish(int exit_code) const = 0;
};

// `device_options`: the window's. The 2D scene skins on the CPU when `cpu_skinning`.
Expected<std::unique_ptr<ViewScene>> make_view_scene_2d(const skel::SkeletonData& data, const render::DeviceOptions& device_options,
                                                        int width, int height, bool cpu_skinning);
// The 3D stage placed by every clip's bounds, so switching clips keeps the character on the ground.
Expected<std::unique_ptr<ViewScene>> make_view_scene_3d(const RuntimeSetup& rt, const render::DeviceOptions& device_options,
                                                        int width, int height, const StageSettings& settings);

}  // namespace mf::tools
