// SPDX-License-Identifier: GPL-2.0
/*
 * The receive path: validate a packet without trusting any field, find
 * its socket and, by its tags (tags.c), its peer, then pass the
 * acknowledgment part to ack.c and the data to deliver.c.  A GSO skb that crossed a
 * veth or loopback whole (offload.c) is validated as one packet and split
 * by deliver.c; one of any other shape is segmented first.  ICMP errors
 * for packets we sent are icmp.c's.
 */
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/sock.h>
#include <net/udp.h>
#include <net/xfrm.h>
#include <kunit/visibility.h>
#include <uapi/linux/wind.h>

#include "ack.h"
#include "bundle.h"
#include "compat.h"
#include "deliver.h"
#include "icmp.h"
#include "input.h"
#include "netns.h"
#include "offload.h"
#include "peer.h"
#include "port.h"
#include "rma.h"
#include "rwnd.h"
#include "rxtable.h"
#include "seq.h"
#include "skb.h"
#include "sock.h"
#include "tags.h"
#include "trace.h"
#include "tx.h"
#include "wire.h"

static const enum wind_mib_field wire_mib[] = {
	[WIND_WIRE_SHORT]	= WIND_MIB_IN_ERR_SHORT,
	[WIND_WIRE_LENGTH]	= WIND_MIB_IN_ERR_LENGTH,
	[WIND_WIRE_HEADER]	= WIND_MIB_IN_ERR_HEADER,
	[WIND_WIRE_BUNDLE]	= WIND_MIB_IN_ERR_BUNDLE,
};

/* Check everything the locked path relies on (the field checks are in
 * wire.h).  Returns the counter to bump on failure, or WIND_MIB_MAX when
 * the packet is well formed.
 */
static enum wind_mib_field validate(struct sk_buff *skb)
{
	enum wind_wire_verdict v;
	unsigned int hlen;

	if (!pskb_may_pull(skb, WIND_HLEN))
		return WIND_MIB_IN_ERR_SHORT;
	/* IP trimmed the packet to its payload: len must say the same */
	v = wind_wire_check_len(wind_hdr(skb), skb->len);
	if (v)
		return wire_mib[v];
	if (wind_skb_v6(skb) ?
	    skb_checksum_init(skb, IPPROTO_WIND, ip6_compute_pseudo) :
	    skb_checksum_init(skb, IPPROTO_WIND, inet_compute_pseudo))
		return WIND_MIB_IN_ERR_CHECKSUM;
	if (skb_checksum_complete(skb))
		return WIND_MIB_IN_ERR_CHECKSUM;
	v = wind_wire_check_hdr(wind_hdr(skb), &hlen);
	if (v)
		return wire_mib[v];
	if (!pskb_may_pull(skb, hlen))
		return WIND_MIB_IN_ERR_SHORT;
	v = wind_wire_check_body(wind_hdr(skb));
	if (v)
		return wire_mib[v];
	if (skb_is_gso(skb)) {
		const struct wind_datahdr *dh = (const void *)(wind_hdr(skb) + 1);

		/* gso_layout_ok() counted the packets: all of one message */
		if ((wind_hdr(skb)->version_type & 0xf) != WIND_PKT_DATA ||
		    (wind_hdr(skb)->flags & WIND_F_BUNDLE))
			return WIND_MIB_IN_ERR_HEADER;
		if (ntohs(dh->frag) + skb_shinfo(skb)->gso_segs >
		    ntohs(dh->nfrags))
			return WIND_MIB_IN_ERR_LENGTH;
	}
	/* an ACK's NAKs are read in place */
	if ((wind_hdr(skb)->version_type & 0xf) == WIND_PKT_ACK &&
	    !pskb_may_pull(skb, skb->len))
		return WIND_MIB_IN_ERR_SHORT;
	/* and a bundle's chunks: it is one packet, at most mss bytes */
	if ((wind_hdr(skb)->version_type & 0xf) == WIND_PKT_DATA &&
	    (wind_hdr(skb)->flags & WIND_F_BUNDLE)) {
		if (!pskb_may_pull(skb, skb->len))
			return WIND_MIB_IN_ERR_SHORT;
		v = wind_wire_check_bundle(wind_hdr(skb));
		if (v)
			return wire_mib[v];
	}
	return WIND_MIB_MAX;
}

/* A GSO skb as tx.c builds it: the Wind headers linear, then the
 * payloads of its packets, each of gso_size - WIND_GSO_BIAS bytes but
 * the last, end to end in page fragments (a paged message's) or one
 * frag_list member per packet; or as GRO merges one (offload.c), the
 * first packet's payload, of that size, after the headers, in an skb of
 * our own, and a member per later packet.  Only such a one is taken
 * whole or split without copying (wind_gso_rcv()).
 */
static bool gso_layout_ok(const struct sk_buff *skb)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int mss = shinfo->gso_size - WIND_GSO_BIAS, n = 0, len = 0;
	const struct sk_buff *member;
	unsigned int head;

	if (!(shinfo->gso_type & SKB_GSO_SCTP) ||
	    shinfo->gso_size <= WIND_GSO_BIAS ||
	    (shinfo->gso_type & SKB_GSO_DODGY) ||
	    mss < sizeof(struct wind_dsmhdr) ||
	    skb_headlen(skb) < WIND_DATA_HLEN)
		return false;
	if (!skb_has_frag_list(skb)) {
		/* paged: page pool pages are not ours to share out */
		if (skb_headlen(skb) != WIND_DATA_HLEN || skb->pp_recycle ||
		    (shinfo->flags & SKBFL_ZEROCOPY_ENABLE))
			return false;
		n = DIV_ROUND_UP(skb->data_len, mss);
		return n >= 2 && n == shinfo->gso_segs;
	}
	skb_walk_frags(skb, member) {
		if (!member->len || member->len > mss ||
		    (member->len != mss && member->next))
			return false;
		len += member->len;
		n++;
	}
	head = skb->len - WIND_DATA_HLEN - len;
	if (head) {
		if (head != mss || skb_cloned(skb) || skb_shared(skb))
			return false;
		n++;
	} else if (shinfo->nr_frags || skb_headlen(skb) != WIND_DATA_HLEN) {
		return false;
	}
	return n >= 2 && n == shinfo->gso_segs;
}

/* Any other GSO skb with our protocol in it is cut into packets by
 * wind_gso_segment(), each received on its own (as UDP does for a GSO
 * skb that reaches a socket that did not ask for one).
 */
static int rcv_segments(struct net *net, struct sk_buff *skb)
{
	struct sk_buff *segs, *seg, *next;

	if (!skb_mac_header_was_set(skb))
		goto drop;
	__skb_push(skb, -skb_mac_offset(skb));
	segs = __skb_gso_segment(skb, NETIF_F_SG | NETIF_F_HW_CSUM, false);
	if (IS_ERR_OR_NULL(segs))
		goto drop;
	consume_skb(skb);
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		__skb_pull(seg, skb_transport_offset(seg));
		wind_rcv(seg);
	}
	return 0;

drop:
	WIND_INC_STATS(net, WIND_MIB_IN_PACKETS);
	WIND_INC_STATS(net, WIND_MIB_IN_ERR_HEADER);
	kfree_skb(skb);
	return 0;
}

/**
 * wind_backlog_limit() - what a socket's backlog may take
 * @sk: the socket
 *
 * How much the socket's backlog and receive queue may hold together
 * while its owner holds it (sk_add_backlog()), as TCP's tcp_add_backlog()
 * allows: an in-order packet may take the receive queue past sk_rcvbuf
 * (deliver.c, rcv_room(): what was offered, the message under way), and
 * what the window offered is on its way in GSO skbs whose every packet a
 * full backlog drops at once.
 *
 * Return: the limit for sk_add_backlog(), in bytes.
 */
u32 wind_backlog_limit(const struct sock *sk)
{
	return min_t(u64, ((u64)READ_ONCE(sk->sk_rcvbuf) << 1) +
			  (READ_ONCE(sk->sk_sndbuf) >> 1) + SZ_64K, UINT_MAX);
}

/**
 * wind_rcv() - entry point from IP for every Wind packet
 * @skb: the packet, transport header at skb->data
 *
 * Return: 0; the packet is always consumed.
 */
int wind_rcv(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);
	struct in6_addr saddr, daddr;
	enum wind_mib_field bad;
	bool v6 = wind_skb_v6(skb);
	struct sock *sk;

	/* inside UDP, our own layout only (udp.c): the tunnel's headers
	 * are gone
	 */
	if (unlikely(skb_is_gso(skb)) && !gso_layout_ok(skb)) {
		if (!wind_skb_udp(skb))
			return rcv_segments(net, skb);
		WIND_INC_STATS(net, WIND_MIB_IN_PACKETS);
		WIND_INC_STATS(net, WIND_MIB_IN_ERR_HEADER);
		kfree_skb(skb);
		return 0;
	}
	WIND_INC_STATS(net, WIND_MIB_IN_PACKETS);
	/* Wind sets DF, but a packet built before the path MTU dropped
	 * goes fragmented (tx.c), and IP reassembled it into a
	 * frag_list: delivery chains a message's packets through frag_list
	 * and wants each without one, and charged as one packet, not as
	 * its fragments (a message held for its last packet could fill
	 * the receive buffer for good).
	 */
	if (unlikely(skb_has_frag_list(skb) && !skb_is_gso(skb))) {
		struct sk_buff *copy = skb_copy(skb, GFP_ATOMIC);

		consume_skb(skb);
		if (!copy) {
			WIND_INC_STATS(net, WIND_MIB_IN_ERR_RCVBUF);
			return 0;
		}
		skb = copy;
	}
	if (skb->pkt_type != PACKET_HOST)
		goto drop;
	bad = validate(skb);
	if (bad != WIND_MIB_MAX) {
		WIND_INC_STATS(net, bad);
		goto drop;
	}
	wind_skb_addrs(skb, &saddr, &daddr);
	trace_wind_packet_recv(&saddr, &daddr, skb);

	rcu_read_lock();
	sk = wind_port_lookup(net, &daddr, wind_hdr(skb)->dest);
	rcu_read_unlock();
	if (!sk) {
		WIND_INC_STATS(net, WIND_MIB_IN_ERR_NOPORT);
		/* as UDP: tell the sender nobody listens here */
		if ((wind_hdr(skb)->version_type & 0xf) != WIND_PKT_DATA)
			goto drop;
		if (v6)
			icmpv6_send(skb, ICMPV6_DEST_UNREACH,
				    ICMPV6_PORT_UNREACH, 0);
		else
			icmp_send(skb, ICMP_DEST_UNREACH, ICMP_PORT_UNREACH, 0);
		goto drop;
	}

	/* protocol 253 is registered with no_policy: IPsec's inbound
	 * policy is ours to enforce, as UDP does
	 */
	if (v6 ? !xfrm6_policy_check(sk, XFRM_POLICY_IN, skb) :
		 !xfrm4_policy_check(sk, XFRM_POLICY_IN, skb)) {
		WIND_INC_STATS(net, WIND_MIB_IN_FILTERED);
		sock_put(sk);
		goto drop;
	}
	nf_reset_ct(skb);

	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk)) {
		wind_backlog_rcv(sk, skb);
	} else if (sk_add_backlog(sk, skb, wind_backlog_limit(sk))) {
		unsigned int n = skb_is_gso(skb) ?
				 skb_shinfo(skb)->gso_segs : 1;

		bh_unlock_sock(sk);
		atomic_inc(&sk->sk_drops);
		/* in packets, a GSO skb's all of them */
		WIND_ADD_STATS(net, WIND_MIB_IN_PACKETS, n - 1);
		WIND_ADD_STATS(net, WIND_MIB_IN_ERR_BACKLOG, n);
		sock_put(sk);
		goto drop;
	}
	bh_unlock_sock(sk);
	sock_put(sk);
	return 0;

drop:
	kfree_skb(skb);
	return 0;
}

/* The peer's "oldest": refusals it has seen, and gaps it gave up on. */
static void oldest_rcv(struct wind_peer *peer, u32 oldest, u8 flags)
{
	unsigned int i, n = 0;

	for (i = 0; i < peer->nrefused; i++)
		if (!wind_seq_before(peer->refused[i].seq, oldest))
			peer->refused[n++] = peer->refused[i];
	peer->nrefused = n;

	/* A new peer state of the sender starts at a random seq: far
	 * behind what we expect, it is a new stream, not a late packet.
	 */
	if ((flags & WIND_F_SYN) &&
	    wind_seq_before(oldest, peer->rcv_nxt - WIND_RXT_BITS)) {
		wind_peer_reset_rx(peer, oldest);
		return;
	}
	if (wind_seq_after(oldest, peer->rcv_nxt))
		wind_data_skip(peer, oldest);
}

/**
 * wind_backlog_rcv() - process a validated packet with the socket locked
 * @sk: the socket (proto.backlog_rcv)
 * @skb: the packet
 *
 * Return: 0; the packet is consumed.
 */
int wind_backlog_rcv(struct sock *sk, struct sk_buff *skb)
{
	const struct windhdr *wh = wind_hdr(skb);
	struct wind_sock *ws = wind_sk(sk);
	struct in6_addr saddr, daddr;
	struct wind_peer *peer;
	u8 type;

	wind_sock_assert_held(sk);
	/* after the extension headers: an ICMPv6 error behind a hop-by-hop
	 * header is no Wind packet, and was not validated as one
	 */
	if (unlikely(wind_skb_proto(skb) ==
		     (wind_skb_v6(skb) ? IPPROTO_ICMPV6 : IPPROTO_ICMP))) {
		/* an ICMP error that waited for process context */
		wind_icmp_error_rcv(sk, skb);
		goto drop;
	}
	type = wh->version_type & 0xf;
	wind_skb_addrs(skb, &saddr, &daddr);
	peer = wind_peer_lookup(sk, &saddr, wh->source);
	if (type == WIND_PKT_RESET) {
		wind_reset_rcv(sk, peer, wh);
		goto drop;
	}
	if (type == WIND_PKT_CHALLENGE) {
		wind_challenge_rcv(sk, peer, wh);
		goto drop;
	}
	if (!peer && wind_dsm_unverified(sk, skb, NULL))
		goto drop;
	peer = wind_tags_rcv(sk, skb, peer);
	if (!peer || wind_dsm_unverified(sk, skb, peer))
		goto drop;
	if (unlikely(!peer->tag_ok))
		wind_ack_budget_add(peer, skb);

	peer->last_active = jiffies;
	/* A flushing close() does not wait forever on a peer that answers
	 * but keeps its window shut: only acknowledged data (in
	 * wind_ack_rcv()) renews its retry budget then, as TCP bounds the
	 * window probes of an orphaned socket.
	 */
	if (!ws->flushing)
		peer->retries = 0;
	oldest_rcv(peer, ntohl(wh->oldest), wh->flags);
	if (unlikely(wind_skb_udp(skb) && !peer->rx_udp)) {
		/* answered inside UDP from now on */
		peer->rx_udp = 1;
		wind_peer_set_form(peer);
	}

	if (type == WIND_PKT_ACK) {
		const struct wind_ackhdr *ah = (void *)(wh + 1);

		WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ACKS);
		wind_ack_rcv(peer, ntohl(wh->ack), ntohs(wh->window), ah);
		wind_rma_resume(sk);
		goto drop;
	}
	wind_ack_rcv(peer, ntohl(wh->ack), ntohs(wh->window), NULL);
	wind_rma_resume(sk);
	wind_rx_sender(peer);
	/* a GSO packet, a bundle or one that fills a gap completes many */
	wind_deliver_batch_begin(sk);
	if (skb_is_gso(skb))
		wind_gso_rcv(peer, skb);
	else if (wh->flags & WIND_F_BUNDLE)
		wind_bundle_rcv(peer, skb);
	else
		wind_data_rcv(peer, skb);
	wind_deliver_batch_end(sk);
	return 0;

drop:
	consume_skb(skb);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(wind_backlog_rcv);

/**
 * wind6_rcv() - entry point from IPv6 for every Wind packet
 * @skb: the packet, transport header at skb->data
 *
 * Return: 0; the packet is always consumed.
 */
int wind6_rcv(struct sk_buff *skb)
{
	return wind_rcv(skb);
}
