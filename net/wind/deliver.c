// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver's side of reliability: the receive table, the queue of
 * arrived but undelivered packets (rq, ordered by seq), reassembly and
 * delivery.  Async-reliable messages are delivered as soon as all their
 * fragments are in; ordered ones once every earlier seq has arrived, so an
 * ordered message never overtakes anything sent before it.
 */
#include <linux/filter.h>
#include <linux/slab.h>
#include <net/busy_poll.h>
#include <net/ip.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "deliver.h"
#include "dsm.h"
#include "mem.h"
#include "netlink.h"
#include "netns.h"
#include "offload.h"
#include "peer.h"
#include "rma.h"
#include "rwnd.h"
#include "rxtable.h"
#include "seq.h"
#include "skb.h"
#include "sock.h"
#include "timers.h"
#include "trace.h"
#include "tx.h"
#include "wire.h"
#include "wq.h"

/* A pure ACK at least every this many data packets (else delack_ms) */
#define WIND_ACK_EVERY		16

/* Refuse a message: consume its seqs, remember why for the ACKs. */
static bool refuse(struct wind_peer *peer, u32 start, u32 error)
{
	unsigned int i;

	for (i = 0; i < peer->nrefused; i++)
		if (peer->refused[i].seq == start)
			return true;
	if (peer->nrefused == WIND_MAX_NAKS)
		return false;	/* drop: the retransmission comes back */
	peer->refused[peer->nrefused].seq = start;
	peer->refused[peer->nrefused].error = error;
	peer->nrefused++;
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_IN_REFUSED);
	return true;
}

static void drop_skb(struct wind_peer *peer, struct sk_buff *skb)
{
	peer->drops++;
	atomic_inc(&peer->sk->sk_drops);
	kfree_skb(skb);
}

/* Take a packet off the peer's receive queue, keeping ooo_pkts true. */
static void rq_unlink(struct wind_peer *peer, struct sk_buff *skb)
{
	__skb_unlink(skb, &peer->rq);
	peer->rq_pkts -= WIND_SKB_CB(skb)->npkts;
	wind_sk(peer->sk)->rq_bytes -= skb->truesize;
	if (WIND_SKB_CB(skb)->ooo)
		wind_sk(peer->sk)->ooo_pkts--;
}

/* Chain @skb, a message's next packet or run of packets, at *@tail of
 * its first one's frag_list; return the new tail.  A run taken whole
 * (gso_rcv_whole(), never cloned) has its own packets in its frag_list:
 * they are chained after it, flat, and a run without payload of its
 * own (sendmsg.c's layout) gives way to them.
 */
static struct sk_buff **chain_frags(struct sk_buff **tail, struct sk_buff *skb)
{
	struct sk_buff *list = skb_shinfo(skb)->frag_list, *m;
	unsigned int mlen = 0;

	if (list) {
		skb_walk_frags(skb, m)
			mlen += m->len;
		skb_shinfo(skb)->frag_list = NULL;
		skb->len -= mlen;
		skb->data_len -= mlen;
	}
	if (!list || skb->len) {
		*tail = skb;
		tail = &skb->next;
	} else {
		consume_skb(skb);
	}
	*tail = list;
	while (*tail)
		tail = &(*tail)->next;
	return tail;
}

/* Take the fragments of the message starting at @start out of rq and
 * queue them to the socket as one skb.  A message whose fragments are not
 * all there (its sender gave up on it, or it was partly refused) is
 * dropped.
 */
static void deliver_message(struct wind_peer *peer, u32 start, u16 nfrags)
{
	struct sock *sk = peer->sk;
	struct sk_buff *skb, *tmp, *head = NULL, **tail = NULL, *hdr = NULL;
	struct sk_buff_head frags;
	unsigned int count = 0;
	bool bad = false;
	int ret;

	__skb_queue_head_init(&frags);
	skb_queue_walk_safe(&peer->rq, skb, tmp) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		if (wind_seq_before(cb->seq, start))
			continue;
		if (!wind_seq_in(cb->seq, start, nfrags))
			break;
		rq_unlink(peer, skb);
		if (cb->seq - start != cb->frag || cb->nfrags != nfrags ||
		    cb->frag + cb->npkts > nfrags)
			bad = true;
		__skb_queue_tail(&frags, skb);
		count += cb->npkts;
	}
	if (!count)
		return;
	/* The head's shared info (frag_list) is ours to change only once
	 * unshared: on a veth the packet is still the sender's clone.
	 */
	head = __skb_dequeue(&frags);
	if (count != nfrags || bad ||
	    (count > 1 && skb_unclone(head, GFP_ATOMIC))) {
		__skb_queue_purge(&frags);
		drop_skb(peer, head);
		return;
	}
	tail = &skb_shinfo(head)->frag_list;
	while (*tail)
		tail = &(*tail)->next;
	/* each packet's charge to the socket's memory goes to the head */
	while ((skb = __skb_dequeue(&frags))) {
		wind_rmem_take(head, skb);
		head->len += skb->len;
		head->data_len += skb->len;
		head->truesize += skb->truesize;
		tail = chain_frags(tail, skb);
	}
	if (head->len != WIND_SKB_CB(head)->msg_len) {
		drop_skb(peer, head);
		return;
	}
	/* The socket filter, cgroup BPF ingress and the LSM judge whole
	 * messages, from their first byte as recvmsg() sees them: one they
	 * refuse is consumed (acknowledged, never delivered, not written),
	 * as a datagram socket drops a datagram.  They may not cut it.
	 */
	if (sk_filter_trim_cap(sk, head, head->len)) {
		WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_FILTERED);
		drop_skb(peer, head);
		return;
	}
	if (WIND_SKB_CB(head)->flags & WIND_F_DSM) {
		ret = wind_dsm_deliver(peer, head, &hdr);
		if (ret < 0) {
			wind_peer_event(peer, WIND_PEER_EVENT_DSM_REFUSED, -ret);
			refuse(peer, start, -ret);
			drop_skb(peer, head);
			return;
		}
		peer->rx_messages++;
		trace_wind_deliver(peer, head, start);
		if (ret != 2)
			consume_skb(head);
		if (!ret) {
			/* Direct Map: nothing is queued, nobody is woken */
			WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_MESSAGES);
			return;
		}
		if (ret == 1) {
			/* its bytes were charged in the packets just freed */
			head = hdr;
			wind_rmem_set_owner(head, sk, true);
		}
	} else {
		peer->rx_messages++;
		trace_wind_deliver(peer, head, start);
	}
	WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_MESSAGES);
	if (wind_sk(sk)->rx_batching) {
		__skb_queue_tail(&wind_sk(sk)->rx_batch, head);
		return;
	}
	skb_queue_tail(&sk->sk_receive_queue, head);
	sk->sk_data_ready(sk);
}

/**
 * wind_deliver_batch_begin() - gather the messages one packet completes
 * @sk: the socket, locked
 *
 * A GSO packet, a bundle or a packet that fills a gap may complete tens
 * of messages.  Until wind_deliver_batch_end(), they wait in the socket's
 * rx_batch instead of taking the receive queue's lock and waking the
 * reader one by one.
 */
void wind_deliver_batch_begin(struct sock *sk)
{
	wind_sk(sk)->rx_batching = 1;
}

/**
 * wind_deliver_batch_end() - queue the gathered messages to the socket
 * @sk: the socket, locked
 *
 * Splices them, in delivery order, onto the receive queue under one
 * acquisition of its lock and wakes the reader once.
 */
void wind_deliver_batch_end(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	unsigned long flags;

	ws->rx_batching = 0;
	if (skb_queue_empty(&ws->rx_batch))
		return;
	spin_lock_irqsave(&sk->sk_receive_queue.lock, flags);
	skb_queue_splice_tail_init(&ws->rx_batch, &sk->sk_receive_queue);
	spin_unlock_irqrestore(&sk->sk_receive_queue.lock, flags);
	sk->sk_data_ready(sk);
}

/* Deliver, in seq order, every message all of whose seqs have arrived. */
static void deliver_in_order(struct wind_peer *peer)
{
	struct sk_buff *skb;

	while ((skb = skb_peek(&peer->rq))) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);
		u32 start = cb->seq - cb->frag;

		if (!wind_seq_before(cb->seq, peer->rcv_nxt))
			break;
		if (wind_seq_after(start + cb->nfrags, peer->rcv_nxt))
			break;
		if (unlikely(cb->flags & WIND_F_DSM) &&
		    wind_rma_must_wait(peer, skb)) {
			peer->rma_stalled = 1;
			wind_sk(peer->sk)->rma_stalled = 1;
			break;
		}
		deliver_message(peer, start, cb->nfrags);
	}
}

/**
 * wind_deliver_stalled() - go on delivering where a request waited
 * @sk: the socket, locked
 *
 * An ordered one-sided request is not served while the send buffer
 * cannot take its answer (wind_rma_must_wait()): it stays in the receive
 * queue, holding back what its peer sent after it and shrinking the
 * window offered to it.  Acknowledgments and failures free send buffer;
 * this resumes every peer that waited.
 */
void wind_deliver_stalled(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_peer *peer;

	wind_sock_assert_held(sk);
	ws->rma_stalled = 0;
	list_for_each_entry(peer, &ws->peer_list, node) {
		if (!peer->rma_stalled)
			continue;
		peer->rma_stalled = 0;
		deliver_in_order(peer);
	}
}

/**
 * wind_rq_drop_ooo_tail() - drop a peer's highest out-of-order packet
 * @peer: the peer, its socket locked
 *
 * Its seq is unmarked: the sender learns from our SACKs that we reneged,
 * and sends it again.
 *
 * Return: whether the peer had one.
 */
bool wind_rq_drop_ooo_tail(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	struct sk_buff *skb = skb_peek_tail(&peer->rq);

	if (!skb || !wind_seq_after(WIND_SKB_CB(skb)->seq, peer->rcv_nxt))
		return false;
	rq_unlink(peer, skb);
	wind_rxt_unmark(peer->rxt, WIND_SKB_CB(skb)->seq);
	drop_skb(peer, skb);
	return true;
}

/**
 * wind_rq_drop_ooo() - drop every packet waiting behind a peer's first hole
 * @peer: the peer, its socket locked
 *
 * The idle-peer timer calls this for a peer that sent nothing for
 * peer_idle_s: a live sender retransmits its holes long before, so what
 * waits behind them belongs to a sender that gave up or went away.  Only
 * packets after the first hole go, unmarked in the receive table (a
 * retransmission brings them back); the in-order part of a message
 * stays, as it was acknowledged.  Contrast wind_rq_drop_all().
 */
void wind_rq_drop_ooo(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	while (wind_rq_drop_ooo_tail(peer))
		;
}

static void insert_sorted(struct sk_buff_head *q, struct sk_buff *skb)
{
	u32 seq = WIND_SKB_CB(skb)->seq;
	struct sk_buff *pos;

	skb_queue_reverse_walk(q, pos) {
		if (wind_seq_before(WIND_SKB_CB(pos)->seq, seq)) {
			__skb_queue_after(q, pos, skb);
			return;
		}
	}
	__skb_queue_head(q, skb);
}

/* Queue @skb, standing for @n packets from its seq on, to the peer's
 * receive queue, keeping the counts rq_unlink() takes back.
 */
static void rq_insert(struct wind_peer *peer, struct sk_buff *skb,
		      unsigned int n)
{
	u32 cost = skb->truesize / n;

	/* what the peer's seqs cost the buffer, for its window (rwnd.c,
	 * seq_truesize()), as TCP's scaling_ratio learns its skbs'
	 * truesize: up at once, down by a 32nd.  A window is filled by the
	 * packets that cost most: averaged, a 64 KiB message's short last
	 * packet priced the next window (its ACK is sent right after it)
	 * a few percent low, and the window's last packets were refused.
	 */
	if (cost >= peer->rx_seq_cost)
		peer->rx_seq_cost = cost;
	else
		peer->rx_seq_cost -= (peer->rx_seq_cost - cost) / 32;
	WIND_SKB_CB(skb)->npkts = n;
	insert_sorted(&peer->rq, skb);
	peer->rq_pkts += n;
	wind_sk(peer->sk)->rq_bytes += skb->truesize;
	peer->rx_packets += n;
}

/**
 * wind_data_rcv_one() - one data packet from a peer
 * @peer: the peer, its socket locked
 * @skb: the packet, its fields in its control block and its payload at
 *	 skb->data; consumed
 *
 * Return: the WIND_RX_ACK_* it asks for, for wind_data_ack().
 */
unsigned int wind_data_rcv_one(struct wind_peer *peer, struct sk_buff *skb)
{
	struct sock *sk = peer->sk;
	struct net *net = sock_net(sk);
	struct wind_skb_cb *cb = WIND_SKB_CB(skb);
	u32 seq = cb->seq, start = cb->seq - cb->frag, old_nxt = peer->rcv_nxt;
	u16 nfrags = cb->nfrags;
	u8 flags = cb->flags;

	wind_peer_assert_held(peer);
	if (!peer->rxt) {
		peer->rxt = wind_sk_kmalloc(sk, sizeof(*peer->rxt), GFP_ATOMIC);
		if (!peer->rxt)
			goto drop;
		wind_rxt_init(peer->rxt, peer->rcv_nxt);
	}
	if (wind_rxt_test(peer->rxt, seq)) {
		peer->duplicates++;
		WIND_INC_STATS(net, WIND_MIB_IN_DUPLICATES);
		consume_skb(skb);
		return WIND_RX_ACK_DUP;	/* our ack may have been lost */
	}
	if (!wind_seq_in(seq, peer->rcv_nxt, WIND_RXT_BITS)) {
		WIND_INC_STATS(net, WIND_MIB_IN_ERR_WINDOW);
		peer->drops++;
		atomic_inc(&sk->sk_drops);
		kfree_skb(skb);
		return WIND_RX_ACK_DUP;
	}
	/* A DSM message may be refused, and its refusal needs a slot until
	 * the sender's "oldest" shows it saw it: with every slot taken its
	 * packets wait for their retransmission, unreported refusals never
	 * overflow (in order; behind a hole, more may complete at once).
	 */
	if ((flags & WIND_F_DSM) && peer->nrefused >= WIND_MAX_NAKS)
		goto drop;
	if (cb->msg_len > (u32)READ_ONCE(sk->sk_rcvbuf)) {
		/* it could never be held: refuse the whole message */
		if (!refuse(peer, start, EMSGSIZE))
			goto drop;
		wind_rxt_mark(peer->rxt, seq);
		peer->rcv_nxt += wind_rxt_advance(peer->rxt);
		deliver_in_order(peer);
		goto drop;
	}
	if (!wind_rcv_room(peer, skb, seq)) {
		WIND_INC_STATS(net, WIND_MIB_IN_ERR_RCVBUF);
		goto refused;	/* the ack's window says why */
	}

	while (!wind_rmem_set_owner(skb, sk, false)) {
		/* net.wind.mem or the memory cgroup refused it, and the
		 * window is 0 now; in-order data goes before what waits
		 * behind a hole, as in rcv_room()
		 */
		if (seq != peer->rcv_nxt || !wind_rcv_drop_one_ooo(peer)) {
			WIND_INC_STATS(net, WIND_MIB_IN_ERR_RCVBUF);
			goto refused;
		}
	}
	wind_rxt_mark(peer->rxt, seq);
	if (wind_seq_after(seq, peer->rcv_nxt)) {
		cb->ooo = 1;
		wind_sk(sk)->ooo_pkts++;
	}
	rq_insert(peer, skb, 1);
	if (seq == peer->rcv_nxt)
		peer->rcv_nxt += wind_rxt_advance(peer->rxt);

	if (!(flags & WIND_F_ORDERED) && wind_rxt_all(peer->rxt, start, nfrags))
		deliver_message(peer, start, nfrags);
	deliver_in_order(peer);

	peer->ack_pending++;
	return (flags & WIND_F_ACKREQ) || seq != old_nxt || peer->nrefused ?
	       WIND_RX_ACK_NOW : 0;

refused:
	/* the next expected: what the peer sent after it waits in vain
	 * (its refusal behind a hole, RACK finds)
	 */
	if (seq == peer->rcv_nxt) {
		peer->room_refused = 1;
		peer->rcv_refused_seq = seq;
	}
drop:
	peer->drops++;
	atomic_inc(&sk->sk_drops);
	kfree_skb(skb);
	return WIND_RX_ACK_NOW;
}

/* May a duplicate or an out-of-window packet from @peer draw an ACK at
 * once?  One per net.wind.dupack_ms at most, as TCP's
 * tcp_invalid_ratelimit: the first of an interval is answered (a real
 * peer resends when our ACK was lost, and needs one back), those after
 * it are counted and left out; the ACK that new data owes goes as ever.
 */
static bool dupack_limited(struct wind_peer *peer)
{
	u32 now = jiffies;
	u32 gap = msecs_to_jiffies(WIND_PARAM(peer->sk, dupack_ms));

	if (peer->dupack_at && now - peer->dupack_at < gap) {
		WIND_INC_STATS(sock_net(peer->sk),
			       WIND_MIB_OUT_DUPACKS_LIMITED);
		return true;
	}
	peer->dupack_at = now ?: 1;
	return false;
}

/**
 * wind_data_ack() - an ACK now, or the delayed one, after data packets
 * @peer: the peer, its socket locked
 * @how: the WIND_RX_ACK_* of one or more data packets, or'ed
 */
void wind_data_ack(struct wind_peer *peer, unsigned int how)
{
	wind_peer_assert_held(peer);
	if ((how & WIND_RX_ACK_NOW) || peer->ack_pending >= WIND_ACK_EVERY ||
	    ((how & WIND_RX_ACK_DUP) && !dupack_limited(peer)))
		wind_send_ack(peer);
	else
		wind_timers_data_received(peer);
}

/**
 * wind_data_mark_napi() - note the NAPI instance a socket's data arrives on
 * @sk: the socket, locked
 * @skb: a data packet for it
 *
 * Busy polling (SO_BUSY_POLL, net.core.busy_read and busy_poll): the
 * socket learns the NAPI instance its data arrives on, which recvmsg()
 * (skb_recv_datagram()) and poll() (sock_poll()) then spin on, as for UDP:
 * a connected socket (UDP: one with inet_daddr set) follows its peer's
 * NAPI, any other keeps the first one it saw.  Without
 * CONFIG_NET_RX_BUSY_POLL both helpers do nothing.
 */
void wind_data_mark_napi(struct sock *sk, const struct sk_buff *skb)
{
	wind_sock_assert_held(sk);
	if (sk->sk_state == TCP_ESTABLISHED)
		sk_mark_napi_id(sk, skb);
	else
		sk_mark_napi_id_once(sk, skb);
}

/* Read a validated data packet's headers into its control block. */
static void data_cb_fill(struct sk_buff *skb)
{
	const struct windhdr *wh = wind_hdr(skb);
	const struct wind_datahdr *dh = (const void *)(wh + 1);
	struct wind_skb_cb *cb = WIND_SKB_CB(skb);
	struct in6_addr saddr, daddr;

	wind_skb_addrs(skb, &saddr, &daddr);
	memset(cb, 0, sizeof(*cb));
	cb->seq = ntohl(wh->seq);
	cb->frag = ntohs(dh->frag);
	cb->nfrags = ntohs(dh->nfrags);
	cb->msg_len = ntohl(dh->msg_len);
	cb->flags = wh->flags;
	cb->saddr = saddr;
	cb->sport = wh->source;
}

/**
 * wind_data_rcv() - a data packet from a peer
 * @peer: the peer, its socket locked
 * @skb: the packet, validated; consumed
 */
void wind_data_rcv(struct wind_peer *peer, struct sk_buff *skb)
{
	wind_peer_assert_held(peer);
	wind_data_mark_napi(peer->sk, skb);
	data_cb_fill(skb);
	skb_pull(skb, WIND_DATA_HLEN);
	wind_data_ack(peer, wind_data_rcv_one(peer, skb));
}

/* Take @skb, a GSO skb of our own of @n packets (checked by input.c),
 * its members ours alone too, whole: one entry of rq standing for its
 * packets, one charge to the socket's memory, one pass through the
 * receive table.  Only where wind_data_rcv_one() would take each of its
 * packets the plain way: the first is the next one expected, none
 * arrived before, all are of one message and fit the window and the
 * receive buffer as they are.  Anything else (a hole, a duplicate, a
 * message to refuse, a full buffer) goes packet by packet.  The header
 * of the first packet is pulled.
 */
static bool gso_rcv_whole(struct wind_peer *peer, struct sk_buff *skb,
			  unsigned int n, unsigned int *now)
{
	struct wind_skb_cb *cb = WIND_SKB_CB(skb);
	struct wind_rx_table *rxt = peer->rxt;
	struct sock *sk = peer->sk;
	struct sk_buff *member;
	u32 seq = cb->seq, start = cb->seq - cb->frag;
	u16 nfrags = cb->nfrags;
	u8 flags = cb->flags;
	unsigned int i;

	if (!rxt || seq != peer->rcv_nxt || rxt->base != seq ||
	    n >= WIND_RXT_BITS || cb->frag + n > cb->nfrags ||
	    cb->msg_len > (u32)READ_ONCE(sk->sk_rcvbuf) ||
	    ((cb->flags & WIND_F_DSM) && peer->nrefused >= WIND_MAX_NAKS) ||
	    sk_rmem_alloc_get(sk) + skb->truesize > READ_ONCE(sk->sk_rcvbuf))
		return false;
	for (i = 0; i < n; i++)
		if (test_bit((seq + i) % WIND_RXT_BITS, rxt->map))
			return false;
	/* delivery links the members into the message's chain: none may
	 * be in another skb's frag_list too (a netem duplicate unshared by
	 * udp.c's gso_unwrap() shares them)
	 */
	skb_walk_frags(skb, member)
		if (skb_shared(member))
			return false;
	if (!wind_rmem_set_owner(skb, sk, false))
		return false;
	__skb_pull(skb, WIND_DATA_HLEN);
	skb_shinfo(skb)->gso_size = 0;
	skb_shinfo(skb)->gso_segs = 0;
	skb_shinfo(skb)->gso_type = 0;
	rq_insert(peer, skb, n);
	/* [seq, seq + n) were clear: base passes them as if each was marked */
	rxt->base = seq + n;
	peer->rcv_nxt = seq + n;
	peer->rcv_nxt += wind_rxt_advance(rxt);
	/* the skb may be delivered, read and freed from here on */
	if (!(flags & WIND_F_ORDERED) && wind_rxt_all(rxt, start, nfrags))
		deliver_message(peer, start, nfrags);
	deliver_in_order(peer);
	peer->ack_pending += n;
	if ((flags & WIND_F_ACKREQ) || peer->nrefused)
		*now |= WIND_RX_ACK_NOW;
	return true;
}

/* A packet of its own for @len bytes at @off of @skb's page fragments:
 * references to them, not a copy
 */
static struct sk_buff *frags_pkt(const struct sk_buff *skb, unsigned int off,
				 unsigned int len)
{
	struct sk_buff *pkt = alloc_skb(0, GFP_ATOMIC);

	if (pkt)
		wind_skb_add_frags(pkt, skb, off, len);
	return pkt;
}

/* Packet @i of a GSO skb cut into packets, @pkt (NULL: there was no
 * memory for it), with the header fields the segmentation would have
 * given it: those of @first, the first packet's, its seq and frag moved
 * on, WIND_F_ACKREQ only on the @last.  Returns the WIND_RX_ACK_* it asks
 * for.
 */
static unsigned int gso_member_rcv(struct wind_peer *peer,
				   struct sk_buff *pkt,
				   const struct wind_skb_cb *first,
				   unsigned int i, bool last, ktime_t tstamp)
{
	struct wind_skb_cb *cb;

	if (!pkt) {
		peer->drops++;
		atomic_inc(&peer->sk->sk_drops);
		return WIND_RX_ACK_NOW;
	}
	pkt->tstamp = tstamp;
	cb = WIND_SKB_CB(pkt);
	*cb = *first;
	cb->seq += i;
	cb->frag += i;
	if (!last)
		cb->flags &= ~WIND_F_ACKREQ;
	return wind_data_rcv_one(peer, pkt);
}

/* A paged GSO skb (sendmsg.c's fill_paged(), checked by input.c: the
 * headers linear, the payloads end to end in its page fragments) not
 * taken whole: each packet becomes an skb of its own that references its
 * bytes, with the header fields the segmentation would have given it
 * (@first: the first packet's).  One ACK decision covers them all;
 * @skb is consumed.
 */
static void gso_rcv_paged(struct wind_peer *peer, struct sk_buff *skb,
			  const struct wind_skb_cb *first)
{
	unsigned int mss = skb_shinfo(skb)->gso_size - WIND_GSO_BIAS;
	unsigned int i, n = skb_shinfo(skb)->gso_segs, off = 0;
	unsigned int now = 0;

	for (i = 0; i < n; i++) {
		unsigned int len = min(mss, skb->data_len - off);
		struct sk_buff *pkt = frags_pkt(skb, off, len);

		off += len;
		now |= gso_member_rcv(peer, pkt, first, i, i == n - 1,
				      skb->tstamp);
	}
	consume_skb(skb);
	wind_data_ack(peer, now);
}

/**
 * wind_gso_rcv() - a GSO skb of data packets from a peer, whole
 * @peer: the peer, its socket locked
 * @skb: the skb as tx.c or GRO builds it (input.c checked its layout:
 *	 the headers linear, then the packets' payloads, each of gso_size
 *	 bytes but the last, end to end in page fragments (a paged
 *	 message's), or the first packet's payload after the headers (GRO's)
 *	 and one frag_list member per later packet, or a member per packet);
 *	 consumed
 *
 * In order and ours alone, the skb is taken whole, as one entry of the
 * receive queue (gso_rcv_whole()).  Otherwise a paged one is cut into
 * packets that reference its pages (gso_rcv_paged()), and each member of
 * another becomes a
 * packet of its own, with the header fields the segmentation would have
 * given it, and so does the skb itself when it holds the first packet's
 * payload; one ACK decision covers them all.  The members are taken over
 * when the skb is ours alone, else (netem's duplicate shares them)
 * cloned.
 */
void wind_gso_rcv(struct wind_peer *peer, struct sk_buff *skb)
{
	struct net *net = sock_net(peer->sk);
	bool own = !skb_cloned(skb) && !skb_shared(skb);
	unsigned int i = 0, mlen = 0, mtrue = 0;
	struct sk_buff *member, *next, *pkt;
	ktime_t tstamp = skb->tstamp;
	struct wind_skb_cb first;
	unsigned int now = 0;
	bool head;

	wind_peer_assert_held(peer);
	wind_data_mark_napi(peer->sk, skb);
	data_cb_fill(skb);
	first = *WIND_SKB_CB(skb);
	WIND_INC_STATS(net, WIND_MIB_IN_GSO_PACKETS);
	/* wind_rcv() counted the skb as one packet; gso_segs is checked */
	WIND_ADD_STATS(net, WIND_MIB_IN_PACKETS, skb_shinfo(skb)->gso_segs - 1);
	if (own && gso_rcv_whole(peer, skb, skb_shinfo(skb)->gso_segs, &now)) {
		wind_data_ack(peer, now);
		return;
	}
	if (!skb_has_frag_list(skb)) {
		gso_rcv_paged(peer, skb, &first);
		return;
	}
	skb_walk_frags(skb, member) {
		mlen += member->len;
		mtrue += member->truesize;
	}
	head = skb->len - mlen > WIND_DATA_HLEN;
	member = skb_shinfo(skb)->frag_list;
	if (own) {
		skb_shinfo(skb)->frag_list = NULL;
		skb->data_len -= mlen;
		skb->len -= mlen;
	}
	if (head) {
		/* GRO's: the skb is the first packet.  Shared with a tap
		 * (a packet socket on the device clones what it sees), the
		 * first packet is a copy of its head; the members are cloned
		 * below.
		 */
		pkt = skb;
		if (!own) {
			pkt = pskb_copy(skb, GFP_ATOMIC);
			if (pkt) {
				kfree_skb_list(skb_shinfo(pkt)->frag_list);
				skb_shinfo(pkt)->frag_list = NULL;
				pkt->data_len -= mlen;
				pkt->len -= mlen;
				mtrue = 0;
			}
		}
		if (pkt) {
			struct skb_shared_info *shinfo = skb_shinfo(pkt);

			shinfo->gso_size = 0;
			shinfo->gso_segs = 0;
			shinfo->gso_type = 0;
			if (pkt->truesize > mtrue)
				pkt->truesize -= mtrue;
			__skb_pull(pkt, WIND_DATA_HLEN);
			WIND_SKB_CB(pkt)->flags &= ~WIND_F_ACKREQ;
			now |= wind_data_rcv_one(peer, pkt);
		} else {
			peer->drops++;
			atomic_inc(&peer->sk->sk_drops);
			now |= WIND_RX_ACK_NOW;
		}
		i++;
	}
	for (; member; member = next, i++) {
		next = member->next;
		if (own && !skb_shared(member)) {
			skb_mark_not_on_list(member);
			pkt = member;
		} else {
			pkt = skb_clone(member, GFP_ATOMIC);
			if (own)	/* detached: our reference goes */
				consume_skb(member);
		}
		now |= gso_member_rcv(peer, pkt, &first, i, !next, tstamp);
	}
	if (!head || !own)
		consume_skb(skb);
	wind_data_ack(peer, now);
}

/**
 * wind_data_skip() - the sender gave up on every seq before @oldest
 * @peer: the peer, its socket locked
 * @oldest: the sender's oldest unacknowledged seq, after our rcv_nxt
 *
 * Complete messages waiting behind the gap are delivered, incomplete ones
 * dropped.
 */
void wind_data_skip(struct wind_peer *peer, u32 oldest)
{
	struct wind_rx_table *rxt = peer->rxt;
	u32 gap = oldest - peer->rcv_nxt;

	wind_peer_assert_held(peer);
	peer->rcv_nxt = oldest;
	if (rxt) {
		/* what arrived beyond the gap stays recorded */
		if (gap >= WIND_RXT_BITS)
			wind_rxt_init(rxt, oldest);
		while (rxt->base != oldest)
			wind_rxt_unmark(rxt, rxt->base++);
		peer->rcv_nxt += wind_rxt_advance(rxt);
	}
	deliver_in_order(peer);
}

/**
 * wind_rq_drop_all() - drop every undelivered packet from a peer
 * @peer: the peer, its socket locked
 *
 * In order or not, acknowledged or not, and its claim on the receive
 * buffer: for a peer whose receive state ends (removed, or a new
 * incarnation).  The receive table is left as it is, for the caller to
 * reset or free.  Contrast wind_rq_drop_ooo().
 */
void wind_rq_drop_all(struct wind_peer *peer)
{
	struct wind_sock *ws = wind_sk(peer->sk);
	struct sk_buff *skb;

	wind_peer_assert_held(peer);
	if (ws->rcv_claim == peer)
		ws->rcv_claim = NULL;
	while ((skb = skb_peek(&peer->rq))) {
		rq_unlink(peer, skb);
		kfree_skb(skb);
	}
}
