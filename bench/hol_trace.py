#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Split the hol row's pings into their phases from an ftrace text dump.

    hol_trace.py TRACE SERVER_PID CLIENT_PID SERVER_PORT

TRACE holds wind:wind_deliver, net:netif_rx and sched:sched_switch
events of one Wind windperf hol client (scripts/benchmarks/bench-hol-trace.sh).  A
ping is: the client's main thread sends it (its last netif_rx before),
the server's socket gets it (the unordered wind_deliver at SERVER_PORT:
the pings are the only async-reliable messages), the client's socket
gets the reply (the next wind_deliver at the client), the client's main
thread runs again.  Pings during the stream (within the span of the
64 KiB deliveries, gaps under 50 ms) are "loaded", the others not.  For
each phase: percentiles, and at the loaded pings of the slowest 2% who
had the CPU meanwhile.
"""
import re
import sys

LINE = re.compile(r'\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\w+): (.*)')
NEXT = re.compile(r'next_pid=(\d+) ')


def main():
    path, spid, cpid, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    ev = []
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                ev.append((float(m.group(3)) * 1e6, int(m.group(2)), m.group(4), m.group(5)))
    srv_local = ':%s -> ' % port

    def who(pid):
        if pid == spid:
            return 'server'
        if pid == cpid:
            return 'ping thread'
        return None

    # the stream's spans: its 64 KiB deliveries at the server, gaps < 50 ms
    spans = []
    for t, _, name, arg in ev:
        if name == 'wind_deliver' and srv_local in arg and 'ORDERED' in arg \
                and int(re.search(r'len=(\d+)', arg).group(1)) > 4096:
            if spans and t - spans[-1][1] < 50000:
                spans[-1][1] = t
            else:
                spans.append([t, t])
    comm = {}
    pings, cur, last_tx = [], None, None
    cpu_pid, cpu_since = None, None
    for t, pid, name, arg in ev:
        if name == 'sched_switch':
            nxt = int(NEXT.search(arg).group(1))
            comm[nxt] = re.search(r'next_comm=(\S+)', arg).group(1)
            if cur is not None and cpu_pid is not None:
                ph = cur['phase']
                cur['cpu'][ph][cpu_pid] = cur['cpu'][ph].get(cpu_pid, 0) + t - cpu_since
            cpu_pid, cpu_since = nxt, t
            if cur is not None and 'e' in cur and nxt == cpid:
                cur['w'] = t
                pings.append(cur)
                cur = None
            continue
        if cpu_pid is None:
            cpu_pid, cpu_since = pid, t
        if name == 'netif_rx' and pid == cpid and cur is None:
            last_tx = t
        elif name == 'wind_deliver' and srv_local in arg and 'ORDERED' not in arg \
                and last_tx is not None:
            cur = {'x': last_tx, 'd': t, 'phase': 1, 'cpu': [{}, {}, {}]}
            cpu_since = t
            last_tx = None
        elif name == 'wind_deliver' and cur is not None and 'e' not in cur \
                and srv_local not in arg:
            cur['e'] = t
            cur['cpu'][1][cpu_pid] = cur['cpu'][1].get(cpu_pid, 0) + t - cpu_since
            cpu_since = t
            cur['phase'] = 2
            if pid == cpid:
                cur['w'] = t
                pings.append(cur)
                cur = None

    def loaded(p):
        return any(a <= p['x'] <= b for a, b in spans)

    def q(v, f):
        v = sorted(v)
        return v[min(len(v) - 1, int(len(v) * f))]

    phases = (('into the server socket', lambda p: p['d'] - p['x']),
              ('server runs, reply in', lambda p: p['e'] - p['d']),
              ('ping thread runs', lambda p: p['w'] - p['e']),
              ('total', lambda p: p['w'] - p['x']))
    for label, sel in (('unloaded', lambda p: not loaded(p)), ('loaded', loaded)):
        ps = [p for p in pings if sel(p)]
        if not ps:
            continue
        print('%s: %d pings (us)' % (label, len(ps)))
        for name, f in phases:
            v = [f(p) for p in ps]
            print('  %-24s p50 %6.0f  p90 %6.0f  p99 %6.0f  max %6.0f'
                  % (name, q(v, .5), q(v, .9), q(v, .99), max(v)))
    ps = sorted((p for p in pings if loaded(p)), key=lambda p: p['w'] - p['x'])
    slow = ps[-max(1, len(ps) // 50):] if ps else []
    if slow:
        print('loaded, slowest %d pings: mean us per phase, and who ran meanwhile' % len(slow))
        for i, (name, f) in enumerate(phases[1:3]):
            ran = {}
            for p in slow:
                for pid, us in p['cpu'][i + 1].items():
                    k = who(pid) or ('stream thread' if comm.get(pid) == 'windperf'
                                     else comm.get(pid, str(pid)))
                    ran[k] = ran.get(k, 0) + us / len(slow)
            print('  %-24s %6.0f: %s' % (name, sum(f(p) for p in slow) / len(slow),
                                         ', '.join('%s %.0f' % kv for kv in
                                                   sorted(ran.items(), key=lambda kv: -kv[1]))))


if __name__ == '__main__':
    main()
