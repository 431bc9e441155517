// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of net/wind/rwnd.h: the receive window's arithmetic,
 * what is advertised and what is admitted.  KTAP output; built with ASan
 * and UBSan.
 */
#include <limits.h>
#include <stdio.h>

#include "ktest.h"
#include "rwnd.h"

static void seq_cost__clamped(void)
{
	bool ok = true;

	CHECK(wind_rwnd_seq_cost(0, 2304) == 2304);	/* none yet: full */
	CHECK(wind_rwnd_seq_cost(1, 2304) == 576);	/* floor: a quarter */
	CHECK(wind_rwnd_seq_cost(575, 2304) == 576);
	CHECK(wind_rwnd_seq_cost(576, 2304) == 576);
	CHECK(wind_rwnd_seq_cost(577, 2304) == 577);
	CHECK(wind_rwnd_seq_cost(4608, 2304) == 4608);
	CHECK(wind_rwnd_seq_cost(4609, 2304) == 4608);	/* ceiling: twice */
	CHECK(wind_rwnd_seq_cost(UINT_MAX, 2304) == 4608);
	CHECK(wind_rwnd_seq_cost(7, 3) == 6);		/* full / 4 == 0 */
	CHECK(wind_rwnd_seq_cost(1, 3) == 1);
	report(ok, "seq_cost__clamped");
}

static void full__caps(void)
{
	bool ok = true;

	CHECK(wind_rwnd_full(0, 2304, 256) == 0);
	CHECK(wind_rwnd_full(2303, 2304, 256) == 0);
	CHECK(wind_rwnd_full(2304, 2304, 256) == 1);
	CHECK(wind_rwnd_full(212992, 2304, 256) == 92);	/* default rmem */
	CHECK(wind_rwnd_full(212992, 576, 256) == 256);	/* net.wind.window */
	CHECK(wind_rwnd_full(212992, 576, 1) == 1);
	/* net.wind.window's top, 1024, is one past the receive table's */
	CHECK(wind_rwnd_full(INT_MAX, 1, 1024) == WIND_RXT_BITS - 1);
	CHECK(wind_rwnd_full(INT_MAX, 1, 1023) == 1023);
	report(ok, "full__caps");
}

static void fair__share_of_buffer(void)
{
	bool ok = true;

	CHECK(wind_rwnd_fair(212992, 2304, 1, 92) == 92);
	CHECK(wind_rwnd_fair(212992, 2304, 16, 92) == 5);	/* 92 / 16 */
	CHECK(wind_rwnd_fair(212992, 2304, 92, 92) == 1);
	CHECK(wind_rwnd_fair(212992, 2304, 1000, 92) == 1);	/* at least 1 */
	CHECK(wind_rwnd_fair(212992, 576, 1, 256) == 256);	/* at most full */
	/* a buffer below one packet: full is 0, and so is the share */
	CHECK(wind_rwnd_fair(2000, 2304, 1, 0) == 0);
	CHECK(wind_rwnd_fair(0, 2304, 1, 0) == 0);
	report(ok, "fair__share_of_buffer");
}

static void share__free_buffer(void)
{
	bool ok = true;

	CHECK(wind_rwnd_share(0, 2304, 1, 92) == 0);
	CHECK(wind_rwnd_share(-1, 2304, 1, 92) == 0);	/* past sk_rcvbuf */
	CHECK(wind_rwnd_share(INT_MIN, 2304, 1, 92) == 0);
	CHECK(wind_rwnd_share(2303, 2304, 1, 92) == 0);	/* not one packet */
	CHECK(wind_rwnd_share(2304, 2304, 1, 92) == 1);
	CHECK(wind_rwnd_share(2304 * 10 + 2303, 2304, 1, 92) == 10);
	/* rounded up: each of 3 senders is offered the one packet free */
	CHECK(wind_rwnd_share(2304, 2304, 3, 92) == 1);
	CHECK(wind_rwnd_share(2304 * 10, 2304, 3, 92) == 4);	/* 10 / 3 up */
	CHECK(wind_rwnd_share(2304 * 9, 2304, 3, 92) == 3);
	CHECK(wind_rwnd_share(212992, 2304, 1, 92) == 92);
	CHECK(wind_rwnd_share(INT_MAX, 1, 1, 1023) == 1023);	/* at most full */
	CHECK(wind_rwnd_share(INT_MAX, 1, 1, 0) == 0);
	report(ok, "share__free_buffer");
}

static void claim__rest_of_message(void)
{
	bool ok = true;

	/* the rest of the message, 40 packets, with room for 50 */
	CHECK(wind_rwnd_claim(3, 40, 92, 50 * 2304, 2304) == 40);
	/* room for 10 only */
	CHECK(wind_rwnd_claim(3, 40, 92, 10 * 2304 + 2303, 2304) == 10);
	/* full caps it */
	CHECK(wind_rwnd_claim(3, 400, 92, INT_MAX, 2304) == 92);
	/* never less than the share */
	CHECK(wind_rwnd_claim(30, 4, 92, INT_MAX, 2304) == 30);
	CHECK(wind_rwnd_claim(30, 40, 92, 0, 2304) == 30);
	CHECK(wind_rwnd_claim(30, 40, 92, -5000, 2304) == 30);
	CHECK(wind_rwnd_claim(0, 0, 92, INT_MAX, 2304) == 0);
	CHECK(wind_rwnd_claim_max(212992) == 425984);
	CHECK(wind_rwnd_offered_max(212992) == 266240);
	CHECK(wind_rwnd_offered_max(3) == 3);
	CHECK(wind_rwnd_offered_max(0) == 0);
	report(ok, "claim__rest_of_message");
}

static void edge__never_moves_back(void)
{
	bool ok = true;

	CHECK(wind_rwnd_edge(100, 100, 0) == 100);
	CHECK(wind_rwnd_edge(100, 100, 50) == 150);
	CHECK(wind_rwnd_edge(150, 110, 20) == 150);	/* narrower: stays */
	CHECK(wind_rwnd_edge(150, 140, 20) == 160);
	CHECK(wind_rwnd_edge(150, 150, 0) == 150);	/* shut */
	/* across wraparound */
	CHECK(wind_rwnd_edge(0xfffffff0u, 0xfffffff0u, 0x20) == 0x10);
	CHECK(wind_rwnd_edge(0x10, 0xffffffe0u, 0x20) == 0x10);
	CHECK(wind_rwnd_edge(0x10, 0xfffffff8u, 0x20) == 0x18);
	report(ok, "edge__never_moves_back");
}

static void offered__the_table_before_edge(void)
{
	bool ok = true;
	u32 edge;

	edge = 1000;
	CHECK(!wind_rwnd_offered(edge, 1000));		/* exclusive */
	CHECK(wind_rwnd_offered(edge, 999));
	CHECK(wind_rwnd_offered(edge, 1000 - WIND_RXT_BITS));
	CHECK(!wind_rwnd_offered(edge, 1000 - WIND_RXT_BITS - 1));
	CHECK(!wind_rwnd_offered(edge, 1001));
	edge = 5;					/* across wraparound */
	CHECK(wind_rwnd_offered(edge, 0xfffffffeu));
	CHECK(wind_rwnd_offered(edge, 4));
	CHECK(!wind_rwnd_offered(edge, 5));
	CHECK(wind_rwnd_offered(edge, 5 - WIND_RXT_BITS));
	CHECK(!wind_rwnd_offered(edge, 5 - WIND_RXT_BITS - 1));
	edge = 0;
	CHECK(wind_rwnd_offered(edge, 0xffffffffu));
	CHECK(!wind_rwnd_offered(edge, 0));
	report(ok, "offered__the_table_before_edge");
}

static void fits__bounds(void)
{
	bool ok = true;

	CHECK(wind_rwnd_fits(0, 0, 0));
	CHECK(!wind_rwnd_fits(0, 1, 0));
	CHECK(wind_rwnd_fits(1000, 24, 1024));
	CHECK(!wind_rwnd_fits(1000, 25, 1024));
	CHECK(wind_rwnd_fits(0, 1024, 1024));
	report(ok, "fits__bounds");
}

/* The sender's view of one advertisement, against the receiver's */
static void send_after(u32 ack, u32 wnd, u32 max, u32 edge0, bool *okp)
{
	u32 edge = wind_rwnd_edge(edge0, ack, wnd);
	u32 end = wind_rwnd_snd_end(ack, wnd, max);
	u32 n = wnd < max ? wnd : max, i;
	bool ok = true;

	CHECK(end == ack + n);
	for (i = 0; i < n; i++) {
		CHECK(wind_rwnd_may_send(end, ack + i));
		CHECK(wind_rwnd_offered(edge, ack + i));
	}
	CHECK(!wind_rwnd_may_send(end, ack + n));
	CHECK(!wind_rwnd_may_send(end, ack - 1 + 0x80000000u));
	/* what it sent before, under an edge further on, is still offered */
	if (wind_seq_after(edge0, ack + n))
		CHECK(wind_rwnd_offered(edge, edge0 - 1));
	if (!ok)
		printf("# ack %u wnd %u max %u edge %u\n", ack, wnd, max, edge0);
	*okp &= ok;
}

static void advertisement__what_peer_may_send(void)
{
	static const u32 acks[] = { 0, 1, 1000, 0x7fffffffu, 0xfffffc00u,
				    0xffffffffu };
	static const u32 wnds[] = { 0, 1, 92, 256, 1023 };
	static const u32 maxes[] = { 1, 256, 1024 };
	bool ok = true;
	unsigned int a, w, m;
	u32 end;

	for (a = 0; a < sizeof(acks) / sizeof(acks[0]); a++)
		for (w = 0; w < sizeof(wnds) / sizeof(wnds[0]); w++)
			for (m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
				send_after(acks[a], wnds[w], maxes[m],
					   acks[a], &ok);
				send_after(acks[a], wnds[w], maxes[m],
					   acks[a] + 500, &ok);
			}
	/* exact ends: a window of 0 lets nothing go, max caps the window */
	end = wind_rwnd_snd_end(0xfffffff0u, 0, 256);
	CHECK(end == 0xfffffff0u && !wind_rwnd_may_send(end, 0xfffffff0u));
	end = wind_rwnd_snd_end(0xfffffff0u, 1023, 256);
	CHECK(end == 0xf0);
	CHECK(wind_rwnd_may_send(end, 0xef) && !wind_rwnd_may_send(end, 0xf0));
	CHECK(wind_rwnd_may_send(end, 0xfffffff0u));
	report(ok, "advertisement__what_peer_may_send");
}

/*
 * @senders peers are each advertised their share of the free buffer at
 * the same moment (the worst case for rounding up), from @rmem held of
 * @rcvbuf, and each sends every seq of it, packets costing @cost each,
 * in the order @rev says; the receiver takes each that fits sk_rcvbuf
 * and, with @word, each offered one up to wind_rwnd_offered_max(), as
 * wind_rcv_room() does.  Returns the number of the first packet refused,
 * or 0 when all were taken.
 */
static u32 incast(u32 rcvbuf, u32 rmem, u32 cost, u32 senders, bool rev,
		  bool word)
{
	u32 full = wind_rwnd_full(rcvbuf, cost, 1024);
	u32 wnd = wind_rwnd_share((int)(rcvbuf - rmem), cost, senders, full);
	u32 s, i, n = 0;

	for (i = 0; i < wnd; i++) {
		for (s = 0; s < senders; s++) {
			/* each peer its own seq space, near a wrap for some */
			u32 ack = s * 0x40000000u - 7;
			u32 edge = wind_rwnd_edge(ack, ack, wnd);
			u32 seq = rev ? ack + wnd - 1 - i : ack + i;

			n++;
			if (!wind_rwnd_fits(rmem, cost, rcvbuf) &&
			    !(word && wind_rwnd_offered(edge, seq) &&
			      wind_rwnd_fits(rmem, cost,
					     wind_rwnd_offered_max(rcvbuf))))
				return n;
			rmem += cost;
		}
	}
	return 0;
}

static void admit__inside_window_taken(void)
{
	static const u32 bufs[] = { 4608, 65536, 212992, 1 << 20, 6291456 };
	static const u32 costs[] = { 576, 2304, 4608 };
	static const u32 nsenders[] = { 1, 2, 3, 7, 16, 100, 1000, 2730 };
	bool ok = true;
	unsigned int b, c, s;
	u32 used;

	/* while the shares' rounding up fits in the quarter past sk_rcvbuf
	 * (senders * cost <= rcvbuf / 4), every offered packet is taken;
	 * a lone sender's never needs the quarter
	 */
	for (b = 0; b < sizeof(bufs) / sizeof(bufs[0]); b++)
		for (c = 0; c < sizeof(costs) / sizeof(costs[0]); c++)
			for (s = 0; s < sizeof(nsenders) / sizeof(nsenders[0]) &&
			     nsenders[s] * costs[c] <= bufs[b] / 4; s++)
				for (used = 0; used <= bufs[b];
				     used += bufs[b] / 8) {
					u32 n = nsenders[s];
					u32 r1 = incast(bufs[b], used,
							costs[c], n, false,
							true);
					u32 r2 = incast(bufs[b], used,
							costs[c], n, true,
							true);
					u32 r3 = incast(bufs[b], used,
							costs[c], n, false,
							n > 1);

					CHECK(!r1 && !r2 && !r3);
					if (r1 || r2 || r3)
						printf("# buf %u cost %u senders %u used %u\n",
						       bufs[b], costs[c], n,
						       used);
				}
	/* past the bound: 9 senders are each offered 2 of the 10 packets
	 * free; the quarter takes 2 more, the 13th is refused
	 */
	CHECK(wind_rwnd_share(10000, 1000, 9, 10) == 2);
	CHECK(incast(10000, 0, 1000, 9, false, true) == 13);
	CHECK(incast(10000, 0, 1000, 9, false, false) == 11);
	CHECK(incast(10000, 0, 1000, 4, false, true) == 0);	/* 4 x 3 */
	CHECK(incast(10000, 0, 1000, 4, false, false) == 11);
	CHECK(incast(10000, 0, 1000, 1, false, false) == 0);
	report(ok, "admit__inside_window_taken");
}

int main(void)
{
	printf("TAP version 13\n1..10\n");
	seq_cost__clamped();
	full__caps();
	fair__share_of_buffer();
	share__free_buffer();
	claim__rest_of_message();
	edge__never_moves_back();
	offered__the_table_before_edge();
	fits__bounds();
	advertisement__what_peer_may_send();
	admit__inside_window_taken();
	return ktest_end();
}
