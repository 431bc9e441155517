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
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/wind.h>

#include "tp.h"

#define CTL_HELLO	0xF001u
#define CTL_GO		0xF002u
#define CTL_BAR		0xF003u
#define CTL_REL		0xF004u

struct ctl {
	uint32_t type;
	uint32_t rank;
	uint64_t val;
};

/* --- user-level reliability for udp ------------------------------------ */

#define RU_WIN		10		/* fragments in flight per peer (DSE) */
#define RU_ACK_EVERY	5
#define RU_FRAG		8192		/* payload per datagram */
#define RU_RTO_MIN	20000000ull	/* ns */
#define RU_RTO_MAX	1000000000ull

enum { RU_DATA = 1, RU_ACK = 2 };

struct ru_hdr {
	uint8_t type;
	uint8_t last;			/* last fragment of its message */
	uint16_t src;			/* sender's rank */
	uint32_t seq;			/* DATA: fragment's; ACK: next expected */
	uint32_t msglen;
	uint32_t off;
};

struct ru_pkt {
	size_t len;
	uint64_t sent;			/* ns; 0 once retransmitted (Karn) */
	unsigned char buf[sizeof(struct ru_hdr) + RU_FRAG];
};

struct ru_peer {
	uint32_t snd_una, snd_nxt;
	struct ru_pkt win[RU_WIN];	/* slot seq % RU_WIN */
	uint64_t deadline;		/* retransmit all unacked at */
	uint64_t srtt, rttvar, rto;
	uint32_t rcv_nxt;
	unsigned char *rmsg;		/* message being reassembled */
	uint32_t rlen, rgot;
};

/* --- messages waiting for tp_recv -------------------------------------- */

struct msg {
	struct msg *next;
	int peer;
	size_t len;
	unsigned char data[];
};

struct tcp_rx {
	unsigned char *buf;
	size_t len, cap;
};

struct tp {
	enum tp_proto proto;
	int rank, n;
	tp_addr *addr;
	int fd;				/* wind, udp socket; tcp listener */
	int *tfd;			/* tcp: per peer */
	struct tcp_rx *trx;
	struct ru_peer *ru;
	struct msg *qh, *qt;		/* received by the udp/tcp pumps */
	struct q { struct msg *h, *t; } pend, ctlq; /* set aside */
	struct tp_stats st;
	uint64_t retrans0;
	unsigned char *scratch;
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
	default:
		return tp->st.retrans;
	}
}

const struct tp_stats *tp_stats(struct tp *tp)
{
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

static void qput(struct q *q, int peer, const void *buf, size_t len)
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

static void enqueue(struct tp *tp, int peer, const void *buf, size_t len)
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
	if (tp->qt)
		tp->qt->next = m;
	else
		tp->qh = m;
	tp->qt = m;
}

static void bufsize(int fd, int bytes)
{
	/* FORCE as root (the guests), else what the sysctl caps allow */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bytes, sizeof(bytes)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes));
}

/* --- udp ---------------------------------------------------------------- */

static void ru_xmit(struct tp *tp, int peer, const void *buf, size_t len)
{
	while (sendto(tp->fd, buf, len, 0, &tp->addr[peer].sa,
		      tp_addr_len(&tp->addr[peer])) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == ENOBUFS || errno == EAGAIN || errno == ECONNREFUSED)
			break;	/* as a loss: retransmitted later */
		perror("udp sendto");
		break;
	}
	tp->st.pkts_out++;
}

static void ru_ack(struct tp *tp, int peer)
{
	struct ru_hdr h = { .type = RU_ACK, .src = (uint16_t)tp->rank,
			    .seq = tp->ru[peer].rcv_nxt };

	ru_xmit(tp, peer, &h, sizeof(h));
	tp->st.acks_out++;
}

static void ru_input(struct tp *tp, const unsigned char *buf, size_t len)
{
	struct ru_hdr h;
	struct ru_peer *p;
	int peer;

	if (len < sizeof(h))
		return;
	memcpy(&h, buf, sizeof(h));
	peer = h.src;
	if (peer >= tp->n || peer == tp->rank)
		return;
	p = &tp->ru[peer];
	if (h.type == RU_ACK) {
		uint32_t acked = h.seq;

		if ((int32_t)(acked - p->snd_una) <= 0 ||
		    (int32_t)(acked - p->snd_nxt) > 0)
			return;
		/* RTT from the newest acked fragment sent once (Karn) */
		struct ru_pkt *k = &p->win[(acked - 1) % RU_WIN];

		if (k->sent) {
			uint64_t r = now_ns() - k->sent;

			if (!p->srtt) {
				p->srtt = r;
				p->rttvar = r / 2;
			} else {
				uint64_t d = r > p->srtt ? r - p->srtt : p->srtt - r;

				p->rttvar = (3 * p->rttvar + d) / 4;
				p->srtt = (7 * p->srtt + r) / 8;
			}
		}
		p->rto = p->srtt + 4 * p->rttvar;
		if (p->rto < RU_RTO_MIN)
			p->rto = RU_RTO_MIN;
		if (p->rto > RU_RTO_MAX)
			p->rto = RU_RTO_MAX;
		p->snd_una = acked;
		p->deadline = p->snd_una != p->snd_nxt ? now_ns() + p->rto : 0;
		return;
	}
	if (h.type != RU_DATA)
		return;
	if (h.seq != p->rcv_nxt) {	/* duplicate or gap: Go-Back-N */
		ru_ack(tp, peer);
		return;
	}
	size_t dl = len - sizeof(h);

	if (h.off == 0) {
		free(p->rmsg);
		p->rmsg = malloc(h.msglen ? h.msglen : 1);
		p->rlen = h.msglen;
		p->rgot = 0;
	}
	if (!p->rmsg || h.off != p->rgot || h.off + dl > p->rlen) {
		fprintf(stderr, "udp: bad fragment from %d\n", peer);
		return;
	}
	memcpy(p->rmsg + h.off, buf + sizeof(h), dl);
	p->rgot += (uint32_t)dl;
	p->rcv_nxt++;
	if (h.last) {
		enqueue(tp, peer, p->rmsg, p->rlen);
		free(p->rmsg);
		p->rmsg = NULL;
		ru_ack(tp, peer);
	} else if (p->rcv_nxt % RU_ACK_EVERY == 0) {
		ru_ack(tp, peer);
	}
}

static void ru_timers(struct tp *tp)
{
	uint64_t now = now_ns();

	for (int i = 0; i < tp->n; i++) {
		struct ru_peer *p = &tp->ru[i];

		if (!p->deadline || now < p->deadline)
			continue;
		for (uint32_t s = p->snd_una; s != p->snd_nxt; s++) {
			struct ru_pkt *k = &p->win[s % RU_WIN];

			k->sent = 0;
			ru_xmit(tp, i, k->buf, k->len);
			tp->st.retrans++;
		}
		p->rto = p->rto * 2 > RU_RTO_MAX ? RU_RTO_MAX : p->rto * 2;
		p->deadline = now + p->rto;
	}
}

/* Wait up to timeout_ms for datagrams, take them all, run the timers. */
static int ru_pump(struct tp *tp, int timeout_ms)
{
	uint64_t now = now_ns(), next = 0;
	struct pollfd pfd = { .fd = tp->fd, .events = POLLIN };
	int t = timeout_ms;

	for (int i = 0; i < tp->n; i++)
		if (tp->ru[i].deadline && (!next || tp->ru[i].deadline < next))
			next = tp->ru[i].deadline;
	if (next) {
		int64_t d = next > now ? (int64_t)(next - now + 999999) / 1000000 : 0;

		if (t < 0 || d < t)
			t = (int)d;
	}
	if (poll(&pfd, 1, t) < 0 && errno != EINTR)
		return -1;
	for (;;) {
		ssize_t r = recv(tp->fd, tp->scratch, sizeof(struct ru_hdr) + RU_FRAG,
				 MSG_DONTWAIT);

		if (r < 0) {
			if (errno == EINTR || errno == ECONNREFUSED)
				continue;
			break;
		}
		ru_input(tp, tp->scratch, (size_t)r);
	}
	ru_timers(tp);
	return 0;
}

static int ru_send(struct tp *tp, int peer, const void *buf, size_t len)
{
	struct ru_peer *p = &tp->ru[peer];
	size_t off = 0;

	do {
		size_t fl = len - off > RU_FRAG ? RU_FRAG : len - off;

		while (p->snd_nxt - p->snd_una >= RU_WIN)
			if (ru_pump(tp, -1))
				return -1;
		struct ru_pkt *k = &p->win[p->snd_nxt % RU_WIN];
		struct ru_hdr h = { .type = RU_DATA, .last = off + fl == len,
				    .src = (uint16_t)tp->rank, .seq = p->snd_nxt,
				    .msglen = (uint32_t)len, .off = (uint32_t)off };

		memcpy(k->buf, &h, sizeof(h));
		memcpy(k->buf + sizeof(h), (const unsigned char *)buf + off, fl);
		k->len = sizeof(h) + fl;
		k->sent = now_ns();
		p->snd_nxt++;
		if (!p->deadline)
			p->deadline = k->sent + p->rto;
		ru_xmit(tp, peer, k->buf, k->len);
		off += fl;
	} while (off < len);
	return 0;
}

/* --- tcp ---------------------------------------------------------------- */

static int tcp_take(struct tp *tp, int peer)
{
	struct tcp_rx *x = &tp->trx[peer];

	for (;;) {
		if (x->cap - x->len < 65536) {
			size_t nc = x->cap ? x->cap * 2 : 131072;
			unsigned char *nb = realloc(x->buf, nc);

			if (!nb)
				return -1;
			x->buf = nb;
			x->cap = nc;
		}
		ssize_t r = read(tp->tfd[peer], x->buf + x->len, x->cap - x->len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			perror("tcp read");
			return -1;
		}
		if (r == 0) {
			close(tp->tfd[peer]);
			tp->tfd[peer] = -1;
			break;
		}
		x->len += (size_t)r;
	}
	size_t o = 0;

	while (x->len - o >= 4) {
		uint32_t ml;

		memcpy(&ml, x->buf + o, 4);
		if (x->len - o - 4 < ml)
			break;
		enqueue(tp, peer, x->buf + o + 4, ml);
		o += 4 + ml;
	}
	memmove(x->buf, x->buf + o, x->len - o);
	x->len -= o;
	return 0;
}

/* Poll every connection (and, if wfd >= 0, wfd for POLLOUT) */
static int tcp_pump(struct tp *tp, int wfd, int timeout_ms)
{
	struct pollfd pf[tp->n + 1];
	int map[tp->n + 1], k = 0;

	for (int i = 0; i < tp->n; i++) {
		if (tp->tfd[i] < 0)
			continue;
		pf[k].fd = tp->tfd[i];
		pf[k].events = POLLIN | (tp->tfd[i] == wfd ? POLLOUT : 0);
		map[k++] = i;
	}
	int r = poll(pf, (nfds_t)k, timeout_ms);

	if (r < 0)
		return errno == EINTR ? 0 : -1;
	for (int j = 0; j < k; j++)
		if ((pf[j].revents & (POLLIN | POLLHUP | POLLERR)) && tcp_take(tp, map[j]))
			return -1;
	return 0;
}

static int tcp_send(struct tp *tp, int peer, const void *buf, size_t len)
{
	uint32_t ml = (uint32_t)len;
	struct iovec iov[2] = { { &ml, 4 }, { (void *)buf, len } };
	size_t done = 0, total = len + 4;

	while (done < total) {
		struct iovec v[2];
		int nv = 0;
		size_t skip = done;

		for (int i = 0; i < 2; i++) {
			if (skip >= iov[i].iov_len) {
				skip -= iov[i].iov_len;
				continue;
			}
			v[nv].iov_base = (char *)iov[i].iov_base + skip;
			v[nv].iov_len = iov[i].iov_len - skip;
			skip = 0;
			nv++;
		}
		ssize_t w = writev(tp->tfd[peer], v, nv);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN) {
				perror("tcp write");
				return -1;
			}
			/* full: read what comes meanwhile (no deadlock) */
			if (tcp_pump(tp, tp->tfd[peer], 1000))
				return -1;
			continue;
		}
		done += (size_t)w;
	}
	return 0;
}

/*
 * Mesh forming gives up only after TCP_MESH_WAIT without progress: with
 * 60 processes under TCG a peer may start (and listen) minutes after us.
 */
#define TCP_MESH_WAIT	300000000000ull	/* ns */

static int tcp_mesh(struct tp *tp, uint16_t port)
{
	int one = 1;
	uint64_t end = now_ns() + TCP_MESH_WAIT;

	/* connect to every lower rank (which listens already or soon) */
	for (int j = 0; j < tp->rank; j++) {
		for (;;) {
			tp_addr me = tp->addr[tp->rank];
			int fd = socket(me.sa.sa_family, SOCK_STREAM, 0);

			tp_addr_set_port(&me, 0);
			if (fd < 0 || bind(fd, &me.sa, tp_addr_len(&me))) {
				perror("tcp socket");
				return -1;
			}
			tp_addr a = tp->addr[j];

			tp_addr_set_port(&a, port);
			if (!connect(fd, &a.sa, tp_addr_len(&a))) {
				uint32_t r = (uint32_t)tp->rank;

				if (write(fd, &r, 4) != 4) {
					perror("tcp write rank");
					return -1;
				}
				tp->tfd[j] = fd;
				end = now_ns() + TCP_MESH_WAIT;
				break;
			}
			int e = errno;

			close(fd);
			if (now_ns() > end) {
				fprintf(stderr, "tcp: rank %d: connect to rank %d: %s\n",
					tp->rank, j, strerror(e));
				return -1;
			}
			usleep(50000);
		}
	}
	/* accept every higher rank */
	for (int k = tp->rank + 1; k < tp->n; k++) {
		struct pollfd pfd = { .fd = tp->fd, .events = POLLIN };
		int pr = poll(&pfd, 1, (int)(TCP_MESH_WAIT / 1000000));
		uint32_t r;

		if (pr < 0 && errno == EINTR) {
			k--;
			continue;
		}
		if (pr <= 0) {
			fprintf(stderr, "tcp: rank %d: %d higher ranks never connected\n",
				tp->rank, tp->n - k);
			return -1;
		}
		int fd = accept(tp->fd, NULL, NULL);

		if (fd < 0 || read(fd, &r, 4) != 4 || r >= (uint32_t)tp->n ||
		    tp->tfd[r] >= 0) {
			perror("tcp accept");
			return -1;
		}
		tp->tfd[r] = fd;
	}
	for (int j = 0; j < tp->n; j++) {
		if (tp->tfd[j] < 0)
			continue;
		setsockopt(tp->tfd[j], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		fcntl(tp->tfd[j], F_SETFL, fcntl(tp->tfd[j], F_GETFL) | O_NONBLOCK);
	}
	return 0;
}

/* --- common ------------------------------------------------------------- */

struct tp *tp_open(enum tp_proto proto, int rank, int n,
		   const tp_addr *addrs, uint16_t port)
{
	struct tp *tp = calloc(1, sizeof(*tp));
	char name[INET6_ADDRSTRLEN] = "?";
	int one = 1, family;
	tp_addr me;

	if (!tp)
		return NULL;
	tp->proto = proto;
	tp->rank = rank;
	tp->n = n;
	tp->addr = calloc((size_t)n, sizeof(*tp->addr));
	tp->scratch = malloc(sizeof(struct ru_hdr) + RU_FRAG);
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
		tp->fd = socket(family, SOCK_WIND, 0);
		break;
	case TP_UDP:
		tp->fd = socket(family, SOCK_DGRAM, 0);
		break;
	case TP_TCP:
		tp->fd = socket(family, SOCK_STREAM, 0);
		setsockopt(tp->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		break;
	}
	if (tp->fd < 0) {
		fprintf(stderr, "%s socket: %s\n", tp_name(proto), strerror(errno));
		return NULL;
	}
	if (proto != TP_TCP)
		bufsize(tp->fd, 4 << 20);
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
	if (proto == TP_UDP) {
		tp->ru = calloc((size_t)n, sizeof(*tp->ru));
		if (!tp->ru)
			return NULL;
		for (int i = 0; i < n; i++)
			tp->ru[i].rto = RU_RTO_MIN * 5;	/* no sample yet */
	}
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
		r = ru_send(tp, peer, buf, len);
		break;
	case TP_TCP:
		r = tcp_send(tp, peer, buf, len);
		break;
	}
	if (!r)
		tp->st.msgs_out++;
	return r;
}

static ssize_t raw_recv(struct tp *tp, int *peer, void *buf, size_t max,
			int timeout_ms)
{
	uint64_t end = timeout_ms >= 0 ? now_ns() + (uint64_t)timeout_ms * 1000000ull : 0;

	for (;;) {
		if (tp->qh) {
			struct msg *m = tp->qh;
			ssize_t l = (ssize_t)m->len;

			tp->qh = m->next;
			if (!tp->qh)
				tp->qt = NULL;
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
		uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000ull;

		while (sendto(tp->fd, &c, sizeof(c), MSG_WIND_SYNC,
			      &tp->addr[0].sa, tp_addr_len(&tp->addr[0])) < 0) {
			if (errno != ECONNREFUSED && errno != ETIMEDOUT &&
			    errno != EINTR && errno != ECONNRESET) {
				perror("wind hello");
				return -1;
			}
			int e = 0;
			socklen_t el = sizeof(e);

			getsockopt(tp->fd, SOL_SOCKET, SO_ERROR, &e, &el);
			if (now_ns() > end) {
				fprintf(stderr, "wind: rank 0 never answered\n");
				return -1;
			}
			usleep(100000);
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
	if (tp->proto == TP_UDP) {
		uint64_t end = now_ns() + 3000000000ull;

		for (;;) {
			int busy = 0;

			for (int i = 0; i < tp->n; i++)
				busy |= tp->ru[i].snd_una != tp->ru[i].snd_nxt;
			if (!busy || now_ns() > end)
				break;
			ru_pump(tp, 10);
		}
	}
	if (tp->tfd)
		for (int i = 0; i < tp->n; i++)
			if (tp->tfd[i] >= 0)
				close(tp->tfd[i]);
	close(tp->fd);
}
