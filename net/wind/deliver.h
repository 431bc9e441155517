/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receiver's side of reliability (deliver.c): the receive queue of a
 * peer, reassembly, delivery to the socket, and the ACK a data packet
 * asks for.
 */
#ifndef _WIND_DELIVER_H
#define _WIND_DELIVER_H

#include <linux/types.h>

struct sk_buff;
struct sock;
struct wind_peer;

void wind_data_rcv(struct wind_peer *peer, struct sk_buff *skb);
void wind_gso_rcv(struct wind_peer *peer, struct sk_buff *skb);
void wind_rq_drop_ooo(struct wind_peer *peer);
bool wind_rq_drop_ooo_tail(struct wind_peer *peer);
void wind_rq_drop_all(struct wind_peer *peer);
void wind_data_skip(struct wind_peer *peer, u32 oldest);
/* What a data packet asks of the ACK decision (wind_data_ack()), or'ed over
 * the packets of a GSO skb or a bundle: 0, merely the pending ACK
 */
#define WIND_RX_ACK_NOW	1	/* an ACK at once */
#define WIND_RX_ACK_DUP	2	/* one at once, as a duplicate or an
				 * out-of-window packet may draw
				 * (dupack_limited())
				 */
unsigned int wind_data_rcv_one(struct wind_peer *peer, struct sk_buff *skb);
void wind_data_ack(struct wind_peer *peer, unsigned int how);
void wind_data_mark_napi(struct sock *sk, const struct sk_buff *skb);
void wind_deliver_stalled(struct sock *sk);
void wind_deliver_batch_begin(struct sock *sk);
void wind_deliver_batch_end(struct sock *sk);

#endif /* _WIND_DELIVER_H */
