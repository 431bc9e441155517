// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of net/wind/rxtable.h: the receive table.
 * KTAP output; built with ASan and UBSan.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ktest.h"
#include "rxtable.h"

static void rxtable_mark__dup_and_outside(u32 base, const char *name)
{
	struct wind_rx_table *rxt = malloc(sizeof(*rxt));
	bool ok = true;

	wind_rxt_init(rxt, base);
	CHECK(wind_rxt_mark(rxt, base + 1) == WIND_RXT_NEW);
	CHECK(wind_rxt_mark(rxt, base + 1) == WIND_RXT_DUP);
	CHECK(wind_rxt_mark(rxt, base - 1) == WIND_RXT_DUP);
	CHECK(wind_rxt_mark(rxt, base + WIND_RXT_BITS) == WIND_RXT_OUTSIDE);
	CHECK(wind_rxt_mark(rxt, base + WIND_RXT_BITS - 1) == WIND_RXT_NEW);
	CHECK(wind_rxt_advance(rxt) == 0);	/* base itself is missing */
	CHECK(wind_rxt_mark(rxt, base) == WIND_RXT_NEW);
	CHECK(wind_rxt_advance(rxt) == 2);
	CHECK(rxt->base == base + 2);
	CHECK(wind_rxt_test(rxt, base + WIND_RXT_BITS - 1));
	/* the far bit survives the ring moving under it */
	CHECK(wind_rxt_mark(rxt, base + WIND_RXT_BITS + 1) == WIND_RXT_NEW);
	CHECK(!wind_rxt_test(rxt, base + WIND_RXT_BITS));
	free(rxt);
	report(ok, name);
}

static void rxtable_advance__long_run_wraps(void)
{
	struct wind_rx_table *rxt = malloc(sizeof(*rxt));
	bool ok = true;
	u32 base = 0xffffff00u, i, total = 0;

	wind_rxt_init(rxt, base);
	/* 10 windows' worth, marked in reverse inside each window */
	for (i = 0; i < 10 * WIND_RXT_BITS; i += WIND_RXT_BITS / 2) {
		u32 j;

		for (j = WIND_RXT_BITS / 2; j-- > 0;)
			CHECK(wind_rxt_mark(rxt, base + i + j) == WIND_RXT_NEW);
		total += wind_rxt_advance(rxt);
	}
	CHECK(total == 10 * WIND_RXT_BITS);
	CHECK(rxt->base == base + 10 * WIND_RXT_BITS);
	for (i = 0; i < WIND_RXT_BITS; i++)
		CHECK(!wind_rxt_test(rxt, rxt->base + i));
	free(rxt);
	report(ok, "rxtable_advance__long_run_wraps");
}

static void rxtable_unmark__forgets(void)
{
	struct wind_rx_table rxt;
	bool ok = true;

	wind_rxt_init(&rxt, 100);
	CHECK(wind_rxt_mark(&rxt, 105) == WIND_RXT_NEW);
	wind_rxt_unmark(&rxt, 105);
	CHECK(!wind_rxt_test(&rxt, 105));
	CHECK(wind_rxt_mark(&rxt, 105) == WIND_RXT_NEW);
	wind_rxt_unmark(&rxt, 50);	/* before base: no effect, no crash */
	CHECK(wind_rxt_test(&rxt, 50));
	report(ok, "rxtable_unmark__forgets");
}

static void rxtable_all__ranges(void)
{
	struct wind_rx_table rxt;
	bool ok = true;

	wind_rxt_init(&rxt, 0xfffffffeu);
	CHECK(wind_rxt_all(&rxt, 0xfffffff0u, 14));	/* all before base */
	CHECK(!wind_rxt_all(&rxt, 0xfffffff0u, 15));
	wind_rxt_mark(&rxt, 0xfffffffeu);
	wind_rxt_mark(&rxt, 0xffffffffu);
	wind_rxt_mark(&rxt, 0);
	CHECK(wind_rxt_all(&rxt, 0xfffffffcu, 5));
	CHECK(!wind_rxt_all(&rxt, 0xfffffffcu, 6));
	CHECK(wind_rxt_all(&rxt, 0, 0));
	report(ok, "rxtable_all__ranges");
}

static void rxtable_sack__bits(void)
{
	struct wind_rx_table rxt;
	bool ok = true;

	wind_rxt_init(&rxt, 0xffffffe0u);
	CHECK(wind_rxt_sack(&rxt) == 0);
	wind_rxt_mark(&rxt, 0xffffffe1u);			/* bit 0 */
	wind_rxt_mark(&rxt, 0xffffffe0u + 1 + 40);	/* bit 40, past wrap */
	wind_rxt_mark(&rxt, 0xffffffe0u + 1 + 63);	/* bit 63 */
	wind_rxt_mark(&rxt, 0xffffffe0u + 1 + 64);	/* beyond the bitmap */
	CHECK(wind_rxt_sack(&rxt) == (1ULL | 1ULL << 40 | 1ULL << 63));
	report(ok, "rxtable_sack__bits");
}

int main(void)
{
	printf("TAP version 13\n1..6\n");
	rxtable_mark__dup_and_outside(1000, "rxtable_mark__dup_and_outside");
	rxtable_mark__dup_and_outside(0xfffffff0u,
				      "rxtable_mark__dup_and_outside_wrapping");
	rxtable_advance__long_run_wraps();
	rxtable_unmark__forgets();
	rxtable_all__ranges();
	rxtable_sack__bits();
	return ktest_end();
}
