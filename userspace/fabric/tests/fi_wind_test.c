// SPDX-License-Identifier: GPL-2.0
/*
 * fi_wind_test: the "wind" provider through the libfabric API, two
 * processes (each may sit in its own network namespace).
 *
 *   fi_wind_test server FILE     writes its endpoint name to FILE, runs the checks
 *   fi_wind_test client FILE     reads it and drives the script
 *
 * The client owns two endpoints (a and b) so that directed receives have
 * two sources to tell apart.  Every payload is a pattern of (tag, size),
 * checked byte for byte.  Phases are separated by FI_MSG barrier messages
 * (FI_MSG and FI_TAGGED do not match each other).  It asks for
 * FI_PROGRESS_MANUAL: what it checks of unexpected messages, of a reader
 * of nothing and of Wind's message counts needs endpoints read only when
 * it reads them.  Exit status 0 when every check passed; each failure
 * prints "FAIL: ...".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <linux/wind.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

#define MAX_MSG		(16u << 20)
#define NUNEXP		64
#define NORDER		16
#define NMANY		256
#define TIMEOUT_MS	60000
#define MULTI_LEN	2100	/* FI_MULTI_RECV buffer: exactly the 5 messages */
#define MULTI_MIN	200	/* FI_OPT_MIN_MULTI_RECV */
/* phase 9 runs with FI_WIND_CHUNK=32768 (wind_fabric.sh): these go as
 * pieces */
#define CHUNKED		200000
#define CHUNK_TRUNC	100000
#define CHUNK_M1	100000
#define CHUNK_M2	150000
/* phase 10: a chunked send to a receiver that reads nothing (b, not
 * progressed) stays pending: more than b's socket takes and a's holds */
#define HELD		(4u << 20)
#define HELD_OTHER	300000
/* the largest message sent whole with phase 10's FI_WIND_CHUNK: the
 * room a piece needs, which a socket whose chunked send waits for room
 * does not have (but for what ACKs free meanwhile) */
#define HELD_CHUNK	"131072"
#define HELD_SHORT	131072

/* The provider's header (userspace/fabric/wind_fi.h), for the forged
 * messages of phase 9 */
struct wire_hdr {
	uint8_t		version, op;
	uint16_t	flags;
	uint32_t	reserved;
	uint64_t	tag, data;
};
#define OP_TAGGED	2
#define OP_CONT		9
#define HF_FIRST	0x8

/* the messages into the multi-receive buffer: two before it is posted */
static const size_t multi_size[5] = { 100, 0, 1000, 300, 700 };

static int failures;
static struct fi_info *info;
static struct fid_fabric *fabric;
static struct fid_domain *domain;
static struct fid_av *av;

struct end {
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_cntr *rcntr;
};

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	failures++;
}

#define CHECK(call) do { \
	long _r = (long)(call); \
	if (_r < 0) { \
		printf("FAIL: %s: %s (%ld)\n", #call, fi_strerror(-_r), _r); \
		exit(1); \
	} \
} while (0)

static void fill(char *buf, size_t len, uint64_t tag)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (char)(tag * 131 + i * 7 + (i >> 8));
}

static bool check_bytes(const char *buf, size_t len, uint64_t tag)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != (char)(tag * 131 + i * 7 + (i >> 8)))
			return false;
	return true;
}

static void open_end(struct end *e)
{
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED };
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP };

	CHECK(fi_endpoint(domain, info, &e->ep, NULL));
	CHECK(fi_cq_open(domain, &cqa, &e->cq, NULL));
	CHECK(fi_cntr_open(domain, &ca, &e->rcntr, NULL));
	CHECK(fi_ep_bind(e->ep, &av->fid, 0));
	CHECK(fi_ep_bind(e->ep, &e->cq->fid, FI_TRANSMIT | FI_RECV));
	CHECK(fi_ep_bind(e->ep, &e->rcntr->fid, FI_RECV));
	CHECK(fi_enable(e->ep));
}

static void close_end(struct end *e)
{
	CHECK(fi_close(&e->ep->fid));
	CHECK(fi_close(&e->cq->fid));
	CHECK(fi_close(&e->rcntr->fid));
}

/* Wait for one completion (error entries are returned in *err, rc 1). */
static int wait_cq(struct end *e, struct fi_cq_tagged_entry *c, fi_addr_t *src,
		   struct fi_cq_err_entry *err)
{
	ssize_t r;

	for (;;) {
		r = fi_cq_sreadfrom(e->cq, c, 1, src, NULL, TIMEOUT_MS);
		if (r == 1)
			return 0;
		if (r == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			CHECK(fi_cq_readerr(e->cq, err, 0));
			return 1;
		}
		if (r == -FI_EAGAIN) {
			fail("no completion within %d ms", TIMEOUT_MS);
			exit(1);
		}
		CHECK(r);
	}
}

/* Completions read while waiting for another one: operations of a phase
 * may complete in any order on the shared CQ. */
static struct {
	struct fi_cq_tagged_entry c;
	fi_addr_t src;
} stash[64];
static int nstash;

/* A completion that must be a success for @ctx. */
static void expect(struct end *e, void *ctx, struct fi_cq_tagged_entry *c,
		   fi_addr_t *src)
{
	struct fi_cq_err_entry err;
	fi_addr_t s;
	int i;

	for (i = 0; i < nstash; i++) {
		if (stash[i].c.op_context == ctx) {
			*c = stash[i].c;
			if (src)
				*src = stash[i].src;
			stash[i] = stash[--nstash];
			return;
		}
	}
	for (;;) {
		if (wait_cq(e, c, &s, &err)) {
			fail("error completion: %s (prov %d)", fi_strerror(err.err),
			     err.prov_errno);
			exit(1);
		}
		if (c->op_context == ctx)
			break;
		if (nstash == 64) {
			fail("completion for %p, expected %p", c->op_context, ctx);
			exit(1);
		}
		stash[nstash].c = *c;
		stash[nstash++].src = s;
	}
	if (src)
		*src = s;
}

static void send_wait(struct end *e, fi_addr_t to, const void *buf, size_t len,
		      uint64_t tag, bool tagged)
{
	struct fi_cq_tagged_entry c;
	int ctx;
	ssize_t r;

	do {
		r = tagged ? fi_tsend(e->ep, buf, len, NULL, to, tag, &ctx) :
			     fi_send(e->ep, buf, len, NULL, to, &ctx);
		if (r == -FI_EAGAIN)
			fi_cq_read(e->cq, NULL, 0);
	} while (r == -FI_EAGAIN);
	CHECK(r);
	expect(e, &ctx, &c, NULL);
	if (!(c.flags & FI_SEND))
		fail("send completion without FI_SEND (flags %#llx)",
		     (unsigned long long)c.flags);
}

static void barrier(struct end *e, fi_addr_t peer, int phase)
{
	struct fi_cq_tagged_entry c;
	int got = -1, ctx;

	send_wait(e, peer, &phase, sizeof(phase), 0, false);
	CHECK(fi_recv(e->ep, &got, sizeof(got), NULL, FI_ADDR_UNSPEC, &ctx));
	expect(e, &ctx, &c, NULL);
	if (got != phase)
		fail("barrier %d met the peer at %d", phase, got);
}

static size_t unexp_size(int i)
{
	static const size_t sizes[] = { 1, 7, 4096, 70000, 0, 1500 };

	return sizes[i % 6];
}

static void setup(void)
{
	struct fi_info *hints = fi_allocinfo();
	struct fi_av_attr ava = { .type = FI_AV_TABLE };

	hints->caps = FI_MSG | FI_TAGGED | FI_DIRECTED_RECV | FI_SOURCE |
		      FI_MULTI_RECV;
	hints->ep_attr->type = FI_EP_RDM;
	hints->fabric_attr->prov_name = strdup("wind");
	hints->domain_attr->av_type = FI_AV_TABLE;
	/* manual progress: phase 10's receiver that reads nothing must not
	 * have a progress thread read for it (fi_conform_test and
	 * fi_rma_test run with the thread) */
	hints->domain_attr->data_progress = FI_PROGRESS_MANUAL;
	CHECK(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info));
	fi_freeinfo(hints);
	if (strcmp(info->fabric_attr->prov_name, "wind")) {
		fail("provider %s", info->fabric_attr->prov_name);
		exit(1);
	}
	if (!(info->caps & FI_MULTI_RECV) || !(info->rx_attr->caps & FI_MULTI_RECV))
		fail("FI_MULTI_RECV not granted (caps %#llx)",
		     (unsigned long long)info->caps);
	if (info->domain_attr->data_progress != FI_PROGRESS_MANUAL)
		fail("FI_PROGRESS_MANUAL asked for, got %d",
		     info->domain_attr->data_progress);
	if (info->ep_attr->max_msg_size < MAX_MSG)
		fail("max_msg_size %zu < 16 MiB", info->ep_attr->max_msg_size);
	CHECK(fi_fabric(info->fabric_attr, &fabric, NULL));
	CHECK(fi_domain(fabric, info, &domain, NULL));
	CHECK(fi_av_open(domain, &ava, &av, NULL));
}

static fi_addr_t insert(const struct sockaddr_in *sin)
{
	fi_addr_t a;

	if (fi_av_insert(av, sin, 1, &a, 0, NULL) != 1) {
		fail("fi_av_insert");
		exit(1);
	}
	return a;
}

static void name_of(struct end *e, struct sockaddr_in *sin)
{
	size_t len = sizeof(*sin);

	CHECK(fi_getname(&e->ep->fid, sin, &len));
}

/* Progress both ends, without blocking on either, until @ctx's
 * completion is in (it is taken out of the stash); any error fails. */
static void pump(struct end *x, struct end *y, void *ctx,
		 struct fi_cq_tagged_entry *c)
{
	struct end *ends[2] = { x, y };
	int i, spins;

	for (spins = 0; ; spins++) {
		for (i = 0; i < nstash; i++) {
			if (stash[i].c.op_context == ctx) {
				*c = stash[i].c;
				stash[i] = stash[--nstash];
				return;
			}
		}
		for (i = 0; i < 2; i++) {
			struct fi_cq_err_entry err;
			fi_addr_t src;
			ssize_t r;

			r = fi_cq_readfrom(ends[i]->cq, c, 1, &src);
			if (r == 1) {
				if (nstash == 64) {
					fail("pump: completion for %p", c->op_context);
					exit(1);
				}
				stash[nstash].c = *c;
				stash[nstash++].src = src;
			} else if (r == -FI_EAVAIL) {
				memset(&err, 0, sizeof(err));
				CHECK(fi_cq_readerr(ends[i]->cq, &err, 0));
				fail("pump: error completion: %s (prov %d)",
				     fi_strerror(err.err), err.prov_errno);
				exit(1);
			} else if (r != -FI_EAGAIN) {
				CHECK(r);
			}
		}
		/* about a millisecond a thousand spins: give up after
		 * TIMEOUT_MS of sleeps */
		if (spins > 1000 && !(spins % 1000))
			usleep(1000);
		if (spins > TIMEOUT_MS * 1000) {
			fail("pump: no completion for %p", ctx);
			exit(1);
		}
	}
}

/* 10: a's chunked send to b, which reads nothing yet, cannot all go: it
 * holds back a's later sends to b and a's other chunked sends, not a's
 * short sends to the server; once b reads, all of it arrives, then the
 * send to b that waited. */
static void held_back(struct end *a, struct end *b, fi_addr_t s,
		      fi_addr_t tob, char *buf)
{
	struct fi_cq_tagged_entry c;
	char *rbig = malloc(HELD), *other = buf + HELD, small[16], rsmall[64];
	int big_ctx, small_ctx, other_ctx, r1, r2, i;
	ssize_t r;

	fill(buf, HELD, 0xa02);
	CHECK(fi_tsend(a->ep, buf, HELD, NULL, tob, 0xa02, &big_ctx));
	/* about 2 s of progress: the pieces b's socket takes (up to twice
	 * its SO_RCVBUF) are in, a's send buffer is full */
	for (i = 0; i < 2000; i++) {
		r = fi_cq_read(a->cq, &c, 1);
		if (r != -FI_EAGAIN) {
			fail("held back: a %u B send to a reader of nothing completed (%zd)",
			     HELD, r);
			return;
		}
		usleep(1000);
	}
	fill(small, 10, 0xa03);
	r = fi_tsend(a->ep, small, 10, NULL, tob, 0xa02, &small_ctx);
	if (r != -FI_EAGAIN)
		fail("held back: a send to the same peer gave %zd, not -FI_EAGAIN", r);
	fill(other, HELD_OTHER, 0xa01);
	r = fi_tsend(a->ep, other, HELD_OTHER, NULL, s, 0xa01, &other_ctx);
	if (r != -FI_EAGAIN)
		fail("held back: another chunked send gave %zd, not -FI_EAGAIN", r);
	/* one sent whole to the server goes at once */
	fill(other + HELD_OTHER, HELD_SHORT, 0xa00);
	r = fi_tsend(a->ep, other + HELD_OTHER, HELD_SHORT, NULL, s, 0xa00,
		     &other_ctx);
	if (r)
		fail("held back: a send to another peer gave %zd", r);
	else
		expect(a, &other_ctx, &c, NULL);

	/* b reads: the long one, then the short one, same tag */
	CHECK(fi_trecv(b->ep, rbig, HELD, NULL, FI_ADDR_UNSPEC, 0xa02, 0, &r1));
	CHECK(fi_trecv(b->ep, rsmall, sizeof(rsmall), NULL, FI_ADDR_UNSPEC,
		       0xa02, 0, &r2));
	pump(a, b, &r1, &c);
	if (c.len != HELD || !check_bytes(rbig, HELD, 0xa02))
		fail("held back: the long message: len %zu or payload", c.len);
	pump(a, b, &big_ctx, &c);
	do {
		r = fi_tsend(a->ep, small, 10, NULL, tob, 0xa02, &small_ctx);
		if (r == -FI_EAGAIN)
			fi_cq_read(b->cq, NULL, 0);
	} while (r == -FI_EAGAIN);
	CHECK(r);
	pump(a, b, &r2, &c);
	if (c.len != 10 || !check_bytes(rsmall, 10, 0xa03))
		fail("held back: the short message behind it: len %zu or payload",
		     c.len);
	pump(a, b, &small_ctx, &c);
	send_wait(a, s, other, HELD_OTHER, 0xa01, true);
	free(rbig);
}

/* --- client --- */

static int client(const char *file)
{
	struct sockaddr_in srv, names[2];
	struct end a, b;
	fi_addr_t s;
	char *buf = malloc(MAX_MSG + 1);
	FILE *f;
	int i;
	ssize_t r;

	setup();
	open_end(&a);
	open_end(&b);
	f = fopen(file, "r");
	if (!f || fread(&srv, sizeof(srv), 1, f) != 1) {
		fail("cannot read %s", file);
		return 1;
	}
	fclose(f);
	s = insert(&srv);
	name_of(&a, &names[0]);
	name_of(&b, &names[1]);
	/* hello: both our names */
	send_wait(&a, s, names, sizeof(names), 0, false);
	barrier(&a, s, 1);

	/* 1: unexpected messages, received in reverse order by exact tag */
	for (i = 0; i < NUNEXP; i++) {
		fill(buf, unexp_size(i), 1000 + i);
		send_wait(&a, s, buf, unexp_size(i), 1000 + i, true);
	}
	barrier(&a, s, 2);

	/* 2: wildcard receives take same-tag-family messages in send order */
	for (i = 0; i < NORDER; i++) {
		fill(buf, 100 + i, 0x100 + i);
		send_wait(&a, s, buf, 100 + i, 0x100 + i, true);
	}
	barrier(&a, s, 3);

	/* 3: directed receives: b sends first, a second, same tag */
	fill(buf, 333, 0x200);
	send_wait(&b, s, buf, 333, 0x200, true);
	fill(buf, 444, 0x200);
	send_wait(&a, s, buf, 444, 0x200, true);
	barrier(&a, s, 4);

	/* 4: sizes, pre-posted at the server: 0 B to 16 MiB */
	{
		static const size_t sizes[] = { 0, 1, 1023, 65536, 1 << 20, MAX_MSG };

		for (i = 0; i < 6; i++) {
			fill(buf, sizes[i], 0x300 + i);
			send_wait(&a, s, buf, sizes[i], 0x300 + i, true);
		}
		r = fi_tsend(a.ep, buf, MAX_MSG + 1, NULL, s, 1, NULL);
		if (r != -FI_EMSGSIZE)
			fail("a send of 16 MiB + 1 gave %zd, not -FI_EMSGSIZE", r);
	}
	barrier(&a, s, 5);

	/* 5: many outstanding sends, inject and remote CQ data */
	{
		static int ctx[NMANY];
		int done = 0;
		char *m = malloc((size_t)NMANY * 1000);
		struct fi_cq_tagged_entry c[16];

		for (i = 0; i < NMANY; i++) {
			fill(m + i * 1000, 1000, 0x400 + i);
			do {
				r = fi_tsenddata(a.ep, m + i * 1000, 1000, NULL,
						 0xd000 + i, s, 0x400 + i, &ctx[i]);
				if (r == -FI_EAGAIN) {
					ssize_t n = fi_cq_read(a.cq, c, 16);

					done += n > 0 ? n : 0;
				}
			} while (r == -FI_EAGAIN);
			CHECK(r);
		}
		while (done < NMANY) {
			r = fi_cq_sread(a.cq, c, 16, NULL, TIMEOUT_MS);
			if (r <= 0) {
				fail("many: %d of %d send completions (%zd)", done, NMANY, r);
				break;
			}
			done += r;
		}
		fill(buf, 64, 0x500);
		CHECK(fi_tinject(a.ep, buf, 64, s, 0x500));
		fill(buf, 65, 0x501);
		CHECK(fi_inject(a.ep, buf, 65, s));
		r = fi_cq_read(a.cq, c, 1);
		if (r != -FI_EAGAIN)
			fail("inject generated a completion (%zd)", r);
		free(m);
	}
	barrier(&a, s, 6);

	/* 6: truncation */
	fill(buf, 100, 0x600);
	send_wait(&a, s, buf, 100, 0x600, true);
	barrier(&a, s, 7);

	/* 7: multi-receive: two messages before the server posts its
	 * buffer (a tagged mark behind them), three after it says so */
	barrier(&a, s, 8);
	for (i = 0; i < 5; i++) {
		if (i == 2) {
			struct fi_cq_tagged_entry c;
			char none[1];
			int ctx;

			send_wait(&a, s, NULL, 0, 0x8ff, true);
			CHECK(fi_trecv(a.ep, none, sizeof(none), NULL, s, 0x8fe, 0, &ctx));
			expect(&a, &ctx, &c, NULL);
		}
		fill(buf, multi_size[i], 0x800 + i);
		send_wait(&a, s, buf, multi_size[i], 0, false);
	}
	barrier(&a, s, 9);

	/* 9: chunked messages (larger than FI_WIND_CHUNK) */
	{
		struct wire_hdr h = { .version = 1 };
		struct iovec iov[2];
		struct msghdr mh = { .msg_name = &srv, .msg_namelen = sizeof(srv),
				     .msg_iov = iov, .msg_iovlen = 2 };
		int fd;

		/* from a and b, same tag, then a short one from a behind its
		 * long one: a directed, a wildcard and a same-tag receive */
		fill(buf, CHUNKED, 0x900);
		send_wait(&a, s, buf, CHUNKED, 0x900, true);
		fill(buf, CHUNKED - 1, 0x900);
		send_wait(&b, s, buf, CHUNKED - 1, 0x900, true);
		fill(buf, 10, 0x902);
		send_wait(&a, s, buf, 10, 0x900, true);
		/* truncated: into 50000 bytes */
		fill(buf, CHUNK_TRUNC, 0x903);
		send_wait(&a, s, buf, CHUNK_TRUNC, 0x903, true);
		barrier(&a, s, 12);
		/* into a multi-receive buffer (untagged, as the barriers:
		 * after the server's barrier receive) */
		fill(buf, CHUNK_M1, 0x904);
		send_wait(&a, s, buf, CHUNK_M1, 0, false);
		fill(buf, CHUNK_M2, 0x905);
		send_wait(&a, s, buf, CHUNK_M2, 0, false);
		barrier(&a, s, 13);	/* its receive for the forged is posted */

		/* forged by a plain Wind socket that knows the format: a
		 * piece nobody started, a first piece claiming more than 16
		 * MiB, a first piece and then a whole message (its sender
		 * gave up): none may be delivered, the whole one must */
		fd = socket(AF_INET, SOCK_WIND, 0);
		if (fd < 0) {
			fail("socket(SOCK_WIND): %s", strerror(errno));
		} else {
			iov[0].iov_base = &h;
			iov[0].iov_len = sizeof(h);
			iov[1].iov_base = buf;
			iov[1].iov_len = 32768;
			fill(buf, 32768, 0x9f0);
			h.op = OP_CONT;
			h.tag = 32768;
			h.reserved = 65536;
			if (sendmsg(fd, &mh, 0) < 0)
				fail("stray piece: %s", strerror(errno));
			h.op = OP_TAGGED;
			h.flags = HF_FIRST;
			h.tag = 0x9f0;
			h.reserved = MAX_MSG + 1;
			if (sendmsg(fd, &mh, 0) < 0)
				fail("huge first piece: %s", strerror(errno));
			h.reserved = 65536;
			if (sendmsg(fd, &mh, 0) < 0)
				fail("first piece: %s", strerror(errno));
			h.flags = 0;
			h.reserved = 0;
			iov[1].iov_len = 20;
			fill(buf, 20, 0x9f0);
			if (sendmsg(fd, &mh, 0) < 0)
				fail("whole message: %s", strerror(errno));
		}
		barrier(&a, s, 14);	/* the server has read them */
		if (fd >= 0)
			close(fd);
	}

	/* 10: a chunked send its receiver does not drain, between two
	 * endpoints of 512 KiB socket buffers (the provider asks for 64 MiB,
	 * which 4 MiB would not fill) and 128 KiB pieces */
	barrier(&a, s, 15);
	{
		struct sockaddr_in nb2;
		struct end a2, b2;

		char *chunk = getenv("FI_WIND_CHUNK");

		chunk = chunk ? strdup(chunk) : NULL;
		setenv("FI_WIND_SNDBUF", "262144", 1);
		setenv("FI_WIND_RCVBUF", "262144", 1);
		setenv("FI_WIND_CHUNK", HELD_CHUNK, 1);
		open_end(&a2);
		open_end(&b2);
		unsetenv("FI_WIND_SNDBUF");
		unsetenv("FI_WIND_RCVBUF");
		if (chunk)
			setenv("FI_WIND_CHUNK", chunk, 1);
		else
			unsetenv("FI_WIND_CHUNK");
		free(chunk);
		name_of(&b2, &nb2);
		held_back(&a2, &b2, s, insert(&nb2), buf);
		close_end(&a2);
		close_end(&b2);
	}
	barrier(&a, s, 16);

	/* 8: b closes; the server's directed receive from b must fail */
	close_end(&b);
	barrier(&a, s, 10);
	barrier(&a, s, 11);

	close_end(&a);
	CHECK(fi_close(&av->fid));
	CHECK(fi_close(&domain->fid));
	CHECK(fi_close(&fabric->fid));
	fi_freeinfo(info);
	free(buf);
	printf("client: %d failures\n", failures);
	return failures ? 1 : 0;
}

/* --- server --- */

static void recv_check(struct end *e, fi_addr_t from, uint64_t tag,
		       uint64_t ignore, size_t buflen, uint64_t want_tag,
		       size_t want_len, fi_addr_t want_src, const char *what)
{
	struct fi_cq_tagged_entry c;
	char *buf = malloc(buflen ? buflen : 1);
	fi_addr_t src;
	int ctx;

	CHECK(fi_trecv(e->ep, buf, buflen, NULL, from, tag, ignore, &ctx));
	expect(e, &ctx, &c, &src);
	if (c.tag != want_tag || c.len != want_len)
		fail("%s: tag %#llx len %zu, expected %#llx len %zu", what,
		     (unsigned long long)c.tag, c.len,
		     (unsigned long long)want_tag, want_len);
	else if (!check_bytes(buf, want_len, want_tag))
		fail("%s: payload differs", what);
	if (!(c.flags & FI_RECV) || !(c.flags & FI_TAGGED))
		fail("%s: flags %#llx", what, (unsigned long long)c.flags);
	if (want_src != FI_ADDR_UNSPEC && src != want_src)
		fail("%s: source %llu, expected %llu", what,
		     (unsigned long long)src, (unsigned long long)want_src);
	free(buf);
}

static int server(const char *file)
{
	struct sockaddr_in me, names[2];
	struct fi_cq_tagged_entry c;
	struct fi_cq_err_entry err;
	struct end e;
	fi_addr_t ca, cb, src;
	char tmp[256];
	int ctx, i;
	FILE *f;

	setup();
	open_end(&e);
	name_of(&e, &me);
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f || fwrite(&me, sizeof(me), 1, f) != 1 || fclose(f) ||
	    rename(tmp, file)) {
		fail("cannot write %s", file);
		return 1;
	}
	printf("server: %s:%u\n", inet_ntoa(me.sin_addr), ntohs(me.sin_port));
	fflush(stdout);

	CHECK(fi_recv(e.ep, names, sizeof(names), NULL, FI_ADDR_UNSPEC, &ctx));
	expect(&e, &ctx, &c, &src);
	if (c.len != sizeof(names) || !(c.flags & FI_MSG))
		fail("hello: len %zu flags %#llx", c.len, (unsigned long long)c.flags);
	if (src != FI_ADDR_NOTAVAIL)
		fail("hello: source %llu before the AV knew it", (unsigned long long)src);
	ca = insert(&names[0]);
	cb = insert(&names[1]);
	barrier(&e, ca, 1);

	/* 1 */
	barrier(&e, ca, 2);	/* all NUNEXP are in (ordered before this) */
	for (i = NUNEXP - 1; i >= 0; i--)
		recv_check(&e, ca, 1000 + i, 0, 70000, 1000 + i, unexp_size(i),
			   ca, "unexpected");
	printf("server: phase 1 (unexpected, exact tags, reverse order) done\n");

	/* 2: wildcards (ignore the low byte), posted after arrival */
	barrier(&e, ca, 3);
	for (i = 0; i < NORDER; i++)
		recv_check(&e, FI_ADDR_UNSPEC, 0x1ff, 0xff, 4096, 0x100 + i,
			   100 + i, ca, "wildcard order");
	printf("server: phase 2 (wildcard tags, order) done\n");

	/* 3: directed */
	barrier(&e, ca, 4);
	recv_check(&e, ca, 0x200, 0, 1000, 0x200, 444, ca, "directed from a");
	recv_check(&e, cb, 0x200, 0, 1000, 0x200, 333, cb, "directed from b");
	printf("server: phase 3 (directed receive) done\n");

	/* 4: sizes, pre-posted */
	{
		static const size_t sizes[] = { 0, 1, 1023, 65536, 1 << 20, MAX_MSG };
		static int rctx[6];
		char *bufs[6];
		fi_addr_t srcs[6];

		for (i = 0; i < 6; i++) {
			bufs[i] = malloc(sizes[i] + 1);
			CHECK(fi_trecv(e.ep, bufs[i], sizes[i], NULL, ca,
				       0x300 + i, 0, &rctx[i]));
		}
		barrier(&e, ca, 5);
		for (i = 0; i < 6; i++) {
			expect(&e, &rctx[i], &c, &srcs[i]);
			if (c.len != sizes[i] || c.tag != (uint64_t)(0x300 + i) ||
			    !check_bytes(bufs[i], sizes[i], 0x300 + i))
				fail("size %zu: len %zu tag %#llx or payload wrong",
				     sizes[i], c.len, (unsigned long long)c.tag);
			free(bufs[i]);
		}
		printf("server: phase 4 (0 B to 16 MiB) done\n");
	}

	/* 5: many outstanding, remote CQ data, inject */
	{
		static int rctx[NMANY];
		char *m = malloc((size_t)NMANY * 1000);
		uint64_t before = fi_cntr_read(e.rcntr);
		char ib[100];
		int got = 0;

		for (i = 0; i < NMANY; i++)
			CHECK(fi_trecv(e.ep, m + i * 1000, 1000, NULL,
				       FI_ADDR_UNSPEC, 0x400, 0xfff, &rctx[i]));
		while (got < NMANY) {
			expect(&e, &rctx[got], &c, NULL);
			if (c.tag != (uint64_t)(0x400 + got) ||
			    !(c.flags & FI_REMOTE_CQ_DATA) ||
			    c.data != (uint64_t)(0xd000 + got) ||
			    !check_bytes(m + got * 1000, 1000, 0x400 + got))
				fail("many #%d: tag %#llx data %#llx flags %#llx",
				     got, (unsigned long long)c.tag,
				     (unsigned long long)c.data,
				     (unsigned long long)c.flags);
			got++;
		}
		recv_check(&e, ca, 0x500, 0, 100, 0x500, 64, ca, "tinject");
		CHECK(fi_recv(e.ep, ib, sizeof(ib), NULL, ca, &ctx));
		expect(&e, &ctx, &c, NULL);
		if (c.len != 65 || !check_bytes(ib, 65, 0x501))
			fail("inject: len %zu or payload", c.len);
		if (fi_cntr_read(e.rcntr) - before < NMANY + 2)
			fail("receive counter moved by %llu, not %d",
			     (unsigned long long)(fi_cntr_read(e.rcntr) - before),
			     NMANY + 2);
		free(m);
		printf("server: phase 5 (%d outstanding, cq data, inject, counter) done\n", NMANY);
	}
	barrier(&e, ca, 6);

	/* 6: truncation: 100 bytes into 50 */
	barrier(&e, ca, 7);
	{
		char small[50];

		CHECK(fi_trecv(e.ep, small, sizeof(small), NULL, ca, 0x600, 0, &ctx));
		if (wait_cq(&e, &c, &src, &err) != 1 || err.err != FI_ETRUNC ||
		    err.olen != 50 || err.op_context != &ctx ||
		    !check_bytes(small, 50, 0x600))
			fail("truncation: err %d olen %zu", err.err, err.olen);
		/* cancel */
		CHECK(fi_trecv(e.ep, small, sizeof(small), NULL, ca, 0xdead, 0, &ctx));
		CHECK(fi_cancel(&e.ep->fid, &ctx));
		if (wait_cq(&e, &c, &src, &err) != 1 || err.err != FI_ECANCELED ||
		    err.op_context != &ctx)
			fail("cancel: err %d", err.err);
		printf("server: phase 6 (truncation, cancel) done\n");
	}

	/* 7: FI_MULTI_RECV: one buffer takes five untagged messages, each
	 * at the offset where the one before it ended, and is released
	 * (FI_MULTI_RECV) with the one that leaves less than
	 * FI_OPT_MIN_MULTI_RECV bytes; two of them were unexpected */
	barrier(&e, ca, 8);
	{
		char *mb = malloc(MULTI_LEN + 64);
		struct iovec iov = { mb, MULTI_LEN };
		struct fi_msg msg = {
			.msg_iov = &iov, .iov_count = 1,
			.addr = FI_ADDR_UNSPEC, .context = &ctx,
		};
		size_t min = MULTI_MIN, ol = sizeof(min), off = 0;
		int k;

		memset(mb, 0x5a, MULTI_LEN + 64);
		/* behind the two untagged ones */
		recv_check(&e, ca, 0x8ff, 0, 16, 0x8ff, 0, ca, "multi-receive mark");
		CHECK(fi_setopt(&e.ep->fid, FI_OPT_ENDPOINT, FI_OPT_MIN_MULTI_RECV,
				&min, sizeof(min)));
		min = 0;
		CHECK(fi_getopt(&e.ep->fid, FI_OPT_ENDPOINT, FI_OPT_MIN_MULTI_RECV,
				&min, &ol));
		if (min != MULTI_MIN || ol != sizeof(min))
			fail("FI_OPT_MIN_MULTI_RECV reads %zu (len %zu)", min, ol);
		CHECK(fi_recvmsg(e.ep, &msg, FI_MULTI_RECV));
		for (k = 0; k < 5; k++) {
			uint64_t want = FI_RECV | FI_MSG | (k == 4 ? FI_MULTI_RECV : 0);

			if (k == 2)	/* the rest come after this */
				send_wait(&e, ca, NULL, 0, 0x8fe, true);
			expect(&e, &ctx, &c, &src);
			if (c.len != multi_size[k] || (char *)c.buf != mb + off ||
			    (c.flags & (FI_RECV | FI_MSG | FI_TAGGED | FI_MULTI_RECV)) != want ||
			    src != ca || !check_bytes(mb + off, multi_size[k], 0x800 + k))
				fail("multi-receive #%d: len %zu at offset %td (want %zu at %zu), flags %#llx (want %#llx), source %llu, or payload",
				     k, c.len, (char *)c.buf - mb, multi_size[k], off,
				     (unsigned long long)c.flags,
				     (unsigned long long)want, (unsigned long long)src);
			off += multi_size[k];
		}
		for (k = 0; k < 64; k++)
			if (mb[MULTI_LEN + k] != 0x5a) {
				fail("multi-receive wrote past its buffer (byte %d)", k);
				break;
			}
		/* released: nothing left to cancel */
		if (fi_cancel(&e.ep->fid, &ctx) != -FI_ENOENT)
			fail("multi-receive: a released buffer was still posted");
		/* a buffer cancelled is released, with FI_MULTI_RECV (one
		 * directed at b, which sends nothing now: the client's next
		 * barrier message may be here already) */
		msg.addr = cb;
		CHECK(fi_recvmsg(e.ep, &msg, FI_MULTI_RECV));
		CHECK(fi_cancel(&e.ep->fid, &ctx));
		if (wait_cq(&e, &c, &src, &err) != 1 || err.err != FI_ECANCELED ||
		    err.op_context != &ctx || !(err.flags & FI_MULTI_RECV))
			fail("multi-receive cancel: err %d flags %#llx", err.err,
			     (unsigned long long)err.flags);
		free(mb);
		printf("server: phase 7 (multi-receive: 5 messages at their offsets, 2 unexpected, released by the last; cancel) done\n");
	}
	barrier(&e, ca, 9);

	/* 9: chunked messages */
	{
		char *big = malloc(CHUNK_M1 + CHUNK_M2 + 64);
		struct iovec iov = { big, CHUNK_M1 + CHUNK_M2 };
		struct fi_msg msg = {
			.msg_iov = &iov, .iov_count = 1,
			.addr = ca, .context = &ctx,
		};
		size_t min = MULTI_MIN;

		barrier(&e, ca, 12);	/* the tagged ones are sent */
		recv_check(&e, cb, 0x900, 0, CHUNKED, 0x900, CHUNKED - 1, cb,
			   "chunked, directed from b");
		recv_check(&e, FI_ADDR_UNSPEC, 0x900, 0, CHUNKED, 0x900, CHUNKED,
			   ca, "chunked, wildcard source");
		{
			/* the short one after the long one, same tag */
			char sb[64];

			CHECK(fi_trecv(e.ep, sb, sizeof(sb), NULL, ca, 0x900, 0, &ctx));
			expect(&e, &ctx, &c, NULL);
			if (c.len != 10 || !check_bytes(sb, 10, 0x902))
				fail("after a chunked message: len %zu or payload", c.len);
		}
		CHECK(fi_trecv(e.ep, big, 50000, NULL, ca, 0x903, 0, &ctx));
		if (wait_cq(&e, &c, &src, &err) != 1 || err.err != FI_ETRUNC ||
		    err.olen != CHUNK_TRUNC - 50000 || err.op_context != &ctx ||
		    !check_bytes(big, 50000, 0x903))
			fail("chunked truncation: err %d olen %zu", err.err, err.olen);
		CHECK(fi_setopt(&e.ep->fid, FI_OPT_ENDPOINT, FI_OPT_MIN_MULTI_RECV,
				&min, sizeof(min)));
		memset(big, 0x5a, CHUNK_M1 + CHUNK_M2 + 64);
		CHECK(fi_recvmsg(e.ep, &msg, FI_MULTI_RECV));
		expect(&e, &ctx, &c, &src);
		if (c.len != CHUNK_M1 || (char *)c.buf != big ||
		    (c.flags & FI_MULTI_RECV) || !check_bytes(big, CHUNK_M1, 0x904))
			fail("chunked multi-receive #0: len %zu at %td flags %#llx",
			     c.len, (char *)c.buf - big, (unsigned long long)c.flags);
		expect(&e, &ctx, &c, &src);
		if (c.len != CHUNK_M2 || (char *)c.buf != big + CHUNK_M1 ||
		    !(c.flags & FI_MULTI_RECV) ||
		    !check_bytes(big + CHUNK_M1, CHUNK_M2, 0x905) ||
		    big[CHUNK_M1 + CHUNK_M2] != 0x5a)
			fail("chunked multi-receive #1: len %zu at %td flags %#llx",
			     c.len, (char *)c.buf - big, (unsigned long long)c.flags);

		/* the forged ones: only the whole 20-byte message, into the
		 * receive the first piece took (and gave back) */
		{
			char fb[65536];

			CHECK(fi_trecv(e.ep, fb, sizeof(fb), NULL, FI_ADDR_UNSPEC,
				       0x9f0, 0, &ctx));
			barrier(&e, ca, 13);
			expect(&e, &ctx, &c, &src);
			if (c.len != 20 || !check_bytes(fb, 20, 0x9f0) ||
			    src != FI_ADDR_NOTAVAIL)
				fail("forged pieces: len %zu src %llu", c.len,
				     (unsigned long long)src);
			/* nothing else of them is left */
			CHECK(fi_trecv(e.ep, fb, sizeof(fb), NULL, FI_ADDR_UNSPEC,
				       0x9f0, 0, &ctx));
			if (fi_cq_read(e.cq, &c, 1) != -FI_EAGAIN)
				fail("forged pieces: a second message");
			CHECK(fi_cancel(&e.ep->fid, &ctx));
			if (wait_cq(&e, &c, &src, &err) != 1 || err.err != FI_ECANCELED)
				fail("forged pieces: cancel err %d", err.err);
			barrier(&e, ca, 14);
		}
		free(big);
		printf("server: phase 9 (chunked: directed, wildcard, order, truncation, multi-receive, forged pieces) done\n");
	}

	/* 10: the client's short message, sent while its chunked one to
	 * its other endpoint was stuck, and the chunked one it held back
	 * (from an endpoint the AV does not know) */
	barrier(&e, ca, 15);
	recv_check(&e, FI_ADDR_UNSPEC, 0xa00, 0, HELD_SHORT, 0xa00, HELD_SHORT,
		   FI_ADDR_UNSPEC, "held back: one sent whole");
	recv_check(&e, FI_ADDR_UNSPEC, 0xa01, 0, HELD_OTHER, 0xa01, HELD_OTHER,
		   FI_ADDR_UNSPEC, "held back: the chunked one");
	barrier(&e, ca, 16);
	printf("server: phase 10 (a chunked send its receiver does not drain holds back only its peer and chunked sends) done\n");

	/* 8: b is gone: a message to it is refused, and the directed
	 * receive from it completes with an error instead of hanging */
	barrier(&e, ca, 10);
	{
		char small[8];
		int sctx;

		int sent = 0, failed = 0;

		CHECK(fi_trecv(e.ep, small, sizeof(small), NULL, cb, 0x700, 0, &ctx));
		CHECK(fi_tsend(e.ep, "x", 1, NULL, cb, 0x700, &sctx));
		/* in either order: the send's completion (the kernel took the
		 * message; a pending refusal from b makes the provider try it
		 * again after reading the error queue) and the receive's error
		 */
		memset(&err, 0, sizeof(err));
		while (!(sent && failed)) {
			struct fi_cq_err_entry e2;

			if (wait_cq(&e, &c, &src, &e2) == 1) {
				if (failed || e2.op_context != &ctx) {
					fail("dead peer: an error for %p", e2.op_context);
					break;
				}
				err = e2;
				failed = 1;
			} else if (c.op_context == &sctx && !sent) {
				sent = 1;
			} else {
				fail("dead peer: a completion for %p", c.op_context);
				break;
			}
		}
		if (!failed || (err.err != FI_EIO && err.err != FI_ETIMEDOUT))
			fail("dead peer: err %d (%s) prov %d", err.err,
			     fi_strerror(err.err), err.prov_errno);
		else
			printf("server: phase 8 (dead peer: %s, prov_errno %d %s) done\n",
			       fi_strerror(err.err), err.prov_errno,
			       strerror(err.prov_errno));
	}
	barrier(&e, ca, 11);

	close_end(&e);
	CHECK(fi_close(&av->fid));
	CHECK(fi_close(&domain->fid));
	CHECK(fi_close(&fabric->fid));
	fi_freeinfo(info);
	printf("server: %d failures\n", failures);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "server"))
		return server(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "client"))
		return client(argv[2]);
	fprintf(stderr, "usage: %s server|client FILE\n", argv[0]);
	return 2;
}
