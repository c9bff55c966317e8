# CLI: heightmap NoData filled by bake --nodata-fill is recorded in the zone (FILL section):
# info counts the columns, preview hatches them in magenta and lists them in the legend,
# rebake keeps the mask of the new terrain, a zone over data only has no mask and the
# version 1.2 bytes (docs/formats/zone.md, docs/preview.md).
source "$(dirname "$0")/lib.sh"
dem=$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_crop.tif

# The DEM warped to UTM has 2302 NoData samples along its edges: refused without a policy.
run 1 "$VOXKIT" bake "$dem" -o "$T/refused.vxz" --voxel-size 100
err_has "2302 heightmap samples without data"
absent "$T/refused.vxz"

run 0 "$VOXKIT" bake "$dem" -o "$T/a.vxz" --voxel-size 100 --nodata-fill nearest
err_has "2302 NoData samples"
run 0 "$VOXKIT" info "$T/a.vxz"
out_has "version 1.3"
out_has "filled NoData .* columns (.*) stand on heightmap samples filled by the bake"
out_has "sections .*FILL "
text_count=$(sed -n 's/^ *filled NoData *\([0-9]*\) of .*/\1/p' "$T/out")
run 0 "$VOXKIT" info "$T/a.vxz" --json
checks=$((checks + 1))
python3 - "$T/out" "$text_count" <<'EOF' || fail "info --json filled_columns"
import json, sys
d = json.load(open(sys.argv[1]))["details"]
n = d["filled_columns"]
sx, sz = d["sample_dims"][0], d["sample_dims"][2]
# Some columns, not most: the NoData lies along the edges.
assert 0 < n < sx * sz // 4, (n, sx, sz)
assert str(n) == sys.argv[2], (n, sys.argv[2])
assert [s["tag"] for s in d["sections"]] == ["META", "GRID", "BAKE", "HGHT", "FILL"], d["sections"]
EOF

# A box inside the data: no mask, no FILL section, version 1.2 as before.
box=(--box 3000,0,3000,12000,2000,15000)
run 0 "$VOXKIT" bake "$dem" -o "$T/inner.vxz" --voxel-size 100 --nodata-fill nearest "${box[@]}"
run 0 "$VOXKIT" info "$T/inner.vxz"
out_has "version 1.2"
checks=$((checks + 1))
! grep -q "filled NoData\|FILL" "$T/out" || fail "a zone over data only has no filled columns"
run 0 "$VOXKIT" info "$T/inner.vxz" --json
checks=$((checks + 1))
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["details"]["filled_columns"] == 0' "$T/out" ||
  fail "inner zone: filled_columns 0"

# Rebake from the same DEM: the same mask; the inner zone stays without one.
run 0 "$VOXKIT" rebake "$T/a.vxz" "$dem" --nodata-fill nearest -o "$T/a2.vxz"
run 0 "$VOXKIT" info "$T/a2.vxz"
out_has "filled NoData *$text_count of "
run 0 "$VOXKIT" rebake "$T/inner.vxz" "$dem" --nodata-fill nearest -o "$T/inner2.vxz"
run 0 "$VOXKIT" info "$T/inner2.vxz"
out_has "version 1.2"

# Preview: magenta hatch on the filled columns, along the picture's edges only, and the legend's
# hatched swatch below the picture; none for the inner zone.
cat >"$T/png.py" <<'EOF'
import re, struct, sys, zlib
def read(path):
    b = open(path, 'rb').read()
    assert b[:8] == b'\x89PNG\r\n\x1a\n', path
    pos, idat = 8, b''
    while pos < len(b):
        n, t = struct.unpack('>I4s', b[pos:pos + 8])
        d = b[pos + 8:pos + 8 + n]
        if t == b'IHDR':
            w, h, depth, kind = struct.unpack('>IIBB', d[:10])
            assert depth == 8 and kind == 2, (depth, kind)
        elif t == b'IDAT':
            idat += d
        pos += 12 + n
    raw = zlib.decompress(idat)
    rows = [raw[y * (3 * w + 1) + 1:(y + 1) * (3 * w + 1)] for y in range(h)]
    return w, h, rows
def placed(err):
    m = re.search(r'\((\d+)x(\d+), picture (\d+)x(\d+) at (\d+),(\d+)\)', open(err).read())
    return tuple(int(v) for v in m.groups())
def magenta(rows, w, h):
    return [(x, y) for y in range(h) for x in range(w) if tuple(rows[y][3 * x:3 * x + 3]) == (255, 40, 220)]
EOF
run 0 "$VOXKIT" preview "$T/a.vxz" -o "$T/a.png"
cp "$T/err" "$T/a.err"
run 0 "$VOXKIT" preview "$T/inner.vxz" -o "$T/inner.png"
cp "$T/err" "$T/inner.err"
checks=$((checks + 1))
python3 - "$T" <<'EOF' || fail "preview: filled columns hatched along the edges, legend swatch"
import sys; sys.path.insert(0, sys.argv[1]); from png import *
t = sys.argv[1]
w, h, rows = read(t + '/a.png')
W, H, pw, ph, x0, y0 = placed(t + '/a.err')
m = magenta(rows, w, h)
inside = [(x - x0, y - y0) for x, y in m if x0 <= x < x0 + pw and y0 <= y < y0 + ph]
below = [(x, y) for x, y in m if y >= y0 + ph]
assert len(inside) > 100, len(inside)
# The NoData of the warped DEM lies along its edges: within 12% of the picture's sides.
mx, my = pw * 0.12, ph * 0.12
centre = [(x, y) for x, y in inside if mx < x < pw - mx and my < y < ph - my]
assert not centre, centre[:5]
# ... on every side of it.
assert any(x < mx for x, y in inside) and any(x > pw - mx for x, y in inside), 'east and west'
assert any(y < my for x, y in inside) and any(y > ph - my for x, y in inside), 'north and south'
# The legend's hatched swatch, under the picture.
assert below, 'no hatched legend swatch'
w, h, rows = read(t + '/inner.png')
assert not magenta(rows, w, h), 'inner zone: no hatch'
EOF

finish
