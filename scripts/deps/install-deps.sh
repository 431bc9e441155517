#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything Wind's build and tests need on Debian 12, as root.
# Idempotent: when dpkg already has every package (and the kernel image and
# headers of the same version), it does not touch apt at all.
#
# Two kernels, each as an image + headers pair of one version (make check
# runs on either, .ci/run on both):
#   6.1:  the one linux-image-amd64 / linux-headers-amd64 pull (bookworm);
#   6.12: the one linux-image-6.12-amd64 / linux-headers-6.12-amd64 pull
#         (bookworm-security and point releases), unless a 6.12 pair is
#         already installed (an installed pair is never upgraded here).
#
#   scripts/deps/install-deps.sh          # install what is missing
#   scripts/deps/install-deps.sh --check  # only tell; exit 1 if something is missing
set -euo pipefail

PKGS=(
	build-essential make gcc libc6-dev pkg-config
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	qemu-system-x86 busybox-static kmod cpio xz-utils zstd
	iproute2 iputils-ping procps util-linux socat strace perl
	python3 libnl-3-dev libnl-genl-3-dev sparse
	man-db binutils
	iperf3 gnuplot-nox
	# selftests/wind/wind_gso: checksum offload off on a forwarding hop
	ethtool
	# selftests/wind-user/wind_wireshark.py: capture and the Lua dissector
	tshark
	# selftests/wind/wind_netlink.py: the kernel's ynl tools and their needs
	linux-source-6.12 python3-yaml python3-jsonschema
	# make check-debug: building the debug kernel (scripts/test/debug-kernel)
	flex bison bc libelf-dev libssl-dev rsync
	# scripts/test/fresh-machine-test (CI): a fresh Debian 12 root
	debootstrap
	# make deb (scripts/pkg/mkdeb): dpkg-buildpackage, dh with DKMS, lintian.
	# Not dkms itself: wind-dkms depends on it, and apt brings it where
	# the packages are installed.
	dpkg-dev debhelper dh-dkms lintian
	# userspace/fabric (libwind-fi.so) and its tests: libfabric, fi_info,
	# fi_pingpong, Open MPI over libfabric, mpi4py
	libfabric-dev libfabric-bin openmpi-bin libopenmpi-dev python3-mpi4py
	# make bench-hpcc: the HPC Challenge over Open MPI (scripts/benchmarks/bench-hpcc)
	hpcc
	# selftests/wind/wind_encap.py: a router that drops IP protocol 253
	nftables
	# selftests/wind/wind_dsm: a shared mapping of a file on ext4 (loop)
	e2fsprogs
	# make bench: the Soft-RoCE rows (rdma_rxe through libibverbs' rxe
	# provider; perftest's ib_send_lat, ib_write_lat, ib_write_bw)
	perftest ibverbs-providers ibverbs-utils
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

# The image is linux-image-KVER, or linux-image-KVER-unsigned.
kernel_ok() {
	local kver=$1
	[ -n "$kver" ] && [ -e "/boot/vmlinuz-$kver" ] &&
		[ -e "/lib/modules/$kver/build/Makefile" ] &&
		[ -z "$(missing_pkgs "linux-headers-$kver")" ] &&
		{ [ -z "$(missing_pkgs "linux-image-$kver")" ] ||
		  [ -z "$(missing_pkgs "linux-image-$kver-unsigned")" ]; }
}

# The newest installed 6.12 kernel with its headers.
kver_612() {
	local d
	for d in $(ls -1 /lib/modules 2>/dev/null | grep -E '^6\.12\.' | sort -rV); do
		kernel_ok "$d" && { echo "$d"; return 0; }
	done
	return 1
}

all_there() {
	[ -z "$(missing_pkgs "${PKGS[@]}")" ] && kernel_ok "$(meta_kver)" && kver_612 >/dev/null
}

if all_there; then
	echo "install-deps: all dependencies present (kernels $(meta_kver) and $(kver_612))"
	exit 0
fi

if [ "$check_only" = 1 ]; then
	echo "install-deps: missing:" $(missing_pkgs "${PKGS[@]}") >&2
	kernel_ok "$(meta_kver)" || echo "install-deps: missing: kernel 6.1 image/headers pair" >&2
	kver_612 >/dev/null || echo "install-deps: missing: kernel 6.12 image/headers pair" >&2
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
KPKGS=("linux-image-$KVER" "linux-headers-$KVER")

# 6.12: an installed pair will do; else the meta packages' version.
if KVER612=$(kver_612); then
	echo "install-deps: kernel $KVER612 (installed)"
else
	KVER612=$(apt-cache depends linux-image-6.12-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(6\.12\..*-amd64\)\(-unsigned\)\?$/\1/p' | head -n1)
	if [ -z "$KVER612" ]; then
		echo "install-deps: cannot tell which kernel linux-image-6.12-amd64 pulls (is bookworm-security in the apt sources?)" >&2
		exit 1
	fi
	echo "install-deps: kernel $KVER612"
	KPKGS+=(linux-image-6.12-amd64 linux-headers-6.12-amd64
		"linux-image-$KVER612" "linux-headers-$KVER612")
fi

echo "install-deps: apt-get install" $(missing_pkgs "${PKGS[@]}" "${KPKGS[@]}")
"${APT[@]}" install --no-install-recommends "${PKGS[@]}" "${KPKGS[@]}"

for k in "$KVER" "$KVER612"; do
	if ! kernel_ok "$k"; then
		echo "install-deps: kernel $k: /boot/vmlinuz-$k or /lib/modules/$k/build missing after install" >&2
		exit 1
	fi
done
left=$(missing_pkgs "${PKGS[@]}")
if [ -n "$left" ]; then
	echo "install-deps: still missing after install:" $left >&2
	exit 1
fi
echo "install-deps: done (kernels $KVER and $KVER612)"
