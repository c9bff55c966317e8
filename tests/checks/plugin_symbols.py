#!/usr/bin/env python3
"""Checks that every voxkit function the GDAL plug-in calls is exported by each program that
may load it: the plug-in resolves them in the loading program (formats/image/gdal_plugin.hpp).

Usage: plugin_symbols.py PLUGIN PROGRAM... Exits 1 naming each symbol a program lacks."""
import subprocess
import sys


def symbols(path, args):
    out = subprocess.run(["nm", "-D", *args, path], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


plugin = sys.argv[1]
needed = {s for s in symbols(plugin, ["--undefined-only"]) if "voxkit" in s}
problems = 0
for program in sys.argv[2:]:
    have = symbols(program, ["--defined-only"])
    for s in sorted(needed - have):
        print(f"{program}: does not export {s}, which the plug-in calls")
        problems += 1
print(f"{len(needed)} symbols the plug-in calls, {len(sys.argv) - 2} programs: "
      + ("ok" if not problems else f"{problems} missing"))
sys.exit(1 if problems else 0)
