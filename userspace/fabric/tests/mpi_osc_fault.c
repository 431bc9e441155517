// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_osc_fault: ranks 0 and 1 each fetch-and-add on the other's window
 * forever (passive target, MPI_THREAD_MULTIPLE); after a few rounds rank
 * 0 creates the file named by argv[1], so that a test can cut a rank's
 * link.  An atomic whose target is gone must end the job in an error
 * (btl ofi aborts on an error completion; with MPI_ERRORS_RETURN a
 * failing call prints "mpi_osc_fault: rank R: MPI error ..." and the rank
 * exits 3), not in a hang.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, provided, i, err = MPI_SUCCESS, len;
	char msg[MPI_MAX_ERROR_STRING];
	int64_t one = 1, got, *base;
	MPI_Win win;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (argc < 2 || size != 2) {
		fprintf(stderr, "usage: mpirun -np 2 %s READY_FILE\n", argv[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Win_allocate(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	MPI_Win_lock_all(0, win);
	for (i = 0; ; i++) {
		err = MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 1 - rank, 0,
				       MPI_SUM, win);
		if (!err)
			err = MPI_Win_flush(1 - rank, win);
		if (err)
			break;
		if (rank == 0 && i == 20) {
			FILE *f = fopen(argv[1], "w");

			if (f)
				fclose(f);
			printf("mpi_osc_fault: 20 rounds, ready\n");
			fflush(stdout);
		}
	}
	MPI_Error_string(err, msg, &len);
	printf("mpi_osc_fault: rank %d: MPI error after %d rounds: %s\n", rank, i, msg);
	fflush(stdout);
	exit(3);
}
