// SPDX-License-Identifier: GPL-2.0
/*
 * Failure is never silent: refused, unreachable and restarted peers,
 * messages too large for the receiver, big messages, slow receivers.
 *
 *   node0 (10.77.0.1) ===veth=== node1 (10.77.0.2)
 *
 * A blackhole is netem "loss 100%" on node0's eth0; the retry budget is
 * lowered through net.wind.* in node0 so that failures come quickly.
 */
#include <errno.h>
#include <time.h>
#include <linux/errqueue.h>
#include <netinet/ip.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

#define PORT	7200

FIXTURE(fail) {
	int tx;			/* node0, unbound */
	int rx;			/* node1, bound to PORT */
	wind_sa to;
};

/*
 * A socket's error state, flow control and close, and a 16 MiB message:
 * the same whatever carries the packets (refusals, unreachable peers,
 * restarts and a 1 MiB message run in every form of the matrix)
 */
static const char *const fail_core[] = {
	"pending_async_error_is_returned_once_by_next_send",
	"async_error_read_by_so_error_is_not_returned_again",
	"message_larger_than_receiver_buffer_is_refused",
	"sixteen_mib_message_arrives_intact",
	"slow_receiver_throttles_sender_and_loses_nothing",
	"close_with_linger_zero_discards_at_once",
	"close_flushes_queued_messages",
	NULL
};

FIXTURE_SETUP(fail)
{
	WIND_SKIP_CORE(wind_name_in(_metadata->name, fail_core), _metadata->name);
	ASSERT_EQ(0, wind_topo_setup(2));
	self->tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(self->tx, 0);
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(self->rx, 0);
	wind_sa_set(&self->to, wind_node_addr(1), PORT);
	/* a quick retry budget: 4 retries, RTO at most 250 ms */
	ASSERT_EQ(0, wind_write_file_in(wind_ns(0), "/proc/sys/net/wind/retries", "4"));
	ASSERT_EQ(0, wind_write_file_in(wind_ns(0), "/proc/sys/net/wind/rto_max_ms", "250"));
}

FIXTURE_TEARDOWN(fail)
{
	close(self->tx);
	if (self->rx >= 0)
		close(self->rx);
	wind_topo_teardown();
}

static void blackhole(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem loss 100%%",
			      wind_ns(0)));
}

static int recv_err(int fd, struct sock_extended_err *ee,
		    wind_sa *offender, wind_sa *name)
{
	char cbuf[256];
	struct iovec iov = { .iov_base = cbuf, .iov_len = 0 };
	struct msghdr msg = {
		.msg_name = name, .msg_namelen = sizeof(*name),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;

	if (recvmsg(fd, &msg, MSG_ERRQUEUE) < 0)
		return -errno;
	if (!(msg.msg_flags & MSG_ERRQUEUE))
		return -EINVAL;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (wind_cmsg_is_recverr(c)) {
			size_t n = c->cmsg_len - CMSG_LEN(sizeof(*ee));

			memcpy(ee, CMSG_DATA(c), sizeof(*ee));
			memset(offender, 0, sizeof(*offender));
			memcpy(offender, CMSG_DATA(c) + sizeof(*ee),
			       n < sizeof(*offender) ? n : sizeof(*offender));
			return 0;
		}
	}
	return -ENOMSG;
}

TEST_F(fail, sync_to_closed_port_is_refused)
{
	wind_sa nobody;

	wind_sa_set(&nobody, wind_node_addr(1), PORT + 1);
	EXPECT_EQ(-1, sendto(self->tx, "x", 1, MSG_WIND_SYNC,
			     (struct sockaddr *)&nobody, sizeof(nobody)));
	EXPECT_EQ(ECONNREFUSED, errno);
	/* the socket still works for a live peer */
	EXPECT_EQ(1, sendto(self->tx, "y", 1, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->to, sizeof(self->to)));
}

TEST_F(fail, async_to_closed_port_reaches_error_queue)
{
	struct sock_extended_err ee;
	wind_sa nobody, off, name;
	int one = 1, err;
	socklen_t len = sizeof(err);

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_RECVERR, &one, sizeof(one)));
	wind_sa_set(&nobody, wind_node_addr(1), PORT + 2);
	ASSERT_EQ(1, sendto(self->tx, "x", 1, 0, (struct sockaddr *)&nobody,
			    sizeof(nobody)));
	ASSERT_GT(wind_poll(self->tx, POLLERR, 10000), 0);
	ASSERT_EQ(0, recv_err(self->tx, &ee, &off, &name));
	EXPECT_EQ(ECONNREFUSED, ee.ee_errno);
	EXPECT_EQ(SO_EE_ORIGIN_WIND, ee.ee_origin);
	EXPECT_EQ(1, ee.ee_info);
	EXPECT_EQ(nobody.sa.sa_family, off.sa.sa_family);
	EXPECT_TRUE(wind_sa_same(&nobody, &off));
	EXPECT_EQ(wind_sa_port(&nobody), wind_sa_port(&name));
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(ECONNREFUSED, err);
	/* the queue is empty now */
	EXPECT_EQ(-EAGAIN, recv_err(self->tx, &ee, &off, &name));
}

/* As UDP: after an async message is refused, the next send fails once
 * with the error (sending nothing), the error is no longer pending, and
 * the send after that goes out.
 */
TEST_F(fail, pending_async_error_is_returned_once_by_next_send)
{
	wind_sa nobody;
	char buf[8];
	int err = -1;
	socklen_t len = sizeof(err);

	wind_sa_set(&nobody, wind_node_addr(1), PORT + 3);
	ASSERT_EQ(1, sendto(self->tx, "x", 1, 0, (struct sockaddr *)&nobody,
			    sizeof(nobody)));
	ASSERT_EQ(POLLERR, wind_poll(self->tx, POLLERR, 10000) & POLLERR);
	EXPECT_EQ(-1, sendto(self->tx, "y", 1, 0, (struct sockaddr *)&self->to,
			     sizeof(self->to)));
	EXPECT_EQ(ECONNREFUSED, errno);
	/* reported once: no longer pending, no POLLERR */
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(0, err);
	EXPECT_EQ(0, wind_poll(self->tx, POLLERR, 0) & POLLERR);
	EXPECT_EQ(1, sendto(self->tx, "z", 1, 0, (struct sockaddr *)&self->to,
			    sizeof(self->to)));
	EXPECT_EQ(1, sendto(self->tx, "w", 1, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->to, sizeof(self->to)));
	/* the failed call queued nothing: "z" then "w" arrive, no "y" */
	ASSERT_GT(wind_poll(self->rx, POLLIN, 10000), 0);
	ASSERT_EQ(1, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ('z', buf[0]);
	ASSERT_EQ(1, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ('w', buf[0]);
	EXPECT_EQ(-1, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

/* The same error read through SO_ERROR first is consumed there: the next
 * send succeeds.  A sync send returns a pending error the same way.
 */
TEST_F(fail, async_error_read_by_so_error_is_not_returned_again)
{
	wind_sa nobody;
	int err = -1;
	socklen_t len = sizeof(err);

	wind_sa_set(&nobody, wind_node_addr(1), PORT + 4);
	ASSERT_EQ(1, sendto(self->tx, "x", 1, 0, (struct sockaddr *)&nobody,
			    sizeof(nobody)));
	ASSERT_EQ(POLLERR, wind_poll(self->tx, POLLERR, 10000) & POLLERR);
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(ECONNREFUSED, err);
	EXPECT_EQ(1, sendto(self->tx, "y", 1, 0, (struct sockaddr *)&self->to,
			    sizeof(self->to)));

	ASSERT_EQ(1, sendto(self->tx, "x", 1, 0, (struct sockaddr *)&nobody,
			    sizeof(nobody)));
	ASSERT_EQ(POLLERR, wind_poll(self->tx, POLLERR, 10000) & POLLERR);
	EXPECT_EQ(-1, sendto(self->tx, "z", 1, MSG_WIND_SYNC,
			     (struct sockaddr *)&self->to, sizeof(self->to)));
	EXPECT_EQ(ECONNREFUSED, errno);
	EXPECT_EQ(1, sendto(self->tx, "z", 1, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->to, sizeof(self->to)));
}

/* A peer that never answered: its first RTO is 5 * rto_min_ms (no RTT
 * sample yet), doubling up to rto_max_ms.  With rto_min_ms 20, rto_max_ms
 * 250 and retries 4 (the fixture): 100 + 200 + 250 + 250 + 250 = 1050 ms,
 * after exactly 4 retransmissions (wind(7), "ETIMEDOUT").  Timers never
 * fire early, so the failure cannot come before the bound; the upper
 * check only has room for a loaded host.
 */
TEST_F(fail, fresh_peer_unreachable_after_retries_within_documented_bound)
{
	long rtx0, unreach0, out0, rto0;
	long long t0, dt;

	blackhole(_metadata);
	rtx0 = wind_stat(wind_ns(0), "OutRetransmits");
	rto0 = wind_stat(wind_ns(0), "OutTimeouts");
	unreach0 = wind_stat(wind_ns(0), "PeersUnreachable");
	out0 = wind_stat(wind_ns(0), "OutPackets");
	t0 = wind_now_ms();
	ASSERT_EQ(1, sendto(self->tx, "x", 1, 0, (struct sockaddr *)&self->to,
			    sizeof(self->to)));
	ASSERT_EQ(POLLERR, wind_poll(self->tx, POLLERR, 15000) & POLLERR);
	dt = wind_now_ms() - t0;
	EXPECT_EQ(4, wind_stat(wind_ns(0), "OutRetransmits") - rtx0);
	/* no RTT sample, so no tail loss probe: each resend is a timeout */
	EXPECT_EQ(4, wind_stat(wind_ns(0), "OutTimeouts") - rto0);
	EXPECT_EQ(5, wind_stat(wind_ns(0), "OutPackets") - out0);
	EXPECT_EQ(1, wind_stat(wind_ns(0), "PeersUnreachable") - unreach0);
	EXPECT_EQ(-1, sendto(self->tx, "y", 1, 0, (struct sockaddr *)&self->to,
			     sizeof(self->to)));
	EXPECT_EQ(ETIMEDOUT, errno);
	EXPECT_GE(dt, 1050 - 5);
	EXPECT_LE(dt, 1050 + 4000);
	TH_LOG("fresh peer unreachable after %lld ms (bound 1050 ms)", dt);
}

TEST_F(fail, sync_to_blackhole_times_out_within_bound)
{
	long long t0;

	/* learn the peer first, so the RTO is the measured one */
	ASSERT_EQ(1, sendto(self->tx, "a", 1, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->to, sizeof(self->to)));
	blackhole(_metadata);
	t0 = wind_now_ms();
	EXPECT_EQ(-1, sendto(self->tx, "b", 1, MSG_WIND_SYNC,
			     (struct sockaddr *)&self->to, sizeof(self->to)));
	EXPECT_EQ(ETIMEDOUT, errno);
	/* wind(7): a tail loss probe, then r0 + 4 retries, each at most
	 * 250 ms; plus scheduling slack under TCG
	 */
	EXPECT_LT(wind_now_ms() - t0, (4 + 2) * 250 + 3000);
	EXPECT_GE(wind_stat(wind_ns(0), "PeersUnreachable"), 1);
}

TEST_F(fail, async_to_blackhole_reports_lost_count)
{
	struct sock_extended_err ee;
	wind_sa off, name;
	int one = 1, i, err;
	socklen_t len = sizeof(err);

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_RECVERR, &one, sizeof(one)));
	blackhole(_metadata);
	for (i = 0; i < 5; i++)
		ASSERT_EQ(100, sendto(self->tx, "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
				      100, 0, (struct sockaddr *)&self->to, sizeof(self->to)));
	ASSERT_GT(wind_poll(self->tx, POLLERR, 15000), 0);
	ASSERT_EQ(0, recv_err(self->tx, &ee, &off, &name));
	EXPECT_EQ(ETIMEDOUT, ee.ee_errno);
	EXPECT_EQ(SO_EE_ORIGIN_WIND, ee.ee_origin);
	EXPECT_EQ(5, ee.ee_info);
	EXPECT_TRUE(wind_sa_same(&self->to, &off));
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(ETIMEDOUT, err);
	/* nothing of it reached the receiver */
	EXPECT_EQ(-1, recv(self->rx, &err, sizeof(err), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(fail, restarted_peer_is_detected_and_new_traffic_flows)
{
	char buf[16];

	ASSERT_EQ(5, sendto(self->tx, "first", 5, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->to, sizeof(self->to)));
	ASSERT_EQ(5, recv(self->rx, buf, sizeof(buf), 0));
	/* the receiving process restarts on the same port */
	close(self->rx);
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(self->rx, 0);
	/* queued before the sender learned of it: reset */
	EXPECT_EQ(-1, sendto(self->tx, "stale", 5, MSG_WIND_SYNC,
			     (struct sockaddr *)&self->to, sizeof(self->to)));
	EXPECT_EQ(ECONNRESET, errno);
	/* then new traffic flows to the new incarnation, exactly once */
	ASSERT_EQ(5, sendto(self->tx, "fresh", 5, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->to, sizeof(self->to)));
	ASSERT_EQ(5, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(0, memcmp(buf, "fresh", 5));
	EXPECT_EQ(-1, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_GE(wind_stat(wind_ns(0), "PeersReset"), 1);
}

TEST_F(fail, message_larger_than_receiver_buffer_is_refused)
{
	size_t big = 300000;
	char *buf = malloc(big);
	int val = 100000, sval = 4 << 20;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUF, &val, sizeof(val)));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUFFORCE, &sval, sizeof(sval)));
	wind_fill(buf, big, 1);
	EXPECT_EQ(-1, sendto(self->tx, buf, big, MSG_WIND_SYNC,
			     (struct sockaddr *)&self->to, sizeof(self->to)));
	EXPECT_EQ(EMSGSIZE, errno);
	/* and the stream goes on behind it */
	ASSERT_EQ(1000, sendto(self->tx, buf, 1000, MSG_WIND_SYNC,
			       (struct sockaddr *)&self->to, sizeof(self->to)));
	ASSERT_EQ(1000, recv(self->rx, buf, big, MSG_DONTWAIT));
	EXPECT_TRUE(wind_fill_ok(buf, 1000, 1));
	EXPECT_GE(wind_stat(wind_ns(1), "InRefused"), 1);
	free(buf);
}

static void big_message(struct __test_metadata *_metadata,
			FIXTURE_DATA(fail) *self, size_t len, int flags)
{
	char *buf = malloc(len + 1), *out = malloc(len + 1);
	int val = 8 * len + (1 << 20);

	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUFFORCE, &val, sizeof(val)));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUFFORCE, &val, sizeof(val)));
	wind_fill(buf, len, (uint32_t)len);
	ASSERT_EQ((ssize_t)len, sendto(self->tx, buf, len, flags,
				       (struct sockaddr *)&self->to, sizeof(self->to)));
	ASSERT_GT(wind_poll(self->rx, POLLIN, 300000), 0);
	ASSERT_EQ((ssize_t)len, recv(self->rx, out, len + 1, 0));
	EXPECT_EQ(0, memcmp(buf, out, len));
	free(buf);
	free(out);
}

TEST_F_TIMEOUT(fail, one_mib_sync_message_arrives_intact, 600)
{
	big_message(_metadata, self, 1 << 20, MSG_WIND_SYNC);
}

TEST_F_TIMEOUT(fail, sixteen_mib_message_arrives_intact, 900)
{
	ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem loss 1%%",
			      wind_ns(0)));
	big_message(_metadata, self, 16 << 20, 0);
}

struct slow_sender {
	int fd;
	wind_sa to;
	int sent;		/* written by the sender, read after join */
	volatile int progress;
};

static void *send_burst(void *arg)
{
	struct slow_sender *s = arg;
	char buf[1000];
	int i;

	for (i = 0; i < 600; i++) {
		wind_msg_make(buf, sizeof(buf), i);
		if (sendto(s->fd, buf, sizeof(buf), 0, (struct sockaddr *)&s->to,
			   sizeof(s->to)) != sizeof(buf))
			break;
		s->progress = i + 1;
	}
	s->sent = i;
	return NULL;
}

TEST_F_TIMEOUT(fail, slow_receiver_throttles_sender_and_loses_nothing, 300)
{
	struct slow_sender s = { .fd = self->tx, .to = self->to };
	char buf[2000];
	pthread_t th;
	int i, before;

	ASSERT_EQ(0, pthread_create(&th, NULL, send_burst, &s));
	/* the receiver does not read for a while: the sender must block */
	for (i = 0; i < 50 && s.progress < 600; i++)
		usleep(100000);
	before = s.progress;
	EXPECT_LT(before, 600);
	for (i = 0; i < 600; i++) {
		ASSERT_GT(wind_poll(self->rx, POLLIN, 60000), 0);
		ASSERT_EQ(1000, recv(self->rx, buf, sizeof(buf), 0));
		ASSERT_EQ(i, wind_msg_check(buf, 1000));
	}
	pthread_join(th, NULL);
	EXPECT_EQ(600, s.sent);
	TH_LOG("sender blocked after %d of 600 messages", before);
}

TEST_F(fail, close_with_linger_zero_discards_at_once)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	long long t0;
	int i;

	blackhole(_metadata);
	for (i = 0; i < 10; i++)
		ASSERT_EQ(1, sendto(self->tx, "x", 1, 0, (struct sockaddr *)&self->to,
				    sizeof(self->to)));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	t0 = wind_now_ms();
	EXPECT_EQ(0, close(self->tx));
	EXPECT_LT(wind_now_ms() - t0, 1000);
	self->tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
}

TEST_F(fail, close_flushes_queued_messages)
{
	char buf[8];
	int i;

	for (i = 0; i < 20; i++)
		ASSERT_EQ(1, sendto(self->tx, "z", 1, 0, (struct sockaddr *)&self->to,
				    sizeof(self->to)));
	EXPECT_EQ(0, close(self->tx));
	/* everything was acknowledged before close returned */
	for (i = 0; i < 20; i++)
		ASSERT_EQ(1, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	self->tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
}

TEST_HARNESS_MAIN
