#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Wind under IPsec: ESP in transport mode between two namespaces, with
# static keys (ip xfrm), as a cluster keeps region keys off the wire.
#
#   wsec-a-PID 10.99.0.1 <--- veth ---> 10.99.0.2 wsec-b-PID
#
# 1. B's inbound policy requires ESP for protocol 253 and A has no
#    outbound policy yet: A's plaintext packets are refused by B's policy
#    check (InFiltered), nothing is delivered.
# 2. A's outbound policy is added: the messages (retransmitted) arrive
#    over ESP, exactly, in order; the ESP states counted them.
set -u
A=wsec-a-$$
B=wsec-b-$$
TAP_N=0
FAILED=0
ROOT=${WIND_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}

ok() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N $1"; }
not_ok() { TAP_N=$((TAP_N + 1)); echo "not ok $TAP_N $1"; FAILED=1; }
cleanup() {
	kill "$RX_PID" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
}
RX_PID=
trap cleanup EXIT

stat_of() {	# ns name
	ip netns exec "$1" awk -v n="$2" '$1 == n { print $2 }' /proc/net/wind_stat
}

echo "TAP version 13"
echo "1..4"

ip netns add "$A" && ip netns add "$B" &&
ip -n "$A" link add eth0 type veth peer name eth0 netns "$B" &&
ip -n "$A" addr add 10.99.0.1/24 dev eth0 &&
ip -n "$B" addr add 10.99.0.2/24 dev eth0 &&
ip -n "$A" link set eth0 up && ip -n "$B" link set eth0 up &&
ip -n "$A" link set lo up && ip -n "$B" link set lo up || {
	echo "# topology failed"; exit 1; }
for i in $(seq 50); do
	ip netns exec "$A" ping -c1 -W1 10.99.0.2 >/dev/null 2>&1 && break
	sleep 0.2
done

KEY_AB=0x0102030405060708090a0b0c0d0e0f1011121314
KEY_BA=0x2122232425262728292a2b2c2d2e2f3031323334
# ESP states on both ends, both directions
for ns in "$A" "$B"; do
	ip -n "$ns" xfrm state add src 10.99.0.1 dst 10.99.0.2 proto esp \
		spi 0x1001 mode transport aead 'rfc4106(gcm(aes))' $KEY_AB 128 &&
	ip -n "$ns" xfrm state add src 10.99.0.2 dst 10.99.0.1 proto esp \
		spi 0x2002 mode transport aead 'rfc4106(gcm(aes))' $KEY_BA 128 || {
		echo "# ip xfrm state failed (esp4, gcm(aes) in the kernel?)"
		exit 4
	}
done
# B accepts Wind from A only over ESP, and sends it over ESP
ip -n "$B" xfrm policy add src 10.99.0.1 dst 10.99.0.2 proto 253 dir in \
	tmpl src 10.99.0.1 dst 10.99.0.2 proto esp mode transport &&
ip -n "$B" xfrm policy add src 10.99.0.2 dst 10.99.0.1 proto 253 dir out \
	tmpl src 10.99.0.2 dst 10.99.0.1 proto esp mode transport &&
ip -n "$A" xfrm policy add src 10.99.0.2 dst 10.99.0.1 proto 253 dir in \
	tmpl src 10.99.0.2 dst 10.99.0.1 proto esp mode transport || {
	echo "# ip xfrm policy failed"; exit 1; }

OUT=$(mktemp)
# B's receiver: prints each message it gets, one a line
ip netns exec "$B" python3 -u -c '
import socket, sys
s = socket.socket(socket.AF_INET, 7, 253)
s.bind(("10.99.0.2", 7000))
s.settimeout(60)
for i in range(6):
    m, a = s.recvfrom(65536)
    print(a[0], a[1], m.decode())
' > "$OUT" 2>&1 &
RX_PID=$!
# until the receiver is bound (its socket loads the module if no test
# before did: /proc/net/wind appears with it)
for i in $(seq 300); do
	ip netns exec "$B" grep -qs ':1B58 ' /proc/net/wind && break
	sleep 0.1
done

filtered0=$(stat_of "$B" InFiltered)
# A sends three messages in plaintext: B's policy refuses them
ip netns exec "$A" python3 -c '
import socket
s = socket.socket(socket.AF_INET, 7, 253)
s.bind(("10.99.0.1", 7001))
for i in range(3):
    s.sendto(b"secret-%d" % i, ("10.99.0.2", 7000))
import time
time.sleep(600)
' &
TX_PID=$!
for i in $(seq 100); do
	[ "$(stat_of "$B" InFiltered)" -gt "$filtered0" ] && break
	sleep 0.1
done
if [ "$(stat_of "$B" InFiltered)" -gt "$filtered0" ] && [ ! -s "$OUT" ]; then
	ok "plaintext refused by the inbound ESP policy"
else
	echo "# InFiltered $filtered0 -> $(stat_of "$B" InFiltered); received:"
	sed 's/^/#   /' "$OUT"
	not_ok "plaintext refused by the inbound ESP policy"
fi

# now A sends over ESP: the queued messages get through
ip -n "$A" xfrm policy add src 10.99.0.1 dst 10.99.0.2 proto 253 dir out \
	tmpl src 10.99.0.1 dst 10.99.0.2 proto esp mode transport
ip netns exec "$A" python3 -c '
import socket
s = socket.socket(socket.AF_INET, 7, 253)
s.bind(("10.99.0.1", 7002))
s.sendto(b"async-over-esp", ("10.99.0.2", 7000))
s.sendto(b"sync-over-esp-1", 0x800000, ("10.99.0.2", 7000))   # MSG_WIND_SYNC
s.sendto(b"sync-over-esp-2", 0x800000, ("10.99.0.2", 7000))
' && ok "sync sends over ESP acknowledged" || not_ok "sync sends over ESP acknowledged"
wait "$RX_PID"
RX_PID=
kill "$TX_PID" 2>/dev/null
wait "$TX_PID" 2>/dev/null

expect="10.99.0.1 7001 secret-0
10.99.0.1 7001 secret-1
10.99.0.1 7001 secret-2
10.99.0.1 7002 async-over-esp
10.99.0.1 7002 sync-over-esp-1
10.99.0.1 7002 sync-over-esp-2"
if [ "$(sort "$OUT")" = "$(echo "$expect" | sort)" ] &&
   [ "$(grep -c ' 7001 ' "$OUT")" = 3 ] &&
   [ "$(grep ' 7001 ' "$OUT" | cut -d' ' -f3 | tr '\n' ' ')" = "secret-0 secret-1 secret-2 " ]; then
	ok "every message delivered once, in order per sender"
else
	echo "# received:"; sed 's/^/#   /' "$OUT"
	not_ok "every message delivered once, in order per sender"
fi
# the ESP state from A to B carried them
pkts=$(ip -n "$B" -s xfrm state get src 10.99.0.1 dst 10.99.0.2 proto esp spi 0x1001 |
	awk '/lifetime current:/ { getline; print $2 }')
pkts=${pkts%(packets)}
if [ -n "$pkts" ] && [ "$pkts" -ge 6 ] 2>/dev/null; then
	ok "ESP carried the Wind packets ($pkts)"
else
	ip -n "$B" -s xfrm state | sed 's/^/# /'
	not_ok "ESP carried the Wind packets"
fi
rm -f "$OUT"
exit $FAILED
