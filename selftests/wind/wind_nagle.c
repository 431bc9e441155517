// SPDX-License-Identifier: GPL-2.0
/*
 * Nagle's rule (wind.rst, "Bundling"): while a small packet to a peer is
 * unacknowledged, the next small messages wait in its bundle for the ACK;
 * WIND_NODELAY (and net.wind.nagle_us 0) turns that off.
 *
 *   node0 (10.77.0.1, tx) ===veth=== node1 (10.77.0.2, rx)
 *
 * No check waits for time.  Where a test looks at what is held, the
 * receiver's ACKs are kept from the sender ("dark": netem loss 100% on
 * node1's way out; data still reaches node1), the sender's backstop is
 * as long as it goes (nagle_us 60 s) and its retransmission timeout far
 * (rto_min_ms 5000: no timeout cuts its window), so that only what the
 * test does releases a held message: the ACK a reply from node1 carries
 * once the ACKs may pass again, WIND_NODELAY, a sync send, close().
 * What is held and in flight is read from WIND_PEER_INFO (wpi_unsent,
 * wpi_in_flight); how the messages left from the namespace's counters
 * (OutBundles, OutBundled, OutPackets), read as differences.  Every
 * message carries its index and a checksum (wind_msg_make) and is
 * compared byte for byte with what was sent.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib.h"
/* The 6.1 harness and its TEST() macros leave parameters unused */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "harness.h"

#define PORT		7950
#define MSG_LEN		64
#define WAIT_MS		30000		/* no message at all: a hang */
#define BUF		(4 << 20)
#define NAGLE_LONG	"60000000"	/* nagle_us: the longest backstop */

FIXTURE(nagle) {
	int tx, rx;
	wind_sa to, from;		/* rx's address, tx's */
};

FIXTURE_SETUP(nagle)
{
	struct sockaddr_in bound;
	int buf = BUF;

	self->tx = self->rx = -1;
	ASSERT_EQ(0, wind_topo_setup(2));
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_LE(0, self->rx) TH_LOG("rx socket: %s", strerror(errno));
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUF, &buf,
				sizeof(buf)));
	self->tx = wind_bound_socket(wind_ns(0), 0, &bound);
	ASSERT_LE(0, self->tx) TH_LOG("tx socket: %s", strerror(errno));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUF, &buf,
				sizeof(buf)));
	wind_sa_set(&self->to, wind_node_addr(1), PORT);
	wind_sa_set(&self->from, wind_node_addr(0), ntohs(bound.sin_port));
}

FIXTURE_TEARDOWN(nagle)
{
	if (self->tx >= 0)
		close(self->tx);
	if (self->rx >= 0)
		close(self->rx);
	wind_topo_teardown();
}

static long in_flight(int fd, const wind_sa *to)
{
	struct wind_peer_info pi;

	return wind_sa_peer_info(fd, to, &pi) ? -1 : (long)pi.wpi_in_flight;
}

static int sysctl_set(int node, const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/net/wind/%s", name);
	return wind_write_file_in(wind_ns(node), path, val);
}

static int nodelay(int fd, int val)
{
	return setsockopt(fd, SOL_WIND, WIND_NODELAY, &val, sizeof(val));
}

/* Data packets node0 sent for the first time: OutPackets less its ACKs
 * and retransmissions (tail loss probes included), read again until no
 * packet left between the reads
 */
static long first_sends(void)
{
	long p, d;

	do {
		p = wind_stat(wind_ns(0), "OutPackets");
		d = p - wind_stat(wind_ns(0), "OutAcks") -
		    wind_stat(wind_ns(0), "OutRetransmits");
	} while (p != wind_stat(wind_ns(0), "OutPackets"));
	return d;
}

/* Keep node1's packets (its ACKs) from node0, or let them pass again */
static int dark(bool on)
{
	if (on)
		return wind_run("tc -n %s qdisc replace dev eth0 root netem loss 100%%",
				wind_ns(1));
	return wind_run("tc -n %s qdisc del dev eth0 root", wind_ns(1));
}

/*
 * Receive messages @first .. @first + @n - 1 of MSG_LEN bytes (those in
 * @lens, when given, of lens[i - first]), all ordered: each exactly once,
 * byte for byte, in send order.  Returns the faults found, saying the
 * first.
 */
static int recv_in_order(int fd, unsigned int first, unsigned int n,
			 const size_t *lens)
{
	static char buf[8192], want[8192];
	unsigned int i, bad = 0;

	for (i = first; i < first + n; i++) {
		size_t len = lens ? lens[i - first] : MSG_LEN;
		ssize_t r;

		if (wind_poll(fd, POLLIN, WAIT_MS) <= 0) {
			printf("# message %u of %u..%u: none came\n", i, first,
			       first + n - 1);
			return bad + 1;
		}
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		wind_msg_make(want, len, i);
		if (r != (ssize_t)len || memcmp(buf, want, len)) {
			if (!bad++)
				printf("# message %u: %zd bytes (index %ld), want %zu of index %u\n",
				       i, r, r > 0 ? wind_msg_check(buf, r) : -1,
				       len, i);
		}
	}
	return bad;
}

/* A sync message, received: the sender has an RTT sample, the peer's
 * window, and nothing in flight.
 */
static void learn(struct __test_metadata *_metadata,
		  FIXTURE_DATA(nagle) *self, unsigned int i)
{
	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, MSG_WIND_SYNC))
		TH_LOG("sync send: %s", strerror(errno));
	ASSERT_EQ(0, recv_in_order(self->rx, i, 1, NULL));
	ASSERT_EQ(0, in_flight(self->tx, &self->to));
}

/* Long holds, no retransmission timeout in the test's time (header) */
static void hold_long(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, sysctl_set(0, "nagle_us", NAGLE_LONG));
	ASSERT_EQ(0, sysctl_set(0, "rto_min_ms", "5000"));
	ASSERT_EQ(0, sysctl_set(0, "rto_max_ms", "10000"));
}

/* ACKs pass again; a reply from node1 carries its ACK to node0 */
static void light(struct __test_metadata *_metadata,
		  FIXTURE_DATA(nagle) *self)
{
	struct sockaddr_in src;
	char buf[64];

	ASSERT_EQ(0, dark(false));
	ASSERT_EQ(0, wind_msg_send(self->rx, &self->from, 0, 16, 0));
	EXPECT_EQ(16, wind_recv_wait(self->tx, buf, sizeof(buf), &src,
				     WAIT_MS));
}

/* WIND_NODELAY: off by default, 0 and 1 only, an int's room at least;
 * net.wind.nagle_us: 200 by default, 0..60 s.
 */
TEST_F(nagle, option)
{
	int val = -1, one = 1, two = 2;
	socklen_t len = sizeof(val);
	char buf[32];

	ASSERT_EQ(0, getsockopt(self->tx, SOL_WIND, WIND_NODELAY, &val, &len));
	EXPECT_EQ(0, val);
	EXPECT_EQ(sizeof(int), len);
	ASSERT_EQ(0, nodelay(self->tx, 1));
	len = sizeof(val);
	ASSERT_EQ(0, getsockopt(self->tx, SOL_WIND, WIND_NODELAY, &val, &len));
	EXPECT_EQ(1, val);
	ASSERT_EQ(0, nodelay(self->tx, 0));
	len = sizeof(val);
	ASSERT_EQ(0, getsockopt(self->tx, SOL_WIND, WIND_NODELAY, &val, &len));
	EXPECT_EQ(0, val);

	/* refused, and nothing changed */
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_WIND, WIND_NODELAY, &two,
				 sizeof(two)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, nodelay(self->tx, -1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_WIND, WIND_NODELAY, &one, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_WIND, WIND_NODELAY, &one, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_WIND, WIND_NODELAY, (void *)4,
				 sizeof(int)));
	EXPECT_EQ(EFAULT, errno);
	len = sizeof(val);
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_WIND, WIND_NODELAY, (void *)4,
				 &len));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_WIND, WIND_NODELAY, &val,
				 (socklen_t *)4));
	EXPECT_EQ(EFAULT, errno);
	len = -1;
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_WIND, WIND_NODELAY, &val, &len));
	EXPECT_EQ(EINVAL, errno);
	len = sizeof(val);
	ASSERT_EQ(0, getsockopt(self->tx, SOL_WIND, WIND_NODELAY, &val, &len));
	EXPECT_EQ(0, val);

	ASSERT_LT(0, wind_read_file_in(wind_ns(0), "/proc/sys/net/wind/nagle_us",
				       buf, sizeof(buf)));
	EXPECT_EQ(200, atoi(buf));
	EXPECT_EQ(0, sysctl_set(0, "nagle_us", "0"));
	EXPECT_EQ(0, sysctl_set(0, "nagle_us", NAGLE_LONG));
	EXPECT_EQ(-1, sysctl_set(0, "nagle_us", "60000001"));
	EXPECT_EQ(-1, sysctl_set(0, "nagle_us", "-1"));
	ASSERT_LT(0, wind_read_file_in(wind_ns(0), "/proc/sys/net/wind/nagle_us",
				       buf, sizeof(buf)));
	EXPECT_EQ(60000000, atoi(buf));
}

/* With a small packet unacknowledged, the next small messages wait; the
 * ACK (here carried by a reply) sends them, as one bundle, in order.
 */
TEST_F(nagle, held_until_ack)
{
	long ob0, obd0, sent0;
	unsigned int i;

	hold_long(_metadata);
	learn(_metadata, self, 0);
	ob0 = wind_stat(wind_ns(0), "OutBundles");
	obd0 = wind_stat(wind_ns(0), "OutBundled");
	sent0 = first_sends();
	ASSERT_EQ(0, dark(true));
	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 1, MSG_LEN, 0));
	/* nothing small before it in flight: it left at once */
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(1, in_flight(self->tx, &self->to));
	for (i = 2; i < 10; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, 0));
	EXPECT_EQ(8, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(1, in_flight(self->tx, &self->to));
	EXPECT_EQ(1, first_sends() - sent0);
	light(_metadata, self);
	EXPECT_EQ(0, recv_in_order(self->rx, 1, 9, NULL));
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(1, wind_stat(wind_ns(0), "OutBundles") - ob0);
	EXPECT_EQ(8, wind_stat(wind_ns(0), "OutBundled") - obd0);
	EXPECT_EQ(2, first_sends() - sent0);
}

/* A message behind a bulk stream's full packets, or with nothing small in
 * flight (a ping-pong: each reply carries the ACK of the request), is
 * never held.
 */
TEST_F(nagle, full_packets_hold_nothing)
{
	static const size_t lens[] = { 3000, MSG_LEN, MSG_LEN };
	struct sockaddr_in src;
	char buf[4096];
	unsigned int i;

	hold_long(_metadata);
	ASSERT_EQ(0, sysctl_set(1, "nagle_us", NAGLE_LONG));
	learn(_metadata, self, 0);
	ASSERT_EQ(0, dark(true));
	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 1, 3000, 0));
	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 2, MSG_LEN, 0));
	/* the second small one waits for the first's ACK */
	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 3, MSG_LEN, 0));
	EXPECT_EQ(1, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(4, in_flight(self->tx, &self->to));
	light(_metadata, self);
	EXPECT_EQ(0, recv_in_order(self->rx, 1, 3, lens));

	/* the third may be unacknowledged still: a sync send waits for it */
	learn(_metadata, self, 4);
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 100 + i, 32, 0));
		EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to)) TH_LOG("ping %u", i);
		ASSERT_EQ(32, wind_recv_wait(self->rx, buf, sizeof(buf), &src,
					     WAIT_MS));
		EXPECT_EQ(100 + i, wind_msg_check(buf, 32));
		ASSERT_EQ(0, wind_msg_send(self->rx, &self->from, 200 + i, 32, 0));
		EXPECT_EQ(0, wind_sa_unsent(self->rx, &self->from)) TH_LOG("pong %u", i);
		ASSERT_EQ(32, wind_recv_wait(self->tx, buf, sizeof(buf), &src,
					     WAIT_MS));
		EXPECT_EQ(200 + i, wind_msg_check(buf, 32));
	}
}

/* Each message alone, at once, with the ACKs kept away: the first
 * sends of node0 are the messages, none bundled
 */
static void each_alone(struct __test_metadata *_metadata,
		       FIXTURE_DATA(nagle) *self, unsigned int first)
{
	long ob0 = wind_stat(wind_ns(0), "OutBundles"), sent0 = first_sends();
	unsigned int i;

	ASSERT_EQ(0, dark(true));
	for (i = first; i < first + 8; i++) {
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, 0));
		EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to)) TH_LOG("message %u", i);
	}
	EXPECT_EQ(8, in_flight(self->tx, &self->to));
	EXPECT_EQ(8, first_sends() - sent0);
	EXPECT_EQ(0, wind_stat(wind_ns(0), "OutBundles") - ob0);
	light(_metadata, self);
	EXPECT_EQ(0, recv_in_order(self->rx, first, 8, NULL));
}

/* WIND_NODELAY set sends what the rule holds, as one bundle, and every
 * message after it alone; net.wind.nagle_us 0 does the same for every
 * socket of the namespace.
 */
TEST_F(nagle, nodelay)
{
	long ob0, obd0;
	unsigned int i;

	hold_long(_metadata);
	learn(_metadata, self, 0);
	ob0 = wind_stat(wind_ns(0), "OutBundles");
	obd0 = wind_stat(wind_ns(0), "OutBundled");
	ASSERT_EQ(0, dark(true));
	for (i = 1; i < 7; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, 0));
	EXPECT_EQ(5, wind_sa_unsent(self->tx, &self->to));
	ASSERT_EQ(0, nodelay(self->tx, 1));
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(6, in_flight(self->tx, &self->to));
	EXPECT_EQ(1, wind_stat(wind_ns(0), "OutBundles") - ob0);
	EXPECT_EQ(5, wind_stat(wind_ns(0), "OutBundled") - obd0);
	light(_metadata, self);
	EXPECT_EQ(0, recv_in_order(self->rx, 1, 6, NULL));

	each_alone(_metadata, self, 10);
	ASSERT_EQ(0, nodelay(self->tx, 0));
	ASSERT_EQ(0, sysctl_set(0, "nagle_us", "0"));
	each_alone(_metadata, self, 20);
}

/* A sync message is never held: alone behind a small packet in flight,
 * or joining held ones, which leave with it.  Its send times out here
 * (SO_SNDTIMEO: the ACK is kept away) with the message sent.
 */
TEST_F(nagle, sync_never_held)
{
	struct timeval tv = { .tv_usec = 200000 };
	long obd0;
	unsigned int i;

	hold_long(_metadata);
	learn(_metadata, self, 0);
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDTIMEO, &tv,
				sizeof(tv)));
	obd0 = wind_stat(wind_ns(0), "OutBundled");
	ASSERT_EQ(0, dark(true));
	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 1, MSG_LEN, 0));
	EXPECT_EQ(-1, wind_msg_send(self->tx, &self->to, 2, MSG_LEN,
			       MSG_WIND_SYNC));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(2, in_flight(self->tx, &self->to));
	for (i = 3; i < 6; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, 0));
	EXPECT_EQ(3, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(-1, wind_msg_send(self->tx, &self->to, 6, MSG_LEN,
			       MSG_WIND_SYNC));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(6, in_flight(self->tx, &self->to));
	EXPECT_EQ(4, wind_stat(wind_ns(0), "OutBundled") - obd0);
	light(_metadata, self);
	EXPECT_EQ(0, recv_in_order(self->rx, 1, 6, NULL));
}

static void *close_thread(void *arg)
{
	return (void *)(long)close(*(int *)arg);
}

/* close() sends what the rule holds before it waits for the ACKs: the
 * held messages reach node1 while no ACK can come back.
 */
TEST_F(nagle, close_flushes)
{
	pthread_t t;
	void *ret;
	unsigned int i;
	int fd = self->tx;

	hold_long(_metadata);
	learn(_metadata, self, 0);
	ASSERT_EQ(0, dark(true));
	for (i = 1; i < 6; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, 0));
	EXPECT_EQ(4, wind_sa_unsent(self->tx, &self->to));
	self->tx = -1;
	ASSERT_EQ(0, pthread_create(&t, NULL, close_thread, &fd));
	EXPECT_EQ(0, recv_in_order(self->rx, 1, 5, NULL));
	/* the closing socket's ACKs: its close() returns */
	ASSERT_EQ(0, dark(false));
	ASSERT_EQ(0, wind_msg_send(self->rx, &self->from, 0, 16, 0));
	ASSERT_EQ(0, pthread_join(t, &ret));
	EXPECT_EQ(0, (long)ret);
}

/* Many small messages, with real ACKs and a reader meanwhile, some of
 * several packets and some sync among them: all exact and in order.
 */
#define MANY	3000

static size_t many_len(unsigned int i)
{
	if (i % 97 == 96)
		return 3000 + i % 7;
	return 16 + (i * 37) % 700;
}

static int many_flags(unsigned int i)
{
	return i % 250 == 249 ? MSG_WIND_SYNC : 0;
}

struct reader {
	int fd, bad;
};

static void *reader_thread(void *arg)
{
	static size_t lens[MANY];
	struct reader *r = arg;
	unsigned int i;

	for (i = 0; i < MANY; i++)
		lens[i] = many_len(i);
	r->bad = recv_in_order(r->fd, 0, MANY, lens);
	return NULL;
}

TEST_F(nagle, many_in_order)
{
	struct reader r = { .fd = self->rx };
	long ob0 = wind_stat(wind_ns(0), "OutBundles");
	long obd0 = wind_stat(wind_ns(0), "OutBundled");
	long sent0 = first_sends();
	pthread_t t;
	unsigned int i;

	ASSERT_EQ(0, pthread_create(&t, NULL, reader_thread, &r));
	for (i = 0; i < MANY; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, many_len(i),
				      many_flags(i)))
			TH_LOG("send %u: %s", i, strerror(errno));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, r.bad);
	TH_LOG("%u messages in %ld first sends, %ld bundles of %ld", MANY,
	       first_sends() - sent0,
	       wind_stat(wind_ns(0), "OutBundles") - ob0,
	       wind_stat(wind_ns(0), "OutBundled") - obd0);
}

TEST_HARNESS_MAIN
