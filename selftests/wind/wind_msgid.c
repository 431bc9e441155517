// SPDX-License-Identifier: GPL-2.0
/*
 * WIND_CMSG_MSGID: the error queue's report of a refused message names
 * that message (ee_data), so that a sender may keep many async messages
 * in flight to one peer and tell which of them were refused.
 *
 *   node0 (10.77.0.1, sender) ===veth=== node1 (10.77.0.2, a region)
 *
 * Refused and accepted Direct Map writes and ordinary messages, one and
 * several packets long, go out back to back; a sync message after them
 * returns once the receiver acknowledged them all, and by then every
 * refusal is on the error queue: the reports must name exactly the
 * refused messages, each once, with its error.  They are more than the
 * 16 refusals a receiver holds for one sender: the ones beyond wait for
 * their retransmission, and are reported all the same.
 *
 * A named message's sender waits for its acknowledgment (a one-sided
 * write's completion): its last packet asks for the ACK at once, as a
 * sync message's does, where an unnamed async message's waits for the
 * receiver's delayed ACK; a raw socket on the receiver sees the flags.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/errqueue.h>
#include <netinet/ip.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

#define PORT		7350
#define REGION_PAGES	96
#define REGION_ID	9
#define KEY		0x5eed5eed12345678ULL
#define NMSG		60

FIXTURE(msgid) {
	int tx, rx;
	wind_sa to;
	unsigned char *region;
	size_t region_len;
};

FIXTURE_SETUP(msgid)
{
	struct wind_region r = {};
	int one = 1;

	ASSERT_EQ(0, wind_topo_setup(2));
	self->tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(self->tx, 0);
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(self->rx, 0);
	wind_sa_set(&self->to, wind_node_addr(1), PORT);
	self->region_len = REGION_PAGES * sysconf(_SC_PAGESIZE);
	self->region = mmap(NULL, self->region_len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->region);
	memset(self->region, 0, self->region_len);
	r.addr = (unsigned long)self->region;
	r.len = self->region_len;
	r.id = REGION_ID;
	r.key = KEY;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r,
				sizeof(r)));
	ASSERT_EQ(0, setsockopt(self->tx, SOL_WIND, WIND_RECVERR, &one,
				sizeof(one)));
}

FIXTURE_TEARDOWN(msgid)
{
	close(self->tx);
	close(self->rx);
	munmap(self->region, self->region_len);
	wind_topo_teardown();
}

/*
 * One message with an optional WIND_CMSG_DSM (dsm non-NULL) and an
 * optional WIND_CMSG_MSGID of idlen bytes (idlen 0: none).
 */
static ssize_t send_id(int fd, const wind_sa *to, int flags,
		       const struct wind_dsm *dsm, __u32 id, size_t idlen,
		       const void *data, size_t len)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_dsm)) +
			 CMSG_SPACE(sizeof(__u64))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;
	__u64 id64 = id;
	size_t used = 0;

	memset(u.buf, 0, sizeof(u.buf));
	c = CMSG_FIRSTHDR(&msg);
	if (idlen) {
		c->cmsg_level = SOL_WIND;
		c->cmsg_type = WIND_CMSG_MSGID;
		c->cmsg_len = CMSG_LEN(idlen);
		memcpy(CMSG_DATA(c), idlen == 4 ? (void *)&id : (void *)&id64,
		       idlen);
		used += CMSG_SPACE(idlen);
		c = (struct cmsghdr *)(u.buf + used);
	}
	if (dsm) {
		c->cmsg_level = SOL_WIND;
		c->cmsg_type = WIND_CMSG_DSM;
		c->cmsg_len = CMSG_LEN(sizeof(*dsm));
		memcpy(CMSG_DATA(c), dsm, sizeof(*dsm));
		used += CMSG_SPACE(sizeof(*dsm));
	}
	msg.msg_controllen = used;
	if (!used)
		msg.msg_control = NULL;
	return sendmsg(fd, &msg, flags);
}

/* What message i is, and what the receiver must answer. */
struct plan {
	__u32 id;		/* 0: sent without WIND_CMSG_MSGID */
	int refused;		/* the errno of its refusal, or 0 */
	int dsm;		/* a Direct Map write (else an ordinary message) */
	size_t off, len;
	unsigned int seen;	/* reports naming it */
};

TEST_F(msgid, reports_name_exactly_the_refused_messages)
{
	static unsigned char data[NMSG][6000];
	struct plan p[NMSG];
	unsigned int nrefused = 0, nreports = 0, unnamed = 0, retried = 0;
	unsigned int nordinary = 0, got = 0;
	unsigned char buf[8192];
	int i;

	for (i = 0; i < NMSG; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		p[i].id = 1000 + 7 * i;
		/* several packets for a quarter of them */
		p[i].len = i % 4 == 3 ? 5000 : 64 + i;
		p[i].dsm = i % 5 != 4;
		p[i].off = (size_t)i * 6000;	/* disjoint */
		/* a wrong key, 8 times (past WIND_KEYFAIL_BURST, 16,
		 * failures the sender's address is refused with EBUSY:
		 * wind_dsm's key_guesses_are_limited_per_address), and
		 * past the region 13 times: 21 refusals, more than the
		 * 16 an ACK names
		 */
		if (p[i].dsm && i % 6 == 3)
			p[i].refused = EACCES;
		else if (p[i].dsm && (i % 3 == 0 || i % 7 == 1))
			p[i].refused = ERANGE;	/* past the region */
		if (i == 21) {
			p[i].id = 0;	/* refused, reported without an id */
			p[i].refused = EACCES;
			p[i].dsm = 1;
		}
		nrefused += !!p[i].refused;
		nordinary += !p[i].dsm;
		wind_fill(data[i], p[i].len, 77 + i);
	}
	ASSERT_LE((size_t)NMSG * 6000, self->region_len);

	for (i = 0; i < NMSG; i++) {
		struct wind_dsm d = {
			.mode = WIND_DSM_DIRECT_MAP, .region = REGION_ID,
			.offset = p[i].off, .key = KEY,
		};
		ssize_t n;

		if (p[i].refused == EACCES)
			d.key = KEY ^ 1;
		if (p[i].refused == ERANGE)
			d.offset = self->region_len - 8;
		do {
			n = send_id(self->tx, &self->to, 0,
				    p[i].dsm ? &d : NULL, p[i].id,
				    p[i].id ? 4 : 0, data[i], p[i].len);
			/* a refusal already reported fails one send (SO_ERROR),
			 * which queued nothing
			 */
		} while (n < 0 && (errno == EACCES || errno == ERANGE) &&
			 ++retried < 2 * NMSG);
		ASSERT_EQ((ssize_t)p[i].len, n);
	}
	/* returns once every message above was acknowledged */
	while (sendto(self->tx, "end", 3, MSG_WIND_SYNC,
		      &self->to.sa, sizeof(self->to)) < 0) {
		ASSERT_TRUE(errno == EACCES || errno == ERANGE);
		ASSERT_LT(++retried, 2 * NMSG);
	}

	for (;;) {
		char cbuf[256];
		struct msghdr msg = {
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct sock_extended_err ee;
		struct cmsghdr *c;

		if (recvmsg(self->tx, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			ASSERT_EQ(EAGAIN, errno);
			break;
		}
		c = CMSG_FIRSTHDR(&msg);
		ASSERT_NE(NULL, c);
		ASSERT_TRUE(wind_cmsg_is_recverr(c));
		memcpy(&ee, CMSG_DATA(c), sizeof(ee));
		ASSERT_EQ(SO_EE_ORIGIN_WIND, ee.ee_origin);
		ASSERT_EQ(1, ee.ee_info);
		nreports++;
		if (!ee.ee_data) {
			EXPECT_EQ(EACCES, ee.ee_errno);
			unnamed++;
			continue;
		}
		for (i = 0; i < NMSG; i++)
			if (p[i].id == ee.ee_data)
				break;
		ASSERT_LT(i, NMSG) {
			printf("# a report names %u, no message's id\n",
			       ee.ee_data);
		}
		EXPECT_EQ(p[i].refused, (int)ee.ee_errno) {
			printf("# message %d (id %u) reported with %d\n", i,
			       p[i].id, ee.ee_errno);
		}
		p[i].seen++;
	}
	ASSERT_GT(nrefused, 16);
	EXPECT_EQ(nrefused, nreports);
	EXPECT_EQ(1, unnamed);
	for (i = 0; i < NMSG; i++) {
		if (!p[i].id)
			continue;
		EXPECT_EQ(!!p[i].refused, p[i].seen) {
			printf("# message %d (id %u, refused %d) in %u reports\n",
			       i, p[i].id, p[i].refused, p[i].seen);
		}
	}
	/* the accepted writes are in place, the refused ones wrote nothing */
	for (i = 0; i < NMSG; i++) {
		if (!p[i].dsm)
			continue;
		if (p[i].refused) {
			static const unsigned char zero[6000];

			EXPECT_EQ(0, memcmp(self->region + p[i].off, zero,
					    p[i].len));
		} else {
			EXPECT_TRUE(wind_fill_ok(self->region + p[i].off,
						 p[i].len, 77 + i));
		}
	}
	/* the ordinary messages arrived, in order, then "end" */
	for (i = 0; i < NMSG; i++) {
		ssize_t n;

		if (p[i].dsm)
			continue;
		n = recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT);
		ASSERT_EQ((ssize_t)p[i].len, n);
		EXPECT_TRUE(wind_fill_ok(buf, n, 77 + i));
		got++;
	}
	EXPECT_EQ(nordinary, got);
	ASSERT_EQ(3, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(0, memcmp(buf, "end", 3));
}

TEST_F(msgid, a_malformed_id_is_einval_and_queues_nothing)
{
	char buf[16];

	EXPECT_EQ(-1, send_id(self->tx, &self->to, 0, NULL, 5, 8, "ab", 2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, send_id(self->tx, &self->to, 0, NULL, 5, 2, "ab", 2));
	EXPECT_EQ(EINVAL, errno);
	/* an id on an ordinary message changes nothing of its delivery */
	ASSERT_EQ(2, send_id(self->tx, &self->to, MSG_WIND_SYNC, NULL,
			     0xffffffffu, 4, "ok", 2));
	ASSERT_EQ(2, recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(0, memcmp(buf, "ok", 2));
	EXPECT_TRUE(recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT) < 0 &&
		    errno == EAGAIN);
}

TEST_F(msgid, a_sync_refusal_fails_its_send_not_the_queue)
{
	struct wind_dsm d = {
		.mode = WIND_DSM_DIRECT_MAP, .region = REGION_ID + 1,
		.key = KEY,
	};
	char cbuf[256];
	struct msghdr msg = {
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};

	EXPECT_EQ(-1, send_id(self->tx, &self->to, MSG_WIND_SYNC, &d, 42, 4,
			      "x", 1));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, recvmsg(self->tx, &msg, MSG_ERRQUEUE | MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

/* The first DATA packets to PORT a raw socket saw, by seq */
struct tap_log {
	unsigned int n;
	struct { __u32 seq; int flags; } pkt[64];
};

static void tap_read(int fd, struct tap_log *t)
{
	unsigned char pkt[70000];
	ssize_t len;

	while ((len = recv(fd, pkt, sizeof(pkt), MSG_DONTWAIT)) > 0) {
		const struct iphdr *ip = (const void *)pkt;
		const struct windhdr *wh;
		unsigned int i;

		if (len < (ssize_t)sizeof(*ip) ||
		    len < ip->ihl * 4 + (ssize_t)sizeof(*wh))
			continue;
		wh = (const void *)(pkt + ip->ihl * 4);
		if ((wh->version_type & 0xf) != WIND_PKT_DATA ||
		    ntohs(wh->dest) != PORT)
			continue;
		for (i = 0; i < t->n; i++)
			if (t->pkt[i].seq == ntohl(wh->seq))
				break;
		if (i == t->n && t->n < 64) {
			t->pkt[i].seq = ntohl(wh->seq);
			t->pkt[i].flags = wh->flags;
			t->n++;
		}
	}
}

/*
 * The flags of the last packet of seqs [@first, @first + @n) seen (a GSO
 * packet carries them all; ACKREQ is its last segment's), -1 if none
 * was; *@early gets the ACKREQ of any before it.
 */
static int tap_flags(const struct tap_log *t, __u32 first, __u32 n,
		     int *early)
{
	int last = -1, flags = -1;
	unsigned int i;

	*early = 0;
	for (i = 0; i < t->n; i++) {
		__u32 off = t->pkt[i].seq - first;

		if (off >= n)
			continue;
		if ((int)off > last) {
			if (flags >= 0)
				*early |= flags & WIND_F_ACKREQ;
			last = off;
			flags = t->pkt[i].flags;
		} else {
			*early |= t->pkt[i].flags & WIND_F_ACKREQ;
		}
	}
	return flags;
}

TEST_F(msgid, a_named_message_asks_for_its_ack_at_once)
{
	/* what goes, one at a time: bytes, id (0: none), send flags */
	static const struct { size_t len; __u32 id; int flags; } m[] = {
		{ 100, 0, 0 }, { 100, 7, 0 }, { 3000, 8, 0 },
		{ 100, 0, 0 }, { 100, 0, MSG_WIND_SYNC },
	};
	/* m[2] is three packets: only its last asks for the ACK */
	static const int npkts[] = { 1, 1, 3, 1, 1 }, want[] = { 0, 1, 1, 0, 1 };
	unsigned char buf[4096], data[3000];
	struct tap_log t = { 0 };
	unsigned int i;
	__u32 base;
	int raw;

	if (wind_test_encap() != WIND_ENCAP_RAW || wind_test_ipv6())
		SKIP(return, "the flags are set above the forms: raw IPv4");
	ASSERT_EQ(0, wind_netns_enter(wind_ns(1)));
	raw = socket(AF_INET, SOCK_RAW, IPPROTO_WIND);
	ASSERT_EQ(0, wind_netns_leave());
	ASSERT_GE(raw, 0);
	/* a first message: the seq of those after it */
	ASSERT_EQ(2, send_id(self->tx, &self->to, MSG_WIND_SYNC, NULL, 0, 0,
			     "go", 2));
	ASSERT_EQ(2, recv(self->rx, buf, sizeof(buf), 0));
	tap_read(raw, &t);
	ASSERT_EQ(1, t.n);
	base = t.pkt[0].seq + 1;
	wind_fill(data, sizeof(data), 5);
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		ASSERT_EQ((ssize_t)m[i].len,
			  send_id(self->tx, &self->to, m[i].flags, NULL,
				  m[i].id, m[i].id ? 4 : 0, data, m[i].len));
		ASSERT_EQ((ssize_t)m[i].len,
			  recv(self->rx, buf, sizeof(buf), 0));
		EXPECT_EQ(0, memcmp(buf, data, m[i].len));
	}
	tap_read(raw, &t);
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		int early, f = tap_flags(&t, base, npkts[i], &early);

		EXPECT_LE(0, f) TH_LOG("message %u (seq %u) not seen", i,
				      base);
		EXPECT_EQ(want[i], f & WIND_F_ACKREQ)
			TH_LOG("message %u (seq %u): last packet's flags %#x",
			       i, base, f);
		EXPECT_EQ(0, early)
			TH_LOG("message %u: a packet before its last asks", i);
		base += npkts[i];
	}
	close(raw);
}

TEST_HARNESS_MAIN
