#!/usr/bin/env python3
"""Writes ZIP fixtures with Python's zipfile, an independent writer: one streamed (every
member has a data descriptor), one with ZIP64 records and extra fields forced."""
import io
import zipfile

FIXED = (2026, 11, 30, 13, 37, 24)


class Unseekable(io.RawIOBase):
    """A write-only stream: zipfile then puts sizes and CRC in data descriptors."""

    def __init__(self):
        self.buf = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buf += b
        return len(b)


def members():
    meta = b'<?xml version="1.0" encoding="utf-8"?>\n<WorldMetaData><WorldName>Mars</WorldName></WorldMetaData>\n'
    world = (b'<?xml version="1.0"?>\n<WorldData><Rooms><Room><Grids><Grid><x>20</x><y>1000</y>'
             b'<z>-40</z></Grid></Grids></Room></Rooms><Sign>A&#xB;B</Sign>'
             b'<TerrainChunkChecksums><int>7</int></TerrainChunkChecksums></WorldData>\n')
    terrain = bytes([10, 0, 0, 0]) + bytes([3, 200, 1]) + bytes(4)
    return [("world_meta.xml", meta, zipfile.ZIP_DEFLATED),
            ("world.xml", world, zipfile.ZIP_DEFLATED),
            ("terrain.dat", terrain, zipfile.ZIP_DEFLATED),
            ("preview.png", b"\x89PNG not really", zipfile.ZIP_STORED)]


def write(zf, force_zip64):
    for name, data, method in members():
        info = zipfile.ZipInfo(name, FIXED)
        info.compress_type = method
        with zf.open(info, "w", force_zip64=force_zip64) as f:
            f.write(data)


s = Unseekable()
with zipfile.ZipFile(s, "w") as zf:
    write(zf, False)
open("python_streamed.save", "wb").write(bytes(s.buf))

b = io.BytesIO()
with zipfile.ZipFile(b, "w") as zf:
    write(zf, True)
open("python_zip64.save", "wb").write(b.getvalue())
