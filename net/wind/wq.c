// SPDX-License-Identifier: GPL-2.0
/*
 * The write queue's runs.  A message of more than one packet is queued
 * as few skbs as its page fragments allow (sendmsg.c, fill_paged()), each
 * a run of packets from cb->seq on (cb->npkts of them) whose payloads lie
 * end to end in its fragments, every packet cb->pkt_size bytes but the
 * message's last.  A run is the unit of the sender's work: allocated
 * once, sent as one GSO skb where the device takes it, freed by the
 * cumulative ACK that passes it.  All its packets are in one state (sent
 * at one time, reported or not, retransmitted or not): where an ACK, a
 * loss or a probe concerns only some of them, the run is split there
 * first, as TCP splits its skbs (tcp_fragment()).
 */
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "peer.h"
#include "skb.h"
#include "wq.h"

/* Move @bytes of @skb's truesize, charged to its socket, off it (they
 * went to another skb or were let go of)
 */
static void uncharge(struct sk_buff *skb, unsigned int bytes)
{
	skb->truesize -= bytes;
	/* the skb keeps its own charge: this never frees the socket */
	WARN_ON(refcount_sub_and_test(bytes, &skb->sk->sk_wmem_alloc));
}

/**
 * wind_wq_split() - split a write-queue run after its first packets
 * @peer: the peer, its socket locked
 * @skb: a run on @peer's write queue
 * @n: packets that stay in @skb, fewer than it holds
 *
 * The others go to a new skb queued right after @skb, in @skb's state;
 * WIND_F_ACKREQ (a sync message's last packet asks for an ack) goes with
 * the message's last packet.  send_head is left as it was: the new run
 * is sent or not as @skb was.
 *
 * Context: the socket lock held, by its owner or in softirq (ACKs and
 * timers split runs too): the new skb is allocated GFP_ATOMIC and
 * charged to the socket's sk_wmem_alloc like the run it came from.
 * Return: 0, or -ENOMEM and @skb as it was.
 */
int wind_wq_split(struct wind_peer *peer, struct sk_buff *skb, u32 n)
{
	struct wind_skb_cb *cb = WIND_SKB_CB(skb), *ncb;
	unsigned int len = n * cb->pkt_size, moved;
	struct sock *sk = peer->sk;
	struct sk_buff *nskb;

	wind_peer_assert_held(peer);
	if (WARN_ON_ONCE(!n || n >= cb->npkts || len >= skb->len ||
			 skb_headlen(skb)))
		return -EINVAL;
	nskb = alloc_skb(0, GFP_ATOMIC | __GFP_ACCOUNT);
	if (!nskb)
		return -ENOMEM;
	moved = skb->len - len;
	skb_split(skb, nskb, len);
	uncharge(skb, moved);
	nskb->truesize += moved;
	skb_set_owner_w(nskb, sk);

	ncb = WIND_SKB_CB(nskb);
	*ncb = *cb;
	ncb->seq = cb->seq + n;
	ncb->frag = cb->frag + n;
	ncb->npkts = cb->npkts - n;
	cb->npkts = n;
	cb->flags &= ~WIND_F_ACKREQ;
	__skb_queue_after(&peer->wq, skb, nskb);
	return 0;
}

/**
 * wind_wq_trim_head() - let go of a run's first packets
 * @peer: the peer, its socket locked
 * @skb: a run on @peer's write queue, the first
 * @n: packets acknowledged, fewer than it holds
 *
 * Their page fragments are put in place: nothing to allocate, so a
 * cumulative ACK into a run never fails to free what it covers.
 */
void wind_wq_trim_head(struct wind_peer *peer, struct sk_buff *skb, u32 n)
{
	struct wind_skb_cb *cb = WIND_SKB_CB(skb);
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int len = n * cb->pkt_size, left = len;
	int i, k = 0;

	wind_peer_assert_held(peer);
	if (WARN_ON_ONCE(!n || n >= cb->npkts || len >= skb->len ||
			 skb_headlen(skb)))
		return;
	for (i = 0; i < shinfo->nr_frags; i++) {
		skb_frag_t *f = &shinfo->frags[i];
		unsigned int size = skb_frag_size(f);

		if (left >= size) {
			left -= size;
			put_page(skb_frag_page(f));
			continue;
		}
		shinfo->frags[k] = *f;
		if (left) {
			skb_frag_off_add(&shinfo->frags[k], left);
			skb_frag_size_sub(&shinfo->frags[k], left);
			left = 0;
		}
		k++;
	}
	shinfo->nr_frags = k;
	skb->len -= len;
	skb->data_len -= len;
	uncharge(skb, len);
	cb->seq += n;
	cb->frag += n;
	cb->npkts -= n;
}

/**
 * wind_wq_packets() - the packets on a peer's write queue
 * @peer: the peer, its socket locked
 *
 * Return: sent and unacknowledged, and not sent yet.
 */
u32 wind_wq_packets(const struct wind_peer *peer)
{
	const struct sk_buff *skb;
	u32 n = 0;

	wind_peer_assert_held(peer);
	skb_queue_walk(&peer->wq, skb)
		n += WIND_SKB_CB(skb)->npkts;
	return n;
}

/**
 * wind_skb_add_frags() - reference part of an skb's page fragments
 * @to: the skb to add them to, with room for them in its frags
 * @skb: the skb whose payload lies in page fragments only
 * @off: where the part starts in @skb's payload
 * @len: its length
 *
 * A page reference is taken for each fragment added: nothing is copied.
 * A run's packets sent on their own (tx.c) and a GSO skb cut into
 * packets (deliver.c) are built so.
 */
void wind_skb_add_frags(struct sk_buff *to, const struct sk_buff *skb,
			unsigned int off, unsigned int len)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int i, want = to->len + len;

	for (i = 0; i < shinfo->nr_frags && to->len < want; i++) {
		const skb_frag_t *f = &shinfo->frags[i];
		unsigned int size = skb_frag_size(f), n;

		if (off >= size) {
			off -= size;
			continue;
		}
		n = min(size - off, want - to->len);
		get_page(skb_frag_page(f));
		skb_fill_page_desc(to, skb_shinfo(to)->nr_frags,
				   skb_frag_page(f), skb_frag_off(f) + off, n);
		to->len += n;
		to->data_len += n;
		to->truesize += n;
		off = 0;
	}
}
