# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""KTAP parsing and the pass/fail rules shared by the bench runners.

The VM guest writes KTAP (one top-level test per script, its checks as
subtests); a run is judged on those results, on whether every expected test
reported, and on the kernel console, which must show no warning or crash.
"""

import re

import known_defects

# Kernel log lines that fail a run whatever the tests said.
BAD_CONSOLE = re.compile(
    r"WARNING:|BUG:|Oops|KASAN|refcount_t:|list_add corruption|"
    r"list_del corruption|INFO: task .* blocked|Kernel panic|"
    r"possible circular locking|possible recursive locking|"
    r"inconsistent lock state|UBSAN:")

_RESULT = re.compile(r"^(not ok|ok) (\d+)\s*-?\s*([^#]*?)\s*(?:#\s*(.*))?$")
_PLAN = re.compile(r"^1\.\.(\d+)")


class Test:
    """One KTAP result line, with the subtests reported before it."""

    def __init__(self, name, ok, number, directive, subtests, plan):
        self.name = name
        self.ok = ok
        self.number = number
        self.directive = directive or ""
        self.subtests = subtests
        self.plan = plan

    @property
    def skipped(self):
        return self.directive.upper().startswith("SKIP")


def parse(text):
    """Parse KTAP text. Returns (plan, [Test]) for the top level.

    Nesting is by indentation (4 spaces a level). Subtest lines that come
    before a result belong to it; a subtest plan is kept so that missing
    subtests can be counted.
    """
    # stack of (indent, plan, results) from outermost to innermost
    stack = [[0, None, []]]
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        while indent > stack[-1][0]:
            stack.append([stack[-1][0] + 4, None, []])
        m = _PLAN.match(body)
        if m:
            stack[-1][1] = int(m.group(1))
            continue
        m = _RESULT.match(body)
        if not m:
            continue  # version lines, diagnostics, "# Subtest:"
        subs, subplan = [], None
        while len(stack) > 1 and indent < stack[-1][0]:
            level = stack.pop()
            subs, subplan = level[2], level[1]
        stack[-1][2].append(Test(m.group(3).strip(), m.group(1) == "ok",
                                 int(m.group(2)), m.group(4), subs, subplan))
    while len(stack) > 1:
        stack.pop()
    return stack[0][1], stack[0][2]


class Tally:
    """Leaf results: each subtest counts once, and so does each failure of
    a test that is not explained by its subtests (a crash, a timeout, a
    plan that was not met)."""

    def __init__(self):
        self.passed = []
        self.failed = []
        self.skipped = []

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped

    def ok(self):
        return not self.failed

    def summary(self):
        s = f"{len(self.passed)} passed, {len(self.failed)} failed"
        if self.skipped:
            s += f", {len(self.skipped)} skipped"
        return s

    def report(self, label):
        for name in self.failed:
            print(f"    FAIL {label}: {name}", flush=True)
        for name in self.skipped:
            print(f"    SKIP {label}: {name}", flush=True)
        print(f"{label}: {self.summary()}", flush=True)


def tally_tests(tests, prefix=""):
    t = Tally()
    for test in tests:
        name = f"{prefix}{test.name}"
        if test.subtests or test.plan:
            sub = tally_tests(test.subtests, name + ": ")
            t.add(sub)
            if test.plan is not None and len(test.subtests) < test.plan:
                t.failed.append(f"{name}: only {len(test.subtests)} of "
                                f"{test.plan} planned checks reported")
            elif not test.ok and sub.ok():
                t.failed.append(f"{name}: failed ({test.directive})")
        elif test.skipped:
            t.skipped.append(name)
        elif test.ok:
            t.passed.append(name)
        else:
            t.failed.append(name)
    return t


def print_tests(tests, label, indent=""):
    for test in tests:
        mark = "SKIP" if test.skipped else ("ok  " if test.ok else "FAIL")
        note = f"  # {test.directive}" if test.directive else ""
        print(f"    {indent}{mark} {label}{test.name}{note}", flush=True)
        print_tests(test.subtests, "", indent + "    ")


def scan_console(text):
    """Console lines that must fail the run."""
    return [line for line in text.splitlines() if BAD_CONSOLE.search(line)]


def crashed_before_tests(console, results):
    """Did the kernel die while booting, before anything of rdma_mcm's ran?

    True only when the guest wrote no result, its test runner never started
    (it prints "=== rdma_mcm test" before the first test; nothing loads
    rdma_mcm or the RDMA stack before that) and the console shows a panic
    or an oops. vm-run then boots once more, keeping the crashed console:
    seen once with Debian's 6.12 PREEMPT_RT kernel under TCG (an int3 oops
    in sched_clock_cpu() two seconds into boot, no module loaded).
    """
    if results.strip():
        return False
    return "=== rdma_mcm test" not in console and \
        ("Kernel panic" in console or "Oops" in console)


def stalled_before_tests(console, results, watchdog_fired):
    """Did the kernel hang while booting, before anything of rdma_mcm's ran?

    True only when the boot watchdog stopped a guest that wrote no result,
    whose test runner never started and whose console shows no panic (a
    crash is crashed_before_tests()'s). vm-run then boots once more,
    keeping the stalled console: seen once with Debian's 7.2 kernel under
    TCG on a host loaded with four other QEMU and UML jobs, the console
    silent after "smp: Brought up 1 node, 2 CPUs" for 240 s, nothing of
    rdma_mcm's loaded yet.
    """
    if not watchdog_fired or results.strip():
        return False
    return "=== rdma_mcm test" not in console and \
        "Kernel panic" not in console and "Oops" not in console


def read_text(path):
    """A file's text, or "" when it does not exist."""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def judge_vm_run(name, results_path, console_path, expected, timed_out):
    """Turn one VM boot into a Tally, printing each result."""
    results = read_text(results_path)
    console = read_text(console_path)
    plan, tests = parse(results)
    print_tests(tests, "")
    t = tally_tests(tests)

    reported = [x.name for x in tests]
    for exp in expected:
        if exp not in reported:
            t.failed.append(f"{exp}: no result (the VM never reported it)")
    if plan is not None and len(tests) < plan:
        t.failed.append(f"only {len(tests)} of {plan} planned tests reported")

    check = "the VM ran every test and powered off in time"
    if timed_out or "# rdma_mcm bench: all tests ran" not in results:
        t.failed.append(check + (" (timed out)" if timed_out else ""))
        tail = console.splitlines()[-15:]
        print("    last console lines:", flush=True)
        for line in tail:
            print(f"      {line}", flush=True)
    else:
        t.passed.append(check)

    bad = scan_console(console)
    check = "the kernel console shows no warning, BUG, oops or lockdep report"
    if bad:
        t.failed.append(check)
        print(f"    the console of {name} shows:", flush=True)
        for line in bad[:20]:
            print(f"      {line}", flush=True)
        # a crash inside a driver we do not write is named as its own
        for why in known_defects.attribute(console):
            print(f"    whose: {why}", flush=True)
    else:
        t.passed.append(check)
    return t
