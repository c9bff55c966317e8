#!/usr/bin/env bash
# Prints the README's verb table from `voxkit --help`, or with --check fails when the README
# differs from it. Usage: scripts/readme_verbs.sh VOXKIT [--check README]
set -euo pipefail
vk=$1
table=$("$vk" --help | awk '/^Subcommands:/{on=1; next} on && NF {name=$1; $1=""; sub(/^ +/, ""); printf "| `%s` | %s |\n", name, $0}')
block=$(printf '| verb | what it does |\n|---|---|\n%s\n' "$table")
if [[ ${2:-} == --check ]]; then
  readme=$3
  current=$(awk '/<!-- verbs:begin -->/{on=1; next} /<!-- verbs:end -->/{on=0} on' "$readme")
  if [[ "$current" != "$block" ]]; then
    echo "README verb table is out of date; regenerate it with scripts/readme_verbs.sh" >&2
    diff <(echo "$current") <(echo "$block") >&2 || true
    exit 1
  fi
  echo "1 passed, 0 failed"
else
  echo "$block"
fi
