# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: stats: the module's and each device's counters through netlink.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

run '' stats
grep -q '^module joins 1001 join_failed 1002 ' "$TMP/out" &&
	grep -q '^limits file_memberships 1000 file_contexts 2000 user_memberships 3000 user_contexts 4000 user_sources 5000$' "$TMP/out" &&
	grep -q '^usage contexts 3 memberships 6 cm_ids 2 files 3 users 2 events_lost 0$' "$TMP/out" &&
	grep -q '^dev rxe1 joins 21 ' "$TMP/out" && [ "$(wc -l < "$TMP/out")" = 5 ]
result "stats: module, limits, usage, a line per device" $? "$TMP/out"
FAKE_NL_EVENTS_LOST=7 run '' -j stats
schema_ok stats "$TMP/out" 1 && [ "$(wc -l < "$TMP/out")" = 1 ] &&
	grep -q '"events_lost":7,"devices":\[{"dev":"rxe0",' "$TMP/out"
result "stats -j: one object, valid against the schema" $? "$TMP/why.json"
