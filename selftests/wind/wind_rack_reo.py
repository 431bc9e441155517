#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""RACK's reordering timer (wind(7), "Reliability"): a packet that an ACK
shows behind a later one, but that RACK cannot call lost yet because its
reordering window has not passed, is resent when the window has passed,
without waiting for another ACK, which never comes when nothing follows
it.

A sends a message of three packets to B; B's nftables drops the first
full-sized packet once (a quota of one packet), so B gets the second and
the third out of order and acknowledges them at once.  Fewer than three
packets past the hole: RACK waits a reordering window (a quarter SRTT,
10 ms with the 40 ms netem delay on A) before it resends the first.  Nothing else is in flight,
so no other ACK comes.  Before the timer, the hole waited for the tail
loss probe, which resent the third packet (B got it twice) and whose ACK
then let RACK resend the first.  A's delayed-ACK time is 200 ms here and
its minimum RTO 1 s, so the probe and the timeout are at least 280 ms
away: the check does not depend on how fast the VM runs, only on the
timer's firing within those 280 ms.
"""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from windtest import (Ktap, main_as_root, netns_del, run,  # noqa: E402
                      veth_netns, wind_socket, wind_stat)

A, B = "wqA", "wqB"
ADDR_A, ADDR_B, PORT_A, PORT_B = "10.82.0.1", "10.82.0.2", 7910, 7911
MSG_LEN = 2 * 1440 + 100        # two full packets (MTU 1500) and a short one
FULL = 1500                     # IP length of a full packet


def teardown():
    netns_del(A, B)


def setup():
    veth_netns(A, B, ADDR_A, ADDR_B)
    # packets one by one, not one GSO skb
    run("ip", "-n", A, "link", "set", "dev", "eth0", "gso_max_segs", "1")
    # an SRTT of 40 ms: a reordering window of 10 ms, far more than the
    # three packets take to leave, however slowly the VM runs
    run("tc", "-n", A, "qdisc", "add", "dev", "eth0", "root", "netem",
        "delay", "40ms")


def tunables():
    # after the first Wind socket: the module (and net.wind) is loaded
    for kv in ("net.wind.delack_ms=200", "net.wind.rto_min_ms=1000"):
        run("ip", "netns", "exec", A, "sysctl", "-qw", kv)


def counters():
    return {"probes": wind_stat(A, "OutProbes"),
            "timeouts": wind_stat(A, "OutTimeouts"),
            "retrans": wind_stat(A, "OutRetransmits"),
            "dups": wind_stat(B, "InDuplicates")}


def main():
    t = Ktap(4)
    try:
        setup()
        tx = wind_socket(A, PORT_A)
        rx = wind_socket(B, PORT_B)
        rx.settimeout(30)
        tunables()
        for i in range(10):
            tx.sendto(bytes([i]) * 1000, (ADDR_B, PORT_B))
            m, _ = rx.recvfrom(4096)
            if m != bytes([i]) * 1000:
                raise RuntimeError(f"warm-up message {i} wrong")
        # let the warm-up's last ACK in and its timers settle
        time.sleep(0.3)
        run("ip", "netns", "exec", B, "nft",
            "add table ip wreo; "
            "add chain ip wreo in { type filter hook input priority 0; }; "
            f"add rule ip wreo in ip protocol 253 ip length {FULL} "
            f"quota until {FULL + 1} bytes counter drop")
        before = counters()
        msg = os.urandom(MSG_LEN)
        tx.sendto(msg, (ADDR_B, PORT_B))
        try:
            got, src = rx.recvfrom(1 << 16)
        except OSError as e:
            got, src = repr(e).encode(), None
        after = counters()
        d = {k: after[k] - before[k] for k in after}
        dropped = run("ip", "netns", "exec", B, "nft", "list", "table",
                      "ip", "wreo").stdout
        print(f"# {d}; nft: {' '.join(dropped.split())[:200]}", flush=True)
        t.check("message_arrives_exact",
                got == msg and src == (ADDR_A, PORT_A),
                f"got {len(got)} bytes from {src}")
        t.check("hole_resent_by_rack_once", d["retrans"] == 1,
                f"OutRetransmits +{d['retrans']}")
        t.check("no_probe_no_timeout", d["probes"] == 0 and
                d["timeouts"] == 0,
                f"OutProbes +{d['probes']}, OutTimeouts +{d['timeouts']}")
        t.check("receiver_got_no_duplicate", d["dups"] == 0,
                f"InDuplicates +{d['dups']}")
        tx.close()
        rx.close()
    finally:
        teardown()
    return 1 if t.failed else 0


if __name__ == "__main__":
    main_as_root(main)
