// SPDX-License-Identifier: GPL-2.0
/* tp: see tp.h */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/wind.h>

#include "tp-internal.h"

#define CTL_HELLO	0xF001u
#define CTL_GO		0xF002u
#define CTL_BAR		0xF003u
#define CTL_REL		0xF004u

struct ctl {
	uint32_t type;
	uint32_t rank;
	uint64_t val;
};


uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *tp_name(enum tp_proto p)
{
	return p == TP_WIND ? "wind" : p == TP_UDP ? "udp" : "tcp";
}

int tp_parse(const char *s, enum tp_proto *p)
{
	if (!strcmp(s, "wind"))
		*p = TP_WIND;
	else if (!strcmp(s, "udp"))
		*p = TP_UDP;
	else if (!strcmp(s, "tcp"))
		*p = TP_TCP;
	else
		return -1;
	return 0;
}

static uint64_t kstat_file(const char *path, const char *want_line_prefix,
			   const char *name)
{
	FILE *f = fopen(path, "r");
	char head[4096], vals[4096];
	uint64_t v = 0;

	if (!f)
		return 0;
	if (!want_line_prefix) {	/* Name Value lines */
		char k[128];
		unsigned long long x;

		while (fscanf(f, "%127s %llu", k, &x) == 2)
			if (!strcmp(k, name))
				v = x;
		fclose(f);
		return v;
	}
	/* /proc/net/snmp: a header line then a value line per protocol */
	while (fgets(head, sizeof(head), f) && fgets(vals, sizeof(vals), f)) {
		char *hs, *vs, *h, *x;

		if (strncmp(head, want_line_prefix, strlen(want_line_prefix)))
			continue;
		h = strtok_r(head, " \n", &hs);
		x = strtok_r(vals, " \n", &vs);
		while (h && x) {
			if (!strcmp(h, name))
				v = strtoull(x, NULL, 10);
			h = strtok_r(NULL, " \n", &hs);
			x = strtok_r(NULL, " \n", &vs);
		}
	}
	fclose(f);
	return v;
}

uint64_t kstat_wind(const char *name)
{
	return kstat_file("/proc/net/wind_stat", NULL, name);
}

uint64_t kstat_tcp_retrans(void)
{
	return kstat_file("/proc/net/snmp", "Tcp:", "RetransSegs");
}

uint64_t tp_retrans(struct tp *tp)
{
	switch (tp->proto) {
	case TP_WIND:
		return kstat_wind("OutRetransmits") - tp->retrans0;
	case TP_TCP:
		return kstat_tcp_retrans() - tp->retrans0;
	default: {
		uint64_t r;

		pthread_mutex_lock(&tp->mu);
		r = tp->st.retrans;
		pthread_mutex_unlock(&tp->mu);
		return r;
	}
	}
}

const struct tp_stats *tp_stats(struct tp *tp)
{
	if (tp->proto != TP_UDP)
		tp->st.retrans = tp_retrans(tp);
	return &tp->st;
}

int tp_fd(struct tp *tp)
{
	return tp->fd;
}

int tp_addr_parse(tp_addr *a, const char *s)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, &a->sin.sin_addr) == 1) {
		a->sin.sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a->sin6.sin6_addr) == 1) {
		a->sin6.sin6_family = AF_INET6;
		return 0;
	}
	return -1;
}

socklen_t tp_addr_len(const tp_addr *a)
{
	return a->sa.sa_family == AF_INET6 ? sizeof(a->sin6) : sizeof(a->sin);
}

void tp_addr_set_port(tp_addr *a, uint16_t port)
{
	if (a->sa.sa_family == AF_INET6)
		a->sin6.sin6_port = htons(port);
	else
		a->sin.sin_port = htons(port);
}

bool tp_addr_same_host(const tp_addr *a, const tp_addr *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return false;
	if (a->sa.sa_family == AF_INET6)
		return !memcmp(&a->sin6.sin6_addr, &b->sin6.sin6_addr,
			       sizeof(a->sin6.sin6_addr));
	return a->sin.sin_addr.s_addr == b->sin.sin_addr.s_addr;
}

static int rank_of(struct tp *tp, const tp_addr *sa)
{
	for (int i = 0; i < tp->n; i++)
		if (tp_addr_same_host(&tp->addr[i], sa))
			return i;
	return -1;
}

void qput(struct q *q, int peer, const void *buf, size_t len)
{
	struct msg *m = malloc(sizeof(*m) + len);

	if (!m) {
		perror("malloc");
		exit(1);
	}
	m->next = NULL;
	m->peer = peer;
	m->len = len;
	memcpy(m->data, buf, len);
	if (q->t)
		q->t->next = m;
	else
		q->h = m;
	q->t = m;
}

static ssize_t qget(struct q *q, int *peer, void *buf, size_t max)
{
	struct msg *m = q->h;
	ssize_t l;

	if (!m)
		return 0;
	q->h = m->next;
	if (!q->h)
		q->t = NULL;
	l = m->len > max ? -1 : (ssize_t)m->len;
	if (l >= 0)
		memcpy(buf, m->data, m->len);
	*peer = m->peer;
	free(m);
	return l;
}

static void bufsize(int fd, int bytes)
{
	/* FORCE as root (the guests), else what the sysctl caps allow */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bytes, sizeof(bytes)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes));
}

/* --- common ------------------------------------------------------------- */

/* The defaults of struct tp_opts' fields */
static void defaults(struct tp_opts *o)
{
	if (!o->window)
		o->window = 10;			/* DSE */
	if (!o->frag)
		o->frag = 8192;
	if (!o->ack_every)
		o->ack_every = 5;
	if (!o->rto_min_ns)
		o->rto_min_ns = 20000000ull;	/* Wind's rto_min_ms */
	if (!o->rto_max_ns)
		o->rto_max_ns = 1000000000ull;
	if (!o->rto_init_ns)
		o->rto_init_ns = 5 * o->rto_min_ns;
}

struct tp *tp_open(enum tp_proto proto, int rank, int n,
		   const tp_addr *addrs, uint16_t port)
{
	return tp_open_opts(proto, rank, n, addrs, port, NULL);
}

struct tp *tp_open_opts(enum tp_proto proto, int rank, int n,
			const tp_addr *addrs, uint16_t port,
			const struct tp_opts *opts)
{
	struct tp *tp = calloc(1, sizeof(*tp));
	char name[INET6_ADDRSTRLEN] = "?";
	int one = 1, zero = 0, family;
	tp_addr me;

	if (!tp)
		return NULL;
	if (opts)
		tp->o = *opts;
	defaults(&tp->o);
	tp->proto = proto;
	tp->rank = rank;
	tp->n = n;
	tp->addr = calloc((size_t)n, sizeof(*tp->addr));
	tp->scratch = malloc(sizeof(struct ru_hdr) + tp->o.frag);
	if (!tp->addr || !tp->scratch)
		return NULL;
	for (int i = 0; i < n; i++) {
		tp->addr[i] = addrs[i];
		tp_addr_set_port(&tp->addr[i], port);
	}
	me = tp->addr[rank];
	family = me.sa.sa_family;
	switch (proto) {
	case TP_WIND:
		tp->fd = socket(family, SOCK_WIND | SOCK_CLOEXEC, 0);
		break;
	case TP_UDP:
		tp->fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		break;
	case TP_TCP:
		tp->fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		setsockopt(tp->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		break;
	}
	if (tp->fd < 0) {
		fprintf(stderr, "%s socket: %s\n", tp_name(proto), strerror(errno));
		return NULL;
	}
	if (proto != TP_TCP)
		bufsize(tp->fd, 4 << 20);
	if (family == AF_INET6 && tp->o.dual_stack &&
	    setsockopt(tp->fd, SOL_IPV6, IPV6_V6ONLY, &zero, sizeof(zero))) {
		fprintf(stderr, "%s IPV6_V6ONLY 0: %s\n", tp_name(proto),
			strerror(errno));
		return NULL;
	}
	if (tp->o.bind_any) {
		if (family == AF_INET6)
			me.sin6.sin6_addr = in6addr_any;
		else
			me.sin.sin_addr.s_addr = htonl(INADDR_ANY);
	}
	if (bind(tp->fd, &me.sa, tp_addr_len(&me))) {
		inet_ntop(family, family == AF_INET6 ?
			  (const void *)&me.sin6.sin6_addr :
			  (const void *)&me.sin.sin_addr, name, sizeof(name));
		fprintf(stderr, "%s bind %s port %u: %s\n", tp_name(proto),
			name, port, strerror(errno));
		return NULL;
	}
	if (proto == TP_WIND)
		tp->retrans0 = kstat_wind("OutRetransmits");
	if (proto == TP_UDP && ru_open(tp))
		return NULL;
	if (proto == TP_TCP) {
		tp->tfd = malloc((size_t)n * sizeof(int));
		tp->trx = calloc((size_t)n, sizeof(*tp->trx));
		if (!tp->tfd || !tp->trx)
			return NULL;
		for (int i = 0; i < n; i++)
			tp->tfd[i] = -1;
		if (listen(tp->fd, 4096) || tcp_mesh(tp, port))
			return NULL;
		tp->retrans0 = kstat_tcp_retrans();
	}
	return tp;
}

int tp_send(struct tp *tp, int peer, const void *buf, size_t len)
{
	int r = -1;

	switch (tp->proto) {
	case TP_WIND:
		for (;;) {
			ssize_t w = sendto(tp->fd, buf, len, 0,
					   &tp->addr[peer].sa,
					   tp_addr_len(&tp->addr[peer]));
			if (w >= 0) {
				r = 0;
				break;
			}
			if (errno != EINTR) {
				fprintf(stderr, "wind send to %d: %s\n", peer, strerror(errno));
				break;
			}
		}
		break;
	case TP_UDP:
		return ru_send(tp, peer, buf, len, NULL, 0, 0);	/* counts */
	case TP_TCP:
		r = tcp_send(tp, peer, buf, len);
		break;
	}
	if (!r)
		tp->st.msgs_out++;
	return r;
}

int tp_sendv(struct tp *tp, int peer, const void *hdr, size_t hdr_len,
	     const void *data, size_t data_len, unsigned int flags)
{
	if (tp->proto != TP_UDP) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return ru_send(tp, peer, hdr, hdr_len, data, data_len, flags);
}

int tp_poll(struct tp *tp, int timeout_ms)
{
	if (tp->proto != TP_UDP) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return ru_pump(tp, timeout_ms);
}

static ssize_t raw_recv(struct tp *tp, int *peer, void *buf, size_t max,
			int timeout_ms)
{
	uint64_t end = timeout_ms >= 0 ? now_ns() + (uint64_t)timeout_ms * 1000000ull : 0;

	for (;;) {
		if (tp->rq.h) {
			struct msg *m = tp->rq.h;
			ssize_t l = (ssize_t)m->len;

			tp->rq.h = m->next;
			if (!tp->rq.h)
				tp->rq.t = NULL;
			if (m->len > max) {
				fprintf(stderr, "message of %zu bytes > %zu\n", m->len, max);
				free(m);
				return -1;
			}
			memcpy(buf, m->data, m->len);
			*peer = m->peer;
			free(m);
			tp->st.msgs_in++;
			return l;
		}
		int t = -1;

		if (timeout_ms >= 0) {
			uint64_t now = now_ns();

			if (now >= end)
				return 0;
			t = (int)((end - now + 999999) / 1000000);
		}
		if (tp->proto == TP_WIND) {
			struct pollfd pfd = { .fd = tp->fd, .events = POLLIN };
			tp_addr from;
			socklen_t fl = sizeof(from);

			if (t >= 0) {
				int pr = poll(&pfd, 1, t);

				if (pr < 0 && errno != EINTR)
					return -1;
				if (pr <= 0)
					continue;
			}
			ssize_t r = recvfrom(tp->fd, buf, max, MSG_TRUNC,
					     &from.sa, &fl);
			if (r < 0) {
				if (errno == EINTR || errno == EAGAIN)
					continue;
				fprintf(stderr, "wind recv: %s\n", strerror(errno));
				return -1;
			}
			if ((size_t)r > max) {
				fprintf(stderr, "wind message of %zd bytes > %zu\n", r, max);
				return -1;
			}
			*peer = rank_of(tp, &from);
			tp->st.msgs_in++;
			return r;
		}
		if ((tp->proto == TP_UDP ? ru_pump(tp, t) : tcp_pump(tp, -1, t)))
			return -1;
	}
}

static int is_ctl(const void *buf, ssize_t r)
{
	uint32_t t;

	if (r != sizeof(struct ctl))
		return 0;
	memcpy(&t, buf, 4);
	return t >= CTL_HELLO && t <= CTL_REL;
}

/*
 * The application's messages; control messages (a peer already in the
 * next barrier) are set aside for expect().
 */
ssize_t tp_recv(struct tp *tp, int *peer, void *buf, size_t max, int timeout_ms)
{
	uint64_t end = timeout_ms >= 0 ? now_ns() + (uint64_t)timeout_ms * 1000000ull : 0;
	ssize_t r;

	if (tp->pend.h)
		return qget(&tp->pend, peer, buf, max);
	for (;;) {
		int t = -1;

		if (timeout_ms >= 0) {
			uint64_t now = now_ns();

			t = now >= end ? 0 : (int)((end - now + 999999) / 1000000);
		}
		r = raw_recv(tp, peer, buf, max, t);
		if (r <= 0 || !is_ctl(buf, r))
			return r;
		qput(&tp->ctlq, *peer, buf, (size_t)r);
	}
}

static int expect(struct tp *tp, uint32_t type, int *peer, uint64_t *val,
		  int timeout_ms)
{
	unsigned char big[65536 + 64];
	struct ctl c = { 0 };
	ssize_t r;

	for (;;) {
		if (tp->ctlq.h) {
			r = qget(&tp->ctlq, peer, big, sizeof(big));
		} else {
			r = raw_recv(tp, peer, big, sizeof(big), timeout_ms);
			if (r > 0 && !is_ctl(big, r)) {
				/* the application's: keep it for tp_recv */
				qput(&tp->pend, *peer, big, (size_t)r);
				continue;
			}
		}
		break;
	}
	memcpy(&c, big, r >= (ssize_t)sizeof(c) ? sizeof(c) : 0);

	if (r == 0) {
		fprintf(stderr, "%s: rank %d: timeout waiting for control %#x\n",
			tp_name(tp->proto), tp->rank, type);
		return -1;
	}
	if (r != sizeof(c) || c.type != type) {
		fprintf(stderr, "%s: rank %d: unexpected message (%zd bytes, type %#x) waiting for %#x\n",
			tp_name(tp->proto), tp->rank, r, r >= 4 ? c.type : 0, type);
		return -1;
	}
	if (val)
		*val = c.val;
	return 0;
}

int tp_start(struct tp *tp, int timeout_ms)
{
	struct ctl c = { .type = CTL_HELLO, .rank = (uint32_t)tp->rank };
	int peer;

	if (tp->rank == 0) {
		for (int i = 1; i < tp->n; i++)
			if (expect(tp, CTL_HELLO, &peer, NULL, timeout_ms))
				return -1;
		c.type = CTL_GO;
		for (int i = 1; i < tp->n; i++)
			if (tp_send(tp, i, &c, sizeof(c)))
				return -1;
		return 0;
	}
	if (tp->proto == TP_WIND) {
		/* rank 0 may not be bound yet: sync sends until it answers */
		int r = tp_wind_reach(tp->fd, &tp->addr[0].sa,
				      tp_addr_len(&tp->addr[0]), &c, sizeof(c),
				      timeout_ms, NULL);

		if (r == -2) {
			fprintf(stderr, "wind: rank 0 never answered\n");
			return -1;
		}
		if (r) {
			perror("wind hello");
			return -1;
		}
	} else if (tp_send(tp, 0, &c, sizeof(c))) {
		return -1;
	}
	return expect(tp, CTL_GO, &peer, NULL, timeout_ms);
}

int tp_barrier(struct tp *tp, uint64_t val, uint64_t *sum)
{
	struct ctl c = { .type = CTL_BAR, .rank = (uint32_t)tp->rank, .val = val };
	uint64_t s = val, v;
	int peer;

	if (tp->rank == 0) {
		for (int i = 1; i < tp->n; i++) {
			if (expect(tp, CTL_BAR, &peer, &v, 600000))
				return -1;
			s += v;
		}
		if (sum)
			*sum = s;
		c.type = CTL_REL;
		for (int i = 1; i < tp->n; i++) {
			int r;

			if (tp->proto == TP_WIND)	/* acknowledged before we go on */
				r = sendto(tp->fd, &c, sizeof(c), MSG_WIND_SYNC,
					   &tp->addr[i].sa,
					   tp_addr_len(&tp->addr[i])) < 0 ? -1 : 0;
			else
				r = tp_send(tp, i, &c, sizeof(c));
			if (r)
				return -1;
		}
		return 0;
	}
	if (tp_send(tp, 0, &c, sizeof(c)))
		return -1;
	return expect(tp, CTL_REL, &peer, NULL, 600000);
}

void tp_close(struct tp *tp)
{
	if (tp->proto == TP_UDP)
		ru_close(tp);
	if (tp->tfd)
		for (int i = 0; i < tp->n; i++)
			if (tp->tfd[i] >= 0)
				close(tp->tfd[i]);
	close(tp->fd);
}
