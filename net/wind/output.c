// SPDX-License-Identifier: GPL-2.0
/*
 * The send path: sendmsg() splits a message into packets of the path MTU
 * and queues them on the peer's write queue in one piece; wind_push()
 * transmits what the peer's window allows, a run of packets of one
 * message as one GSO skb where the route's device passes those (see
 * offload.c); every packet carries our cumulative acknowledgment and
 * window.  Pure ACKs and RESETs too.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/uio.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/udp.h>

#include "compat.h"
#include "protocol.h"
#include "trace.h"

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
	if (wind_seq_after(ack + wnd, peer->rcv_wnd_edge))
		peer->rcv_wnd_edge = ack + wnd;
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

static bool route_ok(struct wind_peer *peer)
{
	if (peer->dst && !peer->dst->obsolete)
		return true;
	/* an IPv6 route is always "obsolete": it checks the cookie of
	 * the lookup that found it, as TCP's and UDP's do
	 */
	if (peer->dst && dst_check(peer->dst, peer->dst_cookie))
		return true;
	return wind_peer_route(peer) == 0;
}

/* Put the data headers of @cb's packet (or, for a GSO skb, of the first
 * of its packets) in front of @skb and send it, standing for @npkts
 * packets.  It carries our ack: no separate one is owed then.
 */
static void send_data(struct wind_peer *peer, struct sk_buff *skb,
		      const struct wind_skb_cb *cb, u8 flags,
		      unsigned int npkts)
{
	struct wind_datahdr *dh;
	u32 ack = wind_ack_seq(peer);

	dh = skb_push(skb, sizeof(*dh));
	dh->frag = htons(cb->frag);
	dh->nfrags = htons(cb->nfrags);
	dh->msg_len = htonl(cb->msg_len);
	fill_header(peer, skb, WIND_PKT_DATA, flags, cb->seq, ack);
	if (ack == peer->rcv_nxt && peer->ack_pending) {
		peer->ack_pending = 0;
		wind_delack_timer_stop(peer);
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

static struct sk_buff *alloc_pkt(struct sock *sk, unsigned int size,
				 gfp_t gfp);

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
	send_data(peer, pskb, &pcb, pcb.flags, n);
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

	if (!route_ok(peer))
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
	send_data(peer, nskb, cb, cb->flags | flags, 1);
	return 0;
}

/* Within the peer's window and the congestion window? */
static bool wind_may_send(const struct wind_peer *peer)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;

	return wind_seq_before(peer->snd_nxt, peer->snd_wnd_end) &&
	       in_flight < peer->cwnd;
}

/* Does @peer hold small messages back to bundle them: its last send
 * said MSG_MORE, or the socket is corked (WIND_CORK), and close() is not
 * flushing?
 */
static bool corked(const struct wind_peer *peer)
{
	const struct wind_sock *ws = wind_sk(peer->sk);

	return (peer->more || ws->cork) && !ws->flushing;
}

/* The one-packet messages from @skb on (the caller starts at send_head)
 * that fit one bundle: not DSM, their chunks within mss, at most
 * WIND_BUNDLE_MAX of them and what the peer's window and the congestion
 * window allow.  *@last is set to the last of them and *@bytes to their
 * chunks' bytes.  *@held is set when @peer is corked and the run takes
 * the write queue to its end without filling the packet: it waits for
 * more, unless a sync message is in it (its sender sleeps until it is
 * acknowledged).  Return: how many, 0 if @skb is not such a message.
 */
static unsigned int bundle_run(const struct wind_peer *peer,
			       struct sk_buff *skb, struct sk_buff **last,
			       unsigned int *bytes, bool *held)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;
	unsigned int n = 0, len = 0, max;
	bool sync = false;

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
			*held = !sync && corked(peer);
			break;
		}
		skb = skb->next;
	}
	*bytes = len;
	return n;
}

/* Transmit @n one-packet messages from @first on as one bundle packet
 * of @bytes of chunks (wind.h, struct wind_chunkhdr): copies, as the
 * write queue keeps each message for retransmission, which sends it
 * alone.  The messages are marked as sent as if one by one.
 */
static int xmit_bundle(struct wind_peer *peer, struct sk_buff *first,
		       unsigned int n, unsigned int bytes, u8 flags)
{
	u64 now = div_u64(ktime_get_ns(), NSEC_PER_USEC);
	struct sk_buff *bskb, *skb = first;
	struct wind_skb_cb bcb;
	unsigned int i;

	if (!route_ok(peer))
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
	send_data(peer, bskb, &bcb, WIND_F_BUNDLE | (flags & WIND_F_ACKREQ), 1);
	return 0;
}

/* Packets the peer's window and the congestion window let us send */
static u32 send_room(const struct wind_peer *peer)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;

	return min(peer->snd_wnd_end - peer->snd_nxt, peer->cwnd - in_flight);
}

/* wind_push(), and with @flush set regardless of a cork */
static void push(struct wind_peer *peer, bool flush)
{
	unsigned int n, bytes;
	struct sk_buff *skb, *last;
	bool held = false;

	while ((skb = peer->send_head) && wind_may_send(peer)) {
		bool bundle;
		u8 flags = 0;

		last = skb;
		/* small messages queued behind each other go as one */
		n = bundle_run(peer, skb, &last, &bytes, &held);
		if (held && !flush)
			break;
		held = false;
		bundle = n > 1;
		if (!bundle) {
			last = skb;
			/* as much of a run as the windows allow (no memory
			 * to split it: all of it, and the peer refuses what
			 * it has no room for)
			 */
			n = send_room(peer);
			if (WIND_SKB_CB(skb)->npkts > n)
				wind_wq_split(peer, skb, n);
		}
		peer->send_head = skb_queue_is_last(&peer->wq, last) ?
				  NULL : last->next;
		wind_snd_nxt_set(peer, wind_end_seq(last));
		/* a window is full: ask for an ack at once */
		if (peer->send_head && !wind_may_send(peer))
			flags |= WIND_F_ACKREQ;
		if (bundle && !xmit_bundle(peer, skb, n, bytes, flags))
			continue;
		/* one by one (no memory for the bundle: still no loss) */
		for (; skb != last; skb = skb->next)
			wind_xmit_skb(peer, skb, 0);
		wind_xmit_skb(peer, last, flags);
	}
	/* nothing in flight and the rest held by a cork: no probe is due */
	if (!skb_queue_empty(&peer->wq) && !wind_rtx_timer_due(peer) &&
	    !(held && peer->snd_una == peer->snd_nxt))
		wind_rtx_timer_arm(peer);
}

/**
 * wind_push() - transmit queued packets while the peer's window allows
 * @peer: the peer, its socket locked
 *
 * One-packet messages queued behind each other leave as one bundle; a
 * corked peer (MSG_MORE, WIND_CORK) keeps the last of them back until
 * they fill a packet.
 */
void wind_push(struct wind_peer *peer)
{
	push(peer, false);
}

/**
 * wind_uncork() - send what every peer of a socket holds back
 * @sk: the socket, locked
 * @clear: forget each peer's MSG_MORE too (WIND_CORK set to 0, close())
 */
void wind_uncork(struct sock *sk, bool clear)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_peer *peer;

	list_for_each_entry(peer, &ws->peer_list, node) {
		if (clear)
			peer->more = 0;
		if (peer->send_head)
			push(peer, true);
	}
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

	if (!peer->rt)
		return 0;
	if (likely(ack == peer->rcv_nxt))
		return wind_rt_sack(peer->rt);
	for (i = 0; i < WIND_SACK_BITS; i++)
		if (wind_rt_test(peer->rt, ack + 1 + i))
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

	if (!route_ok(peer))
		return;
	if (unlikely(!peer->tag_ok) && !unproven_ack(peer, &n, &ack)) {
		/* owed no more: its next packet brings what an answer takes */
		peer->ack_pending = 0;
		wind_delack_timer_stop(peer);
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
	wind_delack_timer_stop(peer);
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

/* The buffer of a write-queue packet of @size bytes of payload, its
 * headroom and shared info included
 */
static unsigned int pkt_buf_size(unsigned int size)
{
	return SKB_DATA_ALIGN(WIND_HEADROOM + size) +
	       SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
}

/* Room for @sz bytes in @pfrag (sk_frag or dfrag): as
 * skb_page_frag_refill(), but a full page is kept in ws->pages rather
 * than let go, and one of those that all its packets left (only our
 * reference on it) is taken before a new page is allocated: with
 * init_on_alloc (Debian's default) a new page is zeroed, and a window's
 * worth of packets in flight would need one every few packets.  As
 * skb_page_frag_refill(), it may give a page smaller than @sz when no
 * larger one is to be had.
 */
static bool pfrag_refill(struct sock *sk, struct page_frag *pfrag,
			 unsigned int sz, gfp_t gfp)
{
	struct wind_sock *ws = wind_sk(sk);
	struct page *page = pfrag->page;
	int i, slot = -1;

	if (!page || page_ref_count(page) == 1 ||
	    pfrag->offset + sz <= pfrag->size)
		return skb_page_frag_refill(sz, pfrag, gfp);
	for (i = 0; i < WIND_PAGE_CACHE; i++) {
		struct page *p = ws->pages[i];

		if (!p) {
			if (slot < 0)
				slot = i;
		} else if (page_ref_count(p) == 1) {
			ws->pages[i] = page;
			pfrag->page = p;
			pfrag->offset = 0;
			pfrag->size = page_size(p);
			return true;
		}
	}
	if (slot >= 0) {
		ws->pages[slot] = page;
		pfrag->page = NULL;
	}
	return skb_page_frag_refill(sz, pfrag, gfp);
}

/**
 * wind_pages_release() - let go of the pages a socket kept for its packets
 * @sk: the socket, locked: closing, or its idle-peer timer found nothing
 *	of it in flight
 *
 * Packets still in a queue somewhere hold their own references.
 */
void wind_pages_release(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	int i;

	for (i = 0; i < WIND_PAGE_CACHE; i++) {
		if (ws->pages[i])
			put_page(ws->pages[i]);
		ws->pages[i] = NULL;
	}
	if (ws->dfrag.page)
		put_page(ws->dfrag.page);
	ws->dfrag.page = NULL;
}

/* A write-queue packet for @size bytes of payload, its headroom reserved.
 * Where it fits a page, its buffer is a fragment of the socket's page
 * (sk_frag, as TCP's payload): no kmalloc() per packet, none of the
 * zeroing that init_on_alloc gives each kmalloc-2k object, and the pages
 * are used again once their packets are acknowledged and read
 * (pfrag_refill()).  Larger ones (path MTUs past a page, as loopback's)
 * are kmalloc()ed.  Both count in the sender's memory cgroup, as the
 * write queue's memory; the socket lock serialises sk_frag, which
 * __sk_destruct() puts, and wind_close() lets go of the others.
 */
static struct sk_buff *alloc_pkt(struct sock *sk, unsigned int size,
				 gfp_t gfp)
{
	unsigned int buf = pkt_buf_size(size);
	struct page_frag *pfrag = &sk->sk_frag;
	struct sk_buff *skb;

	if (buf > PAGE_SIZE) {
		skb = alloc_skb(WIND_HEADROOM + size, gfp);
		goto out;
	}
	if (!pfrag_refill(sk, pfrag, buf, gfp))
		return NULL;
	skb = build_skb(page_address(pfrag->page) + pfrag->offset, buf);
	if (!skb)
		return NULL;
	get_page(pfrag->page);
	pfrag->offset += buf;
out:
	if (skb)
		skb_reserve(skb, WIND_HEADROOM);
	return skb;
}

/* Queue on @q the packets of a message of @total bytes, more than one
 * packet of @mss, as runs (wq.c): skbs with no payload in their head,
 * each holding as many packets as its page fragments allow, their
 * payloads in fragments of dfrag, where messages lie end to end as a
 * stream's bytes do, copied in with one call per page.  A run leaves as
 * one GSO skb of a few page fragments (xmit_part()): nothing per packet
 * to allocate as it leaves, to free when it is acknowledged, or to free
 * where it is read.  The @prefix bytes at @pre (the DSM header) go first.
 *
 * Return: 0 or a negative errno; what was queued is the caller's to free.
 */
static int fill_paged(struct sock *sk, struct sk_buff_head *q,
		      struct iov_iter *from, const void *pre, size_t prefix,
		      size_t total, unsigned int mss, gfp_t gfp)
{
	/* the fragments a packet may take: one a page it touches */
	unsigned int worst = DIV_ROUND_UP(mss, PAGE_SIZE) + 1;
	struct page_frag *pfrag = &wind_sk(sk)->dfrag;
	struct sk_buff *skb = NULL;
	size_t done = 0, carved = 0;
	unsigned int room = 0;

	while (done < total) {
		unsigned int chunk, off, n;
		void *va;

		/* not a sliver at a page's end: a packet in one piece */
		if (!pfrag_refill(sk, pfrag, min_t(size_t, total - done, 256),
				  gfp))
			return -ENOBUFS;
		va = page_address(pfrag->page) + pfrag->offset;
		chunk = min_t(size_t, total - done,
			      pfrag->size - pfrag->offset);
		n = 0;
		if (done < prefix) {
			n = min_t(size_t, chunk, prefix - done);
			memcpy(va, pre + done, n);
		}
		if (!copy_from_iter_full(va + n, chunk - n, from))
			return -EFAULT;
		off = pfrag->offset;
		pfrag->offset += chunk;
		done += chunk;
		while (chunk) {
			int i;

			/* a packet starts: in a new run if this one's
			 * fragments might not hold it
			 */
			if (!room && (!skb || skb_shinfo(skb)->nr_frags + worst >
					      MAX_SKB_FRAGS)) {
				skb = alloc_pkt(sk, 0, gfp);
				if (!skb)
					return -ENOBUFS;
				__skb_queue_tail(q, skb);
			}
			if (!room)
				room = min_t(size_t, mss, total - carved);
			n = min(room, chunk);
			i = skb_shinfo(skb)->nr_frags;
			if (skb_can_coalesce(skb, i, pfrag->page, off)) {
				skb_frag_size_add(&skb_shinfo(skb)->frags[i - 1],
						  n);
			} else {
				if (WARN_ON_ONCE(i == MAX_SKB_FRAGS))
					return -EMSGSIZE;
				get_page(pfrag->page);
				skb_fill_page_desc(skb, i, pfrag->page, off, n);
			}
			skb->len += n;
			skb->data_len += n;
			skb->truesize += n;
			off += n;
			chunk -= n;
			room -= n;
			carved += n;
		}
	}
	return 0;
}

/* What a packet of a message of @nfrags packets of @mss takes of the send
 * buffer: a one-packet message, alloc_pkt()'s truesize where it fits a
 * page; a longer one, its payload and its share of its run's skb, a run
 * holding at least as many packets as MAX_SKB_FRAGS holds of the
 * fragments each may take (fill_paged())
 */
static unsigned int pkt_charge(unsigned int mss, unsigned int nfrags)
{
	unsigned int worst = DIV_ROUND_UP(mss, PAGE_SIZE) + 1;

	if (nfrags == 1)
		return SKB_TRUESIZE(SKB_DATA_ALIGN(WIND_HEADROOM + mss));
	return mss + DIV_ROUND_UP(SKB_TRUESIZE(SKB_DATA_ALIGN(WIND_HEADROOM)),
				  max_t(unsigned int, MAX_SKB_FRAGS / worst, 1));
}

/* The bytes @peer's queued packets take, @pkt bytes a packet: each sent
 * and unacknowledged or not yet sent (the estimate a send is checked with)
 */
static u64 peer_queued(const struct wind_peer *peer, unsigned int pkt)
{
	return (u64)(peer->write_seq - peer->snd_una) * pkt;
}

/* May @need bytes of a message to @peer be queued, @pkt bytes a packet?
 * The socket's packets take up to SO_SNDBUF.  Past it, a peer holding
 * less than half of SO_SNDBUF may still queue, until the socket holds
 * twice SO_SNDBUF: a peer that stops acknowledging (its receiver reads
 * nothing) fills at most SO_SNDBUF, and sends to the socket's other
 * peers go on, as each peer had a send buffer of its own (SCTP's
 * sndbuf_policy 1, TCP's connections) within a bound per socket.
 */
static bool sndbuf_room(struct sock *sk, const struct wind_peer *peer,
			unsigned int need, unsigned int pkt)
{
	u64 sndbuf = READ_ONCE(sk->sk_sndbuf);
	u64 used = sk_wmem_alloc_get(sk);
	u64 mine = peer_queued(peer, pkt);

	if (used + need <= sndbuf)
		return true;
	return mine + need <= sndbuf / 2 && used + need <= 2 * sndbuf;
}

/**
 * wind_write_space() - packets of a peer were acknowledged or dropped
 * @sk: their socket
 *
 * As sk_write_space(), which wakes writers only once the socket's send
 * buffer is less than half full; and writers waiting while other peers
 * hold more than half of it are woken too: a peer that acknowledges
 * nothing may keep the buffer over half full for good, while room for a
 * writer's share comes with its own peer's acknowledgments
 * (sndbuf_room()).  Called for acknowledgments, not for each packet the
 * stack lets go of.
 */
void wind_write_space(struct sock *sk)
{
	sk->sk_write_space(sk);
	if (READ_ONCE(wind_sk(sk)->sndbuf_waiters) && !sock_writeable(sk))
		wake_up_interruptible_sync_poll(sk_sleep(sk), EPOLLOUT |
						EPOLLWRNORM | EPOLLWRBAND);
}

/* Block until the send buffer has room for @need bytes to @peer.  While
 * other peers hold more than half of SO_SNDBUF the writer counts in
 * sndbuf_waiters, for wind_write_space() (a writer to the only busy peer
 * is woken as before, below half).  Each sleep is at most
 * WIND_SNDBUF_RECHECK: a packet the stack lets go of late, after its
 * acknowledgment, wakes writers only below half of SO_SNDBUF
 * (wind_wfree()), and other peers may take more of the buffer while we
 * sleep uncounted.
 */
#define WIND_SNDBUF_RECHECK	(HZ / 50)

static int wait_for_sndbuf(struct sock *sk, struct wind_peer *peer,
			   long *timeo, unsigned int need, unsigned int pkt)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct wind_sock *ws = wind_sk(sk);
	bool counted = false;
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (!sndbuf_room(sk, peer, need, pkt)) {
		bool others = sk_wmem_alloc_get(sk) > peer_queued(peer, pkt) +
			READ_ONCE(sk->sk_sndbuf) / 2;
		long t;

		if (others != counted) {
			WRITE_ONCE(ws->sndbuf_waiters,
				   ws->sndbuf_waiters + (others ? 1 : -1));
			counted = others;
		}

		if (sk->sk_err) {
			err = sock_error(sk);
			if (err)
				break;
		}
		if (!*timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		sk_set_bit(SOCKWQ_ASYNC_NOSPACE, sk);
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		t = min_t(long, *timeo, WIND_SNDBUF_RECHECK);
		if (*timeo != MAX_SCHEDULE_TIMEOUT)
			*timeo -= t;
		sk_wait_event(sk, &t, sndbuf_room(sk, peer, need, pkt),
			      &wait);
		if (*timeo != MAX_SCHEDULE_TIMEOUT)
			*timeo += t;	/* what it did not sleep */
	}
	if (counted)
		WRITE_ONCE(ws->sndbuf_waiters, ws->sndbuf_waiters - 1);
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* Sleep until the sync message is acknowledged or failed. */
static int wait_for_sync(struct sock *sk, struct wind_sync_waiter *w,
			 long timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (!w->done) {
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		/* EINTR, never a restart: the message is queued already,
		 * and a restarted sendmsg() would queue it again
		 */
		if (signal_pending(current)) {
			err = -EINTR;
			break;
		}
		sk_wait_event(sk, &timeo, w->done, &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	if (!w->done) {
		list_del(&w->node);	/* the message stays queued */
		return err;
	}
	return w->err ? -w->err : 0;
}

/* The packets of a message of @prefix bytes at @pre, then @len from
 * @from, onto @q: what was queued is the caller's to free on failure.
 */
static int fill_msg(struct sock *sk, struct sk_buff_head *q,
		    struct iov_iter *from, const void *pre, size_t prefix,
		    size_t len, unsigned int mss, gfp_t gfp)
{
	size_t total = prefix + len;
	struct sk_buff *skb;

	if (total > mss)
		return fill_paged(sk, q, from, pre, prefix, total, mss, gfp);
	skb = alloc_pkt(sk, total, gfp);
	if (!skb)
		return -ENOBUFS;
	__skb_queue_tail(q, skb);
	if (prefix)
		skb_put_data(skb, pre, prefix);
	return copy_from_iter_full(skb_put(skb, len), len, from) ? 0 : -EFAULT;
}

/**
 * wind_msg_prepare() - the packets of a message the kernel sends itself
 * @peer: its destination, the socket locked (softirq included)
 * @q: an empty queue, set to the packets
 * @pre: the message's first bytes (its headers)
 * @prefix: how many
 * @from: the rest
 * @len: how many
 * @gfp: how to allocate
 *
 * The send buffer is judged as for sendmsg(), which would wait where
 * this fails; a message of one packet is one linear skb, a longer one
 * as fill_paged() makes it.
 *
 * Return: 0, -EMSGSIZE for a message the send buffer could never take,
 * -ENOBUFS for one it cannot take now or memory, -EFAULT; on failure the
 * caller frees what is on @q.
 */
int wind_msg_prepare(struct wind_peer *peer, struct sk_buff_head *q,
		     const void *pre, size_t prefix, struct iov_iter *from,
		     size_t len, gfp_t gfp)
{
	int err = wind_msg_room(peer, prefix + len);

	if (err)
		return err;
	return fill_msg(peer->sk, q, from, pre, prefix, len, peer->mss, gfp);
}

/**
 * wind_msg_room() - may the kernel queue a message to @peer now?
 * @peer: the peer, its socket locked
 * @total: the message's bytes
 *
 * Return: 0, -EMSGSIZE if the send buffer could never take it, -ENOBUFS
 * if it cannot now (sendmsg() would wait).
 */
int wind_msg_room(const struct wind_peer *peer, size_t total)
{
	unsigned int mss = peer->mss, nfrags, pkt;
	struct sock *sk = peer->sk;
	u64 need;

	nfrags = DIV_ROUND_UP(total, mss);
	pkt = pkt_charge(mss, nfrags);
	need = (u64)nfrags * pkt;
	if (nfrags > U16_MAX || need > READ_ONCE(sk->sk_sndbuf))
		return -EMSGSIZE;
	if (!sndbuf_room(sk, peer, need, pkt))
		return -ENOBUFS;
	return 0;
}

/**
 * wind_msg_queue() - put a message's packets on its peer's write queue
 * @peer: the peer, its socket locked
 * @q: the packets, as fill_msg() made them for @mss; emptied
 * @total: the message's bytes
 * @mss: the payload of each packet but the last
 * @flags: its WIND_F_* (WIND_F_SYNC: the last asks for an ACK at once)
 * @msgid: its WIND_CMSG_MSGID, or 0
 * @kernel: the kernel's own message, whose failure nobody is told of
 *
 * Charges them to the socket's send buffer; wind_push() sends them.
 */
void wind_msg_queue(struct wind_peer *peer, struct sk_buff_head *q,
		    u32 total, unsigned int mss, u8 flags, u32 msgid,
		    bool kernel)
{
	u32 nfrags = total ? DIV_ROUND_UP(total, mss) : 1;
	struct sk_buff *skb;
	u32 i = 0;

	skb_queue_walk(q, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		memset(cb, 0, sizeof(*cb));
		cb->seq = peer->write_seq + i;
		cb->frag = i;
		/* all of mss but the message's last */
		cb->npkts = max_t(u32, DIV_ROUND_UP(skb->len, mss), 1);
		i += cb->npkts;
		cb->pkt_size = mss;
		cb->nfrags = nfrags;
		cb->msg_len = total;
		cb->flags = flags;
		cb->msgid = msgid;
		cb->kernel = kernel;
		skb_set_owner_w(skb, peer->sk);
	}
	/* the last packet of a sync message asks for an ack at once */
	if (flags & WIND_F_SYNC)
		WIND_SKB_CB(skb_peek_tail(q))->flags |= WIND_F_ACKREQ;
	if (!peer->send_head)
		peer->send_head = skb_peek(q);
	skb_queue_splice_tail_init(q, &peer->wq);
	peer->write_seq += nfrags;
	peer->tx_messages++;
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_MESSAGES);
}

static int msgtype_of(struct sock *sk, int flags)
{
	if ((flags & (MSG_WIND_RELIABLE | MSG_WIND_SYNC)) ==
	    (MSG_WIND_RELIABLE | MSG_WIND_SYNC))
		return -EINVAL;
	if (flags & MSG_WIND_RELIABLE)
		return WIND_ASYNC_RELIABLE;
	if (flags & MSG_WIND_SYNC)
		return WIND_SYNC_ORDERED;
	return READ_ONCE(wind_sk(sk)->msgtype);
}

/* WIND_CMSG_DSM, WIND_CMSG_RMA (*@rma set) and WIND_CMSG_MSGID (the id
 * a refusal report names); a DSM mode and a one-sided request exclude
 * each other
 */
static int parse_cmsgs(struct msghdr *msg, struct wind_dsm *dsm,
		       struct wind_rma *req, bool *rma, u32 *msgid)
{
	struct cmsghdr *cmsg;

	dsm->mode = WIND_DSM_MESSAGE_THROUGH;
	*rma = false;
	*msgid = 0;
	for_each_cmsghdr(cmsg, msg) {
		if (!CMSG_OK(msg, cmsg))
			return -EINVAL;
		if (cmsg->cmsg_level != SOL_WIND)
			return -EINVAL;
		if (cmsg->cmsg_type == WIND_CMSG_MSGID &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(*msgid))) {
			memcpy(msgid, CMSG_DATA(cmsg), sizeof(*msgid));
			continue;
		}
		if (cmsg->cmsg_type == WIND_CMSG_RMA &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(*req))) {
			memcpy(req, CMSG_DATA(cmsg), sizeof(*req));
			*rma = true;
			continue;
		}
		if (cmsg->cmsg_type != WIND_CMSG_DSM ||
		    cmsg->cmsg_len != CMSG_LEN(sizeof(*dsm)))
			return -EINVAL;
		memcpy(dsm, CMSG_DATA(cmsg), sizeof(*dsm));
		if (dsm->mode > WIND_DSM_HEADER_DIFF)
			return -EINVAL;
	}
	if (*rma && dsm->mode != WIND_DSM_MESSAGE_THROUGH)
		return -EINVAL;
	return 0;
}

/**
 * wind_dest() - the peer a message or connect() names
 * @sk: the socket
 * @uaddr: the caller's address, or NULL for the connected peer
 * @len: its length
 * @daddr: the peer's address, an IPv4 one v4-mapped
 * @dport: its port
 * @oif: the interface of an IPv6 link-local peer (sin6_scope_id), or 0
 *
 * An AF_INET socket takes a sockaddr_in; an AF_INET6 socket a
 * sockaddr_in6, a v4-mapped one naming an IPv4 peer, or, as UDP's, a
 * sockaddr_in, the IPv4 ones refused with IPV6_V6ONLY.
 *
 * Return: 0, -EDESTADDRREQ unconnected without an address, -EINVAL for
 * a short or wildcard address, port 0 or a link-local one with no scope,
 * -EAFNOSUPPORT for another family, -ENETUNREACH for IPv4 from an IPv6-only
 * socket or one bound to an IPv6 address.
 */
int wind_dest(struct sock *sk, const void *uaddr, int len,
	      struct in6_addr *daddr, __be16 *dport, int *oif)
{
	const struct sockaddr_in6 *sin6 = uaddr;
	const struct sockaddr_in *sin = uaddr;
	bool v6sk = sk->sk_family == AF_INET6;

	*oif = 0;
	if (!uaddr) {
		if (sk->sk_state != TCP_ESTABLISHED)
			return -EDESTADDRREQ;
		if (v6sk)
			*daddr = sk->sk_v6_daddr;
		else
			ipv6_addr_set_v4mapped(inet_sk(sk)->inet_daddr, daddr);
		*dport = inet_sk(sk)->inet_dport;
		*oif = sk->sk_bound_dev_if;
		return 0;
	}
	if (len < (int)sizeof(sa_family_t))
		return -EINVAL;
	if (sin->sin_family == AF_INET6 && v6sk) {
		if (len < SIN6_LEN_RFC2133)
			return -EINVAL;
		*daddr = sin6->sin6_addr;
		*dport = sin6->sin6_port;
		if (!ipv6_addr_v4mapped(daddr) &&
		    (ipv6_addr_type(daddr) & IPV6_ADDR_LINKLOCAL)) {
			if (len >= sizeof(*sin6))
				*oif = sin6->sin6_scope_id;
			*oif = *oif ?: sk->sk_bound_dev_if;
			if (!*oif)
				return -EINVAL;
		}
	} else if (sin->sin_family == AF_INET) {
		if (len < sizeof(*sin))
			return -EINVAL;
		ipv6_addr_set_v4mapped(sin->sin_addr.s_addr, daddr);
		*dport = sin->sin_port;
	} else {
		return -EAFNOSUPPORT;
	}
	if (!*dport || ipv6_addr_any(daddr) ||
	    (ipv6_addr_v4mapped(daddr) && !daddr->s6_addr32[3]))
		return -EINVAL;
	if (v6sk && ipv6_addr_v4mapped(daddr) &&
	    (sk->sk_ipv6only || (!ipv6_addr_any(&sk->sk_v6_rcv_saddr) &&
				 !ipv6_addr_v4mapped(&sk->sk_v6_rcv_saddr))))
		return -ENETUNREACH;
	return 0;
}

#define WIND_SEND_FLAGS	(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_CONFIRM | \
			 MSG_EOR | MSG_BATCH | MSG_CMSG_COMPAT | MSG_MORE | \
			 MSG_WIND_RELIABLE | MSG_WIND_SYNC)

/**
 * wind_sendmsg() - queue one message to one peer (proto.sendmsg)
 * @sk: the socket
 * @msg: the message, its address and control messages
 * @len: its length
 *
 * The whole message is queued or nothing is.  Async types return once it
 * is queued; a sync send sleeps until the peer acknowledged all of it.
 * A pending socket error (an async message that failed) is returned
 * instead, and cleared.
 *
 * Return: @len or a negative errno.
 */
int wind_sendmsg(struct sock *sk, struct msghdr *msg, size_t len)
{
	struct inet_sock *inet = inet_sk(sk);
	struct sk_buff_head frags;
	struct wind_sync_waiter waiter;
	struct wind_peer *peer;
	unsigned int mss, nfrags, need, pkt, i;
	struct wind_rma_wire pre;
	struct wind_rma req;
	struct wind_dsm dsm;
	size_t prefix = 0, total;
	struct in6_addr daddr, saddr;
	__be16 dport;
	int type, err, oif;
	long timeo;
	u32 msgid;
	bool rma;
	u8 flags;

	if (msg->msg_flags & ~WIND_SEND_FLAGS)
		return -EOPNOTSUPP;
	/* shutdown(SHUT_WR): no more messages, as on a stream socket */
	if (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) {
		if (!(msg->msg_flags & MSG_NOSIGNAL))
			send_sig(SIGPIPE, current, 0);
		return -EPIPE;
	}
	type = msgtype_of(sk, msg->msg_flags);
	if (type < 0)
		return type;
	err = wind_dest(sk, msg->msg_name, msg->msg_namelen, &daddr, &dport,
			&oif);
	if (err)
		return err;
	err = parse_cmsgs(msg, &dsm, &req, &rma, &msgid);
	if (err)
		return err;
	if (rma) {
		/* a request carries its headers and nothing else */
		if (len)
			return -EINVAL;
		err = wind_rma_request(&req, &pre);
		if (err)
			return err;
		prefix = sizeof(pre);
	} else if (dsm.mode != WIND_DSM_MESSAGE_THROUGH) {
		if (dsm.hdr_len > len)
			return -EINVAL;
		pre.dsm.mode = dsm.mode;
		memset(pre.dsm.reserved, 0, sizeof(pre.dsm.reserved));
		pre.dsm.region = htonl(dsm.region);
		pre.dsm.offset = cpu_to_be64(dsm.offset);
		pre.dsm.key = cpu_to_be64(dsm.key);
		pre.dsm.hdr_len = htonl(dsm.hdr_len);
		pre.dsm.reserved2 = 0;
		prefix = sizeof(pre.dsm);
	}
	if (len + prefix > WIND_MAX_MSG)
		return -EMSGSIZE;

	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	__skb_queue_head_init(&frags);
	lock_sock(sk);
	/* A pending async failure (SO_ERROR) fails this call, once, and
	 * nothing is sent: as UDP's sendmsg() does (sock_alloc_send_skb()).
	 */
	err = sock_error(sk);
	if (err)
		goto out;
lookup:
	peer = wind_peer_lookup(sk, &daddr, dport);
	if (!peer) {
		if (ipv6_addr_v4mapped(&daddr))
			ipv6_addr_set_v4mapped(inet->inet_saddr, &saddr);
		else
			saddr = sk->sk_v6_rcv_saddr;
		peer = wind_peer_create(sk, &daddr, dport, &saddr, oif,
					GFP_KERNEL, 0);
		if (IS_ERR(peer)) {
			err = PTR_ERR(peer);
			goto out;
		}
	}
	mss = peer->mss;
	total = len + prefix;
	nfrags = total ? DIV_ROUND_UP(total, mss) : 1;
	pkt = pkt_charge(mss, nfrags);
	need = nfrags * pkt;
	if (nfrags > U16_MAX || need > READ_ONCE(sk->sk_sndbuf)) {
		err = -EMSGSIZE;
		goto out;
	}
	if (!sndbuf_room(sk, peer, need, pkt)) {
		/* what corks hold back must not be what we wait for */
		wind_uncork(sk, false);
		wind_peer_hold(peer);
		err = wait_for_sndbuf(sk, peer, &timeo, need, pkt);
		i = peer->state == WIND_PEER_DEAD || peer->mss != mss;
		wind_peer_put(peer);
		if (err)
			goto out;
		if (i)
			goto lookup;
	}

	flags = type == WIND_ASYNC_RELIABLE ? 0 : WIND_F_ORDERED;
	if (type == WIND_SYNC_ORDERED)
		flags |= WIND_F_SYNC;
	if (prefix)
		flags |= WIND_F_DSM;
	err = fill_msg(sk, &frags, &msg->msg_iter, &pre, prefix, len, mss,
		       sk->sk_allocation | __GFP_ACCOUNT);
	if (err)
		goto out;
	wind_msg_queue(peer, &frags, total, mss, flags, msgid, false);
	if (type == WIND_SYNC_ORDERED) {
		waiter.first_seq = peer->write_seq - nfrags;
		waiter.end_seq = peer->write_seq;
		waiter.err = 0;
		waiter.done = false;
		list_add_tail(&waiter.node, &peer->sync_waiters);
	}
	peer->more = !!(msg->msg_flags & MSG_MORE);
	wind_push(peer);
	err = 0;
	if (type == WIND_SYNC_ORDERED)
		err = wait_for_sync(sk, &waiter, sock_sndtimeo(sk, 0));
out:
	__skb_queue_purge(&frags);
	release_sock(sk);
	return err ? err : len;
}
