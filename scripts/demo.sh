#!/usr/bin/env bash
# Sets up, builds and runs voxkit's main job on the bundled demo data: encodes the demo SDF
# grid (test_data/demo_grid.raw, 64x40x64 cells, made by scripts/make_demo_grid.py) as a
# dig-zone RLE stream and as a chunk blob, checks both decode back to the same bytes, and
# prints what `voxkit info` says about each. Outputs go to out/demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release >/dev/null
vk=build/release/tools/voxkit
grid=test_data/demo_grid.raw
cells=64,40,64
mkdir -p out/demo

echo "== the grid"
"$vk" info "$grid" --cells "$cells"

echo
echo "== RLE stream"
"$vk" -f rle encode "$grid" -o out/demo/demo_grid.rle
"$vk" rle decode out/demo/demo_grid.rle -o - | cmp - "$grid"
"$vk" info out/demo/demo_grid.rle --cells "$cells"

echo
echo "== chunk blob (16 cells per chunk)"
"$vk" -f pack "$grid" --cells "$cells" --chunk-cells 16 -o out/demo/demo_grid.vxcb
"$vk" unpack out/demo/demo_grid.vxcb -o - | cmp - "$grid"
"$vk" info out/demo/demo_grid.vxcb

echo
echo "== one chunk alone: chunk 2,0,1 (its 18x17x18 samples: no border below y = 0)"
"$vk" -f unpack out/demo/demo_grid.vxcb --chunk 2,0,1 -o out/demo/chunk_2_0_1.raw
"$vk" info out/demo/chunk_2_0_1.raw --cells 17,16,17

echo
echo "demo: wrote out/demo/demo_grid.rle, out/demo/demo_grid.vxcb, out/demo/chunk_2_0_1.raw"

echo
echo "== bake the demo terrain (USGS DEM, NAD83 degrees warped to UTM 16N) into a zone, with previews"
"$vk" -f bake test_data/dem/jacksboro_crop.tif -o out/demo/jacksboro.vxz \
  --center 7000,600,8000 --size 12000,100,14000 --voxel-size 25 \
  --splat test_data/dem/jacksboro_splat.png --layers grass,rock,sand,snow
"$vk" info out/demo/jacksboro.vxz
"$vk" -f preview out/demo/jacksboro.vxz -o out/demo/jacksboro_top.png
"$vk" -f preview out/demo/jacksboro.vxz -o out/demo/jacksboro_slice.png --slice z=280
"$vk" -f preview out/demo/jacksboro.vxz -o out/demo/jacksboro_chunks.png --view chunks
echo "demo: wrote out/demo/jacksboro.vxz and its previews out/demo/jacksboro_{top,slice,chunks}.png"
