/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets out (tx.c): the Wind header, the checksum and the hand-off to
 * IP, for data packets, pure ACKs, RESETs and CHALLENGEs, and the route
 * to each peer, IPv4 or IPv6, raw or inside UDP.
 */
#ifndef _WIND_TX_H
#define _WIND_TX_H

#include <linux/types.h>

struct sk_buff;
struct sock;
struct wind_peer;
struct wind_skb_cb;

int wind_xmit_skb(struct wind_peer *peer, struct sk_buff *skb, u8 flags);
void wind_send_ack(struct wind_peer *peer);
void wind_ack_budget_add(struct wind_peer *peer, const struct sk_buff *skb);
void wind_send_ctl(struct sock *sk, struct sk_buff *in_skb, u8 type,
		   u32 local_tag, u32 oldest);
int wind_peer_route(struct wind_peer *peer);
void wind_peer_set_form(struct wind_peer *peer);
bool wind_route_ok(struct wind_peer *peer);
void wind_send_data(struct wind_peer *peer, struct sk_buff *skb,
		    const struct wind_skb_cb *cb, u8 flags, unsigned int npkts);

#endif /* _WIND_TX_H */
