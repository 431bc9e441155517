#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The HPC Challenge table of scripts/benchmarks/bench-hpcc.

    bench/hpcc_table.py "LABEL=DIR[,DIR...]" ...

A LABEL's DIRs are its rounds; each DIR holds one hpcc run (scripts/benchmarks/bench-hpcc-guest): hpccoutf.txt,
mpirun.log, exit.  Prints each run's verdicts: the lines of hpccoutf.txt
that say PASSED or FAILED (HPL, PTRANS), and hpcc's other checks
("Found N errors" of the RandomAccess tests, "Node(s) with error N" of
the Star and Single tests, STREAM's "Solution Validates", the residual
check counts, the summary's Success), by section; a run passed when it
exited 0, none failed and Success=1.  Then the summary figures side by
side, each LABEL's the median of its rounds (every round's value after
it when there are several), with the ratio of each LABEL's median to the
first LABEL's ("this / first").
"""
import os
import re
import sys

# (summary key, what it is, scale, unit, higher is better)
FIGURES = [
    ("HPL_Tflops", "HPL", 1000, "Gflop/s", True),
    ("HPL_time", "HPL time", 1, "s", False),
    ("PTRANS_GBs", "PTRANS", 1, "GB/s", True),
    ("MPIRandomAccess_GUPs", "MPIRandomAccess", 1, "GUP/s", True),
    ("MPIFFT_Gflops", "MPIFFT", 1, "Gflop/s", True),
    ("MPIFFT_maxErr", "MPIFFT max(|x-x0|)", 1, "", False),
    ("StarDGEMM_Gflops", "StarDGEMM (per rank)", 1, "Gflop/s", True),
    ("StarSTREAM_Triad", "StarSTREAM Triad (per rank)", 1, "GB/s", True),
    ("MinPingPongLatency_usec", "ping-pong latency, min", 1, "us", False),
    ("AvgPingPongLatency_usec", "ping-pong latency, avg", 1, "us", False),
    ("MaxPingPongLatency_usec", "ping-pong latency, max", 1, "us", False),
    ("NaturallyOrderedRingLatency_usec", "ring latency, natural order", 1, "us", False),
    ("RandomlyOrderedRingLatency_usec", "ring latency, random order", 1, "us", False),
    ("MinPingPongBandwidth_GBytes", "ping-pong bandwidth, min", 1000, "MB/s", True),
    ("AvgPingPongBandwidth_GBytes", "ping-pong bandwidth, avg", 1000, "MB/s", True),
    ("MaxPingPongBandwidth_GBytes", "ping-pong bandwidth, max", 1000, "MB/s", True),
    ("NaturallyOrderedRingBandwidth_GBytes", "ring bandwidth, natural order", 1000, "MB/s", True),
    ("RandomlyOrderedRingBandwidth_GBytes", "ring bandwidth, random order", 1000, "MB/s", True),
]
SECTION = re.compile(r"^Begin of (\S+) section\.")


def parse(d):
    """(summary dict, [(section, verdict line)], exit status or None)"""
    summary, verdicts, section, insum = {}, [], "?", False
    try:
        with open(os.path.join(d, "hpccoutf.txt"), errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                m = SECTION.match(line)
                if m:
                    section = m.group(1)
                if line.startswith("Begin of Summary section"):
                    insum = True
                elif line.startswith("End of Summary section"):
                    insum = False
                elif insum and "=" in line:
                    k, _, v = line.partition("=")
                    summary[k.strip()] = v.strip()
                v = verdict(line)
                if v is not None:
                    verdicts.append((section, v, line.strip()))
    except OSError:
        pass
    try:
        with open(os.path.join(d, "exit")) as f:
            rc = int(f.read().strip())
    except (OSError, ValueError):
        rc = None
    return summary, verdicts, rc


CHECKS = [
    (re.compile(r"\bFAILED\b"), lambda m: False),
    (re.compile(r"\bPASSED\b"), lambda m: True),
    (re.compile(r"Found (\d+) errors in"), lambda m: m.group(1) == "0"),
    (re.compile(r"Node\(s\) with error (\d+)"), lambda m: m.group(1) == "0"),
    (re.compile(r"(\d+) tests? completed and failed residual checks"),
     lambda m: m.group(1) == "0"),
    (re.compile(r"Solution Validates"), lambda m: True),
    (re.compile(r"Failed Validation"), lambda m: False),
]


def verdict(line):
    """True (a check passed), False (failed) or None (no check)"""
    for rx, ok in CHECKS:
        m = rx.search(line)
        if m:
            return ok(m)
    return None


def num(summary, key, scale):
    try:
        return float(summary[key]) * scale
    except (KeyError, ValueError):
        return None


def fmt(x):
    if x is None:
        return "n/a"
    if abs(x) >= 100:
        return "%.0f" % x
    if abs(x) >= 1:
        return "%.2f" % x
    return "%.4g" % x


def median(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def main():
    runs = []
    for arg in sys.argv[1:]:
        label, _, dirs = arg.partition("=")
        rounds = [(d,) + parse(d) for d in dirs.split(",") if d]
        runs.append((label, rounds))

    print()
    print("hpcc's own checks (hpccoutf.txt):")
    for label, rounds in runs:
        for i, (d, summary, verdicts, rc) in enumerate(rounds):
            npass = sum(1 for _, _, line in verdicts if re.search(r"\bPASSED\b", line))
            nfail = sum(1 for _, _, line in verdicts if re.search(r"\bFAILED\b", line))
            bad = [(sec, line) for sec, ok, line in verdicts if not ok]
            if rc is None:
                state = "did not run"
            elif not summary:
                state = "exit %d, no summary" % rc
            else:
                state = "exit %d, Success=%s" % (rc, summary.get("Success", "?"))
            ok = rc == 0 and summary.get("Success") == "1" and not bad and npass > 0
            print("  %s, round %d: %s; %d PASSED, %d FAILED; %d other checks, %d failed: %s" % (
                label, i + 1, state, npass, nfail, len(verdicts) - npass - nfail,
                len(bad) - nfail, "every test passed" if ok else "NOT every test passed"))
            secs = {}
            for sec, good, _ in verdicts:
                n = secs.setdefault(sec, [0, 0])
                n[0 if good else 1] += 1
            print("      " + ", ".join("%s %d/%d" % (sec, n[0], n[0] + n[1])
                                       for sec, n in secs.items()))
            for sec, line in bad:
                print("      FAILED in %s: %s" % (sec, re.sub(r"\s+", " ", line)))

    many = any(len(rounds) > 1 for _, rounds in runs)
    print()
    print("| figure | unit | " + " | ".join(label for label, _ in runs) +
          "".join(" | %s / %s" % (label, runs[0][0]) for label, _ in runs[1:]) + " |")
    print("|---" * (2 + len(runs) + len(runs) - 1) + "|")
    for key, name, scale, unit, _ in FIGURES:
        per = [[num(summary, key, scale) for _, summary, _, _ in rounds]
               for _, rounds in runs]
        meds = [median(vs) for vs in per]
        if all(m is None for m in meds):
            continue
        cells = []
        for m, vs in zip(meds, per):
            cell = fmt(m)
            if many:
                cell += " (" + ", ".join(fmt(v) for v in vs) + ")"
            cells.append(cell)
        for m in meds[1:]:
            cells.append("%.2fx" % (m / meds[0]) if m is not None and meds[0] else "n/a")
        print("| %s | %s | %s |" % (name, unit, " | ".join(cells)))
    first = runs[0][1][0][1] if runs and runs[0][1] else {}
    print()
    print("HPL N %s, NB %s, grid %s x %s; %s" % (
        first.get("HPL_N", "n/a"), first.get("HPL_NB", "n/a"),
        first.get("HPL_nprow", "?"), first.get("HPL_npcol", "?"),
        "each cell the median of the rounds, every round's value in brackets"
        if many else "one round"))


if __name__ == "__main__":
    main()
