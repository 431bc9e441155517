// SPDX-License-Identifier: GPL-2.0
/*
 * One-sided reads and atomics, served by the target's kernel.
 *
 *   node0 (10.77.0.1, requester) ===veth=== node1 (10.77.0.2, target)
 *
 * The target registers the middle REGION_PAGES of a mapping with guard
 * pages each side and never calls recv(): every answer is the kernel's.
 * The requester registers a landing region of its own the same way.
 * Each test checks the bytes that come back, the completion that names
 * the request, that nothing outside a region changed and that nothing
 * was queued to the target's socket.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/errqueue.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

#define PORT		7400
#define GUARD		2		/* pages each side */
#define REGION_PAGES	32
#define REGION_ID	9
#define KEY		0x5eed1e55c0ffee11ULL
#define LAND_ID		3
#define LAND_KEY	0x0badcafe12345678ULL
#define WAIT_MS		20000

struct area {
	unsigned char *map, *region, *expect;
	size_t map_len, len;
};

FIXTURE(rma) {
	int tx, rx;
	wind_sa to;
	size_t page;
	struct area target, land;
};

static int area_make(struct area *a, size_t page, int fd, __u32 id, __u64 key,
		     uint32_t seed)
{
	struct wind_region r = {};

	a->len = REGION_PAGES * page;
	a->map_len = a->len + 2 * GUARD * page;
	a->map = mmap(NULL, a->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a->map == MAP_FAILED)
		return -1;
	a->region = a->map + GUARD * page;
	wind_fill(a->map, a->map_len, seed);
	a->expect = malloc(a->map_len);
	if (!a->expect)
		return -1;
	memcpy(a->expect, a->map, a->map_len);
	r.addr = (unsigned long)a->region;
	r.len = a->len;
	r.id = id;
	r.key = key;
	return setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r));
}

/* The mapping (region and guards) holds exactly what we expect. */
static bool area_ok(const struct area *a, size_t page)
{
	size_t i;

	for (i = 0; i < a->map_len; i++) {
		if (a->map[i] != a->expect[i]) {
			printf("# byte %zd (region %+zd) is %02x, expected %02x\n",
			       i, (ssize_t)i - (ssize_t)(GUARD * page),
			       a->map[i], a->expect[i]);
			return false;
		}
	}
	return true;
}

FIXTURE_SETUP(rma)
{
	ASSERT_EQ(0, wind_topo_setup(2));
	self->tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(self->tx, 0);
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(self->rx, 0);
	wind_sa_set(&self->to, wind_node_addr(1), PORT);
	self->page = sysconf(_SC_PAGESIZE);
	ASSERT_EQ(0, area_make(&self->target, self->page, self->rx, REGION_ID,
			       KEY, 11));
	ASSERT_EQ(0, area_make(&self->land, self->page, self->tx, LAND_ID,
			       LAND_KEY, 12));
}

FIXTURE_TEARDOWN(rma)
{
	close(self->tx);
	close(self->rx);
	munmap(self->target.map, self->target.map_len);
	munmap(self->land.map, self->land.map_len);
	free(self->target.expect);
	free(self->land.expect);
	wind_topo_teardown();
}

/* sendmsg() of @req, with a WIND_CMSG_MSGID too when @msgid is not 0 */
static int rma_post(int fd, const wind_sa *to, const struct wind_rma *req,
		    int flags, __u32 msgid)
{
	union {
		char buf[CMSG_SPACE(sizeof(*req)) + CMSG_SPACE(sizeof(msgid))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_control = u.buf,
		.msg_controllen = CMSG_SPACE(sizeof(*req)) +
				  (msgid ? CMSG_SPACE(sizeof(msgid)) : 0),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	memset(u.buf, 0, sizeof(u.buf));
	c->cmsg_level = SOL_WIND;
	c->cmsg_type = WIND_CMSG_RMA;
	c->cmsg_len = CMSG_LEN(sizeof(*req));
	memcpy(CMSG_DATA(c), req, sizeof(*req));
	if (msgid) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_WIND;
		c->cmsg_type = WIND_CMSG_MSGID;
		c->cmsg_len = CMSG_LEN(sizeof(msgid));
		memcpy(CMSG_DATA(c), &msgid, sizeof(msgid));
	}
	return sendmsg(fd, &msg, flags) < 0 ? -1 : 0;
}

/* The next message on @fd, waited for: its length (MSG_TRUNC), or -1.
 * *@done gets its WIND_CMSG_RMA, op 0 without one.
 */
static ssize_t rma_recv(int fd, void *buf, size_t len, struct wind_rma *done)
{
	char cbuf[CMSG_SPACE(sizeof(*done)) + 64];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	ssize_t n;

	memset(done, 0, sizeof(*done));
	if (wind_poll(fd, POLLIN, WAIT_MS) <= 0)
		return -1;
	n = recvmsg(fd, &msg, MSG_TRUNC | MSG_DONTWAIT);
	for (c = CMSG_FIRSTHDR(&msg); n >= 0 && c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_WIND && c->cmsg_type == WIND_CMSG_RMA &&
		    c->cmsg_len == CMSG_LEN(sizeof(*done)))
			memcpy(done, CMSG_DATA(c), sizeof(*done));
	return n;
}

static bool queue_empty(int fd)
{
	char b;

	return recv(fd, &b, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN;
}

static struct wind_rma read_req(__u64 off, __u32 len, __u64 cookie)
{
	struct wind_rma r = {
		.op = WIND_RMA_READ, .region = REGION_ID, .offset = off,
		.key = KEY, .len = len, .cookie = cookie,
	};
	return r;
}

static struct wind_rma atomic_req(__u32 op, __u64 off, __u64 operand,
				  __u64 compare, __u64 cookie)
{
	struct wind_rma r = {
		.op = op, .region = REGION_ID, .offset = off, .key = KEY,
		.len = 8, .operand = operand, .compare = compare,
		.cookie = cookie,
	};
	return r;
}

/* The completion names its request: what was asked, status 0, no key */
static bool done_matches(const struct wind_rma *d, const struct wind_rma *req)
{
	if (d->op == req->op && d->region == req->region &&
	    d->offset == req->offset && d->len == req->len &&
	    d->cookie == req->cookie && d->flags == req->flags && !d->key &&
	    !d->operand && !d->compare && !d->status &&
	    (!(req->flags & WIND_RMA_F_LAND) ||
	     (d->dst_region == req->dst_region &&
	      d->dst_offset == req->dst_offset && !d->dst_key)))
		return true;
	printf("# completion op %u region %u offset %llu len %u cookie %llu flags %u status %d\n",
	       d->op, d->region, (unsigned long long)d->offset, d->len,
	       (unsigned long long)d->cookie, d->flags, d->status);
	return false;
}

TEST_F(rma, reads_of_every_size_come_back_to_recvmsg)
{
	static const struct { __u64 off; __u32 len; } cases[] = {
		{ 0, 1 }, { 4095, 2 }, { 100, 1000 }, { 7, 3000 },
		{ 3 * 4096 + 5, 65536 + 5 }, { 0, REGION_PAGES * 4096 },
	};
	size_t max = REGION_PAGES * self->page;
	long r0 = wind_stat(wind_ns(1), "InRmaReads");
	long c0 = wind_stat(wind_ns(0), "InRmaCompletions");
	unsigned char *buf = malloc(max);
	struct wind_rma req, done;
	unsigned int i;

	ASSERT_NE(NULL, buf);
	/* all posted before the first is read: each has its cookie */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		req = read_req(cases[i].off, cases[i].len, 1000 + i);
		ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0));
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		req = read_req(cases[i].off, cases[i].len, 1000 + i);
		memset(buf, 0, max);
		ASSERT_EQ((ssize_t)cases[i].len,
			  rma_recv(self->tx, buf, max, &done));
		ASSERT_TRUE(done_matches(&done, &req));
		ASSERT_EQ(0, memcmp(buf, self->target.region + cases[i].off,
				    cases[i].len));
	}
	EXPECT_EQ(r0 + 6, wind_stat(wind_ns(1), "InRmaReads"));
	EXPECT_EQ(c0 + 6, wind_stat(wind_ns(0), "InRmaCompletions"));
	/* the target's process took no part */
	EXPECT_TRUE(queue_empty(self->rx));
	EXPECT_TRUE(area_ok(&self->target, self->page));
	free(buf);
}

TEST_F(rma, a_read_lands_in_the_requesters_region)
{
	struct wind_rma req = read_req(5000, 40000, 77), done;
	char b;

	req.flags = WIND_RMA_F_LAND;
	req.dst_region = LAND_ID;
	req.dst_offset = 123;
	req.dst_key = LAND_KEY;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	/* the completion carries nothing: the bytes are in place */
	ASSERT_EQ(0, rma_recv(self->tx, &b, 1, &done));
	ASSERT_TRUE(done_matches(&done, &req));
	memcpy(self->land.expect + GUARD * self->page + 123,
	       self->target.region + 5000, 40000);
	EXPECT_TRUE(area_ok(&self->land, self->page));
	EXPECT_TRUE(area_ok(&self->target, self->page));
	EXPECT_TRUE(queue_empty(self->rx));
}

TEST_F(rma, a_landing_with_a_wrong_key_is_a_failed_completion)
{
	struct wind_rma req = read_req(0, 4096, 5), done;
	char b;

	req.flags = WIND_RMA_F_LAND;
	req.dst_region = LAND_ID;
	req.dst_key = LAND_KEY ^ 1;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0));
	ASSERT_EQ(0, rma_recv(self->tx, &b, 1, &done));
	EXPECT_EQ(-EACCES, done.status);
	EXPECT_EQ(5, done.cookie);
	/* out of the landing region's bounds */
	req = read_req(0, 4096, 6);
	req.flags = WIND_RMA_F_LAND;
	req.dst_region = LAND_ID;
	req.dst_key = LAND_KEY;
	req.dst_offset = self->land.len - 4095;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0));
	ASSERT_EQ(0, rma_recv(self->tx, &b, 1, &done));
	EXPECT_EQ(-ERANGE, done.status);
	EXPECT_EQ(6, done.cookie);
	EXPECT_TRUE(area_ok(&self->land, self->page));
}

/* The target's own thread adds to the word while the peer does. */
struct adder {
	_Atomic __u64 *word;
	int n;
};

static void *add_locally(void *arg)
{
	struct adder *a = arg;
	int i;

	for (i = 0; i < a->n; i++)
		atomic_fetch_add(a->word, 1);
	return NULL;
}

#define REMOTE_ADDS	400
#define LOCAL_ADDS	2000000

TEST_F(rma, fetch_add_is_atomic_against_the_targets_own_threads)
{
	_Atomic __u64 *word = (void *)(self->target.region + 4096 + 64);
	struct adder a = { .word = word, .n = LOCAL_ADDS };
	long a0 = wind_stat(wind_ns(1), "InRmaAtomics");
	unsigned char *seen = calloc(REMOTE_ADDS, 1);
	struct wind_rma req, done;
	pthread_t t;
	__u64 old;
	int i;

	ASSERT_NE(NULL, seen);
	atomic_store(word, 0);
	ASSERT_EQ(0, pthread_create(&t, NULL, add_locally, &a));
	for (i = 0; i < REMOTE_ADDS; i++) {
		req = atomic_req(WIND_RMA_FETCH_ADD, 4096 + 64, 1ULL << 32, 0,
				 i);
		ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0));
	}
	/* each old value has a different count of remote adds: the high
	 * half is how many came before it
	 */
	for (i = 0; i < REMOTE_ADDS; i++) {
		ASSERT_EQ(8, rma_recv(self->tx, &old, sizeof(old), &done));
		ASSERT_EQ(WIND_RMA_FETCH_ADD, done.op);
		ASSERT_EQ(0, done.status);
		ASSERT_LT(old >> 32, REMOTE_ADDS);
		ASSERT_EQ(0, seen[old >> 32]);
		seen[old >> 32] = 1;
	}
	pthread_join(t, NULL);
	EXPECT_EQ(((__u64)REMOTE_ADDS << 32) + LOCAL_ADDS, atomic_load(word));
	EXPECT_EQ(a0 + REMOTE_ADDS, wind_stat(wind_ns(1), "InRmaAtomics"));
	EXPECT_TRUE(queue_empty(self->rx));
	free(seen);
}

TEST_F(rma, compare_and_swap_and_swap_return_the_old_value)
{
	__u64 *word = (void *)(self->target.region + 8 * 100);
	__u64 *landed = (void *)(self->land.region + 8);
	struct wind_rma req, done;
	__u64 old;
	char b;

	*word = 41;
	/* a failed compare changes nothing and tells what is there */
	req = atomic_req(WIND_RMA_CMP_SWAP, 800, 99, 40, 1);
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	ASSERT_EQ(8, rma_recv(self->tx, &old, sizeof(old), &done));
	ASSERT_TRUE(done_matches(&done, &req));
	EXPECT_EQ(41, old);
	EXPECT_EQ(41, *word);
	req = atomic_req(WIND_RMA_CMP_SWAP, 800, 99, 41, 2);
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	ASSERT_EQ(8, rma_recv(self->tx, &old, sizeof(old), &done));
	ASSERT_TRUE(done_matches(&done, &req));
	EXPECT_EQ(41, old);
	EXPECT_EQ(99, *word);
	/* swap, its old value landing in our region */
	req = atomic_req(WIND_RMA_SWAP, 800, 0xfeedfacecafebeefULL, 0, 3);
	req.flags = WIND_RMA_F_LAND;
	req.dst_region = LAND_ID;
	req.dst_offset = 8;
	req.dst_key = LAND_KEY;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	ASSERT_EQ(0, rma_recv(self->tx, &b, 1, &done));
	ASSERT_TRUE(done_matches(&done, &req));
	EXPECT_EQ(0xfeedfacecafebeefULL, *word);
	EXPECT_EQ(99, *landed);
	memcpy(self->land.expect + GUARD * self->page + 8, landed, 8);
	EXPECT_TRUE(area_ok(&self->land, self->page));
}

TEST_F(rma, refusals_serve_nothing_and_fail_the_sender)
{
	long r0 = wind_stat(wind_ns(1), "InRmaReads");
	long a0 = wind_stat(wind_ns(1), "InRmaAtomics");
	long f0 = wind_stat(wind_ns(1), "InRefused");
	struct wind_rma req, done;
	char buf[64];

	/* what the sender's kernel refuses itself */
	req = read_req(0, 0, 1);
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EINVAL, errno);
	req = read_req(0, WIND_RMA_READ_MAX + 1, 1);
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EINVAL, errno);
	req = atomic_req(WIND_RMA_SWAP, 0, 1, 0, 1);
	req.len = 4;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EINVAL, errno);
	req = atomic_req(9, 0, 1, 0, 1);
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EINVAL, errno);
	req = read_req(0, 8, 1);
	req.flags = 2;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EINVAL, errno);

	/* what the target refuses: key, region, bounds, alignment */
	req = read_req(0, 8, 1);
	req.key = KEY + 1;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EACCES, errno);
	req = read_req(0, 8, 1);
	req.region = REGION_ID + 1;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EACCES, errno);
	req = read_req(self->target.len - 7, 8, 1);
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(ERANGE, errno);
	req = atomic_req(WIND_RMA_FETCH_ADD, self->target.len, 1, 0, 1);
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(ERANGE, errno);
	req = atomic_req(WIND_RMA_FETCH_ADD, 4, 1, 0, 1);
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EINVAL, errno);
	req = atomic_req(WIND_RMA_CMP_SWAP, 8, 1, 0, 1);
	req.key = 0;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(f0 + 6, wind_stat(wind_ns(1), "InRefused"));
	EXPECT_EQ(r0, wind_stat(wind_ns(1), "InRmaReads"));
	EXPECT_EQ(a0, wind_stat(wind_ns(1), "InRmaAtomics"));
	EXPECT_TRUE(area_ok(&self->target, self->page));

	/* no answer came for any of them: the next is this read's */
	req = read_req(16, 16, 42);
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0));
	ASSERT_EQ(16, rma_recv(self->tx, buf, sizeof(buf), &done));
	EXPECT_TRUE(done_matches(&done, &req));
	EXPECT_TRUE(queue_empty(self->rx));
}

TEST_F(rma, payload_or_a_dsm_mode_with_a_request_is_refused)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_rma)) +
			 CMSG_SPACE(sizeof(struct wind_dsm))];
		struct cmsghdr align;
	} u;
	struct wind_rma req = read_req(0, 8, 1);
	struct wind_dsm dsm = { .mode = WIND_DSM_DIRECT_MAP,
				.region = REGION_ID, .key = KEY };
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = {
		.msg_name = &self->to, .msg_namelen = sizeof(self->to),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = CMSG_SPACE(sizeof(req)),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	memset(u.buf, 0, sizeof(u.buf));
	c->cmsg_level = SOL_WIND;
	c->cmsg_type = WIND_CMSG_RMA;
	c->cmsg_len = CMSG_LEN(sizeof(req));
	memcpy(CMSG_DATA(c), &req, sizeof(req));
	EXPECT_EQ(-1, sendmsg(self->tx, &msg, 0));
	EXPECT_EQ(EINVAL, errno);
	iov.iov_len = 0;
	msg.msg_controllen = sizeof(u.buf);
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_WIND;
	c->cmsg_type = WIND_CMSG_DSM;
	c->cmsg_len = CMSG_LEN(sizeof(dsm));
	memcpy(CMSG_DATA(c), &dsm, sizeof(dsm));
	EXPECT_EQ(-1, sendmsg(self->tx, &msg, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_TRUE(area_ok(&self->target, self->page));
}

TEST_F(rma, an_async_refusal_reaches_the_error_queue_with_its_id)
{
	char cbuf[256];
	struct msghdr msg = {
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct wind_rma req = read_req(0, 64, 1);
	struct sock_extended_err ee;
	int one = 1, err;
	socklen_t len;

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_RECVERR, &one,
				sizeof(one)));
	req.key = 7;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0x5150));
	ASSERT_GT(wind_poll(self->tx, POLLERR, WAIT_MS), 0);
	ASSERT_EQ(0, recvmsg(self->tx, &msg, MSG_ERRQUEUE));
	ASSERT_NE(NULL, CMSG_FIRSTHDR(&msg));
	memcpy(&ee, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(ee));
	EXPECT_EQ(EACCES, ee.ee_errno);
	EXPECT_EQ(SO_EE_ORIGIN_WIND, ee.ee_origin);
	EXPECT_EQ(0x5150, ee.ee_data);
	/* SO_ERROR tells it too, once; no completion came */
	len = sizeof(err);
	ASSERT_EQ(0, getsockopt(self->tx, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(EACCES, err);
	EXPECT_TRUE(queue_empty(self->tx));
}

/* sendmsg of data with a Direct Map cmsg, async-ordered */
static ssize_t direct_map(int fd, const wind_sa *to, __u64 off,
			  const void *data, size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(struct wind_dsm))] = { 0 };
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	struct wind_dsm d = { .mode = WIND_DSM_DIRECT_MAP, .region = REGION_ID,
			      .offset = off, .key = KEY };

	c->cmsg_level = SOL_WIND;
	c->cmsg_type = WIND_CMSG_DSM;
	c->cmsg_len = CMSG_LEN(sizeof(d));
	memcpy(CMSG_DATA(c), &d, sizeof(d));
	return sendmsg(fd, &msg, 0);
}

TEST_F(rma, an_ordered_read_follows_the_writes_sent_before_it)
{
	unsigned char data[20000], buf[20000];
	struct wind_rma req, done;
	__u64 old;
	int round;

	for (round = 0; round < 8; round++) {
		wind_fill(data, sizeof(data), 100 + round);
		ASSERT_EQ((ssize_t)sizeof(data),
			  direct_map(self->tx, &self->to, 4096, data,
				     sizeof(data)));
		/* no wait: order alone puts the read after the write */
		req = read_req(4096, sizeof(data), round);
		ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0));
		ASSERT_EQ((ssize_t)sizeof(buf),
			  rma_recv(self->tx, buf, sizeof(buf), &done));
		ASSERT_TRUE(done_matches(&done, &req));
		ASSERT_EQ(0, memcmp(buf, data, sizeof(data)));
		/* and an atomic after a write of its word */
		ASSERT_EQ(8, direct_map(self->tx, &self->to, 64, &data[8], 8));
		req = atomic_req(WIND_RMA_FETCH_ADD, 64, 1, 0, round);
		ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0));
		ASSERT_EQ(8, rma_recv(self->tx, &old, sizeof(old), &done));
		ASSERT_EQ(0, memcmp(&old, &data[8], 8));
	}
}

TEST_F(rma, a_read_the_targets_send_buffer_cannot_hold_is_refused)
{
	struct wind_rma req = read_req(0, 100 * 1024, 1);
	int small = 4096;

	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_SNDBUF, &small,
				sizeof(small)));
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EMSGSIZE, errno);
	EXPECT_TRUE(queue_empty(self->tx));
}

/* Register @len bytes at @addr as region @id on @fd with @flags */
static int region_add(int fd, void *addr, size_t len, __u32 id, __u32 flags)
{
	struct wind_region r = {
		.addr = (unsigned long)addr, .len = len, .id = id,
		.flags = flags, .key = KEY,
	};

	return setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r));
}

TEST_F(rma, region_flags_refuse_what_they_forbid)
{
	struct wind_rma req, done;
	unsigned char *ro;
	__u64 val = 0;
	char buf[64];

	/* read-only memory registers only without write access */
	ro = mmap(NULL, self->page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		  -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-1, region_add(self->rx, ro, self->page, 20, 0));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_EQ(0, region_add(self->rx, ro, self->page, 20,
				WIND_REGION_F_NO_WRITE));
	EXPECT_EQ(-1, region_add(self->rx, ro, self->page, 21, 0x100));
	EXPECT_EQ(EINVAL, errno);

	/* no write: read yes; atomics, Direct Map and landings no */
	req = read_req(0, 16, 1);
	req.region = 20;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	ASSERT_EQ(16, rma_recv(self->tx, buf, sizeof(buf), &done));
	EXPECT_EQ(0, memcmp(buf, ro, 16));
	req = atomic_req(WIND_RMA_SWAP, 0, 1, 0, 2);
	req.region = 20;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EACCES, errno);
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_DEL,
				&(__u32){ 20 }, sizeof(__u32)));
	munmap(ro, self->page);
	ro = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	memset(ro, 0x5a, self->page);
	ASSERT_EQ(0, region_add(self->rx, ro, self->page, 25,
				WIND_REGION_F_NO_READ));
	req = read_req(0, 16, 3);
	req.region = 25;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EACCES, errno);
	req = atomic_req(WIND_RMA_FETCH_ADD, 0, 1, 0, 4);
	req.region = 25;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0x5a, ro[0]);
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_DEL,
				&(__u32){ 25 }, sizeof(__u32)));

	/* no atomics: reads go, atomics refused */
	ASSERT_EQ(0, region_add(self->rx, ro, self->page, 26,
				WIND_REGION_F_NO_ATOMIC));
	req = atomic_req(WIND_RMA_FETCH_ADD, 0, 1, 0, 5);
	req.region = 26;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(EACCES, errno);
	req = read_req(0, 8, 6);
	req.region = 26;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	ASSERT_EQ(8, rma_recv(self->tx, &val, sizeof(val), &done));
	EXPECT_EQ(0x5a5a5a5a5a5a5a5aULL, val);
	EXPECT_TRUE(queue_empty(self->rx));
	munmap(ro, self->page);
}

TEST_F(rma, a_landing_in_a_region_without_write_access_fails)
{
	struct wind_rma req = read_req(0, 64, 8), done;
	unsigned char *mine;
	char b;

	mine = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mine);
	memset(mine, 0x11, self->page);
	ASSERT_EQ(0, region_add(self->tx, mine, self->page, 30,
				WIND_REGION_F_NO_WRITE));
	req.flags = WIND_RMA_F_LAND;
	req.dst_region = 30;
	req.dst_key = KEY;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, 0, 0));
	ASSERT_EQ(0, rma_recv(self->tx, &b, 1, &done));
	EXPECT_EQ(-EACCES, done.status);
	EXPECT_EQ(8, done.cookie);
	EXPECT_EQ(0x11, mine[0]);
	munmap(mine, self->page);
}

TEST_F(rma, a_vaddr_region_is_named_by_address)
{
	unsigned char *mem, buf[64], data[32];
	struct wind_rma req, done;
	struct wind_region r = {};
	__u64 at;

	mem = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	wind_fill(mem, self->page, 41);
	r.addr = (unsigned long)mem + 16;
	r.len = self->page - 32;
	r.id = 40;
	r.key = KEY;
	r.flags = WIND_REGION_F_VADDR;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r,
				sizeof(r)));
	at = (unsigned long)mem + 100;
	/* a read and a Direct Map write at an address */
	req = read_req(at, 32, 1);
	req.region = 40;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	ASSERT_EQ(32, rma_recv(self->tx, buf, sizeof(buf), &done));
	EXPECT_EQ(0, memcmp(buf, mem + 100, 32));
	EXPECT_EQ(at, done.offset);
	wind_fill(data, sizeof(data), 42);
	{
		char cbuf[CMSG_SPACE(sizeof(struct wind_dsm))] = { 0 };
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
		struct msghdr msg = {
			.msg_name = &self->to, .msg_namelen = sizeof(self->to),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		struct wind_dsm d = { .mode = WIND_DSM_DIRECT_MAP, .region = 40,
				      .offset = at + 200, .key = KEY };

		c->cmsg_level = SOL_WIND;
		c->cmsg_type = WIND_CMSG_DSM;
		c->cmsg_len = CMSG_LEN(sizeof(d));
		memcpy(CMSG_DATA(c), &d, sizeof(d));
		ASSERT_EQ((ssize_t)sizeof(data),
			  sendmsg(self->tx, &msg, MSG_WIND_SYNC));
	}
	EXPECT_EQ(0, memcmp(mem + 300, data, sizeof(data)));
	/* below its start, past its end, and the plain offset: refused */
	req = read_req((unsigned long)mem + 15, 1, 2);
	req.region = 40;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(ERANGE, errno);
	req = read_req((unsigned long)mem + self->page - 17, 2, 3);
	req.region = 40;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(ERANGE, errno);
	req = read_req(100, 8, 4);
	req.region = 40;
	EXPECT_EQ(-1, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	EXPECT_EQ(ERANGE, errno);
	/* an atomic at an aligned address */
	req = atomic_req(WIND_RMA_SWAP, (unsigned long)mem + 64, 7, 0, 5);
	req.region = 40;
	ASSERT_EQ(0, rma_post(self->tx, &self->to, &req, MSG_WIND_SYNC, 0));
	ASSERT_EQ(8, rma_recv(self->tx, buf, sizeof(buf), &done));
	EXPECT_EQ(7, *(__u64 *)(mem + 64));
	munmap(mem, self->page);
}

TEST_HARNESS_MAIN
