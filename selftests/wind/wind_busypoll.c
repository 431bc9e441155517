// SPDX-License-Identifier: GPL-2.0
/*
 * Busy polling on Wind sockets, as on UDP: SO_BUSY_POLL reads back, a
 * socket learns the NAPI instance its data arrives on (SO_INCOMING_NAPI_ID,
 * the same one a UDP socket beside it learns), and with SO_BUSY_POLL or
 * net.core.busy_read / busy_poll set, blocking, timed and non-blocking
 * receives and poll() behave as without: exact bytes, a blocked receive
 * wakes, an empty socket says EAGAIN.
 *
 * A veth has a NAPI instance only with GRO on, and hands it only skbs it
 * could aggregate: with TSO on the sending end, none of Wind's.  Both
 * nodes' eth0 run "gro on tso off" here (as the bench's busy-poll row).
 * Behaviour only: how fast a busy-polled receive is goes in make bench.
 */
#define _GNU_SOURCE
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

#ifndef SO_BUSY_POLL
#define SO_BUSY_POLL		46
#endif
#ifndef SO_INCOMING_NAPI_ID
#define SO_INCOMING_NAPI_ID	56
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL	69
#endif

#define WAIT_MS		5000
#define BUSY_US		50

FIXTURE(bp) {
	int tx, rx;			/* Wind: tx in node 0, rx in node 1 */
	int utx, urx;			/* UDP, the same way */
	struct sockaddr_in rx_dst, urx_dst;
	char busy_read[32], busy_poll[32];	/* the sysctls to restore */
};

static int udp_bound(const char *ns, struct sockaddr_in *bound)
{
	socklen_t len = sizeof(*bound);
	struct sockaddr_in sa;
	int fd;

	fd = wind_socket_in(ns, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	wind_sin(&sa, htonl(INADDR_ANY), 0);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)bound, &len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int sockopt_int(int fd, int name)
{
	socklen_t len = sizeof(int);
	int v = -1;

	if (getsockopt(fd, SOL_SOCKET, name, &v, &len))
		return -1;
	return v;
}

static void read_sysctl(const char *path, char *buf, size_t size)
{
	if (wind_read_file_in(NULL, path, buf, size) < 0)
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

FIXTURE_SETUP(bp)
{
	struct sockaddr_in sa;
	int i;

	self->tx = self->rx = self->utx = self->urx = -1;
	read_sysctl("/proc/sys/net/core/busy_read", self->busy_read,
		    sizeof(self->busy_read));
	read_sysctl("/proc/sys/net/core/busy_poll", self->busy_poll,
		    sizeof(self->busy_poll));
	ASSERT_EQ(0, wind_topo_setup(2));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, wind_run("ip netns exec %s ethtool -K eth0 gro on tso off",
				      wind_ns(i)));
	self->tx = wind_bound_socket(wind_ns(0), 0, &sa);
	ASSERT_LE(0, self->tx) TH_LOG("tx socket: %s", strerror(errno));
	self->rx = wind_bound_socket(wind_ns(1), 0, &sa);
	ASSERT_LE(0, self->rx) TH_LOG("rx socket: %s", strerror(errno));
	wind_sin(&self->rx_dst, wind_node_addr(1), ntohs(sa.sin_port));
	self->utx = udp_bound(wind_ns(0), &sa);
	ASSERT_LE(0, self->utx) TH_LOG("udp tx socket: %s", strerror(errno));
	self->urx = udp_bound(wind_ns(1), &sa);
	ASSERT_LE(0, self->urx) TH_LOG("udp rx socket: %s", strerror(errno));
	wind_sin(&self->urx_dst, wind_node_addr(1), ntohs(sa.sin_port));
}

FIXTURE_TEARDOWN(bp)
{
	if (self->busy_read[0])
		wind_write_file_in(NULL, "/proc/sys/net/core/busy_read",
				   self->busy_read);
	if (self->busy_poll[0])
		wind_write_file_in(NULL, "/proc/sys/net/core/busy_poll",
				   self->busy_poll);
	if (self->tx >= 0)
		close(self->tx);
	if (self->rx >= 0)
		close(self->rx);
	if (self->utx >= 0)
		close(self->utx);
	if (self->urx >= 0)
		close(self->urx);
	wind_topo_teardown();
}

static ssize_t send_to(int fd, const void *buf, size_t len,
		       const struct sockaddr_in *to)
{
	return sendto(fd, buf, len, 0, (const struct sockaddr *)to,
		      sizeof(*to));
}

/* wind_recv_wait(), the sender's address optional */
static ssize_t recv_wait(int fd, void *buf, size_t len,
			 struct sockaddr_in *from)
{
	struct sockaddr_in sa;

	return wind_recv_wait(fd, buf, len, from ? from : &sa, WAIT_MS);
}

static int set_rcvtimeo(int fd, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

static int set_busy(int fd, int us)
{
	return setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &us, sizeof(us));
}

TEST_F(bp, options_read_back)
{
	char buf[32];
	int def;

	/* a new socket's SO_BUSY_POLL is net.core.busy_read */
	read_sysctl("/proc/sys/net/core/busy_read", buf, sizeof(buf));
	def = atoi(buf);
	EXPECT_EQ(def, sockopt_int(self->rx, SO_BUSY_POLL));

	ASSERT_EQ(0, set_busy(self->rx, BUSY_US));
	EXPECT_EQ(BUSY_US, sockopt_int(self->rx, SO_BUSY_POLL));
	ASSERT_EQ(0, set_busy(self->rx, 0));
	EXPECT_EQ(0, sockopt_int(self->rx, SO_BUSY_POLL));
	EXPECT_EQ(-1, set_busy(self->rx, -1));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, wind_write_file_in(NULL, "/proc/sys/net/core/busy_read",
					"37"));
	close(self->tx);
	self->tx = wind_bound_socket(wind_ns(0), 0, NULL);
	ASSERT_LE(0, self->tx);
	EXPECT_EQ(37, sockopt_int(self->tx, SO_BUSY_POLL));

	/* SO_PREFER_BUSY_POLL is there too (5.11) */
	def = 1;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_PREFER_BUSY_POLL,
				&def, sizeof(def)));
	EXPECT_EQ(1, sockopt_int(self->rx, SO_PREFER_BUSY_POLL));
}

/*
 * A socket learns its NAPI instance from its data, as UDP does: none
 * before the first message, then the veth's, the same as a UDP socket
 * receiving over the same link, and a connected socket too.
 */
TEST_F(bp, napi_id_marked)
{
	struct sockaddr_in from;
	unsigned int id;
	char buf[64];
	int udp_id;

	EXPECT_EQ(0, sockopt_int(self->rx, SO_INCOMING_NAPI_ID));
	EXPECT_EQ(0, sockopt_int(self->urx, SO_INCOMING_NAPI_ID));

	ASSERT_EQ(32, send_to(self->utx, buf, 32, &self->urx_dst));
	ASSERT_EQ(32, recv_wait(self->urx, buf, sizeof(buf), NULL));
	udp_id = sockopt_int(self->urx, SO_INCOMING_NAPI_ID);
	ASSERT_LT(0, udp_id) TH_LOG("UDP got no NAPI id: is GRO on the veth?");

	wind_fill(buf, 32, 1);
	ASSERT_EQ(32, send_to(self->tx, buf, 32, &self->rx_dst));
	ASSERT_EQ(32, recv_wait(self->rx, buf, sizeof(buf), &from));
	EXPECT_TRUE(wind_fill_ok(buf, 32, 1));
	id = sockopt_int(self->rx, SO_INCOMING_NAPI_ID);
	EXPECT_EQ(udp_id, id);

	/* the other way: the sender learns it from the reply */
	ASSERT_EQ(32, send_to(self->rx, buf, 32, &from));
	ASSERT_EQ(32, recv_wait(self->tx, buf, sizeof(buf), NULL));
	EXPECT_LT(0, sockopt_int(self->tx, SO_INCOMING_NAPI_ID));

	/* a connected socket follows its peer's data as well */
	ASSERT_EQ(0, connect(self->rx, (struct sockaddr *)&from, sizeof(from)));
	ASSERT_EQ(5, send_to(self->tx, "hello", 5, &self->rx_dst));
	ASSERT_EQ(5, recv_wait(self->rx, buf, sizeof(buf), NULL));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	EXPECT_EQ(id, sockopt_int(self->rx, SO_INCOMING_NAPI_ID));
}

/* SO_BUSY_POLL set: blocking receives of every size return exact bytes */
TEST_F_TIMEOUT(bp, busy_recv_exact, 120)
{
	static const size_t sizes[] = { 1, 32, 1400, 8192, 65536 };
	static char buf[65536 + 1];
	unsigned int i, round;

	ASSERT_EQ(0, set_busy(self->rx, BUSY_US));
	ASSERT_EQ(0, set_rcvtimeo(self->rx, WAIT_MS));
	for (round = 0; round < 2; round++) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint32_t seed = round * 100 + i;

			wind_fill(buf, sizes[i], seed);
			ASSERT_EQ((ssize_t)sizes[i],
				  send_to(self->tx, buf, sizes[i],
					  &self->rx_dst));
			memset(buf, 0, sizes[i]);
			ASSERT_EQ((ssize_t)sizes[i],
				  recv(self->rx, buf, sizeof(buf), 0))
				TH_LOG("size %zu: %s", sizes[i],
				       strerror(errno));
			EXPECT_TRUE(wind_fill_ok(buf, sizes[i], seed));
		}
		/* the second round spins on the NAPI the first one found */
		EXPECT_LT(0, sockopt_int(self->rx, SO_INCOMING_NAPI_ID));
	}
}

struct later {
	int fd;
	struct sockaddr_in to;
	int sent;
};

static void *send_later(void *arg)
{
	struct later *l = arg;

	usleep(200 * 1000);	/* let the receiver block first, most likely */
	l->sent = send_to(l->fd, "late", 4, &l->to);
	return NULL;
}

/*
 * net.core.busy_read on: an empty socket still says EAGAIN at once when
 * asked not to block, a timed receive still times out, and a blocked one
 * still wakes for a message that comes after it went to sleep.
 */
TEST_F(bp, busy_read_blocking_and_nonblocking)
{
	struct later l = { .fd = self->tx };
	struct sockaddr_in sa;
	pthread_t th;
	char buf[16];

	ASSERT_EQ(0, wind_write_file_in(NULL, "/proc/sys/net/core/busy_read",
					"50"));
	close(self->rx);
	self->rx = wind_bound_socket(wind_ns(1), 0, &sa);
	ASSERT_LE(0, self->rx);
	wind_sin(&self->rx_dst, wind_node_addr(1), ntohs(sa.sin_port));
	l.to = self->rx_dst;
	ASSERT_EQ(50, sockopt_int(self->rx, SO_BUSY_POLL));

	/* learn the NAPI id, so that the receives below do spin */
	ASSERT_EQ(1, send_to(self->tx, "a", 1, &self->rx_dst));
	ASSERT_EQ(1, recv_wait(self->rx, buf, sizeof(buf), NULL));
	ASSERT_LT(0, sockopt_int(self->rx, SO_INCOMING_NAPI_ID));

	EXPECT_EQ(-1, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);

	ASSERT_EQ(0, set_rcvtimeo(self->rx, 100));
	EXPECT_EQ(-1, recv(self->rx, buf, sizeof(buf), 0));
	EXPECT_EQ(EAGAIN, errno);

	ASSERT_EQ(0, set_rcvtimeo(self->rx, 3 * WAIT_MS));
	ASSERT_EQ(0, pthread_create(&th, NULL, send_later, &l));
	EXPECT_EQ(4, recv(self->rx, buf, sizeof(buf), 0));
	pthread_join(th, NULL);
	EXPECT_EQ(4, l.sent);
	EXPECT_EQ(0, memcmp(buf, "late", 4));
	EXPECT_TRUE(wind_rx_empty(self->rx));
}

/* net.core.busy_poll on: poll() reports an empty socket empty, a full one
 * readable, and wakes for a message that comes later.
 */
TEST_F(bp, busy_poll_poll)
{
	struct later l = { .fd = self->tx, .to = self->rx_dst };
	pthread_t th;
	char buf[16];

	ASSERT_EQ(0, wind_write_file_in(NULL, "/proc/sys/net/core/busy_poll",
					"50"));
	ASSERT_EQ(0, set_busy(self->rx, BUSY_US));
	ASSERT_EQ(1, send_to(self->tx, "a", 1, &self->rx_dst));
	ASSERT_EQ(1, recv_wait(self->rx, buf, sizeof(buf), NULL));
	ASSERT_LT(0, sockopt_int(self->rx, SO_INCOMING_NAPI_ID));

	EXPECT_EQ(0, wind_poll(self->rx, POLLIN, 0));
	EXPECT_EQ(0, wind_poll(self->rx, POLLIN, 50));

	ASSERT_EQ(3, send_to(self->tx, "bcd", 3, &self->rx_dst));
	EXPECT_TRUE(wind_poll(self->rx, POLLIN, WAIT_MS) & POLLIN);
	EXPECT_EQ(3, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(0, memcmp(buf, "bcd", 3));

	ASSERT_EQ(0, pthread_create(&th, NULL, send_later, &l));
	EXPECT_TRUE(wind_poll(self->rx, POLLIN, 3 * WAIT_MS) & POLLIN);
	pthread_join(th, NULL);
	EXPECT_EQ(4, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(0, memcmp(buf, "late", 4));
}

TEST_HARNESS_MAIN
