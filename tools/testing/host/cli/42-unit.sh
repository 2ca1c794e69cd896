# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: show, ctx and monitor name the systemd unit an owner runs in,
# from /proc/PID/cgroup ($FAKE_PROC_DIR stands for /proc): the memberships
# the system owns are rdma-mcm-groups.service's; "unit UNIT" keeps a
# unit's only. Sourced by testing/host/cli-test, after cli/lib.sh and the
# files before this one (40-show.sh left the six lines of show in
# $TMP/all).

P=$TMP/proc
mkdir -p "$P/1001" "$P/1002"
# pid 1002 in the service (the unified hierarchy); pid 1001 in a login
# session, as a legacy hierarchy's name=systemd line says (the unified
# line is the root: no unit there)
printf '0::/system.slice/rdma-mcm-groups.service\n' > "$P/1002/cgroup"
printf '12:cpu,cpuacct:/\n1:name=systemd:/user.slice/user-1000.slice/session-2.scope\n0::/\n' \
	> "$P/1001/cgroup"

FAKE_PROC_DIR=$P run '' show
sed -e '/ pid 1002 /s/ comm rdma-mcm / comm rdma-mcm unit rdma-mcm-groups.service /' \
    -e '/ pid 1001 /s/ comm rdma-mcm / comm rdma-mcm unit session-2.scope /' \
	"$TMP/all" > "$TMP/want"
expect "show: the unit of an owner that runs in one, after its comm" 0 ''
cp "$TMP/want" "$TMP/all-units"

for f in "unit rdma-mcm-groups.service: pid 1002 " "unit rdma-mcm-groups: pid 1002 " \
	 "u rdma-mcm-groups: pid 1002 " "unit session-2.scope: pid 1001 " \
	 "unit other.service:NONE" "unit rdma-mcm-groups state joined dev rxe1: pid 1002 "; do
	# shellcheck disable=SC2086
	FAKE_PROC_DIR=$P run '' show ${f%%:*}
	grep -E -- "${f#*:}" "$TMP/all-units" > "$TMP/want"
	expect "show ${f%%:*}: that unit's memberships only" 0 ''
done
# no /proc to read (or no systemd): no unit, and the filter keeps nothing
run '' show unit rdma-mcm-groups
: > "$TMP/want"
expect "show unit where the cgroups cannot be read: nothing, exit 0" 0 ''

FAKE_PROC_DIR=$P run '' -j show unit rdma-mcm-groups.service
schema_ok member "$TMP/out" 2 && [ "$(wc -l < "$TMP/out")" = 2 ] &&
	[ "$(grep -c '"pid":1002,"uid":1000,"comm":"rdma-mcm","unit":"rdma-mcm-groups.service",' "$TMP/out")" = 2 ]
result "show -j unit: \"unit\" after \"comm\", valid against the schema" $? "$TMP/why.json"

FAKE_PROC_DIR=$P run '' ctx unit rdma-mcm-groups
[ "$(wc -l < "$TMP/out")" = 1 ] &&
	grep -q '^ctx 2 .* owner user pid 1002 uid 1000 comm rdma-mcm unit rdma-mcm-groups.service ' "$TMP/out"
result "ctx unit: that unit's contexts, with the unit" $? "$TMP/out"
FAKE_PROC_DIR=$P run '' -j ctx
schema_ok context "$TMP/out" 3 &&
	[ "$(grep -c '"unit":' "$TMP/out")" = 2 ] &&
	grep -q '"ctx":1,.*"unit":"session-2.scope",' "$TMP/out"
result "ctx -j: the units, valid against the schema" $? "$TMP/why.json"

for args in "show unit" "show unit a/b" "ctx unit x unit y" "show unit ''"; do
	eval "cli $args"
	[ "$(cat "$TMP/rc")" = 2 ] && [ -s "$TMP/err" ] && [ ! -s "$TMP/out" ]
	result "rdma-mcm $args: exit 2" $? "$TMP/err"
done
