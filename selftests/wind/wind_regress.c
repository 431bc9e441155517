// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for kernel bugs the fuzzers found, each reduced to a
 * deterministic case:
 *
 *  - a send that had to wait for send-buffer room while SO_ERROR held an
 *    async error returned the errno as a positive byte count, the message
 *    not queued and the error lost (wind_sysfuzz, wind_faults_restart);
 *  - a sync send interrupted by a signal with SA_RESTART was restarted
 *    and queued its message a second time (wind_sysfuzz);
 *  - close() waited forever for a peer that answered the window probes
 *    but never read, so two sockets closing while each held messages for
 *    the other's full buffer never returned (wind_sysfuzz, in CI);
 *  - out-of-order packets held for a sender that went away, in a buffer
 *    SO_RCVBUF then shrank, kept every other peer out of the socket for
 *    good: a sync send to it never returned (wind_sysfuzz).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

TEST(send_waiting_for_room_reports_pending_error)
{
	struct sockaddr_in lo, to;
	char buf[1000] = { 0 };
	int tx, rx, i, sb = 4096, err = 0, e = 0;
	socklen_t len = sizeof(err);
	ssize_t n = 0;

	ASSERT_EQ(0, wind_topo_setup(2));
	rx = wind_bound_socket(wind_ns(1), 7000, NULL);
	ASSERT_GE(rx, 0);
	tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(tx, 0);
	/* an async error: a message to a closed port on loopback */
	wind_sin(&lo, htonl(0x7f000001), 7999);
	ASSERT_EQ(0, wind_run("ip -n %s link set lo up", wind_ns(0)));
	ASSERT_EQ(1, sendto(tx, "x", 1, 0, (struct sockaddr *)&lo, sizeof(lo)));
	usleep(300000);
	ASSERT_EQ(0, setsockopt(tx, SOL_SOCKET, SO_SNDBUF, &sb, sizeof(sb)));
	/* the peer stops answering: fill the send buffer */
	ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem loss 100%%",
			      wind_ns(0)));
	wind_sin(&to, wind_node_addr(1), 7000);
	for (i = 0; i < 100; i++) {
		n = sendto(tx, buf, sizeof(buf), MSG_DONTWAIT,
			   (struct sockaddr *)&to, sizeof(to));
		e = errno;
		if (n != sizeof(buf))
			break;
	}
	TH_LOG("after %d messages: sendto returned %zd (%s)", i, n, strerror(e));
	/* -1, never a count, and the error is not lost */
	EXPECT_EQ(-1, n);
	ASSERT_EQ(0, getsockopt(tx, SOL_SOCKET, SO_ERROR, &err, &len));
	if (e == EAGAIN) {
		EXPECT_EQ(ECONNREFUSED, err);
	} else {
		EXPECT_EQ(ECONNREFUSED, e);
	}
	close(tx);
	close(rx);
	wind_topo_teardown();
}

static int sync_fd;
static struct sockaddr_in sync_to;
static ssize_t sync_ret;
static int sync_errno;

static void on_signal(int sig)
{
	(void)sig;
}

static void *sync_sender(void *arg)
{
	(void)arg;
	sync_ret = sendto(sync_fd, "once", 4, MSG_WIND_SYNC,
			  (struct sockaddr *)&sync_to, sizeof(sync_to));
	sync_errno = errno;
	return NULL;
}

TEST(sync_send_interrupted_under_sa_restart_is_eintr_and_delivered_once)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	char buf[16];
	pthread_t th;
	int rx, n = 0, i;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, wind_topo_setup(2));
	rx = wind_bound_socket(wind_ns(1), 7000, NULL);
	ASSERT_GE(rx, 0);
	sync_fd = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(sync_fd, 0);
	wind_sin(&sync_to, wind_node_addr(1), 7000);
	ASSERT_EQ(5, sendto(sync_fd, "first", 5, MSG_WIND_SYNC,
			    (struct sockaddr *)&sync_to, sizeof(sync_to)));
	ASSERT_EQ(5, recv(rx, buf, sizeof(buf), 0));
	/* the ACK cannot come while the sender's link drops everything */
	ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem loss 100%%",
			      wind_ns(0)));
	ASSERT_EQ(0, pthread_create(&th, NULL, sync_sender, NULL));
	usleep(300000);
	pthread_kill(th, SIGUSR1);
	usleep(300000);
	ASSERT_EQ(0, wind_run("tc -n %s qdisc del dev eth0 root", wind_ns(0)));
	pthread_join(th, NULL);
	EXPECT_EQ(-1, sync_ret);
	EXPECT_EQ(EINTR, sync_errno);
	/* still queued: it arrives, once */
	for (i = 0; i < 50 && n < 2; i++) {
		if (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) == 4)
			n++;
		else
			usleep(100000);
	}
	EXPECT_EQ(1, n);
	close(sync_fd);
	close(rx);
	wind_topo_teardown();
}

static volatile int alarmed;

static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

TEST(close_gives_up_on_a_peer_that_never_opens_its_window)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	char buf[1000] = { 0 };
	struct sockaddr_in to;
	int tx, rx, i, rb = 4096, queued = 0;
	long unreach0, got = 0;
	struct timespec t0, t1;
	ssize_t n;

	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, wind_topo_setup(2));
	/* the sender gives a silent peer up after about 0.6 s */
	ASSERT_EQ(0, wind_write_file_in(wind_ns(0), "/proc/sys/net/wind/retries", "3"));
	ASSERT_EQ(0, wind_write_file_in(wind_ns(0), "/proc/sys/net/wind/rto_max_ms", "200"));
	rx = wind_bound_socket(wind_ns(1), 7000, NULL);
	ASSERT_GE(rx, 0);
	ASSERT_EQ(0, setsockopt(rx, SOL_SOCKET, SO_RCVBUF, &rb, sizeof(rb)));
	tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(tx, 0);
	wind_sin(&to, wind_node_addr(1), 7000);
	/* fill the receiver, which never reads, until its window is shut
	 * and messages wait in the sender's queue
	 */
	for (i = 0; i < 200; i++) {
		n = sendto(tx, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&to, sizeof(to));
		if (n != sizeof(buf))
			break;
	}
	usleep(500000);
	ASSERT_EQ(0, ioctl(tx, SIOCOUTQ, &queued));
	TH_LOG("%d messages sent, %d bytes still queued", i, queued);
	ASSERT_GT(queued, 0);
	unreach0 = wind_stat(wind_ns(0), "PeersUnreachable");

	alarm(60);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(0, close(tx));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	alarm(0);
	TH_LOG("close() returned after %ld ms", (long)((t1.tv_sec - t0.tv_sec) * 1000 +
						      (t1.tv_nsec - t0.tv_nsec) / 1000000));
	/* it gave the peer up itself: the alarm did not end the wait */
	EXPECT_EQ(0, alarmed);
	EXPECT_EQ(unreach0 + 1, wind_stat(wind_ns(0), "PeersUnreachable"));
	/* what the receiver took is still there, intact */
	while ((n = recv(rx, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		EXPECT_EQ((ssize_t)sizeof(buf), n);
		got++;
	}
	TH_LOG("the receiver holds %ld messages", got);
	EXPECT_GT(got, 0);
	close(rx);
	wind_topo_teardown();
}

TEST(in_order_data_gets_past_a_gone_peers_out_of_order_packets)
{
	struct timeval tv = { 10, 0 };
	struct sockaddr_in dst, to;
	unsigned char pkt[1100];
	struct windhdr *wh = (struct windhdr *)pkt;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	size_t len = sizeof(*wh) + sizeof(*dh) + 1000;
	int rx, raw, tx, i, rb = 4096, inq = -1;
	char buf[200];

	ASSERT_EQ(0, wind_topo_setup(2));
	rx = wind_bound_socket(wind_ns(1), 7000, NULL);
	ASSERT_GE(rx, 0);
	/* a sender (port 6000) that sends seqs 1001..1040 of a stream from
	 * 1000 and goes away: 40 packets wait behind the hole at 1000
	 */
	raw = wind_socket_in(wind_ns(0), SOCK_RAW, IPPROTO_WIND);
	ASSERT_GE(raw, 0);
	wind_sin(&dst, wind_node_addr(1), 0);
	for (i = 1; i <= 40; i++) {
		memset(pkt, 0x5a, sizeof(pkt));
		memset(pkt, 0, sizeof(*wh) + sizeof(*dh));
		wh->source = htons(6000);
		wh->dest = htons(7000);
		wh->version_type = WIND_VERSION << 4 | WIND_PKT_DATA;
		wh->flags = WIND_F_ORDERED;
		wh->window = htons(256);
		wh->src_tag = htonl(0x600d600d);
		wh->seq = htonl(1000 + i);
		wh->oldest = htonl(1000);
		wh->len = htons(len);
		dh->nfrags = htons(1);
		dh->msg_len = htonl(1000);
		wh->check = wind_pkt_csum(wind_node_addr(0), wind_node_addr(1), len, pkt, len);
		ASSERT_EQ((ssize_t)len, sendto(raw, pkt, len, 0, (struct sockaddr *)&dst,
					       sizeof(dst)));
	}
	close(raw);
	usleep(300000);
	ASSERT_EQ(0, ioctl(rx, SIOCINQ, &inq));
	EXPECT_EQ(0, inq);	/* nothing readable: all of it waits */
	/* the buffer shrinks below what they hold */
	ASSERT_EQ(0, setsockopt(rx, SOL_SOCKET, SO_RCVBUF, &rb, sizeof(rb)));

	/* another peer's in-order message must get in */
	tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(tx, 0);
	ASSERT_EQ(0, setsockopt(tx, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)));
	wind_sin(&to, wind_node_addr(1), 7000);
	EXPECT_EQ(7, sendto(tx, "in time", 7, MSG_WIND_SYNC, (struct sockaddr *)&to, sizeof(to)))
		TH_LOG("sync send: %s", strerror(errno));
	EXPECT_EQ(7, recv(rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(0, memcmp(buf, "in time", 7));
	close(tx);
	close(rx);
	wind_topo_teardown();
}

TEST_HARNESS_MAIN
