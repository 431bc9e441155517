// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of net/wind/seq.h: sequence arithmetic.
 * KTAP output; built with ASan and UBSan.
 */
#include <stdio.h>

#include "ktest.h"
#include "seq.h"

static void seq_compare__wraparound(void)
{
	bool ok = true;

	CHECK(wind_seq_before(1, 2));
	CHECK(!wind_seq_before(2, 1));
	CHECK(!wind_seq_before(5, 5));
	CHECK(wind_seq_before(0xfffffff0u, 0x10));
	CHECK(wind_seq_after(0x10, 0xfffffff0u));
	CHECK(wind_seq_in(0xffffffffu, 0xfffffffeu, 4));
	CHECK(wind_seq_in(1, 0xfffffffeu, 4));
	CHECK(!wind_seq_in(2, 0xfffffffeu, 4));
	CHECK(!wind_seq_in(0xfffffffdu, 0xfffffffeu, 4));
	report(ok, "seq_compare__wraparound");
}

int main(void)
{
	printf("TAP version 13\n1..1\n");
	seq_compare__wraparound();
	return ktest_end();
}
