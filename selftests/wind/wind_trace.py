#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tracepoints of the "wind" event group, read through tracefs.

    windA-tr-PID: eth0 10.81.0.1/24 <-- veth --> eth0 10.81.0.2/24 :windB-tr-PID
                  socket on 7401                  socket on 7400

Every wind:* event is enabled in a tracefs instance of its own while
known traffic goes from A to B: a 1000-byte and a 3000-byte sync
message, a Direct Map write and a refused one, a burst through netem
loss, a restart of B's socket, and a blackhole until A declares B
unreachable.  Then the recorded fields are checked against what was
sent: addresses, ports, types, lengths, segment counts, a retransmit
with its reason, the peer events with their errors.  The process
switches namespaces with setns(2) (Python 3.11 has no os.setns()).
KTAP output.
"""

import ctypes
import errno
import mmap
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import time
from windtest import Ktap, run, wind_socket

SOCK_WIND, IPPROTO_WIND, SOL_WIND = 7, 253, 253
MSG_WIND_SYNC = 0x800000
WIND_REGION_ADD, WIND_CMSG_DSM, WIND_DSM_DIRECT_MAP = 3, 1, 1
KSFT_SKIP = 4

PID = os.getpid()
NS = [f"windA-tr-{PID}", f"windB-tr-{PID}"]
ADDR = ["10.81.0.1", "10.81.0.2"]
PORT_A, PORT_B = 7401, 7400
TRACEFS = "/sys/kernel/tracing"
INSTANCE = f"{TRACEFS}/instances/wind_trace_{PID}"
HLEN, DATA_HLEN, ACK_LEN = 32, 40, 48
MSS = 1500 - 20 - DATA_HLEN


def setup():
    for ns in NS:
        run("ip", "netns", "add", ns)
        run("ip", "-n", ns, "link", "set", "lo", "up")
    run("ip", "-n", NS[0], "link", "add", "eth0", "mtu", "1500", "type",
        "veth", "peer", "name", "eth0", "mtu", "1500", "netns", NS[1])
    for i, ns in enumerate(NS):
        run("ip", "-n", ns, "addr", "add", ADDR[i] + "/24", "dev", "eth0")
        run("ip", "-n", ns, "link", "set", "eth0", "up")
    for _ in range(500):
        if all(b"LOWER_UP" in subprocess.run(
                ["ip", "-n", ns, "link", "show", "eth0"],
                capture_output=True).stdout for ns in NS):
            break
        time.sleep(0.01)
    run("ip", "netns", "exec", NS[0], "ping", "-c", "1", "-W", "5", ADDR[1])


def cleanup():
    for ns in NS:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    if os.path.isdir(INSTANCE):
        try:
            with open(f"{INSTANCE}/events/wind/enable", "w") as f:
                f.write("0")
        except OSError:
            pass
        os.rmdir(INSTANCE)


def tracefs_ready():
    if not os.path.isdir(f"{TRACEFS}/instances"):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS],
                       capture_output=True)
    return os.path.isdir(f"{TRACEFS}/events/wind")


def netem(ns, spec):
    run("tc", "-n", ns, "qdisc", "replace", "dev", "eth0", "root", "netem",
        *spec.split())


def netem_off(ns):
    subprocess.run(["tc", "-n", ns, "qdisc", "del", "dev", "eth0", "root"],
                   capture_output=True)


LINE = re.compile(r"\s(wind_\w+): (\S+):(\d+) -> (\S+):(\d+) ?(.*)$")


def read_events():
    """The instance's trace as a list of dicts: tp (the event), saddr,
    sport, daddr, dport and the event's own fields."""
    out = []
    with open(f"{INSTANCE}/trace") as f:
        for line in f:
            m = LINE.search(line)
            if not m:
                continue
            ev = {"tp": m[1], "saddr": m[2], "sport": int(m[3]),
                  "daddr": m[4], "dport": int(m[5])}
            for kv in m[6].split():
                k, _, v = kv.partition("=")
                ev[k] = v
            out.append(ev)
    return out


def find(events, name, **want):
    return [e for e in events if e["tp"] == name and
            all(str(e.get(k)) == str(v) for k, v in want.items())]


def wait_event(name, timeout, **want):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if find(read_events(), name, **want):
            return True
        time.sleep(0.05)
    return False


def traffic(t):
    """Make the known traffic; returns what the checks need."""
    a = wind_socket(NS[0], PORT_A)
    b = wind_socket(NS[1], PORT_B)
    dst = (ADDR[1], PORT_B)

    a.sendto(b"m" * 1000, MSG_WIND_SYNC, dst)
    got1 = b.recv(65536)
    a.sendto(b"n" * 3000, MSG_WIND_SYNC, dst)
    got2 = b.recv(65536)
    t.check("plain messages arrive", len(got1) == 1000 and len(got2) == 3000)

    # Direct Map: 100 bytes at offset 4096 of region 5; then a wrong key
    region = mmap.mmap(-1, 2 * 4096)
    base = ctypes.addressof(ctypes.c_char.from_buffer(region))
    b.setsockopt(SOL_WIND, WIND_REGION_ADD,
                 struct.pack("=QQIIQ", base, 2 * 4096, 5, 0, 0x1234))
    for key in (0x1234, 0x9999):
        dsm = struct.pack("=IIQQII", WIND_DSM_DIRECT_MAP, 5, 4096, key, 0, 0)
        try:
            a.sendmsg([b"d" * 100], [(SOL_WIND, WIND_CMSG_DSM, dsm)],
                      MSG_WIND_SYNC, dst)
            err = 0
        except OSError as e:
            err = e.errno
        if key == 0x1234:
            t.check("direct map written", err == 0 and
                    region[4096:4196] == b"d" * 100, f"errno {err}")
        else:
            t.check("wrong key refused with EACCES", err == errno.EACCES,
                    f"errno {err}")

    # loss: bursts until one retransmission is traced (each is likely)
    netem(NS[0], "loss 30%")
    for _ in range(10):
        for i in range(20):
            a.sendto(bytes([i]) * 2000, MSG_WIND_SYNC if i == 19 else 0, dst)
        for i in range(20):
            b.recv(65536)
        if find(read_events(), "wind_retransmit", dport=PORT_B):
            break
    netem_off(NS[0])

    # B restarts: its new socket answers A's next message with a RESET
    b.close()
    b = wind_socket(NS[1], PORT_B)
    try:
        a.sendto(b"after restart", MSG_WIND_SYNC, dst)
        err = 0
    except OSError as e:
        err = e.errno
    t.check("a sync send to the restarted peer fails with ECONNRESET",
            err == errno.ECONNRESET, f"errno {err}")
    a.sendto(b"again", MSG_WIND_SYNC, dst)
    t.check("the next one flows", b.recv(65536) == b"again")

    # B dies behind a blackhole: 2 retries of at most 100 ms (only now:
    # at 30 % loss above, 2 timeouts in a row failed the peer at times)
    run("ip", "netns", "exec", NS[0], "sysctl", "-qw", "net.wind.retries=2")
    netem(NS[0], "loss 100%")
    a.sendto(b"x" * 10, 0, dst)
    died = wait_event("wind_peer", 60, event="failed", dport=PORT_B)
    t.check("the blackholed peer is declared unreachable", died)
    netem_off(NS[0])
    a.close()
    b.close()
    region.close()
    wait_event("wind_peer", 10, event="freed", sport=PORT_B)


PERF_PROG = """
import socket
r = socket.socket(socket.AF_INET, 7, 253)
r.bind(("127.0.0.1", 7402))
s = socket.socket(socket.AF_INET, 7, 253)
s.sendto(b"p" * 77, 0x800000, ("127.0.0.1", 7402))
assert r.recv(100) == b"p" * 77
"""


def check_perf(t):
    """The documented perf command sees the events too."""
    perf = shutil.which("perf")
    if not perf:
        print(f"ok {t.i + 1} perf record -e 'wind:*' # SKIP no perf")
        t.i += 1
        return
    data = f"/tmp/wind_trace_{PID}.perf"
    subprocess.run(["ip", "link", "set", "lo", "up"], capture_output=True)
    rec = subprocess.run([perf, "record", "-q", "-e", "wind:*", "-a", "-o",
                          data, "--", sys.executable, "-c", PERF_PROG],
                         capture_output=True, text=True, timeout=300)
    out = subprocess.run([perf, "script", "-i", data], capture_output=True,
                         text=True, timeout=300).stdout
    os.unlink(data) if os.path.exists(data) else None
    lines = [ln for ln in out.splitlines() if "wind:wind_packet_send" in ln
             and "-> 127.0.0.1:7402 type=DATA" in ln and "len=117" in ln]
    t.check("perf record -e 'wind:*' sees the 77-byte message",
            rec.returncode == 0 and lines, rec.stderr + out[-2000:])


def main():
    if os.getuid() != 0:
        print("1..0 # SKIP must be root")
        return KSFT_SKIP
    # the first socket loads wind.ko, which makes events/wind
    try:
        socket.socket(socket.AF_INET, SOCK_WIND, IPPROTO_WIND).close()
    except OSError as e:
        print(f"1..0 # SKIP no Wind: {e}")
        return KSFT_SKIP
    if not tracefs_ready():
        print(f"1..0 # SKIP no {TRACEFS}/events/wind (CONFIG_EVENT_TRACING)")
        return KSFT_SKIP
    t = Ktap(28)
    try:
        setup()
        for ns in NS[:1]:
            for k, v in (("rto_min_ms", 20), ("rto_max_ms", 100)):
                run("ip", "netns", "exec", ns, "sysctl", "-qw",
                    f"net.wind.{k}={v}")
        os.mkdir(INSTANCE)
        with open(f"{INSTANCE}/buffer_size_kb", "w") as f:
            f.write("8192")
        with open(f"{INSTANCE}/events/wind/enable", "w") as f:
            f.write("1")
        traffic(t)
        with open(f"{INSTANCE}/events/wind/enable", "w") as f:
            f.write("0")
        ev = read_events()
        check_events(t, ev)
        check_perf(t)
    finally:
        cleanup()
    return 1 if t.failed or t.i != 28 else 0


def check_events(t, ev):
    A, B = ADDR
    print(f"# {len(ev)} wind events recorded")
    names = sorted({e["tp"] for e in ev})
    print("# events seen: " + " ".join(names))

    up = find(ev, "wind_peer", event="up", saddr=A, sport=PORT_A, daddr=B,
              dport=PORT_B)
    t.check("peer up on A for B:7400", up and up[0]["err"] == "0", up[:1])
    t.check("peer up on B for A:7401",
            find(ev, "wind_peer", event="up", saddr=B, sport=PORT_B,
                 daddr=A, dport=PORT_A))

    sent = find(ev, "wind_packet_send", saddr=A, sport=PORT_A, daddr=B,
                dport=PORT_B, type="DATA", len=DATA_HLEN + 1000, segs=1)
    t.check("1000-byte message sent as one DATA packet of 1040 bytes",
            sent and "SYNC" in sent[0]["flags"] and
            "ORDERED" in sent[0]["flags"], sent[:1])
    seq = sent[0]["seq"] if sent else None
    t.check("B received it with the same seq and length",
            find(ev, "wind_packet_recv", saddr=A, sport=PORT_A, daddr=B,
                 dport=PORT_B, type="DATA", len=DATA_HLEN + 1000, seq=seq))
    t.check("B delivered it: 1000 bytes, 1 fragment",
            find(ev, "wind_deliver", saddr=B, sport=PORT_B, daddr=A,
                 dport=PORT_A, seq=seq, len=1000, nfrags=1))
    # 3000 bytes: mss + mss + 120, as one GSO skb over the veth or three
    gso = find(ev, "wind_packet_send", sport=PORT_A, dport=PORT_B,
               type="DATA", segs=3, len=3000 + DATA_HLEN)
    first = find(ev, "wind_packet_send", sport=PORT_A, dport=PORT_B,
                 type="DATA", segs=1, len=MSS + DATA_HLEN)
    t.check("3000-byte message: 3 packets (GSO segs=3 or one by one)",
            gso or first, [e for e in ev if e["tp"] == "wind_packet_send"
                           and e["sport"] == PORT_A][:6])
    t.check("B delivered 3000 bytes in 3 fragments",
            find(ev, "wind_deliver", sport=PORT_B, dport=PORT_A, len=3000,
                 nfrags=3))

    acks = find(ev, "wind_ack_send", saddr=B, sport=PORT_B, daddr=A,
                dport=PORT_A)
    t.check("B sent pure ACKs to A", acks, "")
    t.check("each as an ACK packet of 48 bytes",
            find(ev, "wind_packet_send", sport=PORT_B, dport=PORT_A,
                 type="ACK", len=ACK_LEN) and
            find(ev, "wind_packet_recv", sport=PORT_B, dport=PORT_A,
                 type="ACK", len=ACK_LEN))

    dsm = find(ev, "wind_dsm_write", saddr=B, sport=PORT_B, daddr=A,
               dport=PORT_A)
    t.check("one DSM write: region 5, offset 4096, 100 bytes, direct_map",
            len(dsm) == 1 and dsm[0]["region"] == "5" and
            dsm[0]["offset"] == "4096" and dsm[0]["len"] == "100" and
            dsm[0]["mode"] == "direct_map", dsm)
    ref = find(ev, "wind_peer", event="dsm_refused", sport=PORT_B,
               dport=PORT_A)
    t.check("the wrong key: dsm_refused, err 13 (EACCES)",
            len(ref) == 1 and ref[0]["err"] == str(errno.EACCES), ref)

    rtx = find(ev, "wind_retransmit", saddr=A, sport=PORT_A, daddr=B,
               dport=PORT_B)
    t.check("retransmissions under loss, each with a reason",
            rtx and all(e["reason"] in
                        ("timeout", "probe", "rack", "challenge", "recovery",
                         "refused")
                        for e in rtx), rtx[:3])
    t.check("a retransmitted packet goes out again with its seq",
            rtx and find(ev, "wind_packet_send", sport=PORT_A, dport=PORT_B,
                         type="DATA", seq=rtx[0]["seq"]))
    cw = find(ev, "wind_cwnd", sport=PORT_A, dport=PORT_B)
    t.check("congestion window changes traced",
            cw and all((e["reason"] == "grow" and
                        int(e["cwnd"]) > int(e["old"])) or
                       (e["reason"] in ("loss", "timeout") and
                        int(e["cwnd"]) <= int(e["old"])) for e in cw), cw[:3])

    rs = find(ev, "wind_peer", event="restart", sport=PORT_A, dport=PORT_B)
    t.check("A saw B restart: err 104 (ECONNRESET)",
            len(rs) == 1 and rs[0]["err"] == str(errno.ECONNRESET), rs)
    t.check("a RESET was sent by B and received by A",
            find(ev, "wind_packet_send", sport=PORT_B, dport=PORT_A,
                 type="RESET", len=HLEN) and
            find(ev, "wind_packet_recv", sport=PORT_B, dport=PORT_A,
                 type="RESET", len=HLEN))
    fail = find(ev, "wind_peer", event="failed", saddr=A, sport=PORT_A,
                daddr=B, dport=PORT_B)
    t.check("A declared B failed: err 110 (ETIMEDOUT), 1 message queued",
            len(fail) == 1 and fail[0]["err"] == str(errno.ETIMEDOUT) and
            fail[0]["queued"] == "1", fail)
    t.check("timeouts before it, with reason timeout",
            find(ev, "wind_retransmit", sport=PORT_A, dport=PORT_B,
                 reason="timeout"))
    t.check("A freed its peer state at close",
            find(ev, "wind_peer", event="freed", sport=PORT_A,
                 dport=PORT_B))
    t.check("B freed its peer states at close",
            find(ev, "wind_peer", event="freed", sport=PORT_B,
                 dport=PORT_A))
    t.check("no packet was traced with a foreign port",
            not [e for e in ev if e["tp"].startswith("wind_packet") and
                 {e["sport"], e["dport"]} != {PORT_A, PORT_B}],
            [e for e in ev if e["tp"].startswith("wind_packet") and
             {e["sport"], e["dport"]} != {PORT_A, PORT_B}][:3])


if __name__ == "__main__":
    sys.exit(main())
