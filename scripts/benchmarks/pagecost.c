// SPDX-License-Identifier: GPL-2.0
/*
 * Receiver cost of an 8 KiB DSM page: Direct Map, Header Through and
 * Message Through over Wind beside UDP recvfrom() + memcpy() into place.
 * Built and run by scripts/benchmarks/bench-pagecost (inside the VM).
 *
 *   pagecost recv MODE PORT PAGES     (in the receiving netns)
 *   pagecost send MODE ADDR PORT PAGES
 *
 * MODE: dm, ht, mt (Wind) or udp.  The receiver prints pages, seconds from
 * the first to the last page, its system calls and its CPU time.  Sent as
 * "dmsync" (received as "dm"), each page is a Direct Map write sent with
 * MSG_WIND_SYNC, which returns once the receiver's kernel has written and
 * acknowledged it: the sender prints the mean, median and 99th percentile
 * of those sendmsg() calls (one-sided write latency, make bench's rxe rows).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/wind.h>

#define PAGE	8192
#define HDR	32
#define NPAGES	64		/* region: 64 DSM pages, reused round-robin */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long stat_of(const char *name)
{
	char line[128];
	size_t n = strlen(name);
	long v = -1;
	FILE *f = fopen("/proc/net/wind_stat", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ')
			v = atol(line + n + 1);
	if (f)
		fclose(f);
	return v;
}

static int mode_of(const char *m)
{
	if (!strcmp(m, "dm") || !strcmp(m, "dmsync"))
		return WIND_DSM_DIRECT_MAP;
	if (!strcmp(m, "ht"))
		return WIND_DSM_HEADER_THROUGH;
	if (!strcmp(m, "mt"))
		return WIND_DSM_MESSAGE_THROUGH;
	return -1;		/* udp */
}

static int do_recv(const char *m, int port, long pages)
{
	int mode = mode_of(m), fd, big = 4 << 20;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	char *region = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	static char buf[PAGE + HDR + 64];
	long got = 0, calls = 0, w0 = stat_of("InDsmWrites");
	double t0 = 0, t1 = 0;
	struct rusage r0, r1;

	fd = socket(AF_INET, mode < 0 ? SOCK_DGRAM : SOCK_WIND, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)))
		return perror("socket/bind"), 1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	if (mode >= 0) {
		struct wind_region r = { .addr = (unsigned long)region,
					 .len = NPAGES * PAGE, .id = 1, .key = 7 };

		if (setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)))
			return perror("WIND_REGION_ADD"), 1;
	}
	printf("ready\n");
	fflush(stdout);
	getrusage(RUSAGE_SELF, &r0);
	if (mode == WIND_DSM_DIRECT_MAP) {
		/* nothing to call: watch the counter, sleeping in between */
		while (stat_of("InDsmWrites") - w0 < pages) {
			if (!t0 && stat_of("InDsmWrites") > w0)
				t0 = now();
			usleep(1000);
		}
		t1 = now();
		got = pages;
	} else {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		while (got < pages) {
			ssize_t n;

			if (poll(&p, 1, got ? 3000 : 60000) <= 0)
				break;	/* UDP: the rest was lost */
			n = recv(fd, buf, sizeof(buf), 0);
			calls += 2;
			if (n <= 0)
				continue;
			if (!t0)
				t0 = now();
			t1 = now();
			/* the page goes where it belongs, as DSM code does */
			if (mode != WIND_DSM_HEADER_THROUGH && n >= HDR + PAGE)
				memcpy(region + (got % NPAGES) * PAGE, buf + HDR, PAGE);
			got++;
		}
	}
	getrusage(RUSAGE_SELF, &r1);
	printf("%s pages %ld seconds %.3f pages/s %.0f syscalls/page %.2f cpu_us/page %.1f\n",
	       m, got, t1 - t0, got / (t1 - t0 > 0 ? t1 - t0 : 1e-9),
	       got ? (double)calls / got : 0,
	       got ? ((r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) * 1e6 +
		      (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) +
		      (r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1e6 +
		      (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec)) / got : 0);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int do_send(const char *m, const char *addr, int port, long pages)
{
	int mode = mode_of(m), fd, big = 4 << 20;
	int sync = !strcmp(m, "dmsync");
	double *lat = sync ? calloc(pages, sizeof(*lat)) : NULL, sum = 0;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	static char msg[HDR + PAGE];
	long i;

	inet_pton(AF_INET, addr, &a.sin_addr);
	fd = socket(AF_INET, mode < 0 ? SOCK_DGRAM : SOCK_WIND, 0);
	if (fd < 0)
		return perror("socket"), 1;
	setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big));
	memset(msg, 0x3c, sizeof(msg));
	for (i = 0; i < pages; i++) {
		union {
			char b[CMSG_SPACE(sizeof(struct wind_dsm))];
			struct cmsghdr c;
		} u;
		struct iovec iov = { .iov_base = msg, .iov_len = sizeof(msg) };
		struct msghdr mh = { .msg_name = &a, .msg_namelen = sizeof(a),
				     .msg_iov = &iov, .msg_iovlen = 1 };
		struct wind_dsm d = { .mode = mode, .region = 1, .key = 7,
				      .offset = (i % NPAGES) * PAGE,
				      .hdr_len = HDR };
		double t0;

		if (mode > 0) {
			memset(&u, 0, sizeof(u));
			mh.msg_control = u.b;
			mh.msg_controllen = sizeof(u.b);
			u.c.cmsg_level = SOL_WIND;
			u.c.cmsg_type = WIND_CMSG_DSM;
			u.c.cmsg_len = CMSG_LEN(sizeof(d));
			memcpy(CMSG_DATA(&u.c), &d, sizeof(d));
		}
		t0 = now();
		if (sendmsg(fd, &mh, sync ? MSG_WIND_SYNC : 0) < 0)
			return perror("sendmsg"), 1;
		if (lat)
			sum += lat[i] = (now() - t0) * 1e6;
	}
	close(fd);	/* Wind: flushes */
	if (lat && pages > 0) {
		qsort(lat, pages, sizeof(*lat), cmp_double);
		printf("%s sends %ld mean_us %.1f median_us %.1f p99_us %.1f\n",
		       m, pages, sum / pages, lat[pages / 2],
		       lat[(pages - 1) * 99 / 100]);
	}
	free(lat);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "recv"))
		return do_recv(argv[2], atoi(argv[3]), atol(argv[4]));
	if (argc == 6 && !strcmp(argv[1], "send"))
		return do_send(argv[2], argv[3], atoi(argv[4]), atol(argv[5]));
	fprintf(stderr, "usage: pagecost recv MODE PORT PAGES | send MODE ADDR PORT PAGES\n");
	return 2;
}
