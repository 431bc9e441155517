#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark, inside the VM (scripts/benchmarks/bench boots it; make bench):
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
# The busy rows (scripts/benchmarks/bench runs them, with the rxe rows, in a boot of
# 2 vCPUs) run the 32 B ping-pong of the three protocols with busy
# polling off and with net.core.busy_read = busy_poll = 50 µs (and 1000
# µs: under TCG an exchange takes some 200 µs), each on the veth as it
# is and with "ethtool -K eth0 gro on tso off" on both
# ends: a veth has a NAPI instance only with GRO on, and hands it no skb
# it could not aggregate (with TSO on at the sending end, none of Wind's),
# so that without it busy polling has nothing to spin on.
#
# The rxe rows set Wind beside Soft-RoCE (rdma_rxe and perftest, brought
# up by scripts/benchmarks/rxe-setup on a second veth pair in the initial netns):
# ib_send_lat -s 32 beside the 32 B ping-pong, ib_write_lat -s 8192 beside
# a sync Direct Map write of 8 KiB (scripts/benchmarks/pagecost.c, "dmsync"),
# ib_write_bw -s 8192 beside Direct Map pages per second (and UDP recvfrom
# + memcpy; at 0% loss also with each side's receive work steered to its
# own vCPU by RPS, as between two hosts: rps_split), ib_write_bw -s 65536
# beside bulk 64 KiB, then the throughput rows again at netem loss 1% on
# both ends of both links.  They go to
# rxe.jsonl (perftest and pagecost) and raw.jsonl (windperf); a kernel on
# which Soft-RoCE cannot run gets "n/a (reason)".
#
# The read rows: Wind's one-sided read of 8 KiB (windperf -t read: the
# server's kernel serves it in softirq from a region the server
# registered, its process never wakes; landed in the client's own region,
# then into recvmsg()) and, in the same boot, the request/reply page
# fetch it replaces (-t rr -q 64 -m 8192), Wind alone; rxe-read (the
# 2-vCPU boot, with the rxe rows' Soft-RoCE) the same two beside
# ib_read_lat -s 8192, then again with each side's receive work on its
# own vCPU (rps_split, rxe-read-rps).
#
# The ipv6 rows give both eth0 an IPv6 address too (fd99::1/64 and
# fd99::2/64, nodad), start IPv6-only servers (windperf -s -6, IPV6_V6ONLY)
# beside the IPv4 ones on the same ports, and run in rounds: Wind raw
# over IPv4 (the reference), raw over IPv6, inside UDP over IPv6
# (net.wind.encap=1 in the client's netns), back to back, each with UDP
# and TCP over the same IP version beside it.
#
# The incast rows build a topology of their own: a bridge in
# netns wbench-br with 17 veth ports, the receiver wbench-r (10.98.0.1)
# and 16 senders wbench-s1..16 (10.98.0.2..17), MTU 1500.  windperf -t
# incast runs in wbench-r (its counters are the receiver's) and forks one
# sender into each wbench-sN; 1 sender, then all 16 at once, stream
# 64 KiB messages to one server socket (TCP: one connection each), their
# repetitions alternating.
#
#   wbench-s1  10.98.0.2  eth0 --+
#   ...                          +-- br0 (netns wbench-br) --+-- eth0 10.98.0.1  wbench-r
#   wbench-s16 10.98.0.17 eth0 --+                                windperf -s wind|udp|tcp :5003
#
# The hol rows run on the two-netns veth: a 32 B ping-pong alone, and
# while a second thread of the same client streams 64 KiB messages on the
# same socket to the same server (TCP: one connection carrying both);
# Wind's pings are async-reliable (MSG_WIND_RELIABLE), free to overtake.
# The hol-split rows (the 2-vCPU boot) are the same, as between two hosts:
# the client's two threads and A's receive work on vCPU 0, the server and
# B's receive work on vCPU 1 (taskset and RPS: rps_split).  With one vCPU
# the stream's sender, the server and the pinger share one CPU, and a
# ping waits for the scheduler as much as for the network.
#
# Environment: WIND_BENCH_QUICK=1 (short runs, for development),
# WIND_BENCH_ONLY="rtt sync bulk msgs rr read peers kpeers encap ipv6 loss iperf mem incast hol busy hol-split rxe rxe-read"
# (a subset), WIND_BENCH_LOSS="0 0.1 1 5", WIND_BENCH_APPEND=1 (add to
# the results of an earlier boot: meta-2.json instead of meta.json).
set -u

REPO=${WIND_ROOT:-$(cd "$(dirname "$0")/../.." && pwd -P)}
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
ONLY=${WIND_BENCH_ONLY:-rtt sync bulk msgs rr read peers kpeers encap ipv6 loss iperf mem incast hol busy hol-split rxe rxe-read}
APPEND=${WIND_BENCH_APPEND:-0}
META=meta.json
[ "$APPEND" = 1 ] && META=meta-2.json
LOSSES=${WIND_BENCH_LOSS:-0 0.1 1 5}

if [ "${WIND_BENCH_QUICK:-0}" = 1 ]; then
	LAT="-r 5 -d 0.15"	# latency rows: repetitions, seconds each
	BULK="-r 2 -d 0.3"	# goodput rows
	LOSSRUN="-r 1 -d 0.3"
	LOSSROUNDS=2
	ENCAPROUNDS=2
	IPERF_T=1
	RXE_T=1		# perftest -D seconds
	RXE_N=300	# perftest latency iterations, pagecost pages
else
	LAT="-r 15 -d 0.25"
	BULK="-r 5 -d 1"
	LOSSRUN="-r 1 -d 1.2"
	LOSSROUNDS=4
	ENCAPROUNDS=5
	IPERF_T=3
	RXE_T=3
	RXE_N=2000
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
	declare -F rxe_down >/dev/null && rxe_down
	declare -F incast_down >/dev/null && incast_down
}
trap cleanup EXIT

want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }
say() { printf '%s\n' "$*"; }
die() { say "bench: $*" >&2; exit 1; }

[ -x "$WP" ] || die "$WP missing: run make first"
mkdir -p "$OUT" || die "cannot write $OUT"
if [ "$APPEND" = 1 ]; then
	rm -f "$OUT/$META" "$OUT"/rxe.jsonl
else
	rm -f "$OUT"/raw.jsonl "$OUT"/iperf3-*.json "$OUT"/meta*.json "$OUT"/errors.log \
		"$OUT"/rxe.jsonl
fi

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
# With 2 vCPUs or more (the busy and rxe rows), the clients run on CPU 0
# and the servers on CPU 1, every protocol and perftest alike: each
# exchange crosses vCPUs, where a busy-polling receiver can save the
# wake-up.  With 1 vCPU, nothing is pinned.
PIN_A=()
PIN_B=()
if [ "$(nproc)" -ge 2 ] && [ "${WIND_BENCH_PIN:-1}" = 1 ]; then
	PIN_A=(taskset -c 0)
	PIN_B=(taskset -c 1)
fi

# start_server LOGNAME ARGS...: a windperf server in B, waits until ready.
# The log goes first: rows reuse its name, and the shell truncates it only
# once the child runs, so a "ready" of the row before could pass for this
# server's when this one fails (EADDRINUSE) before it writes anything.
start_server() {
	local log=/tmp/wbench-$1.log
	shift
	rm -f "$log"
	inb "${PIN_B[@]}" "$WP" -s "$@" > "$log" 2>&1 &
	pids+=($!)
	for _ in $(seq 600); do
		grep -q ready "$log" 2>/dev/null && return 0
		kill -0 "${pids[-1]}" 2>/dev/null || break
		sleep 0.05
	done
	cat "$log" >&2
	# What holds the port, for a bind() that failed (EADDRINUSE once,
	# not reproduced): B's sockets and every windperf still running
	{
		echo "B's Wind sockets (windctl show) and UDP/TCP ones (ss):"
		inb "$REPO/userspace/windctl/windctl" show 2>&1
		inb ss -aunpt 2>&1
		echo "windperf processes:"
		pgrep -a windperf
	} >&2
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
	out=$(ip netns exec "${CLIENT_NS:-$A}" "${PIN_A[@]}" "$WP" -c "${SERVER:-$IPB}" -p "$protos" -j -W 600 "$@" 2>>"$OUT/errors.log")
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
	# ERMS decides how the kernel copies to user space (scripts/qemu/vm)
	printf '"guest_cpu_model": "%s, ERMS %s", ' \
		"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)" \
		"$(grep -qw erms /proc/cpuinfo && echo on || echo off)"
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
} > "$OUT/$META"
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

if want read; then
	row "read: 8 KiB one-sided read (landed, then into recvmsg) beside the 64 B / 8 KiB page fetch"
	# shellcheck disable=SC2162 # a row named read, not read(1)
	run read null wind -P 5001 -t read -m 8192 $LAT
	run read-rr null wind -P 5001 -t rr -q 64 -m 8192 $LAT
fi

if want bulk; then
	for size in 1024 8192 65536; do
		row "bulk: one-way messages of $size B (UDP: 65507 for 64 KiB)"
		run bulk null $ALL -P 5001 -t bulk -m "$size" $BULK
	done
fi

# The msgs rows (small messages): 64 B one-way messages from 1
# and from 8 sending processes to one server socket, delivered per second;
# then Wind alone again with MSG_MORE on all but the last of each batch of
# 16 (bundling).
if want msgs; then
	for s in 1 8; do
		row "msgs: 64 B async messages/s, $s sender(s) -> 1 receiver (delivered)"
		run "msgs$s" null $ALL -P 5001 -t msgs -m 64 -S "$s" $BULK
		row "msgs: the same, Wind with MSG_MORE (batches of 16)"
		run "msgs$s-more" null wind -P 5001 -t msgs -m 64 -S "$s" -M $BULK
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

# The kpeers rows: the kernel's own message transports (SCTP, TIPC, RDS
# over TCP) beside Wind, UDP and TCP (scripts/benchmarks/bench-kpeers-lib).  TIPC
# between two netns of one kernel takes its shortcut (tipc_lxc_xmit):
# its messages never cross the veth, so its rows here say nothing of its
# protocol; the kpeers-lan rows (two VMs, scripts/benchmarks/bench) judge it.
if want kpeers; then
	# shellcheck source=scripts/benchmarks/bench-kpeers-lib
	. "$REPO/scripts/benchmarks/bench-kpeers-lib"
	if ! kp_modules || ! kp_tipc_up ina || ! kp_tipc_up inb || ! kp_tipc_wait ina; then
		say "    kpeers: n/a (see above)"
	else
		for p in $KP_PROTOS; do
			start_server "$p" -p "$p" -P 5001 -A $IPB
		done
		for p in $PROTOS $KP_PROTOS; do
			start_server "$p-256" -p "$p" -P 6001 -n 256 -A $IPB
		done
		for KPRUN in $(seq "${WIND_BENCH_KP_RUNS:-1}"); do
			ROUND=
			[ "${WIND_BENCH_KP_RUNS:-1}" -gt 1 ] && ROUND=$KPRUN
			kp_rows kp
		done
		ROUND=
		for _ in $PROTOS $KP_PROTOS $KP_PROTOS; do
			stop_last_server
		done
	fi
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

# ---- incast and head-of-line ----------------------------------------------
INC_N=${WIND_BENCH_INCAST_N:-16}
INC_BR=wbench-br
INC_R=wbench-r
INC_S=wbench-s
INC_IP=10.98.0.1

incast_down() {
	local i
	ip netns del $INC_R 2>/dev/null
	for i in $(seq "$INC_N"); do
		ip netns del $INC_S$i 2>/dev/null
	done
	ip netns del $INC_BR 2>/dev/null
}

# incast_up: the bridge, the receiver and INC_N senders (see the top)
incast_up() {
	local i ns
	incast_down
	ip netns add $INC_BR && ip -n $INC_BR link set lo up &&
	ip -n $INC_BR link add br0 type bridge &&
	ip -n $INC_BR link set br0 up || return 1
	for i in $(seq 0 "$INC_N"); do
		ns=$INC_S$i
		[ "$i" = 0 ] && ns=$INC_R
		ip netns add $ns && ip -n $ns link set lo up &&
		ip -n $ns link add eth0 mtu 1500 type veth peer name p$i mtu 1500 netns $INC_BR &&
		ip -n $INC_BR link set p$i master br0 &&
		ip -n $INC_BR link set p$i up &&
		ip -n $ns addr add 10.98.0.$((i + 1))/24 dev eth0 &&
		ip -n $ns link set eth0 up &&
		ip netns exec $ns sysctl -q -w net.ipv4.ipfrag_time=1 || return 1
	done
	for i in $(seq "$INC_N"); do
		ip netns exec $INC_S$i ping -c 1 -W 5 $INC_IP >/dev/null || return 1
	done
}

# softnet_drops: packets the backlog queues dropped, all CPUs
softnet_drops() {
	local d=0 x
	for x in $(awk '{ print $2 }' /proc/net/softnet_stat); do
		d=$((d + 16#$x))
	done
	echo $d
}

if want incast; then
	if ! incast_up; then
		say "    incast: cannot build the bridge topology"
	else
		for p in $PROTOS; do
			ip netns exec $INC_R "$WP" -s -p "$p" -P 5003 > "/tmp/wbench-incast-$p.log" 2>&1 &
			pids+=($!)
		done
		for p in $PROTOS; do
			for _ in $(seq 600); do
				grep -q ready "/tmp/wbench-incast-$p.log" 2>/dev/null && break
				sleep 0.05
			done
		done
		row "incast: 64 KiB messages from 1, then $INC_N senders at once (a netns each, one bridge) to one socket"
		d0=$(softnet_drops)
		# Wind apart: a stalled Wind run (a sender gone after 60 s) must
		# not take UDP's and TCP's figures with it
		for ps in wind udp,tcp; do
			CLIENT_NS=$INC_R SERVER=$INC_IP run incast null $ps -P 5003 -t incast -S "$INC_N" \
				-E $INC_S -k "1,$INC_N" -m 65536 $BULK
		done
		say "    backlog drops (softnet_stat) during the row: $(( $(softnet_drops) - d0 ))"
		for ns in $INC_R ${INC_S}1; do
			say "    $ns wind_stat: $(ip netns exec $ns cat /proc/net/wind_stat |
				grep -E '^(InPackets|InErrRcvbuf|InErrBacklog|InDuplicates|OutRetransmits|OutProbes|OutWinProbes|OutTimeouts|OutCwndCuts|PeersUnreachable) ' | paste -sd' ')"
		done
		tail -n 3 "$OUT/raw.jsonl" | grep -o '"proto": "[a-z]*"\|"senders": [0-9]*, "rcv_retrans": [0-9]*, "rcv_rto": [0-9]*, "snd_retrans": [0-9]*, "snd_rto": [0-9]*' |
			paste -sd' ' | sed 's/^/    /'
		for _ in $PROTOS; do
			stop_last_server
		done
		incast_down
	fi
fi

# hol_run ROW: the hol client (both rows, alone and beside the stream),
# then each protocol's p99s and stream goodput on the progress output
hol_run() {
	run "$1" null $ALL -P 5001 -t hol -m 32 -q 65536 $LAT
	tail -n 3 "$OUT/raw.jsonl" | grep -o '"proto": "[a-z]*"\|"load": [01], "bulk_mbps": [0-9.]*\|"p99_us": [0-9.]*' |
		paste -sd' ' | sed 's/^/    /'
}

if want hol; then
	row "hol: 32 B ping-pong alone and beside a 64 KiB bulk stream on the same socket (Wind pings async-reliable)"
	hol_run hol
fi

# ---- busy polling ---------------------------------------------------------
# offloads napi|plain: "gro on tso off" on both ends (the veth's NAPI
# takes every protocol's skbs), or back to the veth's defaults
feature() {
	ip netns exec $A ethtool -k eth0 | sed -n "s/^$1: \([a-z]*\).*/\1/p"
}
GRO0=$(feature generic-receive-offload)
TSO0=$(feature tcp-segmentation-offload)
offloads() {
	local ns
	for ns in $A $B; do
		if [ "$1" = napi ]; then
			ip netns exec $ns ethtool -K eth0 gro on tso off >/dev/null 2>&1
		else
			ip netns exec $ns ethtool -K eth0 gro "${GRO0:-off}" tso "${TSO0:-on}" >/dev/null 2>&1
		fi
	done
	say "    veth $1: GRO $(feature generic-receive-offload), TSO $(feature tcp-segmentation-offload)"
}

busy() {
	sysctl -qw net.core.busy_read="$1" net.core.busy_poll="$1"
}

if want busy; then
	# new sockets take busy_read as their SO_BUSY_POLL: servers of their own
	for veth in plain napi; do
		offloads $veth
		uss="0 50"
		[ $veth = napi ] && uss="0 50 1000"
		for us in $uss; do
			busy $us
			for p in $PROTOS; do
				start_server "busy-$p" -p "$p" -P 5002
			done
			row "busy: ping-pong 32 B, veth $veth, busy_read = busy_poll = $us"
			run "busy-$veth-$us" null $ALL -P 5002 -t rtt -m 32 $LAT
			for _ in $PROTOS; do
				stop_last_server
			done
		done
	done
	busy 0
	offloads plain
fi

# ---- Soft-RoCE --------------------------------------------------------------
# rxe_put ROW LOSS TOOL SIZE LINE...: a line of rxe.jsonl
rxe_put() {
	local row=$1 loss=$2 tool=$3 size=$4
	shift 4
	printf '{"row": "%s", "loss": %s, "tool": "%s", "size": %s%s}\n' \
		"$row" "$loss" "$tool" "$size" "$*" >> "$OUT/rxe.jsonl"
}

RXE_PORT=18600
# perftest ROW LOSS TOOL SIZE ARGS...: server on rxeB, client on rxeA; the
# figures of its result line (the one under "#bytes")
perftest() {
	local row=$1 loss=$2 tool=$3 size=$4 line
	shift 4
	RXE_PORT=$((RXE_PORT + 1))
	timeout 120 "${PIN_B[@]}" "$tool" -d rxeB -x "$RXE_GB" -p $RXE_PORT -s "$size" "$@" \
		> /tmp/wbench-rxe-srv.log 2>&1 &
	local srv=$! i
	# its out-of-band TCP socket listens once the device is open: on a
	# loaded host that took more than a second
	for i in $(seq 600); do
		ss -Hltn "sport = :$RXE_PORT" 2>/dev/null | grep -q . && break
		kill -0 $srv 2>/dev/null || break
		sleep 0.1
	done
	line=$(timeout 120 "${PIN_A[@]}" "$tool" -d rxeA -x "$RXE_GA" -p $RXE_PORT -s "$size" "$@" $RXE_B 2>>"$OUT/errors.log" |
		awk '/#bytes/ { getline; print; exit }')
	wait $srv 2>/dev/null
	# shellcheck disable=SC2086
	set -- $line
	case "$tool:$#" in
	ib_read_lat:9)
		say "    $tool -s $size: typical $5 us, mean $6 us, p99 $8 us (a read's round trip)"
		rxe_put "$row" "$loss" "$tool" "$size" ", \"iters\": $2, \"t_min_us\": $3, \"t_typical_us\": $5, \"t_avg_us\": $6, \"p99_us\": $8"
		;;
	*_lat:9)
		say "    $tool -s $size: typical $5 us, mean $6 us, p99 $8 us (one way: half a round trip)"
		rxe_put "$row" "$loss" "$tool" "$size" ", \"iters\": $2, \"t_min_us\": $3, \"t_typical_us\": $5, \"t_avg_us\": $6, \"p99_us\": $8"
		;;
	*_bw:5)
		say "    $tool -s $size: $4 MB/s, $5 Mpps"
		rxe_put "$row" "$loss" "$tool" "$size" ", \"iters\": $2, \"mbytes_s\": $4, \"mpps\": $5"
		;;
	*)
		say "    $tool -s $size: FAILED (see bench/results/errors.log)"
		rxe_put "$row" "$loss" "$tool" "$size" ", \"failed\": true"
		;;
	esac
}

PC=/tmp/wbench-pagecost
# rps_split on|off: each veth end's receive work (RPS) on its own side's
# vCPU, A's on CPU 0 and B's on CPU 1 (where their processes are pinned),
# as between two hosts, where a packet's receive work runs on the machine
# that receives it; off: a veth's default, the receiver's packet work in
# the sender's system call, on the sender's vCPU
# The first packet RPS steers in a boot seeds the flow hash's key
# (net_get_random_once()), whose static branch is then turned off from a
# workqueue by patching the kernel's text; under TCG a vCPU running that
# code meanwhile can execute the breakpoint of the patching after it is
# done ("Oops: int3" in __skb_get_hash_net, a panic, seen once in a
# pagecost row).  So a ping goes first, and a pause for the work.
rps_split() {
	local a=0 b=0
	[ "$1" = on ] && a=1 b=2
	ina sh -c "echo $a > /sys/class/net/eth0/queues/rx-0/rps_cpus" &&
	inb sh -c "echo $b > /sys/class/net/eth0/queues/rx-0/rps_cpus" || return 1
	[ "$1" = on ] || return 0
	ina ping -c 1 -W 1 $IPB >/dev/null
	sleep 0.5
}
# pagecost ROW LOSS MODE PAGES: scripts/benchmarks/pagecost.c from A to B (MODE dm,
# udp, or dmsync: Direct Map sent with MSG_WIND_SYNC)
pagecost() {
	local row=$1 loss=$2 mode=$3 pages=$4 rmode=$3 port rl sl rp
	[ "$mode" = dmsync ] && rmode=dm
	RXE_PORT=$((RXE_PORT + 1))
	port=$RXE_PORT
	rm -f /tmp/wbench-pc.fifo && mkfifo /tmp/wbench-pc.fifo
	inb timeout 300 "${PIN_B[@]}" $PC recv "$rmode" $port "$pages" > /tmp/wbench-pc.fifo 2>>"$OUT/errors.log" &
	rp=$!
	exec 3< /tmp/wbench-pc.fifo
	read -r _ <&3
	sl=$(ina timeout 300 "${PIN_A[@]}" $PC send "$mode" $IPB $port "$pages" 2>>"$OUT/errors.log")
	rl=$(cat <&3)
	wait $rp
	exec 3<&-
	# shellcheck disable=SC2086
	set -- $rl
	if [ "${6:-}" = pages/s ] && [ "${3:-0}" -gt 0 ]; then
		say "    pagecost $mode: $3 of $pages pages of 8 KiB, ${7} pages/s, receiver ${11} CPU us/page"
		rxe_put "$row" "$loss" "pagecost-$mode" 8192 ", \"pages\": $3, \"pages_s\": $7, \"cpu_us_page\": ${11}"
	else
		say "    pagecost $mode: FAILED ($rl)"
		rxe_put "$row" "$loss" "pagecost-$mode" 8192 ", \"failed\": true"
	fi
	# shellcheck disable=SC2086
	set -- $sl
	if [ "${1:-}" = dmsync ]; then
		say "    sync Direct Map 8 KiB: mean ${5} us, median ${7} us, p99 ${9} us"
		rxe_put "$row-sync" "$loss" "pagecost-dmsync" 8192 ", \"sends\": $3, \"mean_us\": $5, \"median_us\": $7, \"p99_us\": $9"
	fi
}

if want hol-split && [ ${#PIN_A[@]} -gt 0 ]; then
	row "hol-split: the hol rows with each side's threads and receive work on its own vCPU (taskset, RPS)"
	if rps_split on; then
		hol_run hol-split
	else
		say "    RPS: cannot set rps_cpus"
	fi
	rps_split off
fi

if want rxe || want rxe-read; then
	# shellcheck source=scripts/benchmarks/rxe-setup
	. "$REPO/scripts/benchmarks/rxe-setup"
	rxe_ok=0
	if ! cc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$REPO/include/uapi" \
		-o $PC "$REPO/scripts/benchmarks/pagecost.c" 2>>"$OUT/errors.log"; then
		say "    rxe: cannot build scripts/benchmarks/pagecost.c"
	elif ! rxe_up; then
		say "    Soft-RoCE: n/a ($RXE_WHY)"
		rxe_put rxe null none 0 ", \"na\": \"$RXE_WHY\""
	else
		RXE_GA=$(rxe_gid rxeA)
		RXE_GB=$(rxe_gid rxeB)
		say "    Soft-RoCE: rxeA on ra $RXE_A (GID $RXE_GA), rxeB on rb $RXE_B (GID $RXE_GB)"
		rxe_ok=1
	fi
	if [ $rxe_ok = 1 ] && want rxe-read; then
		# ib_read_lat reports the whole read (perftest halves only
		# its ping-pongs: send, write)
		row "rxe: 8 KiB one-sided read: windperf -t read (and the page fetch) beside ib_read_lat"
		run rxe-read null wind -P 5001 -t read -m 8192 $LAT
		run rxe-read-rr null wind -P 5001 -t rr -q 64 -m 8192 $LAT
		perftest rxe-lat 0 ib_read_lat 8192 -n "$((RXE_N / 2))"
		# On the veth as it is, the server's kernel serves a read in the
		# client's own sendmsg() (a veth hands the packet to the
		# receiver's backlog on the sender's vCPU): as between two hosts,
		# each side's receive work on its own vCPU (RPS)
		if [ ${#PIN_A[@]} -gt 0 ]; then
			row "rxe: 8 KiB one-sided read and page fetch, each side's receive work on its own vCPU (RPS)"
			if rps_split on; then
				run rxe-read-rps null wind -P 5001 -t read -m 8192 $LAT
				run rxe-read-rps-rr null wind -P 5001 -t rr -q 64 -m 8192 $LAT
			else
				say "    RPS: cannot set rps_cpus"
			fi
			rps_split off
		fi
	fi
	if [ $rxe_ok = 1 ] && want rxe; then
		row "rxe: 32 B round trip: windperf ping-pong beside ib_send_lat"
		run rxe-rtt null $ALL -P 5001 -t rtt -m 32 $LAT
		perftest rxe-lat 0 ib_send_lat 32 -n "$RXE_N"
		row "rxe: 8 KiB one-sided write: sync Direct Map send beside ib_write_lat"
		pagecost rxe-dm 0 dmsync "$RXE_N"
		perftest rxe-lat 0 ib_write_lat 8192 -n "$((RXE_N / 2))"
		for loss in 0 1; do
			if [ $loss = 0 ]; then
				netem off
				rxe_netem 0
			else
				netem $loss
				rxe_netem $loss || say "    tc netem on ra/rb failed"
			fi
			row "rxe, $loss% loss: 8 KiB remote writes: Direct Map (and UDP) beside ib_write_bw"
			pagecost rxe-dm $loss dm $((RXE_N * 3))
			[ $loss = 0 ] && pagecost rxe-dm $loss udp $((RXE_N * 3))
			if [ $loss = 0 ] && [ ${#PIN_A[@]} -gt 0 ]; then
				row "rxe, 0% loss: 8 KiB remote writes, Direct Map and UDP, each side's receive work on its own vCPU (RPS)"
				if rps_split on; then
					pagecost rxe-dm-rps 0 dm $((RXE_N * 3))
					pagecost rxe-dm-rps 0 udp $((RXE_N * 3))
				else
					say "    RPS: cannot set rps_cpus"
				fi
				rps_split off
			fi
			perftest rxe-bw $loss ib_write_bw 8192 -D "$RXE_T"
			row "rxe, $loss% loss: 64 KiB bandwidth: windperf bulk beside ib_write_bw"
			run "rxe-bulk-$loss" null $ALL -P 5001 -t bulk -m 65536 $BULK
			perftest rxe-bw $loss ib_write_bw 65536 -D "$RXE_T"
		done
		netem off
		rxe_netem 0
	fi
	rxe_down
fi

say "bench: $nrows rows in $(( $(date +%s) - start )) s"
