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
# Its locals have names of their own: bash scopes dynamically, so a local
# named like a test's global (rc, desc) would hide it from CMD.
check() {
	local _ktap_desc=$1 _ktap_rc
	shift
	echo "--- check: $_ktap_desc: $*"
	"$@"
	_ktap_rc=$?
	_ktap_n=$((_ktap_n + 1))
	if [ $_ktap_rc -eq 0 ]; then
		_ktap "ok $_ktap_n $_ktap_desc"
	else
		_ktap "not ok $_ktap_n $_ktap_desc # exit status $_ktap_rc: $*"
		_ktap_failed=$((_ktap_failed + 1))
	fi
	return $_ktap_rc
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
	local _wait_deadline=$(( $(date +%s) + $1 ))	# a name of its own (check())
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$_wait_deadline" ] || return 1
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

# --- rdma-mcm's JSON output, one object a line --------------------------
# scripts/vm-run puts the check, the schema and python3 in the guest
JSON_CHECK=${JSON_CHECK:-/usr/libexec/rdma_mcm/json_check.py}
SCHEMA=${RDMA_MCM_SCHEMA:-/usr/libexec/rdma_mcm/rdma-mcm.schema.json}

# json_ok DESC DEF FILE MIN: FILE's objects are valid against $defs/DEF,
# at least MIN of them
json_ok() {
	check "$1" python3 "$JSON_CHECK" "$SCHEMA" "$2" "$3" --min "$4"
}

# line_of GROUP FILE: the JSON line (an object) of GROUP in FILE
line_of() { grep "\"group\":\"$1\"" "$2"; }

# has FILE GROUP TEXT...: GROUP's line in FILE holds every TEXT
has() {
	local file=$1 group=$2 l t
	shift 2
	l=$(line_of "$group" "$file") || { echo "no line for $group"; return 1; }
	for t in "$@"; do
		case $l in
		*"$t"*) ;;
		*) echo "$group: no '$t' in $l"; return 1 ;;
		esac
	done
}

# lacks FILE GROUP TEXT: GROUP's line in FILE is there, without TEXT
lacks() {
	local l
	l=$(line_of "$2" "$1") || return 1
	case $l in *"$3"*) echo "$2: '$3' in $l"; return 1 ;; esac
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
# device (its multicast MAC is on the netdev). rxe never takes the MAC
# away again (6.1, 6.12 and 7.2: rxe_detach_mcg() -> __rxe_destroy_mcg(),
# no rxe_mcast_del()): only meaningful for a group not attached before.
# The MACs are compared as strings: busybox awk takes 3333e8400002
# (232.64.0.2's) for a number, 3333e8 * 10^400002, and compares numbers.
qp_attached() {
	awk -v dev="$1" -v mac="$(mcast_mac_of "$2")" \
		'$2 == dev && $5 "" == mac "" { f = 1 } END { exit !f }' /proc/net/dev_mcast
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

# --- IPv6 and source filters (62-ipv6, 63-ssm) -------------------------------
# ipv6_hex, ipv6_gid, rxe_has_gid, bench_ipv6: scripts/guest/bench.sh

# in_igmp6 DEV GROUP: /proc/net/igmp6 lists the IPv6 GROUP on DEV
in_igmp6() {
	awk -v dev="$1" -v g="$(ipv6_hex "$2")" \
		'$2 == dev && $3 == g { f = 1 } END { exit !f }' /proc/net/igmp6
}
not_in_igmp6() { ! in_igmp6 "$@"; }

# igmp6_count DEV REGEX: groups under DEV in /proc/net/igmp6 matching REGEX
# (an awk regex on the 32 hex digits)
igmp6_count() {
	awk -v dev="$1" -v re="$2" '$2 == dev && $3 ~ re { n++ } END { print n + 0 }' \
		/proc/net/igmp6
}

# mcast_mac6_of GROUP: the MAC of an IPv6 group (33:33 and its last four
# bytes) as /proc/net/dev_mcast prints it
mcast_mac6_of() { echo "3333$(ipv6_hex "$1" | cut -c25-32)"; }

# dev_mcast_refs DEV MAC: how many times MAC is on DEV's multicast list
# (the refcount column of /proc/net/dev_mcast; 0: not there). An IPv6
# group's MAC is there once for the MLD membership and once for each rxe
# multicast group a QP is attached to.
dev_mcast_refs() {
	awk -v dev="$1" -v mac="$2" '$2 == dev && $5 "" == mac "" { n = $3 } END { print n + 0 }' \
		/proc/net/dev_mcast
}

# mcfilter_text [-6]: /proc/net/mcfilter (mcfilter6 with -6) whole, as
# tools/testing/abi/mcm_mcfilter.c reads it: the kernel lists a device
# only from its newest group on, and only if that group has sources
# (igmp_mcf_get_first()), so a plain read can hide every filter of veth0
# or veth1 and make "no entry" a check that cannot fail. mcm_mcfilter
# holds a source-specific probe on veth0 and veth1 while it reads, checks
# that both probes are listed, and fails (so does this, and every reader
# below) when the listing is not whole.
MCM_MCFILTER=${MCM_MCFILTER:-/usr/libexec/rdma_mcm/bin/mcm_mcfilter}
mcfilter_text() { "$MCM_MCFILTER" "$@"; }

# mcfilter_of DEV GROUP SRC: "INC EXC" of the IPv4 source filter entry
# (GROUP, SRC) on DEV in /proc/net/mcfilter; nothing when there is none;
# exit status 1 when the listing could not be read whole or DEV has no
# ifindex. Rows are "Idx Device MCA SRC INC EXC": DEV is matched by its
# ifindex (Idx), since the kernel cuts Device to six characters ("%6.6s");
# group and source are compared as strings (busybox awk takes hex digits
# that look like a number for one).
mcfilter_of() {
	local g s IFS=.
	set -- "$1" $2 $3
	g=$(printf '0x%02x%02x%02x%02x' "$2" "$3" "$4" "$5")
	s=$(printf '0x%02x%02x%02x%02x' "$6" "$7" "$8" "$9")
	_mcfilter_entry "$1" "$g" "$s"
}
# mcfilter6_of DEV GROUP SRC: the same for IPv6 (/proc/net/mcfilter6, rows
# "%3d %6.6s GROUP SOURCE INC EXC" as well)
mcfilter6_of() {
	_mcfilter_entry "$1" "$(ipv6_hex "$2")" "$(ipv6_hex "$3")" -6
}
# _mcfilter_entry DEV GROUP SRC [-6]: the row's "INC EXC", GROUP and SRC as
# the file prints them
_mcfilter_entry() {
	local t i IFS=$' \t\n'	# mcfilter_of sets IFS=.
	i=$(cat "/sys/class/net/$1/ifindex") && [ -n "$i" ] || return 1
	t=$(mcfilter_text $4) || return 1
	awk -v idx="$i" -v g="$2" -v s="$3" \
		'$1 "" == idx "" && $3 "" == g "" && $4 "" == s "" { print $5, $6 }' <<< "$t"
}
# mcfilter_is DEV GROUP SRC "INC EXC" / mcfilter_none DEV GROUP SRC (both
# false when the listing could not be read whole)
mcfilter_is() { local v; v=$(mcfilter_of "$1" "$2" "$3") && [ "$v" = "$4" ]; }
mcfilter_none() { local v; v=$(mcfilter_of "$1" "$2" "$3") && [ -z "$v" ]; }
mcfilter6_is() { local v; v=$(mcfilter6_of "$1" "$2" "$3") && [ "$v" = "$4" ]; }
mcfilter6_none() { local v; v=$(mcfilter6_of "$1" "$2" "$3") && [ -z "$v" ]; }
# mcfilter_count [-6] AWK-CONDITION: how many entries of the whole listing
# match (e.g. '$3 ~ /^0xe83f/'); prints nothing and fails when it could
# not be read whole, so '[ "$(mcfilter_count ...)" -eq 0 ]' fails too
mcfilter_count() {
	local t opt=
	[ "$1" = -6 ] && { opt=-6; shift; }
	t=$(mcfilter_text $opt) || return 1
	awk "NR > 1 && ($1) { n++ } END { print n + 0 }" <<< "$t"
}

# sockets_used: /proc/net/sockstat's "sockets: used" (every socket of the
# host, kernel sockets too)
sockets_used() { awk '$1 == "sockets:" { print $3 }' /proc/net/sockstat; }

# igmp_users DEV GROUP: the Users column of an IPv4 GROUP under DEV in
# /proc/net/igmp (0: not there); igmp6_users the same for /proc/net/igmp6
igmp_users() {
	awk -v dev="$1" -v g="$(igmp_hex "$2")" \
		'/^[0-9]/ { d = $2; next } $1 == g && d == dev { n = $2 } END { print n + 0 }' \
		/proc/net/igmp
}
igmp6_users() {
	awk -v dev="$1" -v g="$(ipv6_hex "$2")" \
		'$2 == dev && $3 == g { n = $4 } END { print n + 0 }' /proc/net/igmp6
}

# sock_objects: active objects of sock_inode_cache, one per socket of the
# host (struct socket's inode: kernel sockets too, which "sockets: used"
# of /proc/net/sockstat does not count). The cache has a constructor, so
# it is never merged; shrunk first, so SLUB's per-CPU slabs count right.
sock_objects() {
	local d=/sys/kernel/slab/sock_inode_cache
	[ -w $d/shrink ] && echo 1 > $d/shrink
	awk '$1 == "sock_inode_cache" { print $2 }' /proc/slabinfo
}

# sock_objects_settled: sock_objects once two readings 0.5 s apart agree
# (at most 10 s; the last reading then). A socket closed just before (an
# mcfilter reading's probes, mcm_mcfilter) leaves sock_inode_cache only
# after an RCU grace period: a baseline read at once could count it, and
# a later "back to the baseline" check then pass with a socket leaked.
sock_objects_settled() {
	local prev cur n=0
	prev=$(sock_objects)
	while [ $n -lt 20 ]; do
		sleep 0.5
		cur=$(sock_objects)
		[ "$cur" = "$prev" ] && break
		prev=$cur
		n=$((n + 1))
	done
	echo "$prev"
}

# send_counted SRC GROUP COUNT: rdma-mcm bound to SRC (an address of
# rxe0) sends COUNT datagrams to GROUP, once (a send-only join; every send
# signalled: it exits after its last completion). SENT: what rxe0 put on
# the wire meanwhile (its sent_pkts, which rxe may count a moment after the
# send's completion is on its way: waited for, at most 10 s). Fails unless
# it is COUNT. Nothing is sent again: a receiver must get exactly SENT. rxe
# does not drop on this path: the receivers post a buffer for every
# datagram before they attach (rdma-mcm recv -c COUNT posts COUNT), veth
# and the IP stack queue far more than COUNT, and rdma-mcm send waits for
# its completions (only mckey's unsignalled sender, which exits at once,
# ever lost datagrams: Documentation/bench.rst).
_sent_since() { SENT=$(( $(rxe_counter rxe0 sent_pkts) - $1 )); [ "$SENT" -ge "$2" ]; }
send_counted() {
	local sent0 rc
	sent0=$(rxe_counter rxe0 sent_pkts)
	timeout 60 rdma-mcm -b "$1" send "$2" -c "$3" --send-only > /dev/null
	rc=$?
	wait_for 10 _sent_since "$sent0" "$3"
	diag "rxe0 put $SENT datagrams from $1 to $2 on the wire (rdma-mcm send -c $3: exit $rc)"
	[ $rc -eq 0 ] && [ "$SENT" -eq "$3" ]
}

# recv_got FILE GROUP COUNT RC: a recv of COUNT datagrams exited RC 0 and
# says it received all of them
recv_got() { [ "$4" -eq 0 ] && grep -q "^received $2 count $3 of $3\$" "$1"; }

# recv_wait PID SECONDS: wait for a receiver (rdma-mcm recv) to exit, at
# most SECONDS (it may be waiting for datagrams that never come: then it
# is killed, after the checks had their time). RC: its exit status.
recv_wait() {
	wait_for "$2" eval "! kill -0 $1 2>/dev/null" ||
		{ echo "recv_wait: $1 still runs after $2 s: killed"; kill "$1"; }
	wait "$1"
	RC=$?
}

# wait_exit PID SECONDS: wait for a background process (a session told to
# quit) to exit, at most SECONDS, polling every 0.1 s; its exit status.
# One still running then is killed (SIGKILL; reaped if it goes within 5 s
# more) and the status is 124: the caller's check fails instead of the
# script blocking in 'wait' until the runner kills the guest (losing the
# remaining checks and the at_exit cleanup).
wait_exit() {
	local pid=$1 n=$(( $2 * 10 ))
	while kill -0 "$pid" 2>/dev/null; do
		if [ $n -le 0 ]; then
			echo "wait_exit: $pid still runs after $2 s: killed"
			kill -KILL "$pid" 2>/dev/null
			n=50
			while kill -0 "$pid" 2>/dev/null && [ $n -gt 0 ]; do
				sleep 0.1
				n=$((n - 1))
			done
			kill -0 "$pid" 2>/dev/null || wait "$pid" 2>/dev/null
			return 124
		fi
		sleep 0.1
		n=$((n - 1))
	done
	wait "$pid"
}

# session NAME ARGS...: rdma-mcm ARGS (a join session) in the background,
# reading its commands from the fifo $T/NAME.in (the caller opens it for
# writing, on an fd of its own), its output in $T/NAME.out, its pid in SPID
session() {
	local name=$1
	shift
	rm -f "$T/$name.in"
	mkfifo "$T/$name.in"
	rdma-mcm "$@" < "$T/$name.in" > "$T/$name.out" 2>&1 &
	SPID=$!
}

# snmp_of TABLE KEY: a counter of /proc/net/snmp or netstat, namespace-wide
# (snmp_of Ip InReceives, snmp_of IpExt InMcastPkts)
snmp_of() {
	awk -v t="$1:" -v k="$2" '$1 == t { if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1 } else print $c[k] }' \
		/proc/net/snmp /proc/net/netstat
}
# snmp6_of DEV KEY: a counter of DEV's IPv6 (/proc/net/dev_snmp6/DEV)
snmp6_of() { awk -v k="$2" '$1 == k { print $2 }' "/proc/net/dev_snmp6/$1"; }

# stop_jobs: kill what the script left running in the background (at exit
# after a failure: a receiver or session still holding memberships would
# fail the next test too)
stop_jobs() {
	local p
	p=$(jobs -p)
	[ -z "$p" ] && return 0
	echo "stop_jobs: killing $p"
	kill -KILL $p 2>/dev/null
	wait $p 2>/dev/null
	return 0
}

# at_exit CMD...: run CMD (eval) when the script exits, before the plan is
# checked, whatever failed: cleanup that must not cascade into the next
# test (addresses, sysctls). Output goes to the console.
_ktap_at_exit=()
at_exit() { _ktap_at_exit+=("$*"); }

# ulp_cleanup: close the test ULP's memberships and unload it, if loaded
# (an at_exit step of the tests that drive it)
ulp_cleanup() {
	local ctl=/sys/kernel/debug/rdma_mcm_test_ulp/control
	[ -e $ctl ] || return 0
	echo close > $ctl 2>/dev/null
	rmmod rdma_mcm_test_ulp
}

# skip DESC REASON: a KTAP SKIP of a check that cannot be made here (never
# a pass: the judge counts it apart)
skip() {
	_ktap_n=$((_ktap_n + 1))
	_ktap "ok $_ktap_n $1 # SKIP $2"
}

# sniff_start FILE ARGS...: run tools/testing/mcsniff's mcm_sniff ARGS in
# the background, its records to FILE (stderr to FILE.err), and return
# once it captures; its pid is in SNIFF_PID. Reports the kernel sends
# after this returns are seen. sniff_wait: its exit status.
MCM_SNIFF=${MCM_SNIFF:-/usr/libexec/rdma_mcm/bin/mcm_sniff}
sniff_start() {
	local out=$1
	shift
	: > "$out.err"
	"$MCM_SNIFF" "$@" > "$out" 2> "$out.err" &
	SNIFF_PID=$!
	wait_for 30 grep -q '^listening$' "$out.err"
}
sniff_wait() { wait "$SNIFF_PID"; }

# soak_seconds DEFAULT: the run length; make soak sets mcmbench.soak=SECONDS
soak_seconds() { echo "${MCM_SOAK:-$1}"; }

# --- rdma-core's own test-suite (pyverbs) ----------------------------------
# scripts/vm-run packs python3 with its library, pyverbs and the suite's
# tests (gunzipped) from the host's package python3-pyverbs
PYVERBS_TESTS=${PYVERBS_TESTS:-/usr/libexec/rdma_mcm/pyverbs/tests}

# roce_v2_gid DEV ADDR: the index of the RoCE v2 GID of the IPv4 ADDR on
# DEV's port 1 (::ffff:a.b.c.d, 0000:...:ffff:c000:0201 in sysfs), e.g.
# for run_tests.py --gid; fails when DEV lists none
roce_v2_gid() {
	local d=/sys/class/infiniband/$1/ports/1 f g IFS=.
	set -- $2
	g=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4")
	IFS=$' \t\n'
	for f in $(grep -lx "$g" "$d"/gids/* 2>/dev/null); do
		[ "$(cat "$d/gid_attrs/types/${f##*/}" 2>/dev/null)" = "RoCE v2" ] &&
			{ echo "${f##*/}"; return 0; }
	done
	return 1
}

# PYVERBS_RUNNER: tools/testing/vm/pyverbs_run.py, rdma-core's run_tests.py
# but for how a test finds the netdev of an RDMA device: the suite's own
# way (the parent device's net/) finds none for rxe, which then skips
# every RDMA CM test. PYVERBS_RUNNER=run_tests.py runs the suite as it is.
PYVERBS_RUNNER=${PYVERBS_RUNNER:-/usr/libexec/rdma_mcm/pyverbs_run.py}

# pyverbs_run OUTFILE ARGS...: the suite with run_tests.py's ARGS (e.g.
# --dev rxe0 --gid 1 -v -k multicast), its output (unittest's on stderr
# too) to OUTFILE, at most PYVERBS_TIMEOUT seconds (then killed, status
# 124 or 137; default 480: less than the 600 s scripts/guest/run-tests
# gives a whole script, which would lose its KTAP; -k rdmacm takes 4 s);
# its exit status (unittest: 0 when nothing failed). Variables set on the call (LD_PRELOAD=...
# pyverbs_run ...) are in its environment, so in the test processes'
# (they fork) and in the commands the suite runs (ip, ls).
pyverbs_run() {
	local out=$1
	shift
	(cd "$PYVERBS_TESTS" &&
		timeout -k 10 "${PYVERBS_TIMEOUT:-480}" python3 "$PYVERBS_RUNNER" "$@") > "$out" 2>&1
}

# pyverbs_results OUTFILE: "RESULT NAME" for each test unittest -v reported
# in OUTFILE (RESULT ok, FAIL, ERROR, skip, xfail or xpass; NAME as in
# tests.test_rdmacm.CMTestCase.test_rdmacm_async_traffic). A test whose
# processes printed between "... " and the result still counts: the result
# is then the next line that is only one. A test the run never finished
# (killed by the timeout) is "none".
pyverbs_results() {
	awk '
	function result(r) {
		if (r == "ok" || r == "FAIL" || r == "ERROR") return r
		if (r ~ /^skipped/) return "skip"
		if (r == "expected failure") return "xfail"
		if (r == "unexpected success") return "xpass"
		return ""
	}
	function done(r) { print r, name; name = "" }
	/^(======|------)/ { if (name != "") done("none"); exit }
	match($0, /^test[^ ]* \([^)]*\)/) {
		if (name != "") done("none")
		t = substr($0, RSTART, RLENGTH)
		sub(/^[^(]*\(/, "", t); sub(/\)$/, "", t)
		name = t
	}
	name != "" && (i = index($0, " ... ")) {
		r = result(substr($0, i + 5))
		if (r != "") done(r)
		else pending = 1
		next
	}
	name != "" && pending && (r = result($0)) != "" { done(r); pending = 0 }
	END { if (name != "") done("none") }' "$1"
}

# pyverbs_counts OUTFILE: "ran N, ok N, fail N, error N, skip N" of the
# tests in OUTFILE (pyverbs_results; an expected failure counts as ok, an
# unexpected success as fail, an unfinished test as error). Fails when
# OUTFILE has no "Ran N tests" line of that N (the run did not finish, or
# the output could not be read right).
pyverbs_counts() {
	pyverbs_results "$1" | awk -v ran="$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in .*/\1/p' "$1")" '
	{ n++ }
	$1 == "ok" || $1 == "xfail" { ok++ }
	$1 == "FAIL" || $1 == "xpass" { fail++ }
	$1 == "ERROR" || $1 == "none" { err++ }
	$1 == "skip" { skip++ }
	END {
		printf "ran %d, ok %d, fail %d, error %d, skip %d\n", n, ok, fail, err, skip
		exit ran == "" || ran != n
	}'
}

_ktap_done() {
	local c
	for c in "${_ktap_at_exit[@]}"; do
		echo "--- at exit: $c"
		eval "$c"
	done
	if [ -n "$_ktap_plan" ] && [ "$_ktap_n" -ne "$_ktap_plan" ]; then
		_ktap "# planned $_ktap_plan checks, ran $_ktap_n"
		exit 1
	fi
	[ "$_ktap_failed" -eq 0 ] || exit 1
}
trap _ktap_done EXIT
