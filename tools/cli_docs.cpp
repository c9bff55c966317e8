// What the CLI's declarations say about themselves: a JSON description of every verb and
// option (for the flag-vocabulary test), man pages, and bash and zsh completion. All of it is
// generated from the same CLI11 declarations `--help` prints, at build time
// (`voxkit --generate-docs DIR`, tools/CMakeLists.txt).
#include "tools/cli_docs.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "formats/core/versions.hpp"
#include "tools/aliases.hpp"

namespace voxkit::cli {
namespace {

bool hidden(const CLI::Option* o) { return o->get_group().empty(); }

// The option's value placeholder without CLI11's decorations ("TEXT:{a,b}" -> choices).
std::vector<std::string> choices_of(const CLI::Option* o) {
  const std::string t = o->get_type_name();
  const auto open = t.find(":{");
  if (open == std::string::npos) return {};
  const auto close = t.find('}', open);
  if (close == std::string::npos) return {};
  std::vector<std::string> out;
  std::stringstream ss(t.substr(open + 2, close - open - 2));
  for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
  return out;
}

// Choices a verb lists in its help text as "a, b or c" after a colon are not machine-readable;
// only CLI11's own lists are used.
nlohmann::json describe_option(const CLI::Option* o) {
  nlohmann::json j;
  j["names"] = nlohmann::json::array();
  for (const auto& s : o->get_snames()) j["names"].push_back("-" + s);
  for (const auto& l : o->get_lnames()) j["names"].push_back("--" + l);
  j["positional"] = o->get_positional();
  if (o->get_positional()) j["name"] = o->get_name(true);
  j["takes_value"] = o->get_items_expected_max() > 0 || o->get_positional();
  j["values_min"] = o->get_items_expected_min();
  j["values_max"] = std::min(o->get_items_expected_max(), 1 << 20);
  j["type"] = o->get_type_name();
  j["required"] = o->get_required();
  j["hidden"] = hidden(o);
  j["help"] = o->get_description();
  const auto c = choices_of(o);
  if (!c.empty()) j["choices"] = c;
  if (!o->get_default_str().empty()) j["default"] = o->get_default_str();
  return j;
}

// The examples and notes of a verb's help: its footer, minus the global-flags line.
std::vector<std::string> footer_examples(const CLI::App* app) {
  std::vector<std::string> out;
  std::stringstream ss(app->get_footer());
  bool in = false;
  for (std::string line; std::getline(ss, line);) {
    if (line.rfind("Examples:", 0) == 0) {
      in = true;
      continue;
    }
    if (in && line.rfind("  ", 0) == 0) {
      out.push_back(line.substr(2));
    } else if (in && !line.empty()) {
      in = false;
    }
  }
  return out;
}

nlohmann::json describe_app(const CLI::App* app, const std::string& path) {
  nlohmann::json j;
  j["path"] = path;
  j["help"] = app->get_description();
  j["options"] = nlohmann::json::array();
  for (const CLI::Option* o : app->get_options()) j["options"].push_back(describe_option(o));
  j["examples"] = footer_examples(app);
  j["verbs"] = nlohmann::json::array();
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
    const std::string p = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    j["verbs"].push_back(describe_app(sub, p));
  }
  return j;
}

// roff: a line starting with . or ' is a request; backslashes escape.
std::string roff(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string option_synopsis(const nlohmann::json& o) {
  std::string names;
  for (const auto& n : o["names"]) names += (names.empty() ? "" : ", ") + n.get<std::string>();
  if (o["takes_value"].get<bool>()) {
    std::string t = o["type"].get<std::string>();
    if (t.empty()) t = "VALUE";
    names += " " + t;
  }
  return names;
}

void walk_verbs(const nlohmann::json& app, std::vector<const nlohmann::json*>& out) {
  for (const auto& v : app["verbs"]) {
    out.push_back(&v);
    walk_verbs(v, out);
  }
}

std::string man_name(const std::string& path) {
  std::string n = "voxkit";
  if (!path.empty()) {
    std::string p = path;
    std::replace(p.begin(), p.end(), ' ', '-');
    n += "-" + p;
  }
  return n;
}

std::string man_page(const nlohmann::json& v, const nlohmann::json& root, const std::string& version) {
  const std::string path = v["path"];
  const std::string name = man_name(path);
  std::string upper = name;
  for (auto& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  std::ostringstream m;
  m << ".\\\" Generated from voxkit's option declarations (voxkit --generate-docs); do not edit.\n";
  m << ".TH " << upper << " 1 \"\" \"voxkit " << version << "\" \"voxkit manual\"\n";
  m << ".SH NAME\n" << roff(name) << " \\- " << roff(v["help"].get<std::string>()) << "\n";
  m << ".SH SYNOPSIS\n.B voxkit" << (path.empty() ? "" : " " + roff(path)) << "\n";
  bool any_options = false;
  for (const auto& o : v["options"]) {
    if (o["hidden"].get<bool>()) continue;
    if (o["positional"].get<bool>()) {
      m << ".I " << roff(o["name"].get<std::string>()) << (o["required"].get<bool>() ? "" : " (optional)") << "\n";
    } else {
      any_options = true;
    }
  }
  if (any_options) m << "[\\fIOPTIONS\\fR]\n";
  if (!v["verbs"].empty()) m << ".I VERB\n";
  m << ".SH DESCRIPTION\n" << roff(v["help"].get<std::string>()) << ".\n";
  if (!v["verbs"].empty()) {
    m << ".SH VERBS\n";
    for (const auto& s : v["verbs"]) {
      m << ".TP\n.B " << roff(s["path"].get<std::string>()) << "\n" << roff(s["help"].get<std::string>())
        << " (see \\fB" << roff(man_name(s["path"])) << "\\fR(1)).\n";
    }
  }
  std::string positionals, options;
  for (const auto& o : v["options"]) {
    if (o["hidden"].get<bool>()) continue;
    std::string item = ".TP\n.B " + roff(o["positional"].get<bool>() ? o["name"].get<std::string>() : option_synopsis(o)) + "\n" +
                       roff(o["help"].get<std::string>());
    if (o.contains("default")) item += " (default: " + roff(o["default"].get<std::string>()) + ")";
    if (o["required"].get<bool>() && !o["positional"].get<bool>())
      item += !item.empty() && item.back() == '.' ? " Required." : ". Required.";
    item += "\n";
    (o["positional"].get<bool>() ? positionals : options) += item;
  }
  if (!positionals.empty()) m << ".SH ARGUMENTS\n" << positionals;
  if (!options.empty()) m << ".SH OPTIONS\n" << options;
  if (!path.empty()) {
    m << ".SH GLOBAL OPTIONS\nGiven before or after the verb.\n";
    for (const auto& o : root["options"]) {
      if (o["hidden"].get<bool>() || o["positional"].get<bool>()) continue;
      m << ".TP\n.B " << roff(option_synopsis(o)) << "\n" << roff(o["help"].get<std::string>()) << "\n";
    }
  }
  if (!v["examples"].empty()) {
    m << ".SH EXAMPLES\n";
    for (const auto& e : v["examples"]) m << ".PP\n.nf\n" << roff(e.get<std::string>()) << "\n.fi\n";
  }
  m << ".SH EXIT STATUS\n0 success; 1 bad input data or an I/O error; 2 a bad command line, a refused "
       "overwrite or binary data to a terminal; 3 a comparing verb found its inputs different.\n";
  m << ".SH SEE ALSO\n";
  if (path.empty()) {
    std::vector<const nlohmann::json*> all;
    walk_verbs(root, all);
    std::string list;
    for (const auto* s : all) list += (list.empty() ? "" : ",\n") + std::string("\\fB") + roff(man_name((*s)["path"])) + "\\fR(1)";
    m << list << "\n";
  } else {
    m << "\\fBvoxkit\\fR(1)\n";
  }
  return m.str();
}

// Words of a shell-completion case: the option names a verb takes (hidden aliases left out).
std::string option_words(const nlohmann::json& v, bool with_globals, const nlohmann::json& root) {
  std::string w;
  auto add = [&](const nlohmann::json& opts) {
    for (const auto& o : opts) {
      if (o["hidden"].get<bool>() || o["positional"].get<bool>()) continue;
      for (const auto& n : o["names"]) w += (w.empty() ? "" : " ") + n.get<std::string>();
    }
  };
  add(v["options"]);
  if (with_globals) add(root["options"]);
  return w;
}

std::string verb_words(const nlohmann::json& v) {
  std::string w;
  for (const auto& s : v["verbs"]) {
    const std::string p = s["path"];
    w += (w.empty() ? "" : " ") + p.substr(p.rfind(' ') == std::string::npos ? 0 : p.rfind(' ') + 1);
  }
  return w;
}

// Options whose values are a fixed list: completed from it.
std::string choice_cases_bash(const nlohmann::json& v) {
  std::string out;
  for (const auto& o : v["options"]) {
    if (o["hidden"].get<bool>() || !o.contains("choices")) continue;
    std::string names;
    for (const auto& n : o["names"]) names += (names.empty() ? "" : "|") + n.get<std::string>();
    std::string words;
    for (const auto& c : o["choices"]) words += (words.empty() ? "" : " ") + c.get<std::string>();
    out += "        " + names + ") COMPREPLY=($(compgen -W '" + words + "' -- \"$cur\")); return ;;\n";
  }
  return out;
}

std::string bash_completion(const nlohmann::json& root) {
  std::vector<const nlohmann::json*> all;
  walk_verbs(root, all);
  std::ostringstream s;
  s << "# bash completion for voxkit. Generated from voxkit's option declarations\n"
       "# (voxkit --generate-docs); do not edit.\n"
       "_voxkit() {\n"
       "  local cur prev path=\"\" w i\n"
       "  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
       "  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
       "  # The verb path: the words that name verbs, in order, skipping options and their values.\n"
       "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
       "    w=\"${COMP_WORDS[i]}\"\n"
       "    case \"$w\" in -*) continue ;; esac\n"
       "    case \"${path:+$path }$w\" in\n";
  std::string verbs;
  for (const auto* v : all) verbs += (verbs.empty() ? "" : "|") + std::string("\"") + (*v)["path"].get<std::string>() + "\"";
  s << "      " << verbs << ") path=\"${path:+$path }$w\" ;;\n";
  s << "    esac\n  done\n";
  s << "  case \"$path\" in\n";
  auto emit = [&](const nlohmann::json& v) {
    const std::string p = v["path"];
    s << "    \"" << p << "\")\n";
    const std::string cases = choice_cases_bash(v);
    if (!cases.empty()) s << "      case \"$prev\" in\n" << cases << "      esac\n";
    const std::string sub = verb_words(v);
    s << "      if [[ \"$cur\" == -* ]]; then\n"
      << "        COMPREPLY=($(compgen -W '" << option_words(v, !p.empty(), root) << "' -- \"$cur\"))\n";
    if (!sub.empty()) {
      s << "      else\n        COMPREPLY=($(compgen -W '" << sub << "' -- \"$cur\"))\n";
    } else {
      s << "      else\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n";
    }
    s << "      fi ;;\n";
  };
  emit(root);
  for (const auto* v : all) emit(*v);
  s << "  esac\n}\ncomplete -o filenames -F _voxkit voxkit\n";
  return s.str();
}

std::string zsh_quote(const std::string& t) {
  std::string out;
  for (char c : t) {
    if (c == '\'') {
      out += "'\\''";
    } else if (c == '[' || c == ']' || c == ':') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string zsh_function(const std::string& path) {
  std::string f = "_voxkit";
  for (char c : path) f += c == ' ' || c == '-' ? '_' : c;
  return f;
}

std::string zsh_completion(const nlohmann::json& root) {
  std::vector<const nlohmann::json*> all;
  walk_verbs(root, all);
  std::ostringstream s;
  s << "#compdef voxkit\n# zsh completion for voxkit. Generated from voxkit's option declarations\n"
       "# (voxkit --generate-docs); do not edit.\n\n";
  auto emit = [&](const nlohmann::json& v) {
    const std::string p = v["path"];
    s << zsh_function(p) << "() {\n  local curcontext=\"$curcontext\" state line\n  _arguments -s \\\n";
    auto spec = [&](const nlohmann::json& o) {
      if (o["hidden"].get<bool>() || o["positional"].get<bool>()) return;
      std::string help = o["help"].get<std::string>();
      if (help.size() > 70) help = help.substr(0, 67) + "...";
      std::string action;
      if (o["takes_value"].get<bool>()) {
        if (o.contains("choices")) {
          std::string words;
          for (const auto& c : o["choices"]) words += (words.empty() ? "" : " ") + c.get<std::string>();
          action = ":value:(" + words + ")";
        } else {
          action = ":value:_files";
        }
      }
      const bool repeat = o["values_max"].get<int>() > 1 && o["takes_value"].get<bool>();
      for (const auto& n : o["names"]) {
        s << "    '" << (repeat ? "*" : "") << n.get<std::string>() << "[" << zsh_quote(help) << "]" << action << "' \\\n";
      }
    };
    for (const auto& o : v["options"]) spec(o);
    if (!p.empty())
      for (const auto& o : root["options"]) spec(o);
    if (!v["verbs"].empty()) {
      s << "    '1:verb:->verb' \\\n    '*::arg:->args'\n";
      s << "  case $state in\n    verb)\n      local -a verbs\n      verbs=(\n";
      for (const auto& sub : v["verbs"]) {
        const std::string sp = sub["path"];
        const std::string word = sp.substr(sp.rfind(' ') == std::string::npos ? 0 : sp.rfind(' ') + 1);
        s << "        '" << word << ":" << zsh_quote(sub["help"].get<std::string>()) << "'\n";
      }
      s << "      )\n      _describe verb verbs ;;\n    args)\n      case $line[1] in\n";
      for (const auto& sub : v["verbs"]) {
        const std::string sp = sub["path"];
        const std::string word = sp.substr(sp.rfind(' ') == std::string::npos ? 0 : sp.rfind(' ') + 1);
        s << "        " << word << ") " << zsh_function(sp) << " ;;\n";
      }
      s << "      esac ;;\n  esac\n";
    } else {
      s << "    '*:file:_files'\n";
    }
    s << "}\n\n";
  };
  for (const auto* v : all) emit(*v);
  emit(root);
  s << "_voxkit \"$@\"\n";
  return s.str();
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  const auto tmp = p.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, p);
}

}  // namespace

nlohmann::json describe_cli(const CLI::App& app) {
  nlohmann::json j = describe_app(&app, "");
  j["aliases"] = nlohmann::json::array();
  for (const FlagAlias& a : flag_aliases())
    j["aliases"].push_back({{"verb", a.verb}, {"old", a.old_name}, {"new", a.new_name}});
  return j;
}

void generate_docs(const CLI::App& app, const std::string& dir) {
  const nlohmann::json root = describe_cli(app);
  const std::string version = build_versions()["voxkit"].get<std::string>();
  const std::filesystem::path d(dir);
  write_file(d / "cli.json", root.dump(2) + "\n");
  write_file(d / "man1" / "voxkit.1", man_page(root, root, version));
  std::vector<const nlohmann::json*> all;
  walk_verbs(root, all);
  for (const auto* v : all) write_file(d / "man1" / (man_name((*v)["path"]) + ".1"), man_page(*v, root, version));
  write_file(d / "completion" / "voxkit.bash", bash_completion(root));
  write_file(d / "completion" / "_voxkit", zsh_completion(root));
}

}  // namespace voxkit::cli

namespace voxkit::cli {
namespace {

std::string toml_string(const std::string& s) {
  // A literal string ('...') where it can be one: CLI11 reads it back verbatim, backslashes
  // and double quotes included.
  bool literal = true;
  for (unsigned char c : s) literal &= c != '\'' && c >= 0x20 && c != 0x7f;
  if (literal) return "'" + s + "'";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

// The option's key in a config file: its first long name (CLI11 matches keys by long name).
std::string config_key(const CLI::Option* o) {
  if (!o->get_lnames().empty()) return o->get_lnames()[0];
  if (o->get_positional()) return o->get_name(true);
  return {};
}

bool configurable(const CLI::Option* o) {
  if (!o->get_configurable() || hidden(o)) return false;
  const std::string k = config_key(o);
  return !k.empty() && k != "help" && k != "version" && k != "print-config";
}

void config_section(const CLI::App* app, const std::string& section, std::string& out) {
  std::string given, defaults;
  for (const CLI::Option* o : app->get_options()) {
    if (!configurable(o)) continue;
    const std::string key = config_key(o);
    if (o->count() > 0) {
      const auto& r = o->results();
      if (o->get_items_expected_max() == 0) {
        // A flag: true or false, or the value of a flag that takes one (--clip-hole=0.2).
        const std::string v = r.empty() ? std::string("true") : r.back();
        given += key + " = " + (v == "true" || v.empty() ? std::string("true") : v == "false" ? std::string("false") : toml_string(v)) + "\n";
      } else if (r.size() == 1 && o->get_items_expected_max() <= 1) {
        given += key + " = " + toml_string(r[0]) + "\n";
      } else {
        std::string list;
        for (const auto& v : r) list += (list.empty() ? "" : ", ") + toml_string(v);
        given += key + " = [" + list + "]\n";
      }
    } else if (!o->get_default_str().empty()) {
      defaults += "# " + key + " = " + toml_string(o->get_default_str()) + "\n";
    }
  }
  if (given.empty() && defaults.empty()) return;
  if (!section.empty()) out += "\n[" + section + "]\n";
  out += given;
  if (!defaults.empty()) out += "# defaults of the options not given:\n" + defaults;
}

}  // namespace

std::string config_text(const CLI::App& app) {
  std::string out =
      "# voxkit options, as given (voxkit --print-config). Run them with: voxkit --config FILE VERB...\n";
  config_section(&app, "", out);
  const CLI::App* level = &app;
  std::string section;
  for (;;) {
    const auto subs = level->get_subcommands();
    if (subs.empty()) break;
    level = subs.front();
    section += (section.empty() ? "" : ".") + level->get_name();
    config_section(level, section, out);
  }
  return out;
}

}  // namespace voxkit::cli
