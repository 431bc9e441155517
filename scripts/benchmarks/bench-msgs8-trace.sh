#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where the receiver's time goes in the 8 senders x 64 B row (windperf -t
# msgs -S 8): in the VM (scripts/qemu/vm --cpus 1 -- scripts/benchmarks/bench-msgs8-trace.sh),
# two netns over a veth as in scripts/benchmarks/bench-guest.sh, one Wind, then one
# TCP (Nagle on, -N) run of -d seconds; per message delivered: the
# receiving netns's counters (/proc/net/wind_stat, /proc/net/snmp Tcp),
# context switches and softirq time of the machine, Wind's tracepoints
# (wind_ack_send, wind_deliver, wind_packet_recv) and sched_wakeup of the
# server; with WIND_TRACE_PERF=1 then perf's cpu-clock profile of a Wind
# run (top symbols).
set -u
REPO=${WIND_ROOT:-$(cd "$(dirname "$0")/../.." && pwd -P)}
WP=$REPO/userspace/windperf/windperf
SECS=${SECS:-2}
A=wt-a
B=wt-b
T=/sys/kernel/tracing
ip netns add $A && ip netns add $B || exit 1
trap 'kill $(jobs -p) 2>/dev/null; ip netns del $A; ip netns del $B' EXIT
ip -n $A link set lo up; ip -n $B link set lo up
ip -n $A link add eth0 mtu 1500 type veth peer name eth0 mtu 1500 netns $B
ip -n $A addr add 10.99.0.1/24 dev eth0; ip -n $B addr add 10.99.0.2/24 dev eth0
ip -n $A link set eth0 up; ip -n $B link set eth0 up
ip netns exec $A ping -c 1 -W 3 10.99.0.2 >/dev/null || { echo "no veth"; exit 1; }
for p in wind tcp; do
	ip netns exec $B "$WP" -s -p $p -P 5001 > /tmp/mt-$p.log 2>&1 &
done
sleep 2
mountpoint -q $T || mount -t tracefs tracefs $T
echo 8192 > $T/buffer_size_kb

snap() {	# snap FILE: B's counters and the machine's
	{
		ip netns exec $B cat /proc/net/wind_stat
		ip netns exec $B awk '/^Tcp:/ { if (h) { for (i = 2; i <= NF; i++) print "Tcp" n[i], $i } else { for (i = 2; i <= NF; i++) n[i] = $i; h = 1 } }' /proc/net/snmp
		awk '/^ctxt/ { print "ctxt", $2 } /^cpu / { print "softirq_ticks", $8; print "sys_ticks", $4; print "user_ticks", $2 }' /proc/stat
	} > "$1"
}
delta() {	# delta BEFORE AFTER NAME
	awk -v k="$3" 'NR == FNR { if ($1 == k) a = $2; next } $1 == k { print $2 - a }' "$1" "$2"
}
for p in wind tcp; do
	args=
	[ $p = tcp ] && args=-N
	echo > $T/trace
	for e in wind/wind_ack_send wind/wind_deliver wind/wind_packet_recv sched/sched_wakeup; do
		[ -e $T/events/$e/enable ] && echo 1 > $T/events/$e/enable
	done
	echo 1 > $T/tracing_on
	snap /tmp/mt-0
	out=$(ip netns exec $A "$WP" -c 10.99.0.2 -P 5001 -p $p -t msgs -m 64 -S 8 $args -r 1 -d "$SECS" -j)
	snap /tmp/mt-1
	echo 0 > $T/tracing_on
	for e in wind/wind_ack_send wind/wind_deliver wind/wind_packet_recv sched/sched_wakeup; do
		[ -e $T/events/$e/enable ] && echo 0 > $T/events/$e/enable
	done
	rcvd=$(printf '%s' "$out" | grep -o '"rcvd": [0-9]*' | head -1 | cut -d' ' -f2)
	rate=$(printf '%s' "$out" | grep -o '"median": [0-9.]*' | head -1 | cut -d' ' -f2)
	echo "== $p: $rcvd messages delivered, $rate msg/s"
	for k in InPackets InMessages OutAcks InBundles InBundled InErrRcvbuf InErrBacklog OutPackets TcpInSegs TcpOutSegs ctxt softirq_ticks sys_ticks user_ticks; do
		d=$(delta /tmp/mt-0 /tmp/mt-1 $k)
		[ -n "$d" ] && [ "$d" != 0 ] && echo "   $k: $d ($(awk -v d="$d" -v n="$rcvd" 'BEGIN { printf "%.3f", d / n }') per message)"
	done
	# tracepoints (the whole kernel: both netns)
	grep -v '^#' $T/trace > /tmp/mt-trace-$p
	for e in wind_ack_send wind_deliver wind_packet_recv; do
		n=$(grep -c " $e:" /tmp/mt-trace-$p)
		[ "$n" != 0 ] && echo "   trace $e: $n ($(awk -v d="$n" -v n="$rcvd" 'BEGIN { printf "%.3f", d / n }') per message)"
	done
	n=$(grep ' sched_wakeup:' /tmp/mt-trace-$p | grep -c 'comm=windperf')
	echo "   trace sched_wakeup of windperf: $n ($(awk -v d="$n" -v n="$rcvd" 'BEGIN { printf "%.3f", d / n }') per message)"
	if [ $p = wind ]; then
		echo "   wind_ack_send per ack field: $(grep ' wind_ack_send:' /tmp/mt-trace-$p | head -3 | sed 's/^.*wind_ack_send: //' | paste -sd'|')"
		echo "   ACKs by destination (top 8):"
		grep ' wind_ack_send:' /tmp/mt-trace-$p | grep -o -- '-> [0-9.]*:[0-9]*' | sort | uniq -c | sort -rn | head -8 | sed 's/^/      /'
	fi
	# the trace lines' throughput cost is the same for both: compare them
	# by their ratios, not absolute rates
done
# perf under TCG is slow: in one try record and report did not finish
# within 5 minutes; WIND_TRACE_PERF=1 asks for it
if [ "${WIND_TRACE_PERF:-0}" = 1 ] && command -v perf >/dev/null; then
	echo "== perf: Wind, cpu-clock, whole machine ($SECS s)"
	ip netns exec $A "$WP" -c 10.99.0.2 -P 5001 -p wind -t msgs -m 64 -S 8 -r 1 -d "$SECS" > /tmp/mt-perf-run 2>&1 &
	perf record -q -e cpu-clock -a -o /tmp/mt-perf.data -- sleep "$SECS" 2>/dev/null
	wait
	perf report -i /tmp/mt-perf.data --stdio --sort sym --percent-limit 1.2 2>/dev/null | grep -v '^#' | grep -v '^$' | head -40
fi
