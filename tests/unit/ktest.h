/* SPDX-License-Identifier: GPL-2.0 */
/* The few lines of KTAP every host unit test program shares. */
#ifndef _WIND_KTEST_H
#define _WIND_KTEST_H

#include <stdbool.h>
#include <stdio.h>

static int failures, tests;

/* In a test function with a local "bool ok = true;" */
#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("# %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		ok = false;						\
	}								\
} while (0)

static inline void report(bool ok, const char *name)
{
	tests++;
	if (!ok)
		failures++;
	printf("%sok %d %s\n", ok ? "" : "not ", tests, name);
}

static inline int ktest_end(void)
{
	printf("# %d passed, %d failed\n", tests - failures, failures);
	return failures ? 1 : 0;
}

#endif
