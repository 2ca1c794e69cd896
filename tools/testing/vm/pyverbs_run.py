#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Run rdma-core's pyverbs test-suite as its run_tests.py does, its files
unchanged, with one thing changed: how a test finds the network device of
an RDMA device.

The suite (rdma-core 44: RDMATestCase._get_ip_mac() in tests/base.py)
lists /sys/class/infiniband/DEV/device/net/, the netdevs of the device's
parent. A Soft-RoCE device has no parent (rxe registers a virtual
ib_device): the suite finds no netdev, so no IP address, and skips every
RDMA CM test ("Device rxe0 doesn't have net interface"). Here a device
with no device/net/ gets the netdev of the GID in use instead, from its
port's GID table (ports/PORT/gid_attrs/ndevs/INDEX; without a GID index,
the first GID that has one), which is the netdev rxe runs on.

  pyverbs_run.py RUN_TESTS_ARGS...   e.g. --dev rxe0 --gid 1 -v -k rdmacm

PYVERBS_TESTS names the suite's directory (default: the guest's copy).
"""

import os
import sys
import unittest
from importlib.machinery import SourceFileLoader

TESTS = os.environ.get("PYVERBS_TESTS", "/usr/libexec/rdma_mcm/pyverbs/tests")


def gid_netdev(dev, port, idx):
    """The netdev of GID @idx of @dev's @port (the first GID with one when
    @idx is None), or None."""
    d = f"/sys/class/infiniband/{dev}/ports/{port}/gid_attrs/ndevs"
    try:
        idxs = [idx] if idx is not None else sorted(int(n) for n in
                                                    os.listdir(d))
    except OSError:
        return None
    for i in idxs:
        try:
            with open(f"{d}/{i}") as f:
                name = f.read().strip()
        except OSError:  # an empty entry reads EINVAL
            continue
        if name:
            return name
    return None


def patch(base):
    orig = base.RDMATestCase._get_ip_mac

    def _get_ip_mac(self, dev, port, idx):
        if os.path.exists(f"/sys/class/infiniband/{dev}/device/net/"):
            return orig(self, dev, port, idx)
        name = gid_netdev(dev, port, idx)
        try:
            if name is None:
                raise KeyError(dev)
            ip_addr, mac_addr = self.get_ip_mac_address(name)
        except (KeyError, IndexError):
            self.args.append([dev, port, idx, None, None])
        else:
            self.args.append([dev, port, idx, ip_addr, mac_addr])
    base.RDMATestCase._get_ip_mac = _get_ip_mac


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]) and \
            not os.path.exists(os.path.join(TESTS, "run_tests.py")):
        print(__doc__)
        return 0
    # what run_tests.py does, from its directory
    sys.path.insert(0, TESTS)
    from args_parser import parser
    tests = SourceFileLoader("tests", os.path.join(TESTS, "__init__.py")) \
        .load_module()
    patch(sys.modules["tests.base"])
    parser.parse_args()
    unittest.main(module=tests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
