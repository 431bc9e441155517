#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libwind-preload.so: unmodified UDP programs over Wind.  preload_jiajia
# (a JIAJIA-style UDP program: SIGIO, select(0), 650 KB buffers, 40 KiB
# messages, dozens of sockets) under the shim on one node and across two,
# WIND_PRELOAD_PORTS, and Debian's socat: 200 lines sent one datagram per
# line over a link losing 10% of its packets arrive complete and in order
# under the shim, and do not without it.  KTAP output.
#
#   +------- windpa-PID -------+            +------- windpb-PID -------+
#   | eth0 10.78.0.1/24        |<-- veth -->| eth0 10.78.0.2/24        |
#   | qdisc netem loss 10%     |            | qdisc netem loss 10%     |
#   +--------------------------+            +--------------------------+
#
# The loss is on both egresses (data one way, acknowledgements the other)
# and only from test 4 on.

set -u

ksft_skip=4
NTESTS=8
A=windpa-$$
B=windpb-$$
ADDR_A=10.78.0.1
ADDR_B=10.78.0.2
HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=${WIND_ROOT:-$(cd "$HERE/../.." && pwd -P)}
SHIM=$ROOT/userspace/preload/libwind-preload.so
PROG=$HERE/preload_jiajia
LINES=200
LINE_LEN=32
TMP=$(mktemp -d /tmp/wind_preload.XXXXXX)

testno=0
failed=0
pids=()
saved_wmem=
saved_rmem=

ok() { testno=$((testno + 1)); echo "ok $testno $*"; }
not_ok() { testno=$((testno + 1)); failed=$((failed + 1)); echo "not ok $testno $*"; }
result() {	# result STATUS DESCRIPTION
	if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi
}
diag() { sed 's/^\([^#]\)/# \1/; s/^$/#/'; }
skip_all() { echo "1..0 # SKIP $*"; exit $ksft_skip; }

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	[ -n "$saved_wmem" ] && echo "$saved_wmem" > /proc/sys/net/core/wmem_max
	[ -n "$saved_rmem" ] && echo "$saved_rmem" > /proc/sys/net/core/rmem_max
	rm -rf "$TMP"
}
trap cleanup EXIT

# poll SECONDS COMMAND...: run COMMAND every 20 ms until it succeeds
poll() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.02
	done
}

# Is a socket of namespace $1 bound to port $2 in /proc/net/$3 (wind, udp)?
bound() {
	ip netns exec "$1" awk -v p="$(printf ':%04X' "$2")" \
		'NR > 1 && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' \
		"/proc/net/$3" 2>/dev/null
}

wind_stat() {
	ip netns exec "$1" awk -v n="$2" '$1 == n { print $2 }' /proc/net/wind_stat 2>/dev/null
}

shim() {	# shim NS CMD...: CMD in NS under the preload
	local ns=$1
	shift
	ip netns exec "$ns" env LD_PRELOAD="$SHIM" "$@"
}

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "must be root"
command -v socat >/dev/null || skip_all "socat missing (scripts/install-deps.sh)"
command -v tc >/dev/null || skip_all "tc missing"
[ -r "$SHIM" ] || skip_all "$SHIM not built (make)"
[ -x "$PROG" ] || skip_all "$PROG not built (make -C selftests/wind)"
modinfo wind >/dev/null 2>&1 || skip_all "wind.ko not installed"
echo "1..$NTESTS"

# JIAJIA asks for 650 KB socket buffers: let the kernel grant them, as a
# DSM cluster's administrator would (restored on exit).
saved_wmem=$(cat /proc/sys/net/core/wmem_max)
saved_rmem=$(cat /proc/sys/net/core/rmem_max)
echo 2097152 > /proc/sys/net/core/wmem_max
echo 2097152 > /proc/sys/net/core/rmem_max

setup() {
	ip netns add "$A" && ip netns add "$B" &&
	ip -n "$A" link set lo up && ip -n "$B" link set lo up &&
	ip -n "$A" link add eth0 mtu 1500 type veth peer name eth0 mtu 1500 netns "$B" &&
	ip -n "$A" addr add "$ADDR_A/24" dev eth0 &&
	ip -n "$B" addr add "$ADDR_B/24" dev eth0 &&
	ip -n "$A" link set eth0 up && ip -n "$B" link set eth0 up &&
	poll 5 sh -c "ip -n $A link show eth0 | grep -q LOWER_UP && ip -n $B link show eth0 | grep -q LOWER_UP" &&
	poll 5 ip netns exec "$A" ping -c 1 -W 1 "$ADDR_B" >/dev/null
}
if ! setup 2>&1 | diag; then
	echo "# topology setup failed"
fi

# 1: one node, everything a UDP program touches
shim "$A" "$PROG" local > "$TMP/local.log" 2>&1
rc=$?
diag < "$TMP/local.log"
result $rc "preload_jiajia local: conversion, flags, options, 48 sockets, select(0), 40 KiB, SIGIO, EINTR"

# 2: the same checks without the shim must fail: they can tell UDP from Wind
ip netns exec "$A" "$PROG" local > "$TMP/noshim.log" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q 'not converted' "$TMP/noshim.log"; then
	ok "preload_jiajia local fails without the shim"
else
	tail -n 5 "$TMP/noshim.log" | diag
	not_ok "preload_jiajia local fails without the shim (exit $rc)"
fi

# 3: WIND_PRELOAD_PORTS: conversion at bind()
ip netns exec "$A" env LD_PRELOAD="$SHIM" WIND_PRELOAD_PORTS=7200,7300-7302 \
	"$PROG" ports 7200 7201 > "$TMP/ports.log" 2>&1
rc=$?
diag < "$TMP/ports.log"
result $rc "WIND_PRELOAD_PORTS: converted at bind() with options, flags, owner; others stay UDP"

# From here on the link loses 10% of the packets each way
for ns in "$A" "$B"; do
	tc -n "$ns" qdisc add dev eth0 root netem loss 10% 2>&1 | diag
done
if ! tc -n "$A" qdisc show dev eth0 | grep -q 'loss 10%'; then
	echo "# netem is not in place: the loss tests prove nothing"
fi

# 4: JIAJIA-style exchange across the lossy link
NSOCK=24
SPORT=7400
shim "$B" timeout 300 "$PROG" serve $SPORT $NSOCK > "$TMP/serve.log" 2>&1 &
serve_pid=$!
pids+=($serve_pid)
if poll 30 grep -q 'sockets ready' "$TMP/serve.log"; then
	shim "$A" timeout 300 "$PROG" client $ADDR_B $SPORT $NSOCK 64 > "$TMP/client.log" 2>&1
	crc=$?
else
	echo "# the server did not come up"
	crc=1
fi
wait $serve_pid
src=$?
diag < "$TMP/client.log"
diag < "$TMP/serve.log"
[ $crc = 0 ] && [ $src = 0 ]
result $? "JIAJIA-style: $NSOCK sockets a side (half on port 0), 40 KiB messages, SIGIO, blocking burst, 10% loss (client $crc, server $src)"

# The file socat sends: LINES lines of LINE_LEN bytes, so that socat -b
# LINE_LEN reads (and sends) exactly one line per datagram.
for i in $(seq 1 $LINES); do
	printf "%-$((LINE_LEN - 1))s\n" "line $i of $LINES"
done > "$TMP/in.txt"

# socat_run MODE PORT: one-way UDP stream from A to B, MODE shim or plain;
# leaves B's file in $TMP/out-MODE.txt
socat_run() {
	local mode=$1 port=$2 out=$TMP/out-$1.txt pre=() table=udp rpid spid size last stable
	[ "$mode" = shim ] && { pre=(env LD_PRELOAD="$SHIM"); table=wind; }
	: > "$out"
	ip netns exec "$B" "${pre[@]}" socat -u "UDP4-RECV:$port" "OPEN:$out,creat,trunc" \
		2> "$TMP/socat-recv-$mode.log" &
	rpid=$!
	pids+=($rpid)
	if ! poll 20 bound "$B" "$port" $table; then
		echo "# socat receiver ($mode) not bound to $port in /proc/net/$table"
		kill $rpid 2>/dev/null
		return 1
	fi
	ip netns exec "$A" "${pre[@]}" timeout 120 socat -u -b $LINE_LEN \
		"OPEN:$TMP/in.txt" "UDP4-SENDTO:$ADDR_B:$port" 2> "$TMP/socat-send-$mode.log"
	spid=$?
	[ $spid = 0 ] || echo "# socat sender ($mode) exit $spid: $(cat "$TMP/socat-send-$mode.log")"
	# The receiver ends when the whole file is there, or when it stopped
	# growing for 2 s (plain UDP: what is lost is lost), at most 60 s.
	last=-1
	stable=0
	for _ in $(seq 3000); do
		size=$(stat -c %s "$out")
		[ "$size" -ge $((LINES * LINE_LEN)) ] && break
		if [ "$size" = "$last" ]; then
			stable=$((stable + 1))
			[ $stable -ge 100 ] && break
		else
			stable=0
			last=$size
		fi
		sleep 0.02
	done
	kill $rpid 2>/dev/null
	wait $rpid 2>/dev/null
	return 0
}

# 5: under the shim, every line, in order
rtx0=$(wind_stat "$A" OutRetransmits)
socat_run shim 7500
rtx1=$(wind_stat "$A" OutRetransmits)
got=$(wc -l < "$TMP/out-shim.txt")
if cmp -s "$TMP/in.txt" "$TMP/out-shim.txt"; then
	ok "socat under the shim: $LINES lines complete and in order over 10% loss"
else
	echo "# received $got of $LINES lines; first difference:"
	cmp "$TMP/in.txt" "$TMP/out-shim.txt" 2>&1 | diag
	diff "$TMP/in.txt" "$TMP/out-shim.txt" | head -n 10 | diag
	diag < "$TMP/socat-recv-shim.log"
	not_ok "socat under the shim: $LINES lines complete and in order over 10% loss"
fi

# 6: and it took retransmissions, so the loss was real
if [ -n "$rtx0" ] && [ -n "$rtx1" ] && [ "$rtx1" -gt "$rtx0" ]; then
	ok "Wind retransmitted $((rtx1 - rtx0)) packets for socat"
else
	not_ok "Wind retransmitted packets for socat (OutRetransmits ${rtx0:-?} -> ${rtx1:-?})"
fi

# 7: plain UDP loses lines (P(no loss of 200 at 10%) = 0.9^200 ~ 7e-10)
socat_run plain 7501
got=$(wc -l < "$TMP/out-plain.txt")
echo "# plain UDP: $got of $LINES lines arrived"
if [ "$got" -lt $LINES ] && [ "$got" -gt $((LINES / 2)) ]; then
	ok "socat without the shim loses lines over 10% loss ($got of $LINES)"
else
	not_ok "socat without the shim loses lines over 10% loss ($got of $LINES)"
fi

# 8: what plain UDP delivered is whole lines of the file, in order
if [ "$got" -gt 0 ] && awk 'NR == FNR { want[NR] = $0; n = NR; next }
	{ while (i < n && want[++i] != $0) ; if (want[i] != $0) exit 1 }' \
	"$TMP/in.txt" "$TMP/out-plain.txt"; then
	ok "plain UDP: the lines that arrived are intact (one datagram per line)"
else
	head -n 5 "$TMP/out-plain.txt" | diag
	not_ok "plain UDP: the lines that arrived are intact (one datagram per line)"
fi

echo "# $((NTESTS - failed)) passed, $failed failed"
[ $failed -eq 0 ]
