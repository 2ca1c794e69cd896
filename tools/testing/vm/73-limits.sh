#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# What one user may hold through /dev/rdma_mcm, whatever the number of
# files (tools/testing/limits/mcm_limits.c joins and prints, this script
# checks):
#  - per-user limits (max_user_memberships, max_user_contexts: ENOSPC)
#    across all files of a user, another user unaffected, a new user
#    namespace not escaping them, closing giving the budget back, the
#    per-file limits still first (ENOBUFS);
#  - the sources of a user's source-specific joins (max_user_sources:
#    ENOSPC, charged whole or not at all, any-source joins not charged,
#    given back on close, reported by rdma-mcm stats);
#  - the memory cgroup: an unprivileged user's joins in a cgroup of
#    memory.max=64M stop with ENOMEM from the cgroup, rdma_mcm's own
#    memory per membership is charged to it, and all of it is uncharged
#    when the files close (the numbers are reported as diagnostics);
#  - a SIGKILL in the middle of a batch of 65536 entries of 4096 bytes:
#    the batch stops, the process dies, nothing is left.

. "$(dirname "$0")/lib.sh"

BIN=/usr/libexec/rdma_mcm/bin/mcm_limits
P=/sys/module/rdma_mcm/parameters
LIVE=/sys/kernel/debug/rdma_mcm/live
CG=/sys/fs/cgroup
MCG=$CG/rdma_mcm_test
NOBODY=65534
OTHER=65533
T=/tmp/limits
mkdir -p $T

as_user() { local u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
# val KEY FILE: the value mcm_limits printed for KEY
val() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print; f = 1 } END { if (!f) print "missing" }' "$2"; }
live() { awk -v k="$1" '$1 == k { print $2 }' $LIVE; }
users_zero() { [ "$(live users)" = 0 ]; }
stopped() { [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = T ]; }
# filled FILE JOINS ERRNO: mcm_limits held JOINS memberships, then ERRNO
filled() { [ "$(val joins "$1")" = "$2" ] && [ "$(val join_error "$1")" = "$3" ] && grep -qx 'done' "$1"; }
# is FILE KEY VALUE...: mcm_limits printed VALUE for KEY, for each pair
is() {
	local f=$1
	shift
	while [ $# -ge 2 ]; do
		[ "$(val "$1" "$f")" = "$2" ] || return 1
		shift 2
	done
}
# spread FILE N: N files, each holding some of the memberships
spread() {
	val per_file "$1" | awk -v n="$2" '{ for (i = 1; i <= NF; i++) if ($i < 1) bad = 1 } END { exit bad || NF != n }'
}
ev() { awk -v k="$1" '$1 == k { print $2 }' $MCG/memory.events; }
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $MCG/memory.stat; }
sunreclaim_kb() { awk '$1 == "SUnreclaim:" { print $2 }' /proc/meminfo; }
# slab_bytes FILE: bytes of active objects per cache, from /proc/slabinfo
slab_bytes() { awk 'NR > 2 { print $1, $2 * $4 }' /proc/slabinfo > "$1"; }
# slab_growth BEFORE AFTER N: the caches that grew most, bytes per N
slab_growth() {
	awk -v n="$3" 'NR == FNR { b[$1] = $2; next }
		$2 - b[$1] >= n { printf "%s %d\n", $1, ($2 - b[$1]) / n }' "$1" "$2" |
		sort -k2 -rn | head -8 | awk '{ printf "%s %s B, ", $1, $2 }'
}
# slab_size CACHE: bytes per object of a cache (merged caches keep their
# name as a link in /sys/kernel/slab, see lib.sh's slab_active)
slab_size() { cat "/sys/kernel/slab/$1/slab_size" 2>/dev/null || echo 0; }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

plan 43
check "rdma_mcm loads" modprobe rdma_mcm
ok "max_user_contexts defaults to 1024" [ "$(cat $P/max_user_contexts)" = 1024 ]
ok "max_user_memberships defaults to 262144" [ "$(cat $P/max_user_memberships)" = 262144 ]
echo 1000 > $P/max_user_memberships
ok "root sets max_user_memberships=1000 at runtime" [ "$(cat $P/max_user_memberships)" = 1000 ]
ok "uid $NOBODY cannot change it" \
	bash -c "! setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups sh -c 'echo 5000 > $P/max_user_memberships' 2>/dev/null && [ \$(cat $P/max_user_memberships) = 1000 ]"

# ---------------------------------------------------------- per user
# uid 65534 with 8 files joins until refused, then holds (SIGSTOP)
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
	$BIN fill --files 8 --hold > $T/hold &
holder=$!
ok "uid $NOBODY's 8 files join until refused" wait_for 120 stopped $holder
diag "uid $NOBODY: $(tr '\n' ' ' < $T/hold)"
ok "... exactly 1000 memberships in total ($(val joins $T/hold)), then ENOSPC ($(val join_error $T/hold))" \
	is $T/hold joins 1000 join_error ENOSPC
ok "... over all 8 files ($(val per_file $T/hold)), each far below max_memberships" spread $T/hold 8
ok "rdma_mcm holds 1000 memberships ($(live file_members))" [ "$(live file_members)" = 1000 ]

as_user $OTHER $BIN fill --files 2 > $T/other
ok "uid $OTHER is unaffected: its own 1000 ($(val joins $T/other)), then ENOSPC" \
	filled $T/other 1000 ENOSPC

init_ns=$(readlink /proc/1/ns/user)
as_user $NOBODY unshare -U -r $BIN fill --files 1 --max 10 > $T/userns
diag "uid $NOBODY in a new user namespace: $(tr '\n' ' ' < $T/userns)"
ok "uid $NOBODY in a new user namespace is uid 0 there ($(val uid $T/userns), $(val userns $T/userns) vs $init_ns)" \
	bash -c "[ '$(val userns $T/userns)' != '$init_ns' ] && [ '$(val userns $T/userns)' != missing ]"
ok "... and makes its context" is $T/userns uid 0 contexts 1
ok "... and its first join fails with ENOSPC: its namespace's owner's account is full" \
	filled $T/userns 0 ENOSPC
as_user $NOBODY unshare -U -r unshare -U -r $BIN fill --files 1 --max 10 > $T/userns2
ok "... two user namespaces deep as well ($(val joins $T/userns2), $(val join_error $T/userns2))" \
	filled $T/userns2 0 ENOSPC

kill -CONT $holder
wait $holder
rc=$?
ok "the holder closes its 8 files and exits" bash -c "[ $rc = 0 ] && grep -qx 'done' $T/hold"
as_user $NOBODY $BIN fill --files 1 > $T/again
ok "closing gave the budget back: uid $NOBODY joins 1000 again ($(val joins $T/again)), then ENOSPC" \
	filled $T/again 1000 ENOSPC
as_user $NOBODY unshare -U -r $BIN fill --files 1 > $T/userns3
ok "in a user namespace the same 1000 apply ($(val joins $T/userns3), $(val join_error $T/userns3))" \
	filled $T/userns3 1000 ENOSPC

echo 4 > $P/max_user_contexts
as_user $NOBODY $BIN fill --files 8 --max 0 > $T/ctx
ok "max_user_contexts=4: 8 files make 4 contexts ($(val contexts $T/ctx)), then ENOSPC ($(val ctx_error $T/ctx))" \
	is $T/ctx contexts 4 ctx_error ENOSPC
echo 1024 > $P/max_user_contexts
echo 100 > $P/max_memberships
as_user $NOBODY $BIN fill --files 1 > $T/perfile
ok "the per-file limit still comes first: max_memberships=100 gives 100 ($(val joins $T/perfile)), then ENOBUFS" \
	filled $T/perfile 100 ENOBUFS
echo 131072 > $P/max_memberships
echo 262144 > $P/max_user_memberships

# ---------------------------------------------------------- sources per user
# each source-specific join holds a kernel socket and IGMP source lists
# that the IP stack does not charge to the memory cgroup: bounded per user
ok "max_user_sources defaults to 65536" [ "$(cat $P/max_user_sources)" = 65536 ]
echo 105 > $P/max_user_sources
as_user $NOBODY $BIN fill --files 2 --batch 1 --sources 10 > $T/src
diag "uid $NOBODY, joins of 10 sources: $(tr '\n' ' ' < $T/src)"
ok "max_user_sources=105: joins of 10 sources over 2 files stop at 10 ($(val joins $T/src)), then ENOSPC ($(val join_error $T/src)): 5 left are not 10" \
	filled $T/src 10 ENOSPC
as_user $NOBODY $BIN fill --files 1 --batch 8 --sources 10 > $T/src-batch
ok "the same through BATCH_JOIN ($(val joins $T/src-batch), $(val join_error $T/src-batch)): closing gave the sources back" \
	filled $T/src-batch 10 ENOSPC
as_user $NOBODY $BIN fill --files 1 --max 50 > $T/src-any
ok "any-source joins are not charged to it (50 joined, $(val join_error $T/src-any))" \
	filled $T/src-any 50 none
rdma-mcm stats > $T/stats
ok "rdma-mcm stats reports the limit (user_sources 105)" grep -q ' user_sources 105\b' $T/stats
echo 65536 > $P/max_user_sources
ok "rdma_mcm's live objects are zero, no user account is left" wait_for 20 live_zero

# ---------------------------------------------------------- memory cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
ok "cgroup2 is mounted on $CG" grep -q " $CG cgroup2 " /proc/mounts
check "the memory controller is enabled for children" \
	sh -c "echo +memory > $CG/cgroup.subtree_control"
rmdir $MCG 2>/dev/null
mkdir $MCG
echo 64M > $MCG/memory.max
[ -e $MCG/memory.swap.max ] && echo 0 > $MCG/memory.swap.max
ok "a cgroup with memory.max=64M" [ "$(cat $MCG/memory.max)" = 67108864 ]
# so that only the cgroup can stop the joins
echo 10000000 > $P/max_memberships
echo 10000000 > $P/max_user_memberships

max0=$(ev max) oom0=$(ev oom) kill0=$(ev oom_kill)
sunr0=$(sunreclaim_kb)
slab_bytes $T/slab0
# in the cgroup, as uid 65534; oom_score_adj -1000: the cgroup's OOM
# killer finds no victim, and the charge fails with ENOMEM instead
bash -c "echo \$\$ > $MCG/cgroup.procs && echo -1000 > /proc/self/oom_score_adj &&
	exec setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
	$BIN fill --files 4 --batch 256 --hold --report-after-release" > $T/memcg &
filler=$!
ok "uid $NOBODY in the cgroup joins until a join fails" wait_for 600 stopped $filler
joins=$(live file_members)
cur=$(cat $MCG/memory.current)
slab=$(stat_of slab)
sunr1=$(sunreclaim_kb)
slab_bytes $T/slab1
max1=$(ev max) oom1=$(ev oom) kill1=$(ev oom_kill)
kill -CONT $filler
wait $filler
rc=$?
diag "memcg: $(tr '\n' ' ' < $T/memcg)"
ok "the failed join is ENOMEM ($(val join_error $T/memcg)), not a limit of rdma_mcm, and the program survived" \
	filled $T/memcg "$joins" ENOMEM
ok "the cgroup's memory.events moved: max $max0 -> $max1, oom $oom0 -> $oom1; oom_kill $kill0 -> $kill1" \
	bash -c "[ $max1 -gt $max0 ] && [ $oom1 -gt $oom0 ] && [ $kill1 = $kill0 ] && [ $rc = 0 ]"
sz_mb=$(slab_size rdma_mcm_membership)
sz_um=$(slab_size rdma_mcm_umember)
own=$((sz_mb + sz_um))
charged=$((slab / (joins > 0 ? joins : 1)))
current=$((cur / (joins > 0 ? joins : 1)))
total=$(( (sunr1 - sunr0) * 1024 / (joins > 0 ? joins : 1) ))
diag "joins $joins; memory.current $(mib "$cur") MiB, memory.stat slab $(mib "$slab") MiB; system SUnreclaim +$(mib $(( (sunr1 - sunr0) * 1024 ))) MiB"
diag "per membership: $charged B of slab charged ($current B memory.current), $total B of slab in all; rdma_mcm's own objects $own B (rdma_mcm_membership $sz_mb + rdma_mcm_umember $sz_um)"
diag "per membership, the caches that grew most: $(slab_growth $T/slab0 $T/slab1 "$joins")(charged: rdma_mcm_*, radix_tree_node, kmalloc-cg-*)"
ok "some 100000 memberships fit in 64M ($joins)" [ "$joins" -ge 50000 ]
ok "the cgroup's slab per membership ($charged B) covers rdma_mcm's own objects ($own B)" \
	bash -c "[ $own -ge 300 ] && [ $charged -ge $own ]"
ok "what the cgroup is not charged for is rdma_cm's ($((total - charged)) B per membership, cma_multicast is 512)" \
	[ $((total - charged)) -lt 1024 ]
uncharged() { [ "$(cat $MCG/memory.current)" -lt 1048576 ] && [ "$(stat_of slab)" -lt 262144 ]; }
ok "after the files closed, the cgroup holds less than 1 MiB, slab under 256 KiB" wait_for 30 uncharged
diag "after: memory.current $(cat $MCG/memory.current) B, slab $(stat_of slab) B"
ok "rdma_mcm's live objects are zero" wait_for 30 live_zero
rmdir $MCG
echo 131072 > $P/max_memberships
echo 262144 > $P/max_user_memberships

# ---------------------------------------------------------- SIGKILL a batch
$BIN killbatch > $T/kill
diag "killbatch: $(tr '\n' ' ' < $T/kill)"
ok "a batch of 65536 entries of 4096 bytes over 256 MiB" \
	is $T/kill entries 65536 entry_size 4096 mapped_mib 256
ok "SIGKILL in the middle of it: the process dies of it and is reaped" \
	is $T/kill reaped yes signal KILL
d1=$(val done_at_kill $T/kill)
d2=$(val done_at_end $T/kill)
ok "the kill landed before the batch's end ($d1 of 65536 done)" [ "$d1" -lt 65536 ]
ok "the batch stopped at the signal: $d1 entries done at kill(), $d2 at the end" \
	[ "$d2" -le $((d1 + 2)) ]
ok "rdma_mcm's live objects are back to zero" wait_for 120 live_zero
ok "no user account is left" users_zero
check "rmmod rdma_mcm" rmmod rdma_mcm
