/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The window we offer a peer (rwnd.c): what it may send us, from our
 * receive buffer and the peers that send to the socket now, and the
 * cumulative acknowledgment every packet carries; and what an arriving
 * packet may take of the receive buffer.
 *
 * The integer arithmetic of both is the static inline functions below:
 * they touch no kernel object, and the host unit tests (tests/unit,
 * test_rwnd) compile them in userspace.  Windows count packets (seqs),
 * costs and buffers bytes (truesize).
 */
#ifndef _WIND_RWND_H
#define _WIND_RWND_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kshim.h"
#endif

#include "rxtable.h"
#include "seq.h"

struct sk_buff;
struct wind_peer;

u16 wind_rcv_window(struct wind_peer *peer);
u32 wind_free_window(const struct wind_peer *peer);
u32 wind_fair_window(const struct wind_peer *peer);
void wind_rx_sender(struct wind_peer *peer);
u32 wind_ack_seq(const struct wind_peer *peer);
bool wind_rcv_room(struct wind_peer *peer, struct sk_buff *skb, u32 seq);
bool wind_rcv_drop_one_ooo(struct wind_peer *peer);

/**
 * wind_rwnd_seq_cost() - what one seq of a peer's costs the buffer
 * @avg: the receive buffer its seqs took lately, averaged; 0: none yet
 * @full: what a full packet of its mss costs
 *
 * Return: @avg within [@full / 4, 2 * @full], or @full before any.
 */
static inline u32 wind_rwnd_seq_cost(u32 avg, u32 full)
{
	if (!avg)
		return full;
	if (avg < full / 4)
		return full / 4;
	if (avg > 2 * full)
		return 2 * full;
	return avg;
}

/**
 * wind_rwnd_full() - the window of a peer when the buffer is empty
 * @rcvbuf: sk_rcvbuf
 * @cost: what one of its seqs costs (wind_rwnd_seq_cost())
 * @window: net.wind.window
 *
 * Return: the buffer in packets, capped by @window and the receive table
 * (a seq at base + WIND_RXT_BITS is outside it).
 */
static inline u32 wind_rwnd_full(u32 rcvbuf, u32 cost, u32 window)
{
	u32 wnd = rcvbuf / cost;

	if (wnd > window)
		wnd = window;
	if (wnd > WIND_RXT_BITS - 1)
		wnd = WIND_RXT_BITS - 1;
	return wnd;
}

/**
 * wind_rwnd_fair() - a peer's share of the whole buffer
 * @rcvbuf: sk_rcvbuf
 * @cost: what one of its seqs costs
 * @senders: the peers that send to the socket now, it among them (>= 1)
 * @full: wind_rwnd_full()
 *
 * Return: the buffer in packets divided among @senders, within
 * [1, @full]; @full when that is 0.
 */
static inline u32 wind_rwnd_fair(u32 rcvbuf, u32 cost, u32 senders, u32 full)
{
	u32 wnd = rcvbuf / cost / senders;

	/* as the kernel's clamp(wnd, 1U, full) */
	return wnd >= full ? full : wnd <= 1 ? 1 : wnd;
}

/**
 * wind_rwnd_share() - a peer's share of the free buffer
 * @free: sk_rcvbuf less what the buffer and its backlog hold (may be < 0)
 * @cost: what one of its seqs costs
 * @senders: the peers that send to the socket now, it among them (>= 1)
 * @full: wind_rwnd_full()
 *
 * Rounded up, so that a lone packet's room is offered to every sender:
 * together they may overdraw @free by up to @senders - 1 packets.
 *
 * Return: packets, at most @full.
 */
static inline u32 wind_rwnd_share(int free, u32 cost, u32 senders, u32 full)
{
	u32 wnd = free > 0 ? (u32)free / cost : 0;

	wnd = (wnd + senders - 1) / senders;
	return wnd < full ? wnd : full;
}

/**
 * wind_rwnd_claim_max() - how far a claimed message may fill the buffer
 * @rcvbuf: sk_rcvbuf
 *
 * Return: twice @rcvbuf, the most a socket's receive queue holds
 * (wind.rst, "Memory").
 */
static inline u32 wind_rwnd_claim_max(u32 rcvbuf)
{
	return 2 * rcvbuf;
}

/**
 * wind_rwnd_claim() - the window of the peer whose message holds the claim
 * @wnd: its share of the free buffer (wind_rwnd_share())
 * @left: seqs of the claimed message still to come
 * @full: wind_rwnd_full()
 * @free: wind_rwnd_claim_max() less what the buffer and backlog hold
 * @pkt_cost: what a full packet of its mss costs
 *
 * Return: @wnd, or the rest of the message if more, as far as @full and
 * the room up to the claim's bound allow.
 */
static inline u32 wind_rwnd_claim(u32 wnd, u32 left, u32 full, int free,
				  u32 pkt_cost)
{
	u32 room = free > 0 ? (u32)free / pkt_cost : 0;
	u32 more = left;

	if (more > full)
		more = full;
	if (more > room)
		more = room;
	return wnd > more ? wnd : more;
}

/**
 * wind_rwnd_edge() - the furthest seq a peer was told it may send
 * @edge: the edge before, exclusive
 * @ack: the cumulative ack a packet to it carries
 * @wnd: the window that packet advertises
 *
 * An edge never moves back: what the peer sent under an earlier, wider
 * offer is still on the way.
 *
 * Return: the edge after the packet, exclusive.
 */
static inline u32 wind_rwnd_edge(u32 edge, u32 ack, u32 wnd)
{
	return wind_seq_after(ack + wnd, edge) ? ack + wnd : edge;
}

/**
 * wind_rwnd_snd_end() - what the sender makes of an advertisement
 * @ack: the ack it came with
 * @window: the window it advertised
 * @max: net.wind.window at the sender
 *
 * Return: the sender may transmit seqs before this (wind_rwnd_may_send()).
 */
static inline u32 wind_rwnd_snd_end(u32 ack, u32 window, u32 max)
{
	return ack + (window < max ? window : max);
}

/**
 * wind_rwnd_may_send() - whether a peer's window lets it transmit a seq
 * @snd_end: wind_rwnd_snd_end() of its last advertisement
 * @seq: the seq
 */
static inline bool wind_rwnd_may_send(u32 snd_end, u32 seq)
{
	return wind_seq_before(seq, snd_end);
}

/**
 * wind_rwnd_offered() - whether a seq is inside what we offered
 * @edge: the peer's edge (wind_rwnd_edge())
 * @seq: the seq that arrived
 *
 * Return: true for the WIND_RXT_BITS seqs before @edge, across
 * wraparound.
 */
static inline bool wind_rwnd_offered(u32 edge, u32 seq)
{
	return edge - seq - 1 < WIND_RXT_BITS;
}

/**
 * wind_rwnd_fits() - whether a packet fits a bound of the buffer
 * @rmem: what the receive buffer holds
 * @truesize: what the packet costs
 * @limit: the bound
 */
static inline bool wind_rwnd_fits(u32 rmem, u32 truesize, u32 limit)
{
	return rmem + truesize <= limit;
}

/**
 * wind_rwnd_offered_max() - how far an offered packet may fill the buffer
 * @rcvbuf: sk_rcvbuf
 *
 * A packet we offered (wind_rwnd_offered()), in order or not, is taken
 * up to a quarter past sk_rcvbuf: room for the shares of
 * wind_rwnd_share() rounded up, and for windows offered at different
 * moments.
 *
 * Return: @rcvbuf and a quarter.
 */
static inline u32 wind_rwnd_offered_max(u32 rcvbuf)
{
	return rcvbuf + rcvbuf / 4;
}

#endif /* _WIND_RWND_H */
