// Descriptions of .save archives and world.xml for `voxkit info`.
#include "formats/stationeers/save_info.hpp"

#include <algorithm>
#include <string_view>

#include "formats/stationeers/save.hpp"
#include "formats/stationeers/world_xml.hpp"
#include "formats/stationeers/xml_scan.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/core/error.hpp"
#include "lib/octree/octree_shapes.hpp"

namespace voxkit::save_info {
namespace {

// Rooms and checksums of a world.xml, as fields and a JSON object.
nlohmann::json world_summary(std::string_view doc, identify::Description& d) {
  auto rooms = world_xml::read_rooms(doc);
  auto sums = world_xml::read_checksums(doc);
  uint64_t cells = 0, zero = 0;
  for (auto& r : rooms) cells += r.cells.size();
  for (int64_t s : sums) zero += s == 0;
  const Box3i all = octree::rooms_bounding_box(rooms, 0);
  d.fields.push_back({"rooms", std::to_string(rooms.size()) + " (" + std::to_string(cells) +
                                   " cells), bounding box " + box_text(all)});
  d.fields.push_back({"chunk checksums", std::to_string(sums.size()) + " (" +
                                             std::to_string(zero) + " zero)"});
  return {{"bytes", doc.size()},          {"rooms", rooms.size()},
          {"cells", cells},               {"rooms_bbox", box_json(all)},
          {"checksums", sums.size()},     {"zero_checksums", zero}};
}

}  // namespace

nlohmann::json box_json(const Box3i& b) {
  if (b.empty()) return nullptr;
  return {{"min", {b.min[0], b.min[1], b.min[2]}}, {"max", {b.max[0], b.max[1], b.max[2]}}};
}

std::string box_text(const Box3i& b) {
  if (b.empty()) return "-";
  auto p = [](const Vec3i& v) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
           std::to_string(v[2]) + ")";
  };
  return p(b.min) + " .. " + p(b.max);
}

std::optional<identify::Description> describe_save(std::span<const uint8_t> bytes,
                                                   const std::string& name) {
  if (!zip::starts_like_zip(bytes)) return std::nullopt;
  auto members = save::list_members(bytes);
  bool has_world = false, has_terrain = false;
  for (auto& m : members) {
    has_world = has_world || m.name == "world.xml";
    has_terrain = has_terrain || m.name == "terrain.dat";
  }
  if (!has_world && !has_terrain) return std::nullopt;
  identify::Description d;
  d.format = "stationeers-save";
  d.summary = "Stationeers save (ZIP, " + std::to_string(members.size()) + " members)";
  std::string list;
  nlohmann::json jm = nlohmann::json::array();
  for (auto& m : members) {
    list += (list.empty() ? "" : ", ") + m.name;
    jm.push_back({{"name", m.name}, {"method", m.method}, {"size", m.size},
                  {"compressed_size", m.compressed_size}});
  }
  d.fields.push_back({"members", list});
  d.details["members"] = jm;
  d.details["terrain_dat"] = nullptr;
  d.details["world_xml"] = nullptr;
  if (has_terrain) {
    auto t = save::read_member(bytes, "terrain.dat", uint64_t(4) << 30);
    int32_t depth = t.size() >= 4 ? int32_t(uint32_t(t[0]) | uint32_t(t[1]) << 8 |
                                            uint32_t(t[2]) << 16 | uint32_t(t[3]) << 24)
                                  : -1;
    d.fields.push_back({"terrain.dat", std::to_string(t.size()) + " bytes, maxDepth " +
                                           (depth >= 0 ? std::to_string(depth) : "-")});
    d.details["terrain_dat"] = {{"bytes", t.size()},
                                {"max_depth", depth >= 0 ? nlohmann::json(depth) : nullptr}};
  }
  if (has_world) {
    auto w = save::read_member(bytes, "world.xml", uint64_t(4) << 30);
    std::string_view doc(reinterpret_cast<const char*>(w.data()), w.size());
    d.fields.push_back({"world.xml", std::to_string(w.size()) + " bytes"});
    try {
      d.details["world_xml"] = world_summary(doc, d);
    } catch (Error& e) {
      e.set_source(name + ": world.xml");
      throw;
    }
  }
  return d;
}

std::optional<identify::Description> describe_world_xml(std::span<const uint8_t> bytes,
                                                        const std::string& name) {
  std::string_view doc(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  // The root element must be <WorldData>, after an optional BOM, declaration, comments.
  std::string_view rest = doc.starts_with("\xEF\xBB\xBF") ? doc.substr(3) : doc;
  xml::Tokenizer tok(rest.substr(0, std::min<size_t>(rest.size(), 1 << 16)));
  for (;;) {
    xml::Token t;
    try {
      t = tok.next();
    } catch (const Error&) {
      return std::nullopt;
    }
    if (t.kind == xml::Kind::Start || t.kind == xml::Kind::Empty) {
      if (t.name != "WorldData") return std::nullopt;
      break;
    }
    if (t.kind == xml::Kind::Text) {
      for (uint64_t i = t.begin; i < t.end; ++i) {
        const char c = rest[i];
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return std::nullopt;
      }
    } else if (t.kind != xml::Kind::Pi && t.kind != xml::Kind::Comment &&
               t.kind != xml::Kind::Doctype) {
      return std::nullopt;
    }
  }
  identify::Description d;
  d.format = "world-xml";
  d.summary = "Stationeers world.xml";
  d.details = world_summary(doc, d);
  return d;
}

}  // namespace voxkit::save_info
