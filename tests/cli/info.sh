# CLI: voxkit info on chunk blobs, RLE streams and raw grids, as text and JSON; unknown files;
# meshes, region grids, edit lists, hits, camera paths, instance lists, manifests.
source "$(dirname "$0")/lib.sh"

{ for i in $(seq 26); do printf '\xff'; done; printf '\x00'; } >"$T/g.raw"
"$VOXKIT" pack "$T/g.raw" -o "$T/g.vxcb" --cells 2,2,2 --chunk-cells 1
"$VOXKIT" rle encode "$T/g.raw" -o "$T/g.rle"
run 0 "$VOXKIT" info "$T/g.vxcb"
out_has "g.vxcb: voxkit chunk blob, version 1"
out_has "chunks  *2 x 2 x 2 = 8 (1 streams)"
out_has "uniform chunks  *7 (7 of 255)"
run 0 "$VOXKIT" info --json "$T/g.vxcb"
out_has '"format": "chunk-blob"'
out_has '"255": 7'
if command -v python3 >/dev/null; then
  checks=$((checks + 1))
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["details"]["chunk_count"]==8 and d["size"]==81' "$T/out" || fail "info --json shape"
fi
run_in 0 "$T/g.rle" "$VOXKIT" info -
out_has "<stdin>: dig-zone RLE stream"
out_has "samples  *27"
run 0 "$VOXKIT" info "$T/g.rle" --cells 2,2,2 --json
out_has '"solid": 1'
out_has '"air": 26'
run 0 "$VOXKIT" info "$T/g.raw" --cells 2,2,2
out_has "raw SDF sample grid"
# unknown and damaged files: exit 1, a clear line, nothing on stdout
run 1 "$VOXKIT" info "$T/g.raw"
err_has "g.raw: unknown format: not any of zone, unity-asset, chunk-blob, stationeers-save, world-xml, terrain-base, sm-chunk, terrain-dat, edit-log, glb, ply, unity-terrain-data, grass-type, gltf, world-manifest, melt-hits, camera-path, foliage-list, obj, stl, raster, rle (a raw or region grid needs --cells)"
checks=$((checks + 1)); [[ ! -s $T/out ]] || fail "stdout not empty on error"
head -c 50 "$T/g.vxcb" >"$T/cut.vxcb"
run 1 "$VOXKIT" info "$T/cut.vxcb"
err_has "cut.vxcb: offset 50: file is truncated"
run 1 "$VOXKIT" info "$T/g.rle" --cells 3,2,2
err_has "does not match --cells"
run 1 "$VOXKIT" info "$T/missing"
err_has "missing: cannot open"
run 2 "$VOXKIT" info --bogus
run 1 "$VOXKIT" info -
err_has "<stdin>: empty file"
# The dig-zone package's Unity asset: the zone summary.
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset"
out_has "dig-zone Unity asset"
out_has "cells"
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset" --json
out_has '"format": "unity-asset"'
# Rasters (a GeoTIFF heightmap, a PNG control map, a Unity .raw) and .vxlog edit logs.
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_crop.tif" --json
out_has '"format": "raster"'
out_has '"driver": "GTiff"'
out_has '"crs": "EPSG:'
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_splat.png"
out_has "raster (PNG)"
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x10' * (33 * 33))" >"$T/hm.raw"
run 0 "$VOXKIT" info "$T/hm.raw"
out_has "Unity .raw heightmap"
out_has "33 x 33 samples"
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/edits/network.vxlog" --json
out_has '"format": "edit-log"'
out_has '"network": true'
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/edits/ordered.vxlog"
out_has "voxkit edit log (.vxlog), ordered"

# A JSON field of info's output: jf FILE EXPR (a Python expression over d, the document).
jf() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/out" "$1"; }
is() { checks=$((checks + 1)); local got; got=$(jf "$1"); [[ $got == "$2" ]] || fail "$1: expected $2, found $got"; }

# Meshes voxkit writes: glb, gltf (buffer beside it, and embedded), OBJ, PLY (binary and
# ASCII), STL; the demo grid meshed, and a zone's mesh with lightmap UVs (TEXCOORD_1).
D=$VOXKIT_SOURCE_DIR/test_data
for f in glb gltf obj ply stl; do "$VOXKIT" mesh "$D/demo_grid.raw" --cells 64,40,64 -o "$T/d.$f" 2>/dev/null; done
"$VOXKIT" mesh "$D/demo_grid.raw" --cells 64,40,64 --embed -o "$T/e.gltf" 2>/dev/null
"$VOXKIT" mesh "$D/demo_grid.raw" --cells 64,40,64 --ascii -o "$T/a.ply" 2>/dev/null
run 0 "$VOXKIT" info "$T/d.glb"
out_has "d.glb: glTF binary (.glb)"
out_has "triangles  *12418"
out_has "attributes  *NORMAL, POSITION"
for f in d.glb d.gltf e.gltf d.obj d.ply a.ply d.stl; do
  run 0 "$VOXKIT" info "$T/$f" --json
  is 'd["details"]["triangles"]' 12418
done
run 0 "$VOXKIT" info "$T/d.glb" --json
is 'd["format"]' glb
is 'd["details"]["meshes"]' 30
is 'd["details"]["vertices"]' 7140
is 'd["details"]["bin_bytes"] == d["details"]["buffer_bytes"]' True
is 'len(d["details"]["bounds"]["min"])' 3
run 0 "$VOXKIT" info "$T/d.gltf" --json
is 'd["format"]' gltf
is 'd["details"]["external_buffers"]' 1
run 0 "$VOXKIT" info "$T/e.gltf" --json
is 'd["details"]["embedded_buffers"]' 1
run 0 "$VOXKIT" info "$T/d.obj"
out_has "d.obj: Wavefront OBJ mesh"
out_has "vertices  *7140"
run 0 "$VOXKIT" info "$T/d.obj" --json
is 'd["details"]["attributes"]' "['position', 'normal']"
is 'd["details"]["faces"]' 12418
run 0 "$VOXKIT" info "$T/d.ply"
out_has "PLY mesh (binary little-endian)"
run 0 "$VOXKIT" info "$T/a.ply" --json
is 'd["details"]["encoding"]' ascii
is 'd["details"]["attributes"][:3]' "['x', 'y', 'z']"
run 0 "$VOXKIT" info "$T/d.stl" --json
is 'd["details"]["encoding"]' binary
is 'd["details"]["vertices"]' 37254
printf 'solid tri\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 2 0 0\n   vertex 0 3 0\n  endloop\n endfacet\nendsolid tri\n' >"$T/t.stl"
run 0 "$VOXKIT" info "$T/t.stl" --json
is 'd["details"]["encoding"]' ascii
is 'd["details"]["bounds"]' "{'max': [2.0, 3.0, 0.0], 'min': [0.0, 0.0, 0.0]}"
run 0 "$VOXKIT" mesh "$D/unity/quarry.asset" -o "$T/q.glb"
run 0 "$VOXKIT" info "$T/q.glb" --json
is '"TEXCOORD_1" in d["details"]["attributes"]' True
# Damaged meshes: exit 1 with the offset and what was expected; nothing on stdout.
head -c 1000 "$T/d.glb" >"$T/cut.glb"
run 1 "$VOXKIT" info "$T/cut.glb"
err_has "cut.glb: offset 8: GLB length does not match the file's size (expected 1000, found"
checks=$((checks + 1)); [[ ! -s $T/out ]] || fail "stdout not empty on a damaged glb"
python3 - "$T/d.glb" "$T/badjson.glb" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
b[20] = ord("#")  # the JSON chunk's first byte
open(sys.argv[2], "wb").write(b)
PY
run 1 "$VOXKIT" info "$T/badjson.glb"
err_has "badjson.glb: offset 20: GLB JSON chunk is not JSON"
head -c 5000 "$T/d.ply" >"$T/cut.ply"
run 1 "$VOXKIT" info "$T/cut.ply"
err_has "cut.ply: offset [0-9]*: PLY body is truncated"
head -c 5000 "$T/d.stl" >"$T/cut.stl"
run 1 "$VOXKIT" info "$T/cut.stl"
err_has "cut.stl: offset 80: binary STL size does not match its triangle count (expected 620984 bytes for 12418 triangles, found 5000 bytes)"
printf 'v 0 0 0\nv 1 0 0\nf 1 2 3\n' >"$T/bad.obj"
run 1 "$VOXKIT" info "$T/bad.obj"
err_has "bad.obj: offset 16: OBJ, line 3: vertex index out of range (expected 1..2 or -1..-2, found 3)"
cp "$T/bad.obj" "$T/bad.txt"
run 1 "$VOXKIT" info "$T/bad.txt"
err_has "bad.txt: unknown format"
printf '{"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": {"POSITION": 4}}]}]}' >"$T/bad.gltf"
run 1 "$VOXKIT" info "$T/bad.gltf"
err_has "bad.gltf: glTF document: mesh 0 primitive 0 attribute POSITION is 4, past the 0 there are"

# A cave-region grid (caves label's output) is two bytes a point: only with --cells.
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
n = 8
ice = bytearray()
for z in range(n + 1):
    for y in range(n + 1):
        for x in range(n + 1):
            cave = (2 <= x <= 3 and 2 <= y <= 3 and 2 <= z <= 3) or (5 <= x <= 6 and 5 <= y <= 6 and 5 <= z <= 6)
            ice.append(0 if cave else 255)
open(t + "/module.ice", "wb").write(ice)
PY
run 0 "$VOXKIT" caves label "$T/module.ice" --cells 8,8,8 -o "$T/regions.bin"
run 0 "$VOXKIT" info "$T/regions.bin" --cells 8,8,8
out_has "regions.bin: cave-region grid"
out_has "regions  *2 (ids 1..2)"
run 0 "$VOXKIT" info "$T/regions.bin" --cells 8,8,8 --json
is 'd["format"]' region-grid
is 'd["details"]["regions"]' 2
is 'd["details"]["cave_points"]' 16
is 'd["details"]["ids_dense"]' True
run 1 "$VOXKIT" info "$T/regions.bin"
err_has "unknown format"
run 1 "$VOXKIT" info "$T/regions.bin" --cells 8,8,7
err_has "nor a raw or region grid of these cells"

# Edit lists in every encoding: text, JSON, int64 (by its name).
run 0 "$VOXKIT" info "$D/edits/ordered.txt"
out_has "voxkit edit log (text), ordered"
out_has "edits  *6"
run 0 "$VOXKIT" info "$D/edits/network.json" --json
is 'd["format"]' edit-log
is 'd["details"]["encoding"]' json
is 'd["details"]["network"]' True
run 0 "$VOXKIT" info "$D/edits/plain.int64" --json
is 'd["details"]["encoding"]' int64
is 'd["details"]["edits"]' 5
run 0 "$VOXKIT" info "$D/edits/ordered.vxlog" --json
is 'd["details"]["encoding"]' vxlog
head -c 13 "$D/edits/plain.int64" >"$T/cut.int64"
run 1 "$VOXKIT" info "$T/cut.int64"
err_has "cut.int64: "
printf '0x0018020001400200\nnot an edit\n' >"$T/half.txt"
run 1 "$VOXKIT" info "$T/half.txt"
err_has "half.txt: unknown format"

# Melt hits (CSV and JSON), a camera path, instance lists, a TerrainData asset.
printf 'x,y,z,radius,amount\n1,2,3,1.5,0.5\n4,5,6,2,1\n' >"$T/hits.csv"
run 0 "$VOXKIT" info "$T/hits.csv"
out_has "hits.csv: melt hits (CSV)"
out_has "hits  *2"
printf '[{"x": 1, "y": 2, "z": 3, "radius": 1, "power": 5, "temperature": 20, "dt": 0.1}]' >"$T/hits.json"
run 0 "$VOXKIT" info "$T/hits.json" --json
is 'd["format"]' melt-hits
is 'd["details"]["by_formula"]' 1
printf 'x,y,z,radius,amount\n1,2,3,-1,0.5\n' >"$T/badhits.csv"
run 1 "$VOXKIT" info "$T/badhits.csv"
err_has "badhits.csv: unknown format"
run 0 "$VOXKIT" info "$D/grass/camera_path.csv"
out_has "camera path (grass residency)"
run 0 "$VOXKIT" info "$D/grass/camera_path.csv" --json
is 'd["format"]' camera-path
is 'd["details"]["clears"]' 1
is 'd["details"]["header"]' True
printf 'x,y,z,prototype,rotation,scale\n1,2,3,0,0.5,1\n4,5,6,1,0,1\n' >"$T/trees.csv"
run 0 "$VOXKIT" info "$T/trees.csv" --json
is 'd["format"]' foliage-list
is 'd["details"]["instances"]' 2
is 'd["details"]["prototypes"]' '[0, 1]'
printf 'x,z,prototype,rotation\n1,2,0,10\n' >"$T/details.csv"
run 0 "$VOXKIT" info "$T/details.csv" --json
is 'd["details"]["reads_as"]' "['details']"
printf '[{"position": [1, 2, 3], "normal": [0, 1, 0], "prototype": 2}]' >"$T/surface.json"
run 0 "$VOXKIT" info "$T/surface.json" --json
is '"surface_details" in d["details"]["reads_as"]' True
# The same list with a column no list knows: claimed by nothing.
printf 'x,y,z,prototpye\n1,2,3,0\n' >"$T/typo.csv"
run 1 "$VOXKIT" info "$T/typo.csv"
err_has "typo.csv: unknown format"

# World manifests (the demo world) and a damaged one (a .toml with a [world] table).
run 0 "$VOXKIT" info "$D/world/demo.toml"
out_has "demo.toml: voxkit world manifest"
out_has "jobs  *mesh (glb), preview"
run 0 "$VOXKIT" info "$D/world/demo.toml" --json
is 'd["format"]' world-manifest
is 'd["details"]["tile_chunks"]' 2
is 'd["details"]["layers"]' "['grass', 'rock', 'sand', 'snow']"
sed 's/^tile_chunks = 2/tile_chunkz = 2/' "$D/world/demo.toml" >"$T/typo.toml"
cp "$D/world/height.vrt" "$T/" 2>/dev/null
run 1 "$VOXKIT" info "$T/typo.toml"
err_has "typo.toml: .*tile_chunkz"
# Grass types in TOML and JSON stay grass types.
"$VOXKIT" grass type "$D/grass/Meadow.vxgrass" --to toml >"$T/meadow.toml"
run 0 "$VOXKIT" info "$T/meadow.toml" --json
is 'd["format"]' grass-type
finish
