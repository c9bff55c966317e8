#!/usr/bin/env bash
# Sets up, builds and runs voxkit's main job on the bundled demo data: bakes a real DEM
# (test_data/dem: a public-domain USGS crop, NAD83 degrees warped to UTM 16N) with a
# synthetic splat map into a dig zone, describes it, draws its previews and meshes it to
# glTF; then shows the codecs on the demo SDF grid. Outputs go to out/demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release >/dev/null
vk=build/release/tools/voxkit
out=out/demo
mkdir -p "$out"

echo "== bake the demo terrain into a zone"
"$vk" -f bake test_data/dem/jacksboro_crop.tif -o "$out/jacksboro.vxz" \
  --center 7000,600,8000 --size 12000,100,14000 --voxel-size 25 \
  --splat test_data/dem/jacksboro_splat.png --layers grass,rock,sand,snow
"$vk" info "$out/jacksboro.vxz"

echo
echo "== previews"
"$vk" -f preview "$out/jacksboro.vxz" -o "$out/jacksboro_top.png"
"$vk" -f preview "$out/jacksboro.vxz" -o "$out/jacksboro_slice.png" --slice z=280
"$vk" -f preview "$out/jacksboro.vxz" -o "$out/jacksboro_chunks.png" --view chunks

echo
echo "== mesh the zone (Surface Nets, chunk meshes welded into one, glTF binary)"
"$vk" -f mesh "$out/jacksboro.vxz" -o "$out/jacksboro.glb" --merge --stats

echo
echo "== codecs on the demo SDF grid (64x40x64 cells)"
grid=test_data/demo_grid.raw
cells=64,40,64
"$vk" -f rle encode "$grid" -o "$out/demo_grid.rle"
"$vk" rle decode "$out/demo_grid.rle" -o - | cmp - "$grid"
"$vk" info "$out/demo_grid.rle" --cells "$cells"
"$vk" -f pack "$grid" --cells "$cells" --chunk-cells 16 -o "$out/demo_grid.vxcb"
"$vk" unpack "$out/demo_grid.vxcb" -o - | cmp - "$grid"
"$vk" info "$out/demo_grid.vxcb"

echo
echo "demo: wrote $out/jacksboro.vxz, its previews (jacksboro_{top,slice,chunks}.png),"
echo "      $out/jacksboro.glb, $out/demo_grid.rle and $out/demo_grid.vxcb"
