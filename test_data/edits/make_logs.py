#!/usr/bin/env python3
"""Writes the example edit logs of this folder (docs/formats/edit-log.md), from the format's
description rather than voxkit's writer, so the unit tests can hold one against the other.

Usage: make_logs.py [OUT_DIR] (default: the folder of this script)."""
import json
import pathlib
import struct
import sys
import zlib

MAGIC = b"\x89VXL\r\n\x1a\n"
CELLS = (64, 40, 64)  # test_data/demo_grid.raw


def pack(x, y, z, r, op, layer):
    """A packed edit from fields already in 1/16 and 1/8 voxel."""
    return x | y << 16 | z << 32 | r << 48 | op << 56 | layer << 59


DIG = pack(32 * 16, 20 * 16, 32 * 16, 3 * 8, 0, 0)        # dig, radius 3, at the middle
ADD = pack(30 * 16, 22 * 16, 30 * 16, 2 * 8, 1, 0)        # add, radius 2
PAINT = pack(34 * 16, 18 * 16, 34 * 16, 20, 3, 5)         # paint dug soil, radius 2.5
SMOOTH = pack(32 * 16, 20 * 16, 32 * 16, 4 * 8, 2, 16)    # smooth at strength 16/31 (negative as int64)
DIG2 = pack(20 * 16, 25 * 16, 40 * 16, 12, 0, 0)          # dig, radius 1.5
TREE = pack(10 * 16, 30 * 16, 10 * 16, 8, 4, 2)           # tree, prefab 1

PLAIN = [DIG, ADD, PAINT, SMOOTH, DIG2]
# Ordered: epoch 0 (dig, add, paint), a reset, epoch 1 (dig2, smooth, tree).
ORDERED = [(0, [DIG, ADD, PAINT]), (1, [DIG2, SMOOTH, TREE])]
# Network, in arrival order: seq 2 before seq 1, seq 1 twice, an edit of epoch 1 before the
# reset that starts it, the reset, the rest of epoch 1, and a late record of epoch 0.
NETWORK = [("edit", DIG, 0, 0), ("edit", PAINT, 2, 0), ("edit", ADD, 1, 0), ("edit", ADD, 1, 0),
           ("edit", SMOOTH, 1, 1), ("reset", 1), ("edit", DIG2, 0, 1), ("edit", TREE, 2, 1),
           ("edit", DIG, 3, 0)]


def signed(e):
    return e - (1 << 64) if e >= 1 << 63 else e


def hexed(e):
    return "0x%016X" % e


def vxlog(network, cells, blocks, records, payload):
    head = MAGIC + struct.pack("<HHI3IIQI", 1, 0, 1 if network else 0, *cells, blocks, records, 0)
    assert len(head) == 44
    return head + struct.pack("<I", zlib.crc32(head + payload)) + payload


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent)
    (out / "plain.int64").write_bytes(b"".join(struct.pack("<Q", e) for e in PLAIN))
    # The bare JSON array, as a tool might write it: strings and integers mixed.
    (out / "plain.json").write_text(json.dumps([hexed(PLAIN[0]), str(PLAIN[1]), PLAIN[2], signed(PLAIN[3]),
                                                hexed(PLAIN[4]).lower()]) + "\n")

    lines = ["# Two epochs on the demo grid (test_data/demo_grid.raw)", "cells 64 40 64", ""]
    for k, (epoch, edits) in enumerate(ORDERED):
        if k:
            lines.append("reset        # back to the baked grid: epoch %d" % epoch)
        for i, e in enumerate(edits):
            # hex, the signed decimal (the C# long) and the unsigned decimal all read the same
            lines.append([hexed(e), str(signed(e)), str(e)][i % 3] + ("\t# seq %d" % i if i == 0 else ""))
    (out / "ordered.txt").write_text("\n".join(lines) + "\n")
    doc = {"format": "voxkit-edit-log", "version": 1, "cells": list(CELLS),
           "epochs": [{"epoch": ep, "edits": [hexed(e) for e in edits]} for ep, edits in ORDERED]}
    (out / "ordered.json").write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    payload = b"".join(struct.pack("<II", ep, len(edits)) + b"".join(struct.pack("<Q", e) for e in edits)
                       for ep, edits in ORDERED)
    (out / "ordered.vxlog").write_bytes(vxlog(False, CELLS, len(ORDERED), sum(len(e) for _, e in ORDERED), payload))

    lines = ["# Records as a client received them (EDIT SEQ EPOCH)", "network", "cells 64 40 64"]
    notes = {1: "early: seq 1 has not arrived", 3: "duplicate", 4: "epoch 1 before its reset", 8: "older epoch"}
    for i, r in enumerate(NETWORK):
        text = "reset %d" % r[1] if r[0] == "reset" else "%s %d %d" % (hexed(r[1]), r[2], r[3])
        lines.append(text + ("  # " + notes[i] if i in notes else ""))
    (out / "network.txt").write_text("\n".join(lines) + "\n")
    recs = [{"reset": r[1]} if r[0] == "reset" else {"edit": hexed(r[1]), "seq": r[2], "epoch": r[3]} for r in NETWORK]
    doc = {"format": "voxkit-edit-log", "version": 1, "cells": list(CELLS), "records": recs}
    (out / "network.json").write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    payload = b"".join(struct.pack("<QII", 0, 0xFFFFFFFF, r[1]) if r[0] == "reset" else struct.pack("<QII", *r[1:])
                       for r in NETWORK)
    (out / "network.vxlog").write_bytes(vxlog(True, CELLS, 0, len(NETWORK), payload))


if __name__ == "__main__":
    main()
