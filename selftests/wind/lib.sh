# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers the shell selftests share (sourced, not run: the runner runs
# only wind_*.sh).  KTAP output, polling, Wind's counters, namespaces,
# and the "star" topology of the MPI tests: namespaces on one bridge in
# the root namespace, where mpirun runs.
#
#   . "$(dirname "$0")/lib.sh"
#
# The KTAP helpers count in testno and failed.

ksft_skip=4
testno=0
failed=0

ok() { testno=$((testno + 1)); echo "ok $testno $*"; }
not_ok() { testno=$((testno + 1)); failed=$((failed + 1)); echo "not ok $testno $*"; }
result() {	# result STATUS DESCRIPTION
	if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi
}
diag() { sed 's/^\([^#]\)/# \1/; s/^$/#/'; }
skip_all() { echo "1..0 # SKIP $*"; exit $ksft_skip; }
# the exit status of a script: 0 when no test failed
ktap_exit() { [ "$failed" = 0 ] && exit 0; exit 1; }

# poll SECONDS COMMAND...: run COMMAND every 20 ms until it succeeds
poll() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.02
	done
}

stat_of() {	# stat_of NS NAME: a /proc/net/wind_stat counter of namespace NS
	ip netns exec "$1" awk -v n="$2" '$1 == n { print $2 }' /proc/net/wind_stat 2>/dev/null
}

# netns_del NS...: kill what still runs in each namespace, then delete it
netns_del() {
	local ns
	for ns in "$@"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
}

# The star: namespaces PFX0 ... PFX(N-1), each with eth0 = NET.(r+1)/24
# on a veth whose root end (VETH-r) is a port of bridge BR = NET.254/24.
#
# star_setup BR NET PFX N VETH: build it and wait until every namespace
# reaches the bridge; status 0 when it did
star_setup() {
	local br=$1 net=$2 pfx=$3 n=$4 veth=$5 r
	ip link set lo up &&
	ip link add "$br" type bridge && ip addr add "$net.254/24" dev "$br" &&
	ip link set "$br" up || return 1
	for r in $(seq 0 $((n - 1))); do
		ip netns add "$pfx$r" && ip -n "$pfx$r" link set lo up &&
		ip link add "$veth-$r" type veth peer name eth0 netns "$pfx$r" &&
		ip link set "$veth-$r" master "$br" up &&
		ip -n "$pfx$r" addr add "$net.$((r + 1))/24" dev eth0 &&
		ip -n "$pfx$r" link set eth0 up || return 1
	done
	for r in $(seq 0 $((n - 1))); do
		poll 10 ip netns exec "$pfx$r" ping -c 1 -W 1 "$net.254" >/dev/null || return 1
	done
}

# star_cleanup BR PFX N: the namespaces (and what runs in them), the bridge
star_cleanup() {
	local r
	for r in $(seq 0 $(($3 - 1))); do
		netns_del "$2$r"
	done
	ip link del "$1" 2>/dev/null
}

# star_rsh FILE PFX: write an rsh agent for mpirun (--mca plm_rsh_agent):
# "host" NET.(N+1) is namespace PFX<N>, with a UTS name of its own
# (nodeN), so that Open MPI sees each rank on a node of its own; the rest
# is the command line ssh would hand to a remote shell
star_rsh() {
	cat > "$1" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
	case "\$1" in
	-*) shift ;;
	*) break ;;
	esac
done
host=\$1
shift
n=\$((\${host##*.} - 1))
exec ip netns exec "$2\$n" unshare --uts /bin/sh -c "echo node\$n > /proc/sys/kernel/hostname; \$*"
EOF
	chmod +x "$1"
}

# star_hosts NET N: mpirun's --host list, NET.1,...,NET.N
star_hosts() {
	local r hosts=
	for r in $(seq 1 "$2"); do
		hosts=$hosts${hosts:+,}$1.$r
	done
	echo "$hosts"
}
