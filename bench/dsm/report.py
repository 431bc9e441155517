#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables and plots of scripts/demo and scripts/bench-dsm.

    report.py demo  OUTDIR ROWS.jsonl [...]   the S-DSM apps table + speedup.png
    report.py bench OUTDIR ROWS.jsonl [...]   every experiment of bench-dsm

ROWS.jsonl: the lines scripts/cluster-guest-rows writes (one per row:
row id, k nodes, per-rank exit status, wall time, rank 0's JSON lines).
Writes OUTDIR/results.md, OUTDIR/results.json and PNG plots (gnuplot),
and prints the Markdown.
"""
import json
import os
import subprocess
import sys


def load(paths):
    rows = []
    for p in paths:
        if not os.path.exists(p):
            continue
        for line in open(p):
            line = line.strip()
            if line:
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
    return rows


def ok_row(r):
    return all(s == 0 for s in r["status"])


def gnuplot(script, outdir):
    try:
        subprocess.run(["gnuplot"], input=script.encode(), cwd=outdir,
                       check=True, capture_output=True, timeout=60)
        return True
    except (OSError, subprocess.SubprocessError) as e:
        err = getattr(e, "stderr", b"") or b""
        sys.stderr.write("report: gnuplot failed: %s %s\n" % (e, err.decode()[-300:]))
        return False


def fmt(x, nd=3):
    return "-" if x is None else ("%.*f" % (nd, x))


# --- the S-DSM apps (demo, and bench-dsm's Mocha/DSE rows) ---------------

def app_results(rows, prefix=""):
    """{(app, transport, nodes, loss): {time, pages, msgs, retrans, ok}}"""
    res = {}
    for r in rows:
        if not r["row"].startswith(prefix + "app:"):
            continue
        # row id: [prefix]app:APP:TRANSPORT:LOSS
        _, app, tp, loss = r["row"][len(prefix):].split(":")
        o = r["out"][0] if r["out"] else {}
        res[(app, tp, r["k"], loss)] = {
            "time_s": o.get("time_s"),
            "pages_fetched": o.get("pages_fetched"),
            "messages": o.get("messages"),
            "retransmissions": o.get("retransmissions"),
            "ok": bool(o.get("ok")) and ok_row(r),
            "status": r["status"], "wall_s": r["secs"],
        }
    return res


def app_table(res, tps, loss="0"):
    apps = []
    for (a, _, _, _) in res:
        if a not in apps:
            apps.append(a)
    ks = sorted({k for (_, _, k, _) in res})
    head = "| app | nodes | " + " | ".join("time %s (s)" % t for t in tps) + \
        " | " + " | ".join("speed-up %s" % t for t in tps) + \
        " | pages fetched | messages (%s) | retransmissions (%s) | ok |" % (
            "/".join(tps), "/".join(tps))
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    plot = {}
    for a in apps:
        for k in ks:
            cells = [a, str(k)]
            times, sps, msgs, rtx, oks, pages = [], [], [], [], [], None
            # The 1-node runs of all transports compute the same thing
            # without a message: the fastest of them is the baseline (one
            # run slowed down by the shared host does not skew a column).
            b1 = [res[(a, t, 1, loss)]["time_s"] for t in tps
                  if (a, t, 1, loss) in res and res[(a, t, 1, loss)]["ok"]]
            b = min(b1) if b1 else None
            for t in tps:
                v = res.get((a, t, k, loss))
                tm = v["time_s"] if v and v["ok"] else None
                sp = b / tm if tm and b else None
                times.append(fmt(tm))
                sps.append(fmt(sp, 2))
                msgs.append(str(v["messages"]) if v and v["messages"] is not None else "-")
                rtx.append(str(v["retransmissions"]) if v and v["retransmissions"] is not None else "-")
                if v is not None:
                    oks.append(v["ok"])
                if v and pages is None:
                    pages = v["pages_fetched"]
                plot.setdefault((a, t), []).append((k, sp))
            cells += times + sps + [str(pages if pages is not None else "-"),
                                    "/".join(msgs), "/".join(rtx),
                                    "yes" if oks and all(oks) else "NO"]
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out), plot, apps, ks


def speedup_plot(plot, apps, ks, tps, outdir, name, title):
    data = os.path.join(outdir, name + ".dat")
    with open(data, "w") as f:
        f.write("# nodes " + " ".join("%s_%s" % (a, t) for a in apps for t in tps) + "\n")
        for i, k in enumerate(ks):
            vals = []
            for a in apps:
                for t in tps:
                    pts = plot.get((a, t), [])
                    sp = pts[i][1] if i < len(pts) else None
                    vals.append("%.4f" % sp if sp else "NaN")
            f.write("%d %s\n" % (k, " ".join(vals)))
    cols = []
    c = 2
    for a in apps:
        for j, t in enumerate(tps):
            cols.append("'%s' u 1:%d w lp lw 2 dt %d title '%s %s'" % (
                name + ".dat", c, j + 1, a, t))
            c += 1
    script = """set terminal pngcairo size 900,600
set output '%s.png'
set title '%s'
set xlabel 'nodes'
set ylabel 'speed-up (time on 1 node / time on N nodes)'
set xtics 1
set key outside right
set grid
plot %s, x w l lc 'gray' title 'ideal'
""" % (name, title, ", ".join(cols))
    if gnuplot(script, outdir):
        return os.path.join(outdir, name + ".png")
    return None


def demo(outdir, rows):
    res = app_results(rows)
    tps = ["wind", "udp"]
    md, plot, apps, ks = app_table(res, tps)
    png = speedup_plot(plot, apps, ks, tps, outdir, "speedup",
                       "S-DSM apps on the QEMU cluster: speed-up over Wind and UDP")
    text = "## S-DSM apps over Wind and UDP\n\n" + md + "\n"
    text += ("\nspeed-up: the fastest 1-node time of the app (over any transport: "
             "no message is sent) over this one. "
             "QEMU TCG: every VM is one host thread and the host has %d cores, "
             "so N > 2 nodes share CPUs.\n" % os.cpu_count())
    return text, {"apps": {"%s/%s/%d/%s" % k: v for k, v in res.items()}}, png


# --- bench-dsm -------------------------------------------------------------

def bench(outdir, rows):
    text = []
    data = {"rows": rows}
    pngs = []

    # Fagus barrier
    fag = {}
    for r in rows:
        if not r["row"].startswith("fagus:"):
            continue
        _, tp, loss = r["row"].split(":")
        for o in r["out"]:
            fag[(tp, r["k"], o["size"], loss)] = o
    if fag:
        tps = [t for t in ("wind", "wind-msg", "udp", "tcp") if any(k[0] == t for k in fag)]
        for loss in sorted({k[3] for k in fag}, key=float):
            ks = sorted({k[1] for k in fag if k[3] == loss})
            sizes = sorted({k[2] for k in fag if k[3] == loss})
            t = ["### Fagus barrier, time per barrier in µs (median), loss %s%%\n" % loss,
                 "| nodes | size | " + " | ".join(tps) + " | udp / wind | retrans (" + "/".join(tps) + ") |",
                 "|---|---|" + "---|" * len(tps) + "---|---|"]
            for k in ks:
                for s in sizes:
                    v = [fag.get((tp, k, s, loss)) for tp in tps]
                    w = fag.get(("wind", k, s, loss))
                    u = fag.get(("udp", k, s, loss))
                    ratio = u["us_median"] / w["us_median"] if w and u and w["us_median"] else None
                    t.append("| %d | %s | %s | %s | %s |" % (
                        k, "%d KiB" % (s // 1024),
                        " | ".join(fmt(x["us_median"], 0) if x else "-" for x in v),
                        fmt(ratio, 2),
                        "/".join(str(x["retrans"]) if x else "-" for x in v)))
            text.append("\n".join(t) + "\n")
            # plot: time vs size, one line per (proto, nodes)
            name = "fagus-loss%s" % loss.replace(".", "_")
            with open(os.path.join(outdir, name + ".dat"), "w") as f:
                f.write("# size " + " ".join("%s_%d" % (tp, k) for k in ks for tp in tps) + "\n")
                for s in sizes:
                    f.write("%d %s\n" % (s, " ".join(
                        "%.1f" % fag[(tp, k, s, loss)]["us_median"] if (tp, k, s, loss) in fag else "NaN"
                        for k in ks for tp in tps)))
            cols, c = [], 2
            for k in ks:
                for j, tp in enumerate(tps):
                    cols.append("'%s.dat' u 1:%d w lp lw 2 lc %d dt %d title '%s %d nodes'" % (
                        name, c, ks.index(k) + 1, j + 1, tp, k))
                    c += 1
            script = """set terminal pngcairo size 900,600
set output '%s.png'
set title 'Fagus barrier (Wind paper Fig. 7), loss %s%%'
set logscale xy
set xlabel 'shared memory sent per barrier (bytes)'
set ylabel 'time per barrier (us, median)'
set key outside right
set grid
plot %s
""" % (name, loss, ", ".join(cols))
            if gnuplot(script, outdir):
                pngs.append(os.path.join(outdir, name + ".png"))

    # hot spot
    hot = [(r, o) for r in rows if r["row"].startswith("hotspot:") for o in r["out"]]
    if hot:
        t = ["### DSE hot spot: every node requests from node 0\n",
             "| loss % | nodes | reply | proto | requests/s at node 0 | latency mean (µs) | median (µs) | retrans |",
             "|---|---|---|---|---|---|---|---|"]
        for r, o in hot:
            loss = r["row"].split(":")[2]
            t.append("| %s | %d | %d B | %s | %.0f | %.0f | %.0f | %d |" % (
                loss, o["nodes"], o["reply"], o["proto"], o["req_per_s"],
                o["us_mean"], o["us_median"], o["retrans"]))
        text.append("\n".join(t) + "\n")

    # port count
    pc = [r for r in rows if r["row"].startswith("ports:")]
    if pc:
        t = ["### DSE port count: P processes (network namespaces in one VM), all-to-all\n",
             "| proto | processes | sockets counted | per process | exchange time (ms) | per round (µs) |",
             "|---|---|---|---|---|---|"]
        for r in pc:
            for o in r["out"]:
                if o.get("bench") == "ports":
                    t.append("| %s | %d | %d | %.1f | %s | %s |" % (
                        o["proto"], o["procs"], o["sockets"], o["sockets"] / o["procs"],
                        fmt(o.get("ms"), 1), fmt(o.get("us_per_round"), 0)))
        text.append("\n".join(t) + "\n")

    # S-DSM apps
    res = app_results(rows)
    if res:
        tps = [t for t in ("wind", "udp", "udp-replyack") if any(k[1] == t for k in res)]
        for loss in sorted({k[3] for k in res}, key=float):
            sub = {k: v for k, v in res.items() if k[3] == loss}
            md, plot, apps, ks = app_table(sub, tps, loss)
            text.append("### S-DSM apps (Mocha MM, DSE SOR), loss %s%%\n\n%s\n" % (loss, md))
            png = speedup_plot(plot, apps, ks, tps, outdir,
                               "apps-loss%s" % loss.replace(".", "_"),
                               "S-DSM apps, speed-up, loss %s%%" % loss)
            if png:
                pngs.append(png)
        data["apps"] = {"%s/%s/%d/%s" % k: v for k, v in res.items()}

    failed = [r for r in rows if not ok_row(r)]
    if failed:
        text.append("### Rows that failed\n\n" + "\n".join(
            "- %s, %d nodes: exit %s" % (r["row"], r["k"], r["status"]) for r in failed) + "\n")
    return "\n".join(text), data, pngs


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("demo", "bench"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    mode, outdir, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    rows = load(paths)
    if mode == "demo":
        text, data, png = demo(outdir, rows)
        pngs = [png] if png else []
    else:
        text, data, pngs = bench(outdir, rows)
        text = "## make bench-dsm\n\n" + text
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write(text)
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(data, f, indent=1)
    print(text)
    for p in pngs:
        print("plot: %s" % p)
    sys.exit(0 if rows else 1)


if __name__ == "__main__":
    main()
