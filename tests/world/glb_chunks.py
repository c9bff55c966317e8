#!/usr/bin/env python3
"""Compares chunk meshes between glTF binaries: every node of the tile files must equal the
node of the same name in the whole file, bit for bit (translation, every attribute's bytes,
the indices), and together the tiles must hold every node of the whole file.

Usage: glb_chunks.py WHOLE.glb TILE.glb... Exits 1 naming the first differences."""
import json
import struct
import sys


def load(path):
    data = open(path, "rb").read()
    magic, version, length = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67 and version == 2, f"{path}: not a glTF 2 binary"
    at, doc, blob = 12, None, b""
    while at < length:
        size, kind = struct.unpack_from("<II", data, at)
        chunk = data[at + 8 : at + 8 + size]
        if kind == 0x4E4F534A:
            doc = json.loads(chunk)
        elif kind == 0x004E4942:
            blob = chunk
        at += 8 + size
    views = doc.get("bufferViews", [])
    accessors = doc.get("accessors", [])
    sizes = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
    widths = {5121: 1, 5123: 2, 5125: 4, 5126: 4}

    def accessor_bytes(k):
        a = accessors[k]
        v = views[a["bufferView"]]
        elem = sizes[a["type"]] * widths[a["componentType"]]
        stride = v.get("byteStride", elem)
        start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        return b"".join(blob[start + n * stride : start + n * stride + elem] for n in range(a["count"]))

    nodes = {}
    for node in doc.get("nodes", []):
        if "mesh" not in node:
            continue
        mesh = doc["meshes"][node["mesh"]]
        prims = []
        for p in mesh["primitives"]:
            attrs = {name: accessor_bytes(k) for name, k in sorted(p["attributes"].items())}
            # Indices compared by value: 16- and 32-bit storage of the same list are equal.
            a = accessors[p["indices"]]
            raw = accessor_bytes(p["indices"])
            fmt = {5121: "B", 5123: "H", 5125: "I"}[a["componentType"]]
            idx = struct.unpack(f"<{a['count']}{fmt}", raw)
            prims.append((attrs, idx))
        nodes[node["name"]] = (tuple(node.get("translation", [0, 0, 0])), prims)
    return nodes


def main():
    whole = load(sys.argv[1])
    seen = {}
    problems = []
    for path in sys.argv[2:]:
        for name, value in load(path).items():
            if name in seen:
                problems.append(f"{path}: node {name} also in {seen[name]}")
            seen[name] = path
            if name not in whole:
                problems.append(f"{path}: node {name} is not in the whole mesh")
            elif value != whole[name]:
                what = "translation" if value[0] != whole[name][0] else "mesh data"
                problems.append(f"{path}: node {name} differs from the whole mesh ({what})")
    missing = sorted(set(whole) - set(seen))
    if missing:
        problems.append(f"{len(missing)} node(s) of the whole mesh are in no tile, e.g. {missing[:3]}")
    for p in problems[:20]:
        print(p)
    print(f"{len(seen)} tile nodes compared with {len(whole)} whole-mesh nodes: "
          + ("equal" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
