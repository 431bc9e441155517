#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The MPI one-sided latency table of scripts/benchmarks/bench-mpi.

    bench/osc_table.py "LABEL=LOG" ...

Each LOG is one mpi_osc_lat run's output (userspace/fabric/tests/
mpi_osc_lat.c); the first is the row the targets are about (osc rdma
over wind), a LABEL starting "wind, osc pt2pt" the first target's
other side, every LABEL starting "tcp;ofi_rxm" the second's.  A cell
is median / p99 in microseconds of the timed epochs; "stalled X s" when
some of them were served only after the target stopped computing, X
the longest epoch (warm-up included): what a target that never calls
MPI would make it wait.  For ratios and targets a cell's value is its
median, or for a stalled cell that longest wait.
"""
import re
import sys

LINE = re.compile(r"^mpi_osc_lat: (\w+) (\d+) (\S+) served (\d+)/(\d+)"
                  r"(?: median ([\d.]+) p99 ([\d.]+))? max ([\d.]+)")
CELLS = [("put", 8), ("put", 65536), ("get", 8), ("get", 65536),
         ("acc", 8), ("acc", 65536)]
PHASES = [("computing", "rank 1 computing outside MPI"),
          ("in-MPI", "rank 1 waiting in MPI_Barrier (reference)")]


def size_name(n):
    return "64 KiB" if n == 65536 else "%d B" % n


def parse(path):
    """{(op, size, phase): dict} and whether the run ended OK, or None"""
    cells, ok = {}, False
    try:
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("mpi_osc_lat: OK"):
                    ok = True
                m = LINE.match(line)
                if not m:
                    continue
                served, reps = int(m.group(4)), int(m.group(5))
                cells[(m.group(1), int(m.group(2)), m.group(3))] = {
                    "served": served, "reps": reps,
                    "median": float(m.group(6)) if m.group(6) else None,
                    "p99": float(m.group(7)) if m.group(7) else None,
                    "max": float(m.group(8)),
                    "stalled": served < reps,
                }
    except OSError:
        return None
    return cells, ok


def value(c):
    """the cell's latency for ratios: median, or the longest wait if stalled"""
    if c is None:
        return None
    return c["max"] if c["stalled"] else c["median"]


def show(c):
    if c is None:
        return "n/a"
    if c["stalled"]:
        return "stalled %.1f s (%d/%d)" % (c["max"] / 1e6, c["served"], c["reps"])
    return "%s / %s" % (us(c["median"]), us(c["p99"]))


def us(x):
    return "%.1f" % x if x < 100 else "%.0f" % x


def ratio(x):
    if x < 0.001:
        return "<0.001x"
    return "%.3fx" % x if x < 0.1 else "%.2fx" % x


def main():
    rows = []
    for arg in sys.argv[1:]:
        label, _, path = arg.partition("=")
        parsed = parse(path)
        if parsed is None or not parsed[0]:
            rows.append((label, None, "did not run"))
        else:
            rows.append((label, parsed[0], None if parsed[1] else "did not end OK"))
    head = "| row | " + " | ".join("%s %s" % (o, size_name(s)) for o, s in CELLS) + " |"
    sep = "|---" * (len(CELLS) + 1) + "|"
    for phase, title in PHASES:
        print()
        print("%s: median / p99 us of the timed epochs" % title)
        print(head)
        print(sep)
        for label, cells, why in rows:
            if cells is None:
                print("| %s | %s |" % (label, " | ".join(["n/a (%s)" % why] * len(CELLS))))
                continue
            print("| %s%s | %s |" % (label, " (%s)" % why if why else "",
                                     " | ".join(show(cells.get((o, s, phase))) for o, s in CELLS)))

    ref_label, ref, _ = rows[0]
    ratios = {}
    for phase, title in PHASES:
        print()
        print("ratios, %s: %s / row (below 1: it took less time)" % (title, ref_label))
        print(head)
        print(sep)
        for label, cells, _ in rows[1:]:
            out = []
            for o, s in CELLS:
                a = value(ref.get((o, s, phase))) if ref else None
                b = value(cells.get((o, s, phase))) if cells else None
                if a is None or b is None or b == 0:
                    out.append("n/a")
                    continue
                if phase == "computing":
                    ratios.setdefault(label, []).append(a / b)
                out.append(ratio(a / b))
            print("| %s | %s |" % (label, " | ".join(out)))

    print()
    print("targets (rank 1 computing, every cell's median; a stalled cell counts with its longest wait):")
    for name, prefix in (("osc rdma over wind at most osc pt2pt over wind", "wind, osc pt2pt"),
                         ("osc rdma over wind at most tcp;ofi_rxm", "tcp;ofi_rxm")):
        others = [label for label, _, _ in rows[1:] if label.startswith(prefix)]
        measured = [label for label in others if len(ratios.get(label, [])) == len(CELLS)]
        if not measured:
            print("  %s: not measured (no run of %s ended with every cell)" % (name, prefix))
            continue
        worst = max(max(ratios[label]) for label in measured)
        met = worst <= 1.0
        print("  %s: %s (largest ratio %s, against %s)%s" % (
            name, "met" if met else "NOT MET", ratio(worst), ", ".join(measured),
            "" if len(measured) == len(others) else
            "; not measured: " + ", ".join(sorted(set(others) - set(measured)))))


if __name__ == "__main__":
    main()
