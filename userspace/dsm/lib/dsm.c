// SPDX-License-Identifier: GPL-2.0
/*
 * The DSM core: the shared region, page faults, twins and diffs, the
 * barrier and the locks.  Transport-independent; the backends are in
 * tp_wind.c and tp_udp.c.
 *
 * Threads: the application thread computes and takes the page faults
 * (SIGSEGV); it sends requests and sleeps on a pipe until the service
 * thread (one per node, run by the transport) has handled the reply.  The
 * service thread serves every incoming request (page fetches, diffs,
 * barrier arrivals, lock requests) so that a node answers its peers while
 * its own application thread waits in a fault.
 *
 * The fault handler uses only async-signal-safe system calls (mprotect,
 * poll, read, write, sendmsg, clock_gettime) and this library's own code.
 * It may take the transport's mutex: the fault is synchronous and the
 * application thread never holds that mutex while touching shared memory.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "libwind.h"
#include "internal.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define DSM_BASE	((void *)0x5a0000000000ull)

enum { ST_INVALID, ST_READ, ST_WRITE, ST_HOME, ST_NONE };

struct dsm_node dsm;

static uint8_t *state;		/* per page, app thread only */
static char *twins;		/* twin of page p at twins + p * DSM_PAGE */
static uint32_t *cached;	/* non-home pages with a copy */
static uint32_t ncached;
static uint32_t *dirty;		/* pages in ST_WRITE */
static uint32_t ndirty;
static char *diffs;		/* flush: the diff of dirty[i] at i * DIFF_SLOT */
static uint32_t *diff_len;
static uint32_t next_page;	/* allocator */
static uint64_t my_epoch;
static uint64_t lock_seen[DSM_MAX_LOCKS];
static double t_start;
/* CPU accounting (struct dsm_stats): the service thread, and the values
 * at dsm_init
 */
static pthread_t service_th;
static int service_started;
static double cpu0, softirq0;
static int final_barrier;
static int fault_skip_invalidate;	/* DSM_FAULT=skip-invalidate: testing */

/* Barrier and lock managers: service thread and app thread (local) */
static pthread_mutex_t proto_mu = PTHREAD_MUTEX_INITIALIZER;
static int arrived;
static uint32_t arrive_seq[DSM_MAX_NODES];
static struct {
	int held;
	int n;			/* waiting */
	struct { uint16_t node; uint32_t seq; } q[2 * DSM_MAX_NODES];
} locks[DSM_MAX_LOCKS];

#define DIFF_SLOT	WIND_DIFF_MAX(DSM_PAGE)

static void put_str(const char *s)
{
	ssize_t r = write(2, s, strlen(s));

	(void)r;
}

void dsm_fatal(const char *what, int err)
{
	char num[16];
	int i = sizeof(num) - 1;
	unsigned int r = (unsigned int)dsm.cfg.rank;

	num[i] = 0;
	do {
		num[--i] = (char)('0' + r % 10);
		r /= 10;
	} while (r && i > 0);
	put_str("dsm-app: rank ");
	put_str(num + i);
	put_str(": ");
	put_str(what);
	if (err) {
		put_str(": ");
		put_str(strerrorname_np(err) ? strerrorname_np(err) : "error");
	}
	put_str("\n");
	_exit(2);
}

double dsm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int dsm_family(void)
{
	int i;

	for (i = 0; i < dsm.cfg.nodes; i++)
		if (dsm.cfg.addr[i].ss_family == AF_INET6)
			return AF_INET6;
	return AF_INET;
}

unsigned int dsm_peer_addr(int rank, struct sockaddr_storage *out)
{
	const struct sockaddr_storage *a = &dsm.cfg.addr[rank];
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)out;
	struct sockaddr_in *s4 = (struct sockaddr_in *)out;

	memset(out, 0, sizeof(*out));
	if (dsm_family() == AF_INET) {
		memcpy(s4, a, sizeof(*s4));
		s4->sin_family = AF_INET;
		s4->sin_port = htons(dsm.cfg.port);
		return sizeof(*s4);
	}
	if (a->ss_family == AF_INET6) {
		memcpy(s6, a, sizeof(*s6));
	} else {		/* an IPv4 rank among IPv6 ones: v4-mapped */
		s6->sin6_family = AF_INET6;
		s6->sin6_addr.s6_addr[10] = 0xff;
		s6->sin6_addr.s6_addr[11] = 0xff;
		memcpy(&s6->sin6_addr.s6_addr[12],
		       &((const struct sockaddr_in *)a)->sin_addr, 4);
	}
	s6->sin6_port = htons(dsm.cfg.port);
	return sizeof(*s6);
}

const char *dsm_addr_str(const void *sa, char *buf)
{
	const struct sockaddr *s = sa;

	if (s->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr,
			  buf, DSM_ADDRSTRLEN);
	else if (s->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
			  buf, DSM_ADDRSTRLEN);
	else
		snprintf(buf, DSM_ADDRSTRLEN, "(family %d)", s->sa_family);
	return buf;
}

int dsm_rank(void)
{
	return dsm.cfg.rank;
}

int dsm_nodes(void)
{
	return dsm.cfg.nodes;
}

static double cpu_clock(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts))
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The node's softirq time in seconds (/proc/stat's cpu line, 7th field) */
static double softirq_now(void)
{
	unsigned long long v[7] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	long hz = sysconf(_SC_CLK_TCK);
	int n = 0;

	if (f) {
		n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]);
		fclose(f);
	}
	return n == 7 && hz > 0 ? (double)v[6] / (double)hz : 0;
}

/* This node's CPU figures since dsm_init, into dsm.stats */
static void cpu_stats(void)
{
	clockid_t c;

	dsm.stats.cpu_s = cpu_clock(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	dsm.stats.softirq_s = softirq_now() - softirq0;
	if (service_started && !pthread_getcpuclockid(service_th, &c))
		dsm.stats.service_cpu_s = cpu_clock(c);
}

void dsm_wake(void)
{
	char c = 1;
	ssize_t r = DSM_SYS(write(dsm.evfd[1], &c, 1));	/* full pipe: already awake */

	(void)r;
}

static void wait_for(int (*cond)(void *), void *arg, const char *what,
		     double timeout)
{
	double deadline = dsm_now() + timeout;
	char buf[64];

	while (!cond(arg)) {
		struct pollfd p = { .fd = dsm.evfd[0], .events = POLLIN };

		DSM_SYS(poll(&p, 1, 100));
		while (DSM_SYS(read(dsm.evfd[0], buf, sizeof(buf))) > 0)
			;
		if (dsm_now() > deadline)
			dsm_fatal(what, ETIMEDOUT);
	}
}

void dsm_wait(int (*cond)(void *), void *arg, const char *what)
{
	wait_for(cond, arg, what, dsm.cfg.timeout_s);
}

static void page_protect(uint32_t p, int prot)
{
	if (DSM_SYS(mprotect(dsm.base + (size_t)p * DSM_PAGE, DSM_PAGE, prot)))
		dsm_fatal("mprotect", errno);
}

/* Send to a node; to ourselves: handle at once, in this thread */
static void send_msg(int dest, struct dsm_msg *m, const void *data,
		     int flags, uint32_t reply_to)
{
	m->src = (uint16_t)dsm.cfg.rank;
	if (dest == dsm.cfg.rank)
		dsm_dispatch(m, data, m->len, 0);
	else
		dsm.tp->send(dest, m, data, flags, reply_to);
}

/* ---- page faults ------------------------------------------------------ */

static int fetch_arrived(void *arg)
{
	return atomic_load(&dsm.fetch_done) >= *(uint64_t *)arg;
}

/*
 * Get page p from its home into place (it is PROT_NONE on entry; the
 * caller maps it as it needs).
 *
 * Fetch by request: the home's service thread answers (wind: Header
 * Through writes the page into our region; udp: we copy it from the
 * reply).  Fetch by read (wind's default): the home's kernel copies the
 * page out of its registered region in softirq and our kernel lands it in
 * our region at the same offset; nobody at the home is woken.
 *
 * Coherence of a read.  The home never freezes a page for a fetch, with
 * either path: a Header Through reply is copied by the home's sendmsg()
 * from the live page while the home's application thread may be writing
 * it in place and the home's kernel may be applying another node's
 * Direct Diff to it, exactly the writes that can race with a read served
 * in softirq (the home's service thread changes no shared memory on
 * wind: diffs never reach it).  What the protocol guarantees is only
 * what a data-race-free program reads: every byte it may read in this
 * interval was last written before a release that happened before our
 * last acquire.  Such a release has completed at the home: another
 * node's diffs are applied when its release returns (its last diff to
 * each home is sync-ordered, and ordered, so every earlier one is written
 * too), the home's own writes are in place, and we send the read after
 * that acquire, so the bytes are final in the home's memory when its
 * kernel reads them.  A byte written concurrently (multiple writers: the
 * home or a releasing node writing another part of the page) is one this
 * program may not read before its next acquire, which invalidates our
 * copy and fetches it again; a torn copy of it is harmless, as it was
 * with Header Through.  The read is async-ordered, so it is also served
 * after everything we sent the home before (our own diffs were applied
 * before our release returned anyway).  The landing writes only page p of
 * our region: it is PROT_NONE, our application thread is here, and no
 * other node writes a page we do not home (diffs go to the home), so
 * nothing else touches those bytes until the completion wakes us.
 */
static void fetch(uint32_t p)
{
	struct dsm_msg m = { .type = DSM_FETCH_REQ, .arg0 = p };
	uint64_t target = atomic_load(&dsm.fetch_done) + 1;
	double t0 = dsm_now();

	atomic_store(&dsm.fetch_page, p);
	if (dsm.fetch_read)
		dsm.tp->read_page(dsm.home[p], p, target << 32 | p);
	else
		send_msg(dsm.home[p], &m, NULL, TP_WANTREPLY, 0);
	dsm_wait(fetch_arrived, &target, "page fetch: no reply from the home");
	dsm.stats.fetch_wait_s += dsm_now() - t0;
	if (dsm.tp != &dsm_tp_wind) {
		/* the traditional way: copy the reply into the page */
		page_protect(p, PROT_READ | PROT_WRITE);
		memcpy(dsm.base + (size_t)p * DSM_PAGE, dsm.fetch_buf, DSM_PAGE);
	}
	/* wind: Header Through or the read wrote it in place before we were
	 * woken
	 */
	dsm.stats.pages_fetched++;
}

static void make_writable(uint32_t p)
{
	memcpy(twins + (size_t)p * DSM_PAGE, dsm.base + (size_t)p * DSM_PAGE,
	       DSM_PAGE);
	page_protect(p, PROT_READ | PROT_WRITE);
	state[p] = ST_WRITE;
	dirty[ndirty++] = p;
}

static void segv(int sig, siginfo_t *si, void *ctx)
{
	char *a = si->si_addr;
	int saved = errno, write_fault = 0;
	uint32_t p;

	(void)sig;
#if defined(__x86_64__)
	write_fault = !!(((ucontext_t *)ctx)->uc_mcontext.gregs[REG_ERR] & 2);
#else
	(void)ctx;
#endif
	if (a < dsm.base || a >= dsm.base + dsm.len)
		goto real;
	p = (uint32_t)((a - dsm.base) / DSM_PAGE);
	switch (state[p]) {
	case ST_INVALID:
		fetch(p);
		state[p] = ST_READ;
		cached[ncached++] = p;
		page_protect(p, PROT_READ);
		if (write_fault)
			make_writable(p);
		break;
	case ST_READ:
		make_writable(p);
		break;
	default:
		goto real;
	}
	errno = saved;
	return;
real:
	/* not ours: the default action on return, at the same instruction */
	signal(SIGSEGV, SIG_DFL);
	errno = saved;
}

/* ---- release and acquire ---------------------------------------------- */

/* Send the diffs of every dirty page to its home; wait until applied */
static void flush(void)
{
	uint32_t i;
	int h;

	if (!ndirty)
		return;
	for (i = 0; i < ndirty; i++) {
		uint32_t p = dirty[i];
		size_t n = wind_diff_encode(dsm.base + (size_t)p * DSM_PAGE,
					    twins + (size_t)p * DSM_PAGE,
					    DSM_PAGE, diffs + i * DIFF_SLOT);

		diff_len[i] = (uint32_t)n;
	}
	for (h = 0; h < dsm.cfg.nodes; h++) {
		int last = -1;

		for (i = 0; i < ndirty; i++)
			if (dsm.home[dirty[i]] == h && diff_len[i])
				last = (int)i;
		for (i = 0; last >= 0 && i <= (uint32_t)last; i++) {
			if (dsm.home[dirty[i]] != h || !diff_len[i])
				continue;
			dsm.tp->send_diff(h, dirty[i], diffs + i * DIFF_SLOT,
					  diff_len[i], i == (uint32_t)last);
			dsm.stats.diffs++;
			dsm.stats.diff_bytes += diff_len[i];
		}
	}
	dsm.tp->flush_wait();
	for (i = 0; i < ndirty; i++) {
		page_protect(dirty[i], PROT_READ);
		state[dirty[i]] = ST_READ;
	}
	ndirty = 0;
}

/* Drop every cached copy of a page homed elsewhere */
static void invalidate(void)
{
	uint32_t i;

	if (fault_skip_invalidate)
		return;		/* a broken protocol, to see the check fail */
	for (i = 0; i < ncached; i++) {
		page_protect(cached[i], PROT_NONE);
		state[cached[i]] = ST_INVALID;
	}
	ncached = 0;
}

static int released(void *arg)
{
	return atomic_load(&dsm.barrier_rel) >= *(uint64_t *)arg;
}

static void barrier(double timeout, const char *what)
{
	struct dsm_msg m = { .type = DSM_BARRIER };
	uint64_t epoch;

	if (dsm.cfg.nodes == 1)
		return;
	flush();
	epoch = ++my_epoch;
	m.arg0 = (uint32_t)epoch;
	m.arg1 = (uint32_t)final_barrier;
	m.len = sizeof(dsm.stats);
	send_msg(0, &m, &dsm.stats, TP_WANTREPLY, 0);
	wait_for(released, &epoch, what, timeout);
	invalidate();
}

void dsm_barrier(void)
{
	barrier(10.0 * dsm.cfg.timeout_s, dsm.cfg.rank ?
		"barrier: no release from rank 0" :
		"barrier: not every rank arrived");
}

static int granted(void *arg)
{
	int id = *(int *)arg;

	return atomic_load(&dsm.grants[id]) > lock_seen[id];
}

void dsm_lock(int id)
{
	struct dsm_msg m = { .type = DSM_LOCK_ACQ, .arg0 = (uint32_t)id };

	if (id < 0 || id >= DSM_MAX_LOCKS)
		dsm_fatal("dsm_lock: bad lock id", EINVAL);
	dsm.stats.lock_acquires++;
	if (dsm.cfg.nodes == 1)
		return;
	flush();		/* invalidation must not lose our writes */
	send_msg(id % dsm.cfg.nodes, &m, NULL, TP_WANTREPLY, 0);
	wait_for(granted, &id, "lock: no grant from its manager",
		 10.0 * dsm.cfg.timeout_s);
	lock_seen[id]++;
	invalidate();
}

void dsm_unlock(int id)
{
	struct dsm_msg m = { .type = DSM_LOCK_REL, .arg0 = (uint32_t)id };

	if (dsm.cfg.nodes == 1)
		return;
	flush();
	send_msg(id % dsm.cfg.nodes, &m, NULL, 0, 0);
}

/* ---- the service side ------------------------------------------------- */

static void grant(int id, int node, uint32_t seq)
{
	struct dsm_msg m = { .type = DSM_LOCK_GRANT, .arg0 = (uint32_t)id };

	send_msg(node, &m, NULL, 0, seq);
}

void dsm_dispatch(const struct dsm_msg *m, const void *data, size_t len,
		  uint32_t seq)
{
	uint32_t p = m->arg0;
	int i, n, to = -1;
	uint32_t to_seq = 0;

	switch (m->type) {
	case DSM_HELLO:
		break;
	case DSM_FETCH_REQ:
		if (p >= dsm.npages || dsm.home[p] != dsm.cfg.rank)
			dsm_fatal("fetch request for a page not homed here", EINVAL);
		atomic_fetch_add(&dsm.fetch_served, 1);
		dsm.tp->send_page(m->src, p, seq);
		break;
	case DSM_FETCH_REP:
		if (p != atomic_load(&dsm.fetch_page))
			dsm_fatal("fetch reply for a page not asked for", EPROTO);
		if (dsm.tp != &dsm_tp_wind) {
			if (len != DSM_PAGE)
				dsm_fatal("short page in fetch reply", EPROTO);
			memcpy(dsm.fetch_buf, data, DSM_PAGE);
		}
		atomic_fetch_add(&dsm.fetch_done, 1);
		dsm_wake();
		break;
	case DSM_DIFF:
		if (p >= dsm.npages || dsm.home[p] != dsm.cfg.rank ||
		    wind_diff_apply(dsm.base + (size_t)p * DSM_PAGE, DSM_PAGE,
				    data, len))
			dsm_fatal("bad diff", EPROTO);
		break;
	case DSM_BARRIER:
		if (len == sizeof(struct dsm_stats) && m->src < DSM_MAX_NODES)
			memcpy(&dsm.peer_stats[m->src], data, len);
		pthread_mutex_lock(&proto_mu);
		arrive_seq[m->src] = seq;
		n = ++arrived == dsm.cfg.nodes;
		if (n)
			arrived = 0;
		pthread_mutex_unlock(&proto_mu);
		if (n) {
			struct dsm_msg r = { .type = DSM_BARRIER_REL,
					     .arg0 = m->arg0 };
			/* the others first: when rank 0 goes on, all are sent */
			for (i = dsm.cfg.nodes - 1; i >= 0; i--)
				send_msg(i, &r, NULL, m->arg1 ? TP_SYNC : 0,
					 arrive_seq[i]);
		}
		break;
	case DSM_BARRIER_REL:
		atomic_store(&dsm.barrier_rel, m->arg0);
		dsm_wake();
		break;
	case DSM_LOCK_ACQ:
		if (p >= DSM_MAX_LOCKS)
			dsm_fatal("bad lock id", EPROTO);
		pthread_mutex_lock(&proto_mu);
		if (!locks[p].held) {
			locks[p].held = 1;
			to = m->src;
			to_seq = seq;
		} else {
			n = locks[p].n++;
			locks[p].q[n].node = m->src;
			locks[p].q[n].seq = seq;
		}
		pthread_mutex_unlock(&proto_mu);
		if (to >= 0)
			grant((int)p, to, to_seq);
		break;
	case DSM_LOCK_REL:
		if (p >= DSM_MAX_LOCKS)
			dsm_fatal("bad lock id", EPROTO);
		pthread_mutex_lock(&proto_mu);
		if (locks[p].n) {
			to = locks[p].q[0].node;
			to_seq = locks[p].q[0].seq;
			locks[p].n--;
			memmove(&locks[p].q[0], &locks[p].q[1],
				locks[p].n * sizeof(locks[p].q[0]));
		} else {
			locks[p].held = 0;
		}
		pthread_mutex_unlock(&proto_mu);
		if (to >= 0)
			grant((int)p, to, to_seq);
		break;
	case DSM_LOCK_GRANT:
		if (p >= DSM_MAX_LOCKS)
			dsm_fatal("bad lock id", EPROTO);
		atomic_fetch_add(&dsm.grants[p], 1);
		dsm_wake();
		break;
	default:
		dsm_fatal("unknown message type", EPROTO);
	}
}

/* ---- set-up and end --------------------------------------------------- */

void dsm_init(const struct dsm_cfg *cfg, size_t region_bytes)
{
	struct sigaction sa;
	pthread_t th;
	size_t n;

	dsm.cfg = *cfg;
	cpu0 = cpu_clock(CLOCK_PROCESS_CPUTIME_ID);
	softirq0 = softirq_now();
	if (cfg->fetch == DSM_FETCH_READ && cfg->transport != DSM_TP_WIND)
		dsm_fatal("fetch by read needs the wind transport", EINVAL);
	dsm.fetch_read = cfg->transport == DSM_TP_WIND &&
			 cfg->fetch != DSM_FETCH_REQUEST;
	fault_skip_invalidate = getenv("DSM_FAULT") &&
				!strcmp(getenv("DSM_FAULT"), "skip-invalidate");
	dsm.len = DSM_ROUND(region_bytes ? region_bytes : 1);
	dsm.npages = (uint32_t)(dsm.len / DSM_PAGE);
	dsm.base = mmap(DSM_BASE, dsm.len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			-1, 0);
	if (dsm.base == MAP_FAILED)
		dsm_fatal("cannot map the shared region at its fixed address",
			  errno);
	if (dsm.base != (char *)DSM_BASE)
		dsm_fatal("shared region not at its fixed address", EEXIST);
	n = dsm.npages;
	dsm.home = malloc(n);
	state = malloc(n);
	cached = malloc(n * sizeof(*cached));
	dirty = malloc(n * sizeof(*dirty));
	diff_len = malloc(n * sizeof(*diff_len));
	if (!dsm.home || !state || !cached || !dirty || !diff_len)
		dsm_fatal("out of memory", ENOMEM);
	memset(dsm.home, 0xff, n);
	memset(state, ST_NONE, n);
	if (cfg->nodes == 1)
		return;		/* every page is ours: no faults, no network */

	twins = mmap(NULL, dsm.len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	diffs = mmap(NULL, n * DIFF_SLOT, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dsm.fetch_buf = malloc(DSM_PAGE);
	if (twins == MAP_FAILED || diffs == MAP_FAILED || !dsm.fetch_buf)
		dsm_fatal("out of memory", ENOMEM);
	if (pipe2(dsm.evfd, O_NONBLOCK | O_CLOEXEC))
		dsm_fatal("pipe", errno);
	dsm.tp = cfg->transport == DSM_TP_WIND ? &dsm_tp_wind : &dsm_tp_udp;
	dsm.replyack = cfg->transport == DSM_TP_UDP_REPLYACK;
	dsm.tp->init();		/* wind: registers the region (still RW) */
	if (mprotect(dsm.base, dsm.len, PROT_NONE))
		dsm_fatal("mprotect", errno);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = segv;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		dsm_fatal("sigaction", errno);
	if (pthread_create(&th, NULL, dsm.tp->service, NULL))
		dsm_fatal("pthread_create", EAGAIN);
	pthread_detach(th);
	service_th = th;
	service_started = 1;
	barrier(dsm.cfg.timeout_s, dsm.cfg.rank ?
		"start: no word from rank 0" :
		"start: cannot reach every rank (not started?)");
}

static void *alloc(size_t bytes, int fixed_home)
{
	uint32_t m = (uint32_t)(DSM_ROUND(bytes ? bytes : 1) / DSM_PAGE), j;
	uint32_t first = next_page;
	int nodes = dsm.cfg.nodes;

	if (m > dsm.npages - next_page)
		dsm_fatal("dsm_alloc: the shared region is full", ENOMEM);
	next_page += m;
	for (j = 0; j < m; j++) {
		uint32_t p = first + j;
		int h = fixed_home >= 0 ? fixed_home :
			(int)((uint64_t)j * nodes / m);

		dsm.home[p] = (uint8_t)h;
		if (h == dsm.cfg.rank) {
			state[p] = ST_HOME;
			if (nodes > 1)
				page_protect(p, PROT_READ | PROT_WRITE);
		} else {
			state[p] = ST_INVALID;
		}
	}
	return dsm.base + (size_t)first * DSM_PAGE;
}

void *dsm_alloc(size_t bytes)
{
	return alloc(bytes, -1);
}

void *dsm_alloc_home(size_t bytes, int home)
{
	return alloc(bytes, home % dsm.cfg.nodes);
}

void dsm_timer_start(void)
{
	t_start = dsm_now();
}

void dsm_timer_stop(void)
{
	dsm.stats.time_s = dsm_now() - t_start;
}

void dsm_finish(struct dsm_stats *total)
{
	int i;

	if (dsm.cfg.nodes == 1) {
		cpu_stats();
		*total = dsm.stats;
		return;
	}
	dsm_barrier();		/* every node is done with shared data */
	dsm.stats.messages = atomic_load(&dsm.messages);
	dsm.stats.retransmissions = dsm.tp->retransmissions();
	dsm.stats.syscalls = atomic_load(&dsm.syscalls);
	dsm.stats.fetch_served = atomic_load(&dsm.fetch_served);
	cpu_stats();
	final_barrier = 1;
	atomic_store(&dsm.finishing, 1);
	dsm_barrier();		/* carries the statistics */
	if (dsm.cfg.rank == 0) {
		memset(total, 0, sizeof(*total));
		for (i = 0; i < dsm.cfg.nodes; i++) {
			const struct dsm_stats *s = &dsm.peer_stats[i];

			total->pages_fetched += s->pages_fetched;
			total->diffs += s->diffs;
			total->diff_bytes += s->diff_bytes;
			total->messages += s->messages;
			total->retransmissions += s->retransmissions;
			total->lock_acquires += s->lock_acquires;
			total->syscalls += s->syscalls;
			total->fetch_served += s->fetch_served;
			total->cpu_s += s->cpu_s;
			total->service_cpu_s += s->service_cpu_s;
			total->softirq_s += s->softirq_s;
			total->fetch_wait_s += s->fetch_wait_s;
		}
		total->time_s = dsm.stats.time_s;
	}
	dsm.tp->finish();
}

enum dsm_fetch dsm_fetch_mode(void)
{
	return dsm.fetch_read ? DSM_FETCH_READ : DSM_FETCH_REQUEST;
}

void dsm_local_stats(struct dsm_stats *out)
{
	*out = dsm.stats;
}
