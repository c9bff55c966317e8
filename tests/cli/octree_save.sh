# CLI: voxkit octree on .save files: info, reset in place with a backup, dry run, rooms,
# checksums zeroed or kept, members carried through, refusals.
source "$(dirname "$0")/lib.sh"

run 0 "$VOXKIT" octree synth -o "$T/terrain.dat" --max-depth 12 --tunnels 20 --pads 3 --veins 10 --seed 5 --world-xml "$T/world.xml"
# Give the world some non-zero checksums, then pack a save with a mod's extra member.
sed -i '0,/<int>0<\/int>/s//<int>-12345<\/int>/' "$T/world.xml"
python3 - "$T" <<'PY'
import sys, zipfile
t = sys.argv[1]
with zipfile.ZipFile(t + '/w.save', 'w') as z:
    z.writestr('world_meta.xml', '<WorldMeta/>', zipfile.ZIP_DEFLATED)
    z.write(t + '/world.xml', 'world.xml', zipfile.ZIP_DEFLATED)
    z.write(t + '/terrain.dat', 'terrain.dat', zipfile.ZIP_DEFLATED)
    z.writestr('preview.png', b'\x89PNG fake', zipfile.ZIP_STORED)
    z.writestr('mods/extra.bin', bytes(range(256)) * 4, zipfile.ZIP_DEFLATED)
PY
cp "$T/w.save" "$T/orig.save"

run 0 "$VOXKIT" octree info "$T/w.save"
out_has "save, terrain.dat"
out_has "TerrainChunkChecksums (1 non-zero)"

# dry run: nothing written
run 0 "$VOXKIT" octree reset "$T/w.save" --keep-rooms --dry-run --json
same "$T/w.save" "$T/orig.save"
absent "$T/w.save.bak"
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["kind"]=="save" and j["dry_run"] and j["rooms"]["rooms"]>=3 and j["output"] is None' "$T/out" || fail "dry-run JSON"

# the same reset on the bare files gives the terrain.dat the save gets
run 0 "$VOXKIT" octree reset "$T/terrain.dat" --world-xml "$T/world.xml" --keep-rooms -o "$T/want.dat"
run 0 "$VOXKIT" octree reset "$T/w.save" --keep-rooms
out_has "set to 0"
same "$T/w.save.bak" "$T/orig.save"
python3 - "$T" <<'PY' || fail "save members"
import sys, zipfile, re
t = sys.argv[1]
a = zipfile.ZipFile(t + '/orig.save'); b = zipfile.ZipFile(t + '/w.save')
assert [i.filename for i in a.infolist()] == [i.filename for i in b.infolist()]
for i in a.infolist():
    if i.filename in ('terrain.dat', 'world.xml'): continue
    assert a.read(i.filename) == b.read(i.filename), i.filename
    assert i.compress_type == b.getinfo(i.filename).compress_type, i.filename
assert b.read('terrain.dat') == open(t + '/want.dat', 'rb').read()
old = a.read('world.xml').decode(); new = b.read('world.xml').decode()
assert '-12345' in old and '-12345' not in new
assert re.sub(r'<int>-?\d+</int>', '', old) == re.sub(r'<int>-?\d+</int>', '', new)
PY
checks=$((checks + 1))
# a second run refuses to replace the backup without -f
run 2 "$VOXKIT" octree reset "$T/w.save" --keep-rooms
err_has "exists"

# --keep-checksums, -o a new save, compat
cp "$T/orig.save" "$T/k.save"
run 0 "$VOXKIT" octree reset "$T/k.save" --keep-rooms --keep-checksums --compat -o "$T/k2.save"
same "$T/k.save" "$T/orig.save"
absent "$T/k.save.bak"
run 0 "$VOXKIT" octree reset "$T/terrain.dat" --world-xml "$T/world.xml" --keep-rooms --compat -o "$T/compat.dat"
python3 - "$T" <<'PY' || fail "compat save"
import sys, zipfile
t = sys.argv[1]
b = zipfile.ZipFile(t + '/k2.save')
assert b.read('terrain.dat') == open(t + '/compat.dat', 'rb').read()
assert b'-12345' in b.read('world.xml')
PY
checks=$((checks + 1))

# a reset that drops one box keeps the compressed blocks of everything it copied: the
# members still read back (Python's zipfile checks each CRC) and equal the bare reset's
cp "$T/orig.save" "$T/d.save"
run 0 "$VOXKIT" octree reset "$T/terrain.dat" --world-xml "$T/world.xml" --drop-box=-300,0,-300,300,4095,300 -o "$T/drop.dat"
run 0 "$VOXKIT" octree reset "$T/d.save" --drop-box=-300,0,-300,300,4095,300 --json
python3 - "$T" <<'PY' || fail "spliced save"
import json, sys, zipfile
t = sys.argv[1]
j = json.load(open(t + '/out'))
assert j["save"]["reused_bytes"] > 0, j["save"]
b = zipfile.ZipFile(t + '/d.save')
assert b.testzip() is None
assert b.read('terrain.dat') == open(t + '/drop.dat', 'rb').read()
assert b.read('world.xml').count(b'-12345') == 0
PY
checks=$((checks + 1))

# a save without rooms: refused unless forced
sed 's/<Rooms>.*//' "$T/world.xml" | tr -d '\n' >/dev/null
python3 - "$T" <<'PY'
import sys, zipfile, re
t = sys.argv[1]
x = open(t + '/world.xml').read()
x = re.sub(r'<Rooms>.*</Rooms>', '<Rooms />', x, flags=re.S)
with zipfile.ZipFile(t + '/norooms.save', 'w') as z:
    z.writestr('world.xml', x, zipfile.ZIP_DEFLATED)
    z.write(t + '/terrain.dat', 'terrain.dat', zipfile.ZIP_DEFLATED)
PY
cp "$T/norooms.save" "$T/norooms.orig"
run 1 "$VOXKIT" octree reset "$T/norooms.save" --keep-rooms
err_has "has no rooms"
same "$T/norooms.save" "$T/norooms.orig"
run 0 "$VOXKIT" octree reset "$T/norooms.save" --keep-rooms --reset-all-if-no-rooms
run 2 "$VOXKIT" octree reset "$T/terrain.dat" --keep-rooms -o "$T/x.dat"
err_has "needs a .save or --world"
no_temp_left "$T"
finish
