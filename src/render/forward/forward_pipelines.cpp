#include "forward_pipelines.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "../canvas_render_pass.hpp"
#include "frame_block.hpp"
#include "mf/render/device.hpp"
#include "mf/render/forward/mesh_vertex.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render::detail {

namespace {

constexpr std::uint32_t kMainVertSpirv[] = {
#include "shaders/forward_main.vert.inc"
};
constexpr std::uint32_t kMainFragSpirv[] = {
#include "shaders/forward_main.frag.inc"
};
constexpr std::uint32_t kDepthVertSpirv[] = {
#include "shaders/forward_depth.vert.inc"
};
constexpr std::uint32_t kDepthFragSpirv[] = {
#include "shaders/forward_depth.frag.inc"
};
constexpr std::uint32_t kShadowVertSpirv[] = {
#include "shaders/forward_shadow.vert.inc"
};
constexpr std::uint32_t kShadowFragSpirv[] = {
#include "shaders/forward_shadow.frag.inc"
};

Unexpected fail(const std::string& what, VkResult r) { return Unexpected{vulkan_error(what, r)}; }

// Blend modes on the premultiplied output, as the canvas's (skeleton_renderer.hpp lists them).
VkPipelineColorBlendAttachmentState blend_attachment(skel::BlendMode mode) {
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.blendEnable = VK_TRUE;
  attachment.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
  attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  switch (mode) {
    case skel::BlendMode::Multiply: attachment.srcColorBlendFactor = VK_BLEND_FACTOR_DST_COLOR; break;
    case skel::BlendMode::Additive: attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE; break;
    case skel::BlendMode::Screen: attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR; break;
    default: break;
  }
  attachment.colorBlendOp = VK_BLEND_OP_ADD;
  attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  attachment.alphaBlendOp = VK_BLEND_OP_ADD;
  attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  return attachment;
}

VkPipelineColorBlendAttachmentState overwrite(VkColorComponentFlags mask) {
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.colorWriteMask = mask;
  return attachment;
}

VkCullModeFlags cull_flags(Cull cull) {
  switch (cull) {
    case Cull::Back: return VK_CULL_MODE_BACK_BIT;
    case Cull::Front: return VK_CULL_MODE_FRONT_BIT;
    default: return VK_CULL_MODE_NONE;
  }
}

VkAttachmentDescription attachment(VkFormat format, VkAttachmentLoadOp load, VkAttachmentStoreOp store, VkImageLayout initial,
                                   VkImageLayout final_layout) {
  VkAttachmentDescription a{};
  a.format = format;
  a.samples = VK_SAMPLE_COUNT_1_BIT;
  a.loadOp = load;
  a.storeOp = store;
  a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  a.initialLayout = initial;
  a.finalLayout = final_layout;
  return a;
}

VkSubpassDependency dependency(std::uint32_t src, std::uint32_t dst, VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage,
                               VkAccessFlags src_access, VkAccessFlags dst_access) {
  return {src, dst, src_stage, dst_stage, src_access, dst_access, 0};
}

constexpr VkPipelineStageFlags kFragmentTests = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;

// What one pipeline differs in.
struct PipelineDesc {
  VkShaderModule vert = VK_NULL_HANDLE, frag = VK_NULL_HANDLE;
  const VkSpecializationInfo* spec = nullptr;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  const VkPipelineColorBlendAttachmentState* attachments = nullptr;
  std::uint32_t attachment_count = 0;
  bool all_attributes = true;  // the main pass reads every MeshVertex field; the depth passes position, UV and light
  Cull cull = Cull::None;
  bool depth_write = true;
  // Depth bias (Vulkan's units): the shadow casters' against acne, sprites' prepass depth pushed away.
  float bias_constant = 0, bias_slope = 0;
};

// Sprites' prepass bias: far above the few units by which coplanar triangles' interpolated depths
// differ, well below a centimetre at the distances a scene is seen from.
constexpr float kSpriteBiasConstant = 16, kSpriteBiasSlope = 1;

}  // namespace

ForwardPipelines::~ForwardPipelines() {
  if (!device_) return;
  VkDevice vk = device_->device();
  for (VkPipeline p : main_)
    if (p) vkDestroyPipeline(vk, p, nullptr);
  for (VkPipeline p : prepass_)
    if (p) vkDestroyPipeline(vk, p, nullptr);
  for (VkPipeline p : sprite_prepass_)
    if (p) vkDestroyPipeline(vk, p, nullptr);
  for (VkPipeline p : shadow_)
    if (p) vkDestroyPipeline(vk, p, nullptr);
  if (frame_pool_) vkDestroyDescriptorPool(vk, frame_pool_, nullptr);
  if (layout_) vkDestroyPipelineLayout(vk, layout_, nullptr);
  for (VkDescriptorSetLayout l : {material_set_layout_, frame_set_layout_})
    if (l) vkDestroyDescriptorSetLayout(vk, l, nullptr);
  for (VkRenderPass p : {shadow_pass_, prepass_pass_, main_pass_})
    if (p) vkDestroyRenderPass(vk, p, nullptr);
}

Expected<std::unique_ptr<ForwardPipelines>> ForwardPipelines::create(Device& device) {
  std::unique_ptr<ForwardPipelines> self(new ForwardPipelines());
  self->device_ = &device;
  // The shadow map: D32 when it can be filtered (PCF reads four depths per tap), else D16, which
  // every device filters; a device filtering neither compares the nearest texel.
  const auto filters = [&](VkFormat format) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(device.physical_device(), format, &props);
    const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if ((props.optimalTilingFeatures & need) != need) return -1;
    return (props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) ? 1 : 0;
  };
  if (filters(VK_FORMAT_D32_SFLOAT) == 1) {
    self->shadow_format_ = VK_FORMAT_D32_SFLOAT;
  } else if (filters(VK_FORMAT_D16_UNORM) >= 0) {
    self->shadow_format_ = VK_FORMAT_D16_UNORM;
    self->shadow_linear_ = filters(VK_FORMAT_D16_UNORM) == 1;
  } else {
    return Unexpected{Error{{}, {}, {}, "the device can neither render nor sample a D32 or D16 shadow map"}};
  }
  VkFormatProperties depth{};
  vkGetPhysicalDeviceFormatProperties(device.physical_device(), kForwardDepthFormat, &depth);
  if (!(depth.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
    return Unexpected{Error{{}, {}, {}, "the device cannot render to a D32_SFLOAT depth buffer"}};

  if (Status s = self->create_render_passes(); !s) return Unexpected{s.error()};
  if (Status s = self->create_layouts(); !s) return Unexpected{s.error()};
  if (Status s = self->create_frame_sets(); !s) return Unexpected{s.error()};
  const std::pair<ShaderModule*, std::span<const std::uint32_t>> shaders[] = {
      {&self->main_vert_, kMainVertSpirv},     {&self->main_frag_, kMainFragSpirv},
      {&self->depth_vert_, kDepthVertSpirv},   {&self->depth_frag_, kDepthFragSpirv},
      {&self->shadow_vert_, kShadowVertSpirv}, {&self->shadow_frag_, kShadowFragSpirv}};
  for (const auto& [module, spirv] : shaders) {
    auto created = ShaderModule::create(device, spirv);
    if (!created) return Unexpected{created.error()};
    *module = std::move(*created);
  }
  if (Status s = self->create_pipelines(); !s) return Unexpected{s.error()};
  return self;
}

Status ForwardPipelines::create_render_passes() {
  VkDevice vk = device_->device();
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;

  // Shadow: depth only; the last frame's main pass sampled the map before this frame clears it.
  {
    const VkAttachmentDescription depth = attachment(shadow_format_, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                                                     VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    subpass.colorAttachmentCount = 0;
    subpass.pColorAttachments = nullptr;
    subpass.pDepthStencilAttachment = &ref;
    const VkSubpassDependency deps[2] = {
        dependency(VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, kFragmentTests, 0,
                   VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT),
        dependency(0, VK_SUBPASS_EXTERNAL, kFragmentTests, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                   VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT)};
    info.attachmentCount = 1;
    info.pAttachments = &depth;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 2;
    info.pDependencies = deps;
    if (VkResult r = vkCreateRenderPass(vk, &info, nullptr, &shadow_pass_); r != VK_SUCCESS)
      return fail("cannot create the shadow render pass", r);
  }
  // Prepass: depth (kept read-only for the main pass), object IDs and motion (left for transfer
  // reads: pick, read_motion_vectors). The last frame's main pass and reads finish first.
  {
    const VkAttachmentDescription attachments[3] = {
        attachment(kForwardDepthFormat, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL),
        attachment(kObjectIdFormat, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL),
        attachment(kMotionFormat, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)};
    VkAttachmentReference depth_ref{0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkAttachmentReference colour_refs[2] = {{1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}, {2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}};
    subpass.colorAttachmentCount = 2;
    subpass.pColorAttachments = colour_refs;
    subpass.pDepthStencilAttachment = &depth_ref;
    const VkSubpassDependency deps[2] = {
        dependency(VK_SUBPASS_EXTERNAL, 0,
                   VK_PIPELINE_STAGE_TRANSFER_BIT | kFragmentTests | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                   kFragmentTests | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                   VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                   VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT),
        dependency(0, VK_SUBPASS_EXTERNAL, kFragmentTests | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                   kFragmentTests | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                   VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT)};
    info.attachmentCount = 3;
    info.pAttachments = attachments;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 2;
    info.pDependencies = deps;
    if (VkResult r = vkCreateRenderPass(vk, &info, nullptr, &prepass_pass_); r != VK_SUCCESS)
      return fail("cannot create the depth prepass render pass", r);
  }
  // Main: the target cleared and left for transfer reads (read_back, the swapchain's blit), as the
  // canvas pass leaves it; the prepass's depth tested, never written.
  {
    const VkAttachmentDescription attachments[2] = {
        attachment(kCanvasFormat, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL),
        attachment(kForwardDepthFormat, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL)};
    VkAttachmentReference colour_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &colour_ref;
    subpass.pDepthStencilAttachment = &depth_ref;
    const VkSubpassDependency deps[2] = {
        dependency(VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT | kFragmentTests,
                   VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | kFragmentTests, VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                   VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                       VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT),
        dependency(0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT)};
    info.attachmentCount = 2;
    info.pAttachments = attachments;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 2;
    info.pDependencies = deps;
    if (VkResult r = vkCreateRenderPass(vk, &info, nullptr, &main_pass_); r != VK_SUCCESS)
      return fail("cannot create the forward main render pass", r);
  }
  return {};
}

Status ForwardPipelines::create_layouts() {
  VkDevice vk = device_->device();
  // Exactly the canvas's page set layout (CanvasPipelines::create_layouts), so page sets bind here.
  VkDescriptorSetLayoutBinding material[2] = {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
                                              {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = 2;
  info.pBindings = material;
  if (VkResult r = vkCreateDescriptorSetLayout(vk, &info, nullptr, &material_set_layout_); r != VK_SUCCESS)
    return fail("cannot create the material set layout", r);
  const VkShaderStageFlags both = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  VkDescriptorSetLayoutBinding frame[4] = {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, both, nullptr},
                                           {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, both, nullptr},
                                           {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
                                           {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
  info.bindingCount = 4;
  info.pBindings = frame;
  if (VkResult r = vkCreateDescriptorSetLayout(vk, &info, nullptr, &frame_set_layout_); r != VK_SUCCESS)
    return fail("cannot create the forward frame set layout", r);
  VkDescriptorSetLayout sets[2] = {material_set_layout_, frame_set_layout_};
  VkPushConstantRange push{both, 0, sizeof(std::uint32_t)};
  VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout.setLayoutCount = 2;
  layout.pSetLayouts = sets;
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &push;
  if (VkResult r = vkCreatePipelineLayout(vk, &layout, nullptr, &layout_); r != VK_SUCCESS)
    return fail("cannot create the forward pipeline layout", r);
  return {};
}

Status ForwardPipelines::create_frame_sets() {
  VkDevice vk = device_->device();
  const VkDescriptorPoolSize sizes[3] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, kFrameSlots},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * kFrameSlots},
                                         {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFrameSlots}};
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = kFrameSlots;
  info.poolSizeCount = 3;
  info.pPoolSizes = sizes;
  if (VkResult r = vkCreateDescriptorPool(vk, &info, nullptr, &frame_pool_); r != VK_SUCCESS)
    return fail("cannot create the forward frame descriptor pool", r);
  std::array<VkDescriptorSetLayout, kFrameSlots> layouts;
  layouts.fill(frame_set_layout_);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = frame_pool_;
  alloc.descriptorSetCount = kFrameSlots;
  alloc.pSetLayouts = layouts.data();
  if (VkResult r = vkAllocateDescriptorSets(vk, &alloc, frame_sets_.data()); r != VK_SUCCESS)
    return fail("cannot allocate the forward frame descriptor sets", r);
  return {};
}

void ForwardPipelines::write_fixed(int frame_slot, VkBuffer previous_vertices, VkImageView shadow_map, VkSampler shadow_sampler) const {
  const VkDescriptorSet set = frame_sets_[static_cast<std::size_t>(frame_slot)];
  VkDescriptorBufferInfo buffer{previous_vertices, 0, VK_WHOLE_SIZE};
  VkDescriptorImageInfo image{shadow_sampler, shadow_map, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  writes[0].dstSet = set;
  writes[0].dstBinding = 2;
  writes[0].descriptorCount = 1;
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[0].pBufferInfo = &buffer;
  writes[1].dstSet = set;
  writes[1].dstBinding = 3;
  writes[1].descriptorCount = 1;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  writes[1].pImageInfo = &image;
  vkUpdateDescriptorSets(device_->device(), 2, writes, 0, nullptr);
}

void ForwardPipelines::write_frame(int frame_slot, const UploadSpan& block, const UploadSpan& records) const {
  const VkDescriptorSet set = frame_sets_[static_cast<std::size_t>(frame_slot)];
  VkDescriptorBufferInfo infos[2] = {{block.buffer, block.offset, sizeof(ForwardFrameBlock)},
                                     {records.buffer, records.offset, records.size}};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  writes[0].dstSet = set;
  writes[0].dstBinding = 0;
  writes[0].descriptorCount = 1;
  writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  writes[0].pBufferInfo = &infos[0];
  writes[1].dstSet = set;
  writes[1].dstBinding = 1;
  writes[1].descriptorCount = 1;
  writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  writes[1].pBufferInfo = &infos[1];
  vkUpdateDescriptorSets(device_->device(), 2, writes, 0, nullptr);
}

Status ForwardPipelines::create_pipelines() {
  VkDevice vk = device_->device();
  VkVertexInputBindingDescription binding{0, sizeof(MeshVertex), VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attributes[7] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, x)},
                                                           {1, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(MeshVertex, u)},
                                                           {4, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(MeshVertex, light)},
                                                           {2, 0, VK_FORMAT_R16G16_SNORM, offsetof(MeshVertex, normal)},
                                                           {3, 0, VK_FORMAT_R16G16_SNORM, offsetof(MeshVertex, tangent)},
                                                           {5, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(MeshVertex, dark)},
                                                           {6, 0, VK_FORMAT_R32_UINT, offsetof(MeshVertex, flags)}};

  const auto build = [&](const PipelineDesc& d, VkPipeline& out) -> Status {
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = d.vert;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = d.frag;
    stages[1].pName = "main";
    stages[1].pSpecializationInfo = d.spec;
    VkPipelineVertexInputStateCreateInfo input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    input.vertexBindingDescriptionCount = 1;
    input.pVertexBindingDescriptions = &binding;
    input.vertexAttributeDescriptionCount = d.all_attributes ? 7 : 3;
    input.pVertexAttributeDescriptions = attributes;
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = cull_flags(d.cull);
    // Meshes are counter-clockwise seen from the front in a Y-up world; the projections flip Y into
    // Vulkan's clip space, which keeps them counter-clockwise in framebuffer terms.
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1;
    if (d.bias_constant != 0 || d.bias_slope != 0) {
      raster.depthBiasEnable = VK_TRUE;
      raster.depthBiasConstantFactor = d.bias_constant;
      raster.depthBiasSlopeFactor = d.bias_slope;
    }
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = VK_TRUE;
    depth.depthWriteEnable = d.depth_write ? VK_TRUE : VK_FALSE;
    depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = d.attachment_count;
    blend.pAttachments = d.attachments;
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
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = layout_;
    info.renderPass = d.render_pass;
    if (VkResult r = vkCreateGraphicsPipelines(vk, VK_NULL_HANDLE, 1, &info, nullptr, &out); r != VK_SUCCESS)
      return fail("cannot create a forward pipeline", r);
    return {};
  };

  const VkColorComponentFlags rgba = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  const Cull culls[kCullModes] = {Cull::None, Cull::Back, Cull::Front};

  // Main: constant 0 normal map, constant 1 alpha mode (0 opaque, 1 cutout, 2 blend).
  struct MainSpec {
    VkBool32 normal_map;
    std::int32_t alpha_mode;
  };
  const VkSpecializationMapEntry main_entries[2] = {{0, offsetof(MainSpec, normal_map), sizeof(VkBool32)},
                                                    {1, offsetof(MainSpec, alpha_mode), sizeof(std::int32_t)}};
  for (int a = 0; a < kMainAlphaVariants; ++a)
    for (int n = 0; n < 2; ++n) {
      const MainSpec values{n == 1 ? VK_TRUE : VK_FALSE, a < 2 ? a : 2};
      const VkSpecializationInfo spec{2, main_entries, sizeof(MainSpec), &values};
      const VkPipelineColorBlendAttachmentState colour =
          a < 2 ? overwrite(rgba) : blend_attachment(static_cast<skel::BlendMode>(a - 2));
      for (int c = 0; c < kCullModes; ++c) {
        PipelineDesc d;
        d.vert = main_vert_.handle();
        d.frag = main_frag_.handle();
        d.spec = &spec;
        d.render_pass = main_pass_;
        d.attachments = &colour;
        d.attachment_count = 1;
        d.cull = culls[c];
        d.depth_write = false;
        if (Status s = build(d, main_[static_cast<std::size_t>((a * 2 + n) * kCullModes + c)]); !s) return s;
      }
    }

  // Depth passes: constant 0 alpha test.
  const VkSpecializationMapEntry test_entry{0, 0, sizeof(VkBool32)};
  // Identical states (no independentBlend needed); the missing channels are ignored.
  const VkPipelineColorBlendAttachmentState id_motion[2] = {overwrite(rgba), overwrite(rgba)};
  for (int t = 0; t < 2; ++t) {
    const VkBool32 alpha_test = t == 1 ? VK_TRUE : VK_FALSE;
    const VkSpecializationInfo spec{1, &test_entry, sizeof(VkBool32), &alpha_test};
    for (int c = 0; c < kCullModes; ++c) {
      PipelineDesc d;
      d.spec = &spec;
      d.all_attributes = false;
      d.cull = culls[c];
      d.vert = depth_vert_.handle();
      d.frag = depth_frag_.handle();
      d.render_pass = prepass_pass_;
      d.attachments = id_motion;
      d.attachment_count = 2;
      if (Status s = build(d, prepass_[static_cast<std::size_t>(t * kCullModes + c)]); !s) return s;
      if (t == 1) {
        d.bias_constant = kSpriteBiasConstant;
        d.bias_slope = kSpriteBiasSlope;
        if (Status s = build(d, sprite_prepass_[static_cast<std::size_t>(c)]); !s) return s;
      }
      d.vert = shadow_vert_.handle();
      d.frag = shadow_frag_.handle();
      d.render_pass = shadow_pass_;
      d.attachments = nullptr;
      d.attachment_count = 0;
      d.bias_constant = 1.25f;
      d.bias_slope = 1.75f;
      if (Status s = build(d, shadow_[static_cast<std::size_t>(t * kCullModes + c)]); !s) return s;
    }
  }
  return {};
}

}  // namespace mf::render::detail
