#!/usr/bin/env bash
# Builds and runs every benchmark under bench/; each prints its own figures.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --bench
scripts/build.sh release >/dev/null
for b in build/release/bench/bench_*; do
  [[ -x $b ]] || continue
  echo "== $(basename "$b")"
  "$b" "$@"
done
for s in bench/*.sh; do
  [[ -f $s ]] || continue
  echo "== $(basename "$s")"
  bash "$s"
done
