// SPDX-License-Identifier: GPL-2.0
/*
 * UDP encapsulation: a Wind packet inside a UDP datagram, for networks
 * that pass only TCP, UDP and ICMP, and for NICs and switches that
 * spread flows by UDP ports.  The packet inside is byte for byte the raw
 * one (its checksum too, over the same pseudo-header with protocol 253);
 * the UDP header in front of it carries a per-peer source port, the
 * receiver's net.wind.udp_port as destination, and a UDP checksum,
 * derived from Wind's own without another pass over the data (local
 * checksum offload, udp_set_csum()): UDP drops a corrupted datagram
 * before its port lookup could answer it with a port unreachable that
 * would fail the peer.  A zero UDP checksum (another implementation's
 * choice on IPv4) makes Wind's own be checked.
 *
 * Each network namespace has two kernel UDP sockets bound to udp_port with
 * the UDP tunnel API, one per IP version; what it receives goes back to IP as protocol 253
 * (the way fou does), so wind_rcv() takes both forms through one path
 * and tells them apart by the outer IP header's protocol.  ICMP errors
 * about what we sent inside UDP reach wind_err() through UDP's error
 * handler and this socket.
 */
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <uapi/linux/wind.h>

#include "compat.h"
#include "icmp.h"
#include "netns.h"
#include "offload.h"
#include "skb.h"
#include "udp.h"

/* A UDP tunnel's GSO skb of Wind packets made raw: SKB_GSO_SCTP and
 * gso_size as wind_rcv() takes them.
 */
static bool gso_unwrap(struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);

	if (!(shinfo->gso_type & WIND_GSO_UDP_TYPES) ||
	    (shinfo->gso_type & ~WIND_GSO_UDP_TYPES) != SKB_GSO_SCTP ||
	    shinfo->gso_size <= WIND_GSO_UDP_BIAS ||
	    skb_unclone(skb, GFP_ATOMIC))
		return false;
	shinfo = skb_shinfo(skb);
	shinfo->gso_type = SKB_GSO_SCTP;
	shinfo->gso_size -= WIND_GSO_UDP_BIAS - WIND_GSO_BIAS;
	skb->encapsulation = 0;
	return true;
}

/* A Wind source port below ip_unprivileged_port_start says, as a TCP or
 * UDP one does, that its socket's owner may bind such ports
 * (CAP_NET_BIND_SERVICE): on raw IP only a process with CAP_NET_RAW can
 * claim another.  Inside UDP any local program can write any Wind
 * header, so a datagram from this host (over loopback) that claims a
 * privileged Wind port must come from Wind's own encapsulation, which
 * sends from no UDP socket: one that a UDP socket bound at its source
 * sent is forged, and dropped.  From another host, a port proves what
 * that host enforces, no more (wind.rst, "UDP encapsulation").
 */
static bool forged_local_port(struct sk_buff *skb)
{
	const struct udphdr *uh = udp_hdr(skb);
	int dif = skb->dev->ifindex;
	struct net *net = dev_net(skb->dev);
	struct sock *sk;
	__be16 wport;

	if (!(skb->dev->flags & IFF_LOOPBACK) ||
	    skb_copy_bits(skb, skb_transport_offset(skb) + sizeof(*uh),
			  &wport, sizeof(wport)) ||
	    !inet_port_requires_bind_service(net, ntohs(wport)))
		return false;
	rcu_read_lock();
	if (wind_skb_v6(skb))
		sk = udp6_lib_lookup(net, &ipv6_hdr(skb)->daddr, uh->dest,
				     &ipv6_hdr(skb)->saddr, uh->source, dif);
	else
		sk = udp4_lib_lookup(net, ip_hdr(skb)->daddr, uh->dest,
				     ip_hdr(skb)->saddr, uh->source, dif);
	rcu_read_unlock();
	if (!sk)
		return false;
	sock_put(sk);
	return true;
}

/* encap_rcv: strip the UDP header and hand the packet to IP again, as
 * protocol 253.
 */
static int udp_encap_rcv(struct sock *usk, struct sk_buff *skb)
{
	struct udphdr *uh = udp_hdr(skb);

	if (unlikely(forged_local_port(skb))) {
		WIND_INC_STATS(sock_net(usk), WIND_MIB_IN_PACKETS);
		WIND_INC_STATS(sock_net(usk), WIND_MIB_IN_FILTERED);
		kfree_skb(skb);
		return 0;
	}

	/* A GSO skb a sender on this host built (wind_udp_xmit()), passed
	 * whole by a veth or a bridge, or one GRO merged (offload.c, the
	 * same shape), becomes the raw Wind one it stands for, which
	 * wind_rcv() checks and splits.  Anything else that is not one
	 * packet is dropped.
	 */
	if (unlikely(skb_is_gso(skb)) && !gso_unwrap(skb)) {
		WIND_INC_STATS(sock_net(usk), WIND_MIB_IN_PACKETS);
		WIND_INC_STATS(sock_net(usk), WIND_MIB_IN_ERR_HEADER);
		kfree_skb(skb);
		return 0;
	}
	/* A UDP checksum, when there is one, was verified and covers the
	 * packet; without one, Wind's own is checked (wind_rcv())
	 */
	if (!uh->check)
		skb->csum_valid = 0;
	__skb_pull(skb, sizeof(*uh));
	skb_postpull_rcsum(skb, uh, sizeof(*uh));
	skb_reset_transport_header(skb);
	return -IPPROTO_WIND;
}

/* An ICMP error quoting a datagram to our udp_port: wind_err() decides
 * whether it is about one of ours.
 */
static int udp_encap_err_lookup(struct sock *usk, struct sk_buff *skb)
{
	return 0;
}

#ifdef WIND_HAVE_ENCAP_ERR_RCV_INFO
static void udp_encap_err_rcv(struct sock *usk, struct sk_buff *skb, int err,
			      __be16 port, u32 info, u8 *payload)
#else
static void udp_encap_err_rcv(struct sock *usk, struct sk_buff *skb,
			      unsigned int udp_offset)
#endif
{
	if (wind_skb_v6(skb))
		wind6_err(skb, NULL, icmp6_hdr(skb)->icmp6_type,
			  icmp6_hdr(skb)->icmp6_code, 0,
			  icmp6_hdr(skb)->icmp6_mtu);
	else
		wind_err(skb, 0);
}

static struct socket *udp_open(struct net *net, int port, int family)
{
	struct udp_port_cfg cfg = {
		.family		= family,
		.local_udp_port	= htons(port),
		/* IPv4 has a socket of its own */
		.ipv6_v6only	= 1,
		.use_udp6_tx_checksums = 1,
		.use_udp6_rx_checksums = 1,
	};
	struct udp_tunnel_sock_cfg tcfg = {
		.encap_type	= 1,
		.encap_rcv	= udp_encap_rcv,
		.encap_err_lookup = udp_encap_err_lookup,
		.encap_err_rcv	= udp_encap_err_rcv,
		/* GRO, as vxlan's and fou's: udp_gro_receive() calls it */
		.gro_receive	= wind_udp_gro_receive,
		.gro_complete	= wind_udp_gro_complete,
	};
	struct socket *sock;
	int err;

	err = udp_sock_create(net, &cfg, &sock);
	if (err)
		return ERR_PTR(err);
	setup_udp_tunnel_sock(net, sock, &tcfg);
	return sock;
}

/**
 * wind_udp_set_port() - receive Wind in UDP on another port
 * @net: the network namespace
 * @port: the UDP port, 1..65535
 *
 * Binds new tunnel sockets, IPv4 and IPv6: on failure (the port is
 * taken) the namespace keeps receiving on the old port.
 *
 * Return: 0 or a negative errno (-EADDRINUSE).
 */
int wind_udp_set_port(struct net *net, int port)
{
	struct wind_net *wn = wind_net(net);
	struct socket *old, *old6, *sock, *sock6 = NULL;
	int err;

	mutex_lock(&wn->udp_lock);
	old = rcu_dereference_protected(wn->udp_sock,
					lockdep_is_held(&wn->udp_lock));
	old6 = rcu_dereference_protected(wn->udp6_sock,
					 lockdep_is_held(&wn->udp_lock));
	if (old && old6 && ntohs(wn->udp_dport) == port) {
		mutex_unlock(&wn->udp_lock);
		return 0;
	}
	/* the port may be the one we hold ourselves */
	rcu_assign_pointer(wn->udp_sock, NULL);
	rcu_assign_pointer(wn->udp6_sock, NULL);
	if (old)
		udp_tunnel_sock_release(old);
	if (old6)
		udp_tunnel_sock_release(old6);
	sock = udp_open(net, port, AF_INET);
	if (!IS_ERR(sock)) {
		sock6 = udp_open(net, port, AF_INET6);
		if (IS_ERR(sock6)) {
			udp_tunnel_sock_release(sock);
			sock = sock6;
		}
	}
	if (IS_ERR(sock)) {
		err = PTR_ERR(sock);
		/* back to the old port, if it is still ours to take */
		if (old || old6) {
			sock = udp_open(net, ntohs(wn->udp_dport), AF_INET);
			sock6 = udp_open(net, ntohs(wn->udp_dport), AF_INET6);
			rcu_assign_pointer(wn->udp_sock,
					   IS_ERR(sock) ? NULL : sock);
			rcu_assign_pointer(wn->udp6_sock,
					   IS_ERR(sock6) ? NULL : sock6);
		}
		mutex_unlock(&wn->udp_lock);
		return err;
	}
	rcu_assign_pointer(wn->udp_sock, sock);
	rcu_assign_pointer(wn->udp6_sock, sock6);
	WRITE_ONCE(wn->udp_dport, htons(port));
	WRITE_ONCE(wn->params.udp_port, port);
	mutex_unlock(&wn->udp_lock);
	return 0;
}

/**
 * wind_udp_net_init() - open a namespace's UDP tunnel socket
 * @net: the new namespace
 *
 * A port already taken (only possible in the namespace the module is
 * loaded in) is not fatal: Wind then receives raw packets only, says so
 * in the kernel log, and a write to net.wind.udp_port tries again.
 *
 * Return: 0.
 */
int wind_udp_net_init(struct net *net)
{
	struct wind_net *wn = wind_net(net);
	int port = wn->params.udp_port, err;

	mutex_init(&wn->udp_lock);
	wn->udp_dport = htons(port);
	err = wind_udp_set_port(net, port);
	if (err)
		pr_warn("wind: UDP port %d: error %d; receiving raw Wind only until net.wind.udp_port is set\n",
			port, err);
	return 0;
}

/**
 * wind_udp_net_exit() - close a namespace's UDP tunnel socket
 * @net: the namespace going away
 */
void wind_udp_net_exit(struct net *net)
{
	struct wind_net *wn = wind_net(net);
	struct socket *sock, *sock6;

	mutex_lock(&wn->udp_lock);
	sock = rcu_dereference_protected(wn->udp_sock,
					 lockdep_is_held(&wn->udp_lock));
	sock6 = rcu_dereference_protected(wn->udp6_sock,
					  lockdep_is_held(&wn->udp_lock));
	rcu_assign_pointer(wn->udp_sock, NULL);
	rcu_assign_pointer(wn->udp6_sock, NULL);
	mutex_unlock(&wn->udp_lock);
	if (sock)
		udp_tunnel_sock_release(sock);
	if (sock6)
		udp_tunnel_sock_release(sock6);
}

/**
 * wind_udp_sport() - a UDP source port for a new peer
 * @net: the socket's namespace
 *
 * Random in the namespace's local port range, fixed for the peer's
 * life: peers spread over receive queues (RSS) and paths (ECMP), a
 * peer's packets stay on one of each and in order.
 *
 * Return: the port, in network byte order.
 */
__be16 wind_udp_sport(struct net *net)
{
	int lo, hi;

	inet_get_local_port_range(net, &lo, &hi);
	if (hi <= lo)
		return htons(lo);
	return htons(lo + get_random_u32_below(hi - lo + 1));
}

/* A run of packets goes as a UDP tunnel's GSO skb whose inner protocol
 * is Wind (as fou sends an IP protocol): where it must be cut,
 * __skb_udp_tunnel_segment() calls wind_gso_segment() for what is inside
 * and gives each packet its UDP header and checksum.  What is inside has
 * no IP header of its own (as SCTP's, inside UDP): its inner network
 * header is its Wind header, and wind_gso_segment() takes the addresses
 * its checksum covers from the UDP checksum's pseudo-header.
 */
static void gso_mark_tunnel(struct sk_buff *skb)
{
	skb->encapsulation = 1;
	skb_set_inner_ipproto(skb, IPPROTO_WIND);
	skb_reset_inner_mac_header(skb);
	skb_reset_inner_network_header(skb);
	skb_reset_inner_transport_header(skb);
	skb_shinfo(skb)->gso_type |= SKB_GSO_UDP_TUNNEL_CSUM;
}

/**
 * wind_udp_xmit() - send a Wind packet inside UDP
 * @sk: the Wind socket, the packet's owner
 * @skb: the packet, Wind header at skb->data, checksummed (or partial)
 * @rt: the route, its reference passed on
 * @saddr: our address
 * @daddr: the receiver's
 * @sport: our UDP source port towards it
 * @tos: IP type of service
 *
 * The packet goes with DF set unless it was built for a larger path MTU
 * than the route's now (skb->ignore_df), as raw packets do.
 */
void wind_udp_xmit(struct sock *sk, struct sk_buff *skb, struct rtable *rt,
		   __be32 saddr, __be32 daddr, __be16 sport, u8 tos)
{
	struct wind_net *wn = wind_net(sock_net(sk));
	int ttl = READ_ONCE(inet_sk(sk)->uc_ttl);
	__be16 df = skb->ignore_df ? 0 : htons(IP_DF);

	if (ttl < 0)
		ttl = ip4_dst_hoplimit(&rt->dst);
	if (skb_is_gso(skb))
		gso_mark_tunnel(skb);
	skb->mark = READ_ONCE(sk->sk_mark);
	skb->priority = READ_ONCE(sk->sk_priority);
	udp_tunnel_xmit_skb(rt, sk, skb, saddr, daddr, tos, ttl, df, sport,
			    READ_ONCE(wn->udp_dport), false, false);
}

/**
 * wind_udp6_xmit() - send a Wind packet inside UDP over IPv6
 * @sk: the Wind socket (AF_INET6), the packet's owner
 * @skb: the packet (or a GSO skb of them), Wind header at skb->data,
 *	 checksummed (or partial)
 * @dst: the route, its reference passed on
 * @saddr: our address
 * @daddr: the receiver's
 * @sport: our UDP source port towards it
 *
 * A packet built for a larger path MTU than the route's now
 * (skb->ignore_df) is fragmented by IPv6 here, as a raw one is.
 */
void wind_udp6_xmit(struct sock *sk, struct sk_buff *skb,
		    struct dst_entry *dst, struct in6_addr *saddr,
		    struct in6_addr *daddr, __be16 sport)
{
	struct wind_net *wn = wind_net(sock_net(sk));
	int ttl = inet6_sk(sk)->hop_limit;

	if (ttl < 0)
		ttl = ip6_dst_hoplimit(dst);
	if (skb_is_gso(skb))
		gso_mark_tunnel(skb);
	skb->mark = READ_ONCE(sk->sk_mark);
	skb->priority = READ_ONCE(sk->sk_priority);
	/* no tunnel device to count it on (as SCTP's): the route's device
	 * keeps no tunnel statistics, and would WARN
	 */
	udp_tunnel6_xmit_skb(dst, sk, skb, NULL, saddr, daddr,
			     inet6_sk(sk)->tclass, ttl, 0, sport,
			     READ_ONCE(wn->udp_dport), false);
}
