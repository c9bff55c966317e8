// The Vulkan host of bench/grass_gpu: the class Gpu picks a device with what the exact grass
// shader needs (float64, Vulkan 1.2, signed zeros preserved), owns the instance, device, queue and
// the compute pipeline of bench/grass_gpu.comp, and runs scatters on it. Its run() and device
// set-up are in grass_gpu_host.cpp; run_engine(), the engine's own GrassScatter.comp.spv for
// --peer, is in grass_gpu_peer_host.cpp. bench/grass_gpu.cpp (the terrain, --check, the bench,
// --peer, main) uses it.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lib/grass/scatter.hpp"
#include "lib/grass/surface.hpp"

namespace voxkit::bench::grass_gpu {

// Throws std::runtime_error naming `what` when r is not VK_SUCCESS; VK(call) names the call.
void vk_check(VkResult r, const char* what);
#define VK(call) vk_check((call), #call)

// One cell as both shaders read it: its key and where its records go in the record buffer.
struct GpuCell {
  int32_t x, z;
  uint32_t first, capacity;
};

// One cell as the GPU answered: counts by verdict, the kept records and their candidate indices,
// sorted by candidate index (the order the CPU writes them in).
struct GpuCellResult {
  std::array<uint32_t, 4> counts{};
  std::vector<grass::Blade> blades;
  std::vector<int32_t> indices;
};

class Gpu {
 public:
  struct NoDevice : std::runtime_error {
    using std::runtime_error::runtime_error;
  };

  // Throws NoDevice when no device (nor lavapipe, as a fallback) has what the shader needs.
  Gpu();
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  const std::string& name() const { return name_; }
  const std::string& kind() const { return kind_; }

  // Scatters `cells` with capacity per cell; fills `out` (one per cell) and returns the seconds
  // from submit to the end of the readback.
  double run(const grass::ScatterSetup& s, const grass::SurfaceGrid& g, std::span<const grass::CellKey> cells,
             uint32_t capacity, std::vector<GpuCellResult>& out);

  // Runs the engine's scatter permutation (RandomYaw, LayerBound) on a square single-tile grid
  // with no holes: heights and the type's layer as R32F textures sampled bilinearly, one texel per
  // sample, height range (0, 1) so a texel is the height itself. Answers the counts and records
  // per cell (records in the order the invocations appended them). grass_gpu_peer_host.cpp.
  void run_engine(const std::vector<uint32_t>& spirv, const grass::ScatterSetup& s, const grass::SurfaceGrid& g,
                  std::span<const grass::CellKey> cells, uint32_t capacity, std::vector<GpuCellResult>& out);

 private:
  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* map = nullptr;
  };

  void create();
  bool try_create();
  void destroy();
  // A host-visible, coherent, mapped buffer of at least 16 bytes, filled from `data` when given.
  Buffer make_buffer(size_t size, const void* data, VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  void free_buffer(Buffer& b);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  uint32_t max_groups_ = 65535;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  std::string name_, kind_, why_none_;
};

}  // namespace voxkit::bench::grass_gpu
