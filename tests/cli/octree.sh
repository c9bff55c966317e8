# CLI: voxkit octree info|reset|checksum|diff|merge|synth on bare terrain.dat and base files.
source "$(dirname "$0")/lib.sh"

run 0 "$VOXKIT" octree synth -o "$T/s.dat" --max-depth 10 --tunnels 8 --veins 6 --seed 3 --world-xml "$T/w.xml"
err_has "octree synth:"
run 0 "$VOXKIT" octree synth -o "$T/s2.dat" --max-depth 10 --tunnels 8 --veins 6 --seed 3
same "$T/s.dat" "$T/s2.dat"
checks=$((checks + 1)); grep -q '&#xB;' "$T/w.xml" || fail "world.xml lacks the forbidden reference"

# info: text, JSON, map
run 0 "$VOXKIT" octree info "$T/s.dat"
out_has "maxDepth 10, 1024^3 voxels"
out_has "modified regions"
run 0 "$VOXKIT" octree info "$T/s.dat" --json --map "$T/map.png" --map-cell 4
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["world_size"]==1024 and j["veins"]["count"]==6 and j["nodes"]["modified_leaves"]>0' "$T/out" || fail "info JSON"
checks=$((checks + 1)); [[ $(head -c 4 "$T/map.png" | od -An -tx1 | tr -d ' ') == 89504e47 ]] || fail "map is not a PNG"
run 2 "$VOXKIT" octree info "$T/s.dat" --block 3
err_has "power of two"

# A hand-made tree (maxDepth 10 would be big; the test uses --any-depth with maxDepth 1).
# Child 5 sits at world (0,0,0).
printf '\x01\x00\x00\x00\x02\x03\x10\x01\x01\x00\x00\x03\x20\x02\x03\x30\x01\x01\x05\x06\x03\x40\x02\x03\x50\x01\x03\x60\x02\x00\x00\x00\x00' >"$T/h.dat"
printf '\x01\x00\x00\x00\x02\x01\x00\x00\x01\x00\x00\x01\x00\x00\x01\x00\x00\x01\x05\x06\x03\x40\x02\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00' >"$T/h_want.dat"
run 0 "$VOXKIT" octree reset "$T/h.dat" --any-depth --compat --keep-box 0,0,0,0,0,0 -o "$T/h_out.dat"
same "$T/h_out.dat" "$T/h_want.dat"
out_has "modified leaves: 5 reset, 1 kept"
run 1 "$VOXKIT" octree reset "$T/h.dat" --compat --keep-box 0,0,0,0,0,0 -o "$T/h_bad.dat"
err_has "h.dat: offset 0: maxDepth is not one the game uses"
absent "$T/h_bad.dat"

# reset: to stdout, dry run, in place with a backup, JSON report
cp "$T/s.dat" "$T/orig.dat"
run 0 "$VOXKIT" octree reset "$T/s.dat" --keep-sphere 0,100,0,200 -o "$T/r.dat"
out_has "bytes: "
"$VOXKIT" -q octree reset "$T/s.dat" --keep-sphere 0,100,0,200 -o - >"$T/r_stdout.dat"
same "$T/r.dat" "$T/r_stdout.dat"
run 0 "$VOXKIT" octree reset "$T/s.dat" --keep-radius 0,0,100 --dry-run --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["dry_run"] and j["bytes"]["before"]>0 and j["output"] is None' "$T/out" || fail "reset JSON"
same "$T/s.dat" "$T/orig.dat"
run 0 "$VOXKIT" octree reset "$T/s.dat" --keep-sphere 0,100,0,200 --in-place
same "$T/s.dat.bak" "$T/orig.dat"
same "$T/s.dat" "$T/r.dat"
run 2 "$VOXKIT" octree reset "$T/s.dat" --keep-sphere 0,100,0,200 --in-place
err_has "exists"
run 2 "$VOXKIT" octree reset "$T/orig.dat" -o "$T/x.dat"
err_has "nothing to keep or drop"
run 2 "$VOXKIT" octree reset "$T/orig.dat" --keep-sphere 0,0,0,5 --compat -o "$T/x.dat"
err_has "compat"
run 2 "$VOXKIT" octree reset "$T/orig.dat" --keep-box 1,2,3 -o "$T/x.dat"
err_has "needs 6"
run 2 "$VOXKIT" octree reset "$T/orig.dat" --keep-box 0,0,0,1,1,1
err_has "give -o OUT"
absent "$T/x.dat"

# diff / merge
run 3 "$VOXKIT" octree diff "$T/orig.dat" "$T/r.dat"
out_has "voxels differ"
run 0 "$VOXKIT" octree diff "$T/orig.dat" "$T/orig.dat" --json
out_has '"same": true'
run 0 "$VOXKIT" octree merge "$T/r.dat" "$T/orig.dat" -o "$T/m.dat"
same "$T/m.dat" "$T/orig.dat"
run 0 "$VOXKIT" octree synth -o "$T/d12.dat" --max-depth 12 --tunnels 1 --pads 0 --veins 0
run 1 "$VOXKIT" octree diff "$T/orig.dat" "$T/d12.dat"
err_has "different world sizes"

# checksum: terrain.dat node stream, and base files written by Python's gzip
run 0 "$VOXKIT" octree checksum "$T/h_want.dat" --any-depth
out_has "node stream"
python3 - "$T" <<'PY'
import gzip, struct, sys
t = sys.argv[1]
raw = struct.pack('<i', 10) + b'\x01\x00\x00' + struct.pack('<i', 16974593)
open(t + '/Terrain0.dat', 'wb').write(gzip.compress(raw))
open(t + '/Terrain1.dat', 'wb').write(gzip.compress(raw[:-4] + struct.pack('<i', 7)))
PY
run 0 "$VOXKIT" octree checksum "$T/Terrain0.dat"
out_has "16974593 (stored 16974593, ok)"
run 1 "$VOXKIT" octree checksum "$T/Terrain0.dat" "$T/Terrain1.dat" --json
out_has '"ok": false'
err_has "does not match"
# the generic info verb knows both formats
run 0 "$VOXKIT" info "$T/Terrain0.dat"
out_has "Terrain{i}.dat base terrain"
run 0 "$VOXKIT" info "$T/orig.dat" --json
out_has '"format": "terrain-dat"'
printf '\x1f\x8b\x08\x00' >"$T/Terrain2.dat"
run 1 "$VOXKIT" octree checksum "$T/Terrain2.dat"
err_has "Terrain2.dat: offset"

# bad data: offsets in messages, no output left behind
printf '\x0a\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00' >"$T/bad.dat"
run 1 "$VOXKIT" octree reset "$T/bad.dat" --keep-box 0,0,0,1,1,1 -o "$T/bad_out.dat"
err_has "bad.dat: offset 4: node flags have unknown bits"
absent "$T/bad_out.dat"
run 1 "$VOXKIT" octree info "$T/missing.dat"
err_has "missing.dat"
no_temp_left "$T"
run 2 "$VOXKIT" octree
# synth --save: a whole .save whose terrain.dat is the synthetic delta
run 0 "$VOXKIT" octree synth -o "$T/sv.dat" --save "$T/sv.save" --max-depth 10 --tunnels 8 --veins 6 --seed 3
run 0 "$VOXKIT" save list "$T/sv.save"
out_has "world.xml"
out_has "mods/SynthMod/state.xml"
out_has "preview.png"
run 0 "$VOXKIT" save extract "$T/sv.save" terrain.dat -o "$T/sv2.dat"
same "$T/sv.dat" "$T/sv2.dat"
run 0 "$VOXKIT" octree info "$T/sv.save"
out_has "save, terrain.dat"
run 0 "$VOXKIT" octree synth --save "$T/server.save" --server --max-depth 10 --tunnels 2 --world-xml-mb 0.5
run 0 "$VOXKIT" save list "$T/server.save" --json
grep -q preview.png "$T/out" && fail "a server save has no preview.png"
run 2 "$VOXKIT" octree synth --max-depth 10
err_has "give -o"
finish
