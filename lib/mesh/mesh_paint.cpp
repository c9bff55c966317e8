// Paint slots of a chunk and the per-byte classes the meshers weigh vertex paint with.
#include <algorithm>

#include "lib/mesh/mesh_internal.hpp"

namespace voxkit::mesh_detail {

namespace {

// Paint bytes that name a terrain layer the terrain has (any of 0..15 when layer_count is 0).
inline int usable_layer(uint8_t p, uint32_t layer_count) {
  int layer = paint_layer(p);
  if (layer < 0) return -1;
  if (layer_count != 0 && uint32_t(layer) >= layer_count) return -1;
  return layer;
}

PaintSlots slots_from_mask(uint32_t painted) {
  PaintSlots s;
  int k = 0;
  for (int layer = 0; layer < 16 && k < 4; ++layer)
    if (painted >> layer & 1u) s.layers[size_t(k++)] = uint8_t(layer);
  for (int layer = 0; layer < 16 && k < 4; ++layer)
    if (!(painted >> layer & 1u)) s.layers[size_t(k++)] = uint8_t(layer);
  return s;
}

uint32_t layer_mask(const uint8_t (&seen)[256], uint32_t layer_count) {
  uint32_t painted = 0;
  for (int p = 0; p < 256; ++p) {
    if (!seen[p]) continue;
    int layer = usable_layer(uint8_t(p), layer_count);
    if (layer >= 0) painted |= 1u << layer;
  }
  return painted;
}

}  // namespace

PaintClasses paint_classes(const PaintSlots& slots, uint32_t layer_count) {
  PaintClasses c;
  for (int p = 0; p < 256; ++p) {
    uint8_t cls = 5;
    if (p == kPaintDug) {
      cls = 4;
    } else {
      int layer = usable_layer(uint8_t(p), layer_count);
      for (int k = 0; k < 4 && layer >= 0; ++k)
        if (slots.layers[size_t(k)] == layer) cls = uint8_t(k);
    }
    c.of[p] = cls;
  }
  return c;
}

PaintSlots view_slots(const View& paint, uint32_t layer_count) {
  uint8_t seen[256] = {};
  for (int64_t z = paint.lo[2]; z <= paint.hi[2]; ++z)
    for (int64_t y = paint.lo[1]; y <= paint.hi[1]; ++y) {
      const uint8_t* row = paint.ptr(paint.lo[0], y, z);
      for (int64_t i = 0, w = paint.hi[0] - paint.lo[0] + 1; i < w; ++i) seen[row[i]] = 1;
    }
  return slots_from_mask(layer_mask(seen, layer_count));
}

PaintClasses prepare_paint(Task& t) {
  if (t.paint.empty()) return {};
  t.slots = view_slots(t.paint, t.layer_count);
  return paint_classes(t.slots, t.layer_count);
}

}  // namespace voxkit::mesh_detail

namespace voxkit {

PaintSlots paint_slots(std::span<const uint8_t> paint, uint32_t layer_count) {
  uint8_t seen[256] = {};
  for (uint8_t p : paint) seen[p] = 1;
  return mesh_detail::slots_from_mask(mesh_detail::layer_mask(seen, layer_count));
}

}  // namespace voxkit
