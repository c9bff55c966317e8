#!/usr/bin/env bash
# Sets up, builds and runs every test. Usage: scripts/test.sh [release|asan]
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-release}
scripts/setup.sh --tests
scripts/build.sh "$config"
cd "build/$config"
ctest --output-on-failure -j "$(nproc)"
