// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_osc_busy: passive-target one-sided MPI on a target that computes.
 *
 *   mpi_osc_busy async|sync [BUSY_S]
 *
 * Rank 0, the target, spends BUSY_S seconds (default 4) in a loop that
 * reads the clock and never calls MPI, while every other rank, K rounds
 * each: locks rank 0's window shared and does MPI_Fetch_and_op (+1),
 * MPI_Accumulate (+rank), MPI_Put of a slot of its own, MPI_Win_flush and
 * MPI_Get of that slot back (checked); locks it exclusive and increments
 * a counter by MPI_Get, flush, MPI_Put (no other rank may interleave);
 * locks it shared and increments another by MPI_Compare_and_swap until
 * its swap succeeds (every returned old value checked against what was
 * compared).  Then rank 0 checks every slot exactly: the fetch-and-op
 * counter, the accumulated sum, each rank's pattern, the exclusive and
 * the CAS counters, and that every fetch-and-op value was returned once.
 *
 * "async": the origins must all have finished before the target left its
 * loop (the provider's progress thread served the target: osc rdma over
 * btl ofi); "sync": they may wait for the target (osc pt2pt serves
 * passive target only inside MPI calls), but the whole must end within
 * the busy time plus 30 s.  MPI_THREAD_MULTIPLE for "async" (osc rdma
 * takes it), MPI_THREAD_SINGLE for "sync" (Open MPI 4.1's osc pt2pt
 * refuses MPI_THREAD_MULTIPLE).  Prints "mpi_osc_busy: OK (...)" on rank
 * 0 when every check passed; exit status 1 otherwise.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#define K		10	/* rounds per origin */
#define SLOT_FOP	0
#define SLOT_ACC	1
#define SLOT_EXCL	2
#define SLOT_CAS	3
#define SLOT_RANK	8	/* + rank: each origin's own */
#define FOP_BASE	1000
#define NSLOTS		(SLOT_RANK + 64)

static int rank, size, failures;

#define FAIL(...) do { fprintf(stderr, "mpi_osc_busy: rank %d: FAIL: ", rank); \
		       fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); \
		       failures++; } while (0)

static double now_s(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC: one clock for every process of the machine
	 * (network namespaces do not change it) */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int64_t pattern(int r, int round)
{
	return ((int64_t)r << 40) | ((int64_t)round << 20) | 0x5a5;
}

static void origin(MPI_Win win, int64_t *fops)
{
	int64_t one = 1, mine = rank, old, v, got;
	int round;

	for (round = 0; round < K; round++) {
		int64_t pat = pattern(rank, round);

		/* shared: fetch-and-op, accumulate, put and get back */
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, SLOT_FOP, MPI_SUM, win);
		MPI_Accumulate(&mine, 1, MPI_INT64_T, 0, SLOT_ACC, 1, MPI_INT64_T,
			       MPI_SUM, win);
		MPI_Put(&pat, 1, MPI_INT64_T, 0, SLOT_RANK + rank, 1,
			MPI_INT64_T, win);
		MPI_Win_flush(0, win);
		got = 0;
		MPI_Get(&got, 1, MPI_INT64_T, 0, SLOT_RANK + rank, 1,
			MPI_INT64_T, win);
		MPI_Win_unlock(0, win);
		fops[round] = old;
		if (old < FOP_BASE || old >= FOP_BASE + (int64_t)(size - 1) * K)
			FAIL("round %d: fetch-and-op returned %" PRId64, round, old);
		if (got != pat)
			FAIL("round %d: got %#" PRIx64 " back, put %#" PRIx64,
			     round, got, pat);

		/* exclusive: get, increment, put */
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Get(&v, 1, MPI_INT64_T, 0, SLOT_EXCL, 1, MPI_INT64_T, win);
		MPI_Win_flush(0, win);
		v++;
		MPI_Put(&v, 1, MPI_INT64_T, 0, SLOT_EXCL, 1, MPI_INT64_T, win);
		MPI_Win_unlock(0, win);

		/* compare-and-swap until ours goes in */
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		v = 0;
		for (;;) {
			int64_t next = v + 1;

			MPI_Compare_and_swap(&next, &v, &old, MPI_INT64_T, 0,
					     SLOT_CAS, win);
			MPI_Win_flush(0, win);
			if (old == v)
				break;
			if (old < v)
				FAIL("round %d: CAS counter went back: %" PRId64
				     " after %" PRId64, round, old, v);
			v = old;
		}
		MPI_Win_unlock(0, win);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "async";
	double busy = argc > 2 ? atof(argv[2]) : 4.0;
	int async = !strcmp(mode, "async"), provided, want;
	double t_begin, t_end = 0, t_done = 0, t_all;
	int64_t *base, fops[K], *allfops = NULL;
	double *done = NULL;
	MPI_Win win;
	int r, i;

	want = async ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
	MPI_Init_thread(&argc, &argv, want, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (provided < want)
		FAIL("thread level %d, asked %d", provided, want);
	if (size < 2 || size - 1 > NSLOTS - SLOT_RANK) {
		FAIL("needs 2 to %d ranks", NSLOTS - SLOT_RANK + 1);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Win_allocate(NSLOTS * sizeof(int64_t), sizeof(int64_t),
			 MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	memset(base, 0, NSLOTS * sizeof(int64_t));
	base[SLOT_FOP] = FOP_BASE;
	MPI_Barrier(MPI_COMM_WORLD);

	t_begin = now_s();
	if (rank == 0) {
		volatile uint64_t spins = 0;

		/* compute: no MPI call at all */
		while (now_s() - t_begin < busy)
			spins++;
		t_end = now_s();
	} else {
		origin(win, fops);
		t_done = now_s();
	}

	/* the results */
	if (rank == 0) {
		done = calloc(size, sizeof(*done));
		allfops = calloc((size_t)size * K, sizeof(*allfops));
	}
	MPI_Gather(&t_done, 1, MPI_DOUBLE, done, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Gather(fops, K, MPI_INT64_T, allfops, K, MPI_INT64_T, 0, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	t_all = now_s();
	if (rank == 0) {
		int64_t sum = 0, n = (int64_t)(size - 1) * K;
		char *seen = calloc(n, 1);

		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Win_sync(win);
		for (r = 1; r < size; r++)
			sum += r;
		if (base[SLOT_FOP] != FOP_BASE + n)
			FAIL("fetch-and-op counter %" PRId64 ", want %" PRId64,
			     base[SLOT_FOP], FOP_BASE + n);
		if (base[SLOT_ACC] != sum * K)
			FAIL("accumulated %" PRId64 ", want %" PRId64,
			     base[SLOT_ACC], sum * K);
		if (base[SLOT_EXCL] != n)
			FAIL("exclusive counter %" PRId64 ", want %" PRId64,
			     base[SLOT_EXCL], n);
		if (base[SLOT_CAS] != n)
			FAIL("CAS counter %" PRId64 ", want %" PRId64,
			     base[SLOT_CAS], n);
		for (r = 1; r < size; r++)
			if (base[SLOT_RANK + r] != pattern(r, K - 1))
				FAIL("rank %d's slot %#" PRIx64 ", want %#" PRIx64,
				     r, base[SLOT_RANK + r], pattern(r, K - 1));
		MPI_Win_unlock(0, win);
		/* every fetch-and-op value returned exactly once */
		for (i = K; i < size * K; i++) {
			int64_t v = allfops[i] - FOP_BASE;

			if (v < 0 || v >= n || seen[v]++)
				FAIL("fetch-and-op value %" PRId64 " out of range or twice",
				     allfops[i]);
		}
		free(seen);
		for (r = 1; r < size; r++) {
			printf("mpi_osc_busy: rank %d done %.2f s after the start, the target's loop ended at %.2f s\n",
			       r, done[r] - t_begin, t_end - t_begin);
			if (async && done[r] >= t_end)
				FAIL("rank %d finished %.2f s after the target's loop ended: the target was not served while it computed",
				     r, done[r] - t_end);
		}
		if (t_all - t_begin > busy + 30)
			FAIL("took %.1f s, busy %.1f s", t_all - t_begin, busy);
	}
	MPI_Win_free(&win);
	MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0) {
		if (failures)
			printf("mpi_osc_busy: %d failure(s)\n", failures);
		else
			printf("mpi_osc_busy: OK (%d ranks, %s, target busy %.1f s, all done in %.1f s)\n",
			       size, mode, busy, t_all - t_begin);
	}
	free(done);
	free(allfops);
	MPI_Finalize();
	return failures ? 1 : 0;
}
