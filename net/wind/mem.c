// SPDX-License-Identifier: GPL-2.0
/*
 * Receive memory: what a Wind socket holds for its reader (queued
 * messages, packets of messages being reassembled, packets behind a
 * hole) is charged as UDP's is, to a protocol-wide pool bounded by
 * net.wind.mem (pages: min, pressure, max, as net.ipv4.udp_mem) and,
 * through that pool, to the socket's memory cgroup (memory.stat "sock").
 * A packet the pool, the cgroup or an ancestor of the cgroup past its
 * memory.max cannot take is dropped and counted (InErrRcvbuf, as UDP
 * counts RcvbufErrors), and the window we advertise is 0 until memory
 * comes back: the sender waits and probes instead of losing anything.
 *
 * The charge and the release of one socket are serialized by its
 * mem_lock, with bottom halves off: the release runs wherever the last
 * reference to a packet goes (recvmsg(), softirq), and bottom halves
 * off make the cgroup charge GFP_ATOMIC, which never sleeps.
 */
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/swap.h>
#include <linux/sysctl.h>
#include <net/inet_sock.h>
#include <net/sock.h>

#include "compat.h"
#include "mem.h"
#include "sock.h"

atomic_long_t wind_memory_allocated;
DEFINE_PER_CPU(int, wind_memory_per_cpu_fw_alloc);
long wind_mem[3];
/* Every socket may hold a page, even under pressure (udp_rmem_min) */
int wind_rmem_min = PAGE_SIZE;
int wind_wmem_min = PAGE_SIZE;

/* Is the socket's memory cgroup, or one of its ancestors, past its
 * memory.max?  Charges from softirq are forced past it (GFP_ATOMIC may
 * overdraw a cgroup, as it may the page allocator's reserves); Wind
 * then gives the memory back instead of holding it.
 */
static bool memcg_over_max(const struct sock *sk)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg = sk->sk_memcg;

	if (!mem_cgroup_sockets_enabled)
		return false;
	for (; memcg; memcg = parent_mem_cgroup(memcg))
		if (page_counter_read(&memcg->memory) >
		    READ_ONCE(memcg->memory.max))
			return true;
#endif
	return false;
}

/* Charge @size bytes to @sk's receive memory; its mem_lock held.
 * @force charges even past the limits (the bytes are already ours).
 */
static bool rmem_charge(struct sock *sk, int size, bool force)
{
	int delta;
	bool ok;

	lockdep_assert_held(&wind_sk(sk)->mem_lock);
	delta = size - sk->sk_forward_alloc;
	ok = delta <= 0 || __sk_mem_schedule(sk, delta, SK_MEM_RECV);
	if (ok && !force && memcg_over_max(sk) &&
	    atomic_read(&sk->sk_rmem_alloc) >= wind_rmem_min) {
		/* give back the pages not in use */
		if (sk->sk_forward_alloc >= (int)PAGE_SIZE)
			__sk_mem_reclaim(sk, sk->sk_forward_alloc);
		ok = false;
	}
	if (!ok && !force)
		return false;
	/* forced past a refusal: those bytes stay out of the pool and
	 * the cgroup until they come back (sk_forward_alloc < 0)
	 */
	sk_forward_alloc_add(sk, -size);
	return true;
}

/**
 * wind_sk_kmalloc() - kernel memory for a socket's state
 * @sk: the socket the object belongs to
 * @size: bytes
 * @gfp: allocation flags
 *
 * Charged to the socket's memory cgroup (kmem, __GFP_ACCOUNT), whoever
 * allocates it: softirq makes peers too.
 *
 * Return: the object, or NULL.
 */
void *wind_sk_kmalloc(struct sock *sk, size_t size, gfp_t gfp)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *old;
	void *p;

	if (!sk->sk_memcg)
		return kmalloc(size, gfp | __GFP_ACCOUNT);
	old = set_active_memcg(sk->sk_memcg);
	p = kmalloc(size, gfp | __GFP_ACCOUNT);
	set_active_memcg(old);
	return p;
#else
	return kmalloc(size, gfp);
#endif
}

/**
 * wind_sk_alloc() - allocate an object of a socket's from a slab cache
 * @sk: the socket
 * @cachep: the cache (created with SLAB_ACCOUNT)
 * @gfp: allocation flags
 *
 * Charged to the socket's memory cgroup, as wind_sk_kmalloc().
 *
 * Return: the object, or NULL.
 */
void *wind_sk_alloc(struct sock *sk, struct kmem_cache *cachep, gfp_t gfp)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *old;
	void *p;

	if (!sk->sk_memcg)
		return kmem_cache_alloc(cachep, gfp);
	old = set_active_memcg(sk->sk_memcg);
	p = kmem_cache_alloc(cachep, gfp);
	set_active_memcg(old);
	return p;
#else
	return kmem_cache_alloc(cachep, gfp);
#endif
}

/* skb destructor: give the packet's bytes back to the socket, and to
 * the pool what the socket holds beyond a quarter of its receive buffer
 * while messages wait to be read, beyond a page once none does (as UDP's
 * forward_threshold): a socket that keeps receiving takes its pages from
 * what it kept instead of the pool, packet after packet.
 */
static void wind_rfree(struct sk_buff *skb)
{
	struct sock *sk = skb->sk;
	struct wind_sock *ws = wind_sk(sk);
	unsigned int len = skb->truesize;
	int keep = PAGE_SIZE;

	if (!skb_queue_empty_lockless(&sk->sk_receive_queue))
		keep = max_t(int, READ_ONCE(sk->sk_rcvbuf) >> 2, PAGE_SIZE);

	atomic_sub(len, &sk->sk_rmem_alloc);
	spin_lock_bh(&ws->mem_lock);
	sk_forward_alloc_add(sk, len);
	if (sk->sk_forward_alloc >= keep + (int)PAGE_SIZE)
		__sk_mem_reclaim(sk, sk->sk_forward_alloc - keep);
	spin_unlock_bh(&ws->mem_lock);
	if (READ_ONCE(ws->rmem_short))
		WRITE_ONCE(ws->rmem_short, 0);
}

/**
 * wind_rmem_set_owner() - charge a received skb to a socket
 * @skb: the packet or message, not owned by any socket yet
 * @sk: the receiving socket
 * @force: charge even past net.wind.mem and the memory cgroup's limit
 *	(for bytes the socket accounted for before, in another skb)
 *
 * On success the skb is the socket's: its truesize counts in
 * sk_rmem_alloc until it is freed.  On failure the socket advertises a
 * zero window until memory is given back.
 *
 * Return: true if charged.
 */
bool wind_rmem_set_owner(struct sk_buff *skb, struct sock *sk, bool force)
{
	struct wind_sock *ws = wind_sk(sk);
	bool ok;

	skb_orphan(skb);
	spin_lock_bh(&ws->mem_lock);
	ok = rmem_charge(sk, skb->truesize, force);
	spin_unlock_bh(&ws->mem_lock);
	if (!ok) {
		WRITE_ONCE(ws->rmem_short, 1);
		return false;
	}
	if (READ_ONCE(ws->rmem_short))
		WRITE_ONCE(ws->rmem_short, 0);
	skb->sk = sk;
	skb->destructor = wind_rfree;
	atomic_add(skb->truesize, &sk->sk_rmem_alloc);
	return true;
}

/**
 * wind_rmem_take() - move a charged skb's charge to another one
 * @to: the skb that takes @skb over (a message's first packet, owned)
 * @skb: the packet it takes, owned by the same socket
 *
 * The caller adds @skb's truesize to @to's: @to's destructor then gives
 * back both, and nothing is released and charged again in between.
 */
void wind_rmem_take(struct sk_buff *to, struct sk_buff *skb)
{
	WARN_ON_ONCE(skb->destructor != wind_rfree || to->sk != skb->sk);
	skb->destructor = NULL;
	skb->sk = NULL;
}

static struct ctl_table wind_mem_table[] = {
	{
		.procname	= "mem",
		.data		= &wind_mem,
		.maxlen		= sizeof(wind_mem),
		.mode		= 0644,
		.proc_handler	= proc_doulongvec_minmax,
	},
	{ }
};

static struct ctl_table_header *wind_mem_sysctl;

/**
 * wind_mem_init() - size the protocol's memory pool, as UDP's
 *
 * net.wind.mem is global, as net.ipv4.udp_mem is: it exists in the
 * initial network namespace only.
 *
 * Return: 0 or -ENOMEM.
 */
int wind_mem_init(void)
{
	unsigned long limit = nr_free_buffer_pages() / 8;

	limit = max(limit, 128UL);
	wind_mem[0] = limit / 4 * 3;
	wind_mem[1] = limit;
	wind_mem[2] = wind_mem[0] * 2;
	wind_mem_sysctl = wind_register_net_sysctl(&init_net, "net/wind",
						   wind_mem_table, 1);
	return wind_mem_sysctl ? 0 : -ENOMEM;
}

/**
 * wind_mem_exit() - remove net.wind.mem
 */
void wind_mem_exit(void)
{
	unregister_net_sysctl_table(wind_mem_sysctl);
}
