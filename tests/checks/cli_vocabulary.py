#!/usr/bin/env python3
"""Every verb's options against the flag vocabulary of docs/cli.md.

Usage: cli_vocabulary.py VOXKIT SOURCE_DIR
Reads the CLI's own description (voxkit --generate-docs) and the vocabulary table and old
spellings of docs/cli.md; prints every breach and exits 1 if there is one.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def vocabulary(md):
    text = open(md, encoding="utf-8").read()
    table = text.split("<!-- vocabulary:", 1)[1].split("<!-- end vocabulary -->", 1)[0]
    names = set()
    for line in table.splitlines():
        if not line.startswith("| `"):
            continue
        first = line.split("|")[1]
        for flag in re.findall(r"`([^`]+)`", first):
            for part in flag.split(","):
                part = part.strip().split(" ")[0]
                if part.startswith("-"):
                    names.add(part)
    old = []
    section = text.split("## Old spellings", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        verbs = re.findall(r"`([^`]+)`", cells[0])
        oldn = re.findall(r"`([^`]+)`", cells[1])[0]
        newn = re.findall(r"`([^`]+)`", cells[2])[0]
        for v in verbs:
            old.append((v, oldn, newn))
    return names, old


def verbs(node):
    yield node
    for v in node["verbs"]:
        yield from verbs(v)


def main():
    voxkit, src = sys.argv[1], sys.argv[2]
    names, old = vocabulary(os.path.join(src, "docs", "cli.md"))
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([voxkit, "--generate-docs", d], check=True)
        cli = json.load(open(os.path.join(d, "cli.json"), encoding="utf-8"))
    bad = []
    by_path = {v["path"]: v for v in verbs(cli)}
    globals_ = {"--help", "--quiet", "--force", "--threads", "--config", "--print-config", "--version"}
    for v in verbs(cli):
        where = "voxkit " + v["path"] if v["path"] else "voxkit"
        for o in v["options"]:
            if o["positional"] or o["hidden"]:
                continue
            longs = [n for n in o["names"] if n.startswith("--")]
            shorts = [n for n in o["names"] if not n.startswith("--")]
            for n in longs:
                if n not in names and n not in globals_:
                    bad.append(f"{where}: {n} is not in the vocabulary of docs/cli.md")
            if "-n" in shorts and longs != ["--dry-run"]:
                bad.append(f"{where}: -n is {longs}, not --dry-run")
            if "--dry-run" in longs and "-n" not in shorts:
                bad.append(f"{where}: --dry-run without -n")
            if "-o" in shorts and longs != ["--output"]:
                bad.append(f"{where}: -o is {longs}, not --output")
            if "--output" in longs and o["required"] and v["path"] != "plan":
                bad.append(f"{where}: -o is required (it defaults to '-' everywhere but plan)")
            if ("--from" in longs or "--to" in longs) and not (o["takes_value"] and o["values_max"] == 1):
                bad.append(f"{where}: {longs} must take one value")
            if "--cells" in longs:
                want = 4 if v["path"] == "grass scatter" else 3
                if o["type"].startswith("TEXT") or o["values_min"] != want or o["values_max"] != want:
                    bad.append(f"{where}: --cells is {o['type']} x {o['values_min']}..{o['values_max']}, not {want} numbers")
    for verb, oldn, newn in old:
        v = by_path.get(verb)
        if v is None:
            bad.append(f"old spelling {oldn} of '{verb}': no such verb")
            continue
        visible = {n for o in v["options"] if not o["hidden"] for n in o["names"]}
        if oldn in visible:
            bad.append(f"voxkit {verb}: old spelling {oldn} is still a visible option")
        if newn not in visible:
            bad.append(f"voxkit {verb}: {oldn} is said to be {newn}, which the verb does not have")
    aliases = {(a["verb"], a["old"], a["new"]) for a in cli.get("aliases", [])}
    if aliases != set(old):
        for a in sorted(aliases - set(old)):
            bad.append(f"alias {a} of tools/aliases.cpp is not in docs/cli.md")
        for a in sorted(set(old) - aliases):
            bad.append(f"old spelling {a} of docs/cli.md is not in tools/aliases.cpp")
    for b in bad:
        print(b)
    print(f"{sum(1 for _ in verbs(cli))} verbs, {len(names)} vocabulary flags, {len(old)} old spellings: "
          f"{len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
