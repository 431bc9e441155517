/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the DSM: the protocol messages and the transport interface.
 */
#ifndef DSM_INTERNAL_H
#define DSM_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "dsm.h"

#define DSM_REGION_ID	1

/* Protocol messages (the same for every transport) */
enum dsm_msg_type {
	DSM_HELLO = 1,		/* wind: "are you there" at start; arg0, arg1:
				 * the low and high halves of the sender's
				 * region key, drawn for this run
				 */
	DSM_FETCH_REQ,		/* arg0 = page: send me your copy */
	DSM_FETCH_REP,		/* arg0 = page; data: the page (udp); wind:
				 * Header Through, or (fetch by read) made
				 * by the transport from the read's
				 * completion
				 */
	DSM_DIFF,		/* arg0 = page; data: a diff (udp) */
	DSM_BARRIER,		/* arg0 = epoch; data: struct dsm_stats */
	DSM_BARRIER_REL,	/* arg0 = epoch */
	DSM_LOCK_ACQ,		/* arg0 = lock */
	DSM_LOCK_GRANT,		/* arg0 = lock */
	DSM_LOCK_REL,		/* arg0 = lock */
};

struct dsm_msg {
	uint8_t type;
	uint8_t pad;
	uint16_t src;		/* sender's rank */
	uint32_t arg0;
	uint32_t arg1;
	uint32_t len;		/* data bytes after the header */
};

/* Largest protocol message: header + a page's diff */
#define DSM_MAX_MSG	(sizeof(struct dsm_msg) + DSM_PAGE + 64)

/* send flags */
#define TP_SYNC		0x1	/* return once the peer processed it */
#define TP_WANTREPLY	0x2	/* a reply is coming (udp-replyack: it acks) */

struct dsm_transport {
	const char *name;
	void (*init)(void);
	/* Control message; reply_to: the seq dsm_dispatch() had with the
	 * request it answers (0 from both backends: udp's ACKs are
	 * cumulative and ride on every reply, Wind needs none)
	 */
	void (*send)(int dest, const struct dsm_msg *m, const void *data,
		     int flags, uint32_t reply_to);
	/* Fetch reply: the page to the faulting node (data lands in place) */
	void (*send_page)(int dest, uint32_t page, uint32_t reply_to);
	/*
	 * Fetch by one-sided read (NULL: not offered): ask the home's kernel
	 * for the page, to land in place; the completion, whose cookie must
	 * be cookie, goes to dsm_dispatch() as a DSM_FETCH_REP
	 */
	void (*read_page)(int home, uint32_t page, uint64_t cookie);
	/* One diff of page to its home; last: the last of this flush to it */
	void (*send_diff)(int home, uint32_t page, const void *diff,
			  size_t len, int last);
	/* Wait until every diff sent is applied at its home */
	void (*flush_wait)(void);
	void *(*service)(void *arg);	/* the service thread */
	uint64_t (*retransmissions)(void);
	void (*finish)(void);		/* after the last barrier */
};

extern const struct dsm_transport dsm_tp_wind, dsm_tp_udp;

/* Shared state of the node */
struct dsm_node {
	struct dsm_cfg cfg;
	char *base;			/* the region, same address everywhere */
	size_t len;
	uint32_t npages;
	uint8_t *home;			/* per page; 0xff: unallocated */
	const struct dsm_transport *tp;
	int replyack;			/* udp-replyack */
	int fetch_read;			/* DSM_FETCH_READ: tp->read_page() */
	int evfd[2];			/* pipe: the service thread wakes the app */
	char *fetch_buf;		/* udp: the page of the fetch reply */
	atomic_uint_fast64_t fetch_done;
	atomic_uint_fast32_t fetch_page;
	atomic_uint_fast64_t barrier_rel;	/* epochs released */
	atomic_uint_fast64_t grants[DSM_MAX_LOCKS];
	atomic_uint_fast64_t messages;
	atomic_uint_fast64_t syscalls;	/* every system call of the layer */
	atomic_uint_fast64_t fetch_served;	/* DSM_FETCH_REQ answered */
	atomic_int finishing;		/* last barrier sent: errors are moot */
	struct dsm_stats stats;
	struct dsm_stats peer_stats[DSM_MAX_NODES];
};

extern struct dsm_node dsm;

/* Count one system call of the DSM layer (either thread), then make it */
#define DSM_SYS(call) \
	(atomic_fetch_add_explicit(&dsm.syscalls, 1, memory_order_relaxed), \
	 (call))

/* Called by the transport's service thread for each message (seq: 0) */
void dsm_dispatch(const struct dsm_msg *m, const void *data, size_t len,
		  uint32_t seq);
/* Wake the app thread after changing one of the counters above */
void dsm_wake(void);
/* App thread: wait until cond(arg) holds; fatal after the timeout */
void dsm_wait(int (*cond)(void *), void *arg, const char *what);

double dsm_now(void);

/* The family of the transports' sockets: AF_INET6 if a rank's address is
 * IPv6, else AF_INET
 */
int dsm_family(void);
/* rank's address in that family, port dsm.cfg.port, into *out; its length */
unsigned int dsm_peer_addr(int rank, struct sockaddr_storage *out);
/* An address as text (no port), for messages: buf, DSM_ADDRSTRLEN bytes */
#define DSM_ADDRSTRLEN	64
const char *dsm_addr_str(const void *sa, char *buf);

#endif /* DSM_INTERNAL_H */
