// Foliage reports: counts, the difference from the bake, per-chunk counts, consistency.
#include <algorithm>
#include <string>

#include "lib/foliage/foliage.hpp"

namespace voxkit::foliage {

// --- Reports ---------------------------------------------------------------------------------

Counts counts(const ZoneFoliage& f, const Dims& d) {
  Counts c;
  const uint64_t cols = d.sx() * d.sz();
  if (f.mask.size() < 4 * cols) return c;
  for (uint64_t i = 0; i < cols; ++i) {
    const uint8_t* t = f.mask.data() + 4 * i;
    const uint8_t* b = f.baked_mask.data() + 4 * i;
    if (b[3] == 0) continue;
    ++c.columns_surface;
    if (t[3] == 0)
      ++c.columns_erased;
    else if (t[0] == kStanding)
      ++c.columns_standing;
    else
      ++c.columns_fallen;
  }
  for (const auto& t : f.trees) {
    if (t.state == TreeState::Standing) ++c.trees_standing;
    else if (t.state == TreeState::Fallen) ++c.trees_fallen;
    else ++c.trees_erased;
  }
  for (size_t k = 0; k < f.surface.size(); ++k) {
    const uint8_t* t = f.mask.data() + 4 * (cols + k);
    if (t[3] == 0) ++c.surface_erased;
    else if (t[0] == kStanding) ++c.surface_standing;
    else ++c.surface_fallen;
  }
  for (const auto& dt : f.details) {
    const uint8_t* t = f.mask.data() + 4 * uint64_t(dt.column);
    if (t[3] == 0) ++c.details_erased;
    else if (t[0] == kStanding) ++c.details_standing;
    else ++c.details_fallen;
  }
  return c;
}

bool Diff::empty() const {
  return trees_fell.empty() && trees_rose.empty() && columns_fell.empty() && columns_rose.empty() &&
         surface_fell.empty() && surface_rose.empty() && details_fell.empty() && details_rose.empty();
}

Diff diff(const ZoneFoliage& f, const Dims& d) {
  Diff out;
  const uint64_t cols = d.sx() * d.sz();
  auto on = [](const uint8_t* t) { return t[3] != 0 && t[0] == kStanding; };
  for (uint64_t i = 0; i < cols; ++i) {
    const bool was = on(f.baked_mask.data() + 4 * i), is = on(f.mask.data() + 4 * i);
    if (was && !is) out.columns_fell.push_back(uint32_t(i));
    if (!was && is) out.columns_rose.push_back(uint32_t(i));
  }
  for (const auto& t : f.trees) {
    const bool was = t.baked_state == TreeState::Standing, is = t.state == TreeState::Standing;
    if (was && !is) out.trees_fell.push_back(t.id);
    if (!was && is) out.trees_rose.push_back(t.id);
  }
  for (size_t k = 0; k < f.surface.size(); ++k) {
    const bool was = on(f.baked_mask.data() + 4 * (cols + k)), is = on(f.mask.data() + 4 * (cols + k));
    if (was && !is) out.surface_fell.push_back(f.surface[k].id);
    if (!was && is) out.surface_rose.push_back(f.surface[k].id);
  }
  for (const auto& dt : f.details) {
    const bool was = on(f.baked_mask.data() + 4 * uint64_t(dt.column)), is = on(f.mask.data() + 4 * uint64_t(dt.column));
    if (was && !is) out.details_fell.push_back(dt.id);
    if (!was && is) out.details_rose.push_back(dt.id);
  }
  for (auto* v : {&out.trees_fell, &out.trees_rose, &out.surface_fell, &out.surface_rose, &out.details_fell,
                  &out.details_rose})
    std::sort(v->begin(), v->end());
  return out;
}

ChunkCounts chunk_counts(const ZoneFoliage& f, const Dims& d, uint32_t cc) {
  const Chunks ch = chunks_of(d, cc);
  ChunkCounts c;
  c.trees.assign(ch.count(), 0);
  c.surface.assign(ch.count(), 0);
  c.columns.assign(ch.count(), 0);
  c.details.assign(ch.columns(), 0);
  for (uint64_t i = 0; i < ch.count() && f.tree_buckets.size() == ch.count() + 1; ++i)
    c.trees[i] = f.tree_buckets[i + 1] - f.tree_buckets[i];
  for (uint64_t i = 0; i < ch.count() && f.surface_buckets.size() == ch.count() + 1; ++i)
    c.surface[i] = f.surface_buckets[i + 1] - f.surface_buckets[i];
  for (uint64_t i = 0; i < ch.columns() && f.detail_buckets.size() == ch.columns() + 1; ++i)
    c.details[i] = f.detail_buckets[i + 1] - f.detail_buckets[i];
  const uint64_t w = d.sx();
  if (f.baked_mask.size() >= 4 * w * d.sz())
    for (uint64_t z = 0; z < d.sz(); ++z)
      for (uint64_t x = 0; x < w; ++x) {
        const uint8_t* t = f.baked_mask.data() + 4 * (x + w * z);
        if (t[3] == 0) continue;
        ++c.columns[column_chunk(d, ch, uint32_t(x), uint32_t(z), texel_anchor(t))];
      }
  return c;
}

std::string problem(const ZoneFoliage& f, const Dims& d, uint32_t cc) {
  if (f.empty()) return {};
  const Chunks ch = chunks_of(d, cc);
  if (f.mask_width != d.sx()) return "mask width " + std::to_string(f.mask_width) + " is not nx + 1 = " + std::to_string(d.sx());
  if (f.mask_height != mask_height(d, f.surface.size()))
    return "mask height " + std::to_string(f.mask_height) + " does not fit " + std::to_string(f.surface.size()) +
           " surface details (" + std::to_string(mask_height(d, f.surface.size())) + " rows)";
  const uint64_t texels = uint64_t(f.mask_width) * f.mask_height;
  if (f.mask.size() != 4 * texels || f.baked_mask.size() != 4 * texels) return "mask data does not match its size";
  auto check_buckets = [](const std::vector<uint32_t>& b, uint64_t keys, uint64_t items, const char* what) -> std::string {
    if (b.size() != keys + 1)
      return std::string(what) + " buckets: " + std::to_string(b.size()) + " offsets, expected " + std::to_string(keys + 1);
    if (b[0] != 0 || b[keys] != items) return std::string(what) + " buckets do not span the items";
    for (uint64_t i = 0; i < keys; ++i)
      if (b[i] > b[i + 1]) return std::string(what) + " buckets decrease at " + std::to_string(i);
    return {};
  };
  if (auto p = check_buckets(f.tree_buckets, ch.count(), f.trees.size(), "tree"); !p.empty()) return p;
  if (auto p = check_buckets(f.surface_buckets, ch.count(), f.surface.size(), "surface detail"); !p.empty()) return p;
  if (auto p = check_buckets(f.detail_buckets, ch.columns(), f.details.size(), "detail"); !p.empty()) return p;
  // Each item in the bucket of the chunk that checks it.
  for (uint64_t c = 0; c < ch.count(); ++c) {
    for (uint32_t k = f.tree_buckets[c]; k < f.tree_buckets[c + 1]; ++k)
      if (anchor_chunk(d, ch, f.trees[k].anchor) != c) return "tree " + std::to_string(k) + " is not in its anchor chunk's bucket";
    for (uint32_t k = f.surface_buckets[c]; k < f.surface_buckets[c + 1]; ++k)
      if (anchor_chunk(d, ch, f.surface[k].anchor) != c)
        return "surface detail " + std::to_string(k) + " is not in its anchor chunk's bucket";
  }
  const uint64_t cols = d.sx() * d.sz();
  for (uint64_t c = 0; c < ch.columns(); ++c)
    for (uint32_t k = f.detail_buckets[c]; k < f.detail_buckets[c + 1]; ++k) {
      const uint32_t col = f.details[k].column;
      if (col >= cols) return "detail " + std::to_string(k) + " names column " + std::to_string(col) + " past the grid";
      if (detail_chunk_column(ch, col % uint32_t(d.sx()), col / uint32_t(d.sx())) != c)
        return "detail " + std::to_string(k) + " is not in its chunk column's bucket";
    }
  for (const auto& s : f.surface)
    if (s.column >= cols) return "a surface detail names a column past the grid";
  if (!f.chunk_hash.empty() && f.chunk_hash.size() != ch.count()) return "chunk hash count does not match the chunks";
  return {};
}

}  // namespace voxkit::foliage
