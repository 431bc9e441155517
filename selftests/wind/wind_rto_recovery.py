#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Recovery after a retransmission timeout (wind(7), "Reliability"): a
window of packets lost at once is resent after one timeout, not one
packet per timeout.

A sender in namespace A learns an RTT of 30 ms (netem delay on its
veth; under the first RTO, so its congestion window grows to about 36
packets); then the link drops everything, it sends a 64 KiB message
(47 packets: a window of them is lost), and timeouts fire while the
link is still dark.  The link comes back without delay: the
next timeout's resend is acknowledged in far less than half the SRTT,
which RACK takes for the original's arrival, so RACK finds nothing
lost.  Every packet in flight at a timeout is lost, and the ACKs after
it resend them: the message arrives exact after one or two more
timeouts (the one that finds the link back; the test allows four),
each of its packets resent about once.  Before, each timeout resent one
packet: 32 timeouts after the link was back, backed off to 1 s, 39 s.
"""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from windtest import (Ktap, main_as_root, netns_del, run,  # noqa: E402
                      veth_netns, wind_socket, wind_stat)

A, B = "wrA", "wrB"
ADDR_A, ADDR_B, PORT_A, PORT_B = "10.81.0.1", "10.81.0.2", 7900, 7901


def teardown():
    netns_del(A, B)


def setup():
    veth_netns(A, B, ADDR_A, ADDR_B)


def main():
    t = Ktap(3)
    try:
        setup()
        tx = wind_socket(A, PORT_A)
        rx = wind_socket(B, PORT_B)
        rx.settimeout(60)
        run("tc", "-n", A, "qdisc", "add", "dev", "eth0", "root", "netem",
            "delay", "30ms")
        # an RTT of 30 ms, sampled from twenty messages' ACKs
        for i in range(20):
            tx.sendto(bytes([i]) * 1000, (ADDR_B, PORT_B))
            m, _ = rx.recvfrom(4096)
            if m != bytes([i]) * 1000:
                raise RuntimeError(f"warm-up message {i} wrong")
        time.sleep(0.2)
        run("tc", "-n", A, "qdisc", "change", "dev", "eth0", "root", "netem",
            "delay", "30ms", "loss", "100%")
        msg = os.urandom(65536)
        tx.sendto(msg, (ADDR_B, PORT_B))
        # the probe and the first timeout (RTO >= 30 ms) go while dark
        time.sleep(0.5)
        before = wind_stat(A, "OutTimeouts")
        run("tc", "-n", A, "qdisc", "del", "dev", "eth0", "root")
        try:
            got, src = rx.recvfrom(1 << 17)
        except OSError as e:
            got, src = repr(e), None
        after = wind_stat(A, "OutTimeouts")
        print(f"# OutTimeouts {before} while dark, {after - before} after",
              flush=True)
        t.check("message_arrives_exact_after_the_link_is_back",
                got == msg and src == (ADDR_A, PORT_A),
                f"got {len(got)} bytes from {src}")
        t.check("window_resent_after_a_timeout_not_a_packet_per_timeout",
                after - before <= 4,
                f"OutTimeouts {before} -> {after}: the lost window went "
                "back a packet per timeout")
        retrans = wind_stat(A, "OutRetransmits")
        # the message's 47 packets, and a few the probes and the dark
        # timeouts resent (lost too)
        t.check("each_packet_resent_about_once",
                retrans <= 47 + 8, f"OutRetransmits {retrans}")
        tx.close()
        rx.close()
    finally:
        teardown()
    return 1 if t.failed else 0


if __name__ == "__main__":
    main_as_root(main)
