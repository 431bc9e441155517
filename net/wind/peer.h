/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A peer: the state a socket keeps for one remote (address, port), its send
 * and receive sides, and what peer.c offers: lookup, creation, routes,
 * failure and removal of peers, and the tags derived for them.
 */
#ifndef _WIND_PEER_H
#define _WIND_PEER_H

#include <linux/hrtimer.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/rhashtable-types.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <uapi/linux/wind.h>

#include "rtt.h"
#include "seq.h"
#include "sock.h"
#include "wire.h"

struct dst_entry;
struct sock;
struct wind_addr;
struct wind_rx_table;

enum wind_peer_state {
	WIND_PEER_ACTIVE,
	WIND_PEER_DEAD,			/* unlinked, waiting for its references */
};

/* A sync sender sleeping until its message is acknowledged. */
struct wind_sync_waiter {
	struct list_head node;		/* on wind_peer.sync_waiters */
	u32 first_seq;
	u32 end_seq;			/* first seq after the message */
	int err;			/* 0, or why the message failed */
	bool done;
};

struct wind_refusal {
	u32 seq;			/* first seq of the refused message */
	u32 error;			/* positive errno */
};

/* Packed to stay within 512 bytes (kmalloc-512): an idle peer costs it
 * and its 128-byte receive table; pahole -C wind_peer wind.ko to check.
 */
struct wind_peer {
	struct rhash_head hnode;	/* in wind_sock.peer_ht */
	struct list_head node;		/* in wind_sock.peer_list */
	struct rcu_head rcu;
	struct sock *sk;		/* holds a reference */
	struct wind_addr *src;		/* its address's count of peers */
	refcount_t refcnt;
	/* The peer's address and ours towards it: an IPv4 one v4-mapped,
	 * daddr and saddr its last word.
	 */
	union {
		struct in6_addr daddr6;
		struct {
			__be32 daddr_pad[3];
			__be32 daddr;
		};
	};
	union {
		struct in6_addr saddr6;
		struct {
			__be32 saddr_pad[3];
			__be32 saddr;
		};
	};
	int oif;			/* an IPv6 link-local peer's scope */
	__be16 dport;
	u8 state;			/* enum wind_peer_state */
	u8 got_ack:1;			/* peer acknowledged this state once */
	u8 starved:1;			/* we advertised it a small window */
	u8 tag_ok:1;			/* remote_tag came with our local_tag */
	u8 unverified:1;		/* counted in wind_sock.unverified */
	u8 udp:1;			/* dst and mss are for UDP (udp.c) */
	u8 rx_udp:1;			/* it reached us inside UDP */
	u8 v6:1;			/* an IPv6 peer (not v4-mapped) */
	u8 more:1;			/* the last send said MSG_MORE */
	u32 local_tag;			/* our tag towards the peer, never 0 */
	u32 remote_tag;			/* the peer's tag towards us, 0 unknown */
	u32 mss;			/* payload bytes per data packet */
	u32 challenge_at;		/* jiffies of our last CHALLENGE, or 0 */
	u32 dupack_at;			/* jiffies of our last ACK that a
					 * duplicate or out-of-window packet
					 * drew, or 0 (net.wind.dupack_ms)
					 */
	struct dst_entry *dst;		/* cached route */
	u32 dst_cookie;			/* an IPv6 route's, for dst_check() */
	unsigned long last_active;	/* jiffies of the last packet either way */

	/* send side */
	struct sk_buff_head wq;		/* sent-unacked then unsent, by seq */
	struct sk_buff *send_head;	/* first unsent skb in wq, or NULL */
	u32 snd_una;			/* oldest unacknowledged seq */
	u32 snd_nxt;			/* next seq to transmit for the first time */
	u32 snd_max;			/* past the highest seq ever sent: what
					 * an ACK may cover (a refusal takes
					 * snd_nxt back below it)
					 */
	u32 write_seq;			/* next seq to assign */
	u32 snd_wnd_end;		/* may transmit seqs before this */
	u32 sack_high;			/* highest seq the peer reported */
	u32 rack_tx_us;			/* last transmission of the most
					 * recently sent packet known to have
					 * arrived (RACK)
					 */
	u32 rack_rtt_us;		/* the RTT that packet saw */
	u32 rack_seq;			/* and its seq (a GSO skb's packets
					 * share their time)
					 */
	u32 sacked_out;			/* packets in flight the peer reported */
	u32 cwnd;			/* congestion window, packets */
	u32 ssthresh;			/* slow start below this */
	u32 cwnd_cnt;			/* acked packets toward cwnd + 1 */
	u32 recover;			/* snd_nxt when the window was cut */
	u32 rto_tx_us;			/* time of the last timeout: what
					 * went before it, up to recover, and
					 * is unreported is lost
					 */
	struct wind_rtt rtt;
	u8 retries;			/* timeouts without progress */
	u8 tlp_out:1;			/* a tail loss probe is out */
	u8 pto_armed:1;			/* rtx_timer is the probe timeout */
	u8 reo_armed:1;			/* rtx_timer is RACK's reordering
					 * timeout (ack.c)
					 */
	u8 rto_recovery:1;		/* resending what a timeout lost */
	u8 rtx_on:1;			/* rtx_timer is due: stopping it
					 * only clears this (timer.c)
					 */
	u8 dack_on:1;			/* delack_timer is due, likewise */
	u8 reord_seen:1;		/* the peer reported a packet after a
					 * later one: RACK waits for stragglers
					 */
	u8 rma_stalled:1;		/* receive: an ordered one-sided
					 * request waits for send buffer
					 * (wind_rma_must_wait())
					 */
	u8 room_refused:1;		/* receive: we refused the in-order
					 * packet rcv_refused_seq for room;
					 * the next ACK says so
					 */
	/* receive side, here to fill what the timer's alignment leaves */
	u8 nrefused;
	u8 ack_budget;			/* while !tag_ok: IP payload bytes
					 * it sent since our last answer, up
					 * to WIND_ACK_BUDGET_MAX: what the
					 * next may take (tx.c)
					 */
	u16 ack_pending;		/* packets arrived since our last ack */
	u16 rcv_wnd;			/* window we last advertised */
	u32 rx_epoch;			/* wind_sock.rx_epoch it sent data in
					 * last (wind_rx_sender())
					 */
	struct timer_list rtx_timer;	/* retransmission and window probe */
	struct list_head sync_waiters;

	/* receive side */
	struct wind_rx_table *rxt;	/* allocated on the first data packet */
	u32 rcv_nxt;			/* every seq before this has arrived */
	u32 rcv_wnd_edge;		/* the furthest seq we told it to send
					 * up to (ack + window), exclusive
					 */
	u32 rcv_refused_seq;		/* see room_refused */
	u32 rx_seq_cost;		/* receive buffer a seq of it took,
					 * averaged (1/8 each); 0: none yet
					 */
	__be16 udp_sport;		/* send side: our UDP source port
					 * towards it (here, in a hole)
					 */
	struct sk_buff_head rq;		/* arrived, not yet delivered, by seq */
	u32 rq_pkts;			/* the packets rq's skbs stand for */
	struct timer_list delack_timer;
	struct wind_refusal refused[WIND_MAX_NAKS];

	/* send side: Nagle's rule (push.c) */
	u32 snd_sml;			/* past the last packet sent with room
					 * for another message in it
					 */
	struct hrtimer nagle_timer;	/* sends what the rule holds, ACK or
					 * not (timer.c)
					 */
	unsigned long nagle_armed;	/* bit 0: nagle_timer holds its
					 * reference on the peer
					 */

	/* statistics */
	u64 tx_packets, rx_packets, retransmits, duplicates, drops;
	u64 tx_messages, rx_messages;
};

/**
 * wind_peer_assert_held() - check that the caller holds a peer's socket lock
 * @peer: the peer
 *
 * Its socket's lock protects the peer (wind_sock_assert_held()).
 */
static inline void wind_peer_assert_held(const struct wind_peer *peer)
{
	wind_sock_assert_held(peer->sk);
}

/* The peer's enum wind_peer_status; its socket locked. */
static inline u32 wind_peer_status(const struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	if (peer->retries)
		return WIND_PEER_STATUS_RETRYING;
	if (!skb_queue_empty(&peer->wq) || !skb_queue_empty(&peer->rq) ||
	    !list_empty(&peer->sync_waiters))
		return WIND_PEER_STATUS_ACTIVE;
	return WIND_PEER_STATUS_IDLE;
}

/* wind_peer_create() flags: a first packet from it (not a send), and
 * that packet proved its address
 */
#define WIND_PEER_RCV		1
#define WIND_PEER_VERIFIED	2

struct wind_peer *wind_peer_lookup(struct sock *sk,
				   const struct in6_addr *daddr, __be16 dport);
struct wind_peer *wind_peer_create(struct sock *sk,
				   const struct in6_addr *daddr, __be16 dport,
				   const struct in6_addr *saddr, int oif,
				   gfp_t gfp, unsigned int flags);
int wind_peers_init(struct sock *sk);
void wind_peer_put(struct wind_peer *peer);
void wind_peer_fail(struct wind_peer *peer, int err);
void wind_peer_reset_rx(struct wind_peer *peer, u32 rcv_nxt);
void wind_peers_destroy(struct sock *sk);
void wind_peers_free_tables(struct sock *sk);
void wind_peers_gc(struct timer_list *t);
u32 wind_local_tag(struct sock *sk, const struct in6_addr *daddr,
		   __be16 dport);
int wind_peer_cache_init(void);
void wind_peer_cache_exit(void);
void wind_peer_verified(struct wind_peer *peer);
void wind_report_error(struct sock *sk, struct wind_peer *peer, int err,
		       u32 lost, u32 msgid);

static inline void wind_peer_hold(struct wind_peer *peer)
{
	refcount_inc(&peer->refcnt);
}

/* Seqs before @end are sent: the next to send first is @end */
static inline void wind_snd_nxt_set(struct wind_peer *peer, u32 end)
{
	peer->snd_nxt = end;
	if (wind_seq_after(end, peer->snd_max))
		peer->snd_max = end;
}

#endif /* _WIND_PEER_H */
