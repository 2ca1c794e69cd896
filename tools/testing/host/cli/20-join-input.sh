# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: the join session's input lines.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

# A comment longer than the old 1023-byte buffer, ending in a command: the
# line is one line, and a comment.
long=$(printf '#%02000d leave 239.1.1.1' 0)
run "$long\nlist\nquit\n" -b 10.0.0.1 join 239.1.1.1
printf '%s\nctx 1 handle 1 group 239.1.1.1 state joined type full mgid ::ffff:239.1.1.1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns joined-by rdma_cm\nleft 239.1.1.1 handle 1 events 1\n' "$J1" > "$TMP/want"
expect "a 2 kB comment line is never split into a command" 0 ''

# A line longer than the limit is refused whole; the session goes on.
{ printf 'join '; head -c 1100000 /dev/zero | tr '\0' 'x'; printf ' 239.1.1.5\nlist\nquit\n'; } > "$TMP/in"
CLI_STDIN=$TMP/in cli -b 10.0.0.1 join 239.1.1.1
printf '%s\nctx 1 handle 1 group 239.1.1.1 state joined type full mgid ::ffff:239.1.1.1 mlid 0x0 qkey 0x1234567 events 1 rejoins 0 state-age Ns joined-by rdma_cm\nleft 239.1.1.1 handle 1 events 1\n' "$J1" > "$TMP/want"
expect "a line over 1 MiB is refused whole, the session goes on" 0 \
	'input line 1 is longer than 1048576 bytes: ignored'

# A NUL byte refuses its line only.
printf 'list\0leave 239.1.1.1\nleave 239.1.1.1\nquit\n' > "$TMP/in"
CLI_STDIN=$TMP/in cli -b 10.0.0.1 join 239.1.1.1
printf '%s\nleft 239.1.1.1 handle 1 events 1\n' "$J1" > "$TMP/want"
expect "a NUL byte refuses its line; the next lines run" 0 \
	'input line 1 has a NUL byte: ignored'

# 40 groups on one line: 40 joins
groups=$(for i in $(seq 40); do printf ' 239.2.0.%d' "$i"; done)
run "join$groups\nstats\nquit\n" -b 10.0.0.1 join 239.1.1.1
[ "$(grep -c '^joined 239.2.0.' "$TMP/out")" = 40 ] &&
	grep -q 'memberships 41 ' "$TMP/out"
result "40 groups on one join line: 40 joins" $? "$TMP/out"
