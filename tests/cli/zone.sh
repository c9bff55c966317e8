# CLI: voxkit zone import-unity / export-unity: files, pipes, backups, refusals, exit codes.
source "$(dirname "$0")/lib.sh"

U="$VOXKIT_SOURCE_DIR/test_data/unity"
run 0 "$VOXKIT" zone import-unity "$U/quarry.asset" -o "$T/q.vxz"
err_has "imported 4x3x4 cells (100 samples)"
# deterministic: the same asset gives the same bytes, for any thread count, also through a pipe
run 0 "$VOXKIT" -j 1 zone import-unity "$U/quarry.asset" -o "$T/q1.vxz"
same "$T/q.vxz" "$T/q1.vxz"
run 0 "$VOXKIT" -j 2 zone import-unity "$U/quarry.asset" -o "$T/q2.vxz"
same "$T/q.vxz" "$T/q2.vxz"
run_in 0 "$U/quarry.asset" "$VOXKIT" zone import-unity - -o "$T/stdin.vxz"
"$VOXKIT" zone import-unity - <"$U/quarry.asset" >"$T/piped.vxz" 2>/dev/null; same "$T/stdin.vxz" "$T/piped.vxz"
# refuse to overwrite without -f
run 2 "$VOXKIT" zone import-unity "$U/quarry.asset" -o "$T/q.vxz"
err_has "exists"
# folded hex and a 0.3-era asset hold the same grid
run 0 "$VOXKIT" zone import-unity "$U/legacy_0_3.asset" -o "$T/l.vxz"
run 0 "$VOXKIT" zone import-unity "$U/folded_crlf.asset" -o "$T/f.vxz"
err_has "never painted"

# export in place (the package's smallest zone: pit.asset): backup made; exported again into
# its own output, only the version changes (tests/cli/unity_export.sh has the rest)
run 0 "$VOXKIT" zone import-unity "$U/pit.asset" -o "$T/p.vxz"
cp "$U/pit.asset" "$T/a.asset"
run 0 "$VOXKIT" zone export-unity "$T/p.vxz" "$T/a.asset"
err_has "_gridVersion 4 -> 5"
err_has "backup $T/a.asset.bak"
same "$T/a.asset.bak" "$U/pit.asset"
cp "$T/a.asset" "$T/a2.asset"
run 0 "$VOXKIT" zone export-unity "$T/p.vxz" "$T/a2.asset" --no-backup
checks=$((checks + 1))
d=$(diff "$T/a.asset" "$T/a2.asset" | grep '^[<>]' | sed 's/:.*//' | sort -u | tr '\n' ' ')
[[ $d == "<   _gridVersion >   _gridVersion " ]] || fail "unexpected changes: $d"
# a zone smaller than the package bakes is refused
run 2 "$VOXKIT" zone export-unity "$T/f.vxz" "$U/pit.asset" -o "$T/small.asset"
err_has "Cells must be at least 8 x 4 x 8."
# --no-backup, --json
cp "$U/pit.asset" "$T/b.asset"
run 0 "$VOXKIT" zone export-unity "$T/p.vxz" "$T/b.asset" --no-backup --json
absent "$T/b.asset.bak"
out_has '"new": 5'
out_has '"backup": null'
# -o writes elsewhere and leaves the asset alone
run 0 "$VOXKIT" zone export-unity "$T/p.vxz" "$U/pit.asset" -o "$T/c.asset"
absent "$U/pit.asset.bak"
run 0 "$VOXKIT" zone import-unity "$T/c.asset" -o "$T/c.vxz"
# a round trip through the asset keeps the grids (the version is bumped)
run 0 "$VOXKIT" zone export-unity "$T/p.vxz" "$U/pit.asset" -o - 
checks=$((checks + 1)); grep -q "_gridVersion: 5" "$T/out" || fail "version not bumped on stdout"

# bad data: exit 1, file named, nothing written
printf 'not a zone' >"$T/bad.vxz"
cp "$U/quarry.asset" "$T/d.asset"
run 1 "$VOXKIT" zone export-unity "$T/bad.vxz" "$T/d.asset"
err_has "bad.vxz: offset"
absent "$T/d.asset.bak"
same "$T/d.asset" "$U/quarry.asset"
run 1 "$VOXKIT" zone export-unity "$T/p.vxz" "$U/legacy_0_3.asset" -o "$T/e.asset"
err_has "legacy_0_3.asset: offset"
absent "$T/e.asset"
sed 's/gridRle: 64c8/gridRle: 64z8/' "$U/quarry.asset" >"$T/badhex.asset"
run 1 "$VOXKIT" zone import-unity "$T/badhex.asset" -o "$T/x.vxz"
err_has "badhex.asset: offset"
err_has "not a hex digit"
absent "$T/x.vxz"
no_temp_left "$T"
# a damaged zone names the section
cp "$T/q.vxz" "$T/dam.vxz"
printf '\xff' | dd of="$T/dam.vxz" bs=1 seek=$(( $(stat -c %s "$T/dam.vxz") - 3 )) conv=notrunc 2>/dev/null
run 1 "$VOXKIT" zone export-unity "$T/dam.vxz" "$U/quarry.asset" -o "$T/y.asset"
err_has "CRC-32 does not match: the section is damaged"
# info describes zones, as text and JSON, and names a damaged section
run 0 "$VOXKIT" info "$T/q.vxz"
out_has "voxkit zone file, version 1.2"
out_has "solid volume"
out_has "sculpted  *1 samples differ from the baked grid"
run 0 "$VOXKIT" info "$T/q.vxz" --json
out_has '"format": "zone"'
out_has '"painted_samples": 1'
out_has '"with_surface": 1'
run 1 "$VOXKIT" info "$T/dam.vxz"
err_has "dam.vxz: offset"
err_has "CRC-32 does not match: the section is damaged"
# usage errors
run 2 "$VOXKIT" zone
run 2 "$VOXKIT" zone import-unity
run 2 "$VOXKIT" zone export-unity "$T/q.vxz"
# the asset on stdout, the report on stderr (docs/outputs.md)
run 0 "$VOXKIT" zone export-unity "$T/p.vxz" "$U/pit.asset" -o - --json
err_has '"grid_version"'
run_in 2 "$U/pit.asset" "$VOXKIT" zone export-unity "$T/p.vxz" -
err_has "needs -o"
run_in 0 "$U/pit.asset" "$VOXKIT" zone export-unity "$T/p.vxz" - -o "$T/from_stdin.asset"
run 1 "$VOXKIT" zone import-unity "$T/missing.asset" -o "$T/m.vxz"
err_has "missing.asset: cannot open"
run 0 "$VOXKIT" -q zone import-unity "$U/quarry.asset" -o "$T/quiet.vxz"
checks=$((checks + 1)); [[ ! -s $T/err ]] || fail "-q printed: $(cat "$T/err")"
finish
