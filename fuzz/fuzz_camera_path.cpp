// Fuzz target: camera paths of `voxkit grass residency`. A path that reads must read back the
// same from its written form; its first steps then run through a small residency ring (the
// first byte picks the capacity and cell size), whose slots must stay a partition, with a
// cell the view stands in always resident.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>

#include "formats/grass/camera_path.hpp"
#include "lib/core/error.hpp"
#include "lib/grass/residency.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  using namespace voxkit::grass;
  CameraPath path;
  try {
    path = read_camera_path(text);
  } catch (const voxkit::Error&) {
    return 0;
  }
  const CameraPath back = read_camera_path(write_camera_path(path.steps));
  if (back.steps.size() != path.steps.size()) std::abort();
  for (size_t i = 0; i < path.steps.size(); ++i) {
    const CameraStep &a = path.steps[i], &b = back.steps[i];
    if (a.clear != b.clear || a.x != b.x || a.y != b.y || a.z != b.z || a.range != b.range) std::abort();
    if (a.range && !(*a.range >= 0)) std::abort();
  }
  Residency ring(float(1 + data[0] % 48), 1 + data[0] % 13);
  for (size_t i = 0; i < path.steps.size() && i < 64; ++i) {
    const CameraStep& s = path.steps[i];
    if (s.clear) {
      ring.clear();
      if (ring.count() != 0 || ring.free_slots() != size_t(ring.capacity())) std::abort();
      continue;
    }
    try {
      ring.update(s.x, s.z, std::min(s.range.value_or(64.0f), 100.0f));
    } catch (const voxkit::Error&) {
      continue;  // a view outside the grid's cells
    }
    std::set<int32_t> slots;
    for (const CellSlot& c : ring.resident())
      if (c.slot < 0 || c.slot >= ring.capacity() || !slots.insert(c.slot).second) std::abort();
    if (ring.count() + ring.free_slots() != size_t(ring.capacity())) std::abort();
    // A cell the view stands in is resident (on a shared edge or corner, the first of them in
    // row-major order may be the one). Far from the origin the float32 cell rectangles have
    // gaps between them, as in the engine: checked within a million metres.
    const bool near = std::abs(s.x) < 1048576.0f && std::abs(s.z) < 1048576.0f;
    if (near && !ring.slot_of(ring.grid().cell_of(s.x, s.z))) {
      bool standing = false;
      for (const CellSlot& c : ring.resident()) standing = standing || ring.distance_to(c.cell, s.x, s.z) == 0.0f;
      if (!standing) std::abort();
    }
  }
  return 0;
}
