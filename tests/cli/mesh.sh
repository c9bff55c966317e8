# CLI: voxkit mesh on raw grids and ice modules, every format, stats, clip, LODs, -j1 vs -j2.
source "$(dirname "$0")/lib.sh"
VALIDATE="$VOXKIT_SOURCE_DIR/tests/checks/validate_gltf.js"

# A rolling terrain of 40x24x40 cells as SDF bytes (and the same as ice densities).
python3 - "$T" <<'PY'
import math, sys
t = sys.argv[1]
nx, ny, nz = 40, 24, 40
sdf = bytearray()
for z in range(nz + 1):
    for y in range(ny + 1):
        for x in range(nx + 1):
            h = 12 + 4 * math.sin(x * 0.2) * math.cos(z * 0.15)
            sdf.append(max(-128, min(127, round((y - h) * 64))) + 128)
open(t + "/terrain.raw", "wb").write(sdf)
open(t + "/terrain.ice", "wb").write(bytes(min(255, max(0, 256 - s)) for s in sdf))
PY
args=(--cells 40,24,40 --voxel-size 0.5 --origin 100,0,50)

for f in glb gltf obj ply stl fbx; do
  run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/t.$f"
  checks=$((checks + 1)); [[ -s $T/t.$f ]] || fail "no $f output"
done
# glTF outputs pass the Khronos validator with no errors or warnings.
run 0 node "$VALIDATE" "$T/t.glb"
out_has '"numErrors": 0'
run 0 node "$VALIDATE" "$T/t.gltf"
# --to overrides the extension; stdout needs --to.
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --to obj -o "$T/t.mesh"
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/t.mesh2"
err_has "unknown mesh format 'mesh2'"
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/t.dae"
err_has "expected one of glb, gltf, obj, ply, stl, fbx"
"$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --to glb -o - >"$T/stdout.glb" 2>"$T/err"
same "$T/stdout.glb" "$T/t.glb"

# .gltf: the buffer in NAME.bin beside it (the glb's BIN chunk, byte for byte); --embed and
# stdout put it inside as a data URI; both read as the same content.
checks=$((checks + 1)); [[ -s $T/t.bin ]] || fail "no t.bin beside t.gltf"
checks=$((checks + 1)); grep -q '"uri": "t.bin"' "$T/t.gltf" || fail "t.gltf does not name t.bin"
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --embed -o "$T/e.gltf"
checks=$((checks + 1)); grep -q '"uri": "data:application/octet-stream;base64,' "$T/e.gltf" || fail "--embed has no data URI"
absent "$T/e.bin"
run 0 node "$VALIDATE" "$T/e.gltf"
out_has '"numErrors": 0'
"$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --to gltf -o - >"$T/stdout.gltf" 2>"$T/err"
same "$T/stdout.gltf" "$T/e.gltf"
/usr/bin/python3 - "$T" <<'PY' || fail "t.gltf + t.bin differ from t.glb"
import json, struct, sys, base64
t = sys.argv[1]
glb = open(t + "/t.glb", "rb").read()
jl = struct.unpack_from("<I", glb, 12)[0]
gj = json.loads(glb[20:20 + jl])
bl = struct.unpack_from("<I", glb, 20 + jl)[0]
gbin = glb[28 + jl:28 + jl + gj["buffers"][0]["byteLength"]]
sep = json.load(open(t + "/t.gltf"))
assert open(t + "/t.bin", "rb").read() == gbin
emb = json.load(open(t + "/e.gltf"))
assert base64.b64decode(emb["buffers"][0]["uri"].split(",", 1)[1]) == gbin
for d in (sep, emb):
    d["buffers"][0].pop("uri")
    assert d == gj, "JSON content differs"
PY
# a scene without triangles has no buffer, and no .bin is made
head -c 27 /dev/zero | tr '\0' '\377' >"$T/air.raw"
run 0 "$VOXKIT" mesh "$T/air.raw" --cells 2,2,2 -o "$T/air.gltf"
absent "$T/air.bin"
run 0 node "$VALIDATE" "$T/air.gltf"
# a name that needs percent-encoding in the uri
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/a b#1.gltf"
checks=$((checks + 1)); grep -q '"uri": "a%20b%231.bin"' "$T/a b#1.gltf" || fail "uri not percent-encoded"
run 0 node "$VALIDATE" "$T/a b#1.gltf"
out_has '"numErrors": 0'
# an existing .bin is an output like any other: refused without -f, and nothing is written
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/t.gltf"
run 0 "$VOXKIT" -f mesh "$T/terrain.raw" "${args[@]}" -o "$T/t.gltf"
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --embed -o "$T/t.glb"
err_has "--embed is for .gltf outputs"
# PLY as text: the same vertices and faces as the binary one
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --ascii -o "$T/a.ply"
checks=$((checks + 1)); [[ $(sed -n 2p "$T/a.ply") == "format ascii 1.0" ]] || fail "--ascii PLY header"
checks=$((checks + 1)); [[ $(grep -a "^element" "$T/a.ply") == $(grep -a "^element" "$T/t.ply") ]] || fail "ascii and binary PLY counts differ"
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --ascii -o "$T/a.stl"
err_has "--ascii is for PLY outputs"
# --stats names the vertex order and its ACMR; --json too
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --stats -o "$T/acmr1.glb"
out_has "vertex order: fifo, ACMR 0\.[5-9]"
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --json -o "$T/acmr2.glb"
checks=$((checks + 1)); /usr/bin/python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["vertex_order"]; assert v["method"]=="fifo" and 0.5<v["acmr"]<1, v' "$T/out" || fail "vertex_order in --json"

# The same bytes for any thread count, and run to run.
for f in glb fbx obj; do
  run 0 "$VOXKIT" -j 1 mesh "$T/terrain.raw" "${args[@]}" --lod 0.5 -o "$T/j1.$f"
  run 0 "$VOXKIT" -j 2 mesh "$T/terrain.raw" "${args[@]}" --lod 0.5 -o "$T/j2.$f"
  same "$T/j1.$f" "$T/j2.$f"
done

# --stats --json: counts and stage times.
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/s.glb" --stats --json --lod 0.5,0.25
out_has '"chunks_meshed": 9'
out_has '"triangles"'
out_has '"export"'
out_has '"ratio": 0.25'
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/s2.glb" --stats
out_has "chunks meshed 9"
out_has "seconds: read"

# Merge: one mesh, no more triangles than the chunks, fewer vertices (borders welded).
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/c.glb" --json
chunk_v=$(python3 -c "import json,sys; print(json.load(open('$T/out'))['vertices'])")
chunk_t=$(python3 -c "import json,sys; print(json.load(open('$T/out'))['triangles'])")
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/m.glb" --merge --json
out_has '"meshes": 1'
merged_v=$(python3 -c "import json,sys; print(json.load(open('$T/out'))['vertices'])")
merged_t=$(python3 -c "import json,sys; print(json.load(open('$T/out'))['triangles'])")
checks=$((checks + 1)); [[ $merged_t -eq $chunk_t && $merged_v -lt $chunk_v ]] ||
  fail "merge: $merged_v/$merged_t vs chunks $chunk_v/$chunk_t"
run 0 node "$VALIDATE" "$T/m.glb"

# Clip to a hole: fewer chunks; without a hole it is a usage error.
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/h.glb" --clip-hole=0.2 --hole 105,55,115,62 --json
out_has '"chunks_exported": 4'
run 0 node "$VALIDATE" "$T/h.glb"
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/h2.glb" --clip-hole --hole 105,55,115,62
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/h3.glb" --clip-hole
err_has "no terrain hole"
absent "$T/h3.glb"
# A hole away from the grid leaves an empty, still valid file.
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/empty.glb" --clip-hole=0 --hole 0,0,1,1 --json
out_has '"chunks_exported": 0'
run 0 node "$VALIDATE" "$T/empty.glb"

# Marching cubes, ice convention and a smaller chunk size.
run 0 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --mesher marching-cubes -o "$T/mc.glb"
run 0 node "$VALIDATE" "$T/mc.glb"
run 0 "$VOXKIT" mesh "$T/terrain.ice" "${args[@]}" --convention ice --chunk-cells 8 -o "$T/ice.glb" --json
out_has '"chunk_cells": 8'

# A Scrap Mechanic chunk string: a sphere of density, LZ4 + Base64 through voxkit chunk.
python3 - "$T" <<'PY'
import math, sys
v = bytearray(17 ** 3)
for x in range(17):
    for y in range(17):
        for z in range(17):
            d = 6 - math.dist((x, y, z), (8, 8, 8))
            v[z + 17 * y + 289 * x] = (1 << 6) | max(0, min(63, round(d * 16 + 31.5)))
open(sys.argv[1] + "/chunk.bin", "wb").write(v)
PY
run 0 "$VOXKIT" mesh "$T/chunk.bin" --convention sm -o "$T/sm.glb" --json
out_has '"input_kind": "scrap mechanic chunk (bin)"'
run 0 node "$VALIDATE" "$T/sm.glb"

# Usage and data errors leave no output.
run 2 "$VOXKIT" mesh "$T/terrain.raw" -o "$T/x.glb"
err_has "give --cells"
run 1 "$VOXKIT" mesh "$T/terrain.raw" --cells 40,24,39 -o "$T/x.glb"
err_has "terrain.raw: input is too large (expected at most 41000 bytes, found 42025 bytes)"
run 1 "$VOXKIT" mesh "$T/terrain.raw" --cells 40,24,41 -o "$T/x.glb"
err_has "terrain.raw: raw grid size does not match --cells (expected 43050 bytes, found 42025 bytes)"
absent "$T/x.glb"
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --lod 0.25,0.5 -o "$T/x.glb"
err_has "must decrease"
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --mesher dual -o "$T/x.glb"
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" --closed 3 -o "$T/x.glb"
err_has "ice modules"
run 2 "$VOXKIT" mesh "$T/terrain.raw" "${args[@]}" -o "$T/t.glb"
err_has "exists"
run 1 "$VOXKIT" mesh "$T/missing.raw" "${args[@]}" -o "$T/x.glb"
err_has "missing.raw"
absent "$T/x.glb"
no_temp_left "$T"
finish
