# CLI: every JSON shape voxkit prints or writes, validated against its schema in docs/schemas/
# (docs/schemas/README.md lists which verb emits which). Each case runs a verb on small data
# made here or on test_data/, keeps the JSON it printed or wrote, and one run of
# tests/checks/validate_json.py checks every schema, every kept output, and that every
# schema is used by at least one case.
source "$(dirname "$0")/lib.sh"
SRC=$VOXKIT_SOURCE_DIR
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null ||
  { echo "FAIL: /usr/bin/python3 lacks jsonschema: install python3-jsonschema (scripts/setup.sh --tests)" >&2; exit 1; }
S=$SRC/docs/schemas
mkdir -p "$T/json"
: >"$T/cases"
n=0

# keep SCHEMA [FILE] [lines]: FILE (default: the last run's stdout) is one JSON document of
# SCHEMA, or with "lines" one per line.
keep() {
  local schema=$1 file=${2:-$T/out} mode=${3:-json}
  n=$((n + 1))
  cp "$file" "$T/json/$n.json"
  printf '%s\t%s\t%s\t%s\n' "$schema" "$mode" "$T/json/$n.json" "case $n (line ${BASH_LINENO[-2]})" >>"$T/cases"
}
# keep_err SCHEMA: the last run's stderr (the report when the verb's output went to stdout).
keep_err() { keep "$1" "$T/err"; }

D=$SRC/test_data

# --- --version --json
run 0 "$VOXKIT" --version --json
keep version

# --- info --json on every format test_data or a verb here can make
{ for _ in $(seq 26); do printf '\xff'; done; printf '\x00'; } >"$T/g.raw"
run 0 "$VOXKIT" pack "$T/g.raw" -o "$T/g.vxcb" --cells 2,2,2 --chunk-cells 1
run 0 "$VOXKIT" rle encode "$T/g.raw" -o "$T/g.rle"
run 0 "$VOXKIT" info --json "$T/g.vxcb"; keep info
run 0 "$VOXKIT" info --json "$T/g.rle"; keep info
run 0 "$VOXKIT" info --json "$T/g.rle" --cells 2,2,2; keep info
run 0 "$VOXKIT" info --json "$T/g.raw" --cells 2,2,2; keep info
run 0 "$VOXKIT" info --json "$D/unity/quarry.asset"; keep info
run 0 "$VOXKIT" info --json "$D/dem/jacksboro_crop.tif"; keep info
run 0 "$VOXKIT" info --json "$D/dem/jacksboro_splat.png"; keep info
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x10' * (33 * 33))" >"$T/flat.raw"
run 0 "$VOXKIT" info --json "$T/flat.raw"; keep info
run 0 "$VOXKIT" info --json "$D/edits/network.vxlog"; keep info
run 0 "$VOXKIT" info --json "$D/edits/ordered.vxlog"; keep info
run 0 "$VOXKIT" info --json "$D/edits/ordered.json"; keep info
run_in 0 "$D/edits/network.txt" "$VOXKIT" info --json -; keep info
run 0 "$VOXKIT" info --json "$D/grass/Meadow.vxgrass"; keep info
printf 'Name = "Backwards"\nLayer = "Grass"\nMinWeight = 0.9\nMaxWeight = 0.1\n' >"$T/backwards.toml"
run 0 "$VOXKIT" info --json "$T/backwards.toml"; keep info
run 0 "$VOXKIT" info --json "$D/stationeers/small.save"; keep info
run 0 "$VOXKIT" info --json "$D/stationeers/world_small.xml"; keep info
head -c 4913 /dev/zero | tr '\0' '\177' >"$T/solid.bin"
run 0 "$VOXKIT" info --json "$T/solid.bin"; keep info
run 0 "$VOXKIT" chunk convert "$T/solid.bin" --to b64 -o "$T/solid.b64"
run 0 "$VOXKIT" info --json "$T/solid.b64"; keep info
python3 - "$T" <<'PY'
import gzip, struct, sys
raw = struct.pack('<i', 10) + b'\x01\x00\x00' + struct.pack('<i', 16974593)
open(sys.argv[1] + '/Terrain0.dat', 'wb').write(gzip.compress(raw))
PY
run 0 "$VOXKIT" info --json "$T/Terrain0.dat"; keep info
run 0 "$VOXKIT" octree synth -o "$T/s.dat" --max-depth 10 --tunnels 4 --veins 3 --seed 3 --world-xml "$T/w.xml"
run 0 "$VOXKIT" info --json "$T/s.dat"; keep info

# --- bake, rebake, zone (a flat zone; a small DEM zone with splat layers)
run 0 "$VOXKIT" bake "$T/flat.raw" -o "$T/z.vxz" --terrain-size 32,20,32 --voxel-size 0.5 --json
keep bake
run 0 "$VOXKIT" info --json "$T/z.vxz"; keep info
run 0 "$VOXKIT" bake "$D/dem/jacksboro_crop.tif" -o "$T/d.vxz" --center 7000,600,8000 --size 64,40,64 \
  --voxel-size 2 --splat "$D/dem/jacksboro_splat.png" --layers Grass,rock,sand,snow --json
keep bake
run 0 "$VOXKIT" -q bake "$T/flat.raw" -o - --terrain-size 32,20,32 --voxel-size 1 --json
keep_err bake
run 0 "$VOXKIT" rebake "$T/z.vxz" "$T/flat.raw" --terrain-size 32,20,32 -o "$T/re.vxz" --json
keep rebake
run 0 "$VOXKIT" zone extract "$T/d.vxz" --part grid -o "$T/grid.raw" --json; keep zone-extract
run 0 "$VOXKIT" zone extract "$T/d.vxz" --part splat -o "$T/s.png" --json; keep zone-extract
run 0 "$VOXKIT" zone import-unity "$D/unity/pit.asset" -o "$T/p.vxz"
run 0 "$VOXKIT" zone export-unity "$T/p.vxz" -o "$T/new.asset" --json; keep zone-export-unity
cp "$D/unity/pit.asset" "$T/pit.asset"
run 0 "$VOXKIT" zone export-unity "$T/p.vxz" "$T/pit.asset" --json; keep zone-export-unity
run 0 "$VOXKIT" zone hole-mask "$T/z.vxz" --terrain-pos -8,0,-8 --terrain-size 48,30,48 --hole-resolution 96 \
  -o "$T/holes.png" --zone-out "$T/cut.vxz" --json
keep zone-hole-mask
run 0 "$VOXKIT" info --json "$T/cut.vxz"; keep info

# --- octree: info, reset, diff, checksum, export (a synthetic terrain.dat, a .save)
run 0 "$VOXKIT" octree info "$T/s.dat" --json; keep octree-info
run 0 "$VOXKIT" octree info "$D/stationeers/small.save" --json; keep octree-info
run 0 "$VOXKIT" octree reset "$T/s.dat" --keep-sphere 0,100,0,200 -o "$T/r.dat" --json; keep octree-reset
run 0 "$VOXKIT" octree reset "$T/s.dat" --keep-radius 0,0,100 --dry-run --json; keep octree-reset
cp "$T/s.dat" "$T/s2.dat"
run 0 "$VOXKIT" octree reset "$T/s2.dat" --drop-box=-100,0,-100,100,1023,100 --in-place --json; keep octree-reset
cp "$D/stationeers/small.save" "$T/w.save"
run 0 "$VOXKIT" octree reset "$T/w.save" --keep-rooms --dry-run --json; keep octree-reset
run 3 "$VOXKIT" octree diff "$T/s.dat" "$T/r.dat" --json; keep octree-diff
run 0 "$VOXKIT" octree diff "$T/s.dat" "$T/s.dat" --json; keep octree-diff
python3 - "$T" <<'PY'
import gzip, struct, sys
raw = struct.pack('<i', 10) + b'\x01\x00\x00' + struct.pack('<i', 7)
open(sys.argv[1] + '/Terrain1.dat', 'wb').write(gzip.compress(raw))
PY
run 1 "$VOXKIT" octree checksum "$T/Terrain0.dat" "$T/Terrain1.dat" "$T/s.dat" --json; keep octree-checksum
# world.xml against base files: check (they differ: synth leaves 0), update, a base file
mkdir -p "$T/tb"
cp "$T/Terrain0.dat" "$T/tb/Terrain0.dat"
run 3 "$VOXKIT" octree checksum "$T/w.xml" --base-dir "$T/tb" --json; keep octree-checksum-world
run 0 "$VOXKIT" octree checksum "$T/w.xml" --base-dir "$T/tb" --update -o "$T/w2.xml" --json; keep octree-checksum-world
run 0 "$VOXKIT" octree base "$T/Terrain0.dat" -o "$T/b0.dat" --json; keep octree-base
run 0 "$VOXKIT" octree export "$T/s.dat" --box 0,0,0,31,31,31 -o "$T/oe.vxz" --json; keep octree-export

# --- save: list, replace, rooms
run 0 "$VOXKIT" save list "$T/w.save" --json; keep save-list
printf 'new terrain' >"$T/new.dat"
run 0 "$VOXKIT" save replace "$T/w.save" terrain.dat="$T/new.dat" --dry-run --json; keep save-replace
run 0 "$VOXKIT" save replace "$T/w.save" terrain.dat="$T/new.dat" --json; keep save-replace
run 0 "$VOXKIT" save rooms "$D/stationeers/world_small.xml" --margin 0 --json; keep save-rooms
run 0 "$VOXKIT" save rooms "$D/stationeers/small.save" --json; keep save-rooms

# --- convert
run 0 "$VOXKIT" convert "$T/d.vxz" --to sm-chunks -o "$T/c.txt" --json; keep convert
read -r CX CY CZ < <(python3 -c 'import json,sys; print(*json.load(open(sys.argv[1]))["chunks"]["grid"])' "$T/out")
run 0 "$VOXKIT" convert "$T/c.txt" --to zone --chunks "$CX,$CY,$CZ" -o "$T/back.vxz" --json; keep convert
run 0 "$VOXKIT" convert "$T/d.vxz" --to ice-module -o "$T/m.raw" --regions "$T/m.regions" --json; keep convert

# --- edit: pack, unpack, apply, replay, diff
run 0 "$VOXKIT" edit pack --pos 8,8.3,8 --radius 3 --op dig --json; keep edit-pack
run 0 "$VOXKIT" edit pack --pos 1,1,1 --radius 1 --op dig --world --zone "$T/z.vxz" --json; keep edit-pack
run 0 "$VOXKIT" edit unpack 77693969818452164 -8426233528410177216 0x0410014000A00140 --json; keep edit-unpack
run 1 "$VOXKIT" edit unpack 0x0601000000000000 --json; keep edit-unpack
pack() { "$VOXKIT" edit pack "$@" | cut -d' ' -f1; }
{
  pack --pos 32,18,32 --radius 4 --op dig
  pack --pos 20,19,20 --radius 3 --op add --layer 2
  pack --pos 32,18,32 --radius 5 --op paint --layer 7
} >"$T/log.txt"
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.txt" -o "$T/a.vxz" --json; keep edit-apply
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.txt" -o "$T/m.vxz" --mesh "$T/dirty.glb" --json; keep edit-apply
{ cat "$T/log.txt"; echo "0x0601000000000000"; } >"$T/bad.txt"
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/bad.txt" -n --skip-invalid --at 2 --json; keep edit-apply
awk '{print $1, NR - 1, 0}' "$T/log.txt" >"$T/net.txt"
run 0 "$VOXKIT" edit replay "$T/z.vxz" "$T/net.txt" -o "$T/n.vxz" --json; keep edit-apply
python3 -c "import sys; sys.stdout.buffer.write(bytes(0 if y < 8 else 255 for z in range(17) for y in range(17) for x in range(17)))" >"$T/grid17.raw"
pack --pos 8,8,8 --radius 3 --op dig >"$T/raw.txt"
pack --pos 8,7,8 --radius 2 --op paint --layer 5 >>"$T/raw.txt"
run 0 "$VOXKIT" pack "$T/grid17.raw" --cells 16,16,16 --chunk-cells 4 -o "$T/grid17.vxcb"
run 0 "$VOXKIT" edit apply "$T/grid17.raw" "$T/raw.txt" --cells 16,16,16 -o "$T/grid18.raw" --paint-out "$T/paint.raw" \
  --blob "$T/grid17.vxcb" --blob-out "$T/grid18.vxcb" --json
keep edit-apply
pack --pos 2,1,2 --radius 1 --op dig >"$T/q.txt"
run 0 "$VOXKIT" edit apply "$D/unity/quarry.asset" "$T/q.txt" -n --json; keep edit-apply
run 3 "$VOXKIT" edit diff "$T/z.vxz" "$T/a.vxz" --json; keep edit-diff
run 0 "$VOXKIT" edit diff "$T/a.vxz" "$T/a.vxz" --json; keep edit-diff

# --- caves, melt, mesh (an ice module with a closed pocket)
python3 - "$T" <<'PY'
import math, sys
v = bytearray()
for z in range(33):
    for y in range(17):
        for x in range(33):
            d = 255
            if y >= 13: d = 0
            if math.dist((x, y, z), (16, 6, 16)) < 2.5: d = 0
            v.append(d)
open(sys.argv[1] + "/module.bin", "wb").write(v)
PY
ice=(--cells 32,16,32)
run 0 "$VOXKIT" caves label "$T/module.bin" "${ice[@]}" -o "$T/regions.bin" --closed-list "$T/closed.txt" --json
keep caves-label
printf 'x,y,z,radius,amount,power,temperature,dt,brake\n16,9.5,16,1.5,1,,,,\n5,12,5,3,,2,3,0.5,1.5\n100,100,100,2,1,,,,\n' >"$T/hits.csv"
run 0 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${ice[@]}" --regions "$T/regions.bin" --closed-file "$T/closed.txt" \
  -o "$T/melted.bin" --json --per-hit
keep melt
run 0 "$VOXKIT" melt "$T/module.bin" "$T/hits.csv" "${ice[@]}" -o "$T/melted2.bin" --json
keep melt
run 0 "$VOXKIT" mesh "$T/module.bin" "${ice[@]}" --convention ice -o "$T/ice.glb" --json; keep mesh
run 0 "$VOXKIT" mesh "$T/z.vxz" -o "$T/z.glb" --stats --json --lod 0.5; keep mesh
run 0 "$VOXKIT" mesh "$T/z.vxz" -o "$T/z.obj" --merge --json; keep mesh
run 0 "$VOXKIT" mesh "$D/unity/quarry.asset" -o "$T/q.gltf" --json; keep mesh

# --- foliage: bake, check (on the flat zone; the ground is at world y 1.25)
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
with open(t + "/trees.csv", "w") as f:
    f.write("x,y,z,prototype,rotation,scale\n10,1.25,10,0,0.5,1\n22,1.25,20,1,0,1\n15,4.25,25,0,0,1\n")
with open(t + "/details.csv", "w") as f:
    f.write("x,z,prototype,rotation\n")
    for k in range(40):
        f.write(f"{1 + (k * 7) % 30 * 1.0},{1 + (k * 13) % 30 * 1.0},0,{k}\n")
with open(t + "/surface.json", "w") as f:
    f.write('[{"position": [5, 1.25, 5], "normal": [0, 1, 0]}]')
PY
run 0 "$VOXKIT" foliage bake "$T/z.vxz" --trees "$T/trees.csv" --details "$T/details.csv" \
  --surface-details "$T/surface.json" -o "$T/f.vxz" --mask-out "$T/mask.rgba" --json
keep foliage-bake
run 0 "$VOXKIT" info --json "$T/f.vxz"; keep info
pack --pos 10,1.25,10 --radius 2 --op dig --world --zone "$T/f.vxz" >"$T/dig.txt"
run 0 "$VOXKIT" foliage check "$T/f.vxz" --log "$T/dig.txt" -o "$T/fc.vxz" --json; keep foliage-check
run 0 "$VOXKIT" foliage check "$T/f.vxz" --log "$T/dig.txt" --full --json; keep foliage-check
run 0 "$VOXKIT" mesh "$T/f.vxz" --foliage -o "$T/trees.glb" --json; keep mesh

# --- grass: scatter (report, with blades, --explain, a heightmap surface; blades as JSON), residency, type
G=$D/grass
read -r X0 Z0 < <(python3 -c 'import json,sys,math; o=json.load(open(sys.argv[1]))["details"]["origin"]; print(math.floor(o[0]/32), math.floor(o[2]/32))' <("$VOXKIT" info --json "$T/d.vxz"))
CELLS="$X0,$Z0,$((X0 + 1)),$Z0"
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/d.vxz" --cells "$CELLS" -o "$T/b.raw" --json; keep grass-scatter
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/d.vxz" --cells "$X0,$Z0,$X0,$Z0" --scale 0.02 -o "$T/b2.raw" --json --blades
keep grass-scatter
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/d.vxz" --explain "$((X0 + 1)),$((Z0 + 1))" --json; keep grass-scatter
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$D/dem/jacksboro_crop.tif" --splat "$D/dem/jacksboro_splat.png" \
  --layers Grass,rock,sand,snow --nodata-fill min --cells 0,0,0,0 -o "$T/hb.raw" --json
keep grass-scatter
run 0 "$VOXKIT" grass scatter "$G/Meadow.vxgrass" "$T/d.vxz" --cells "$CELLS" --scale 0.01 -o "$T/blades.json"
keep grass-blades "$T/blades.json"
run 0 "$VOXKIT" grass residency --path "$G/camera_path.csv" --range 40 --capacity 9 --json; keep grass-residency
run 0 "$VOXKIT" grass residency --path "$G/camera_path.csv" --range 160 --capacity 256 --json --no-resident
keep grass-residency
run 0 "$VOXKIT" grass type "$G/Outskirts.vxgrass" --to json; keep grass-type
cp "$T/out" "$T/o.json"
run 0 "$VOXKIT" info --json "$T/o.json"; keep info

# --- chunk and convert: Scrap Mechanic chunks as JSON (one document; one a line)
run 0 "$VOXKIT" chunk convert "$T/solid.bin" --to json -o "$T/solid.json"; keep sm-chunk "$T/solid.json"
head -3 "$T/c.txt" >"$T/c3.txt"
run 0 "$VOXKIT" -q chunk convert --batch "$T/c3.txt" --to json -o "$T/chunks.jsonl"; keep sm-chunk "$T/chunks.jsonl" lines
run 0 "$VOXKIT" convert "$T/p.vxz" --to sm-chunks --form json -o "$T/c.jsonl"; keep sm-chunk "$T/c.jsonl" lines
# batch reports (docs/batch.md): all good, and a failed item under --keep-going
printf 'YWJj\n!!\nZGVm\n' >"$T/b64.txt"
run 0 "$VOXKIT" b64 decode --batch --json <(printf 'YWJj\nZGVm\n') -o "$T/ok.vxb"; keep batch
run 1 "$VOXKIT" b64 decode --batch --keep-going --json "$T/b64.txt" -o "$T/kg.vxb"; keep batch
run 0 "$VOXKIT" rle encode --batch --json <(printf 'AAAA\n') -o "$T/rle.vxb"; keep batch

# --- a world: plan, tile bake, tile mesh, tile index (the demo world cut to 2 x 1 tiles)
mkdir -p "$T/data/dem"
cp -r "$D/world" "$T/data/world"
cp "$D/dem/jacksboro_splat.png" "$T/data/dem/"
m=$T/data/world/demo.toml
sed -i 's/^max = .*/max = [1020.0, 720.0, 540.0]/' "$m"
run 0 "$VOXKIT" plan "$m" --emit ninja -o "$T/plan" --json; keep plan
keep plan "$T/plan/plan.json"
run 0 "$VOXKIT" tile bake "$m" --tile 1,0 -o "$T/tile.vxz" --json; keep tile-bake
run 0 "$VOXKIT" tile mesh "$m" --tile 1,0 --zone "$T/tile.vxz" -o "$T/tile.glb" --json; keep tile-mesh
# the plan's own jobs, in order (the index last)
checks=$((checks + 1))
python3 - "$T/plan" >/dev/null <<'PY' || fail "the plan's jobs"
import json, os, subprocess, sys
d = sys.argv[1]
for j in json.load(open(d + "/plan.json"))["jobs"]:
    for o in j["outputs"]: os.makedirs(os.path.join(d, os.path.dirname(o)), exist_ok=True)
    subprocess.run(j["argv"], cwd=d, check=True)
PY
keep world-index "$T/plan/world_index.json"
cat >"$T/resets.toml" <<'TOML'
[saves]
name = "resets"
files = ["saves/*.save"]

[reset]
keep_rooms = true
margin = 4
TOML
mkdir -p "$T/saves" && cp "$D/stationeers/small.save" "$T/saves/"
run 0 "$VOXKIT" plan "$T/resets.toml" --emit snakemake -o "$T/splan" --json; keep plan

# --- info on meshes (glb, gltf with an external and an embedded buffer, obj, ply binary and ASCII,
# stl binary and ASCII), cave-region grids, melt hits, camera paths, foliage lists, TerrainData
# assets, world and saves manifests, and edit logs in every encoding
grid=("$D/demo_grid.raw" --cells 64,40,64)
for f in glb gltf obj ply stl; do
  run 0 "$VOXKIT" -q mesh "${grid[@]}" -o "$T/dm.$f"
  run 0 "$VOXKIT" info --json "$T/dm.$f"; keep info
done
run 0 "$VOXKIT" -q mesh "${grid[@]}" --embed -o "$T/dme.gltf"
run 0 "$VOXKIT" info --json "$T/dme.gltf"; keep info
run 0 "$VOXKIT" -q mesh "${grid[@]}" --ascii -o "$T/dma.ply"
run 0 "$VOXKIT" info --json "$T/dma.ply"; keep info
printf 'solid tri\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 2 0 0\n   vertex 0 3 0\n  endloop\n endfacet\nendsolid tri\n' >"$T/tri.stl"
run 0 "$VOXKIT" info --json "$T/tri.stl"; keep info
run 0 "$VOXKIT" info --json "$T/trees.glb"; keep info
run 0 "$VOXKIT" info --json "$T/q.gltf"; keep info
run 0 "$VOXKIT" info --json "$T/regions.bin" "${ice[@]}"; keep info
head -c $((2 * 9 * 9 * 9)) /dev/zero >"$T/noregions.bin"
run 0 "$VOXKIT" info --json "$T/noregions.bin" --cells 8,8,8; keep info
run 0 "$VOXKIT" info --json "$T/hits.csv"; keep info
printf '[{"x": 1, "y": 2, "z": 3, "radius": 1, "power": 5, "temperature": 20, "dt": 0.1}]' >"$T/hits.json"
run 0 "$VOXKIT" info --json "$T/hits.json"; keep info
run 0 "$VOXKIT" info --json "$D/grass/camera_path.csv"; keep info
printf 'x,y,z\n1,2,3\n4,5,6\n' >"$T/views.csv"
run 0 "$VOXKIT" info --json "$T/views.csv"; keep info
run 0 "$VOXKIT" info --json "$T/trees.csv"; keep info
run 0 "$VOXKIT" info --json "$T/details.csv"; keep info
run 0 "$VOXKIT" info --json "$T/surface.json"; keep info
printf 'px,py,pz,prototype\n0.25,0.5,0.75,0\n0.5,0.5,0.5,3\n' >"$T/unit.csv"
run 0 "$VOXKIT" info --json "$T/unit.csv"; keep info
printf 'TerrainData:\n  m_Name: T\n  m_DetailDatabase:\n    m_TreeInstances:\n    - position: {x: 0.5, y: 0, z: 0.25}\n      widthScale: 1\n      heightScale: 2\n      rotation: 1\n      index: 1\n    m_TreePrototypes:\n    - prefab: {fileID: 0}\n    - prefab: {fileID: 0}\n  m_Heightmap:\n    m_Resolution: 33\n    m_Scale: {x: 2, y: 40, z: 2}\n' >"$T/td.asset"
run 0 "$VOXKIT" info --json "$T/td.asset"; keep info
printf 'TerrainData:\n  m_Name: T\n  m_DetailDatabase:\n    m_DetailPrototypes:\n    - prototype: {fileID: 0}\n    m_TreeInstances: []\n    m_TreePrototypes: []\n  m_Heightmap:\n    m_Resolution: 33\n    m_Scale: {x: 2, y: 40, z: 2}\n' >"$T/bare.asset"
run 0 "$VOXKIT" info --json "$T/bare.asset"; keep info
run 0 "$VOXKIT" info --json "$D/world/demo.toml"; keep info
run 0 "$VOXKIT" info --json "$T/resets.toml"; keep info
for f in plain.int64 plain.json ordered.txt network.json; do
  run 0 "$VOXKIT" info --json "$D/edits/$f"; keep info
done

# --- info on more files of the formats above (each now validated against its details schema)
# top-level shape holds whatever the format; a file info does not know is left out.
for f in "$T/z.glb" "$T/z.obj" "$D/grass/camera_path.csv" "$D/world/demo.toml" "$T/hits.csv"; do
  if "$VOXKIT" info --json "$f" >"$T/out" 2>/dev/null; then keep info; fi
done

# --- every schema valid, every document valid against its schema, every schema used. The
# format ids info knows (from its refusal of an unknown file) are passed on, to name those
# checked only as an object.
"$VOXKIT" info "$T/g.raw" 2>"$T/formats.err" >/dev/null
formats=$(sed -n 's/.*unknown format: not any of //p' "$T/formats.err" | sed 's/ ([^)]*)$//')
checks=$((checks + 1))
[[ -n $formats ]] || fail "info's list of formats not found in: $(cat "$T/formats.err")"
# One check per case and one for the schemas themselves.
checks=$((checks + n + 1))
/usr/bin/python3 "$SRC/tests/checks/validate_json.py" "$S" "$T/cases" --info-formats "$formats" >"$T/v.out" 2>&1
status=$?
cat "$T/v.out"
if [[ $status -ne 0 ]]; then
  bad=$(sed -n 's/.*documents: \([0-9]*\) cases failed.*/\1/p' "$T/v.out")
  failures=$((failures + ${bad:-0}))
  grep '^FAIL' "$T/v.out" | grep -qv '^FAIL: case ' && fail "schemas: see the FAIL lines above"
  [[ -n $bad ]] || fail "validate_json.py did not finish"
fi
finish
