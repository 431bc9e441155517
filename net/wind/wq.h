/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A peer's write queue (wq.c): runs of packets of one message, each one
 * skb in one state, split and trimmed as acknowledgments and
 * retransmissions need.
 */
#ifndef _WIND_WQ_H
#define _WIND_WQ_H

#include <linux/types.h>

#include "skb.h"

struct wind_peer;

/* The seq past the last packet of @skb, a write-queue run */
static inline u32 wind_end_seq(const struct sk_buff *skb)
{
	return WIND_SKB_CB(skb)->seq + WIND_SKB_CB(skb)->npkts;
}

/* Does write-queue run @skb hold its message's last packet? */
static inline bool wind_msg_last(const struct sk_buff *skb)
{
	const struct wind_skb_cb *cb = WIND_SKB_CB(skb);

	return cb->frag + cb->npkts == cb->nfrags;
}

int wind_wq_split(struct wind_peer *peer, struct sk_buff *skb, u32 n);
void wind_wq_trim_head(struct wind_peer *peer, struct sk_buff *skb, u32 n);
u32 wind_wq_packets(const struct wind_peer *peer);
void wind_skb_add_frags(struct sk_buff *to, const struct sk_buff *skb,
			unsigned int off, unsigned int len);

#endif /* _WIND_WQ_H */
