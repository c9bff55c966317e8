# CLI: voxkit zone hole-mask: the cut rectangle and mask at the terrain's holes resolution
# (PNG rows north first, raw rows south first), the terrain's own holes, the cut recorded in
# the zone and read back, info, and bad inputs.
source "$(dirname "$0")/lib.sh"

python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x10' * (33 * 33))" >"$T/flat.raw"
run 0 "$VOXKIT" bake "$T/flat.raw" -o "$T/z.vxz" --terrain-size 32,20,32 --voxel-size 0.5
run 0 "$VOXKIT" info "$T/z.vxz" --json
read -r OX OZ NX NZ < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["details"]; print(j["origin"][0], j["origin"][2], j["cells"][0], j["cells"][2])' "$T/out")
# A terrain 8 m wider on every side, in 0.5 m hole cells: the cut starts 17 cells in.
TX=$(python3 -c "print($OX - 8)"); TZ=$(python3 -c "print($OZ - 8)")
W=$(python3 -c "print($NX * 0.5 + 16)"); D=$(python3 -c "print($NZ * 0.5 + 16)")
RES=$(python3 -c "print(int($W / 0.5))")
[[ $W == "$D" ]] || fail "the test wants a square terrain"
terrain=(--terrain-pos "$TX,0,$TZ" --terrain-size "$W,30,$D" --hole-resolution "$RES")

run 0 "$VOXKIT" zone hole-mask "$T/z.vxz" "${terrain[@]}" -o "$T/holes.png" --zone-out "$T/cut.vxz" --json
checks=$((checks + 1))
python3 - "$T/out" "$NX" "$NZ" <<'PY' || fail "hole-mask report"
import json, sys
j = json.load(open(sys.argv[1])); nx, nz = int(sys.argv[2]), int(sys.argv[3])
c = j["cut_rect"]
assert (c["x"], c["z"]) == (17, 17), c
assert (c["width"], c["depth"]) == (nx - 2, nz - 2), c
assert j["cells_cut"] == (nx - 2) * (nz - 2) and j["cells_already_holes"] == 0, j
assert j["computed"] is True
PY
# The PNG: 8-bit grey, RES x RES, 0 inside the cut; row 0 is the far z edge.
checks=$((checks + 1))
python3 - "$T/holes.png" "$RES" "$NX" "$NZ" <<'PY' || fail "hole mask PNG"
import struct, sys, zlib
b = open(sys.argv[1], "rb").read(); res, nx, nz = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
assert b[:8] == b"\x89PNG\r\n\x1a\n"
w, h, depth, ctype = struct.unpack(">IIBB", b[16:26])
assert (w, h, depth, ctype) == (res, res, 8, 0), (w, h, depth, ctype)
i, idat = 8, b""
while i < len(b):
    n, = struct.unpack(">I", b[i:i + 4]); t = b[i + 4:i + 8]
    if t == b"IDAT": idat += b[i + 8:i + 8 + n]
    i += 12 + n
raw = zlib.decompress(idat)
rows = [raw[r * (res + 1) + 1:(r + 1) * (res + 1)] for r in range(res)]
def at(x, z): return rows[res - 1 - z][x]
holes = sum(1 for z in range(res) for x in range(res) if at(x, z) == 0)
assert holes == (nx - 2) * (nz - 2), holes
assert at(17, 17) == 0 and at(16, 17) == 255 and at(17, 16) == 255
assert at(17 + nx - 3, 17 + nz - 3) == 0 and at(17 + nx - 2, 17) == 255
PY

# Raw, cut only: 255 marks the cut cells, rows z = 0 first.
run 0 "$VOXKIT" zone hole-mask "$T/z.vxz" "${terrain[@]}" -o "$T/cut.raw" --cut-only
checks=$((checks + 1))
python3 - "$T/cut.raw" "$RES" "$NX" "$NZ" <<'PY' || fail "raw cut-only mask"
import sys
b = open(sys.argv[1], "rb").read(); res, nx, nz = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
assert len(b) == res * res
assert b.count(255) == (nx - 2) * (nz - 2) and b.count(0) == res * res - (nx - 2) * (nz - 2)
assert b[17 + res * 17] == 255 and b[16 + res * 17] == 0
PY

# The recorded cut: info shows it, and the mask comes back from it alone.
run 0 "$VOXKIT" info "$T/cut.vxz"
out_has "terrain cut"
run 0 "$VOXKIT" info "$T/cut.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["details"]["terrain_cut"]; assert c["x"] == 17 and c["resolution"] == int(sys.argv[2]), c' "$T/out" "$RES" || fail "info terrain_cut"
run 0 "$VOXKIT" zone hole-mask "$T/cut.vxz" -o "$T/again.png"
same "$T/holes.png" "$T/again.png"
run 0 "$VOXKIT" zone hole-mask "$T/cut.vxz" -o "$T/again.png" -f --json
out_has '"computed": false'

# The terrain's own holes: one already inside the cut, one outside (kept in the mask).
python3 - "$T/prev.raw" "$RES" <<'PY'
import sys
res = int(sys.argv[2]); b = bytearray([1]) * (res * res)
b[20 + res * 20] = 0; b[2 + res * 3] = 0
open(sys.argv[1], "wb").write(bytes(b))
PY
run 0 "$VOXKIT" zone hole-mask "$T/z.vxz" "${terrain[@]}" --holes "$T/prev.raw" -o "$T/after.raw" --json
out_has '"cells_already_holes": 1'
checks=$((checks + 1))
python3 -c "
import sys; b = open('$T/after.raw', 'rb').read(); res = $RES
assert b[2 + res * 3] == 0 and b[3 + res * 3] == 255 and b.count(0) == ($NX - 2) * ($NZ - 2) + 1" || fail "holes carried into the mask"

# Bad inputs: exit 2 for usage, nothing written.
run 2 "$VOXKIT" zone hole-mask "$T/z.vxz" -o "$T/x.png"
err_has "terrain-pos"
absent "$T/x.png"
run 2 "$VOXKIT" zone hole-mask "$T/z.vxz" --terrain-pos "$OX,0,$OZ" --terrain-size 10,30,10 --hole-resolution 20 -o "$T/x.png"
err_has "lie completely on the terrain"
run 2 "$VOXKIT" zone hole-mask "$T/z.vxz" "${terrain[@]}"
err_has "zone-out"
run 2 "$VOXKIT" zone hole-mask "$T/z.vxz" --terrain-pos "$TX,0,$TZ" --terrain-size "$W,30,$D" --hole-resolution 0 -o "$T/x.png"
absent "$T/x.png"
head -c 100 "$T/prev.raw" >"$T/short.raw"
run 1 "$VOXKIT" zone hole-mask "$T/z.vxz" "${terrain[@]}" --holes "$T/short.raw" -o "$T/x.png"
err_has "short.raw"
absent "$T/x.png"
run 2 "$VOXKIT" zone hole-mask "$T/z.vxz" "${terrain[@]}" -o "$T/holes.png"
err_has "exists"
no_temp_left "$T"
finish
