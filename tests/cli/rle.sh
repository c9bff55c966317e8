# CLI: voxkit rle encode|decode in pipes and files, exit codes, refused overwrites.
source "$(dirname "$0")/lib.sh"

printf '\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03' >"$T/raw"
run 0 "$VOXKIT" rle encode "$T/raw" -o "$T/a.rle"
# 13 samples: run of 10 zeros, literal 01 02 03
printf '\x0d\x15\x00\x06\x01\x02\x03' >"$T/want.rle"
same "$T/a.rle" "$T/want.rle"
run_in 0 "$T/a.rle" "$VOXKIT" rle decode - -o "$T/back"
same "$T/back" "$T/raw"
# pipes both ways
"$VOXKIT" rle encode - <"$T/raw" | "$VOXKIT" rle decode >"$T/piped" - ; same "$T/piped" "$T/raw"
# refuse to overwrite without -f, keep the old file
run 2 "$VOXKIT" rle encode "$T/raw" -o "$T/a.rle"
err_has "exists"
run 0 "$VOXKIT" rle encode "$T/raw" -o "$T/a.rle" -f
# bad data: exit 1, a message naming the file and offset, no output left behind
printf '\x0d\x15\x00\x00' >"$T/bad.rle"
run 1 "$VOXKIT" rle decode "$T/bad.rle" -o "$T/bad.out"
err_has "bad.rle: offset 3: zero-length token"
absent "$T/bad.out"
no_temp_left "$T"
# truncated
printf '\x0d\x15' >"$T/trunc.rle"
run 1 "$VOXKIT" rle decode "$T/trunc.rle" -o "$T/t.out"
err_has "offset 2"
# -q silences diagnostics but not errors
run 0 "$VOXKIT" -q rle decode "$T/a.rle" -o "$T/q.out"
checks=$((checks + 1)); [[ ! -s $T/err ]] || fail "-q printed: $(cat "$T/err")"
# usage errors
run 2 "$VOXKIT" rle
run 2 "$VOXKIT" rle decode --no-such-flag
run 1 "$VOXKIT" rle decode "$T/missing.rle" -o "$T/m.out"
err_has "missing.rle: cannot open"
finish
