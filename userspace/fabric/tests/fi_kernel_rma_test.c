// SPDX-License-Identifier: GPL-2.0
/*
 * fi_kernel_rma_test: reads and atomics of the "wind" provider served by
 * the target's kernel while the target process never calls libfabric.
 *
 *   fi_kernel_rma_test server FILE   registers an MR, writes its name,
 *                                    key and address to FILE, then sleeps
 *                                    until FILE.done appears (at most
 *                                    WAIT_S), with no libfabric call
 *   fi_kernel_rma_test client FILE   reads and runs atomics, each checked,
 *                                    then creates FILE.done
 *
 * The server asks for FI_PROGRESS_MANUAL (FI_WIND_PROGRESS=manual in its
 * environment, set by the caller): nothing of its process serves a
 * request while it sleeps.  The client's reads (8 KiB and 64 KiB), 200
 * fetch-and-adds (every old value seen once), compare-and-swaps that
 * fail and succeed, a swap, an atomic read and non-fetching sums must
 * all complete before FILE.done, or the server fails: "the client's
 * operations waited for the server".  The server then checks the words
 * the atomics left.  FI_MR_VIRT_ADDR when the provider gives it: the
 * client names the server's addresses.  Exit 0 when every check passed.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#define MRLEN		(128 * 1024)
#define A_OFF		(100 * 1024)	/* the atomics' words */
#define NADD		200
#define WAIT_S		60
#define TIMEOUT_MS	30000

struct srvinfo {
	struct sockaddr_in6 name;
	uint64_t key, base;	/* base: what names the MR's first byte */
};

static int failures;
static struct fi_info *info;
static struct fid_fabric *fabric;
static struct fid_domain *domain;
static struct fid_av *av;
static struct fid_ep *ep;
static struct fid_cq *cq;

#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); \
		       fflush(stdout); failures++; } while (0)
#define CHECK(call) do { \
	long _r = (long)(call); \
	if (_r < 0) { \
		printf("FAIL: %s: %s (%ld)\n", #call, fi_strerror(-_r), _r); \
		exit(1); \
	} \
} while (0)
#define POST(call) do { ssize_t _r; \
	while ((_r = (call)) == -FI_EAGAIN) \
		fi_cq_read(cq, NULL, 0); \
	CHECK(_r); } while (0)

static unsigned char pat(size_t i)
{
	return (unsigned char)(i * 7 + (i >> 9));
}

static void setup(void)
{
	struct fi_info *hints = fi_allocinfo();
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };

	hints->caps = FI_RMA | FI_ATOMIC;
	hints->ep_attr->type = FI_EP_RDM;
	hints->fabric_attr->prov_name = strdup("wind");
	hints->domain_attr->mr_mode = FI_MR_PROV_KEY | FI_MR_VIRT_ADDR |
				      FI_MR_ALLOCATED;
	hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
	CHECK(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info));
	fi_freeinfo(hints);
	CHECK(fi_fabric(info->fabric_attr, &fabric, NULL));
	CHECK(fi_domain(fabric, info, &domain, NULL));
	CHECK(fi_av_open(domain, &ava, &av, NULL));
	CHECK(fi_endpoint(domain, info, &ep, NULL));
	CHECK(fi_cq_open(domain, &cqa, &cq, NULL));
	CHECK(fi_ep_bind(ep, &av->fid, 0));
	CHECK(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV));
	CHECK(fi_enable(ep));
}

/* The completion of the one operation in flight, context @ctx */
static void must_ok(void *ctx, const char *what)
{
	struct fi_cq_entry c;
	struct fi_cq_err_entry e;
	int waited = 0;
	ssize_t r;

	for (;;) {
		r = fi_cq_read(cq, &c, 1);
		if (r == 1) {
			if (c.op_context != ctx)
				FAIL("%s: completion of %p", what, c.op_context);
			return;
		}
		if (r == -FI_EAVAIL) {
			memset(&e, 0, sizeof(e));
			fi_cq_readerr(cq, &e, 0);
			FAIL("%s: error completion %s (prov %d)", what,
			     fi_strerror(e.err), e.prov_errno);
			return;
		}
		if (r != -FI_EAGAIN)
			CHECK(r);
		usleep(1000);
		waited++;
		if (waited > TIMEOUT_MS) {
			FAIL("%s: no completion within %d ms", what, TIMEOUT_MS);
			exit(1);
		}
	}
}

static void teardown(void)
{
	fi_close(&ep->fid);
	fi_close(&cq->fid);
	fi_close(&av->fid);
	fi_close(&domain->fid);
	fi_close(&fabric->fid);
	fi_freeinfo(info);
}

static char *done_name(const char *file)
{
	char *d = malloc(strlen(file) + 6);

	sprintf(d, "%s.done", file);
	return d;
}

static int server(const char *file)
{
	char *mem, *done = done_name(file);
	uint64_t *a;
	struct fid_mr *mr;
	struct srvinfo si;
	size_t len = sizeof(si.name);
	time_t t0;
	size_t i;
	FILE *f;

	setup();
	if (posix_memalign((void **)&mem, 4096, MRLEN))
		return 1;
	for (i = 0; i < MRLEN; i++)
		mem[i] = pat(i);
	a = (uint64_t *)(mem + A_OFF);
	memset(a, 0, 64);
	a[1] = 41;
	CHECK(fi_mr_reg(domain, mem, MRLEN, FI_REMOTE_READ | FI_REMOTE_WRITE,
			0, 1, 0, &mr, NULL));
	CHECK(fi_getname(&ep->fid, &si.name, &len));
	si.key = fi_mr_key(mr);
	si.base = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ?
		  (uintptr_t)mem : 0;
	printf("# server: MR key %#llx, %s\n", (unsigned long long)si.key,
	       si.base ? "named by address (FI_MR_VIRT_ADDR)" : "by offset");
	fflush(stdout);
	f = fopen(file, "w");
	if (!f || fwrite(&si, sizeof(si), 1, f) != 1 || fclose(f))
		return 1;
	/* no libfabric call from here on until the client is done */
	t0 = time(NULL);
	while (access(done, F_OK) && time(NULL) - t0 < WAIT_S)
		usleep(20000);
	if (access(done, F_OK))
		FAIL("the client's operations waited for the server (%d s)",
		     WAIT_S);
	if (a[0] != NADD || a[1] != 99 || a[2] != 0x5151 || a[3] != 30)
		FAIL("words %llu %llu %#llx %llu, not %d 99 0x5151 30",
		     (unsigned long long)a[0], (unsigned long long)a[1],
		     (unsigned long long)a[2], (unsigned long long)a[3], NADD);
	printf("# server: %d failures\n", failures);
	fi_close(&mr->fid);
	teardown();
	unlink(done);
	return failures ? 1 : 0;
}

static int client(const char *file)
{
	static char rd[65536];
	char *done = done_name(file);
	unsigned char seen[NADD] = { 0 };
	uint64_t one = 1, v, old, cmp, a;
	struct srvinfo si;
	fi_addr_t s;
	int ctx, i;
	FILE *f;

	setup();
	f = fopen(file, "r");
	if (!f || fread(&si, sizeof(si), 1, f) != 1) {
		FAIL("cannot read %s", file);
		return 1;
	}
	fclose(f);
	if (fi_av_insert(av, &si.name, 1, &s, 0, NULL) != 1) {
		FAIL("fi_av_insert");
		return 1;
	}
	/* reads of 8 KiB and 64 KiB at odd offsets */
	POST(fi_read(ep, rd, 8192, NULL, s, si.base + 1000, si.key, &ctx));
	must_ok(&ctx, "fi_read 8 KiB");
	for (i = 0; i < 8192; i++)
		if ((unsigned char)rd[i] != pat(1000 + i)) {
			FAIL("fi_read byte %d", i);
			break;
		}
	POST(fi_read(ep, rd, sizeof(rd), NULL, s, si.base + 3, si.key, &ctx));
	must_ok(&ctx, "fi_read 64 KiB");
	for (i = 0; i < (int)sizeof(rd); i++)
		if ((unsigned char)rd[i] != pat(3 + i)) {
			FAIL("fi_read 64 KiB byte %d", i);
			break;
		}
	a = si.base + A_OFF;
	/* fetch-and-add: every old value once */
	for (i = 0; i < NADD; i++) {
		POST(fi_fetch_atomic(ep, &one, 1, NULL, &old, NULL, s, a, si.key,
				     FI_UINT64, FI_SUM, &ctx));
		must_ok(&ctx, "fi_fetch_atomic SUM");
		if (old >= NADD || seen[old])
			FAIL("fetch-and-add %d: old value %llu", i,
			     (unsigned long long)old);
		else
			seen[old] = 1;
	}
	/* compare-and-swap: a miss, then a hit */
	v = 99;
	cmp = 40;
	POST(fi_compare_atomic(ep, &v, 1, NULL, &cmp, NULL, &old, NULL, s,
			       a + 8, si.key, FI_UINT64, FI_CSWAP, &ctx));
	must_ok(&ctx, "fi_compare_atomic miss");
	if (old != 41)
		FAIL("CSWAP miss: old %llu", (unsigned long long)old);
	cmp = 41;
	POST(fi_compare_atomic(ep, &v, 1, NULL, &cmp, NULL, &old, NULL, s,
			       a + 8, si.key, FI_UINT64, FI_CSWAP, &ctx));
	must_ok(&ctx, "fi_compare_atomic hit");
	if (old != 41)
		FAIL("CSWAP hit: old %llu", (unsigned long long)old);
	/* swap, then an atomic read of it */
	v = 0x5151;
	POST(fi_fetch_atomic(ep, &v, 1, NULL, &old, NULL, s, a + 16, si.key,
			     FI_UINT64, FI_ATOMIC_WRITE, &ctx));
	must_ok(&ctx, "fi_fetch_atomic ATOMIC_WRITE");
	if (old != 0)
		FAIL("swap: old %llu", (unsigned long long)old);
	POST(fi_fetch_atomic(ep, NULL, 1, NULL, &old, NULL, s, a + 16, si.key,
			     FI_UINT64, FI_ATOMIC_READ, &ctx));
	must_ok(&ctx, "fi_fetch_atomic ATOMIC_READ");
	if (old != 0x5151)
		FAIL("atomic read: %#llx", (unsigned long long)old);
	/* non-fetching sums */
	v = 10;
	for (i = 0; i < 3; i++) {
		POST(fi_atomic(ep, &v, 1, NULL, s, a + 24, si.key, FI_UINT64,
			       FI_SUM, &ctx));
		must_ok(&ctx, "fi_atomic SUM");
	}
	f = fopen(done, "w");
	if (f)
		fclose(f);
	printf("# client: %d failures\n", failures);
	teardown();
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: %s server|client FILE\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	return !strcmp(argv[1], "server") ? server(argv[2]) : client(argv[2]);
}
