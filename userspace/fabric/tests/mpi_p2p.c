// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_p2p: MPI point-to-point checks for a transport (run on 2 or more
 * ranks; ranks 0 and 1 talk, the others only take part in the barriers).
 * Tags received in the reverse of their send order (unexpected messages),
 * MPI_ANY_SOURCE/MPI_ANY_TAG with the status checked, 1 B to 16 MiB,
 * 64 outstanding non-blocking pairs, a synchronous send, a probe, and a
 * ring over every rank.  Every payload is checked byte for byte; exit
 * status 0 and "mpi_p2p: OK" on rank 0 when all passed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define FAIL(...) do { \
	printf("FAIL rank %d: ", rank); printf(__VA_ARGS__); printf("\n"); \
	fflush(stdout); failures++; \
} while (0)

static void fill(unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seed * 37 + i * 11 + (i >> 9));
}

static int check(const unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != (unsigned char)(seed * 37 + i * 11 + (i >> 9)))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 1, 13, 1000, 65536, 1 << 20, 16 << 20 };
	int rank, size, i, total;
	unsigned char *buf;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	buf = malloc(16 << 20);

	/* 1: ten tags, received in reverse order */
	if (rank == 0) {
		for (i = 0; i < 10; i++) {
			fill(buf, 100 + i, i);
			MPI_Send(buf, 100 + i, MPI_BYTE, 1, i, MPI_COMM_WORLD);
		}
	} else if (rank == 1) {
		for (i = 9; i >= 0; i--) {
			int n;

			MPI_Recv(buf, 4096, MPI_BYTE, 0, i, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_BYTE, &n);
			if (n != 100 + i || st.MPI_TAG != i || !check(buf, n, i))
				FAIL("tag %d: count %d tag %d", i, n, st.MPI_TAG);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);

	/* 2: wildcards */
	if (rank == 0) {
		fill(buf, 77, 42);
		MPI_Send(buf, 77, MPI_BYTE, 1, 4242, MPI_COMM_WORLD);
	} else if (rank == 1) {
		int n;

		MPI_Recv(buf, 4096, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
			 MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_BYTE, &n);
		if (st.MPI_SOURCE != 0 || st.MPI_TAG != 4242 || n != 77 ||
		    !check(buf, 77, 42))
			FAIL("wildcard: source %d tag %d count %d", st.MPI_SOURCE,
			     st.MPI_TAG, n);
	}
	MPI_Barrier(MPI_COMM_WORLD);

	/* 3: sizes, each echoed back */
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		int n = sizes[i];

		if (rank == 0) {
			fill(buf, n, 100 + i);
			MPI_Send(buf, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
			memset(buf, 0, n);
			MPI_Recv(buf, n, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &st);
			if (!check(buf, n, 200 + i))
				FAIL("size %d: echo differs", n);
		} else if (rank == 1) {
			MPI_Recv(buf, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st);
			if (!check(buf, n, 100 + i))
				FAIL("size %d: payload differs", n);
			fill(buf, n, 200 + i);
			MPI_Send(buf, n, MPI_BYTE, 0, 8, MPI_COMM_WORLD);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);

	/* 4: 64 outstanding each way */
	if (rank < 2) {
		enum { N = 64, LEN = 3000 };
		static unsigned char sb[N][LEN], rb[N][LEN];
		MPI_Request req[2 * N];
		int peer = 1 - rank;

		for (i = 0; i < N; i++) {
			fill(sb[i], LEN, rank * 1000 + i);
			MPI_Irecv(rb[i], LEN, MPI_BYTE, peer, 500 + i, MPI_COMM_WORLD, &req[i]);
		}
		for (i = N - 1; i >= 0; i--)
			MPI_Isend(sb[i], LEN, MPI_BYTE, peer, 500 + i, MPI_COMM_WORLD, &req[N + i]);
		MPI_Waitall(2 * N, req, MPI_STATUSES_IGNORE);
		for (i = 0; i < N; i++)
			if (!check(rb[i], LEN, peer * 1000 + i))
				FAIL("outstanding #%d differs", i);
	}
	MPI_Barrier(MPI_COMM_WORLD);

	/* 5: synchronous send and probe */
	if (rank == 0) {
		fill(buf, 5000, 5);
		MPI_Ssend(buf, 5000, MPI_BYTE, 1, 55, MPI_COMM_WORLD);
	} else if (rank == 1) {
		int n, flag = 0;

		MPI_Probe(0, 55, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_BYTE, &n);
		if (n != 5000)
			FAIL("probe: count %d", n);
		MPI_Iprobe(0, 56, MPI_COMM_WORLD, &flag, &st);
		if (flag)
			FAIL("iprobe found a message never sent");
		MPI_Recv(buf, 5000, MPI_BYTE, 0, 55, MPI_COMM_WORLD, &st);
		if (!check(buf, 5000, 5))
			FAIL("ssend payload differs");
	}
	MPI_Barrier(MPI_COMM_WORLD);

	/* 6: a ring over every rank */
	{
		int token = rank == 0 ? 1 : 0;

		if (rank == 0) {
			MPI_Send(&token, 1, MPI_INT, 1 % size, 9, MPI_COMM_WORLD);
			MPI_Recv(&token, 1, MPI_INT, size - 1, 9, MPI_COMM_WORLD, &st);
			if (token != size)
				FAIL("ring: token %d after %d ranks", token, size);
		} else {
			MPI_Recv(&token, 1, MPI_INT, rank - 1, 9, MPI_COMM_WORLD, &st);
			token++;
			MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD);
		}
	}

	MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("mpi_p2p: %s (%d ranks, %d failures)\n", total ? "FAILED" : "OK",
		       size, total);
	free(buf);
	MPI_Finalize();
	return total ? 1 : 0;
}
