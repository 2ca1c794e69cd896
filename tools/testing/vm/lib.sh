# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# KTAP helpers for the VM test scripts. A script sources this file, declares
# its plan, then reports each check:
#
#   . "$(dirname "$0")/lib.sh"
#   plan 3
#   check "rdma_mcm loads" modprobe rdma_mcm
#   ok "a condition computed by the script" [ "$x" -eq 1 ]
#
# Subtest lines go to the results channel (fd $KTAP_FD, set by run-tests;
# stdout when run by hand). The script exits non-zero when a check failed
# or when the number of checks run differs from the plan, so a check that
# was never reached counts as a failure, not as silence.

. /usr/libexec/rdma_mcm/bench.sh

KTAP_FD=${KTAP_FD:-1}
_ktap_n=0
_ktap_plan=
_ktap_failed=0

_ktap() { echo "    $*" >&"$KTAP_FD"; }

plan() {
	_ktap_plan=$1
	_ktap "1..$1"
}

# check DESC CMD...: run CMD (output to the console), pass when it exits 0.
check() {
	local desc=$1 rc
	shift
	echo "--- check: $desc: $*"
	"$@"
	rc=$?
	_ktap_n=$((_ktap_n + 1))
	if [ $rc -eq 0 ]; then
		_ktap "ok $_ktap_n $desc"
	else
		_ktap "not ok $_ktap_n $desc # exit status $rc: $*"
		_ktap_failed=$((_ktap_failed + 1))
	fi
	return $rc
}

# ok DESC CMD...: like check, for conditions ('[ ... ]', grep -q ...).
ok() { check "$@"; }

# diag TEXT: a KTAP diagnostic line, shown by the host with the results.
diag() { _ktap "# $*"; }

# kmsg_mark: write a unique mark to the kernel log and print it; pass it to
# kmsg_since to see only what the kernel logged after the mark.
# The counter lives in a file: kmsg_mark usually runs in $(...), a subshell.
kmsg_mark() {
	local n=0 f=/tmp/.kmsg_marks
	[ -f $f ] && n=$(cat $f)
	n=$((n + 1))
	echo $n > $f
	local mark="rdma_mcm-test: mark $n"
	echo "$mark" > /dev/kmsg
	echo "$mark"
}
kmsg_since() { dmesg | sed -n "/$1\$/,\$p"; }

# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds.
wait_for() {
	local deadline=$(( $(date +%s) + $1 ))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$deadline" ] || return 1
		sleep 0.2
	done
}

# live_zero: rdma_mcm's live-object counters (debugfs: the manager's
# contexts, members, slots; the char device's files, file_contexts,
# file_members) are all zero.
live_zero() {
	awk '$2 != 0 { bad = 1 } END { exit bad || NR < 6 }' /sys/kernel/debug/rdma_mcm/live
}

# slab_active: active objects of the rdma_mcm_membership cache, or "merged"
# when the kernel merged it into another cache (6.1 has no SLAB_NO_MERGE).
# SLUB counts per-CPU slabs as fully active until they are flushed: shrink.
# Merged either way round: our name is an alias of another cache, or other
# caches are aliases of ours (then its counts are not ours alone).
slab_active() {
	local d=/sys/kernel/slab/rdma_mcm_membership
	if [ -L $d ] || [ "$(cat $d/aliases 2>/dev/null || echo 0)" != 0 ]; then
		echo merged
		return
	fi
	[ -w $d/shrink ] && echo 1 > $d/shrink
	awk '$1 == "rdma_mcm_membership" { print $2; f = 1 } END { if (!f) print "merged" }' /proc/slabinfo
}

# slab_check DESC: no rdma_mcm_membership object is active; a KTAP SKIP
# (not a pass) where the cache is merged and so cannot be told apart.
slab_check() {
	local n
	n=$(slab_active)
	if [ "$n" = merged ]; then
		_ktap_n=$((_ktap_n + 1))
		_ktap "ok $_ktap_n $1 # SKIP the rdma_mcm_membership cache is merged on $(uname -r)"
	else
		ok "$1" [ "$n" -eq 0 ]
	fi
}

# documented_errnos: the errno names of the table in Documentation/uapi.rst
# (copied into the guest), one per line: the only ones the ABI may return.
documented_errnos() {
	awk '/^Errors$/ { e = 1 } e && /^=+ +=+$/ { n++; next }
	     e && n == 2 && /^E[A-Z0-9]+ / { print $1 }' /usr/libexec/rdma_mcm/uapi.rst
}

# errnos_documented FILE: FILE holds a program's errno histogram, lines
# "errno COMMAND NAME COUNT"; fails, naming them, on errnos the ABI
# documentation does not list.
errnos_documented() {
	local doc bad e
	doc=" $(documented_errnos | tr '\n' ' ') "
	[ "$doc" != "  " ] || { echo "no errno table in uapi.rst"; return 1; }
	for e in $(awk '$1 == "errno" { print $3 }' "$1" | sort -u); do
		case $doc in
		*" $e "*) ;;
		*) bad="$bad $e" ;;
		esac
	done
	[ -z "$bad" ] || { echo "errnos the ABI does not document:$bad"; return 1; }
}

# rxe_counter DEV NAME: a counter of an RDMA device's port 1
# (rdma statistic), e.g. rxe_counter rxe0 sent_pkts
rxe_counter() {
	rdma statistic show link "$1/1" |
		awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}

# mcast_mac_of GROUP: the MAC rxe programs on its netdev when a QP is
# attached to an IPv4 group (RoCE v2 MGID ::ffff:a.b.c.d, as IPv6
# multicast 33:33 and its last four bytes), as /proc/net/dev_mcast prints it
mcast_mac_of() {
	local IFS=.
	set -- $1
	printf '3333%02x%02x%02x%02x' "$1" "$2" "$3" "$4"
}

# qp_attached NETDEV GROUP: rxe has attached a QP to GROUP on NETDEV's
# device (its multicast MAC is on the netdev). rxe of 6.1 never takes the
# MAC away again: only meaningful for a group not attached before.
qp_attached() {
	awk -v dev="$1" -v mac="$(mcast_mac_of "$2")" \
		'$2 == dev && $5 == mac { f = 1 } END { exit !f }' /proc/net/dev_mcast
}

# igmp_hex GROUP: an IPv4 group as /proc/net/igmp prints it
# (239.2.2.2 -> 020202EF)
igmp_hex() { local IFS=.; set -- $1; printf '%02X%02X%02X%02X' "$4" "$3" "$2" "$1"; }

# in_igmp DEV GROUP: /proc/net/igmp lists GROUP under DEV
in_igmp() {
	awk -v dev="$1" -v g="$(igmp_hex "$2")" \
		'/^[0-9]/ { d = $2 } $1 == g && d == dev { f = 1 } END { exit !f }' \
		/proc/net/igmp
}
not_in_igmp() { ! in_igmp "$@"; }

# igmp_count DEV REGEX: how many groups under DEV in /proc/net/igmp match
# REGEX (an awk regex on the hex form: '^....08EF$' is 239.8.0.0/16)
igmp_count() {
	awk -v dev="$1" -v re="$2" \
		'/^[0-9]/ { d = $2; next } d == dev && $1 ~ re { n++ } END { print n + 0 }' \
		/proc/net/igmp
}

# soak_seconds DEFAULT: the run length; make soak sets mcmbench.soak=SECONDS
soak_seconds() { echo "${MCM_SOAK:-$1}"; }

_ktap_done() {
	if [ -n "$_ktap_plan" ] && [ "$_ktap_n" -ne "$_ktap_plan" ]; then
		_ktap "# planned $_ktap_plan checks, ran $_ktap_n"
		exit 1
	fi
	[ "$_ktap_failed" -eq 0 ] || exit 1
}
trap _ktap_done EXIT
