#!/usr/bin/env python3
"""Checks that every #include in lib/, formats/, tools/, fuzz/ and bench/ is allowed by the
layer table in docs/architecture.md, and that every library the build links is used.

Usage: layers.py SOURCE_DIR. Exits 1 and names each file and line that breaks the table."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")

# What an include names: a module of ours, or a library.
LIBRARIES = [
    (re.compile(r"^CLI/"), "CLI11"),
    (re.compile(r"^nlohmann/"), "nlohmann/json"),
    (re.compile(r"^tbb/"), "TBB"),
    (re.compile(r"^lz4(hc)?\.h$"), "LZ4"),
    (re.compile(r"^meshoptimizer\.h$"), "meshoptimizer"),
    (re.compile(r"^xxhash\.h$"), "xxHash"),
    (re.compile(r"^(gdal|ogr|cpl)[a-z_]*\.h$"), "GDAL"),
    (re.compile(r"^assimp/"), "Assimp"),
    (re.compile(r"^zlib\.h$"), "zlib"),
    (re.compile(r"^stb_image(_write)?\.h$"), "stb"),
    (re.compile(r"^toml\+\+/"), "toml++"),
    (re.compile(r"^catch2/"), "Catch2"),
    (re.compile(r"^vulkan/"), "Vulkan"),
    (re.compile(r"^(sys/|unistd\.h$|fcntl\.h$|dirent\.h$|signal\.h$|malloc\.h$|dlfcn\.h$)"), "POSIX"),
    (re.compile(r"^(x86intrin|immintrin|xmmintrin|emmintrin|smmintrin|nmmintrin|tmmintrin)\.h$"), "intrinsics"),
]
OURS = re.compile(r"^(lib|formats|tools|bench|fuzz|tests)/")
# The package names of the top-level CMakeLists.txt, and what an include of them is called.
PACKAGES = {"LZ4": "LZ4", "STB": "stb", "nlohmann_json": "nlohmann/json", "CLI11": "CLI11", "TBB": "TBB",
            "ZLIB": "zlib", "LIBZIP": "libzip", "GDAL": "GDAL", "assimp": "Assimp", "meshoptimizer": "meshoptimizer", "XXHASH": "xxHash"}


def classify(name):
    m = OURS.match(name)
    if m:
        # lib/ and formats/ are grouped by subsystem: lib/codec/, formats/zone/, ...
        parts = name.split("/")
        return "/".join(parts[:2]) + "/" if len(parts) > 2 else m.group(1) + "/"
    for pattern, lib in LIBRARIES:
        if pattern.search(name):
            return lib
    if "/" not in name and not name.endswith(".h") and not name.endswith(".hpp"):
        return "std"
    if name in ("cassert",):
        return "std"
    return "unknown:" + name


def read_table():
    text = (root / "docs/architecture.md").read_text()
    allowed = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`") or not cells[0].endswith("/`"):
            continue
        module = cells[0].strip("`")
        allowed[module] = {x.strip().strip("`") for x in cells[1].split(",") if x.strip()}
    return allowed


def main():
    allowed = read_table()
    if not allowed:
        print("docs/architecture.md has no layer table")
        return 1
    problems = []
    used = set()
    include = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
    def allows(ok, what):
        # "lib/" in a row allows every folder of lib/; "lib/core/" only that one.
        return what in ok or any(x.endswith("/") and what.startswith(x) for x in ok)

    for module in sorted(allowed):
        if not (root / module).is_dir():
            problems.append(f"docs/architecture.md names {module}, which does not exist")
    for top in sorted({m.split("/")[0] + "/" for m in allowed}):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".h"):
                continue
            rel = str(path.relative_to(root))
            owners = [m for m in allowed if rel.startswith(m)]
            if not owners:
                problems.append(f"{rel}: no row of docs/architecture.md covers it")
                continue
            module = max(owners, key=len)
            ok = allowed[module]
            for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                m = include.match(line)
                if not m:
                    continue
                what = classify(m.group(1))
                used.add(what)
                if what == module or allows(ok, what):
                    continue
                problems.append(f"{rel}:{n}: includes {m.group(1)} ({what}), which {module} may not "
                                f"(docs/architecture.md)")
    # Every package the build finds is used by some include.
    cmake = (root / "CMakeLists.txt").read_text()
    for pkg in re.findall(r"find_package\((\w+)", cmake) + re.findall(r"pkg_check_modules\((\w+)", cmake):
        lib = PACKAGES.get(pkg)
        if lib and lib not in used:
            problems.append(f"CMakeLists.txt finds {pkg}, which no source includes")
    for p in problems:
        print(p)
    print(f"{'ok' if not problems else 'FAILED'}: {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
