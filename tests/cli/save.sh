# CLI: voxkit save list|extract|replace|rooms on the committed fixtures: backups, dry runs,
# untouched members byte for byte, refused overwrites, errors with offsets.
source "$(dirname "$0")/lib.sh"
D=$VOXKIT_SOURCE_DIR/test_data/stationeers
cp "$D/small.save" "$T/w.save"

run 0 "$VOXKIT" save list "$T/w.save"
out_has "terrain.dat	deflate	11"
out_has "preview.png	stored"
run 0 "$VOXKIT" save list "$T/w.save" --json
out_has '"data_descriptor": true'
run 0 "$VOXKIT" save extract "$T/w.save" terrain.dat -o "$T/terrain.dat"
printf '\x0c\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00' >"$T/leaf.dat"
same "$T/terrain.dat" "$T/leaf.dat"
run 0 "$VOXKIT" save extract "$T/w.save" world.xml -o "$T/world.xml"
run 1 "$VOXKIT" save extract "$T/w.save" nope.xml -o "$T/nope"
err_has "no member named nope.xml"
absent "$T/nope"

# dry run: nothing written, no backup
printf 'new terrain' >"$T/new.dat"
run 0 "$VOXKIT" save replace "$T/w.save" terrain.dat="$T/new.dat" --dry-run --json
out_has '"written": false'
out_has '"new_size": 11'
same "$T/w.save" "$D/small.save"
absent "$T/w.save.bak"

# a real replacement: backup, new contents, every other member unchanged
run 0 "$VOXKIT" save replace "$T/w.save" terrain.dat="$T/new.dat"
same "$T/w.save.bak" "$D/small.save"
run 0 "$VOXKIT" save extract "$T/w.save" terrain.dat -o "$T/back.dat"
same "$T/back.dat" "$T/new.dat"
# every other member: same method, sizes and CRC-32 (the unit tests compare raw bytes)
"$VOXKIT" save list "$T/w.save.bak" | grep -v '^terrain.dat' >"$T/list.bak"
"$VOXKIT" save list "$T/w.save" | grep -v '^terrain.dat' >"$T/list.new"
same "$T/list.bak" "$T/list.new"
python3 -c 'import sys, zipfile; sys.exit(zipfile.ZipFile(sys.argv[1]).testzip() is not None)' "$T/w.save" 2>/dev/null ||
  fail "python zipfile rejects the rewritten save"
checks=$((checks + 1))
no_temp_left "$T"

# an existing backup is kept unless --force-backup
cp "$T/w.save" "$T/before"
run 2 "$VOXKIT" save replace "$T/w.save" terrain.dat="$T/leaf.dat"
err_has "w.save.bak exists"
same "$T/w.save" "$T/before"
run 0 "$VOXKIT" save replace "$T/w.save" terrain.dat="$T/leaf.dat" --force-backup
same "$T/w.save.bak" "$T/before"
run 0 "$VOXKIT" save replace "$T/w.save" terrain.dat="$T/new.dat" --no-backup
same "$T/w.save.bak" "$T/before"

# usage and data errors
run 2 "$VOXKIT" save replace "$T/w.save" terrain.dat
err_has "expected MEMBER=FILE"
run 2 "$VOXKIT" save replace "$T/w.save" Terrain0.dat="$T/new.dat" --no-backup
err_has "no member named Terrain0.dat"
head -c 200 "$D/small.save" >"$T/cut.save"
run 1 "$VOXKIT" save list "$T/cut.save"
err_has "cut.save: offset"

# rooms from a save and from a plain world.xml with forbidden references
run 0 "$VOXKIT" save rooms "$D/world_small.xml"
out_has "room 1	3 cells	(-105, 397, 74) .. (-96, 406, 83)"
out_has "all rooms	(-105, 298, -6) .. (1504, 406, 83)"
run 0 "$VOXKIT" save rooms "$D/world_small.xml" --margin 0 --json
out_has '"checksums": 64'
run 0 "$VOXKIT" save rooms "$T/w.save"
out_has "all rooms"
printf '<W><Rooms><Room><Grids><Grid><x>1</x></Grid>' >"$T/bad.xml"
run 1 "$VOXKIT" save rooms "$T/bad.xml"
err_has "bad.xml: offset 23: <Grid> lacks <y>"
# voxkit info knows saves and world.xml
run 0 "$VOXKIT" info "$D/small.save"
out_has "Stationeers save (ZIP, 8 members)"
out_has "terrain.dat      11 bytes, maxDepth 12"
run 0 "$VOXKIT" info --json "$D/world_small.xml"
out_has '"format": "world-xml"'
out_has '"checksums": 64'
run 1 "$VOXKIT" info "$T/cut.save"
err_has "cut.save: offset"
finish
