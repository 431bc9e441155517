// SPDX-License-Identifier: GPL-2.0
/*
 * Generic segmentation offload.  A run of packets of one message may
 * leave as one skb (output.c): one Wind header, gso_size bytes of payload
 * per packet, the packets' payloads chained as its frag_list.  A device
 * that passes such skbs unsegmented (veth, loopback, bridges) carries it
 * whole to the receiver, which splits it itself (input.c); wherever it
 * must be cut (a device without the feature, a forwarding hop, netem
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
 */
#include <linux/skbuff.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/protocol.h>

#include "compat.h"
#include "protocol.h"

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

static const struct net_offload wind_offload = {
	.callbacks = {
		.gso_segment	= wind_gso_segment,
	},
};

/**
 * wind_offload_init() - register Wind's segmentation with IPv4 and IPv6
 *
 * Return: 0 or a negative errno.
 */
int wind_offload_init(void)
{
	int err;

	err = inet_add_offload(&wind_offload, IPPROTO_WIND);
	if (err)
		return err;
	err = inet6_add_offload(&wind_offload, IPPROTO_WIND);
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
	inet6_del_offload(&wind_offload, IPPROTO_WIND);
	inet_del_offload(&wind_offload, IPPROTO_WIND);
}
