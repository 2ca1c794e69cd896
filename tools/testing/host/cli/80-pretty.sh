# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: one JSON writer: -p indents every object of every command (review 11).
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

# Each run once with -j and once with -p: the same objects (their times
# aside), on stdout and on stderr; with -p each object over several lines
cat > "$TMP/pretty.py" <<'PY'
import json, os, subprocess, sys
sys.path[:0] = ["testing/vm", os.path.dirname(sys.argv[0])]
import json_check
from jlog import save

cli = sys.argv[1]
RUNS = [
    ({}, "", ["-V"]),
    ({}, "", ["-h"]),
    ({}, "", ["frob"]),
    ({}, "", ["show", "dev"]),
    ({}, "list\nstats\nhelp\nshow\nfrob\njoin bad\nleave 239.1.1.1\nquit\n",
     ["-b", "10.0.0.1", "join", "239.1.1.1", "239.1.1.2"]),
    ({"FAKE_FAIL_GROUP": "239.9.9.9"}, "quit\n",
     ["-b", "10.0.0.1", "--no-heal", "join", "239.9.9.9"]),
    ({"FAKE_VERBS": "1", "FAKE_CYCLE_AT": "2"}, "",
     ["-t", "10", "recv", "239.5.5.1", "-c", "5"]),
    ({"FAKE_VERBS": "1", "FAKE_REJOIN_AT": "2"}, "",
     ["-t", "10", "send", "239.5.5.1", "-c", "5"]),
    ({}, "", ["show"]), ({}, "", ["ctx"]), ({}, "", ["stats"]),
    ({}, "", ["monitor", "-c", "5"]),
]
TIMES = ("age", "state_age_ms", "wall_time")



def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in TIMES}
    return o


errors = []
for extra, stdin, args in RUNS:
    env = dict(os.environ, **extra)
    got = {}
    for opt in ("-j", "-p"):
        p = subprocess.run([cli, opt] + args, env=env, input=stdin.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120)
        got[opt] = []
        save(f"pretty-{RUNS.index((extra, stdin, args))}{opt}", [opt] + args,
             p.stdout, p.stderr)
        for name, data in (("stdout", p.stdout), ("stderr", p.stderr)):
            text = data.decode("utf-8")
            try:
                objs = [json.loads(l) for l in text.splitlines()] \
                    if opt == "-j" else list(json_check.objects(text))
            except ValueError as e:
                errors.append(f"{opt} {' '.join(args)}: {name}: {e}: {text[:200]!r}")
                objs = []
            if opt == "-p" and objs and \
                    len(text.splitlines()) < 3 * len(objs):
                errors.append(f"{opt} {' '.join(args)}: {name} not indented: {text[:200]!r}")
            got[opt].append([strip(o) for o in objs])
    if got["-j"] != got["-p"] or not any(got["-j"]):
        errors.append(f"{' '.join(args)}: -j {got['-j']!r}\n   -p {got['-p']!r}")
for e in errors:
    print(e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY
JSON_DIR=$TMP/json python3 "$TMP/pretty.py" "$CLI" 2> "$TMP/why"
result "-p: every command's objects (-V, -h, usage errors, session events, list, stats, help, errors, send, recv, show, ctx, stats, monitor) indented, the same as -j's" $? "$TMP/why"

# list and show: one vocabulary for a membership
FAKE_NL_SELF=1 run 'list\nshow ctx 1 group 239.1.0.1\nquit\n' -j -b 10.0.0.1 join 239.1.1.1
python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
lst = [o for o in objs if "flags" in o][0]
show = [o for o in objs if "owner" in o][0]
if lst["type"] != lst["flags"] or not isinstance(lst["state_age_ms"], int):
    sys.exit("list %r" % lst)
for k in set(lst) & set(show):
    if lst[k] is not None and type(lst[k]) != type(show[k]):
        sys.exit("%s: list %r, show %r" % (k, lst[k], show[k]))
common = set(lst) & set(show)
want = {"group", "ctx", "handle", "state", "type", "status", "mgid", "mlid",
        "qkey", "rejoins", "last_status", "state_age_ms", "joined_by"}
if not want <= common:
    sys.exit("not in both: %r" % (want - common))
' "$TMP/out" 2> "$TMP/why"
result "list and show -j: one vocabulary (type, state_age_ms, ...), flags and age kept as list's old keys" $? "$TMP/why"
