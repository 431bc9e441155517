// SPDX-License-Identifier: GPL-2.0
/*
 * Crafted Wind packets from a forger in node 0 (lib.h, wind_forge: the
 * kernel builds the IP header) to a Wind socket bound in node 1, over the
 * veth pair of lib.c:
 *
 *   wind0: forger (raw IPPROTO_WIND  --- veth --->  wind1: Wind socket rx
 *          socket, or UDP socket)
 *          + a real Wind socket tx  ------------->
 *
 * In each form of the matrix: raw IPv4 (as itself), inside UDP over IPv4
 * (-udp), raw IPv6 (-ipv6) and inside UDP over IPv6 (-ipv6-udp).
 *
 * A valid crafted DATA packet is delivered byte-exact with the forger's
 * address and the crafted port, also behind IPv4 options or IPv6
 * extension headers (hop-by-hop, destination options), and when IP
 * fragmented it on the way (reassembly gives back the exact bytes).  Each
 * kind of malformed packet raises exactly its own InErr* counter of
 * /proc/net/wind_stat by the number sent, never reaches recvfrom(), and
 * does not disturb good traffic sent in between.  An ICMPv6 error behind
 * an extension header, arriving while the socket is owned, is taken for
 * what it is.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/icmp6.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/ip_icmp.h>
#include <netinet/udp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
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
	int tx, rx;
	struct wind_forge f;		/* node 0 -> node 1 */
	wind_sa rx_dst;			/* node 1:rx port */
	wind_sa tx_src;			/* node 0:tx port */
	uint16_t rx_port;
};

static bool udp_form(void)
{
	return wind_test_encap() == WIND_ENCAP_UDP;
}

/*
 * One topology for the whole program, built before the harness forks a
 * process per test and deleted when the program exits (its children
 * _exit()): one per test took some 10 s a test under TCG.  Each test
 * opens sockets of its own, and reads counters as differences.
 */
static int topo_err = -1;
static pid_t topo_pid;

static void __attribute__((constructor)) topo_up(void)
{
	topo_pid = getpid();
	topo_err = wind_topo_setup(2);
}

static void __attribute__((destructor)) topo_down(void)
{
	if (getpid() == topo_pid && !topo_err)
		wind_topo_teardown();
}

static int endpoints_setup(struct endpoints *e)
{
	struct sockaddr_in sa;

	e->tx = e->rx = e->f.fd = -1;
	if (topo_err)
		return -1;
	e->rx = wind_bound_socket(wind_ns(1), 0, &sa);
	if (e->rx < 0)
		return -1;
	e->rx_port = ntohs(sa.sin_port);
	wind_sa_set(&e->rx_dst, wind_node_addr(1), e->rx_port);
	e->tx = wind_bound_socket(wind_ns(0), 0, &sa);
	if (e->tx < 0)
		return -1;
	wind_sa_set(&e->tx_src, wind_node_addr(0), ntohs(sa.sin_port));
	return wind_forge_open(&e->f, 0, 1);
}

static void endpoints_teardown(struct endpoints *e)
{
	wind_forge_close(&e->f);
	if (e->tx >= 0)
		close(e->tx);
	if (e->rx >= 0)
		close(e->rx);
}

/* (Re)compute the checksum of a crafted packet, as the sender would */
static void set_check(const struct wind_forge *f, uint8_t *pkt, size_t len,
		      uint16_t pseudo_len)
{
	struct windhdr *wh = (struct windhdr *)pkt;

	wh->check = 0;
	wh->check = wind_forge_csum(f, pseudo_len, pkt, len);
}

/* One fragment of a message: a DATA packet; returns its length */
struct frag {
	uint16_t sport, dport;
	uint32_t tag, seq, oldest;
	uint16_t frag, nfrags;
	uint32_t msg_len;
	uint8_t flags;
};

static size_t build_frag(const struct wind_forge *f, uint8_t *pkt,
			 const struct frag *d, const void *payload,
			 size_t plen)
{
	struct windhdr *wh = (struct windhdr *)pkt;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	size_t len = HDRS_LEN + plen;

	memset(pkt, 0, HDRS_LEN);
	wh->source = htons(d->sport);
	wh->dest = htons(d->dport);
	wh->len = htons(len);
	wh->version_type = WIND_VERSION << 4 | WIND_PKT_DATA;
	wh->flags = d->flags ? d->flags : WIND_F_ORDERED;
	wh->window = htons(64);
	wh->src_tag = htonl(d->tag);
	wh->dst_tag = 0;
	wh->seq = htonl(d->seq);
	wh->ack = 0;
	wh->oldest = htonl(d->oldest);
	dh->frag = htons(d->frag);
	dh->nfrags = htons(d->nfrags);
	dh->msg_len = htonl(d->msg_len);
	memcpy(pkt + HDRS_LEN, payload, plen);
	set_check(f, pkt, len, len);
	return len;
}

/* A valid single-fragment DATA packet; returns its length */
static size_t build_data(const struct wind_forge *f, uint8_t *pkt,
			 uint16_t sport, uint16_t dport, uint32_t tag,
			 uint32_t seq, const void *payload, size_t plen)
{
	struct frag d = {
		.sport = sport, .dport = dport, .tag = tag, .seq = seq,
		.oldest = seq, .nfrags = 1, .msg_len = plen,
	};

	return build_frag(f, pkt, &d, payload, plen);
}

static int send_raw(struct endpoints *e, const void *pkt, size_t len)
{
	return wind_forge_send(&e->f, pkt, len);
}

/*
 * The next message on fd: plen bytes equal to payload, from node 0 port
 * sport.  0, or -1 after saying what came.
 */
static int expect_msg(int fd, const void *payload, size_t plen,
		      uint16_t sport)
{
	static uint8_t in[1 << 16];
	socklen_t alen = sizeof(wind_sa);
	wind_sa from, want;
	ssize_t r = -1;

	wind_sa_set(&want, wind_node_addr(0), sport);
	memset(&from, 0, sizeof(from));
	if (wind_poll(fd, POLLIN, WAIT_MS) > 0)
		r = recvfrom(fd, in, sizeof(in), MSG_DONTWAIT, &from.sa, &alen);
	if (r == (ssize_t)plen && !memcmp(in, payload, plen) &&
	    wind_sa_same(&from, &want))
		return 0;
	printf("# expected %zu B from port %u, got %zd B (%s%s) from family %d port %u\n",
	       plen, sport, r, r < 0 ? strerror(errno) : "",
	       r == (ssize_t)plen && memcmp(in, payload, plen) ?
	       "other bytes" : "", from.sa.sa_family, wind_sa_port(&from));
	fflush(stdout);
	return -1;
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
	uint8_t pkt[2048], payload[WIND_MAX_SINGLE_RAW];
	uint32_t tag = 0x5eed0001;
	long before;
	size_t len;
	int i;

	before = wind_stat(wind_ns(1), "InMessages");
	for (i = 0; i < 3; i++) {
		size_t plen = i == 2 ? wind_max_single() : 200 + (size_t)i;

		wind_fill(payload, plen, 77 + i);
		len = build_data(&self->e.f, pkt, CRAFT_SPORT, self->e.rx_port,
				 tag, 1000 + i, payload, plen);
		ASSERT_EQ(0, send_raw(&self->e, pkt, len))
			TH_LOG("forged send: %s", strerror(errno));
		ASSERT_EQ(0, expect_msg(self->e.rx, payload, plen,
					CRAFT_SPORT));
	}
	EXPECT_TRUE(wind_rx_empty(self->e.rx));
	if (before >= 0)
		EXPECT_EQ(before + 3, wind_stat(wind_ns(1), "InMessages"));
}

/*
 * The quoted packet of an ICMP or ICMPv6 error as @r bytes of @in from a
 * raw ICMP socket (IPv4: the IP header first) hold: the error's type and
 * code, the quoted IP header's protocol (after IPv6's extension headers)
 * and where the quoted Wind header starts.  NULL if it is no error from
 * node 1.
 */
static const uint8_t *quoted_wind(const uint8_t *in, ssize_t r,
				  const wind_sa *from, int *type, int *code,
				  int *proto)
{
	const uint8_t *q, *end = in + r;

	if (from->sa.sa_family == AF_INET6) {
		struct in6_addr b;
		const struct ip6_hdr *qip = (const void *)(in + 8);
		uint8_t nh;

		wind_node_addr6(1, &b);
		if (r < 8 + 40 + 8 ||
		    memcmp(&from->sin6.sin6_addr, &b, sizeof(b)))
			return NULL;
		*type = in[0];
		*code = in[1];
		nh = qip->ip6_nxt;
		q = (const uint8_t *)(qip + 1);
		/* hop-by-hop, routing, destination options */
		while ((nh == 0 || nh == 43 || nh == 60) && q + 8 <= end) {
			nh = q[0];
			q += (q[1] + 1) * 8;
		}
		*proto = nh;
	} else {
		const struct iphdr *ip = (const void *)in, *qip;

		if (r < 20 + 8 + 20 + 8 || ip->saddr != wind_node_addr(1))
			return NULL;
		*type = in[ip->ihl * 4];
		*code = in[ip->ihl * 4 + 1];
		qip = (const void *)(in + ip->ihl * 4 + 8);
		*proto = qip->protocol;
		q = (const uint8_t *)qip + qip->ihl * 4;
	}
	if (*proto == IPPROTO_UDP)
		q += sizeof(struct udphdr);
	return q + 4 <= end ? q : NULL;
}

/*
 * A valid packet to a port with no socket: InErrNoPort, and an ICMP (or
 * ICMPv6) port unreachable quoting the packet goes back, as UDP does,
 * with the packet in the form it came in.
 */
TEST_F(crafted, no_port_icmp)
{
	bool v6 = wind_test_ipv6();
	uint8_t pkt[256], payload[32], in[1500];
	int icmp, got = 0, type, code, proto;
	long before, after;
	long long deadline;
	size_t len;

	ASSERT_EQ(0, wind_netns_enter(wind_ns(0)));
	icmp = socket(v6 ? AF_INET6 : AF_INET, SOCK_RAW,
		      v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP);
	wind_netns_leave();
	ASSERT_LE(0, icmp);
	before = wind_stat(wind_ns(1), "InErrNoPort");
	ASSERT_LE(0, before) TH_LOG("no InErrNoPort counter");

	wind_fill(payload, sizeof(payload), 5);
	len = build_data(&self->e.f, pkt, CRAFT_SPORT, NOPORT, 0x5eed0002, 1,
			 payload, sizeof(payload));
	ASSERT_EQ(0, send_raw(&self->e, pkt, len));
	after = wind_stat_wait(wind_ns(1), "InErrNoPort", before + 1, WAIT_MS);
	EXPECT_EQ(before + 1, after);

	deadline = wind_now_ms() + WAIT_MS;
	while (!got && wind_now_ms() < deadline) {
		socklen_t alen = sizeof(wind_sa);
		const uint8_t *q;
		wind_sa from;
		ssize_t r;

		if (wind_poll(icmp, POLLIN, (int)(deadline - wind_now_ms()))
		    <= 0)
			break;
		r = recvfrom(icmp, in, sizeof(in), MSG_DONTWAIT, &from.sa,
			     &alen);
		if (r < 0)
			continue;
		if (!v6)
			from.sa.sa_family = AF_INET;
		q = quoted_wind(in, r, &from, &type, &code, &proto);
		if (!q || type != (v6 ? ICMP6_DST_UNREACH : ICMP_DEST_UNREACH))
			continue;
		EXPECT_EQ(v6 ? ICMP6_DST_UNREACH_NOPORT : ICMP_PORT_UNREACH,
			  code);
		EXPECT_EQ(udp_form() ? IPPROTO_UDP : IPPROTO_WIND, proto);
		/* the quoted ports name the sender's socket */
		EXPECT_EQ(0, memcmp(q, pkt, 4));
		got = 1;
	}
	EXPECT_TRUE(got) TH_LOG("no ICMP destination unreachable came back");
	EXPECT_TRUE(wind_rx_empty(self->e.rx));
	close(icmp);
}

/* An IPv6 extension header of 8 bytes: one PadN option of 4 bytes */
static const uint8_t ext_padn[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };

/*
 * IP headers longer than the fixed one before the Wind header: IPv4
 * options (three NOPs), or IPv6 extension headers, a hop-by-hop options
 * header, a destination options header, and both.  A valid packet
 * arrives exact and from where it came, also when it is fragmented
 * behind them; a malformed one is counted as without them; and a packet
 * that came inside UDP is answered inside UDP by a socket that sends raw
 * by default (a raw answer would be dropped and counted by the matrix's
 * rule on its way out; an answer inside UDP reaches node 0's Wind).
 */
TEST_F(crafted, ip_options_and_extension_headers)
{
	static uint8_t pkt[8192], payload[4000];
	static const uint8_t nops[4] = { 1, 1, 1, 0 };
	bool v6 = wind_test_ipv6();
	long hdr0 = wind_stat(wind_ns(1), "InErrHeader");
	long in0 = wind_stat(wind_ns(0), "InPackets");
	long dropped0 = wind_raw_dropped(1);
	int fd = self->e.f.fd, pass, npass = v6 ? 3 : 1, raw = 0;
	uint16_t sport;
	size_t len;

	ASSERT_EQ(0, setsockopt(self->e.rx, SOL_WIND, WIND_ENCAP, &raw,
				sizeof(raw)));

	for (pass = 0; pass < npass; pass++) {
		struct windhdr *wh = (struct windhdr *)pkt;
		int off = IPV6_PMTUDISC_DONT;

		if (!v6) {
			ASSERT_EQ(0, setsockopt(fd, IPPROTO_IP, IP_OPTIONS,
						nops, sizeof(nops)));
			off = IP_PMTUDISC_DONT;
			ASSERT_EQ(0, setsockopt(fd, IPPROTO_IP,
						IP_MTU_DISCOVER, &off,
						sizeof(off)));
		} else {
			ASSERT_EQ(0, setsockopt(fd, IPPROTO_IPV6,
						IPV6_HOPOPTS, ext_padn,
						pass == 1 ? 0 : 8));
			ASSERT_EQ(0, setsockopt(fd, IPPROTO_IPV6,
						IPV6_DSTOPTS, ext_padn,
						pass == 0 ? 0 : 8));
			ASSERT_EQ(0, setsockopt(fd, IPPROTO_IPV6,
						IPV6_MTU_DISCOVER, &off,
						sizeof(off)));
		}
		sport = CRAFT_SPORT + 10 + pass;

		/* one packet, then a larger one that IP fragments */
		wind_fill(payload, 300, 300 + pass);
		len = build_data(&self->e.f, pkt, sport, self->e.rx_port,
				 0x5eed0100 + pass, 10, payload, 300);
		wh->flags |= WIND_F_ACKREQ;
		set_check(&self->e.f, pkt, len, len);
		ASSERT_EQ(0, send_raw(&self->e, pkt, len))
			TH_LOG("send: %s", strerror(errno));
		ASSERT_EQ(0, expect_msg(self->e.rx, payload, 300, sport))
			TH_LOG("pass %d", pass);

		wind_fill(payload, sizeof(payload), 400 + pass);
		len = build_data(&self->e.f, pkt, sport, self->e.rx_port,
				 0x5eed0100 + pass, 11, payload,
				 sizeof(payload));
		ASSERT_EQ(0, send_raw(&self->e, pkt, len))
			TH_LOG("send: %s", strerror(errno));
		ASSERT_EQ(0, expect_msg(self->e.rx, payload, sizeof(payload),
					sport))
			TH_LOG("pass %d, fragmented", pass);

		/* version 2 behind them is still version 2 */
		len = build_data(&self->e.f, pkt, sport, self->e.rx_port,
				 0x5eed0100 + pass, 12, payload, 64);
		wh->version_type = 2 << 4 | WIND_PKT_DATA;
		set_check(&self->e.f, pkt, len, len);
		ASSERT_EQ(0, send_raw(&self->e, pkt, len));
	}
	EXPECT_EQ(hdr0 + npass, wind_stat_wait(wind_ns(1), "InErrHeader",
					       hdr0 + npass, WAIT_MS));
	EXPECT_TRUE(wind_rx_empty(self->e.rx));
	/* the acknowledgments the packets asked for */
	if (udp_form())
		EXPECT_LE(in0 + npass, wind_stat_wait(wind_ns(0), "InPackets",
						      in0 + npass, WAIT_MS));
	EXPECT_EQ(dropped0, wind_raw_dropped(1));
}

/*
 * Wind packets longer than the path, which IP fragments on the way (Wind
 * itself sends them so only when the path MTU dropped under a packet in
 * flight): IP reassembles each into a frag_list, and delivery must
 * neither lose that chain nor corrupt the message.  A one-packet message
 * of 3000 B, a two-packet message whose first packet is 4000 B, the same
 * with its packets in the other order, and a malformed packet behind
 * fragments, counted as any other.  Over IPv6, the forger's path MTU is
 * the minimum, 1280, so that a packet goes in three to four fragments.
 */
TEST_F(crafted, ip_fragmented)
{
	static uint8_t pkt[8192], payload[8192];
	struct frag d = {
		.sport = CRAFT_SPORT + 20, .dport = self->e.rx_port,
		.tag = 0x0f0f0001, .seq = 5000, .oldest = 5000, .nfrags = 1,
		.flags = WIND_F_ORDERED | WIND_F_SYN,
	};
	long len0 = wind_stat(wind_ns(1), "InErrLength");
	int fd = self->e.f.fd, mtu = 1280, off;
	size_t len;

	if (wind_test_ipv6()) {
		off = IPV6_PMTUDISC_DONT;
		ASSERT_EQ(0, setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER,
					&off, sizeof(off)));
		ASSERT_EQ(0, setsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu,
					sizeof(mtu)));
	} else {
		off = IP_PMTUDISC_DONT;
		ASSERT_EQ(0, setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER,
					&off, sizeof(off)));
	}

	/* one packet of 3000 B */
	d.msg_len = 3000;
	wind_fill(payload, 3000, 1);
	len = build_frag(&self->e.f, pkt, &d, payload, 3000);
	ASSERT_EQ(0, send_raw(&self->e, pkt, len))
		TH_LOG("send: %s", strerror(errno));
	ASSERT_EQ(0, expect_msg(self->e.rx, payload, 3000, d.sport));

	/* packet 0 (4000 B) and packet 1 (700 B) of one message */
	d.flags = WIND_F_ORDERED;
	d.seq = 5001;
	d.nfrags = 2;
	d.msg_len = 4700;
	wind_fill(payload, 4700, 2);
	len = build_frag(&self->e.f, pkt, &d, payload, 4000);
	ASSERT_EQ(0, send_raw(&self->e, pkt, len));
	d.seq = 5002;
	d.frag = 1;
	len = build_frag(&self->e.f, pkt, &d, payload + 4000, 700);
	ASSERT_EQ(0, send_raw(&self->e, pkt, len));
	ASSERT_EQ(0, expect_msg(self->e.rx, payload, 4700, d.sport));

	/* the two again in the other order: packet 1 waits for packet 0 */
	d.seq = 5004;
	d.frag = 1;
	wind_fill(payload, 4700, 3);
	len = build_frag(&self->e.f, pkt, &d, payload + 4000, 700);
	ASSERT_EQ(0, send_raw(&self->e, pkt, len));
	d.seq = 5003;
	d.frag = 0;
	len = build_frag(&self->e.f, pkt, &d, payload, 4000);
	ASSERT_EQ(0, send_raw(&self->e, pkt, len));
	ASSERT_EQ(0, expect_msg(self->e.rx, payload, 4700, d.sport));

	/* a length field past the end, in fragments */
	d.seq = 5005;
	d.nfrags = 1;
	d.msg_len = 3000;
	len = build_frag(&self->e.f, pkt, &d, payload, 3000);
	((struct windhdr *)pkt)->len = htons(len + 8);
	set_check(&self->e.f, pkt, len, len + 8);
	ASSERT_EQ(0, send_raw(&self->e, pkt, len));
	EXPECT_EQ(len0 + 1, wind_stat_wait(wind_ns(1), "InErrLength",
					   len0 + 1, WAIT_MS));
	EXPECT_TRUE(wind_rx_empty(self->e.rx));
}

/* The socket's lock, taken and released in a loop (setsockopt()) */
struct locker {
	int fd;
	atomic_int stop;
};

static void *lock_loop(void *arg)
{
	struct locker *l = arg;
	int v = 1 << 20;

	while (!atomic_load(&l->stop))
		setsockopt(l->fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	return NULL;
}

static long snmp6(const char *ns, const char *name)
{
	static char buf[16384];
	char *p;

	if (wind_read_file_in(ns, "/proc/net/snmp6", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, name);
	return p ? strtol(p + strlen(name), NULL, 10) : -1;
}

static long snmp6_wait(const char *ns, const char *name, long target)
{
	long long deadline = wind_now_ms() + WAIT_MS;
	long v;

	while ((v = snmp6(ns, name)) < target && wind_now_ms() < deadline)
		usleep(20000);
	return v;
}

/*
 * ICMPv6 errors behind a hop-by-hop header, quoting a packet from the
 * receiver's socket, while that socket is owned by a thread (the error
 * waits on the backlog).  The receiver tells them from Wind packets by
 * the protocol after the extension headers, not by the fixed header's
 * next header.  Each quotes an IPv6 header and Wind header built so that,
 * read as a Wind packet from its ICMPv6 header on, it would be a valid
 * one-fragment DATA message (of the quoted Wind header and what follows
 * it): none may be delivered.
 */
#define N_ICMP		3000
#define ICMP_MSG	24
TEST_F(crafted, icmpv6_error_behind_extension_header)
{
	uint8_t err[8 + 40 + HDRS_LEN + ICMP_MSG] = { 0 }, good[300];
	struct locker l = { .fd = self->e.rx };
	long in0, pkt0 = wind_stat(wind_ns(1), "InPackets");
	struct sockaddr_in6 to = { .sin6_family = AF_INET6 };
	struct ip6_hdr *qip = (struct ip6_hdr *)(err + 8);
	struct windhdr *qwh = (struct windhdr *)(qip + 1);
	pthread_t th;
	int icmp, i;

	if (!wind_test_ipv6())
		SKIP(return, "IPv6 runs only");
	ASSERT_EQ(0, wind_netns_enter(wind_ns(0)));
	icmp = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	wind_netns_leave();
	ASSERT_LE(0, icmp);
	ASSERT_EQ(0, setsockopt(icmp, IPPROTO_IPV6, IPV6_HOPOPTS, ext_padn,
				sizeof(ext_padn)));
	wind_node_addr6(1, &to.sin6_addr);

	err[0] = ICMP6_DST_UNREACH;
	err[1] = ICMP6_DST_UNREACH_NOPORT;
	/* version 6, traffic class 0x10: "version_type" DATA */
	qip->ip6_flow = htonl(6 << 28 | 0x10 << 20);
	qip->ip6_plen = htons(HDRS_LEN + ICMP_MSG);
	qip->ip6_nxt = IPPROTO_WIND;
	qip->ip6_hlim = 64;
	/* source ::s:0:s (dst_tag 0, seq, ack 0, oldest) from the socket's
	 * port; destination: frag 0, nfrags 1, msg_len ICMP_MSG
	 */
	qip->ip6_dst.s6_addr[3] = 1;
	qip->ip6_dst.s6_addr[7] = HDRS_LEN + ICMP_MSG;
	qwh->source = htons(self->e.rx_port);
	qwh->dest = htons(CRAFT_SPORT);
	wind_fill((uint8_t *)qwh + HDRS_LEN, ICMP_MSG, 9);

	in0 = snmp6(wind_ns(1), "Icmp6InDestUnreachs");
	ASSERT_EQ(0, pthread_create(&th, NULL, lock_loop, &l));
	for (i = 0; i < N_ICMP; i++) {
		uint32_t s = htonl(7000 + i);

		memcpy(&qip->ip6_src.s6_addr[4], &s, 4);
		memcpy(&qip->ip6_src.s6_addr[12], &s, 4);
		ASSERT_EQ((ssize_t)sizeof(err),
			  sendto(icmp, err, sizeof(err), 0,
				 (struct sockaddr *)&to, sizeof(to)));
	}
	EXPECT_LE(in0 + N_ICMP, snmp6_wait(wind_ns(1), "Icmp6InDestUnreachs",
					   in0 + N_ICMP));
	atomic_store(&l.stop, 1);
	pthread_join(th, NULL);
	close(icmp);

	/* a real message after them is the next one */
	wind_fill(good, sizeof(good), 11);
	ASSERT_EQ((ssize_t)sizeof(good),
		  sendto(self->e.tx, good, sizeof(good), MSG_WIND_SYNC,
			 &self->e.rx_dst.sa, sizeof(self->e.rx_dst)));
	EXPECT_EQ(0, expect_msg(self->e.rx, good, sizeof(good),
				wind_sa_port(&self->e.tx_src)));
	EXPECT_TRUE(wind_rx_empty(self->e.rx));
	TH_LOG("Wind packets counted meanwhile: %ld",
	       wind_stat(wind_ns(1), "InPackets") - pkt0);
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
static size_t build_bad(const struct wind_forge *f, uint8_t *pkt,
			enum bad_kind kind, int i, uint16_t rx_port)
{
	uint8_t payload[PAYLOAD_LEN];
	struct windhdr *wh = (struct windhdr *)pkt;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	uint16_t dport = kind == BAD_NO_PORT ? NOPORT : rx_port;
	size_t len;

	memset(payload, 0xbd, sizeof(payload));	/* never to be received */
	len = build_data(f, pkt, CRAFT_SPORT + 1 + i, dport, 0xbad00001 + i,
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
		set_check(f, pkt, len, len + 10);
		return len;
	case BAD_LEN_BELOW_HDR:
		wh->len = htons(20);
		set_check(f, pkt, len, 20);
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
	set_check(f, pkt, len, len);
	return len;
}

static void read_counters(const char *ns, long *v)
{
	unsigned int i;

	for (i = 0; i < N_COUNTERS; i++)
		v[i] = wind_stat(ns, err_counters[i]);
}

/*
 * Inside UDP, a UDP checksum covers the packet and Wind's own is not
 * checked again (udp.c): a wrong one goes in a datagram without a UDP
 * checksum.  IPv4 allows that, and Wind checks its own; IPv6 does not,
 * and UDP drops the datagram before Wind sees it (Udp6InCsumErrors).
 */
static const char *no_udp_checksum(int fd)
{
	int one = 1;

	if (wind_test_ipv6()) {
		if (setsockopt(fd, IPPROTO_UDP, UDP_NO_CHECK6_TX, &one,
			       sizeof(one)))
			return NULL;
		return "Udp6InCsumErrors";
	}
	if (setsockopt(fd, SOL_SOCKET, SO_NO_CHECK, &one, sizeof(one)))
		return NULL;
	return "InErrChecksum";
}

TEST_F(malformed, counted_and_dropped)
{
	long before[N_COUNTERS], after[N_COUNTERS], v, udp0 = 0;
	uint8_t pkt[2048], good[2][700], in[2048];
	const char *ns1 = wind_ns(1), *counter = variant->counter;
	socklen_t alen;
	unsigned int c;
	wind_sa from;
	int i, g = 0;
	ssize_t r;

	if (udp_form() && variant->kind == BAD_CHECKSUM) {
		counter = no_udp_checksum(self->e.f.fd);
		ASSERT_NE(NULL, counter) TH_LOG("%s", strerror(errno));
		if (wind_test_ipv6())
			udp0 = snmp6(ns1, counter);
	}
	read_counters(ns1, before);
	for (c = 0; c < N_COUNTERS; c++) {
		if (before[c] < 0)
			TH_LOG("counter %s missing", err_counters[c]);
		ASSERT_LE(0, before[c]);
	}

	for (i = 0; i < N_BAD; i++) {
		size_t len = build_bad(&self->e.f, pkt, variant->kind, i,
				       self->e.rx_port);

		ASSERT_EQ(0, send_raw(&self->e, pkt, len))
			TH_LOG("forged send %zu bytes: %s", len,
			       strerror(errno));
		/* good traffic in the middle and at the end */
		if (i == N_BAD / 2 - 1 || i == N_BAD - 1) {
			wind_fill(good[g], sizeof(good[g]), 900 + g);
			ASSERT_EQ((ssize_t)sizeof(good[g]),
				  sendto(self->e.tx, good[g], sizeof(good[g]),
					 0, &self->e.rx_dst.sa,
					 sizeof(self->e.rx_dst)));
			g++;
		}
	}

	for (c = 0; c < N_COUNTERS && strcmp(err_counters[c], counter); c++)
		;
	if (c < N_COUNTERS) {
		v = wind_stat_wait(ns1, counter, before[c] + N_BAD, WAIT_MS);
		EXPECT_EQ(before[c] + N_BAD, v);
	} else {
		v = snmp6_wait(ns1, counter, udp0 + N_BAD);
		EXPECT_EQ(udp0 + N_BAD, v) TH_LOG("%s", counter);
	}

	for (g = 0; g < 2; g++) {
		alen = sizeof(from);
		r = -1;
		if (wind_poll(self->e.rx, POLLIN, WAIT_MS) > 0)
			r = recvfrom(self->e.rx, in, sizeof(in), MSG_DONTWAIT,
				     &from.sa, &alen);
		ASSERT_EQ((ssize_t)sizeof(good[g]), r)
			TH_LOG("good message %d: got %zd (%s)%s", g, r,
			       r < 0 ? strerror(errno) : "",
			       r == PAYLOAD_LEN ? ": a malformed one?" : "");
		EXPECT_EQ(0, memcmp(good[g], in, sizeof(good[g])));
		EXPECT_TRUE(wind_sa_same(&self->e.tx_src, &from));
	}
	EXPECT_TRUE(wind_rx_empty(self->e.rx))
		TH_LOG("something malformed reached the socket");

	/* exactly N_BAD on this kind's counter, none on the others */
	read_counters(ns1, after);
	for (c = 0; c < N_COUNTERS; c++) {
		long want = before[c];

		if (!strcmp(err_counters[c], counter))
			want += N_BAD;
		EXPECT_EQ(want, after[c])
			TH_LOG("%s: %ld -> %ld", err_counters[c], before[c],
			       after[c]);
	}
}

TEST_HARNESS_MAIN
