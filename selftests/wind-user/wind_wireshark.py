#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Wireshark dissector (userspace/wireshark/wind.lua) on captured traffic.

    windA-ws-PID: eth0 10.83.0.1/24 <-- veth --> eth0 10.83.0.2/24 :windB-ws-PID
                  dumpcap on A's eth0

A raw IP socket in A sends crafted Wind packets of every type with
known field values (DATA plain, DSM Header Through, DSM Direct Diff with
diff runs, a later fragment, ACK with SACK bits and NAKs, RESET,
CHALLENGE, a bundle of two messages) and malformed ones (short, a length
field that lies, a bad version, an unknown type, NAKs that do not fit, a
diff run that overruns, a bundle whose inner length overruns), each from
its own source port; then A's Wind socket sends B's a real sync message
and a real bundle (three messages, MSG_MORE on the first two).  dumpcap writes the capture under build/; tshark with the
Lua dissector decodes it, and every field is compared with what was sent,
every malformed packet must carry expert info and every good one none.
The process switches namespaces with setns(2).  KTAP output.
"""

import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "wind"))
from windtest import Ktap, enter, inet_csum, run  # noqa: E402

SOCK_WIND, IPPROTO_WIND = 7, 253
MSG_WIND_SYNC = 0x800000
MSG_MORE = 0x8000
KSFT_SKIP = 4

PID = os.getpid()
NS = [f"windA-ws-{PID}", f"windB-ws-{PID}"]
ADDR = ["10.83.0.1", "10.83.0.2"]
ROOT = os.environ.get("WIND_ROOT") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "../.."))
LUA = os.path.join(ROOT, "userspace/wireshark/wind.lua")
OUTDIR = os.path.join(ROOT, "build/wireshark")
PCAP = os.path.join(OUTDIR, f"wind-{PID}.pcap")


F_ACKREQ, F_ORDERED, F_SYNC, F_DSM, F_SYN, F_BUNDLE = 1, 2, 4, 8, 16, 32


def in_ns(ns, fn, *args):
    enter(ns)
    try:
        return fn(*args)
    finally:
        enter(None)


def windhdr(sport, dport, length, vt, flags, window, src_tag, dst_tag, seq,
            ack, oldest):
    return struct.pack("!HHHHBBHIIIII", sport, dport, length, 0, vt, flags,
                       window, src_tag, dst_tag, seq, ack, oldest)


def packet(sport, ptype, body=b"", flags=0, window=0, src_tag=0, dst_tag=0,
           seq=0, ack=0, oldest=0, version=1, length=None, dport=7600):
    n = 32 + len(body)
    pkt = windhdr(sport, dport, n if length is None else length,
                  version << 4 | ptype, flags, window, src_tag, dst_tag, seq,
                  ack, oldest) + body
    pseudo = socket.inet_aton(ADDR[0]) + socket.inet_aton(ADDR[1]) + \
        struct.pack("!BBH", 0, IPPROTO_WIND, len(pkt))
    c = inet_csum(pseudo + pkt) or 0xffff
    return pkt[:6] + struct.pack("!H", c) + pkt[8:]


def datahdr(frag, nfrags, msg_len):
    return struct.pack("!HHI", frag, nfrags, msg_len)


def dsmhdr(mode, region, offset, key, hdr_len):
    return struct.pack("!B3sIQQII", mode, b"\0\0\0", region, offset, key,
                       hdr_len, 0)


def chunk(flags, data, length=None):
    """A bundle's chunk: flags, reserved, length, data padded to 4."""
    n = len(data) if length is None else length
    return struct.pack("!BBH", flags, 0, n) + data + \
        b"\0" * (-len(data) % 4)


BUNDLE = chunk(F_ORDERED, b"hello") + chunk(0, b"hi")
BAD_BUNDLE = chunk(F_ORDERED, b"hello") + chunk(0, b"hi", length=200)

DIFF = struct.pack("<II", 8, 4) + b"abcd" + struct.pack("<II", 100, 2) + b"xy"

# sport -> (packet, {field: expected value}, malformed?)
CRAFTED = {
    6101: (packet(6101, 1, datahdr(0, 1, 5) + b"hello", F_ORDERED | F_ACKREQ,
                  77, 0x11111111, 0x22222222, 1000, 2000, 999),
           {"wind.dest": "7600", "wind.len": "45", "wind.version": "1",
            "wind.type": "1", "wind.flags": "0x03", "wind.window": "77",
            "wind.src_tag": "0x11111111", "wind.dst_tag": "0x22222222",
            "wind.seq": "1000", "wind.ack": "2000", "wind.oldest": "999",
            "wind.frag": "0", "wind.nfrags": "1", "wind.msg_len": "5",
            "wind.payload": "68656c6c6f", "wind.payload_len": "5"}, False),
    6102: (packet(6102, 1, datahdr(0, 1, 32 + 4 + 16) +
                  dsmhdr(2, 7, 8192, 0xdeadbeefcafef00d, 4) + b"HDR!" +
                  bytes(range(16)), F_DSM | F_SYNC | F_ORDERED, 5, 0xa, 0xb,
                  3000, 4000, 3000),
           {"wind.flags": "0x0e", "wind.msg_len": "52", "wind.dsm.mode": "2",
            "wind.dsm.reserved": "000000", "wind.dsm.region": "7",
            "wind.dsm.offset": "8192", "wind.dsm.key": "0xdeadbeefcafef00d",
            "wind.dsm.hdr_len": "4", "wind.dsm.reserved2": "0x00000000",
            "wind.dsm.header": "48445221",
            "wind.payload": bytes(range(16)).hex(),
            "wind.payload_len": "16"}, False),
    6103: (packet(6103, 1, datahdr(0, 1, 32 + len(DIFF)) +
                  dsmhdr(3, 9, 4096, 1, 0) + DIFF, F_DSM | F_ORDERED, 1, 1, 2,
                  5, 6, 5),
           {"wind.dsm.mode": "3", "wind.dsm.region": "9",
            "wind.dsm.offset": "4096", "wind.dsm.key": "0x0000000000000001",
            "wind.dsm.hdr_len": "0", "wind.diff.off": "8,100",
            "wind.diff.len": "4,2", "wind.diff.data": "61626364,7879"},
           False),
    6104: (packet(6104, 1, datahdr(1, 3, 3000) + b"z" * 10, F_ORDERED, 9, 3,
                  4, 77, 78, 76),
           {"wind.frag": "1", "wind.nfrags": "3", "wind.msg_len": "3000",
            "wind.payload_len": "10", "wind.dsm.mode": ""}, False),
    6105: (packet(6105, 2, struct.pack("!QHHI", (1 << 0) | (1 << 2) | (1 << 63),
                                       2, 1, 0) +
                  struct.pack("!II", 4990, 13) + struct.pack("!II", 4995, 34),
                  0, 200, 0x55, 0x66, 7000, 5000, 6990),
           {"wind.type": "2", "wind.len": "64", "wind.window": "200",
            "wind.ack": "5000", "wind.sack": "0x8000000000000005",
            "wind.sack.seq": "5001,5003,5064", "wind.nnaks": "2",
            "wind.ack.flags": "0x0001", "wind.ack.flags.refused": "1",
            "wind.ack.reserved2": "0x00000000",
            "wind.nak.seq": "4990,4995", "wind.nak.error": "13,34"}, False),
    6106: (packet(6106, 3, src_tag=0x33333333, dst_tag=0x44444444),
           {"wind.type": "3", "wind.len": "32", "wind.src_tag": "0x33333333",
            "wind.dst_tag": "0x44444444", "wind.frag": ""}, False),
    6107: (packet(6107, 4, src_tag=0x12345678, dst_tag=0x9abcdef0),
           {"wind.type": "4", "wind.len": "32", "wind.src_tag": "0x12345678",
            "wind.dst_tag": "0x9abcdef0"}, False),
    6114: (packet(6114, 1, datahdr(0, 2, len(BUNDLE)) + BUNDLE, F_BUNDLE,
                  10, 0x77, 0x88, 8000, 9000, 8000),
           {"wind.flags": "0x20", "wind.nfrags": "2", "wind.msg_len": "20",
            "wind.chunk.seq": "8000,8001", "wind.chunk.flags": "0x02,0x00",
            "wind.chunk.len": "5,2", "wind.chunk.data": "68656c6c6f,6869"},
           False),
    # malformed
    6108: (packet(6108, 3)[:20], {"wind.source": "6108",
                                  "wind.dest": "7600"}, True),
    6109: (packet(6109, 1, datahdr(0, 1, 8) + b"12345678", length=100),
           {"wind.len": "100"}, True),
    6110: (packet(6110, 3, version=2), {"wind.version": "2"}, True),
    6111: (packet(6111, 9), {"wind.type": "9"}, True),
    6112: (packet(6112, 2, struct.pack("!QHHI", 0, 3, 0, 0) +
                  struct.pack("!II", 1, 13)), {"wind.nnaks": "3"}, True),
    6113: (packet(6113, 1, datahdr(0, 1, 32 + 12) + dsmhdr(3, 1, 0, 1, 0) +
                  struct.pack("<II", 0, 100) + b"abcd", F_DSM),
           {"wind.diff.len": "100"}, True),
    6115: (packet(6115, 1, datahdr(0, 2, len(BAD_BUNDLE)) + BAD_BUNDLE,
                  F_BUNDLE, seq=8100),
           {"wind.chunk.len": "5,200"}, True),
}

FIELDS = sorted({k for _, want, _ in CRAFTED.values() for k in want} |
                {"wind.source", "wind.dest", "wind.type", "wind.len",
                 "wind.msg_len", "wind.payload_len", "wind.flags",
                 "wind.nfrags", "wind.chunk.len", "_ws.expert.message"})


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


class Capture:
    """dumpcap in A writing pcap to a pipe, gathered by a thread (and
    written to PCAP at the end): the test sees when packets arrive."""

    def __init__(self):
        self.p = subprocess.Popen(["ip", "netns", "exec", NS[0], "dumpcap",
                                   "-q", "-i", "eth0", "-f", "ip proto 253",
                                   "-P", "-w", "-"],
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.data = bytearray()
        self.lock = threading.Lock()
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        while True:
            chunk = self.p.stdout.read1(65536)
            if not chunk:
                return
            with self.lock:
                self.data += chunk

    def sports(self):
        """The Wind source ports captured so far (Ethernet frames)."""
        with self.lock:
            data = bytes(self.data)
        ports, off = set(), 24
        while off + 16 <= len(data):
            incl = struct.unpack_from("<I", data, off + 8)[0]
            frame = data[off + 16:off + 16 + incl]
            if len(frame) >= 14 + 20 + 2:
                ihl = (frame[14] & 0xf) * 4
                if len(frame) >= 14 + ihl + 2:
                    ports.add(struct.unpack_from("!H", frame, 14 + ihl)[0])
            off += 16 + incl
        return ports

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        self.p.wait(timeout=60)
        self.t.join(timeout=60)
        with open(PCAP, "wb") as f:
            f.write(self.data)
        return self.p.stderr.read().decode(errors="replace")


def sentinel(cap, sport):
    """Send RESETs from sport until the capture holds one: before, the
    capture is live; after, everything sent before is in."""
    raw = in_ns(NS[0], socket.socket, socket.AF_INET, socket.SOCK_RAW,
                IPPROTO_WIND)
    try:
        for _ in range(600):
            raw.sendto(packet(sport, 3), (ADDR[1], 0))
            time.sleep(0.1)
            if sport in cap.sports():
                return True
        return False
    finally:
        raw.close()


def traffic():
    raw = in_ns(NS[0], socket.socket, socket.AF_INET, socket.SOCK_RAW,
                IPPROTO_WIND)
    for pkt, _, _ in CRAFTED.values():
        raw.sendto(pkt, (ADDR[1], 0))
    raw.close()
    b = in_ns(NS[1], socket.socket, socket.AF_INET, SOCK_WIND, IPPROTO_WIND)
    b.bind(("0.0.0.0", 7500))
    a = in_ns(NS[0], socket.socket, socket.AF_INET, SOCK_WIND, IPPROTO_WIND)
    a.bind(("0.0.0.0", 7501))
    a.sendto(b"q" * 50, MSG_WIND_SYNC, (ADDR[1], 7500))
    b.settimeout(60)
    got = b.recv(100)
    # a real bundle: the first two held by MSG_MORE, the third sends all
    for i, m in enumerate((b"b1", b"b22", b"b333")):
        a.sendto(m, MSG_MORE if i < 2 else 0, (ADDR[1], 7500))
    bundled = [b.recv(100) for _ in range(3)]
    a.close()
    b.close()
    return got == b"q" * 50 and bundled == [b"b1", b"b22", b"b333"]


def decode():
    cmd = ["tshark", "-n", "-r", PCAP, "-X", f"lua_script:{LUA}", "-T",
           "fields", "-E", "separator=|", "-E", "occurrence=a", "-E",
           "aggregator=,", "-Y", "wind"]
    for fld in FIELDS:
        cmd += ["-e", fld]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    rows = []
    for line in r.stdout.splitlines():
        vals = line.split("|")
        rows.append(dict(zip(FIELDS, vals)))
    return r, rows


def main():
    if os.getuid() != 0:
        print("1..0 # SKIP must be root")
        return KSFT_SKIP
    for tool in ("tshark", "dumpcap"):
        if not shutil.which(tool):
            print(f"1..0 # SKIP no {tool} (scripts/deps/install-deps.sh)")
            return KSFT_SKIP
    n = len(CRAFTED) + 5
    t = Ktap(n)
    cap = None
    try:
        setup()
        os.makedirs(OUTDIR, exist_ok=True)
        cap = Capture()
        t.check("dumpcap is capturing on A's eth0", sentinel(cap, 6100))
        t.check("the real messages arrive", traffic())
        sentinel(cap, 6199)
        said = cap.stop()
        cap = None
        r, rows = decode()
        print(f"# {len(rows)} Wind packets decoded from {PCAP}")
        if not rows:
            print("# dumpcap: " + said.replace("\n", "\n# "))
        if r.returncode:
            print("# " + r.stderr.replace("\n", "\n# "))
        by_port = {}
        for row in rows:
            by_port.setdefault(row.get("wind.source"), []).append(row)
        for sport, (pkt, want, bad) in sorted(CRAFTED.items()):
            got = by_port.get(str(sport), [])
            row = got[0] if got else {}
            diff = {k: (row.get(k), v) for k, v in want.items()
                    if row.get(k) != v}
            flagged = bool(row.get("_ws.expert.message"))
            ok = len(got) == 1 and not diff and flagged == bad
            what = ("malformed, flagged: " if bad else "decoded: ") + \
                ", ".join(f"{k}={v}" for k, v in want.items())
            t.check(f"port {sport}: {what}", ok,
                    f"{len(got)} packets; differ (got, want): {diff}; "
                    f"expert: {row.get('_ws.expert.message')!r}")
        data = [r for r in by_port.get("7501", []) if r["wind.type"] == "1"]
        t.check("the kernel's DATA: 7501 -> 7500, 50 bytes, SYNC|ORDERED, no "
                "expert info",
                data and data[0]["wind.dest"] == "7500" and
                data[0]["wind.msg_len"] == "50" and
                data[0]["wind.payload_len"] == "50" and
                int(data[0]["wind.flags"], 16) & 6 == 6 and
                not data[0]["_ws.expert.message"], data)
        bundles = [r for r in by_port.get("7501", []) if r["wind.type"] == "1"
                   and int(r["wind.flags"], 16) & F_BUNDLE]
        t.check("the kernel's bundle: 3 messages of 2, 3, 4 bytes, no "
                "expert info",
                len(bundles) == 1 and bundles[0]["wind.nfrags"] == "3" and
                bundles[0]["wind.chunk.len"] == "2,3,4" and
                bundles[0]["wind.msg_len"] == str(3 * 4 + 4 + 4 + 4) and
                not bundles[0]["_ws.expert.message"], bundles)
        acks = [r for r in by_port.get("7500", []) if r["wind.type"] == "2"]
        t.check("the kernel's ACK: 7500 -> 7501, 48 bytes, no expert info",
                acks and acks[0]["wind.dest"] == "7501" and
                acks[0]["wind.len"] == "48" and
                not acks[0]["_ws.expert.message"], acks)
    finally:
        if cap and cap.p.poll() is None:
            cap.p.kill()
        for ns in NS:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    return 1 if t.failed or t.i != n else 0


if __name__ == "__main__":
    sys.exit(main())
