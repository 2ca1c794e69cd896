#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# rdma_mcm loads with modprobe (after depmod), shows the right modinfo
# fields, creates /dev/rdma_mcm as a misc device, and unloads cleanly, twice.

. "$(dirname "$0")/lib.sh"

EXPECTED_VERSION=$(cat /usr/libexec/rdma_mcm/version)

field() { modinfo -F "$1" rdma_mcm; }
depmod_knows() { modprobe --show-depends rdma_mcm | grep -q '/rdma_mcm\.ko'; }
depends_on() { field depends | tr , '\n' | grep -qx "$1"; }
# Misc devices have major 10 (stat prints it in hex).
misc_node() {
	[ -c /dev/rdma_mcm ] && [ "$(stat -c %t /dev/rdma_mcm)" = a ] &&
		[ -e /sys/class/misc/rdma_mcm ]
}
all_gone() {
	! [ -e /dev/rdma_mcm ] && ! [ -e /sys/class/misc/rdma_mcm ] &&
		! grep -qw '^rdma_mcm' /proc/modules
}

plan 16
ok "depmod knows rdma_mcm" depmod_knows
ok "modinfo license is Dual BSD/GPL" [ "$(field license)" = "Dual BSD/GPL" ]
ok "modinfo version is $EXPECTED_VERSION" [ "$(field version)" = "$EXPECTED_VERSION" ]
ok "modinfo has a description" [ -n "$(field description)" ]
ok "modinfo has an author" [ -n "$(field author)" ]
ok "modinfo depends on ib_core" depends_on ib_core
# ib_uverbs' ib_client must register before rdma_mcm's (DEVICE_REMOVED
# reaches userspace before uverbs waits for it): modprobe loads it first
ok "modinfo softdep: pre: ib_uverbs" bash -c "modinfo -F softdep rdma_mcm | grep -q 'pre: ib_uverbs'"
ok "modprobe --show-depends loads ib_uverbs before rdma_mcm" \
	bash -c "modprobe --show-depends rdma_mcm | awk '/ib_uverbs.ko/ { u = NR } /rdma_mcm.ko/ { m = NR } END { exit !(u && m && u < m) }'"

# which file modprobe loads (scripts/install-test boots DKMS's build and
# looks for its checksum here)
diag "rdma_mcm: $(modinfo -n rdma_mcm) sha256 $(sha256sum "$(modinfo -n rdma_mcm)" | cut -d' ' -f1)"

for round in 1 2; do
	check "round $round: modprobe rdma_mcm" modprobe rdma_mcm
	ok "round $round: /dev/rdma_mcm is a misc character device" misc_node
	check "round $round: rmmod rdma_mcm" rmmod rdma_mcm
	ok "round $round: /dev/rdma_mcm and the module are gone" all_gone
done
