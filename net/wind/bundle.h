/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bundles (bundle.c): small messages to one peer that share a packet, on
 * the way out and on the way in.
 */
#ifndef _WIND_BUNDLE_H
#define _WIND_BUNDLE_H

#include <linux/types.h>

struct sk_buff;
struct wind_peer;

unsigned int wind_bundle_run(const struct wind_peer *peer,
			     struct sk_buff *skb, struct sk_buff **last,
			     unsigned int *bytes, bool *room);
int wind_xmit_bundle(struct wind_peer *peer, struct sk_buff *first,
		     unsigned int n, unsigned int bytes, u8 flags);
void wind_bundle_rcv(struct wind_peer *peer, struct sk_buff *skb);

#endif /* _WIND_BUNDLE_H */
