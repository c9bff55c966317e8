#!/usr/bin/env python3
# Writes the DigZoneData fixture assets of tests/test_unity_asset.cpp (run once; outputs are committed).
# The grid: cells 4x3x4, height 1.5 + 0.25 x voxels, SDF byte = clamp(round(64 d), -128, 127) + 128;
# the current grid has sample (2, 1, 2) dug to 200, painted 5 (dug soil).
import os

NX, NY, NZ = 4, 3, 4


def rle(samples):
    def varint(v):
        out = bytearray()
        while v >= 0x80:
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        out.append(v)
        return out

    out = varint(len(samples))
    i = lit = 0
    n = len(samples)
    while i < n:
        j = i
        while j < n and samples[j] == samples[i]:
            j += 1
        if j - i >= 8:
            if i > lit:
                out += varint((i - lit) << 1) + bytes(samples[lit:i])
            out += varint(((j - i) << 1) | 1) + bytes([samples[i]])
            lit = j
        i = j
    if n > lit:
        out += varint((n - lit) << 1) + bytes(samples[lit:n])
    return bytes(out)


def grids():
    base, cur, paint = [], [], []
    for z in range(NZ + 1):
        for y in range(NY + 1):
            for x in range(NX + 1):
                d = y - (1.5 + 0.25 * x)
                q = max(-128, min(127, round(d * 64)))
                base.append(q + 128)
    idx = 2 + (NX + 1) * (1 + (NY + 1) * 2)
    cur = list(base)
    cur[idx] = 200
    paint = [0] * len(base)
    paint[idx] = 5
    return base, cur, paint


def ints_hex(values):
    return b"".join(v.to_bytes(4, "little", signed=True) for v in values).hex()


HEAD = """%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!114 &11400000
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_CorrespondingSourceObject: {fileID: 0}
  m_PrefabInstance: {fileID: 0}
  m_PrefabAsset: {fileID: 0}
  m_GameObject: {fileID: 0}
  m_Enabled: 1
  m_EditorHideFlags: 0
  m_Script: {fileID: 11500000, guid: 6c1f0a3e5b2d4c7f9a8e1b2c3d4e5f60, type: 3}
  m_Name: DigZone_Quarry
  m_EditorClassIdentifier: 
  nx: 4
  ny: 3
  nz: 4
  voxelSize: 0.5
  chunkCells: 16
"""

TAIL = """  chunkMeshes:
  - {fileID: 4300000}
  - {fileID: 0}
  controlTex: {fileID: 2800000, guid: 9f8e7d6c5b4a39281706f5e4d3c2b1a0, type: 2}
  extraControlTex: []
  layerCount: 4
  heightTex: {fileID: 2800002, guid: 1a2b3c4d5e6f708192a3b4c5d6e7f809, type: 2}
  controlST: {x: 0.125, y: 0.125, z: -4, w: -4}
  heightST: {x: 0.125, y: 0.125, z: -4, w: -4}
  heightRange: {x: -2.5, y: 3.75}
  holeRect: {x: 32.5, y: 32.5, z: 33.5, w: 33.5}
  terrainTrees:
  - position: {x: 0.51, y: 0.02, z: 0.49}
    widthScale: 1.1
    heightScale: 0.9
    rotation: 2.3
    color: {r: 255, g: 255, b: 255, a: 255}
    lightmapColor: {r: 255, g: 255, b: 255, a: 255}
    prototypeIndex: 0
    up: {x: 0, y: 0, z: 0}
  - position: {x: 0.52, y: 0.02, z: 0.5}
    widthScale: 1
    heightScale: 1
    rotation: 0.4
    color: {r: 240, g: 250, b: 255, a: 255}
    lightmapColor: {r: 255, g: 255, b: 255, a: 255}
    prototypeIndex: 1
    up: {x: 0, y: 0, z: 0}
  surfaceDetails: []
  foliageMask: {fileID: 0}
  detailMeshes: []
  detailMaterials: []
  foliageSignature: -1288232375
  foliageDetailSignature: 118274
  foliageCount: 3
  cutTerrain: {fileID: 15600000, guid: 0a1b2c3d4e5f60718293a4b5c6d7e8f9, type: 2}
  cutRect:
    serializedVersion: 2
    x: 60
    y: 60
    width: 4
    height: 4
  cutPrevious: 0101000001
--- !u!43 &4300000
Mesh:
  m_ObjectHideFlags: 0
  m_CorrespondingSourceObject: {fileID: 0}
  m_PrefabInstance: {fileID: 0}
  m_PrefabAsset: {fileID: 0}
  m_Name: Chunk 0
  serializedVersion: 10
  m_SubMeshes:
  - serializedVersion: 2
    firstByte: 0
    indexCount: 6
    topology: 0
  m_IndexFormat: 0
  m_IndexBuffer: 000001000200020003000000
  m_VertexData:
    serializedVersion: 3
    m_VertexCount: 4
    m_DataSize: 48
    _typelessdata: 000000000000000000000000000080400000000000000000000000000000803f0000803f00000000000080400000803f
"""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    base, cur, paint = grids()
    box = ints_hex([1, 0, 1, 3, 3, 3])
    current = (HEAD + f"  gridRle: {rle(cur).hex()}\n  paintRle: {rle(paint).hex()}\n"
               f"  baseGridRle: {rle(base).hex()}\n  legacyGrid: \n  legacyPaint: \n  legacyBaseGrid: \n"
               "  origin: {x: 32, y: -1.25, z: 32}\n  hasOrigin: 1\n  latticeAnchor: {x: 0, y: 0, z: 0}\n"
               "  hasLatticeAnchor: 0\n  stashKeys: \n  stashGrid: \n  stashPaint: \n  stashFlags: \n"
               f"  editBox: {box}\n  _gridVersion: 2\n" + TAIL)
    with open(os.path.join(here, "quarry.asset"), "w", newline="\n") as f:
        f.write(current)

    # Upper-case hex folded over lines as a YAML plain scalar, CRLF line ends, never painted.
    g = rle(cur).hex().upper()
    folded_grid = g[:40] + "\n    " + g[40:90] + "\n    " + g[90:]
    folded = (HEAD + f"  gridRle: {folded_grid}\n  paintRle: \n  baseGridRle: {rle(base).hex().upper()}\n"
              "  legacyGrid: \n  legacyPaint: \n  legacyBaseGrid: \n"
              "  origin: {x: 32, y: -1.25, z: 32}\n  hasOrigin: 1\n  latticeAnchor: {x: 0, y: 0, z: 0}\n"
              "  hasLatticeAnchor: 0\n  stashKeys: \n  stashGrid: \n  stashPaint: \n  stashFlags: \n"
              f"  editBox: {box.upper()}\n  _gridVersion: 5\n" + TAIL)
    with open(os.path.join(here, "folded_crlf.asset"), "w", newline="\r\n") as f:
        f.write(folded)

    # A 0.3-era asset: raw grids, gridVersion without the underscore, no RLE fields.
    legacy = (HEAD + f"  grid: {bytes(cur).hex()}\n  paint: {bytes(paint).hex()}\n  baseGrid: {bytes(base).hex()}\n"
              "  origin: {x: 32, y: -1.25, z: 32}\n  hasOrigin: 1\n"
              f"  editBox: {box}\n  gridVersion: 9\n" + TAIL)
    with open(os.path.join(here, "legacy_0_3.asset"), "w", newline="\n") as f:
        f.write(legacy)


main()
