#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# MPI one-sided over Wind: Debian's Open MPI, osc rdma over btl ofi on the
# libfabric provider "wind" (FI_RMA, FI_ATOMIC), under
# MPI_THREAD_MULTIPLE.  Every rank is on a "node" of its own: a network
# namespace with its own UTS name, where mpirun starts an orted through an
# rsh agent (as ssh would on a cluster), so that Open MPI sees no two
# ranks on one node and uses no shared memory between them: every put,
# get and atomic crosses Wind.  mpi_osc (put, get, accumulate,
# fetch-and-op from two threads, compare-and-swap, passive target, on
# MPI_Win_allocate and MPI_Win_create windows) checks its results; then
# btl ofi must have taken the wind provider, osc rdma must have selected
# btl ofi, and Wind's counters must show the traffic: messages in every
# rank's namespace, and puts written by Direct Map into registered
# regions (InDsmWrites).  Then mpi_osc again through 1% netem loss on
# every rank's link: no result may change; and a rank whose link goes
# down during one-sided atomics: its peer must end in an error, not hang.
# KTAP output.
#
#                 +---------- root namespace: mpirun ----------+
#                 | br0 10.82.0.254/24 (ORTE out-of-band, TCP) |
#                 +--+-----------+-----------+-----------------+
#                    |           |           |
#   windo0-PID: eth0 10.82.0.1   10.82.0.2   10.82.0.3   (orted + rank r)
#   (MPI traffic: Wind only; btl ofi is the only BTL, pml ob1 over it)

set -u

HERE=$(cd "$(dirname "$0")" && pwd -P)
. "$HERE/../wind/lib.sh"
NTESTS=7
NRANKS=${WIND_OSC_RANKS:-3}
PFX=windo$$-
BR=bro$$
NET=10.82.0
ROOT=${WIND_ROOT:-$(cd "$HERE/../.." && pwd -P)}
PROVDIR=$ROOT/userspace/fabric
TESTS=$PROVDIR/tests
TMP=$(mktemp -d /tmp/wind_mpi_osc.XXXXXX)
export FI_PROVIDER_PATH=$PROVDIR
export FI_WIND_STATS=1	# each endpoint prints its RMA counts at close

cleanup() {
	star_cleanup "$BR" "$PFX" "$NRANKS"
	rm -rf "$TMP"
}
trap cleanup EXIT

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "must be root"
command -v mpirun >/dev/null || skip_all "mpirun missing (openmpi-bin, scripts/deps/install-deps.sh)"
command -v unshare >/dev/null || skip_all "unshare missing (util-linux)"
[ -x "$TESTS/mpi_osc" ] && [ -x "$TESTS/mpi_osc_fault" ] ||
	skip_all "$TESTS/mpi_osc not built (libopenmpi-dev, make)"
[ -r "$PROVDIR/libwind-fi.so" ] || skip_all "$PROVDIR/libwind-fi.so not built (make)"
modinfo wind >/dev/null 2>&1 || skip_all "wind.ko not installed"
modprobe wind 2>/dev/null
echo "1..$NTESTS"

if ! star_setup "$BR" "$NET" "$PFX" "$NRANKS" "vo$$" 2>&1 | diag; then
	echo "# topology setup failed"
fi

# The rsh agent: "host" $NET.N+1 is namespace N, on a node of its own
star_rsh "$TMP/rsh" "$PFX"
hosts=$(star_hosts "$NET" "$NRANKS")

declare -A msgs0 dsm0
for r in $(seq 0 $((NRANKS - 1))); do
	msgs0[$r]=$(stat_of "$PFX$r" InMessages)
	dsm0[$r]=$(stat_of "$PFX$r" InDsmWrites)
done

# osc_run: mpi_osc on NRANKS nodes, output in $TMP/mpi.log.  Every
# mpirun here has --bind-to none: Open MPI binds a node's rank to the
# node's first core, and every namespace "node" is the same VM, so all
# ranks would share vCPU 0 and never run at once
osc_run() {
	timeout 600 mpirun --allow-run-as-root -np "$NRANKS" --host "$hosts" --bind-to none \
		--mca plm_rsh_agent "$TMP/rsh" --mca plm_rsh_no_tree_spawn 1 \
		--mca oob_tcp_if_include "$NET.0/24" \
		-x FI_PROVIDER_PATH -x FI_WIND_STATS -x PATH \
		--mca pml ob1 --mca btl ofi --mca btl_ofi_mode 2 \
		--mca opal_common_ofi_provider_include wind \
		--mca osc rdma --mca osc_rdma_btls ofi \
		--mca btl_base_verbose 100 --mca opal_common_ofi_verbose 100 \
		--mca osc_base_verbose 100 \
		"$TESTS/mpi_osc" > "$TMP/mpi.log" 2>&1
}

# 1: mpi_osc on NRANKS nodes
osc_run
rc=$?
[ -n "${WIND_OSC_LOG:-}" ] && cp "$TMP/mpi.log" "$WIND_OSC_LOG"
grep 'mpi_osc' "$TMP/mpi.log" | diag
[ $rc = 0 ] && grep -q "mpi_osc: OK ($NRANKS ranks" "$TMP/mpi.log"
result $? "mpi_osc on $NRANKS nodes: put, get, accumulate, fetch-and-op, compare-and-swap, passive target, MPI_THREAD_MULTIPLE (exit $rc)"
if [ $rc != 0 ]; then
	tail -n 60 "$TMP/mpi.log" | diag
fi

# 2: btl ofi came up on every rank: with only the wind provider included
# it has a module only if fi_getinfo gave wind for its hints (FI_RMA |
# FI_ATOMIC, FI_EP_RDM, FI_DELIVERY_COMPLETE, mr_mode) and it passed
# btl ofi's checks; osc rdma ran both windows of every rank
n=$(grep -c 'select: init of component ofi returned success' "$TMP/mpi.log")
w=$(grep -c 'rdma component destroying window' "$TMP/mpi.log")
echo "# btl ofi initialised on $n ranks; osc rdma freed $w windows"
[ "$n" = "$NRANKS" ] && [ "$w" = $((2 * NRANKS)) ]
result $? "btl ofi took the wind provider on every rank, osc rdma ran every window"

# 3: the provider's own counts: every rank's btl endpoint wrote by Direct
# Map, ran atomics and served requests
grep '^fi_wind: endpoint' "$TMP/mpi.log" | diag
n=$(grep '^fi_wind: endpoint' "$TMP/mpi.log" |
	awk '{ dm = at = sv = 0
	       for (i = 1; i < NF; i++) {
		       if ($i == "writes") dm = $(i + 1) + 0
		       if ($i == "atomics") at = $(i + 1) + 0
		       if ($i == "served") sv = $(i + 1) + 0
	       }
	       if (dm > 0 && at > 0 && sv > 0) k++ }
	     END { print k + 0 }')
[ "$n" -ge "$NRANKS" ]
result $? "every rank's endpoint: Direct Map writes, atomics, requests served ($n of $NRANKS)"

# 4: Wind carried it
rc=0
for r in $(seq 0 $((NRANKS - 1))); do
	m=$(stat_of "$PFX$r" InMessages)
	d=$(( ${m:-0} - ${msgs0[$r]:-0} ))
	echo "# rank $r namespace: Wind InMessages +$d"
	[ "$d" -ge 100 ] || rc=1
done
result $rc "Wind's counters moved in every rank's namespace (at least 100 messages each)"

# 5: puts were Direct Map writes into registered regions
rc=0
for r in $(seq 0 $((NRANKS - 1))); do
	m=$(stat_of "$PFX$r" InDsmWrites)
	d=$(( ${m:-0} - ${dsm0[$r]:-0} ))
	echo "# rank $r namespace: Wind InDsmWrites +$d"
	[ "$d" -ge 1 ] || rc=1
done
result $rc "fi_write went as Direct Map messages (InDsmWrites moved in every rank's namespace)"

# 6: 1% loss on every rank's link changes no result
for r in $(seq 0 $((NRANKS - 1))); do
	tc -n "$PFX$r" qdisc add dev eth0 root netem loss 1% 2>&1 | diag
done
rtx0=$(stat_of "${PFX}0" OutRetransmits)
osc_run
rc=$?
rtx1=$(stat_of "${PFX}0" OutRetransmits)
grep 'mpi_osc' "$TMP/mpi.log" | diag
echo "# rank 0 namespace: Wind OutRetransmits +$(( ${rtx1:-0} - ${rtx0:-0} ))"
[ $rc = 0 ] && grep -q "mpi_osc: OK ($NRANKS ranks" "$TMP/mpi.log"
result $? "mpi_osc on $NRANKS nodes through 1% loss on every link (exit $rc)"
[ $rc != 0 ] && tail -n 60 "$TMP/mpi.log" | diag
for r in $(seq 0 $((NRANKS - 1))); do
	tc -n "$PFX$r" qdisc del dev eth0 root 2>/dev/null
done

# 7: rank 1's link goes down while the two ranks run atomics on each
# other's windows: rank 0 must end in an error, not hang (the initiator
# of an unanswered request probes its target after FI_WIND_PROBE_MS, Wind
# reports it unreachable within its bound, the atomic completes in error
# and btl ofi aborts).  mpirun then cannot reach rank 1's orted through
# the dead link to end the job: the link comes back up once rank 0 has
# failed (or after 150 s), so that the job can be torn down.
rm -f "$TMP/ready"
timeout 300 mpirun --allow-run-as-root -np 2 --host "$NET.1,$NET.2" --bind-to none \
	--mca plm_rsh_agent "$TMP/rsh" --mca plm_rsh_no_tree_spawn 1 \
	--mca oob_tcp_if_include "$NET.0/24" \
	-x FI_PROVIDER_PATH -x PATH \
	--mca pml ob1 --mca btl ofi --mca btl_ofi_mode 2 \
	--mca opal_common_ofi_provider_include wind \
	--mca osc rdma --mca osc_rdma_btls ofi \
	"$TESTS/mpi_osc_fault" "$TMP/ready" > "$TMP/fault.log" 2>&1 &
mpid=$!
failed_in=
if poll 120 test -e "$TMP/ready"; then
	ip -n "${PFX}1" link set eth0 down
	cut=$SECONDS
	if poll 150 grep -q 'BTL OFI will now abort\|mpi_osc_fault: rank 0: MPI error' "$TMP/fault.log"; then
		failed_in=$((SECONDS - cut))
	fi
else
	echo "# mpi_osc_fault never got ready"
fi
ip -n "${PFX}1" link set eth0 up
wait $mpid
rc=$?
grep -i 'mpi_osc_fault\|will now abort' "$TMP/fault.log" | sed 's/after [0-9]* rounds/after N rounds/' |
	sort -u | head -8 | diag
echo "# rank 0 failed ${failed_in:-never (150 s)} s after the link went down; mpirun exit $rc"
[ -n "$failed_in" ] && [ $rc != 0 ]
result $? "a rank losing its link during one-sided atomics: its peer ends in an error, not a hang (${failed_in:-no error} s)"

ktap_exit
