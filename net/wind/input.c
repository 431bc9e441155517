// SPDX-License-Identifier: GPL-2.0
/*
 * The receive path: validate a packet without trusting any field, find
 * its socket and peer, handle incarnations, then pass the acknowledgment
 * part to timer.c and the data to deliver.c.  A GSO skb that crossed a
 * veth or loopback whole (offload.c) is validated as one packet and split
 * by deliver.c; one of any other shape is segmented first.  ICMP errors
 * for packets we sent arrive here too.
 */
#include <linux/icmp.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/udp.h>
#include <kunit/visibility.h>

#include "compat.h"
#include "protocol.h"
#include "trace.h"

static const enum wind_mib_field wire_mib[] = {
	[WIND_WIRE_SHORT]	= WIND_MIB_IN_ERR_SHORT,
	[WIND_WIRE_LENGTH]	= WIND_MIB_IN_ERR_LENGTH,
	[WIND_WIRE_HEADER]	= WIND_MIB_IN_ERR_HEADER,
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
	if (skb_checksum_init(skb, IPPROTO_WIND, inet_compute_pseudo) ||
	    skb_checksum_complete(skb))
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
		if ((wind_hdr(skb)->version_type & 0xf) != WIND_PKT_DATA)
			return WIND_MIB_IN_ERR_HEADER;
		if (ntohs(dh->frag) + skb_shinfo(skb)->gso_segs >
		    ntohs(dh->nfrags))
			return WIND_MIB_IN_ERR_LENGTH;
	}
	/* an ACK's NAKs are read in place */
	if ((wind_hdr(skb)->version_type & 0xf) == WIND_PKT_ACK &&
	    !pskb_may_pull(skb, skb->len))
		return WIND_MIB_IN_ERR_SHORT;
	return WIND_MIB_MAX;
}

/* A GSO skb as output.c builds it: the Wind headers linear, then one
 * frag_list member per packet, each of gso_size bytes but the last.
 * Only such a one is split without copying (wind_gso_rcv()).
 */
static bool gso_layout_ok(const struct sk_buff *skb)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int mss = shinfo->gso_size, n = 0, len = 0;
	const struct sk_buff *member;

	if (!(shinfo->gso_type & SKB_GSO_SCTP) ||
	    (shinfo->gso_type & SKB_GSO_DODGY) ||
	    mss < sizeof(struct wind_dsmhdr) || shinfo->nr_frags ||
	    skb_headlen(skb) != WIND_DATA_HLEN)
		return false;
	skb_walk_frags(skb, member) {
		if (!member->len || member->len > mss ||
		    (member->len != mss && member->next))
			return false;
		len += member->len;
		n++;
	}
	return n >= 2 && n == shinfo->gso_segs &&
	       len == skb->len - WIND_DATA_HLEN;
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
 * wind_rcv() - entry point from IP for every Wind packet
 * @skb: the packet, transport header at skb->data
 *
 * Return: 0; the packet is always consumed.
 */
int wind_rcv(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);
	enum wind_mib_field bad;
	struct sock *sk;

	if (unlikely(skb_is_gso(skb)) && !gso_layout_ok(skb))
		return rcv_segments(net, skb);
	WIND_INC_STATS(net, WIND_MIB_IN_PACKETS);
	if (skb->pkt_type != PACKET_HOST)
		goto drop;
	bad = validate(skb);
	if (bad != WIND_MIB_MAX) {
		WIND_INC_STATS(net, bad);
		goto drop;
	}
	trace_wind_packet_recv(ip_hdr(skb)->saddr, ip_hdr(skb)->daddr, skb);

	rcu_read_lock();
	sk = wind_port_lookup(net, ip_hdr(skb)->daddr, wind_hdr(skb)->dest);
	rcu_read_unlock();
	if (!sk) {
		WIND_INC_STATS(net, WIND_MIB_IN_ERR_NOPORT);
		/* as UDP: tell the sender nobody listens here */
		if ((wind_hdr(skb)->version_type & 0xf) == WIND_PKT_DATA)
			icmp_send(skb, ICMP_DEST_UNREACH, ICMP_PORT_UNREACH, 0);
		goto drop;
	}

	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk)) {
		wind_backlog_rcv(sk, skb);
	} else if (sk_add_backlog(sk, skb, READ_ONCE(sk->sk_rcvbuf) +
				  READ_ONCE(sk->sk_sndbuf))) {
		bh_unlock_sock(sk);
		atomic_inc(&sk->sk_drops);
		WIND_INC_STATS(net, WIND_MIB_IN_ERR_RCVBUF);
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
	    wind_seq_before(oldest, peer->rcv_nxt - WIND_RT_BITS)) {
		wind_peer_reset_rx(peer, oldest);
		return;
	}
	if (wind_seq_after(oldest, peer->rcv_nxt))
		wind_data_skip(peer, oldest);
}

static void reset_rcv(struct sock *sk, struct wind_peer *peer,
		      u32 src_tag, u32 dst_tag)
{
	/* only the incarnation the RESET names acts on it, and only once */
	if (!peer || dst_tag != wind_sk(sk)->incarnation ||
	    peer->remote_tag == src_tag) {
		WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ERR_TAG);
		return;
	}
	WIND_INC_STATS(sock_net(sk), WIND_MIB_PEERS_RESET);
	wind_peer_fail(peer, ECONNRESET);
	peer->remote_tag = src_tag;
	peer->got_ack = 0;
	wind_peer_event(peer, WIND_PEER_EVENT_RESTART, ECONNRESET);
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
	const struct iphdr *iph = ip_hdr(skb);
	const struct windhdr *wh = wind_hdr(skb);
	struct wind_sock *ws = wind_sk(sk);
	u32 src_tag = ntohl(wh->src_tag), dst_tag = ntohl(wh->dst_tag);
	u8 type = wh->version_type & 0xf;
	struct wind_peer *peer;

	peer = wind_peer_lookup(sk, iph->saddr, wh->source);
	if (type == WIND_PKT_RESET) {
		reset_rcv(sk, peer, src_tag, dst_tag);
		goto drop;
	}
	if (dst_tag && dst_tag != ws->incarnation) {
		/* meant for an earlier socket on this port */
		WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ERR_TAG);
		if (type == WIND_PKT_DATA)
			wind_send_reset(sk, skb);
		goto drop;
	}
	if (!peer) {
		if (type != WIND_PKT_DATA || ws->closing) {
			WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ERR_TAG);
			goto drop;
		}
		peer = wind_peer_create(sk, iph->saddr, wh->source, iph->daddr,
					GFP_ATOMIC);
		if (IS_ERR(peer)) {
			WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ERR_RCVBUF);
			goto drop;
		}
		peer->remote_tag = src_tag;
		wind_peer_reset_rx(peer, ntohl(wh->oldest));
	} else if (peer->remote_tag != src_tag) {
		if (peer->remote_tag) {
			/* the peer restarted: its old self is gone */
			WIND_INC_STATS(sock_net(sk), WIND_MIB_PEERS_RESET);
			wind_peer_fail(peer, ECONNRESET);
			wind_peer_event(peer, WIND_PEER_EVENT_RESTART, ECONNRESET);
		}
		peer->remote_tag = src_tag;
		wind_peer_reset_rx(peer, ntohl(wh->oldest));
	}

	peer->last_active = jiffies;
	/* A flushing close() does not wait forever on a peer that answers
	 * but keeps its window shut: only acknowledged data (in
	 * wind_ack_rcv()) renews its retry budget then, as TCP bounds the
	 * window probes of an orphaned socket.
	 */
	if (!ws->flushing)
		peer->retries = 0;
	oldest_rcv(peer, ntohl(wh->oldest), wh->flags);

	if (type == WIND_PKT_ACK) {
		const struct wind_ackhdr *ah = (void *)(wh + 1);

		WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ACKS);
		wind_ack_rcv(peer, ntohl(wh->ack), ntohs(wh->window), ah);
		goto drop;
	}
	wind_ack_rcv(peer, ntohl(wh->ack), ntohs(wh->window), NULL);
	if (skb_is_gso(skb))
		wind_gso_rcv(peer, skb);
	else
		wind_data_rcv(peer, skb);
	return 0;

drop:
	consume_skb(skb);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(wind_backlog_rcv);

/**
 * wind_err() - an ICMP error about a packet we sent
 * @skb: the ICMP payload: our IP header and at least 8 bytes of ours
 * @info: the ICMP info (the MTU for "fragmentation needed")
 *
 * Port or protocol unreachable fails the peer with ECONNREFUSED; a
 * smaller path MTU shrinks the messages built from now on.
 *
 * Return: 0, or -ENOENT when no socket sent it.
 */
int wind_err(struct sk_buff *skb, u32 info)
{
	const struct iphdr *iph = (const struct iphdr *)skb->data;
	const struct windhdr *wh;
	const int type = icmp_hdr(skb)->type, code = icmp_hdr(skb)->code;
	struct net *net = dev_net(skb->dev);
	struct wind_peer *peer;
	struct sock *sk;

	wh = (const struct windhdr *)(skb->data + (iph->ihl << 2));
	rcu_read_lock();
	sk = wind_port_lookup(net, iph->saddr, wh->source);
	rcu_read_unlock();
	if (!sk)
		return -ENOENT;

	bh_lock_sock(sk);
	/* process context owns it: the retransmission draws another error */
	if (sock_owned_by_user(sk))
		goto out;
	peer = wind_peer_lookup(sk, iph->daddr, wh->dest);
	if (!peer)
		goto out;
	if (type == ICMP_DEST_UNREACH && code == ICMP_FRAG_NEEDED) {
		ipv4_sk_update_pmtu(skb, sk, info);
		dst_release(peer->dst);
		peer->dst = NULL;
		wind_peer_route(peer);
	} else if (type == ICMP_DEST_UNREACH &&
		   (code == ICMP_PORT_UNREACH || code == ICMP_PROT_UNREACH)) {
		wind_peer_fail(peer, ECONNREFUSED);
	}
out:
	bh_unlock_sock(sk);
	sock_put(sk);
	return 0;
}
