// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_osc: MPI one-sided communication the way a page-based S-DSM uses
 * it, every result checked.  MPI_Init_thread(MPI_THREAD_MULTIPLE), then
 * for a window of each flavour (MPI_Win_allocate and MPI_Win_create on
 * memory of our own), with passive-target synchronisation only:
 *
 *   put      every rank writes a pattern into its right neighbour's window
 *            (small, and 1 MiB), under an exclusive lock
 *   get      every rank reads its left neighbour's pattern back
 *   accumulate  MPI_SUM of int64 and of double, MPI_REPLACE, into rank 0
 *   fetch-and-op  MPI_SUM of 1 on a counter at rank 0, from 2 threads per
 *            rank at once: the fetched values must be all of 0..N-1
 *   get_accumulate MPI_NO_OP (an atomic read)
 *   compare-and-swap  a mutex at rank 0 built on MPI_Compare_and_swap
 *            protects a non-atomic get/increment/put of a counter: the
 *            final count is exact only if the CAS excludes
 *
 * Prints "mpi_osc: OK (N ranks, ...)" and exits 0 when every check
 * passed; "mpi_osc: FAIL ..." otherwise.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG		(1 << 20)	/* bytes of the big put/get */
#define NSLOT		64		/* int64 slots */
#define ACC_ROUNDS	50
#define FOP_ROUNDS	40
#define FOP_THREADS	2
#define CAS_ROUNDS	20

/* window layout, in bytes */
#define OFF_SLOTS	0				/* int64[NSLOT] */
#define OFF_DBL		(OFF_SLOTS + NSLOT * 8)		/* double */
#define OFF_CNT		(OFF_DBL + 8)			/* int64 fetch-and-op counter */
#define OFF_MUTEX	(OFF_CNT + 8)			/* int64 CAS mutex, -1 free */
#define OFF_PROT	(OFF_MUTEX + 8)			/* int64 counter it protects */
#define OFF_REPL	(OFF_PROT + 8)			/* int64 MPI_REPLACE target */
#define OFF_BIG		4096				/* BIG bytes */
#define WIN_SIZE	(OFF_BIG + BIG)

static int rank, size, failures;
static const char *flavour;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		printf("mpi_osc: FAIL rank %d (%s): ", rank, flavour);	\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		fflush(stdout);						\
		failures++;						\
	}								\
} while (0)

static unsigned char pattern(int from, size_t i)
{
	return (unsigned char)(from * 31 + i * 7 + (i >> 9));
}

struct fop_arg {
	MPI_Win win;
	int64_t got[FOP_ROUNDS];
};

static void *fop_thread(void *p)
{
	struct fop_arg *a = p;
	int64_t one = 1;
	int i;

	for (i = 0; i < FOP_ROUNDS; i++) {
		MPI_Fetch_and_op(&one, &a->got[i], MPI_INT64_T, 0, OFF_CNT,
				 MPI_SUM, a->win);
		MPI_Win_flush(0, a->win);
	}
	return NULL;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static void run(MPI_Win win, char *base)
{
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	unsigned char *buf = malloc(BIG);
	int64_t v, old, *all;
	double d;
	size_t i;
	int r, bad;

	/* init own window (local access under an exclusive self-lock) */
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
	memset(base, 0, WIN_SIZE);
	*(int64_t *)(base + OFF_MUTEX) = -1;
	MPI_Win_unlock(rank, win);
	MPI_Barrier(MPI_COMM_WORLD);

	/* put: slot [rank] and the big area of the right neighbour */
	v = 1000 + rank;
	for (i = 0; i < BIG; i++)
		buf[i] = pattern(rank, i);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
	MPI_Put(&v, 1, MPI_INT64_T, right, OFF_SLOTS + rank * 8, 8, MPI_BYTE, win);
	MPI_Put(buf, BIG, MPI_BYTE, right, OFF_BIG, BIG, MPI_BYTE, win);
	MPI_Win_unlock(right, win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
	CHECK(*(int64_t *)(base + OFF_SLOTS + left * 8) == 1000 + left,
	      "put: slot %d holds %lld", left,
	      (long long)*(int64_t *)(base + OFF_SLOTS + left * 8));
	for (i = 0, bad = 0; i < BIG; i++)
		if ((unsigned char)base[OFF_BIG + i] != pattern(left, i))
			bad++;
	CHECK(!bad, "put: %d of %d bytes from rank %d wrong", bad, BIG, left);
	MPI_Win_unlock(rank, win);
	MPI_Barrier(MPI_COMM_WORLD);

	/* get: read back what we put at the right neighbour */
	memset(buf, 0, BIG);
	v = -1;
	MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
	MPI_Get(&v, 1, MPI_INT64_T, right, OFF_SLOTS + rank * 8, 8, MPI_BYTE, win);
	MPI_Get(buf, BIG, MPI_BYTE, right, OFF_BIG, BIG, MPI_BYTE, win);
	MPI_Win_unlock(right, win);
	CHECK(v == 1000 + rank, "get: slot %d at rank %d holds %lld", rank,
	      right, (long long)v);
	for (i = 0, bad = 0; i < BIG; i++)
		if (buf[i] != pattern(rank, i))
			bad++;
	CHECK(!bad, "get: %d of %d bytes wrong", bad, BIG);
	MPI_Barrier(MPI_COMM_WORLD);

	/* accumulate: int64 and double sums, and a replace, into rank 0 */
	for (r = 0; r < ACC_ROUNDS; r++) {
		int64_t add = rank + 1;
		double dadd = 0.5 * (rank + 1);

		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		MPI_Accumulate(&add, 1, MPI_INT64_T, 0, OFF_SLOTS + 63 * 8, 1,
			       MPI_INT64_T, MPI_SUM, win);
		MPI_Accumulate(&dadd, 1, MPI_DOUBLE, 0, OFF_DBL, 1, MPI_DOUBLE,
			       MPI_SUM, win);
		MPI_Win_unlock(0, win);
	}
	v = 7000 + rank;
	MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
	MPI_Accumulate(&v, 1, MPI_INT64_T, 0, OFF_REPL, 1, MPI_INT64_T,
		       MPI_REPLACE, win);
	MPI_Win_unlock(0, win);
	MPI_Barrier(MPI_COMM_WORLD);
	/* get_accumulate MPI_NO_OP: an atomic read, from every rank */
	MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
	MPI_Get_accumulate(NULL, 0, MPI_INT64_T, &v, 1, MPI_INT64_T, 0,
			   OFF_SLOTS + 63 * 8, 1, MPI_INT64_T, MPI_NO_OP, win);
	MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, &d, 1, MPI_DOUBLE, 0, OFF_DBL,
			   1, MPI_DOUBLE, MPI_NO_OP, win);
	MPI_Get_accumulate(NULL, 0, MPI_INT64_T, &old, 1, MPI_INT64_T, 0,
			   OFF_REPL, 1, MPI_INT64_T, MPI_NO_OP, win);
	MPI_Win_unlock(0, win);
	CHECK(v == (int64_t)ACC_ROUNDS * size * (size + 1) / 2,
	      "accumulate int64 sum %lld, want %lld", (long long)v,
	      (long long)ACC_ROUNDS * size * (size + 1) / 2);
	CHECK(d == 0.5 * ACC_ROUNDS * size * (size + 1) / 2,
	      "accumulate double sum %g, want %g", d,
	      0.5 * ACC_ROUNDS * size * (size + 1) / 2);
	CHECK(old >= 7000 && old < 7000 + size, "replace left %lld", (long long)old);
	MPI_Barrier(MPI_COMM_WORLD);

	/* fetch-and-op from FOP_THREADS threads per rank at once */
	{
		struct fop_arg a[FOP_THREADS];
		pthread_t t[FOP_THREADS];
		int n = FOP_ROUNDS * FOP_THREADS;

		all = malloc(sizeof(*all) * n * size);
		MPI_Win_lock_all(0, win);
		for (r = 0; r < FOP_THREADS; r++) {
			a[r].win = win;
			pthread_create(&t[r], NULL, fop_thread, &a[r]);
		}
		for (r = 0; r < FOP_THREADS; r++)
			pthread_join(t[r], NULL);
		MPI_Win_unlock_all(win);
		for (r = 0; r < FOP_THREADS; r++)
			memcpy(buf + r * FOP_ROUNDS * 8, a[r].got, FOP_ROUNDS * 8);
		MPI_Allgather(buf, n, MPI_INT64_T, all, n, MPI_INT64_T,
			      MPI_COMM_WORLD);
		qsort(all, (size_t)n * size, sizeof(*all), cmp64);
		for (i = 0, bad = 0; i < (size_t)n * size; i++)
			if (all[i] != (int64_t)i)
				bad++;
		CHECK(!bad, "fetch-and-op: %d of %d fetched values are not 0..%d once each",
		      bad, n * size, n * size - 1);
		free(all);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		MPI_Get(&v, 1, MPI_INT64_T, 0, OFF_CNT, 1, MPI_INT64_T, win);
		MPI_Win_unlock(0, win);
		CHECK(v == (int64_t)n * size, "fetch-and-op: counter %lld, want %d",
		      (long long)v, n * size);
	}
	MPI_Barrier(MPI_COMM_WORLD);

	/* compare-and-swap: a mutex protecting a get/increment/put */
	MPI_Win_lock_all(0, win);
	for (r = 0; r < CAS_ROUNDS; r++) {
		int64_t me = rank, freev = -1, cnt;

		do {
			MPI_Compare_and_swap(&me, &freev, &old, MPI_INT64_T, 0,
					     OFF_MUTEX, win);
			MPI_Win_flush(0, win);
		} while (old != -1);
		MPI_Get(&cnt, 1, MPI_INT64_T, 0, OFF_PROT, 1, MPI_INT64_T, win);
		MPI_Win_flush(0, win);
		cnt++;
		MPI_Put(&cnt, 1, MPI_INT64_T, 0, OFF_PROT, 1, MPI_INT64_T, win);
		MPI_Win_flush(0, win);
		MPI_Compare_and_swap(&freev, &me, &old, MPI_INT64_T, 0,
				     OFF_MUTEX, win);
		MPI_Win_flush(0, win);
		CHECK(old == me, "cas: mutex held by %lld, not by me", (long long)old);
	}
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
	MPI_Get(&v, 1, MPI_INT64_T, 0, OFF_PROT, 1, MPI_INT64_T, win);
	MPI_Get(&old, 1, MPI_INT64_T, 0, OFF_MUTEX, 1, MPI_INT64_T, win);
	MPI_Win_unlock(0, win);
	CHECK(v == (int64_t)CAS_ROUNDS * size,
	      "cas: protected counter %lld, want %d", (long long)v, CAS_ROUNDS * size);
	CHECK(old == -1, "cas: mutex left at %lld", (long long)old);
	MPI_Barrier(MPI_COMM_WORLD);
	free(buf);
}

int main(int argc, char **argv)
{
	int provided, total;
	MPI_Win win;
	char *base, *mem;

	(void)argc; (void)argv;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	flavour = "init";
	CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE not provided (%d)",
	      provided);

	flavour = "MPI_Win_allocate";
	if (MPI_Win_allocate(WIN_SIZE, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
			     &win) != MPI_SUCCESS) {
		CHECK(0, "MPI_Win_allocate failed");
	} else {
		run(win, base);
		MPI_Win_free(&win);
	}

	flavour = "MPI_Win_create";
	mem = malloc(WIN_SIZE);
	if (MPI_Win_create(mem, WIN_SIZE, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
			   &win) != MPI_SUCCESS) {
		CHECK(0, "MPI_Win_create failed");
	} else {
		run(win, mem);
		MPI_Win_free(&win);
	}
	free(mem);

	MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0) {
		if (total == 0)
			printf("mpi_osc: OK (%d ranks, MPI_THREAD_MULTIPLE, Win_allocate and Win_create: put, get, accumulate, fetch-and-op from %d threads, compare-and-swap)\n",
			       size, FOP_THREADS);
		else
			printf("mpi_osc: FAIL (%d failed checks)\n", total);
	}
	MPI_Finalize();
	return total ? 1 : 0;
}
