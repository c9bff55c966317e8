# CLI: voxkit caves label, then meshing an ice module with its closed caves kept shut.
source "$(dirname "$0")/lib.sh"

# An ice block of 24^3 cells (solid 255) with an open shaft from the top and a closed
# spherical pocket in the middle.
python3 - "$T" <<'PY'
import math, sys
t = sys.argv[1]
n = 24
v = bytearray()
for z in range(n + 1):
    for y in range(n + 1):
        for x in range(n + 1):
            d = 255
            if math.dist((x, y, z), (12, 8, 12)) < 4.5: d = 0           # closed pocket
            if abs(x - 4) < 2 and abs(z - 4) < 2 and y > 10: d = 0      # shaft open at the top
            v.append(d)
open(t + "/module.bin", "wb").write(v)
PY
run 0 "$VOXKIT" caves label "$T/module.bin" --cells 24,24,24 -o "$T/regions.bin" --closed-list "$T/closed.txt" --json
out_has '"closed": \['
checks=$((checks + 1)); [[ $(stat -c %s "$T/regions.bin") -eq $((25 * 25 * 25 * 2)) ]] || fail "region grid size"
checks=$((checks + 1)); [[ $(wc -l <"$T/closed.txt") -eq 1 ]] || fail "expected one closed region: $(cat "$T/closed.txt")"

# Meshing with the closed list leaves out the pocket: fewer triangles than without it.
common=(--cells 24,24,24 --convention ice --regions "$T/regions.bin")
run 0 "$VOXKIT" mesh "$T/module.bin" "${common[@]}" -o "$T/all.glb" --json
all_t=$(python3 -c "import json; print(json.load(open('$T/out'))['triangles'])")
run 0 "$VOXKIT" mesh "$T/module.bin" "${common[@]}" --closed-file "$T/closed.txt" -o "$T/shut.glb" --json
shut_t=$(python3 -c "import json; print(json.load(open('$T/out'))['triangles'])")
closed_id=$(head -1 "$T/closed.txt")
run 0 "$VOXKIT" mesh "$T/module.bin" "${common[@]}" --closed "$closed_id" -o "$T/shut2.glb"
same "$T/shut.glb" "$T/shut2.glb"
checks=$((checks + 1)); [[ $shut_t -gt 0 && $shut_t -lt $all_t ]] || fail "closed pocket still meshed: $shut_t vs $all_t"

# Errors: wrong region grid size, bad ids, closed ids without the grid.
head -c 100 "$T/regions.bin" >"$T/short.bin"
run 1 "$VOXKIT" mesh "$T/module.bin" --cells 24,24,24 --convention ice --regions "$T/short.bin" --closed 1 -o "$T/x.glb"
err_has "short.bin"
absent "$T/x.glb"
printf '2, x7\n' >"$T/bad.txt"
run 1 "$VOXKIT" mesh "$T/module.bin" "${common[@]}" --closed-file "$T/bad.txt" -o "$T/x.glb"
err_has "bad.txt: offset 3: bad region id"
run 2 "$VOXKIT" mesh "$T/module.bin" --cells 24,24,24 --convention ice --closed 2 -o "$T/x.glb"
err_has "needs the region grid\|need the region grid"
run 2 "$VOXKIT" caves label "$T/module.bin" -o "$T/r.bin"
run 1 "$VOXKIT" caves label "$T/module.bin" --cells 24,24,23 -o "$T/r.bin"
err_has "module.bin: input is too large"
absent "$T/r.bin"
finish
