#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Incast (wind(7), "Receive buffer"): 16 sockets in namespace A each
send a 64 KiB async-ordered message at once to one socket in B, over
a veth of MTU 1500.  Their half-received messages together exceed the
receive buffer.

Twice: first to a socket whose buffer is at its default, which grows as
a TCP connection's does (partly received messages filled it and nothing
was readable) up to net.ipv4.tcp_rmem[2]; then to one whose SO_RCVBUF
was set, which keeps its size and lets one message at a time past
sk_rcvbuf.  Both ways every message completes: all 16 arrive exact, and
the receiver holds nothing afterwards.  (Before, every peer's in-order
packets were let in up to twice the buffer, and 16 half-received
messages filled it for good.)

Then a receiver that does not read: its window shuts, and the sender
probes it.  A probe refused for want of room is not a loss: the sender
counts no retransmission timeout and keeps its congestion window, and
every message arrives exact once the receiver reads.

Last, a refusal of what was in flight.  C's message holds the one
claim past a full SO_RCVBUF that the receiver grants at a time; D, a
new sender, is refused its first packets (nothing is offered to a peer
before it proves its address).  The receiver's ACK says so
(WIND_ACK_REFUSED), and D takes its packets back: when the receiver
reads and tells D its window opened, D sends them at once.  Before, D
counted them as in flight, the window update opened nothing, and they
went again only at D's retransmission timeout (5 s here:
net.wind.rto_min_ms=1000 in A, so that the receiver reads long before
it, however slowly the VM runs).

Last, a reader that reads each message only once the sender has filled
its buffer (SO_RCVBUF as the bench's, a whole 64 KiB message and most
of the next; a packet per skb): the window is shut with nothing in flight, the same way
each time, and each read must reopen it.  The sender never needs a
window probe.  Before, only the first read did: a read told a starved
peer only when it freed a sixteenth of the buffer more than the last
read had found, and each read found the buffer as full as the last
one, so the peer waited for its probe once a message (a third of the
bench's 64 KiB rate at 1 % loss)."""
import time
import os
import socket
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from windtest import (SOCK_WIND, IPPROTO_WIND, Ktap, enter,  # noqa: E402
                      main_as_root, netns_del, run, veth_netns,
                      wind_sock_row, wind_stat)

A, B = "wiA", "wiB"
SENDERS, MSGS, SIZE = 16, 1, 65536


def teardown():
    netns_del(A, B)


def setup():
    veth_netns(A, B, "10.79.0.1", "10.79.0.2")


def payload(i, k):
    return bytes([i, k]) + os.urandom(16) * ((SIZE - 2) // 16) + b"\0" * ((SIZE - 2) % 16)


def rx_queue(ns, port):
    """The bytes the socket bound to @port holds for reading."""
    return int(wind_sock_row(ns, port)[4].split(":")[1], 16)


def tcp_rmem_max(ns):
    out = run("ip", "netns", "exec", ns, "cat",
              "/proc/sys/net/ipv4/tcp_rmem").stdout
    return int(out.split()[2])


def incast(t, port, rcvbuf):
    """16 senders at once to a new socket of B on port; SO_RCVBUF set to
    rcvbuf unless None.  Returns the receiver's SO_RCVBUF before and
    after."""
    enter(B)
    rx = socket.socket(socket.AF_INET, SOCK_WIND, IPPROTO_WIND)
    if rcvbuf:
        rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    rx.bind(("10.79.0.2", port))
    rx.settimeout(90)
    enter(A)
    tx = []
    for i in range(SENDERS):
        s = socket.socket(socket.AF_INET, SOCK_WIND, IPPROTO_WIND)
        s.bind(("10.79.0.1", 7800 + i))
        s.settimeout(90)
        tx.append(s)
    enter(None)
    before = rx.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    sent = {i: [payload(i, k) for k in range(MSGS)] for i in range(SENDERS)}
    err = []

    def send(i):
        try:
            for m in sent[i]:
                tx[i].sendto(m, ("10.79.0.2", port))
        except OSError as e:
            err.append((i, e))

    ths = [threading.Thread(target=send, args=(i,)) for i in range(SENDERS)]
    for th in ths:
        th.start()
    got = {i: [] for i in range(SENDERS)}
    n = 0
    try:
        for n in range(1, SENDERS * MSGS + 1):
            m, src = rx.recvfrom(1 << 17)
            got[src[1] - 7800].append(m)
    except OSError as e:
        err.append(("recv", e))
        n -= 1
    for th in ths:
        th.join()
    what = "set" if rcvbuf else "default"
    t.check(f"every_message_of_16_senders_arrives_{what}_buffer",
            n == SENDERS * MSGS and not err,
            f"{n} of {SENDERS * MSGS} arrived; errors {err}")
    t.check(f"exact_and_in_order_per_sender_{what}_buffer", got == sent,
            "; ".join(f"sender {i}: {[m[:2].hex() for m in got[i]]}"
                      for i in got if got[i] != sent[i])[:400])
    q = rx_queue(B, port)
    t.check(f"receiver_holds_nothing_after_{what}_buffer", q == 0,
            f"rx_queue {q}")
    after = rx.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    for s in tx:
        s.close()
    rx.close()
    return before, after


ZW_MSGS, ZW_SIZE = 48, 8192
RF_SIZE, RF_D_SIZE = 60000, 5000     # C's 42 packets each, D's 4
RW_MSGS, RW_SIZE, RW_RCVBUF = 5, 65536, 106496


def wind_sock(ns, addr, port, rcvbuf=None, timeout=None):
    """A Wind socket in namespace @ns bound to (@addr, @port)."""
    enter(ns)
    s = socket.socket(socket.AF_INET, SOCK_WIND, IPPROTO_WIND)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((addr, port))
    s.settimeout(timeout)
    enter(None)
    return s


def send_all(tx, port, msgs, err):
    """In a thread: msgs from tx to B's port, in order; an OSError goes
    to err.  Returns the thread, started."""
    def send():
        try:
            for m in msgs:
                tx.sendto(m, ("10.79.0.2", port))
        except OSError as e:
            err.append(e)

    th = threading.Thread(target=send)
    th.start()
    return th


def zero_window(t, port):
    """A sender fills a receiver that does not read (SO_RCVBUF 32 KiB)
    for 3 s, which probes its shut window; then the receiver reads."""
    rx = wind_sock(B, "10.79.0.2", port, 32768, 60)
    tx = wind_sock(A, "10.79.0.1", 7900, timeout=60)
    sent = [bytes([k]) * ZW_SIZE for k in range(ZW_MSGS)]
    err = []

    names = ("OutTimeouts", "OutCwndCuts", "PeersUnreachable")
    before = {k: wind_stat(A, k) for k in names}
    probes = wind_stat(A, "OutWinProbes")
    refused = wind_stat(B, "InErrRcvbuf")
    th = send_all(tx, port, sent, err)
    time.sleep(3)
    d = {k: wind_stat(A, k) - before[k] for k in names}
    refused = wind_stat(B, "InErrRcvbuf") - refused
    probes = wind_stat(A, "OutWinProbes") - probes
    t.check("window_probes_refused_while_receiver_full", refused > 0,
            f"InErrRcvbuf +{refused}: the window never shut")
    t.check("zero_window_probes_counted", probes > 0,
            f"OutWinProbes +{probes}")
    t.check("refused_probe_is_no_timeout_nor_cwnd_cut",
            not any(d.values()), f"{d}")
    got = []
    try:
        for _ in range(ZW_MSGS):
            got.append(rx.recv(1 << 16))
    except OSError as e:
        err.append(e)
    th.join()
    t.check("every_message_arrives_exact_after_zero_window",
            got == sent and not err,
            f"{len(got)} of {ZW_MSGS}, first bytes "
            f"{[m[0] for m in got][:ZW_MSGS]}; errors {err}")
    tx.close()
    rx.close()


def wait_for(cond, what, limit=30):
    end = time.time() + limit
    while not cond():
        if time.time() > end:
            raise TimeoutError(what)
        time.sleep(0.02)


def refused_in_flight(t, port):
    """C fills B's buffer (SO_RCVBUF 32 KiB, not read) and holds its claim;
    new D's first packets are refused; then B reads everything."""
    run("ip", "netns", "exec", A, "sysctl", "-qw", "net.wind.rto_min_ms=1000")
    rx = wind_sock(B, "10.79.0.2", port, 32768, 30)
    c = wind_sock(A, "10.79.0.1", 7903)
    d = wind_sock(A, "10.79.0.1", 7904)
    cmsgs = [bytes([0xc0 + k]) * RF_SIZE for k in range(2)]
    dmsg = os.urandom(RF_D_SIZE)
    names = ("OutTimeouts", "OutCwndCuts", "OutProbes")
    before = {k: wind_stat(A, k) for k in names}
    rtx = wind_stat(A, "OutRetransmits")
    for m in cmsgs:
        c.sendto(m, ("10.79.0.2", port))
    # the first message whole, the second claimed up to the bound and
    # stopped there: B holds more than SO_RCVBUF and reads nothing
    def settled():
        q = rx_queue(B, port)
        time.sleep(0.2)
        return q > 98000 and rx_queue(B, port) == q
    wait_for(settled, "C never filled B's buffer")
    refused = wind_stat(B, "InErrRcvbuf")
    d.sendto(dmsg, ("10.79.0.2", port))
    wait_for(lambda: wind_stat(B, "InErrRcvbuf") - refused >= 4,
             "D's first packets were not refused")
    got = []
    err = []
    try:
        while len(got) < 3:
            data, src = rx.recvfrom(1 << 16)
            got.append((src[1], data))
    except OSError as e:
        err.append(e)
    d_got = [m for p, m in got if p == 7904]
    c_got = [m for p, m in got if p == 7903]
    t.check("refused_first_flight_arrives_exact_after_window_opens",
            d_got == [dmsg] and c_got == cmsgs and not err,
            f"D {len(d_got)}, C {len(c_got)} of 2; errors {err}")
    d_ = {k: wind_stat(A, k) - before[k] for k in names}
    t.check("refusal_acked_resent_without_timeout_or_probe",
            not any(d_.values()) and wind_stat(A, "OutRetransmits") > rtx,
            f"{d_}, OutRetransmits +{wind_stat(A, 'OutRetransmits') - rtx}")
    for s in (c, d, rx):
        s.close()


def reads_reopen_window(t, port):
    """A's messages to B fill B's buffer (not read) before each read."""
    # a window probe due 5 s after the window shut, not 1 s: however
    # slowly the VM notices the buffer full and reads, only a read that
    # says nothing leaves the sender to its probe
    run("ip", "netns", "exec", A, "sysctl", "-qw", "net.wind.rto_max_ms=10000")
    run("ip", "netns", "exec", A, "sysctl", "-qw", "net.wind.rto_min_ms=5000")
    rx = wind_sock(B, "10.79.0.2", port, RW_RCVBUF, 60)
    tx = wind_sock(A, "10.79.0.1", 7905, timeout=60)
    sent = [bytes([0x70 + k]) * RW_SIZE for k in range(RW_MSGS)]
    err = []

    def settled():
        q = rx_queue(B, port)
        time.sleep(0.2)
        # SO_RCVBUF doubled, three quarters of it: a message and more
        return q > RW_RCVBUF * 3 // 2 and rx_queue(B, port) == q

    # a packet per skb, as at the bench's 1 % loss: each costs the
    # buffer the same, and each read finds the buffer as the last did
    run("ip", "-n", A, "link", "set", "dev", "eth0", "gso_max_segs", "1")
    probes = wind_stat(A, "OutWinProbes")
    th = send_all(tx, port, sent, err)
    got = []
    try:
        for k in range(RW_MSGS):
            # the buffer full first (before the last message: all in)
            if k < RW_MSGS - 1:
                wait_for(settled, f"B's buffer never filled before read {k}")
            got.append(rx.recv(1 << 17))
    except (OSError, TimeoutError) as e:
        err.append(e)
    th.join()
    probes = wind_stat(A, "OutWinProbes") - probes
    run("ip", "-n", A, "link", "set", "dev", "eth0", "gso_max_segs", "65535")
    t.check("every_read_reopens_a_shut_window_without_a_probe",
            probes == 0 and got == sent and not err,
            f"OutWinProbes +{probes}; {len(got)} of {RW_MSGS} exact "
            f"{got == sent}; errors {err}")
    tx.close()
    rx.close()


def main():
    t = Ktap(15)
    try:
        setup()
        before, after = incast(t, 7700, None)
        top = tcp_rmem_max(B)
        t.check("default_buffer_grew_up_to_tcp_rmem_max",
                before < after <= max(top, before),
                f"SO_RCVBUF {before} -> {after}, tcp_rmem[2] {top}")
        before, after = incast(t, 7701, 106496)
        t.check("set_buffer_kept_its_size", before == after == 2 * 106496,
                f"SO_RCVBUF {before} -> {after}")
        zero_window(t, 7702)
        refused_in_flight(t, 7703)
        reads_reopen_window(t, 7704)
    finally:
        teardown()
    return 1 if t.failed else 0


if __name__ == "__main__":
    main_as_root(main)
