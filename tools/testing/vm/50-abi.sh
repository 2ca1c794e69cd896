#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The /dev/rdma_mcm ABI through raw ioctls from a 64-bit process: every
# documented errno, extensible structs, faulting pointers, per-file
# handles, events, purge on leave, batches, limits
# (tools/testing/abi/mcm_abi_test.c prints the checks itself).

. "$(dirname "$0")/lib.sh"
trap - EXIT
modprobe rdma_mcm || exit 1
/usr/libexec/rdma_mcm/bin/mcm_abi_test >&"$KTAP_FD"
rc=$?
rmmod rdma_mcm || rc=1
exit $rc
