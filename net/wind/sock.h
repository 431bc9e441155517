/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Wind socket: struct wind_sock, the state a socket shares among its
 * peers (ports, tags, key failures, receive memory, the peer table), and
 * what socket.c offers the other files: the struct proto and proto_ops of
 * both families.
 *
 * Locking, in one place:
 *  - wind_net.port_lock protects the port table; lookups walk it under RCU
 *    and take a socket reference (sockets are SOCK_RCU_FREE).
 *  - Everything in a wind_sock and its peers is protected by the socket
 *    lock, in the TCP way: process context holds it with lock_sock(), the
 *    receive softirq and the timers with bh_lock_sock() and, if the owner
 *    is in process context, the receive path queues the packet on the
 *    socket backlog and the timers retry a jiffy later.  A function
 *    that needs it says so in its comment and checks it with
 *    wind_sock_assert_held() or wind_peer_assert_held() (lockdep only).
 *  - The peer hash is an rhashtable, whose lookups take RCU themselves;
 *    every lookup, walk and change of it holds the socket lock (/proc and
 *    netlink walk the sockets under port_lock, and a socket's peers under
 *    its lock).  A peer is freed after an RCU grace period, once its last
 *    reference is gone.
 *  - A peer holds a reference on its socket; an armed peer timer and a
 *    sync sender sleeping on the peer each hold a reference on the peer.
 */
#ifndef _WIND_SOCK_H
#define _WIND_SOCK_H

#include <linux/ratelimit.h>
#include <linux/rhashtable-types.h>
#include <linux/siphash.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>

struct wind_peer;

/* RESETs a socket sends per second, at most */
#define WIND_RESET_RATE		200

/* Key failures (a DSM message refused with EACCES) a source address
 * may have before its DSM messages are refused unread (dsm.c), and the
 * seconds without a message refused so after which it may fail one more.
 */
#define WIND_KEYFAIL_SLOTS	64
#define WIND_KEYFAIL_BURST	16
#define WIND_KEYFAIL_REFILL	HZ

/* A token bucket of key failures, shared by the addresses that hash to it */
struct wind_keyfail {
	u32 tokens;			/* failures left */
	unsigned long stamp;		/* jiffies the refill counts from */
};

/* Per-socket state; struct inet_sock must stay first. */
/* The pages a socket keeps for its packets (alloc_pkt()) */
#define WIND_PAGE_CACHE	16

struct wind_sock {
	struct inet_sock inet;
	struct hlist_node port_node;	/* in wind_net.ports, port_lock */
	u32 incarnation;		/* random, never 0 */
	siphash_key_t tag_key;		/* derives local tags from peers */
	u32 unverified;			/* peers no packet with their tag
					 * proved yet; socket lock
					 */
	u32 rx_epoch;			/* peers sending us data, counted
					 * per epoch of WIND_RX_EPOCH
					 * (rwnd.c); socket lock
					 */
	unsigned long rx_epoch_start;	/* jiffies */
	u32 rx_senders;			/* verified peers that sent data in
					 * this epoch
					 */
	u32 rx_senders_prev;		/* and in the one before it */
	struct ratelimit_state reset_rs;	/* RESETs sent */
	struct ratelimit_state challenge_rs;	/* stateless CHALLENGEs */
	struct rhashtable addrs;	/* wind_addr by remote address;
					 * socket lock
					 */
	u8 tables_ok:1;			/* addrs and peer_ht are set up;
					 * cleared at close, socket lock
					 */
	siphash_key_t keyfail_key;	/* picks an address's keyfail slot */
	struct wind_keyfail keyfail[WIND_KEYFAIL_SLOTS];	/* socket lock */
	u8 msgtype;			/* enum wind_msgtype */
	u8 encap;			/* WIND_ENCAP_* */
	u8 recverr:1;
	u8 flushing:1;		/* close() waits for the write queues; socket lock */
	u8 closing:1;
	u8 cork:1;			/* WIND_CORK; socket lock */
	u8 nodelay:1;			/* WIND_NODELAY; socket lock */
	u8 rma_stalled:1;		/* a peer's rma_stalled is set */
	u8 rx_batching:1;		/* messages go to rx_batch (deliver.c);
					 * socket lock
					 */
	u8 rmem_short;			/* a packet found no receive memory:
					 * window 0 until some is freed (mem.c)
					 */
	spinlock_t mem_lock;		/* sk_forward_alloc (mem.c) */
	struct sk_buff_head rx_batch;	/* messages of one packet, queued
					 * to the socket at once
					 * (wind_deliver_batch_end());
					 * socket lock
					 */
	u32 npeers;
	u32 ooo_pkts;			/* held packets that arrived out of order; socket lock */
	u32 rq_bytes;			/* truesize of the packets all peers'
					 * rq hold (messages under way); socket
					 * lock
					 */
	struct wind_peer *rcv_claim;	/* whose message may take the receive
					 * buffer past sk_rcvbuf (deliver.c);
					 * socket lock; no reference: cleared
					 * by wind_rq_drop_all(), which
					 * wind_peer_remove() calls first
					 */
	u32 rcv_claim_end;		/* the seq after that message */
	unsigned int starved;		/* peers we advertised a small window */
	int wu_free;			/* the least free receive buffer a
					 * read saw since window_update()
					 * last looked at the starved peers
					 * (socket.c)
					 */
	u32 sndbuf_waiters;		/* writers waiting for send buffer
					 * room (sendmsg.c); socket lock
					 */
	struct timer_list gc_timer;	/* frees idle peers */
	struct rhashtable peer_ht;	/* wind_peer by address and port;
					 * socket lock
					 */
	struct list_head peer_list;	/* every peer, for walks and
					 * eviction (peer.c); socket lock
					 */
	struct xarray regions;		/* id -> wind_region_k, socket lock */
	struct page_frag dfrag;		/* the payloads of messages of more
					 * than one packet, laid end to end
					 * (sendmsg.c); socket lock
					 */
	struct page *pages[WIND_PAGE_CACHE];	/* sk_frag's and dfrag's, to
						 * use again (sendmsg.c);
						 * socket lock
						 */
};

static inline struct wind_sock *wind_sk(const struct sock *sk)
{
	return (struct wind_sock *)sk;
}

/**
 * wind_sock_assert_held() - check that the caller holds the socket lock
 * @sk: the socket
 *
 * Held by its owner (lock_sock()) or by the softirq or a timer
 * (bh_lock_sock()): lockdep_sock_is_held() takes either, as TCP's
 * sock_owned_by_me() checks.  Nothing without CONFIG_LOCKDEP.
 */
static inline void wind_sock_assert_held(const struct sock *sk)
{
	sock_owned_by_me(sk);
}

/* An AF_INET6 socket: struct ipv6_pinfo last, where inet6_create()
 * looks for it.
 */
struct wind6_sock {
	struct wind_sock wind;
	struct ipv6_pinfo inet6;
};

extern struct proto wind_prot;
extern const struct proto_ops wind_dgram_ops;
extern struct proto wind6_prot;
extern const struct proto_ops wind6_dgram_ops;
void wind6_prot_init(void);

#endif /* _WIND_SOCK_H */
