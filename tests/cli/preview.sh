# CLI: voxkit preview and octree info --map pictures: the margin (where the picture sits,
# its border and background), north up in the zone views and the octree map, no checkerboard
# in the demo's hillshade, the same bytes for any -j (docs/preview.md).
source "$(dirname "$0")/lib.sh"
D=$VOXKIT_SOURCE_DIR/test_data/dem

# Reads a PNG of voxkit's encoder (8-bit RGB, unfiltered rows) for the checks below.
cat >"$T/png.py" <<'EOF'
import struct, sys, zlib
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
    rows = [raw[y * (3 * w + 1):(y + 1) * (3 * w + 1)] for y in range(h)]
    assert all(r[0] == 0 for r in rows)
    return w, h, [r[1:] for r in rows]
def px(rows, x, y):
    return tuple(rows[y][3 * x:3 * x + 3])
def lum(rows, x, y):
    return sum(px(rows, x, y))
def placed(err):
    # "... (WxH, picture PWxPH at X,Y)" from the note on stderr.
    import re
    m = re.search(r'\((\d+)x(\d+), picture (\d+)x(\d+) at (\d+),(\d+)\)', open(err).read())
    return tuple(int(v) for v in m.groups())
EOF

# A zone whose north-east quarter is high: an ASCII grid lists its north row first.
python3 - "$T/ne.asc" <<'EOF'
import sys
n = 17
rows = [' '.join('30' if (r < 8 and c > 8) else '5' for c in range(n)) for r in range(n)]
open(sys.argv[1], 'w').write(f'ncols {n}\nnrows {n}\nxllcorner 0\nyllcorner 0\ncellsize 2\n' + '\n'.join(rows) + '\n')
EOF
run 0 "$VOXKIT" bake "$T/ne.asc" -o "$T/ne.vxz" --voxel-size 1 --border 1
for view in top chunks slice; do
  run 0 "$VOXKIT" preview "$T/ne.vxz" -o "$T/ne_$view.png" --view "$view"
  err_has "picture .* at "
  cp "$T/err" "$T/ne_$view.err"
done
# The margin: the picture at (58, 30) (its width is under 600), a grey border around it,
# the dark background in the corners; the high quarter top right in the top view.
checks=$((checks + 1))
python3 - "$T" <<'EOF' || fail "top view: margin or north"
import sys; sys.path.insert(0, sys.argv[1]); from png import *
t = sys.argv[1]
w, h, rows = read(t + '/ne_top.png')
W, H, pw, ph, x0, y0 = placed(t + '/ne_top.err')
assert (W, H) == (w, h) and (x0, y0) == (58, 30) and pw < 600, (W, H, pw, ph, x0, y0)
assert px(rows, x0 - 1, y0 - 1) == (150, 150, 150) and px(rows, x0 + pw, y0 + ph) == (150, 150, 150)
assert px(rows, 0, h - 1) == (32, 32, 32) and px(rows, w - 1, 0) == (32, 32, 32)
q = lambda fx, fy: sum(lum(rows, x0 + int(pw * (fx + dx / 10)), y0 + int(ph * (fy + dy / 10)))
                       for dx in range(1, 4) for dy in range(1, 4))
ne, sw, nw, se = q(0.6, 0.1), q(0.1, 0.6), q(0.1, 0.1), q(0.6, 0.6)
assert ne > sw + 200 and ne > nw + 200 and ne > se + 200, (ne, sw, nw, se)
EOF
# The chunks view: the same margin, the high quarter's chunks (more surface) top right too.
checks=$((checks + 1))
python3 - "$T" <<'EOF' || fail "chunks view: margin"
import sys; sys.path.insert(0, sys.argv[1]); from png import *
t = sys.argv[1]
w, h, rows = read(t + '/ne_chunks.png')
W, H, pw, ph, x0, y0 = placed(t + '/ne_chunks.err')
s = 2 if pw >= 600 else 1
assert (x0, y0) == (58 * s, 30 * s) and px(rows, x0 - 1, y0 - 1) == (150, 150, 150)
EOF

# The octree map: north up too. The synthetic world's modified voxels span z from the JSON
# bounds; the map's topmost coloured row is the highest z (4 voxels a pixel, world z =
# 512 - 4 (row + 0.5) over a 1024 world).
run 0 "$VOXKIT" octree synth -o "$T/s.dat" --max-depth 10 --tunnels 8 --veins 6 --seed 3
run 0 "$VOXKIT" octree info "$T/s.dat" --json --map "$T/map.png" --map-cell 4
checks=$((checks + 1))
python3 - "$T" <<'EOF' || fail "octree map: north up"
import json, sys; sys.path.insert(0, sys.argv[1]); from png import *
t = sys.argv[1]
b = json.load(open(t + '/out'))['modified']['bounds']
w, h, rows = read(t + '/map.png')
x0, y0, n = 58, 30, 256
assert px(rows, x0 - 1, y0 - 1) == (150, 150, 150) and px(rows, x0 + n, y0 + n) == (150, 150, 150)
hit = [r for r in range(n) if any(px(rows, x0 + c, y0 + r) != (28, 28, 28) for c in range(n))]
col = [c for c in range(n) if any(px(rows, x0 + c, y0 + r) != (28, 28, 28) for r in range(n))]
z_top, z_bottom = 512 - 4 * hit[0], 512 - 4 * (hit[-1] + 1)
x_left, x_right = -512 + 4 * col[0], -512 + 4 * (col[-1] + 1)
assert z_bottom <= b['min'][2] < z_bottom + 4 and z_top - 4 <= b['max'][2] < z_top, (z_top, z_bottom, b)
assert x_left <= b['min'][0] < x_left + 4 and x_right - 4 <= b['max'][0] < x_right, (x_left, x_right, b)
EOF

# The demo zone (scripts/demo.sh): its top view once had a fine checkerboard, the flat
# triangles of a 75 m heightmap at 25 m voxels shaded one by one. The high-frequency energy
# of the picture (|4c - 4 neighbours| of r+g+b) was 11.1; it is 3.2 with smoothed normals.
run 0 "$VOXKIT" bake "$D/jacksboro_crop.tif" -o "$T/demo.vxz" --center 7000,600,8000 --size 12000,100,14000 \
  --voxel-size 25
run 0 "$VOXKIT" -j 1 preview "$T/demo.vxz" -o "$T/demo1.png"
cp "$T/err" "$T/demo.err"
run 0 "$VOXKIT" -j 3 preview "$T/demo.vxz" -o "$T/demo3.png"
same "$T/demo1.png" "$T/demo3.png"
checks=$((checks + 1))
python3 - "$T" <<'EOF' || fail "demo top view: checkerboard"
import sys; sys.path.insert(0, sys.argv[1]); from png import *
t = sys.argv[1]
w, h, rows = read(t + '/demo1.png')
W, H, pw, ph, x0, y0 = placed(t + '/demo.err')
assert (pw, ph, x0, y0) == (481, 561, 58, 30), (pw, ph, x0, y0)
L = [[rows[y0 + y][3 * (x0 + x)] + rows[y0 + y][3 * (x0 + x) + 1] + rows[y0 + y][3 * (x0 + x) + 2]
      for x in range(pw)] for y in range(ph)]
tot = n = 0
for y in range(1, ph - 1):
    a, b, c = L[y - 1], L[y], L[y + 1]
    for x in range(1, pw - 1):
        tot += abs(4 * b[x] - b[x - 1] - b[x + 1] - a[x] - c[x]); n += 1
assert tot / n < 6, tot / n
EOF
for j in 1 3; do
  run 0 "$VOXKIT" -j $j preview "$T/demo.vxz" -o "$T/slice$j.png" --slice x=100
  run 0 "$VOXKIT" -j $j preview "$T/demo.vxz" -o "$T/chunks$j.png" --view chunks
done
same "$T/slice1.png" "$T/slice3.png"
same "$T/chunks1.png" "$T/chunks3.png"
# The title names the file without its folder; stdin reads as its display name.
run_in 0 "$T/demo.vxz" "$VOXKIT" preview - -o "$T/stdin.png" --view chunks
err_has "chunks view of"
finish
