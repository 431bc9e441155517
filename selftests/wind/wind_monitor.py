#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""windctl monitor: the "peers" multicast group of the wind family.

    windA-mon-PID: eth0 10.82.0.1/24 <-- veth --> eth0 10.82.0.2/24 :windB-mon-PID
                   socket on 7501                  socket on 7500

"windctl -n NS -j monitor" runs in each namespace (and a plain one in
A) while A's socket talks to B's: a peer comes up on both sides, B's
socket restarts, a DSM write with a wrong key is refused, a closed port
refuses with ICMP, a blackhole makes B unreachable, and the sockets
close.  Each monitor's lines are checked field by field against that;
they carry no tags (anyone may listen).  The process switches namespaces
with setns(2) (Python 3.11 has no os.setns()).  KTAP output.
"""

import ctypes
import errno
import json
import mmap
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from windtest import Ktap, run, wind_socket

SOCK_WIND, IPPROTO_WIND, SOL_WIND = 7, 253, 253
MSG_WIND_SYNC = 0x800000
WIND_REGION_ADD, WIND_CMSG_DSM, WIND_DSM_DIRECT_MAP = 3, 1, 1
KSFT_SKIP = 4
NTESTS = 20

PID = os.getpid()
NS = [f"windA-mon-{PID}", f"windB-mon-{PID}"]
ADDR = ["10.82.0.1", "10.82.0.2"]
PORT_A, PORT_B, SENTINEL, CLOSED = 7501, 7500, 9, 7999
ROOT = os.environ.get("WIND_ROOT") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "../.."))
WINDCTL = os.path.join(ROOT, "userspace/windctl/windctl")


def setup():
    for ns in NS:
        run("ip", "netns", "add", ns)
        run("ip", "-n", ns, "link", "set", "lo", "up")
    run("ip", "-n", NS[0], "link", "add", "eth0", "mtu", "1500", "type",
        "veth", "peer", "name", "eth0", "mtu", "1500", "netns", NS[1])
    for i, ns in enumerate(NS):
        run("ip", "-n", ns, "addr", "add", ADDR[i] + "/24", "dev", "eth0")
        run("ip", "-n", ns, "link", "set", "eth0", "up")
    run("ip", "netns", "exec", NS[0], "ping", "-c", "1", "-W", "5", ADDR[1])
    for k, v in (("rto_min_ms", 20), ("rto_max_ms", 100), ("retries", 2)):
        run("ip", "netns", "exec", NS[0], "sysctl", "-qw", f"net.wind.{k}={v}")


class Monitor:
    """windctl monitor in a namespace; its lines gathered by a thread."""

    def __init__(self, ns, json_lines=True):
        cmd = [WINDCTL, "-n", ns] + (["-j"] if json_lines else []) + \
              ["monitor"]
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        self.lines = []
        self.json = json_lines
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            with self.lock:
                self.lines.append(json.loads(line) if self.json
                                  else line.rstrip("\n"))

    def events(self):
        with self.lock:
            return list(self.lines)

    def wait(self, pred, timeout=60, n=1):
        """The lines that satisfy pred, once there are n of them."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = [e for e in self.events() if pred(e)]
            if len(found) >= n:
                return found
            time.sleep(0.02)
        return []

    def stop(self):
        self.p.terminate()
        self.p.wait()


def sentinel(ns, mons):
    """Make peer events on a throw-away socket until every monitor in ns
    printed one: then they have joined the group."""
    dst = ADDR[1] if ns == NS[0] else ADDR[0]
    for _ in range(100):
        s = wind_socket(ns)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                     struct.pack("ii", 1, 0))
        s.sendto(b"?", (dst, SENTINEL))
        s.close()
        if all(m.wait(lambda e: e["port"] == SENTINEL if m.json else
                      f":{SENTINEL} local " in e, timeout=1) for m in mons):
            return True
    return False


def ev_match(e, **want):
    return all(e.get(k) == v for k, v in want.items())


def scenario(t):
    A, B = ADDR
    mon_a, mon_b, txt_a = Monitor(NS[0]), Monitor(NS[1]), Monitor(NS[0], False)
    mons = (mon_a, mon_b, txt_a)
    try:
        t.check("the monitors of A joined the group", sentinel(NS[0], (mon_a, txt_a)))
        t.check("the monitor of B joined the group", sentinel(NS[1], (mon_b,)))

        a = wind_socket(NS[0], PORT_A)
        b = wind_socket(NS[1], PORT_B)
        dst = (B, PORT_B)
        a.sendto(b"hello", MSG_WIND_SYNC, dst)
        b.recv(100)
        up = mon_a.wait(lambda e: ev_match(e, event="up", sock_port=PORT_A,
                                           port=PORT_B))
        t.check("A: up, sock 7501, peer 10.82.0.2:7500, local 10.82.0.1, no error",
                len(up) == 1 and ev_match(up[0], addr=B, local_addr=A, error=0,
                                          error_name=None), up)
        t.check("A: the event carries no tags (anyone may listen)",
                up and "local_tag" not in up[0] and "remote_tag" not in up[0],
                up)
        upb = mon_b.wait(lambda e: ev_match(e, event="up", sock_port=PORT_B,
                                            port=PORT_A))
        t.check("B: up, sock 7500, peer 10.82.0.1:7501, local 10.82.0.2",
                len(upb) == 1 and ev_match(upb[0], addr=A, local_addr=B,
                                           error=0), upb)

        # B restarts: a new socket on the same port
        b.close()
        freed_b = mon_b.wait(lambda e: ev_match(e, event="freed",
                                                sock_port=PORT_B, port=PORT_A))
        t.check("B: freed when its socket closed",
                len(freed_b) == 1 and ev_match(freed_b[0], addr=A, error=0),
                freed_b)
        b = wind_socket(NS[1], PORT_B)
        try:
            a.sendto(b"after", MSG_WIND_SYNC, dst)
            err = 0
        except OSError as e:
            err = e.errno
        t.check("A: a sync send to the restarted B fails with ECONNRESET",
                err == errno.ECONNRESET, f"errno {err}")
        rs = mon_a.wait(lambda e: ev_match(e, event="restart", sock_port=PORT_A,
                                           port=PORT_B))
        t.check("A: restart, error 104 ECONNRESET",
                len(rs) == 1 and ev_match(rs[0], addr=B, error=errno.ECONNRESET,
                                          error_name="ECONNRESET"), rs)
        a.sendto(b"again", MSG_WIND_SYNC, dst)
        t.check("A: the next message flows", b.recv(100) == b"again")

        # a DSM write with the wrong key, refused by B
        region = mmap.mmap(-1, 4096)
        base = ctypes.addressof(ctypes.c_char.from_buffer(region))
        b.setsockopt(SOL_WIND, WIND_REGION_ADD,
                     struct.pack("=QQIIQ", base, 4096, 3, 0, 0x77))
        dsm = struct.pack("=IIQQII", WIND_DSM_DIRECT_MAP, 3, 0, 0x78, 0, 0)
        try:
            a.sendmsg([b"z" * 64], [(SOL_WIND, WIND_CMSG_DSM, dsm)],
                      MSG_WIND_SYNC, dst)
            err = 0
        except OSError as e:
            err = e.errno
        t.check("A: the refused write fails with EACCES", err == errno.EACCES,
                f"errno {err}")
        ref = mon_b.wait(lambda e: ev_match(e, event="dsm-refused",
                                            sock_port=PORT_B, port=PORT_A))
        t.check("B: dsm-refused, peer 10.82.0.1:7501, error 13 EACCES",
                len(ref) == 1 and ev_match(ref[0], addr=A, error=errno.EACCES,
                                           error_name="EACCES"), ref)

        # a port nobody listens on: ICMP port unreachable
        try:
            a.sendto(b"nobody", MSG_WIND_SYNC, (B, CLOSED))
            err = 0
        except OSError as e:
            err = e.errno
        t.check("A: a sync send to a closed port fails with ECONNREFUSED",
                err == errno.ECONNREFUSED, f"errno {err}")
        cr = mon_a.wait(lambda e: ev_match(e, event="failed", port=CLOSED))
        t.check("A: failed, peer 10.82.0.2:7999, error 111 ECONNREFUSED",
                cr and ev_match(cr[0], sock_port=PORT_A, addr=B,
                                error=errno.ECONNREFUSED,
                                error_name="ECONNREFUSED"), cr)

        # B dies behind a blackhole
        run("tc", "-n", NS[0], "qdisc", "replace", "dev", "eth0", "root",
            "netem", "loss", "100%")
        t0 = time.monotonic()
        a.sendto(b"x" * 10, 0, dst)
        dead = mon_a.wait(lambda e: ev_match(e, event="failed", port=PORT_B))
        print(f"# unreachable reported {time.monotonic() - t0:.3f} s after the "
              "send (retries 2, rto_max_ms 100)")
        t.check("A: failed, peer 10.82.0.2:7500, error 110 ETIMEDOUT",
                len(dead) == 1 and ev_match(dead[0], sock_port=PORT_A, addr=B,
                                            error=errno.ETIMEDOUT,
                                            error_name="ETIMEDOUT"), dead)
        line = (f"failed      sock {PORT_A} peer {B}:{PORT_B} local {A} "
                "error ETIMEDOUT (Connection timed out)")
        t.check("the plain monitor printed the same event",
                txt_a.wait(lambda e: e == line), txt_a.events()[-6:])
        subprocess.run(["tc", "-n", NS[0], "qdisc", "del", "dev", "eth0",
                        "root"], capture_output=True)

        a.close()
        fr = mon_a.wait(lambda e: ev_match(e, event="freed", sock_port=PORT_A,
                                           port=PORT_B))
        t.check("A: freed at close, peer 10.82.0.2:7500",
                len(fr) == 1 and ev_match(fr[0], addr=B, error=0), fr)
        b.close()
        region.close()
        t.check("B: freed at close again",
                len(mon_b.wait(lambda e: ev_match(e, event="freed",
                                                  sock_port=PORT_B,
                                                  port=PORT_A), n=2)) == 2)
        names = {"up", "restart", "failed", "freed", "dsm-refused"}
        t.check("every JSON line is a known event with every field",
                all(set(e) == {"event", "sock_port", "local_addr", "addr",
                               "port", "error", "error_name"} and
                    e["event"] in names
                    for m in (mon_a, mon_b) for e in m.events()),
                [e for m in (mon_a, mon_b) for e in m.events()][:5])
        mon_a.wait(lambda e: e["sock_port"] == PORT_A, n=7)
        t.check("no event of A's socket but the ones above",
                sorted(e["event"] for e in mon_a.events()
                       if e["sock_port"] == PORT_A) ==
                sorted(["up", "restart", "up", "failed", "failed", "freed",
                        "freed"]),
                [e for e in mon_a.events() if e["sock_port"] == PORT_A])
    finally:
        for m in mons:
            m.stop()
    r = subprocess.run([WINDCTL, "monitor", "bogus"], capture_output=True)
    t.check("windctl monitor with a bad argument exits 2", r.returncode == 2,
            r.stderr)


def main():
    if os.getuid() != 0:
        print("1..0 # SKIP must be root")
        return KSFT_SKIP
    if not os.access(WINDCTL, os.X_OK):
        print(f"1..0 # SKIP {WINDCTL} not built")
        return KSFT_SKIP
    # the first socket loads wind.ko: its sysctls appear
    try:
        socket.socket(socket.AF_INET, SOCK_WIND, IPPROTO_WIND).close()
    except OSError as e:
        print(f"1..0 # SKIP no Wind: {e}")
        return KSFT_SKIP
    t = Ktap(NTESTS)
    try:
        setup()
        scenario(t)
    finally:
        for ns in NS:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    return 1 if t.failed or t.i != NTESTS else 0


if __name__ == "__main__":
    sys.exit(main())
