// SPDX-License-Identifier: GPL-2.0
/*
 * The sender's congestion window.
 *
 * Congestion control, Reno-like but deaf to isolated losses: the window
 * grows by slow start, then by one packet per window acknowledged, and is
 * halved (at most once per window) when RACK finds a burst of losses, as
 * an overflowing queue makes; a timeout takes it to WIND_CWND_MIN.
 * Random loss of a packet here and there, which says nothing about
 * congestion on a LAN, leaves it alone.
 */
#include <net/sock.h>

#include "cc.h"
#include "netns.h"
#include "peer.h"
#include "seq.h"
#include "trace.h"

/**
 * wind_cwnd_grow() - open the congestion window for newly acked packets
 * @peer: the peer, its socket locked
 * @acked: packets this ACK reported for the first time (cumulatively or
 *	   selectively)
 *
 * Nothing grows while a loss is being recovered (snd_una before recover).
 */
void wind_cwnd_grow(struct wind_peer *peer, u32 acked)
{
	u32 old = peer->cwnd;

	wind_peer_assert_held(peer);
	if (!acked || wind_seq_before(peer->snd_una, peer->recover))
		return;
	if (peer->cwnd < peer->ssthresh) {
		peer->cwnd = min_t(u32, peer->cwnd + acked, WIND_CWND_MAX);
	} else {
		peer->cwnd_cnt += acked;
		if (peer->cwnd_cnt >= peer->cwnd) {
			peer->cwnd_cnt -= peer->cwnd;
			peer->cwnd = min_t(u32, peer->cwnd + 1, WIND_CWND_MAX);
		}
	}
	if (peer->cwnd != old)
		trace_wind_cwnd(peer, old, WIND_CWND_GROW);
}

/**
 * wind_cwnd_reduce() - cut the congestion window on a loss
 * @peer: the peer, its socket locked
 * @timeout: a retransmission timeout (to WIND_CWND_MIN, always) rather
 *	     than a burst of losses found by RACK (halved, once per window)
 */
void wind_cwnd_reduce(struct wind_peer *peer, bool timeout)
{
	u32 in_flight = peer->snd_nxt - peer->snd_una - peer->sacked_out;
	u32 old = peer->cwnd;

	wind_peer_assert_held(peer);
	if (!timeout && wind_seq_before(peer->snd_una, peer->recover))
		return;
	peer->ssthresh = max_t(u32, in_flight / 2, WIND_CWND_MIN);
	peer->cwnd = timeout ? WIND_CWND_MIN : peer->ssthresh;
	peer->cwnd_cnt = 0;
	peer->recover = peer->snd_max;
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_CWND_CUTS);
	trace_wind_cwnd(peer, old, timeout ? WIND_CWND_TIMEOUT : WIND_CWND_LOSS);
}
