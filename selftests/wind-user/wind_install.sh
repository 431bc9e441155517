#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall, inside the VM: a staged install
# (DESTDIR) holds exactly the expected files and uninstall takes them all
# away; the module part installed for real (the VM's /lib/modules/KVER is
# a writable overlay, the rest of / is read-only) is what modprobe loads;
# a program built with pkg-config against the staged header and library
# sends a message from one namespace to another, and the staged
# libwind-preload.so converts a UDP socket.  KTAP output.
#
#   +------- windia-PID -------+            +------- windib-PID -------+
#   | eth0 10.79.0.1/24        |<-- veth -->| eth0 10.79.0.2/24        |
#   +--------------------------+            +--------------------------+

set -u

ksft_skip=4
NTESTS=9
HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=${WIND_ROOT:-$(cd "$HERE/../.." && pwd -P)}
A=windia-$$
B=windib-$$
TMP=$(mktemp -d /tmp/wind_install.XXXXXX)
STAGE=$TMP/stage
KVER_RUN=$(uname -r)
MODPATH=/lib/modules/$KVER_RUN/extra/wind.ko

testno=0
failed=0
ok() { testno=$((testno + 1)); echo "ok $testno $*"; }
not_ok() { testno=$((testno + 1)); failed=$((failed + 1)); echo "not ok $testno $*"; }
result() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }
diag() { sed 's/^/# /'; }
skip_all() { echo "1..0 # SKIP $*"; exit $ksft_skip; }

# poll SECONDS COMMAND...
poll() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.02
	done
}

unload() {
	local _
	for _ in $(seq 250); do
		[ -d /sys/module/wind ] || return 0
		rmmod wind 2>/dev/null && return 0
		sleep 0.02
	done
	return 1
}

cleanup() {
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	# Leave the module installed for the tests after this one
	if [ ! -e "$MODPATH" ] && [ -e "$ROOT/wind.ko" ]; then
		DESTDIR= KVER=$KVER_RUN DEPMOD=$TMP/depmod \
			"$ROOT/scripts/pkg/install.sh" install module >/dev/null 2>&1
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "must be root"
[ -e "$ROOT/wind.ko" ] || skip_all "wind.ko not built"
[ -e "$ROOT/userspace/lib/libwind.so" ] || skip_all "libwind not built"
command -v pkg-config >/dev/null || skip_all "pkg-config missing"
command -v cc >/dev/null || skip_all "no C compiler"
[ "$(modinfo -F vermagic "$ROOT/wind.ko" | cut -d' ' -f1)" = "$KVER_RUN" ] ||
	skip_all "wind.ko is not built for $KVER_RUN"
echo "1..$NTESTS"

# 1: the staged install holds exactly these files
make -s -C "$ROOT" install DESTDIR="$STAGE" KVER="$KVER_RUN" > "$TMP/install.log" 2>&1
rc=$?
expected="/lib/modules/$KVER_RUN/extra/wind.ko
/usr/include/linux/wind.h
/usr/local/include/libwind.h
/usr/local/lib/libwind-preload.so
/usr/local/lib/libwind.a
/usr/local/lib/libwind.so
/usr/local/lib/libwind.so.0
/usr/local/lib/libwind.so.0.1.0
/usr/local/lib/pkgconfig/libwind.pc
/usr/local/share/man/man3/libwind.3
/usr/local/share/man/man7/wind.7
/usr/local/share/man/man8/libwind-preload.8
/usr/lib/$(uname -m)-linux-gnu/wireshark/plugins/wind.lua"
for f in "$ROOT"/man/*.[1-8]; do
	echo "/usr/local/share/man/man${f##*.}/$(basename "$f")"
done > "$TMP/man.list"
[ -x "$ROOT/userspace/windctl/windctl" ] && expected="$expected
/usr/local/sbin/windctl"
# the libfabric provider, into libfabric's own provider directory
[ -e "$ROOT/userspace/fabric/libwind-fi.so" ] && expected="$expected
/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/libfabric/libwind-fi.so"
for f in "$ROOT"/userspace/windctl/*.[1-8]; do
	[ -e "$f" ] && echo "/usr/local/share/man/man${f##*.}/$(basename "$f")"
done >> "$TMP/man.list"
{ echo "$expected"; cat "$TMP/man.list"; } | sort -u > "$TMP/expected"
(cd "$STAGE" && find . \( -type f -o -type l \) | sed 's/^\.//' | sort) > "$TMP/got"
if [ $rc = 0 ] && cmp -s "$TMP/expected" "$TMP/got"; then
	ok "make install DESTDIR: $(wc -l < "$TMP/got") files where they belong"
else
	diag < "$TMP/install.log"
	diff "$TMP/expected" "$TMP/got" | diag
	not_ok "make install DESTDIR (exit $rc)"
fi

# 2: what the files are
L=$STAGE/usr/local/lib
check_files() {
	[ "$(readlink "$L/libwind.so")" = libwind.so.0 ] &&
	[ "$(readlink "$L/libwind.so.0")" = libwind.so.0.1.0 ] &&
	[ "$(stat -c %a "$L/libwind.so.0.1.0")" = 755 ] &&
	[ "$(stat -c %a "$STAGE/usr/include/linux/wind.h")" = 644 ] &&
	cmp -s "$ROOT/wind.ko" "$STAGE/lib/modules/$KVER_RUN/extra/wind.ko" &&
	cmp -s "$ROOT/include/uapi/linux/wind.h" "$STAGE/usr/include/linux/wind.h" &&
	objdump -p "$L/libwind.so.0.1.0" | grep -q 'SONAME *libwind.so.0$' &&
	grep -qx 'prefix=/usr/local' "$L/pkgconfig/libwind.pc" &&
	# exactly the symbols of libwind.map, each with the version of its
	# node (LIBWIND_0, LIBWIND_0.1 ...)
	[ "$(nm -D --defined-only "$L/libwind.so.0.1.0" | awk '$2 == "T" { print $3 }' | sort)" = \
	  "$(awk '/^LIBWIND_[0-9.]* *\{/ { node = $1 }
		  /^[[:space:]]*wind_[a-z0-9_]*;/ { sub(/;/, ""); print $1 "@@" node }' \
		"$ROOT/userspace/lib/libwind.map" | sort)" ] &&
	man -l "$STAGE/usr/local/share/man/man7/wind.7" 2>/dev/null | grep -q 'SOCK_WIND'
}
check_files
result $? "staged files: symlinks, modes, SONAME, exported symbols, libwind.pc, man page renders"

# 3: uninstall takes everything away
make -s -C "$ROOT" uninstall DESTDIR="$STAGE" KVER="$KVER_RUN" > "$TMP/uninstall.log" 2>&1
rc=$?
left=$(cd "$STAGE" && find . \( -type f -o -type l \) | wc -l)
if [ $rc = 0 ] && [ "$left" = 0 ]; then
	ok "make uninstall DESTDIR removes every file"
else
	(cd "$STAGE" && find . \( -type f -o -type l \)) | diag
	not_ok "make uninstall DESTDIR removes every file (exit $rc, $left left)"
fi
# stage again for the build tests
make -s -C "$ROOT" install DESTDIR="$STAGE" KVER="$KVER_RUN" > /dev/null 2>&1

# The module part for real.  depmod -a takes minutes under TCG (it reads
# every compressed module over 9p), so install.sh gets a DEPMOD that
# records how it is called and, as scripts/qemu/vm-guest-setup does, takes the
# indexes scripts/qemu/vm-depmod computed on the host when they are for exactly
# the modules now in extra/ (else it runs the real depmod).  After the
# uninstall it leaves the indexes alone: modprobe then finds no file.
cat > "$TMP/depmod" <<EOF
#!/bin/bash
echo "\$*" >> "$TMP/depmod.calls"
[ "\$1" = -a ] && [ "\$2" = "$KVER_RUN" ] || exit 2
pre=$ROOT/build/vm/depmod-$KVER_RUN/lib/modules/$KVER_RUN
dst=/lib/modules/$KVER_RUN
[ -e "$MODPATH" ] || exit 0
same=1
[ -e "\$pre/modules.dep.bin" ] || same=0
[ "\$(ls "\$pre"/extra/*.ko 2>/dev/null | wc -l)" = "\$(ls "\$dst"/extra/*.ko | wc -l)" ] || same=0
for ko in "\$dst"/extra/*.ko; do
	cmp -s "\$ko" "\$pre/extra/\${ko##*/}" || same=0
done
[ \$same = 1 ] && exec cp --remove-destination "\$pre"/modules.* "\$dst/"
exec depmod "\$@"
EOF
chmod +x "$TMP/depmod"

# 4: uninstall the module, and it is gone: modprobe cannot load it
unload
: > "$TMP/depmod.calls"
DESTDIR= KVER=$KVER_RUN DEPMOD=$TMP/depmod "$ROOT/scripts/pkg/install.sh" uninstall module > "$TMP/mod.log" 2>&1
rc=$?
if [ $rc = 0 ] && [ ! -e "$MODPATH" ] && ! modprobe wind 2>/dev/null &&
   [ ! -d /sys/module/wind ] && [ "$(cat "$TMP/depmod.calls")" = "-a $KVER_RUN" ]; then
	ok "install.sh uninstall module: gone from /lib/modules/$KVER_RUN, depmod -a run"
else
	diag < "$TMP/mod.log"
	diag < "$TMP/depmod.calls"
	not_ok "install.sh uninstall module (exit $rc)"
fi

# 5: installed for real: modprobe, rmmod, and socket() autoloads it
: > "$TMP/depmod.calls"
DESTDIR= KVER=$KVER_RUN DEPMOD=$TMP/depmod "$ROOT/scripts/pkg/install.sh" install module > "$TMP/mod.log" 2>&1
rc=$?
[ "$(cat "$TMP/depmod.calls")" = "-a $KVER_RUN" ] || rc="depmod calls: $(cat "$TMP/depmod.calls")"
mod_ok() {
	cmp "$ROOT/wind.ko" "$MODPATH" || return 1
	[ "$(modinfo -F filename wind)" = "$MODPATH" ] ||
		{ echo "modinfo: $(modinfo -F filename wind 2>&1)"; return 1; }
	modprobe wind || return 1
	[ -d /sys/module/wind ] || { echo "modprobe: not loaded"; return 1; }
	rmmod wind || return 1
	[ ! -d /sys/module/wind ] || { echo "rmmod: still loaded"; return 1; }
	python3 -c 'import socket; socket.socket(socket.AF_INET, 7, 253).close()' || return 1
	[ -d /sys/module/wind ] || { echo "socket() did not load wind"; return 1; }
	unload || { echo "cannot unload after socket()"; return 1; }
}
mod_ok > "$TMP/modok.log" 2>&1
mrc=$?
diag < "$TMP/modok.log"
if [ $rc = 0 ] && [ $mrc = 0 ]; then
	ok "install.sh install module: depmod -a, modprobe wind, rmmod wind, autoload"
else
	diag < "$TMP/mod.log"
	not_ok "install.sh install module (exit $rc)"
fi

# A tiny program against the staged header and library
cat > "$TMP/hello.c" <<'EOF'
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libwind.h>

int main(int argc, char **argv)
{
	char buf[256];
	struct sockaddr_in from, to = { .sin_family = AF_INET };
	int fd;
	ssize_t n;

	if (argc == 3 && !strcmp(argv[1], "recv")) {
		fd = wind_socket(0);
		if (fd < 0 || wind_bind(fd, (uint16_t)atoi(argv[2])) < 0)
			return perror("recv"), 1;
		printf("ready %d\n", wind_port(fd));
		fflush(stdout);
		n = wind_recv(fd, buf, sizeof(buf) - 1, &from, NULL);
		if (n < 0)
			return perror("wind_recv"), 1;
		buf[n] = 0;
		printf("%s from %s\n", buf, inet_ntoa(from.sin_addr));
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "send")) {
		fd = wind_socket(WIND_SOCK_BIND);
		to.sin_port = htons((uint16_t)atoi(argv[3]));
		inet_pton(AF_INET, argv[2], &to.sin_addr);
		n = wind_send(fd, &to, argv[4], strlen(argv[4]), WIND_SYNC_ORDERED);
		if (n != (ssize_t)strlen(argv[4]))
			return perror("wind_send"), 1;
		return 0;
	}
	return 2;
}
EOF

# 6: pkg-config from the stage (its paths rebased with the sysroot); the
# kernel header goes to /usr/include, which the compiler searches by
# itself on a real system: here it is in the stage too.
export PKG_CONFIG_PATH=$STAGE/usr/local/lib/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$STAGE
flags=$(echo $(pkg-config --cflags --libs libwind 2>&1))
echo "# pkg-config --cflags --libs libwind: $flags"
cc -std=c11 -D_DEFAULT_SOURCE -Wall -Werror -I"$STAGE/usr/include" "$TMP/hello.c" $flags \
	-o "$TMP/hello" 2>&1 | diag
rc=${PIPESTATUS[0]}
cc -std=c11 -D_DEFAULT_SOURCE -Wall -Werror -I"$STAGE/usr/include" "$TMP/hello.c" \
	$(pkg-config --cflags libwind) "$L/libwind.a" -o "$TMP/hello-static" 2>&1 | diag
src=${PIPESTATUS[0]}
if [ $rc = 0 ] && [ $src = 0 ] &&
   [ "$flags" = "-I$STAGE/usr/local/include -L$STAGE/usr/local/lib -lwind" ] &&
   LD_LIBRARY_PATH=$L ldd "$TMP/hello" | grep -q "libwind.so.0 => $L/libwind.so.0" &&
   ! ldd "$TMP/hello-static" | grep -q libwind; then
	ok "a program builds with pkg-config libwind against the stage (shared and static)"
else
	LD_LIBRARY_PATH=$L ldd "$TMP/hello" 2>&1 | diag
	not_ok "a program builds with pkg-config libwind against the stage (cc $rc, static $src)"
fi

# Two namespaces for the message
setup() {
	ip netns add "$A" && ip netns add "$B" &&
	ip -n "$A" link set lo up && ip -n "$B" link set lo up &&
	ip -n "$A" link add eth0 type veth peer name eth0 netns "$B" &&
	ip -n "$A" addr add 10.79.0.1/24 dev eth0 &&
	ip -n "$B" addr add 10.79.0.2/24 dev eth0 &&
	ip -n "$A" link set eth0 up && ip -n "$B" link set eth0 up &&
	poll 5 ip netns exec "$A" ping -c 1 -W 1 10.79.0.2
}
setup > "$TMP/setup.log" 2>&1 || diag < "$TMP/setup.log"

# talk BINARY: one message from A to B; B prints what it got
talk() {
	local bin=$1 out=$TMP/recv-$(basename "$1").log rpid
	: > "$out"
	LD_LIBRARY_PATH=$L ip netns exec "$B" timeout 30 "$bin" recv 7800 > "$out" 2>&1 &
	rpid=$!
	poll 10 grep -q '^ready 7800' "$out" || { cat "$out"; return 1; }
	LD_LIBRARY_PATH=$L ip netns exec "$A" timeout 30 "$bin" send 10.79.0.2 7800 "hello from the stage" || return 1
	wait $rpid || { cat "$out"; return 1; }
	grep -qx 'hello from the stage from 10.79.0.1' "$out" || { cat "$out"; return 1; }
}

# 7, 8
talk "$TMP/hello" 2>&1 | diag
result "${PIPESTATUS[0]}" "the program linked to the staged libwind.so sends a sync message between namespaces"
talk "$TMP/hello-static" 2>&1 | diag
result "${PIPESTATUS[0]}" "the program linked to the staged libwind.a does too"

# 9: the staged preload library turns Python's UDP socket into Wind
out=$(ip netns exec "$A" env LD_PRELOAD="$L/libwind-preload.so" python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(s.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE) == socket.SOCK_DGRAM,
      s.getsockopt(253, 1) == 0)
' 2>&1)
if [ "$out" = "True True" ]; then
	ok "the staged libwind-preload.so converts a UDP socket"
else
	echo "$out" | diag
	not_ok "the staged libwind-preload.so converts a UDP socket"
fi

echo "# $((NTESTS - failed)) passed, $failed failed"
[ $failed -eq 0 ]
