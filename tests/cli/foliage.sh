# CLI: voxkit foliage bake|check: counts, the mask (raw and PNG), a dig under a tree, the
# chunk-local check against --full, a log on the fly against the same log applied first,
# -j, bad inputs, nothing written on failure.
source "$(dirname "$0")/lib.sh"

# A flat zone: 64 x 22 x 64 cells at 0.5 m, the ground at grid y = 18.
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x10' * (33 * 33))" >"$T/flat.raw"
run 0 "$VOXKIT" bake "$T/flat.raw" -o "$T/z.vxz" --terrain-size 32,20,32 --voxel-size 0.5
run 0 "$VOXKIT" info "$T/z.vxz" --json
read -r OX OY OZ < <(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(*j["details"]["origin"])' "$T/out")
# The ground's world height from the zone's own top surface, read off a bare bake's mask
# (column texel g,b: the anchor in 1/16 voxel).
run 0 "$VOXKIT" foliage bake "$T/z.vxz" -o "$T/bare.vxz" --mask-out "$T/bare.rgba"
ground=$(python3 -c "
b = open('$T/bare.rgba', 'rb').read(); i = 4 * (20 + 65 * 20)
assert b[i] == 255 and b[i + 3] == 255
print($OY + ((b[i + 1] << 8) | b[i + 2]) / 16 * 0.5)")
python3 - "$OX" "$OZ" "$ground" "$T" <<'EOF'
import sys
ox, oz, g, t = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
w = lambda gx, gz: (ox + gx * 0.5, oz + gz * 0.5)
with open(t + "/trees.csv", "w") as f:
    f.write("x,y,z,prototype,rotation,scale\n")
    for i, (gx, gz, dy) in enumerate([(20, 20, 0), (44, 40, 0), (30, 50, 3)]):
        x, z = w(gx, gz)
        f.write(f"{x},{g + dy},{z},{i % 2},0.5,1\n")
with open(t + "/details.csv", "w") as f:
    f.write("x,z,prototype,rotation\n")
    for k in range(200):
        x, z = w(2 + (k * 7) % 60, 2 + (k * 13) % 60)
        f.write(f"{x},{z},0,{k}\n")
with open(t + "/surface.json", "w") as f:
    x, z = w(10, 10)
    f.write('[{"position": [%r, %r, %r], "normal": [0, 1, 0]}]' % (x, g, z))
EOF

run 0 "$VOXKIT" foliage bake "$T/z.vxz" --trees "$T/trees.csv" --details "$T/details.csv" \
  --surface-details "$T/surface.json" -o "$T/f.vxz" --mask-out "$T/mask.rgba" --json
checks=$((checks + 1))
python3 - "$T/out" <<'EOF' || fail "bake report"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["trees"] == {"kept": 3, "standing": 2, "bad_prototype": 0}, j["trees"]
assert j["details"]["kept"] == 200, j["details"]
assert j["surface_details"]["kept"] == 1 and j["surface_details"]["standing"] == 1, j
assert j["columns"]["total"] == 65 * 65 and j["columns"]["with_surface"] == 65 * 65, j
assert j["mask"] == {"width": 65, "height": 66}, j["mask"]
assert sum(c["trees"] for c in j["chunks"]) == 3 and sum(c["columns"] for c in j["chunks"]) == 65 * 65, j
assert sum(c["details"] for c in j["chunk_columns"]) == 200
EOF
checks=$((checks + 1))
[[ $(stat -c %s "$T/mask.rgba") -eq $((65 * 66 * 4)) ]] || fail "raw mask size"
run 0 "$VOXKIT" foliage bake "$T/z.vxz" --trees "$T/trees.csv" --details "$T/details.csv" \
  --surface-details "$T/surface.json" -o "$T/f2.vxz" --mask-out "$T/mask.png"
out_has "trees: 3 kept (2 standing)"
same "$T/f.vxz" "$T/f2.vxz"
# The PNG holds the same bytes, row 0 first (Python's zlib, not ours, reads it back).
checks=$((checks + 1))
python3 - "$T/mask.png" "$T/mask.rgba" <<'EOF' || fail "PNG mask"
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", None
while pos < len(b):
    n, = struct.unpack(">I", b[pos:pos + 4]); typ = b[pos + 4:pos + 8]; data = b[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", data[:10]); assert depth == 8 and ctype == 6
    if typ == b"IDAT": idat += data
    pos += 12 + n
raw = zlib.decompress(idat)
rows = [raw[r * (w * 4 + 1) + 1:(r + 1) * (w * 4 + 1)] for r in range(h)]
assert all(raw[r * (w * 4 + 1)] == 0 for r in range(h))
assert b"".join(rows) == open(sys.argv[2], "rb").read()
EOF
# Nothing changed yet: the check re-checks nothing and nothing fell.
run 0 "$VOXKIT" foliage check "$T/f.vxz"
out_has "re-checked 0 of"
out_has "as baked: nothing fell"

# A dig under tree 0 (grid 20, 18, 20), an erase of trees around tree 1, one far away dig.
pack() { "$VOXKIT" edit pack "$@" | cut -d' ' -f1; }
{
  pack --pos 20,18,20 --radius 3 --op dig
  pack --pos 44,18.5,40 --radius 2 --op tree --layer 0
  pack --pos 60,21,4 --radius 1 --op dig
} >"$T/log.txt"
run 0 "$VOXKIT" foliage check "$T/f.vxz" --log "$T/log.txt" -o "$T/c.vxz" --mask-out "$T/c.rgba" --json
cp "$T/out" "$T/local.json"
checks=$((checks + 1))
python3 - "$T/local.json" <<'EOF' || fail "check report"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["edits"] == 3 and j["erase_edits"] == 1 and j["erased_items"] == 1, j
assert j["fell"]["trees"] == [0, 1], j["fell"]
assert len(j["fell"]["columns"]) > 5 and j["counts"]["trees"] == {"standing": 0, "fallen": 2, "erased": 1}, j["counts"]
assert 0 < j["rechecked_chunks"] < j["chunks"], j
assert j["differs_from_bake"]
EOF
run 0 "$VOXKIT" foliage check "$T/f.vxz" --log "$T/log.txt" --full --json
checks=$((checks + 1))
python3 - "$T/local.json" "$T/out" <<'EOF' || fail "--full differs from the chunk-local check"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["fell"] == b["fell"] and a["counts"] == b["counts"], (a["fell"], b["fell"])
assert b["rechecked_chunks"] == b["chunks"]
EOF
# The same log applied first by edit apply: the check finds the changed chunks by their hashes.
run 0 "$VOXKIT" edit apply "$T/f.vxz" "$T/log.txt" -o "$T/e.vxz"
run 0 "$VOXKIT" foliage check "$T/e.vxz" --json -o "$T/ec.vxz" --mask-out "$T/ec.rgba"
checks=$((checks + 1))
python3 - "$T/local.json" "$T/out" <<'EOF' || fail "check after edit apply"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["fell"] == b["fell"] and a["counts"] == b["counts"], (a, b)
assert b["reach"].startswith("chunks whose samples changed")
EOF
same "$T/c.rgba" "$T/ec.rgba"
# Checked again, nothing is left to re-check.
run 0 "$VOXKIT" foliage check "$T/ec.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["rechecked_chunks"]==0 and j["fell"]["trees"]==[0,1], j' "$T/out" || fail "second check"

# -j does not change the bytes.
run 0 "$VOXKIT" -j 1 foliage bake "$T/z.vxz" --trees "$T/trees.csv" --details "$T/details.csv" -o "$T/j1.vxz"
run 0 "$VOXKIT" -j 2 foliage bake "$T/z.vxz" --trees "$T/trees.csv" --details "$T/details.csv" -o "$T/j2.vxz"
same "$T/j1.vxz" "$T/j2.vxz"
run 0 "$VOXKIT" -j 1 foliage check "$T/f.vxz" --log "$T/log.txt" --full -o "$T/cj1.vxz"
run 0 "$VOXKIT" -j 2 foliage check "$T/f.vxz" --log "$T/log.txt" --full -o "$T/cj2.vxz"
same "$T/cj1.vxz" "$T/cj2.vxz"

# A Unity asset's own trees: terrain-normalised, so the terrain's size is needed.
run 2 "$VOXKIT" foliage bake "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset" -o "$T/q.vxz"
err_has "terrain-size"
absent "$T/q.vxz"
run 0 "$VOXKIT" foliage bake "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset" --terrain-size 64,10,64 -o "$T/q.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["trees"]["kept"]==2 and "terrainTrees" in j["sources"]["trees"], j' "$T/out" || fail "asset trees"

# Written back into the asset: the trees as they were, the mask as a Texture2D sub-asset,
# the signatures 0 (the editor rebuilds what voxkit cannot compute). pit.asset: the package's
# smallest zone, with two trees in its hole.
run 0 "$VOXKIT" foliage bake "$VOXKIT_SOURCE_DIR/test_data/unity/pit.asset" --terrain-size 64,10,64 -o "$T/q2.vxz" \
  --mask-out "$T/q.rgba" -f
run 0 "$VOXKIT" zone export-unity "$T/q2.vxz" "$VOXKIT_SOURCE_DIR/test_data/unity/pit.asset" -o "$T/q.asset" --json
checks=$((checks + 1))
python3 - "$VOXKIT_SOURCE_DIR/test_data/unity/pit.asset" "$T/q.asset" "$T/q.rgba" <<'EOF2' || fail "asset foliage fields"
import sys
a, b, mask = open(sys.argv[1]).read(), open(sys.argv[2]).read(), open(sys.argv[3], "rb").read()
block = lambda t: t[t.index("  terrainTrees:"):t.index("  foliageMask:")]
assert block(a) == block(b), block(b)
for k in ("foliageSignature", "foliageDetailSignature", "foliageCount"):
    assert "  %s: 0\n" % k in b, k
assert "  foliageMask: {fileID: 2800100}\n" in b
doc = b[b.index("--- !u!28 &2800100\n"):]
assert "Texture2D:\n" in doc and "  m_Width: 9\n" in doc and "  m_Height: 9\n" in doc and "  m_TextureFormat: 4\n" in doc
assert "  m_IsReadable: 1\n" in doc and "  m_ColorSpace: 0\n" in doc and "  m_Name: DigZone_Pit_FoliageMask\n" in doc
hexdata = doc[doc.index("  _typelessdata: ") + 17:].split("\n")[0]
assert bytes.fromhex(hexdata) == mask and len(mask) == 324
EOF2
# Exported again into its own output, the texture is replaced, not added twice (the asset
# has its control and height textures besides).
run 0 "$VOXKIT" zone export-unity "$T/q2.vxz" "$T/q.asset" --no-backup
checks=$((checks + 1))
[[ $(grep -c '^--- !u!28 ' "$T/q.asset") -eq 3 ]] || fail "the mask texture was added twice"
run 0 "$VOXKIT" zone import-unity "$T/q.asset" -o "$T/q3.vxz"

# Standing trees in glTF: instances (EXT_mesh_gpu_instancing) or one node per tree; the
# Khronos validator finds no error and no warning.
VALIDATE="$VOXKIT_SOURCE_DIR/tests/checks/validate_gltf.js"
run 0 "$VOXKIT" mesh "$T/f.vxz" --foliage -o "$T/trees.glb" --json
out_has '"instances": 2'
run 0 node "$VALIDATE" "$T/trees.glb"
out_has '"numErrors": 0'
run 0 "$VOXKIT" mesh "$T/f.vxz" --foliage --foliage-nodes -o "$T/trees.gltf"
run 0 node "$VALIDATE" "$T/trees.gltf"
checks=$((checks + 1))
python3 - "$T/trees.glb" "$T/trees.gltf" "$OX" "$OZ" <<'EOF2' || fail "trees in glTF"
import json, struct, sys
b = open(sys.argv[1], "rb").read()
n, = struct.unpack("<I", b[12:16]); j = json.loads(b[20:20 + n])
assert j["extensionsUsed"] == ["EXT_mesh_gpu_instancing"] or "EXT_mesh_gpu_instancing" in j["extensionsUsed"]
inst = [x for x in j["nodes"] if "extensions" in x]
assert sum(j["accessors"][x["extensions"]["EXT_mesh_gpu_instancing"]["attributes"]["TRANSLATION"]]["count"] for x in inst) == 2
t = json.load(open(sys.argv[2]))
trees = sorted(x["name"] for x in t["nodes"] if x["name"].startswith("tree_") and "translation" in x)
assert trees == ["tree_0", "tree_1"], trees
tree0 = [x for x in t["nodes"] if x["name"] == "tree_0"][0]
ox, oz = float(sys.argv[3]), float(sys.argv[4])
# x is mirrored into glTF's right-handed space.
assert abs(tree0["translation"][0] + (ox + 20 * 0.5)) < 1e-3 and abs(tree0["translation"][2] - (oz + 20 * 0.5)) < 1e-3, tree0
assert "extensionsUsed" not in t or "EXT_mesh_gpu_instancing" not in t["extensionsUsed"]
EOF2
# A tree mesh of our own: the marker-free glb of a mesh voxkit wrote stands in for prototype 1.
run 0 "$VOXKIT" mesh "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset" -o "$T/proto.glb"
run 0 "$VOXKIT" mesh "$T/f.vxz" --foliage --tree-mesh "1=$T/proto.glb" -o "$T/trees2.glb"
run 0 node "$VALIDATE" "$T/trees2.glb"
run 2 "$VOXKIT" mesh "$T/f.vxz" --foliage -o "$T/trees.obj"
err_has "glTF outputs"
run 2 "$VOXKIT" mesh "$T/z.vxz" --foliage -o "$T/none.glb"
err_has "no baked foliage"

# The foliage view, with its legend.
run 0 "$VOXKIT" preview "$T/c.vxz" --view foliage -o "$T/foliage.png"
checks=$((checks + 1))
python3 -c "
import struct, sys
b = open('$T/foliage.png', 'rb').read()
w, h = struct.unpack('>II', b[16:24])
assert b[:8] == b'\x89PNG\r\n\x1a\n' and w >= 512 and h > w, (w, h)" || fail "foliage preview"
run 2 "$VOXKIT" preview "$T/z.vxz" --view foliage -o "$T/none.png"
err_has "no baked foliage"

# Bad inputs: a list with an unknown column, a zone with no foliage to check, an old output.
printf 'x,y,zz\n1,2,3\n' >"$T/bad.csv"
run 1 "$VOXKIT" foliage bake "$T/z.vxz" --trees "$T/bad.csv" -o "$T/bad.vxz"
err_has "bad.csv: offset 4: line 1: unknown column 'zz'"
absent "$T/bad.vxz"
run 2 "$VOXKIT" foliage check "$T/z.vxz"
err_has "holds no baked foliage"
run 2 "$VOXKIT" foliage bake "$T/z.vxz" --trees "$T/trees.csv" -o "$T/f.vxz"
err_has "exists"
no_temp_left "$T"
finish
