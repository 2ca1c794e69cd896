# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=bash
#
# Helpers shared by the bench scripts. Source it; do not run it.

RDMA_MCM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RDMA_MCM_CACHE=${RDMA_MCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma_mcm}
case $RDMA_MCM_CACHE in /*) ;; *) RDMA_MCM_CACHE=$PWD/$RDMA_MCM_CACHE ;; esac
export RDMA_MCM_ROOT RDMA_MCM_CACHE

# Progress lines go to stderr so that stdout stays parseable.
step() { printf '==> %s\n' "$*" >&2; }
info() { printf '    %s\n' "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# kernel_line NAME: the fields of NAME's line in scripts/kernels.
kernel_line() {
	local name rest
	while read -r name rest || [ -n "$name" ]; do
		case $name in ''|'#'*) continue ;; esac
		if [ "$name" = "$1" ]; then
			echo "$name $rest"
			return 0
		fi
	done < "$RDMA_MCM_ROOT/scripts/kernels"
	die "unknown kernel '$1' (known: $(kernel_names | tr '\n' ' '))"
}

# kernel_abi NAME: the Debian ABI name pinned for a short kernel name.
kernel_abi() {
	local line
	line=$(kernel_line "$1") || exit 1
	# shellcheck disable=SC2086 # the fields, split
	set -- $line
	echo "$2"
}

# kernel_names: every short kernel name, in file order.
kernel_names() {
	awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$RDMA_MCM_ROOT/scripts/kernels"
}

# kernel_suite NAME: the Debian suite whose archive ships kernel NAME (the
# optional third column of scripts/kernels; the host's own, bookworm, when
# absent). A kernel of another suite is fetched and built in that suite's
# root (scripts/suite-root), never with the host's tools.
kernel_suite() {
	local line
	line=$(kernel_line "$1") || exit 1
	# shellcheck disable=SC2086 # the fields, split
	set -- $line
	echo "${3:-bookworm}"
}

# in_root ROOT DIR CMD...: run CMD chrooted in ROOT, in a mount namespace
# of its own in which the host's DIR (absolute; none: "") is bind-mounted at
# the same path inside (so paths printed inside are valid outside), with
# /proc, /dev and the host's resolv.conf (read-only). The mounts end with
# the command, however it ends; the directories made in ROOT for DIR are
# removed after it. A shared lock on the roots keeps scripts/suite-root
# from removing ROOT meanwhile.
in_root() {
	local root=$1 dir=$2 top= d rc=0
	shift 2
	if [ -n "$dir" ]; then
		case $dir in /*) ;; *) die "in_root: $dir is not absolute" ;; esac
		# the highest directory of $dir that ROOT lacks
		top=$dir
		while [ "$top" != / ] && [ ! -e "$root$(dirname "$top")" ]; do
			top=$(dirname "$top")
		done
		[ -e "$root$top" ] && top=
		mkdir -p "$root$dir"
	fi
	mkdir -p "$RDMA_MCM_CACHE/roots"
	flock -s "$RDMA_MCM_CACHE/roots/.use.lock" \
		unshare --mount --propagation private -- bash -euc '
		root=$1 dir=$2
		shift 2
		[ -z "$dir" ] || mount --bind "$dir" "$root$dir"
		mount -t proc proc "$root/proc"
		mount --bind /dev "$root/dev"
		if [ -f /etc/resolv.conf ]; then
			[ -e "$root/etc/resolv.conf" ] || : > "$root/etc/resolv.conf"
			mount --bind /etc/resolv.conf "$root/etc/resolv.conf"
			mount -o remount,bind,ro "$root/etc/resolv.conf"
		fi
		exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 "$@"' in_root "$root" "$dir" "$@" ||
		rc=$?
	# the namespace is gone with its mounts: only empty directories here
	if [ -n "$top" ]; then
		d=$dir
		while rmdir "$root$d" 2>/dev/null && [ "$d" != "$top" ]; do
			d=$(dirname "$d")
		done
	fi
	return "$rc"
}

# suite_apt SUITE DIR CMD...: run CMD (apt-cache, apt-get download) with the
# package lists of SUITE, in DIR (none: "") - the host's own apt for
# bookworm, else chrooted in SUITE's root (scripts/suite-root, made once),
# with DIR bind-mounted there.
suite_apt() {
	local suite=$1 dir=$2 sroot
	shift 2
	if [ "$suite" = bookworm ]; then
		(cd "${dir:-/}" && "$@")
		return
	fi
	sroot=$("$RDMA_MCM_ROOT/scripts/suite-root" "$suite") || return 1
	in_root "$sroot" "$dir" sh -c 'cd "${1:-/}" && shift && exec "$@"' \
		suite_apt "$dir" "$@"
}

# kunit_kernels: one kernel name per kernel source (X.Y) the bench has from
# 6.12 on, in file order: the trees KUnit and lint use (linux-source-X.Y).
# KUnit needs 6.12's (kunit_add_action(), static stubs); flavours of one
# version share its source.
kunit_kernels() {
	local name xy seen=" "
	for name in $(kernel_names); do
		xy=$(kernel_abi "$name" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
		case $seen in *" $xy "*) continue ;; esac
		seen+="$xy "
		if [ "$(printf '%s\n' 6.12 "$xy" | sort -V | head -n 1)" = 6.12 ]; then
			echo "$name"
		fi
	done
	return 0
}

# kernel_dir NAME: where the unpacked image and headers of NAME live.
kernel_dir() { echo "$RDMA_MCM_CACHE/kernels/$(kernel_abi "$1")"; }

# wait_lock FD WHAT: take the lock on the open file FD, saying "waiting for
# WHAT" first when another holder makes this wait
wait_lock() {
	flock -n "$1" && return
	step "waiting for $2"
	flock "$1"
}

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
