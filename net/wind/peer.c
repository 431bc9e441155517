// SPDX-License-Identifier: GPL-2.0
/*
 * The peer table of a socket: one wind_peer per remote (address, port),
 * created on the first send to it or the first packet from it, freed when
 * the socket closes, after peer_idle_s without traffic, or earlier when
 * quiet and the socket is at peers_max.  The table is an rhashtable that
 * grows and shrinks with it; peer_list links every peer for walks.
 */
#include <linux/errqueue.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "cc.h"
#include "deliver.h"
#include "mem.h"
#include "netlink.h"
#include "netns.h"
#include "peer.h"
#include "rtt.h"
#include "rxtable.h"
#include "sendmsg.h"
#include "skb.h"
#include "sock.h"
#include "timers.h"
#include "tx.h"
#include "udp.h"
#include "wire.h"
#include "wq.h"

/* Peers have a cache of their own: with an IPv6 address they no longer
 * fit kmalloc-512, and /proc/slabinfo counts them apart.
 */
static struct kmem_cache *wind_peer_cachep;

/* What a peer is found by */
struct peer_key {
	struct in6_addr addr;		/* an IPv4 one v4-mapped */
	__be16 port;
};

/* The peers of a socket at one remote address */
struct wind_addr {
	struct rhash_head node;		/* in wind_sock.addrs */
	struct in6_addr addr;		/* an IPv4 one v4-mapped */
	u32 npeers;
	struct rcu_head rcu;
};

static u32 peer_hash(const struct in6_addr *a, __be16 port, u32 seed)
{
	return jhash_3words((__force u32)a->s6_addr32[3], (__force u32)port,
			    (__force u32)(a->s6_addr32[0] ^ a->s6_addr32[1] ^
					  a->s6_addr32[2]), seed);
}

/* The table's seed is random: a sender that picks its addresses and
 * ports cannot pile its peers into one chain.
 */
static u32 peer_key_hash(const void *data, u32 len, u32 seed)
{
	const struct peer_key *k = data;

	return peer_hash(&k->addr, k->port, seed);
}

static u32 peer_obj_hash(const void *data, u32 len, u32 seed)
{
	const struct wind_peer *peer = data;

	return peer_hash(&peer->daddr6, peer->dport, seed);
}

static int peer_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct peer_key *k = arg->key;
	const struct wind_peer *peer = obj;

	return peer->dport != k->port || !ipv6_addr_equal(&peer->daddr6,
							   &k->addr);
}

static const struct rhashtable_params peer_params = {
	.key_len		= sizeof(struct peer_key),
	.head_offset		= offsetof(struct wind_peer, hnode),
	.hashfn			= peer_key_hash,
	.obj_hashfn		= peer_obj_hash,
	.obj_cmpfn		= peer_cmp,
	.automatic_shrinking	= true,
};

static const struct rhashtable_params addr_params = {
	.key_len		= sizeof(struct in6_addr),
	.key_offset		= offsetof(struct wind_addr, addr),
	.head_offset		= offsetof(struct wind_addr, node),
	.automatic_shrinking	= true,
};

/**
 * wind_peers_init() - set up a new socket's peer table
 * @sk: the socket
 *
 * Two tables that grow and shrink with the peers: the peers by address
 * and port, and the count of peers per remote address (an entry per
 * address the socket has peers at).
 *
 * Return: 0 or -ENOMEM.
 */
int wind_peers_init(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	int err;

	INIT_LIST_HEAD(&ws->peer_list);
	err = rhashtable_init(&ws->peer_ht, &peer_params);
	if (err)
		return err;
	err = rhashtable_init(&ws->addrs, &addr_params);
	if (err) {
		rhashtable_destroy(&ws->peer_ht);
		return err;
	}
	ws->tables_ok = 1;
	return 0;
}

/**
 * wind_peers_free_tables() - free a closing socket's empty tables
 * @sk: the socket, owned by the caller (lock_sock()), closing, every
 *	peer removed
 *
 * Lookups from then on (a packet that found the socket before it was
 * unhashed, from the backlog) find no peer, and none is made.
 */
void wind_peers_free_tables(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);

	wind_sock_assert_held(sk);
	if (!ws->tables_ok)
		return;
	ws->tables_ok = 0;
	rhashtable_destroy(&ws->peer_ht);
	rhashtable_destroy(&ws->addrs);
}

/* Count @peer at its address; a first packet (@rcv) may not take one
 * address past peers_per_addr_max.
 */
static int addr_get(struct wind_peer *peer, bool rcv, gfp_t gfp)
{
	struct wind_sock *ws = wind_sk(peer->sk);
	struct wind_addr *a, *old;

	a = rhashtable_lookup_fast(&ws->addrs, &peer->daddr6, addr_params);
	if (a) {
		if (rcv && a->npeers >= WIND_PARAM(peer->sk, peers_per_addr_max))
			return -EDQUOT;
		a->npeers++;
		peer->src = a;
		return 0;
	}
	if (rcv && !WIND_PARAM(peer->sk, peers_per_addr_max))
		return -EDQUOT;
	a = kzalloc(sizeof(*a), gfp);
	if (!a)
		return -ENOMEM;
	a->addr = peer->daddr6;
	a->npeers = 1;
	old = rhashtable_lookup_get_insert_fast(&ws->addrs, &a->node,
						addr_params);
	if (old) {
		/* an error (the table could not grow): no state for it */
		kfree(a);
		return IS_ERR(old) ? PTR_ERR(old) : -EEXIST;
	}
	peer->src = a;
	return 0;
}

static void addr_put(struct wind_peer *peer)
{
	struct wind_addr *a = peer->src;

	peer->src = NULL;
	if (!a || --a->npeers)
		return;
	rhashtable_remove_fast(&wind_sk(peer->sk)->addrs, &a->node,
			       addr_params);
	kfree_rcu(a, rcu);
}

/**
 * wind_local_tag() - our tag towards a remote address and port
 * @sk: the socket
 * @daddr: the peer's address
 * @dport: the peer's Wind port
 *
 * The tag every packet to that peer carries as src_tag, and every packet
 * from it must carry as dst_tag once it knows it (wind.rst, "Tags"):
 * derived from a per-socket secret, so a new socket on the same port
 * has new tags, and a peer that knows its own tag learns nothing about
 * the socket's tags towards other peers.
 *
 * Return: the tag, never 0.
 */
u32 wind_local_tag(struct sock *sk, const struct in6_addr *daddr,
		   __be16 dport)
{
	const u32 *a = (const u32 *)daddr->s6_addr32;
	u32 tag;

	/* an IPv4 peer's tag as before IPv6: its address and port */
	if (ipv6_addr_v4mapped(daddr))
		tag = siphash_2u32(a[3], (__force u32)dport,
				   &wind_sk(sk)->tag_key);
	else
		tag = siphash_3u64((u64)a[0] << 32 | a[1],
				   (u64)a[2] << 32 | a[3],
				   (__force u32)dport, &wind_sk(sk)->tag_key);

	return tag ?: 1;
}

/**
 * wind_peer_verified() - the peer proved it receives at its address
 * @peer: the peer, its socket locked
 *
 * Called when a packet from the peer carried our local tag: its
 * remote_tag is now the one an off-path host cannot forge.
 */
void wind_peer_verified(struct wind_peer *peer)
{
	wind_peer_assert_held(peer);
	peer->tag_ok = 1;
	if (peer->unverified) {
		peer->unverified = 0;
		wind_sk(peer->sk)->unverified--;
	}
}

/**
 * wind_peer_lookup() - find the peer state for a remote address and port
 * @sk: the socket, locked
 * @daddr: the peer's address, an IPv4 one v4-mapped
 * @dport: the peer's Wind port
 *
 * Return: the peer, without a reference, or NULL.
 */
struct wind_peer *wind_peer_lookup(struct sock *sk,
				   const struct in6_addr *daddr, __be16 dport)
{
	struct wind_sock *ws = wind_sk(sk);
	struct peer_key k = { .addr = *daddr, .port = dport };

	wind_sock_assert_held(sk);
	if (unlikely(!ws->tables_ok))
		return NULL;
	return rhashtable_lookup_fast(&ws->peer_ht, &k, peer_params);
}

/* Nothing queued either way and nothing owed: freeing the state loses
 * nothing.  The peer's next packet makes it again (verified: it names
 * our tag, which is derived again the same), as after peer_idle_s.
 */
static bool peer_quiet(const struct wind_peer *peer)
{
	return skb_queue_empty(&peer->wq) && skb_queue_empty(&peer->rq) &&
	       list_empty(&peer->sync_waiters) && !peer->ack_pending &&
	       !peer->nrefused;
}

static void wind_peer_remove(struct wind_peer *peer);

/* Peers peer_evict() looks at: the cost of a new peer at the bound stays
 * constant, however large the table.
 */
#define WIND_EVICT_SCAN		64

/* At peers_max: free the quiet peer, among the WIND_EVICT_SCAN at the head
 * of peer_list, that is unverified, or else that was silent longest.
 * Peers it passes over go to the tail, so that the next call looks at
 * others.  True if one was freed.
 */
static bool peer_evict(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_peer *peer, *victim = NULL;
	int n = 0;

	list_for_each_entry(peer, &ws->peer_list, node) {
		if (n++ == WIND_EVICT_SCAN)
			break;
		if (!peer_quiet(peer))
			continue;
		if (!peer->tag_ok) {
			victim = peer;
			break;
		}
		if (!victim ||
		    time_before(peer->last_active, victim->last_active))
			victim = peer;
	}
	if (victim) {
		WIND_INC_STATS(sock_net(sk), WIND_MIB_PEERS_EVICTED);
		wind_peer_remove(victim);
		n--;
	}
	/* the others looked at go behind the rest: the next call looks at
	 * peers this one did not
	 */
	while (n-- > 0)
		list_rotate_left(&ws->peer_list);
	return !!victim;
}

/**
 * wind_peer_create() - add the state for a new peer to a socket
 * @sk: the socket, locked
 * @daddr: the peer's address, an IPv4 one v4-mapped
 * @dport: the peer's port
 * @saddr: our address towards it (of the same family), or any to let
 *	   routing choose
 * @oif: the interface an IPv6 link-local @daddr is on, or 0
 * @gfp: allocation flags for the context
 * @flags: WIND_PEER_RCV for a peer a packet from it makes: it may not
 *	   take its address past peers_per_addr_max (wind.rst, "Tags");
 *	   WIND_PEER_VERIFIED with it if that packet proved its address
 *
 * A socket holds at most peers_max peers.  At the bound a send or a
 * verified first packet frees a quiet peer for the new one (peer_evict()),
 * and gets -ENOBUFS if none is quiet; an unverified first packet gets
 * -ENOBUFS.  A first packet from a peer at an address that has
 * peers_per_addr_max already gets -EDQUOT.
 *
 * Return: the new peer (owned by the table) or an ERR_PTR.
 */
struct wind_peer *wind_peer_create(struct sock *sk,
				   const struct in6_addr *daddr, __be16 dport,
				   const struct in6_addr *saddr, int oif,
				   gfp_t gfp, unsigned int flags)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_net *wn = wind_net(sock_net(sk));
	struct wind_peer *peer;
	u32 isn;
	int err;

	wind_sock_assert_held(sk);
	if (ws->closing || !ws->tables_ok)
		return ERR_PTR(-ENOBUFS);
	if (ws->npeers >= READ_ONCE(wn->params.peers_max) &&
	    ((flags & WIND_PEER_RCV && !(flags & WIND_PEER_VERIFIED)) ||
	     !peer_evict(sk)))
		return ERR_PTR(-ENOBUFS);
	peer = wind_sk_alloc(sk, wind_peer_cachep, gfp | __GFP_ZERO);
	if (!peer)
		return ERR_PTR(-ENOMEM);
	refcount_set(&peer->refcnt, 1);
	peer->sk = sk;
	peer->daddr6 = *daddr;
	peer->dport = dport;
	peer->v6 = !ipv6_addr_v4mapped(daddr);
	if (peer->v6)
		peer->saddr6 = *saddr;
	else
		ipv6_addr_set_v4mapped(saddr->s6_addr32[3], &peer->saddr6);
	peer->oif = oif;
	peer->local_tag = wind_local_tag(sk, daddr, dport);
	peer->udp_sport = wind_udp_sport(sock_net(sk));
	err = addr_get(peer, flags & WIND_PEER_RCV, gfp);
	if (err) {
		kmem_cache_free(wind_peer_cachep, peer);
		return ERR_PTR(err);
	}
	err = wind_peer_route(peer);
	if (err) {
		addr_put(peer);
		kmem_cache_free(wind_peer_cachep, peer);
		return ERR_PTR(err);
	}
	skb_queue_head_init(&peer->wq);
	skb_queue_head_init(&peer->rq);
	INIT_LIST_HEAD(&peer->sync_waiters);
	isn = get_random_u32();
	peer->snd_una = isn;
	peer->snd_nxt = isn;
	peer->snd_max = isn;
	peer->write_seq = isn;
	peer->snd_sml = isn;
	peer->sack_high = isn;
	/* until the peer advertises its window, send a few packets */
	peer->snd_wnd_end = isn + 8;
	/* not among the socket's senders yet (wind_rx_sender()) */
	peer->rx_epoch = ws->rx_epoch - 2;
	peer->cwnd = WIND_CWND_INIT;
	peer->ssthresh = WIND_CWND_MAX;
	peer->recover = isn;
	wind_rtt_init(&peer->rtt,
		      READ_ONCE(wn->params.rto_min_ms) * USEC_PER_MSEC * 5);
	peer->last_active = jiffies;
	wind_timers_init(peer);
	err = rhashtable_insert_fast(&ws->peer_ht, &peer->hnode, peer_params);
	if (err) {
		/* the table could not grow: no state for it */
		dst_release(peer->dst);
		addr_put(peer);
		kmem_cache_free(wind_peer_cachep, peer);
		return ERR_PTR(err);
	}
	sock_hold(sk);
	list_add_tail(&peer->node, &ws->peer_list);
	WRITE_ONCE(ws->npeers, ws->npeers + 1);
	if (!timer_pending(&ws->gc_timer))
		sk_reset_timer(sk, &ws->gc_timer, jiffies +
			       READ_ONCE(wn->params.peer_idle_s) * HZ);
	WIND_INC_STATS(sock_net(sk), WIND_MIB_PEERS_CREATED);
	wind_peer_event(peer, WIND_PEER_EVENT_UP, 0);
	return peer;
}

static void peer_free_rcu(struct rcu_head *head)
{
	struct wind_peer *peer = container_of(head, struct wind_peer, rcu);

	dst_release(peer->dst);
	kfree(peer->rxt);
	sock_put(peer->sk);
	kmem_cache_free(wind_peer_cachep, peer);
}

/**
 * wind_peer_cache_init() - create the peers' slab cache (module init)
 *
 * Return: 0 or -ENOMEM.
 */
int wind_peer_cache_init(void)
{
	wind_peer_cachep = kmem_cache_create("wind_peer",
					     sizeof(struct wind_peer), 0,
					     SLAB_HWCACHE_ALIGN | SLAB_ACCOUNT,
					     NULL);
	return wind_peer_cachep ? 0 : -ENOMEM;
}

/**
 * wind_peer_cache_exit() - destroy it, after every peer was freed
 */
void wind_peer_cache_exit(void)
{
	kmem_cache_destroy(wind_peer_cachep);
}

/**
 * wind_peer_put() - drop a reference; the last one frees the peer
 * @peer: the peer
 *
 * The free waits for an RCU grace period: lockless readers of the peer
 * hash may still look at it.
 */
void wind_peer_put(struct wind_peer *peer)
{
	if (refcount_dec_and_test(&peer->refcnt))
		call_rcu(&peer->rcu, peer_free_rcu);
}

/**
 * wind_report_error() - tell the user that messages to a peer were lost
 * @sk: the socket, locked
 * @peer: the peer the messages were for
 * @err: positive errno: why
 * @lost: how many messages
 * @msgid: the WIND_CMSG_MSGID the one lost message was sent with, or 0
 *
 * Sets SO_ERROR and, with WIND_RECVERR, queues one sock_extended_err
 * on the error queue naming the peer as the offender, and in ee_data
 * the message.
 */
void wind_report_error(struct sock *sk, struct wind_peer *peer, int err,
		       u32 lost, u32 msgid)
{
	struct sock_exterr_skb *serr;
	struct sockaddr_in6 *sin6;
	struct sockaddr_in *sin;
	struct sk_buff *skb;

	wind_sock_assert_held(sk);
	WIND_ADD_STATS(sock_net(sk), WIND_MIB_OUT_ERRORS, lost);
	if (wind_sk(sk)->recverr) {
		/* the offender as the socket's family names addresses */
		skb = alloc_skb(sizeof(*sin6), GFP_ATOMIC);
		if (skb && sk->sk_family == AF_INET6) {
			sin6 = skb_put_zero(skb, sizeof(*sin6));
			sin6->sin6_family = AF_INET6;
			sin6->sin6_addr = peer->daddr6;
			sin6->sin6_port = peer->dport;
			sin6->sin6_scope_id = peer->oif;
		} else if (skb) {
			sin = skb_put_zero(skb, sizeof(*sin));
			sin->sin_family = AF_INET;
			sin->sin_addr.s_addr = peer->daddr;
			sin->sin_port = peer->dport;
		}
		if (skb) {
			serr = SKB_EXT_ERR(skb);
			memset(serr, 0, sizeof(*serr));
			serr->ee.ee_errno = err;
			serr->ee.ee_origin = SO_EE_ORIGIN_WIND;
			serr->ee.ee_info = lost;
			serr->ee.ee_data = msgid;
			serr->port = peer->dport;
			if (sock_queue_err_skb(sk, skb))
				kfree_skb(skb);
		}
	}
	WRITE_ONCE(sk->sk_err, err);
	sk_error_report(sk);
}

/* Fail every message queued to the peer.  Returns how many of them no
 * sync sender is waiting for: those are reported on the error queue.
 */
static u32 fail_write_queue(struct wind_peer *peer, int err)
{
	struct wind_sync_waiter *w, *tmp;
	struct sk_buff *skb;
	u32 messages = 0, waiters = 0;

	while ((skb = __skb_dequeue(&peer->wq))) {
		if (wind_msg_last(skb) && !WIND_SKB_CB(skb)->kernel)
			messages++;
		kfree_skb(skb);
	}
	wind_write_space(peer->sk);
	peer->send_head = NULL;
	peer->sacked_out = 0;
	list_for_each_entry_safe(w, tmp, &peer->sync_waiters, node) {
		w->err = err;
		w->done = true;
		list_del_init(&w->node);
		waiters++;
	}
	if (waiters)
		peer->sk->sk_state_change(peer->sk);
	return messages > waiters ? messages - waiters : 0;
}

/**
 * wind_peer_fail() - give up on everything queued to a peer
 * @peer: the peer, its socket locked
 * @err: positive errno: ETIMEDOUT, ECONNREFUSED or ECONNRESET
 *
 * Sync senders wake with -@err, async losses are reported; the sequence
 * space goes on, and the "oldest" field tells the peer to skip the gap.
 */
void wind_peer_fail(struct wind_peer *peer, int err)
{
	u32 lost;

	wind_peer_assert_held(peer);
	if (err != ECONNRESET)	/* a restart: the caller reports it */
		wind_peer_event(peer, WIND_PEER_EVENT_FAILED, err);
	lost = fail_write_queue(peer, err);
	peer->snd_una = peer->write_seq;
	peer->snd_nxt = peer->write_seq;
	peer->snd_max = peer->write_seq;
	peer->retries = 0;
	peer->rto_recovery = 0;
	wind_timers_peer_failed(peer);
	if (lost)
		wind_report_error(peer->sk, peer, err, lost, 0);
}

/**
 * wind_peer_reset_rx() - forget what arrived from the peer's old stream
 * @peer: the peer, its socket locked
 * @rcv_nxt: where the new stream starts
 */
void wind_peer_reset_rx(struct wind_peer *peer, u32 rcv_nxt)
{
	wind_peer_assert_held(peer);
	wind_rq_drop_all(peer);
	peer->rcv_nxt = rcv_nxt;
	peer->rcv_wnd_edge = rcv_nxt;
	if (peer->rxt)
		wind_rxt_init(peer->rxt, rcv_nxt);
	peer->nrefused = 0;
	peer->room_refused = 0;
	peer->rx_seq_cost = 0;
	peer->ack_pending = 0;
	wind_timers_rx_reset(peer);
}

/**
 * wind_peer_remove() - unlink a peer and drop the table's reference
 * @peer: the peer, its socket locked
 *
 * Messages still queued to it fail with ECONNABORTED.  Contexts that may
 * still hold a reference: a timer callback already running (it sees
 * WIND_PEER_DEAD and puts its reference) and a sync sender about to wake
 * (it finds its waiter completed).
 */
static void wind_peer_remove(struct wind_peer *peer)
{
	struct wind_sock *ws = wind_sk(peer->sk);

	wind_peer_assert_held(peer);
	if (peer->state == WIND_PEER_DEAD)
		return;
	peer->state = WIND_PEER_DEAD;
	rhashtable_remove_fast(&ws->peer_ht, &peer->hnode, peer_params);
	list_del(&peer->node);
	addr_put(peer);
	WRITE_ONCE(ws->npeers, ws->npeers - 1);
	if (peer->unverified)
		ws->unverified--;
	if (peer->starved)
		ws->starved--;
	fail_write_queue(peer, ECONNABORTED);
	wind_rq_drop_all(peer);
	wind_timers_shutdown(peer);
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_PEERS_FREED);
	wind_peer_event(peer, WIND_PEER_EVENT_FREED, 0);
	wind_peer_put(peer);
}

/**
 * wind_peers_destroy() - remove every peer of a closing socket
 * @sk: the socket, locked
 */
void wind_peers_destroy(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_peer *peer, *tmp;

	wind_sock_assert_held(sk);
	list_for_each_entry_safe(peer, tmp, &ws->peer_list, node)
		wind_peer_remove(peer);
}

/**
 * wind_peer_idle() - may the peer's state be freed?
 * @peer: the peer, its socket locked
 *
 * Return: true when nothing is queued either way, nothing is owed to the
 * peer, and no packet went either way for peer_idle_s.
 */
static bool wind_peer_idle(const struct wind_peer *peer)
{
	unsigned long idle = READ_ONCE(wind_net(sock_net(peer->sk))->params.peer_idle_s) * HZ;

	wind_peer_assert_held(peer);
	return peer_quiet(peer) &&
	       time_after(jiffies, peer->last_active + idle);
}

/**
 * wind_peers_gc() - the socket's idle-peer timer
 * @t: wind_sock.gc_timer
 */
void wind_peers_gc(struct timer_list *t)
{
	struct wind_sock *ws = from_timer(ws, t, gc_timer);
	struct sock *sk = &ws->inet.sk;
	unsigned long idle, period;
	struct wind_peer *peer, *tmp;

	idle = READ_ONCE(wind_net(sock_net(sk))->params.peer_idle_s) * HZ;
	period = idle / 4 + 1;
	bh_lock_sock(sk);
	if (ws->closing)
		goto out;
	if (sock_owned_by_user(sk)) {
		sk_reset_timer(sk, &ws->gc_timer, jiffies + HZ / 10 + 1);
		goto out;
	}
	list_for_each_entry_safe(peer, tmp, &ws->peer_list, node) {
		if (!skb_queue_empty(&peer->rq) &&
		    time_after(jiffies, peer->last_active + idle))
			wind_rq_drop_ooo(peer);
		if (wind_peer_idle(peer))
			wind_peer_remove(peer);
	}
	/* nothing in flight: the pages kept for packets go back */
	if (!sk_wmem_alloc_get(sk))
		wind_pages_release(sk);
	if (ws->npeers && !ws->closing)
		sk_reset_timer(sk, &ws->gc_timer, jiffies + period);
out:
	bh_unlock_sock(sk);
	sock_put(sk);
}
