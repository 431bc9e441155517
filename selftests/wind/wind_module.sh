#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module lifetime: wind.ko is installed but not loaded; socket() loads it,
# an open Wind socket pins it (rmmod refused), closing the socket frees
# it, and it unloads cleanly after namespaces that used it, whether they
# are still alive or already gone.  KTAP output.

set -u

ksft_skip=4
NTESTS=9
ns=windmod-$$
testno=0
failed=0

ok() {
	testno=$((testno + 1))
	echo "ok $testno $*"
}

not_ok() {
	testno=$((testno + 1))
	failed=$((failed + 1))
	echo "not ok $testno $*"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit $ksft_skip
}

diag() {
	sed 's/^/# /'
}

loaded() {
	[ -d /sys/module/wind ]
}

in_lsmod() {
	lsmod | awk '$1 == "wind" { found = 1 } END { exit !found }'
}

# rmmod, retried for up to 5 s while a socket closed a moment ago may
# still hold the module
unload() {
	local out

	for _ in $(seq 100); do
		loaded || return 0
		out=$(rmmod wind 2>&1) && return 0
		sleep 0.05
	done
	echo "$out" | diag
	return 1
}

# socket(AF_INET, SOCK_WIND, IPPROTO_WIND) from Python, in namespace $1 (if
# given), with a snippet run on it
py_socket() {
	local pfx=()

	[ -n "${1:-}" ] && pfx=(ip netns exec "$1")
	"${pfx[@]}" python3 -c "
import socket
s = socket.socket(socket.AF_INET, 7, 253)
${2:-pass}
s.close()
" 2>&1 | diag
	return "${PIPESTATUS[0]}"
}

cleanup() {
	[ -n "${HOLD_PID:-}" ] && kill "$HOLD_PID" 2>/dev/null
	ip netns del "$ns" 2>/dev/null
}
trap cleanup EXIT

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "must be root"
command -v python3 >/dev/null || skip_all "python3 missing"
modinfo wind >/dev/null 2>&1 || skip_all "wind.ko not installed"
echo "1..$NTESTS"

# 1
if unload && ! loaded && ! in_lsmod; then
	ok "wind unloads when unused"
else
	not_ok "wind unloads when unused"
fi

# 2
if py_socket && loaded && in_lsmod; then
	ok "socket() autoloads wind"
else
	not_ok "socket() autoloads wind"
fi

# 3: a process holding one bound Wind socket until its stdin closes
coproc HOLD {
	exec python3 -u -c '
import socket, sys
s = socket.socket(socket.AF_INET, 7, 0)
s.bind(("0.0.0.0", 0))
print("ready", s.getsockname()[1], flush=True)
sys.stdin.read()
s.close()
' 2>&1
}
line=
read -r -t 20 line <&"${HOLD[0]}"
if [ "${line%% *}" = ready ]; then
	ok "a process holds a Wind socket (port ${line#ready })"
else
	not_ok "a process holds a Wind socket (got '$line')"
fi

# 4
out=$(rmmod wind 2>&1)
rc=$?
refcnt=$(cat /sys/module/wind/refcnt 2>/dev/null || echo missing)
if [ $rc -ne 0 ] && loaded && [[ "$out" == *"in use"* ]] &&
   [ "$refcnt" != missing ] && [ "$refcnt" -ge 1 ]; then
	ok "rmmod refused while the socket is open (refcnt $refcnt)"
else
	echo "rmmod: rc $rc: $out; refcnt $refcnt" | diag
	not_ok "rmmod refused while the socket is open"
fi

# 5
hold_in=${HOLD[1]}
exec {hold_in}>&-
wait "$HOLD_PID" 2>/dev/null
HOLD_PID=
if unload && ! loaded && ! in_lsmod; then
	ok "rmmod succeeds once the socket is closed"
else
	not_ok "rmmod succeeds once the socket is closed"
fi

# 6
if py_socket && loaded && in_lsmod; then
	ok "socket() autoloads wind again"
else
	not_ok "socket() autoloads wind again"
fi

# 7
out=$(modprobe -r wind 2>&1)
rc=$?
if [ $rc -eq 0 ] && ! in_lsmod && ! loaded; then
	ok "modprobe -r wind removes it"
else
	echo "modprobe -r: rc $rc: $out" | diag
	not_ok "modprobe -r wind removes it"
fi

# 8: traffic over the loopback of a namespace that stays alive across
# the unload; the module's per-namespace state must go with it
traffic='
b = socket.socket(socket.AF_INET, 7, 253)
b.bind(("127.0.0.1", 0))
s.sendto(b"one", b.getsockname())
s.sendto(b"two", 0x400000, b.getsockname())
s.sendto(b"three", 0x800000, b.getsockname())
b.settimeout(5)
got = [b.recv(100) for _ in range(3)]
assert sorted(got) == [b"one", b"three", b"two"], got
b.close()
'
if ip netns add "$ns" && ip -n "$ns" link set lo up &&
   py_socket "$ns" "$traffic" && unload && ! loaded; then
	ok "rmmod after traffic, its namespace still alive"
else
	not_ok "rmmod after traffic, its namespace still alive"
fi

# 9: the same, the namespace deleted first
if py_socket "$ns" "$traffic" && ip netns del "$ns" && unload && ! loaded
then
	ok "rmmod after traffic, its namespace deleted"
else
	not_ok "rmmod after traffic, its namespace deleted"
fi

echo "# $((NTESTS - failed)) passed, $failed failed"
[ $failed -eq 0 ]
