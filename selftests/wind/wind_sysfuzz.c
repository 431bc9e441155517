// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall fuzzer: several threads drive random operations on a few Wind
 * sockets in two namespaces, and every return must be a success or an
 * errno the documentation allows for that call.
 *
 *   node0 (10.77.0.1, sockets 0-3) ===veth=== node1 (10.77.0.2, sockets 4-7)
 *
 * Operations: setsockopt/getsockopt at SOL_WIND, SOL_SOCKET, SOL_IP and
 * random levels with sizes 0, short, exact and long and bad pointers;
 * WIND_REGION_ADD/DEL with unaligned, overlapping, huge, unmapped and
 * read-only ranges, and munmap right after the add; sends of every type
 * and every DSM mode to live sockets, closed ports, a silent address,
 * unroutable, broadcast and bad addresses, with random flags, iovecs and
 * control messages; recvmsg with MSG_ERRQUEUE, MSG_PEEK, MSG_TRUNC;
 * connect/disconnect, bind, poll, SIOCINQ/SIOCOUTQ and random ioctls,
 * shutdown, close and reopen; a close and a signal while another thread
 * sleeps in a sync send; fork, with children that register regions (on
 * their own sockets or inherited ones) and exit without cleaning up.
 *
 * A drain thread reads every socket and checks that each message that
 * carries the self-describing pattern of lib.h is intact.
 *
 * At the end every socket is closed and the kernel must hold nothing:
 * no Wind socket in /proc/net/protocols or /proc/net/wind, every peer
 * state freed (PeersCreated == PeersFreed), the FOLL_PIN counters of
 * /proc/vmstat balanced, unreclaimable slab back near its baseline, and
 * no WARN/BUG/Oops in the kernel log.
 *
 * It found, every few thousand operations, a send that waited for
 * send-buffer room while SO_ERROR was set return the errno as a positive
 * byte count (wait_for_sndbuf() in net/wind/sendmsg.c), and a sync send
 * restarted after SA_RESTART delivering its message twice; both fixed.
 * make check runs 10000 operations, `make fuzz` 100000.
 *
 *   WIND_SYSFUZZ_OPS      operations in all (default 10000; make fuzz: 100000)
 *   WIND_SYSFUZZ_SEED     replay a run (its seed is printed first); the
 *                         threads interleave differently on every run
 *   WIND_SYSFUZZ_THREADS  fuzzing threads (default 4)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <linux/sockios.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib.h"

#define NSLOTS		8		/* sockets 0-3 in node0, 4-7 in node1 */
#define BASE_PORT	7600
#define CLOSED_PORT	7999		/* no socket there */
#define MAX_THREADS	16
#define ARENA_RW	64		/* pages per thread, writable */
#define ARENA_RO	4		/* then read-only */
#define ARENA_NONE	4		/* then PROT_NONE */
#define MAXERR		600		/* errno table size (ENOTSUPP is 524) */
#define BIGBUF		(80 * 1024)
#define REGION_KEY(id)	(0x1000ULL + (id))

#ifndef ENOTSUPP
#define ENOTSUPP	524		/* kernel-internal, leaks from SO_ZEROCOPY */
#endif
#ifndef ENOIOCTLCMD
#define ENOIOCTLCMD	515
#endif

enum op_kind {
	OP_SETSOCKOPT, OP_GETSOCKOPT, OP_WIND_OPT, OP_REGION_ADD, OP_REGION_DEL,
	OP_REGION_MUNMAP, OP_SEND, OP_SEND_DSM, OP_SENDMMSG, OP_RECV,
	OP_RECV_ERRQ, OP_CONNECT, OP_BIND, OP_POLL, OP_IOCTL, OP_NAME,
	OP_SHUTDOWN, OP_REOPEN, OP_TIMEO, OP_SO_ERROR, OP_CLOSE_SYNC,
	OP_SIGNAL_SYNC, OP_SIGNAL_THREAD, OP_FORK, OP_DRAIN_RECV, OP_MAX
};

static const char *const op_names[OP_MAX] = {
	"setsockopt", "getsockopt", "sol_wind_opt", "region_add", "region_del",
	"region_add_munmap", "send", "send_dsm", "sendmmsg", "recv",
	"recv_errqueue", "connect", "bind", "poll", "ioctl", "getname",
	"shutdown", "close_reopen", "so_timeo", "so_error", "close_in_sync",
	"signal_in_sync", "signal_thread", "fork", "drain_recv",
};

/* Weights of the random choice among the operations a thread runs */
static const int op_weight[OP_MAX] = {
	[OP_SETSOCKOPT] = 10, [OP_GETSOCKOPT] = 6, [OP_WIND_OPT] = 5,
	[OP_REGION_ADD] = 8, [OP_REGION_DEL] = 5, [OP_REGION_MUNMAP] = 2,
	[OP_SEND] = 22, [OP_SEND_DSM] = 10, [OP_SENDMMSG] = 2, [OP_RECV] = 8,
	[OP_RECV_ERRQ] = 3, [OP_CONNECT] = 3, [OP_BIND] = 1, [OP_POLL] = 3,
	[OP_IOCTL] = 3, [OP_NAME] = 2, [OP_SHUTDOWN] = 1, [OP_REOPEN] = 2,
	[OP_TIMEO] = 2, [OP_SO_ERROR] = 2, [OP_CLOSE_SYNC] = 1,
	[OP_SIGNAL_SYNC] = 1, [OP_SIGNAL_THREAD] = 1, [OP_FORK] = 1,
};

struct slot {
	pthread_rwlock_t lock;	/* write-held while the fd is replaced */
	int fd;
	int node;
	uint16_t port;
};

/* A sync send made by a worker's helper thread, while the worker closes
 * its socket or signals it.  The helpers live as long as the workers:
 * creating threads while others fork races in glibc's TLS setup.
 */
struct sleeper {
	int fd;
	struct sockaddr_in to;
	size_t len;
	volatile int started;
	long ret;
	int err;
	const unsigned char *buf;
};

struct worker {
	int id;
	pthread_t th;
	pthread_t helper;
	sem_t go, done;
	volatile int quit;
	struct sleeper job;
	uint64_t rng;
	unsigned char *arena;	/* ARENA_RW + ARENA_RO + ARENA_NONE pages */
	unsigned char *shm;	/* 8 pages of a memfd, MAP_SHARED */
	unsigned char *buf;	/* BIGBUF for sends */
	unsigned char *rbuf;	/* BIGBUF for receives */
	long ops;
	pid_t tid, helper_tid;	/* for the watchdog's report */
	volatile int cur_op;	/* the operation running, or -1 */
};

static struct slot slots[NSLOTS];

/* The last options set successfully on each fd, printed with an
 * unexpected send error (diagnostics only: updated without locks)
 */
#define HIST	8
static struct opt_hist {
	int level, name, len, val;
} hist[1024][HIST];
static unsigned int hist_n[1024];

static void hist_add(int fd, int level, int name, int len, int val)
{
	struct opt_hist *h;

	if (fd < 0 || fd >= 1024)
		return;
	h = &hist[fd][__atomic_fetch_add(&hist_n[fd], 1, __ATOMIC_RELAXED) % HIST];
	h->level = level;
	h->name = name;
	h->len = len;
	h->val = val;
}

static void hist_print(int fd)
{
	unsigned int i, n;

	if (fd < 0 || fd >= 1024)
		return;
	n = hist_n[fd];
	for (i = n > HIST ? n - HIST : 0; i < n; i++) {
		struct opt_hist *h = &hist[fd][i % HIST];

		printf("#   fd %d had setsockopt(level %d, name %d, len %d, int %d)\n",
		       fd, h->level, h->name, h->len, h->val);
	}
}
static struct worker workers[MAX_THREADS];
static int nthreads = 4;
static long ops_per_thread;
static long page;
static unsigned char *bad_page;	/* a PROT_NONE page: EFAULT */
static volatile int stop_drain;
static pthread_barrier_t done_barrier;	/* no thread exits while signalled */
/* no thread starts before every worker's pthread_t is written: a
 * pthread_kill() of a thread not yet created dereferences a null pthread_t
 * with every signal blocked, and the kernel kills the process without
 * running on_fault()
 */
static pthread_barrier_t start_barrier;
static volatile long progress;		/* bumped by every step; the watchdog reads it */
static volatile const char *main_step = "setup";

static long op_count[OP_MAX];
static long err_count[OP_MAX][MAXERR];
static long unexpected;
static long corrupt;		/* messages that failed their self-check */
static long delivered, drained_ok, errq_reports;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- random numbers ---------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static __thread uint64_t *trng;

static uint32_t rnd(void)
{
	return (uint32_t)(splitmix(trng) >> 32);
}

static uint64_t rnd64(void)
{
	return splitmix(trng);
}

/* true with probability pct% */
static bool chance(int pct)
{
	return (int)(rnd() % 100) < pct;
}

/* ---- bookkeeping -------------------------------------------------------- */

static void count(int kind, int err)
{
	__atomic_fetch_add(&op_count[kind], 1, __ATOMIC_RELAXED);
	if (err < 0 || err >= MAXERR)
		err = MAXERR - 1;
	__atomic_fetch_add(&err_count[kind][err], 1, __ATOMIC_RELAXED);
}

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
	va_list ap;
	long n = __atomic_add_fetch(&unexpected, 1, __ATOMIC_RELAXED);

	if (n > 40)
		return;
	pthread_mutex_lock(&report_lock);
	printf("# UNEXPECTED: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	pthread_mutex_unlock(&report_lock);
}

static bool in_set(int err, const int *set)
{
	for (; *set; set++)
		if (*set == err)
			return true;
	return false;
}

/*
 * Record the outcome of one call: ret >= 0 is success, ret < 0 with errno
 * must be in allowed (0-terminated).
 */
static void check(int kind, long ret, int err, const int *allowed,
		  const char *what, int a, int b, long c)
{
	if (ret >= 0) {
		count(kind, 0);
		return;
	}
	count(kind, err);
	if (!in_set(err, allowed))
		report("%s (%d, %d, %ld): errno %d (%s)", what, a, b, c, err,
		       strerror(err));
}

/* Errors a socket may carry from an earlier async failure (SO_ERROR) */
#define ASYNC_ERRS ECONNREFUSED, ETIMEDOUT, ECONNRESET, ECONNABORTED, \
		   EMSGSIZE, EACCES, ERANGE, EINVAL, EIO, EBUSY

static const int send_errs[] = {
	EOPNOTSUPP, EINVAL, EAFNOSUPPORT, EDESTADDRREQ, EMSGSIZE, EAGAIN,
	ENOBUFS, ENOMEM, EFAULT, EHOSTUNREACH, ENETUNREACH, EINTR, EPIPE,
	ENODEV,		/* SO_BINDTOIFINDEX takes an index that no device has */
	ASYNC_ERRS, 0
};
static const int recv_errs[] = {
	EAGAIN, EOPNOTSUPP, EFAULT, EINTR, EINVAL, ASYNC_ERRS, 0
};
/* SOL_SOCKET, SOL_IP and unknown levels: the socket core's and IP's */
static const int generic_opt_errs[] = {
	EINVAL, EFAULT, ENOPROTOOPT, ENOMEM, ENOBUFS, EPERM, ENODEV,
	EOPNOTSUPP, ENOTSUPP, EADDRNOTAVAIL, EADDRINUSE, ENOENT, EDOM,
	ERANGE, EACCES, EBUSY, ENOTCONN, EAGAIN, EPROTONOSUPPORT, ENOSPC,
	ENXIO, EEXIST, EALREADY, ENOLINK, EBADF, ENODATA, ASYNC_ERRS, 0
};

/* ---- addresses ---------------------------------------------------------- */

static in_addr_t node_addr(int node)
{
	return wind_node_addr(node);
}

struct dest {
	struct sockaddr_storage ss;
	socklen_t len;
	void *ptr;		/* &ss, NULL or a bad pointer */
	bool silent;		/* nobody answers: a sync send sleeps */
};

static void pick_dest(struct dest *d, int from_node)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&d->ss;
	uint32_t r = rnd() % 100;
	int s = rnd() % NSLOTS;

	memset(d, 0, sizeof(*d));
	d->ptr = &d->ss;
	d->len = sizeof(*sin);
	if (r < 60) {			/* a live socket */
		in_addr_t a = node_addr(slots[s].node);

		if (slots[s].node == from_node && chance(30))
			a = htonl(INADDR_LOOPBACK);
		wind_sin(sin, a, __atomic_load_n(&slots[s].port, __ATOMIC_RELAXED));
	} else if (r < 70) {		/* a closed port */
		wind_sin(sin, node_addr(rnd() % 2), CLOSED_PORT);
	} else if (r < 73) {		/* no such host on the link */
		wind_sin(sin, inet_addr("10.77.0.99"), BASE_PORT);
		d->silent = true;
	} else if (r < 76) {		/* no route */
		wind_sin(sin, inet_addr("192.0.2.1"), BASE_PORT);
	} else if (r < 79) {
		wind_sin(sin, chance(50) ? inet_addr("10.77.0.255") :
			 htonl(INADDR_BROADCAST), BASE_PORT);
	} else if (r < 81) {
		wind_sin(sin, inet_addr("224.0.0.1"), BASE_PORT);
	} else if (r < 84) {		/* port 0 or address 0 */
		wind_sin(sin, chance(50) ? 0 : node_addr(1), chance(50) ? 0 : BASE_PORT);
	} else if (r < 86) {
		wind_sin(sin, node_addr(1), BASE_PORT);
		sin->sin_family = chance(50) ? AF_INET6 : AF_UNSPEC;
		if (sin->sin_family == AF_INET6)
			d->len = sizeof(struct sockaddr_in6);
	} else if (r < 88) {		/* short or long address */
		wind_sin(sin, node_addr(1), BASE_PORT);
		d->len = chance(50) ? rnd() % sizeof(*sin) : sizeof(d->ss) + 1 + rnd() % 8;
	} else if (r < 90) {		/* bad pointer */
		d->ptr = chance(50) ? (void *)bad_page : (void *)1;
	} else if (r < 95) {		/* none: the default peer */
		d->ptr = NULL;
		d->len = 0;
	} else {			/* the other node's sockets by number */
		wind_sin(sin, node_addr(!from_node),
			 BASE_PORT + (rnd() % 2) * 4 + rnd() % 4);
	}
}

/* ---- memory for regions ---------------------------------------------- */

static void region_in(struct worker *w, struct wind_region *r)
{
	uint32_t c = rnd() % 100;
	unsigned long base = (unsigned long)w->arena;
	long total = ARENA_RW + ARENA_RO + ARENA_NONE;

	memset(r, 0, sizeof(*r));
	if (c < 70)
		r->addr = base + (rnd() % total) * page;
	else if (c < 78)
		r->addr = (unsigned long)w->shm + (rnd() % 8) * page;
	else if (c < 84)
		r->addr = base + rnd() % (total * page);	/* unaligned */
	else if (c < 87)
		r->addr = (unsigned long)bad_page;
	else if (c < 89)
		r->addr = 0;
	else if (c < 92)
		r->addr = 0xffffffff81000000ULL;		/* kernel */
	else if (c < 94)
		r->addr = -(uint64_t)page;			/* wraps */
	else
		r->addr = rnd64() & ~(uint64_t)(page - 1);

	c = rnd() % 100;
	if (c < 70)
		r->len = (1 + rnd() % 8) * page;
	else if (c < 78)
		r->len = (1 + rnd() % 80) * page;	/* runs into RO/NONE */
	else if (c < 82)
		r->len = 0;
	else if (c < 87)
		r->len = 1 + rnd() % (4 * page);	/* unaligned */
	else if (c < 91)
		r->len = 1ULL << 30;			/* the largest */
	else if (c < 94)
		r->len = (1ULL << 30) + page;		/* too large */
	else
		r->len = rnd64();
	r->id = chance(60) ? rnd() % 4 : chance(90) ? rnd() % 16 : rnd();
	r->flags = chance(95) ? 0 : rnd();
	r->key = REGION_KEY(r->id);
}

/* ---- slots ---------------------------------------------------------------- */

static void slot_setup_fd(int fd)
{
	struct timeval snd = { 1, 0 }, rcv = { 0, 50000 };
	int one = 1;

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &snd, sizeof(snd));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &rcv, sizeof(rcv));
	if (chance(70))
		setsockopt(fd, SOL_WIND, WIND_RECVERR, &one, sizeof(one));
}

static int open_slot(int i, uint16_t port)
{
	struct sockaddr_in sa;
	int fd;

	fd = wind_bound_socket(wind_ns(slots[i].node), port, &sa);
	if (fd < 0 && errno == EADDRINUSE)	/* a child or a dup holds it */
		fd = wind_bound_socket(wind_ns(slots[i].node), 0, &sa);
	if (fd < 0)
		return -1;
	slot_setup_fd(fd);
	hist_n[fd] = 0;
	slots[i].fd = fd;
	__atomic_store_n(&slots[i].port, ntohs(sa.sin_port), __ATOMIC_RELAXED);
	return 0;
}

static int lock_slot(int i)
{
	pthread_rwlock_rdlock(&slots[i].lock);
	return slots[i].fd;
}

static void unlock_slot(int i)
{
	pthread_rwlock_unlock(&slots[i].lock);
}

/* ---- operations ---------------------------------------------------------- */

static void *opt_ptr(void *good)
{
	uint32_t c = rnd() % 100;

	if (c < 90)
		return good;
	if (c < 94)
		return NULL;
	if (c < 97)
		return bad_page;
	return (void *)0xffffffff81000000ULL;
}

static int opt_len(int exact)
{
	uint32_t c = rnd() % 100;

	if (c < 60)
		return exact;
	if (c < 70)
		return 0;
	if (c < 80)
		return rnd() % (exact ? exact : 4);
	if (c < 95)
		return exact + 1 + rnd() % 64;
	return -1 - (int)(rnd() % 4);
}

/* Options whose random values would stop the fuzzer itself (timeouts that
 * block forever) or that belong to other subsystems (IPsec policies).
 */
static bool skip_opt(int level, int name)
{
	if (level == SOL_SOCKET)
		return name == SO_RCVTIMEO || name == SO_SNDTIMEO ||
		       name == 66 || name == 67;	/* SO_*TIMEO_NEW */
	if (level == SOL_IP)
		return name == IP_IPSEC_POLICY || name == IP_XFRM_POLICY;
	return false;
}

static void op_setsockopt(struct worker *w, int fd, int kind)
{
	static const int levels[] = { SOL_SOCKET, SOL_IP, SOL_WIND, 6, 17, 255, 0x7fff, -1 };
	unsigned char val[128];
	int level = levels[rnd() % 8], name, len, i;
	long ret;

	if (chance(10))
		level = rnd();
	name = level == SOL_SOCKET ? rnd() % 80 : level == SOL_IP ? rnd() % 70 :
	       chance(80) ? rnd() % 8 : rnd();
	if (skip_opt(level, name))
		return;
	for (i = 0; i < (int)sizeof(val); i++)
		val[i] = chance(50) ? 0 : rnd();
	if (chance(30))
		*(int *)val = rnd() % 4;
	len = opt_len(level == SOL_WIND && name == WIND_REGION_ADD ?
		      (int)sizeof(struct wind_region) : 4);
	if (len > (int)sizeof(val))
		len = sizeof(val);
	if (level == SOL_WIND && name == WIND_REGION_ADD)
		return;		/* REGION_ADD with random bytes pins random memory */
	ret = setsockopt(fd, level, name, opt_ptr(val), len);
	if (ret == 0)
		hist_add(fd, level, name, len, *(int *)val);
	if (level == SOL_WIND) {
		static const int wind_errs[] = { EINVAL, EFAULT, ENOPROTOOPT, ENOENT, 0 };

		check(kind, ret, errno, wind_errs, "setsockopt SOL_WIND", name, len, 0);
	} else {
		check(kind, ret, errno, generic_opt_errs, "setsockopt", level, name, len);
	}
	(void)w;
}

static void op_getsockopt(struct worker *w, int fd, int kind)
{
	static const int levels[] = { SOL_SOCKET, SOL_IP, SOL_WIND, 6, 17, -1 };
	unsigned char val[256];
	int level = levels[rnd() % 6], name;
	socklen_t len = chance(80) ? 4 + rnd() % 60 : rnd() % 300;
	socklen_t *lenp = chance(95) ? &len : (socklen_t *)bad_page;
	long ret;

	name = level == SOL_SOCKET ? rnd() % 80 : level == SOL_IP ? rnd() % 70 :
	       rnd() % 8;
	if (len > sizeof(val))
		len = sizeof(val);
	if (chance(3))
		len = (socklen_t)-1;
	ret = getsockopt(fd, level, name, opt_ptr(val), lenp);
	if (level == SOL_WIND) {
		/* WIND_PEER_INFO: no state for that peer, not an AF_INET one */
		static const int wind_errs[] = { EINVAL, EFAULT, ENOPROTOOPT,
						 ENOENT, EAFNOSUPPORT, 0 };

		check(kind, ret, errno, wind_errs, "getsockopt SOL_WIND", name, (int)len, 0);
		if (ret == 0 && (name == WIND_MSGTYPE || name == WIND_RECVERR) &&
		    len == 4) {
			int v = *(int *)val;

			if (v < 0 || v > (name == WIND_MSGTYPE ? 2 : 1))
				report("getsockopt SOL_WIND %d returned %d", name, v);
		}
	} else {
		check(kind, ret, errno, generic_opt_errs, "getsockopt", level, name, (int)len);
	}
	(void)w;
}

/* WIND_MSGTYPE and WIND_RECVERR: exact errnos */
static void op_wind_opt(struct worker *w, int fd, int kind)
{
	int name = chance(50) ? WIND_MSGTYPE : WIND_RECVERR;
	int val = chance(80) ? (int)(rnd() % 3) : (int)rnd();
	int len = opt_len(sizeof(int));
	void *p = opt_ptr(&val);
	long ret;
	int e;

	if (len > 64)
		len = 64;
	{
		int big[16] = { val };

		ret = setsockopt(fd, SOL_WIND, name, p == &val ? (void *)big : p, len);
		e = errno;
	}
	if (ret == 0) {
		count(kind, 0);
		if (len < 4 || p != &val ||
		    (name == WIND_MSGTYPE && (val < 0 || val > 2)))
			report("setsockopt SOL_WIND %d len %d val %d ptr %p succeeded",
			       name, len, val, p);
		return;
	}
	count(kind, e);
	if (len < 4 && e == EINVAL)
		return;
	if (p != &val && e == EFAULT)
		return;
	if (name == WIND_MSGTYPE && (val < 0 || val > 2) && e == EINVAL)
		return;
	if (len < 0 && e == EINVAL)
		return;
	report("setsockopt SOL_WIND %d len %d val %d ptr %p: errno %d (%s)",
	       name, len, val, p, e, strerror(e));
	(void)w;
}

static void op_region_add(struct worker *w, int fd, int kind)
{
	static const int errs[] = { EINVAL, EEXIST, EFAULT, ENOMEM, 0 };
	unsigned char big[64] = { 0 };
	struct wind_region r;
	int len = sizeof(r);
	void *p = big;
	long ret;

	region_in(w, &r);
	memcpy(big, &r, sizeof(r));
	if (chance(5))
		len = opt_len(sizeof(r));
	if (len > (int)sizeof(big))
		len = sizeof(big);
	if (chance(3))
		p = chance(50) ? (void *)bad_page : NULL;
	ret = setsockopt(fd, SOL_WIND, WIND_REGION_ADD, p, len);
	check(kind, ret, errno, errs, "REGION_ADD addr/len", (int)(r.addr >> 12),
	      (int)r.id, (long)r.len);
	/* regions are byte ranges: any start and length up to 1 GiB */
	if (ret == 0 && (len != sizeof(r) || p != big ||
			 (r.flags & ~WIND_REGION_F_ALL) || !r.len ||
			 r.len > (1ULL << 30) || r.addr + r.len < r.addr))
		report("REGION_ADD of a bad region succeeded: addr %llx len %llx flags %x optlen %d",
		       (unsigned long long)r.addr, (unsigned long long)r.len, r.flags, len);
}

static void op_region_del(struct worker *w, int fd, int kind)
{
	static const int errs[] = { ENOENT, EINVAL, EFAULT, 0 };
	uint32_t id[4] = { chance(70) ? rnd() % 16 : chance(50) ? 100 + rnd() % 4 : rnd() };
	int len = chance(95) ? 4 : opt_len(4);
	long ret;

	if (len > 16)
		len = 16;
	ret = setsockopt(fd, SOL_WIND, WIND_REGION_DEL, chance(97) ? (void *)id :
			 (void *)bad_page, len);
	check(kind, ret, errno, errs, "REGION_DEL", (int)id[0], len, 0);
	(void)w;
}

/* map, register, unmap: the pages stay pinned until DEL or close */
static void op_region_munmap(struct worker *w, int fd, int kind)
{
	static const int errs[] = { EINVAL, EEXIST, ENOMEM, 0 };
	int npages = 1 + rnd() % 4;
	struct wind_region r = { .len = npages * page, .id = rnd() % 16 };
	void *m = mmap(NULL, npages * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long ret;

	if (m == MAP_FAILED)
		return;
	if (chance(50))
		memset(m, 0x5a, npages * page);
	r.addr = (unsigned long)m;
	r.key = REGION_KEY(r.id);
	ret = setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r));
	check(kind, ret, errno, errs, "REGION_ADD then munmap", (int)r.id, npages, 0);
	munmap(m, npages * page);
	(void)w;
}

static size_t pick_len(void)
{
	uint32_t c = rnd() % 100;

	if (c < 8)
		return 0;
	if (c < 16)
		return 1 + rnd() % 15;
	if (c < 66)
		return 16 + rnd() % 1400;
	if (c < 88)
		return 1400 + rnd() % 8000;
	if (c < 98)
		return 9000 + rnd() % (BIGBUF - 9000);
	return chance(50) ? (size_t)(64 << 20) + 1 : (size_t)(2 << 20);
}

static int pick_send_flags(bool *sync)
{
	int f = 0;
	uint32_t c = rnd() % 100;

	if (c < 30)
		f |= MSG_WIND_SYNC;
	else if (c < 60)
		f |= MSG_WIND_RELIABLE;
	else if (c < 62)
		f |= MSG_WIND_SYNC | MSG_WIND_RELIABLE;
	if (chance(30))
		f |= MSG_DONTWAIT;
	if (chance(10))
		f |= MSG_NOSIGNAL;
	if (chance(5))
		f |= MSG_CONFIRM;
	if (chance(5))
		f |= MSG_EOR;
	if (chance(3))
		f |= MSG_MORE;
	if (chance(2))
		f |= MSG_OOB;
	if (chance(2))
		f |= MSG_ZEROCOPY;
	if (chance(2))
		f |= 1 << (rnd() % 31);
	*sync = f & MSG_WIND_SYNC;
	return f;
}

struct sendctx {
	unsigned char ctl[2 * CMSG_SPACE(sizeof(struct wind_dsm)) + 64];
	size_t ctllen;
	void *ctlptr;
	bool valid;		/* one well-formed WIND_CMSG_DSM */
};

static void dsm_cmsg(struct sendctx *c, size_t len, bool dsm)
{
	struct cmsghdr *cm = (struct cmsghdr *)c->ctl;
	struct wind_dsm d = { 0 };
	uint32_t r = rnd() % 100;

	memset(c->ctl, 0, sizeof(c->ctl));
	c->valid = false;
	c->ctlptr = NULL;
	c->ctllen = 0;
	if (!dsm && !chance(5))
		return;
	d.mode = chance(95) ? rnd() % 5 : rnd();
	d.region = chance(70) ? rnd() % 4 : chance(85) ? rnd() % 16 : rnd();
	d.offset = chance(50) ? rnd() % (2 * page) :
		   chance(60) ? (uint64_t)((rnd() % 12) * page + (chance(30) ? rnd() % page : 0)) :
		   chance(50) ? rnd64() : (uint64_t)(rnd() % (90 * page));
	d.key = chance(70) ? REGION_KEY(d.region) : rnd64();
	d.hdr_len = chance(50) ? 0 : chance(80) ? rnd() % (len + 1) % 64 : rnd();
	d.data_len = rnd();
	cm->cmsg_level = SOL_WIND;
	cm->cmsg_type = WIND_CMSG_DSM;
	cm->cmsg_len = CMSG_LEN(sizeof(d));
	memcpy(CMSG_DATA(cm), &d, sizeof(d));
	c->ctlptr = c->ctl;
	c->ctllen = CMSG_SPACE(sizeof(d));
	c->valid = r < 85;
	if (c->valid)
		return;
	/* malformed control messages */
	switch (rnd() % 8) {
	case 0: cm->cmsg_level = chance(50) ? SOL_IP : SOL_SOCKET; break;
	case 1: cm->cmsg_type = rnd() % 8; break;
	case 2: cm->cmsg_len = rnd() % (CMSG_LEN(sizeof(d)) + 8); break;
	case 3: cm->cmsg_len = rnd(); break;
	case 4: c->ctllen = rnd() % c->ctllen; break;
	case 5: c->ctlptr = bad_page; break;
	case 6: {	/* a second DSM record */
		struct cmsghdr *c2 = (struct cmsghdr *)(c->ctl + CMSG_SPACE(sizeof(d)));

		memcpy(c2, cm, CMSG_LEN(sizeof(d)));
		c->ctllen += CMSG_SPACE(sizeof(d));
		break;
	}
	default: c->ctllen = chance(50) ? (size_t)1 << 31 : 70000; break;
	}
}

/* A well-formed diff after the header, for the diff modes */
static void make_diff(unsigned char *buf, size_t len, const struct cmsghdr *cm)
{
	struct wind_dsm d;
	size_t left;
	unsigned char *p;

	memcpy(&d, CMSG_DATA(cm), sizeof(d));
	if ((d.mode != WIND_DSM_DIRECT_DIFF && d.mode != WIND_DSM_HEADER_DIFF) ||
	    d.hdr_len > len)
		return;
	p = buf + d.hdr_len;
	left = len - d.hdr_len;
	while (left >= sizeof(struct wind_diff_run)) {
		struct wind_diff_run run;

		left -= sizeof(run);
		run.off = rnd() % (2 * page);
		run.len = left < 16 ? left : rnd() % (left < 300 ? left : 300);
		memcpy(p, &run, sizeof(run));
		p += sizeof(run) + run.len;
		left -= run.len;
	}
}

static long do_send(struct worker *w, int fd, int node, bool dsm, int kind,
		    bool *silent_sync)
{
	struct iovec iov[8];
	struct msghdr m = { 0 };
	struct sendctx c;
	struct dest d;
	size_t len = pick_len(), left, off;
	bool sync;
	int flags = pick_send_flags(&sync), niov = 1, i;
	long ret;
	int e;

	if (dsm && chance(60))
		len = rnd() % 4200;	/* fits a small region */
	pick_dest(&d, node);
	/* a sync send to a host that never answers sleeps for the whole
	 * retry budget: keep them rare
	 */
	if (sync && d.silent && !chance(10))
		flags &= ~MSG_WIND_SYNC;
	*silent_sync = sync && d.silent;
	if (len >= WIND_MSG_MIN && len <= BIGBUF)
		wind_msg_make(w->buf, len, rnd());
	else if (len <= BIGBUF)
		wind_fill(w->buf, len, rnd());
	if (chance(25) && len <= BIGBUF)
		niov = 2 + rnd() % 6;
	for (i = 0, off = 0; i < niov; i++) {
		left = (len <= BIGBUF ? len : BIGBUF) - off;
		iov[i].iov_base = w->buf + off;
		iov[i].iov_len = i == niov - 1 ? left : rnd() % (left + 1);
		off += iov[i].iov_len;
	}
	if (len > BIGBUF)
		iov[0].iov_len = len;	/* beyond the buffer: refused on size */
	if (chance(3))
		iov[rnd() % niov].iov_base = chance(50) ? (void *)bad_page : NULL;
	dsm_cmsg(&c, len, dsm);
	if (c.valid && len <= BIGBUF && chance(70))
		make_diff(w->buf, len, (struct cmsghdr *)c.ctl);
	m.msg_name = d.ptr;
	m.msg_namelen = d.len;
	m.msg_iov = iov;
	m.msg_iovlen = niov;
	if (chance(1))
		m.msg_iovlen = 1025;		/* more than UIO_MAXIOV */
	m.msg_control = c.ctlptr;
	m.msg_controllen = c.ctllen;
	if (!dsm && !c.ctlptr && chance(30))
		ret = sendto(fd, w->buf, len <= BIGBUF ? len : BIGBUF, flags,
			     d.ptr, d.len);
	else
		ret = sendmsg(fd, &m, flags);
	e = errno;
	check(kind, ret, e, send_errs, dsm ? "sendmsg DSM flags/len" : "sendmsg flags/len",
	      flags, (int)len, 0);
	if (ret < 0 && !in_set(e, send_errs) && unexpected <= 40) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&d.ss;

		printf("#   to %s:%u family %d len %u\n", inet_ntoa(sin->sin_addr),
		       ntohs(sin->sin_port), sin->sin_family, d.len);
		hist_print(fd);
	}
	if (ret >= 0 && ret != (long)(len <= BIGBUF ? len : BIGBUF) && m.msg_iovlen != 1025)
		report("sendmsg of %zu bytes returned %ld", len, ret);
	return ret;
}

static void op_send(struct worker *w, int i, int kind)
{
	bool silent;
	int fd = lock_slot(i);

	do_send(w, fd, slots[i].node, kind == OP_SEND_DSM, kind, &silent);
	unlock_slot(i);
}

static void op_sendmmsg(struct worker *w, int fd, int node, int kind)
{
	struct mmsghdr mm[4];
	struct iovec iov[4];
	struct dest d[4];
	int n = 1 + rnd() % 4, i, flags = chance(50) ? MSG_DONTWAIT : 0;
	long ret;

	memset(mm, 0, sizeof(mm));
	for (i = 0; i < n; i++) {
		size_t len = 16 + rnd() % 1000;

		pick_dest(&d[i], node);
		wind_msg_make(w->buf + i * 1100, len, rnd());
		iov[i].iov_base = w->buf + i * 1100;
		iov[i].iov_len = len;
		mm[i].msg_hdr.msg_name = d[i].ptr;
		mm[i].msg_hdr.msg_namelen = d[i].len;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		if (d[i].silent)
			flags |= MSG_WIND_RELIABLE;	/* never sync there */
	}
	if (chance(20) && !(flags & MSG_WIND_RELIABLE))
		flags |= MSG_WIND_SYNC;
	ret = sendmmsg(fd, mm, n, flags);
	check(kind, ret, errno, send_errs, "sendmmsg", n, flags, 0);
	if (ret > n)
		report("sendmmsg of %d returned %ld", n, ret);
}

static void check_message(const unsigned char *b, ssize_t n, int flags)
{
	uint32_t magic = 0x57494e44u;

	if (flags & MSG_TRUNC || n < WIND_MSG_MIN)
		return;
	if (b[0] != magic >> 24 || b[1] != ((magic >> 16) & 0xff) ||
	    b[2] != ((magic >> 8) & 0xff) || b[3] != (magic & 0xff))
		return;
	if (((uint32_t)b[8] << 24 | b[9] << 16 | b[10] << 8 | b[11]) != (uint32_t)n)
		return;	/* a DSM header: the first hdr_len bytes */
	if (wind_msg_check(b, n) < 0) {
		__atomic_fetch_add(&corrupt, 1, __ATOMIC_RELAXED);
		report("a received message of %zd bytes failed its self-check", n);
	} else {
		__atomic_fetch_add(&drained_ok, 1, __ATOMIC_RELAXED);
	}
}

static void check_errqueue(struct msghdr *m, long ret, int kind)
{
	struct cmsghdr *c;
	static const int ee_errs[] = { ETIMEDOUT, ECONNREFUSED, ECONNRESET,
				       ECONNABORTED, EMSGSIZE, EACCES, ERANGE,
				       EINVAL, EIO, EBUSY, 0 };

	if (ret != 0)
		report("MSG_ERRQUEUE returned %ld bytes", ret);
	if (!(m->msg_flags & MSG_ERRQUEUE))
		report("MSG_ERRQUEUE report without MSG_ERRQUEUE in msg_flags");
	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		struct sock_extended_err ee;

		if (c->cmsg_level != SOL_IP || c->cmsg_type != IP_RECVERR ||
		    c->cmsg_len < CMSG_LEN(sizeof(ee)))
			continue;	/* truncated by a short msg_controllen */
		memcpy(&ee, CMSG_DATA(c), sizeof(ee));
		__atomic_fetch_add(&errq_reports, 1, __ATOMIC_RELAXED);
		if (ee.ee_origin != SO_EE_ORIGIN_WIND || !in_set(ee.ee_errno, ee_errs) ||
		    ee.ee_info < 1)
			report("error queue report: errno %u origin %u info %u",
			       ee.ee_errno, ee.ee_origin, ee.ee_info);
		return;
	}
	if (!(m->msg_flags & MSG_CTRUNC))
		report("MSG_ERRQUEUE report without IP_RECVERR control message");
	(void)kind;
}

static void do_recv(struct worker *w, int fd, int kind, bool errq)
{
	struct sockaddr_in from;
	unsigned char ctl[256];
	struct iovec iov;
	struct msghdr m = { 0 };
	int flags = 0;
	size_t blen;
	long ret;

	if (chance(85))
		flags |= MSG_DONTWAIT;
	if (errq)
		flags |= MSG_ERRQUEUE;
	if (chance(15))
		flags |= MSG_PEEK;
	if (chance(15))
		flags |= MSG_TRUNC;
	if (chance(3))
		flags |= MSG_OOB;
	if (chance(3))
		flags |= MSG_WAITALL | MSG_CMSG_CLOEXEC;
	blen = chance(70) ? BIGBUF : chance(50) ? 0 : rnd() % 2000;
	iov.iov_base = chance(97) ? (void *)w->rbuf : (void *)bad_page;
	iov.iov_len = blen;
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_name = chance(90) ? (void *)&from : NULL;
	m.msg_namelen = chance(90) ? sizeof(from) : rnd() % sizeof(from);
	m.msg_control = chance(90) ? ctl : NULL;
	m.msg_controllen = m.msg_control ? (chance(90) ? sizeof(ctl) : rnd() % 40) : 0;
	ret = recvmsg(fd, &m, flags);
	check(kind, ret, errno, recv_errs, "recvmsg flags", flags, (int)blen, 0);
	if (ret < 0)
		return;
	if (errq) {
		if (m.msg_control && m.msg_controllen)
			check_errqueue(&m, ret, kind);
		return;
	}
	__atomic_fetch_add(&delivered, 1, __ATOMIC_RELAXED);
	if (!(flags & MSG_TRUNC) && ret > (long)blen)
		report("recvmsg returned %ld into %zu bytes", ret, blen);
	if (ret > (long)blen && !(m.msg_flags & MSG_TRUNC))
		report("recvmsg: %ld bytes, %zu buffer, no MSG_TRUNC", ret, blen);
	if (iov.iov_base == w->rbuf && ret <= (long)blen)
		check_message(w->rbuf, ret, m.msg_flags);
}

static void op_connect(struct worker *w, int fd, int node, int kind)
{
	static const int errs[] = { EINVAL, EAFNOSUPPORT, EFAULT, EAGAIN, 0 };
	struct dest d;
	long ret;

	pick_dest(&d, node);
	if (chance(20)) {	/* disconnect */
		struct sockaddr sa = { .sa_family = AF_UNSPEC };

		ret = connect(fd, &sa, sizeof(sa));
	} else {
		ret = connect(fd, d.ptr, d.len);
	}
	check(kind, ret, errno, errs, "connect", d.ptr ? d.ss.ss_family : -1, (int)d.len, 0);
	(void)w;
}

static void op_bind(struct worker *w, int node, int kind)
{
	static const int errs[] = { EINVAL, EADDRINUSE, EADDRNOTAVAIL,
				    EAFNOSUPPORT, EFAULT, EACCES, 0 };
	struct sockaddr_in sa;
	struct dest d;
	int fd = wind_socket_in(wind_ns(node), SOCK_WIND, 0);
	long ret;

	if (fd < 0) {
		report("socket() in node%d: errno %d", node, errno);
		return;
	}
	pick_dest(&d, node);
	if (chance(50)) {
		wind_sin(&sa, chance(50) ? 0 : node_addr(rnd() % 2),
			 chance(30) ? 0 : BASE_PORT + rnd() % 10);
		ret = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	} else {
		ret = bind(fd, d.ptr, d.len);
	}
	check(kind, ret, errno, errs, "bind", d.ss.ss_family, (int)d.len, 0);
	if (ret == 0 && chance(50)) {	/* and a second bind */
		ret = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
		check(kind, ret, errno, errs, "second bind", 0, 0, 0);
	}
	close(fd);
	(void)w;
}

static void op_poll(int fd, int kind)
{
	static const int errs[] = { EINTR, 0 };
	struct pollfd p = { .fd = fd, .events = rnd() & 0xffff };
	long ret;

	if (chance(70))
		p.events = POLLIN | POLLOUT | POLLERR;
	ret = poll(&p, 1, rnd() % 5);
	check(kind, ret, errno, errs, "poll", p.events, 0, 0);
	if (ret > 0 && (p.revents & ~(p.events | POLLERR | POLLHUP | POLLNVAL)))
		report("poll: revents %#x for events %#x", p.revents, p.events);
	if (ret > 0 && (p.revents & POLLNVAL))
		report("poll: POLLNVAL on a live socket");
}

static void op_ioctl(int fd, int kind)
{
	static const int errs[] = { EFAULT, ENOTTY, EINVAL, ENOENT, ENODEV,
				    EOPNOTSUPP, EPERM, 0 };
	static const unsigned long cmds[] = {
		SIOCINQ, SIOCOUTQ, FIONBIO, FIOASYNC, SIOCGSTAMP, SIOCGSTAMPNS,
		SIOCATMARK, 0x5401 /* TCGETS */, 0x89ff,
	};
	unsigned long cmd = cmds[rnd() % 9];
	int v[16] = { -1 };
	long ret;
	int zero = 0;
	void *p = chance(95) ? (void *)v : (void *)bad_page;

	if (chance(10)) {
		cmd = rnd() & 0xffff;
		/* interface and routing configuration: not Wind's */
		if (cmd >= 0x8900 && cmd <= 0x89ff)
			return;
	}
	if ((cmd == FIONBIO || cmd == FIOASYNC) && p == v && chance(50))
		p = &zero;	/* clear it again */
	ret = ioctl(fd, cmd, p);
	check(kind, ret, errno, errs, "ioctl", (int)cmd, 0, 0);
	if (ret == 0 && (cmd == SIOCINQ || cmd == SIOCOUTQ) && p == v &&
	    v[0] < 0)
		report("ioctl %#lx returned %d", cmd, v[0]);
}

static void op_name(int fd, int kind)
{
	static const int errs[] = { ENOTCONN, EINVAL, EFAULT, 0 };
	struct sockaddr_storage ss;
	socklen_t len = chance(80) ? sizeof(ss) : rnd() % 20;
	socklen_t *lp = chance(95) ? &len : (socklen_t *)bad_page;
	void *p = chance(95) ? (void *)&ss : (void *)bad_page;
	long ret;

	if (chance(3))
		len = (socklen_t)-1;
	if (chance(50))
		ret = getsockname(fd, p, lp);
	else
		ret = getpeername(fd, p, lp);
	check(kind, ret, errno, errs, "get*name", (int)len, 0, 0);
}

static void op_shutdown(int fd, int kind)
{
	static const int errs[] = { ENOTCONN, EINVAL, 0 };
	int how = chance(90) ? rnd() % 3 : rnd();
	long ret = shutdown(fd, how);

	check(kind, ret, errno, errs, "shutdown", how, 0, 0);
}

static void op_reopen(int i, int kind)
{
	uint16_t port;
	long ret;

	pthread_rwlock_wrlock(&slots[i].lock);
	port = slots[i].port;
	ret = close(slots[i].fd);
	check(kind, ret, errno, (const int[]){ 0 }, "close", i, 0, 0);
	if (open_slot(i, port))
		report("reopening socket %d in node%d: errno %d", i, slots[i].node, errno);
	pthread_rwlock_unlock(&slots[i].lock);
}

static void op_timeo(int fd, int kind)
{
	static const int errs[] = { EINVAL, EDOM, EFAULT, 0 };
	struct timeval tv = { 0, 1000 + rnd() % 200000 };
	int name = chance(50) ? SO_SNDTIMEO : SO_RCVTIMEO;
	int len = sizeof(tv);
	long ret;

	if (name == SO_SNDTIMEO)
		tv.tv_sec = rnd() % 2;
	if (chance(5))
		tv.tv_usec = 1000000 + rnd() % 1000;	/* EDOM */
	if (chance(5))
		len = rnd() % sizeof(tv);		/* EINVAL */
	if (chance(3))
		tv.tv_sec = -1;				/* as 0: no wait */
	ret = setsockopt(fd, SOL_SOCKET, name, &tv, len);
	check(kind, ret, errno, errs, "SO_*TIMEO", name, len, tv.tv_usec);
}

static void op_so_error(int fd, int kind)
{
	static const int so_errs[] = { ASYNC_ERRS, 0 };
	int err = -1;
	socklen_t len = sizeof(err);
	long ret = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);

	check(kind, ret, errno, (const int[]){ 0 }, "SO_ERROR", 0, 0, 0);
	if (ret == 0 && err && !in_set(err, so_errs))
		report("SO_ERROR holds %d (%s)", err, strerror(err));
}

/* ---- a helper thread asleep in a sync send --------------------------- */

static void sem_wait_intr(sem_t *sem)
{
	while (sem_wait(sem) < 0 && errno == EINTR)
		;
}

static void *helper_main(void *arg)
{
	struct worker *w = arg;
	struct sleeper *s = &w->job;

	w->helper_tid = gettid();
	for (;;) {
		sem_wait_intr(&w->go);
		if (w->quit)
			return NULL;
		s->started = 1;
		s->ret = sendto(s->fd, s->buf, s->len, MSG_WIND_SYNC,
				(struct sockaddr *)&s->to, sizeof(s->to));
		s->err = errno;
		sem_post(&w->done);
	}
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static struct sleeper *start_sleeper(struct worker *w, int fd, int node)
{
	struct sleeper *s = &w->job;

	memset(s, 0, sizeof(*s));
	s->buf = w->buf;
	s->fd = fd;
	s->len = 16 + rnd() % 3000;
	wind_msg_make(w->buf, s->len, rnd());
	/* a host that never answers, or a live socket of the other node */
	if (chance(70))
		wind_sin(&s->to, inet_addr("10.77.0.99"), BASE_PORT);
	else
		wind_sin(&s->to, node_addr(!node), slots[NSLOTS / 2 * !node].port);
	sem_post(&w->go);
	while (!s->started)
		msleep(1);
	msleep(5 + rnd() % 30);
	return s;
}

/* close() the socket (its last fd, or a dup of a shared one) while another
 * thread sleeps in a sync send on it
 */
static void op_close_sync(struct worker *w, int kind)
{
	/* a shared socket carries whatever options the fuzz gave it, and
	 * may have been shut down for writing (EPIPE)
	 */
	static const int errs[] = { EOPNOTSUPP, EINVAL, EMSGSIZE, EAGAIN,
				    ENOBUFS, ENOMEM, EHOSTUNREACH, ENETUNREACH,
				    EINTR, ENODEV, EPIPE, ASYNC_ERRS,
				    EBADF, ENOTSOCK, 0 };	/* fd gone before the call */
	int node = rnd() % 2, slot = node * NSLOTS / 2 + rnd() % (NSLOTS / 2);
	struct sleeper *s;
	bool shared = chance(40);
	int fd;

	if (shared) {
		fd = dup(lock_slot(slot));
		unlock_slot(slot);
	} else {
		fd = wind_socket_in(wind_ns(node), SOCK_WIND, 0);
	}
	if (fd < 0)
		return;
	s = start_sleeper(w, fd, node);
	if (close(fd))
		report("close during a sync send: errno %d", errno);
	sem_wait_intr(&w->done);
	check(kind, s->ret, s->err, errs, "sync send closed under it", shared, (int)s->len, 0);
	if (s->ret >= 0 && s->ret != (long)s->len)
		report("sync send closed under it returned %ld of %zu", s->ret, s->len);
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* a signal for a thread asleep in a sync send: EINTR, the message stays
 * queued (it goes on to fail or arrive, and close() waits for it)
 */
static void op_signal_sync(struct worker *w, int kind)
{
	/* or the receiver's refusal: a buffer the fuzz shrank below the
	 * message (EMSGSIZE), a socket reopened under it (ECONNRESET)
	 */
	static const int errs[] = { EINTR, ETIMEDOUT, ECONNREFUSED, EMSGSIZE,
				    ECONNRESET, 0 };
	int node = rnd() % 2;
	struct sleeper *s;
	int fd = wind_socket_in(wind_ns(node), SOCK_WIND, 0);

	if (fd < 0)
		return;
	s = start_sleeper(w, fd, node);
	pthread_kill(w->helper, SIGUSR1);
	sem_wait_intr(&w->done);
	check(kind, s->ret, s->err, errs, "sync send signalled", 0, (int)s->len, 0);
	if (s->ret >= 0 && s->ret != (long)s->len)
		report("signalled sync send returned %ld of %zu", s->ret, s->len);
	close(fd);
}

static void op_signal_thread(struct worker *w, int kind)
{
	int t = rnd() % nthreads;

	if (t != w->id)
		pthread_kill(workers[t].th, SIGUSR1);
	count(kind, 0);
}

/* ---- fork: children that register regions and exit ------------------- */

static void child_say(const char *what, int e)
{
	char line[160];
	int n = snprintf(line, sizeof(line), "# UNEXPECTED: child pid %d: %s: errno %d (%s)\n",
			 getpid(), what, e, strerror(e));

	(void)!write(1, line, n);
}

static int child_main(struct worker *w)
{
	static const int add_errs[] = { EINVAL, EEXIST, ENOMEM, EBADF, ENOTSOCK, 0 };
	int node = rnd() % 2, bad = 0, i, fd;
	unsigned char *m = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct wind_region r = { .len = 4 * page };

	if (m == MAP_FAILED)
		return 2;
	if (chance(50)) {
		/* its own socket, regions, a message out, exit without close */
		fd = wind_socket_in(wind_ns(node), SOCK_WIND, 0);
		if (fd < 0) {
			child_say("socket", errno);
			return 3;
		}
		for (i = 0; i < 3; i++) {
			r.addr = (unsigned long)m + i * 4 * page;
			r.id = i;
			r.key = REGION_KEY(i);
			if (setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r))) {
				child_say("REGION_ADD on its own socket", errno);
				bad = 1;
			}
		}
	} else {
		/* regions of its memory on the sockets it inherited */
		for (i = 0; i < 3; i++) {
			int s = rnd() % NSLOTS;

			fd = __atomic_load_n(&slots[s].fd, __ATOMIC_RELAXED);
			r.addr = (unsigned long)m + i * 4 * page;
			r.id = 100 + rnd() % 4;
			r.key = REGION_KEY(r.id);
			if (setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)) &&
			    !in_set(errno, add_errs)) {
				child_say("REGION_ADD on an inherited socket", errno);
				bad = 1;
			}
		}
	}
	{
		struct sockaddr_in to;
		int s = node * NSLOTS / 2 + rnd() % (NSLOTS / 2);

		wind_sin(&to, node_addr(node), slots[s].port);
		wind_msg_make(w->buf, 100, 1);
		if (sendto(fd, w->buf, 100, MSG_DONTWAIT | (chance(30) ? MSG_WIND_SYNC : 0),
			   (struct sockaddr *)&to, sizeof(to)) < 0 &&
		    !in_set(errno, send_errs) && errno != EBADF && errno != ENOTSOCK) {
			child_say("send", errno);
			bad = 1;
		}
	}
	return bad ? 3 : 0;
}

static void op_fork(struct worker *w, int kind)
{
	int status;
	pid_t pid, r;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		report("fork: errno %d", errno);
		return;
	}
	if (pid == 0)
		_exit(child_main(w));
	do
		r = waitpid(pid, &status, 0);
	while (r < 0 && errno == EINTR);
	if (r != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		report("child %d: status %#x", pid, status);
		count(kind, EIO);
	} else {
		count(kind, 0);
	}
}

/* ---- threads -------------------------------------------------------------- */

static int pick_op(void)
{
	static int total;
	int r, k;

	if (!total)
		for (k = 0; k < OP_MAX; k++)
			total += op_weight[k];
	r = rnd() % total;
	for (k = 0; k < OP_MAX; k++) {
		if (r < op_weight[k])
			return k;
		r -= op_weight[k];
	}
	return OP_SEND;
}

static void run_op(struct worker *w, int kind)
{
	int i = rnd() % NSLOTS, fd;

	switch (kind) {
	case OP_SEND:
	case OP_SEND_DSM:
		op_send(w, i, kind);
		return;
	case OP_REOPEN:
		op_reopen(i, kind);
		return;
	case OP_BIND:
		op_bind(w, slots[i].node, kind);
		return;
	case OP_CLOSE_SYNC:
		op_close_sync(w, kind);
		return;
	case OP_SIGNAL_SYNC:
		op_signal_sync(w, kind);
		return;
	case OP_SIGNAL_THREAD:
		op_signal_thread(w, kind);
		return;
	case OP_FORK:
		op_fork(w, kind);
		return;
	}
	fd = lock_slot(i);
	switch (kind) {
	case OP_SETSOCKOPT: op_setsockopt(w, fd, kind); break;
	case OP_GETSOCKOPT: op_getsockopt(w, fd, kind); break;
	case OP_WIND_OPT: op_wind_opt(w, fd, kind); break;
	case OP_REGION_ADD: op_region_add(w, fd, kind); break;
	case OP_REGION_DEL: op_region_del(w, fd, kind); break;
	case OP_REGION_MUNMAP: op_region_munmap(w, fd, kind); break;
	case OP_SENDMMSG: op_sendmmsg(w, fd, slots[i].node, kind); break;
	case OP_RECV: do_recv(w, fd, kind, false); break;
	case OP_RECV_ERRQ: do_recv(w, fd, kind, true); break;
	case OP_CONNECT: op_connect(w, fd, slots[i].node, kind); break;
	case OP_POLL: op_poll(fd, kind); break;
	case OP_IOCTL: op_ioctl(fd, kind); break;
	case OP_NAME: op_name(fd, kind); break;
	case OP_SHUTDOWN: op_shutdown(fd, kind); break;
	case OP_TIMEO: op_timeo(fd, kind); break;
	case OP_SO_ERROR: op_so_error(fd, kind); break;
	}
	unlock_slot(i);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	long n;

	trng = &w->rng;
	w->tid = gettid();
	pthread_barrier_wait(&start_barrier);
	for (n = 0; n < ops_per_thread; n++) {
		w->cur_op = pick_op();
		run_op(w, w->cur_op);
		w->cur_op = -1;
		w->ops++;
		__atomic_add_fetch(&progress, 1, __ATOMIC_RELAXED);
	}
	pthread_barrier_wait(&done_barrier);
	return NULL;
}

/* ---- a crash of the fuzzer itself ---------------------------------------- */

/* A fault in the test (not in the kernel under test): say where, with the
 * mapping around the address, before dying of it.
 */
static void on_fault(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	void *bt[32];
	char line[256];
	int n;

	n = snprintf(line, sizeof(line), "# CRASH: signal %d at address %p, pc %#llx, thread %d\n",
		     sig, si->si_addr, (unsigned long long)uc->uc_mcontext.gregs[REG_RIP],
		     (int)gettid());
	(void)!write(1, line, n);
	n = backtrace(bt, 32);
	backtrace_symbols_fd(bt, n, 1);
	wind_run("grep -E '^' /proc/%d/maps | sed 's/^/# maps: /'", getpid());
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_faults(void)
{
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa = { .sa_sigaction = on_fault,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };

	sigaltstack(&ss, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* ---- the watchdog --------------------------------------------------------- */

/* prints a file line by line as "# PREFIX line" */
static void dump_file(const char *path, const char *prefix)
{
	char buf[8192];
	char *line, *save;

	if (wind_read_file_in(NULL, path, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("# %s%s\n", prefix, line);
}

/* state, wchan and kernel stack of one task (/proc/PID or /proc/self/task/TID) */
static void dump_task(const char *dir)
{
	char path[300], stat[512] = "", wchan[128] = "";

	snprintf(path, sizeof(path), "%s/stat", dir);
	wind_read_file_in(NULL, path, stat, sizeof(stat));
	snprintf(path, sizeof(path), "%s/wchan", dir);
	wind_read_file_in(NULL, path, wchan, sizeof(wchan));
	/* "pid (comm) S ...": up to the state letter */
	if (strrchr(stat, ')'))
		strrchr(stat, ')')[3] = 0;
	printf("# task %s: %s wchan %s\n", dir, stat, wchan);
	snprintf(path, sizeof(path), "%s/stack", dir);
	dump_file(path, "    ");
}

/* Nothing finished for too long: say where every thread and child is, in
 * user space and in the kernel, and fail the test instead of holding the
 * whole suite (and the runner's pipe) until the VM is killed.
 */
static void stall_report(long secs)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int i;

	printf("# STALL: nothing finished for %ld s (main: %s)\n", secs,
	       (const char *)main_step);
	for (i = 0; i < nthreads; i++)
		printf("# worker %d (tid %d): %ld ops done, in %s; its sync-send helper is tid %d\n",
		       i, workers[i].tid, workers[i].ops,
		       workers[i].cur_op >= 0 ? op_names[workers[i].cur_op] : "nothing",
		       workers[i].helper_tid);
	d = opendir("/proc/self/task");
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%.16s", de->d_name);
		dump_task(path);
	}
	if (d)
		closedir(d);
	/* forked children (op_fork) */
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		char stat[512] = "", *p;
		int ppid = 0;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/stat", de->d_name);
		if (wind_read_file_in(NULL, path, stat, sizeof(stat)) <= 0)
			continue;
		p = strrchr(stat, ')');
		if (p && sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == getpid()) {
			snprintf(path, sizeof(path), "/proc/%.16s", de->d_name);
			dump_task(path);
		}
	}
	if (d)
		closedir(d);
	fflush(stdout);
	wind_run("for n in %s %s; do echo \"# $n /proc/net/wind:\"; "
		 "ip netns exec $n cat /proc/net/wind | sed 's/^/#   /'; done",
		 wind_ns(0), wind_ns(1));
	/* blocked tasks of the whole system into the kernel log */
	wind_write_file_in(NULL, "/proc/sysrq-trigger", "w");
	wind_run("dmesg | tail -n 120 | sed 's/^/# dmesg: /'");
	fflush(stdout);
}

static void *watchdog_main(void *arg)
{
	const char *s = getenv("WIND_SYSFUZZ_STALL_S");
	const char *scale = getenv("WIND_TIMEOUT_SCALE");
	long limit = s ? atol(s) : 120, last = -1, idle = 0;

	(void)arg;
	if (scale && atol(scale) > 1)
		limit *= atol(scale);
	for (;;) {
		long now = __atomic_load_n(&progress, __ATOMIC_RELAXED);

		sleep(1);
		if (now != last) {
			last = now;
			idle = 0;
			continue;
		}
		if (++idle < limit)
			continue;
		stall_report(idle);
		/* the children first: they hold the runner's pipe too */
		kill(0, SIGKILL);
		_exit(1);
	}
	return NULL;
}

/* Reads every socket, so that sync senders to them are acknowledged and
 * the delivered messages are checked.
 */
static void *drain_main(void *arg)
{
	static uint64_t rng = 1;
	unsigned char *buf = malloc(BIGBUF);
	struct pollfd p[NSLOTS];
	int i;

	(void)arg;
	trng = &rng;
	while (!__atomic_load_n(&stop_drain, __ATOMIC_RELAXED)) {
		for (i = 0; i < NSLOTS; i++) {
			p[i].fd = __atomic_load_n(&slots[i].fd, __ATOMIC_RELAXED);
			p[i].events = POLLIN;
		}
		poll(p, NSLOTS, 20);
		for (i = 0; i < NSLOTS; i++) {
			int fd, k;

			/* never wait behind a close: the socket it waits
			 * for may be another one this thread must drain
			 */
			if (pthread_rwlock_tryrdlock(&slots[i].lock))
				continue;
			fd = slots[i].fd;

			for (k = 0; k < 64; k++) {
				ssize_t n = recv(fd, buf, BIGBUF, MSG_DONTWAIT);
				int e = errno;

				if (n < 0) {
					if (e != EAGAIN && e != EINTR)
						check(OP_DRAIN_RECV, n, e, recv_errs,
						      "drain recv", i, 0, 0);
					break;
				}
				count(OP_DRAIN_RECV, 0);
				__atomic_fetch_add(&delivered, 1, __ATOMIC_RELAXED);
				check_message(buf, n, 0);
				if (n == 0)	/* shut down, or an empty message */
					break;
			}
			unlock_slot(i);
		}
	}
	free(buf);
	return NULL;
}

/* ---- what the kernel holds -------------------------------------------- */

static long vmstat(const char *name)
{
	char line[128];
	size_t n = strlen(name);
	long v = -1;
	FILE *f;

	if (wind_write_file_in(NULL, "/proc/sys/vm/stat_refresh", "1"))
		return -1;
	f = fopen("/proc/vmstat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ')
			v = atol(line + n + 1);
	fclose(f);
	return v;
}

static long meminfo_kb(const char *name)
{
	char line[128];
	size_t n = strlen(name);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':')
			v = atol(line + n + 1);
	fclose(f);
	return v;
}

/* active objects of a slab cache, -1 if unknown */
static long slab_objs(const char *cache)
{
	char line[512], name[64];
	long active = -1, a;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", name, &a) == 2 && !strcmp(name, cache))
			active = a;
	fclose(f);
	return active;
}

/* the "sockets" column of the WIND line of /proc/net/protocols in ns */
static long wind_inuse(const char *ns)
{
	static char buf[16384];
	char *l;

	if (wind_read_file_in(ns, "/proc/net/protocols", buf, sizeof(buf)) < 0)
		return -1;
	for (l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		char name[32];
		long size, socks;

		if (sscanf(l, "%31s %ld %ld", name, &size, &socks) == 3 &&
		    !strcmp(name, "WIND"))
			return socks;
	}
	return -1;
}

static int proc_wind_lines(const char *ns)
{
	static char buf[65536];
	int n = 0;
	char *p;

	if (wind_read_file_in(ns, "/proc/net/wind", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p; p++)
		n += *p == '\n';
	return n - 1;	/* the header */
}

struct mem {
	long sunreclaim_kb, slab_kb, avail_kb, skbuff, k512, k192;
	long pin_acq, pin_rel;
};

static void mem_read(struct mem *m)
{
	/* let RCU callbacks and deferred frees run first */
	wind_slab_settle();
	m->pin_acq = vmstat("nr_foll_pin_acquired");
	m->pin_rel = vmstat("nr_foll_pin_released");
	m->sunreclaim_kb = meminfo_kb("SUnreclaim");
	m->slab_kb = meminfo_kb("Slab");
	m->avail_kb = meminfo_kb("MemAvailable");
	m->skbuff = slab_objs("skbuff_head_cache");
	m->k512 = slab_objs("kmalloc-512");
	m->k192 = slab_objs("kmalloc-192");
}

static void mem_print(const char *when, const struct mem *m)
{
	printf("# memory %s: SUnreclaim %ld kB, Slab %ld kB, MemAvailable %ld kB, "
	       "skbuff_head_cache %ld, kmalloc-512 %ld, kmalloc-192 %ld objects, "
	       "nr_foll_pin_acquired %ld, nr_foll_pin_released %ld\n",
	       when, m->sunreclaim_kb, m->slab_kb, m->avail_kb, m->skbuff, m->k512,
	       m->k192, m->pin_acq, m->pin_rel);
}

/* ---- the test ------------------------------------------------------------- */

FIXTURE(sysfuzz) {
	int unused;
};

FIXTURE_SETUP(sysfuzz)
{
	int i, fd;

	ASSERT_EQ(0, wind_topo_setup(2));
	fd = wind_socket_in(wind_ns(0), SOCK_WIND, 0);	/* loads wind.ko */
	ASSERT_GE(fd, 0);
	close(fd);
	for (i = 0; i < 2; i++) {
		/* a small retry budget: silent peers fail in about 0.6 s;
		 * idle peers are freed after a second (the GC runs too)
		 */
		ASSERT_EQ(0, wind_write_file_in(wind_ns(i), "/proc/sys/net/wind/retries", "3"));
		ASSERT_EQ(0, wind_write_file_in(wind_ns(i), "/proc/sys/net/wind/rto_max_ms", "200"));
		ASSERT_EQ(0, wind_write_file_in(wind_ns(i), "/proc/sys/net/wind/peer_idle_s", "1"));
	}
	self->unused = 0;
}

FIXTURE_TEARDOWN(sysfuzz)
{
	wind_topo_teardown();
}

TEST_F_TIMEOUT(sysfuzz, random_operations_leave_nothing_behind, 7200)
{
	const char *s_ops = getenv("WIND_SYSFUZZ_OPS");
	const char *s_seed = getenv("WIND_SYSFUZZ_SEED");
	const char *s_thr = getenv("WIND_SYSFUZZ_THREADS");
	long total = s_ops ? atol(s_ops) : 10000, created[2], freed[2];
	long long t0, t1, deadline;
	uint64_t seed, mainrng;
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct mem before, after;
	pthread_t drain, watchdog;
	int i, k, e, memfd;
	char kmsg[256];

	seed = s_seed ? strtoull(s_seed, NULL, 0) :
	       ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)wind_now_ms();
	setvbuf(stdout, NULL, _IOLBF, 0);	/* a crash loses nothing printed */
	catch_faults();
	printf("# WIND_SYSFUZZ_SEED=%llu (replay with it)\n", (unsigned long long)seed);
	if (s_thr)
		nthreads = atoi(s_thr);
	if (nthreads < 1 || nthreads > MAX_THREADS)
		nthreads = 4;
	ops_per_thread = (total + nthreads - 1) / nthreads;
	page = sysconf(_SC_PAGESIZE);
	mainrng = seed ^ 0x5a5a5a5a;
	trng = &mainrng;

	/* no SA_RESTART: a signalled sleep returns EINTR */
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	signal(SIGPIPE, SIG_IGN);
	bad_page = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* it stays mapped PROT_NONE: an unmapped hole would be reused by
	 * the next mmap (a thread stack) and "bad" pointers would hit it
	 */
	ASSERT_NE(MAP_FAILED, bad_page);

	for (i = 0; i < NSLOTS; i++) {
		pthread_rwlockattr_t ra;

		/* the reopen (a writer) must not starve behind the readers */
		pthread_rwlockattr_init(&ra);
		pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
		pthread_rwlock_init(&slots[i].lock, &ra);
		slots[i].node = i / (NSLOTS / 2);
		ASSERT_EQ(0, open_slot(i, BASE_PORT + i % (NSLOTS / 2)));
	}
	mem_read(&before);
	created[0] = wind_stat(wind_ns(0), "PeersCreated");
	created[1] = wind_stat(wind_ns(1), "PeersCreated");
	mem_print("before", &before);
	snprintf(kmsg, sizeof(kmsg), "wind_sysfuzz: start seed %llu", (unsigned long long)seed);
	wind_write_file_in(NULL, "/dev/kmsg", kmsg);

	for (i = 0; i < nthreads; i++) {
		struct worker *w = &workers[i];
		size_t alen = (ARENA_RW + ARENA_RO + ARENA_NONE) * page;

		w->id = i;
		w->rng = seed + 0x1000 * (i + 1);
		w->arena = mmap(NULL, alen, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, w->arena);
		memset(w->arena, 0, ARENA_RW * page);
		ASSERT_EQ(0, mprotect(w->arena + ARENA_RW * page, ARENA_RO * page, PROT_READ));
		ASSERT_EQ(0, mprotect(w->arena + (ARENA_RW + ARENA_RO) * page,
				      ARENA_NONE * page, PROT_NONE));
		memfd = memfd_create("wind_sysfuzz", 0);
		ASSERT_GE(memfd, 0);
		ASSERT_EQ(0, ftruncate(memfd, 8 * page));
		w->shm = mmap(NULL, 8 * page, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
		ASSERT_NE(MAP_FAILED, w->shm);
		close(memfd);
		w->buf = malloc(BIGBUF);
		w->rbuf = malloc(BIGBUF);
		ASSERT_NE(NULL, w->buf);
		ASSERT_NE(NULL, w->rbuf);
	}

	t0 = wind_now_ms();
	ASSERT_EQ(0, pthread_create(&watchdog, NULL, watchdog_main, NULL));
	main_step = "waiting for the workers";
	ASSERT_EQ(0, pthread_barrier_init(&done_barrier, NULL, nthreads));
	ASSERT_EQ(0, pthread_barrier_init(&start_barrier, NULL, nthreads + 1));
	ASSERT_EQ(0, pthread_create(&drain, NULL, drain_main, NULL));
	for (i = 0; i < nthreads; i++) {
		ASSERT_EQ(0, sem_init(&workers[i].go, 0, 0));
		ASSERT_EQ(0, sem_init(&workers[i].done, 0, 0));
		ASSERT_EQ(0, pthread_create(&workers[i].helper, NULL, helper_main, &workers[i]));
	}
	for (i = 0; i < nthreads; i++)
		ASSERT_EQ(0, pthread_create(&workers[i].th, NULL, worker_main, &workers[i]));
	pthread_barrier_wait(&start_barrier);
	for (i = 0; i < nthreads; i++)
		pthread_join(workers[i].th, NULL);
	main_step = "joining the sync-send helpers";
	for (i = 0; i < nthreads; i++) {
		workers[i].quit = 1;
		sem_post(&workers[i].go);
		pthread_join(workers[i].helper, NULL);
		__atomic_add_fetch(&progress, 1, __ATOMIC_RELAXED);
	}
	main_step = "joining the drain thread";
	stop_drain = 1;
	pthread_join(drain, NULL);
	t1 = wind_now_ms();

	/* close everything; every close must succeed */
	main_step = "closing the sockets";
	for (i = 0; i < NSLOTS; i++) {
		__atomic_add_fetch(&progress, 1, __ATOMIC_RELAXED);
		if (close(slots[i].fd))
			report("final close of socket %d: errno %d", i, errno);
		slots[i].fd = -1;
	}
	for (i = 0; i < nthreads; i++) {
		munmap(workers[i].arena, (ARENA_RW + ARENA_RO + ARENA_NONE) * page);
		munmap(workers[i].shm, 8 * page);
		free(workers[i].buf);
		free(workers[i].rbuf);
	}

	/* the figures */
	printf("# all sockets closed %lld ms after the last operation\n", wind_now_ms() - t1);
	printf("# %ld operations in %lld ms by %d threads (seed %llu)\n", total,
	       t1 - t0, nthreads, (unsigned long long)seed);
	for (k = 0; k < OP_MAX; k++) {
		char line[1024];
		int n = 0;

		if (!op_count[k])
			continue;
		n += snprintf(line + n, sizeof(line) - n, "#   %-18s %7ld  ok %ld",
			      op_names[k], op_count[k], err_count[k][0]);
		for (e = 1; e < MAXERR && n < (int)sizeof(line) - 40; e++)
			if (err_count[k][e])
				n += snprintf(line + n, sizeof(line) - n, ", %s %ld",
					      e == ENOTSUPP ? "ENOTSUPP" :
					      e == MAXERR - 1 ? "other" : strerrorname_np(e),
					      err_count[k][e]);
		printf("%s\n", line);
	}
	printf("# messages received %ld (%ld verified intact, %ld corrupt), error-queue reports %ld\n",
	       delivered, drained_ok, corrupt, errq_reports);

	/* the kernel holds nothing of ours: sockets, peers, pins, memory */
	main_step = "waiting for the peers to be freed";
	deadline = wind_now_ms() + 20000;
	for (;;) {
		__atomic_add_fetch(&progress, 1, __ATOMIC_RELAXED);
		freed[0] = wind_stat(wind_ns(0), "PeersFreed");
		freed[1] = wind_stat(wind_ns(1), "PeersFreed");
		if ((wind_stat(wind_ns(0), "PeersCreated") == freed[0] &&
		     wind_stat(wind_ns(1), "PeersCreated") == freed[1] &&
		     wind_inuse(wind_ns(0)) == 0 && wind_inuse(wind_ns(1)) == 0) ||
		    wind_now_ms() > deadline)
			break;
		msleep(100);
	}
	msleep(500);	/* RCU frees of the peers and sockets */
	mem_read(&after);
	mem_print("after", &after);
	for (i = 0; i < 2; i++) {
		long c = wind_stat(wind_ns(i), "PeersCreated");

		printf("# node%d: peers created %ld (%ld during the run), freed %ld; "
		       "WIND sockets in use %ld; /proc/net/wind lines %d\n",
		       i, c, c - created[i], freed[i], wind_inuse(wind_ns(i)),
		       proc_wind_lines(wind_ns(i)));
		EXPECT_EQ(c, freed[i]);
		EXPECT_EQ(0, wind_inuse(wind_ns(i)));
		EXPECT_EQ(0, proc_wind_lines(wind_ns(i)));
	}
	wind_run("for n in %s %s; do ip netns exec $n cat /proc/net/wind_stat | "
		 "awk -v n=$n '$2 != 0 { s = s \" \" $1 \"=\" $2 } END { print n \":\" s }'; done",
		 wind_ns(0), wind_ns(1));
	/* every page pinned during the run was unpinned */
	EXPECT_EQ(before.pin_acq - before.pin_rel, after.pin_acq - after.pin_rel);
	printf("# pins: %ld acquired and %ld released during the run\n",
	       after.pin_acq - before.pin_acq, after.pin_rel - before.pin_rel);
	/* unreclaimable slab back within 4 MiB of where it was */
	EXPECT_LT(after.sunreclaim_kb - before.sunreclaim_kb, 4096);
	EXPECT_LT(after.skbuff - before.skbuff, 2048);
	EXPECT_EQ(0, corrupt);
	EXPECT_EQ(0, unexpected);
	/* the kernel log: nothing suspicious since the start */
	EXPECT_EQ(1, wind_run("dmesg | awk '/wind_sysfuzz: start seed %llu/ { f = 1 } f' | "
			      "grep -E 'WARNING:|BUG:|Oops|Call Trace|refcount_t:|general protection|KASAN|UBSAN|list_(add|del) corruption|blocked for more than|soft lockup'",
			      (unsigned long long)seed));
}

TEST_HARNESS_MAIN
