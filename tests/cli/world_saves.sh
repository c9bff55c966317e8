# A saves manifest: one reset rule over many Stationeers saves, planned for Ninja and run; each
# output equals octree reset run by hand with the same options; the inputs are untouched;
# changing the rule reruns every reset, touching one save reruns only its own.
source "$(dirname "$0")/lib.sh"
src=$VOXKIT_SOURCE_DIR
mkdir -p "$T/saves"
for s in small server python_zip64; do cp "$src/test_data/stationeers/$s.save" "$T/saves/"; done
cat >"$T/resets.toml" <<'TOML'
[saves]
name = "resets"
files = ["saves/*.save"]

[reset]
keep_rooms = true
margin = 4
reset_all_if_no_rooms = true
TOML
run 0 "$VOXKIT" plan "$T/resets.toml" --emit ninja -o "$T/plan"
out_has "3 jobs (3 saves)"
run 0 ninja -C "$T/plan"
for s in small server python_zip64; do
  run 0 "$VOXKIT" -q octree reset "$T/saves/$s.save" -o "$T/$s.direct.save" --keep-rooms --margin 4 --reset-all-if-no-rooms
  same "$T/plan/saves/$s.save" "$T/$s.direct.save"
  same "$T/saves/$s.save" "$src/test_data/stationeers/$s.save"
done
run 0 ninja -C "$T/plan" -n
out_has "no work to do"
sleep 1
touch "$T/saves/server.save"
run 0 ninja -C "$T/plan"
checks=$((checks + 1))
[[ $(grep -c "^\[.*\] reset " "$T/out") -eq 1 ]] || fail "touching one save should rerun one reset"
sed -i 's/margin = 4/margin = 6/' "$T/resets.toml"
run 0 ninja -C "$T/plan"
checks=$((checks + 1))
[[ $(grep -c "^\[.*\] reset " "$T/out") -eq 3 ]] || fail "a new rule should rerun every reset"
run 0 "$VOXKIT" -q octree reset "$T/saves/small.save" -o "$T/small.m6.save" --keep-rooms --margin 6 --reset-all-if-no-rooms
same "$T/plan/saves/small.save" "$T/small.m6.save"
# Two saves of one name would write one output: refused.
mkdir -p "$T/other" && cp "$T/saves/small.save" "$T/other/"
printf '[saves]\nfiles = ["saves/small.save", "other/small.save"]\n' >"$T/dup.toml"
run 1 "$VOXKIT" plan "$T/dup.toml" --emit ninja -o "$T/dup"
err_has "two saves have the file name small.save"
finish
