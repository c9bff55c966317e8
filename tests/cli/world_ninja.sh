# voxkit plan --emit ninja on the demo world: ninja builds 4x4 tiles whose zones equal a whole
# bake and whose chunk meshes equal a whole mesh; a second run does nothing; changing one
# height piece rebuilds only the tiles whose window covers it; bad manifests and tiles fail
# with their messages.
source "$(dirname "$0")/lib.sh"
src=$VOXKIT_SOURCE_DIR
# A copy of the data: the case changes a piece.
mkdir -p "$T/data"
cp -r "$src/test_data/world" "$T/data/world"
mkdir -p "$T/data/dem" && cp "$src/test_data/dem/jacksboro_splat.png" "$T/data/dem/"
m=$T/data/world/demo.toml

run 0 "$VOXKIT" plan "$m" --emit ninja -o "$T/plan"
out_has "49 jobs (16 tiles)"
run 0 ninja -C "$T/plan" -j 2
out_has "16 tiles indexed"

# The whole world in one bake and one mesh.
run 0 "$VOXKIT" -q bake "$T/data/world/height.vrt" --box 60,270,60,1980,720,1980 --voxel-size 15 \
  --splat "$T/data/dem/jacksboro_splat.png" --layers grass,rock,sand,snow -o "$T/whole.vxz"
run 0 "$VOXKIT" -q mesh "$T/whole.vxz" -o "$T/whole.glb"
run 0 python3 "$src/tests/world/compare_tiles.py" "$T/whole.vxz" "$T/plan"
out_has "16 tiles compared with the whole bake: equal"
run 0 python3 "$src/tests/world/glb_chunks.py" "$T/whole.glb" "$T"/plan/tiles/mesh/*.glb
out_has "equal"
checks=$((checks + 1))
[[ $(ls "$T"/plan/tiles/preview/*.png | wc -l) -eq 16 ]] || fail "16 previews expected"

# Nothing to do the second time, re-planning included.
run 0 ninja -C "$T/plan" -n
out_has "no work to do"
run 0 "$VOXKIT" plan "$m" --emit ninja -o "$T/plan"
out_has "0 files written"
run 0 ninja -C "$T/plan" -n
out_has "no work to do"

# Changing one piece (south-east) rebuilds the tiles whose window meets it, then the index.
expected=$(python3 -c "
import json; p=json.load(open('$T/plan/plan.json'))
print(sum(1 for j in p['jobs'] if j['stage']=='bake' and any(i.endswith('height_1_0.tif') for i in j['inputs'])))")
checks=$((checks + 1))
[[ $expected -gt 0 && $expected -lt 16 ]] || fail "piece 1,0 should feed some tiles, not all: $expected"
cp "$T/plan/tiles/bake/tile_0_3.vxz" "$T/untouched.vxz"
sleep 1
gdal_calc.py --quiet -A "$T/data/world/height_1_0.tif" --calc="A+1" --outfile="$T/p.tif" --overwrite >/dev/null 2>&1 ||
  gdal_translate -q -scale 0 1000 0 1000 "$T/data/world/height_1_0.tif" "$T/p.tif"
cp "$T/p.tif" "$T/data/world/height_1_0.tif"
run 0 ninja -C "$T/plan" -j 2
rebaked=$(grep -c "^\[.*\] bake " "$T/out")
checks=$((checks + 1))
[[ $rebaked -eq $expected ]] || fail "changed piece: $rebaked tiles re-baked, expected $expected"
out_has "index index"
same "$T/plan/tiles/bake/tile_0_3.vxz" "$T/untouched.vxz"

# A tile outside the world, an unknown engine, an unknown manifest key.
run 2 "$VOXKIT" tile bake "$m" --tile 4,0 -o "$T/x.vxz"
err_has "tile 4,0 is outside the world of 4x4 tiles"
run 2 "$VOXKIT" plan "$m" --emit make -o "$T/x"
err_has "unknown engine 'make'"
printf '[world]\nmin = [0,0,0]\nmax = [10,10,10]\nvoxel_sise = 1\n[terrain]\nheight = "h.tif"\n' >"$T/bad.toml"
run 1 "$VOXKIT" plan "$T/bad.toml" --emit ninja -o "$T/x"
err_has "line 4: unknown key world.voxel_sise"
absent "$T/x/plan.json"
# A tile zone of another tile is refused by the mesher.
run 2 "$VOXKIT" tile mesh "$m" --tile 1,1 --zone "$T/plan/tiles/bake/tile_0_0.vxz" -o "$T/x.glb"
err_has "is not tile 1,1"
finish
