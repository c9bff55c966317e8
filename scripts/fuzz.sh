#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a while on its corpus.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 60 s, every target)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
scripts/setup.sh
scripts/build.sh fuzz >/dev/null
targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in fuzz/fuzz_*.cpp; do t=$(basename "$f" .cpp); targets+=("${t#fuzz_}"); done
fi
for t in "${targets[@]}"; do
  echo "== fuzz_$t (${secs}s)"
  work=$(mktemp -d)
  # New inputs go to a scratch directory; the committed corpus is only read.
  build/fuzz/fuzz/fuzz_"$t" -max_total_time="$secs" -timeout=10 -print_final_stats=1 "$work" "fuzz/corpus/$t" 2>&1 | tail -5
  rm -rf "$work"
done
