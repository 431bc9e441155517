#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The installed Debian packages (make deb; scripts/pkg/deb-test installs them
# in a fresh Debian 12 root and boots it with WIND_NO_INSTALL=1).  Each
# package's files work from where the package put them, with no
# environment set.  KTAP output; skips itself when the packages are not
# installed (a plain make check).
#
#   wind_package.sh             in the VM: the module DKMS built for this
#                               kernel is the only one and what socket()
#                               loads; windctl; fi_info -p wind; programs
#                               built against libwind send a message; the
#                               preload shim by its bare name
#   wind_package.sh --host DIR  in the root itself, no module needed: a
#                               program builds with pkg-config libwind
#                               (shared) and libwind.a (static), into DIR;
#                               tshark loads the dissector; man finds the
#                               pages.  Under TCG these take minutes, so
#                               scripts/pkg/deb-test runs them natively and
#                               gives the VM run DIR as WIND_PACKAGE_BIN.
#
#   +------- windpa-PID -------+            +------- windpb-PID -------+
#   | eth0 10.79.1.1/24        |<-- veth -->| eth0 10.79.1.2/24        |
#   +--------------------------+            +--------------------------+

set -u

ksft_skip=4
mode=vm
BIN=${WIND_PACKAGE_BIN:-}
if [ "${1:-}" = --host ]; then
	mode=host
	BIN=${2:?usage: wind_package.sh --host DIR}
	mkdir -p "$BIN" || exit 1
	BIN=$(cd "$BIN" && pwd -P)
fi
# vm: 6 tests, and the build when no WIND_PACKAGE_BIN; host: 3
if [ "$mode" = host ]; then NTESTS=3; elif [ -n "$BIN" ]; then NTESTS=6; else NTESTS=7; fi
A=windpa-$$
B=windpb-$$
TMP=$(mktemp -d /tmp/wind_package.XXXXXX)
KVER_RUN=$(uname -r)
# wind.ko, or wind.ko.xz where the kernel's modules are compressed (6.12)
DKMS_KO=$(ls /lib/modules/"$KVER_RUN"/updates/dkms/wind.ko* 2>/dev/null)
DKMS_KO=${DKMS_KO:-/lib/modules/$KVER_RUN/updates/dkms/wind.ko}
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
# A fresh root login's environment, for the programs run "as installed"
CLEAN_ENV=(env -i HOME="$TMP/home" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)

testno=0
failed=0
ok() { testno=$((testno + 1)); echo "ok $testno $*"; echo "# at $SECONDS s"; }
not_ok() { testno=$((testno + 1)); failed=$((failed + 1)); echo "not ok $testno $*"; echo "# at $SECONDS s"; }
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

holder=
cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null && wait "$holder" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

echo "TAP version 13"
[ "$mode" = host ] || [ "$(id -u)" = 0 ] || skip_all "must be root"
# One dpkg-query for all (each call is seconds under TCG)
PKGS="wind-dkms libwind0 libwind-dev wind-tools libwind-preload libfabric-wind wind-wireshark"
st=$(dpkg-query -W -f='${db:Status-Abbrev}${Package}\n' $PKGS 2>/dev/null | grep -c '^ii ')
[ "$st" = "$(echo $PKGS | wc -w)" ] ||
	skip_all "packages not installed: $PKGS (make deb; scripts/pkg/deb-test)"
command -v cc >/dev/null || skip_all "no C compiler"
mkdir -p "$TMP/home"
echo "1..$NTESTS"

if [ "$mode" = host ]; then
	OUT=$BIN
# A tiny program against the installed header and library
cat > "$TMP/hello.c" <<'EOF'
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/wind.h>
#include <libwind.h>

int main(int argc, char **argv)
{
	char buf[256];
	struct sockaddr_in from, to = { .sin_family = AF_INET };
	int fd;
	ssize_t n;

	if (SOCK_WIND != 7 || IPPROTO_WIND != 253)
		return 3;
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

# 5: pkg-config libwind from libwind-dev: system paths, nothing to add;
# the program builds against the shared and the static library
flags=$("${CLEAN_ENV[@]}" pkg-config --cflags --libs libwind 2>&1)
echo "# pkg-config --cflags --libs libwind: $flags"
cc -std=c11 -D_DEFAULT_SOURCE -Wall -Werror "$TMP/hello.c" $flags -o "$OUT/hello" 2>&1 | diag
rc=${PIPESTATUS[0]}
cc -std=c11 -D_DEFAULT_SOURCE -Wall -Werror "$TMP/hello.c" \
	"/usr/lib/$MA/libwind.a" -o "$OUT/hello-static" 2>&1 | diag
src=${PIPESTATUS[0]}
if [ $rc = 0 ] && [ $src = 0 ] && [ "$(echo $flags)" = "-lwind" ] &&
   "${CLEAN_ENV[@]}" ldd "$OUT/hello" | grep -q "libwind.so.0 => /lib/$MA/libwind.so.0\|libwind.so.0 => /usr/lib/$MA/libwind.so.0" &&
   ! ldd "$OUT/hello-static" | grep -q libwind; then
	ok "a program builds with pkg-config libwind (shared) and libwind.a (static)"
else
	ldd "$OUT/hello" 2>&1 | diag
	not_ok "a program builds with pkg-config libwind (cc $rc, static $src, flags $flags)"
fi

# 8: tshark loads the dissector by itself (a clean HOME: no personal plugins)
if command -v tshark >/dev/null; then
	"${CLEAN_ENV[@]}" tshark -G plugins > "$TMP/plugins.log" 2>&1
	rc=$?
	grep -i wind "$TMP/plugins.log" | diag
	"${CLEAN_ENV[@]}" tshark -G protocols 2>/dev/null | grep -i '	wind$' | diag
	if [ $rc = 0 ] &&
	   grep -q "^wind\.lua.*/usr/lib/$MA/wireshark/plugins/wind\.lua" "$TMP/plugins.log" &&
	   "${CLEAN_ENV[@]}" tshark -G protocols 2>/dev/null | grep -qi '	wind$'; then
		ok "tshark loads wind.lua (wind-wireshark) from its global plugin directory"
	else
		head -n 20 "$TMP/plugins.log" | diag
		not_ok "tshark loads wind.lua (wind-wireshark) from its global plugin directory (exit $rc)"
	fi
else
	ok "tshark loads wind.lua # SKIP tshark not installed"
fi

# 9: the manual pages, where man finds them
man_ok() {
	local page p
	for page in 8:windctl 3:libwind 7:wind 7:fi_wind 8:libwind-preload; do
		p=$("${CLEAN_ENV[@]}" man -w "${page%%:*}" "${page#*:}" 2>&1)
		[ "$p" = "/usr/share/man/man${page%%:*}/${page#*:}.${page%%:*}.gz" ] ||
			{ echo "man -w ${page%%:*} ${page#*:}: $p"; return 1; }
	done
	"${CLEAN_ENV[@]}" man 7 wind 2>/dev/null | grep -q SOCK_WIND || { echo "man 7 wind: no SOCK_WIND"; return 1; }
}
man_ok 2>&1 | diag
result "${PIPESTATUS[0]}" "man finds windctl(8), libwind(3), wind(7), fi_wind(7), libwind-preload(8)"

	echo "# $((NTESTS - failed)) passed, $failed failed"
	[ $failed -eq 0 ]
	exit
fi

# 1: DKMS built and installed the module for this kernel; it is the only
# wind.ko modprobe knows, and nothing has loaded it yet
ver=$(dpkg-query -W -f='${Version}' wind-dkms)
mod_check() {
	# dkms's own record (dkms status is minutes of shell under TCG:
	# scripts/pkg/deb-test asks it outside the VM): kernel-KVER-ARCH links to
	# the version installed for KVER
	local link=/var/lib/dkms/wind/kernel-$KVER_RUN-$(uname -m)
	echo "$link -> $(readlink "$link")"
	[ "$(readlink "$link")" = "$ver/$KVER_RUN/$(uname -m)" ] ||
		{ echo "dkms: wind/$ver not installed for $KVER_RUN"; return 1; }
	[ -e "$DKMS_KO" ] || { echo "$DKMS_KO missing"; return 1; }
	[ "$(modinfo -F vermagic "$DKMS_KO" | cut -d' ' -f1)" = "$KVER_RUN" ] ||
		{ echo "$DKMS_KO: vermagic $(modinfo -F vermagic "$DKMS_KO")"; return 1; }
	[ "$(modinfo -n wind)" = "$DKMS_KO" ] ||
		{ echo "modinfo -n wind: $(modinfo -n wind 2>&1)"; return 1; }
	# the only wind.ko modprobe knows (a find over /lib/modules on 9p
	# is slow): modules.dep has the DKMS one, nothing is in extra/
	[ "$(grep -c '/wind\.ko[.a-z]*:' "/lib/modules/$KVER_RUN/modules.dep")" = 1 ] &&
	[ -z "$(ls /lib/modules/"$KVER_RUN"/extra/wind.ko* 2>/dev/null)" ] ||
		{ grep '/wind\.ko' "/lib/modules/$KVER_RUN/modules.dep"; return 1; }
	[ ! -d /sys/module/wind ] || { echo "wind already loaded"; return 1; }
}
mod_check > "$TMP/mod.log" 2>&1
rc=$?
diag < "$TMP/mod.log"
result $rc "dkms: wind/$ver installed for $KVER_RUN in updates/dkms, the only wind.ko, not loaded"

# 2: socket(AF_INET, SOCK_WIND, 0) loads that module (its aliases): the
# GNU build ID of the loaded module (its notes in /sys/module) is the
# file's
loaded_id() {
	od -An -tx1 -v /sys/module/wind/notes/.note.gnu.build-id 2>/dev/null |
		tr -d ' \n' | tail -c 40
}
file_id() {
	local f=$1
	case "$f" in
	*.xz) xz -dc "$f" > "$TMP/wind.ko" && f=$TMP/wind.ko ;;
	*.zst) zstd -q -dc "$f" > "$TMP/wind.ko" && f=$TMP/wind.ko ;;
	esac
	readelf -n "$f" | sed -n 's/^ *Build ID: *//p'
}
out=$(python3 -c 'import socket; socket.socket(socket.AF_INET, 7, 0).close()' 2>&1)
rc=$?
[ -n "$out" ] && echo "$out" | diag
want=$(file_id "$DKMS_KO")
got=$(loaded_id)
echo "# build ID: $DKMS_KO $want, loaded ${got:-none}"
if [ $rc = 0 ] && [ -d /sys/module/wind ] && [ ${#want} = 40 ] && [ "$got" = "$want" ]; then
	ok "socket(AF_INET, SOCK_WIND, 0) autoloads the DKMS-built wind.ko"
else
	not_ok "socket(AF_INET, SOCK_WIND, 0) autoloads the DKMS-built wind.ko (exit $rc)"
fi

# Two namespaces for the tests below
setup() {
	ip netns add "$A" && ip netns add "$B" &&
	ip -n "$A" link set lo up && ip -n "$B" link set lo up &&
	ip -n "$A" link add eth0 type veth peer name eth0 netns "$B" &&
	ip -n "$A" addr add 10.79.1.1/24 dev eth0 &&
	ip -n "$B" addr add 10.79.1.2/24 dev eth0 &&
	ip -n "$A" link set eth0 up && ip -n "$B" link set eth0 up &&
	poll 5 ip netns exec "$A" ping -c 1 -W 1 10.79.1.2
}
setup > "$TMP/setup.log" 2>&1 || diag < "$TMP/setup.log"

# 3: the packaged windctl shows a socket bound in a namespace
ip netns exec "$A" python3 -c '
import signal, socket
s = socket.socket(socket.AF_INET, 7, 0)
s.bind(("10.79.1.1", 7711))
print("bound", flush=True)
signal.pause()
' > "$TMP/holder.log" 2>&1 &
holder=$!
poll 10 grep -q bound "$TMP/holder.log"
out=$("${CLEAN_ENV[@]}" windctl -n "$A" show 2>&1)
rc=$?
echo "$out" | diag
if [ $rc = 0 ] && [ "$(command -v windctl)" = /usr/sbin/windctl ] &&
   grep -qx /usr/sbin/windctl /var/lib/dpkg/info/wind-tools.list &&
   echo "$out" | grep -q '10\.79\.1\.1:7711'; then
	ok "windctl (wind-tools) shows the socket bound to 10.79.1.1:7711"
else
	not_ok "windctl (wind-tools) shows the socket bound to 10.79.1.1:7711 (exit $rc)"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
holder=

# 4: libfabric finds the provider by itself (no FI_PROVIDER_PATH)
ip netns exec "$A" "${CLEAN_ENV[@]}" fi_info -p wind > "$TMP/fi.log" 2>&1
rc=$?
grep -E 'provider:|fabric:|type:' "$TMP/fi.log" | sort -u | diag
if [ $rc = 0 ] && grep -q '^provider: wind$' "$TMP/fi.log" &&
   [ -e "/usr/lib/$MA/libfabric/libwind-fi.so" ]; then
	ok "fi_info -p wind with no environment finds libwind-fi.so (libfabric-wind)"
else
	diag < "$TMP/fi.log"
	not_ok "fi_info -p wind with no environment (exit $rc)"
fi

if [ -n "$BIN" ]; then
	OUT=$BIN
else
	OUT=$TMP
# A tiny program against the installed header and library
cat > "$TMP/hello.c" <<'EOF'
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/wind.h>
#include <libwind.h>

int main(int argc, char **argv)
{
	char buf[256];
	struct sockaddr_in from, to = { .sin_family = AF_INET };
	int fd;
	ssize_t n;

	if (SOCK_WIND != 7 || IPPROTO_WIND != 253)
		return 3;
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

# 5: pkg-config libwind from libwind-dev: system paths, nothing to add;
# the program builds against the shared and the static library
flags=$("${CLEAN_ENV[@]}" pkg-config --cflags --libs libwind 2>&1)
echo "# pkg-config --cflags --libs libwind: $flags"
cc -std=c11 -D_DEFAULT_SOURCE -Wall -Werror "$TMP/hello.c" $flags -o "$OUT/hello" 2>&1 | diag
rc=${PIPESTATUS[0]}
cc -std=c11 -D_DEFAULT_SOURCE -Wall -Werror "$TMP/hello.c" \
	"/usr/lib/$MA/libwind.a" -o "$OUT/hello-static" 2>&1 | diag
src=${PIPESTATUS[0]}
if [ $rc = 0 ] && [ $src = 0 ] && [ "$(echo $flags)" = "-lwind" ] &&
   "${CLEAN_ENV[@]}" ldd "$OUT/hello" | grep -q "libwind.so.0 => /lib/$MA/libwind.so.0\|libwind.so.0 => /usr/lib/$MA/libwind.so.0" &&
   ! ldd "$OUT/hello-static" | grep -q libwind; then
	ok "a program builds with pkg-config libwind (shared) and libwind.a (static)"
else
	ldd "$OUT/hello" 2>&1 | diag
	not_ok "a program builds with pkg-config libwind (cc $rc, static $src, flags $flags)"
fi

fi

# talk BINARY: one message from A to B; B prints what it got
talk() {
	local bin=$1 out=$TMP/recv-$(basename "$1").log rpid
	: > "$out"
	ip netns exec "$B" "${CLEAN_ENV[@]}" timeout 30 "$bin" recv 7800 > "$out" 2>&1 &
	rpid=$!
	poll 10 grep -q '^ready 7800' "$out" || { cat "$out"; return 1; }
	ip netns exec "$A" "${CLEAN_ENV[@]}" timeout 30 "$bin" send 10.79.1.2 7800 "hello from the package" || return 1
	wait $rpid || { cat "$out"; return 1; }
	grep -qx 'hello from the package from 10.79.1.1' "$out" || { cat "$out"; return 1; }
}

# 6
{ talk "$OUT/hello" && talk "$OUT/hello-static"; } 2>&1 | diag
result "${PIPESTATUS[0]}" "the programs (libwind0, libwind.a) send a sync message between namespaces"

# 7: the shim, by its bare name, turns Python's UDP socket into Wind
out=$(ip netns exec "$A" "${CLEAN_ENV[@]}" LD_PRELOAD=libwind-preload.so python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(s.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE) == socket.SOCK_DGRAM,
      s.getsockopt(253, 1) == 0)
' 2>&1)
if [ "$out" = "True True" ]; then
	ok "LD_PRELOAD=libwind-preload.so (libwind-preload) converts a UDP socket"
else
	echo "$out" | diag
	not_ok "LD_PRELOAD=libwind-preload.so (libwind-preload) converts a UDP socket"
fi

unload || echo "# cannot unload wind"
echo "# $((NTESTS - failed)) passed, $failed failed"
[ $failed -eq 0 ]
