# CLI: messages stay one line with input bytes escaped.
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

finish
