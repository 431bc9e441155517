// SPDX-License-Identifier: GPL-2.0
/*
 * getsockopt(SOL_WIND, WIND_PEER_INFO): a peer's state for the program.
 *
 *   node0 (10.77.0.1) ===veth, netem on node0's eth0=== node1 (10.77.0.2)
 *
 * Known traffic goes from node0 to node1 and the fields of both ends are
 * checked against it: counts of messages, what is queued while a
 * blackhole holds it, retransmissions under loss, nothing in flight once
 * idle; then the version and length rules and every error.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

#define PORT	7300

static int peer_info(int fd, in_addr_t addr, uint16_t port,
		     struct wind_peer_info *info, socklen_t *len)
{
	struct sockaddr_in sin;

	memset(info, 0, sizeof(*info));
	wind_sin(&sin, addr, port);
	memcpy(&info->wpi_addr, &sin, sizeof(sin));
	return getsockopt(fd, SOL_WIND, WIND_PEER_INFO, info, len);
}

/* Poll until @field of the peer's info reaches @want (the test's timeout
 * bounds it); returns the info last read.
 */
#define WAIT_INFO(fd, addr, port, info, cond) do {			\
		long long _end = wind_now_ms() + 120000;		\
		socklen_t _len = sizeof(info);				\
		while (!peer_info(fd, addr, port, &(info), &_len) &&	\
		       !(cond) && wind_now_ms() < _end) {		\
			usleep(10000);					\
			_len = sizeof(info);				\
		}							\
	} while (0)

static void recv_n(struct __test_metadata *_metadata, int fd, int n,
		   size_t len)
{
	char buf[8192];
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_GT(wind_poll(fd, POLLIN, 120000), 0);
		ASSERT_EQ((ssize_t)len, recv(fd, buf, sizeof(buf), 0));
	}
}

FIXTURE(info) {
	int tx, rx;
	struct sockaddr_in rx_addr, tx_addr;
};

FIXTURE_SETUP(info)
{
	socklen_t alen = sizeof(self->tx_addr);

	ASSERT_EQ(0, wind_topo_setup(2));
	self->tx = wind_bound_socket(wind_ns(0), 0, &self->tx_addr);
	ASSERT_GE(self->tx, 0);
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(self->rx, 0);
	wind_sin(&self->rx_addr, wind_node_addr(1), PORT);
	ASSERT_EQ(0, getsockname(self->tx, (struct sockaddr *)&self->tx_addr,
				 &alen));
}

FIXTURE_TEARDOWN(info)
{
	wind_run("! tc -n %s qdisc show dev eth0 | grep -q netem || tc -n %s qdisc del dev eth0 root",
		 wind_ns(0), wind_ns(0));
	close(self->tx);
	close(self->rx);
	wind_topo_teardown();
}

/* Ten sync messages: both ends count them, nothing is left queued. */
TEST_F(info, idle_after_sync_sends)
{
	struct wind_peer_info ti, ri;
	char buf[1000];
	socklen_t len;
	int i;

	memset(buf, 7, sizeof(buf));
	for (i = 0; i < 10; i++)
		ASSERT_EQ((ssize_t)sizeof(buf),
			  sendto(self->tx, buf, sizeof(buf), MSG_WIND_SYNC,
				 (struct sockaddr *)&self->rx_addr,
				 sizeof(self->rx_addr)));
	recv_n(_metadata, self->rx, 10, sizeof(buf));

	len = sizeof(ti);
	ASSERT_EQ(0, peer_info(self->tx, wind_node_addr(1), PORT, &ti, &len));
	EXPECT_EQ(sizeof(ti), len);
	EXPECT_EQ(WIND_PEER_INFO_VERSION, ti.wpi_version);
	EXPECT_EQ(sizeof(ti), ti.wpi_size);
	/* the address comes back as it went in */
	EXPECT_EQ(AF_INET, ((struct sockaddr_in *)&ti.wpi_addr)->sin_family);
	EXPECT_EQ(htons(PORT), ((struct sockaddr_in *)&ti.wpi_addr)->sin_port);
	EXPECT_EQ(10, ti.wpi_tx_messages);
	EXPECT_LE(10, ti.wpi_tx_packets);
	/* a sync send returned: its message is acknowledged */
	EXPECT_EQ(0, ti.wpi_in_flight);
	EXPECT_EQ(0, ti.wpi_unsent);
	EXPECT_EQ(0, ti.wpi_queued_msgs);
	EXPECT_EQ(0, ti.wpi_queued_bytes);
	EXPECT_EQ(0, ti.wpi_sync_waiters);
	EXPECT_EQ(WIND_PEER_STATUS_IDLE, ti.wpi_state);
	EXPECT_EQ(0, ti.wpi_retries);
	EXPECT_GT(ti.wpi_srtt_us, 0);
	EXPECT_GE(ti.wpi_rto_us, ti.wpi_srtt_us);
	EXPECT_EQ(WIND_MTU - 20 - 32 - 8, ti.wpi_mss);
	EXPECT_GE(ti.wpi_cwnd, 4);
	EXPECT_GT(ti.wpi_snd_wnd, 0);
	EXPECT_NE(0, ti.wpi_local_tag);
	EXPECT_NE(0, ti.wpi_remote_tag);
	EXPECT_LT(ti.wpi_last_active_ms, 120000);

	len = sizeof(ri);
	ASSERT_EQ(0, peer_info(self->rx, wind_node_addr(0),
			       ntohs(self->tx_addr.sin_port), &ri, &len));
	EXPECT_EQ(10, ri.wpi_rx_messages);
	EXPECT_LE(10, ri.wpi_rx_packets);
	EXPECT_EQ(0, ri.wpi_tx_messages);
	EXPECT_EQ(0, ri.wpi_rcv_queued);
	EXPECT_EQ(0, ri.wpi_drops);
	/* each end knows the other's incarnation */
	EXPECT_EQ(ti.wpi_local_tag, ri.wpi_remote_tag);
	EXPECT_EQ(ri.wpi_local_tag, ti.wpi_remote_tag);
}

/* Behind a blackhole, what was sent stays queued and in flight, and the
 * timeouts make the peer RETRYING; once the path heals it drains.
 */
TEST_F(info, queued_behind_blackhole)
{
	struct wind_peer_info ti = {};
	char buf[3000];
	socklen_t len;
	int i;

	memset(buf, 1, sizeof(buf));
	/* a first message makes the peer and its RTT sample */
	ASSERT_EQ(10, sendto(self->tx, buf, 10, MSG_WIND_SYNC,
			     (struct sockaddr *)&self->rx_addr,
			     sizeof(self->rx_addr)));
	recv_n(_metadata, self->rx, 1, 10);
	ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem loss 100%%",
			      wind_ns(0)));
	memset(buf, 1, sizeof(buf));
	for (i = 0; i < 5; i++)
		ASSERT_EQ((ssize_t)sizeof(buf),
			  sendto(self->tx, buf, sizeof(buf), 0,
				 (struct sockaddr *)&self->rx_addr,
				 sizeof(self->rx_addr)));
	len = sizeof(ti);
	ASSERT_EQ(0, peer_info(self->tx, wind_node_addr(1), PORT, &ti, &len));
	EXPECT_EQ(5, ti.wpi_queued_msgs);
	EXPECT_EQ(5 * sizeof(buf), ti.wpi_queued_bytes);
	/* 3000 bytes are 3 packets of mss 1440 */
	EXPECT_EQ(15, ti.wpi_in_flight + ti.wpi_unsent);
	EXPECT_GT(ti.wpi_in_flight, 0);
	EXPECT_EQ(WIND_PEER_STATUS_ACTIVE, ti.wpi_state);
	EXPECT_EQ(6, ti.wpi_tx_messages);

	WAIT_INFO(self->tx, wind_node_addr(1), PORT, ti,
		  ti.wpi_state == WIND_PEER_STATUS_RETRYING);
	EXPECT_EQ(WIND_PEER_STATUS_RETRYING, ti.wpi_state);
	EXPECT_GT(ti.wpi_retries, 0);
	EXPECT_GT(ti.wpi_retransmits, 0);
	EXPECT_EQ(5, ti.wpi_queued_msgs);

	ASSERT_EQ(0, wind_run("tc -n %s qdisc del dev eth0 root", wind_ns(0)));
	recv_n(_metadata, self->rx, 5, sizeof(buf));
	WAIT_INFO(self->tx, wind_node_addr(1), PORT, ti,
		  ti.wpi_state == WIND_PEER_STATUS_IDLE);
	EXPECT_EQ(WIND_PEER_STATUS_IDLE, ti.wpi_state);
	EXPECT_EQ(0, ti.wpi_in_flight);
	EXPECT_EQ(0, ti.wpi_queued_msgs);
	EXPECT_EQ(0, ti.wpi_queued_bytes);
	EXPECT_EQ(0, ti.wpi_retries);
}

/* Under 20% loss the sender retransmits; the receiver sees every message
 * once, and once everything is acknowledged nothing is in flight.
 */
TEST_F(info, retransmits_under_loss)
{
	struct wind_peer_info ti, ri;
	char buf[2000];
	socklen_t len;
	int i;

	ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem loss 20%%",
			      wind_ns(0)));
	memset(buf, 3, sizeof(buf));
	/* in batches of 10, the last of each sync: the receiver reads as
	 * it goes, and the last send returns once everything is acknowledged
	 */
	for (i = 0; i < 200; i++) {
		ASSERT_EQ((ssize_t)sizeof(buf),
			  sendto(self->tx, buf, sizeof(buf),
				 i % 10 == 9 ? MSG_WIND_SYNC : 0,
				 (struct sockaddr *)&self->rx_addr,
				 sizeof(self->rx_addr)));
		if (i % 10 == 9)
			recv_n(_metadata, self->rx, 10, sizeof(buf));
	}

	len = sizeof(ti);
	ASSERT_EQ(0, peer_info(self->tx, wind_node_addr(1), PORT, &ti, &len));
	EXPECT_EQ(200, ti.wpi_tx_messages);
	EXPECT_GT(ti.wpi_retransmits, 0);
	/* 400 packets, each sent once at least */
	EXPECT_GE(ti.wpi_tx_packets, 400 + ti.wpi_retransmits);
	EXPECT_EQ(0, ti.wpi_in_flight);
	EXPECT_EQ(0, ti.wpi_queued_msgs);
	len = sizeof(ri);
	ASSERT_EQ(0, peer_info(self->rx, wind_node_addr(0),
			       ntohs(self->tx_addr.sin_port), &ri, &len));
	EXPECT_EQ(200, ri.wpi_rx_messages);
	TH_LOG("%llu retransmissions, %llu duplicates at the receiver",
	       (unsigned long long)ti.wpi_retransmits,
	       (unsigned long long)ri.wpi_duplicates);
}

/* The kernel copies min(len, its size) and says how much. */
TEST_F(info, version_and_length)
{
	unsigned char big[sizeof(struct wind_peer_info) + 64];
	struct wind_peer_info ti;
	struct sockaddr_in sin;
	socklen_t len;
	size_t i;

	ASSERT_EQ(3, sendto(self->tx, "abc", 3, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->rx_addr,
			    sizeof(self->rx_addr)));

	/* the least: address, version, size */
	len = WIND_PEER_INFO_MIN_LEN;
	memset(&ti, 0xaa, sizeof(ti));
	wind_sin(&sin, wind_node_addr(1), PORT);
	memcpy(&ti.wpi_addr, &sin, sizeof(sin));
	ASSERT_EQ(0, getsockopt(self->tx, SOL_WIND, WIND_PEER_INFO, &ti, &len));
	EXPECT_EQ(WIND_PEER_INFO_MIN_LEN, len);
	EXPECT_EQ(WIND_PEER_INFO_VERSION, ti.wpi_version);
	EXPECT_EQ(sizeof(ti), ti.wpi_size);
	/* nothing past len was written */
	EXPECT_EQ(0xaaaaaaaa, ti.wpi_state);

	/* a bigger buffer (a newer program): sizeof, the rest untouched */
	memset(big, 0x55, sizeof(big));
	memcpy(big, &sin, sizeof(sin));
	len = sizeof(big);
	ASSERT_EQ(0, getsockopt(self->tx, SOL_WIND, WIND_PEER_INFO, big, &len));
	EXPECT_EQ(sizeof(struct wind_peer_info), len);
	for (i = sizeof(struct wind_peer_info); i < sizeof(big); i++)
		ASSERT_EQ(0x55, big[i]);
	memcpy(&ti, big, sizeof(ti));
	EXPECT_EQ(1, ti.wpi_tx_messages);

	/* short */
	len = WIND_PEER_INFO_MIN_LEN - 1;
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_WIND, WIND_PEER_INFO, big, &len));
	EXPECT_EQ(EINVAL, errno);
	len = 0;
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_WIND, WIND_PEER_INFO, big, &len));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(info, errors)
{
	struct wind_peer_info ti;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ti.wpi_addr;
	socklen_t len;

	ASSERT_EQ(3, sendto(self->tx, "abc", 3, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->rx_addr,
			    sizeof(self->rx_addr)));
	/* no state for that port, nor for that address */
	len = sizeof(ti);
	EXPECT_EQ(-1, peer_info(self->tx, wind_node_addr(1), PORT + 1, &ti, &len));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, peer_info(self->tx, wind_node_addr(2), PORT, &ti, &len));
	EXPECT_EQ(ENOENT, errno);
	/* a socket that never talked to anyone */
	EXPECT_EQ(-1, peer_info(self->rx, wind_node_addr(1), PORT, &ti, &len));
	EXPECT_EQ(ENOENT, errno);
	/* not IPv4 */
	memset(&ti, 0, sizeof(ti));
	sin6->sin6_family = AF_INET6;
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_WIND, WIND_PEER_INFO, &ti, &len));
	EXPECT_EQ(EAFNOSUPPORT, errno);
	/* bad pointers */
	len = sizeof(ti);
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_WIND, WIND_PEER_INFO, NULL, &len));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, getsockopt(self->tx, SOL_WIND, WIND_PEER_INFO, &ti,
				 (socklen_t *)8));
	EXPECT_EQ(EFAULT, errno);
	/* still fine afterwards */
	len = sizeof(ti);
	EXPECT_EQ(0, peer_info(self->tx, wind_node_addr(1), PORT, &ti, &len));
	/* setsockopt does not know it */
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_WIND, WIND_PEER_INFO, &ti,
				 sizeof(ti)));
	EXPECT_EQ(ENOPROTOOPT, errno);
}

TEST_HARNESS_MAIN
