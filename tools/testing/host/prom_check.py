#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""rdma-mcm stats --format prometheus|openmetrics against stats -j.

    prom_check.py FORMAT METRICS STATS_JSON CTX_JSON [QUERIERS_JSON]

FORMAT is prometheus (text 0.0.4) or openmetrics. METRICS is what
`rdma-mcm stats --format FORMAT` printed, STATS_JSON what `rdma-mcm -j
stats` printed, CTX_JSON what `rdma-mcm -j ctx` printed, of the same
(fake) module. METRICS is parsed by python3-prometheus-client's parser of
its format, and must hold exactly the families the JSON implies: each
with its type and a HELP, each sample's name, label set and value equal
to the JSON's figure; no family twice; "# EOF" last in OpenMetrics and
nowhere in text 0.0.4 (node_exporter's textfile collector reads the
latter). Exit 0, or 1 with each difference on stderr.
"""
import json
import sys

from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as om_families
from prometheus_client.parser import \
    text_string_to_metric_families as text_families


def errno_label(e):
    """The errno label of a breakdown's entry in stats -j"""
    if e["errno"] == 0:
        return "other"
    return e["name"] if e["name"] is not None else "errno_%d" % e["errno"]


def querier_families(put, want, rows):
    """rdma-mcm-groups' querier watchdog, from its state file's lines"""
    if not rows:
        return
    for fam, typ, key in (("listening", "gauge", "listening"),
                          ("silent", "gauge", "silent"),
                          ("silences", "counter", "silences"),
                          ("queries", "counter", "queries"),
                          ("ignored_queries", "counter", "ignored"),
                          ("last_query_seconds", "gauge", "last_query")):
        name = "rdma_mcm_groups_querier_" + fam
        want.setdefault(name, (typ, {}))
        for r in rows:
            if r[key] is None:
                continue
            put(name, typ, {"dev": r["dev"], "protocol": r["protocol"]},
                int(r[key]))


def expected(stats, ctxs, queriers=()):
    """{family: (type, {(sample, labels): value})} as stats -j implies"""
    want = {}

    def put(family, typ, labels, value):
        sample = family + "_total" if typ == "counter" else family
        fam = want.setdefault(family, (typ, {}))
        assert fam[0] == typ, family
        key = (sample, tuple(sorted(labels.items())))
        assert key not in fam[1], key
        fam[1][key] = value

    def counters(obj, prefix, labels):
        for k, v in obj["counters"].items():
            put(prefix + k, "counter", labels, v)
        for k in ("join_failures", "errors"):
            fam = prefix + k + "_by_errno"
            want.setdefault(fam, ("counter", {}))
            for e in obj[k]:
                put(fam, "counter", dict(labels, errno=errno_label(e)),
                    e["count"])

    counters(stats, "rdma_mcm_", {})
    for k, v in stats["limits"].items():
        name = k if k.startswith("limit_") else "limit_" + k
        put("rdma_mcm_" + name, "gauge", {}, v)
    for k, v in stats["usage"].items():
        put("rdma_mcm_" + k, "gauge", {}, v)
    put("rdma_mcm_events_lost", "counter", {}, stats["events_lost"])
    for d in stats["devices"]:
        counters(d, "rdma_mcm_dev_", {"dev": d["dev"]})
        for k, v in d.get("mcast", {}).items():
            put("rdma_mcm_dev_mcast_" + k, "gauge", {"dev": d["dev"]}, v)
    places = {}
    for c in ctxs:
        key = (str(c["netns"]), c.get("dev", ""), str(c.get("port", "")))
        n = places.setdefault(key, [0, 0])
        n[0] += 1
        n[1] += c["members"]
    want.setdefault("rdma_mcm_port_contexts", ("gauge", {}))
    want.setdefault("rdma_mcm_port_memberships", ("gauge", {}))
    for (netns, dev, port), (contexts, members) in places.items():
        labels = {"netns": netns, "dev": dev, "port": port}
        put("rdma_mcm_port_contexts", "gauge", labels, contexts)
        put("rdma_mcm_port_memberships", "gauge", labels, members)
    querier_families(put, want, queriers)
    return want


def main(argv):
    fmt, metrics, stats_file, ctx_file = argv[1:5]
    raw = open(metrics, "rb").read()
    text = raw.decode("utf-8")  # strict: a label is valid UTF-8
    stats = json.loads(open(stats_file, "rb").read().decode("utf-8"))
    ctxs = [json.loads(line) for line in open(ctx_file, encoding="utf-8")]
    queriers = []
    if len(argv) > 5:
        queriers = [json.loads(line) for line in open(argv[5],
                                                      encoding="utf-8")]
    errors = []
    if fmt == "openmetrics":
        parse = om_families
        if not text.endswith("\n# EOF\n"):
            errors.append("OpenMetrics output does not end with '# EOF'")
    else:
        parse = text_families
        if "# EOF" in text:
            errors.append("text 0.0.4 output has a '# EOF' line")
    try:
        families = list(parse(text))
    except Exception as e:  # the parser's verdict, whatever its class
        print("%s: the %s parser refuses it: %s" % (metrics, fmt, e),
              file=sys.stderr)
        return 1
    got = {}
    for f in families:
        if f.name in got:
            errors.append("family %s given twice" % f.name)
        if not f.documentation:
            errors.append("family %s has no HELP" % f.name)
        got[f.name] = (f.type, {(s.name, tuple(sorted(s.labels.items()))):
                                s.value for s in f.samples})
    want = expected(stats, ctxs, queriers)
    for name in sorted(set(want) | set(got)):
        if name not in got:
            errors.append("family %s missing" % name)
            continue
        if name not in want:
            errors.append("family %s (%s) not in stats -j" %
                          (name, got[name][0]))
            continue
        if got[name][0] != want[name][0]:
            errors.append("family %s is a %s, not a %s" %
                          (name, got[name][0], want[name][0]))
        g, w = got[name][1], want[name][1]
        for key in sorted(set(g) | set(w)):
            if key not in g:
                errors.append("sample %s%s missing" % key)
            elif key not in w:
                errors.append("sample %s%s not in stats -j" % key)
            elif g[key] != w[key]:
                errors.append("sample %s%s is %r, stats -j says %r" %
                              (key + (g[key], w[key])))
    nsamples = sum(len(f[1]) for f in want.values())
    for e in errors:
        print(e, file=sys.stderr)
    print("%d families, %d samples" % (len(want), nsamples))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
