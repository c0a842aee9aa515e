#include "mf/render/skeleton_renderer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "canvas_render_pass.hpp"
#include "mf/render/canvas_vertex.hpp"
#include "mf/render/device.hpp"
#include "mf/render/frame_ring.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/gpu_texture.hpp"
#include "mf/render/shader_module.hpp"
#include "mf/render/vulkan_error.hpp"
#include "mf/skel/bounds.hpp"
#include "mf/skel/cpu_vertices.hpp"
#include "render_target_impl.hpp"
#include "skinning_layout.hpp"

namespace mf::render {

namespace {

constexpr std::uint32_t kSkinSpirv[] = {
#include "shaders/skin.comp.inc"
};
constexpr std::uint32_t kCanvasVertSpirv[] = {
#include "shaders/canvas.vert.inc"
};
constexpr std::uint32_t kCanvasFragSpirv[] = {
#include "shaders/canvas.frag.inc"
};

// Writes `count` indices offset by `base`: a plain loop the compiler vectorises (200 skeletons
// rebase about 700 000 indices a frame, straight into the frame's upload ring). Not inlined: inside
// draw() g++ 12 leaves the loop scalar.
template <typename Index>
[[gnu::noinline]] void write_rebased(std::uint32_t* dst, const Index* indices, std::size_t count, std::uint32_t base) {
  for (std::size_t i = 0; i < count; ++i) dst[i] = base + static_cast<std::uint32_t>(indices[i]);
}

// A per-frame list of plain records that keeps its capacity and appends without initialising:
// append(n) hands back room for n records to write in place, so filling the palette, slot records
// and jobs is one pass, and the copy into the upload ring the only other. It allocates only to grow
// (during the first frames).
template <typename T>
class FrameList {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  T* append(std::size_t count) {
    if (count > capacity_ - size_) grow(size_ + count);
    T* out = data_.get() + size_;
    size_ += count;
    return out;
  }
  void push_back(const T& value) { *append(1) = value; }
  void clear() { size_ = 0; }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  void grow(std::size_t needed) {
    const std::size_t capacity = std::max<std::size_t>({needed, 2 * capacity_, 256});
    std::unique_ptr<T[]> bigger(new T[capacity]);  // default-initialised: plain records stay unwritten
    if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_ * sizeof(T));
    data_ = std::move(bigger);
    capacity_ = capacity;
  }
  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

constexpr int kBlendModes = 4;
constexpr int kVariants = 2;  // 0: lit flat, 1: normal-mapped
constexpr std::uint32_t kMaxGroupsX = 65535;

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }
Unexpected fail(const std::string& what, VkResult r) { return Unexpected{vulkan_error(what, r)}; }

// lround(clamp(v, 0, 1) × 255) without the library call (about 50 000 a frame): the float product is
// below 256, so adding 0.5 in double is exact and truncation rounds half away from zero like lround;
// NaN gives 0 as lround's result cast to a byte does.
std::uint8_t to_byte(float v) {
  const float scaled = (v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f) * 255.0f;
  return static_cast<std::uint8_t>(static_cast<std::uint32_t>(static_cast<double>(scaled) + 0.5));
}
std::uint32_t pack_rgba(float r, float g, float b, float a) {
  return static_cast<std::uint32_t>(to_byte(r)) | static_cast<std::uint32_t>(to_byte(g)) << 8 |
         static_cast<std::uint32_t>(to_byte(b)) << 16 | static_cast<std::uint32_t>(to_byte(a)) << 24;
}
std::uint32_t pack_tangent(float x, float y) {
  const float len = std::sqrt(x * x + y * y);
  if (!(len > 1e-20f)) {
    x = 1;
    y = 0;
  } else {
    x /= len;
    y /= len;
  }
  auto snorm = [](float v) { return static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f))); };
  return static_cast<std::uint32_t>(snorm(x)) | static_cast<std::uint32_t>(snorm(y)) << 16;
}

bool is_drawn_kind(skel::AttachmentKind kind) { return kind == skel::AttachmentKind::Region || kind == skel::AttachmentKind::Mesh; }

// The region an attachment shows on a slot (the slot's sequence frame, else the setup frame), as the
// CPU path picks it.
const skel::Region* region_for(const skel::SkeletonData& data, const skel::SkeletonPose& pose, std::size_t slot,
                               const skel::AttachmentRecord& att) {
  if (att.region_count == 0) return nullptr;
  std::int32_t frame = att.sequence_setup;
  if (att.region_count > 1 && pose.sequence_index[slot] >= 0) frame = pose.sequence_index[slot];
  frame = std::clamp<std::int32_t>(frame, 0, static_cast<std::int32_t>(att.region_count) - 1);
  return &data.regions[att.region_start + static_cast<std::uint32_t>(frame)];
}

// Per vertex of the data, its +u direction in its first influence's bone space: the UV gradient of
// the triangles around it, measured on the first influences' bone-space positions.
std::vector<float> vertex_tangents(const skel::SkeletonData& data) {
  std::vector<float> tangents(2 * data.vertices.size(), 0.0f);
  for (const skel::AttachmentRecord& att : data.attachments) {
    if (!is_drawn_kind(att.kind)) continue;
    auto position = [&](std::uint32_t local, float& x, float& y) {
      const skel::Influence& in = data.influences[data.vertices[att.vertex_start + local].first];
      x = in.x;
      y = in.y;
    };
    for (std::uint32_t t = 0; t + 2 < att.index_count; t += 3) {
      const std::uint32_t i[3] = {data.indices[att.index_start + t], data.indices[att.index_start + t + 1],
                                  data.indices[att.index_start + t + 2]};
      if (i[0] >= att.vertex_count || i[1] >= att.vertex_count || i[2] >= att.vertex_count) continue;
      float px[3], py[3], u[3], v[3];
      for (int k = 0; k < 3; ++k) {
        position(i[k], px[k], py[k]);
        u[k] = data.uvs[2 * (att.vertex_start + i[k])];
        v[k] = data.uvs[2 * (att.vertex_start + i[k]) + 1];
      }
      const float e1x = px[1] - px[0], e1y = py[1] - py[0], e2x = px[2] - px[0], e2y = py[2] - py[0];
      const float du1 = u[1] - u[0], dv1 = v[1] - v[0], du2 = u[2] - u[0], dv2 = v[2] - v[0];
      const float det = du1 * dv2 - du2 * dv1;
      if (std::fabs(det) < 1e-12f) continue;
      const float tx = (e1x * dv2 - e2x * dv1) / det, ty = (e1y * dv2 - e2y * dv1) / det;
      for (int k = 0; k < 3; ++k) {
        tangents[2 * (att.vertex_start + i[k])] += tx;
        tangents[2 * (att.vertex_start + i[k]) + 1] += ty;
      }
    }
  }
  for (std::size_t v = 0; v < data.vertices.size(); ++v) {
    const float x = tangents[2 * v], y = tangents[2 * v + 1];
    const float len = std::sqrt(x * x + y * y);
    if (len > 1e-20f) {
      tangents[2 * v] = x / len;
      tangents[2 * v + 1] = y / len;
    } else {
      tangents[2 * v] = 1;
      tangents[2 * v + 1] = 0;
    }
  }
  return tangents;
}

// Per attachment of the data, its triangles whose three vertices exist (attachment-local, as
// data.indices holds them): the same for every instance and frame, so draw() rebases them from here,
// where they stay in cache across the instances of one data.
void drawn_triangles(const skel::SkeletonData& data, std::vector<std::uint16_t>& indices, std::vector<std::uint32_t>& starts) {
  indices.clear();
  starts.assign(data.attachments.size() + 1, 0);
  for (std::size_t a = 0; a < data.attachments.size(); ++a) {
    const skel::AttachmentRecord& att = data.attachments[a];
    starts[a] = static_cast<std::uint32_t>(indices.size());
    if (!is_drawn_kind(att.kind)) continue;
    for (std::uint32_t t = 0; t + 2 < att.index_count; t += 3) {
      const std::uint16_t* tri = data.indices.data() + att.index_start + t;
      if (tri[0] >= att.vertex_count || tri[1] >= att.vertex_count || tri[2] >= att.vertex_count) continue;
      indices.insert(indices.end(), tri, tri + 3);
    }
  }
  starts.back() = static_cast<std::uint32_t>(indices.size());
}

VkBlendFactor blend_src(int mode) {
  switch (static_cast<skel::BlendMode>(mode)) {
    case skel::BlendMode::Multiply: return VK_BLEND_FACTOR_DST_COLOR;
    default: return VK_BLEND_FACTOR_ONE;
  }
}
VkBlendFactor blend_dst(int mode) {
  switch (static_cast<skel::BlendMode>(mode)) {
    case skel::BlendMode::Additive: return VK_BLEND_FACTOR_ONE;
    case skel::BlendMode::Screen: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
    default: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  }
}

}  // namespace

// One drawn attachment of an instance, in draw order, as the cached runs list them.
struct CachedItem {
  bool clipped;                  // drawn through the CPU clipping path
  std::int32_t slot, attachment;
  std::int32_t page;
  VkDescriptorSet set;           // the page's set; VK_NULL_HANDLE when the page has none (not drawn)
  skel::ColorF color;            // the attachment's colour
  skel::BlendMode blend;
  std::uint32_t local_vertex;    // GPU items: first output vertex relative to the skeleton's base
  std::uint32_t index_start, index_count;  // GPU items: into DataEntry::indices (attachment-local)
};

struct DataEntry {
  const skel::SkeletonData* data = nullptr;
  std::uint32_t vertex_base = 0, influence_base = 0;
  std::vector<float> tangents;  // 2 per vertex, bone space of the first influence
  std::vector<std::uint16_t> indices;       // drawn_triangles: per attachment, its valid triangles
  std::vector<std::uint32_t> index_starts;  // per attachment (and one past the last) into indices
  std::vector<GpuTexture> pages, normal_pages;
  VkSampler sampler = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> page_sets;
  int variant = 0;
};

struct InstanceEntry {
  std::int32_t data = -1;
  std::unique_ptr<skel::CpuVertices> cpu;
  // What the cached items were built from: rebuilt when any differs.
  bool valid = false;
  std::vector<std::uint16_t> draw_order;
  std::vector<std::int32_t> attachment;
  std::vector<std::int32_t> page;
  std::vector<std::uint8_t> active;
  std::vector<std::int32_t> page_now;  // this frame's page per slot (scratch)
  std::vector<CachedItem> items;
  std::uint32_t gpu_vertices = 0;
  std::uint32_t version = 0;       // counts rebuilds
  bool has_clipped = false;        // an item takes the CPU clipping path (its indices change every frame)
  // Where the last frame on each frame slot left this instance's rebased indices. A slot's upload
  // range is written only by this renderer's frames on that slot, so when the previous frame there
  // wrote the same runs (version) with the same vertex base at the same place, they are still there
  // and draw() only queues their draws.
  struct WrittenIndices {
    std::uint64_t slot_use = 0;    // Impl::slot_uses of that frame; 0: none
    const std::uint32_t* where = nullptr;
    std::uint32_t base = 0, version = 0;
  };
  std::array<WrittenIndices, kFrameSlots> written{};
};

struct Draw {
  std::int32_t blend;
  std::int32_t variant;
  VkDescriptorSet set;
  std::uint32_t first, count;
};

struct SkeletonRenderer::Impl {
  Device* device = nullptr;
  GpuMemory* memory = nullptr;
  RendererOptions options;
  FrameRing ring;

  VkRenderPass render_pass = VK_NULL_HANDLE;
  VkDescriptorSetLayout compute_set_layout = VK_NULL_HANDLE, page_set_layout = VK_NULL_HANDLE,
                        frame_set_layout = VK_NULL_HANDLE;
  VkPipelineLayout compute_layout = VK_NULL_HANDLE, canvas_layout = VK_NULL_HANDLE;
  VkPipeline skin_pipeline = VK_NULL_HANDLE;
  std::array<VkPipeline, kBlendModes * kVariants> canvas_pipelines{};
  ShaderModule skin_shader, vert_shader, frag_shader;
  VkDescriptorPool frame_pool = VK_NULL_HANDLE;
  std::array<VkDescriptorSet, kFrameSlots> compute_sets{}, frame_sets{};
  VkQueryPool queries = VK_NULL_HANDLE;
  std::array<bool, kFrameSlots> queries_written{};
  std::optional<double> skinning_ms;

  GpuBuffer influence_arena, vertex_arena;
  std::uint32_t influences_used = 0, vertices_used = 0;
  std::array<GpuBuffer, kFrameSlots> outputs;

  std::vector<std::unique_ptr<DataEntry>> datas;
  std::vector<std::unique_ptr<InstanceEntry>> instances;

  // The frame being recorded.
  FrameSlot* slot = nullptr;
  RenderTarget* target = nullptr;
  View view;
  Color clear;
  std::optional<UploadSpan> frame_upload;  // the frame block, first in the slot's upload ring
  FrameList<float> palette;
  FrameList<detail::SlotRecord> slot_records;
  FrameList<float> deform;
  FrameList<detail::SkinJob> jobs;
  FrameList<CanvasVertex> cpu_vertices;
  // The frame's indices go straight into the upload ring's free space after the frame block (the
  // other lists are allocated after them in end_frame). Past its end they are only counted, and
  // end_frame reports the uploads too big for the slot.
  UploadSpan index_space;
  std::uint32_t index_count = 0;
  std::vector<Draw> draws;
  std::uint32_t gpu_vertex_count = 0;
  std::uint64_t pipelines_created_total = 0;
  std::uint32_t pipelines_created_since_frame = 0;
  std::array<std::uint64_t, kFrameSlots> slot_uses{};  // frames begun on each frame slot

  Status create_pipelines_for(const DataEntry& data);
  void rebuild(InstanceEntry& instance, const skel::SkeletonPose& pose);
  void add_draw(std::int32_t blend, std::int32_t variant, VkDescriptorSet set, std::uint32_t first, std::uint32_t count);
  // Appends `count` indices offset by `base` to the frame's (unless `write` is false: they are
  // already in place) and queues their draw.
  template <typename Index>
  void draw_indices(const Index* local, std::uint32_t count, std::uint32_t base, std::int32_t blend, std::int32_t variant,
                    VkDescriptorSet set, bool write = true);
  Status draw_cpu(InstanceEntry& instance, DataEntry& data, const skel::SkeletonPose& pose, const DrawOptions& options,
                  RenderStats& stats);
  std::uint32_t tangent_of(const DataEntry& data, const skel::SkeletonPose& pose, const Affine2& t,
                           std::uint32_t vertex) const;
  ~Impl();
};

SkeletonRenderer::Impl::~Impl() {
  if (!device) return;
  VkDevice vk = device->device();
  vkDeviceWaitIdle(vk);
  for (auto& data : datas) {
    if (data->pool) vkDestroyDescriptorPool(vk, data->pool, nullptr);
    if (data->sampler) vkDestroySampler(vk, data->sampler, nullptr);
  }
  for (VkPipeline p : canvas_pipelines)
    if (p) vkDestroyPipeline(vk, p, nullptr);
  if (skin_pipeline) vkDestroyPipeline(vk, skin_pipeline, nullptr);
  if (queries) vkDestroyQueryPool(vk, queries, nullptr);
  if (frame_pool) vkDestroyDescriptorPool(vk, frame_pool, nullptr);
  if (compute_layout) vkDestroyPipelineLayout(vk, compute_layout, nullptr);
  if (canvas_layout) vkDestroyPipelineLayout(vk, canvas_layout, nullptr);
  for (VkDescriptorSetLayout l : {compute_set_layout, page_set_layout, frame_set_layout})
    if (l) vkDestroyDescriptorSetLayout(vk, l, nullptr);
  if (render_pass) vkDestroyRenderPass(vk, render_pass, nullptr);
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
  VkDevice vk = device.device();

  auto ring = FrameRing::create(device, memory, options.upload_bytes_per_slot);
  if (!ring) return Unexpected{ring.error()};
  im.ring = std::move(*ring);
  if (VkResult r = detail::create_canvas_render_pass(vk, &im.render_pass); r != VK_SUCCESS)
    return fail("cannot create the canvas render pass", r);

  // Static arenas and per-slot output vertices.
  auto influences = GpuBuffer::create(device, memory, VkDeviceSize{options.max_static_influences} * sizeof(detail::GpuInfluence),
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::DeviceLocal);
  if (!influences) return Unexpected{influences.error()};
  im.influence_arena = std::move(*influences);
  auto vertices = GpuBuffer::create(device, memory, VkDeviceSize{options.max_static_vertices} * sizeof(detail::GpuVertex),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::DeviceLocal);
  if (!vertices) return Unexpected{vertices.error()};
  im.vertex_arena = std::move(*vertices);
  for (auto& output : im.outputs) {
    auto buffer = GpuBuffer::create(device, memory,
                                    VkDeviceSize{options.max_gpu_vertices + options.max_cpu_vertices} * sizeof(CanvasVertex),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    MemoryUse::DeviceLocal);
    if (!buffer) return Unexpected{buffer.error()};
    output = std::move(*buffer);
  }

  // Layouts.
  {
    VkDescriptorSetLayoutBinding bindings[7] = {};
    for (std::uint32_t i = 0; i < 7; ++i) bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = 7;
    info.pBindings = bindings;
    if (VkResult r = vkCreateDescriptorSetLayout(vk, &info, nullptr, &im.compute_set_layout); r != VK_SUCCESS)
      return fail("cannot create the skinning set layout", r);
  }
  {
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = 2;
    info.pBindings = bindings;
    if (VkResult r = vkCreateDescriptorSetLayout(vk, &info, nullptr, &im.page_set_layout); r != VK_SUCCESS)
      return fail("cannot create the page set layout", r);
  }
  {
    VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                                         VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = 1;
    info.pBindings = &binding;
    if (VkResult r = vkCreateDescriptorSetLayout(vk, &info, nullptr, &im.frame_set_layout); r != VK_SUCCESS)
      return fail("cannot create the frame set layout", r);
  }
  {
    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = 1;
    info.pSetLayouts = &im.compute_set_layout;
    info.pushConstantRangeCount = 1;
    info.pPushConstantRanges = &push;
    if (VkResult r = vkCreatePipelineLayout(vk, &info, nullptr, &im.compute_layout); r != VK_SUCCESS)
      return fail("cannot create the skinning pipeline layout", r);
    VkDescriptorSetLayout sets[2] = {im.page_set_layout, im.frame_set_layout};
    VkPipelineLayoutCreateInfo canvas{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    canvas.setLayoutCount = 2;
    canvas.pSetLayouts = sets;
    if (VkResult r = vkCreatePipelineLayout(vk, &canvas, nullptr, &im.canvas_layout); r != VK_SUCCESS)
      return fail("cannot create the canvas pipeline layout", r);
  }

  // Shaders and the skinning pipeline (one for every data).
  auto skin = ShaderModule::create(device, kSkinSpirv);
  auto vert = ShaderModule::create(device, kCanvasVertSpirv);
  auto frag = ShaderModule::create(device, kCanvasFragSpirv);
  if (!skin) return Unexpected{skin.error()};
  if (!vert) return Unexpected{vert.error()};
  if (!frag) return Unexpected{frag.error()};
  im.skin_shader = std::move(*skin);
  im.vert_shader = std::move(*vert);
  im.frag_shader = std::move(*frag);
  {
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = im.skin_shader.handle();
    info.stage.pName = "main";
    info.layout = im.compute_layout;
    if (VkResult r = vkCreateComputePipelines(vk, VK_NULL_HANDLE, 1, &info, nullptr, &im.skin_pipeline); r != VK_SUCCESS)
      return fail("cannot create the skinning pipeline", r);
    ++im.pipelines_created_total;
  }

  // Per-slot descriptor sets: the static bindings are written once here.
  {
    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 7 * kFrameSlots},
                                     {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, kFrameSlots}};
    VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = 2 * kFrameSlots;
    info.poolSizeCount = 2;
    info.pPoolSizes = sizes;
    if (VkResult r = vkCreateDescriptorPool(vk, &info, nullptr, &im.frame_pool); r != VK_SUCCESS)
      return fail("cannot create the frame descriptor pool", r);
    std::array<VkDescriptorSetLayout, kFrameSlots> compute_layouts, frame_layouts;
    compute_layouts.fill(im.compute_set_layout);
    frame_layouts.fill(im.frame_set_layout);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = im.frame_pool;
    alloc.descriptorSetCount = kFrameSlots;
    alloc.pSetLayouts = compute_layouts.data();
    if (VkResult r = vkAllocateDescriptorSets(vk, &alloc, im.compute_sets.data()); r != VK_SUCCESS)
      return fail("cannot allocate the skinning descriptor sets", r);
    alloc.pSetLayouts = frame_layouts.data();
    if (VkResult r = vkAllocateDescriptorSets(vk, &alloc, im.frame_sets.data()); r != VK_SUCCESS)
      return fail("cannot allocate the frame descriptor sets", r);
    for (int s = 0; s < kFrameSlots; ++s) {
      VkDescriptorBufferInfo infos[3] = {{im.influence_arena.handle(), 0, VK_WHOLE_SIZE},
                                         {im.vertex_arena.handle(), 0, VK_WHOLE_SIZE},
                                         {im.outputs[static_cast<std::size_t>(s)].handle(), 0, VK_WHOLE_SIZE}};
      const std::uint32_t bindings[3] = {0, 1, 6};
      VkWriteDescriptorSet writes[3] = {};
      for (int i = 0; i < 3; ++i) {
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = im.compute_sets[static_cast<std::size_t>(s)];
        writes[i].dstBinding = bindings[i];
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
      }
      vkUpdateDescriptorSets(vk, 3, writes, 0, nullptr);
    }
  }
  if (options.timestamps && device.timestamp_period_ns() > 0) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2 * kFrameSlots;
    if (VkResult r = vkCreateQueryPool(vk, &info, nullptr, &im.queries); r != VK_SUCCESS)
      return fail("cannot create the timestamp query pool", r);
  }
  return self;
}

Status SkeletonRenderer::Impl::create_pipelines_for(const DataEntry& entry) {
  VkDevice vk = device->device();
  bool used[kBlendModes] = {};
  for (skel::BlendMode b : entry.data->slots.blend) used[static_cast<int>(b) & 3] = true;
  used[0] = true;  // slots may be clipped or tinted, never without a blend: Normal is always there
  for (int blend = 0; blend < kBlendModes; ++blend) {
    if (!used[blend]) continue;
    VkPipeline& pipeline = canvas_pipelines[static_cast<std::size_t>(blend * kVariants + entry.variant)];
    if (pipeline != VK_NULL_HANDLE) continue;

    const VkBool32 normal_map = entry.variant == 1 ? VK_TRUE : VK_FALSE;
    VkSpecializationMapEntry spec_entry{0, 0, sizeof(VkBool32)};
    VkSpecializationInfo spec{1, &spec_entry, sizeof(VkBool32), &normal_map};
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vert_shader.handle();
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = frag_shader.handle();
    stages[1].pName = "main";
    stages[1].pSpecializationInfo = &spec;

    VkVertexInputBindingDescription binding{0, sizeof(CanvasVertex), VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attributes[5] = {
        {0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(CanvasVertex, x)},
        {1, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(CanvasVertex, u)},
        {2, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(CanvasVertex, light)},
        {3, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(CanvasVertex, dark)},
        {4, 0, VK_FORMAT_R16G16_SNORM, offsetof(CanvasVertex, tangent)}};
    VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    input.vertexBindingDescriptionCount = 1;
    input.pVertexBindingDescriptions = &binding;
    input.vertexAttributeDescriptionCount = 5;
    input.pVertexAttributeDescriptions = attributes;
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;  // mirrored skeletons flip winding
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState attachment{};
    attachment.blendEnable = VK_TRUE;
    attachment.srcColorBlendFactor = blend_src(blend);
    attachment.dstColorBlendFactor = blend_dst(blend);
    attachment.colorBlendOp = VK_BLEND_OP_ADD;
    attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    attachment.alphaBlendOp = VK_BLEND_OP_ADD;
    attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend_state.attachmentCount = 1;
    blend_state.pAttachments = &attachment;
    const VkDynamicState dynamic_states[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamic_states;

    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pColorBlendState = &blend_state;
    info.pDynamicState = &dynamic;
    info.layout = canvas_layout;
    info.renderPass = render_pass;
    if (VkResult r = vkCreateGraphicsPipelines(vk, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline); r != VK_SUCCESS)
      return fail("cannot create a canvas pipeline", r);
    ++pipelines_created_total;
    ++pipelines_created_since_frame;
  }
  return {};
}

Expected<DataHandle> SkeletonRenderer::add_data(const skel::SkeletonData& data) {
  Impl& im = *impl_;
  VkDevice vk = im.device->device();
  const std::string name = data.name.empty() ? "skeleton" : data.name;
  if (!data.normal_pages.empty() && data.normal_pages.size() != data.pages.size())
    return fail(name + ": " + std::to_string(data.normal_pages.size()) + " normal pages for " +
                std::to_string(data.pages.size()) + " pages (there must be one per page, or none)");
  if (data.influences.size() > im.options.max_static_influences - im.influences_used ||
      data.vertices.size() > im.options.max_static_vertices - im.vertices_used)
    return fail(name + ": " + std::to_string(data.vertices.size()) + " vertices and " + std::to_string(data.influences.size()) +
                " influences do not fit the renderer's static arenas (RendererOptions::max_static_vertices, max_static_influences)");
  for (const skel::Influence& in : data.influences)
    if (in.bone < 0 || static_cast<std::size_t>(in.bone) >= data.bones.size())
      return fail(name + ": an influence names bone " + std::to_string(in.bone) + " of " + std::to_string(data.bones.size()));

  auto entry = std::make_unique<DataEntry>();
  entry->data = &data;
  entry->variant = data.normal_pages.empty() ? 0 : 1;
  entry->influence_base = im.influences_used;
  entry->vertex_base = im.vertices_used;
  entry->tangents = vertex_tangents(data);
  drawn_triangles(data, entry->indices, entry->index_starts);

  // Static geometry, through one staging buffer.
  const VkDeviceSize influence_bytes = data.influences.size() * sizeof(detail::GpuInfluence);
  const VkDeviceSize vertex_bytes = data.vertices.size() * sizeof(detail::GpuVertex);
  if (influence_bytes + vertex_bytes > 0) {
    auto staging = GpuBuffer::create(*im.device, *im.memory, influence_bytes + vertex_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                     MemoryUse::Upload);
    if (!staging) return Unexpected{staging.error()};
    auto* influences = reinterpret_cast<detail::GpuInfluence*>(staging->mapped().data());
    for (std::size_t i = 0; i < data.influences.size(); ++i) {
      const skel::Influence& in = data.influences[i];
      influences[i] = {in.bone, in.weight, in.x, in.y};
    }
    auto* vertices = reinterpret_cast<detail::GpuVertex*>(staging->mapped().data() + influence_bytes);
    for (std::size_t v = 0; v < data.vertices.size(); ++v) {
      const skel::VertexInfluences& vi = data.vertices[v];
      vertices[v] = {entry->influence_base + vi.first, vi.count, 2 * v + 1 < data.uvs.size() ? data.uvs[2 * v] : 0.0f,
                     2 * v + 1 < data.uvs.size() ? data.uvs[2 * v + 1] : 0.0f, entry->tangents[2 * v], entry->tangents[2 * v + 1]};
    }
    Status copied = im.device->run_once([&](VkCommandBuffer cmd) {
      if (influence_bytes > 0) {
        VkBufferCopy copy{0, entry->influence_base * sizeof(detail::GpuInfluence), influence_bytes};
        vkCmdCopyBuffer(cmd, staging->handle(), im.influence_arena.handle(), 1, &copy);
      }
      if (vertex_bytes > 0) {
        VkBufferCopy copy{influence_bytes, entry->vertex_base * sizeof(detail::GpuVertex), vertex_bytes};
        vkCmdCopyBuffer(cmd, staging->handle(), im.vertex_arena.handle(), 1, &copy);
      }
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0,
                           nullptr, 0, nullptr);
    });
    if (!copied) return Unexpected{copied.error()};
  }

  // Pages.
  for (std::size_t p = 0; p < data.pages.size(); ++p) {
    auto texture = GpuTexture::from_page(*im.device, *im.memory, data.pages[p], data.mipmaps,
                                         name + ": page " + data.pages[p].name);
    if (!texture) return Unexpected{texture.error()};
    entry->pages.push_back(std::move(*texture));
  }
  for (std::size_t p = 0; p < data.normal_pages.size(); ++p) {
    auto texture = GpuTexture::from_page(*im.device, *im.memory, data.normal_pages[p], data.mipmaps,
                                         name + ": normal page " + data.normal_pages[p].name);
    if (!texture) return Unexpected{texture.error()};
    entry->normal_pages.push_back(std::move(*texture));
  }

  // import.filter and import.mipmaps: the data's sampler.
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  const VkFilter filter = data.filter == skel::TextureFilter::Nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
  sampler.magFilter = filter;
  sampler.minFilter = filter;
  sampler.mipmapMode = data.filter == skel::TextureFilter::Nearest ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sampler.minLod = 0;
  sampler.maxLod = data.mipmaps ? VK_LOD_CLAMP_NONE : 0.0f;
  if (VkResult r = vkCreateSampler(vk, &sampler, nullptr, &entry->sampler); r != VK_SUCCESS)
    return fail("cannot create a sampler", r);

  if (!data.pages.empty()) {
    const auto count = static_cast<std::uint32_t>(data.pages.size());
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * count};
    VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = count;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    if (VkResult r = vkCreateDescriptorPool(vk, &info, nullptr, &entry->pool); r != VK_SUCCESS)
      return fail("cannot create a page descriptor pool", r);
    std::vector<VkDescriptorSetLayout> layouts(count, im.page_set_layout);
    entry->page_sets.resize(count);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = entry->pool;
    alloc.descriptorSetCount = count;
    alloc.pSetLayouts = layouts.data();
    if (VkResult r = vkAllocateDescriptorSets(vk, &alloc, entry->page_sets.data()); r != VK_SUCCESS)
      return fail("cannot allocate page descriptor sets", r);
    for (std::uint32_t p = 0; p < count; ++p) {
      // Without normal pages the flat variant never samples binding 1; it holds the page itself.
      const GpuTexture& normal = entry->normal_pages.empty() ? entry->pages[p] : entry->normal_pages[p];
      VkDescriptorImageInfo images[2] = {{entry->sampler, entry->pages[p].view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                                         {entry->sampler, normal.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      write.dstSet = entry->page_sets[p];
      write.dstBinding = 0;
      write.descriptorCount = 2;
      write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      write.pImageInfo = images;
      vkUpdateDescriptorSets(vk, 1, &write, 0, nullptr);
    }
  }

  // The pipeline prebuild: every variant this data can draw with, now rather than mid-frame.
  if (Status built = im.create_pipelines_for(*entry); !built) return Unexpected{built.error()};

  im.influences_used += static_cast<std::uint32_t>(data.influences.size());
  im.vertices_used += static_cast<std::uint32_t>(data.vertices.size());
  im.datas.push_back(std::move(entry));
  return DataHandle{static_cast<std::int32_t>(im.datas.size() - 1)};
}

Expected<InstanceHandle> SkeletonRenderer::add_instance(DataHandle data) {
  Impl& im = *impl_;
  if (data.index < 0 || static_cast<std::size_t>(data.index) >= im.datas.size())
    return fail("add_instance: no data with handle " + std::to_string(data.index));
  const skel::SkeletonData& d = *im.datas[static_cast<std::size_t>(data.index)]->data;
  auto instance = std::make_unique<InstanceEntry>();
  instance->data = data.index;
  instance->cpu = std::make_unique<skel::CpuVertices>(d);
  instance->draw_order.reserve(d.slots.size());
  instance->attachment.reserve(d.slots.size());
  instance->page.reserve(d.slots.size());
  instance->page_now.resize(d.slots.size());
  instance->active.reserve(d.bones.size());
  instance->items.reserve(d.slots.size());
  im.instances.push_back(std::move(instance));
  return InstanceHandle{static_cast<std::int32_t>(im.instances.size() - 1)};
}

Status SkeletonRenderer::begin_frame(RenderTarget& target, const View& view, Color clear, std::span<const PointLight> lights,
                                     Color ambient) {
  Impl& im = *impl_;
  if (im.slot) return fail("begin_frame: the previous frame was not ended");
  if (lights.size() > static_cast<std::size_t>(kMaxPointLights))
    return fail("begin_frame: " + std::to_string(lights.size()) + " point lights, at most " + std::to_string(kMaxPointLights));
  auto slot = im.ring.begin_frame();
  if (!slot) return Unexpected{slot.error()};
  im.slot = *slot;
  ++im.slot_uses[static_cast<std::size_t>(im.slot->index)];
  const auto index = static_cast<std::size_t>(im.slot->index);
  if (im.queries && im.queries_written[index]) {
    std::uint64_t ticks[2] = {};
    if (vkGetQueryPoolResults(im.device->device(), im.queries, static_cast<std::uint32_t>(2 * index), 2, sizeof(ticks), ticks,
                              sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
      im.skinning_ms = static_cast<double>(ticks[1] - ticks[0]) * im.device->timestamp_period_ns() * 1e-6;
  }
  im.queries_written[index] = false;
  im.target = &target;
  im.view = view;
  if (im.view.width <= 0) im.view.width = static_cast<float>(target.width());
  if (im.view.height <= 0) im.view.height = static_cast<float>(target.height());
  im.clear = clear;
  detail::FrameBlock block{};
  block.view[0] = im.view.x;
  block.view[1] = im.view.y;
  block.view[2] = 2.0f / im.view.width;
  block.view[3] = 2.0f / im.view.height;
  block.ambient[0] = ambient.r;
  block.ambient[1] = ambient.g;
  block.ambient[2] = ambient.b;
  block.ambient[3] = 1;
  block.counts[0] = static_cast<std::int32_t>(lights.size());
  for (std::size_t i = 0; i < lights.size(); ++i) {
    const PointLight& l = lights[i];
    block.lights[i] = {l.x, l.y, l.height, l.range, l.color.r * l.energy, l.color.g * l.energy, l.color.b * l.energy, 0};
  }
  // The frame block first, then the indices as draw() writes them (end_frame allocates them and the
  // rest after): the order end_frame used when it copied every list.
  const VkDeviceSize uniform_align =
      std::max<VkDeviceSize>(im.device->properties().limits.minUniformBufferOffsetAlignment, 16);
  im.frame_upload = im.slot->uploads.allocate(sizeof(block), uniform_align);
  if (im.frame_upload) std::memcpy(im.frame_upload->data, &block, sizeof(block));
  im.index_space = im.slot->uploads.free_space(16);
  im.index_count = 0;
  im.palette.clear();
  im.slot_records.clear();
  im.deform.clear();
  im.jobs.clear();
  im.cpu_vertices.clear();
  im.draws.clear();
  im.gpu_vertex_count = 0;
  const std::uint64_t total = im.pipelines_created_total;
  stats_ = {};
  stats_.pipelines_created_this_frame = im.pipelines_created_since_frame;
  stats_.pipelines_created_total = total;
  im.pipelines_created_since_frame = 0;
  return {};
}

void SkeletonRenderer::Impl::add_draw(std::int32_t blend, std::int32_t variant, VkDescriptorSet set, std::uint32_t first,
                                      std::uint32_t count) {
  if (count == 0) return;
  if (!draws.empty()) {
    Draw& last = draws.back();
    if (last.blend == blend && last.variant == variant && last.set == set && last.first + last.count == first) {
      last.count += count;
      return;
    }
  }
  draws.push_back({blend, variant, set, first, count});
}

template <typename Index>
void SkeletonRenderer::Impl::draw_indices(const Index* local, std::uint32_t count, std::uint32_t base, std::int32_t blend,
                                          std::int32_t variant, VkDescriptorSet set, bool write) {
  const std::uint32_t first = index_count;
  const VkDeviceSize room = index_space.size / sizeof(std::uint32_t);
  if (first <= room && count <= room - first) {
    if (write) write_rebased(reinterpret_cast<std::uint32_t*>(index_space.data) + first, local, count, base);
  } else
    index_space.size = 0;  // full: later indices are only counted (end_frame fails the frame)
  index_count += count;
  add_draw(blend, variant, set, first, count);
}

void SkeletonRenderer::Impl::rebuild(InstanceEntry& instance, const skel::SkeletonPose& pose) {
  const skel::SkeletonData& data = pose.data();
  const DataEntry& entry = *datas[static_cast<std::size_t>(instance.data)];
  instance.draw_order.assign(pose.draw_order.begin(), pose.draw_order.end());
  instance.attachment.assign(pose.attachment.begin(), pose.attachment.end());
  instance.page.assign(instance.page_now.begin(), instance.page_now.end());
  instance.active.assign(pose.active.begin(), pose.active.end());
  instance.items.clear();
  instance.gpu_vertices = 0;
  instance.valid = true;
  instance.has_clipped = false;
  ++instance.version;

  // The same walk as CpuVertices::update: draw order, active bones, clipping ranges.
  bool clipping = false;
  std::int32_t clip_end = -1;
  for (std::uint16_t s : pose.draw_order) {
    const std::size_t slot = s;
    if (slot >= data.slots.size()) continue;
    const auto bone = static_cast<std::size_t>(data.slots.bone[slot]);
    const std::int32_t index = pose.attachment[slot];
    if (pose.active[bone] && index >= 0 && static_cast<std::size_t>(index) < data.attachments.size()) {
      const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(index)];
      if (att.kind == skel::AttachmentKind::Clipping) {
        if (!clipping) {
          clipping = true;
          clip_end = att.end_slot;
        }
      } else if (is_drawn_kind(att.kind)) {
        const std::int32_t page = instance.page_now[slot];
        const VkDescriptorSet set = page >= 0 && static_cast<std::size_t>(page) < entry.page_sets.size()
                                        ? entry.page_sets[static_cast<std::size_t>(page)]
                                        : VK_NULL_HANDLE;
        CachedItem item{clipping, static_cast<std::int32_t>(slot), index, page, set, skel::to_color_f(att.color),
                        data.slots.blend[slot], 0, 0, 0};
        if (!clipping && item.page >= 0) {
          item.local_vertex = instance.gpu_vertices;
          item.index_start = entry.index_starts[static_cast<std::size_t>(index)];
          item.index_count = entry.index_starts[static_cast<std::size_t>(index) + 1] - item.index_start;
          instance.gpu_vertices += att.vertex_count;
        }
        instance.has_clipped = instance.has_clipped || clipping;
        instance.items.push_back(item);
      }
    }
    if (clipping && static_cast<std::int32_t>(slot) == clip_end) clipping = false;
  }
}

std::uint32_t SkeletonRenderer::Impl::tangent_of(const DataEntry& data, const skel::SkeletonPose& pose, const Affine2& t,
                                                 std::uint32_t vertex) const {
  const skel::SkeletonData& d = *data.data;
  const auto bone = static_cast<std::size_t>(d.influences[d.vertices[vertex].first].bone);
  const float lx = data.tangents[2 * vertex], ly = data.tangents[2 * vertex + 1];
  const float wx = pose.a[bone] * lx + pose.b[bone] * ly, wy = pose.c[bone] * lx + pose.d[bone] * ly;
  return pack_tangent(t.a * wx + t.b * wy, t.c * wx + t.d * wy);
}

Status SkeletonRenderer::Impl::draw_cpu(InstanceEntry& instance, DataEntry& entry, const skel::SkeletonPose& pose,
                                        const DrawOptions& draw_options, RenderStats& stats) {
  skel::CpuVertices& cpu = *instance.cpu;
  cpu.update(pose);
  const skel::SkeletonData& data = *entry.data;
  const auto base = static_cast<std::uint32_t>(cpu_vertices.size());
  if (base + cpu.vertices().size() > options.max_cpu_vertices) return fail("draw: the frame's CPU vertices exceed RendererOptions::max_cpu_vertices");
  const Affine2& t = draw_options.transform;
  for (const skel::DrawnAttachment& drawn : cpu.drawn()) {
    const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(drawn.attachment)];
    const std::uint32_t first_tangent = tangent_of(entry, pose, t, att.vertex_start);
    for (std::uint32_t i = 0; i < drawn.vertex_count; ++i) {
      const skel::CpuVertex& v = cpu.vertices()[drawn.vertex_start + i];
      CanvasVertex out;
      out.x = t.apply_x(v.x, v.y);
      out.y = t.apply_y(v.x, v.y);
      out.u = v.u;
      out.v = v.v;
      out.light = pack_rgba(v.light.r * draw_options.tint.r, v.light.g * draw_options.tint.g, v.light.b * draw_options.tint.b,
                            v.light.a * draw_options.tint.a);
      out.dark = pack_rgba(v.dark.r, v.dark.g, v.dark.b, v.dark.a);
      out.tangent = drawn.clipped || i >= att.vertex_count ? first_tangent : tangent_of(entry, pose, t, att.vertex_start + i);
      cpu_vertices.push_back(out);
    }
  }
  stats.cpu_vertices += static_cast<std::uint32_t>(cpu.vertices().size());
  const std::uint32_t global_base = options.max_gpu_vertices + base;
  for (const skel::DrawRun& run : cpu.runs()) {
    if (run.page < 0 || static_cast<std::size_t>(run.page) >= entry.page_sets.size()) continue;
    draw_indices(cpu.indices().data() + run.index_start, run.index_count, global_base, static_cast<std::int32_t>(run.blend),
                 entry.variant, entry.page_sets[static_cast<std::size_t>(run.page)]);
  }
  return {};
}

Status SkeletonRenderer::draw(InstanceHandle handle, const skel::SkeletonPose& pose, const DrawOptions& options) {
  Impl& im = *impl_;
  if (!im.slot) return fail("draw: no frame was begun");
  if (handle.index < 0 || static_cast<std::size_t>(handle.index) >= im.instances.size())
    return fail("draw: no instance with handle " + std::to_string(handle.index));
  InstanceEntry& instance = *im.instances[static_cast<std::size_t>(handle.index)];
  DataEntry& entry = *im.datas[static_cast<std::size_t>(instance.data)];
  const skel::SkeletonData& data = *entry.data;
  if (&pose.data() != &data) return fail("draw: the pose belongs to another SkeletonData than the instance's");
  const Affine2& t = options.transform;

  // Culling: the skeleton-space bounds, transformed, against the view.
  const skel::Bounds bounds = options.cull_bounds ? *options.cull_bounds : skel::pose_bounds(pose);
  if (bounds.empty()) {
    ++stats_.skeletons_culled;
    return {};
  }
  {
    const float xs[4] = {bounds.min_x, bounds.max_x, bounds.max_x, bounds.min_x};
    const float ys[4] = {bounds.min_y, bounds.min_y, bounds.max_y, bounds.max_y};
    float min_x = std::numeric_limits<float>::infinity(), min_y = min_x, max_x = -min_x, max_y = -min_x;
    for (int k = 0; k < 4; ++k) {
      const float x = t.apply_x(xs[k], ys[k]), y = t.apply_y(xs[k], ys[k]);
      min_x = std::min(min_x, x);
      max_x = std::max(max_x, x);
      min_y = std::min(min_y, y);
      max_y = std::max(max_y, y);
    }
    if (max_x < im.view.x || min_x > im.view.x + im.view.width || max_y < im.view.y || min_y > im.view.y + im.view.height) {
      ++stats_.skeletons_culled;
      return {};
    }
  }
  ++stats_.skeletons_drawn;

  const bool cpu_path = im.options.allow_cpu_vertices && (options.cpu_skinning || !im.options.allow_gpu_skinning);
  if (cpu_path) return im.draw_cpu(instance, entry, pose, options, stats_);
  if (!im.options.allow_gpu_skinning) return {};

  // The cached runs: rebuilt only when the draw order, the shown attachments, their pages or the
  // active bones change. With the same attachment a slot's page can change only through a
  // sequence's frame, so only sequences are looked up while nothing else differs.
  bool stale = !instance.valid ||
               !std::equal(instance.draw_order.begin(), instance.draw_order.end(), pose.draw_order.begin(), pose.draw_order.end()) ||
               instance.attachment != pose.attachment || instance.active != pose.active;
  for (std::size_t s = 0; s < data.slots.size() && !stale; ++s) {
    const std::int32_t a = pose.attachment[s];
    if (a < 0 || static_cast<std::size_t>(a) >= data.attachments.size()) continue;
    const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(a)];
    if (att.region_count <= 1) continue;
    stale = region_for(data, pose, s, att)->page != instance.page[s];
  }
  if (stale) {
    for (std::size_t s = 0; s < data.slots.size(); ++s) {
      std::int32_t page = -1;
      const std::int32_t a = pose.attachment[s];
      if (a >= 0 && static_cast<std::size_t>(a) < data.attachments.size()) {
        const skel::Region* region = region_for(data, pose, s, data.attachments[static_cast<std::size_t>(a)]);
        if (region) page = region->page;
      }
      instance.page_now[s] = page;
    }
    im.rebuild(instance, pose);
    ++stats_.run_rebuilds;
  }
  if (im.gpu_vertex_count + instance.gpu_vertices > im.options.max_gpu_vertices)
    return fail("draw: the frame's skinned vertices exceed RendererOptions::max_gpu_vertices (" +
                std::to_string(im.options.max_gpu_vertices) + ")");

  // The bone palette: instance transform ∘ world, 2×3 per bone.
  const auto palette_offset = static_cast<std::uint32_t>(im.palette.size() / 6);
  float* palette = im.palette.append(6 * data.bones.size());
  for (std::size_t b = 0; b < data.bones.size(); ++b, palette += 6) {
    const Affine2 world{pose.a[b], pose.b[b], pose.c[b], pose.d[b], pose.world_x[b], pose.world_y[b]};
    const Affine2 m = t * world;
    palette[0] = m.a;
    palette[1] = m.b;
    palette[2] = m.c;
    palette[3] = m.d;
    palette[4] = m.x;
    palette[5] = m.y;
  }

  bool cpu_updated = false;
  std::size_t clipped_cursor = 0;
  const std::uint32_t base = im.gpu_vertex_count;
  const Color tint = options.tint;
  // Indices the previous frame on this slot left in place (see InstanceEntry::written).
  const auto frame_slot = static_cast<std::size_t>(im.slot->index);
  const std::uint32_t* const where = reinterpret_cast<const std::uint32_t*>(im.index_space.data) + im.index_count;
  InstanceEntry::WrittenIndices& written = instance.written[frame_slot];
  const bool in_place = !instance.has_clipped && written.slot_use != 0 && written.slot_use + 1 == im.slot_uses[frame_slot] &&
                        written.where == where && written.base == base && written.version == instance.version;
  for (const CachedItem& item : instance.items) {
    if (item.set == VK_NULL_HANDLE) continue;  // a page without a descriptor set: not drawn
    const auto s = static_cast<std::size_t>(item.slot);
    const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(item.attachment)];
    const skel::ColorF& slot_color = pose.color[s];
    const skel::ColorF& att_color = item.color;
    const std::uint32_t light = pack_rgba(slot_color.r * att_color.r * tint.r, slot_color.g * att_color.g * tint.g,
                                          slot_color.b * att_color.b * tint.b, slot_color.a * att_color.a * tint.a);
    const std::uint32_t dark = data.slots.has_dark[s] ? pack_rgba(pose.dark[s].r, pose.dark[s].g, pose.dark[s].b, 1) : 0u;

    if (item.clipped) {
      // Clipped slots: the CPU clipping path, in draw order between the GPU runs.
      if (!im.options.allow_cpu_vertices) continue;
      if (!cpu_updated) {
        instance.cpu->update(pose);
        cpu_updated = true;
      }
      const auto drawn = instance.cpu->drawn();
      while (clipped_cursor < drawn.size() && !(drawn[clipped_cursor].clipped && drawn[clipped_cursor].slot == item.slot)) ++clipped_cursor;
      if (clipped_cursor == drawn.size()) continue;
      const skel::DrawnAttachment& d = drawn[clipped_cursor++];
      const auto cpu_base = static_cast<std::uint32_t>(im.cpu_vertices.size());
      if (cpu_base + d.vertex_count > im.options.max_cpu_vertices)
        return fail("draw: the frame's CPU vertices exceed RendererOptions::max_cpu_vertices");
      const std::uint32_t tangent = im.tangent_of(entry, pose, t, att.vertex_start);
      CanvasVertex* out = im.cpu_vertices.append(d.vertex_count);
      for (std::uint32_t i = 0; i < d.vertex_count; ++i) {
        const skel::CpuVertex& v = instance.cpu->vertices()[d.vertex_start + i];
        out[i] = {t.apply_x(v.x, v.y), t.apply_y(v.x, v.y), v.u, v.v, light, dark, tangent};
      }
      stats_.cpu_vertices += d.vertex_count;
      const std::uint32_t global = im.options.max_gpu_vertices + cpu_base - d.vertex_start;
      im.draw_indices(instance.cpu->indices().data() + d.index_start, d.index_count, global, static_cast<std::int32_t>(item.blend),
                      entry.variant, item.set);
      continue;
    }

    // GPU-skinned: a slot record, the deform floats, and jobs of ≤ 64 vertices.
    const skel::Region* region = region_for(data, pose, s, att);
    const auto slot_index = static_cast<std::uint32_t>(im.slot_records.size());
    im.slot_records.push_back({region->u0, region->v0, region->u1 - region->u0, region->v1 - region->v0, light, dark, 0, 0});
    const std::uint32_t influence_first = data.vertices[att.vertex_start].first;
    std::int32_t deform_base = 0;
    std::uint32_t has_deform = 0;
    if (att.deform_source >= 0 && pose.deform_attachment[s] == att.deform_source &&
        pose.deform_start[s] + 2 * static_cast<std::size_t>(att.influence_count) <= pose.deform.size() && att.influence_count > 0) {
      const auto offset = static_cast<std::int32_t>(im.deform.size());
      const std::size_t floats = 2 * static_cast<std::size_t>(att.influence_count);
      std::memcpy(im.deform.append(floats), pose.deform.data() + pose.deform_start[s], floats * sizeof(float));
      deform_base = offset - 2 * static_cast<std::int32_t>(entry.influence_base + influence_first);
      has_deform = 1;
    }
    const std::uint32_t job_count = (att.vertex_count + detail::kSkinChunk - 1) / detail::kSkinChunk;
    detail::SkinJob* job = im.jobs.append(job_count);
    for (std::uint32_t start = 0; start < att.vertex_count; start += detail::kSkinChunk, ++job) {
      *job = {palette_offset, entry.vertex_base + att.vertex_start + start, std::min(detail::kSkinChunk, att.vertex_count - start),
              base + item.local_vertex + start, slot_index, deform_base, entry.influence_base + influence_first, has_deform};
    }
    im.draw_indices(entry.indices.data() + item.index_start, item.index_count, base + item.local_vertex,
                    static_cast<std::int32_t>(item.blend), entry.variant, item.set, !in_place);
  }
  if (!instance.has_clipped && VkDeviceSize{im.index_count} * sizeof(std::uint32_t) <= im.index_space.size)
    written = {im.slot_uses[frame_slot], where, base, instance.version};
  else
    written = {};
  im.gpu_vertex_count += instance.gpu_vertices;
  stats_.gpu_vertices += instance.gpu_vertices;
  return {};
}

Status SkeletonRenderer::end_frame() {
  Impl& im = *impl_;
  if (!im.slot) return fail("end_frame: no frame was begun");
  FrameSlot& slot = *im.slot;
  im.slot = nullptr;
  RenderTarget& target = *im.target;
  VkDevice vk = im.device->device();
  VkCommandBuffer cmd = slot.commands;
  const auto& limits = im.device->properties().limits;
  const VkDeviceSize storage_align = std::max<VkDeviceSize>(limits.minStorageBufferOffsetAlignment, 16);

  auto upload = [&](const void* bytes, VkDeviceSize size, VkDeviceSize align) -> std::optional<UploadSpan> {
    auto span = slot.uploads.allocate(std::max<VkDeviceSize>(size, 16), align);
    if (span && size > 0) std::memcpy(span->data, bytes, size);
    return span;
  };
  // The frame block was written by begin_frame and the indices by draw(), in place: allocating
  // what they wrote gives back the place they were written to.
  const auto& frame = im.frame_upload;
  const VkDeviceSize index_bytes = VkDeviceSize{im.index_count} * sizeof(std::uint32_t);
  auto indices = slot.uploads.allocate(std::max<VkDeviceSize>(index_bytes, 16), 16);
  if (indices && indices->offset != im.index_space.offset) indices.reset();  // cannot happen: nothing was allocated in between
  const auto cpu_vertices = upload(im.cpu_vertices.data(), im.cpu_vertices.size() * sizeof(CanvasVertex), 16);
  const auto palette = upload(im.palette.data(), im.palette.size() * sizeof(float), storage_align);
  const auto slots = upload(im.slot_records.data(), im.slot_records.size() * sizeof(detail::SlotRecord), storage_align);
  const auto deform = upload(im.deform.data(), im.deform.size() * sizeof(float), storage_align);
  const auto jobs = upload(im.jobs.data(), im.jobs.size() * sizeof(detail::SkinJob), storage_align);
  if (!frame || !indices || !cpu_vertices || !palette || !slots || !deform || !jobs) {
    (void)im.ring.submit();  // an empty frame keeps the ring in step
    return fail("end_frame: the frame's uploads exceed RendererOptions::upload_bytes_per_slot");
  }

  const auto s = static_cast<std::size_t>(slot.index);
  {
    const UploadSpan* spans[4] = {&*palette, &*slots, &*deform, &*jobs};
    VkDescriptorBufferInfo infos[5];
    VkWriteDescriptorSet writes[5] = {};
    for (std::uint32_t i = 0; i < 4; ++i) {
      infos[i] = {spans[i]->buffer, spans[i]->offset, spans[i]->size};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = im.compute_sets[s];
      writes[i].dstBinding = 2 + i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    infos[4] = {frame->buffer, frame->offset, sizeof(detail::FrameBlock)};
    writes[4] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[4].dstSet = im.frame_sets[s];
    writes[4].dstBinding = 0;
    writes[4].descriptorCount = 1;
    writes[4].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    writes[4].pBufferInfo = &infos[4];
    vkUpdateDescriptorSets(vk, 5, writes, 0, nullptr);
  }

  const GpuBuffer& output = im.outputs[s];
  VkPipelineStageFlags producers = 0;
  if (!im.cpu_vertices.empty()) {
    VkBufferCopy copy{cpu_vertices->offset, VkDeviceSize{im.options.max_gpu_vertices} * sizeof(CanvasVertex),
                      im.cpu_vertices.size() * sizeof(CanvasVertex)};
    vkCmdCopyBuffer(cmd, cpu_vertices->buffer, output.handle(), 1, &copy);
    producers |= VK_PIPELINE_STAGE_TRANSFER_BIT;
  }
  if (!im.jobs.empty()) {
    const bool timed = im.queries != VK_NULL_HANDLE;
    if (timed) {
      vkCmdResetQueryPool(cmd, im.queries, static_cast<std::uint32_t>(2 * s), 2);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, im.queries, static_cast<std::uint32_t>(2 * s));
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, im.skin_pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, im.compute_layout, 0, 1, &im.compute_sets[s], 0, nullptr);
    const auto job_count = static_cast<std::uint32_t>(im.jobs.size());
    const std::uint32_t groups_x = std::min(job_count, kMaxGroupsX);
    const std::uint32_t push[2] = {job_count, groups_x};
    vkCmdPushConstants(cmd, im.compute_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
    vkCmdDispatch(cmd, groups_x, (job_count + groups_x - 1) / groups_x, 1);
    if (timed) {
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, im.queries, static_cast<std::uint32_t>(2 * s + 1));
      im.queries_written[s] = true;
    }
    producers |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    ++stats_.dispatches;
  }
  if (producers != 0) {
    // The one barrier: skinned (and copied CPU) vertices become vertex input.
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    if (producers & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) barrier.srcAccessMask |= VK_ACCESS_SHADER_WRITE_BIT;
    if (producers & VK_PIPELINE_STAGE_TRANSFER_BIT) barrier.srcAccessMask |= VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
    vkCmdPipelineBarrier(cmd, producers, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  }

  VkClearValue clear{};
  clear.color.float32[0] = im.clear.r * im.clear.a;
  clear.color.float32[1] = im.clear.g * im.clear.a;
  clear.color.float32[2] = im.clear.b * im.clear.a;
  clear.color.float32[3] = im.clear.a;
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = target.impl_->render_pass;
  begin.framebuffer = target.impl_->framebuffer;
  begin.renderArea.extent = {static_cast<std::uint32_t>(target.width()), static_cast<std::uint32_t>(target.height())};
  begin.clearValueCount = 1;
  begin.pClearValues = &clear;
  vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
  if (!im.draws.empty()) {
    VkViewport viewport{0, 0, static_cast<float>(target.width()), static_cast<float>(target.height()), 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    VkRect2D scissor{{0, 0}, begin.renderArea.extent};
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    const VkBuffer vertex_buffer = output.handle();
    const VkDeviceSize zero = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &vertex_buffer, &zero);
    vkCmdBindIndexBuffer(cmd, indices->buffer, indices->offset, VK_INDEX_TYPE_UINT32);
    VkPipeline bound = VK_NULL_HANDLE;
    VkDescriptorSet bound_set = VK_NULL_HANDLE;
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, im.canvas_layout, 1, 1, &im.frame_sets[s], 0, nullptr);
    for (const Draw& d : im.draws) {
      const VkPipeline pipeline = im.canvas_pipelines[static_cast<std::size_t>(d.blend * kVariants + d.variant)];
      if (pipeline == VK_NULL_HANDLE) continue;  // cannot happen: add_data built every variant its data uses
      if (pipeline != bound) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        bound = pipeline;
      }
      if (d.set != bound_set) {
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, im.canvas_layout, 0, 1, &d.set, 0, nullptr);
        bound_set = d.set;
      }
      vkCmdDrawIndexed(cmd, d.count, 1, d.first, 0, 0);
      ++stats_.draw_calls;
    }
  }
  vkCmdEndRenderPass(cmd);
  target.impl_->rendered = true;
  im.target = nullptr;
  return im.ring.submit();
}

std::optional<double> SkeletonRenderer::last_skinning_gpu_ms() const { return impl_->skinning_ms; }

Status SkeletonRenderer::wait_idle() { return impl_->ring.wait_idle(); }

}  // namespace mf::render
