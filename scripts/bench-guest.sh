#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark, inside the VM (scripts/bench boots it; make bench):
# Wind, UDP and TCP through windperf, row by row in the same run, plus
# iperf3's view of UDP and TCP, and the kernel memory of idle Wind peers.
# Writes bench/results/raw.jsonl (one windperf -j object per line, tagged
# with its row), iperf3-*.json and meta.json; bench/report.py turns them
# into results.json, results.md and the plots.
#
# Topology: two network namespaces joined by one veth pair, MTU 1500.
#
#   netns wbench-a (client)                       netns wbench-b (servers)
#  +----------------------------+               +----------------------------+
#  | windperf -c (wind|udp|tcp) |               | windperf -s wind  :5001    |
#  | iperf3 -c                  |               | windperf -s udp   :5001    |
#  |                            |               | windperf -s tcp   :5001    |
#  |                            |               | windperf -s -6 (3) :5001   |
#  |                            |               | windperf -s -n 256 :6001.. |
#  |                            |               | windperf -s -n 1000 :20001 |
#  |                            |               | iperf3 -s         :5201    |
#  |  eth0 10.99.0.1/24         |  veth pair    |         10.99.0.2/24 eth0  |
#  |  [ipv6 rows: fd99::1/64]   |               |   [ipv6 rows: fd99::2/64]  |
#  |  [netem loss X%]  ---------+---------------+---------  [netem loss X%] |
#  +----------------------------+   MTU 1500    +----------------------------+
#
# The loss rows put "netem loss X% limit 10000" on both ends (so data and
# acknowledgments are lost alike) and cap both ends at one MTU-sized
# segment per skb (gso_max_segs 1): netem drops a whole skb, and a TCP
# GSO skb of up to 64 KB passes a veth unsegmented, so without the cap
# "1% loss" would be 1% of TCP's super-packets.  The other rows run on
# the plain veth with its default offloads (TCP's GSO included).
#
# The encap rows run Wind raw and inside UDP (net.wind.encap in the
# client's netns; the server answers in the form it is reached in) in
# rounds, raw then UDP back to back, UDP and TCP beside each, so that
# "inside UDP over raw" is the median of per-round ratios.
#
# The ipv6 rows give both eth0 an IPv6 address too (fd99::1/64 and
# fd99::2/64, nodad), start IPv6-only servers (windperf -s -6, IPV6_V6ONLY)
# beside the IPv4 ones on the same ports, and run in rounds: Wind raw
# over IPv4 (the reference), raw over IPv6, inside UDP over IPv6
# (net.wind.encap=1 in the client's netns), back to back, each with UDP
# and TCP over the same IP version beside it.
#
# Environment: WIND_BENCH_QUICK=1 (short runs, for development),
# WIND_BENCH_ONLY="rtt sync bulk rr peers encap ipv6 loss iperf mem" (a subset),
# WIND_BENCH_LOSS="0 0.1 1 5".
set -u

REPO=${WIND_ROOT:-$(cd "$(dirname "$0")/.." && pwd -P)}
OUT=$REPO/bench/results
WP=$REPO/userspace/windperf/windperf
A=wbench-a
B=wbench-b
IPA=10.99.0.1
IPB=10.99.0.2
IP6A=fd99::1
IP6B=fd99::2
PROTOS="wind udp tcp"
ALL=wind,udp,tcp
ROUND=
ONLY=${WIND_BENCH_ONLY:-rtt sync bulk rr peers encap ipv6 loss iperf mem}
LOSSES=${WIND_BENCH_LOSS:-0 0.1 1 5}

if [ "${WIND_BENCH_QUICK:-0}" = 1 ]; then
	LAT="-r 5 -d 0.15"	# latency rows: repetitions, seconds each
	BULK="-r 2 -d 0.3"	# goodput rows
	LOSSRUN="-r 1 -d 0.3"
	LOSSROUNDS=2
	ENCAPROUNDS=2
	IPERF_T=1
else
	LAT="-r 15 -d 0.25"
	BULK="-r 5 -d 1"
	LOSSRUN="-r 1 -d 1.2"
	LOSSROUNDS=4
	ENCAPROUNDS=5
	IPERF_T=3
fi

pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	ip netns del $A 2>/dev/null
	ip netns del $B 2>/dev/null
}
trap cleanup EXIT

want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }
say() { printf '%s\n' "$*"; }
die() { say "bench: $*" >&2; exit 1; }

[ -x "$WP" ] || die "$WP missing: run make first"
mkdir -p "$OUT" || die "cannot write $OUT"
rm -f "$OUT"/raw.jsonl "$OUT"/iperf3-*.json "$OUT"/meta.json "$OUT"/errors.log

# ---- topology -------------------------------------------------------------
ip netns del $A 2>/dev/null
ip netns del $B 2>/dev/null
ip netns add $A && ip netns add $B &&
ip -n $A link set lo up && ip -n $B link set lo up &&
ip -n $A link add eth0 mtu 1500 type veth peer name eth0 mtu 1500 netns $B &&
ip -n $A addr add $IPA/24 dev eth0 && ip -n $B addr add $IPB/24 dev eth0 &&
ip -n $A link set eth0 up && ip -n $B link set eth0 up &&
ip netns exec $A sysctl -q -w net.ipv4.ipfrag_time=1 &&
ip netns exec $B sysctl -q -w net.ipv4.ipfrag_time=1 || die "cannot build the netns"
for _ in $(seq 500); do
	ip -n $A -o link show dev eth0 | grep -q 'state UP' &&
		ip -n $B -o link show dev eth0 | grep -q 'state UP' && break
	sleep 0.01
done
ip netns exec $A ping -c 1 -W 2 $IPB >/dev/null || die "no connectivity over the veth"
if want ipv6; then
	ip -n $A addr add $IP6A/64 dev eth0 nodad &&
	ip -n $B addr add $IP6B/64 dev eth0 nodad || die "cannot add the IPv6 addresses"
	ip netns exec $A ping -6 -c 1 -W 2 $IP6B >/dev/null || die "no IPv6 connectivity over the veth"
fi

ina() { ip netns exec $A "$@"; }
inb() { ip netns exec $B "$@"; }

# start_server LOGNAME ARGS...: a windperf server in B, waits until ready
start_server() {
	local log=/tmp/wbench-$1.log
	shift
	inb "$WP" -s "$@" > "$log" 2>&1 &
	pids+=($!)
	for _ in $(seq 600); do
		grep -q ready "$log" 2>/dev/null && return 0
		kill -0 "${pids[-1]}" 2>/dev/null || break
		sleep 0.05
	done
	cat "$log" >&2
	die "server $* did not start"
}

stop_last_server() {
	kill "${pids[-1]}" 2>/dev/null
	wait "${pids[-1]}" 2>/dev/null
	unset 'pids[-1]'
}

nrows=0
nruns=0
# run ROW LOSS PROTOS WINDPERF-ARGS...: one windperf client for the
# protocols (comma-separated; their repetitions alternate), one JSON line
# per protocol, tagged with the row and the loss; to $SERVER (default
# B's IPv4 address)
run() {
	local row=$1 loss=$2 protos=$3 out rc line proto
	shift 3
	nruns=$((nruns + 1))
	out=$(ina "$WP" -c "${SERVER:-$IPB}" -p "$protos" -j -W 600 "$@" 2>>"$OUT/errors.log")
	rc=$?
	if [ $rc -ne 0 ] || [ -z "$out" ]; then
		say "    $protos: FAILED (exit $rc; see bench/results/errors.log)"
		printf '{"row": "%s", "loss": %s, "proto": "%s", "failed": true, "args": "%s"}\n' \
			"$row" "$loss" "$protos" "$*" >> "$OUT/raw.jsonl"
		return 1
	fi
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		printf '{"row": "%s", "loss": %s, "run": %d, %s%s\n' "$row" "$loss" $nruns \
			"${ROUND:+\"round\": $ROUND, }" "${line#\{}" >> "$OUT/raw.jsonl"
		proto=$(printf '%s' "$line" | sed -n 's/^{"proto": "\([a-z]*\)".*/\1/p')
		printf '%s' "$line" | grep -o '"size": [0-9]*, "reply": [0-9]*, "peers": [0-9]*, [^]]*"unit": "[^"]*", "median": [0-9.]*, "min": [0-9.]*, "max": [0-9.]*' |
			sed -E 's/"size": ([0-9]+), "reply": ([0-9]+), "peers": ([0-9]+).*"unit": "([^"]*)", "median": ([0-9.]+), "min": ([0-9.]+), "max": ([0-9.]+)/\1 \2 \3 \4 \5 \6 \7/' |
			while read -r size reply peers unit med lo hi; do
				[ "$reply" != 0 ] && size="$size/$reply"
				[ "$peers" -gt 1 ] && size="$size B, $peers peers" || size="$size B"
				printf '    %-4s %18s  %10s %s  (min %s, max %s)\n' "$proto" "$size" "$med" "$unit" "$lo" "$hi"
			done
	done <<< "$out"
}

# row TITLE: the progress line
row() {
	nrows=$((nrows + 1))
	say "[$(date +%H:%M:%S)] row $nrows: $*"
}

# iperf_say NAME SECTION: the Mbit/s of an iperf3 -J result
iperf_say() {
	local bps
	bps=$(grep -A 12 "\"$2\"" "$OUT/iperf3-$1.json" 2>/dev/null |
		sed -n 's/.*"bits_per_second":[[:space:]]*\([0-9.e+]*\).*/\1/p' | head -n 1)
	[ -n "$bps" ] && say "    iperf3 $1: $(awk -v b="$bps" 'BEGIN { printf "%.1f", b / 1e6 }') Mbit/s received"
}

netem() {
	local loss=$1 ns
	[ "$loss" = off ] || frag_drain
	for ns in $A $B; do
		if [ "$loss" = off ]; then
			ip netns exec $ns tc qdisc del dev eth0 root 2>/dev/null
			ip -n $ns link set dev eth0 gso_max_segs 65535
		else
			ip -n $ns link set dev eth0 gso_max_segs 1
			ip netns exec $ns tc qdisc replace dev eth0 root netem loss "$loss%" limit 10000 ||
				die "tc netem failed"
		fi
	done
}

# frag_drain: wait until neither netns holds IP fragments (at most 35 s).
# UDP's 8 and 64 KiB datagrams are fragmented; under loss, a datagram
# that lost a fragment holds the rest until ipfrag_time, and once the
# netns holds ipfrag_high_thresh (4 MB) of them every fragment is
# dropped.  One row must not leave that to the next, so the netns run
# with ipfrag_time 1 s (default 30) and every loss row starts clean.
frag_held() {
	! ip netns exec "$1" cat /proc/net/sockstat | grep -q '^FRAG: inuse 0 '
}

frag_drain() {
	for _ in $(seq 350); do
		frag_held $A || frag_held $B || return 0
		sleep 0.1
	done
	say "    IP fragments still held after 35 s"
}

# ---- metadata -------------------------------------------------------------
{
	printf '{"date": "%s", "kernel": "%s", ' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(uname -r)"
	printf '"guest_cpus": %s, ' "$(nproc)"
	printf '"guest_cpu_model": "%s", ' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
	printf '"guest_mem_kb": %s, ' "$(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"
	printf '"accel": "QEMU TCG", "mtu": 1500, '
	printf '"wind_params": {'
	first=1
	for f in /proc/sys/net/wind/*; do
		[ -r "$f" ] || continue
		[ $first = 1 ] || printf ', '
		first=0
		printf '"%s": %s' "$(basename "$f")" "$(cat "$f")"
	done
	printf '}, "git": "%s", ' "$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)"
	printf '"quick": %s, "lat_args": "%s", "bulk_args": "%s", "loss_args": "%s", "loss_rounds": %s}\n' \
		"${WIND_BENCH_QUICK:-0}" "$LAT" "$BULK" "$LOSSRUN" "$LOSSROUNDS"
} > "$OUT/meta.json"
start=$(date +%s)
say "bench: $(uname -r), $(nproc) CPUs (QEMU TCG), veth MTU 1500; writing $OUT"

# ---- the rows -------------------------------------------------------------
for p in $PROTOS; do
	start_server "$p" -p "$p" -P 5001
done

if want rtt; then
	for size in 16 32 128 1024; do
		row "rtt, ping-pong of $size B"
		run rtt null $ALL -P 5001 -t rtt -m "$size" $LAT
	done
fi

if want sync; then
	row "sync: Wind sendmsg(MSG_WIND_SYNC) of 32 B (beside the 32 B ping-pong above)"
	run sync null wind -P 5001 -t sync -m 32 $LAT
fi

if want rr; then
	row "rr: 64 B request, 8 KiB reply (DSM page fetch)"
	run rr null $ALL -P 5001 -t rr -q 64 -m 8192 $LAT
fi

if want bulk; then
	for size in 1024 8192 65536; do
		row "bulk: one-way messages of $size B (UDP: 65507 for 64 KiB)"
		run bulk null $ALL -P 5001 -t bulk -m "$size" $BULK
	done
fi

if want iperf; then
	inb iperf3 -s -p 5201 > /tmp/wbench-iperf3.log 2>&1 &
	pids+=($!)
	sleep 0.5
	# right after windperf's bulk rows, so that both see the same machine
	row "iperf3 TCP, $IPERF_T s"
	ina iperf3 -c $IPB -p 5201 -t "$IPERF_T" -J > "$OUT/iperf3-tcp.json" 2>>"$OUT/errors.log" ||
		say "    iperf3 tcp failed"
	iperf_say tcp sum_received
	for len in 1472 8192; do
		row "iperf3 UDP -l $len -b 0, $IPERF_T s"
		ina iperf3 -c $IPB -p 5201 -u -b 0 -l $len -t "$IPERF_T" -J > "$OUT/iperf3-udp-$len.json" 2>>"$OUT/errors.log" ||
			say "    iperf3 udp -l $len failed"
		iperf_say "udp-$len" sum_received
	done
	stop_last_server
fi

if want peers; then
	for p in $PROTOS; do
		start_server "$p-256" -p "$p" -P 6001 -n 256
	done
	row "peers: one client socket, 32 B ping-pong round robin over 2 and over 256 server sockets"
	run peers null $ALL -P 6001 -n 256 -k 2,256 -t peers -m 32 $LAT
	for _ in $PROTOS; do
		stop_last_server
	done
fi

if want encap; then
	for ROUND in $(seq "$ENCAPROUNDS"); do
		for form in raw udp; do
			ina sysctl -qw net.wind.encap=$([ $form = udp ] && echo 1 || echo 0)
			row "encap round $ROUND/$ENCAPROUNDS, Wind $form: ping-pong 32 B, page fetch, bulk 64 KiB"
			run "encap-$form-rtt" null $ALL -P 5001 -t rtt -m 32 $LOSSRUN
			run "encap-$form-rr" null $ALL -P 5001 -t rr -q 64 -m 8192 $LOSSRUN
			run "encap-$form-bulk" null $ALL -P 5001 -t bulk -m 65536 $LOSSRUN
		done
	done
	ROUND=
	ina sysctl -qw net.wind.encap=0
fi

# IPv6: Wind raw over IPv4 (the reference), raw over IPv6 and inside UDP
# over IPv6, in rounds; within a round each row runs in the three forms
# back to back (seconds apart: a ratio to raw IPv4 pairs runs of the same
# round and row); UDP and TCP over the same IP version beside each.  The
# IPv6 servers are IPv6-only, on the same ports.
if want ipv6; then
	for p in $PROTOS; do
		start_server "$p-v6" -6 -p "$p" -P 5001
	done
	for ROUND in $(seq "$ENCAPROUNDS"); do
		for test in rtt rr bulk; do
			case $test in
			rtt) args="-t rtt -m 32"; what="ping-pong 32 B" ;;
			rr) args="-t rr -q 64 -m 8192"; what="page fetch 64 B / 8 KiB" ;;
			bulk) args="-t bulk -m 65536"; what="bulk 64 KiB" ;;
			esac
			# the three forms of a row seconds apart
			row "ipv6 round $ROUND/$ENCAPROUNDS, $what: Wind raw IPv4, raw IPv6, IPv6 inside UDP"
			for form in raw4 raw6 udp6; do
				case $form in
				raw4) SERVER=$IPB ;;
				*) SERVER=$IP6B ;;
				esac
				ina sysctl -qw net.wind.encap=$([ $form = udp6 ] && echo 1 || echo 0)
				say "   $form:"
				run "ipv6-$form-$test" null $ALL -P 5001 $args $LOSSRUN
			done
		done
	done
	ROUND=
	SERVER=
	ina sysctl -qw net.wind.encap=0
	for _ in $PROTOS; do
		stop_last_server
	done
fi

# The loss rows run in rounds.  A round runs each row (bulk 1, 8 and 64
# KiB, the page fetch) at every loss rate in turn, back to back, and a
# row's repetitions are its rounds: a ratio between two loss rates (Wind
# at 1% over Wind at 0%) is the median of per-round ratios of runs
# seconds apart, as the protocols' ratios are.  Measured minutes apart,
# the host's speed alone moved such a ratio by tens of percent.
if want loss; then
	for ROUND in $(seq "$LOSSROUNDS"); do
		for size in 1024 8192 65536 rr; do
			for loss in $LOSSES; do
				netem "$loss"
				if [ $size = rr ]; then
					row "loss round $ROUND/$LOSSROUNDS, $loss%: rr 64 B / 8 KiB"
					run rr "$loss" $ALL -P 5001 -t rr -q 64 -m 8192 $LOSSRUN
				else
					row "loss round $ROUND/$LOSSROUNDS, $loss%: bulk $size B"
					run bulk "$loss" $ALL -P 5001 -t bulk -m "$size" $LOSSRUN
				fi
			done
		done
	done
	ROUND=
	netem off
fi

if want mem; then
	row "memory: one Wind socket talks once to 1000 peers (1000 sockets in $B)"
	start_server mem -p wind -P 20001 -n 1000
	run mem null wind -P 20001 -n 1000 -t mem -r 1 -d 1
	tail -n 1 "$OUT/raw.jsonl" | grep -o '"per_peer[a-z_]*": [0-9.]*' | sed 's/^/    /'
	stop_last_server
fi

say "bench: $nrows rows in $(( $(date +%s) - start )) s"
