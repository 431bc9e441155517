// SPDX-License-Identifier: GPL-2.0
/*
 * fi_rma_test: FI_RMA and FI_ATOMIC of the "wind" provider through the
 * libfabric API, two processes (each may sit in its own namespace).
 *
 *   fi_rma_test server FILE prov|user   registers MRs, writes its name and
 *                                       keys to FILE, serves until "done"
 *   fi_rma_test client FILE prov|user   drives the script
 *
 * "prov": FI_MR_PROV_KEY (fi_write is a Direct Map message); "user": keys
 * of the application's (fi_write goes through the target's progress).
 * The client writes (and with remote CQ data), reads back, runs atomics
 * of several types and operations checking every fetched value, and
 * provokes errors (unknown key, a write and a read out of range, a
 * read-only MR) that must come back as error completions of those
 * operations only (with the provider's keys the writes out of range are
 * Direct Map messages the target's kernel refuses asynchronously, on the
 * error queue; a wrong key is never presented to it: the initiator
 * writes Direct Map only keys the target's answers named regions), a
 * read of the same peer succeeding after them, and writes into two MRs
 * that share a page (with the provider's keys only the first becomes a
 * Wind region: the second overlaps it, and the write into it goes the
 * software way), and 64 MRs side by side at no alignment (many_mrs());
 * with the provider's keys the server checks that those carry no
 * structure (check_keys()); the server then checks
 * its memory, the FI_REMOTE_CQ_DATA completion and its FI_RMA_EVENT
 * counters (the endpoint's remote writes and reads, the MR's remote
 * writes: exactly the operations that succeeded), and reports back.
 * With FI_RMA_TEST_IPV6=1 in the environment both ends ask for IPv6
 * endpoints (FI_SOCKADDR_IN6).
 * Last, the server closes its endpoint and removes FILE, and a read the
 * client posts then must complete in error (Wind reports the closed
 * port), not hang.  Exit status 0 when every check passed; each failure
 * prints "FAIL: ...".
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#define TIMEOUT_MS	60000
#define MRLEN		16384
#define PGOFF		104	/* the MR starts this far into a page (8-aligned) */
#define W_OFF		0	/* fi_write area */
#define W_LEN		8192
#define WD_OFF		8192	/* fi_writedata area */
#define WD_LEN		100
#define WD_DATA		0x5eed1234ULL
#define R_OFF		9000	/* the server's pattern, read by the client */
#define R_LEN		4096
#define A_OFF		13312	/* atomics: 64 int64 */
/* Many MRs side by side, at no alignment: NMR of MLEN bytes from MPRE
 * bytes into a page (4 a page share it), guards of MGUARD around them */
#define NMR		64
#define MLEN		1000
#define MPRE		100
#define MGUARD		0xee
#define MTOTAL		(MPRE + NMR * MLEN + 4096)
#define NPAST		4	/* MRs written one byte past their end */

static int failures;
static struct fi_info *info;
static struct fid_fabric *fabric;
static struct fid_domain *domain;
static struct fid_av *av;
static struct fid_ep *ep;
static struct fid_cq *cq;
static bool prov_keys;

struct srvinfo {
	struct sockaddr_in6 name;	/* an IPv4 or IPv6 endpoint name */
	uint64_t key, rokey;
	uint64_t ovkey[2];	/* two MRs that share a page */
	uint64_t mkey[NMR];	/* the many MRs */
};

#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); \
		       fflush(stdout); failures++; } while (0)

#define CHECK(call) do { \
	long _r = (long)(call); \
	if (_r < 0) { \
		printf("FAIL: %s: %s (%ld)\n", #call, fi_strerror(-_r), _r); \
		exit(1); \
	} \
} while (0)

static unsigned char pat(int seed, size_t i)
{
	return (unsigned char)(seed * 37 + i * 11 + (i >> 8));
}

static void setup(void)
{
	struct fi_info *hints = fi_allocinfo();
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_DATA };

	hints->caps = FI_MSG | FI_RMA | FI_ATOMIC | FI_RMA_EVENT;
	hints->ep_attr->type = FI_EP_RDM;
	hints->fabric_attr->prov_name = strdup("wind");
	hints->domain_attr->mr_mode = prov_keys ? FI_MR_PROV_KEY : 0;
	hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
	/* FI_RMA_TEST_IPV6=1: IPv6 endpoints (AF_INET6 Wind sockets) */
	if (getenv("FI_RMA_TEST_IPV6"))
		hints->addr_format = FI_SOCKADDR_IN6;
	CHECK(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info));
	fi_freeinfo(hints);
	if (!(info->caps & FI_RMA) || !(info->caps & FI_ATOMIC) ||
	    !(info->caps & FI_RMA_EVENT))
		FAIL("caps %#llx lack FI_RMA, FI_ATOMIC or FI_RMA_EVENT",
		     (unsigned long long)info->caps);
	if (prov_keys != !!(info->domain_attr->mr_mode & FI_MR_PROV_KEY))
		FAIL("mr_mode %#x", info->domain_attr->mr_mode);
	if (getenv("FI_RMA_TEST_IPV6") && info->addr_format != FI_SOCKADDR_IN6)
		FAIL("addr_format %u, not FI_SOCKADDR_IN6", info->addr_format);
	if (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR)
		FAIL("FI_MR_VIRT_ADDR: this test uses offsets");
	CHECK(fi_fabric(info->fabric_attr, &fabric, NULL));
	CHECK(fi_domain(fabric, info, &domain, NULL));
	CHECK(fi_av_open(domain, &ava, &av, NULL));
	CHECK(fi_endpoint(domain, info, &ep, NULL));
	CHECK(fi_cq_open(domain, &cqa, &cq, NULL));
	CHECK(fi_ep_bind(ep, &av->fid, 0));
	CHECK(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV));
	CHECK(fi_enable(ep));
}

/* One completion: 0 and *c, or 1 and *e for an error entry. */
static int wait_one(struct fi_cq_data_entry *c, struct fi_cq_err_entry *e)
{
	int waited = 0;
	ssize_t r;

	for (;;) {
		r = fi_cq_sread(cq, c, 1, NULL, 100);
		if (r == 1)
			return 0;
		if (r == -FI_EAVAIL) {
			memset(e, 0, sizeof(*e));
			CHECK(fi_cq_readerr(cq, e, 0));
			return 1;
		}
		if (r != -FI_EAGAIN)
			CHECK(r);
		waited += 100;
		if (waited > TIMEOUT_MS) {
			FAIL("no completion within %d ms", TIMEOUT_MS);
			exit(1);
		}
	}
}

/* The completion of the operation just posted with context @ctx. */
static int complete(void *ctx, uint64_t want_flags, struct fi_cq_err_entry *e)
{
	struct fi_cq_data_entry c;
	struct fi_cq_err_entry dummy;

	if (!e)
		e = &dummy;
	if (wait_one(&c, e)) {
		if (e->op_context != ctx)
			FAIL("error completion for %p, not %p", e->op_context, ctx);
		return 1;
	}
	if (c.op_context != ctx)
		FAIL("completion for %p, not %p", c.op_context, ctx);
	if ((c.flags & want_flags) != want_flags)
		FAIL("completion flags %#llx lack %#llx",
		     (unsigned long long)c.flags, (unsigned long long)want_flags);
	return 0;
}

#define POST(call) do { ssize_t _r; \
	while ((_r = (call)) == -FI_EAGAIN) \
		fi_cq_read(cq, NULL, 0); \
	CHECK(_r); } while (0)

static void must_ok(void *ctx, uint64_t flags, const char *what)
{
	struct fi_cq_err_entry e;

	if (complete(ctx, flags, &e))
		FAIL("%s: error completion %s (prov %d)", what, fi_strerror(e.err),
		     e.prov_errno);
}

static void must_fail(void *ctx, const char *what)
{
	struct fi_cq_err_entry e;

	if (!complete(ctx, 0, &e))
		FAIL("%s succeeded", what);
	else
		printf("# %s: %s, as it should\n", what, fi_strerror(e.err));
}

/* must_fail(), and the error must be @want */
static void must_fail_with(void *ctx, const char *what, int want)
{
	struct fi_cq_err_entry e;

	if (!complete(ctx, 0, &e))
		FAIL("%s succeeded", what);
	else if (e.err != want)
		FAIL("%s: error %s (%d), not %s", what, fi_strerror(e.err),
		     e.err, fi_strerror(want));
	else
		printf("# %s: %s, as it should\n", what, fi_strerror(e.err));
}

/*
 * PIPE writes to one target posted back to back, none waited for: those
 * into the fi_write area again (the same bytes, 512 each) must succeed,
 * the others (a wrong key; past the MR's pages) must fail, each with
 * its own error completion.  With the provider's keys those with the
 * right key are in flight at once as async Direct Map messages, and the
 * target's kernel refuses the ones past the pages on the error queue,
 * naming each; the wrong key goes the software way.
 */
#define PIPE		12
#define PIPE_OK		6	/* j % 4 is 0 or 2 */
static void pipelined_writes(fi_addr_t s, uint64_t key)
{
	static char src[W_LEN];
	int ctxs[PIPE], seen[PIPE] = { 0 };
	int j, n;

	for (j = 0; j < W_LEN; j++)
		src[j] = pat(3, j);
	for (j = 0; j < PIPE; j++) {
		uint64_t k = j % 4 == 1 ? key ^ 0x5a5a0000ULL : key;
		uint64_t off = j % 4 == 3 ? MRLEN + 8192 : W_OFF + j * 512;

		POST(fi_write(ep, src + j * 512, 512, NULL, s, off, k,
			      &ctxs[j]));
	}
	for (n = 0; n < PIPE; n++) {
		struct fi_cq_data_entry c;
		struct fi_cq_err_entry e;
		int err = wait_one(&c, &e);
		void *ctx = err ? e.op_context : c.op_context;

		for (j = 0; j < PIPE && ctx != &ctxs[j]; j++)
			;
		if (j == PIPE) {
			FAIL("pipelined writes: a completion for %p", ctx);
			continue;
		}
		seen[j]++;
		if (j % 2 == 0 && err)
			FAIL("pipelined write %d: error %s", j, fi_strerror(e.err));
		else if (j % 2 == 0 && !(c.flags & FI_WRITE))
			FAIL("pipelined write %d: flags %#llx", j,
			     (unsigned long long)c.flags);
		else if (j % 2 && !err)
			FAIL("pipelined write %d (bad) succeeded", j);
		else if (j % 4 == 1 && e.err != FI_EKEYREJECTED)
			FAIL("pipelined write %d (wrong key): %s", j,
			     fi_strerror(e.err));
		else if (j % 4 == 3 && e.err != FI_EINVAL)
			FAIL("pipelined write %d (past the pages): %s", j,
			     fi_strerror(e.err));
	}
	for (j = 0; j < PIPE; j++)
		if (seen[j] != 1)
			FAIL("pipelined write %d: %d completions", j, seen[j]);
	printf("# %d pipelined writes to one target: %d done, %d refused, each its own\n",
	       PIPE, PIPE_OK, PIPE - PIPE_OK);
}

/* What many MR @i must hold once the client is done: its pattern, its
 * last byte 'L', the int64 at offset 4 plus 1 */
static void many_expected(int i, unsigned char *out)
{
	int64_t v;
	int j;

	for (j = 0; j < MLEN; j++)
		out[j] = pat(30 + i % 8, j);
	out[MLEN - 1] = 'L';
	memcpy(&v, out + 4, 8);
	v += 1;
	memcpy(out + 4, &v, 8);
}

/* The MRs named one byte past their end */
static bool many_past(int i)
{
	return i == 0 || i == 1 || i == NMR / 2 || i == NMR - 1;
}

/* The provider's keys carry no structure: distinct, their low 32 bits
 * (the region ids) too, and every bit position set in one and clear in
 * another */
static void check_keys(const uint64_t *k, int n)
{
	uint64_t any = 0, all = ~0ULL;
	int i, j;

	for (i = 0; i < n; i++) {
		any |= k[i];
		all &= k[i];
		for (j = 0; j < i; j++)
			if (k[i] == k[j] || (uint32_t)k[i] == (uint32_t)k[j])
				FAIL("server: MR keys %d and %d: %#llx, %#llx", j, i,
				     (unsigned long long)k[j],
				     (unsigned long long)k[i]);
	}
	if (any != ~0ULL || all)
		FAIL("server: over %d MR keys bits %#llx are never set, %#llx always",
		     n, (unsigned long long)~any, (unsigned long long)all);
	else
		printf("# server: %d MR keys distinct, each of the 64 bits set in some and clear in others\n",
		       n);
}

static char *page_buf(void)
{
	char *p;

	if (posix_memalign((void **)&p, 4096, MRLEN + 2 * 4096))
		exit(1);
	memset(p, 0, MRLEN + 2 * 4096);
	return p + PGOFF;
}

static int server(const char *file)
{
	char *mem = page_buf(), *ro = page_buf(), *ov = page_buf();
	unsigned char *many, exp[MLEN];
	struct fid_mr *mr, *romr, *ovmr[2], *mmr[NMR];
	struct fid_cntr *rwc, *rrc, *mwc;
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP };
	struct srvinfo si;
	size_t len = sizeof(si.name);
	struct fi_cq_data_entry c;
	struct fi_cq_err_entry e;
	int64_t *a = (int64_t *)(mem + A_OFF);
	bool got_data = false;
	struct sockaddr_in6 done;
	int ctx, verdict, i;
	FILE *f;

	setup();
	for (i = 0; i < R_LEN; i++)
		mem[R_OFF + i] = pat(9, i);
	a[0] = 10;		/* SUM */
	a[1] = 100;		/* CSWAP */
	a[2] = 50;		/* int32 MIN/MAX in the low half */
	*(double *)&a[3] = 1.5;	/* double SUM */
	a[4] = 0x0f;		/* uint8 BOR */
	a[5] = 77;		/* ATOMIC_WRITE */
	for (i = 0; i < 16; i++)
		a[16 + i] = i;	/* vector SUM */
	/* FI_RMA_EVENT: the endpoint counts remote writes and reads, the
	 * MR the remote writes into it (Direct Map ones included) */
	CHECK(fi_cntr_open(domain, &ca, &rwc, NULL));
	CHECK(fi_cntr_open(domain, &ca, &rrc, NULL));
	CHECK(fi_cntr_open(domain, &ca, &mwc, NULL));
	CHECK(fi_ep_bind(ep, &rwc->fid, FI_REMOTE_WRITE));
	CHECK(fi_ep_bind(ep, &rrc->fid, FI_REMOTE_READ));
	CHECK(fi_mr_reg(domain, mem, MRLEN, FI_REMOTE_READ | FI_REMOTE_WRITE,
			0, 1, FI_RMA_EVENT, &mr, NULL));
	CHECK(fi_mr_bind(mr, &mwc->fid, FI_REMOTE_WRITE));
	CHECK(fi_mr_enable(mr));
	CHECK(fi_mr_reg(domain, ro, MRLEN, FI_REMOTE_READ, 0, 2, 0, &romr, NULL));
	CHECK(fi_mr_reg(domain, ov, 8192, FI_REMOTE_WRITE, 0, 3, 0, &ovmr[0], NULL));
	CHECK(fi_mr_reg(domain, ov + 4096, 4096, FI_REMOTE_WRITE, 0, 4, 0,
			&ovmr[1], NULL));
	si.ovkey[0] = fi_mr_key(ovmr[0]);
	si.ovkey[1] = fi_mr_key(ovmr[1]);
	if (posix_memalign((void **)&many, 4096, MTOTAL))
		return 1;
	memset(many, MGUARD, MTOTAL);
	for (i = 0; i < NMR; i++) {
		CHECK(fi_mr_reg(domain, many + MPRE + i * MLEN, MLEN,
				FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 100 + i, 0,
				&mmr[i], NULL));
		si.mkey[i] = fi_mr_key(mmr[i]);
	}
	if (prov_keys)
		check_keys(si.mkey, NMR);
	CHECK(fi_getname(&ep->fid, &si.name, &len));
	si.key = fi_mr_key(mr);
	si.rokey = fi_mr_key(romr);
	printf("# server: MR key %#llx, read-only MR key %#llx\n",
	       (unsigned long long)si.key, (unsigned long long)si.rokey);
	f = fopen(file, "w");
	if (!f || fwrite(&si, sizeof(si), 1, f) != 1 || fclose(f))
		return 1;
	/* serve until the client says done */
	CHECK(fi_recv(ep, &done, sizeof(done), NULL, FI_ADDR_UNSPEC, &ctx));
	for (;;) {
		if (wait_one(&c, &e)) {
			FAIL("server: error completion %s", fi_strerror(e.err));
			continue;
		}
		if (c.flags & FI_REMOTE_CQ_DATA) {
			if (!(c.flags & FI_REMOTE_WRITE) || c.data != WD_DATA ||
			    c.len != WD_LEN)
				FAIL("remote CQ data: flags %#llx data %#llx len %zu",
				     (unsigned long long)c.flags,
				     (unsigned long long)c.data, c.len);
			got_data = true;
			continue;
		}
		if (c.op_context == &ctx)
			break;
	}
	if (!got_data)
		FAIL("no FI_REMOTE_CQ_DATA completion for fi_writedata");
	/* the remote operations that succeeded: writes: fi_write,
	 * fi_writedata, 12 atomics that write, 2 into the MRs sharing a
	 * page, PIPE_OK pipelined ones; reads: 3 of the MR, 1 of the
	 * read-only one, 1 ATOMIC_READ; into the MR: the 2 writes, the 12
	 * atomics and the pipelined ones; and for each of the many MRs 2
	 * writes and an atomic, 2 reads */
	printf("# server: FI_RMA_EVENT counters: remote writes %llu, remote reads %llu, writes into the MR %llu\n",
	       (unsigned long long)fi_cntr_read(rwc),
	       (unsigned long long)fi_cntr_read(rrc),
	       (unsigned long long)fi_cntr_read(mwc));
	if (fi_cntr_read(rwc) != 16 + PIPE_OK + 3 * NMR ||
	    fi_cntr_read(rrc) != 5 + 2 * NMR ||
	    fi_cntr_read(mwc) != 14 + PIPE_OK)
		FAIL("server: FI_RMA_EVENT counters %llu %llu %llu, want %d %d %d",
		     (unsigned long long)fi_cntr_read(rwc),
		     (unsigned long long)fi_cntr_read(rrc),
		     (unsigned long long)fi_cntr_read(mwc),
		     16 + PIPE_OK + 3 * NMR, 5 + 2 * NMR, 14 + PIPE_OK);
	if (fi_cntr_readerr(rwc) || fi_cntr_readerr(rrc) || fi_cntr_readerr(mwc))
		FAIL("server: FI_RMA_EVENT error counts");
	for (i = 0; i < W_LEN; i++)
		if ((unsigned char)mem[W_OFF + i] != pat(3, i)) {
			FAIL("server: fi_write byte %d is %#x", i, mem[W_OFF + i] & 0xff);
			break;
		}
	for (i = 0; i < WD_LEN; i++)
		if ((unsigned char)mem[WD_OFF + i] != pat(4, i)) {
			FAIL("server: fi_writedata byte %d is %#x", i, mem[WD_OFF + i] & 0xff);
			break;
		}
	if (a[0] != 26 || a[1] != 200 || *(int32_t *)&a[2] != 70 ||
	    *(double *)&a[3] != 3.75 || a[4] != 0xff || a[5] != 88)
		FAIL("server: atomics left %lld %lld %d %g %lld %lld",
		     (long long)a[0], (long long)a[1], *(int32_t *)&a[2],
		     *(double *)&a[3], (long long)a[4], (long long)a[5]);
	for (i = 0; i < 16; i++)
		if (a[16 + i] != i + 100)
			FAIL("server: vector SUM [%d] = %lld", i, (long long)a[16 + i]);
	for (i = 0; i < MRLEN; i++)
		if (ro[i]) {
			FAIL("server: the read-only MR was written at %d", i);
			break;
		}
	for (i = 0; i < 8192; i++)
		if ((unsigned char)ov[i] != pat(i < 4096 ? 5 : 6, i % 4096)) {
			FAIL("server: overlapping MRs: byte %d is %#x", i, ov[i] & 0xff);
			break;
		}
	/* the many MRs: exactly their bytes written, the guards not */
	for (i = 0; i < NMR; i++) {
		many_expected(i, exp);
		if (memcmp(many + MPRE + i * MLEN, exp, MLEN))
			FAIL("server: many MR %d holds other bytes", i);
	}
	for (i = 0; i < MTOTAL; i++)
		if ((i < MPRE || i >= MPRE + NMR * MLEN) && many[i] != MGUARD) {
			FAIL("server: byte %d beside the many MRs is %#x", i,
			     many[i]);
			break;
		}
	verdict = failures;
	{
		fi_addr_t peer;

		/* "done" carries the client's name */
		if (fi_av_insert(av, &done, 1, &peer, 0, NULL) != 1) {
			FAIL("server: fi_av_insert");
			return 1;
		}
		POST(fi_send(ep, &verdict, sizeof(verdict), NULL, peer, &ctx));
		must_ok(&ctx, FI_SEND, "server: verdict");
	}
	fi_close(&mr->fid);
	fi_close(&romr->fid);
	fi_close(&ovmr[0]->fid);
	fi_close(&ovmr[1]->fid);
	for (i = 0; i < NMR; i++)
		fi_close(&mmr[i]->fid);
	free(many);
	fi_close(&ep->fid);
	ep = NULL;
	fi_close(&rwc->fid);
	fi_close(&rrc->fid);
	fi_close(&mwc->fid);
	printf("# server: %d failures\n", failures);
	return failures ? 1 : 0;
}

/*
 * The many MRs, at no alignment and 4 to a page: a read of each first
 * (the target's answer tells the initiator the key is a Direct Map
 * region), then writes of all of it and of its last byte (Direct Map with
 * the provider's keys), writes one byte past the end of NPAST of them
 * (refused by the target's kernel, ERANGE, then by the target: FI_EINVAL),
 * an atomic, and a read of all of it, checked.
 */
static void many_mrs(fi_addr_t s, const struct srvinfo *si)
{
	unsigned char b[MLEN], exp[MLEN];
	int ctx, i, j;
	int64_t one = 1;

	for (i = 0; i < NMR; i++) {
		POST(fi_read(ep, b, 8, NULL, s, 0, si->mkey[i], &ctx));
		must_ok(&ctx, FI_READ, "fi_read of a many MR");
		for (j = 0; j < 8; j++)
			if (b[j] != MGUARD)
				FAIL("many MR %d: byte %d is %#x before any write",
				     i, j, b[j]);
	}
	for (i = 0; i < NMR; i++) {
		for (j = 0; j < MLEN; j++)
			b[j] = pat(30 + i % 8, j);
		POST(fi_write(ep, b, MLEN, NULL, s, 0, si->mkey[i], &ctx));
		must_ok(&ctx, FI_WRITE, "fi_write of all of a many MR");
	}
	for (i = 0; i < NMR; i++) {
		POST(fi_write(ep, "L", 1, NULL, s, MLEN - 1, si->mkey[i], &ctx));
		must_ok(&ctx, FI_WRITE, "fi_write of the last byte of a many MR");
	}
	for (i = 0; i < NMR; i++) {
		if (!many_past(i))
			continue;
		POST(fi_write(ep, "XY", 2, NULL, s, MLEN - 1, si->mkey[i], &ctx));
		must_fail_with(&ctx, "fi_write of a many MR's last byte and one past it",
			       FI_EINVAL);
		POST(fi_write(ep, "X", 1, NULL, s, MLEN, si->mkey[i], &ctx));
		must_fail_with(&ctx, "fi_write of the byte past a many MR",
			       FI_EINVAL);
	}
	for (i = 0; i < NMR; i++) {
		POST(fi_atomic(ep, &one, 1, NULL, s, 4, si->mkey[i], FI_INT64,
			       FI_SUM, &ctx));
		must_ok(&ctx, FI_ATOMIC, "fi_atomic on a many MR");
	}
	for (i = 0; i < NMR; i++) {
		POST(fi_read(ep, b, MLEN, NULL, s, 0, si->mkey[i], &ctx));
		must_ok(&ctx, FI_READ, "fi_read of all of a many MR");
		many_expected(i, exp);
		for (j = 0; j < MLEN; j++)
			if (b[j] != exp[j]) {
				FAIL("many MR %d: byte %d is %#x, not %#x", i, j,
				     b[j], exp[j]);
				break;
			}
	}
	printf("# %d MRs side by side at no alignment: written whole and at their last byte, %d refused one byte past it, atomics, read back\n",
	       NMR, 2 * NPAST);
}

static int client(const char *file)
{
	char *buf = malloc(W_LEN), *rd = malloc(W_LEN);
	struct sockaddr_in6 myname;
	size_t len = sizeof(myname);
	struct fi_atomic_attr aa;
	struct srvinfo si;
	fi_addr_t s;
	uint64_t key;
	int64_t v, r64, cmp;
	int32_t i32, r32;
	double d, rd64;
	uint8_t u8, r8;
	int64_t vec[16], vres[16];
	int ctx, verdict = -1, i;
	FILE *f;

	setup();
	f = fopen(file, "r");
	if (!f || fread(&si, sizeof(si), 1, f) != 1) {
		FAIL("cannot read %s", file);
		return 1;
	}
	fclose(f);
	key = si.key;
	CHECK(fi_getname(&ep->fid, &myname, &len));
	if (fi_av_insert(av, &si.name, 1, &s, 0, NULL) != 1) {
		FAIL("fi_av_insert");
		return 1;
	}
	printf("# client: MR key %#llx%s\n", (unsigned long long)key,
	       prov_keys ? " (provider's)" : "");
	if (fi_query_atomic(domain, FI_INT64, FI_SUM, &aa, FI_FETCH_ATOMIC) ||
	    aa.size != 8 || aa.count < 16)
		FAIL("fi_query_atomic(INT64, SUM, FETCH): size %zu count %zu",
		     aa.size, aa.count);
	if (fi_query_atomic(domain, FI_DOUBLE, FI_BOR, &aa, 0) != -FI_EOPNOTSUPP)
		FAIL("fi_query_atomic(DOUBLE, BOR) is supported?");

	/* writes */
	for (i = 0; i < W_LEN; i++)
		buf[i] = pat(3, i);
	POST(fi_write(ep, buf, W_LEN, NULL, s, W_OFF, key, &ctx));
	must_ok(&ctx, FI_RMA | FI_WRITE, "fi_write 8 KiB");
	for (i = 0; i < WD_LEN; i++)
		buf[i] = pat(4, i);
	POST(fi_writedata(ep, buf, WD_LEN, NULL, WD_DATA, s, WD_OFF, key, &ctx));
	must_ok(&ctx, FI_RMA | FI_WRITE, "fi_writedata");

	/* reads: the server's pattern, and our write back */
	POST(fi_read(ep, rd, R_LEN, NULL, s, R_OFF, key, &ctx));
	must_ok(&ctx, FI_RMA | FI_READ, "fi_read 4 KiB");
	for (i = 0; i < R_LEN; i++)
		if ((unsigned char)rd[i] != pat(9, i)) {
			FAIL("fi_read byte %d is %#x", i, rd[i] & 0xff);
			break;
		}
	memset(rd, 0, W_LEN);
	POST(fi_read(ep, rd, W_LEN, NULL, s, W_OFF, key, &ctx));
	must_ok(&ctx, FI_RMA | FI_READ, "fi_read of the write");
	for (i = 0; i < W_LEN; i++)
		if ((unsigned char)rd[i] != pat(3, i)) {
			FAIL("read-back byte %d is %#x", i, rd[i] & 0xff);
			break;
		}

	/* atomics */
	v = 5;
	for (i = 0; i < 3; i++) {
		POST(fi_atomic(ep, &v, 1, NULL, s, A_OFF, key, FI_INT64, FI_SUM, &ctx));
		must_ok(&ctx, FI_ATOMIC | FI_WRITE, "fi_atomic SUM");
	}
	v = 1;
	POST(fi_fetch_atomic(ep, &v, 1, NULL, &r64, NULL, s, A_OFF, key, FI_INT64,
			     FI_SUM, &ctx));
	must_ok(&ctx, FI_ATOMIC | FI_READ, "fi_fetch_atomic SUM");
	if (r64 != 25)
		FAIL("fetch SUM fetched %lld, want 25", (long long)r64);
	v = 200;
	cmp = 100;
	POST(fi_compare_atomic(ep, &v, 1, NULL, &cmp, NULL, &r64, NULL, s,
			       A_OFF + 8, key, FI_INT64, FI_CSWAP, &ctx));
	must_ok(&ctx, FI_ATOMIC | FI_READ, "fi_compare_atomic CSWAP");
	if (r64 != 100)
		FAIL("CSWAP fetched %lld, want 100", (long long)r64);
	v = 300;
	POST(fi_compare_atomic(ep, &v, 1, NULL, &cmp, NULL, &r64, NULL, s,
			       A_OFF + 8, key, FI_INT64, FI_CSWAP, &ctx));
	must_ok(&ctx, FI_ATOMIC | FI_READ, "fi_compare_atomic CSWAP (mismatch)");
	if (r64 != 200)
		FAIL("CSWAP (mismatch) fetched %lld, want 200", (long long)r64);
	POST(fi_fetch_atomic(ep, NULL, 1, NULL, &r64, NULL, s, A_OFF + 8, key,
			     FI_INT64, FI_ATOMIC_READ, &ctx));
	must_ok(&ctx, FI_ATOMIC | FI_READ, "fi_fetch_atomic ATOMIC_READ");
	if (r64 != 200)
		FAIL("ATOMIC_READ fetched %lld, want 200", (long long)r64);
	i32 = 20;
	POST(fi_atomic(ep, &i32, 1, NULL, s, A_OFF + 16, key, FI_INT32, FI_MIN, &ctx));
	must_ok(&ctx, FI_ATOMIC, "fi_atomic INT32 MIN");
	i32 = 70;
	POST(fi_fetch_atomic(ep, &i32, 1, NULL, &r32, NULL, s, A_OFF + 16, key,
			     FI_INT32, FI_MAX, &ctx));
	must_ok(&ctx, FI_ATOMIC, "fi_fetch_atomic INT32 MAX");
	if (r32 != 20)
		FAIL("INT32 MAX fetched %d, want 20 (after MIN 20)", r32);
	d = 2.25;
	POST(fi_fetch_atomic(ep, &d, 1, NULL, &rd64, NULL, s, A_OFF + 24, key,
			     FI_DOUBLE, FI_SUM, &ctx));
	must_ok(&ctx, FI_ATOMIC, "fi_fetch_atomic DOUBLE SUM");
	if (rd64 != 1.5)
		FAIL("DOUBLE SUM fetched %g, want 1.5", rd64);
	u8 = 0xf0;
	POST(fi_fetch_atomic(ep, &u8, 1, NULL, &r8, NULL, s, A_OFF + 32, key,
			     FI_UINT8, FI_BOR, &ctx));
	must_ok(&ctx, FI_ATOMIC, "fi_fetch_atomic UINT8 BOR");
	if (r8 != 0x0f)
		FAIL("UINT8 BOR fetched %#x, want 0xf", r8);
	v = 88;
	POST(fi_fetch_atomic(ep, &v, 1, NULL, &r64, NULL, s, A_OFF + 40, key,
			     FI_INT64, FI_ATOMIC_WRITE, &ctx));
	must_ok(&ctx, FI_ATOMIC, "fi_fetch_atomic ATOMIC_WRITE (swap)");
	if (r64 != 77)
		FAIL("swap fetched %lld, want 77", (long long)r64);
	for (i = 0; i < 16; i++)
		vec[i] = 100;
	POST(fi_fetch_atomic(ep, vec, 16, NULL, vres, NULL, s, A_OFF + 128, key,
			     FI_INT64, FI_SUM, &ctx));
	must_ok(&ctx, FI_ATOMIC, "fi_fetch_atomic 16 x INT64 SUM");
	for (i = 0; i < 16; i++)
		if (vres[i] != i)
			FAIL("vector SUM fetched [%d] = %lld", i, (long long)vres[i]);
	if (fi_atomic(ep, &d, 1, NULL, s, A_OFF, key, FI_DOUBLE, FI_BXOR, &ctx) !=
	    -FI_EOPNOTSUPP)
		FAIL("fi_atomic DOUBLE BXOR was taken");

	/* errors come back as error completions.  With the provider's keys
	 * the two writes are async Direct Map messages that the target's
	 * kernel refuses (EACCES, ERANGE on the error queue): each must fail
	 * only itself, with the target's own verdict, and the peer stays */
	POST(fi_write(ep, buf, 64, NULL, s, 0, key ^ 0x5a5a0000ULL, &ctx));
	must_fail_with(&ctx, "fi_write with a wrong key", FI_EKEYREJECTED);
	POST(fi_write(ep, buf, 64, NULL, s, MRLEN + 8192, key, &ctx));
	must_fail_with(&ctx, "fi_write past the MR's pages", FI_EINVAL);
	memset(rd, 0, R_LEN);
	POST(fi_read(ep, rd, R_LEN, NULL, s, R_OFF, key, &ctx));
	must_ok(&ctx, FI_RMA | FI_READ, "fi_read after the refused writes");
	for (i = 0; i < R_LEN; i++)
		if ((unsigned char)rd[i] != pat(9, i)) {
			FAIL("fi_read after the refused writes: byte %d is %#x",
			     i, rd[i] & 0xff);
			break;
		}
	pipelined_writes(s, key);
	POST(fi_read(ep, rd, 64, NULL, s, MRLEN - 32, key, &ctx));
	must_fail(&ctx, "fi_read past the MR's end");
	POST(fi_write(ep, buf, 64, NULL, s, 0, si.rokey, &ctx));
	must_fail(&ctx, "fi_write into a read-only MR");
	POST(fi_atomic(ep, &v, 1, NULL, s, 0, si.rokey, FI_INT64, FI_SUM, &ctx));
	must_fail(&ctx, "fi_atomic on a read-only MR");
	POST(fi_read(ep, rd, 64, NULL, s, 0, si.rokey, &ctx));
	must_ok(&ctx, FI_READ, "fi_read of the read-only MR");

	/* two MRs sharing a page: the first 4 KiB through the first, the
	 * next through the second */
	for (i = 0; i < 4096; i++)
		buf[i] = pat(5, i);
	POST(fi_write(ep, buf, 4096, NULL, s, 0, si.ovkey[0], &ctx));
	must_ok(&ctx, FI_WRITE, "fi_write into the first of two MRs sharing a page");
	for (i = 0; i < 4096; i++)
		buf[i] = pat(6, i);
	POST(fi_write(ep, buf, 4096, NULL, s, 0, si.ovkey[1], &ctx));
	must_ok(&ctx, FI_WRITE, "fi_write into the second of two MRs sharing a page");

	many_mrs(s, &si);

	/* done: the server checks its memory and answers */
	CHECK(fi_recv(ep, &verdict, sizeof(verdict), NULL, FI_ADDR_UNSPEC, &i));
	POST(fi_send(ep, &myname, sizeof(myname), NULL, s, &ctx));
	must_ok(&ctx, FI_SEND, "done");
	must_ok(&i, FI_RECV, "verdict");
	if (verdict)
		FAIL("the server found %d failures", verdict);

	/* a read from a peer that is gone fails */
	for (i = 0; i < 600 && access(file, F_OK) == 0; i++)
		usleep(50000);
	if (i == 600)
		FAIL("the server did not go away");
	POST(fi_read(ep, rd, 64, NULL, s, R_OFF, key, &ctx));
	must_fail(&ctx, "fi_read from a closed endpoint");
	printf("# client: %d failures\n", failures);
	if (!failures)
		printf("fi_rma_test: OK (%s keys)\n", prov_keys ? "provider" : "user");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc != 4 || (strcmp(argv[3], "prov") && strcmp(argv[3], "user"))) {
		fprintf(stderr, "usage: fi_rma_test server|client FILE prov|user\n");
		return 2;
	}
	prov_keys = !strcmp(argv[3], "prov");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "server"))
		ret = server(argv[2]);
	else
		ret = client(argv[2]);
	if (ep)
		fi_close(&ep->fid);
	if (!strcmp(argv[1], "server"))
		unlink(argv[2]);	/* the client's cue: we are gone */
	if (cq)
		fi_close(&cq->fid);
	if (av)
		fi_close(&av->fid);
	if (domain)
		fi_close(&domain->fid);
	if (fabric)
		fi_close(&fabric->fid);
	fi_freeinfo(info);
	return ret;
}
