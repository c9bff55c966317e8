#!/usr/bin/python3
"""Peer benchmark: VTK's vtkFlyingEdges3D on the raw byte grid bench_mesh writes.

Usage: flying_edges.py RAW SX SY SZ [REPEAT [MIN_TIME]]  (sample counts, x fastest). Iso
127.5, normals on (as our meshers), one thread (vtkSMPTools). The best of REPEAT runs (5)
and of as many more as fill MIN_TIME seconds (0.25), the rule bench_mesh follows. Prints a
line for people and a "RESULT flying_edges 1 TRIANGLES VERTICES SECONDS CPU-SECONDS" line
for bench/mesh_peer.sh.
"""
import sys
import time

from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonCore import vtkSMPTools
from vtkmodules.vtkCommonDataModel import vtkImageData
from vtkmodules.vtkFiltersCore import vtkFlyingEdges3D
import numpy as np


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    path = sys.argv[1]
    sx, sy, sz = (int(v) for v in sys.argv[2:5])
    repeat = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    min_time = float(sys.argv[6]) if len(sys.argv) > 6 else 0.25
    data = np.fromfile(path, dtype=np.uint8)
    if data.size != sx * sy * sz:
        print(f"flying_edges.py: {path} holds {data.size} bytes, expected {sx * sy * sz}",
              file=sys.stderr)
        return 1
    try:
        vtkSMPTools.SetBackend("Sequential")
    except AttributeError:
        pass
    vtkSMPTools.Initialize(1)
    image = vtkImageData()
    image.SetDimensions(sx, sy, sz)
    scalars = numpy_to_vtk(data, deep=True)
    scalars.SetName("sdf")
    image.GetPointData().SetScalars(scalars)

    best = None
    runs, spent = 0, 0.0
    while runs < repeat or (spent < min_time and runs < 10000):
        runs += 1
        fe = vtkFlyingEdges3D()
        fe.SetInputData(image)
        fe.SetValue(0, 127.5)
        fe.ComputeNormalsOn()
        fe.ComputeScalarsOff()
        fe.ComputeGradientsOff()
        t0, c0 = time.perf_counter(), time.process_time()
        fe.Update()
        t, c = time.perf_counter() - t0, time.process_time() - c0
        spent += t
        out = fe.GetOutput()
        if best is None or t < best[0]:
            best = (t, c, out.GetNumberOfPolys(), out.GetNumberOfPoints())
    t, c, tris, verts = best
    print(f"flying_edges    1 thread  {tris:9d} tris {verts:9d} verts {t * 1e3:8.2f} ms "
          f"{tris / t / 1e6:8.2f} Mtri/s {verts / t / 1e6:8.2f} Mvert/s  (cpu {c * 1e3:.2f} ms) "
          f"(VTK {vtkSMPTools.GetBackend()} backend, "
          f"{vtkSMPTools.GetEstimatedNumberOfThreads()} thread)")
    print(f"RESULT flying_edges 1 {tris} {verts} {t:.6f} {c:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
