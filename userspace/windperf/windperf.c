// SPDX-License-Identifier: GPL-2.0
/*
 * windperf: Wind beside UDP and TCP, in the style of netperf/iperf3.
 *
 *   windperf -s [-6] -p PROTO [-P PORT] [-n N] [-b BYTES] [-A ADDR]
 *   windperf -c HOST [-6] -p PROTO[,PROTO...] -t TEST [-P PORT] [-n N]
 *            [-r REPS] [-d SECS] [-m SIZES] [-q BYTES] [-b BYTES] [-T MS]
 *            [-W SECS] [-j] [-S SENDERS -E NETNS-PREFIX] [-N]
 *
 * PROTO is wind, udp or tcp; one code path serves all three: a message is
 * one sendto()/recvfrom() for Wind and UDP, and a 4-byte length prefix plus
 * the payload for TCP (TCP_NODELAY, received through a buffer).  Every
 * message starts with a 16-byte struct wp_hdr telling the server what to do.
 * The kernel's own message transports take the datagram path too, with
 * what is their own in kpeers.c: sctp (one-to-many SOCK_SEQPACKET,
 * SCTP_NODELAY), tipc (SOCK_RDM to the service {0x57504600, port}: HOST
 * is not used, the name table finds the server) and rds (over TCP; a
 * server binds -A ADDR, by default its first IPv4 address).  They run the
 * tests rtt, bulk, rr, peers and msgs.  -N: Nagle on for TCP and SCTP
 * (the way to send a stream of small one-way messages).
 *
 * IPv4 or IPv6, for the three alike.  HOST is a numeric address of either
 * family (an IPv6 link-local one with its %scope); an IPv6 address makes
 * the client's sockets AF_INET6, as -6 does, and with -6 an IPv4 address
 * is reached as a v4-mapped one (::ffff:a.b.c.d) from a dual-stack
 * AF_INET6 socket.  A server with -6 binds AF_INET6 sockets to [::] with
 * IPV6_V6ONLY: it serves IPv6 only, beside an IPv4 server of the same
 * protocol and port.  Counters over IPv6: UDP's and the fragments from
 * /proc/net/snmp6 (TCP's and Wind's count both families).
 *
 * Tests (-t):
 *   rtt    ping-pong, -m sizes (default 16,32,128,1024): time per exchange
 *   sync   Wind only: sendmsg(MSG_WIND_SYNC) of -m bytes (default 32) to a
 *          sink: time per send (it returns when the peer's kernel acked)
 *   bulk   one-way messages of -m sizes (default 1024,8192,65536) for -d
 *          seconds, then the server says what it received: goodput is the
 *          bytes the receiver got over the time until it said so
 *   rr     request -q bytes (default 64), reply -m bytes (default 8192):
 *          a DSM page fetch
 *   read   Wind only: one-sided reads of -m bytes (default 8192) of a
 *          1 MiB region of the server's (OP_REGION: registered when first
 *          asked for, its key from getrandom), at offsets going round it,
 *          each waited for, which the server's kernel serves in softirq:
 *          two rows a size, landed in the client's own region
 *          (WIND_RMA_F_LAND) and into recvmsg() (see read_one())
 *   peers  ping-pong of -m bytes (default 32), round robin over -n server
 *          ports (one client socket; TCP needs one connection per peer);
 *          -k 2,256: one row per peer count, round robin over the first k
 *          of the -n, the rows' repetitions alternating too
 *   mem    Wind only: one socket talks once to each of -n ports, then the
 *          kernel's slab use per peer (see mem_test())
 *   msgs   small one-way messages (-m, default 64 B) from -S senders
 *          (default 1; processes, a socket or connection each) to the one
 *          server port for -d seconds: messages per second the server
 *          received, counted until it said so (Wind's senders close, which
 *          waits for the ACKs, first); -M: Wind sends each batch of 16
 *          with MSG_MORE on all but the last (bundling, wind(7))
 *   incast -S senders, one per netns -E PREFIX1..n, stream -m byte
 *          messages (default 65536) to HOST at once; rows per -k count
 *          (default 1,n): aggregate goodput (see incast_client())
 *   hol    ping-pong of -m bytes (default 32) alone and beside a stream of
 *          -q byte messages (default 65536) on the same socket (see
 *          hol_client())
 *
 * Each test runs -r repetitions of -d seconds; with several protocols
 * (-p wind,udp,tcp: one server each, on the same port number) their
 * repetitions alternate, so that they share alike whatever else the
 * machine does.  -j prints one JSON line per protocol.  Latencies: per
 * repetition the median exchange; reported is the median of those with
 * their min and max, and in JSON the mean and the 99th percentile of
 * every exchange of every repetition (mean_us, p99_us).  Goodput: per repetition; median, min, max.  Per
 * operation, the client-side counter deltas over the repetitions (each
 * counted around its own repetition only): /proc/net/wind_stat
 * (Wind), /proc/net/snmp (UDP, TCP), /proc/net/dev (packets on the links,
 * all protocols), and the busy CPU time of the whole machine (/proc/stat).
 * rr (Wind, UDP, TCP) and read add the server process's CPU per
 * operation, out of its getrusage() and CLOCK_PROCESS_CPUTIME_ID before
 * and after each repetition (OP_RUSAGE; srv_user_us, srv_sys_us,
 * srv_cpu_us), and how often it woke over the repetitions, those two
 * exchanges' own wake-ups left out (srv_wakeups: voluntary context
 * switches, a total; see struct wp_info).
 *
 * UDP loses messages: a UDP request waits -T ms (default 20) for its reply,
 * then sends the request again (counted as a timeout); replies to old
 * requests are discarded.  Wind and TCP never time out.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/tipc.h>
#include <linux/wind.h>

#include "kpeers.h"

#define WP_MAGIC	0x57504631u	/* "WPF1" */
#define WP_MAXMSG	(1u << 20)
#define WP_MAXPEERS	4096

enum wp_op {
	OP_ECHO = 1,	/* reply with reply_len bytes, header first */
	OP_SINK = 2,	/* count it for session seq; no reply */
	OP_STAT = 3,	/* reply with struct wp_stat of session seq */
	OP_REGION = 4,	/* Wind: register the read region; struct wp_info */
	OP_RUSAGE = 5,	/* struct wp_info without the region: CPU only */
};

struct wp_hdr {
	uint32_t magic;
	uint8_t op;
	uint8_t pad[3];
	uint32_t seq;		/* exchange number, or bulk session */
	uint32_t reply_len;	/* OP_ECHO: bytes of the reply */
};

struct wp_stat {
	struct wp_hdr h;
	uint64_t bytes;		/* received in the session */
	uint64_t msgs;
};

/* The read test's region on the server: a Wind socket's region of
 * WP_REGION_LEN bytes, byte i of it region_byte(key, i).
 */
#define WP_REGION_ID	0x57505200u	/* "WPR" */
#define WP_REGION_LEN	(1u << 20)
#define WP_LAND_ID	0x5750524cu	/* the client's landing region */

/* The server's answer to OP_REGION and OP_RUSAGE: the region (id 0 for
 * OP_RUSAGE), and the server process's CPU so far: getrusage(RUSAGE_SELF)'s
 * user and system time and context switches, and its CPU time
 * (CLOCK_PROCESS_CPUTIME_ID).  getrusage() splits the exact CPU time into
 * user and system in the ratio of the ticks that found the process in
 * either (cputime_adjust()), over its whole life: a delta can show user
 * time where only the kernel ran.  The voluntary switches say whether the
 * process slept and woke at all.
 */
struct wp_info {
	struct wp_hdr h;
	uint32_t region, pad;
	uint64_t key, len;
	uint64_t utime_us, stime_us;
	uint64_t cpu_ns;	/* CLOCK_PROCESS_CPUTIME_ID */
	uint64_t nvcsw, nivcsw;	/* voluntary, involuntary context switches */
};

static uint8_t region_byte(uint64_t key, uint64_t i)
{
	return (uint8_t)((i * 0x9e3779b97f4a7c15ull + key) >> 56);
}

enum proto { P_WIND, P_UDP, P_TCP, P_SCTP, P_TIPC, P_RDS, NPROTO };
static const char *const proto_names[] = {
	"wind", "udp", "tcp", "sctp", "tipc", "rds",
};

/* SCTP, TIPC, RDS: the kernel's message transports (kpeers.c) */
static bool kpeer(enum proto p)
{
	return p >= P_SCTP;
}

/* TCP receive buffer: frames are parsed out of it. */
struct rbuf {
	char *buf;
	size_t start, end, cap;
};

struct ctx {
	enum proto proto;
	int n;				/* peers (server: sockets) */
	int *fd;			/* TCP: one per peer; else fd[0] */
	struct sockaddr_storage *addr;	/* the peers (client) */
	struct rbuf *rb;		/* TCP: one per peer */
	char *buf;			/* receive buffer (Wind, UDP) */
	unsigned long returned;		/* TIPC: messages that came back */
};

static struct {
	bool json;
	const char *test;
	int reps;
	double secs;
	int bufsize;
	int sizes[16];
	int nsizes;
	int ks[16];		/* peers: -k peer counts */
	int nks;
	int reply;
	int udp_timeout_ms;
	int family;		/* AF_INET, or AF_INET6 (-6) */
	bool wire6;		/* client: the peer is IPv6 on the wire */
	int senders;		/* msgs, incast: sending processes (-S) */
	bool more;		/* msgs: Wind with MSG_MORE (-M) */
	bool nagle;		/* TCP, SCTP: Nagle on (-N), else *_NODELAY */
	struct sockaddr_storage local;	/* server: -A address (RDS binds it) */
	bool have_local;
	const char *netns_prefix;	/* incast: -E */
} opt = { .family = AF_INET,  .reps = 5, .secs = 1.0, .udp_timeout_ms = 20,
	    .senders = 1 };

/* The protocol whose repetition runs, for the watchdog's message. */
static volatile sig_atomic_t cur_proto = -1;

static void watchdog_fired(int sig)
{
	static const char msg[] = "windperf: watchdog: stalled in a repetition of ";
	int p = cur_proto;

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0 ||
	    (p >= 0 && write(2, proto_names[p], strlen(proto_names[p])) < 0) ||
	    write(2, "\n", 1) < 0)
		_exit(142);
	_exit(142);
}

static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	fprintf(stderr, "windperf: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (fmt[strlen(fmt) - 1] == ':')
		fprintf(stderr, " %s", strerror(e));
	fprintf(stderr, "\n");
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory");
	return p;
}

/* ---- transport: the one code path for the three protocols ----------- */

static int open_socket(enum proto p)
{
	static const int types[] = { SOCK_WIND, SOCK_DGRAM, SOCK_STREAM };
	int fd;

	if (kpeer(p))
		fd = kp_socket(proto_names[p], opt.family, !opt.nagle);
	else
		fd = socket(opt.family, types[p], 0);
	if (fd < 0)
		die("socket(%s%s):", proto_names[p],
		    opt.family == AF_INET6 ? ", AF_INET6" : "");
	if (opt.bufsize) {
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &opt.bufsize,
			       sizeof(opt.bufsize)) ||
		    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &opt.bufsize,
			       sizeof(opt.bufsize)))
			die("SO_SNDBUF/SO_RCVBUF:");
	}
	if (p == P_TCP) {
		int one = 1;

		if ((!opt.nagle &&
		     setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one))) ||
		    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
			die("TCP_NODELAY:");
	}
	return fd;
}

static void write_full(int fd, struct iovec *iov, int iovcnt)
{
	while (iovcnt) {
		ssize_t n = writev(fd, iov, iovcnt);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("write:");
		}
		while (iovcnt && (size_t)n >= iov->iov_len) {
			n -= iov->iov_len;
			iov++;
			iovcnt--;
		}
		if (iovcnt) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= n;
		}
	}
}

/* The length of a peer's address, by its family. */
static socklen_t sa_len(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_TIPC)
		return sizeof(struct sockaddr_tipc);
	return ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
					   sizeof(struct sockaddr_in);
}

/* Send one message to peer i (Wind, UDP: from fd[0] to addr[i]; TCP: on
 * connection i, or on fd when the server answers).  flags: send flags.
 * Returns 0, or -1 with errno for a UDP send that failed (a loss).
 */
static int tx(struct ctx *c, int fd, const struct sockaddr_storage *to,
	      const void *msg, size_t len, int flags)
{
	if (c->proto == P_TCP) {
		uint32_t pfx = htonl(len);
		struct iovec iov[2] = {
			{ &pfx, sizeof(pfx) }, { (void *)msg, len },
		};

		write_full(fd, iov, 2);
		return 0;
	}
	for (;;) {
		ssize_t n = sendto(fd, msg, len, flags, (const void *)to,
				   sa_len(to));

		if (n == (ssize_t)len)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (c->proto == P_UDP && n < 0)
			return -1;
		die("sendto(%s, %zu bytes):", proto_names[c->proto], len);
	}
}

/* Make @need bytes of a TCP stream available in rb; false on EOF. */
static bool rb_fill(int fd, struct rbuf *rb, size_t need)
{
	while (rb->end - rb->start < need) {
		ssize_t n;

		if (rb->cap - rb->start < need) {
			memmove(rb->buf, rb->buf + rb->start, rb->end - rb->start);
			rb->end -= rb->start;
			rb->start = 0;
		}
		n = read(fd, rb->buf + rb->end, rb->cap - rb->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("read:");
		if (n == 0)
			return false;
		rb->end += n;
	}
	return true;
}

/* Receive one message.  Wind, UDP: on fd, the sender in *from; TCP: the
 * next frame of the connection.  *msg points at it until the next call.
 * Returns its length, 0 on EOF (TCP), -1 on timeout (UDP).
 */
static ssize_t rx(struct ctx *c, int fd, struct rbuf *rb, char **msg,
		  struct sockaddr_storage *from)
{
	if (c->proto == P_TCP) {
		uint32_t len;

		if (!rb_fill(fd, rb, 4))
			return 0;
		memcpy(&len, rb->buf + rb->start, 4);
		len = ntohl(len);
		if (len > WP_MAXMSG || len < sizeof(struct wp_hdr))
			die("bad TCP frame of %u bytes", len);
		if (!rb_fill(fd, rb, 4 + len))
			return 0;
		*msg = rb->buf + rb->start + 4;
		rb->start += 4 + len;
		return len;
	}
	for (;;) {
		socklen_t alen = sizeof(*from);
		ssize_t n = kpeer(c->proto) ?
			kp_recv(fd, proto_names[c->proto], c->buf, WP_MAXMSG, 0,
				from, &c->returned) :
			recvfrom(fd, c->buf, WP_MAXMSG, 0, (void *)from, &alen);

		if (n >= 0) {
			*msg = c->buf;
			return n;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return -1;
		if (errno == EREMOTEIO) {
			/* TIPC: a message of ours came back (the receiver
			 * was overloaded): a lost one-way message is loss;
			 * a request is asked again, as a UDP timeout
			 */
			struct wp_hdr rh;

			memcpy(&rh, c->buf, sizeof(rh));
			if (rh.op == OP_SINK)
				continue;
			return -1;
		}
		die("recvfrom(%s):", proto_names[c->proto]);
	}
}

static void rb_init(struct rbuf *rb)
{
	rb->cap = 2 * WP_MAXMSG;
	rb->buf = malloc(rb->cap);
	if (!rb->buf)
		die("out of memory");
	rb->start = rb->end = 0;
}

/* ---- server ---------------------------------------------------------- */

/* Bulk sessions, counted apart: the incast test's senders stream to one
 * server socket at once, each in its own session.  The oldest entry makes
 * way for a new session.
 */
#define WP_SESSIONS 64
static struct srv_session {
	uint32_t session;
	uint64_t bytes, msgs;
} srv[WP_SESSIONS];
static unsigned int srv_next;

static struct srv_session *srv_find(uint32_t session, bool create)
{
	struct srv_session *e;

	for (int i = 0; i < WP_SESSIONS; i++)
		if (srv[i].session == session)
			return &srv[i];
	if (!create)
		return NULL;
	e = &srv[srv_next++ % WP_SESSIONS];
	e->session = session;
	e->bytes = e->msgs = 0;
	return e;
}

/* OP_REGION, OP_RUSAGE: the region registered on @fd when asked for it
 * (once per socket: the kernel refuses a taken id with EEXIST), and the
 * server process's CPU time.
 */
static void serve_info(struct ctx *c, int fd, const struct wp_hdr *h,
		       const struct sockaddr_storage *from)
{
	static uint8_t *mem;
	static uint64_t key;
	struct wp_info in = { .h = *h };
	struct timespec ts;
	struct rusage ru;

	if (h->op == OP_REGION && c->proto == P_WIND) {
		struct wind_region r = { .len = WP_REGION_LEN, .id = WP_REGION_ID };

		if (!mem) {
			mem = mmap(NULL, WP_REGION_LEN, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (mem == MAP_FAILED)
				die("mmap of the read region:");
			if (getrandom(&key, sizeof(key), 0) != sizeof(key))
				die("getrandom:");
			for (uint64_t i = 0; i < WP_REGION_LEN; i++)
				mem[i] = region_byte(key, i);
		}
		r.addr = (uintptr_t)mem;
		r.key = key;
		if (setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)) &&
		    errno != EEXIST)
			die("WIND_REGION_ADD:");
		in.region = WP_REGION_ID;
		in.key = key;
		in.len = WP_REGION_LEN;
	}
	getrusage(RUSAGE_SELF, &ru);
	in.utime_us = ru.ru_utime.tv_sec * 1000000ull + ru.ru_utime.tv_usec;
	in.stime_us = ru.ru_stime.tv_sec * 1000000ull + ru.ru_stime.tv_usec;
	in.nvcsw = ru.ru_nvcsw;
	in.nivcsw = ru.ru_nivcsw;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	in.cpu_ns = ts.tv_sec * 1000000000ull + ts.tv_nsec;
	tx(c, fd, from, &in, sizeof(in), 0);
}

/* Act on one message; answer through tx() on fd (to @from for datagrams). */
static void serve_msg(struct ctx *c, int fd, char *msg, size_t len,
		      const struct sockaddr_storage *from)
{
	static char *out;
	struct wp_hdr h;

	if (!out)
		out = xcalloc(1, WP_MAXMSG);
	if (len < sizeof(h))
		return;
	memcpy(&h, msg, sizeof(h));
	if (h.magic != WP_MAGIC)
		return;
	switch (h.op) {
	case OP_ECHO:
		if (h.reply_len < sizeof(h) || h.reply_len > WP_MAXMSG)
			return;
		memcpy(out, &h, sizeof(h));
		tx(c, fd, from, out, h.reply_len, 0);
		break;
	case OP_SINK: {
		struct srv_session *e = srv_find(h.seq, true);

		e->bytes += len;
		e->msgs++;
		break;
	}
	case OP_STAT: {
		struct wp_stat st = { .h = h };
		struct srv_session *e = srv_find(h.seq, false);

		if (e) {
			st.bytes = e->bytes;
			st.msgs = e->msgs;
		}
		tx(c, fd, from, &st, sizeof(st), 0);
		break;
	}
	case OP_REGION:
	case OP_RUSAGE:
		serve_info(c, fd, &h, from);
		break;
	}
}

static int bind_port(enum proto p, int port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(port),
		.sin6_addr = IN6ADDR_ANY_INIT,
	};
	int fd = open_socket(p), one = 1, err;

	if (kpeer(p)) {
		if (p == P_RDS && !opt.have_local && !kp_local_addr(&opt.local))
			die("rds: no local IPv4 address to bind (-A)");
		opt.have_local = true;
		kp_bind(fd, proto_names[p], port, &opt.local);
		return fd;
	}
	if (opt.family == AF_INET6) {
		/* IPv6 only: an IPv4 server may hold the same port */
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)))
			die("IPV6_V6ONLY:");
		err = bind(fd, (void *)&sin6, sizeof(sin6));
	} else {
		err = bind(fd, (void *)&sin, sizeof(sin));
	}
	if (err)
		die("bind(%s port %d):", proto_names[p], port);
	if (p == P_TCP && listen(fd, 1024))
		die("listen:");
	return fd;
}

static void serve_tcp_conn(struct ctx *c, int fd)
{
	struct rbuf rb;
	char *msg;
	ssize_t n;

	rb_init(&rb);
	while ((n = rx(c, fd, &rb, &msg, NULL)) > 0)
		serve_msg(c, fd, msg, n, NULL);
	_exit(0);
}

static void accept_one(struct ctx *c, int lfd)
{
	int fd = accept(lfd, NULL, NULL), one = 1;

	if (fd < 0) {
		if (errno == EINTR || errno == ECONNABORTED)
			return;
		die("accept:");
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	switch (fork()) {
	case -1:
		die("fork:");
	case 0:
		for (int i = 0; i < c->n; i++)
			close(c->fd[i]);
		serve_tcp_conn(c, fd);
		break;
	default:
		close(fd);
	}
}

/* Datagram sockets: drain one socket without blocking. */
static void drain(struct ctx *c, int fd)
{
	struct sockaddr_storage from;
	char *msg;
	ssize_t n;

	for (;;) {
		socklen_t alen = sizeof(from);

		n = kpeer(c->proto) ?
			kp_recv(fd, proto_names[c->proto], c->buf, WP_MAXMSG,
				MSG_DONTWAIT, &from, &c->returned) :
			recvfrom(fd, c->buf, WP_MAXMSG, MSG_DONTWAIT,
				 (void *)&from, &alen);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			if (errno == EREMOTEIO)	/* TIPC: a reply came back */
				continue;
			/* A peer failed: a reply whose ACK was lost, resent
			 * after its client closed, is refused (Wind), or an
			 * ICMP error came back (UDP).  The failure is that
			 * peer's; the server goes on serving the others.
			 */
			if (errno == ECONNREFUSED || errno == ETIMEDOUT ||
			    errno == EHOSTUNREACH || errno == ENETUNREACH ||
			    errno == EMSGSIZE)
				continue;
			die("recvfrom:");
		}
		msg = c->buf;
		serve_msg(c, fd, msg, n, &from);
	}
}

static int server(enum proto p, int port, int n)
{
	struct ctx c = { .proto = p, .n = n };
	struct epoll_event ev, evs[64];
	int ep = -1;

	c.fd = xcalloc(n, sizeof(int));
	c.buf = xcalloc(1, WP_MAXMSG);
	signal(SIGCHLD, SIG_IGN);
	for (int i = 0; i < n; i++)
		c.fd[i] = bind_port(p, port + i);
	if (n > 1) {
		ep = epoll_create1(0);
		if (ep < 0)
			die("epoll_create1:");
		for (int i = 0; i < n; i++) {
			ev.events = EPOLLIN;
			ev.data.fd = c.fd[i];
			if (epoll_ctl(ep, EPOLL_CTL_ADD, c.fd[i], &ev))
				die("epoll_ctl:");
		}
	}
	printf("windperf: %s server ready on port %d..%d%s\n", proto_names[p],
	       port, port + n - 1, opt.family == AF_INET6 ? " (IPv6)" : "");
	fflush(stdout);
	for (;;) {
		if (n == 1) {
			/* one socket: block in accept()/recvfrom() as a
			 * plain server would
			 */
			if (p == P_TCP) {
				accept_one(&c, c.fd[0]);
			} else {
				struct sockaddr_storage from;
				char *msg;
				ssize_t len = rx(&c, c.fd[0], NULL, &msg, &from);

				if (len >= 0)
					serve_msg(&c, c.fd[0], msg, len, &from);
			}
			continue;
		}
		int k = epoll_wait(ep, evs, 64, -1);

		if (k < 0 && errno != EINTR)
			die("epoll_wait:");
		for (int i = 0; i < k; i++) {
			if (p == P_TCP)
				accept_one(&c, evs[i].data.fd);
			else
				drain(&c, evs[i].data.fd);
		}
	}
	return 0;
}

/* ---- counters ------------------------------------------------------- */

#define NCTR 13
enum ctr {
	C_OUT, C_IN, C_OUTACK, C_INACK, C_RETRANS, C_LINKTX, C_LINKRX,
	C_CPU, C_RCVERR, C_IPFRAG, C_SNDERR, C_IDLE,
	C_RTO,		/* retransmission timeouts: Wind, TCP */
};

/* Value of @name in a "Name Value" file (/proc/net/wind_stat). */
static uint64_t kv_get(const char *file, const char *name)
{
	char line[256], key[128];
	unsigned long long v;
	uint64_t ret = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu", key, &v) == 2 &&
		    !strcmp(key, name))
			ret = v;
	fclose(f);
	return ret;
}

/* Value of @name in the @proto section of /proc/net/snmp. */
static uint64_t snmp_file_get(const char *file, const char *proto,
			      const char *name);

static uint64_t snmp_get(const char *proto, const char *name)
{
	return snmp_file_get("/proc/net/snmp", proto, name);
}

/* The same out of a file of that layout (/proc/net/netstat: TcpExt). */
static uint64_t snmp_file_get(const char *file, const char *proto,
			      const char *name)
{
	char hdr[8192], val[8192], *hs, *vs, *h, *v;
	size_t plen = strlen(proto);
	uint64_t ret = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return 0;
	while (fgets(hdr, sizeof(hdr), f) && fgets(val, sizeof(val), f)) {
		if (strncmp(hdr, proto, plen) || hdr[plen] != ':')
			continue;
		h = strtok_r(hdr + plen + 1, " \n", &hs);
		v = strtok_r(val + plen + 1, " \n", &vs);
		while (h && v) {
			if (!strcmp(h, name))
				ret = strtoull(v, NULL, 10);
			h = strtok_r(NULL, " \n", &hs);
			v = strtok_r(NULL, " \n", &vs);
		}
	}
	fclose(f);
	return ret;
}

/* Packets through every interface but lo (/proc/net/dev). */
static void link_packets(uint64_t *txp, uint64_t *rxp)
{
	char line[512], name[64];
	unsigned long long v[16];
	FILE *f = fopen("/proc/net/dev", "r");

	*txp = *rxp = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = ' ';
		if (sscanf(line, "%63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8], &v[9]) != 11 || !strcmp(name, "lo"))
			continue;
		*rxp += v[1];
		*txp += v[9];
	}
	fclose(f);
}

/* Busy and idle time of the whole machine, in seconds. */
static void cpu_times(double *busy, double *idle)
{
	unsigned long long u, ni, sy, id, io, irq, sirq, st;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");

	*busy = *idle = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &ni,
		   &sy, &id, &io, &irq, &sirq, &st) == 8) {
		*busy = (double)(u + ni + sy + irq + sirq + st) / hz;
		*idle = (double)(id + io) / hz;
	}
	fclose(f);
}

static void counters(enum proto p, double *c)
{
	uint64_t t, r;

	memset(c, 0, NCTR * sizeof(*c));
	switch (p) {
	case P_WIND:
		c[C_OUT] = kv_get("/proc/net/wind_stat", "OutPackets");
		c[C_IN] = kv_get("/proc/net/wind_stat", "InPackets");
		c[C_OUTACK] = kv_get("/proc/net/wind_stat", "OutAcks");
		c[C_INACK] = kv_get("/proc/net/wind_stat", "InAcks");
		c[C_RETRANS] = kv_get("/proc/net/wind_stat", "OutRetransmits");
		c[C_RCVERR] = kv_get("/proc/net/wind_stat", "InErrRcvbuf");
		c[C_RTO] = kv_get("/proc/net/wind_stat", "OutTimeouts");
		break;
	case P_UDP:
		if (opt.wire6) {
			c[C_OUT] = kv_get("/proc/net/snmp6", "Udp6OutDatagrams");
			c[C_IN] = kv_get("/proc/net/snmp6", "Udp6InDatagrams");
			c[C_RCVERR] = kv_get("/proc/net/snmp6", "Udp6RcvbufErrors");
			c[C_SNDERR] = kv_get("/proc/net/snmp6", "Udp6SndbufErrors");
			break;
		}
		c[C_OUT] = snmp_get("Udp", "OutDatagrams");
		c[C_IN] = snmp_get("Udp", "InDatagrams");
		c[C_RCVERR] = snmp_get("Udp", "RcvbufErrors");
		c[C_SNDERR] = snmp_get("Udp", "SndbufErrors");
		break;
	case P_TCP:
		c[C_OUT] = snmp_get("Tcp", "OutSegs");
		c[C_IN] = snmp_get("Tcp", "InSegs");
		c[C_RETRANS] = snmp_get("Tcp", "RetransSegs");
		c[C_RTO] = snmp_file_get("/proc/net/netstat", "TcpExt",
					 "TCPTimeouts");
		break;
	default:
		kp_counters(proto_names[p], &c[C_OUT], &c[C_IN], &c[C_RETRANS]);
		break;
	}
	c[C_IPFRAG] = opt.wire6 ? kv_get("/proc/net/snmp6", "Ip6FragCreates") :
				  snmp_get("Ip", "FragCreates");
	link_packets(&t, &r);
	c[C_LINKTX] = t;
	c[C_LINKRX] = r;
	cpu_times(&c[C_CPU], &c[C_IDLE]);
}

/* ---- results ---------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct samples {
	double *v;
	int n, cap;
};

static void add_sample(struct samples *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die("out of memory");
	}
	s->v[s->n++] = x;
}

struct row {
	int size, reply, reps;
	int npeers;		/* peers: round robin over the first npeers */
	double rep[64];		/* per repetition: median us, or Mbit/s */
	double ops;		/* exchanges / messages over all reps */
	double secs;		/* measured time over all reps */
	double best;		/* fastest single exchange (us) */
	struct samples all;	/* latency rows: every exchange of every rep */
	double cd[NCTR];	/* counter deltas summed over the reps */
	uint64_t sent, rcvd, bytes_sent, bytes_rcvd;
	uint64_t timeouts;
	int kind;		/* ROW_INCAST, ROW_HOL: the extra figures */
	double scd[NCTR];	/* incast: the senders' counter deltas, summed */
	int load;		/* hol: 1 while the bulk stream runs */
	double bulk_bytes, bulk_secs;	/* hol: the bulk stream's */
	int land;		/* read: 1 WIND_RMA_F_LAND, 0 into recvmsg() */
	bool srv_cpu;		/* rr, read: the server's CPU is asked for */
	double srv_user_us, srv_sys_us;	/* its CPU over the reps, summed */
	double srv_cpu_us;	/* CLOCK_PROCESS_CPUTIME_ID, summed */
	double srv_wakeups;	/* voluntary switches but the reps' own */
	double srv_nivcsw;
};

enum { ROW_PLAIN, ROW_INCAST, ROW_HOL, ROW_READ };

/* Counters around one repetition: only its own traffic is counted. */
static void rep_begin(struct ctx *c, double *c0)
{
	counters(c->proto, c0);
}

static void rep_end(struct ctx *c, struct row *r, const double *c0)
{
	double c1[NCTR];

	counters(c->proto, c1);
	for (int i = 0; i < NCTR; i++)
		r->cd[i] += c1[i] - c0[i];
}

static void print_row(struct ctx *c, struct row *r, bool goodput, bool first)
{
	double v[64], med, lo, hi, ops = r->ops ? r->ops : 1;
	double d[NCTR];
	const char *unit = !strcmp(opt.test, "msgs") ? "msg/s" :
			   goodput ? "Mbit/s" : "us";

	for (int i = 0; i < NCTR; i++)
		d[i] = r->cd[i] / ops;
	memcpy(v, r->rep, r->reps * sizeof(*v));
	med = median(v, r->reps);
	lo = v[0];
	hi = v[r->reps - 1];
	if (!opt.json) {
		printf("%-4s %-5s %6d", proto_names[c->proto], opt.test,
		       r->size);
		if (r->reply)
			printf("/%d", r->reply);
		if (r->kind == ROW_READ)
			printf(" B %s", r->land ? "landed" : "recvmsg");
		if (r->npeers > 1)
			printf(" B, %d peers", r->npeers);
		printf(" B: %9.1f %s (min %.1f max %.1f) pkts/op out %.2f "
		       "in %.2f, acks out %.2f in %.2f, rtx %.3f, cpu %.1f us/op",
		       med, unit, lo, hi, d[C_OUT], d[C_IN], d[C_OUTACK],
		       d[C_INACK], d[C_RETRANS], d[C_CPU] * 1e6);
		if (goodput)
			printf(" sent %" PRIu64 " rcvd %" PRIu64 " (loss %.2f%%)",
			       r->sent, r->rcvd,
			       r->sent ? 100.0 * (r->sent - r->rcvd) / r->sent : 0);
		if (r->timeouts)
			printf(" timeouts %" PRIu64, r->timeouts);
		if (r->srv_cpu)
			printf(" server cpu %.2f us/op (user %.2f sys %.2f), "
			       "wake-ups %.0f", r->srv_cpu_us / ops,
			       r->srv_user_us / ops, r->srv_sys_us / ops,
			       r->srv_wakeups);
		printf("\n");
		fflush(stdout);
		return;
	}
	printf("%s{\"size\": %d, \"reply\": %d, \"peers\": %d, \"reps\": %d, "
	       "\"unit\": \"%s\", \"median\": %.3f, \"min\": %.3f, \"max\": %.3f, "
	       "\"rep_values\": [",
	       first ? "" : ", ", r->size, r->reply, r->npeers, r->reps, unit,
	       med, lo, hi);
	for (int i = 0; i < r->reps; i++)
		printf("%s%.3f", i ? ", " : "", r->rep[i]);
	printf("], \"ops\": %.0f, \"secs\": %.4f, \"best_us\": %.3f, "
	       "\"pkts_out\": %.4f, \"pkts_in\": %.4f, \"acks_out\": %.4f, "
	       "\"acks_in\": %.4f, \"retrans\": %.4f, \"link_tx\": %.4f, "
	       "\"link_rx\": %.4f, \"ip_frags\": %.4f, \"rcvbuf_errors\": %.4f, "
	       "\"sndbuf_errors\": %.4f, \"cpu_us\": %.3f, \"cpu_busy_pct\": %.1f",
	       r->ops, r->secs, r->best > 1e29 ? 0 : r->best, d[C_OUT],
	       d[C_IN], d[C_OUTACK], d[C_INACK], d[C_RETRANS], d[C_LINKTX],
	       d[C_LINKRX], d[C_IPFRAG], d[C_RCVERR], d[C_SNDERR],
	       d[C_CPU] * 1e6,
	       100.0 * r->cd[C_CPU] / (r->cd[C_CPU] + r->cd[C_IDLE] + 1e-9));
	if (goodput)
		printf(", \"sent\": %" PRIu64 ", \"rcvd\": %" PRIu64
		       ", \"bytes_sent\": %" PRIu64 ", \"bytes_rcvd\": %" PRIu64
		       ", \"loss_pct\": %.3f",
		       r->sent, r->rcvd, r->bytes_sent, r->bytes_rcvd,
		       r->sent ? 100.0 * (r->sent - r->rcvd) / r->sent : 0);
	if (r->all.n) {
		double sum = 0;

		for (int i = 0; i < r->all.n; i++)
			sum += r->all.v[i];
		qsort(r->all.v, r->all.n, sizeof(*r->all.v), cmp_double);
		printf(", \"mean_us\": %.3f, \"p99_us\": %.3f",
		       sum / r->all.n, r->all.v[(r->all.n - 1) * 99 / 100]);
	}
	if (r->kind == ROW_INCAST)
		printf(", \"senders\": %d, \"rcv_retrans\": %.0f, \"rcv_rto\": %.0f"
		       ", \"snd_retrans\": %.0f, \"snd_rto\": %.0f, "
		       "\"snd_pkts_out\": %.0f",
		       r->npeers, r->cd[C_RETRANS], r->cd[C_RTO],
		       r->scd[C_RETRANS], r->scd[C_RTO], r->scd[C_OUT]);
	if (r->kind == ROW_HOL)
		printf(", \"load\": %d, \"bulk_mbps\": %.3f, \"retrans_total\": %.0f"
		       ", \"rto\": %.0f",
		       r->load, r->bulk_secs ? r->bulk_bytes * 8 / r->bulk_secs / 1e6 : 0,
		       r->cd[C_RETRANS], r->cd[C_RTO]);
	if (r->kind == ROW_READ)
		printf(", \"variant\": \"%s\"", r->land ? "landed" : "recvmsg");
	if (r->srv_cpu)
		printf(", \"srv_user_us\": %.3f, \"srv_sys_us\": %.3f, "
		       "\"srv_cpu_us\": %.3f, \"srv_wakeups\": %.0f, "
		       "\"srv_nivcsw\": %.0f",
		       r->srv_user_us / ops, r->srv_sys_us / ops,
		       r->srv_cpu_us / ops, r->srv_wakeups, r->srv_nivcsw);
	printf(", \"timeouts\": %" PRIu64 "}", r->timeouts);
}

/* ---- client ---------------------------------------------------------- */

/*
 * Sequence and session numbers.  The servers outlive their clients, so a
 * client starts from a random number: a session of an earlier client
 * that the server still counts must never look like one of ours.
 */
static uint32_t next_seq;

static void seq_init(void)
{
	if (getrandom(&next_seq, sizeof(next_seq), 0) != sizeof(next_seq))
		next_seq = (uint32_t)getpid() << 16 ^ (uint32_t)time(NULL);
	next_seq |= 1;	/* never the server's initial session 0 */
}

static struct rbuf *peer_rb(struct ctx *c, int i)
{
	return c->proto == P_TCP ? &c->rb[i] : NULL;
}

static int peer_fd(struct ctx *c, int i)
{
	return c->proto == P_TCP ? c->fd[i] : c->fd[0];
}

/* One request/reply with peer i: returns the time in us.  UDP resends
 * after the timeout (counted in *timeouts); stale replies are skipped.
 */
static double exchange(struct ctx *c, int i, char *req, int size, int reply,
		       uint64_t *timeouts)
{
	struct wp_hdr h = {
		.magic = WP_MAGIC, .op = OP_ECHO, .seq = next_seq++,
		.reply_len = reply,
	};
	struct sockaddr_storage from;
	double t0 = now_s();
	char *msg;

	memcpy(req, &h, sizeof(h));
	tx(c, peer_fd(c, i), &c->addr[i], req, size, 0);
	for (;;) {
		ssize_t n = rx(c, peer_fd(c, i), peer_rb(c, i), &msg, &from);
		struct wp_hdr rh;

		if (n < 0) {		/* UDP: lost, ask again */
			(*timeouts)++;
			tx(c, peer_fd(c, i), &c->addr[i], req, size, 0);
			continue;
		}
		if (n == 0)
			die("connection closed by the server");
		memcpy(&rh, msg, sizeof(rh));
		if (rh.magic == WP_MAGIC && rh.seq == h.seq) {
			if (n != reply)
				die("reply of %zd bytes, expected %d", n, reply);
			break;
		}
	}
	return (now_s() - t0) * 1e6;
}

static char *scratch(size_t size)
{
	static char *buf;

	if (!buf)
		buf = xcalloc(1, WP_MAXMSG);
	memset(buf, 0, size);
	return buf;
}

/* ---- the server's CPU (rr, read) ------------------------------------- */

/* Ask the server @op of exchange @seq; its answer, @len bytes that start
 * with the same wp_hdr, into @out (UDP: asked again until it answers). */
static void ask_server(struct ctx *c, uint8_t op, uint32_t seq, void *out,
		       size_t len, uint64_t *timeouts)
{
	struct wp_hdr h = { .magic = WP_MAGIC, .op = op, .seq = seq };
	struct wp_hdr *got = out;
	struct sockaddr_storage from;
	char *msg;
	int tries = 0;

	tx(c, peer_fd(c, 0), &c->addr[0], &h, sizeof(h), 0);
	for (;;) {
		ssize_t n = rx(c, peer_fd(c, 0), peer_rb(c, 0), &msg, &from);

		if (n < 0) {
			if (++tries > 500)
				die("no answer to %s", op == OP_REGION ? "REGION" :
				    op == OP_RUSAGE ? "RUSAGE" : "STAT");
			(*timeouts)++;
			tx(c, peer_fd(c, 0), &c->addr[0], &h, sizeof(h), 0);
			continue;
		}
		if (n == 0)
			die("connection closed by the server");
		memcpy(out, msg, (size_t)n < len ? (size_t)n : len);
		if ((size_t)n == len && got->op == op && got->seq == seq)
			return;
	}
}

/* Ask the server for OP_REGION or OP_RUSAGE */
static void get_info(struct ctx *c, uint8_t op, struct wp_info *in,
		     uint64_t *timeouts)
{
	ask_server(c, op, next_seq++, in, sizeof(*in), timeouts);
}

/* The server's CPU around one repetition (its own exchanges excepted) */
static void srv_cpu_begin(struct ctx *c, struct row *r, struct wp_info *in)
{
	if (r->srv_cpu)
		get_info(c, OP_RUSAGE, in, &r->timeouts);
}

static void srv_cpu_end(struct ctx *c, struct row *r, const struct wp_info *in0)
{
	struct wp_info in;

	if (!r->srv_cpu)
		return;
	get_info(c, OP_RUSAGE, &in, &r->timeouts);
	r->srv_user_us += in.utime_us - in0->utime_us;
	r->srv_sys_us += in.stime_us - in0->stime_us;
	r->srv_cpu_us += (in.cpu_ns - in0->cpu_ns) / 1e3;
	/* the server sleeps once after answering in0's request */
	r->srv_wakeups += in.nvcsw - in0->nvcsw - 1.0;
	r->srv_nivcsw += in.nivcsw - in0->nivcsw;
}

/* Ping-pong (rtt, rr, peers): exchanges with the peers in turn for
 * opt.secs; the repetition's value is its median exchange.
 */
static void pp_warm(struct ctx *c, struct row *r)
{
	char *req = scratch(r->size);
	uint64_t to = 0;

	/* every peer's state exists, routes and caches are hot */
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < c->n; i++)
			exchange(c, i, req, r->size, r->reply ? r->reply : r->size,
				 &to);
}

static void pp_rep(struct ctx *c, struct row *r, int rep)
{
	static struct samples s;
	int reply = r->reply ? r->reply : r->size;
	char *req = scratch(r->size);
	struct wp_info srv0;
	double c0[NCTR], t0, t;
	int i = 0;

	s.n = 0;
	srv_cpu_begin(c, r, &srv0);
	rep_begin(c, c0);
	t0 = now_s();
	do {
		t = exchange(c, i, req, r->size, reply, &r->timeouts);
		add_sample(&s, t);
		add_sample(&r->all, t);
		if (t < r->best)
			r->best = t;
		i = (i + 1) % r->npeers;
	} while (now_s() - t0 < opt.secs || s.n < r->npeers);
	r->secs += now_s() - t0;
	rep_end(c, r, c0);
	srv_cpu_end(c, r, &srv0);
	r->ops += s.n;
	r->rep[rep] = median(s.v, s.n);
}

/* Ask the server what it received in the session */
static void get_stat(struct ctx *c, uint32_t session, struct wp_stat *st,
		     uint64_t *timeouts)
{
	ask_server(c, OP_STAT, session, st, sizeof(*st), timeouts);
}

/* Bulk: one-way messages for opt.secs, then the server's count; the
 * repetition's value is the goodput the receiver saw.
 */
static void bulk_send(struct ctx *c, struct row *r, double secs,
		      uint32_t session, uint64_t *sent)
{
	char *msg = scratch(r->size);
	struct wp_hdr h = { .magic = WP_MAGIC, .op = OP_SINK, .seq = session };
	double t0 = now_s();

	memcpy(msg, &h, sizeof(h));
	do {
		for (int k = 0; k < 8; k++)
			if (!tx(c, peer_fd(c, 0), &c->addr[0], msg, r->size, 0))
				(*sent)++;
	} while (now_s() - t0 < secs);
}

static void bulk_warm(struct ctx *c, struct row *r)
{
	uint32_t session = next_seq++;
	struct wp_stat st;
	uint64_t sent = 0, to = 0;

	bulk_send(c, r, 0, session, &sent);
	get_stat(c, session, &st, &to);
}

static void bulk_rep(struct ctx *c, struct row *r, int rep)
{
	uint32_t session = next_seq++;
	double c0[NCTR], t0, t;
	struct wp_stat st;
	uint64_t sent = 0;

	rep_begin(c, c0);
	t0 = now_s();
	bulk_send(c, r, opt.secs, session, &sent);
	get_stat(c, session, &st, &r->timeouts);
	t = now_s() - t0;
	rep_end(c, r, c0);
	r->secs += t;
	r->sent += sent;
	r->rcvd += st.msgs;
	r->bytes_sent += sent * r->size;
	r->bytes_rcvd += st.bytes;
	r->ops += sent;
	r->rep[rep] = st.bytes * 8 / t / 1e6;
}

/* Wind's sync-ordered send: returns when the peer's kernel acked it. */
static uint32_t sync_session;

static void sync_warm(struct ctx *c, struct row *r)
{
	struct wp_hdr h = { .magic = WP_MAGIC, .op = OP_SINK };
	char *msg = scratch(r->size);

	sync_session = h.seq = next_seq++;
	memcpy(msg, &h, sizeof(h));
	for (int k = 0; k < 3; k++)
		tx(c, c->fd[0], &c->addr[0], msg, r->size, MSG_WIND_SYNC);
	r->sent = 3;
}

static void sync_rep(struct ctx *c, struct row *r, int rep)
{
	static struct samples s;
	struct wp_hdr h = {
		.magic = WP_MAGIC, .op = OP_SINK, .seq = sync_session,
	};
	char *msg = scratch(r->size);
	double c0[NCTR], t0, t1, t;

	memcpy(msg, &h, sizeof(h));
	s.n = 0;
	rep_begin(c, c0);
	t0 = now_s();
	do {
		t1 = now_s();
		tx(c, c->fd[0], &c->addr[0], msg, r->size, MSG_WIND_SYNC);
		t = (now_s() - t1) * 1e6;
		add_sample(&s, t);
		add_sample(&r->all, t);
		if (t < r->best)
			r->best = t;
	} while (now_s() - t0 < opt.secs);
	r->secs += now_s() - t0;
	rep_end(c, r, c0);
	r->ops += s.n;
	r->sent += s.n;
	r->rep[rep] = median(s.v, s.n);
}

/* Everything sent synchronously arrived (and the server is still there). */
static void sync_check(struct ctx *c, struct row *r)
{
	struct wp_stat st;

	get_stat(c, sync_session, &st, &r->timeouts);
	r->rcvd = st.msgs;
	if (st.msgs != r->sent)
		die("sync: the server got %" PRIu64 " of %" PRIu64 " messages",
		    st.msgs, r->sent);
}

/* ---- read: one-sided reads of the server's region ------------------- */

/*
 * The read test: the server's region (OP_REGION tells its id and key),
 * read -m bytes at a time at offsets that go round it, each read waited
 * for.  Landed: into the client's own region (WIND_RMA_F_LAND), at the
 * same offset; recvmsg: the bytes are the completion's payload.
 */
static struct {
	uint32_t region;
	uint64_t key, len;
	uint8_t *land;		/* the client's landing region */
	uint64_t land_key;
	uint64_t cookie, next;	/* last cookie; reads posted so far */
} rd;

static void read_setup(struct ctx *c)
{
	struct wind_region r = { .len = WP_REGION_LEN, .id = WP_LAND_ID };
	struct wp_info in;
	uint64_t to = 0;

	get_info(c, OP_REGION, &in, &to);
	if (in.region != WP_REGION_ID || in.len != WP_REGION_LEN)
		die("read: the server has no read region");
	rd.region = in.region;
	rd.key = in.key;
	rd.len = in.len;
	rd.land = mmap(NULL, WP_REGION_LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rd.land == MAP_FAILED)
		die("mmap of the landing region:");
	if (getrandom(&rd.land_key, sizeof(rd.land_key), 0) !=
	    sizeof(rd.land_key))
		die("getrandom:");
	r.addr = (uintptr_t)rd.land;
	r.key = rd.land_key;
	if (setsockopt(c->fd[0], SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)))
		die("WIND_REGION_ADD (landing region):");
}

/* One read of r->size bytes, waited for: its time in us.  Every
 * completion is checked (cookie, status, length); with @verify the
 * bytes too (outside the time: the landing place is cleared before).
 */
static double read_one(struct ctx *c, struct row *r, bool verify)
{
	uint64_t slots = rd.len / r->size, off = rd.next++ % slots * r->size;
	struct wind_rma q = {
		.op = WIND_RMA_READ, .region = rd.region, .offset = off,
		.key = rd.key, .len = r->size, .cookie = ++rd.cookie,
	}, done;
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_rma)) + 64];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_name = &c->addr[0], .msg_namelen = sa_len(&c->addr[0]),
		.msg_control = u.buf, .msg_controllen = CMSG_SPACE(sizeof(q)),
	};
	struct iovec iov = { .iov_base = c->buf, .iov_len = WP_MAXMSG };
	struct cmsghdr *cm;
	const uint8_t *got;
	double t0, t;
	ssize_t n;

	if (r->land) {
		q.flags = WIND_RMA_F_LAND;
		q.dst_region = WP_LAND_ID;
		q.dst_offset = off;
		q.dst_key = rd.land_key;
		if (verify)
			memset(rd.land + off, 0, r->size);
	}
	memset(u.buf, 0, sizeof(u.buf));
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_WIND;
	cm->cmsg_type = WIND_CMSG_RMA;
	cm->cmsg_len = CMSG_LEN(sizeof(q));
	memcpy(CMSG_DATA(cm), &q, sizeof(q));
	t0 = now_s();
	while (sendmsg(c->fd[0], &msg, 0) < 0)
		if (errno != EINTR)
			die("sendmsg(WIND_CMSG_RMA read of %d bytes):", r->size);
	msg = (struct msghdr){
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	while ((n = recvmsg(c->fd[0], &msg, 0)) < 0)
		if (errno != EINTR)
			die("recvmsg (read completion):");
	t = (now_s() - t0) * 1e6;
	memset(&done, 0, sizeof(done));
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_WIND && cm->cmsg_type == WIND_CMSG_RMA &&
		    cm->cmsg_len == CMSG_LEN(sizeof(done)))
			memcpy(&done, CMSG_DATA(cm), sizeof(done));
	if (done.op != WIND_RMA_READ || done.cookie != q.cookie)
		die("read: a message of %zd bytes that is not the completion "
		    "of read %" PRIu64, n, q.cookie);
	if (done.status)
		die("read of %d bytes at %" PRIu64 ": status %d (%s)", r->size,
		    off, done.status, strerror(-done.status));
	if (n != (r->land ? 0 : r->size))
		die("read: a completion of %zd bytes, expected %d", n,
		    r->land ? 0 : r->size);
	got = r->land ? rd.land + off : (const uint8_t *)c->buf;
	for (int i = 0; verify && i < r->size; i++)
		if (got[i] != region_byte(rd.key, off + i))
			die("read at %" PRIu64 ": byte %d is %02x, expected %02x",
			    off, i, got[i], region_byte(rd.key, off + i));
	return t;
}

static void read_warm(struct ctx *c, struct row *r)
{
	for (int k = 0; k < 3; k++)
		read_one(c, r, true);
}

static void read_rep(struct ctx *c, struct row *r, int rep)
{
	static struct samples s;
	struct wp_info srv0;
	double c0[NCTR], t0, t;

	s.n = 0;
	read_one(c, r, true);	/* the bytes, once a repetition */
	srv_cpu_begin(c, r, &srv0);
	rep_begin(c, c0);
	t0 = now_s();
	do {
		t = read_one(c, r, false);
		add_sample(&s, t);
		add_sample(&r->all, t);
		if (t < r->best)
			r->best = t;
	} while (now_s() - t0 < opt.secs);
	r->secs += now_s() - t0;
	rep_end(c, r, c0);
	srv_cpu_end(c, r, &srv0);
	r->ops += s.n;
	r->rep[rep] = median(s.v, s.n);
}

/* Slab use in bytes: SUnreclaim and Slab of /proc/meminfo. */
static void slab_use(double *sunreclaim, double *slab)
{
	*sunreclaim = kv_get("/proc/meminfo", "SUnreclaim:") * 1024.0;
	*slab = kv_get("/proc/meminfo", "Slab:") * 1024.0;
}

static void settle(void)
{
	/* delayed acks go out, RCU frees what was freed */
	usleep(300 * 1000);
	sync();
	usleep(200 * 1000);
}

/* /proc/slabinfo: active objects and object size of every cache. */
#define MAX_CACHES 512
struct slabs {
	int n;
	char name[MAX_CACHES][48];
	long objs[MAX_CACHES], size[MAX_CACHES];
};

static void slabinfo(struct slabs *s)
{
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	s->n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && s->n < MAX_CACHES) {
		long active, total, size;

		if (sscanf(line, "%47s %ld %ld %ld", s->name[s->n], &active,
			   &total, &size) != 4)
			continue;
		s->objs[s->n] = active;
		s->size[s->n] = size;
		s->n++;
	}
	fclose(f);
}

/*
 * Kernel memory per idle peer.  The server has -n sockets (one per port).
 * One client socket exchanges one message with each, so both ends hold
 * one peer state per pair, each having sent and received one message:
 * the growth of the unreclaimable slab (/proc/meminfo SUnreclaim) is
 * 2n peer states, and the cost of one is that over 2n.  The caches that
 * grew by n/2 objects or more (/proc/slabinfo) say what they hold.
 */
static void mem_test(struct ctx *c)
{
	static struct slabs a, b;
	double u0, s0, u1, s1, per;
	char req[32] = { 0 };
	uint64_t to = 0;
	bool first = true;

	settle();
	slabinfo(&a);
	slab_use(&u0, &s0);
	for (int i = 0; i < c->n; i++)
		exchange(c, i, req, sizeof(req), sizeof(req), &to);
	settle();
	slab_use(&u1, &s1);
	slabinfo(&b);
	per = (u1 - u0) / (2.0 * c->n);
	if (!opt.json)
		printf("wind mem %d peers: SUnreclaim +%.0f B, Slab +%.0f B: "
		       "%.0f B per peer state (2 per pair); caches:",
		       c->n, u1 - u0, s1 - s0, per);
	else
		printf("{\"peers\": %d, \"sunreclaim_delta\": %.0f, "
		       "\"slab_delta\": %.0f, \"per_peer\": %.1f, "
		       "\"per_peer_slab\": %.1f, \"caches\": {",
		       c->n, u1 - u0, s1 - s0, per, (s1 - s0) / (2.0 * c->n));
	for (int i = 0; i < b.n; i++)
		for (int j = 0; j < a.n; j++) {
			long d = b.objs[i] - a.objs[j];

			if (strcmp(a.name[j], b.name[i]))
				continue;
			if (d >= c->n / 2 || d <= -c->n / 2) {
				if (opt.json)
					printf("%s\"%s\": [%ld, %ld]",
					       first ? "" : ", ", b.name[i], d,
					       b.size[i]);
				else
					printf(" %s %+ld x %ld B", b.name[i],
					       d, b.size[i]);
				first = false;
			}
			break;
		}
	printf(opt.json ? "}}" : "\n");
}

static int parse_sizes(const char *s)
{
	char *dup = strdup(s), *tok, *save;

	opt.nsizes = 0;
	for (tok = strtok_r(dup, ",", &save); tok && opt.nsizes < 16;
	     tok = strtok_r(NULL, ",", &save))
		opt.sizes[opt.nsizes++] = atoi(tok);
	free(dup);
	return opt.nsizes;
}

static void set_default_sizes(void)
{
	static const struct {
		const char *test, *sizes;
	} d[] = {
		{ "rtt", "16,32,128,1024" }, { "sync", "32" },
		{ "bulk", "1024,8192,65536" }, { "rr", "8192" },
		{ "peers", "32" }, { "mem", "32" }, { "msgs", "64" },
		{ "incast", "65536" }, { "hol", "32" }, { "read", "8192" },
	};

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		if (!strcmp(opt.test, d[i].test)) {
			if (!opt.nsizes)
				parse_sizes(d[i].sizes);
			return;
		}
	die("unknown test %s (rtt, sync, bulk, rr, read, peers, mem, msgs, incast, hol)",
	    opt.test);
}

/*
 * The server's address (port 0) out of a numeric HOST of either family.
 * An IPv6 one sets opt.family to AF_INET6; with -6 an IPv4 one becomes
 * v4-mapped.  opt.wire6: what goes on the wire is IPv6.
 */
static void parse_host(const char *host, struct sockaddr_storage *ss)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC, .ai_flags = AI_NUMERICHOST,
	}, *ai;

	if (getaddrinfo(host, NULL, &hints, &ai) || !ai)
		die("bad address %s (numeric IPv4 or IPv6)", host);
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	if (ss->ss_family == AF_INET6) {
		opt.family = AF_INET6;
		opt.wire6 = true;
	} else if (opt.family == AF_INET6) {
		struct sockaddr_in sin;
		struct sockaddr_in6 *sin6 = (void *)ss;

		memcpy(&sin, ss, sizeof(sin));
		memset(ss, 0, sizeof(*ss));
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr.s6_addr[10] = 0xff;
		sin6->sin6_addr.s6_addr[11] = 0xff;
		memcpy(&sin6->sin6_addr.s6_addr[12], &sin.sin_addr, 4);
	}
}

static void set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons(port);
}

static void client_open(struct ctx *c, enum proto p,
			const struct sockaddr_storage *server, int port, int n)
{
	c->proto = p;
	c->n = n;
	c->fd = xcalloc(n, sizeof(int));
	c->addr = xcalloc(n, sizeof(*c->addr));
	c->buf = xcalloc(1, WP_MAXMSG);
	for (int i = 0; i < n; i++) {
		c->addr[i] = *server;
		if (p == P_TIPC)
			kp_tipc_addr(&c->addr[i], port + i);
		else
			set_port(&c->addr[i], port + i);
	}
	if (p == P_TCP) {
		c->rb = xcalloc(n, sizeof(*c->rb));
		for (int i = 0; i < n; i++) {
			c->fd[i] = open_socket(p);
			if (connect(c->fd[i], (void *)&c->addr[i],
				    sa_len(&c->addr[i])))
				die("connect to port %d:", port + i);
			rb_init(&c->rb[i]);
		}
		return;
	}
	c->fd[0] = open_socket(p);
	if (kpeer(p))
		kp_client_bind(c->fd[0], proto_names[p], server);
	if (p == P_TIPC) {
		/* an overloaded TIPC receiver returns what it cannot queue,
		 * and a reply can come back to the server as well, which
		 * then has nothing to send again: a request unanswered for
		 * a second is asked again (counted as a timeout)
		 */
		struct timeval tv = { 1, 0 };

		if (setsockopt(c->fd[0], SOL_SOCKET, SO_RCVTIMEO, &tv,
			       sizeof(tv)))
			die("SO_RCVTIMEO:");
	}
	if (p == P_UDP) {
		struct timeval tv = {
			opt.udp_timeout_ms / 1000,
			opt.udp_timeout_ms % 1000 * 1000,
		};

		if (setsockopt(c->fd[0], SOL_SOCKET, SO_RCVTIMEO, &tv,
			       sizeof(tv)))
			die("SO_RCVTIMEO:");
	}
}

/* ---- msgs: small one-way messages from -S senders ------------------- */

struct msgs_res {
	uint64_t sent, rcvd, timeouts;
};

/* One sender: its own socket (TCP: connection) to the server's port;
 * writes what it sent (and, TCP, what its connection's server counted)
 * to @wfd.  Wind's close() waits until the peer acknowledged everything.
 */
static _Noreturn void msgs_child(struct ctx *pc, int size, uint32_t session,
				 double secs, int wfd)
{
	const struct sockaddr_storage *srv_addr = &pc->addr[0];
	int port = srv_addr->ss_family == AF_TIPC ?
		   (int)((const struct sockaddr_tipc *)srv_addr)->addr.name.name.instance :
		   ntohs(srv_addr->ss_family == AF_INET6 ?
			 ((const struct sockaddr_in6 *)srv_addr)->sin6_port :
			 ((const struct sockaddr_in *)srv_addr)->sin_port);
	struct wp_hdr h = { .magic = WP_MAGIC, .op = OP_SINK, .seq = session };
	struct msgs_res res = { 0 };
	char *msg = scratch(size);
	struct ctx c;
	double t0;

	alarm(600);
	client_open(&c, pc->proto, srv_addr, port, 1);
	memcpy(msg, &h, sizeof(h));
	t0 = now_s();
	do {
		for (int k = 0; k < 16; k++) {
			int flags = c.proto == P_WIND && opt.more && k < 15 ?
				    MSG_MORE : 0;

			if (!tx(&c, peer_fd(&c, 0), &c.addr[0], msg, size, flags))
				res.sent++;
		}
	} while (now_s() - t0 < secs);
	if (c.proto == P_TCP) {
		struct wp_stat st;

		get_stat(&c, session, &st, &res.timeouts);
		res.rcvd = st.msgs;
	} else if (kpeer(c.proto)) {
		/* delivered in order on this socket pair: once the server
		 * answers, it holds every message this sender sent (RDS's
		 * close() would drop what is still queued)
		 */
		struct wp_stat st;

		get_stat(&c, session, &st, &res.timeouts);
	}
	close(c.fd[0]);
	if (write(wfd, &res, sizeof(res)) != sizeof(res))
		_exit(1);
	_exit(0);
}

/* -S senders for @secs; what they sent and the server received, and the
 * time until the server said so.
 */
static void msgs_run(struct ctx *c, int size, double secs,
		     struct msgs_res *tot, double *t)
{
	uint32_t session = next_seq++;
	int pfd[2], status;
	double t0;

	memset(tot, 0, sizeof(*tot));
	if (pipe(pfd))
		die("pipe:");
	fflush(stdout);
	t0 = now_s();
	for (int i = 0; i < opt.senders; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork:");
		if (!pid) {
			close(pfd[0]);
			msgs_child(c, size, session, secs, pfd[1]);
		}
	}
	close(pfd[1]);
	for (int i = 0; i < opt.senders; i++) {
		struct msgs_res res;

		if (read(pfd[0], &res, sizeof(res)) != sizeof(res))
			die("a sender failed");
		tot->sent += res.sent;
		tot->rcvd += res.rcvd;
		tot->timeouts += res.timeouts;
	}
	close(pfd[0]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			die("a sender failed");
	/* datagrams: the server's one socket counted every sender's */
	if (c->proto != P_TCP) {
		struct wp_stat st;

		get_stat(c, session, &st, &tot->timeouts);
		tot->rcvd = st.msgs;
	}
	*t = now_s() - t0;
}

static void msgs_warm(struct ctx *c, struct row *r)
{
	struct msgs_res tot;
	double t;

	msgs_run(c, r->size, 0.05, &tot, &t);
}

static void msgs_rep(struct ctx *c, struct row *r, int rep)
{
	struct msgs_res tot;
	double c0[NCTR], t;

	rep_begin(c, c0);
	msgs_run(c, r->size, opt.secs, &tot, &t);
	rep_end(c, r, c0);
	r->secs += t;
	r->sent += tot.sent;
	r->rcvd += tot.rcvd;
	r->bytes_sent += tot.sent * r->size;
	r->bytes_rcvd += tot.rcvd * r->size;
	r->timeouts += tot.timeouts;
	r->ops += tot.sent;
	r->rep[rep] = tot.rcvd / t;
}

/* ---- incast: -S senders, each in a netns of its own, to one receiver --
 *
 * The client runs in the receiver's netns (its counters are the
 * receiver's) and forks one sender per netns -E PREFIX1 .. PREFIXn
 * (/var/run/netns, as ip netns names them), each with its own socket to
 * HOST.  A repetition of the row for k senders starts the first k at
 * once; each streams -m byte messages for -d seconds in a session of its
 * own, then asks the server what it got.  The value is the aggregate
 * goodput: the bytes the server got over the time from the start until
 * the last sender's answer.  Rows: -k counts (default 1,n), alternating.
 */
#define WP_MAXSENDERS 64

struct incast_cmd {
	uint32_t session;
	int run;		/* 0: exit */
	double secs;
};

struct incast_res {
	uint64_t sent, bytes, msgs, timeouts;
	double t_end;
	double cd[NCTR];
};

struct incast_kid {
	pid_t pid;
	int cmd, res;		/* pipes: to it, from it */
};

static void read_full(int fd, void *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("incast: a sender is gone");
		buf = (char *)buf + n;
		len -= n;
	}
}

static void write_all(int fd, const void *buf, size_t len)
{
	struct iovec iov = { (void *)buf, len };

	write_full(fd, &iov, 1);
}

static void incast_enter_netns(int i)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/var/run/netns/%s%d", opt.netns_prefix,
		 i + 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open %s:", path);
	if (setns(fd, CLONE_NEWNET))
		die("setns(%s):", path);
	close(fd);
}

static _Noreturn void incast_kid_main(enum proto p,
				      const struct sockaddr_storage *server,
				      int port, int i, int size, int cmdfd,
				      int resfd)
{
	struct row r = { .size = size };
	struct incast_cmd cmd;
	struct ctx c;

	/* a sender outlives no parent, and a stalled one ends the run (the
	 * parent sees it gone) rather than hang it
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	incast_enter_netns(i);
	client_open(&c, p, server, port, 1);
	for (;;) {
		struct incast_res res = { 0 };
		double c0[NCTR], c1[NCTR];
		struct wp_stat st;

		read_full(cmdfd, &cmd, sizeof(cmd));
		if (!cmd.run)
			_exit(0);
		counters(p, c0);
		alarm((unsigned int)cmd.secs + 60);
		bulk_send(&c, &r, cmd.secs, cmd.session, &res.sent);
		get_stat(&c, cmd.session, &st, &res.timeouts);
		alarm(0);
		res.t_end = now_s();
		counters(p, c1);
		res.bytes = st.bytes;
		res.msgs = st.msgs;
		for (int j = 0; j < NCTR; j++)
			res.cd[j] = c1[j] - c0[j];
		write_all(resfd, &res, sizeof(res));
	}
}

static void incast_spawn(struct incast_kid *kids, int n, enum proto p,
			 const struct sockaddr_storage *server, int port,
			 int size)
{
	for (int i = 0; i < n; i++) {
		int cp[2], rp[2];

		if (pipe2(cp, O_CLOEXEC) || pipe2(rp, O_CLOEXEC))
			die("pipe:");
		fflush(stdout);
		kids[i].pid = fork();
		if (kids[i].pid < 0)
			die("fork:");
		if (!kids[i].pid) {
			close(cp[1]);
			close(rp[0]);
			incast_kid_main(p, server, port, i, size, cp[0], rp[1]);
		}
		close(cp[0]);
		close(rp[1]);
		kids[i].cmd = cp[1];
		kids[i].res = rp[0];
	}
}

/* Run the first k senders at once for @secs; sums into @r (NULL: warm-up). */
static void incast_go(struct incast_kid *kids, int k, enum proto p,
		      struct row *r, int rep, double secs)
{
	uint32_t base = next_seq;
	double c0[NCTR], c1[NCTR], t0, t_end = 0;
	uint64_t bytes = 0;

	next_seq += k;
	counters(p, c0);
	t0 = now_s();
	for (int i = 0; i < k; i++) {
		struct incast_cmd cmd = {
			.session = base + i, .run = 1, .secs = secs,
		};

		write_all(kids[i].cmd, &cmd, sizeof(cmd));
	}
	for (int i = 0; i < k; i++) {
		struct incast_res res;

		read_full(kids[i].res, &res, sizeof(res));
		if (res.t_end > t_end)
			t_end = res.t_end;
		bytes += res.bytes;
		if (!r)
			continue;
		r->sent += res.sent;
		r->rcvd += res.msgs;
		r->bytes_sent += res.sent * r->size;
		r->bytes_rcvd += res.bytes;
		r->ops += res.sent;
		r->timeouts += res.timeouts;
		for (int j = 0; j < NCTR; j++)
			r->scd[j] += res.cd[j];
	}
	counters(p, c1);
	if (!r)
		return;
	for (int j = 0; j < NCTR; j++)
		r->cd[j] += c1[j] - c0[j];
	r->secs += t_end - t0;
	r->rep[rep] = bytes * 8 / (t_end - t0) / 1e6;
}

static void incast_stop(struct incast_kid *kids, int n)
{
	struct incast_cmd cmd = { .run = 0 };

	for (int i = 0; i < n; i++) {
		write_all(kids[i].cmd, &cmd, sizeof(cmd));
		close(kids[i].cmd);
		close(kids[i].res);
		waitpid(kids[i].pid, NULL, 0);
	}
}

static int incast_client(const enum proto *protos, int np, const char *host,
			 int port)
{
	static struct incast_kid kids[3][WP_MAXSENDERS];
	static struct row rows[3][16];
	struct sockaddr_storage server;
	int n = opt.senders, nv, size = opt.sizes[0];

	if (n < 1 || n > WP_MAXSENDERS || !opt.netns_prefix)
		die("-t incast needs -S 1..%d senders and -E netns prefix",
		    WP_MAXSENDERS);
	parse_host(host, &server);
	if (!opt.nks) {
		opt.ks[opt.nks++] = 1;
		if (n > 1)
			opt.ks[opt.nks++] = n;
	}
	nv = opt.nks;
	for (int v = 0; v < nv; v++)
		if (opt.ks[v] < 1 || opt.ks[v] > n)
			die("-k %d: 1..%d senders", opt.ks[v], n);
	for (int k = 0; k < np; k++) {
		int sz = protos[k] == P_UDP && size > 65507 ? 65507 : size;

		incast_spawn(kids[k], n, protos[k], &server, port, sz);
		incast_go(kids[k], n, protos[k], NULL, 0, 0);	/* warm-up */
		for (int v = 0; v < nv; v++) {
			struct row *r = &rows[k][v];

			r->kind = ROW_INCAST;
			r->reps = opt.reps;
			r->best = 1e30;
			r->size = sz;
			r->npeers = opt.ks[v];
		}
	}
	for (int rep = 0; rep < opt.reps; rep++)
		for (int v = 0; v < nv; v++)
			for (int k = 0; k < np; k++)
				incast_go(kids[k], opt.ks[v], protos[k],
					  &rows[k][v], rep, opt.secs);
	for (int k = 0; k < np; k++)
		incast_stop(kids[k], n);
	for (int k = 0; k < np; k++) {
		struct ctx c = { .proto = protos[k] };

		if (opt.json)
			printf("{\"proto\": \"%s\", \"test\": \"incast\", "
			       "\"peers\": %d, \"secs_per_rep\": %.3f, \"rows\": [",
			       proto_names[protos[k]], n, opt.secs);
		for (int v = 0; v < nv; v++)
			print_row(&c, &rows[k][v], true, v == 0);
		if (opt.json)
			printf("]}\n");
	}
	fflush(stdout);
	return 0;
}

/* ---- hol: short messages beside a bulk stream on the same socket -----
 *
 * A ping-pong of -m bytes (default 32) alone, and while a second thread
 * streams -q byte messages (default 65536) to the same server on the
 * same socket (TCP: the same connection, frames kept whole by a lock);
 * the two rows' repetitions alternate.  Wind's pings are async-reliable
 * (MSG_WIND_RELIABLE): delivered as soon as they are in, they may
 * overtake the stream, as the ordered types may not.  After a loaded
 * repetition the stream's session is asked for its count (which also
 * waits for what it queued), for the stream's goodput.
 */
static pthread_mutex_t hol_tx_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	struct ctx *c;
	int size;
	uint32_t session;
	atomic_bool stop;
	uint64_t sent;
} hol_bulk;

static void hol_tx(struct ctx *c, const void *msg, size_t len, int flags)
{
	pthread_mutex_lock(&hol_tx_lock);
	tx(c, c->fd[0], &c->addr[0], msg, len, flags);
	pthread_mutex_unlock(&hol_tx_lock);
}

static void *hol_bulk_main(void *arg)
{
	struct wp_hdr h = {
		.magic = WP_MAGIC, .op = OP_SINK, .seq = hol_bulk.session,
	};
	static char *msg;

	(void)arg;
	if (!msg)
		msg = xcalloc(1, WP_MAXMSG);
	memcpy(msg, &h, sizeof(h));
	while (!atomic_load(&hol_bulk.stop)) {
		if (hol_bulk.c->proto == P_TCP)
			hol_tx(hol_bulk.c, msg, hol_bulk.size, 0);
		else
			tx(hol_bulk.c, hol_bulk.c->fd[0], &hol_bulk.c->addr[0],
			   msg, hol_bulk.size, 0);
		hol_bulk.sent++;
	}
	return NULL;
}

/* One ping-pong on the shared socket: exchange() with the lock and
 * Wind's async-reliable type.
 */
static double hol_exchange(struct ctx *c, char *req, int size,
			   uint64_t *timeouts)
{
	struct wp_hdr h = {
		.magic = WP_MAGIC, .op = OP_ECHO, .seq = next_seq++,
		.reply_len = size,
	};
	int flags = c->proto == P_WIND ? MSG_WIND_RELIABLE : 0;
	struct sockaddr_storage from;
	double t0 = now_s();
	char *msg;

	memcpy(req, &h, sizeof(h));
	hol_tx(c, req, size, flags);
	for (;;) {
		ssize_t n = rx(c, c->fd[0], peer_rb(c, 0), &msg, &from);
		struct wp_hdr rh;

		if (n < 0) {		/* UDP: lost, ask again */
			(*timeouts)++;
			hol_tx(c, req, size, flags);
			continue;
		}
		if (n == 0)
			die("connection closed by the server");
		memcpy(&rh, msg, sizeof(rh));
		if (rh.magic == WP_MAGIC && rh.seq == h.seq) {
			if (n != size)
				die("reply of %zd bytes, expected %d", n, size);
			break;
		}
	}
	return (now_s() - t0) * 1e6;
}

static void hol_rep(struct ctx *c, struct row *r, int rep, int bulk_size)
{
	static struct samples s;
	char *req = xcalloc(1, r->size);
	double c0[NCTR], t0, t, tb = 0;
	pthread_t th;

	s.n = 0;
	rep_begin(c, c0);
	if (r->load) {
		hol_bulk.c = c;
		hol_bulk.size = bulk_size;
		hol_bulk.session = next_seq++;
		hol_bulk.sent = 0;
		atomic_store(&hol_bulk.stop, false);
		tb = now_s();
		if (pthread_create(&th, NULL, hol_bulk_main, NULL))
			die("pthread_create");
		usleep(20000);		/* the stream is under way */
	}
	t0 = now_s();
	do {
		t = hol_exchange(c, req, r->size, &r->timeouts);
		add_sample(&s, t);
		add_sample(&r->all, t);
		if (t < r->best)
			r->best = t;
	} while (now_s() - t0 < opt.secs);
	r->secs += now_s() - t0;
	if (r->load) {
		struct wp_stat st;

		atomic_store(&hol_bulk.stop, true);
		pthread_join(th, NULL);
		get_stat(c, hol_bulk.session, &st, &r->timeouts);
		r->bulk_bytes += st.bytes;
		r->bulk_secs += now_s() - tb;
	}
	rep_end(c, r, c0);
	r->ops += s.n;
	r->rep[rep] = median(s.v, s.n);
	free(req);
}

static int hol_client(const enum proto *protos, int np, const char *host,
		      int port)
{
	static struct row rows[3][2];
	struct sockaddr_storage server;
	int bulk_size = opt.reply ? opt.reply : 65536;
	struct ctx c[3];

	parse_host(host, &server);
	if (opt.sizes[0] < (int)sizeof(struct wp_hdr) || bulk_size > (int)WP_MAXMSG ||
	    bulk_size < (int)sizeof(struct wp_hdr))
		die("hol: bad sizes");
	for (int k = 0; k < np; k++) {
		char *req = xcalloc(1, opt.sizes[0]);
		uint64_t to = 0;

		client_open(&c[k], protos[k], &server, port, 1);
		for (int i = 0; i < 3; i++)
			hol_exchange(&c[k], req, opt.sizes[0], &to);
		free(req);
		for (int v = 0; v < 2; v++) {
			struct row *r = &rows[k][v];

			r->kind = ROW_HOL;
			r->reps = opt.reps;
			r->best = 1e30;
			r->size = opt.sizes[0];
			r->npeers = 1;
			r->load = v;
		}
	}
	for (int rep = 0; rep < opt.reps; rep++)
		for (int v = 0; v < 2; v++)
			for (int k = 0; k < np; k++) {
				int bs = protos[k] == P_UDP && bulk_size > 65507 ?
					 65507 : bulk_size;

				hol_rep(&c[k], &rows[k][v], rep, bs);
			}
	for (int k = 0; k < np; k++) {
		if (opt.json)
			printf("{\"proto\": \"%s\", \"test\": \"hol\", "
			       "\"peers\": 1, \"secs_per_rep\": %.3f, "
			       "\"bulk_size\": %d, \"rows\": [",
			       proto_names[protos[k]], opt.secs, bulk_size);
		for (int v = 0; v < 2; v++)
			print_row(&c[k], &rows[k][v], false, v == 0);
		if (opt.json)
			printf("]}\n");
	}
	fflush(stdout);
	return 0;
}

/*
 * The client: for each size, every protocol of -p warms up, then the
 * repetitions alternate between the protocols (wind, udp, tcp, wind, ...)
 * so that they share whatever else the machine does alike.
 */
static int client(const enum proto *protos, int np, const char *host,
		  int port, int n)
{
	static struct row rows[NPROTO][16];
	struct ctx c[NPROTO];
	struct sockaddr_storage server;
	bool goodput, mem, msgs, rdt;
	int nv;

	set_default_sizes();
	seq_init();
	for (int k = 0; k < np; k++)
		if (kpeer(protos[k]) && (!strcmp(opt.test, "incast") ||
					 !strcmp(opt.test, "hol")))
			die("-t %s: wind, udp, tcp only", opt.test);
	if (!strcmp(opt.test, "incast"))
		return incast_client(protos, np, host, port);
	if (!strcmp(opt.test, "hol"))
		return hol_client(protos, np, host, port);
	parse_host(host, &server);
	msgs = !strcmp(opt.test, "msgs");
	goodput = !strcmp(opt.test, "bulk") || msgs;
	mem = !strcmp(opt.test, "mem");
	rdt = !strcmp(opt.test, "read");
	if (rdt && np != 1)
		die("-t read: -p wind alone");
	for (int k = 0; k < np; k++) {
		if ((!strcmp(opt.test, "sync") || mem || rdt) &&
		    protos[k] != P_WIND)
			die("-t %s is for Wind only", opt.test);
		if (protos[k] == P_RDS && server.ss_family != AF_INET)
			die("-p rds: an IPv4 server address");
		client_open(&c[k], protos[k], &server, port, n);
	}
	if (mem) {
		if (opt.json)
			printf("{\"proto\": \"wind\", \"test\": \"mem\", "
			       "\"peers\": %d, \"rows\": [", n);
		mem_test(&c[0]);
		if (opt.json)
			printf("]}\n");
		return 0;
	}
	/* the rows: one per size, or for peers with -k one per peer count;
	 * read: two per size, landed and into recvmsg()
	 */
	nv = opt.nks ? opt.nks : rdt ? 2 * opt.nsizes : opt.nsizes;
	if (nv > 16)
		die("too many rows");
	if (rdt)
		read_setup(&c[0]);
	for (int v = 0; v < nv; v++) {
		int size = opt.nks ? opt.sizes[0] : opt.sizes[rdt ? v / 2 : v];

		if (rdt && (size < 1 || size > WIND_RMA_READ_MAX ||
			    size > (int)WP_REGION_LEN))
			die("read size %d out of range (1..%u)", size,
			    WIND_RMA_READ_MAX);
		if (!rdt && (size < (int)sizeof(struct wp_hdr) ||
			     size > (int)WP_MAXMSG))
			die("size %d out of range (%zu..%u)", size,
			    sizeof(struct wp_hdr), WP_MAXMSG);
		if (opt.nks && (opt.ks[v] < 1 || opt.ks[v] > n))
			die("-k %d: 1..%d peers", opt.ks[v], n);
		for (int k = 0; k < np; k++) {
			struct row *r = &rows[k][v];

			r->reps = opt.reps;
			r->best = 1e30;
			r->size = size;
			r->npeers = opt.nks ? opt.ks[v] : n;
			if (!strcmp(opt.test, "rr")) {
				r->size = opt.reply ? opt.reply : 64;
				r->reply = size;
				r->srv_cpu = protos[k] <= P_TCP;
			}
			if (rdt) {
				r->kind = ROW_READ;
				r->land = !(v % 2);
				r->srv_cpu = true;
			}
			if (goodput && protos[k] == P_UDP && size > 65507)
				r->size = 65507;	/* the largest datagram */
			cur_proto = protos[k];
			if (!strcmp(opt.test, "sync"))
				sync_warm(&c[k], r);
			else if (rdt)
				read_warm(&c[k], r);
			else if (msgs)
				msgs_warm(&c[k], r);
			else if (goodput)
				bulk_warm(&c[k], r);
			else
				pp_warm(&c[k], r);
		}
	}
	/* rounds: each runs one repetition of every row and protocol */
	for (int rep = 0; rep < opt.reps; rep++)
		for (int v = 0; v < nv; v++)
			for (int k = 0; k < np; k++) {
				struct row *r = &rows[k][v];

				cur_proto = protos[k];
				if (!strcmp(opt.test, "sync"))
					sync_rep(&c[k], r, rep);
				else if (rdt)
					read_rep(&c[k], r, rep);
				else if (msgs)
					msgs_rep(&c[k], r, rep);
				else if (goodput)
					bulk_rep(&c[k], r, rep);
				else
					pp_rep(&c[k], r, rep);
			}
	for (int v = 0; v < nv; v++)
		for (int k = 0; k < np; k++) {
			if (!strcmp(opt.test, "sync"))
				sync_check(&c[k], &rows[k][v]);
			if (!opt.json)
				print_row(&c[k], &rows[k][v], goodput, true);
		}
	/* JSON: one line per protocol */
	for (int k = 0; opt.json && k < np; k++) {
		printf("{\"proto\": \"%s\", \"test\": \"%s\", %s\"peers\": %d, "
		       "\"secs_per_rep\": %.3f, ",
		       proto_names[protos[k]], opt.test,
		       opt.wire6 ? "\"family\": \"ipv6\", " :
		       opt.family == AF_INET6 ? "\"family\": \"ipv4-mapped\", " : "",
		       n, opt.secs);
		if (msgs)
			printf("\"senders\": %d, \"more\": %s, ", opt.senders,
			       opt.more && protos[k] == P_WIND ? "true" : "false");
		if (protos[k] == P_TCP || protos[k] == P_SCTP)
			printf("\"nagle\": %s, ", opt.nagle ? "true" : "false");
		printf("\"rows\": [");
		for (int v = 0; v < nv; v++)
			print_row(&c[k], &rows[k][v], goodput, v == 0);
		printf("]}\n");
	}
	fflush(stdout);
	return 0;
}

static _Noreturn void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: windperf -s [-6] -p wind|udp|tcp|sctp|tipc|rds [-P port] [-n sockets]\n"
		"                [-b bytes] [-A bind address (rds)]\n"
		"       windperf -c HOST [-6] -p PROTO[,PROTO...]\n"
		"                -t rtt|sync|bulk|rr|read|peers|mem|msgs|incast|hol\n"
		"                [-P port] [-n peers] [-k peers,... (peers test)]\n"
		"                [-r reps] [-d secs/rep]\n"
		"                [-m size,...] [-q request bytes (rr)] [-b bytes]\n"
		"                [-T udp timeout ms] [-W watchdog secs] [-j]\n"
		"                [-S senders (msgs, incast)] [-M: Wind MSG_MORE (msgs)]\n"
		"                [-E netns-prefix (incast)] [-N: Nagle on (tcp, sctp)]\n"
		"HOST: numeric IPv4 or IPv6 address (fe80::1%%eth0 for link-local);\n"
		"an IPv6 one makes the client's sockets AF_INET6.\n"
		"-6: AF_INET6 sockets; a server binds [::] with IPV6_V6ONLY (beside an\n"
		"IPv4 server on the same port), a client reaches an IPv4 HOST v4-mapped.\n");
	exit(status);
}

int main(int argc, char **argv)
{
	const char *host = NULL;
	int port = 5201, n = 1, ch, watchdog = 600, np = 0;
	bool srv_mode = false;
	enum proto protos[NPROTO];
	char *save, *tok;

	while ((ch = getopt(argc, argv, "s6c:p:P:n:k:t:r:d:m:q:b:T:W:jhS:ME:NA:")) != -1) {
		switch (ch) {
		case 's': srv_mode = true; break;
		case '6': opt.family = AF_INET6; break;
		case 'c': host = optarg; break;
		case 'p':
			np = 0;
			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				int p = -1;

				for (int i = 0; i < NPROTO; i++)
					if (!strcmp(tok, proto_names[i]))
						p = i;
				if (p < 0 || np == NPROTO)
					die("bad protocol list at %s", tok);
				protos[np++] = p;
			}
			break;
		case 'P': port = atoi(optarg); break;
		case 'n': n = atoi(optarg); break;
		case 'k':
			opt.nks = 0;
			for (tok = strtok_r(optarg, ",", &save);
			     tok && opt.nks < 16; tok = strtok_r(NULL, ",", &save))
				opt.ks[opt.nks++] = atoi(tok);
			break;
		case 't': opt.test = optarg; break;
		case 'r': opt.reps = atoi(optarg); break;
		case 'd': opt.secs = atof(optarg); break;
		case 'm':
			if (!parse_sizes(optarg))
				die("bad -m");
			break;
		case 'q': opt.reply = atoi(optarg); break;
		case 'b': opt.bufsize = atoi(optarg); break;
		case 'T': opt.udp_timeout_ms = atoi(optarg); break;
		case 'W': watchdog = atoi(optarg); break;
		case 'j': opt.json = true; break;
		case 'S': opt.senders = atoi(optarg); break;
		case 'M': opt.more = true; break;
		case 'E': opt.netns_prefix = optarg; break;
		case 'N': opt.nagle = true; break;
		case 'A': {
			struct sockaddr_in *sin = (void *)&opt.local;

			memset(&opt.local, 0, sizeof(opt.local));
			sin->sin_family = AF_INET;
			if (inet_pton(AF_INET, optarg, &sin->sin_addr) != 1)
				die("-A: a numeric IPv4 address");
			opt.have_local = true;
			break;
		}
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (!np || n < 1 || n > WP_MAXPEERS || port < 1 || port + n > 65536)
		usage(2);
	if (opt.reps < 1 || opt.reps > 64 || opt.secs <= 0)
		die("-r must be 1..64 and -d positive");
	if (opt.senders < 1 || opt.senders > 64)
		die("-S must be 1..64");
	if (srv_mode) {
		if (np != 1)
			die("a server serves one protocol");
		return server(protos[0], port, n);
	}
	if (!host || !opt.test)
		usage(2);
	/* a hung transport must not hang the benchmark */
	signal(SIGALRM, watchdog_fired);
	alarm(watchdog);
	return client(protos, np, host, port, n);
}
