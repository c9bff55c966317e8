# CLI: voxkit edit apply|replay|diff on zones, Unity assets and raw grids: reports, idempotence,
# resets, network arrival order, invalid edits, --at, --mesh, -j, nothing written on failure.
source "$(dirname "$0")/lib.sh"

# A flat zone: 64 x 22 x 64 cells at 0.5 m, the ground at grid y = 18, edit box 4..60 x 2..20.
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x10' * (33 * 33))" >"$T/flat.raw"
run 0 "$VOXKIT" bake "$T/flat.raw" -o "$T/z.vxz" --terrain-size 32,20,32 --voxel-size 0.5
pack() { "$VOXKIT" edit pack "$@" | cut -d' ' -f1; }
{
  echo "# a dig, an add beside it, a paint over both"
  pack --pos 32,18,32 --radius 4 --op dig
  pack --pos 20,19,20 --radius 3 --op add --layer 2
  "$VOXKIT" edit pack --pos 32,18,32 --radius 5 --op paint --layer 7 | cut -d' ' -f2
} >"$T/log.txt"

run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.txt" -o "$T/a.vxz" --json
checks=$((checks + 1))
python3 - "$T/out" <<'EOF' || fail "apply report"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["log_format"] == "text" and j["edits"] == 3 and j["changed"] == 3, j
assert j["samples_changed"] > 100 and j["paint_changed"] > 100, j
assert j["changed_box"]["min"][0] <= 17 and j["changed_box"]["max"][0] >= 35, j
assert len(j["dirty_chunks"]) >= 2 and j["output"].endswith("a.vxz"), j
EOF
run 0 "$VOXKIT" info "$T/a.vxz"
# the text report
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.txt" -n
out_has "edits 3: 3 changed something, 0 changed nothing"
out_has "chunks to remesh"

# idempotent: the same log again changes nothing
run 0 "$VOXKIT" edit apply "$T/a.vxz" "$T/log.txt" -o "$T/aa.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["changed"]==0 and j["unchanged"]==3 and j["samples_changed"]==0, j' "$T/out" || fail "idempotent"
run 0 "$VOXKIT" edit diff "$T/a.vxz" "$T/aa.vxz"
out_has "same grid"

# diff: exit 3 when the zones differ, with the samples and chunks
run 3 "$VOXKIT" edit diff "$T/z.vxz" "$T/a.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["differ"] and j["grid_samples"]>100 and j["chunks"], j' "$T/out" || fail "diff JSON"

# a reset inside a log: replay starts again from the input, so only the edits after it count
{ cat "$T/log.txt"; echo "reset"; pack --pos 40,18,40 --radius 2 --op dig; } >"$T/reset.txt"
pack --pos 40,18,40 --radius 2 --op dig >"$T/after.txt"
run 0 "$VOXKIT" edit replay "$T/z.vxz" "$T/reset.txt" -o "$T/r1.vxz"
run 0 "$VOXKIT" edit replay "$T/z.vxz" "$T/after.txt" -o "$T/r2.vxz"
run 0 "$VOXKIT" edit diff "$T/r1.vxz" "$T/r2.vxz"

# the int64 form (the package's long[]) gives the same zone as the text form
python3 - "$T/log.txt" "$T/log.i64" <<'EOF'
import struct, sys
vals = []
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        vals.append(int(line, 16) if line.startswith("0x") else int(line) & (2**64 - 1))
open(sys.argv[2], "wb").write(b"".join(struct.pack("<Q", v) for v in vals))
EOF
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.i64" -o "$T/b.vxz"
same "$T/a.vxz" "$T/b.vxz"
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.i64" -o "$T/b2.vxz" --log-format int64 -f
same "$T/a.vxz" "$T/b2.vxz"

# the same bytes for any thread count
run 0 "$VOXKIT" -j 1 edit apply "$T/z.vxz" "$T/log.txt" -o "$T/j1.vxz"
run 0 "$VOXKIT" -j 2 edit apply "$T/z.vxz" "$T/log.txt" -o "$T/j2.vxz"
same "$T/j1.vxz" "$T/j2.vxz"
same "$T/a.vxz" "$T/j1.vxz"

# network records in arrival order (EDIT SEQ EPOCH): shuffled, with a duplicate
python3 - "$T/log.txt" "$T/net.txt" <<'EOF'
import sys
edits = [l.split("#")[0].strip() for l in open(sys.argv[1])]
edits = [e for e in edits if e]
order = [2, 0, 0, 1]
with open(sys.argv[2], "w") as f:
    for i in order:
        f.write(f"{edits[i]} {i} 0\n")
EOF
run 0 "$VOXKIT" edit replay "$T/z.vxz" "$T/net.txt" -o "$T/n.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); n=j["network_replay"]; assert j["network"] and n["applied"]==3 and n["duplicates"]==1 and n["first_missing"] is None, j' "$T/out" || fail "network report"
run 0 "$VOXKIT" edit diff "$T/a.vxz" "$T/n.vxz"
# a gap that never fills is reported with the first missing sequence number
printf '%s 0 0\n%s 2 0\n' "$(sed -n 2p "$T/log.txt")" "$(sed -n 4p "$T/log.txt")" >"$T/gap.txt"
run 0 "$VOXKIT" edit replay "$T/z.vxz" "$T/gap.txt" -n
out_has "gap: sequence 1 never arrived"

# an invalid edit stops the run with its index, and nothing is written
{ cat "$T/log.txt"; echo "0x0601000000000000"; } >"$T/bad.txt"
run 1 "$VOXKIT" edit apply "$T/z.vxz" "$T/bad.txt" -o "$T/bad.vxz"
err_has "edit 3 of"
err_has "op 6"
absent "$T/bad.vxz"
no_temp_left "$T"
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/bad.txt" -o "$T/skip.vxz" --skip-invalid --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert len(j["invalid"])==1 and j["invalid"][0]["index"]==3, j' "$T/out" || fail "skip invalid"
same "$T/a.vxz" "$T/skip.vxz"
# a layer too large for paint
pack --pos 1,1,1 --radius 1 --op smooth --layer 20 >"$T/smooth.txt"
run 1 "$VOXKIT" edit apply "$T/z.vxz" "$T/smooth.txt" -o "$T/s.vxz" --target 0.6
err_has "0.7"

# --at stops early
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.txt" -n --at 1 --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["edits"]==1 and j["stopped_at"]==1, j' "$T/out" || fail "--at"

# --mesh: the dirty chunks remeshed
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.txt" -o "$T/m.vxz" --mesh "$T/dirty.glb" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["mesh"]["chunks"]>0 and j["mesh"]["triangles"]>0, j' "$T/out" || fail "--mesh report"
checks=$((checks + 1))
head -c 4 "$T/dirty.glb" | grep -q glTF || fail "--mesh writes a glb"

# outputs: an existing -o needs -f; --in-place keeps a backup
run 2 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.txt" -o "$T/a.vxz"
cp "$T/z.vxz" "$T/ip.vxz"
run 0 "$VOXKIT" edit apply "$T/ip.vxz" "$T/log.txt" --in-place
same "$T/ip.vxz.bak" "$T/z.vxz"
same "$T/ip.vxz" "$T/a.vxz"
run 2 "$VOXKIT" edit apply "$T/z.vxz" "$T/log.txt"
err_has "give -o"

# a raw grid with its paint: same kind out
python3 -c "
import sys
n = 17
g = bytearray()
for z in range(n):
  for y in range(n):
    for x in range(n):
      g.append(0 if y < 8 else 255)
sys.stdout.buffer.write(bytes(g))" >"$T/grid.raw"
pack --pos 8,8,8 --radius 3 --op dig >"$T/raw.txt"
pack --pos 8,7,8 --radius 2 --op paint --layer 5 >>"$T/raw.txt"
run 0 "$VOXKIT" edit apply "$T/grid.raw" "$T/raw.txt" --cells 16,16,16 -o "$T/grid2.raw" --paint-out "$T/paint.raw" --json
checks=$((checks + 1))
python3 - "$T/grid2.raw" "$T/paint.raw" <<'EOF' || fail "raw grid result"
import sys
g = open(sys.argv[1], "rb").read(); p = open(sys.argv[2], "rb").read()
assert len(g) == 17**3 and len(p) == 17**3
i = 8 + 17 * (7 + 17 * 8)
assert g[i] > 128, g[i]          # dug out
assert p[i] == 5, p[i]           # painted
assert sum(1 for b in p if b) > 10
EOF
run 1 "$VOXKIT" edit apply "$T/grid.raw" "$T/raw.txt" --cells 16,16,15 -o "$T/g3.raw"
# the runtime chunk blob: only the dirty chunks re-encoded, equal to packing the result
run 0 "$VOXKIT" pack "$T/grid.raw" --cells 16,16,16 --chunk-cells 4 -o "$T/grid.vxcb"
run 0 "$VOXKIT" edit apply "$T/grid.raw" "$T/raw.txt" --cells 16,16,16 -o "$T/grid4.raw" --blob "$T/grid.vxcb" --blob-out "$T/grid4.vxcb" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); b=j["blob"]; assert 0 < b["reencoded"] < b["chunks"], j' "$T/out" || fail "blob report"
run 0 "$VOXKIT" pack "$T/grid4.raw" --cells 16,16,16 --chunk-cells 4 -o "$T/want.vxcb"
same "$T/grid4.vxcb" "$T/want.vxcb"
head -c 729 "$T/grid.raw" >"$T/small.raw"
run 0 "$VOXKIT" pack "$T/small.raw" --cells 8,8,8 -o "$T/small.vxcb"
run 1 "$VOXKIT" edit apply "$T/grid.raw" "$T/raw.txt" --cells 16,16,16 -o "$T/g5.raw" --blob "$T/small.vxcb" --blob-out "$T/g5.vxcb"
err_has "is not of this grid"
absent "$T/g5.raw"

# the package's Unity asset: edited and written back as an asset
{ pack --pos 2,2,2 --radius 1 --op dig; pack --pos 2,1,2 --radius 1 --op paint --layer 3; } >"$T/q.txt"
run 0 "$VOXKIT" edit apply "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset" "$T/q.txt" -o "$T/q.asset" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["kind"]=="dig-zone Unity asset" and j["samples_changed"]>0, j' "$T/out" || fail "asset apply"
checks=$((checks + 1))
grep -q "gridRle:" "$T/q.asset" || fail "the asset keeps its fields"
run 3 "$VOXKIT" edit diff "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset" "$T/q.asset"

# spawns are kept in the zone and a later dig removes them
{ pack --pos 32,18,32 --radius 1 --op tree --layer 1; pack --pos 10,18,10 --radius 1 --op detail --layer 2; } >"$T/spawn.txt"
run 0 "$VOXKIT" edit apply "$T/z.vxz" "$T/spawn.txt" -o "$T/sp.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["spawns"]==2, j' "$T/out" || fail "spawns"
pack --pos 32,19,32 --radius 3 --op dig >"$T/dig.txt"
run 0 "$VOXKIT" edit apply "$T/sp.vxz" "$T/dig.txt" -o "$T/sp2.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["spawns"]==1, j' "$T/out" || fail "dig removes a spawn"
# replay clears them first
run 0 "$VOXKIT" edit replay "$T/sp.vxz" "$T/dig.txt" -n --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["spawns"]==0, j' "$T/out" || fail "replay clears spawns"

# the example logs on the demo grid, in every form: the same result
E="$VOXKIT_SOURCE_DIR/test_data/edits"
G="$VOXKIT_SOURCE_DIR/test_data/demo_grid.raw"
for f in ordered.txt ordered.json ordered.vxlog; do
  run 0 "$VOXKIT" edit replay "$G" "$E/$f" --cells 64,40,64 -o "$T/demo_$f.raw"
done
same "$T/demo_ordered.txt.raw" "$T/demo_ordered.json.raw"
same "$T/demo_ordered.txt.raw" "$T/demo_ordered.vxlog.raw"
for f in network.txt network.json network.vxlog; do
  run 0 "$VOXKIT" edit replay "$G" "$E/$f" --cells 64,40,64 -o "$T/net_$f.raw" --json
done
checks=$((checks + 1))
python3 -c 'import json,sys; n=json.load(open(sys.argv[1]))["network_replay"]; assert n["epoch"]==1 and n["count"]==3 and n["duplicates"]==1 and n["stale"]==1 and n["first_missing"] is None, n' "$T/out" || fail "network example"
same "$T/net_network.txt.raw" "$T/net_network.vxlog.raw"
# a log recorded for another grid is refused
run 1 "$VOXKIT" edit apply "$T/z.vxz" "$E/ordered.vxlog" -o "$T/other.vxz"
err_has "recorded for a grid of 64x40x64"
absent "$T/other.vxz"

# bad logs
printf '\x01\x02\x03' >"$T/short.i64"
run 1 "$VOXKIT" edit apply "$T/z.vxz" "$T/short.i64" -o "$T/x.vxz" --log-format int64
absent "$T/x.vxz"
printf 'zap\n' >"$T/junk.txt"
run 1 "$VOXKIT" edit apply "$T/z.vxz" "$T/junk.txt" -o "$T/x.vxz" --log-format text
err_has "line 1"
finish
