#!/usr/bin/env python3
"""Validates voxkit's JSON outputs against the schemas in docs/schemas/ (JSON Schema 2020-12,
checked with Debian's python3-jsonschema).

Usage: validate_json.py SCHEMA_DIR CASES [--info-formats "a, b, ..."]

SCHEMA_DIR holds NAME.schema.json files (also in subfolders), each with the $id
https://voxkit.invalid/schemas/ + its path; they refer to each other by relative path.
CASES has one case a line, tab-separated: SCHEMA MODE FILE LABEL, where SCHEMA is a schema's
path without .schema.json ("info", "grass-residency"), MODE is "json" (FILE is one JSON
document) or "lines" (one document per line, as JSON lines), and LABEL names the case in
messages.

Checks that every schema is itself a valid schema with the right $id, that every document
parses as strict JSON (no NaN or Infinity, no repeated key) and is valid against its schema,
and that every schema file is used by some case (named by it, or reached through a $ref
while validating). With --info-formats (the format ids voxkit's info knows), names the
formats that info.schema.json has no details schema for. Exits 1 on any failure."""
import json
import pathlib
import sys
import urllib.parse

import jsonschema

BASE = "https://voxkit.invalid/schemas/"


def strict_loads(text):
    def no_constant(name):
        raise ValueError(f"{name} is not JSON")

    def no_repeats(pairs):
        obj = {}
        for k, v in pairs:
            if k in obj:
                raise ValueError(f"key {k!r} repeated")
            obj[k] = v
        return obj

    return json.loads(text, parse_constant=no_constant, object_pairs_hook=no_repeats)


def where(error):
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return path or "(top)"


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--info-formats"):
        print(__doc__, file=sys.stderr)
        return 2
    schema_dir = pathlib.Path(argv[1])
    failures = []
    failed_cases = set()

    # The schemas: each valid, each with its own $id.
    schemas = {}  # name -> schema
    for path in sorted(schema_dir.rglob("*.schema.json")):
        name = path.relative_to(schema_dir).as_posix()[: -len(".schema.json")]
        try:
            schema = strict_loads(path.read_text())
            jsonschema.validators.validator_for(schema).check_schema(schema)
        except (ValueError, jsonschema.exceptions.SchemaError) as e:
            failures.append(f"{path}: not a valid schema: {e}")
            continue
        want = BASE + name + ".schema.json"
        if schema.get("$id") != want:
            failures.append(f"{path}: $id is {schema.get('$id')!r}, expected {want!r}")
        schemas[name] = schema
    store = {BASE + name + ".schema.json": s for name, s in schemas.items()}

    used = set()

    class Resolver(jsonschema.RefResolver):
        def resolve(self, ref):
            url, resolved = super().resolve(ref)
            used.add(urllib.parse.urldefrag(url)[0])
            return url, resolved

    # The cases.
    documents = cases = 0
    for n, line in enumerate(pathlib.Path(argv[2]).read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            name, mode, file, label = line.split("\t")
        except ValueError:
            failures.append(f"cases line {n}: expected SCHEMA, MODE, FILE and LABEL separated by tabs")
            continue
        cases += 1
        if name not in schemas:
            failures.append(f"{label}: no schema {name}.schema.json")
            continue
        schema = schemas[name]
        url = BASE + name + ".schema.json"
        used.add(url)
        validator = jsonschema.validators.validator_for(schema)(schema, resolver=Resolver(url, schema, store=store))
        try:
            text = pathlib.Path(file).read_text()
        except OSError as e:
            failures.append(f"{label} ({name}): {e}")
            continue
        if mode == "json":
            docs = [(None, text)]
        elif mode == "lines":
            docs = list(enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1))
            if not docs:
                failures.append(f"{label} ({name}): no lines")
        else:
            failures.append(f"{label}: unknown mode {mode!r}")
            continue
        before = len(failures)
        failed_before = len(failures)
        for at, doc_text in docs:
            if len(failures) - before >= 10:
                failures.append(f"{label} ({name}): ... more lines not checked")
                break
            what = f"{label} ({name}{'' if at is None else f', line {at}'})"
            documents += 1
            try:
                doc = strict_loads(doc_text)
            except ValueError as e:
                failures.append(f"{what}: not strict JSON: {e}")
                continue
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
            for e in errors[:5]:
                failures.append(f"{what}: {where(e)}: {e.message[:300]}")
            if len(errors) > 5:
                failures.append(f"{what}: ... {len(errors) - 5} more errors")
        if len(failures) > failed_before:
            failed_cases.add(label)

    for name in sorted(schemas):
        if BASE + name + ".schema.json" not in used:
            failures.append(f"{name}.schema.json: no case uses it")

    if len(argv) == 5 and "info" in schemas:
        known = [f.strip() for f in argv[4].split(",") if f.strip()]
        described = {
            e.get("if", {}).get("properties", {}).get("format", {}).get("const") for e in schemas["info"].get("allOf", [])
        }
        missing = [f for f in known if f not in described]
        if missing:
            print("note: info formats checked only as an object (no details schema): " + ", ".join(missing))

    for f in failures:
        print("FAIL: " + f)
    print(f"{len(schemas)} schemas, {cases} cases, {documents} documents: {len(failed_cases)} cases failed, "
          f"{len(failures)} failures in all")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
