#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The S-DSM applications of userspace/dsm (dsm-app: MM, red-black SOR, LU,
# N-queens) on 2 and 3 network namespaces over wind and over udp (and
# udp-replyack), over IPv6 too (AF_INET6 sockets, wind and udp, and
# node lists mixing IPv4 and IPv6: the IPv4 rank v4-mapped), then through
# 5% loss on every node.  Each run must exit 0
# with rank 0's JSON saying "ok":true (rank 0 checks the result against a
# sequential computation), and multi-node runs must have fetched pages.
# Wind fetches pages by one-sided reads (the default) and, in the "-ht"
# runs, by requests answered with Header Through (-f request): a read run
# must say "fetch":"read" and that no service thread answered a fetch
# request ("fetch_served":0), every other run that its service threads
# answered each page fetched; the namespaces' kernels must have served
# exactly as many reads (InRmaReads) as the read runs fetched pages; and
# the barrier-synchronised apps (MM, SOR, LU: deterministic) must fetch
# the same pages and send the same diffs, byte for byte in number, both
# ways.
# A run with a deliberately broken protocol (DSM_FAULT=skip-invalidate:
# no invalidation at acquire) must be caught by the check, and a rank
# whose peer never starts must give up with a message.  KTAP.
#
#          +---------------- dsmhubPID: bridge br0 ----------------+
#          |                      |                                |
#   dsmPID-0 eth0 10.66.0.1   dsmPID-1 eth0 10.66.0.2   dsmPID-2 eth0 10.66.0.3
#                 fd66::1                   fd66::2                   fd66::3
#
# The namespaces are made once; the runs use a port each, several at a
# time (a TCG guest spends most of a run starting processes).  So the
# wind runs' "retransmissions" (OutRetransmits of the namespace) count
# the concurrent runs' too here; dsm-netns gives each run its own.

set -u

ksft_skip=4
HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=${WIND_ROOT:-$(cd "$HERE/../.." && pwd -P)}
APPBIN=$ROOT/userspace/dsm/apps/dsm-app
NETNS=$ROOT/userspace/dsm/apps/dsm-netns
HUB=dsmhub$$
NODES=3
JOBS=${DSM_TEST_JOBS:-4}
RUN_TIMEOUT=150		# seconds per run (all ranks)
APP_TIMEOUT=40		# dsm-app -T: peers silent this long are fatal
TMP=$(mktemp -d /tmp/wind_dsm_apps.XXXXXX)
testno=0
failed=0

ok() { testno=$((testno + 1)); echo "ok $testno $*"; }
not_ok() { testno=$((testno + 1)); failed=$((failed + 1)); echo "not ok $testno $*"; }
diag() { sed 's/^\([^#]\)/# \1/; s/^$/#/'; }
skip_all() { echo "1..0 # SKIP $*"; exit $ksft_skip; }

ns() { echo "dsm$$-$1"; }

cleanup() {
	local i
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	for ((i = 0; i < NODES; i++)); do
		ip netns del "$(ns $i)" 2>/dev/null
	done
	ip netns del "$HUB" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# The runs: NAME NODES ENV APP ARGS...  (ENV: - or VAR=VALUE; a NAME with
# "ipv6" gives the ranks their IPv6 addresses, "mixed" rank 0 its IPv4 one
# and the others their IPv6 ones)
cases=(
	"mm-wind-2 2 - mm -t wind -s 64"
	"mm-wind-3 3 - mm -t wind -s 96"
	"sor-wind-2 2 - sor -t wind -s 64 -i 4"
	"sor-wind-3 3 - sor -t wind -s 96 -i 3"
	"lu-wind-2 2 - lu -t wind -s 64"
	"lu-wind-3 3 - lu -t wind -s 64"
	"nqueens-wind-2 2 - nqueens -t wind -s 8"
	"nqueens-wind-3 3 - nqueens -t wind -s 9"
	"mm-wind-ht-3 3 - mm -t wind -f request -s 96"
	"sor-wind-ht-3 3 - sor -t wind -f request -s 96 -i 3"
	"lu-wind-ht-3 3 - lu -t wind -f request -s 64"
	"nqueens-wind-ht-3 3 - nqueens -t wind -f request -s 9"
	"mm-wind-ipv6-ht-2 2 - mm -t wind -f request -s 64"
	"mm-udp-2 2 - mm -t udp -s 64"
	"mm-udp-3 3 - mm -t udp -s 96"
	"sor-udp-2 2 - sor -t udp -s 64 -i 4"
	"sor-udp-3 3 - sor -t udp -s 96 -i 3"
	"lu-udp-2 2 - lu -t udp -s 64"
	"lu-udp-3 3 - lu -t udp -s 64"
	"nqueens-udp-2 2 - nqueens -t udp -s 8"
	"nqueens-udp-3 3 - nqueens -t udp -s 9"
	"mm-udp-replyack-2 2 - mm -t udp-replyack -s 64"
	"mm-udp-replyack-3 3 - mm -t udp-replyack -s 96"
	"nqueens-udp-replyack-3 3 - nqueens -t udp-replyack -s 8"
	"mm-wind-1 1 - mm -t wind -s 64"
	"sor-wind-ipv6-3 3 - sor -t wind -s 96 -i 3"
	"mm-udp-ipv6-2 2 - mm -t udp -s 64"
	"lu-wind-mixed-2 2 - lu -t wind -s 64"
	"mm-udp-mixed-2 2 - mm -t udp -s 64"
	"broken-protocol-is-caught 3 DSM_FAULT=skip-invalidate sor -t wind -s 64 -i 3"
	"wind-missing-peer-is-fatal 2 MISSING mm -t wind -T 3"
	"udp-missing-peer-is-fatal 2 MISSING mm -t udp -T 3"
	"wind-ipv6-missing-peer-is-fatal 2 MISSING mm -t wind -T 3"
)
loss_cases=(
	"sor-wind-3-loss5 3 - sor -t wind -s 64 -i 3"
	"sor-wind-ht-3-loss5 3 - sor -t wind -f request -s 64 -i 3"
	"mm-udp-3-loss5 3 - mm -t udp -s 64"
	"nqueens-udp-replyack-3-loss5 3 - nqueens -t udp-replyack -s 8"
	"mm-wind-ipv6-3-loss5 3 - mm -t wind -s 64"
)

[ "$(id -u)" = 0 ] || skip_all "needs root (network namespaces)"
[ -x "$APPBIN" ] && [ -x "$NETNS" ] || skip_all "userspace/dsm not built (make)"
command -v tc >/dev/null || skip_all "tc missing"

T0=$SECONDS
echo "TAP version 13"
# Read and Header Through runs of one app that must match (NAME NAME)
same=(
	"mm-wind-3 mm-wind-ht-3"
	"sor-wind-3 sor-wind-ht-3"
	"lu-wind-3 lu-wind-ht-3"
	"sor-wind-3-loss5 sor-wind-ht-3-loss5"
)
echo "1..$((${#cases[@]} + ${#loss_cases[@]} + ${#same[@]} + 4))"

# The namespaces, once (as dsm-netns does for one run)
setup() {
	local i n
	ip netns add "$HUB" &&
	ip -n "$HUB" link add br0 type bridge &&
	ip -n "$HUB" link set br0 up || return 1
	for ((i = 0; i < NODES; i++)); do
		n=$(ns $i)
		ip netns add "$n" &&
		ip -n "$n" link add eth0 type veth peer name v$i netns "$HUB" &&
		ip -n "$HUB" link set v$i master br0 up &&
		ip -n "$n" addr add 10.66.0.$((i + 1))/24 dev eth0 &&
		ip -n "$n" addr add fd66::$((i + 1))/64 dev eth0 nodad &&
		ip -n "$n" link set lo up &&
		ip -n "$n" link set eth0 up || return 1
	done
}
mkfifo "$TMP/never"
if setup 2> "$TMP/setup.err"; then
	ok "namespaces: $NODES nodes on a bridge"
else
	not_ok "namespaces: $NODES nodes on a bridge"
	diag < "$TMP/setup.err"
	exit 1
fi

# field NAME JSON: the value of a numeric field of a JSON line
field() {
	local v=${2#*\"$1\":}

	[ "$v" = "$2" ] && return 1
	echo "${v%%[,\}]*}"
}

# fetch_ok JSON CASE: the fetch path the run says it took is the one
# asked for, and who served the fetches agrees with it
fetch_ok() {
	local want=request fetched served

	[[ $2 == *"-t wind"* && $2 != *"-f request"* ]] && want=read
	[[ $1 == *"\"fetch\":\"$want\""* ]] || return 1
	fetched=$(field pages_fetched "$1") && served=$(field fetch_served "$1") ||
		return 1
	if [ $want = read ]; then
		[ "$served" = 0 ]
	else
		[ "$served" = "$fetched" ]
	fi
}

# rma_reads: the reads the nodes' kernels served (InRmaReads), summed
rma_reads() {
	local i v sum=0

	for ((i = 0; i < NODES; i++)); do
		v=$(ip netns exec "$(ns $i)" awk '$1 == "InRmaReads" { print $2 }' \
			/proc/net/wind_stat) || return 1
		sum=$((sum + ${v:-0}))
	done
	echo $sum
}

# reads_served BASE COUNT BEFORE: the kernels served one read per page the
# read runs BASE..BASE+COUNT-1 fetched, no more, no less
reads_served() {
	local i n want=0 now

	for ((i = $1; i < $1 + $2; i++)); do
		n=$(cat "$TMP/reads.$i" 2>/dev/null)
		[[ $n =~ ^[0-9]+$ ]] && want=$((want + n))
	done
	now=$(rma_reads)
	if [ -n "$now" ] && [ $((now - $3)) = $want ] && [ $want -gt 0 ]; then
		ok "kernels served every page fetched by read: InRmaReads +$want"
	else
		not_ok "kernels served every page fetched by read"
		echo "InRmaReads +$((${now:-0} - $3)), pages fetched by read $want" | diag
	fi
}

# same_results A B: two runs (names of cases or loss_cases) fetched the
# same pages and sent the same diffs, and both were right
same_results() {
	local a b i f va vb why=
	local -a all=("${cases[@]}")

	for ((i = 0; i < ${#loss_cases[@]}; i++)); do
		all[100 + i]=${loss_cases[$i]}
	done
	for i in "${!all[@]}"; do
		[ "${all[$i]%% *}" = "$1" ] && a=$i
		[ "${all[$i]%% *}" = "$2" ] && b=$i
	done
	va=$(cat "$TMP/out.${a:-x}.0" 2>/dev/null)
	vb=$(cat "$TMP/out.${b:-x}.0" 2>/dev/null)
	[[ $va == *'"ok":true}' && $vb == *'"ok":true}' ]] ||
		why="not both right"
	for f in pages_fetched diffs diff_bytes; do
		[ "$(field $f "$va")" = "$(field $f "$vb")" ] ||
			why+=" $f $(field $f "$va") vs $(field $f "$vb")"
	done
	if [ -z "$why" ]; then
		ok "read and Header Through give the same: $1 $2"
	else
		not_ok "read and Header Through give the same: $1 $2"
		echo "$why" | diag
	fi
}

# run_case IDX CASE: all ranks of one run; the verdict in $TMP/res.IDX
# (first line: 0 or 1; then the diagnostics).  Few processes: each rank
# enters its namespace itself (dsm-app -N), one watchdog per run.
run_case() {
	local idx=$1 name nodes env app rest addrs r st st0 json line why= wd res
	local port=$((7700 + $1)) first err
	local -a args pids
	read -r name nodes env app rest <<< "$2"
	read -r -a args <<< "$rest"
	addrs=10.66.0.1
	[[ $name == *ipv6* ]] && addrs=fd66::1
	for ((r = 2; r <= nodes; r++)); do
		if [[ $name == *ipv6* || $name == *mixed* ]]; then
			addrs+=,fd66::$r
		else
			addrs+=,10.66.0.$r
		fi
	done
	first=$((nodes - 1))
	[ "$env" = MISSING ] && first=0	# the other ranks never start
	for ((r = first; r >= 0; r--)); do
		(
			[ "$env" != - ] && [ "$env" != MISSING ] && export "$env"
			exec "$APPBIN" "$app" -N "$(ns $r)" -n "$nodes" -r $r \
				-a "$addrs" -p $port -T $APP_TIMEOUT "${args[@]}"
		) > "$TMP/out.$idx.$r" 2> "$TMP/err.$idx.$r" &
		pids[$r]=$!
	done
	# the watchdog: bash's read on a FIFO nobody writes, no process to leak
	( read -r -t $RUN_TIMEOUT line <> "$TMP/never"; kill "${pids[@]}" ) \
		> /dev/null 2>&1 &
	wd=$!
	for ((r = first; r >= 0; r--)); do
		wait "${pids[$r]}"
		st=$?
		[ $r != 0 ] && [ $st != 0 ] && why+="rank $r exited $st"$'\n'
	done
	st0=$st
	kill $wd 2>/dev/null
	json=$(< "$TMP/out.$idx.0")
	err=$(< "$TMP/err.$idx.0")
	if [ "$env" = MISSING ]; then
		# a clear message and exit 2 after about -T, not a hang
		[ "$st0" = 2 ] && [[ $err == *"cannot reach"* ]]
	elif [ "$env" = DSM_FAULT=skip-invalidate ]; then
		# the check must see the stale data: ok false, exit 1
		[ "$st0" = 1 ] && [[ $json == *'"ok":false}' ]] && [ -z "$why" ]
	else
		[ "$st0" = 0 ] && [[ $json == *'"ok":true}' ]] && [ -z "$why" ] &&
			[[ $json == *'"pages_fetched":'* ]] &&
			{ [ "$nodes" = 1 ] || [[ $json != *'"pages_fetched":0,'* ]]; } &&
			fetch_ok "$json" "$2"
	fi
	res=$?
	# the pages this run fetched by one-sided reads, for reads_served
	if [[ $json == *'"fetch":"read"'* ]]; then
		field pages_fetched "$json" > "$TMP/reads.$idx"
	else
		echo 0 > "$TMP/reads.$idx"
	fi
	{
		echo $res
		echo "rank 0 exited $st0: ${json:-$err}"
		[ -n "$why" ] && echo -n "$why"
		for ((r = 0; r <= first; r++)); do
			while IFS= read -r line; do
				echo "rank $r: $line"
			done < "$TMP/err.$idx.$r"
		done
	} > "$TMP/res.$idx"
}

# run_all BASE CASE...: JOBS at a time, then KTAP lines in order
run_all() {
	local base=$1 i c n=0 line
	local -a res
	shift
	i=$base
	for c in "$@"; do
		if [ $n -ge "$JOBS" ]; then
			wait -n
			n=$((n - 1))
		fi
		run_case $i "$c" &
		n=$((n + 1))
		i=$((i + 1))
	done
	wait
	i=$base
	for c in "$@"; do
		res=()
		[ -r "$TMP/res.$i" ] && mapfile -t res < "$TMP/res.$i"
		if [ "${res[0]:-1}" = 0 ]; then
			ok "${c%% *}"
			echo "# ${res[1]}"
		else
			not_ok "${c%% *}"
			for line in "${res[@]:1}"; do
				echo "# $line"
			done
		fi
		i=$((i + 1))
	done
}

# fetch by read needs wind: refused at once with udp
err=$("$APPBIN" mm -t udp -f read -n 1 2>&1 >/dev/null)
st=$?
if [ $st = 2 ] && [[ $err == *"-f read needs -t wind"* ]]; then
	ok "udp-fetch-by-read-is-refused"
else
	not_ok "udp-fetch-by-read-is-refused"
	echo "exit $st: $err" | diag
fi

reads0=$(rma_reads)
run_all 0 "${cases[@]}"
reads_served 0 ${#cases[@]} "${reads0:-0}"

# 5% loss on every packet every node sends (data and acknowledgements)
for ((i = 0; i < NODES; i++)); do
	ip netns exec "$(ns $i)" tc qdisc add dev eth0 root netem loss 5% ||
		echo "netem on $(ns $i) failed" | diag
done
reads0=$(rma_reads)
run_all 100 "${loss_cases[@]}"
reads_served 100 ${#loss_cases[@]} "${reads0:-0}"
for c in "${same[@]}"; do
	same_results $c
done
echo "# $((SECONDS - T0)) s"

[ $failed = 0 ]
