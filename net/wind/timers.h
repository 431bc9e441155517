/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timers of a peer (timer.c): retransmission, tail loss probe, RACK's
 * reordering timeout, window probe and delayed ACK, and the bounds of the
 * retransmission timeout.
 */
#ifndef _WIND_TIMERS_H
#define _WIND_TIMERS_H

#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <net/sock.h>

#include "netns.h"
#include "peer.h"

void wind_timers_init(struct wind_peer *peer);
void wind_rtx_timer_arm(struct wind_peer *peer);
void wind_rtx_timer_stop(struct wind_peer *peer);
void wind_reo_timer_arm(struct wind_peer *peer, u32 us);
bool wind_rtx_timer_due(const struct wind_peer *peer);
void wind_delack_timer_arm(struct wind_peer *peer);
void wind_delack_timer_stop(struct wind_peer *peer);
void wind_timers_shutdown(struct wind_peer *peer);
void wind_rtx_now(struct wind_peer *peer);
void wind_nagle_timer_arm(struct wind_peer *peer);

static inline u32 wind_rto_min_us(const struct wind_peer *peer)
{
	return WIND_PARAM(peer->sk, rto_min_ms) * USEC_PER_MSEC;
}

/* The sysctls are set one at a time: a ceiling below the floor is
 * taken as the floor (netlink refuses it outright).
 */
static inline u32 wind_rto_max_us(const struct wind_peer *peer)
{
	return max_t(u32, WIND_PARAM(peer->sk, rto_max_ms) * USEC_PER_MSEC,
		     wind_rto_min_us(peer));
}

#endif /* _WIND_TIMERS_H */
