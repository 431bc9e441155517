#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libwind-preload.so: unmodified UDP programs over Wind.  preload_jiajia
# (a JIAJIA-style UDP program: SIGIO, select(0), 650 KB buffers, 40 KiB
# messages, dozens of sockets) under the shim on one node and across two,
# WIND_PRELOAD_PORTS, and Debian's socat: 200 lines sent one datagram per
# line over a link losing 10% of its packets arrive complete and in order
# under the shim, and do not without it.  Then AF_INET6 UDP sockets: what
# the shim makes of them on one node, socat's UDP6 stream, and a Python
# program's exact datagrams and its IPv6 error queue, all through Wind
# (its counters in /proc/net/wind_stat say so).  Last, UDP's MSG_MORE
# (one datagram of several sends, which Wind's MSG_MORE is not) is
# refused under the shim.  KTAP output.
#
#   +------- windpa-PID -------+            +------- windpb-PID -------+
#   | eth0 10.78.0.1/24        |<-- veth -->| eth0 10.78.0.2/24        |
#   |      fd78::1/64 nodad    |            |      fd78::2/64 nodad    |
#   | qdisc netem loss 10%     |            | qdisc netem loss 10%     |
#   +--------------------------+            +--------------------------+
#
# The loss is on both egresses (data one way, acknowledgements the other)
# and only from test 4 on.

set -u

ksft_skip=4
NTESTS=12
A=windpa-$$
B=windpb-$$
ADDR_A=10.78.0.1
ADDR_B=10.78.0.2
ADDR6_A=fd78::1
ADDR6_B=fd78::2
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
command -v socat >/dev/null || skip_all "socat missing (scripts/deps/install-deps.sh)"
command -v tc >/dev/null || skip_all "tc missing"
[ -r "$SHIM" ] || skip_all "$SHIM not built (make)"
[ -x "$PROG" ] || skip_all "$PROG not built (make -C selftests/wind-user)"
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
	ip -n "$A" addr add "$ADDR6_A/64" dev eth0 nodad &&
	ip -n "$B" addr add "$ADDR6_B/64" dev eth0 nodad &&
	ip -n "$A" link set eth0 up && ip -n "$B" link set eth0 up &&
	poll 5 sh -c "ip -n $A link show eth0 | grep -q LOWER_UP && ip -n $B link show eth0 | grep -q LOWER_UP" &&
	poll 5 ip netns exec "$A" ping -c 1 -W 1 "$ADDR_B" >/dev/null &&
	poll 5 ip netns exec "$A" ping -6 -c 1 -W 1 "$ADDR6_B" >/dev/null
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

# 9: an AF_INET6 UDP socket under the shim, on one node.  SOL_WIND
# answers only a Wind socket: a UDP one says ENOPROTOOPT.
cat > "$TMP/udp6.py" <<'EOF'
import errno, socket, sys
SOL_WIND, WIND_RECVERR = 253, 2
IPV6_RECVERR = 25

def is_wind(s):
    try:
        return s.getsockopt(SOL_WIND, WIND_RECVERR) in (0, 1)
    except OSError as e:
        if e.errno != errno.ENOPROTOOPT:
            raise
        return False

out = []
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
out.append("wind=%s type=%d proto=%d family=%d" % (
    is_wind(s), s.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE),
    s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL),
    s.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN)))
s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVERR, 1)
out.append("recverr=%d" % s.getsockopt(SOL_WIND, WIND_RECVERR)
           if is_wind(s) else "recverr=-")
# with WIND_PRELOAD_PORTS: IPV6_V6ONLY set before bind() is carried over
p = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
p.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
p.bind(("::", int(sys.argv[1])))
out.append("port %s: wind=%s v6only=%d name=%s" % (
    sys.argv[1], is_wind(p),
    p.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY),
    p.getsockname()[:2]))
q = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
q.bind(("::", int(sys.argv[2])))
out.append("port %s: wind=%s" % (sys.argv[2], is_wind(q)))
print(" | ".join(out))
EOF
t9() {
	local got want
	want="wind=True type=2 proto=17 family=10 | recverr=1 | port 7650: wind=True v6only=1 name=('::', 7650) | port 7651: wind=True"
	got=$(shim "$A" python3 "$TMP/udp6.py" 7650 7651 2>&1)
	echo "every socket: $got" | diag
	[ "$got" = "$want" ] || { echo "wanted: $want" | diag; return 1; }
	want="wind=False type=2 proto=17 family=10 | recverr=- | port 7650: wind=True v6only=1 name=('::', 7650) | port 7651: wind=False"
	got=$(ip netns exec "$A" env LD_PRELOAD="$SHIM" WIND_PRELOAD_PORTS=7650 \
		python3 "$TMP/udp6.py" 7650 7651 2>&1)
	echo "WIND_PRELOAD_PORTS=7650: $got" | diag
	[ "$got" = "$want" ] || { echo "wanted: $want" | diag; return 1; }
}
t9
result $? "AF_INET6 UDP sockets become AF_INET6 Wind sockets (SO_TYPE/SO_PROTOCOL say UDP, IPV6_RECVERR sets WIND_RECVERR); WIND_PRELOAD_PORTS converts them at bind() with IPV6_V6ONLY"

# 10: socat's UDP6 stream under the shim, over the lossy link: every line
# in order, and exactly one Wind message per line on each side
t10() {
	local in0 out0 in1 out1 rpid
	in0=$(wind_stat "$B" InMessages)
	out0=$(wind_stat "$A" OutMessages)
	: > "$TMP/out-shim6.txt"
	# not through shim(): $! must be socat's own process, to kill it
	ip netns exec "$B" env LD_PRELOAD="$SHIM" socat -u "UDP6-RECV:7502" \
		"OPEN:$TMP/out-shim6.txt,creat,trunc" 2> "$TMP/socat-recv-shim6.log" &
	rpid=$!
	pids+=($rpid)
	poll 20 bound "$B" 7502 wind6 ||
		{ echo "# socat UDP6 receiver not bound in /proc/net/wind6"; return 1; }
	! bound "$B" 7502 udp6 ||
		{ echo "# socat UDP6 receiver is in /proc/net/udp6"; return 1; }
	shim "$A" timeout 120 socat -u -b $LINE_LEN "OPEN:$TMP/in.txt" \
		"UDP6-SENDTO:[$ADDR6_B]:7502" 2> "$TMP/socat-send-shim6.log" ||
		{ diag < "$TMP/socat-send-shim6.log"; return 1; }
	poll 60 sh -c "[ \$(stat -c %s '$TMP/out-shim6.txt') -ge $((LINES * LINE_LEN)) ]"
	kill "$rpid" 2>/dev/null
	wait "$rpid" 2>/dev/null
	in1=$(wind_stat "$B" InMessages)
	out1=$(wind_stat "$A" OutMessages)
	echo "B InMessages $in0 -> $in1, A OutMessages $out0 -> $out1" | diag
	cmp "$TMP/in.txt" "$TMP/out-shim6.txt" 2>&1 | diag
	diag < "$TMP/socat-recv-shim6.log"
	cmp -s "$TMP/in.txt" "$TMP/out-shim6.txt" &&
	[ $((in1 - in0)) = $LINES ] && [ $((out1 - out0)) = $LINES ]
}
t10
result $? "socat UDP6 under the shim: $LINES lines complete and in order over 10% loss, $LINES Wind messages each way"

# 11: a Python program's AF_INET6 datagrams, exact bytes and sender, and
# its IPv6 error queue (IPV6_RECVERR) naming the peer
cat > "$TMP/udp6-rx.py" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.bind(("::", int(sys.argv[1])))
print("ready", flush=True)
s.settimeout(60)
for _ in range(3):
    data, addr = s.recvfrom(65536)
    print(data.hex(), addr[0], addr[1], flush=True)
# Stay bound until the test is done with the sender: closing now would
# refuse a retransmission of a message whose ACK the lossy link dropped,
# and the sender would rightly report ECONNREFUSED for this port.  Any
# further message (a duplicate) is printed and fails the comparison.
s.settimeout(None)
while True:
    data, addr = s.recvfrom(65536)
    print(data.hex(), addr[0], addr[1], flush=True)
EOF
cat > "$TMP/udp6-tx.py" <<'EOF'
import select, socket, struct, sys
IPV6_RECVERR, SO_EE_ORIGIN_WIND = 25, 6
peer, port, closed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.bind(("::", int(sys.argv[4])))
s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVERR, 1)
for m in (b"\x00\x01\x02\xff", bytes(range(256)) * 20, b"last"):
    s.sendto(m, (peer, port))
s.sendto(b"nobody", (peer, closed))
poll = select.poll()
poll.register(s, 0)
if not poll.poll(30000):
    sys.exit("no error reported in 30 s")
data, anc, flags, addr = s.recvmsg(64, 512, socket.MSG_ERRQUEUE)
for level, typ, d in anc:
    if level == socket.IPPROTO_IPV6 and typ == IPV6_RECVERR:
        eerr, origin = struct.unpack_from("=IB", d, 0)
        fam, eport = struct.unpack_from("=HH", d, 16)
        off = socket.inet_ntop(socket.AF_INET6, d[24:40])
        print("errqueue", eerr, origin == SO_EE_ORIGIN_WIND, fam,
              socket.ntohs(eport), off, addr[0], addr[1])
        break
else:
    print("errqueue: no IPV6_RECVERR message", anc)
EOF
t11() {
	local in0 in1 rx got want big
	in0=$(wind_stat "$B" InMessages)
	ip netns exec "$B" env LD_PRELOAD="$SHIM" timeout 90 python3 "$TMP/udp6-rx.py" 7600 \
		> "$TMP/udp6-rx.log" 2>&1 &
	rx=$!
	pids+=($rx)
	poll 20 grep -q ready "$TMP/udp6-rx.log" || { diag < "$TMP/udp6-rx.log"; return 1; }
	got=$(shim "$A" timeout 90 python3 "$TMP/udp6-tx.py" "$ADDR6_B" 7600 7609 7601 2>&1)
	echo "sender: $got" | diag
	poll 30 sh -c "[ \$(wc -l < '$TMP/udp6-rx.log') -ge 4 ]"
	kill "$rx" 2>/dev/null
	wait "$rx" 2>/dev/null
	cut -c1-100 "$TMP/udp6-rx.log" | diag	# the 5120 bytes: 10240 hex digits
	want="errqueue 111 True 10 7609 $ADDR6_B $ADDR6_B 7609"
	[ "$got" = "$want" ] || { echo "wanted: $want" | diag; return 1; }
	big=$(python3 -c 'print((bytes(range(256)) * 20).hex())')
	want=$(printf 'ready\n%s %s 7601\n%s %s 7601\n%s %s 7601' \
		000102ff "$ADDR6_A" "$big" "$ADDR6_A" 6c617374 "$ADDR6_A")
	[ "$(cat "$TMP/udp6-rx.log")" = "$want" ] ||
		{ echo "the receiver did not get exactly what was sent" | diag; return 1; }
	in1=$(wind_stat "$B" InMessages)
	echo "B InMessages $in0 -> $in1" | diag
	[ $((in1 - in0)) = 3 ]
}
t11
result $? "AF_INET6 datagrams under the shim: exact bytes (4, 5120, 4) from [$ADDR6_A]:7601; the error queue says ECONNREFUSED for [$ADDR6_B]:7609 (SOL_IPV6, SO_EE_ORIGIN_WIND)"

t12() {
	local got
	got=$(shim "$A" python3 -c '
import errno, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
to = (sys.argv[1], 7700)
r = [str(s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL))]
for f in (lambda: s.sendto(b"m", socket.MSG_MORE, to),
          lambda: s.sendmsg([b"m"], [], socket.MSG_MORE, to),
          lambda: s.sendto(b"m", to)):
    try:
        f()
        r.append("sent")
    except OSError as e:
        # Python names 95 ENOTSUP: on Linux the same number
        r.append("EOPNOTSUPP" if e.errno == errno.EOPNOTSUPP else
                 errno.errorcode.get(e.errno, str(e.errno)))
print(*r)' "$ADDR_B" 2>&1)
	echo "got: $got" | diag
	[ "$got" = "17 EOPNOTSUPP EOPNOTSUPP sent" ]
}
t12
result $? "UDP's MSG_MORE under the shim: sendto and sendmsg fail with EOPNOTSUPP, a plain sendto goes"

echo "# $((NTESTS - failed)) passed, $failed failed"
[ $failed -eq 0 ]
