// Fuzz target: the `info` describers of meshes (glb, gltf, ply, stl, obj). The first byte
// picks the describer and whether the file carries the format's name (a named file that does
// not read is a data error, an unnamed one is not claimed); the rest is the file. What a
// describer returns must print as text and as JSON, with counts that agree.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "formats/core/identify.hpp"
#include "formats/mesh/mesh_info.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  using namespace voxkit;
  const std::span<const uint8_t> bytes(data + 1, size - 1);
  static const char* kExt[] = {".glb", ".gltf", ".ply", ".stl", ".obj"};
  const int which = data[0] % 5;
  const std::string name = std::string("fuzz") + ((data[0] & 0x80) ? kExt[which] : ".bin");
  std::optional<identify::Description> d;
  try {
    switch (which) {
      case 0: d = mesh_info::describe_glb(bytes, name); break;
      case 1: d = mesh_info::describe_gltf(bytes, name); break;
      case 2: d = mesh_info::describe_ply(bytes, name); break;
      case 3: d = mesh_info::describe_stl(bytes, name); break;
      default: d = mesh_info::describe_obj(bytes, name); break;
    }
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Data) std::abort();
    return 0;
  }
  if (!d) return 0;
  const nlohmann::json j = identify::to_json(*d, name, bytes.size());
  (void)j.dump();  // throws on text that is not UTF-8
  (void)identify::to_text(*d, name);
  const auto& det = j["details"];
  if (!det["vertices"].is_number_unsigned() || !det["triangles"].is_number_unsigned()) std::abort();
  if (d->format == "stl" && det["vertices"].get<uint64_t>() != 3 * det["triangles"].get<uint64_t>()) std::abort();
  return 0;
}
