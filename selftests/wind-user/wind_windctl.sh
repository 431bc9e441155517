#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# windctl against known traffic.  Two namespaces joined by a veth pair:
#
#   +- windA-ctl-PID ---------+            +- windB-ctl-PID ---------+
#   | eth0 10.79.0.1/24       |<-- veth -->| eth0 10.79.0.2/24       |
#   | sender socket, port 6001|            | receiver socket, 6000   |
#   +-------------------------+            +-------------------------+
#
# One sender process lives through every step, so its one peer state
# (to 10.79.0.2:6000) carries all of A's data retransmissions.  Counters
# are compared as deltas; JSON goes through python3's json module.  The
# last three steps add fd79::1/64 and fd79::2/64 (nodad) to the veth and
# look at AF_INET6 sockets: an IPv6 peer and a v4-mapped one.  KTAP.

set -u

ksft_skip=4
NTESTS=16
A=windA-ctl-$$
B=windB-ctl-$$
ADDR_A=10.79.0.1
ADDR_B=10.79.0.2
PORT_A=6001
PORT_B=6000
N=50		# messages of the counting steps
M=300		# messages sent through 20% loss
ROOT=${WIND_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
WINDCTL=$ROOT/userspace/windctl/windctl
TMP=$(mktemp -d /tmp/wind_windctl.XXXXXX)
testno=0
failed=0

ok() { testno=$((testno + 1)); echo "ok $testno $*"; }
not_ok() { testno=$((testno + 1)); failed=$((failed + 1)); echo "not ok $testno $*"; }
result() {	# result STATUS DESCRIPTION
	if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi
}
diag() { sed 's/^\([^#]\)/# \1/; s/^$/#/'; }
skip_all() { echo "1..0 # SKIP $*"; exit $ksft_skip; }
fail() { echo "$*" | diag; return 1; }

cleanup() {
	local p
	for p in ${MON_PIDS:-}; do
		kill "$p" 2>/dev/null
	done
	[ -n "${SND_PID:-}" ] && kill "$SND_PID" 2>/dev/null
	[ -n "${RCV_PID:-}" ] && kill "$RCV_PID" 2>/dev/null
	wait ${SND_PID:-} ${RCV_PID:-} 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# poll SECONDS COMMAND...: run COMMAND every 50 ms until it succeeds
poll() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.05
	done
}

wc_in() {	# wc_in NS ARGS...: windctl in namespace NS
	local ns=$1
	shift
	ip netns exec "$ns" "$WINDCTL" "$@"
}

# jq-like: jget EXPR < JSON, with the document as d
jget() {
	python3 -c 'import json, sys; d = json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"
}

# A counter of namespace $1 from windctl -j stats
counter() {
	wc_in "$1" -j stats | jget "d['$2']"
}

# The peer of namespace $1 towards $2:$3, field $4, from windctl -j peers
peer_field() {
	wc_in "$1" -j peers | jget "[p['$4'] for p in d if p['addr'] == '$2' and p['port'] == $3][0]"
}

wq_empty() {
	[ "$(peer_field "$A" "$ADDR_B" $PORT_B wq_packets)" = 0 ]
}

no_peers_on() {
	[ "$(wc_in "$A" -j peers | jget "len([p for p in d if p['sock_port'] == $1])")" = 0 ]
}

# The agent: one Wind socket, driven by one-line commands on stdin, one
# line of answer each on stdout.
cat > "$TMP/agent.py" <<'EOF'
import errno, socket, sys, time
MSG_WIND_SYNC = 0x800000
s = None
for line in sys.stdin:
    cmd = line.split()
    try:
        if cmd[0] == "bind":
            s = socket.socket(socket.AF_INET, 7, 253)
            s.bind(("0.0.0.0", int(cmd[1])))
            out = "ok %d" % s.getsockname()[1]
        elif cmd[0] == "bind6":		# bind6 PORT: AF_INET6, dual stack
            s = socket.socket(socket.AF_INET6, 7, 0)
            s.bind(("::", int(cmd[1])))
            out = "ok %d" % s.getsockname()[1]
        elif cmd[0] == "connect":	# connect ADDR PORT
            s.connect((cmd[1], int(cmd[2])))
            out = "ok"
        elif cmd[0] == "recvfrom":	# recvfrom COUNT TIMEOUT: who and what
            s.settimeout(float(cmd[2]))
            got = []
            for i in range(int(cmd[1])):
                data, addr = s.recvfrom(65536)
                got.append("%s/%d/%s" % (addr[0], addr[1], data.hex()))
            out = "ok " + " ".join(got)
        elif cmd[0] == "send":		# send ADDR PORT COUNT SIZE
            for i in range(int(cmd[3])):
                s.sendto(bytes([i % 256]) * int(cmd[4]), (cmd[1], int(cmd[2])))
            out = "ok %s" % cmd[3]
        elif cmd[0] == "recv":		# recv COUNT TIMEOUT
            s.settimeout(float(cmd[2]))
            for i in range(int(cmd[1])):
                s.recv(65536)
            out = "ok %s" % cmd[1]
        elif cmd[0] == "sync":		# sync ADDR PORT [TEXT]: one sync send
            t = time.monotonic()
            try:
                s.sendto(cmd[3].encode() if len(cmd) > 3 else b"sync",
                         MSG_WIND_SYNC, (cmd[1], int(cmd[2])))
                out = "ok %.3f" % (time.monotonic() - t)
            except OSError as e:
                out = "err %s %.3f" % (errno.errorcode.get(e.errno, e.errno),
                                       time.monotonic() - t)
        else:
            out = "err unknown"
    except Exception as e:
        out = "err %r" % (e,)
    print(out, flush=True)
EOF

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "must be root"
[ -x "$WINDCTL" ] || skip_all "$WINDCTL not built (make)"
command -v tc >/dev/null || skip_all "tc missing"
command -v setpriv >/dev/null || skip_all "setpriv missing"
modinfo wind >/dev/null 2>&1 || skip_all "wind.ko not installed"
echo "1..$NTESTS"

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
setup 2>&1 | diag

mkfifo "$TMP/snd.in" "$TMP/rcv.in" "$TMP/snd.out" "$TMP/rcv.out"
ip netns exec "$A" python3 "$TMP/agent.py" < "$TMP/snd.in" > "$TMP/snd.out" 2>&1 &
SND_PID=$!
ip netns exec "$B" python3 "$TMP/agent.py" < "$TMP/rcv.in" > "$TMP/rcv.out" 2>&1 &
RCV_PID=$!
exec 7> "$TMP/snd.in" 8> "$TMP/rcv.in"
exec 5< "$TMP/snd.out" 6< "$TMP/rcv.out"

# tell AGENT(snd|rcv) a command; answer AGENT prints its answer (60 s
# at most); ask AGENT CMD does both
tell() {
	if [ "$1" = rcv ]; then echo "$2" >&8; else echo "$2" >&7; fi
}

answer() {
	local line fd=5

	[ "$1" = rcv ] && fd=6
	if ! read -r -t 60 line <&$fd; then
		echo "timeout"
		return 1
	fi
	echo "$line"
}

ask() {
	tell "$1" "$2" && answer "$1"
}

# transfer COUNT SIZE: the receiver reads while the sender sends
transfer() {
	local r
	tell rcv "recv $1 60"
	r=$(ask snd "send $ADDR_B $PORT_B $1 $2")
	[ "$r" = "ok $1" ] || fail "send: $r" || return 1
	r=$(answer rcv)
	[ "$r" = "ok $1" ] || fail "recv: $r"
}

# 1: show and /proc/net/wind list the receiver's socket
t1() {
	local r
	r=$(ask rcv "bind $PORT_B") || return 1
	[ "$r" = "ok $PORT_B" ] || fail "bind: $r" || return 1
	r=$(ask snd "bind $PORT_A") || return 1
	[ "$r" = "ok $PORT_A" ] || fail "bind: $r" || return 1
	wc_in "$B" show | diag
	[ "$(wc_in "$B" -j show | jget "[s['addr'] for s in d if s['port'] == $PORT_B]")" = "['0.0.0.0']" ] ||
		fail "windctl -j show in B has no 0.0.0.0:$PORT_B" || return 1
	ip netns exec "$B" cat /proc/net/wind | diag
	ip netns exec "$B" awk -v p="$(printf '00000000:%04X' $PORT_B)" \
		'$2 == p { f = 1 } END { exit !f }' /proc/net/wind ||
		fail "/proc/net/wind in B has no $(printf '00000000:%04X' $PORT_B)"
}
t1
result $? "show and /proc/net/wind list the socket bound to $PORT_B"

# 2: exactly N messages counted on both sides
t2() {
	local in0 out0 in1 out1
	in0=$(counter "$B" InMessages) && out0=$(counter "$A" OutMessages) || return 1
	transfer $N 100 || return 1
	in1=$(counter "$B" InMessages) && out1=$(counter "$A" OutMessages) || return 1
	echo "InMessages $in0 -> $in1, OutMessages $out0 -> $out1" | diag
	[ $((in1 - in0)) = $N ] && [ $((out1 - out0)) = $N ]
}
t2
result $? "windctl -j stats: InMessages in B and OutMessages in A grew by exactly $N"

# 3: the peers on both sides, with their message counts
t3() {
	local tx rx
	tx=$(peer_field "$A" "$ADDR_B" $PORT_B tx_messages) || return 1
	rx=$(peer_field "$B" "$ADDR_A" $PORT_A rx_messages) || return 1
	echo "A->B tx_messages $tx, B<-A rx_messages $rx" | diag
	[ "$tx" = $N ] && [ "$rx" = $N ] &&
	[ "$(peer_field "$A" "$ADDR_B" $PORT_B sock_port)" = $PORT_A ] &&
	[ "$(peer_field "$B" "$ADDR_A" $PORT_A sock_port)" = $PORT_B ] &&
	[ "$(peer_field "$A" "$ADDR_B" $PORT_B local_addr)" = "$ADDR_A" ]
}
t3
result $? "windctl -j peers: each side sees the other's address and port, $N messages each way counted"

# 4: peers PORT filters, and the human-readable tables say the same
t4() {
	local n
	# the last (delayed) ACK makes the sender's peer idle
	poll 10 wq_empty || fail "write queue never drained" || return 1
	n=$(wc_in "$A" -j peers $PORT_A | jget "len(d)") || return 1
	[ "$n" = 1 ] || fail "peers $PORT_A: $n peers" || return 1
	wc_in "$A" peers | diag
	wc_in "$A" peers $PORT_A | grep -q "^$PORT_A  *$ADDR_B:$PORT_B  *idle " ||
		fail "peers table lacks $ADDR_B:$PORT_B" || return 1
	wc_in "$B" stats | grep -Eq "^InMessages +$(counter "$B" InMessages)\$" ||
		fail "stats table disagrees with -j stats" || return 1
	wc_in "$A" get | grep -Eq '^retries +[0-9]+$'
}
t4
result $? "windctl peers PORT filters by local port; tables match the JSON"

# 5: every command's JSON parses, in both namespaces
t5() {
	local ns c
	for ns in "$A" "$B"; do
		for c in show peers stats get; do
			wc_in "$ns" -j $c | python3 -c 'import json, sys; json.load(sys.stdin)' ||
				fail "windctl -j $c in $ns: not JSON" || return 1
		done
	done
	# numbers are numbers
	[ "$(wc_in "$A" -j stats | jget "all(type(v) is int for v in d.values())")" = True ] &&
	[ "$(wc_in "$A" -j peers | jget "type(d[0]['srtt_us']) is int and type(d[0]['addr']) is str")" = True ]
}
t5
result $? "windctl -j show/peers/stats/get print valid JSON with numbers as numbers"

# 6: through 20% loss the sender retransmits, and its peer's count is
# the namespace's OutRetransmits (the only peer that sends data in A)
t6() {
	local rtx total inflight
	tc -n "$A" qdisc replace dev eth0 root netem loss 20% || return 1
	transfer $M 1000 || return 1
	tc -n "$A" qdisc del dev eth0 root
	# wait for the last ACKs: nothing queued any more
	poll 20 wq_empty ||
		fail "write queue never drained" || return 1
	rtx=$(peer_field "$A" "$ADDR_B" $PORT_B retransmits) || return 1
	total=$(counter "$A" OutRetransmits) || return 1
	inflight=$(peer_field "$A" "$ADDR_B" $PORT_B in_flight)
	echo "peer retransmits $rtx, OutRetransmits $total, in flight $inflight" | diag
	wc_in "$A" peers | diag
	[ "$rtx" -gt 0 ] && [ "$rtx" = "$total" ] && [ "$inflight" = 0 ] &&
	[ "$(peer_field "$B" "$ADDR_A" $PORT_A rx_messages)" = $((N + M)) ]
}
t6
result $? "netem loss 20%: the peer's retransmits > 0 and equal to A's OutRetransmits; all $M delivered"

# 7: windctl set and sysctl see each other
t7() {
	wc_in "$A" set retries 3 || return 1
	[ "$(ip netns exec "$A" sysctl -n net.wind.retries)" = 3 ] ||
		fail "sysctl did not see windctl set retries 3" || return 1
	ip netns exec "$A" sysctl -qw net.wind.retries=7 || return 1
	[ "$(wc_in "$A" -j get | jget "d['retries']")" = 7 ] ||
		fail "windctl get did not see sysctl retries=7" || return 1
	# several at once
	wc_in "$A" set rto_max_ms 800 delack-ms 6 net.wind.window 128 || return 1
	[ "$(wc_in "$A" -j get | jget "(d['rto_max_ms'], d['delack_ms'], d['window'])")" = "(800, 6, 128)" ] &&
	[ "$(ip netns exec "$A" sysctl -n net.wind.window)" = 128 ] &&
	# the other namespace keeps its own
	[ "$(wc_in "$B" -j get | jget "d['retries']")" = 10 ]
}
t7
result $? "windctl set is seen by sysctl net.wind.* and the other way round, per namespace"

# 8: fewer retries give up sooner on a blackholed peer
t8() {
	local r3 r10 t3 t10
	ip netns exec "$A" sysctl -qw net.wind.rto_max_ms=1000 || return 1
	tc -n "$A" qdisc replace dev eth0 root netem loss 100% || return 1
	wc_in "$A" set retries 3 || return 1
	r3=$(ask snd "sync $ADDR_B 6100") || return 1
	wc_in "$A" set retries 10 || return 1
	r10=$(ask snd "sync $ADDR_B 6101") || return 1
	tc -n "$A" qdisc del dev eth0 root
	echo "retries 3: $r3; retries 10: $r10" | diag
	set -- $r3
	[ "$1 $2" = "err ETIMEDOUT" ] || return 1
	t3=$3
	set -- $r10
	[ "$1 $2" = "err ETIMEDOUT" ] || return 1
	t10=$3
	python3 -c "import sys; sys.exit(not ($t3 < $t10))"
}
t8
result $? "sync send to a blackholed peer: ETIMEDOUT, sooner with retries 3 than with 10"

# 9: the kernel's reasons reach the user
# refused WHAT CMD...: CMD must fail; its stderr is left in $err
refused() {
	local what=$1
	shift
	if err=$("$@" 2>&1); then
		fail "$what: accepted"
		return 1
	fi
	echo "$what: $err" | diag
}

t9() {
	local before
	before=$(wc_in "$A" -j get) || return 1
	refused "retries 101" wc_in "$A" set retries 101 || return 1
	echo "$err" | grep -q "integer out of range (retries: 1..100)" || return 1
	refused "window 0" wc_in "$A" set window 0 || return 1
	echo "$err" | grep -q "out of range (window: 1..1024)" || return 1
	refused "min > max" wc_in "$A" set rto_min_ms 900 rto_max_ms 500 || return 1
	echo "$err" | grep -q "rto_min_ms would exceed rto_max_ms" || return 1
	# validated whole: the good half of a bad request is not applied
	refused "half bad" wc_in "$A" set retries 5 peer_idle_s 86401 || return 1
	echo "$err" | grep -q "peer_idle_s: 1..86400" || return 1
	[ "$(wc_in "$A" -j get)" = "$before" ] || fail "a refused set changed something" || return 1
	refused "unbound port" wc_in "$A" peers 65000 || return 1
	echo "$err" | grep -q "no Wind socket is bound to this port" || return 1
	refused "unprivileged set" ip netns exec "$A" setpriv --reuid=65534 \
		--regid=65534 --clear-groups "$WINDCTL" set retries 4 || return 1
	echo "$err" | grep -q "Operation not permitted" || return 1
	# reading needs no privilege
	ip netns exec "$A" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$WINDCTL" -j stats >/dev/null || fail "unprivileged stats refused" || return 1
	wc_in "$A" set nosuch 1 2>/dev/null
	[ $? = 2 ] || fail "unknown tunable: not a usage error" || return 1
	[ "$(wc_in "$A" -j get)" = "$before" ]
}
t9
result $? "refusals: range, min > max, all-or-nothing, unbound port, EPERM; windctl prints the kernel's message and fails"

# 10: -n NETNS is ip netns exec
t10() {
	[ "$("$WINDCTL" -n "$B" -j stats | jget "d['InMessages']")" = "$(counter "$B" InMessages)" ] &&
	[ "$("$WINDCTL" -n "$A" -j show | jget "[s['port'] for s in d]")" = "[$PORT_A]" ]
}
t10
result $? "windctl -n NETNS reads that namespace"

# 11: the default peer of a connected socket, and socket counts
t11() {
	local got
	got=$(ip netns exec "$A" python3 -c "
import socket, subprocess, json
s = socket.socket(socket.AF_INET, 7, 253)
s.bind(('0.0.0.0', 6200))
s.connect(('$ADDR_B', $PORT_B))
out = subprocess.run(['$WINDCTL', '-j', 'show'], capture_output=True, check=True).stdout
d = [x for x in json.loads(out) if x['port'] == 6200][0]
print(d['peer_addr'], d['peer_port'], d['peers'], d['inode'] > 0)
") || return 1
	echo "$got" | diag
	[ "$got" = "$ADDR_B $PORT_B 0 True" ]
}
t11
result $? "windctl -j show: a connected socket shows its default peer"

# 12: peers of a port whose socket is gone are no longer listed
t12() {
	ask snd "bind 0" >/dev/null || return 1	# the sender's old socket closes
	poll 10 no_peers_on $PORT_A
}
t12
result $? "closing a socket removes its peers from windctl peers"

# 13: the owner of a network namespace (root in the user namespace that
# owns it) may set its tunables, as it may write its sysctls; tags are
# shown only to CAP_NET_ADMIN
t13() {
	local out
	out=$(unshare --user --map-root-user --net sh -c \
		"'$WINDCTL' set unverified_max 7 retries 3 && '$WINDCTL' -j get" 2>&1) ||
		fail "owner's set refused: $out" || return 1
	echo "$out" | diag
	echo "$out" | grep -q '"unverified_max": *7' &&
	echo "$out" | grep -q '"retries": *3' || fail "not applied" || return 1
	# the initial namespace's tunables did not move
	[ "$(cat /proc/sys/net/wind/retries)" != 3 ] || fail "leaked" || return 1
	out=$(ip netns exec "$A" setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$WINDCTL" -j show) || return 1
	! echo "$out" | grep -q incarnation || fail "tags shown unprivileged" || return 1
	wc_in "$A" -j show | grep -q incarnation || fail "tags hidden from root"
}
t13
result $? "the namespace's owner sets its tunables; tags only for CAP_NET_ADMIN"

# 14-16: IPv6.  A dual-stack AF_INET6 socket in A, port 6301, connected
# to B's AF_INET6 socket on 6300, sends three sync messages to it over
# IPv6 and one to its v4-mapped address (over IPv4).
ADDR6_A=fd79::1
ADDR6_B=fd79::2
PORT6_A=6301
PORT6_B=6300

# the monitors of A print a line for a sentinel: then they have joined
monitors_ready() {
	ip netns exec "$A" python3 -c "
import socket
s = socket.socket(socket.AF_INET6, 7, 0)
try:
    s.sendto(b'sentinel', 0x800000, ('$ADDR6_B', 6399))
except OSError:
    pass
" 2>/dev/null
	grep -q " sock " "$TMP/mon6.txt" && grep -q '"sock_port"' "$TMP/mon6.json"
}

t14() {
	local r want
	ip -n "$A" addr add "$ADDR6_A/64" dev eth0 nodad &&
	ip -n "$B" addr add "$ADDR6_B/64" dev eth0 nodad &&
	poll 5 ip netns exec "$A" ping -6 -c 1 -W 1 "$ADDR6_B" >/dev/null ||
		fail "no IPv6 between the namespaces" || return 1
	ip netns exec "$A" "$WINDCTL" monitor > "$TMP/mon6.txt" 2>&1 &
	MON_PIDS="$!"
	ip netns exec "$A" "$WINDCTL" -j monitor > "$TMP/mon6.json" 2>&1 &
	MON_PIDS="$MON_PIDS $!"
	poll 20 monitors_ready || fail "the monitors never printed an event" || return 1
	r=$(ask rcv "bind6 $PORT6_B") && [ "$r" = "ok $PORT6_B" ] ||
		fail "bind6 B: $r" || return 1
	r=$(ask snd "bind6 $PORT6_A") && [ "$r" = "ok $PORT6_A" ] ||
		fail "bind6 A: $r" || return 1
	r=$(ask snd "connect $ADDR6_B $PORT6_B") && [ "$r" = ok ] ||
		fail "connect: $r" || return 1
	for m in v6-one v6-two v6-three; do
		r=$(ask snd "sync $ADDR6_B $PORT6_B $m") || return 1
		[ "${r%% *}" = ok ] || fail "sync $m: $r" || return 1
	done
	r=$(ask snd "sync ::ffff:$ADDR_B $PORT6_B v4-mapped") || return 1
	[ "${r%% *}" = ok ] || fail "sync v4-mapped: $r" || return 1
	# what B got, exactly: the senders as an AF_INET6 socket names them
	r=$(ask rcv "recvfrom 4 30")
	want="ok $ADDR6_A/$PORT6_A/$(printf v6-one | od -An -tx1 | tr -d ' \n')"
	want="$want $ADDR6_A/$PORT6_A/$(printf v6-two | od -An -tx1 | tr -d ' \n')"
	want="$want $ADDR6_A/$PORT6_A/$(printf v6-three | od -An -tx1 | tr -d ' \n')"
	want="$want ::ffff:$ADDR_A/$PORT6_A/$(printf v4-mapped | od -An -tx1 | tr -d ' \n')"
	[ "$r" = "$want" ] || fail "B received: $r" "wanted:     $want" || return 1
	wc_in "$A" show | diag
	wc_in "$A" peers $PORT6_A | diag
	# show: [::] and the IPv6 default peer, in JSON and in the table
	r=$(wc_in "$A" -j show | jget "[(s['addr'], s['peer_addr'], s['peer_port'], s['peers']) for s in d if s['port'] == $PORT6_A]")
	[ "$r" = "[('::', '$ADDR6_B', $PORT6_B, 2)]" ] || fail "A's -j show: $r" || return 1
	r=$(wc_in "$B" -j show | jget "[(s['addr'], s['peer_addr'], s['peers']) for s in d if s['port'] == $PORT6_B]")
	[ "$r" = "[('::', None, 2)]" ] || fail "B's -j show: $r" || return 1
	wc_in "$A" show | grep -Eq "^\[::\]:$PORT6_A +\[$ADDR6_B\]:$PORT6_B +2 " ||
		fail "A's show table has no [::]:$PORT6_A [$ADDR6_B]:$PORT6_B" || return 1
	# peers: the IPv6 one by its IPv6 addresses, the v4-mapped one as IPv4
	r=$(wc_in "$A" -j peers $PORT6_A | jget "[(p['addr'], p['port'], p['local_addr'], p['tx_messages']) for p in d]")
	[ "$r" = "[('$ADDR_B', $PORT6_B, '$ADDR_A', 1), ('$ADDR6_B', $PORT6_B, '$ADDR6_A', 3)]" ] ||
		fail "A's -j peers: $r" || return 1
	r=$(wc_in "$B" -j peers $PORT6_B | jget "[(p['addr'], p['port'], p['local_addr'], p['rx_messages']) for p in d]")
	[ "$r" = "[('$ADDR_A', $PORT6_A, '$ADDR_B', 1), ('$ADDR6_A', $PORT6_A, '$ADDR6_B', 3)]" ] ||
		fail "B's -j peers: $r" || return 1
	r=$(wc_in "$A" peers $PORT6_A | awk 'NR > 1 { print $1, $2 }' | tr '\n' ' ')
	[ "$r" = "$PORT6_A $ADDR_B:$PORT6_B $PORT6_A [$ADDR6_B]:$PORT6_B " ] ||
		fail "A's peers table: $r"
}
t14
result $? "IPv6: show and peers name AF_INET6 sockets and IPv6 peers ([addr]:port), v4-mapped peers as IPv4"

# 15: a peer given by address, IPv6 or IPv4, with or without its port
peers_of() {	# peers_of ARGS...: "addr:port ..." of windctl -j peers ARGS in A
	wc_in "$A" -j peers "$@" | jget "' '.join('%s/%d' % (p['addr'], p['port']) for p in d)"
}

t15() {
	local - r arg
	set -f		# [addr]:port unquoted below, and no glob
	for arg in "[$ADDR6_B]:$PORT6_B" "$ADDR6_B" "[$ADDR6_B]" "$PORT6_A $ADDR6_B"; do
		r=$(peers_of $arg) || return 1
		[ "$r" = "$ADDR6_B/$PORT6_B" ] || fail "peers $arg: \"$r\"" || return 1
	done
	for arg in "$ADDR_B:$PORT6_B" "$PORT6_A $ADDR_B" "::ffff:$ADDR_B" "[::ffff:$ADDR_B]:$PORT6_B"; do
		r=$(peers_of $arg) || return 1
		[ "$r" = "$ADDR_B/$PORT6_B" ] || fail "peers $arg: \"$r\"" || return 1
	done
	for arg in "[$ADDR6_B]:$PORT6_A" "$ADDR6_A" "$PORT6_A $ADDR_A"; do
		r=$(peers_of $arg) || return 1
		[ -z "$r" ] || fail "peers $arg: \"$r\", wanted none" || return 1
	done
	wc_in "$A" peers $PORT6_A "[$ADDR6_B]:$PORT6_B" | grep -Eq "^$PORT6_A +\[$ADDR6_B\]:$PORT6_B +" ||
		fail "table of peers [$ADDR6_B]:$PORT6_B" || return 1
	for arg in "[$ADDR6_B" "[$ADDR6_B]:" "$ADDR6_B:99999" "fd79::zz" "$PORT6_A $PORT6_B" "$PORT6_A $ADDR6_B x"; do
		wc_in "$A" peers $arg > /dev/null 2>&1
		[ $? = 2 ] || fail "peers $arg: not a usage error" || return 1
	done
}
t15
result $? "windctl peers [PORT] PEER: IPv6 and IPv4 peers, bracketed with a port or bare, v4-mapped the same as IPv4"

# 16: the monitor's events of IPv6 peers, exactly
mon_has() {
	grep -qxF "$1" "$TMP/mon6.txt" && grep -qxF "$2" "$TMP/mon6.json"
}

t16() {
	local up6 up4 j6 free6 jfree6 r
	up6="up          sock $PORT6_A peer [$ADDR6_B]:$PORT6_B local $ADDR6_A"
	up4="up          sock $PORT6_A peer $ADDR_B:$PORT6_B local $ADDR_A"
	j6="{\"event\":\"up\",\"sock_port\":$PORT6_A,\"local_addr\":\"$ADDR6_A\",\"addr\":\"$ADDR6_B\",\"port\":$PORT6_B,\"error\":0,\"error_name\":null}"
	free6="freed       sock $PORT6_A peer [$ADDR6_B]:$PORT6_B local $ADDR6_A"
	jfree6="{\"event\":\"freed\",\"sock_port\":$PORT6_A,\"local_addr\":\"$ADDR6_A\",\"addr\":\"$ADDR6_B\",\"port\":$PORT6_B,\"error\":0,\"error_name\":null}"
	poll 10 mon_has "$up6" "$j6" || fail "no up event for [$ADDR6_B]:$PORT6_B" || return 1
	grep -qxF "$up4" "$TMP/mon6.txt" || fail "no up event for $ADDR_B:$PORT6_B" || return 1
	r=$(ask snd "bind 0") || return 1	# A's AF_INET6 socket closes
	poll 10 mon_has "$free6" "$jfree6" || fail "no freed event for [$ADDR6_B]:$PORT6_B"
}
t16
rc=$?
[ $rc = 0 ] || { diag < "$TMP/mon6.txt"; diag < "$TMP/mon6.json"; }
result $rc "windctl monitor and -j monitor: IPv6 peers' events ([addr]:port, IPv6 local address)"

echo "# $failed of $NTESTS failed"
[ "$failed" = 0 ]
