# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Helpers shared by the bench scripts. Source it; do not run it.

RDMA_MCM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RDMA_MCM_CACHE=${RDMA_MCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma_mcm}
export RDMA_MCM_ROOT RDMA_MCM_CACHE

# Progress lines go to stderr so that stdout stays parseable.
step() { printf '==> %s\n' "$*" >&2; }
info() { printf '    %s\n' "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# kernel_abi NAME: the Debian ABI name pinned for a short kernel name.
kernel_abi() {
	local name abi
	while read -r name abi; do
		case $name in ''|'#'*) continue ;; esac
		if [ "$name" = "$1" ]; then
			echo "$abi"
			return 0
		fi
	done < "$RDMA_MCM_ROOT/scripts/kernels"
	die "unknown kernel '$1' (known: $(kernel_names | tr '\n' ' '))"
}

# kernel_names: every short kernel name, in file order.
kernel_names() {
	awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$RDMA_MCM_ROOT/scripts/kernels"
}

# kernel_dir NAME: where the unpacked image and headers of NAME live.
kernel_dir() { echo "$RDMA_MCM_CACHE/kernels/$(kernel_abi "$1")"; }

# with_timeout SECONDS STEP CMD...: run CMD, fail with a message naming STEP
# when it takes longer than SECONDS.
with_timeout() {
	local secs=$1 what=$2 rc
	shift 2
	timeout --kill-after=10 "$secs" "$@"
	rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		die "$what: timed out after ${secs}s"
	fi
	return $rc
}
