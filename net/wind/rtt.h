/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RTT and RTO estimator of a peer (peer->rtt).  Pure logic, shared
 * by the module and the host unit tests (tests/unit), which compile it
 * in userspace.
 */
#ifndef _WIND_RTT_H
#define _WIND_RTT_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kshim.h"
#endif

/* RTO estimator (RFC 6298): srtt and rttvar in microseconds, Karn's rule
 * is the caller's (samples only from packets sent once).
 */
struct wind_rtt {
	u32 srtt_us;		/* 0 until the first sample */
	u32 rttvar_us;
	u32 rto_us;
};

static inline u32 wind_clamp_u32(u32 v, u32 lo, u32 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static inline void wind_rtt_init(struct wind_rtt *r, u32 rto_us)
{
	r->srtt_us = 0;
	r->rttvar_us = 0;
	r->rto_us = rto_us;
}

static inline void wind_rtt_sample(struct wind_rtt *r, u32 rtt_us,
				   u32 min_us, u32 max_us)
{
	if (!rtt_us)
		rtt_us = 1;
	if (!r->srtt_us) {
		r->srtt_us = rtt_us;
		r->rttvar_us = rtt_us / 2;
	} else {
		u32 delta = r->srtt_us > rtt_us ? r->srtt_us - rtt_us :
						  rtt_us - r->srtt_us;

		/* rttvar = 3/4 rttvar + 1/4 |srtt - rtt| */
		r->rttvar_us = r->rttvar_us - r->rttvar_us / 4 + delta / 4;
		/* srtt = 7/8 srtt + 1/8 rtt */
		r->srtt_us = r->srtt_us - r->srtt_us / 8 + rtt_us / 8;
	}
	r->rto_us = wind_clamp_u32(r->srtt_us + 4 * r->rttvar_us,
				   min_us, max_us);
}

/* Exponential backoff on a retransmission timeout. */
static inline void wind_rtt_backoff(struct wind_rtt *r, u32 max_us)
{
	r->rto_us = r->rto_us > max_us / 2 ? max_us : r->rto_us * 2;
}

#endif /* _WIND_RTT_H */
