/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timers of a peer (timer.c): retransmission, tail loss probe, RACK's
 * reordering timeout, window probe, delayed ACK and Nagle's backstop, and
 * the bounds of the retransmission timeout.
 *
 * The rest of the module tells timer.c what happened, as WireGuard's
 * packet path does its timers.h (wg_timers_data_sent()): timer.c alone
 * decides which timer that arms or stops.
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
void wind_timers_shutdown(struct wind_peer *peer);

/* events: the sender's */
void wind_timers_data_pushed(struct wind_peer *peer, bool nagle_held,
			     bool corked_held);
void wind_timers_ack_received(struct wind_peer *peer, bool progress,
			      u32 reo_us);
void wind_timers_peer_failed(struct wind_peer *peer);
/* the receiver's */
void wind_timers_data_received(struct wind_peer *peer);
void wind_timers_ack_sent(struct wind_peer *peer);
void wind_timers_rx_reset(struct wind_peer *peer);

void wind_rtx_now(struct wind_peer *peer);

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
