# CLI: messages stay one line with input bytes escaped; `save list` escapes member names.
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

finish
