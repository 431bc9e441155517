#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything Wind's build and tests need on Debian 12, as root.
# Idempotent: when dpkg already has every package (and the kernel image and
# headers of the same version), it does not touch apt at all.
#
#   scripts/install-deps.sh          # install what is missing
#   scripts/install-deps.sh --check  # only tell; exit 1 if something is missing
set -euo pipefail

PKGS=(
	build-essential make gcc libc6-dev pkg-config
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	qemu-system-x86 busybox-static kmod cpio xz-utils zstd
	iproute2 iputils-ping procps util-linux socat strace perl
	python3 libnl-3-dev libnl-genl-3-dev sparse
	man-db binutils
	iperf3 gnuplot-nox
	# selftests/wind/wind_netlink.py: the kernel's ynl tools and their needs
	linux-source-6.12 python3-yaml python3-jsonschema
)

check_only=0
[ "${1:-}" = "--check" ] && check_only=1

# Prints the packages of $@ that are not installed, one a line.
missing_pkgs() {
	local p st
	for p in "$@"; do
		st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
		case "$st" in
		ii*) ;;
		*) echo "$p" ;;
		esac
	done
}

# The versioned kernel package a meta package (linux-image-amd64) depends on,
# from dpkg's status (installed) or apt's cache (candidate).
meta_kver() {
	local dep
	dep=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null || true)
	if [ -z "$dep" ] && command -v apt-cache >/dev/null; then
		dep=$(apt-cache depends linux-image-amd64 2>/dev/null |
		      sed -n 's/^ *Depends: //p' | head -n1)
	fi
	echo "$dep" | grep -o 'linux-image-[^ ,]*-amd64' | head -n1 |
		sed -e 's/^linux-image-//' -e 's/-unsigned$//'
}

kernel_ok() {
	local kver=$1
	[ -n "$kver" ] && [ -e "/boot/vmlinuz-$kver" ] &&
		[ -e "/lib/modules/$kver/build/Makefile" ] &&
		[ -z "$(missing_pkgs "linux-image-$kver" "linux-headers-$kver")" ]
}

all_there() {
	[ -z "$(missing_pkgs "${PKGS[@]}")" ] && kernel_ok "$(meta_kver)"
}

if all_there; then
	echo "install-deps: all dependencies present (kernel $(meta_kver))"
	exit 0
fi

if [ "$check_only" = 1 ]; then
	echo "install-deps: missing:" $(missing_pkgs "${PKGS[@]}") >&2
	kernel_ok "$(meta_kver)" || echo "install-deps: missing: kernel image/headers pair" >&2
	exit 1
fi

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: must run as root (missing:" $(missing_pkgs "${PKGS[@]}") ")" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

echo "install-deps: apt-get update"
"${APT[@]}" update

# Install the meta packages' kernel, and make sure the image and the headers
# are the same version (the meta packages could lag one another).
KVER=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: linux-image-\(.*-amd64\)\(-unsigned\)\?$/\1/p' | head -n1)
if [ -z "$KVER" ]; then
	echo "install-deps: cannot tell which kernel linux-image-amd64 pulls" >&2
	exit 1
fi
echo "install-deps: kernel $KVER"

echo "install-deps: apt-get install" $(missing_pkgs "${PKGS[@]}" "linux-image-$KVER" "linux-headers-$KVER")
"${APT[@]}" install --no-install-recommends "${PKGS[@]}" \
	"linux-image-$KVER" "linux-headers-$KVER"

if ! kernel_ok "$KVER"; then
	echo "install-deps: kernel $KVER: /boot/vmlinuz-$KVER or /lib/modules/$KVER/build missing after install" >&2
	exit 1
fi
left=$(missing_pkgs "${PKGS[@]}")
if [ -n "$left" ]; then
	echo "install-deps: still missing after install:" $left >&2
	exit 1
fi
echo "install-deps: done (kernel $KVER)"
