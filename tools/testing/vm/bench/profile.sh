#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Where a join through /dev/rdma_mcm spends its time: ftrace's
# function_graph tracer below rdma_mcm_join() (3 levels), while mcm_bench
# joins N send-only groups one call each (shim) or in batches (batch);
# durations are summed per function. Tracing inflates every traced call,
# so read the shares, not the absolute microseconds. Run with
#   scripts/vm-run --kernel 6.12 --run tools/testing/vm/bench/profile.sh
# (PROFILE_FN and PROFILE_N override the function and N).

FN=${PROFILE_FN:-rdma_mcm_join}
N=${PROFILE_N:-2000}
modprobe rdma_mcm || exit 1
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
[ -e $T/current_tracer ] || T=/sys/kernel/debug/tracing

# sum_by_function: "total us, calls, us per call, function" from a
# function_graph trace with funcgraph-tail (closing braces name the call)
sum_by_function() {
	awk -F'|' '
	{ d = $1; f = $2
	  if (d !~ /us/) next
	  sub(/.*\) */, "", d); gsub(/[+!#*@$ ]/, "", d); sub(/us/, "", d)
	  if (f ~ /\} \/\*/) { sub(/.*\/\* /, "", f); sub(/ \*\/.*/, "", f) }
	  else { gsub(/[ ;()]/, "", f) }
	  gsub(/^ +| +$/, "", f)
	  t[f] += d; n[f]++ }
	END { for (f in t) printf "%10.1f us %7d calls %8.2f us/call  %s\n",
	      t[f], n[f], t[f] / n[f], f }' | sort -nr | head -20
}

for c in shim batch; do
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo function_graph > $T/current_tracer
	echo 3 > $T/max_graph_depth
	echo 1 > $T/options/funcgraph-tail
	echo "$FN" > $T/set_graph_function
	echo 65536 > $T/buffer_size_kb
	echo 1 > $T/tracing_on
	mcm_bench $c hold "$N" sendonly > /tmp/hold.out 2>&1 &
	pid=$!
	for _ in $(seq 600); do grep -q HOLDING /tmp/hold.out && break; sleep 0.5; done
	echo 0 > $T/tracing_on
	echo "== $c: $N send-only joins, time below $FN"
	sum_by_function < $T/trace
	kill $pid
	wait $pid 2>/dev/null
done
echo nop > $T/current_tracer
rmmod rdma_mcm
