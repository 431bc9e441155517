// SPDX-License-Identifier: GPL-2.0
/*
 * Bundles: one-packet messages queued behind each other leave as one
 * DATA packet of chunks (WIND_F_BUNDLE; wind.h, struct wind_chunkhdr),
 * and a bundle that arrives is unpacked into messages of their own, each
 * of which goes the way any data packet goes (deliver.c).  Both
 * directions here: the layout is one.  Whether a run with room for more
 * waits for them (a cork, Nagle's rule) is push.c's to say.
 */
#include <linux/ktime.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "bundle.h"
#include "deliver.h"
#include "netns.h"
#include "peer.h"
#include "skb.h"
#include "sock.h"
#include "tx.h"
#include "wire.h"

/**
 * wind_bundle_run() - the queued messages that may leave as one bundle
 * @peer: the peer, its socket locked
 * @skb: the first of them (the caller starts at send_head)
 * @last: set to the last of them
 * @bytes: set to their chunks' bytes
 * @room: set when the run takes the write queue to its end and its packet
 *	  has room for another message: one that may wait for more (push.c
 *	  decides), unless a sync message is in it (its sender sleeps until
 *	  it is acknowledged)
 *
 * The one-packet messages from @skb on that fit one bundle: not DSM,
 * their chunks within mss, at most WIND_BUNDLE_MAX of them and what the
 * peer's window and the congestion window allow.
 *
 * Return: how many, 0 if @skb is not such a message.
 */
unsigned int wind_bundle_run(const struct wind_peer *peer,
			     struct sk_buff *skb, struct sk_buff **last,
			     unsigned int *bytes, bool *room)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;
	unsigned int n = 0, len = 0, max;
	bool sync = false;

	wind_peer_assert_held(peer);
	*room = false;
	max = min3((u32)WIND_BUNDLE_MAX, peer->snd_wnd_end - peer->snd_nxt,
		   peer->cwnd - in_flight);
	for (;;) {
		const struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		if (cb->nfrags != 1 || (cb->flags & WIND_F_DSM) || n == max ||
		    len + WIND_CHUNK_LEN(skb->len) > peer->mss)
			break;
		len += WIND_CHUNK_LEN(skb->len);
		n++;
		*last = skb;
		sync |= cb->flags & WIND_F_SYNC;
		if (skb_queue_is_last(&peer->wq, skb)) {
			*room = !sync && n < WIND_BUNDLE_MAX &&
				len + WIND_CHUNK_LEN(1) <= peer->mss;
			break;
		}
		skb = skb->next;
	}
	*bytes = len;
	return n;
}

/**
 * wind_xmit_bundle() - transmit queued one-packet messages as one bundle
 * @peer: the peer, its socket locked
 * @first: the first of the messages, on the write queue
 * @n: how many (wind_bundle_run())
 * @bytes: their chunks' bytes (wind_bundle_run())
 * @flags: extra WIND_F_* flags: WIND_F_ACKREQ only is taken
 *
 * One bundle packet of chunks (wind.h, struct wind_chunkhdr): copies, as
 * the write queue keeps each message for retransmission, which sends it
 * alone.  The messages are marked as sent as if one by one.
 *
 * Return: 0 or a negative errno (nothing sent).
 */
int wind_xmit_bundle(struct wind_peer *peer, struct sk_buff *first,
		     unsigned int n, unsigned int bytes, u8 flags)
{
	u64 now = div_u64(ktime_get_ns(), NSEC_PER_USEC);
	struct sk_buff *bskb, *skb = first;
	struct wind_skb_cb bcb;
	unsigned int i;

	wind_peer_assert_held(peer);
	if (!wind_route_ok(peer))
		return -EHOSTUNREACH;
	bskb = alloc_skb(WIND_HEADROOM + bytes, GFP_ATOMIC);
	if (!bskb)
		return -ENOBUFS;
	skb_reserve(bskb, WIND_HEADROOM);
	for (i = 0; i < n; i++, skb = skb->next) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);
		unsigned int clen = WIND_CHUNK_LEN(skb->len);
		struct wind_chunkhdr *ch = skb_put_zero(bskb, clen);

		ch->flags = cb->flags & WIND_F_CHUNK;
		ch->len = htons(skb->len);
		if (skb_copy_bits(skb, 0, ch + 1, skb->len)) {
			kfree_skb(bskb);
			return -EFAULT;
		}
		cb->tx_us = now;
	}
	memset(&bcb, 0, sizeof(bcb));
	bcb.seq = WIND_SKB_CB(first)->seq;
	bcb.nfrags = n;
	bcb.msg_len = bytes;
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_BUNDLES);
	WIND_ADD_STATS(sock_net(peer->sk), WIND_MIB_OUT_BUNDLED, n);
	wind_send_data(peer, bskb, &bcb,
		       WIND_F_BUNDLE | (flags & WIND_F_ACKREQ), 1);
	return 0;
}

/* A clone of the bundle @skb, trimmed to the @len bytes at @data: a
 * bundled message that looks to recvmsg(), the socket filter and the
 * LSMs as if it came alone (its headers are the bundle's), and shares
 * the bundle's buffer instead of copying into one of its own, as
 * SCTP's events share their packet's.  Each member is charged its own
 * sk_buff and an @n'th of the bundle's buffer, so that the n members
 * together cost the receive buffer what the bundle does.  The buffer
 * lives until the last of them is freed: a member held behind a hole
 * keeps all of it, up to WIND_BUNDLE_MAX times what it is charged, and
 * such members are what rwnd.c reneges on first when the buffer is
 * short (wind_rq_drop_ooo_tail()).  The data is shared: nothing on the
 * receive path writes a member's bytes, it only reads and copies them.
 */
static struct sk_buff *bundle_member(struct sk_buff *skb, unsigned int n,
				     const void *data, unsigned int len)
{
	unsigned int skbsz = SKB_DATA_ALIGN(sizeof(struct sk_buff));
	unsigned int share = DIV_ROUND_UP(skb->truesize - skbsz, n);
	struct sk_buff *pkt;

	pkt = skb_clone(skb, GFP_ATOMIC);
	if (!pkt)
		return NULL;
	/* the route may be the receive path's, not refcounted */
	skb_dst_drop(pkt);
	__skb_pull(pkt, (const u8 *)data - pkt->data);
	__skb_trim(pkt, len);
	pkt->truesize = skbsz + share;
	return pkt;
}

/**
 * wind_bundle_rcv() - a bundle of messages from a peer
 * @peer: the peer, its socket locked
 * @skb: the packet, validated by wind_wire_check_bundle() and linear;
 *	 consumed
 *
 * Each chunk becomes a one-packet message of its own, seq + i, with the
 * chunk's flags, and goes the way any data packet goes (refusal,
 * ordering, duplicates); the bundle's WIND_F_ACKREQ counts for its last.
 * One ACK decision covers them all.
 */
void wind_bundle_rcv(struct wind_peer *peer, struct sk_buff *skb)
{
	const struct windhdr *wh = wind_hdr(skb);
	const struct wind_datahdr *dh = (const void *)(wh + 1);
	struct net *net = sock_net(peer->sk);
	unsigned int i, n = ntohs(dh->nfrags), off = WIND_DATA_HLEN;
	struct in6_addr saddr, daddr;
	u32 seq = ntohl(wh->seq);
	unsigned int now = 0;

	wind_peer_assert_held(peer);
	wind_data_mark_napi(peer->sk, skb);
	wind_skb_addrs(skb, &saddr, &daddr);
	WIND_INC_STATS(net, WIND_MIB_IN_BUNDLES);
	WIND_ADD_STATS(net, WIND_MIB_IN_BUNDLED, n);
	for (i = 0; i < n; i++) {
		const struct wind_chunkhdr *ch = (const void *)(skb->data + off);
		unsigned int len = ntohs(ch->len);
		struct wind_skb_cb *cb;
		struct sk_buff *pkt;

		pkt = bundle_member(skb, n, ch + 1, len);
		off += WIND_CHUNK_LEN(len);
		if (!pkt) {
			peer->drops++;
			atomic_inc(&peer->sk->sk_drops);
			now |= WIND_RX_ACK_NOW;
			continue;
		}
		cb = WIND_SKB_CB(pkt);
		memset(cb, 0, sizeof(*cb));
		cb->seq = seq + i;
		cb->nfrags = 1;
		cb->msg_len = len;
		cb->flags = ch->flags;
		if (i == n - 1)
			cb->flags |= wh->flags & WIND_F_ACKREQ;
		cb->saddr = saddr;
		cb->sport = wh->source;
		now |= wind_data_rcv_one(peer, pkt);
	}
	consume_skb(skb);
	wind_data_ack(peer, now);
}
