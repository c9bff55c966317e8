# CLI: voxkit octree export: a box of a synthetic delta (bare and in a .save) as a zone,
# meshed by voxkit mesh; refusals leave no output.
source "$(dirname "$0")/lib.sh"

run 0 "$VOXKIT" octree synth -o "$T/s.dat" --max-depth 10 --tunnels 6 --pads 2 --veins 2 --seed 11
# A 32^3 box around the first modified voxel of graded density (a tunnel's rim), found by
# walking the node stream (pre-order; child i = x | y << 1 | z << 2; world = octree - (512, 0, 512)).
BOX=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(); md = struct.unpack_from("<i", d)[0]
at, st = 4, [(0, 0, 0, 0)]
while st:
    x, y, z, dep = st.pop(); f = d[at]
    if f & 1:
        if f & 2 and 0 < d[at + 1] < 255:
            c = [x - 512, y, z - 512]
            print(",".join(str(v) for v in [c[0] - 16, c[1] - 16, c[2] - 16, c[0] + 15, c[1] + 15, c[2] + 15])); break
        at += 3; continue
    at += 1; h = 1 << (md - dep - 1)
    for i in reversed(range(8)):
        st.append((x + (h if i & 1 else 0), y + (h if i & 2 else 0), z + (h if i & 4 else 0), dep + 1))
' "$T/s.dat")
checks=$((checks + 1)); [[ -n $BOX ]] || fail "no modified region to export"

run 0 "$VOXKIT" octree export "$T/s.dat" --box "$BOX" -o "$T/z.vxz"
err_has "octree export: box"
err_has "modified voxels"
run 0 "$VOXKIT" info "$T/z.vxz" --json
checks=$((checks + 1))
python3 -c '
import json, sys
j = json.load(open(sys.argv[1])); box = [int(v) for v in sys.argv[2].split(",")]
m = j["details"]
assert m["voxel_size"] == 1, m
assert [round(v) for v in m["origin"]] == box[:3], m
assert m["cells"] == [box[3] - box[0], box[4] - box[1], box[5] - box[2]], m
assert "stationeers terrain.dat export" in m["source"], m' "$T/out" "$BOX" || fail "zone metadata"
run 0 "$VOXKIT" mesh "$T/z.vxz" -o "$T/z.glb"
checks=$((checks + 1)); [[ $(head -c 4 "$T/z.glb") == glTF ]] || fail "mesh is not a GLB"

# The same box from a .save gives the same zone; --unmodified solid differs; JSON report.
python3 - "$T" <<'PY'
import sys, zipfile
t = sys.argv[1]
with zipfile.ZipFile(t + '/w.save', 'w') as z:
    z.writestr('world.xml', '<WorldData><Rooms/></WorldData>', zipfile.ZIP_DEFLATED)
    z.write(t + '/s.dat', 'terrain.dat', zipfile.ZIP_DEFLATED)
PY
run 0 "$VOXKIT" octree export "$T/w.save" --box "$BOX" -o "$T/z_save.vxz"
"$VOXKIT" info "$T/z.vxz" --json >"$T/i1.json"; "$VOXKIT" info "$T/z_save.vxz" --json >"$T/i2.json"
checks=$((checks + 1))
python3 -c '
import json, sys
a, b = (json.load(open(p))["details"] for p in sys.argv[1:3])
assert a["counts"] == b["counts"] and a["cells"] == b["cells"] and "w.save" in b["source"], (a, b)' "$T/i1.json" "$T/i2.json" || fail "save export differs"
run 0 "$VOXKIT" octree export "$T/s.dat" --box "$BOX" --unmodified solid -o "$T/z_solid.vxz" --json
checks=$((checks + 1))
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["unmodified"] == "solid" and j["voxels"]["modified"] > 0 and j["nodes_visited"] > 0, j' "$T/out" || fail "export JSON"
checks=$((checks + 1)); ! cmp -s "$T/z.vxz" "$T/z_solid.vxz" || fail "--unmodified solid changed nothing"
"$VOXKIT" -q octree export "$T/s.dat" --box "$BOX" -o - >"$T/z_stdout.vxz"
same "$T/z.vxz" "$T/z_stdout.vxz"

# Refusals: outside the world, too large, bad policy, overwrite without -f.
run 2 "$VOXKIT" octree export "$T/s.dat" --box 0,0,0,600,10,10 -o "$T/bad.vxz"
err_has "not inside the world"
printf '\x0c\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00' >"$T/big.dat"  # a lone leaf, 4096^3 world
run 2 "$VOXKIT" octree export "$T/big.dat" --box 0,0,0,2047,2047,2047 -o "$T/bad.vxz"
err_has "over the zone limit"
run 2 "$VOXKIT" octree export "$T/s.dat" --box 0,0,0,1,1,1 --unmodified skip -o "$T/bad.vxz"
err_has "air or solid"
# the zone on stdout, the report on stderr (docs/outputs.md)
run 0 "$VOXKIT" octree export "$T/s.dat" --box 0,0,0,1,1,1 --json -o -
err_has '"nodes_visited"'
absent "$T/bad.vxz"
run 2 "$VOXKIT" octree export "$T/s.dat" --box "$BOX" -o "$T/z.vxz"
err_has "exists"
no_temp_left "$T"
finish
