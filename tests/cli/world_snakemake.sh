# voxkit plan --emit snakemake on the demo world, really run by Snakemake with two cores: the
# tiles equal a whole bake and mesh; a job that fails once is retried and the run succeeds; a
# second run does nothing; a fresh plan with Snakemake's between-workflow cache runs no voxkit
# job and gives the same index; then the same Snakefile through a Slurm controller and node
# daemon started here (tests/world/slurm_local.sh), outputs identical again.
source "$(dirname "$0")/lib.sh"
src=$VOXKIT_SOURCE_DIR
mkdir -p "$T/data/dem"
cp -r "$src/test_data/world" "$T/data/world"
cp "$src/test_data/dem/jacksboro_splat.png" "$T/data/dem/"
m=$T/data/world/demo.toml
export SNAKEMAKE_OUTPUT_CACHE=$T/cache
mkdir -p "$SNAKEMAKE_OUTPUT_CACHE"
# Snakemake keeps its own state under HOME: a private one per run of the case.
export HOME=$T/home XDG_CACHE_HOME=$T/home/.cache
mkdir -p "$HOME"

# The jobs run voxkit through a wrapper that logs each call and fails tile 2,1's bake once.
cat >"$T/vk.sh" <<SH
#!/usr/bin/env bash
echo "\$*" >>"$T/calls.log"
if [[ " \$* " == *" bake "*"--tile 2,1 "* && ! -e "$T/failed_once" ]]; then
  touch "$T/failed_once"; echo "voxkit: made to fail once" >&2; exit 1
fi
exec "$VOXKIT" "\$@"
SH
chmod +x "$T/vk.sh"
: >"$T/calls.log"

run 0 "$VOXKIT" plan "$m" --emit snakemake -o "$T/a" --voxkit "$T/vk.sh"
checks=$((checks + 1))
for f in Snakefile plan.json profiles/local/config.yaml profiles/slurm/config.yaml world/bake.toml voxkit.version; do
  [[ -f $T/a/$f ]] || fail "plan lacks $f"
done
run 0 bash -c "cd '$T/a' && snakemake --profile profiles/local --cache"
checks=$((checks + 1))
[[ -e $T/failed_once ]] || fail "the flaky job did not run"
checks=$((checks + 1))
[[ $(grep -c -- "--tile 2,1 -o tiles/bake" "$T/calls.log") -eq 2 ]] || fail "tile 2,1's bake should have run twice"

run 0 "$VOXKIT" -q bake "$T/data/world/height.vrt" --box 60,270,60,1980,720,1980 --voxel-size 15 \
  --splat "$T/data/dem/jacksboro_splat.png" --layers grass,rock,sand,snow -o "$T/whole.vxz"
run 0 "$VOXKIT" -q mesh "$T/whole.vxz" -o "$T/whole.glb"
run 0 python3 "$src/tests/world/compare_tiles.py" "$T/whole.vxz" "$T/a"
out_has "equal"
run 0 python3 "$src/tests/world/glb_chunks.py" "$T/whole.glb" "$T"/a/tiles/mesh/*.glb
out_has "equal"

# Nothing to do the second time.
calls=$(wc -l <"$T/calls.log")
run 0 bash -c "cd '$T/a' && snakemake --profile profiles/local --cache"
err_has "Nothing to be done"
checks=$((checks + 1))
[[ $(wc -l <"$T/calls.log") -eq $calls ]] || fail "a second run called voxkit"

# A fresh plan elsewhere: every job comes from the cache, no voxkit job runs.
run 0 "$VOXKIT" plan "$m" --emit snakemake -o "$T/b" --voxkit "$T/vk.sh"
run 0 bash -c "cd '$T/b' && snakemake --profile profiles/local --cache"
checks=$((checks + 1))
[[ $(wc -l <"$T/calls.log") -eq $calls ]] || fail "the cached run called voxkit: $(tail -n +$((calls + 1)) "$T/calls.log" | head -3)"
same "$T/a/world_index.json" "$T/b/world_index.json"

# Slurm on this machine: a controller and a node daemon, jobs submitted by Snakemake.
state=$T/slurm
if ! bash "$src/tests/world/slurm_local.sh" start "$state" >"$T/slurm_env" 2>"$T/slurm_err"; then
  fail "the local Slurm did not start"; sed 's/^/  /' "$T/slurm_err" >&2
else
  trap 'bash "$src/tests/world/slurm_local.sh" stop "$state" >/dev/null 2>&1; rm -rf "$T"' EXIT
  # shellcheck disable=SC1090
  source "$T/slurm_env"
  run 0 "$VOXKIT" plan "$m" --emit snakemake -o "$T/c"
  run 0 bash -c "cd '$T/c' && USER=\${USER:-\$(id -un)} snakemake --profile profiles/slurm"
  err_has "Finished job"
  run 0 python3 "$src/tests/world/compare_tiles.py" "$T/whole.vxz" "$T/c"
  out_has "equal"
  same "$T/a/world_index.json" "$T/c/world_index.json"
  # Slurm's own record of the jobs it ran: one per voxkit job.
  checks=$((checks + 1))
  ran=$(grep -c "JobState=COMPLETED" "$state/log/jobcomp.txt" 2>/dev/null || true)
  [[ ${ran:-0} -ge 49 ]] || fail "Slurm ran ${ran:-0} jobs, expected the plan's 49"
fi
finish
