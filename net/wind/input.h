/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets in (input.c): the IPv4 and IPv6 receive handlers, the checks
 * every packet passes, and the socket backlog.
 */
#ifndef _WIND_INPUT_H
#define _WIND_INPUT_H

#include <linux/types.h>

struct sk_buff;
struct sock;

int wind_rcv(struct sk_buff *skb);
int wind6_rcv(struct sk_buff *skb);
int wind_backlog_rcv(struct sock *sk, struct sk_buff *skb);
u32 wind_backlog_limit(const struct sock *sk);

#endif /* _WIND_INPUT_H */
