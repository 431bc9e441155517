// SPDX-License-Identifier: GPL-2.0
/*
 * dsm-app: the four DSM applications in one binary.
 *
 *   dsm-app mm|sor|lu|nqueens [-t wind|udp|udp-replyack] [-n NODES]
 *           [-r RANK] [-a ADDR0,ADDR1,...] [-p PORT] [-s SIZE] [-i ITER]
 *           [-T TIMEOUT_S] [-N NETNS] [-v]
 *
 * Rank 0 checks the result against a sequential computation and prints
 * one JSON line; it exits 0 iff the result is right.  See README.md.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "dsm.h"

static struct dsm_cfg cfg = {
	.transport = DSM_TP_WIND,
	.nodes = 1,
	.port = 7700,
	.timeout_s = 60,
};
static const char *tp_name = "wind";
static int size, iters;

static void block(int n, int *lo, int *hi)	/* this rank's share of n */
{
	int r = dsm_rank(), p = dsm_nodes();

	*lo = (int)((long)n * r / p);
	*hi = (int)((long)n * (r + 1) / p);
}

static int close_enough(double got, double want)
{
	double d = fabs(got - want), m = fabs(want);

	return d <= 1e-9 * (m > 1.0 ? m : 1.0);
}

static int compare(const char *what, const double *got, const double *want,
		   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!close_enough(got[i], want[i])) {
			fprintf(stderr, "dsm-app: %s: element %zu is %.17g, want %.17g\n",
				what, i, got[i], want[i]);
			return 0;
		}
	return 1;
}

/* ---- matrix multiply: C = A B, rows of C in blocks -------------------- */

static double mm_a(int i, int j) { return ((i * 31 + j * 17) % 23) / 7.0 - 1.0; }
static double mm_b(int i, int j) { return ((i * 13 + j * 7) % 19) / 5.0 - 2.0; }

static int app_mm(void)
{
	int n = size, i, j, k, lo, hi, ok = 1;
	size_t sz = (size_t)n * n * sizeof(double);
	double *a, *b, *c;

	dsm_init(&cfg, 3 * DSM_ROUND(sz));
	a = dsm_alloc(sz);
	b = dsm_alloc(sz);
	c = dsm_alloc(sz);
	dsm_barrier();		/* allocated everywhere before first use */
	block(n, &lo, &hi);
	for (i = lo; i < hi; i++)	/* each rank its rows: mostly its pages */
		for (j = 0; j < n; j++) {
			a[i * n + j] = mm_a(i, j);
			b[i * n + j] = mm_b(i, j);
		}
	dsm_barrier();
	dsm_timer_start();
	/*
	 * i-k-j: row k of B is streamed into row i of C, the cache-friendly
	 * order.  Each C element still sums its products in k order, as the
	 * check below does.  (The i-j-k order strides over every row of B
	 * for each element: n pages at a time, which under QEMU TCG runs at
	 * a speed that depends on the emulator's software TLB, not on the
	 * DSM: see bench/NOTES.md, the make demo entry.)
	 */
	for (i = lo; i < hi; i++) {
		for (j = 0; j < n; j++)
			c[i * n + j] = 0;
		for (k = 0; k < n; k++) {
			double aik = a[i * n + k];

			for (j = 0; j < n; j++)
				c[i * n + j] += aik * b[k * n + j];
		}
	}
	dsm_barrier();
	dsm_timer_stop();
	if (dsm_rank() == 0) {
		/*
		 * Freivalds' check, in O(n^2) instead of a second product:
		 * C x = A (B x) for two vectors x of positive entries, each row
		 * within 1e-9 of the sum of the magnitudes of its terms.  Every
		 * element of C is read (through the DSM); a wrong one moves its
		 * row's C x by its error times x_j >= 1.
		 */
		double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
		double *ya = malloc(n * sizeof(double));
		int v;

		if (!x || !y || !ya) {
			fprintf(stderr, "dsm-app: mm: out of memory for the check\n");
			exit(2);
		}
		for (v = 0; v < 2 && ok; v++) {
			for (j = 0; j < n; j++)
				x[j] = v ? 1.0 + (j * 7919 % 13) / 13.0 : 1.0;
			for (k = 0; k < n; k++) {	/* y = B x, ya = |B| x */
				y[k] = ya[k] = 0;
				for (j = 0; j < n; j++) {
					y[k] += mm_b(k, j) * x[j];
					ya[k] += fabs(mm_b(k, j)) * x[j];
				}
			}
			for (i = 0; i < n && ok; i++) {
				double cx = 0, want = 0, mag = 0;

				for (j = 0; j < n; j++)
					cx += c[i * n + j] * x[j];
				for (k = 0; k < n; k++) {
					want += mm_a(i, k) * y[k];
					mag += fabs(mm_a(i, k)) * ya[k];
				}
				if (fabs(cx - want) > 1e-11 * (mag > 1.0 ? mag : 1.0)) {
					fprintf(stderr, "dsm-app: mm: row %d of C times x%d is %.17g, want %.17g\n",
						i, v, cx, want);
					ok = 0;
				}
			}
		}
		free(x);
		free(y);
		free(ya);
	}
	return ok;
}

/* ---- red-black SOR on an (n+2) x (n+2) grid, rows in blocks ----------- */

static double sor_init(int i, int j, int n)
{
	if (i == 0)
		return 1.0;
	if (i == n + 1 || j == 0 || j == n + 1)
		return (j % 3) * 0.5;
	return ((i * 7 + j * 3) % 11) / 11.0;
}

static void sor_sweep(double *u, int n, int lo, int hi, int color)
{
	int w = n + 2, i, j;

	for (i = lo; i < hi; i++)
		for (j = 1 + ((i + 1 + color) & 1); j <= n; j += 2)
			u[i * w + j] = 0.25 * (u[(i - 1) * w + j] +
					       u[(i + 1) * w + j] +
					       u[i * w + j - 1] + u[i * w + j + 1]);
}

static int app_sor(void)
{
	int n = size, w = n + 2, i, j, it, lo, hi, first, end, ok = 1;
	size_t sz = (size_t)w * w * sizeof(double);
	double *u, *want;
	long *verdict;		/* per rank: 1 its rows are right, 2 wrong */

	dsm_init(&cfg, DSM_ROUND(sz) +
		 DSM_ROUND(DSM_MAX_NODES * sizeof(*verdict)));
	u = dsm_alloc(sz);
	verdict = dsm_alloc_home(DSM_MAX_NODES * sizeof(*verdict), 0);
	dsm_barrier();
	block(n, &lo, &hi);
	/* each rank its rows (the first and the last rank the boundaries) */
	first = lo + 1 - !lo;
	end = hi + 1 + (hi == n);
	for (i = first; i < end; i++)
		for (j = 0; j < w; j++)
			u[i * w + j] = sor_init(i, j, n);
	dsm_barrier();
	dsm_timer_start();
	for (it = 0; it < iters; it++) {
		sor_sweep(u, n, lo + 1, hi + 1, 0);	/* red */
		dsm_barrier();
		sor_sweep(u, n, lo + 1, hi + 1, 1);	/* black */
		dsm_barrier();
	}
	dsm_timer_stop();
	/*
	 * Each rank checks its own rows against a sequential run (they are
	 * mostly its own pages: rank 0 fetching the whole grid would cost
	 * more than the computation), and rank 0 collects the verdicts
	 * through the DSM.  A rank that read a stale boundary row computed
	 * wrong rows of its own.
	 */
	want = malloc(sz);
	if (!want) {
		fprintf(stderr, "dsm-app: sor: out of memory for the check\n");
		exit(2);
	}
	for (i = 0; i < w; i++)
		for (j = 0; j < w; j++)
			want[i * w + j] = sor_init(i, j, n);
	for (it = 0; it < iters; it++) {
		sor_sweep(want, n, 1, n + 1, 0);
		sor_sweep(want, n, 1, n + 1, 1);
	}
	verdict[dsm_rank()] = compare("sor", u + (size_t)first * w,
				      want + (size_t)first * w,
				      (size_t)(end - first) * w) ? 1 : 2;
	free(want);
	dsm_barrier();
	if (dsm_rank() == 0)
		for (i = 0; i < dsm_nodes(); i++)
			if (verdict[i] != 1) {
				fprintf(stderr, "dsm-app: sor: rank %d's rows are %s\n",
					i, verdict[i] == 2 ? "wrong" : "unchecked");
				ok = 0;
			}
	return ok;
}

/* ---- LU decomposition without pivoting, rows in blocks ---------------- */

static double lu_init(int i, int j, int n)
{
	return i == j ? n + 1.0 : ((i * 7 + j * 13) % 17) / 17.0 - 0.5;
}

static void lu_step(double *a, int n, int k, int lo, int hi)
{
	int i, j;

	if (lo < k + 1)
		lo = k + 1;
	for (i = lo; i < hi; i++) {
		double l = a[i * n + k] / a[k * n + k];

		a[i * n + k] = l;
		for (j = k + 1; j < n; j++)
			a[i * n + j] -= l * a[k * n + j];
	}
}

static int app_lu(void)
{
	int n = size, i, j, k, lo, hi, ok = 1;
	size_t sz = (size_t)n * n * sizeof(double);
	double *a;

	dsm_init(&cfg, DSM_ROUND(sz));
	a = dsm_alloc(sz);
	dsm_barrier();
	block(n, &lo, &hi);
	for (i = lo; i < hi; i++)	/* each rank its rows */
		for (j = 0; j < n; j++)
			a[i * n + j] = lu_init(i, j, n);
	dsm_barrier();
	dsm_timer_start();
	for (k = 0; k < n - 1; k++) {
		lu_step(a, n, k, lo, hi);
		dsm_barrier();
	}
	dsm_timer_stop();
	if (dsm_rank() == 0) {
		double *want = malloc(sz);

		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				want[i * n + j] = lu_init(i, j, n);
		for (k = 0; k < n - 1; k++)
			lu_step(want, n, k, 0, n);
		ok = compare("lu", a, want, (size_t)n * n);
		free(want);
	}
	return ok;
}

/* ---- N-queens: tasks (first two rows) from a lock-protected counter --- */

static long queens(int n, int row, unsigned cols, unsigned d1, unsigned d2)
{
	unsigned all = (1u << n) - 1, free_ = all & ~(cols | d1 | d2);
	long c = 0;

	if (row == n)
		return 1;
	while (free_) {
		unsigned bit = free_ & -free_;

		free_ -= bit;
		c += queens(n, row + 1, cols | bit, ((d1 | bit) << 1) & all,
			    (d2 | bit) >> 1);
	}
	return c;
}

/* Solutions with queens at columns c0 (row 0) and c1 (row 1) */
static long queens_task(int n, int t)
{
	int c0 = t / n, c1 = t % n;
	unsigned b0 = 1u << c0, b1 = 1u << c1, all = (1u << n) - 1;

	if (n < 2)
		return t == 0 && n == 1;
	if (c0 == c1 || c0 - c1 == 1 || c1 - c0 == 1)
		return 0;
	return queens(n, 2, b0 | b1, (((b0 << 1) | b1) << 1) & all,
		      ((b0 >> 1) | b1) >> 1);
}

struct nq_shared {
	long next;	/* lock 0 */
	long tasks_done;	/* lock 1 */
	long total;	/* lock 1 */
};

static int app_nqueens(void)
{
	int n = size, t, ntasks = n * n;
	long mine = 0, done = 0;
	struct nq_shared *s;
	int ok = 1;

	if (n < 1 || n > 16) {
		fprintf(stderr, "dsm-app: nqueens: size must be 1..16\n");
		exit(2);
	}
	dsm_init(&cfg, DSM_PAGE);
	s = dsm_alloc_home(sizeof(*s), dsm_nodes() - 1);
	dsm_barrier();
	dsm_timer_start();
	for (;;) {
		dsm_lock(0);
		t = (int)s->next++;
		dsm_unlock(0);
		if (t >= ntasks)
			break;
		mine += queens_task(n, t);
		done++;
	}
	dsm_lock(1);
	s->total += mine;
	s->tasks_done += done;
	dsm_unlock(1);
	dsm_barrier();
	dsm_timer_stop();
	if (dsm_rank() == 0) {
		/*
		 * The known counts (OEIS A000170) rather than a second, serial
		 * solve as long as the parallel one; the serial solve for the
		 * sizes the table does not hold.
		 */
		static const long known[17] = { 1, 1, 0, 0, 2, 10, 4, 40, 92,
			352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512 };
		long want = n >= 12 ? known[n] : queens(n, 0, 0, 0, 0);

		if (s->total != want || s->tasks_done != ntasks) {
			fprintf(stderr, "dsm-app: nqueens: %ld solutions in %ld tasks, want %ld in %d\n",
				s->total, s->tasks_done, want, ntasks);
			ok = 0;
		}
	}
	return ok;
}

/* ---- main ------------------------------------------------------------- */

static const struct app {
	const char *name;
	int (*run)(void);
	int size, iters;
} apps[] = {
	{ "mm", app_mm, 64, 1 },
	{ "sor", app_sor, 64, 10 },
	{ "lu", app_lu, 64, 1 },
	{ "nqueens", app_nqueens, 8, 1 },
};

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: dsm-app mm|sor|lu|nqueens [-t wind|udp|udp-replyack] [-n NODES]\n"
		"               [-r RANK] [-a ADDR0,ADDR1,...] [-p PORT] [-s SIZE]\n"
		"               [-i ITER] [-T TIMEOUT_S] [-N NETNS] [-f read|request]\n"
		"               [-v]\n");
	exit(status);
}

/* -N NETNS: run in that network namespace (a name of ip netns, or a path) */
static void join_netns(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s%s", strchr(name, '/') ? "" : "/run/netns/",
		 name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		perror(path);
		exit(2);
	}
	close(fd);
}

/* -a: IPv4 (a.b.c.d) and IPv6 (fd00::1, fe80::1%eth0) addresses, commas */
static int parse_addrs(char *s)
{
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&cfg.addr[n];
		struct addrinfo hints = { .ai_family = AF_INET6,
					  .ai_socktype = SOCK_DGRAM,
					  .ai_flags = AI_NUMERICHOST };
		struct addrinfo *ai = NULL;
		int ok;

		if (n >= DSM_MAX_NODES) {
			ok = 0;
		} else if (!strchr(tok, ':')) {
			memset(sin, 0, sizeof(*sin));
			sin->sin_family = AF_INET;
			ok = inet_pton(AF_INET, tok, &sin->sin_addr) == 1;
		} else {
			ok = !getaddrinfo(tok, NULL, &hints, &ai) &&
			     ai->ai_addrlen <= sizeof(cfg.addr[n]);
			if (ok)
				memcpy(&cfg.addr[n], ai->ai_addr, ai->ai_addrlen);
			if (ai)
				freeaddrinfo(ai);
		}
		if (!ok) {
			fprintf(stderr, "dsm-app: bad address %s\n", tok);
			exit(2);
		}
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	const struct app *app = NULL;
	struct dsm_stats st;
	int c, naddr = 0, ok;
	size_t i;

	if (argc < 2)
		usage(2);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage(0);
	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++)
		if (!strcmp(argv[1], apps[i].name))
			app = &apps[i];
	if (!app) {
		fprintf(stderr, "dsm-app: unknown app %s\n", argv[1]);
		usage(2);
	}
	size = app->size;
	iters = app->iters;
	argc--;
	argv++;
	while ((c = getopt(argc, argv, "t:n:r:a:p:s:i:T:N:f:vh")) != -1) {
		switch (c) {
		case 't':
			tp_name = optarg;
			if (!strcmp(optarg, "wind"))
				cfg.transport = DSM_TP_WIND;
			else if (!strcmp(optarg, "udp"))
				cfg.transport = DSM_TP_UDP;
			else if (!strcmp(optarg, "udp-replyack"))
				cfg.transport = DSM_TP_UDP_REPLYACK;
			else
				usage(2);
			break;
		case 'n': cfg.nodes = atoi(optarg); break;
		case 'r': cfg.rank = atoi(optarg); break;
		case 'a': naddr = parse_addrs(optarg); break;
		case 'p': cfg.port = (uint16_t)atoi(optarg); break;
		case 's': size = atoi(optarg); break;
		case 'i': iters = atoi(optarg); break;
		case 'T': cfg.timeout_s = atoi(optarg); break;
		case 'f':
			if (!strcmp(optarg, "read"))
				cfg.fetch = DSM_FETCH_READ;
			else if (!strcmp(optarg, "request"))
				cfg.fetch = DSM_FETCH_REQUEST;
			else
				usage(2);
			break;
		case 'v': cfg.verbose = 1; break;
		case 'N': join_netns(optarg); break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (optind != argc || cfg.nodes < 1 || cfg.nodes > DSM_MAX_NODES ||
	    cfg.rank < 0 || cfg.rank >= cfg.nodes || size < 1 || iters < 1 ||
	    cfg.timeout_s < 1)
		usage(2);
	if (cfg.fetch == DSM_FETCH_READ && cfg.transport != DSM_TP_WIND) {
		fprintf(stderr, "dsm-app: -f read needs -t wind\n");
		exit(2);
	}
	if (cfg.nodes > 1 && naddr < cfg.nodes) {
		fprintf(stderr, "dsm-app: -a needs the address of each of the %d ranks\n",
			cfg.nodes);
		exit(2);
	}

	ok = app->run();
	dsm_finish(&st);
	if (cfg.verbose) {
		struct dsm_stats l;
		struct rusage ru;

		dsm_local_stats(&l);
		fprintf(stderr, "dsm-app: rank %d: time_s %.6f pages_fetched %llu diffs %llu diff_bytes %llu messages %llu retransmissions %llu lock_acquires %llu syscalls %llu cpu_s %.4f service_cpu_s %.4f softirq_s %.3f fetch_wait_s %.4f fetch_served %llu\n",
			dsm_rank(), l.time_s, (unsigned long long)l.pages_fetched,
			(unsigned long long)l.diffs,
			(unsigned long long)l.diff_bytes,
			(unsigned long long)l.messages,
			(unsigned long long)l.retransmissions,
			(unsigned long long)l.lock_acquires,
			(unsigned long long)l.syscalls, l.cpu_s,
			l.service_cpu_s, l.softirq_s, l.fetch_wait_s,
			(unsigned long long)l.fetch_served);
		if (!getrusage(RUSAGE_SELF, &ru))
			fprintf(stderr, "dsm-app: rank %d: user %.3f s sys %.3f s minflt %ld majflt %ld nvcsw %ld nivcsw %ld\n",
				dsm_rank(), ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
				ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
				ru.ru_minflt, ru.ru_majflt, ru.ru_nvcsw, ru.ru_nivcsw);
	}
	if (dsm_rank() == 0) {
		printf("{\"app\":\"%s\",\"transport\":\"%s\",\"fetch\":\"%s\","
		       "\"nodes\":%d,\"size\":%d,"
		       "\"time_s\":%.6f,\"pages_fetched\":%llu,\"diffs\":%llu,"
		       "\"messages\":%llu,\"retransmissions\":%llu,"
		       "\"diff_bytes\":%llu,\"lock_acquires\":%llu,\"iterations\":%d,"
		       "\"syscalls\":%llu,\"cpu_s\":%.4f,\"service_cpu_s\":%.4f,"
		       "\"softirq_s\":%.3f,\"fetch_wait_s\":%.4f,"
		       "\"fetch_served\":%llu,\"ok\":%s}\n",
		       app->name, tp_name,
		       dsm_fetch_mode() == DSM_FETCH_READ ? "read" : "request",
		       cfg.nodes, size, st.time_s,
		       (unsigned long long)st.pages_fetched,
		       (unsigned long long)st.diffs,
		       (unsigned long long)st.messages,
		       (unsigned long long)st.retransmissions,
		       (unsigned long long)st.diff_bytes,
		       (unsigned long long)st.lock_acquires, iters,
		       (unsigned long long)st.syscalls, st.cpu_s,
		       st.service_cpu_s, st.softirq_s, st.fetch_wait_s,
		       (unsigned long long)st.fetch_served,
		       ok ? "true" : "false");
		fflush(stdout);
	}
	return dsm_rank() == 0 && !ok;
}
