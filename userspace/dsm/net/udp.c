// SPDX-License-Identifier: GPL-2.0
/*
 * tp over udp: the user-level reliability layer (see tp.h).
 *
 * Per peer, every fragment has a sequence number; the sender keeps it in
 * its window until a cumulative ACK covers it and, when the peer's timer
 * runs out, sends every unacknowledged one again (Go-Back-N; the timeout
 * from the RTT of fragments sent once, Karn, doubling on expiry).  The
 * receiver takes only the next fragment in sequence; anything else (a
 * duplicate, or one after a gap) makes it ACK again what it has.  A
 * message's last fragment is ACKed once the message was delivered.
 * With o.piggyback every data fragment carries the same cumulative ACK
 * and a message sent TP_F_WANTREPLY is not ACKed on its own: the reply
 * does it (a duplicate of it, as anything out of sequence, still gets a
 * plain ACK).
 *
 * Threads: tp->mu guards the windows and the statistics.  The one
 * thread in ru_pump() (tp_poll()) alone receives; it lets the lock go
 * while o.deliver runs, which may send.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "tp-internal.h"

/* The tp whose ru_pump() this thread is in */
static _Thread_local const struct tp *in_pump;

/* Under tp->mu.  fresh: not a retransmission (counted in o.datagrams) */
static void ru_xmit(struct tp *tp, int peer, const void *buf, size_t len,
		    bool fresh)
{
	if (fresh && tp->o.datagrams)
		atomic_fetch_add_explicit(tp->o.datagrams, 1,
					  memory_order_relaxed);
	tp->st.pkts_out++;
	if (tp->o.drop_pct) {	/* a lossy network without netem */
		unsigned int x = tp->drop_state += 0x9e3779b9u;

		x ^= x >> 15;
		x *= 0x2c1b3c6du;
		x ^= x >> 12;
		if (x % 100 < (unsigned int)tp->o.drop_pct)
			return;
	}
	while (TP_SYS(tp, sendto(tp->fd, buf, len, 0, &tp->addr[peer].sa,
				 tp_addr_len(&tp->addr[peer]))) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == ENOBUFS || errno == EAGAIN || errno == ECONNREFUSED)
			break;	/* as a loss: retransmitted later */
		perror("udp sendto");
		break;
	}
}

static void ru_ack(struct tp *tp, int peer)
{
	struct ru_hdr h = { .type = RU_ACK, .src = (uint16_t)tp->rank,
			    .seq = tp->ru[peer].rcv_done };

	ru_xmit(tp, peer, &h, sizeof(h), true);
	tp->st.acks_out++;
}

/* A cumulative ACK from p: every fragment before acked came */
static void ru_acked(struct tp *tp, struct ru_peer *p, uint32_t acked)
{
	struct ru_pkt *k;

	if ((int32_t)(acked - p->snd_una) <= 0 ||
	    (int32_t)(acked - p->snd_nxt) > 0)
		return;
	/* RTT from the newest acked fragment sent once (Karn) */
	k = &p->win[(acked - 1) % tp->slots];
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
	if (p->rto < tp->o.rto_min_ns)
		p->rto = tp->o.rto_min_ns;
	if (p->rto > tp->o.rto_max_ns)
		p->rto = tp->o.rto_max_ns;
	p->snd_una = acked;
	p->deadline = p->snd_una != p->snd_nxt ? now_ns() + p->rto : 0;
	if (tp->o.threaded)
		pthread_cond_broadcast(&tp->acked);
}

/* One datagram, under tp->mu (let go while o.deliver runs) */
static void ru_input(struct tp *tp, const unsigned char *buf, size_t len)
{
	const void *m;
	struct ru_peer *p;
	struct ru_hdr h;
	size_t dl, ml;
	bool single;
	int peer;

	if (len < sizeof(h))
		return;
	memcpy(&h, buf, sizeof(h));
	peer = h.src;
	if (peer >= tp->n || peer == tp->rank)
		return;
	p = &tp->ru[peer];
	if (h.type == RU_ACK) {
		ru_acked(tp, p, h.seq);
		return;
	}
	if (h.type != RU_DATA)
		return;
	if (tp->o.piggyback && (h.flags & RU_F_ACK))
		ru_acked(tp, p, h.ack);
	if (h.seq != p->rcv_nxt) {	/* duplicate or gap: Go-Back-N */
		ru_ack(tp, peer);
		return;
	}
	dl = len - sizeof(h);
	single = h.off == 0 && h.last;	/* no copy to reassemble */
	if (h.off == 0) {
		free(p->rmsg);
		p->rmsg = single ? NULL : malloc(h.msglen ? h.msglen : 1);
		p->rlen = h.msglen;
		p->rgot = 0;
	}
	if (single ? dl != h.msglen :
	    !p->rmsg || h.off != p->rgot || h.off + dl > p->rlen) {
		fprintf(stderr, "udp: bad fragment from %d\n", peer);
		return;
	}
	p->rcv_nxt++;
	if (!h.last) {
		memcpy(p->rmsg + h.off, buf + sizeof(h), dl);
		p->rgot += (uint32_t)dl;
		p->rcv_done = p->rcv_nxt;
		if (p->rcv_nxt % tp->o.ack_every == 0)
			ru_ack(tp, peer);
		return;
	}
	if (single) {
		m = buf + sizeof(h);
		ml = dl;
	} else {
		memcpy(p->rmsg + h.off, buf + sizeof(h), dl);
		m = p->rmsg;
		ml = p->rlen;
	}
	/* a request: its reply, sent while it is delivered, ACKs it */
	if (tp->o.piggyback && (h.flags & RU_F_WANTREPLY))
		p->rcv_done = p->rcv_nxt;
	if (tp->o.deliver) {
		pthread_mutex_unlock(&tp->mu);
		tp->o.deliver(tp->o.arg, peer, m, ml);
		pthread_mutex_lock(&tp->mu);
	} else {
		qput(&tp->rq, peer, m, ml);
	}
	free(p->rmsg);
	p->rmsg = NULL;
	p->rcv_done = p->rcv_nxt;
	if (!(tp->o.piggyback && (h.flags & RU_F_WANTREPLY)))
		ru_ack(tp, peer);
}

/* Under tp->mu: retransmit what is due, give up a peer silent too long */
static void ru_timers(struct tp *tp)
{
	uint64_t now = now_ns();

	for (int i = 0; i < tp->n; i++) {
		struct ru_peer *p = &tp->ru[i];

		if (!p->deadline || now < p->deadline)
			continue;
		if (tp->o.give_up_ns &&
		    now - p->win[p->snd_una % tp->slots].first > tp->o.give_up_ns) {
			p->snd_una = p->snd_nxt;
			p->deadline = 0;
			if (tp->o.threaded)
				pthread_cond_broadcast(&tp->acked);
			if (tp->o.give_up) {
				pthread_mutex_unlock(&tp->mu);
				tp->o.give_up(tp->o.arg, i);
				pthread_mutex_lock(&tp->mu);
			}
			continue;
		}
		for (uint32_t s = p->snd_una; s != p->snd_nxt; s++) {
			struct ru_pkt *k = &p->win[s % tp->slots];

			k->sent = 0;
			ru_xmit(tp, i, k->buf, k->len, false);
			tp->st.retrans++;
		}
		p->rto = p->rto * 2 > tp->o.rto_max_ns ? tp->o.rto_max_ns : p->rto * 2;
		p->deadline = now + p->rto;
	}
}

/* Wait up to timeout_ms for datagrams, take them all, run the timers. */
int ru_pump(struct tp *tp, int timeout_ms)
{
	const struct tp *outer = in_pump;
	struct pollfd pfd = { .fd = tp->fd, .events = POLLIN };
	uint64_t now = now_ns(), next = 0;
	int t = timeout_ms;

	pthread_mutex_lock(&tp->mu);
	for (int i = 0; i < tp->n; i++)
		if (tp->ru[i].deadline && (!next || tp->ru[i].deadline < next))
			next = tp->ru[i].deadline;
	pthread_mutex_unlock(&tp->mu);
	if (next) {
		int64_t d = next > now ? (int64_t)(next - now + 999999) / 1000000 : 0;

		if (t < 0 || d < t)
			t = (int)d;
	}
	if (TP_SYS(tp, poll(&pfd, 1, t)) < 0 && errno != EINTR)
		return -1;
	in_pump = tp;
	pthread_mutex_lock(&tp->mu);
	for (;;) {
		ssize_t r = TP_SYS(tp, recv(tp->fd, tp->scratch,
					    sizeof(struct ru_hdr) + tp->o.frag,
					    MSG_DONTWAIT));

		if (r < 0) {
			if (errno == EINTR || errno == ECONNREFUSED)
				continue;
			break;
		}
		ru_input(tp, tp->scratch, (size_t)r);
	}
	ru_timers(tp);
	pthread_mutex_unlock(&tp->mu);
	in_pump = outer;
	return 0;
}

/* len bytes at off of the message hdr + data, into to */
static void gather(unsigned char *to, const void *hdr, size_t hdr_len,
		   const void *data, size_t off, size_t len)
{
	if (off < hdr_len) {
		size_t n = hdr_len - off < len ? hdr_len - off : len;

		memcpy(to, (const unsigned char *)hdr + off, n);
		to += n;
		off += n;
		len -= n;
	}
	if (len)
		memcpy(to, (const unsigned char *)data + (off - hdr_len), len);
}

int ru_send(struct tp *tp, int peer, const void *hdr, size_t hdr_len,
	    const void *data, size_t data_len, unsigned int flags)
{
	struct ru_peer *p = &tp->ru[peer];
	size_t len = hdr_len + data_len, off = 0;
	bool pumping = in_pump == tp;
	unsigned int room = tp->o.window + (pumping ? tp->o.reserve : 0);

	pthread_mutex_lock(&tp->mu);
	do {
		size_t fl = len - off > tp->o.frag ? tp->o.frag : len - off;
		struct ru_hdr h = { .type = RU_DATA, .last = off + fl == len,
				    .src = (uint16_t)tp->rank,
				    .msglen = (uint32_t)len, .off = (uint32_t)off };
		struct ru_pkt *k;

		while (p->snd_nxt - p->snd_una >= room) {
			if (pumping) {	/* nobody else takes the ACKs */
				pthread_mutex_unlock(&tp->mu);
				errno = ENOBUFS;
				return -1;
			}
			if (tp->o.threaded) {
				pthread_cond_wait(&tp->acked, &tp->mu);
				continue;
			}
			pthread_mutex_unlock(&tp->mu);
			if (ru_pump(tp, -1))
				return -1;
			pthread_mutex_lock(&tp->mu);
		}
		k = &p->win[p->snd_nxt % tp->slots];
		if (!k->buf) {
			k->buf = malloc(sizeof(struct ru_hdr) + tp->o.frag);
			if (!k->buf) {
				pthread_mutex_unlock(&tp->mu);
				return -1;
			}
		}
		h.seq = p->snd_nxt;
		if (tp->o.piggyback) {
			h.flags |= RU_F_ACK;
			h.ack = p->rcv_done;
			if (h.last && (flags & TP_F_WANTREPLY))
				h.flags |= RU_F_WANTREPLY;
		}
		memcpy(k->buf, &h, sizeof(h));
		gather(k->buf + sizeof(h), hdr, hdr_len, data, off, fl);
		k->len = sizeof(h) + fl;
		k->sent = k->first = now_ns();
		p->snd_nxt++;
		if (!p->deadline)
			p->deadline = k->sent + p->rto;
		ru_xmit(tp, peer, k->buf, k->len, true);
		off += fl;
	} while (off < len);
	tp->st.msgs_out++;
	pthread_mutex_unlock(&tp->mu);
	return 0;
}

unsigned int tp_unacked(struct tp *tp)
{
	unsigned int n = 0;

	if (tp->proto != TP_UDP)
		return 0;
	pthread_mutex_lock(&tp->mu);
	for (int i = 0; i < tp->n; i++)
		n += tp->ru[i].snd_nxt - tp->ru[i].snd_una;
	pthread_mutex_unlock(&tp->mu);
	return n;
}

int ru_open(struct tp *tp)
{
	tp->slots = tp->o.window + tp->o.reserve;
	tp->drop_state = 1 + (unsigned int)tp->rank * 7919u;
	tp->ru = calloc((size_t)tp->n, sizeof(*tp->ru));
	if (!tp->ru || pthread_mutex_init(&tp->mu, NULL) ||
	    pthread_cond_init(&tp->acked, NULL))
		return -1;
	for (int i = 0; i < tp->n; i++) {
		tp->ru[i].rto = tp->o.rto_init_ns;	/* no sample yet */
		tp->ru[i].win = calloc(tp->slots, sizeof(*tp->ru[i].win));
		if (!tp->ru[i].win)
			return -1;
	}
	return 0;
}

int tp_flush(struct tp *tp, int timeout_ms)
{
	uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000ull;
	struct timespec ts;

	if (!tp->o.threaded) {
		while (tp_unacked(tp)) {
			if (now_ns() > end)
				return -1;
			ru_pump(tp, 10);
		}
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&tp->mu);
	for (;;) {
		unsigned int n = 0;

		for (int i = 0; i < tp->n; i++)
			n += tp->ru[i].snd_nxt - tp->ru[i].snd_una;
		if (!n)
			break;
		if (pthread_cond_timedwait(&tp->acked, &tp->mu, &ts) == ETIMEDOUT) {
			pthread_mutex_unlock(&tp->mu);
			return -1;
		}
	}
	pthread_mutex_unlock(&tp->mu);
	return 0;
}

/* Wait up to 3 s for the ACKs of what we sent */
void ru_close(struct tp *tp)
{
	tp_flush(tp, 3000);
}
