// SkeletonRenderer: the public API over the renderer's parts (skeleton_renderer.hpp lists them):
// the handle tables, the frame ring and the frame being recorded, and removed data kept until the
// frames that may use it have finished.

#include "mf/render/skeleton_renderer.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "canvas_pipelines.hpp"
#include "frame_recording.hpp"
#include "handle_table.hpp"
#include "instance_runs.hpp"
#include "mf/render/canvas_vertex.hpp"
#include "mf/render/device.hpp"
#include "mf/render/frame_ring.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/skel/bounds.hpp"
#include "render_target_impl.hpp"
#include "skeleton_frame.hpp"
#include "skeleton_gpu_data.hpp"
#include "skinning_pass.hpp"

namespace mf::render {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

std::string describe(const char* kind, std::int32_t index, std::uint32_t generation) {
  return std::string(kind) + " handle " + std::to_string(index) + " (generation " + std::to_string(generation) + ")";
}

// The entry a handle names, or the error saying why it names none.
template <typename T, typename Handle>
Expected<T*> look_up(const detail::HandleTable<T>& table, Handle handle, const char* what, const char* kind) {
  if (T* entry = table.find(handle.index, handle.generation)) return entry;
  if (!table.known_index(handle.index)) return fail(std::string(what) + ": no " + kind + " with handle " + std::to_string(handle.index));
  return fail(std::string(what) + ": " + describe(kind, handle.index, handle.generation) +
              " is stale: it was removed, and its slot may hold a later " + kind);
}

}  // namespace

struct SkeletonRenderer::Impl {
  Device* device = nullptr;
  GpuMemory* memory = nullptr;
  RendererOptions options;
  FrameRing ring;
  // Declared before what refers to them, so they are destroyed after it.
  std::unique_ptr<detail::SkinningPass> skinning;
  std::unique_ptr<detail::CanvasPipelines> pipelines;
  std::array<GpuBuffer, kFrameSlots> outputs;  // per frame slot: skinned vertices, then CPU vertices

  detail::HandleTable<detail::SkeletonGpuData> datas;
  detail::HandleTable<detail::InstanceRuns> instances;
  // Removed data, destroyed once the frames begun before its removal have finished.
  struct Retired {
    std::unique_ptr<detail::SkeletonGpuData> data;
    std::uint64_t frames_begun;  // at the removal
  };
  std::vector<Retired> retired;

  detail::SkeletonFrame frame;
  std::uint64_t frames_begun = 0;
  std::array<std::uint64_t, kFrameSlots> slot_uses{};  // frames begun on each frame slot
  std::uint64_t pipelines_created_total = 0;
  std::uint32_t pipelines_created_since_frame = 0;

  // Destroys the removed data no frame in flight can use (all: every frame has finished).
  void release_retired(bool all);
  ~Impl();
};

SkeletonRenderer::Impl::~Impl() {
  if (!device) return;
  vkDeviceWaitIdle(device->device());
}

void SkeletonRenderer::Impl::release_retired(bool all) {
  // A frame begun before the removal (number < r.frames_begun) has finished once the frame
  // kFrameSlots later on its slot has begun, since beginning it waited for that slot's fence.
  std::erase_if(retired, [&](const Retired& r) { return all || frames_begun >= r.frames_begun + kFrameSlots; });
}

SkeletonRenderer::~SkeletonRenderer() = default;

Expected<std::unique_ptr<SkeletonRenderer>> SkeletonRenderer::create(Device& device, GpuMemory& memory,
                                                                      const RendererOptions& options) {
  std::unique_ptr<SkeletonRenderer> self(new SkeletonRenderer());
  self->impl_ = std::make_unique<Impl>();
  Impl& im = *self->impl_;
  im.device = &device;
  im.memory = &memory;
  im.options = options;

  auto ring = FrameRing::create(device, memory, options.upload_bytes_per_slot);
  if (!ring) return Unexpected{ring.error()};
  im.ring = std::move(*ring);
  auto pipelines = detail::CanvasPipelines::create(device);
  if (!pipelines) return Unexpected{pipelines.error()};
  im.pipelines = std::move(*pipelines);
  auto skinning = detail::SkinningPass::create(device, memory,
                                               {options.max_static_influences, options.max_static_vertices, options.timestamps});
  if (!skinning) return Unexpected{skinning.error()};
  im.skinning = std::move(*skinning);
  ++im.pipelines_created_total;  // the skinning pipeline
  for (auto& output : im.outputs) {
    auto buffer = GpuBuffer::create(device, memory,
                                    VkDeviceSize{options.max_gpu_vertices + options.max_cpu_vertices} * sizeof(CanvasVertex),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    MemoryUse::DeviceLocal);
    if (!buffer) return Unexpected{buffer.error()};
    output = std::move(*buffer);
  }
  return self;
}

Expected<DataHandle> SkeletonRenderer::add_data(const skel::SkeletonData& data) {
  Impl& im = *impl_;
  auto entry = detail::upload_skeleton_data(*im.device, *im.memory, *im.skinning, im.pipelines->page_set_layout(), data);
  if (!entry) return Unexpected{entry.error()};
  // The pipeline prebuild: every variant this data can draw with, now rather than mid-frame.
  std::uint32_t created = 0;
  const Status prepared = im.pipelines->prepare(data, (*entry)->variant, created);
  im.pipelines_created_total += created;
  im.pipelines_created_since_frame += created;
  if (!prepared) return Unexpected{prepared.error()};
  const auto key = im.datas.add(std::move(*entry));
  return DataHandle{key.index, key.generation};
}

Expected<InstanceHandle> SkeletonRenderer::add_instance(DataHandle data) {
  Impl& im = *impl_;
  auto entry = look_up(im.datas, data, "add_instance", "data");
  if (!entry) return Unexpected{entry.error()};
  auto instance = detail::make_instance_runs(**entry);
  ++(*entry)->instances;
  const auto key = im.instances.add(std::move(instance));
  return InstanceHandle{key.index, key.generation};
}

Status SkeletonRenderer::remove_instance(InstanceHandle handle) {
  Impl& im = *impl_;
  auto instance = look_up(im.instances, handle, "remove_instance", "instance");
  if (!instance) return Unexpected{instance.error()};
  --(*instance)->data->instances;
  im.instances.remove(handle.index, handle.generation);
  return {};
}

Status SkeletonRenderer::remove_data(DataHandle handle) {
  Impl& im = *impl_;
  auto entry = look_up(im.datas, handle, "remove_data", "data");
  if (!entry) return Unexpected{entry.error()};
  if (const std::uint32_t left = (*entry)->instances; left > 0)
    return fail("remove_data: " + describe("data", handle.index, handle.generation) + " still has " + std::to_string(left) +
                (left == 1 ? " instance" : " instances") + "; remove them first");
  auto removed = im.datas.remove(handle.index, handle.generation);
  if (im.frames_begun == 0) return {};  // no frame ever used it: freed now
  im.retired.push_back({std::move(removed), im.frames_begun});
  return {};
}

Status SkeletonRenderer::begin_frame(RenderTarget& target, const View& view, Color clear, std::span<const PointLight> lights,
                                     Color ambient) {
  Impl& im = *impl_;
  if (im.frame.recording()) return fail("begin_frame: the previous frame was not ended");
  if (lights.size() > static_cast<std::size_t>(kMaxPointLights))
    return fail("begin_frame: " + std::to_string(lights.size()) + " point lights, at most " + std::to_string(kMaxPointLights));
  auto slot = im.ring.begin_frame();
  if (!slot) return Unexpected{slot.error()};
  FrameSlot& s = **slot;
  im.frames_begun = s.frame + 1;
  if (!im.retired.empty()) im.release_retired(false);
  const std::uint64_t slot_use = ++im.slot_uses[static_cast<std::size_t>(s.index)];
  im.skinning->collect_timing(s.index);
  const VkDeviceSize uniform_align = std::max<VkDeviceSize>(im.device->properties().limits.minUniformBufferOffsetAlignment, 16);
  im.frame.begin(s, slot_use, target, view, clear, lights, ambient, uniform_align);
  const std::uint64_t total = im.pipelines_created_total;
  stats_ = {};
  stats_.pipelines_created_this_frame = im.pipelines_created_since_frame;
  stats_.pipelines_created_total = total;
  im.pipelines_created_since_frame = 0;
  return {};
}

Status SkeletonRenderer::draw(InstanceHandle handle, const skel::SkeletonPose& pose, const DrawOptions& options) {
  Impl& im = *impl_;
  if (!im.frame.recording()) return fail("draw: no frame was begun");
  auto found = look_up(im.instances, handle, "draw", "instance");
  if (!found) return Unexpected{found.error()};
  detail::InstanceRuns& instance = **found;
  if (&pose.data() != instance.data->data) return fail("draw: the pose belongs to another SkeletonData than the instance's");

  // Culling: the skeleton-space bounds, transformed, against the view.
  const skel::Bounds bounds = options.cull_bounds ? *options.cull_bounds : skel::pose_bounds(pose);
  if (detail::culled(bounds, options.transform, im.frame.view())) {
    ++stats_.skeletons_culled;
    return {};
  }
  ++stats_.skeletons_drawn;

  const bool cpu_path = im.options.allow_cpu_vertices && (options.cpu_skinning || !im.options.allow_gpu_skinning);
  if (cpu_path) return im.frame.queue_cpu(instance, pose, options, im.options, stats_);
  if (!im.options.allow_gpu_skinning) return {};
  return im.frame.queue_gpu(instance, pose, options, im.options, stats_);
}

Status SkeletonRenderer::end_frame() {
  Impl& im = *impl_;
  if (!im.frame.recording()) return fail("end_frame: no frame was begun");
  RenderTarget& target = im.frame.target();
  const auto slot = static_cast<std::size_t>(im.frame.slot().index);
  const detail::FrameTargets targets{target.impl_->render_pass, target.impl_->framebuffer, im.outputs[slot].handle(),
                                     im.options.max_gpu_vertices};
  Status recorded = detail::record_frame(im.frame, *im.skinning, *im.pipelines, targets, stats_);
  im.frame.finish();
  if (!recorded) {
    (void)im.ring.submit();  // an empty frame keeps the ring in step
    return recorded;
  }
  target.impl_->rendered = true;
  return im.ring.submit();
}

std::optional<double> SkeletonRenderer::last_skinning_gpu_ms() const { return impl_->skinning->last_gpu_ms(); }

Status SkeletonRenderer::wait_idle() {
  Impl& im = *impl_;
  Status idle = im.ring.wait_idle();
  if (idle && !im.frame.recording()) im.release_retired(true);
  return idle;
}

}  // namespace mf::render
