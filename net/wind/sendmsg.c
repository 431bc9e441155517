// SPDX-License-Identifier: GPL-2.0
/*
 * sendmsg(): a message is split into packets of the path MTU and queued
 * on the peer's write queue in one piece, then pushed (push.c).  Here
 * too is what the queued packets take: their memory, in the socket's
 * pages, kept and used again, and the send buffer a writer waits for.
 */
#include <linux/uio.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "netns.h"
#include "peer.h"
#include "push.h"
#include "rma.h"
#include "sendmsg.h"
#include "skb.h"
#include "sock.h"
#include "wire.h"

/* The buffer of a write-queue packet of @size bytes of payload, its
 * headroom and shared info included
 */
static unsigned int pkt_buf_size(unsigned int size)
{
	return SKB_DATA_ALIGN(WIND_HEADROOM + size) +
	       SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
}

/* Room for @sz bytes in @pfrag (sk_frag or dfrag): as
 * skb_page_frag_refill(), but a full page is kept in ws->pages rather
 * than let go, and one of those that all its packets left (only our
 * reference on it) is taken before a new page is allocated: with
 * init_on_alloc (Debian's default) a new page is zeroed, and a window's
 * worth of packets in flight would need one every few packets.  As
 * skb_page_frag_refill(), it may give a page smaller than @sz when no
 * larger one is to be had.
 */
static bool pfrag_refill(struct sock *sk, struct page_frag *pfrag,
			 unsigned int sz, gfp_t gfp)
{
	struct wind_sock *ws = wind_sk(sk);
	struct page *page = pfrag->page;
	int i, slot = -1;

	if (!page || page_ref_count(page) == 1 ||
	    pfrag->offset + sz <= pfrag->size)
		return skb_page_frag_refill(sz, pfrag, gfp);
	for (i = 0; i < WIND_PAGE_CACHE; i++) {
		struct page *p = ws->pages[i];

		if (!p) {
			if (slot < 0)
				slot = i;
		} else if (page_ref_count(p) == 1) {
			ws->pages[i] = page;
			pfrag->page = p;
			pfrag->offset = 0;
			pfrag->size = page_size(p);
			return true;
		}
	}
	if (slot >= 0) {
		ws->pages[slot] = page;
		pfrag->page = NULL;
	}
	return skb_page_frag_refill(sz, pfrag, gfp);
}

/**
 * wind_pages_release() - let go of the pages a socket kept for its packets
 * @sk: the socket, locked: closing, or its idle-peer timer found nothing
 *	of it in flight
 *
 * Packets still in a queue somewhere hold their own references.
 */
void wind_pages_release(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	int i;

	wind_sock_assert_held(sk);
	for (i = 0; i < WIND_PAGE_CACHE; i++) {
		if (ws->pages[i])
			put_page(ws->pages[i]);
		ws->pages[i] = NULL;
	}
	if (ws->dfrag.page)
		put_page(ws->dfrag.page);
	ws->dfrag.page = NULL;
}

/**
 * alloc_pkt() - a packet for some bytes of payload, its headroom reserved
 * @sk: the socket, locked
 * @size: the payload bytes it takes in its head (0: headers only)
 * @gfp: the allocation flags
 *
 * Where it fits a page, its buffer is a fragment of the socket's page
 * (sk_frag, as TCP's payload): no kmalloc() per packet, none of the
 * zeroing that init_on_alloc gives each kmalloc-2k object, and the pages
 * are used again once their packets are acknowledged and read
 * (pfrag_refill()).  Larger ones (path MTUs past a page, as loopback's)
 * are kmalloc()ed.  Both count in the sender's memory cgroup, as the
 * write queue's memory; the socket lock serialises sk_frag, which
 * __sk_destruct() puts, and wind_close() lets go of the others.
 *
 * Return: the packet, or NULL.
 */
struct sk_buff *alloc_pkt(struct sock *sk, unsigned int size, gfp_t gfp)
{
	unsigned int buf = pkt_buf_size(size);
	struct page_frag *pfrag = &sk->sk_frag;
	struct sk_buff *skb;

	wind_sock_assert_held(sk);
	if (buf > PAGE_SIZE) {
		skb = alloc_skb(WIND_HEADROOM + size, gfp);
		goto out;
	}
	if (!pfrag_refill(sk, pfrag, buf, gfp))
		return NULL;
	skb = build_skb(page_address(pfrag->page) + pfrag->offset, buf);
	if (!skb)
		return NULL;
	get_page(pfrag->page);
	pfrag->offset += buf;
out:
	if (skb)
		skb_reserve(skb, WIND_HEADROOM);
	return skb;
}

/* Queue on @q the packets of a message of @total bytes, more than one
 * packet of @mss, as runs (wq.c): skbs with no payload in their head,
 * each holding as many packets as its page fragments allow, their
 * payloads in fragments of dfrag, where messages lie end to end as a
 * stream's bytes do, copied in with one call per page.  A run leaves as
 * one GSO skb of a few page fragments (xmit_part()): nothing per packet
 * to allocate as it leaves, to free when it is acknowledged, or to free
 * where it is read.  The @prefix bytes at @pre (the DSM header) go first.
 *
 * Return: 0 or a negative errno; what was queued is the caller's to free.
 */
static int fill_paged(struct sock *sk, struct sk_buff_head *q,
		      struct iov_iter *from, const void *pre, size_t prefix,
		      size_t total, unsigned int mss, gfp_t gfp)
{
	/* the fragments a packet may take: one a page it touches */
	unsigned int worst = DIV_ROUND_UP(mss, PAGE_SIZE) + 1;
	struct page_frag *pfrag = &wind_sk(sk)->dfrag;
	struct sk_buff *skb = NULL;
	size_t done = 0, carved = 0;
	unsigned int room = 0;

	while (done < total) {
		unsigned int chunk, off, n;
		void *va;

		/* not a sliver at a page's end: a packet in one piece */
		if (!pfrag_refill(sk, pfrag, min_t(size_t, total - done, 256),
				  gfp))
			return -ENOBUFS;
		va = page_address(pfrag->page) + pfrag->offset;
		chunk = min_t(size_t, total - done,
			      pfrag->size - pfrag->offset);
		n = 0;
		if (done < prefix) {
			n = min_t(size_t, chunk, prefix - done);
			memcpy(va, pre + done, n);
		}
		if (!copy_from_iter_full(va + n, chunk - n, from))
			return -EFAULT;
		off = pfrag->offset;
		pfrag->offset += chunk;
		done += chunk;
		while (chunk) {
			int i;

			/* a packet starts: in a new run if this one's
			 * fragments might not hold it
			 */
			if (!room && (!skb || skb_shinfo(skb)->nr_frags + worst >
					      MAX_SKB_FRAGS)) {
				skb = alloc_pkt(sk, 0, gfp);
				if (!skb)
					return -ENOBUFS;
				__skb_queue_tail(q, skb);
			}
			if (!room)
				room = min_t(size_t, mss, total - carved);
			n = min(room, chunk);
			i = skb_shinfo(skb)->nr_frags;
			if (skb_can_coalesce(skb, i, pfrag->page, off)) {
				skb_frag_size_add(&skb_shinfo(skb)->frags[i - 1],
						  n);
			} else {
				if (WARN_ON_ONCE(i == MAX_SKB_FRAGS))
					return -EMSGSIZE;
				get_page(pfrag->page);
				skb_fill_page_desc(skb, i, pfrag->page, off, n);
			}
			skb->len += n;
			skb->data_len += n;
			skb->truesize += n;
			off += n;
			chunk -= n;
			room -= n;
			carved += n;
		}
	}
	return 0;
}

/* What a packet of a message of @nfrags packets of @mss takes of the send
 * buffer: a one-packet message, alloc_pkt()'s truesize where it fits a
 * page; a longer one, its payload and its share of its run's skb, a run
 * holding at least as many packets as MAX_SKB_FRAGS holds of the
 * fragments each may take (fill_paged())
 */
static unsigned int pkt_charge(unsigned int mss, unsigned int nfrags)
{
	unsigned int worst = DIV_ROUND_UP(mss, PAGE_SIZE) + 1;

	if (nfrags == 1)
		return SKB_TRUESIZE(SKB_DATA_ALIGN(WIND_HEADROOM + mss));
	return mss + DIV_ROUND_UP(SKB_TRUESIZE(SKB_DATA_ALIGN(WIND_HEADROOM)),
				  max_t(unsigned int, MAX_SKB_FRAGS / worst, 1));
}

/* The bytes @peer's queued packets take, @pkt bytes a packet: each sent
 * and unacknowledged or not yet sent (the estimate a send is checked with)
 */
static u64 peer_queued(const struct wind_peer *peer, unsigned int pkt)
{
	return (u64)(peer->write_seq - peer->snd_una) * pkt;
}

/* May @need bytes of a message to @peer be queued, @pkt bytes a packet?
 * The socket's packets take up to SO_SNDBUF.  Past it, a peer holding
 * less than half of SO_SNDBUF may still queue, until the socket holds
 * twice SO_SNDBUF: a peer that stops acknowledging (its receiver reads
 * nothing) fills at most SO_SNDBUF, and sends to the socket's other
 * peers go on, as each peer had a send buffer of its own (SCTP's
 * sndbuf_policy 1, TCP's connections) within a bound per socket.
 */
static bool sndbuf_room(struct sock *sk, const struct wind_peer *peer,
			unsigned int need, unsigned int pkt)
{
	u64 sndbuf = READ_ONCE(sk->sk_sndbuf);
	u64 used = sk_wmem_alloc_get(sk);
	u64 mine = peer_queued(peer, pkt);

	if (used + need <= sndbuf)
		return true;
	return mine + need <= sndbuf / 2 && used + need <= 2 * sndbuf;
}

/**
 * wind_write_space() - packets of a peer were acknowledged or dropped
 * @sk: their socket
 *
 * As sk_write_space(), which wakes writers only once the socket's send
 * buffer is less than half full; and writers waiting while other peers
 * hold more than half of it are woken too: a peer that acknowledges
 * nothing may keep the buffer over half full for good, while room for a
 * writer's share comes with its own peer's acknowledgments
 * (sndbuf_room()).  Called for acknowledgments, not for each packet the
 * stack lets go of.
 */
void wind_write_space(struct sock *sk)
{
	sk->sk_write_space(sk);
	if (READ_ONCE(wind_sk(sk)->sndbuf_waiters) && !sock_writeable(sk))
		wake_up_interruptible_sync_poll(sk_sleep(sk), EPOLLOUT |
						EPOLLWRNORM | EPOLLWRBAND);
}

/* Block until the send buffer has room for @need bytes to @peer.  While
 * other peers hold more than half of SO_SNDBUF the writer counts in
 * sndbuf_waiters, for wind_write_space() (a writer to the only busy peer
 * is woken as before, below half).  Each sleep is at most
 * WIND_SNDBUF_RECHECK: a packet the stack lets go of late, after its
 * acknowledgment, wakes writers only below half of SO_SNDBUF
 * (wind_wfree()), and other peers may take more of the buffer while we
 * sleep uncounted.
 */
#define WIND_SNDBUF_RECHECK	(HZ / 50)

static int wait_for_sndbuf(struct sock *sk, struct wind_peer *peer,
			   long *timeo, unsigned int need, unsigned int pkt)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct wind_sock *ws = wind_sk(sk);
	bool counted = false;
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (!sndbuf_room(sk, peer, need, pkt)) {
		bool others = sk_wmem_alloc_get(sk) > peer_queued(peer, pkt) +
			READ_ONCE(sk->sk_sndbuf) / 2;
		long t;

		if (others != counted) {
			WRITE_ONCE(ws->sndbuf_waiters,
				   ws->sndbuf_waiters + (others ? 1 : -1));
			counted = others;
		}

		if (sk->sk_err) {
			err = sock_error(sk);
			if (err)
				break;
		}
		if (!*timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		sk_set_bit(SOCKWQ_ASYNC_NOSPACE, sk);
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		t = min_t(long, *timeo, WIND_SNDBUF_RECHECK);
		if (*timeo != MAX_SCHEDULE_TIMEOUT)
			*timeo -= t;
		sk_wait_event(sk, &t, sndbuf_room(sk, peer, need, pkt),
			      &wait);
		if (*timeo != MAX_SCHEDULE_TIMEOUT)
			*timeo += t;	/* what it did not sleep */
	}
	if (counted)
		WRITE_ONCE(ws->sndbuf_waiters, ws->sndbuf_waiters - 1);
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* Sleep until the sync message is acknowledged or failed. */
static int wait_for_sync(struct sock *sk, struct wind_sync_waiter *w,
			 long timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (!w->done) {
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		/* EINTR, never a restart: the message is queued already,
		 * and a restarted sendmsg() would queue it again
		 */
		if (signal_pending(current)) {
			err = -EINTR;
			break;
		}
		sk_wait_event(sk, &timeo, w->done, &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	if (!w->done) {
		list_del(&w->node);	/* the message stays queued */
		return err;
	}
	return w->err ? -w->err : 0;
}

/* The packets of a message of @prefix bytes at @pre, then @len from
 * @from, onto @q: what was queued is the caller's to free on failure.
 */
static int fill_msg(struct sock *sk, struct sk_buff_head *q,
		    struct iov_iter *from, const void *pre, size_t prefix,
		    size_t len, unsigned int mss, gfp_t gfp)
{
	size_t total = prefix + len;
	struct sk_buff *skb;

	if (total > mss)
		return fill_paged(sk, q, from, pre, prefix, total, mss, gfp);
	skb = alloc_pkt(sk, total, gfp);
	if (!skb)
		return -ENOBUFS;
	__skb_queue_tail(q, skb);
	if (prefix)
		skb_put_data(skb, pre, prefix);
	return copy_from_iter_full(skb_put(skb, len), len, from) ? 0 : -EFAULT;
}

/**
 * wind_msg_prepare() - the packets of a message the kernel sends itself
 * @peer: its destination, the socket locked (softirq included)
 * @q: an empty queue, set to the packets
 * @pre: the message's first bytes (its headers)
 * @prefix: how many
 * @from: the rest
 * @len: how many
 * @gfp: how to allocate
 *
 * The send buffer is judged as for sendmsg(), which would wait where
 * this fails; a message of one packet is one linear skb, a longer one
 * as fill_paged() makes it.
 *
 * Return: 0, -EMSGSIZE for a message the send buffer could never take,
 * -ENOBUFS for one it cannot take now or memory, -EFAULT; on failure the
 * caller frees what is on @q.
 */
int wind_msg_prepare(struct wind_peer *peer, struct sk_buff_head *q,
		     const void *pre, size_t prefix, struct iov_iter *from,
		     size_t len, gfp_t gfp)
{
	int err;

	wind_peer_assert_held(peer);
	err = wind_msg_room(peer, prefix + len);
	if (err)
		return err;
	return fill_msg(peer->sk, q, from, pre, prefix, len, peer->mss, gfp);
}

/**
 * wind_msg_room() - may the kernel queue a message to @peer now?
 * @peer: the peer, its socket locked
 * @total: the message's bytes
 *
 * Return: 0, -EMSGSIZE if the send buffer could never take it, -ENOBUFS
 * if it cannot now (sendmsg() would wait).
 */
int wind_msg_room(const struct wind_peer *peer, size_t total)
{
	unsigned int mss = peer->mss, nfrags, pkt;
	struct sock *sk = peer->sk;
	u64 need;

	wind_peer_assert_held(peer);
	nfrags = DIV_ROUND_UP(total, mss);
	pkt = pkt_charge(mss, nfrags);
	need = (u64)nfrags * pkt;
	if (nfrags > U16_MAX || need > READ_ONCE(sk->sk_sndbuf))
		return -EMSGSIZE;
	if (!sndbuf_room(sk, peer, need, pkt))
		return -ENOBUFS;
	return 0;
}

/**
 * wind_msg_queue() - put a message's packets on its peer's write queue
 * @peer: the peer, its socket locked
 * @q: the packets, as fill_msg() made them for @mss; emptied
 * @total: the message's bytes
 * @mss: the payload of each packet but the last
 * @flags: its WIND_F_* (WIND_F_SYNC: the last asks for an ACK at once)
 * @msgid: its WIND_CMSG_MSGID, or 0 (not 0: the last asks for an ACK at
 *	   once too)
 * @kernel: the kernel's own message, whose failure nobody is told of
 *
 * Charges them to the socket's send buffer; wind_push() sends them.
 */
void wind_msg_queue(struct wind_peer *peer, struct sk_buff_head *q,
		    u32 total, unsigned int mss, u8 flags, u32 msgid,
		    bool kernel)
{
	u32 nfrags = total ? DIV_ROUND_UP(total, mss) : 1;
	struct sk_buff *skb;
	u32 i = 0;

	wind_peer_assert_held(peer);
	skb_queue_walk(q, skb) {
		struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		memset(cb, 0, sizeof(*cb));
		cb->seq = peer->write_seq + i;
		cb->frag = i;
		/* all of mss but the message's last */
		cb->npkts = max_t(u32, DIV_ROUND_UP(skb->len, mss), 1);
		i += cb->npkts;
		cb->pkt_size = mss;
		cb->nfrags = nfrags;
		cb->msg_len = total;
		cb->flags = flags;
		cb->msgid = msgid;
		cb->kernel = kernel;
		skb_set_owner_w(skb, peer->sk);
	}
	/* the last packet of a message whose sender waits for its ACK, a
	 * sync one or one it names (WIND_CMSG_MSGID: a one-sided write's
	 * completion), asks for it at once, not after the receiver's delay
	 */
	if ((flags & WIND_F_SYNC) || msgid)
		WIND_SKB_CB(skb_peek_tail(q))->flags |= WIND_F_ACKREQ;
	if (!peer->send_head)
		peer->send_head = skb_peek(q);
	skb_queue_splice_tail_init(q, &peer->wq);
	peer->write_seq += nfrags;
	peer->tx_messages++;
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_OUT_MESSAGES);
}

static int msgtype_of(struct sock *sk, int flags)
{
	if ((flags & (MSG_WIND_RELIABLE | MSG_WIND_SYNC)) ==
	    (MSG_WIND_RELIABLE | MSG_WIND_SYNC))
		return -EINVAL;
	if (flags & MSG_WIND_RELIABLE)
		return WIND_ASYNC_RELIABLE;
	if (flags & MSG_WIND_SYNC)
		return WIND_SYNC_ORDERED;
	return READ_ONCE(wind_sk(sk)->msgtype);
}

/* WIND_CMSG_DSM, WIND_CMSG_RMA (*@rma set) and WIND_CMSG_MSGID (the id
 * a refusal report names); a DSM mode and a one-sided request exclude
 * each other
 */
static int parse_cmsgs(struct msghdr *msg, struct wind_dsm *dsm,
		       struct wind_rma *req, bool *rma, u32 *msgid)
{
	struct cmsghdr *cmsg;

	dsm->mode = WIND_DSM_MESSAGE_THROUGH;
	*rma = false;
	*msgid = 0;
	for_each_cmsghdr(cmsg, msg) {
		if (!CMSG_OK(msg, cmsg))
			return -EINVAL;
		if (cmsg->cmsg_level != SOL_WIND)
			return -EINVAL;
		if (cmsg->cmsg_type == WIND_CMSG_MSGID &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(*msgid))) {
			memcpy(msgid, CMSG_DATA(cmsg), sizeof(*msgid));
			continue;
		}
		if (cmsg->cmsg_type == WIND_CMSG_RMA &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(*req))) {
			memcpy(req, CMSG_DATA(cmsg), sizeof(*req));
			*rma = true;
			continue;
		}
		if (cmsg->cmsg_type != WIND_CMSG_DSM ||
		    cmsg->cmsg_len != CMSG_LEN(sizeof(*dsm)))
			return -EINVAL;
		memcpy(dsm, CMSG_DATA(cmsg), sizeof(*dsm));
		if (dsm->mode > WIND_DSM_HEADER_DIFF)
			return -EINVAL;
	}
	if (*rma && dsm->mode != WIND_DSM_MESSAGE_THROUGH)
		return -EINVAL;
	return 0;
}

/**
 * wind_sockaddr_parse() - the peer a sockaddr names, or the connected one
 * @sk: the socket
 * @uaddr: the caller's address, or NULL for the connected peer
 * @len: its length
 * @daddr: the peer's address, an IPv4 one v4-mapped
 * @dport: its port
 * @oif: the interface of an IPv6 link-local peer (sin6_scope_id), or 0
 *
 * An AF_INET socket takes a sockaddr_in; an AF_INET6 socket a
 * sockaddr_in6, a v4-mapped one naming an IPv4 peer, or, as UDP's, a
 * sockaddr_in, the IPv4 ones refused with IPV6_V6ONLY.
 *
 * Return: 0, -EDESTADDRREQ unconnected without an address, -EINVAL for
 * a short or wildcard address, port 0 or a link-local one with no scope,
 * -EAFNOSUPPORT for another family, -ENETUNREACH for IPv4 from an IPv6-only
 * socket or one bound to an IPv6 address.
 */
int wind_sockaddr_parse(struct sock *sk, const void *uaddr, int len,
			struct in6_addr *daddr, __be16 *dport, int *oif)
{
	const struct sockaddr_in6 *sin6 = uaddr;
	const struct sockaddr_in *sin = uaddr;
	bool v6sk = sk->sk_family == AF_INET6;

	*oif = 0;
	if (!uaddr) {
		if (sk->sk_state != TCP_ESTABLISHED)
			return -EDESTADDRREQ;
		if (v6sk)
			*daddr = sk->sk_v6_daddr;
		else
			ipv6_addr_set_v4mapped(inet_sk(sk)->inet_daddr, daddr);
		*dport = inet_sk(sk)->inet_dport;
		*oif = sk->sk_bound_dev_if;
		return 0;
	}
	if (len < (int)sizeof(sa_family_t))
		return -EINVAL;
	if (sin->sin_family == AF_INET6 && v6sk) {
		if (len < SIN6_LEN_RFC2133)
			return -EINVAL;
		*daddr = sin6->sin6_addr;
		*dport = sin6->sin6_port;
		if (!ipv6_addr_v4mapped(daddr) &&
		    (ipv6_addr_type(daddr) & IPV6_ADDR_LINKLOCAL)) {
			if (len >= sizeof(*sin6))
				*oif = sin6->sin6_scope_id;
			*oif = *oif ?: sk->sk_bound_dev_if;
			if (!*oif)
				return -EINVAL;
		}
	} else if (sin->sin_family == AF_INET) {
		if (len < sizeof(*sin))
			return -EINVAL;
		ipv6_addr_set_v4mapped(sin->sin_addr.s_addr, daddr);
		*dport = sin->sin_port;
	} else {
		return -EAFNOSUPPORT;
	}
	if (!*dport || ipv6_addr_any(daddr) ||
	    (ipv6_addr_v4mapped(daddr) && !daddr->s6_addr32[3]))
		return -EINVAL;
	if (v6sk && ipv6_addr_v4mapped(daddr) &&
	    (sk->sk_ipv6only || (!ipv6_addr_any(&sk->sk_v6_rcv_saddr) &&
				 !ipv6_addr_v4mapped(&sk->sk_v6_rcv_saddr))))
		return -ENETUNREACH;
	return 0;
}

#define WIND_SEND_FLAGS	(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_CONFIRM | \
			 MSG_EOR | MSG_BATCH | MSG_CMSG_COMPAT | MSG_MORE | \
			 MSG_WIND_RELIABLE | MSG_WIND_SYNC)

/**
 * wind_sendmsg() - queue one message to one peer (proto.sendmsg)
 * @sk: the socket
 * @msg: the message, its address and control messages
 * @len: its length
 *
 * The whole message is queued or nothing is.  Async types return once it
 * is queued; a sync send sleeps until the peer acknowledged all of it.
 * A pending socket error (an async message that failed) is returned
 * instead, and cleared.
 *
 * Return: @len or a negative errno.
 */
int wind_sendmsg(struct sock *sk, struct msghdr *msg, size_t len)
{
	struct inet_sock *inet = inet_sk(sk);
	struct sk_buff_head frags;
	struct wind_sync_waiter waiter;
	struct wind_peer *peer;
	unsigned int mss, nfrags, need, pkt, i;
	struct wind_rma_wire pre;
	struct wind_rma req;
	struct wind_dsm dsm;
	size_t prefix = 0, total;
	struct in6_addr daddr, saddr;
	__be16 dport;
	int type, err, oif;
	long timeo;
	u32 msgid;
	bool rma;
	u8 flags;

	if (msg->msg_flags & ~WIND_SEND_FLAGS)
		return -EOPNOTSUPP;
	/* shutdown(SHUT_WR): no more messages, as on a stream socket */
	if (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) {
		if (!(msg->msg_flags & MSG_NOSIGNAL))
			send_sig(SIGPIPE, current, 0);
		return -EPIPE;
	}
	type = msgtype_of(sk, msg->msg_flags);
	if (type < 0)
		return type;
	err = wind_sockaddr_parse(sk, msg->msg_name, msg->msg_namelen, &daddr,
				  &dport, &oif);
	if (err)
		return err;
	err = parse_cmsgs(msg, &dsm, &req, &rma, &msgid);
	if (err)
		return err;
	if (rma) {
		/* a request carries its headers and nothing else */
		if (len)
			return -EINVAL;
		err = wind_rma_request(&req, &pre);
		if (err)
			return err;
		prefix = sizeof(pre);
	} else if (dsm.mode != WIND_DSM_MESSAGE_THROUGH) {
		if (dsm.hdr_len > len)
			return -EINVAL;
		pre.dsm.mode = dsm.mode;
		memset(pre.dsm.reserved, 0, sizeof(pre.dsm.reserved));
		pre.dsm.region = htonl(dsm.region);
		pre.dsm.offset = cpu_to_be64(dsm.offset);
		pre.dsm.key = cpu_to_be64(dsm.key);
		pre.dsm.hdr_len = htonl(dsm.hdr_len);
		pre.dsm.reserved2 = 0;
		prefix = sizeof(pre.dsm);
	}
	if (len + prefix > WIND_MAX_MSG)
		return -EMSGSIZE;

	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	__skb_queue_head_init(&frags);
	lock_sock(sk);
	/* A pending async failure (SO_ERROR) fails this call, once, and
	 * nothing is sent: as UDP's sendmsg() does (sock_alloc_send_skb()).
	 */
	err = sock_error(sk);
	if (err)
		goto out;
lookup:
	peer = wind_peer_lookup(sk, &daddr, dport);
	if (!peer) {
		if (ipv6_addr_v4mapped(&daddr))
			ipv6_addr_set_v4mapped(inet->inet_saddr, &saddr);
		else
			saddr = sk->sk_v6_rcv_saddr;
		peer = wind_peer_create(sk, &daddr, dport, &saddr, oif,
					GFP_KERNEL, 0);
		if (IS_ERR(peer)) {
			err = PTR_ERR(peer);
			goto out;
		}
	}
	mss = peer->mss;
	total = len + prefix;
	nfrags = total ? DIV_ROUND_UP(total, mss) : 1;
	pkt = pkt_charge(mss, nfrags);
	need = nfrags * pkt;
	if (nfrags > U16_MAX || need > READ_ONCE(sk->sk_sndbuf)) {
		err = -EMSGSIZE;
		goto out;
	}
	if (!sndbuf_room(sk, peer, need, pkt)) {
		/* what corks hold back must not be what we wait for */
		wind_uncork(sk, false);
		wind_peer_hold(peer);
		err = wait_for_sndbuf(sk, peer, &timeo, need, pkt);
		i = peer->state == WIND_PEER_DEAD || peer->mss != mss;
		wind_peer_put(peer);
		if (err)
			goto out;
		if (i)
			goto lookup;
	}

	flags = type == WIND_ASYNC_RELIABLE ? 0 : WIND_F_ORDERED;
	if (type == WIND_SYNC_ORDERED)
		flags |= WIND_F_SYNC;
	if (prefix)
		flags |= WIND_F_DSM;
	err = fill_msg(sk, &frags, &msg->msg_iter, &pre, prefix, len, mss,
		       sk->sk_allocation | __GFP_ACCOUNT);
	if (err)
		goto out;
	wind_msg_queue(peer, &frags, total, mss, flags, msgid, false);
	if (type == WIND_SYNC_ORDERED) {
		waiter.first_seq = peer->write_seq - nfrags;
		waiter.end_seq = peer->write_seq;
		waiter.err = 0;
		waiter.done = false;
		list_add_tail(&waiter.node, &peer->sync_waiters);
	}
	peer->more = !!(msg->msg_flags & MSG_MORE);
	wind_push(peer);
	err = 0;
	if (type == WIND_SYNC_ORDERED)
		err = wait_for_sync(sk, &waiter, sock_sndtimeo(sk, 0));
out:
	__skb_queue_purge(&frags);
	release_sock(sk);
	return err ? err : len;
}
