#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall: put the built Wind in place, or take it
# away.  Run "make" first: this script builds nothing.
#
#   scripts/pkg/install.sh install   [PART...]
#   scripts/pkg/install.sh uninstall [PART...]
#   scripts/pkg/install.sh list      [PART...]   the files, one a line, as installed
#
# PART: module headers lib preload man windctl fabric wireshark (default:
# all of them).
#
# Environment (as make passes it):
#   DESTDIR   staging root (default: none).  With a DESTDIR, depmod and
#             ldconfig are not run: the package's scripts do that.
#   PREFIX    /usr/local: libwind.so*, libwind.a, libwind.h, libwind.pc,
#             libwind-preload.so, man pages, windctl
#   LIBDIR    $PREFIX/lib     INCLUDEDIR  $PREFIX/include
#   MANDIR    $PREFIX/share/man            SBINDIR  $PREFIX/sbin
#   UAPIDIR   /usr/include (the kernel API header goes to
#             $UAPIDIR/linux/wind.h, beside the other linux/ headers)
#   KVER      the kernel the module is for (default: wind.ko's vermagic);
#             the module goes to /lib/modules/$KVER/extra/wind.ko
#   DEPMOD    depmod (run as "$DEPMOD -a $KVER" after the module moved)
#   FI_PROVDIR  where libfabric looks for providers: libwind-fi.so goes
#             there (default: Debian's, /usr/lib/MULTIARCH/libfabric, the
#             FI_PROVIDER_PATH default of libfabric1)
#   WIRESHARK_LUADIR  Wireshark's global Lua plugin directory, where it
#             loads userspace/wireshark/wind.lua by itself (default:
#             /usr/lib/$(uname -m)-linux-gnu/wireshark/plugins, Debian's)
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd -P)
PROG=scripts/pkg/install.sh
die() { echo "$PROG: $*" >&2; exit 1; }

DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
LIBDIR=${LIBDIR:-$PREFIX/lib}
INCLUDEDIR=${INCLUDEDIR:-$PREFIX/include}
MANDIR=${MANDIR:-$PREFIX/share/man}
SBINDIR=${SBINDIR:-$PREFIX/sbin}
WIRESHARK_LUADIR=${WIRESHARK_LUADIR:-/usr/lib/$(uname -m)-linux-gnu/wireshark/plugins}
UAPIDIR=${UAPIDIR:-/usr/include}
DEPMOD=${DEPMOD:-depmod}
VERSION=0.1.0

KO=$TOP/wind.ko
LIB=$TOP/userspace/lib
SHIM=$TOP/userspace/preload/libwind-preload.so
WINDCTL=$TOP/userspace/windctl/windctl
FABRIC=$TOP/userspace/fabric/libwind-fi.so
FI_PROVDIR=${FI_PROVDIR:-/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/libfabric}

kver() {
	if [ -n "${KVER:-}" ]; then
		echo "$KVER"
	elif [ -e "$KO" ]; then
		modinfo -F vermagic "$KO" | cut -d' ' -f1
	else
		die "wind.ko not built (make), and no KVER"
	fi
}

# The man pages: man/*.N, and windctl's if it has one
man_pages() {
	local f
	for f in "$TOP"/man/*.[1-8] "$TOP"/userspace/windctl/*.[1-8]; do
		[ -e "$f" ] && echo "$f"
	done
	return 0
}

# Every installed file of a part, as "SOURCE DEST MODE" (SOURCE "-" for a
# generated file, "@TARGET" for a symlink)
files() {
	local f
	case "$1" in
	module)
		echo "$KO /lib/modules/$(kver)/extra/wind.ko 0644" ;;
	headers)
		echo "$TOP/include/uapi/linux/wind.h $UAPIDIR/linux/wind.h 0644"
		echo "$LIB/libwind.h $INCLUDEDIR/libwind.h 0644" ;;
	lib)
		echo "$LIB/libwind.so.$VERSION $LIBDIR/libwind.so.$VERSION 0755"
		echo "@libwind.so.$VERSION $LIBDIR/libwind.so.0 -"
		echo "@libwind.so.0 $LIBDIR/libwind.so -"
		echo "$LIB/libwind.a $LIBDIR/libwind.a 0644"
		echo "- $LIBDIR/pkgconfig/libwind.pc 0644" ;;
	preload)
		echo "$SHIM $LIBDIR/libwind-preload.so 0755" ;;
	man)
		while read -r f; do
			echo "$f $MANDIR/man${f##*.}/$(basename "$f") 0644"
		done < <(man_pages) ;;
	windctl)
		[ -x "$WINDCTL" ] && echo "$WINDCTL $SBINDIR/windctl 0755"
		return 0 ;;
	fabric)
		# built only with libfabric-dev
		[ -e "$FABRIC" ] && echo "$FABRIC $FI_PROVDIR/libwind-fi.so 0755"
		return 0 ;;
	wireshark)
		echo "$TOP/userspace/wireshark/wind.lua $WIRESHARK_LUADIR/wind.lua 0644" ;;
	*)
		die "unknown part $1 (module headers lib preload man windctl fabric wireshark)" ;;
	esac
}

pc_file() {
	cat <<EOF
prefix=$PREFIX
exec_prefix=\${prefix}
libdir=$LIBDIR
includedir=$INCLUDEDIR

Name: libwind
Description: Helpers for Wind reliable-datagram sockets (wind(7))
Version: $VERSION
Libs: -L\${libdir} -lwind
Cflags: -I\${includedir}
EOF
}

do_install() {	# do_install PART
	local src dst mode
	while read -r src dst mode; do
		mkdir -p "$DESTDIR$(dirname "$dst")"
		case "$src" in
		-)	pc_file > "$DESTDIR$dst.tmp"
			chmod "$mode" "$DESTDIR$dst.tmp"
			mv -f "$DESTDIR$dst.tmp" "$DESTDIR$dst" ;;
		@*)	ln -sfn "${src#@}" "$DESTDIR$dst" ;;
		*)	[ -e "$src" ] || die "$src missing: run make first"
			install -m "$mode" "$src" "$DESTDIR$dst" ;;
		esac
		echo "  INSTALL $DESTDIR$dst"
	done < <(files "$1")
}

do_uninstall() {	# do_uninstall PART
	local src dst mode
	while read -r src dst mode; do
		if [ -e "$DESTDIR$dst" ] || [ -L "$DESTDIR$dst" ]; then
			rm -f "$DESTDIR$dst"
			echo "  REMOVE  $DESTDIR$dst"
		fi
	done < <(files "$1")
}

# After the module moved: the indexes (modprobe wind, autoload)
after_module() {
	[ -z "$DESTDIR" ] || return 0
	echo "  DEPMOD  $(kver)"
	$DEPMOD -a "$(kver)"
}

after_lib() {
	[ -z "$DESTDIR" ] || return 0
	command -v ldconfig >/dev/null && ldconfig 2>/dev/null || true
}

[ $# -ge 1 ] || die "usage: $PROG install|uninstall|list [PART...]"
action=$1
shift
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(module headers lib preload man windctl fabric wireshark)

for part in "${parts[@]}"; do
	case "$part" in
	module|headers|lib|preload|man|windctl|fabric|wireshark) ;;
	*) die "unknown part $part (module headers lib preload man windctl fabric wireshark)" ;;
	esac
done
for part in "${parts[@]}"; do
	case "$action" in
	install)
		do_install "$part"
		case "$part" in module) after_module ;; lib) after_lib ;; esac ;;
	uninstall)
		do_uninstall "$part"
		case "$part" in module) after_module ;; lib) after_lib ;; esac ;;
	list)
		files "$part" | awk '{ print $2 }' ;;
	*)
		die "unknown action $action" ;;
	esac
done
# Empty directories we may have made (never the standard ones)
if [ "$action" = uninstall ]; then
	rmdir "$DESTDIR$LIBDIR/pkgconfig" 2>/dev/null || true
	rmdir "$DESTDIR/lib/modules/$(kver 2>/dev/null || echo none)/extra" 2>/dev/null || true
fi
exit 0
