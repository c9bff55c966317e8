# CLI: voxkit grass scatter and grass type: a zone baked with splat layers, blades as raw
# records, CSV, JSON and glTF (Khronos validator), refusal counts, --explain, the scale
# subset, the same bytes for -j1 and -j2, a heightmap surface, and bad inputs.
source "$(dirname "$0")/lib.sh"
G="$VOXKIT_SOURCE_DIR/test_data/grass"
DEM="$VOXKIT_SOURCE_DIR/test_data/dem"

# A 96 m zone at 1 m voxels with the demo splat map (layers Grass, rock, sand, snow).
run 0 "$VOXKIT" bake "$DEM/jacksboro_crop.tif" -o "$T/z.vxz" --center 7000,600,8000 --size 96,60,96 \
  --voxel-size 1 --splat "$DEM/jacksboro_splat.png" --layers Grass,rock,sand,snow
run 0 "$VOXKIT" info "$T/z.vxz" --json
read -r X0 Z0 X1 Z1 < <(python3 -c 'import json,sys,math
d=json.load(open(sys.argv[1]))["details"]; o=d["origin"]; c=d["cells"]
print(math.floor(o[0]/32), math.floor(o[2]/32), math.floor((o[0]+c[0])/32), math.floor((o[2]+c[2])/32))' "$T/out")
# Four cells, the first ones partly off the zone (so some candidates find no surface).
CELLS="$X0,$Z0,$((X0 + 1)),$((Z0 + 1))"

run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells "$CELLS" -o "$T/b.raw" --json
checks=$((checks + 1))
python3 - "$T/out" "$T/b.raw" <<'PY' || fail "scatter report and raw records"
import json, struct, sys
j = json.load(open(sys.argv[1])); raw = open(sys.argv[2], "rb").read()
t = j["totals"]
assert j["grid"]["side"] == 157, j["grid"]          # round(32 * sqrt(24)) = 156.77 -> 157
assert t["candidates"] == len(j["cells"]) * 157 * 157
assert t["placed"] + sum(t["refused"].values()) == t["candidates"], t
assert t["placed"] > 1000 and t["refused"]["no_surface"] > 0, t
assert len(raw) == 48 * t["written"] and t["written"] == t["placed"], (len(raw), t)
for c in j["cells"]:
    assert c["placed"] + sum(c["refused"].values()) == c["candidates"]
# Every record: a unit quaternion, scale in [0.7, 1.3], tint in [0, 1], padding 0.
for k in range(0, len(raw), 48 * 97):
    px, py, pz, s, qx, qy, qz, qw, tint, phase, p0, p1 = struct.unpack("<12f", raw[k:k + 48])
    assert abs(qx * qx + qy * qy + qz * qz + qw * qw - 1) < 1e-5
    assert 0.7 <= s <= 1.3 and 0 <= tint <= 1 and 0 <= phase <= 6.2832 and p0 == 0 and p1 == 0
PY

# The same bytes on one thread and on two; CSV and JSON carry the same blades.
run 0 "$VOXKIT" -j 1 grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells "$CELLS" -o "$T/b1.raw"
same "$T/b.raw" "$T/b1.raw"
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells "$CELLS" -o "$T/b.csv"
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells "$CELLS" -o "$T/b.json"
checks=$((checks + 1))
python3 - "$T/b.raw" "$T/b.csv" "$T/b.json" <<'PY' || fail "CSV and JSON blades equal the records"
import csv, json, struct, sys
raw = open(sys.argv[1], "rb").read()
rec = [struct.unpack("<12f", raw[k:k + 48]) for k in range(0, len(raw), 48)]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(rec)
f32 = lambda v: struct.unpack("<f", struct.pack("<f", float(v)))[0]
for r, b in zip(rows[::101], rec[::101]):
    assert (f32(r["x"]), f32(r["y"]), f32(r["z"]), f32(r["scale"])) == b[:4]
    assert (f32(r["qx"]), f32(r["qy"]), f32(r["qz"]), f32(r["qw"]), f32(r["tint"]), f32(r["wind_phase"])) == b[4:10]
j = json.load(open(sys.argv[3]))
blades = [b for c in j["cells"] for b in c["blades"]]
assert len(blades) == len(rec) and j["type"] == "Meadow"
for b, r in zip(blades[::101], rec[::101]):
    assert tuple(f32(v) for v in b["position"]) == r[:3] and f32(b["scale"]) == r[3]
PY

# glTF instances pass the Khronos validator.
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells "$CELLS" -o "$T/b.glb"
run 0 node "$VOXKIT_SOURCE_DIR/tests/checks/validate_gltf.js" "$T/b.glb"
out_has '"numErrors": 0'
out_has '"numWarnings": 0'

# A lower scale keeps a subset of the blades.
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells "$CELLS" --scale 0.4 -o "$T/half.raw"
checks=$((checks + 1))
python3 - "$T/b.raw" "$T/half.raw" <<'PY' || fail "a lower scale is a subset"
import sys
a = open(sys.argv[1], "rb").read(); b = open(sys.argv[2], "rb").read()
full = {a[k:k + 48] for k in range(0, len(a), 48)}
assert 0 < len(b) < len(a) and all(b[k:k + 48] in full for k in range(0, len(b), 48))
PY

# --explain: candidate by candidate, in text and JSON; a cell off the zone grew nothing.
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --explain "$((X1 + 3)),$Z0"
out_has "no surface (off the ground"
out_has "placed 0, no surface 24649"
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --explain "$X0,$Z0" --json
checks=$((checks + 1))
python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["explain"]["candidates"]; assert len(e)==157*157 and {c["verdict"] for c in e} <= {"placed","no-surface","slope","density"}' "$T/out" || fail "explain JSON"

# A layer the zone does not have: a warning, and everything refused by density.
cat >"$T/snow.toml" <<'TOML'
Name = "SnowGrass"
Layer = "Snowfield"
TOML
run 0 "$VOXKIT" grass scatter "$T/snow.toml" "$T/z.vxz" --cells "$X0,$Z0,$X0,$Z0"
err_has "not a layer of"
out_has "placed 0 of"

# A heightmap surface with splat layers.
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$DEM/jacksboro_crop.tif" --splat "$DEM/jacksboro_splat.png" \
  --layers Grass,rock,sand,snow --nodata-fill min --cells 0,0,1,1 --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["surface"]["kind"]=="heightmap" and j["totals"]["placed"]>0, j["totals"]' "$T/out" || fail "heightmap surface"

# grass type prints the type in full, and reads back.
run 0 "$VOXKIT" grass type "$G/Outskirts.vxgrass" --to json
out_has '"Name": "Outskirts"'
cp "$T/out" "$T/o.json"
run 0 "$VOXKIT" grass type "$T/o.json" --to toml
out_has 'Name = "Outskirts"'

# info describes a grass type in any syntax.
run 0 "$VOXKIT" info "$G/Meadow.vxgrass"
out_has "157 x 157 per 32 m cell"
run 0 "$VOXKIT" info "$T/o.json" --json
out_has '"format": "grass-type"'

# Bad inputs: usage errors (2) and data errors (1), nothing written.
run 2 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz"
err_has "cells"
run 2 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells 1,2,3
run 2 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells=-100000,-100000,100000,100000 -o "$T/huge.raw"
err_has "too large"
absent "$T/huge.raw"
run 2 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/z.vxz" --cells "$CELLS" -o "$T/b.raw"
err_has "exists"
printf 'name: Bad\ndensity: -1\nminScale: 1\nmaxScale: 1\nwind:\n  direction: 1 0\n  height: 1\n' >"$T/bad.vxgrass"
run 1 "$VOXKIT" grass scatter "$T/bad.vxgrass" "$T/z.vxz" --cells "$CELLS"
err_has "density"
printf 'garbage that is not a zone' >"$T/junk.vxz"
run 1 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/junk.vxz" --cells 0,0,0,0
no_temp_left "$T"
finish
