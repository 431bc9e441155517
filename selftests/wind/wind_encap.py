#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDP encapsulation (wind(7) WIND_ENCAP, net.wind.udp_port): through a
router namespace, what goes on the wire (captured on the router), what
arrives (exact bytes, order), a router that drops IP protocol 253 as a
cloud security group does, per-peer UDP source ports, errors carried
back through UDP (port unreachable, path MTU), and hostile datagrams to
the UDP port (dropped and counted, or, well formed, delivered); and a
hop that spreads flows over two paths by their ports (ECMP): raw, every
peer on one path; inside UDP, spread, each peer in order on its own."""
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
                      run, wind_socket, wind_stat as stat)

WIND_ENCAP, ENCAP_RAW, ENCAP_UDP = 6, 0, 1
SO_RCVBUFFORCE = 33
MSG_WIND_SYNC = 0x800000
UDP_PORT = 9253
A, R, B = "encA", "encR", "encB"
A_IP, B_IP = "10.77.1.1", "10.77.2.1"
ETH_P_ALL = 0x0003


def sh(cmd):
    try:
        return run("sh", "-c", cmd)
    except Exception as e:
        raise RuntimeError(f"{cmd}: {getattr(e, 'stderr', e)}") from e


def setup():
    teardown()
    # the first Wind socket loads the module (net-pf-2-proto-253-type-7)
    wind_socket(None).close()
    for ns in (A, R, B):
        sh(f"ip netns add {ns}")
        sh(f"ip -n {ns} link set lo up")
    sh(f"ip -n {R} link add ra type veth peer name eth0 netns {A}")
    sh(f"ip -n {R} link add rb type veth peer name eth0 netns {B}")
    sh(f"ip -n {A} addr add {A_IP}/24 dev eth0 && ip -n {A} link set eth0 up")
    sh(f"ip -n {B} addr add {B_IP}/24 dev eth0 && ip -n {B} link set eth0 up")
    sh(f"ip -n {R} addr add 10.77.1.2/24 dev ra && ip -n {R} link set ra up")
    sh(f"ip -n {R} addr add 10.77.2.2/24 dev rb && ip -n {R} link set rb up")
    sh(f"ip -n {A} route add default via 10.77.1.2")
    sh(f"ip -n {B} route add default via 10.77.2.2")
    sh(f"ip netns exec {R} sysctl -qw net.ipv4.ip_forward=1")
    for ns in (A, B):
        # a lost peer fails in well under a second
        for k, v in (("rto_min_ms", 20), ("rto_max_ms", 100), ("retries", 3)):
            sh(f"ip netns exec {ns} sysctl -qw net.wind.{k}={v}")
    for ns in (A, B):
        sh(f"ip netns exec {ns} ping -c1 -W5 -q "
           f"{B_IP if ns == A else A_IP} >/dev/null")


def teardown():
    for ns in (A, R, B):
        subprocess_quiet(f"ip netns del {ns}")


def subprocess_quiet(cmd):
    os.system(cmd + " 2>/dev/null")


def sysctl(ns, name):
    return int(sh(f"ip netns exec {ns} cat /proc/sys/net/wind/{name}")
               .stdout)


def wind_stats(ns):
    return sh(f"ip netns exec {ns} cat /proc/net/wind_stat").stdout \
        .replace("\n", " ")


def encap(s, val=ENCAP_UDP):
    s.setsockopt(SOL_WIND, WIND_ENCAP, val)


class Capture:
    """Every IPv4 frame crossing dev in namespace ns, parsed when read."""

    def __init__(self, ns, dev):
        enter(ns)
        try:
            self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                   socket.htons(ETH_P_ALL))
            self.s.bind((dev, 0))
        finally:
            enter(None)
        self.s.setblocking(False)

    def packets(self):
        """[(proto, saddr, daddr, sport, dport, wind_sport, wind_dport)]:
        sport/dport are the UDP ports (None when raw), wind_* the Wind
        header's."""
        out = []
        while select.select([self.s], [], [], 0.2)[0]:
            frame = self.s.recv(65536)
            if len(frame) < 34 or frame[12:14] != b"\x08\x00":
                continue
            ip = frame[14:]
            ihl = (ip[0] & 15) * 4
            proto = ip[9]
            saddr = socket.inet_ntoa(ip[12:16])
            daddr = socket.inet_ntoa(ip[16:20])
            frag = struct.unpack("!H", ip[6:8])[0] & 0x1fff
            l4 = ip[ihl:]
            if frag:
                continue
            if proto == 17 and len(l4) >= 12:
                sp, dp = struct.unpack("!HH", l4[:4])
                ws, wd = struct.unpack("!HH", l4[8:12])
                out.append((17, saddr, daddr, sp, dp, ws, wd))
            elif proto == 253 and len(l4) >= 4:
                ws, wd = struct.unpack("!HH", l4[:4])
                out.append((253, saddr, daddr, None, None, ws, wd))
        return out

    def close(self):
        self.s.close()


def recv_all(s, n):
    got = []
    for _ in range(n):
        data, addr = s.recvfrom(70000)
        got.append((data, addr))
    return got


def wind_data(src_ip, dst_ip, sport, dport, payload, good_csum=True,
              version=1):
    """A whole one-packet async message from a new peer, as a Wind
    implementation that is not this kernel would build it."""
    seq = 0x1000
    body = struct.pack("!HHI", 0, 1, len(payload)) + payload
    length = 32 + len(body)
    hdr = struct.pack("!HHHHBBHIIIII", sport, dport, length, 0,
                      version << 4 | 1, 0x02 | 0x10, 64, 0x5eed, 0, seq, 0, seq)
    pseudo = (socket.inet_aton(src_ip) + socket.inet_aton(dst_ip) +
              struct.pack("!BBH", 0, 253, length))
    c = inet_csum(pseudo + hdr + body) or 0xffff
    if not good_csum:
        c ^= 0x5555
    return hdr[:6] + struct.pack("!H", c) + hdr[8:] + body


def main():
    t = Ktap(11)
    setup()
    try:
        tests(t)
    finally:
        teardown()
    try:
        ecmp(t)
    finally:
        ecmp_teardown()
    print(f"# {t.i - t.failed} passed; {t.failed} failed")
    return 1 if t.failed else 0


def pmtu_drop(t, tx, rx, name):
    """12 messages of 60000 B from tx to rx; the router's MTU towards B
    drops to 1100 after the fourth, and comes back after the last."""
    msgs = [os.urandom(60000) for _ in range(12)]
    got, err, sent = [], "", []
    port = rx.getsockname()[1]

    def send():
        try:
            for i, m in enumerate(msgs):
                tx.sendto(m, (B_IP, port))
                if i == 3:
                    sh(f"ip -n {R} link set rb mtu 1100")
            tx.sendto(b"end", MSG_WIND_SYNC, (B_IP, port))
            sent.append("all")
        except OSError as e:
            sent.append(str(e))

    sender = threading.Thread(target=send)
    sender.start()
    try:
        got = recv_all(rx, len(msgs) + 1)
    except OSError as e:
        err = (f"{e}; A: {wind_stats(A)}\nB: {wind_stats(B)}\n" +
               sh(f"ip -n {A} route get {B_IP}; "
                  f"ip netns exec {A} nstat -az | grep -iE 'frag|icmpin|udp'; "
                  f"ip netns exec {R} nstat -az | grep -iE 'frag|icmpout'; "
                  f"ip netns exec {B} nstat -az | grep -iE 'reasm|udp'")
               .stdout)
    sender.join()
    sh(f"ip -n {R} link set rb mtu 1500")
    # the next run meets the drop again, not a cached path MTU
    sh(f"ip -n {A} route flush cache")
    t.check(name, [d for d, _ in got] == msgs + [b"end"] and sent == ["all"],
            f"{err} sender: {sent} got {[len(d) for d, _ in got]}")


def tests(t):
    # 1: the option and the sysctls
    s = wind_socket(A)
    errs = []
    for bad in (2, -1, 255):
        try:
            encap(s, bad)
            errs.append(f"WIND_ENCAP={bad} accepted")
        except OSError as e:
            if e.errno != errno.EINVAL:
                errs.append(f"WIND_ENCAP={bad}: {e}")
    try:
        s.setsockopt(SOL_WIND, WIND_ENCAP, b"\1\0")
        errs.append("2-byte WIND_ENCAP accepted")
    except OSError as e:
        if e.errno != errno.EINVAL:
            errs.append(f"2-byte WIND_ENCAP: {e}")
    first = s.getsockopt(SOL_WIND, WIND_ENCAP)
    encap(s)
    second = s.getsockopt(SOL_WIND, WIND_ENCAP)
    s.close()
    t.check("encap_option_and_sysctls",
            not errs and first == ENCAP_RAW and second == ENCAP_UDP and
            sysctl(A, "udp_port") == UDP_PORT and sysctl(A, "encap") == 0,
            f"{errs} first={first} second={second} "
            f"udp_port={sysctl(A, 'udp_port')}")

    # 2: messages of every size inside UDP, answered inside UDP
    cap = Capture(R, "rb")
    rx = wind_socket(B, 7101)
    tx = wind_socket(A, 7100)
    encap(tx)
    sizes = [1, 1000, 1500, 5000, 65000, 300]
    msgs = [bytes((i * 7 + n) & 0xff for i in range(n)) for n in sizes]
    for m in msgs[:-1]:
        tx.sendto(m, (B_IP, 7101))
    tx.sendto(msgs[-1], MSG_WIND_SYNC, (B_IP, 7101))
    got = recv_all(rx, len(msgs))
    pkts = cap.packets()
    raw = [p for p in pkts if p[0] == 253]
    fwd = [p for p in pkts if p[0] == 17 and p[1] == A_IP]
    back = [p for p in pkts if p[0] == 17 and p[1] == B_IP]
    t.check("messages_inside_udp_exact_and_in_order",
            [d for d, _ in got] == msgs and
            all(a == (A_IP, 7100) for _, a in got),
            f"got sizes {[len(d) for d, _ in got]} from {got[0][1]}")
    t.check("wire_is_udp_both_ways",
            not raw and fwd and back and
            all(p[4] == UDP_PORT and (p[5], p[6]) == (7100, 7101)
                for p in fwd) and
            all(p[4] == UDP_PORT and (p[5], p[6]) == (7101, 7100)
                for p in back),
            f"raw={raw[:3]} fwd={fwd[:3]} back={back[:3]}")

    # 3: per-peer UDP source ports: fixed per peer, spread over peers
    rxs = [wind_socket(B, 7201 + i) for i in range(6)]
    cap.packets()
    for rnd in range(3):
        for i in range(6):
            tx.sendto(b"p%d" % rnd, (B_IP, 7201 + i))
    for r in rxs:
        recv_all(r, 3)
    ports = {}
    for p in cap.packets():
        if p[0] == 17 and p[1] == A_IP:
            ports.setdefault(p[6], set()).add(p[3])
    lo, hi = map(int, sh(f"ip netns exec {A} cat "
                         "/proc/sys/net/ipv4/ip_local_port_range")
                 .stdout.split())
    per_peer = [len(v) for v in ports.values()]
    distinct = {next(iter(v)) for v in ports.values() if len(v) == 1}
    t.check("udp_source_port_fixed_per_peer_spread_over_peers",
            len(ports) == 6 and per_peer == [1] * 6 and len(distinct) >= 2
            and all(lo <= p <= hi for p in distinct),
            f"ports per peer {ports} range {lo}-{hi}")
    for r in rxs:
        r.close()

    # 4: a router that drops IP protocol 253: raw fails, UDP passes
    sh(f"ip netns exec {R} nft -f - <<'EOF'\n"
       "table inet sg {\n"
       "  chain filter {\n"
       "    type filter hook forward priority 0;\n"
       "    meta l4proto 253 counter drop\n"
       "  }\n"
       "}\n"
       "EOF")
    rawtx = wind_socket(A, 7300)
    try:
        rawtx.sendto(b"raw", MSG_WIND_SYNC, (B_IP, 7101))
        raw_err = 0
    except OSError as e:
        raw_err = e.errno
    udptx = wind_socket(A, 7301)
    encap(udptx)
    big = os.urandom(40000)
    udptx.sendto(b"first", MSG_WIND_SYNC, (B_IP, 7101))
    udptx.sendto(big, MSG_WIND_SYNC, (B_IP, 7101))
    got = recv_all(rx, 2)
    dropped = sh(f"ip netns exec {R} nft list chain inet sg filter").stdout
    t.check("router_dropping_protocol_253_raw_fails_udp_passes",
            raw_err == errno.ETIMEDOUT and
            [d for d, _ in got] == [b"first", big] and
            got[0][1] == (A_IP, 7301) and "packets 0 " not in dropped,
            f"raw errno {raw_err} got {[len(d) for d, _ in got]} "
            f"{dropped}")
    rawtx.close()

    # 5: port unreachable comes back through UDP's error handler
    try:
        udptx.sendto(b"nobody", MSG_WIND_SYNC, (B_IP, 7999))
        unreach = 0
    except OSError as e:
        unreach = e.errno
    t.check("port_unreachable_inside_udp_is_econnrefused",
            unreach == errno.ECONNREFUSED, f"errno {unreach}")

    # 6: the path MTU drops mid-stream: nothing stalls or is lost (the
    # default retry budget: the hop drops what is in flight until the
    # sender hears of it), inside UDP and raw
    for ns in (A, B):
        for k, v in (("rto_min_ms", 20), ("rto_max_ms", 1000),
                     ("retries", 10)):
            sh(f"ip netns exec {ns} sysctl -qw net.wind.{k}={v}")
    pmtu_drop(t, udptx, rx, "path_mtu_drop_inside_udp_resegments")
    sh(f"ip netns exec {R} nft delete table inet sg")
    rawtx = wind_socket(A, 7302)
    pmtu_drop(t, rawtx, rx, "path_mtu_drop_raw_resegments")
    rawtx.close()
    udptx.close()
    tx.close()

    # 7: hostile datagrams to the UDP port are dropped and counted
    enter(A)
    try:
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind((A_IP, 0))
    finally:
        enter(None)
    short0, hdr0 = stat(B, "InErrShort"), stat(B, "InErrHeader")
    u.sendto(b"abc", (B_IP, UDP_PORT))
    u.sendto(wind_data(A_IP, B_IP, 7400, 7101, b"x" * 20, version=7),
             (B_IP, UDP_PORT))
    time.sleep(0.5)
    t.check("malformed_inside_udp_dropped_and_counted",
            stat(B, "InErrShort") == short0 + 1 and
            stat(B, "InErrHeader") == hdr0 + 1 and rx_empty(rx),
            f"short {short0}->{stat(B, 'InErrShort')} "
            f"header {hdr0}->{stat(B, 'InErrHeader')}")

    # 8: without a UDP checksum, Wind's own decides; a good packet built
    # by another implementation is delivered
    u.setsockopt(socket.SOL_SOCKET, 11, 1)
    bad0 = stat(B, "InErrChecksum")
    u.sendto(wind_data(A_IP, B_IP, 7401, 7101, b"corrupt", False),
             (B_IP, UDP_PORT))
    u.sendto(wind_data(A_IP, B_IP, 7402, 7101, b"hello from a stranger"),
             (B_IP, UDP_PORT))
    data, addr = rx.recvfrom(100)
    t.check("zero_udp_checksum_wind_checksum_decides",
            stat(B, "InErrChecksum") == bad0 + 1 and
            (data, addr) == (b"hello from a stranger", (A_IP, 7402)) and
            rx_empty(rx),
            f"checksum errors {bad0}->{stat(B, 'InErrChecksum')} "
            f"got {data!r} from {addr}")
    u.close()
    rx.close()


E_A, E_R, E_B = "ecmpA", "ecmpR", "ecmpB"
E_DST = "10.79.9.1"             # B's address, reached over two paths


def ecmp_teardown():
    for ns in (E_A, E_R, E_B):
        subprocess_quiet(f"ip netns del {ns}")


def ecmp_setup():
    """A - R = B: R reaches B's address over two links (ECMP, hashed on
    the flow's ports, as switches and routers spread flows), the second
    5 ms longer: a hop that reorders between flows, never within one."""
    ecmp_teardown()
    for ns in (E_A, E_R, E_B):
        sh(f"ip netns add {ns} && ip -n {ns} link set lo up")
    sh(f"ip -n {E_R} link add ra type veth peer name eth0 netns {E_A}")
    sh(f"ip -n {E_R} link add rb1 type veth peer name eth1 netns {E_B}")
    sh(f"ip -n {E_R} link add rb2 type veth peer name eth2 netns {E_B}")
    sh(f"ip -n {E_A} addr add 10.79.1.1/24 dev eth0 && "
       f"ip -n {E_A} link set eth0 up && "
       f"ip -n {E_A} route add default via 10.79.1.2")
    sh(f"ip -n {E_R} addr add 10.79.1.2/24 dev ra && "
       f"ip -n {E_R} addr add 10.79.2.2/24 dev rb1 && "
       f"ip -n {E_R} addr add 10.79.3.2/24 dev rb2 && "
       f"for d in ra rb1 rb2; do ip -n {E_R} link set $d up; done")
    # B's address on its loopback, reachable through either link
    sh(f"ip -n {E_B} addr add {E_DST}/32 dev lo && "
       f"ip -n {E_B} addr add 10.79.2.1/24 dev eth1 && "
       f"ip -n {E_B} addr add 10.79.3.1/24 dev eth2 && "
       f"ip -n {E_B} link set eth1 up && ip -n {E_B} link set eth2 up && "
       f"ip -n {E_B} route add default via 10.79.2.2")
    sh(f"ip netns exec {E_R} sysctl -qw net.ipv4.ip_forward=1 "
       f"net.ipv4.fib_multipath_hash_policy=1")
    for k in ("all", "default", "eth1", "eth2"):
        sh(f"ip netns exec {E_B} sysctl -qw net.ipv4.conf.{k}.rp_filter=0")
    sh(f"ip -n {E_R} route add {E_DST}/32 nexthop via 10.79.2.1 dev rb1 "
       f"nexthop via 10.79.3.1 dev rb2")
    sh(f"ip netns exec {E_R} tc qdisc add dev rb2 root netem delay 5ms")
    sh(f"ip netns exec {E_A} ping -c1 -W5 -q {E_DST} >/dev/null")
    sh(f"ip netns exec {E_A} ping -c1 -W5 -q 10.79.3.1 >/dev/null")


def ecmp(t):
    """16 peers (sockets of A) send to one socket of B through R.  Raw,
    the hop sees no ports in protocol 253 and puts every peer on one
    path; inside UDP each peer's source port sends it down a path of its
    own hash: the peers spread over both, each on one (captured on R's
    two links), and every message arrives exactly, in order."""
    ecmp_setup()
    rx = wind_socket(E_B, 7400)
    rx.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
    res = {}
    for mode in (ENCAP_RAW, ENCAP_UDP):
        txs = [wind_socket(E_A) for _ in range(16)]
        for s in txs:
            encap(s, mode)
        msgs = {s.getsockname()[1]: [os.urandom(3000 + 7 * i)
                                     for i in range(12)] for s in txs}
        caps = {d: Capture(E_R, d) for d in ("rb1", "rb2")}
        for c in caps.values():
            c.s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 16 << 20)
        err = ""
        try:
            for i in range(12):
                for s in txs:
                    s.sendto(msgs[s.getsockname()[1]][i], (E_DST, 7400))
            got = {}
            for _ in range(12 * len(txs)):
                data, addr = rx.recvfrom(70000)
                got.setdefault(addr[1], []).append(data)
        except OSError as e:
            got, err = {}, str(e)
        # each peer (its Wind port) -> the links its packets took
        paths = {}
        for d, c in caps.items():
            for (_, saddr, _, _, _, wsport, _) in c.packets():
                if saddr == "10.79.1.1":
                    paths.setdefault(wsport, set()).add(d)
            c.close()
        res[mode] = (got == msgs, paths, err)
        for s in txs:
            s.close()
    rx.close()
    raw_ok, raw_paths, raw_err = res[ENCAP_RAW]
    udp_ok, udp_paths, udp_err = res[ENCAP_UDP]
    raw_used = set().union(*raw_paths.values()) if raw_paths else set()
    udp_used = set().union(*udp_paths.values()) if udp_paths else set()
    print(f"# peers per path: raw {sorted(raw_used)}, inside UDP "
          f"rb1 {sum(p == {'rb1'} for p in udp_paths.values())} "
          f"rb2 {sum(p == {'rb2'} for p in udp_paths.values())}")
    t.check("ecmp_hop_spreads_peers_inside_udp_one_path_each",
            raw_ok and udp_ok and len(raw_paths) == 16 and
            len(raw_used) == 1 and len(udp_paths) == 16 and
            all(len(p) == 1 for p in udp_paths.values()) and
            udp_used == {"rb1", "rb2"},
            f"paths per peer raw {raw_paths} inside UDP {udp_paths}; "
            f"exact and in order: raw {raw_ok} {raw_err}, udp {udp_ok} "
            f"{udp_err}")


def rx_empty(s):
    return not select.select([s], [], [], 0.3)[0]


if __name__ == "__main__":
    sys.exit(main())
