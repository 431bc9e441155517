// SPDX-License-Identifier: GPL-2.0
/*
 * The udp and udp-replyack backends: the user-level reliable layer of
 * JIAJIA and Mocha over one UDP socket per node.
 *
 * Every message carries a sequence number (per sender and receiver).  The
 * sender keeps a copy until it is acknowledged and retransmits it when the
 * timer (RTO_MIN doubling up to RTO_MAX) runs out; the receiver drops
 * duplicates (a window of 1024 sequence numbers per sender) and
 * acknowledges every message once it has processed it, so that the ACK of
 * a diff means "applied".  A duplicate is acknowledged again.
 *
 * udp-replyack (Mocha): a request whose reply is coming (page fetch,
 * barrier arrival, lock request) is not acknowledged; the reply carries
 * the request's sequence number and acknowledges it.  The requester
 * retransmits the request until the reply (or, for a duplicate that meets
 * a reply not yet due, an explicit ACK) arrives.  Replies themselves are
 * acknowledged as any message.
 *
 * Page data is copied: the service thread receives a page into a buffer,
 * the application thread copies it into the page (dsm.c: fetch()).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define UDP_MAGIC	0x44534d55u	/* "DSMU" */
#define RTO_MIN		0.050
#define RTO_MAX		0.200
#define NSLOTS		512
#define APP_SLOTS	(NSLOTS - 4 * DSM_MAX_NODES)	/* the rest: replies */
#define RXWIN		1024

enum { U_DATA = 1, U_ACK = 2 };
#define UF_WANTREPLY	0x1	/* replyack: the reply will acknowledge it */
#define UF_ACKS		0x2	/* replyack: ack acknowledges a request */

struct udp_hdr {
	uint32_t magic;
	uint16_t src;
	uint8_t kind;
	uint8_t flags;
	uint32_t seq;
	uint32_t ack;
};

#define MAX_DGRAM	(sizeof(struct udp_hdr) + DSM_MAX_MSG)

struct slot {
	int used;
	int app;		/* sent by the application thread */
	int dest;
	uint32_t seq;
	size_t len;
	double first, deadline, rto;
	char buf[MAX_DGRAM];
};

static int fd = -1;
/* sockaddr_in, or sockaddr_in6 when a rank's address is IPv6 (dsm_family) */
static struct sockaddr_storage peer[DSM_MAX_NODES];
static socklen_t peer_len;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct slot *slots;
static int used_slots, app_inflight;
static uint32_t next_seq[DSM_MAX_NODES];
static struct {
	uint32_t next;			/* every seq before it was seen */
	uint64_t bits[RXWIN / 64];	/* seq s seen: bit s % RXWIN */
} rx[DSM_MAX_NODES];
static atomic_uint_fast64_t retrans;
static _Thread_local int in_service;
static int drop_pct;			/* DSM_UDP_DROP=PCT: testing */
static _Atomic unsigned int drop_state = 1;

static void xmit(int dest, const void *buf, size_t len)
{
	if (drop_pct) {		/* a lossy network without netem */
		unsigned int x = atomic_fetch_add(&drop_state, 0x9e3779b9u);

		x ^= x >> 15;
		x *= 0x2c1b3c6du;
		x ^= x >> 12;
		if (x % 100 < (unsigned int)drop_pct)
			return;
	}
	/* a lost datagram is what the retransmission is for */
	DSM_SYS(sendto(fd, buf, len, 0, (const struct sockaddr *)&peer[dest],
		       peer_len));
}

static void send_ack(int dest, uint32_t seq)
{
	struct udp_hdr h = { .magic = UDP_MAGIC, .src = (uint16_t)dsm.cfg.rank,
			     .kind = U_ACK, .seq = seq };

	xmit(dest, &h, sizeof(h));
	atomic_fetch_add(&dsm.messages, 1);
}

static int slot_free(void *arg)
{
	int ok;

	(void)arg;
	pthread_mutex_lock(&mu);
	ok = app_inflight < APP_SLOTS && used_slots < NSLOTS;
	pthread_mutex_unlock(&mu);
	return ok;
}

static void u_send(int dest, const struct dsm_msg *m, const void *data,
		   int flags, uint32_t reply_to)
{
	struct udp_hdr h = { .magic = UDP_MAGIC, .src = (uint16_t)dsm.cfg.rank,
			     .kind = U_DATA };
	struct slot *s = NULL;
	int i;

	/* TP_SYNC: rank 0's last releases; u_finish() waits for their ACKs */
	if (dsm.replyack) {
		if (flags & TP_WANTREPLY)
			h.flags |= UF_WANTREPLY;
		if (reply_to) {
			h.flags |= UF_ACKS;
			h.ack = reply_to;
		}
	}
	for (;;) {
		pthread_mutex_lock(&mu);
		if (used_slots < NSLOTS && (in_service || app_inflight < APP_SLOTS))
			break;
		pthread_mutex_unlock(&mu);
		if (in_service)
			dsm_fatal("udp: no room for a reply", ENOBUFS);
		dsm_wait(slot_free, NULL, "udp: messages not acknowledged");
	}
	for (i = 0; i < NSLOTS; i++)
		if (!slots[i].used) {
			s = &slots[i];
			break;
		}
	h.seq = ++next_seq[dest];
	s->used = 1;
	s->app = !in_service;
	s->dest = dest;
	s->seq = h.seq;
	s->len = sizeof(h) + sizeof(*m) + m->len;
	memcpy(s->buf, &h, sizeof(h));
	memcpy(s->buf + sizeof(h), m, sizeof(*m));
	if (m->len)
		memcpy(s->buf + sizeof(h) + sizeof(*m), data, m->len);
	s->first = dsm_now();
	s->rto = RTO_MIN;
	s->deadline = s->first + s->rto;
	used_slots++;
	if (s->app)
		app_inflight++;
	xmit(dest, s->buf, s->len);
	pthread_mutex_unlock(&mu);
	atomic_fetch_add(&dsm.messages, 1);
}

static void u_send_page(int dest, uint32_t page, uint32_t reply_to)
{
	struct dsm_msg m = { .type = DSM_FETCH_REP, .src = (uint16_t)dsm.cfg.rank,
			     .arg0 = page, .len = DSM_PAGE };

	u_send(dest, &m, dsm.base + (size_t)page * DSM_PAGE, 0, reply_to);
}

static void u_send_diff(int home, uint32_t page, const void *diff,
			size_t len, int last)
{
	struct dsm_msg m = { .type = DSM_DIFF, .src = (uint16_t)dsm.cfg.rank,
			     .arg0 = page, .len = (uint32_t)len };

	(void)last;
	u_send(home, &m, diff, 0, 0);
}

static int all_acked(void *arg)
{
	int ok;

	(void)arg;
	pthread_mutex_lock(&mu);
	ok = app_inflight == 0;
	pthread_mutex_unlock(&mu);
	return ok;
}

/* Every message of the application thread acknowledged: diffs applied */
static void u_flush_wait(void)
{
	dsm_wait(all_acked, NULL, "udp: diffs not acknowledged by their home");
}

static void acked(int src, uint32_t seq)
{
	int i;

	pthread_mutex_lock(&mu);
	for (i = 0; i < NSLOTS; i++) {
		struct slot *s = &slots[i];

		if (s->used && s->dest == src && s->seq == seq) {
			s->used = 0;
			used_slots--;
			if (s->app)
				app_inflight--;
			break;
		}
	}
	pthread_mutex_unlock(&mu);
	dsm_wake();
}

/* 1: seq from src is new (and now marked), 0: duplicate, -1: too far */
static int rx_new(int src, uint32_t seq)
{
	uint32_t off = seq - rx[src].next;

	if ((int32_t)off < 0)
		return 0;
	if (off >= RXWIN)
		return -1;
	if (rx[src].bits[(seq % RXWIN) / 64] & (1ull << (seq % 64)))
		return 0;
	rx[src].bits[(seq % RXWIN) / 64] |= 1ull << (seq % 64);
	while (rx[src].bits[(rx[src].next % RXWIN) / 64] &
	       (1ull << (rx[src].next % 64))) {
		rx[src].bits[(rx[src].next % RXWIN) / 64] &=
			~(1ull << (rx[src].next % 64));
		rx[src].next++;
	}
	return 1;
}

static void handle(const char *buf, size_t n)
{
	const struct udp_hdr *h = (const void *)buf;
	const struct dsm_msg *m = (const void *)(buf + sizeof(*h));
	int src, r;

	if (n < sizeof(*h) || h->magic != UDP_MAGIC || h->src >= dsm.cfg.nodes)
		return;
	src = h->src;
	if (h->kind == U_ACK) {
		acked(src, h->seq);
		return;
	}
	if (h->kind != U_DATA || n < sizeof(*h) + sizeof(*m) ||
	    m->len != n - sizeof(*h) - sizeof(*m) || m->src != src)
		return;
	if (h->flags & UF_ACKS)
		acked(src, h->ack);	/* the reply acknowledges the request */
	r = rx_new(src, h->seq);
	if (r < 0)
		return;			/* beyond the window: it will come again */
	if (r == 0) {
		send_ack(src, h->seq);	/* our ACK was lost, or reply not due */
		return;
	}
	dsm_dispatch(m, m + 1, m->len, h->seq);
	if (!(h->flags & UF_WANTREPLY))
		send_ack(src, h->seq);
}

static void retransmit(void)
{
	double now = dsm_now();
	int i;

	pthread_mutex_lock(&mu);
	for (i = 0; i < NSLOTS; i++) {
		struct slot *s = &slots[i];

		if (!s->used || s->deadline > now)
			continue;
		if (now - s->first > dsm.cfg.timeout_s) {
			char what[128], a[DSM_ADDRSTRLEN];

			if (atomic_load(&dsm.finishing)) {
				s->used = 0;
				used_slots--;
				if (s->app)
					app_inflight--;
				continue;
			}
			snprintf(what, sizeof(what), "udp: cannot reach rank %d at %s",
				 s->dest, dsm_addr_str(&peer[s->dest], a));
			dsm_fatal(what, ETIMEDOUT);
		}
		xmit(s->dest, s->buf, s->len);
		atomic_fetch_add(&retrans, 1);
		s->rto = s->rto * 2 > RTO_MAX ? RTO_MAX : s->rto * 2;
		s->deadline = now + s->rto;
	}
	pthread_mutex_unlock(&mu);
}

static void *u_service(void *arg)
{
	static union {
		struct udp_hdr h;
		char b[MAX_DGRAM + 1];
	} buf;
	ssize_t n;

	(void)arg;
	in_service = 1;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (DSM_SYS(poll(&p, 1, 10)) < 0 && errno != EINTR)
			dsm_fatal("udp: poll", errno);
		while ((n = DSM_SYS(recv(fd, buf.b, sizeof(buf.b),
					 MSG_DONTWAIT))) >= 0)
			handle(buf.b, (size_t)n);
		retransmit();
	}
	return NULL;
}

static void u_init(void)
{
	struct sockaddr_storage me;
	int i, zero = 0, buf = 4 << 20;

	if (getenv("DSM_UDP_DROP"))
		drop_pct = atoi(getenv("DSM_UDP_DROP"));
	drop_state = 1 + (unsigned int)dsm.cfg.rank * 7919u;
	slots = calloc(NSLOTS, sizeof(*slots));
	if (!slots)
		dsm_fatal("out of memory", ENOMEM);
	fd = socket(dsm_family(), SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		dsm_fatal("udp: socket", errno);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof(buf)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	for (i = 0; i < dsm.cfg.nodes; i++) {
		peer_len = dsm_peer_addr(i, &peer[i]);
		rx[i].next = 1;
	}
	/* our own address: several ranks may share a host (127.0.0.x) */
	me = peer[dsm.cfg.rank];
	if (dsm_family() == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&me;

		/* dual stack: an IPv4 rank among IPv6 ones is v4-mapped */
		if (setsockopt(fd, SOL_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)))
			dsm_fatal("udp: IPV6_V6ONLY 0", errno);
		/*
		 * A list mixing the families: a socket bound to an IPv4 (or
		 * IPv6) address reaches only that family, so bind the
		 * wildcard (messages name their sender's rank, not its
		 * address)
		 */
		for (i = 0; i < dsm.cfg.nodes; i++)
			if (dsm.cfg.addr[i].ss_family == AF_INET)
				s6->sin6_addr = in6addr_any;
	}
	if (bind(fd, (struct sockaddr *)&me, peer_len))
		dsm_fatal("udp: bind", errno);
}

static uint64_t u_retransmissions(void)
{
	return atomic_load(&retrans);
}

static void u_finish(void)
{
	double end = dsm_now() + 2.0;
	struct timespec ts = { 0, 20 * 1000000L };

	/*
	 * Rank 0: its last releases acknowledged (bounded: a rank that got
	 * its release and left may have lost its ACK).  The others stay a
	 * moment to acknowledge a release sent again.
	 */
	for (;;) {
		int left;

		pthread_mutex_lock(&mu);
		left = used_slots;
		pthread_mutex_unlock(&mu);
		if ((!left && dsm.cfg.rank == 0) || dsm_now() > end)
			break;
		if (!left && dsm_now() > end - 1.7)
			break;
		DSM_SYS(nanosleep(&ts, NULL));
	}
}

const struct dsm_transport dsm_tp_udp = {
	.name = "udp",
	.init = u_init,
	.send = u_send,
	.send_page = u_send_page,
	.send_diff = u_send_diff,
	.flush_wait = u_flush_wait,
	.service = u_service,
	.retransmissions = u_retransmissions,
	.finish = u_finish,
};
