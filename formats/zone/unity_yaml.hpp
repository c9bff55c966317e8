// Unity YAML text helpers shared by the DigZoneData reader and writers: the documents of an
// asset ("--- !u!CLASS &ID"), values and block sequences of the DigZoneData document, object
// ids, and text edits. Internal to formats/zone/unity_*.cpp.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "formats/zone/unity_asset.hpp"

namespace voxkit::unity {

// Unity's class ids of the objects in a DigZoneData asset.
inline constexpr int kClassTexture2D = 28;
inline constexpr int kClassMesh = 43;
inline constexpr int kClassMonoBehaviour = 114;
inline constexpr int64_t kZoneObjectId = 11400000;

// One document: its header line "--- !u!CLASS &ID" up to the next document (or the end).
struct Document {
  int class_id = 0;
  int64_t id = 0;
  size_t begin = 0, end = 0;
};
std::vector<Document> list_documents(std::string_view text);
const Document* find_document(const std::vector<Document>& docs, int64_t id);

// Fields of the DigZoneData document, read strictly: a data error names the field, its
// line and the byte offset of its value.
const Field* find_any(const ZoneDocument& d, std::initializer_list<const char*> keys);
const Field& need(const ZoneDocument& d, std::string_view key);
std::string where(const Field& f);
[[noreturn]] void bad_field(const Field& f, const std::string& what, std::string expected = {}, std::string found = {});
int64_t parse_int(std::string_view text, const Field& f, int64_t lo, int64_t hi);
// A float32 value (read as such, so a round trip through export is exact).
double parse_number(const std::string& s, const Field& f);
// "{x: 1, y: 2}" -> {x: 1, y: 2}; every name in `names` must be present.
std::map<std::string, double> parse_flow(std::string_view text, const Field& f, std::initializer_list<const char*> names);
// The bytes of a hex field ("" and "[]" are empty arrays).
std::vector<uint8_t> hex_field(std::string_view text, const Field& f);
// The raw grids of 0.3 and earlier (renamed legacy* in 0.4), as the import would use them.
struct LegacyFields {
  const Field *grid = nullptr, *paint = nullptr, *base = nullptr;
};
LegacyFields legacy_fields(const ZoneDocument& d);

// "\r\n" when the text uses it, else "\n".
std::string eol_of(std::string_view text);
std::string trimmed(std::string_view v);
std::string_view value_of(std::string_view text, const Field& f);
std::string trimmed_value(std::string_view text, const Field& f);

// The object id of a reference to an object of the same file ("{fileID: N}", no guid).
std::optional<int64_t> local_id(std::string_view value);
std::string file_ref(int64_t id);  // "{fileID: N}"

// Where the lines under field `f` end: the line of the next field, or the document's end.
size_t block_end(const ZoneDocument& d, const Field& f);
// The items of a block sequence of one-line items under `f` ("  - {fileID: 1}"), or none.
std::vector<std::string> sequence_items(std::string_view text, const ZoneDocument& d, const Field& f);
// The keys and values of a block mapping under `f` ("    x: 1").
std::map<std::string, std::string> block_mapping(std::string_view text, const ZoneDocument& d, const Field& f);

// Replaces the value of `f` ("key: value").
TextEdit value_edit(const Field& f, std::string value);
// Replaces everything after "key:" up to the next field with `items` (each a list of lines,
// the first after "- "), or " []" when there are none.
TextEdit sequence_edit(const ZoneDocument& d, const Field& f, const std::vector<std::vector<std::string>>& items,
                       const std::string& eol);

// Object ids in use, and new ones: the preferred id, or the first free one of preferred +
// k * step.
class IdPool {
 public:
  explicit IdPool(const std::vector<Document>& docs);
  bool taken(int64_t id) const { return taken_.count(id) > 0; }
  int64_t claim(int64_t preferred, int64_t step);

 private:
  std::set<int64_t> taken_;
};

// Everything an export writes, gathered before the text is put together.
struct ExportState {
  std::string_view text;
  ZoneDocument doc;
  std::vector<Document> docs;
  const Zone& zone;
  const ExportOptions& opts;
  bool fresh = false;  // a new asset (new_asset), not an update
  std::string name;    // the asset's m_Name, as written
  std::string eol;
  IdPool ids;
  std::vector<TextEdit> edits;
  std::map<int64_t, std::string> added;  // new documents by id
  ExportReport* report = nullptr;

  ExportState(std::string_view t, const Zone& z, const ExportOptions& o, ExportReport* r);
  void warn(const std::string& w) const;
  // Replaces document `doc` by `text` (or removes it when `text` is empty).
  void replace_document(const Document& doc, std::string text, const std::string& key);
};

// The chunk meshes and chunkMeshes (unity_derived.cpp).
void mesh_edits(ExportState& s);
// The control and height textures with layerCount, controlST, heightST and heightRange.
void texture_edits(ExportState& s);
// The foliage fields (unity_foliage.cpp): terrainTrees, surfaceDetails, foliageMask (a
// Texture2D sub-asset), and foliageSignature, foliageDetailSignature and foliageCount set to
// 0 (never built: the editor rebuilds its objects). Throws a usage error when the foliage is
// older than the grid.
void foliage_edits(ExportState& s);

// The zone written into `text` (unity_asset.cpp): its values, the objects that follow from
// it and its foliage; `fresh` for the skeleton of new_asset.
std::string write_asset(std::string_view text, const Zone& zone, const ExportOptions& opts, ExportReport* report,
                        bool fresh);

// The text with `edits` applied (they must not overlap) and the added documents after it,
// in id order.
std::string apply_edits(const ExportState& s);
// The same text with its documents in id order, as Unity saves an asset.
std::string sort_documents(std::string_view text);

}  // namespace voxkit::unity
