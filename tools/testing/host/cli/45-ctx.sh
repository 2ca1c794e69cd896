# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: ctx: the host's contexts through netlink.
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

run '' ctx
[ "$(grep -c '^ctx [123] dev rxe[01] port 1 netdev veth[01] src 10.0.0.[12] flags ' "$TMP/out")" = 3 ] &&
	grep -q '^ctx 3 .* flags none members 2 owner kernel comm \[rdma_mcm_test_ulp\] joins 301 ' "$TMP/out" &&
	grep -q ' join_failures ENOBUFS 3 other 1 errors ETIMEDOUT 201$' "$TMP/out"
result "ctx: a line per context with its counters" $? "$TMP/out"
run '' -j ctx show pid 1001
schema_ok context "$TMP/out" 1 && [ "$(wc -l < "$TMP/out")" = 1 ] &&
	grep -q '"flags":\["heal"\],"members":2,"counters":{"joins":101,' "$TMP/out"
result "ctx -j: valid against the schema" $? "$TMP/why.json"
