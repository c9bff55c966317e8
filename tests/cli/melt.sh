# CLI: voxkit melt on a small ice module with a closed cave; outputs checked with python3.
source "$(dirname "$0")/lib.sh"

# 32x16x32 cells of ice (255), open air from y = 13 up, a closed spherical pocket around
# (16, 6, 16).
python3 - "$T" <<'PY'
import math, sys
t = sys.argv[1]
v = bytearray()
for z in range(33):
    for y in range(17):
        for x in range(33):
            d = 255
            if y >= 13: d = 0
            if math.dist((x, y, z), (16, 6, 16)) < 2.5: d = 0
            v.append(d)
open(t + "/module.bin", "wb").write(v)
PY
cells=(--cells 32,16,32)
run 0 "$VOXKIT" caves label "$T/module.bin" "${cells[@]}" -o "$T/regions.bin" --closed-list "$T/closed.txt"
checks=$((checks + 1)); [[ $(wc -l <"$T/closed.txt") -eq 1 ]] || fail "expected one closed region: $(cat "$T/closed.txt")"
pocket=$(head -1 "$T/closed.txt")

# Hit 1 carves (16,9,16), whose face neighbour (16,8,16) is in the pocket; hit 2 uses the
# formula (2 x 3 x 0.5 / (hardness 1 x brake 1.5) = 2 points) near the top; hit 3 misses
# the grid.
cat >"$T/hits.csv" <<'EOF'
# x, y, z in grid units
x,y,z,radius,amount,power,temperature,dt,brake
16,9.5,16,1.5,1,,,,
5,12,5,3,,2,3,0.5,1.5
100,100,100,2,1,,,,
EOF
cat >"$T/hits.json" <<'EOF'
[{"x": 16, "y": 9.5, "z": 16, "radius": 1.5, "amount": 1},
 {"x": 5, "y": 12, "z": 5, "radius": 3, "power": 2, "temperature": 3, "dt": 0.5, "brake": 1.5},
 {"x": 100, "y": 100, "z": 100, "radius": 2, "amount": 1}]
EOF
common=("${cells[@]}" --regions "$T/regions.bin" --closed-file "$T/closed.txt")
run 0 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${common[@]}" -o "$T/out.bin" --regions-out "$T/closed-out.txt" --json --per-hit
cp "$T/out" "$T/report.json"
checks=$((checks + 1))
python3 - "$T" "$pocket" <<'PY' || fail "melt output or report is wrong"
import json, math, sys
t, pocket = sys.argv[1], int(sys.argv[2])
a = open(t + "/module.bin", "rb").read()
b = open(t + "/out.bin", "rb").read()
r = json.load(open(t + "/report.json"))
assert len(a) == len(b), "size"
removed = 0
for i, (p, q) in enumerate(zip(a, b)):
    assert q <= p, f"point {i} grew"
    removed += p - q
    if q != p:
        x, y, z = i % 33, i // 33 % 17, i // (33 * 17)
        assert math.dist((x, y, z), (16, 9.5, 16)) < 1.5 or math.dist((x, y, z), (5, 12, 5)) < 3, (x, y, z)
assert removed == r["bytes_removed"] > 0, (removed, r["bytes_removed"])
assert abs(r["litres"] - removed / 255 * 15.625) < 1e-9, r["litres"]
assert r["hits"] == 3
assert r["regions_opened"] == [{"id": pocket, "hit": 1}], r["regions_opened"]
assert r["closed_after"] == []
assert r["solid"]["before"] == sum(1 for p in a if p >= 128)
assert r["solid"]["after"] == sum(1 for p in b if p >= 128)
h = r["per_hit"]
assert h[1]["amount"] == 2 and h[1]["hardness"] == 1, h[1]
assert h[2]["points_changed"] == 0 and h[2]["changed_box"] is None
assert sum(x["bytes_removed"] for x in h) == removed
assert r["chunks"]["grid"] == [2, 1, 2]
# The pocket (x 14..18) spans both chunks in x and z: all four chunks are remeshed.
assert r["chunks"]["remesh"] == [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]], r["chunks"]["remesh"]
assert r["highlight"]["hit"] is None and not r["completed"]["done"]
PY
checks=$((checks + 1)); [[ ! -s $T/closed-out.txt ]] || fail "the pocket should be open: $(cat "$T/closed-out.txt")"

# The same hits as JSON, in metres with --world, on stdout, and on one or two threads give
# the same bytes.
run 0 "$VOXKIT" melt "$T/module.bin" "$T/hits.json" "${common[@]}" -o "$T/json.bin"
same "$T/out.bin" "$T/json.bin"
python3 -c "
import csv, sys
rows = list(csv.reader(l for l in open('$T/hits.csv') if not l.startswith('#')))
out = [rows[0]] + [[str(float(v) * 0.25 + o) if i < 3 else str(float(v) * 0.25) if i == 3 else v
                    for i, (v, o) in enumerate(zip(r, [10, 20, 30, 0, 0, 0, 0, 0, 0]))] for r in rows[1:]]
print('\n'.join(','.join(r) for r in out))" >"$T/metres.csv"
run 0 "$VOXKIT" melt "$T/module.bin" "$T/metres.csv" "${common[@]}" --world --origin 10,20,30 -o "$T/world.bin"
same "$T/out.bin" "$T/world.bin"
"$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${common[@]}" -o - >"$T/stdout.bin" 2>"$T/err"
same "$T/out.bin" "$T/stdout.bin"
err_has "removed: "
printf 'x,y,z,radius,amount\n16,8,16,14,0.3\n20,4,9,9,0.7\n' >"$T/big.csv"
run 0 "$VOXKIT" -j 1 melt "$T/module.bin" "$T/big.csv" "${cells[@]}" -o "$T/j1.bin"
run 0 "$VOXKIT" -j 2 melt "$T/module.bin" "$T/big.csv" "${cells[@]}" -o "$T/j2.bin"
same "$T/j1.bin" "$T/j2.bin"

# The text report.
run 0 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${common[@]}" -o "$T/text.bin" --hardness 1,2 --per-hit
out_has "^removed: .* L ("
out_has "^regions opened: $pocket (hit 1)"
out_has "^chunks to remesh: 4 of 4:"
out_has "^hit 2: amount 1.6 (hardness 1.25"

# Bad input: exit 1, a clear message, nothing written.
head -c 1000 "$T/module.bin" >"$T/short.bin"
run 1 "$VOXKIT" melt "$T/short.bin" "$T/hits.csv" "${cells[@]}" -o "$T/x.bin"
err_has "short.bin: offset 1000: module size does not match the cells (expected 18513 bytes (one per point), found 1000 bytes)"
absent "$T/x.bin"
printf 'x,y,z,radius,amount\n1,2,3,1,1\n1,2,3,1\n' >"$T/fields.csv"
run 1 "$VOXKIT" melt "$T/module.bin" "$T/fields.csv" "${cells[@]}" -o "$T/x.bin" --regions "$T/regions.bin" --regions-out "$T/x.txt"
err_has "fields.csv: offset 30: line 3: wrong number of fields (expected 5 (as the header), found 4)"
absent "$T/x.bin"
absent "$T/x.txt"
printf 'x,y,z,radius,amount\n1,2,3,-0.5,1\n' >"$T/neg.csv"
run 1 "$VOXKIT" melt "$T/module.bin" "$T/neg.csv" "${cells[@]}" -o "$T/x.bin"
err_has "neg.csv: offset 26: line 2: 'radius' is out of range (expected a finite number > 0, found '-0.5')"
absent "$T/x.bin"
printf '[{"x": 1, "y": 2, "z": 3, "radius": 1, "amount": NaN}]' >"$T/nan.json"
run 1 "$VOXKIT" melt "$T/module.bin" "$T/nan.json" "${cells[@]}" -o "$T/x.bin"
err_has "nan.json: offset .*: JSON does not parse"
printf 'x,y,z,radius,amount\n1,nan,3,1,1\n' >"$T/nan.csv"
run 1 "$VOXKIT" melt "$T/module.bin" "$T/nan.csv" "${cells[@]}" -o "$T/x.bin"
err_has "nan.csv: offset 22: line 2: 'y' is out of range (expected a finite number, found 'nan')"
absent "$T/x.bin"
head -c 100 "$T/regions.bin" >"$T/short-regions.bin"
run 1 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${cells[@]}" --regions "$T/short-regions.bin" --closed 1 -o "$T/x.bin" --regions-out "$T/x.txt"
err_has "short-regions.bin: offset 100: region grid size does not match the cells (expected 37026 bytes (2 per sample), found 100 bytes)"
absent "$T/x.bin"
absent "$T/x.txt"
printf '1,0\n' >"$T/hard.txt"
run 1 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${cells[@]}" --hardness-file "$T/hard.txt" -o "$T/x.bin"
err_has "hard.txt: offset 2: line 1: bad hardness sample"
absent "$T/x.bin"

# Usage errors: exit 2.
run 2 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${cells[@]}" --closed 1 -o "$T/x.bin"
err_has "closed regions need the region grid"
run 2 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${cells[@]}" --regions-out "$T/x.txt" -o "$T/x.bin"
err_has "needs the region grid"
run 2 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${cells[@]}" --hardness -1 -o "$T/x.bin"
run 2 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${cells[@]}" --origin 1,2,3 -o "$T/x.bin"
err_has "applies to hits in metres"
run 2 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${cells[@]}" --start-solid 5 -o "$T/x.bin"
err_has "below the module's own count"
run 2 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" -o "$T/x.bin"
absent "$T/x.bin"
run 2 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${cells[@]}" -o "$T/out.bin"
err_has "exists"
no_temp_left "$T"
finish
