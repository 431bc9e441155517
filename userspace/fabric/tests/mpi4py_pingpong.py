#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# mpi4py_pingpong: what `python3 -m mpi4py.bench pingpong` does in mpi4py
# 4 (Debian 12's mpi4py 3.1 has only helloworld and ringtest): ranks 0 and
# 1 bounce a buffer of each size, and the payload is checked each round.
#
#   mpirun -np 2 python3 mpi4py_pingpong.py [-n ITERATIONS] [-s SKIP] [SIZES...]
#
# As mpi4py 4's, the first SKIP round trips of each size (default 10)
# are a warm-up: checked, not timed.
import sys

from mpi4py import MPI


def main():
    args = sys.argv[1:]
    iters = 10
    skip = 10
    while len(args) >= 2 and args[0] in ("-n", "-s"):
        if args[0] == "-n":
            iters = int(args[1])
        else:
            skip = int(args[1])
        args = args[2:]
    sizes = [int(a) for a in args] or [1, 1024, 65536, 1 << 20]
    comm = MPI.COMM_WORLD
    rank = comm.Get_rank()
    bad = 0
    if rank == 0:
        print("# %10s %12s %12s" % ("bytes", "usec/xfer", "MB/s"))
    for size in sizes:
        sbuf = bytearray((i * 7 + size) & 0xFF for i in range(size))
        rbuf = bytearray(size)
        comm.Barrier()
        t0 = MPI.Wtime()
        for i in range(skip + iters):
            if i == skip:
                t0 = MPI.Wtime()
            if rank == 0:
                comm.Send([sbuf, MPI.BYTE], dest=1, tag=1)
                comm.Recv([rbuf, MPI.BYTE], source=1, tag=2)
                bad += rbuf != sbuf
            elif rank == 1:
                comm.Recv([rbuf, MPI.BYTE], source=0, tag=1)
                bad += rbuf != sbuf
                comm.Send([rbuf, MPI.BYTE], dest=0, tag=2)
        t = MPI.Wtime() - t0
        if rank == 0:
            lat = t / iters / 2 * 1e6
            print("  %10d %12.1f %12.2f" % (size, lat, size / lat if lat else 0))
    bad = comm.allreduce(bad)
    if rank == 0:
        print("mpi4py_pingpong: %s" % ("OK" if not bad else "FAILED (%d)" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
