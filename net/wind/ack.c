// SPDX-License-Identifier: GPL-2.0
/*
 * The sender's side of acknowledgments: the cumulative ACK, RTT sampling,
 * selective acknowledgment, RACK loss detection and fast retransmission,
 * and the refusals (NAKs) an ACK carries.  The timers that back them up
 * are in timer.c, the congestion window in cc.c.
 */
#include <linux/ktime.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "ack.h"
#include "cc.h"
#include "netns.h"
#include "peer.h"
#include "push.h"
#include "rtt.h"
#include "rwnd.h"
#include "sendmsg.h"
#include "seq.h"
#include "skb.h"
#include "timers.h"
#include "trace.h"
#include "tx.h"
#include "wq.h"

/* Packets reported past a hole that make it lost at once (RACK's
 * reordering window is 0 then) while the peer has shown no reordering
 */
#define WIND_DUPTHRESH		3

static u32 wind_now_us(void)
{
	return (u32)div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

/* Below this, a reordering window is timer noise. */
#define WIND_REO_WND_MIN_US	1000

/**
 * wind_retransmit() - send a run of the write queue again
 * @peer: the peer, its socket locked
 * @skb: the run, before send_head
 * @flags: WIND_F_* flags for this transmission (WIND_F_ACKREQ or 0)
 * @why: what found it missing, for the tracepoint
 *
 * Its packets are marked retransmitted (Karn: no RTT sample from them)
 * and counted in the peer's retransmits and OutRetransmits.
 */
static void wind_retransmit(struct wind_peer *peer, struct sk_buff *skb,
			    u8 flags, enum wind_rtx_reason why)
{
	u32 n = WIND_SKB_CB(skb)->npkts;

	wind_peer_assert_held(peer);
	trace_wind_retransmit(peer, skb, why);
	WIND_SKB_CB(skb)->retransmitted = 1;
	peer->retransmits += n;
	WIND_ADD_STATS(sock_net(peer->sk), WIND_MIB_OUT_RETRANSMITS, n);
	wind_xmit_skb(peer, skb, flags);
}

/**
 * wind_retransmit_one() - send one packet of a run again
 * @peer: the peer, its socket locked
 * @skb: the run, before send_head
 * @last: the run's last packet, else its first
 * @flags: as wind_retransmit()'s
 * @why: as wind_retransmit()'s
 *
 * The run is split so that the packet is a run of its own (no memory for
 * that: the whole run goes again).
 */
void wind_retransmit_one(struct wind_peer *peer, struct sk_buff *skb,
			 bool last, u8 flags, enum wind_rtx_reason why)
{
	u32 n = WIND_SKB_CB(skb)->npkts;

	wind_peer_assert_held(peer);
	if (n > 1 && !wind_wq_split(peer, skb, last ? n - 1 : 1) && last)
		skb = skb->next;
	wind_retransmit(peer, skb, flags, why);
}

/*
 * The receiver refused the message starting at @seq: tell its sender,
 * once, however many ACKs repeat it.  A receiver judges a message once
 * all of it is in, so its first packets may be acknowledged already (a
 * head resent alone after a CHALLENGE, a later packet lost): any of its
 * packets still on the write queue names it.  The ACK that carries the
 * refusal covers the message's last packet, so one is still there.
 */
static void nak_rcv(struct wind_peer *peer, u32 seq, u32 error)
{
	struct sk_buff *skb, *found = NULL;
	struct wind_sync_waiter *w;

	skb_queue_walk(&peer->wq, skb) {
		const struct wind_skb_cb *cb = WIND_SKB_CB(skb);
		u32 start = cb->seq - cb->frag;

		if (skb == peer->send_head || wind_seq_after(start, seq))
			break;
		if (start != seq)
			continue;
		if (cb->refused)
			return;
		found = found ?: skb;
	}
	if (!found)
		return;
	/* all of it: an ACK may take its packets off one by one */
	skb = found;
	skb_queue_walk_from(&peer->wq, skb) {
		if (skb == peer->send_head ||
		    WIND_SKB_CB(skb)->seq - WIND_SKB_CB(skb)->frag != seq)
			break;
		WIND_SKB_CB(skb)->refused = 1;
	}
	if (!error || error > 4095)
		error = EIO;
	if (WIND_SKB_CB(found)->kernel)
		return;		/* a one-sided answer: nobody waits for it */
	list_for_each_entry(w, &peer->sync_waiters, node) {
		if (w->first_seq == seq) {
			w->err = error;
			return;
		}
	}
	wind_report_error(peer->sk, peer, error, 1, WIND_SKB_CB(found)->msgid);
}

/* Was the packet sent at @t1 with @seq1 sent after the one at @t2, @seq2?
 * The packets of one GSO skb share a time: the seq orders them.
 */
static bool rack_sent_after(u32 t1, u32 seq1, u32 t2, u32 seq2)
{
	return (s32)(t1 - t2) > 0 || (t1 == t2 && wind_seq_after(seq1, seq2));
}

/* RACK (RFC 8985): note that the packets of run @cb up to @seq, sent at
 * cb->tx_us, arrived (a run's packets share a time: @seq orders them).  A
 * retransmitted packet back in less than half an RTT is the original's
 * arrival and says nothing about the resend's time.  A first
 * transmission reported after a later seq was is reordering.
 */
static void rack_update(struct wind_peer *peer, const struct wind_skb_cb *cb,
			u32 seq, u32 now)
{
	u32 tx = (u32)cb->tx_us, rtt = now - tx;

	if (!cb->retransmitted && wind_seq_before(cb->seq, peer->sack_high))
		peer->reord_seen = 1;
	if (cb->retransmitted && rtt < peer->rtt.srtt_us / 2)
		return;
	if (!peer->rack_rtt_us ||
	    rack_sent_after(tx, seq, peer->rack_tx_us, peer->rack_seq)) {
		peer->rack_tx_us = tx;
		peer->rack_seq = seq;
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
 * resent on the ACK that shows it.  A packet not lost yet only because
 * the window has not passed is checked again when it has, by the
 * reordering timer (RFC 8985 6.2): no later ACK may come to do it while
 * the window is shut behind the hole, and the probe timeout would resend
 * the last packet, not the lost one, a round trip or more later.
 * Returns in how many microseconds to check again, 0 for never.
 */
static u32 rack_detect_loss(struct wind_peer *peer, u32 now)
{
	u32 wait, reo = 0, lost = 0, timeout = 0;
	struct sk_buff *skb;

	if (!peer->rack_rtt_us)
		return 0;
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
		if (cb->sacked)
			continue;
		if (now - tx < wait) {
			timeout = max(timeout, wait - (now - tx));
			continue;
		}
		if (lost < WIND_CONG_BURST &&
		    lost + cb->npkts >= WIND_CONG_BURST)
			wind_cwnd_reduce(peer, false);
		lost += cb->npkts;
		wind_retransmit(peer, skb, 0, WIND_RTX_RACK);
	}
	return timeout;
}

/**
 * wind_rack_reo_timeout() - RACK's reordering window has passed
 * @peer: the peer, its socket locked; the retransmission timer fired as
 *	  the reordering timer (timer.c)
 *
 * What an ACK showed behind a later packet, and was not lost then only
 * because the reordering window had not passed, is lost now if still
 * unreported, and is resent.  Then the timer is the probe or
 * retransmission timeout again (the caller arms it).
 *
 * Return: microseconds until RACK must look again, or 0.
 */
u32 wind_rack_reo_timeout(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	return rack_detect_loss(peer, wind_now_us());
}

/* Was @cb last sent before the last retransmission timeout? */
static bool sent_before_rto(const struct wind_peer *peer,
			    const struct wind_skb_cb *cb)
{
	return (s32)((u32)cb->tx_us - peer->rto_tx_us) < 0;
}

/* After a retransmission timeout, every packet then in flight that the
 * peer has not reported is lost (RFC 8985 6.3; Linux TCP's
 * tcp_timeout_mark_lost()): the timeout resent the oldest one, and each
 * ACK from then on resends the others, oldest first, while fewer than a
 * congestion window of packets sent since the timeout are out, until the
 * cumulative ACK passes recover (snd_max at the timeout; no RACK cut
 * moves it before then).  RACK alone may not find them: when an earlier
 * pass already resent them, they were sent after the packets the peer
 * reported since, and the timeout's resend, back sooner than half an
 * SRTT that queueing inflated, is taken for the original's arrival.
 * Without this, a receiver that dropped a window (16 senders overflowing
 * its buffer at once) got it back one packet per backed-off timeout.
 */
static void rto_recover(struct wind_peer *peer)
{
	struct sk_buff *skb;
	u32 out = 0;

	if (!peer->rto_recovery)
		return;
	if (!wind_seq_before(peer->snd_una, peer->recover)) {
		peer->rto_recovery = 0;
		return;
	}
	skb_queue_walk(&peer->wq, skb) {
		if (skb == peer->send_head)
			break;
		if (!WIND_SKB_CB(skb)->sacked &&
		    !sent_before_rto(peer, WIND_SKB_CB(skb)))
			out += WIND_SKB_CB(skb)->npkts;
	}
	skb_queue_walk(&peer->wq, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		if (skb == peer->send_head || out >= peer->cwnd ||
		    !wind_seq_before(cb->seq, peer->recover))
			break;
		if (cb->sacked || !sent_before_rto(peer, cb))
			continue;
		/* what the congestion window allows of the run */
		if (cb->npkts > peer->cwnd - out)
			wind_wq_split(peer, skb, peer->cwnd - out);
		wind_retransmit(peer, skb, 0, WIND_RTX_RECOVERY);
		out += cb->npkts;
	}
}

/* What an ACK of @ack with selective bitmap @sack says of @seq: */
enum sack_state {
	SACK_NOT,	/* not arrived (the first hole, or a clear bit) */
	SACK_SET,	/* arrived */
	SACK_PAST,	/* past the bitmap: nothing */
};

static enum sack_state sack_state(u32 ack, u64 sack, u32 seq)
{
	u32 off = seq - ack - 1;

	if (seq == ack || (off < 64 && !((sack >> off) & 1)))
		return SACK_NOT;
	return off < 64 ? SACK_SET : SACK_PAST;
}

/* Mark what the selective bitmap reports (bit i: seq ack + 1 + i); the
 * newest first-time transmission among them gives an RTT sample.  A
 * receiver short of memory drops out-of-order packets it reported: a
 * packet reported before and not now is unmarked, so RACK resends it.
 * A run the bitmap says different things of is split where it changes
 * (no memory for that: a part reported is taken as not, and resent).
 */
static void sack_rcv(struct wind_peer *peer, u32 ack, u64 sack, u32 now,
		     u32 *newly)
{
	u32 sample = 0;
	struct sk_buff *skb;

	skb_queue_walk(&peer->wq, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);
		enum sack_state state = sack_state(ack, sack, cb->seq);
		u32 n = 1;

		if (skb == peer->send_head || state == SACK_PAST)
			break;
		while (n < cb->npkts &&
		       sack_state(ack, sack, cb->seq + n) == state)
			n++;
		if (n < cb->npkts && wind_wq_split(peer, skb, n))
			state = SACK_NOT;
		if (state == SACK_NOT) {
			if (cb->sacked) {
				cb->sacked = 0;
				peer->sacked_out -= cb->npkts;
			}
			continue;
		}
		if (cb->sacked)
			continue;
		cb->sacked = 1;
		peer->sacked_out += cb->npkts;
		*newly += cb->npkts;
		rack_update(peer, cb, wind_end_seq(skb) - 1, now);
		if (!cb->retransmitted)
			sample = now - (u32)cb->tx_us;
		if (wind_seq_after(wind_end_seq(skb) - 1, peer->sack_high))
			peer->sack_high = wind_end_seq(skb) - 1;
	}
	if (sample)
		wind_rtt_sample(&peer->rtt, sample, wind_rto_min_us(peer),
				wind_rto_max_us(peer));
}

/* The peer refused the packet at snd_una, the next it expected, for want
 * of room (WIND_ACK_REFUSED): what followed it met a buffer as full, or
 * lies behind the refused one.  Put everything in flight back before
 * send_head (a packet the peer reported comes again as a duplicate): it
 * goes again as the window opens, not when a probe or a retransmission
 * timeout finds it missing after a window update the refusal preceded.
 * Not congestion: the congestion window stays.  snd_max stays too: the
 * peer may have taken what followed the refused packet (its reader made
 * room in between), and once the refused one is in, its ACK covers them
 * (wind_ack_rcv() then moves send_head past them).
 */
static void refused_rcv(struct wind_peer *peer)
{
	struct sk_buff *first = skb_peek(&peer->wq), *skb;
	struct net *net = sock_net(peer->sk);

	if (!first || first == peer->send_head)
		return;
	skb_queue_walk(&peer->wq, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		if (skb == peer->send_head)
			break;
		if (cb->sacked) {
			cb->sacked = 0;
			peer->sacked_out -= cb->npkts;
		}
		trace_wind_retransmit(peer, skb, WIND_RTX_REFUSED);
		cb->retransmitted = 1;
		peer->retransmits += cb->npkts;
		WIND_ADD_STATS(net, WIND_MIB_OUT_RETRANSMITS, cb->npkts);
	}
	peer->send_head = first;
	peer->snd_nxt = WIND_SKB_CB(first)->seq;
	peer->tlp_out = 0;
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
	u32 max_wnd, now, reo, sample = 0, acked = 0;
	struct sk_buff *skb;
	unsigned int i;

	wind_peer_assert_held(peer);
	if (wind_seq_after(ack, peer->snd_max)) {
		/* acks what was never sent: bogus */
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_IN_ERR_ACK);
		return;
	}
	if (wind_seq_before(ack, peer->snd_una)) {
		/* an old ack, overtaken by a newer one: nothing to learn */
		wind_push(peer);
		return;
	}

	for (i = 0; i < nnaks; i++)
		nak_rcv(peer, ntohl(naks[i].seq), ntohl(naks[i].error));

	now = wind_now_us();

	while ((skb = skb_peek(&peer->wq)) &&
	       wind_seq_before(WIND_SKB_CB(skb)->seq, ack)) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);
		u32 n = min_t(u32, ack - cb->seq, cb->npkts);

		/* sent, then taken back by a refusal (refused_rcv()), and
		 * the peer had it after all: behind the refused packet
		 */
		if (skb == peer->send_head && n == cb->npkts) {
			peer->send_head = skb_queue_is_last(&peer->wq, skb) ?
					  NULL : skb->next;
			wind_snd_nxt_set(peer, cb->seq + n);
		} else if (skb == peer->send_head) {
			wind_snd_nxt_set(peer, cb->seq + n);
		}

		if (cb->sacked) {
			peer->sacked_out -= n;
		} else {
			acked += n;
			rack_update(peer, cb, cb->seq + n - 1, now);
			/* Karn: sample only packets sent once; one that was
			 * reported before waited behind a hole
			 */
			if (!cb->retransmitted)
				sample = now - (u32)cb->tx_us;
		}
		progress = true;
		if (n < cb->npkts) {
			/* the ACK ends inside the run */
			wind_wq_trim_head(peer, skb, n);
			break;
		}
		__skb_unlink(skb, &peer->wq);
		consume_skb(skb);
	}
	if (sample)
		wind_rtt_sample(&peer->rtt, sample, wind_rto_min_us(peer),
				wind_rto_max_us(peer));
	if (progress) {
		wind_write_space(peer->sk);
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
	peer->snd_wnd_end = wind_rwnd_snd_end(ack, window, max_wnd);
	if (ah)
		sack_rcv(peer, ack, be64_to_cpu(ah->sack), now, &acked);
	if (ah && (ah->flags & htons(WIND_ACK_REFUSED)))
		refused_rcv(peer);
	wind_cwnd_grow(peer, acked);
	reo = rack_detect_loss(peer, now);
	rto_recover(peer);

	wind_timers_ack_received(peer, progress, reo);
	wind_push(peer);
}
