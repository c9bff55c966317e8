# CLI: damaged GeoTIFFs (the demo DEM truncated, header and IFD bytes flipped, strip offsets
# zeroed) are data errors naming the file: exit 1, never a usage error, a crash or a hang.
# A flipped count or inline value can leave a file GDAL reads as another valid raster (a
# padding byte, an ignored optional tag): those may bake (exit 0), never exit 2.
source "$(dirname "$0")/lib.sh"
dem=$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_crop.tif
mkdir "$T/d"
python3 - "$dem" "$T/d" <<'PY'
import struct, sys
src, out = sys.argv[1], sys.argv[2]
b = open(src, "rb").read()
def put(group, name, data):
    open(f"{out}/{group}_{name}.tif", "wb").write(data)
def flip(p):
    d = bytearray(b)
    d[p] ^= 0xff
    return d
# broken: truncations (inside the header, the IFD, the tag values and the strips), the
# strip offsets zeroed, a flipped header byte, a flipped tag or type of every entry GDAL
# needs to read or place the samples
for n in [0, 1, 4, 7, 8, 9, 20, 100, 150, 217, 218, 260, 300, 340, 420, 456, 470] + \
         list(range(600, len(b), 2100)) + [len(b) - 1]:
    put("broken", f"cut{n:05d}", b[:n])
for p in range(8):
    put("broken", f"flip{p:05d}", flip(p))
ifd = struct.unpack("<I", b[4:8])[0]
count = struct.unpack("<H", b[ifd:ifd + 2])[0]
needed = {256, 257, 258, 259, 273, 279, 33550, 33922, 34735, 34736, 34737}
for i in range(count):
    e = ifd + 2 + 12 * i
    tag, typ, n, at = struct.unpack("<HHII", b[e:e + 12])
    size = {1: 1, 2: 1, 3: 2, 4: 4, 12: 8}.get(typ, 1) * n
    for p in range(e, e + 4):
        put("broken" if tag in needed else "any", f"flip{p:05d}", flip(p))
    # counts, and values held in the entry: damaged, but GDAL may read the file as another
    # valid one (or ignore the tag with a warning)
    for p in list(range(e + 4, e + 8)) + (list(range(e + 8, e + 8 + size)) if size <= 4 else []):
        put("any", f"flip{p:05d}", flip(p))
    if tag == 273:
        d = bytearray(b); d[at:at + 4] = bytes(4); put("broken", "zero_first", d)
        d = bytearray(b); d[at:at + 4 * n] = bytes(4 * n); put("broken", "zero_all", d)
PY
box=(--center 2000,0,2000 --size 96,40,96 --voxel-size 4)
run 0 "$VOXKIT" bake "$dem" -o "$T/zone.vxz" "${box[@]}"
broken=0 any=0 read=0
# Under the sanitizers (ten times slower to start), every sixth file: GDAL's reading is the
# same, and the release run covers them all.
stride=1
[[ -n ${VOXKIT_SANITIZED:-} ]] && stride=6
i=0
for f in "$T"/d/*.tif; do
  i=$((i + 1))
  (( (i - 1) % stride == 0 )) || continue
  name=$(basename "$f")
  checks=$((checks + 1))
  timeout 60 "$VOXKIT" bake "$f" -o "$T/out.vxz" "${box[@]}" >"$T/out" 2>"$T/err" </dev/null
  got=$?
  rm -f "$T/out.vxz"
  if [[ $name == broken_* ]]; then
    broken=$((broken + 1))
    [[ $got -eq 1 ]] || { fail "bake $name: exit $got (expected 1)"; sed 's/^/  stderr: /' "$T/err" >&2; }
  else
    any=$((any + 1))
    [[ $got -eq 0 ]] && read=$((read + 1))
    [[ $got -eq 0 || $got -eq 1 ]] ||
      { fail "bake $name: exit $got (expected 1, or 0 for a file GDAL reads)"; sed 's/^/  stderr: /' "$T/err" >&2; }
  fi
  if [[ $got -eq 1 ]] && ! grep -q "^voxkit: $f: " "$T/err"; then
    fail "bake $name: the message does not start with the file"; sed 's/^/  stderr: /' "$T/err" >&2
  fi
  checks=$((checks + 1))
  grep -q '^ERROR\|^Warning' "$T/err" && fail "bake $name: raw GDAL lines on stderr"
done
echo "$broken broken files (exit 1), $any damaged in counts or values ($read read as valid files)"
# rebake reads the heightmap the same way
run 1 "$VOXKIT" rebake "$T/zone.vxz" "$T/d/broken_zero_all.tif" -o "$T/re.vxz"
err_has "broken_zero_all.tif"
absent "$T/re.vxz"
finish
