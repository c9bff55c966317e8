# CLI: voxkit b64 encode|decode: pipes, exit codes, strictness, refused overwrites.
source "$(dirname "$0")/lib.sh"

printf 'foobar' >"$T/raw"
run 0 "$VOXKIT" b64 encode "$T/raw" -o "$T/a.b64"
printf 'Zm9vYmFy\n' >"$T/want"
same "$T/a.b64" "$T/want"
run 0 "$VOXKIT" b64 encode --no-newline "$T/raw" -o "$T/n.b64"
printf 'Zm9vYmFy' >"$T/want.n"
same "$T/n.b64" "$T/want.n"
run_in 0 "$T/a.b64" "$VOXKIT" b64 decode - -o "$T/back"
same "$T/back" "$T/raw"
run 0 "$VOXKIT" b64 decode "$T/n.b64" -o "$T/back2"
same "$T/back2" "$T/raw"
# pipes both ways, random bytes
head -c 10007 /dev/urandom >"$T/rnd"
"$VOXKIT" b64 encode <"$T/rnd" | "$VOXKIT" b64 decode >"$T/rnd.back"; same "$T/rnd.back" "$T/rnd"
# refuse to overwrite without -f
run 2 "$VOXKIT" b64 encode "$T/raw" -o "$T/a.b64"
err_has "exists"
run 0 "$VOXKIT" -f b64 encode "$T/raw" -o "$T/a.b64"
# strict decoding: message names the file, the offset and the character; no output left
printf 'Zm9v YmF' >"$T/space.b64"
run 1 "$VOXKIT" b64 decode "$T/space.b64" -o "$T/bad.out"
err_has "space.b64: offset 4: invalid Base64 character"
err_has "0x20 (space)"
absent "$T/bad.out"
printf 'Zm9vY' >"$T/len.b64"
run 1 "$VOXKIT" b64 decode "$T/len.b64" -o "$T/bad.out"
err_has "not a multiple of 4"
printf 'Zg==Zm9v' >"$T/pad.b64"
run 1 "$VOXKIT" b64 decode "$T/pad.b64" -o "$T/bad.out"
err_has "offset 2: Base64 padding '=' before the end"
printf 'Zm9vYmFy\n\n' >"$T/nl2.b64"
run 1 "$VOXKIT" b64 decode "$T/nl2.b64" -o "$T/bad.out"
absent "$T/bad.out"
no_temp_left "$T"
# -q silences the summary
run 0 "$VOXKIT" -q b64 decode "$T/a.b64" -o "$T/q.out"
checks=$((checks + 1)); [[ ! -s $T/err ]] || fail "-q printed: $(cat "$T/err")"
# usage errors
run 2 "$VOXKIT" b64
run 2 "$VOXKIT" b64 decode --bogus
run 1 "$VOXKIT" b64 decode "$T/missing" -o "$T/m.out"
err_has "missing: cannot open"
finish
