# A world manifest with a [foliage] table: each tile's zone gets the trees baked as
# `foliage bake` bakes them, the index lists the foliage zones, and a changed tree list
# re-runs the foliage jobs and not the bakes.
source "$(dirname "$0")/lib.sh"
src=$VOXKIT_SOURCE_DIR
mkdir -p "$T/data/dem"
cp -r "$src/test_data/world" "$T/data/world"
cp "$src/test_data/dem/jacksboro_splat.png" "$T/data/dem/"
m=$T/data/world/demo.toml
python3 -c "
import random; random.seed(3)
print('x,y,z,prototype')
for k in range(60): print(f'{random.uniform(70,1970):.2f},{random.uniform(350,600):.2f},{random.uniform(70,1970):.2f},{k%3}')" >"$T/data/world/trees.csv"
# Bake and foliage only: drop the mesh and preview tables, add the trees.
python3 - "$m" <<'PY'
import sys
text = open(sys.argv[1]).read()
text = text[:text.index("[mesh]")] + '[foliage]\ntrees = "trees.csv"\n'
open(sys.argv[1], "w").write(text)
PY
run 0 "$VOXKIT" plan "$m" --emit ninja -o "$T/plan"
out_has "33 jobs (16 tiles)"
run 0 ninja -C "$T/plan" -j 2
checks=$((checks + 1))
[[ $(ls "$T"/plan/tiles/foliage/*.vxz | wc -l) -eq 16 ]] || fail "16 foliage zones expected"
# The same as foliage bake run by hand on a tile.
run 0 "$VOXKIT" -q foliage bake "$T/plan/tiles/bake/tile_2_1.vxz" --trees "$T/data/world/trees.csv" -o "$T/f21.vxz"
same "$T/plan/tiles/foliage/tile_2_1.vxz" "$T/f21.vxz"
run 0 "$VOXKIT" info "$T/plan/tiles/foliage/tile_2_1.vxz"
out_has "60 trees"
checks=$((checks + 1))
grep -q '"foliage"' "$T/plan/world_index.json" || fail "the index lacks the foliage files"
# A new tree list: the foliage jobs and the index run again, no bake.
sleep 1
echo "1000,500,1000,1" >>"$T/data/world/trees.csv"
run 0 ninja -C "$T/plan" -j 2
checks=$((checks + 1))
[[ $(grep -c "^\[.*\] foliage " "$T/out") -eq 16 && $(grep -c "^\[.*\] bake " "$T/out") -eq 0 ]] ||
  fail "a changed tree list should re-run the 16 foliage jobs and no bake"
finish
