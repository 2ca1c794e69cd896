# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: check: what the host reports for the memberships, on a tree of
# /proc and /sys written here (FAKE_ROOT) as the kernel writes them, and
# the fake netlink's memberships (testing/host/fake/fake_nl.c): veth0 has
# rxe0's 239.1.0.1 (full, a QP), .2 (send-only), .5 (full, in error,
# -ETIMEDOUT), .6 (send-only); veth1 rxe1's 239.1.0.3 (full, sources
# 192.0.2.1 and .2), .4 (send-only); with FAKE_NL_MEMBERS=8 veth1 has
# IPv6 ff0e::1:0:7 (full, sources 2001:db8::1 and ::2), ff0e::1:0:8
# (send-only) too. The listen, which needs raw sockets, is the VM's
# (vm/79-check.sh); its parsers are testing/host/test_check.c's.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

R=$TMP/root
export FAKE_ROOT=$R

# hex4 A.B.C.D: the group as /proc/net/igmp prints it on this host (its
# 32 bits as the host holds them: 239.1.0.3 is 030001EF little-endian)
if [ "$(printf '\1\0' | od -An -tu2 | tr -d ' ')" = 1 ]; then
	hex4() { local IFS=.; set -- $1; printf '%02X%02X%02X%02X' "$4" "$3" "$2" "$1"; }
else
	hex4() { local IFS=.; set -- $1; printf '%02X%02X%02X%02X' "$1" "$2" "$3" "$4"; }
fi
# num4 A.B.C.D: as /proc/net/mcfilter prints it (0xef010003)
num4() { local IFS=.; set -- $1; printf '0x%02x%02x%02x%02x' "$1" "$2" "$3" "$4"; }
ifindex_of() { case $1 in lo) echo 1;; veth0) echo 2;; veth1) echo 3;; esac; }

# igmp_file DEV:QUERIER:GROUP,GROUP... ...: /proc/net/igmp
igmp_file() {
	local spec dev q groups g n
	{
	printf 'Idx\tDevice    : Count Querier\tGroup    Users Timer\tReporter\n'
	for spec in "$@"; do
		IFS=: read -r dev q groups <<< "$spec"
		n=$(tr ',' '\n' <<< "$groups" | grep -c .)
		printf '%d\t%-10s: %5d %7s\n' "$(ifindex_of "$dev")" "$dev" "$n" "$q"
		for g in ${groups//,/ }; do
			printf '\t\t\t\t%s     1 0:00000000\t\t0\n' "$(hex4 "$g")"
		done
	done
	} > "$R/proc/net/igmp"
}
# mcfilter_file DEV:GROUP:SRC ...: /proc/net/mcfilter, INC 1
mcfilter_file() {
	local spec dev g s
	{
	echo 'Idx Device        MCA        SRC    INC    EXC'
	for spec in "$@"; do
		IFS=: read -r dev g s <<< "$spec"
		printf '%3d %6.6s %s %s %6lu %6lu\n' "$(ifindex_of "$dev")" "$dev" \
			"$(num4 "$g")" "$(num4 "$s")" 1 0
	done
	} > "$R/proc/net/mcfilter"
}
# hex6 ADDR: 32 hex digits (%pi6)
hex6() {
	local l=$1 r='' w out='' i
	local -a L R6
	if [[ $1 == *::* ]]; then
		l=${1%%::*}
		r=${1#*::}
	fi
	IFS=: read -ra L <<< "$l"
	IFS=: read -ra R6 <<< "$r"
	for w in "${L[@]}"; do printf -v w '%04x' "0x$w"; out+=$w; done
	for ((i = ${#L[@]} + ${#R6[@]}; i < 8; i++)); do out+=0000; done
	for w in "${R6[@]}"; do printf -v w '%04x' "0x$w"; out+=$w; done
	echo "$out"
}
# igmp6_file DEV:GROUP ...: /proc/net/igmp6
igmp6_file() {
	local spec dev g
	for spec in "$@"; do
		dev=${spec%%:*}
		g=${spec#*:}
		printf '%-4d %-15s %s %5d %08X %ld\n' "$(ifindex_of "$dev")" "$dev" \
			"$(hex6 "$g")" 1 4 0
	done > "$R/proc/net/igmp6"
}
# mcfilter6_file DEV/GROUP/SRC ...: /proc/net/mcfilter6, INC 1
mcfilter6_file() {
	local spec dev g s
	{
	echo 'Idx Device                Multicast Address                   Source Address    INC    EXC'
	for spec in "$@"; do
		IFS=/ read -r dev g s <<< "$spec"
		printf '%3d %6.6s %s %s %6lu %6lu\n' "$(ifindex_of "$dev")" "$dev" \
			"$(hex6 "$g")" "$(hex6 "$s")" 1 0
	done
	} > "$R/proc/net/mcfilter6"
}
# put FILE VALUE: one file of the tree
put() { mkdir -p "$(dirname "$R/$1")"; echo "$2" > "$R/$1"; }

# ck_root: the tree of a host where every membership is as it should be
# (but 239.1.0.5's, in error)
ck_root() {
	local d
	rm -rf "$R"
	mkdir -p "$R/proc/net" "$R/proc/self/ns"
	ln -s 'net:[4026531840]' "$R/proc/self/ns/net"
	for d in all lo veth0 veth1; do
		put "proc/sys/net/ipv4/conf/$d/force_igmp_version" 0
		put "proc/sys/net/ipv6/conf/$d/force_mld_version" 0
	done
	put proc/sys/net/ipv4/igmp_max_memberships 20
	put proc/sys/net/ipv4/igmp_max_msf 10
	put proc/sys/net/ipv6/mld_max_msf 64
	for d in veth0 veth1; do
		put "sys/class/net/$d/ifindex" "$(ifindex_of $d)"
		# SIOCGIFFLAGS's: up, running, multicast
		put "sys/class/net/$d/flags" 0x1043
	done
	put sys/class/infiniband/rxe0/ports/1/link_layer Ethernet
	put sys/class/infiniband/rxe1/ports/1/link_layer Ethernet
	igmp_file lo:V3:224.0.0.1 veth0:V3:239.1.0.1,224.0.0.1 \
		veth1:V3:239.1.0.3,224.0.0.1
	mcfilter_file veth1:239.1.0.3:192.0.2.1 veth1:239.1.0.3:192.0.2.2
	igmp6_file lo:ff02::1 veth0:ff02::1 veth1:ff0e::1:0:7 veth1:ff02::1
	mcfilter6_file veth1/ff0e::1:0:7/2001:db8::1 veth1/ff0e::1:0:7/2001:db8::2
}

# ck_expect NAME RC GREP...: the check's exit status is RC and its output
# has a line matching each (grep -E) regex
ck_expect() {
	local name=$1 rc=$2 re bad=0
	shift 2
	: > "$TMP/why"
	[ "$(cat "$TMP/rc")" = "$rc" ] ||
		{ echo "exit status $(cat "$TMP/rc"), wanted $rc" >> "$TMP/why"; bad=1; }
	for re in "$@"; do
		grep -Eq -- "$re" "$TMP/out" ||
			{ echo "no line matches '$re'" >> "$TMP/why"; bad=1; }
	done
	[ "$bad" = 0 ] || { cat "$TMP/out" "$TMP/err" >> "$TMP/why"; }
	result "$name" "$bad" "$TMP/why"
}
# ck_lacks REGEX: and no line matches it
ck_lacks() { ! grep -Eq -- "$1" "$TMP/out"; }

# --- all good ------------------------------------------------------------------
ck_root
cli check netdev veth1
cat > "$TMP/want" <<'EOF'
netdev veth1 ifindex 3 state up multicast on dev rxe1 port 1 link-layer ethernet memberships 2
    igmp version 3 by default force_igmp_version 0 all 0 querier not-listened
    mld version 2 by default force_mld_version 0 all 0 querier not-listened
    group 239.1.0.3 full 1 qps 1 sources 192.0.2.1,192.0.2.2 host-table yes users 1 filter yes
    group 239.1.0.4 send-only 1 host-table no
limits igmp_max_memberships 20 igmp_max_msf 10 mld_max_msf 64 most-sources-inet 2 most-sources-inet6 0
status ok problems 0 warnings 0 notes 0
EOF
expect "check netdev veth1: the groups in the host's table, the filter whole, IGMPv3: status ok, exit 0" 0 ''

cli -j check netdev veth1
schema_ok check "$TMP/out" 1 && [ "$(wc -l < "$TMP/out")" = 1 ] &&
	python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
n = o["netdevs"][0]
g = {x["group"]: x for x in n["groups"]}
assert o["status"] == "ok" and o["findings"] == [] and o["listen_s"] is None
assert n["igmp"]["version"] == 3 and n["igmp"]["by"] == "default"
assert n["igmp"]["querier"] == {"listened": False}
assert g["239.1.0.3"]["host_table"] is True and g["239.1.0.3"]["filter"] == "yes"
assert g["239.1.0.3"]["sources"] == ["192.0.2.1", "192.0.2.2"]
assert g["239.1.0.4"]["host_table"] is False and g["239.1.0.4"]["send_only"] == 1
assert "refreshed" not in g["239.1.0.3"]
' "$TMP/out" 2>> "$TMP/why.json"
result "check -j: one object valid against the schema's check, the same view" $? "$TMP/why.json"
cli -p check netdev veth1
schema_ok check "$TMP/out" 1 && [ "$(wc -l < "$TMP/out")" -gt 20 ]
result "check -p: indented, valid against the schema" $? "$TMP/why.json"

# send-only groups: absent from the table is right, present is another's
cli check group 239.1.0.4
ck_expect "send-only member absent from the host's table: no finding, exit 0" 0 \
	'^    group 239.1.0.4 send-only 1 host-table no$' '^status ok problems 0 warnings 0 notes 0$'
igmp_file veth0:V3:239.1.0.1,224.0.0.1 veth1:V3:239.1.0.4,239.1.0.3,224.0.0.1
cli check group 239.1.0.4
ck_expect "send-only member whose group another holds on the netdev: no finding" 0 \
	'^    group 239.1.0.4 send-only 1 host-table yes users 1$' '^status ok '

# --- problems ----------------------------------------------------------------------
ck_root
cli check
ck_expect "check: a membership in error is a problem, exit 2" 2 \
	'^problem member-error netdev veth0 group 239.1.0.5 dev rxe0: 1 membership in error \(ctx 3 handle 1: -110 ETIMEDOUT \(Connection timed out\)\)$' \
	'^    group 239.1.0.5 error 1 host-table no$' \
	'^    group 239.1.0.1 full 1 qps 1 host-table yes users 1$' \
	'^status problem problems 1 warnings 0 notes 0$'

igmp_file veth0:V3:239.1.0.1,224.0.0.1 veth1:V3:224.0.0.1
cli check netdev veth1
ck_expect "a joined full member's group absent from /proc/net/igmp: problem absent, exit 2" 2 \
	'^    group 239.1.0.3 full 1 qps 1 sources 192.0.2.1,192.0.2.2 host-table no$' \
	'^problem absent netdev veth1 group 239.1.0.3: 1 joined full member, but /proc/net/igmp does not list the group on veth1: ' \
	'^status problem problems 1 '
cli -j check netdev veth1
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["status"] == "problem" and o["problems"] == 1
f = o["findings"][0]
assert (f["level"], f["code"], f["netdev"], f["group"]) == ("problem", "absent", "veth1", "239.1.0.3"), f
' "$TMP/out" 2> "$TMP/why"
result "check -j: status problem, finding absent with its netdev and group" $? "$TMP/why"

# the filter: a source missing, the listing that does not cover veth1
ck_root
mcfilter_file veth1:239.1.0.3:192.0.2.1
cli check netdev veth1
ck_expect "a source not in /proc/net/mcfilter: problem filter-missing, exit 2" 2 \
	' host-table yes users 1 filter missing$' \
	'^problem filter-missing netdev veth1 group 239.1.0.3: .* no INCLUDE entry for 192.0.2.2: the host does not report it$'
mcfilter_file
cli check netdev veth1
ck_expect "mcfilter lists nothing of veth1: filter unlisted, not a problem" 0 \
	' host-table yes users 1 filter unlisted$' '^status ok '

ck_root
put sys/class/net/veth1/flags 0x2
cli check netdev veth1
ck_expect "netdev down, without multicast: problems link-down, no-multicast" 2 \
	'^netdev veth1 ifindex 3 state down multicast off ' \
	'^problem link-down netdev veth1: the netdev is down' \
	'^problem no-multicast netdev veth1: ' '^status problem problems 2 '
put sys/class/net/veth1/flags 0x1003
cli check netdev veth1
ck_expect "netdev up, its link not (no IFF_RUNNING): problem link-down" 2 \
	'^netdev veth1 ifindex 3 state no-carrier multicast on ' \
	'^problem link-down netdev veth1: the netdev is up, its link is not \(no carrier\)' \
	'^status problem problems 1 '

# --- the IGMP version in force -------------------------------------------------
# force_igmp_version on veth1 (or all), the Querier column as igmp.c
# prints it then: the version, and why
for t in "0:0:V3:0:igmp version 3 by default force_igmp_version 0 all 0" \
	 "3:0:V3:0:igmp version 3 by default force_igmp_version 3 all 0" \
	 "2:0:V2:1:igmp version 2 by force force_igmp_version 2 all 0" \
	 "0:2:V2:1:igmp version 2 by force force_igmp_version 0 all 2" \
	 "1:0:V1:1:igmp version 1 by force force_igmp_version 1 all 0" \
	 "0:0:V2:1:igmp version 2 by querier force_igmp_version 0 all 0" \
	 "2:0:V1:1:igmp version 1 by querier force_igmp_version 2 all 0"; do
	IFS=: read -r force all col rc line <<< "$t"
	ck_root
	put proc/sys/net/ipv4/conf/veth1/force_igmp_version "$force"
	put proc/sys/net/ipv4/conf/all/force_igmp_version "$all"
	igmp_file veth0:V3:239.1.0.1,224.0.0.1 "veth1:$col:239.1.0.3,224.0.0.1"
	cli check netdev veth1
	if [ "$rc" = 0 ]; then
		ck_expect "force_igmp_version $force (all $all), Querier $col: $line" 0 \
			"^    $line querier not-listened\$" '^status ok '
	else
		ck_expect "force_igmp_version $force (all $all), Querier $col: $line; the source-specific member warned" 1 \
			"^    $line querier not-listened\$" \
			"^warning sources-not-reported netdev veth1 group 239.1.0.3: source-specific member, but veth1 is in IGMPv${line:13:1} "
	fi
done
grep -q '^note querier-version netdev veth1: an IGMPv1 querier was heard' "$TMP/out"
result "an older querier's version: note querier-version" $? "$TMP/out"
cli -j check netdev veth1
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
i = o["netdevs"][0]["igmp"]
assert (i["version"], i["by"], i["force"], i["force_all"]) == (1, "querier", 2, 0), i
c = sorted(f["code"] for f in o["findings"])
assert c == ["querier-version", "sources-not-reported"] and o["status"] == "warning", c
' "$TMP/out" 2> "$TMP/why"
result "check -j: igmp version 1 by querier, force 2; status warning" $? "$TMP/why"

# --- MLD ---------------------------------------------------------------------------
ck_root
FAKE_NL_MEMBERS=8 cli check netdev veth1
ck_expect "IPv6 members: in /proc/net/igmp6, the filter in mcfilter6, MLDv2" 0 \
	'^    mld version 2 by default force_mld_version 0 all 0 querier not-listened$' \
	'^    group ff0e::1:0:7 full 1 qps 1 sources 2001:db8::1,2001:db8::2 host-table yes users 1 filter yes$' \
	'^    group ff0e::1:0:8 send-only 1 host-table no$'
put proc/sys/net/ipv6/conf/veth1/force_mld_version 1
FAKE_NL_MEMBERS=8 cli check netdev veth1
ck_expect "force_mld_version 1: MLDv1 by force, the source-specific member warned" 1 \
	'^    mld version 1 by force force_mld_version 1 all 0 ' \
	'^warning sources-not-reported netdev veth1 group ff0e::1:0:7: source-specific member, but veth1 is in MLDv1 \(force_mld_version\)'
put proc/sys/net/ipv6/conf/all/force_mld_version 2
FAKE_NL_MEMBERS=8 cli check netdev veth1
ck_expect "force_mld_version: all's 2 before the netdev's 1, as mld_force_mld_version()" 0 \
	'^    mld version 2 by force force_mld_version 1 all 2 '
ck_root
igmp6_file veth1:ff02::1
FAKE_NL_MEMBERS=8 cli check netdev veth1
ck_expect "an IPv6 full member absent from /proc/net/igmp6: problem absent" 2 \
	'^problem absent netdev veth1 group ff0e::1:0:7: 1 joined full member, but /proc/net/igmp6 does not list'
rm "$R/proc/net/igmp6"
FAKE_NL_MEMBERS=8 cli check netdev veth1
ck_expect "no /proc/net/igmp6: host-table unknown, warning table-unreadable, MLD version unknown" 1 \
	'^    mld version unknown force_mld_version 0 all 0 ' \
	'^    group ff0e::1:0:7 full 1 .* host-table unknown$' \
	'^warning table-unreadable: /proc/net/igmp6 cannot be read'

# --- limits ------------------------------------------------------------------------
ck_root
FAKE_NL_MCAST=89,100,899,1000,56 cli check netdev veth1
ck_expect "the device's figures below 90%: a dev line, no finding" 0 \
	'^dev rxe1 groups 89/100 attaches 899/1000 qp-per-group 56$' '^status ok '
FAKE_NL_MCAST=90,100,999,1000,56 cli check netdev veth1
ck_expect "90% of the device's groups and attaches: warnings hca-groups-near, hca-attaches-near, exit 1" 1 \
	'^warning hca-groups-near dev rxe1: 90 of its 100 multicast groups are taken' \
	'^warning hca-attaches-near dev rxe1: 999 of its 1000 multicast QP attachments are taken'
FAKE_NL_MCAST=100,100,10,1000,1 cli -j check netdev veth1
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
c = sorted((f["level"], f["code"]) for f in o["findings"])
assert c == [("problem", "hca-groups-full"), ("warning", "group-qps-full")], c
assert o["devices"] == [{"dev": "rxe1", "groups": 100, "groups_max": 100, "attaches": 10, "attaches_max": 1000, "qp_attach_max": 1}], o["devices"]
' "$TMP/out" 2> "$TMP/why" && [ "$(cat "$TMP/rc")" = 2 ]
result "the device's groups all taken: problem hca-groups-full; a group at qp_attach_max: group-qps-full; exit 2" $? "$TMP/why"
FAKE_NL_MCAST=0,0,0,0,0 cli check netdev veth1
ck_expect "a device whose limits are 0 (no multicast attach): no finding" 0 '^status ok '
put proc/sys/net/ipv4/igmp_max_msf 2
put proc/sys/net/ipv4/igmp_max_memberships 0
cli check netdev veth1
ck_expect "a membership with igmp_max_msf sources; igmp_max_memberships 0: warnings" 1 \
	'^limits igmp_max_memberships 0 igmp_max_msf 2 mld_max_msf 64 most-sources-inet 2 ' \
	'^warning igmp-max-msf-full: a membership has 2 sources, net.ipv4.igmp_max_msf 2: a join with more is refused \(ENOBUFS\)$' \
	'^warning igmp-max-memberships-zero: '
put proc/sys/net/ipv4/igmp_max_msf 10
put proc/sys/net/ipv4/igmp_max_memberships 20
put proc/sys/net/ipv6/mld_max_msf 2
FAKE_NL_MEMBERS=8 cli check netdev veth1
ck_expect "an IPv6 membership with mld_max_msf sources: warning mld-max-msf-full" 1 \
	'^warning mld-max-msf-full: a membership has 2 sources, net.ipv6.mld_max_msf 2'
ck_root
FAKE_NL_DENY_STATS=1 cli check netdev veth1
ck_expect "stats refused (no CAP_NET_ADMIN): note limits-unknown, no dev line" 0 \
	'^note limits-unknown: the RDMA devices.* multicast figures need CAP_NET_ADMIN; without it only your own memberships are listed, and checked$' \
	'^status ok problems 0 warnings 0 notes 1$' && ck_lacks '^dev '

# --- what is not checked -----------------------------------------------------
ck_root
put sys/class/infiniband/rxe1/ports/1/link_layer InfiniBand
cli check netdev veth1
ck_expect "an InfiniBand port: note infiniband, no IGMP/MLD view" 0 \
	'^netdev veth1 ifindex 3 state up multicast on dev rxe1 port 1 link-layer infiniband memberships 2$' \
	'^    group 239.1.0.3 full 1 qps 1 sources 192.0.2.1,192.0.2.2$' \
	'^note infiniband netdev veth1 dev rxe1: ' && ck_lacks '^    igmp '
ck_root
rm "$R/proc/self/ns/net"
ln -s 'net:[4026532000]' "$R/proc/self/ns/net"
cli check
ck_expect "memberships of another namespace: notes other-netns, their member states still" 2 \
	'^netdev veth0 netns 4026531840 dev rxe0 port 1 memberships 4$' \
	'^note other-netns netdev veth1: 2 memberships in network namespace 4026531840: ' \
	'^problem member-error netdev veth0 group 239.1.0.5 ' && ck_lacks '^    igmp '

# --- the listen -----------------------------------------------------------------
# raw sockets on lo, where no querier is: none heard in 1 s, which says
# nothing of the groups (a query interval is 125 s); without CAP_NET_RAW
# the check is not made. (Queries heard: vm/79-check.sh.)
ck_root
put sys/class/net/lo/ifindex 1
put sys/class/net/lo/flags 0x1049
igmp_file lo:V3:239.1.0.1,224.0.0.1 veth1:V3:239.1.0.3,224.0.0.1
nocap=
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	FAKE_NL_NETDEV=lo cli check netdev lo group 239.1.0.1 listen 1
	ck_expect "listen 1 on lo: no query heard, refreshed unknown, not a warning" 0 \
		'^    igmp version 3 by default force_igmp_version 0 all 0 querier none listen 1s$' \
		'^    group 239.1.0.1 full 1 qps 1 host-table yes users 1 refreshed unknown$' \
		'^status ok problems 0 warnings 0 notes 0$'
	FAKE_NL_NETDEV=lo cli -j check netdev lo group 239.1.0.1 listen 1
	python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
q = o["netdevs"][0]["igmp"]["querier"]
assert q == {"listened": True, "queries": 0, "ignored": 0, "age_s": None, "queriers": []}, q
assert 1 <= o["listen_s"] < 2 and o["netdevs"][0]["groups"][0]["refreshed"] is None, o
' "$TMP/out" 2> "$TMP/why"
	result "check -j listen 1: listened, no query, listen_s 1" $? "$TMP/why"
	nocap="setpriv --bounding-set=-net_raw"
fi
# shellcheck disable=SC2086
FAKE_NL_NETDEV=lo timeout "$HANG" $nocap "$CLI" check netdev lo listen 1 \
	< /dev/null > "$TMP/out" 2> "$TMP/err"
echo $? > "$TMP/rc"
[ "$(cat "$TMP/rc")" = 3 ] && [ ! -s "$TMP/out" ] &&
	grep -q '^rdma-mcm: listen on lo: Operation not permitted (raw sockets need CAP_NET_RAW: run it as root)$' "$TMP/err"
result "listen without CAP_NET_RAW: not checked, exit 3, says so" $? "$TMP/err"

# --- usage, and no check -------------------------------------------------------------
ck_root
for args in "check frob" "check listen 0" "check listen x" "check listen 86401" \
	    "check netdev" "check netdev veth1 netdev veth0" "check n veth1 n veth0" \
	    "check group 10.1.1.1" "check group nowhere" "-t x check" \
	    "check netdev nosuch" "check netdev a/b"; do
	# shellcheck disable=SC2086
	cli $args
	[ "$(cat "$TMP/rc")" = 3 ] && [ -s "$TMP/err" ] && [ ! -s "$TMP/out" ]
	result "not checked, exit 3, the reason on stderr: rdma-mcm $args" $? "$TMP/err"
done
grep -q "no netdev 'a/b'\|bad netdev 'a/b'" "$TMP/err"
result "check netdev a/b: a bad netdev" $? "$TMP/err"
for args in "check help" "check netdev veth1 help" "check --help" "ch -h"; do
	# shellcheck disable=SC2086
	cli $args
	[ "$(cat "$TMP/rc")" = 0 ] && grep -q '^  check \[netdev NETDEV\]' "$TMP/out" &&
		[ ! -s "$TMP/err" ]
	result "rdma-mcm $args: usage on stdout, exit 0" $? "$TMP/err"
done
cli -j check listen x
grep -q '^{"error":"bad listen .x.: whole seconds, 1 to 86400"}$' "$TMP/err" &&
	[ "$(cat "$TMP/rc")" = 3 ]
result "check -j with a usage error: the error as JSON, exit 3" $? "$TMP/err"
FAKE_NL_ABSENT=1 FAKE_NO_DEV=1 cli check
[ "$(cat "$TMP/rc")" = 3 ] && grep -q 'the rdma_mcm module is not loaded' "$TMP/err" &&
	[ ! -s "$TMP/out" ]
result "check without the module: exit 3, says why" $? "$TMP/err"
for t in "c:ctx" "ch:check" "che netdev veth1:check netdev veth1"; do
	# shellcheck disable=SC2086
	cli ${t#*:}
	mv "$TMP/out" "$TMP/full"
	# shellcheck disable=SC2086
	cli ${t%%:*}
	[ -s "$TMP/out" ] && cmp -s "$TMP/out" "$TMP/full"
	result "prefix: rdma-mcm ${t%%:*} is rdma-mcm ${t#*:} (c stays ctx's)" $? "$TMP/err"
done
unset FAKE_ROOT
