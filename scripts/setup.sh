#!/usr/bin/env bash
# Installs every Debian package voxkit needs to build, test, fuzz, benchmark and check
# its outputs. Idempotent and quick when everything is already present.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libcli11-dev nlohmann-json3-dev catch2 libstb-dev
  liblz4-dev libxxhash-dev zlib1g-dev libtbb-dev libmeshoptimizer-dev
  libgdal-dev gdal-bin libassimp-dev
  clang-14 libfuzzer-14-dev libclang-rt-14-dev
  python3 python3-lz4 python3-numpy lua5.4 nodejs
  libtomlplusplus-dev libvulkan-dev glslang-tools mesa-vulkan-drivers
)
# Optional sets (docs/world.md has their cost): `--tests` adds what the world tests run (the
# build engine Snakemake, a Slurm controller and node daemon with munge; Ninja is above), the
# JSON schema validator, and what checks the man pages and completion (groff, man, col, zsh);
# `--bench` adds those and the mesh benchmarks' peers (VTK, the assimp command).
for arg in "$@"; do
  case "$arg" in
    --tests) PACKAGES+=(snakemake slurm-wlm munge python3-jsonschema groff-base man-db bsdextrautils zsh) ;;
    --bench) PACKAGES+=(python3-vtk9 assimp-utils snakemake slurm-wlm munge) ;;
  esac
done

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm is shipped with some nodejs builds and packaged separately in Debian's.
if ! command -v npm >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi

# The Khronos glTF validator, pinned by scripts/node/package-lock.json.
here=$(cd "$(dirname "$0")" && pwd)
if [[ -f "$here/node/package.json" && ! -d "$here/node/node_modules/gltf-validator" ]]; then
  (cd "$here/node" && npm ci --silent --no-audit --no-fund >/dev/null)
fi
