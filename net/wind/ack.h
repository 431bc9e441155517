/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sender's side of acknowledgments (ack.c): the cumulative ACK,
 * selective acknowledgment, RACK loss detection, retransmission and the
 * refusals an ACK carries.
 */
#ifndef _WIND_ACK_H
#define _WIND_ACK_H

#include <linux/types.h>

struct sk_buff;
struct wind_ackhdr;
struct wind_peer;

enum wind_rtx_reason;
void wind_ack_rcv(struct wind_peer *peer, u32 ack, u16 window,
		  const struct wind_ackhdr *ah);
void wind_retransmit_one(struct wind_peer *peer, struct sk_buff *skb,
			 bool last, u8 flags, enum wind_rtx_reason why);
u32 wind_rack_reo_timeout(struct wind_peer *peer);

#endif /* _WIND_ACK_H */
