// SPDX-License-Identifier: GPL-2.0
/* windperf: the error exit, the clock, and the transport (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

const char *const proto_names[NPROTO] = {
	"wind", "udp", "tcp", "sctp", "tipc", "rds",
};

/* The protocol whose repetition runs, for the watchdog's message. */
volatile sig_atomic_t cur_proto = -1;

void watchdog_fired(int sig)
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

_Noreturn void die(const char *fmt, ...)
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

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory");
	return p;
}

/* ---- transport: the one code path for the three protocols ----------- */

int open_socket(enum proto p)
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

void write_full(int fd, struct iovec *iov, int iovcnt)
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
socklen_t sa_len(const struct sockaddr_storage *ss)
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
int tx(struct ctx *c, int fd, const struct sockaddr_storage *to,
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
ssize_t rx(struct ctx *c, int fd, struct rbuf *rb, char **msg,
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

void rb_init(struct rbuf *rb)
{
	rb->cap = 2 * WP_MAXMSG;
	rb->buf = malloc(rb->cap);
	if (!rb->buf)
		die("out of memory");
	rb->start = rb->end = 0;
}
