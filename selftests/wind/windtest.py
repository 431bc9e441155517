# SPDX-License-Identifier: GPL-2.0
"""Helpers shared by the Python selftests (not a test: the runner runs
wind_*.py only): commands, entering a network namespace with setns(2)
(Python 3.11 has no os.setns()), Wind sockets inside one, KTAP output."""
import ctypes
import os
import socket
import struct
import subprocess
import sys

SOCK_WIND, IPPROTO_WIND, SOL_WIND = 7, 253, 253
CLONE_NEWNET = 0x40000000

libc = ctypes.CDLL(None, use_errno=True)
ROOT_NS = os.open("/proc/self/ns/net", os.O_RDONLY)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True)


def enter(ns):
    """Move this thread into namespace ns (None: back to the first)."""
    fd = ROOT_NS if ns is None else os.open(f"/run/netns/{ns}", os.O_RDONLY)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "setns")
    if fd != ROOT_NS:
        os.close(fd)


def inet_csum(data):
    """The Internet checksum of data (RFC 1071): a Wind header's, over
    its pseudo-header and packet, as UDP's; 0 is sent as 0xffff."""
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return ~total & 0xffff


def wind_stat(ns, name):
    """Counter name of /proc/net/wind_stat as seen in namespace ns."""
    out = run("ip", "netns", "exec", ns, "cat", "/proc/net/wind_stat").stdout
    for line in out.splitlines():
        k, v = line.split()
        if k == name:
            return int(v)
    raise KeyError(name)


def wind_sock_row(ns, port, family=socket.AF_INET):
    """The fields of the line of /proc/net/wind (wind6 for AF_INET6) in
    namespace ns for the socket bound to port: [sl, local, remote, st,
    tx_queue:rx_queue, uid, inode, peers, drops]."""
    name = "wind6" if family == socket.AF_INET6 else "wind"
    out = run("ip", "netns", "exec", ns, "cat", f"/proc/net/{name}").stdout
    for line in out.splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port:
            return fields
    raise KeyError(f"no socket on port {port} in /proc/net/{name}")


def wind_socket(ns, port=0):
    """A Wind socket made in ns, bound to port, with a 60 s timeout."""
    enter(ns)
    try:
        s = socket.socket(socket.AF_INET, SOCK_WIND, IPPROTO_WIND)
        s.bind(("0.0.0.0", port))
        s.settimeout(60)
        return s
    finally:
        enter(None)


class Ktap:
    def __init__(self, n):
        self.i = self.failed = 0
        print("TAP version 13")
        print(f"1..{n}", flush=True)

    def check(self, name, cond, diag=""):
        self.i += 1
        if not cond:
            self.failed += 1
            for line in str(diag).splitlines():
                print("# " + line)
        print(f"{'ok' if cond else 'not ok'} {self.i} {name}", flush=True)

    def skip(self, name, why):
        self.i += 1
        print(f"ok {self.i} {name} # SKIP {why}", flush=True)


def netns_del(*names):
    """Delete these network namespaces, those that exist."""
    for ns in names:
        run("sh", "-c", f"ip netns del {ns} 2>/dev/null; true")


def veth_netns(a, b, addr_a, addr_b):
    """Namespaces a and b (made anew), joined by a veth named eth0 at
    each end, with addr_a/24 and addr_b/24, up."""
    netns_del(a, b)
    for ns in (a, b):
        run("sh", "-c", f"ip netns add {ns} && ip -n {ns} link set lo up")
    run("ip", "-n", a, "link", "add", "eth0", "type", "veth", "peer",
        "name", "eth0", "netns", b)
    for ns, addr in ((a, addr_a), (b, addr_b)):
        run("ip", "-n", ns, "addr", "add", f"{addr}/24", "dev", "eth0")
        run("ip", "-n", ns, "link", "set", "eth0", "up")


def main_as_root(main):
    """Exit with main()'s status; skip (KTAP, status 4) unless root."""
    if os.geteuid() != 0:
        print("TAP version 13\n1..0 # SKIP must be root")
        sys.exit(4)
    sys.exit(main())
