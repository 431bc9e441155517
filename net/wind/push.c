// SPDX-License-Identifier: GPL-2.0
/*
 * When to send: wind_push() transmits a peer's queued packets while the
 * peer's window and the congestion window allow, small messages queued
 * behind each other as one bundle (bundle.c), the rest a run at a time
 * (tx.c), and arms the retransmission timer for what is in flight.
 */
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "bundle.h"
#include "peer.h"
#include "push.h"
#include "seq.h"
#include "skb.h"
#include "sock.h"
#include "timers.h"
#include "tx.h"
#include "wq.h"

/* Within the peer's window and the congestion window? */
static bool wind_may_send(const struct wind_peer *peer)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;

	return wind_seq_before(peer->snd_nxt, peer->snd_wnd_end) &&
	       in_flight < peer->cwnd;
}

/* Packets the peer's window and the congestion window let us send */
static u32 send_room(const struct wind_peer *peer)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;

	return min(peer->snd_wnd_end - peer->snd_nxt, peer->cwnd - in_flight);
}

/* wind_push(), and with @flush set regardless of a cork */
static void push(struct wind_peer *peer, bool flush)
{
	unsigned int n, bytes;
	struct sk_buff *skb, *last;
	bool held = false;

	while ((skb = peer->send_head) && wind_may_send(peer)) {
		bool bundle;
		u8 flags = 0;

		last = skb;
		/* small messages queued behind each other go as one */
		n = wind_bundle_run(peer, skb, &last, &bytes, &held);
		if (held && !flush)
			break;
		held = false;
		bundle = n > 1;
		if (!bundle) {
			last = skb;
			/* as much of a run as the windows allow (no memory
			 * to split it: all of it, and the peer refuses what
			 * it has no room for)
			 */
			n = send_room(peer);
			if (WIND_SKB_CB(skb)->npkts > n)
				wind_wq_split(peer, skb, n);
		}
		peer->send_head = skb_queue_is_last(&peer->wq, last) ?
				  NULL : last->next;
		wind_snd_nxt_set(peer, wind_end_seq(last));
		/* a window is full: ask for an ack at once */
		if (peer->send_head && !wind_may_send(peer))
			flags |= WIND_F_ACKREQ;
		if (bundle && !wind_xmit_bundle(peer, skb, n, bytes, flags))
			continue;
		/* one by one (no memory for the bundle: still no loss) */
		for (; skb != last; skb = skb->next)
			wind_xmit_skb(peer, skb, 0);
		wind_xmit_skb(peer, last, flags);
	}
	/* nothing in flight and the rest held by a cork: no probe is due */
	if (!skb_queue_empty(&peer->wq) && !wind_rtx_timer_due(peer) &&
	    !(held && peer->snd_una == peer->snd_nxt))
		wind_rtx_timer_arm(peer);
}

/**
 * wind_push() - transmit queued packets while the peer's window allows
 * @peer: the peer, its socket locked
 *
 * One-packet messages queued behind each other leave as one bundle; a
 * corked peer (MSG_MORE, WIND_CORK) keeps the last of them back until
 * they fill a packet.
 */
void wind_push(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	push(peer, false);
}

/**
 * wind_uncork() - send what every peer of a socket holds back
 * @sk: the socket, locked
 * @clear: forget each peer's MSG_MORE too (WIND_CORK set to 0, close())
 */
void wind_uncork(struct sock *sk, bool clear)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_peer *peer;

	wind_sock_assert_held(sk);
	list_for_each_entry(peer, &ws->peer_list, node) {
		if (clear)
			peer->more = 0;
		if (peer->send_head)
			push(peer, true);
	}
}
