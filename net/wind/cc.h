/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The congestion window of a peer (cc.c): its bounds, its growth on
 * acknowledgments and its cut on loss.
 */
#ifndef _WIND_CC_H
#define _WIND_CC_H

#include <linux/types.h>

struct wind_peer;

/* Congestion window: initial, floor, ceiling (packets); packets RACK must
 * find lost in one pass to take it for congestion rather than noise
 */
#define WIND_CWND_INIT		16
#define WIND_CWND_MIN		4
#define WIND_CWND_MAX		65535
#define WIND_CONG_BURST		4

void wind_cwnd_grow(struct wind_peer *peer, u32 acked);
void wind_cwnd_reduce(struct wind_peer *peer, bool timeout);

#endif /* _WIND_CC_H */
