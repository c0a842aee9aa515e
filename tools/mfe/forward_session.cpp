#include "forward_session.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace mf::tools {

Expected<std::unique_ptr<ForwardSession>> ForwardSession::start(const skel::SkeletonData& data,
                                                                const render::DeviceOptions& device_options, int width, int height,
                                                                Bounds character, const StageSettings& settings) {
  auto session = std::make_unique<ForwardSession>();
  render::DeviceOptions options = device_options;
  if (const char* validation = std::getenv("MF_VULKAN_VALIDATION"); validation && std::string(validation) == "1") options.validation = true;
  auto device = render::Device::create(options);
  if (!device) return Unexpected{device.error()};
  session->device = std::move(*device);
  session->memory = std::make_unique<render::GpuMemory>(*session->device);
  auto renderer = render::ForwardRenderer::create(*session->device, *session->memory);
  if (!renderer) return Unexpected{renderer.error()};
  session->renderer = std::move(*renderer);
  auto handle = session->renderer->add_data(data);
  if (!handle) return Unexpected{handle.error()};
  auto instance = session->renderer->add_instance(*handle);
  if (!instance) return Unexpected{instance.error()};
  session->instance = *instance;
  auto stage = Stage3D::create(*session->renderer, data, character, settings);
  if (!stage) return Unexpected{stage.error()};
  session->stage.emplace(std::move(*stage));
  if (Status s = session->resize_target(width, height); !s) return Unexpected{s.error()};
  return session;
}

ForwardSession::~ForwardSession() {
  if (renderer) (void)renderer->wait_idle();
  target.reset();
  renderer.reset();
  memory.reset();
  device.reset();
}

int ForwardSession::finish(int exit_code) const {
  const auto messages = device->validation_messages();
  for (const std::string& message : messages) std::fprintf(stderr, "vulkan %s\n", message.c_str());
  return messages.empty() || exit_code != 0 ? exit_code : 2;
}

Status ForwardSession::resize_target(int width, int height) {
  if (target && target->width() == width && target->height() == height) return {};
  if (renderer) {
    if (Status s = renderer->wait_idle(); !s) return s;
  }
  target.reset();
  auto created = render::RenderTarget::create(*device, *memory, width, height);
  if (!created) return Unexpected{created.error()};
  target = std::move(*created);
  return {};
}

Status ForwardSession::draw(const skel::SkeletonPose& pose) {
  const float aspect = static_cast<float>(target->width()) / static_cast<float>(target->height());
  if (Status s = renderer->begin_frame(*target, stage->frame(aspect)); !s) return s;
  if (Status s = stage->draw_ground(*renderer); !s) return s;
  if (Status s = renderer->draw_sprite(instance, pose, stage->sprite()); !s) return s;
  return renderer->end_frame();
}

}  // namespace mf::tools
