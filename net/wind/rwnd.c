// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver's window promise: what a peer may send us, from what our
 * receive buffer holds and what one of its packets costs there, shared
 * among the peers that send to the socket now.  Every packet we send
 * carries it (tx.c, fill_header()); the receive path keeps its word
 * (deliver.c, rcv_room()).
 */
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <net/sock.h>

#include "deliver.h"
#include "netns.h"
#include "peer.h"
#include "rwnd.h"
#include "seq.h"
#include "skb.h"
#include "sock.h"

/* What one packet of mss payload costs a receive buffer: over veth,
 * the truesize the sender gave it, the larger of a one-packet message's
 * (alloc_pkt()) and a run's packet's (xmit_part(): a head of its own,
 * the payload in page fragments).
 */
static unsigned int pkt_truesize(const struct wind_peer *peer)
{
	return max(SKB_TRUESIZE(SKB_DATA_ALIGN(WIND_HEADROOM + peer->mss)),
		   SKB_TRUESIZE(SKB_DATA_ALIGN(WIND_HEADROOM)) + peer->mss);
}

/* What one seq of @peer's costs a receive buffer, as its packets took it
 * lately (deliver.c, rq_insert()): a small message, alone or bundled,
 * takes a fraction of a full packet's truesize, and a window counted in
 * full packets offered it a third of the buffer; a NIC's receive buffer
 * may take more than our packet's (a page a packet).  Between a quarter
 * of a full packet's and twice it: a peer that goes from small to large
 * messages overdraws its window by at most that until its first large
 * packet is in, and what its receiver refuses it sends again as the
 * window opens (WIND_ACK_REFUSED).
 */
static unsigned int seq_truesize(const struct wind_peer *peer)
{
	unsigned int full = pkt_truesize(peer);

	if (!peer->rx_seq_cost)
		return full;
	return clamp_t(unsigned int, peer->rx_seq_cost, full / 4, 2 * full);
}

/**
 * wind_full_window() - the window a peer gets when our buffer is empty
 * @peer: the peer
 *
 * Return: the receive buffer in packets, capped by the window tunable
 * and the receive table.
 */
static u32 wind_full_window(const struct wind_peer *peer)
{
	struct sock *sk = peer->sk;

	return min3(READ_ONCE(sk->sk_rcvbuf) / seq_truesize(peer),
		    (u32)WIND_PARAM(sk, window), WIND_RT_BITS - 1);
}

/* How long a peer that sent us data counts as one of the socket's
 * senders: the rest of the epoch it did, and the next one
 */
#define WIND_RX_EPOCH	max(HZ / 100, 1)

/**
 * wind_rx_sender() - note that a peer sent us data
 * @peer: the peer, its socket locked
 *
 * Counts the verified peers that sent data in the current epoch of
 * WIND_RX_EPOCH (an off-path host's forged packets count for nothing).
 */
void wind_rx_sender(struct wind_peer *peer)
{
	struct wind_sock *ws = wind_sk(peer->sk);
	unsigned long now = jiffies;

	wind_peer_assert_held(peer);
	if (peer->unverified)
		return;
	if (time_after_eq(now, ws->rx_epoch_start + WIND_RX_EPOCH)) {
		/* the epoch that ended counts unless it ended long ago */
		ws->rx_senders_prev = time_before(now, ws->rx_epoch_start +
						       2 * WIND_RX_EPOCH) ?
				      ws->rx_senders : 0;
		ws->rx_senders = 0;
		ws->rx_epoch++;
		ws->rx_epoch_start = now;
	}
	if (peer->rx_epoch != ws->rx_epoch) {
		peer->rx_epoch = ws->rx_epoch;
		ws->rx_senders++;
	}
}

/* How many peers send to @peer's socket now (it among them): the most
 * of this epoch's and the last one's, at least 1
 */
static u32 rx_senders(const struct wind_peer *peer)
{
	const struct wind_sock *ws = wind_sk(peer->sk);
	u32 n;

	if (time_after_eq(jiffies, ws->rx_epoch_start + 2 * WIND_RX_EPOCH))
		return 1;
	n = max(ws->rx_senders, ws->rx_senders_prev);
	if (peer->rx_epoch != ws->rx_epoch &&
	    peer->rx_epoch != ws->rx_epoch - 1)
		n++;
	return max(n, 1U);
}

/**
 * wind_fair_window() - a peer's share of the receive buffer
 * @peer: the peer
 *
 * The buffer in packets divided among the peers that send to the socket
 * now, at most wind_full_window(): what the peer may be offered when the
 * buffer is empty.
 *
 * Return: packets, at least 1.
 */
u32 wind_fair_window(const struct wind_peer *peer)
{
	u32 buf = READ_ONCE(peer->sk->sk_rcvbuf) / seq_truesize(peer);

	return clamp(buf / rx_senders(peer), 1U, wind_full_window(peer));
}

/**
 * wind_free_window() - the window the free receive buffer allows now
 * @peer: the peer
 *
 * One socket's buffer takes the data of all its peers: each peer that
 * sends now is offered its share of what is free, so that what they may
 * all send at once fits (16 peers offered all of it each overflowed it:
 * drops, and retransmission timeouts for the tails).  A lone sender is
 * offered all of it.
 *
 * The peer whose message may take the buffer past sk_rcvbuf (deliver.c)
 * is offered the rest of that message, so that it completes at once
 * rather than a probe at a time, as far as that claim's bound allows:
 * claims one after another while the reader does not read fill the
 * buffer with whole messages up to it, and a window offered past it was
 * refused and resent at every retransmission timeout.
 *
 * Return: packets we can take from @peer, at most wind_full_window().
 */
u32 wind_free_window(const struct wind_peer *peer)
{
	struct sock *sk = peer->sk;
	const struct wind_sock *ws = wind_sk(sk);
	u32 full = wind_full_window(peer), wnd;
	int rcvbuf, taken, free;

	/* what waits on the backlog is not charged yet, but will be */
	rcvbuf = READ_ONCE(sk->sk_rcvbuf);
	taken = sk_rmem_alloc_get(sk) + READ_ONCE(sk->sk_backlog.len);
	free = rcvbuf - taken;
	if (READ_ONCE(ws->rmem_short))
		return 0;	/* net.wind.mem or the memory cgroup */
	wnd = free > 0 ? free / seq_truesize(peer) : 0;
	wnd = min(DIV_ROUND_UP(wnd, rx_senders(peer)), full);
	if (ws->rcv_claim == peer &&
	    wind_seq_before(peer->rcv_nxt, ws->rcv_claim_end)) {
		free = (int)wind_rcv_claim_max(rcvbuf) - taken;
		wnd = max(wnd, min3(ws->rcv_claim_end - peer->rcv_nxt, full,
				    free > 0 ? free / pkt_truesize(peer) : 0));
	}
	return wnd;
}

/**
 * wind_rcv_window() - the window to advertise to a peer, and note it
 * @peer: the peer, its socket locked
 *
 * A peer offered less than a quarter of its share (wind_fair_window()) is
 * marked starved: reads that reopen it tell it (see window_update()).
 *
 * Return: the window to advertise, from the free receive buffer.
 */
u16 wind_rcv_window(struct wind_peer *peer)
{
	struct sock *sk = peer->sk;
	u32 wnd = wind_free_window(peer);

	wind_peer_assert_held(peer);
	if (wnd < wind_fair_window(peer) / 4) {
		struct wind_sock *ws = wind_sk(sk);
		int free = READ_ONCE(sk->sk_rcvbuf) - sk_rmem_alloc_get(sk);

		/* the fullest the buffer was while a window was shut: the
		 * reads that free a sixteenth of it from here look again
		 * (socket.c, window_update()), though each finds the
		 * buffer as full as the last one did
		 */
		if (free < READ_ONCE(ws->wu_free))
			WRITE_ONCE(ws->wu_free, free);
		if (!peer->starved) {
			peer->starved = 1;
			ws->starved++;
		}
	}
	peer->rcv_wnd = wnd;
	return wnd;
}

/**
 * wind_ack_seq() - the cumulative ack a data packet may carry
 * @peer: the peer, its socket locked
 *
 * Return: rcv_nxt, or the first refused message while one is being
 * reported: only ACK packets, which carry the refusal, may cover it.
 */
u32 wind_ack_seq(const struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	if (peer->nrefused &&
	    wind_seq_before(peer->refused[0].seq, peer->rcv_nxt))
		return peer->refused[0].seq;
	return peer->rcv_nxt;
}
