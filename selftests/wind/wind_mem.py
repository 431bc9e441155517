#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Receive memory (wind(7) net.wind.mem, "Memory"): what a Wind socket
holds for its reader is charged to the protocol's pool (/proc/net/
protocols, bounded by net.wind.mem) and to the socket's memory cgroup
(memory.stat "sock"); a cgroup's memory.max and net.wind.mem bound it,
the sender waits instead of losing anything, every message arrives
exact and in order once the reader reads, and the memory comes back.

Two namespaces joined by a veth: A sends, B receives and does not read
until the check says so."""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from windtest import (Ktap, enter, run, wind_socket,  # noqa: E402
                      wind_stat as stat)

PID = os.getpid()
A, B = f"memA-{PID}", f"memB-{PID}"
A_IP, B_IP = "10.77.6.1", "10.77.6.2"
CG_ROOT = "/sys/fs/cgroup"
CG = f"{CG_ROOT}/windmem-{PID}"
SO_SNDBUFFORCE, SO_RCVBUFFORCE = 32, 33
MSG = 16384
PAGE = os.sysconf("SC_PAGE_SIZE")


def sh(cmd):
    return run("sh", "-c", cmd)


def setup():
    wind_socket(None).close()      # loads the module
    for ns in (A, B):
        sh(f"ip netns add {ns} && ip -n {ns} link set lo up")
    sh(f"ip -n {A} link add eth0 type veth peer name eth0 netns {B}")
    for ns, ip in ((A, A_IP), (B, B_IP)):
        sh(f"ip -n {ns} addr add {ip}/24 dev eth0 && "
           f"ip -n {ns} link set eth0 up")
    sh(f"ip netns exec {A} ping -c1 -W5 -q {B_IP} >/dev/null")


def teardown():
    for ns in (A, B):
        sh(f"ip netns del {ns} 2>/dev/null || true")
    if os.path.isdir(CG):
        try:
            os.rmdir(CG)
        except OSError:
            pass


def wait_stat(ns, name, target, timeout=60):
    end = time.monotonic() + timeout
    while stat(ns, name) < target and time.monotonic() < end:
        time.sleep(0.05)
    return stat(ns, name)


def settle(ns, name, quiet=1.0, timeout=60):
    """Wait until the counter stopped moving for `quiet` seconds."""
    end = time.monotonic() + timeout
    last, since = stat(ns, name), time.monotonic()
    while time.monotonic() < end:
        time.sleep(0.1)
        v = stat(ns, name)
        if v != last:
            last, since = v, time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
    return last


def pool_pages():
    """The WIND line's memory column of /proc/net/protocols (pages)."""
    with open("/proc/net/protocols") as f:
        head = f.readline().split()
        for line in f:
            cols = line.split()
            if cols and cols[0] == "WIND":
                return int(cols[head.index("memory")])
    raise KeyError("WIND")


def rx_queue(ns):
    """sk_rmem_alloc of every Wind socket in ns (/proc/net/wind)."""
    out = sh(f"ip netns exec {ns} cat /proc/net/wind").stdout
    return sum(int(line.split()[4].split(":")[1], 16)
               for line in out.splitlines()[1:])


def cg_read(name):
    with open(f"{CG}/{name}") as f:
        return f.read()


def cg_sock():
    for line in cg_read("memory.stat").splitlines():
        k, v = line.split()
        if k == "sock":
            return int(v)
    return -1


def check(t, name, cond, diag):
    """t.check(), with the figures shown whether it passes or not."""
    for line in str(diag).splitlines():
        print("# " + line)
    t.check(name, cond)


def payload(i):
    return bytes([(i * 7 + j) & 0xff for j in range(251)]) * (MSG // 251) + \
        bytes(MSG % 251)


def sockets(port, in_cgroup=False):
    """A sender in A and a receiver in B (made inside the test's memory
    cgroup if asked: a socket belongs to the cgroup of its maker)."""
    tx = wind_socket(A)
    if in_cgroup:
        with open(f"{CG}/cgroup.procs", "w") as f:
            f.write(str(PID))
    try:
        rx = wind_socket(B, port)
    finally:
        if in_cgroup:
            with open(f"{CG_ROOT}/cgroup.procs", "w") as f:
                f.write(str(PID))
    rx.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 64 << 20)
    # every message queued at once: the reader decides when they go
    tx.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, 64 << 20)
    return tx, rx


def send_all(tx, port, n):
    for i in range(n):
        tx.sendto(payload(i), (B_IP, port))


def read_all(rx, n):
    """Every message exact and in order; the first difference, or ''."""
    for i in range(n):
        try:
            data, _ = rx.recvfrom(MSG + 1)
        except socket.timeout:
            return (f"message {i} of {n} never came; B: "
                    f"{sh(f'ip netns exec {B} cat /proc/net/wind').stdout}"
                    f"{sh(f'ip netns exec {B} cat /proc/net/wind_stat').stdout}"
                    f"A: {sh(f'ip netns exec {A} cat /proc/net/wind_stat').stdout}"
                    + (f"memory.current {cg_read('memory.current')}"
                       f"memory.max {cg_read('memory.max')}"
                       if os.path.isdir(CG) else ""))
        if data != payload(i):
            return f"message {i}: {len(data)} bytes, not the ones sent"
    return ""


def tests(t):
    ncpu = os.cpu_count() or 1
    # The pool's count lags: each CPU keeps up to 1 MiB of pages it took
    # or gave back before adding them to it (SK_MEMORY_PCPU_RESERVE), so
    # it may be off by up to twice that per CPU.
    lag = 2 * ncpu * (1 << 20) // PAGE

    # net.wind.mem: global (initial namespace only), as udp_mem
    with open("/proc/sys/net/wind/mem") as f:
        mem = [int(x) for x in f.read().split()]
    enter(B)
    try:
        in_child = os.path.exists("/proc/sys/net/wind/mem")
    finally:
        enter(None)
    check(t, "net.wind.mem: min < pressure < max pages, in the initial "
            "namespace only", len(mem) == 3 and 0 < mem[0] < mem[1] < mem[2]
            and not in_child, f"mem {mem}, in a child namespace: {in_child}")

    # the pool sees queued messages, and gets them back
    n = 200
    tx, rx = sockets(7301)
    before, base_msgs = pool_pages(), stat(B, "InMessages")
    send_all(tx, 7301, n)
    got = wait_stat(B, "InMessages", base_msgs + n) - base_msgs
    held, queued = pool_pages(), rx_queue(B)
    err = read_all(rx, n)
    tx.close()
    rx.close()
    time.sleep(0.2)
    after = pool_pages()
    check(t, "the protocol's pool (/proc/net/protocols) holds what is queued "
            "and gets it back", got >= n and not err and
            queued >= n * MSG and
            held - before >= queued // PAGE - lag and after <= lag,
            f"messages {got}, pool {before} -> {held} -> {after} pages "
            f"(give or take {lag}), queued {queued} B, {err}")

    # a memory cgroup sees a socket's receive memory
    have_memcg = "memory" in open(f"{CG_ROOT}/cgroup.controllers").read()
    if not have_memcg:
        for name in ("memory.stat sees it", "memory.max bounds it",
                     "memory released"):
            t.skip(name, "no memory controller")
    else:
        memcg_tests(t, ncpu)

    # net.wind.mem bounds the pool; the sender waits, loses nothing.  The
    # max must be above the pool's lag, or what other CPUs hold back could
    # keep it past max with nothing queued at all: twice the lag.
    n = 800
    limit = 2 * lag
    with open("/proc/sys/net/wind/mem", "w") as f:
        f.write(f"{lag} {limit * 3 // 4} {limit}")
    try:
        dropped0 = stat(B, "InErrRcvbuf")
        tx, rx = sockets(7304)
        send_all(tx, 7304, n)
        # the first refusal, then until the refusals stop (the sender
        # waits on a zero window)
        wait_stat(B, "InErrRcvbuf", dropped0 + 1)
        settle(B, "InErrRcvbuf")
        queued = rx_queue(B)
        dropped = stat(B, "InErrRcvbuf") - dropped0
        bound = (limit + lag) * PAGE + 64 * 1024
        err = read_all(rx, n)
        soerr = tx.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        tx.close()
        rx.close()
    finally:
        with open("/proc/sys/net/wind/mem", "w") as f:
            f.write(" ".join(str(x) for x in mem))
    check(t, "net.wind.mem's max bounds what a reader holds; nothing is lost",
            dropped > 0 and queued <= bound and not err and soerr == 0,
            f"refused {dropped} packets, held {queued} B (bound {bound}), "
            f"SO_ERROR {soerr}, {err}")

    time.sleep(0.5)
    check(t, "every page back in the pool once the sockets are closed",
            pool_pages() <= lag, f"pool {pool_pages()} pages "
            f"(give or take {lag})")


def memcg_tests(t, ncpu):
    with open(f"{CG_ROOT}/cgroup.subtree_control", "w") as f:
        f.write("+memory")
    os.mkdir(CG)

    n = 100
    tx, rx = sockets(7302, in_cgroup=True)
    base, base_msgs = int(cg_read("memory.current")), stat(B, "InMessages")
    send_all(tx, 7302, n)
    got = wait_stat(B, "InMessages", base_msgs + n) - base_msgs
    cur, sock = int(cg_read("memory.current")), cg_sock()
    err = read_all(rx, n)
    cur2 = int(cg_read("memory.current"))
    # A message is charged about its payload (its packets' bytes in shared
    # pages), and memory.current moves with pages this test does not
    # queue too: at least half of what is queued, without which it would
    # not move at all (the pages are the sender's, outside the cgroup).
    check(t, "a memory cgroup sees its socket's queued messages "
            "(memory.current, memory.stat sock)",
            got >= n and not err and cur - base >= n * MSG // 2 and
            sock >= n * MSG // 2,
            f"messages {got}, memory.current {base} -> {cur} -> {cur2}, "
            f"sock {sock}, {err}")

    # memory.max: 1 MiB above what the cgroup has now
    n = 200
    dropped0 = stat(B, "InErrRcvbuf")
    limit = int(cg_read("memory.current")) + (1 << 20)
    with open(f"{CG}/memory.max", "w") as f:
        f.write(str(limit))
    send_all(tx, 7302, n)
    wait_stat(B, "InErrRcvbuf", dropped0 + 1)
    settle(B, "InErrRcvbuf")
    peak = int(cg_read("memory.current"))
    dropped = stat(B, "InErrRcvbuf") - dropped0
    err = read_all(rx, n)
    soerr = tx.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
    check(t, "memory.max bounds it; the sender waits, every message arrives "
            "exact and in order",
            dropped > 0 and peak <= limit + 64 * 1024 and not err and
            soerr == 0,
            f"refused {dropped} packets, memory.current {peak} of max "
            f"{limit}, SO_ERROR {soerr}, {err}")

    tx.close()
    rx.close()
    time.sleep(0.5)
    end = int(cg_read("memory.current"))
    sock = cg_sock()
    # the per-CPU charge cache keeps up to 64 pages per CPU
    check(t, "the cgroup's memory comes back when the socket is closed",
            end <= base + ncpu * 64 * PAGE and sock < 64 * PAGE,
            f"memory.current {base} -> {end}, sock {sock}")


def main():
    t = Ktap(7)
    try:
        setup()
        tests(t)
    except Exception as e:  # a broken setup fails what did not run
        print(f"# {type(e).__name__}: {e}")
        while t.i < 7:
            t.check("not run", False)
    finally:
        teardown()
    sys.exit(1 if t.failed else 0)


if __name__ == "__main__":
    main()
