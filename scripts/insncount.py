# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The instruction counter's output (tools/testing/bench/mcm_insn_plugin.c).

MARK lines are running totals at each boundary marker a program executed,
under the tag the program named its run with; a phase's instructions are
the differences between two of its boundaries. Used by scripts/bench and
scripts/insn-selftest.
"""

import collections

# measured call kinds: the 'K'/'k' markers' argument, enum rdma_mcm_timed
KINDS = ["join_ioctl", "leave_ioctl", "rdma_join_multicast",
         "rdma_leave_multicast"]

Mark = collections.namedtuple("Mark", "arg vcpu user kernel calls insns "
                              "unmatched")
Phase = collections.namedtuple("Phase", "user kernel calls insns unmatched")


def read_marks(path):
    """{tag: {boundary arg: Mark}} (a tag's later mark of an arg wins)."""
    marks = {}
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError:
        return marks
    for line in lines:
        f = line.split()
        if len(f) != 15 or f[0] != "MARK" or \
                not all(x.isdigit() for x in f[1:]):
            continue
        v = [int(x) for x in f[1:]]
        marks.setdefault(v[0], {})[v[1]] = Mark(
            v[1], v[2], v[3], v[4], v[5:13:2], v[6:13:2], v[13])
    return marks


def phase(marks, tag, a, b):
    """The instructions from boundary @a to @b of run @tag, or None."""
    run = marks.get(tag, {})
    if a not in run or b not in run:
        return None
    x, y = run[a], run[b]
    return Phase(y.user - x.user, y.kernel - x.kernel,
                 [q - p for p, q in zip(x.calls, y.calls)],
                 [q - p for p, q in zip(x.insns, y.insns)],
                 y.unmatched - x.unmatched)
