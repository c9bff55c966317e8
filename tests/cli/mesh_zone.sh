# CLI: voxkit mesh on zone files and Unity dig-zone assets: detection, validator, -j1 vs -j2.
source "$(dirname "$0")/lib.sh"
VALIDATE="$VOXKIT_SOURCE_DIR/tests/checks/validate_gltf.js"
ASSET="$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset"

# A Unity asset is detected from its YAML; the glb passes the Khronos validator.
run 0 "$VOXKIT" mesh "$ASSET" -o "$T/u.glb" --json
out_has '"input_kind": "unity dig-zone asset (current grid)"'
run 0 node "$VALIDATE" "$T/u.glb"
out_has '"numErrors": 0'
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
for f in gltf obj fbx; do
  run 0 "$VOXKIT" -j 1 mesh "$T/q.vxz" -o "$T/j1.$f"
  run 0 "$VOXKIT" -j 2 mesh "$T/q.vxz" -o "$T/j2.$f"
  same "$T/j1.$f" "$T/j2.$f"
done

# The demo terrain, baked and meshed: valid glb, same bytes for one and two threads.
run 0 "$VOXKIT" bake "$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_crop.tif" -o "$T/d.vxz" \
  --center 7500,0,7500 --size 96,40,96 --voxel-size 2
run 0 "$VOXKIT" -j 1 mesh "$T/d.vxz" -o "$T/d1.glb" --json
out_has '"input_kind": "zone file (current grid)"'
run 0 "$VOXKIT" -j 2 mesh "$T/d.vxz" -o "$T/d2.glb"
same "$T/d1.glb" "$T/d2.glb"
run 0 node "$VALIDATE" "$T/d1.glb"
out_has '"numErrors": 0'

# Forced kinds, and options that do not apply to zones.
run 1 "$VOXKIT" mesh "$T/q.vxz" --input unity -o "$T/x.glb"
err_has "q.vxz"
run 2 "$VOXKIT" mesh "$T/q.vxz" --cells 4,3,4 --input zone -o "$T/x.glb"
err_has "raw grids"
run 2 "$VOXKIT" mesh "$T/q.vxz" --grid dug -o "$T/x.glb"
err_has "expected current or baked"
run 2 "$VOXKIT" mesh "$T/q.vxz" --input tar -o "$T/x.glb"
err_has "unknown input kind"
absent "$T/x.glb"
no_temp_left "$T"
finish
