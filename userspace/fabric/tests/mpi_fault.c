// SPDX-License-Identifier: GPL-2.0
/*
 * mpi_fault: ranks 0 and 1 ping-pong forever; after a few rounds rank 0
 * creates the file named by argv[1], so that a test can cut a rank's
 * link.  With MPI_ERRORS_RETURN, the call that fails prints
 * "mpi_fault: rank R: MPI error ..." and the rank exits 3: a dead peer
 * must end in an error, not in a hang.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, i, v = 0, err = MPI_SUCCESS, len;
	char msg[MPI_MAX_ERROR_STRING];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (argc < 2 || size < 2) {
		fprintf(stderr, "usage: mpirun -np 2 %s READY_FILE\n", argv[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (i = 0; rank < 2; i++) {
		if (rank == 0) {
			err = MPI_Send(&i, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
			if (!err)
				err = MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD,
					       MPI_STATUS_IGNORE);
			if (i == 5) {
				FILE *f = fopen(argv[1], "w");

				if (f)
					fclose(f);
				printf("mpi_fault: 5 rounds, ready\n");
				fflush(stdout);
			}
		} else {
			err = MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
				       MPI_STATUS_IGNORE);
			if (!err)
				err = MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		}
		if (err)
			break;
	}
	MPI_Error_string(err, msg, &len);
	printf("mpi_fault: rank %d: MPI error after %d rounds: %s\n", rank, i, msg);
	fflush(stdout);
	exit(3);
}
