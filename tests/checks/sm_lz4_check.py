#!/usr/bin/python3
# Independent check: Scrap Mechanic strings written by voxkit decode with Python's lz4.block
# (python3-lz4, over the system liblz4) to the expected 4913 bytes, and equal what LZ4 HC at
# the maximum level (12) gives for those bytes.
# Usage: sm_lz4_check.py STRINGS_FILE BIN_FILE   (one string per line; BIN_FILE holds the
# expected chunks as consecutive 4913-byte records)
import base64
import sys

import lz4.block

VOXELS = 4913


def main():
    strings = open(sys.argv[1], "rb").read().split(b"\n")
    if strings and strings[-1] == b"":
        strings.pop()
    expected = open(sys.argv[2], "rb").read()
    if len(expected) != VOXELS * len(strings):
        print(f"expected {len(strings)} records of {VOXELS} bytes, got {len(expected)} bytes")
        return 1
    bad = 0
    for i, s in enumerate(strings):
        want = expected[i * VOXELS:(i + 1) * VOXELS]
        block = base64.b64decode(s, validate=True)
        got = lz4.block.decompress(block, uncompressed_size=VOXELS)
        hc = lz4.block.compress(want, mode="high_compression", compression=12, store_size=False)
        if got != want:
            print(f"line {i + 1}: decodes to different bytes")
        elif hc != block:
            print(f"line {i + 1}: block differs from LZ4 HC level 12 ({len(block)} vs {len(hc)} bytes)")
        bad += got != want or hc != block
    print(f"{len(strings) - bad} of {len(strings)} strings agree with lz4.block")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
