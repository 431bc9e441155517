/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skbs Wind queues and sends: the control block of a queued skb, the
 * headroom of every packet Wind builds, and the IP header helpers of a
 * received one (family, addresses, the protocol after the IP header).
 */
#ifndef _WIND_SKB_H
#define _WIND_SKB_H

#include <linux/ip.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/udp.h>
#include <net/ipv6.h>

#include "wire.h"

/* The headroom of every packet Wind builds: link, IP and UDP headers in
 * front of its own
 */
#define WIND_HEADROOM	(MAX_HEADER + sizeof(struct ipv6hdr) + \
			 sizeof(struct udphdr) + WIND_MAX_HLEN)

/* Is @skb (its IP header at skb_network_header()) an IPv6 packet? */
static inline bool wind_skb_v6(const struct sk_buff *skb)
{
	return ip_hdr(skb)->version == 6;
}

/* The source and destination of @skb, an IPv4 packet's v4-mapped. */
static inline void wind_skb_addrs(const struct sk_buff *skb,
				  struct in6_addr *saddr,
				  struct in6_addr *daddr)
{
	if (wind_skb_v6(skb)) {
		*saddr = ipv6_hdr(skb)->saddr;
		*daddr = ipv6_hdr(skb)->daddr;
	} else {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, saddr);
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, daddr);
	}
}

/* Control block of a queued skb.  Send side: the message fragments
 * described, a run of npkts packets from seq (frag) on, all in one state
 * (wq.c); receive side: where it came from and which fragment it is.
 */
struct wind_skb_cb {
	u32 seq;
	u32 msg_len;
	u16 frag;
	u16 nfrags;
	u8 flags;			/* WIND_F_* */
	u8 retransmitted:1;		/* Karn: no RTT sample */
	u8 sacked:1;			/* the peer reported it arrived */
	u8 refused:1;			/* the peer's refusal was reported */
	u8 ooo:1;			/* receive: counted in ooo_pkts */
	u8 kernel:1;			/* send: the kernel's own message (a
					 * one-sided answer): its failure is
					 * nobody's to be told of
					 */
	u16 npkts;			/* packets from seq on that this skb
					 * holds: send, a run of a message
					 * (wq.c); receive, an in-order GSO
					 * skb taken whole (gso_rcv_whole())
					 */
	union {
		struct {			/* send */
			u64 tx_us;		/* time of the last transmission */
			u32 msgid;		/* WIND_CMSG_MSGID, 0: none */
			u16 pkt_size;		/* payload of each packet but
						 * the message's last: the mss
						 * when it was queued
						 */
		};
		struct {			/* receive */
			struct in6_addr saddr;	/* sender, IPv4 v4-mapped */
			__be16 sport;
			s16 rma_status;		/* WIND_F_RMA_DONE: landing */
		};
	};
};

static inline struct windhdr *wind_hdr(const struct sk_buff *skb)
{
	return (struct windhdr *)skb_transport_header(skb);
}

#define WIND_SKB_CB(skb) ((struct wind_skb_cb *)&((skb)->cb[0]))

/* The protocol after @skb's IP header (at skb_network_header()): IPv4's
 * protocol, or over IPv6 the first header that is no extension header
 * (hop-by-hop, destination options, routing, AH) among those before the
 * transport header, which IPv6 parsed and left linear.  A Wind packet's
 * is IPPROTO_WIND or IPPROTO_UDP, an ICMP error's IPPROTO_ICMP(V6).
 */
static inline u8 wind_skb_proto(const struct sk_buff *skb)
{
	const u8 *p, *end;
	u8 nexthdr, type;

	if (!wind_skb_v6(skb))
		return ip_hdr(skb)->protocol;
	nexthdr = ipv6_hdr(skb)->nexthdr;
	p = skb_network_header(skb) + sizeof(struct ipv6hdr);
	end = skb_transport_header(skb);
	while (ipv6_ext_hdr(nexthdr) && nexthdr != NEXTHDR_NONE &&
	       p + sizeof(struct ipv6_opt_hdr) <= end) {
		type = nexthdr;
		nexthdr = p[0];
		if (type == NEXTHDR_FRAGMENT)
			p += sizeof(struct frag_hdr);
		else if (type == NEXTHDR_AUTH)
			p += ipv6_authlen((const struct ipv6_opt_hdr *)p);
		else
			p += ipv6_optlen((const struct ipv6_opt_hdr *)p);
	}
	return nexthdr;
}

/* Did @skb (its IP header at ip_hdr()) reach us inside UDP?  Over IPv6,
 * behind whatever extension headers there are.
 */
static inline bool wind_skb_udp(const struct sk_buff *skb)
{
	return wind_skb_proto(skb) == IPPROTO_UDP;
}

#endif /* _WIND_SKB_H */
