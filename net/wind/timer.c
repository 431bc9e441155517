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

static u32 rto_max_us(const struct wind_peer *peer)
{
	return WIND_PARAM(peer->sk, rto_max_ms) * USEC_PER_MSEC;
}

/**
 * wind_rtx_timer_arm() - (re)start the retransmission timer from now
 * @peer: the peer, its socket locked
 */
void wind_rtx_timer_arm(struct wind_peer *peer)
{
	peer_timer_arm(peer, &peer->rtx_timer,
		       jiffies + usecs_to_jiffies(peer->rtt.rto_us) + 1);
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
	unsigned long delay;

	if (timer_pending(&peer->delack_timer))
		return;
	/* a one-jiffy timer may fire at once: wait at least a whole jiffy */
	delay = max(msecs_to_jiffies(WIND_PARAM(peer->sk, delack_ms)), 2UL);
	peer_timer_arm(peer, &peer->delack_timer, jiffies + delay);
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

/* Go back N: resend everything in flight the peer has not reported.  The
 * reports are forgotten: a receiver short of memory may have dropped what
 * it reported, and the next timeout resends those too.
 */
static void retransmit_in_flight(struct wind_peer *peer)
{
	struct sk_buff *skb;

	skb_queue_walk(&peer->wq, skb) {
		if (skb == peer->send_head)
			break;
		if (WIND_SKB_CB(skb)->sacked) {
			WIND_SKB_CB(skb)->sacked = 0;
			continue;
		}
		WIND_SKB_CB(skb)->retransmitted = 1;
		peer->retransmits++;
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_RETRANSMITS);
		wind_xmit_skb(peer, skb, 0);
	}
}

static void rtx_timeout(struct wind_peer *peer)
{
	struct sk_buff *skb;

	if (skb_queue_empty(&peer->wq))
		return;
	if (++peer->retries > WIND_PARAM(peer->sk, retries)) {
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_PEERS_UNREACHABLE);
		wind_peer_fail(peer, ETIMEDOUT);
		return;
	}
	wind_rtt_backoff(&peer->rtt, rto_max_us(peer));
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
		retransmit_in_flight(peer);
	}
	wind_rtx_timer_arm(peer);
}

static void wind_rtx_timer(struct timer_list *t)
{
	struct wind_peer *peer = from_timer(peer, t, rtx_timer);
	struct sock *sk = peer->sk;

	bh_lock_sock(sk);
	if (peer->state == WIND_PEER_DEAD)
		goto out;
	if (sock_owned_by_user(sk)) {
		peer_timer_arm(peer, t, jiffies + 1);
		goto out;
	}
	rtx_timeout(peer);
out:
	bh_unlock_sock(sk);
	wind_peer_put(peer);
}

static void wind_delack_timer(struct timer_list *t)
{
	struct wind_peer *peer = from_timer(peer, t, delack_timer);
	struct sock *sk = peer->sk;

	bh_lock_sock(sk);
	if (peer->state == WIND_PEER_DEAD)
		goto out;
	if (sock_owned_by_user(sk)) {
		peer_timer_arm(peer, t, jiffies + 1);
		goto out;
	}
	if (peer->ack_pending || peer->nrefused)
		wind_send_ack(peer);
out:
	bh_unlock_sock(sk);
	wind_peer_put(peer);
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
	wind_report_error(peer->sk, peer, error, 1);
}

static void sack_rcv(struct wind_peer *peer, u32 ack, u64 sack)
{
	struct sk_buff *skb;
	u32 now = wind_now_us(), srtt, age;

	if (!sack)
		return;
	skb_queue_walk(&peer->wq, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);
		u32 off;

		if (skb == peer->send_head)
			break;
		off = cb->seq - ack - 1;
		if (off < 64 && (sack >> off) & 1) {
			cb->sacked = 1;
			if (wind_seq_after(cb->seq, peer->sack_high))
				peer->sack_high = cb->seq;
		}
	}
	/* fast retransmit: holes below the highest reported arrival */
	srtt = max_t(u32, peer->rtt.srtt_us, rto_min_us(peer) / 4);
	skb_queue_walk(&peer->wq, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		if (skb == peer->send_head ||
		    !wind_seq_before(cb->seq, peer->sack_high))
			break;
		age = now - (u32)cb->tx_us;
		if (cb->sacked || age < srtt)
			continue;
		cb->retransmitted = 1;
		peer->retransmits++;
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_RETRANSMITS);
		wind_xmit_skb(peer, skb, 0);
	}
}

/**
 * wind_ack_rcv() - process the acknowledgment part of a packet
 * @peer: the peer it came from, its socket locked
 * @ack: every seq before it arrived
 * @window: packets the peer can still take after @ack
 * @sack: selective bitmap (ACK packets) or 0
 * @naks: messages the peer refused, or NULL
 * @nnaks: how many
 */
void wind_ack_rcv(struct wind_peer *peer, u32 ack, u16 window, u64 sack,
		  const struct wind_nak *naks, unsigned int nnaks)
{
	struct wind_sync_waiter *w, *tmp;
	bool progress = false, woke = false;
	struct sk_buff *skb;
	unsigned int i;
	u32 max_wnd;

	if (wind_seq_after(ack, peer->snd_nxt))
		return;			/* acks what was never sent: bogus */
	if (wind_seq_before(ack, peer->snd_una)) {
		/* an old ack, overtaken by a newer one: nothing to learn */
		wind_push(peer);
		return;
	}

	for (i = 0; i < nnaks; i++)
		nak_rcv(peer, ntohl(naks[i].seq), ntohl(naks[i].error));

	while ((skb = skb_peek(&peer->wq)) && skb != peer->send_head &&
	       wind_seq_before(WIND_SKB_CB(skb)->seq, ack)) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		/* Karn: sample only packets sent once */
		if (!cb->retransmitted && WIND_SKB_CB(skb)->seq + 1 == ack)
			wind_rtt_sample(&peer->rtt, wind_now_us() - (u32)cb->tx_us,
					rto_min_us(peer), rto_max_us(peer));
		__skb_unlink(skb, &peer->wq);
		consume_skb(skb);
		progress = true;
	}
	if (progress) {
		peer->snd_una = ack;
		if (wind_seq_before(peer->sack_high, ack))
			peer->sack_high = ack;
		peer->retries = 0;
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
	sack_rcv(peer, ack, sack);

	if (peer->snd_una == peer->snd_nxt)
		wind_rtx_timer_stop(peer);
	else if (progress)
		wind_rtx_timer_arm(peer);
	wind_push(peer);
}
