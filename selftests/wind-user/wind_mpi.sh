#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unmodified MPI programs over Wind: Debian's Open MPI forced onto the
# libfabric provider "wind" (pml cm, mtl ofi, only the wind provider, no
# BTL but self), every rank in a network namespace of its own.  Our MPI
# test programs (point-to-point: tags, wildcards, 1 B to 16 MiB, 64
# outstanding, ssend, probe, a ring; collectives on 4 ranks), mpi4py's
# bench helloworld and ringtest on 4 ranks, and an mpi4py ping-pong, each
# checking its results; then Wind's counters in every rank's namespace
# must have moved, and no rank's namespace may have accepted a TCP
# connection (the ranks talked over Wind, not TCP).  Then the
# collectives again through 1% loss on every rank's link, and a rank
# whose link goes down mid-run: the job must end in an MPI error, not
# hang (a directed receive probes its peer after FI_WIND_PROBE_MS, and
# Wind reports the peer unreachable within its bound).  KTAP output.
#
#                 +---------- root namespace: mpirun ----------+
#                 | br0 10.81.0.254/24 (PMIx server, TCP)      |
#                 +--+-----------+-----------+-----------+-----+
#                    |           |           |           |
#   windm0-PID: eth0 10.81.0.1   ... 10.81.0.2  ... 10.81.0.3  ... 10.81.0.4
#   (rank r runs in windm<r>-PID; Wind traffic crosses br0 between them)
#
# mpirun reaches the ranks' PMIx clients through br0: PMIx listens there
# (PMIX_MCA_ptl_tcp_if_include=br0, remote connections allowed), since a
# rank in another namespace cannot reach the root namespace's 127.0.0.1.

set -u

HERE=$(cd "$(dirname "$0")" && pwd -P)
. "$HERE/../wind/lib.sh"
NTESTS=9
NRANKS=4
PFX=windm$$-
ROOT=${WIND_ROOT:-$(cd "$HERE/../.." && pwd -P)}
PROVDIR=$ROOT/userspace/fabric
TESTS=$PROVDIR/tests
PY=/usr/bin/python3
TMP=$(mktemp -d /tmp/wind_mpi.XXXXXX)
export FI_PROVIDER_PATH=$PROVDIR
export PMIX_MCA_ptl_tcp_if_include=br$$ PMIX_MCA_ptl_tcp_remote_connections=1
BR=br$$

cleanup() {
	star_cleanup "$BR" "$PFX" "$NRANKS"
	rm -rf "$TMP"
}
trap cleanup EXIT

tcp_passive() {	# Tcp PassiveOpens of namespace $1
	ip netns exec "$1" awk '$1 == "Tcp:" && !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == "Tcp:" { print $c["PassiveOpens"] }' /proc/net/snmp
}

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "must be root"
command -v mpirun >/dev/null || skip_all "mpirun missing (openmpi-bin, scripts/deps/install-deps.sh)"
[ -x "$TESTS/mpi_p2p" ] && [ -x "$TESTS/mpi_coll" ] ||
	skip_all "$TESTS/mpi_p2p not built (libopenmpi-dev, make)"
[ -r "$PROVDIR/libwind-fi.so" ] || skip_all "$PROVDIR/libwind-fi.so not built (make)"
$PY -c 'import mpi4py' 2>/dev/null || skip_all "python3-mpi4py missing"
modinfo wind >/dev/null 2>&1 || skip_all "wind.ko not installed"
modprobe wind 2>/dev/null
echo "1..$NTESTS"

if ! star_setup "$BR" 10.81.0 "$PFX" "$NRANKS" "v$$" 2>&1 | diag; then
	echo "# topology setup failed"
fi

# Each rank enters the namespace of its rank number.
cat > "$TMP/in-netns" <<EOF
#!/bin/sh
exec ip netns exec "$PFX\$OMPI_COMM_WORLD_RANK" "\$@"
EOF
chmod +x "$TMP/in-netns"

declare -A msgs0
for r in $(seq 0 $((NRANKS - 1))); do
	msgs0[$r]=$(stat_of "$PFX$r" InMessages)
done

# mpi NP TIMEOUT CMD...: mpirun over Wind only, output in $TMP/mpi.log
mpi() {
	local np=$1 t=$2
	shift 2
	timeout "$t" mpirun --allow-run-as-root --oversubscribe -np "$np" \
		-x FI_PROVIDER_PATH -x PATH \
		--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include wind \
		--mca btl self --mca mtl_base_verbose 10 \
		"$TMP/in-netns" "$@" > "$TMP/mpi.log" 2>&1
}

# used_wind: the mtl says which provider it took
used_wind() {
	grep -q 'mtl:ofi:provider: wind' "$TMP/mpi.log"
}

mpi 2 300 "$TESTS/mpi_p2p"
rc=$?
grep -v 'mca:\|mca: \|select:' "$TMP/mpi.log" | diag
[ $rc = 0 ] && used_wind && grep -q 'mpi_p2p: OK' "$TMP/mpi.log"
result $? "mpi_p2p on 2 ranks: tags, wildcards, 1 B-16 MiB, 64 outstanding, ssend, probe (exit $rc)"

mpi 4 300 "$TESTS/mpi_coll"
rc=$?
grep -v 'mca:\|mca: \|select:' "$TMP/mpi.log" | diag
[ $rc = 0 ] && used_wind && grep -q 'mpi_coll: OK (4 ranks' "$TMP/mpi.log"
result $? "mpi_coll on 4 ranks: bcast, allreduce, alltoall, allgather, reduce (exit $rc)"

mpi 4 300 $PY -m mpi4py.bench helloworld
rc=$?
grep 'Hello' "$TMP/mpi.log" | diag
[ $rc = 0 ] && used_wind && [ "$(grep -c 'Hello, World! I am process . of 4' "$TMP/mpi.log")" = 4 ]
result $? "python3 -m mpi4py.bench helloworld on 4 ranks (exit $rc)"

mpi 4 300 $PY -m mpi4py.bench ringtest -n 4096 -l 20
rc=$?
grep 'time for' "$TMP/mpi.log" | sed 's/ = [0-9.]* seconds/ = (time) seconds/' | diag
[ $rc = 0 ] && used_wind && grep -q 'time for 20 loops' "$TMP/mpi.log"
result $? "python3 -m mpi4py.bench ringtest on 4 ranks, 4 KiB (exit $rc)"

mpi 2 300 $PY "$TESTS/mpi4py_pingpong.py" -n 5 -s 1 1 1024 65536 1048576
rc=$?
grep 'mpi4py_pingpong' "$TMP/mpi.log" | diag
[ $rc = 0 ] && used_wind && grep -q 'mpi4py_pingpong: OK' "$TMP/mpi.log"
result $? "mpi4py ping-pong, 1 B to 1 MiB, payload checked (exit $rc)"

# Wind carried it: every rank's namespace delivered Wind messages ...
rc=0
for r in $(seq 0 $((NRANKS - 1))); do
	m=$(stat_of "$PFX$r" InMessages)
	d=$(( ${m:-0} - ${msgs0[$r]:-0} ))
	echo "# rank $r namespace: Wind InMessages +$d"
	[ "$d" -ge 20 ] || rc=1
done
result $rc "Wind's counters moved in every rank's namespace (at least 20 messages each)"

# ... and no rank accepted a TCP connection (PMIx is each rank's only
# TCP, an outgoing connection to mpirun on the bridge)
rc=0
for r in $(seq 0 $((NRANKS - 1))); do
	p=$(tcp_passive "$PFX$r")
	echo "# rank $r namespace: Tcp PassiveOpens $p"
	[ "$p" = 0 ] || rc=1
done
result $rc "no TCP connection between ranks (PassiveOpens 0 in every rank's namespace)"

# 8: 1% loss on every rank's link changes no result
for r in $(seq 0 $((NRANKS - 1))); do
	tc -n "$PFX$r" qdisc add dev eth0 root netem loss 1% 2>&1 | diag
done
rtx0=$(stat_of "${PFX}0" OutRetransmits)
mpi 4 600 "$TESTS/mpi_coll"
rc=$?
grep -v 'mca:\|mca: \|select:' "$TMP/mpi.log" | diag
rtx1=$(stat_of "${PFX}0" OutRetransmits)
echo "# rank 0 namespace: Wind OutRetransmits +$(( ${rtx1:-0} - ${rtx0:-0} ))"
[ $rc = 0 ] && used_wind && grep -q 'mpi_coll: OK (4 ranks' "$TMP/mpi.log"
result $? "mpi_coll on 4 ranks through 1% loss on every link (exit $rc)"
for r in $(seq 0 $((NRANKS - 1))); do
	tc -n "$PFX$r" qdisc del dev eth0 root 2>/dev/null
done

# 9: rank 1's link goes down mid-run: an MPI error, not a hang
rm -f "$TMP/ready"
start=$SECONDS
mpi 2 240 "$TESTS/mpi_fault" "$TMP/ready" &
mpid=$!
if poll 120 test -e "$TMP/ready"; then
	ip -n "${PFX}1" link set eth0 down
	cut=$SECONDS
else
	echo "# mpi_fault never got ready"
	cut=$SECONDS
fi
wait $mpid
rc=$?
grep 'mpi_fault' "$TMP/mpi.log" | sed 's/after [0-9]* rounds/after N rounds/' | diag
echo "# the job ended $((SECONDS - cut)) s after the link went down (timing not checked)"
[ $rc != 0 ] && [ $rc != 124 ] && grep -q 'mpi_fault: rank .: MPI error' "$TMP/mpi.log"
result $? "a rank losing its link mid-run ends the job with an MPI error, not a hang (exit $rc)"
: "$start"

ktap_exit
