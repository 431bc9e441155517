#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""IPv6 (wind(7), "IPv6"): socket(AF_INET6, SOCK_WIND, 0) between two
namespaces through a router, A = fd77:1::1 -- R -- B = fd77:2::1 (and
10.77.1.1, 10.77.2.1 for the dual-stack cases): the three message types
exact and in order, large messages, loss, duplication and reordering on
the hop, a dual-stack socket talking to an AF_INET one through v4-mapped
addresses, IPV6_V6ONLY, the shared port space, connect(), ICMPv6 port
unreachable and packet too big, the error queue's sockaddr_in6 offender
and WIND_PEER_INFO by sockaddr_in6.  All of it twice: raw, then inside
UDP (net.wind.encap=1 on both ends, and a router that drops IP protocol
253, as a cloud's security group does, so that nothing passes raw)."""
import ctypes
import errno
import os
import select
import socket
import struct
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from windtest import (SOCK_WIND, SOL_WIND, Ktap, enter,  # noqa: E402
                      inet_csum, libc, run, wind_stat as stat)

MSG_WIND_RELIABLE, MSG_WIND_SYNC = 0x400000, 0x800000
UDPHDR = 0        # 8 inside UDP: what the UDP header takes of each packet
WIND_RECVERR, WIND_PEER_INFO = 2, 5
A, R, B, M = "w6A", "w6R", "w6B", "w6M"   # M: an off-path host
M6 = "fd77:3::1"
A6, B6 = "fd77:1::1", "fd77:2::1"
A4, B4 = "10.77.1.1", "10.77.2.1"


def sh(cmd):
    try:
        return run("sh", "-c", cmd)
    except Exception as e:
        raise RuntimeError(f"{cmd}: {getattr(e, 'stderr', e)}") from e


def teardown():
    for ns in (A, R, B, M):
        run("sh", "-c", f"ip netns del {ns} 2>/dev/null; true")


def setup(encap):
    teardown()
    for ns in (A, R, B):
        sh(f"ip netns add {ns} && ip -n {ns} link set lo up")
    sh(f"ip -n {R} link add ra type veth peer name eth0 netns {A}")
    sh(f"ip -n {R} link add rb type veth peer name eth0 netns {B}")
    for ns, a6, a4, r6, r4, dev in ((A, A6, A4, "fd77:1::2", "10.77.1.2", "ra"),
                                    (B, B6, B4, "fd77:2::2", "10.77.2.2", "rb")):
        sh(f"ip -n {ns} addr add {a6}/64 dev eth0 nodad")
        sh(f"ip -n {ns} addr add {a4}/24 dev eth0")
        sh(f"ip -n {ns} link set eth0 up")
        sh(f"ip -n {ns} -6 route add default via {r6}")
        sh(f"ip -n {ns} route add default via {r4}")
        sh(f"ip -n {R} addr add {r6}/64 dev {dev} nodad")
        sh(f"ip -n {R} addr add {r4}/24 dev {dev}")
        sh(f"ip -n {R} link set {dev} up")
        # the default retry budget: the path MTU drop's hop drops what
        # is in flight until the sender hears of it (a debug kernel is
        # slow), and nothing here waits for a peer to time out
        sh(f"ip netns exec {ns} sysctl -qw net.wind.encap={encap}")
    if encap:
        sh(f"ip netns exec {R} nft add table inet w6")
        sh(f"ip netns exec {R} nft 'add chain inet w6 relay "
           f"{{ type filter hook forward priority 0; }}'")
        sh(f"ip netns exec {R} nft add rule inet w6 relay meta l4proto 253 "
           f"counter drop")
    # M hangs off R: it sees none of A's and B's traffic
    sh(f"ip netns add {M} && ip -n {M} link set lo up")
    sh(f"ip -n {R} link add rm type veth peer name eth0 netns {M}")
    sh(f"ip -n {M} addr add {M6}/64 dev eth0 nodad && ip -n {M} link set eth0 up")
    sh(f"ip -n {M} -6 route add default via fd77:3::2")
    sh(f"ip -n {R} addr add fd77:3::2/64 dev rm nodad && ip -n {R} link set rm up")
    sh(f"ip netns exec {R} sysctl -qw net.ipv6.conf.all.forwarding=1")
    sh(f"ip netns exec {R} sysctl -qw net.ipv4.ip_forward=1")
    # neighbour discovery settled before the first packet
    sh(f"ip netns exec {A} ping -6 -c1 -W5 {B6} >/dev/null")
    sh(f"ip netns exec {A} ping -c1 -W5 {B4} >/dev/null")


def sock(ns, family=socket.AF_INET6, port=0, addr=None, v6only=None):
    enter(ns)
    try:
        s = socket.socket(family, SOCK_WIND, 0)
        if v6only is not None:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, v6only)
        s.bind((addr or ("::" if family == socket.AF_INET6 else "0.0.0.0"),
                port))
        s.settimeout(30)
        return s
    finally:
        enter(None)


def recv_n(s, n):
    return [s.recvfrom(1 << 20) for _ in range(n)]


def peer_info(s, addr, port):
    """WIND_PEER_INFO for the IPv6 peer addr:port: (errno, mss, family)."""
    sa = struct.pack("!HH", socket.AF_INET6, port)
    sa = struct.pack("=H", socket.AF_INET6) + sa[2:] + b"\0" * 4 + \
        socket.inet_pton(socket.AF_INET6, addr) + b"\0" * 4
    # Python's getsockopt() passes no input: through libc
    buf = ctypes.create_string_buffer(sa + b"\0" * (512 - len(sa)), 512)
    n = ctypes.c_uint(512)
    if libc.getsockopt(s.fileno(), SOL_WIND, WIND_PEER_INFO, buf,
                       ctypes.byref(n)) != 0:
        return ctypes.get_errno(), 0, 0
    out = buf.raw[:n.value]
    fam = struct.unpack_from("=H", out, 0)[0]
    # wpi_version, wpi_size, wpi_state, retries, srtt, rttvar, rto, mss
    mss = struct.unpack_from("=8I", out, 128)[7]
    return 0, mss, fam


def main():
    t = Ktap(36)
    enter(None)
    try:
        mods = run("modinfo", "-F", "alias", "wind").stdout.split()
    except Exception:
        mods = []
    # socket(AF_INET6, SOCK_WIND, 0) loads the module if it is not yet
    was = os.path.isdir("/sys/module/wind")
    try:
        socket.socket(socket.AF_INET6, SOCK_WIND, 0).close()
        made = True
    except OSError as e:
        made = e
    t.check("socket_af_inet6_autoloads_wind",
            made is True and os.path.isdir("/sys/module/wind") and
            "net-pf-10-proto-0-type-7" in mods and
            "net-pf-10-proto-253-type-7" in mods,
            f"loaded before: {was}; socket: {made}; aliases {mods}")
    global UDPHDR
    for encap in (0, 1):
        setup(encap)
        UDPHDR = 8 * encap
        try:
            run_tests(Suffix(t, "_udp" if encap else ""))
            if encap:
                d = sh(f"ip netns exec {R} nft list chain inet w6 relay").stdout
                print("# router: " + " ".join(d.split()))
        finally:
            teardown()
    print(f"# {t.i - t.failed} passed; {t.failed} failed")
    return 1 if t.failed else 0


class Suffix:
    """The KTAP output of a pass, each test's name suffixed."""
    def __init__(self, t, suffix):
        self.t, self.suffix = t, suffix

    def check(self, name, cond, diag=""):
        self.t.check(name + self.suffix, cond, diag)


def run_tests(t):
    rx = sock(B, port=7600)
    tx = sock(A, port=7601)
    t.check("getsockname_is_sockaddr_in6",
            rx.getsockname()[:2] == ("::", 7600) and
            rx.family == socket.AF_INET6, f"{rx.getsockname()}")

    # /proc/net/wind6 lists the AF_INET6 sockets, /proc/net/wind not
    p6 = sh(f"ip netns exec {B} cat /proc/net/wind6").stdout
    p4 = sh(f"ip netns exec {B} cat /proc/net/wind").stdout
    t.check("proc_net_wind6_lists_ipv6_sockets",
            f"{'0' * 32}:{7600:04X} " in p6 and
            f":{7600:04X} " not in p4, f"wind6:\n{p6}wind:\n{p4}")

    # 1: every type, sizes from 0 to 64 KiB, exact and in order
    sizes = [0, 1, 100, 1232, 1233, 5000, 65536, 30000, 7, 65000]
    msgs = [os.urandom(n) for n in sizes]
    gso0 = stat(A, "OutGsoPackets"), stat(B, "InGsoPackets")
    for i, m in enumerate(msgs):
        tx.sendto(m, MSG_WIND_SYNC if i == len(msgs) - 1 else 0, (B6, 7600))
    got = recv_n(rx, len(msgs))
    t.check("async_and_sync_ordered_exact_in_order_from_sockaddr_in6",
            [d for d, _ in got] == msgs and
            all(a[:2] == (A6, 7601) for _, a in got),
            f"got {[len(d) for d, _ in got]} from {set(a for _, a in got)}")
    # the runs of a large message cross the stack as GSO skbs, through
    # the router too (its veths pass them whole)
    gso = stat(A, "OutGsoPackets") - gso0[0], stat(B, "InGsoPackets") - gso0[1]
    t.check("large_messages_leave_and_arrive_as_gso_skbs",
            gso[0] > 0 and gso[1] > 0, f"out {gso[0]}, in {gso[1]}")
    # a hop that must cut them (gso_max_segs 1, no checksum offload):
    # wind_gso_segment() over IPv6 gives every packet its header and sum
    sh(f"ip -n {R} link set dev rb gso_max_segs 1")
    sh(f"ip netns exec {R} ethtool -K rb tx off >/dev/null")
    gso0 = stat(A, "OutGsoPackets"), stat(B, "InGsoPackets")
    cut = [os.urandom(n) for n in (65536, 20000, 65000)]
    for i, m in enumerate(cut):
        tx.sendto(m, MSG_WIND_SYNC if i == len(cut) - 1 else 0, (B6, 7600))
    got = recv_n(rx, len(cut))
    gso = stat(A, "OutGsoPackets") - gso0[0], stat(B, "InGsoPackets") - gso0[1]
    sh(f"ip -n {R} link set dev rb gso_max_segs 65535")
    sh(f"ip netns exec {R} ethtool -K rb tx on >/dev/null")
    t.check("gso_skbs_cut_by_a_hop_arrive_exact",
            [d for d, _ in got] == cut and gso[0] > 0 and gso[1] == 0,
            f"got {[len(d) for d, _ in got]}; gso out {gso[0]}, in {gso[1]}")
    rel = [os.urandom(3000 + i) for i in range(20)]
    for m in rel:
        tx.sendto(m, MSG_WIND_RELIABLE, (B6, 7600))
    got = recv_n(rx, len(rel))
    t.check("async_reliable_every_message_exact",
            sorted(d for d, _ in got) == sorted(rel),
            f"got {len(got)}")

    # 2: replies go back over IPv6 to the address recvfrom gave
    rx.sendto(b"pong", got[0][1])
    d, a = tx.recvfrom(100)
    t.check("reply_to_recvfrom_address", d == b"pong" and a[:2] == (B6, 7600),
            f"{d} {a}")

    # 3: loss, duplication and reordering on the hop
    sh(f"ip netns exec {R} tc qdisc add dev rb root netem loss 5% "
       f"duplicate 2% delay 2ms reorder 25% 50%")
    rtx0 = stat(A, "OutRetransmits")
    msgs = [os.urandom(200 + 37 * i) for i in range(150)] + [os.urandom(40000)]
    sender = threading.Thread(target=lambda: [tx.sendto(m, (B6, 7600))
                                              for m in msgs])
    sender.start()
    got = recv_n(rx, len(msgs))
    sender.join()
    sh(f"ip netns exec {R} tc qdisc del dev rb root")
    t.check("netem_loss_dup_reorder_exact_in_order",
            [d for d, _ in got] == msgs and stat(A, "OutRetransmits") > rtx0,
            f"got {len(got)}, retransmits {stat(A, 'OutRetransmits') - rtx0}")

    # 4: dual stack: an AF_INET socket and the AF_INET6 one, v4-mapped
    tx4 = sock(A, socket.AF_INET, 7602)
    tx4.sendto(b"from v4", (B4, 7600))
    d, a = rx.recvfrom(100)
    rx.sendto(b"to v4", a)
    d4, a4 = tx4.recvfrom(100)
    t.check("dual_stack_ipv4_peer_is_v4_mapped",
            d == b"from v4" and a[:2] == ("::ffff:" + A4, 7602) and
            d4 == b"to v4" and a4 == (B4, 7600), f"{d} {a} {d4} {a4}")

    # 5: IPV6_V6ONLY: no IPv4 either way
    only = sock(B, port=7603, v6only=1)
    try:
        only.sendto(b"x", ("::ffff:" + A4, 7602))
        e = 0
    except OSError as ex:
        e = ex.errno
    try:
        tx4.sendto(b"x", MSG_WIND_SYNC, (B4, 7603))
        e4 = 0
    except OSError as ex:
        e4 = ex.errno
    t.check("v6only_refuses_ipv4_both_ways",
            e == errno.ENETUNREACH and e4 == errno.ECONNREFUSED,
            f"send to v4-mapped: errno {e}; IPv4 to it: errno {e4}")

    # 6: one port space: [::]:p takes the IPv4 port too, unless v6only
    errs = []
    for v6only, addr in ((0, None), (1, None), (0, B6)):
        s6 = sock(B, port=7610, addr=addr, v6only=v6only)
        try:
            s4 = sock(B, socket.AF_INET, 7610)
            s4.close()
            errs.append(0)
        except OSError as ex:
            errs.append(ex.errno)
        s6.close()
    try:
        sock(B, port=7600).close()
        errs.append(0)
    except OSError as ex:
        errs.append(ex.errno)
    t.check("port_space_shared_with_ipv4_like_udp_sockets",
            errs == [errno.EADDRINUSE, 0, 0, errno.EADDRINUSE],
            f"[::] v4 any, v6only, [B6], [::] again: {errs}")

    # 7: connect(): send and getpeername without an address
    c = sock(A)
    c.connect((B6, 7600))
    c.send(b"connected", MSG_WIND_SYNC)
    d, a = rx.recvfrom(100)
    t.check("connect_send_getpeername",
            d == b"connected" and c.getpeername()[:2] == (B6, 7600) and
            a[:2] == (A6, c.getsockname()[1]), f"{d} {a} {c.getpeername()}")
    c.close()

    # 8: ICMPv6 port unreachable fails a sync send; an async one's
    # failure goes to the error queue, the peer named as a sockaddr_in6
    e = sock(A)
    try:
        e.sendto(b"nobody", MSG_WIND_SYNC, (B6, 7999))
        unreach = 0
    except OSError as ex:
        unreach = ex.errno
    e.close()
    e = sock(A)
    e.setsockopt(SOL_WIND, WIND_RECVERR, 1)
    e.sendto(b"nobody", (B6, 7998))
    off, lvl, ee_errno = "nothing queued in 10 s", None, 0
    p = select.poll()
    p.register(e, select.POLLERR)
    if p.poll(10000):
        try:
            _, anc, _, off = e.recvmsg(100, 512,
                                       socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
            lvl = anc[0][:2] if anc else None
            ee_errno = struct.unpack_from("=I", anc[0][2], 0)[0] if anc else 0
        except OSError as ex:
            off = f"errno {ex.errno}"
    t.check("icmpv6_port_unreachable_is_econnrefused",
            unreach == errno.ECONNREFUSED, f"errno {unreach}")
    t.check("error_queue_offender_is_sockaddr_in6",
            isinstance(off, tuple) and off[:2] == (B6, 7998) and
            lvl == (socket.IPPROTO_IPV6, 25) and
            ee_errno == errno.ECONNREFUSED,
            f"offender {off} cmsg {lvl} ee_errno {ee_errno}")
    e.close()

    # 9: WIND_PEER_INFO by sockaddr_in6
    err, mss, fam = peer_info(tx, B6, 7600)
    err2 = peer_info(tx, B6, 7999)[0]
    t.check("peer_info_by_sockaddr_in6",
            err == 0 and fam == socket.AF_INET6 and
            mss == 1500 - 40 - UDPHDR - 40 and err2 == errno.ENOENT,
            f"errno {err} mss {mss} family {fam}; unknown peer errno {err2}")

    # 10: the path MTU drops mid-stream (ICMPv6 packet too big): the
    # sender re-segments, nothing is lost or stalls
    big = [os.urandom(60000) for _ in range(12)]
    sent = []

    def send():
        try:
            for i, m in enumerate(big):
                tx.sendto(m, (B6, 7600))
                if i == 3:
                    sh(f"ip -n {R} link set rb mtu 1280")
            tx.sendto(b"end", MSG_WIND_SYNC, (B6, 7600))
            sent.append("all")
        except OSError as ex:
            sent.append(str(ex))

    ptb0 = icmp6_in(A, "Icmp6InPktTooBigs")
    sender = threading.Thread(target=send)
    sender.start()
    try:
        got = recv_n(rx, len(big) + 1)
    except OSError as ex:
        got = [(str(ex).encode(), None)]
    sender.join()
    err, mss, _ = peer_info(tx, B6, 7600)
    sh(f"ip -n {R} link set rb mtu 1500")
    t.check("path_mtu_drop_icmpv6_packet_too_big_resegments",
            [d for d, _ in got] == big + [b"end"] and sent == ["all"] and
            icmp6_in(A, "Icmp6InPktTooBigs") > ptb0 and
            mss == 1280 - 40 - UDPHDR - 40,
            f"sender {sent} got {[len(d) for d, _ in got]} mss {mss} "
            f"too big {icmp6_in(A, 'Icmp6InPktTooBigs') - ptb0}")

    # 11: an off-path host (raw: the UDP pass's router drops it anyway)
    if not UDPHDR:
        attacks(t, tx, rx)

    # 12: IPv4 traffic on the same sockets still works after all this
    tx4.sendto(b"still v4", MSG_WIND_SYNC, (B4, 7600))
    d, a = rx.recvfrom(100)
    t.check("ipv4_beside_ipv6_on_one_socket",
            d == b"still v4" and a[:2] == ("::ffff:" + A4, 7602), f"{d} {a}")
    for s in (rx, tx, tx4, only):
        s.close()


def ip6(src, dst, nh, payload, check_at=None):
    """An IPv6 packet from src to dst; the upper-layer checksum at
    check_at in payload filled in over the pseudo-header."""
    s6, d6 = (socket.inet_pton(socket.AF_INET6, a) for a in (src, dst))
    if check_at is not None:
        pseudo = s6 + d6 + struct.pack("!I3xB", len(payload), nh)
        c = inet_csum(pseudo + payload) or 0xffff
        payload = payload[:check_at] + struct.pack("!H", c) + \
            payload[check_at + 2:]
    return struct.pack("!IHBB", 6 << 28, len(payload), nh, 64) + s6 + d6 + \
        payload


def windpkt(sport, dport, ptype, src_tag, dst_tag, seq=0, body=b""):
    """A Wind packet (checksum 0: ip6() fills it at offset 6)."""
    hdr = struct.pack("!HHHHBBHIIIII", sport, dport, 32 + len(body), 0,
                      1 << 4 | ptype, 0, 256, src_tag, dst_tag, seq, 0, seq)
    return hdr + body


def forge(pkt, dst):
    """Send a whole IPv6 packet from M (IPPROTO_RAW: header included)."""
    enter(M)
    try:
        r = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
        r.sendto(pkt, (dst, 0))
        r.close()
    finally:
        enter(None)


def attacks(t, tx, rx):
    """An off-path host that knows A's and B's addresses and ports, not
    their tags, forges packets between them: nothing it sends resets
    the association, injects a message or fails a peer."""
    port_a, port_b = tx.getsockname()[1], 7600
    tx.sendto(b"before", MSG_WIND_SYNC, (B6, port_b))
    rx.recvfrom(100)
    tag0, reset0 = stat(B, "InErrTag"), stat(B, "PeersReset")
    taga0 = stat(A, "InErrTag")
    rnd = struct.unpack("!8I", os.urandom(32))
    # RESET and CHALLENGE with guessed tags, DATA with a forged payload
    for i in range(4):
        forge(ip6(A6, B6, 253, windpkt(port_a, port_b, 3, rnd[i] | 1,
                                       rnd[i + 4] | 1), 6), B6)
    forge(ip6(A6, B6, 253, windpkt(port_a, port_b, 4, rnd[0] | 1,
                                   rnd[1] | 1), 6), B6)
    body = struct.pack("!HHI", 0, 1, 4) + b"evil"
    for seq in range(8):
        forge(ip6(A6, B6, 253, windpkt(port_a, port_b, 1, rnd[2] | 1,
                                       rnd[3] | 1, rnd[5] + seq, body), 6), B6)
    # ICMPv6 port unreachable to A quoting a packet A "sent" to B
    quote = ip6(A6, B6, 253, windpkt(port_a, port_b, 1, rnd[6] | 1,
                                     rnd[7] | 1, rnd[4], body), 6)
    icmp = struct.pack("!BBHI", 1, 4, 0, 0) + quote
    forge(ip6("fd77:2::2", A6, 58, icmp, 2), A6)
    tagged = stat_wait(B, "InErrTag", tag0 + 13)
    taga = stat_wait(A, "InErrTag", taga0 + 1)
    tx.sendto(b"after", MSG_WIND_SYNC, (B6, port_b))
    d, a = rx.recvfrom(100)
    t.check("off_path_forged_reset_data_icmpv6_change_nothing",
            d == b"after" and a[:2] == (A6, port_a) and
            stat(B, "PeersReset") == reset0 and tagged >= tag0 + 13 and
            taga >= taga0 + 1,
            f"next message {d} from {a}; PeersReset "
            f"{stat(B, 'PeersReset') - reset0}; InErrTag B {tagged - tag0} "
            f"A {taga - taga0}")


def stat_wait(ns, name, target):
    for _ in range(100):
        v = stat(ns, name)
        if v >= target:
            return v
        select.select([], [], [], 0.05)
    return v


def icmp6_in(ns, name):
    out = sh(f"ip netns exec {ns} cat /proc/net/snmp6").stdout
    for line in out.splitlines():
        k, v = line.split()
        if k == name:
            return int(v)
    return -1


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("TAP version 13\n1..0 # SKIP must be root")
        sys.exit(4)
    sys.exit(main())
