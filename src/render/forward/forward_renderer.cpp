// ForwardRenderer: the public API over the forward renderer's parts (forward_renderer.hpp lists the
// passes): the handle tables, the frame ring, the frame being queued and removed resources kept
// until the frames that may use them have finished.

#include "mf/render/forward_renderer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../handle_table.hpp"
#include "../instance_runs.hpp"
#include "../render_target_impl.hpp"
#include "../skeleton_gpu_data.hpp"
#include "../skinning_pass.hpp"
#include "draw_list.hpp"
#include "forward_pipelines.hpp"
#include "forward_recording.hpp"
#include "forward_targets.hpp"
#include "frustum.hpp"
#include "mesh_store.hpp"
#include "sprite_frame.hpp"
#include "mf/render/device.hpp"
#include "mf/render/frame_ring.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/vulkan_error.hpp"
#include "mf/skel/bounds.hpp"

namespace mf::render {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

std::string describe(const char* kind, std::int32_t index, std::uint32_t generation) {
  return std::string(kind) + " handle " + std::to_string(index) + " (generation " + std::to_string(generation) + ")";
}

// The entry a handle names, or the error saying why it names none (as SkeletonRenderer's).
template <typename T, typename Handle>
Expected<T*> look_up(const detail::HandleTable<T>& table, Handle handle, const char* what, const char* kind) {
  if (T* entry = table.find(handle.index, handle.generation)) return entry;
  if (!table.known_index(handle.index)) return fail(std::string(what) + ": no " + kind + " with handle " + std::to_string(handle.index));
  return fail(std::string(what) + ": " + describe(kind, handle.index, handle.generation) +
              " is stale: it was removed, and its slot may hold a later " + kind);
}

// IEEE half to float (the motion image's RG16_SFLOAT).
float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h >> 15) & 1u, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  float value;
  if (exponent == 0)
    value = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    value = mantissa ? std::nanf("") : INFINITY;
  else
    value = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  return sign ? -value : value;
}

}  // namespace

struct ForwardRenderer::Impl {
  Device* device = nullptr;
  GpuMemory* memory = nullptr;
  ForwardOptions options;
  FrameRing ring;
  // Declared before what refers to them, so they are destroyed after it.
  std::unique_ptr<detail::ForwardPipelines> pipelines;
  std::unique_ptr<detail::ForwardTargets> targets;
  std::unique_ptr<detail::SkinningPass> skinning;  // MeshVertex output
  std::array<GpuBuffer, kFrameSlots> vertex_buffers;  // per frame slot: skinned sprite vertices, then CPU ones
  std::array<VkQueryPool, kFrameSlots> queries{};
  std::array<bool, kFrameSlots> queries_written{};
  std::optional<PassTimings> timings;

  detail::HandleTable<detail::GpuMesh> meshes;
  detail::HandleTable<detail::GpuMaterial> materials;
  detail::HandleTable<detail::SkeletonGpuData> datas;
  detail::HandleTable<detail::SpriteInstance> instances;
  // Removed meshes, materials and data, destroyed once the frames begun before their removal have
  // finished.
  struct Retired {
    std::unique_ptr<detail::GpuMesh> mesh;
    std::unique_ptr<detail::GpuMaterial> material;
    std::unique_ptr<detail::SkeletonGpuData> data;
    std::uint64_t frames_begun;  // at the removal
  };
  std::vector<Retired> retired;

  // The frame being queued.
  bool recording = false;
  FrameSlot* slot = nullptr;
  RenderTarget* target = nullptr;
  detail::TargetImages* images = nullptr;
  ForwardFrame frame;
  std::array<PointLight3D, kMaxPointLights3D> points{};
  std::size_t point_count = 0;
  Mat4 view_projection, previous_view_projection;
  bool has_previous = false;
  detail::Frustum frustum;
  detail::WorldBox world, casters;  // of everything queued and of the shadow casters (the shadow fit)
  detail::ForwardDraws draws;
  detail::SpriteFrame sprites;
  detail::ForwardRecorder recorder;

  detail::TargetImages* last_images = nullptr;  // of the last ended frame
  std::uint64_t frames_begun = 0;
  std::uint64_t pipelines_created_total = 0;

  void release_retired(bool all) {
    // A frame begun before the removal has finished once the frame kFrameSlots later on its slot
    // has begun, since beginning it waited for that slot's fence.
    std::erase_if(retired, [&](const Retired& r) { return all || frames_begun >= r.frames_begun + kFrameSlots; });
  }
  void collect_timings(int frame_slot);
  ~Impl();
};

ForwardRenderer::Impl::~Impl() {
  if (!device) return;
  vkDeviceWaitIdle(device->device());
  for (VkQueryPool pool : queries)
    if (pool) vkDestroyQueryPool(device->device(), pool, nullptr);
}

void ForwardRenderer::Impl::collect_timings(int frame_slot) {
  const auto s = static_cast<std::size_t>(frame_slot);
  if (!queries[s] || !queries_written[s]) return;
  queries_written[s] = false;
  std::array<std::uint64_t, detail::kTimestampsPerFrame> ticks{};
  if (vkGetQueryPoolResults(device->device(), queries[s], 0, detail::kTimestampsPerFrame, sizeof(ticks), ticks.data(),
                            sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
    return;
  const double ms = device->timestamp_period_ns() * 1e-6;
  const auto span = [&](int i) { return ticks[2 * i + 1] >= ticks[2 * i] ? static_cast<double>(ticks[2 * i + 1] - ticks[2 * i]) * ms : 0.0; };
  timings = PassTimings{span(0), span(1), span(2), span(3)};
}

ForwardRenderer::~ForwardRenderer() = default;

Expected<std::unique_ptr<ForwardRenderer>> ForwardRenderer::create(Device& device, GpuMemory& memory, const ForwardOptions& options) {
  std::unique_ptr<ForwardRenderer> self(new ForwardRenderer());
  self->impl_ = std::make_unique<Impl>();
  Impl& im = *self->impl_;
  im.device = &device;
  im.memory = &memory;
  im.options = options;
  if (options.max_draws == 0) return fail("ForwardOptions::max_draws is 0: no frame could draw anything");

  auto ring = FrameRing::create(device, memory, options.upload_bytes_per_slot);
  if (!ring) return Unexpected{ring.error()};
  im.ring = std::move(*ring);
  auto pipelines = detail::ForwardPipelines::create(device);
  if (!pipelines) return Unexpected{pipelines.error()};
  im.pipelines = std::move(*pipelines);
  im.pipelines_created_total += im.pipelines->pipeline_count();
  auto targets = detail::ForwardTargets::create(device, memory, *im.pipelines, options.shadow_map_size);
  if (!targets) return Unexpected{targets.error()};
  im.targets = std::move(*targets);
  auto skinning = detail::SkinningPass::create(
      device, memory,
      {options.max_static_influences, options.max_static_vertices, false, detail::SkinningPass::Options::VertexOutput::Mesh});
  if (!skinning) return Unexpected{skinning.error()};
  im.skinning = std::move(*skinning);
  ++im.pipelines_created_total;  // the skinning pipeline

  const VkDeviceSize vertices = std::max<VkDeviceSize>(VkDeviceSize{options.max_gpu_vertices} + options.max_cpu_vertices, 1);
  for (auto& buffer : im.vertex_buffers) {
    auto created = GpuBuffer::create(device, memory, vertices * sizeof(MeshVertex),
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                     MemoryUse::DeviceLocal);
    if (!created) return Unexpected{created.error()};
    buffer = std::move(*created);
  }
  // Each slot's set reads the other slot's buffer as the previous frame's vertices.
  for (int s = 0; s < kFrameSlots; ++s)
    im.pipelines->write_fixed(s, im.vertex_buffers[static_cast<std::size_t>((s + 1) % kFrameSlots)].handle(),
                              im.targets->shadow().image.view, im.targets->shadow().sampler);

  if (options.timestamps && device.timestamp_period_ns() > 0) {
    for (VkQueryPool& pool : im.queries) {
      VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      info.queryCount = detail::kTimestampsPerFrame;
      if (VkResult r = vkCreateQueryPool(device.device(), &info, nullptr, &pool); r != VK_SUCCESS)
        return Unexpected{vulkan_error("cannot create a timestamp query pool", r)};
    }
  }
  self->stats_.pipelines_created_total = im.pipelines_created_total;
  return self;
}

Expected<MeshHandle> ForwardRenderer::add_mesh(const MeshData& mesh) {
  Impl& im = *impl_;
  auto entry = detail::upload_mesh(*im.device, *im.memory, mesh);
  if (!entry) return Unexpected{entry.error()};
  const auto key = im.meshes.add(std::move(*entry));
  return MeshHandle{key.index, key.generation};
}

Expected<MaterialHandle> ForwardRenderer::add_material(const Material& material) {
  Impl& im = *impl_;
  auto entry = detail::upload_material(*im.device, *im.memory, im.pipelines->material_set_layout(), material);
  if (!entry) return Unexpected{entry.error()};
  const auto key = im.materials.add(std::move(*entry));
  return MaterialHandle{key.index, key.generation};
}

Expected<DataHandle> ForwardRenderer::add_data(const skel::SkeletonData& data) {
  Impl& im = *impl_;
  // The page sets are made with the material set layout: a page binds where a material does.
  auto entry = detail::upload_skeleton_data(*im.device, *im.memory, *im.skinning, im.pipelines->material_set_layout(), data);
  if (!entry) return Unexpected{entry.error()};
  const auto key = im.datas.add(std::move(*entry));
  return DataHandle{key.index, key.generation};
}

Expected<InstanceHandle> ForwardRenderer::add_instance(DataHandle data) {
  Impl& im = *impl_;
  auto entry = look_up(im.datas, data, "add_instance", "data");
  if (!entry) return Unexpected{entry.error()};
  auto instance = std::make_unique<detail::SpriteInstance>();
  instance->runs = detail::make_instance_runs(**entry);
  ++(*entry)->instances;
  const auto key = im.instances.add(std::move(instance));
  return InstanceHandle{key.index, key.generation};
}

Status ForwardRenderer::remove_instance(InstanceHandle handle) {
  Impl& im = *impl_;
  auto instance = look_up(im.instances, handle, "remove_instance", "instance");
  if (!instance) return Unexpected{instance.error()};
  --(*instance)->runs->data->instances;
  im.instances.remove(handle.index, handle.generation);
  return {};
}

Status ForwardRenderer::remove_data(DataHandle handle) {
  Impl& im = *impl_;
  auto entry = look_up(im.datas, handle, "remove_data", "data");
  if (!entry) return Unexpected{entry.error()};
  if (const std::uint32_t left = (*entry)->instances; left > 0)
    return fail("remove_data: " + describe("data", handle.index, handle.generation) + " still has " + std::to_string(left) +
                (left == 1 ? " instance" : " instances") + "; remove them first");
  auto removed = im.datas.remove(handle.index, handle.generation);
  if (im.frames_begun == 0) return {};  // no frame ever used it: freed now
  im.retired.push_back({nullptr, nullptr, std::move(removed), im.frames_begun});
  return {};
}

Status ForwardRenderer::remove_mesh(MeshHandle handle) {
  Impl& im = *impl_;
  auto entry = look_up(im.meshes, handle, "remove_mesh", "mesh");
  if (!entry) return Unexpected{entry.error()};
  auto removed = im.meshes.remove(handle.index, handle.generation);
  if (im.frames_begun == 0) return {};  // no frame ever used it: freed now
  im.retired.push_back({std::move(removed), nullptr, nullptr, im.frames_begun});
  return {};
}

Status ForwardRenderer::remove_material(MaterialHandle handle) {
  Impl& im = *impl_;
  auto entry = look_up(im.materials, handle, "remove_material", "material");
  if (!entry) return Unexpected{entry.error()};
  auto removed = im.materials.remove(handle.index, handle.generation);
  if (im.frames_begun == 0) return {};
  im.retired.push_back({nullptr, std::move(removed), nullptr, im.frames_begun});
  return {};
}

Status ForwardRenderer::begin_frame(RenderTarget& target, const ForwardFrame& frame) {
  Impl& im = *impl_;
  if (im.recording) return fail("begin_frame: the previous frame was not ended");
  if (frame.lights.points.size() > static_cast<std::size_t>(kMaxPointLights3D))
    return fail("begin_frame: " + std::to_string(frame.lights.points.size()) + " point lights, at most " +
                std::to_string(kMaxPointLights3D));
  auto slot = im.ring.begin_frame();
  if (!slot) return Unexpected{slot.error()};
  FrameSlot& s = **slot;
  im.frames_begun = s.frame + 1;
  if (!im.retired.empty()) im.release_retired(false);
  im.collect_timings(s.index);
  auto images = im.targets->acquire(target, target.serial_, s.frame, im.last_images);
  if (!images) {
    (void)im.ring.submit();  // an empty frame keeps the ring in step
    return Unexpected{images.error()};
  }
  im.slot = &s;
  im.target = &target;
  im.images = *images;
  im.frame = frame;
  im.point_count = frame.lights.points.size();
  std::copy(frame.lights.points.begin(), frame.lights.points.end(), im.points.begin());
  im.frame.lights.points = std::span<const PointLight3D>(im.points.data(), im.point_count);

  const float aspect = static_cast<float>(target.width()) / static_cast<float>(target.height());
  im.view_projection = frame.camera.view_projection(aspect);
  im.previous_view_projection = im.has_previous ? im.previous_view_projection : im.view_projection;
  im.frustum = detail::Frustum::from(im.view_projection);
  im.world = {};
  im.casters = {};
  im.draws.clear();
  im.sprites.begin(s.frame, frame.camera, aspect,
                   {im.vertex_buffers[static_cast<std::size_t>(s.index)].handle(), im.options.max_gpu_vertices, im.options.max_cpu_vertices});
  im.recording = true;
  stats_ = {};
  stats_.pipelines_created_total = im.pipelines_created_total;
  return {};
}

Status ForwardRenderer::draw_mesh(MeshHandle mesh_handle, MaterialHandle material_handle, const Mat4& transform, std::uint32_t object_id,
                                  std::optional<Mat4> previous_transform) {
  Impl& im = *impl_;
  if (!im.recording) return fail("draw_mesh: no frame was begun");
  auto mesh = look_up(im.meshes, mesh_handle, "draw_mesh", "mesh");
  if (!mesh) return Unexpected{mesh.error()};
  auto material = look_up(im.materials, material_handle, "draw_mesh", "material");
  if (!material) return Unexpected{material.error()};
  const detail::GpuMesh& m = **mesh;
  const detail::GpuMaterial& mat = **material;

  const auto corners = detail::box_corners(transform, m.lo, m.hi);
  if (im.frustum.outside(corners)) {
    ++stats_.meshes_culled;
    return {};
  }
  if (im.draws.records.size() >= im.options.max_draws)
    return fail("draw_mesh: the frame already holds ForwardOptions::max_draws (" + std::to_string(im.options.max_draws) + ") draws");
  ++stats_.meshes_drawn;
  im.world.grow(corners);
  if (mat.params.casts_shadows) im.casters.grow(corners);

  detail::DrawRecord record{};
  std::memcpy(record.model, transform.m.data(), sizeof(record.model));
  const Mat4 previous = previous_transform ? *previous_transform : transform;
  std::memcpy(record.previous_model, previous.m.data(), sizeof(record.previous_model));
  // The inverse-transpose of the model's 3×3: column c of it is row c of the inverse.
  const Mat4 inverse = transform.inverse();
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) record.normal_matrix[c * 4 + r] = inverse.at(c, r);
  const Material& p = mat.params;
  record.base_color[0] = p.base_color.r;
  record.base_color[1] = p.base_color.g;
  record.base_color[2] = p.base_color.b;
  record.base_color[3] = p.base_color.a;
  record.alpha_cutoff = p.alpha_cutoff;
  record.specular = p.specular;
  record.shininess = p.shininess;
  record.object_id = object_id;
  record.flags = (p.shaded ? detail::kDrawShaded : 0u) | (p.double_sided ? detail::kDrawDoubleSided : 0u) |
                 (p.receives_shadows ? detail::kDrawReceivesShadows : 0u);

  detail::DrawItem item;
  item.key = {p.alpha_mode, p.blend, mat.has_normal_map, !p.double_sided};
  item.record = im.draws.add_record(record);
  item.material = mat.set;
  item.vertices = m.vertices.handle();
  item.indices = m.indices.handle();
  item.index_count = m.index_count;
  item.sort_point = transform.transform_point((m.lo + m.hi) * 0.5f);
  item.casts_shadow = p.casts_shadows;
  // Transparent surfaces occlude nothing and are not pickable: no depth, ID or motion of their own.
  item.in_depth_passes = p.alpha_mode != AlphaMode::Blend;
  im.draws.add_item(item);
  return {};
}

Status ForwardRenderer::draw_sprite(InstanceHandle handle, const skel::SkeletonPose& pose, const SpriteDrawOptions& options) {
  Impl& im = *impl_;
  if (!im.recording) return fail("draw_sprite: no frame was begun");
  auto found = look_up(im.instances, handle, "draw_sprite", "instance");
  if (!found) return Unexpected{found.error()};
  detail::SpriteInstance& instance = **found;
  if (&pose.data() != instance.runs->data->data) return fail("draw_sprite: the pose belongs to another SkeletonData than the instance's");
  const std::size_t records_before = im.draws.records.size();
  if (Status queued = im.sprites.queue(instance, pose, options, im.options, im.draws, stats_); !queued) return queued;
  if (im.draws.records.size() == records_before) return {};  // culled
  // The shadow fit covers the sprite's box: its bounds in skeleton pixels, as deep as its slots'
  // depth offsets reach.
  const Bounds bounds = options.cull_bounds ? *options.cull_bounds : skel::pose_bounds(pose);
  if (!bounds.empty()) {
    const float depth = static_cast<float>(pose.data().slots.size()) * options.slot_depth_offset;
    const auto corners = detail::box_corners(sprite_model_matrix(options, im.frame.camera), {bounds.min_x, bounds.min_y, std::min(0.0f, depth)},
                                             {bounds.max_x, bounds.max_y, std::max(0.0f, depth)});
    im.world.grow(corners);
    if (options.casts_shadows) im.casters.grow(corners);
  }
  return {};
}

Status ForwardRenderer::end_frame() {
  Impl& im = *impl_;
  if (!im.recording) return fail("end_frame: no frame was begun");
  im.recording = false;
  const std::optional<DirectionalLight>& sun = im.frame.lights.sun;
  const bool shadows = sun && sun->shadows && !im.casters.empty;
  const detail::SunFit sun_fit = shadows ? detail::fit_sun_projection(sun->direction, im.casters, im.world) : detail::SunFit{};
  const detail::ForwardFrameBlock block =
      detail::make_frame_block(im.frame, im.frame.lights.points, im.view_projection, im.previous_view_projection, sun_fit, shadows,
                               im.images->width, im.images->height, im.targets->shadow().size);
  detail::FrameRecording recording;
  recording.slot = im.slot;
  recording.pipelines = im.pipelines.get();
  recording.images = im.images;
  recording.shadow = &im.targets->shadow();
  recording.vertex_buffer = im.vertex_buffers[static_cast<std::size_t>(im.slot->index)].handle();
  recording.block = &block;
  recording.shadow_pass = shadows;
  recording.clear = im.frame.clear;
  recording.camera = im.frame.camera;
  recording.timestamps = im.queries[static_cast<std::size_t>(im.slot->index)];
  const VkPhysicalDeviceLimits& limits = im.device->properties().limits;
  recording.uniform_align = std::max<VkDeviceSize>(limits.minUniformBufferOffsetAlignment, 16);
  recording.storage_align = std::max<VkDeviceSize>(limits.minStorageBufferOffsetAlignment, 16);
  const detail::SkinningInputs inputs = im.sprites.skinning_inputs();
  if (!inputs.jobs.empty()) {
    recording.sprites.skinning = im.skinning.get();
    recording.sprites.inputs = &inputs;
  }
  recording.sprites.cpu_vertices = im.sprites.cpu_vertices();
  recording.sprites.cpu_vertex_offset = im.options.max_gpu_vertices;
  recording.sprites.indices = im.sprites.indices();
  Status recorded = im.recorder.record(recording, im.draws, stats_);
  // The next frame's previous camera.
  im.previous_view_projection = im.view_projection;
  im.has_previous = true;
  if (!recorded) {
    (void)im.ring.submit();  // an empty frame keeps the ring in step
    return recorded;
  }
  if (recording.timestamps) im.queries_written[static_cast<std::size_t>(im.slot->index)] = true;
  im.target->impl_->rendered = true;
  im.last_images = im.images;
  return im.ring.submit();
}

Expected<std::optional<std::uint32_t>> ForwardRenderer::pick(int x, int y) {
  Impl& im = *impl_;
  if (im.recording) return fail("pick: a frame is being queued; pick reads the last ended frame, after end_frame");
  if (!im.last_images) return fail("pick: no frame has been rendered yet");
  detail::TargetImages& images = *im.last_images;
  if (x < 0 || y < 0 || x >= images.width || y >= images.height)
    return fail("pick: pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the " + std::to_string(images.width) +
                " × " + std::to_string(images.height) + " target");
  if (Status idle = im.ring.wait_idle(); !idle) return Unexpected{idle.error()};
  Status copied = im.device->run_once([&](VkCommandBuffer cmd) {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageOffset = {x, y, 0};
    region.imageExtent = {1, 1, 1};
    vkCmdCopyImageToBuffer(cmd, images.ids.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, images.readback.handle(), 1, &region);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  });
  if (!copied) return Unexpected{copied.error()};
  std::uint32_t id = 0;
  std::memcpy(&id, images.readback.mapped().data(), sizeof(id));
  if (id == 0) return std::optional<std::uint32_t>{};
  return std::optional<std::uint32_t>{id};
}

Expected<std::vector<float>> ForwardRenderer::read_motion_vectors() {
  Impl& im = *impl_;
  if (im.recording) return fail("read_motion_vectors: a frame is being queued; it reads the last ended frame, after end_frame");
  if (!im.last_images) return fail("read_motion_vectors: no frame has been rendered yet");
  detail::TargetImages& images = *im.last_images;
  if (Status idle = im.ring.wait_idle(); !idle) return Unexpected{idle.error()};
  Status copied = im.device->run_once([&](VkCommandBuffer cmd) {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {static_cast<std::uint32_t>(images.width), static_cast<std::uint32_t>(images.height), 1};
    vkCmdCopyImageToBuffer(cmd, images.motion.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, images.readback.handle(), 1, &region);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  });
  if (!copied) return Unexpected{copied.error()};
  const std::size_t count = static_cast<std::size_t>(images.width) * static_cast<std::size_t>(images.height) * 2;
  std::vector<float> out(count);
  const std::uint8_t* bytes = images.readback.mapped().data();
  for (std::size_t i = 0; i < count; ++i) {
    std::uint16_t h = 0;
    std::memcpy(&h, bytes + i * 2, sizeof(h));
    out[i] = half_to_float(h);
  }
  return out;
}

std::optional<PassTimings> ForwardRenderer::last_pass_timings() const { return impl_->timings; }

Status ForwardRenderer::wait_idle() {
  Impl& im = *impl_;
  if (im.recording) return fail("wait_idle: a frame is being queued; end it first");
  Status idle = im.ring.wait_idle();
  if (idle) im.release_retired(true);
  return idle;
}

}  // namespace mf::render
