// SPDX-License-Identifier: GPL-2.0
/*
 * Per-peer timers and the sender's side of acknowledgments: the
 * retransmission timer (which is also the zero-window probe), the
 * delayed-ACK timer, RTT sampling, selective acknowledgment, fast
 * retransmission and the retry budget after which a peer is unreachable.
 *
 * An armed timer holds a reference on its peer.  A callback that finds
 * the socket owned by process context tries again a jiffy later.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <net/sock.h>

#include "protocol.h"
#include "trace.h"

static void peer_timer_arm(struct wind_peer *peer, struct timer_list *t,
			   unsigned long expires)
{
	if (!mod_timer(t, expires))
		wind_peer_hold(peer);
}

static void peer_timer_stop(struct wind_peer *peer, struct timer_list *t)
{
	if (del_timer(t))
		wind_peer_put(peer);
}

static u32 wind_now_us(void)
{
	return (u32)div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

static u32 rto_min_us(const struct wind_peer *peer)
{
	return WIND_PARAM(peer->sk, rto_min_ms) * USEC_PER_MSEC;
}

/* The sysctls are set one at a time: a ceiling below the floor is
 * taken as the floor (netlink refuses it outright).
 */
static u32 rto_max_us(const struct wind_peer *peer)
{
	return max_t(u32, WIND_PARAM(peer->sk, rto_max_ms) * USEC_PER_MSEC,
		     rto_min_us(peer));
}

/* The delayed-ACK delay; a one-jiffy timer may fire at once, so at least
 * a whole jiffy.
 */
static unsigned long delack_jiffies(const struct wind_peer *peer)
{
	return max(msecs_to_jiffies(WIND_PARAM(peer->sk, delack_ms)), 2UL);
}

/* Below this, a reordering window is timer noise. */
#define WIND_REO_WND_MIN_US	1000

/**
 * wind_rtx_timer_arm() - (re)start the retransmission timer from now
 * @peer: the peer, its socket locked
 *
 * While packets are in flight and no probe is out, the timer first fires
 * as a tail loss probe after two smoothed RTTs plus the peer's delayed
 * ACK time (the last packets of a burst may be lost with nothing behind
 * them to reveal it), then as the retransmission timeout.
 */
void wind_rtx_timer_arm(struct wind_peer *peer)
{
	unsigned long delay = usecs_to_jiffies(peer->rtt.rto_us) + 1;

	peer->pto_armed = 0;
	if (!peer->tlp_out && peer->rtt.srtt_us &&
	    peer->snd_una != peer->snd_nxt) {
		/* the peer's delayed ACK is due within delack_jiffies() */
		unsigned long pto = usecs_to_jiffies(2 * peer->rtt.srtt_us) +
				    delack_jiffies(peer) + 1;

		if (pto < delay) {
			delay = pto;
			peer->pto_armed = 1;
		}
	}
	peer_timer_arm(peer, &peer->rtx_timer, jiffies + delay);
}

/**
 * wind_rtx_timer_stop() - stop the retransmission timer
 * @peer: the peer, its socket locked
 */
void wind_rtx_timer_stop(struct wind_peer *peer)
{
	peer_timer_stop(peer, &peer->rtx_timer);
}

/**
 * wind_delack_timer_arm() - make sure an ACK goes out within delack_ms
 * @peer: the peer, its socket locked
 */
void wind_delack_timer_arm(struct wind_peer *peer)
{
	if (timer_pending(&peer->delack_timer))
		return;
	peer_timer_arm(peer, &peer->delack_timer,
		       jiffies + delack_jiffies(peer));
}

/**
 * wind_delack_timer_stop() - an ACK went out: no delayed one is owed
 * @peer: the peer, its socket locked
 */
void wind_delack_timer_stop(struct wind_peer *peer)
{
	peer_timer_stop(peer, &peer->delack_timer);
}

/**
 * wind_timers_shutdown() - stop both timers of a peer being removed
 * @peer: the peer, its socket locked, already WIND_PEER_DEAD
 *
 * A callback already running waits for the socket lock, then sees the
 * peer dead and only drops its reference.
 */
void wind_timers_shutdown(struct wind_peer *peer)
{
	peer_timer_stop(peer, &peer->rtx_timer);
	peer_timer_stop(peer, &peer->delack_timer);
}

/* Congestion control, Reno-like but deaf to isolated losses: the window
 * grows by slow start, then by one packet per window acknowledged, and is
 * halved (at most once per window) when RACK finds a burst of losses, as
 * an overflowing queue makes; a timeout takes it to WIND_CWND_MIN.
 * Random loss of a packet here and there, which says nothing about
 * congestion on a LAN, leaves it alone.
 */
static void cwnd_grow(struct wind_peer *peer, u32 acked)
{
	u32 old = peer->cwnd;

	if (!acked || wind_seq_before(peer->snd_una, peer->recover))
		return;
	if (peer->cwnd < peer->ssthresh) {
		peer->cwnd = min_t(u32, peer->cwnd + acked, WIND_CWND_MAX);
	} else {
		peer->cwnd_cnt += acked;
		if (peer->cwnd_cnt >= peer->cwnd) {
			peer->cwnd_cnt -= peer->cwnd;
			peer->cwnd = min_t(u32, peer->cwnd + 1, WIND_CWND_MAX);
		}
	}
	if (peer->cwnd != old)
		trace_wind_cwnd(peer, old, WIND_CWND_GROW);
}

static void cwnd_reduce(struct wind_peer *peer, bool timeout)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;
	u32 old = peer->cwnd;

	if (!timeout && wind_seq_before(peer->snd_una, peer->recover))
		return;
	peer->ssthresh = max_t(u32, in_flight / 2, WIND_CWND_MIN);
	peer->cwnd = timeout ? WIND_CWND_MIN : peer->ssthresh;
	peer->cwnd_cnt = 0;
	peer->recover = peer->snd_nxt;
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_CWND_CUTS);
	trace_wind_cwnd(peer, old, timeout ? WIND_CWND_TIMEOUT : WIND_CWND_LOSS);
}

static void retransmit(struct wind_peer *peer, struct sk_buff *skb, u8 flags,
		       enum wind_rtx_reason why)
{
	trace_wind_retransmit(peer, skb, why);
	WIND_SKB_CB(skb)->retransmitted = 1;
	peer->retransmits++;
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_RETRANSMITS);
	wind_xmit_skb(peer, skb, flags);
}

/* The last packet in flight, to probe with, or NULL. */
static struct sk_buff *last_in_flight(struct wind_peer *peer)
{
	struct sk_buff *skb = peer->send_head;

	if (peer->snd_una == peer->snd_nxt)
		return NULL;
	return skb ? skb_queue_prev(&peer->wq, skb) :
		     skb_peek_tail(&peer->wq);
}

/* The retransmission timeout: resend the oldest packet the peer has not
 * reported, asking for an ACK at once; its ACK shows what else is missing
 * and RACK resends that.  After a second timeout in a row the reports are
 * forgotten, as a receiver may have dropped what it reported.
 */
static void rtx_timeout(struct wind_peer *peer)
{
	struct sk_buff *skb;

	if (skb_queue_empty(&peer->wq))
		return;
	if (peer->pto_armed) {
		peer->pto_armed = 0;
		skb = last_in_flight(peer);
		if (skb) {
			peer->tlp_out = 1;
			WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_PROBES);
			retransmit(peer, skb, WIND_F_ACKREQ, WIND_RTX_PROBE);
		}
		wind_rtx_timer_arm(peer);
		return;
	}
	if (++peer->retries > WIND_PARAM(peer->sk, retries)) {
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_PEERS_UNREACHABLE);
		wind_peer_fail(peer, ETIMEDOUT);
		return;
	}
	wind_rtt_backoff(&peer->rtt, rto_max_us(peer));
	if (peer->snd_una != peer->snd_nxt)
		cwnd_reduce(peer, true);
	if (peer->snd_una == peer->snd_nxt) {
		/* nothing in flight: the window is shut, probe it */
		skb = peer->send_head;
		if (!skb)
			return;
		peer->send_head = skb_queue_is_last(&peer->wq, skb) ?
				  NULL : skb->next;
		peer->snd_nxt = WIND_SKB_CB(skb)->seq + 1;
		wind_xmit_skb(peer, skb, WIND_F_ACKREQ);
	} else {
		struct sk_buff *first = NULL;

		skb_queue_walk(&peer->wq, skb) {
			if (skb == peer->send_head)
				break;
			if (peer->retries > 1 && WIND_SKB_CB(skb)->sacked) {
				WIND_SKB_CB(skb)->sacked = 0;
				peer->sacked_out--;
			}
			if (!first && !WIND_SKB_CB(skb)->sacked)
				first = skb;
		}
		retransmit(peer, first ?: skb_peek(&peer->wq), WIND_F_ACKREQ,
			   WIND_RTX_TIMEOUT);
	}
	wind_rtx_timer_arm(peer);
}

/**
 * wind_rtx_now() - resend the oldest packet in flight at once
 * @peer: the peer, its socket locked
 *
 * For a peer that just proved its tag (a CHALLENGE answered): what it
 * dropped while it did not know us need not wait for a timeout.  Its
 * ACK, asked for at once, shows what else is missing; no retry is
 * counted and the window is not cut.
 */
void wind_rtx_now(struct wind_peer *peer)
{
	struct sk_buff *skb = skb_peek(&peer->wq);

	if (!skb || skb == peer->send_head)
		return;
	retransmit(peer, skb, WIND_F_ACKREQ, WIND_RTX_CHALLENGE);
	wind_rtx_timer_arm(peer);
}

static void delack_timeout(struct wind_peer *peer)
{
	if (peer->ack_pending || peer->nrefused)
		wind_send_ack(peer);
}

/* Run a peer timer's work under the socket lock, unless the peer is gone;
 * while a process owns the socket, try again a jiffy later.  Drops the
 * timer's reference.
 */
static void peer_timer_run(struct wind_peer *peer, struct timer_list *t,
			   void (*work)(struct wind_peer *peer))
{
	struct sock *sk = peer->sk;

	bh_lock_sock(sk);
	if (peer->state != WIND_PEER_DEAD) {
		if (sock_owned_by_user(sk))
			peer_timer_arm(peer, t, jiffies + 1);
		else
			work(peer);
	}
	bh_unlock_sock(sk);
	wind_peer_put(peer);
}

static void wind_rtx_timer(struct timer_list *t)
{
	struct wind_peer *peer = from_timer(peer, t, rtx_timer);

	peer_timer_run(peer, t, rtx_timeout);
}

static void wind_delack_timer(struct timer_list *t)
{
	struct wind_peer *peer = from_timer(peer, t, delack_timer);

	peer_timer_run(peer, t, delack_timeout);
}

/**
 * wind_timers_init() - set up a new peer's timers
 * @peer: the peer
 */
void wind_timers_init(struct wind_peer *peer)
{
	timer_setup(&peer->rtx_timer, wind_rtx_timer, 0);
	timer_setup(&peer->delack_timer, wind_delack_timer, 0);
}

static struct sk_buff *find_seq(struct wind_peer *peer, u32 seq)
{
	struct sk_buff *skb;

	skb_queue_walk(&peer->wq, skb) {
		if (skb == peer->send_head)
			break;
		if (WIND_SKB_CB(skb)->seq == seq)
			return skb;
	}
	return NULL;
}

/* The receiver refused the message starting at seq: tell its sender. */
static void nak_rcv(struct wind_peer *peer, u32 seq, u32 error)
{
	struct wind_sync_waiter *w;
	struct sk_buff *skb;

	if (!wind_seq_in(seq, peer->snd_una, peer->snd_nxt - peer->snd_una))
		return;
	skb = find_seq(peer, seq);
	/* report each refusal once, however many ACKs repeat it */
	if (!skb || WIND_SKB_CB(skb)->frag || WIND_SKB_CB(skb)->refused)
		return;
	WIND_SKB_CB(skb)->refused = 1;
	if (!error || error > 4095)
		error = EIO;
	list_for_each_entry(w, &peer->sync_waiters, node) {
		if (w->first_seq == seq) {
			w->err = error;
			return;
		}
	}
	wind_report_error(peer->sk, peer, error, 1, WIND_SKB_CB(skb)->msgid);
}

/* Was the packet sent at @t1 with @seq1 sent after the one at @t2, @seq2?
 * The packets of one GSO skb share a time: the seq orders them.
 */
static bool rack_sent_after(u32 t1, u32 seq1, u32 t2, u32 seq2)
{
	return (s32)(t1 - t2) > 0 || (t1 == t2 && wind_seq_after(seq1, seq2));
}

/* RACK (RFC 8985), without its reordering timer: note that a packet sent
 * at cb->tx_us arrived.  A retransmitted packet back in less than half an
 * RTT is the original's arrival and says nothing about the resend's time.
 * A first transmission reported after a later seq was is reordering.
 */
static void rack_update(struct wind_peer *peer, const struct wind_skb_cb *cb,
			u32 now)
{
	u32 tx = (u32)cb->tx_us, rtt = now - tx;

	if (!cb->retransmitted && wind_seq_before(cb->seq, peer->sack_high))
		peer->reord_seen = 1;
	if (cb->retransmitted && rtt < peer->rtt.srtt_us / 2)
		return;
	if (!peer->rack_rtt_us ||
	    rack_sent_after(tx, cb->seq, peer->rack_tx_us, peer->rack_seq)) {
		peer->rack_tx_us = tx;
		peer->rack_seq = cb->seq;
		peer->rack_rtt_us = max(rtt, 1U);
	}
}

/* A packet is lost when one sent after it arrived and it has been out
 * longer than that one's RTT plus a reordering window: resend it.  The
 * write queue is in seq order and first transmissions in time order, so
 * the walk ends at the first packet sent for the first time after the
 * newest one known to have arrived.  As in Linux's TCP, the window is 0
 * while the peer has shown no reordering and WIND_DUPTHRESH packets were
 * reported past a hole (the classic three duplicate ACKs): a hole is
 * resent on the ACK that shows it, rather than on the next ACK after the
 * window, which may not come before the probe timeout when the window is
 * shut behind the hole.
 */
static void rack_detect_loss(struct wind_peer *peer, u32 now)
{
	u32 wait, reo = 0, lost = 0;
	struct sk_buff *skb;

	if (!peer->rack_rtt_us)
		return;
	if (peer->reord_seen || peer->sacked_out < WIND_DUPTHRESH)
		reo = max_t(u32, peer->rtt.srtt_us / 4, WIND_REO_WND_MIN_US);
	wait = peer->rack_rtt_us + reo;
	skb_queue_walk(&peer->wq, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);
		u32 tx = (u32)cb->tx_us;

		if (skb == peer->send_head)
			break;
		if (!rack_sent_after(peer->rack_tx_us, peer->rack_seq, tx,
				     cb->seq)) {
			if (!cb->retransmitted)
				break;
			continue;
		}
		if (cb->sacked || now - tx < wait)
			continue;
		if (++lost == WIND_CONG_BURST)
			cwnd_reduce(peer, false);
		retransmit(peer, skb, 0, WIND_RTX_RACK);
	}
}

/* Mark what the selective bitmap reports (bit i: seq ack + 1 + i); the
 * newest first-time transmission among them gives an RTT sample.  A
 * receiver short of memory drops out-of-order packets it reported: a
 * packet reported before and not now is unmarked, so RACK resends it.
 */
static void sack_rcv(struct wind_peer *peer, u32 ack, u64 sack, u32 now,
		     u32 *newly)
{
	u32 sample = 0;
	struct sk_buff *skb;

	skb_queue_walk(&peer->wq, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);
		u32 off = cb->seq - ack - 1;

		if (skb == peer->send_head)
			break;
		if (cb->seq == ack || (off < 64 && !((sack >> off) & 1))) {
			if (cb->sacked) {
				cb->sacked = 0;
				peer->sacked_out--;
			}
			continue;
		}
		if (off >= 64)
			break;
		if (cb->sacked)
			continue;
		cb->sacked = 1;
		peer->sacked_out++;
		(*newly)++;
		rack_update(peer, cb, now);
		if (!cb->retransmitted)
			sample = now - (u32)cb->tx_us;
		if (wind_seq_after(cb->seq, peer->sack_high))
			peer->sack_high = cb->seq;
	}
	if (sample)
		wind_rtt_sample(&peer->rtt, sample, rto_min_us(peer),
				rto_max_us(peer));
}

/**
 * wind_ack_rcv() - process the acknowledgment part of a packet
 * @peer: the peer it came from, its socket locked
 * @ack: every seq before it arrived
 * @window: packets the peer can still take after @ack
 * @ah: the selective bitmap and the refusals that follow it (ACK packets,
 *	validated), or NULL (data packets carry neither)
 */
void wind_ack_rcv(struct wind_peer *peer, u32 ack, u16 window,
		  const struct wind_ackhdr *ah)
{
	const struct wind_nak *naks = ah ? (const void *)(ah + 1) : NULL;
	unsigned int nnaks = ah ? ntohs(ah->nnaks) : 0;
	struct wind_sync_waiter *w, *tmp;
	bool progress = false, woke = false;
	u32 max_wnd, now, sample = 0, acked = 0;
	struct sk_buff *skb;
	unsigned int i;

	if (wind_seq_after(ack, peer->snd_nxt))
		return;			/* acks what was never sent: bogus */
	if (wind_seq_before(ack, peer->snd_una)) {
		/* an old ack, overtaken by a newer one: nothing to learn */
		wind_push(peer);
		return;
	}

	for (i = 0; i < nnaks; i++)
		nak_rcv(peer, ntohl(naks[i].seq), ntohl(naks[i].error));

	now = wind_now_us();

	while ((skb = skb_peek(&peer->wq)) && skb != peer->send_head &&
	       wind_seq_before(WIND_SKB_CB(skb)->seq, ack)) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		if (cb->sacked) {
			peer->sacked_out--;
		} else {
			acked++;
			rack_update(peer, cb, now);
			/* Karn: sample only packets sent once; one that was
			 * reported before waited behind a hole
			 */
			if (!cb->retransmitted)
				sample = now - (u32)cb->tx_us;
		}
		__skb_unlink(skb, &peer->wq);
		consume_skb(skb);
		progress = true;
	}
	if (sample)
		wind_rtt_sample(&peer->rtt, sample, rto_min_us(peer),
				rto_max_us(peer));
	if (progress) {
		peer->sk->sk_write_space(peer->sk);
		peer->snd_una = ack;
		if (wind_seq_before(peer->sack_high, ack))
			peer->sack_high = ack;
		peer->retries = 0;
		peer->tlp_out = 0;
		list_for_each_entry_safe(w, tmp, &peer->sync_waiters, node) {
			if (wind_seq_before(ack, w->end_seq))
				continue;
			w->done = true;
			list_del_init(&w->node);
			woke = true;
		}
		if (woke)
			peer->sk->sk_state_change(peer->sk);
	}
	peer->got_ack = 1;

	max_wnd = WIND_PARAM(peer->sk, window);
	peer->snd_wnd_end = ack + min_t(u32, window, max_wnd);
	if (ah)
		sack_rcv(peer, ack, be64_to_cpu(ah->sack), now, &acked);
	cwnd_grow(peer, acked);
	rack_detect_loss(peer, now);

	if (peer->snd_una == peer->snd_nxt)
		wind_rtx_timer_stop(peer);
	else if (progress)
		wind_rtx_timer_arm(peer);
	wind_push(peer);
}
