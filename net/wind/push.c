// SPDX-License-Identifier: GPL-2.0
/*
 * When to send: wind_push() transmits a peer's queued packets while the
 * peer's window and the congestion window allow, small messages queued
 * behind each other as one bundle (bundle.c), the rest a run at a time
 * (tx.c), and arms the retransmission timer for what is in flight.  A
 * bundle with room for more may wait for them: corked (MSG_MORE,
 * WIND_CORK) or by Nagle's rule.
 */
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "bundle.h"
#include "peer.h"
#include "push.h"
#include "rwnd.h"
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

	return wind_rwnd_may_send(peer->snd_wnd_end, peer->snd_nxt) &&
	       in_flight < peer->cwnd;
}

/* Packets the peer's window and the congestion window let us send */
static u32 send_room(const struct wind_peer *peer)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;

	return min(peer->snd_wnd_end - peer->snd_nxt, peer->cwnd - in_flight);
}

/* Does @peer hold small messages back to bundle them: its last send
 * said MSG_MORE, or the socket is corked (WIND_CORK), and close() is not
 * flushing?
 */
static bool corked(const struct wind_peer *peer)
{
	const struct wind_sock *ws = wind_sk(peer->sk);

	return (peer->more || ws->cork) && !ws->flushing;
}

/* Nagle's rule (RFC 896), with Minshall's refinement as Linux TCP's
 * tcp_nagle_check(): a packet with room for more waits while one such
 * packet sent before is unacknowledged, so that what is queued meanwhile
 * fills it.  Its ACK sends it (wind_ack_rcv() pushes), else the backstop
 * (net.wind.nagle_us, timer.c): a receiver delays its ACK (delack_ms) and
 * its reader may wait for the held message.  Full packets, a bulk stream's,
 * hold nothing back: a small message behind them leaves at once.  The
 * small packet must be in flight: a refusal takes everything back
 * (snd_nxt = snd_una) and no ACK is coming.  Not with WIND_NODELAY, nor
 * net.wind.nagle_us 0, nor while close() flushes.
 */
static bool nagle(const struct wind_peer *peer)
{
	const struct wind_sock *ws = wind_sk(peer->sk);

	return !ws->nodelay && !ws->flushing &&
	       WIND_PARAM(peer->sk, nagle_us) &&
	       wind_seq_after(peer->snd_sml, peer->snd_una) &&
	       !wind_seq_after(peer->snd_sml, peer->snd_nxt);
}

/* wind_push(), and with @flush set regardless of a cork or Nagle's rule */
static void push(struct wind_peer *peer, bool flush)
{
	unsigned int n, bytes;
	struct sk_buff *skb, *last;
	bool room, corked_held = false, nagle_held = false;

	while ((skb = peer->send_head) && wind_may_send(peer)) {
		bool bundle;
		u8 flags = 0;

		last = skb;
		/* small messages queued behind each other go as one */
		n = wind_bundle_run(peer, skb, &last, &bytes, &room);
		if (room && !flush) {
			corked_held = corked(peer);
			nagle_held = !corked_held && nagle(peer);
			if (corked_held || nagle_held)
				break;
		}
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
		if (room)
			peer->snd_sml = peer->snd_nxt;
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
	wind_timers_data_pushed(peer, nagle_held, corked_held);
}

/**
 * wind_push() - transmit queued packets while the peer's window allows
 * @peer: the peer, its socket locked
 *
 * One-packet messages queued behind each other leave as one bundle; a
 * corked peer (MSG_MORE, WIND_CORK) keeps the last of them back until
 * they fill a packet, and so does one whose last small packet is
 * unacknowledged (Nagle's rule, unless WIND_NODELAY) until its ACK.
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
 *
 * What corks and Nagle's rule hold leaves, as the peers' windows allow.
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
