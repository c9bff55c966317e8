# CLI: voxkit zone extract (every part, raw/RLE/PNG), and pack, unpack and rle taking a zone.
source "$(dirname "$0")/lib.sh"
DEM="$VOXKIT_SOURCE_DIR/test_data/dem"

run 0 "$VOXKIT" bake "$DEM/jacksboro_crop.tif" -o "$T/z.vxz" --center 7000,600,8000 --size 64,40,48 \
  --voxel-size 2 --splat "$DEM/jacksboro_splat.png" --layers grass,rock,sand,snow
run 0 "$VOXKIT" info "$T/z.vxz" --json
read -r NX NY NZ < <(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["details"]["cells"]; print(*c)' "$T/out")
S=$(( (NX + 1) * (NY + 1) * (NZ + 1) )); C=$(( (NX + 1) * (NZ + 1) ))

# The grid raw and as RLE; rle decode of the RLE gives the raw bytes; rle taking the zone too.
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part grid -o "$T/grid.raw" --json
out_has "\"values\": $S"
checks=$((checks + 1)); [[ $(wc -c <"$T/grid.raw") -eq $S ]] || fail "grid.raw size"
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part grid -o "$T/grid.rle"
run 0 "$VOXKIT" rle decode "$T/grid.rle" -o "$T/grid2.raw"
same "$T/grid.raw" "$T/grid2.raw"
run 0 "$VOXKIT" rle encode "$T/z.vxz" -o "$T/grid3.rle"
same "$T/grid.rle" "$T/grid3.rle"
run 0 "$VOXKIT" rle decode "$T/z.vxz" -o "$T/grid4.raw"
same "$T/grid.raw" "$T/grid4.raw"
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part baked -o "$T/baked.raw"
same "$T/grid.raw" "$T/baked.raw"

# The chunk blob equals pack of the raw grid with the zone's cells; pack and unpack take the zone.
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part blob -o "$T/blob.bin"
run 0 "$VOXKIT" pack "$T/grid.raw" --cells "$NX,$NY,$NZ" -o "$T/blob2.bin"
same "$T/blob.bin" "$T/blob2.bin"
run 0 "$VOXKIT" pack "$T/z.vxz" -o "$T/blob3.bin"
same "$T/blob.bin" "$T/blob3.bin"
run 0 "$VOXKIT" unpack "$T/z.vxz" -o "$T/grid5.raw"
same "$T/grid.raw" "$T/grid5.raw"
run 0 "$VOXKIT" unpack "$T/z.vxz" --chunk 0,0,0 -o "$T/c0.raw"
run 0 "$VOXKIT" unpack "$T/blob.bin" --chunk 0,0,0 -o "$T/c1.raw"
same "$T/c0.raw" "$T/c1.raw"

# Height: float32 raw per column, and a 16-bit PNG; splat: raw layers and an RGBA control map.
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part height -o "$T/h.f32"
checks=$((checks + 1)); [[ $(wc -c <"$T/h.f32") -eq $((4 * C)) ]] || fail "height raw size"
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part height -o "$T/h.png"
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part splat -o "$T/s.raw"
checks=$((checks + 1)); [[ $(wc -c <"$T/s.raw") -eq $((4 * C)) ]] || fail "splat raw size"
run 0 "$VOXKIT" zone extract "$T/z.vxz" --part splat -o "$T/s.png" --json
out_has "layers 0-3 in R, G, B, A"
checks=$((checks + 1))
python3 - "$T/h.png" "$T/s.png" "$NX" "$NZ" <<'PY' || fail "PNG headers"
import struct, sys
nx, nz = int(sys.argv[3]), int(sys.argv[4])
for path, depth, ctype in ((sys.argv[1], 16, 0), (sys.argv[2], 8, 6)):
    b = open(path, "rb").read()
    assert b[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">IIBB", b[16:26]) == (nx + 1, nz + 1, depth, ctype), path
PY
# The control map holds the raw weights, row 0 the far z edge.
checks=$((checks + 1))
python3 - "$T/s.png" "$T/s.raw" "$NX" "$NZ" <<'PY' || fail "splat PNG pixels"
import struct, sys, zlib
b = open(sys.argv[1], "rb").read(); raw = open(sys.argv[2], "rb").read()
w, d = int(sys.argv[3]) + 1, int(sys.argv[4]) + 1
i, idat = 8, b""
while i < len(b):
    n, = struct.unpack(">I", b[i:i + 4])
    if b[i + 4:i + 8] == b"IDAT": idat += b[i + 8:i + 8 + n]
    i += 12 + n
px = zlib.decompress(idat)
for z in range(d):
    row = px[(d - 1 - z) * (4 * w + 1):(d - z) * (4 * w + 1)]
    assert row[0] == 0
    for x in range(w):
        for k in range(4):
            assert row[1 + 4 * x + k] == raw[k * w * d + z * w + x], (x, z, k)
PY

# Bad requests: a part without that form, a never-painted zone, a zone with no recorded cut.
run 2 "$VOXKIT" zone extract "$T/z.vxz" --part grid -o "$T/g.png"
err_has "not a picture"
run 2 "$VOXKIT" zone extract "$T/z.vxz" --part height -o "$T/h.rle"
err_has "no RLE form"
run 1 "$VOXKIT" zone extract "$T/z.vxz" --part paint -o "$T/p.raw"
err_has "never painted"
absent "$T/p.raw"
run 2 "$VOXKIT" zone extract "$T/z.vxz" --part hole -o "$T/hole.png"
run 2 "$VOXKIT" zone extract "$T/z.vxz" --part nothing -o "$T/x"
err_has "unknown part 'nothing'"
run 2 "$VOXKIT" pack "$T/grid.raw" -o "$T/b.bin"
err_has "needs its cells"
no_temp_left "$T"
finish
