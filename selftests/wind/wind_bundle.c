// SPDX-License-Identifier: GPL-2.0
/*
 * Bundling: small messages that queue behind each other to one peer leave
 * as one packet (WIND_F_BUNDLE), asked for with MSG_MORE or WIND_CORK.
 *
 *   node0 (10.77.0.1, tx) ===veth=== node1 (10.77.0.2, rx)
 *
 * Each message carries its index and a checksum (wind_msg_make); the
 * receiver checks that every one arrives exactly once, byte-exact, and
 * that no ordered message (async-ordered or sync) arrives before one sent
 * earlier.  The counters of /proc/net/wind_stat (OutBundles, OutBundled,
 * InBundles, InBundled, InErrBundle) are per namespace, read as
 * differences.  What is held back is read from WIND_PEER_INFO
 * (wpi_unsent): a corked peer with nothing in flight holds its messages
 * until something releases them, so no check here waits for time.
 *
 * In the IPv6 matrix (wind_bundle-ipv6) the same runs go over IPv6;
 * inside UDP a bundle is the same packet, and the path is
 * wind_dgram-udp's.  The crafted bundles of "malformed" are raw IPv4
 * only.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/sock_diag.h>

#include "lib.h"
/* The 6.1 harness and its TEST() macros leave parameters unused */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "harness.h"

#define PORT		7900
#define MSG_LEN		64
#define WAIT_MS		30000		/* no message at all: a hang */
#define RCVBUF		(4 << 20)
#define N_BAD		5		/* crafted malformed bundles per kind */
#define HDRS_LEN	(sizeof(struct windhdr) + sizeof(struct wind_datahdr))
#define CRAFT_SPORT	40100
#define CRAFT_TAG	0x5eed0b01

FIXTURE(bundle) {
	int tx, rx;
	wind_sa to;
};

FIXTURE_SETUP(bundle)
{
	int buf = RCVBUF;

	self->tx = self->rx = -1;
	ASSERT_EQ(0, wind_topo_setup(2));
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_LE(0, self->rx) TH_LOG("rx socket: %s", strerror(errno));
	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUF, &buf,
				sizeof(buf)));
	self->tx = wind_bound_socket(wind_ns(0), 0, NULL);
	ASSERT_LE(0, self->tx) TH_LOG("tx socket: %s", strerror(errno));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_SOCKET, SO_SNDBUF, &buf,
				sizeof(buf)));
	wind_sa_set(&self->to, wind_node_addr(1), PORT);
}

FIXTURE_TEARDOWN(bundle)
{
	if (self->tx >= 0)
		close(self->tx);
	if (self->rx >= 0)
		close(self->rx);
	wind_topo_teardown();
}

static long in_flight(int fd, const wind_sa *to)
{
	struct wind_peer_info pi;

	if (wind_sa_peer_info(fd, to, &pi))
		return -1;
	return pi.wpi_in_flight;
}

/*
 * Receive @n messages of the plan whose message i is ordered when
 * @ordered[i] (NULL: all ordered), each MSG_LEN bytes: every one exactly
 * once and intact, no ordered one before any message sent earlier.
 * Returns the number of faults found (0: all good), saying the first.
 */
static int recv_check(int fd, unsigned int n, const char *ordered)
{
	char *seen = calloc(n, 1), buf[4096];
	unsigned int got, j, bad = 0;

	if (!seen)
		return 1;
	for (got = 0; got < n; got++) {
		ssize_t r;
		long idx;

		if (wind_poll(fd, POLLIN, WAIT_MS) <= 0) {
			printf("# message %u of %u: none came\n", got, n);
			bad++;
			break;
		}
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		idx = r == MSG_LEN ? wind_msg_check(buf, r) : -1;
		if (idx < 0 || idx >= n || seen[idx]) {
			if (!bad++)
				printf("# message %u: len %zd idx %ld: damaged or twice\n",
				       got, r, idx);
			continue;
		}
		seen[idx] = 1;
		if (ordered && !ordered[idx])
			continue;
		for (j = 0; j < idx; j++)
			if (!seen[j]) {
				if (!bad++)
					printf("# ordered message %ld before %u\n",
					       idx, j);
				break;
			}
	}
	free(seen);
	return bad;
}

static long stat_delta(const char *ns, const char *name, long before)
{
	return wind_stat(ns, name) - before;
}

/* With MSG_MORE on all but every 25th, a long row of 64 B messages goes
 * in far fewer packets than messages, all arriving in order.
 */
TEST_F(bundle, more_in_order)
{
	const unsigned int n = 200;
	long pkts0, acks0, ob0, obd0, ib0, ibd0, im0, data;
	unsigned int i;

	pkts0 = wind_stat(wind_ns(0), "OutPackets");
	acks0 = wind_stat(wind_ns(0), "OutAcks");
	ob0 = wind_stat(wind_ns(0), "OutBundles");
	obd0 = wind_stat(wind_ns(0), "OutBundled");
	ib0 = wind_stat(wind_ns(1), "InBundles");
	ibd0 = wind_stat(wind_ns(1), "InBundled");
	im0 = wind_stat(wind_ns(1), "InMessages");
	ASSERT_LE(0, ob0) TH_LOG("no OutBundles counter");
	ASSERT_LE(0, ibd0) TH_LOG("no InBundled counter");
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN,
				      i % 25 == 24 || i == n - 1 ? 0 : MSG_MORE))
			TH_LOG("send %u: %s", i, strerror(errno));
	EXPECT_EQ(0, recv_check(self->rx, n, NULL));
	EXPECT_EQ(n, stat_delta(wind_ns(1), "InMessages", im0));
	data = stat_delta(wind_ns(0), "OutPackets", pkts0) -
	       stat_delta(wind_ns(0), "OutAcks", acks0);
	TH_LOG("%u messages in %ld data packets, %ld bundles of %ld", n,
	       data, stat_delta(wind_ns(0), "OutBundles", ob0),
	       stat_delta(wind_ns(0), "OutBundled", obd0));
	EXPECT_LT(data, n / 2);
	EXPECT_LT(0, stat_delta(wind_ns(0), "OutBundles", ob0));
	/* nothing lost on a veth: every bundle arrived as one */
	EXPECT_EQ(stat_delta(wind_ns(0), "OutBundles", ob0),
		  stat_delta(wind_ns(1), "InBundles", ib0));
	EXPECT_EQ(stat_delta(wind_ns(0), "OutBundled", obd0),
		  stat_delta(wind_ns(1), "InBundled", ibd0));
}

/* Corked, the three types mixed: each keeps its semantics.  A sync send
 * flushes what the cork holds and returns once its own message (and so
 * all before it) is acknowledged.
 */
TEST_F(bundle, cork_mixed_types)
{
	const unsigned int n = 150;
	char ordered[150];
	long obd0;
	unsigned int i;
	int one = 1, val = 0;
	socklen_t len = sizeof(val);

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_CORK, &one,
				sizeof(one)));
	ASSERT_EQ(0, getsockopt(self->tx, SOL_WIND, WIND_CORK, &val, &len));
	EXPECT_EQ(1, val);
	obd0 = wind_stat(wind_ns(0), "OutBundled");
	for (i = 0; i < n; i++) {
		int flags = 0;

		if (i % 10 == 9)
			flags = MSG_WIND_SYNC;
		else if (i % 3 == 1)
			flags = MSG_WIND_RELIABLE;
		ordered[i] = flags != MSG_WIND_RELIABLE;
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, flags))
			TH_LOG("send %u: %s", i, strerror(errno));
		if (flags != MSG_WIND_SYNC)
			continue;
		/* acknowledged: nothing of it or before it is left */
		EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
		EXPECT_EQ(0, in_flight(self->tx, &self->to));
	}
	EXPECT_EQ(0, recv_check(self->rx, n, ordered));
	EXPECT_LT(0, stat_delta(wind_ns(0), "OutBundled", obd0));
}

/* What the cork holds stays queued; uncorking sends it, as one bundle. */
TEST_F(bundle, uncork_flushes)
{
	long ob0 = wind_stat(wind_ns(0), "OutBundles");
	long obd0 = wind_stat(wind_ns(0), "OutBundled");
	int one = 1, zero = 0, two = 2;
	unsigned int i;

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_CORK, &one,
				sizeof(one)));
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, 0));
	EXPECT_EQ(5, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(0, in_flight(self->tx, &self->to));
	EXPECT_TRUE(wind_rx_empty(self->rx));
	/* bad values change nothing */
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_WIND, WIND_CORK, &two,
				 sizeof(two)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(self->tx, SOL_WIND, WIND_CORK, &zero, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(5, wind_sa_unsent(self->tx, &self->to));

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_CORK, &zero,
				sizeof(zero)));
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(0, recv_check(self->rx, 5, NULL));
	EXPECT_EQ(1, stat_delta(wind_ns(0), "OutBundles", ob0));
	EXPECT_EQ(5, stat_delta(wind_ns(0), "OutBundled", obd0));
}

/* MSG_MORE holds; the next send without it sends all, as one bundle. */
TEST_F(bundle, more_then_plain)
{
	long ob0 = wind_stat(wind_ns(0), "OutBundles");
	long obd0 = wind_stat(wind_ns(0), "OutBundled");
	unsigned int i;

	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN,
				      MSG_MORE));
	EXPECT_EQ(3, wind_sa_unsent(self->tx, &self->to));
	EXPECT_TRUE(wind_rx_empty(self->rx));
	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 3, MSG_LEN, 0));
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(0, recv_check(self->rx, 4, NULL));
	EXPECT_EQ(1, stat_delta(wind_ns(0), "OutBundles", ob0));
	EXPECT_EQ(4, stat_delta(wind_ns(0), "OutBundled", obd0));
}

/* A lone message without MSG_MORE leaves at once, alone; a sync one
 * with MSG_MORE does not wait for more either.
 */
TEST_F(bundle, lone_immediate)
{
	long ob0 = wind_stat(wind_ns(0), "OutBundles");

	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 0, MSG_LEN, 0));
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(0, recv_check(self->rx, 1, NULL));
	EXPECT_EQ(0, stat_delta(wind_ns(0), "OutBundles", ob0));

	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, 0, MSG_LEN,
			      MSG_MORE | MSG_WIND_SYNC));
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	EXPECT_EQ(0, in_flight(self->tx, &self->to));
	EXPECT_EQ(0, recv_check(self->rx, 1, NULL));
}

/* A message of several packets is never bundled nor held by a cork. */
TEST_F(bundle, large_not_held)
{
	char buf[3000], in[4096];
	int one = 1;

	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_CORK, &one,
				sizeof(one)));
	wind_msg_make(buf, sizeof(buf), 7);
	ASSERT_EQ((ssize_t)sizeof(buf),
		  sendto(self->tx, buf, sizeof(buf), 0, &self->to.sa,
			 sizeof(self->to)));
	EXPECT_EQ(0, wind_sa_unsent(self->tx, &self->to));
	ASSERT_LT(0, wind_poll(self->rx, POLLIN, WAIT_MS));
	ASSERT_EQ((ssize_t)sizeof(buf), recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(0, memcmp(buf, in, sizeof(buf)));
}

/* One 64 B sync message, read; then the window its ACK gave the sender. */
static long window_after_sync(struct __test_metadata *_metadata,
			      FIXTURE_DATA(bundle) *self, unsigned int i)
{
	struct wind_peer_info pi;
	char in[4096];

	EXPECT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, MSG_WIND_SYNC));
	EXPECT_LT(0, wind_poll(self->rx, POLLIN, WAIT_MS));
	EXPECT_EQ(MSG_LEN, recv(self->rx, in, sizeof(in), 0));
	EXPECT_EQ(0, wind_sa_peer_info(self->tx, &self->to, &pi));
	return pi.wpi_snd_wnd;
}

/* A window counts packets, each priced at what the peer's packets took of
 * the receive buffer lately: a peer of small messages is offered more
 * packets than the buffer holds full ones.  Before, a 64 B message was
 * priced as a full packet (about 2.3 KiB of truesize: mss, sk_buff and
 * skb_shared_info; never less than mss + 512 bytes) and 8 senders of
 * them were offered a third of the buffer.
 */
TEST_F(bundle, small_messages_wider_window)
{
	const unsigned int big_n = 32, small_n = 400;
	int rcvbuf = 65536;	/* sk_rcvbuf 128 KiB: under the caps */
	char big[8192], in[8192];
	socklen_t optlen = sizeof(rcvbuf);
	struct wind_peer_info pi;
	long w_big, w_small, full;
	unsigned int i;

	ASSERT_EQ(0, setsockopt(self->rx, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf)));
	for (i = 0; i < big_n; i++) {
		wind_msg_make(big, sizeof(big), i);
		ASSERT_EQ((ssize_t)sizeof(big),
			  sendto(self->tx, big, sizeof(big), 0, &self->to.sa,
				 sizeof(self->to)));
		ASSERT_LT(0, wind_poll(self->rx, POLLIN, WAIT_MS));
		ASSERT_EQ((ssize_t)sizeof(big),
			  recv(self->rx, in, sizeof(in), 0));
		ASSERT_EQ(0, memcmp(big, in, sizeof(big)));
	}
	w_big = window_after_sync(_metadata, self, 0);
	for (i = 0; i < small_n; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN,
				      i % 16 == 15 ? 0 : MSG_MORE));
	EXPECT_EQ(0, recv_check(self->rx, small_n, NULL));
	w_small = window_after_sync(_metadata, self, 0);
	ASSERT_EQ(0, getsockopt(self->rx, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				&optlen));
	ASSERT_EQ(0, wind_sa_peer_info(self->tx, &self->to, &pi));
	/* the most full packets the buffer could hold */
	full = rcvbuf / (pi.wpi_mss + 512);
	TH_LOG("window after 8 KiB messages %ld packets, after 64 B ones %ld; "
	       "at most %ld full packets in the buffer",
	       w_big, w_small, full);
	EXPECT_LT(0, w_big);
	/* before, both were the buffer in full packets (56 for 128 KiB);
	 * now 134 and 88 on 6.12, 107 and 86 on 6.1 (a GSO skb taken
	 * whole costs less than its packets one by one)
	 */
	EXPECT_GT(w_small, full);
}

/* What @fd's received skbs cost its buffer (sk_rmem_alloc), or -1 */
static long rmem_of(int fd)
{
	__u32 mi[SK_MEMINFO_VARS];
	socklen_t len = sizeof(mi);

	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mi, &len) ||
	    len < sizeof(mi[0]) * (SK_MEMINFO_RMEM_ALLOC + 1))
		return -1;
	return mi[SK_MEMINFO_RMEM_ALLOC];
}

/* Read @n messages of MSG_LEN, 0 to n - 1 in order, from @fd: each
 * intact, the buffer's charge above 0 until the last is read and 0 then.
 */
static void recv_release(struct __test_metadata *_metadata, int fd,
			 unsigned int n)
{
	char in[4096];
	unsigned int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(MSG_LEN, recv(fd, in, sizeof(in), MSG_DONTWAIT))
			TH_LOG("message %u: %s", i, strerror(errno));
		EXPECT_EQ((long)i, wind_msg_check(in, MSG_LEN));
		if (i < n - 1)
			EXPECT_LT(0, rmem_of(fd));
	}
	EXPECT_EQ(0, rmem_of(fd));
	EXPECT_TRUE(wind_rx_empty(fd));
}

/* A bundle's messages share its buffer: together they cost the receive
 * buffer about what the bundle does, an sk_buff each and a share of its
 * data, not a buffer each as the same messages sent one by one do: at
 * most two thirds of theirs (4096 B for 8 x 64 B against 7680 B alone
 * on both kernels).  Before, each was a copy in a buffer of its own, and
 * 8 bundled cost what 8 alone did.  All is given back when the last is
 * read.
 */
TEST_F(bundle, members_share_the_bundle)
{
	const unsigned int n = 8;	/* a new peer's first window */
	long ib0, ibd0, alone, bundled;
	unsigned int i;
	int one = 1;

	ib0 = wind_stat(wind_ns(1), "InBundles");
	/* each sync message leaves alone and is queued once it returns */
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN,
					   MSG_WIND_SYNC));
	EXPECT_EQ(0, stat_delta(wind_ns(1), "InBundles", ib0));
	alone = rmem_of(self->rx);
	recv_release(_metadata, self->rx, n);

	ib0 = wind_stat(wind_ns(1), "InBundles");
	ibd0 = wind_stat(wind_ns(1), "InBundled");
	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_CORK, &one,
				sizeof(one)));
	for (i = 0; i < n - 1; i++)
		ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, i, MSG_LEN, 0));
	EXPECT_EQ(n - 1, wind_sa_unsent(self->tx, &self->to));
	/* the sync one sends what the cork holds with it, as one bundle,
	 * and returns once it is acknowledged: all n are queued
	 */
	ASSERT_EQ(0, wind_msg_send(self->tx, &self->to, n - 1, MSG_LEN,
				   MSG_WIND_SYNC));
	EXPECT_EQ(0, in_flight(self->tx, &self->to));
	EXPECT_EQ(1, stat_delta(wind_ns(1), "InBundles", ib0));
	EXPECT_EQ(n, stat_delta(wind_ns(1), "InBundled", ibd0));
	bundled = rmem_of(self->rx);
	TH_LOG("%u messages of %d B cost the receive buffer %ld B sent alone, %ld B bundled",
	       n, MSG_LEN, alone, bundled);
	EXPECT_LT(0, bundled);
	EXPECT_GE(2 * alone, 3 * bundled);
	recv_release(_metadata, self->rx, n);
}

/* ---------------------------------------------------------------- */

/* A crafted packet: the common and data headers, then @body */
static size_t craft(uint8_t *pkt, uint16_t dport, uint8_t flags, uint32_t seq,
		    uint16_t nfrags, uint32_t msg_len, const void *body,
		    size_t blen)
{
	struct windhdr *wh = (struct windhdr *)pkt;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	size_t len = HDRS_LEN + blen;

	memset(pkt, 0, HDRS_LEN);
	wh->source = htons(CRAFT_SPORT);
	wh->dest = htons(dport);
	wh->len = htons(len);
	wh->version_type = WIND_VERSION << 4 | WIND_PKT_DATA;
	wh->flags = flags;
	wh->window = htons(64);
	wh->src_tag = htonl(CRAFT_TAG);
	wh->seq = htonl(seq);
	wh->oldest = htonl(1000);
	dh->nfrags = htons(nfrags);
	dh->msg_len = htonl(msg_len);
	memcpy(pkt + HDRS_LEN, body, blen);
	wh->check = wind_pkt_csum(wind_node_addr(0), wind_node_addr(1), len,
				  pkt, len);
	return len;
}

/* Append a chunk of @len bytes of message @idx to @body at *@off */
static void chunk(uint8_t *body, size_t *off, uint8_t flags, uint16_t len,
		  unsigned int idx)
{
	struct wind_chunkhdr *ch = (struct wind_chunkhdr *)(body + *off);
	size_t padded = (len + 3) & ~3U;

	ch->flags = flags;
	ch->reserved = 0;
	ch->len = htons(len);
	memset(ch + 1, 0, padded);
	wind_msg_make(ch + 1, len, idx);
	*off += sizeof(*ch) + padded;
}

static int send_raw(int raw, const void *pkt, size_t len)
{
	struct sockaddr_in dst;

	wind_sin(&dst, wind_node_addr(1), 0);
	return sendto(raw, pkt, len, 0, (struct sockaddr *)&dst,
		      sizeof(dst)) == (ssize_t)len ? 0 : -1;
}

/*
 * A crafted bundle of three is delivered as three messages in order; each
 * kind of malformed bundle is dropped and counted in InErrBundle alone,
 * and nothing of it is delivered before the good message sent after.
 */
TEST_F(bundle, malformed)
{
	static const char *const others[] = {
		"InErrShort", "InErrLength", "InErrChecksum", "InErrHeader",
		"InErrTag", "InErrWindow",
	};
	long other0[ARRAY_SIZE(others)], bad0, ib0, ibd0;
	uint8_t body[512], pkt[1024], in[2048];
	unsigned int k, i, kinds = 0;
	size_t off, len;
	int raw;

	if (wind_test_encap() != WIND_ENCAP_RAW || wind_test_ipv6())
		SKIP(return, "crafted packets are raw IPv4");
	raw = wind_socket_in(wind_ns(0), SOCK_RAW, IPPROTO_WIND);
	ASSERT_LE(0, raw);
	for (k = 0; k < ARRAY_SIZE(others); k++)
		other0[k] = wind_stat(wind_ns(1), others[k]);
	bad0 = wind_stat(wind_ns(1), "InErrBundle");
	ib0 = wind_stat(wind_ns(1), "InBundles");
	ibd0 = wind_stat(wind_ns(1), "InBundled");
	ASSERT_LE(0, bad0) TH_LOG("no InErrBundle counter");

	/* good: messages 0..2 at seqs 1000..1002, lengths 16, 64, 33 */
	off = 0;
	chunk(body, &off, WIND_F_ORDERED, 16, 0);
	chunk(body, &off, WIND_F_ORDERED, MSG_LEN, 1);
	chunk(body, &off, 0, 33, 2);
	len = craft(pkt, PORT, WIND_F_BUNDLE, 1000, 3, off, body, off);
	ASSERT_EQ(0, send_raw(raw, pkt, len));
	for (i = 0; i < 3; i++) {
		static const ssize_t lens[] = { 16, MSG_LEN, 33 };
		ssize_t r;

		ASSERT_LT(0, wind_poll(self->rx, POLLIN, WAIT_MS));
		r = recv(self->rx, in, sizeof(in), MSG_DONTWAIT);
		ASSERT_EQ(lens[i], r);
		EXPECT_EQ(i, wind_msg_check(in, r));
	}
	EXPECT_EQ(1, stat_delta(wind_ns(1), "InBundles", ib0));
	EXPECT_EQ(3, stat_delta(wind_ns(1), "InBundled", ibd0));

	/* malformed, each kind N_BAD times, at the seqs that come next */
	for (k = 0; k < 10; k++) {
		uint16_t nfrags = 2;
		uint8_t flags = WIND_F_BUNDLE;
		uint32_t msg_len;

		off = 0;
		chunk(body, &off, WIND_F_ORDERED, 20, 3);
		chunk(body, &off, WIND_F_ORDERED, 20, 4);
		msg_len = off;
		switch (k) {
		case 0:		/* inner length past the packet */
			((struct wind_chunkhdr *)body)->len = htons(off);
			break;
		case 1:		/* inner length one short of its padding */
			((struct wind_chunkhdr *)(body + 24))->len = htons(21);
			break;
		case 2:		/* more chunks said than there are */
			nfrags = 3;
			break;
		case 3:		/* fewer: bytes left over */
			nfrags = 2;
			off += 4;
			memset(body + off - 4, 0, 4);
			msg_len = off;
			break;
		case 4:		/* one message only */
			nfrags = 1;
			off = 24;
			msg_len = off;
			break;
		case 5:		/* a DSM chunk */
			body[0] |= WIND_F_DSM;
			break;
		case 6:		/* reserved byte set */
			body[1] = 1;
			break;
		case 7:		/* sync but not ordered */
			body[0] = WIND_F_SYNC;
			break;
		case 8:		/* header flag a bundle cannot have */
			flags |= WIND_F_ORDERED;
			break;
		case 9:		/* msg_len says more than it carries */
			msg_len = off + 4;
			break;
		}
		for (i = 0; i < N_BAD; i++) {
			len = craft(pkt, PORT, flags, 1003, nfrags, msg_len,
				    body, off);
			ASSERT_EQ(0, send_raw(raw, pkt, len));
		}
		kinds++;
	}
	/* a good one after them is the next thing delivered */
	off = 0;
	chunk(body, &off, WIND_F_ORDERED, MSG_LEN, 3);
	chunk(body, &off, WIND_F_ORDERED, MSG_LEN, 4);
	len = craft(pkt, PORT, WIND_F_BUNDLE, 1003, 2, off, body, off);
	ASSERT_EQ(0, send_raw(raw, pkt, len));
	for (i = 3; i < 5; i++) {
		ssize_t r;

		ASSERT_LT(0, wind_poll(self->rx, POLLIN, WAIT_MS));
		r = recv(self->rx, in, sizeof(in), MSG_DONTWAIT);
		ASSERT_EQ(MSG_LEN, r);
		EXPECT_EQ(i, wind_msg_check(in, r));
	}
	EXPECT_TRUE(wind_rx_empty(self->rx));
	EXPECT_EQ(bad0 + kinds * N_BAD,
		  wind_stat_wait(wind_ns(1), "InErrBundle",
				 bad0 + kinds * N_BAD, WAIT_MS));
	for (k = 0; k < ARRAY_SIZE(others); k++)
		EXPECT_EQ(other0[k], wind_stat(wind_ns(1), others[k]))
			TH_LOG("%s moved", others[k]);
	close(raw);
}

TEST_HARNESS_MAIN
