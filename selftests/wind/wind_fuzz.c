// SPDX-License-Identifier: GPL-2.0
/*
 * Packet fuzzer: a raw socket in node0 sends crafted Wind packets, most
 * with a correct checksum so they reach the deep parts of the receive
 * path, to a socket in node1 that has a DSM region registered, while a
 * real Wind socket in node0 keeps sending good traffic to it.
 *
 *   node0 (10.77.0.1: raw sender + good sender) ===veth=== node1 (10.77.0.2)
 *
 * Every crafted packet is a valid one with one field mutated: lengths,
 * fragment index and count, sequence numbers near and far, oldest, tags,
 * flags, message lengths, DSM offsets and diff runs, bundles of messages
 * and their chunks; or random bytes, or
 * a truncation, or a replay.  The receiver must stay up, every good
 * message must arrive byte-exact and in order, nothing outside the region
 * may change, and every packet must be counted (InPackets).
 *
 * In each form of the matrix (lib.h, wind_forge): raw IPv4 as itself,
 * inside UDP (-udp), over IPv6 (-ipv6) and inside UDP over IPv6
 * (-ipv6-udp).
 *
 * WIND_FUZZ_PACKETS sets the count (default 20000, a quarter of that in
 * the matrix's other forms; `make fuzz` runs 1000000).
 */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

#define PORT		7400
#define GOOD		2000
#define REGION_ID	5
#define KEY		0x5eedULL
#define MAXPKT		1500

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Interesting values for 32-bit fields */
static uint32_t rnd32(uint32_t near)
{
	switch (rnd() % 8) {
	case 0: return 0;
	case 1: return 0xffffffff;
	case 2: return 0x80000000;
	case 3: return near + rnd() % 16;
	case 4: return near - rnd() % 16;
	case 5: return near + 1024 + rnd() % 4;
	case 6: return near + (rnd() % 3 - 1) * 0x7fffffff;
	}
	return rnd();
}

static uint16_t rnd16(void)
{
	static const uint16_t v[] = { 0, 1, 2, 0xffff, 0x8000, 31, 32, 33, 40 };

	return rnd() % 2 ? v[rnd() % 9] : (uint16_t)rnd();
}

struct fuzz {
	struct wind_forge *forge;
	uint32_t tags[3];	/* a few identities to reuse */
	uint32_t seq;
	uint8_t last[MAXPKT];
	size_t last_len;
};

/*
 * The body of a bundle (WIND_F_BUNDLE) after pkt's Wind header: mostly
 * well formed (2 to 7 messages of up to 100 bytes, their flags valid), now
 * and then with a count, flag, length or trailing byte wrong.  Returns the
 * packet's length.
 */
static size_t bundle_body(uint8_t *pkt)
{
	struct windhdr *wh = (struct windhdr *)pkt;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	size_t hdrs = sizeof(*wh) + sizeof(*dh), off = hdrs;
	unsigned int n = rnd() % 8 ? 2 + rnd() % 6 : rnd() % 80, k;

	wh->flags = WIND_F_BUNDLE |
		    (rnd() % 8 ? rnd() & (WIND_F_ACKREQ | WIND_F_SYN) : rnd());
	for (k = 0; k < n; k++) {
		struct wind_chunkhdr *ch = (struct wind_chunkhdr *)(pkt + off);
		uint16_t clen = rnd() % 8 ? rnd() % 100 : rnd16() % 300;
		size_t padded = (clen + 3) & ~3U, i;

		if (off + sizeof(*ch) + padded > MAXPKT - 100)
			break;
		ch->flags = rnd() % 8 ? WIND_F_ORDERED | (rnd() & WIND_F_ACKREQ) :
			    rnd() % 2 ? 0 : rnd();
		ch->reserved = rnd() % 16 ? 0 : rnd();
		ch->len = htons(rnd() % 16 ? clen : rnd16());
		for (i = 0; i < padded; i++)
			pkt[off + sizeof(*ch) + i] = i < clen ? rnd() : 0;
		off += sizeof(*ch) + padded;
	}
	if (rnd() % 16 == 0)
		off += 4;			/* bytes after the last chunk */
	dh->frag = htons(rnd() % 16 ? 0 : rnd16());
	dh->nfrags = htons(rnd() % 16 ? k : k + 1);
	dh->msg_len = htonl(rnd() % 16 ? off - hdrs : rnd32(off - hdrs));
	return off;
}

/* Build one crafted packet into pkt; returns its length. */
static size_t craft(struct fuzz *f, uint8_t *pkt)
{
	struct windhdr *wh = (struct windhdr *)pkt;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	struct wind_dsmhdr *dsm = (struct wind_dsmhdr *)(dh + 1);
	struct wind_ackhdr *ah = (struct wind_ackhdr *)(wh + 1);
	uint32_t kind = rnd() % 100, plen, i;
	size_t len;
	bool fix_len = true, fix_csum = rnd() % 20 != 0;

	if (kind < 3 && f->last_len) {		/* replay */
		memcpy(pkt, f->last, f->last_len);
		return f->last_len;
	}
	if (kind < 8) {				/* random bytes */
		len = rnd() % 200;
		for (i = 0; i < len; i++)
			pkt[i] = rnd();
		return len;
	}
	memset(pkt, 0, 64);
	wh->source = htons(6000 + rnd() % 4);
	wh->dest = htons(rnd() % 50 ? PORT : rnd16());
	wh->version_type = WIND_VERSION << 4 |
			   (rnd() % 10 ? WIND_PKT_DATA : rnd() % 2 ? WIND_PKT_ACK : WIND_PKT_RESET);
	wh->flags = rnd() % 8 ? (rnd() & 0x1f) : rnd();
	wh->window = htons(rnd16());
	wh->src_tag = htonl(rnd() % 8 ? f->tags[rnd() % 3] : rnd32(0));
	wh->dst_tag = htonl(rnd() % 4 ? 0 : rnd32(0));
	f->seq += rnd() % 3;
	wh->seq = htonl(rnd() % 4 ? f->seq : rnd32(f->seq));
	wh->ack = htonl(rnd32(0));
	wh->oldest = htonl(rnd() % 3 ? f->seq - rnd() % 8 : rnd32(f->seq));

	if ((wh->version_type & 0xf) == WIND_PKT_ACK) {
		uint16_t n = rnd() % 5 ? rnd() % 4 : rnd16();

		ah->sack = ((uint64_t)rnd() << 32) | rnd();
		ah->nnaks = htons(n);
		len = sizeof(*wh) + sizeof(*ah) + 8 * (n % 20);
		for (i = sizeof(*wh) + sizeof(*ah); i < len; i++)
			pkt[i] = rnd();
	} else if ((wh->version_type & 0xf) == WIND_PKT_RESET) {
		len = sizeof(*wh);
	} else {
		uint16_t nfrags = rnd() % 3 ? 1 + rnd() % 4 : rnd16();

		dh->nfrags = htons(nfrags);
		dh->frag = htons(rnd() % 4 ? (nfrags ? rnd() % nfrags : 0) : rnd16());
		plen = rnd() % 4 ? rnd() % 600 : rnd() % (MAXPKT - 100);
		dh->msg_len = htonl(rnd() % 3 ? plen * (nfrags ? nfrags : 1) : rnd32(plen));
		if (nfrags == 1 && rnd() % 2)
			dh->msg_len = htonl(plen);
		len = sizeof(*wh) + sizeof(*dh) + plen;
		for (i = sizeof(*wh) + sizeof(*dh); i < len; i++)
			pkt[i] = rnd();
		if (rnd() % 3 == 0) {
			/* a DSM message, often with the right key */
			uint32_t *runs = (uint32_t *)(dsm + 1);

			wh->flags |= WIND_F_DSM;
			if (plen < sizeof(*dsm) + 16) {
				plen = sizeof(*dsm) + 16 + rnd() % 64;
				len = sizeof(*wh) + sizeof(*dh) + plen;
			}
			dsm->mode = rnd() % 6;
			dsm->region = htonl(rnd() % 4 ? REGION_ID : rnd());
			dsm->offset = htobe64(rnd() % 4 ? rnd() % 70000 : ((uint64_t)rnd() << 32 | rnd()));
			dsm->key = htobe64(rnd() % 4 ? KEY : rnd());
			dsm->hdr_len = htonl(rnd() % 3 ? 0 : rnd() % 32);
			runs[0] = rnd() % 3 ? rnd() % 9000 : rnd();
			runs[1] = rnd() % 3 ? rnd() % 16 : rnd();
			runs[2] = rnd() % 8000;
			runs[3] = rnd();
			if (nfrags == 1)
				dh->msg_len = htonl(plen);
		}
		if (rnd() % 5 == 0)
			len = bundle_body(pkt);
	}
	if (rnd() % 20 == 0) {			/* a lying length field */
		wh->len = htons(rnd16());
		fix_len = false;
	}
	if (fix_len)
		wh->len = htons(len);
	if (rnd() % 25 == 0)			/* truncation */
		len = rnd() % (len + 1);
	if (fix_csum && len >= sizeof(*wh)) {
		wh->check = 0;
		/* wind_pkt_csum() returns it in network order already */
		wh->check = wind_forge_csum(f->forge, ntohs(wh->len) <= len ?
					    ntohs(wh->len) : len, pkt, len);
	} else if (len >= 8) {
		wh->check = rnd();
	}
	memcpy(f->last, pkt, len);
	f->last_len = len;
	return len;
}

struct good {
	int fd;
	wind_sa to;
	int sent, err;
};

static void *send_good(void *arg)
{
	struct good *g = arg;
	char buf[1000];
	int i;

	for (i = 0; i < GOOD; i++) {
		size_t len = 16 + (i * 37) % (sizeof(buf) - 16);

		wind_msg_make(buf, len, i);
		if (sendto(g->fd, buf, len, i % 5 == 4 ? MSG_WIND_SYNC : 0,
			   &g->to.sa, sizeof(g->to)) != (ssize_t)len) {
			g->err = errno;
			break;
		}
		g->sent++;
	}
	return NULL;
}

/* The raw IPv4 form's count, or WIND_FUZZ_PACKETS; a quarter in others */
static long fuzz_packets(void)
{
	if (getenv("WIND_FUZZ_PACKETS"))
		return atol(getenv("WIND_FUZZ_PACKETS"));
	if (wind_test_ipv6() || wind_test_encap() == WIND_ENCAP_UDP)
		return 5000;
	return 20000;
}

TEST(fuzz_receive_path)
{
	long npkts = fuzz_packets();
	long page = sysconf(_SC_PAGESIZE), in0, i, sent = 0;
	struct wind_region r = {};
	struct good g = {};
	struct fuzz f = {};
	unsigned char *map, buf[2000], pkt[MAXPKT];
	struct wind_forge forge;
	pthread_t th;
	int rx, got = 0;
	ssize_t n;
	size_t mlen = 20 * page;

	ASSERT_EQ(0, wind_topo_setup(2));
	rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(rx, 0);
	/* guard pages either side of a 16-page region */
	map = mmap(NULL, mlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	memset(map, 0xc3, mlen);
	r.addr = (unsigned long)(map + 2 * page);
	r.len = 16 * page;
	r.id = REGION_ID;
	r.key = KEY;
	ASSERT_EQ(0, setsockopt(rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));

	ASSERT_EQ(0, wind_forge_open(&forge, 0, 1));
	g.fd = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(g.fd, 0);
	wind_sa_set(&g.to, wind_node_addr(1), PORT);
	f.forge = &forge;
	f.tags[0] = 0x11111111;
	f.tags[1] = 0x22222222;
	f.tags[2] = rnd() | 1;
	f.seq = rnd();

	in0 = wind_stat(wind_ns(1), "InPackets");
	ASSERT_EQ(0, pthread_create(&th, NULL, send_good, &g));
	for (i = 0; i < npkts; i++) {
		size_t len = craft(&f, pkt);

		if (!wind_forge_send(&forge, pkt, len))
			sent++;
		/* good messages arrive in order; the fuzz may add stray ones */
		while ((n = recv(rx, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			long idx = wind_msg_check(buf, n);

			if (idx >= 0) {
				ASSERT_EQ(got, idx);
				got++;
			}
		}
	}
	while (got < GOOD) {
		ASSERT_GT(wind_poll(rx, POLLIN, 60000), 0);
		n = recv(rx, buf, sizeof(buf), 0);
		ASSERT_GT(n, 0);
		if (wind_msg_check(buf, n) >= 0) {
			ASSERT_EQ(got, wind_msg_check(buf, n));
			got++;
		}
	}
	pthread_join(th, NULL);
	EXPECT_EQ(0, g.err);
	EXPECT_EQ(GOOD, g.sent);
	wind_forge_close(&forge);
	close(g.fd);	/* flushes: every good message was acknowledged */

	/* every crafted packet is counted on arrival */
	EXPECT_GE(wind_stat(wind_ns(1), "InPackets") - in0, sent);
	/* outside the region nothing changed */
	for (i = 0; i < 2 * page; i++) {
		ASSERT_EQ(0xc3, map[i]);
		ASSERT_EQ(0xc3, map[mlen - 1 - i]);
	}
	TH_LOG("%ld crafted packets sent, %ld counted in total", sent,
	       wind_stat(wind_ns(1), "InPackets") - in0);
	close(rx);
	munmap(map, mlen);
	wind_topo_teardown();
}

/*
 * The same storm, then good traffic alone: every good message arrives
 * byte-exact and in order after the receiver has seen the fuzz.
 */
TEST(good_traffic_after_fuzz)
{
	long npkts = fuzz_packets() / 4;
	unsigned char buf[2000], pkt[MAXPKT];
	struct wind_forge forge;
	struct good g = {};
	struct fuzz f = {};
	long in0, sent = 0;
	pthread_t th;
	int rx, i;

	ASSERT_EQ(0, wind_topo_setup(2));
	rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(rx, 0);
	ASSERT_EQ(0, wind_forge_open(&forge, 0, 1));
	f.forge = &forge;
	f.tags[0] = 0x33333333;
	f.tags[1] = 0x44444444;
	f.tags[2] = 0x55555555;
	in0 = wind_stat(wind_ns(1), "InPackets");
	for (i = 0; i < npkts; i++) {
		size_t len = craft(&f, pkt);

		if (!wind_forge_send(&forge, pkt, len))
			sent++;
	}
	/* the receiver has seen every crafted packet (a slow kernel is
	 * still at it when sendto() returns); what it delivered goes
	 */
	EXPECT_GE(wind_stat_wait(wind_ns(1), "InPackets", in0 + sent, 60000), in0 + sent);
	/* until two calls in a row find nothing: a failed spoofed peer's
	 * error comes back once in place of a message, and packets queued
	 * on the socket's backlog are taken in as a call releases it
	 */
	for (i = 0; i < 2; ) {
		if (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) < 0 &&
		    errno == EAGAIN)
			i++;
		else
			i = 0;
	}
	g.fd = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(g.fd, 0);
	wind_sa_set(&g.to, wind_node_addr(1), PORT);
	ASSERT_EQ(0, pthread_create(&th, NULL, send_good, &g));
	for (i = 0; i < GOOD; i++) {
		socklen_t fl = sizeof(wind_sa);
		wind_sa from;
		ssize_t n;

		ASSERT_GT(wind_poll(rx, POLLIN, 60000), 0);
		n = recvfrom(rx, buf, sizeof(buf), 0, &from.sa, &fl);
		ASSERT_EQ(16 + (i * 37) % 984, n)
			TH_LOG("message %d: %zd bytes from port %u", i, n, wind_sa_port(&from));
		ASSERT_EQ(i, wind_msg_check(buf, n));
	}
	pthread_join(th, NULL);
	EXPECT_EQ(0, g.err);
	close(g.fd);
	wind_forge_close(&forge);
	close(rx);
	wind_topo_teardown();
}

TEST_HARNESS_MAIN
