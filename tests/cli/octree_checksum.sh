# CLI: voxkit octree checksum --check/--update (world.xml and .save against Terrain{i}.dat
# base files) and voxkit octree base (a base file from a node stream): exit codes, reports,
# backups, dry runs, members carried through, refusals.
source "$(dirname "$0")/lib.sh"
FIX="$VOXKIT_SOURCE_DIR/test_data/stationeers"

# A 2048^3 world (8 entries) and three base files made from synthetic 1024^3 node streams.
run 0 "$VOXKIT" octree synth -o "$T/t11.dat" --max-depth 11 --seed 3 --tunnels 4 --pads 2 --veins 3 --world-xml "$T/world.xml"
mkdir "$T/base"
for i in 0 1 2; do
  run 0 "$VOXKIT" octree synth -o "$T/b$i.dat" --max-depth 10 --seed $((i + 10)) --tunnels 2 --pads 1 --veins 2
  run 0 "$VOXKIT" octree base "$T/b$i.dat" -o "$T/base/Terrain$i.dat"
  err_has "vein(s) left out"
done
cp "$T/world.xml" "$T/orig.xml"

# --- check ---------------------------------------------------------------------------
run 3 "$VOXKIT" octree checksum "$T/world.xml" --base-dir "$T/base"
out_has "8 entries: 5 agree, 3 differ, 5 base file(s) missing"
out_has "Terrain1.dat .* DIFFERS"
out_has "Terrain3.dat .* ok (no file: 0)"
run 3 "$VOXKIT" octree checksum "$T/world.xml" --base-dir "$T/base" --check --json
checks=$((checks + 1))
python3 - "$T/out" <<'PY' || fail "check JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["kind"] == "world.xml" and j["entries"] == 8 and j["differ"] == 3 and j["missing"] == 5, j
assert j["base"]["source"] == "directory" and "update" not in j
c = j["chunks"]
assert [x["present"] for x in c] == [True] * 3 + [False] * 5
assert all(x["depth"] == 10 and x["base_ok"] for x in c[:3])
assert c[3]["computed"] == 0 and c[3]["ok"]
PY

# --- update of a bare world.xml ------------------------------------------------------
run 2 "$VOXKIT" octree checksum "$T/world.xml" --base-dir "$T/base" --update
err_has "give -o OUT, --in-place or --dry-run"
run 0 "$VOXKIT" octree checksum "$T/world.xml" --base-dir "$T/base" --update -n
out_has "3 value(s) would be rewritten; nothing written"
same "$T/world.xml" "$T/orig.xml"
absent "$T/world.xml.bak"
run 0 "$VOXKIT" octree checksum "$T/world.xml" --base-dir "$T/base" --update -o "$T/new.xml"
same "$T/world.xml" "$T/orig.xml"
run 0 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T/base"
out_has "8 entries: 8 agree, 0 differ"
# only the values changed
checks=$((checks + 1))
python3 - "$T" <<'PY' || fail "only values changed"
import re, sys
t = sys.argv[1]
a = open(t + '/orig.xml', 'rb').read(); b = open(t + '/new.xml', 'rb').read()
strip = lambda s: re.sub(rb'<int>-?\d+</int>', b'', s)
assert strip(a) == strip(b) and a != b
assert b'&#xB;' in b
PY
# an existing output needs -f
run 2 "$VOXKIT" octree checksum "$T/world.xml" --base-dir "$T/base" --update -o "$T/new.xml"
err_has "exists"
run 0 "$VOXKIT" -f octree checksum "$T/world.xml" --base-dir "$T/base" --update -o "$T/new.xml"
# to stdout: the report goes to stderr
run 0 "$VOXKIT" octree checksum "$T/world.xml" --base-dir "$T/base" --update -o - --json
checks=$((checks + 1))
cmp -s "$T/out" "$T/new.xml" || fail "world.xml on stdout"
err_has '"changed": 3'

# in place: backup, no-op rerun, an existing backup is not replaced without --force-backup
cp "$T/world.xml" "$T/base/world.xml"
run 0 "$VOXKIT" octree checksum "$T/base/world.xml" --update --in-place
out_has "3 value(s) rewritten"
same "$T/base/world.xml.bak" "$T/orig.xml"
same "$T/base/world.xml" "$T/new.xml"
run 0 "$VOXKIT" octree checksum "$T/base/world.xml" --update --in-place
out_has "already agrees; nothing written"
cp "$T/orig.xml" "$T/base/world.xml"
echo "older backup" >"$T/base/world.xml.bak"
run 2 "$VOXKIT" octree checksum "$T/base/world.xml" --update --in-place
err_has "backup .*world.xml.bak exists; use --force-backup"
same "$T/base/world.xml" "$T/orig.xml"
checks=$((checks + 1))
grep -q "older backup" "$T/base/world.xml.bak" || fail "backup replaced"
run 0 "$VOXKIT" octree checksum "$T/base/world.xml" --update --in-place --force-backup
same "$T/base/world.xml.bak" "$T/orig.xml"
cp "$T/orig.xml" "$T/base/world.xml"
run 0 "$VOXKIT" octree checksum "$T/base/world.xml" --update --in-place --no-backup
same "$T/base/world.xml" "$T/new.xml"
same "$T/base/world.xml.bak" "$T/orig.xml"
rm "$T/base/world.xml" "$T/base/world.xml.bak"

# --- a .save with a wrong checksum, its base files inside it --------------------------
sed -i '0,/<int>0<\/int>/s//<int>-12345<\/int>/' "$T/new.xml"
python3 - "$T" <<'PY'
import sys, zipfile
t = sys.argv[1]
with zipfile.ZipFile(t + '/w.save', 'w') as z:
    z.writestr('world_meta.xml', '<WorldMeta/>', zipfile.ZIP_DEFLATED)
    z.write(t + '/new.xml', 'world.xml', zipfile.ZIP_DEFLATED)
    z.write(t + '/t11.dat', 'terrain.dat', zipfile.ZIP_DEFLATED)
    z.writestr('preview.png', b'\x89PNG fake', zipfile.ZIP_STORED)
    for i in range(3):
        z.write(t + '/base/Terrain%d.dat' % i, 'Terrain%d.dat' % i, zipfile.ZIP_STORED)
    z.writestr('mods/extra.bin', bytes(range(256)) * 4, zipfile.ZIP_DEFLATED)
PY
cp "$T/w.save" "$T/orig.save"
run 3 "$VOXKIT" octree checksum "$T/w.save"
out_has "against the base files in the save"
out_has "7 agree, 1 differ"
run 0 "$VOXKIT" octree checksum "$T/w.save" --update -n --json
same "$T/w.save" "$T/orig.save"
absent "$T/w.save.bak"
run 0 "$VOXKIT" octree checksum "$T/w.save" --update
out_has "1 value(s) rewritten"
same "$T/w.save.bak" "$T/orig.save"
run 0 "$VOXKIT" octree checksum "$T/w.save"
out_has "8 agree, 0 differ"
checks=$((checks + 1))
python3 - "$T" <<'PY' || fail "save members"
import re, sys, zipfile
t = sys.argv[1]
a = zipfile.ZipFile(t + '/orig.save'); b = zipfile.ZipFile(t + '/w.save')
assert [i.filename for i in a.infolist()] == [i.filename for i in b.infolist()]
for i in a.infolist():
    if i.filename == 'world.xml': continue
    j = b.getinfo(i.filename)
    assert a.read(i.filename) == b.read(i.filename), i.filename
    assert (i.compress_type, i.compress_size, i.CRC) == (j.compress_type, j.compress_size, j.CRC), i.filename
old = a.read('world.xml'); new = b.read('world.xml')
assert b'-12345' in old and b'-12345' not in new
strip = lambda s: re.sub(rb'<int>-?\d+</int>', b'', s)
assert strip(old) == strip(new)
PY
# a second change is refused while the backup is there; -o writes a new save instead
cp "$T/orig.save" "$T/w.save"
run 2 "$VOXKIT" octree checksum "$T/w.save" --update
err_has "exists"
same "$T/w.save" "$T/orig.save"
run 0 "$VOXKIT" octree checksum "$T/w.save" --update -o "$T/w2.save"
same "$T/w.save" "$T/orig.save"
run 0 "$VOXKIT" octree checksum "$T/w2.save"
run 2 "$VOXKIT" octree checksum "$T/w.save" --update -o -
err_has "cannot be written to stdout"

# a save from another writer (data descriptors), its base files in a folder
cp "$FIX/python_streamed.save" "$T/py.save"
mkdir "$T/pybase"
run 0 "$VOXKIT" octree base "$T/b0.dat" -o "$T/pybase/Terrain0.dat"
run 3 "$VOXKIT" octree checksum "$T/py.save" --base-dir "$T/pybase"
out_has "            7"
run 0 "$VOXKIT" octree checksum "$T/py.save" --base-dir "$T/pybase" --update --no-backup
absent "$T/py.save.bak"
run 0 "$VOXKIT" octree checksum "$T/py.save" --base-dir "$T/pybase" --json
checks=$((checks + 1))
python3 - "$T/py.save" "$FIX/python_streamed.save" <<'PY' || fail "python save"
import sys, zipfile
a = zipfile.ZipFile(sys.argv[2]); b = zipfile.ZipFile(sys.argv[1])
for n in ('world_meta.xml', 'terrain.dat', 'preview.png'):
    assert a.read(n) == b.read(n), n
assert b'<int>7</int>' not in b.read('world.xml')
PY

# --- octree base ---------------------------------------------------------------------
# round trips: our own file, a file zlib wrote at level 9 with a name in its header
run 0 "$VOXKIT" octree base "$T/base/Terrain0.dat" -o "$T/r0.dat"
out_has "the same bytes as the input"
same "$T/r0.dat" "$T/base/Terrain0.dat"
python3 - "$T" <<'PY'
import gzip, sys, zlib
t = sys.argv[1]
raw = gzip.decompress(open(t + '/base/Terrain1.dat', 'rb').read())
with open(t + '/named.dat', 'wb') as f:
    with gzip.GzipFile('Terrain1.dat', 'wb', 9, f, mtime=1700000000) as g:
        g.write(raw)
open(t + '/n1.raw', 'wb').write(raw[4:-4])
bad = bytearray(raw); bad[-4:] = b'\x01\x02\x03\x04'
open(t + '/bad.dat', 'wb').write(gzip.compress(bytes(bad), 9, mtime=0))
PY
run 0 "$VOXKIT" octree base "$T/named.dat" -o "$T/rn.dat" --json
same "$T/rn.dat" "$T/named.dat"
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["identical"] and j["style_matched"] and j["level"]==9 and j["from"]=="base", j' "$T/out" || fail "base JSON"
# a raw node stream, and the output style of another file
run 0 "$VOXKIT" octree base "$T/n1.raw" --from nodes --max-depth 10 -o "$T/n1.dat"
same "$T/n1.dat" "$T/base/Terrain1.dat"
run 0 "$VOXKIT" octree base "$T/n1.raw" --from nodes --max-depth 10 --like "$T/named.dat" -o "$T/n1n.dat"
same "$T/n1n.dat" "$T/named.dat"
# to a pipe
run 0 "$VOXKIT" octree base "$T/n1.raw" --from nodes --max-depth 10 -o -
checks=$((checks + 1))
cmp -s "$T/out" "$T/base/Terrain1.dat" || fail "base to stdout"
# a damaged base file: reported, refused by an update, fixed by octree base
run 1 "$VOXKIT" octree checksum "$T/bad.dat"
out_has "MISMATCH"
cp "$T/bad.dat" "$T/base/Terrain1.dat"
run 1 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T/base"
out_has "DAMAGED"
err_has "own checksum does not match"
run 1 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T/base" --update -o "$T/x.xml"
err_has "Terrain1.dat: base file's own checksum does not match its nodes"
absent "$T/x.xml"
run 0 "$VOXKIT" -f octree base "$T/bad.dat" -o "$T/base/Terrain1.dat"
out_has "corrected"
run 0 "$VOXKIT" octree checksum "$T/base/Terrain1.dat"
out_has "ok"

# --- refusals ------------------------------------------------------------------------
run 2 "$VOXKIT" octree checksum "$FIX/small.save"
err_has "holds no Terrain{i}.dat base files.*--base-dir DIR"
run 2 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T/nowhere"
err_has "is not a directory"
run 2 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T"
err_has "no Terrain{i}.dat base files in"
run 2 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T/base" -n
err_has "go with --update"
run 2 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T/base" --check --update
run 2 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T/base" --update --in-place -o "$T/y.xml"
run 2 "$VOXKIT" octree checksum "$T/new.xml" "$T/world.xml" --check
printf '<W><TerrainChunkChecksums><int>1</int><int>2</int></TerrainChunkChecksums></W>' >"$T/two.xml"
run 1 "$VOXKIT" octree checksum "$T/two.xml" --base-dir "$T/base"
err_has "has 2 entries, not one per base file"
printf '<W><TerrainChunkChecksums><int>x</int></TerrainChunkChecksums></W>' >"$T/nan.xml"
run 1 "$VOXKIT" octree checksum "$T/nan.xml" --base-dir "$T/base"
err_has "does not hold an integer"
mkdir "$T/junk"
echo "not gzip" >"$T/junk/Terrain0.dat"
run 1 "$VOXKIT" octree checksum "$T/new.xml" --base-dir "$T/junk"
err_has "Terrain0.dat: offset 0: not a gzip stream"
run 2 "$VOXKIT" octree base "$T/b0.dat" --max-depth 10 -o "$T/z.dat"
err_has "goes with --from nodes"
run 2 "$VOXKIT" octree base "$T/n1.raw" --from nodes -o "$T/z.dat"
err_has "a raw node stream needs --max-depth, 1..24"
run 1 "$VOXKIT" octree base "$T/n1.raw" -o "$T/z.dat"
absent "$T/z.dat"
run 2 "$VOXKIT" octree base "$T/b0.dat" -o "$T/n1.dat"
err_has "exists"
run 2 "$VOXKIT" octree base "$T/b0.dat" --from wat -o "$T/z.dat"
no_temp_left "$T"

finish
