// SPDX-License-Identifier: GPL-2.0
/*
 * Wind socket basics: creation and module autoload, the protocol check,
 * bind() and its errors, ephemeral ports, per-netns port spaces, and the
 * WIND_MSGTYPE socket option.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib.h"
/* The 6.1 harness and its TEST() macros leave parameters unused */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "harness.h"

#define SYS_MODULE_WIND	"/sys/module/wind"

static bool wind_module_present(void)
{
	return access(SYS_MODULE_WIND, F_OK) == 0;
}

/*
 * Unload wind if nothing uses it.  A socket closed a moment ago may still
 * hold the module for a little while, hence the bounded retry on EBUSY.
 * Returns 0 when the module is not loaded any more.
 */
static int wind_module_unload(void)
{
	long long deadline = wind_now_ms() + 3000;

	for (;;) {
		if (!syscall(SYS_delete_module, "wind", O_NONBLOCK))
			return 0;
		if (errno == ENOENT)
			return 0;
		if ((errno != EBUSY && errno != EAGAIN) ||
		    wind_now_ms() > deadline)
			return -1;
		usleep(20000);
	}
}

static int sockopt_int(int fd, int level, int name)
{
	socklen_t len = sizeof(int);
	int v = -12345;

	if (getsockopt(fd, level, name, &v, &len) < 0)
		return -errno;
	if (len != sizeof(int))
		return -EPROTO;
	return v;
}

static void check_autoload(struct __test_metadata *_metadata, int proto)
{
	int fd;

	if (wind_module_unload()) {
		TH_LOG("wind could not be unloaded (%s): autoload not proven",
		       strerror(errno));
	} else {
		ASSERT_FALSE(wind_module_present());
	}

	fd = socket(AF_INET, SOCK_WIND, proto);
	ASSERT_LE(0, fd) TH_LOG("socket(AF_INET, SOCK_WIND, %d): %s", proto,
				 strerror(errno));
	EXPECT_TRUE(wind_module_present());
	EXPECT_EQ(SOCK_WIND, sockopt_int(fd, SOL_SOCKET, SO_TYPE));
	EXPECT_EQ(IPPROTO_WIND, sockopt_int(fd, SOL_SOCKET, SO_PROTOCOL));
	EXPECT_EQ(AF_INET, sockopt_int(fd, SOL_SOCKET, SO_DOMAIN));
	EXPECT_EQ(0, close(fd));
}

TEST(autoload_proto_0)
{
	check_autoload(_metadata, 0);
}

TEST(autoload_proto_wind)
{
	check_autoload(_metadata, IPPROTO_WIND);
}

TEST(wrong_protocol)
{
	static const int protos[] = { IPPROTO_UDP, IPPROTO_TCP, IPPROTO_RAW };
	unsigned int i;
	int fd;

	/* Make sure the module is there, so it is its answer we check */
	fd = socket(AF_INET, SOCK_WIND, 0);
	ASSERT_LE(0, fd);
	close(fd);

	for (i = 0; i < ARRAY_SIZE(protos); i++) {
		fd = socket(AF_INET, SOCK_WIND, protos[i]);
		EXPECT_EQ(-1, fd) TH_LOG("protocol %d accepted", protos[i]);
		EXPECT_EQ(EPROTONOSUPPORT, errno);
		if (fd >= 0)
			close(fd);
	}
}

/* Two namespaces: node 0 for most checks, node 1 for the per-netns ports */
FIXTURE(sock) {
	int fds[8];
	int nfds;
};

FIXTURE_SETUP(sock)
{
	self->nfds = 0;
	ASSERT_EQ(0, wind_topo_setup(2));
}

FIXTURE_TEARDOWN(sock)
{
	int i;

	for (i = 0; i < self->nfds; i++)
		close(self->fds[i]);
	wind_topo_teardown();
}

static int new_sock(struct __test_metadata *_metadata,
		    FIXTURE_DATA(sock) *self, int node)
{
	int fd = wind_socket_in(wind_ns(node), SOCK_WIND, 0);

	if (fd < 0) {
		TH_LOG("socket in %s: %s", wind_ns(node), strerror(errno));
		return -1;
	}
	if (self->nfds < (int)ARRAY_SIZE(self->fds))
		self->fds[self->nfds++] = fd;
	return fd;
}

static int bind_to(int fd, in_addr_t addr_be, uint16_t port)
{
	struct sockaddr_in sa;

	wind_sin(&sa, addr_be, port);
	return bind(fd, (struct sockaddr *)&sa, sizeof(sa));
}

static int local_port(int fd, struct sockaddr_in *out)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	memset(&sa, 0xa5, sizeof(sa));
	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0)
		return -1;
	if (len != sizeof(sa) || sa.sin_family != AF_INET)
		return -1;
	if (out)
		*out = sa;
	return ntohs(sa.sin_port);
}

#define ANY	htonl(INADDR_ANY)
#define NODE0	wind_node_addr(0)

TEST_F(sock, bind_specific)
{
	struct sockaddr_in sa;
	int fd = new_sock(_metadata, self, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bind_to(fd, NODE0, 5000)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(5000, local_port(fd, &sa));
	EXPECT_EQ(NODE0, sa.sin_addr.s_addr);
}

TEST_F(sock, unbound_getsockname)
{
	struct sockaddr_in sa;
	int fd = new_sock(_metadata, self, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, local_port(fd, &sa));
	EXPECT_EQ(ANY, sa.sin_addr.s_addr);
}

TEST_F(sock, bind_in_use_same_address)
{
	int a = new_sock(_metadata, self, 0);
	int b = new_sock(_metadata, self, 0);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, bind_to(a, ANY, 5001));
	EXPECT_EQ(-1, bind_to(b, ANY, 5001));
	EXPECT_EQ(EADDRINUSE, errno);

	ASSERT_EQ(0, bind_to(b, NODE0, 5011));
	a = new_sock(_metadata, self, 0);
	ASSERT_LE(0, a);
	EXPECT_EQ(-1, bind_to(a, NODE0, 5011));
	EXPECT_EQ(EADDRINUSE, errno);
}

TEST_F(sock, bind_in_use_any_vs_specific)
{
	int a = new_sock(_metadata, self, 0);
	int b = new_sock(_metadata, self, 0);
	int c = new_sock(_metadata, self, 0);
	int d = new_sock(_metadata, self, 0);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_LE(0, c);
	ASSERT_LE(0, d);

	/* specific first, then the wildcard */
	ASSERT_EQ(0, bind_to(a, NODE0, 5002));
	EXPECT_EQ(-1, bind_to(b, ANY, 5002));
	EXPECT_EQ(EADDRINUSE, errno);

	/* wildcard first, then a specific address */
	ASSERT_EQ(0, bind_to(c, ANY, 5003));
	EXPECT_EQ(-1, bind_to(d, NODE0, 5003));
	EXPECT_EQ(EADDRINUSE, errno);
	EXPECT_EQ(-1, bind_to(d, htonl(INADDR_LOOPBACK), 5003));
	EXPECT_EQ(EADDRINUSE, errno);
}

TEST_F(sock, port_free_after_close)
{
	int a = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	int b = new_sock(_metadata, self, 0);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, bind_to(a, ANY, 5004));
	ASSERT_EQ(0, close(a));
	EXPECT_EQ(0, bind_to(b, ANY, 5004)) TH_LOG("%s", strerror(errno));
}

TEST_F(sock, bind_twice)
{
	int fd = new_sock(_metadata, self, 0);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bind_to(fd, ANY, 5005));
	EXPECT_EQ(-1, bind_to(fd, ANY, 5006));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, bind_to(fd, ANY, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(5005, local_port(fd, NULL));
}

TEST_F(sock, bind_bad_family)
{
	struct sockaddr_in sa;
	int fd = new_sock(_metadata, self, 0);

	ASSERT_LE(0, fd);
	wind_sin(&sa, ANY, 5007);
	sa.sin_family = AF_INET6;
	EXPECT_EQ(-1, bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	EXPECT_EQ(EAFNOSUPPORT, errno);
	/* the failed bind left the socket unbound */
	EXPECT_EQ(0, local_port(fd, NULL));
}

TEST_F(sock, bind_short_addrlen)
{
	struct sockaddr_in sa;
	int fd = new_sock(_metadata, self, 0);

	ASSERT_LE(0, fd);
	wind_sin(&sa, ANY, 5008);
	EXPECT_EQ(-1, bind(fd, (struct sockaddr *)&sa, sizeof(sa) - 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, bind(fd, (struct sockaddr *)&sa, 2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, local_port(fd, NULL));
	/* and it can still be bound properly */
	EXPECT_EQ(0, bind_to(fd, ANY, 5008));
}

TEST_F(sock, bind_nonlocal_address)
{
	int fd = new_sock(_metadata, self, 0);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, bind_to(fd, inet_addr("10.99.0.1"), 5009));
	EXPECT_EQ(EADDRNOTAVAIL, errno);
}

static bool read_port_range(const char *ns, int *lo, int *hi)
{
	char buf[64];

	if (wind_read_file_in(ns, "/proc/sys/net/ipv4/ip_local_port_range",
			      buf, sizeof(buf)) <= 0)
		return false;
	return sscanf(buf, "%d %d", lo, hi) == 2;
}

TEST_F(sock, bind_ephemeral)
{
	struct sockaddr_in sa;
	int a = new_sock(_metadata, self, 0);
	int b = new_sock(_metadata, self, 0);
	int lo, hi, pa, pb;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_TRUE(read_port_range(wind_ns(0), &lo, &hi));

	ASSERT_EQ(0, bind_to(a, ANY, 0));
	pa = local_port(a, &sa);
	EXPECT_EQ(ANY, sa.sin_addr.s_addr);
	EXPECT_LE(lo, pa);
	EXPECT_GE(hi, pa);

	ASSERT_EQ(0, bind_to(b, NODE0, 0));
	pb = local_port(b, &sa);
	EXPECT_EQ(NODE0, sa.sin_addr.s_addr);
	EXPECT_LE(lo, pb);
	EXPECT_GE(hi, pb);
	EXPECT_NE(pa, pb);
}

/*
 * With a two-port range, two ephemeral binds take both ports and the third
 * finds none (EADDRINUSE, as UDP answers).
 */
TEST_F(sock, ephemeral_range_honoured)
{
	int fd[3], port[2], i;

	ASSERT_EQ(0, wind_write_file_in(wind_ns(0),
					"/proc/sys/net/ipv4/ip_local_port_range",
					"41000 41001"));
	for (i = 0; i < 3; i++) {
		fd[i] = new_sock(_metadata, self, 0);
		ASSERT_LE(0, fd[i]);
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, bind_to(fd[i], ANY, 0))
			TH_LOG("bind %d: %s", i, strerror(errno));
		port[i] = local_port(fd[i], NULL);
		EXPECT_LE(41000, port[i]);
		EXPECT_GE(41001, port[i]);
	}
	EXPECT_NE(port[0], port[1]);
	EXPECT_EQ(-1, bind_to(fd[2], ANY, 0));
	EXPECT_EQ(EADDRINUSE, errno);
}

TEST_F(sock, ports_per_netns)
{
	int a = new_sock(_metadata, self, 0);
	int b = new_sock(_metadata, self, 1);
	int c = new_sock(_metadata, self, 1);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_LE(0, c);
	ASSERT_EQ(0, bind_to(a, ANY, 6000));
	EXPECT_EQ(0, bind_to(b, ANY, 6000)) TH_LOG("%s", strerror(errno));
	/* and node 1's port space is a real one */
	EXPECT_EQ(-1, bind_to(c, ANY, 6000));
	EXPECT_EQ(EADDRINUSE, errno);
}

TEST_F(sock, msgtype_option)
{
	int fd = new_sock(_metadata, self, 0);
	int v, bad[] = { 3, -1, 1000, 0x7fffffff };
	unsigned int i;
	short small = 1;

	ASSERT_LE(0, fd);
	/* the default is async-ordered */
	EXPECT_EQ(WIND_ASYNC_ORDERED, sockopt_int(fd, SOL_WIND, WIND_MSGTYPE));

	for (v = WIND_SYNC_ORDERED; v >= WIND_ASYNC_ORDERED; v--) {
		EXPECT_EQ(0, setsockopt(fd, SOL_WIND, WIND_MSGTYPE, &v,
					sizeof(v)))
			TH_LOG("type %d: %s", v, strerror(errno));
		EXPECT_EQ(v, sockopt_int(fd, SOL_WIND, WIND_MSGTYPE));
	}

	v = WIND_ASYNC_RELIABLE;
	ASSERT_EQ(0, setsockopt(fd, SOL_WIND, WIND_MSGTYPE, &v, sizeof(v)));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, setsockopt(fd, SOL_WIND, WIND_MSGTYPE, &bad[i],
					 sizeof(bad[i])))
			TH_LOG("type %d accepted", bad[i]);
		EXPECT_EQ(EINVAL, errno);
	}
	EXPECT_EQ(-1, setsockopt(fd, SOL_WIND, WIND_MSGTYPE, &small,
				 sizeof(small)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(fd, SOL_WIND, WIND_MSGTYPE, &v, 0));
	EXPECT_EQ(EINVAL, errno);
	/* the rejected values left the setting alone */
	EXPECT_EQ(WIND_ASYNC_RELIABLE, sockopt_int(fd, SOL_WIND, WIND_MSGTYPE));
}

TEST_F(sock, unknown_option)
{
	int fd = new_sock(_metadata, self, 0);
	socklen_t len = sizeof(int);
	int v = 1;

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, setsockopt(fd, SOL_WIND, 99, &v, sizeof(v)));
	EXPECT_EQ(ENOPROTOOPT, errno);
	EXPECT_EQ(-1, getsockopt(fd, SOL_WIND, 99, &v, &len));
	EXPECT_EQ(ENOPROTOOPT, errno);
	EXPECT_EQ(-1, setsockopt(fd, SOL_WIND, 0, &v, sizeof(v)));
	EXPECT_EQ(ENOPROTOOPT, errno);
}

TEST_F(sock, socket_buffers)
{
	int fd = new_sock(_metadata, self, 0);
	int v = 65536;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)));
	EXPECT_EQ(2 * v, sockopt_int(fd, SOL_SOCKET, SO_RCVBUF));
	ASSERT_EQ(0, setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)));
	EXPECT_EQ(2 * v, sockopt_int(fd, SOL_SOCKET, SO_SNDBUF));
}

/* shutdown(SHUT_WR): every later send fails with EPIPE (SIGPIPE unless
 * MSG_NOSIGNAL), as on a stream socket; receiving goes on.
 */
TEST_F(sock, shutdown_wr_stops_sends)
{
	int tx = new_sock(_metadata, self, 0);
	int rx = new_sock(_metadata, self, 0);
	struct sockaddr_in to;
	char c = 'x';

	ASSERT_LE(0, tx);
	ASSERT_LE(0, rx);
	ASSERT_EQ(0, bind_to(rx, NODE0, 5300));
	wind_sin(&to, NODE0, 5300);
	ASSERT_EQ(1, sendto(tx, &c, 1, 0, (struct sockaddr *)&to, sizeof(to)));
	ASSERT_EQ(0, connect(tx, (struct sockaddr *)&to, sizeof(to)));
	ASSERT_EQ(0, shutdown(tx, SHUT_WR));
	errno = 0;
	EXPECT_EQ(-1, sendto(tx, &c, 1, MSG_NOSIGNAL, (struct sockaddr *)&to,
			     sizeof(to)));
	EXPECT_EQ(EPIPE, errno);
	EXPECT_EQ(-1, sendto(tx, &c, 1, MSG_NOSIGNAL | MSG_WIND_SYNC,
			     (struct sockaddr *)&to, sizeof(to)));
	EXPECT_EQ(EPIPE, errno);
	EXPECT_EQ(-1, send(tx, &c, 1, MSG_NOSIGNAL));
	EXPECT_EQ(EPIPE, errno);
	/* what was sent before the shutdown arrives */
	EXPECT_EQ(1, recv(rx, &c, 1, 0));
}

/* The sysctls may leave rto_min_ms above rto_max_ms (one write at a
 * time): the ceiling is then taken as the floor, and traffic flows.
 */
TEST_F(sock, rto_min_above_max_still_works)
{
	int tx, rx;
	struct sockaddr_in to;
	char buf[4] = "abc";

	ASSERT_EQ(0, wind_write_file_in(wind_ns(0), "/proc/sys/net/wind/rto_max_ms", "30"));
	ASSERT_EQ(0, wind_write_file_in(wind_ns(0), "/proc/sys/net/wind/rto_min_ms", "200"));
	tx = new_sock(_metadata, self, 0);
	rx = new_sock(_metadata, self, 0);
	ASSERT_LE(0, tx);
	ASSERT_LE(0, rx);
	ASSERT_EQ(0, bind_to(rx, NODE0, 5301));
	wind_sin(&to, NODE0, 5301);
	EXPECT_EQ(3, sendto(tx, buf, 3, MSG_WIND_SYNC, (struct sockaddr *)&to,
			    sizeof(to)));
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(3, recv(rx, buf, sizeof(buf), 0));
	EXPECT_STREQ("abc", buf);
}

TEST_HARNESS_MAIN
