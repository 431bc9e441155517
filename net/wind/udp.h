/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wind inside UDP (udp.c): the namespace's UDP sockets that receive it,
 * and the UDP header in front of what Wind sends so.
 */
#ifndef _WIND_UDP_H
#define _WIND_UDP_H

#include <linux/types.h>

struct dst_entry;
struct in6_addr;
struct net;
struct rtable;
struct sk_buff;
struct sock;

int wind_udp_net_init(struct net *net);
void wind_udp_net_exit(struct net *net);
int wind_udp_set_port(struct net *net, int port);
__be16 wind_udp_sport(struct net *net);
void wind_udp_xmit(struct sock *sk, struct sk_buff *skb, struct rtable *rt,
		   __be32 saddr, __be32 daddr, __be16 sport, u8 tos);
void wind_udp6_xmit(struct sock *sk, struct sk_buff *skb,
		    struct dst_entry *dst, struct in6_addr *saddr,
		    struct in6_addr *daddr, __be16 sport);

#endif /* _WIND_UDP_H */
