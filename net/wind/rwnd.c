// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver's window promise: what a peer may send us, from what our
 * receive buffer holds and what one of its packets costs there, shared
 * among the peers that send to the socket now.  Every packet we send
 * carries it (tx.c, fill_header()), and the receive path keeps its word
 * here too: what a packet that arrives may take of the buffer
 * (wind_rcv_room()), and what makes room for it.
 */
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <net/sock.h>

#include "deliver.h"
#include "mem.h"
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
	return wind_rwnd_seq_cost(peer->rx_seq_cost, pkt_truesize(peer));
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

	return wind_rwnd_full(READ_ONCE(sk->sk_rcvbuf), seq_truesize(peer),
			      WIND_PARAM(sk, window));
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
	return wind_rwnd_fair(READ_ONCE(peer->sk->sk_rcvbuf), seq_truesize(peer),
			      rx_senders(peer), wind_full_window(peer));
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
	wnd = wind_rwnd_share(free, seq_truesize(peer), rx_senders(peer), full);
	if (ws->rcv_claim == peer &&
	    wind_seq_before(peer->rcv_nxt, ws->rcv_claim_end)) {
		free = (int)wind_rwnd_claim_max(rcvbuf) - taken;
		wnd = wind_rwnd_claim(wnd, ws->rcv_claim_end - peer->rcv_nxt,
				      full, free, pkt_truesize(peer));
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

static bool fits(struct sock *sk, unsigned int need)
{
	return wind_rwnd_fits(sk_rmem_alloc_get(sk), need,
			      READ_ONCE(sk->sk_rcvbuf));
}

/* Free out-of-order packets until @need bytes fit: @peer's own first,
 * then those of the socket's other peers.  In-order data is progress and
 * goes before anything that waits for a hole; without this, packets held
 * for senders that went away (or a buffer shrunk by SO_RCVBUF) could
 * keep every other peer out of the socket.  The walk over the other
 * peers happens only while some hold packets behind a hole (ooo_pkts),
 * so a full buffer of delivered messages costs no walk per packet.
 */
static bool prune_ooo(struct wind_peer *peer, unsigned int need)
{
	struct wind_sock *ws = wind_sk(peer->sk);
	struct sock *sk = peer->sk;
	struct wind_peer *other;

	while (!fits(sk, need) && wind_rq_drop_ooo_tail(peer))
		;
	list_for_each_entry(other, &ws->peer_list, node) {
		if (!ws->ooo_pkts || fits(sk, need))
			break;
		while (other != peer && !fits(sk, need) &&
		       wind_rq_drop_ooo_tail(other))
			;
	}
	return fits(sk, need);
}

/**
 * wind_rcv_drop_one_ooo() - free one packet held behind a hole
 * @peer: the peer whose in-order data needs the room, its socket locked
 *
 * @peer's own, else another peer's of the socket, freed to make room for
 * in-order data when receive memory ran out.
 *
 * Return: whether one was freed.
 */
bool wind_rcv_drop_one_ooo(struct wind_peer *peer)
{
	struct wind_sock *ws = wind_sk(peer->sk);
	struct wind_peer *other;

	if (wind_rq_drop_ooo_tail(peer))
		return true;
	list_for_each_entry(other, &ws->peer_list, node) {
		if (!ws->ooo_pkts)
			break;
		if (other != peer && wind_rq_drop_ooo_tail(other))
			return true;
	}
	return false;
}

/* May the message of in-order packet @seq take the buffer past
 * sk_rcvbuf?  One message of one peer at a time: the first to ask, until
 * its last packet is in (or wind_rq_drop_all() clears it).  Were
 * every peer's in-order packets let in, many peers' half-received
 * messages could fill the buffer together, none complete, and nothing be
 * read to make room: an incast of large messages would stall for good.
 * The claimed message is offered the rest of it as its window, within
 * the bound (wind_free_window()).
 */
static bool rcv_claim(struct wind_peer *peer, const struct wind_skb_cb *cb)
{
	struct wind_sock *ws = wind_sk(peer->sk);
	struct wind_peer *holder = ws->rcv_claim;

	if (holder && wind_seq_before(holder->rcv_nxt, ws->rcv_claim_end)) {
		/* its message is still incomplete */
		return holder == peer &&
		       wind_seq_before(cb->seq, ws->rcv_claim_end);
	}
	ws->rcv_claim = peer;
	ws->rcv_claim_end = cb->seq - cb->frag + cb->nfrags;
	return true;
}

/* Grow a receive buffer that partly received messages filled: as a TCP
 * connection's buffer grows (up to net.ipv4.tcp_rmem[2]), and for the
 * same reason: a socket whose many peers each send a large message at
 * once needs room for all of them under way, a connection per peer would
 * have had a buffer each.  Only while the user did not set SO_RCVBUF,
 * messages under way hold at least half of the buffer (a reader behind
 * its queue of whole messages is not helped by more room), every peer is
 * verified (an off-path host's forged first packets, partial messages
 * from as many source ports as unverified_max allows, must not make the
 * socket hold 30 times more) and the protocol's memory is not under
 * pressure (net.wind.mem).  Doubling; the buffer stays grown, as TCP's
 * does.
 */
static bool rcvbuf_grow(struct sock *sk)
{
	int cur = READ_ONCE(sk->sk_rcvbuf);
	int max = READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_rmem[2]);

	if ((sk->sk_userlocks & SOCK_RCVBUF_LOCK) || cur >= max ||
	    wind_sk(sk)->rq_bytes < (u32)cur / 2 || wind_sk(sk)->unverified ||
	    READ_ONCE(wind_sk(sk)->rmem_short) ||
	    atomic_long_read(&wind_memory_allocated) > READ_ONCE(wind_mem[1]))
		return false;
	WRITE_ONCE(sk->sk_rcvbuf, cur > max / 2 ? max : 2 * cur);
	return true;
}

/* Did we tell @peer, a verified one, it may send @seq?  The windows of
 * a socket's peers are offered from what is free at different moments:
 * while packets sent under an earlier offer are on the way, the buffer
 * may fill with other peers' (the reader is slower than they send), and
 * they would arrive past sk_rcvbuf with their window shut.  Dropped, they
 * come back only when the sender's RACK or probe timer finds them missing:
 * an incast of 16 senders lost its tails to retransmission timeouts.
 */
static bool rcv_offered(const struct wind_peer *peer, u32 seq)
{
	return !peer->unverified && wind_rwnd_offered(peer->rcv_wnd_edge, seq);
}

/**
 * wind_rcv_room() - whether the receive buffer takes a packet
 * @peer: the peer it came from, its socket locked
 * @skb: the packet
 * @seq: its seq
 *
 * Past sk_rcvbuf, an in-order packet may grow a
 * buffer that may grow (rcvbuf_grow()).  The receiver keeps its word:
 * a packet it offered (rcv_offered()), in order or not, is taken up to a
 * quarter past sk_rcvbuf (what it holds behind a hole was offered too,
 * and dropped, would come back only when the sender's RACK finds it
 * missing).  Past that, an in-order packet may take the room of what
 * waits behind a hole, and one message at a time (rcv_claim()) up to
 * twice its size: a message that fits the buffer by its bytes must be
 * able to complete despite per-packet overhead, else both ends would
 * wait for each other.  Twice sk_rcvbuf is the bound of what a socket
 * may hold (wind.rst, "Memory").
 *
 * Return: true if the packet may be queued.
 */
bool wind_rcv_room(struct wind_peer *peer, struct sk_buff *skb, u32 seq)
{
	struct sock *sk = peer->sk;
	bool in_order = seq == peer->rcv_nxt;
	u32 rcvbuf;

	if (fits(sk, skb->truesize))
		return true;
	if (in_order && rcvbuf_grow(sk) && fits(sk, skb->truesize))
		return true;
	rcvbuf = READ_ONCE(sk->sk_rcvbuf);
	if (rcv_offered(peer, seq) &&
	    wind_rwnd_fits(sk_rmem_alloc_get(sk), skb->truesize,
			   wind_rwnd_offered_max(rcvbuf)))
		return true;
	if (!in_order)
		return false;
	if (prune_ooo(peer, skb->truesize))
		return true;
	return rcv_claim(peer, WIND_SKB_CB(skb)) &&
	       wind_rwnd_fits(sk_rmem_alloc_get(sk), skb->truesize,
			      wind_rwnd_claim_max(rcvbuf));
}
