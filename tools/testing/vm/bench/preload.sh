#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The preload rows alone, quicker than run.sh: mcm_bench's ucma contender
# as it is and through librdmamcm-preload.so (contender "preload"), and
# librdmamcm per call (shim: rdma_mcm's own cost, which the preload
# inherits), rotating their order, N = 1 .. 10k (REPS_SMALL repetitions up to
# N = 100, REPS above), both workloads and types. Prints RESULT lines in
# run.sh's form: scripts/bench --from-raw reads them.
#   scripts/vm-run --kernel 6.12 --run tools/testing/vm/bench/preload.sh

REPS=${REPS:-3}
REPS_SMALL=${REPS_SMALL:-5}
BUDGET=${BUDGET:-60}
PRELOAD=/usr/lib/x86_64-linux-gnu/rdma-mcm/librdmamcm-preload.so

modprobe rdma_mcm || exit 1
echo "KERNEL $(uname -r)"
one() { # contender workload n type
	if [ "$1" = preload ]; then
		MCM_BENCH_BUDGET=$BUDGET LD_PRELOAD=$PRELOAD mcm_bench "$@"
	else
		MCM_BENCH_BUDGET=$BUDGET mcm_bench "$@"
	fi 2>&1 | grep '^RESULT'
	sleep 0.2
}
for n in 1 10 100 1000 10000; do
	reps=$REPS
	[ "$n" -le 100 ] && reps=$REPS_SMALL
	for rep in $(seq "$reps"); do
		case $((rep % 3)) in
		0) order=(ucma preload shim) ;;
		1) order=(preload shim ucma) ;;
		*) order=(shim ucma preload) ;;
		esac
		for type in sendonly full; do
			for w in joinleave cancel; do
				for c in "${order[@]}"; do
					one "$c" "$w" "$n" "$type"
				done
			done
		done
	done
done
