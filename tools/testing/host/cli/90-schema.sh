# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: the schema: json_check.py, and every -j and -p object of every command above against it (review 12).
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

# the schema checker catches what it should
echo '{"ctx":1,"handle":1,"owner":"user","state":"joined","status":0,"last_status":0,"qp_attached":"yes"}' > "$TMP/bad"
! python3 testing/vm/json_check.py "$SCHEMA" member "$TMP/bad" 2> /dev/null
result "json_check.py refuses an object the schema does not allow" $?


# What each command prints ($defs of the schema), on stdout and on stderr
cat > "$TMP/jlist.py" <<'PY'
import os, sys
d = sys.argv[1]
CMDS = ["join", "list", "show", "ctx", "stats", "monitor", "send", "recv", "check", "help"]
SESSION = ["session_joined", "session_status", "session_device"]
OUT = {"show": ["member"], "ctx": ["context"], "stats": ["stats"],
       "check": ["check"],
       "monitor": ["event"], "list": ["membership"],
       "join": SESSION + ["left", "membership", "session_stats", "member", "help"],
       "send": SESSION + ["received"], "recv": SESSION + ["received"],
       "help": []}
n = 0
for f in sorted(os.listdir(d)):
    if not f.endswith(".args"):
        continue
    base = os.path.join(d, f[:-5])
    args = [a.decode("utf-8", "backslashreplace")
            for a in open(base + ".args", "rb").read().split(b"\0")[:-1]]
    i, cmd = 0, None
    while i < len(args):
        if args[i] in ("-b", "--bind", "-t", "--timeout"):
            i += 2
        elif args[i].startswith("-"):
            i += 1
        else:
            fits = [c for c in CMDS if c == args[i]] or \
                [c for c in CMDS if c.startswith(args[i])]
            cmd = fits[0] if len(fits) == 1 else None
            break
    rest = args[i + 1:]
    out = list(OUT.get(cmd, []))
    if set(args) & {"-h", "--help"} or cmd == "help" or "help" in rest:
        out.append("usage")
    if set(args) & {"-V", "--version"}:
        out.append("version")
    mode = "stream" if set(args) & {"-p", "--pretty"} else "lines"
    label = "rdma-mcm " + " ".join(args)[:200]
    print("%s\t%s\t%s.out\t%s (stdout)" % (",".join(out or ["output"]), mode, base, label))
    print("error,usage\t%s\t%s.err\t%s (stderr)" % (mode, base, label))
    n += 1
print(n, file=sys.stderr)
PY
python3 "$TMP/jlist.py" "$TMP/json" > "$TMP/jlist" 2> "$TMP/jn"
python3 testing/vm/json_check.py "$SCHEMA" --batch "$TMP/jlist" --jsonschema \
	> "$TMP/jsum" 2> "$TMP/why"
rc=$?
cat "$TMP/jsum" >> "$TMP/why"
runs=$(cat "$TMP/jn")
sum=$(cat "$TMP/jsum")
# (a floor on the runs: the check of a collection that came out empty is
# none; the Python checks above add theirs to json_log's)
[ "$rc" = 0 ] && [ "$json_runs" -ge 50 ] && [ "$runs" -gt "$json_runs" ]
result "every -j and -p object of every command of this file ($runs runs, $sum) is strict UTF-8 and valid against the schema, as its command's" $? "$TMP/why"
