#!/usr/bin/env python3
"""Checks a planned world's tiles against a whole bake: every tile zone's grid, baked grid,
height and splat rasters equal the same region of the whole zone byte for byte (the regions
from world_index.json), and the index's sizes and hashes name the files as they are.

Usage: compare_tiles.py WHOLE.vxz PLAN_DIR (with $VOXKIT set). Exits 1 naming differences."""
import json
import os
import subprocess
import sys
import tempfile

VOXKIT = os.environ["VOXKIT"]


def extract(zone, part, out):
    subprocess.run([VOXKIT, "-q", "-f", "zone", "extract", zone, "--part", part, "-o", out],
                   check=True, stdout=subprocess.DEVNULL)
    return open(out, "rb").read()


def main():
    whole, plan = sys.argv[1], sys.argv[2]
    index = json.load(open(os.path.join(plan, "world_index.json")))
    nx, ny, nz = index["cells"]
    sx, sy, sz = nx + 1, ny + 1, nz + 1
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        ref = {p: extract(whole, p, os.path.join(tmp, "whole." + p)) for p in ("grid", "baked", "height", "splat")}
        layers = len(ref["splat"]) // (sx * sz)
        for t in index["tiles"]:
            x0, z0, x1, z1 = t["zone"]["cells"]
            tx, tz = x1 - x0 + 1, z1 - z0 + 1
            name = "tile %d,%d" % tuple(t["tile"])
            zone = os.path.join(plan, t["files"]["bake"]["path"])
            got = {p: extract(zone, p, os.path.join(tmp, "tile." + p)) for p in ref}
            for part in ("grid", "baked"):
                want = b"".join(ref[part][(z * sy + y) * sx + x0:(z * sy + y) * sx + x0 + tx]
                                for z in range(z0, z1 + 1) for y in range(sy))
                if got[part] != want:
                    problems.append(f"{name}: {part} differs from the whole bake's region")
            want = b"".join(ref["height"][4 * (z * sx + x0):4 * (z * sx + x0 + tx)] for z in range(z0, z1 + 1))
            if got["height"] != want:
                problems.append(f"{name}: height raster differs")
            want = b"".join(ref["splat"][l * sx * sz + z * sx + x0:l * sx * sz + z * sx + x0 + tx]
                            for l in range(layers) for z in range(z0, z1 + 1))
            if got["splat"] != want:
                problems.append(f"{name}: splat rasters differ")
            for stage, f in t["files"].items():
                data = open(os.path.join(plan, f["path"]), "rb").read()
                if len(data) != f["bytes"]:
                    problems.append(f"{name}: index gives {f['bytes']} bytes for {f['path']}, the file has {len(data)}")
    for p in problems[:20]:
        print(p)
    print(f"{len(index['tiles'])} tiles compared with the whole bake: " + ("equal" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
