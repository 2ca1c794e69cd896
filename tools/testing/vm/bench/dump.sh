#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The netlink dump of every membership on the host, inside one VM boot
# (scripts/bench runs it on each kernel): a process holds N send-only
# memberships and dumps them 5 times with rdma_mcm_nl_dump_members(), at
# N = 25k, 50k and 100k, twice, the second time in the other order. Prints
# DUMP lines (mcm_bench's), or its RESULT line when a run fails.

modprobe rdma_mcm || exit 1
echo "KERNEL $(uname -r)"
for rep in 1 2; do
	ns="25000 50000 100000"
	[ "$rep" -eq 2 ] && ns="100000 50000 25000"
	for n in $ns; do
		MCM_BENCH_BUDGET=300 mcm_bench batch dump "$n" sendonly 2>&1 |
			grep -E '^(DUMP|RESULT)'
		sleep 0.2
	done
done
rmmod rdma_mcm
