#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Security: what an unprivileged user (uid 65534) may do with
# /dev/rdma_mcm, as Documentation/uapi.rst's "Permissions" says: open it
# and join, within the per-file limits; not change the module's
# parameters nor read its debugfs; and a killed process leaves nothing
# behind. (That one file's handles are useless from another is checked,
# command by command, by the ABI test.)

. "$(dirname "$0")/lib.sh"

NOBODY=65534
MAX=32
OUT=/tmp/security.out
PARAM=/sys/module/rdma_mcm/parameters/max_memberships
as_nobody() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }
stat_of() { awk -v k="$1" -v c="$2" '$1 == k && $2 == c { print $NF; f = 1 } END { if (!f) print 0 }' $OUT; }
igmp_clean() { ! awk '$1 ~ /^[0-9A-F]{4}03EF$/ { f = 1 } END { exit !f }' /proc/net/igmp; }
live_members() { awk '$1 == "members" { print $2 }' /sys/kernel/debug/rdma_mcm/live; }
has_members() { [ "$(live_members)" -gt 0 ]; }

plan 13
check "rdma_mcm loads" modprobe rdma_mcm
ok "/dev/rdma_mcm is mode 0666, like rdma_cm's node" [ "$(stat -c %a /dev/rdma_mcm)" = 666 ]
echo $MAX > $PARAM

as_nobody /usr/libexec/rdma_mcm/bin/mcm_stress --seconds 5 --procs 1 --threads 2 > $OUT
rc=$?
while read -r line; do diag "$line"; done < $OUT
ok "uid $NOBODY runs the stress program with no violated invariant" [ $rc -eq 0 ]
ok "uid $NOBODY really ran unprivileged" grep -q "uid $NOBODY\$" $OUT
ok "uid $NOBODY joins groups ($(stat_of ok JOIN))" [ "$(stat_of ok JOIN)" -gt 0 ]
ok "the per-file limit holds for uid $NOBODY (ENOBUFS reached)" \
	grep -q "^errno JOIN ENOBUFS " $OUT
ok "uid $NOBODY cannot change max_memberships" \
	bash -c "! setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups sh -c 'echo 100000 > $PARAM' 2>/dev/null && [ \$(cat $PARAM) = $MAX ]"
ok "uid $NOBODY cannot read rdma_mcm's debugfs" \
	bash -c "! setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups cat /sys/kernel/debug/rdma_mcm/live 2>/dev/null"

# SIGKILL a process of uid 65534 in the middle of its work
# (setpriv directly, not the as_nobody function: $! must be the process)
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
	/usr/libexec/rdma_mcm/bin/mcm_stress --seconds 60 --procs 1 --threads 2 > /dev/null &
victim=$!
ok "uid $NOBODY's process holds memberships" wait_for 20 has_members
kill -KILL $victim
wait $victim 2>/dev/null
ok "its worker process died with it" wait_for 10 bash -c '! pidof mcm_stress > /dev/null'
diag "live after SIGKILL: $(tr '\n' ' ' < /sys/kernel/debug/rdma_mcm/live)"
ok "after SIGKILL, rdma_mcm's live objects are zero" wait_for 20 live_zero
ok "after SIGKILL, /proc/net/igmp lists none of the test groups" wait_for 10 igmp_clean
echo 131072 > $PARAM
check "rmmod rdma_mcm" rmmod rdma_mcm
