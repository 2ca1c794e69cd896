#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The benchmark inside one VM boot (scripts/bench runs it on each kernel):
# every contender of mcm_bench, alternating their order from one repetition
# to the next so that drift hits them alike, over N = 1 .. 100k, send-only
# and full-member joins, join+leave and cancel workloads (7 repetitions up
# to N = 100, where a run is short and noisy, 3 at 1k and 10k, 1 at 100k);
# the join-to-JOINED latency of single joins (LATENCY lines); rdma_mcm's
# kernel time against rdma_cm's inside it (TIMING lines); then kernel
# memory per membership at N = 10k. Prints RESULT, LATENCY, TIMING and MEM
# lines. (The netlink dump has its own script, dump.sh.) Every mcm_bench
# run gets a tag of its own (MCM_BENCH_TAG), which its RESULT and TIMING
# lines carry: under make bench's instruction counter, the tag names the
# run's marks (scripts/insncount.py).

NS=${NS:-1 10 100 1000 10000 100000}
REPS=${REPS:-3}
REPS_SMALL=${REPS_SMALL:-7}
LAT_RUNS=${LAT_RUNS:-200}
BUDGET=${BUDGET:-45}
# The counting boot (make bench's second, with the instruction counter,
# mcmbench.counting=1, and QEMU's -icount where the kernel boots under
# it, mcmbench.icount=1): the cells and the module's timing markers only
# (latency and memory are the first boot's). Under -icount guest time is
# one nanosecond per instruction, so the budget is of instructions (45 s:
# 45 billion); a count does not vary as a time does, so fewer
# repetitions, and N up to 10k (a count per operation at 100k is the 10k
# one's, but for ucma's quadratic leave, which times out).
if [ "${MCM_COUNTING:-0}" = 1 ]; then
	NS=${NS_COUNT:-1 10 100 1000 10000}
	REPS=${REPS_COUNT:-2}
	REPS_SMALL=${REPS_SMALL_COUNT:-3}
	LAT_RUNS=0
fi
CONTENDERS=(shim batch ucma preload)
# the preload contender: the ucma one's code, through librdmamcm-preload.so
PRELOAD=/usr/lib/x86_64-linux-gnu/rdma-mcm/librdmamcm-preload.so
tag=0
bench() { # contender args...
	tag=$((tag + 1))
	export MCM_BENCH_TAG=$tag
	if [ "$1" = preload ]; then
		LD_PRELOAD=$PRELOAD mcm_bench "$@"
	else
		mcm_bench "$@"
	fi
}

modprobe rdma_mcm || exit 1
echo "KERNEL $(uname -r)"

declare -A gave_up	# contender/workload/type -> N that timed out
# Full members at N >= FULL_MAX are not run: the IP stack's per-netdev
# group list is walked at every IGMP/MLD join and leave, so 100k full
# members cost every contender alike a quadratic walk (each of them timed
# out on every kernel), and on 7.2 the teardown of a timed-out run's
# groups outlasted the boot. The cell says so instead of a time.
FULL_MAX=${FULL_MAX:-100000}
run_one() { # contender workload n type
	local key="$1/$2/$4" out
	if [ -n "${gave_up[$key]}" ]; then
		echo "RESULT $1 $2 $4 $3 skipped_after_timeout_at_${gave_up[$key]}"
		return
	fi
	if [ "$4" = full ] && [ "$3" -ge "$FULL_MAX" ]; then
		echo "RESULT $1 $2 $4 $3 not_run_igmp_list_quadratic"
		return
	fi
	bench "$1" "$2" "$3" "$4" > /tmp/run.out 2>&1
	out=$(grep '^RESULT' /tmp/run.out)
	echo "$out"
	case $out in *timeout*) gave_up[$key]=$3 ;; esac
	# a timed-out run may leave its file open until the process is gone
	sleep 0.2
	# Counting: the netdev's IGMP/MLD state a run leaves (IGMPv3 keeps a
	# left group's record while it reports the leave, some seconds) would
	# lengthen the next run's walks: every run starts from a quiet netdev.
	# Under -icount an idle wait costs no instructions and no host time.
	if [ "${MCM_ICOUNT:-0}" = 1 ]; then
		sleep 5
	fi
}

export MCM_BENCH_BUDGET=$BUDGET
for n in $NS; do
	reps=$REPS
	[ "$n" -le 100 ] && reps=$REPS_SMALL
	[ "$n" -ge 100000 ] && reps=1
	for rep in $(seq "$reps"); do
		# rotate the contenders' order by repetition
		k=$((rep % ${#CONTENDERS[@]}))
		order=("${CONTENDERS[@]:k}" "${CONTENDERS[@]:0:k}")
		run_one noop joinleave "$n" sendonly
		for type in sendonly full; do
			for w in joinleave cancel; do
				for c in "${order[@]}"; do
					run_one "$c" "$w" "$n" "$type"
				done
			done
		done
	done
done

# what one group feels: LAT_RUNS times join, wait for JOINED, leave; the
# join-to-event time of each, per contender, three rounds in alternating
# order
for rep in 1 2 3; do
	[ "$LAT_RUNS" -gt 0 ] || break
	for type in sendonly full; do
		order=(shim ucma preload)
		[ $((rep % 2)) -eq 0 ] && order=(preload ucma shim)
		for c in "${order[@]}"; do
			bench "$c" latency "$LAT_RUNS" "$type" > /tmp/run.out 2>&1
			grep -E '^(LATENCY|RESULT)' /tmp/run.out
			sleep 0.2
		done
	done
done

# rdma_mcm's own kernel time: JOIN and LEAVE ioctls against the
# rdma_join_multicast() and rdma_leave_multicast() inside them
# (debugfs timing, on only for these runs)
TIMING=/sys/kernel/debug/rdma_mcm/timing
for rep in 1 2; do
	for w in joinleave cancel; do
		for type in sendonly full; do
			echo 1 > $TIMING
			bench shim "$w" 1000 "$type" > /dev/null 2>&1
			echo 0 > $TIMING
			echo "TIMING $w $type 1000 $(awk '$1 != "enabled" {
				printf "%s %s %s ", $1, $2, $3 }' $TIMING)tag=$tag"
		done
	done
done

if [ "${MCM_COUNTING:-0}" = 1 ]; then
	rmmod rdma_mcm
	exit 0
fi

# kernel memory per membership: all slab bytes in use, before and while
# a contender holds 10k send-only memberships
slab_bytes() {
	awk 'NR > 2 { b += $2 * $4 } END { printf "%d", b }' /proc/slabinfo
}
# per cache: name, bytes in use, objects in use, object size
slab_caches() { awk 'NR > 2 { print $1, $2 * $4, $2, $4 }' /proc/slabinfo; }
for c in shim ucma; do
	for s in /sys/kernel/slab/*/shrink; do echo 1 > "$s" 2>/dev/null; done
	slab_caches > /tmp/slab.before
	before=$(slab_bytes)
	mcm_bench $c hold 10000 sendonly > /tmp/hold.out 2>&1 &
	pid=$!
	for _ in $(seq 600); do grep -q HOLDING /tmp/hold.out && break; sleep 0.5; done
	for s in /sys/kernel/slab/*/shrink; do echo 1 > "$s" 2>/dev/null; done
	after=$(slab_bytes)
	own=$(awk '$1 == "rdma_mcm_membership" { print $2 * $4 }' /proc/slabinfo)
	echo "MEM $c 10000 $((after - before)) ${own:-0}"
	# where it goes: every cache that grew by 5 bytes per membership or more
	slab_caches > /tmp/slab.after
	awk -v c=$c 'NR == FNR { b[$1] = $2; o[$1] = $3; next }
		$2 - b[$1] >= 50000 { print "MEMCACHE", c, $1, $2 - b[$1], $3 - o[$1], $4 }' \
		/tmp/slab.before /tmp/slab.after
	kill $pid
	wait $pid 2>/dev/null
done
rmmod rdma_mcm
