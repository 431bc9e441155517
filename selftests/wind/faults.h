/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What wind_faults.c and faults_restart.c share: memory figures, the
 * /proc/net/wind line of a socket, the error queue, sender threads under
 * load, a receiving thread that records every message, and the fixture.
 */
#ifndef WIND_FAULTS_H
#define WIND_FAULTS_H

#include <errno.h>
#include <time.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>
#include <netinet/ip.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib.h"

#define FAULTS_FN static __attribute__((unused))

#define PORT		7700
#define RETRIES		4
#define RTO_MAX_MS	250
#define SLACK_MS	3000
/* wind(7): unreachable at most r0 + retries * rto_max_ms after the last
 * packet heard, r0 <= rto_max_ms, after one tail loss probe (< r0)
 */
#define BOUND_MS	((RETRIES + 2) * RTO_MAX_MS)
#define MSGLEN		1000

FAULTS_FN void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ---- what the kernel holds ---------------------------------------------- */

FAULTS_FN long meminfo_kb(const char *name)
{
	char line[128];
	size_t n = strlen(name);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':')
			v = atol(line + n + 1);
	fclose(f);
	return v;
}

FAULTS_FN long slab_objs(const char *cache)
{
	char line[512], name[64];
	long active = -1, a;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", name, &a) == 2 && !strcmp(name, cache))
			active = a;
	fclose(f);
	return active;
}

struct mem {
	long sunreclaim_kb, skbuff, k512, k192;
};

FAULTS_FN void mem_read(struct mem *m)
{
	wind_slab_settle();
	m->sunreclaim_kb = meminfo_kb("SUnreclaim");
	m->skbuff = slab_objs("skbuff_head_cache");
	m->k512 = slab_objs("kmalloc-512");
	m->k192 = slab_objs("kmalloc-192");
}

FAULTS_FN void mem_log(const char *when, const struct mem *m)
{
	printf("# memory %s: SUnreclaim %ld kB, skbuff_head_cache %ld, kmalloc-512 %ld, kmalloc-192 %ld objects\n",
	       when, m->sunreclaim_kb, m->skbuff, m->k512, m->k192);
}

/*
 * A socket's line of /proc/net/wind in ns, by local port: tx and rx queue
 * bytes and peers.  Returns 0, or -1 if the port has no line.
 */
FAULTS_FN int proc_sock(const char *ns, uint16_t port, long *txq, long *rxq,
		     long *peers)
{
	static char buf[1 << 16];
	char *l, *save = NULL;

	if (wind_read_file_in(ns, "/proc/thread-self/net/wind", buf, sizeof(buf)) < 0)
		return -1;
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned int la, lp, ra, rp, st, uid;
		unsigned long tq, rq, ino;
		long np;

		if (sscanf(l, " %*d: %x:%x %x:%x %x %lx:%lx %u %lu %ld", &la, &lp,
			   &ra, &rp, &st, &tq, &rq, &uid, &ino, &np) == 10 &&
		    lp == port) {
			*txq = tq;
			*rxq = rq;
			*peers = np;
			return 0;
		}
	}
	return -1;
}

FAULTS_FN uint16_t local_port(int fd)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &len))
		return 0;
	return ntohs(sa.sin_port);
}

FAULTS_FN int outq(int fd)
{
	int v = -1;

	if (ioctl(fd, SIOCOUTQ, &v))
		return -1;
	return v;
}

/* one error queue report; 0, -errno */
FAULTS_FN int recv_err(int fd, struct sock_extended_err *ee)
{
	char cbuf[256];
	struct sockaddr_in name;
	struct iovec iov = { .iov_base = cbuf, .iov_len = 0 };
	struct msghdr msg = {
		.msg_name = &name, .msg_namelen = sizeof(name),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;

	if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return -errno;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) {
			memcpy(ee, CMSG_DATA(c), sizeof(*ee));
			return 0;
		}
	}
	return -ENOMSG;
}

/* ---- senders under load --------------------------------------------------- */

struct load {
	int fd;
	struct sockaddr_in to;
	volatile int stop;
	int sync;		/* this thread sends sync messages */
	uint32_t seq0;		/* first seq of this thread's messages */
	long sent, failed;
	int last_err;
	long long t_err;	/* when the first failure returned */
	uint32_t *fail_seqs;	/* sync: the seqs that failed */
	uint32_t *ok_seqs;	/* sync: the seqs that succeeded */
	long nfail_seqs, nok_seqs;
	long shorts;		/* returns that were neither len nor -1 */
};

FAULTS_FN void *load_main(void *arg)
{
	struct load *l = arg;
	char buf[MSGLEN];
	uint32_t seq = l->seq0;

	while (!l->stop) {
		size_t len = l->sync ? 100 : MSGLEN;
		ssize_t n;

		wind_msg_make(buf, len, seq);
		n = sendto(l->fd, buf, len, l->sync ? MSG_WIND_SYNC : MSG_DONTWAIT,
			   (struct sockaddr *)&l->to, sizeof(l->to));
		if (n == (ssize_t)len) {
			l->sent++;
			if (l->ok_seqs)
				l->ok_seqs[l->nok_seqs++ % 100000] = seq;
			seq++;
			continue;
		}
		if (n < 0 && errno == EAGAIN && !l->sync) {
			wind_poll(l->fd, POLLOUT, 50);	/* the buffer is full */
			continue;
		}
		if (!l->failed++) {
			l->t_err = wind_now_ms();
			l->last_err = n < 0 ? errno : -1;	/* -1: a byte count */
		}
		if (n >= 0) {
			/* whole or nothing: never a short count */
			printf("# a send of %zu bytes returned %zd\n", len, n);
			l->shorts++;
		}
		/* an async message that was not queued is sent again; a sync
		 * one that failed was queued and is given up
		 */
		if (l->sync) {
			if (l->fail_seqs)
				l->fail_seqs[l->nfail_seqs++ % 100000] = seq;
			seq++;
		}
	}
	return NULL;
}

/* The receiving side: a thread that reads and records every seq */
struct sink {
	int fd;
	volatile int stop;
	long got, bad;
	uint8_t *seen;		/* count per seq, seqs < 1 << 20 */
	int dup;
	long max_async, last_async;
	int order_err;
};

#define SEQ_SPACE	(1 << 20)
#define SYNC_BASE	(1 << 19)	/* sync seqs from here */

FAULTS_FN void *sink_main(void *arg)
{
	struct sink *s = arg;
	char buf[4096];

	while (!s->stop) {
		ssize_t n;
		long seq;

		if (wind_poll(s->fd, POLLIN, 50) <= 0)
			continue;
		n = recv(s->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0)
			continue;
		seq = wind_msg_check(buf, n);
		if (seq < 0 || seq >= SEQ_SPACE) {
			s->bad++;
			continue;
		}
		s->got++;
		if (s->seen[seq]++)
			s->dup++;
		if (seq < SYNC_BASE) {	/* async-ordered: in order */
			if (seq < s->last_async)
				s->order_err++;
			s->last_async = seq;
		}
	}
	return NULL;
}

/* ---- fixture ---------------------------------------------------------------- */

FIXTURE(faults) {
	int tx;
	struct sockaddr_in to;
	struct mem base;
};

FIXTURE_SETUP(faults)
{
	int one = 1, i;

	ASSERT_EQ(0, wind_topo_setup(2));
	self->tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(self->tx, 0);
	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_RECVERR, &one, sizeof(one)));
	wind_sin(&self->to, wind_node_addr(1), PORT);
	for (i = 0; i < 2; i++) {
		/* a quick retry budget: BOUND_MS = 6 * 250 ms */
		ASSERT_EQ(0, wind_write_file_in(wind_ns(i), "/proc/sys/net/wind/retries", "4"));
		ASSERT_EQ(0, wind_write_file_in(wind_ns(i), "/proc/sys/net/wind/rto_max_ms", "250"));
		/* idle peer states go after a second */
		ASSERT_EQ(0, wind_write_file_in(wind_ns(i), "/proc/sys/net/wind/peer_idle_s", "1"));
	}
	mem_read(&self->base);
}

FIXTURE_TEARDOWN(faults)
{
	if (self->tx >= 0)
		close(self->tx);
	wind_topo_teardown();
}

#endif /* WIND_FAULTS_H */
