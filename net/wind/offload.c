// SPDX-License-Identifier: GPL-2.0
/*
 * Generic segmentation offload.  A run of packets of one message may
 * leave as one skb (tx.c): one Wind header, gso_size bytes of payload
 * per packet, the packets' payloads chained as its frag_list.  A device
 * that passes such skbs unsegmented (veth, loopback, bridges) carries it
 * whole to the receiver, which takes it whole when it is the data it
 * expects next and else splits it itself (deliver.c); wherever it must
 * be cut (a device without the feature, a forwarding hop, netem
 * corrupting it) the stack calls wind_gso_segment() through
 * inet_offloads[IPPROTO_WIND] and puts the packets it stands for on the
 * wire, each with its own header and checksum.  The same over IPv6,
 * through inet6_offloads[IPPROTO_WIND].
 *
 * The core has no GSO type for a protocol of a module's, and it
 * dispatches segmentation by IP protocol, not by type.  Wind borrows
 * SKB_GSO_SCTP: only software devices claim it (NETIF_F_GSO_SOFTWARE; no
 * NIC segments SCTP), so no hardware ever takes a Wind skb for one of
 * its own, and SCTP's callback is never reached for IPPROTO_WIND.  The
 * core's helpers take SCTP's header for 12 bytes: a forwarding hop that
 * checks a GSO skb against its MTU (skb_gso_validate_network_len())
 * would count Wind's packets 28 bytes short, and forward ones too large
 * for its link.  So gso_size is the payload per packet plus that
 * difference, WIND_GSO_BIAS, and the segmentation below takes it off.
 *
 * Generic receive offload is the other way round: packets of one message
 * that arrive one by one on a NAPI device (virtio_net, a veth with GRO
 * on) are merged as TCP's are (skb_gro_receive(): the first packet's
 * headers, the others' payloads in its frags or frag_list) into a GSO skb
 * of the same type and gso_size, which IP takes through its stack once.
 * The merge is a fraglist one: the first packet whole, each later one a
 * frag_list member that starts at its payload, which wind_rcv() splits
 * without copying (wind_gso_rcv()), and a device or a forwarding hop cuts
 * with wind_gso_segment() as a sender's GSO skb.  Only
 * consecutive packets of one message merge: whatever would make one of
 * them act differently at the receiver (its ack, window or oldest, or an
 * ACK request, which only the last of a run may carry) ends the run.
 *
 * Inside UDP the same merge runs one layer down, as a UDP tunnel's
 * (vxlan, geneve, fou): the namespace's tunnel sockets (udp.c) give
 * udp_gro_receive() wind_udp_gro_receive(), which it calls with the UDP
 * header pulled, its checksum validated and the flow's UDP ports
 * matched; the merged skb leaves udp_gro_complete() as a UDP tunnel's
 * GSO skb with Wind inside, shaped as a sender's (udp.c): encap_rcv
 * makes it the raw one wind_rcv() splits, and a forwarding hop cuts it
 * with the tunnel's segmentation and wind_gso_segment().
 */
#include <linux/skbuff.h>
#include <net/checksum.h>
#include <net/gro.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/protocol.h>
#include <net/udp.h>
#include <uapi/linux/wind.h>

#include "compat.h"
#include "netns.h"
#include "offload.h"
#include "skb.h"
#include "wire.h"

/**
 * wind_gso_segment() - cut a Wind GSO skb into the packets it stands for
 * @skb: the GSO skb, its Wind header at skb->data (the transport header)
 * @features: what the device that will send the packets can do
 *
 * Packet i carries seq + i and fragment frag + i of the one message; only
 * the last keeps WIND_F_ACKREQ.  Checksums are left to the device if it
 * can, else computed here.
 *
 * Return: the list of packets, or an ERR_PTR.
 */
static struct sk_buff *wind_gso_segment(struct sk_buff *skb,
					netdev_features_t features)
{
	unsigned int bias = WIND_GSO_BIAS;
	bool udp = skb_shinfo(skb)->gso_type & WIND_GSO_UDP_TYPES;
	struct sk_buff *segs, *seg;
	__wsum addrs = 0;
	struct wind_datahdr *dh;
	struct windhdr *wh;
	u16 frag;
	u32 seq;
	u8 flags;

	/* inside UDP (udp.c), called by the tunnel's segmentation */
	if (udp)
		bias = WIND_GSO_UDP_BIAS;
	if (!(skb_shinfo(skb)->gso_type & SKB_GSO_SCTP) ||
	    skb_shinfo(skb)->gso_size <= bias ||
	    !pskb_may_pull(skb, WIND_DATA_HLEN) || skb->len <= WIND_DATA_HLEN)
		return ERR_PTR(-EINVAL);
	/* skb_segment() cuts at gso_size: the payload's, in a shared info
	 * of our own (a clone's is shared: a bridge flooding it may cut
	 * the other copy at the same time)
	 */
	if (skb_unclone(skb, GFP_ATOMIC))
		return ERR_PTR(-ENOMEM);
	skb_shinfo(skb)->gso_size -= bias;
	wh = (struct windhdr *)skb->data;
	if ((wh->version_type & 0xf) != WIND_PKT_DATA)
		return ERR_PTR(-EINVAL);
	dh = (struct wind_datahdr *)(wh + 1);
	/* Inside UDP there is no IP header of ours to take the addresses
	 * from (the inner network header is the Wind header, as SCTP's in
	 * UDP, since the core takes the distance to it for a MAC header's
	 * length): the UDP header just in front holds the pseudo-header sum
	 * of the whole datagram (udp_set_csum(), udp6_set_csum()), which
	 * has them: the lengths and protocols of both versions' pseudo-
	 * headers sum the same way.
	 */
	if (udp) {
		const struct udphdr *uh = (const void *)(skb->data -
							 sizeof(*uh));

		addrs = csum_sub(csum_unfold(uh->check),
				 csum_tcpudp_nofold(0, 0, skb->len + sizeof(*uh),
						    IPPROTO_UDP, 0));
	}
	seq = ntohl(wh->seq);
	frag = ntohs(dh->frag);
	flags = wh->flags;

	__skb_pull(skb, WIND_DATA_HLEN);
	segs = skb_segment(skb, features);
	if (IS_ERR_OR_NULL(segs))
		return segs;

	for (seg = segs; seg; seg = seg->next) {
		unsigned int len = seg->len - skb_transport_offset(seg);
		const struct ipv6hdr *ip6h = ipv6_hdr(seg);
		const struct iphdr *iph = ip_hdr(seg);

		wh = wind_hdr(seg);
		dh = (struct wind_datahdr *)(wh + 1);
		wh->seq = htonl(seq++);
		dh->frag = htons(frag++);
		wh->len = htons(len);
		wh->flags = seg->next ? flags & ~WIND_F_ACKREQ : flags;
		if (udp)
			wh->check = ~csum_fold(csum_add(addrs,
					csum_tcpudp_nofold(0, 0, len,
							   IPPROTO_WIND, 0)));
		else if (iph->version == 6)
			wh->check = ~csum_ipv6_magic(&ip6h->saddr, &ip6h->daddr,
						     len, IPPROTO_WIND, 0);
		else
			wh->check = ~csum_tcpudp_magic(iph->saddr, iph->daddr,
						       len, IPPROTO_WIND, 0);
		if (seg->ip_summed == CHECKSUM_PARTIAL) {
			seg->csum_start = skb_transport_header(seg) - seg->head;
			seg->csum_offset = offsetof(struct windhdr, check);
			/* for a UDP checksum around it (local offload) */
			gso_reset_checksum(seg, csum_unfold(~wh->check));
		} else {
			wh->check = gso_make_checksum(seg,
						      csum_unfold(~wh->check)) ?:
				    CSUM_MANGLED_0;
		}
	}
	return segs;
}

/* The Wind header of the packet @skb (at the GRO offset, checked for its
 * own fields as wind_rcv() will), or NULL when it is no DATA packet of a
 * message that another may join.  @udp: inside our UDP, the UDP header
 * just in front.
 */
static const struct windhdr *gro_data_hdr(struct sk_buff *skb, bool udp)
{
	unsigned int off = skb_gro_offset(skb), len = skb_gro_len(skb), hlen;
	const struct windhdr *wh;

	/* A GSO skb, or one inside a tunnel GRO took apart (its type would
	 * say UDP tunnel, which means Wind inside UDP to wind_gso_segment()).
	 * Inside our UDP the mark is udp_gro_receive()'s, for us; it sets it
	 * only on a packet inside no other tunnel but fou, which clears it.
	 */
	if (skb_is_gso(skb) || NAPI_GRO_CB(skb)->is_fou ||
	    (!udp && NAPI_GRO_CB(skb)->encap_mark))
		return NULL;
	if (udp) {
		const struct udphdr *uh;

		/* A datagram without a UDP checksum goes up alone, for
		 * wind_rcv() to check Wind's; with one, UDP validated it,
		 * over the whole packet, as it does for one not merged.
		 * The header is in the GRO header already (udp_gro_udphdr()).
		 */
		uh = skb_gro_header(skb, off + WIND_DATA_HLEN,
				    off - sizeof(*uh));
		if (!uh || !uh->check)
			return NULL;
		wh = (const struct windhdr *)(uh + 1);
	} else {
		wh = skb_gro_header(skb, off + WIND_DATA_HLEN, off);
	}
	if (!wh || (wh->version_type & 0xf) != WIND_PKT_DATA ||
	    wind_wire_check_len(wh, len) || wind_wire_check_hdr(wh, &hlen) ||
	    wind_wire_check_body(wh) || len <= WIND_DATA_HLEN)
		return NULL;
	return wh;
}

/* Whether no packet may join a run after this one: the last of its
 * message, one that asks for an ACK at once, or a bundle (its messages
 * are whole, and the receiver takes it apart on its own).
 */
static bool gro_run_ends(const struct windhdr *wh)
{
	const struct wind_datahdr *dh = (const void *)(wh + 1);

	return (wh->flags & (WIND_F_ACKREQ | WIND_F_BUNDLE)) ||
	       ntohs(dh->frag) + 1 == ntohs(dh->nfrags);
}

/* Chain @skb's payload to the run @p holds, as skb_gro_receive_list()
 * (which the core does not export) does: the held packet keeps its
 * headers and payload, each later one becomes a frag_list member that
 * starts at its payload.  @p's shared info is written: a clone's (a tap
 * on the sender's side) is not ours to write.
 */
static int gro_merge(struct sk_buff *p, struct sk_buff *skb)
{
	unsigned int off = skb_gro_offset(skb) + WIND_DATA_HLEN;

	if (NAPI_GRO_CB(skb)->flush || skb_cloned(p) ||
	    p->len + skb_gro_len(skb) - WIND_DATA_HLEN >= 65536 ||
	    !pskb_may_pull(skb, off))
		return -E2BIG;
	if (NAPI_GRO_CB(p)->last == p)
		skb_shinfo(p)->frag_list = skb;
	else
		NAPI_GRO_CB(p)->last->next = skb;
	__skb_pull(skb, off);
	NAPI_GRO_CB(p)->last = skb;
	NAPI_GRO_CB(p)->count++;
	p->data_len += skb->len;
	p->len += skb->len;
	p->truesize += skb->truesize;
	/* owned, if at all, by the merged skb as a whole */
	skb->destructor = NULL;
	skb->sk = NULL;
	NAPI_GRO_CB(skb)->same_flow = 1;
	return 0;
}

/**
 * wind_gro_receive() - merge a packet into a run of its message's
 * @head: the packets GRO holds
 * @skb: the new packet, its Wind header at the GRO offset, its checksum
 *	 validated by the caller
 * @udp: inside our UDP (the IP and UDP layers matched the flow's
 *	 addresses and ports)
 *
 * Return: the held skb to complete and pass up now, or NULL.
 */
static struct sk_buff *wind_gro_receive(struct list_head *head,
					struct sk_buff *skb, bool udp)
{
	unsigned int off = skb_gro_offset(skb);
	const struct wind_datahdr *dh, *dh2;
	struct windhdr *wh2;
	const struct windhdr *wh;
	struct sk_buff *pp = NULL;
	unsigned int plen, mss;
	struct sk_buff *p;
	bool ends, last;
	u16 count;
	int flush;
	u8 flags;

	wh = gro_data_hdr(skb, udp);
	if (!wh)
		goto out_flush;
	dh = (const void *)(wh + 1);
	plen = skb_gro_len(skb) - WIND_DATA_HLEN;
	/* (merging may move the header) */
	flags = wh->flags;
	ends = gro_run_ends(wh);

	/* IP matched the addresses; one flow is one pair of ports and tags */
	list_for_each_entry(p, head, list) {
		if (!NAPI_GRO_CB(p)->same_flow)
			continue;
		/* all held packets have our headers where @skb has them */
		wh2 = (struct windhdr *)(p->data + off);
		if (wh->source != wh2->source || wh->dest != wh2->dest ||
		    wh->src_tag != wh2->src_tag || wh->dst_tag != wh2->dst_tag) {
			NAPI_GRO_CB(p)->same_flow = 0;
			continue;
		}
		goto found;
	}
	/* the first of a run, or one that ends it at once goes up */
	flush = ends;
	goto out_pull;

found:
	dh2 = (const void *)(wh2 + 1);
	count = NAPI_GRO_CB(p)->count;
	mss = skb_shinfo(p)->gso_size;	/* the held packet's payload */
	last = ends || plen < mss;
	flush = NAPI_GRO_CB(p)->flush;
#ifdef WIND_HAVE_GRO_NETWORK_FLUSH
	/* TTL, TOS and the IPv4 ID, as 6.1's IP layer did itself; inside
	 * UDP of the IP header in front of it (the core's helper would take
	 * the UDP header, p's transport header, for ours), as an outer one
	 */
	if (udp)
		flush |= __gro_receive_network_flush(wh, wh2, p,
					off - NAPI_GRO_CB(p)->network_offset,
					true);
	else
		flush |= gro_receive_network_flush(wh, wh2, p);
#endif
	flush |= ntohl(wh->seq) != ntohl(wh2->seq) + count;
	flush |= ntohs(dh->frag) != ntohs(dh2->frag) + count;
	flush |= dh->nfrags != dh2->nfrags || dh->msg_len != dh2->msg_len;
	flush |= (wh->flags ^ wh2->flags) & ~WIND_F_ACKREQ;
	flush |= wh->ack != wh2->ack || wh->window != wh2->window ||
		 wh->oldest != wh2->oldest;
	flush |= plen > mss;
	if (flush || gro_merge(p, skb)) {
		/* p goes up; this one starts a run, unless it ends one */
		pp = p;
		flush = ends;
		goto out_pull;
	}
	/* the run's ACK request goes in its first header, which the
	 * receiver or the segmentation gives to the last packet
	 */
	wh2->flags |= flags & WIND_F_ACKREQ;
	if (last)
		pp = p;
	return pp;

out_pull:
	skb_gro_pull(skb, WIND_DATA_HLEN);
	NAPI_GRO_CB(skb)->flush |= flush != 0;
	return pp;

out_flush:
	NAPI_GRO_CB(skb)->flush = 1;
	return NULL;
}

static struct sk_buff *wind4_gro_receive(struct list_head *head,
					 struct sk_buff *skb)
{
	if (skb_gro_checksum_validate(skb, IPPROTO_WIND,
				      inet_gro_compute_pseudo)) {
		/* up alone: wind_rcv() counts it */
		NAPI_GRO_CB(skb)->flush = 1;
		return NULL;
	}
	return wind_gro_receive(head, skb, false);
}

static struct sk_buff *wind6_gro_receive(struct list_head *head,
					 struct sk_buff *skb)
{
	if (skb_gro_checksum_validate(skb, IPPROTO_WIND,
				      ip6_gro_compute_pseudo)) {
		NAPI_GRO_CB(skb)->flush = 1;
		return NULL;
	}
	return wind_gro_receive(head, skb, false);
}

/**
 * wind_udp_gro_receive() - merge a packet inside UDP into a run
 * @sk: the namespace's tunnel socket (udp.c)
 * @head: the packets GRO holds
 * @skb: the new packet, the UDP header pulled and its checksum validated
 *	 by udp_gro_receive()
 *
 * Return: the held skb to complete and pass up now, or NULL.
 */
struct sk_buff *wind_udp_gro_receive(struct sock *sk, struct list_head *head,
				     struct sk_buff *skb)
{
	return wind_gro_receive(head, skb, true);
}

/* A merged run as a GSO skb that wind_rcv() or a device segments: the
 * first packet's header, its checksum field holding the pseudo-header's
 * sum of the whole, as a sender's CHECKSUM_PARTIAL one; gso_size the
 * payload per packet plus @bias, as the sender's has it.
 */
static int wind_gro_complete(struct sk_buff *skb, int nhoff, __sum16 check,
			     unsigned int bias)
{
	struct windhdr *wh = (struct windhdr *)(skb->data + nhoff);

	/* the whole run's length, as a sender's GSO skb has it */
	wh->len = htons(skb->len - nhoff);
	wh->check = check;
	skb->csum_start = (unsigned char *)wh - skb->head;
	skb->csum_offset = offsetof(struct windhdr, check);
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb_shinfo(skb)->gso_type |= SKB_GSO_SCTP;
	skb_shinfo(skb)->gso_size += bias;
	skb_shinfo(skb)->gso_segs = NAPI_GRO_CB(skb)->count;
	WIND_INC_STATS(dev_net(skb->dev), WIND_MIB_IN_GRO_PACKETS);
	return 0;
}

static int wind4_gro_complete(struct sk_buff *skb, int nhoff)
{
	const struct iphdr *iph = ip_hdr(skb);

	return wind_gro_complete(skb, nhoff,
				 ~csum_tcpudp_magic(iph->saddr, iph->daddr,
						    skb->len - nhoff,
						    IPPROTO_WIND, 0),
				 WIND_GSO_BIAS);
}

static int wind6_gro_complete(struct sk_buff *skb, int nhoff)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);

	return wind_gro_complete(skb, nhoff,
				 ~csum_ipv6_magic(&ip6h->saddr, &ip6h->daddr,
						  skb->len - nhoff,
						  IPPROTO_WIND, 0),
				 WIND_GSO_BIAS);
}

/**
 * wind_udp_gro_complete() - make a run merged inside UDP a GSO skb
 * @sk: the namespace's tunnel socket
 * @skb: the merged skb; udp_gro_complete() set its tunnel's GSO type and
 *	 skb->encapsulation
 * @nhoff: the offset of the Wind header
 *
 * The skb becomes what wind_udp_xmit() sends for a run (udp.c): inner
 * protocol Wind, its inner headers all at the Wind header, gso_size the
 * whole Wind packet.  The addresses Wind's checksum covers come from the
 * pseudo-header sum that udp4_gro_complete() or udp6_gro_complete() wrote
 * in the UDP header (wind_udp_gro_receive() merges none without a UDP
 * checksum), as wind_gso_segment() takes them: one computation for both
 * IP versions.
 *
 * Return: 0.
 */
int wind_udp_gro_complete(struct sock *sk, struct sk_buff *skb, int nhoff)
{
	const struct udphdr *uh = (const void *)(skb->data + nhoff -
						 sizeof(*uh));
	unsigned int len = skb->len - nhoff;
	__wsum addrs;

	addrs = csum_sub(csum_unfold(uh->check),
			 csum_tcpudp_nofold(0, 0, len + sizeof(*uh),
					    IPPROTO_UDP, 0));
	skb_set_inner_ipproto(skb, IPPROTO_WIND);
	skb_set_inner_mac_header(skb, nhoff);
	skb_set_inner_network_header(skb, nhoff);
	skb_set_inner_transport_header(skb, nhoff);
	return wind_gro_complete(skb, nhoff,
				 ~csum_fold(csum_add(addrs,
					csum_tcpudp_nofold(0, 0, len,
							   IPPROTO_WIND, 0))),
				 WIND_GSO_UDP_BIAS);
}

static const struct net_offload wind_offload = {
	.callbacks = {
		.gso_segment	= wind_gso_segment,
		.gro_receive	= wind4_gro_receive,
		.gro_complete	= wind4_gro_complete,
	},
};

static const struct net_offload wind6_offload = {
	.callbacks = {
		.gso_segment	= wind_gso_segment,
		.gro_receive	= wind6_gro_receive,
		.gro_complete	= wind6_gro_complete,
	},
};

/**
 * wind_offload_init() - register Wind's segmentation and GRO with IPv4 and IPv6
 *
 * Return: 0 or a negative errno.
 */
int wind_offload_init(void)
{
	int err;

	err = inet_add_offload(&wind_offload, IPPROTO_WIND);
	if (err)
		return err;
	err = inet6_add_offload(&wind6_offload, IPPROTO_WIND);
	if (err)
		inet_del_offload(&wind_offload, IPPROTO_WIND);
	return err;
}

/**
 * wind_offload_exit() - unregister it; waits for callers in flight
 *
 * A Wind GSO skb still queued somewhere after this cannot be segmented
 * and is dropped by the stack, as any packet of a protocol that is gone.
 */
void wind_offload_exit(void)
{
	inet6_del_offload(&wind6_offload, IPPROTO_WIND);
	inet_del_offload(&wind_offload, IPPROTO_WIND);
}
