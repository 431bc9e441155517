/* SPDX-License-Identifier: GPL-2.0 */
/* Just enough of the kernel for net/wind's pure headers in userspace. */
#ifndef _WIND_KSHIM_H
#define _WIND_KSHIM_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;

#define BITS_PER_LONG	(sizeof(long) * CHAR_BIT)

static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	return (map[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1UL;
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *map)
{
	bool old = test_bit(nr, map);

	map[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
	return old;
}

static inline void __clear_bit(unsigned long nr, unsigned long *map)
{
	map[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

#endif
