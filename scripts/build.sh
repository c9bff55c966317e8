#!/usr/bin/env bash
# Configures and builds voxkit. Usage: scripts/build.sh [release|asan|fuzz]
# Build trees go to build/<config>.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-release}
case "$config" in
  release) flags=() ;;
  # -O1: the tests run several times faster than at -O0 under the sanitizers; -g1 keeps
  # file and line in their reports.
  asan) flags=(-DVOXKIT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DVOXKIT_BENCH=OFF) ;;
  fuzz) flags=(-DVOXKIT_FUZZ=ON -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14) ;;
  *) echo "usage: scripts/build.sh [release|asan|fuzz]" >&2; exit 2 ;;
esac
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
if [[ ! -f build/$config/CMakeCache.txt ]]; then
  cmake -S . -B "build/$config" "${gen[@]}" "${flags[@]}" >/dev/null
fi
cmake --build "build/$config" -j "$(nproc)"
