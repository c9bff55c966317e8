# CLI: every decoding verb on small files whose headers claim huge sizes, under a memory
# limit: each must refuse with a data error naming the file, never allocate what a header
# claims before the data proves it, and never crash. Output caps: octree reset --max-output,
# mesh --max-output. Range checks: octree info/diff --block on the deepest worlds.
source "$(dirname "$0")/lib.sh"

# A limit far below the 1-2 GiB the claims below would cost, well above what the binary and
# its libraries map at start.
LIMIT_KB=${VOXKIT_LIMIT_KB:-786432}  # 768 MiB of address space

# limited EXPECTED_EXIT CMD...: run() under the address-space limit; never "out of memory".
limited() {
  local want=$1; shift
  checks=$((checks + 1))
  (ulimit -v "$LIMIT_KB"; exec "$@") >"$T/out" 2>"$T/err" </dev/null
  local got=$?
  if [[ $got -ne $want ]]; then
    fail "exit $got (expected $want) under ulimit -v $LIMIT_KB: $*"; sed 's/^/  stderr: /' "$T/err" >&2
  fi
  checks=$((checks + 1))
  if grep -q "out of memory" "$T/err"; then fail "ran out of memory: $*"; fi
}

# The limit leaves room for a real job: a small zone imports and meshes under it.
U="$VOXKIT_SOURCE_DIR/test_data/unity"
limited 0 "$VOXKIT" -j 1 zone import-unity "$U/quarry.asset" -o "$T/q.vxz"
limited 0 "$VOXKIT" -j 1 mesh "$T/q.vxz" -o "$T/q.glb"

# --- RLE: 5 bytes claiming 2^31 - 1 samples (the issue's reproducer), and 2^30 with no tokens.
printf '\xff\xff\xff\xff\x07' >"$T/huge.rle"
limited 1 "$VOXKIT" -j 1 rle decode "$T/huge.rle" -o "$T/huge.out"
err_has "huge.rle: offset 5: stream ends inside the token varint"
absent "$T/huge.out"
printf '\x80\x80\x80\x80\x04' >"$T/g30.rle"
limited 1 "$VOXKIT" -j 1 rle decode "$T/g30.rle" -o "$T/g30.out"
err_has "g30.rle: offset 5: stream ends inside the token varint"
checks=$((checks + 1))
(ulimit -v "$LIMIT_KB"; exec "$VOXKIT" -j 1 rle decode - -o "$T/stdin.out") <"$T/huge.rle" >"$T/out" 2>"$T/err"
[[ $? -eq 1 ]] || fail "rle decode from stdin: wrong exit code"
err_has "<stdin>: offset 5"
# A tiny stream whose run tokens really make up its count still decodes: 2^24 + 1 samples
# from 11 bytes (a claim over the trusted size is proven by its tokens first).
printf '\x81\x80\x80\x08\x81\x80\x80\x10\x00\x02\x07' >"$T/proven.rle"
limited 0 "$VOXKIT" -j 1 rle decode "$T/proven.rle" -o "$T/proven.out"
checks=$((checks + 1))
[[ $(stat -c %s "$T/proven.out") -eq 16777217 ]] || fail "proven.rle decoded to the wrong size"
# pack reads an RLE grid whose count matches --cells (1023^3 cells = 2^30 samples).
limited 1 "$VOXKIT" -j 1 pack "$T/g30.rle" --from rle --cells 1023,1023,1023 -o "$T/p.blob"
err_has "g30.rle: offset 5"
limited 1 "$VOXKIT" -j 1 info "$T/g30.rle" --cells 1023,1023,1023
err_has "g30.rle"

# --- chunk blob: one 2^30-sample chunk (1023^3 cells, 65536-cell chunks) whose stream is
# only a count; the header is a real one from `voxkit pack` with its sizes changed.
head -c 27 /dev/zero >"$T/tiny.raw"
run 0 "$VOXKIT" pack "$T/tiny.raw" --cells 2,2,2 --chunk-cells 65536 -o "$T/tiny.blob"
python3 - "$T/tiny.blob" "$T/huge.blob" "$T/short.blob" <<'PY'
import struct, sys, zlib
for path, stream in ((sys.argv[2], [0x80, 0x80, 0x80, 0x80, 0x04]), (sys.argv[3], [0x05, 0x0b, 0x07])):
    head = bytearray(open(sys.argv[1], 'rb').read()[:44])
    body = struct.pack('<i', 0) + bytes(stream)
    struct.pack_into('<III', head, 8, 1023, 1023, 1023)  # cells
    struct.pack_into('<I', head, 36, len(body) - 4)       # blob length
    struct.pack_into('<I', head, 40, zlib.crc32(body))    # CRC of the offsets and the blob
    open(path, 'wb').write(bytes(head) + body)
PY
limited 1 "$VOXKIT" -j 1 unpack "$T/huge.blob" -o "$T/u.raw"
err_has "huge.blob: offset 53: chunk 0 (0,0,0): stream ends inside the token varint"
absent "$T/u.raw"
limited 1 "$VOXKIT" -j 1 unpack "$T/huge.blob" --chunk 0 0 0 -o "$T/u0.raw"
err_has "huge.blob: offset 53"
# The same grid whose one stream holds 5 samples: refused before the grid is allocated.
limited 1 "$VOXKIT" -j 1 unpack "$T/short.blob" -o "$T/s.raw"
err_has "short.blob: offset 48: chunk 0 (0,0,0): stream has the wrong sample count (expected 1073741824, found 5)"

# --- Unity asset: nx = ny = nz = 1023 and a gridRle of only a count.
sed -e 's/^  nx: .*/  nx: 1023/' -e 's/^  ny: .*/  ny: 1023/' -e 's/^  nz: .*/  nz: 1023/' \
    -e 's/^  gridRle: .*/  gridRle: 8080808004/' -e 's/^  paintRle: .*/  paintRle: /' \
    -e 's/^  baseGridRle: .*/  baseGridRle: /' "$U/quarry.asset" >"$T/huge.asset"
limited 1 "$VOXKIT" -j 1 zone import-unity "$T/huge.asset" -o "$T/h.vxz"
err_has "huge.asset"
err_has "'gridRle' (line 20) holds a bad RLE stream: stream byte 5: stream ends inside the token varint"
absent "$T/h.vxz"
limited 1 "$VOXKIT" -j 1 mesh "$T/huge.asset" -o "$T/h.glb"
err_has "huge.asset"
limited 1 "$VOXKIT" -j 1 info "$T/huge.asset"
err_has "huge.asset"

# --- zone file: the quarry zone with 1023^3 cells and a GRID section of only a count; and
# the quarry zone with a number too large for a double in its JSON header.
python3 - "$T/q.vxz" "$T/huge.vxz" "$T/inf.vxz" <<'PY'
import json, struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
head, pos, sections = data[:16], 16, []
while pos < len(data):
    tag, flags, length = struct.unpack_from('<4sIQ', data, pos)
    sections.append([tag, flags, data[pos + 20:pos + 20 + length]])
    pos += 20 + length
def write(path, secs):
    out = bytearray(head)
    struct.pack_into('<I', out, 12, len(secs))
    for tag, flags, payload in secs:
        h = struct.pack('<4sIQ', tag, flags, len(payload))
        out += h + struct.pack('<I', zlib.crc32(h + payload)) + payload
    open(path, 'wb').write(bytes(out))
meta = json.loads(sections[0][2])
meta['cells'] = [1023, 1023, 1023]
meta['edit_box'] = {'min': [0, 0, 0], 'max': [1023, 1023, 1023]}
write(sys.argv[2], [[b'META', 0, json.dumps(meta, separators=(',', ':')).encode()],
                    [b'GRID', 0, bytes([0x80, 0x80, 0x80, 0x80, 0x04])]])
text = sections[0][2].decode().replace('"voxel_size":0.5', '"voxel_size":1e400')
assert '1e400' in text
write(sys.argv[3], [[b'META', 0, text.encode()]] + sections[1:])
PY
limited 1 "$VOXKIT" -j 1 mesh "$T/huge.vxz" -o "$T/z.glb"
err_has "huge.vxz"
err_has "stream ends inside the token varint"
limited 1 "$VOXKIT" -j 1 info "$T/huge.vxz"
err_has "huge.vxz"
limited 1 "$VOXKIT" -j 1 zone export-unity "$T/huge.vxz" "$T/huge.asset" -o "$T/e.asset"
err_has "huge.vxz"
# 1e400 in the JSON header: a data error with file and offset, not the JSON library's.
run 1 "$VOXKIT" info "$T/inf.vxz"
err_has "inf.vxz: offset [0-9]*: .*JSON header holds a number out of range (expected a finite number, found 1e400)"
run 1 "$VOXKIT" mesh "$T/inf.vxz" -o "$T/inf.glb"
err_has "inf.vxz: offset [0-9]*: .*1e400"

# --- terrain.dat: maxDepth 23, a modified root branch of eight modified leaves (33 bytes).
# Reset outside a small box, the top 13 levels expand into 8^12 leaves per leaf (216 GB).
printf '\x17\x00\x00\x00\x02\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x00\x00\x00\x00' >"$T/deep.dat"
limited 1 timeout 60 "$VOXKIT" -j 1 octree reset "$T/deep.dat" --any-depth --keep-box 0,0,0,8,8,8 -o "$T/deep.out"
err_has "reset output would grow past the output cap (expected at most 4294967296 bytes"
absent "$T/deep.out"
limited 1 "$VOXKIT" -j 1 octree reset "$T/deep.dat" --any-depth --keep-box 0,0,0,8,8,8 --dry-run --max-output 1000
err_has "expected at most 1000 bytes"
# Depth 10: the same tree resets, and a cap below its output refuses it.
printf '\x0a\x00\x00\x00\x02\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x03\xff\x01\x00\x00\x00\x00' >"$T/d10.dat"
run 0 "$VOXKIT" octree reset "$T/d10.dat" --keep-box 0,0,0,8,8,8 -o "$T/d10.out"
run 1 "$VOXKIT" octree reset "$T/d10.dat" --keep-box 0,0,0,8,8,8 -o "$T/d10b.out" --max-output 20
err_has "reset output would grow past the output cap"
absent "$T/d10b.out"

# --- octree info / diff with 1-4 voxel blocks on a 2^24 world (one modified leaf): a usage
# error, not a 72-bit shift and a write through an unchecked index.
printf '\x18\x00\x00\x00\x03\xff\x00\x00\x00\x00\x00' >"$T/d24.dat"
for b in 1 2 4; do
  limited 2 "$VOXKIT" -j 1 octree info "$T/d24.dat" --any-depth --block $b
  err_has "too fine"
  limited 2 "$VOXKIT" -j 1 octree diff "$T/d24.dat" "$T/d24.dat" --any-depth --block $b
  err_has "too fine"
done

# --- a 198-byte GeoTIFF claiming 16384^2 float pixels (1 GiB) in one strip past its end: the
# heightmap is read strip by strip, so the first missing strip refuses it.
python3 - "$T/huge.tif" <<'PY'
import struct, sys
w = h = 16384
entries = [(256, 4, w), (257, 4, h), (258, 3, 32), (259, 3, 1), (262, 3, 1), (273, 4, 4096),
           (277, 3, 1), (278, 4, h), (279, 4, w * h * 4), (339, 3, 3)]
ifd = struct.pack('<H', len(entries))
for tag, typ, v in entries:
    ifd += struct.pack('<HHI', tag, typ, 1) + (struct.pack('<HH', v, 0) if typ == 3 else struct.pack('<I', v))
open(sys.argv[1], 'wb').write(b'II*\x00' + struct.pack('<I', 8) + ifd + struct.pack('<I', 0) + bytes(64))
PY
limited 1 "$VOXKIT" -j 1 bake "$T/huge.tif" -o "$T/t.vxz" --terrain-size 100,10,100 --box 0,0,0,10,10,10
err_has "huge.tif: cannot read the raster"
absent "$T/t.vxz"

# --- the other decoders: sizes in their headers are checked against what the input can hold.
printf '\x1f\x00' >"$T/tiny.lz4"
limited 1 "$VOXKIT" -j 1 lz4 decompress "$T/tiny.lz4" --size 2000000000 --max-size 2113929216 -o "$T/l.out"
err_has "tiny.lz4"
limited 1 "$VOXKIT" -j 1 chunk convert "$T/tiny.lz4" --from lz4 --to bin -o "$T/c.out"
err_has "tiny.lz4"
printf 'AAAA' >"$T/small.b64"
limited 0 "$VOXKIT" -j 1 b64 decode "$T/small.b64" -o "$T/small.bin"
# A ZIP member that claims 4 GiB from a few deflated bytes.
python3 - "$T/claim.save" <<'PY'
import struct, sys, zlib
name = b'world.xml'
comp = zlib.compressobj(9, zlib.DEFLATED, -15)
data = comp.compress(b'<World/>') + comp.flush()
crc, usize = zlib.crc32(b'<World/>'), 0xfffffffe
local = struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, 8, 0, 0, crc, len(data), usize, len(name), 0) + name
central = struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, 8, 0, 0, crc, len(data), usize,
                      len(name), 0, 0, 0, 0, 0, 0) + name
end = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 1, 1, len(central), len(local) + len(data), 0)
open(sys.argv[1], 'wb').write(local + data + central + end)
PY
limited 1 "$VOXKIT" -j 1 save extract "$T/claim.save" world.xml -o "$T/w.xml" --max-input 8589934592
err_has "claim.save"
limited 1 "$VOXKIT" -j 1 octree info "$T/claim.save"
err_has "claim.save"

# --- melt: cells claiming a gigabyte module (and its 2 GB region grid) over a small file.
head -c 4096 /dev/zero >"$T/small.ice"
printf 'x,y,z,radius,amount\n1,1,1,1,1\n' >"$T/hits.csv"
limited 1 "$VOXKIT" -j 1 melt "$T/small.ice" "$T/hits.csv" --cells 1000,1000,1000 -o "$T/m.out"
err_has "small.ice: offset 4096: module size does not match the cells"
absent "$T/m.out"
head -c 18513 /dev/zero >"$T/m.ice"
limited 1 "$VOXKIT" -j 1 melt "$T/m.ice" "$T/hits.csv" --cells 32,16,32 --regions "$T/small.ice" -o "$T/m.out"
err_has "small.ice: offset 4096: region grid size does not match the cells"
absent "$T/m.out"

# --- mesh output cap: an estimate over --max-output refuses before the export.
# --- Edit logs: a .vxlog header claiming 2^40 network records, and an int64 list of one
# edit against a zone: refused or applied without allocating what the header claims.
python3 - "$T/huge.vxlog" <<'PY'
import struct, sys, zlib
h = b"\x89VXL\r\n\x1a\n" + struct.pack("<HHIIIIIQI", 1, 0, 1, 0, 0, 0, 0, 1 << 40, 0)
open(sys.argv[1], "wb").write(h + struct.pack("<I", zlib.crc32(h)) + b"\0" * 16)
PY
limited 1 "$VOXKIT" -j 1 edit apply "$T/q.vxz" "$T/huge.vxlog" -n
err_has "huge.vxlog"

run 1 "$VOXKIT" mesh "$T/q.vxz" -o "$T/cap.obj" --max-output 1000
err_has "q.vxz: obj export would write about [0-9]* bytes, over the output cap (expected at most 1000 bytes"
absent "$T/cap.obj"
run 0 "$VOXKIT" mesh "$T/q.vxz" -o "$T/cap.obj"

# --- Foliage: a zone whose FOLI section claims 2^32 - 1 trees in a
# payload of a few hundred bytes (CRC fixed, so only the counts are wrong).
limited 0 "$VOXKIT" -j 1 foliage bake "$T/q.vxz" -o "$T/qf.vxz"
python3 - "$T/qf.vxz" "$T/qhuge.vxz" <<'PY'
import struct, sys, zlib
b = bytearray(open(sys.argv[1], "rb").read())
n, = struct.unpack_from("<I", b, 12)
pos = 16
for _ in range(n):
    tag, flags, length, crc = struct.unpack_from("<4sIQI", b, pos)
    if tag == b"FOLI":
        p = pos + 20
        struct.pack_into("<I", b, p + 20, 0xFFFFFFFF)
        struct.pack_into("<I", b, pos + 16, zlib.crc32(bytes(b[p:p + length]), zlib.crc32(bytes(b[pos:pos + 16]))))
    pos += 20 + length
open(sys.argv[2], "wb").write(b)
PY
limited 1 "$VOXKIT" -j 1 foliage check "$T/qhuge.vxz"
err_has "qhuge.vxz: offset [0-9]*: section FOLI (foliage anchors): payload length does not match its counts"
limited 1 "$VOXKIT" -j 1 info "$T/qhuge.vxz"

# --- Terrain hole cut: an HCUT section claiming 65536 x 65536 cells (4 GiB of previous
# values) in a 74-byte payload, appended with a correct CRC.
python3 - "$T/q.vxz" "$T/qcut.vxz" <<'PY'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
n, = struct.unpack_from("<I", b, 12)
pos, secs = 16, []
for _ in range(n):
    tag, flags, length, crc = struct.unpack_from("<4sIQI", b, pos)
    if tag != b"HCUT": secs.append(b[pos:pos + 20 + length])
    pos += 20 + length
payload = struct.pack("<II3d3d4i", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 65536, 65536) + b"\x01\x01"
head = b"HCUT" + struct.pack("<IQ", 0, len(payload))
secs.append(head + struct.pack("<I", zlib.crc32(payload, zlib.crc32(head))) + payload)
out = b[:12] + struct.pack("<I", len(secs)) + b"".join(secs)
open(sys.argv[2], "wb").write(out)
PY
limited 1 "$VOXKIT" -j 1 info "$T/qcut.vxz"
err_has "qcut.vxz: offset [0-9]*: section HCUT (terrain hole cut): payload length does not match the cut's size"
limited 1 "$VOXKIT" -j 1 zone hole-mask "$T/qcut.vxz" -o "$T/qcut.png"
absent "$T/qcut.png"
finish
