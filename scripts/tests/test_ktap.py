#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Self-tests of the bench's judge (scripts/ktap.py): a harness that cannot
fail is worse than none, so each rule that fails a run is tested here."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import ktap  # noqa: E402
import known_defects  # noqa: E402

GOOD = """KTAP version 1
1..2
    KTAP version 1
    # Subtest: bench
    1..2
    ok 1 stack loads
    ok 2 rxe0 added
ok 1 bench
    KTAP version 1
    # Subtest: module
    1..1
    ok 1 modprobe
ok 2 module
# rdma_mcm bench: all tests ran
"""


def judge(results, console="[ 1.0] booted\n", expected=("bench", "module"),
          timed_out=False):
    with tempfile.TemporaryDirectory() as d:
        r = os.path.join(d, "results.ktap")
        c = os.path.join(d, "console.log")
        for path, text in ((r, results), (c, console)):
            with open(path, "w") as f:
                f.write(text)
        saved = sys.stdout
        sys.stdout = open(os.devnull, "w")
        try:
            return ktap.judge_vm_run("t", r, c, list(expected), timed_out)
        finally:
            sys.stdout.close()
            sys.stdout = saved


class KtapParse(unittest.TestCase):
    def test_nested_results_are_leaves(self):
        plan, tests = ktap.parse(GOOD)
        self.assertEqual(plan, 2)
        self.assertEqual([t.name for t in tests], ["bench", "module"])
        self.assertEqual([s.name for s in tests[0].subtests],
                         ["stack loads", "rxe0 added"])
        t = ktap.tally_tests(tests)
        self.assertEqual((len(t.passed), len(t.failed)), (3, 0))

    def test_failed_subtest_counts_once(self):
        text = GOOD.replace("ok 2 rxe0 added", "not ok 2 rxe0 added # rc 1")
        text = text.replace("ok 1 bench", "not ok 1 bench")
        t = ktap.tally_tests(ktap.parse(text)[1])
        self.assertEqual(t.failed, ["bench: rxe0 added"])

    def test_missing_subtests_fail(self):
        text = GOOD.replace("    ok 2 rxe0 added\n", "")
        t = ktap.tally_tests(ktap.parse(text)[1])
        self.assertTrue(any("only 1 of 2" in f for f in t.failed))

    def test_script_failure_without_failed_subtest_fails(self):
        text = GOOD.replace("ok 2 module", "not ok 2 module # exit status 137")
        t = ktap.tally_tests(ktap.parse(text)[1])
        self.assertEqual(len(t.failed), 1)

    def test_skip_is_not_a_pass(self):
        text = GOOD.replace("ok 1 modprobe", "ok 1 modprobe # SKIP no rxe")
        t = ktap.tally_tests(ktap.parse(text)[1])
        self.assertEqual(t.skipped, ["module: modprobe"])
        self.assertNotIn("module: modprobe", t.passed)


class BootCrash(unittest.TestCase):
    PANIC = "[ 2.0] Oops: int3: 0000 [#1] PREEMPT_RT SMP\n" \
            "[ 2.1] Kernel panic - not syncing: Fatal exception\n"

    def test_crash_before_the_runner_is_a_boot_crash(self):
        self.assertTrue(ktap.crashed_before_tests(self.PANIC, ""))

    def test_crash_once_tests_ran_is_not(self):
        console = "=== rdma_mcm test 1/9: bench\n" + self.PANIC
        self.assertFalse(ktap.crashed_before_tests(console, ""))

    def test_crash_with_results_is_not(self):
        self.assertFalse(ktap.crashed_before_tests(self.PANIC,
                                                   "KTAP version 1\n"))

    def test_quiet_boot_without_results_is_not(self):
        self.assertFalse(ktap.crashed_before_tests("[ 1.0] booted\n", ""))


class BootStall(unittest.TestCase):
    QUIET = "[ 1.0] smp: Brought up 1 node, 2 CPUs\n"

    def test_stall_before_the_runner_is_a_boot_stall(self):
        self.assertTrue(ktap.stalled_before_tests(self.QUIET, "", True))

    def test_not_without_the_watchdog(self):
        self.assertFalse(ktap.stalled_before_tests(self.QUIET, "", False))

    def test_not_once_tests_ran(self):
        console = self.QUIET + "=== rdma_mcm test 1/9: bench\n"
        self.assertFalse(ktap.stalled_before_tests(console, "", True))

    def test_not_with_results(self):
        self.assertFalse(ktap.stalled_before_tests(self.QUIET,
                                                   "KTAP version 1\n", True))

    def test_a_crash_is_not_a_stall(self):
        self.assertFalse(ktap.stalled_before_tests(BootCrash.PANIC, "", True))


class VmJudge(unittest.TestCase):
    def test_clean_run_passes(self):
        self.assertTrue(judge(GOOD).ok())

    def test_missing_test_fails(self):
        self.assertFalse(judge(GOOD, expected=("bench", "module", "mckey")).ok())

    def test_no_end_marker_fails(self):
        self.assertFalse(judge(GOOD.replace("# rdma_mcm bench: all tests ran",
                                            "")).ok())

    def test_timeout_fails(self):
        self.assertFalse(judge(GOOD, timed_out=True).ok())

    def test_console_lines_fail(self):
        for line in ("WARNING: CPU: 1 PID: 7 at drivers/x.c:1 f+0x1/0x2",
                     "BUG: KASAN: slab-use-after-free in f+0x1/0x2",
                     "Oops: 0000 [#1] PREEMPT SMP NOPTI",
                     "refcount_t: underflow; use-after-free.",
                     "list_del corruption. prev->next should be x",
                     "INFO: task kworker/0:1:12 blocked for more than 120 s",
                     "Kernel panic - not syncing: Fatal exception",
                     "WARNING: possible circular locking dependency detected"):
            with self.subTest(line=line):
                self.assertFalse(judge(GOOD, console=f"[ 2.0] {line}\n").ok())

    def test_ordinary_console_passes(self):
        console = ("[ 5.8] infiniband rxe1: set active\n"
                   "libibverbs: Warning: couldn't load driver 'x'\n")
        self.assertTrue(judge(GOOD, console=console).ok())


# A use after free of an rxe multicast group, as KASAN reports one (the
# shape of a report on 6.x; addresses and offsets made up)
RXE_UAF = """[ 81.20] ==================================================================
[ 81.20] BUG: KASAN: slab-use-after-free in rxe_rcv_mcast_pkt+0x5d/0x560 [rdma_rxe]
[ 81.20] Read of size 8 at addr ffff888104a3c020 by task ksoftirqd/1/22
[ 81.20] CPU: 1 PID: 22 Comm: ksoftirqd/1 Tainted: G           OE
[ 81.20] Call Trace:
[ 81.20]  <TASK>
[ 81.20]  dump_stack_lvl+0x48/0x70
[ 81.20]  print_report+0xd2/0x650
[ 81.20]  kasan_report+0xd2/0x110
[ 81.20]  rxe_rcv_mcast_pkt+0x5d/0x560 [rdma_rxe]
[ 81.20]  rxe_rcv+0x3f1/0x920 [rdma_rxe]
[ 81.20]  rxe_udp_encap_recv+0x151/0x240 [rdma_rxe]
[ 81.20]  </TASK>
[ 81.21] ==================================================================
"""
# rxe's own oops elsewhere, and one inside rdma_mcm
RXE_OTHER = """[ 90.0] BUG: kernel NULL pointer dereference, address: 0000000000000008
[ 90.0] Oops: 0000 [#1] PREEMPT SMP NOPTI
[ 90.0] RIP: 0010:rxe_requester+0x2a1/0x1420 [rdma_rxe]
[ 90.0] Call Trace:
[ 90.0]  do_task+0x61/0x1e0 [rdma_rxe]
[ 90.0]  process_one_work+0x17a/0x330
"""
MCM_OOPS = """[ 90.0] WARNING: CPU: 0 PID: 9 at drivers/rdma_mcm_state.c:80 x+0x1/0x2
[ 90.0] RIP: 0010:rdma_mcm_transition+0x44/0x90 [rdma_mcm]
[ 90.0] Call Trace:
[ 90.0]  rdma_mcm_leave+0x61/0x1e0 [rdma_mcm]
[ 90.0]  rxe_detach_mcast+0x10/0x80 [rdma_rxe]
"""


class KnownDefects(unittest.TestCase):
    def test_rxe_mcg_uaf_is_named(self):
        why = known_defects.attribute(RXE_UAF)
        self.assertEqual(len(why), 1)
        self.assertIn("known defect rxe-mcg-uaf", why[0])
        # and the run still fails: a known defect is not a pass
        self.assertFalse(judge(GOOD, console=RXE_UAF).ok())

    def test_other_rxe_crash_is_rxes(self):
        why = known_defects.attribute(RXE_OTHER)
        self.assertTrue(why)
        self.assertIn("inside rdma_rxe", why[0])
        self.assertNotIn("matches known defect", " ".join(why))

    def test_own_crash_is_not_blamed_on_rxe(self):
        # rxe's frame deeper in the stack does not make it rxe's
        self.assertEqual(known_defects.attribute(MCM_OOPS), [])

    def test_fix_status_from_the_changelog(self):
        import gzip
        fix = known_defects.DEFECTS[0]["fix"]
        with tempfile.TemporaryDirectory() as d:
            self.assertTrue(known_defects.fix_status(d)["rxe-mcg-uaf"]
                            .startswith("unknown"))
            doc = os.path.join(d, "usr", "share", "doc", "linux-image-x")
            os.makedirs(doc)
            log = os.path.join(doc, "changelog.Debian.gz")
            with gzip.open(log, "wt") as f:
                f.write("linux (7.2.13-1) unstable; urgency=medium\n"
                        "  * other\n"
                        "linux (7.2.8-1) unstable; urgency=medium\n"
                        f"    - {fix}\n")
            self.assertEqual(known_defects.fix_status(d)["rxe-mcg-uaf"],
                             "fixed (linux (7.2.8-1) unstable)")
            with gzip.open(log, "wt") as f:
                f.write("linux (6.1.100-1) bookworm; urgency=medium\n"
                        "    - RDMA/rxe: something else\n")
            self.assertTrue(known_defects.fix_status(d)["rxe-mcg-uaf"]
                            .startswith("not fixed"))
            # a kernel older than the defect has nothing to fix
            os.makedirs(os.path.join(d, "lib", "modules", "5.10.0-46-amd64"))
            self.assertTrue(known_defects.fix_status(d)["rxe-mcg-uaf"]
                            .startswith("not affected (5.10"))


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors)
    print(f"bench self-tests: {result.testsRun - failed} passed, "
          f"{failed} failed")
    sys.exit(1 if failed else 0)
