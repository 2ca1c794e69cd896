#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The /dev/rdma_mcm ABI through raw ioctls from a 32-bit process, through
# compat_ioctl: every documented errno (each one in Documentation/uapi.rst's
# table),
# argument sizes from each struct's VER0 up, failing commands writing
# nothing back, nothing uninitialised reaching the caller (events, QUERY,
# LIST and batch entries read into pattern-filled buffers), per-entry
# results and E2BIG entries of batches, SET_EVENTS, faulting pointers,
# per-file handles, purge on leave, limits, the source port ignored,
# DEVICE_REMOVED with rxe1 deleted and re-added, an old binary's structs
# (152-byte JOIN, 200-byte members), source-specific joins (each errno,
# the IGMPv3 filter in /proc/net/mcfilter, batches with sources) and IPv6
# groups on RoCE v2 (2001:db8:6::2 added to veth1 and removed again)
# (tools/testing/abi/, which prints the checks itself; mcm_abi.h says
# which file checks what).

. "$(dirname "$0")/lib.sh"
trap - EXIT
modprobe rdma_mcm || exit 1
/usr/libexec/rdma_mcm/bin/mcm_abi_test32 >&"$KTAP_FD"
rc=$?
rmmod rdma_mcm || rc=1
exit $rc
