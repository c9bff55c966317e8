// --batch for the codec verbs: flags, the failure list and the report around batch::run.
#include "tools/batch_cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "formats/core/io.hpp"
#include "lib/codec/base64.hpp"
#include "lib/core/error.hpp"

namespace voxkit::cli {

void add_batch_flags(CLI::App* cmd, BatchFlags& flags, const std::string& what) {
  cmd->add_flag("--batch", flags.batch, what);
  cmd->add_flag("--keep-going", flags.keep_going,
                "With --batch: a failed item is listed and leaves an empty record in its place; "
                "the rest is written; exit 1 at the end")
      ->needs("--batch");
  cmd->add_flag("--json", flags.json, "With --batch: report the items and failures as JSON")
      ->needs("--batch");
}

ItemBytes item_bytes_b64(const batch::Item& it) {
  ItemBytes b;
  if (it.line) {
    b.owned = base64::decode(it.bytes);
    b.decoded = true;
  } else {
    b.view = it.bytes;
  }
  return b;
}

void run_batch(const Context& ctx, const BatchFlags& flags, const BatchJob& job) {
  const bool binary = job.form == batch::Output::Container;
  io::check_output(job.output, ctx.out(binary));
  const auto input = io::read_all(job.input);
  const std::string source = io::display_name(job.input);
  const auto items = with_source(source, [&] {
    return job.split ? job.split(input) : batch::split_items(input);
  });
  batch::Options opts;
  opts.output = job.form;
  opts.keep_going = flags.keep_going;
  opts.source = source;
  batch::Result r;
  try {
    r = batch::run(items, job.fn, opts);
  } catch (Error& e) {
    name_options(e);
    throw;
  }
  io::write_file(job.output, r.output, ctx.out(binary));
  // Failed items are errors: listed even with -q.
  for (const auto& f : r.failures) {
    Error e = f.full;
    name_options(e);
    std::fprintf(stderr, "voxkit: %s\n", e.what());
  }
  const uint64_t ok = r.items - r.failures.size();
  if (flags.json) {
    nlohmann::ordered_json j;
    j["items"] = r.items;
    j["ok"] = ok;
    j["failed"] = r.failures.size();
    j["failures"] = nlohmann::ordered_json::array();
    for (const auto& f : r.failures) {
      Error e = f.full;
      name_options(e);
      // The message without the source and item, which have their own fields.
      std::string why = e.what();
      const std::string prefix = e.source() + ": ";
      if (why.rfind(prefix, 0) == 0) why.erase(0, prefix.size());
      j["failures"].push_back({{"item", f.item},
                               {"line", f.line ? nlohmann::ordered_json(*f.line) : nlohmann::ordered_json(nullptr)},
                               {"offset", f.offset},
                               {"error", why}});
    }
    ctx.report(j.dump(2), job.output == "-", true);
  } else {
    ctx.info(job.verb + ": " + std::to_string(ok) + " of " + std::to_string(r.items) + " items done" +
             (binary ? " (binary batch)" : ""));
  }
  if (!r.failures.empty()) {
    throw Error(ErrorKind::Data, std::to_string(r.failures.size()) + " of " +
                                     std::to_string(r.items) + " items failed");
  }
}

}  // namespace voxkit::cli
