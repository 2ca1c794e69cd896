#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""What the kernel's ynl CLI printed, against what rdma-mcm -j printed.

    ynl_compare.py members YNL CLI [--count N]   ynl --dump member-get
                                                 / rdma-mcm -j show
    ynl_compare.py contexts YNL CLI [--count N]  ynl --dump ctx-get
                                                 / rdma-mcm -j ctx
    ynl_compare.py stats YNL CLI                 ynl --do stats-get
                                                 / rdma-mcm -j stats
    ynl_compare.py events YNL CLI GROUP [--count N]
                                                 ynl --subscribe events
                                                 / rdma-mcm -j monitor
    ynl_compare.py policy YNL SPEC OP MODE       ynl --dump/--do OP --policy
                                                 / the spec's request

YNL is ynl's --output-json output (a dump: one list; a do: one object;
notifications: one object a line), CLI rdma-mcm's (one object a line).
Each of ynl's records is put in the CLI's terms (its keys and names: the
group as an address, "type":"full", "joined_by":"rdma_cm"), and the two
lists must be equal record for record, every key compared but the ages
(age_ms, state_age_ms: the two read at different moments) and what only
the CLI adds (errno names, wall_time). A key one side has and the other
not is a difference too. events compares the events of GROUP only.
policy: the kernel's policy has exactly the spec's request attributes,
each of the spec's type, with the spec's min and max (checks) or else the
type's whole range; a mode without request attributes must accept none.
Prints what differs; exits 1 when anything does.
"""

import json
import socket
import sys

FAMILIES = {socket.AF_INET: "inet", socket.AF_INET6: "inet6", 27: "ib"}
JOIN_TYPES = {"fullmember": "full", "sendonly-fullmember": "send-only"}
# keys that differ between two reads, and what only the CLI says
IGNORED = {"age_ms", "state_age_ms", "errno", "last_errno", "wall_time"}


def addr(family, hexed):
    raw = bytes.fromhex(hexed)
    if family == socket.AF_INET and len(raw) == 4:
        return socket.inet_ntop(socket.AF_INET, raw)
    return socket.inet_ntop(socket.AF_INET6, raw)


def under(name):
    return name.replace("-", "_")


def owner(y, out):
    """The owner's keys, as owner_json() prints them."""
    out["owner"] = y["owner-kind"]
    for k, c in (("owner-pid", "pid"), ("owner-uid", "uid"),
                 ("owner-name", "comm")):
        if k in y:
            out[c] = y[k]


def place(y, out):
    """Where a context is: its namespace, device, port, netdev, source."""
    for k, c in (("file-ctx", "file_ctx"), ("netns", "netns"),
                 ("dev-name", "dev"), ("port", "port"),
                 ("netdev", "netdev")):
        if k in y:
            out[c] = y[k]
    if "family" in y:
        out["family"] = FAMILIES.get(y["family"], "unknown")
    if "src" in y:
        out["src"] = addr(y.get("family"), y["src"])


def member(y):
    out = {"ctx": y["ctx-id"], "handle": y["handle"]}
    owner(y, out)
    place(y, out)
    if "group" in y:
        out["group"] = addr(y.get("family"), y["group"])
    if "mgid" in y:
        out["mgid"] = addr(socket.AF_INET6, y["mgid"])
    for k in ("mlid", "qkey", "state", "status", "rejoins", "queued"):
        if k in y:
            out[k] = y[k]
    if "join-type" in y:
        out["type"] = JOIN_TYPES.get(y["join-type"], y["join-type"])
    out["last_status"] = y.get("last-status")
    out["qp_attached"] = bool(y.get("qp-attached"))
    if "sources" in y:
        srcs = y["sources"].get("source", [])
        if not isinstance(srcs, list):
            srcs = [srcs]
        out["sources"] = [addr(y.get("family"), s) for s in srcs]
    if "joined-by" in y:
        out["joined_by"] = under(y["joined-by"])
    return out


def counters(y, out):
    """counters, join_failures and errors, as counters_json() prints."""
    out["counters"] = {under(k): v for k, v in y.get("counters", {}).items()
                       if k != "unspec"}
    for k in ("join-failures", "errors"):
        counts = (y.get(k) or {}).get("errno-count", [])
        if not isinstance(counts, list):
            counts = [counts]
        out[under(k)] = [{"errno": c["errno"], "count": c["count"]}
                         for c in counts]


def context(y):
    out = {"ctx": y["ctx-id"]}
    owner(y, out)
    place(y, out)
    flags = y.get("ctx-flags", [])
    out["flags"] = sorted(flags if isinstance(flags, list) else [flags])
    out["members"] = y.get("members")
    counters(y, out)
    return out


def stats(y):
    out = {}
    counters(y, out)
    for k in ("limits", "usage"):
        out[k] = {under(n): v for n, v in y.get(k, {}).items()}
    out["events_lost"] = y.get("events-lost")
    devs = y.get("device", [])
    out["devices"] = []
    for d in devs if isinstance(devs, list) else [devs]:
        dev = {"dev": d.get("dev-name")}
        counters(d, dev)
        if "mcast" in d:
            dev["mcast"] = {under(n): v for n, v in d["mcast"].items()}
        out["devices"].append(dev)
    return out


def event(msg):
    y = msg["msg"]
    out = {"event": y["event"], "time_ns": y["time-ns"], "ctx": y["ctx-id"]}
    if "handle" in y:
        out["handle"] = y["handle"]
    if "family" in y:
        out["family"] = FAMILIES.get(y["family"], "unknown")
    if "group" in y:
        out["group"] = addr(y.get("family"), y["group"])
    if "join-type" in y:
        out["type"] = JOIN_TYPES.get(y["join-type"], y["join-type"])
    for k, c in (("state", "state"), ("dev-name", "dev"),
                 ("status", "status")):
        if k in y:
            out[c] = y[k]
    owner(y, out)
    return out


def cli_side(rec):
    out = {k: v for k, v in rec.items() if k not in IGNORED}
    for k in ("join_failures", "errors"):
        if k in out:
            out[k] = [{"errno": e["errno"], "count": e["count"]}
                      for e in out[k]]
    for d in out.get("devices", []):
        for k in ("join_failures", "errors"):
            d[k] = [{"errno": e["errno"], "count": e["count"]}
                    for e in d.get(k, [])]
    if "flags" in out and isinstance(out["flags"], list):
        out["flags"] = sorted(out["flags"])
    return out


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def differ(ynl, cli, what):
    """Print how two lists of records differ; the number of differences."""
    bad = 0
    if len(ynl) != len(cli):
        print(f"{what}: ynl has {len(ynl)} records, rdma-mcm {len(cli)}")
        bad += 1
    for i, (y, c) in enumerate(zip(ynl, cli)):
        y = {k: v for k, v in y.items() if k not in IGNORED}
        c = cli_side(c)
        for k in sorted(set(y) | set(c)):
            if y.get(k, "(absent)") != c.get(k, "(absent)"):
                print(f"{what} {i}: {k}: ynl {y.get(k, '(absent)')!r}, "
                      f"rdma-mcm {c.get(k, '(absent)')!r}")
                bad += 1
    return bad


def policy(pol, spec_path, op_name, mode):
    import yaml
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    op = next(o for o in spec["operations"]["list"] if o["name"] == op_name)
    attrs = {a["name"]: a for a in spec["attribute-sets"][0]["attributes"]}
    wanted = op.get(mode, {}).get("request", {}).get("attributes", [])
    got = {k: v for k, v in (pol or {}).items() if v.get("type") != "reject"}
    bad = 0
    if sorted(got) != sorted(wanted):
        print(f"policy of {op_name} {mode}: the kernel accepts "
              f"{sorted(got)}, the spec {sorted(wanted)}")
        return 1
    limits = {"u8": (0, 2**8 - 1), "u16": (0, 2**16 - 1),
              "u32": (0, 2**32 - 1), "u64": (0, 2**64 - 1),
              "s8": (-2**7, 2**7 - 1), "s16": (-2**15, 2**15 - 1),
              "s32": (-2**31, 2**31 - 1), "s64": (-2**63, 2**63 - 1)}
    for name in wanted:
        a, p = attrs[name], got[name]
        checks = a.get("checks", {})
        want = {"type": a["type"]}
        if a["type"] in limits:
            lo, hi = limits[a["type"]]
            want["min-value"] = checks.get("min", lo)
            want["max-value"] = checks.get("max", hi)
        have = {k: p.get(k) for k in want}
        if have != want:
            print(f"policy of {op_name} {mode}: {name}: the kernel's "
                  f"{have}, the spec's {want}")
            bad += 1
    return bad


def main(argv):
    count = None
    if "--count" in argv:
        i = argv.index("--count")
        count = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) < 3 or argv[0] not in ("members", "contexts", "stats",
                                        "events", "policy"):
        print(__doc__.split("\n\n")[0] + "\n" + __doc__.split("\n\n")[1])
        return 0 if "--help" in argv else 2
    what, ypath, cpath = argv[:3]
    if what == "policy":
        with open(ypath) as f:
            pol = json.load(f)
        bad = policy(pol, cpath, argv[3], argv[4])
        print(f"policy of {argv[3]} {argv[4]}: "
              f"{'differs' if bad else 'as the spec says'}")
        return 1 if bad else 0
    if what == "events":
        group = argv[3]
        ynl = [event(m) for m in lines(ypath) if m.get("name") == "event"]
        ynl = [e for e in ynl if e.get("group") == group]
        cli = [e for e in lines(cpath) if e.get("group") == group]
    elif what == "stats":
        with open(ypath) as f:
            ynl = [stats(json.load(f))]
        cli = lines(cpath)
    else:
        with open(ypath) as f:
            dump = json.load(f)
        conv = member if what == "members" else context
        ynl = [conv(y) for y in dump]
        cli = lines(cpath)
    bad = differ(ynl, cli, what)
    if count is not None and len(ynl) != count:
        print(f"{what}: {len(ynl)} records, not {count}")
        bad += 1
    print(f"{what}: {len(ynl)} records of ynl, {len(cli)} of rdma-mcm, "
          f"{bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
