// SPDX-License-Identifier: GPL-2.0
/* windperf: the server (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

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

int server(enum proto p, int port, int n)
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
