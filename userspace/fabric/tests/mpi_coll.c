// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_coll: MPI collectives checked against values every rank can compute:
 * broadcast (1 KiB and 1 MiB), allreduce (sum, max of ints and doubles),
 * alltoall, allgather, reduce and a barrier, on any number of ranks.
 * Exit status 0 and "mpi_coll: OK" on rank 0 when all passed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static int rank;

#define FAIL(...) do { \
	printf("FAIL rank %d: ", rank); printf(__VA_ARGS__); printf("\n"); \
	fflush(stdout); failures++; \
} while (0)

int main(int argc, char **argv)
{
	int size, i, total, root;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* broadcast from every root, two sizes */
	for (root = 0; root < size; root++) {
		static const int lens[] = { 1024, 1 << 20 };

		for (int l = 0; l < 2; l++) {
			int n = lens[l];
			unsigned char *b = malloc(n);

			for (i = 0; i < n; i++)
				b[i] = rank == root ? (unsigned char)(root + i * 3) : 0;
			MPI_Bcast(b, n, MPI_BYTE, root, MPI_COMM_WORLD);
			for (i = 0; i < n; i++)
				if (b[i] != (unsigned char)(root + i * 3))
					break;
			if (i != n)
				FAIL("bcast root %d len %d: byte %d differs", root, n, i);
			free(b);
		}
	}

	/* allreduce */
	{
		enum { N = 1000 };
		static int in[N], out[N];
		static double din[N], dout[N];

		for (i = 0; i < N; i++) {
			in[i] = rank * N + i;
			din[i] = rank + i * 0.5;
		}
		MPI_Allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		for (i = 0; i < N; i++)
			if (out[i] != N * size * (size - 1) / 2 + size * i)
				break;
		if (i != N)
			FAIL("allreduce sum: element %d is %d", i, out[i]);
		MPI_Allreduce(din, dout, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		for (i = 0; i < N; i++)
			if (dout[i] != (size - 1) + i * 0.5)
				break;
		if (i != N)
			FAIL("allreduce max: element %d is %g", i, dout[i]);
	}

	/* alltoall: element j of rank r's send buffer is r * 100 + j */
	{
		enum { PER = 256 };
		int *s = malloc(sizeof(int) * PER * size), *r = malloc(sizeof(int) * PER * size);

		for (int d = 0; d < size; d++)
			for (i = 0; i < PER; i++)
				s[d * PER + i] = rank * 1000000 + d * 1000 + i;
		MPI_Alltoall(s, PER, MPI_INT, r, PER, MPI_INT, MPI_COMM_WORLD);
		for (int src = 0; src < size; src++)
			for (i = 0; i < PER; i++)
				if (r[src * PER + i] != src * 1000000 + rank * 1000 + i) {
					FAIL("alltoall from %d element %d: %d", src, i,
					     r[src * PER + i]);
					src = size;
					break;
				}
		free(s);
		free(r);
	}

	/* allgather and reduce */
	{
		int *g = malloc(sizeof(int) * size), v = rank * rank, sum = -1;

		MPI_Allgather(&v, 1, MPI_INT, g, 1, MPI_INT, MPI_COMM_WORLD);
		for (i = 0; i < size; i++)
			if (g[i] != i * i)
				FAIL("allgather[%d] = %d", i, g[i]);
		MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD);
		if (rank == size - 1 && sum != size * (size - 1) / 2)
			FAIL("reduce: %d", sum);
		free(g);
	}
	MPI_Barrier(MPI_COMM_WORLD);

	MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("mpi_coll: %s (%d ranks, %d failures)\n", total ? "FAILED" : "OK",
		       size, total);
	MPI_Finalize();
	return total ? 1 : 0;
}
