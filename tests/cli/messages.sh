# CLI: messages stay one line with input bytes escaped; `save list` escapes member names;
# GDAL's messages go through voxkit's diagnostics (prefixed with the file, silenced by -q);
# a damaged Lua chunk is reported as Lua.
source "$(dirname "$0")/lib.sh"
D=$VOXKIT_SOURCE_DIR/test_data/dem

# one_line: stderr holds exactly one line
one_line() {
  checks=$((checks + 1))
  [[ $(wc -l <"$T/err") -eq 1 ]] || { fail "stderr is not one line"; sed 's/^/  stderr: /' "$T/err" >&2; }
}
no_control() {  # FILE: no control byte but tab and newline, no byte 0x7f
  checks=$((checks + 1))
  if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$1"; then fail "$1 holds control bytes"; fi
}

# a newline and an escape sequence inside a world.xml value
printf '<Rooms><Room><Grids><Grid><x>1\n\x1b[2J2</x><y>0</y><z>0</z></Grid></Grids></Room></Rooms>' \
  >"$T/world.xml"
run 1 "$VOXKIT" save rooms "$T/world.xml"
one_line
no_control "$T/err"
err_has "world.xml: offset 29: <x> does not hold an integer (expected an integer, found '1\\\\n\\\\x1b\[2J2')"

# member names with control bytes: escaped in the text listing, JSON as it was
python3 - "$T/ctl.zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("evil\x1b[31mred\nline.txt", b"x")
    z.writestr("plain.txt", b"y")
PY
run 0 "$VOXKIT" save list "$T/ctl.zip"
no_control "$T/out"
checks=$((checks + 1)); [[ $(wc -l <"$T/out") -eq 2 ]] || fail "save list: one line per member"
out_has 'evil\\x1b\[31mred\\nline.txt	'
out_has '^plain.txt	'
run 0 "$VOXKIT" save list "$T/ctl.zip" --json
out_has '"evil\\u001b\[31mred\\nline.txt"'
# and in an error message naming the member
run 1 "$VOXKIT" save extract "$T/ctl.zip" $'evil\x1b[31mred\nnope' -o "$T/x"
one_line
no_control "$T/err"
err_has 'no member named evil\\x1b\[31mred\\nnope'

# GDAL's messages: a truncated GeoTIFF fails with GDAL's reason in the error, no raw
# "ERROR 1:" lines; -q leaves only the error
head -c 20000 "$D/jacksboro_crop.tif" >"$T/cut.tif"
box=(--center 7500,0,7500 --size 96,40,96 --voxel-size 4)
run 1 "$VOXKIT" bake "$T/cut.tif" -o "$T/cut.vxz" "${box[@]}"
checks=$((checks + 1)); grep -q '^ERROR' "$T/err" && fail "raw GDAL lines on stderr"
err_has "cut.tif: .*GDAL: "
run 1 "$VOXKIT" -q bake "$T/cut.tif" -o "$T/cut.vxz" "${box[@]}"
one_line
err_has "^voxkit: .*cut.tif: "
# a GeoTIFF tag GDAL ignores: a warning naming the file, silenced by -q
python3 - "$D/jacksboro_crop.tif" "$T/tag.tif" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[156] ^= 0xff  # GeoPixelScale's type: GDAL ignores the tag
open(sys.argv[2], "wb").write(b)
PY
run 1 "$VOXKIT" bake "$T/tag.tif" -o "$T/tag.vxz" "${box[@]}"
checks=$((checks + 1)); grep -q '^ERROR\|^Warning' "$T/err" && fail "raw GDAL lines on stderr"
err_has "tag.tif: .*GeoPixelScale"
run 1 "$VOXKIT" -q bake "$T/tag.tif" -o "$T/tag.vxz" "${box[@]}"
one_line

# a Lua chunk with one damaged byte is read as Lua and says where
python3 - "$T/bad.lua" <<'PY'
import sys
t = bytearray(("return {" + ", ".join(["0"] * 9826) + "}\n").encode())
t[20] = 0x01
open(sys.argv[1], "wb").write(t)
PY
run 1 "$VOXKIT" chunk convert "$T/bad.lua" --to b64 -o "$T/bad.b64"
err_has "bad.lua: offset 20: expected a number (expected an integer, found 0x01) \[read as lua"
checks=$((checks + 1)); grep -q "LZ4" "$T/err" && fail "a Lua chunk reported as LZ4"
# An unknown verb or subcommand is named, with the ones there are; a bad number says so briefly.
run 2 "$VOXKIT" frobnicate
err_has "unknown verb 'frobnicate' (expected one of: bake,"
run 2 "$VOXKIT" -q -j 2 edit frob
err_has "unknown subcommand 'frob' (expected one of: pack, unpack, apply, replay, diff); see 'voxkit edit --help'"
run 2 "$VOXKIT" bake "$T/none.tif" -o "$T/none.vxz" --voxel-size -1
err_has "must be a number above 0, got -1"
checks=$((checks + 1)); [[ $(wc -c <"$T/err") -lt 300 ]] || fail "the range message is too long"
# Every verb's help ends with examples and names the global flags.
checks=$((checks + 1))
for v in $("$VOXKIT" --help | awk '/^Subcommands:/{on=1; next} on && !NF {exit} on {print $1}'); do
  subs=$("$VOXKIT" "$v" --help | awk '/^Subcommands:/{on=1; next} on && !NF {exit} on {print $1}')
  paths=()
  if [[ -n $subs ]]; then for s in $subs; do paths+=("$v $s"); done; else paths=("$v"); fi
  for path in "${paths[@]}"; do
    help=$("$VOXKIT" $path --help)
    grep -q "Example" <<<"$help" || fail "voxkit $path --help has no example"
    grep -q "Global flags" <<<"$help" || fail "voxkit $path --help does not name the global flags"
  done
done
# --version names the libraries whose versions decide output bytes; --json as an object.
run 0 "$VOXKIT" --version
out_has "^voxkit "
for lib in zlib lz4 gdal assimp tbb meshoptimizer; do out_has "  $lib "; done
run 0 "$VOXKIT" --version --json
checks=$((checks + 1))
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["voxkit"] and {"zlib","lz4","gdal","assimp","tbb"} <= set(j["libraries"])' "$T/out" || fail "--version --json"
finish
