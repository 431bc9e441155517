// SPDX-License-Identifier: GPL-2.0
/*
 * S-DSM delivery: registered regions and the five modes.
 *
 *   node0 (10.77.0.1, sender) ===veth=== node1 (10.77.0.2, regions)
 *
 * The receiver maps GUARD pages, registers the middle REGION_PAGES of
 * them and fills everything with a pattern: every test checks the region
 * byte for byte and that nothing outside it changed.  Sync sends return
 * only after the receiving kernel wrote, so the checks need no waiting.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/errqueue.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

#define PORT		7300
#define GUARD		4		/* pages each side */
#define REGION_PAGES	32
#define REGION_ID	42
#define KEY		0x0123456789abcdefULL

FIXTURE(dsm) {
	int tx, rx;
	wind_sa to;
	size_t page;
	unsigned char *map;		/* guard + region + guard */
	unsigned char *region;
	unsigned char *expect;		/* what the whole map must hold */
	size_t map_len, region_len;
};

/*
 * A region's registration, pinning and lifetime: the same whatever carries
 * the packets (the writes of each mode, rejections and ordering run in
 * every form of the matrix)
 */
static const char *const dsm_core[] = {
	"registration_errors",
	"registration_over_rlimit_memlock_fails",
	"exit_with_regions_registered_unpins_everything",
	"regions_are_per_socket",
	"munmap_and_mprotect_leave_the_pinned_pages_written",
	"fork_child_has_copies_dontfork_none",
	"shared_file_mapping_with_writeback_is_refused",
	"passed_socket_keeps_the_pages_pinned_past_exit",
	"unaligned_regions_get_exactly_their_bytes",
	"key_guesses_are_limited_per_address",
	NULL
};

FIXTURE_SETUP(dsm)
{
	struct wind_region r = {};

	WIND_SKIP_CORE(wind_name_in(_metadata->name, dsm_core), _metadata->name);
	ASSERT_EQ(0, wind_topo_setup(2));
	self->tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(self->tx, 0);
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(self->rx, 0);
	wind_sa_set(&self->to, wind_node_addr(1), PORT);
	self->page = sysconf(_SC_PAGESIZE);
	self->region_len = REGION_PAGES * self->page;
	self->map_len = self->region_len + 2 * GUARD * self->page;
	self->map = mmap(NULL, self->map_len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->map);
	self->region = self->map + GUARD * self->page;
	memset(self->map, 0xa5, self->map_len);
	self->expect = malloc(self->map_len);
	ASSERT_NE(NULL, self->expect);
	memcpy(self->expect, self->map, self->map_len);
	r.addr = (unsigned long)self->region;
	r.len = self->region_len;
	r.id = REGION_ID;
	r.key = KEY;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
}

FIXTURE_TEARDOWN(dsm)
{
	close(self->tx);
	close(self->rx);
	munmap(self->map, self->map_len);
	free(self->expect);
	wind_topo_teardown();
}

/* sendmsg of hdr + data with a WIND_CMSG_DSM */
static ssize_t dsm_send(int fd, const wind_sa *to, int flags,
			__u32 mode, __u32 region, __u64 offset, __u64 key,
			const void *hdr, size_t hdr_len,
			const void *data, size_t data_len)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_dsm))];
		struct cmsghdr align;
	} u;
	struct iovec iov[2] = {
		{ .iov_base = (void *)hdr, .iov_len = hdr_len },
		{ .iov_base = (void *)data, .iov_len = data_len },
	};
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_iov = iov, .msg_iovlen = 2,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	struct wind_dsm d = {
		.mode = mode, .region = region, .offset = offset, .key = key,
		.hdr_len = hdr_len,
	};

	memset(u.buf, 0, sizeof(u.buf));
	c->cmsg_level = SOL_WIND;
	c->cmsg_type = WIND_CMSG_DSM;
	c->cmsg_len = CMSG_LEN(sizeof(d));
	memcpy(CMSG_DATA(c), &d, sizeof(d));
	return sendmsg(fd, &msg, flags);
}

/* The region (and the guards) hold exactly what we expect. */
static bool map_ok(FIXTURE_DATA(dsm) *self)
{
	size_t i;

	for (i = 0; i < self->map_len; i++) {
		if (self->map[i] != self->expect[i]) {
			printf("# byte %zd (region %+zd) is %02x, expected %02x\n",
			       i, (ssize_t)i - (ssize_t)(GUARD * self->page),
			       self->map[i], self->expect[i]);
			return false;
		}
	}
	return true;
}

static void expect_write(FIXTURE_DATA(dsm) *self, size_t off,
			 const void *data, size_t len)
{
	memcpy(self->expect + GUARD * self->page + off, data, len);
}

static bool queue_empty(int fd)
{
	char b;

	return recv(fd, &b, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN;
}

TEST_F(dsm, direct_map_pages_of_4k_8k_and_multi_page)
{
	size_t sizes[] = { 4096, 8192, 16 * 4096 + 100 };
	size_t offs[] = { 0, 8192, 3 * 4096 + 7 };
	char *data = malloc(sizes[2]);
	long w0 = wind_stat(wind_ns(1), "InDsmWrites");
	int i;

	ASSERT_NE(NULL, data);
	for (i = 0; i < 3; i++) {
		wind_fill(data, sizes[i], i + 1);
		ASSERT_EQ((ssize_t)sizes[i],
			  dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
				   WIND_DSM_DIRECT_MAP, REGION_ID, offs[i], KEY,
				   NULL, 0, data, sizes[i]));
		expect_write(self, offs[i], data, sizes[i]);
		ASSERT_TRUE(map_ok(self));
	}
	/* Direct Map queues nothing to the socket */
	EXPECT_TRUE(queue_empty(self->rx));
	EXPECT_EQ(w0 + 3, wind_stat(wind_ns(1), "InDsmWrites"));
	free(data);
}

TEST_F(dsm, header_through_queues_only_the_header)
{
	char hdr[24] = "PAGE-REPLY 17 owner=3\n", data[8192], buf[8192 + 64];
	char cbuf[CMSG_SPACE(sizeof(struct wind_dsm))];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	struct wind_dsm d;

	wind_fill(data, sizeof(data), 9);
	ASSERT_EQ((ssize_t)(sizeof(hdr) + sizeof(data)),
		  dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
			   WIND_DSM_HEADER_THROUGH, REGION_ID, 4 * self->page,
			   KEY, hdr, sizeof(hdr), data, sizeof(data)));
	expect_write(self, 4 * self->page, data, sizeof(data));
	ASSERT_TRUE(map_ok(self));
	ASSERT_EQ((ssize_t)sizeof(hdr), recvmsg(self->rx, &msg, MSG_DONTWAIT));
	EXPECT_EQ(0, memcmp(buf, hdr, sizeof(hdr)));
	c = CMSG_FIRSTHDR(&msg);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(SOL_WIND, c->cmsg_level);
	EXPECT_EQ(WIND_CMSG_DSM, c->cmsg_type);
	memcpy(&d, CMSG_DATA(c), sizeof(d));
	EXPECT_EQ(WIND_DSM_HEADER_THROUGH, d.mode);
	EXPECT_EQ(REGION_ID, d.region);
	EXPECT_EQ(4 * self->page, d.offset);
	EXPECT_EQ(sizeof(hdr), d.hdr_len);
	EXPECT_EQ(sizeof(data), d.data_len);
	EXPECT_EQ(0, d.key);
	EXPECT_TRUE(queue_empty(self->rx));
}

/* Append a run to a diff buffer. */
static size_t add_run(char *diff, size_t at, __u32 off, const void *data,
		      __u32 len)
{
	struct wind_diff_run run = { .off = off, .len = len };

	memcpy(diff + at, &run, sizeof(run));
	memcpy(diff + at + sizeof(run), data, len);
	return at + sizeof(run) + len;
}

TEST_F(dsm, direct_diff_empty_full_and_scattered)
{
	static char page[8192], diff[8192 + 256];
	size_t n;

	/* empty: nothing changes */
	ASSERT_EQ(0, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
			      WIND_DSM_DIRECT_DIFF, REGION_ID, 0, KEY,
			      NULL, 0, diff, 0));
	ASSERT_TRUE(map_ok(self));

	/* full: one run over a whole 8 KiB page */
	wind_fill(page, sizeof(page), 3);
	n = add_run(diff, 0, 0, page, sizeof(page));
	ASSERT_EQ((ssize_t)n, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
				       WIND_DSM_DIRECT_DIFF, REGION_ID, 8192,
				       KEY, NULL, 0, diff, n));
	expect_write(self, 8192, page, sizeof(page));
	ASSERT_TRUE(map_ok(self));

	/* scattered: first byte, a middle run across a page, last byte */
	n = add_run(diff, 0, 0, "A", 1);
	n = add_run(diff, n, 4090, "crossing!", 9);
	n = add_run(diff, n, 8191, "Z", 1);
	ASSERT_EQ((ssize_t)n, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
				       WIND_DSM_DIRECT_DIFF, REGION_ID, 16384,
				       KEY, NULL, 0, diff, n));
	expect_write(self, 16384, "A", 1);
	expect_write(self, 16384 + 4090, "crossing!", 9);
	expect_write(self, 16384 + 8191, "Z", 1);
	ASSERT_TRUE(map_ok(self));
	EXPECT_TRUE(queue_empty(self->rx));
}

TEST_F(dsm, header_diff_applies_then_queues_header)
{
	char diff[64], buf[64], cbuf[CMSG_SPACE(sizeof(struct wind_dsm))];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct wind_dsm d;
	size_t n;

	n = add_run(diff, 0, 100, "hello", 5);
	n = add_run(diff, n, 7000, "world", 5);
	ASSERT_EQ((ssize_t)(4 + n), dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
					     WIND_DSM_HEADER_DIFF, REGION_ID,
					     self->page, KEY, "REL1", 4, diff, n));
	expect_write(self, self->page + 100, "hello", 5);
	expect_write(self, self->page + 7000, "world", 5);
	ASSERT_TRUE(map_ok(self));
	ASSERT_EQ(4, recvmsg(self->rx, &msg, MSG_DONTWAIT));
	EXPECT_EQ(0, memcmp(buf, "REL1", 4));
	ASSERT_NE(NULL, CMSG_FIRSTHDR(&msg));
	memcpy(&d, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(d));
	EXPECT_EQ(WIND_DSM_HEADER_DIFF, d.mode);
	EXPECT_EQ(10, d.data_len);
}

TEST_F(dsm, rejections_write_nothing_and_fail_the_sender)
{
	char data[4096], diff[64];
	long r0 = wind_stat(wind_ns(1), "InRefused");
	size_t n;

	wind_fill(data, sizeof(data), 5);
	/* wrong key, unknown region */
	EXPECT_EQ(-1, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
			       WIND_DSM_DIRECT_MAP, REGION_ID, 0, KEY + 1,
			       NULL, 0, data, sizeof(data)));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
			       WIND_DSM_DIRECT_MAP, REGION_ID + 1, 0, KEY,
			       NULL, 0, data, sizeof(data)));
	EXPECT_EQ(EACCES, errno);
	/* one byte past the end, and an offset beyond it */
	EXPECT_EQ(-1, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
			       WIND_DSM_DIRECT_MAP, REGION_ID,
			       self->region_len - sizeof(data) + 1, KEY,
			       NULL, 0, data, sizeof(data)));
	EXPECT_EQ(ERANGE, errno);
	EXPECT_EQ(-1, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
			       WIND_DSM_DIRECT_MAP, REGION_ID, 1ULL << 40, KEY,
			       NULL, 0, data, 1));
	EXPECT_EQ(ERANGE, errno);
	/* a diff whose second run leaves the region: the first is not applied */
	n = add_run(diff, 0, 0, "ok", 2);
	n = add_run(diff, n, self->region_len - 1, "no", 2);
	EXPECT_EQ(-1, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
			       WIND_DSM_DIRECT_DIFF, REGION_ID, 0, KEY,
			       NULL, 0, diff, n));
	EXPECT_EQ(ERANGE, errno);
	/* a diff cut inside its first run */
	EXPECT_EQ(-1, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
			       WIND_DSM_DIRECT_DIFF, REGION_ID, 0, KEY,
			       NULL, 0, diff, sizeof(struct wind_diff_run) + 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_TRUE(map_ok(self));
	EXPECT_TRUE(queue_empty(self->rx));
	EXPECT_EQ(r0 + 6, wind_stat(wind_ns(1), "InRefused"));
	/* and the peer still works */
	ASSERT_EQ(1, sendto(self->tx, "k", 1, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->to, sizeof(self->to)));
}

TEST_F(dsm, async_rejection_reaches_error_queue)
{
	char cbuf[256], data[64];
	struct iovec iov = { .iov_base = data, .iov_len = 0 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct sock_extended_err ee;
	int one = 1;

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_RECVERR, &one, sizeof(one)));
	ASSERT_EQ(64, dsm_send(self->tx, &self->to, 0, WIND_DSM_DIRECT_MAP,
			       REGION_ID, 0, 7, NULL, 0, data, 64));
	ASSERT_GT(wind_poll(self->tx, POLLERR, 10000), 0);
	ASSERT_EQ(0, recvmsg(self->tx, &msg, MSG_ERRQUEUE));
	ASSERT_NE(NULL, CMSG_FIRSTHDR(&msg));
	memcpy(&ee, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(ee));
	EXPECT_EQ(EACCES, ee.ee_errno);
	EXPECT_EQ(SO_EE_ORIGIN_WIND, ee.ee_origin);
	EXPECT_EQ(1, ee.ee_info);
	ASSERT_TRUE(map_ok(self));
}

/*
 * A weak key: KEY with 18 bits (20..37) unknown to a verified peer, which
 * tries GUESSES of them from its own address, the right one among them
 * (at 100, where the socket's first failures are long spent, in the
 * middle and last).  Each wrong key takes one of the address's
 * WIND_KEYFAIL_BURST failures; with none left every DSM message from
 * the address is refused with EBUSY, key unread: nothing is written,
 * and even the right key, sent last and synchronously, fails so.
 * Async sends block on the peer's window: none is dropped unread.
 */
#define GUESS_SHIFT	20
#define GUESS_MASK	((1ULL << 18) - 1)
#define GUESSES		(1 << 14)

TEST_F(dsm, key_guesses_are_limited_per_address)
{
	const __u64 right = (KEY >> GUESS_SHIFT) & GUESS_MASK;
	long writes0, limited0, limited;
	char data[64];
	ssize_t n;
	int i;

	wind_fill(data, sizeof(data), 5);
	/* a verified peer: one message each way */
	ASSERT_EQ(1, sendto(self->tx, "k", 1, MSG_WIND_SYNC,
			    (struct sockaddr *)&self->to, sizeof(self->to)));
	writes0 = wind_stat(wind_ns(1), "InDsmWrites");
	limited0 = wind_stat(wind_ns(1), "InDsmLimited");
	for (i = 0; i < GUESSES; i++) {
		__u64 g = (right + 1 + i) & GUESS_MASK;
		__u64 key;

		if (i == 100 || i == GUESSES / 2 || i == GUESSES - 1)
			g = right;
		key = (KEY & ~(GUESS_MASK << GUESS_SHIFT)) | g << GUESS_SHIFT;
		if (i == GUESSES - 1) {
			errno = 0;
			EXPECT_EQ(-1, dsm_send(self->tx, &self->to,
					       MSG_WIND_SYNC,
					       WIND_DSM_DIRECT_MAP, REGION_ID,
					       0, key, NULL, 0, data,
					       sizeof(data)));
			EXPECT_EQ(EBUSY, errno);
			break;
		}
		/* an earlier refusal is SO_ERROR: this send reports it */
		do {
			n = dsm_send(self->tx, &self->to, 0,
				     WIND_DSM_DIRECT_MAP, REGION_ID, 0, key,
				     NULL, 0, data, sizeof(data));
		} while (n < 0 && (errno == EACCES || errno == EBUSY));
		ASSERT_EQ((ssize_t)sizeof(data), n)
			TH_LOG("guess %d: %s", i, strerror(errno));
	}
	/* everything before the sync send was acknowledged */
	limited = wind_stat(wind_ns(1), "InDsmLimited") - limited0;
	TH_LOG("%d guesses: %ld refused unread", GUESSES, limited);
	EXPECT_EQ(writes0, wind_stat(wind_ns(1), "InDsmWrites"));
	EXPECT_LE(GUESSES - 64, limited);
	ASSERT_TRUE(map_ok(self));
}

TEST_F(dsm, ordered_data_is_in_memory_before_later_message)
{
	static char data[32768];
	char buf[8];
	int i;

	for (i = 0; i < 20; i++) {
		wind_fill(data, sizeof(data), 100 + i);
		ASSERT_EQ((ssize_t)sizeof(data),
			  dsm_send(self->tx, &self->to, 0, WIND_DSM_DIRECT_MAP,
				   REGION_ID, (i % 4) * sizeof(data), KEY,
				   NULL, 0, data, sizeof(data)));
		ASSERT_EQ(1, sendto(self->tx, "n", 1, 0,
				    (struct sockaddr *)&self->to, sizeof(self->to)));
		/* when the plain message is here, the page before it is too */
		ASSERT_GT(wind_poll(self->rx, POLLIN, 20000), 0);
		ASSERT_EQ(1, recv(self->rx, buf, sizeof(buf), 0));
		ASSERT_TRUE(wind_fill_ok(self->region + (i % 4) * sizeof(data),
					 sizeof(data), 100 + i));
	}
}

TEST_F(dsm, registration_errors)
{
	struct wind_region r = {
		.addr = (unsigned long)self->region, .len = self->page,
		.id = 7, .key = 1,
	};
	socklen_t rlen = sizeof(r);
	__u32 id = 12345;
	__u64 addr;
	void *gone;

	r.len = 0;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EINVAL, errno);			/* empty */
	r.len = (1ULL << 30) + 1;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EINVAL, errno);			/* over 1 GiB */
	r.addr = -2ULL;
	r.len = 3;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EINVAL, errno);			/* wraps */
	r.len = 1;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EFAULT, errno);			/* not user space */
	r.addr = (unsigned long)self->region + 1;
	r.len = self->page;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EINVAL, errno);			/* overlaps id 42 */
	r.addr = (unsigned long)self->region - 1;
	r.len = 2;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EINVAL, errno);			/* by its first byte */
	r.addr = (unsigned long)self->region;
	r.len = self->page;
	r.addr = (unsigned long)self->map;
	r.id = REGION_ID;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EEXIST, errno);			/* duplicate id */
	r.id = 7;
	r.flags = 0x80000000;	/* not a WIND_REGION_F_* */
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EINVAL, errno);			/* flags */
	r.flags = 0;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r) - 1));
	EXPECT_EQ(EINVAL, errno);			/* optlen */
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, (void *)8, sizeof(r)));
	EXPECT_EQ(EFAULT, errno);
	/* a region at memory that is not mapped (any more) */
	gone = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, gone);
	ASSERT_EQ(0, munmap(gone, self->page));
	addr = r.addr;
	r.addr = (unsigned long)gone;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EFAULT, errno);
	r.addr = addr;
	/* the options are set-only */
	EXPECT_EQ(-1, getsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, &rlen));
	EXPECT_EQ(ENOPROTOOPT, errno);
	EXPECT_EQ(-1, getsockopt(self->rx, SOL_WIND, WIND_REGION_DEL, &r, &rlen));
	EXPECT_EQ(ENOPROTOOPT, errno);
	EXPECT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_DEL, &id, sizeof(id)));
	EXPECT_EQ(ENOENT, errno);
	id = 7;
	EXPECT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_DEL, &id, sizeof(id)));
}

static int drop_cap_ipc_lock(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective &= ~(1U << CAP_IPC_LOCK);
	d[0].permitted &= ~(1U << CAP_IPC_LOCK);
	return syscall(SYS_capset, &h, d);
}

/* A sync send of one Direct Map or Direct Diff message: 0 or the errno */
static int dsm_try(FIXTURE_DATA(dsm) *self, __u32 mode, __u32 id, __u64 key,
		   __u64 off, const void *data, size_t len)
{
	ssize_t r = dsm_send(self->tx, &self->to, MSG_WIND_SYNC, mode, id, off,
			     key, NULL, 0, data, len);

	if (r == (ssize_t)len)
		return 0;
	return r < 0 ? errno : -1;
}

/*
 * Regions are byte ranges: in the guard pages before the fixture's region,
 * A spans two pages from byte 100 of the first, B and C share A's last
 * page.  Every write lands on exactly its region's bytes: the last byte
 * of A is writable, one byte past it is refused (ERANGE) and the bytes of
 * the page around the regions (B's among them) keep their pattern.
 */
TEST_F(dsm, unaligned_regions_get_exactly_their_bytes)
{
	unsigned char *a = self->map + self->page + 100;
	size_t alen = self->page, clen = 20, blen = 50;
	unsigned char *c = a + alen, *b = c + clen;
	struct wind_region r = { .addr = (unsigned long)a, .len = alen,
				 .id = 50, .key = KEY ^ 50 };
	unsigned char *ea = self->expect + (a - self->map);
	unsigned char *eb = self->expect + (b - self->map);
	unsigned char data[8192];
	char diff[64];
	size_t n;

	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	r.addr = (unsigned long)b;
	r.len = blen;
	r.id = 51;
	r.key = KEY ^ 51;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	/* C overlapping A's last byte or B's first is refused; between, taken */
	r.addr = (unsigned long)c - 1;
	r.len = clen;
	r.id = 52;
	r.key = KEY ^ 52;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EINVAL, errno);
	r.addr = (unsigned long)c;
	r.len = clen + 1;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EINVAL, errno);
	r.len = clen;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));

	/* all of A, then its last byte */
	wind_fill(data, alen, 61);
	ASSERT_EQ(0, dsm_try(self, WIND_DSM_DIRECT_MAP, 50, KEY ^ 50, 0, data, alen));
	memcpy(ea, data, alen);
	ASSERT_TRUE(map_ok(self));
	ASSERT_EQ(0, dsm_try(self, WIND_DSM_DIRECT_MAP, 50, KEY ^ 50, alen - 1,
			     "z", 1));
	ea[alen - 1] = 'z';
	ASSERT_TRUE(map_ok(self));
	/* one byte past A's end: at its last byte, at its end, by a diff run */
	EXPECT_EQ(ERANGE, dsm_try(self, WIND_DSM_DIRECT_MAP, 50, KEY ^ 50,
				  alen - 1, "XY", 2));
	EXPECT_EQ(ERANGE, dsm_try(self, WIND_DSM_DIRECT_MAP, 50, KEY ^ 50,
				  alen, "X", 1));
	EXPECT_EQ(ERANGE, dsm_try(self, WIND_DSM_DIRECT_MAP, 50, KEY ^ 50,
				  0, data, alen + 1));
	n = add_run(diff, 0, alen - 1, "XY", 2);
	EXPECT_EQ(ERANGE, dsm_try(self, WIND_DSM_DIRECT_DIFF, 50, KEY ^ 50,
				  0, diff, n));
	ASSERT_TRUE(map_ok(self));
	/* a diff run ending at A's last byte is applied */
	n = add_run(diff, 0, alen - 2, "ab", 2);
	ASSERT_EQ(0, dsm_try(self, WIND_DSM_DIRECT_DIFF, 50, KEY ^ 50, 0, diff, n));
	memcpy(ea + alen - 2, "ab", 2);
	ASSERT_TRUE(map_ok(self));
	/* B, in the same page: all of it, one past it refused */
	wind_fill(data, blen, 62);
	ASSERT_EQ(0, dsm_try(self, WIND_DSM_DIRECT_MAP, 51, KEY ^ 51, 0, data, blen));
	memcpy(eb, data, blen);
	EXPECT_EQ(ERANGE, dsm_try(self, WIND_DSM_DIRECT_MAP, 51, KEY ^ 51, 1,
				  data, blen));
	/* A's key does not open B, nor B's A */
	EXPECT_EQ(EACCES, dsm_try(self, WIND_DSM_DIRECT_MAP, 51, KEY ^ 50, 0,
				  "X", 1));
	EXPECT_EQ(EACCES, dsm_try(self, WIND_DSM_DIRECT_MAP, 50, KEY ^ 51, 0,
				  "X", 1));
	ASSERT_TRUE(map_ok(self));
}

TEST_F(dsm, registration_over_rlimit_memlock_fails)
{
	pid_t pid = fork();
	int status;

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct rlimit rl = { .rlim_cur = 4 * self->page,
				     .rlim_max = 4 * self->page };
		struct wind_region r = {
			.addr = (unsigned long)self->map, .len = 8 * self->page,
			.id = 99, .key = 1,
		};
		int fd = wind_socket_in(wind_ns(1), SOCK_WIND, 0);

		if (fd < 0 || drop_cap_ipc_lock() || setrlimit(RLIMIT_MEMLOCK, &rl))
			_exit(2);
		if (setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)) == 0)
			_exit(3);
		if (errno != ENOMEM)
			_exit(4);
		r.len = 2 * self->page;		/* within the limit: fine */
		if (setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)))
			_exit(5);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

static long vmstat(const char *name)
{
	char line[128];
	size_t n = strlen(name);
	long v = -1;
	FILE *f;

	/* fold the per-CPU deltas into the global counters first */
	if (wind_write_file_in(NULL, "/proc/sys/vm/stat_refresh", "1"))
		return -1;
	f = fopen("/proc/vmstat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ')
			v = atol(line + n + 1);
	fclose(f);
	return v;
}

TEST_F(dsm, exit_with_regions_registered_unpins_everything)
{
	long acq0 = vmstat("nr_foll_pin_acquired");
	long rel0 = vmstat("nr_foll_pin_released");
	pid_t pid;
	int status;

	ASSERT_GE(acq0, 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		void *m = mmap(NULL, 64 * self->page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct wind_region r = {
			.addr = (unsigned long)m, .len = 64 * self->page,
			.id = 1, .key = 1,
		};
		int fd = wind_socket_in(wind_ns(1), SOCK_WIND, 0);

		if (m == MAP_FAILED || fd < 0 ||
		    setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)))
			_exit(2);
		r.id = 2;
		r.addr += 32 * self->page;
		r.len = 32 * self->page;
		_exit(0);	/* no close, no REGION_DEL */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/* the child pinned 64 pages and its exit released all of them */
	EXPECT_EQ(acq0 + 64, vmstat("nr_foll_pin_acquired"));
	EXPECT_EQ(rel0 + 64, vmstat("nr_foll_pin_released"));
}

struct pump {
	int fd;
	wind_sa to;
	volatile int stop;
	int sent;
};

static void *pump_pages(void *arg)
{
	struct pump *p = arg;
	char data[4096];

	memset(data, 0x5a, sizeof(data));
	while (!p->stop) {
		if (dsm_send(p->fd, &p->to, 0, WIND_DSM_DIRECT_MAP, REGION_ID,
			     0, KEY, NULL, 0, data, sizeof(data)) < 0)
			break;
		p->sent++;
	}
	return NULL;
}

TEST_F(dsm, delete_during_traffic_stops_all_writes)
{
	struct pump p = { .fd = self->tx, .to = self->to };
	__u32 id = REGION_ID;
	long w0 = wind_stat(wind_ns(1), "InDsmWrites");
	pthread_t th;
	int i;

	ASSERT_EQ(0, pthread_create(&th, NULL, pump_pages, &p));
	/* let some pages land */
	for (i = 0; i < 200 && wind_stat(wind_ns(1), "InDsmWrites") < w0 + 20; i++)
		usleep(20000);
	ASSERT_GE(wind_stat(wind_ns(1), "InDsmWrites"), w0 + 20);
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_DEL, &id, sizeof(id)));
	/* from here on nothing may change the (still mapped) memory */
	memset(self->region, 0x11, self->region_len);
	memcpy(self->expect, self->map, self->map_len);
	usleep(300000);
	p.stop = 1;
	pthread_join(th, NULL);
	EXPECT_TRUE(map_ok(self));
	EXPECT_GT(wind_stat(wind_ns(1), "InRefused"), 0);
}

TEST_F(dsm, regions_are_per_socket)
{
	int other = wind_bound_socket(wind_ns(1), PORT + 1, NULL);
	wind_sa to2;
	char data[16] = "not yours";

	ASSERT_GE(other, 0);
	wind_sa_set(&to2, wind_node_addr(1), PORT + 1);
	/* the right id and key, but for another socket's region */
	EXPECT_EQ(-1, dsm_send(self->tx, &to2, MSG_WIND_SYNC,
			       WIND_DSM_DIRECT_MAP, REGION_ID, 0, KEY,
			       NULL, 0, data, sizeof(data)));
	EXPECT_EQ(EACCES, errno);
	ASSERT_TRUE(map_ok(self));
	close(other);
}

/*
 * What a region is: the pages that backed its range at WIND_REGION_ADD
 * (wind(7), wind.rst "S-DSM delivery").  Each case below is one of the
 * documented semantics.
 */

/* A sync Direct Map write of @len bytes of seed @seed into region @id */
static bool direct_map(FIXTURE_DATA(dsm) *self, __u32 id, __u64 key,
		       size_t off, size_t len, uint32_t seed)
{
	unsigned char *data = malloc(len);
	ssize_t r;

	if (!data)
		return false;
	wind_fill(data, len, seed);
	r = dsm_send(self->tx, &self->to, MSG_WIND_SYNC, WIND_DSM_DIRECT_MAP,
		     id, off, key, NULL, 0, data, len);
	free(data);
	if (r != (ssize_t)len)
		printf("# direct map into region %u: %zd (%s)\n", id, r,
		       r < 0 ? strerror(errno) : "short");
	return r == (ssize_t)len;
}

/* munmap() and mprotect() neither stop the writes nor unpin the pages:
 * two shared views of one memfd show where the writes land.
 */
TEST_F(dsm, munmap_and_mprotect_leave_the_pinned_pages_written)
{
	size_t len = 4 * self->page;
	long rel0 = vmstat("nr_foll_pin_released");
	struct wind_region r = { .len = len, .id = 77, .key = KEY };
	unsigned char *v1, *v2;
	__u32 id = 77;
	int mfd;

	mfd = memfd_create("wind_dsm", 0);
	ASSERT_GE(mfd, 0);
	ASSERT_EQ(0, ftruncate(mfd, len));
	v1 = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	v2 = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	close(mfd);
	ASSERT_NE(MAP_FAILED, v1);
	ASSERT_NE(MAP_FAILED, v2);
	r.addr = (unsigned long)v1;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));

	/* the registered view is gone: the write lands in the pages */
	ASSERT_EQ(0, munmap(v1, len));
	ASSERT_TRUE(direct_map(self, 77, KEY, self->page, 2 * self->page, 31));
	EXPECT_TRUE(wind_fill_ok(v2 + self->page, 2 * self->page, 31));
	EXPECT_EQ(rel0, vmstat("nr_foll_pin_released"));

	/* a view the process cannot read or write still gets the write */
	ASSERT_EQ(0, mprotect(v2, len, PROT_NONE));
	ASSERT_TRUE(direct_map(self, 77, KEY, 0, self->page, 32));
	ASSERT_EQ(0, mprotect(v2, len, PROT_READ));
	EXPECT_TRUE(wind_fill_ok(v2, self->page, 32));

	/* deleting the region unpins them, and only then */
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_DEL, &id, sizeof(id)));
	EXPECT_EQ(rel0 + 4, vmstat("nr_foll_pin_released"));
	munmap(v2, len);
}

/* After fork() the child has copies of the pinned pages: the writes go to
 * the parent's; with MADV_DONTFORK the child has no such pages at all.
 */
TEST_F(dsm, fork_child_has_copies_dontfork_none)
{
	int go[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		/* the parent's write happened: our copy is the old page */
		_exit(self->region[0] == 0xa5 && self->region[1] == 0xa5 ? 0 : 3);
	}
	close(go[0]);
	ASSERT_TRUE(direct_map(self, REGION_ID, KEY, 0, self->page, 41));
	EXPECT_TRUE(wind_fill_ok(self->region, self->page, 41));
	ASSERT_EQ(1, write(go[1], "g", 1));
	close(go[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("child status %#x", status);

	ASSERT_EQ(0, madvise(self->region, self->region_len, MADV_DONTFORK));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(self->region[0]);		/* no page there: SIGSEGV */
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		TH_LOG("child status %#x", status);
	/* and the parent's region still takes writes */
	ASSERT_TRUE(direct_map(self, REGION_ID, KEY, self->page, self->page, 42));
	EXPECT_TRUE(wind_fill_ok(self->region + self->page, self->page, 42));
}

/* A shared mapping of a file on a filesystem that writes back cannot be
 * registered (EFAULT); one of tmpfs (a memfd) can.
 */
TEST_F(dsm, shared_file_mapping_with_writeback_is_refused)
{
	char dir[] = "/tmp/wind_dsm_ext4.XXXXXX", img[64], path[96];
	struct wind_region r = { .len = self->page, .id = 78, .key = KEY };
	bool mounted = false;
	void *m = MAP_FAILED;
	int fd = -1;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(img, sizeof(img), "%s.img", dir);
	/* mount does not load loop by itself where there is no /dev/loop* */
	if (wind_run("modprobe -q loop; truncate -s 8M %s && mkfs.ext4 -q -F %s && mount -o loop %s %s",
		     img, img, img, dir)) {
		rmdir(dir);
		unlink(img);
		SKIP(return, "no ext4 on a loop device here");
	}
	mounted = true;
	snprintf(path, sizeof(path), "%s/region", dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ftruncate(fd, self->page));
	m = mmap(NULL, self->page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	memset(m, 1, self->page);	/* a page cache page, dirty */
	r.addr = (unsigned long)m;
	EXPECT_EQ(-1, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));
	EXPECT_EQ(EFAULT, errno);
	/* a private mapping of the same file is anonymous memory once written */
	munmap(m, self->page);
	m = mmap(NULL, self->page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	r.addr = (unsigned long)m;
	EXPECT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)))
		TH_LOG("private file mapping: %s", strerror(errno));
	EXPECT_TRUE(direct_map(self, 78, KEY, 0, 64, 51));
	EXPECT_TRUE(wind_fill_ok(m, 64, 51));
	close(self->rx);	/* unpins, so that the filesystem can go */
	self->rx = -1;
	munmap(m, self->page);
	close(fd);
	if (mounted)
		wind_run("umount %s", dir);
	rmdir(dir);
	unlink(img);
}

/* A socket passed to another process keeps its regions pinned after the
 * registering process exited, and writes still land; closing it unpins.
 */
TEST_F(dsm, passed_socket_keeps_the_pages_pinned_past_exit)
{
	long acq0 = vmstat("nr_foll_pin_acquired");
	long rel0 = vmstat("nr_foll_pin_released");
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	char c = 0;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	int sp[2], status, fd;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM, 0, sp));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		void *m = mmap(NULL, 8 * self->page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct wind_region r = {
			.addr = (unsigned long)m, .len = 8 * self->page,
			.id = 79, .key = KEY,
		};
		struct cmsghdr *cm;
		int s = wind_bound_socket(wind_ns(1), PORT + 1, NULL);

		if (m == MAP_FAILED || s < 0 ||
		    setsockopt(s, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)))
			_exit(2);
		memset(u.buf, 0, sizeof(u.buf));
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &s, sizeof(int));
		_exit(sendmsg(sp[1], &msg, 0) == 1 ? 0 : 3);
	}
	close(sp[1]);
	ASSERT_EQ(1, recvmsg(sp[0], &msg, 0));
	close(sp[0]);
	ASSERT_NE(NULL, CMSG_FIRSTHDR(&msg));
	memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(int));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));

	/* the child is gone; its pages are still pinned and written */
	EXPECT_EQ(acq0 + 8, vmstat("nr_foll_pin_acquired"));
	EXPECT_EQ(rel0, vmstat("nr_foll_pin_released"));
	wind_sa_set_port(&self->to, PORT + 1);
	EXPECT_TRUE(direct_map(self, 79, KEY, 0, 2 * self->page, 61));
	close(fd);
	EXPECT_EQ(rel0 + 8, vmstat("nr_foll_pin_released"));
}

TEST_HARNESS_MAIN
