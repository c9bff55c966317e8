# CLI: voxkit zone export-unity without a template (a complete new DigZoneData asset) and
# with one (the editor's asset updated, its sub-assets refreshed); back through import-unity.
source "$(dirname "$0")/lib.sh"

D=$VOXKIT_SOURCE_DIR/test_data/dem
U=$VOXKIT_SOURCE_DIR/test_data/unity
run 0 "$VOXKIT" bake "$D/jacksboro_crop.tif" -o "$T/z.vxz" --center 7500,0,7500 --size 96,40,96 --voxel-size 2 \
  --splat "$D/jacksboro_splat.png" --layers grass,rock,sand,snow

# A new asset, named after its file; the report as JSON.
run 0 "$VOXKIT" zone export-unity "$T/z.vxz" -o "$T/Quarry.asset" --json
out_has '"created": true'
out_has '"backup": null'
checks=$((checks + 1))
python3 - "$T/out" "$T/Quarry.asset" <<'EOF' || fail "new asset"
import json, re, sys
j = json.load(open(sys.argv[1]))
a = open(sys.argv[2]).read()
assert j["meshes"]["written"] > 0 and j["meshes"]["removed"] == 0 and j["textures"]["written"] == 2, j
assert j["vertices"] > 0 and j["triangles"] > 0 and j["grid_version"] == {"old": 1, "new": 1}, j
assert a.startswith("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!28 &2800000\n"), a[:80]
assert "  m_Script: {fileID: 11500000, guid: 1de369fa44d90634c98ae013c6de8c31, type: 3}\n  m_Name: Quarry\n" in a
assert "  m_Name: Quarry_Control\n" in a and "  m_Name: Quarry_Height\n" in a
assert "  layerCount: 4\n" in a and "  cutTerrain: {fileID: 0}\n" in a
ids = [int(x) for x in re.findall(r"^--- !u!\d+ &(-?\d+)$", a, re.M)]
assert ids == sorted(ids) and 11400000 in ids, ids
meshes = re.findall(r"^--- !u!43 &(\d+)$", a, re.M)
assert len(meshes) == j["meshes"]["written"] and all(m.startswith("43") for m in meshes), meshes
EOF
# The same bytes again, with any thread count.
run 0 "$VOXKIT" -j 1 zone export-unity "$T/z.vxz" -o "$T/j1.asset" --asset-name Quarry
same "$T/Quarry.asset" "$T/j1.asset"
run 0 "$VOXKIT" -j 2 zone export-unity "$T/z.vxz" -o "$T/j2.asset" --asset-name Quarry
same "$T/Quarry.asset" "$T/j2.asset"
err_has "wrote a new asset"
# Imported and exported again: the same bytes.
run 0 "$VOXKIT" zone import-unity "$T/Quarry.asset" -o "$T/back.vxz"
run 0 "$VOXKIT" zone export-unity "$T/back.vxz" -o "$T/again.asset" --asset-name Quarry
same "$T/Quarry.asset" "$T/again.asset"
# On stdout: the report goes to stderr.
run 0 "$VOXKIT" zone export-unity "$T/z.vxz" -o - --json --asset-name Quarry
err_has '"created": true'
same "$T/out" "$T/Quarry.asset"
# The script's guid of the user's project, in lower case; bad guids and names are refused.
run 0 "$VOXKIT" zone export-unity "$T/z.vxz" -o "$T/g.asset" --script-guid 0123456789ABCDEF0123456789ABCDEF
checks=$((checks + 1)); grep -q "guid: 0123456789abcdef0123456789abcdef, type: 3}" "$T/g.asset" || fail "guid"
run 2 "$VOXKIT" zone export-unity "$T/z.vxz" -o "$T/bad.asset" --script-guid 12345
err_has "--script-guid"
run 2 "$VOXKIT" zone export-unity "$T/z.vxz" -o "$T/bad.asset" --asset-name "a: b"
err_has "--asset-name"
absent "$T/bad.asset"

# An editor's asset updated in place: a backup; the listed meshes keep their ids, a new chunk
# mesh gets the id of its chunk, the mesh nobody lists stays.
cp "$U/pit.asset" "$T/pit.asset"
run 0 "$VOXKIT" zone import-unity "$T/pit.asset" -o "$T/pit.vxz"
run 0 "$VOXKIT" zone export-unity "$T/pit.vxz" "$T/pit.asset" --json
out_has '"created": false'
out_has '"written": 4'
same "$T/pit.asset.bak" "$U/pit.asset"
checks=$((checks + 1))
grep -q -- "^  - {fileID: 43000000000001}$" "$T/pit.asset" && grep -q -- "^--- !u!43 &-7011122233344455566$" "$T/pit.asset" &&
  grep -q -- "^--- !u!43 &3141592653589793238$" "$T/pit.asset" || fail "mesh ids"
# Into its own output again: only _gridVersion changes.
cp "$T/pit.asset" "$T/pit2.asset"
run 0 "$VOXKIT" zone export-unity "$T/pit.vxz" "$T/pit2.asset" --no-backup
absent "$T/pit2.asset.bak"
checks=$((checks + 1))
d=$(diff "$T/pit.asset" "$T/pit2.asset" | grep '^[<>]' | sed 's/:.*//' | sort -u | tr '\n' ' ')
[[ $d == "<   _gridVersion >   _gridVersion " ]] || fail "unexpected changes: $d"

# Bad inputs: exit 2, nothing written.
run 2 "$VOXKIT" zone export-unity "$T/z.vxz"
err_has "needs -o"
run 0 "$VOXKIT" zone import-unity "$U/quarry.asset" -o "$T/small.vxz"
run 2 "$VOXKIT" zone export-unity "$T/small.vxz" -o "$T/small.asset"
err_has "Cells must be at least 8 x 4 x 8."
absent "$T/small.asset"
run 2 "$VOXKIT" zone export-unity "$T/small.vxz" "$U/pit.asset" -o "$T/small.asset"
err_has "Cells must be at least 8 x 4 x 8."
absent "$T/small.asset"
run 2 "$VOXKIT" zone export-unity "$T/z.vxz" -o "$T/Quarry.asset"
err_has "exists"
run 1 "$VOXKIT" zone export-unity "$T/missing.vxz" -o "$T/m.asset"
err_has "missing.vxz"
absent "$T/m.asset"
no_temp_left "$T"
finish
