// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_osc_lat: the latency of passive-target MPI one-sided operations on
 * a target that computes outside MPI, as an S-DSM leaves its nodes.
 *
 *   mpi_osc_lat [-n REPS] [-w WARMUP] [-b BUSY_S] [-t single|multiple]
 *
 * Two ranks.  Rank 0, the origin, times for each of MPI_Put, MPI_Get and
 * MPI_Accumulate (MPI_SUM on MPI_LONG) of 8 B and of 64 KiB one
 * epoch after another:
 *
 *   MPI_Win_lock(MPI_LOCK_SHARED, 1) / the operation / MPI_Win_unlock(1)
 *
 * (the unlock completes the operation at the target), WARMUP times
 * untimed, then REPS times, each timed on its own (CLOCK_MONOTONIC).
 * Each of these six cells runs twice:
 *
 *   computing  rank 1 computes (floating point on memory of its own,
 *              reading the clock) and calls no MPI function until the
 *              origin's last epoch has put a flag into its window, which
 *              it watches with plain loads, or until BUSY_S (default 30)
 *              seconds have passed; then it enters MPI_Barrier.  An
 *              operation counts as served while the target computed if
 *              it completed before the target left its loop (one clock:
 *              both ranks must be on one machine, as network namespaces
 *              of one VM are).  Where the target must call MPI to serve
 *              (osc pt2pt; a provider whose progress is the target's),
 *              the first epoch waits until the target gives up
 *              computing: the cell is "stalled", and its longest wait
 *              is what an application that never calls MPI would see.
 *   in-MPI     rank 1 waits in MPI_Barrier throughout (its progress
 *              engine runs): the reference for the mechanism alone.
 *
 * Every MPI_Get checks the bytes it read (the window's pattern, which
 * MPI_Put writes again unchanged), and rank 1 checks at the end that the
 * accumulated counts are exact.  Rank 0 prints one line per cell:
 *
 *   mpi_osc_lat: put 8 computing served 200/200 median 123.4 p99 456.7 max 789.0
 *
 * (microseconds; median and p99, nearest rank, of the timed epochs that
 * were served while the target computed, or of all of them in-MPI; max
 * is the longest epoch, warm-up included), then "mpi_osc_lat: OK (...)"
 * when every check passed.  Exit status 1 otherwise.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#define BIG		65536			/* bytes of the large size */
#define NLONG		(BIG / sizeof(long))
/* window layout, in longs */
#define OFF_DATA	0			/* put and get: data[i] = i */
#define OFF_ACC		NLONG			/* accumulate: counts, from 0 */
#define OFF_FLAG	(2 * NLONG)		/* the origin's "cell done" */
#define WIN_LONGS	(2 * NLONG + 512 / sizeof(long))

enum op { OP_PUT, OP_GET, OP_ACC, NOPS };
static const char *const op_name[NOPS] = { "put", "get", "acc" };
static const size_t sizes[] = { 8, BIG };
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

static int rank, failures;

#define FAIL(...) do { printf("mpi_osc_lat: FAIL rank %d: ", rank); \
		       printf(__VA_ARGS__); printf("\n"); fflush(stdout); \
		       failures++; } while (0)

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* nearest-rank percentile of n sorted values */
static double pct(const double *v, int n, double p)
{
	int k = (int)(p / 100.0 * n + 0.999999);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

/* one epoch: lock shared, the operation, unlock; its duration in us */
static double epoch(enum op op, size_t bytes, MPI_Win win, long *src,
		    long *dst, double *end)
{
	int count = (int)(bytes / sizeof(long));
	double t0 = now_us();

	MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
	switch (op) {
	case OP_PUT:
		MPI_Put(src, count, MPI_LONG, 1, OFF_DATA, count, MPI_LONG, win);
		break;
	case OP_GET:
		MPI_Get(dst, count, MPI_LONG, 1, OFF_DATA, count, MPI_LONG, win);
		break;
	case OP_ACC:
		MPI_Accumulate(src + NLONG, count, MPI_LONG, 1, OFF_ACC, count,
			       MPI_LONG, MPI_SUM, win);
		break;
	default:
		break;
	}
	MPI_Win_unlock(1, win);
	*end = now_us();
	return *end - t0;
}

/* the target's computation: returns when *flag == want or after busy_us */
static double compute(volatile long *flag, long want, double busy_us,
		      double *sink)
{
	static double work[4096];
	double t0 = now_us(), t;
	double x = *sink;
	size_t i;

	for (;;) {
		for (i = 0; i < sizeof(work) / sizeof(work[0]); i++) {
			work[i] = work[i] * 0.999 + x;
			x = work[i] * 1e-3 + 1.0;
		}
		t = now_us();
		if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == want ||
		    t - t0 >= busy_us)
			break;
	}
	*sink = x;
	return t;
}

int main(int argc, char **argv)
{
	int reps = 200, warm = 20, want = MPI_THREAD_SINGLE, provided, size;
	double busy_s = 30.0, sink = 0.0;
	long *base, *src, *dst, acc_expect[2] = { 0, 0 };
	long cellno = 0;
	double *lat, *ends;
	MPI_Win win;
	int c;

	while ((c = getopt(argc, argv, "n:w:b:t:")) != -1) {
		switch (c) {
		case 'n': reps = atoi(optarg); break;
		case 'w': warm = atoi(optarg); break;
		case 'b': busy_s = atof(optarg); break;
		case 't':
			want = strcmp(optarg, "multiple") ? MPI_THREAD_SINGLE :
			       MPI_THREAD_MULTIPLE;
			break;
		default:
			fprintf(stderr, "usage: mpi_osc_lat [-n REPS] [-w WARMUP] [-b BUSY_S] [-t single|multiple]\n");
			return 2;
		}
	}
	if (reps < 1 || warm < 0) {
		fprintf(stderr, "mpi_osc_lat: REPS must be positive\n");
		return 2;
	}

	MPI_Init_thread(&argc, &argv, want, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		FAIL("runs on 2 ranks, not %d", size);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (provided < want)
		FAIL("thread level %d, asked %d", provided, want);

	MPI_Win_allocate(WIN_LONGS * sizeof(long), sizeof(long), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &base, &win);
	src = malloc(2 * BIG);
	dst = malloc(BIG);
	lat = malloc((reps + warm) * sizeof(*lat));
	ends = malloc((reps + warm) * sizeof(*ends));
	if (!src || !dst || !lat || !ends) {
		FAIL("out of memory");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (size_t i = 0; i < NLONG; i++) {
		base[OFF_DATA + i] = (long)i;
		base[OFF_ACC + i] = 0;
		src[i] = (long)i;		/* put: the pattern again */
		src[NLONG + i] = 1;		/* accumulate: +1 */
	}
	base[OFF_FLAG] = 0;
	MPI_Barrier(MPI_COMM_WORLD);

	for (int phase = 0; phase < 2; phase++) {
		const char *pname = phase ? "in-MPI" : "computing";

		for (size_t s = 0; s < NSIZES; s++) {
			for (int op = 0; op < NOPS; op++) {
				int total = warm + reps, served = 0;
				double t_end = 0, maxlat = 0;

				cellno++;
				MPI_Barrier(MPI_COMM_WORLD);
				if (rank == 1) {
					if (phase == 0)
						t_end = compute(&base[OFF_FLAG], cellno,
								busy_s * 1e6, &sink);
					MPI_Barrier(MPI_COMM_WORLD);
					MPI_Send(&t_end, 1, MPI_DOUBLE, 0, 0,
						 MPI_COMM_WORLD);
					continue;
				}
				for (int i = 0; i < total; i++) {
					if (op == OP_GET)
						memset(dst, 0xa5, sizes[s]);
					lat[i] = epoch(op, sizes[s], win, src, dst,
						       &ends[i]);
					if (lat[i] > maxlat)
						maxlat = lat[i];
					if (op == OP_GET) {
						for (size_t k = 0; k < sizes[s] / sizeof(long); k++) {
							if (dst[k] != (long)k) {
								FAIL("%s %zu: long %zu read %ld",
								     op_name[op], sizes[s], k, dst[k]);
								break;
							}
						}
					}
				}
				if (op == OP_ACC)
					acc_expect[s ? 1 : 0] += total;
				/* tell the computing target the cell is done */
				MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
				MPI_Put(&cellno, 1, MPI_LONG, 1, OFF_FLAG, 1,
					MPI_LONG, win);
				MPI_Win_unlock(1, win);
				MPI_Barrier(MPI_COMM_WORLD);
				MPI_Recv(&t_end, 1, MPI_DOUBLE, 1, 0,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);

				/* the timed epochs; served: done before t_end */
				int n = 0;

				for (int i = warm; i < total; i++) {
					if (phase == 1 || ends[i] <= t_end) {
						lat[n++] = lat[i];
						served++;
					}
				}
				qsort(lat, n, sizeof(*lat), cmp_double);
				printf("mpi_osc_lat: %s %zu %s served %d/%d",
				       op_name[op], sizes[s], pname, served, reps);
				if (n)
					printf(" median %.1f p99 %.1f", pct(lat, n, 50),
					       pct(lat, n, 99));
				printf(" max %.1f\n", maxlat);
				fflush(stdout);
			}
		}
	}

	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
		MPI_Recv(acc_expect, 2, MPI_LONG, 0, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		/* long 0 took every accumulate, the others the 64 KiB ones */
		if (base[OFF_ACC] != acc_expect[0] + acc_expect[1])
			FAIL("accumulated %ld at long 0, expected %ld",
			     base[OFF_ACC], acc_expect[0] + acc_expect[1]);
		for (size_t i = 1; i < NLONG; i++) {
			if (base[OFF_ACC + i] != acc_expect[1]) {
				FAIL("accumulated %ld at long %zu, expected %ld",
				     base[OFF_ACC + i], i, acc_expect[1]);
				break;
			}
		}
		MPI_Win_unlock(1, win);
	} else {
		MPI_Send(acc_expect, 2, MPI_LONG, 1, 1, MPI_COMM_WORLD);
	}
	MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM,
		      MPI_COMM_WORLD);
	if (rank == 0 && !failures)
		printf("mpi_osc_lat: OK (2 ranks, lock shared / op / unlock, %d timed after %d warm-up, target computing up to %.1f s, thread level %s)\n",
		       reps, warm, busy_s,
		       want == MPI_THREAD_MULTIPLE ? "multiple" : "single");
	fflush(stdout);
	MPI_Win_free(&win);
	free(src);
	free(dst);
	free(lat);
	free(ends);
	MPI_Finalize();
	return failures ? 1 : 0;
}
