#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Wind demo, run inside the VM by `make demo`: two nodes in network
# namespaces joined by a veth pair,
#
#   winddemo-a: eth0 10.77.0.1/24 <-- veth, 20 ms each way --> eth0 10.77.0.2/24 :winddemo-b
#               wind-demo send                                   wind-demo recv 7000
#
# a receiver on node b printing messages as they arrive, and a sender on
# node a sending a few messages of each type from one socket.  The 20 ms
# of delay (if sch_netem is there) shows the difference between the types:
# an async send returns at once, a sync one after the acknowledgement.
set -u

REPO=${WIND_ROOT:-$(cd "$(dirname "$0")/../.." && pwd -P)}
DEMO=$REPO/userspace/wind-demo
A=winddemo-a
B=winddemo-b
PORT=7000
LOG=$(mktemp /tmp/wind-demo.XXXXXX)
rx_pid=

say() { printf '\n=== %s\n' "$*"; }

cleanup() {
	[ -n "$rx_pid" ] && kill "$rx_pid" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -f "$LOG"
}
trap cleanup EXIT

if [ ! -x "$DEMO" ]; then
	make -s -C "$REPO/userspace" wind-demo || exit 1
fi

say "two nodes: $A (10.77.0.1) and $B (10.77.0.2) over veth"
ip netns del "$A" 2>/dev/null
ip netns del "$B" 2>/dev/null
ip netns add "$A" && ip netns add "$B" &&
ip -n "$A" link set lo up && ip -n "$B" link set lo up &&
ip -n "$A" link add eth0 type veth peer name eth0 netns "$B" &&
ip -n "$A" addr add 10.77.0.1/24 dev eth0 &&
ip -n "$B" addr add 10.77.0.2/24 dev eth0 &&
ip -n "$A" link set eth0 up && ip -n "$B" link set eth0 up || exit 1
for _ in $(seq 500); do
	ip -n "$A" -o link show dev eth0 | grep -q 'state UP' && break
	sleep 0.01
done
if tc -n "$A" qdisc add dev eth0 root netem delay 20ms 2>/dev/null &&
   tc -n "$B" qdisc add dev eth0 root netem delay 20ms 2>/dev/null; then
	echo "20 ms of delay each way (netem)"
fi

msgs=(
	"first, async-ordered (the default)"
	"second, async-ordered"
	--reliable
	"third, async-reliable: may overtake"
	"fourth, async-reliable"
	--sync
	"fifth, sync-ordered: returns on ACK"
	"sixth, sync-ordered"
	--ordered
	"seventh, async-ordered: the last"
)
count=0
for m in "${msgs[@]}"; do
	[[ "$m" == --* ]] || count=$((count + 1))
done

say "receiver on $B, Wind port $PORT"
(ip netns exec "$B" "$DEMO" recv "$PORT" "$count" | tee "$LOG") &
rx_pid=$!
for _ in $(seq 500); do
	grep -q listening "$LOG" && break
	sleep 0.01
done
grep -q listening "$LOG" || { echo "receiver did not start"; exit 1; }

say "sender on $A: $count messages to 10.77.0.2:$PORT"
ip netns exec "$A" "$DEMO" send 10.77.0.2 "$PORT" "${msgs[@]}" || exit 1

for _ in $(seq 1000); do
	kill -0 "$rx_pid" 2>/dev/null || break
	sleep 0.01
done
if kill -0 "$rx_pid" 2>/dev/null; then
	echo "receiver got $(grep -c '^recv: #' "$LOG") of $count messages in 10 s"
	exit 1
fi
wait "$rx_pid"
rx_pid=

say "counters of $B (/proc/net/wind_stat)"
ip netns exec "$B" cat /proc/net/wind_stat 2>/dev/null || echo "(none)"
say "demo done: $count messages, each delivered once"
