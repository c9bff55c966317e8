# Helpers for CLI cases: each case is a bash script run by ctest with $VOXKIT set.
set -u
: "${VOXKIT:?VOXKIT must point at the voxkit binary}"
: "${VOXKIT_SOURCE_DIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0
checks=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# run EXPECTED_EXIT CMD...: runs CMD with stdout in $T/out, stderr in $T/err.
run() {
  local want=$1; shift
  checks=$((checks + 1))
  "$@" >"$T/out" 2>"$T/err" </dev/null
  local got=$?
  if [[ $got -ne $want ]]; then
    fail "exit $got (expected $want): $*"; sed 's/^/  stderr: /' "$T/err" >&2
  fi
}
# run_in EXPECTED_EXIT INPUT_FILE CMD...: same with stdin from a file.
run_in() {
  local want=$1 input=$2; shift 2
  checks=$((checks + 1))
  "$@" <"$input" >"$T/out" 2>"$T/err"
  local got=$?
  if [[ $got -ne $want ]]; then
    fail "exit $got (expected $want): $*"; sed 's/^/  stderr: /' "$T/err" >&2
  fi
}
err_has() { checks=$((checks + 1)); grep -q -- "$1" "$T/err" || { fail "stderr lacks '$1'"; sed 's/^/  stderr: /' "$T/err" >&2; }; }
out_has() { checks=$((checks + 1)); grep -q -- "$1" "$T/out" || fail "stdout lacks '$1'"; }
same() { checks=$((checks + 1)); cmp -s "$1" "$2" || fail "$1 and $2 differ"; }
absent() { checks=$((checks + 1)); [[ ! -e $1 ]] || fail "$1 should not exist"; }
no_temp_left() { checks=$((checks + 1)); local left; left=$(find "$1" -name '.*.tmp-*' | head -1); [[ -z $left ]] || fail "temporary file left: $left"; }
finish() {
  echo "$((checks - failures)) passed, $failures failed"
  [[ $failures -eq 0 ]]
}
