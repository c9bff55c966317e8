# CLI: voxkit grass residency: a camera path through the engine's residency ring, in text and
# JSON, the report to a file, and bad input (a bad row, a negative range, no slots, no range).
source "$(dirname "$0")/lib.sh"

P="$VOXKIT_SOURCE_DIR/test_data/grass/camera_path.csv"

# Text: one line per step that changed the ring, the summary and the memory figure.
run 0 "$VOXKIT" grass residency --path "$P" --range 40 --capacity 9
out_has "^step 0 (line 4): at 16,2,16 range 40: +9 \[(0,0)->0 (0,-1)->1 (-1,0)->2"
out_has "refused 32, resident 9"
out_has "clear, 9 cells dropped"
out_has "summary: 7 steps (6 changed the ring), 33 created, 15 evicted, 9 cleared, max refused 32"
out_has "memory: (2\*2+1)^2 = 25 cells x 4096 blades x 48 bytes = 4915200 bytes"
checks=$((checks + 1))
grep -q "^step 1 " "$T/out" && fail "step 1 changed nothing and is listed"

# JSON: every step, its changes and its resident cells.
run 0 "$VOXKIT" grass residency --path "$P" --range 40 --capacity 9 --json
checks=$((checks + 1))
python3 - "$T/out" <<'PY' || fail "residency JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["capacity"] == 9 and j["cell_size"] == 32 and j["range"] == 40, j
s = j["steps"]
assert len(s) == 7
assert s[0]["camera"] == [16, 2, 16] and s[0]["range"] == 40 and s[0]["line"] == 4
assert s[0]["created"][0] == [0, 0, 0] and len(s[0]["created"]) == 9 and s[0]["evicted"] == []
assert s[1]["created"] == [] and s[1]["evicted"] == [] and s[1]["resident_count"] == 9
assert [2, 0] in [c[:2] for c in s[2]["created"]]
assert s[4]["range"] == 96 and s[4]["refused"] == 32 and s[4]["created"] == []
assert s[5]["clear"] and s[5]["camera"] is None and len(s[5]["cleared"]) == 9 and s[5]["resident_count"] == 0
for st in s:
    slots = [c[2] for c in st["resident"]]
    assert len(slots) == len(set(slots)) == st["resident_count"] and all(0 <= x < 9 for x in slots)
m = j["summary"]
assert (m["steps"], m["created"], m["evicted"], m["max_refused"]) == (7, 33, 15, 32), m
assert m["memory_bytes"] == 25 * 4096 * 48 and m["memory_range"] == 40
PY

# The default panel's memory figure: (2 * 5 + 1)^2 cells of 4096 blades.
run 0 "$VOXKIT" grass residency --path "$P" --range 160 --capacity 256 --json --no-resident
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["summary"]["memory_bytes"] == 11*11*4096*48 and j["steps"][0]["resident"] is None' "$T/out" || fail "memory figure"

# The report to a file; the summary on stdout; an existing file needs -f.
run 0 "$VOXKIT" grass residency --path "$P" --range 40 --capacity 9 --json -o "$T/ring.json"
out_has "^summary: 7 steps"
checks=$((checks + 1))
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["steps"]) == 7' "$T/ring.json" || fail "report file"
run 2 "$VOXKIT" grass residency --path "$P" --range 40 --capacity 9 -o "$T/ring.json"
err_has "exists"
run_in 0 "$P" "$VOXKIT" grass residency --path - --range 40 --capacity 9
out_has "summary: 7 steps"

# Bad input: a data error naming the file, line, offset, expected and found.
printf 'x,y,z\n1,2,3\n4,five,6\n' >"$T/bad.csv"
run 1 "$VOXKIT" grass residency --path "$T/bad.csv" --range 40 --capacity 9
err_has "bad.csv: offset 14: line 3: 'y' is not a number (expected a finite number, found 'five')"
printf '1,2,3,-4\n' >"$T/neg.csv"
run 1 "$VOXKIT" grass residency --path "$T/neg.csv" --range 40 --capacity 9
err_has "line 1: the range is negative"
printf '1,2\n' >"$T/short.csv"
run 1 "$VOXKIT" grass residency --path "$T/short.csv" --range 40 --capacity 9
err_has "wrong number of fields (expected 3 (x,y,z) or 4 (x,y,z,range), found 2)"
printf '1,2,3\nx,y,z\n' >"$T/late.csv"
run 1 "$VOXKIT" grass residency --path "$T/late.csv" --range 40 --capacity 9
err_has "line 2: a row starting with a letter"

# Bad options: usage errors naming the flag.
run 2 "$VOXKIT" grass residency --path "$P" --range=-5 --capacity 9
err_has "--range must be a finite number of metres >= 0"
run 2 "$VOXKIT" grass residency --path "$P" --range 40 --capacity 0
err_has "--capacity must be 1 .. 1048576 cells (expected 1 .. 1048576, found 0)"
run 2 "$VOXKIT" grass residency --path "$P" --capacity 9
err_has "line 4: the row has no range and --range is not given"
run 2 "$VOXKIT" grass residency --path "$P" --range 40 --capacity 9 --cell-size 0.5
err_has "--cell-size must be a finite number of metres >= 1"
run 2 "$VOXKIT" grass residency --path "$P" --range 40 --capacity 9 --hysteresis nan
err_has "--hysteresis must be a finite fraction"
run 2 "$VOXKIT" grass residency --path "$P" --range 40 --capacity 9 --blades-per-cell 0
err_has "--blades-per-cell must be >= 1"
run 2 "$VOXKIT" grass residency --range 40 --capacity 9
run 1 "$VOXKIT" grass residency --path "$T/missing.csv" --range 40 --capacity 9
err_has "missing.csv"

finish
