#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn one `make bench` run into bench/results/: results.json (everything,
raw rows included), results.md (the tables, the targets (bench/README.md) with
their figures) and the PNG plots (gnuplot, bench/plot.gp).

    bench/report.py [--host-cpu MODEL] [--host-cpus N] bench/results

Input, written by scripts/benchmarks/bench-guest.sh in the VM: meta.json, raw.jsonl
(one windperf -j object per line, tagged with "row" and "loss"),
iperf3-*.json, and from the 2-vCPU boot (busy polling, Soft-RoCE)
meta-2.json and rxe.jsonl (perftest's and scripts/benchmarks/pagecost.c's figures),
and from the two-VM run of the kpeers-lan rows (scripts/benchmarks/bench-kpeers-lan-guest)
lan.jsonl and meta-lan.json.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

PROTOS = ("wind", "udp", "tcp")
NAMES = {"wind": "Wind", "udp": "UDP", "tcp": "TCP", "sctp": "SCTP", "tipc": "TIPC",
         "rds": "RDS/TCP"}
# the kpeers rows: Wind beside these, in one windperf client per row
KPEERS = ("udp", "tcp", "sctp", "tipc", "rds")
HERE = os.path.dirname(os.path.abspath(__file__))


def load_rxe(out):
    """rxe.jsonl: one object per perftest or pagecost result."""
    rows = []
    try:
        with open(os.path.join(out, "rxe.jsonl")) as f:
            for line in f:
                if line.strip():
                    rows.append(json.loads(line))
    except OSError:
        pass
    return rows


def load(out):
    meta = {}
    for name in ("meta.json", "meta-2.json"):
        try:
            with open(os.path.join(out, name)) as f:
                m = json.load(f)
        except OSError:
            continue
        if meta:
            meta["boot2"] = m
        else:
            meta = m
    try:
        with open(os.path.join(out, "meta-lan.json")) as f:
            meta["lan"] = json.load(f)
    except (OSError, ValueError):
        pass
    runs = []
    for name in ("raw.jsonl", "lan.jsonl"):
        try:
            f = open(os.path.join(out, name))
        except OSError:
            continue
        with f:
            for line in f:
                line = line.strip()
                if line:
                    runs.append(json.loads(line))
    iperf = {}
    for name in sorted(os.listdir(out)):
        if name.startswith("iperf3-") and name.endswith(".json"):
            try:
                with open(os.path.join(out, name)) as f:
                    iperf[name[7:-5]] = json.load(f)
            except (OSError, ValueError):
                pass
    return meta, runs, iperf


def merge(a, b):
    """One row out of the same row measured in two rounds: the repetitions
    of both, counts summed, per-operation figures weighted by operations."""
    m = dict(a)
    m["rep_values"] = a["rep_values"] + b["rep_values"]
    m["rep_ids"] = a["rep_ids"] + b["rep_ids"]
    m["reps"] = len(m["rep_values"])
    m["median"] = statistics.median(m["rep_values"])
    m["min"], m["max"] = min(m["rep_values"]), max(m["rep_values"])
    ops = a["ops"] + b["ops"]
    for k in ("pkts_out", "pkts_in", "acks_out", "acks_in", "retrans", "link_tx",
              "link_rx", "ip_frags", "rcvbuf_errors", "sndbuf_errors", "cpu_us"):
        if k in a and k in b:
            m[k] = (a[k] * a["ops"] + b[k] * b["ops"]) / max(ops, 1)
    if "cpu_busy_pct" in a and "cpu_busy_pct" in b:
        m["cpu_busy_pct"] = ((a["cpu_busy_pct"] * a["secs"] + b["cpu_busy_pct"] * b["secs"])
                             / max(a["secs"] + b["secs"], 1e-9))
    for k in ("ops", "secs", "sent", "rcvd", "bytes_sent", "bytes_rcvd", "timeouts"):
        if k in a and k in b:
            m[k] = a[k] + b[k]
    if "best_us" in a and "best_us" in b:
        m["best_us"] = min(a["best_us"], b["best_us"])
    if "p99_us" in a and "p99_us" in b:
        # no exchange list to merge: the larger round's p99 bounds the
        # p99 of both from above
        m["p99_us"] = max(a["p99_us"], b["p99_us"])
        m["mean_us"] = (a["mean_us"] * a["ops"] + b["mean_us"] * b["ops"]) / max(ops, 1)
    for k in ("snd_retrans", "snd_rto", "rcv_retrans", "rcv_rto", "snd_pkts_out",
              "retrans_total", "rto"):
        if k in a and k in b:
            m[k] = a[k] + b[k]
    if m.get("sent"):
        m["loss_pct"] = 100.0 * (m["sent"] - m["rcvd"]) / m["sent"]
    return m


class Results:
    """Index: (row, loss, proto, size, reply, peers, load, variant) ->
    windperf row (variant: the read rows' "landed" or "recvmsg").

    Each repetition gets an id: the windperf client ("run") that measured
    it and its index there, or, for the loss rows, the bench round and its
    index in the round.  Repetitions with the same id ran back to back
    (the protocols of one client alternate theirs; a loss round runs
    every loss rate in turn), and ratio() pairs them.  A row measured in
    several rounds is merged into one.
    """

    def __init__(self, runs):
        self.idx = {}
        self.failed = []
        for run in runs:
            if run.get("failed"):
                self.failed.append(run)
                continue
            tag = ("round", run["round"]) if "round" in run else ("run", run.get("run"))
            for r in run.get("rows", []):
                peers = r.get("peers", run.get("peers", 1))
                if run["row"] not in ("peers", "incast"):
                    peers = 1
                key = (run["row"], run["loss"], run["proto"],
                       r.get("size"), r.get("reply", 0), peers, r.get("load", 0),
                       r.get("variant"))
                r["rep_ids"] = [tag + (i,) for i in range(len(r.get("rep_values", [])))]
                self.idx[key] = merge(self.idx[key], r) if key in self.idx else r

    def get(self, row, proto, size=None, reply=0, loss=None, peers=1, load=0,
            variant=None):
        if ("bulk" in row or row == "incast") and proto == "udp" and size == 65536:
            size = 65507
        return self.idx.get((row, loss, proto, size, reply, peers, load, variant))

    def mem(self):
        for key, r in self.idx.items():
            if key[0] == "mem":
                return r
        return None


def fmt(v, digits=1):
    if v is None:
        return "–"
    return f"{v:.{digits}f}"


def cell(r, digits=1):
    if r is None:
        return "–"
    return f"{r['median']:.{digits}f} ({r['min']:.{digits}f}–{r['max']:.{digits}f})"


def lcell(r, digits=1):
    """A latency cell: cell() and the p99 of every exchange."""
    if r is None:
        return "–"
    p99 = f", p99 {r['p99_us']:.0f}" if "p99_us" in r else ""
    return cell(r, digits) + p99


def mean_row(r):
    """The row with its mean time per operation as the value ratios use."""
    if r is None:
        return None
    return dict(r, median_of_reps=r["median"], median=r["secs"] / max(r["ops"], 1) * 1e6,
                rep_ids=None)


def mcell(r):
    if r is None:
        return "–"
    p99 = f", p99 {r['p99_us']:.0f}" if "p99_us" in r else ""
    return f"{r['median']:.0f} ({r['median_of_reps']:.0f}{p99})"


def ratio(a, b):
    """a over b.  Repetitions that ran back to back (the same id: one
    round of a windperf client, which runs each protocol once, or one
    loss round, which runs each loss rate once) pair up, and the ratio is
    the median of the paired ratios, so that whatever else slowed the
    machine during a round cancels out.  Rows with no repetition in
    common: the ratio of their medians.
    """
    if a is None or b is None or not b.get("median"):
        return None
    ia, ib = a.get("rep_ids"), b.get("rep_ids")
    if ia and ib:
        vb = dict(zip(ib, b["rep_values"]))
        pairs = [x / vb[i] for i, x in zip(ia, a["rep_values"]) if vb.get(i)]
        if pairs:
            return statistics.median(pairs)
    return a["median"] / b["median"]


def rfmt(x):
    return "–" if x is None else f"{x:.2f}"


def iperf_summary(iperf):
    """(label, Mbit/s received, loss %) for each iperf3 run."""
    out = []
    for name, j in sorted(iperf.items()):
        end = j.get("end", {})
        if "error" in j:
            out.append((name, None, None, j["error"]))
            continue
        if name == "tcp":
            s = end.get("sum_received", {})
            out.append((name, s.get("bits_per_second", 0) / 1e6, None, ""))
        else:
            s = end.get("sum_received") or end.get("sum", {})
            lost = end.get("sum", {}).get("lost_percent")
            out.append((name, s.get("bits_per_second", 0) / 1e6, lost, ""))
    return out


# The encap rows: (label, row suffix, size, reply, higher is better)
ENCAP_ROWS = (("ping-pong 32 B, µs", "rtt", 32, 0, False),
              ("page fetch 64 B / 8 KiB, µs", "rr", 64, 8192, False),
              ("bulk 64 KiB, Mbit/s", "bulk", 65536, 0, True))


def targets(R, meta):
    """The base targets (bench/README.md): (row, target, measured, met)."""
    t = []
    # 1. small-message RTT, 16-128 B
    worst, below_tcp, parts = 0.0, True, []
    ok = True
    for size in (16, 32, 128):
        w, u, c = (R.get("rtt", p, size) for p in PROTOS)
        ru, rc = ratio(w, u), ratio(w, c)
        if ru is None or rc is None:
            ok = False
            continue
        worst = max(worst, ru)
        below_tcp = below_tcp and rc < 1.0
        parts.append(f"{size} B: {ru:.2f}x UDP, {rc:.2f}x TCP")
    t.append(("small-message RTT, async-ordered, 16-128 B",
              "<= 1.10x UDP, and below TCP_NODELAY",
              "; ".join(parts) or "not measured",
              ok and worst <= 1.10 and below_tcp))
    # 2. sync send
    s, u = R.get("sync", "wind", 32), R.get("rtt", "udp", 32)
    r = ratio(s, u)
    t.append(("sync-ordered send of 32 B", "<= 1.15x UDP ping-pong RTT",
              f"{fmt(s and s['median'])} us vs {fmt(u and u['median'])} us: {rfmt(r)}x",
              r is not None and r <= 1.15))
    # 3. packets per request/reply
    parts, ok = [], True
    for size in (16, 32, 128, 1024):
        w = R.get("rtt", "wind", size)
        if not w:
            ok = False
            continue
        n = w["pkts_out"] + w["pkts_in"]
        parts.append(f"{size} B: {n:.2f} ({w['acks_out'] + w['acks_in']:.2f} pure ACKs)")
        ok = ok and n <= 2.05
    t.append(("packets per request/reply exchange, no loss",
              "2 (ACKs ride on replies)", "; ".join(parts) or "not measured", ok))
    # 4. bulk 64 KiB
    w, u, c = (R.get("bulk", p, 65536) for p in PROTOS)
    ru, rc = ratio(w, u), ratio(w, c)
    t.append(("bulk goodput, 64 KiB messages",
              ">= 1.0x UDP delivered and >= 0.8x TCP (moonshot 1.0x TCP)",
              f"Wind {fmt(w and w['median'])}, UDP {fmt(u and u['median'])}, "
              f"TCP {fmt(c and c['median'])} Mbit/s: {rfmt(ru)}x UDP, {rfmt(rc)}x TCP",
              ru is not None and rc is not None and ru >= 1.0 and rc >= 0.8))
    # 5. bulk at 1% loss
    w1, w0, c1 = (R.get("bulk", "wind", 65536, loss=1),
                  R.get("bulk", "wind", 65536, loss=0),
                  R.get("bulk", "tcp", 65536, loss=1))
    r0, rc = ratio(w1, w0), ratio(w1, c1)
    t.append(("bulk goodput at 1% loss (64 KiB)",
              ">= 0.7x Wind lossless, and above TCP at 1%",
              f"Wind {fmt(w1 and w1['median'])} Mbit/s: {rfmt(r0)}x Wind at netem 0%, "
              f"{rfmt(rc)}x TCP at 1% ({fmt(c1 and c1['median'])})",
              r0 is not None and rc is not None and r0 >= 0.7 and rc > 1.0))
    # 6. page fetch
    w, u = R.get("rr", "wind", 64, 8192), R.get("rr", "udp", 64, 8192)
    r = ratio(w, u)
    t.append(("8 KiB page fetch (request/reply)", "<= 1.05x UDP",
              f"{fmt(w and w['median'])} us vs {fmt(u and u['median'])} us: {rfmt(r)}x",
              r is not None and r <= 1.05))
    # 7. peers
    a, b = (R.get("peers", "wind", 32, peers=2), R.get("peers", "wind", 32, peers=256))
    r = ratio(b, a)
    t.append(("one socket, 256 peers", "RTT within 1.2x of 2 peers",
              f"{fmt(b and b['median'])} us vs {fmt(a and a['median'])} us: {rfmt(r)}x",
              r is not None and r <= 1.2))
    # 8. memory
    m = R.mem()
    t.append(("kernel memory per idle peer (1000 peers)", "<= 1 KiB",
              f"{m['per_peer']:.0f} B per peer state" if m else "not measured",
              m is not None and m["per_peer"] <= 1024))
    # 9. Wind inside UDP against raw Wind, same run
    parts, ok = [], True
    for label, key, size, reply, higher in ENCAP_ROWS:
        raw = R.get(f"encap-raw-{key}", "wind", size, reply)
        enc = R.get(f"encap-udp-{key}", "wind", size, reply)
        r = ratio(enc, raw)
        if r is None:
            ok = False
            continue
        parts.append(f"{label}: {r:.2f}x raw")
        ok = ok and (r >= 0.95 if higher else r <= 1.05)
    enc, u = (R.get("encap-udp-bulk", p, 65536) for p in ("wind", "udp"))
    ru = ratio(enc, u)
    parts.append(f"bulk {rfmt(ru)}x UDP")
    t.append(("Wind inside UDP, IPv4",
              "within 5% of raw Wind; bulk 64 KiB still >= 1.0x UDP",
              "; ".join(parts) if parts else "not measured",
              ok and ru is not None and ru >= 1.0))
    # 10, 11. IPv6, raw and inside UDP, against raw IPv4 Wind, same run
    if R.get("ipv6-raw4-rtt", "wind", 32):
        t.extend(ipv6_targets(R))
    t.extend(incast_hol_targets(R))
    return t


def incast_n(R):
    """The largest sender count of the incast rows (16), or None."""
    ns = [k[5] for k in R.idx if k[0] == "incast" and k[2] == "wind"]
    return max(ns) if ns else None


def incast_hol_targets(R):
    """Performance targets 6 (incast) and 7 (head-of-line), bench/README.md."""
    t = []
    n = incast_n(R)
    if n:
        one, many = R.get("incast", "wind", 65536, peers=1), R.get("incast", "wind", 65536, peers=n)
        c1, cn = R.get("incast", "tcp", 65536, peers=1), R.get("incast", "tcp", 65536, peers=n)
        r, rc = ratio(many, one), ratio(cn, c1)
        rto = many.get("snd_rto") if many else None
        t.append((f"incast: {n} senders to one receiver, 64 KiB messages",
                  "no retransmission timeout; aggregate goodput >= 0.9x one sender's",
                  f"Wind {fmt(many and many['median'])} Mbit/s with {n} vs "
                  f"{fmt(one and one['median'])} with 1: {rfmt(r)}x; senders' OutTimeouts "
                  f"{fmt(rto, 0)}, OutRetransmits {fmt(many and many.get('snd_retrans'), 0)} "
                  f"(TCP: {rfmt(rc)}x, TCPTimeouts {fmt(cn and cn.get('snd_rto'), 0)})",
                  r is not None and r >= 0.9 and rto == 0))
    parts, xs = [], []
    for row, label in (("hol", "one vCPU"), ("hol-split", "each side on its own vCPU")):
        alone, loaded = R.get(row, "wind", 32), R.get(row, "wind", 32, load=1)
        if not alone and not loaded:
            continue
        ta, tl = R.get(row, "tcp", 32), R.get(row, "tcp", 32, load=1)
        x = (loaded["p99_us"] / alone["median"]
             if alone and loaded and alone.get("median") else None)
        xs.append(x)
        parts.append(f"{label}: Wind p99 {fmt(loaded and loaded['p99_us'], 0)} µs loaded vs "
                     f"median {fmt(alone and alone['median'])} alone: {rfmt(x)}x, the stream "
                     f"adds {loadx(alone, loaded)} to median, p99 (TCP p99 "
                     f"{fmt(tl and tl['p99_us'], 0)}, {p99x(ta, tl)}; adds {loadx(ta, tl)})")
    if parts:
        t.append(("head-of-line: 32 B round trip beside a 64 KiB stream on the same "
                  "socket", "p99 <= 3x the unloaded median",
                  "; ".join(parts), any(x is not None and x <= 3.0 for x in xs)))
    return t


def incast_hol(R):
    """The incast and head-of-line tables (markdown lines)."""
    L = []
    w = L.append
    n = incast_n(R)
    if n:
        w("## Incast: one receiver, many senders at once\n")
        w(f"A bridge with {n + 1} veth ports (MTU 1500): the receiver's netns and {n} "
          "sender netns, one sender process each, all streaming 64 KiB messages (UDP: "
          "65507 B) to one server socket (TCP: one connection each) for the repetition's "
          "time, then asking the server for their session's count. Aggregate goodput: the "
          "bytes the server got over the time until the last sender's answer. The 1-sender "
          "and n-sender rows alternate; ratios pair their rounds. Counters are totals over "
          "the repetitions: the senders' (Wind OutRetransmits / OutTimeouts, TCP "
          "RetransSegs / TcpExt TCPTimeouts) and the receiver's.\n")
        w("| senders | Wind | UDP delivered (loss) | TCP | Wind/UDP | Wind/TCP |")
        w("|---|---|---|---|---|---|")
        for k in (1, n):
            rs = [R.get("incast", p, 65536, peers=k) for p in PROTOS]
            ul = f" ({rs[1]['loss_pct']:.1f}% lost)" if rs[1] else ""
            w(f"| {k} | {cell(rs[0])} | {cell(rs[1])}{ul} | {cell(rs[2])} | "
              f"{rfmt(ratio(rs[0], rs[1]))} | {rfmt(ratio(rs[0], rs[2]))} |")
        w("")
        w(f"| senders | {n} / 1, Wind | {n} / 1, UDP | {n} / 1, TCP | Wind senders: "
          "retransmits, timeouts | TCP senders: retransmits, timeouts |")
        w("|---|---|---|---|---|---|")
        one = [R.get("incast", p, 65536, peers=1) for p in PROTOS]
        many = [R.get("incast", p, 65536, peers=n) for p in PROTOS]

        def ctr(r):
            if r is None:
                return "–"
            return f"{r.get('snd_retrans', 0):.0f}, {r.get('snd_rto', 0):.0f}"
        w(f"| {n} | " + " | ".join(rfmt(ratio(m, o)) for m, o in zip(many, one))
          + f" | {ctr(many[0])} | {ctr(many[2])} |")
        w("")
    L.extend(hol_table(R, "hol"))
    L.extend(hol_table(R, "hol-split"))
    return L


def hol_table(R, row):
    """The head-of-line table of ROW (hol: one vCPU; hol-split: each
    side on its own vCPU), markdown lines."""
    L = []
    w = L.append
    alone = [R.get(row, p, 32) for p in PROTOS]
    loaded = [R.get(row, p, 32, load=1) for p in PROTOS]
    if not any(alone) and not any(loaded):
        return L
    if row == "hol-split":
        w("### The same, each side on its own vCPU, as between two hosts\n")
        w("The 2-vCPU boot: the client's two threads and its netns's receive work "
          "(RPS) on vCPU 0, the server and its receive work on vCPU 1. On one vCPU "
          "the stream's sender, the server and the pinger share the CPU, and a ping "
          "waits for the scheduler as much as for the network; here a ping waits only "
          "for what its own side's CPU is doing. A wake-up across vCPUs under TCG "
          "waits for the host to run the other QEMU thread: the unloaded p99 is "
          "several times the median for every protocol, before any stream.\n")
    else:
        w("## Head-of-line: 32 B round trip beside a 64 KiB stream\n")
        w("One client socket (TCP: one connection carrying both) to one server: a 32 B "
          "ping-pong alone, and while a second thread streams 64 KiB messages on the same "
          "socket to the same server; the rows' repetitions alternate. Wind's pings are "
          "async-reliable (`MSG_WIND_RELIABLE`: delivered as soon as they are in, free to "
          "overtake); the stream is async-ordered. Cells: median of the repetitions' "
          "medians (min–max), p99 of every exchange, µs; the stream's goodput below.\n")
    w("| row | Wind | UDP | TCP | Wind/UDP | Wind/TCP |")
    w("|---|---|---|---|---|---|")
    w("| 32 B ping-pong alone | " + " | ".join(lcell(r) for r in alone)
      + f" | {rfmt(ratio(alone[0], alone[1]))} | {rfmt(ratio(alone[0], alone[2]))} |")
    w("| 32 B ping-pong beside the stream | " + " | ".join(lcell(r) for r in loaded)
      + f" | {rfmt(ratio(loaded[0], loaded[1]))} | {rfmt(ratio(loaded[0], loaded[2]))} |")
    w("| loaded p99 / unloaded median | "
      + " | ".join(p99x(a, b) for a, b in zip(alone, loaded)) + " | | |")
    w("| loaded / unloaded: median, p99 | "
      + " | ".join(loadx(a, b) for a, b in zip(alone, loaded)) + " | | |")
    w("| the stream, Mbit/s delivered | "
      + " | ".join(fmt(r and r.get("bulk_mbps")) for r in loaded) + " | | |")
    w("")
    return L


def p99x(a, b):
    """The head-of-line target's ratio: loaded p99 over unloaded median."""
    if not a or not b or not a.get("median") or "p99_us" not in b:
        return "–"
    return f"{b['p99_us'] / a['median']:.1f}x"


def loadx(a, b):
    """What the stream adds to a ping-pong: loaded over unloaded, median
    and p99."""
    if not a or not b or not a.get("median") or not a.get("p99_us") or "p99_us" not in b:
        return "–"
    return f"{b['median'] / a['median']:.2f}x, {b['p99_us'] / a['p99_us']:.2f}x"


def ipv6_targets(R):
    """Wind over IPv6, raw and inside UDP: each row within 5% of raw
    IPv4 Wind (per-round ratios), and bulk 64 KiB's lead over UDP kept
    as the encapsulation target puts it for Wind inside UDP: Wind over IPv6 >= 1.0x UDP
    over IPv6 (raw IPv4 Wind / UDP over IPv4 shown beside it)."""
    t = []
    w4, u4 = (R.get("ipv6-raw4-bulk", p, 65536) for p in ("wind", "udp"))
    lead4 = ratio(w4, u4)
    for form, name in (("raw6", "Wind over IPv6, raw"),
                       ("udp6", "Wind over IPv6, inside UDP")):
        parts, ok = [], True
        for label, key, size, reply, higher in ENCAP_ROWS:
            ref = R.get(f"ipv6-raw4-{key}", "wind", size, reply)
            w6 = R.get(f"ipv6-{form}-{key}", "wind", size, reply)
            r = ratio(w6, ref)
            if r is None:
                ok = False
                continue
            good = r >= 0.95 if higher else r <= 1.05
            parts.append(f"{label}: {r:.2f}x raw IPv4{'' if good else ' (not met)'}")
            ok = ok and good
        w6, u6 = (R.get(f"ipv6-{form}-bulk", p, 65536) for p in ("wind", "udp"))
        lead6 = ratio(w6, u6)
        kept = lead6 is not None and lead6 >= 1.0
        parts.append(f"bulk {rfmt(lead6)}x UDP over IPv6 (raw IPv4: {rfmt(lead4)}x UDP over IPv4)"
                     + ("" if kept else " (not met)"))
        t.append((name, "within 5% of raw IPv4 Wind; bulk 64 KiB still >= 1.0x UDP "
                  "over IPv6", "; ".join(parts), ok and kept))
    return t


MB = 1048576 * 8 / 1e6  # perftest's MB/sec (2^20 bytes) in Mbit/s


def rxe_find(rxe, row, tool, size, loss=None):
    for r in rxe:
        if (r.get("row") == row and r.get("tool") == tool and r.get("size") == size
                and (loss is None or r.get("loss") == loss) and not r.get("failed")):
            return r
    return None


def rxe_na(rxe):
    for r in rxe:
        if r.get("tool") == "none":
            return r.get("na", "?")
    return None


def lat3(r):
    """median (mean, p99) of a windperf latency row"""
    if r is None:
        return "–"
    extra = ""
    if "mean_us" in r:
        extra = f" (mean {r['mean_us']:.0f}, p99 {r['p99_us']:.0f})"
    return f"{r['median']:.1f}{extra}"


def busy_rxe(R, rxe):
    """The busy-polling and Soft-RoCE tables (markdown lines) and the
    performance targets they measure (row, target, measured, met)."""
    L, t = [], []
    w = L.append
    busy = {(v, us): [R.get(f"busy-{v}-{us}", p, 32) for p in PROTOS]
            for v, us in (("plain", 0), ("plain", 50), ("napi", 0), ("napi", 50),
                          ("napi", 1000))}
    send_lat = rxe_find(rxe, "rxe-lat", "ib_send_lat", 32)
    rxe_rtt = 2 * send_lat["t_typical_us"] if send_lat else None
    if any(x for v in busy.values() for x in v):
        w("## Busy polling: 32 B ping-pong (µs; 2 vCPUs)\n")
        w("Cells: median of the repetitions' medians (mean, p99 of every exchange). "
          "Busy polling: `net.core.busy_read` = `busy_poll` = 50 (or 1000) µs, set before the "
          "sockets of both ends are made (their `SO_BUSY_POLL`). "
          "\"napi\": `ethtool -K eth0 gro on tso off` on both veth ends, without "
          "which a veth has no NAPI instance to spin on (\"plain\": its defaults).\n")
        w("| veth | busy polling | Wind | UDP | TCP | Wind/UDP | Wind/TCP |")
        w("|---|---|---|---|---|---|---|")
        for (v, us), rs in busy.items():
            if not any(rs):
                continue
            w(f"| {v} | {'off' if not us else str(us) + ' µs'} | "
              + " | ".join(lat3(r) for r in rs)
              + f" | {rfmt(ratio(rs[0], rs[1]))} | {rfmt(ratio(rs[0], rs[2]))} |")
        wb, ub = busy[("napi", 50)][0], busy[("napi", 50)][1]
        w0 = busy[("napi", 0)][0]
        r_udp = ratio(wb, ub)
        parts = [f"Wind busy-polled {fmt(wb and wb['median'])} µs "
                 f"(polling off: {fmt(w0 and w0['median'])}), {rfmt(r_udp)}x UDP's "
                 f"{fmt(ub and ub['median'])}"]
        ok = r_udp is not None and r_udp <= 1.0
        if rxe_rtt and wb:
            parts.append(f"{wb['median'] / rxe_rtt:.2f}x Soft-RoCE's {rxe_rtt:.1f} "
                         "(2 x ib_send_lat's typical)")
            ok = ok and wb["median"] <= rxe_rtt
        else:
            ok = False
            parts.append("Soft-RoCE not measured")
        t.append(("busy-polled 32 B round trip",
                  "at most Soft-RoCE's busy-polled ib_send_lat round trip and at most "
                  "UDP's with the same setting", "; ".join(parts), ok))
        w("")

    na = rxe_na(rxe)
    if not any(r.get("tool") not in ("ib_read_lat", "none") for r in rxe) and not na:
        return L, t     # none, or only the read rows' (read_rows())
    w("## Beside Soft-RoCE (rdma_rxe, perftest; 2 vCPUs)\n")
    if na:
        w(f"Soft-RoCE: n/a ({na}).\n")
        t.append(("Wind >= 3x Soft-RoCE throughput", ">= 3x at 0% and 1% loss",
                  f"n/a ({na})", False))
        return L, t
    w("Soft-RoCE runs on a second veth pair in the initial netns "
      "(scripts/benchmarks/rxe-setup), Wind, UDP and TCP on the bench's veth; both MTU 1500, "
      "the same boot, back to back. perftest reports latency one way (half its "
      "ping-pong): its round trip is twice that. Loss: `netem loss 1%` on both "
      "ends of both links.\n")
    w("| row | Wind | UDP | TCP | Soft-RoCE | Wind / Soft-RoCE |")
    w("|---|---|---|---|---|---|")
    rs = [R.get("rxe-rtt", p, 32) for p in PROTOS]
    if send_lat:
        sr = (f"{rxe_rtt:.1f} (mean {2 * send_lat['t_avg_us']:.0f}, "
              f"p99 {2 * send_lat['p99_us']:.0f})")
    else:
        sr = "–"
    w("| 32 B round trip, µs (ping-pong; `ib_send_lat -s 32` x 2) | "
      + " | ".join(lat3(r) for r in rs) + f" | {sr} | "
      + (f"{rs[0]['median'] / rxe_rtt:.2f}" if rs[0] and rxe_rtt else "–") + " |")
    wb = R.get("busy-napi-50", "wind", 32)
    if wb:
        ub = R.get("busy-napi-50", "udp", 32)
        tb = R.get("busy-napi-50", "tcp", 32)
        w("| 32 B round trip busy-polled (busy rows, veth napi), µs | "
          f"{lat3(wb)} | {lat3(ub)} | {lat3(tb)} | {sr} | "
          + (f"{wb['median'] / rxe_rtt:.2f}" if rxe_rtt else "–") + " |")
    dms = rxe_find(rxe, "rxe-dm-sync", "pagecost-dmsync", 8192, 0)
    wl = rxe_find(rxe, "rxe-lat", "ib_write_lat", 8192)
    wl_rtt = 2 * wl["t_typical_us"] if wl else None
    w("| 8 KiB one-sided write, µs (sync Direct Map send: returns on the ACK; "
      "`ib_write_lat -s 8192` x 2) | "
      + (f"{dms['median_us']:.1f} (mean {dms['mean_us']:.0f}, p99 {dms['p99_us']:.0f})"
         if dms else "–")
      + " | | | "
      + (f"{wl_rtt:.1f} (mean {2 * wl['t_avg_us']:.0f}, p99 {2 * wl['p99_us']:.0f})"
         if wl else "–")
      + " | " + (f"{dms['median_us'] / wl_rtt:.2f}" if dms and wl_rtt else "–") + " |")
    thr = []
    for loss in (0, 1):
        dm = rxe_find(rxe, "rxe-dm", "pagecost-dm", 8192, loss)
        ud = rxe_find(rxe, "rxe-dm", "pagecost-udp", 8192, loss)
        bw8 = rxe_find(rxe, "rxe-bw", "ib_write_bw", 8192, loss)
        x = dm["pages_s"] / (bw8["mpps"] * 1e6) if dm and bw8 and bw8["mpps"] else None
        thr.append((f"8 KiB writes/s at {loss}%", x))
        w(f"| 8 KiB remote writes per second, {loss}% loss (Direct Map; UDP "
          "`recvfrom` + `memcpy`; `ib_write_bw -s 8192`) | "
          f"{fmt(dm and dm['pages_s'], 0)} | {fmt(ud and ud['pages_s'], 0)} | | "
          f"{fmt(bw8 and bw8['mpps'] * 1e6, 0)} | {rfmt(x)} |")
        bs = [R.get(f"rxe-bulk-{loss}", p, 65536) for p in PROTOS]
        bw64 = rxe_find(rxe, "rxe-bw", "ib_write_bw", 65536, loss)
        rb = bw64["mbytes_s"] * MB if bw64 else None
        x = bs[0]["median"] / rb if bs[0] and rb else None
        thr.append((f"64 KiB Mbit/s at {loss}%", x))
        w(f"| 64 KiB bandwidth, {loss}% loss, Mbit/s (bulk; `ib_write_bw -s 65536`) | "
          + " | ".join(fmt(r and r["median"]) for r in bs)
          + f" | {fmt(rb)} | {rfmt(x)} |")
    dm = rxe_find(rxe, "rxe-dm", "pagecost-dm", 8192, 0)
    ud = rxe_find(rxe, "rxe-dm", "pagecost-udp", 8192, 0)
    dmr = rxe_find(rxe, "rxe-dm-rps", "pagecost-dm", 8192, 0)
    udr = rxe_find(rxe, "rxe-dm-rps", "pagecost-udp", 8192, 0)
    if dmr or udr:
        w("| 8 KiB remote writes per second, 0% loss, each side's receive work on "
          "its own vCPU (RPS, as between two hosts; Direct Map; UDP delivered) | "
          f"{fmt(dmr and dmr['pages_s'], 0)} | {fmt(udr and udr['pages_s'], 0)} | | | |")
    w("")

    def pratio(a, b):
        return a["pages_s"] / b["pages_s"] if a and b and b["pages_s"] else None
    x0, x1 = pratio(dm, ud), pratio(dmr, udr)
    if x0 is not None or x1 is not None:
        t.append(("Direct Map pages/s >= 1.5x UDP `recvfrom` + `memcpy`",
                  "8 KiB pages per second at 0% loss",
                  f"{rfmt(x0)}x on the veth as it is (the receive work on the sender's "
                  f"vCPU); {rfmt(x1)}x with each side's receive work on its own vCPU",
                  x1 is not None and x1 >= 1.5))
    ok = all(x is not None and x >= 3.0 for _, x in thr)
    t.append(("Wind >= 3x Soft-RoCE throughput",
              "8 KiB remote writes/s and 64 KiB bandwidth, >= 3x at 0% and at 1% loss",
              ", ".join(f"{k}: {rfmt(x)}x" for k, x in thr), ok))
    return L, t


def read_rows(R, rxe):
    """The one-sided read (windperf -t read): the table (markdown lines)
    and its target (row, target, measured, met).  Rows read and read-rr
    (1 vCPU: the landed and the recvmsg read, then the page fetch),
    rxe-read, rxe-read-rr with ib_read_lat (the 2-vCPU boot), and
    rxe-read-rps, rxe-read-rps-rr (the same with RPS split)."""
    L, t = [], []
    w = L.append
    boots = []
    ib = rxe_find(rxe, "rxe-lat", "ib_read_lat", 8192)
    for row, name in (("read", "1 vCPU"), ("rxe-read", "2 vCPUs, pinned"),
                      ("rxe-read-rps", "2 vCPUs, pinned, RPS split")):
        land = R.get(row, "wind", 8192, variant="landed")
        recv = R.get(row, "wind", 8192, variant="recvmsg")
        rr = R.get(f"{row}-rr", "wind", 64, 8192)
        b_ib = ib if row.startswith("rxe-") else None
        if land or recv or rr:
            boots.append((name, land, recv, rr, b_ib))
    if not boots:
        return L, t
    w("## One-sided read of 8 KiB (µs; lower is better)\n")
    w("`windperf -t read -m 8192`: the client reads 8 KiB of a 1 MiB region the "
      "server registered (`WIND_REGION_ADD`), at offsets going round it, one read "
      "at a time; the server's kernel serves it in softirq. \"landed\": the bytes "
      "land in the client's own region (`WIND_RMA_F_LAND`), the completion "
      "carries none; \"recvmsg\": they are the completion's payload. Beside it, in "
      "the same boot, the request/reply page fetch the server process answers "
      "(`-t rr -q 64 -m 8192`, Wind), and in the 2-vCPU boot Soft-RoCE's "
      "`ib_read_lat -s 8192` (perftest reports a read's whole round trip: not "
      "doubled). On the veth as it is, the server's kernel serves the read in "
      "the client's own `sendmsg()` on the client's vCPU (a veth hands a packet "
      "to the receiver's backlog on the sender's CPU); \"RPS split\" puts each "
      "side's receive work on its own vCPU, as between two hosts. Cells: median "
      "of the repetitions' medians (mean, p99 of every read); ratios divide "
      "medians (separate clients).\n")
    w("| setup | read, landed | read, recvmsg | page fetch | ib_read_lat | "
      "landed / page fetch | recvmsg / page fetch | landed / ib_read_lat |")
    w("|---|---|---|---|---|---|---|---|")

    def div(a, b):
        return a / b if a is not None and b else None

    def med(r):
        return r["median"] if r else None

    def rfmt(x):
        return "–" if x is None else f"{x:.2g}" if x < 0.1 else f"{x:.2f}"
    for name, land, recv, rr, b_ib in boots:
        ibc = (f"{b_ib['t_typical_us']:.1f} (mean {b_ib['t_avg_us']:.0f}, "
               f"p99 {b_ib['p99_us']:.0f})" if b_ib else "–")
        ibv = b_ib["t_typical_us"] if b_ib else None
        w(f"| {name} | {lat3(land)} | {lat3(recv)} | {lat3(rr)} | {ibc} | "
          f"{rfmt(div(med(land), med(rr)))} | {rfmt(div(med(recv), med(rr)))} | "
          f"{rfmt(div(med(land), ibv))} |")
    w("\nThe server process over the repetitions (its figures before and after "
      "each, `OP_RUSAGE`): wake-ups (voluntary context switches, the two "
      "exchanges' own left out; a total), CPU µs per operation "
      "(`CLOCK_PROCESS_CPUTIME_ID`: exact; it includes those exchanges), and "
      "`getrusage()`'s user / system split of it. That split is the ratio of the "
      "ticks that found the process in user or kernel mode over its whole life "
      "(`cputime_adjust()`), so a delta shows user time where only the kernel "
      "ran; the wake-ups say whether the process ran at all. On 2 vCPUs, CPU "
      "time includes the host's preemption of the vCPU (TCG has no steal "
      "time).\n")
    w("| setup | row | operations | server wake-ups | server CPU µs/op | "
      "user / sys µs/op (getrusage) |")
    w("|---|---|---|---|---|---|")

    def srv(r):
        if r is None or "srv_wakeups" not in r:
            return "– | – | – | –"
        return (f"{r['ops']:.0f} | {r.get('srv_wakeups', 0):.0f} | "
                f"{r.get('srv_cpu_us', 0):.2f} | "
                f"{r['srv_user_us']:.2f} / {r['srv_sys_us']:.2f}")
    for name, land, recv, rr, _ in boots:
        for label, r in (("read, landed", land), ("read, recvmsg", recv),
                         ("page fetch", rr)):
            if r:
                w(f"| {name} | {label} | {srv(r)} |")
    w("")
    # the target: against the page fetch of the 1-vCPU boot, against
    # ib_read_lat in the 2-vCPU boot (with RPS split where it ran: as
    # between two hosts), and the server process woken by no read
    parts, ok = [], True
    b = dict((x[0], x[1:]) for x in boots)
    land, recv, rr, _ = b.get("1 vCPU", (None,) * 4)
    x = div(med(land), med(rr))
    if x is None:
        ok = False
        parts.append("1 vCPU: not measured")
    else:
        y = div(med(recv), med(rr))
        parts.append(f"1 vCPU: landed {med(land):.1f} µs = {rfmt(x)}x the page fetch's "
                     f"{med(rr):.1f}" + (f" (recvmsg {rfmt(y)}x)" if y is not None else ""))
        ok = ok and x <= 0.8
    setup = "2 vCPUs, pinned, RPS split"
    if setup not in b:
        setup = "2 vCPUs, pinned"
    land2, recv2, rr2, ib2 = b.get(setup, (None,) * 4)
    x = div(med(land2), ib2 and ib2["t_typical_us"])
    if x is None:
        ok = False
        na = rxe_na(rxe)
        parts.append(f"ib_read_lat: n/a ({na})" if na else "ib_read_lat: not measured")
    else:
        parts.append(f"{setup}: landed {med(land2):.1f} µs = {rfmt(x)}x ib_read_lat's "
                     f"{ib2['t_typical_us']:.1f}"
                     + (f", {rfmt(div(med(land2), med(rr2)))}x the page fetch's "
                        f"{med(rr2):.1f}" if rr2 else ""))
        ok = ok and x <= 0.5
    reads = [r for _, land, recv, _, _ in boots for r in (land, recv)
             if r and "srv_wakeups" in r]
    if reads:
        wakes = sum(r["srv_wakeups"] for r in reads)
        n = sum(r["ops"] for r in reads)
        user = max(r["srv_user_us"] for r in reads)
        parts.append(f"the server process woke {wakes:.0f} times for {n:.0f} reads "
                     f"(getrusage user {user:.2f} µs per read at most)")
        ok = ok and wakes == 0
    else:
        ok = False
        parts.append("server wake-ups not measured")
    t.append(("8 KiB one-sided read",
              "at most 0.5x Soft-RoCE ib_read_lat and 0.8x request/reply; server "
              "user CPU per read 0 (the server process woken by no read)",
              "; ".join(parts), ok))
    return L, t


def msgs_rows(R):
    """Small messages (performance target 5): the table (markdown lines) and
    the targets (row, target, measured, met).  Rows msgsN (Wind, UDP, TCP
    in one client, repetitions alternating) and msgsN-more (Wind with
    MSG_MORE, a client of its own right after)."""
    L, t = [], []
    w = L.append
    if not any(R.get(f"msgs{n}", "wind", 64) for n in (1, 8)):
        return L, t
    w("## Small messages: 64 B async messages per second (delivered; higher is better)\n")
    w("`windperf -t msgs -m 64 -S N`: N sending processes, a socket (TCP: a "
      "connection) each, to one receiving socket, for the bulk rows' time; a "
      "cell is messages the receiver got per second, counted until it said so "
      "(Wind's senders close first, which waits for the ACKs). UDP: delivered, "
      "what the receiver got (its loss beside). \"Wind MSG_MORE\": each batch of "
      "16 sends with `MSG_MORE` on all but the last, so they leave bundled "
      "(wind(7)); plain Wind bundles what queues behind a full window or behind "
      "an unacknowledged small packet (Nagle's rule; `WIND_NODELAY` off). "
      "The MSG_MORE row runs right after the others, so its ratios divide medians.\n")
    w("| senders | Wind | Wind MSG_MORE | UDP delivered (loss) | TCP | Wind/UDP | "
      "Wind MSG_MORE/UDP | msgs per Wind data packet (plain / MSG_MORE) |")
    w("|---|---|---|---|---|---|---|---|")
    for n in (1, 8):
        wp, u, c = (R.get(f"msgs{n}", p, 64) for p in PROTOS)
        wm = R.get(f"msgs{n}-more", "wind", 64)
        ul = f" ({u['loss_pct']:.1f}% lost)" if u else ""

        def per_pkt(r):
            if r is None:
                return "–"
            data = r["pkts_out"] - r["acks_out"]
            return f"{1 / data:.1f}" if data > 0 else "–"
        w(f"| {n} -> 1 | {cell(wp, 0)} | {cell(wm, 0)} | {cell(u, 0)}{ul} | {cell(c, 0)} | "
          f"{rfmt(ratio(wp, u))} | {rfmt(ratio(wm, u))} | {per_pkt(wp)} / {per_pkt(wm)} |")
        best = max((x for x in (ratio(wp, u), ratio(wm, u)) if x is not None), default=None)
        t.append((f"64 B messages/s, {n} sender{'s' if n > 1 else ''} -> 1",
                  ">= 2x UDP's delivered message rate",
                  f"Wind {rfmt(ratio(wp, u))}x, Wind MSG_MORE {rfmt(ratio(wm, u))}x UDP "
                  f"({fmt(u and u['median'], 0)} msg/s delivered)",
                  best is not None and best >= 2.0))
    w("")
    return L, t


# The kpeers rows: (label, row suffix, size, reply, kind); kind: "lat"
# (lower is better), "thr" (higher), "cpu" (CPU us per message of the
# bulk row, lower), "msgs" (delivered messages/s, higher; Wind's target
# against UDP is 2x)
KP_ROWS = (("32 B round trip, µs", "rtt", 32, 0, "lat"),
           ("page fetch 64 B -> 8 KiB, µs", "rr", 64, 8192, "lat"),
           ("64 KiB one-way goodput, Mbit/s", "bulk", 65536, 0, "thr"),
           ("CPU per 64 KiB message, µs", "bulk", 65536, 0, "cpu"),
           ("8 senders x 64 B into one socket, msg/s delivered", "msgs8", 64, 0, "msgs"),
           ("one socket to 256 peers round robin, 32 B, µs", "peers", 32, 0, "lat"))

# (prefix, setup, what it cannot judge)
KP_SETUPS = (("kp", "two netns of one kernel over a veth (1 vCPU)",
              {"tipc": "not comparable: TIPC between two netns of one kernel "
                       "short-circuits (tipc_lxc_xmit), its messages never "
                       "cross the veth"}),
             ("kpl", "two VMs of 1 vCPU each on a virtual LAN (scripts/qemu/cluster, "
                     "virtio-net, QEMU's multicast socket backend)", {}))


def kp_value(r, kind):
    if r is None:
        return None
    return r.get("cpu_us") if kind == "cpu" else r["median"]


def kp_cell(r, kind):
    if r is None:
        return "–"
    if kind == "lat":
        return lcell(r, 0)
    if kind == "cpu":
        return fmt(r.get("cpu_us"), 0)
    c = cell(r, 0)
    if kind == "msgs" and r.get("loss_pct"):
        c += f", {r['loss_pct']:.1f}% lost"
    return c


def kp_judge(w, p, kind):
    """(target text, measured text, met) of Wind's row w against peer p's."""
    if kind in ("lat", "cpu"):
        wv, pv = kp_value(w, kind), kp_value(p, kind)
        x = ratio(w, p) if kind == "lat" else (wv / pv if wv is not None and pv else None)
        unit = "µs" if kind == "lat" else "µs CPU"
        return ("Wind <= peer", f"Wind {fmt(wv, 0)} vs {fmt(pv, 0)} {unit}, {rfmt(x)}x",
                x is not None and x <= 1.0)
    x = ratio(w, p)
    unit = "Mbit/s" if kind == "thr" else "msg/s"
    return ("Wind >= peer", f"Wind {fmt(kp_value(w, kind), 0)} vs "
            f"{fmt(kp_value(p, kind), 0)} {unit}, {rfmt(x)}x", x is not None and x >= 1.0)


def kpeers_rows(R, meta):
    """The kernel's message transports beside Wind: the tables (markdown
    lines) and, per setup, row and peer protocol, Wind's target (setup,
    row, peer, target, measured, met; met None: not comparable)."""
    L, t = [], []
    w = L.append
    if not any(R.get(f"{pre}-rtt", "wind", 32) for pre, _, _ in KP_SETUPS):
        return L, t
    w("## The kernel's message transports: SCTP, TIPC, RDS over TCP beside Wind\n")
    w("One windperf client per row runs the six protocols, their repetitions "
      "alternating: SCTP one-to-many (`SOCK_SEQPACKET`, `SCTP_NODELAY`), TIPC "
      "(`AF_TIPC`, `SOCK_RDM`, to a service address), RDS over TCP (`AF_RDS`, "
      "`SOCK_SEQPACKET`, `SO_RDS_TRANSPORT` TCP), each with its default buffers "
      "(userspace/windperf/kpeers.c). The 8-sender row runs with Nagle on for "
      "TCP and SCTP (`windperf -N`: the way to send a stream of small one-way "
      "messages). Latency cells: median (min–max) over repetitions, p99 of every "
      "exchange; UDP 64 KiB is 65507 B. CPU per message: busy time of the whole "
      "machine the client runs on over messages sent: in the netns setup both "
      "ends, in the two-VM setup the sender's VM only.\n")
    for pre, setup, nc in KP_SETUPS:
        if not R.get(f"{pre}-rtt", "wind", 32):
            continue
        m = meta.get("lan", {}) if pre == "kpl" else meta
        w(f"### {setup}\n")
        w(f"Kernel {m.get('kernel', '?')}, {m.get('date', '?')}"
          f"{', quick run' if m.get('quick') else ''}. Rows this setup judges: "
          + ("every row for every protocol." if not nc else
             "every row for every protocol but "
             + "; ".join(f"{NAMES[k]} ({v})" for k, v in nc.items()) + ".") + "\n")
        protos = ("wind",) + KPEERS
        w("| row | " + " | ".join(NAMES[p] for p in protos) + " |")
        w("|---" * (len(protos) + 1) + "|")
        for label, suf, size, reply, kind in KP_ROWS:
            rs = [R.get(f"{pre}-{suf}", p, size, reply) for p in protos]
            w(f"| {label} | " + " | ".join(
                kp_cell(r, kind) + (" (n/c)" if p in nc and r else "")
                for p, r in zip(protos, rs)) + " |")
        w("")
        w("Wind's targets: every latency row at most each peer's, every throughput "
          "row at least each peer's, CPU per 64 KiB message at most each peer's; "
          "8 x 64 B: at least TCP's delivered rate (Nagle on) and 2x UDP's. "
          "Ratios are Wind over the peer (median of per-round ratios).\n")
        w("| row | peer | target | measured | met |")
        w("|---|---|---|---|---|")
        for label, suf, size, reply, kind in KP_ROWS:
            wr = R.get(f"{pre}-{suf}", "wind", size, reply)
            for p in KPEERS:
                pr = R.get(f"{pre}-{suf}", p, size, reply)
                if wr is None or pr is None:
                    continue
                target, measured, met = kp_judge(wr, pr, kind)
                if kind == "msgs" and p == "udp":
                    x = ratio(wr, pr)
                    target, met = "Wind >= 2x UDP's delivered", x is not None and x >= 2.0
                if kind == "msgs" and p == "tcp":
                    target = "Wind >= TCP's (Nagle on)"
                if p in nc:
                    met = None
                verdict = "not comparable" if met is None else "met" if met else "**not met**"
                w(f"| {label} | {NAMES[p]} | {target} | {measured} | {verdict} |")
                t.append((setup, label, NAMES[p], target, measured, met))
        w("")
    return L, t


def write_plots(R, out, losses):
    gp = shutil.which("gnuplot")
    with open(os.path.join(out, "rtt.dat"), "w") as f:
        f.write("# size wind udp tcp (median us) wind_min wind_max udp_min udp_max tcp_min tcp_max\n")
        for size in (16, 32, 128, 1024):
            rs = [R.get("rtt", p, size) for p in PROTOS]
            if any(r is None for r in rs):
                continue
            f.write(f"{size} " + " ".join(f"{r['median']:.3f}" for r in rs) + " " +
                    " ".join(f"{r['min']:.3f} {r['max']:.3f}" for r in rs) + "\n")
    with open(os.path.join(out, "loss.dat"), "w") as f:
        f.write("# loss% then for 1024 8192 65536: wind udp tcp (Mbit/s); then rr us: wind udp tcp\n")
        for i, loss in enumerate(losses):
            vals = []
            for size in (1024, 8192, 65536):
                for p in PROTOS:
                    r = R.get("bulk", p, size, loss=loss)
                    vals.append(f"{r['median']:.3f}" if r else "NaN")
            for p in PROTOS:
                r = mean_row(R.get("rr", p, 64, 8192, loss=loss))
                vals.append(f"{r['median']:.3f}" if r else "NaN")
            f.write(f"{i} \"{loss}%\" " + " ".join(vals) + "\n")
    if not gp:
        return "gnuplot not found: no plots (apt-get install gnuplot-nox)"
    res = subprocess.run([gp, "-e", f"dir='{out}'; noloss={0 if losses else 1}",
                          os.path.join(HERE, "plot.gp")],
                         capture_output=True, text=True)
    if res.returncode:
        return "gnuplot failed: " + res.stderr.strip()
    return None


def markdown(meta, R, iperf, tg, losses, host_cpu, host_cpus, plot_err, rxe):
    L = []
    w = L.append
    quick = " (quick run: short repetitions, for development)" if meta.get("quick") else ""
    w(f"# Wind beside UDP and TCP{quick}\n")
    w(f"- date: {meta.get('date')}; command: `make bench`; git `{meta.get('git')}`")
    w(f"- guest: Linux {meta.get('kernel')}, {meta.get('accel')} "
      f"({meta.get('guest_cpus')} vCPU, {meta.get('guest_cpu_model')}, "
      f"{int(meta.get('guest_mem_kb', 0)) // 1024} MiB); two netns over a veth, MTU 1500")
    w(f"- host: {host_cpu or '?'}, {host_cpus or '?'} cores (shared with other work)")
    wp = meta.get("wind_params", {})
    if wp:
        w("- Wind tunables: " + ", ".join(f"{k}={v}" for k, v in sorted(wp.items())))
    w(f"- windperf repetitions: latency `{meta.get('lat_args')}`, bulk `{meta.get('bulk_args')}`, "
      f"loss rows `{meta.get('loss_args')}` in {meta.get('loss_rounds', 1)} rounds; cells are median (min–max) over repetitions "
      "(latency: each repetition's median exchange)")
    w("- the protocols of a row run in one client, their repetitions alternating "
      "(a round runs Wind, UDP and TCP back to back): the ratios Wind/UDP and Wind/TCP "
      "are the median of the per-round ratios, so that what slows the shared machine "
      "during a round falls on all three. The loss rows run in rounds too: a round "
      "runs every row once at each loss rate in turn, and the ratio to Wind at 0% "
      "is the median of the per-round ratios. Other ratios between rows (sync vs "
      "ping-pong) divide the medians")
    w("")

    w("## Latency (µs; lower is better)\n")
    w("| row | Wind | UDP | TCP | Wind/UDP | Wind/TCP |")
    w("|---|---|---|---|---|---|")
    for size in (16, 32, 128, 1024):
        rs = [R.get("rtt", p, size) for p in PROTOS]
        w(f"| ping-pong {size} B | " + " | ".join(lcell(r) for r in rs) +
          f" | {rfmt(ratio(rs[0], rs[1]))} | {rfmt(ratio(rs[0], rs[2]))} |")
    s, u, c = R.get("sync", "wind", 32), R.get("rtt", "udp", 32), R.get("rtt", "tcp", 32)
    w(f"| sync send 32 B (Wind) vs 32 B ping-pong | {lcell(s)} | {lcell(u)} | {lcell(c)} | "
      f"{rfmt(ratio(s, u))} | {rfmt(ratio(s, c))} |")
    rs = [R.get("rr", p, 64, 8192) for p in PROTOS]
    w("| page fetch: 64 B request, 8 KiB reply | " + " | ".join(lcell(r) for r in rs) +
      f" | {rfmt(ratio(rs[0], rs[1]))} | {rfmt(ratio(rs[0], rs[2]))} |")
    for n in (2, 256):
        rs = [R.get("peers", p, 32, peers=n) for p in PROTOS]
        w(f"| 32 B ping-pong, one socket, round robin over {n} peers | " +
          " | ".join(lcell(r) for r in rs) +
          f" | {rfmt(ratio(rs[0], rs[1]))} | {rfmt(ratio(rs[0], rs[2]))} |")
    w("\nCells: median of the repetitions' medians (min–max), and the 99th "
      "percentile of every exchange of every repetition (µs).\n")
    w("\nTCP uses one connection per peer (it has no other way); Wind and UDP one socket.\n")

    w("## Bulk goodput (Mbit/s of messages delivered; higher is better)\n")
    w("Plain veth, default offloads. UDP: delivered goodput, what the receiver "
      "got; its 64 KiB row sends 65507 B datagrams (the largest).\n")
    w("| messages | Wind | UDP delivered (loss) | TCP | Wind/UDP | Wind/TCP |")
    w("|---|---|---|---|---|---|")
    for size in (1024, 8192, 65536):
        rs = [R.get("bulk", p, size) for p in PROTOS]
        ul = f" ({rs[1]['loss_pct']:.1f}% lost)" if rs[1] else ""
        w(f"| {size // 1024} KiB | {cell(rs[0])} | {cell(rs[1])}{ul} | {cell(rs[2])} | "
          f"{rfmt(ratio(rs[0], rs[1]))} | {rfmt(ratio(rs[0], rs[2]))} |")
    w("")

    L.extend(msgs_rows(R)[0])
    L.extend(kpeers_rows(R, meta)[0])

    if R.get("encap-udp-rtt", "wind", 32):
        w("## Wind inside UDP (`net.wind.encap=1`)\n")
        w("Each round runs the three rows with Wind raw, then inside UDP, back to "
          "back (UDP and TCP beside each, as in every row); \"in UDP / raw\" is the "
          "median of the per-round ratios. Plain veth, default offloads: raw Wind "
          "uses GSO, and so does Wind inside UDP (UDP tunnel GSO).\n")
        w("| row | Wind raw | Wind in UDP | UDP | TCP | in UDP / raw | in UDP / UDP | in UDP / TCP |")
        w("|---|---|---|---|---|---|---|---|")
        for label, key, size, reply, higher in ENCAP_ROWS:
            raw = R.get(f"encap-raw-{key}", "wind", size, reply)
            enc, u, c = (R.get(f"encap-udp-{key}", p, size, reply) for p in PROTOS)
            cl = cell if higher else lcell
            w(f"| {label} | {cl(raw)} | {cl(enc)} | {cl(u)} | {cl(c)} | "
              f"{rfmt(ratio(enc, raw))} | {rfmt(ratio(enc, u))} | {rfmt(ratio(enc, c))} |")
        w("")

    if R.get("ipv6-raw4-rtt", "wind", 32):
        w("## IPv6, raw and inside UDP\n")
        w("Each round runs each row with Wind raw over IPv4 (the reference), "
          "raw over IPv6 and inside UDP over IPv6 (`net.wind.encap=1`), back to back, "
          "UDP and TCP over the same IP version beside each; the ratios to raw IPv4 "
          "Wind are medians of per-round ratios. IPv6 servers are IPv6-only "
          "(`IPV6_V6ONLY`), addresses fd99::1 and fd99::2 (`nodad`). UDP's 64 KiB "
          "row sends 65507 B datagrams over both versions.\n")
        w("| row | Wind IPv4 raw | Wind IPv6 raw | Wind IPv6 in UDP | UDP IPv6 | TCP IPv6 | "
          "IPv6 raw / IPv4 | IPv6 in UDP / IPv4 | UDP IPv6 / IPv4 | TCP IPv6 / IPv4 |")
        w("|---|---|---|---|---|---|---|---|---|---|")
        for label, key, size, reply, higher in ENCAP_ROWS:
            w4, u4, c4 = (R.get(f"ipv6-raw4-{key}", p, size, reply) for p in PROTOS)
            w6, u6, c6 = (R.get(f"ipv6-raw6-{key}", p, size, reply) for p in PROTOS)
            e6 = R.get(f"ipv6-udp6-{key}", "wind", size, reply)
            cl = cell if higher else lcell
            w(f"| {label} | {cl(w4)} | {cl(w6)} | {cl(e6)} | {cl(u6)} | {cl(c6)} | "
              f"{rfmt(ratio(w6, w4))} | {rfmt(ratio(e6, w4))} | {rfmt(ratio(u6, u4))} | "
              f"{rfmt(ratio(c6, c4))} |")
        w("\nWind beside UDP and TCP over the same IP version (per-round ratios; "
          "UDP and TCP over IPv6 from the raw IPv6 rounds' runs):\n")
        w("| row | Wind IPv4 / UDP IPv4 | Wind IPv4 / TCP IPv4 | Wind IPv6 / UDP IPv6 | "
          "Wind IPv6 / TCP IPv6 | Wind IPv6 in UDP / UDP IPv6 | Wind IPv6 in UDP / TCP IPv6 |")
        w("|---|---|---|---|---|---|---|")
        for label, key, size, reply, _ in ENCAP_ROWS:
            w4, u4, c4 = (R.get(f"ipv6-raw4-{key}", p, size, reply) for p in PROTOS)
            w6, u6, c6 = (R.get(f"ipv6-raw6-{key}", p, size, reply) for p in PROTOS)
            e6, eu6, ec6 = (R.get(f"ipv6-udp6-{key}", p, size, reply) for p in PROTOS)
            w(f"| {label} | {rfmt(ratio(w4, u4))} | {rfmt(ratio(w4, c4))} | "
              f"{rfmt(ratio(w6, u6))} | {rfmt(ratio(w6, c6))} | "
              f"{rfmt(ratio(e6, eu6))} | {rfmt(ratio(e6, ec6))} |")
        w("\nTargets (below): each IPv6 row within 5% of raw IPv4 Wind, and the bulk "
          "row's lead over UDP kept (Wind >= 1.0x UDP over IPv6).\n")
        for row, target, measured, met in ipv6_targets(R):
            w(f"- {row}: {measured}: **{'met' if met else 'NOT MET'}**")
        w("")

    if losses:
        w("## Under loss (netem on both ends, one MTU-sized segment per skb)\n")
        w("`tc netem loss X% limit 10000` on both veth ends (data and ACKs alike) and "
          "`gso_max_segs 1`: netem drops whole skbs, and an unsegmented 64 KB TCP "
          "GSO skb would otherwise be one loss for 45 segments.\n")
        w("| loss | row | Wind | UDP (loss, timeouts) | TCP | Wind/UDP | Wind/TCP | Wind / Wind at 0% |")
        w("|---|---|---|---|---|---|---|---|")
        for loss in losses:
            for size in (1024, 8192, 65536):
                rs = [R.get("bulk", p, size, loss=loss) for p in PROTOS]
                base = R.get("bulk", "wind", size, loss=losses[0])
                ul = f" ({rs[1]['loss_pct']:.1f}%)" if rs[1] else ""
                w(f"| {loss}% | bulk {size // 1024} KiB, Mbit/s | {cell(rs[0])} | {cell(rs[1])}{ul} | "
                  f"{cell(rs[2])} | {rfmt(ratio(rs[0], rs[1]))} | {rfmt(ratio(rs[0], rs[2]))} | "
                  f"{rfmt(ratio(rs[0], base))} |")
            rs = [mean_row(R.get("rr", p, 64, 8192, loss=loss)) for p in PROTOS]
            base = mean_row(R.get("rr", "wind", 64, 8192, loss=losses[0]))
            ut = f" ({rs[1]['timeouts'] / max(rs[1]['ops'], 1) * 100:.1f}% timed out)" if rs[1] else ""
            w(f"| {loss}% | page fetch, mean µs (median) | {mcell(rs[0])} | {mcell(rs[1])}{ut} | "
              f"{mcell(rs[2])} | {rfmt(ratio(rs[0], rs[1]))} | {rfmt(ratio(rs[0], rs[2]))} | "
              f"{rfmt(ratio(rs[0], base))} |")
        w("\nPage fetch under loss: the mean time per fetch over all repetitions (what "
          "fetching many pages costs; ratios use it), the median and the p99 of every "
          "fetch in brackets. A UDP "
          "request that gets no reply in 20 ms is sent again (Wind's rto_min); Wind "
          "and TCP recover by themselves.\n")

    w("## Packets and CPU per operation (client side, no loss)\n")
    w("Packets: Wind from /proc/net/wind_stat (OutPackets, InPackets; pure ACKs: "
      "OutAcks + InAcks), UDP datagrams and TCP segments from /proc/net/snmp; "
      "link: packets through the client's veth (/proc/net/dev; an IP fragment "
      "counts, a GSO skb counts once). CPU: busy time of the whole VM "
      "(/proc/stat, both ends) per operation.\n")
    w("| row | Wind out+in (pure ACKs) | Wind link | UDP out+in | UDP link | TCP out+in | TCP link | CPU µs Wind / UDP / TCP |")
    w("|---|---|---|---|---|---|---|---|")

    def pk(r, acks=False):
        if r is None:
            return "–"
        s = f"{r['pkts_out']:.2f}+{r['pkts_in']:.2f}"
        if acks:
            s += f" ({r['acks_out'] + r['acks_in']:.2f})"
        return s

    def lk(r):
        return "–" if r is None else f"{r['link_tx'] + r['link_rx']:.2f}"

    def cpu(rs):
        return " / ".join("–" if r is None else f"{r['cpu_us']:.0f}" for r in rs)

    lines = [(f"ping-pong {s} B", [R.get("rtt", p, s) for p in PROTOS]) for s in (16, 32, 128, 1024)]
    lines.append(("page fetch 64 B / 8 KiB", [R.get("rr", p, 64, 8192) for p in PROTOS]))
    lines.append(("sync send 32 B", [R.get("sync", "wind", 32), None, None]))
    for size in (1024, 8192, 65536):
        lines.append((f"bulk {size // 1024} KiB, per message", [R.get("bulk", p, size) for p in PROTOS]))
    for name, rs in lines:
        w(f"| {name} | {pk(rs[0], True)} | {lk(rs[0])} | {pk(rs[1])} | {lk(rs[1])} | "
          f"{pk(rs[2])} | {lk(rs[2])} | {cpu(rs)} |")
    w("\n`perf stat` counts no instructions under TCG (QEMU emulates no PMU), "
      "so CPU time is the kernel-side cost measured here.\n")

    ip = iperf_summary(iperf)
    if ip:
        w("## Baseline check: iperf3 in the same run\n")
        w("| iperf3 | Mbit/s received | loss | windperf, same protocol |")
        w("|---|---|---|---|")
        for name, mbps, lost, err in ip:
            if err:
                w(f"| {name} | failed: {err} | | |")
                continue
            if name == "tcp":
                r = R.get("bulk", "tcp", 65536)
                ref = f"TCP bulk 64 KiB: {fmt(r and r['median'])}"
            else:
                ln = int(name.split("-")[-1])
                r = R.get("bulk", "udp", 8192 if ln >= 8192 else 1024)
                ref = f"UDP bulk {8 if ln >= 8192 else 1} KiB: {fmt(r and r['median'])} delivered"
            w(f"| {name.replace('-', ' -l ')} | {fmt(mbps)} | {fmt(lost) + '%' if lost is not None else '–'} | {ref} |")
        w("\niperf3 TCP writes 128 KiB at a time; iperf3 UDP runs with `-b 0` (as fast as it can).\n")

    m = R.mem()
    if m:
        w("## Kernel memory per idle peer\n")
        w(f"One Wind socket exchanged one 32 B message with each of {m['peers']} sockets "
          f"(1000 ports in the other netns). Unreclaimable slab grew by "
          f"{m['sunreclaim_delta'] / 1024:.0f} KiB (Slab {m['slab_delta'] / 1024:.0f} KiB) "
          f"for {2 * m['peers']} peer states (one at each end of each pair): "
          f"**{m['per_peer']:.0f} B per peer state**.")
        if m.get("caches"):
            w("Caches that grew: " + ", ".join(
                f"{k} {v[0]:+d} x {v[1]} B" for k, v in m["caches"].items()) + ".")
        w("")

    L.extend(incast_hol(R))
    L.extend(read_rows(R, rxe)[0])
    br, _ = busy_rxe(R, rxe)
    if br:
        b2 = meta.get("boot2", meta)
        w(f"Busy polling and Soft-RoCE ran in a boot of {b2.get('guest_cpus')} vCPUs "
          f"({b2.get('date')}): a busy-polling receiver, and perftest's busy-polled "
          "completion queue, spin on a vCPU of their own.\n")
        L.extend(br)
    w("## Targets (bench/README.md: the base targets, encapsulation and IPv6, the performance targets)\n")
    w("| row | target | measured | met |")
    w("|---|---|---|---|")
    for row, target, measured, met in tg:
        w(f"| {row} | {target} | {measured} | {'yes' if met else '**no**'} |")
    w("")
    if R.failed:
        w("## Failed runs\n")
        for f in R.failed:
            w(f"- {f['row']} {f['proto']} loss {f['loss']}: `{f.get('args', '')}`")
        w("")
    w("## Plots\n")
    if plot_err:
        w(plot_err + "\n")
    else:
        w("![RTT vs message size](rtt.png)\n")
        if losses:
            w("![Goodput vs loss](loss.png)\n")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host-cpu", default="")
    ap.add_argument("--host-cpus", default="")
    ap.add_argument("out")
    a = ap.parse_args()
    meta, runs, iperf = load(a.out)
    R = Results(runs)
    losses = []
    for run in runs:
        if run.get("loss") is not None and run["loss"] not in losses:
            losses.append(run["loss"])
    rxe = load_rxe(a.out)
    tg = targets(R, meta) + busy_rxe(R, rxe)[1] + msgs_rows(R)[1] + read_rows(R, rxe)[1]
    plot_err = write_plots(R, a.out, losses)
    md = markdown(meta, R, iperf, tg, losses, a.host_cpu, a.host_cpus, plot_err, rxe)
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write(md)
    meta = dict(meta, host_cpu=a.host_cpu, host_cpus=a.host_cpus)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "runs": runs, "rxe": rxe,
                   "iperf3": [dict(zip(("run", "mbps", "lost_pct", "error"), x))
                              for x in iperf_summary(iperf)],
                   "targets": [dict(zip(("row", "target", "measured", "met"), x))
                               for x in tg],
                   "kpeers_targets": [dict(zip(("setup", "row", "peer", "target",
                                                "measured", "met"), x))
                                      for x in kpeers_rows(R, meta)[1]]}, f, indent=1)
    sys.stdout.write(md)
    print(f"bench: wrote {a.out}/results.md, results.json"
          + ("" if plot_err else ", rtt.png" + (", loss.png" if losses else "")))


if __name__ == "__main__":
    main()
