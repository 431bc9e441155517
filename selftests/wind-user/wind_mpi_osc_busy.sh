#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Passive-target MPI one-sided on a target that computes without calling
# MPI: tests/mpi_osc_busy on 3 ranks, each on a "node" of its own (a
# namespace with its own UTS name, an orted started through an rsh
# agent, as in wind_mpi_osc.sh: no shared memory between ranks, every
# operation crosses Wind).  Rank 0 spins on the clock for BUSY seconds
# while ranks 1 and 2 lock its window shared and exclusive and run
# MPI_Put, MPI_Get, MPI_Accumulate, MPI_Fetch_and_op and
# MPI_Compare_and_swap on it, every result checked exactly.  Over osc
# rdma (pml ob1, btl ofi, provider wind, MPI_THREAD_MULTIPLE) the provider's
# progress thread serves the target: the origins must be done before
# its loop ends.  Over osc pt2pt (MPI_THREAD_SINGLE, pml cm over mtl
# ofi on the provider) the target serves
# passive target only inside MPI: the origins wait for it, and the run
# must still end within the busy time plus 30 s.  KTAP output.
#
#                 +---------- root namespace: mpirun ----------+
#                 | br0 10.83.0.254/24 (ORTE out-of-band, TCP) |
#                 +--+-----------+-----------+-----------------+
#                    |           |           |
#   windb0-PID: eth0 10.83.0.1   10.83.0.2   10.83.0.3   (orted + rank r)

set -u

HERE=$(cd "$(dirname "$0")" && pwd -P)
. "$HERE/../wind/lib.sh"
NTESTS=2
NRANKS=3
BUSY=${WIND_OSC_BUSY_S:-5}
PFX=windb$$-
BR=brb$$
NET=10.83.0
ROOT=${WIND_ROOT:-$(cd "$HERE/../.." && pwd -P)}
PROVDIR=$ROOT/userspace/fabric
TESTS=$PROVDIR/tests
TMP=$(mktemp -d /tmp/wind_mpi_osc_busy.XXXXXX)
export FI_PROVIDER_PATH=$PROVDIR

cleanup() {
	star_cleanup "$BR" "$PFX" "$NRANKS"
	rm -rf "$TMP"
}
trap cleanup EXIT

echo "TAP version 13"
[ "$(id -u)" = 0 ] || skip_all "must be root"
command -v mpirun >/dev/null || skip_all "mpirun missing (openmpi-bin, scripts/deps/install-deps.sh)"
command -v unshare >/dev/null || skip_all "unshare missing (util-linux)"
[ -x "$TESTS/mpi_osc_busy" ] || skip_all "$TESTS/mpi_osc_busy not built (libopenmpi-dev, make)"
[ -r "$PROVDIR/libwind-fi.so" ] || skip_all "$PROVDIR/libwind-fi.so not built (make)"
modinfo wind >/dev/null 2>&1 || skip_all "wind.ko not installed"
modprobe wind 2>/dev/null
echo "1..$NTESTS"

if ! star_setup "$BR" "$NET" "$PFX" "$NRANKS" "vb$$" 2>&1 | diag; then
	echo "# topology setup failed"
fi
star_rsh "$TMP/rsh" "$PFX"
hosts=$(star_hosts "$NET" "$NRANKS")

# busy_run OSC MODE BUSY: mpi_osc_busy over osc OSC.  osc rdma: pml ob1
# and btl ofi on the provider; osc pt2pt: pml cm and mtl ofi on the
# provider (osc pt2pt over pml ob1 and btl ofi under MPI_THREAD_SINGLE
# did not always start within a minute here)
busy_run() {
	local osc=$1 mode=$2 busy=$3 rc t0=$SECONDS pml
	if [ "$osc" = rdma ]; then
		pml="--mca pml ob1 --mca btl ofi --mca btl_ofi_mode 2 --mca opal_common_ofi_provider_include wind --mca osc_rdma_btls ofi"
	else
		pml="--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include wind --mca btl self"
	fi
	# shellcheck disable=SC2086
	timeout 180 mpirun --allow-run-as-root -np "$NRANKS" --host "$hosts" --bind-to none \
		--mca plm_rsh_agent "$TMP/rsh" --mca plm_rsh_no_tree_spawn 1 \
		--mca oob_tcp_if_include "$NET.0/24" \
		-x FI_PROVIDER_PATH -x PATH $pml --mca osc "$osc" \
		"$TESTS/mpi_osc_busy" "$mode" "$busy" > "$TMP/$osc.log" 2>&1
	rc=$?
	grep 'mpi_osc_busy' "$TMP/$osc.log" | diag
	echo "# osc $osc: $((SECONDS - t0)) s"
	[ $rc = 0 ] && grep -q "mpi_osc_busy: OK ($NRANKS ranks, $mode" "$TMP/$osc.log" ||
		{ tail -n 40 "$TMP/$osc.log" | diag; return 1; }
}

# 1: osc rdma: served while the target computes
busy_run rdma async "$BUSY"
result $? "osc rdma over wind: lock shared/exclusive, put, get, accumulate, fetch-and-op, CAS on a target computing ${BUSY} s without MPI, all done before it stops"

# 2: osc pt2pt: served once the target calls MPI again, within a bound
busy_run pt2pt sync 2
result $? "osc pt2pt over wind (pml cm, mtl ofi): the same on a target computing 2 s, done within the busy time plus 30 s"

ktap_exit
