// Mesh describers for `voxkit info`: PLY (the header and element layout), STL (the binary and
// ASCII facet layouts) and OBJ statements.
#include "formats/mesh/mesh_info.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "formats/mesh/mesh_info_detail.hpp"
#include "lib/core/error.hpp"

namespace voxkit::mesh_info {

using namespace detail;

namespace {

// --- PLY ----------------------------------------------------------------------------------

enum class PlyType { I8, U8, I16, U16, I32, U32, F32, F64 };

std::optional<PlyType> ply_type(std::string_view s) {
  if (s == "char" || s == "int8") return PlyType::I8;
  if (s == "uchar" || s == "uint8") return PlyType::U8;
  if (s == "short" || s == "int16") return PlyType::I16;
  if (s == "ushort" || s == "uint16") return PlyType::U16;
  if (s == "int" || s == "int32") return PlyType::I32;
  if (s == "uint" || s == "uint32") return PlyType::U32;
  if (s == "float" || s == "float32") return PlyType::F32;
  if (s == "double" || s == "float64") return PlyType::F64;
  return std::nullopt;
}
size_t ply_size(PlyType t) {
  switch (t) {
    case PlyType::I8: case PlyType::U8: return 1;
    case PlyType::I16: case PlyType::U16: return 2;
    case PlyType::I32: case PlyType::U32: case PlyType::F32: return 4;
    case PlyType::F64: return 8;
  }
  return 1;
}
bool ply_integral(PlyType t) { return t != PlyType::F32 && t != PlyType::F64; }

struct PlyProperty {
  std::string name;
  PlyType type = PlyType::F32;
  bool list = false;
  PlyType count_type = PlyType::U8;
};
struct PlyElement {
  std::string name;
  uint64_t count = 0;
  std::vector<PlyProperty> props;
};

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> w;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const size_t s = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > s) w.push_back(line.substr(s, i - s));
  }
  return w;
}

bool parse_double(std::string_view s, double& v) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}
template <class T>
bool parse_int(std::string_view s, T& v) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Reads the body one value at a time: binary (either byte order) or ASCII tokens.
class PlyReader {
 public:
  PlyReader(std::span<const uint8_t> b, size_t at, int mode) : b_(b), at_(at), mode_(mode) {}
  double value(PlyType t) {
    if (mode_ == 0) return ascii(t);
    const size_t n = ply_size(t);
    if (b_.size() - at_ < n)
      throw_data("PLY body is truncated", at_, std::to_string(n) + " more bytes", std::to_string(b_.size() - at_));
    uint8_t raw[8];
    for (size_t i = 0; i < n; ++i) raw[i] = b_[at_ + (mode_ == 1 ? i : n - 1 - i)];
    at_ += n;
    switch (t) {
      case PlyType::I8: return double(int8_t(raw[0]));
      case PlyType::U8: return double(raw[0]);
      case PlyType::I16: { int16_t v; std::memcpy(&v, raw, 2); return v; }
      case PlyType::U16: { uint16_t v; std::memcpy(&v, raw, 2); return v; }
      case PlyType::I32: { int32_t v; std::memcpy(&v, raw, 4); return v; }
      case PlyType::U32: { uint32_t v; std::memcpy(&v, raw, 4); return v; }
      case PlyType::F32: { float v; std::memcpy(&v, raw, 4); return v; }
      case PlyType::F64: { double v; std::memcpy(&v, raw, 8); return v; }
    }
    return 0;
  }
  // What is left after the last element: nothing (binary) or only blanks (ASCII).
  void finish() {
    if (mode_ == 0) {
      skip_blanks();
      if (at_ < b_.size()) throw_data("PLY has data after its last element", at_);
    } else if (at_ != b_.size()) {
      throw_data("PLY has bytes after its last element", at_, "end of file", std::to_string(b_.size() - at_) + " more bytes");
    }
  }
  size_t offset() const { return at_; }

 private:
  void skip_blanks() {
    while (at_ < b_.size() && (b_[at_] == ' ' || b_[at_] == '\t' || b_[at_] == '\r' || b_[at_] == '\n')) ++at_;
  }
  double ascii(PlyType t) {
    skip_blanks();
    const size_t s = at_;
    while (at_ < b_.size() && b_[at_] != ' ' && b_[at_] != '\t' && b_[at_] != '\r' && b_[at_] != '\n') ++at_;
    if (at_ == s) throw_data("PLY body is truncated", s, "a value", "end of file");
    const std::string_view tok(reinterpret_cast<const char*>(b_.data()) + s, at_ - s);
    double v = 0;
    if (ply_integral(t)) {
      int64_t i = 0;
      if (!parse_int(tok, i)) throw_data("PLY value is not an integer", s, "an integer", escape_text(tok.substr(0, 32)));
      v = double(i);
    } else if (!parse_double(tok, v)) {
      throw_data("PLY value is not a number", s, "a number", escape_text(tok.substr(0, 32)));
    }
    return v;
  }
  std::span<const uint8_t> b_;
  size_t at_;
  int mode_;  // 0 ASCII, 1 little-endian, 2 big-endian
};

// --- STL ----------------------------------------------------------------------------------

struct Lines {
  std::string_view text;
  size_t at = 0;
  uint64_t line = 0;
  size_t start = 0;  // offset of the current line
  bool next(std::string_view& out) {
    if (at >= text.size()) return false;
    start = at;
    size_t e = text.find('\n', at);
    if (e == std::string_view::npos) e = text.size();
    out = text.substr(at, e - at);
    at = e + 1;
    ++line;
    return true;
  }
};

struct AsciiStl {
  uint64_t facets = 0, solids = 0;
  std::vector<std::string> names;
  Bounds b;
};

// Throws a data error naming the line on anything but whole facets inside solids.
AsciiStl read_ascii_stl(std::string_view text) {
  AsciiStl r;
  Lines ls{text};
  std::string_view line;
  enum { Outside, Solid, Facet, Loop, EndLoop } state = Outside;
  int corners = 0;
  auto bad = [&](const std::string& expected, std::string_view found) {
    throw_data("ASCII STL, line " + std::to_string(ls.line) + ": unexpected statement", ls.start, expected,
               escape_text(found.substr(0, 40)));
  };
  while (ls.next(line)) {
    const auto w = words(line);
    if (w.empty()) continue;
    const std::string_view k = w[0];
    auto three = [&](size_t from, double* v) {
      if (w.size() != from + 3) bad("three numbers", line);
      for (int i = 0; i < 3; ++i)
        if (!parse_double(w[from + size_t(i)], v[i])) bad("a number", w[from + size_t(i)]);
    };
    switch (state) {
      case Outside:
        if (k != "solid") bad("solid", k);
        ++r.solids;
        {
          const size_t p = line.find("solid") + 5;
          std::string name(words(line.substr(p)).empty() ? "" : std::string(line.substr(p)));
          while (!name.empty() && (name.back() == '\r' || name.back() == ' ' || name.back() == '\t')) name.pop_back();
          while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.erase(0, 1);
          r.names.push_back(escape_text(name));
        }
        state = Solid;
        break;
      case Solid:
        if (k == "endsolid") {
          state = Outside;
        } else if (k == "facet") {
          double n[3];
          if (w.size() < 2 || w[1] != "normal") bad("facet normal", line);
          three(2, n);
          state = Facet;
        } else {
          bad("facet or endsolid", k);
        }
        break;
      case Facet:
        if (k != "outer" || w.size() != 2 || w[1] != "loop") bad("outer loop", line);
        state = Loop;
        corners = 0;
        break;
      case Loop:
        if (k == "vertex") {
          double v[3];
          three(1, v);
          r.b.add(v[0], v[1], v[2]);
          if (++corners > 3) bad("endloop after three vertices", k);
        } else if (k == "endloop" && w.size() == 1) {
          if (corners != 3) bad("three vertices", std::to_string(corners));
          state = EndLoop;
        } else {
          bad("vertex or endloop", k);
        }
        break;
      case EndLoop:
        if (k != "endfacet" || w.size() != 1) bad("endfacet", k);
        ++r.facets;
        state = Solid;
        break;
    }
  }
  if (state != Outside) throw_data("ASCII STL ends inside a solid", text.size(), "endsolid", "end of file");
  return r;
}

// --- OBJ ----------------------------------------------------------------------------------

struct Obj {
  uint64_t v = 0, vt = 0, vn = 0, faces = 0, triangles = 0, lines = 0, points = 0, coloured = 0;
  std::set<std::string> groups, objects, materials;
  std::vector<std::string> libraries;
  Bounds b;
};

Obj read_obj(std::string_view text) {
  Obj o;
  Lines ls{text};
  std::string_view line;
  auto bad = [&](const std::string& what, const std::string& expected, std::string_view found) {
    throw_data("OBJ, line " + std::to_string(ls.line) + ": " + what, ls.start, expected,
               escape_text(found.substr(0, 40)));
  };
  // A 1-based (or negative, relative) index into `n` items.
  auto index = [&](std::string_view s, uint64_t n, const char* what) {
    int64_t i = 0;
    if (!parse_int(s, i) || i == 0) bad(std::string("bad ") + what + " index", "a non-zero integer", s);
    if ((i > 0 && uint64_t(i) > n) || (i < 0 && uint64_t(-(i + 1)) >= n))
      bad(std::string(what) + " index out of range", "1.." + std::to_string(n) + " or -1..-" + std::to_string(n), s);
  };
  while (ls.next(line)) {
    if (const auto h = line.find('#'); h != std::string_view::npos) line = line.substr(0, h);
    const auto w = words(line);
    if (w.empty()) continue;
    const std::string_view k = w[0];
    auto numbers = [&](size_t lo, size_t hi, double* out) {
      if (w.size() - 1 < lo || w.size() - 1 > hi)
        bad("wrong number of values", std::to_string(lo) + ".." + std::to_string(hi) + " numbers",
            std::to_string(w.size() - 1));
      for (size_t i = 1; i < w.size(); ++i)
        if (!parse_double(w[i], out[i - 1])) bad("not a number", "a number", w[i]);
    };
    double v[7];
    if (k == "v") {
      numbers(3, 7, v);
      ++o.v;
      o.coloured += w.size() >= 7;
      o.b.add(v[0], v[1], v[2]);
    } else if (k == "vt") {
      numbers(1, 3, v);
      ++o.vt;
    } else if (k == "vn") {
      numbers(3, 3, v);
      ++o.vn;
    } else if (k == "f" || k == "l" || k == "p") {
      const size_t need = k == "f" ? 3 : k == "l" ? 2 : 1;
      if (w.size() - 1 < need) bad("too few corners", "at least " + std::to_string(need), std::to_string(w.size() - 1));
      for (size_t i = 1; i < w.size(); ++i) {
        const std::string_view c = w[i];
        const size_t s1 = c.find('/');
        index(c.substr(0, s1), o.v, "vertex");
        if (s1 == std::string_view::npos) continue;
        const size_t s2 = c.find('/', s1 + 1);
        const std::string_view t = c.substr(s1 + 1, s2 == std::string_view::npos ? std::string_view::npos : s2 - s1 - 1);
        if (!t.empty()) index(t, o.vt, "texture coordinate");
        if (s2 != std::string_view::npos) index(c.substr(s2 + 1), o.vn, "normal");
      }
      if (k == "f") {
        ++o.faces;
        o.triangles += w.size() - 3;
      } else if (k == "l") {
        ++o.lines;
      } else {
        ++o.points;
      }
    } else if (k == "g" || k == "o" || k == "usemtl" || k == "mtllib") {
      std::string rest(w.size() > 1 ? line.substr(size_t(w[1].data() - line.data())) : std::string_view());
      while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ' || rest.back() == '\t')) rest.pop_back();
      rest = escape_text(rest);
      if (k == "g") o.groups.insert(rest);
      if (k == "o") o.objects.insert(rest);
      if (k == "usemtl") o.materials.insert(rest);
      if (k == "mtllib") o.libraries.push_back(rest);
    } else if (k == "s") {
      if (w.size() != 2) bad("smoothing group", "one value", line);
    } else {
      bad("unknown statement", "v, vt, vn, f, l, p, g, o, s, usemtl or mtllib", k);
    }
  }
  if (o.v == 0) throw_data("OBJ holds no vertex", std::nullopt, "a v line", "none");
  return o;
}

}  // namespace

std::optional<identify::Description> describe_ply(std::span<const uint8_t> bytes, const std::string& name) {
  (void)name;
  if (bytes.size() < 4 || std::memcmp(bytes.data(), "ply", 3) != 0 || (bytes[3] != '\n' && bytes[3] != '\r'))
    return std::nullopt;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  Lines ls{text};
  std::string_view line;
  ls.next(line);
  int mode = -1;
  std::vector<PlyElement> elements;
  std::vector<std::string> comments;
  bool ended = false;
  auto bad = [&](const std::string& what, const std::string& expected, std::string_view found) {
    throw_data("PLY header, line " + std::to_string(ls.line) + ": " + what, ls.start, expected,
               escape_text(found.substr(0, 40)));
  };
  while (!ended && ls.next(line)) {
    const auto w = words(line);
    if (w.empty()) bad("blank line", "a header line", "");
    const std::string_view k = w[0];
    if (k == "format") {
      if (w.size() != 3 || w[2] != "1.0") bad("bad format line", "format KIND 1.0", line);
      if (w[1] == "ascii") mode = 0;
      else if (w[1] == "binary_little_endian") mode = 1;
      else if (w[1] == "binary_big_endian") mode = 2;
      else bad("unknown format", "ascii, binary_little_endian or binary_big_endian", w[1]);
    } else if (k == "comment" || k == "obj_info") {
      if (comments.size() < 16) comments.push_back(escape_text(line.substr(std::min(line.size(), k.size() + 1))));
    } else if (k == "element") {
      PlyElement e;
      if (w.size() != 3 || !parse_int(w[2], e.count)) bad("bad element line", "element NAME COUNT", line);
      e.name = escape_text(w[1]);
      elements.push_back(std::move(e));
    } else if (k == "property") {
      if (elements.empty()) bad("property before any element", "element", k);
      PlyProperty p;
      if (w.size() == 5 && w[1] == "list") {
        const auto ct = ply_type(w[2]), it = ply_type(w[3]);
        if (!ct || !ply_integral(*ct) || !it) bad("bad list property", "property list COUNT_TYPE TYPE NAME", line);
        p = {escape_text(w[4]), *it, true, *ct};
      } else if (w.size() == 3 && ply_type(w[1])) {
        p = {escape_text(w[2]), *ply_type(w[1]), false, PlyType::U8};
      } else {
        bad("bad property line", "property TYPE NAME", line);
      }
      elements.back().props.push_back(std::move(p));
    } else if (k == "end_header" && w.size() == 1) {
      ended = true;
    } else {
      bad("unknown header line", "format, comment, element, property or end_header", k);
    }
  }
  if (!ended) throw_data("PLY header has no end_header", bytes.size(), "end_header", "end of file");
  if (mode < 0) throw_data("PLY header has no format line", std::nullopt, "format KIND 1.0", "none");
  PlyReader r(bytes, ls.at > bytes.size() ? bytes.size() : ls.at, mode);
  uint64_t vertices = 0, faces = 0, triangles = 0;
  Bounds b;
  std::vector<std::string> attrs;
  for (const PlyElement& e : elements) {
    const bool is_vertex = e.name == "vertex", is_face = e.name == "face";
    int xyz[3] = {-1, -1, -1};
    int corners = -1;
    for (size_t i = 0; i < e.props.size(); ++i) {
      const auto& p = e.props[i];
      if (is_vertex) {
        attrs.push_back(p.name);
        if (!p.list && (p.name == "x" || p.name == "y" || p.name == "z")) xyz[p.name[0] - 'x'] = int(i);
      }
      if (is_face && p.list && (p.name == "vertex_indices" || p.name == "vertex_index")) corners = int(i);
    }
    if (is_vertex) vertices = e.count;
    if (is_face) faces = e.count;
    if (e.props.empty()) continue;  // no bytes to read, however many
    double at[3] = {0, 0, 0};
    for (uint64_t n = 0; n < e.count; ++n) {
      for (size_t i = 0; i < e.props.size(); ++i) {
        const auto& p = e.props[i];
        if (!p.list) {
          const double v = r.value(p.type);
          for (int k = 0; k < 3; ++k)
            if (xyz[k] == int(i)) at[k] = v;
          continue;
        }
        const size_t where = r.offset();
        const double c = r.value(p.count_type);
        if (c < 0) throw_data("PLY list has a negative length", where, "0 or more", num(c));
        const uint64_t count = uint64_t(c);
        for (uint64_t j = 0; j < count; ++j) {
          const size_t vat = r.offset();
          const double v = r.value(p.type);
          if (int(i) == corners && is_face && vertices && (v < 0 || v >= double(vertices)))
            throw_data("PLY face names a vertex that does not exist", vat, "0.." + std::to_string(vertices - 1),
                       num(v));
        }
        if (int(i) == corners && count >= 3) triangles += count - 2;
      }
      if (is_vertex && xyz[0] >= 0 && xyz[1] >= 0 && xyz[2] >= 0) b.add(at[0], at[1], at[2]);
    }
  }
  r.finish();
  static const char* kModes[] = {"ASCII", "binary little-endian", "binary big-endian"};
  auto d = mesh_description("ply", std::string("PLY mesh (") + kModes[mode] + ")", vertices, triangles, b, attrs);
  std::string el;
  for (const auto& e : elements) el += (el.empty() ? "" : ", ") + e.name + " " + std::to_string(e.count);
  d.fields.insert(d.fields.begin() + 2, {"faces", std::to_string(faces)});
  d.fields.emplace_back("elements", el.empty() ? "none" : el);
  d.details["encoding"] = mode == 0 ? "ascii" : mode == 1 ? "binary_little_endian" : "binary_big_endian";
  d.details["faces"] = faces;
  json els = json::array();
  for (const auto& e : elements) {
    json props = json::array();
    for (const auto& p : e.props) props.push_back(p.name);
    els.push_back({{"name", e.name}, {"count", e.count}, {"properties", props}});
  }
  d.details["elements"] = els;
  d.details["comments"] = comments;
  return d;
}

std::optional<identify::Description> describe_stl(std::span<const uint8_t> bytes, const std::string& name) {
  const bool named = identify::has_extension(name, ".stl");
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::optional<Error> ascii_error;
  if (text.substr(0, 5) == "solid") {
    try {
      const AsciiStl s = read_ascii_stl(text);
      auto d = mesh_description("stl", "STL mesh (ASCII)", s.facets * 3, s.facets, s.b, {});
      d.fields.insert(d.fields.begin(), {"solids", join(s.names, "(unnamed)")});
      d.details["encoding"] = "ascii";
      d.details["solids"] = s.names;
      return d;
    } catch (const Error& e) {
      ascii_error = e;
    }
  }
  const uint64_t size = bytes.size();
  if (size >= 84 && 84 + 50 * uint64_t(rd32(bytes, 80)) == size) {
    const uint64_t n = rd32(bytes, 80);
    Bounds b;
    for (uint64_t t = 0; t < n; ++t) {
      const size_t at = size_t(84 + 50 * t + 12);
      for (int c = 0; c < 3; ++c) {
        float v[3];
        std::memcpy(v, bytes.data() + at + 12 * size_t(c), 12);
        b.add(v[0], v[1], v[2]);
      }
    }
    size_t hl = 0;
    while (hl < 80 && bytes[hl] >= 0x20 && bytes[hl] < 0x7f) ++hl;
    std::string header(text.substr(0, hl));
    while (!header.empty() && header.back() == ' ') header.pop_back();
    auto d = mesh_description("stl", "STL mesh (binary)", n * 3, n, b, {});
    d.fields.insert(d.fields.begin(), {"header", header.empty() ? "(none)" : header});
    d.details["encoding"] = "binary";
    d.details["header"] = header;
    return d;
  }
  if (!named) return std::nullopt;
  if (ascii_error && size < 84) throw *ascii_error;
  if (ascii_error && (size < 84 || 84 + 50 * uint64_t(rd32(bytes, 80)) != size)) throw *ascii_error;
  if (size < 84) throw_data("binary STL is truncated", size, "at least 84 bytes", std::to_string(size));
  throw_data("binary STL size does not match its triangle count", 80,
             std::to_string(84 + 50 * uint64_t(rd32(bytes, 80))) + " bytes for " + std::to_string(rd32(bytes, 80)) +
                 " triangles",
             std::to_string(size) + " bytes");
}

std::optional<identify::Description> describe_obj(std::span<const uint8_t> bytes, const std::string& name) {
  const bool named = identify::has_extension(name, ".obj");
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  Obj o;
  try {
    o = read_obj(text);
  } catch (const Error&) {
    if (named) throw;
    return std::nullopt;
  }
  std::vector<std::string> attrs{"position"};
  if (o.vt) attrs.push_back("texcoord");
  if (o.vn) attrs.push_back("normal");
  if (o.coloured) attrs.push_back("color");
  auto d = mesh_description("obj", "Wavefront OBJ mesh", o.v, o.triangles, o.b, attrs);
  d.fields.insert(d.fields.begin() + 2, {"faces", std::to_string(o.faces)});
  d.fields.emplace_back("texcoords, normals", std::to_string(o.vt) + ", " + std::to_string(o.vn));
  d.fields.emplace_back("groups", std::to_string(o.groups.size()) + " (" + std::to_string(o.objects.size()) +
                                      " objects, " + std::to_string(o.materials.size()) + " materials)");
  d.details["faces"] = o.faces;
  d.details["texcoords"] = o.vt;
  d.details["normals"] = o.vn;
  d.details["lines"] = o.lines;
  d.details["points"] = o.points;
  d.details["groups"] = std::vector<std::string>(o.groups.begin(), o.groups.end());
  d.details["objects"] = std::vector<std::string>(o.objects.begin(), o.objects.end());
  d.details["materials"] = std::vector<std::string>(o.materials.begin(), o.materials.end());
  d.details["material_libraries"] = o.libraries;
  return d;
}

}  // namespace voxkit::mesh_info
