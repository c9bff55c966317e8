// OBJ, PLY and STL writers: binary layouts filled in parallel runs of elements at offsets
// known up front, text formatted in parallel blocks and appended in order.
#include "formats/mesh/simple_writers.hpp"

#include "formats/core/write_behind.hpp"

#include <tbb/parallel_for.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

namespace voxkit::simple_writers {
namespace {

using mesh_scene::Scene;
using mesh_scene::SceneMesh;

// A run of lines of one mesh: `section` says which lines, [lo, hi) which items.
struct Block {
  size_t mesh;
  int section;
  size_t lo, hi;
};
constexpr size_t kBlockItems = 8192;
constexpr size_t kWaveBlocks = 64;  // blocks formatted at once: bounds the text held twice

void add_blocks(std::vector<Block>& blocks, size_t mesh, int section, size_t n) {
  for (size_t lo = 0; lo < n; lo += kBlockItems) blocks.push_back({mesh, section, lo, std::min(n, lo + kBlockItems)});
}

// Where the bytes go: small pieces gathered and handed on about 16 MiB at a time, large ones
// (a slab) handed on directly; each written while the next is made.
constexpr size_t kSlabBytes = size_t(16) << 20;
struct Out {
  explicit Out(const Sink& sink) : behind(sink) {}
  io::WriteBehind behind;
  std::vector<uint8_t> buf;
  uint64_t total = 0;
  void put(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    buf.insert(buf.end(), b, b + n);
    if (buf.size() >= kSlabBytes) flush();
  }
  void put(const std::string& t) { put(t.data(), t.size()); }
  // Returns a buffer to fill next.
  std::vector<uint8_t> direct(std::vector<uint8_t> slab) {
    flush();
    total += slab.size();
    return behind.write(std::move(slab));
  }
  void flush() {
    if (buf.empty()) return;
    total += buf.size();
    buf = behind.write(std::move(buf));
  }
  // Everything written; the byte count.
  uint64_t finish() {
    flush();
    behind.finish();
    return total;
  }
};

// Formats the blocks in parallel, a wave at a time, and appends their text in order.
template <class Format>
void append_blocks(Out& out, const std::vector<Block>& blocks, Format&& format) {
  for (size_t w = 0; w < blocks.size(); w += kWaveBlocks) {
    const size_t n = std::min(kWaveBlocks, blocks.size() - w);
    std::vector<std::string> text(n);
    tbb::parallel_for(size_t(0), n, [&](size_t k) { format(blocks[w + k], text[k]); });
    for (const auto& t : text) out.put(t);
  }
}

// A binary section of `count` meshes, mesh i holding items(i) elements of `size` bytes:
// filled in slabs of about kSlabBytes cut between elements, each slab in runs of at most
// kRunItems elements on every core (so one large merged mesh is filled in parallel too);
// fill(i, lo, hi, at) writes elements lo .. hi - 1 of mesh i at `at`. The bytes are those of
// the meshes in order, however they are cut.
constexpr size_t kRunItems = 32768;
template <class Items, class Fill>
void binary_section(Out& out, size_t count, size_t size, Items&& items, Fill&& fill) {
  struct Run {
    size_t mesh, lo, hi;
    uint64_t at;
  };
  const uint64_t per_slab = std::max<uint64_t>(1, kSlabBytes / size);
  std::vector<Run> runs;
  std::vector<uint8_t> slab;
  size_t i = 0, e = 0;  // the next element: e of mesh i
  for (;;) {
    runs.clear();
    uint64_t used = 0;
    while (i < count && used < per_slab) {
      const size_t n = items(i);
      if (e >= n) {
        ++i, e = 0;
        continue;
      }
      const size_t take = size_t(std::min<uint64_t>({uint64_t(n - e), per_slab - used, kRunItems}));
      runs.push_back({i, e, e + take, used * size});
      e += take, used += take;
    }
    if (used == 0) return;
    slab.resize(size_t(used * size));
    tbb::parallel_for(size_t(0), runs.size(), [&](size_t r) {
      fill(runs[r].mesh, runs[r].lo, runs[r].hi, slab.data() + runs[r].at);
    });
    slab = out.direct(std::move(slab));
  }
}

// The vector a sink-based writer fills.
template <class Write>
std::vector<uint8_t> collect(Write&& write) {
  std::vector<uint8_t> bytes;
  write([&bytes](const uint8_t* p, size_t n) { bytes.insert(bytes.end(), p, p + n); });
  return bytes;
}

void put_float(std::string& s, float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}
void put_uint(std::string& s, uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}

uint8_t byte_weight(float w) { return uint8_t(std::lround(mesh_scene::clamp01(w) * 255.0f)); }


// --- OBJ

enum ObjSection { kObjGroup, kObjV, kObjVt, kObjVn, kObjF };

}  // namespace

uint64_t write_obj(const Scene& scene, const Sink& sink) {
  const size_t nm = scene.meshes.size();
  // 1-based numbers of each mesh's first v, vt and vn line.
  std::vector<std::array<uint64_t, 3>> base(nm);
  std::array<uint64_t, 3> next{1, 1, 1};
  std::vector<Block> blocks;
  for (size_t i = 0; i < nm; ++i) {
    const Mesh& m = *scene.meshes[i].mesh;
    base[i] = next;
    next[0] += m.vertex_count();
    if (!m.uv0.empty()) next[1] += m.vertex_count();
    if (!m.normals.empty()) next[2] += m.vertex_count();
    blocks.push_back({i, kObjGroup, 0, 0});
    add_blocks(blocks, i, kObjV, m.vertex_count());
    if (!m.uv0.empty()) add_blocks(blocks, i, kObjVt, m.vertex_count());
    if (!m.normals.empty()) add_blocks(blocks, i, kObjVn, m.vertex_count());
    add_blocks(blocks, i, kObjF, m.triangle_count());
  }
  Out out(sink);
  out.put(std::string("# voxkit " VOXKIT_VERSION "\n"));
  append_blocks(out, blocks, [&](const Block& b, std::string& s) {
    const SceneMesh& sm = scene.meshes[b.mesh];
    const Mesh& m = *sm.mesh;
    switch (b.section) {
      case kObjGroup:
        s += "g " + sm.name + "\n";
        break;
      case kObjV:
        for (size_t v = b.lo; v < b.hi; ++v) {
          const auto p = sm.frame.position(m.positions[v]);
          s += "v ";
          for (int a = 0; a < 3; ++a) put_float(s, p[size_t(a)]), s += a < 2 ? " " : "";
          if (!m.colors.empty())
            for (int c = 0; c < 3; ++c) s += ' ', put_float(s, mesh_scene::clamp01(m.colors[v][size_t(c)]));
          s += '\n';
        }
        break;
      case kObjVt:
        for (size_t v = b.lo; v < b.hi; ++v) {
          s += "vt ";
          put_float(s, m.uv0[v][0]);
          s += ' ';
          put_float(s, m.uv0[v][1]);
          s += '\n';
        }
        break;
      case kObjVn:
        for (size_t v = b.lo; v < b.hi; ++v) {
          const auto n = sm.frame.normal(m.normals[v]);
          s += "vn ";
          for (int a = 0; a < 3; ++a) put_float(s, n[size_t(a)]), s += a < 2 ? " " : "";
          s += '\n';
        }
        break;
      case kObjF: {
        const bool uv = !m.uv0.empty(), normals = !m.normals.empty();
        for (size_t t = b.lo; t < b.hi; ++t) {
          const auto tri = sm.frame.triangle(&m.indices[3 * t]);
          s += 'f';
          for (uint32_t k : tri) {
            s += ' ';
            put_uint(s, base[b.mesh][0] + k);
            if (uv || normals) s += '/';
            if (uv) put_uint(s, base[b.mesh][1] + k);
            if (normals) s += '/', put_uint(s, base[b.mesh][2] + k);
          }
          s += '\n';
        }
        break;
      }
    }
  });
  return out.finish();
}

uint64_t write_ply(const Scene& scene, bool ascii, const Sink& sink) {
  bool normals = false, uv = false, colors = false;
  uint64_t vertices = 0, faces = 0;
  std::vector<uint64_t> first_vertex, first_face;
  for (const auto& sm : scene.meshes) {
    normals = normals || !sm.mesh->normals.empty();
    uv = uv || !sm.mesh->uv0.empty();
    colors = colors || !sm.mesh->colors.empty();
    first_vertex.push_back(vertices);
    first_face.push_back(faces);
    vertices += sm.mesh->vertex_count();
    faces += sm.mesh->triangle_count();
  }
  std::string header = std::string("ply\nformat ") + (ascii ? "ascii" : "binary_little_endian") +
                       " 1.0\ncomment voxkit " VOXKIT_VERSION "\nelement vertex " + std::to_string(vertices) +
                       "\nproperty float x\nproperty float y\nproperty float z\n";
  if (normals) header += "property float nx\nproperty float ny\nproperty float nz\n";
  if (uv) header += "property float s\nproperty float t\n";
  if (colors) header += "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar alpha\n";
  header += "element face " + std::to_string(faces) + "\nproperty list uchar int vertex_index\nend_header\n";

  // One vertex's floats and colour bytes as written.
  auto vertex = [&](const SceneMesh& sm, size_t v, float* f, uint8_t* c) {
    const Mesh& m = *sm.mesh;
    size_t k = 0;
    for (float x : sm.frame.position(m.positions[v])) f[k++] = x;
    if (normals) {
      const auto n = m.normals.empty() ? std::array<float, 3>{0, 0, 0} : sm.frame.normal(m.normals[v]);
      for (float x : n) f[k++] = x;
    }
    if (uv) {
      f[k++] = m.uv0.empty() ? 0.0f : m.uv0[v][0];
      f[k++] = m.uv0.empty() ? 0.0f : m.uv0[v][1];
    }
    if (colors)
      for (size_t i = 0; i < 4; ++i) c[i] = m.colors.empty() ? 0 : byte_weight(m.colors[v][i]);
    return k;
  };

  Out out(sink);
  out.put(header);
  const size_t nm = scene.meshes.size();
  if (!ascii) {
    const size_t floats = 3 + (normals ? 3 : 0) + (uv ? 2 : 0), vbytes = 4 * floats + (colors ? 4 : 0);
    binary_section(
        out, nm, vbytes, [&](size_t i) { return scene.meshes[i].mesh->vertex_count(); },
        [&](size_t i, size_t lo, size_t hi, uint8_t* at) {
          const SceneMesh& sm = scene.meshes[i];
          float f[8];
          uint8_t c[4];
          for (size_t v = lo; v < hi; ++v, at += vbytes) {
            vertex(sm, v, f, c);
            std::memcpy(at, f, 4 * floats);
            if (colors) std::memcpy(at + 4 * floats, c, 4);
          }
        });
    binary_section(
        out, nm, 13, [&](size_t i) { return scene.meshes[i].mesh->triangle_count(); },
        [&](size_t i, size_t lo, size_t hi, uint8_t* at) {
          const SceneMesh& sm = scene.meshes[i];
          const Mesh& m = *sm.mesh;
          for (size_t t = 3 * lo; t < 3 * hi; t += 3, at += 13) {
            const auto tri = sm.frame.triangle(&m.indices[t]);
            at[0] = 3;
            for (size_t k = 0; k < 3; ++k) {
              const int32_t ix = int32_t(first_vertex[i] + tri[k]);
              std::memcpy(at + 1 + 4 * k, &ix, 4);
            }
          }
        });
    return out.finish();
  }
  enum { kVertices, kFaces };
  std::vector<Block> blocks;
  for (size_t i = 0; i < nm; ++i) add_blocks(blocks, i, kVertices, scene.meshes[i].mesh->vertex_count());
  for (size_t i = 0; i < nm; ++i) add_blocks(blocks, i, kFaces, scene.meshes[i].mesh->triangle_count());
  append_blocks(out, blocks, [&](const Block& b, std::string& s) {
    const SceneMesh& sm = scene.meshes[b.mesh];
    if (b.section == kVertices) {
      float f[8];
      uint8_t c[4];
      for (size_t v = b.lo; v < b.hi; ++v) {
        const size_t k = vertex(sm, v, f, c);
        for (size_t j = 0; j < k; ++j) {
          if (j) s += ' ';
          put_float(s, f[j]);
        }
        if (colors)
          for (uint8_t x : c) s += ' ', put_uint(s, x);
        s += '\n';
      }
      return;
    }
    for (size_t t = b.lo; t < b.hi; ++t) {
      const auto tri = sm.frame.triangle(&sm.mesh->indices[3 * t]);
      s += '3';
      for (uint32_t k : tri) s += ' ', put_uint(s, first_vertex[b.mesh] + k);
      s += '\n';
    }
  });
  return out.finish();
}

uint64_t write_stl(const Scene& scene, const Sink& sink) {
  uint64_t faces = 0;
  for (const auto& sm : scene.meshes) faces += sm.mesh->triangle_count();
  uint8_t head[84] = {};
  // The 80-byte header must not start with "solid" (that marks the text form).
  static const char kHeader[] = "voxkit " VOXKIT_VERSION " binary STL";
  std::memcpy(head, kHeader, std::min(sizeof kHeader - 1, size_t(80)));
  const uint32_t count = uint32_t(faces);
  std::memcpy(head + 80, &count, 4);
  Out out(sink);
  out.put(head, sizeof head);
  binary_section(out, scene.meshes.size(), 50, [&](size_t i) { return scene.meshes[i].mesh->triangle_count(); },
                 [&](size_t i, size_t lo, size_t hi, uint8_t* at) {
    const SceneMesh& sm = scene.meshes[i];
    const Mesh& m = *sm.mesh;
    for (size_t t = 3 * lo; t < 3 * hi; t += 3, at += 50) {
      const auto tri = sm.frame.triangle(&m.indices[t]);
      std::array<std::array<float, 3>, 3> p;
      for (size_t k = 0; k < 3; ++k) p[k] = sm.frame.position(m.positions[tri[k]]);
      double u[3], w[3];
      for (size_t a = 0; a < 3; ++a) u[a] = double(p[1][a]) - p[0][a], w[a] = double(p[2][a]) - p[0][a];
      double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
      const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      float fn[3];
      for (size_t a = 0; a < 3; ++a) fn[a] = len > 0 ? float(n[a] / len) : 0.0f;
      std::memcpy(at, fn, 12);
      for (size_t k = 0; k < 3; ++k) std::memcpy(at + 12 + 12 * k, p[k].data(), 12);
      at[48] = at[49] = 0;
    }
  });
  return out.finish();
}

std::vector<uint8_t> write_obj(const Scene& scene) {
  return collect([&](const Sink& s) { write_obj(scene, s); });
}
std::vector<uint8_t> write_ply(const Scene& scene, bool ascii) {
  return collect([&](const Sink& s) { write_ply(scene, ascii, s); });
}
std::vector<uint8_t> write_stl(const Scene& scene) {
  return collect([&](const Sink& s) { write_stl(scene, s); });
}

}  // namespace voxkit::simple_writers
