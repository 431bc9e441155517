// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libwind: the diff codec of WIND_DSM_DIRECT_DIFF / WIND_DSM_HEADER_DIFF.
 *
 * A diff is a packed sequence of runs: struct wind_diff_run { __u32 off;
 * __u32 len; } in host byte order, then len bytes to write at off.  The
 * encoder compares a page with its twin (the copy taken before the page
 * was written, as in JIAJIA and TreadMarks) and sends only what changed.
 * An unchanged gap shorter than a run header costs less sent as data than
 * as a new run, so such gaps are absorbed into the run around them; the
 * diff is therefore never larger than len + one header.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "libwind.h"
#include "internal.h"

#define RUN_HDR		sizeof(struct wind_diff_run)

/* First index >= i where a and b differ, or len */
static size_t next_diff(const unsigned char *a, const unsigned char *b,
			size_t i, size_t len)
{
	while (len - i >= sizeof(uint64_t)) {
		uint64_t x, y;

		memcpy(&x, a + i, sizeof(x));
		memcpy(&y, b + i, sizeof(y));
		if (x != y)
			break;
		i += sizeof(uint64_t);
	}
	while (i < len && a[i] == b[i])
		i++;
	return i;
}

/* First index >= i where a and b agree, or len */
static size_t next_same(const unsigned char *a, const unsigned char *b,
			size_t i, size_t len)
{
	while (i < len && a[i] != b[i])
		i++;
	return i;
}

WIND_EXPORT size_t wind_diff_encode(const void *page, const void *twin,
				    size_t len, void *out)
{
	const unsigned char *p = page, *t = twin;
	unsigned char *o = out;
	size_t i = 0, n = 0;

	if (len > UINT32_MAX) {
		errno = EINVAL;
		return (size_t)-1;
	}
	for (;;) {
		struct wind_diff_run run;
		size_t start, end, next;

		start = next_diff(p, t, i, len);
		if (start == len)
			break;
		end = next_same(p, t, start + 1, len);
		/* Absorb gaps too short to pay for a header of their own */
		for (;;) {
			next = next_diff(p, t, end, len);
			if (next == len || next - end >= RUN_HDR)
				break;
			end = next_same(p, t, next + 1, len);
		}
		run.off = (__u32)start;
		run.len = (__u32)(end - start);
		memcpy(o + n, &run, RUN_HDR);
		memcpy(o + n + RUN_HDR, p + start, end - start);
		n += RUN_HDR + (end - start);
		if (next == len)
			break;
		i = next;
	}
	return n;
}

WIND_EXPORT int wind_diff_apply(void *page, size_t len, const void *diff,
				size_t diff_len)
{
	const unsigned char *d = diff;
	unsigned char *p = page;
	size_t pos = 0;

	/*
	 * Check everything first: a bad diff must leave the page untouched.
	 * As the kernel's decoder (net/wind/dsm.c), accept what is safe:
	 * empty runs, and runs in any order (a later one wins).
	 */
	while (pos < diff_len) {
		struct wind_diff_run run;

		if (diff_len - pos < RUN_HDR)
			goto bad;
		memcpy(&run, d + pos, RUN_HDR);
		pos += RUN_HDR;
		if (run.len > diff_len - pos || (uint64_t)run.off + run.len > len)
			goto bad;
		pos += run.len;
	}

	pos = 0;
	while (pos < diff_len) {
		struct wind_diff_run run;

		memcpy(&run, d + pos, RUN_HDR);
		memcpy(p + run.off, d + pos + RUN_HDR, run.len);
		pos += RUN_HDR + run.len;
	}
	return 0;
bad:
	errno = EINVAL;
	return -EINVAL;
}
