// The 2D view: the skeleton renderer draws the pose fitted to the playing clip's bounds.

#include <algorithm>

#include "contact_sheet.hpp"
#include "render_session.hpp"
#include "view_scene.hpp"

namespace mf::tools {
namespace {

constexpr render::Color kBackground{0.16f, 0.17f, 0.2f, 1};

// Skeleton space → window pixels: the clip's conservative bounds and the origin, fitted with a margin.
render::Affine2 fit_clip(const skel::SkeletonData& data, int clip, int width, int height) {
  Bounds bounds = data.clip(clip) ? data.clip(clip)->bounds : Bounds{};
  if (bounds.empty()) bounds = {-1, -1, 1, 1};
  bounds.min_x = std::min(bounds.min_x, 0.0f);
  bounds.max_x = std::max(bounds.max_x, 0.0f);
  bounds.min_y = std::min(bounds.min_y, 0.0f);
  bounds.max_y = std::max(bounds.max_y, 0.0f);
  const SheetView view = fit_view(bounds, width, height, 0.06f * static_cast<float>(std::min(width, height)));
  return {view.scale, 0, 0, view.scale, view.offset_x, view.offset_y};
}

class ViewScene2D final : public ViewScene {
 public:
  ViewScene2D(const skel::SkeletonData& data, std::unique_ptr<RenderSession> gpu, bool cpu_skinning) : data_(data), gpu_(std::move(gpu)) {
    draw_.cpu_skinning = cpu_skinning;
  }

  render::Device& device() override { return *gpu_->device; }
  render::RenderTarget& target() override { return *gpu_->target; }
  Status resize_target(int width, int height) override {
    if (Status s = gpu_->resize_target(width, height); !s) return s;
    show_clip(clip_);
    return {};
  }
  void show_clip(int clip) override {
    clip_ = clip;
    draw_.transform = fit_clip(data_, clip, gpu_->target->width(), gpu_->target->height());
  }
  void prepare_pose(skel::SkeletonPose&) const override {}
  Status draw(const skel::SkeletonPose& pose) override {
    if (Status s = gpu_->renderer->begin_frame(*gpu_->target, {}, kBackground); !s) return s;
    if (Status s = gpu_->renderer->draw(gpu_->instance, pose, draw_); !s) return s;
    return gpu_->renderer->end_frame();
  }
  bool handle_event(const SDL_Event&) override { return false; }
  render::Color background() const override { return kBackground; }
  int finish(int exit_code) const override { return gpu_->finish(exit_code); }

 private:
  const skel::SkeletonData& data_;
  std::unique_ptr<RenderSession> gpu_;
  render::DrawOptions draw_;
  int clip_ = 0;
};

}  // namespace

Expected<std::unique_ptr<ViewScene>> make_view_scene_2d(const skel::SkeletonData& data, const render::DeviceOptions& device_options,
                                                        int width, int height, bool cpu_skinning) {
  auto gpu = RenderSession::start(data, device_options, width, height);
  if (!gpu) return Unexpected{gpu.error()};
  return std::unique_ptr<ViewScene>(std::make_unique<ViewScene2D>(data, std::move(*gpu), cpu_skinning));
}

}  // namespace mf::tools
