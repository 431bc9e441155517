#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A Wind sender against a receiver scripted packet by packet: B's kernel
never sees A's packets (nftables drops IP protocol 253 at B's input); a
packet socket reads them off B's interface and a raw socket answers with
ACKs built here, as a receiver would send them at moments no timing of a
real one could be relied on to produce.

refused_then_covered (wind(7), "Receive buffer"): the receiver refuses
the packet it expects next for want of room (WIND_ACK_REFUSED, window 0)
while it holds the three that followed (its reader made room in
between).  The sender takes back what it had in flight and, the window
shut, probes with the refused packet only.  The receiver takes it and
acknowledges all four at once: an ACK past everything the sender sent
since the refusal, not past what it ever sent.  A sender that took that
ACK for one of data never sent ignored every ACK from then on, probed
until it gave the peer up, and lost the messages (a stall wind_mem.py
met once in CI: a reader reading while the sender met net.wind.mem).

Then an ACK of a seq never sent: counted (InErrAck) and ignored, the
message it claimed to cover sent again.

reneged_sacks_resent (wind(7), "Reliability"): the receiver reports the
three packets after a hole, then, short of memory, drops them and says
so by reporting them no more once the hole's resend is in.  The sender
resends the three without waiting for its retransmission timeout (1 s
here: RACK, or at worst its tail loss probe), and the sync send
completes.

runs_split_where_acks_end (wind.rst, "Segmentation offload"): a message
of eight packets (the window a new peer gets) is one skb on A's write
queue.  The receiver acknowledges its first two (the ACK ends inside the
run) and reports the fifth and sixth (a selective report inside it):
the sender resends the third and fourth, and never the two acknowledged
or the two reported; once all is acknowledged the sync send returns.

refusals_reported_once (wind(7), "Errors"): the receiver refuses one of
two async messages (a wind_nak in the ACK that covers both): the sender
queues one report on its error queue, with that message's id, and none
for the ACK that repeats the refusal nor for a refusal of a seq it
never sent.

refusal_after_its_head_was_acked (wind(7), "Errors"): a receiver judges a
message when all of it is in, so the ACK that refuses it may come after
one that took its first packet alone (the first packet resent after a
CHALLENGE, or a later one lost).  The sync send still fails with the
receiver's error, and an async message's refusal is still reported,
once.
"""
import errno
import os
import select
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from windtest import (SOL_WIND, Ktap, enter, inet_csum,  # noqa: E402
                      main_as_root, netns_del, run, veth_netns,
                      wind_socket, wind_stat)

A, B = "wsA", "wsB"
ADDR_A, ADDR_B, PORT_A, PORT_B = "10.83.0.1", "10.83.0.2", 7920, 7921
MSG_WIND_SYNC = 0x800000
WIND_RECVERR, WIND_CMSG_MSGID, SO_EE_ORIGIN_WIND, IP_RECVERR = 2, 2, 6, 11
PKT_DATA, PKT_ACK = 1, 2
F_ACKREQ, F_SYN = 0x01, 0x10
ACK_REFUSED = 0x0001
TAG_B, ISN_B = 0x5c1e7ed0, 0x10000
HDR = struct.Struct("!HHHHBBHIIIII")    # struct windhdr
ETH_P_IP = 0x0800


class ScriptedB:
    """B's side: what A sends, read off the wire, and ACKs to it."""

    def __init__(self, port_a=PORT_A, port_b=PORT_B):
        self.port_a, self.port_b = port_a, port_b
        enter(B)
        try:
            self.rx = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM,
                                    socket.htons(ETH_P_IP))
            self.rx.bind(("eth0", ETH_P_IP))
            self.tx = socket.socket(socket.AF_INET, socket.SOCK_RAW, 253)
        finally:
            enter(None)
        self.a_tag = 0
        self.nfrags = 0

    def data(self, timeout=10):
        """The next DATA packet from A: (seq, flags), or None."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.rx.settimeout(max(0.01, end - time.monotonic()))
            try:
                pkt = self.rx.recv(65536)
            except socket.timeout:
                break
            if len(pkt) < 20 or pkt[9] != 253 or \
                    socket.inet_ntoa(pkt[12:16]) != ADDR_A:
                continue
            w = pkt[(pkt[0] & 0xf) * 4:]
            (sport, dport, _, _, vt, flags, _, src_tag, _, seq, _, _) = \
                HDR.unpack_from(w)
            if vt & 0xf != PKT_DATA or \
                    (sport, dport) != (self.port_a, self.port_b):
                continue
            self.a_tag = src_tag
            self.nfrags = struct.unpack_from("!H", w, HDR.size + 2)[0]
            return seq, flags
        return None

    def ack(self, ack, window, sack=0, flags=0, naks=()):
        body = struct.pack("!QHHI", sack, len(naks), flags, 0)
        for seq, err in naks:   # struct wind_nak
            body += struct.pack("!II", seq, err)
        length = HDR.size + len(body)
        hdr = HDR.pack(self.port_b, self.port_a, length, 0,
                       1 << 4 | PKT_ACK, F_SYN, window, TAG_B, self.a_tag,
                       ISN_B, ack, ISN_B)
        pseudo = (socket.inet_aton(ADDR_B) + socket.inet_aton(ADDR_A) +
                  struct.pack("!BBH", 0, 253, length))
        c = inet_csum(pseudo + hdr + body) or 0xffff
        self.tx.sendto(hdr[:6] + struct.pack("!H", c) + hdr[8:] + body,
                       (ADDR_A, 0))

    def drain(self):
        """Forget what was read off the wire so far."""
        self.rx.setblocking(False)
        try:
            while True:
                self.rx.recv(65536)
        except BlockingIOError:
            pass
        self.rx.setblocking(True)

    def close(self):
        self.rx.close()
        self.tx.close()


def setup():
    # the first Wind socket loads the module, and net.wind with it
    wind_socket(None).close()
    veth_netns(A, B, ADDR_A, ADDR_B)
    # A's packets one by one on the wire, not one GSO skb
    run("ip", "-n", A, "link", "set", "dev", "eth0", "gso_max_segs", "1")
    run("ip", "netns", "exec", B, "nft",
        "add table ip wscr; "
        "add chain ip wscr in { type filter hook input priority 0; }; "
        "add rule ip wscr in ip protocol 253 drop")


def send_four(tx, port_b, msgs):
    """In a thread: msgs[0..2] async, then msgs[3] sync, to B's port_b.
    Returns the thread and a dict whose "sync" is what the sync send
    returned, or its errno's name."""
    result = {}

    def send():
        try:
            for i in range(3):
                tx.sendto(msgs[i], (ADDR_B, port_b))
            # the fourth waits for the peer's acknowledgment
            result["sync"] = tx.sendto(msgs[3], MSG_WIND_SYNC,
                                       (ADDR_B, port_b))
        except OSError as e:
            result["sync"] = errno.errorcode.get(e.errno, str(e))

    sender = threading.Thread(target=send)
    sender.start()
    return sender, result


def refused_then_covered(t):
    # a peer that answers nothing is given up in about 4 s; a
    # timeout 1 s away from every packet the script answers
    for kv in ("rto_min_ms=1000", "rto_max_ms=1000", "retries=3"):
        run("ip", "netns", "exec", A, "sysctl", "-qw", f"net.wind.{kv}")
    tx = wind_socket(A, PORT_A)
    b = ScriptedB()
    msgs = [bytes([i]) * 1000 for i in range(5)]
    timeouts = wind_stat(A, "OutTimeouts")
    sender, result = send_four(tx, PORT_B, msgs)
    try:
        first = [b.data() for _ in range(4)]
        seqs = [p[0] for p in first if p]
        s0 = seqs[0] if seqs else 0
        ok = seqs == [s0 + i for i in range(4)]
        # s0 refused for room; s0 + 1 .. s0 + 3 held behind it
        b.ack(s0, 0, sack=0b111, flags=ACK_REFUSED)
        probe = b.data()
        # s0 taken: the four in order, acknowledged at once
        b.ack(s0 + 4, 16)
    finally:
        sender.join(15)
    t.check("four messages, one packet each, in seq order", ok,
            f"seqs {seqs}")
    t.check("the window shut, the refused packet alone goes again",
            probe is not None and probe[0] == s0,
            f"probe {probe}, s0 {s0}")
    t.check("an ACK past the probe covers what the refusal took back: "
            "the sync send returns",
            not sender.is_alive() and result.get("sync") == len(msgs[3]),
            f"sync send: {result.get('sync', 'still blocked')}")
    try:
        tx.sendto(msgs[4], (ADDR_B, PORT_B))
        nxt = b.data()
    except OSError as e:    # the peer's failure, reported to this send
        nxt = errno.errorcode.get(e.errno, str(e))
    t.check("what the receiver had is not sent again: the next message "
            "is the next seq", isinstance(nxt, tuple) and nxt[0] == s0 + 4,
            f"next DATA {nxt}, expected seq {s0 + 4}")
    d = wind_stat(A, "OutTimeouts") - timeouts
    t.check("no retransmission timeout", d == 0, f"OutTimeouts +{d}")

    # an ACK past everything ever sent is counted and ignored: what it
    # claims to cover is still in flight, and goes again
    bogus = wind_stat(A, "InErrAck")
    b.ack(s0 + 6, 16)
    end = time.monotonic() + 10
    while wind_stat(A, "InErrAck") == bogus and time.monotonic() < end:
        time.sleep(0.02)
    counted = wind_stat(A, "InErrAck") - bogus
    b.drain()
    again = b.data()
    b.ack(s0 + 5, 16)
    t.check("an ACK of a seq never sent: InErrAck, and the message it "
            "claimed is sent again", counted == 1 and again is not None and
            again[0] == s0 + 4,
            f"InErrAck +{counted}, then DATA {again}, expected seq {s0 + 4}")
    b.close()
    tx.close()


def reneged_sacks_resent(t):
    port_a, port_b = PORT_A + 10, PORT_B + 10
    # a retransmission timeout far from anything the script takes
    for kv in ("rto_min_ms=1000", "rto_max_ms=2000", "retries=5"):
        run("ip", "netns", "exec", A, "sysctl", "-qw", f"net.wind.{kv}")
    tx = wind_socket(A, port_a)
    b = ScriptedB(port_a, port_b)
    msgs = [bytes([i]) * 1000 for i in range(4)]
    timeouts = wind_stat(A, "OutTimeouts")
    sender, result = send_four(tx, port_b, msgs)
    resent, hole = [], None
    try:
        first = [b.data() for _ in range(4)]
        seqs = [p[0] for p in first if p]
        s0 = seqs[0] if seqs else 0
        # s0 lost; the three after it held and reported
        b.ack(s0, 16, sack=0b111)
        hole = b.data()
        # s0 in, the three dropped: reported no more
        b.ack(s0 + 1, 16)
        have = {s0}
        while len(have) < 4:
            p = b.data(timeout=10)
            if p is None:
                break
            resent.append(p[0])
            if s0 < p[0] < s0 + 4:
                have.add(p[0])
            nxt = s0
            while nxt in have:
                nxt += 1
            sack = sum(1 << (q - nxt - 1) for q in have if q > nxt)
            b.ack(nxt, 16, sack=sack)
    finally:
        sender.join(15)
    t.check("reneged: the hole resent first, on the ACK that shows it",
            hole is not None and hole[0] == s0, f"resent {hole}, s0 {s0}")
    t.check("reneged: the three the receiver dropped are sent again",
            set(resent) >= {s0 + 1, s0 + 2, s0 + 3},
            f"resent {[q - s0 for q in resent]} (seq - s0)")
    t.check("reneged: the sync send returns, with no timeout",
            not sender.is_alive() and result.get("sync") == len(msgs[3]) and
            wind_stat(A, "OutTimeouts") == timeouts,
            f"sync send: {result.get('sync', 'still blocked')}, OutTimeouts "
            f"+{wind_stat(A, 'OutTimeouts') - timeouts}")
    b.close()
    tx.close()


def runs_split_where_acks_end(t):
    port_a, port_b = PORT_A + 30, PORT_B + 30
    for kv in ("rto_min_ms=1000", "rto_max_ms=2000", "retries=5"):
        run("ip", "netns", "exec", A, "sysctl", "-qw", f"net.wind.{kv}")
    tx = wind_socket(A, port_a)
    b = ScriptedB(port_a, port_b)
    timeouts = wind_stat(A, "OutTimeouts")
    result = {}

    def send():
        try:
            result["sync"] = tx.sendto(bytes(range(250)) * 44,
                                       MSG_WIND_SYNC, (ADDR_B, port_b))
        except OSError as e:
            result["sync"] = errno.errorcode.get(e.errno, str(e))

    sender = threading.Thread(target=send)
    sender.start()
    seen = []
    try:
        p = b.data()
        n = b.nfrags if p else 0
        seqs = [p[0]] if p else []
        seqs += [q[0] for q in (b.data() for _ in range(n - 1)) if q]
        s0 = seqs[0] if seqs else 0
        # the first two in; the fifth and sixth reported past a hole
        b.ack(s0 + 2, 16, sack=0b110)
        want = {s0 + 2, s0 + 3}
        while not want <= set(seen):
            q = b.data()
            if q is None:
                break
            seen.append(q[0])
        # and what left with them (a resend of the whole run would)
        while (q := b.data(timeout=0.3)) is not None:
            seen.append(q[0])
        b.ack(s0 + n, 16)
    finally:
        sender.join(15)
    t.check("an 11,000 B message: eight packets in seq order",
            n == 8 and seqs == [s0 + i for i in range(n)],
            f"nfrags {n}, seqs {[q - s0 for q in seqs]} (seq - s0)")
    rel = [q - s0 for q in seen]
    # the seventh was sent with the sixth, after the fourth: not lost (a
    # tail loss probe may resend the eighth; a timeout, checked below,
    # anything not reported)
    t.check("an ACK and a report inside the run: the third and fourth go "
            "again, none acknowledged or reported does, nor the seventh",
            {2, 3} <= set(rel) and not {0, 1, 4, 5, 6} & set(rel),
            f"resent {rel} (seq - s0)")
    t.check("the sync send returns, with no timeout",
            not sender.is_alive() and result.get("sync") == 11000 and
            wind_stat(A, "OutTimeouts") == timeouts,
            f"sync send: {result.get('sync', 'still blocked')}, OutTimeouts "
            f"+{wind_stat(A, 'OutTimeouts') - timeouts}")
    b.close()
    tx.close()


def refusals_reported_once(t):
    port_a, port_b = PORT_A + 20, PORT_B + 20
    tx = wind_socket(A, port_a)
    tx.setsockopt(SOL_WIND, WIND_RECVERR, 1)
    b = ScriptedB(port_a, port_b)
    for i, msgid in ((0, 0x11), (1, 0x22)):
        tx.sendmsg([bytes([i]) * 100],
                   [(SOL_WIND, WIND_CMSG_MSGID, struct.pack("=I", msgid))],
                   0, (ADDR_B, port_b))
    first = [b.data() for _ in range(2)]
    s0 = first[0][0] if first[0] else 0
    acks = wind_stat(A, "InAcks")
    # the second refused (EACCES); both covered by the ACK
    b.ack(s0 + 2, 16, naks=[(s0 + 1, errno.EACCES)])
    p = select.poll()
    p.register(tx, select.POLLERR)
    reports = []
    if p.poll(10000):
        reports += errqueue(tx)
    # a receiver repeats a refusal until the sender's oldest passes it;
    # and a refusal of a seq never sent
    b.ack(s0 + 2, 16, naks=[(s0 + 1, errno.EACCES)])
    b.ack(s0 + 2, 16, naks=[(s0 + 9, errno.ERANGE)])
    end = time.monotonic() + 10
    while wind_stat(A, "InAcks") < acks + 3 and time.monotonic() < end:
        time.sleep(0.02)
    reports += errqueue(tx)
    t.check("a refusal is reported once, with its message's id; repeats "
            "and refusals of seqs never sent are not",
            reports == [(errno.EACCES, SO_EE_ORIGIN_WIND, 1, 0x22)],
            f"reports (errno, origin, info, data): {reports}")
    b.close()
    tx.close()


def refusal_after_its_head_was_acked(t):
    port_a, port_b = PORT_A + 40, PORT_B + 40
    for kv in ("rto_min_ms=1000", "rto_max_ms=2000", "retries=5"):
        run("ip", "netns", "exec", A, "sysctl", "-qw", f"net.wind.{kv}")
    tx = wind_socket(A, port_a)
    tx.setsockopt(SOL_WIND, WIND_RECVERR, 1)
    b = ScriptedB(port_a, port_b)
    result = {}

    def send():
        try:
            result["sync"] = tx.sendto(b"s" * 3000, MSG_WIND_SYNC,
                                       (ADDR_B, port_b))
        except OSError as e:
            result["sync"] = errno.errorcode.get(e.errno, str(e))

    sender = threading.Thread(target=send)
    sender.start()
    seqs, n = [], 0
    try:
        p = b.data()
        n = b.nfrags if p else 0
        seqs = [p[0]] if p else []
        seqs += [q[0] for q in (b.data() for _ in range(n - 1)) if q]
        s0 = seqs[0] if seqs else 0
        # the first packet taken alone; then all, the message refused
        b.ack(s0 + 1, 16)
        time.sleep(0.05)
        b.ack(s0 + n, 16, naks=[(s0, errno.EACCES)])
    finally:
        sender.join(15)
    t.check("a 3,000 B sync message: three packets in seq order",
            n == 3 and seqs == [s0 + i for i in range(n)],
            f"nfrags {n}, seqs {[q - s0 for q in seqs]} (seq - s0)")
    t.check("refused after its first packet was acknowledged: the sync "
            "send fails with the receiver's error",
            not sender.is_alive() and result.get("sync") == "EACCES",
            f"sync send: {result.get('sync', 'still blocked')}")

    # the same for an async message: one report, with its id
    s1 = s0 + n
    tx.sendmsg([b"a" * 3000],
               [(SOL_WIND, WIND_CMSG_MSGID, struct.pack("=I", 0x33))],
               0, (ADDR_B, port_b))
    got = []
    while len(got) < 3:
        q = b.data()
        if q is None:
            break
        if (q[0] - s1) % (1 << 32) < 1 << 31:   # not a resend of s0..
            got.append(q)
    acks = wind_stat(A, "InAcks")
    b.ack(s1 + 1, 16)
    b.ack(s1 + 3, 16, naks=[(s1, errno.ERANGE)])
    b.ack(s1 + 3, 16, naks=[(s1, errno.ERANGE)])
    end = time.monotonic() + 10
    while wind_stat(A, "InAcks") < acks + 3 and time.monotonic() < end:
        time.sleep(0.02)
    reports = errqueue(tx)
    t.check("an async message refused after its first packet was "
            "acknowledged is reported once, with its id",
            [q[0] for q in got] == [s1, s1 + 1, s1 + 2] and
            reports == [(errno.ERANGE, SO_EE_ORIGIN_WIND, 1, 0x33)],
            f"seqs {[q[0] - s1 for q in got]}, reports {reports}")
    b.close()
    tx.close()


def errqueue(s):
    """What the error queue holds now: (errno, origin, info, data) each."""
    out = []
    timeout = s.gettimeout()
    s.settimeout(0)     # a timeout would wait for data, not for errors
    while True:
        try:
            _, anc, _, _ = s.recvmsg(0, 512, socket.MSG_ERRQUEUE)
        except BlockingIOError:
            s.settimeout(timeout)
            return out
        for lvl, typ, data in anc:
            if (lvl, typ) == (socket.IPPROTO_IP, IP_RECVERR):
                e, origin, _, _, _, info, d = struct.unpack_from("=IBBBBII",
                                                                 data)
                out.append((e, origin, info, d))


def main():
    t = Ktap(16)
    try:
        setup()
        refused_then_covered(t)
        reneged_sacks_resent(t)
        runs_split_where_acks_end(t)
        refusals_reported_once(t)
        refusal_after_its_head_was_acked(t)
    finally:
        netns_del(A, B)
    return 1 if t.failed else 0


if __name__ == "__main__":
    main_as_root(main)
