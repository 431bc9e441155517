/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sequence arithmetic: u32 sequence numbers that wrap, compared as TCP
 * compares them.  Pure logic, shared by the module and the host unit
 * tests (tests/unit), which compile it in userspace.
 */
#ifndef _WIND_SEQ_H
#define _WIND_SEQ_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "kshim.h"
#endif

/* Sequence numbers are u32 and wrap; compare them as TCP does. */
static inline bool wind_seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static inline bool wind_seq_after(u32 a, u32 b)
{
	return wind_seq_before(b, a);
}

/* a <= s < a + n, across wraparound */
static inline bool wind_seq_in(u32 s, u32 a, u32 n)
{
	return s - a < n;
}

#endif /* _WIND_SEQ_H */
