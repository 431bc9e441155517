// SPDX-License-Identifier: GPL-2.0
/*
 * A peer restarted mid-stream (wind_faults.c has the other faults).
 *
 * It found that when the restart failed the sender's queue with
 * ECONNRESET, a send that then waited for send-buffer room returned 104
 * as a byte count (wait_for_sndbuf() returned -sock_error(), a positive
 * errno); fixed.
 */
#define _GNU_SOURCE
#include "faults.h"

/*
 * The receiving socket restarts (a new socket on the same port) while
 * async and sync messages stream to it.  The restart is hidden behind a
 * short blackhole, so that the first packets the new socket sees name the
 * old incarnation: the sender must get ECONNRESET for them, then the new
 * traffic flows.  Every message must arrive at most once; every sync send
 * that succeeded arrived exactly once; every async message either arrived
 * or was reported lost.
 */
TEST_F_TIMEOUT(faults, peer_restarted_mid_stream, 180)
{
	struct load async = { .fd = self->tx, .to = self->to, .seq0 = 0 };
	struct load sync = { .fd = self->tx, .to = self->to, .sync = 1,
			     .seq0 = SYNC_BASE };
	struct sink a = { 0 }, b = { 0 };
	struct sock_extended_err ee;
	pthread_t ta, ts, tsa, tsb;
	long lost = 0, reset_reports = 0, i, delivered_sync = 0;
	long resets0 = wind_stat(wind_ns(0), "PeersReset");
	uint8_t *seen = calloc(SEQ_SPACE, 1);
	long long deadline;
	int r, one = 1;

	ASSERT_NE(NULL, seen);
	/* a restart must not look like a dead peer: a retry budget of 20 s */
	ASSERT_EQ(0, wind_write_file_in(wind_ns(0), "/proc/sys/net/wind/retries", "20"));
	ASSERT_EQ(0, wind_write_file_in(wind_ns(0), "/proc/sys/net/wind/rto_max_ms", "1000"));
	sync.ok_seqs = calloc(100000, sizeof(uint32_t));
	sync.fail_seqs = calloc(100000, sizeof(uint32_t));
	ASSERT_NE(NULL, sync.ok_seqs);
	ASSERT_NE(NULL, sync.fail_seqs);
	a.seen = seen;
	b.seen = seen;
	a.fd = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(a.fd, 0);
	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_RECVERR, &one, sizeof(one)));
	ASSERT_EQ(0, pthread_create(&tsa, NULL, sink_main, &a));
	ASSERT_EQ(0, pthread_create(&ta, NULL, load_main, &async));
	ASSERT_EQ(0, pthread_create(&ts, NULL, load_main, &sync));
	msleep(1500);
	EXPECT_GT(a.got, 0);

	/* restart behind a blackhole of the sender's packets */
	ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem loss 100%%",
			      wind_ns(0)));
	msleep(100);
	a.stop = 1;
	pthread_join(tsa, NULL);
	close(a.fd);
	b.fd = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(b.fd, 0);
	b.last_async = 0;
	ASSERT_EQ(0, pthread_create(&tsb, NULL, sink_main, &b));
	ASSERT_EQ(0, wind_run("tc -n %s qdisc del dev eth0 root", wind_ns(0)));

	/* the stream goes on to the new socket */
	for (i = 0; i < 100 && (async.failed == 0 || b.got < 20); i++)
		msleep(100);
	msleep(1000);
	async.stop = 1;
	sync.stop = 1;
	pthread_join(ta, NULL);
	pthread_join(ts, NULL);
	/* wait until everything queued is acknowledged or failed */
	deadline = wind_now_ms() + 30000;
	while (((r = recv_err(self->tx, &ee)) == 0 || outq(self->tx) > 0) &&
	       wind_now_ms() < deadline) {
		if (r) {
			msleep(20);
			continue;
		}
		if (ee.ee_errno == ECONNRESET)
			reset_reports++;
		else
			TH_LOG("error queue: errno %u info %u", ee.ee_errno, ee.ee_info);
		lost += ee.ee_info;
	}
	msleep(500);
	b.stop = 1;
	pthread_join(tsb, NULL);

	TH_LOG("async: %ld sent, %ld reported lost (%ld ECONNRESET reports); sync: %ld ok, %ld failed (first errno %d); received %ld by the old socket, %ld by the new one",
	       async.sent, lost, reset_reports, sync.sent, sync.failed,
	       sync.last_err, a.got, b.got);
	EXPECT_GE(wind_stat(wind_ns(0), "PeersReset") - resets0, 1);
	EXPECT_EQ(0, async.shorts + sync.shorts);
	/* the old incarnation's traffic was reset, not timed out */
	EXPECT_TRUE(reset_reports > 0 || sync.last_err == ECONNRESET);
	if (sync.failed)
		EXPECT_EQ(ECONNRESET, sync.last_err);
	/* at most once, async-ordered in order on each socket */
	EXPECT_EQ(0, a.dup + b.dup);
	EXPECT_EQ(0, a.order_err);
	EXPECT_EQ(0, b.order_err);
	EXPECT_EQ(0, a.bad + b.bad);
	/* new traffic flowed */
	EXPECT_GT(b.got, 10);
	/* every sync send that succeeded arrived once; a failed one did not
	 * reach the new socket twice (it may have reached the old one)
	 */
	for (i = 0; i < sync.nok_seqs && i < 100000; i++) {
		EXPECT_EQ(1, seen[sync.ok_seqs[i]]);
		delivered_sync += seen[sync.ok_seqs[i]] == 1;
	}
	for (i = 0; i < sync.nfail_seqs && i < 100000; i++)
		EXPECT_GE(1, seen[sync.fail_seqs[i]]);
	/* every async message arrived or was reported lost */
	{
		long arrived = 0;

		for (i = 0; i < async.sent; i++)
			arrived += seen[i];
		TH_LOG("async: %ld arrived + %ld reported lost = %ld sent", arrived,
		       lost, async.sent);
		EXPECT_EQ(async.sent, arrived + lost);
	}
	close(b.fd);
	free(seen);
	free(sync.ok_seqs);
	free(sync.fail_seqs);
}

TEST_HARNESS_MAIN
