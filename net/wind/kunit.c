// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of Wind's receive side, on the kernel's own code paths:
 *
 *  - wind_reassembly: crafted data packets fed to a kernel Wind socket the
 *    way the softirq does (wind_backlog_rcv() under bh_lock_sock()), then
 *    read with kernel_recvmsg(): fragments in any order, ordered messages
 *    behind earlier ones, duplicates, inconsistent fragment headers and
 *    lengths;
 *  - wind_diff: wind_diff_walk() over real skbs (linear and paged) for
 *    well-formed, truncated, overlong and out-of-region runs, and the
 *    bytes it writes into a region's pages (and none outside them).
 *
 * Built as wind_kunit.ko only against a kernel with CONFIG_KUNIT (the
 * debug kernel of make check-debug, which loads it); Debian's kernels
 * have no KUnit and build only wind.ko.
 */
#include <kunit/test.h>
#include <linux/highmem.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "dsm.h"
#include "input.h"
#include "skb.h"
#include "wire.h"

#define PEER_ADDR	htonl(INADDR_LOOPBACK + 1)	/* 127.0.0.2 */
#define PEER_PORT	htons(40000)
#define PEER_TAG	0x600d600d
#define SEQ0		1000

struct rx_ctx {
	struct socket *sock;
	u8 buf[4096];
};

/* A data packet from 127.0.0.2:40000 as wind_rcv() hands it on: network
 * header set, data at the Wind header (transport header).
 */
static struct sk_buff *data_pkt(struct kunit *test, u32 seq, u16 frag,
				u16 nfrags, u32 msg_len, u8 flags,
				const u8 *payload, u32 plen)
{
	struct sk_buff *skb;
	struct wind_datahdr *dh;
	struct windhdr *wh;
	struct iphdr *iph;

	skb = alloc_skb(MAX_HEADER + sizeof(*iph) + WIND_DATA_HLEN + plen,
			GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, MAX_HEADER);
	skb_reset_network_header(skb);
	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = IPPROTO_WIND;
	iph->saddr = PEER_ADDR;
	iph->daddr = htonl(INADDR_LOOPBACK);
	iph->tot_len = htons(sizeof(*iph) + WIND_DATA_HLEN + plen);
	skb_pull(skb, sizeof(*iph));
	skb_reset_transport_header(skb);
	wh = skb_put_zero(skb, sizeof(*wh));
	wh->source = PEER_PORT;
	wh->version_type = WIND_VERSION << 4 | WIND_PKT_DATA;
	wh->flags = flags;
	wh->len = htons(WIND_DATA_HLEN + plen);
	wh->window = htons(256);
	wh->src_tag = htonl(PEER_TAG);
	wh->seq = htonl(seq);
	wh->ack = htonl(0);
	wh->oldest = htonl(SEQ0);
	dh = skb_put_zero(skb, sizeof(*dh));
	dh->frag = htons(frag);
	dh->nfrags = htons(nfrags);
	dh->msg_len = htonl(msg_len);
	skb_put_data(skb, payload, plen);
	skb->protocol = htons(ETH_P_IP);
	skb->pkt_type = PACKET_HOST;
	return skb;
}

/* Hand a packet to the socket as the softirq does. */
static void feed(struct rx_ctx *c, struct sk_buff *skb)
{
	struct sock *sk = c->sock->sk;

	wind_hdr(skb)->dest = htons(inet_sk(sk)->inet_num);
	local_bh_disable();
	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk))
		wind_backlog_rcv(sk, skb);
	else
		kfree_skb(skb);
	bh_unlock_sock(sk);
	local_bh_enable();
}

/* The next message, non-blocking: its length, or -EAGAIN. */
static int next_msg(struct rx_ctx *c)
{
	struct kvec vec = { .iov_base = c->buf, .iov_len = sizeof(c->buf) };
	struct msghdr msg = { };

	return kernel_recvmsg(c->sock, &msg, &vec, 1, sizeof(c->buf),
			      MSG_DONTWAIT);
}

static int rx_init(struct kunit *test)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct rx_ctx *c;
	int err;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	err = sock_create_kern(&init_net, AF_INET, SOCK_WIND, 0, &c->sock);
	KUNIT_ASSERT_EQ(test, err, 0);
	err = kernel_bind(c->sock, (struct sockaddr *)&sin, sizeof(sin));
	KUNIT_ASSERT_EQ(test, err, 0);
	test->priv = c;
	return 0;
}

static void rx_exit(struct kunit *test)
{
	struct rx_ctx *c = test->priv;

	if (c && c->sock)
		sock_release(c->sock);
}

static void fill(u8 *p, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = seed + i * 7;
}

/* @len bytes of a pattern from @seed, freed with the test */
static u8 *pattern(struct kunit *test, u32 len, u8 seed)
{
	u8 *p = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	fill(p, len, seed);
	return p;
}

/* The next message is exactly @want; -EAGAIN for @len < 0: none. */
static void expect_msg(struct kunit *test, const u8 *want, int len)
{
	struct rx_ctx *c = test->priv;

	if (len < 0) {
		KUNIT_EXPECT_EQ(test, next_msg(c), -EAGAIN);
		return;
	}
	KUNIT_ASSERT_EQ(test, next_msg(c), len);
	KUNIT_EXPECT_EQ(test, memcmp(c->buf, want, len), 0);
}

/* Three fragments arriving 2, 0, 1: one message, in fragment order. */
static void reassembly_any_order(struct kunit *test)
{
	static const u32 flen[3] = { 1000, 1000, 333 };
	static const int order[3] = { 2, 0, 1 };
	u8 *msg = pattern(test, 2333, 1);
	int i;

	for (i = 0; i < 3; i++) {
		int f = order[i];

		expect_msg(test, NULL, -1);
		feed(test->priv, data_pkt(test, SEQ0 + f, f, 3, 2333, 0,
					  msg + f * 1000, flen[f]));
	}
	expect_msg(test, msg, 2333);
	expect_msg(test, NULL, -1);
}

/* An ordered message complete before an earlier one waits for it. */
static void reassembly_ordered_waits(struct kunit *test)
{
	u8 *a = pattern(test, 1600, 3), *b = pattern(test, 100, 9);
	struct rx_ctx *c = test->priv;

	/* B (seq +2) first, then A's second fragment: nothing readable */
	feed(c, data_pkt(test, SEQ0 + 2, 0, 1, 100, WIND_F_ORDERED, b, 100));
	feed(c, data_pkt(test, SEQ0 + 1, 1, 2, 1600, WIND_F_ORDERED, a + 800, 800));
	expect_msg(test, NULL, -1);
	feed(c, data_pkt(test, SEQ0, 0, 2, 1600, WIND_F_ORDERED, a, 800));
	expect_msg(test, a, 1600);
	expect_msg(test, b, 100);
	expect_msg(test, NULL, -1);
}

/* An unordered message does not wait for an earlier hole. */
static void reassembly_unordered_passes_hole(struct kunit *test)
{
	u8 *b = pattern(test, 64, 5);

	feed(test->priv, data_pkt(test, SEQ0 + 1, 0, 1, 64, 0, b, 64));
	expect_msg(test, b, 64);
}

/* A fragment received twice is delivered once. */
static void reassembly_duplicate(struct kunit *test)
{
	struct rx_ctx *c = test->priv;
	u8 *a = pattern(test, 1200, 11);

	feed(c, data_pkt(test, SEQ0, 0, 2, 1200, 0, a, 600));
	feed(c, data_pkt(test, SEQ0, 0, 2, 1200, 0, a, 600));
	expect_msg(test, NULL, -1);
	feed(c, data_pkt(test, SEQ0 + 1, 1, 2, 1200, 0, a + 600, 600));
	feed(c, data_pkt(test, SEQ0 + 1, 1, 2, 1200, 0, a + 600, 600));
	expect_msg(test, a, 1200);
	expect_msg(test, NULL, -1);
}

/* Fragments that disagree on the fragment count: dropped, not glued. */
static void reassembly_inconsistent_nfrags(struct kunit *test)
{
	struct rx_ctx *c = test->priv;
	u8 *a = pattern(test, 800, 13);

	feed(c, data_pkt(test, SEQ0, 0, 2, 800, WIND_F_ORDERED, a, 400));
	feed(c, data_pkt(test, SEQ0 + 1, 1, 3, 800, WIND_F_ORDERED, a + 400, 400));
	expect_msg(test, NULL, -1);
	/* the stream goes on after it */
	feed(c, data_pkt(test, SEQ0 + 2, 0, 1, 10, WIND_F_ORDERED, a, 10));
	expect_msg(test, a, 10);
	expect_msg(test, NULL, -1);
}

/* Fragments whose bytes do not add up to msg_len: dropped. */
static void reassembly_length_mismatch(struct kunit *test)
{
	struct rx_ctx *c = test->priv;
	u8 *a = pattern(test, 900, 17);

	feed(c, data_pkt(test, SEQ0, 0, 2, 900, 0, a, 400));
	feed(c, data_pkt(test, SEQ0 + 1, 1, 2, 900, 0, a + 400, 400));
	expect_msg(test, NULL, -1);
	feed(c, data_pkt(test, SEQ0 + 2, 0, 1, 5, 0, a, 5));
	expect_msg(test, a, 5);
	expect_msg(test, NULL, -1);
}

static struct kunit_case reassembly_cases[] = {
	KUNIT_CASE(reassembly_any_order),
	KUNIT_CASE(reassembly_ordered_waits),
	KUNIT_CASE(reassembly_unordered_passes_hole),
	KUNIT_CASE(reassembly_duplicate),
	KUNIT_CASE(reassembly_inconsistent_nfrags),
	KUNIT_CASE(reassembly_length_mismatch),
	{}
};

static struct kunit_suite reassembly_suite = {
	.name = "wind_reassembly",
	.init = rx_init,
	.exit = rx_exit,
	.test_cases = reassembly_cases,
};

/* ---- diffs --------------------------------------------------------------- */

/* A diff of runs (off, len, bytes...) in an skb: linear, or with its
 * bytes in page fragments when @paged.
 */
static struct sk_buff *diff_skb(struct kunit *test, const u8 *diff, u32 len,
				bool paged)
{
	struct sk_buff *skb;
	struct page *page;

	if (!paged) {
		skb = alloc_skb(len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		skb_put_data(skb, diff, len);
		return skb;
	}
	skb = alloc_skb(16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_LE(test, len, (u32)PAGE_SIZE);
	/* 5 bytes in the head, the rest in a page: a run header splits */
	skb_put_data(skb, diff, min_t(u32, len, 5));
	if (len > 5) {
		memcpy_to_page(page, 0, diff + 5, len - 5);
		skb_add_rx_frag(skb, 0, page, 0, len - 5, PAGE_SIZE);
	} else {
		__free_page(page);
	}
	return skb;
}

static u32 put_run(u8 *p, u32 off, u32 len, u8 seed)
{
	struct wind_diff_run run = { .off = off, .len = len };

	memcpy(p, &run, sizeof(run));
	fill(p + sizeof(run), len, seed);
	return sizeof(run) + len;
}

static int walk(struct kunit *test, const u8 *diff, u32 len, u64 base,
		u64 rlen, bool paged, u32 *written)
{
	struct sk_buff *skb = diff_skb(test, diff, len, paged);
	int err = wind_diff_walk(NULL, base, rlen, skb, 0, len, written);

	kfree_skb(skb);
	return err;
}

static void diff_checks(struct kunit *test)
{
	u8 *d = kunit_kzalloc(test, 256, GFP_KERNEL);
	u32 n, w;
	int paged;

	KUNIT_ASSERT_NOT_NULL(test, d);
	for (paged = 0; paged < 2; paged++) {
		/* empty: nothing written */
		KUNIT_EXPECT_EQ(test, walk(test, d, 0, 0, 8192, paged, &w), 0);
		KUNIT_EXPECT_EQ(test, w, 0U);
		/* two runs, the last ending at the region's end */
		n = put_run(d, 0, 10, 1);
		n += put_run(d + n, 8192 - 100 - 20, 20, 2);
		KUNIT_EXPECT_EQ(test, walk(test, d, n, 100, 8192, paged, &w), 0);
		KUNIT_EXPECT_EQ(test, w, 30U);
		/* one byte past the end */
		n = put_run(d, 8192 - 100 - 20, 21, 2);
		KUNIT_EXPECT_EQ(test, walk(test, d, n, 100, 8192, paged, &w), -ERANGE);
		/* off + len overflowing 32 bits */
		n = put_run(d, 0xfffffff0, 32, 3);
		KUNIT_EXPECT_EQ(test, walk(test, d, n, 0, 8192, paged, &w), -ERANGE);
		/* a run header cut short */
		n = put_run(d, 0, 4, 4);
		KUNIT_EXPECT_EQ(test, walk(test, d, n + 5, 0, 8192, paged, &w), -EINVAL);
		/* a run longer than the bytes that follow */
		n = put_run(d, 0, 40, 5);
		KUNIT_EXPECT_EQ(test, walk(test, d, n - 1, 0, 8192, paged, &w), -EINVAL);
		/* a zero-length run at the very end is fine */
		n = put_run(d, 8192, 0, 6);
		KUNIT_EXPECT_EQ(test, walk(test, d, n, 0, 8192, paged, &w), 0);
	}
}

/* Applied to a two-page region: exactly the runs' bytes change, across
 * the page boundary, and nothing before or after them.
 */
static void diff_apply(struct kunit *test)
{
	struct page *pages[2] = { alloc_page(GFP_KERNEL), alloc_page(GFP_KERNEL) };
	struct wind_region_k r = { .len = 2 * PAGE_SIZE, .npages = 2, .pages = pages };
	u8 *want = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	u8 *got = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	u32 base = 64, n, w = 0, i;
	u8 *d = kunit_kzalloc(test, 512, GFP_KERNEL);
	struct sk_buff *skb;
	int paged;

	KUNIT_ASSERT_NOT_NULL(test, pages[0]);
	KUNIT_ASSERT_NOT_NULL(test, pages[1]);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_NOT_NULL(test, d);
	for (paged = 0; paged < 2; paged++) {
		for (i = 0; i < 2; i++)
			memset_page(pages[i], 0, 0xee, PAGE_SIZE);
		memset(want, 0xee, 2 * PAGE_SIZE);
		/* the first byte, a run across the boundary, the last byte */
		n = put_run(d, 0, 1, 21);
		n += put_run(d + n, PAGE_SIZE - base - 50, 100, 22);
		n += put_run(d + n, 2 * PAGE_SIZE - base - 1, 1, 23);
		memcpy(want + base, d + 8, 1);
		memcpy(want + PAGE_SIZE - 50, d + 8 + 1 + 8, 100);
		memcpy(want + 2 * PAGE_SIZE - 1, d + n - 1, 1);
		skb = diff_skb(test, d, n, paged);
		KUNIT_EXPECT_EQ(test, wind_diff_walk(&r, base, r.len, skb, 0, n, &w), 0);
		KUNIT_EXPECT_EQ(test, w, 102U);
		kfree_skb(skb);
		memcpy_from_page(got, pages[0], 0, PAGE_SIZE);
		memcpy_from_page(got + PAGE_SIZE, pages[1], 0, PAGE_SIZE);
		KUNIT_EXPECT_EQ(test, memcmp(got, want, 2 * PAGE_SIZE), 0);
	}
	__free_page(pages[0]);
	__free_page(pages[1]);
}

static struct kunit_case diff_cases[] = {
	KUNIT_CASE(diff_checks),
	KUNIT_CASE(diff_apply),
	{}
};

static struct kunit_suite diff_suite = {
	.name = "wind_diff",
	.test_cases = diff_cases,
};

kunit_test_suites(&reassembly_suite, &diff_suite);

MODULE_DESCRIPTION("KUnit tests of the Wind transport");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
