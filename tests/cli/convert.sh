# CLI: voxkit convert between zones, Scrap Mechanic chunks and ice modules: round trips, the
# chunk overlap, materials and paint, cave regions, and bad inputs.
source "$(dirname "$0")/lib.sh"
DEM="$VOXKIT_SOURCE_DIR/test_data/dem"

run 0 "$VOXKIT" bake "$DEM/jacksboro_crop.tif" -o "$T/z.vxz" --center 7000,600,8000 --size 40,30,24 --voxel-size 1
run 0 "$VOXKIT" info "$T/z.vxz" --json
read -r NX NY NZ < <(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["details"]["cells"]; print(*c)' "$T/out")
CX=$(( (NX + 15) / 16 )); CY=$(( (NY + 15) / 16 )); CZ=$(( (NZ + 15) / 16 ))

# zone -> chunks (Base64, one a line) -> zone: the grid comes back through 64 density levels.
run 0 "$VOXKIT" convert "$T/z.vxz" --to sm-chunks -o "$T/c.txt" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["chunks"]["grid"]==[int(v) for v in sys.argv[2:5]], j' "$T/out" "$CX" "$CY" "$CZ" || fail "chunk grid"
checks=$((checks + 1)); [[ $(wc -l <"$T/c.txt") -eq $((CX * CY * CZ)) ]] || fail "one chunk a line"
run 0 "$VOXKIT" convert "$T/c.txt" --to zone --chunks "$CX,$CY,$CZ" -o "$T/back.vxz" --json
out_has '"overlap_conflicts": 0'
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part grid -o "$T/a.raw"
run 0 "$VOXKIT" zone extract "$T/back.vxz" --part grid -o "$T/b.raw"
run 0 "$VOXKIT" convert "$T/back.vxz" --to sm-chunks -o "$T/c2.txt"
same "$T/c.txt" "$T/c2.txt"
checks=$((checks + 1))
python3 - "$T/a.raw" "$T/b.raw" "$NX" "$NY" "$NZ" <<'PY' || fail "chunk round trip"
import sys
a = open(sys.argv[1], "rb").read(); b = open(sys.argv[2], "rb").read()
nx, ny, nz = (int(v) for v in sys.argv[3:6])
bx = ((nx + 15) // 16) * 16 + 1; by = ((ny + 15) // 16) * 16 + 1
def at(buf, sx, sy, x, y, z): return buf[x + sx * (y + sy * z)]
worst = 0
for z in range(0, nz + 1, 3):
    for y in range(ny + 1):
        for x in range(nx + 1):
            va = at(a, nx + 1, ny + 1, x, y, z); vb = at(b, bx, by, x, y, z)
            assert (va < 128) == (vb < 128), (x, y, z, va, vb)   # the solid rule survives
            worst = max(worst, abs(va - vb))
assert worst <= 3, worst   # 64 density levels: within half a level (2 bytes) plus rounding
PY

# Binary records and Lua lines; a chunk batch written by another form reads back the same.
run 0 "$VOXKIT" convert "$T/z.vxz" --to sm-chunks --form bin -o "$T/c.bin"
checks=$((checks + 1)); [[ $(wc -c <"$T/c.bin") -eq $((4913 * CX * CY * CZ)) ]] || fail "bin records"
run 0 "$VOXKIT" convert "$T/c.bin" --to zone --chunks "$CX,$CY,$CZ" -o "$T/back2.vxz"
run 0 "$VOXKIT" zone extract "$T/back2.vxz" --part grid -o "$T/b2.raw"
same "$T/b.raw" "$T/b2.raw"

# zone <-> ice module, with cave regions.
run 0 "$VOXKIT" convert "$T/z.vxz" --to ice-module -o "$T/m.raw" --regions "$T/m.regions" --json
out_has '"regions"'
checks=$((checks + 1)); [[ $(wc -c <"$T/m.raw") -eq $(( (NX + 1) * (NY + 1) * (NZ + 1) )) ]] || fail "module size"
run 0 "$VOXKIT" convert "$T/m.raw" --to zone --cells "$NX,$NY,$NZ" -o "$T/mz.vxz"
run 0 "$VOXKIT" zone extract "$T/mz.vxz" --part grid -o "$T/m2.raw"
checks=$((checks + 1))
python3 - "$T/a.raw" "$T/m2.raw" <<'PY' || fail "ice module round trip: exact but for SDF 0, which reads back as 1"
import sys
a = open(sys.argv[1], "rb").read(); b = open(sys.argv[2], "rb").read()
assert len(a) == len(b) and all(x == y or (x, y) == (0, 1) for x, y in zip(a, b))
PY
run 0 "$VOXKIT" mesh "$T/m.raw" --convention ice --cells "$NX,$NY,$NZ" --regions "$T/m.regions" -o "$T/m.obj"

# A single chunk needs no layout; chunks that disagree on a shared sample: a warning.
head -1 "$T/c.txt" >"$T/one.txt"
run 0 "$VOXKIT" convert "$T/one.txt" --to zone -o "$T/one.vxz"
python3 -c 'print("[" + ",".join(["63"] * 4913) + "]"); print("[" + ",".join(["0"] * 4913) + "]")' >"$T/bad.txt"
run 0 "$VOXKIT" convert "$T/bad.txt" --to zone --chunks 2,1,1 -o "$T/bad.vxz"
err_has "289 shared samples differ"

# Bad inputs.
run 2 "$VOXKIT" convert "$T/c.txt" --to zone -o "$T/x.vxz"
err_has "chunks"
run 2 "$VOXKIT" convert "$T/c.txt" --to zone --chunks 1,1,1 -o "$T/x.vxz"
err_has "does not hold"
run 2 "$VOXKIT" convert "$T/z.vxz" --to zone -o "$T/x.vxz"
err_has "already zone"
run 1 "$VOXKIT" convert "$T/m.raw" --to zone --cells 3,3,3 -o "$T/x.vxz"
err_has "does not match its cells"
printf 'not a chunk\n' >"$T/junk.txt"
run 1 "$VOXKIT" convert "$T/junk.txt" --to zone -o "$T/x.vxz"
err_has "line 1"
absent "$T/x.vxz"
no_temp_left "$T"
finish
