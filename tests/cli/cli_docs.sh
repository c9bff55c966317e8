# CLI: the flag vocabulary's old spellings, --config and --print-config, man pages and shell
# completion generated from the declarations (docs/cli.md).
source "$(dirname "$0")/lib.sh"
demo="$VOXKIT_SOURCE_DIR/test_data/demo_grid.raw"
{ for i in $(seq 26); do printf '\xff'; done; printf '\x00'; } >"$T/g.raw"

# --- old spellings: still work, warn, and give the same bytes as the new ones
run 0 "$VOXKIT" pack "$T/g.raw" --cells 2,2,2 --chunk-cells 1 --from raw -o "$T/new.vxcb"
checks=$((checks + 1)); ! grep -q "is now" "$T/err" || fail "the new spelling warns"
run 0 "$VOXKIT" pack "$T/g.raw" --cells 2,2,2 --chunk-cells 1 --input-format raw -o "$T/old.vxcb"
err_has "'pack --input-format' is now '--from'"
same "$T/new.vxcb" "$T/old.vxcb"
run 0 "$VOXKIT" pack "$T/g.raw" --cells 2,2,2 --chunk-cells 1 --input-format=raw -o "$T/old2.vxcb"
err_has "is now '--from'"
same "$T/new.vxcb" "$T/old2.vxcb"
run 0 "$VOXKIT" -q unpack "$T/new.vxcb" --output-format rle -o "$T/old.rle"
checks=$((checks + 1)); [[ ! -s $T/err ]] || fail "-q does not silence the old-spelling warning"
run 0 "$VOXKIT" unpack "$T/new.vxcb" --to rle -o "$T/new.rle"
same "$T/old.rle" "$T/new.rle"
# an old spelling of one verb is not rewritten in another
run 2 "$VOXKIT" unpack "$T/new.vxcb" --input-format raw -o "$T/x"
# the old spelling is hidden from help
run 0 "$VOXKIT" pack --help
checks=$((checks + 1)); ! grep -q -- "--input-format" "$T/out" || fail "pack --help shows --input-format"
out_has "--from"
# b64 encode: -n is the old spelling of --no-newline
printf 'abc' >"$T/abc"
run 0 "$VOXKIT" b64 encode -n "$T/abc"
checks=$((checks + 1)); [[ $(cat "$T/out") == YWJj && $(wc -c <"$T/out") -eq 4 ]] || fail "b64 encode -n"
err_has "now '--no-newline'"
# octree reset: -n is --dry-run
run 0 "$VOXKIT" octree synth -o "$T/s.dat" --max-depth 10 --tunnels 4 --veins 2 --seed 3
run 0 "$VOXKIT" octree reset "$T/s.dat" -n --drop-box 0,0,0,100,100,100
out_has "dry run"
absent "$T/s.dat.bak"

# --- -o defaults to stdout; binary to a terminal stays refused (no terminal here: a pipe)
run 0 "$VOXKIT" caves label "$T/g.raw" --cells 2,2,2
checks=$((checks + 1)); [[ $(wc -c <"$T/out") -eq 54 ]] || fail "caves label to stdout by default: $(wc -c <"$T/out") bytes"

# --- --config and --print-config
run 0 "$VOXKIT" -j 2 --print-config pack "$T/g.raw" --cells 2,2,2 --chunk-cells 1 -o "$T/cfg.vxcb"
cp "$T/out" "$T/pack.toml"
checks=$((checks + 1)); grep -q '^\[pack\]' "$T/pack.toml" || fail "no [pack] section"
checks=$((checks + 1)); grep -q "^threads = '2'" "$T/pack.toml" || fail "global -j not kept"
checks=$((checks + 1)); grep -q "^cells = \\['2', '2', '2'\\]" "$T/pack.toml" || fail "cells not kept as a list"
checks=$((checks + 1)); grep -q "^# from = 'raw'" "$T/pack.toml" || fail "default not listed as a comment"
absent "$T/cfg.vxcb"  # --print-config runs nothing
run 0 "$VOXKIT" --config "$T/pack.toml" pack
same "$T/cfg.vxcb" "$T/new.vxcb"
# the command line wins over the file
run 0 "$VOXKIT" --config "$T/pack.toml" pack -o "$T/cfg2.vxcb"
same "$T/cfg2.vxcb" "$T/new.vxcb"
# sub-verbs: [verb.sub]
run 0 "$VOXKIT" --print-config rle encode "$T/g.raw" -o "$T/cfg.rle"
checks=$((checks + 1)); grep -q '^\[rle.encode\]' "$T/out" || fail "no [rle.encode] section"
cp "$T/out" "$T/rle.toml"
run 0 "$VOXKIT" --config "$T/rle.toml" rle encode
"$VOXKIT" rle encode "$T/g.raw" -o "$T/direct.rle"
same "$T/cfg.rle" "$T/direct.rle"
# a quote, a backslash and a newline in a value survive the round trip
weird="$T/a \"b\\c"
cp "$T/g.raw" "$weird"
run 0 "$VOXKIT" --print-config rle encode "$weird" -o "$T/w.rle"
cp "$T/out" "$T/weird.toml"
run 0 "$VOXKIT" --config "$T/weird.toml" rle encode
same "$T/w.rle" "$T/direct.rle"
# a missing or broken file, an unknown key
run 2 "$VOXKIT" --config "$T/none.toml" rle encode
err_has "none.toml"
printf '[rle.encode]\nbogus = 1\n' >"$T/bad.toml"
run 2 "$VOXKIT" --config "$T/bad.toml" rle encode "$T/g.raw" -o "$T/x.rle"
err_has "bogus"

# --- man pages: one per verb, formatted by groff without a warning
docs="${VOXKIT_BUILD_DIR:-}/docs"
if [[ -n ${VOXKIT_BUILD_DIR:-} && -d $docs/man1 ]]; then
  "$VOXKIT" --generate-docs "$T/docs"
  for f in "$T"/docs/man1/*.1; do
    checks=$((checks + 1))
    cmp -s "$f" "$docs/man1/$(basename "$f")" || fail "$(basename "$f") in the build is stale"
  done
fi
run 0 "$VOXKIT" --generate-docs "$T/gen"
checks=$((checks + 1)); n=$(ls "$T"/gen/man1/*.1 | wc -l); [[ $n -ge 50 ]] || fail "only $n man pages"
for page in voxkit voxkit-mesh voxkit-octree-reset voxkit-b64-encode; do
  checks=$((checks + 1))
  groff -man -Tutf8 -ww -z "$T/gen/man1/$page.1" 2>"$T/groff" || fail "groff failed on $page.1"
  [[ ! -s $T/groff ]] || { fail "groff warns on $page.1"; sed 's/^/  /' "$T/groff" >&2; }
done
groff -man -Tutf8 "$T/gen/man1/voxkit-mesh.1" 2>/dev/null | col -b >"$T/mesh.txt"
checks=$((checks + 1)); grep -q "EXAMPLES" "$T/mesh.txt" || fail "voxkit-mesh.1 has no examples"
checks=$((checks + 1)); grep -q -- "--lightmap-size" "$T/mesh.txt" || fail "voxkit-mesh.1 lacks --lightmap-size"
checks=$((checks + 1)); grep -q "GLOBAL OPTIONS" "$T/mesh.txt" || fail "voxkit-mesh.1 lacks the global flags"
checks=$((checks + 1)); ! grep -q -- "--format" "$T/mesh.txt" || fail "voxkit-mesh.1 shows an old spelling"

# --- bash completion: verbs, sub-verbs, options, choices
complete_words() {  # complete_words WORD...: the completions of the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _voxkit; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$T/gen/completion/voxkit.bash" "$@"
}
checks=$((checks + 1)); complete_words voxkit me | grep -qx mesh || fail "bash: 'voxkit me' does not give mesh"
checks=$((checks + 1)); complete_words voxkit octree re | grep -qx reset || fail "bash: 'octree re' does not give reset"
checks=$((checks + 1)); complete_words voxkit mesh --lig | grep -qx -- --lightmap-size || fail "bash: mesh --lig"
checks=$((checks + 1)); complete_words voxkit mesh --mesher p | grep -qx package || fail "bash: --mesher p"
checks=$((checks + 1)); complete_words voxkit -j 2 octree reset --keep-r | grep -qx -- --keep-rooms || fail "bash: after -j 2"
checks=$((checks + 1)); complete_words voxkit mesh --inp | grep -q . && fail "bash completes a hidden old spelling"
# zsh: the function file parses (where zsh is installed)
if command -v zsh >/dev/null; then
  checks=$((checks + 1)); zsh -n "$T/gen/completion/_voxkit" || fail "zsh -n _voxkit"
fi

# --- cmake --install: binary, plug-ins, man pages and completion under one prefix
if [[ -n ${VOXKIT_BUILD_DIR:-} ]] && command -v cmake >/dev/null; then
  run 0 cmake --install "$VOXKIT_BUILD_DIR" --prefix "$T/prefix"
  for f in bin/voxkit lib/voxkit/voxkit-gdal.so lib/voxkit/voxkit-assimp.so share/man/man1/voxkit.1 \
    share/man/man1/voxkit-mesh.1 share/bash-completion/completions/voxkit share/zsh/vendor-completions/_voxkit; do
    checks=$((checks + 1)); [[ -e $T/prefix/$f ]] || fail "not installed: $f"
  done
  # the installed binary finds its plug-in in ../lib/voxkit
  run 0 "$T/prefix/bin/voxkit" info "$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_crop.tif"
  out_has "GTiff"
  checks=$((checks + 1)); MANPATH="$T/prefix/share/man" man -w voxkit-octree-reset >/dev/null 2>&1 || fail "man -w finds no installed page"
fi

finish
