// SPDX-License-Identifier: GPL-2.0
/*
 * The udp and udp-replyack backends: the S-DSM over the user-level
 * reliability layer of net/ (udp.c there), one UDP socket per node.
 *
 * Every message is one datagram with a sequence number per sender and
 * receiver.  The sender keeps a copy until it is acknowledged and
 * retransmits what is unacknowledged when the peer's timer runs out
 * (at least RTO_MIN, doubling up to RTO_MAX); the receiver takes each
 * message in sequence, drops duplicates, and acknowledges a message once
 * it has processed it (dsm_dispatch() returned), so that the ACK of a
 * diff means "applied".  A duplicate is acknowledged again.
 *
 * udp-replyack (Mocha): a request whose reply is coming (page fetch,
 * barrier arrival, lock request) is not acknowledged; the reply, as every
 * message, carries the ACK of what its sender processed, and so
 * acknowledges the request.  The requester retransmits the request until
 * the reply (or, for a duplicate that meets a reply not yet due, a plain
 * ACK) arrives.  Replies themselves are acknowledged as any message.
 *
 * Page data is copied: the service thread receives a page into a buffer,
 * the application thread copies it into the page (dsm.c: fetch()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "tp.h"

#define RTO_MIN_NS	50000000ull
#define RTO_MAX_NS	200000000ull
#define WINDOW		64	/* messages in flight per peer */
#define REPLY_ROOM	16	/* and more for the service thread's replies */

static struct tp *tp;
static tp_addr peer[DSM_MAX_NODES];

static void u_send(int dest, const struct dsm_msg *m, const void *data,
		   int flags, uint32_t reply_to)
{
	/* TP_SYNC: rank 0's last releases; u_finish() waits for their ACKs.
	 * reply_to: every message acknowledges what its sender processed.
	 */
	(void)reply_to;
	if (tp_sendv(tp, dest, m, sizeof(*m), data, m->len,
		     flags & TP_WANTREPLY ? TP_F_WANTREPLY : 0))
		dsm_fatal(errno == ENOBUFS ? "udp: no room for a reply" :
			  "udp: send", errno);
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

/* Every message acknowledged: diffs applied */
static void u_flush_wait(void)
{
	if (tp_flush(tp, dsm.cfg.timeout_s * 1000))
		dsm_fatal("udp: diffs not acknowledged by their home", ETIMEDOUT);
}

/* The net layer's service thread: each message, before its ACK */
static void deliver(void *arg, int src, const void *buf, size_t n)
{
	const struct dsm_msg *m = buf;

	(void)arg;
	if (n < sizeof(*m) || m->len != n - sizeof(*m) || m->src != src)
		return;
	dsm_dispatch(m, m + 1, m->len, 0);
}

static void give_up(void *arg, int rank)
{
	char what[128], a[DSM_ADDRSTRLEN];

	(void)arg;
	if (atomic_load(&dsm.finishing))
		return;		/* its messages are dropped */
	snprintf(what, sizeof(what), "udp: cannot reach rank %d at %s",
		 rank, dsm_addr_str(&peer[rank], a));
	dsm_fatal(what, ETIMEDOUT);
}

static void *u_service(void *arg)
{
	(void)arg;
	for (;;)
		if (tp_poll(tp, 10) && errno != EINTR)
			dsm_fatal("udp: poll", errno);
	return NULL;
}

static void u_init(void)
{
	struct tp_opts o = {
		.window = WINDOW,
		.reserve = REPLY_ROOM,
		.frag = DSM_MAX_MSG,		/* one datagram a message */
		.ack_every = 1,
		.rto_min_ns = RTO_MIN_NS,
		.rto_max_ns = RTO_MAX_NS,
		.rto_init_ns = RTO_MIN_NS,
		.give_up_ns = (uint64_t)dsm.cfg.timeout_s * 1000000000ull,
		.piggyback = dsm.replyack,
		.dual_stack = true,
		.threaded = true,
		.deliver = deliver,
		.give_up = give_up,
		.syscalls = &dsm.syscalls,
		.datagrams = &dsm.messages,
	};
	int i;

	if (getenv("DSM_UDP_DROP"))
		o.drop_pct = atoi(getenv("DSM_UDP_DROP"));
	for (i = 0; i < dsm.cfg.nodes; i++) {
		struct sockaddr_storage ss;
		unsigned int len = dsm_peer_addr(i, &ss);

		memcpy(&peer[i], &ss, len);
		/*
		 * A list mixing the families: a socket bound to an IPv4 (or
		 * IPv6) address reaches only that family, so bind the
		 * wildcard (messages name their sender's rank, not its
		 * address)
		 */
		if (dsm_family() == AF_INET6 &&
		    dsm.cfg.addr[i].ss_family == AF_INET)
			o.bind_any = true;
	}
	tp = tp_open_opts(TP_UDP, dsm.cfg.rank, dsm.cfg.nodes, peer,
			  dsm.cfg.port, &o);
	if (!tp)
		dsm_fatal("udp: cannot open the socket", errno);
}

static uint64_t u_retransmissions(void)
{
	return tp_retrans(tp);
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
		unsigned int left = tp_unacked(tp);

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
