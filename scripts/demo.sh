#!/usr/bin/env bash
# Sets up, builds and runs voxkit's main job on the bundled demo data; outputs go to out/demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release >/dev/null
vk=build/release/tools/voxkit
mkdir -p out/demo
"$vk" -f rle encode test_data/demo_grid.raw -o out/demo/demo_grid.rle
"$vk" rle decode out/demo/demo_grid.rle -o - | cmp - test_data/demo_grid.raw
echo "demo: wrote out/demo/demo_grid.rle"
