# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Known defects of the kernels the bench boots, and whose a crash is.

A VM run fails on any warning or crash on its console (ktap.py); this file
says more about it: whether the crash happened inside a driver we do not
write (rxe, today), and whether its stack matches a known upstream defect,
so that a crash inside rxe is reported as rxe's and not read as rdma_mcm's.
Each entry also names the upstream fix by its subject line, which Debian's
kernel changelog quotes: fix_status() reads a boot's kernel package and
says whether that kernel carries it. Documentation/known-defects.rst lists
the same entries for readers.
"""

import gzip
import glob
import os
import re

# id, where, what it does, since when, the fix (its subject line, as
# Debian's changelog quotes it), and the functions a crash of it shows
DEFECTS = [
    {
        "id": "rxe-mcg-uaf",
        "module": "rdma_rxe",
        "title": "rxe frees a published multicast group when "
                 "rxe_mcast_add() fails",
        "since": "5.18 (rxe's multicast groups rewritten as struct "
                 "rxe_mcg)",
        "since_version": (5, 18),
        "fix": "RDMA/rxe: insert mcg into mcg_tree only after "
               "rxe_mcast_add() succeeds",
        # its use after free shows in the lookup or the packet path
        "frames": re.compile(r"^(rxe_get_mcg|rxe_lookup_mcg|__rxe_lookup_mcg"
                             r"|rxe_attach_mcast|rxe_detach_mcast"
                             r"|rxe_cleanup_mcg|__rxe_destroy_mcg"
                             r"|rxe_rcv_mcast_pkt|rxe_mcast_\w+)$"),
    },
    {
        "id": "rxe-mcast-attach-race",
        "module": "rdma_rxe",
        "title": "two QPs attaching one MGID at once race in rxe's "
                 "multicast pool (\"key already exists\"); the process's "
                 "exit then warns in ib_uverbs",
        "since": "rxe's first release",
        "fixed_version": (5, 18),
        "fix": "RDMA/rxe: Replace pool with red-black tree for mcg",
        "frames": None,	# the warning is ib_uverbs', at the file's close
    },
    {
        "id": "rxe-rnr-retry",
        "module": "rdma_rxe",
        "title": "rxe retries an RNR NAK at its next retransmit timer, "
                 "not after the RNR timeout the responder asked for",
        "since": "rxe's first release",
        "fixed_version": (5, 18),
        "fix": "RDMA/rxe: Fix rnr retry behavior",
        "frames": None,	# no crash: a sender's RNR retry exceeded
    },
]

# A frame of a stack trace: "func+0x1f/0x80 [module]" (or a RIP line)
_FRAME = re.compile(r"(?:RIP: [0-9a-f]{4}:|^|\s)(?:\? )?([A-Za-z_][\w.]*)"
                    r"\+0x[0-9a-f]+/0x[0-9a-f]+(?: \[(\w+)\])?")
# What starts a report, and the frames that only report it
_START = re.compile(r"BUG:|Oops|KASAN:|WARNING:|general protection fault|"
                    r"UBSAN:|refcount_t:|list_(add|del) corruption")
_REPORTER = re.compile(r"^(dump_stack\w*|show_stack|print_report|"
                       r"print_address_description\w*|kasan_\w+|"
                       r"__kasan_\w+|report_bug|handle_bug|exc_\w+|"
                       r"asm_exc_\w+|__warn|warn_slowpath\w*|"
                       r"refcount_warn_saturate|__list_\w+_valid\w*|"
                       r"ubsan_\w+|__ubsan_\w+|panic|die\w*|oops_\w+)$")
_REPORT_LINES = 80


def reports(console):
    """Each report on a console: (its first line, [(function, module)])."""
    lines = console.splitlines()
    out = []
    i = 0
    while i < len(lines):
        if not _START.search(lines[i]):
            i += 1
            continue
        frames = []
        j = i + 1
        while j < len(lines) and j < i + _REPORT_LINES:
            if j > i + 1 and _START.search(lines[j]) and \
                    "---[ end trace" not in lines[j]:
                break
            if "---[ end trace" in lines[j] or "Kernel panic" in lines[j]:
                j += 1
                break
            m = _FRAME.search(lines[j])
            if m:
                frames.append((m.group(1), m.group(2)))
            j += 1
        out.append((lines[i].strip(), frames))
        i = j
    return out


def _own_frames(frames):
    """The frames past the ones that only print the report."""
    return [f for f in frames if not _REPORTER.match(f[0])]


def attribute(console):
    """For each report on a console, a sentence saying whose it is.

    Only where it happened counts: the first two frames past the
    reporting machinery (a report's RIP, or its top frames). A report
    whose first such frame is inside a module of a known defect (today
    rdma_rxe) is that module's; one whose frames are a known defect's
    functions names the defect. A report that merely passed through rxe
    further down, one with no frames, or one inside anything else is not
    attributed (the run fails on every report alike).
    """
    out = []
    for first, frames in reports(console):
        own = _own_frames(frames)[:2]
        for d in DEFECTS:
            if d["frames"] and any(d["frames"].match(fn) and
                                   m == d["module"] for fn, m in own):
                out.append(f"{first}: matches known defect {d['id']} "
                           f"({d['title']}; fix upstream: \"{d['fix']}\"; "
                           "see Documentation/known-defects.rst)")
                break
        else:
            for d in DEFECTS:
                if own and own[0][1] == d["module"]:
                    out.append(f"{first}: inside {d['module']} (a crash of "
                               f"{d['module']}'s own, no known defect "
                               "matches its stack)")
                    break
    return out


def _changelogs(kroot):
    return sorted(glob.glob(os.path.join(kroot, "usr", "share", "doc",
                                         "linux-image-*", "changelog*.gz")))


def kernel_version(kroot):
    """(major, minor) of the kernel unpacked in kroot, or None."""
    for name in sorted(os.listdir(os.path.join(kroot, "lib", "modules"))
                       if os.path.isdir(os.path.join(kroot, "lib",
                                                     "modules")) else []):
        m = re.match(r"(\d+)\.(\d+)", name)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def fix_status(kroot):
    """{defect id: "fixed (<changelog entry>)" | "not fixed" | "unknown" |
    "not affected"}.

    From the kernel package's Debian changelog in the boot's root: the fix's
    subject line and the first entry above it (the release that took it).
    A kernel older than the defect is not affected.
    """
    status = {}
    version = kernel_version(kroot)
    logs = _changelogs(kroot)
    texts = []
    for path in logs:
        try:
            with gzip.open(path, "rt", errors="replace") as f:
                texts.append(f.read().splitlines())
        except OSError:
            pass
    for d in DEFECTS:
        if version and version >= d.get("fixed_version", (999, 0)):
            status[d["id"]] = (f"fixed (upstream in {d['fixed_version'][0]}."
                               f"{d['fixed_version'][1]})")
            continue
        if version and version < d.get("since_version", (0, 0)):
            status[d["id"]] = (f"not affected ({version[0]}.{version[1]} "
                               f"predates it: since {d['since']})")
            continue
        if not texts:
            status[d["id"]] = "unknown (the kernel package has no changelog)"
            continue
        status[d["id"]] = "not fixed (its fix is not in the changelog)"
        for lines in texts:
            release = None
            for line in lines:
                if line.startswith("linux"):
                    release = line.split(";")[0].strip()
                if d["fix"] in line:
                    status[d["id"]] = f"fixed ({release or 'changelog'})"
                    break
            if status[d["id"]].startswith("fixed"):
                break
    return status
