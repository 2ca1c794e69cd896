# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# cli-test: a newer module's limits, usage and join types (review 10).
# Sourced by testing/host/cli-test, after cli/lib.sh and the files before
# this one.

FAKE_NL_NEWER=1 cli -j stats
python3 -c '
import json, sys
def pairs(kv):
    keys = [k for k, _ in kv]
    if len(keys) != len(set(keys)):
        sys.exit("duplicate keys: %r" % keys)
    return dict(kv)
o = json.loads(open(sys.argv[1]).read(), object_pairs_hook=pairs)
lim = {"file_memberships": 1000, "file_contexts": 2000, "user_memberships": 3000,
       "user_contexts": 4000, "user_sources": 5000, "limit_6": 600, "limit_7": 700}
use = {"contexts": 3, "memberships": 6, "cm_ids": 2, "files": 3, "users": 2,
       "usage_6": 6, "usage_7": 7}
if o["limits"] != lim or o["usage"] != use:
    sys.exit("limits %r usage %r" % (o["limits"], o["usage"]))
' "$TMP/out" 2> "$TMP/why"
result "stats -j, a newer module's limits and usage 6 and 7: limit_N and usage_N, no duplicate key" $? "$TMP/why"
FAKE_NL_NEWER=1 cli stats
grep -q ' user_sources 5000 limit_6 600 limit_7 700$' "$TMP/out" &&
	grep -q ' users 2 usage_6 6 usage_7 7 events_lost 0$' "$TMP/out" &&
	! grep -q unknown "$TMP/out"
result "stats, a newer module's limits and usage: limit_6 600 limit_7 700, usage_6 6 usage_7 7" $? "$TMP/out"
FAKE_NL_NEWER=1 cli -j show
[ "$(grep -c '"type":"unknown"' "$TMP/out")" = 6 ] && ! grep -q '"type":"full"\|"type":"send-only"' "$TMP/out"
result "show -j, join types 6 and 7: \"type\":\"unknown\", never full" $? "$TMP/out"
FAKE_NL_NEWER=1 cli show
[ "$(grep -c ' type unknown ' "$TMP/out")" = 6 ] && ! grep -q ' type full \| type send-only ' "$TMP/out"
result "show, join types 6 and 7: type unknown" $? "$TMP/out"
FAKE_NL_NEWER=1 cli -j monitor -c 3
[ "$(grep -c '"type":"unknown"' "$TMP/out")" = 3 ]
result "monitor -j, join type 7: \"type\":\"unknown\"" $? "$TMP/out"
