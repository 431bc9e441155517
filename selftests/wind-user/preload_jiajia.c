// SPDX-License-Identifier: GPL-2.0
/*
 * preload_jiajia: a UDP program in the style of the JIAJIA software DSM
 * (Hu, Shi, Tang), run under libwind-preload.so by wind_preload.sh.  Its
 * communication code uses only plain UDP calls: socket(AF_INET,
 * SOCK_DGRAM), bind, sendto, recvfrom, select with a zero timeout, SIGIO
 * through F_SETOWN and O_ASYNC, SO_SNDBUF/SO_RCVBUF of 650 KB, messages
 * of up to 40 KiB, a few dozen sockets.  The checks peek at the sockets
 * with getsockopt(SOL_WIND) to see that the shim made them Wind sockets.
 *
 *   preload_jiajia local
 *	one process, loopback: conversion and UDP appearances, flags, UDP
 *	options, buffers, 48 sockets (24 on fixed ports, 24 on port 0),
 *	select(0), poll, epoll, 40 KiB messages, MSG_TRUNC, SIGIO, EINTR.
 *   preload_jiajia ports LISTED UNLISTED
 *	run with WIND_PRELOAD_PORTS covering LISTED and LISTED+100..+102
 *	but not UNLISTED: conversion at bind(), what carries over.
 *   preload_jiajia serve PORT NSOCK
 *	NSOCK sockets, the first half on PORT.., the rest on port 0;
 *	SIGIO-driven, select(0) to find the readable ones; echoes every
 *	request transformed; reads a burst slowly; exits 0 once every
 *	socket got "bye" and everything checked out.
 *   preload_jiajia client ADDR PORT NSOCK BURST
 *	the peer of serve: pipelined requests of 16 B..40 KiB on every
 *	socket, replies checked byte for byte and in order, then BURST
 *	messages of 40 KiB on a blocking socket (sendto must never fail),
 *	then bye.
 *
 * Exit status 0 on success; diagnostics are "# " lines.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/wind.h>

#define BUFSZ		(650 * 1024)	/* JIAJIA's socket buffers */
#define MAXMSG		40960		/* JIAJIA's largest message */
#define MAGIC		0x4a49414au	/* "JIAJ" */
#define MAXSOCK		64

enum kind { REQ = 1, REP, HELLO, PORTS, BURST, BURST_DONE, BYE };

struct hdr {
	uint32_t magic, kind, sock, seq, len;
};

static int failures;

#define fail(...) do {							\
		printf("# FAIL %s:%d: ", __func__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		fflush(stdout);						\
		failures++;						\
	} while (0)
#define check(cond, ...) do { if (!(cond)) fail(#cond ": " __VA_ARGS__); } while (0)

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void sin_set(struct sockaddr_in *sa, in_addr_t addr_be, int port)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = addr_be;
	sa->sin_port = htons(port);
}

static int port_of(int fd)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0)
		return -1;
	return ntohs(sa.sin_port);
}

static int opt_int(int fd, int level, int name)
{
	socklen_t len = sizeof(int);
	int v = -12345;

	if (getsockopt(fd, level, name, &v, &len) < 0)
		return -errno;
	return len == sizeof(int) ? v : -EPROTO;
}

/* The shim made it Wind: only a Wind socket knows SOL_WIND options */
static bool is_wind(int fd)
{
	return opt_int(fd, SOL_WIND, WIND_MSGTYPE) >= 0;
}

static long sysctl_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* What a Linux socket reports for SO_SNDBUF/SO_RCVBUF after setting v */
static int expected_buf(int v, const char *max_path)
{
	long max = sysctl_long(max_path);

	if (max > 0 && v > max)
		v = (int)max;
	return 2 * v;
}

static int set_bufs(int fd)
{
	int v = BUFSZ;

	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0)
		return -1;
	return 0;
}

/* Deterministic bytes of message (sock, seq), transformed for replies */
static void pattern(unsigned char *p, size_t len, uint32_t sock,
		    uint32_t seq, unsigned char xor)
{
	uint32_t x = (sock * 2654435761u) ^ (seq * 40503u) ^ 0x9e3779b9u;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x ^ xor;
	}
}

static size_t msg_size(uint32_t sock, uint32_t seq)
{
	static const size_t sizes[] = { 16, 100, 1452, 1453, 4096, 9000,
					20000, 32768, 40000, MAXMSG };
	uint32_t h = sock * 31 + seq * 7;

	if (h % 5 == 0)
		return MAXMSG;
	return sizes[h % (sizeof(sizes) / sizeof(sizes[0]))];
}

static size_t build(unsigned char *buf, enum kind kind, uint32_t sock,
		    uint32_t seq, size_t len, unsigned char xor)
{
	struct hdr h = { MAGIC, kind, sock, seq, (uint32_t)len };

	if (len < sizeof(h))
		len = sizeof(h);
	memcpy(buf, &h, sizeof(h));
	pattern(buf + sizeof(h), len - sizeof(h), sock, seq, xor);
	h.len = (uint32_t)len;
	memcpy(buf, &h, sizeof(h));
	return len;
}

/* Checks a message of kind against what build() makes; returns its hdr */
static bool verify(const unsigned char *buf, ssize_t n, enum kind kind,
		   unsigned char xor, struct hdr *out)
{
	static unsigned char want[MAXMSG];
	struct hdr h;

	if (n < (ssize_t)sizeof(h)) {
		fail("message of %zd bytes", n);
		return false;
	}
	memcpy(&h, buf, sizeof(h));
	if (h.magic != MAGIC || h.kind != (uint32_t)kind || h.len != (uint32_t)n ||
	    n > MAXMSG) {
		fail("bad header: magic %#x kind %u (want %u) len %u, got %zd bytes",
		     h.magic, h.kind, kind, h.len, n);
		return false;
	}
	build(want, kind, h.sock, h.seq, n, xor);
	if (memcmp(want, buf, n)) {
		size_t i = 0;

		while (want[i] == buf[i])
			i++;
		fail("kind %u sock %u seq %u: byte %zu of %zd differs", kind,
		     h.sock, h.seq, i, n);
		return false;
	}
	if (out)
		*out = h;
	return true;
}

/* ---- local: one process over 127.0.0.1 ------------------------------- */

static volatile sig_atomic_t sigio_count, alarm_count;

static void on_sigio(int sig)
{
	(void)sig;
	sigio_count++;
}

static void on_alarm(int sig)
{
	(void)sig;
	alarm_count++;
}

static void local_conversion(void)
{
	int fd, fd2, fl;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	check(fd >= 0, "socket: %s", strerror(errno));
	check(is_wind(fd), "SOCK_DGRAM, 0 not converted");
	check(opt_int(fd, SOL_SOCKET, SO_TYPE) == SOCK_DGRAM, "SO_TYPE %d",
	      opt_int(fd, SOL_SOCKET, SO_TYPE));
	check(opt_int(fd, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_UDP,
	      "SO_PROTOCOL %d", opt_int(fd, SOL_SOCKET, SO_PROTOCOL));
	check(opt_int(fd, SOL_SOCKET, SO_DOMAIN) == AF_INET, "SO_DOMAIN");
	fl = fcntl(fd, F_GETFL);
	check(!(fl & O_NONBLOCK), "O_NONBLOCK without SOCK_NONBLOCK");
	check(!(fcntl(fd, F_GETFD) & FD_CLOEXEC), "FD_CLOEXEC without SOCK_CLOEXEC");
	/* a dup is the same socket: still disguised */
	fd2 = dup(fd);
	check(opt_int(fd2, SOL_SOCKET, SO_TYPE) == SOCK_DGRAM, "SO_TYPE of a dup");
	close(fd2);
	close(fd);

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    IPPROTO_UDP);
	check(fd >= 0 && is_wind(fd), "SOCK_DGRAM|NONBLOCK|CLOEXEC, IPPROTO_UDP not converted");
	check(fcntl(fd, F_GETFL) & O_NONBLOCK, "SOCK_NONBLOCK lost");
	check(fcntl(fd, F_GETFD) & FD_CLOEXEC, "SOCK_CLOEXEC lost");
	{
		char c;
		ssize_t n = recvfrom(fd, &c, 1, 0, NULL, NULL);

		check(n == -1 && errno == EAGAIN, "non-blocking recvfrom: %zd %s",
		      n, strerror(errno));
	}
	close(fd);

	/* Not UDP: untouched */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	check(fd >= 0 && !is_wind(fd) &&
	      opt_int(fd, SOL_SOCKET, SO_TYPE) == SOCK_STREAM, "TCP touched");
	close(fd);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	check(fd >= 0 && !is_wind(fd) &&
	      opt_int(fd, SOL_SOCKET, SO_TYPE) == SOCK_DGRAM, "AF_UNIX touched");
	close(fd);
	fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);	/* ping socket */
	if (fd >= 0) {
		check(!is_wind(fd), "ICMP datagram socket converted");
		close(fd);
	}
	fd = socket(AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6);	/* ping6 */
	if (fd >= 0) {
		check(!is_wind(fd), "ICMPv6 datagram socket converted");
		close(fd);
	}
	/* UDP over IPv6 is converted too, and looks like UDP over IPv6 */
	fd = socket(AF_INET6, SOCK_DGRAM, 0);
	check(fd >= 0 && is_wind(fd), "AF_INET6 UDP not converted");
	check(opt_int(fd, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_UDP,
	      "AF_INET6 SO_PROTOCOL");
	check(opt_int(fd, SOL_SOCKET, SO_TYPE) == SOCK_DGRAM, "AF_INET6 SO_TYPE");
	check(opt_int(fd, SOL_SOCKET, SO_DOMAIN) == AF_INET6, "AF_INET6 SO_DOMAIN");
	close(fd);
	/* A Wind socket the program opens itself is not disguised */
	fd = socket(AF_INET, SOCK_WIND, 0);
	check(fd >= 0 && opt_int(fd, SOL_SOCKET, SO_TYPE) == SOCK_WIND,
	      "own Wind socket: SO_TYPE %d", opt_int(fd, SOL_SOCKET, SO_TYPE));
	close(fd);
}

static void local_options(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0), v;

	v = 1;
	check(setsockopt(fd, IPPROTO_UDP, UDP_GRO, &v, sizeof(v)) == 0,
	      "UDP_GRO on: %s", strerror(errno));
	check(opt_int(fd, IPPROTO_UDP, UDP_GRO) == 0, "UDP_GRO reads %d",
	      opt_int(fd, IPPROTO_UDP, UDP_GRO));
	errno = 0;
	check(setsockopt(fd, IPPROTO_UDP, UDP_CORK, &v, sizeof(v)) == -1 &&
	      errno == ENOPROTOOPT, "UDP_CORK on accepted (%s)", strerror(errno));
	v = 0;
	check(setsockopt(fd, IPPROTO_UDP, UDP_CORK, &v, sizeof(v)) == 0,
	      "UDP_CORK off refused");
	v = 1400;
	errno = 0;
	check(setsockopt(fd, IPPROTO_UDP, UDP_SEGMENT, &v, sizeof(v)) == -1 &&
	      errno == ENOPROTOOPT, "UDP_SEGMENT accepted");
	check(opt_int(fd, IPPROTO_UDP, 4242) == -ENOPROTOOPT, "unknown UDP option");

	v = 1;
	check(setsockopt(fd, SOL_IP, IP_RECVERR, &v, sizeof(v)) == 0,
	      "IP_RECVERR: %s", strerror(errno));
	check(opt_int(fd, SOL_WIND, WIND_RECVERR) == 1, "IP_RECVERR did not set WIND_RECVERR");
	v = 0x10;
	check(setsockopt(fd, SOL_IP, IP_TOS, &v, sizeof(v)) == 0 &&
	      opt_int(fd, SOL_IP, IP_TOS) == 0x10, "IP_TOS");
	v = 1;
	check(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &v, sizeof(v)) == 0 &&
	      opt_int(fd, SOL_SOCKET, SO_REUSEADDR) == 1, "SO_REUSEADDR");

	check(set_bufs(fd) == 0, "SO_SNDBUF/SO_RCVBUF %d: %s", BUFSZ, strerror(errno));
	check(opt_int(fd, SOL_SOCKET, SO_SNDBUF) ==
	      expected_buf(BUFSZ, "/proc/sys/net/core/wmem_max"),
	      "SO_SNDBUF reads %d, want %d", opt_int(fd, SOL_SOCKET, SO_SNDBUF),
	      expected_buf(BUFSZ, "/proc/sys/net/core/wmem_max"));
	check(opt_int(fd, SOL_SOCKET, SO_RCVBUF) ==
	      expected_buf(BUFSZ, "/proc/sys/net/core/rmem_max"),
	      "SO_RCVBUF reads %d, want %d", opt_int(fd, SOL_SOCKET, SO_RCVBUF),
	      expected_buf(BUFSZ, "/proc/sys/net/core/rmem_max"));
	diag("SO_SNDBUF %d, SO_RCVBUF %d", opt_int(fd, SOL_SOCKET, SO_SNDBUF),
	     opt_int(fd, SOL_SOCKET, SO_RCVBUF));
	close(fd);
}

#define NLOCAL		48
#define LOCAL_PORT	7100

/* 48 sockets, a ring of messages, select(0) */
static void local_many(void)
{
	static unsigned char buf[MAXMSG], want[MAXMSG];
	struct sockaddr_in sa, from;
	int fds[NLOCAL], ports[NLOCAL], i, j, maxfd = -1, dup_fd;
	socklen_t flen;
	struct timeval tv;
	fd_set rd;
	long long t0;

	for (i = 0; i < NLOCAL; i++) {
		fds[i] = socket(AF_INET, SOCK_DGRAM, 0);
		check(fds[i] >= 0 && is_wind(fds[i]), "socket %d", i);
		check(set_bufs(fds[i]) == 0, "buffers of socket %d", i);
		sin_set(&sa, htonl(INADDR_ANY), i < NLOCAL / 2 ? LOCAL_PORT + i : 0);
		check(bind(fds[i], (struct sockaddr *)&sa, sizeof(sa)) == 0,
		      "bind socket %d: %s", i, strerror(errno));
		ports[i] = port_of(fds[i]);
		if (i < NLOCAL / 2)
			check(ports[i] == LOCAL_PORT + i, "port %d", ports[i]);
		else
			check(ports[i] > 0, "ephemeral port %d", ports[i]);
		for (j = 0; j < i; j++)
			check(ports[j] != ports[i], "sockets %d and %d share port %d",
			      j, i, ports[i]);
		if (fds[i] > maxfd)
			maxfd = fds[i];
	}
	/* a fixed port is taken */
	dup_fd = socket(AF_INET, SOCK_DGRAM, 0);
	sin_set(&sa, htonl(INADDR_ANY), LOCAL_PORT);
	errno = 0;
	check(bind(dup_fd, (struct sockaddr *)&sa, sizeof(sa)) == -1 &&
	      errno == EADDRINUSE, "second bind to %d: %s", LOCAL_PORT,
	      strerror(errno));
	close(dup_fd);

	/* select with a zero timeout on idle sockets: nothing, at once */
	FD_ZERO(&rd);
	for (i = 0; i < NLOCAL; i++)
		FD_SET(fds[i], &rd);
	tv.tv_sec = 0;
	tv.tv_usec = 0;
	t0 = now_ms();
	check(select(maxfd + 1, &rd, NULL, NULL, &tv) == 0, "idle select(0)");
	check(now_ms() - t0 < 200, "select(0) took %lld ms", now_ms() - t0);

	/* every socket sends one message to the next in the ring */
	for (i = 0; i < NLOCAL; i++) {
		size_t len = build(buf, REQ, i, 0, msg_size(i, 0), 0);

		sin_set(&sa, htonl(INADDR_LOOPBACK), ports[(i + 1) % NLOCAL]);
		check(sendto(fds[i], buf, len, 0, (struct sockaddr *)&sa,
			     sizeof(sa)) == (ssize_t)len, "sendto %d: %s", i,
		      strerror(errno));
	}
	/* select(0) polled until every socket is readable */
	t0 = now_ms();
	for (;;) {
		int n;

		FD_ZERO(&rd);
		for (i = 0; i < NLOCAL; i++)
			FD_SET(fds[i], &rd);
		tv.tv_sec = 0;
		tv.tv_usec = 0;
		n = select(maxfd + 1, &rd, NULL, NULL, &tv);
		if (n == NLOCAL || now_ms() - t0 > 10000) {
			check(n == NLOCAL, "select(0) says %d of %d readable", n, NLOCAL);
			break;
		}
		msleep(2);
	}
	/* poll() and epoll see the same */
	{
		struct epoll_event evs[NLOCAL];
		struct pollfd pfds[NLOCAL];
		int ep = epoll_create1(EPOLL_CLOEXEC), n;

		for (i = 0; i < NLOCAL; i++) {
			struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };

			check(epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev) == 0, "epoll_ctl");
			pfds[i].fd = fds[i];
			pfds[i].events = POLLIN;
		}
		n = epoll_wait(ep, evs, NLOCAL, 0);
		check(n == NLOCAL, "epoll_wait: %d of %d", n, NLOCAL);
		n = poll(pfds, NLOCAL, 0);
		check(n == NLOCAL, "poll: %d of %d", n, NLOCAL);
		close(ep);
	}
	for (i = 0; i < NLOCAL; i++) {
		int src = (i + NLOCAL - 1) % NLOCAL;
		ssize_t n;

		flen = sizeof(from);
		n = recvfrom(fds[i], buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &flen);
		build(want, REQ, src, 0, msg_size(src, 0), 0);
		check(n == (ssize_t)msg_size(src, 0) && !memcmp(buf, want, n),
		      "socket %d got %zd bytes", i, n);
		check(flen == sizeof(from) && ntohs(from.sin_port) == ports[src] &&
		      from.sin_addr.s_addr == htonl(INADDR_LOOPBACK),
		      "socket %d: sender port %d, want %d", i,
		      ntohs(from.sin_port), ports[src]);
	}

	/* MSG_TRUNC as UDP: the rest of a long message is gone */
	{
		size_t len = build(buf, REQ, 1, 1, MAXMSG, 0);
		unsigned char small[100];
		ssize_t n;

		sin_set(&sa, htonl(INADDR_LOOPBACK), ports[1]);
		sendto(fds[0], buf, len, 0, (struct sockaddr *)&sa, sizeof(sa));
		len = build(buf, REQ, 1, 2, 300, 0);
		sendto(fds[0], buf, len, 0, (struct sockaddr *)&sa, sizeof(sa));
		n = recv(fds[1], small, sizeof(small), 0);
		build(want, REQ, 1, 1, MAXMSG, 0);
		check(n == sizeof(small) && !memcmp(small, want, n),
		      "truncated recv: %zd", n);
		n = recv(fds[1], buf, sizeof(buf), 0);
		check(verify(buf, n, REQ, 0, NULL) && n == 300,
		      "after a truncated message: %zd bytes", n);
	}
	for (i = 0; i < NLOCAL; i++)
		close(fds[i]);
}

static void local_signals(void)
{
	static unsigned char buf[MAXMSG];
	struct sockaddr_in sa;
	struct sigaction act;
	struct itimerval it;
	int rx, tx, port, fl;
	long long t0;
	ssize_t n;
	size_t len;

	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	sin_set(&sa, htonl(INADDR_ANY), 0);
	check(bind(rx, (struct sockaddr *)&sa, sizeof(sa)) == 0, "bind");
	port = port_of(rx);

	/* SIGIO, the way JIAJIA asks for it */
	memset(&act, 0, sizeof(act));
	act.sa_handler = on_sigio;
	act.sa_flags = SA_RESTART;
	sigaction(SIGIO, &act, NULL);
	check(fcntl(rx, F_SETOWN, getpid()) == 0, "F_SETOWN");
	fl = fcntl(rx, F_GETFL);
	check(fcntl(rx, F_SETFL, fl | O_ASYNC | O_NONBLOCK) == 0, "O_ASYNC");
	sigio_count = 0;
	len = build(buf, REQ, 7, 7, 5000, 0);
	sin_set(&sa, htonl(INADDR_LOOPBACK), port);
	check(sendto(tx, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)) ==
	      (ssize_t)len, "sendto");
	t0 = now_ms();
	while (!sigio_count && now_ms() - t0 < 5000)
		msleep(1);
	check(sigio_count > 0, "no SIGIO within 5 s of a message");
	n = recvfrom(rx, buf, sizeof(buf), 0, NULL, NULL);
	check(verify(buf, n, REQ, 0, NULL), "message after SIGIO");
	/* a second message, a second signal */
	sigio_count = 0;
	len = build(buf, REQ, 7, 8, MAXMSG, 0);
	sendto(tx, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa));
	t0 = now_ms();
	while (!sigio_count && now_ms() - t0 < 5000)
		msleep(1);
	check(sigio_count > 0, "no SIGIO for the second message");
	n = recvfrom(rx, buf, sizeof(buf), 0, NULL, NULL);
	check(verify(buf, n, REQ, 0, NULL) && n == MAXMSG, "second message");
	fcntl(rx, F_SETFL, fl);

	/* A blocking recvfrom interrupted by a signal: EINTR */
	memset(&act, 0, sizeof(act));
	act.sa_handler = on_alarm;
	act.sa_flags = 0;		/* no SA_RESTART */
	sigaction(SIGALRM, &act, NULL);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 200000;
	alarm_count = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	t0 = now_ms();
	errno = 0;
	n = recvfrom(rx, buf, sizeof(buf), 0, NULL, NULL);
	check(n == -1 && errno == EINTR && alarm_count == 1,
	      "recvfrom: %zd, %s, %d alarms", n, strerror(errno), (int)alarm_count);
	check(now_ms() - t0 >= 150, "recvfrom returned after %lld ms", now_ms() - t0);
	/* and the socket still works */
	len = build(buf, REQ, 7, 9, 64, 0);
	sendto(tx, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa));
	n = recvfrom(rx, buf, sizeof(buf), 0, NULL, NULL);
	check(verify(buf, n, REQ, 0, NULL), "message after EINTR");
	close(rx);
	close(tx);
}

static int mode_local(void)
{
	local_conversion();
	local_options();
	local_many();
	local_signals();
	return failures ? 1 : 0;
}

/* ---- ports: WIND_PRELOAD_PORTS, conversion at bind() ------------------ */

static int mode_ports(int listed, int unlisted)
{
	static unsigned char buf[MAXMSG];
	struct sockaddr_in sa;
	int a, b, c, d, e, v, rcvbuf_udp, fd_a;
	struct f_owner_ex owner;
	long long t0;
	ssize_t n;
	size_t len;

	/* a: options and flags set on the UDP socket, then bound to a listed port */
	a = socket(AF_INET, SOCK_DGRAM, 0);
	fd_a = a;
	check(a >= 0 && !is_wind(a), "before bind the socket is UDP");
	check(set_bufs(a) == 0, "buffers");
	rcvbuf_udp = opt_int(a, SOL_SOCKET, SO_RCVBUF);
	v = 1;
	check(setsockopt(a, SOL_SOCKET, SO_REUSEADDR, &v, sizeof(v)) == 0, "SO_REUSEADDR");
	v = 0x10;
	check(setsockopt(a, SOL_IP, IP_TOS, &v, sizeof(v)) == 0, "IP_TOS");
	v = 1;
	check(setsockopt(a, SOL_IP, IP_RECVERR, &v, sizeof(v)) == 0, "IP_RECVERR");
	v = 1;
	check(setsockopt(a, IPPROTO_UDP, UDP_GRO, &v, sizeof(v)) == 0, "UDP_GRO on UDP");
	check(fcntl(a, F_SETOWN, getpid()) == 0, "F_SETOWN");
	check(fcntl(a, F_SETFL, O_NONBLOCK | O_ASYNC) == 0, "F_SETFL");
	check(fcntl(a, F_SETFD, FD_CLOEXEC) == 0, "F_SETFD");
	sin_set(&sa, htonl(INADDR_ANY), listed);
	check(bind(a, (struct sockaddr *)&sa, sizeof(sa)) == 0, "bind %d: %s",
	      listed, strerror(errno));
	check(a == fd_a && is_wind(a), "bound to a listed port, not Wind");
	check(opt_int(a, SOL_SOCKET, SO_TYPE) == SOCK_DGRAM, "SO_TYPE");
	check(port_of(a) == listed, "port %d", port_of(a));
	check(opt_int(a, SOL_SOCKET, SO_RCVBUF) == rcvbuf_udp,
	      "SO_RCVBUF %d, UDP had %d", opt_int(a, SOL_SOCKET, SO_RCVBUF), rcvbuf_udp);
	check(opt_int(a, SOL_SOCKET, SO_SNDBUF) ==
	      expected_buf(BUFSZ, "/proc/sys/net/core/wmem_max"), "SO_SNDBUF");
	check(opt_int(a, SOL_SOCKET, SO_REUSEADDR) == 1, "SO_REUSEADDR lost");
	check(opt_int(a, SOL_IP, IP_TOS) == 0x10, "IP_TOS lost");
	check(opt_int(a, SOL_WIND, WIND_RECVERR) == 1, "IP_RECVERR -> WIND_RECVERR lost");
	check((fcntl(a, F_GETFL) & (O_NONBLOCK | O_ASYNC)) == (O_NONBLOCK | O_ASYNC),
	      "file flags lost: %#x", fcntl(a, F_GETFL));
	check(fcntl(a, F_GETFD) & FD_CLOEXEC, "FD_CLOEXEC lost");
	check(fcntl(a, F_GETOWN_EX, &owner) == 0 && owner.pid == getpid() &&
	      owner.type == F_OWNER_PID, "owner lost: %d", owner.pid);

	/* b: unlisted port, stays UDP */
	b = socket(AF_INET, SOCK_DGRAM, 0);
	sin_set(&sa, htonl(INADDR_ANY), unlisted);
	check(bind(b, (struct sockaddr *)&sa, sizeof(sa)) == 0, "bind %d", unlisted);
	check(!is_wind(b) && opt_int(b, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_UDP,
	      "unlisted port converted");
	/* c: never bound, sends: stays UDP */
	c = socket(AF_INET, SOCK_DGRAM, 0);
	sin_set(&sa, htonl(INADDR_LOOPBACK), unlisted);
	check(sendto(c, "x", 1, 0, (struct sockaddr *)&sa, sizeof(sa)) == 1, "UDP sendto");
	check(!is_wind(c), "unbound socket converted");
	n = recv(b, buf, sizeof(buf), 0);
	check(n == 1 && buf[0] == 'x', "UDP still works: %zd", n);
	/* d: a range, no CLOEXEC */
	d = socket(AF_INET, SOCK_DGRAM, 0);
	sin_set(&sa, htonl(INADDR_ANY), listed + 100);
	check(bind(d, (struct sockaddr *)&sa, sizeof(sa)) == 0 && is_wind(d),
	      "port %d of a range not converted", listed + 100);
	check(!(fcntl(d, F_GETFD) & FD_CLOEXEC), "FD_CLOEXEC appeared");
	check(!(fcntl(d, F_GETFL) & O_NONBLOCK), "O_NONBLOCK appeared");
	/* e: bind to a taken listed port fails and leaves it UDP, a retry works */
	e = socket(AF_INET, SOCK_DGRAM, 0);
	sin_set(&sa, htonl(INADDR_ANY), listed);
	errno = 0;
	check(bind(e, (struct sockaddr *)&sa, sizeof(sa)) == -1 && errno == EADDRINUSE,
	      "bind to a taken port: %s", strerror(errno));
	check(!is_wind(e), "failed bind converted it");
	sin_set(&sa, htonl(INADDR_ANY), listed + 102);
	check(bind(e, (struct sockaddr *)&sa, sizeof(sa)) == 0 && is_wind(e),
	      "retried bind");

	/* Traffic between two converted sockets, SIGIO on the one from before bind */
	{
		struct sigaction act;

		memset(&act, 0, sizeof(act));
		act.sa_handler = on_sigio;
		sigaction(SIGIO, &act, NULL);
	}
	sigio_count = 0;
	len = build(buf, REQ, 3, 3, MAXMSG, 0);
	sin_set(&sa, htonl(INADDR_LOOPBACK), listed);
	check(sendto(d, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)) ==
	      (ssize_t)len, "sendto a converted socket: %s", strerror(errno));
	t0 = now_ms();
	while (!sigio_count && now_ms() - t0 < 5000)
		msleep(1);
	check(sigio_count > 0, "no SIGIO on the socket converted at bind");
	n = recv(a, buf, sizeof(buf), 0);
	check(verify(buf, n, REQ, 0, NULL) && n == MAXMSG, "message: %zd", n);
	errno = 0;
	n = recv(a, buf, sizeof(buf), 0);
	check(n == -1 && errno == EAGAIN, "O_NONBLOCK not in force: %zd", n);
	close(a);
	close(b);
	close(c);
	close(d);
	close(e);
	return failures ? 1 : 0;
}

/* ---- serve / client: two nodes ---------------------------------------- */

#define ROUNDS		3
#define PIPELINE	4

static int mode_serve(int port, int nsock)
{
	static unsigned char buf[MAXMSG], out[MAXMSG];
	uint32_t next_seq[MAXSOCK] = { 0 }, burst_next = 0;
	bool bye[MAXSOCK] = { false };
	int fds[MAXSOCK], ports[MAXSOCK], i, nbye = 0, maxfd = -1, sigios = 0;
	long long deadline = now_ms() + 240000, burst_sleep = 0;
	struct sockaddr_in sa;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (i = 0; i < nsock; i++) {
		fds[i] = socket(AF_INET, SOCK_DGRAM, 0);
		check(fds[i] >= 0 && is_wind(fds[i]), "socket %d not Wind", i);
		check(set_bufs(fds[i]) == 0, "buffers");
		sin_set(&sa, htonl(INADDR_ANY), i < nsock / 2 ? port + i : 0);
		check(bind(fds[i], (struct sockaddr *)&sa, sizeof(sa)) == 0,
		      "bind %d: %s", i, strerror(errno));
		ports[i] = port_of(fds[i]);
		fcntl(fds[i], F_SETOWN, getpid());
		fcntl(fds[i], F_SETFL, O_NONBLOCK | O_ASYNC);
		if (fds[i] > maxfd)
			maxfd = fds[i];
	}
	if (failures)
		return 1;
	printf("# serve: %d sockets ready\n", nsock);
	fflush(stdout);

	while (nbye < nsock && now_ms() < deadline) {
		struct timespec ts = { 5, 0 };
		struct timeval tv = { 0, 0 };
		fd_set rd;
		int n;

		/* JIAJIA: SIGIO says "something came", select(0) says where */
		FD_ZERO(&rd);
		for (i = 0; i < nsock; i++)
			FD_SET(fds[i], &rd);
		n = select(maxfd + 1, &rd, NULL, NULL, &tv);
		if (n == 0) {
			if (sigtimedwait(&set, NULL, &ts) == SIGIO) {
				sigios++;
				continue;
			}
			/* no signal for 5 s: was something there? */
			FD_ZERO(&rd);
			for (i = 0; i < nsock; i++)
				FD_SET(fds[i], &rd);
			if (select(maxfd + 1, &rd, NULL, NULL, &tv) > 0)
				fail("data waiting but no SIGIO for 5 s");
			continue;
		}
		for (i = 0; i < nsock; i++) {
			struct sockaddr_in from;
			socklen_t flen = sizeof(from);
			struct hdr h;
			ssize_t m;
			size_t len;

			if (!FD_ISSET(fds[i], &rd))
				continue;
			m = recvfrom(fds[i], buf, sizeof(buf), 0,
				     (struct sockaddr *)&from, &flen);
			if (m < 0) {
				if (errno != EAGAIN)
					fail("recvfrom %d: %s", i, strerror(errno));
				continue;
			}
			if (m < (ssize_t)sizeof(h)) {
				fail("short message %zd", m);
				continue;
			}
			memcpy(&h, buf, sizeof(h));
			switch (h.kind) {
			case HELLO: {
				/* tell the client every port */
				struct hdr r = { MAGIC, PORTS, 0, 0, 0 };

				r.len = sizeof(r) + nsock * sizeof(int);
				memcpy(out, &r, sizeof(r));
				memcpy(out + sizeof(r), ports, nsock * sizeof(int));
				if (sendto(fds[i], out, r.len, 0, (struct sockaddr *)&from,
					   flen) != (ssize_t)r.len)
					fail("PORTS reply: %s", strerror(errno));
				break;
			}
			case REQ:
				if (!verify(buf, m, REQ, 0, &h))
					break;
				check(h.sock == (uint32_t)i, "request for %u on socket %d", h.sock, i);
				check(h.seq == next_seq[i], "socket %d: seq %u, want %u (order)",
				      i, h.seq, next_seq[i]);
				next_seq[i] = h.seq + 1;
				len = build(out, REP, h.sock, h.seq, m, 0x5a);
				if (sendto(fds[i], out, len, 0, (struct sockaddr *)&from,
					   flen) != (ssize_t)len)
					fail("reply %d/%u: %s", i, h.seq, strerror(errno));
				break;
			case BURST:
				if (!verify(buf, m, BURST, 0, &h))
					break;
				check(h.seq == burst_next, "burst seq %u, want %u", h.seq, burst_next);
				burst_next = h.seq + 1;
				/* a slow reader: the sender's buffer fills up */
				msleep(10);
				burst_sleep += 10;
				break;
			case BURST_DONE: {
				struct hdr r = { MAGIC, BURST_DONE, 0, burst_next, sizeof(r) };

				check(h.seq == burst_next, "burst: %u sent, %u received", h.seq, burst_next);
				sendto(fds[i], &r, sizeof(r), 0, (struct sockaddr *)&from, flen);
				break;
			}
			case BYE:
				/*
				 * Not answered: the client closes right after
				 * sending it, and its close() waits until we
				 * acknowledged.  (An answer would be sent to a
				 * socket closing under it: see the end of
				 * mode_client.)
				 */
				check(!bye[i], "socket %d: a second bye", i);
				if (!bye[i]) {
					bye[i] = true;
					nbye++;
				}
				check(h.seq == next_seq[i], "socket %d: bye after %u requests, got %u",
				      i, h.seq, next_seq[i]);
				break;
			default:
				fail("message kind %u", h.kind);
			}
		}
	}
	check(nbye == nsock, "only %d of %d sockets said bye", nbye, nsock);
	diag("serve: %d SIGIOs waited for, burst of %u read slowly (%lld ms asleep)",
	     sigios, burst_next, burst_sleep);
	/* close() flushes: the last acks reach the client */
	for (i = 0; i < nsock; i++)
		close(fds[i]);
	return failures ? 1 : 0;
}

/* Wait up to ms for a message on fd; returns its length or -1 */
static ssize_t recv_wait(int fd, void *buf, size_t len, int ms,
			 struct sockaddr_in *from)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	socklen_t flen = sizeof(*from);
	fd_set rd;
	int n;

	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	do
		n = select(fd + 1, &rd, NULL, NULL, &tv);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		errno = n ? errno : ETIMEDOUT;
		return -1;
	}
	return recvfrom(fd, buf, len, 0, (struct sockaddr *)from, &flen);
}

static int mode_client(const char *addr, int port, int nsock, int burst)
{
	static unsigned char buf[MAXMSG];
	int fds[MAXSOCK], sports[MAXSOCK], i, r, k, maxfd = -1;
	uint32_t next_rep[MAXSOCK] = { 0 }, seq[MAXSOCK] = { 0 };
	struct sockaddr_in sa, from, server[MAXSOCK];
	in_addr_t srv = inet_addr(addr);
	long long t0, worst = 0;
	struct hdr h;
	ssize_t n;
	size_t len;

	for (i = 0; i < nsock; i++) {
		fds[i] = socket(AF_INET, SOCK_DGRAM, 0);
		check(fds[i] >= 0 && is_wind(fds[i]), "socket %d not Wind", i);
		check(set_bufs(fds[i]) == 0, "buffers");
		sin_set(&sa, htonl(INADDR_ANY), i < nsock / 2 ? port + 1000 + i : 0);
		check(bind(fds[i], (struct sockaddr *)&sa, sizeof(sa)) == 0,
		      "bind %d: %s", i, strerror(errno));
		if (fds[i] > maxfd)
			maxfd = fds[i];
	}
	if (failures)
		return 1;

	/* Learn the server's ports (half of them ephemeral) */
	sin_set(&sa, srv, port);
	h = (struct hdr){ MAGIC, HELLO, 0, 0, sizeof(h) };
	check(sendto(fds[0], &h, sizeof(h), 0, (struct sockaddr *)&sa,
		     sizeof(sa)) == sizeof(h), "hello: %s", strerror(errno));
	n = recv_wait(fds[0], buf, sizeof(buf), 30000, &from);
	check(n == (ssize_t)(sizeof(h) + nsock * sizeof(int)), "PORTS: %zd %s", n,
	      strerror(errno));
	if (failures)
		return 1;
	memcpy(sports, buf + sizeof(h), nsock * sizeof(int));
	for (i = 0; i < nsock; i++)
		sin_set(&server[i], srv, sports[i]);

	/* Pipelined requests on every socket, replies checked in order */
	t0 = now_ms();
	for (r = 0; r < ROUNDS && !failures; r++) {
		int pending = 0;

		for (i = 0; i < nsock; i++) {
			for (k = 0; k < PIPELINE; k++) {
				len = build(buf, REQ, i, seq[i], msg_size(i, seq[i]), 0);
				n = sendto(fds[i], buf, len, 0,
					   (struct sockaddr *)&server[i], sizeof(server[i]));
				check(n == (ssize_t)len, "request %d/%u: %zd %s", i,
				      seq[i], n, strerror(errno));
				seq[i]++;
				pending++;
			}
		}
		while (pending > 0 && !failures) {
			struct timeval tv = { 60, 0 };
			fd_set rd;
			int m;

			FD_ZERO(&rd);
			for (i = 0; i < nsock; i++)
				FD_SET(fds[i], &rd);
			m = select(maxfd + 1, &rd, NULL, NULL, &tv);
			if (m <= 0) {
				fail("no reply for 60 s (%d pending): %s", pending,
				     m ? strerror(errno) : "timeout");
				break;
			}
			for (i = 0; i < nsock; i++) {
				socklen_t flen = sizeof(from);

				if (!FD_ISSET(fds[i], &rd))
					continue;
				n = recvfrom(fds[i], buf, sizeof(buf), 0,
					     (struct sockaddr *)&from, &flen);
				if (!verify(buf, n, REP, 0x5a, &h))
					continue;
				check(h.sock == (uint32_t)i && h.seq == next_rep[i] &&
				      n == (ssize_t)msg_size(i, h.seq),
				      "socket %d: reply %u/%u of %zd bytes, want seq %u",
				      i, h.sock, h.seq, n, next_rep[i]);
				check(from.sin_port == server[i].sin_port &&
				      from.sin_addr.s_addr == srv, "reply from port %d",
				      ntohs(from.sin_port));
				next_rep[i] = h.seq + 1;
				pending--;
			}
		}
	}
	diag("client: %d sockets x %d requests of up to %d bytes in %lld ms",
	     nsock, ROUNDS * PIPELINE, MAXMSG, now_ms() - t0);

	/* A burst on a blocking socket: sendto waits for room, never EAGAIN */
	t0 = now_ms();
	for (k = 0; k < burst && !failures; k++) {
		long long s = now_ms();

		len = build(buf, BURST, 0, k, MAXMSG, 0);
		n = sendto(fds[0], buf, len, 0, (struct sockaddr *)&server[0],
			   sizeof(server[0]));
		if (n != (ssize_t)len)
			fail("burst sendto %d: %zd %s", k, n, strerror(errno));
		if (now_ms() - s > worst)
			worst = now_ms() - s;
	}
	h = (struct hdr){ MAGIC, BURST_DONE, 0, (uint32_t)burst, sizeof(h) };
	sendto(fds[0], &h, sizeof(h), 0, (struct sockaddr *)&server[0], sizeof(server[0]));
	n = recv_wait(fds[0], buf, sizeof(buf), 120000, &from);
	memcpy(&h, buf, sizeof(h));
	check(n == sizeof(h) && h.kind == BURST_DONE && h.seq == (uint32_t)burst,
	      "burst: server got %u of %d", h.seq, burst);
	diag("client: burst of %d x %d bytes in %lld ms, longest sendto %lld ms",
	     burst, MAXMSG, now_ms() - t0, worst);

	/*
	 * The last word is ours, as in any protocol over a reliable
	 * transport: a bye the server does not answer.  It carries the
	 * acknowledgement of the server's last reply, and close() returns
	 * once the server's kernel acknowledged the bye.  Had the server the
	 * last word, our acknowledgement of it could be lost after we
	 * closed, and the server's retransmission would draw "port
	 * unreachable": ECONNREFUSED for a message that was delivered.
	 */
	for (i = 0; i < nsock; i++) {
		h = (struct hdr){ MAGIC, BYE, i, seq[i], sizeof(h) };
		n = sendto(fds[i], &h, sizeof(h), 0, (struct sockaddr *)&server[i],
			   sizeof(server[i]));
		check(n == sizeof(h), "bye on %d: %s", i, strerror(errno));
	}
	for (i = 0; i < nsock; i++)
		check(close(fds[i]) == 0, "close %d: %s", i, strerror(errno));
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "local"))
		rc = mode_local();
	else if (argc == 4 && !strcmp(argv[1], "ports"))
		rc = mode_ports(atoi(argv[2]), atoi(argv[3]));
	else if (argc == 4 && !strcmp(argv[1], "serve") && atoi(argv[3]) <= MAXSOCK)
		rc = mode_serve(atoi(argv[2]), atoi(argv[3]));
	else if (argc == 6 && !strcmp(argv[1], "client") && atoi(argv[4]) <= MAXSOCK)
		rc = mode_client(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
	else
		fprintf(stderr, "usage: preload_jiajia local | ports LISTED UNLISTED |\n"
			"       serve PORT NSOCK | client ADDR PORT NSOCK BURST\n");
	if (rc == 1)
		printf("# %d failures\n", failures);
	return rc;
}
