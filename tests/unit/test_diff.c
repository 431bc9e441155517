// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of libwind's diff codec (userspace/lib/diff.c):
 * wind_diff_encode() against a byte-by-byte reference encoder, round
 * trips through wind_diff_apply(), and malformed diffs that must be
 * refused without touching the page.  KTAP output; built with ASan and
 * UBSan (tests/unit/Makefile).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktest.h"
#include "../../userspace/lib/diff.c"

#define PAGE	4096
#define HDR	sizeof(struct wind_diff_run)


static uint32_t rng = 0x12345678;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/*
 * The reference: the obvious byte loop.  Differing bytes form runs; a
 * run absorbs the next one when the unchanged gap between them is
 * shorter than a run header.
 */
static size_t ref_encode(const unsigned char *p, const unsigned char *t,
			 size_t len, unsigned char *out)
{
	size_t i = 0, n = 0;

	while (i < len) {
		size_t start, end, j;
		struct wind_diff_run run;

		if (p[i] == t[i]) {
			i++;
			continue;
		}
		start = i;
		end = i + 1;		/* one past the last differing byte */
		for (j = end; j < len; j++) {
			if (p[j] != t[j]) {
				if (j - end < HDR)
					end = j + 1;
				else
					break;
			}
		}
		run.off = start;
		run.len = end - start;
		memcpy(out + n, &run, HDR);
		memcpy(out + n + HDR, p + start, end - start);
		n += HDR + end - start;
		i = end;
	}
	return n;
}

/* Encode, compare with the reference, apply to the twin, compare pages */
static bool round_trip(const unsigned char *page, const unsigned char *twin,
		       size_t len, size_t *size_out)
{
	unsigned char *out = malloc(WIND_DIFF_MAX(len));
	unsigned char *ref = malloc(WIND_DIFF_MAX(len));
	unsigned char *copy = malloc(len ? len : 1);
	size_t n, rn, pos;
	uint64_t prev_end = 0;
	bool ok = true;

	n = wind_diff_encode(page, twin, len, out);
	rn = ref_encode(page, twin, len, ref);
	CHECK(n == rn);
	CHECK(n <= WIND_DIFF_MAX(len));
	if (n == rn)
		CHECK(!memcmp(out, ref, n));
	/* Shape: ordered runs, each starting and ending on a change */
	for (pos = 0; ok && pos < n;) {
		struct wind_diff_run run;

		memcpy(&run, out + pos, HDR);
		CHECK(run.len > 0);
		CHECK(run.off + run.len <= len);
		CHECK(pos == 0 || run.off >= prev_end + HDR);
		if (!ok)
			break;
		CHECK(page[run.off] != twin[run.off]);
		CHECK(page[run.off + run.len - 1] != twin[run.off + run.len - 1]);
		prev_end = run.off + run.len;
		pos += HDR + run.len;
	}
	CHECK(pos == n);
	memcpy(copy, twin, len);
	CHECK(wind_diff_apply(copy, len, out, n) == 0);
	CHECK(!memcmp(copy, page, len));
	if (size_out)
		*size_out = n;
	free(out);
	free(ref);
	free(copy);
	return ok;
}

static void encode__identical(void)
{
	unsigned char page[PAGE], twin[PAGE], out[WIND_DIFF_MAX(PAGE)];
	bool ok = true;
	size_t n;

	memset(page, 0xa5, sizeof(page));
	memcpy(twin, page, sizeof(page));
	CHECK(wind_diff_encode(page, twin, PAGE, out) == 0);
	CHECK(round_trip(page, twin, PAGE, &n) && n == 0);
	CHECK(wind_diff_encode(page, twin, 0, out) == 0);
	CHECK(wind_diff_apply(page, PAGE, out, 0) == 0);
	report(ok, "encode__identical");
}

static void encode__full_page(void)
{
	unsigned char page[PAGE], twin[PAGE], out[WIND_DIFF_MAX(PAGE)];
	struct wind_diff_run run;
	bool ok = true;
	size_t i, n;

	for (i = 0; i < PAGE; i++) {
		twin[i] = (unsigned char)i;
		page[i] = (unsigned char)~i;
	}
	n = wind_diff_encode(page, twin, PAGE, out);
	CHECK(n == HDR + PAGE);
	memcpy(&run, out, HDR);
	CHECK(run.off == 0 && run.len == PAGE);
	CHECK(!memcmp(out + HDR, page, PAGE));
	CHECK(round_trip(page, twin, PAGE, NULL));
	report(ok, "encode__full_page");
}

static void encode__first_and_last_byte(void)
{
	unsigned char page[PAGE], twin[PAGE], out[WIND_DIFF_MAX(PAGE)];
	struct wind_diff_run run;
	bool ok = true;
	size_t n;

	memset(twin, 0, sizeof(twin));
	memcpy(page, twin, sizeof(page));
	page[0] = 1;
	n = wind_diff_encode(page, twin, PAGE, out);
	CHECK(n == HDR + 1);
	memcpy(&run, out, HDR);
	CHECK(run.off == 0 && run.len == 1 && out[HDR] == 1);

	memcpy(page, twin, sizeof(page));
	page[PAGE - 1] = 0xff;
	n = wind_diff_encode(page, twin, PAGE, out);
	CHECK(n == HDR + 1);
	memcpy(&run, out, HDR);
	CHECK(run.off == PAGE - 1 && run.len == 1 && out[HDR] == 0xff);

	page[0] = 7;		/* both ends: two runs */
	n = wind_diff_encode(page, twin, PAGE, out);
	CHECK(n == 2 * (HDR + 1));
	CHECK(round_trip(page, twin, PAGE, NULL));
	/* a page shorter than a word, and of odd length */
	CHECK(round_trip(page + 1, twin + 1, 5, NULL));
	CHECK(round_trip(page + 3, twin + 3, PAGE - 3, NULL));
	report(ok, "encode__first_and_last_byte");
}

static void encode__gap_merging(void)
{
	unsigned char page[PAGE], twin[PAGE], out[WIND_DIFF_MAX(PAGE)];
	struct wind_diff_run run;
	bool ok = true;
	size_t gap, n;

	for (gap = 1; gap <= 2 * HDR; gap++) {
		memset(twin, 0, sizeof(twin));
		memcpy(page, twin, sizeof(page));
		page[100] = 1;
		page[100 + gap + 1] = 2;	/* gap unchanged bytes between */
		n = wind_diff_encode(page, twin, PAGE, out);
		memcpy(&run, out, HDR);
		if (gap < HDR) {		/* cheaper as data: one run */
			CHECK(n == HDR + gap + 2);
			CHECK(run.off == 100 && run.len == gap + 2);
		} else {			/* two runs */
			CHECK(n == 2 * (HDR + 1));
			CHECK(run.off == 100 && run.len == 1);
		}
		CHECK(round_trip(page, twin, PAGE, NULL));
	}
	report(ok, "encode__gap_merging");
}

static void encode__scattered(void)
{
	unsigned char page[PAGE], twin[PAGE];
	bool ok = true;
	size_t i, n;

	memset(twin, 0x11, sizeof(twin));
	memcpy(page, twin, sizeof(page));
	for (i = 3; i < PAGE; i += 64)
		page[i] ^= 0xff;
	CHECK(round_trip(page, twin, PAGE, &n));
	CHECK(n == (PAGE / 64) * (HDR + 1));
	/* every other byte: one run of the whole span */
	memcpy(page, twin, sizeof(page));
	for (i = 0; i < PAGE; i += 2)
		page[i] ^= 0x80;
	CHECK(round_trip(page, twin, PAGE, &n));
	CHECK(n == HDR + PAGE - 1);
	/* worst case for the bound: a change every HDR + 1 bytes */
	memcpy(page, twin, sizeof(page));
	for (i = 0; i < PAGE; i += HDR + 1)
		page[i] ^= 1;
	CHECK(round_trip(page, twin, PAGE, &n));
	CHECK(n <= WIND_DIFF_MAX(PAGE));
	report(ok, "encode__scattered");
}

static void encode__random_pages(void)
{
	static unsigned char page[3 * PAGE], twin[3 * PAGE];
	bool ok = true;
	int iter;

	for (iter = 0; iter < 2000 && ok; iter++) {
		size_t len = iter < 1000 ? PAGE : rnd() % sizeof(page);
		unsigned int density = rnd() % 5, i, nchanges;

		for (i = 0; i < len; i++)
			twin[i] = (unsigned char)rnd();
		memcpy(page, twin, len);
		nchanges = density == 0 ? 0 :
			   density == 1 ? rnd() % 4 :
			   density == 2 ? rnd() % 64 :
			   density == 3 ? rnd() % 512 : (unsigned int)len;
		for (i = 0; len && i < nchanges; i++) {
			size_t at = rnd() % len, span = 1 + rnd() % 24;

			for (; span && at < len; span--, at++)
				page[at] = (unsigned char)(page[at] + 1 + rnd() % 255);
		}
		CHECK(round_trip(page, twin, len, NULL));
		if (!ok)
			printf("# iteration %d, len %zu, density %u\n",
			       iter, len, density);
	}
	report(ok, "encode__random_pages");
}

static void encode__len_too_large(void)
{
	bool ok = true;

	errno = 0;
	CHECK(wind_diff_encode(NULL, NULL, (size_t)UINT32_MAX + 1, NULL) ==
	      (size_t)-1);
	CHECK(errno == EINVAL);
	report(ok, "encode__len_too_large");
}

/* Build a diff from (off, len) pairs; data bytes are 0xee */
static size_t make_diff(unsigned char *out, const uint32_t *runs, int nruns)
{
	size_t n = 0;
	int i;

	for (i = 0; i < nruns; i++) {
		struct wind_diff_run run = { runs[2 * i], runs[2 * i + 1] };

		memcpy(out + n, &run, HDR);
		n += HDR;
		if (run.len < PAGE * 2) {
			memset(out + n, 0xee, run.len);
			n += run.len;
		}
	}
	return n;
}

static bool rejected(const unsigned char *diff, size_t diff_len)
{
	unsigned char page[PAGE], before[PAGE];
	bool ok = true;
	int r;

	memset(page, 0x5a, sizeof(page));
	memcpy(before, page, sizeof(page));
	errno = 0;
	r = wind_diff_apply(page, PAGE, diff, diff_len);
	CHECK(r == -EINVAL);
	CHECK(errno == EINVAL);
	CHECK(!memcmp(page, before, PAGE));
	return ok;
}

static void apply__malformed(void)
{
	static unsigned char d[4 * PAGE];
	bool ok = true;
	size_t n;

	/* a valid run, for reference */
	n = make_diff(d, (const uint32_t[]){ 10, 4 }, 1);
	{
		unsigned char page[PAGE];

		memset(page, 0, sizeof(page));
		CHECK(wind_diff_apply(page, PAGE, d, n) == 0);
		CHECK(page[9] == 0 && page[10] == 0xee && page[13] == 0xee &&
		      page[14] == 0);
	}
	/* truncated header: 1..7 bytes */
	for (size_t cut = 1; cut < HDR; cut++)
		CHECK(rejected(d, cut));
	/* truncated data */
	CHECK(rejected(d, n - 1));
	CHECK(rejected(d, HDR));
	/* a good run, then a truncated header: the good one is not applied */
	n = make_diff(d, (const uint32_t[]){ 0, 8 }, 1);
	CHECK(rejected(d, n + 3));
	/* zero length, at the very end too: accepted, nothing written */
	n = make_diff(d, (const uint32_t[]){ 0, 0, PAGE, 0 }, 2);
	{
		unsigned char page[PAGE];

		memset(page, 0, sizeof(page));
		CHECK(wind_diff_apply(page, PAGE, d, n) == 0);
		CHECK(page[0] == 0);
	}
	/* ... but not past the end */
	n = make_diff(d, (const uint32_t[]){ PAGE + 1, 0 }, 1);
	CHECK(rejected(d, n));
	/* past the end, ending exactly at the end is fine */
	n = make_diff(d, (const uint32_t[]){ PAGE - 4, 5 }, 1);
	CHECK(rejected(d, n));
	n = make_diff(d, (const uint32_t[]){ PAGE, 1 }, 1);
	CHECK(rejected(d, n));
	n = make_diff(d, (const uint32_t[]){ PAGE - 4, 4 }, 1);
	{
		unsigned char page[PAGE];

		memset(page, 0, sizeof(page));
		CHECK(wind_diff_apply(page, PAGE, d, n) == 0);
		CHECK(page[PAGE - 1] == 0xee && page[PAGE - 5] == 0);
	}
	/* off + len overflows 32 bits */
	n = make_diff(d, (const uint32_t[]){ 0xfffffff0u, 0x20 }, 1);
	CHECK(rejected(d, n));
	/* huge len with no data behind it */
	n = make_diff(d, (const uint32_t[]){ 0, 0xffffffffu }, 1);
	CHECK(rejected(d, n));
	/* overlap and disorder are applied in turn, as the kernel does */
	n = make_diff(d, (const uint32_t[]){ 100, 4, 50, 4 }, 2);
	{
		unsigned char page[PAGE];

		memset(page, 0, sizeof(page));
		CHECK(wind_diff_apply(page, PAGE, d, n) == 0);
		CHECK(page[50] == 0xee && page[103] == 0xee && page[54] == 0);
	}
	/* disorder with a bad run last: nothing written */
	n = make_diff(d, (const uint32_t[]){ 100, 4, 50, 4, 0xffffffffu, 1 }, 3);
	CHECK(rejected(d, n));
	/* a good run, then one out of bounds: nothing written */
	n = make_diff(d, (const uint32_t[]){ 0, 4, PAGE - 2, 4 }, 2);
	CHECK(rejected(d, n));
	/* adjacent runs are fine */
	n = make_diff(d, (const uint32_t[]){ 0, 4, 4, 4 }, 2);
	{
		unsigned char page[PAGE];

		memset(page, 0, sizeof(page));
		CHECK(wind_diff_apply(page, PAGE, d, n) == 0);
		CHECK(page[7] == 0xee && page[8] == 0);
	}
	/* anything into a zero-length page */
	n = make_diff(d, (const uint32_t[]){ 0, 1 }, 1);
	CHECK(wind_diff_apply(d + 2 * PAGE, 0, d, n) == -EINVAL);
	report(ok, "apply__malformed");
}

int main(void)
{
	printf("TAP version 13\n1..9\n");
	encode__identical();
	encode__full_page();
	encode__first_and_last_byte();
	encode__gap_merging();
	encode__scattered();
	encode__random_pages();
	encode__len_too_large();
	apply__malformed();
	{
		/* a diff survives being copied to an odd address (packed runs) */
		unsigned char page[PAGE], twin[PAGE], *buf = malloc(WIND_DIFF_MAX(PAGE) + 1);
		bool ok = true;
		size_t n;

		memset(twin, 1, sizeof(twin));
		memcpy(page, twin, sizeof(page));
		page[17] = 9;
		page[2000] = 9;
		n = wind_diff_encode(page, twin, PAGE, buf + 1);
		CHECK(n == 2 * (HDR + 1));
		CHECK(wind_diff_apply(twin, PAGE, buf + 1, n) == 0);
		CHECK(!memcmp(page, twin, PAGE));
		free(buf);
		report(ok, "diff__unaligned_buffer");
	}
	return ktest_end();
}
