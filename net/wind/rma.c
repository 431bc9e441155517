// SPDX-License-Identifier: GPL-2.0
/*
 * One-sided reads and atomics: a peer's kernel serves them on its
 * registered regions in softirq, as it serves Direct Map writes, and
 * the peer process is never woken.
 *
 * A request is a DSM message with no data but its wind_rmahdr (mode
 * WIND_DSM_WIRE_RMA), of the type the sender chose: it is served where
 * an ordinary message would be delivered, so an ordered one only after
 * every message sent earlier by that peer, and it is acknowledged (a
 * sync request returns) once served.  It passes the checks of a Direct
 * Map write (dsm.c: an address the socket verified, the key-failure
 * budget, region, key, bounds) and then its own (operation, length,
 * alignment).  The answer is a message the kernel queues to the
 * requester like any other, so it is flow- and congestion-controlled as
 * data is and goes as fast as the requester's window lets it; it is
 * charged to the server's send buffer, and a read whose answer the
 * buffer cannot take now is refused (-ENOBUFS), as one it could never
 * take (-EMSGSIZE).  Nothing is read or changed before the answer's
 * memory is in hand.  No answer goes to an address that did not prove
 * itself: a read's answer is larger than its request.
 *
 * The answer (mode WIND_DSM_WIRE_RMA_REPLY) names the requester's
 * landing place in its wind_dsmhdr: with WIND_RMA_F_LAND its own region,
 * key and offset, checked by the requester's kernel as a Direct Map
 * write is (and counted against the server's key-failure budget), and
 * the result written there.  Either way the requester's socket gets a
 * completion: the echoed wind_rmahdr, then the bytes read or the old
 * value unless they landed.  A completion is never refused: a landing
 * that fails is a completion with its status.
 *
 * Atomics act on a naturally aligned 64-bit word of the pinned page
 * with the CPU's atomic instructions (atomic64_*), so they are atomic
 * against the region owner's own threads and against each other.
 * Operands and old values are __be64 on the wire and in the CPU's order
 * in memory and in recvmsg().
 */
#include <linux/atomic.h>
#include <linux/bvec.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "dsm.h"
#include "netns.h"
#include "peer.h"
#include "push.h"
#include "rma.h"
#include "sendmsg.h"
#include "skb.h"
#include "trace.h"

static bool rma_op_ok(u8 op, u32 len)
{
	switch (op) {
	case WIND_RMA_READ:
		return len && len <= WIND_RMA_READ_MAX;
	case WIND_RMA_FETCH_ADD:
	case WIND_RMA_CMP_SWAP:
	case WIND_RMA_SWAP:
		/* a 64-bit CPU's atomics on memory others write too */
		return len == sizeof(u64) && !IS_ENABLED(CONFIG_GENERIC_ATOMIC64);
	}
	return false;
}

/**
 * wind_rma_request() - the wire headers of a one-sided request
 * @req: the WIND_CMSG_RMA the caller sent
 * @w: set to its headers: the wind_dsmhdr, then the wind_rmahdr
 *
 * Return: 0, or -EINVAL for an unknown operation or flag, or a length
 * the operation does not take.
 */
int wind_rma_request(const struct wind_rma *req, struct wind_rma_wire *w)
{
	if ((req->flags & ~WIND_RMA_F_LAND) || req->op > U8_MAX ||
	    !rma_op_ok(req->op, req->len))
		return -EINVAL;
	memset(w, 0, sizeof(*w));
	w->dsm.mode = WIND_DSM_WIRE_RMA;
	w->dsm.region = htonl(req->region);
	w->dsm.offset = cpu_to_be64(req->offset);
	w->dsm.key = cpu_to_be64(req->key);
	w->rma.op = req->op;
	w->rma.flags = req->flags;
	w->rma.len = htonl(req->len);
	w->rma.operand = cpu_to_be64(req->operand);
	w->rma.compare = cpu_to_be64(req->compare);
	w->rma.cookie = cpu_to_be64(req->cookie);
	if (req->flags & WIND_RMA_F_LAND) {
		w->rma.dst_region = htonl(req->dst_region);
		w->rma.dst_offset = cpu_to_be64(req->dst_offset);
		w->rma.dst_key = cpu_to_be64(req->dst_key);
	}
	return 0;
}

/* Apply atomic @op to the word at @off of @r, aligned: returns its old
 * value.
 */
static u64 rma_atomic(struct wind_region_k *r, u64 off, u8 op, u64 operand,
		      u64 compare)
{
	struct page *page;
	atomic64_t *p;
	void *va;
	u64 old;

	off += r->pgoff;
	page = r->pages[off >> PAGE_SHIFT];
	va = kmap_local_page(page);
	p = va + offset_in_page(off);
	switch (op) {
	case WIND_RMA_FETCH_ADD:
		old = atomic64_fetch_add(operand, p);
		break;
	case WIND_RMA_CMP_SWAP:
		old = atomic64_cmpxchg(p, compare, operand);
		break;
	default:
		old = atomic64_xchg(p, operand);
		break;
	}
	kunmap_local(va);
	flush_dcache_page(page);
	return old;
}

/* An iterator over @len bytes at @off of @r.  Returns its bvecs,
 * allocated GFP_ATOMIC (softirq, socket locked), which the caller frees
 * once the packets are filled: the pages stay pinned by the region.
 */
static struct bio_vec *rma_read_iter(struct wind_region_k *r, u64 off,
				     u32 len, struct iov_iter *it)
{
	unsigned int n = 0, nr;
	u32 total = len;
	struct bio_vec *bv;

	off += r->pgoff;
	nr = (offset_in_page(off) + len + PAGE_SIZE - 1) >> PAGE_SHIFT;
	bv = kmalloc_array(nr, sizeof(*bv), GFP_ATOMIC);
	if (!bv)
		return NULL;
	while (len) {
		u32 poff = offset_in_page(off);
		u32 chunk = min_t(u32, len, PAGE_SIZE - poff);

		bv[n].bv_page = r->pages[off >> PAGE_SHIFT];
		bv[n].bv_offset = poff;
		bv[n].bv_len = chunk;
		n++;
		off += chunk;
		len -= chunk;
	}
	iov_iter_bvec(it, WRITE, bv, n, total);
	return bv;
}

/**
 * wind_rma_serve() - serve a one-sided request whose key was checked
 * @peer: the requester, its address verified, its socket locked
 * @r: the region the request names, its key right
 * @dh: the request's wind_dsmhdr
 * @skb: the request: wind_dsmhdr, then wind_rmahdr
 *
 * Return: 0 once the answer is queued, or the refusal: -EACCES for a
 * region whose flags forbid the operation, -EINVAL for a malformed
 * request, an operation or alignment it may not have, -ERANGE for
 * bounds, -EMSGSIZE or -ENOBUFS for an answer the send buffer cannot
 * take, -ENOMEM.  A refused request read and changed nothing.
 */
int wind_rma_serve(struct wind_peer *peer, struct wind_region_k *r,
		   const struct wind_dsmhdr *dh, struct sk_buff *skb)
{
	u64 off = wind_region_off(r, be64_to_cpu(dh->offset)), operand, compare;
	struct wind_rma_wire w = { };
	struct bio_vec *bv = NULL;
	struct sk_buff_head q;
	struct iov_iter it;
	__be64 val = 0;
	struct kvec kv;
	u32 len;
	int err;

	wind_peer_assert_held(peer);
	if (dh->hdr_len || skb->len != sizeof(*dh) + sizeof(w.rma) ||
	    skb_copy_bits(skb, sizeof(*dh), &w.rma, sizeof(w.rma)))
		return -EINVAL;
	len = ntohl(w.rma.len);
	if ((w.rma.flags & ~WIND_RMA_F_LAND) || w.rma.reserved[0] ||
	    w.rma.reserved[1] || w.rma.region || w.rma.offset ||
	    !rma_op_ok(w.rma.op, len))
		return -EINVAL;
	if (r->flags & (w.rma.op == WIND_RMA_READ ? WIND_REGION_F_NO_READ :
			WIND_REGION_F_NO_READ | WIND_REGION_F_NO_WRITE |
			WIND_REGION_F_NO_ATOMIC))
		return -EACCES;
	if (off > r->len || len > r->len - off)
		return -ERANGE;
	if (w.rma.op != WIND_RMA_READ && !IS_ALIGNED(r->uaddr + off, 8))
		return -EINVAL;
	operand = be64_to_cpu(w.rma.operand);
	compare = be64_to_cpu(w.rma.compare);

	/* the answer: where it lands, then the request echoed */
	w.dsm.mode = WIND_DSM_WIRE_RMA_REPLY;
	w.dsm.hdr_len = htonl(sizeof(w.rma));
	if (w.rma.flags & WIND_RMA_F_LAND) {
		w.dsm.region = w.rma.dst_region;
		w.dsm.offset = w.rma.dst_offset;
		w.dsm.key = w.rma.dst_key;
	}
	w.rma.dst_key = 0;
	w.rma.region = dh->region;
	w.rma.offset = dh->offset;
	w.rma.operand = 0;
	w.rma.compare = 0;

	__skb_queue_head_init(&q);
	if (w.rma.op == WIND_RMA_READ) {
		bv = rma_read_iter(r, off, len, &it);
		if (!bv)
			return -ENOMEM;
	} else {
		kv.iov_base = &val;
		kv.iov_len = sizeof(val);
		iov_iter_kvec(&it, WRITE, &kv, 1, sizeof(val));
	}
	err = wind_msg_prepare(peer, &q, &w, sizeof(w), &it, len, GFP_ATOMIC);
	kfree(bv);
	if (err) {
		__skb_queue_purge(&q);
		return err;
	}
	if (w.rma.op != WIND_RMA_READ) {
		/* the answer is in hand: nothing can fail from here on */
		val = cpu_to_be64(rma_atomic(r, off, w.rma.op, operand,
					     compare));
		skb_store_bits(skb_peek(&q), sizeof(w), &val, sizeof(val));
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_IN_RMA_ATOMICS);
	} else {
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_IN_RMA_READS);
	}
	trace_wind_rma_serve(peer, w.rma.op, ntohl(dh->region), off, len);
	wind_msg_queue(peer, &q, sizeof(w) + len, peer->mss,
		       WIND_F_ORDERED | WIND_F_DSM, 0, true);
	wind_push(peer);
	return 0;
}

/**
 * wind_rma_reply_rcv() - the answer to one of our one-sided requests
 * @peer: the server, its socket locked
 * @skb: the answer: wind_dsmhdr, the echoed wind_rmahdr, the result
 * @dh: its wind_dsmhdr
 * @done: set, when the return is 1, to the completion to queue instead
 *	of @skb
 *
 * With WIND_RMA_F_LAND the result is written to our region as Direct Map
 * writes it, after the same checks; whether it landed or not, the
 * completion is queued to recvmsg(): the headers, then the result
 * unless it landed.  A read that does not land is its own completion.
 *
 * Return: 1 to queue *@done (@skb consumed), 2 to queue @skb, or
 * -EINVAL for a malformed answer, -ENOMEM.
 */
int wind_rma_reply_rcv(struct wind_peer *peer, struct sk_buff *skb,
		       const struct wind_dsmhdr *dh, struct sk_buff **done)
{
	struct wind_region_k *r = NULL;
	struct wind_rmahdr rh;
	struct sk_buff *h = NULL;
	u32 len, keep = 0;
	__be64 val = 0;
	u64 off;
	int status = 0;

	wind_peer_assert_held(peer);
	if (ntohl(dh->hdr_len) != sizeof(rh) ||
	    skb_copy_bits(skb, sizeof(*dh), &rh, sizeof(rh)))
		return -EINVAL;
	len = ntohl(rh.len);
	if ((rh.flags & ~WIND_RMA_F_LAND) || !rma_op_ok(rh.op, len) ||
	    skb->len != WIND_RMA_HLEN + len)
		return -EINVAL;
	if (rh.op != WIND_RMA_READ &&
	    skb_copy_bits(skb, WIND_RMA_HLEN, &val, sizeof(val)))
		return -EINVAL;
	off = be64_to_cpu(dh->offset);
	if (rh.flags & WIND_RMA_F_LAND) {
		r = wind_region_get(peer, ntohl(dh->region),
				    be64_to_cpu(dh->key), &status);
		if (r && (r->flags & WIND_REGION_F_NO_WRITE)) {
			r = NULL;
			status = -EACCES;
		} else if (r) {
			off = wind_region_off(r, off);
		}
		if (r && (off > r->len || len > r->len - off)) {
			r = NULL;
			status = -ERANGE;
		}
	} else if (rh.op == WIND_RMA_READ) {
		goto queue_skb;
	} else {
		keep = sizeof(val);
	}
	h = alloc_skb(WIND_RMA_HLEN + keep, GFP_ATOMIC);
	if (!h)
		return -ENOMEM;
	skb_copy_bits(skb, 0, skb_put(h, WIND_RMA_HLEN), WIND_RMA_HLEN);
	if (keep) {
		u64 old = be64_to_cpu(val);

		skb_put_data(h, &old, sizeof(old));
	}
	if (r) {
		if (rh.op == WIND_RMA_READ) {
			wind_region_write(r, off, skb, WIND_RMA_HLEN, len);
		} else {
			u64 old = be64_to_cpu(val);

			wind_region_write_buf(r, off, &old, sizeof(old));
		}
		trace_wind_dsm_write(peer, dh->mode, ntohl(dh->region), off,
				     len);
	}
	*WIND_SKB_CB(h) = *WIND_SKB_CB(skb);
	skb = h;
queue_skb:
	WIND_SKB_CB(skb)->flags |= WIND_F_RMA_DONE;
	WIND_SKB_CB(skb)->rma_status = status;
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_IN_RMA_COMPLETIONS);
	trace_wind_rma_done(peer, rh.op, be64_to_cpu(rh.cookie), status);
	if (!h)
		return 2;
	*done = h;
	return 1;
}

/**
 * wind_rma_completion() - recvmsg()'s WIND_CMSG_RMA for a completion
 * @skb: a completion (wind_rma_reply_rcv()) from the receive queue
 * @rma: set to what the request asked, its status, key and operands 0
 */
void wind_rma_completion(const struct sk_buff *skb, struct wind_rma *rma)
{
	struct wind_rma_wire w;

	memset(rma, 0, sizeof(*rma));
	if (skb_copy_bits(skb, 0, &w, sizeof(w)))
		return;
	rma->op = w.rma.op;
	rma->flags = w.rma.flags;
	rma->region = ntohl(w.rma.region);
	rma->offset = be64_to_cpu(w.rma.offset);
	rma->len = ntohl(w.rma.len);
	rma->cookie = be64_to_cpu(w.rma.cookie);
	rma->status = WIND_SKB_CB(skb)->rma_status;
	if (w.rma.flags & WIND_RMA_F_LAND) {
		rma->dst_region = ntohl(w.dsm.region);
		rma->dst_offset = be64_to_cpu(w.dsm.offset);
	}
}

/**
 * wind_rma_must_wait() - must an in-order message wait to be delivered?
 * @peer: its sender, its socket locked
 * @skb: the message's first packet, all of it in
 *
 * An ordered read or atomic is served once the send buffer can take its
 * answer, as sendmsg() would wait for it: until then it waits in the
 * receive queue (wind_deliver_stalled()), which is flow control, not a
 * refusal.  One whose answer the buffer could never take is delivered,
 * and refused.  Unordered requests are served on arrival: one that
 * finds no room is refused with -ENOBUFS.
 *
 * Return: true if @skb is such a request and must wait.
 */
bool wind_rma_must_wait(struct wind_peer *peer, const struct sk_buff *skb)
{
	struct wind_rma_wire w;
	u32 len;

	wind_peer_assert_held(peer);
	if (WIND_SKB_CB(skb)->nfrags != 1 || skb->len != sizeof(w) ||
	    skb_copy_bits(skb, 0, &w, sizeof(w)) ||
	    w.dsm.mode != WIND_DSM_WIRE_RMA)
		return false;
	len = ntohl(w.rma.len);
	if (!rma_op_ok(w.rma.op, len))
		return false;
	return wind_msg_room(peer, sizeof(w) + len) == -ENOBUFS;
}
