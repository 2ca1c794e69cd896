#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# rdma-mcm check on real memberships: what the host reports to the network
# for them, and what the network asks. The memberships are on rxe1
# (veth1); the network is veth0, where mcm_query (tools/testing/mcsniff)
# plays the querier and mcm_sniff sees the host's reports.
#
# - a session holds 239.76.0.1 (full), .2 (send-only), 232.76.0.1 (from
#   192.0.2.1), another ff3e::76:1: check says IGMPv3 and MLDv2 by
#   default, each full member's group in /proc/net/igmp(6), the filter
#   whole, the send-only group absent as it should be: exit 0, -j valid;
# - force_igmp_version 2 on veth1, the knob for switches that mishandle
#   IGMPv3: a full-member join still works (the group in /proc/net/igmp,
#   its report an IGMPv2 one on veth0 and no IGMPv3 one, a recv gets
#   every datagram sent), and check says IGMPv2 by force and warns that
#   the source-specific member's reports carry no source: exit 1;
# - IGMPv3 and MLDv2 general queries from veth0 (192.0.2.1, fe80::76)
#   while check listens 3 s: heard, with their version, source, query
#   interval and robustness; every full member's group refreshed;
# - IGMPv2 queries: heard as IGMPv2; the host is then in IGMPv2 by
#   querier (the Querier column, force_igmp_version 0): a note and the
#   warning; back to IGMPv3 once the older querier's timeout ran out
#   (shortened first to 30 s by an IGMPv3 query of QQIC 20, QRV 1, and
#   the defaults set back after);
# - MLDv1 queries with force_mld_version 2 on veth1: the warning
#   mld-v1-ignored; a listen of 1 s without queries: none heard, no
#   finding; check listen as uid 65534: not checked (exit 3),
#   CAP_NET_RAW said;
# - veth1 down: the problem link-down (exit 2); up again (and its IPv6
#   addresses back): every membership joined again, check exits 0.
#
# No step waits for a timer to expire but the IGMPv2 querier's timeout,
# which is waited for as a state (the Querier column), not slept.

. "$(dirname "$0")/lib.sh"

BIN=/usr/libexec/rdma_mcm/bin
T=/tmp/check
R4=$BENCH_IP1		# the members: rxe1, veth1
Q4=$BENCH_IP0		# the querier: veth0
Q6=fe80::76		# veth0's querier address (MLD: link-local)
R6=$BENCH_IP6_1
G1=239.76.0.1 G2=239.76.0.2 G3=232.76.0.1 G4=239.76.0.4 G5=239.76.0.5
G6=ff3e::76:1
COUNT=5
mkdir -p $T

igmp_sysctl=/proc/sys/net/ipv4/conf/veth1/force_igmp_version
mld_sysctl=/proc/sys/net/ipv6/conf/veth1/force_mld_version

joined_n() { [ "$(grep -c "^joined $2 " "$1")" -ge "$3" ]; }
# ck ARGS...: rdma-mcm ARGS check netdev veth1 ..., its output in $T/ck,
# its exit status in CK
ck() { rdma-mcm "$@" > $T/ck 2> $T/ck.err; CK=$?; cat $T/ck $T/ck.err; }
has_line() { grep -Eq -- "$1" $T/ck || { echo "no line matches '$1'"; return 1; }; }
# json_is PYTHON-EXPR: it holds of the check's JSON object o (the netdev
# n, its groups g by address, its IGMP and MLD queriers qi and qm, the
# findings' codes)
json_is() {
	python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
n = o["netdevs"][0]
g = {x["group"]: x for x in n["groups"]}
qi, qm = n["igmp"]["querier"], n["mld"]["querier"]
codes = sorted(f["code"] for f in o["findings"])
if not eval(sys.argv[2]):
    sys.exit("does not hold: %s\n%s" % (sys.argv[2], json.dumps(o)))
' $T/ck "$1"
}
querier_col() { awk '$2 == "veth1" { print $5 }' /proc/net/igmp; }
# queries FAMILY-VERSION ARGS...: mcm_query from veth0 until stopped (QPID)
queries() {
	local v=$1
	shift
	$BIN/mcm_query -i veth0 -V "$v" -c 0 -w 200 "$@" > $T/q.$v 2>&1 &
	QPID="$QPID $!"
}
stop_queries() { kill $QPID 2>/dev/null; wait $QPID 2>/dev/null; QPID=; }
# the querier's defaults on veth1 again (QQIC 125, QRV 2), after a test
# shortened them
igmp_defaults() {
	$BIN/mcm_query -i veth0 -V igmpv3 -s $Q4 -q 125 -r 2 -m 10 -c 1 > /dev/null
}

at_exit stop_jobs
at_exit "echo 0 > $igmp_sysctl; echo 0 > $mld_sysctl"
at_exit "ip link set veth1 up"
at_exit igmp_defaults
at_exit "ip -6 addr del $Q6/64 dev veth0 2>/dev/null"
at_exit bench_ipv6_down

plan 35
check "modprobe rdma_mcm" modprobe rdma_mcm
check "$BENCH_IP6_0 on veth0, $R6 on veth1: RoCE v2 GIDs" bench_ipv6
ip -6 addr add $Q6/64 dev veth0 nodad

# --- the memberships, as they should be -------------------------------------
rm -f $T/a.in $T/b.in
mkfifo $T/a.in $T/b.in
rdma-mcm -b $R4 join $G1 < $T/a.in > $T/a.out 2>&1 &
APID=$!
exec 7> $T/a.in
echo "join $G2 --send-only" >&7
echo "join $G3 --source $Q4" >&7
rdma-mcm -b $R6 join $G6 < $T/b.in > $T/b.out 2>&1 &
BPID=$!
exec 8> $T/b.in
ok "a session joins $G1 (full), $G2 (send-only), $G3 (from $Q4) on rxe1" \
	wait_for 30 eval "joined_n $T/a.out $G1 1 && joined_n $T/a.out $G2 1 && joined_n $T/a.out $G3 1"
ok "another joins $G6 on rxe1" wait_for 30 joined_n $T/b.out $G6 1

ck check netdev veth1
ok "check netdev veth1: status ok, exit 0 ($CK)" has_line '^status ok problems 0 warnings 0 notes 0$'
ok "IGMPv3 and MLDv2 by default, no querier listened for" eval \
	"has_line '^    igmp version 3 by default force_igmp_version 0 all 0 querier not-listened$' &&
	 has_line '^    mld version 2 by default force_mld_version 0 all 0 querier not-listened$'"
ok "the full members' groups in the host's tables, $G3's filter whole" eval \
	"has_line '^    group $G1 full 1 host-table yes users 1$' &&
	 has_line '^    group $G3 full 1 sources $Q4 host-table yes users 1 filter yes$' &&
	 has_line '^    group $G6 full 1 host-table yes users 1$'"
ok "the send-only member's group not in /proc/net/igmp, as it should not be" \
	has_line "^    group $G2 send-only 1 host-table no\$"
ck -j check netdev veth1
json_ok "check -j: one object valid against the schema" check $T/ck 1
ok "check -j: the same, as JSON" json_is \
	"o['status'] == 'ok' and n['igmp']['version'] == 3 and g['$G1']['host_table'] and not g['$G2']['host_table'] and g['$G3']['filter'] == 'yes'"

# --- force_igmp_version 2 ------------------------------------------------------
echo 2 > $igmp_sysctl
sniff_start $T/sn4 -i veth0 -d in -t 60 --until "$G4,report"
echo "join $G4" >&7
ok "force_igmp_version 2: the session joins $G4" wait_for 30 joined_n $T/a.out $G4 1
sniff_wait
rc=$?
cat $T/sn4
ok "its report on veth0 is IGMPv2 (mcm_sniff exit $rc), no IGMPv3 record of it" \
	eval "[ $rc -eq 0 ] && grep -q '^igmpv2 $G4 report -\$' $T/sn4 && ! grep -q '^igmpv3 $G4 ' $T/sn4"
ok "/proc/net/igmp lists $G4 on veth1" in_igmp veth1 $G4
rdma-mcm -b $R4 -t 300 recv $G5 -c $COUNT > $T/recv.out 2>&1 &
pid=$!
ok "a recv joins $G5 as a full member, its QP attached" \
	wait_for 30 eval "in_igmp veth1 $G5 && qp_attached veth1 $G5"
check "rdma-mcm on $Q4 sends $COUNT datagrams to $G5 once" send_counted $Q4 $G5 $COUNT
recv_wait $pid 60
cat $T/recv.out
ok "the recv got every datagram (exit $RC)" recv_got $T/recv.out $G5 $COUNT $RC
ck check netdev veth1
ok "check: IGMPv2 by force ($CK)" \
	has_line '^    igmp version 2 by force force_igmp_version 2 all 0 querier not-listened$'
ok "check: the source-specific member warned, nothing else: exit 1" eval \
	"[ $CK -eq 1 ] && has_line '^warning sources-not-reported netdev veth1 group $G3: source-specific member, but veth1 is in IGMPv2 \(force_igmp_version\)' &&
	 has_line '^status warning problems 0 warnings 1 notes 0$'"
echo 0 > $igmp_sysctl
ck check netdev veth1
ok "force_igmp_version 0 again: IGMPv3, exit 0 ($CK)" eval \
	"[ $CK -eq 0 ] && has_line '^    igmp version 3 by default force_igmp_version 0 all 0 '"

# --- queriers heard ---------------------------------------------------------------
QPID=
queries igmpv3 -s $Q4
queries mldv2 -s $Q6
ck -j check netdev veth1 listen 3
stop_queries
json_ok "check -j listen 3: valid against the schema" check $T/ck 1
ok "IGMPv3 general queries from $Q4 heard: query interval 125 s, QRV 2, 10 s" json_is \
	"qi['listened'] and qi['queries'] >= 1 and qi['queriers'] == ['$Q4'] and qi['last']['version'] == 'igmpv3' and (qi['last']['qqi_s'], qi['last']['qrv'], qi['last']['max_resp_ms'], qi['last']['group']) == (125, 2, 10000, None)"
ok "MLDv2 general queries from $Q6 heard" json_is \
	"qm['queries'] >= 1 and qm['queriers'] == ['$Q6'] and qm['last']['version'] == 'mldv2' and qm['last']['ignored'] is None"
ok "every full member's group refreshed, status ok" json_is \
	"o['status'] == 'ok' and all(g[x]['refreshed'] is True for x in ('$G1', '$G3', '$G4', '$G6')) and 'refreshed' not in g['$G2']"

# an IGMPv2 querier: its timeout shortened to QRV x QQI + 10 s = 30 s
$BIN/mcm_query -i veth0 -V igmpv3 -s $Q4 -q 20 -r 1 -c 1 > /dev/null
queries igmpv2 -s $Q4
ck -j check netdev veth1 listen 2
stop_queries
ok "IGMPv2 queries heard as such (max response 10 s)" json_is \
	"qi['queries'] >= 1 and qi['last']['version'] == 'igmpv2' and qi['last']['max_resp_ms'] == 10000 and 'qqi_s' not in qi['last']"
ok "the host in IGMPv2 by querier: the note, and the source-specific member warned (exit 1)" json_is \
	"(n['igmp']['version'], n['igmp']['by']) == (2, 'querier') and codes == ['querier-version', 'sources-not-reported'] and $CK == 1"
ok "/proc/net/igmp's Querier column says V2 for veth1" [ "$(querier_col)" = V2 ]
igmp_v3_again() { rdma-mcm check netdev veth1 | grep -q '^    igmp version 3 by default '; }
ok "the older querier's timeout runs out: check says IGMPv3 by default again" \
	wait_for 90 igmp_v3_again
igmp_defaults

# MLDv1 queries, which force_mld_version 2 makes the host ignore
echo 2 > $mld_sysctl
queries mldv1 -s $Q6
ck -j check netdev veth1 listen 2
stop_queries
echo 0 > $mld_sysctl
ok "force_mld_version 2 and an MLDv1 querier: MLDv2 by force, the warning mld-v1-ignored (exit 1)" json_is \
	"(n['mld']['version'], n['mld']['by'], qm['last']['version']) == (2, 'force', 'mldv1') and codes == ['mld-v1-ignored'] and $CK == 1"

ck check netdev veth1 listen 1
ok "listen 1 without a querier: none heard, no finding (1 s says nothing), exit 0 ($CK)" eval \
	"[ $CK -eq 0 ] && has_line '^    igmp version 3 by default force_igmp_version 0 all 0 querier none listen 1s$' &&
	 has_line '^    group $G1 full 1 host-table yes users 1 refreshed unknown$'"
setpriv --reuid=65534 --regid=65534 --clear-groups rdma-mcm check netdev veth1 listen 1 \
	> $T/nobody.out 2> $T/nobody.err
rc=$?
cat $T/nobody.err
ok "check listen as uid 65534: not checked (exit $rc), CAP_NET_RAW said, nothing on stdout" eval \
	"[ $rc -eq 3 ] && [ ! -s $T/nobody.out ] && grep -q 'raw sockets need CAP_NET_RAW' $T/nobody.err"

# --- the link goes down, comes back ---------------------------------------------------
ip link set veth1 down
ck check netdev veth1
ok "veth1 down: the problem link-down, exit 2 ($CK)" eval \
	"[ $CK -eq 2 ] && has_line '^netdev veth1 ifindex [0-9]+ state down multicast on ' &&
	 has_line '^problem link-down netdev veth1: the netdev is down: nothing is sent or received on it$'"
ip link set veth1 up
# the IPv6 addresses went with the link (keep_addr_on_down 0)
check "veth1 up, its IPv6 address back" bench_ipv6
all_ok() { rdma-mcm check netdev veth1 > $T/ck.last; }
ok "every membership joined again, check exits 0" wait_for 90 all_ok
cat $T/ck.last
ok "and each full member's group is in the host's tables again" eval \
	"grep -q '^    group $G1 full 1 host-table yes' $T/ck.last && grep -q '^    group $G4 full 1 host-table yes' $T/ck.last &&
	 grep -q '^    group $G6 full 1 host-table yes' $T/ck.last"

# --- the end -------------------------------------------------------------------------------
echo quit >&7
echo quit >&8
exec 7>&- 8>&-
wait_exit $APID 30
wait_exit $BPID 30
wait_for 10 not_in_igmp veth1 $G1
ck check netdev veth1
ok "the sessions gone: their groups gone, no membership, exit 0 ($CK)" eval \
	"[ $CK -eq 0 ] && ! grep -q '^    group ' $T/ck && not_in_igmp veth1 $G3 && not_in_igmp6 veth1 $G6"
