#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Check rdma-mcm's JSON output against Documentation/rdma-mcm.schema.json.

    json_check.py SCHEMA DEF FILE [--min N] [--jsonschema]
    json_check.py SCHEMA --batch LIST [--jsonschema]

FILE holds JSON objects one after the other (-j: one a line; -p: indented
over several lines); each must be valid against the schema's $defs/DEF
(member, context, stats, event, ...; DEF,DEF...: any of them). Fails when
there are fewer than N objects (default 1).

--batch: each line of LIST is DEFS, MODE, FILE and a label, separated by
tabs; MODE "lines" (-j) wants one object a line, "stream" (-p) objects
one after the other; every object of FILE must be valid against one of
DEFS. An empty FILE is fine. It prints how many files and objects it
checked.

Every FILE is decoded as strict UTF-8. Needs nothing but python3: it knows
the keywords the schema uses (type, properties, required,
additionalProperties, items, enum, minimum, anyOf, $ref to #/$defs/...),
and refuses a schema with any other, so that the schema cannot grow a
keyword this checker would silently ignore. With python3-jsonschema
installed, --jsonschema checks with it as well.
"""
import json
import sys

KNOWN = {"type", "properties", "required", "additionalProperties", "items",
         "enum", "minimum", "anyOf", "$ref", "$defs", "$schema", "$id",
         "title", "description"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def check_keywords(schema, path="#"):
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k not in KNOWN:
                raise SystemExit(f"schema: unsupported keyword {k!r} at {path}")
            if k in ("properties", "$defs"):
                for name, sub in v.items():
                    check_keywords(sub, f"{path}/{k}/{name}")
            elif k in ("items", "additionalProperties") and isinstance(v, dict):
                check_keywords(v, f"{path}/{k}")
            elif k == "anyOf":
                for i, sub in enumerate(v):
                    check_keywords(sub, f"{path}/{k}/{i}")


def resolve(root, ref):
    if not ref.startswith("#/"):
        raise SystemExit(f"schema: unsupported $ref {ref!r}")
    node = root
    for part in ref[2:].split("/"):
        node = node[part]
    return node


def validate(root, schema, value, path, errors):
    if "$ref" in schema:
        validate(root, resolve(root, schema["$ref"]), value, path, errors)
    if "anyOf" in schema:
        tried = []
        for sub in schema["anyOf"]:
            e = []
            validate(root, sub, value, path, e)
            if not e:
                break
            tried.append(e)
        else:
            best = min(tried, key=len)
            errors.append(f"{path}: valid against none of anyOf "
                          f"(closest: {'; '.join(best)})")
    if "type" in schema:
        types = schema["type"]
        types = types if isinstance(types, list) else [types]
        if not any(TYPES[t](value) for t in types):
            errors.append(f"{path}: {value!r} is not of type {types}")
            return
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if "minimum" in schema and TYPES["number"](value) and \
            value < schema["minimum"]:
        errors.append(f"{path}: {value!r} is below {schema['minimum']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for k in schema.get("required", []):
            if k not in value:
                errors.append(f"{path}: {k!r} is required")
        extra = schema.get("additionalProperties", True)
        for k, v in value.items():
            if k in props:
                validate(root, props[k], v, f"{path}.{k}", errors)
            elif extra is False:
                errors.append(f"{path}: {k!r} is not allowed")
            elif isinstance(extra, dict):
                validate(root, extra, v, f"{path}.{k}", errors)
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, v in enumerate(value):
            validate(root, schema["items"], v, f"{path}[{i}]", errors)


def objects(text):
    dec = json.JSONDecoder()
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return
        obj, pos = dec.raw_decode(text, pos)
        yield obj


def read_objects(data_file, mode="stream"):
    """FILE's objects: strict UTF-8; with mode "lines" one a line"""
    with open(data_file, "rb") as f:
        text = f.read().decode("utf-8")
    if mode == "lines":
        objs = []
        for n, line in enumerate(text.splitlines(), 1):
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError(f"line {n} is not an object")
            objs.append(obj)
        return objs
    return list(objects(text))


def check_any(root, names, obj, label, lib):
    """@obj valid against one of $defs/@names: [] or the errors"""
    tried = []
    for name in names:
        errors = []
        validate(root, {"$ref": f"#/$defs/{name}"}, obj, label, errors)
        if lib and not errors:
            sub = dict(root)
            sub["$ref"] = f"#/$defs/{name}"
            errors = [f"{label} (jsonschema): {e.message}"
                      for e in lib.Draft202012Validator(sub).iter_errors(obj)]
        if not errors:
            return []
        tried.append(f"as {name}: " + "; ".join(errors))
    return [f"{label}: {json.dumps(obj)[:300]} is valid against none of "
            f"{','.join(names)}"] + ["    " + t for t in tried]


def jsonschema_lib(wanted):
    if not wanted:
        return None
    try:
        import jsonschema
    except ImportError:
        return None
    return jsonschema


def batch(root, list_file, lib):
    errors = []
    files = nobjs = 0
    with open(list_file, encoding="utf-8") as f:
        entries = [line.rstrip("\n").split("\t", 3) for line in f if line.strip()]
    for names, mode, data_file, label in entries:
        names = names.split(",")
        for name in names:
            if name not in root.get("$defs", {}):
                raise SystemExit(f"schema has no $defs/{name}")
        files += 1
        try:
            objs = read_objects(data_file, mode)
        except ValueError as e:
            errors.append(f"{label}: {data_file}: not strict UTF-8 JSON "
                          f"({mode}): {e}")
            continue
        for i, obj in enumerate(objs, 1):
            nobjs += 1
            errors += check_any(root, names, obj, f"{label}: object {i}",
                                lib)
    print(f"{files} files, {nobjs} objects checked")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors or not nobjs else 0


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    lib = jsonschema_lib("--jsonschema" in argv)
    minimum = 1
    if "--min" in argv:
        minimum = int(argv[argv.index("--min") + 1])
        args.remove(str(minimum))
    if "--batch" in argv and len(args) == 2:
        with open(args[0]) as f:
            root = json.load(f)
        check_keywords(root)
        return batch(root, args[1], lib)
    if len(args) != 3:
        raise SystemExit(__doc__)
    schema_file, names, data_file = args
    with open(schema_file) as f:
        root = json.load(f)
    check_keywords(root)
    names = names.split(",")
    for name in names:
        if name not in root.get("$defs", {}):
            raise SystemExit(f"schema has no $defs/{name}")
    try:
        objs = read_objects(data_file)
    except ValueError as e:
        raise SystemExit(f"{data_file}: not JSON: {e}")
    errors = []
    for i, obj in enumerate(objs, 1):
        errors += check_any(root, names, obj, f"object {i}", lib)
    if len(objs) < minimum:
        errors.append(f"{len(objs)} objects, wanted at least {minimum}")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
