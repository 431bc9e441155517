// SPDX-License-Identifier: GPL-2.0
/*
 * One round of traffic for wind_modcycle.sh, on the loopback of the
 * current namespace: a receiver with a DSM region, a sender that sends an
 * async-ordered, an async-reliable and a sync message and a sync Direct
 * Map write, checks that all arrived, and closes both.  Exit 0 on
 * success, 1 with a message on stderr otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/wind.h>

#define FAIL(...) do { fprintf(stderr, "modcycle_traffic: " __VA_ARGS__); \
		       fprintf(stderr, ": %s\n", strerror(errno)); return 1; } while (0)

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct sockaddr_in rxa = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(rxa);
	struct timeval tv = { 10, 0 };
	unsigned char *map;
	char buf[256], cbuf[CMSG_SPACE(sizeof(struct wind_dsm))] = { 0 };
	struct wind_region r = { .len = 4 * page, .id = 7, .key = 0xc0ffee };
	struct wind_dsm d = { .mode = WIND_DSM_DIRECT_MAP, .region = 7,
			      .offset = 100, .key = 0xc0ffee };
	struct iovec iov = { .iov_base = "direct map data", .iov_len = 15 };
	struct msghdr m = { .msg_name = &rxa, .msg_namelen = sizeof(rxa),
			    .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = (struct cmsghdr *)cbuf;
	static const char *const msgs[] = { "async", "reliable", "sync" };
	static const int flags[] = { 0, MSG_WIND_RELIABLE, MSG_WIND_SYNC };
	int rx, tx, i, got = 0;

	rx = socket(AF_INET, SOCK_WIND, 0);
	if (rx < 0)
		FAIL("socket");
	if (bind(rx, (struct sockaddr *)&rxa, sizeof(rxa)) ||
	    getsockname(rx, (struct sockaddr *)&rxa, &alen))
		FAIL("bind");
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	map = mmap(NULL, r.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		FAIL("mmap");
	r.addr = (unsigned long)map;
	if (setsockopt(rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)))
		FAIL("WIND_REGION_ADD");
	tx = socket(AF_INET, SOCK_WIND, IPPROTO_WIND);
	if (tx < 0)
		FAIL("socket (IPPROTO_WIND)");
	for (i = 0; i < 3; i++)
		if (sendto(tx, msgs[i], strlen(msgs[i]), flags[i],
			   (struct sockaddr *)&rxa, sizeof(rxa)) != (ssize_t)strlen(msgs[i]))
			FAIL("send %s", msgs[i]);
	c->cmsg_level = SOL_WIND;
	c->cmsg_type = WIND_CMSG_DSM;
	c->cmsg_len = CMSG_LEN(sizeof(d));
	memcpy(CMSG_DATA(c), &d, sizeof(d));
	if (sendmsg(tx, &m, MSG_WIND_SYNC) != 15)
		FAIL("sync Direct Map send");
	if (memcmp(map + 100, "direct map data", 15))
		FAIL("the region does not hold the data after the sync send");
	for (i = 0; i < 3; i++) {
		ssize_t n = recv(rx, buf, sizeof(buf) - 1, 0);

		if (n < 0)
			FAIL("recv %d", i);
		buf[n] = '\0';
		got |= !strcmp(buf, "async") << 0 | !strcmp(buf, "reliable") << 1 |
		       !strcmp(buf, "sync") << 2;
	}
	if (got != 7) {
		errno = 0;
		FAIL("received the messages %#x of 7", got);
	}
	if (close(tx) || close(rx))
		FAIL("close");
	munmap(map, r.len);
	return 0;
}
