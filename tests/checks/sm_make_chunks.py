#!/usr/bin/python3
# Writes N seeded Scrap Mechanic chunks as consecutive 4913-byte records: the first all
# zeros, the second one of every material and density, the rest terrain-like or random.
# Usage: sm_make_chunks.py N OUT
import math
import random
import sys

VOXELS = 4913


def terrain(rng):
    base, amp, ramp = rng.uniform(3, 14), rng.uniform(1, 5), rng.uniform(6, 22)
    out = bytearray(VOXELS)
    for x in range(17):
        for y in range(17):
            for z in range(17):
                depth = base + amp * math.sin(x * 0.3) * math.cos(z * 0.2) - y
                d = max(0, min(63, round(depth * ramp)))
                m = 2 if depth > 6 else 1 if depth > 2 else 0
                out[z + 17 * y + 289 * x] = (m << 6 | d) if d else 0
    return bytes(out)


def main():
    n, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(2024)
    chunks = [bytes(VOXELS), bytes((i % 4) << 6 | (i % 64) for i in range(VOXELS))]
    while len(chunks) < n:
        if len(chunks) % 3 == 0:
            chunks.append(bytes(rng.randrange(256) for _ in range(VOXELS)))
        else:
            chunks.append(terrain(rng))
    with open(path, "wb") as f:
        f.write(b"".join(chunks[:n]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
