// SPDX-License-Identifier: GPL-2.0
/*
 * Wind datagram semantics between two namespaces joined by a veth pair
 * (see lib.c): byte-exact delivery with the sender's address, message
 * boundaries and MSG_TRUNC, connect()/disconnect, poll(), non-blocking
 * and timed receives, ordering, the three message types, and the errors
 * of the send path.  Over IPv4 or IPv6, raw or inside UDP, as the
 * matrix says (lib.h): as itself, -udp, -ipv6.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib.h"
/* The 6.1 harness and its TEST() macros leave parameters unused */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "harness.h"

#define WAIT_MS		5000

FIXTURE(dgram) {
	int tx, rx;			/* tx in node 0, rx in node 1 */
	wind_sa tx_src;			/* how rx sees tx: node 0:port */
	wind_sa rx_dst;			/* where tx sends: node 1:port */
};

/*
 * One topology for the whole program, built before the harness forks a
 * process per test and deleted when the program exits (its children
 * _exit()): one per test took most of the program's time under TCG.
 * Each test opens sockets of its own, and reads counters as differences.
 */
static int topo_err = -1;
static pid_t topo_pid;

static void __attribute__((constructor)) topo_up(void)
{
	topo_pid = getpid();
	topo_err = wind_topo_setup(2);
}

static void __attribute__((destructor)) topo_down(void)
{
	if (getpid() == topo_pid && !topo_err)
		wind_topo_teardown();
}

FIXTURE_SETUP(dgram)
{
	struct sockaddr_in sa;

	self->tx = self->rx = -1;
	ASSERT_EQ(0, topo_err);
	self->tx = wind_bound_socket(wind_ns(0), 0, &sa);
	ASSERT_LE(0, self->tx) TH_LOG("tx socket: %s", strerror(errno));
	wind_sa_set(&self->tx_src, wind_node_addr(0), ntohs(sa.sin_port));
	self->rx = wind_bound_socket(wind_ns(1), 0, &sa);
	ASSERT_LE(0, self->rx) TH_LOG("rx socket: %s", strerror(errno));
	wind_sa_set(&self->rx_dst, wind_node_addr(1), ntohs(sa.sin_port));
	ASSERT_NE(0, wind_sa_port(&self->tx_src));
	ASSERT_NE(0, wind_sa_port(&self->rx_dst));
}

FIXTURE_TEARDOWN(dgram)
{
	if (self->tx >= 0)
		close(self->tx);
	if (self->rx >= 0)
		close(self->rx);
}

/* The length of the address of its family */
static socklen_t sa_len(const wind_sa *sa)
{
	return sa->sa.sa_family == AF_INET6 ? sizeof(sa->sin6) :
					       sizeof(sa->sin);
}

static ssize_t send_to(int fd, const void *buf, size_t len, int flags,
		       const wind_sa *to)
{
	return sendto(fd, buf, len, flags, &to->sa, sa_len(to));
}

/*
 * Wait up to timeout_ms for a message, then take it without blocking.
 * *from gets the sender; *flags_out the message flags.
 */
static ssize_t recv_wait(int fd, void *buf, size_t len, int flags,
			 wind_sa *from, int *flags_out,
			 int timeout_ms)
{
	wind_sa sa;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_name = &sa, .msg_namelen = sizeof(sa),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t r;
	int ev;

	ev = wind_poll(fd, POLLIN, timeout_ms);
	if (ev <= 0) {
		errno = ev ? errno : ETIMEDOUT;
		return -1;
	}
	memset(&sa, 0xa5, sizeof(sa));
	r = recvmsg(fd, &msg, flags | MSG_DONTWAIT);
	if (r < 0)
		return -1;
	if (from) {
		if (msg.msg_namelen != sa_len(&sa))
			memset(from, 0, sizeof(*from));
		else
			*from = sa;
	}
	if (flags_out)
		*flags_out = msg.msg_flags;
	return r;
}

static bool same_addr(const wind_sa *a, const wind_sa *b)
{
	return wind_sa_same(a, b);
}

static const char *fmt_addr(const wind_sa *sa)
{
	static char buf[4][80];
	static int i;
	char *b = buf[i++ & 3], a[INET6_ADDRSTRLEN] = "?";

	if (sa->sa.sa_family == AF_INET6)
		inet_ntop(AF_INET6, &sa->sin6.sin6_addr, a, sizeof(a));
	else
		inet_ntop(AF_INET, &sa->sin.sin_addr, a, sizeof(a));
	snprintf(b, 80, "%d/%s:%u", sa->sa.sa_family, a, wind_sa_port(sa));
	return b;
}

TEST_F(dgram, sizes_byte_exact)
{
	const size_t sizes[] = { 0, 1, 100, 1000, WIND_MAX_SINGLE - 1,
				 WIND_MAX_SINGLE };
	static uint8_t out[2048], in[2048];
	wind_sa from;
	unsigned int i;
	int flags;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t sz = sizes[i];
		ssize_t r;

		wind_fill(out, sz, i + 1);
		memset(in, 0x5a, sizeof(in));
		ASSERT_EQ((ssize_t)sz, send_to(self->tx, out, sz, 0,
					      &self->rx_dst))
			TH_LOG("send %zu: %s", sz, strerror(errno));
		r = recv_wait(self->rx, in, sizeof(in), 0, &from, &flags,
			      WAIT_MS);
		ASSERT_EQ((ssize_t)sz, r)
			TH_LOG("size %zu: got %zd (%s)", sz, r,
			       r < 0 ? strerror(errno) : "");
		EXPECT_EQ(0, memcmp(out, in, sz)) TH_LOG("size %zu differs", sz);
		EXPECT_EQ(0, flags & MSG_TRUNC);
		EXPECT_TRUE(same_addr(&self->tx_src, &from))
			TH_LOG("from %s, expected %s", fmt_addr(&from),
			       fmt_addr(&self->tx_src));
	}
	EXPECT_TRUE(wind_rx_empty(self->rx));
}

/* Messages of several fragments, reassembled into one recv */
TEST_F_TIMEOUT(dgram, multi_fragment, 120)
{
	const size_t sizes[] = { WIND_MAX_SINGLE + 1, 2 * WIND_MAX_SINGLE,
				 2 * WIND_MAX_SINGLE + 1, 9000, 65536,
				 1 << 20 };
	int big = 8 << 20;
	wind_sa from;
	unsigned int i;
	uint8_t *out, *in;

	out = malloc(1 << 20);
	in = malloc((1 << 20) + 1);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUFFORCE, &big,
				sizeof(big)));
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUFFORCE, &big,
				sizeof(big)));

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t sz = sizes[i];
		ssize_t r;
		int flags;

		wind_fill(out, sz, 100 + i);
		memset(in, 0, sz + 1);
		r = send_to(self->tx, out, sz, 0, &self->rx_dst);
		ASSERT_EQ((ssize_t)sz, r)
			TH_LOG("send %zu: %s", sz, strerror(errno));
		r = recv_wait(self->rx, in, sz + 1, 0, &from, &flags, WAIT_MS);
		ASSERT_EQ((ssize_t)sz, r)
			TH_LOG("size %zu: got %zd (%s)", sz, r,
			       r < 0 ? strerror(errno) : "");
		EXPECT_EQ(0, memcmp(out, in, sz)) TH_LOG("size %zu differs", sz);
		EXPECT_EQ(0, flags & MSG_TRUNC);
		EXPECT_TRUE(same_addr(&self->tx_src, &from));
	}
	EXPECT_TRUE(wind_rx_empty(self->rx));
	free(out);
	free(in);
}

TEST_F(dgram, truncation)
{
	uint8_t a[100], b[50], in[200];
	ssize_t r;
	int flags;

	wind_fill(a, sizeof(a), 1);
	wind_fill(b, sizeof(b), 2);
	ASSERT_EQ(100, send_to(self->tx, a, sizeof(a), 0, &self->rx_dst));
	ASSERT_EQ(50, send_to(self->tx, b, sizeof(b), 0, &self->rx_dst));

	/* as UDP: the copied length, MSG_TRUNC, the rest is gone */
	memset(in, 0, sizeof(in));
	r = recv_wait(self->rx, in, 10, 0, NULL, &flags, WAIT_MS);
	ASSERT_EQ(10, r);
	EXPECT_TRUE(flags & MSG_TRUNC);
	EXPECT_EQ(0, memcmp(a, in, 10));
	EXPECT_EQ(0, in[10]);

	r = recv_wait(self->rx, in, sizeof(in), 0, NULL, &flags, WAIT_MS);
	ASSERT_EQ(50, r) TH_LOG("the truncated message was not discarded");
	EXPECT_EQ(0, memcmp(b, in, 50));
	EXPECT_FALSE(flags & MSG_TRUNC);

	/* MSG_TRUNC asked: the real length is returned */
	ASSERT_EQ(100, send_to(self->tx, a, sizeof(a), 0, &self->rx_dst));
	ASSERT_EQ(50, send_to(self->tx, b, sizeof(b), 0, &self->rx_dst));
	memset(in, 0, sizeof(in));
	r = recv_wait(self->rx, in, 10, MSG_TRUNC, NULL, &flags, WAIT_MS);
	EXPECT_EQ(100, r);
	EXPECT_TRUE(flags & MSG_TRUNC);
	EXPECT_EQ(0, memcmp(a, in, 10));
	EXPECT_EQ(0, in[10]);
	r = recv_wait(self->rx, in, sizeof(in), 0, NULL, &flags, WAIT_MS);
	EXPECT_EQ(50, r);
	EXPECT_EQ(0, memcmp(b, in, 50));

	/* a 0-byte buffer takes a whole message too */
	ASSERT_EQ(100, send_to(self->tx, a, sizeof(a), 0, &self->rx_dst));
	r = recv_wait(self->rx, NULL, 0, 0, NULL, &flags, WAIT_MS);
	EXPECT_EQ(0, r);
	EXPECT_TRUE(flags & MSG_TRUNC);
	EXPECT_TRUE(wind_rx_empty(self->rx));
}

TEST_F(dgram, connect_send_disconnect)
{
	wind_sa peer, from;
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	socklen_t len = sizeof(peer);
	uint8_t out[64], in[128];

	wind_fill(out, sizeof(out), 7);
	ASSERT_EQ(0, connect(self->tx, &self->rx_dst.sa,
			     sa_len(&self->rx_dst)))
		TH_LOG("connect: %s", strerror(errno));
	ASSERT_EQ(0, getpeername(self->tx, &peer.sa, &len));
	EXPECT_TRUE(same_addr(&self->rx_dst, &peer))
		TH_LOG("peer %s", fmt_addr(&peer));

	ASSERT_EQ(64, send(self->tx, out, sizeof(out), 0))
		TH_LOG("send: %s", strerror(errno));
	ASSERT_EQ(64, write(self->tx, out, sizeof(out)));
	ASSERT_EQ(64, recv_wait(self->rx, in, sizeof(in), 0, &from, NULL,
				WAIT_MS));
	EXPECT_EQ(0, memcmp(out, in, 64));
	EXPECT_TRUE(same_addr(&self->tx_src, &from));
	ASSERT_EQ(64, recv_wait(self->rx, in, sizeof(in), 0, &from, NULL,
				WAIT_MS));

	/* connect(AF_UNSPEC) forgets the default peer */
	ASSERT_EQ(0, connect(self->tx, &unspec, sizeof(unspec)))
		TH_LOG("disconnect: %s", strerror(errno));
	EXPECT_EQ(-1, send(self->tx, out, sizeof(out), 0));
	EXPECT_EQ(EDESTADDRREQ, errno);
	len = sizeof(peer);
	EXPECT_EQ(-1, getpeername(self->tx, &peer.sa, &len));
	EXPECT_EQ(ENOTCONN, errno);
	/* the socket keeps its port */
	len = sizeof(peer);
	ASSERT_EQ(0, getsockname(self->tx, &peer.sa, &len));
	EXPECT_EQ(wind_sa_port(&self->tx_src), wind_sa_port(&peer));
	/* and sendto still works */
	EXPECT_EQ(64, send_to(self->tx, out, sizeof(out), 0, &self->rx_dst));
	EXPECT_EQ(64, recv_wait(self->rx, in, sizeof(in), 0, &from, NULL,
				WAIT_MS));
	EXPECT_TRUE(wind_rx_empty(self->rx));
}

/* An unbound socket that connects gets an ephemeral port */
TEST_F(dgram, connect_autobinds)
{
	wind_sa sa, from, want;
	socklen_t len = sizeof(sa);
	char in[8];
	int fd;

	fd = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, connect(fd, &self->rx_dst.sa, sa_len(&self->rx_dst)));
	ASSERT_EQ(0, getsockname(fd, &sa.sa, &len));
	EXPECT_NE(0, wind_sa_port(&sa));
	ASSERT_EQ(3, send(fd, "abc", 3, 0));
	ASSERT_EQ(3, recv_wait(self->rx, in, sizeof(in), 0, &from, NULL,
			       WAIT_MS));
	wind_sa_set(&want, wind_node_addr(0), wind_sa_port(&sa));
	EXPECT_TRUE(same_addr(&want, &from)) TH_LOG("from %s",
						     fmt_addr(&from));
	close(fd);
}

TEST_F(dgram, send_errors)
{
	wind_sa sa = self->rx_dst;
	/* shorter than sockaddr_in, or than RFC 2133's sockaddr_in6 */
	socklen_t shorter = sa.sa.sa_family == AF_INET6 ? 23 :
			    sizeof(sa.sin) - 1;
	char buf[16] = "x";

	/* no address, not connected */
	EXPECT_EQ(-1, send(self->tx, buf, sizeof(buf), 0));
	EXPECT_EQ(EDESTADDRREQ, errno);
	EXPECT_EQ(-1, sendto(self->tx, buf, sizeof(buf), 0, NULL, 0));
	EXPECT_EQ(EDESTADDRREQ, errno);

	/* short address */
	EXPECT_EQ(-1, sendto(self->tx, buf, sizeof(buf), 0, &sa.sa, shorter));
	EXPECT_EQ(EINVAL, errno);

	/* wrong family (an AF_INET6 socket takes AF_INET too) */
	sa.sa.sa_family = sa.sa.sa_family == AF_INET6 ? AF_UNIX : AF_INET6;
	EXPECT_EQ(-1, send_to(self->tx, buf, sizeof(buf), 0, &sa));
	EXPECT_EQ(EAFNOSUPPORT, errno);

	/* out-of-band data means nothing here */
	EXPECT_EQ(-1, send_to(self->tx, buf, sizeof(buf), MSG_OOB,
			      &self->rx_dst));
	EXPECT_EQ(EOPNOTSUPP, errno);

	/* none of it was sent */
	EXPECT_EQ(0, wind_poll(self->rx, POLLIN, 200));
}

TEST_F(dgram, poll_events)
{
	int fresh, ev;
	char c = 'x';

	fresh = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_LE(0, fresh);
	ev = wind_poll(fresh, POLLIN | POLLOUT, 0);
	EXPECT_EQ(POLLOUT, ev & (POLLIN | POLLOUT | POLLERR | POLLHUP));
	close(fresh);

	ev = wind_poll(self->rx, POLLIN | POLLOUT, 0);
	EXPECT_EQ(POLLOUT, ev & (POLLIN | POLLOUT | POLLERR | POLLHUP));
	/* nothing arrives unasked */
	EXPECT_EQ(0, wind_poll(self->rx, POLLIN, 100));

	ASSERT_EQ(1, send_to(self->tx, &c, 1, 0, &self->rx_dst));
	ev = wind_poll(self->rx, POLLIN, WAIT_MS);
	EXPECT_TRUE(ev & POLLIN);
	EXPECT_FALSE(ev & POLLERR);
	EXPECT_EQ(1, recv(self->rx, &c, 1, MSG_DONTWAIT));
	EXPECT_EQ(0, wind_poll(self->rx, POLLIN, 0));
	EXPECT_TRUE(wind_poll(self->tx, POLLOUT, 0) & POLLOUT);
}

TEST_F(dgram, nonblocking_recv)
{
	char c;

	EXPECT_EQ(-1, recv(self->rx, &c, 1, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(-1, recvfrom(self->rx, &c, 1, MSG_DONTWAIT, NULL, NULL));
	EXPECT_EQ(EAGAIN, errno);

	ASSERT_EQ(0, fcntl(self->rx, F_SETFL,
			   fcntl(self->rx, F_GETFL) | O_NONBLOCK));
	EXPECT_EQ(-1, recv(self->rx, &c, 1, 0));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(-1, read(self->rx, &c, 1));
	EXPECT_EQ(EAGAIN, errno);

	/* and a message is still received once it is there */
	ASSERT_EQ(1, send_to(self->tx, "z", 1, 0, &self->rx_dst));
	ASSERT_TRUE(wind_poll(self->rx, POLLIN, WAIT_MS) & POLLIN);
	EXPECT_EQ(1, recv(self->rx, &c, 1, 0));
	EXPECT_EQ('z', c);
}

TEST_F(dgram, rcvtimeo)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = 300000 };
	long long t0, dt;
	char c;

	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	t0 = wind_now_ms();
	EXPECT_EQ(-1, recv(self->rx, &c, 1, 0));
	EXPECT_EQ(EAGAIN, errno);
	dt = wind_now_ms() - t0;
	EXPECT_LE(280, dt);
	EXPECT_GE(3000, dt);

	/* a blocked receive wakes up for a message */
	ASSERT_EQ(1, send_to(self->tx, "y", 1, 0, &self->rx_dst));
	tv.tv_sec = 5;
	tv.tv_usec = 0;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	EXPECT_EQ(1, recv(self->rx, &c, 1, 0));
	EXPECT_EQ('y', c);
}

/* Sockets whose local port shows up in /proc/net/wind as seen in ns */
static int proc_wind_has_port(const char *ns, uint16_t port)
{
	static char buf[65536];
	char pat[8], *line, *save = NULL;

	if (wind_read_file_in(ns, wind_test_ipv6() ?
			      "/proc/thread-self/net/wind6" :
			      "/proc/thread-self/net/wind", buf,
			      sizeof(buf)) < 0)
		return -1;
	snprintf(pat, sizeof(pat), ":%04X", port);
	line = strtok_r(buf, "\n", &save);	/* header */
	while ((line = strtok_r(NULL, "\n", &save))) {
		char local[64];

		if (sscanf(line, "%*s %63s", local) == 1 &&
		    strlen(local) > 5 &&
		    !strcmp(local + strlen(local) - 5, pat))
			return 1;
	}
	return 0;
}

TEST_F(dgram, close_with_queued_data)
{
	uint16_t port = wind_sa_port(&self->rx_dst);
	long before, after;
	uint8_t msg[500];
	int i, listed, fd;

	before = wind_stat(wind_ns(1), "InMessages");
	ASSERT_LE(0, before) TH_LOG("no InMessages in /proc/net/wind_stat");
	for (i = 0; i < 20; i++) {
		wind_msg_make(msg, sizeof(msg), i);
		ASSERT_EQ((ssize_t)sizeof(msg),
			  send_to(self->tx, msg, sizeof(msg), 0,
				  &self->rx_dst));
	}
	after = wind_stat_wait(wind_ns(1), "InMessages", before + 20, WAIT_MS);
	EXPECT_EQ(before + 20, after);
	ASSERT_TRUE(wind_poll(self->rx, POLLIN, WAIT_MS) & POLLIN);

	listed = proc_wind_has_port(wind_ns(1), port);
	if (listed < 0)
		TH_LOG("/proc/net/wind missing: listing not checked");
	else
		EXPECT_EQ(1, listed) TH_LOG("port %u not in /proc/net/wind",
					    port);

	ASSERT_EQ(0, close(self->rx));
	self->rx = -1;
	if (listed >= 0)
		EXPECT_EQ(0, proc_wind_has_port(wind_ns(1), port));

	/* the port is free again at once */
	fd = wind_socket_in(wind_ns(1), SOCK_WIND, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, bind(fd, &self->rx_dst.sa, sa_len(&self->rx_dst)))
		TH_LOG("rebind: %s", strerror(errno));
	close(fd);
}

/* Take one report off the error queue, and log it */
static int errqueue_report(struct __test_metadata *_metadata, int fd)
{
	char cbuf[256], data[64];
	wind_sa off;
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr msg = {
		.msg_name = &off, .msg_namelen = sizeof(off),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;

	if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return -1;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		struct sock_extended_err ee;

		if (cm->cmsg_len < CMSG_LEN(sizeof(ee)))
			continue;
		memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
		TH_LOG("error queue: errno %u origin %u info %u data %u, peer %s",
		       ee.ee_errno, ee.ee_origin, ee.ee_info, ee.ee_data,
		       fmt_addr(&off));
	}
	return 0;
}

/*
 * A receiver that reads a message and closes at once: the message was
 * delivered, so its sender must not be told it failed (no POLLERR, no
 * SO_ERROR, nothing on the error queue) and may close without waiting.
 */
TEST_F(dgram, receiver_closes_after_recv)
{
	socklen_t len = sizeof(int);
	int on = 1, err = -1, i;
	long long t0;
	char buf[64];

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_RECVERR, &on,
				sizeof(on)));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(5, send_to(self->tx, "last!", 5,
				     i == 1 ? MSG_WIND_RELIABLE : 0,
				     &self->rx_dst));
		ASSERT_EQ(5, recv_wait(self->rx, buf, sizeof(buf), 0, NULL,
				       NULL, WAIT_MS));
	}
	ASSERT_EQ(0, close(self->rx));
	self->rx = -1;

	/* long enough for retransmissions to meet the closed port */
	EXPECT_EQ(0, wind_poll(self->tx, POLLERR | POLLIN, 3000))
		TH_LOG("the sender was told of a failure");
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(0, err) TH_LOG("SO_ERROR %s", strerror(err));
	EXPECT_EQ(-1, errqueue_report(_metadata, self->tx));
	EXPECT_EQ(EAGAIN, errno);

	t0 = wind_now_ms();
	EXPECT_EQ(0, close(self->tx));
	self->tx = -1;
	EXPECT_GT(1000, wind_now_ms() - t0);
}

/* Async-ordered (the default): every message once, in send order */
TEST_F_TIMEOUT(dgram, in_order, 60)
{
	const int n = 100;
	wind_sa from;
	uint8_t msg[400];
	int i;

	for (i = 0; i < n; i++) {
		size_t len = WIND_MSG_MIN + (i * 37) % 300;

		wind_msg_make(msg, len, i);
		ASSERT_EQ((ssize_t)len, send_to(self->tx, msg, len, 0,
						&self->rx_dst))
			TH_LOG("send %d: %s", i, strerror(errno));
	}
	for (i = 0; i < n; i++) {
		ssize_t r = recv_wait(self->rx, msg, sizeof(msg), 0, &from,
				      NULL, WAIT_MS);

		ASSERT_EQ((ssize_t)(WIND_MSG_MIN + (i * 37) % 300), r)
			TH_LOG("message %d: got %zd", i, r);
		ASSERT_EQ(i, wind_msg_check(msg, r));
		EXPECT_TRUE(same_addr(&self->tx_src, &from));
	}
	EXPECT_TRUE(wind_rx_empty(self->rx));
}

TEST_F(dgram, reliable_and_sync_flags)
{
	uint8_t out[300], in[400];
	wind_sa from;
	int flags[] = { MSG_WIND_RELIABLE, MSG_WIND_SYNC, 0 };
	unsigned int i;
	ssize_t r;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		wind_fill(out, sizeof(out), 40 + i);
		r = send_to(self->tx, out, sizeof(out), flags[i],
			    &self->rx_dst);
		ASSERT_EQ((ssize_t)sizeof(out), r)
			TH_LOG("flags %#x: %s", flags[i], strerror(errno));
		if (flags[i] == MSG_WIND_SYNC)
			/* acknowledged, so already queued at the receiver */
			EXPECT_TRUE(wind_poll(self->rx, POLLIN, 0) & POLLIN);
		r = recv_wait(self->rx, in, sizeof(in), 0, &from, NULL,
			      WAIT_MS);
		ASSERT_EQ((ssize_t)sizeof(out), r);
		EXPECT_EQ(0, memcmp(out, in, sizeof(out)));
		EXPECT_TRUE(same_addr(&self->tx_src, &from));
	}

	/* and through the socket's default type */
	for (i = WIND_ASYNC_ORDERED; i <= WIND_SYNC_ORDERED; i++) {
		int t = i;

		ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_MSGTYPE, &t,
					sizeof(t)));
		wind_fill(out, sizeof(out), 50 + i);
		ASSERT_EQ((ssize_t)sizeof(out),
			  send_to(self->tx, out, sizeof(out), 0,
				  &self->rx_dst));
		r = recv_wait(self->rx, in, sizeof(in), 0, &from, NULL,
			      WAIT_MS);
		ASSERT_EQ((ssize_t)sizeof(out), r);
		EXPECT_EQ(0, memcmp(out, in, sizeof(out)));
	}
	EXPECT_TRUE(wind_rx_empty(self->rx));
}

/*
 * With DELAY_MS of delay on node 0's link, an async send returns at once
 * (the message is still on the wire), a sync send only once the message
 * is at the receiver.  The delay is long so that a stall of the (emulated)
 * machine cannot pass for it.  Needs sch_netem.
 */
#define DELAY_MS	400

TEST_F(dgram, sync_waits_for_ack)
{
	uint8_t out[200], in[300];
	long long t0, dt;
	int t = WIND_SYNC_ORDERED;

	if (wind_run("tc -n %s qdisc add dev eth0 root netem delay %dms",
		     wind_ns(0), DELAY_MS))
		SKIP(return, "netem not available");

	wind_fill(out, sizeof(out), 1);
	t0 = wind_now_ms();
	ASSERT_EQ((ssize_t)sizeof(out), send_to(self->tx, out, sizeof(out), 0,
						&self->rx_dst));
	dt = wind_now_ms() - t0;
	EXPECT_GT(DELAY_MS / 2, dt) TH_LOG("async send took %lld ms", dt);
	EXPECT_EQ(0, wind_poll(self->rx, POLLIN, 0))
		TH_LOG("delivered before the link's delay passed");
	ASSERT_EQ((ssize_t)sizeof(out),
		  recv_wait(self->rx, in, sizeof(in), 0, NULL, NULL, WAIT_MS));

	wind_fill(out, sizeof(out), 2);
	t0 = wind_now_ms();
	ASSERT_EQ((ssize_t)sizeof(out),
		  send_to(self->tx, out, sizeof(out), MSG_WIND_SYNC,
			  &self->rx_dst));
	dt = wind_now_ms() - t0;
	EXPECT_LE(DELAY_MS - 5, dt) TH_LOG("sync send returned after %lld ms",
					   dt);
	EXPECT_TRUE(wind_poll(self->rx, POLLIN, 0) & POLLIN);
	ASSERT_EQ((ssize_t)sizeof(out),
		  recv_wait(self->rx, in, sizeof(in), 0, NULL, NULL, WAIT_MS));
	EXPECT_EQ(0, memcmp(out, in, sizeof(out)));

	/* sync through the socket's default type */
	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_MSGTYPE, &t,
				sizeof(t)));
	t0 = wind_now_ms();
	ASSERT_EQ((ssize_t)sizeof(out), send_to(self->tx, out, sizeof(out), 0,
						&self->rx_dst));
	dt = wind_now_ms() - t0;
	EXPECT_LE(DELAY_MS - 5, dt)
		TH_LOG("default-sync send returned after %lld ms", dt);
	EXPECT_TRUE(wind_poll(self->rx, POLLIN, 0) & POLLIN);
	ASSERT_EQ((ssize_t)sizeof(out),
		  recv_wait(self->rx, in, sizeof(in), 0, NULL, NULL, WAIT_MS));
	/* the later tests share the link */
	wind_run("tc -n %s qdisc del dev eth0 root", wind_ns(0));
}

/*
 * Mixed types on one socket to one peer: every message exactly once, and
 * an ordered message (async- or sync-ordered) never before any message
 * sent earlier, whatever that one's type.
 */
TEST_F_TIMEOUT(dgram, cross_type_order, 60)
{
	enum { N = 60 };
	static const int type_flag[] = { 0, MSG_WIND_RELIABLE, MSG_WIND_SYNC };
	bool seen[N] = { false };
	int type[N], i, got = 0;
	uint8_t msg[256];
	uint32_t x = 12345;

	for (i = 0; i < N; i++) {
		size_t len = WIND_MSG_MIN + i;

		x = x * 1103515245 + 12345;
		type[i] = (x >> 16) % 3;
		wind_msg_make(msg, len, i);
		ASSERT_EQ((ssize_t)len, send_to(self->tx, msg, len,
						type_flag[type[i]],
						&self->rx_dst))
			TH_LOG("send %d type %d: %s", i, type[i],
			       strerror(errno));
	}
	for (got = 0; got < N; got++) {
		ssize_t r = recv_wait(self->rx, msg, sizeof(msg), 0, NULL,
				      NULL, WAIT_MS);
		long seq;

		ASSERT_LT(0, r) TH_LOG("after %d messages: %s", got,
				       strerror(errno));
		seq = wind_msg_check(msg, r);
		ASSERT_LE(0, seq);
		ASSERT_GT(N, seq);
		EXPECT_FALSE(seen[seq]) TH_LOG("message %ld twice", seq);
		seen[seq] = true;
		if (type[seq] != WIND_ASYNC_RELIABLE) {
			for (i = 0; i < seq; i++)
				EXPECT_TRUE(seen[i])
					TH_LOG("ordered %ld before %d (type %d)",
					       seq, i, type[i]);
		}
	}
	EXPECT_TRUE(wind_rx_empty(self->rx));
}

/* One socket, many peers: three senders, order kept per sender */
TEST_F_TIMEOUT(dgram, many_peers, 60)
{
	enum { SENDERS = 3, N = 20 };
	wind_sa src[SENDERS], from;
	struct sockaddr_in sa;
	int fd[SENDERS], next[SENDERS] = { 0 }, s, i;
	uint8_t msg[128];

	for (s = 0; s < SENDERS; s++) {
		fd[s] = wind_bound_socket(wind_ns(0), 0, &sa);
		ASSERT_LE(0, fd[s]);
		wind_sa_set(&src[s], wind_node_addr(0), ntohs(sa.sin_port));
	}
	for (i = 0; i < N; i++)
		for (s = 0; s < SENDERS; s++) {
			wind_msg_make(msg, sizeof(msg), s * 1000 + i);
			ASSERT_EQ((ssize_t)sizeof(msg),
				  send_to(fd[s], msg, sizeof(msg), 0,
					  &self->rx_dst));
		}
	for (i = 0; i < N * SENDERS; i++) {
		ssize_t r = recv_wait(self->rx, msg, sizeof(msg), 0, &from,
				      NULL, WAIT_MS);
		long seq;

		ASSERT_EQ((ssize_t)sizeof(msg), r);
		seq = wind_msg_check(msg, r);
		ASSERT_LE(0, seq);
		s = seq / 1000;
		ASSERT_GT(SENDERS, s);
		EXPECT_TRUE(same_addr(&src[s], &from))
			TH_LOG("message of sender %d from %s", s,
			       fmt_addr(&from));
		EXPECT_EQ(next[s], seq % 1000);
		next[s] = seq % 1000 + 1;
	}
	EXPECT_TRUE(wind_rx_empty(self->rx));
	for (s = 0; s < SENDERS; s++)
		close(fd[s]);
}

/*
 * A peer that acknowledges nothing more (its receiver reads nothing, so
 * its window shuts) fills at most the socket's SO_SNDBUF: it gets EAGAIN,
 * while sends to another peer of the same socket go on, non-blocking and
 * blocking, and the socket holds at most twice SO_SNDBUF.  Once the
 * stuck receiver reads, every message it was sent arrives, in order.
 */
TEST_F_TIMEOUT(dgram, stuck_peer_holds_only_its_share, 120)
{
	enum { LEN = 8192, OTHER = 40 };
	static uint8_t msg[LEN];
	struct timeval tv = { .tv_sec = 10 };
	socklen_t sl = sizeof(int);
	int other, sndbuf, outq, n = 0, i, rcvbuf = 16384, big = 4 << 20;
	bool delayed;
	struct sockaddr_in sa;
	wind_sa other_dst;
	ssize_t r;

	/* no delay left by an earlier test */
	wind_run("tc -n %s qdisc del dev eth0 root 2>/dev/null; true", wind_ns(0));
	other = wind_bound_socket(wind_ns(1), 0, &sa);
	ASSERT_LE(0, other);
	wind_sa_set(&other_dst, wind_node_addr(1), ntohs(sa.sin_port));
	/* the other's kernel takes the whole burst below unread */
	ASSERT_EQ(0, setsockopt(other, SOL_SOCKET, SO_RCVBUFFORCE, &big,
				sizeof(big)));
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_SNDBUF, &sndbuf, &sl));
	/* the stuck receiver's kernel takes little, then nothing more */
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf)));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDTIMEO, &tv,
				sizeof(tv)));

	/* rx reads nothing: send until the send buffer stays full (POLLOUT
	 * says half full, not too full for a message), three tries 300 ms
	 * apart finding no room */
	for (i = 0; i < 3; ) {
		wind_msg_make(msg, LEN, n);
		r = send_to(self->tx, msg, LEN, MSG_DONTWAIT, &self->rx_dst);
		if (r == LEN) {
			ASSERT_GT(10000, ++n);
			i = 0;
			continue;
		}
		ASSERT_EQ(-1, r);
		ASSERT_EQ(EAGAIN, errno);
		usleep(300000);
		i++;
	}
	TH_LOG("%d messages of %d B to the stuck peer, SO_SNDBUF %d", n, LEN,
	       sndbuf);
	ASSERT_LT(0, n);

	/* the other peer's messages go, the first without waiting; the
	 * rest back to back, more than its share of the buffer, so the
	 * sender waits for the other's acknowledgments (its kernel takes
	 * them unread), 50 ms away, while the stuck peer keeps the buffer
	 * over half full: they must wake it (SO_SNDTIMEO: EAGAIN after 10 s
	 * if nothing does) */
	delayed = !wind_run("tc -n %s qdisc add dev eth0 root netem delay 50ms",
			    wind_ns(0));
	for (i = 0; i < OTHER; i++) {
		wind_msg_make(msg, LEN, 100000 + i);
		r = send_to(self->tx, msg, LEN, i ? 0 : MSG_DONTWAIT, &other_dst);
		ASSERT_EQ(LEN, r)
			TH_LOG("send %d to the other peer: %s", i,
			       strerror(errno));
	}
	for (i = 0; i < OTHER; i++) {
		memset(msg, 0, sizeof(msg));
		r = recv_wait(other, msg, LEN, 0, NULL, NULL, WAIT_MS);
		ASSERT_EQ(LEN, r);
		EXPECT_EQ(100000 + i, wind_msg_check(msg, r));
	}
	if (delayed)
		wind_run("tc -n %s qdisc del dev eth0 root", wind_ns(0));
	ASSERT_EQ(0, ioctl(self->tx, SIOCOUTQ, &outq));
	EXPECT_GE(2 * sndbuf, outq);

	/* the stuck peer, probed meanwhile, may have let in a little more:
	 * fill it again */
	for (;;) {
		wind_msg_make(msg, LEN, n);
		r = send_to(self->tx, msg, LEN, MSG_DONTWAIT, &self->rx_dst);
		if (r != LEN)
			break;
		ASSERT_GT(10000, ++n);
	}
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, ioctl(self->tx, SIOCOUTQ, &outq));
	EXPECT_GE(2 * sndbuf, outq);

	/* it reads: all of it, in order, and it is sent to again */
	for (i = 0; i < n; i++) {
		memset(msg, 0, sizeof(msg));
		r = recv_wait(self->rx, msg, LEN, 0, NULL, NULL, WAIT_MS);
		ASSERT_EQ(LEN, r) TH_LOG("message %d of %d: %s", i, n,
					 strerror(errno));
		ASSERT_EQ(i, wind_msg_check(msg, r));
	}
	wind_msg_make(msg, LEN, n);
	ASSERT_EQ(LEN, send_to(self->tx, msg, LEN, 0, &self->rx_dst));
	r = recv_wait(self->rx, msg, LEN, 0, NULL, NULL, WAIT_MS);
	ASSERT_EQ(LEN, r);
	EXPECT_EQ(n, wind_msg_check(msg, r));
	EXPECT_TRUE(wind_rx_empty(other));
	close(other);
}

/* Two sockets of the same namespace talk over the loopback */
TEST_F(dgram, loopback)
{
	struct sockaddr_in sa;
	wind_sa a_addr, b_addr, from;
	int a, b;
	char in[32];

	a = wind_bound_socket(wind_ns(0), 0, &sa);
	ASSERT_LE(0, a);
	wind_sa_set(&a_addr, htonl(INADDR_ANY), ntohs(sa.sin_port));
	b = wind_bound_socket(wind_ns(0), 0, &sa);
	ASSERT_LE(0, b);
	wind_sa_set(&b_addr, htonl(INADDR_ANY), ntohs(sa.sin_port));
	/* 127.0.0.1, or ::1 */
	if (wind_test_ipv6()) {
		a_addr.sin6.sin6_addr = in6addr_loopback;
		b_addr.sin6.sin6_addr = in6addr_loopback;
	} else {
		a_addr.sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		b_addr.sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	}

	ASSERT_EQ(5, send_to(a, "hello", 5, 0, &b_addr));
	ASSERT_EQ(5, recv_wait(b, in, sizeof(in), 0, &from, NULL, WAIT_MS));
	EXPECT_EQ(0, memcmp("hello", in, 5));
	EXPECT_TRUE(same_addr(&a_addr, &from)) TH_LOG("from %s",
						       fmt_addr(&from));

	/* to itself */
	ASSERT_EQ(4, send_to(a, "self", 4, MSG_WIND_SYNC, &a_addr));
	ASSERT_EQ(4, recv_wait(a, in, sizeof(in), 0, &from, NULL, WAIT_MS));
	EXPECT_EQ(0, memcmp("self", in, 4));
	EXPECT_TRUE(same_addr(&a_addr, &from));
	close(a);
	close(b);
}

TEST_HARNESS_MAIN
