# CLI: voxkit chunk convert: every form to every form, detection, batch mode, exit codes.
source "$(dirname "$0")/lib.sh"

# The all-zero chunk's serialized string (worked out by hand in tests/test_sm_chunk.cpp).
Z=HwABAP////////////////////////8rUAAAAAAA
printf '%s\n' "$Z" >"$T/zero.b64"
head -c 4913 /dev/zero >"$T/zero.bin"

# every form to every form and back to the binary
for to in lua json bin lz4 b64; do
  run 0 "$VOXKIT" chunk convert "$T/zero.b64" --to $to -o "$T/z.$to"
  err_has "b64 (detected) -> $to"
  run 0 "$VOXKIT" chunk convert "$T/z.$to" --to bin -o "$T/z.$to.bin"
  err_has "$to (detected) -> bin"
  same "$T/z.$to.bin" "$T/zero.bin"
done
same "$T/z.b64" "$T/zero.b64"
head -c 8 "$T/z.lua" >"$T/lua.head"; printf 'return {' >"$T/lua.want"; same "$T/lua.head" "$T/lua.want"
# a solid chunk is 4913 '?' bytes: detected as binary, not text
head -c 4913 /dev/zero | tr '\0' '?' >"$T/solid.bin"
run 0 "$VOXKIT" chunk convert "$T/solid.bin" --to json -o "$T/solid.json"
err_has "bin (detected)"
grep -q '^  0, 63, 0, 63' "$T/solid.json" || fail "solid.json rows"
# --from forces the form
run 1 "$VOXKIT" chunk convert "$T/zero.b64" --from lua --to bin -o "$T/forced"
err_has "zero.b64: offset 6: expected '=' after the name 'HwABAP'"
absent "$T/forced"
# pipes
"$VOXKIT" chunk convert - --to lua <"$T/zero.b64" | "$VOXKIT" chunk convert - --to b64 >"$T/piped"
same "$T/piped" "$T/zero.b64"
# bad data: file, offset, expected, found; no output left
printf 'return {0, 64%s}\n' "$(printf ', 0%.0s' $(seq 9824))" >"$T/bad.lua"
run 1 "$VOXKIT" chunk convert "$T/bad.lua" --to b64 -o "$T/bad.out"
err_has "bad.lua: offset 11: density of voxel 0 (x 0, y 0, z 0) is out of range (expected 0..63, found 64)"
absent "$T/bad.out"
printf '{0, 0}\n' >"$T/short.lua"
run 1 "$VOXKIT" chunk convert "$T/short.lua" --to b64 -o "$T/bad.out"
err_has "short.lua: offset 5: wrong number of values in the table (expected 9826"
printf 'not\x00a chunk' >"$T/junk.bin"
run 1 "$VOXKIT" chunk convert "$T/junk.bin" --to b64 -o "$T/bad.out"
err_has "junk.bin: offset 1: malformed LZ4 block"
err_has "\[read as lz4; --from sets the form\]"
printf 'hello world' >"$T/what.txt"
run 1 "$VOXKIT" chunk convert "$T/what.txt" --to b64 -o "$T/bad.out"
err_has "no Scrap Mechanic chunk form"
# a string whose block decodes to 4912 bytes
head -c 4912 /dev/zero | "$VOXKIT" lz4 compress --hc | "$VOXKIT" b64 encode >"$T/short.b64"
run 1 "$VOXKIT" chunk convert "$T/short.b64" --to bin -o "$T/bad.out"
err_has "expected 4913 bytes, found 4912 bytes"
absent "$T/bad.out"
no_temp_left "$T"
# refused overwrite; usage errors
run 2 "$VOXKIT" chunk convert "$T/zero.b64" --to bin -o "$T/zero.bin"
err_has "exists"
run 2 "$VOXKIT" chunk convert "$T/zero.b64" --to zip
run 2 "$VOXKIT" chunk convert "$T/zero.b64"
run 2 "$VOXKIT" chunk convert "$T/zero.b64" --to b64 --keep-going

# batch: one string per line -> one output per line
printf '%s\n%s\r\n%s' "$Z" "$Z" "$Z" >"$T/lines.txt"
run 0 "$VOXKIT" chunk convert --batch "$T/lines.txt" --to b64 -o "$T/lines.out"
printf '%s\n%s\n%s\n' "$Z" "$Z" "$Z" >"$T/lines.want"
same "$T/lines.out" "$T/lines.want"
err_has "3 of 3 items done"
run_in 0 "$T/lines.txt" "$VOXKIT" chunk convert --batch --to bin
# bin: a binary batch (docs/batch.md): 16-byte header, per chunk 9 bytes and 4913
checks=$((checks + 1)); [[ $(wc -c <"$T/out") -eq $((16 + 3 * (9 + 4913))) ]] || fail "batch bin records"
run 0 "$VOXKIT" chunk convert --batch "$T/lines.txt" --to lua -o "$T/lines.lua"
checks=$((checks + 1)); [[ $(wc -l <"$T/lines.lua") -eq 3 ]] || fail "batch lua lines"
run 0 "$VOXKIT" chunk convert --batch "$T/lines.lua" --to b64 -o "$T/lines.again"
same "$T/lines.again" "$T/lines.want"
# a bad line stops the run, names the line, leaves no output
printf '%s\nAAAA\n%s\n' "$Z" "$Z" >"$T/badline.txt"
run 1 "$VOXKIT" chunk convert --batch "$T/badline.txt" --to b64 -o "$T/bl.out"
err_has "badline.txt: item 2 (line 2): "
absent "$T/bl.out"
# --keep-going: every bad line listed, an empty line in its place, exit 1 at the end
printf '%s\nAAAA\n%s\n{1}\n' "$Z" "$Z" >"$T/bad2.txt"
run 1 "$VOXKIT" -q chunk convert --batch --keep-going "$T/bad2.txt" --to b64 -o "$T/kg.out"
err_has "bad2.txt: item 2 (line 2): "
err_has "bad2.txt: item 4 (line 4): "
err_has "2 of 4 items failed"
printf '%s\n\n%s\n\n' "$Z" "$Z" >"$T/kg.want"
same "$T/kg.out" "$T/kg.want"
# lz4 blocks do not fit in lines: they come in a binary batch
run 2 "$VOXKIT" chunk convert --batch --from lz4 "$T/lines.txt" --to b64 -o "$T/x.b64"
run 0 "$VOXKIT" chunk convert --batch "$T/lines.txt" --to lz4 -o "$T/x.lz4"
run 0 "$VOXKIT" chunk convert --batch "$T/x.lz4" --from lz4 --to b64 -o "$T/x.b64"
same "$T/x.b64" "$T/lines.want"
# the thread count does not change the bytes
for i in 1 2 3 4 5 6 7 8; do cat "$T/lines.txt"; echo; done >"$T/many.txt"
"$VOXKIT" -q -j 1 chunk convert --batch "$T/many.txt" --to json >"$T/j1"
"$VOXKIT" -q -j 2 chunk convert --batch "$T/many.txt" --to json >"$T/j2"
same "$T/j1" "$T/j2"

# binary forms to a terminal are refused, text forms are not
if command -v script >/dev/null 2>&1; then
  checks=$((checks + 1))
  script -qec "'$VOXKIT' chunk convert '$T/zero.b64' --to bin" /dev/null >"$T/tty.out" 2>&1
  [[ $? -eq 2 ]] || fail "binary to a terminal was not refused"
  grep -q "refusing to write binary data to a terminal" "$T/tty.out" || fail "no terminal message"
  checks=$((checks + 1))
  script -qec "'$VOXKIT' -q chunk convert '$T/zero.bin' --to b64" /dev/null >"$T/tty2.out" 2>&1 ||
    fail "b64 to a terminal was refused"
  grep -q "$Z" "$T/tty2.out" || fail "b64 not printed to the terminal"
fi
finish
