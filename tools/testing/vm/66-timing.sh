#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# /sys/kernel/debug/rdma_mcm/timing, which make bench reads for rdma_mcm's
# overhead above rdma_cm: enabled, it counts every JOIN and LEAVE ioctl
# and every rdma_join_multicast()/rdma_leave_multicast() in them, exactly
# once each, with the rdma_cm call's time inside the ioctl's; disabled, it
# counts nothing; it takes only a boolean. (mcm_bench joins and leaves N
# groups from 192.0.2.2, rxe1.)

. "$(dirname "$0")/lib.sh"

T=/sys/kernel/debug/rdma_mcm/timing
N=50

field() { awk -v k="$1" -v i="$2" '$1 == k { print $i }' $T; }
calls() { field "$1" 2; }
nsec() { field "$1" 3; }

counts_each() {
	local k
	for k in join_ioctl leave_ioctl rdma_join_multicast rdma_leave_multicast; do
		[ "$(calls $k)" = "$1" ] || { diag "$k: $(calls $k) calls, not $1"; return 1; }
	done
}
inside() { # the rdma_cm call's time is a part of its ioctl's
	[ "$(nsec "$2")" -gt 0 ] && [ "$(nsec "$1")" -gt "$(nsec "$2")" ]
}

plan 9
check "modprobe rdma_mcm" modprobe rdma_mcm
ok "timing is off after load" [ "$(field enabled 2)" = 0 ]
check "enable timing" bash -c "echo 1 > $T"
check "mcm_bench joins and leaves $N groups" \
	bash -c "mcm_bench shim cancel $N sendonly | grep -q '^RESULT shim cancel sendonly $N [0-9]'"
ok "each of the $N joins and leaves counted once, at each level" counts_each $N
ok "rdma_join_multicast()'s time lies inside the JOIN ioctls'" \
	inside join_ioctl rdma_join_multicast
ok "rdma_leave_multicast()'s time lies inside the LEAVE ioctls'" \
	inside leave_ioctl rdma_leave_multicast
off_counts_nothing() {
	echo 0 > $T && mcm_bench shim cancel 5 sendonly > /dev/null &&
		counts_each $N && [ "$(field enabled 2)" = 0 ]
}
ok "disabled, it counts nothing more" off_counts_nothing
bad_value() { ! bash -c "echo maybe > $T" 2>/dev/null; }
ok "a value that is not a boolean is refused" bad_value
rmmod rdma_mcm
