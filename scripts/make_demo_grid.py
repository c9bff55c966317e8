#!/usr/bin/env python3
# Writes test_data/demo_grid.raw: a seeded terrain-like SDF grid of 64x40x64 cells
# (65x41x65 one-byte samples, dig-zone layout) with rolling hills and one dug cave.
# Run once; the bytes are committed. Usage: scripts/make_demo_grid.py [OUT]
import math
import random
import struct
import sys

NX, NY, NZ = 64, 40, 64
SEED = 2024


def quantize(d):
    # byte = clamp(round_half_even(d * 64), -128, 127) + 128, in single precision
    scaled = struct.unpack("f", struct.pack("f", d * 64.0))[0]
    return int(round(max(-128.0, min(127.0, scaled)))) + 128


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "test_data/demo_grid.raw"
    rng = random.Random(SEED)
    waves = [(rng.uniform(0.05, 0.16), rng.uniform(0.05, 0.16), rng.uniform(0, 6.28),
              rng.uniform(0, 6.28), amp) for amp in (4.0, 2.0, 1.0)]

    def height(x, z):
        h = 17.0
        for fx, fz, px, pz, amp in waves:
            h += amp * math.sin(x * fx + px) * math.cos(z * fz + pz)
        return h

    cave = (40.0, 12.0, 24.0, 6.5)  # centre x, y, z and radius, in cells
    data = bytearray()
    for z in range(NZ + 1):
        for y in range(NY + 1):
            for x in range(NX + 1):
                h = height(x, z)
                gx = (height(x + 0.5, z) - height(x - 0.5, z))
                gz = (height(x, z + 0.5) - height(x, z - 0.5))
                d = (y - h) / math.sqrt(1.0 + gx * gx + gz * gz)  # positive in air
                cx, cy, cz, r = cave
                sphere = math.sqrt((x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2) - r
                d = max(d, -sphere)  # dig: carve the sphere out
                data.append(quantize(d))
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
