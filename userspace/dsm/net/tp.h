/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tp: one message-passing interface over three transports, for the
 * papers' micro-benchmarks (dsmbench):
 *
 *   wind  one SOCK_WIND socket per process (the kernel does reliability)
 *   udp   one UDP socket per process and a user-level reliability layer as
 *         the UDP-based DSMs of the papers have it: fragments of up to
 *         8 KiB (IP fragments them further), sequence numbers per peer,
 *         Go-Back-N with a window of 10 fragments (DSE), cumulative ACKs
 *         (on a message's last fragment and every 5 fragments), an
 *         adaptive retransmission timeout (20 ms .. 1 s)
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

/* Open the transport, bind, and (tcp) connect the mesh.  NULL on error. */
struct tp *tp_open(enum tp_proto proto, int rank, int n,
		   const tp_addr *addrs, uint16_t port);
/* Everybody has opened (HELLO to rank 0, GO back): 0 or -1 */
int tp_start(struct tp *tp, int timeout_ms);
/* Send one message to rank peer (blocking).  0 or -1. */
int tp_send(struct tp *tp, int peer, const void *buf, size_t len);
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

/* Read Name Value counters: /proc/net/wind_stat, or /proc/net/snmp */
uint64_t kstat_wind(const char *name);
uint64_t kstat_tcp_retrans(void);

#endif
