// The Vulkan host of bench/grass_gpu (grass_gpu_host.hpp): device selection with the lavapipe
// fallback, the instance, device, queue and pipeline of bench/grass_gpu.comp, host-visible
// buffers, and Gpu::run, one dispatch of the scatter and its readback. The shader's SPIR-V is
// compiled at build time and linked in (grass_gpu_spv.cpp in the build directory).
#include "bench/grass_gpu_host.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lib/grass/grass_type.hpp"
#include "lib/grass/scatter.hpp"
#include "lib/grass/surface.hpp"

extern const uint32_t voxkit_grass_gpu_spv[];
extern const size_t voxkit_grass_gpu_spv_words;

namespace voxkit::bench::grass_gpu {

using namespace voxkit::grass;

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kLavapipeIcd = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

// What the shader reads besides the grids: the std430 block `Params` of grass_gpu.comp.
struct Params {
  float origin_x, origin_y, origin_z, spacing;
  int32_t samples_x, samples_z, has_holes, layer_mode;
  float cell_size;
  int32_t side;
  float step, reach, align, density_scale;
  float min_weight, max_weight, min_scale, max_scale, max_slope;
  int32_t random_yaw, needs_weight;
  uint32_t cell_count;
  float zero;  // 0: an opaque zero for the shader (grass_gpu.comp, Z)
};
static_assert(sizeof(Params) == 23 * 4);

bool file_exists(const char* path) {
  if (FILE* f = std::fopen(path, "rb")) {
    std::fclose(f);
    return true;
  }
  return false;
}

}  // namespace

void vk_check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed (VkResult " + std::to_string(r) + ")");
}

Gpu::Gpu() {
  try {
    create();
  } catch (...) {
    destroy();
    throw;
  }
}

Gpu::~Gpu() { destroy(); }

void Gpu::create() {
  if (!try_create()) {
    // No device with float64 through the loader's default list: try lavapipe when the user has
    // not chosen the drivers.
    if (!std::getenv("VK_ICD_FILENAMES") && !std::getenv("VK_DRIVER_FILES") && file_exists(kLavapipeIcd)) {
      destroy();
      setenv("VK_ICD_FILENAMES", kLavapipeIcd, 0);
      std::printf("note: no usable device found; trying lavapipe (VK_ICD_FILENAMES=%s)\n", kLavapipeIcd);
      if (try_create()) return;
    }
    throw NoDevice(why_none_);
  }
}

double Gpu::run(const ScatterSetup& s, const SurfaceGrid& g, std::span<const CellKey> cells, uint32_t capacity,
                std::vector<GpuCellResult>& out) {
  if (cells.size() > max_groups_) throw std::runtime_error("too many cells for one dispatch");
  Params p{};
  p.origin_x = g.origin_x, p.origin_y = g.origin_y, p.origin_z = g.origin_z, p.spacing = g.spacing;
  p.samples_x = g.samples_x, p.samples_z = g.samples_z, p.has_holes = g.hole.empty() ? 0 : 1;
  p.layer_mode = s.layer >= 0 ? 0 : s.layer;
  p.cell_size = s.cell_size, p.side = s.side, p.step = s.step, p.reach = s.reach, p.align = s.align;
  p.density_scale = s.density_scale;
  p.min_weight = s.type.min_weight, p.max_weight = s.type.max_weight;
  p.min_scale = s.type.min_scale, p.max_scale = s.type.max_scale, p.max_slope = s.type.max_slope;
  p.random_yaw = s.type.random_yaw ? 1 : 0;
  p.needs_weight = needs_weight(s.type) ? 1 : 0;
  p.cell_count = static_cast<uint32_t>(cells.size());
  p.zero = 0.0f;

  std::vector<GpuCell> gcells(cells.size());
  for (size_t i = 0; i < cells.size(); ++i)
    gcells[i] = {cells[i].x, cells[i].z, static_cast<uint32_t>(i * capacity), capacity};
  std::vector<uint32_t> holes(g.hole.begin(), g.hole.end());
  const std::vector<float> no_weights;
  const std::vector<float>& weights = s.layer >= 0 ? g.weights[static_cast<size_t>(s.layer)] : no_weights;
  const size_t records = cells.size() * capacity;

  std::array<Buffer, 8> b{};
  try {
    b[0] = make_buffer(sizeof p, &p);
    b[1] = make_buffer(gcells.size() * sizeof(GpuCell), gcells.data());
    b[2] = make_buffer(g.height.size() * 4, g.height.data());
    b[3] = make_buffer(holes.size() * 4, holes.data());
    b[4] = make_buffer(weights.size() * 4, weights.data());
    b[5] = make_buffer(cells.size() * 16, nullptr);
    b[6] = make_buffer(records * sizeof(Blade), nullptr);
    b[7] = make_buffer(records * 4, nullptr);
    std::memset(b[5].map, 0, cells.size() * 16);

    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &set_layout_;
    VkDescriptorSet set;
    VK(vkAllocateDescriptorSets(device_, &ai, &set));
    std::array<VkDescriptorBufferInfo, 8> infos{};
    std::array<VkWriteDescriptorSet, 8> writes{};
    for (uint32_t i = 0; i < 8; ++i) {
      infos[i] = {b[i].buffer, 0, VK_WHOLE_SIZE};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = set;
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(device_, 8, writes.data(), 0, nullptr);

    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = command_pool_;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    VK(vkAllocateCommandBuffers(device_, &cai, &cmd));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK(vkBeginCommandBuffer(cmd, &bi));
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cmd, static_cast<uint32_t>(cells.size()), 1, 1);
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
    const auto t0 = Clock::now();
    VK(vkQueueSubmit(queue_, 1, &si, fence));
    VK(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX));
    // The readback: counts, then each cell's kept records and indices.
    std::vector<uint32_t> counts(cells.size() * 4);
    std::memcpy(counts.data(), b[5].map, counts.size() * 4);
    out.assign(cells.size(), GpuCellResult{});
    for (size_t c = 0; c < cells.size(); ++c) {
      GpuCellResult& r = out[c];
      for (int k = 0; k < 4; ++k) r.counts[k] = counts[c * 4 + k];
      const size_t kept = std::min<size_t>(r.counts[0], capacity);
      r.blades.resize(kept);
      r.indices.resize(kept);
      if (kept == 0) continue;
      std::memcpy(r.blades.data(), static_cast<const Blade*>(b[6].map) + c * capacity, kept * sizeof(Blade));
      std::memcpy(r.indices.data(), static_cast<const int32_t*>(b[7].map) + c * capacity, kept * 4);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    vkDestroyFence(device_, fence, nullptr);
    vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
    VK(vkResetDescriptorPool(device_, pool_, 0));
    for (auto& buf : b) free_buffer(buf);
    // Normalise the order: the workgroup's invocations append in whatever order they retire;
    // sort each cell's records by candidate index, the CPU's order.
    for (auto& r : out) {
      std::vector<size_t> order(r.indices.size());
      std::iota(order.begin(), order.end(), size_t{0});
      std::sort(order.begin(), order.end(), [&](size_t a, size_t c) { return r.indices[a] < r.indices[c]; });
      decltype(r.blades) blades(order.size());
      decltype(r.indices) indices(order.size());
      for (size_t i = 0; i < order.size(); ++i) blades[i] = r.blades[order[i]], indices[i] = r.indices[order[i]];
      r.blades.swap(blades);
      r.indices.swap(indices);
    }
    return seconds;
  } catch (...) {
    for (auto& buf : b) free_buffer(buf);
    throw;
  }
}

Gpu::Buffer Gpu::make_buffer(size_t size, const void* data, VkBufferUsageFlags usage) {
  size = std::max<size_t>(size, 16);
  Buffer b;
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = size;
  ci.usage = usage;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VK(vkCreateBuffer(device_, &ci, nullptr, &b.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, b.buffer, &req);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((req.memoryTypeBits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) {
      type = i;
      break;
    }
  if (type == UINT32_MAX) {
    vkDestroyBuffer(device_, b.buffer, nullptr);
    throw std::runtime_error("no host-visible coherent memory for a storage buffer");
  }
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = type;
  if (VkResult r = vkAllocateMemory(device_, &ai, nullptr, &b.memory); r != VK_SUCCESS) {
    vkDestroyBuffer(device_, b.buffer, nullptr);
    vk_check(r, "vkAllocateMemory");
  }
  VK(vkBindBufferMemory(device_, b.buffer, b.memory, 0));
  VK(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.map));
  if (data) std::memcpy(b.map, data, size);
  return b;
}

void Gpu::free_buffer(Buffer& b) {
  if (b.memory) vkFreeMemory(device_, b.memory, nullptr);  // unmaps
  if (b.buffer) vkDestroyBuffer(device_, b.buffer, nullptr);
  b = Buffer{};
}

bool Gpu::try_create() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "voxkit grass_gpu";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  if (VkResult r = vkCreateInstance(&ici, nullptr, &instance_); r != VK_SUCCESS) {
    instance_ = VK_NULL_HANDLE;
    why_none_ = "cannot create a Vulkan instance (VkResult " + std::to_string(r) + ")";
    return false;
  }
  uint32_t n = 0;
  vkEnumeratePhysicalDevices(instance_, &n, nullptr);
  std::vector<VkPhysicalDevice> devices(n);
  if (n) vkEnumeratePhysicalDevices(instance_, &n, devices.data());
  // Prefer a real GPU: discrete, integrated, virtual, then the CPU (lavapipe).
  auto rank = [](VkPhysicalDeviceType t) {
    switch (t) {
      case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
      case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
      case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
      case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
      default: return 4;
    }
  };
  int best_rank = 99;
  std::string without;
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(d, &props);
    VkPhysicalDeviceFeatures f;
    vkGetPhysicalDeviceFeatures(d, &f);
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &qn, nullptr);
    std::vector<VkQueueFamilyProperties> qs(qn);
    vkGetPhysicalDeviceQueueFamilyProperties(d, &qn, qs.data());
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < qn; ++i)
      if (qs[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        family = i;
        break;
      }
    // The shader needs 64-bit floats, SPIR-V 1.5 (Vulkan 1.2) and signed zeros preserved.
    std::string lacks;
    if (!f.shaderFloat64) lacks += "shaderFloat64";
    if (props.apiVersion < VK_API_VERSION_1_2) {
      lacks += std::string(lacks.empty() ? "" : ", ") + "Vulkan 1.2";
    } else {
      VkPhysicalDeviceFloatControlsProperties fc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
      VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
      p2.pNext = &fc;
      vkGetPhysicalDeviceProperties2(d, &p2);
      if (!fc.shaderSignedZeroInfNanPreserveFloat32 || !fc.shaderSignedZeroInfNanPreserveFloat64)
        lacks += std::string(lacks.empty() ? "" : ", ") + "shaderSignedZeroInfNanPreserveFloat32/64";
    }
    if (!lacks.empty()) {
      without += std::string(without.empty() ? "" : "; ") + props.deviceName + " lacks " + lacks;
      continue;
    }
    if (family == UINT32_MAX) continue;
    if (rank(props.deviceType) < best_rank) {
      best_rank = rank(props.deviceType);
      physical_ = d;
      family_ = family;
      name_ = props.deviceName;
      max_groups_ = props.limits.maxComputeWorkGroupCount[0];
      kind_ = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? "cpu" : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? "discrete gpu" : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? "integrated gpu" : "other";
      kind_ += ", Vulkan " + std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." +
               std::to_string(VK_API_VERSION_MINOR(props.apiVersion));
    }
  }
  if (!physical_) {
    why_none_ = devices.empty() ? "no Vulkan device" : "no Vulkan device has what the exact grass shader needs (shaderFloat64, Vulkan 1.2, signed zeros preserved in float32 and float64)";
    if (!without.empty()) why_none_ += ": " + without;
    return false;
  }
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderFloat64 = VK_TRUE;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.pEnabledFeatures = &enabled;
  VK(vkCreateDevice(physical_, &dci, nullptr, &device_));
  vkGetDeviceQueue(device_, family_, 0, &queue_);

  VkShaderModuleCreateInfo smi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smi.codeSize = voxkit_grass_gpu_spv_words * 4;
  smi.pCode = voxkit_grass_gpu_spv;
  VK(vkCreateShaderModule(device_, &smi, nullptr, &module_));

  std::array<VkDescriptorSetLayoutBinding, 8> bindings{};
  for (uint32_t i = 0; i < 8; ++i)
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dl.bindingCount = 8;
  dl.pBindings = bindings.data();
  VK(vkCreateDescriptorSetLayout(device_, &dl, nullptr, &set_layout_));
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &set_layout_;
  VK(vkCreatePipelineLayout(device_, &pl, nullptr, &pipeline_layout_));
  VkComputePipelineCreateInfo cpi{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpi.stage.module = module_;
  cpi.stage.pName = "main";
  cpi.layout = pipeline_layout_;
  VK(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpi, nullptr, &pipeline_));

  VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8};
  VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpi.maxSets = 1;
  dpi.poolSizeCount = 1;
  dpi.pPoolSizes = &ps;
  VK(vkCreateDescriptorPool(device_, &dpi, nullptr, &pool_));
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpci.queueFamilyIndex = family_;
  VK(vkCreateCommandPool(device_, &cpci, nullptr, &command_pool_));
  return true;
}

void Gpu::destroy() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    if (command_pool_) vkDestroyCommandPool(device_, command_pool_, nullptr);
    if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
    if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
    if (pipeline_layout_) vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
    if (set_layout_) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
    if (module_) vkDestroyShaderModule(device_, module_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
  instance_ = VK_NULL_HANDLE, physical_ = VK_NULL_HANDLE, device_ = VK_NULL_HANDLE;
  command_pool_ = VK_NULL_HANDLE, pool_ = VK_NULL_HANDLE, pipeline_ = VK_NULL_HANDLE;
  pipeline_layout_ = VK_NULL_HANDLE, set_layout_ = VK_NULL_HANDLE, module_ = VK_NULL_HANDLE;
}

}  // namespace voxkit::bench::grass_gpu
