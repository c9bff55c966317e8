# CLI: --batch of the codec verbs (docs/batch.md): text and binary batches, round trips,
# --keep-going keeping record N = item N, the failure list and its JSON, no output after a
# failure without --keep-going, damaged binary batches refused with their offset.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

# recs FILE: one line per record of a binary batch: "ok HEX" or "failed".
recs() {
  "$PY" - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"VXBATCH\x01", d[:8]
n = struct.unpack_from("<Q", d, 8)[0]; at = 16
for _ in range(n):
    st = d[at]; ln = struct.unpack_from("<Q", d, at + 1)[0]; at += 9
    print("failed" if st else "ok " + d[at:at + ln].hex()); at += ln
assert at == len(d)
PY
}
# same_text FILE TEXT: FILE holds exactly TEXT (printf format).
same_text() { printf "$2" >"$T/want.txt"; same "$1" "$T/want.txt"; }
recs_are() {  # recs_are FILE WANT...: the records, one word pair per argument
  checks=$((checks + 1))
  local got want
  got=$(recs "$1") || { fail "$1 is no binary batch"; return; }
  shift; want=$(printf '%s\n' "$@")
  [[ $got == "$want" ]] || fail "records: got [$got] want [$want]"
}
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

# Items: "foobar", "", "x", "hello hello hello hello" as Base64 lines (the text form of bytes).
printf 'Zm9vYmFy\n\neA==\r\naGVsbG8gaGVsbG8gaGVsbG8gaGVsbG8=' >"$T/items.b64"

# --- b64: decode lines -> binary batch; encode it back -> the same lines
run 0 "$VOXKIT" b64 decode --batch "$T/items.b64" -o "$T/items.vxb"
err_has "b64 decode: 4 of 4 items done"
recs_are "$T/items.vxb" "ok $(hex foobar)" "ok " "ok $(hex x)" "ok $(hex 'hello hello hello hello')"
run 0 "$VOXKIT" b64 encode --batch "$T/items.vxb" -o "$T/items.again"
same_text "$T/items.again" 'Zm9vYmFy\n\neA==\naGVsbG8gaGVsbG8gaGVsbG8gaGVsbG8=\n'
# encode: text lines are the items themselves
printf 'foobar\nx\n' | "$VOXKIT" -q b64 encode --batch - >"$T/enc.txt"
same_text "$T/enc.txt" 'Zm9vYmFy\neA==\n'
run 2 "$VOXKIT" b64 encode --batch --no-newline "$T/items.vxb" -o "$T/n.txt"
absent "$T/n.txt"

# --- rle: encode (text or binary input) -> binary batch; decode it back
run 0 "$VOXKIT" rle encode --batch "$T/items.b64" -o "$T/rle.vxb"
run 0 "$VOXKIT" rle encode --batch "$T/items.vxb" -o "$T/rle2.vxb"
same "$T/rle.vxb" "$T/rle2.vxb"
run 0 "$VOXKIT" rle decode --batch "$T/rle.vxb" -o "$T/rle.back"
same "$T/rle.back" "$T/items.vxb"
# one record checked against the single-item verb
printf 'hello hello hello hello' | "$VOXKIT" -q rle encode - >"$T/one.rle"
checks=$((checks + 1)); recs "$T/rle.vxb" | sed -n 4p | grep -qx "ok $(od -An -tx1 "$T/one.rle" | tr -d ' \n')" || fail "rle record 4"

# --- lz4: compress -> binary batch -> decompress with sizes per line or one --size
run 0 "$VOXKIT" lz4 compress --batch --hc "$T/items.vxb" -o "$T/lz.vxb"
run 1 "$VOXKIT" lz4 decompress --batch --keep-going --size 6 "$T/lz.vxb" -o "$T/lz.back"
recs_are "$T/lz.back" "ok $(hex foobar)" "failed" "failed" "failed"
err_has "item 2 (offset "
run 1 "$VOXKIT" lz4 decompress --batch "$T/lz.vxb" -o "$T/lz.none"
err_has "no decompressed size"
absent "$T/lz.none"
# text lines "SIZE BASE64" give each block its size
"$VOXKIT" -q b64 encode --batch "$T/lz.vxb" >"$T/lz.lines" || fail "b64 encode of blocks"
paste -d ' ' <(printf '6\n0\n1\n23\n') "$T/lz.lines" >"$T/lz.sized"
run 0 "$VOXKIT" lz4 decompress --batch "$T/lz.sized" -o "$T/lz.back2"
same "$T/lz.back2" "$T/items.vxb"
# a size for all, and lines without one
printf '%s\n%s\n' "$(printf 'abcabcabcabc' | "$VOXKIT" -q lz4 compress - | "$VOXKIT" -q b64 encode --no-newline -)" \
  "$(printf 'zzzzzzzzzzzz' | "$VOXKIT" -q lz4 compress - | "$VOXKIT" -q b64 encode --no-newline -)" >"$T/lz12.txt"
run 0 "$VOXKIT" lz4 decompress --batch --size 12 "$T/lz12.txt" -o "$T/lz12.vxb"
recs_are "$T/lz12.vxb" "ok $(hex abcabcabcabc)" "ok $(hex zzzzzzzzzzzz)"
# a bad size or a bad block: offsets are the line's
FOO=$(printf 'foo' | "$VOXKIT" -q lz4 compress - | "$VOXKIT" -q b64 encode --no-newline -)
printf '3 %s\n3 %s\nx3 %s\n' "$FOO" "${FOO:0:2}@${FOO:3}" "$FOO" >"$T/lzbad.txt"
run 1 "$VOXKIT" lz4 decompress --batch --keep-going "$T/lzbad.txt" -o "$T/lzbad.vxb"
recs_are "$T/lzbad.vxb" "ok $(hex foo)" "failed" "failed"
err_has "item 2 (line 2): offset 4: invalid Base64 character"
err_has "item 3 (line 3): offset 0: bad size before the block (expected a digit, found 'x')"
run 2 "$VOXKIT" lz4 decompress "$T/lz12.txt"
err_has "size is required"

# --- chunk convert: lines -> binary (bin, lz4) -> back with --batch, in any form
Z=HwABAP////////////////////////8rUAAAAAAA
S=$("$VOXKIT" -q chunk convert <(head -c 4913 /dev/zero | tr '\0' '\005') --from bin --to b64)
printf '%s\n%s\n%s\n' "$Z" "$S" "$Z" >"$T/chunks.txt"
run 0 "$VOXKIT" chunk convert --batch "$T/chunks.txt" --to bin -o "$T/chunks.vxb"
checks=$((checks + 1)); [[ $(recs "$T/chunks.vxb" | wc -l) -eq 3 ]] || fail "3 chunk records"
run 0 "$VOXKIT" chunk convert --batch "$T/chunks.vxb" --to b64 -o "$T/chunks.back"
same "$T/chunks.back" "$T/chunks.txt"
run 0 "$VOXKIT" chunk convert --batch "$T/chunks.vxb" --from bin --to lz4 -o "$T/chunks.lz4.vxb"
run 0 "$VOXKIT" chunk convert --batch "$T/chunks.lz4.vxb" --to json -o "$T/chunks.json"
run 0 "$VOXKIT" chunk convert --batch "$T/chunks.json" --to b64 -o "$T/chunks.back2"
same "$T/chunks.back2" "$T/chunks.txt"
# plain 4913-byte records (as `convert --to sm-chunks --form bin` writes) with --from bin
recs "$T/chunks.vxb" | "$PY" -c 'import sys; sys.stdout.buffer.write(b"".join(bytes.fromhex(l.split()[1]) for l in sys.stdin))' >"$T/plain.bin"
run 0 "$VOXKIT" chunk convert --batch --from bin "$T/plain.bin" --to b64 -o "$T/chunks.back3"
same "$T/chunks.back3" "$T/chunks.txt"
head -c 5000 "$T/plain.bin" >"$T/plain.cut"
run 1 "$VOXKIT" chunk convert --batch --from bin "$T/plain.cut" --to b64 -o "$T/cut.out"
err_has "plain.cut: offset 4913: last record cut short (expected 4913 bytes, found 87)"
run 2 "$VOXKIT" chunk convert --batch --from lz4 "$T/chunks.txt" --to b64 -o "$T/x.out"
err_has "--from"

# --- --keep-going: a bad item in the middle keeps its place, in text and in binary output
printf '%s\nAAA!\n%s\n%s\n' "$Z" "$S" "$Z" >"$T/bad.txt"
run 1 "$VOXKIT" chunk convert --batch --keep-going "$T/bad.txt" --to b64 -o "$T/kg.txt"
same_text "$T/kg.txt" "$Z\n\n$S\n$Z\n"
err_has "bad.txt: item 2 (line 2): offset 0: text is no Scrap Mechanic chunk"
err_has "1 of 4 items failed"
run 1 "$VOXKIT" chunk convert --batch --keep-going "$T/bad.txt" --to bin -o "$T/kg.vxb"
checks=$((checks + 1))
[[ $(recs "$T/kg.vxb" | cut -d' ' -f1 | tr '\n' ' ') == "ok failed ok ok " ]] || fail "bin keep-going records"
# the binary batch with its failed record reads back: the failure stays in place, the rest aligns
run 1 "$VOXKIT" chunk convert --batch --keep-going "$T/kg.vxb" --to b64 -o "$T/kg.back"
same "$T/kg.back" "$T/kg.txt"
err_has "kg.vxb: item 2 (offset 4947): failed in the batch it was read from"
# the same for the byte codecs: item 3 of 5 is bad Base64
printf 'Zm9v\nYmFy\n@@@@\neA==\neXl5\n' >"$T/bad5.b64"
run 1 "$VOXKIT" b64 decode --batch --keep-going "$T/bad5.b64" -o "$T/bad5.vxb"
recs_are "$T/bad5.vxb" "ok $(hex foo)" "ok $(hex bar)" "failed" "ok $(hex x)" "ok $(hex yyy)"
err_has "bad5.b64: item 3 (line 3): offset 0: "
run 1 "$VOXKIT" b64 encode --batch --keep-going "$T/bad5.vxb" -o "$T/bad5.txt"
same_text "$T/bad5.txt" 'Zm9v\nYmFy\n\neA==\neXl5\n'
run 1 "$VOXKIT" rle encode --batch --keep-going "$T/bad5.vxb" -o "$T/bad5.rle"
run 1 "$VOXKIT" rle decode --batch --keep-going "$T/bad5.rle" -o "$T/bad5.raw"
same "$T/bad5.raw" "$T/bad5.vxb"
run 1 "$VOXKIT" lz4 compress --batch --keep-going "$T/bad5.b64" -o "$T/bad5.lz4"
run 1 "$VOXKIT" lz4 decompress --batch --keep-going --size 3 "$T/bad5.lz4" -o "$T/bad5.lzb"
recs_are "$T/bad5.lzb" "ok $(hex foo)" "ok $(hex bar)" "failed" "failed" "ok $(hex yyy)"
err_has "item 4 (offset "

# --- the failure list as JSON: on stdout, or on stderr when the output is stdout
run 1 "$VOXKIT" b64 decode --batch --keep-going --json "$T/bad5.b64" -o "$T/j.vxb"
checks=$((checks + 1))
"$PY" - "$T/out" <<'PY' || fail "JSON report"
import json, sys
j = json.load(open(sys.argv[1]))
assert (j["items"], j["ok"], j["failed"]) == (5, 4, 1), j
f = j["failures"][0]
assert (f["item"], f["line"]) == (3, 3), f
assert f["error"].startswith("offset 0: ") and "bad5.b64" not in f["error"], f
PY
run 0 "$VOXKIT" -q chunk convert --batch --json "$T/chunks.vxb" --to b64 -o -
out_has "$S"
err_has '"failed": 0'
run 1 "$VOXKIT" chunk convert --batch --keep-going --json "$T/kg.vxb" --to b64 -o "$T/kgj.txt"
out_has '"line": null'
out_has '"item": 2'
run 2 "$VOXKIT" b64 decode --json "$T/bad5.b64" -o "$T/nb.out"

# --- without --keep-going: the first failure stops the run, no output is left
for v in "b64 decode" "lz4 compress" "rle encode"; do
  run 1 "$VOXKIT" $v --batch "$T/bad5.b64" -o "$T/stop.out"
  err_has "bad5.b64: item 3 (line 3): "
  absent "$T/stop.out"
done
run 1 "$VOXKIT" chunk convert --batch "$T/bad.txt" --to bin -o "$T/stop.out"
err_has "bad.txt: item 2 (line 2): "
absent "$T/stop.out"
no_temp_left "$T"

# --- damaged binary batches: refused with the offset, expected and found
head -c 20 "$T/items.vxb" >"$T/cut.vxb"
run 1 "$VOXKIT" b64 encode --batch "$T/cut.vxb" -o "$T/cut.txt"
err_has "cut.vxb: offset 16: record 1 of 4: record header cut short (expected 9 bytes, found 4)"
absent "$T/cut.txt"
head -c 30 "$T/items.vxb" >"$T/cut2.vxb"
run 1 "$VOXKIT" rle encode --batch "$T/cut2.vxb" -o "$T/cut.rle"
err_has "cut2.vxb: offset 17: record 1 of 4: record runs past the end of the input (expected at most 5 bytes, found 6)"
printf 'VXBATCH\001\377\377\377\377\377\377\377\177' >"$T/huge.vxb"
run 1 "$VOXKIT" b64 encode --batch "$T/huge.vxb" -o "$T/huge.txt"
err_has "huge.vxb: offset 16: record 1 of 9223372036854775807: record header cut short (expected 9 bytes, found 0)"
printf 'VXBATCH\002' >"$T/v2.vxb"
run 1 "$VOXKIT" lz4 compress --batch "$T/v2.vxb" -o "$T/v2.out"
err_has "v2.vxb: offset 7: unknown batch version (expected 1, found 2)"
{ head -c 16 "$T/items.vxb"; printf '\001\006\000\000\000\000\000\000\000foobar'; } >"$T/failbytes.vxb"
run 1 "$VOXKIT" chunk convert --batch "$T/failbytes.vxb" --to b64 -o "$T/fb.out"
err_has "offset 17: record 1 of 4: a failed record holds bytes (expected length 0, found 6)"
{ cat "$T/items.vxb"; printf 'x'; } >"$T/trail.vxb"
run 1 "$VOXKIT" b64 encode --batch "$T/trail.vxb" -o "$T/trail.out"
err_has "bytes after the last batch record"

# --- the thread count does not change the bytes
for i in $(seq 1 300); do cat "$T/chunks.txt"; done >"$T/many.txt"
"$VOXKIT" -q -j 1 chunk convert --batch "$T/many.txt" --to lz4 -o "$T/m1" || fail "-j 1"
"$VOXKIT" -q -j 2 chunk convert --batch "$T/many.txt" --to lz4 -o "$T/m2" || fail "-j 2"
same "$T/m1" "$T/m2"
# more items than one window (4096): a bad item 5000 keeps its place, any -j gives the same bytes
"$PY" -c '
import base64
for i in range(1, 10001):
    print("!!!!" if i == 5000 else base64.b64encode(str(i).encode()).decode())' >"$T/big.txt"
run 1 "$VOXKIT" -j 1 b64 decode --batch --keep-going "$T/big.txt" -o "$T/big1.vxb"
err_has "item 5000 (line 5000)"
err_has "1 of 10000 items failed"
run 1 "$VOXKIT" -j 2 b64 decode --batch --keep-going "$T/big.txt" -o "$T/big2.vxb"
same "$T/big1.vxb" "$T/big2.vxb"
checks=$((checks + 1))
[[ $(recs "$T/big1.vxb" | sed -n '4999p;5000p;5001p;10000p' | tr '\n' ' ') == "ok $(hex 4999) failed ok $(hex 5001) ok $(hex 10000) " ]] ||
  fail "records around the failed item 5000"
# binary batches to a terminal are refused, text ones are not
if command -v script >/dev/null 2>&1; then
  checks=$((checks + 1))
  script -qec "'$VOXKIT' b64 decode --batch '$T/items.b64'" /dev/null >"$T/tty.out" 2>&1
  [[ $? -eq 2 ]] || fail "binary batch to a terminal was not refused"
fi
finish
