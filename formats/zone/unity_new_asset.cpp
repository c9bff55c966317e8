// A complete DigZoneData asset from a zone alone: the package's MonoBehaviour with every field
// it serializes, in its order (DigZoneData.cs), filled by the same writer as an update, then
// the sub-assets, all in id order as Unity saves them.
#include <string>

#include "formats/zone/unity_asset.hpp"
#include "formats/zone/unity_yaml.hpp"

namespace voxkit::unity {
namespace {

// The fields the writer fills are left at placeholders; the rest have the values of a bake:
// no stash, no foliage built, and no terrain named (it belongs to the user's project).
std::string skeleton(const Zone& z, const std::string& name, const std::string& guid) {
  const char* const head[] = {
      "%YAML 1.1",
      "%TAG !u! tag:unity3d.com,2011:",
      "--- !u!114 &11400000",
      "MonoBehaviour:",
      "  m_ObjectHideFlags: 0",
      "  m_CorrespondingSourceObject: {fileID: 0}",
      "  m_PrefabInstance: {fileID: 0}",
      "  m_PrefabAsset: {fileID: 0}",
      "  m_GameObject: {fileID: 0}",
      "  m_Enabled: 1",
      "  m_EditorHideFlags: 0",
  };
  const char* const fields[] = {
      "  m_EditorClassIdentifier: ",
      "  nx: 0",
      "  ny: 0",
      "  nz: 0",
      "  voxelSize: 0.5",
      "  chunkCells: 16",
      "  gridRle: ",
      "  paintRle: ",
      "  baseGridRle: ",
      "  legacyGrid: ",
      "  legacyPaint: ",
      "  legacyBaseGrid: ",
      "  origin: {x: 0, y: 0, z: 0}",
      "  hasOrigin: 0",
      "  latticeAnchor: {x: 0, y: 0, z: 0}",
      "  hasLatticeAnchor: 0",
      "  stashKeys: ",
      "  stashGrid: ",
      "  stashPaint: ",
      "  stashFlags: ",
      "  editBox: ",
      "  _gridVersion: 0",
      "  chunkMeshes: []",
      "  controlTex: {fileID: 0}",
      "  extraControlTex: []",
      "  layerCount: 0",
      "  heightTex: {fileID: 0}",
      "  controlST: {x: 0, y: 0, z: 0, w: 0}",
      "  heightST: {x: 0, y: 0, z: 0, w: 0}",
      "  heightRange: {x: 0, y: 0}",
      "  holeRect: {x: 0, y: 0, z: 0, w: 0}",
      "  terrainTrees: []",
      "  surfaceDetails: []",
      "  foliageMask: {fileID: 0}",
      "  detailMeshes: []",
      "  detailMaterials: []",
      "  foliageSignature: 0",
      "  foliageDetailSignature: 0",
      "  foliageCount: 0",
      "  cutTerrain: {fileID: 0}",
      "  cutRect:",
  };
  std::string s;
  for (const char* l : head) s += std::string(l) + "\n";
  s += "  m_Script: {fileID: 11500000, guid: " + guid + ", type: 3}\n";
  s += "  m_Name: " + name + "\n";
  for (const char* l : fields) s += std::string(l) + "\n";
  // A RectInt: a block mapping. cutPrevious: a bool per cell, x fastest.
  const ZoneHoleCut& cut = z.hole_cut;
  const bool has_cut = !cut.empty();
  s += "    x: " + std::to_string(has_cut ? cut.x : 0) + "\n";
  s += "    y: " + std::to_string(has_cut ? cut.z : 0) + "\n";
  s += "    width: " + std::to_string(has_cut ? cut.width : 0) + "\n";
  s += "    height: " + std::to_string(has_cut ? cut.depth : 0) + "\n";
  std::vector<uint8_t> previous;
  if (has_cut)
    for (uint8_t b : cut.previous) previous.push_back(b != 0);
  s += "  cutPrevious: " + to_hex(previous) + "\n";
  return s;
}

}  // namespace

std::string new_asset(const Zone& z, const ExportOptions& opts, ExportReport* report) {
  check_package_limits(z.meta.cells);
  const std::string name = opts.asset_name.empty() ? "DigZone" : opts.asset_name;
  // The writer checks the name and the guid, and writes the guid in lower case.
  ExportOptions o = opts;
  o.asset_name = name;
  const std::string text = skeleton(z, "DigZone", kScriptGuid);
  if (o.script_guid.empty()) o.script_guid = kScriptGuid;
  return sort_documents(write_asset(text, z, o, report, true));
}

}  // namespace voxkit::unity
