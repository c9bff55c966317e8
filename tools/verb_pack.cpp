// voxkit pack|unpack: a grid (raw samples or an RLE stream) <-> a chunk blob container.
#include <memory>
#include <string>
#include <vector>

#include "formats/zone/chunk_blob.hpp"
#include "formats/core/io.hpp"
#include "formats/zone/zone_input.hpp"
#include "lib/codec/chunk_pack.hpp"
#include "lib/core/error.hpp"
#include "lib/core/grid.hpp"
#include "lib/codec/rle.hpp"
#include "tools/verbs.hpp"

namespace voxkit::cli {
namespace {

struct PackOptions {
  std::string input = "-";
  std::string output = "-";
  std::vector<uint32_t> cells;
  uint32_t chunk_cells = chunk_pack::kDefaultChunkCells;
  std::string input_format = "raw";
};

struct UnpackOptions {
  std::string input = "-";
  std::string output = "-";
  std::string output_format = "raw";
  std::vector<uint32_t> chunk;
};

// The grid samples of `path`: raw bytes (exactly cells.samples() of them) or an RLE stream
// whose sample count matches.
std::vector<uint8_t> read_grid(const std::string& path, const std::string& format, Dims cells) {
  const std::string name = io::display_name(path);
  if (cells.nx == 0) throw_usage("a raw grid or an RLE stream needs its cells", {{"cells", "NX,NY,NZ"}});
  const uint64_t samples = cells.samples();
  if (format == "raw") {
    auto raw = io::read_all(path, samples);
    if (raw.size() != samples) {
      Error e(ErrorKind::Data, "raw grid has the wrong size for its cells", raw.size(),
              std::to_string(samples) + " bytes", std::to_string(raw.size()) + " bytes");
      e.set_source(name);
      throw e;
    }
    return raw;
  }
  auto stream = io::read_all(path);
  return with_source(name, [&] {
    const uint64_t count = rle::read_count(stream);
    if (count != samples) {
      throw_data("RLE stream's sample count does not match the cells", 0, std::to_string(samples),
                 std::to_string(count));
    }
    return rle::decode(stream, samples);
  });
}

}  // namespace

void add_pack_commands(CLI::App& app, Context& ctx) {
  auto po = std::make_shared<PackOptions>();
  auto* pack = app.add_subcommand("pack", "Pack a grid into a chunk blob (per-chunk RLE streams + offsets)");
  pack->add_option("input", po->input,
                   "Grid: raw sample bytes, an RLE stream, or a zone (its current grid) ('-' = stdin)")
      ->capture_default_str();
  pack->add_option("-o,--output", po->output, "Chunk blob container ('-' = stdout)")->capture_default_str();
  pack->add_option("--cells", po->cells,
                   "Grid cells NX,NY,NZ (samples are (NX+1)(NY+1)(NZ+1)); not for a zone, which has its own")
      ->delimiter(',')
      ->expected(3)
      ->check(CLI::Range(1u, 0x7fffffffu));
  auto* chunk_opt = pack->add_option("--chunk-cells", po->chunk_cells, "Cells per chunk edge (a zone: its own)")
      ->capture_default_str()
      ->check(CLI::Range(1u, chunk_pack::kMaxChunkCells));
  pack->add_option("--from", po->input_format, "Input: raw sample bytes or an RLE stream")
      ->capture_default_str()
      ->check(CLI::IsMember({"raw", "rle"}));
  pack->callback([&ctx, po, chunk_opt] {
    io::check_output(po->output, ctx.out());
    Dims cells = po->cells.empty() ? Dims{} : Dims{po->cells[0], po->cells[1], po->cells[2]};
    uint32_t chunk_cells = po->chunk_cells;
    std::vector<uint8_t> grid;
    // A zone (file or dig-zone asset) is packed as its current grid, with its own chunk size.
    if (po->input != "-" && po->cells.empty()) {
      std::vector<uint8_t> bytes = io::read_all(po->input);
      auto z = read_zone_if_any(bytes, io::display_name(po->input));
      if (!z) throw_usage("a raw grid or an RLE stream needs its cells", {{"cells", "NX,NY,NZ"}});
      cells = z->grid.cells;
      if (!chunk_opt->count()) chunk_cells = z->meta.chunk_cells;
      grid = std::move(z->grid.data);
    } else {
      if (!po->cells.empty()) chunk_pack::make_layout(cells, chunk_cells);  // refuses grids too large, before reading
      grid = read_grid(po->input, po->input_format, cells);
    }
    const auto layout = chunk_pack::make_layout(cells, chunk_cells);
    const auto packed = chunk_pack::pack(layout, grid, ctx.progress("pack"));
    const auto file = chunk_blob::write(layout, packed);
    io::write_file(po->output, file, ctx.out());
    uint64_t uniform = 0;
    for (int32_t o : packed.offsets) uniform += o < 0;
    ctx.info("pack: " + std::to_string(grid.size()) + " samples, " +
             std::to_string(layout.chunk_count()) + " chunks (" + std::to_string(uniform) +
             " uniform) -> " + std::to_string(file.size()) + " bytes");
  });

  auto uo = std::make_shared<UnpackOptions>();
  auto* unpack = app.add_subcommand("unpack", "Unpack a chunk blob into a grid, or one chunk's samples");
  unpack->add_option("input", uo->input, "Chunk blob container, or a zone (its current grid) ('-' = stdin)")
      ->capture_default_str();
  unpack->add_option("-o,--output", uo->output, "Grid samples ('-' = stdout)")->capture_default_str();
  unpack->add_option("--to", uo->output_format, "Output: raw sample bytes or an RLE stream")
      ->capture_default_str()
      ->check(CLI::IsMember({"raw", "rle"}));
  unpack->add_option("--chunk", uo->chunk,
                     "Only chunk CX,CY,CZ: its samples plus one of border on each side, x fastest")
      ->delimiter(',')
      ->expected(3);
  unpack->callback([&ctx, uo] {
    io::check_output(uo->output, ctx.out());
    const auto file = io::read_all(uo->input);
    const std::string name = io::display_name(uo->input);
    // A zone stands for the chunk blob of its current grid.
    std::vector<uint8_t> zone_blob;
    if (auto z = read_zone_if_any(file, name)) {
      const auto layout = chunk_pack::make_layout(z->grid.cells, z->meta.chunk_cells);
      zone_blob = chunk_blob::write(layout, chunk_pack::pack(layout, z->grid.data));
    }
    const auto view =
        with_source(name, [&] { return chunk_blob::read(zone_blob.empty() ? std::span<const uint8_t>(file) : zone_blob); });
    std::vector<uint8_t> samples;
    std::string what = "grid";
    if (!uo->chunk.empty()) {
      const auto& n = view.layout.chunks;
      for (int a = 0; a < 3; ++a) {
        if (uo->chunk[a] >= n[a]) {
          throw_usage("chunk " + std::to_string(uo->chunk[0]) + "," + std::to_string(uo->chunk[1]) +
                      "," + std::to_string(uo->chunk[2]) + " is outside the " + std::to_string(n[0]) +
                      " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]) + " chunks of " + name);
        }
      }
      const uint64_t ci = view.layout.chunk_index(uo->chunk[0], uo->chunk[1], uo->chunk[2]);
      samples = with_source(name, [&] { return chunk_blob::unpack_chunk(view, ci); });
      const auto box = view.layout.chunk_box(ci);
      what = "chunk " + std::to_string(ci) + " (" + std::to_string(box.size(0)) + " x " +
             std::to_string(box.size(1)) + " x " + std::to_string(box.size(2)) + " samples from " +
             std::to_string(box.lo[0]) + "," + std::to_string(box.lo[1]) + "," +
             std::to_string(box.lo[2]) + ")";
    } else {
      samples = with_source(name, [&] { return chunk_blob::unpack(view, ctx.progress("unpack")); });
    }
    if (uo->output_format == "rle") {
      io::write_file(uo->output, rle::encode(samples), ctx.out());
    } else {
      io::write_file(uo->output, samples, ctx.out());
    }
    ctx.info("unpack: " + what + ", " + std::to_string(samples.size()) + " samples");
  });
}

}  // namespace voxkit::cli
