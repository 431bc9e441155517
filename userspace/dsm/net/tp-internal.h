/* SPDX-License-Identifier: GPL-2.0 */
/* Inside tp: the state its files share (see tp.h) */
#ifndef DSM_NET_INTERNAL_H
#define DSM_NET_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "tp.h"

/* --- user-level reliability for udp (udp.c) ----------------------------- */

enum { RU_DATA = 1, RU_ACK = 2 };

#define RU_F_ACK	0x1	/* DATA: ack is a cumulative ACK (piggyback) */
#define RU_F_WANTREPLY	0x2	/* DATA: not ACKed; the reply will */

struct ru_hdr {
	uint8_t type;
	uint8_t last;			/* last fragment of its message */
	uint16_t src;			/* sender's rank */
	uint32_t seq;			/* DATA: fragment's; ACK: next expected */
	uint32_t msglen;
	uint32_t off;
	uint16_t flags;			/* RU_F_* */
	uint16_t pad;
	uint32_t ack;			/* RU_F_ACK: next expected from us */
};

struct ru_pkt {
	size_t len;
	uint64_t sent;			/* ns; 0 once retransmitted (Karn) */
	uint64_t first;			/* ns: first sent */
	unsigned char *buf;		/* sizeof(struct ru_hdr) + frag */
};

struct ru_peer {
	uint32_t snd_una, snd_nxt;
	struct ru_pkt *win;		/* slot seq % slots */
	uint64_t deadline;		/* retransmit all unacked at */
	uint64_t srtt, rttvar, rto;
	uint32_t rcv_nxt;
	uint32_t rcv_done;		/* every message before it delivered */
	unsigned char *rmsg;		/* message being reassembled */
	uint32_t rlen, rgot;
	uint16_t rflags;		/* RU_F_WANTREPLY of that message */
};

/* --- messages waiting for tp_recv --------------------------------------- */

struct msg {
	struct msg *next;
	int peer;
	size_t len;
	unsigned char data[];
};

struct q {
	struct msg *h, *t;
};

struct tcp_rx {
	unsigned char *buf;
	size_t len, cap;
};

struct tp {
	enum tp_proto proto;
	int rank, n;
	tp_addr *addr;
	int fd;				/* wind, udp socket; tcp listener */
	int *tfd;			/* tcp: per peer */
	struct tcp_rx *trx;
	struct tp_opts o;		/* every field set (defaults filled in) */
	struct ru_peer *ru;
	unsigned int slots;		/* udp: o.window + o.reserve */
	pthread_mutex_t mu;		/* udp: ru, st */
	pthread_cond_t acked;		/* udp, threaded: an ACK came */
	struct q rq;			/* received by the udp/tcp pumps */
	struct q pend, ctlq;		/* set aside */
	struct tp_stats st;
	unsigned int drop_state;	/* udp: o.drop_pct's generator */
	uint64_t retrans0;
	unsigned char *scratch;
};

/* Count one system call of the layer (o.syscalls), then make it */
#define TP_SYS(tp, call)						\
	((tp)->o.syscalls ? (void)atomic_fetch_add_explicit((tp)->o.syscalls, \
		1, memory_order_relaxed) : (void)0, (call))

void qput(struct q *q, int peer, const void *buf, size_t len);

/* udp.c */
int ru_open(struct tp *tp);
int ru_pump(struct tp *tp, int timeout_ms);
int ru_send(struct tp *tp, int peer, const void *hdr, size_t hdr_len,
	    const void *data, size_t data_len, unsigned int flags);
void ru_close(struct tp *tp);

/* tcp.c */
int tcp_pump(struct tp *tp, int wfd, int timeout_ms);
int tcp_send(struct tp *tp, int peer, const void *buf, size_t len);
int tcp_mesh(struct tp *tp, uint16_t port);

#endif /* DSM_NET_INTERNAL_H */
