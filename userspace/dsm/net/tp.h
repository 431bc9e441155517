/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp: the one user-level transport layer of the S-DSM tree, one
 * message-passing interface over three transports, used by the S-DSM's
 * backends (lib/tp_udp.c, lib/tp_wind.c) and by the papers'
 * micro-benchmarks (bench/dsmbench.c):
 *
 *   wind  one SOCK_WIND socket per process (the kernel does reliability);
 *         tp_wind_*() below are the Wind sends both users share
 *   udp   one UDP socket per process and a user-level reliability layer as
 *         the UDP-based DSMs of the papers have it: fragments (by default
 *         of up to 8 KiB; IP fragments them further), sequence numbers
 *         per peer, Go-Back-N with a window of fragments (by default 10,
 *         as DSE), cumulative ACKs (on a message's last fragment, after
 *         the message was delivered, and every 5 fragments), an adaptive
 *         retransmission timeout (by default 20 ms .. 1 s); optionally
 *         (struct tp_opts) every data datagram carries the cumulative ACK
 *         and a request whose reply is coming is acknowledged by it
 *         (Mocha)
 *   tcp   a full mesh: one TCP connection per pair of processes,
 *         length-prefixed messages
 *
 * Every process has a rank 0..n-1 and one address per rank, all IPv4
 * or all IPv6 (tp_addr_parse()); all ranks use the same port number
 * (their addresses differ).
 */
#ifndef DSMBENCH_TP_H
#define DSMBENCH_TP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <netinet/in.h>
#include <linux/wind.h>

/* A rank's address: IPv4 or IPv6 */
typedef union {
	struct sockaddr sa;
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
} tp_addr;

/* An address as inet_pton() reads it, IPv4 or IPv6: 0 or -1 */
int tp_addr_parse(tp_addr *a, const char *s);
socklen_t tp_addr_len(const tp_addr *a);
void tp_addr_set_port(tp_addr *a, uint16_t port);
/* The same host (family and address, not port) */
bool tp_addr_same_host(const tp_addr *a, const tp_addr *b);

enum tp_proto { TP_WIND, TP_UDP, TP_TCP };

struct tp_stats {
	uint64_t msgs_out, msgs_in;
	uint64_t pkts_out;		/* udp: datagrams sent (data + acks) */
	uint64_t retrans;		/* udp: our count; wind, tcp: the kernel's */
	uint64_t acks_out;		/* udp only */
};

struct tp;

/*
 * How a tp is used; tp_open() takes the defaults (dsmbench's).  A zero
 * field takes its default too.
 */
struct tp_opts {
	/* udp: fragments in flight per peer (10); a send from the thread
	 * in tp_poll() (a reply) may use reserve more (0)
	 */
	unsigned int window, reserve;
	size_t frag;			/* udp: payload per datagram (8192) */
	unsigned int ack_every;		/* udp: ACK every N fragments (5) */
	uint64_t rto_min_ns, rto_max_ns;	/* udp: 20 ms .. 1 s */
	uint64_t rto_init_ns;		/* udp: before an RTT sample (100 ms) */
	/* udp: a fragment unacknowledged this long gives its peer up
	 * (give_up() below); 0: never
	 */
	uint64_t give_up_ns;
	bool piggyback;			/* udp: data carries the ACK (Mocha) */
	int drop_pct;			/* udp: drop this % of our datagrams */
	/*
	 * AF_INET6: dual stack (IPv4 ranks v4-mapped); bind_any: bind the
	 * wildcard address, not our rank's (a list mixing families)
	 */
	bool dual_stack, bind_any;
	/*
	 * udp, threaded: one thread calls tp_poll() (and so deliver()), the
	 * others only send; a send waiting for room in the window sleeps
	 * until tp_poll() takes the ACKs.  Else tp_send() takes them itself.
	 */
	bool threaded;
	/*
	 * udp: each whole message, before its ACK goes out (the ACK then
	 * means "processed"); NULL: queued for tp_recv()
	 */
	void (*deliver)(void *arg, int peer, const void *buf, size_t len);
	/* udp: a peer given up (give_up_ns); its messages are dropped */
	void (*give_up)(void *arg, int peer);
	void *arg;
	/* Counted if non-NULL: every system call of the layer; every
	 * datagram sent but retransmissions
	 */
	_Atomic uint64_t *syscalls, *datagrams;
};

/* Open the transport, bind, and (tcp) connect the mesh.  NULL on error. */
struct tp *tp_open(enum tp_proto proto, int rank, int n,
		   const tp_addr *addrs, uint16_t port);
struct tp *tp_open_opts(enum tp_proto proto, int rank, int n,
			const tp_addr *addrs, uint16_t port,
			const struct tp_opts *opts);
/* Everybody has opened (HELLO to rank 0, GO back): 0 or -1 */
int tp_start(struct tp *tp, int timeout_ms);
/* Send one message to rank peer (blocking).  0 or -1. */
int tp_send(struct tp *tp, int peer, const void *buf, size_t len);

/* tp_sendv() flags */
#define TP_F_WANTREPLY	0x1	/* udp, piggyback: a reply will ACK it */
/*
 * udp: one message of hdr and data to rank peer.  0, or -1 (errno
 * ENOBUFS: a send from tp_poll()'s thread found no room in the window).
 */
int tp_sendv(struct tp *tp, int peer, const void *hdr, size_t hdr_len,
	     const void *data, size_t data_len, unsigned int flags);
/*
 * udp: wait up to timeout_ms for datagrams, take them all (deliver()
 * each message), retransmit what is due.  0 or -1.
 */
int tp_poll(struct tp *tp, int timeout_ms);
/* udp: fragments sent and not yet acknowledged, to every peer */
unsigned int tp_unacked(struct tp *tp);
/*
 * udp: wait up to timeout_ms until every fragment sent is acknowledged
 * (threaded: tp_poll()'s thread takes the ACKs; else this call does).
 * 0, or -1 on timeout.
 */
int tp_flush(struct tp *tp, int timeout_ms);
/*
 * Receive one message (any peer) into buf (at most max bytes; longer
 * messages are an error).  Returns its length and sets *peer, 0 on
 * timeout (timeout_ms < 0: wait for ever), -1 on error.
 */
ssize_t tp_recv(struct tp *tp, int *peer, void *buf, size_t max,
		int timeout_ms);
/* Wind only: the socket, for Direct Map sends and regions */
int tp_fd(struct tp *tp);
/*
 * A barrier through rank 0 carrying one uint64_t per rank (summed at
 * rank 0 into *sum if non-NULL).  0 or -1.
 */
int tp_barrier(struct tp *tp, uint64_t val, uint64_t *sum);
/* Retransmissions so far (udp: ours; wind, tcp: the namespace's counter) */
uint64_t tp_retrans(struct tp *tp);
const struct tp_stats *tp_stats(struct tp *tp);
/* Flush (udp: wait up to 3 s for ACKs) and close */
void tp_close(struct tp *tp);

const char *tp_name(enum tp_proto p);
int tp_parse(const char *s, enum tp_proto *p);
uint64_t now_ns(void);

/*
 * Wind: one message of hdr and data to dst with a WIND_CMSG_DSM made of
 * *d (its hdr_len set to hdr_len), send flags flags; EINTR is retried.
 * Returns what sendmsg() does.
 */
ssize_t tp_wind_send_dsm(int fd, const void *dst, socklen_t dst_len,
			 const void *hdr, size_t hdr_len,
			 const void *data, size_t data_len,
			 const struct wind_dsm *d, int flags);
/*
 * Wind: send buf to dst sync-ordered until its kernel acknowledges it
 * (a peer not bound yet refuses it, or cannot be reached yet: try again
 * every 100 ms), at most timeout_ms.  0; -1 on another error (errno);
 * -2 if not answered in time (errno: the last refusal).
 */
int tp_wind_reach(int fd, const void *dst, socklen_t dst_len,
		  const void *buf, size_t len, int timeout_ms,
		  _Atomic uint64_t *syscalls);

/* Read Name Value counters: /proc/net/wind_stat, or /proc/net/snmp */
uint64_t kstat_wind(const char *name);
uint64_t kstat_tcp_retrans(void);

#endif
