#!/usr/bin/env bash
# Meshing beside a peer: our Surface Nets, Marching Cubes and the dig-zone package's mesher
# (bench_mesh) and VTK's Flying Edges (bench/flying_edges.py) on the same seeded 256x128x256 byte SDF grid, with the
# ratios the targets are stated in (chunked meshing, the real workload), and the ratios of
# one whole-grid mesh, which is what Flying Edges makes. Each figure is the best pass of at
# least the runs asked for (--repeat, Flying Edges 5) and of at least 0.25 s of passes, on
# both sides. Expects a release build (scripts/build.sh release).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bench/bench_mesh
[[ -x $bin ]] || { echo "mesh_peer.sh: build first: scripts/build.sh release" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --raw "$tmp/grid.raw" "$@" | tee "$tmp/ours.txt" | grep -v '^RESULT'
/usr/bin/python3 bench/flying_edges.py "$tmp/grid.raw" 257 129 257 | tee "$tmp/fe.txt" | grep -v '^RESULT'
grep -h '^RESULT' "$tmp/ours.txt" "$tmp/fe.txt" | awk '
  { rate[$2 " " $3] = $4 / $6; cpu[$2 " " $3] = $4 / $7 }
  END {
    fe = rate["flying_edges 1"]
    printf "surface nets,   1 thread vs flying edges: x%.2f triangles/s (target x3)\n", rate["surface_nets 1"] / fe
    printf "marching cubes, 1 thread vs flying edges: x%.2f triangles/s (target x1)\n", rate["marching_cubes 1"] / fe
    printf "package mesher, 1 thread vs flying edges: x%.2f triangles/s (target x3)\n", rate["package 1"] / fe
    printf "one whole-grid mesh like flying edges makes, 1 thread: surface nets x%.2f, marching cubes x%.2f\n", rate["sn_whole 1"] / fe, rate["mc_whole 1"] / fe
    printf "surface nets,   2 threads vs 1: x%.2f (target x1.8)\n", rate["surface_nets 2"] / rate["surface_nets 1"]
    printf "marching cubes, 2 threads vs 1: x%.2f (target x1.8)\n", rate["marching_cubes 2"] / rate["marching_cubes 1"]
    fc = cpu["flying_edges 1"]
    printf "by CPU time, less sensitive to a busy machine: surface nets x%.2f, marching cubes x%.2f flying edges (whole grid: x%.2f, x%.2f)\n", cpu["surface_nets 1"] / fc, cpu["marching_cubes 1"] / fc, cpu["sn_whole 1"] / fc, cpu["mc_whole 1"] / fc
  }'
