// SPDX-License-Identifier: GPL-2.0
/*
 * libwind over a real Wind between two namespaces: every helper of
 * userspace/lib (see libwind(3)) against what the socket API says it
 * stands for, over IPv4 and, on AF_INET6 sockets, over IPv6 (fd77::1 and
 * fd77::2 added to the two nodes) and to IPv4 peers of a dual-stack
 * socket.  The library's sources are compiled in here (the selftest
 * Makefile links no extra library); wind_install.sh links a program
 * against the installed libwind.so instead.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/errqueue.h>

#include "../../userspace/lib/socket.c"
#include "../../userspace/lib/diff.c"
#include "../wind/lib.h"
/* The 6.1 harness and its TEST() macros leave parameters unused */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../wind/harness.h"

#define PORT_RX		7600
#define PAGE		4096

static int sockopt_int(int fd, int level, int name)
{
	socklen_t len = sizeof(int);
	int v = -12345;

	if (getsockopt(fd, level, name, &v, &len) < 0)
		return -errno;
	return v;
}

/* wind_socket() in namespace ns */
static int lib_socket_in(const char *ns, int flags)
{
	int fd;

	if (wind_netns_enter(ns) < 0)
		return -1;
	fd = wind_socket(flags);
	wind_netns_leave();
	return fd;
}

TEST(socket_flags)
{
	int fd;

	fd = wind_socket(0);
	ASSERT_LE(0, fd) TH_LOG("wind_socket: %s", strerror(errno));
	EXPECT_EQ(SOCK_WIND, sockopt_int(fd, SOL_SOCKET, SO_TYPE));
	EXPECT_EQ(IPPROTO_WIND, sockopt_int(fd, SOL_SOCKET, SO_PROTOCOL));
	EXPECT_EQ(0, fcntl(fd, F_GETFL) & O_NONBLOCK);
	EXPECT_EQ(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(0, wind_port(fd));		/* not bound yet */
	close(fd);

	fd = wind_socket(SOCK_NONBLOCK | SOCK_CLOEXEC | WIND_SOCK_BIND);
	ASSERT_LE(0, fd);
	EXPECT_NE(0, fcntl(fd, F_GETFL) & O_NONBLOCK);
	EXPECT_NE(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_LT(0, wind_port(fd));		/* an ephemeral port */
	close(fd);

	errno = 0;
	EXPECT_EQ(-1, wind_socket(0x100));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_port(-1));
	EXPECT_EQ(EBADF, errno);
}

FIXTURE(pair) {
	int tx, rx;
	struct sockaddr_in to;		/* rx as tx sees it */
	int tx_port;
};

FIXTURE_SETUP(pair)
{
	ASSERT_EQ(0, wind_topo_setup(2));
	self->tx = lib_socket_in(wind_ns(0), WIND_SOCK_BIND);
	self->rx = lib_socket_in(wind_ns(1), 0);
	ASSERT_LE(0, self->tx);
	ASSERT_LE(0, self->rx);
	ASSERT_EQ(0, wind_bind(self->rx, PORT_RX)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(PORT_RX, wind_port(self->rx));
	self->tx_port = wind_port(self->tx);
	ASSERT_LT(0, self->tx_port);
	wind_sin(&self->to, wind_node_addr(1), PORT_RX);
}

FIXTURE_TEARDOWN(pair)
{
	close(self->tx);
	close(self->rx);
	wind_topo_teardown();
}

TEST_F(pair, bind_conflict)
{
	int fd = lib_socket_in(wind_ns(1), 0);

	ASSERT_LE(0, fd);
	errno = 0;
	EXPECT_EQ(-1, wind_bind(fd, PORT_RX));
	EXPECT_EQ(EADDRINUSE, errno);
	close(fd);
}

TEST_F(pair, send_each_type_recv_exact)
{
	static const enum wind_msgtype types[] = {
		WIND_ASYNC_ORDERED, WIND_ASYNC_RELIABLE, WIND_SYNC_ORDERED,
	};
	char buf[6000], want[6000];
	struct sockaddr_in from;
	struct wind_dsm dsm;
	bool seen[3] = { false };
	unsigned int i;
	ssize_t n;

	for (i = 0; i < 3; i++) {
		wind_fill(want, sizeof(want), i);
		want[0] = (char)i;
		EXPECT_EQ((ssize_t)sizeof(want),
			  wind_send(self->tx, &self->to, want, sizeof(want), types[i]))
			TH_LOG("type %d: %s", types[i], strerror(errno));
	}
	for (i = 0; i < 3; i++) {
		ASSERT_NE(0, wind_poll(self->rx, POLLIN, 10000) & POLLIN);
		memset(&dsm, 0x77, sizeof(dsm));
		memset(&from, 0x77, sizeof(from));
		n = wind_recv(self->rx, buf, sizeof(buf), &from, &dsm);
		ASSERT_EQ((ssize_t)sizeof(buf), n);
		ASSERT_LE(0, buf[0]);
		ASSERT_GT(3, buf[0]);
		EXPECT_FALSE(seen[(int)buf[0]]);
		seen[(int)buf[0]] = true;
		wind_fill(want, sizeof(want), buf[0]);
		want[0] = buf[0];
		EXPECT_EQ(0, memcmp(buf, want, sizeof(buf)));
		EXPECT_EQ(AF_INET, from.sin_family);
		EXPECT_EQ(wind_node_addr(0), from.sin_addr.s_addr);
		EXPECT_EQ(self->tx_port, ntohs(from.sin_port));
		/* an ordinary message: Message Through, nothing else */
		EXPECT_EQ(WIND_DSM_MESSAGE_THROUGH, dsm.mode);
		EXPECT_EQ(0, dsm.region);
		EXPECT_EQ(0, dsm.offset);
		EXPECT_EQ(0, dsm.hdr_len);
		EXPECT_EQ(0, dsm.data_len);
	}

	errno = 0;
	EXPECT_EQ(-1, wind_send(self->tx, &self->to, "x", 1, (enum wind_msgtype)7));
	EXPECT_EQ(EINVAL, errno);
	/* NULL destination: the connected peer, or EDESTADDRREQ */
	errno = 0;
	EXPECT_EQ(-1, wind_send(self->tx, NULL, "x", 1, WIND_ASYNC_ORDERED));
	EXPECT_EQ(EDESTADDRREQ, errno);
	ASSERT_EQ(0, connect(self->tx, (struct sockaddr *)&self->to, sizeof(self->to)));
	EXPECT_EQ(3, wind_send(self->tx, NULL, "abc", 3, WIND_SYNC_ORDERED));
	n = wind_recv(self->rx, buf, sizeof(buf), NULL, NULL);
	EXPECT_EQ(3, n);
	EXPECT_EQ(0, memcmp(buf, "abc", 3));
}

TEST_F(pair, recv_reports_truncation)
{
	char big[3000], small[100];
	struct sockaddr_in from;
	ssize_t n;

	wind_fill(big, sizeof(big), 42);
	ASSERT_EQ((ssize_t)sizeof(big),
		  wind_send(self->tx, &self->to, big, sizeof(big), WIND_SYNC_ORDERED));
	ASSERT_EQ(3, wind_send(self->tx, &self->to, "end", 3, WIND_SYNC_ORDERED));
	n = wind_recv(self->rx, small, sizeof(small), &from, NULL);
	EXPECT_EQ((ssize_t)sizeof(big), n);	/* the whole length */
	EXPECT_EQ(0, memcmp(small, big, sizeof(small)));
	n = wind_recv(self->rx, small, sizeof(small), NULL, NULL);
	EXPECT_EQ(3, n);			/* the rest was discarded */
	EXPECT_EQ(0, memcmp(small, "end", 3));
	/* non-blocking and empty */
	fcntl(self->rx, F_SETFL, O_NONBLOCK);
	errno = 0;
	EXPECT_EQ(-1, wind_recv(self->rx, small, sizeof(small), NULL, NULL));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(pair, msgtype_default)
{
	char buf[16];

	EXPECT_EQ(WIND_ASYNC_ORDERED, wind_get_msgtype(self->tx));
	ASSERT_EQ(0, wind_set_msgtype(self->tx, WIND_SYNC_ORDERED));
	EXPECT_EQ(WIND_SYNC_ORDERED, wind_get_msgtype(self->tx));
	ASSERT_EQ(0, wind_set_msgtype(self->tx, WIND_ASYNC_RELIABLE));
	EXPECT_EQ(WIND_ASYNC_RELIABLE, wind_get_msgtype(self->tx));
	errno = 0;
	EXPECT_EQ(-1, wind_set_msgtype(self->tx, (enum wind_msgtype)3));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(WIND_ASYNC_RELIABLE, wind_get_msgtype(self->tx));
	/* WIND_ASYNC_ORDERED adds no flag: the default (now reliable) applies */
	EXPECT_EQ(2, wind_send(self->tx, &self->to, "ok", 2, WIND_ASYNC_ORDERED));
	EXPECT_EQ(2, wind_recv(self->rx, buf, sizeof(buf), NULL, NULL));
	errno = 0;
	EXPECT_EQ(-1, wind_get_msgtype(-1));
	EXPECT_EQ(EBADF, errno);
}

TEST_F(pair, send_dsm_message_through)
{
	struct wind_dsm dsm = { .mode = WIND_DSM_MESSAGE_THROUGH, .region = 5,
				.offset = 4096, .key = 99 };
	char hdr[24], data[5000], buf[8000];
	struct wind_dsm got;
	ssize_t n;

	wind_fill(hdr, sizeof(hdr), 1);
	wind_fill(data, sizeof(data), 2);
	ASSERT_EQ((ssize_t)(sizeof(hdr) + sizeof(data)),
		  wind_send_dsm(self->tx, &self->to, hdr, sizeof(hdr), data,
				sizeof(data), &dsm)) TH_LOG("%s", strerror(errno));
	n = wind_recv(self->rx, buf, sizeof(buf), NULL, &got);
	ASSERT_EQ((ssize_t)(sizeof(hdr) + sizeof(data)), n);
	EXPECT_EQ(0, memcmp(buf, hdr, sizeof(hdr)));
	EXPECT_EQ(0, memcmp(buf + sizeof(hdr), data, sizeof(data)));
	EXPECT_EQ(WIND_DSM_MESSAGE_THROUGH, got.mode);
	errno = 0;
	EXPECT_EQ(-1, wind_send_dsm(self->tx, &self->to, hdr, sizeof(hdr), data,
				    sizeof(data), NULL));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * The S-DSM modes through libwind: Direct Map, Header Through and Header
 * Diff with a diff from wind_diff_encode, and the refusals.  Skipped
 * while the module answers WIND_REGION_ADD with EOPNOTSUPP.
 */
TEST_F(pair, dsm_modes_through_libwind)
{
	struct wind_dsm dsm = { .region = 1, .key = 0x5eedULL };
	unsigned char *region, page[PAGE], twin[PAGE], diff[WIND_DIFF_MAX(PAGE)];
	unsigned char data[1000], hdr[16], buf[PAGE];
	static unsigned char snap[4 * PAGE];
	struct wind_dsm got;
	size_t dlen;
	ssize_t n;

	region = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, region);
	memset(region, 0, 4 * PAGE);
	if (wind_region_add(self->rx, region, 4 * PAGE, 1, 0x5eedULL) < 0) {
		if (errno == EOPNOTSUPP)
			SKIP(munmap(region, 4 * PAGE); return,
			     "WIND_REGION_ADD: EOPNOTSUPP from this wind.ko");
		ASSERT_EQ(0, errno) TH_LOG("wind_region_add: %s", strerror(errno));
	}
	ASSERT_EQ(0, wind_set_msgtype(self->tx, WIND_SYNC_ORDERED));

	/* Direct Map: the data lands at region + offset, nothing is queued */
	wind_fill(data, sizeof(data), 9);
	dsm.mode = WIND_DSM_DIRECT_MAP;
	dsm.offset = PAGE + 100;
	ASSERT_EQ((ssize_t)sizeof(data),
		  wind_send_dsm(self->tx, &self->to, NULL, 0, data, sizeof(data), &dsm))
		TH_LOG("direct map: %s", strerror(errno));
	EXPECT_EQ(0, memcmp(region + PAGE + 100, data, sizeof(data)));
	EXPECT_EQ(0, region[PAGE + 99]);
	EXPECT_EQ(0, region[PAGE + 100 + sizeof(data)]);
	EXPECT_EQ(0, wind_poll(self->rx, POLLIN, 0));

	/* Header Through: data written, only the header queued */
	wind_fill(hdr, sizeof(hdr), 10);
	wind_fill(data, sizeof(data), 11);
	dsm.mode = WIND_DSM_HEADER_THROUGH;
	dsm.offset = 0;
	ASSERT_EQ((ssize_t)(sizeof(hdr) + sizeof(data)),
		  wind_send_dsm(self->tx, &self->to, hdr, sizeof(hdr), data,
				sizeof(data), &dsm));
	n = wind_recv(self->rx, buf, sizeof(buf), NULL, &got);
	EXPECT_EQ((ssize_t)sizeof(hdr), n);
	EXPECT_EQ(0, memcmp(buf, hdr, sizeof(hdr)));
	EXPECT_EQ(WIND_DSM_HEADER_THROUGH, got.mode);
	EXPECT_EQ(1, got.region);
	EXPECT_EQ(0, got.offset);
	EXPECT_EQ(sizeof(hdr), got.hdr_len);
	EXPECT_EQ(sizeof(data), got.data_len);
	EXPECT_EQ(0, memcmp(region, data, sizeof(data)));

	/* Header Diff: a diff of page 2 made by wind_diff_encode */
	memcpy(twin, region + 2 * PAGE, PAGE);
	memcpy(page, twin, PAGE);
	page[0] = 1;
	memset(page + 1000, 0xab, 50);
	page[PAGE - 1] = 2;
	dlen = wind_diff_encode(page, twin, PAGE, diff);
	ASSERT_EQ(3 * sizeof(struct wind_diff_run) + 1 + 50 + 1, dlen);
	dsm.mode = WIND_DSM_HEADER_DIFF;
	dsm.offset = 2 * PAGE;
	ASSERT_EQ((ssize_t)(sizeof(hdr) + dlen),
		  wind_send_dsm(self->tx, &self->to, hdr, sizeof(hdr), diff, dlen, &dsm));
	n = wind_recv(self->rx, buf, sizeof(buf), NULL, &got);
	EXPECT_EQ((ssize_t)sizeof(hdr), n);
	EXPECT_EQ(WIND_DSM_HEADER_DIFF, got.mode);
	EXPECT_EQ(52, got.data_len);
	EXPECT_EQ(0, memcmp(region + 2 * PAGE, page, PAGE));

	/* Refusals: a sync send fails, nothing is written */
	memcpy(snap, region, sizeof(snap));
	dsm.mode = WIND_DSM_DIRECT_MAP;
	dsm.offset = 0;
	dsm.key = 1;
	errno = 0;
	EXPECT_EQ(-1, wind_send_dsm(self->tx, &self->to, NULL, 0, data, 10, &dsm));
	EXPECT_EQ(EACCES, errno);
	dsm.key = 0x5eedULL;
	dsm.offset = 4 * PAGE - 5;
	errno = 0;
	EXPECT_EQ(-1, wind_send_dsm(self->tx, &self->to, NULL, 0, data, 10, &dsm));
	EXPECT_EQ(ERANGE, errno);
	EXPECT_EQ(0, memcmp(snap, region, sizeof(snap)));

	/* Deleted: the region is unknown */
	EXPECT_EQ(0, wind_region_del(self->rx, 1));
	dsm.offset = 0;
	errno = 0;
	EXPECT_EQ(-1, wind_send_dsm(self->tx, &self->to, NULL, 0, data, 10, &dsm));
	EXPECT_EQ(EACCES, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_region_del(self->rx, 1));
	EXPECT_NE(0, errno);
	munmap(region, 4 * PAGE);
}

TEST_F(pair, recv_error_reports_a_closed_port)
{
	struct sockaddr_in closed;
	struct wind_error err;
	long long deadline;
	unsigned int lost, sent = 2;
	int r;

	/* Nothing queued: EAGAIN, at once */
	errno = 0;
	EXPECT_EQ(-1, wind_recv_error(self->tx, &err));
	EXPECT_EQ(EAGAIN, errno);

	ASSERT_EQ(0, wind_set_recverr(self->tx, 1));
	EXPECT_EQ(1, sockopt_int(self->tx, SOL_WIND, WIND_RECVERR));
	/* Two async messages to a port nobody is bound to on node 1 */
	wind_sin(&closed, wind_node_addr(1), PORT_RX + 1);
	ASSERT_EQ(3, wind_send(self->tx, &closed, "one", 3, WIND_ASYNC_ORDERED));
	/* the refusal of "one" may already be pending: then this send
	 * returns it, once, and is not queued (as UDP)
	 */
	r = wind_send(self->tx, &closed, "two", 3, WIND_ASYNC_ORDERED);
	if (r < 0) {
		ASSERT_EQ(ECONNREFUSED, errno);
		sent = 1;
	} else {
		ASSERT_EQ(3, r);
	}
	deadline = wind_now_ms() + 15000;
	do {
		r = wind_poll(self->tx, 0, 200);
	} while (!(r & POLLERR) && wind_now_ms() < deadline);
	ASSERT_NE(0, r & POLLERR) TH_LOG("no POLLERR within 15 s");
	memset(&err, 0x77, sizeof(err));
	ASSERT_EQ(0, wind_recv_error(self->tx, &err)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ECONNREFUSED, err.error);
	EXPECT_EQ(SO_EE_ORIGIN_WIND, err.origin);
	EXPECT_LE(1, err.lost);
	EXPECT_GE(2, err.lost);
	EXPECT_EQ(AF_INET, err.peer.sin_family);
	EXPECT_EQ(wind_node_addr(1), err.peer.sin_addr.s_addr);
	EXPECT_EQ(PORT_RX + 1, ntohs(err.peer.sin_port));
	/* if the two were reported apart, the second report is there too */
	lost = err.lost;
	deadline = wind_now_ms() + 5000;
	while (lost < sent && wind_now_ms() < deadline) {
		if (wind_recv_error(self->tx, &err) < 0) {
			ASSERT_EQ(EAGAIN, errno);
			usleep(10000);
			continue;
		}
		EXPECT_EQ(ECONNREFUSED, err.error);
		lost += err.lost;
	}
	EXPECT_EQ(sent, lost);
	/* turning WIND_RECVERR off empties the queue */
	ASSERT_EQ(0, wind_set_recverr(self->tx, 0));
	errno = 0;
	EXPECT_EQ(-1, wind_recv_error(self->tx, &err));
	EXPECT_EQ(EAGAIN, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_recv_error(self->tx, NULL));
	EXPECT_EQ(EINVAL, errno);
}

/* wind_peer_info() names the peer and returns what getsockopt() does */
TEST_F(pair, peer_info)
{
	struct wind_peer_info info;
	struct sockaddr_in other = self->to;

	ASSERT_EQ(5, wind_send(self->tx, &self->to, "hello", 5,
			       WIND_SYNC_ORDERED));
	ASSERT_EQ(0, wind_peer_info(self->tx, &self->to, &info));
	EXPECT_EQ(WIND_PEER_INFO_VERSION, info.wpi_version);
	EXPECT_EQ(sizeof(info), info.wpi_size);
	EXPECT_EQ(1, info.wpi_tx_messages);
	EXPECT_EQ(0, info.wpi_in_flight);
	EXPECT_EQ(0, memcmp(&info.wpi_addr, &self->to, sizeof(self->to)));
	other.sin_port = htons(PORT_RX + 1);
	EXPECT_EQ(-1, wind_peer_info(self->tx, &other, &info));
	EXPECT_EQ(ENOENT, errno);
}

/* ---- IPv6: the same helpers on AF_INET6 sockets ------------------------- */

#define ADDR6_FMT	"fd77::%d"

/* Node i's IPv6 address (fd77::i+1), for tests over IPv6 */
static void node_sin6(struct sockaddr_in6 *sin6, int i, uint16_t port)
{
	char a[32];

	memset(sin6, 0, sizeof(*sin6));
	snprintf(a, sizeof(a), ADDR6_FMT, i + 1);
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	inet_pton(AF_INET6, a, &sin6->sin6_addr);
}

/* sin's address v4-mapped, in a sockaddr_in6 */
static void mapped_sin6(struct sockaddr_in6 *sin6, const struct sockaddr_in *sin)
{
	memset(sin6, 0, sizeof(*sin6));
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = sin->sin_port;
	sin6->sin6_addr.s6_addr[10] = 0xff;
	sin6->sin6_addr.s6_addr[11] = 0xff;
	memcpy(&sin6->sin6_addr.s6_addr[12], &sin->sin_addr, 4);
}

/* wind_socket_af() in namespace ns */
static int lib_socket6_in(const char *ns, int flags)
{
	int fd;

	if (wind_netns_enter(ns) < 0)
		return -1;
	fd = wind_socket_af(AF_INET6, flags);
	wind_netns_leave();
	return fd;
}

TEST(sockaddr_builds_either_family)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	struct in6_addr want6;

	EXPECT_EQ((int)sizeof(*sin), wind_sockaddr("10.77.0.2", 7600, &ss));
	EXPECT_EQ(AF_INET, sin->sin_family);
	EXPECT_EQ(htonl(0x0a4d0002), sin->sin_addr.s_addr);
	EXPECT_EQ(htons(7600), sin->sin_port);

	memset(&ss, 0x55, sizeof(ss));
	EXPECT_EQ((int)sizeof(*sin6), wind_sockaddr("fd77::2", 7601, &ss));
	EXPECT_EQ(AF_INET6, sin6->sin6_family);
	inet_pton(AF_INET6, "fd77::2", &want6);
	EXPECT_EQ(0, memcmp(&want6, &sin6->sin6_addr, sizeof(want6)));
	EXPECT_EQ(htons(7601), sin6->sin6_port);
	EXPECT_EQ(0, sin6->sin6_flowinfo);
	EXPECT_EQ(0, sin6->sin6_scope_id);

	EXPECT_EQ((int)sizeof(*sin6), wind_sockaddr("::ffff:10.77.0.2", 1, &ss));
	EXPECT_EQ(AF_INET6, sin6->sin6_family);
	EXPECT_TRUE(IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr));

	/* a link-local peer with its interface, by index or by name */
	EXPECT_EQ((int)sizeof(*sin6), wind_sockaddr("fe80::1%7", 9, &ss));
	EXPECT_EQ(7, sin6->sin6_scope_id);
	EXPECT_EQ((int)sizeof(*sin6), wind_sockaddr("fe80::1%lo", 9, &ss));
	EXPECT_EQ(if_nametoindex("lo"), sin6->sin6_scope_id);
	EXPECT_NE(0, sin6->sin6_scope_id);

	errno = 0;
	EXPECT_EQ(-1, wind_sockaddr("fe80::1%nosuchdev0", 9, &ss));
	EXPECT_EQ(ENODEV, errno);
	static const char *const bad[] = {
		"", "10.77.0", "10.77.0.2:7600", "[fd77::2]", "fd77::2%",
		"fd77:::2", "10.77.0.2%lo", "host.example",
	};
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, wind_sockaddr(bad[i], 9, &ss)) TH_LOG("\"%s\"", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("\"%s\"", bad[i]);
	}
	errno = 0;
	EXPECT_EQ(-1, wind_sockaddr(NULL, 9, &ss));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_sockaddr("fd77::2", 9, NULL));
	EXPECT_EQ(EINVAL, errno);
}

TEST(socket_af_flags)
{
	struct sockaddr_in6 sin6;
	socklen_t len = sizeof(sin6);
	int fd;

	fd = wind_socket_af(AF_INET6, SOCK_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("wind_socket_af: %s", strerror(errno));
	EXPECT_EQ(AF_INET6, sockopt_int(fd, SOL_SOCKET, SO_DOMAIN));
	EXPECT_EQ(SOCK_WIND, sockopt_int(fd, SOL_SOCKET, SO_TYPE));
	EXPECT_EQ(IPPROTO_WIND, sockopt_int(fd, SOL_SOCKET, SO_PROTOCOL));
	EXPECT_NE(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(0, wind_port(fd));
	/* wind_bind() on an AF_INET6 socket: [::]:port */
	ASSERT_EQ(0, wind_bind(fd, PORT_RX + 50)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(PORT_RX + 50, wind_port(fd));
	ASSERT_EQ(0, getsockname(fd, (struct sockaddr *)&sin6, &len));
	EXPECT_EQ(sizeof(sin6), len);
	EXPECT_EQ(AF_INET6, sin6.sin6_family);
	EXPECT_TRUE(IN6_IS_ADDR_UNSPECIFIED(&sin6.sin6_addr));
	close(fd);

	fd = wind_socket_af(AF_INET6, SOCK_NONBLOCK | WIND_SOCK_BIND);
	ASSERT_LE(0, fd);
	EXPECT_NE(0, fcntl(fd, F_GETFL) & O_NONBLOCK);
	EXPECT_LT(0, wind_port(fd));
	close(fd);

	fd = wind_socket_af(AF_INET, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(AF_INET, sockopt_int(fd, SOL_SOCKET, SO_DOMAIN));
	close(fd);

	errno = 0;
	EXPECT_EQ(-1, wind_socket_af(AF_UNIX, 0));
	EXPECT_EQ(EAFNOSUPPORT, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_socket_af(AF_INET6, 0x100));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * Two namespaces of the usual topology with fd77::1 and fd77::2 on their
 * eth0 too (nodad, permanent neighbours): tx and rx AF_INET6 sockets,
 * dual stack.
 */
FIXTURE(pair6) {
	int tx, rx;
	struct sockaddr_in6 to;		/* rx over IPv6 */
	struct sockaddr_in to4;		/* rx over IPv4 */
	int tx_port;
};

FIXTURE_SETUP(pair6)
{
	int i;

	ASSERT_EQ(0, wind_topo_setup(2));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, wind_run("ip -n %s addr add " ADDR6_FMT "/64 dev eth0 nodad",
				      wind_ns(i), i + 1));
		ASSERT_EQ(0, wind_run("ip -n %s neigh replace " ADDR6_FMT " lladdr 02:77:00:00:00:%02x dev eth0 nud permanent",
				      wind_ns(i), 2 - i, 2 - i));
	}
	self->tx = lib_socket6_in(wind_ns(0), WIND_SOCK_BIND);
	self->rx = lib_socket6_in(wind_ns(1), 0);
	ASSERT_LE(0, self->tx) TH_LOG("%s", strerror(errno));
	ASSERT_LE(0, self->rx);
	ASSERT_EQ(0, wind_bind(self->rx, PORT_RX)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(PORT_RX, wind_port(self->rx));
	self->tx_port = wind_port(self->tx);
	ASSERT_LT(0, self->tx_port);
	node_sin6(&self->to, 1, PORT_RX);
	wind_sin(&self->to4, wind_node_addr(1), PORT_RX);
}

FIXTURE_TEARDOWN(pair6)
{
	close(self->tx);
	close(self->rx);
	wind_topo_teardown();
}

TEST_F(pair6, sendto_each_type_recvfrom_exact)
{
	static const enum wind_msgtype types[] = {
		WIND_ASYNC_ORDERED, WIND_ASYNC_RELIABLE, WIND_SYNC_ORDERED,
	};
	char buf[6000], want[6000];
	struct sockaddr_storage from;
	struct sockaddr_in6 *from6 = (struct sockaddr_in6 *)&from, a6;
	struct wind_dsm dsm;
	bool seen[3] = { false };
	socklen_t fromlen;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < 3; i++) {
		wind_fill(want, sizeof(want), 100 + i);
		want[0] = (char)i;
		EXPECT_EQ((ssize_t)sizeof(want),
			  wind_sendto(self->tx, (struct sockaddr *)&self->to,
				      sizeof(self->to), want, sizeof(want), types[i]))
			TH_LOG("type %d: %s", types[i], strerror(errno));
	}
	node_sin6(&a6, 0, self->tx_port);
	for (i = 0; i < 3; i++) {
		ASSERT_NE(0, wind_poll(self->rx, POLLIN, 10000) & POLLIN);
		memset(&from, 0x77, sizeof(from));
		memset(&dsm, 0x77, sizeof(dsm));
		fromlen = sizeof(from);
		n = wind_recvfrom(self->rx, buf, sizeof(buf),
				  (struct sockaddr *)&from, &fromlen, &dsm);
		ASSERT_EQ((ssize_t)sizeof(buf), n);
		ASSERT_LE(0, buf[0]);
		ASSERT_GT(3, buf[0]);
		EXPECT_FALSE(seen[(int)buf[0]]);
		seen[(int)buf[0]] = true;
		wind_fill(want, sizeof(want), 100 + buf[0]);
		want[0] = buf[0];
		EXPECT_EQ(0, memcmp(buf, want, sizeof(buf)));
		/* the sender, whole: fd77::1, its port, no flow, no scope */
		EXPECT_EQ(sizeof(struct sockaddr_in6), fromlen);
		EXPECT_EQ(0, memcmp(&a6, from6, sizeof(a6)));
		EXPECT_EQ(WIND_DSM_MESSAGE_THROUGH, dsm.mode);
		EXPECT_EQ(0, dsm.hdr_len);
	}

	/* too small a buffer: cut, and fromlen says how long it was */
	ASSERT_EQ(3, wind_sendto(self->tx, (struct sockaddr *)&self->to,
				 sizeof(self->to), "abc", 3, WIND_SYNC_ORDERED));
	memset(&from, 0x77, sizeof(from));
	fromlen = 4;
	EXPECT_EQ(3, wind_recvfrom(self->rx, buf, sizeof(buf),
				   (struct sockaddr *)&from, &fromlen, NULL));
	EXPECT_EQ(sizeof(struct sockaddr_in6), fromlen);
	EXPECT_EQ(AF_INET6, from6->sin6_family);
	EXPECT_EQ(htons(self->tx_port), from6->sin6_port);
	EXPECT_EQ(0x77, ((unsigned char *)&from)[4]);	/* not written */
	EXPECT_EQ(0, memcmp(buf, "abc", 3));

	/* the IPv4-era wind_recv(): an IPv6 sender as AF_INET6 and its port */
	struct sockaddr_in from4;

	ASSERT_EQ(3, wind_sendto(self->tx, (struct sockaddr *)&self->to,
				 sizeof(self->to), "def", 3, WIND_SYNC_ORDERED));
	memset(&from4, 0x77, sizeof(from4));
	EXPECT_EQ(3, wind_recv(self->rx, buf, sizeof(buf), &from4, NULL));
	EXPECT_EQ(0, memcmp(buf, "def", 3));
	EXPECT_EQ(AF_INET6, from4.sin_family);
	EXPECT_EQ(htons(self->tx_port), from4.sin_port);
	EXPECT_EQ(0, from4.sin_addr.s_addr);

	/* bad arguments */
	errno = 0;
	EXPECT_EQ(-1, wind_sendto(self->tx, (struct sockaddr *)&self->to,
				  sizeof(self->to), "x", 1, (enum wind_msgtype)7));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_recvfrom(self->rx, buf, sizeof(buf),
				    (struct sockaddr *)&from, NULL, NULL));
	EXPECT_EQ(EINVAL, errno);
	/* connected: NULL is the peer */
	errno = 0;
	EXPECT_EQ(-1, wind_sendto(self->tx, NULL, 0, "x", 1, WIND_ASYNC_ORDERED));
	EXPECT_EQ(EDESTADDRREQ, errno);
	ASSERT_EQ(0, connect(self->tx, (struct sockaddr *)&self->to, sizeof(self->to)));
	EXPECT_EQ(3, wind_sendto(self->tx, NULL, 0, "ghi", 3, WIND_SYNC_ORDERED));
	fromlen = sizeof(from);
	EXPECT_EQ(3, wind_recvfrom(self->rx, buf, sizeof(buf),
				   (struct sockaddr *)&from, &fromlen, NULL));
	EXPECT_EQ(0, memcmp(buf, "ghi", 3));
	EXPECT_EQ(0, memcmp(&a6, from6, sizeof(a6)));
}

/* A dual-stack socket: an IPv4 peer by sockaddr_in or v4-mapped */
TEST_F(pair6, dual_stack_ipv4_peer)
{
	struct sockaddr_in6 mapped, want6;
	struct sockaddr_storage from;
	struct sockaddr_in from4, a4;
	socklen_t fromlen;
	char buf[64];

	wind_sin(&a4, wind_node_addr(0), self->tx_port);
	mapped_sin6(&want6, &a4);
	mapped_sin6(&mapped, &self->to4);
	/* by sockaddr_in ... */
	ASSERT_EQ(4, wind_sendto(self->tx, (struct sockaddr *)&self->to4,
				 sizeof(self->to4), "v4-1", 4, WIND_SYNC_ORDERED))
		TH_LOG("%s", strerror(errno));
	/* ... and v4-mapped: the same peer */
	ASSERT_EQ(4, wind_sendto(self->tx, (struct sockaddr *)&mapped,
				 sizeof(mapped), "v4-2", 4, WIND_SYNC_ORDERED));
	/* wind_recvfrom(): the v4-mapped sender, as the socket names it */
	fromlen = sizeof(from);
	memset(&from, 0x77, sizeof(from));
	ASSERT_EQ(4, wind_recvfrom(self->rx, buf, sizeof(buf),
				   (struct sockaddr *)&from, &fromlen, NULL));
	EXPECT_EQ(0, memcmp(buf, "v4-1", 4));
	EXPECT_EQ(sizeof(struct sockaddr_in6), fromlen);
	EXPECT_EQ(0, memcmp(&want6, &from, sizeof(want6)));
	/* wind_recv(): the same sender unmapped, a plain sockaddr_in */
	memset(&from4, 0x77, sizeof(from4));
	ASSERT_EQ(4, wind_recv(self->rx, buf, sizeof(buf), &from4, NULL));
	EXPECT_EQ(0, memcmp(buf, "v4-2", 4));
	EXPECT_EQ(0, memcmp(&a4, &from4, sizeof(a4)));
	/* wind_send() of the IPv4 era works on the AF_INET6 socket too */
	ASSERT_EQ(4, wind_send(self->tx, &self->to4, "v4-3", 4, WIND_SYNC_ORDERED));
	ASSERT_EQ(4, wind_recv(self->rx, buf, sizeof(buf), &from4, NULL));
	EXPECT_EQ(0, memcmp(buf, "v4-3", 4));
	EXPECT_EQ(0, memcmp(&a4, &from4, sizeof(a4)));
}

TEST_F(pair6, sendto_dsm_message_through)
{
	struct wind_dsm dsm = { .mode = WIND_DSM_MESSAGE_THROUGH, .region = 5,
				.offset = 4096, .key = 99 };
	char hdr[24], data[5000], buf[8000];
	struct wind_dsm got;
	ssize_t n;

	wind_fill(hdr, sizeof(hdr), 3);
	wind_fill(data, sizeof(data), 4);
	ASSERT_EQ((ssize_t)(sizeof(hdr) + sizeof(data)),
		  wind_sendto_dsm(self->tx, (struct sockaddr *)&self->to,
				  sizeof(self->to), hdr, sizeof(hdr), data,
				  sizeof(data), &dsm)) TH_LOG("%s", strerror(errno));
	n = wind_recvfrom(self->rx, buf, sizeof(buf), NULL, NULL, &got);
	ASSERT_EQ((ssize_t)(sizeof(hdr) + sizeof(data)), n);
	EXPECT_EQ(0, memcmp(buf, hdr, sizeof(hdr)));
	EXPECT_EQ(0, memcmp(buf + sizeof(hdr), data, sizeof(data)));
	EXPECT_EQ(WIND_DSM_MESSAGE_THROUGH, got.mode);
	errno = 0;
	EXPECT_EQ(-1, wind_sendto_dsm(self->tx, (struct sockaddr *)&self->to,
				      sizeof(self->to), hdr, sizeof(hdr), data,
				      sizeof(data), NULL));
	EXPECT_EQ(EINVAL, errno);
}

/* wind_peer_info_addr(): an IPv6 peer, an IPv4 one; the IPv4-era call */
TEST_F(pair6, peer_info_addr)
{
	struct wind_peer_info info;
	struct sockaddr_in6 other = self->to, mapped;

	ASSERT_EQ(5, wind_sendto(self->tx, (struct sockaddr *)&self->to,
				 sizeof(self->to), "hello", 5, WIND_SYNC_ORDERED));
	ASSERT_EQ(5, wind_sendto(self->tx, (struct sockaddr *)&self->to,
				 sizeof(self->to), "again", 5, WIND_SYNC_ORDERED));
	ASSERT_EQ(2, wind_send(self->tx, &self->to4, "v4", 2, WIND_SYNC_ORDERED));
	ASSERT_EQ(0, wind_peer_info_addr(self->tx, (struct sockaddr *)&self->to,
					 sizeof(self->to), &info))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(WIND_PEER_INFO_VERSION, info.wpi_version);
	EXPECT_EQ(sizeof(info), info.wpi_size);
	EXPECT_EQ(2, info.wpi_tx_messages);
	EXPECT_EQ(0, info.wpi_in_flight);
	/* over IPv6: MTU 1500 - 40 (IPv6) - 40 (Wind), 8 less inside UDP */
	EXPECT_EQ(wind_test_encap() == WIND_ENCAP_UDP ? 1412 : 1420, info.wpi_mss);
	EXPECT_EQ(AF_INET6, ((struct sockaddr_in6 *)&info.wpi_addr)->sin6_family);
	/* the IPv4 peer, by sockaddr_in or v4-mapped, is another peer */
	ASSERT_EQ(0, wind_peer_info_addr(self->tx, (struct sockaddr *)&self->to4,
					 sizeof(self->to4), &info));
	EXPECT_EQ(1, info.wpi_tx_messages);
	ASSERT_EQ(0, wind_peer_info(self->tx, &self->to4, &info));
	EXPECT_EQ(1, info.wpi_tx_messages);
	EXPECT_EQ(wind_test_encap() == WIND_ENCAP_UDP ? 1432 : 1440, info.wpi_mss);
	mapped_sin6(&mapped, &self->to4);
	ASSERT_EQ(0, wind_peer_info_addr(self->tx, (struct sockaddr *)&mapped,
					 sizeof(mapped), &info));
	EXPECT_EQ(1, info.wpi_tx_messages);
	/* on the receiving side, the IPv6 sender */
	struct sockaddr_in6 a6;

	node_sin6(&a6, 0, self->tx_port);
	ASSERT_EQ(0, wind_peer_info_addr(self->rx, (struct sockaddr *)&a6,
					 sizeof(a6), &info));
	EXPECT_EQ(2, info.wpi_rx_messages);
	/* no such peer; bad arguments */
	other.sin6_port = htons(PORT_RX + 1);
	errno = 0;
	EXPECT_EQ(-1, wind_peer_info_addr(self->tx, (struct sockaddr *)&other,
					  sizeof(other), &info));
	EXPECT_EQ(ENOENT, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_peer_info_addr(self->tx, (struct sockaddr *)&self->to,
					  sizeof(info.wpi_addr) + 1, &info));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_peer_info_addr(self->tx, NULL, 0, &info));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * Failure reports of an AF_INET6 socket: wind_recv_error_addr() gives the
 * IPv6 peer whole; wind_recv_error() an IPv4 peer unmapped.
 */
static int wait_report(int fd)
{
	long long deadline = wind_now_ms() + 15000;
	int r;

	do {
		r = wind_poll(fd, 0, 200);
	} while (!(r & POLLERR) && wind_now_ms() < deadline);
	return r & POLLERR;
}

TEST_F(pair6, recv_error_addr_reports_a_closed_port)
{
	struct sockaddr_in6 closed = self->to;
	struct sockaddr_in closed4 = self->to4;
	struct wind_error_addr err;
	struct wind_error err4;
	int r;

	errno = 0;
	EXPECT_EQ(-1, wind_recv_error_addr(self->tx, &err));
	EXPECT_EQ(EAGAIN, errno);
	errno = 0;
	EXPECT_EQ(-1, wind_recv_error_addr(self->tx, NULL));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, wind_set_recverr(self->tx, 1));

	closed.sin6_port = htons(PORT_RX + 1);
	ASSERT_EQ(3, wind_sendto(self->tx, (struct sockaddr *)&closed,
				 sizeof(closed), "one", 3, WIND_ASYNC_ORDERED));
	ASSERT_NE(0, wait_report(self->tx)) TH_LOG("no POLLERR within 15 s");
	memset(&err, 0x77, sizeof(err));
	ASSERT_EQ(0, wind_recv_error_addr(self->tx, &err)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ECONNREFUSED, err.error);
	EXPECT_EQ(SO_EE_ORIGIN_WIND, err.origin);
	EXPECT_EQ(1, err.lost);
	EXPECT_EQ(sizeof(struct sockaddr_in6), err.peer_len);
	EXPECT_EQ(0, memcmp(&closed, &err.peer, sizeof(closed)));
	/* SO_ERROR holds the refusal too: read it, so the next send goes */
	EXPECT_EQ(ECONNREFUSED, sockopt_int(self->tx, SOL_SOCKET, SO_ERROR));

	/* the IPv4 peer's report through the IPv4-era call */
	closed4.sin_port = htons(PORT_RX + 2);
	r = wind_send(self->tx, &closed4, "two", 3, WIND_ASYNC_ORDERED);
	ASSERT_EQ(3, r) TH_LOG("%s", strerror(errno));
	ASSERT_NE(0, wait_report(self->tx)) TH_LOG("no POLLERR within 15 s");
	memset(&err4, 0x77, sizeof(err4));
	ASSERT_EQ(0, wind_recv_error(self->tx, &err4)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(ECONNREFUSED, err4.error);
	EXPECT_EQ(1, err4.lost);
	EXPECT_EQ(0, memcmp(&closed4, &err4.peer, sizeof(closed4)));
	EXPECT_EQ(ECONNREFUSED, sockopt_int(self->tx, SOL_SOCKET, SO_ERROR));

	/* an IPv6 peer through the IPv4-era call: AF_INET6 and its port */
	closed.sin6_port = htons(PORT_RX + 3);
	ASSERT_EQ(3, wind_sendto(self->tx, (struct sockaddr *)&closed,
				 sizeof(closed), "thr", 3, WIND_ASYNC_ORDERED));
	ASSERT_NE(0, wait_report(self->tx));
	memset(&err4, 0x77, sizeof(err4));
	ASSERT_EQ(0, wind_recv_error(self->tx, &err4));
	EXPECT_EQ(ECONNREFUSED, err4.error);
	EXPECT_EQ(AF_INET6, err4.peer.sin_family);
	EXPECT_EQ(htons(PORT_RX + 3), err4.peer.sin_port);
	EXPECT_EQ(0, err4.peer.sin_addr.s_addr);
	errno = 0;
	EXPECT_EQ(-1, wind_recv_error_addr(self->tx, &err));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_HARNESS_MAIN
