#!/usr/bin/env python3
"""Checks that no string literal in lib/ or formats/ names a command-line flag: below tools/,
messages say what is wrong in the library's terms and carry a hint key (Error::set_hint) that
tools/ turns into the flag. Comments may name flags.

Usage: flag_names.py SOURCE_DIR. Exits 1 and names each file, line and flag it finds."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")

# "--voxel-size", and voxkit's one-letter flags as words of their own ("use -f", "-o FILE").
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*|-[fjoq](?![\w-]))")


def literals(text):
    """Yields (line, contents) of every string literal of C++ source `text`, skipping comments
    and character literals; raw strings included."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.index("(", i)
            end = text.index(")" + text[i + 2:k] + '"', k)
            yield line, text[k + 1:end]
            line += text.count("\n", i, end)
            i = end + len(text[i + 2:k]) + 2
        elif c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            yield line, text[i + 1:j]
            i = j + 1
        elif c == "'" and not (i > 0 and text[i - 1].isalnum()):  # not a digit separator (1'000)
            j = i + 1
            while text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1


def main():
    problems = []
    for top in ("lib", "formats"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".h"):
                continue
            for line, s in literals(path.read_text()):
                m = FLAG.search(s)
                if m:
                    problems.append(f"{path.relative_to(root)}:{line}: names the flag {m.group(1)}: \"{s}\"")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} string literal(s) below tools/ name a flag: say it in the library's "
              "terms and set a hint (Error::set_hint) that tools/option_names.cpp maps to the flag")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
