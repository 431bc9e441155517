// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of net/wind/rtt.h: the RTT and RTO estimator.
 * KTAP output; built with ASan and UBSan.
 */
#include <stdio.h>

#include "ktest.h"
#include "rtt.h"

static void rtt_sample__converges_and_clamps(void)
{
	struct wind_rtt r;
	bool ok = true;
	int i;

	wind_rtt_init(&r, 100000);
	CHECK(r.rto_us == 100000);
	wind_rtt_sample(&r, 1000, 20000, 1000000);
	CHECK(r.srtt_us == 1000 && r.rttvar_us == 500);
	CHECK(r.rto_us == 20000);	/* floor */
	for (i = 0; i < 200; i++)
		wind_rtt_sample(&r, 50000, 20000, 1000000);
	CHECK(r.srtt_us > 49000 && r.srtt_us <= 50000);
	CHECK(r.rto_us >= r.srtt_us && r.rto_us < 60000);
	wind_rtt_sample(&r, 4000000, 20000, 1000000);
	CHECK(r.rto_us == 1000000);	/* ceiling */
	wind_rtt_sample(&r, 0, 20000, 1000000);	/* no division by zero */
	report(ok, "rtt_sample__converges_and_clamps");
}

static void rtt_backoff__doubles_to_max(void)
{
	struct wind_rtt r;
	bool ok = true;

	wind_rtt_init(&r, 20000);
	wind_rtt_backoff(&r, 1000000);
	CHECK(r.rto_us == 40000);
	while (r.rto_us < 1000000)
		wind_rtt_backoff(&r, 1000000);
	CHECK(r.rto_us == 1000000);
	wind_rtt_backoff(&r, 1000000);
	CHECK(r.rto_us == 1000000);
	r.rto_us = 0xf0000000u;		/* no overflow */
	wind_rtt_backoff(&r, 0xffffffffu);
	CHECK(r.rto_us == 0xffffffffu);
	report(ok, "rtt_backoff__doubles_to_max");
}

int main(void)
{
	printf("TAP version 13\n1..2\n");
	rtt_sample__converges_and_clamps();
	rtt_backoff__doubles_to_max();
	return ktest_end();
}
