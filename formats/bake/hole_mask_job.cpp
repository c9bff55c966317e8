// voxkit zone hole-mask: the terrain hole cut of a zone, as a mask and in the zone.
#include "formats/bake/hole_mask_job.hpp"

#include <algorithm>
#include <cstdio>

#include "formats/image/png.hpp"
#include "formats/image/splat.hpp"
#include "formats/zone/unity_asset.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"

namespace voxkit::hole_mask {
namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::char_traits<char>::length(suffix);
  if (s.size() < n) return false;
  for (size_t i = 0; i < n; ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - n + i])) != suffix[i]) return false;
  return true;
}

bool is_image_name(const std::string& p) {
  for (const char* e : {".png", ".tga", ".bmp", ".jpg", ".jpeg", ".tif", ".tiff"})
    if (ends_with(p, e)) return true;
  return false;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

}  // namespace

std::vector<uint8_t> read_holes(const std::string& path, uint32_t res) {
  const uint64_t n = uint64_t(res) * res;
  if (is_image_name(path)) {
    SplatImage img = splat::read(path);
    if (img.width != res || img.height != res)
      throw_data("the terrain's hole image is " + std::to_string(img.width) + "x" + std::to_string(img.height) +
                     ", not the holes resolution " + std::to_string(res) + "x" + std::to_string(res),
                 std::nullopt, std::to_string(res) + "x" + std::to_string(res),
                 std::to_string(img.width) + "x" + std::to_string(img.height));
    std::vector<uint8_t> out(n);
    for (uint64_t z = 0; z < res; ++z)
      for (uint64_t x = 0; x < res; ++x) out[x + res * z] = img.rgba[4 * (x + res * (res - 1 - z))] ? 1 : 0;
    return out;
  }
  std::vector<uint8_t> bytes = io::read_all(path, n + 1);
  if (bytes.size() != n)
    throw_data(io::display_name(path) + ": a raw hole raster of " + std::to_string(res) + "x" + std::to_string(res) +
                   " holds " + std::to_string(n) + " bytes",
               std::min<uint64_t>(bytes.size(), n), std::to_string(n) + " bytes",
               bytes.size() > n ? "more" : std::to_string(bytes.size()) + " bytes");
  for (auto& b : bytes) b = b ? 1 : 0;
  return bytes;
}

std::vector<uint8_t> mask_bytes(const std::vector<uint8_t>& raster, uint32_t res, const std::string& path) {
  std::vector<uint8_t> out(raster.size());
  if (ends_with(path, ".png")) {
    for (uint64_t z = 0; z < res; ++z)
      for (uint64_t x = 0; x < res; ++x) out[x + res * (res - 1 - z)] = raster[x + res * z] ? 255 : 0;
    return png::encode_gray(res, res, out);
  }
  for (size_t k = 0; k < raster.size(); ++k) out[k] = raster[k] ? 255 : 0;
  return out;
}

Report run(const Job& job) {
  Report rep;
  rep.zone = io::display_name(job.zone);
  io::OutputOptions side = job.out;
  side.in_place = false;
  if (job.mask_out.empty() && job.zone_out.empty())
    throw_usage("the hole mask job writes a mask, a zone or both: name one", {{"output", "a mask"}, {"zone-out", "a zone"}});
  if (!job.mask_out.empty()) io::check_output(job.mask_out, side);
  if (!job.zone_out.empty()) io::check_output(job.zone_out, side);
  if (job.zone == "-" && job.holes == "-") throw_usage("only one input can be read from stdin");

  std::vector<uint8_t> bytes = io::read_all(job.zone, job.max_input);
  Zone z = with_source(rep.zone, [&] {
    if (is_zone_file(bytes)) return read_zone(bytes);
    std::string text(bytes.begin(), bytes.end());
    return unity::import_asset(text, rep.zone);
  });
  bytes = {};

  // The terrain: given, else as recorded with the cut, else the foliage's placement.
  TerrainHoles t;
  std::vector<uint8_t> holes;  // the terrain's holes before the cut, when given
  const ZoneHoleCut& old = z.hole_cut;
  const bool old_placed = !old.empty() && old.resolution > 0;
  const bool given = job.terrain_position || job.terrain_size || job.resolution || !job.holes.empty();
  if (!given && old.empty())
    throw_usage("the zone records no terrain hole cut: give the terrain's position, size and holes resolution",
                {{"terrain-pos", "position"}, {"terrain-size", "size"}, {"hole-resolution", "holes resolution"}});
  if (given) {
    t.resolution = job.resolution.value_or(old_placed ? old.resolution : 0);
    if (job.terrain_position) t.position = *job.terrain_position;
    else if (old_placed) t.position = old.terrain_position;
    else if (z.foliage.has_terrain) t.position = z.foliage.terrain_position;
    else throw_usage("the terrain's position is unknown: give it", {{"terrain-pos", "it"}});
    if (job.terrain_size) t.size = *job.terrain_size;
    else if (old_placed) t.size = old.terrain_size;
    else if (z.foliage.has_terrain) t.size = z.foliage.terrain_size;
    else throw_usage("the terrain's size is unknown: give it", {{"terrain-size", "it"}});
    if (t.resolution == 0) throw_usage("the terrain's holes resolution is unknown: give it", {{"hole-resolution", "it"}});
    const HoleCutRect rect = hole_cut_rect(z.meta, t, job.mode);
    if (!job.holes.empty()) holes = with_source(io::display_name(job.holes), [&] { return read_holes(job.holes, t.resolution); });
    z.hole_cut = cut_terrain(rect, t, job.holes.empty() ? nullptr : &holes);
    rep.world = rect.world;
    rep.recomputed = true;
    const HoleRect& h = z.meta.hole;
    if (float(h.min_x) != float(rect.world.min_x) || float(h.min_z) != float(rect.world.min_z) ||
        float(h.max_x) != float(rect.world.max_x) || float(h.max_z) != float(rect.world.max_z))
      rep.warnings.push_back("the zone's hole rect (x " + num(h.min_x) + ".." + num(h.max_x) + ", z " + num(h.min_z) +
                             ".." + num(h.max_z) + ") is not the one the terrain's hole cells give (x " +
                             num(rect.world.min_x) + ".." + num(rect.world.max_x) + ", z " + num(rect.world.min_z) +
                             ".." + num(rect.world.max_z) + "); its edit box and meshes follow the zone's");
  } else {
    const HoleCutRect r{old.x, old.z, old.width, old.depth, {}};
    if (old.resolution) {
      const double hx = old.terrain_size[0] / old.resolution, hz = old.terrain_size[2] / old.resolution;
      rep.world = {old.terrain_position[0] + r.x * hx, old.terrain_position[2] + r.z * hz,
                   old.terrain_position[0] + (r.x + r.width) * hx, old.terrain_position[2] + (r.z + r.depth) * hz};
    }
  }
  for (uint8_t v : z.hole_cut.previous) (v ? rep.cells_cut : rep.cells_already_holes) += 1;

  io::OutputSet outs;
  if (!job.mask_out.empty()) {
    // Terrain values: the holes given (or all surface) outside the cut, holes inside.
    const std::vector<uint8_t> raster =
        hole_raster(z.hole_cut, holes.empty() ? nullptr : &holes, job.values == MaskValues::Cut);
    outs.add(job.mask_out, side).write(mask_bytes(raster, z.hole_cut.resolution, job.mask_out));
    rep.mask_output = job.mask_out;
  }
  if (!job.zone_out.empty()) {
    check_zone(z);
    outs.add(job.zone_out, side).write(write_zone(z));
    rep.zone_output = job.zone_out;
  }
  outs.commit();
  rep.cut = z.hole_cut;
  rep.cut.previous.clear();
  return rep;
}

nlohmann::json Report::to_json() const {
  auto opt = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
  return {{"zone", zone},
          {"mask_output", opt(mask_output)},
          {"zone_output", opt(zone_output)},
          {"computed", recomputed},
          {"resolution", cut.resolution ? nlohmann::json(cut.resolution) : nlohmann::json(nullptr)},
          {"cut_rect", {{"x", cut.x}, {"z", cut.z}, {"width", cut.width}, {"depth", cut.depth}}},
          {"hole_rect", {{"min_x", world.min_x}, {"min_z", world.min_z}, {"max_x", world.max_x}, {"max_z", world.max_z}}},
          {"cells_cut", cells_cut},
          {"cells_already_holes", cells_already_holes},
          {"warnings", warnings}};
}

std::string Report::to_text() const {
  std::string s = "hole cut: " + std::to_string(cut.width) + " x " + std::to_string(cut.depth) + " cells from (" +
                  std::to_string(cut.x) + ", " + std::to_string(cut.z) + ")";
  if (cut.resolution) s += " of " + std::to_string(cut.resolution) + " x " + std::to_string(cut.resolution);
  s += "; " + std::to_string(cells_cut) + " cut, " + std::to_string(cells_already_holes) + " already holes\n";
  s += "hole rect: x " + num(world.min_x) + " .. " + num(world.max_x) + ", z " + num(world.min_z) + " .. " +
       num(world.max_z) + " m\n";
  if (!mask_output.empty()) s += "mask -> " + mask_output + "\n";
  if (!zone_output.empty()) s += "zone -> " + zone_output + "\n";
  return s;
}

}  // namespace voxkit::hole_mask
