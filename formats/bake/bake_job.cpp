// The bake and rebake jobs: heightmap -> zone file, and a zone re-baked from a new heightmap.
#include "formats/bake/bake_job.hpp"

#include "formats/image/splat.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"

namespace voxkit::bake_job {

Heightfield load_terrain(const Terrain& t, heightmap::Info& info) {
  Heightfield hf = heightmap::read(t.heightmap, t.placement, &info);
  with_source(io::display_name(t.heightmap), [&] {
    check_heightfield(hf);
    fill_nodata(hf, t.nodata_fill);
  });
  return hf;
}

void place_splat(const Terrain& t, Zone& zone, const Heightfield& hf, const GridFrame* frame) {
  if (t.splat.empty()) return;
  if (t.splat.size() > 4) {
    throw_usage("at most four splat control images, got " + std::to_string(t.splat.size()));
  }
  std::vector<SplatImage> images;
  for (const auto& path : t.splat) images.push_back(splat::read(path));
  std::vector<std::string> names = t.layer_names;
  if (names.empty()) {
    for (size_t k = 0; k < 4 * images.size(); ++k) names.push_back("layer" + std::to_string(k));
  }
  if (names.size() > 4 * images.size()) {
    throw_usage(std::to_string(names.size()) + " layer names but " + std::to_string(images.size()) +
                " control image(s) hold at most " + std::to_string(4 * images.size()));
  }
  // A georeferenced raster's images cover its pixel edges; Unity placement its sample span.
  double x0 = hf.source_min_x(), z0 = hf.source_min_z(), x1 = hf.source_max_x(), z1 = hf.source_max_z();
  if (!t.placement.terrain_size) {
    x0 -= hf.dx / 2;
    x1 += hf.dx / 2;
    z0 -= hf.dz / 2;
    z1 += hf.dz / 2;
  }
  zone.splat = resample_splat(images, uint32_t(names.size()), zone.meta, x0, z0, x1, z1, frame);
  zone.meta.layer_names = names;
}

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
  return s;
}

}  // namespace

BakeResult run_bake(const BakeJob& job, const Progress& progress) {
  io::check_output(job.output, job.out);
  BakeResult r;
  Heightfield hf = load_terrain(job.terrain, r.info);
  r.name = io::display_name(job.terrain.heightmap);
  r.zone = with_source(r.name, [&] { return bake_zone(hf, job.spec, progress); });
  place_splat(job.terrain, r.zone, hf);
  r.zone.meta.source = "voxkit bake " + r.name + " (" + r.info.describe() + ")";
  if (!job.terrain.splat.empty()) {
    r.zone.meta.source += ", splat " + (job.terrain.splat_text.empty() ? joined(job.terrain.splat) : job.terrain.splat_text);
  }
  const std::vector<uint8_t> bytes = write_zone(r.zone);
  io::write_file(job.output, bytes, job.out);
  if (job.summarize) r.summary = summarize_zone(r.zone, bytes);
  return r;
}

nlohmann::json report_json(const BakeResult& r, const std::string& output) {
  return {{"output", output}, {"heightmap", r.name}, {"zone", zone_summary_json(r.summary.value())}};
}

RebakeResult run_rebake(const RebakeJob& job, const Progress& progress) {
  io::check_output(job.output, job.out);
  Zone zone = read_zone_file(job.zone);
  heightmap::Info info;
  Heightfield hf = load_terrain(job.terrain, info);
  const std::string name = io::display_name(job.terrain.heightmap);
  RebakeResult r;
  r.stats = with_source(name, [&] { return rebake_zone(zone, hf, job.headroom, job.max_samples, progress); });
  place_splat(job.terrain, zone, hf);
  // The column anchors follow the terrain: a rebake drops the foliage, to be baked again.
  r.foliage_dropped = !zone.foliage.empty();
  zone.foliage = {};
  zone.meta.source += "; voxkit rebake " + name + " (" + info.describe() + ")";
  r.backup = write_zone_file(job.output, zone, job.out);
  return r;
}

}  // namespace voxkit::bake_job
