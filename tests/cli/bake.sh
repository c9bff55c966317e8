# CLI: voxkit bake, rebake and preview on the demo DEM, Unity .raw files and ASCII grids.
source "$(dirname "$0")/lib.sh"
D=$VOXKIT_SOURCE_DIR/test_data/dem
dem=$D/jacksboro_crop.tif
box=(--center 7500,0,7500 --size 96,40,96 --voxel-size 2)

# bake the demo DEM (geographic, warped to UTM) with splat maps; JSON summary on stdout
run 0 "$VOXKIT" bake "$dem" -o "$T/a.vxz" "${box[@]}" --splat "$D/jacksboro_splat.png" \
  --layers grass,rock,sand,snow --json
out_has '"cells"'
out_has '"grass"'
err_has "EPSG:32616"
# the same bytes with one and two threads
run 0 "$VOXKIT" -j 1 bake "$dem" -o "$T/j1.vxz" "${box[@]}"
run 0 "$VOXKIT" -j 2 bake "$dem" -o "$T/j2.vxz" "${box[@]}"
same "$T/j1.vxz" "$T/j2.vxz"
# an existing output is refused without -f, replaced with it
run 2 "$VOXKIT" bake "$dem" -o "$T/a.vxz" "${box[@]}"
err_has "exists"
run 0 "$VOXKIT" -f bake "$dem" -o "$T/a.vxz" "${box[@]}"
# the sample limit names the fix; nothing is left behind
run 2 "$VOXKIT" bake "$dem" -o "$T/big.vxz" "${box[@]}" --max-samples 1000
err_has "use a larger --voxel-size or a smaller box"
absent "$T/big.vxz"
no_temp_left "$T"
# a box outside the terrain, a bad box, mutually exclusive options
run 2 "$VOXKIT" bake "$dem" -o "$T/out.vxz" --center 1e7,0,0 --size 10,10,10
err_has "not inside the terrain"
run 2 "$VOXKIT" bake "$dem" -o "$T/out.vxz" --box 1,2,3
run 2 "$VOXKIT" bake "$dem" -o "$T/out.vxz" --box 0,0,0,1,1,1 --center 0,0,0 --size 1,1,1
run 2 "$VOXKIT" bake "$dem" -o "$T/out.vxz" --voxel-size 0
# too many layer names for one control image
run 2 "$VOXKIT" bake "$dem" -o "$T/out.vxz" "${box[@]}" --splat "$D/jacksboro_splat.png" --layers a,b,c,d,e
err_has "at most 4"

# Unity .raw: 33x33 inferred from the size, placement required
head -c $((33 * 33 * 2)) /dev/zero >"$T/flat.raw"
run 2 "$VOXKIT" bake "$T/flat.raw" -o "$T/raw.vxz"
err_has "terrain-size"
run 0 "$VOXKIT" bake "$T/flat.raw" -o "$T/raw.vxz" --terrain-size 32,20,32 --voxel-size 1 --json
out_has '"cells": \['
# the report's zone is what info --json says of the file written
cp "$T/out" "$T/bake.json"
run 0 "$VOXKIT" info "$T/raw.vxz" --json
checks=$((checks + 1))
python3 - "$T/bake.json" "$T/out" "$T/raw.vxz" <<'EOF' || fail "bake --json: zone differs from info --json details"
import json, sys
bake, info = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ok = bake["zone"] == info["details"] and bake["output"] == sys.argv[3] and bake["heightmap"].endswith("flat.raw")
sys.exit(0 if ok else 1)
EOF
# with the zone on stdout, the report goes to stderr
"$VOXKIT" bake "$T/flat.raw" -o - --terrain-size 32,20,32 --voxel-size 1 --json >"$T/stdout.vxz" 2>"$T/err"
err_has '"zone": {'
same "$T/stdout.vxz" "$T/raw.vxz"
head -c 1000 /dev/zero >"$T/odd.raw"
run 1 "$VOXKIT" bake "$T/odd.raw" -o "$T/odd.vxz" --terrain-size 32,20,32
err_has "odd.raw"
err_has "raw-size"
run 0 "$VOXKIT" bake "$T/odd.raw" -o "$T/odd.vxz" --terrain-size 24,20,19 --raw-size 25,20 --voxel-size 1

# NoData under the zone is refused unless a fill policy is given
printf 'ncols 4\nnrows 4\nxllcorner 0\nyllcorner 0\ncellsize 4\nNODATA_value -9999\n1 2 3 4\n1 -9999 3 4\n1 2 3 4\n1 2 3 4\n' >"$T/hole.asc"
run 1 "$VOXKIT" bake "$T/hole.asc" -o "$T/hole.vxz" --voxel-size 1 --border 1
err_has "without data"
err_has "nodata-fill"
absent "$T/hole.vxz"
run 0 "$VOXKIT" bake "$T/hole.asc" -o "$T/hole.vxz" --voxel-size 1 --border 1 --nodata-fill nearest
run 2 "$VOXKIT" bake "$T/hole.asc" -o "$T/hole2.vxz" --nodata-fill sideways
# a raster without georeferencing needs a placement
run 2 "$VOXKIT" bake "$D/jacksboro_splat.png" -o "$T/png.vxz"
err_has "no georeferencing"
run 0 "$VOXKIT" bake "$D/jacksboro_splat.png" -o "$T/png.vxz" --terrain-size 63,10,63 --voxel-size 1
run 1 "$VOXKIT" bake "$T/missing.tif" -o "$T/m.vxz"
err_has "missing.tif"

# rebake: the same terrain changes nothing; a raised terrain changes samples
run 0 "$VOXKIT" rebake "$T/raw.vxz" "$T/flat.raw" --terrain-size 32,20,32 -o "$T/re.vxz" --json
out_has '"kept": 0'
out_has '"changed": 0'
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x20' * (33 * 33))" >"$T/high.raw"
run 0 "$VOXKIT" rebake "$T/raw.vxz" "$T/high.raw" --terrain-size 32,20,32 -o "$T/re2.vxz" --json
checks=$((checks + 1)); grep -q '"changed": 0,' "$T/out" && fail "a raised terrain changed nothing"
run 2 "$VOXKIT" rebake "$T/raw.vxz" "$T/high.raw" --terrain-size 32,20,32
err_has "in-place"
cp "$T/raw.vxz" "$T/inplace.vxz"
run 0 "$VOXKIT" rebake "$T/inplace.vxz" "$T/high.raw" --terrain-size 32,20,32 --in-place
same "$T/inplace.vxz.bak" "$T/raw.vxz"
same "$T/inplace.vxz" "$T/re2.vxz"
run 2 "$VOXKIT" rebake "$T/inplace.vxz" "$T/high.raw" --terrain-size 32,20,32 --in-place
err_has "bak exists"

# previews: PNG files of each view; bad slices are usage errors
for view in top chunks slice; do
  run 0 "$VOXKIT" preview "$T/a.vxz" -o "$T/$view.png" --view "$view"
  checks=$((checks + 1)); [[ $(head -c 4 "$T/$view.png" | od -An -c | tr -d ' ') == '211PNG' ]] || fail "$view.png is not a PNG"
done
run 0 "$VOXKIT" preview "$T/a.vxz" -o "$T/x.png" --slice x=3
run 2 "$VOXKIT" preview "$T/a.vxz" -o "$T/bad.png" --slice x=100000
err_has "outside the zone"
run 2 "$VOXKIT" preview "$T/a.vxz" -o "$T/bad.png" --slice y=3
run 2 "$VOXKIT" preview "$T/a.vxz" -o "$T/bad.png" --view sideways
absent "$T/bad.png"
run 1 "$VOXKIT" preview "$T/flat.raw" -o "$T/bad.png"
absent "$T/bad.png"
finish
