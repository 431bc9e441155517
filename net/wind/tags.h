/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tags (tags.c): which peer state a received packet may act on, and the
 * RESETs and CHALLENGEs that answer or arrive.
 */
#ifndef _WIND_TAGS_H
#define _WIND_TAGS_H

#include <linux/types.h>

struct sk_buff;
struct sock;
struct wind_peer;
struct windhdr;

struct wind_peer *wind_tags_rcv(struct sock *sk, struct sk_buff *skb,
				struct wind_peer *peer);
bool wind_dsm_unverified(struct sock *sk, struct sk_buff *skb,
			 struct wind_peer *peer);
void wind_reset_rcv(struct sock *sk, struct wind_peer *peer,
		    const struct windhdr *wh);
void wind_challenge_rcv(struct sock *sk, struct wind_peer *peer,
			const struct windhdr *wh);

#endif /* _WIND_TAGS_H */
