#!/usr/bin/env bash
# Remakes the demo world's height pieces from ../dem/jacksboro_crop.tif (docs/world.md):
# warped to UTM 16N at 30 m, an 80x80-pixel window cut into four 40x40 GeoTIFF pieces, and a
# VRT mosaic of them. Needs gdal-bin. The pieces are committed; this only documents them.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gdalwarp -q -overwrite -t_srs EPSG:32616 -tr 30 30 -r bilinear -ot Float32 ../dem/jacksboro_crop.tif "$tmp/utm.tif"
for j in 0 1; do
  for i in 0 1; do
    # Piece i,j: columns from the west, rows from the south.
    gdal_translate -q -srcwin $((240 + 40 * i)) $((240 + 40 * (1 - j))) 40 40 \
      -co COMPRESS=DEFLATE -co PREDICTOR=3 "$tmp/utm.tif" "height_${i}_${j}.tif"
  done
done
gdalbuildvrt -q height.vrt height_0_0.tif height_1_0.tif height_0_1.tif height_1_1.tif
