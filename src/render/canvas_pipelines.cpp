#include "canvas_pipelines.hpp"

#include <cstddef>

#include "canvas_render_pass.hpp"
#include "mf/render/canvas_vertex.hpp"
#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"
#include "skinning_layout.hpp"

namespace mf::render::detail {

namespace {

constexpr std::uint32_t kCanvasVertSpirv[] = {
#include "shaders/canvas.vert.inc"
};
constexpr std::uint32_t kCanvasFragSpirv[] = {
#include "shaders/canvas.frag.inc"
};

Unexpected fail(const std::string& what, VkResult r) { return Unexpected{vulkan_error(what, r)}; }

// Blend modes on the premultiplied output (the header of skeleton_renderer.hpp lists them).
VkPipelineColorBlendAttachmentState blend_attachment(int mode) {
  VkPipelineColorBlendAttachmentState attachment{};
  attachment.blendEnable = VK_TRUE;
  attachment.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
  attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  switch (static_cast<skel::BlendMode>(mode)) {
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

}  // namespace

CanvasPipelines::~CanvasPipelines() {
  if (!device_) return;
  VkDevice vk = device_->device();
  for (VkPipeline p : pipelines_)
    if (p) vkDestroyPipeline(vk, p, nullptr);
  if (frame_pool_) vkDestroyDescriptorPool(vk, frame_pool_, nullptr);
  if (layout_) vkDestroyPipelineLayout(vk, layout_, nullptr);
  for (VkDescriptorSetLayout l : {page_set_layout_, frame_set_layout_})
    if (l) vkDestroyDescriptorSetLayout(vk, l, nullptr);
  if (render_pass_) vkDestroyRenderPass(vk, render_pass_, nullptr);
}

Expected<std::unique_ptr<CanvasPipelines>> CanvasPipelines::create(Device& device) {
  std::unique_ptr<CanvasPipelines> self(new CanvasPipelines());
  self->device_ = &device;
  if (VkResult r = create_canvas_render_pass(device.device(), &self->render_pass_); r != VK_SUCCESS)
    return fail("cannot create the canvas render pass", r);
  if (Status s = self->create_layouts(); !s) return Unexpected{s.error()};
  auto vert = ShaderModule::create(device, kCanvasVertSpirv);
  if (!vert) return Unexpected{vert.error()};
  auto frag = ShaderModule::create(device, kCanvasFragSpirv);
  if (!frag) return Unexpected{frag.error()};
  self->vert_shader_ = std::move(*vert);
  self->frag_shader_ = std::move(*frag);
  if (Status s = self->create_frame_sets(); !s) return Unexpected{s.error()};
  return self;
}

Status CanvasPipelines::create_layouts() {
  VkDevice vk = device_->device();
  VkDescriptorSetLayoutBinding pages[2] = {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
                                           {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = 2;
  info.pBindings = pages;
  if (VkResult r = vkCreateDescriptorSetLayout(vk, &info, nullptr, &page_set_layout_); r != VK_SUCCESS)
    return fail("cannot create the page set layout", r);
  VkDescriptorSetLayoutBinding frame{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                                     nullptr};
  info.bindingCount = 1;
  info.pBindings = &frame;
  if (VkResult r = vkCreateDescriptorSetLayout(vk, &info, nullptr, &frame_set_layout_); r != VK_SUCCESS)
    return fail("cannot create the frame set layout", r);
  VkDescriptorSetLayout sets[2] = {page_set_layout_, frame_set_layout_};
  VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout.setLayoutCount = 2;
  layout.pSetLayouts = sets;
  if (VkResult r = vkCreatePipelineLayout(vk, &layout, nullptr, &layout_); r != VK_SUCCESS)
    return fail("cannot create the canvas pipeline layout", r);
  return {};
}

Status CanvasPipelines::create_frame_sets() {
  VkDevice vk = device_->device();
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, kFrameSlots};
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = kFrameSlots;
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  if (VkResult r = vkCreateDescriptorPool(vk, &info, nullptr, &frame_pool_); r != VK_SUCCESS)
    return fail("cannot create the frame descriptor pool", r);
  std::array<VkDescriptorSetLayout, kFrameSlots> layouts;
  layouts.fill(frame_set_layout_);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = frame_pool_;
  alloc.descriptorSetCount = kFrameSlots;
  alloc.pSetLayouts = layouts.data();
  if (VkResult r = vkAllocateDescriptorSets(vk, &alloc, frame_sets_.data()); r != VK_SUCCESS)
    return fail("cannot allocate the frame descriptor sets", r);
  return {};
}

VkDescriptorSet CanvasPipelines::write_frame_set(int frame_slot, const UploadSpan& block) const {
  const VkDescriptorSet set = frame_sets_[static_cast<std::size_t>(frame_slot)];
  VkDescriptorBufferInfo info{block.buffer, block.offset, sizeof(FrameBlock)};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  write.pBufferInfo = &info;
  vkUpdateDescriptorSets(device_->device(), 1, &write, 0, nullptr);
  return set;
}

Status CanvasPipelines::prepare(const skel::SkeletonData& data, int variant, std::uint32_t& created) {
  bool used[kBlendModes] = {};
  for (skel::BlendMode b : data.slots.blend) used[static_cast<int>(b) & 3] = true;
  used[0] = true;  // slots may be clipped or tinted, never without a blend: Normal is always there
  for (int blend = 0; blend < kBlendModes; ++blend) {
    VkPipeline& pipeline = pipelines_[static_cast<std::size_t>(blend * kVariants + variant)];
    if (!used[blend] || pipeline != VK_NULL_HANDLE) continue;
    if (Status s = create_pipeline(blend, variant, pipeline); !s) return s;
    ++created;
  }
  return {};
}

Status CanvasPipelines::create_pipeline(int blend, int variant, VkPipeline& out) const {
  const VkBool32 normal_map = variant == 1 ? VK_TRUE : VK_FALSE;  // the fragment shader's constant 0
  VkSpecializationMapEntry spec_entry{0, 0, sizeof(VkBool32)};
  VkSpecializationInfo spec{1, &spec_entry, sizeof(VkBool32), &normal_map};
  VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                               {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vert_shader_.handle();
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = frag_shader_.handle();
  stages[1].pName = "main";
  stages[1].pSpecializationInfo = &spec;

  VkVertexInputBindingDescription binding{0, sizeof(CanvasVertex), VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription attributes[5] = {{0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(CanvasVertex, x)},
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
  const VkPipelineColorBlendAttachmentState attachment = blend_attachment(blend);
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
  info.layout = layout_;
  info.renderPass = render_pass_;
  if (VkResult r = vkCreateGraphicsPipelines(device_->device(), VK_NULL_HANDLE, 1, &info, nullptr, &out); r != VK_SUCCESS)
    return fail("cannot create a canvas pipeline", r);
  return {};
}

}  // namespace mf::render::detail
