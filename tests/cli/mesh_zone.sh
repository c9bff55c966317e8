# CLI: voxkit mesh on zone files and Unity dig-zone assets: detection, validator, -j1 vs -j2.
source "$(dirname "$0")/lib.sh"
VALIDATE="$VOXKIT_SOURCE_DIR/tests/checks/validate_gltf.js"
ASSET="$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset"

# A Unity asset is detected from its YAML; the glb passes the Khronos validator.
run 0 "$VOXKIT" mesh "$ASSET" -o "$T/u.glb" --json
out_has '"input_kind": "unity dig-zone asset (current grid)"'
run 0 node "$VALIDATE" "$T/u.glb"
out_has '"numErrors": 0'
# By default a zone gets the package's mesher and lightmap UVs: TEXCOORD_1 on every primitive,
# inside [0, 1].
checks=$((checks + 1))
python3 - "$T/u.glb" <<'EOF2' || fail "TEXCOORD_1 in the default zone mesh"
import json, struct, sys
b = open(sys.argv[1], "rb").read()
n, = struct.unpack("<I", b[12:16]); j = json.loads(b[20:20 + n])
prims = [p for m in j["meshes"] for p in m["primitives"]]
assert prims and all("TEXCOORD_1" in p["attributes"] for p in prims), "no TEXCOORD_1"
for p in prims:
    a = j["accessors"][p["attributes"]["TEXCOORD_1"]]
    assert a["type"] == "VEC2" and min(a["min"]) >= 0 and max(a["max"]) <= 1, a
EOF2
# The same zone as a zone file (detected by its magic, also from stdin) meshes to the same bytes.
run 0 "$VOXKIT" zone import-unity "$ASSET" -o "$T/q.vxz"
run 0 "$VOXKIT" mesh "$T/q.vxz" -o "$T/z.glb" --json
out_has '"input_kind": "zone file (current grid)"'
same "$T/u.glb" "$T/z.glb"
run_in 0 "$T/q.vxz" "$VOXKIT" mesh - -o "$T/stdin.glb"
same "$T/z.glb" "$T/stdin.glb"
run 0 "$VOXKIT" mesh "$T/q.vxz" --grid baked -o "$T/b.glb" --json
out_has '"input_kind": "zone file (baked grid)"'
run 0 node "$VALIDATE" "$T/b.glb"
mkdir -p "$T/j1" "$T/j2"
for f in gltf obj fbx; do
  run 0 "$VOXKIT" -j 1 mesh "$T/q.vxz" -o "$T/j1/q.$f"
  run 0 "$VOXKIT" -j 2 mesh "$T/q.vxz" -o "$T/j2/q.$f"
  same "$T/j1/q.$f" "$T/j2/q.$f"
done
same "$T/j1/q.bin" "$T/j2/q.bin"

# The demo terrain, baked and meshed: valid glb, same bytes for one and two threads.
run 0 "$VOXKIT" bake "$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_crop.tif" -o "$T/d.vxz" \
  --center 7500,0,7500 --size 96,40,96 --voxel-size 2
run 0 "$VOXKIT" -j 1 mesh "$T/d.vxz" -o "$T/d1.glb" --json
out_has '"input_kind": "zone file (current grid)"'
run 0 "$VOXKIT" -j 2 mesh "$T/d.vxz" -o "$T/d2.glb"
same "$T/d1.glb" "$T/d2.glb"
run 0 node "$VALIDATE" "$T/d1.glb"
out_has '"numErrors": 0'

# The package's own mesher: chunk-local frames under translated nodes, its hole cut, both
# arithmetics; validator-clean, the same bytes for any -j.
run 0 "$VOXKIT" -j 1 mesh "$T/q.vxz" --mesher package -o "$T/p1.glb" --json
out_has '"mesher": "package"'
run 0 node "$VALIDATE" "$T/p1.glb"
out_has '"numErrors": 0'
run 0 "$VOXKIT" -j 2 mesh "$T/q.vxz" --mesher package -o "$T/p2.glb"
same "$T/p1.glb" "$T/p2.glb"
run 0 "$VOXKIT" mesh "$T/q.vxz" --mesher package --clip-hole -o "$T/pc.gltf"
run 0 node "$VALIDATE" "$T/pc.gltf"
run 0 "$VOXKIT" mesh "$T/q.vxz" --mesher package --player-float -o "$T/pp.glb"
run 0 node "$VALIDATE" "$T/pp.glb"
checks=$((checks + 1))
python3 - "$T/p1.glb" <<'EOF2' || fail "package mesher frames"
import json, struct, sys
b = open(sys.argv[1], "rb").read()
n, = struct.unpack("<I", b[12:16]); j = json.loads(b[20:20 + n])
chunks = [x for x in j["nodes"] if x.get("name", "").startswith("chunk_")]
assert chunks and all("matrix" in x or "translation" in x for x in chunks), chunks
EOF2
run 2 "$VOXKIT" mesh "$T/q.vxz" --mesher package --merge -o "$T/x.glb"
err_has "cannot merge"

# Forced kinds, and options that do not apply to zones.
run 1 "$VOXKIT" mesh "$T/q.vxz" --from unity -o "$T/x.glb"
err_has "q.vxz"
run 2 "$VOXKIT" mesh "$T/q.vxz" --cells 4,3,4 --from zone -o "$T/x.glb"
err_has "raw grids"
run 2 "$VOXKIT" mesh "$T/q.vxz" --grid dug -o "$T/x.glb"
err_has "expected current or baked"
run 2 "$VOXKIT" mesh "$T/q.vxz" --from tar -o "$T/x.glb"
err_has "unknown input kind"
absent "$T/x.glb"
no_temp_left "$T"
finish
