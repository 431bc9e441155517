/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small home-based software DSM (in the style of JIAJIA and Mocha) over
 * Wind or over UDP.  See README.md in this directory.
 *
 * SPMD: every node runs the same program, makes the same dsm_alloc()
 * calls in the same order, and synchronises with dsm_barrier() and
 * dsm_lock()/dsm_unlock().  Shared data is coherent for data-race-free
 * programs (release consistency): what a node wrote before a release
 * (barrier, unlock) is seen by a node after its next acquire (barrier,
 * lock).
 */
#ifndef DSM_H
#define DSM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define DSM_PAGE	8192u		/* coherence unit: 2 OS pages */
#define DSM_MAX_NODES	32
#define DSM_MAX_LOCKS	64

enum dsm_tp {
	DSM_TP_WIND,
	DSM_TP_UDP,
	DSM_TP_UDP_REPLYACK,
};

/* How a fault gets its page from the home */
enum dsm_fetch {
	DSM_FETCH_DEFAULT,	/* wind: DSM_FETCH_READ; udp*: DSM_FETCH_REQUEST */
	DSM_FETCH_REQUEST,	/* a request the home's service thread answers
				 * (wind: the reply is Header Through)
				 */
	DSM_FETCH_READ,		/* wind only: a one-sided read of the home's
				 * region, landing in place; the home's
				 * process is not woken
				 */
};

struct dsm_cfg {
	enum dsm_tp transport;
	int nodes;
	int rank;
	/*
	 * Every rank's address: a struct sockaddr_in or sockaddr_in6 (its
	 * port is not used).  If every address is IPv4 the transports use
	 * AF_INET sockets; if any is IPv6, AF_INET6 ones, and an IPv4
	 * address is then reached as v4-mapped (::ffff:a.b.c.d).
	 */
	struct sockaddr_storage addr[DSM_MAX_NODES];
	uint16_t port;			/* host byte order */
	int timeout_s;			/* peers silent longer than this: fatal */
	enum dsm_fetch fetch;
	int verbose;
};

/* Per node; dsm_finish() sums them at rank 0 (time_s: rank 0's) */
struct dsm_stats {
	uint64_t pages_fetched;
	uint64_t diffs;
	uint64_t diff_bytes;
	uint64_t messages;
	uint64_t retransmissions;
	uint64_t lock_acquires;
	uint64_t syscalls;	/* the DSM layer's, dsm_init to dsm_finish */
	uint64_t fetch_served;	/* fetch requests the service thread answered */
	double time_s;
	/* CPU seconds from dsm_init to dsm_finish: the whole process, its
	 * service thread (receives every message), and the node's softirq
	 * time (/proc/stat: the kernel's packet processing, every process)
	 */
	double cpu_s;
	double service_cpu_s;
	double softirq_s;
	double fetch_wait_s;	/* the app thread waiting for pages */
};

/* Round up to whole DSM pages: what dsm_alloc(bytes) takes of the region */
#define DSM_ROUND(bytes) \
	((((size_t)(bytes) + DSM_PAGE - 1) / DSM_PAGE) * DSM_PAGE)

/*
 * Map the shared region (region_bytes, rounded up to DSM pages), start the
 * transport and wait until every node is there.  Exits the process with a
 * message on failure.
 */
void dsm_init(const struct dsm_cfg *cfg, size_t region_bytes);

/*
 * Allocate bytes of shared memory (page-aligned, zero-filled).  Its pages
 * are distributed in blocks: page j of an allocation of m pages is homed
 * at node j * nodes / m.  dsm_alloc_home() homes every page at one node.
 * Collective, as JIAJIA's jia_alloc(): every node makes the same calls in
 * the same order, then a dsm_barrier() before any node touches the memory
 * (a home serves only pages it has allocated).
 */
void *dsm_alloc(size_t bytes);
void *dsm_alloc_home(size_t bytes, int home);

void dsm_barrier(void);
void dsm_lock(int id);		/* 0 <= id < DSM_MAX_LOCKS */
void dsm_unlock(int id);

int dsm_rank(void);
int dsm_nodes(void);

/* The parallel section, whose wall time is reported */
void dsm_timer_start(void);
void dsm_timer_stop(void);

/*
 * End of the program: a barrier, every node's statistics to rank 0 (into
 * *total at rank 0), and a last barrier so that no node leaves while
 * another may still need it.
 */
void dsm_finish(struct dsm_stats *total);

/* This node's own statistics (complete after dsm_finish()) */
void dsm_local_stats(struct dsm_stats *out);

/* The fetch in use after dsm_init(): DSM_FETCH_REQUEST or DSM_FETCH_READ */
enum dsm_fetch dsm_fetch_mode(void);

/* Print to stderr and _exit(2); async-signal-safe */
void dsm_fatal(const char *what, int err) __attribute__((noreturn));

#endif /* DSM_H */
