/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ICMP and ICMPv6 errors about packets we sent (icmp.c): the peer they
 * name fails, or learns a smaller path MTU.
 */
#ifndef _WIND_ICMP_H
#define _WIND_ICMP_H

#include <linux/types.h>

struct inet6_skb_parm;
struct sk_buff;
struct sock;

int wind_err(struct sk_buff *skb, u32 info);
int wind6_err(struct sk_buff *skb, struct inet6_skb_parm *opt, u8 type,
	      u8 code, int offset, __be32 info);
void wind_icmp_error_rcv(struct sock *sk, struct sk_buff *skb);

#endif /* _WIND_ICMP_H */
