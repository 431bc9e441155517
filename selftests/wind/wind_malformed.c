// SPDX-License-Identifier: GPL-2.0
/*
 * Crafted Wind packets from a raw socket in node 0 (the kernel builds the
 * IP header) to a Wind socket bound in node 1, over the veth pair of
 * lib.c:
 *
 *   wind0: raw IPPROTO_WIND socket  --- veth --->  wind1: Wind socket rx
 *          + a real Wind socket tx  ------------>
 *
 * A valid crafted DATA packet is delivered byte-exact with the raw
 * sender's address and the crafted port.  Each kind of malformed packet
 * raises exactly its own InErr* counter of /proc/net/wind_stat by the
 * number sent, never reaches recvfrom(), and does not disturb good
 * traffic sent in between.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib.h"
/* The 6.1 harness and its TEST() macros leave parameters unused */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "harness.h"

#define WAIT_MS		5000
#define CRAFT_SPORT	40000
#define NOPORT		9		/* no Wind socket there */
#define N_BAD		10		/* malformed packets per kind */
#define PAYLOAD_LEN	64
#define HDRS_LEN	(sizeof(struct windhdr) + sizeof(struct wind_datahdr))

_Static_assert(sizeof(struct windhdr) == 32, "windhdr is 32 bytes");
_Static_assert(sizeof(struct wind_datahdr) == 8, "wind_datahdr is 8 bytes");

static const char *const err_counters[] = {
	"InErrShort", "InErrLength", "InErrChecksum", "InErrHeader",
	"InErrNoPort", "InErrRcvbuf", "InErrWindow", "InErrTag",
};
#define N_COUNTERS	ARRAY_SIZE(err_counters)

struct endpoints {
	int raw, tx, rx;
	struct sockaddr_in rx_dst;	/* 10.77.0.2:rx port */
	struct sockaddr_in tx_src;	/* 10.77.0.1:tx port */
	uint16_t rx_port;
};

static int endpoints_setup(struct endpoints *e)
{
	struct sockaddr_in sa;

	e->raw = e->tx = e->rx = -1;
	if (wind_topo_setup(2))
		return -1;
	e->rx = wind_bound_socket(wind_ns(1), 0, &sa);
	if (e->rx < 0)
		return -1;
	e->rx_port = ntohs(sa.sin_port);
	wind_sin(&e->rx_dst, wind_node_addr(1), e->rx_port);
	e->tx = wind_bound_socket(wind_ns(0), 0, &sa);
	if (e->tx < 0)
		return -1;
	wind_sin(&e->tx_src, wind_node_addr(0), ntohs(sa.sin_port));
	e->raw = wind_socket_in(wind_ns(0), SOCK_RAW, IPPROTO_WIND);
	return e->raw < 0 ? -1 : 0;
}

static void endpoints_teardown(struct endpoints *e)
{
	if (e->raw >= 0)
		close(e->raw);
	if (e->tx >= 0)
		close(e->tx);
	if (e->rx >= 0)
		close(e->rx);
	wind_topo_teardown();
}

/* (Re)compute the checksum of a crafted packet, as the sender would */
static void set_check(uint8_t *pkt, size_t len, uint16_t pseudo_len)
{
	struct windhdr *wh = (struct windhdr *)pkt;

	wh->check = 0;
	wh->check = wind_pkt_csum(wind_node_addr(0), wind_node_addr(1),
				  pseudo_len, pkt, len);
}

/* A valid single-fragment DATA packet; returns its length */
static size_t build_data(uint8_t *pkt, uint16_t sport, uint16_t dport,
			 uint32_t tag, uint32_t seq, const void *payload,
			 size_t plen)
{
	struct windhdr *wh = (struct windhdr *)pkt;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	size_t len = HDRS_LEN + plen;

	memset(pkt, 0, HDRS_LEN);
	wh->source = htons(sport);
	wh->dest = htons(dport);
	wh->len = htons(len);
	wh->version_type = WIND_VERSION << 4 | WIND_PKT_DATA;
	wh->flags = WIND_F_ORDERED;
	wh->window = htons(64);
	wh->src_tag = htonl(tag);
	wh->dst_tag = 0;
	wh->seq = htonl(seq);
	wh->ack = 0;
	wh->oldest = htonl(seq);
	dh->frag = htons(0);
	dh->nfrags = htons(1);
	dh->msg_len = htonl(plen);
	memcpy(pkt + HDRS_LEN, payload, plen);
	set_check(pkt, len, len);
	return len;
}

static int send_raw(struct endpoints *e, const void *pkt, size_t len)
{
	struct sockaddr_in dst;

	wind_sin(&dst, wind_node_addr(1), 0);
	return sendto(e->raw, pkt, len, 0, (struct sockaddr *)&dst,
		      sizeof(dst)) == (ssize_t)len ? 0 : -1;
}

/* ---------------------------------------------------------------- */

FIXTURE(crafted) {
	struct endpoints e;
};

FIXTURE_SETUP(crafted)
{
	ASSERT_EQ(0, endpoints_setup(&self->e))
		TH_LOG("setup: %s", strerror(errno));
}

FIXTURE_TEARDOWN(crafted)
{
	endpoints_teardown(&self->e);
}

TEST_F(crafted, valid_delivered)
{
	uint8_t pkt[2048], payload[1200], in[2048];
	struct sockaddr_in from;
	uint32_t tag = 0x5eed0001;
	long before;
	size_t len;
	ssize_t r;
	int i;

	before = wind_stat(wind_ns(1), "InMessages");
	for (i = 0; i < 3; i++) {
		size_t plen = i == 2 ? sizeof(payload) : 200 + (size_t)i;

		wind_fill(payload, plen, 77 + i);
		len = build_data(pkt, CRAFT_SPORT, self->e.rx_port, tag,
				 1000 + i, payload, plen);
		ASSERT_EQ(0, send_raw(&self->e, pkt, len))
			TH_LOG("raw send: %s", strerror(errno));

		memset(in, 0, sizeof(in));
		r = wind_recv_wait(self->e.rx, in, sizeof(in), &from, WAIT_MS);
		ASSERT_EQ((ssize_t)plen, r)
			TH_LOG("crafted packet %d: got %zd (%s)", i, r,
			       r < 0 ? strerror(errno) : "");
		EXPECT_EQ(0, memcmp(payload, in, plen));
		EXPECT_EQ(AF_INET, from.sin_family);
		EXPECT_EQ(wind_node_addr(0), from.sin_addr.s_addr);
		EXPECT_EQ(CRAFT_SPORT, ntohs(from.sin_port));
	}
	EXPECT_TRUE(wind_rx_empty(self->e.rx));
	if (before >= 0)
		EXPECT_EQ(before + 3, wind_stat(wind_ns(1), "InMessages"));
}

/*
 * A valid packet to a port with no socket: InErrNoPort, and an ICMP port
 * unreachable quoting the packet goes back, as UDP does.
 */
TEST_F(crafted, no_port_icmp)
{
	uint8_t pkt[256], payload[32], in[1500];
	int icmp, got = 0;
	long before, after;
	long long deadline;
	size_t len;

	icmp = wind_socket_in(wind_ns(0), SOCK_RAW, IPPROTO_ICMP);
	ASSERT_LE(0, icmp);
	before = wind_stat(wind_ns(1), "InErrNoPort");
	ASSERT_LE(0, before) TH_LOG("no InErrNoPort counter");

	wind_fill(payload, sizeof(payload), 5);
	len = build_data(pkt, CRAFT_SPORT, NOPORT, 0x5eed0002, 1, payload,
			 sizeof(payload));
	ASSERT_EQ(0, send_raw(&self->e, pkt, len));
	after = wind_stat_wait(wind_ns(1), "InErrNoPort", before + 1, WAIT_MS);
	EXPECT_EQ(before + 1, after);

	deadline = wind_now_ms() + WAIT_MS;
	while (!got && wind_now_ms() < deadline) {
		struct iphdr *ip = (struct iphdr *)in, *qip;
		struct icmphdr *ic;
		uint8_t *q;
		ssize_t r;

		if (wind_poll(icmp, POLLIN, (int)(deadline - wind_now_ms()))
		    <= 0)
			break;
		r = recv(icmp, in, sizeof(in), MSG_DONTWAIT);
		if (r < (ssize_t)(20 + 8 + 20 + 8))
			continue;
		ic = (struct icmphdr *)(in + ip->ihl * 4);
		if (ip->saddr != wind_node_addr(1) ||
		    ic->type != ICMP_DEST_UNREACH)
			continue;
		qip = (struct iphdr *)(ic + 1);
		q = (uint8_t *)qip + qip->ihl * 4;
		EXPECT_EQ(ICMP_PORT_UNREACH, ic->code);
		EXPECT_EQ(IPPROTO_WIND, qip->protocol);
		EXPECT_EQ(wind_node_addr(1), qip->daddr);
		/* the quoted ports name the sender's socket */
		EXPECT_EQ(0, memcmp(q, pkt, 4));
		got = 1;
	}
	EXPECT_TRUE(got) TH_LOG("no ICMP destination unreachable came back");
	EXPECT_TRUE(wind_rx_empty(self->e.rx));
	close(icmp);
}

/* ---------------------------------------------------------------- */

enum bad_kind {
	BAD_SHORT_0,		/* no Wind bytes at all */
	BAD_SHORT_8,		/* ports, len and check only */
	BAD_SHORT_31,		/* one byte short of windhdr */
	BAD_SHORT_DATA,		/* windhdr but only half a wind_datahdr */
	BAD_SHORT_ACK,		/* an ACK without its wind_ackhdr */
	BAD_CHECKSUM,
	BAD_LEN_LARGER,		/* len beyond the end of the packet */
	BAD_LEN_BELOW_HDR,	/* len smaller than windhdr */
	BAD_LEN_SMALLER,	/* a valid packet, one byte more IP payload */
	BAD_FRAG_INDEX,		/* frag >= nfrags */
	BAD_NFRAGS_0,
	BAD_MSG_LEN,		/* single fragment whose msg_len differs */
	BAD_VERSION_0,
	BAD_VERSION_2,
	BAD_TYPE_0,
	BAD_TYPE_9,
	BAD_FLAGS,		/* a flag bit no version-1 sender sets */
	BAD_SRC_TAG_0,		/* src_tag is never 0 */
	BAD_NO_PORT,
};

FIXTURE(malformed) {
	struct endpoints e;
};

FIXTURE_VARIANT(malformed) {
	enum bad_kind kind;
	const char *counter;
};

#define BAD(name, k, ctr)						\
	FIXTURE_VARIANT_ADD(malformed, name) {				\
		.kind = k, .counter = ctr,				\
	}

BAD(short_0, BAD_SHORT_0, "InErrShort");
BAD(short_8, BAD_SHORT_8, "InErrShort");
BAD(short_31, BAD_SHORT_31, "InErrShort");
BAD(short_data, BAD_SHORT_DATA, "InErrShort");
BAD(short_ack, BAD_SHORT_ACK, "InErrShort");
BAD(checksum, BAD_CHECKSUM, "InErrChecksum");
BAD(len_larger, BAD_LEN_LARGER, "InErrLength");
BAD(len_below_header, BAD_LEN_BELOW_HDR, "InErrLength");
BAD(len_smaller_than_payload, BAD_LEN_SMALLER, "InErrLength");
BAD(frag_index, BAD_FRAG_INDEX, "InErrLength");
BAD(nfrags_0, BAD_NFRAGS_0, "InErrLength");
BAD(msg_len, BAD_MSG_LEN, "InErrLength");
BAD(version_0, BAD_VERSION_0, "InErrHeader");
BAD(version_2, BAD_VERSION_2, "InErrHeader");
BAD(type_0, BAD_TYPE_0, "InErrHeader");
BAD(type_9, BAD_TYPE_9, "InErrHeader");
BAD(flags, BAD_FLAGS, "InErrHeader");
BAD(src_tag_0, BAD_SRC_TAG_0, "InErrHeader");
BAD(no_port, BAD_NO_PORT, "InErrNoPort");

FIXTURE_SETUP(malformed)
{
	ASSERT_EQ(0, endpoints_setup(&self->e))
		TH_LOG("setup: %s", strerror(errno));
}

FIXTURE_TEARDOWN(malformed)
{
	endpoints_teardown(&self->e);
}

/*
 * Malformed packet number i of a kind.  Each one comes from its own
 * association (tag), so none could pass as a duplicate of another.
 */
static size_t build_bad(uint8_t *pkt, enum bad_kind kind, int i,
			uint16_t rx_port)
{
	uint8_t payload[PAYLOAD_LEN];
	struct windhdr *wh = (struct windhdr *)pkt;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	uint16_t dport = kind == BAD_NO_PORT ? NOPORT : rx_port;
	size_t len;

	memset(payload, 0xbd, sizeof(payload));	/* never to be received */
	len = build_data(pkt, CRAFT_SPORT + 1 + i, dport, 0xbad00001 + i,
			 5000 + i, payload, sizeof(payload));

	switch (kind) {
	case BAD_SHORT_0:
		return 0;
	case BAD_SHORT_8:
		return 8;
	case BAD_SHORT_31:
		return 31;
	case BAD_SHORT_DATA:
		len = sizeof(*wh) + 4;
		wh->len = htons(len);
		break;
	case BAD_SHORT_ACK:
		wh->version_type = WIND_VERSION << 4 | WIND_PKT_ACK;
		wh->flags = 0;
		wh->seq = 0;
		wh->ack = htonl(1);
		len = sizeof(*wh) + 4;
		wh->len = htons(len);
		break;
	case BAD_CHECKSUM: {
		uint16_t c = wh->check ^ htons(0x5555);

		wh->check = c ? c : wh->check ^ htons(0x1111);
		return len;
	}
	case BAD_LEN_LARGER:
		wh->len = htons(len + 10);
		set_check(pkt, len, len + 10);
		return len;
	case BAD_LEN_BELOW_HDR:
		wh->len = htons(20);
		set_check(pkt, len, 20);
		return len;
	case BAD_LEN_SMALLER:
		/*
		 * len and check are right for the packet without the extra
		 * byte: a receiver that trims as UDP does would accept it,
		 * but the IP payload length disagrees with len.
		 */
		pkt[len] = 0xbd;
		return len + 1;
	case BAD_FRAG_INDEX:
		dh->frag = htons(1);
		break;
	case BAD_NFRAGS_0:
		dh->nfrags = 0;
		break;
	case BAD_MSG_LEN:
		dh->msg_len = htonl(PAYLOAD_LEN + 1);
		break;
	case BAD_VERSION_0:
		wh->version_type = 0 << 4 | WIND_PKT_DATA;
		break;
	case BAD_VERSION_2:
		wh->version_type = 2 << 4 | WIND_PKT_DATA;
		break;
	case BAD_TYPE_0:
		wh->version_type = WIND_VERSION << 4 | 0;
		break;
	case BAD_TYPE_9:
		wh->version_type = WIND_VERSION << 4 | 9;
		break;
	case BAD_FLAGS:
		wh->flags |= 0x80;
		break;
	case BAD_SRC_TAG_0:
		wh->src_tag = 0;
		break;
	case BAD_NO_PORT:
		break;
	}
	set_check(pkt, len, len);
	return len;
}

static void read_counters(const char *ns, long *v)
{
	unsigned int i;

	for (i = 0; i < N_COUNTERS; i++)
		v[i] = wind_stat(ns, err_counters[i]);
}

TEST_F(malformed, counted_and_dropped)
{
	long before[N_COUNTERS], after[N_COUNTERS], v;
	uint8_t pkt[2048], good[2][700], in[2048];
	struct sockaddr_in from;
	const char *ns1 = wind_ns(1);
	unsigned int c;
	int i, g = 0;
	ssize_t r;

	read_counters(ns1, before);
	for (c = 0; c < N_COUNTERS; c++) {
		if (before[c] < 0)
			TH_LOG("counter %s missing", err_counters[c]);
		ASSERT_LE(0, before[c]);
	}

	for (i = 0; i < N_BAD; i++) {
		size_t len = build_bad(pkt, variant->kind, i,
				       self->e.rx_port);

		ASSERT_EQ(0, send_raw(&self->e, pkt, len))
			TH_LOG("raw send %zu bytes: %s", len, strerror(errno));
		/* good traffic in the middle and at the end */
		if (i == N_BAD / 2 - 1 || i == N_BAD - 1) {
			wind_fill(good[g], sizeof(good[g]), 900 + g);
			ASSERT_EQ((ssize_t)sizeof(good[g]),
				  sendto(self->e.tx, good[g], sizeof(good[g]),
					 0, (struct sockaddr *)&self->e.rx_dst,
					 sizeof(self->e.rx_dst)));
			g++;
		}
	}

	c = 0;
	while (strcmp(err_counters[c], variant->counter))
		c++;
	v = wind_stat_wait(ns1, variant->counter, before[c] + N_BAD, WAIT_MS);
	EXPECT_EQ(before[c] + N_BAD, v);

	for (g = 0; g < 2; g++) {
		r = wind_recv_wait(self->e.rx, in, sizeof(in), &from, WAIT_MS);
		ASSERT_EQ((ssize_t)sizeof(good[g]), r)
			TH_LOG("good message %d: got %zd (%s)%s", g, r,
			       r < 0 ? strerror(errno) : "",
			       r == PAYLOAD_LEN ? ": a malformed one?" : "");
		EXPECT_EQ(0, memcmp(good[g], in, sizeof(good[g])));
		EXPECT_EQ(self->e.tx_src.sin_addr.s_addr, from.sin_addr.s_addr);
		EXPECT_EQ(self->e.tx_src.sin_port, from.sin_port);
	}
	EXPECT_TRUE(wind_rx_empty(self->e.rx))
		TH_LOG("something malformed reached the socket");

	/* exactly N_BAD on this kind's counter, none on the others */
	read_counters(ns1, after);
	for (c = 0; c < N_COUNTERS; c++) {
		long want = before[c];

		if (!strcmp(err_counters[c], variant->counter))
			want += N_BAD;
		EXPECT_EQ(want, after[c])
			TH_LOG("%s: %ld -> %ld", err_counters[c], before[c],
			       after[c]);
	}
}

TEST_HARNESS_MAIN
