// SPDX-License-Identifier: GPL-2.0
/*
 * fi_conform_test: points of the libfabric API where the "wind" provider
 * once went its own way, each a test of its own, in one process (its
 * endpoints talk over the loopback or whatever FI_WIND_IFACE says):
 *
 *   fi_conform_test inject    FI_INJECT in tx_attr->op_flags, and in
 *                             fi_sendmsg()/fi_tsendmsg() flags, still
 *                             completes (only fi_inject() does not); the
 *                             buffer is the caller's at once
 *   fi_conform_test directed  FI_DIRECTED_RECV only when asked for; without
 *                             it a receive's src_addr (absent from the AV,
 *                             removed from it) is ignored; with it a receive
 *                             may name an address inserted later; AV
 *                             removal and reinsertion; a server whose
 *                             clients come and go (one closes, its port
 *                             refuses the server's message) gets neither
 *                             an error nor a refusal on its receives
 *   fi_conform_test mrbind    fi_mr_bind() of counters to MRs registered
 *                             with flags 0: FI_REMOTE_WRITE, and 0 (what the
 *                             MR's access allows), counting exactly
 *   fi_conform_test startup   a client that sends to a server whose
 *                             endpoint does not exist yet (its port refuses)
 *                             is served once the server opens it: every
 *                             message, in order, no error
 *   fi_conform_test auto      FI_PROGRESS_AUTO by default: a target that
 *                             never calls into libfabric serves reads,
 *                             atomics and writes; FI_PROGRESS_MANUAL when
 *                             asked for: what its kernel does not serve
 *                             (a 32-bit max) only once it reads its CQ
 *
 * Exit status 0 when every check passed; each failure prints "FAIL: ...".
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

static int failures;

#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); \
		       failures++; } while (0)
#define CHECK(x) do { long _r = (long)(x); if (_r < 0) { \
	printf("FAIL: %s:%d: %s: %s\n", __FILE__, __LINE__, #x, \
	       fi_strerror((int)-_r)); exit(1); } } while (0)

struct node {
	struct fi_info *info;
	struct fid_fabric *fabric;
	struct fid_domain *domain;
	struct fid_av *av;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct sockaddr_storage name;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static struct fi_info *hints_new(uint64_t caps)
{
	struct fi_info *h = fi_allocinfo();

	h->caps = caps;
	h->ep_attr->type = FI_EP_RDM;
	h->fabric_attr->prov_name = strdup("wind");
	h->addr_format = FI_SOCKADDR_IN;
	return h;
}

/* An endpoint of @hints (freed), bound to @src if not NULL. */
static void node_open(struct node *n, struct fi_info *hints, const char *src)
{
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED };
	size_t len = sizeof(n->name);
	char port[16] = "";
	const char *node = NULL;

	if (src) {
		const char *colon = strrchr(src, ':');
		static char host[64];

		snprintf(host, sizeof(host), "%.*s", (int)(colon - src), src);
		snprintf(port, sizeof(port), "%s", colon + 1);
		node = host;
	}
	memset(n, 0, sizeof(*n));
	CHECK(fi_getinfo(FI_VERSION(1, 17), node, src ? port : NULL,
			 src ? FI_SOURCE : 0, hints, &n->info));
	fi_freeinfo(hints);
	CHECK(fi_fabric(n->info->fabric_attr, &n->fabric, NULL));
	CHECK(fi_domain(n->fabric, n->info, &n->domain, NULL));
	CHECK(fi_av_open(n->domain, &ava, &n->av, NULL));
	CHECK(fi_endpoint(n->domain, n->info, &n->ep, NULL));
	CHECK(fi_cq_open(n->domain, &cqa, &n->cq, NULL));
	CHECK(fi_ep_bind(n->ep, &n->av->fid, 0));
	CHECK(fi_ep_bind(n->ep, &n->cq->fid, FI_TRANSMIT | FI_RECV));
	CHECK(fi_enable(n->ep));
	CHECK(fi_getname(&n->ep->fid, &n->name, &len));
}

static void node_close(struct node *n)
{
	fi_close(&n->ep->fid);
	fi_close(&n->cq->fid);
	fi_close(&n->av->fid);
	fi_close(&n->domain->fid);
	fi_close(&n->fabric->fid);
	fi_freeinfo(n->info);
}

static fi_addr_t insert(struct node *n, const struct node *peer)
{
	fi_addr_t a;

	if (fi_av_insert(n->av, &peer->name, 1, &a, 0, NULL) != 1)
		FAIL("fi_av_insert");
	return a;
}

/* The next completion of @n within @ms: 1 and *c, -1 and *e for an
 * error entry, 0 if none came.  Other nodes in @others are read too
 * (manual progress), their completions must not come. */
static int next(struct node *n, int ms, struct fi_cq_tagged_entry *c,
		struct fi_cq_err_entry *e)
{
	int64_t end = now_ms() + ms;

	do {
		ssize_t r = fi_cq_read(n->cq, c, 1);

		if (r == 1)
			return 1;
		if (r == -FI_EAVAIL) {
			memset(e, 0, sizeof(*e));
			CHECK(fi_cq_readerr(n->cq, e, 0));
			return -1;
		}
		if (r != -FI_EAGAIN)
			CHECK(r);
	} while (now_ms() < end);
	return 0;
}

/* The completion of @ctx on @n, successful */
static bool expect(struct node *n, void *ctx, const char *what,
		   struct fi_cq_tagged_entry *out)
{
	struct fi_cq_tagged_entry c;
	struct fi_cq_err_entry e;
	int r = next(n, 5000, &c, &e);

	if (r == 0) {
		FAIL("%s: no completion in 5 s", what);
		return false;
	}
	if (r < 0) {
		FAIL("%s: error completion: %s (prov_errno %d: %s)", what,
		     fi_strerror(e.err), e.prov_errno, strerror(e.prov_errno));
		return false;
	}
	if (c.op_context != ctx) {
		FAIL("%s: completion of %p, not %p", what, c.op_context, ctx);
		return false;
	}
	if (out)
		*out = c;
	return true;
}

/* Nothing more on @n for @ms */
static void quiet(struct node *n, int ms, const char *what)
{
	struct fi_cq_tagged_entry c;
	struct fi_cq_err_entry e;
	int r = next(n, ms, &c, &e);

	if (r > 0)
		FAIL("%s: unexpected completion of %p (flags %#llx)", what,
		     c.op_context, (unsigned long long)c.flags);
	else if (r < 0)
		FAIL("%s: unexpected error %s (prov_errno %d: %s) for %p", what,
		     fi_strerror(e.err), e.prov_errno, strerror(e.prov_errno),
		     e.op_context);
}

#define POST(n, call) do { ssize_t _r; int64_t _end = now_ms() + 5000; \
	while ((_r = (call)) == -FI_EAGAIN && now_ms() < _end) \
		fi_cq_read((n)->cq, NULL, 0); \
	CHECK(_r); } while (0)

/* A receive of @want (length @len) into @buf posted with @ctx on @n */
static void got(struct node *n, void *ctx, const char *buf, const char *want,
		size_t len, const char *what)
{
	struct fi_cq_tagged_entry c;

	if (!expect(n, ctx, what, &c))
		return;
	if (c.len != len || memcmp(buf, want, len))
		FAIL("%s: got %zu bytes \"%.*s\", want \"%s\"", what, c.len,
		     (int)c.len, buf, want);
}

/* --- inject --- */

static void t_inject(void)
{
	struct fi_info *h = hints_new(FI_MSG | FI_TAGGED);
	struct node a, b;
	char buf[64], rbuf[64];
	int sctx, rctx, sctx2, rctx2, sctx3, rctx3;
	struct iovec iov;
	struct fi_msg msg = { .msg_iov = &iov, .iov_count = 1 };
	struct fi_msg_tagged tmsg = { .msg_iov = &iov, .iov_count = 1 };
	fi_addr_t ab;
	uint64_t flags = FI_TRANSMIT;

	h->tx_attr->op_flags = FI_INJECT;
	node_open(&a, h, NULL);
	node_open(&b, hints_new(FI_MSG | FI_TAGGED), NULL);
	ab = insert(&a, &b);
	insert(&b, &a);
	CHECK(fi_control(&a.ep->fid, FI_GETOPSFLAG, &flags));
	if (!(flags & FI_INJECT))
		FAIL("inject: op flags %#llx lack FI_INJECT",
		     (unsigned long long)flags);

	/* fi_send() with FI_INJECT in the op flags: completes, and the
	 * buffer is ours again at once */
	CHECK(fi_recv(b.ep, rbuf, sizeof(rbuf), NULL, FI_ADDR_UNSPEC, &rctx));
	strcpy(buf, "op-flags inject");
	POST(&a, fi_send(a.ep, buf, strlen(buf), NULL, ab, &sctx));
	memset(buf, 'x', sizeof(buf));
	expect(&a, &sctx, "inject: fi_send under op_flags FI_INJECT", NULL);
	got(&b, &rctx, rbuf, "op-flags inject", 15, "inject: its receive");

	/* fi_sendmsg(FI_INJECT | FI_COMPLETION) */
	CHECK(fi_recv(b.ep, rbuf, sizeof(rbuf), NULL, FI_ADDR_UNSPEC, &rctx2));
	strcpy(buf, "sendmsg inject");
	iov.iov_base = buf;
	iov.iov_len = strlen(buf);
	msg.addr = ab;
	msg.context = &sctx2;
	POST(&a, fi_sendmsg(a.ep, &msg, FI_INJECT | FI_COMPLETION));
	memset(buf, 'y', sizeof(buf));
	expect(&a, &sctx2, "inject: fi_sendmsg(FI_INJECT)", NULL);
	got(&b, &rctx2, rbuf, "sendmsg inject", 14, "inject: its receive");

	/* fi_tsendmsg(FI_INJECT) */
	CHECK(fi_trecv(b.ep, rbuf, sizeof(rbuf), NULL, FI_ADDR_UNSPEC, 0x77, 0,
		       &rctx3));
	strcpy(buf, "tsendmsg inject");
	iov.iov_len = strlen(buf);
	tmsg.addr = ab;
	tmsg.tag = 0x77;
	tmsg.context = &sctx3;
	POST(&a, fi_tsendmsg(a.ep, &tmsg, FI_INJECT | FI_COMPLETION));
	memset(buf, 'z', sizeof(buf));
	expect(&a, &sctx3, "inject: fi_tsendmsg(FI_INJECT)", NULL);
	got(&b, &rctx3, rbuf, "tsendmsg inject", 15, "inject: its receive");

	/* fi_inject(): delivered, and no completion at all */
	CHECK(fi_recv(b.ep, rbuf, sizeof(rbuf), NULL, FI_ADDR_UNSPEC, &rctx));
	strcpy(buf, "fi_inject");
	POST(&a, fi_inject(a.ep, buf, 9, ab));
	got(&b, &rctx, rbuf, "fi_inject", 9, "inject: fi_inject's receive");
	quiet(&a, 300, "inject: fi_inject");
	node_close(&a);
	node_close(&b);
	printf("inject: done\n");
}

/* --- directed --- */

static void t_directed(void)
{
	struct fi_info *info = NULL, *h = hints_new(FI_MSG | FI_TAGGED);
	struct node s, c1, c2, d;
	char rbuf[64], rbuf2[64];
	int ctx, ctx2, sctx;
	fi_addr_t sc1, sc2, c1s, c2s, ds, dx;

	/* asked for or not */
	CHECK(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, h, &info));
	if (info->caps & FI_DIRECTED_RECV)
		FAIL("directed: caps %#llx have FI_DIRECTED_RECV, not asked for",
		     (unsigned long long)info->caps);
	fi_freeinfo(info);
	fi_freeinfo(h);
	h = hints_new(FI_MSG | FI_TAGGED | FI_DIRECTED_RECV);
	CHECK(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, h, &info));
	if (!(info->caps & FI_DIRECTED_RECV))
		FAIL("directed: caps %#llx lack FI_DIRECTED_RECV, asked for",
		     (unsigned long long)info->caps);
	fi_freeinfo(info);
	fi_freeinfo(h);

	/* a server without FI_DIRECTED_RECV posts its receives with
	 * src_addr 0 (as fabtests do) while its AV is empty */
	node_open(&s, hints_new(FI_MSG | FI_TAGGED), NULL);
	node_open(&c1, hints_new(FI_MSG | FI_TAGGED), NULL);
	node_open(&c2, hints_new(FI_MSG | FI_TAGGED), NULL);
	CHECK(fi_recv(s.ep, rbuf, sizeof(rbuf), NULL, 0, &ctx));
	CHECK(fi_trecv(s.ep, rbuf2, sizeof(rbuf2), NULL, 5, 0x5, 0, &ctx2));
	c1s = insert(&c1, &s);
	POST(&c1, fi_send(c1.ep, "from c1", 7, NULL, c1s, &sctx));
	expect(&c1, &sctx, "directed: c1's send", NULL);
	got(&s, &ctx, rbuf, "from c1", 7, "directed: src_addr 0, empty AV");
	POST(&c1, fi_tsend(c1.ep, "tagged c1", 9, NULL, c1s, 0x5, &sctx));
	expect(&c1, &sctx, "directed: c1's tagged send", NULL);
	got(&s, &ctx2, rbuf2, "tagged c1", 9, "directed: src_addr 5, not in the AV");

	/* the server answers c1; c1 closes; a message to it is refused */
	sc1 = insert(&s, &c1);
	CHECK(fi_recv(c1.ep, rbuf, sizeof(rbuf), NULL, FI_ADDR_UNSPEC, &ctx));
	POST(&s, fi_send(s.ep, "to c1", 5, NULL, sc1, &sctx));
	expect(&s, &sctx, "directed: the answer to c1", NULL);
	got(&c1, &ctx, rbuf, "to c1", 5, "directed: c1's receive");
	node_close(&c1);
	CHECK(fi_recv(s.ep, rbuf, sizeof(rbuf), NULL, sc1, &ctx));
	POST(&s, fi_send(s.ep, "c1 is gone", 10, NULL, sc1, &sctx));
	expect(&s, &sctx, "directed: a send to the closed c1", NULL);
	/* the refusal comes back; the receive naming c1 is no directed
	 * receive: it must neither fail nor complete */
	quiet(&s, 1500, "directed: after c1's port refused");
	/* the address goes out of the AV */
	CHECK(fi_av_remove(s.av, &sc1, 1, 0));
	/* c2 comes: the receive naming the removed c1 takes its message */
	c2s = insert(&c2, &s);
	POST(&c2, fi_send(c2.ep, "from c2", 7, NULL, c2s, &sctx));
	expect(&c2, &sctx, "directed: c2's send", NULL);
	got(&s, &ctx, rbuf, "from c2", 7, "directed: src_addr removed from the AV");
	/* AV removal and reinsertion at c2: its messages still go */
	CHECK(fi_av_remove(c2.av, &c2s, 1, 0));
	if (fi_send(c2.ep, "x", 1, NULL, c2s, &sctx) != -FI_EINVAL)
		FAIL("directed: a send to a removed address was not -FI_EINVAL");
	c2s = insert(&c2, &s);
	sc2 = insert(&s, &c2);
	CHECK(fi_recv(s.ep, rbuf, sizeof(rbuf), NULL, sc2, &ctx));
	POST(&c2, fi_send(c2.ep, "again c2", 8, NULL, c2s, &sctx));
	expect(&c2, &sctx, "directed: c2's send after reinsertion", NULL);
	got(&s, &ctx, rbuf, "again c2", 8, "directed: after reinsertion");
	quiet(&s, 200, "directed: the server");
	node_close(&c2);
	node_close(&s);

	/* with FI_DIRECTED_RECV: a receive naming an address inserted
	 * later (index 1) waits for it, messages from others pass it by */
	node_open(&d, hints_new(FI_MSG | FI_TAGGED | FI_DIRECTED_RECV), NULL);
	node_open(&c1, hints_new(FI_MSG | FI_TAGGED), NULL);
	node_open(&c2, hints_new(FI_MSG | FI_TAGGED), NULL);
	dx = insert(&d, &c1);		/* 0 */
	CHECK(fi_trecv(d.ep, rbuf, sizeof(rbuf), NULL, dx + 1, 0x9, 0, &ctx));
	ds = insert(&c1, &d);
	POST(&c1, fi_tsend(c1.ep, "c1 first", 8, NULL, ds, 0x9, &sctx));
	expect(&c1, &sctx, "directed: c1's send to d", NULL);
	quiet(&d, 300, "directed: a receive naming index 1, c1 (index 0) sent");
	if (insert(&d, &c2) != dx + 1)
		FAIL("directed: c2 is not index 1");
	ds = insert(&c2, &d);
	POST(&c2, fi_tsend(c2.ep, "c2 second", 9, NULL, ds, 0x9, &sctx));
	expect(&c2, &sctx, "directed: c2's send to d", NULL);
	got(&d, &ctx, rbuf, "c2 second", 9, "directed: index 1, inserted later");
	CHECK(fi_trecv(d.ep, rbuf, sizeof(rbuf), NULL, dx, 0x9, 0, &ctx));
	got(&d, &ctx, rbuf, "c1 first", 8, "directed: c1's, unexpected");
	node_close(&c1);
	node_close(&c2);
	node_close(&d);
	printf("directed: done\n");
}

/* --- mrbind --- */

static void t_mrbind(void)
{
	struct fi_info *h = hints_new(FI_MSG | FI_RMA | FI_RMA_EVENT);
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP };
	static char mem1[4096], mem2[4096];
	char src[64], dst[64];
	struct fid_mr *mr1, *mr2;
	struct fid_cntr *c1, *c2;
	struct node a, t;
	fi_addr_t at;
	int ctx, i;

	h->domain_attr->mr_mode = FI_MR_PROV_KEY;
	node_open(&t, h, NULL);
	h = hints_new(FI_MSG | FI_RMA);
	h->domain_attr->mr_mode = FI_MR_PROV_KEY;
	node_open(&a, h, NULL);
	at = insert(&a, &t);
	insert(&t, &a);
	CHECK(fi_mr_reg(t.domain, mem1, sizeof(mem1), FI_REMOTE_WRITE, 0, 0, 0,
			&mr1, NULL));
	CHECK(fi_mr_reg(t.domain, mem2, sizeof(mem2),
			FI_REMOTE_WRITE | FI_REMOTE_READ, 0, 0, 0, &mr2, NULL));
	CHECK(fi_cntr_open(t.domain, &ca, &c1, NULL));
	CHECK(fi_cntr_open(t.domain, &ca, &c2, NULL));
	i = fi_mr_bind(mr1, &c1->fid, FI_REMOTE_WRITE);
	if (i)
		FAIL("mrbind: fi_mr_bind(FI_REMOTE_WRITE) of an MR registered with flags 0: %s",
		     fi_strerror(-i));
	i = fi_mr_bind(mr2, &c2->fid, 0);
	if (i)
		FAIL("mrbind: fi_mr_bind(0): %s", fi_strerror(-i));
	/* two writes into mr1, one into mr2, one read of mr2 */
	for (i = 0; i < 2; i++) {
		snprintf(src, sizeof(src), "write %d into mr1", i);
		POST(&a, fi_write(a.ep, src, strlen(src) + 1, NULL, at, 100 * i,
				  fi_mr_key(mr1), &ctx));
		expect(&a, &ctx, "mrbind: a write into mr1", NULL);
	}
	strcpy(src, "into mr2");
	POST(&a, fi_write(a.ep, src, 9, NULL, at, 8, fi_mr_key(mr2), &ctx));
	expect(&a, &ctx, "mrbind: a write into mr2", NULL);
	memset(dst, 0, sizeof(dst));
	POST(&a, fi_read(a.ep, dst, 9, NULL, at, 8, fi_mr_key(mr2), &ctx));
	expect(&a, &ctx, "mrbind: a read of mr2", NULL);
	if (memcmp(dst, "into mr2", 9))
		FAIL("mrbind: read \"%.9s\"", dst);
	if (strcmp(mem1, "write 0 into mr1") || strcmp(mem1 + 100, "write 1 into mr1"))
		FAIL("mrbind: mr1 holds \"%s\", \"%s\"", mem1, mem1 + 100);
	/* the target's counters (reading them progresses it) */
	for (i = 0; i < 50 && (fi_cntr_read(c1) < 2 || fi_cntr_read(c2) < 2); i++)
		usleep(10000);
	if (fi_cntr_read(c1) != 2)
		FAIL("mrbind: mr1's counter (FI_REMOTE_WRITE) %llu, want 2",
		     (unsigned long long)fi_cntr_read(c1));
	if (fi_cntr_read(c2) != 2)
		FAIL("mrbind: mr2's counter (flags 0: writes and reads) %llu, want 2",
		     (unsigned long long)fi_cntr_read(c2));
	if (fi_cntr_readerr(c1) || fi_cntr_readerr(c2))
		FAIL("mrbind: counter errors");
	fi_close(&mr1->fid);
	fi_close(&mr2->fid);
	fi_close(&c1->fid);
	fi_close(&c2->fid);
	node_close(&a);
	node_close(&t);
	printf("mrbind: done\n");
}

/* --- startup --- */

static void t_startup(const char *where)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char srv[64], rbuf[64];
	struct node c, s;
	int ctx, sctx, i;
	fi_addr_t cs, sc;
	const char *m[3] = { "hello 0", "hello 1", "hello 2" };

	/* the server's address, before it exists */
	srand(getpid());
	sin.sin_port = htons(40000 + rand() % 20000);
	inet_pton(AF_INET, where, &sin.sin_addr);
	snprintf(srv, sizeof(srv), "%s:%u", where, ntohs(sin.sin_port));
	node_open(&c, hints_new(FI_MSG | FI_TAGGED), NULL);
	if (fi_av_insert(c.av, &sin, 1, &cs, 0, NULL) != 1)
		FAIL("startup: fi_av_insert");
	CHECK(fi_recv(c.ep, rbuf, sizeof(rbuf), NULL, cs, &ctx));
	for (i = 0; i < 3; i++) {
		POST(&c, fi_send(c.ep, m[i], 7, NULL, cs, &sctx));
		expect(&c, &sctx, "startup: a send before the server", NULL);
	}
	/* its port refuses them meanwhile: no error may come */
	quiet(&c, 500, "startup: the client, its server not up");
	node_open(&s, hints_new(FI_MSG | FI_TAGGED), srv);
	for (i = 0; i < 3; i++) {
		int rctx;

		CHECK(fi_recv(s.ep, rbuf, sizeof(rbuf), NULL, FI_ADDR_UNSPEC, &rctx));
		got(&s, &rctx, rbuf, m[i], 7, "startup: the server's receive");
	}
	sc = insert(&s, &c);
	POST(&s, fi_send(s.ep, "welcome", 7, NULL, sc, &sctx));
	expect(&s, &sctx, "startup: the server's answer", NULL);
	got(&c, &ctx, rbuf, "welcome", 7, "startup: the client's receive");
	quiet(&s, 200, "startup: the server");
	node_close(&c);
	node_close(&s);
	printf("startup: done\n");
}

/* --- auto --- */

/* a reads, adds and writes t's memory; t never calls into libfabric
 * meanwhile.  Return: how many of the three completed within @ms. */
static int one_sided(struct node *a, fi_addr_t at, uint64_t key,
		     uint64_t *mem, int ms)
{
	uint64_t rd = 0, add = 5, old = 0, wr = 0x1234;
	int ctx[3], done = 0, i;
	int64_t end = now_ms() + ms;

	POST(a, fi_read(a->ep, &rd, 8, NULL, at, 0, key, &ctx[0]));
	POST(a, fi_fetch_atomic(a->ep, &add, 1, NULL, &old, NULL, at, 8, key,
				FI_UINT64, FI_SUM, &ctx[1]));
	/* a 32-bit max: no kernel has it, the target's progress serves it */
	POST(a, fi_atomic(a->ep, &wr, 1, NULL, at, 16, key, FI_UINT32, FI_MAX,
			  &ctx[2]));
	while (done < 3 && now_ms() < end) {
		struct fi_cq_tagged_entry c;
		struct fi_cq_err_entry e;
		int r = next(a, end - now_ms(), &c, &e);

		if (r < 0) {
			FAIL("auto: error %s", fi_strerror(e.err));
			return done;
		}
		if (r > 0)
			done++;
	}
	if (done < 3)
		return done;
	if (rd != 41 || old != 42 || mem[1] != 47 || mem[2] != 0x1234)
		FAIL("auto: read %llu (41), fetched %llu (42), then %llu (47), wrote %#llx",
		     (unsigned long long)rd, (unsigned long long)old,
		     (unsigned long long)mem[1], (unsigned long long)mem[2]);
	for (i = 0; i < 3; i++)
		mem[i] = 41 + i;
	return done;
}

static void t_auto(void)
{
	static uint64_t mem[4] = { 41, 42, 43 };
	struct fi_info *h;
	struct fid_mr *mr;
	struct node a, t;
	fi_addr_t at;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		bool manual = pass == 1;

		h = hints_new(FI_MSG | FI_RMA | FI_ATOMIC);
		h->domain_attr->mr_mode = FI_MR_PROV_KEY;
		if (manual)
			h->domain_attr->data_progress = FI_PROGRESS_MANUAL;
		node_open(&t, h, NULL);
		if (t.info->domain_attr->data_progress !=
		    (manual ? FI_PROGRESS_MANUAL : FI_PROGRESS_AUTO))
			FAIL("auto: data_progress %d, asked %s", t.info->domain_attr->data_progress,
			     manual ? "manual" : "nothing");
		h = hints_new(FI_MSG | FI_RMA | FI_ATOMIC);
		h->domain_attr->mr_mode = FI_MR_PROV_KEY;
		node_open(&a, h, NULL);
		at = insert(&a, &t);
		insert(&t, &a);
		CHECK(fi_mr_reg(t.domain, mem, sizeof(mem),
				FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 0, 0, &mr, NULL));
		if (!manual) {
			/* t's thread never reads its CQ: its domain's
			 * progress thread serves */
			if (one_sided(&a, at, fi_mr_key(mr), mem, 5000) < 3)
				FAIL("auto: one-sided operations on a target that does not call libfabric did not complete in 5 s");
		} else {
			/* the read and the sum may be its kernel's
			 * (fi_wind(7)); the 32-bit max needs its progress */
			int before = one_sided(&a, at, fi_mr_key(mr), mem, 1000);

			if (before == 3)
				FAIL("auto: FI_PROGRESS_MANUAL asked for, and the target served without being progressed");
			/* once t reads its CQ, all is served */
			{
				int64_t end = now_ms() + 5000;
				int done = before;

				while (done < 3 && now_ms() < end) {
					struct fi_cq_tagged_entry c;
					struct fi_cq_err_entry e;

					fi_cq_read(t.cq, &c, 1);
					if (next(&a, 10, &c, &e) > 0)
						done++;
				}
				if (done < 3)
					FAIL("auto: manual progress: %d of 3 completed once the target read its CQ", done);
			}
		}
		fi_close(&mr->fid);
		node_close(&a);
		node_close(&t);
	}
	printf("auto: done\n");
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(what, "inject"))
		t_inject();
	else if (!strcmp(what, "directed"))
		t_directed();
	else if (!strcmp(what, "mrbind"))
		t_mrbind();
	else if (!strcmp(what, "startup"))
		t_startup(argc > 2 ? argv[2] : "127.0.0.1");
	else if (!strcmp(what, "auto"))
		t_auto();
	else {
		fprintf(stderr, "usage: fi_conform_test inject|directed|mrbind|startup [ADDR]|auto\n");
		return 2;
	}
	if (failures)
		printf("fi_conform_test %s: %d failure(s)\n", what, failures);
	else
		printf("fi_conform_test %s: OK\n", what);
	return failures ? 1 : 0;
}
