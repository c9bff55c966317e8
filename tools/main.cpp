// voxkit: the command-line entry point. Parses, runs one verb, maps errors to exit codes.
#include <malloc.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string_view>
#include <vector>

#include "formats/core/diagnostics.hpp"
#include "formats/core/versions.hpp"
#include "lib/core/error.hpp"
#include "tools/aliases.hpp"
#include "tools/cli_docs.hpp"
#include "tools/context.hpp"
#include "tools/verbs.hpp"

using namespace voxkit;
using namespace voxkit::cli;

int main(int argc, char** argv) {
  // Assimp 5.2's exporters grow their buffers by exactly what each piece needs, so a scene of
  // many meshes reallocates them many times (glTF is also exported in batches for this,
  // formats/mesh/mesh_export.cpp). Keeping blocks up to 32 MiB on the heap (instead of fresh
  // mmap'ed pages each time) and not trimming it makes those copies reuse memory.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  CLI::App app{"voxkit: bake, convert, repair and export voxel terrain, offline.", "voxkit"};
  // --version (with --json: as an object) names voxkit's version and the libraries whose
  // versions decide output bytes.
  {
    bool version = false, json = false;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      version |= a == "--version";
      json |= a == "--json";
    }
    if (version) {
      const std::string text = json ? build_versions().dump(2) + "\n" : build_versions_text();
      std::fwrite(text.data(), 1, text.size(), stdout);
      return kExitOk;
    }
  }
  bool version_flag = false;  // handled above; declared so --help lists it
  app.add_flag("--version", version_flag, "Print voxkit's version and its libraries' (with --json: as JSON)")
      ->configurable(false);
  app.require_subcommand(1);
  app.fallthrough();  // global flags are accepted after the verb too

  Context ctx;
  // Warnings from formats/ (GDAL's messages among them) are diagnostics: -q silences them.
  diag::set_sink([&ctx](const std::string& line) { ctx.warn(line); });
  app.add_flag("-q,--quiet", ctx.quiet, "Print no diagnostics or progress on stderr");
  app.add_flag("-f,--force", ctx.force, "Overwrite existing output files");
  app.add_option("-j,--threads", ctx.threads, "Worker threads (0 = all cores)")
      ->check(CLI::Range(0, 1024));

  // Only the verb asked for is built (CLI11 allocates every option of every verb it is given,
  // a third of the start-up): all of them for --help, no verb, or a name that is not a verb.
  struct Verb {
    std::vector<std::string_view> names;
    void (*add)(CLI::App&, Context&);
  };
  static const Verb kVerbs[] = {
      {{"bake"}, add_bake_command},       {{"rebake"}, add_rebake_command},
      {{"preview"}, add_preview_command}, {{"mesh"}, add_mesh_command},
      {{"caves"}, add_caves_command},     {{"melt"}, add_melt_command},
      {{"zone"}, add_zone_command},       {{"zone"}, add_zone_hole_mask_command},
      {{"zone"}, add_zone_extract_command}, {{"info"}, add_info_command},
      {{"octree"}, add_octree_command},   {{"save"}, add_save_command},
      {{"pack", "unpack"}, add_pack_commands}, {{"rle"}, add_rle_command},
      {{"b64"}, add_b64_command},         {{"lz4"}, add_lz4_command},
      {{"chunk"}, add_chunk_command},     {{"edit"}, add_edit_command},
      {{"foliage"}, add_foliage_command}, {{"grass"}, add_grass_command},
      {{"convert"}, add_convert_command}, {{"tile"}, add_tile_command},
      {{"plan"}, add_plan_command},
  };
  // --generate-docs DIR (used by the build): man pages, completion and the CLI's JSON
  // description, from every verb's declarations.
  std::string docs_dir;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string_view(argv[i]) == "--generate-docs") docs_dir = argv[i + 1];
  std::string_view asked;
  for (int i = 1; i < argc && docs_dir.empty(); ++i) {
    const std::string_view a = argv[i];
    if (global_takes_value(a)) {
      ++i;
      continue;
    }
    if (a == "-h" || a == "--help") break;  // before any verb: the whole list
    if (!a.empty() && a[0] != '-') {
      asked = a;
      break;
    }
  }
  bool known = false;
  for (const Verb& v : kVerbs)
    for (std::string_view n : v.names) known |= n == asked;
  for (const Verb& v : kVerbs)
    if (!known || std::find(v.names.begin(), v.names.end(), asked) != v.names.end()) v.add(app, ctx);
  add_help_footers(app);
  // Options from a TOML file (CLI11's format: a verb's options under [verb], a sub-verb's
  // under [verb.sub]); --print-config writes the options given as such a file instead of
  // running the verb.
  app.allow_config_extras(CLI::config_extras_mode::error);
  for (CLI::App* verb : app.get_subcommands({})) {
    verb->allow_config_extras(CLI::config_extras_mode::error);
    for (CLI::App* sub : verb->get_subcommands({})) sub->allow_config_extras(CLI::config_extras_mode::error);
  }
  app.set_config("--config", "", "Read options from a TOML file ([verb] or [verb.sub] sections; see docs/cli.md)")
      ->type_name("FILE");
  bool print_config = false;
  app.add_flag("--print-config", print_config,
               "Print the options given (and the defaults) as a --config file, and do nothing else")
      ->configurable(false);
  if (!docs_dir.empty()) {
    try {
      generate_docs(app, docs_dir);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "voxkit: %s\n", e.what());
      return kExitFailure;
    }
    return kExitOk;
  }

  // Old spellings of flags (docs/cli.md), rewritten to today's with a warning.
  Rewritten rewritten = rewrite_aliases(argc, argv);
  std::vector<std::string>& args = rewritten.args;
  std::vector<char*> argv2;
  for (auto& a : args) argv2.push_back(a.data());
  argv2.push_back(nullptr);

  std::unique_ptr<tbb::global_control> threads;
  app.parse_complete_callback([&] {
    if (print_config) {
      const std::string text = config_text(app);
      std::fwrite(text.data(), 1, text.size(), stdout);
      throw ExitWith{kExitOk};
    }
    for (const auto& w : rewritten.warnings) ctx.warn(w);
    if (ctx.threads > 0) {
      threads = std::make_unique<tbb::global_control>(
          tbb::global_control::max_allowed_parallelism, size_t(ctx.threads));
    }
  });

  // An unknown verb (or an unknown subcommand of a verb that needs one) is named, with the
  // verbs there are, instead of CLI11's "A subcommand is required".
  {
    CLI::App* level = &app;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (global_takes_value(a)) {
        ++i;
        continue;
      }
      if (!a.empty() && a[0] == '-') {
        if (level != &app) break;  // a verb's own options: CLI11 checks them
        continue;
      }
      CLI::App* sub = nullptr;
      for (CLI::App* c : level->get_subcommands({}))
        if (c->get_name() == a) sub = c;
      if (sub) {
        level = sub;
        if (sub->get_require_subcommand_min() == 0) break;
        continue;
      }
      if (level->get_require_subcommand_min() == 0) break;
      std::string names;
      for (CLI::App* c : level->get_subcommands({})) names += (names.empty() ? "" : ", ") + c->get_name();
      const std::string where = level == &app ? "voxkit" : "voxkit " + level->get_name();
      std::fprintf(stderr, "voxkit: unknown %s '%s' (expected one of: %s); see '%s --help'\n",
                   level == &app ? "verb" : "subcommand", a.c_str(), names.c_str(), where.c_str());
      return kExitUsage;
    }
  }

  try {
    app.parse(int(args.size()), argv2.data());
  } catch (const ExitWith& e) {
    return e.code;
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints help, version or the usage message
    return code == 0 ? kExitOk : kExitUsage;
  } catch (Error& e) {
    name_options(e);
    // Errors are printed even with -q: a script needs to know why a step failed.
    std::fprintf(stderr, "voxkit: %s\n", e.what());
    return e.kind() == ErrorKind::Usage ? kExitUsage : kExitFailure;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "voxkit: out of memory\n");
    return kExitFailure;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voxkit: %s\n", e.what());
    return kExitFailure;
  }
  return kExitOk;
}
