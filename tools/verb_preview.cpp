// voxkit preview: PNG pictures of a zone (hillshaded top view, SDF slice, chunk occupancy).
#include <algorithm>
#include <memory>

#include "formats/core/io.hpp"
#include "formats/image/png.hpp"
#include "formats/zone/zone_file.hpp"
#include "lib/core/error.hpp"
#include "lib/bake/preview.hpp"
#include "lib/bake/preview_text.hpp"
#include "lib/foliage/foliage_preview.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct PreviewOptions {
  std::string zone, output, view, slice;
  uint32_t min_size = 512;
};

}  // namespace

void add_preview_command(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("preview", "Write a PNG picture of a zone: top view, slice, chunks or foliage");
  auto opt = std::make_shared<PreviewOptions>();
  cmd->add_option("zone", opt->zone, "Zone file (.vxz, '-' = stdin)")->required();
  cmd->add_option("-o,--output", opt->output, "PNG to write ('-' = stdout)")->default_val("-");
  cmd->add_option("--view", opt->view,
                  "top, slice, chunks or foliage (the foliage mask, trees and surface details, with a legend; "
                  "default top, slice when --slice is given)")
      ->check(CLI::IsMember({"top", "slice", "chunks", "foliage"}));
  cmd->add_option("--slice", opt->slice, "Vertical slice: x=N or z=N (default z through the middle)");
  cmd->add_option("--min-size", opt->min_size, "Enlarge small pictures to at least this many pixels across (the margin not counted)")
      ->capture_default_str()->check(CLI::Range(1, 8192));
  cmd->callback([&ctx, opt] {
    std::string view = opt->view.empty() ? (opt->slice.empty() ? "top" : "slice") : opt->view;
    char axis = 'z';
    long index = -1;
    if (!opt->slice.empty()) {
      if (view != "slice") throw_usage("--slice goes with --view slice");
      const std::string& s = opt->slice;
      size_t used = 0;
      if (s.size() < 3 || (s[0] != 'x' && s[0] != 'z') || s[1] != '=') {
        throw_usage("--slice must be x=N or z=N, got '" + s + "'");
      }
      try {
        index = std::stol(s.substr(2), &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != s.size() - 2 || index < 0) throw_usage("--slice must be x=N or z=N with N >= 0, got '" + s + "'");
      axis = s[0];
    }
    io::check_output(opt->output, ctx.out());
    Zone zone = read_zone_file(opt->zone);
    View v;
    if (view == "top") {
      // Columns standing on filled NoData (the zone's FILL section) are drawn hatched.
      v = view_top(zone, zone.filled.values.empty() ? nullptr : &zone.filled.values);
    } else if (view == "chunks") {
      v = view_chunks(zone);
    } else if (view == "foliage") {
      v = foliage::preview(zone);
    } else {
      if (index < 0) index = long(zone.meta.cells.nz / 2);
      v = view_slice(zone, axis, uint32_t(index));
    }
    const uint32_t longest = std::max(v.img.width, v.img.height);
    if (longest < opt->min_size) enlarge(v, (opt->min_size + longest - 1) / longest);
    const std::string name = io::display_name(opt->zone);
    v.frame.title = name.substr(name.find_last_of('/') + 1) + " - " + v.frame.title;
    const Framed out = frame_picture(v.img, v.frame);
    io::write_file(opt->output, png::encode(out.img), ctx.out());
    ctx.info("preview: " + view + " view of " + name + " -> " + io::display_name(opt->output) + " (" +
             std::to_string(out.img.width) + "x" + std::to_string(out.img.height) + ", picture " +
             std::to_string(v.img.width) + "x" + std::to_string(v.img.height) + " at " + std::to_string(out.x) +
             "," + std::to_string(out.y) + ")");
  });
}

}  // namespace voxkit::cli
