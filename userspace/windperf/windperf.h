/* SPDX-License-Identifier: GPL-2.0 */
/*
 * windperf: what its files share (the tool itself: cli.c).
 */
#ifndef WINDPERF_H
#define WINDPERF_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/tipc.h>
#include <linux/wind.h>

#include "kpeers.h"

#define WP_MAGIC	0x57504631u	/* "WPF1" */
#define WP_MAXMSG	(1u << 20)
#define WP_MAXPEERS	4096

enum wp_op {
	OP_ECHO = 1,	/* reply with reply_len bytes, header first */
	OP_SINK = 2,	/* count it for session seq; no reply */
	OP_STAT = 3,	/* reply with struct wp_stat of session seq */
	OP_REGION = 4,	/* Wind: register the read region; struct wp_info */
	OP_RUSAGE = 5,	/* struct wp_info without the region: CPU only */
};

struct wp_hdr {
	uint32_t magic;
	uint8_t op;
	uint8_t pad[3];
	uint32_t seq;		/* exchange number, or bulk session */
	uint32_t reply_len;	/* OP_ECHO: bytes of the reply */
};

struct wp_stat {
	struct wp_hdr h;
	uint64_t bytes;		/* received in the session */
	uint64_t msgs;
};

/* The read test's region on the server: a Wind socket's region of
 * WP_REGION_LEN bytes, byte i of it region_byte(key, i).
 */
#define WP_REGION_ID	0x57505200u	/* "WPR" */
#define WP_REGION_LEN	(1u << 20)
#define WP_LAND_ID	0x5750524cu	/* the client's landing region */

/* The server's answer to OP_REGION and OP_RUSAGE: the region (id 0 for
 * OP_RUSAGE), and the server process's CPU so far: getrusage(RUSAGE_SELF)'s
 * user and system time and context switches, and its CPU time
 * (CLOCK_PROCESS_CPUTIME_ID).  getrusage() splits the exact CPU time into
 * user and system in the ratio of the ticks that found the process in
 * either (cputime_adjust()), over its whole life: a delta can show user
 * time where only the kernel ran.  The voluntary switches say whether the
 * process slept and woke at all.
 */
struct wp_info {
	struct wp_hdr h;
	uint32_t region, pad;
	uint64_t key, len;
	uint64_t utime_us, stime_us;
	uint64_t cpu_ns;	/* CLOCK_PROCESS_CPUTIME_ID */
	uint64_t nvcsw, nivcsw;	/* voluntary, involuntary context switches */
};

static inline uint8_t region_byte(uint64_t key, uint64_t i)
{
	return (uint8_t)((i * 0x9e3779b97f4a7c15ull + key) >> 56);
}

enum proto { P_WIND, P_UDP, P_TCP, P_SCTP, P_TIPC, P_RDS, NPROTO };
extern const char *const proto_names[NPROTO];

/* SCTP, TIPC, RDS: the kernel's message transports (kpeers.c) */
static inline bool kpeer(enum proto p)
{
	return p >= P_SCTP;
}

/* TCP receive buffer: frames are parsed out of it. */
struct rbuf {
	char *buf;
	size_t start, end, cap;
};

struct ctx {
	enum proto proto;
	int n;				/* peers (server: sockets) */
	int *fd;			/* TCP: one per peer; else fd[0] */
	struct sockaddr_storage *addr;	/* the peers (client) */
	struct rbuf *rb;		/* TCP: one per peer */
	char *buf;			/* receive buffer (Wind, UDP) */
	unsigned long returned;		/* TIPC: messages that came back */
};

struct wp_opt {
	bool json;
	const char *test;
	int reps;
	double secs;
	int bufsize;
	int sizes[16];
	int nsizes;
	int ks[16];		/* peers: -k peer counts */
	int nks;
	int reply;
	int udp_timeout_ms;
	int family;		/* AF_INET, or AF_INET6 (-6) */
	bool wire6;		/* client: the peer is IPv6 on the wire */
	int senders;		/* msgs, incast: sending processes (-S) */
	bool more;		/* msgs: Wind with MSG_MORE (-M) */
	bool nagle;		/* TCP, SCTP: Nagle on (-N), else *_NODELAY */
	struct sockaddr_storage local;	/* server: -A address (RDS binds it) */
	bool have_local;
	const char *netns_prefix;	/* incast: -E */
};

/* The command line (cli.c) */
extern struct wp_opt opt;


#define NCTR 13
enum ctr {
	C_OUT, C_IN, C_OUTACK, C_INACK, C_RETRANS, C_LINKTX, C_LINKRX,
	C_CPU, C_RCVERR, C_IPFRAG, C_SNDERR, C_IDLE,
	C_RTO,		/* retransmission timeouts: Wind, TCP */
};

struct samples {
	double *v;
	int n, cap;
};

struct row {
	int size, reply, reps;
	int npeers;		/* peers: round robin over the first npeers */
	double rep[64];		/* per repetition: median us, or Mbit/s */
	double ops;		/* exchanges / messages over all reps */
	double secs;		/* measured time over all reps */
	double best;		/* fastest single exchange (us) */
	struct samples all;	/* latency rows: every exchange of every rep */
	double cd[NCTR];	/* counter deltas summed over the reps */
	uint64_t sent, rcvd, bytes_sent, bytes_rcvd;
	uint64_t timeouts;
	int kind;		/* ROW_INCAST, ROW_HOL: the extra figures */
	double scd[NCTR];	/* incast: the senders' counter deltas, summed */
	int load;		/* hol: 1 while the bulk stream runs */
	double bulk_bytes, bulk_secs;	/* hol: the bulk stream's */
	int land;		/* read: 1 WIND_RMA_F_LAND, 0 into recvmsg() */
	bool srv_cpu;		/* rr, read: the server's CPU is asked for */
	double srv_user_us, srv_sys_us;	/* its CPU over the reps, summed */
	double srv_cpu_us;	/* CLOCK_PROCESS_CPUTIME_ID, summed */
	double srv_wakeups;	/* voluntary switches but the reps' own */
	double srv_nivcsw;
};

enum { ROW_PLAIN, ROW_INCAST, ROW_HOL, ROW_READ };

/* common.c */
extern volatile sig_atomic_t cur_proto;
void watchdog_fired(int sig);
_Noreturn void die(const char *fmt, ...);
double now_s(void);
void *xcalloc(size_t n, size_t size);
int open_socket(enum proto p);
void write_full(int fd, struct iovec *iov, int iovcnt);
socklen_t sa_len(const struct sockaddr_storage *ss);
int tx(struct ctx *c, int fd, const struct sockaddr_storage *to,
       const void *msg, size_t len, int flags);
ssize_t rx(struct ctx *c, int fd, struct rbuf *rb, char **msg,
	   struct sockaddr_storage *from);
void rb_init(struct rbuf *rb);

/* server.c */
int server(enum proto p, int port, int n);

/* stats.c */
uint64_t kv_get(const char *file, const char *name);
/* Value of @name in the @proto section of /proc/net/snmp */
uint64_t snmp_get(const char *proto, const char *name);
void counters(enum proto p, double *c);
double median(double *v, int n);
void add_sample(struct samples *s, double x);
void rep_begin(struct ctx *c, double *c0);
void rep_end(struct ctx *c, struct row *r, const double *c0);
void print_row(struct ctx *c, struct row *r, bool goodput, bool first);

/* exchange.c */
extern uint32_t next_seq;
void seq_init(void);
struct rbuf *peer_rb(struct ctx *c, int i);
int peer_fd(struct ctx *c, int i);
double exchange(struct ctx *c, int i, char *req, int size, int reply,
		uint64_t *timeouts);
char *scratch(size_t size);
void get_info(struct ctx *c, uint8_t op, struct wp_info *in,
	      uint64_t *timeouts);
void srv_cpu_begin(struct ctx *c, struct row *r, struct wp_info *in);
void srv_cpu_end(struct ctx *c, struct row *r, const struct wp_info *in0);
void pp_warm(struct ctx *c, struct row *r);
void pp_rep(struct ctx *c, struct row *r, int rep);
void get_stat(struct ctx *c, uint32_t session, struct wp_stat *st,
	      uint64_t *timeouts);
void bulk_send(struct ctx *c, struct row *r, double secs,
	       uint32_t session, uint64_t *sent);
void bulk_warm(struct ctx *c, struct row *r);
void bulk_rep(struct ctx *c, struct row *r, int rep);
void sync_warm(struct ctx *c, struct row *r);
void sync_rep(struct ctx *c, struct row *r, int rep);
void sync_check(struct ctx *c, struct row *r);

/* read.c */
void read_setup(struct ctx *c);
void read_warm(struct ctx *c, struct row *r);
void read_rep(struct ctx *c, struct row *r, int rep);

/* mem.c */
void mem_test(struct ctx *c);

/* cli.c */
void parse_host(const char *host, struct sockaddr_storage *ss);
void client_open(struct ctx *c, enum proto p,
		 const struct sockaddr_storage *server, int port, int n);

/* msgs.c */
void msgs_warm(struct ctx *c, struct row *r);
void msgs_rep(struct ctx *c, struct row *r, int rep);

/* incast.c */
int incast_client(const enum proto *protos, int np, const char *host,
		  int port);

/* hol.c */
int hol_client(const enum proto *protos, int np, const char *host,
	       int port);

#endif /* WINDPERF_H */
