// DigZoneData assets written whole: the Mesh and Texture2D documents, new assets (field order,
// stable ids, the round trip through import), updates of an editor-made asset, the limits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <regex>

#include "formats/core/io.hpp"
#include "formats/zone/unity_asset.hpp"
#include "formats/zone/unity_mesh.hpp"
#include "lib/core/error.hpp"
#include "tests/test_util.hpp"
#include "tests/zone_fixture.hpp"

using namespace voxkit;

namespace {

std::string fixture(const std::string& name) {
  return io::read_text(std::string(VOXKIT_SOURCE_DIR) + "/test_data/unity/" + name);
}

// The text of document "--- !u!C &id" (up to the next document), or "".
std::string doc_of(const std::string& text, const std::string& id) {
  const std::regex head("(^|\n)--- !u![0-9]+ &" + id + "(\r?\n)");
  std::smatch m;
  if (!std::regex_search(text, m, head)) return "";
  const size_t begin = size_t(m.position(0)) + m.length(1);
  const size_t end = text.find("\n--- ", begin);
  return text.substr(begin, end == std::string::npos ? std::string::npos : end + 1 - begin);
}

// The MonoBehaviour's lines with the whole blocks of `keys` (key line and the lines under it)
// replaced by "<key>".
std::string without_blocks(const std::string& text, const std::vector<std::string>& keys) {
  const auto d = unity::find_zone_document(text);
  std::string out;
  size_t pos = d.begin;
  for (size_t i = 0; i < d.fields.size(); ++i) {
    const auto& f = d.fields[i];
    if (std::find(keys.begin(), keys.end(), f.key) == keys.end()) continue;
    const size_t end = i + 1 < d.fields.size() ? d.fields[i + 1].key_at - 2 : d.end;
    out += text.substr(pos, f.key_at - pos) + "<" + f.key + ">\n";
    pos = end;
  }
  return out + text.substr(pos, d.end - pos);
}

// Object ids of the Mesh documents by name.
std::map<std::string, std::string> mesh_ids(const std::string& text) {
  std::map<std::string, std::string> out;
  const std::regex re("--- !u!43 &(-?[0-9]+)\nMesh:\n(?:  .*\n){4}  m_Name: (.*)\n");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out[(*it)[2]] = (*it)[1];
  return out;
}

// A zone the package could bake: 9 x 6 x 8 cells, paint, heights, three splat layers, a cut.
Zone export_zone() {
  Zone z = test::sample_zone({9, 6, 8}, 3);
  z.unknown_sections.clear();
  z.meta.layer_names.clear();
  z.hole_cut.x = 130;
  z.hole_cut.z = 4;
  z.hole_cut.width = 3;
  z.hole_cut.depth = 2;
  z.hole_cut.previous = {1, 1, 0, 1, 1, 1};
  return z;
}

// The zone grown by `extra` cells on z (the last slice repeated).
Zone grown_z(const Zone& z, uint32_t extra) {
  Zone g = z;
  g.meta.cells.nz += extra;
  auto grow = [&](ByteGrid& b) {
    if (b.data.empty()) return;
    const size_t slice = z.meta.cells.sx() * z.meta.cells.sy();
    for (uint32_t k = 0; k < extra; ++k) b.data.insert(b.data.end(), b.data.end() - slice, b.data.end());
    b.cells = g.meta.cells;
  };
  grow(g.grid);
  grow(g.baked);
  grow(g.paint);
  auto grow_raster = [&](auto& r) {
    if (r.values.empty()) return;
    for (uint32_t k = 0; k < extra; ++k) r.values.insert(r.values.end(), r.values.end() - r.width, r.values.end());
    r.depth += extra;
  };
  grow_raster(g.height);
  for (auto& s : g.splat) grow_raster(s);
  g.meta.hole.max_z += extra * g.meta.voxel_size;  // the hole grows with it
  return g;
}

std::string usage_error(const std::function<void()>& f) {
  auto e = test::thrown_error(f);
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Usage);
  return e->what();
}

}  // namespace

TEST_CASE("unity mesh documents: Unity's layout, worked out by hand for a tiny mesh", "[unity]") {
  package::ChunkMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {5, 5, 5}};  // the last one unused
  m.normals.assign(4, {0, 1, 0});
  m.colors.assign(4, {1, 0, 0, 0});
  m.uv0.assign(4, {0.5f, 2});
  m.indices = {0, 2, 1};
  const std::string doc = unity::mesh_document(-42, "Z_Chunk_0_0_0", m, "\n");
  CHECK(doc.rfind("--- !u!43 &-42\nMesh:\n", 0) == 0);
  CHECK(doc.find("  m_Name: Z_Chunk_0_0_0\n  serializedVersion: 11\n") != std::string::npos);
  CHECK(doc.find("    indexCount: 3\n    topology: 0\n    baseVertex: 0\n    firstVertex: 0\n    vertexCount: 3\n"
                 "    localAABB:\n      m_Center: {x: 0.5, y: 0, z: 0.5}\n      m_Extent: {x: 0.5, y: 0, z: 0.5}\n") !=
        std::string::npos);
  CHECK(doc.find("  m_IndexFormat: 0\n  m_IndexBuffer: 000002000100\n") != std::string::npos);
  // 14 channels in Unity's attribute order; everything in stream 0, 48 bytes a vertex.
  std::string channels = "    m_Channels:\n";
  const int table[14][2] = {{0, 3}, {12, 3}, {0, 0}, {24, 4}, {40, 2}, {0, 0}, {0, 0},
                            {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
  for (const auto& c : table)
    channels += "    - stream: 0\n      offset: " + std::to_string(c[0]) + "\n      format: 0\n      dimension: " +
                std::to_string(c[1]) + "\n";
  CHECK(doc.find("    m_VertexCount: 4\n" + channels + "    m_DataSize: 192\n") != std::string::npos);
  // Vertex 0: position 0 0 0, normal 0 1 0, color 1 0 0 0, uv0 0.5 2 (little-endian floats).
  const std::string v0 = "000000000000000000000000" "000000000000803f00000000" "0000803f000000000000000000000000"
                         "0000003f00000040";
  CHECK(doc.find("    _typelessdata: " + v0 + "0000803f") != std::string::npos);
  // The whole mesh's box holds the unused vertex; the submesh's only the triangles'.
  CHECK(doc.find("  m_LocalAABB:\n    m_Center: {x: 2.5, y: 2.5, z: 2.5}\n    m_Extent: {x: 2.5, y: 2.5, z: 2.5}\n") !=
        std::string::npos);
  CHECK(doc.find("  m_CookingOptions: 30\n") != std::string::npos);
  const std::string tail = "  m_StreamData:\n    serializedVersion: 2\n    offset: 0\n    size: 0\n    path: \n";
  CHECK(doc.substr(doc.size() - tail.size()) == tail);

  // Lightmap UVs: uv1 at offset 48, 56 bytes a vertex; the submesh range starts at its first index.
  m.uv1.assign(4, {0.25f, 0.75f});
  m.indices = {1, 3, 2};
  const std::string lit = unity::mesh_document(7, "Z", m, "\r\n");
  CHECK(lit.find("      offset: 48\r\n      format: 0\r\n      dimension: 2\r\n") != std::string::npos);
  CHECK(lit.find("    m_DataSize: 224\r\n") != std::string::npos);
  CHECK(lit.find(v0 + "0000803e0000403f" + "0000803f") != std::string::npos);
  CHECK(lit.find("    firstVertex: 1\r\n    vertexCount: 3\r\n") != std::string::npos);
  CHECK(lit.find("\n") == lit.find("\r\n") + 1);

  // More than 65535 vertices: 32-bit indices.
  package::ChunkMesh big;
  big.positions.assign(65536, {0, 0, 0});
  big.normals.assign(65536, {0, 1, 0});
  big.colors.assign(65536, {0, 0, 0, 0});
  big.uv0.assign(65536, {0, 0});
  big.indices = {0, 65535, 1};
  const std::string b = unity::mesh_document(1, "B", big, "\n");
  CHECK(b.find("  m_IndexFormat: 1\n  m_IndexBuffer: 00000000ffff000001000000\n") != std::string::npos);
  CHECK(b.find("    firstVertex: 0\n    vertexCount: 65536\n") != std::string::npos);
}

TEST_CASE("unity textures: RHalf and RGBA32 documents read back, halves rounded to nearest even", "[unity]") {
  CHECK(unity::float_to_half(1.f) == 0x3c00);
  CHECK(unity::float_to_half(0.5f) == 0x3800);
  CHECK(unity::float_to_half(-2.f) == 0xc000);
  CHECK(unity::float_to_half(65504.f) == 0x7bff);
  CHECK(unity::float_to_half(65520.f) == 0x7c00);
  CHECK(unity::float_to_half(std::ldexp(1.f, -24)) == 1);
  CHECK(unity::float_to_half(std::ldexp(1.f, -25)) == 0);       // a tie: to even
  CHECK(unity::float_to_half(std::ldexp(3.f, -25)) == 2);       // a tie: to even
  CHECK(unity::float_to_half(1.f + std::ldexp(1.f, -11)) == 0x3c00);
  CHECK(unity::float_to_half(1.f + std::ldexp(3.f, -11)) == 0x3c02);
  for (uint32_t b = 0; b < 0x7c00; ++b) REQUIRE(unity::float_to_half(unity::half_to_float(uint16_t(b))) == b);

  unity::Texture t;
  t.name = "Z_Height";
  t.width = 3;
  t.height = 2;
  t.format = unity::kRHalf;
  t.data = {0, 0x3c, 0, 0x38, 1, 0, 0xff, 0x7b, 0, 0, 0, 0xc0};
  const std::string doc = unity::texture_document(2800010, t, "\n");
  CHECK(doc.find("  m_Width: 3\n  m_Height: 2\n  m_CompleteImageSize: 12\n  m_MipsStripped: 0\n  m_TextureFormat: 15\n") !=
        std::string::npos);
  CHECK(doc.find("    m_FilterMode: 1\n") != std::string::npos);
  CHECK(doc.find("  image data: 12\n  _typelessdata: 003c00380100ff7b000000c0\n") != std::string::npos);
  unity::Texture back;
  REQUIRE(unity::read_texture(doc, 0, doc.size(), back));
  CHECK(back.width == 3);
  CHECK(back.height == 2);
  CHECK(back.format == unity::kRHalf);
  CHECK(back.data == t.data);
  // Data that does not match the size is refused with its offset.
  std::string bad = doc;
  bad.replace(bad.find("000000c0\n"), 8, "0000c0");
  auto e = test::thrown_error([&] { unity::read_texture(bad, 0, bad.size(), back); });
  REQUIRE(e);
  CHECK(std::string(e->what()).find("does not match its size (expected 12 bytes, found 11 bytes)") != std::string::npos);
  CHECK(e->offset() == doc.find("_typelessdata: ") + 15);
  std::string dxt = doc;
  dxt.replace(dxt.find("m_TextureFormat: 15"), 19, "m_TextureFormat: 10");
  CHECK_FALSE(unity::read_texture(dxt, 0, dxt.size(), back));
}

TEST_CASE("unity new asset: every field in the package's order, sub-assets by id", "[unity]") {
  const Zone z = export_zone();
  unity::ExportOptions o;
  o.asset_name = "Pit Zone";
  unity::ExportReport r;
  const std::string a = unity::new_asset(z, o, &r);
  const auto d = unity::find_zone_document(a);
  std::vector<std::string> keys;
  for (const auto& f : d.fields) keys.push_back(f.key);
  const std::vector<std::string> want = {
      "m_ObjectHideFlags", "m_CorrespondingSourceObject", "m_PrefabInstance", "m_PrefabAsset", "m_GameObject",
      "m_Enabled", "m_EditorHideFlags", "m_Script", "m_Name", "m_EditorClassIdentifier", "nx", "ny", "nz",
      "voxelSize", "chunkCells", "gridRle", "paintRle", "baseGridRle", "legacyGrid", "legacyPaint",
      "legacyBaseGrid", "origin", "hasOrigin", "latticeAnchor", "hasLatticeAnchor", "stashKeys", "stashGrid",
      "stashPaint", "stashFlags", "editBox", "_gridVersion", "chunkMeshes", "controlTex", "extraControlTex",
      "layerCount", "heightTex", "controlST", "heightST", "heightRange", "holeRect", "terrainTrees",
      "surfaceDetails", "foliageMask", "detailMeshes", "detailMaterials", "foliageSignature",
      "foliageDetailSignature", "foliageCount", "cutTerrain", "cutRect", "cutPrevious"};
  CHECK(keys == want);
  CHECK(a.rfind("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!28 &2800000\nTexture2D:\n", 0) == 0);
  CHECK(a.find("  m_Script: {fileID: 11500000, guid: 1de369fa44d90634c98ae013c6de8c31, type: 3}\n  m_Name: Pit Zone\n") !=
        std::string::npos);
  CHECK(a.find("  origin: {x: 32.5, y: -1.25, z: 0.001}\n  hasOrigin: 1\n"
               "  latticeAnchor: {x: 32.5, y: -1.25, z: 0.001}\n  hasLatticeAnchor: 1\n") != std::string::npos);
  CHECK(a.find("  _gridVersion: 7\n") != std::string::npos);
  CHECK(a.find("  controlTex: {fileID: 2800000}\n  extraControlTex: []\n  layerCount: 3\n  heightTex: {fileID: 2800010}\n") !=
        std::string::npos);
  // Both textures on the zone's columns: one transform. heightRange is the heights' own range.
  CHECK(a.find("  controlST: {x: 0.4, y: 0.44444445, z: -12.95, w: 0.05511111}\n"
               "  heightST: {x: 0.4, y: 0.44444445, z: -12.95, w: 0.05511111}\n"
               "  heightRange: {x: -3, y: 8.125}\n") != std::string::npos);
  CHECK(a.find("  cutTerrain: {fileID: 0}\n  cutRect:\n    x: 130\n    y: 4\n    width: 3\n    height: 2\n"
               "  cutPrevious: 010100010101\n") != std::string::npos);
  CHECK(doc_of(a, "2800000").find("  m_Name: Pit Zone_Control\n") != std::string::npos);
  CHECK(doc_of(a, "2800010").find("  m_TextureFormat: 15\n") != std::string::npos);
  // Ids in ascending order, as Unity saves; the MonoBehaviour is 11400000.
  std::vector<long long> ids;
  const std::regex head("\n--- !u![0-9]+ &(-?[0-9]+)\n");
  for (auto it = std::sregex_iterator(a.begin(), a.end(), head); it != std::sregex_iterator(); ++it)
    ids.push_back(std::stoll((*it)[1]));
  CHECK(std::is_sorted(ids.begin(), ids.end()));
  CHECK(std::count(ids.begin(), ids.end(), 11400000) == 1);
  CHECK(r.meshes > 0);
  CHECK(r.meshes == mesh_ids(a).size());
  CHECK(r.textures == 2);
  // The chunk meshes: named after the asset and the chunk, listed in ChunkIndex order.
  for (const auto& [name, id] : mesh_ids(a)) {
    std::smatch m;
    REQUIRE(std::regex_match(name, m, std::regex("Pit Zone_Chunk_([0-9]+)_([0-9]+)_([0-9]+)")));
    const long long want_id = 43000000000000LL + std::stoll(m[3]) * 100000000LL + std::stoll(m[2]) * 10000 + std::stoll(m[1]);
    CHECK(id == std::to_string(want_id));
    const size_t k = std::stoul(m[1]) + 3 * (std::stoul(m[2]) + 2 * std::stoul(m[3]));  // 3 x 2 x 2 chunks
    const auto items = a.substr(a.find("  chunkMeshes:\n"), a.find("  controlTex:") - a.find("  chunkMeshes:\n"));
    size_t at = items.find('\n');
    for (size_t i = 0; i < k; ++i) at = items.find('\n', at + 1);
    const std::string item = "  - {fileID: " + id + "}\n";
    CHECK(items.compare(at + 1, item.size(), item) == 0);
  }
}

TEST_CASE("unity new asset: the same zone gives the same bytes, also through an import", "[unity]") {
  const Zone z = export_zone();
  const std::string a = unity::new_asset(z);
  CHECK(unity::new_asset(z) == a);
  const Zone back = unity::import_asset(a, "a.asset");
  CHECK(back.grid.data == z.grid.data);
  CHECK(back.paint.data == z.paint.data);
  CHECK(back.splat.size() == 3);
  for (size_t l = 0; l < 3; ++l) CHECK(back.splat[l].values == z.splat[l].values);
  REQUIRE(back.height.values.size() == z.height.values.size());
  for (size_t i = 0; i < z.height.values.size(); ++i) CHECK(std::fabs(back.height.values[i] - z.height.values[i]) < 0.01f);
  CHECK(back.hole_cut.x == 130);
  CHECK(back.hole_cut.depth == 2);
  CHECK(back.hole_cut.resolution == 0);
  CHECK(back.hole_cut.previous == z.hole_cut.previous);
  CHECK(unity::new_asset(back) == a);
  CHECK(unity::new_asset(unity::import_asset(unity::new_asset(back), "b")) == a);
  // Without lightmap UVs, 48 bytes a vertex.
  unity::ExportOptions o;
  o.lightmap_size = 0;
  const std::string plain = unity::new_asset(z, o);
  CHECK(plain.find("      offset: 48\n") == std::string::npos);
  CHECK(a.find("      offset: 48\n") != std::string::npos);
}

TEST_CASE("unity new asset: a zone with one chunk more keeps the other chunks' ids", "[unity]") {
  const Zone z = unity::import_asset(fixture("pit.asset"), "pit.asset");
  const auto a = mesh_ids(unity::new_asset(z));
  const auto b = mesh_ids(unity::new_asset(grown_z(z, 4)));
  REQUIRE(a.size() == 4);
  CHECK(b.size() == 6);
  for (const auto& [name, id] : a) CHECK(b.at(name) == id);
  CHECK(b.at("DigZone_Chunk_1_0_2") == "43000200000001");
}

TEST_CASE("unity update: listed meshes replaced in place, the rest of an editor's asset kept", "[unity]") {
  const std::string text = fixture("pit.asset");
  const Zone z = unity::import_asset(text, "pit.asset");
  REQUIRE(z.height.values.size() == 81);  // the height texture lies on the zone's columns
  CHECK(z.splat.empty());                 // the editor's control texture follows the terrain's alphamap
  CHECK(z.height.values[4 + 9 * 4] == 0.875f);
  CHECK(z.hole_cut.width == 3);
  unity::ExportReport r;
  const std::string out = unity::update_asset(text, z, {}, &r);
  CHECK(out.find("  chunkMeshes:\n  - {fileID: -7011122233344455566}\n  - {fileID: 43000000000001}\n"
                 "  - {fileID: 1234567890123456789}\n  - {fileID: 5555666677778888999}\n  controlTex:") != std::string::npos);
  const auto ids = mesh_ids(out);
  CHECK(ids.at("DigZone_Pit_Chunk_0_0_0") == "-7011122233344455566");
  CHECK(ids.at("DigZone_Pit_Chunk_1_0_0") == "43000000000001");
  CHECK(ids.at("DigZone_Pit_Chunk_1_0_1") == "5555666677778888999");
  CHECK(r.meshes == 4);
  CHECK(r.meshes_removed == 0);
  // A mesh the list does not name, and the control texture (the zone has no splat), are kept.
  CHECK(doc_of(out, "3141592653589793238") == doc_of(text, "3141592653589793238"));
  CHECK(doc_of(out, "-8000000000000000001") == doc_of(text, "-8000000000000000001"));
  // The height texture written again from the heights read: the same bytes.
  CHECK(!doc_of(text, "8000000000000000001").empty());
  CHECK(doc_of(out, "8000000000000000001") == doc_of(text, "8000000000000000001"));
  CHECK(r.textures == 1);
  CHECK(out.find("  latticeAnchor: {x: 32, y: -1, z: 32}\n  hasLatticeAnchor: 1\n") != std::string::npos);
  CHECK(out.find("  _gridVersion: 5\n") != std::string::npos);
  // Every value the export does not own is kept byte for byte.
  const std::vector<std::string> owned = {"nx", "ny", "nz", "voxelSize", "chunkCells", "gridRle", "paintRle",
                                          "baseGridRle", "origin", "hasOrigin", "latticeAnchor", "hasLatticeAnchor",
                                          "editBox", "_gridVersion", "chunkMeshes", "heightTex", "heightST",
                                          "heightRange", "holeRect"};
  CHECK(without_blocks(out, owned) == without_blocks(text, owned));
  for (const auto& k : {"heightRange", "heightST", "controlST", "cutRect", "cutPrevious", "cutTerrain"}) {
    const auto d0 = unity::find_zone_document(text), d1 = unity::find_zone_document(out);
    CHECK(text.substr(d0.find(k)->value_begin, d0.find(k)->value_end - d0.find(k)->value_begin) ==
          out.substr(d1.find(k)->value_begin, d1.find(k)->value_end - d1.find(k)->value_begin));
  }
  // Exported again into its own output: the same bytes but the version.
  std::string again = unity::update_asset(out, z);
  again.replace(again.find("  _gridVersion: 6\n"), 18, "  _gridVersion: 5\n");
  CHECK(again == out);
  // CRLF line ends stay CRLF.
  const std::string crlf = std::regex_replace(text, std::regex("\n"), "\r\n");
  CHECK(unity::update_asset(crlf, z) == std::regex_replace(out, std::regex("\n"), "\r\n"));
}

TEST_CASE("unity update: chunks left without a surface lose their meshes", "[unity]") {
  const std::string text = fixture("pit.asset");
  Zone z = unity::import_asset(text, "pit.asset");
  std::fill(z.grid.data.begin(), z.grid.data.end(), uint8_t(200));
  unity::ExportReport r;
  const std::string out = unity::update_asset(text, z, {}, &r);
  CHECK(r.meshes == 0);
  CHECK(r.meshes_removed == 3);
  CHECK(out.find("  chunkMeshes:\n  - {fileID: 0}\n  - {fileID: 0}\n  - {fileID: 0}\n  - {fileID: 0}\n") != std::string::npos);
  CHECK(mesh_ids(out).size() == 1);  // the one the list never named
  CHECK(unity::import_asset(out, "out").grid.data == z.grid.data);
}

TEST_CASE("unity update: splat layers replace the control textures, extra ones come and go", "[unity]") {
  const std::string text = fixture("pit.asset");
  Zone z = unity::import_asset(text, "pit.asset");
  for (int l = 0; l < 5; ++l) {
    ColumnRaster<uint8_t> s;
    s.width = 9;
    s.depth = 9;
    s.values = test::random_bytes(81, 40 + l);
    z.splat.push_back(s);
  }
  unity::ExportReport r;
  const std::string five = unity::update_asset(text, z, {}, &r);
  CHECK(r.textures == 3);
  CHECK(five.find("  controlTex: {fileID: -8000000000000000001}\n  extraControlTex:\n  - {fileID: 2800002}\n"
                  "  layerCount: 5\n") != std::string::npos);
  CHECK(doc_of(five, "2800002").find("  m_Name: DigZone_Pit_Control1\n") != std::string::npos);
  CHECK(doc_of(five, "-8000000000000000001").find("  m_Width: 9\n") != std::string::npos);
  CHECK(five.find("  controlST: {x: 0.22222222, y: 0.22222222, z: -7.0555553, w: -7.0555553}\n") != std::string::npos);
  const Zone back = unity::import_asset(five, "five");
  REQUIRE(back.splat.size() == 5);
  for (size_t l = 0; l < 5; ++l) CHECK(back.splat[l].values == z.splat[l].values);
  z.splat.resize(2);
  const std::string two = unity::update_asset(five, z, {}, &r);
  CHECK(r.textures_removed == 1);
  CHECK(doc_of(two, "2800002").empty());
  CHECK(two.find("  extraControlTex: []\n  layerCount: 2\n") != std::string::npos);
}

TEST_CASE("unity export: the package's limits, names and guids", "[unity]") {
  Zone z = export_zone();
  z.meta.cells = {8, 3, 8};
  CHECK(usage_error([&] { unity::new_asset(z); }).find("8 x 3 x 8 cells, fewer than the dig-zone package bakes "
                                                       "(\"Cells must be at least 8 x 4 x 8.\")") != std::string::npos);
  CHECK(usage_error([&] { unity::update_asset(fixture("pit.asset"), z); }).find("Cells must be at least") != std::string::npos);
  z.meta.cells = {4096, 4, 8};
  CHECK(usage_error([&] { unity::new_asset(z); }).find("(\"Cells per axis must be at most 4095.\")") != std::string::npos);
  z.meta.cells = {1024, 127, 1023};
  CHECK(usage_error([&] { unity::new_asset(z); }).find("limit of 134217728 (128 Mi)") != std::string::npos);
  // The largest zones the package takes pass the limits (and fail later on the missing grid).
  z.meta.cells = {4095, 4, 8};
  CHECK(usage_error([&] { unity::new_asset(z); }).find("Cells per axis") == std::string::npos);

  const Zone ok = export_zone();
  unity::ExportOptions o;
  o.asset_name = "bad: name";
  auto e = test::thrown_error([&] { unity::new_asset(ok, o); });
  REQUIRE(e);
  CHECK(e->has_hint("asset-name"));
  o.asset_name = "";
  o.script_guid = "1234";
  e = test::thrown_error([&] { unity::new_asset(ok, o); });
  REQUIRE(e);
  CHECK(e->has_hint("script-guid"));
  o.script_guid = "0123456789ABCDEF0123456789abcdef";
  CHECK(unity::new_asset(ok, o).find("guid: 0123456789abcdef0123456789abcdef, type: 3}") != std::string::npos);
  const std::string up = unity::update_asset(fixture("pit.asset"), unity::import_asset(fixture("pit.asset"), "p"), o);
  CHECK(up.find("guid: 0123456789abcdef0123456789abcdef, type: 3}") != std::string::npos);
  CHECK(up.find("  m_Name: DigZone_Pit\n") != std::string::npos);
}
