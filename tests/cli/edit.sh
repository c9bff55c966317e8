# CLI: voxkit edit pack|unpack: golden edits, signed decimal, world metres, validity, refusals.
source "$(dirname "$0")/lib.sh"

run 0 "$VOXKIT" edit pack --pos 12.25,3.5,100.0625 --radius 2.5 --op add
out_has "^0x01140641003800C4 77693969818452164$"
run 0 "$VOXKIT" edit pack --pos 20,10,20 --radius 2 --op paint --layer 17
out_has "0x8B10014000A00140 -8426233528410177216"
run 0 "$VOXKIT" edit pack --pos 8,8.3,8 --radius 3 --op dig --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["hex"]=="0x0018008000850080" and j["fields"]["y"]==133 and j["valid"]' "$T/out" || fail "pack JSON"
# clamps warn
run 0 "$VOXKIT" edit pack --pos 0.03125,0.09375,-1 --radius 0.01 --op dig
out_has "0x0001000000020000"
err_has "clamped"
# validity by target
run 2 "$VOXKIT" edit pack --pos 1,1,1 --radius 1 --op smooth --layer 16 --target 0.6
err_has "need the 0.7 runtimes"
run 2 "$VOXKIT" edit pack --pos 1,1,1 --radius 1 --op paint --layer 18
err_has "over 17"
run 2 "$VOXKIT" edit pack --pos 1,1,1 --radius 1 --op paint --layer 6 --target 0.3
run 2 "$VOXKIT" edit pack --pos 1,1,1 --radius 1 --op melt
err_has "unknown op 'melt'"
run 2 "$VOXKIT" edit pack --pos 3e9,1,1 --radius 1 --op dig
err_has "too far outside the grid"
# world metres through a zone's placement
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x10' * (33 * 33))" >"$T/flat.raw"
run 0 "$VOXKIT" bake "$T/flat.raw" -o "$T/z.vxz" --terrain-size 32,20,32 --voxel-size 0.5
run 0 "$VOXKIT" info "$T/z.vxz" --json
read -r ox oy oz < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); o=j["details"]["origin"]; print(*o)' "$T/out")
wx=$(python3 -c "print($ox + 2.5)"); wy=$(python3 -c "print($oy + 1)"); wz=$(python3 -c "print($oz + 4)")
run 0 "$VOXKIT" edit pack --pos "$wx,$wy,$wz" --radius 1 --op dig --world --zone "$T/z.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert (j["x"], j["y"], j["z"], j["radius"]) == (5, 2, 8, 2), j' "$T/out" || fail "world metres"
run 2 "$VOXKIT" edit pack --pos 1,1,1 --radius 1 --op dig --world
err_has "needs --zone"
# unpack: hex and decimal, several at once, JSON
run 0 "$VOXKIT" edit unpack 0x140C01E0007800C4 -8426233528410177216
out_has "tree layer 2"
out_has "spawn yaw 70.3125"
out_has "paint layer 17"
run 0 "$VOXKIT" edit unpack 77693969818452164 --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j[0]["hex"]=="0x01140641003800C4" and j[0]["op"]=="add" and j[0]["z"]==100.0625' "$T/out" || fail "unpack JSON"
# an invalid edit is shown, then exit 1
run 1 "$VOXKIT" edit unpack 0x0601000000000000 0x01140641003800C4
out_has "INVALID: op 6 is no edit"
run 1 "$VOXKIT" edit unpack 0x8B10014000A00140 --target 0.3
# a position past a zone's grid
run 1 "$VOXKIT" edit unpack 0x01140641003800C4 --zone "$T/z.vxz"
out_has "past the grid"
run 2 "$VOXKIT" edit unpack nonsense
err_has "is not an edit"
run 2 "$VOXKIT" edit
finish
