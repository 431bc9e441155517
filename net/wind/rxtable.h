/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive table of a peer (peer->rxt): which sequence numbers have
 * arrived.  Pure logic, shared by the module and the host unit tests
 * (tests/unit), which compile it in userspace.
 */
#ifndef _WIND_RXTABLE_H
#define _WIND_RXTABLE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/string.h>
#else
#include "kshim.h"
#endif

#include "seq.h"

/* The receive table: which sequence numbers in [base, base + WIND_RXT_BITS)
 * have arrived.  It is a ring of bits indexed by seq modulo the size, so
 * advancing the base costs one bit clear per seq and the table never
 * grows: everything before base has arrived, everything at or after
 * base + WIND_RXT_BITS is outside the window and refused.  128 bytes a
 * peer, allocated on the first data packet.
 */
#define WIND_RXT_BITS	1024U

struct wind_rx_table {
	u32 base;			/* every seq before base has arrived */
	unsigned long map[WIND_RXT_BITS / BITS_PER_LONG];
};

enum wind_rxt_result {
	WIND_RXT_NEW,		/* first arrival, now recorded */
	WIND_RXT_DUP,		/* arrived before */
	WIND_RXT_OUTSIDE,	/* at or beyond base + WIND_RXT_BITS */
};

static inline void wind_rxt_init(struct wind_rx_table *rxt, u32 base)
{
	rxt->base = base;
	memset(rxt->map, 0, sizeof(rxt->map));
}

static inline bool wind_rxt_test(const struct wind_rx_table *rxt, u32 seq)
{
	if (wind_seq_before(seq, rxt->base))
		return true;
	if (!wind_seq_in(seq, rxt->base, WIND_RXT_BITS))
		return false;
	return test_bit(seq % WIND_RXT_BITS, rxt->map);
}

static inline enum wind_rxt_result wind_rxt_mark(struct wind_rx_table *rxt,
						 u32 seq)
{
	if (wind_seq_before(seq, rxt->base))
		return WIND_RXT_DUP;
	if (!wind_seq_in(seq, rxt->base, WIND_RXT_BITS))
		return WIND_RXT_OUTSIDE;
	if (__test_and_set_bit(seq % WIND_RXT_BITS, rxt->map))
		return WIND_RXT_DUP;
	return WIND_RXT_NEW;
}

/* Forget an arrival (the packet was dropped to make room). */
static inline void wind_rxt_unmark(struct wind_rx_table *rxt, u32 seq)
{
	if (wind_seq_in(seq, rxt->base, WIND_RXT_BITS))
		__clear_bit(seq % WIND_RXT_BITS, rxt->map);
}

/* Advance base over every seq that has arrived; returns how far. */
static inline u32 wind_rxt_advance(struct wind_rx_table *rxt)
{
	u32 n = 0;

	while (test_bit(rxt->base % WIND_RXT_BITS, rxt->map)) {
		__clear_bit(rxt->base % WIND_RXT_BITS, rxt->map);
		rxt->base++;
		n++;
	}
	return n;
}

/* Are all of [first, first + n) in? */
static inline bool wind_rxt_all(const struct wind_rx_table *rxt, u32 first,
				u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!wind_rxt_test(rxt, first + i))
			return false;
	return true;
}

/* Selective-ack bitmap: bit i set when base + 1 + i has arrived. */
static inline u64 wind_rxt_sack(const struct wind_rx_table *rxt)
{
	u64 sack = 0;
	u32 i;

	for (i = 0; i < 64; i++)
		if (wind_rxt_test(rxt, rxt->base + 1 + i))
			sack |= 1ULL << i;
	return sack;
}

#endif /* _WIND_RXTABLE_H */
