#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where the time of one windperf row goes, in the VM:
#
#   scripts/qemu/vm --cpus 1 -- scripts/benchmarks/bench-profile.sh [LOSS%] -- WINDPERF-CLIENT-ARGS
#   e.g. scripts/qemu/vm --cpus 1 -- scripts/benchmarks/bench-profile.sh 1 -- -p wind -t bulk -m 65536 -r 1 -d 2
#
# Same topology as scripts/benchmarks/bench-guest.sh (two netns over a veth, MTU 1500;
# with LOSS, netem on both ends and gso_max_segs 1).  Prints the client's
# result, the Wind counters of both namespaces over the run, and a
# cpu-clock profile of the whole VM (perf record -a; TCG has no PMU, so
# sampling is by timer) with the top kernel symbols.  Not part of make
# bench: a tool for finding what to optimise.  WIND_SYSCTL="rto_min_ms=5
# delack_ms=2" sets net.wind.* tunables in both namespaces first;
# WIND_NOPERF=1 runs without the profiler.  WIND_GRO=on (or off) makes
# the client send packet by packet (TSO off, gso_max_segs 1: no GSO skbs
# of Wind's) to a server veth with GRO on (NAPI, merging; InGroPackets)
# or off: the receive side of GRO, A/B in one VM.  WIND_NETEM="delay 1ms"
# puts a netem qdisc with those parameters on the client's device: its
# packets reach the server in bursts, as a NIC's interrupt coalescing
# hands them over, which GRO merges (a veth in a one-CPU VM otherwise
# polls them one by one).
set -u
REPO=${WIND_ROOT:-$(cd "$(dirname "$0")/../.." && pwd -P)}
WP=$REPO/userspace/windperf/windperf
A=wprof-a
B=wprof-b
loss=
if [ "${1:-}" != "--" ]; then
	loss=$1
	shift
fi
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [LOSS%] -- WINDPERF-CLIENT-ARGS" >&2; exit 2; }
proto=wind
prev=
for a in "$@"; do
	[ "$prev" = -p ] && proto=$a
	prev=$a
done

cleanup() {
	[ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
	ip netns del $A 2>/dev/null
	ip netns del $B 2>/dev/null
}
trap cleanup EXIT
ip netns add $A && ip netns add $B &&
ip -n $A link set lo up && ip -n $B link set lo up &&
ip -n $A link add eth0 mtu 1500 type veth peer name eth0 mtu 1500 netns $B &&
ip -n $A addr add 10.98.0.1/24 dev eth0 && ip -n $B addr add 10.98.0.2/24 dev eth0 &&
ip -n $A link set eth0 up && ip -n $B link set eth0 up || exit 1
if [ -n "$loss" ]; then
	for ns in $A $B; do
		ip -n $ns link set dev eth0 gso_max_segs 1
		ip netns exec $ns tc qdisc replace dev eth0 root netem loss "$loss%" limit 10000
	done
fi
if [ -n "${WIND_GRO:-}" ]; then
	ip -n $A link set dev eth0 gso_max_segs 1
	ip netns exec $A ethtool -K eth0 tso off >/dev/null || exit 1
	ip netns exec $B ethtool -K eth0 gro "$WIND_GRO" >/dev/null || exit 1
fi
if [ -n "${WIND_NETEM:-}" ]; then
	# shellcheck disable=SC2086
	ip netns exec $A tc qdisc replace dev eth0 root netem $WIND_NETEM limit 10000 || exit 1
fi
ip netns exec $A ping -c 1 -W 2 10.98.0.2 >/dev/null || exit 1
[ -n "${WIND_SYSCTL:-}" ] && modprobe wind
for kv in ${WIND_SYSCTL:-}; do
	for ns in $A $B; do
		ip netns exec $ns sysctl -q -w "net.wind.$kv" || exit 1
	done
done

ip netns exec $B "$WP" -s -p "$proto" -P 5001 > /tmp/wprof-server.log 2>&1 &
spid=$!
for _ in $(seq 200); do
	grep -q ready /tmp/wprof-server.log && break
	sleep 0.05
done

stat() { ip netns exec "$1" cat /proc/net/wind_stat 2>/dev/null; }
stat $A > /tmp/wprof-a0
stat $B > /tmp/wprof-b0

perf=$(command -v perf)
for p in /usr/bin/perf_*; do
	[ -x "$p" ] && perf=$p
done
[ "${WIND_NOPERF:-0}" = 1 ] && perf=
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
if [ -n "$perf" ]; then
	"$perf" record -q -a -g -e cpu-clock -F 2000 -o /tmp/wprof.data -- \
		ip netns exec $A "$WP" -c 10.98.0.2 -P 5001 "$@"
else
	ip netns exec $A "$WP" -c 10.98.0.2 -P 5001 "$@"
fi

stat $A > /tmp/wprof-a1
stat $B > /tmp/wprof-b1
echo
echo "Wind counters over the run (non-zero deltas):"
printf '  %-18s %12s %12s\n' counter "client ($A)" "server ($B)"
paste /tmp/wprof-a0 /tmp/wprof-a1 /tmp/wprof-b0 /tmp/wprof-b1 |
	awk '{ da = $4 - $2; db = $8 - $6; if (da || db) printf "  %-18s %12d %12d\n", $1, da, db }'

if [ -n "$perf" ] && [ -s /tmp/wprof.data ]; then
	echo
	echo "Profile (cpu-clock, whole VM, self time):"
	"$perf" report -i /tmp/wprof.data --stdio --no-children --sort sym \
		-g none --percent-limit 0.7 2>/dev/null | grep -v '^#' | grep -v '^$' | head -60
	echo
	echo "Profile with callees (children), kernel:"
	"$perf" report -i /tmp/wprof.data --stdio --children --sort sym \
		-g none --percent-limit 2 2>/dev/null | grep -F '[k]' | head -70
fi
