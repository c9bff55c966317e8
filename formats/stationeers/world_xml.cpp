// Stationeers world.xml: rooms and terrain chunk checksums read with the tolerant
// tokenizer, and checksum values replaced in place, byte for byte.
#include "formats/stationeers/world_xml.hpp"

#include <charconv>

#include "formats/stationeers/xml_scan.hpp"
#include "lib/core/error.hpp"

namespace voxkit::world_xml {
namespace {

using xml::Kind;
using xml::Token;

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The integer written in xml[begin, end), surrounding whitespace allowed.
int64_t parse_int(std::string_view xml, uint64_t begin, uint64_t end, std::string_view what) {
  uint64_t b = begin, e = end;
  while (b < e && is_space(xml[b])) ++b;
  while (e > b && is_space(xml[e - 1])) --e;
  std::string_view s = xml.substr(b, e - b);
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
    std::string found = s.size() > 24 ? std::string(s.substr(0, 24)) + "..." : std::string(s);
    throw_data("<" + std::string(what) + "> does not hold an integer", b, "an integer",
               s.empty() ? std::string("nothing") : "'" + found + "'");
  }
  return v;
}

// Reads the text content of the element just started by `start`, up to its end tag.
// Returns [content_begin, content_end); a child element is an error.
std::pair<uint64_t, uint64_t> value_content(xml::Walker& w, const Token& start) {
  for (;;) {
    Token t = w.next();
    if (t.kind == Kind::End) return {start.end, t.begin};
    if (t.kind == Kind::Start || t.kind == Kind::Empty) {
      throw_data("<" + std::string(start.name) + "> holds an element", t.begin, "a number",
                 "<" + std::string(t.name) + ">");
    }
    if (t.kind == Kind::Cdata) {
      throw_data("<" + std::string(start.name) + "> holds a CDATA section", t.begin,
                 "a number", "CDATA");
    }
  }
}

struct ChecksumSlot {
  uint64_t begin = 0, end = 0;  // the bytes to replace: content, or the whole empty tag
  bool empty_tag = false;
  int64_t value = 0;
};

std::vector<ChecksumSlot> find_checksums(std::string_view doc) {
  std::vector<ChecksumSlot> slots;
  xml::Walker w(doc);
  for (;;) {
    Token t = w.next();
    if (t.kind == Kind::Eof) break;
    if ((t.kind == Kind::Start || t.kind == Kind::Empty) && t.name == "int" &&
        w.parent(t.kind == Kind::Start ? 1 : 0) == "TerrainChunkChecksums") {
      ChecksumSlot s;
      if (t.kind == Kind::Empty) {
        s.begin = t.begin;
        s.end = t.end;
        s.empty_tag = true;
      } else {
        auto [b, e] = value_content(w, t);
        s.value = parse_int(doc, b, e, "int");
        // Only the number is replaced: whitespace around it stays.
        while (b < e && is_space(doc[b])) ++b;
        while (e > b && is_space(doc[e - 1])) --e;
        s.begin = b;
        s.end = e;
      }
      slots.push_back(s);
    }
  }
  return slots;
}

}  // namespace

std::vector<octree::Room> read_rooms(std::string_view doc) {
  std::vector<octree::Room> rooms;
  xml::Walker w(doc);
  for (;;) {
    Token t = w.next();
    if (t.kind == Kind::Eof) break;
    if (t.kind == Kind::Empty && t.name == "Room" && w.parent(0) == "Rooms") {
      rooms.emplace_back();
      continue;
    }
    if (t.kind == Kind::Empty && t.name == "Grid" && w.parent(0) == "Grids" &&
        w.parent(1) == "Room" && w.parent(2) == "Rooms") {
      throw_data("<Grid/> has no coordinates", t.begin, "<x>, <y> and <z>", "an empty element");
    }
    if (t.kind != Kind::Start) continue;
    if (t.name == "Room" && w.parent(1) == "Rooms") {
      rooms.emplace_back();
    } else if (t.name == "Grid" && w.parent(1) == "Grids" && w.parent(2) == "Room" &&
               w.parent(3) == "Rooms") {
      octree::RoomCell cell;
      bool seen[3] = {false, false, false};
      for (;;) {
        Token c = w.next();
        if (c.kind == Kind::End) break;  // </Grid>: the walker checked the name
        if (c.kind == Kind::Empty && c.name.size() == 1 && c.name[0] >= 'x' && c.name[0] <= 'z') {
          throw_data("<" + std::string(c.name) + "/> is empty", c.begin, "a number", "nothing");
        }
        if (c.kind != Kind::Start) continue;
        if (c.name.size() == 1 && c.name[0] >= 'x' && c.name[0] <= 'z') {
          int axis = c.name[0] - 'x';
          auto [b, e] = value_content(w, c);
          int64_t v = parse_int(doc, b, e, c.name);
          (axis == 0 ? cell.x : axis == 1 ? cell.y : cell.z) = v;
          seen[axis] = true;
        } else {
          // Another child of <Grid>: skip it whole.
          size_t depth = w.stack().size();
          while (w.stack().size() >= depth) {
            if (w.next().kind == Kind::Eof) break;
          }
        }
      }
      for (int a = 0; a < 3; ++a) {
        if (!seen[a]) {
          throw_data("<Grid> lacks <" + std::string(1, char('x' + a)) + ">", t.begin,
                     "<x>, <y> and <z>", "no <" + std::string(1, char('x' + a)) + ">");
        }
      }
      if (rooms.empty()) rooms.emplace_back();
      rooms.back().cells.push_back(cell);
    }
  }
  return rooms;
}

std::vector<int64_t> read_checksums(std::string_view doc) {
  std::vector<int64_t> out;
  for (auto& s : find_checksums(doc)) out.push_back(s.value);
  return out;
}

std::string replace_checksums(std::string_view doc, const std::vector<int64_t>& values) {
  auto slots = find_checksums(doc);
  if (!values.empty() && values.size() != slots.size()) {
    throw_usage(std::to_string(values.size()) + " checksum values given for " +
                std::to_string(slots.size()) + " <TerrainChunkChecksums> entries");
  }
  std::string out;
  out.reserve(doc.size() + slots.size() * 12);
  uint64_t at = 0;
  for (size_t i = 0; i < slots.size(); ++i) {
    const int64_t v = values.empty() ? 0 : values[i];
    if (v < INT32_MIN || v > INT32_MAX) {
      throw_usage("checksum value " + std::to_string(v) + " does not fit a 32-bit int");
    }
    out.append(doc.substr(at, slots[i].begin - at));
    std::string text = std::to_string(v);
    if (slots[i].empty_tag) text = "<int>" + text + "</int>";
    out += text;
    at = slots[i].end;
  }
  out.append(doc.substr(at));
  return out;
}

}  // namespace voxkit::world_xml
