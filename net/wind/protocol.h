/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wind internals: the per-netns, per-socket and per-peer state, and the
 * functions the files of net/wind/ offer each other.
 *
 * Locking, in one place:
 *  - wind_net.port_lock protects the port table; lookups walk it under RCU
 *    and take a socket reference (sockets are SOCK_RCU_FREE).
 *  - Everything in a wind_sock and its peers is protected by the socket
 *    lock, in the TCP way: process context holds it with lock_sock(), the
 *    receive softirq and the timers with bh_lock_sock() and, if the owner
 *    is in process context, the receive path queues the packet on the
 *    socket backlog and the timers retry a jiffy later.
 *  - The peer hash is walked under RCU by readers that do not hold the
 *    socket lock (/proc); writers hold the socket lock.  A peer is freed
 *    after an RCU grace period, once its last reference is gone.
 *  - A peer holds a reference on its socket; an armed peer timer and a
 *    sync sender sleeping on the peer each hold a reference on the peer.
 */
#ifndef _WIND_PROTOCOL_H
#define _WIND_PROTOCOL_H

#include <linux/types.h>
#include <linux/ip.h>
#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/percpu.h>
#include <linux/ratelimit.h>
#include <linux/refcount.h>
#include <linux/rhashtable-types.h>
#include <linux/sctp.h>
#include <linux/siphash.h>
#include <linux/xarray.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/netns/generic.h>
#include <uapi/linux/wind.h>

#include "seq.h"
#include "wire.h"

struct rtable;

/* A pure ACK at least every this many data packets (else delack_ms) */
#define WIND_ACK_EVERY		16
/* Congestion window: initial, floor, ceiling (packets); packets RACK must
 * find lost in one pass to take it for congestion rather than noise
 */
#define WIND_CWND_INIT		16
#define WIND_CWND_MIN		4
#define WIND_CWND_MAX		65535
#define WIND_CONG_BURST		4
/* Packets reported past a hole that make it lost at once (RACK's
 * reordering window is 0 then) while the peer has shown no reordering
 */
#define WIND_DUPTHRESH		3
/* A Wind GSO skb's gso_size is its payload per packet plus this: the
 * core's helpers (skb_gso_transport_seglen(), behind a forwarding hop's
 * MTU check) take the SCTP GSO type Wind borrows for a 12-byte header
 * (offload.c).
 */
#define WIND_GSO_BIAS		(WIND_DATA_HLEN - sizeof(struct sctphdr))
/* Inside UDP the core counts the UDP header alone (skb->encapsulation):
 * gso_size is the whole Wind packet, headers and payload.
 */
#define WIND_GSO_UDP_BIAS	WIND_DATA_HLEN
#define WIND_GSO_UDP_TYPES	(SKB_GSO_UDP_TUNNEL | SKB_GSO_UDP_TUNNEL_CSUM)
/* At most one CHALLENGE per peer in this long (restart claims) */
#define WIND_CHALLENGE_GAP	(HZ / 10)
/* RESETs a socket sends per second, at most */
#define WIND_RESET_RATE		200
#define WIND_PORT_HASH_BITS	8
/* What an answer to a peer that has not proven its address may take, at
 * most: the largest ACK, inside UDP (wind_ack_budget_add())
 */
#define WIND_ACK_BUDGET_MAX	(WIND_ACK_LEN(WIND_MAX_NAKS) + 8)	/* + udphdr */
/* The headroom of every packet Wind builds: link, IP and UDP headers in
 * front of its own
 */
#define WIND_HEADROOM	(MAX_HEADER + sizeof(struct ipv6hdr) + \
			 sizeof(struct udphdr) + WIND_MAX_HLEN)

/* Counters of a network namespace, shown in /proc/net/wind_stat. */
enum wind_mib_field {
	WIND_MIB_IN_PACKETS,
	WIND_MIB_IN_MESSAGES,
	WIND_MIB_IN_ACKS,
	WIND_MIB_IN_DUPLICATES,
	WIND_MIB_IN_ERR_SHORT,
	WIND_MIB_IN_ERR_LENGTH,
	WIND_MIB_IN_ERR_CHECKSUM,
	WIND_MIB_IN_ERR_HEADER,
	WIND_MIB_IN_ERR_NOPORT,
	WIND_MIB_IN_ERR_RCVBUF,
	WIND_MIB_IN_ERR_WINDOW,
	WIND_MIB_IN_ERR_TAG,
	WIND_MIB_IN_REFUSED,
	WIND_MIB_IN_DSM_WRITES,
	WIND_MIB_IN_DSM_BYTES,
	WIND_MIB_OUT_PACKETS,
	WIND_MIB_OUT_MESSAGES,
	WIND_MIB_OUT_ACKS,
	WIND_MIB_OUT_RETRANSMITS,
	WIND_MIB_OUT_ERRORS,
	WIND_MIB_PEERS_CREATED,
	WIND_MIB_PEERS_FREED,
	WIND_MIB_PEERS_UNREACHABLE,
	WIND_MIB_PEERS_RESET,
	WIND_MIB_OUT_PROBES,
	WIND_MIB_OUT_CWND_CUTS,
	WIND_MIB_OUT_GSO_PACKETS,
	WIND_MIB_IN_GSO_PACKETS,
	WIND_MIB_OUT_CHALLENGES,
	WIND_MIB_IN_NO_STATE,
	WIND_MIB_IN_FILTERED,
	WIND_MIB_IN_GRO_PACKETS,
	WIND_MIB_OUT_BUNDLES,		/* packets that carried a bundle */
	WIND_MIB_OUT_BUNDLED,		/* messages sent in a bundle */
	WIND_MIB_IN_BUNDLES,
	WIND_MIB_IN_BUNDLED,
	WIND_MIB_IN_ERR_BUNDLE,		/* malformed bundles, dropped */
	WIND_MIB_OUT_TIMEOUTS,
	WIND_MIB_IN_ERR_BACKLOG,	/* packets the full backlog dropped */
	WIND_MIB_OUT_WIN_PROBES,	/* zero-window probes sent */
	WIND_MIB_IN_ERR_ACK,		/* acks of seqs never sent, ignored */
	WIND_MIB_OUT_DUPACKS_LIMITED,	/* ACKs that duplicates or
					 * out-of-window packets drew, not
					 * sent (net.wind.dupack_ms)
					 */
	WIND_MIB_IN_DSM_UNVERIFIED,	/* DSM packets of unverified peers */
	WIND_MIB_IN_DSM_LIMITED,	/* DSM messages refused unread, EBUSY */
	WIND_MIB_PEERS_EVICTED,		/* quiet peers freed for a new one at
					 * peers_max
					 */
	WIND_MIB_IN_RMA_READS,		/* one-sided reads served */
	WIND_MIB_IN_RMA_ATOMICS,	/* one-sided atomics served */
	WIND_MIB_IN_RMA_COMPLETIONS,	/* answers to our own requests */
	WIND_MIB_MAX
};

struct wind_mib {
	u64 mibs[WIND_MIB_MAX];
};

/* Tunables of a network namespace: net.wind.* */
struct wind_params {
	int rto_min_ms;
	int rto_max_ms;
	int retries;
	int window;
	int delack_ms;
	int peer_idle_s;
	int unverified_max;
	int peers_per_addr_max;		/* peers a first packet makes per
					 * remote address
					 */
	int peers_max;			/* peers a socket holds */
	int encap;			/* WIND_ENCAP of new sockets */
	int udp_port;			/* where we receive Wind in UDP */
	int dupack_ms;			/* one ACK that duplicates draw a
					 * peer per this long, at most
					 */
};

struct wind_net {
	spinlock_t port_lock;		/* protects ports */
	struct hlist_head ports[1 << WIND_PORT_HASH_BITS];
	struct wind_mib __percpu *mib;
	struct wind_params params;
	struct ctl_table_header *sysctl;
	possible_net_t net;
	struct mutex udp_lock;		/* serializes udp_sock changes */
	struct socket __rcu *udp_sock;	/* receives Wind in UDP (udp.c) */
	struct socket __rcu *udp6_sock;	/* and in UDP over IPv6 */
	__be16 udp_dport;		/* udp_port, as sent */
};

extern unsigned int wind_net_id;

static inline struct wind_net *wind_net(const struct net *net)
{
	return net_generic(net, wind_net_id);
}

#define WIND_INC_STATS(net, field) \
	this_cpu_inc(wind_net(net)->mib->mibs[field])
#define WIND_ADD_STATS(net, field, n) \
	this_cpu_add(wind_net(net)->mib->mibs[field], n)

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
	struct wind_rtable *rt;		/* allocated on the first data packet */
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

	/* statistics */
	u64 tx_packets, rx_packets, retransmits, duplicates, drops;
	u64 tx_messages, rx_messages;
};

/* A registered region of a receiving process (WIND_REGION_ADD). */
struct wind_region_k {
	u32 id;
	u32 flags;			/* WIND_REGION_F_* */
	u64 key;
	unsigned long uaddr;		/* the first byte: any alignment */
	u64 len;			/* bytes from uaddr: writes stay inside */
	unsigned long pgoff;		/* uaddr's offset into pages[0] */
	unsigned long npages;		/* the pages [uaddr, uaddr + len) spans */
	struct page **pages;
	struct mm_struct *mm;		/* charged for the pinned pages */
};

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
	u8 rma_stalled:1;		/* a peer's rma_stalled is set */
	u8 rmem_short;			/* a packet found no receive memory:
					 * window 0 until some is freed (mem.c)
					 */
	spinlock_t mem_lock;		/* sk_forward_alloc (mem.c) */
	u32 npeers;
	u32 ooo_pkts;			/* held packets that arrived out of order; socket lock */
	u32 rq_bytes;			/* truesize of the packets all peers'
					 * rq hold (messages under way); socket
					 * lock
					 */
	struct wind_peer *rcv_claim;	/* whose message may take the receive
					 * buffer past sk_rcvbuf (deliver.c);
					 * socket lock; no reference: cleared
					 * by wind_purge_rx(), which
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

/* An AF_INET6 socket: struct ipv6_pinfo last, where inet6_create()
 * looks for it.
 */
struct wind6_sock {
	struct wind_sock wind;
	struct ipv6_pinfo inet6;
};

/* Is @skb (its IP header at skb_network_header()) an IPv6 packet? */
static inline bool wind_skb_v6(const struct sk_buff *skb)
{
	return ip_hdr(skb)->version == 6;
}

/* The source and destination of @skb, an IPv4 packet's v4-mapped. */
static inline void wind_skb_addrs(const struct sk_buff *skb,
				  struct in6_addr *saddr,
				  struct in6_addr *daddr)
{
	if (wind_skb_v6(skb)) {
		*saddr = ipv6_hdr(skb)->saddr;
		*daddr = ipv6_hdr(skb)->daddr;
	} else {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, saddr);
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, daddr);
	}
}

/* Control block of a queued skb.  Send side: the message fragments
 * described, a run of npkts packets from seq (frag) on, all in one state
 * (wq.c); receive side: where it came from and which fragment it is.
 */
struct wind_skb_cb {
	u32 seq;
	u32 msg_len;
	u16 frag;
	u16 nfrags;
	u8 flags;			/* WIND_F_* */
	u8 retransmitted:1;		/* Karn: no RTT sample */
	u8 sacked:1;			/* the peer reported it arrived */
	u8 refused:1;			/* the peer's refusal was reported */
	u8 ooo:1;			/* receive: counted in ooo_pkts */
	u8 kernel:1;			/* send: the kernel's own message (a
					 * one-sided answer): its failure is
					 * nobody's to be told of
					 */
	u16 npkts;			/* packets from seq on that this skb
					 * holds: send, a run of a message
					 * (wq.c); receive, an in-order GSO
					 * skb taken whole (gso_rcv_whole())
					 */
	union {
		struct {			/* send */
			u64 tx_us;		/* time of the last transmission */
			u32 msgid;		/* WIND_CMSG_MSGID, 0: none */
			u16 pkt_size;		/* payload of each packet but
						 * the message's last: the mss
						 * when it was queued
						 */
		};
		struct {			/* receive */
			struct in6_addr saddr;	/* sender, IPv4 v4-mapped */
			__be16 sport;
			s16 rma_status;		/* WIND_F_RMA_DONE: landing */
		};
	};
};

static inline struct windhdr *wind_hdr(const struct sk_buff *skb)
{
	return (struct windhdr *)skb_transport_header(skb);
}

/* How far past sk_rcvbuf (@rcvbuf) a claimed message may take the
 * receive queue (deliver.c, rcv_room()): twice it, the most a socket's
 * receive queue holds (wind.rst, "Memory")
 */
static inline u32 wind_rcv_claim_max(u32 rcvbuf)
{
	return 2 * rcvbuf;
}

#define WIND_SKB_CB(skb) ((struct wind_skb_cb *)&((skb)->cb[0]))

#define WIND_PARAM(sk, name) \
	READ_ONCE(wind_net(sock_net(sk))->params.name)

/* The peer's enum wind_peer_status; its socket locked. */
static inline u32 wind_peer_status(const struct wind_peer *peer)
{
	if (peer->retries)
		return WIND_PEER_STATUS_RETRYING;
	if (!skb_queue_empty(&peer->wq) || !skb_queue_empty(&peer->rq) ||
	    !list_empty(&peer->sync_waiters))
		return WIND_PEER_STATUS_ACTIVE;
	return WIND_PEER_STATUS_IDLE;
}

/* The peers of a socket at one remote address (peer.c) */
struct wind_addr {
	struct rhash_head node;		/* in wind_sock.addrs */
	struct in6_addr addr;		/* an IPv4 one v4-mapped */
	u32 npeers;
	struct rcu_head rcu;
};

/* wind_peer_create() flags: a first packet from it (not a send), and
 * that packet proved its address
 */
#define WIND_PEER_RCV		1
#define WIND_PEER_VERIFIED	2

/* port.c */
int wind_port_get(struct sock *sk, unsigned short snum);
void wind_port_put(struct sock *sk);
/* mem.c: receive memory, net.wind.mem */
extern atomic_long_t wind_memory_allocated;
DECLARE_PER_CPU(int, wind_memory_per_cpu_fw_alloc);
extern long wind_mem[3];
extern int wind_rmem_min;
extern int wind_wmem_min;
bool wind_rmem_set_owner(struct sk_buff *skb, struct sock *sk, bool force);
void wind_rmem_take(struct sk_buff *to, struct sk_buff *skb);
void *wind_sk_kmalloc(struct sock *sk, size_t size, gfp_t gfp);
void *wind_sk_alloc(struct sock *sk, struct kmem_cache *cachep, gfp_t gfp);
int wind_mem_init(void);
void wind_mem_exit(void);

struct sock *wind_port_lookup(struct net *net, const struct in6_addr *daddr,
			      __be16 dport);
int wind_port_init(struct wind_net *wn);

/* peer.c */
struct wind_peer *wind_peer_lookup(struct sock *sk,
				   const struct in6_addr *daddr, __be16 dport);
struct wind_peer *wind_peer_create(struct sock *sk,
				   const struct in6_addr *daddr, __be16 dport,
				   const struct in6_addr *saddr, int oif,
				   gfp_t gfp, unsigned int flags);
int wind_peers_init(struct sock *sk);
int wind_peer_route(struct wind_peer *peer);
void wind_peer_put(struct wind_peer *peer);
void wind_peer_fail(struct wind_peer *peer, int err);
void wind_peer_reset_rx(struct wind_peer *peer, u32 rcv_nxt);
void wind_peer_remove(struct wind_peer *peer);
void wind_peers_destroy(struct sock *sk);
void wind_peers_free_tables(struct sock *sk);
bool wind_peer_idle(const struct wind_peer *peer);
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

/* sendmsg.c: the syscall and the send buffer */
int wind_sendmsg(struct sock *sk, struct msghdr *msg, size_t len);
void wind_pages_release(struct sock *sk);
int wind_dest(struct sock *sk, const void *uaddr, int len,
	      struct in6_addr *daddr, __be16 *dport, int *oif);
int wind_msg_room(const struct wind_peer *peer, size_t total);
int wind_msg_prepare(struct wind_peer *peer, struct sk_buff_head *q,
		     const void *pre, size_t prefix, struct iov_iter *from,
		     size_t len, gfp_t gfp);
void wind_msg_queue(struct wind_peer *peer, struct sk_buff_head *q,
		    u32 total, unsigned int mss, u8 flags, u32 msgid,
		    bool kernel);
void wind_write_space(struct sock *sk);
struct sk_buff *alloc_pkt(struct sock *sk, unsigned int size, gfp_t gfp);

/* push.c: when to send */
void wind_push(struct wind_peer *peer);
void wind_uncork(struct sock *sk, bool clear);

/* tx.c: headers, checksums, IP */
int wind_xmit_skb(struct wind_peer *peer, struct sk_buff *skb, u8 flags);
void wind_send_ack(struct wind_peer *peer);
void wind_ack_budget_add(struct wind_peer *peer, const struct sk_buff *skb);
void wind_send_ctl(struct sock *sk, struct sk_buff *in_skb, u8 type,
		   u32 local_tag, u32 oldest);
bool wind_route_ok(struct wind_peer *peer);
void wind_send_data(struct wind_peer *peer, struct sk_buff *skb,
		    const struct wind_skb_cb *cb, u8 flags, unsigned int npkts);

/* rwnd.c: the window we offer */
u16 wind_rcv_window(struct wind_peer *peer);
u32 wind_full_window(const struct wind_peer *peer);
u32 wind_free_window(const struct wind_peer *peer);
u32 wind_fair_window(const struct wind_peer *peer);
void wind_rx_sender(struct wind_peer *peer);
u32 wind_ack_seq(const struct wind_peer *peer);

/* input.c */
int wind_rcv(struct sk_buff *skb);
int wind6_rcv(struct sk_buff *skb);
int wind_backlog_rcv(struct sock *sk, struct sk_buff *skb);
u32 wind_backlog_limit(const struct sock *sk);
#if IS_ENABLED(CONFIG_KUNIT)
int wind_diff_walk(struct wind_region_k *r, u64 base, u64 rlen,
		   const struct sk_buff *skb, int off, u32 len, u32 *written);
#endif

/* icmp.c: errors about packets we sent */
int wind_err(struct sk_buff *skb, u32 info);
int wind6_err(struct sk_buff *skb, struct inet6_skb_parm *opt, u8 type,
	      u8 code, int offset, __be32 info);
void wind_icmp_error_rcv(struct sock *sk, struct sk_buff *skb);

/* tags.c: which peer state a packet may act on */
struct wind_peer *wind_tags_rcv(struct sock *sk, struct sk_buff *skb,
				struct wind_peer *peer);
bool wind_dsm_unverified(struct sock *sk, struct sk_buff *skb,
			 struct wind_peer *peer);
void wind_reset_rcv(struct sock *sk, struct wind_peer *peer,
		    const struct windhdr *wh);
void wind_challenge_rcv(struct sock *sk, struct wind_peer *peer,
			const struct windhdr *wh);

/* deliver.c */
void wind_data_rcv(struct wind_peer *peer, struct sk_buff *skb);
void wind_gso_rcv(struct wind_peer *peer, struct sk_buff *skb);
void wind_rq_prune(struct wind_peer *peer);
void wind_purge_rx(struct wind_peer *peer);
void wind_data_skip(struct wind_peer *peer, u32 oldest);
/* What a data packet asks of the ACK decision (wind_data_ack()), or'ed over
 * the packets of a GSO skb or a bundle: 0, merely the pending ACK
 */
#define WIND_RX_ACK_NOW	1	/* an ACK at once */
#define WIND_RX_ACK_DUP	2	/* one at once, as a duplicate or an
				 * out-of-window packet may draw
				 * (dupack_limited())
				 */
unsigned int wind_data_rcv_one(struct wind_peer *peer, struct sk_buff *skb);
void wind_data_ack(struct wind_peer *peer, unsigned int how);
void wind_data_mark_napi(struct sock *sk, const struct sk_buff *skb);

/* bundle.c: messages that share a packet */
unsigned int wind_bundle_run(const struct wind_peer *peer,
			     struct sk_buff *skb, struct sk_buff **last,
			     unsigned int *bytes, bool *held);
int wind_xmit_bundle(struct wind_peer *peer, struct sk_buff *first,
		     unsigned int n, unsigned int bytes, u8 flags);
void wind_bundle_rcv(struct wind_peer *peer, struct sk_buff *skb);

/* timer.c */
void wind_timers_init(struct wind_peer *peer);
void wind_rtx_timer_arm(struct wind_peer *peer);
void wind_rtx_timer_stop(struct wind_peer *peer);
void wind_reo_timer_arm(struct wind_peer *peer, u32 us);
bool wind_rtx_timer_due(const struct wind_peer *peer);
void wind_delack_timer_arm(struct wind_peer *peer);
void wind_delack_timer_stop(struct wind_peer *peer);
void wind_timers_shutdown(struct wind_peer *peer);
void wind_rtx_now(struct wind_peer *peer);

static inline u32 wind_rto_min_us(const struct wind_peer *peer)
{
	return WIND_PARAM(peer->sk, rto_min_ms) * USEC_PER_MSEC;
}

/* The sysctls are set one at a time: a ceiling below the floor is
 * taken as the floor (netlink refuses it outright).
 */
static inline u32 wind_rto_max_us(const struct wind_peer *peer)
{
	return max_t(u32, WIND_PARAM(peer->sk, rto_max_ms) * USEC_PER_MSEC,
		     wind_rto_min_us(peer));
}

/* Seqs before @end are sent: the next to send first is @end */
static inline void wind_snd_nxt_set(struct wind_peer *peer, u32 end)
{
	peer->snd_nxt = end;
	if (wind_seq_after(end, peer->snd_max))
		peer->snd_max = end;
}

/* The seq past the last packet of @skb, a write-queue run */
static inline u32 wind_end_seq(const struct sk_buff *skb)
{
	return WIND_SKB_CB(skb)->seq + WIND_SKB_CB(skb)->npkts;
}

/* Does write-queue run @skb hold its message's last packet? */
static inline bool wind_msg_last(const struct sk_buff *skb)
{
	const struct wind_skb_cb *cb = WIND_SKB_CB(skb);

	return cb->frag + cb->npkts == cb->nfrags;
}

/* wq.c: the write queue's runs */
int wind_wq_split(struct wind_peer *peer, struct sk_buff *skb, u32 n);
void wind_wq_trim_head(struct wind_peer *peer, struct sk_buff *skb, u32 n);
u32 wind_wq_packets(const struct wind_peer *peer);
void wind_skb_add_frags(struct sk_buff *to, const struct sk_buff *skb,
			unsigned int off, unsigned int len);

/* ack.c */
enum wind_rtx_reason;
void wind_ack_rcv(struct wind_peer *peer, u32 ack, u16 window,
		  const struct wind_ackhdr *ah);
void wind_retransmit(struct wind_peer *peer, struct sk_buff *skb, u8 flags,
		     enum wind_rtx_reason why);
void wind_retransmit_one(struct wind_peer *peer, struct sk_buff *skb,
			 bool last, u8 flags, enum wind_rtx_reason why);
void wind_rack_reo_timeout(struct wind_peer *peer);

/* cc.c */
void wind_cwnd_grow(struct wind_peer *peer, u32 acked);
void wind_cwnd_reduce(struct wind_peer *peer, bool timeout);

/* dsm.c */
int wind_region_add(struct sock *sk, const struct wind_region *reg);
int wind_region_del(struct sock *sk, u32 id);
void wind_regions_destroy(struct sock *sk);
struct wind_region_k *wind_region_get(struct wind_peer *peer, u32 id, u64 key,
				      int *err);

/* The offset into @r that @off names (WIND_REGION_F_VADDR: an address);
 * one below the region's start becomes one past its end, which every
 * bounds check refuses.
 */
static inline u64 wind_region_off(const struct wind_region_k *r, u64 off)
{
	if (!(r->flags & WIND_REGION_F_VADDR))
		return off;
	return off >= r->uaddr ? off - r->uaddr : U64_MAX;
}

void wind_region_write(struct wind_region_k *r, u64 off,
		       const struct sk_buff *skb, int skb_off, u32 len);
void wind_region_write_buf(struct wind_region_k *r, u64 off, const void *buf,
			   u32 len);
int wind_dsm_deliver(struct wind_peer *peer, struct sk_buff *skb,
		     struct sk_buff **hdr);

/* rma.c: one-sided reads and atomics */
struct wind_rma_wire {
	struct wind_dsmhdr dsm;
	struct wind_rmahdr rma;
};

#define WIND_RMA_HLEN		sizeof(struct wind_rma_wire)
/* Receive queue only (never on the wire: not in WIND_F_ALL): the skb is
 * a one-sided completion, WIND_RMA_HLEN bytes of headers first
 */
#define WIND_F_RMA_DONE		0x80

int wind_rma_request(const struct wind_rma *req, struct wind_rma_wire *w);
int wind_rma_serve(struct wind_peer *peer, struct wind_region_k *r,
		   const struct wind_dsmhdr *dh, struct sk_buff *skb);
int wind_rma_reply_rcv(struct wind_peer *peer, struct sk_buff *skb,
		       const struct wind_dsmhdr *dh, struct sk_buff **done);
void wind_rma_completion(const struct sk_buff *skb, struct wind_rma *rma);
bool wind_rma_must_wait(struct wind_peer *peer, const struct sk_buff *skb);
void wind_deliver_stalled(struct sock *sk);

/* Serve the requests that waited for send buffer, if any did: after
 * acknowledgments or a failure freed some.  Socket locked.
 */
static inline void wind_rma_resume(struct sock *sk)
{
	if (unlikely(wind_sk(sk)->rma_stalled))
		wind_deliver_stalled(sk);
}

/* udp.c */
int wind_udp_net_init(struct net *net);
void wind_udp_net_exit(struct net *net);
int wind_udp_set_port(struct net *net, int port);
__be16 wind_udp_sport(struct net *net);
void wind_peer_set_form(struct wind_peer *peer);
void wind_udp_xmit(struct sock *sk, struct sk_buff *skb, struct rtable *rt,
		   __be32 saddr, __be32 daddr, __be16 sport, u8 tos);
void wind_udp6_xmit(struct sock *sk, struct sk_buff *skb,
		    struct dst_entry *dst, struct in6_addr *saddr,
		    struct in6_addr *daddr, __be16 sport);

/* Does @peer get its packets inside UDP?  Its socket locked. */
static inline bool wind_peer_wants_udp(const struct wind_peer *peer)
{
	return peer->rx_udp ||
	       READ_ONCE(wind_sk(peer->sk)->encap) == WIND_ENCAP_UDP;
}

/* The protocol after @skb's IP header (at skb_network_header()): IPv4's
 * protocol, or over IPv6 the first header that is no extension header
 * (hop-by-hop, destination options, routing, AH) among those before the
 * transport header, which IPv6 parsed and left linear.  A Wind packet's
 * is IPPROTO_WIND or IPPROTO_UDP, an ICMP error's IPPROTO_ICMP(V6).
 */
static inline u8 wind_skb_proto(const struct sk_buff *skb)
{
	const u8 *p, *end;
	u8 nexthdr, type;

	if (!wind_skb_v6(skb))
		return ip_hdr(skb)->protocol;
	nexthdr = ipv6_hdr(skb)->nexthdr;
	p = skb_network_header(skb) + sizeof(struct ipv6hdr);
	end = skb_transport_header(skb);
	while (ipv6_ext_hdr(nexthdr) && nexthdr != NEXTHDR_NONE &&
	       p + sizeof(struct ipv6_opt_hdr) <= end) {
		type = nexthdr;
		nexthdr = p[0];
		if (type == NEXTHDR_FRAGMENT)
			p += sizeof(struct frag_hdr);
		else if (type == NEXTHDR_AUTH)
			p += ipv6_authlen((const struct ipv6_opt_hdr *)p);
		else
			p += ipv6_optlen((const struct ipv6_opt_hdr *)p);
	}
	return nexthdr;
}

/* Did @skb (its IP header at ip_hdr()) reach us inside UDP?  Over IPv6,
 * behind whatever extension headers there are.
 */
static inline bool wind_skb_udp(const struct sk_buff *skb)
{
	return wind_skb_proto(skb) == IPPROTO_UDP;
}

/* offload.c */
int wind_offload_init(void);
void wind_offload_exit(void);
struct sk_buff *wind_udp_gro_receive(struct sock *sk, struct list_head *head,
				     struct sk_buff *skb);
int wind_udp_gro_complete(struct sock *sk, struct sk_buff *skb, int nhoff);

/* netns.c */
int wind_netns_init(void);
void wind_netns_exit(void);

/* netlink.c */
void wind_peer_event(const struct wind_peer *peer, enum wind_peer_event event,
		     int err);
int wind_genl_init(void);
void wind_genl_exit(void);

/* diag.c */
#ifdef WIND_HAVE_DIAG
int wind_diag_init(void);
void wind_diag_exit(void);
#else
static inline int wind_diag_init(void) { return 0; }
static inline void wind_diag_exit(void) { }
#endif

/* info.c */
int wind_peer_info_get(struct sock *sk, char __user *optval,
		       int __user *optlen, int len);

/* socket.c */
extern struct proto wind_prot;
extern const struct proto_ops wind_dgram_ops;
extern struct proto wind6_prot;
extern const struct proto_ops wind6_dgram_ops;
void wind6_prot_init(void);

#endif /* _WIND_PROTOCOL_H */
