// SPDX-License-Identifier: GPL-2.0
/*
 * Packets out: the Wind header, the checksum and the hand-off to IP,
 * IPv4 or IPv6, raw or inside UDP (udp.c), all in one place.  A data
 * packet leaves alone or, a run of packets of one message, as one GSO
 * skb of the write queue's page fragments where the route's device
 * passes those (see offload.c); every packet carries our cumulative
 * acknowledgment and window (rwnd.c).  Pure ACKs, RESETs and
 * CHALLENGEs are built here too, and the route each peer's packets take
 * (wind_peer_route()): nothing else in the module decides between IPv4
 * and IPv6 or raw and UDP on the way out.  What to send when is push.c's.
 */
#include <linux/ktime.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/udp.h>
#include <uapi/linux/wind.h>

#include "compat.h"
#include "netns.h"
#include "offload.h"
#include "peer.h"
#include "rwnd.h"
#include "rxtable.h"
#include "sendmsg.h"
#include "seq.h"
#include "skb.h"
#include "sock.h"
#include "timers.h"
#include "trace.h"
#include "tx.h"
#include "udp.h"
#include "wire.h"
#include "wq.h"

/* What an answer to a peer that has not proven its address may take, at
 * most: the largest ACK, inside UDP (wind_ack_budget_add())
 */
#define WIND_ACK_BUDGET_MAX	(WIND_ACK_LEN(WIND_MAX_NAKS) + 8)	/* + udphdr */

/* What a device must do to carry a Wind GSO skb whole (offload.c) */
#define WIND_GSO_FEATURES	(NETIF_F_GSO_SCTP | NETIF_F_FRAGLIST | NETIF_F_SG)

/* The destructor of every packet Wind hands to IP: a packet in the stack
 * is charged to its socket's sk_wmem_alloc, as skb_set_owner_w() charges
 * other sockets' packets.  Not merely a reference: ESP grows a packet it
 * finds unshared in place and adds the growth to its owner's
 * sk_wmem_alloc (esp_output_head()), and a clone of the write queue is
 * unshared once the queue let go of its packet; IP's fragmentation hands
 * pieces of the charge to the fragments.  Unlike sock_wfree() with
 * SOCK_USE_WRITE_QUEUE, writers are woken: they wait on sk_wmem_alloc,
 * and the last packet to leave the stack may do so after the last ACK.
 */
static void wind_wfree(struct sk_buff *skb)
{
	struct sock *sk = skb->sk;

	/* all but one unit: the socket lives until its writers were told */
	WARN_ON(refcount_sub_and_test(skb->truesize - 1, &sk->sk_wmem_alloc));
	sk->sk_write_space(sk);
	sk_free(sk);	/* the last unit; frees a closed socket */
}

/* Name the socket as the packet's owner for the hooks of the output
 * path (cgroup egress BPF, netfilter's owner match, the LSMs) and charge
 * the packet to it while it is in the stack (wind_wfree()).  The caller
 * holds the socket lock, hence a live socket.
 */
static void set_owner(struct sk_buff *skb, struct sock *sk)
{
	wind_sock_assert_held(sk);
	skb->sk = sk;
	skb->destructor = wind_wfree;
	refcount_add(skb->truesize, &sk->sk_wmem_alloc);
}

static void fill_header(struct wind_peer *peer, struct sk_buff *skb,
			u8 type, u8 flags, u32 seq, u32 ack)
{
	struct sock *sk = peer->sk;
	struct windhdr *wh;
	u16 wnd = wind_rcv_window(peer);

	/* what the peer may send from now on: rcv_room() keeps the word */
	peer->rcv_wnd_edge = wind_rwnd_edge(peer->rcv_wnd_edge, ack, wnd);
	wh = skb_push(skb, WIND_HLEN);
	skb_reset_transport_header(skb);
	wh->source = inet_sk(sk)->inet_sport;
	wh->dest = peer->dport;
	wh->len = htons(skb->len);
	wh->check = 0;
	wh->version_type = WIND_VERSION << 4 | type;
	wh->flags = flags | (peer->got_ack ? 0 : WIND_F_SYN);
	wh->window = htons(wnd);
	wh->src_tag = htonl(peer->local_tag);
	wh->dst_tag = htonl(peer->remote_tag);
	wh->seq = htonl(seq);
	wh->ack = htonl(ack);
	wh->oldest = htonl(peer->snd_una);
}

/* The pseudo-header sum of a packet of @len bytes to @peer, folded */
static __sum16 wind_pseudo_csum(const struct wind_peer *peer,
				unsigned int len, __wsum sum)
{
	if (peer->v6)
		return csum_ipv6_magic(&peer->saddr6, &peer->daddr6, len,
				       IPPROTO_WIND, sum);
	return csum_tcpudp_magic(peer->saddr, peer->daddr, len, IPPROTO_WIND,
				 sum);
}

/* Send a Wind packet (skb->data: its Wind header) over IPv6 on @dst,
 * whose reference it takes; the socket is AF_INET6.
 */
static void wind_xmit6(struct sock *sk, struct sk_buff *skb,
		       struct dst_entry *dst, const struct in6_addr *saddr,
		       const struct in6_addr *daddr, int oif, __be16 dport)
{
	struct flowi6 fl6;

	memset(&fl6, 0, sizeof(fl6));
	fl6.flowi6_proto = IPPROTO_WIND;
	fl6.daddr = *daddr;
	fl6.saddr = *saddr;
	fl6.flowi6_oif = oif ?: sk->sk_bound_dev_if;
	fl6.flowi6_mark = sk->sk_mark;
	fl6.fl6_dport = dport;
	fl6.fl6_sport = wind_hdr(skb)->source;
	skb_dst_set(skb, dst);
	ip6_xmit(sk, skb, &fl6, sk->sk_mark, NULL, inet6_sk(sk)->tclass,
		 sk->sk_priority);
}

/* Data packets leave the checksum to the device, or to
 * skb_checksum_help() where it cannot (as UDP does); the small ones are
 * summed here.
 */
static void checksum_and_send(struct wind_peer *peer, struct sk_buff *skb,
			      bool offload, unsigned int npkts)
{
	struct sock *sk = peer->sk;
	struct windhdr *wh = wind_hdr(skb);

	if (offload) {
		wh->check = ~wind_pseudo_csum(peer, skb->len, 0);
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_transport_header(skb) - skb->head;
		skb->csum_offset = offsetof(struct windhdr, check);
	} else {
		wh->check = wind_pseudo_csum(peer, skb->len,
					     csum_partial(wh, skb->len, 0));
		if (!wh->check)
			wh->check = CSUM_MANGLED_0;
		skb->ip_summed = CHECKSUM_NONE;
	}
	/* packets built before the path MTU shrank may be fragmented (a
	 * GSO skb is built only of packets that fit)
	 */
	if (!skb_is_gso(skb) &&
	    skb->len + (peer->v6 ? sizeof(struct ipv6hdr) :
				   sizeof(struct iphdr)) +
	    (peer->udp ? sizeof(struct udphdr) : 0) > dst_mtu(peer->dst))
		skb->ignore_df = 1;
	peer->last_active = jiffies;
	peer->tx_packets += npkts;
	WIND_ADD_STATS(sock_net(sk), WIND_MIB_OUT_PACKETS, npkts);
	set_owner(skb, sk);
	trace_wind_packet_send(&peer->saddr6, &peer->daddr6, skb);
	if (peer->v6 && peer->udp) {
		wind_udp6_xmit(sk, skb, dst_clone(peer->dst), &peer->saddr6,
			       &peer->daddr6, peer->udp_sport);
		return;
	}
	if (peer->v6) {
		wind_xmit6(sk, skb, dst_clone(peer->dst), &peer->saddr6,
			   &peer->daddr6, peer->oif, peer->dport);
		return;
	}
	if (peer->udp) {
		dst_clone(peer->dst);
		wind_udp_xmit(sk, skb,
			      container_of(peer->dst, struct rtable, dst),
			      peer->saddr, peer->daddr, peer->udp_sport,
			      inet_sk(sk)->tos);
		return;
	}
	skb_dst_set(skb, dst_clone(peer->dst));
	ip_build_and_send_pkt(skb, sk, peer->saddr, peer->daddr, NULL,
			      inet_sk(sk)->tos);
}

/* Does @peer get its packets inside UDP?  Its socket locked. */
static inline bool wind_peer_wants_udp(const struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	return peer->rx_udp ||
	       READ_ONCE(wind_sk(peer->sk)->encap) == WIND_ENCAP_UDP;
}

/* IPv6: the route by the same keys as IPv4's, through ip6_dst_lookup_flow() */
static int peer_route6(struct wind_peer *peer)
{
	bool udp = wind_peer_wants_udp(peer);
	struct sock *sk = peer->sk;
	struct dst_entry *dst;
	struct flowi6 fl6;
	u32 mtu;

	if (ipv6_addr_is_multicast(&peer->daddr6))
		return -EACCES;
	memset(&fl6, 0, sizeof(fl6));
	fl6.flowi6_proto = IPPROTO_WIND;
	fl6.daddr = peer->daddr6;
	fl6.saddr = ipv6_addr_any(&peer->saddr6) ? sk->sk_v6_rcv_saddr :
						    peer->saddr6;
	fl6.flowi6_oif = peer->oif ?: sk->sk_bound_dev_if;
	fl6.flowi6_mark = sk->sk_mark;
	fl6.flowi6_uid = sk->sk_uid;
	if (udp) {
		/* as IPv4: routed by the UDP ports the packets carry */
		fl6.flowi6_proto = IPPROTO_UDP;
		fl6.fl6_dport = wind_net(sock_net(sk))->udp_dport;
		fl6.fl6_sport = peer->udp_sport;
	} else {
		fl6.fl6_dport = peer->dport;
		fl6.fl6_sport = inet_sk(sk)->inet_sport;
	}
	security_sk_classify_flow(sk, flowi6_to_flowi_common(&fl6));
	dst = ip6_dst_lookup_flow(sock_net(sk), sk, &fl6, NULL);
	if (IS_ERR(dst))
		return PTR_ERR(dst);
	dst_release(peer->dst);
	peer->dst = dst;
	peer->dst_cookie = rt6_get_cookie(dst_rt6_info(dst));
	peer->saddr6 = fl6.saddr;
	peer->udp = udp;
	mtu = dst_mtu(dst);
	if (mtu < IPV6_MIN_MTU)
		mtu = IPV6_MIN_MTU;
	peer->mss = mtu - sizeof(struct ipv6hdr) - WIND_DATA_HLEN -
		    (udp ? sizeof(struct udphdr) : 0);
	return 0;
}

/**
 * wind_peer_route() - (re)compute the route and packet size to a peer
 * @peer: the peer, its socket locked
 *
 * Return: 0 or a negative errno from the routing lookup.
 */
int wind_peer_route(struct wind_peer *peer)
{
	struct sock *sk = peer->sk;
	struct inet_sock *inet = inet_sk(sk);
	bool udp = wind_peer_wants_udp(peer);
	struct flowi4 fl4;
	struct rtable *rt;
	u32 mtu;

	wind_peer_assert_held(peer);
	if (peer->v6)
		return peer_route6(peer);
	/* inside UDP, route (policy rules, multipath hash) by the UDP
	 * ports the packets carry
	 */
	if (udp)
		rt = ip_route_output_ports(sock_net(sk), &fl4, sk, peer->daddr,
					   peer->saddr ?: inet->inet_saddr,
					   wind_net(sock_net(sk))->udp_dport,
					   peer->udp_sport, IPPROTO_UDP,
					   ip_sock_rt_tos(sk),
					   sk->sk_bound_dev_if);
	else
		rt = ip_route_output_ports(sock_net(sk), &fl4, sk, peer->daddr,
					   peer->saddr ?: inet->inet_saddr,
					   peer->dport, inet->inet_sport,
					   IPPROTO_WIND, ip_sock_rt_tos(sk),
					   sk->sk_bound_dev_if);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	if (rt->rt_flags & (RTCF_BROADCAST | RTCF_MULTICAST)) {
		ip_rt_put(rt);
		return -EACCES;
	}
	dst_release(peer->dst);
	peer->dst = &rt->dst;
	peer->saddr = fl4.saddr;
	peer->udp = udp;
	mtu = dst_mtu(&rt->dst);
	if (mtu < 576)
		mtu = 576;
	peer->mss = mtu - sizeof(struct iphdr) - WIND_DATA_HLEN -
		    (udp ? sizeof(struct udphdr) : 0);
	return 0;
}

/**
 * wind_peer_set_form() - follow a change of the form a peer's packets take
 * @peer: the peer, its socket locked, after its rx_udp or its socket's
 *	  WIND_ENCAP changed
 *
 * Routes it again (the UDP header costs 8 bytes of each packet) when the
 * form changed: the packets follow peer->udp, set with the route.  Those
 * built for the larger size before go out fragmented, as after a path
 * MTU drop.
 */
void wind_peer_set_form(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	/* on a routing error the old form, route and size stay */
	if (peer->udp != wind_peer_wants_udp(peer))
		wind_peer_route(peer);
}

/**
 * wind_route_ok() - whether a peer has a route to send on
 * @peer: the peer, its socket locked
 *
 * Return: true if peer->dst is valid, the route kept or, where that one
 * went stale, found again (wind_peer_route()).
 */
bool wind_route_ok(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	if (peer->dst && !peer->dst->obsolete)
		return true;
	/* an IPv6 route is always "obsolete": it checks the cookie of
	 * the lookup that found it, as TCP's and UDP's do
	 */
	if (peer->dst && dst_check(peer->dst, peer->dst_cookie))
		return true;
	return wind_peer_route(peer) == 0;
}

/**
 * wind_send_data() - put the data headers in front of a packet and send it
 * @peer: the peer, its socket locked, its route checked (wind_route_ok())
 * @skb: the packet, its payload at skb->data; consumed
 * @cb: the fields of @skb's packet (or, for a GSO skb, of the first of
 *	its packets)
 * @flags: the WIND_F_* flags of its header
 * @npkts: the packets @skb stands for
 *
 * It carries our ack: no separate one is owed then.
 */
void wind_send_data(struct wind_peer *peer, struct sk_buff *skb,
		    const struct wind_skb_cb *cb, u8 flags, unsigned int npkts)
{
	struct wind_datahdr *dh;
	u32 ack = wind_ack_seq(peer);

	wind_peer_assert_held(peer);
	dh = skb_push(skb, sizeof(*dh));
	dh->frag = htons(cb->frag);
	dh->nfrags = htons(cb->nfrags);
	dh->msg_len = htonl(cb->msg_len);
	fill_header(peer, skb, WIND_PKT_DATA, flags, cb->seq, ack);
	if (ack == peer->rcv_nxt && peer->ack_pending) {
		peer->ack_pending = 0;
		wind_timers_ack_sent(peer);
	}
	checksum_and_send(peer, skb, true, npkts);
}

/* How many packets one GSO skb to @peer may hold: 0 unless the route's
 * device carries it whole (segmenting it in software would cost more
 * than sending the packets one by one) and a packet of mss fits the
 * path MTU.  IPv4's 16-bit total length bounds the skb.
 */
static unsigned int gso_max_pkts(const struct wind_peer *peer)
{
	const struct net_device *dev = peer->dst->dev;
	unsigned int size = min_t(unsigned int, READ_ONCE(dev->gso_max_size),
				  IP_MAX_MTU + 1);
	unsigned int hlen = (peer->v6 ? sizeof(struct ipv6hdr) :
					sizeof(struct iphdr)) + WIND_DATA_HLEN;

	if ((dev->features & WIND_GSO_FEATURES) != WIND_GSO_FEATURES)
		return 0;
	/* inside UDP, as a UDP tunnel's GSO skb: the device must carry
	 * that too, with what is inside it
	 */
	if (peer->udp) {
		if (!(dev->features & NETIF_F_GSO_UDP_TUNNEL_CSUM) ||
		    (dev->hw_enc_features & WIND_GSO_FEATURES) !=
		    WIND_GSO_FEATURES)
			return 0;
		hlen += sizeof(struct udphdr);
	}
	if (hlen + peer->mss > dst_mtu(peer->dst))
		return 0;
	/* the device checks the frame, link header included: len < size */
	size -= 1 + READ_ONCE(dev->hard_header_len) + hlen;
	return min_t(unsigned int, size / peer->mss,
		     READ_ONCE(dev->gso_max_segs));
}

/* Whether @skb, a write-queue run, holds its payload in page fragments
 * (fill_paged()) rather than in its head (a one-packet message)
 */
static bool pkt_paged(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->nr_frags;
}

/* Transmit packets @i to @i + @n - 1 of @skb, a paged write-queue run, as
 * one packet, or as one GSO skb of page fragments (referencing the run's:
 * nothing is copied) for more than one.  WIND_F_ACKREQ goes with the
 * run's last packet, as do the extra @flags.
 */
static int xmit_part(struct wind_peer *peer, struct sk_buff *skb, u32 i,
		     u32 n, u8 flags)
{
	const struct wind_skb_cb *cb = WIND_SKB_CB(skb);
	unsigned int off = i * cb->pkt_size;
	struct wind_skb_cb pcb = *cb;
	struct sk_buff *pskb;

	/* its head (the headers) in the socket's page, as a packet's, so
	 * that its receiver charges it what the windows price a packet at;
	 * GFP_ATOMIC: ACKs and timers transmit too, and sk_frag is ours
	 * under the socket lock either way
	 */
	pskb = alloc_pkt(peer->sk, 0, GFP_ATOMIC);
	if (!pskb)
		return -ENOBUFS;
	wind_skb_add_frags(pskb, skb, off, min(skb->len - off, n * cb->pkt_size));
	if (n > 1) {
		skb_shinfo(pskb)->gso_size = peer->mss +
			(peer->udp ? WIND_GSO_UDP_BIAS : WIND_GSO_BIAS);
		skb_shinfo(pskb)->gso_segs = n;
		skb_shinfo(pskb)->gso_type = SKB_GSO_SCTP;
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_GSO_PACKETS);
	}
	pcb.seq += i;
	pcb.frag += i;
	if (i + n < cb->npkts)
		pcb.flags &= ~WIND_F_ACKREQ;
	else
		pcb.flags |= flags;
	wind_send_data(peer, pskb, &pcb, pcb.flags, n);
	return 0;
}

/**
 * wind_xmit_skb() - transmit (or retransmit) a run of the write queue
 * @peer: the peer, its socket locked
 * @skb: the run; it stays on the write queue
 * @flags: extra WIND_F_* flags for this transmission, on its last packet
 *
 * A run of more than one packet leaves as GSO skbs of as many packets as
 * the route's device takes, or one by one where it takes none (or the
 * packets were built for a larger path MTU).
 *
 * Return: 0 or a negative errno; a failed transmission is retried by the
 * retransmission timer like a lost packet.
 */
int wind_xmit_skb(struct wind_peer *peer, struct sk_buff *skb, u8 flags)
{
	struct wind_skb_cb *cb = WIND_SKB_CB(skb);
	unsigned int max = 1, i, n;
	struct sk_buff *nskb;
	int err = 0;

	wind_peer_assert_held(peer);
	if (!wind_route_ok(peer))
		return -EHOSTUNREACH;
	cb->tx_us = div_u64(ktime_get_ns(), NSEC_PER_USEC);
	if (pkt_paged(skb)) {
		if (cb->npkts > 1 && cb->pkt_size == peer->mss)
			max = max(gso_max_pkts(peer), 1U);
		for (i = 0; i < cb->npkts && !err; i += n) {
			n = min_t(u32, cb->npkts - i, max);
			err = xmit_part(peer, skb, i, n, flags);
		}
		return err;
	}
	/* the header goes in front of the shared data: a copy if a clone
	 * of an earlier transmission may still sit in a queue
	 */
	nskb = skb_cloned(skb) ? pskb_copy(skb, GFP_ATOMIC) :
				 skb_clone(skb, GFP_ATOMIC);
	if (!nskb)
		return -ENOBUFS;
	wind_send_data(peer, nskb, cb, cb->flags | flags, 1);
	return 0;
}

/**
 * wind_ack_budget_add() - a packet came from a peer not proven yet
 * @peer: the peer, its socket locked, !tag_ok
 * @skb: the packet, its Wind header validated
 *
 * Its IP payload bytes (the Wind packet, and the UDP header it came in)
 * are what our next answer to the peer may take (unproven_ack()).  A GSO
 * skb counts as its first packet: less than it is, never more.
 */
void wind_ack_budget_add(struct wind_peer *peer, const struct sk_buff *skb)
{
	unsigned int len = ntohs(wind_hdr(skb)->len);

	wind_peer_assert_held(peer);
	if (wind_skb_udp(skb))
		len += sizeof(struct udphdr);
	peer->ack_budget = min_t(unsigned int, peer->ack_budget + len,
				 WIND_ACK_BUDGET_MAX);
}

/* A CHALLENGE to @peer from its state: "prove the tag you claim", with
 * where our stream to it starts, as wind_send_ctl()'s
 */
static void send_challenge(struct wind_peer *peer)
{
	struct sock *sk = peer->sk;
	struct windhdr *wh;
	struct sk_buff *skb;

	skb = alloc_skb(WIND_HEADROOM + WIND_HLEN, GFP_ATOMIC);
	if (!skb)
		return;
	skb_reserve(skb, WIND_HEADROOM);
	wh = skb_push(skb, WIND_HLEN);
	skb_reset_transport_header(skb);
	memset(wh, 0, WIND_HLEN);
	wh->source = inet_sk(sk)->inet_sport;
	wh->dest = peer->dport;
	wh->len = htons(WIND_HLEN);
	wh->version_type = WIND_VERSION << 4 | WIND_PKT_CHALLENGE;
	wh->src_tag = htonl(peer->local_tag);
	wh->dst_tag = htonl(peer->remote_tag);
	wh->oldest = htonl(peer->snd_una);
	WIND_INC_STATS(sock_net(sk), WIND_MIB_OUT_CHALLENGES);
	checksum_and_send(peer, skb, false, 1);
}

/* An answer to @peer, which has not proven its address (an off-path host
 * may have sent what we answer in its name), is no larger than what the
 * peer sent since our last answer (IP payload bytes): as many NAKs as
 * fit, and the cumulative @ack stops at the first refusal left out, as a
 * data packet's does (wind_ack_seq()): an ACK that covers a refusal
 * carries it (the uapi's rule).  The refusals stay recorded for later
 * ACKs.  Too little for an ACK, a CHALLENGE (32 bytes, less than any
 * DATA packet) makes a real peer prove its address at once, and be
 * answered in full.  Return: whether to send the ACK (@n NAKs).
 */
static bool unproven_ack(struct wind_peer *peer, unsigned int *n, u32 *ack)
{
	unsigned int udp = peer->udp ? sizeof(struct udphdr) : 0;
	unsigned int budget = peer->ack_budget, i, k;

	peer->ack_budget = 0;
	if (budget < udp + WIND_ACK_LEN(0)) {
		if (budget >= udp + WIND_HLEN)
			send_challenge(peer);
		return false;
	}
	k = min_t(unsigned int, *n, (budget - udp - WIND_ACK_LEN(0)) /
				    sizeof(struct wind_nak));
	for (i = k; i < *n; i++)
		if (wind_seq_before(peer->refused[i].seq, *ack))
			*ack = peer->refused[i].seq;
	*n = k;
	return true;
}

/* The selective bitmap of an ACK of @ack: bit i, seq ack + 1 + i in */
static u64 ack_sack(const struct wind_peer *peer, u32 ack)
{
	u64 sack = 0;
	u32 i;

	if (!peer->rxt)
		return 0;
	if (likely(ack == peer->rcv_nxt))
		return wind_rxt_sack(peer->rxt);
	for (i = 0; i < WIND_SACK_BITS; i++)
		if (wind_rxt_test(peer->rxt, ack + 1 + i))
			sack |= 1ULL << i;
	return sack;
}

/**
 * wind_send_ack() - send a pure ACK with selective and refusal information
 * @peer: the peer, its socket locked
 *
 * To a peer that has not proven its address, no larger than what it sent
 * since our last answer (unproven_ack()).
 */
void wind_send_ack(struct wind_peer *peer)
{
	struct wind_ackhdr *ah;
	struct wind_nak *nak;
	struct sk_buff *skb;
	unsigned int i, n = peer->nrefused;
	u32 ack = peer->rcv_nxt;

	wind_peer_assert_held(peer);
	if (!wind_route_ok(peer))
		return;
	if (unlikely(!peer->tag_ok) && !unproven_ack(peer, &n, &ack)) {
		/* owed no more: its next packet brings what an answer takes */
		peer->ack_pending = 0;
		wind_timers_ack_sent(peer);
		return;
	}
	skb = alloc_skb(WIND_HEADROOM + WIND_ACK_LEN(n), GFP_ATOMIC);
	if (!skb)
		return;
	skb_reserve(skb, WIND_HEADROOM);
	ah = skb_put(skb, sizeof(*ah));
	ah->sack = cpu_to_be64(ack_sack(peer, ack));
	ah->nnaks = htons(n);
	ah->flags = 0;
	if (likely(ack == peer->rcv_nxt)) {
		/* a refusal for room is news only while rcv_nxt is still
		 * there
		 */
		if (peer->room_refused && peer->rcv_refused_seq == ack)
			ah->flags = htons(WIND_ACK_REFUSED);
		peer->room_refused = 0;
	}
	ah->reserved2 = 0;
	for (i = 0; i < n; i++) {
		nak = skb_put(skb, sizeof(*nak));
		nak->seq = htonl(peer->refused[i].seq);
		nak->error = htonl(peer->refused[i].error);
	}
	fill_header(peer, skb, WIND_PKT_ACK, 0, peer->snd_nxt, ack);
	trace_wind_ack_send(peer, ack, be64_to_cpu(ah->sack), n);
	peer->ack_pending = 0;
	wind_timers_ack_sent(peer);
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_ACKS);
	checksum_and_send(peer, skb, false, 1);
}

/**
 * wind_send_ctl() - answer a packet with a RESET or a CHALLENGE
 * @sk: our socket, locked
 * @in_skb: the packet, its Wind header validated
 * @type: WIND_PKT_RESET or WIND_PKT_CHALLENGE
 * @local_tag: our tag towards the packet's sender
 * @oldest: our oldest unacknowledged seq towards it (0 without a peer)
 *
 * Both name the tag the packet claimed as dst_tag, so that only the
 * socket that owns it acts on the answer, and ours as src_tag.  A RESET
 * says "the tag you named is not mine (any more)"; a CHALLENGE says
 * "prove the tag you claim: send again, naming mine" (wind.rst, "Tags"),
 * and where our stream to it starts.
 * No peer state is created; RESETs are rate-limited per socket.
 */
void wind_send_ctl(struct sock *sk, struct sk_buff *in_skb, u8 type,
		   u32 local_tag, u32 oldest)
{
	const struct windhdr *in = wind_hdr(in_skb);
	struct in6_addr saddr, daddr;
	struct rtable *rt = NULL;
	struct dst_entry *dst;
	struct windhdr *wh;
	struct sk_buff *skb;
	struct flowi6 fl6;
	struct flowi4 fl4;
	bool udp = wind_skb_udp(in_skb);
	bool v6 = wind_skb_v6(in_skb);
	__be16 sport = 0;
	__sum16 psum;
	int oif = 0;

	wind_sock_assert_held(sk);
	if (type == WIND_PKT_RESET && !__ratelimit(&wind_sk(sk)->reset_rs))
		return;
	/* in the form the packet came in: to its source, from where it
	 * was sent to
	 */
	wind_skb_addrs(in_skb, &daddr, &saddr);
	if (udp)
		sport = wind_udp_sport(sock_net(sk));
	if (v6) {
		memset(&fl6, 0, sizeof(fl6));
		fl6.flowi6_proto = udp ? IPPROTO_UDP : IPPROTO_WIND;
		fl6.daddr = daddr;
		fl6.saddr = saddr;
		if (ipv6_addr_type(&daddr) & IPV6_ADDR_LINKLOCAL)
			oif = in_skb->skb_iif;
		fl6.flowi6_oif = oif ?: sk->sk_bound_dev_if;
		fl6.flowi6_mark = sk->sk_mark;
		fl6.fl6_dport = udp ? wind_net(sock_net(sk))->udp_dport :
				      in->source;
		fl6.fl6_sport = udp ? sport : in->dest;
		dst = ip6_dst_lookup_flow(sock_net(sk), sk, &fl6, NULL);
	} else if (udp) {
		rt = ip_route_output_ports(sock_net(sk), &fl4, sk,
					   daddr.s6_addr32[3],
					   saddr.s6_addr32[3],
					   wind_net(sock_net(sk))->udp_dport,
					   sport, IPPROTO_UDP, 0,
					   sk->sk_bound_dev_if);
		dst = IS_ERR(rt) ? ERR_CAST(rt) : &rt->dst;
	} else {
		rt = ip_route_output_ports(sock_net(sk), &fl4, sk,
					   daddr.s6_addr32[3],
					   saddr.s6_addr32[3], in->source,
					   in->dest, IPPROTO_WIND, 0,
					   sk->sk_bound_dev_if);
		dst = IS_ERR(rt) ? ERR_CAST(rt) : &rt->dst;
	}
	if (IS_ERR(dst))
		return;
	skb = alloc_skb(WIND_HEADROOM + WIND_HLEN, GFP_ATOMIC);
	if (!skb) {
		dst_release(dst);
		return;
	}
	skb_reserve(skb, WIND_HEADROOM);
	wh = skb_push(skb, WIND_HLEN);
	skb_reset_transport_header(skb);
	memset(wh, 0, WIND_HLEN);
	wh->source = in->dest;
	wh->dest = in->source;
	wh->len = htons(WIND_HLEN);
	wh->version_type = WIND_VERSION << 4 | type;
	wh->src_tag = htonl(local_tag);
	wh->dst_tag = in->src_tag;
	wh->oldest = htonl(oldest);
	if (v6) {
		saddr = fl6.saddr;
		psum = csum_ipv6_magic(&saddr, &daddr, WIND_HLEN, IPPROTO_WIND,
				       csum_partial(wh, WIND_HLEN, 0));
	} else {
		ipv6_addr_set_v4mapped(fl4.saddr, &saddr);
		psum = csum_tcpudp_magic(fl4.saddr, daddr.s6_addr32[3],
					 WIND_HLEN, IPPROTO_WIND,
					 csum_partial(wh, WIND_HLEN, 0));
	}
	wh->check = psum ?: CSUM_MANGLED_0;
	WIND_INC_STATS(sock_net(sk), WIND_MIB_OUT_PACKETS);
	if (type == WIND_PKT_CHALLENGE)
		WIND_INC_STATS(sock_net(sk), WIND_MIB_OUT_CHALLENGES);
	set_owner(skb, sk);
	trace_wind_packet_send(&saddr, &daddr, skb);
	if (v6 && udp) {
		wind_udp6_xmit(sk, skb, dst, &saddr, &daddr, sport);
		return;
	}
	if (v6) {
		wind_xmit6(sk, skb, dst, &saddr, &daddr, oif, in->source);
		return;
	}
	if (udp) {
		wind_udp_xmit(sk, skb, rt, fl4.saddr, daddr.s6_addr32[3], sport,
			      0);
		return;
	}
	skb_dst_set(skb, dst);
	ip_build_and_send_pkt(skb, sk, fl4.saddr, daddr.s6_addr32[3], NULL, 0);
}
