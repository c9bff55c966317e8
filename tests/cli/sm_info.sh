# CLI: voxkit info on Scrap Mechanic chunks in every form, text and JSON.
source "$(dirname "$0")/lib.sh"

Z=HwABAP////////////////////////8rUAAAAAAA
printf '%s\n' "$Z" >"$T/zero.b64"
for to in lua json lz4 b64; do
  run 0 "$VOXKIT" -q chunk convert "$T/zero.b64" --to $to -o "$T/z.$to"
  run 0 "$VOXKIT" info "$T/z.$to"
  out_has "Scrap Mechanic voxel chunk (17x17x17)"
  out_has "form  *$to"
  out_has "materials  *0: 4913, 1: 0, 2: 0"
  out_has "solid voxels  *0 (density above 31"
  out_has "LZ4 HC block  *30 bytes"
  out_has "serialized string  *40 characters"
done
# a solid chunk of material 1 in binary: 4913 bytes of 0x7f
head -c 4913 /dev/zero | tr '\0' '\177' >"$T/solid.bin"
run 0 "$VOXKIT" info --json "$T/solid.bin"
out_has '"format": "sm-chunk"'
out_has '"form": "bin"'
out_has '"solid_voxels": 4913'
out_has '"density_max": 63'
# 4913 bytes with material bits 3 (a 16^3-cell dig-zone grid of air) are not claimed
head -c 4913 /dev/zero | tr '\0' '\377' >"$T/air.raw"
run 1 "$VOXKIT" info "$T/air.raw"
err_has "unknown format"
run 0 "$VOXKIT" info "$T/air.raw" --cells 16,16,16
out_has "raw"
# a damaged string is no chunk
printf 'HwABAP////////////////////////8rUAAA\n' >"$T/cut.b64"
run 1 "$VOXKIT" info "$T/cut.b64"
finish
