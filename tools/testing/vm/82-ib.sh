#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# InfiniBand for real: rdma_mcm on softib (tools/testing/softib), a soft
# IB HCA whose subnet administrator answers the MADs that the kernel's own
# ib_mad, ib_sa and multicast.c send. Nothing of rdma_cm or ib_sa is faked:
# IPoIB (ib_ipoib, unmodified) brings up ib0 and ib1 on sib0 and sib1 and
# joins the broadcast group through the SA, and every rdma_mcm membership
# below is an MCMemberRecord the SA holds, read back from its records and
# its request log:
#
# - join, leave, close and SIGKILL from rdma-mcm: the record appears with
#   the port's GID and join state (full member 1, send-only full member 8)
#   and goes when the last full member goes;
# - datagrams from a generator on the switch reach the test ULP's attached
#   QP, exactly COUNT of them, and only while the SA forwards the group to
#   its port (with another Q_Key, none; after the ULP leaves, none even
#   while a session on the same port keeps the SA forwarding there: the
#   QP was detached);
# - an SM restart with client reregister: every membership rejoins, the
#   ULP's QP is attached again and receives again;
# - sib1 removed under the ULP's QP and a session: the removal completes,
#   both wait with ENODEV and the SA forgets the port; sib1 back (a new
#   IPoIB netdev, its address again): both rejoin, the ULP on a new QP that
#   receives the generator's datagrams;
# - an SA that does not answer: the healing join is retried and succeeds,
#   the non-healing one fails with ETIMEDOUT after ib_sa's retries; an SA
#   answer NO_RESOURCES or BUSY is a refusal, ECONNREFUSED, asked once.
#
# The facts of ib_sa this rests on are in Documentation/softib.rst.

. "$(dirname "$0")/lib.sh"

SIB=/sys/kernel/debug/softib
CTL=$SIB/control
ULP=/sys/kernel/debug/rdma_mcm_test_ulp
IP0=10.9.0.1
IP1=10.9.0.2
QKEY=0x01234567		# rdma_cm's Q_Key for RDMA_PS_UDP
T=/tmp/ib
mkdir -p $T

sib() { echo "$*" > $CTL; }
# port GIDs, as the SA's records print them
GID0=fe80:0000:0000:0000:0002:c903:00a1:b200
GID1=fe80:0000:0000:0000:0002:c903:00a1:b201
# mgid_of A.B.C.D: the MGID rdma_cm gives an IPv4 group in RDMA_PS_UDP
# on the default partition (IPoIB's mapping, 0x01 for IPoIB's 0x1b)
mgid_of() {
	local IFS=.
	set -- $1	# the four octets
	printf 'ff12:4001:ffff:0000:0000:0000:%02x%02x:%02x%02x' \
		$(($1 & 15)) "$2" "$3" "$4"
}
record() { grep "^$1 " $SIB/sa_records; }
no_record() { ! grep -q "^$1 " $SIB/sa_records; }
# member MGID GID STATE: the SA's record of MGID lists GID with STATE
member() { record "$1" | grep -q " $2/$3\( \|$\)"; }
not_member() { ! record "$1" | grep -q " $2/"; }
bcast_full() {
	member ff12:401b:ffff:0000:0000:0000:ffff:ffff $GID0 1 &&
		member ff12:401b:ffff:0000:0000:0000:ffff:ffff $GID1 1
}
# requests to MGID in the SA's log since it was cleared, by transaction ID
# (ib_mad retransmits a request whose answer is late with its TID)
tids() { awk '{ for (i = 1; i < NF; i++) if ($i == "tid") print $(i + 1) }'; }
sa_asked() { grep " mgid $1 " $SIB/sa_log | tids | sort -u | wc -l; }
not() { ! "$@"; }
refused_once() {
	rdma-mcm show group "$1" | grep -q "group $1 state error " &&
		[ "$(sa_asked "$2")" -eq 1 ]
}
ulp() { echo "$*" > $ULP/control; }
ulp_stat() { awk -v k="$1" '$1 == k { print $2 }' $ULP/status; }
ulp_stat_is() { [ "$(ulp_stat "$1")" = "$2" ]; }
ulp_member() { awk -v g="$1" '$1 == "member" && $3 == g { print $4, $6 }' $ULP/status; }
ulp_member_is() { [ "$(ulp_member "$1")" = "$2" ]; }
inject() { sib inject "$@" && cat $SIB/injected; }
injected_is() { local n; n=$(inject "${@:1:3}") && [ "$n" -eq "$4" ]; }
sib_counter() {
	awk -v d="$1" -v k="$2" \
		'$1 == d { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' \
		$SIB/devices
}
out_has() { grep -q "$2" "$1"; }

# session NAME ADDR ARGS...: an rdma-mcm join session on ADDR (join ARGS)
# reading commands that 'say NAME' writes, printing to $T/NAME.out
declare -A spid sfd
session() {
	local name=$1 addr=$2 fd
	shift 2
	rm -f "$T/$name.in"
	mkfifo "$T/$name.in"
	rdma-mcm -b "$addr" -t 60 join "$@" < "$T/$name.in" > "$T/$name.out" 2>&1 &
	spid[$name]=$!
	exec {fd}> "$T/$name.in"
	sfd[$name]=$fd
}
say() { echo "${*:2}" >&"${sfd[$1]}"; }
session_end() {
	local fd=${sfd[$1]}
	say "$1" quit
	exec {fd}>&-
	wait "${spid[$1]}"
}

cleanup() {
	[ -e $ULP/control ] && ulp close
	modprobe -r rdma_mcm_test_ulp 2>/dev/null
	ip link set ib0 down 2>/dev/null
	ip link set ib1 down 2>/dev/null
	modprobe -r ib_ipoib 2>/dev/null
	rmmod softib 2>/dev/null
}
at_exit stop_jobs
at_exit cleanup

plan 123

# --- the fabric ---------------------------------------------------------
check "modprobe ib_ipoib" modprobe ib_ipoib
check "modprobe rdma_mcm" modprobe rdma_mcm
check "modprobe softib (sib0, sib1)" modprobe softib
rdma link show
ok "sib0/1 is an IB port with LID 2, SM LID 1, ACTIVE" \
	sh -c "rdma link show sib0/1 | grep -q 'lid 2 sm_lid 1 lmc 0 state ACTIVE'"
ok "sib1/1 is an IB port with LID 3, SM LID 1, ACTIVE" \
	sh -c "rdma link show sib1/1 | grep -q 'lid 3 sm_lid 1 lmc 0 state ACTIVE'"
cpi_read() { grep -q "slid $1 method 0x01 attr 0x0001 status 0x0000" $SIB/sa_log; }
ok "ib_sa read the SA's ClassPortInfo on sib0's port" wait_for 20 cpi_read 2
ok "ib_sa read the SA's ClassPortInfo on sib1's port" wait_for 20 cpi_read 3
ipoib_up() {
	ip link set ib0 up && ip link set ib1 up &&
		ip addr add $IP0/24 dev ib0 && ip addr add $IP1/24 dev ib1
}
check "IPoIB's ib0 and ib1 come up" ipoib_up
ok "IPoIB joined the broadcast group from both ports through the SA" wait_for 30 bcast_full
ip -br link show dev ib0
ip -br link show dev ib1

# --- join, leave, close, SIGKILL through rdma_cm and ib_sa ----------------
G=239.5.5.5
M=$(mgid_of $G)
sib sa clear-log
session s1 $IP1 $G
ok "rdma-mcm joins $G on ib1: the joined event gives $M and an MLID" \
	wait_for 30 out_has $T/s1.out "^joined $G handle [0-9]* mgid ff12:4001:ffff::f05:505 mlid 0xc"
ok "the SA holds $G's record with sib1's port as full member" member "$M" $GID1 1
qkey_is() { record "$1" | grep -q "qkey $2"; }
ok "the record's Q_Key is rdma_cm's ($QKEY)" qkey_is "$M" $QKEY
shown() { rdma-mcm show group "$1" | grep -q "$2"; }
ok "rdma-mcm show lists the membership on sib1, joined" \
	shown $G "dev sib1 port 1 netdev ib1 group $G state joined type full"
# rdma_mcm holds no IP membership on an IB netdev (the SA's record is the
# membership there): ib1's IP multicast list lacks the group
ipoib_mgid_of() { mgid_of "$1" | sed 's/^ff12:4001/ff12:401b/'; }
no_ip_member() { ! ip maddr show dev ib1 | grep -qw "$1"; }
ok "rdma_mcm made no IP membership of $G on ib1 (ip maddr)" no_ip_member $G
session s0 $IP0 $G
ok "a second session joins $G on ib0" wait_for 30 out_has $T/s0.out "^joined $G "
both() { member "$1" $GID0 1 && member "$1" $GID1 1; }
ok "the record lists both ports as full members" both "$M"
say s0 leave $G
ok "leave on ib0: the left event" wait_for 10 out_has $T/s0.out "^left $G "
only1() { member "$1" $GID1 1 && not_member "$1" $GID0; }
ok "the record keeps sib1 and drops sib0" wait_for 10 only1 "$M"
session_end s0
session_end s1
ok "the last full member's session quits: the SA deletes the group" wait_for 10 no_record "$M"
# asked MGID METHOD N: the SA's log has N requests of METHOD for MGID,
# answered without error
asked() {
	[ "$(grep "method $2 .* mgid $1 .* status 0x0000" $SIB/sa_log |
		tids | sort -u | wc -l)" -eq "$3" ]
}
joins_leaves() { asked "$1" 0x02 2 && asked "$1" 0x15 2; }
ok "the SA was asked one join and one leave per port" joins_leaves "$M"

# A socket's IP membership of the same group on ib1 is IPoIB's: its own
# MGID (IPoIB's 0x1b signature), a record beside rdma_mcm's; leaving one
# keeps the other.
G=239.5.5.7
M=$(mgid_of $G)
MI=$(ipoib_mgid_of $G)
python3 -c "
import signal, socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
             socket.inet_aton('$G') + socket.inet_aton('$IP1'))
signal.pause()
" < /dev/null > $T/sock.out 2>&1 &
sockpid=$!
ok "a socket on ib1 joins $G: IPoIB's record $MI, sib1 a full member" \
	wait_for 30 member "$MI" $GID1 1
ok "... and ip maddr lists it on ib1" not no_ip_member $G
session s4 $IP1 $G
ok "rdma-mcm joins $G on ib1: rdma_cm's record beside IPoIB's" \
	wait_for 30 member "$M" $GID1 1
session_end s4
ours_left() { no_record "$1" && member "$2" $GID1 1; }
ok "rdma-mcm leaves: its record goes, IPoIB's stays" wait_for 10 ours_left "$M" "$MI"
kill $sockpid
wait $sockpid 2>/dev/null
ok "the socket closes: IPoIB leaves its record" wait_for 30 no_record "$MI"

G=239.5.5.6
M=$(mgid_of $G)
session s2 $IP1 $G --send-only
ok "a send-only join reaches joined" wait_for 30 out_has $T/s2.out "^joined $G "
ok "the SA holds it as a send-only full member (join state 8)" member "$M" $GID1 8
session_end s2
ok "quit: the send-only member's record goes" wait_for 10 no_record "$M"

G=239.5.5.9
M=$(mgid_of $G)
rdma-mcm -b $IP1 join $G < /dev/null > $T/kill.out 2>&1 &
kpid=$!
ok "a session joins $G" wait_for 30 out_has $T/kill.out "^joined $G "
ok "... and the SA has its record" member "$M" $GID1 1
kill -KILL $kpid
wait $kpid 2>/dev/null
ok "after SIGKILL the SA deletes the record" wait_for 10 no_record "$M"

# --- groups the SA assigns: joins of :: ----------------------------------
# expand6 ADDR: an IPv6 address as the SA's files print an MGID
expand6() {
	local h=${1%%::*} t= x g=()
	local -a hs ts
	[ "$h" != "$1" ] && t=${1#*::}
	IFS=: read -ra hs <<< "$h"
	IFS=: read -ra ts <<< "$t"
	g=("${hs[@]}")
	for ((x = ${#hs[@]} + ${#ts[@]}; x < 8; x++)); do g+=(0); done
	g+=("${ts[@]}")
	for x in "${!g[@]}"; do g[x]=$(printf %04x $((16#${g[x]}))); done
	(IFS=:; echo "${g[*]}")
}
Z=0000:0000:0000:0000:0000:0000:0000:0000
IP6=fd00:9::2
# the MGID of the Nth "joined ::" line of a session
mgid_joined() { awk -v n="$2" '$1 == "joined" && $2 == "::" && ++i == n { print $6 }' "$1"; }
check "ib1 gets the IPv6 address $IP6" ip -6 addr add $IP6/64 dev ib1 nodad
sib sa clear-log
session a1 $IP6 ::
ok "rdma-mcm joins :: on ib1: the joined event gives an MGID the SA made" \
	wait_for 30 out_has $T/a1.out "^joined :: handle [0-9]* mgid ff12:a01b:ffff::[0-9a-f]* "
A1=$(mgid_joined $T/a1.out 1)
MA=$(expand6 "$A1")
ok "the SA was asked once, with an MGID of zeros" [ "$(sa_asked $Z)" -eq 1 ]
ok "the SA holds the group $A1, sib1 a full member" member "$MA" $GID1 1
say a1 join ::
two_joined() { [ "$(grep -c '^joined :: ' $T/a1.out)" -eq 2 ]; }
ok "a second :: of the session is joined too" wait_for 30 two_joined
A2=$(mgid_joined $T/a1.out 2)
MB=$(expand6 "$A2")
two_groups() { [ "$MA" != "$MB" ] && member "$MA" $GID1 1 && member "$MB" $GID1 1; }
ok "... a second group ($A2), a second record" two_groups
shown_mgid() { rdma-mcm show | grep -q "group :: mgid $1 state joined type full "; }
ok "rdma-mcm show reports group :: with the MGID $A1" shown_mgid "$A1"
ok "... and with the MGID $A2" shown_mgid "$A2"
shown_json() { rdma-mcm -j show | grep -q "\"group\":\"::\".*\"mgid\":\"$1\""; }
ok "rdma-mcm -j show too" shown_json "$A2"
say a1 leave ::
ok "leave :: leaves the older one: the left event" wait_for 10 out_has $T/a1.out "^left :: "
older_left() { no_record "$MA" && member "$MB" $GID1 1; }
ok "the SA deletes $A1's group and keeps $A2's" wait_for 10 older_left
# the session stays: the SM restart below must rejoin $A2 by its MGID

# --- datagrams: the generator on the switch to the test ULP's QP ---------
G=239.6.6.6
M=$(mgid_of $G)
N=20
check "modprobe rdma_mcm_test_ulp" modprobe rdma_mcm_test_ulp
check "the ULP opens a healing context on $IP1 (sib1) with a UD QP" ulp openheal $IP1
check "the ULP joins $G" ulp join $G
ok "joined, QP attached" wait_for 30 ulp_member_is $G "joined attached=1"
# sib1's multicast limits (softib's parameters, what its query_device
# reports) and the ULP's one place against them, in rdma-mcm stats
sib_param() { cat /sys/module/softib/parameters/$1; }
sib1_mcast() {
	local want have
	want="groups $1/$(sib_param max_mcast_grp) attaches $1/$(sib_param max_total_mcast_qp_attach) qp-per-group $(sib_param max_mcast_qp_attach)"
	have=$(rdma-mcm stats | awk '$1 == "dev" && $2 == "sib1"' |
		grep -o 'groups [0-9]*/[0-9]* attaches [0-9]*/[0-9]* qp-per-group [0-9]*')
	echo "rdma-mcm stats: '$have', softib: '$want'"
	[ "$have" = "$want" ]
}
ok "rdma-mcm stats: sib1's groups and attaches used/max (1), softib's limits" sib1_mcast 1
ok "the generator's $N datagrams: one QP received $N" injected_is "$M" $QKEY $N $N
ok "the ULP counted exactly $N" wait_for 10 ulp_stat_is rx $N
q0=$(sib_counter sib1 drop_qkey)
ok "with another Q_Key: no QP received any of 5" injected_is "$M" 0x0b1b 5 0
qkey_dropped() { ulp_stat_is rx "$1" && [ $(( $(sib_counter sib1 drop_qkey) - q0 )) -eq "$2" ]; }
ok "... sib1 dropped all 5 for their Q_Key, the ULP still counts $N" qkey_dropped $N 5

sib sa clear-log
sib sm-restart reregister
rejoined() { ulp_stat_is rejoined_callbacks 1 && ulp_member_is "$1" "joined attached=1"; }
ok "SM restart with client reregister: the ULP's membership rejoins" \
	wait_for 60 rejoined $G
ok "the SA has the record again, sib1 a full member" member "$M" $GID1 1
ok "the SA was asked to join $M once after the restart" [ "$(sa_asked "$M")" -eq 1 ]
ok "IPoIB rejoined the broadcast group on both ports too" wait_for 30 bcast_full
ok "after the rejoin the generator reaches the QP again" injected_is "$M" $QKEY $N $N
ok "the ULP counted exactly $((2 * N)) in all" wait_for 10 ulp_stat_is rx $((2 * N))
ok "... and the SA still saw that one join only" [ "$(sa_asked "$M")" -eq 1 ]
rejoined_a2() { out_has $T/a1.out "^rejoined :: handle [0-9]* mgid $A2 "; }
ok "the :: membership rejoined after the restart, with its MGID $A2" \
	wait_for 60 rejoined_a2
by_mgid() { member "$MB" $GID1 1 && [ "$(sa_asked "$MB")" -ge 1 ] && [ "$(sa_asked $Z)" -eq 0 ]; }
ok "... asked of the SA by that MGID, not with zeros: the same group" by_mgid
session_end a1
ok "the :: session quits: the SA deletes $A2's group" wait_for 10 no_record "$MB"
# a session on the same port keeps sib1 in the group (multicast.c shares
# the port's membership): after the ULP's leave only the detach of its QP
# keeps the datagrams from it
session s5 $IP1 $G
ok "a session on ib1 joins $G too (no QP)" wait_for 30 out_has $T/s5.out "^joined $G "
check "the ULP leaves $G" ulp leave $G
ok "the ULP's membership is gone" wait_for 10 ulp_member_is $G ""
ok "... its place on sib1 given back (the session's join has no QP)" sib1_mcast 0
ok "the SA keeps sib1 a full member (the session's)" member "$M" $GID1 1
ok "the generator's $N datagrams reach sib1 and no QP there: the ULP's is detached" \
	injected_is "$M" $QKEY $N 0
ok "... the ULP still counts $((2 * N))" ulp_stat_is rx $((2 * N))
session_end s5
ok "the session quits: the SA deletes the group" wait_for 10 no_record "$M"
no_group() { ! sib inject "$1" $QKEY 1 2> $T/inj.err && grep -q 'No such file' $T/inj.err; }
ok "the generator finds no group now (ENOENT)" no_group "$M"

# --- sib1 removed under memberships, then back ---------------------------
# ib_unregister_device() completes under the ULP's QP and a session's
# membership; both wait (ENODEV) and the SA forgets the port; a new sib1
# with its IPoIB netdev and address: both rejoin, the ULP on a new QP that
# receives again.
G=239.6.6.8
M=$(mgid_of $G)
G2=239.6.6.9
M2=$(mgid_of $G2)
check "the ULP joins $G" ulp join $G
ok "joined, QP attached" wait_for 30 ulp_member_is $G "joined attached=1"
session s6 $IP1 $G2
ok "a session on ib1 joins $G2" wait_for 30 out_has $T/s6.out "^joined $G2 "
removed0=$(ulp_stat removed_callbacks)
added0=$(ulp_stat added_callbacks)
rejoined0=$(ulp_stat rejoined_callbacks)
check "softib removes sib1 under them (ib_unregister_device completes)" \
	timeout 60 sh -c "echo remove 1 > $CTL"
ok "the ULP was told once and gave its verbs objects back" \
	ulp_stat_is removed_callbacks $((removed0 + 1))
ok "its membership waits (ENODEV), QP detached" ulp_member_is $G "waiting attached=0"
ok "the session saw rejoining ENODEV and device-removed" \
	wait_for 10 out_has $T/s6.out "^device-removed ctx [0-9]* status -19 ENODEV"
gone_port1() { no_record "$1" && no_record "$2"; }
ok "the SA forgot sib1's memberships: both groups are gone" gone_port1 "$M" "$M2"
check "softib adds sib1 again" sib add 1
ib1_back() { ip link show ib1 > /dev/null 2>&1; }
ok "IPoIB makes ib1 anew" wait_for 30 ib1_back
check "ib1 up with $IP1 again" sh -c "ip link set ib1 up && ip addr add $IP1/24 dev ib1"
back_again() {
	ulp_stat_is added_callbacks $((added0 + 1)) &&
		ulp_stat_is rejoined_callbacks $((rejoined0 + 1)) &&
		ulp_member_is $G "joined attached=1"
}
ok "the ULP got device_added, built a new QP, rejoined $G, attached" \
	wait_for 60 back_again
ok "the session got device-added and rejoined $G2" \
	wait_for 60 out_has $T/s6.out "^rejoined $G2 "
ok "the SA has both groups again with sib1's port" \
	sh -c "grep -q '^$M .* $GID1/1' $SIB/sa_records && grep -q '^$M2 .* $GID1/1' $SIB/sa_records"
rx0=$(ulp_stat rx)
ok "the generator's $N datagrams reach the new QP" injected_is "$M" $QKEY $N $N
ok "the ULP counted $N more" wait_for 10 ulp_stat_is rx $((rx0 + N))
ok "IPoIB rejoined the broadcast group from the new sib1" wait_for 30 bcast_full
check "the ULP leaves $G" ulp leave $G
session_end s6
ok "both groups go" wait_for 10 gone_port1 "$M" "$M2"

# --- SA faults ----------------------------------------------------------
G=239.5.6.1
M=$(mgid_of $G)
sib sa clear-log
sib sa target "$M"	# the faults are for this group's requests only
# How many of 12 dropped requests make one ETIMEDOUT is ib_sa's (it
# retries a timed-out join itself on 6.x: about three ETIMEDOUTs; each
# dropped request is one on 5.10, where the healing's doubling backoff
# would alone outlast the deadline): the rejoin backoff is capped at 2 s
# while the SA misbehaves, so that the deadline covers every kernel.
BACKOFF=/sys/module/rdma_mcm/parameters/rejoin_backoff_max_ms
backoff0=$(cat $BACKOFF)
echo 2000 > $BACKOFF
sib sa drop 12
session s3 $IP1 $G
ok "an SA that drops 12 requests: the healing join still reaches joined" \
	wait_for 90 out_has $T/s3.out "^joined $G "
say s3 list
wait_for 10 out_has $T/s3.out "^ctx [0-9]* handle [0-9]* group $G state joined"
session_end s3
ok "... after an ETIMEDOUT (its last status): rdma_mcm joined again" \
	out_has $T/s3.out "^ctx [0-9]* handle [0-9]* group $G state joined .*last_status -110 ETIMEDOUT"
ok "... and one join answered" asked "$M" 0x02 1
sib sa drop 0
echo "$backoff0" > $BACKOFF

G=239.5.6.2
M=$(mgid_of $G)
sib sa clear-log
sib sa target "$M"
sib sa drop 1000
rdma-mcm -b $IP1 -t 60 --no-heal join $G < /dev/null > $T/nh.out 2>&1 &
nhpid=$!
ok "--no-heal: the join ends in ETIMEDOUT" \
	wait_for 60 out_has $T/nh.out "^error $G handle [0-9]* status -110 ETIMEDOUT"
kill $nhpid; wait $nhpid 2>/dev/null
sib sa drop 0

for fault in no-resources busy; do
	case $fault in no-resources) G=239.5.6.3 ;; busy) G=239.5.6.4 ;; esac
	M=$(mgid_of $G)
	sib sa clear-log
	sib sa target "$M"
	sib sa $fault 1
	rdma-mcm -b $IP1 -t 60 join $G < /dev/null > $T/$fault.out 2>&1 &
	fpid=$!
	ok "an SA answering ${fault^^}: the (healing) join is refused, ECONNREFUSED" \
		wait_for 30 out_has $T/$fault.out "^error $G handle [0-9]* status -111 ECONNREFUSED"
	# an error event is the end of a healing membership: one that would be
	# tried again is "waiting" and sends no event (its state says which)
	ok "... for good: its state is error, the SA was asked once" \
		refused_once $G "$M"
	kill $fpid; wait $fpid 2>/dev/null
	sib sa $fault 0
done

# --- two receivers and a sender, all through rdma_mcm ---------------------
# the test ULP on sib1 and a second instance of it on sib0 receive the
# generator's datagrams, each exactly N; then the second sends through a
# send-only join with its JOINED's address handle, and the first receives
# exactly what it sent
ULP2=/sys/kernel/debug/rdma_mcm_test_ulp2
ulp2() { echo "$*" > $ULP2/control; }
ulp2_stat() { awk -v k="$1" '$1 == k { print $2 }' $ULP2/status; }
ulp2_stat_is() { [ "$(ulp2_stat "$1")" = "$2" ]; }
ulp2_member_is() {
	[ "$(awk -v g="$1" '$1 == "member" && $3 == g { print $4, $6 }' $ULP2/status)" = "$2" ]
}
G=239.6.6.10
M=$(mgid_of $G)
check "modprobe rdma_mcm_test_ulp2 (a second instance of the ULP)" modprobe rdma_mcm_test_ulp2
check "the second ULP opens a context on $IP0 (sib0) with a UD QP" ulp2 open $IP0
check "the first ULP joins $G" ulp join $G
check "the second ULP joins $G" ulp2 join $G
both_attached() {
	ulp_member_is "$1" "joined attached=1" && ulp2_member_is "$1" "joined attached=1"
}
ok "both joined, both QPs attached" wait_for 30 both_attached $G
ok "the SA's record lists both ports as full members" both "$M"
rx1=$(ulp_stat rx)
ok "the generator's $N datagrams: two QPs received $N each" injected_is "$M" $QKEY $N $((2 * N))
two_rx() { ulp_stat_is rx $((rx1 + N)) && ulp2_stat_is rx $N; }
ok "each ULP counted exactly $N" wait_for 10 two_rx
check "the second ULP leaves $G" ulp2 leave $G
check "... and joins it send-only" ulp2 sendonly $G
ok "... joined, no QP attached" wait_for 30 ulp2_member_is $G "joined attached=0"
sender_recorded() { member "$M" $GID0 8 && member "$M" $GID1 1; }
ok "the SA lists sib0 a send-only full member (8), sib1 a full member" wait_for 10 sender_recorded
rx1=$(ulp_stat rx)
rx2=$(ulp2_stat rx)
check "the second ULP sends $N datagrams with its JOINED's address handle" ulp2 send $N
sent_all() { ulp2_stat_is tx $N && ulp2_stat_is tx_errors 0; }
ok "... $N sends completed, none failed" sent_all
ok "the first ULP received exactly those $N" wait_for 10 ulp_stat_is rx $((rx1 + N))
ok "the sender's own QP received none" ulp2_stat_is rx "$rx2"
check "the first ULP leaves $G" ulp leave $G
check "the second ULP closes its context" ulp2 close
ok "the SA deletes $G's group" wait_for 10 no_record "$M"
check "the second ULP unloads" modprobe -r rdma_mcm_test_ulp2

# --- an SM that will not make an SA-assigned group again, as opensm ------
# opensm refuses to create a link-local a01b MGID that a join names: after
# its restart the rejoin by the assigned MGID is a refusal, for good
sib sa opensm-mgid 1
ip -6 addr show dev ib1 | grep -q "$IP6/" || ip -6 addr add $IP6/64 dev ib1 nodad
session a2 $IP6 ::
ok "with opensm's rule a :: join is still joined (the SA names the group)" \
	wait_for 30 out_has $T/a2.out "^joined :: handle [0-9]* mgid ff12:a01b:"
A3=$(mgid_joined $T/a2.out 1)
MC=$(expand6 "$A3")
sib sa clear-log
sib sm-restart reregister
ok "after an SM restart its rejoin by $A3 is refused: ECONNREFUSED" \
	wait_for 60 out_has $T/a2.out "^error :: handle [0-9]* status -111 ECONNREFUSED"
refused_by_mgid() { no_record "$MC" && [ "$(sa_asked "$MC")" -ge 1 ] && [ "$(sa_asked $Z)" -eq 0 ]; }
ok "... asked by its MGID, never with zeros; the SA holds no such group" refused_by_mgid
session_end a2
sib sa opensm-mgid 0

# --- the end --------------------------------------------------------------
sib sa target any
check "the ULP closes its context" ulp close
ours_gone() { live_zero && ! grep -q '^ff12:\(4001\|a01b\):' $SIB/sa_records; }
ok "no rdma_mcm membership left; the SA holds IPoIB's groups only" wait_for 10 ours_gone
cat $SIB/sa_records $SIB/devices
check "the ULP unloads" modprobe -r rdma_mcm_test_ulp
