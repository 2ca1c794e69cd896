#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Smoke run of mcm_bench: every contender and workload at small N.
modprobe rdma_mcm || exit 1
for n in 10 1000; do
	for c in noop shim batch ucma; do
		for w in joinleave cancel; do
			MCM_BENCH_BUDGET=60 mcm_bench $c $w $n sendonly
		done
	done
done
rmmod rdma_mcm
