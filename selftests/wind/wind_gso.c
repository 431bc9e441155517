// SPDX-License-Identifier: GPL-2.0
/*
 * Generic segmentation offload: a run of packets of one message leaves as
 * one "super-packet" when the route's device passes such skbs whole
 * (veth), is split by the receiver when it arrives whole, and is cut into
 * ordinary packets by the stack wherever it cannot pass (a forwarding hop
 * with gso_max_segs 1, netem corrupting it).
 *
 * gso.* (native_veth, gso_off, lossy_native, corrupt, dsm_direct_map_over_gso):
 *
 *   node0 (10.77.0.1, sender) ===veth=== node1 (10.77.0.2, receiver)
 *   lossy_native: tc netem loss/duplicate/reorder on both eth0;
 *   corrupt: tc netem corrupt on node0's eth0; gso_off: node0's eth0 has
 *   gso_max_segs 1.
 *
 * routed.segmented_by_router_sw_checksum:
 *
 *   wgA-PID                    wgR-PID (ip_forward=1)                 wgB-PID
 *   eth0 10.78.1.1 <--veth--> a0 10.78.1.2    b0 10.78.2.2 <--veth--> eth0 10.78.2.1
 *   default via 10.78.1.2                    gso_max_segs 1,          default via 10.78.2.2
 *                                            tx checksumming off
 *
 * A raw socket in B checks every packet it gets, as on the wire: an
 * ordinary Wind packet with its own length, checksum and fragment fields.
 *
 * As wind_gso-ipv6 (the IPv6 matrix, lib.h), the same over IPv6: node i
 * is fd77::(i+1), A fd78:1::1, R fd78:1::2 and fd78:2::2, B fd78:2::1; B's
 * raw socket is an AF_INET6 one (it gets no IPv6 header: the addresses
 * its checksums cover are A's and B's).
 *
 * As wind_gso-udp (the UDP matrix, lib.h), every node sends inside UDP:
 * the super-packets are UDP tunnel GSO skbs, unwrapped by the receiver's
 * UDP socket or cut by the UDP tunnel's segmentation around Wind's; B's
 * raw socket then checks the UDP header and checksum around each packet,
 * and a corruption is caught by UDP's checksum (Udp InCsumErrors).
 *
 * Messages carry their index and a checksum (wind_msg_make; a 1-byte
 * message carries a small id of its own).  The receiver checks that every
 * message arrives exactly once, byte-exact, with its length, and that no
 * ordered message (async-ordered or sync) arrives before any message sent
 * earlier, whatever its type.  The counters of /proc/net/wind_stat are
 * per namespace and read as differences.  Nothing here depends on timing:
 * the waits are only bounds against a hang.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

#define PORT		7800
#define BUF_BYTES	(8 << 20)	/* SO_SNDBUF and SO_RCVBUF */
#define WAIT_MS		60000		/* no message at all: a hang */
#define MAX_BAD		10		/* then give up, not to flood the log */
#define MIB		(1 << 20)

/* Sizes in a plan that depend on the form (raw or inside UDP): one
 * packet exactly, and one byte more
 */
#define ONE_PKT		((size_t)-1)
#define ONE_PKT_PLUS	((size_t)-2)

/* The three message types, in turn */
static const int types[] = { 0, MSG_WIND_RELIABLE, MSG_WIND_SYNC };

/*
 * What one run sends: message i has flags types[i % 3] and length
 * sizes[(i / 3) % nsizes], so every size goes with every type; with
 * rare > 1 the last (largest) size is only sent in every rare-th round of
 * 3 * nsizes messages, the others taking the first size instead.  A
 * 1-byte message cannot hold wind_msg_make's header: it carries a small
 * id of its own, unique among the run's 1-byte messages.
 */
struct plan {
	unsigned int n;
	size_t *len;
	int *flags;
	unsigned char *tiny;		/* id of 1-byte message i */
	int tiny_msg[256];		/* message of each id */
	unsigned int ntiny;
	size_t max_len;
};

static int plan_init(struct plan *p, unsigned int n, const size_t *sizes,
		     unsigned int nsizes, unsigned int rare)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->n = n;
	p->len = calloc(n, sizeof(*p->len));
	p->flags = calloc(n, sizeof(*p->flags));
	p->tiny = calloc(n, 1);
	if (!p->len || !p->flags || !p->tiny)
		return -1;
	for (i = 0; i < n; i++) {
		p->flags[i] = types[i % 3];
		p->len[i] = sizes[(i / 3) % nsizes];
		if (rare > 1 && (i / 3) % nsizes == nsizes - 1 &&
		    (i / (3 * nsizes)) % rare)
			p->len[i] = sizes[0];
		if (p->len[i] == ONE_PKT)
			p->len[i] = WIND_MAX_SINGLE;
		else if (p->len[i] == ONE_PKT_PLUS)
			p->len[i] = WIND_MAX_SINGLE + 1;
		if (p->len[i] > p->max_len)
			p->max_len = p->len[i];
		if (p->len[i] >= WIND_MSG_MIN)
			continue;
		if (p->len[i] != 1 || p->ntiny == 256)
			return -1;
		p->tiny[i] = p->ntiny;
		p->tiny_msg[p->ntiny++] = i;
	}
	return 0;
}

static void plan_free(struct plan *p)
{
	free(p->len);
	free(p->flags);
	free(p->tiny);
}

static void msg_make(const struct plan *p, unsigned int i, char *buf)
{
	if (p->len[i] == 1)
		buf[0] = p->tiny[i];
	else
		wind_msg_make(buf, p->len[i], i);
}

/* Index of the message in buf, or -1 if it is not one of the plan's */
static long msg_index(const struct plan *p, const char *buf, size_t n)
{
	long idx;

	if (n == 1) {
		if ((unsigned char)buf[0] >= p->ntiny)
			return -1;
		return p->tiny_msg[(unsigned char)buf[0]];
	}
	idx = wind_msg_check(buf, n);
	if (idx < 0 || (unsigned long)idx >= p->n || p->len[idx] != n)
		return -1;
	return idx;
}

struct sender {
	int fd;
	wind_sa to;
	const struct plan *p;
	unsigned int sent;
	int err;
};

static void *send_plan(void *arg)
{
	struct sender *s = arg;
	char *buf = malloc(s->p->max_len);
	unsigned int i;

	if (!buf) {
		s->err = ENOMEM;
		return NULL;
	}
	pthread_cleanup_push(free, buf);
	for (i = 0; i < s->p->n; i++) {
		msg_make(s->p, i, buf);
		if (sendto(s->fd, buf, s->p->len[i], s->p->flags[i],
			   &s->to.sa, sizeof(s->to)) !=
		    (ssize_t)s->p->len[i]) {
			s->err = errno;
			break;
		}
		s->sent++;
	}
	pthread_cleanup_pop(1);
	return NULL;
}

/*
 * Receive every message of the plan on fd: exactly once, byte-exact, and
 * an ordered message only once every earlier one is in.  Returns the
 * number of violations.
 */
static int receive_plan(struct __test_metadata *_metadata, int fd,
			const struct plan *p)
{
	unsigned char *seen = calloc(p->n, 1);
	char *buf = malloc(p->max_len + 1);
	unsigned int got = 0, next = 0, bad = 0;

	if (!seen || !buf) {
		free(seen);
		free(buf);
		return 1;
	}
	while (got < p->n && bad < MAX_BAD) {
		long idx;
		ssize_t n;

		if (wind_poll(fd, POLLIN, WAIT_MS) <= 0) {
			TH_LOG("no message for %d s, with %u of %u in (next missing: %u)",
			       WAIT_MS / 1000, got, p->n, next);
			bad++;
			break;
		}
		n = recv(fd, buf, p->max_len + 1, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN)
				continue;
			TH_LOG("recv: %s", strerror(errno));
			bad++;
			break;
		}
		idx = msg_index(p, buf, n);
		if (idx < 0) {
			TH_LOG("damaged or unknown message of %zd bytes", n);
			bad++;
			continue;
		}
		if (seen[idx]++) {
			TH_LOG("message %ld (%zu bytes) delivered twice",
			       idx, p->len[idx]);
			bad++;
			continue;
		}
		got++;
		/* every message before an ordered one is already in */
		if (!(p->flags[idx] & MSG_WIND_RELIABLE) && next < (unsigned long)idx) {
			TH_LOG("ordered message %ld (flags %#x) before message %u",
			       idx, p->flags[idx], next);
			bad++;
		}
		while (next < p->n && seen[next])
			next++;
	}
	/* and nothing more */
	if (!bad && (recv(fd, buf, p->max_len + 1, MSG_DONTWAIT) >= 0 ||
		     errno != EAGAIN)) {
		TH_LOG("a message beyond the %u sent", p->n);
		bad++;
	}
	free(seen);
	free(buf);
	return bad;
}

static int set_bufs(int fd)
{
	int v = BUF_BYTES;

	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)))
		return -1;
	return 0;
}

/* Send the plan from tx to `to` in a thread and check it all arrives on rx */
static void run_plan(struct __test_metadata *_metadata, int tx,
		     const wind_sa *to, int rx, const struct plan *p)
{
	struct sender s = { .fd = tx, .to = *to, .p = p };
	long long t0 = wind_now_ms();
	unsigned long long bytes = 0;
	unsigned int i;
	pthread_t th;
	int bad;

	ASSERT_EQ(0, pthread_create(&th, NULL, send_plan, &s));
	bad = receive_plan(_metadata, rx, p);
	if (bad)	/* it may wait for an ACK that never comes */
		pthread_cancel(th);
	pthread_join(th, NULL);
	for (i = 0; i < p->n; i++)
		bytes += p->len[i];
	/* for the log only: nothing depends on it */
	printf("# %u messages, %llu bytes, in %lld ms\n", p->n, bytes,
	       wind_now_ms() - t0);
	EXPECT_EQ(0, s.err) TH_LOG("send %u of %u: %s", s.sent, p->n,
				   strerror(s.err));
	EXPECT_EQ(0, bad);
	if (!bad)
		EXPECT_EQ(p->n, s.sent);
}

/* Counters of one namespace, read before and after */
static const char *const counters[] = {
	"OutPackets", "OutGsoPackets", "OutRetransmits", "InPackets",
	"InGsoPackets", "InErrChecksum", "InErrLength", "InErrHeader",
	"InErrShort", "InDuplicates",
};
#define NCOUNTERS	ARRAY_SIZE(counters)

/* their indexes */
enum {
	OUT_PKTS, OUT_GSO, OUT_RTX, IN_PKTS, IN_GSO, IN_ERR_CSUM, IN_ERR_LEN,
	IN_ERR_HDR, IN_ERR_SHORT, IN_DUPS,
};

struct snap {
	long v[NCOUNTERS];
};

static void snap_take(const char *ns, struct snap *s)
{
	unsigned int i;

	for (i = 0; i < NCOUNTERS; i++)
		s->v[i] = wind_stat(ns, counters[i]);
}

/* after - before of counter c; -1 if the counter does not exist */
static long snap_diff(const struct snap *before, const struct snap *after,
		      int c)
{
	if (before->v[c] < 0 || after->v[c] < 0)
		return -1;
	return after->v[c] - before->v[c];
}

static void snap_log(const char *who, const struct snap *b,
		     const struct snap *a)
{
	char line[512];
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < NCOUNTERS && n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, " %s %+ld",
			      counters[i], snap_diff(b, a, i));
	printf("# %s:%s\n", who, line);
	fflush(stdout);
}

/* ---- two nodes on a veth pair --------------------------------------- */

FIXTURE(gso) {
	int tx, rx;
	wind_sa to;
};

FIXTURE_SETUP(gso)
{
	ASSERT_EQ(0, wind_topo_setup(2));
	self->tx = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(self->tx, 0);
	self->rx = wind_bound_socket(wind_ns(1), PORT, NULL);
	ASSERT_GE(self->rx, 0);
	ASSERT_EQ(0, set_bufs(self->tx));
	ASSERT_EQ(0, set_bufs(self->rx));
	wind_sa_set(&self->to, wind_node_addr(1), PORT);
}

FIXTURE_TEARDOWN(gso)
{
	if (self->tx > 0)
		close(self->tx);
	if (self->rx > 0)
		close(self->rx);
	wind_topo_teardown();
}

/* Counter changes over one run of a plan, at the sender and the receiver */
struct deltas {
	long tx[NCOUNTERS], rx[NCOUNTERS];
};

/* Run plan @p (then free it) from node 0 to node 1 between two readings
 * of both nodes' counters; log them.
 */
static void run_counted(struct __test_metadata *_metadata,
			FIXTURE_DATA(gso) *self, struct plan *p,
			struct deltas *d)
{
	struct snap tx0, tx1, rx0, rx1;
	unsigned int c;

	snap_take(wind_ns(0), &tx0);
	snap_take(wind_ns(1), &rx0);
	run_plan(_metadata, self->tx, &self->to, self->rx, p);
	snap_take(wind_ns(0), &tx1);
	snap_take(wind_ns(1), &rx1);
	snap_log("sender", &tx0, &tx1);
	snap_log("receiver", &rx0, &rx1);
	for (c = 0; c < NCOUNTERS; c++) {
		d->tx[c] = snap_diff(&tx0, &tx1, c);
		d->rx[c] = snap_diff(&rx0, &rx1, c);
	}
	plan_free(p);
}

/*
 * One packet exactly, one byte more, and runs of many packets: a few
 * packets, one super-packet and a bit, several super-packets.
 */
static const size_t mixed_sizes[] = {
	1, ONE_PKT, ONE_PKT_PLUS, 8192, 65536, 100000, MIB,
};

TEST_F(gso, native_veth)
{
	struct deltas d;
	struct plan p;

	ASSERT_EQ(0, plan_init(&p, 168, mixed_sizes, 7, 4));
	run_counted(_metadata, self, &p, &d);
	/* the device passes super-packets whole: they were sent and split */
	EXPECT_GT(d.tx[OUT_GSO], 0);
	EXPECT_GT(d.rx[IN_GSO], 0);
	EXPECT_EQ(0, d.rx[IN_ERR_CSUM]);
	EXPECT_EQ(0, d.rx[IN_ERR_LEN]);
	EXPECT_EQ(0, d.rx[IN_ERR_HDR]);
}

/*
 * Over IPv6 (wind_gso-ipv6) only what differs by IP version runs: GSO
 * skbs whole over a veth, cut by a router with software checksums that
 * B's raw socket checks, and refused by a router with a smaller MTU
 * (ICMPv6 "packet too big").  The rest is the same code as over IPv4.
 */
#define IPV4_ONLY() do {						\
		if (wind_test_ipv6())					\
			SKIP(return, "the same over IPv6 as over IPv4");\
	} while (0)

TEST_F(gso, gso_off)
{
	struct deltas d;
	struct plan p;

	IPV4_ONLY();
	ASSERT_EQ(0, wind_run("ip -n %s link set dev eth0 gso_max_segs 1",
			      wind_ns(0)));
	ASSERT_EQ(0, plan_init(&p, 120, mixed_sizes, 6, 1));	/* up to 100000 B */
	run_counted(_metadata, self, &p, &d);
	/* the counter exists, and no super-packet left or arrived */
	EXPECT_EQ(0, d.tx[OUT_GSO]);
	EXPECT_EQ(0, d.rx[IN_GSO]);
}

static const size_t lossy_sizes[] = {
	65536, 8192, 1, 65536, ONE_PKT_PLUS, 8192, 100000,
};

TEST_F(gso, lossy_native)
{
	struct deltas d;
	struct plan p;
	int i;

	IPV4_ONLY();
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem delay 1ms reorder 25%% loss 5%% duplicate 5%%",
				      wind_ns(i)));
	ASSERT_EQ(0, plan_init(&p, 147, lossy_sizes, 7, 1));
	run_counted(_metadata, self, &p, &d);
	/* the loss hit super-packets too */
	EXPECT_GT(d.tx[OUT_GSO], 0);
	EXPECT_GT(d.tx[OUT_RTX], 0);
}

/* Udp InCsumErrors of namespace ns (/proc/net/snmp), or -1 */
static long udp_csum_errors(const char *ns)
{
	char cmd[256], line[64];
	long v = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "ip netns exec %s awk '$1 == \"Udp:\" { if (!n) { for (i = 2; i <= NF; i++) if ($i == \"InCsumErrors\") c = i; n = 1 } else print $c }' /proc/net/snmp",
		 ns);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		v = strtol(line, NULL, 10);
	pclose(f);
	return v;
}

static const size_t corrupt_sizes[] = { 65536, 8192, ONE_PKT_PLUS };

/*
 * netem flips a bit in an skb's linear head only, and a Wind packet's
 * payload is in page fragments: the head is the Ethernet, IP and Wind
 * headers (and UDP's inside UDP).  A flip in the Wind header (about half
 * of the head's bytes) is Wind's to count, a flip in the IP header IP's,
 * one in the destination MAC address makes the packet another host's.
 * At 5 % of the skbs Wind counted 3 to 9 a run, so now and then none
 * (likely what failed one CI run on 6.1, whose log kept no detail);
 * at 15 % 82 to 106 (what is resent goes a packet an skb: more skbs,
 * more flips).
 */
#define CORRUPT_NETEM	"netem corrupt 15%%"

TEST_F(gso, corrupt)
{
	struct deltas d;
	struct plan p;

	long udp_err0 = udp_csum_errors(wind_ns(1));

	IPV4_ONLY();
	/* netem segments a GSO skb it corrupts, through Wind's callback
	 * (inside UDP, through the UDP tunnel's, which calls Wind's)
	 */
	ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root " CORRUPT_NETEM,
			      wind_ns(0)));
	ASSERT_LE(0, udp_err0);
	ASSERT_EQ(0, plan_init(&p, 180, corrupt_sizes, 3, 1));
	run_counted(_metadata, self, &p, &d);
	/*
	 * Some super-packets did not arrive whole: netem cut the ones it
	 * corrupted (15% of some 200: none at all has a chance of 1e-14) ...
	 */
	EXPECT_GT(d.tx[OUT_GSO], 0);
	EXPECT_LT(d.rx[IN_GSO], d.tx[OUT_GSO]);
	/* ... and the damage Wind could see was seen and counted, never
	 * delivered (inside UDP, by UDP's checksum first; run_plan() checked
	 * every byte delivered)
	 */
	if (wind_test_encap() == WIND_ENCAP_UDP) {
		EXPECT_GT(udp_csum_errors(wind_ns(1)) - udp_err0, 0);
	} else {
		EXPECT_GT(d.rx[IN_ERR_CSUM] + d.rx[IN_ERR_LEN] +
			  d.rx[IN_ERR_HDR] + d.rx[IN_ERR_SHORT], 0);
	}
}

/* sendmsg of data with a WIND_CMSG_DSM (as in wind_dsm.c) */
static ssize_t dsm_send(int fd, const wind_sa *to, int flags,
			__u32 mode, __u32 region, __u64 offset, __u64 key,
			const void *data, size_t data_len)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_dsm))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)data, .iov_len = data_len };
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;
	struct wind_dsm d = {
		.mode = mode, .region = region, .offset = offset, .key = key,
	};

	memset(u.buf, 0, sizeof(u.buf));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_WIND;
	c->cmsg_type = WIND_CMSG_DSM;
	c->cmsg_len = CMSG_LEN(sizeof(d));
	memcpy(CMSG_DATA(c), &d, sizeof(d));
	return sendmsg(fd, &msg, flags);
}

#define HELD_BYTES	65536

/*
 * A receiver takes an in-order super-packet whole, as one entry of its
 * receive queue; a message held for its last packet still counts every
 * packet it holds (wpi_rcv_queued), delivers nothing early, and arrives
 * exact once the last one does.  The receiver's nftables drops every
 * packet or super-packet that ends with the message's short last packet
 * (its IP length: headers, some full packets' payloads and the short
 * one's), so the last packet is lost for as long as the rule stands,
 * whatever runs the sender makes; retransmissions of the others pass.
 */
TEST_F(gso, message_held_for_its_last_packet)
{
	unsigned char *msg = malloc(HELD_BYTES), *got = malloc(HELD_BYTES);
	unsigned int hdr = 20 + 40 + (wind_test_encap() == WIND_ENCAP_UDP ? 8 : 0);
	struct wind_peer_info ti, ri;
	struct sockaddr_in me, from;
	socklen_t alen = sizeof(me);
	unsigned int mss, npkts, last, k;
	char set[4096];
	size_t off;
	long long end;
	ssize_t n;

	IPV4_ONLY();
	ASSERT_NE(NULL, msg);
	ASSERT_NE(NULL, got);
	/* a first message makes both ends know each other */
	wind_msg_make(msg, WIND_MSG_MIN, 1);
	ASSERT_EQ(WIND_MSG_MIN, sendto(self->tx, msg, WIND_MSG_MIN, MSG_WIND_SYNC,
				       &self->to.sa, sizeof(self->to.sin)));
	ASSERT_EQ(WIND_MSG_MIN, wind_recv_wait(self->rx, got, HELD_BYTES, &from,
					       WAIT_MS));
	ASSERT_EQ(0, getsockname(self->tx, (struct sockaddr *)&me, &alen));
	ASSERT_EQ(0, wind_node_peer_info(self->tx, 1, PORT, &ti));
	mss = ti.wpi_mss;
	npkts = (HELD_BYTES + mss - 1) / mss;
	last = HELD_BYTES - (npkts - 1) * mss;
	ASSERT_LT(last, mss);	/* the last packet's length is its own */
	off = 0;
	for (k = 0; k < npkts && hdr + last + k * mss <= 65535; k++)
		off += snprintf(set + off, sizeof(set) - off, "%s%u",
				k ? ", " : "", hdr + last + k * mss);
	ASSERT_EQ(0, wind_run("ip netns exec %s nft 'add table ip wgso_held; "
			      "add chain ip wgso_held in { type filter hook input priority 0; }; "
			      "add rule ip wgso_held in ip length { %s } counter drop'",
			      wind_ns(1), set));

	wind_msg_make(msg, HELD_BYTES, 2);
	ASSERT_EQ(HELD_BYTES, sendto(self->tx, msg, HELD_BYTES, 0,
				     &self->to.sa, sizeof(self->to.sin)));
	end = wind_now_ms() + WAIT_MS;
	do {
		usleep(10000);
		ASSERT_EQ(0, wind_node_peer_info(self->rx, 0, ntohs(me.sin_port), &ri));
	} while (ri.wpi_rcv_queued < npkts - 1 && wind_now_ms() < end);
	TH_LOG("held %u of %u packets (mss %u, last %u B), %llu packets in",
	       ri.wpi_rcv_queued, npkts, mss, last,
	       (unsigned long long)ri.wpi_rx_packets);
	/* every packet but the last, counted one by one, and no message */
	EXPECT_EQ(npkts - 1, ri.wpi_rcv_queued);
	EXPECT_EQ(1, ri.wpi_rx_messages);
	EXPECT_TRUE(wind_rx_empty(self->rx));

	ASSERT_EQ(0, wind_run("ip netns exec %s nft delete table ip wgso_held",
			      wind_ns(1)));
	n = wind_recv_wait(self->rx, got, HELD_BYTES, &from, WAIT_MS);
	ASSERT_EQ(HELD_BYTES, n);
	EXPECT_EQ(0, memcmp(msg, got, HELD_BYTES));
	EXPECT_EQ(2, wind_msg_check(got, n));
	ASSERT_EQ(0, wind_node_peer_info(self->rx, 0, ntohs(me.sin_port), &ri));
	EXPECT_EQ(0, ri.wpi_rcv_queued);
	EXPECT_EQ(2, ri.wpi_rx_messages);
	free(msg);
	free(got);
}

#define REGION_BYTES	(128 << 10)
#define REGION_ID	78
#define REGION_KEY	0x7e57ab1e5eed0001ULL
#define DM_OFFSET	4096
#define DM_BYTES	65536

TEST_F(gso, dsm_direct_map_over_gso)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t map_len = REGION_BYTES + 2 * page;	/* a guard page each side */
	unsigned char *map, *region, *expect, *data;
	struct wind_region r = {};
	struct snap tx0, tx1, rx0, rx1;
	long w0, w1;
	size_t i;

	IPV4_ONLY();
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	region = map + page;
	expect = malloc(map_len);
	data = malloc(DM_BYTES);
	ASSERT_NE(NULL, expect);
	ASSERT_NE(NULL, data);
	for (i = 0; i < map_len; i++)
		map[i] = (unsigned char)(0xa5 ^ (i * 7));
	memcpy(expect, map, map_len);
	r.addr = (unsigned long)region;
	r.len = REGION_BYTES;
	r.id = REGION_ID;
	r.key = REGION_KEY;
	ASSERT_EQ(0, setsockopt(self->rx, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)));

	wind_fill(data, DM_BYTES, 78);
	memcpy(expect + page + DM_OFFSET, data, DM_BYTES);
	w0 = wind_stat(wind_ns(1), "InDsmWrites");
	snap_take(wind_ns(0), &tx0);
	snap_take(wind_ns(1), &rx0);
	/* a sync send returns once the receiving kernel wrote the region */
	ASSERT_EQ(DM_BYTES, dsm_send(self->tx, &self->to, MSG_WIND_SYNC,
				     WIND_DSM_DIRECT_MAP, REGION_ID, DM_OFFSET,
				     REGION_KEY, data, DM_BYTES))
		TH_LOG("sendmsg: %s", strerror(errno));
	snap_take(wind_ns(0), &tx1);
	snap_take(wind_ns(1), &rx1);
	w1 = wind_stat(wind_ns(1), "InDsmWrites");
	snap_log("sender", &tx0, &tx1);
	snap_log("receiver", &rx0, &rx1);

	for (i = 0; i < map_len; i++) {
		if (map[i] != expect[i]) {
			TH_LOG("byte %zd of the region is %02x, expected %02x (%s)",
			       (ssize_t)i - (ssize_t)page, map[i], expect[i],
			       i >= page + DM_OFFSET && i < page + DM_OFFSET + DM_BYTES ?
			       "written" : "untouched");
			break;
		}
	}
	EXPECT_EQ(map_len, i);
	EXPECT_EQ(w0 + 1, w1);
	/* it went as super-packets, and the receiver split them itself */
	EXPECT_GT(snap_diff(&tx0, &tx1, OUT_GSO), 0);
	EXPECT_GT(snap_diff(&rx0, &rx1, IN_GSO), 0);
	/* Direct Map queues nothing to the socket */
	EXPECT_EQ(-1, recv(self->rx, data, 1, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	munmap(map, map_len);
	free(expect);
	free(data);
}

/* ---- A - R - B, R forwarding ---------------------------------------- */

enum { NS_A, NS_R, NS_B, NS_COUNT };

static char routed_ns[NS_COUNT][32];

static void routed_delete(void)
{
	char cmd[128];
	int i;

	for (i = 0; i < NS_COUNT; i++) {
		if (!routed_ns[i][0])
			continue;
		snprintf(cmd, sizeof(cmd), "ip netns del %s >/dev/null 2>&1",
			 routed_ns[i]);
		(void)!system(cmd);
	}
}

static void topo3_teardown(void)
{
	routed_delete();
	wind_reaper_stop();
	memset(routed_ns, 0, sizeof(routed_ns));
}

/*
 * One `ip -b` batch per namespace: every process costs a lot under TCG.
 * MTU 1500 everywhere, permanent neighbour entries (no ARP in the way).
 */
static int topo3_setup(void)
{
	const char *a, *r, *b;
	long long deadline;
	int i;

	for (i = 0; i < NS_COUNT; i++)
		snprintf(routed_ns[i], sizeof(routed_ns[i]), "wg%c-%d",
			 "ARB"[i], getpid());
	a = routed_ns[NS_A];
	r = routed_ns[NS_R];
	b = routed_ns[NS_B];
	if (wind_reaper_start(routed_delete)) {
		memset(routed_ns, 0, sizeof(routed_ns));
		return -1;
	}
	for (i = 0; i < NS_COUNT; i++)
		RUN_OR_FAIL("ip netns add %s", routed_ns[i]);
	RUN_OR_FAIL("printf '%%s\\n' 'link set lo up'"
		    " 'link add eth0 address 02:78:01:00:00:01 mtu %d type veth peer name a0 address 02:78:01:00:00:02 mtu %d netns %s'"
		    " 'addr add 10.78.1.1/24 dev eth0' 'link set eth0 up'"
		    " 'route add default via 10.78.1.2 dev eth0'"
		    " 'neigh replace 10.78.1.2 lladdr 02:78:01:00:00:02 dev eth0 nud permanent'"
		    " | ip -n %s -b -", WIND_MTU, WIND_MTU, r, a);
	RUN_OR_FAIL("printf '%%s\\n' 'link set lo up'"
		    " 'link add eth0 address 02:78:02:00:00:01 mtu %d type veth peer name b0 address 02:78:02:00:00:02 mtu %d netns %s'"
		    " 'addr add 10.78.2.1/24 dev eth0' 'link set eth0 up'"
		    " 'route add default via 10.78.2.2 dev eth0'"
		    " 'neigh replace 10.78.2.2 lladdr 02:78:02:00:00:02 dev eth0 nud permanent'"
		    " | ip -n %s -b -", WIND_MTU, WIND_MTU, r, b);
	/* R cuts what it forwards to B (gso_max_segs 1) */
	RUN_OR_FAIL("printf '%%s\\n' 'link set lo up'"
		    " 'addr add 10.78.1.2/24 dev a0' 'addr add 10.78.2.2/24 dev b0'"
		    " 'link set dev b0 gso_max_segs 1' 'link set a0 up' 'link set b0 up'"
		    " 'neigh replace 10.78.1.1 lladdr 02:78:01:00:00:01 dev a0 nud permanent'"
		    " 'neigh replace 10.78.2.1 lladdr 02:78:02:00:00:01 dev b0 nud permanent'"
		    " | ip -n %s -b -", r);
	if (wind_ns_encap(a) || wind_ns_encap(b))
		goto fail;
	if (wind_test_ipv6()) {
		RUN_OR_FAIL("printf '%%s\\n' 'addr add fd78:1::1/64 dev eth0 nodad'"
			    " 'route add default via fd78:1::2 dev eth0'"
			    " 'neigh replace fd78:1::2 lladdr 02:78:01:00:00:02 dev eth0 nud permanent'"
			    " | ip -n %s -b -", a);
		RUN_OR_FAIL("printf '%%s\\n' 'addr add fd78:2::1/64 dev eth0 nodad'"
			    " 'route add default via fd78:2::2 dev eth0'"
			    " 'neigh replace fd78:2::2 lladdr 02:78:02:00:00:02 dev eth0 nud permanent'"
			    " | ip -n %s -b -", b);
		RUN_OR_FAIL("printf '%%s\\n' 'addr add fd78:1::2/64 dev a0 nodad'"
			    " 'addr add fd78:2::2/64 dev b0 nodad'"
			    " 'neigh replace fd78:1::1 lladdr 02:78:01:00:00:01 dev a0 nud permanent'"
			    " 'neigh replace fd78:2::1 lladdr 02:78:02:00:00:01 dev b0 nud permanent'"
			    " | ip -n %s -b -", r);
		if (wind_write_file_in(r, "/proc/sys/net/ipv6/conf/all/forwarding",
				       "1")) {
			printf("# IPv6 forwarding in %s failed\n", r);
			goto fail;
		}
	}
	/* ... and with no checksum offload: the segments carry software sums */
	RUN_OR_FAIL("ip netns exec %s ethtool -K b0 tx off >/dev/null", r);
	RUN_OR_FAIL("ip netns exec %s ethtool -k b0 | grep -q '^tx-checksumming: off'", r);
	if (wind_write_file_in(r, "/proc/sys/net/ipv4/ip_forward", "1")) {
		printf("# ip_forward=1 in %s failed\n", r);
		goto fail;
	}
	deadline = wind_now_ms() + 10000;
	if (wind_link_wait(a, "eth0", deadline) ||
	    wind_link_wait(r, "a0", deadline) ||
	    wind_link_wait(r, "b0", deadline) ||
	    wind_link_wait(b, "eth0", deadline))
		goto fail;
	return 0;
fail:
	topo3_teardown();
	return -1;
}

FIXTURE(routed) {
	int sa, sb;			/* bound to PORT in A and in B */
	wind_sa to_a, to_b;
};

/* A's (net 1) or B's (net 2) address: 10.78.net.1, or fd78:net::1 */
static void routed_sa(wind_sa *sa, int net)
{
	wind_sa_set(sa, htonl(0x0a4e0001 | net << 8), PORT);
	if (wind_test_ipv6()) {
		memset(&sa->sin6.sin6_addr, 0, sizeof(sa->sin6.sin6_addr));
		sa->sin6.sin6_addr.s6_addr[0] = 0xfd;
		sa->sin6.sin6_addr.s6_addr[1] = 0x78;
		sa->sin6.sin6_addr.s6_addr[3] = net;
		sa->sin6.sin6_addr.s6_addr[15] = 1;
	}
}

FIXTURE_SETUP(routed)
{
	self->sa = self->sb = -1;
	ASSERT_EQ(0, topo3_setup());
	self->sa = wind_bound_socket(routed_ns[NS_A], PORT, NULL);
	ASSERT_GE(self->sa, 0);
	self->sb = wind_bound_socket(routed_ns[NS_B], PORT, NULL);
	ASSERT_GE(self->sb, 0);
	ASSERT_EQ(0, set_bufs(self->sa));
	ASSERT_EQ(0, set_bufs(self->sb));
	routed_sa(&self->to_a, 1);
	routed_sa(&self->to_b, 2);
}

FIXTURE_TEARDOWN(routed)
{
	if (self->sa >= 0)
		close(self->sa);
	if (self->sb >= 0)
		close(self->sb);
	topo3_teardown();
}

/*
 * What B's wire shows: a raw socket in B sees a copy of every Wind packet
 * that arrives there.  Each data packet must be an ordinary one, as if it
 * had never been part of a super-packet: its length field matches the IP
 * payload, its checksum over the pseudo-header and the whole packet is
 * right (R computed it in software), its fragment fields fit the message
 * (every packet of one message names the same message start seq - frag,
 * fragment count and length; a fragment but the last carries exactly
 * WIND_MAX_SINGLE bytes), and every sighting of one seq (a retransmission)
 * names the same fragment.
 */
#define TAP_SLOTS	65536		/* > the packets of one run */
#define TAP_LOG		5		/* bad packets logged */

struct tap_slot {
	uint32_t key;
	uint32_t a, b;
	bool used;
};

struct tap {
	int fd;
	bool v6;			/* an AF_INET6 socket: no IP header */
	wind_sa dst;			/* then: B's address */
	volatile int stop;
	unsigned long data, other, bad;
	struct tap_slot *by_seq;	/* seq -> frag */
	struct tap_slot *by_start;	/* seq - frag -> nfrags, msg_len */
};

/* The slot of key, or a free one for it; NULL when full */
static struct tap_slot *tap_slot(struct tap_slot *t, uint32_t key)
{
	uint32_t i, h = key * 2654435761u;

	for (i = 0; i < TAP_SLOTS; i++) {
		struct tap_slot *sl = &t[(h + i) % TAP_SLOTS];

		if (!sl->used || sl->key == key)
			return sl;
	}
	return NULL;
}

/* Record (a, b) for key; false if key was seen before with others */
static bool tap_same(struct tap_slot *t, uint32_t key, uint32_t a, uint32_t b)
{
	struct tap_slot *sl = tap_slot(t, key);

	if (!sl)
		return true;		/* full: nothing more to compare */
	if (!sl->used) {
		*sl = (struct tap_slot){ .key = key, .a = a, .b = b, .used = true };
		return true;
	}
	return sl->a == a && sl->b == b;
}

/* Wind's default net.wind.udp_port */
#define WIND_UDP_PORT	9253

static const char *tap_check_l4(struct tap *t, unsigned char *pkt, size_t n,
				size_t ihl, const wind_sa *src,
				const wind_sa *dst);

/* An IPv4 packet (IP header and all) */
static const char *tap_check(struct tap *t, unsigned char *pkt, size_t n)
{
	const struct iphdr_min {
		uint8_t vihl, tos;
		uint16_t tot_len;
		uint8_t pad[8];
		in_addr_t saddr, daddr;
	} *iph = (const void *)pkt;
	wind_sa src, dst;
	size_t ihl;

	ihl = n < sizeof(*iph) ? 0 : (iph->vihl & 0xf) * 4;
	if (ihl < sizeof(*iph) || n < ihl || ntohs(iph->tot_len) != n)
		return "IP header";
	wind_sin(&src.sin, iph->saddr, 0);
	wind_sin(&dst.sin, iph->daddr, 0);
	return tap_check_l4(t, pkt, n, ihl, &src, &dst);
}

/* Checksum of pkt[0..len) over the pseudo-header of src -> dst */
static uint16_t tap_csum(const wind_sa *src, const wind_sa *dst, uint8_t proto,
			 const void *pkt, size_t len)
{
	if (src->sa.sa_family == AF_INET6)
		return wind_l4_csum6(&src->sin6.sin6_addr, &dst->sin6.sin6_addr,
				     proto, len, pkt, len);
	return wind_l4_csum(src->sin.sin_addr.s_addr, dst->sin.sin_addr.s_addr,
			    proto, len, pkt, len);
}

/* What follows the IP header, at pkt + ihl, from src to dst */
static const char *tap_check_l4(struct tap *t, unsigned char *pkt, size_t n,
				size_t ihl, const wind_sa *src,
				const wind_sa *dst)
{
	struct windhdr *wh;
	struct wind_datahdr *dh;
	size_t len, payload;
	uint16_t check, want;
	uint32_t seq, msg_len;
	uint16_t frag, nfrags;

	/* inside UDP: a sound UDP datagram to Wind's port around it */
	if (wind_test_encap() == WIND_ENCAP_UDP) {
		const uint16_t *uh = (const void *)(pkt + ihl);

		if (n < ihl + 8 || uh[1] != htons(WIND_UDP_PORT)) {
			t->other++;
			return NULL;
		}
		if (ntohs(uh[2]) != n - ihl)
			return "UDP length";
		if (uh[3] && tap_csum(src, dst, IPPROTO_UDP, uh, n - ihl) !=
			     0xffff)
			return "UDP checksum";
		ihl += 8;
	}
	wh = (struct windhdr *)(pkt + ihl);
	len = n - ihl;
	if (len < sizeof(*wh) || ntohs(wh->len) != len)
		return "length field";
	check = wh->check;
	wh->check = 0;
	want = tap_csum(src, dst, IPPROTO_WIND, wh, len);
	wh->check = check;
	if (check != want)
		return "checksum";
	if ((wh->version_type >> 4) != WIND_VERSION)
		return "version";
	if ((wh->version_type & 0xf) != WIND_PKT_DATA) {
		t->other++;
		return NULL;
	}
	t->data++;
	if (len < sizeof(*wh) + sizeof(*dh))
		return "short data packet";
	dh = (struct wind_datahdr *)(wh + 1);
	seq = ntohl(wh->seq);
	frag = ntohs(dh->frag);
	nfrags = ntohs(dh->nfrags);
	msg_len = ntohl(dh->msg_len);
	payload = len - sizeof(*wh) - sizeof(*dh);
	if (frag >= nfrags)
		return "fragment number";
	if (wh->flags & WIND_F_DSM)
		return NULL;		/* not sent here: no rule for its sizes */
	if (payload != (frag + 1 < nfrags ? WIND_MAX_SINGLE :
			msg_len - (size_t)(nfrags - 1) * WIND_MAX_SINGLE))
		return "payload length";
	if (!tap_same(t->by_seq, seq, frag, 0))
		return "one seq, two fragments";
	if (!tap_same(t->by_start, seq - frag, nfrags, msg_len))
		return "one message, two shapes";
	return NULL;
}

static void *tap_main(void *arg)
{
	struct tap *t = arg;
	static unsigned char pkt[65536];

	while (!t->stop) {
		const char *why;
		wind_sa src;
		ssize_t n;

		if (wind_poll(t->fd, POLLIN, 100) <= 0)
			continue;
		if (t->v6) {
			socklen_t alen = sizeof(src);

			n = recvfrom(t->fd, pkt, sizeof(pkt), MSG_DONTWAIT,
				     &src.sa, &alen);
			if (n < 0)
				continue;
			why = tap_check_l4(t, pkt, n, 0, &src, &t->dst);
		} else {
			n = recv(t->fd, pkt, sizeof(pkt), MSG_DONTWAIT);
			if (n < 0)
				continue;
			why = tap_check(t, pkt, n);
		}
		if (why && t->bad++ < TAP_LOG) {
			const struct windhdr *wh = (const void *)(pkt + (t->v6 ? 0 : (pkt[0] & 0xf) * 4));
			const struct wind_datahdr *dh = (const void *)(wh + 1);

			printf("# B got a bad packet (%s): %zd bytes, len %u, seq %u, flags %#x, frag %u/%u, msg_len %u\n",
			       why, n, ntohs(wh->len), ntohl(wh->seq), wh->flags,
			       ntohs(dh->frag), ntohs(dh->nfrags), ntohl(dh->msg_len));
			fflush(stdout);
		}
	}
	return NULL;
}

static int tap_start(struct tap *t, const char *ns, pthread_t *th)
{
	int big = 32 << 20;

	memset(t, 0, sizeof(*t));
	t->by_seq = calloc(TAP_SLOTS, sizeof(*t->by_seq));
	t->by_start = calloc(TAP_SLOTS, sizeof(*t->by_start));
	t->v6 = wind_test_ipv6();
	routed_sa(&t->dst, 2);
	t->fd = -1;
	if (!wind_netns_enter(ns)) {
		t->fd = socket(t->v6 ? AF_INET6 : AF_INET, SOCK_RAW,
			       wind_test_encap() == WIND_ENCAP_UDP ?
			       IPPROTO_UDP : IPPROTO_WIND);
		wind_netns_leave();
	}
	if (!t->by_seq || !t->by_start || t->fd < 0 ||
	    setsockopt(t->fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)) ||
	    pthread_create(th, NULL, tap_main, t)) {
		if (t->fd >= 0)
			close(t->fd);
		free(t->by_seq);
		free(t->by_start);
		return -1;
	}
	return 0;
}

/* Stop once everything queued to the raw socket is read */
static void tap_stop(struct tap *t, pthread_t th)
{
	int queued;

	while (!ioctl(t->fd, FIONREAD, &queued) && queued > 0)
		usleep(10000);
	t->stop = 1;
	pthread_join(th, NULL);
	close(t->fd);
	free(t->by_seq);
	free(t->by_start);
}

static const size_t routed_sizes[] = { 65536, 8192 };

TEST_F(routed, segmented_by_router_sw_checksum)
{
	struct snap a0, a1, b0, b1;
	struct plan p, reply;
	struct tap tap;
	pthread_t tap_th;

	ASSERT_EQ(0, plan_init(&p, 90, routed_sizes, 2, 1));
	ASSERT_EQ(0, plan_init(&reply, 30, routed_sizes, 2, 1));
	ASSERT_EQ(0, tap_start(&tap, routed_ns[NS_B], &tap_th));
	snap_take(routed_ns[NS_A], &a0);
	snap_take(routed_ns[NS_B], &b0);
	run_plan(_metadata, self->sa, &self->to_b, self->sb, &p);
	snap_take(routed_ns[NS_A], &a1);
	snap_take(routed_ns[NS_B], &b1);
	tap_stop(&tap, tap_th);
	snap_log("A", &a0, &a1);
	snap_log("B", &b0, &b1);
	printf("# B's wire: %lu data packets, %lu others, %lu bad\n",
	       tap.data, tap.other, tap.bad);
	/* every packet B saw was a sound ordinary Wind packet */
	EXPECT_GT(tap.data, 0);
	EXPECT_EQ(0, tap.bad);
	/* A sent super-packets; R cut every one of them */
	EXPECT_GT(snap_diff(&a0, &a1, OUT_GSO), 0);
	EXPECT_EQ(0, snap_diff(&b0, &b1, IN_GSO));

	/* and B's replies reach A */
	run_plan(_metadata, self->sb, &self->to_a, self->sa, &reply);
	snap_take(routed_ns[NS_A], &a1);
	snap_take(routed_ns[NS_B], &b1);
	snap_log("A after replies", &a0, &a1);
	snap_log("B after replies", &b0, &b1);
	/* R's segments, with their software checksums, were all sound */
	EXPECT_EQ(0, snap_diff(&b0, &b1, IN_ERR_CSUM));
	EXPECT_EQ(0, snap_diff(&b0, &b1, IN_ERR_LEN));
	EXPECT_EQ(0, snap_diff(&b0, &b1, IN_ERR_HDR));
	EXPECT_EQ(0, snap_diff(&b0, &b1, IN_ERR_SHORT));
	plan_free(&p);
	plan_free(&reply);
}

/* R's count of packets b0 could not hand to B (veth: too large for B) */
static long b0_tx_dropped(void)
{
	char cmd[160], line[64];
	long v = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "ip -n %s -s link show dev b0 | awk '/TX:/ { getline; print $4 }'",
		 routed_ns[NS_R]);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		v = strtol(line, NULL, 10);
	pclose(f);
	return v;
}

/*
 * R's link to B has MTU 1480, below A's packets (1500 with their IP
 * header): R must refuse A's super-packets with ICMP "fragmentation
 * needed" (it checks a GSO skb's packets against its MTU, which only
 * works if gso_size tells it their true size, WIND_GSO_BIAS), A shrinks
 * its packets, and every message arrives.  Nothing too large is ever
 * forwarded onto b0 (it would be dropped there, a black hole until the
 * retransmission timeout).
 */
TEST_F(routed, router_mtu_below_packets)
{
	struct snap a0, a1;
	struct plan p;
	long dropped;

	ASSERT_EQ(0, wind_run("ip -n %s link set dev b0 mtu 1480 && ip -n %s link set dev eth0 mtu 1480",
			      routed_ns[NS_R], routed_ns[NS_B]));
	ASSERT_EQ(0, plan_init(&p, 40, routed_sizes, 2, 1));
	snap_take(routed_ns[NS_A], &a0);
	run_plan(_metadata, self->sa, &self->to_b, self->sb, &p);
	snap_take(routed_ns[NS_A], &a1);
	snap_log("A", &a0, &a1);
	dropped = b0_tx_dropped();
	printf("# R's b0: %ld packets dropped as too large for B\n", dropped);
	wind_run("ip netns exec %s nstat -az IpForwDatagrams IpFragFails IcmpOutDestUnreachs | sed -n 's/^Ip/# R: Ip/p; s/^Icmp/# R: Icmp/p'",
		 routed_ns[NS_R]);
	EXPECT_GT(snap_diff(&a0, &a1, OUT_GSO), 0);
	EXPECT_EQ(0, dropped);
	plan_free(&p);
}

TEST_HARNESS_MAIN
