# CLI: voxkit info on chunk blobs, RLE streams and raw grids, as text and JSON; unknown files.
source "$(dirname "$0")/lib.sh"

{ for i in $(seq 26); do printf '\xff'; done; printf '\x00'; } >"$T/g.raw"
"$VOXKIT" pack "$T/g.raw" -o "$T/g.vxcb" --cells 2,2,2 --chunk-cells 1
"$VOXKIT" rle encode "$T/g.raw" -o "$T/g.rle"
run 0 "$VOXKIT" info "$T/g.vxcb"
out_has "g.vxcb: voxkit chunk blob, version 1"
out_has "chunks  *2 x 2 x 2 = 8 (1 streams)"
out_has "uniform chunks  *7 (7 of 255)"
run 0 "$VOXKIT" info --json "$T/g.vxcb"
out_has '"format": "chunk-blob"'
out_has '"255": 7'
if command -v python3 >/dev/null; then
  checks=$((checks + 1))
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["details"]["chunk_count"]==8 and d["size"]==81' "$T/out" || fail "info --json shape"
fi
run_in 0 "$T/g.rle" "$VOXKIT" info -
out_has "<stdin>: dig-zone RLE stream"
out_has "samples  *27"
run 0 "$VOXKIT" info "$T/g.rle" --cells 2,2,2 --json
out_has '"solid": 1'
out_has '"air": 26'
run 0 "$VOXKIT" info "$T/g.raw" --cells 2,2,2
out_has "raw SDF sample grid"
# unknown and damaged files: exit 1, a clear line, nothing on stdout
run 1 "$VOXKIT" info "$T/g.raw"
err_has "g.raw: unknown format: not any of zone, unity-asset, chunk-blob, stationeers-save, world-xml, terrain-base, sm-chunk, terrain-dat, edit-log, grass-type, raster, rle"
checks=$((checks + 1)); [[ ! -s $T/out ]] || fail "stdout not empty on error"
head -c 50 "$T/g.vxcb" >"$T/cut.vxcb"
run 1 "$VOXKIT" info "$T/cut.vxcb"
err_has "cut.vxcb: offset 50: file is truncated"
run 1 "$VOXKIT" info "$T/g.rle" --cells 3,2,2
err_has "does not match --cells"
run 1 "$VOXKIT" info "$T/missing"
err_has "missing: cannot open"
run 2 "$VOXKIT" info --bogus
run 1 "$VOXKIT" info -
err_has "<stdin>: empty file"
# The dig-zone package's Unity asset: the zone summary.
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset"
out_has "dig-zone Unity asset"
out_has "cells"
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/unity/quarry.asset" --json
out_has '"format": "unity-asset"'
# Rasters (a GeoTIFF heightmap, a PNG control map, a Unity .raw) and .vxlog edit logs.
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_crop.tif" --json
out_has '"format": "raster"'
out_has '"driver": "GTiff"'
out_has '"crs": "EPSG:'
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/dem/jacksboro_splat.png"
out_has "raster (PNG)"
python3 -c "import sys; sys.stdout.buffer.write(b'\x00\x10' * (33 * 33))" >"$T/hm.raw"
run 0 "$VOXKIT" info "$T/hm.raw"
out_has "Unity .raw heightmap"
out_has "33 x 33 samples"
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/edits/network.vxlog" --json
out_has '"format": "edit-log"'
out_has '"network": true'
run 0 "$VOXKIT" info "$VOXKIT_SOURCE_DIR/test_data/edits/ordered.vxlog"
out_has "voxkit edit log (.vxlog), ordered"
finish
