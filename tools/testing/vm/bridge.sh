# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# A snooping switch and three hosts for 76-bridge, 77-bridge-mld and
# 78-bridge-heal, sourced after lib.sh (Documentation/bench.rst, "A
# snooping switch"):
#
#   network namespace mcmsw: br0, a Linux bridge with IGMP/MLD snooping
#   (mcast_snooping 1, IGMPv3, MLDv2), 198.51.100.254/24 and
#   fe80::76:fe, 2001:db8:76::fe; its ports sw1, sw2, sw3 are veth ends
#   whose peers h1, h2, h3 are the hosts' netdevs:
#
#     host 1, the sender:    h1, 198.51.100.1, .11 and .12, 2001:db8:76::1,
#                            ::11 and ::12 (three sources)
#     host 2, a receiver:    h2, 198.51.100.2, 2001:db8:76::2
#     host 3, a receiver:    h3, 198.51.100.3, 2001:db8:76::3
#
#   each host with its Soft-RoCE device rxehN on hN. Where rxe works in a
#   network namespace other than the initial one (7.x: per-namespace UDP
#   sockets and routes), each host is a namespace of its own, mcmhN; on
#   6.1 and 6.12, whose rxe sends and receives through the initial
#   namespace only (its route lookup and its UDP socket are init_net's: a
#   send from a namespace ends in a flushed work request), h1, h2 and h3
#   stay in the initial namespace, each still on its own bridge port, so
#   that what one host's rxe sends reaches another's only through the
#   switch (BR_NETNS says which). The RoCE side is the same either way:
#   two or three RDMA endpoints, one sender and receivers on separate
#   ports.
#
# The switch's view is its mdb (bridge -d mdb show); traffic is counted on
# each port by tc flower filters (clsact) whose gact actions count the
# packets: what host 1 sent into the switch (sw1 ingress) and what the
# switch forwarded to each port (sw1, sw2, sw3 egress), by group and
# RoCE v2's UDP port 4791, and by source when asked.

BR_NS=mcmsw
BR_NET4=198.51.100
BR_NET6=2001:db8:76:
# 1: each host in a namespace of its own (rxe there); 0: in the initial one
BR_NETNS=0
[ "$(uname -r | cut -d. -f1)" -ge 7 ] && BR_NETNS=1
ROCE_PORT=4791

br4() { echo "$BR_NET4.$1"; }		# host N's IPv4 address (11, 12: host 1's others)
br6() { echo "$BR_NET6:$1"; }		# and its IPv6 address

# sw CMD...: CMD in the switch's namespace
sw() { ip netns exec $BR_NS "$@"; }
# on N CMD...: CMD on host N (its namespace, or the initial one)
on() {
	local h=$1
	shift
	if [ $BR_NETNS = 1 ]; then
		ip netns exec "mcmh$h" "$@"
	else
		"$@"
	fi
}
# on_exec N CMD...: exec CMD on host N, in place of the calling (sub)shell:
# 'on_exec 2 rdma-mcm ... &' leaves rdma-mcm's own pid in $! ('ip netns
# exec' execs too), so that a SIGKILL reaches it
on_exec() {
	local h=$1
	shift
	if [ $BR_NETNS = 1 ]; then
		exec ip netns exec "mcmh$h" "$@"
	else
		exec "$@"
	fi
}

# br_set KEY VALUE...: the bridge's options (ip link set br0 type bridge)
br_set() { sw ip link set br0 type bridge "$@"; }
# port_set N KEY VALUE...: a port's options (bridge link set dev swN)
port_set() { local p=$1; shift; sw bridge link set dev "sw$p" "$@"; }

# hip N: iproute2's ip in host N's namespace (-n: no extra process)
hip() {
	local h=$1
	shift
	if [ $BR_NETNS = 1 ]; then
		ip -n "mcmh$h" "$@"
	else
		ip "$@"
	fi
}

# _host_up N: host N's netdev (moved into its namespace), sysctls,
# addresses and rxe device
_host_up() {
	local h=$1 k a=()
	if [ $BR_NETNS = 1 ]; then
		ip link set "h$h" netns "mcmh$h" && hip "$h" link set lo up || return 1
	fi
	# packets from another host's address are not martians (6.x: one
	# namespace), IPv6 addresses survive a port flap
	for k in all default "h$h"; do
		a+=("net.ipv4.conf.$k.rp_filter=0" "net.ipv4.conf.$k.accept_local=1")
	done
	on "$h" sysctl -qw "${a[@]}" "net.ipv6.conf.h$h.disable_ipv6=0" \
		"net.ipv6.conf.h$h.keep_addr_on_down=1" || return 1
	{
		echo "addr add $(br4 "$h")/24 dev h$h"
		echo "addr add $(br6 "$h")/64 dev h$h nodad"
		if [ "$h" = 1 ]; then
			for k in 11 12; do
				echo "addr add $(br4 $k)/24 dev h1"
				echo "addr add $(br6 $k)/64 dev h1 nodad"
			done
		fi
		echo "link set h$h up"
	} | hip "$h" -batch - &&
		on "$h" rdma link add "rxeh$h" type rxe netdev "h$h"
}

# bridge_setup: the switch, its three ports and the three hosts. The
# querier stays off (br_querier_on starts it); the last-member interval is
# 0.1 s, so that a prune after the last member's leave (the querier's two
# group-specific queries, unanswered) takes 0.2 s and a test polls for it
# without racing a timer; queries ask for an answer within 1 s and come
# every 5 s from the first on (the startup queries too: 31 s apart by
# default), so that a lost view is reported again within seconds. br0's
# link-local address is made without DAD: the querier's MLD queries need a
# source at once.
bridge_setup() {
	local h
	ip netns add $BR_NS || return 1
	if [ $BR_NETNS = 1 ]; then
		for h in 1 2 3; do
			ip netns add "mcmh$h" || return 1
		done
	fi
	for h in 1 2 3; do
		ip link add "h$h" type veth peer name "sw$h" netns $BR_NS || return 1
	done
	{
		echo "link set lo up"
		echo "link add br0 type bridge mcast_snooping 1" \
			"mcast_igmp_version 3 mcast_mld_version 2" \
			"mcast_query_response_interval 100 mcast_query_interval 500" \
			"mcast_startup_query_interval 500" \
			"mcast_last_member_count 2 mcast_last_member_interval 10"
		echo "link set br0 addrgenmode none"
		echo "addr add $BR_NET4.254/24 dev br0"
		echo "addr add fe80::76:fe/64 dev br0 nodad"
		echo "addr add $(br6 fe)/64 dev br0 nodad"
		echo "link set br0 up"
		echo "route add 224.0.0.0/4 dev br0"
		for h in 1 2 3; do
			echo "link set sw$h master br0"
			echo "link set sw$h up"
		done
	} | ip -n $BR_NS -batch - || return 1
	for h in 1 2 3; do
		echo "qdisc add dev sw$h clsact"
	done | sw tc -batch - || return 1
	_host_up 1 && _host_up 2 && _host_up 3
}

# bridge_ready: every rxe device lists its netdev's addresses as RoCE v2
# GIDs (host 1 all three of each family)
bridge_ready() {
	local h a
	for h in 1 2 3; do
		host_has_gid "$h" "$(br4 "$h")" && host_has_gid "$h" "$(br6 "$h")" ||
			return 1
	done
	for a in 11 12; do
		host_has_gid 1 "$(br4 $a)" && host_has_gid 1 "$(br6 $a)" || return 1
	done
}
# host_has_gid N ADDR: rxehN lists ADDR (IPv4: as ::ffff:a.b.c.d) as a
# RoCE v2 GID
host_has_gid() {
	local h=$1 a=$2 IFS=.
	case $a in
	*:*) ;;
	*)	set -- $a
		a=$(printf '::ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4") ;;
	esac
	IFS=$' \t\n'
	rxe_has_gid "rxeh$h" "$a" "RoCE v2"
}

# bridge_teardown: the hosts' rxe devices, namespaces and netdevs, the
# switch; true when all are gone
bridge_teardown() {
	local h
	stop_jobs
	for h in 1 2 3; do
		rdma link delete "rxeh$h" 2>/dev/null
		[ $BR_NETNS = 1 ] && ip netns del "mcmh$h" 2>/dev/null
		ip link del "h$h" 2>/dev/null
	done
	ip netns del $BR_NS 2>/dev/null
	for h in 1 2 3; do
		[ ! -e "/sys/class/infiniband/rxeh$h" ] && [ ! -e "/sys/class/net/h$h" ] &&
			[ ! -e "/run/netns/mcmh$h" ] || return 1
	done
	[ ! -e /run/netns/$BR_NS ]
}

bridge_topology() {
	if [ $BR_NETNS = 1 ]; then
		echo "hosts in namespaces mcmh1-3, each with its rxe (rxe is per namespace on $(uname -r))"
	else
		echo "hosts h1-h3 in the initial namespace, each on its own port (rxe sends and receives in the initial namespace only on $(uname -r))"
	fi
}

# --- the switch's view: its mdb ------------------------------------------

# BR_GROUPS: an extended regex of the test's groups (set by the test)
BR_GROUPS=${BR_GROUPS:-'\.76\.|::76:'}

# mdb_view: the mdb entries of the test's groups, one a line, sorted, their
# timers taken out (a source_list's ADDR/TIMER): what stays the same while
# nothing changes
mdb_view() {
	sw bridge -d mdb show dev br0 |
		grep -E " grp [^ ]*($BR_GROUPS)" |
		sed -E 's#/[0-9]+\.[0-9]+([, ]|$)#\1#g; s/ +$//' |
		sort
}

# mdb_log STEP: the switch's view as KTAP diagnostics, one line an entry
mdb_log() {
	local v l
	v=$(mdb_view)
	if [ -z "$v" ]; then
		diag "mdb $1: no entry of the test's groups"
		return 0
	fi
	while IFS= read -r l; do
		diag "mdb $1: ${l#dev br0 }"
	done <<< "$v"
}

# mdb_has PORT GROUP [SRC [MODE]]: the switch has an entry of GROUP on
# port swPORT (with SRC: the (S,G) entry; MODE: its filter mode, include
# or exclude)
mdb_has() {
	local re="^dev br0 port sw$1 grp $2"
	if [ -n "$3" ]; then
		re="$re src $3 "
	else
		re="$re (temp|permanent)"
	fi
	[ -n "$4" ] && re="$re.* filter_mode $4"
	mdb_view | grep -Eq -- "$re( |\$)"
}
mdb_lacks() { ! mdb_has "$@"; }
# mdb_port_none PORT GROUP: no entry of GROUP on swPORT, with or without
# source
mdb_port_none() { ! mdb_view | grep -q -- "^dev br0 port sw$1 grp $2 "; }
# mdb_group_none GROUP: no entry of GROUP on any port
mdb_group_none() { ! mdb_view | grep -q -- " grp $1 "; }
# mdb_view_is TEXT: the view is TEXT (an earlier mdb_view)
mdb_view_is() { [ "$(mdb_view)" = "$1" ]; }

# mdb_flush: delete every entry of the test's groups, as 'bridge mdb
# flush' (iproute2 6.9, kernel 6.8) would: one 'bridge mdb del' per port
# and group (a (*,G) entry takes its (S,G) entries along)
mdb_flush() {
	local port grp
	mdb_view | awk '$5 == "grp" && $7 != "src" { print $4, $6 }' | sort -u |
		while read -r port grp; do
			sw bridge mdb del dev br0 port "$port" grp "$grp" || return 1
		done
	[ -z "$(mdb_view)" ]
}

# --- the querier ---------------------------------------------------------

# probe_sent FAMILY: one UDP datagram from the switch itself (br0) to an
# unregistered group, 239.76.255.1 or ff1e::76:ffff (a bash /dev/udp
# redirection); the bridge forwards what br0 sends as what a port
# receives, so it reaches every port while the switch floods (no querier
# known), none once it has one
_probe_group() { if [ "$1" = 6 ]; then echo ff1e::76:ffff; else echo 239.76.255.1; fi; }
_probe_sent() {
	sw bash -c "echo probe > /dev/udp/$(_probe_group "$1")/9" 2>/dev/null
}
# querier_ready FAMILY: the switch forwards an unregistered group to no
# port (it knows a querier: after its own querier's start it waits one
# response interval before it stops flooding), tried once
querier_ready() {
	local g before after
	g=$(_probe_group "$1")
	count_add "$g" "" 9 || return 1
	before=$(count_egress "$g")
	_probe_sent "$1" || return 1
	after=$(count_egress "$g")
	[ "$before" = "$after" ]
}
# floods FAMILY: the switch floods an unregistered group to every port
floods() {
	local g b a
	g=$(_probe_group "$1")
	count_add "$g" "" 9 || return 1
	b=$(count_ports "$g")
	_probe_sent "$1" || return 1
	a=$(count_ports "$g")
	set -- $b $a
	[ "$6" -eq $(($2 + 1)) ] && [ "$7" -eq $(($3 + 1)) ] && [ "$8" -eq $(($4 + 1)) ]
}

# br_querier_on: the bridge is the querier (IGMPv3 and MLDv2 queries from
# br0; general queries at once, then every 5 s); waits until it stops
# flooding unregistered groups, both families
br_querier_on() {
	br_set mcast_querier 1 &&
		wait_for 20 querier_ready 4 && wait_for 20 querier_ready 6
}
br_querier_off() { br_set mcast_querier 0; }

# --- counting the RoCE v2 traffic on each port --------------------------

# Counters are tc flower filters on the switch's ports, one set per
# (group, source) key: sw1's ingress (what host 1 sent) and the egress of
# sw1, sw2 and sw3 (what the switch forwarded to each), each with a gact
# 'pass' action whose index is the filter's: tc -s actions get reads it.
declare -A _COUNT_PREF
_count_next=1

# count_add GROUP [SRC [UDP_PORT]]: the counters of GROUP's datagrams (from
# SRC only, when given) to UDP_PORT (RoCE v2's by default), made once (one
# tc -batch: a tc process takes a while under TCG)
count_add() {
	local key="$1/$2" proto=ip pref i m
	[ -n "${_COUNT_PREF[$key]}" ] && return 0
	case $1 in *:*) proto=ipv6 ;; esac
	pref=$_count_next
	_count_next=$((_count_next + 1))
	m="dst_ip $1${2:+ src_ip $2} ip_proto udp dst_port ${3:-$ROCE_PORT}"
	for i in 0 1 2 3; do
		if [ $i = 0 ]; then
			echo -n "filter add dev sw1 ingress"
		else
			echo -n "filter add dev sw$i egress"
		fi
		echo " protocol $proto pref $pref flower $m action gact pass index $((pref * 10 + i))"
	done | sw tc -batch - || return 1
	_COUNT_PREF[$key]=$pref
}
# count_ports GROUP [SRC]: "IN SW1 SW2 SW3": what entered at sw1, what left
# by each port (every gact action's count, read at once)
count_ports() {
	local p=${_COUNT_PREF[$1/$2]}
	sw tc -s actions ls action gact |
		awk -v p="$p" '$1 == "index" { i = $2 } $1 == "Sent" { n[i] = $4 }
		END { for (k = 0; k < 4; k++) printf "%s%s", (k ? " " : ""), \
			((p * 10 + k) in n ? n[p * 10 + k] : "?"); print "" }'
}
# count_egress GROUP [SRC]: what left by all ports together
count_egress() {
	set -- $(count_ports "$1" "$2")
	echo $(($2 + $3 + $4))
}

# sent_from N SRC GROUP COUNT: host N sends COUNT RoCE v2 datagrams to
# GROUP with rdma-mcm, bound to SRC (a send-only join, each send
# signalled), once
sent_from() {
	on "$1" timeout 60 rdma-mcm -b "$2" send "$3" -c "$4" --send-only > /dev/null
}

# forwarded DESC SRC GROUP COUNT TO2 TO3: host 1 sends COUNT datagrams from
# SRC to GROUP; the switch takes in COUNT at sw1 and forwards exactly TO2
# to sw2, TO3 to sw3 and none back to sw1. The counts are deltas of
# GROUP's counters from SRC, waited for (the switch forwards from its own
# softirq, after rxe's completion): first what came in, then the sum of
# what went out; a datagram the switch should not have forwarded makes a
# port's count wrong however the waits end. A check; the counts are also
# a diagnostic line.
forwarded() {
	local desc=$1 src=$2 g=$3 n=$4 to2=$5 to3=$6 b a rc
	count_add "$g" "$src" || { ok "$desc: counters" false; return 1; }
	b=$(count_ports "$g" "$src")
	sent_from 1 "$src" "$g" "$n"
	rc=$?
	_in_is() { set -- $b $(count_ports "$g" "$src"); [ $(($5 - $1)) -ge "$n" ]; }
	_out_is() {
		set -- $b $(count_ports "$g" "$src")
		[ $(($6 + $7 + $8 - $2 - $3 - $4)) -ge $((to2 + to3)) ]
	}
	wait_for 20 _in_is
	wait_for 10 _out_is
	a=$(count_ports "$g" "$src")
	set -- $b $a
	FWD="in $(($5 - $1)) sw1 $(($6 - $2)) sw2 $(($7 - $3)) sw3 $(($8 - $4))"
	diag "counts $desc: $g from $src, sent $n: $FWD"
	_fwd_ok() { [ $rc -eq 0 ] && [ "$FWD" = "in $n sw1 0 sw2 $to2 sw3 $to3" ]; }
	ok "$desc: $n sent from $src to $g, the switch forwards $to2 to sw2 and $to3 to sw3 ($FWD; send exit $rc)" \
		_fwd_ok
}

# --- sessions ------------------------------------------------------------

# bsession NAME N ARGS...: an 'rdma-mcm ARGS' join session on host N, its
# commands through the fifo $BT/NAME.in (held open on fd FD[NAME]), its
# output in $BT/NAME.out, its pid in PID[NAME]
BT=${BT:-/tmp/bridge}
declare -A FD PID
bsession() {
	local name=$1 h=$2 fd
	shift 2
	rm -f "$BT/$name.in"
	mkfifo "$BT/$name.in"
	on_exec "$h" rdma-mcm "$@" < "$BT/$name.in" > "$BT/$name.out" 2>&1 &
	PID[$name]=$!
	exec {fd}> "$BT/$name.in"
	FD[$name]=$fd
}
# say NAME LINE: a command to session NAME
say() { echo "$2" >&"${FD[$1]}"; }
# bclose NAME: close the session's stdin fd (after quit or a kill)
bclose() {
	local fd=${FD[$1]}
	[ -n "$fd" ] || return 0
	exec {fd}>&-
	unset "FD[$1]"
}
joined_in() { grep -q "^joined $2 " "$BT/$1.out"; }
left_in() { grep -q "^left $2 " "$BT/$1.out"; }
running() { kill -0 "$1" 2>/dev/null; }
not_running() { ! running "$1"; }

# sw_sniff_start FILE PORT ARGS...: mcm_sniff on swPORT, in the switch's
# namespace, for what the host sends into the switch (-d in); returns once
# it captures, its pid in SNIFF_PID (lib.sh's sniff_wait)
sw_sniff_start() {
	local out=$1 p=$2
	shift 2
	: > "$out.err"
	sw "$MCM_SNIFF" -i "sw$p" -d in "$@" > "$out" 2> "$out.err" &
	SNIFF_PID=$!
	wait_for 30 grep -q '^listening$' "$out.err"
}

# --- the cases, for one address family -----------------------------------

# br_family 4|6: the addresses and the reports' names the cases use:
# S1 and S2 (host 1's two addresses) and S3 (a third, never included),
# REPORT (mcm_sniff's name of the current version's records), OLD and
# OLD_LEAVE (the older version's, as force_igmp_version=2 and
# force_mld_version=1 make the host send), OLD_VER (the value
# knob_path's sysctl takes), VERSION (the current version's name)
br_family() {
	FAM=$1
	if [ "$1" = 4 ]; then
		S1=$(br4 1) S2=$(br4 11) S3=$(br4 12)
		REPORT=igmpv3 OLD=igmpv2 OLD_LEAVE=leave
		OLD_VER=2 VERSION=IGMPv3
	else
		S1=$(br6 1) S2=$(br6 11) S3=$(br6 12)
		REPORT=mldv2 OLD=mldv1 OLD_LEAVE="done"
		OLD_VER=1 VERSION=MLDv2
	fi
}
# addr_of N GROUP: host N's address of GROUP's family
addr_of() { case $2 in *:*) br6 "$1" ;; *) br4 "$1" ;; esac; }
# knob_path N: host N's sysctl of the older version
knob_path() {
	if [ "$FAM" = 4 ]; then
		echo "net.ipv4.conf.h$1.force_igmp_version"
	else
		echo "net.ipv6.conf.h$1.force_mld_version"
	fi
}

# host_mcast_refs N MAC: how often MAC is on hN's multicast list
# (/proc/net/dev_mcast of host N's namespace)
host_mcast_refs() {
	on "$1" cat /proc/net/dev_mcast |
		awk -v dev="h$1" -v mac="$2" '$2 == dev && $5 "" == mac "" { n = $3 } END { print n + 0 }'
}
# qp_on N GROUP: rxehN has a QP attached to GROUP: IPv4, rxe's MAC of the
# group (33:33 and the four bytes) on hN; IPv6, that MAC twice (the MLD
# membership's and rxe's). rxe never takes the MAC away again: a fresh
# group only.
qp_on() {
	case $2 in
	*:*) [ "$(host_mcast_refs "$1" "$(mcast_mac6_of "$2")")" -ge 2 ] ;;
	*) [ "$(host_mcast_refs "$1" "$(mcast_mac_of "$2")")" -ge 1 ] ;;
	esac
}

# brecv NAME N GROUP COUNT [ARGS...]: rdma-mcm recv of COUNT datagrams on
# host N, bound to its address; pid in PID[NAME], output in $BT/NAME.out
brecv() {
	local name=$1 h=$2 g=$3 c=$4
	shift 4
	on_exec "$h" rdma-mcm -b "$(addr_of "$h" "$g")" -t 120 recv "$g" -c "$c" "$@" \
		> "$BT/$name.out" 2>&1 &
	PID[$name]=$!
}
# recv_from NAME GROUP COUNT SRC: the receiver exited 0 with all COUNT
# datagrams of GROUP, every one from SRC (waited for, at most 60 s)
recv_from() {
	recv_wait "${PID[$1]}" 60
	cat "$BT/$1.out"
	recv_got "$BT/$1.out" "$2" "$3" "$RC" &&
		grep -qx "from $4 datagrams $3" "$BT/$1.out" &&
		[ "$(grep -c '^from ' "$BT/$1.out")" -eq 1 ]
}

# reap PID: wait for a killed background process, quietly (no "Killed")
reap() { { wait "$1"; } 2>/dev/null; }

# case_receivers G: two RDMA receivers on separate ports. Before any join
# the group reaches no port; h2's rdma-mcm recv (a full member, its QP
# attached) makes the switch forward it to sw2 only; h3's to sw2 and sw3;
# each receiver gets every datagram through the switch, from host 1; their
# exits prune the group. 8 checks.
case_receivers() {
	local g=$1
	forwarded "no member yet" "$S1" "$g" $COUNT 0 0
	brecv r2 2 "$g" $((2 * COUNT))
	_r2_ready() { grep -q "^joined $g " "$BT/r2.out" && qp_on 2 "$g" &&
		mdb_has 2 "$g" "" exclude && mdb_port_none 3 "$g"; }
	ok "h2's rdma-mcm recv joined $g, its QP attached: the switch has $g on sw2 (exclude), not on sw3" \
		wait_for 30 _r2_ready
	mdb_log "recv on h2"
	forwarded "one receiver, h2" "$S1" "$g" $COUNT $COUNT 0
	brecv r3 3 "$g" $COUNT
	_r3_ready() { grep -q "^joined $g " "$BT/r3.out" && qp_on 3 "$g" &&
		mdb_has 2 "$g" "" exclude && mdb_has 3 "$g" "" exclude; }
	ok "h3's recv joined $g too: the switch has $g on sw2 and sw3" wait_for 30 _r3_ready
	mdb_log "recv on h2 and h3"
	forwarded "two receivers, h2 and h3" "$S1" "$g" $COUNT $COUNT $COUNT
	_both_got() { recv_from r2 "$g" $((2 * COUNT)) "$S1" && recv_from r3 "$g" $COUNT "$S1"; }
	ok "rxeh2 received all $((2 * COUNT)) datagrams, rxeh3 all $COUNT, each from $S1 through the switch" \
		_both_got
	ok "the receivers' exits (their leaves) prune $g from sw2 and sw3" \
		wait_for 20 mdb_group_none "$g"
	mdb_log "receivers gone"
	forwarded "both receivers gone" "$S1" "$g" $COUNT 0 0
}

# case_prune G HOW FAST: h2's join session holds G, then ends it by HOW
# (leave: the session command; quit: the session's end, which closes
# its file; kill: SIGKILL, the kernel's close); the switch prunes G from
# sw2 and stops forwarding it. FAST off: by the querier's group-specific
# queries, unanswered (0.2 s); on: sw2 has fast leave and the last-member
# interval is 30 s, so that a prune within 10 s is fast leave's (the
# host's leave record alone). 4 checks.
case_prune() {
	local g=$1 how=$2 fast=$3 pid why
	if [ "$fast" = on ]; then
		port_set 2 fastleave on && br_set mcast_last_member_interval 3000 ||
			echo "case_prune: fast leave not set"
		why="at once: fast leave on sw2, the querier's last-member queries 60 s away"
	else
		why="after the querier's two last-member queries, 0.1 s apart"
	fi
	bsession p 2 -b "$(addr_of 2 "$g")" join "$g"
	pid=${PID[p]}
	_p_joined() { joined_in p "$g" && mdb_has 2 "$g" "" exclude; }
	ok "$how, fast leave $fast: h2 joins $g, the switch has it on sw2" wait_for 30 _p_joined
	forwarded "$how, fast leave $fast: h2 joined" "$S1" "$g" $COUNT $COUNT 0
	case $how in
	leave)	say p "leave $g"
		_p_gone() { left_in p "$g" && mdb_group_none "$g"; } ;;
	quit)	say p quit
		_p_gone() { not_running "$pid" && mdb_group_none "$g"; } ;;
	kill)	kill -KILL "$pid"
		_p_gone() { not_running "$pid" && mdb_group_none "$g"; } ;;
	esac
	ok "$how, fast leave $fast: the switch prunes $g from sw2 ($why)" wait_for 10 _p_gone
	mdb_log "after $how, fast leave $fast"
	forwarded "$how, fast leave $fast: after it" "$S1" "$g" $COUNT 0 0
	[ "$how" = leave ] && say p quit
	wait_exit "$pid" 10 > /dev/null 2>&1
	bclose p
	if [ "$fast" = on ]; then
		port_set 2 fastleave off
		br_set mcast_last_member_interval 10
	fi
}

# case_send_only G GM: h2 holds G as a full member; h3 joins G send-only,
# then GM as a full member. The sniffer on sw3 sees GM's report and
# nothing of G before it; the switch has G on sw2 only, and forwards G to
# sw2 only. 4 checks.
case_send_only() {
	local g=$1 gm=$2 rc
	bsession f 2 -b "$(addr_of 2 "$g")" join "$g"
	sw_sniff_start "$BT/sniff-so" 3 -t 60 --until "$gm"
	bsession s 3 -b "$(addr_of 3 "$g")" join "$g" --send-only
	wait_for 30 joined_in s "$g" && say s "join $gm"
	sniff_wait
	rc=$?
	cat "$BT/sniff-so"
	_no_report() { [ $rc -eq 0 ] && joined_in s "$g" && grep -q "^$REPORT $gm " "$BT/sniff-so" &&
		! grep -q " $g " "$BT/sniff-so"; }
	ok "h3's send-only join of $g sends no $VERSION report: the sniffer on sw3 saw $gm's, joined after it, and nothing of $g (exit $rc)" \
		_no_report
	_so_view() { joined_in f "$g" && mdb_has 2 "$g" "" exclude && mdb_port_none 3 "$g" &&
		mdb_has 3 "$gm" "" exclude; }
	ok "the switch has $g on sw2 only (h2 full, h3 send-only) and $gm on sw3" wait_for 30 _so_view
	mdb_log "send-only on h3"
	forwarded "full member h2, send-only member h3" "$S1" "$g" $COUNT $COUNT 0
	say f quit
	say s quit
	_so_gone() { not_running "${PID[f]}" && not_running "${PID[s]}" &&
		mdb_group_none "$g" && mdb_group_none "$gm"; }
	ok "both sessions quit: $g and $gm are pruned" wait_for 20 _so_gone
	bclose f
	bclose s
}

# case_ssm G: source-specific joins: h2 includes S1, h3 S2. The switch has
# (S,G) INCLUDE entries, each on its own port, and forwards each source to
# its port only, S3 nowhere; h2's leave (fast leave on sw2, the
# per-host tracking of its source) prunes S1 from sw2 at once and leaves
# sw3's S2; a SIGKILL of h3's session prunes the rest. 8 checks.
case_ssm() {
	local g=$1
	bsession i2 2 -b "$(addr_of 2 "$g")" join "$g" --source "$S1"
	bsession i3 3 -b "$(addr_of 3 "$g")" join "$g" --source "$S2"
	_ssm_view() {
		joined_in i2 "$g" && joined_in i3 "$g" &&
			mdb_has 2 "$g" "$S1" include && mdb_has 3 "$g" "$S2" include &&
			! mdb_has 2 "$g" "$S2" && ! mdb_has 3 "$g" "$S1" &&
			! mdb_view | grep -q " grp $g .*filter_mode exclude"
	}
	ok "h2 includes $S1, h3 $S2: the switch has ($S1, $g) INCLUDE on sw2, ($S2, $g) INCLUDE on sw3, nothing in EXCLUDE mode" \
		wait_for 30 _ssm_view
	mdb_log "SSM"
	forwarded "SSM from $S1 (h2's source)" "$S1" "$g" $COUNT $COUNT 0
	forwarded "SSM from $S2 (h3's source)" "$S2" "$g" $COUNT 0 $COUNT
	forwarded "SSM from $S3 (included by none)" "$S3" "$g" $COUNT 0 0
	port_set 2 fastleave on && br_set mcast_last_member_interval 3000
	say i2 "leave $g"
	_ssm_left() { left_in i2 "$g" && mdb_port_none 2 "$g" && mdb_has 3 "$g" "$S2" include; }
	ok "h2's leave prunes ($S1, $g) from sw2 at once (fast leave: the host's block record, per-host tracking); ($S2, $g) stays on sw3" \
		wait_for 10 _ssm_left
	mdb_log "SSM, h2 left"
	port_set 2 fastleave off
	br_set mcast_last_member_interval 10
	forwarded "SSM from $S1 after h2's leave" "$S1" "$g" $COUNT 0 0
	forwarded "SSM from $S2 after h2's leave" "$S2" "$g" $COUNT 0 $COUNT
	kill -KILL "${PID[i3]}"
	_ssm_gone() { not_running "${PID[i3]}" && mdb_group_none "$g"; }
	ok "SIGKILL of h3's session prunes ($S2, $g)" wait_for 20 _ssm_gone
	reap "${PID[i3]}"
	say i2 quit
	wait_exit "${PID[i2]}" 10 > /dev/null 2>&1
	bclose i2
	bclose i3
}

# case_old_version G: with force_igmp_version=2 (force_mld_version=1) on
# h3's netdev, the knob for switches that mishandle IGMPv3 / MLDv2: h3's
# recv reports G in the older version, the switch forwards G to sw3, rxeh3
# receives it, and recv's leave (IGMPv2 leave, MLDv1 done) prunes it.
# 6 checks.
case_old_version() {
	local g=$1 knob rc
	knob=$(knob_path 3)
	on 3 sysctl -qw "$knob=$OLD_VER"
	sw_sniff_start "$BT/sniff-old" 3 -t 60 --until "$g"
	brecv o3 3 "$g" $COUNT
	sniff_wait
	rc=$?
	cat "$BT/sniff-old"
	_old_report() { [ $rc -eq 0 ] && grep -qx "$OLD $g report -" "$BT/sniff-old" &&
		! grep -q "^$REPORT $g " "$BT/sniff-old"; }
	ok "$knob=$OLD_VER: h3's recv of $g reports it as $OLD ($OLD $g report -; exit $rc)" _old_report
	_old_view() { grep -q "^joined $g " "$BT/o3.out" && qp_on 3 "$g" &&
		mdb_has 3 "$g" "" exclude && mdb_port_none 2 "$g"; }
	ok "the switch has $g on sw3 from the $OLD report" wait_for 30 _old_view
	mdb_log "$knob=$OLD_VER on h3"
	sw_sniff_start "$BT/sniff-old2" 3 -t 60 --until "$g,$OLD_LEAVE"
	forwarded "$OLD member h3" "$S1" "$g" $COUNT 0 $COUNT
	ok "rxeh3 received all $COUNT datagrams through the switch" recv_from o3 "$g" $COUNT "$S1"
	sniff_wait
	rc=$?
	cat "$BT/sniff-old2"
	_old_gone() { [ $rc -eq 0 ] && grep -qx "$OLD $g $OLD_LEAVE -" "$BT/sniff-old2" &&
		mdb_group_none "$g"; }
	ok "recv's exit sends $OLD's $OLD_LEAVE and the switch prunes $g (exit $rc)" wait_for 20 _old_gone
	mdb_log "$OLD member gone"
	forwarded "after the $OLD $OLD_LEAVE" "$S1" "$g" $COUNT 0 0
	on 3 sysctl -qw "$knob=0"
}

# none_left: no session or receiver of the test runs
none_left() {
	local p
	for p in "${PID[@]}"; do
		running "$p" && return 1
	done
	return 0
}

# gate_reports N on|off: the switch drops (on) what host N sends of IGMP
# and ICMPv6 (its MLD reports) at swN's ingress, or takes it again (off):
# while the gate is closed a view the switch lost stays lost, whatever
# queries come meanwhile, so that what heals it is the first query after
# the gate opens. (The sniffer on swN sees the reports still: packet taps
# come before tc's ingress.)
gate_reports() {
	if [ "$2" = on ]; then
		printf '%s\n' \
			"filter add dev sw$1 ingress protocol ip pref 9001 flower ip_proto 2 action drop" \
			"filter add dev sw$1 ingress protocol ipv6 pref 9002 flower ip_proto icmpv6 action drop"
	else
		printf '%s\n' "filter del dev sw$1 ingress protocol ip pref 9001" \
			"filter del dev sw$1 ingress protocol ipv6 pref 9002"
	fi | sw tc -batch -
}

# bridge_has_eht: the switch tracks each host of a port (EHT, Linux 5.11).
# 5.10's bridge snoops IGMPv3 and MLDv2 but answers a v3/v2 leave record
# with the querier's group-specific queries whatever fast leave says: 76's
# and 77's fast-leave and per-host cases count on the at-once prune, so
# they skip there (78-bridge-heal runs on it).
bridge_has_eht() {
	[ "$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')" -ge 5011 ]
}

# bridge_skip_without_eht: on a kernel without it, one SKIP, and the
# script ends
bridge_skip_without_eht() {
	bridge_has_eht && return 0
	plan 1
	skip "the snooping switch's fast-leave and per-host cases" \
		"the bridge of $(uname -r) tracks no host (EHT, 5.11): a fast leave of an IGMPv3/MLDv2 record waits for the querier's queries"
	exit 0
}
