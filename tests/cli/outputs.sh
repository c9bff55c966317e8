# CLI: the output, report and backup policies shared by every verb (docs/outputs.md):
# reports beside binary stdout, devices and FIFOs, symbolic links, modes, backups, -f,
# multi-output verbs, stale temporary files, exit codes of comparing verbs.
source "$(dirname "$0")/lib.sh"

U="$VOXKIT_SOURCE_DIR/test_data/unity"
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x10' * (33 * 33))" >"$T/flat.raw"
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x20' * (33 * 33))" >"$T/high.raw"
BAKE=(--terrain-size 32,20,32 --voxel-size 1)
REBAKE=(--terrain-size 32,20,32)
run 0 "$VOXKIT" bake "$T/flat.raw" -o "$T/z.vxz" "${BAKE[@]}"
run 0 "$VOXKIT" octree synth -o "$T/t.dat" --max-depth 12 --tunnels 8 --pads 2 --veins 4 --seed 3 --world-xml "$T/world.xml"
run 0 "$VOXKIT" octree synth -o "$T/s.dat" --max-depth 12 --tunnels 8 --pads 2 --veins 4 --seed 3 --save "$T/w.save"

# is_json FILE: the file holds one JSON document
is_json() { checks=$((checks + 1)); python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null || fail "$1 is not JSON"; }

# --- one report policy: with the output on stdout, the report goes to stderr ------------
# each: the verb's output through -o FILE equals its stdout with -o - --json, and the JSON is
# all of stderr (-q silences the diagnostics, never the JSON).
report_check() {  # NAME CMD... (the command without -o)
  local name=$1; shift
  run 0 "$@" -o "$T/$name.file"
  run 0 "$1" -q "${@:2}" -o - --json
  same "$T/out" "$T/$name.file"
  is_json "$T/err"
  # with a file output the JSON is all of stdout
  rm -f "$T/$name.file"
  run 0 "$@" -o "$T/$name.file" --json
  is_json "$T/out"
}
report_check reset "$VOXKIT" octree reset "$T/t.dat" --keep-sphere 0,100,0,200
report_check rebake "$VOXKIT" rebake "$T/z.vxz" "$T/high.raw" "${REBAKE[@]}"
report_check bake "$VOXKIT" bake "$T/flat.raw" "${BAKE[@]}"
report_check export "$VOXKIT" octree export "$T/t.dat" --box 0,0,0,15,15,15
report_check unity "$VOXKIT" zone export-unity "$T/z.vxz" "$U/quarry.asset"
report_check mesh "$VOXKIT" mesh "$T/z.vxz" --to ply
# a text report moves to stderr too
run 0 "$VOXKIT" octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o -
same "$T/out" "$T/reset.file"
err_has "modified leaves:"

# --- devices and FIFOs: written straight through, no -f needed -------------------------
run 0 "$VOXKIT" octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o /dev/null
[[ -c /dev/null ]] || fail "/dev/null is no longer a character device"
mkfifo "$T/fifo"
timeout 30 cat "$T/fifo" >"$T/from_fifo" &
reader=$!
run 0 "$VOXKIT" octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o "$T/fifo"
wait $reader
same "$T/from_fifo" "$T/reset.file"
checks=$((checks + 1)); [[ -p $T/fifo ]] || fail "the FIFO was replaced"
# a full device: a clear I/O error
run 1 "$VOXKIT" octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o /dev/full
err_has "No space left"

# --- symbolic links: the target is replaced, never the link ------------------------------
mkdir "$T/real"
echo old >"$T/real/target.dat"
ln -s real/target.dat "$T/link.dat"
run 2 "$VOXKIT" octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o "$T/link.dat"
err_has "exists"
run 0 "$VOXKIT" -f octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o "$T/link.dat"
checks=$((checks + 1)); [[ -L $T/link.dat ]] || fail "the link was replaced by a file"
same "$T/real/target.dat" "$T/reset.file"
no_temp_left "$T/real"
# a dangling link is refused, with or without -f
ln -s nowhere/missing.dat "$T/dangling.dat"
run 2 "$VOXKIT" -f octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o "$T/dangling.dat"
err_has "symbolic link"
checks=$((checks + 1)); [[ -L $T/dangling.dat && ! -e $T/nowhere ]] || fail "the dangling link was followed or replaced"
# a directory is refused
mkdir "$T/adir"
run 2 "$VOXKIT" -f octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o "$T/adir"
err_has "is a directory"

# --- -f keeps the mode of the file it replaces -------------------------------------------
echo old >"$T/mode.dat"
chmod 0600 "$T/mode.dat"
run 0 "$VOXKIT" -f octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o "$T/mode.dat"
checks=$((checks + 1)); [[ $(stat -c %a "$T/mode.dat") == 600 ]] || fail "mode $(stat -c %a "$T/mode.dat") after -f (expected 600)"

# --- in place: one backup policy ---------------------------------------------------------
# zone export-unity twice: the second run refuses to replace ASSET.bak; mode kept
cp "$U/quarry.asset" "$T/q.asset"
chmod 0600 "$T/q.asset"
run 0 "$VOXKIT" zone export-unity "$T/z.vxz" "$T/q.asset"
same "$T/q.asset.bak" "$U/quarry.asset"
checks=$((checks + 1)); [[ $(stat -c %a "$T/q.asset") == 600 ]] || fail "export-unity changed the asset's mode to $(stat -c %a "$T/q.asset")"
cp "$T/q.asset" "$T/q.after"
run 2 "$VOXKIT" zone export-unity "$T/z.vxz" "$T/q.asset"
err_has "force-backup"
same "$T/q.asset.bak" "$U/quarry.asset"
same "$T/q.asset" "$T/q.after"
# -f does not replace a backup; --force-backup does
run 2 "$VOXKIT" -f zone export-unity "$T/z.vxz" "$T/q.asset"
same "$T/q.asset.bak" "$U/quarry.asset"
run 0 "$VOXKIT" zone export-unity "$T/z.vxz" "$T/q.asset" --force-backup
same "$T/q.asset.bak" "$T/q.after"

# rebake --in-place: a symbolic link at ZONE.bak is never written through
cp "$T/z.vxz" "$T/r.vxz"
echo precious >"$T/precious"
ln -s precious "$T/r.vxz.bak"
run 2 "$VOXKIT" -f rebake "$T/r.vxz" "$T/high.raw" "${REBAKE[@]}" --in-place
same "$T/r.vxz" "$T/z.vxz"
run 0 "$VOXKIT" rebake "$T/r.vxz" "$T/high.raw" "${REBAKE[@]}" --in-place --force-backup
checks=$((checks + 1)); [[ $(cat "$T/precious") == precious ]] || fail "the backup was written through a symbolic link"
checks=$((checks + 1)); [[ ! -L $T/r.vxz.bak ]] || fail "ZONE.bak is still the link"
same "$T/r.vxz.bak" "$T/z.vxz"

# octree reset --in-place: -f does not replace the backup
cp "$T/t.dat" "$T/ip.dat"
run 0 "$VOXKIT" octree reset "$T/ip.dat" --keep-sphere 0,100,0,200 --in-place
same "$T/ip.dat.bak" "$T/t.dat"
run 2 "$VOXKIT" -f octree reset "$T/ip.dat" --keep-sphere 0,100,0,200 --in-place
err_has "force-backup"
same "$T/ip.dat.bak" "$T/t.dat"

# a rooms-based reset of a world with no rooms: -f is not enough
python3 - "$T" <<'PY'
import sys, zipfile, re
t = sys.argv[1]
x = re.sub(r'<Rooms>.*</Rooms>', '<Rooms />', open(t + '/world.xml').read(), flags=re.S)
with zipfile.ZipFile(t + '/norooms.save', 'w') as z:
    z.writestr('world.xml', x, zipfile.ZIP_DEFLATED)
    z.write(t + '/t.dat', 'terrain.dat', zipfile.ZIP_DEFLATED)
PY
cp "$T/norooms.save" "$T/norooms.orig"
run 1 "$VOXKIT" -f octree reset "$T/norooms.save" --keep-rooms
err_has "reset-all-if-no-rooms"
same "$T/norooms.save" "$T/norooms.orig"
run 0 "$VOXKIT" octree reset "$T/norooms.save" --keep-rooms --reset-all-if-no-rooms --no-backup

# --- octree reset SAVE -o OUT never shows a copy of the input at OUT ---------------------
# A kill at any moment leaves OUT absent or complete: each run is killed the moment OUT
# appears (the aimed kill), and at spread moments.
run 0 "$VOXKIT" octree synth -o "$T/big.dat" --max-depth 12 --tunnels 400 --pads 6 --veins 300 --seed 9 --save "$T/big.save"
run 0 "$VOXKIT" octree reset "$T/big.save" --keep-sphere 0,100,0,50 -o "$T/big_want.save"
python3 - "$T" <<'PY' || fail "a killed reset left a wrong save at its output"
import os, subprocess, sys, time
t = sys.argv[1]
voxkit = os.environ["VOXKIT"]
want = open(t + "/big_want.save", "rb").read()
out = t + "/killed.save"
for i in range(16):
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.Popen([voxkit, "-q", "octree", "reset", t + "/big.save", "--keep-sphere", "0,100,0,50",
                          "-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if i < 8:
        while p.poll() is None and not os.path.exists(out):
            time.sleep(0.0002)
    else:
        time.sleep(0.03 * (i - 8))
    p.kill()
    p.wait()
    if os.path.exists(out):
        assert open(out, "rb").read() == want, "kill %d left a save that is not the reset" % i
PY
checks=$((checks + 1))
rm -f "$T"/.killed.save.tmp-*

# --- temporary files of a killed run are removed by the next run -------------------------
: >"$T/.stale.dat.tmp-999999999-abcdef"
run 0 "$VOXKIT" octree reset "$T/t.dat" --keep-sphere 0,100,0,200 -o "$T/stale.dat"
absent "$T/.stale.dat.tmp-999999999-abcdef"

# --- multi-output verbs: all or nothing ---------------------------------------------------
run 1 "$VOXKIT" octree synth -o "$T/first.dat" --max-depth 12 --seed 4 --save /dev/full
absent "$T/first.dat"
run 1 "$VOXKIT" octree synth -o "$T/first.dat" --max-depth 12 --seed 4 --world-xml /dev/full
absent "$T/first.dat"
no_temp_left "$T"

# --- comparing verbs: 0 the same, 3 different ---------------------------------------------
run 0 "$VOXKIT" octree diff "$T/t.dat" "$T/t.dat"
run 3 "$VOXKIT" octree diff "$T/t.dat" "$T/reset.file"
out_has "voxels differ"
run 3 "$VOXKIT" octree diff "$T/t.dat" "$T/reset.file" --json
is_json "$T/out"
finish
