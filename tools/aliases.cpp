#include "tools/aliases.hpp"

#include <sstream>

namespace voxkit::cli {

const std::vector<FlagAlias>& flag_aliases() {
  static const std::vector<FlagAlias> kAliases{
      {"pack", "--input-format", "--from"},
      {"unpack", "--output-format", "--to"},
      {"mesh", "--input", "--from"},
      {"mesh", "--format", "--to"},
      {"bake", "--origin", "--geo-origin"},
      {"rebake", "--origin", "--geo-origin"},
      {"grass scatter", "--origin", "--geo-origin"},
      {"b64 encode", "-n", "--no-newline"},
      {"zone extract", "--format", "--to"},
      {"grass scatter", "--format", "--to"},
      {"edit apply", "--input-kind", "--from"},
      {"edit replay", "--input-kind", "--from"},
      {"octree reset", "--world", "--world-xml"},
      {"octree synth", "--depth", "--max-depth"},
      {"save extract", "--max-bytes", "--max-input"},
      {"save replace", "--max-bytes", "--max-input"},
      {"save rooms", "--max-bytes", "--max-input"},
  };
  return kAliases;
}

bool global_takes_value(std::string_view a) {
  return a == "-j" || a == "--threads" || a == "--config" || a == "--generate-docs";
}

namespace {

// The words of the command line that name verbs: the first non-option words (skipping the
// value of -j/--threads), at most `n` of them.
std::vector<std::string_view> leading_words(int argc, char** argv, size_t n) {
  std::vector<std::string_view> words;
  for (int i = 1; i < argc && words.size() < n; ++i) {
    const std::string_view a = argv[i];
    if (global_takes_value(a)) {
      ++i;
      continue;
    }
    if (a.empty() || a[0] == '-') continue;
    words.push_back(a);
  }
  return words;
}

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    const auto sp = path.find(' ');
    out.push_back(path.substr(0, sp));
    if (sp == std::string_view::npos) break;
    path.remove_prefix(sp + 1);
  }
  return out;
}

}  // namespace

Rewritten rewrite_aliases(int argc, char** argv) {
  Rewritten r;
  for (int i = 0; i < argc; ++i) r.args.emplace_back(argv[i]);
  const auto words = leading_words(argc, argv, 2);
  for (const FlagAlias& a : flag_aliases()) {
    const auto verb = split(a.verb);
    if (words.size() < verb.size()) continue;
    bool match = true;
    for (size_t k = 0; k < verb.size(); ++k) match &= words[k] == verb[k];
    if (!match) continue;
    bool used = false;
    for (int i = 1; i < argc; ++i) {
      std::string& s = r.args[size_t(i)];
      if (s == "--") break;  // positionals from here on
      if (s == a.old_name) {
        s = std::string(a.new_name);
        used = true;
      } else if (a.old_name.size() > 2 && s.size() > a.old_name.size() && s.compare(0, a.old_name.size(), a.old_name) == 0 &&
                 s[a.old_name.size()] == '=') {
        s = std::string(a.new_name) + s.substr(a.old_name.size());
        used = true;
      }
    }
    if (used) {
      std::ostringstream w;
      w << "'" << a.verb << " " << a.old_name << "' is now '" << a.new_name << "'; the old spelling goes away in the next release";
      r.warnings.push_back(w.str());
    }
  }
  return r;
}

}  // namespace voxkit::cli
