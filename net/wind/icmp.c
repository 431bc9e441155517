// SPDX-License-Identifier: GPL-2.0
/*
 * ICMP and ICMPv6 errors about packets we sent, from IP for raw packets
 * and from udp.c for those inside UDP: a smaller path MTU shrinks the
 * packets built from then on, port or protocol unreachable fails the
 * peer, once the quoted packet shows it is one of ours in flight.
 */
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "icmp.h"
#include "input.h"
#include "netns.h"
#include "peer.h"
#include "port.h"
#include "seq.h"
#include "skb.h"
#include "tx.h"
#include "wire.h"

/* The Wind header of the packet an ICMP or ICMPv6 error quotes
 * (skb->data: its IP header), past the UDP header if it went inside UDP,
 * with @len bytes of it linear; NULL if the quote is shorter.
 */
static const struct windhdr *quoted_hdr(struct sk_buff *skb, unsigned int len)
{
	const struct iphdr *iph = (const struct iphdr *)skb->data;
	unsigned int off;
	__be16 frag_off;
	u8 nexthdr;
	int hoff;

	if (iph->version == 6) {
		nexthdr = ((const struct ipv6hdr *)skb->data)->nexthdr;
		hoff = ipv6_skip_exthdr(skb, sizeof(struct ipv6hdr), &nexthdr,
					&frag_off);
		if (hoff < 0)
			return NULL;
		off = hoff;
		if (nexthdr == IPPROTO_UDP)
			off += sizeof(struct udphdr);
		else if (nexthdr != IPPROTO_WIND)
			return NULL;
	} else {
		off = iph->ihl << 2;
		if (iph->protocol == IPPROTO_UDP)
			off += sizeof(struct udphdr);
	}
	if (!pskb_may_pull(skb, off + len))
		return NULL;
	return (const struct windhdr *)(skb->data + off);
}

/* The destination of the packet an ICMP error quotes (skb->data: its IP
 * header, pulled by quoted_hdr()), an IPv4 one v4-mapped.
 */
static void quoted_addrs(const struct sk_buff *skb, struct in6_addr *saddr,
			 struct in6_addr *daddr)
{
	const struct iphdr *iph = (const struct iphdr *)skb->data;

	if (iph->version == 6) {
		*saddr = ((const struct ipv6hdr *)skb->data)->saddr;
		*daddr = ((const struct ipv6hdr *)skb->data)->daddr;
	} else {
		ipv6_addr_set_v4mapped(iph->saddr, saddr);
		ipv6_addr_set_v4mapped(iph->daddr, daddr);
	}
}

/* Does the packet an ICMP error quotes come from @peer's association,
 * and is it still in flight?  Our tag towards the peer is a secret an
 * off-path host never sees (wind.rst, "Tags").  A quote too short to
 * hold the Wind header cannot tell.
 */
static bool icmp_quote_ok(struct sk_buff *skb, const struct wind_peer *peer)
{
	const struct windhdr *wh = quoted_hdr(skb, WIND_HLEN);
	u32 seq;

	if (!wh)
		return false;
	if (ntohl(wh->src_tag) != peer->local_tag)
		return false;
	if ((wh->version_type & 0xf) != WIND_PKT_DATA)
		return (wh->version_type & 0xf) == WIND_PKT_ACK;
	seq = ntohl(wh->seq);
	return !wind_seq_before(seq, peer->snd_una) &&
	       wind_seq_before(seq, peer->snd_max);
}

/**
 * wind_icmp_error_rcv() - act on an ICMP error with the socket locked
 * @sk: the socket that sent the quoted packet, locked
 * @skb: the ICMP or ICMPv6 payload, skb->data at the quoted IP header
 *
 * From wind_err(), or from the backlog when process context owned the
 * socket then.
 */
void wind_icmp_error_rcv(struct sock *sk, struct sk_buff *skb)
{
	const struct windhdr *wh = quoted_hdr(skb, 2 * sizeof(__be16));
	struct in6_addr saddr, daddr;
	bool too_big, refused;
	struct wind_peer *peer;
	int type, code;

	wind_sock_assert_held(sk);
	if (!wh)
		return;
	quoted_addrs(skb, &saddr, &daddr);
	peer = wind_peer_lookup(sk, &daddr, wh->dest);
	if (!peer)
		return;
	if (wind_skb_v6(skb)) {
		type = icmp6_hdr(skb)->icmp6_type;
		code = icmp6_hdr(skb)->icmp6_code;
		too_big = type == ICMPV6_PKT_TOOBIG;
		refused = (type == ICMPV6_DEST_UNREACH &&
			   code == ICMPV6_PORT_UNREACH) ||
			  (type == ICMPV6_PARAMPROB &&
			   code == ICMPV6_UNK_NEXTHDR);
	} else {
		type = icmp_hdr(skb)->type;
		code = icmp_hdr(skb)->code;
		too_big = type == ICMP_DEST_UNREACH && code == ICMP_FRAG_NEEDED;
		refused = type == ICMP_DEST_UNREACH &&
			  (code == ICMP_PORT_UNREACH ||
			   code == ICMP_PROT_UNREACH);
	}
	if (too_big) {
		/* the route's MTU was updated by wind_err(); a quote that is
		 * not ours does not make us rebuild anything
		 */
		if (!icmp_quote_ok(skb, peer))
			return;
		dst_release(peer->dst);
		peer->dst = NULL;
		wind_peer_route(peer);
	} else if (refused) {
		if (!icmp_quote_ok(skb, peer)) {
			WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ERR_TAG);
			return;
		}
		wind_peer_fail(peer, ECONNREFUSED);
	}
}

/* Either ICMP's error: @mtu, the new path MTU of a "too big" error */
static int wind_icmp_err(struct sk_buff *skb, u32 mtu)
{
	const struct windhdr *wh = quoted_hdr(skb, 2 * sizeof(__be16));
	struct net *net = dev_net(skb->dev);
	struct in6_addr saddr, daddr;
	struct sk_buff *clone;
	struct sock *sk;

	if (!wh)
		return -ENOENT;
	quoted_addrs(skb, &saddr, &daddr);
	rcu_read_lock();
	sk = wind_port_lookup(net, &saddr, wh->source);
	rcu_read_unlock();
	if (!sk)
		return -ENOENT;

	/* The route's MTU is the kernel's, shared with every socket, and
	 * updated as for UDP, before the socket is locked: the update
	 * takes the socket's spinlock itself.
	 */
	if (wind_skb_v6(skb)) {
		if (mtu)
			ip6_sk_update_pmtu(skb, sk, htonl(mtu));
	} else if (icmp_hdr(skb)->type == ICMP_DEST_UNREACH &&
		   icmp_hdr(skb)->code == ICMP_FRAG_NEEDED) {
		ipv4_sk_update_pmtu(skb, sk, ntohs(icmp_hdr(skb)->un.frag.mtu));
	}

	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk)) {
		wind_icmp_error_rcv(sk, skb);
	} else {
		/* the backlog tells it from a Wind packet by the
		 * protocol after its outer IP header (wind_skb_proto())
		 */
		clone = skb_clone(skb, GFP_ATOMIC);
		if (clone && sk_add_backlog(sk, clone, wind_backlog_limit(sk)))
			kfree_skb(clone);
	}
	bh_unlock_sock(sk);
	sock_put(sk);
	return 0;
}

/**
 * wind_err() - an ICMP error about a packet we sent
 * @skb: the ICMP payload: our IP header and at least 8 bytes of ours
 *	 (from IP for raw packets, from udp.c for those inside UDP)
 * @info: the ICMP info (the MTU for "fragmentation needed")
 *
 * Port or protocol unreachable fails the peer with ECONNREFUSED, and a
 * smaller path MTU shrinks the packets built from now on, if the quoted
 * packet is one of ours in flight (icmp_quote_ok()).  While process
 * context owns the socket, a clone waits on the socket's backlog, so
 * that neither an error nor a path MTU update is lost.
 *
 * Return: 0, or -ENOENT when no socket sent it.
 */
int wind_err(struct sk_buff *skb, u32 info)
{
	return wind_icmp_err(skb, 0);
}

/**
 * wind6_err() - an ICMPv6 error about a packet we sent (inet6_protocol)
 * @skb: the ICMPv6 payload: our IPv6 header and what follows it
 * @opt: unused
 * @type: the ICMPv6 type
 * @code: its code
 * @offset: unused: the quote is parsed again, as from the backlog
 * @info: the new path MTU of "packet too big"
 *
 * As wind_err(): port unreachable or an unknown next header fails the
 * peer with ECONNREFUSED, "packet too big" shrinks its packets.
 *
 * Return: 0, or -ENOENT when no socket sent it.
 */
int wind6_err(struct sk_buff *skb, struct inet6_skb_parm *opt, u8 type,
	      u8 code, int offset, __be32 info)
{
	return wind_icmp_err(skb, type == ICMPV6_PKT_TOOBIG ? ntohl(info) : 0);
}
