# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: JSON: every line of stdout and stderr parses.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

run 'join 239.1.1.2 bad ff0e::1\nleave 239.7.7.7\nfrobnicate\nhelp\nlist\nstats\nleave 239.1.1.2\nquit\n' \
	-j -b 10.0.0.1 join 239.1.1.1
json_lines "$TMP/out" && json_lines "$TMP/err" && [ -s "$TMP/err" ] &&
	grep -q '"help":' "$TMP/out"
result "-j session: every line of stdout and stderr is JSON (errors, help)" $? "$TMP/err"
printf 'list\0x\n%s\n' "$long" > "$TMP/in"
signal_when TERM 1 1 "$TMP/in" -j -b 10.0.0.1 join 239.1.1.1
json_lines "$TMP/out" && json_lines "$TMP/err" && grep -q 'NUL byte' "$TMP/err"
result "-j: input errors are JSON" $? "$TMP/err"
for args in "-h" "--help" "-V" "help" "frob" "-x list" "-t 0 list" "join" \
	    "-b 203.0.113.1 join 239.1.1.1" "recv 239.1.1.1" "stats"; do
	# shellcheck disable=SC2086
	cli -j $args
	json_lines "$TMP/out" && json_lines "$TMP/err" &&
		{ [ -s "$TMP/out" ] || [ -s "$TMP/err" ]; }
	result "rdma-mcm -j $args: JSON lines only" $? "$TMP/err"
done
printf 'bad\377\300name' > "$TMP/arg"
cli -j join "$(cat "$TMP/arg")"
json_lines "$TMP/err" && [ -s "$TMP/err" ]
result "-j: an argument that is not UTF-8 still gives JSON" $? "$TMP/err"
