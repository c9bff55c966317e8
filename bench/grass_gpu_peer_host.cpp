// The engine's own scatter shader on the Vulkan host of bench/grass_gpu (grass_gpu_host.hpp):
// Gpu::run_engine builds a pipeline for GrassScatter.comp.spv (its descriptor sets, R32F
// textures for heights, weights and holes, a linear sampler), dispatches it over the cells and
// reads back the counts and records, for `grass_gpu --peer`.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

#include "bench/grass_gpu_host.hpp"
#include "lib/grass/grass_type.hpp"
#include "lib/grass/scatter.hpp"
#include "lib/grass/surface.hpp"

namespace voxkit::bench::grass_gpu {

using namespace voxkit::grass;

namespace {

// The per-material uniform block of GrassScatter.comp.spv (std140, offsets from
// GrassScatter.reflect.json).
struct EngineUniforms {
  int32_t weight_channel;
  float pad0;
  float height_map_size[2];
  float tile_samples, tile_quads;
  float atlas_tiles[2];
  float height_range[2];
  float metres_per_quad;
  float pad1;
  float terrain_origin[3];
  float cell_size;
  int32_t grid_side;
  float jitter;
  float weight_range[2];
  float scale_range[2];
  float align_to_normal, max_slope, density_scale;
  float pad2[3];
};

}  // namespace

void Gpu::run_engine(const std::vector<uint32_t>& spirv, const ScatterSetup& s, const SurfaceGrid& g,
                     std::span<const CellKey> cells, uint32_t capacity, std::vector<GpuCellResult>& out) {
  static_assert(offsetof(EngineUniforms, height_map_size) == 8 && offsetof(EngineUniforms, tile_samples) == 16 &&
                offsetof(EngineUniforms, atlas_tiles) == 24 && offsetof(EngineUniforms, height_range) == 32 &&
                offsetof(EngineUniforms, metres_per_quad) == 40 && offsetof(EngineUniforms, terrain_origin) == 48 &&
                offsetof(EngineUniforms, cell_size) == 60 && offsetof(EngineUniforms, grid_side) == 64 &&
                offsetof(EngineUniforms, weight_range) == 72 && offsetof(EngineUniforms, scale_range) == 80 &&
                offsetof(EngineUniforms, align_to_normal) == 88 && offsetof(EngineUniforms, density_scale) == 96);
  if (g.samples_x != g.samples_z) throw std::runtime_error("the engine's atlas needs a square grid (one tileQuads)");
  if (s.layer < 0 || !s.type.random_yaw)
    throw std::runtime_error("the engine's shader is compiled for RandomYaw and LayerBound only");
  VkFormatProperties fp;
  vkGetPhysicalDeviceFormatProperties(physical_, VK_FORMAT_R32_SFLOAT, &fp);
  if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
    throw std::runtime_error("the device cannot filter R32_SFLOAT textures linearly");

  EngineUniforms u{};
  u.weight_channel = 0;
  u.height_map_size[0] = static_cast<float>(g.samples_x), u.height_map_size[1] = static_cast<float>(g.samples_z);
  u.tile_samples = static_cast<float>(g.samples_x);
  u.tile_quads = static_cast<float>(g.samples_x - 1);
  u.atlas_tiles[0] = u.atlas_tiles[1] = 1.0f;
  u.height_range[0] = 0.0f, u.height_range[1] = 1.0f;
  u.metres_per_quad = g.spacing;
  u.terrain_origin[0] = g.origin_x, u.terrain_origin[1] = g.origin_y, u.terrain_origin[2] = g.origin_z;
  u.cell_size = s.cell_size;
  u.grid_side = s.side;
  u.jitter = s.type.jitter;
  u.weight_range[0] = s.type.min_weight, u.weight_range[1] = s.type.max_weight;
  u.scale_range[0] = s.type.min_scale, u.scale_range[1] = s.type.max_scale;
  u.align_to_normal = s.type.align_to_normal, u.max_slope = s.type.max_slope, u.density_scale = s.density_scale;

  std::vector<GpuCell> gcells(cells.size());
  for (size_t i = 0; i < cells.size(); ++i)
    gcells[i] = {cells[i].x, cells[i].z, static_cast<uint32_t>(i * capacity), capacity};
  const std::vector<float> zeros(g.height.size(), 0.0f);
  const std::vector<float>& weights = g.weights[static_cast<size_t>(s.layer)];

  std::vector<Buffer> bufs;
  struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
  };
  std::vector<Image> images;
  VkSampler sampler = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  std::array<VkDescriptorSetLayout, 3> layouts{};
  VkPipelineLayout playout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool dpool = VK_NULL_HANDLE;
  auto cleanup = [&] {
    vkDeviceWaitIdle(device_);
    if (dpool) vkDestroyDescriptorPool(device_, dpool, nullptr);
    if (pipeline) vkDestroyPipeline(device_, pipeline, nullptr);
    if (playout) vkDestroyPipelineLayout(device_, playout, nullptr);
    for (auto l : layouts)
      if (l) vkDestroyDescriptorSetLayout(device_, l, nullptr);
    if (module) vkDestroyShaderModule(device_, module, nullptr);
    if (sampler) vkDestroySampler(device_, sampler, nullptr);
    for (auto& im : images) {
      if (im.view) vkDestroyImageView(device_, im.view, nullptr);
      if (im.image) vkDestroyImage(device_, im.image, nullptr);
      if (im.memory) vkFreeMemory(device_, im.memory, nullptr);
    }
    for (auto& b : bufs) free_buffer(b);
  };
  try {
    // Buffers: uniforms, cells, instances, counts, commands; three staging buffers.
    bufs.push_back(make_buffer(sizeof u, &u, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT));
    bufs.push_back(make_buffer(gcells.size() * sizeof(GpuCell), gcells.data()));
    bufs.push_back(make_buffer(cells.size() * capacity * sizeof(Blade), nullptr));
    bufs.push_back(make_buffer(cells.size() * 4, nullptr));
    bufs.push_back(make_buffer(cells.size() * 20, nullptr));
    std::memset(bufs[3].map, 0, cells.size() * 4);
    std::memset(bufs[4].map, 0, cells.size() * 20);
    const std::array<const std::vector<float>*, 3> planes{&g.height, &weights, &zeros};
    for (auto* plane : planes)
      bufs.push_back(make_buffer(plane->size() * 4, plane->data(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT));

    // Images: height, weight, hole (all zero), R32F, one texel per sample.
    for (int i = 0; i < 3; ++i) {
      Image im;
      VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      ici.imageType = VK_IMAGE_TYPE_2D;
      ici.format = VK_FORMAT_R32_SFLOAT;
      ici.extent = {static_cast<uint32_t>(g.samples_x), static_cast<uint32_t>(g.samples_z), 1};
      ici.mipLevels = 1;
      ici.arrayLayers = 1;
      ici.samples = VK_SAMPLE_COUNT_1_BIT;
      ici.tiling = VK_IMAGE_TILING_OPTIMAL;
      ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
      ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      VK(vkCreateImage(device_, &ici, nullptr, &im.image));
      images.push_back(im);
      VkMemoryRequirements req;
      vkGetImageMemoryRequirements(device_, images.back().image, &req);
      uint32_t type = UINT32_MAX;
      for (uint32_t t = 0; t < memory_.memoryTypeCount && type == UINT32_MAX; ++t)
        if ((req.memoryTypeBits & (1u << t)) && (memory_.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
          type = t;
      for (uint32_t t = 0; t < memory_.memoryTypeCount && type == UINT32_MAX; ++t)
        if (req.memoryTypeBits & (1u << t)) type = t;
      VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      ai.allocationSize = req.size;
      ai.memoryTypeIndex = type;
      VK(vkAllocateMemory(device_, &ai, nullptr, &images.back().memory));
      VK(vkBindImageMemory(device_, images.back().image, images.back().memory, 0));
      VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
      vci.image = images.back().image;
      vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
      vci.format = VK_FORMAT_R32_SFLOAT;
      vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      VK(vkCreateImageView(device_, &vci, nullptr, &images.back().view));
    }
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.maxLod = 0.0f;
    VK(vkCreateSampler(device_, &sci, nullptr, &sampler));

    VkShaderModuleCreateInfo smi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smi.codeSize = spirv.size() * 4;
    smi.pCode = spirv.data();
    VK(vkCreateShaderModule(device_, &smi, nullptr, &module));
    std::array<VkDescriptorSetLayoutBinding, 11> lb{};
    const VkDescriptorType types[11] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                                        VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,  VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                                        VK_DESCRIPTOR_TYPE_SAMPLER,        VK_DESCRIPTOR_TYPE_SAMPLER,
                                        VK_DESCRIPTOR_TYPE_SAMPLER,        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    for (uint32_t i = 0; i < 11; ++i) lb[i] = {i, types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    VK(vkCreateDescriptorSetLayout(device_, &dl, nullptr, &layouts[0]));  // sets 0 and 1: empty
    VK(vkCreateDescriptorSetLayout(device_, &dl, nullptr, &layouts[1]));
    dl.bindingCount = 11;
    dl.pBindings = lb.data();
    VK(vkCreateDescriptorSetLayout(device_, &dl, nullptr, &layouts[2]));
    VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pl.setLayoutCount = 3;
    pl.pSetLayouts = layouts.data();
    VK(vkCreatePipelineLayout(device_, &pl, nullptr, &playout));
    VkComputePipelineCreateInfo cpi{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = module;
    cpi.stage.pName = "main";
    cpi.layout = playout;
    VK(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpi, nullptr, &pipeline));

    std::array<VkDescriptorPoolSize, 4> sizes{{{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                               {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 3},
                                               {VK_DESCRIPTOR_TYPE_SAMPLER, 3},
                                               {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}}};
    VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 1;
    dpi.poolSizeCount = 4;
    dpi.pPoolSizes = sizes.data();
    VK(vkCreateDescriptorPool(device_, &dpi, nullptr, &dpool));
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = dpool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layouts[2];
    VkDescriptorSet set;
    VK(vkAllocateDescriptorSets(device_, &ai, &set));
    std::array<VkDescriptorBufferInfo, 5> binfo{};
    std::array<VkDescriptorImageInfo, 6> iinfo{};
    std::array<VkWriteDescriptorSet, 11> w{};
    const int buffer_of[11] = {0, -1, -1, -1, -1, -1, -1, 1, 2, 3, 4};
    for (uint32_t i = 0; i < 11; ++i) {
      w[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w[i].dstSet = set;
      w[i].dstBinding = i;
      w[i].descriptorCount = 1;
      w[i].descriptorType = types[i];
      if (buffer_of[i] >= 0) {
        binfo[buffer_of[i]] = {bufs[buffer_of[i]].buffer, 0, VK_WHOLE_SIZE};
        w[i].pBufferInfo = &binfo[buffer_of[i]];
      } else if (i <= 3) {
        iinfo[i - 1] = {VK_NULL_HANDLE, images[i - 1].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        w[i].pImageInfo = &iinfo[i - 1];
      } else {
        iinfo[i - 1] = {sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
        w[i].pImageInfo = &iinfo[i - 1];
      }
    }
    vkUpdateDescriptorSets(device_, 11, w.data(), 0, nullptr);

    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = command_pool_;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    VK(vkAllocateCommandBuffers(device_, &cai, &cmd));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK(vkBeginCommandBuffer(cmd, &bi));
    for (int i = 0; i < 3; ++i) {
      VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      ib.srcAccessMask = 0;
      ib.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      ib.image = images[i].image;
      ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                           nullptr, 1, &ib);
      VkBufferImageCopy copy{};
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageExtent = {static_cast<uint32_t>(g.samples_x), static_cast<uint32_t>(g.samples_z), 1};
      vkCmdCopyBufferToImage(cmd, bufs[5 + i].buffer, images[i].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
      ib.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
      ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
      ib.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr,
                           0, nullptr, 1, &ib);
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, playout, 2, 1, &set, 0, nullptr);
    const uint32_t groups = static_cast<uint32_t>((s.side + 7) / 8);
    vkCmdDispatch(cmd, groups, groups, static_cast<uint32_t>(cells.size()));
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
                         nullptr, 0, nullptr);
    VK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    VK(vkCreateFence(device_, &fi, nullptr, &fence));
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    VK(vkQueueSubmit(queue_, 1, &si, fence));
    VK(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(device_, fence, nullptr);
    vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);

    out.assign(cells.size(), GpuCellResult{});
    const uint32_t* counts = static_cast<const uint32_t*>(bufs[3].map);
    for (size_t c = 0; c < cells.size(); ++c) {
      out[c].counts[0] = counts[c];
      const size_t kept = std::min<size_t>(counts[c], capacity);
      out[c].blades.resize(kept);
      if (kept) std::memcpy(out[c].blades.data(), static_cast<const Blade*>(bufs[2].map) + c * capacity, kept * sizeof(Blade));
    }
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
}

}  // namespace voxkit::bench::grass_gpu
