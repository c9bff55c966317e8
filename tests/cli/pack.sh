# CLI: voxkit pack|unpack in files and pipes, single chunks, exit codes, refused overwrites.
source "$(dirname "$0")/lib.sh"

# The 2x2x2-cell grid of the unit tests: all 255 but the last sample (2,2,2) = 0.
{ for i in $(seq 26); do printf '\xff'; done; printf '\x00'; } >"$T/g.raw"
run 0 "$VOXKIT" pack "$T/g.raw" -o "$T/g.vxcb" --cells 2,2,2 --chunk-cells 1
err_has "pack: 27 samples, 8 chunks (7 uniform) -> 81 bytes"
# The blob: chunk 7's stream alone, after the header and eight offsets.
checks=$((checks + 1)); [[ $(tail -c 5 "$T/g.vxcb" | od -An -tx1 | tr -d ' \n') == 1b35ff0200 ]] || fail "blob bytes"
run 0 "$VOXKIT" unpack "$T/g.vxcb" -o "$T/back.raw"
same "$T/back.raw" "$T/g.raw"
# pipes both ways, RLE in and out
"$VOXKIT" rle encode "$T/g.raw" -o "$T/g.rle"
"$VOXKIT" pack - --cells 2,2,2 --chunk-cells 1 --from rle <"$T/g.rle" |
  "$VOXKIT" unpack - --to rle >"$T/piped.rle"
same "$T/piped.rle" "$T/g.rle"
# same bytes whatever the thread count
"$VOXKIT" -j 1 pack "$T/g.raw" --cells 2,2,2 --chunk-cells 1 -o "$T/j1.vxcb"
"$VOXKIT" -j 2 pack "$T/g.raw" --cells 2,2,2 --chunk-cells 1 -o "$T/j2.vxcb"
same "$T/j1.vxcb" "$T/j2.vxcb"
same "$T/j1.vxcb" "$T/g.vxcb"
# the demo terrain grid: round trip, and the same bytes with one thread and with two
demo="$VOXKIT_SOURCE_DIR/test_data/demo_grid.raw"
"$VOXKIT" -q -j 1 pack "$demo" --cells 64,40,64 --chunk-cells 5 -o "$T/d1.vxcb"
"$VOXKIT" -q -j 2 pack "$demo" --cells 64,40,64 --chunk-cells 5 -o "$T/d2.vxcb"
same "$T/d1.vxcb" "$T/d2.vxcb"
"$VOXKIT" -q -j 2 unpack "$T/d1.vxcb" -o "$T/d.raw"
same "$T/d.raw" "$demo"
# one chunk alone: chunk (1,1,1) is samples 0..2 on every axis, i.e. the whole grid;
# chunk (0,0,0) is the 2x2x2 corner, all 255.
run 0 "$VOXKIT" unpack "$T/g.vxcb" --chunk 1,1,1 -o "$T/c7.raw"
same "$T/c7.raw" "$T/g.raw"
err_has "chunk 7"
run 0 "$VOXKIT" unpack "$T/g.vxcb" --chunk 0,0,0 -o "$T/c0.raw"
checks=$((checks + 1)); [[ $(od -An -tx1 "$T/c0.raw" | tr -d ' \n') == ffffffffffffffff ]] || fail "chunk 0 bytes"
run 2 "$VOXKIT" unpack "$T/g.vxcb" --chunk 2,0,0 -o "$T/c.raw"
err_has "outside the 2 x 2 x 2 chunks"
absent "$T/c.raw"
# refused overwrite keeps the old file; -f replaces it
run 2 "$VOXKIT" pack "$T/g.raw" -o "$T/g.vxcb" --cells 2,2,2
err_has "exists; use -f"
run 0 "$VOXKIT" -f pack "$T/g.raw" -o "$T/g.vxcb" --cells 2,2,2 --chunk-cells 1
same "$T/g.vxcb" "$T/j1.vxcb"
# bad input: wrong raw size, wrong RLE count, damaged container
run 1 "$VOXKIT" pack "$T/g.raw" -o "$T/x.vxcb" --cells 3,2,2
err_has "g.raw: offset 27: raw grid has the wrong size for its cells (expected 36 bytes, found 27 bytes)"
absent "$T/x.vxcb"
run 1 "$VOXKIT" pack "$T/g.rle" --from rle -o "$T/x.vxcb" --cells 3,2,2
err_has "g.rle: offset 0: RLE stream's sample count does not match the cells (expected 36, found 27)"
head -c 60 "$T/g.vxcb" >"$T/cut.vxcb"
run 1 "$VOXKIT" unpack "$T/cut.vxcb" -o "$T/x.raw"
err_has "cut.vxcb: offset 60: file is truncated"
absent "$T/x.raw"
no_temp_left "$T"
cp "$T/g.vxcb" "$T/crc.vxcb"; printf '\x01' | dd of="$T/crc.vxcb" bs=1 seek=80 conv=notrunc 2>/dev/null
run 1 "$VOXKIT" unpack "$T/crc.vxcb" -o "$T/x.raw"
err_has "offset 40: CRC32"
run 1 "$VOXKIT" unpack "$T/g.raw" -o "$T/x.raw"
err_has "g.raw: offset 0: not a voxkit chunk blob (bad magic)"
# usage errors
run 2 "$VOXKIT" pack "$T/g.raw" -o "$T/x.vxcb"
err_has "cells"
run 2 "$VOXKIT" pack "$T/g.raw" -o "$T/x.vxcb" --cells 2,2
run 2 "$VOXKIT" pack "$T/g.raw" -o "$T/x.vxcb" --cells 2,2,2 --chunk-cells 0
run 2 "$VOXKIT" pack "$T/g.raw" -o "$T/x.vxcb" --cells 2,2,2 --from png
run 2 "$VOXKIT" unpack "$T/g.vxcb" -o "$T/x.raw" --to png
run 2 "$VOXKIT" pack "$T/g.raw" -o "$T/x.vxcb" --cells 2000000000,2000000000,2
err_has "more than"
# -q silences diagnostics, not errors
run 0 "$VOXKIT" -q unpack "$T/g.vxcb" -o "$T/q.raw"
checks=$((checks + 1)); [[ ! -s $T/err ]] || fail "-q printed: $(cat "$T/err")"
finish
