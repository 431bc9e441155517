#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sock_diag (NETLINK_SOCK_DIAG, inet_diag) for Wind sockets.

In a namespace of its own the test binds Wind sockets (one connect()ed
to a default peer), then asks the kernel with SOCK_DIAG_BY_FAMILY for
AF_INET sockets of protocol 253, as ss does for the protocols it knows:
a dump lists exactly those sockets with their ports, addresses, uid,
inode and state; a port filter narrows it; an exact request finds one
socket or fails with ENOENT.  KTAP output.
"""

import ctypes
import errno
import os
import socket
import struct
import subprocess
import sys
from windtest import Ktap

SOCK_WIND, IPPROTO_WIND = 7, 253
NETLINK_SOCK_DIAG, SOCK_DIAG_BY_FAMILY = 4, 20
NLM_F_REQUEST, NLM_F_DUMP = 1, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
TCP_CLOSE, TCP_ESTABLISHED = 7, 1
CLONE_NEWNET = 0x40000000
KSFT_SKIP = 4
NS = f"wind-diag-{os.getpid()}"
libc = ctypes.CDLL(None, use_errno=True)


def request(sport=0, dport=0, src="0.0.0.0", dump=True):
    """inet_diag_req_v2 for AF_INET, protocol 253, every state."""
    sockid = struct.pack("!HH", sport, dport) + socket.inet_aton(src) + \
        b"\0" * 12 + b"\0" * 16 + struct.pack("=I", 0) + \
        struct.pack("=II", 0xffffffff, 0xffffffff)
    body = struct.pack("=BBBBI", socket.AF_INET, IPPROTO_WIND, 0, 0,
                       0xffffffff) + sockid
    flags = NLM_F_REQUEST | (NLM_F_DUMP if dump else 0)
    return struct.pack("=IHHII", 16 + len(body), SOCK_DIAG_BY_FAMILY, flags,
                       1, 0) + body


def ask(req):
    """Send a request; the inet_diag_msg records, or -errno."""
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_SOCK_DIAG)
    s.send(req)
    out = []
    try:
        while True:
            data = s.recv(65536)
            off = 0
            while off + 16 <= len(data):
                ln, typ = struct.unpack_from("=IH", data, off)
                if typ == NLMSG_DONE:
                    return out
                if typ == NLMSG_ERROR:
                    err = struct.unpack_from("=i", data, off + 16)[0]
                    return err if err else out
                m = data[off + 16:off + ln]
                fam, state = m[0], m[1]
                sport, dport = struct.unpack_from("!HH", m, 4)
                src = socket.inet_ntoa(m[8:12])
                dst = socket.inet_ntoa(m[24:28])
                uid, inode = struct.unpack_from("=II", m, 64)
                out.append({"family": fam, "state": state, "sport": sport,
                            "dport": dport, "src": src, "dst": dst,
                            "uid": uid, "inode": inode})
                off += (ln + 3) & ~3
            if not dump_of(req):
                return out
    finally:
        s.close()


def dump_of(req):
    return struct.unpack_from("=H", req, 6)[0] & NLM_F_DUMP


def main():
    if os.getuid() != 0:
        print("1..0 # SKIP must be root")
        return KSFT_SKIP
    subprocess.run(["ip", "netns", "add", NS], check=True)
    try:
        fd = os.open(f"/run/netns/{NS}", os.O_RDONLY)
        if libc.setns(fd, CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), "setns")
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        try:
            a = socket.socket(socket.AF_INET, SOCK_WIND, IPPROTO_WIND)
        except OSError as e:
            print(f"1..0 # SKIP no Wind: {e}")
            return KSFT_SKIP
        t = Ktap(8)
        a.bind(("0.0.0.0", 7700))
        b = socket.socket(socket.AF_INET, SOCK_WIND, IPPROTO_WIND)
        b.bind(("127.0.0.1", 7701))
        b.connect(("127.0.0.1", 7700))
        ino = {7700: os.fstat(a.fileno()).st_ino,
               7701: os.fstat(b.fileno()).st_ino}

        got = ask(request())
        t.check("a dump answers", isinstance(got, list), got)
        got = got if isinstance(got, list) else []
        t.check("exactly the two Wind sockets of the namespace",
                sorted(r["sport"] for r in got) == [7700, 7701], got)
        by = {r["sport"]: r for r in got}
        t.check("7700: AF_INET, 0.0.0.0, no peer, its inode, uid 0",
                by.get(7700, {}) == {"family": socket.AF_INET,
                                     "state": TCP_CLOSE, "sport": 7700,
                                     "dport": 0, "src": "0.0.0.0",
                                     "dst": "0.0.0.0", "uid": 0,
                                     "inode": ino[7700]}, by.get(7700))
        r = by.get(7701, {})
        t.check("7701: 127.0.0.1, default peer 127.0.0.1:7700, its inode",
                r.get("src") == "127.0.0.1" and r.get("dst") == "127.0.0.1"
                and r.get("dport") == 7700 and r.get("inode") == ino[7701],
                r)
        got = ask(request(sport=7701))
        t.check("a dump filtered by port 7701 has only it",
                isinstance(got, list) and [x["sport"] for x in got] == [7701],
                got)
        got = ask(request(sport=7700, dump=False))
        t.check("an exact request for 7700 finds it",
                isinstance(got, list) and len(got) == 1 and
                got[0]["inode"] == ino[7700], got)
        got = ask(request(sport=7799, dump=False))
        t.check("an exact request for an unbound port: ENOENT",
                got == -errno.ENOENT, got)
        a.close()
        b.close()
        got = ask(request())
        t.check("closed sockets are gone from the dump", got == [], got)
        return 1 if t.failed or t.i != 8 else 0
    finally:
        subprocess.run(["ip", "netns", "del", NS], capture_output=True)


if __name__ == "__main__":
    sys.exit(main())
