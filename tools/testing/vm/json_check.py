#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Check rdma-mcm's JSON output against Documentation/rdma-mcm.schema.json.

    json_check.py SCHEMA DEF FILE [--min N]

FILE holds JSON objects one after the other (-j: one a line; -p: indented
over several lines); each must be valid against the schema's $defs/DEF
(member, context, stats, event). Fails when there are fewer than N objects
(default 1). Needs nothing but python3: it knows the keywords the schema
uses (type, properties, required, additionalProperties, items, enum,
minimum, $ref to #/$defs/...), and refuses a schema with any other, so
that the schema cannot grow a keyword this checker would silently ignore.
With python3-jsonschema installed, --jsonschema checks with it as well.
"""
import json
import sys

KNOWN = {"type", "properties", "required", "additionalProperties", "items",
         "enum", "minimum", "$ref", "$defs", "$schema", "$id", "title",
         "description"}
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


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    use_lib = "--jsonschema" in argv
    minimum = 1
    if "--min" in argv:
        minimum = int(argv[argv.index("--min") + 1])
        args.remove(str(minimum))
    if len(args) != 3:
        raise SystemExit(__doc__)
    schema_file, name, data_file = args
    with open(schema_file) as f:
        root = json.load(f)
    check_keywords(root)
    if name not in root.get("$defs", {}):
        raise SystemExit(f"schema has no $defs/{name}")
    with open(data_file, encoding="utf-8") as f:
        try:
            objs = list(objects(f.read()))
        except ValueError as e:
            raise SystemExit(f"{data_file}: not JSON: {e}")
    errors = []
    for i, obj in enumerate(objs, 1):
        validate(root, {"$ref": f"#/$defs/{name}"}, obj, f"object {i}",
                 errors)
    if use_lib:
        try:
            import jsonschema
        except ImportError:
            jsonschema = None
        if jsonschema:
            sub = dict(root)
            sub["$ref"] = f"#/$defs/{name}"
            for i, obj in enumerate(objs, 1):
                for e in jsonschema.Draft202012Validator(sub).iter_errors(obj):
                    errors.append(f"object {i} (jsonschema): {e.message}")
    if len(objs) < minimum:
        errors.append(f"{len(objs)} objects, wanted at least {minimum}")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
