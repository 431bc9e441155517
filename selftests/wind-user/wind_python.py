#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Wind from Python's standard library alone.

socket.socket(socket.AF_INET, 7, 253) must just work.  Two namespaces
joined by a veth pair, as in lib.c:

    wind0-py-PID: eth0 10.77.0.1/24 <-- veth --> eth0 10.77.0.2/24 :wind1-py-PID

Python 3.11 has no os.setns(), so each namespace runs an agent (this file
with --agent, under "ip netns exec") that holds one Wind socket and
executes JSON requests read from stdin.  KTAP output.
"""

import errno
import json
import os
import select
import socket
import subprocess
import sys

SOCK_WIND = 7
IPPROTO_WIND = 253
SOL_WIND = 253
WIND_MSGTYPE = 1
WIND_ASYNC_ORDERED, WIND_ASYNC_RELIABLE, WIND_SYNC_ORDERED = 0, 1, 2
MSG_WIND_RELIABLE = 0x400000
MSG_WIND_SYNC = 0x800000
SO_PROTOCOL = getattr(socket, "SO_PROTOCOL", 38)
KSFT_SKIP = 4

NS = [f"wind{i}-py-{os.getpid()}" for i in range(2)]
ADDR = [f"10.77.0.{i + 1}" for i in range(2)]


# ----------------------------------------------------------------- agent

def agent():
    """Serve requests on one Wind socket inside the current namespace."""
    sock = None
    for line in sys.stdin:
        req = json.loads(line)
        op = req["op"]
        try:
            if op == "socket":
                sock = socket.socket(socket.AF_INET, SOCK_WIND,
                                     req.get("proto", IPPROTO_WIND))
                sock.bind(("0.0.0.0", req.get("port", 0)))
                res = {"port": sock.getsockname()[1]}
            elif op == "sendto":
                n = sock.sendto(bytes.fromhex(req["data"]), req["flags"],
                                (req["addr"], req["port"]))
                res = {"n": n}
            elif op == "connect":
                sock.connect((req["addr"], req["port"]))
                res = {"peer": list(sock.getpeername())}
            elif op == "send":
                res = {"n": sock.send(bytes.fromhex(req["data"]),
                                      req["flags"])}
            elif op == "recv":
                sock.settimeout(req["timeout"])
                data, _, flags, addr = sock.recvmsg(req["bufsize"], 0,
                                                    req.get("flags", 0))
                res = {"data": data.hex(), "flags": flags,
                       "addr": list(addr)}
            elif op == "setsockopt":
                sock.setsockopt(req["level"], req["opt"], req["value"])
                res = {}
            elif op == "getsockopt":
                res = {"value": sock.getsockopt(req["level"], req["opt"])}
            elif op == "poll":
                p = select.poll()
                p.register(sock, req["events"])
                ev = p.poll(req["timeout_ms"])
                res = {"revents": ev[0][1] if ev else 0}
            else:
                res = {"error": f"unknown op {op}"}
        except TimeoutError:
            res = {"timeout": True}
        except OSError as e:
            res = {"errno": e.errno, "error": str(e)}
        print(json.dumps(res), flush=True)


class Agent:
    """A running agent in namespace ns."""

    def __init__(self, ns):
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", ns, sys.executable,
             os.path.abspath(__file__), "--agent"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def __call__(self, op, **kw):
        kw["op"] = op
        self.proc.stdin.write(json.dumps(kw) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"agent died during {op}")
        return json.loads(line)

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


# ------------------------------------------------------------- topology

def run(*cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if r.returncode:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    return r.stdout


def topo_setup():
    for ns in NS:
        run("ip", "netns", "add", ns)
        run("ip", "-n", ns, "link", "set", "lo", "up")
    run("ip", "-n", NS[0], "link", "add", "eth0", "address",
        "02:77:00:00:00:01", "mtu", "1500", "type", "veth", "peer", "name",
        "eth0", "address", "02:77:00:00:00:02", "mtu", "1500", "netns", NS[1])
    for i, ns in enumerate(NS):
        run("ip", "-n", ns, "addr", "add", f"{ADDR[i]}/24", "dev", "eth0")
        run("ip", "-n", ns, "link", "set", "eth0", "up")
        j = 1 - i
        run("ip", "-n", ns, "neigh", "replace", ADDR[j], "lladdr",
            f"02:77:00:00:00:0{j + 1}", "dev", "eth0", "nud", "permanent")
    # poll until both ends are up, never longer than 5 s
    for _ in range(500):
        if all("LOWER_UP" in (out := run("ip", "-n", ns, "-o", "link", "show",
                                          "dev", "eth0"))
               and "state UP" in out for ns in NS):
            return
        subprocess.run(["sleep", "0.01"], check=False)
    raise RuntimeError("eth0 not up after 5 s")


def topo_teardown():
    for ns in NS:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True,
                       check=False)


# ---------------------------------------------------------------- tests

class Ktap:
    def __init__(self, total):
        self.n = 0
        self.failed = 0
        print("TAP version 13")
        print(f"1..{total}", flush=True)

    def result(self, good, desc, why=""):
        self.n += 1
        if not good:
            self.failed += 1
            for line in str(why).splitlines():
                print(f"# {line}")
        print(f"{'ok' if good else 'not ok'} {self.n} {desc}", flush=True)


class Fail(Exception):
    pass


def expect(cond, why):
    if not cond:
        raise Fail(why)


def payload(n, seed):
    return bytes((i * 131 + seed * 17 + (i >> 8)) & 0xff for i in range(n))


def t_socket_protocols():
    for proto in (IPPROTO_WIND, 0):
        with socket.socket(socket.AF_INET, SOCK_WIND, proto) as s:
            expect(s.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE)
                   == SOCK_WIND, "SO_TYPE")
            expect(s.getsockopt(socket.SOL_SOCKET, SO_PROTOCOL)
                   == IPPROTO_WIND, "SO_PROTOCOL")
            s.bind(("127.0.0.1", 0))
            expect(s.getsockname()[1] != 0, "no ephemeral port")
    try:
        socket.socket(socket.AF_INET, SOCK_WIND, socket.IPPROTO_UDP).close()
    except OSError as e:
        expect(e.errno == errno.EPROTONOSUPPORT, f"IPPROTO_UDP: {e}")
    else:
        raise Fail("IPPROTO_UDP accepted")


def recv_all(rx, count, bufsize=65536):
    got = []
    for _ in range(count):
        r = rx("recv", bufsize=bufsize, timeout=5)
        expect("data" in r, f"after {len(got)} messages: {r}")
        got.append(r)
    r = rx("recv", bufsize=bufsize, timeout=0.2)
    expect(r.get("timeout"), f"unexpected extra message {r}")
    return got


def t_byte_exact(tx, rx, tx_port, rx_port):
    sizes = [0, 1, 100, 1000, 1440, 1441, 5000, 60000]
    sent = [payload(n, i) for i, n in enumerate(sizes)]
    for data in sent:
        r = tx("sendto", data=data.hex(), flags=0, addr=ADDR[1], port=rx_port)
        expect(r.get("n") == len(data), f"sendto {len(data)}: {r}")
    got = recv_all(rx, len(sent))
    for data, r in zip(sent, got):
        expect(bytes.fromhex(r["data"]) == data,
               f"{len(data)} bytes sent, {len(r['data']) // 2} differ or "
               "out of order")
        expect(r["addr"] == [ADDR[0], tx_port],
               f"from {r['addr']}, expected {[ADDR[0], tx_port]}")
        expect(not r["flags"] & socket.MSG_TRUNC, "MSG_TRUNC set")


def t_types(tx, rx, tx_port, rx_port):
    sent = []
    for i, flags in enumerate([0, MSG_WIND_RELIABLE, MSG_WIND_SYNC, 0,
                               MSG_WIND_SYNC, MSG_WIND_RELIABLE, 0]):
        data = b"%d:%x:" % (i, flags) + payload(50 + i, i)
        r = tx("sendto", data=data.hex(), flags=flags, addr=ADDR[1],
               port=rx_port)
        expect(r.get("n") == len(data), f"sendto flags {flags:#x}: {r}")
        sent.append((data, flags))
    got = [bytes.fromhex(r["data"]) for r in recv_all(rx, len(sent))]
    expect(sorted(got) == sorted(d for d, _ in sent),
           "not exactly the messages sent")
    # an ordered message never overtakes any message sent before it
    for k, (data, flags) in enumerate(sent):
        if flags & MSG_WIND_RELIABLE:
            continue
        pos = got.index(data)
        for earlier, _ in sent[:k]:
            expect(got.index(earlier) < pos,
                   f"message {k} delivered before an earlier one")


def t_connect(tx, rx, tx_port, rx_port):
    r = tx("connect", addr=ADDR[1], port=rx_port)
    expect(r.get("peer") == [ADDR[1], rx_port], f"connect: {r}")
    data = payload(321, 9)
    r = tx("send", data=data.hex(), flags=0)
    expect(r.get("n") == len(data), f"send: {r}")
    (r,) = recv_all(rx, 1)
    expect(bytes.fromhex(r["data"]) == data, "connected send differs")
    expect(r["addr"] == [ADDR[0], tx_port], f"from {r['addr']}")


def t_msgtype(tx):
    r = tx("getsockopt", level=SOL_WIND, opt=WIND_MSGTYPE)
    expect(r.get("value") == WIND_ASYNC_ORDERED, f"default: {r}")
    for v in (WIND_SYNC_ORDERED, WIND_ASYNC_RELIABLE, WIND_ASYNC_ORDERED):
        r = tx("setsockopt", level=SOL_WIND, opt=WIND_MSGTYPE, value=v)
        expect(r == {}, f"set {v}: {r}")
        r = tx("getsockopt", level=SOL_WIND, opt=WIND_MSGTYPE)
        expect(r.get("value") == v, f"get after set {v}: {r}")
    r = tx("setsockopt", level=SOL_WIND, opt=WIND_MSGTYPE, value=3)
    expect(r.get("errno") == errno.EINVAL, f"type 3: {r}")


def t_timeout(rx):
    r = rx("recv", bufsize=100, timeout=0.3)
    expect(r.get("timeout"), f"recv on an empty socket: {r}")


def t_trunc(tx, rx, rx_port):
    data = payload(100, 3)
    for _ in range(2):
        r = tx("sendto", data=data.hex(), flags=0, addr=ADDR[1], port=rx_port)
        expect(r.get("n") == 100, f"sendto: {r}")
    r = rx("recv", bufsize=10, timeout=5)
    expect(bytes.fromhex(r.get("data", "")) == data[:10], f"truncated: {r}")
    expect(r["flags"] & socket.MSG_TRUNC, "no MSG_TRUNC")
    r = rx("recv", bufsize=1000, timeout=5)
    expect(bytes.fromhex(r.get("data", "")) == data,
           f"next message after a truncated one: {r}")


def t_pending_error(tx, rx, rx_port):
    """The pending-error script: an async message to a port nobody has, then
    the next sendto() fails once with ECONNREFUSED, as UDP's does."""
    r = tx("sendto", data="78", flags=0, addr=ADDR[1], port=rx_port + 1)
    expect(r.get("n") == 1, f"sendto to a closed port: {r}")
    r = tx("poll", events=select.POLLERR, timeout_ms=10000)
    expect(r.get("revents", 0) & select.POLLERR, f"no POLLERR: {r}")
    r = tx("sendto", data="79", flags=0, addr=ADDR[1], port=rx_port)
    expect(r.get("errno") == errno.ECONNREFUSED,
           f"next sendto: {r}, expected ECONNREFUSED")
    r = tx("getsockopt", level=socket.SOL_SOCKET, opt=socket.SO_ERROR)
    expect(r.get("value") == 0, f"SO_ERROR after the sendto took it: {r}")
    r = tx("sendto", data="7a", flags=0, addr=ADDR[1], port=rx_port)
    expect(r.get("n") == 1, f"the sendto after: {r}")
    (r,) = recv_all(rx, 1)
    expect(r["data"] == "7a", f"received {r}, expected only b'z'")


def main():
    if "--agent" in sys.argv:
        agent()
        return 0
    if os.geteuid() != 0:
        print("TAP version 13\n1..0 # SKIP must be root")
        return KSFT_SKIP

    ktap = Ktap(9)

    def case(desc, fn, *args):
        try:
            fn(*args)
            ktap.result(True, desc)
        except (Fail, OSError, RuntimeError, KeyError) as e:
            ktap.result(False, desc, f"{type(e).__name__}: {e}")

    case("socket(AF_INET, 7, 253) and (AF_INET, 7, 0) in Python",
         t_socket_protocols)

    agents = []
    try:
        topo_setup()
        tx, rx = Agent(NS[0]), Agent(NS[1])
        agents = [tx, rx]
        tx_port = tx("socket")["port"]
        rx_port = rx("socket")["port"]
    except (RuntimeError, OSError, KeyError) as e:
        print(f"# topology or agents: {e}")
        for a in agents:
            a.close()
        topo_teardown()
        while ktap.n < 9:
            ktap.result(False, "setup failed")
        return 1

    try:
        case("messages of 0 to 60000 bytes arrive byte-exact from the sender",
             t_byte_exact, tx, rx, tx_port, rx_port)
        case("MSG_WIND_RELIABLE and MSG_WIND_SYNC, ordered ones in order",
             t_types, tx, rx, tx_port, rx_port)
        case("MSG_TRUNC with a short buffer, next message intact",
             t_trunc, tx, rx, rx_port)
        case("settimeout() on an empty socket raises TimeoutError",
             t_timeout, rx)
        case("WIND_MSGTYPE round-trips, 3 is EINVAL", t_msgtype, tx)
        case("a refused async message fails the next sendto() once",
             t_pending_error, tx, rx, rx_port)
        case("connect() then send()", t_connect, tx, rx, tx_port, rx_port)
        r = tx("sendto", data="00", flags=socket.MSG_OOB, addr=ADDR[1],
               port=rx_port)
        ktap.result(r.get("errno") == errno.EOPNOTSUPP,
                    "MSG_OOB is EOPNOTSUPP", r)
    finally:
        for a in agents:
            a.close()
        topo_teardown()

    print(f"# {ktap.n - ktap.failed} passed, {ktap.failed} failed")
    return 1 if ktap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
