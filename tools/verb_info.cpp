// voxkit info: identifies a file and describes it, as text or JSON.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "formats/core/identify.hpp"
#include "formats/core/io.hpp"
#include "formats/zone/zone_input.hpp"
#include "formats/zone/region_grid_info.hpp"
#include "formats/zone/rle_stream.hpp"
#include "lib/core/error.hpp"
#include "lib/core/grid.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct InfoOptions {
  std::string input = "-";
  bool json = false;
  std::vector<uint32_t> cells;
};

}  // namespace

void add_info_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<InfoOptions>();
  auto* info = app.add_subcommand("info", "Identify a file and describe it");
  info->add_option("input", opt->input, "Any file voxkit reads ('-' = stdin)")->capture_default_str();
  info->add_flag("--json", opt->json, "Print one JSON object (shape in docs/info-json.md)");
  info->add_option("--cells", opt->cells,
                   "Grid cells NX,NY,NZ: adds solid/air/surface counts to an RLE stream, and "
                   "describes a raw grid or a cave-region grid of that size")
      ->delimiter(',')
      ->expected(3)
      ->check(CLI::Range(1u, 0x7fffffffu));
  info->callback([&ctx, opt] {
    const auto bytes = io::read_all(opt->input);
    const std::string name = io::display_name(opt->input);
    std::optional<Dims> cells;
    if (!opt->cells.empty()) {
      cells = Dims{opt->cells[0], opt->cells[1], opt->cells[2]};
      check_dims(*cells);
    }
    // With --cells, raw bytes of exactly that grid are a raw grid (before the loose
    // describers: a raw grid can look like a Unity .raw heightmap or an RLE stream).
    std::optional<identify::Description> d;
    if (cells && bytes.size() == cells->samples() && !looks_like_zone(bytes))
      d = rle_stream::describe_raw_grid(bytes, *cells);
    // Two bytes a sample: a cave-region grid (no magic either).
    if (!d && cells && bytes.size() == 2 * cells->samples() && !looks_like_zone(bytes))
      d = with_source(name, [&] { return describe_region_grid(bytes, *cells); });
    if (!d) d = with_source(name, [&] { return identify::identify(bytes, name); });
    if (!d && cells) d = rle_stream::describe_raw_grid(bytes, *cells);
    if (!d) {
      const std::string what =
          bytes.empty() ? std::string("empty file: nothing to identify")
                        : "unknown format: not any of " + identify::known_formats() +
                              (cells ? ", nor a raw or region grid of these cells"
                                     : " (a raw or region grid needs --cells)");
      Error e(ErrorKind::Data, what);
      e.set_source(name);
      throw e;
    }
    if (cells && d->format == "rle") {
      with_source(name, [&] { rle_stream::add_grid_stats(*d, bytes, *cells); });
    } else if (cells && d->format != "raw-grid" && d->format != "region-grid") {
      ctx.warn("--cells applies to RLE streams, raw grids and region grids; ignored for " + d->format);
    }
    const std::string out = opt->json ? identify::to_json(*d, name, bytes.size()).dump(2) + "\n"
                                      : identify::to_text(*d, name);
    std::fwrite(out.data(), 1, out.size(), stdout);
  });
}

}  // namespace voxkit::cli
