#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a hol ping's time goes, in the VM (performance target 7, bench/README.md):
#
#   scripts/qemu/vm --cpus 1 -- scripts/benchmarks/bench-hol-trace.sh [WINDPERF-CLIENT-ARGS]
#   default: -t hol -m 32 -q 65536 -r 2 -d 0.5 (Wind only)
#
# Same topology as scripts/benchmarks/bench-guest.sh (two netns over a veth, MTU
# 1500).  Runs one Wind windperf hol client under ftrace (wind_deliver,
# netif_rx, sched_switch) and splits every ping of the loaded and of the
# unloaded repetitions into: the request's way into the server's socket
# (its netif_rx to its wind_deliver), the server's turn (to the reply's
# wind_deliver at the client: the server must run, read and answer), and
# the client's turn (to the ping thread running again), with who had the
# CPU meanwhile.  bench/hol_trace.py does the arithmetic.  Not part of
# make bench: a tool for finding what the ping waits for.  Tracing slows
# everything down a little; compare loaded with unloaded.
set -u
REPO=${WIND_ROOT:-$(cd "$(dirname "$0")/../.." && pwd -P)}
WP=$REPO/userspace/windperf/windperf
A=whol-a
B=whol-b
T=/sys/kernel/tracing
[ $# -gt 0 ] || set -- -t hol -m 32 -q 65536 -r 2 -d 0.5

cleanup() {
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	[ -d $T/events ] && echo 0 > $T/tracing_on
	ip netns del $A 2>/dev/null
	ip netns del $B 2>/dev/null
}
trap cleanup EXIT
modprobe wind || exit 1
ip netns add $A && ip netns add $B &&
ip -n $A link set lo up && ip -n $B link set lo up &&
ip -n $A link add eth0 mtu 1500 type veth peer name eth0 mtu 1500 netns $B &&
ip -n $A addr add 10.98.0.1/24 dev eth0 && ip -n $B addr add 10.98.0.2/24 dev eth0 &&
ip -n $A link set eth0 up && ip -n $B link set eth0 up || exit 1
ip netns exec $A ping -c 1 -W 2 10.98.0.2 >/dev/null || exit 1
[ -d $T/events ] || mount -t tracefs nodev $T || exit 1

ip netns exec $B "$WP" -s -p wind -P 5001 > /tmp/whol-server.log 2>&1 &
spid=$!
for _ in $(seq 200); do
	grep -q ready /tmp/whol-server.log && break
	sleep 0.05
done

echo 0 > $T/tracing_on
echo > $T/trace
echo 40000 > $T/buffer_size_kb
for e in wind/wind_deliver net/netif_rx sched/sched_switch; do
	echo 1 > $T/events/$e/enable || exit 1
done
echo 1 > $T/tracing_on
ip netns exec $A "$WP" -c 10.98.0.2 -P 5001 -p wind "$@" &
cpid=$!
wait $cpid
echo 0 > $T/tracing_on
cat $T/trace > /tmp/whol-trace.txt
for e in wind/wind_deliver net/netif_rx sched/sched_switch; do
	echo 0 > $T/events/$e/enable
done
python3 "$REPO/bench/hol_trace.py" /tmp/whol-trace.txt "$spid" "$cpid" 5001
