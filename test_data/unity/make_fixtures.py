#!/usr/bin/env python3
# Writes the DigZoneData fixture assets of tests/test_unity_asset.cpp and tests/test_unity_export.cpp
# (run once; outputs are committed).
# quarry, folded_crlf, legacy_0_3: cells 4x3x4, height 1.5 + 0.25 x voxels, SDF byte =
# clamp(round(64 d), -128, 127) + 128; the current grid has sample (2, 1, 2) dug to 200, painted 5.
# pit: cells 8x4x8 (the package's smallest zone), chunk cells 4, as a Unity editor leaves an
# asset: local chunk meshes (one chunk without one, one mesh no longer listed), a control
# texture on the terrain's alphamap, a height texture on the zone's columns, no lattice anchor,
# two terrain trees in the hole (on a terrain of 64 x 64 m).
import os
import struct

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
    x: 60
    y: 60
    width: 4
    height: 4
  cutPrevious: 01010000010101010101010101010101
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

    with open(os.path.join(here, "pit.asset"), "w", newline="\n") as f:
        f.write(pit())


PIT_NX, PIT_NY, PIT_NZ = 8, 4, 8
PIT_MESHES = [-7011122233344455566, 0, 1234567890123456789, 5555666677778888999]  # chunks (0,0,0) (1,0,0) (0,0,1) (1,0,1)
PIT_ORPHAN = 3141592653589793238
PIT_CONTROL = -8000000000000000001
PIT_HEIGHT = 8000000000000000001


def ufloat(v):
    # Unity's spelling of a float32 (the values here have short exact decimals): "0", "0.875".
    s = repr(v)
    return s[:-2] if s.endswith(".0") else s


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def pit_heights():
    # World height of each column (x fastest): a gentle slope with a bump, float32.
    return [f32(0.0625 * x + 0.03125 * z + (0.5 if (x, z) == (4, 4) else 0.0))
            for z in range(PIT_NZ + 1) for x in range(PIT_NX + 1)]


def pit_grid():
    h = pit_heights()
    g = []
    for z in range(PIT_NZ + 1):
        for y in range(PIT_NY + 1):
            for x in range(PIT_NX + 1):
                # origin y -1, voxel 0.5: distance in voxels above the column's height
                d = (-1.0 + 0.5 * y - h[x + (PIT_NX + 1) * z]) / 0.5
                q = max(-128, min(127, round(d * 64)))
                g.append(q + 128)
    return g


def texture_doc(fid, name, w, h, fmt, data, filt=1):
    return f"""--- !u!28 &{fid}
Texture2D:
  m_ObjectHideFlags: 0
  m_CorrespondingSourceObject: {{fileID: 0}}
  m_PrefabInstance: {{fileID: 0}}
  m_PrefabAsset: {{fileID: 0}}
  m_Name: {name}
  m_ImageContentsHash:
    serializedVersion: 2
    Hash: 00000000000000000000000000000000
  m_ForcedFallbackFormat: 4
  m_DownscaleFallback: 0
  m_IsAlphaChannelOptional: 0
  serializedVersion: 2
  m_Width: {w}
  m_Height: {h}
  m_CompleteImageSize: {len(data)}
  m_MipsStripped: 0
  m_TextureFormat: {fmt}
  m_MipCount: 1
  m_IsReadable: 1
  m_IsPreProcessed: 0
  m_IgnoreMipmapLimit: 0
  m_MipmapLimitGroupName: 
  m_StreamingMipmaps: 0
  m_StreamingMipmapsPriority: 0
  m_VTOnly: 0
  m_AlphaIsTransparency: 0
  m_ImageCount: 1
  m_TextureDimension: 2
  m_TextureSettings:
    serializedVersion: 2
    m_FilterMode: {filt}
    m_Aniso: 1
    m_MipBias: 0
    m_WrapU: 1
    m_WrapV: 1
    m_WrapW: 1
  m_LightmapFormat: 0
  m_ColorSpace: 0
  m_PlatformBlob: 
  image data: {len(data)}
  _typelessdata: {data.hex()}
  m_StreamData:
    serializedVersion: 2
    offset: 0
    size: 0
    path: 
"""


def mesh_doc(fid, name):
    return f"""--- !u!43 &{fid}
Mesh:
  m_ObjectHideFlags: 0
  m_CorrespondingSourceObject: {{fileID: 0}}
  m_PrefabInstance: {{fileID: 0}}
  m_PrefabAsset: {{fileID: 0}}
  m_Name: {name}
  serializedVersion: 11
  m_SubMeshes:
  - serializedVersion: 2
    firstByte: 0
    indexCount: 3
    topology: 0
    baseVertex: 0
    firstVertex: 0
    vertexCount: 3
  m_IndexFormat: 0
  m_IndexBuffer: 000001000200
  m_VertexData:
    serializedVersion: 3
    m_VertexCount: 3
    m_DataSize: 36
    _typelessdata: 000000000000000000000000000080400000000000000000000000000000803f0000803f
"""


def pit():
    g = pit_grid()
    heights = pit_heights()
    lo, hi = min(heights), max(heights)
    rng = max(f32(0.001), f32(hi - lo))
    height = b"".join(struct.pack("<e", f32((v - lo) / rng)) for v in heights)
    # The editor's control texture covers the terrain's alphamap texels around the zone.
    control = bytes([255 - 20 * (i % 12), 20 * (i % 12), 0, 0][c] for i in range(12 * 12) for c in range(4))
    box = ints_hex([4, 2, 4, 4, 3, 4])
    name = "DigZone_Pit"
    mb = f"""--- !u!114 &11400000
MonoBehaviour:
  m_ObjectHideFlags: 0
  m_CorrespondingSourceObject: {{fileID: 0}}
  m_PrefabInstance: {{fileID: 0}}
  m_PrefabAsset: {{fileID: 0}}
  m_GameObject: {{fileID: 0}}
  m_Enabled: 1
  m_EditorHideFlags: 0
  m_Script: {{fileID: 11500000, guid: 1de369fa44d90634c98ae013c6de8c31, type: 3}}
  m_Name: {name}
  m_EditorClassIdentifier: 
  nx: {PIT_NX}
  ny: {PIT_NY}
  nz: {PIT_NZ}
  voxelSize: 0.5
  chunkCells: 4
  gridRle: {rle(g).hex()}
  paintRle: 
  baseGridRle: {rle(g).hex()}
  legacyGrid: 
  legacyPaint: 
  legacyBaseGrid: 
  origin: {{x: 32, y: -1, z: 32}}
  hasOrigin: 1
  latticeAnchor: {{x: 0, y: 0, z: 0}}
  hasLatticeAnchor: 0
  stashKeys: 
  stashGrid: 
  stashPaint: 
  stashFlags: 
  editBox: {box}
  _gridVersion: 4
  chunkMeshes:
""" + "".join(f"  - {{fileID: {m}}}\n" for m in PIT_MESHES) + f"""  controlTex: {{fileID: {PIT_CONTROL}}}
  extraControlTex: []
  layerCount: 2
  heightTex: {{fileID: {PIT_HEIGHT}}}
  controlST: {{x: 0.171875, y: 0.171875, z: -5.4140625, w: -5.4140625}}
  heightST: {{x: 0.22222222, y: 0.22222222, z: -7.0555553, w: -7.0555553}}
  heightRange: {{x: {ufloat(lo)}, y: {ufloat(hi)}}}
  holeRect: {{x: 32.5, y: 32.5, z: 35.5, w: 35.5}}
  terrainTrees:
  - position: {{x: 0.52, y: 0.02, z: 0.52}}
    widthScale: 1.1
    heightScale: 0.9
    rotation: 2.3
    color: {{r: 255, g: 255, b: 255, a: 255}}
    lightmapColor: {{r: 255, g: 255, b: 255, a: 255}}
    prototypeIndex: 0
    up: {{x: 0, y: 0, z: 0}}
  - position: {{x: 0.53, y: 0.02, z: 0.53}}
    widthScale: 1
    heightScale: 1
    rotation: 0.4
    color: {{r: 240, g: 250, b: 255, a: 255}}
    lightmapColor: {{r: 255, g: 255, b: 255, a: 255}}
    prototypeIndex: 1
    up: {{x: 0, y: 0, z: 0}}
  surfaceDetails: []
  foliageMask: {{fileID: 0}}
  detailMeshes: []
  detailMaterials: []
  foliageSignature: 0
  foliageDetailSignature: 0
  foliageCount: 0
  cutTerrain: {{fileID: 15600000, guid: 0a1b2c3d4e5f60718293a4b5c6d7e8f9, type: 2}}
  cutRect:
    x: 65
    y: 65
    width: 3
    height: 2
  cutPrevious: 010101010001
"""
    docs = {
        PIT_CONTROL: texture_doc(PIT_CONTROL, name + "_Control", 12, 12, 4, control),
        PIT_HEIGHT: texture_doc(PIT_HEIGHT, name + "_Height", PIT_NX + 1, PIT_NZ + 1, 15, height),
        11400000: mb,
        PIT_ORPHAN: mesh_doc(PIT_ORPHAN, name + "_Chunk_9_9_9"),
    }
    for k, m in enumerate(PIT_MESHES):
        if m:
            docs[m] = mesh_doc(m, f"{name}_Chunk_{k % 2}_0_{k // 2}")
    return "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n" + "".join(docs[k] for k in sorted(docs))


main()
