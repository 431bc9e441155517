// SPDX-License-Identifier: GPL-2.0
/*
 * wind-demo: the smallest useful Wind program.
 *
 *   wind-demo recv PORT COUNT
 *	bind Wind port PORT, print COUNT messages as they arrive (sender,
 *	length, contents), then exit.
 *
 *   wind-demo send ADDR PORT [--ordered|--reliable|--sync] MESSAGE...
 *	send each MESSAGE from one socket to ADDR:PORT.  A type option
 *	applies to the messages after it: --ordered (the default,
 *	async-ordered), --reliable (async-reliable), --sync (sync-ordered:
 *	the send returns once the receiving kernel acknowledged it).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/wind.h>

#define MAX_MSG		(1 << 20)

static int usage(void)
{
	fprintf(stderr,
		"usage: wind-demo recv PORT COUNT\n"
		"       wind-demo send ADDR PORT [--ordered|--reliable|--sync] MESSAGE...\n");
	return 2;
}

static int parse_port(const char *s, unsigned short *port)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > 65535)
		return -1;
	*port = (unsigned short)v;
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Printable text as is, anything else as \xNN, at most 72 bytes of it */
static void print_bytes(const unsigned char *p, size_t len)
{
	size_t i, shown = len < 72 ? len : 72;

	putchar('"');
	for (i = 0; i < shown; i++) {
		if (p[i] == '"' || p[i] == '\\')
			printf("\\%c", p[i]);
		else if (isprint(p[i]))
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
	putchar('"');
	if (shown < len)
		printf("...");
}

static int wind_socket(void)
{
	int fd = socket(AF_INET, SOCK_WIND, IPPROTO_WIND);

	if (fd < 0)
		perror("wind-demo: socket(AF_INET, SOCK_WIND, IPPROTO_WIND)");
	return fd;
}

static int do_recv(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	unsigned short port;
	unsigned char *buf;
	long count, i;
	char *end;
	int fd;

	if (argc != 2 || parse_port(argv[0], &port))
		return usage();
	count = strtol(argv[1], &end, 10);
	if (*end || end == argv[1] || count < 0)
		return usage();

	buf = malloc(MAX_MSG);
	fd = wind_socket();
	if (!buf || fd < 0)
		return 1;
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	sa.sin_port = htons(port);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("wind-demo: bind");
		return 1;
	}
	printf("recv: listening on Wind port %u for %ld messages\n", port,
	       count);
	fflush(stdout);

	for (i = 1; i <= count; i++) {
		struct sockaddr_in from;
		socklen_t alen = sizeof(from);
		ssize_t n;

		n = recvfrom(fd, buf, MAX_MSG, 0, (struct sockaddr *)&from,
			     &alen);
		if (n < 0) {
			perror("wind-demo: recvfrom");
			return 1;
		}
		printf("recv: #%ld from %s:%u, %zd bytes: ", i,
		       inet_ntoa(from.sin_addr), ntohs(from.sin_port), n);
		print_bytes(buf, n);
		putchar('\n');
		fflush(stdout);
	}
	close(fd);
	free(buf);
	return 0;
}

static int do_send(int argc, char **argv)
{
	static const char *const type_name[] = {
		[WIND_ASYNC_ORDERED] = "async-ordered",
		[WIND_ASYNC_RELIABLE] = "async-reliable",
		[WIND_SYNC_ORDERED] = "sync-ordered",
	};
	static const int type_flag[] = {
		[WIND_ASYNC_ORDERED] = 0,
		[WIND_ASYNC_RELIABLE] = MSG_WIND_RELIABLE,
		[WIND_SYNC_ORDERED] = MSG_WIND_SYNC,
	};
	struct sockaddr_in to = { .sin_family = AF_INET }, me;
	socklen_t alen = sizeof(me);
	int type = WIND_ASYNC_ORDERED, fd, i, sent = 0;
	unsigned short port;

	if (argc < 2 || inet_pton(AF_INET, argv[0], &to.sin_addr) != 1 ||
	    parse_port(argv[1], &port))
		return usage();
	to.sin_port = htons(port);

	fd = wind_socket();
	if (fd < 0)
		return 1;

	for (i = 2; i < argc; i++) {
		size_t len = strlen(argv[i]);
		double t0, dt;
		ssize_t n;

		if (!strcmp(argv[i], "--ordered")) {
			type = WIND_ASYNC_ORDERED;
			continue;
		} else if (!strcmp(argv[i], "--reliable")) {
			type = WIND_ASYNC_RELIABLE;
			continue;
		} else if (!strcmp(argv[i], "--sync")) {
			type = WIND_SYNC_ORDERED;
			continue;
		}

		t0 = now_ms();
		n = sendto(fd, argv[i], len, type_flag[type],
			   (struct sockaddr *)&to, sizeof(to));
		dt = now_ms() - t0;
		if (n < 0) {
			fprintf(stderr, "wind-demo: sendto %s:%u: %s\n",
				argv[0], port, strerror(errno));
			return 1;
		}
		if (!sent++ && !getsockname(fd, (struct sockaddr *)&me, &alen))
			printf("send: from Wind port %u to %s:%u\n",
			       ntohs(me.sin_port), argv[0], port);
		printf("send: %zd bytes as %s, sendto returned after %.2f ms%s\n",
		       n, type_name[type], dt,
		       type == WIND_SYNC_ORDERED ? " (acknowledged)" : "");
		fflush(stdout);
	}
	if (!sent)
		return usage();
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "recv"))
		return do_recv(argc - 2, argv + 2);
	if (!strcmp(argv[1], "send"))
		return do_send(argc - 2, argv + 2);
	return usage();
}
