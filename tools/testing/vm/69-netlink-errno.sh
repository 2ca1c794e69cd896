#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Every errno that Documentation/netlink.rst's "Request errors" table
# names, as the kernel's generic netlink answers the request of its row,
# sent on a raw socket (tools/testing/vm/nl_errno.py); kernel review
# finding 14: the doc said EINVAL where the policy answers ERANGE. Then
# what a listener of the family sees when the module goes (finding 15):
# the controller's notification of the family's removal, after which the
# family is gone for a dump, and nothing blocks.

. "$(dirname "$0")/lib.sh"

LIBEXEC=/usr/libexec/rdma_mcm
NL_ERRNO=$LIBEXEC/nl_errno.py
T=/tmp/nlerr

plan 6
mkdir -p $T
check "modprobe rdma_mcm" modprobe rdma_mcm
python3 $NL_ERRNO --doc $LIBEXEC/netlink.rst > $T/errno.out 2>&1
rc=$?
cat $T/errno.out
ok "every documented request errno is the kernel's" [ $rc -eq 0 ]
ok "each case said ok" sh -c "! grep -q '^not ok' $T/errno.out && [ \$(grep -c '^ok ' $T/errno.out) -ge 10 ]"

# a monitor of the controller's notify group hears the family go
python3 $NL_ERRNO --watch-family > $T/watch.out 2>&1 &
wpid=$!
ok "the watcher is subscribed" wait_for 30 grep -q '^subscribed' $T/watch.out
check "rmmod rdma_mcm while the watcher listens" rmmod rdma_mcm
wait_exit $wpid 30
wrc=$?
cat $T/watch.out
ok "it heard CTRL_CMD_DELFAMILY for rdma_mcm, and the family is gone" \
	sh -c "[ $wrc -eq 0 ] && grep -q '^delfamily rdma_mcm' $T/watch.out &&
	       grep -q '^then GETFAMILY rdma_mcm: ENOENT' $T/watch.out"
