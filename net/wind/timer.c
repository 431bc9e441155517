// SPDX-License-Identifier: GPL-2.0
/*
 * Per-peer timers: the retransmission timer (which is also the tail loss
 * probe, RACK's reordering timer and the zero-window probe), the
 * delayed-ACK timer, the backstop of Nagle's rule (an hrtimer: its wait
 * is far below a jiffy) and the retry
 * budget after which a peer is unreachable.  What an ACK does on the
 * sender is in ack.c, the congestion window in cc.c.
 *
 * An armed timer holds a reference on its peer.  A callback that finds
 * the socket owned by process context tries again a jiffy later.
 *
 * Stopping a timer only marks it as not due (rtx_on, dack_on), as Linux
 * TCP's inet_csk_clear_xmit_timer() does: in a ping-pong every exchange
 * would otherwise delete both timers on each side and add them again,
 * each time under the timer base's lock.  A timer that fires not due
 * does nothing; arming one already pending moves it (mod_timer()).
 * Removing a peer deletes them for good (wind_timers_shutdown()).
 */
#include <linux/jiffies.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "ack.h"
#include "cc.h"
#include "netns.h"
#include "peer.h"
#include "push.h"
#include "rma.h"
#include "rtt.h"
#include "seq.h"
#include "skb.h"
#include "timers.h"
#include "trace.h"
#include "tx.h"
#include "wq.h"

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

/* The delayed-ACK delay; a one-jiffy timer may fire at once, so at least
 * a whole jiffy.
 */
static unsigned long delack_jiffies(const struct wind_peer *peer)
{
	return max(msecs_to_jiffies(WIND_PARAM(peer->sk, delack_ms)), 2UL);
}

/**
 * rtx_timer_arm() - (re)start the retransmission timer from now
 * @peer: the peer, its socket locked
 *
 * While packets are in flight and no probe is out, the timer first fires
 * as a tail loss probe after two smoothed RTTs plus the peer's delayed
 * ACK time (the last packets of a burst may be lost with nothing behind
 * them to reveal it), then as the retransmission timeout.
 */
static void rtx_timer_arm(struct wind_peer *peer)
{
	unsigned long delay = usecs_to_jiffies(peer->rtt.rto_us) + 1;

	wind_peer_assert_held(peer);
	peer->pto_armed = 0;
	peer->reo_armed = 0;
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
	peer->rtx_on = 1;
	peer_timer_arm(peer, &peer->rtx_timer, jiffies + delay);
}

/**
 * rtx_timer_stop() - stop the retransmission timer
 * @peer: the peer, its socket locked
 */
static void rtx_timer_stop(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	peer->reo_armed = 0;
	peer->rtx_on = 0;
}

/**
 * rtx_timer_due() - is the retransmission timer armed?
 * @peer: the peer, its socket locked
 *
 * Return: whether it is pending and not stopped since it was armed.
 */
static bool rtx_timer_due(const struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	return peer->rtx_on && timer_pending(&peer->rtx_timer);
}

/**
 * reo_timer_arm() - have RACK look for lost packets again
 * @peer: the peer, its socket locked
 * @us: in this many microseconds, when the reordering window of the
 *	packets it could not decide on has passed
 *
 * The retransmission timer serves, as in Linux's TCP, unless the probe
 * or the timeout is due first; when it fires, wind_rack_reo_timeout()
 * arms them again.
 */
static void reo_timer_arm(struct wind_peer *peer, u32 us)
{
	unsigned long expires = jiffies + usecs_to_jiffies(us) + 1;

	wind_peer_assert_held(peer);
	if (rtx_timer_due(peer) &&
	    time_before_eq(peer->rtx_timer.expires, expires))
		return;
	peer->reo_armed = 1;
	peer->rtx_on = 1;
	peer_timer_arm(peer, &peer->rtx_timer, expires);
}

/**
 * delack_timer_arm() - make sure an ACK goes out within delack_ms
 * @peer: the peer, its socket locked
 */
static void delack_timer_arm(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	if (peer->dack_on && timer_pending(&peer->delack_timer))
		return;
	peer->dack_on = 1;
	peer_timer_arm(peer, &peer->delack_timer,
		       jiffies + delack_jiffies(peer));
}

/**
 * delack_timer_stop() - an ACK went out: no delayed one is owed
 * @peer: the peer, its socket locked
 */
static void delack_timer_stop(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	peer->dack_on = 0;
}

/**
 * nagle_timer_arm() - bound the wait of what Nagle's rule holds
 * @peer: the peer, its socket locked, holding messages back for the ACK
 *	  of its last small packet
 *
 * Within net.wind.nagle_us (200 us: about a round trip in the VM, far
 * below the 2 jiffies at least of a receiver's delayed ACK) they leave,
 * ACK or not: a receiver that delays its ACK while its reader waits for a
 * held message would stall both.  Armed when a hold begins and not moved
 * after; an ACK that sends what was held leaves it to fire for nothing
 * (or to send a later hold early).
 */
static void nagle_timer_arm(struct wind_peer *peer)
{
	u64 ns = (u64)WIND_PARAM(peer->sk, nagle_us) * NSEC_PER_USEC;

	wind_peer_assert_held(peer);
	/* the socket's owner and the callback (in softirq, while the owner
	 * runs) may both arm it at once: whoever sets the bit takes the
	 * timer's one reference, which hrtimer_start() cannot tell
	 */
	if (test_and_set_bit(0, &peer->nagle_armed))
		return;
	wind_peer_hold(peer);
	hrtimer_start(&peer->nagle_timer, ns_to_ktime(ns),
		      HRTIMER_MODE_REL_SOFT);
}

/**
 * wind_timers_data_pushed() - the push path sent what the windows allow
 * @peer: the peer, its socket locked
 * @nagle_held: Nagle's rule holds what is left for an ACK
 * @corked_held: a cork holds what is left
 *
 * What Nagle's rule holds leaves within net.wind.nagle_us
 * (nagle_timer_arm()).  While the write queue holds anything, the
 * retransmission timer runs, unless it already does or a cork holds all
 * of it with nothing in flight (no probe is due then).
 */
void wind_timers_data_pushed(struct wind_peer *peer, bool nagle_held,
			     bool corked_held)
{
	wind_peer_assert_held(peer);
	if (nagle_held)
		nagle_timer_arm(peer);
	if (!skb_queue_empty(&peer->wq) && !rtx_timer_due(peer) &&
	    !(corked_held && peer->snd_una == peer->snd_nxt))
		rtx_timer_arm(peer);
}

/**
 * wind_timers_ack_received() - an acknowledgment from the peer was taken in
 * @peer: the peer, its socket locked
 * @progress: it acknowledged new data
 * @reo_us: when RACK must look for lost packets again, microseconds from
 *	    now, or 0
 *
 * With nothing in flight the retransmission timer stops; progress starts
 * it again from now; RACK's reordering timeout goes before it if due
 * sooner (reo_timer_arm()).
 */
void wind_timers_ack_received(struct wind_peer *peer, bool progress,
			      u32 reo_us)
{
	wind_peer_assert_held(peer);
	if (peer->snd_una == peer->snd_nxt)
		rtx_timer_stop(peer);
	else if (progress)
		rtx_timer_arm(peer);
	if (reo_us)
		reo_timer_arm(peer, reo_us);
}

/**
 * wind_timers_data_received() - data arrived and its ACK was not sent now
 * @peer: the peer, its socket locked
 *
 * If an ACK is owed (ack_pending), it goes within delack_ms.
 */
void wind_timers_data_received(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	if (peer->ack_pending)
		delack_timer_arm(peer);
}

/**
 * wind_timers_ack_sent() - the peer is owed no ACK now
 * @peer: the peer, its socket locked
 *
 * An ACK went out, alone or on a data packet, or a peer not yet proven
 * is owed no more: no delayed ACK is due.
 */
void wind_timers_ack_sent(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	delack_timer_stop(peer);
}

/**
 * wind_timers_rx_reset() - the peer's stream to us starts again
 * @peer: the peer, its socket locked
 *
 * What arrived from the old stream is forgotten: no delayed ACK is due.
 */
void wind_timers_rx_reset(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	delack_timer_stop(peer);
}

/**
 * wind_timers_peer_failed() - everything queued to the peer failed
 * @peer: the peer, its socket locked
 *
 * Nothing is in flight any more: the retransmission timer stops.
 */
void wind_timers_peer_failed(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	rtx_timer_stop(peer);
}

/**
 * wind_timers_shutdown() - stop the timers of a peer being removed
 * @peer: the peer, its socket locked, already WIND_PEER_DEAD
 *
 * A callback already running waits for the socket lock, then sees the
 * peer dead and only drops its reference.
 */
void wind_timers_shutdown(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	peer->rtx_on = 0;
	peer->dack_on = 0;
	peer_timer_stop(peer, &peer->rtx_timer);
	peer_timer_stop(peer, &peer->delack_timer);
	/* never waits: a running callback may be spinning on our lock */
	if (hrtimer_try_to_cancel(&peer->nagle_timer) == 1) {
		clear_bit(0, &peer->nagle_armed);
		wind_peer_put(peer);
	}
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
	if (peer->reo_armed) {
		u32 reo;

		peer->reo_armed = 0;
		reo = wind_rack_reo_timeout(peer);
		if (peer->snd_una != peer->snd_nxt)
			rtx_timer_arm(peer);
		if (reo)
			reo_timer_arm(peer, reo);
		wind_push(peer);
		return;
	}
	if (peer->pto_armed) {
		peer->pto_armed = 0;
		skb = last_in_flight(peer);
		if (skb) {
			peer->tlp_out = 1;
			WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_PROBES);
			wind_retransmit_one(peer, skb, true, WIND_F_ACKREQ,
					    WIND_RTX_PROBE);
		}
		rtx_timer_arm(peer);
		return;
	}
	if (++peer->retries > WIND_PARAM(peer->sk, retries)) {
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_PEERS_UNREACHABLE);
		wind_peer_fail(peer, ETIMEDOUT);
		wind_rma_resume(peer->sk);
		return;
	}
	wind_rtt_backoff(&peer->rtt, wind_rto_max_us(peer));
	if (peer->snd_una == peer->snd_nxt) {
		/* nothing in flight: the window is shut, probe it */
		skb = peer->send_head;
		if (!skb)
			return;
		/* one packet (no memory to split the run: all of it) */
		if (WIND_SKB_CB(skb)->npkts > 1)
			wind_wq_split(peer, skb, 1);
		peer->send_head = skb_queue_is_last(&peer->wq, skb) ?
				  NULL : skb->next;
		wind_snd_nxt_set(peer, wind_end_seq(skb));
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_WIN_PROBES);
		wind_xmit_skb(peer, skb, WIND_F_ACKREQ);
	} else if (!wind_seq_before(peer->snd_una, peer->snd_wnd_end)) {
		/* the window is shut behind what is in flight (a window
		 * probe the peer refused for want of room, or packets sent
		 * before it shrank): no more may be sent, and the network
		 * is not to blame.  Probe again with the oldest, counting
		 * no timeout and keeping the congestion window.
		 */
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_WIN_PROBES);
		wind_retransmit_one(peer, skb_peek(&peer->wq), false,
				    WIND_F_ACKREQ, WIND_RTX_PROBE);
	} else {
		struct sk_buff *first = NULL;

		wind_cwnd_reduce(peer, true);
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_TIMEOUTS);
		skb_queue_walk(&peer->wq, skb) {
			if (skb == peer->send_head)
				break;
			if (peer->retries > 1 && WIND_SKB_CB(skb)->sacked) {
				WIND_SKB_CB(skb)->sacked = 0;
				peer->sacked_out -= WIND_SKB_CB(skb)->npkts;
			}
			if (!first && !WIND_SKB_CB(skb)->sacked)
				first = skb;
		}
		/* what is in flight now (before recover, which the cut
		 * above set to snd_nxt) and unreported is lost: the ACKs
		 * after this resend it (ack.c, rto_recover())
		 */
		peer->rto_recovery = 1;
		peer->rto_tx_us = (u32)div_u64(ktime_get_ns(), NSEC_PER_USEC);
		wind_retransmit_one(peer, first ?: skb_peek(&peer->wq), false,
				    WIND_F_ACKREQ, WIND_RTX_TIMEOUT);
	}
	rtx_timer_arm(peer);
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

	wind_peer_assert_held(peer);
	if (!skb || skb == peer->send_head)
		return;
	wind_retransmit_one(peer, skb, false, WIND_F_ACKREQ,
			    WIND_RTX_CHALLENGE);
	rtx_timer_arm(peer);
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

static void rtx_due(struct wind_peer *peer)
{
	/* stopped since it was armed; the timer sees the flag under the
	 * socket lock, so a stop and a rearm in between are both seen
	 */
	if (!peer->rtx_on)
		return;
	peer->rtx_on = 0;
	rtx_timeout(peer);
}

static void delack_due(struct wind_peer *peer)
{
	if (!peer->dack_on)
		return;
	peer->dack_on = 0;
	delack_timeout(peer);
}

static void wind_rtx_timer(struct timer_list *t)
{
	struct wind_peer *peer = from_timer(peer, t, rtx_timer);

	peer_timer_run(peer, t, rtx_due);
}

static void wind_delack_timer(struct timer_list *t)
{
	struct wind_peer *peer = from_timer(peer, t, delack_timer);

	peer_timer_run(peer, t, delack_due);
}

/* Nagle's backstop, in softirq (HRTIMER_MODE_REL_SOFT): what the rule
 * holds goes as if the small packet before it were acknowledged; as
 * peer_timer_run(), it tries again later while a process owns the socket.
 * Drops the timer's reference.
 */
static enum hrtimer_restart wind_nagle_timer(struct hrtimer *t)
{
	struct wind_peer *peer = container_of(t, struct wind_peer,
					      nagle_timer);
	struct sock *sk = peer->sk;

	bh_lock_sock(sk);
	clear_bit(0, &peer->nagle_armed);
	if (peer->state != WIND_PEER_DEAD) {
		if (sock_owned_by_user(sk)) {
			nagle_timer_arm(peer);
		} else {
			peer->snd_sml = peer->snd_una;
			wind_push(peer);
		}
	}
	bh_unlock_sock(sk);
	wind_peer_put(peer);
	return HRTIMER_NORESTART;
}

/**
 * wind_timers_init() - set up a new peer's timers
 * @peer: the peer
 */
void wind_timers_init(struct wind_peer *peer)
{
	timer_setup(&peer->rtx_timer, wind_rtx_timer, 0);
	timer_setup(&peer->delack_timer, wind_delack_timer, 0);
	hrtimer_init(&peer->nagle_timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_SOFT);
	peer->nagle_timer.function = wind_nagle_timer;
}

