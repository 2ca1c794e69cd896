# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: names a process or a driver chose, through every command (review 3).
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

# jlog.save(): the Python checks below keep their runs' output for the
# schema check of every object at the end, as json_log does
cat > "$TMP/jlog.py" <<'PY'
import os


def save(tag, args, out, err):
    """Keep a run's output and arguments in $JSON_DIR (as json_log)"""
    base = os.path.join(os.environ["JSON_DIR"], tag)
    open(base + ".out", "wb").write(out)
    open(base + ".err", "wb").write(err)
    open(base + ".args", "wb").write(b"".join(
        (a if isinstance(a, bytes) else a.encode()) + b"\0" for a in args))
PY

# The table of RFC 3629's ill-formed classes and the valid edge cases, as a
# command name (prctl(PR_SET_NAME) takes any bytes), an RDMA device's and
# a netdev's name: each -j line decodes as strict UTF-8 and parses, each
# -p stream too, and each name reads as Python's own decoder replaces it
# (one U+FFFD per maximal ill-formed subpart); the text escapes every byte
# outside printable ASCII, and is printable ASCII only.
cat > "$TMP/names.py" <<'PY'
import json, os, subprocess, sys
sys.path[:0] = ["testing/vm", os.path.dirname(sys.argv[0])]
import json_check
from jlog import save

cli, schema, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
root = json.load(open(schema))
CASES = [
    ("continuation 80 alone", b"\x80"), ("continuation BF alone", b"\xbf"),
    ("C0 80 (overlong NUL)", b"\xc0\x80"), ("C1 BF (overlong)", b"\xc1\xbf"),
    ("E0 80 AF (overlong)", b"\xe0\x80\xaf"), ("E0 9F BF (overlong)", b"\xe0\x9f\xbf"),
    ("ED A0 80 (surrogate)", b"\xed\xa0\x80"), ("ED BF BF (surrogate)", b"\xed\xbf\xbf"),
    ("F0 80 80 80 (overlong)", b"\xf0\x80\x80\x80"),
    ("F0 8F BF BF (overlong)", b"\xf0\x8f\xbf\xbf"),
    ("F4 90 80 80 (above U+10FFFF)", b"\xf4\x90\x80\x80"),
    ("F5 80 80 80", b"\xf5\x80\x80\x80"), ("FE", b"\xfe"), ("FF", b"\xff"),
    ("E2 82, cut short", b"\xe2\x82"), ("F0 9F 98, cut short", b"\xf0\x9f\x98"),
    ("E2 82 then ASCII", b"\xe2\x82A"), ("C2 then ASCII", b"\xc2A"),
    ("F4 8F BF then ASCII", b"\xf4\x8f\xbfA"), ("E0 A0 then C2 80", b"\xe0\xa0\xc2\x80"),
    ("U+0080", b"\xc2\x80"), ("U+07FF", b"\xdf\xbf"), ("U+0800", b"\xe0\xa0\x80"),
    ("U+D7FF", b"\xed\x9f\xbf"), ("U+E000", b"\xee\x80\x80"),
    ("U+FFFD", b"\xef\xbf\xbd"), ("U+FFFF", b"\xef\xbf\xbf"),
    ("U+10000", b"\xf0\x90\x80\x80"), ("U+10FFFF", b"\xf4\x8f\xbf\xbf"),
    ("controls, quote, backslash, DEL", b'\x01\x1b"\\\x7f'),
]
DEFS = {"show": "member", "ctx": "context", "stats": "stats",
        "monitor": "event", "join": "error"}



def esc(b):
    return "".join(chr(c) if 0x20 < c < 0x7f and c != 0x5c else "\\%03o" % c
                   for c in b)


def names_of(o, want):
    """(key, value, wanted) for each name of @o the case set"""
    if cmd[0] == "stats":
        yield "dev", o["devices"][0]["dev"], want["dev"]
        return
    if cmd[0] == "join":
        yield "error", o["error"][:len(want["error"])], want["error"]
        return
    if o.get("owner") == "user":
        yield "comm", o["comm"], want["comm"]
    if "dev" in o and o["ctx"] % 2:
        yield "dev", o["dev"], want["dev"]
    if "netdev" in o and o["ctx"] % 2:
        yield "netdev", o["netdev"], want["netdev"]


errors, checked = [], 0
for name, raw in CASES:
    comm, dev, netdev = b"c" + raw + b"z", b"d" + raw + b"z", b"n" + raw + b"z"
    env = dict(os.environb)
    env.update({b"FAKE_NL_COMM": comm, b"FAKE_NL_DEV": dev,
                b"FAKE_NL_NETDEV": netdev})
    msg = b"bad group address '" + dev + b"': "
    want = {"comm": comm.decode("utf-8", "replace"),
            "dev": dev.decode("utf-8", "replace"),
            "netdev": netdev.decode("utf-8", "replace"),
            "error": msg.decode("utf-8", "replace")}
    for mode in ("-j", "-p", ""):
        args = [cli] + ([mode] if mode else []) + cmd
        if cmd[0] == "join":
            args.append(dev)
        p = subprocess.run(args, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120)
        label = f"{name} ({raw.hex(' ')}), rdma-mcm {mode} {' '.join(cmd)}"
        if mode:
            save(f"names-{cmd[0]}-{CASES.index((name, raw))}{mode}", args[1:],
                 p.stdout, p.stderr)
        out = p.stderr if cmd[0] == "join" else p.stdout
        if (p.returncode != 0) != (cmd[0] == "join") or \
                (cmd[0] != "join" and p.stderr):
            errors.append(f"{label}: exit {p.returncode}, stderr {p.stderr!r}")
            continue
        if not mode:
            bad = [c for c in out if not (0x20 <= c < 0x7f or c == 10)]
            if bad:
                errors.append(f"{label}: text has bytes {bytes(bad)!r}")
            for k, v in (("comm", comm), ("dev", dev), ("netdev", netdev)):
                if k == "comm" and cmd[0] == "stats" or \
                        k == "netdev" and cmd[0] in ("stats", "monitor") or \
                        k != "dev" and cmd[0] == "join":
                    continue
                if cmd[0] == "join":
                    seen = ("'" + esc(v) + "'").encode() in out
                else:
                    seen = (" " + k + " " + esc(v) + " ").encode() in \
                        b" " + out.replace(b"\n", b"\n ")
                checked += 1
                if not seen:
                    errors.append(f"{label}: no '{k} {esc(v)}' in {out[:300]!r}")
            continue
        try:
            text = out.decode("utf-8")
            objs = [json.loads(l) for l in text.splitlines()] \
                if mode == "-j" else list(json_check.objects(text))
        except ValueError as e:
            errors.append(f"{label}: not strict UTF-8 JSON: {e}: {out[:300]!r}")
            continue
        for o in objs:
            errors += json_check.check_any(root, [DEFS[cmd[0]]], o, label, None)
            for k, v, w in names_of(o, want):
                checked += 1
                if v != w:
                    errors.append(f"{label}: {k} {v!r}, wanted {w!r}")
for e in errors[:40]:
    print(e, file=sys.stderr)
print(f"{len(CASES)} cases, {checked} names checked", file=sys.stderr)
sys.exit(1 if errors or checked < len(CASES) * 3 else 0)
PY
for c in "show" "ctx" "stats" "monitor -c 5" "join"; do
	# shellcheck disable=SC2086
	JSON_DIR=$TMP/json python3 "$TMP/names.py" "$CLI" "$SCHEMA" $c 2> "$TMP/why"
	result "hostile bytes in comm, dev and netdev (RFC 3629's classes): rdma-mcm -j, -p and text $c" $? "$TMP/why"
done
