// The 3D view: the forward renderer draws the pose on the 3D stage. Dragging with the left mouse
// button orbits the camera (yaw, pitch), the wheel zooms.

#include <algorithm>
#include <cmath>
#include <vector>

#include "forward_session.hpp"
#include "view_scene.hpp"

namespace mf::tools {
namespace {

constexpr float kDegreesPerPixel = 0.4f;
constexpr float kZoomPerNotch = 0.9f;  // distance factor of one wheel notch towards the character
constexpr float kMinPitch = -10, kMaxPitch = 85;

class ViewScene3D final : public ViewScene {
 public:
  ViewScene3D(const RuntimeSetup& rt, const StageSettings& settings, std::unique_ptr<ForwardSession> gpu)
      : rt_(rt), settings_(settings), gpu_(std::move(gpu)) {}

  render::Device& device() override { return *gpu_->device; }
  render::RenderTarget& target() override { return *gpu_->target; }
  Status resize_target(int width, int height) override { return gpu_->resize_target(width, height); }
  // Placed once for every clip; the camera frames the playing one.
  void show_clip(int clip) override {
    const int clips[] = {clip};
    gpu_->stage->fit_camera(character_bounds(rt_, clips, settings_));
  }
  void prepare_pose(skel::SkeletonPose& pose) const override { gpu_->stage->prepare_pose(pose); }
  Status draw(const skel::SkeletonPose& pose) override { return gpu_->draw(pose); }

  bool handle_event(const SDL_Event& event) override {
    StageOrbit& orbit = gpu_->stage->orbit();
    if (event.type == SDL_MOUSEMOTION && (event.motion.state & SDL_BUTTON_LMASK) != 0) {
      orbit.yaw -= static_cast<float>(event.motion.xrel) * kDegreesPerPixel;
      orbit.pitch = std::clamp(orbit.pitch + static_cast<float>(event.motion.yrel) * kDegreesPerPixel, kMinPitch, kMaxPitch);
      return true;
    }
    if (event.type == SDL_MOUSEWHEEL && event.wheel.y != 0) {
      const float aspect = static_cast<float>(target().width()) / static_cast<float>(target().height());
      const float distance = orbit.distance ? *orbit.distance : gpu_->stage->fitted_distance(aspect);
      orbit.distance = distance * std::pow(kZoomPerNotch, static_cast<float>(event.wheel.y));
      return true;
    }
    return false;
  }
  render::Color background() const override { return gpu_->stage->frame(1).clear; }
  int finish(int exit_code) const override { return gpu_->finish(exit_code); }

 private:
  const RuntimeSetup& rt_;
  StageSettings settings_;
  std::unique_ptr<ForwardSession> gpu_;
};

}  // namespace

Expected<std::unique_ptr<ViewScene>> make_view_scene_3d(const RuntimeSetup& rt, const render::DeviceOptions& device_options,
                                                        int width, int height, const StageSettings& settings) {
  std::vector<int> clips(rt.data->clips.size());
  for (std::size_t i = 0; i < clips.size(); ++i) clips[i] = static_cast<int>(i);
  auto gpu = ForwardSession::start(*rt.data, device_options, width, height, character_bounds(rt, clips, settings), settings);
  if (!gpu) return Unexpected{gpu.error()};
  return std::unique_ptr<ViewScene>(std::make_unique<ViewScene3D>(rt, settings, std::move(*gpu)));
}

}  // namespace mf::tools
